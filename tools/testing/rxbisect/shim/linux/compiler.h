/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: compiler helpers and READ_ONCE/WRITE_ONCE.
 *
 * READ_ONCE/WRITE_ONCE are relaxed __atomic accesses rather than volatile
 * ones so that ThreadSanitizer knows they are intentionally racy; they
 * compile to the same plain loads and stores.  Only scalars of 1, 2, 4 or
 * 8 bytes are supported.
 *
 * The kernel reaches container_of() and ARRAY_SIZE() through headers the
 * model cores include (linux/kernel.h via spinlock.h, linux/string.h);
 * this shim provides them from here, which every core includes.
 */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#include <linux/compiler_types.h>
#include <linux/array_size.h>
#include <linux/container_of.h>
#include "../shim.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" ::: "memory")

/* Both report the access to a simulator's sink (shim.h). */
#define READ_ONCE(x) ({							\
	rxb_shim_note(RXB_SHIM_READ, &(x));				\
	__atomic_load_n(&(x), __ATOMIC_RELAXED); })
#define WRITE_ONCE(x, val)						\
	do {								\
		rxb_shim_note(RXB_SHIM_WRITE, &(x));			\
		__atomic_store_n(&(x), (val), __ATOMIC_RELAXED);	\
	} while (0)

/* An intentional data race (KCSAN annotation): a relaxed access here too. */
#define data_race(x)	({ typeof(x) __v = READ_ONCE(x); __v; })

#endif /* _SHIM_LINUX_COMPILER_H */
