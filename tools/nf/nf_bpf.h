/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF side of the network functions: counters, header parsing, RFC 1624
 * incremental checksums and the way out (XDP_TX or a devmap redirect).
 */
#ifndef RXB_NF_BPF_H
#define RXB_NF_BPF_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "nf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NF_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* egress ports of bpf_redirect_map(), keyed by ifindex */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} tx_ports SEC(".maps");

static __always_inline void nf_count(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);

	if (v)
		*v += 1;
}

static __always_inline int nf_drop(__u32 cause)
{
	nf_count(NF_DROP);
	nf_count(cause);
	return XDP_DROP;
}

static __always_inline int nf_pass(void)
{
	nf_count(NF_PASS);
	return XDP_PASS;
}

/* The headers of an IPv4 TCP or UDP frame; l4 NULL for other protocols. */
struct nf_pkt {
	struct ethhdr *eth;
	struct iphdr *ip;
	__be16 *ports;		/* source, destination */
	__sum16 *l4sum;		/* NULL: UDP without checksum */
};

/*
 * 0: IPv4 headers in place (p->ports set for a first fragment of TCP/UDP),
 * 1: not IPv4 (the stack's: ARP, IPv6), < 0: drop with cause -ret.
 */
static __always_inline int nf_parse(struct xdp_md *ctx, struct nf_pkt *p)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	void *l4;

	if ((void *)(eth + 1) > end)
		return -NF_DROP_MALFORMED;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return 1;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl < 5)
		return -NF_DROP_MALFORMED;
	p->eth = eth;
	p->ip = ip;
	p->ports = NULL;
	p->l4sum = NULL;
	if (ip->protocol != IPPROTO_UDP && ip->protocol != IPPROTO_TCP)
		return 0;
	/* later fragments carry no ports; first ones do but their
	 * followers could not be translated alike
	 */
	if (ip->frag_off & bpf_htons(0x3fff))
		return -NF_DROP_FRAG;
	l4 = (void *)ip + ip->ihl * 4;
	if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *udp = l4;

		if ((void *)(udp + 1) > end)
			return -NF_DROP_MALFORMED;
		p->ports = &udp->source;
		if (udp->check)
			p->l4sum = &udp->check;
	} else {
		struct tcphdr *tcp = l4;

		if ((void *)(tcp + 1) > end)
			return -NF_DROP_MALFORMED;
		p->ports = &tcp->source;
		p->l4sum = &tcp->check;
	}
	return 0;
}

/* MurmurHash3's 32-bit mixing of three words (and its finaliser). */
static __always_inline __u32 nf_mix(__u32 h, __u32 k)
{
	k *= 0xcc9e2d51;
	k = (k << 15) | (k >> 17);
	k *= 0x1b873593;
	h ^= k;
	h = (h << 13) | (h >> 19);
	return h * 5 + 0xe6546b64;
}

static __always_inline __u32 nf_hash3(__u32 a, __u32 b, __u32 c)
{
	__u32 h = nf_mix(nf_mix(nf_mix(0x9747b28c, a), b), c);

	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	return h ^ (h >> 16);
}

static __always_inline __u16 nf_fold(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	return (__u16)((s & 0xffff) + (s >> 16));
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), over 16-bit words. */
static __always_inline void nf_csum_replace2(__sum16 *sum, __u16 from, __u16 to)
{
	__u32 s = (__u16)~*sum;

	s += (__u16)~from;
	s += to;
	*sum = (__sum16)~nf_fold(s);
}

static __always_inline void nf_csum_replace4(__sum16 *sum, __be32 from, __be32 to)
{
	__u32 s = (__u16)~*sum;

	s += (__u16)~(from & 0xffff);
	s += (__u16)~(from >> 16);
	s += to & 0xffff;
	s += to >> 16;
	*sum = (__sum16)~nf_fold(s);
}

/* a UDP checksum that comes out 0 is sent as 0xffff (RFC 768) */
static __always_inline void nf_l4_fixup(struct nf_pkt *p)
{
	if (p->ip->protocol == IPPROTO_UDP && p->l4sum && !*p->l4sum)
		*p->l4sum = 0xffff;
}

/* Rewrite an address of the IP header (and of the pseudo header). */
static __always_inline void nf_set_addr(struct nf_pkt *p, __be32 *addr, __be32 to)
{
	nf_csum_replace4(&p->ip->check, *addr, to);
	if (p->l4sum)
		nf_csum_replace4(p->l4sum, *addr, to);
	*addr = to;
}

static __always_inline void nf_set_port(struct nf_pkt *p, __be16 *port, __be16 to)
{
	if (p->l4sum)
		nf_csum_replace2(p->l4sum, *port, to);
	*port = to;
}

static __always_inline void nf_set_macs(struct ethhdr *eth, const __u8 *dmac,
					const __u8 *smac)
{
	__builtin_memcpy(eth->h_dest, dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, smac, ETH_ALEN);
}

static __always_inline void nf_swap_macs(struct ethhdr *eth)
{
	__u8 t[ETH_ALEN];

	__builtin_memcpy(t, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, t, ETH_ALEN);
}

static __always_inline int nf_zero_mac(const __u8 *m)
{
	return !(m[0] | m[1] | m[2] | m[3] | m[4] | m[5]);
}

/*
 * Send a rewritten frame on: out of the ingress port (XDP_TX) or to
 * another (the devmap).  With no next-hop MAC configured, back to the
 * sender (MACs swapped), the hairpin of the seeds' NAT/LB setups.
 */
static __always_inline int nf_out(struct xdp_md *ctx, struct ethhdr *eth,
				  const struct nf_egress *e)
{
	if (nf_zero_mac(e->dmac))
		nf_swap_macs(eth);
	else
		nf_set_macs(eth, e->dmac, e->smac);
	if (!e->ifindex || e->ifindex == ctx->ingress_ifindex) {
		nf_count(NF_TX);
		return XDP_TX;
	}
	nf_count(NF_REDIRECT);
	return bpf_redirect_map(&tx_ports, e->ifindex, 0);
}

#endif /* RXB_NF_BPF_H */
