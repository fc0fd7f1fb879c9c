/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: string functions come from libc. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>
#include <linux/array_size.h>	/* as in the kernel */
#include <linux/kernel.h>

#endif /* _SHIM_LINUX_STRING_H */
