/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of the userspace shims that tests inspect: allocation accounting
 * and fault injection (slab.h), WARN_ON() hits (bug.h).  Defined in shim.c.
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

#endif /* _SHIM_SHIM_H */
