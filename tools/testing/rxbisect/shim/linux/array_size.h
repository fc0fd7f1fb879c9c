/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: ARRAY_SIZE(), with the kernel's must-be-an-array check. */
#ifndef _SHIM_LINUX_ARRAY_SIZE_H
#define _SHIM_LINUX_ARRAY_SIZE_H

#include <linux/build_bug.h>
#include <linux/compiler_types.h>

#define __must_be_array(a)	BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))

#endif /* _SHIM_LINUX_ARRAY_SIZE_H */
