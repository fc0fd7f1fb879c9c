/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: snprintf() and friends come from libc. */
#ifndef _SHIM_LINUX_SPRINTF_H
#define _SHIM_LINUX_SPRINTF_H

#include <stdio.h>

#endif /* _SHIM_LINUX_SPRINTF_H */
