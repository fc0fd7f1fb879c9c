/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: compiler attributes.  The kernel force-includes
 * compiler_types.h into every file; here linux/types.h pulls it in.
 */
#ifndef _SHIM_LINUX_COMPILER_TYPES_H
#define _SHIM_LINUX_COMPILER_TYPES_H

#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#undef __always_inline		/* glibc <sys/cdefs.h> has one too */
#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __cold			__attribute__((__cold__))
#define __pure			__attribute__((__pure__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define fallthrough		__attribute__((__fallthrough__))
#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))

/* Sparse annotations: nothing to check in userspace. */
#define __iomem
#define __rcu
#define __force
#define __bitwise
#define __user
#define __percpu

#endif /* _SHIM_LINUX_COMPILER_TYPES_H */
