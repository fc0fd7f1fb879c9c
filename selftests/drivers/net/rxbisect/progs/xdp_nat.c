// SPDX-License-Identifier: GPL-2.0
/* nicmem.sh: a minimal destination NAT.  An IPv4 UDP or TCP packet to
 * nat_cfg.match_port gets destination address nat_cfg.new_daddr and port
 * nat_cfg.new_port, its IPv4 and L4 checksums updated incrementally (RFC
 * 1624), its Ethernet addresses swapped, and goes back out of the port it
 * came in on: XDP_TX, or with nat_cfg.redirect_ifindex set, XDP_REDIRECT
 * to that device (bpf_redirect()).  Everything else passes.
 *
 * Only the headers are read or written: under the NIC's header/data split
 * the payload stays in NIC memory (a fragment: "xdp.frags").
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* Set by the test (bpftool map update) before traffic: network order. */
struct nat_cfg {
	__u32 new_daddr;
	__u16 match_port;
	__u16 new_port;
	__u32 redirect_ifindex;		/* host order; 0: XDP_TX */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nat_cfg);
} nat_cfg_map SEC(".maps");

/* RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m'), 16 bits at a time. */
static __always_inline __u16 csum_replace16(__u16 sum, __u16 old, __u16 new)
{
	__u32 s = (__u16)~sum + (__u16)~old + new;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return ~s;
}

static __always_inline __u16 csum_replace32(__u16 sum, __u32 old, __u32 new)
{
	sum = csum_replace16(sum, old >> 16, new >> 16);
	return csum_replace16(sum, old & 0xffff, new & 0xffff);
}

SEC("xdp.frags")
int xdp_nat(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];
	struct nat_cfg *cfg;
	struct iphdr *ip;
	__u16 *dport, *l4sum;
	__u32 key = 0, old_daddr;
	__u16 old_port;

	cfg = bpf_map_lookup_elem(&nat_cfg_map, &key);
	if (!cfg || !cfg->match_port)
		return XDP_PASS;
	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5)
		return XDP_PASS;
	if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(ip + 1);

		if ((void *)(uh + 1) > end)
			return XDP_PASS;
		dport = &uh->dest;
		l4sum = &uh->check;
	} else if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(ip + 1);

		if ((void *)(th + 1) > end)
			return XDP_PASS;
		dport = &th->dest;
		l4sum = &th->check;
	} else {
		return XDP_PASS;
	}
	if (*dport != cfg->match_port)
		return XDP_PASS;

	old_daddr = ip->daddr;
	old_port = *dport;
	ip->daddr = cfg->new_daddr;
	*dport = cfg->new_port;
	ip->check = csum_replace32(ip->check, old_daddr, ip->daddr);
	/* UDP over IPv4: 0 means no checksum, and stays so. */
	if (ip->protocol == IPPROTO_TCP || *l4sum) {
		__u16 s = csum_replace32(*l4sum, old_daddr, ip->daddr);

		s = csum_replace16(s, old_port, *dport);
		if (ip->protocol == IPPROTO_UDP && !s)
			s = 0xffff;
		*l4sum = s;
	}
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	if (cfg->redirect_ifindex)
		return bpf_redirect(cfg->redirect_ifindex, 0);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
