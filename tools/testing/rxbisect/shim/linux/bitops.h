/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: bit operations, with the kernel's semantics:
 * set_bit/clear_bit/change_bit are atomic and unordered (relaxed);
 * test_and_* are atomic and fully ordered; __set_bit/__clear_bit are
 * non-atomic.  test_bit() and the find_*_bit() searches read each word
 * once with a relaxed load (the kernel's are plain reads that may race
 * with atomic updates; relaxed loads tell ThreadSanitizer so).
 */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/compiler.h>

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BITS_PER_BYTE		8
#define GENMASK(h, l)		(((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))

static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or((unsigned long *)addr + BIT_WORD(nr), BIT_MASK(nr),
			  __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and((unsigned long *)addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline void change_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor((unsigned long *)addr + BIT_WORD(nr), BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

/* clear_bit() with release ordering (bit locks). */
static inline void clear_bit_unlock(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and((unsigned long *)addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_RELEASE);
}

static inline bool test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or((unsigned long *)addr + BIT_WORD(nr),
				 BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

/* test_and_set_bit() with acquire ordering (bit locks). */
static inline bool test_and_set_bit_lock(unsigned long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or((unsigned long *)addr + BIT_WORD(nr),
				 BIT_MASK(nr), __ATOMIC_ACQUIRE) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and((unsigned long *)addr + BIT_WORD(nr),
				  ~BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return __atomic_load_n((const unsigned long *)addr + BIT_WORD(nr),
			       __ATOMIC_RELAXED) & BIT_MASK(nr);
}

static inline bool test_bit_acquire(unsigned long nr, const volatile unsigned long *addr)
{
	return __atomic_load_n((const unsigned long *)addr + BIT_WORD(nr),
			       __ATOMIC_ACQUIRE) & BIT_MASK(nr);
}

/* Non-atomic variants: the caller excludes concurrent writers. */
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

/* Index of the highest set bit; undefined for 0. */
static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

/* Index of the lowest zero bit; undefined for ~0UL. */
#define ffz(word)	__ffs(~(unsigned long)(word))

/* 1-based, 0 for 0, as in the kernel. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int hweight32(u32 w)
{
	return __builtin_popcount(w);
}

static inline unsigned long hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

static inline unsigned int hweight64(u64 w)
{
	return __builtin_popcountll(w);
}

/* Search for a set (@invert == 0) or zero (@invert == ~0UL) bit. */
static inline unsigned long __rxb_find_next(const unsigned long *addr,
					    unsigned long size,
					    unsigned long offset,
					    unsigned long invert)
{
	unsigned long w;

	if (offset >= size)
		return size;
	w = (__atomic_load_n(addr + BIT_WORD(offset), __ATOMIC_RELAXED) ^ invert) &
	    (~0UL << (offset % BITS_PER_LONG));
	offset -= offset % BITS_PER_LONG;
	while (!w) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		w = __atomic_load_n(addr + BIT_WORD(offset), __ATOMIC_RELAXED) ^ invert;
	}
	offset += __ffs(w);
	return offset < size ? offset : size;
}

/* First set/zero bit at or after @offset, or @size if none. */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size, unsigned long offset)
{
	return __rxb_find_next(addr, size, offset, 0);
}

static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	return __rxb_find_next(addr, size, offset, ~0UL);
}

#define find_first_bit(addr, size)	find_next_bit(addr, size, 0)
#define find_first_zero_bit(addr, size)	find_next_zero_bit(addr, size, 0)

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit(addr, size); (bit) < (size);	\
	     (bit) = find_next_bit(addr, size, (bit) + 1))
#define for_each_clear_bit(bit, addr, size)				\
	for ((bit) = find_first_zero_bit(addr, size); (bit) < (size);	\
	     (bit) = find_next_zero_bit(addr, size, (bit) + 1))

#endif /* _SHIM_LINUX_BITOPS_H */
