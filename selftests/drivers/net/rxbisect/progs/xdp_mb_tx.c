// SPDX-License-Identifier: GPL-2.0
/* jumbo.sh: a multi-buffer program (SEC "xdp.frags": loaded with
 * BPF_F_XDP_HAS_FRAGS) that counts what it sees (xdp_mb.h) and sends
 * every frame back out, its Ethernet addresses swapped.
 */
#include "xdp_mb.h"
#include "xdp_swap.h"

SEC("xdp.frags")
int xdp_mb_tx(struct xdp_md *ctx)
{
	mb_count(ctx);
	return xdp_swap_tx(ctx);
}

char _license[] SEC("license") = "GPL";
