/* SPDX-License-Identifier: GPL-2.0 */
/* xdp.sh, jumbo.sh: send a frame back to its sender (XDP_TX) with its
 * Ethernet addresses swapped, so that the sender's stack takes it; a
 * frame too short for an Ethernet header is dropped.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>

static __always_inline int xdp_swap_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return XDP_TX;
}
