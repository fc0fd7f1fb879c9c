/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the bits of linux/kernel.h a model core might use.  In
 * the kernel, linux/spinlock.h and linux/string.h bring it in, so the
 * shims of those include it too.
 */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/sprintf.h>

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((typeof(x))(a) - 1)) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)

#endif /* _SHIM_LINUX_KERNEL_H */
