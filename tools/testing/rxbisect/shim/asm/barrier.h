/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: memory barriers.
 *
 * smp_load_acquire/smp_store_release are __atomic acquire/release accesses.
 * The fences are __atomic_thread_fence, except under ThreadSanitizer, which
 * does not model stand-alone fences (and gcc warns, -Wtsan): there each
 * fence is a sequentially consistent read-modify-write of one global word,
 * which gives TSAN the happens-before edges the fence pairs establish.
 */
#ifndef _SHIM_ASM_BARRIER_H
#define _SHIM_ASM_BARRIER_H

#include <linux/compiler.h>
#include "../shim.h"

#if defined(__SANITIZE_THREAD__)
#define __RXB_SHIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __RXB_SHIM_TSAN 1
#endif
#endif

#ifdef __RXB_SHIM_TSAN
#define __rxb_fence(order)						\
	((void)__atomic_fetch_add(&rxb_shim_fence_word, 0, __ATOMIC_SEQ_CST))
#else
#define __rxb_fence(order)	__atomic_thread_fence(order)
#endif

/*
 * Only smp_mb() is reported (RXB_SHIM_FENCE): on x86 smp_rmb(), smp_wmb()
 * and smp_mb__{before,after}_atomic() order without an instruction.
 */
#define smp_mb()	({ rxb_shim_note(RXB_SHIM_FENCE, NULL);		\
			   __rxb_fence(__ATOMIC_SEQ_CST); })
#define smp_rmb()		__rxb_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__rxb_fence(__ATOMIC_RELEASE)
#define mb()			smp_mb()
#define rmb()			smp_rmb()
#define wmb()			smp_wmb()
#define dma_rmb()		smp_rmb()
#define dma_wmb()		smp_wmb()
#define smp_mb__before_atomic()	__rxb_fence(__ATOMIC_SEQ_CST)
#define smp_mb__after_atomic()	__rxb_fence(__ATOMIC_SEQ_CST)
#define smp_acquire__after_ctrl_dep()	smp_rmb()

#define smp_load_acquire(p) ({					\
	rxb_shim_note(RXB_SHIM_READ, p);				\
	__atomic_load_n(p, __ATOMIC_ACQUIRE); })
#define smp_store_release(p, v)						\
	do {								\
		rxb_shim_note(RXB_SHIM_WRITE, p);			\
		__atomic_store_n(p, v, __ATOMIC_RELEASE);		\
	} while (0)

#endif /* _SHIM_ASM_BARRIER_H */
