// SPDX-License-Identifier: GPL-2.0
/*
 * lb: a Maglev L4 load balancer (Eisenbud et al., NSDI '16, §3.3-3.4;
 * the seeds' LB: thesis ch. 5, seed-thesis.md §3.3; Ensō's Maglev,
 * seed-enso.md §4).
 * A packet to the VIP is looked up in the connection map (the 5-tuple,
 * an LRU hash of --conn-max entries: 10 M by default, as in the papers'
 * large connection tables); a new connection takes the backend of its
 * hash's entry in the lookup table of prime size M, which the loader
 * fills with Maglev's population (each backend gets M/N entries, within
 * one).  Maglev encapsulates in GRE to the backend; we rewrite the
 * destination address instead (as a DSR-less L4 LB would) and send the
 * frame on with nf_out().  Other traffic is passed to the stack.
 */
#include "nf_bpf.h"

struct lb_cfg cfg;

/* max_entries: M, set by the loader (--table-size) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} lb_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LB_MAX_BACKENDS);
	__type(key, __u32);
	__type(value, struct lb_backend);
} backends SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LB_MAX_BACKENDS);
	__type(key, __u32);
	__type(value, __u64);
} backend_pkts SEC(".maps");

/* max_entries: set by the loader (--conn-max) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, struct lb_key);
	__type(value, __u32);
} conns SEC(".maps");

SEC("xdp")
int lb(struct xdp_md *ctx)
{
	struct lb_backend *be;
	struct lb_key k = {};
	struct nf_pkt p;
	__u32 idx, slot, *v;
	__u64 *n;
	int ret;

	nf_count(NF_RX);
	ret = nf_parse(ctx, &p);
	if (ret < 0)
		return nf_drop(-ret);
	if (ret > 0 || !p.ports || p.ip->daddr != cfg.vip ||
	    (cfg.vport && p.ports[1] != cfg.vport))
		return nf_pass();
	k.saddr = p.ip->saddr;
	k.daddr = p.ip->daddr;
	k.sport = p.ports[0];
	k.dport = p.ports[1];
	k.proto = p.ip->protocol;
	v = bpf_map_lookup_elem(&conns, &k);
	/* an entry of a backend since removed is no connection */
	if (v && *v < cfg.nbackends) {
		idx = *v;
		nf_count(NF_FLOW_HIT);
	} else {
		if (!cfg.table_size)
			return nf_drop(NF_DROP_NO_BACKEND);
		slot = nf_hash3(k.saddr, k.daddr, (__u32)k.sport << 16 | k.dport) ^ k.proto;
		slot %= cfg.table_size;
		v = bpf_map_lookup_elem(&lb_table, &slot);
		if (!v || *v >= cfg.nbackends)
			return nf_drop(NF_DROP_NO_BACKEND);
		idx = *v;
		if (bpf_map_update_elem(&conns, &k, &idx, BPF_ANY))
			return nf_drop(NF_DROP_CONN_FULL);
		nf_count(NF_NEW_FLOW);
	}
	be = bpf_map_lookup_elem(&backends, &idx);
	if (!be)
		return nf_drop(NF_DROP_NO_BACKEND);
	n = bpf_map_lookup_elem(&backend_pkts, &idx);
	if (n)
		*n += 1;
	nf_set_addr(&p, &p.ip->daddr, be->addr);
	nf_l4_fixup(&p);
	return nf_out(ctx, p.eth, &cfg.egress);
}

char LICENSE[] SEC("license") = "GPL";
