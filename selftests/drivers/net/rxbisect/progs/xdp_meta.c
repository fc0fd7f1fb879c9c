// SPDX-License-Identifier: GPL-2.0
/*
 * hwtstamp.sh: the XDP metadata kfuncs.  For each IPv4 UDP datagram to
 * port 4646 (network order in dport), record the NIC's RSS hash with its
 * type, the arrival stamp and the receive queue in the next slot of the
 * array map "meta", then XDP_PASS.  Loaded bound to the port
 * (BPF_F_XDP_DEV_BOUND_ONLY) by rxb_xdp_meta.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xdp_meta.h"

/* The kernel's enum (include/net/xdp.h), for the kfunc's prototype. */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx,
					 __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;

#define SLOTS	256

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, __u32);
	__type(value, struct meta);
} meta SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} count SEC(".maps");

SEC("xdp")
int xdp_meta(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);
	enum xdp_rss_hash_type type = 0;
	__u32 zero = 0, *n, slot, hash = 0;
	__u64 ts = 0;
	struct meta *m;

	if ((void *)(udp + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_UDP || ip->ihl != 5 ||
	    udp->dest != bpf_htons(4646))
		return XDP_PASS;
	n = bpf_map_lookup_elem(&count, &zero);
	if (!n)
		return XDP_PASS;
	/* Not atomic (BPF's fetch-and-add needs -mcpu=v3): the sender
	 * spaces the datagrams.
	 */
	slot = *n;
	*n = slot + 1;
	if (slot >= SLOTS)
		return XDP_PASS;
	m = bpf_map_lookup_elem(&meta, &slot);
	if (!m)
		return XDP_PASS;
	m->ts_err = bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	m->hash_err = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	m->ts = ts;
	m->hash = hash;
	m->type = type;
	m->queue = ctx->rx_queue_index;
	m->sport = bpf_ntohs(udp->source);
	m->dport = bpf_ntohs(udp->dest);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
