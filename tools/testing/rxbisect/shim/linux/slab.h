/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: kmalloc family on top of posix_memalign().
 *
 * Every allocation is cache-line aligned, as kmalloc() objects of that size
 * are in practice, so that structures with ____cacheline_aligned members
 * are not misaligned (UBSan checks).  Allocations are counted in
 * rxb_shim_live_allocs, and can be made to fail (rxb_shim_alloc_fail_after)
 * to test error paths.  GFP flags are ignored.
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/cache.h>
#include "../shim.h"

#define GFP_KERNEL	0x01u
#define GFP_ATOMIC	0x02u
#define GFP_NOWAIT	0x04u
#define __GFP_NOWARN	0x08u
#define __GFP_ZERO	0x10u

static inline void *__rxb_shim_alloc(size_t size, gfp_t flags)
{
	void *p;

	if (__atomic_load_n(&rxb_shim_alloc_fail_after, __ATOMIC_RELAXED) >= 0 &&
	    __atomic_sub_fetch(&rxb_shim_alloc_fail_after, 1, __ATOMIC_RELAXED) < 0) {
		__atomic_store_n(&rxb_shim_alloc_fail_after, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&rxb_shim_alloc_injected, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (posix_memalign(&p, SMP_CACHE_BYTES, size ? size : 1))
		return NULL;
	if (flags & __GFP_ZERO)
		memset(p, 0, size);
	__atomic_add_fetch(&rxb_shim_live_allocs, 1, __ATOMIC_RELAXED);
	return p;
}

static inline void *kmalloc(size_t size, gfp_t flags)
{
	return __rxb_shim_alloc(size, flags);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return __rxb_shim_alloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return __rxb_shim_alloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kfree(const void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&rxb_shim_live_allocs, 1, __ATOMIC_RELAXED);
	free((void *)p);
}

#define kvmalloc(size, flags)		kmalloc(size, flags)
#define kvzalloc(size, flags)		kzalloc(size, flags)
#define kvmalloc_array(n, size, flags)	kmalloc_array(n, size, flags)
#define kvcalloc(n, size, flags)	kcalloc(n, size, flags)
#define kvfree(p)			kfree(p)

#endif /* _SHIM_LINUX_SLAB_H */
