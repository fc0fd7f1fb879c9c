// SPDX-License-Identifier: GPL-2.0
/*
 * l3fwd: an IPv4 router's fast path, after DPDK's l3fwd in LPM mode (the
 * seeds' l3fwd: COREC's Table 2, seed-corec.md; the thesis's RFC 2544
 * runs, seed-thesis.md §3.3).  Longest-prefix match of the destination in
 * an LPM trie, the TTL decremented with an incremental checksum update
 * (RFC 1624), the next hop's MACs written, and the frame sent out of its
 * egress port: XDP_TX when that is the ingress port, else the devmap.
 * DPDK's l3fwd neither checks the TTL nor answers with ICMP; we drop
 * TTL <= 1 and count it, as a router would before its ICMP time exceeded.
 * Non-IPv4 frames go to the stack (ARP).
 */
#include "nf_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct l3_key);
	__type(value, struct l3_nexthop);
} routes SEC(".maps");

SEC("xdp")
int l3fwd(struct xdp_md *ctx)
{
	struct l3_nexthop *nh;
	struct l3_key k;
	struct nf_pkt p;
	__u16 old;
	int ret;

	nf_count(NF_RX);
	ret = nf_parse(ctx, &p);
	if (ret == -NF_DROP_FRAG)
		ret = 0;	/* a router forwards fragments */
	if (ret < 0)
		return nf_drop(-ret);
	if (ret > 0)
		return nf_pass();
	k.prefixlen = 32;
	k.addr = p.ip->daddr;
	nh = bpf_map_lookup_elem(&routes, &k);
	if (!nh)
		return nf_drop(NF_DROP_NO_ROUTE);
	if (p.ip->ttl <= 1)
		return nf_drop(NF_DROP_TTL);
	old = *(__u16 *)&p.ip->ttl;
	p.ip->ttl--;
	nf_csum_replace2(&p.ip->check, old, *(__u16 *)&p.ip->ttl);
	nf_set_macs(p.eth, nh->dmac, nh->smac);
	if (nh->ifindex == ctx->ingress_ifindex) {
		nf_count(NF_TX);
		return XDP_TX;
	}
	nf_count(NF_REDIRECT);
	return bpf_redirect_map(&tx_ports, nh->ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
