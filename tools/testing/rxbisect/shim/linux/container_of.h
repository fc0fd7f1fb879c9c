/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: container_of(). */
#ifndef _SHIM_LINUX_CONTAINER_OF_H
#define _SHIM_LINUX_CONTAINER_OF_H

#include <stddef.h>
#include <linux/build_bug.h>
#include <linux/compiler_types.h>

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	static_assert(__same_type(*(ptr), ((type *)0)->member) ||	\
		      __same_type(*(ptr), void),			\
		      "pointer type mismatch in container_of()");	\
	((type *)(__mptr - offsetof(type, member))); })

#endif /* _SHIM_LINUX_CONTAINER_OF_H */
