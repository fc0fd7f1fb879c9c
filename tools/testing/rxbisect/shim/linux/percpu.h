/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: per-CPU data.
 *
 * A "CPU" is a slot that threads run on: a thread gets one at its first
 * use, round robin over nr_cpu_ids, or picks one with rxb_shim_set_cpu()
 * (a test pinning its threads).  Between get_cpu() and put_cpu() the thread
 * owns its CPU (one mutex per CPU), as a kernel task with preemption
 * disabled does: two threads on one CPU take turns, never interleave.
 * Nested get_cpu() calls are counted.  alloc_percpu() memory is zeroed, one
 * cache-line aligned copy per CPU, counted by the slab shim.
 */
#ifndef _SHIM_LINUX_PERCPU_H
#define _SHIM_LINUX_PERCPU_H

#include <linux/cache.h>
#include <linux/slab.h>
#include "../shim.h"

#define nr_cpu_ids		((unsigned int)RXB_SHIM_NR_CPUS)

#define smp_processor_id()	rxb_shim_cpu()
#define get_cpu()		rxb_shim_get_cpu()
#define put_cpu()		rxb_shim_put_cpu()

#define __RXB_PCPU_STRIDE(size)						\
	(((size_t)(size) + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1))
#define alloc_percpu(type)						\
	((type *)__rxb_shim_alloc(nr_cpu_ids * __RXB_PCPU_STRIDE(sizeof(type)), \
				  __GFP_ZERO))
#define free_percpu(p)		kfree(p)
#define per_cpu_ptr(p, cpu) ({						\
	typeof(p) __pcp = (p);						\
	(typeof(__pcp))((char *)__pcp +					\
			(size_t)(cpu) * __RXB_PCPU_STRIDE(sizeof(*__pcp))); })
#define this_cpu_ptr(p)		per_cpu_ptr(p, smp_processor_id())
#define get_cpu_ptr(p)		per_cpu_ptr(p, get_cpu())
#define put_cpu_ptr(p)		do { (void)(p); put_cpu(); } while (0)

#endif /* _SHIM_LINUX_PERCPU_H */
