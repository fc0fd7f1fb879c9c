// SPDX-License-Identifier: GPL-2.0
/*
 * nat: source NAT of UDP and TCP (the seeds' NAT: thesis ch. 5, Fig. 5.6,
 * in seed-thesis.md §3.3, which gives no more of its design
 * than "NAT").  What we chose: an endpoint-independent mapping (RFC 4787
 * REQ-1) of each inside address and port to one port of the single
 * external address, taken from a port range by hashing the inside
 * endpoint and probing NAT_PROBES ports; two LRU hash maps (inside ->
 * port, port -> inside) of --flows entries stand in for mapping
 * timeouts.  Outbound (source in the inside prefix): source rewritten;
 * inbound (to the external address): destination rewritten back; both
 * then leave as nf_out() says.  ICMP and other protocols are passed to
 * the stack, not translated.
 */
#include "nf_bpf.h"

#define NAT_PROBES 8

struct nat_cfg cfg;

/* max_entries: set by the loader (--flows) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, struct nat_key);
	__type(value, __be16);
} nat_out SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, struct nat_key);
	__type(value, struct nat_key);
} nat_in SEC(".maps");

static __always_inline int nat_outbound(struct xdp_md *ctx, struct nf_pkt *p)
{
	struct nat_key in = { .addr = p->ip->saddr, .port = p->ports[0],
			      .proto = p->ip->protocol };
	struct nat_key ext = { .addr = cfg.ext_addr, .proto = in.proto };
	struct nat_key *owner;
	__be16 *port = bpf_map_lookup_elem(&nat_out, &in);
	__be16 eport;
	__u32 h;
	int i;

	if (port) {
		eport = *port;
		nf_count(NF_FLOW_HIT);
		goto rewrite;
	}
	if (!cfg.port_span)
		return nf_drop(NF_DROP_NO_PORT);
	h = nf_hash3(in.addr, in.port, in.proto);
	/* unrolled: no back-edge for older verifiers to refuse */
#pragma clang loop unroll(full)
	for (i = 0; i < NAT_PROBES; i++) {
		ext.port = bpf_htons(cfg.port_lo + (h + i) % cfg.port_span);
		owner = bpf_map_lookup_elem(&nat_in, &ext);
		/* ours already: the outbound entry alone was recycled */
		if (owner && (owner->addr != in.addr || owner->port != in.port))
			continue;
		if (!owner && bpf_map_update_elem(&nat_in, &ext, &in, BPF_NOEXIST))
			continue;	/* another CPU took it just now */
		if (bpf_map_update_elem(&nat_out, &in, &ext.port, BPF_ANY))
			return nf_drop(NF_DROP_CONN_FULL);
		nf_count(NF_NEW_FLOW);
		eport = ext.port;
		goto rewrite;
	}
	return nf_drop(NF_DROP_NO_PORT);
rewrite:
	nf_set_addr(p, &p->ip->saddr, cfg.ext_addr);
	nf_set_port(p, &p->ports[0], eport);
	nf_l4_fixup(p);
	return nf_out(ctx, p->eth, &cfg.egress);
}

static __always_inline int nat_inbound(struct xdp_md *ctx, struct nf_pkt *p)
{
	struct nat_key ext = { .addr = cfg.ext_addr, .port = p->ports[1],
			       .proto = p->ip->protocol };
	struct nat_key *in = bpf_map_lookup_elem(&nat_in, &ext);
	struct nat_key to;

	if (!in)
		return nf_drop(NF_DROP_NO_ROUTE);
	to = *in;
	nf_count(NF_FLOW_HIT);
	nf_set_addr(p, &p->ip->daddr, to.addr);
	nf_set_port(p, &p->ports[1], to.port);
	nf_l4_fixup(p);
	return nf_out(ctx, p->eth, &cfg.egress);
}

SEC("xdp")
int nat(struct xdp_md *ctx)
{
	struct nf_pkt p;
	int ret;

	nf_count(NF_RX);
	ret = nf_parse(ctx, &p);
	if (ret < 0)
		return nf_drop(-ret);
	if (ret > 0 || !p.ports)
		return nf_pass();
	if ((p.ip->saddr & cfg.inside_mask) == cfg.inside_net)
		return nat_outbound(ctx, &p);
	if (p.ip->daddr == cfg.ext_addr)
		return nat_inbound(ctx, &p);
	return nf_pass();
}

char LICENSE[] SEC("license") = "GPL";
