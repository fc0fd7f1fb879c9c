/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: power-of-two helpers.  ilog2(0) is undefined, as in the kernel. */
#ifndef _SHIM_LINUX_LOG2_H
#define _SHIM_LINUX_LOG2_H

#include <stdbool.h>
#include <linux/types.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#define ilog2(n)	((int)(63 - __builtin_clzll((unsigned long long)(n))))

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (ilog2(n - 1) + 1);
}

static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << ilog2(n);
}

#define order_base_2(n)	((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif /* _SHIM_LINUX_LOG2_H */
