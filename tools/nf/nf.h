/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the network functions' BPF programs and their loaders share: the
 * per-CPU counters (one array map "stats" indexed by enum nf_stat) and the
 * map layouts.  Included by both sides, so only fixed-size UAPI types.
 */
#ifndef RXB_NF_H
#define RXB_NF_H

#include <linux/types.h>

enum nf_stat {
	NF_RX,			/* frames the program saw */
	NF_TX,			/* XDP_TX: out of the port it came in on */
	NF_REDIRECT,		/* bpf_redirect_map() to another port */
	NF_PASS,		/* XDP_PASS: not for this NF (ARP, ICMP, ...) */
	NF_DROP,		/* XDP_DROP, the sum of the causes below */
	NF_DROP_MALFORMED,	/* truncated headers, IHL < 5 */
	NF_DROP_FRAG,		/* an IPv4 fragment: no ports to translate */
	NF_DROP_NO_ROUTE,	/* l3fwd: no route; nat: no mapping (inbound) */
	NF_DROP_TTL,		/* l3fwd: TTL 0 or 1 */
	NF_DROP_CONN_FULL,	/* a flow map refused a new entry */
	NF_DROP_NO_BACKEND,	/* lb: the lookup table has no backend */
	NF_DROP_NO_PORT,	/* nat: no free external port for the flow */
	NF_NEW_FLOW,		/* nat: mappings made; lb: connections added */
	NF_FLOW_HIT,		/* packets of a known flow */
	NF_STAT_MAX,
};

#define NF_STAT_NAMES { "rx", "tx", "redirect", "pass", "drop", \
	"malformed", "frag", "no_route", "ttl_expired", "conn_map_full", \
	"no_backend", "no_port", "new_flows", "flow_hits" }

/* Where a translated or forwarded frame leaves (nat, lb). */
struct nf_egress {
	__u32 ifindex;		/* 0: XDP_TX out of the ingress port */
	__u8 dmac[6];		/* all zero: swap source and destination */
	__u8 smac[6];
};

/* nat: endpoint-independent mapping (RFC 4787 REQ-1) of an inside
 * address and port to an external port of the one external address.
 */
struct nat_key {
	__be32 addr;
	__be16 port;
	__u8 proto;
	__u8 pad;
};

/* nat: its configuration (.bss, set by the loader) */
struct nat_cfg {
	__be32 inside_net;
	__be32 inside_mask;
	__be32 ext_addr;
	__u16 port_lo;		/* host order */
	__u16 port_span;	/* ports port_lo .. port_lo + span - 1 */
	struct nf_egress egress;
};

/* lb: a connection, the 5-tuple. */
struct lb_key {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
	__u8 proto;
	__u8 pad[3];
};

#define LB_MAX_BACKENDS 64

struct lb_backend {
	__be32 addr;
	__u32 pad;
};

/* lb: its configuration (.bss, set by the loader) */
struct lb_cfg {
	__be32 vip;
	__be16 vport;		/* 0: every port of the VIP */
	__u16 pad;
	__u32 table_size;	/* M, prime */
	__u32 nbackends;
	struct nf_egress egress;
};

/* l3fwd: an LPM trie key and the next hop it leads to. */
struct l3_key {
	__u32 prefixlen;
	__be32 addr;
};

struct l3_nexthop {
	__u32 ifindex;
	__u8 dmac[6];
	__u8 smac[6];
};

#endif /* RXB_NF_H */
