/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: kernel integer, endian and atomic types. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/compiler_types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;

/* Endian-annotated types: plain integers (no sparse in userspace). */
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;

typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef unsigned int gfp_t;

/* As in the kernel, the atomic types live here; their ops in atomic.h. */
typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
typedef atomic64_t atomic_long_t;

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

#endif /* _SHIM_LINUX_TYPES_H */
