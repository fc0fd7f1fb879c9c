// SPDX-License-Identifier: GPL-2.0
/*
 * nf-nat: load nat.bpf.c on a port in native XDP mode, print its counters
 * as one JSON line at the end (SIGINT, SIGTERM, --secs) and on SIGUSR1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "nf_user.h"
#include "nat.skel.h"

/* ~2 GiB of LRU entries: anything beyond is a typo, not a NAT */
#define NAT_FLOWS_MAX 16777216ULL

static void print_help(void)
{
	printf("usage: %s -i IFNAME --inside PREFIX --external ADDR [options]\n"
	       "  -i, --ifname IF       the port to attach to (native XDP)\n"
	       "  --inside PREFIX       sources translated outbound (e.g. 192.0.2.0/24)\n"
	       "  --external ADDR       the external address\n"
	       "  --ports LO-HI         external ports (default 1024-65535)\n"
	       "  --flows N             mappings kept, LRU (default 1048576, max %llu)\n"
	       "  --out IF --dmac MAC   send to IF's next hop MAC (default: back\n"
	       "                        out of IFNAME, MACs swapped; --dmac alone: to MAC)\n"
	       "  -t, --secs S          run S seconds (default 0: until SIGINT/SIGTERM)\n"
	       "Counters as one JSON line at the end and on SIGUSR1.\n",
	       nf_prog, NAT_FLOWS_MAX);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "inside", required_argument, NULL, 'I' },
		{ "external", required_argument, NULL, 'E' },
		{ "ports", required_argument, NULL, 'p' },
		{ "flows", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "dmac", required_argument, NULL, 'm' },
		{ "secs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *ifname = NULL, *inside = NULL, *external = NULL;
	const char *out = NULL, *dmac = NULL;
	__u64 flows = 1048576, lo = 1024, hi = 65535;
	struct nat_bpf *skel;
	__be32 net, ext;
	__u32 plen;
	double secs = 0;
	int c, ifindex, err;
	char *dash;

	nf_prog = "nf-nat";
	opterr = 0;	/* getopt's messages lack the exit 2 hint */
	while ((c = getopt_long(argc, argv, "i:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'I':
			inside = optarg;
			break;
		case 'E':
			external = optarg;
			break;
		case 'f':
			flows = nf_parse_u64("--flows", optarg, 1, NAT_FLOWS_MAX);
			break;
		case 'o':
			out = optarg;
			break;
		case 'm':
			dmac = optarg;
			break;
		case 't':
			secs = nf_parse_secs("--secs", optarg);
			break;
		case 'p':
			dash = strchr(optarg, '-');
			if (!dash)
				nf_usage_error("--ports: '%s' is not a range LO-HI", optarg);
			*dash = '\0';
			lo = nf_parse_u64("--ports", optarg, 1, 65535);
			hi = nf_parse_u64("--ports", dash + 1, 1, 65535);
			if (lo > hi)
				nf_usage_error("--ports: %llu > %llu", (unsigned long long)lo,
					       (unsigned long long)hi);
			break;
		case 'h':
			print_help();
			return 0;
		default:
			nf_usage_error("bad option or missing argument: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		nf_usage_error("unexpected argument '%s'", argv[optind]);
	if (!ifname || !inside || !external)
		nf_usage_error("-i, --inside and --external are required");
	nf_parse_prefix("--inside", inside, &net, &plen);
	ext = nf_parse_ipv4("--external", external);
	ifindex = nf_ifindex("-i", ifname);

	skel = nat_bpf__open();
	if (!skel)
		nf_fail("cannot open the BPF object");
	skel->bss->cfg.inside_net = net;
	skel->bss->cfg.inside_mask = plen ? htonl(~0u << (32 - plen)) : 0;
	skel->bss->cfg.ext_addr = ext;
	skel->bss->cfg.port_lo = lo;
	skel->bss->cfg.port_span = hi - lo + 1;
	nf_egress(&skel->bss->cfg.egress, out, dmac, ifindex);
	nf_set_flow_map(skel->maps.nat_out, flows);
	nf_set_flow_map(skel->maps.nat_in, flows);
	err = nat_bpf__load(skel);
	if (err)
		nf_fail("cannot load the program with %llu flows: %s%s",
			(unsigned long long)flows, strerror(-err),
			err == -ENOMEM || err == -E2BIG ? " (map too large: lower --flows)" : "");
	if (skel->bss->cfg.egress.ifindex)
		nf_add_tx_port(skel->maps.tx_ports, skel->bss->cfg.egress.ifindex);
	nf_attach(skel->progs.nat, ifindex, ifname);
	nf_run("nat", ifname, skel->maps.stats, secs, NULL, NULL);
	nat_bpf__destroy(skel);
	return 0;
}
