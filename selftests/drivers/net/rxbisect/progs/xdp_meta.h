/* SPDX-License-Identifier: GPL-2.0 */
/* hwtstamp.sh: what xdp_meta.bpf.o records of each frame (its "meta"
 * array) and rxb_xdp_meta reads back: one layout for both.
 */
#ifndef XDP_META_H
#define XDP_META_H

#include <linux/types.h>

struct meta {
	__u64 ts;
	__s32 ts_err;
	__s32 hash_err;
	__u32 hash;
	__u32 type;
	__u32 queue;
	__u16 sport;
	__u16 dport;
};

#endif
