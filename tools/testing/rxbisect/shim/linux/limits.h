/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/limits.h>: the kernel's fixed-width limits. */
#ifndef _SHIM_LINUX_LIMITS_H
#define _SHIM_LINUX_LIMITS_H

#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))

#endif /* _SHIM_LINUX_LIMITS_H */
