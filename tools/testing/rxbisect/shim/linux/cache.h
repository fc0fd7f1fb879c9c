/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: cache-line alignment (64 bytes, as on x86-64). */
#ifndef _SHIM_LINUX_CACHE_H
#define _SHIM_LINUX_CACHE_H

#include <linux/compiler_types.h>

#define L1_CACHE_BYTES			64
#define SMP_CACHE_BYTES			L1_CACHE_BYTES
#define ____cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp	____cacheline_aligned
#define __cacheline_aligned		____cacheline_aligned
#define __cacheline_aligned_in_smp	____cacheline_aligned

#endif /* _SHIM_LINUX_CACHE_H */
