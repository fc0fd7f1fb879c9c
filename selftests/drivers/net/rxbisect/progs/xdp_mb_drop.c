// SPDX-License-Identifier: GPL-2.0
/* jumbo.sh: a multi-buffer program (SEC "xdp.frags": loaded with
 * BPF_F_XDP_HAS_FRAGS) that counts what it sees (xdp_mb.h) and
 * drops every frame.
 */
#include "xdp_mb.h"

SEC("xdp.frags")
int xdp_mb_drop(struct xdp_md *ctx)
{
	mb_count(ctx);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
