/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: atomic_t, atomic_long_t and cmpxchg() family on top of
 * the __atomic builtins, with the kernel's ordering rules
 * (Documentation/atomic_t.txt): plain ops and _relaxed are relaxed; ops
 * returning a value are fully ordered (seq_cst) unless suffixed
 * _acquire/_release/_relaxed; atomic_read/atomic_set are relaxed.
 */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

/* cmpxchg family: fully ordered; try_cmpxchg updates *@pold on failure. */
#define cmpxchg(ptr, old, new) ({					\
	typeof(*(ptr)) __old = (old);					\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, &__old, new, false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__old; })
#define cmpxchg_relaxed(ptr, old, new) ({				\
	typeof(*(ptr)) __old = (old);					\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, &__old, new, false,		\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
	__old; })
#define try_cmpxchg(ptr, pold, new) ({					\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, pold, new, false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); })
#define try_cmpxchg_acquire(ptr, pold, new) ({				\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, pold, new, false,		\
				    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE); })
#define try_cmpxchg_release(ptr, pold, new) ({				\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, pold, new, false,		\
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED); })
#define try_cmpxchg_relaxed(ptr, pold, new) ({				\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_compare_exchange_n(ptr, pold, new, false,		\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED); })
#define xchg(ptr, v) ({						\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_exchange_n(ptr, v, __ATOMIC_SEQ_CST); })
#define xchg_relaxed(ptr, v) ({						\
	rxb_shim_note(RXB_SHIM_RMW, ptr);				\
	__atomic_exchange_n(ptr, v, __ATOMIC_RELAXED); })

/*
 * Generates the ops for one atomic type: @pfx is atomic or atomic_long,
 * @t the value type.
 */
#define __RXB_ATOMIC_OPS(pfx, atype, t)					\
static inline t pfx##_read(const atype *v)				\
{ rxb_shim_note(RXB_SHIM_READ, v);					\
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }	\
static inline t pfx##_read_acquire(const atype *v)			\
{ rxb_shim_note(RXB_SHIM_READ, v);					\
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }	\
static inline void pfx##_set(atype *v, t i)				\
{ rxb_shim_note(RXB_SHIM_WRITE, v);					\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline void pfx##_set_release(atype *v, t i)			\
{ rxb_shim_note(RXB_SHIM_WRITE, v);					\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }	\
static inline void pfx##_add(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline void pfx##_sub(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline void pfx##_inc(atype *v)					\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }	\
static inline void pfx##_dec(atype *v)					\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED); }	\
static inline void pfx##_and(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline void pfx##_or(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline void pfx##_andnot(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_fetch_and(&v->counter, ~i, __ATOMIC_RELAXED); }	\
static inline t pfx##_add_return(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_add_return_relaxed(t i, atype *v)		\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline t pfx##_sub_return(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_inc_return(atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_dec_return(atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_add(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_add_relaxed(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline t pfx##_fetch_sub(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_inc(atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_dec(atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_sub(&v->counter, 1, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_or(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_or_acquire(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_ACQUIRE); }	\
static inline t pfx##_fetch_or_release(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_RELEASE); }	\
static inline t pfx##_fetch_or_relaxed(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline t pfx##_fetch_and(t i, atype *v)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_and(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_andnot(t i, atype *v)			\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_and(&v->counter, ~i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_fetch_andnot_release(t i, atype *v)		\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_fetch_and(&v->counter, ~i, __ATOMIC_RELEASE); }	\
static inline t pfx##_xchg(atype *v, t i)				\
{ rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline t pfx##_cmpxchg(atype *v, t old, t new)			\
{									\
	rxb_shim_note(RXB_SHIM_RMW, v);					\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	return old;							\
}									\
static inline bool pfx##_try_cmpxchg(atype *v, t *old, t new)		\
{									\
	rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
}									\
static inline bool pfx##_try_cmpxchg_acquire(atype *v, t *old, t new)	\
{									\
	rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE); \
}									\
static inline bool pfx##_try_cmpxchg_release(atype *v, t *old, t new)	\
{									\
	rxb_shim_note(RXB_SHIM_RMW, v);					\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED); \
}									\
static inline bool pfx##_dec_and_test(atype *v)			\
{ return pfx##_dec_return(v) == 0; }					\
static inline bool pfx##_inc_and_test(atype *v)			\
{ return pfx##_inc_return(v) == 0; }					\
static inline bool pfx##_sub_and_test(t i, atype *v)			\
{ return pfx##_sub_return(i, v) == 0; }

__RXB_ATOMIC_OPS(atomic, atomic_t, int)
__RXB_ATOMIC_OPS(atomic64, atomic64_t, s64)
__RXB_ATOMIC_OPS(atomic_long, atomic_long_t, s64)

#endif /* _SHIM_LINUX_ATOMIC_H */
