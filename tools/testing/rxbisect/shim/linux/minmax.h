/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: min/max/clamp, evaluating each argument once.  Unlike
 * the kernel's, min() and max() do not reject mixed-signedness arguments:
 * the kernel build is the one that enforces that.
 */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#define min(x, y)	({ typeof(x) __x = (x); typeof(y) __y = (y); __x < __y ? __x : __y; })
#define max(x, y)	({ typeof(x) __x = (x); typeof(y) __y = (y); __x > __y ? __x : __y; })
#define min3(x, y, z)	min((typeof(x))min(x, y), z)
#define max3(x, y, z)	max((typeof(x))max(x, y), z)
#define min_t(type, x, y)	({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define max_t(type, x, y)	({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })
#define umin(x, y)	min_t(unsigned long long, x, y)
#define umax(x, y)	max_t(unsigned long long, x, y)
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi)	min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(typeof(val), val, lo, hi)
#define swap(a, b)	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif /* _SHIM_LINUX_MINMAX_H */
