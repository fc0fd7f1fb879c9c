/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loaders' common part: strict command-line parsing (bad input: a
 * message and exit 2), native XDP attach through a BPF link (detached when
 * the loader dies, however it dies) and the counters as one JSON line.
 */
#ifndef RXB_NF_USER_H
#define RXB_NF_USER_H

#include <stdio.h>
#include <bpf/libbpf.h>

#include "nf.h"

#define NF_EXIT_USAGE 2

extern const char *nf_prog;

void nf_usage_error(const char *fmt, ...);
void nf_fail(const char *fmt, ...);
__u64 nf_parse_u64(const char *opt, const char *s, __u64 min, __u64 max);
double nf_parse_secs(const char *opt, const char *s);
__be32 nf_parse_ipv4(const char *opt, const char *s);
void nf_parse_prefix(const char *opt, const char *s, __be32 *net, __u32 *len);
void nf_parse_mac(const char *opt, const char *s, __u8 mac[6]);
int nf_ifindex(const char *opt, const char *name);
int nf_if_mac(const char *name, __u8 mac[6]);
void nf_set_flow_map(struct bpf_map *map, __u64 entries);
void nf_egress(struct nf_egress *e, const char *out, const char *dmac, int ifindex);
void nf_add_tx_port(struct bpf_map *tx_ports, int ifindex);
void nf_attach(struct bpf_program *prog, int ifindex, const char *ifname);

/* extra JSON members ("key": value, ...) of an NF, after the counters */
typedef void (*nf_json_fn)(FILE *f, void *arg);
int nf_run(const char *nf, const char *ifname, struct bpf_map *stats,
	   double secs, nf_json_fn extra, void *arg);

#endif /* RXB_NF_USER_H */
