// SPDX-License-Identifier: GPL-2.0
/*
 * nf-l3fwd: load l3fwd.bpf.c on a port in native XDP mode with its routes,
 * print its counters as one JSON line at the end (SIGINT, SIGTERM,
 * --secs) and on SIGUSR1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "nf_user.h"
#include "l3fwd.skel.h"

#define L3_ROUTES_MAX 1024

struct route {
	struct l3_key key;
	struct l3_nexthop nh;
};

static void print_help(void)
{
	printf("usage: %s -i IFNAME -r PREFIX,IF,MAC... [options]\n"
	       "  -i, --ifname IF          the port to attach to (native XDP)\n"
	       "  -r, --route PREFIX,IF,MAC  PREFIX (ADDR/LEN) via egress port IF to\n"
	       "                           the next hop MAC (repeat, at most %d)\n"
	       "  -t, --secs S             run S seconds (default 0: until SIGINT/SIGTERM)\n"
	       "Counters as one JSON line at the end and on SIGUSR1.\n",
	       nf_prog, L3_ROUTES_MAX);
}

static void parse_route(char *s, struct route *r)
{
	char *c1 = strchr(s, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;

	if (!c1 || !c2)
		nf_usage_error("--route: '%s' is not PREFIX,IF,MAC", s);
	*c1 = '\0';
	*c2 = '\0';
	nf_parse_prefix("--route", s, &r->key.addr, &r->key.prefixlen);
	nf_parse_mac("--route", c2 + 1, r->nh.dmac);
	r->nh.ifindex = nf_ifindex("--route", c1 + 1);
	if (nf_if_mac(c1 + 1, r->nh.smac))
		nf_fail("cannot read the MAC address of %s", c1 + 1);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "route", required_argument, NULL, 'r' },
		{ "secs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	static struct route routes[L3_ROUTES_MAX];
	const char *ifname = NULL;
	struct l3fwd_bpf *skel;
	int c, i, n = 0, ifindex;
	double secs = 0;

	nf_prog = "nf-l3fwd";
	opterr = 0;	/* getopt's messages lack the exit 2 hint */
	while ((c = getopt_long(argc, argv, "i:r:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'r':
			if (n == L3_ROUTES_MAX)
				nf_usage_error("--route: more than %d routes", L3_ROUTES_MAX);
			parse_route(optarg, &routes[n++]);
			break;
		case 't':
			secs = nf_parse_secs("--secs", optarg);
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
	if (!ifname || !n)
		nf_usage_error("-i and at least one --route are required");
	ifindex = nf_ifindex("-i", ifname);

	skel = l3fwd_bpf__open_and_load();
	if (!skel)
		nf_fail("cannot load the program: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.routes), &routes[i].key,
					&routes[i].nh, 0))
			nf_fail("cannot add route %d: %s", i + 1, strerror(errno));
		if (routes[i].nh.ifindex != (__u32)ifindex)
			nf_add_tx_port(skel->maps.tx_ports, routes[i].nh.ifindex);
	}
	nf_attach(skel->progs.l3fwd, ifindex, ifname);
	nf_run("l3fwd", ifname, skel->maps.stats, secs, NULL, NULL);
	l3fwd_bpf__destroy(skel);
	return 0;
}
