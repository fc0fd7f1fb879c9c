/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: offsetof() and friends. */
#ifndef _SHIM_LINUX_STDDEF_H
#define _SHIM_LINUX_STDDEF_H

#include <stddef.h>

#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER)	(offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))

#endif /* _SHIM_LINUX_STDDEF_H */
