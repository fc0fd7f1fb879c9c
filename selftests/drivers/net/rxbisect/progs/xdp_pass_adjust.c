// SPDX-License-Identifier: GPL-2.0
/* xdp.sh: XDP_PASS after moving the packet's start, end and metadata: a
 * priority tag (802.1Q, VLAN 0) inserted after the Ethernet addresses (4
 * bytes of headroom taken), 16 bytes of padding at the end (which IP
 * ignores) and 8 bytes of metadata.  The stack gets the same packet in a
 * frame 20 bytes longer.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass_adjust(struct xdp_md *ctx)
{
	void *data, *end;
	__u8 *p;
	__u64 *meta;

	if (bpf_xdp_adjust_head(ctx, -4))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	p = data;
	if ((void *)(p + 4 + ETH_HLEN) > end)
		return XDP_ABORTED;
	/* The addresses 4 bytes down, then the tag before the ethertype. */
	__builtin_memmove(p, p + 4, 2 * ETH_ALEN);
	*(__be16 *)(p + 12) = bpf_htons(ETH_P_8021Q);
	*(__be16 *)(p + 14) = 0;
	if (bpf_xdp_adjust_tail(ctx, 16))
		return XDP_ABORTED;
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_ABORTED;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	*meta = 0x5258424953454354ULL;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
