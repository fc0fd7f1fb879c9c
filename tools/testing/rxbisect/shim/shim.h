/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of the userspace shims that tests inspect: allocation accounting
 * and fault injection (slab.h), WARN_ON() hits (bug.h), the CPUs of
 * per-CPU data (percpu.h).  Defined in shim.c.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

/* kmalloc-family allocations not yet freed. */
extern long rxb_shim_live_allocs;
/*
 * Fault injection: when >= 0, that many more kmalloc-family calls succeed,
 * then all fail until it is set back to -1 (the default: never fail).
 */
extern long rxb_shim_alloc_fail_after;
/* kmalloc-family calls failed by injection. */
extern long rxb_shim_alloc_injected;
/* WARN_ON() conditions hit. */
extern long rxb_shim_warnings;
/* Target of the read-modify-write that stands in for fences under TSAN. */
extern unsigned long rxb_shim_fence_word;

/* Per-CPU data (linux/percpu.h): the CPUs threads run on. */
#define RXB_SHIM_NR_CPUS	8
/* The calling thread's CPU: given at its first use, round robin. */
int rxb_shim_cpu(void);
/* Run the calling thread on @cpu from now on (not between get/put_cpu). */
void rxb_shim_set_cpu(int cpu);
/* get_cpu()/put_cpu(): own the thread's CPU, as preemption disabled. */
int rxb_shim_get_cpu(void);
void rxb_shim_put_cpu(void);

#endif /* _SHIM_SHIM_H */
