/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: WARN_ON() prints and counts in rxb_shim_warnings (tests
 * check it stays 0); BUG_ON() aborts.
 */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include "../shim.h"

#define WARN(cond, fmt, ...) ({						\
	int __c = !!(cond);						\
	if (unlikely(__c)) {						\
		__atomic_add_fetch(&rxb_shim_warnings, 1, __ATOMIC_RELAXED); \
		fprintf(stderr, "WARNING: %s:%d: " fmt "\n",		\
			__FILE__, __LINE__, ##__VA_ARGS__);		\
	}								\
	unlikely(__c); })
#define WARN_ON(cond)		WARN(cond, "WARN_ON(%s)", #cond)
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define WARN_ONCE(cond, fmt, ...)	WARN(cond, fmt, ##__VA_ARGS__)
#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond)) {					\
			fprintf(stderr, "BUG: %s:%d: BUG_ON(%s)\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)
#define BUG()	BUG_ON(1)

#endif /* _SHIM_LINUX_BUG_H */
