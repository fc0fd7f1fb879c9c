// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's RSS parser and Toeplitz hash.
 *
 * Input order follows the Microsoft RSS specification: source address,
 * destination address, then source and destination port for TCP and UDP
 * over IPv4 or IPv6, each field as the flow type's hash-field register
 * selects it (all four by default).  IPv4 fragments and other L4 protocols
 * hash the addresses only; non-IP frames hash to 0 (queue of indirection
 * entry 0).
 */
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <linux/if_vlan.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include "nic_hw.h"

static u32 rxb_toeplitz(const u8 *key, const u8 *in, unsigned int len)
{
	u32 v = (key[0] << 24) | (key[1] << 16) | (key[2] << 8) | key[3];
	u32 hash = 0;
	unsigned int i, b;

	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (in[i] & (0x80 >> b))
				hash ^= v;
			v <<= 1;
			if (key[i + 4] & (0x80 >> b))
				v |= 1;
		}
	}
	return hash;
}

/**
 * rxb_nic_parse() - the NIC's parser: extract a frame's flow key.
 * @frame: the first @len bytes of the frame.
 * @len: bytes available at @frame.
 * @t: filled (zeroed first): family 0 for frames that are not IP.
 */
void rxb_nic_parse(const u8 *frame, unsigned int len,
		   struct rxb_nic_tuple *t)
{
	unsigned int off = ETH_HLEN, l4_off;
	__be16 proto;
	u8 l4_proto;

	memset(t, 0, sizeof(*t));
	if (len < ETH_HLEN)
		return;
	proto = ((const struct ethhdr *)frame)->h_proto;
	if (proto == htons(ETH_P_8021Q) && len >= VLAN_ETH_HLEN) {
		proto = ((const struct vlan_ethhdr *)frame)->h_vlan_encapsulated_proto;
		off = VLAN_ETH_HLEN;
	}
	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *ip = (const void *)(frame + off);

		if (len < off + sizeof(*ip) || ip->version != 4 || ip->ihl < 5)
			return;
		t->src[0] = ip->saddr;
		t->dst[0] = ip->daddr;
		t->family = 4;
		l4_proto = ip->protocol;
		l4_off = off + ip->ihl * 4;
		if (ip->frag_off & htons(IP_MF | IP_OFFSET))
			l4_proto = 0;
	} else if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6 = (const void *)(frame + off);

		if (len < off + sizeof(*ip6) || ip6->version != 6)
			return;
		memcpy(t->src, &ip6->saddr, sizeof(t->src));
		memcpy(t->dst, &ip6->daddr, sizeof(t->dst));
		t->family = 6;
		l4_proto = ip6->nexthdr;
		l4_off = off + sizeof(*ip6);
	} else {
		return;
	}
	if ((l4_proto == IPPROTO_TCP || l4_proto == IPPROTO_UDP) &&
	    len >= l4_off + 4) {
		memcpy(&t->sport, frame + l4_off, 2);
		memcpy(&t->dport, frame + l4_off + 2, 2);
		t->proto = l4_proto;
	}
}

/**
 * rxb_rss_hash() - hash a frame as the NIC's RSS engine does.
 * @key: 40-byte Toeplitz key.
 * @t: the frame's flow key (rxb_nic_parse()).
 * @fields: the input fields of the frame's flow type (RXB_RSS_F_*): for
 *	TCP and UDP frames, the flow type's register; for other IP frames,
 *	both addresses (the ports are ignored there).
 * @hash_flags: set to RXB_CQE_F_L4_HASH (a port hashed),
 *	RXB_CQE_F_L3_HASH (addresses only) or 0.
 *
 * Return: the hash, 0 for frames RSS does not cover (not IP, or no field
 * selected).
 */
u32 rxb_rss_hash(const u8 *key, const struct rxb_nic_tuple *t, u8 fields,
		 u8 *hash_flags)
{
	unsigned int alen = t->family == 6 ? 16 : 4, in_len = 0;
	u8 in[36];

	*hash_flags = 0;
	if (!t->family)
		return 0;
	if (!t->proto)
		fields &= RXB_RSS_F_SRC | RXB_RSS_F_DST;
	if (fields & RXB_RSS_F_SRC) {
		memcpy(in, t->src, alen);
		in_len += alen;
	}
	if (fields & RXB_RSS_F_DST) {
		memcpy(in + in_len, t->dst, alen);
		in_len += alen;
	}
	if (fields & RXB_RSS_F_SPORT) {
		memcpy(in + in_len, &t->sport, 2);
		in_len += 2;
	}
	if (fields & RXB_RSS_F_DPORT) {
		memcpy(in + in_len, &t->dport, 2);
		in_len += 2;
	}
	if (!in_len)
		return 0;
	*hash_flags = fields & (RXB_RSS_F_SPORT | RXB_RSS_F_DPORT) ?
		      RXB_CQE_F_L4_HASH : RXB_CQE_F_L3_HASH;
	return rxb_toeplitz(key, in, in_len);
}

/**
 * rxb_nic_parse_l4() - where the parts of a TCP or UDP frame are: the
 *	parser of the stages that look into the payload (the header/data
 *	split, the TLS engine).
 * @skb: the frame (Ethernet, one optional VLAN tag).
 * @s: filled in.
 *
 * Return: true for TCP or UDP over IPv4 (not a fragment) or IPv6 (no
 * extension header) whose headers are all in the frame; @s->end is where
 * the IP packet says it ends (the frame may be longer: padding).
 */
bool rxb_nic_parse_l4(const struct sk_buff *skb, struct rxb_nic_l4 *s)
{
	union {
		struct iphdr ip;
		struct ipv6hdr ip6;
		struct tcphdr tcp;
		struct vlan_hdr vlan;
		__be16 proto;
	} b;
	const void *h;
	u32 off = ETH_HLEN;
	__be16 proto;

	h = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
			       sizeof(b.proto), &b);
	if (!h)
		return false;
	proto = *(const __be16 *)h;
	if (proto == htons(ETH_P_8021Q)) {
		h = skb_header_pointer(skb, off, sizeof(b.vlan), &b);
		if (!h)
			return false;
		proto = ((const struct vlan_hdr *)h)->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
	}
	s->l3 = off;
	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *ip = skb_header_pointer(skb, off,
							    sizeof(b.ip), &b);

		if (!ip || ip->ihl < 5 || ip_is_fragment(ip))
			return false;
		s->family = 4;
		s->proto = ip->protocol;
		s->end = off + ntohs(ip->tot_len);
		off += ip->ihl * 4;
	} else if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6 = skb_header_pointer(skb, off,
							       sizeof(b.ip6),
							       &b);

		if (!ip6)
			return false;
		s->family = 6;
		s->proto = ip6->nexthdr;
		s->end = off + sizeof(*ip6) + ntohs(ip6->payload_len);
		off += sizeof(*ip6);
	} else {
		return false;
	}
	s->l4 = off;
	s->seq = 0;
	if (s->proto == IPPROTO_TCP) {
		const struct tcphdr *th = skb_header_pointer(skb, off,
							     sizeof(b.tcp), &b);

		if (!th || th->doff < 5)
			return false;
		s->seq = ntohl(th->seq);
		s->data = off + th->doff * 4;
	} else if (s->proto == IPPROTO_UDP) {
		s->data = off + sizeof(struct udphdr);
	} else {
		return false;
	}
	return true;
}
