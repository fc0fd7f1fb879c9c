// SPDX-License-Identifier: GPL-2.0
/* jumbo.sh: a multi-buffer program (SEC "xdp.frags": loaded with
 * BPF_F_XDP_HAS_FRAGS) that counts what it sees (xdp_mb.h) and
 * sends every frame back out, its Ethernet addresses swapped.
 */
#include "xdp_mb.h"

SEC("xdp.frags")
int xdp_mb_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];

	mb_count(ctx);
	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
