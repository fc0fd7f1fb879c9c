/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: errno values.
 *
 * The values are the uapi ones that libc's <errno.h> also uses.  This file
 * shadows the uapi <linux/errno.h> that glibc's <errno.h> itself includes
 * (via <bits/errno.h>), so it must define them the same way:
 * through <asm/errno.h>, not through <errno.h>, which would be a cycle.
 */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#include <asm/errno.h>

/* Kernel-internal codes that userspace does not see. */
#define ERESTARTSYS	512
#define EPROBE_DEFER	517
#define ENOTSUPP	524

#endif /* _SHIM_LINUX_ERRNO_H */
