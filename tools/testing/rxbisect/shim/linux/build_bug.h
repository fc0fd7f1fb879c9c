/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: compile-time assertions (C11 _Static_assert). */
#ifndef _SHIM_LINUX_BUILD_BUG_H
#define _SHIM_LINUX_BUILD_BUG_H

/*
 * Like the kernel's, static_assert() takes an optional message, so the
 * one-argument form works.  <assert.h> would define a two-argument one.
 */
#undef static_assert
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)

/* Zero, or a build error if @e is true; usable in expressions. */
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))

/*
 * Build error if @cond is true.  Stricter than the kernel: @cond must be
 * an integer constant expression (the kernel also accepts conditions the
 * optimiser folds).  A statement, as in the kernel.
 */
#define BUILD_BUG_ON_MSG(cond, msg)					\
	((void)sizeof(struct { _Static_assert(!(cond), msg); int _dummy; }))
#define BUILD_BUG_ON(cond)	BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON(" #cond ")")
#define BUILD_BUG_ON_NOT_POWER_OF_2(n)					\
	BUILD_BUG_ON((n) == 0 || (((n) & ((n) - 1)) != 0))
#define BUILD_BUG()		BUILD_BUG_ON_MSG(1, "BUILD_BUG")

#endif /* _SHIM_LINUX_BUILD_BUG_H */
