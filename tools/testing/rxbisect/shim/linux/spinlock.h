/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: spinlock_t is a pthread mutex.  ThreadSanitizer knows
 * mutexes, and a sleeping lock behaves better than a spinning one when the
 * test runs more threads than CPUs (a preempted holder).  The _bh/_irq
 * variants are the same lock: there are no interrupts here.
 */
#ifndef _SHIM_LINUX_SPINLOCK_H
#define _SHIM_LINUX_SPINLOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/kernel.h>	/* as in the kernel */

typedef struct {
	pthread_mutex_t m;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ .m = PTHREAD_MUTEX_INITIALIZER }
#define DEFINE_SPINLOCK(name)		spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

static inline void spin_lock_init(spinlock_t *l)
{
	pthread_mutex_init(&l->m, NULL);
}

/*
 * A simulator's sink (shim.h) sees an acquisition as one RMW of the lock
 * word (RXB_SHIM_LOCK), a release as a store, and a failed trylock as the
 * load that found the lock taken (queued_spin_trylock()).
 */
static inline void spin_lock(spinlock_t *l)
{
	pthread_mutex_lock(&l->m);
	rxb_shim_note(RXB_SHIM_LOCK, l);
}

static inline void spin_unlock(spinlock_t *l)
{
	rxb_shim_note(RXB_SHIM_WRITE, l);
	pthread_mutex_unlock(&l->m);
}

/* Returns 1 if the lock was taken, as in the kernel. */
static inline int spin_trylock(spinlock_t *l)
{
	int ok = pthread_mutex_trylock(&l->m) == 0;

	rxb_shim_note(ok ? RXB_SHIM_LOCK : RXB_SHIM_READ, l);
	return ok;
}

#define spin_lock_bh(l)				spin_lock(l)
#define spin_unlock_bh(l)			spin_unlock(l)
#define spin_lock_irq(l)			spin_lock(l)
#define spin_unlock_irq(l)			spin_unlock(l)
#define spin_lock_irqsave(l, flags)		do { (flags) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags)	do { (void)(flags); spin_unlock(l); } while (0)
#define spin_trylock_bh(l)			spin_trylock(l)

#define lockdep_assert_held(l)		do { (void)(l); } while (0)
/* No bottom halves here: NIC contexts are threads (see percpu.h). */
#define lockdep_assert_in_softirq()	do { } while (0)

#endif /* _SHIM_LINUX_SPINLOCK_H */
