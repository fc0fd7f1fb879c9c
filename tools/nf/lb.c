// SPDX-License-Identifier: GPL-2.0
/*
 * nf-lb: fill Maglev's lookup table, load lb.bpf.c on a port in native XDP
 * mode, print its counters (and each backend's packets and table entries)
 * as one JSON line at the end (SIGINT, SIGTERM, --secs) and on SIGUSR1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>

#include "nf_user.h"
#include "lb.skel.h"

/* 10 M connections, as in the papers (about 1 GiB of LRU hash) */
#define LB_CONN_DEFAULT 10000000ULL
#define LB_CONN_MAX 268435456ULL
/* Maglev's small table size (§3.4: M >> N; 65537 in its evaluation) */
#define LB_M_DEFAULT 65537
#define LB_M_MAX 16777213

struct lb_state {
	struct lb_bpf *skel;
	__be32 addr[LB_MAX_BACKENDS];
	__u32 share[LB_MAX_BACKENDS];	/* table entries of each backend */
	int n;
	__u64 conn_max;
};

static void print_help(void)
{
	printf("usage: %s -i IFNAME --vip ADDR[:PORT] --backend ADDR... [options]\n"
	       "  -i, --ifname IF       the port to attach to (native XDP)\n"
	       "  --vip ADDR[:PORT]     the virtual service (PORT 0 or none: any)\n"
	       "  -b, --backend ADDR    a backend (repeat, at most %d)\n"
	       "  --table-size M        Maglev lookup table entries, prime (default %d)\n"
	       "  --conn-max N          connection map entries, LRU (default %llu,\n"
	       "                        max %llu)\n"
	       "  --out IF --dmac MAC   send to IF's next hop MAC (default: back\n"
	       "                        out of IFNAME, MACs swapped; --dmac alone: to MAC)\n"
	       "  -t, --secs S          run S seconds (default 0: until SIGINT/SIGTERM)\n"
	       "Counters as one JSON line at the end and on SIGUSR1.\n",
	       nf_prog, LB_MAX_BACKENDS, LB_M_DEFAULT, LB_CONN_DEFAULT, LB_CONN_MAX);
}

static int is_prime(__u64 m)
{
	__u64 d;

	if (m < 2)
		return 0;
	for (d = 2; d * d <= m; d++)
		if (m % d == 0)
			return 0;
	return 1;
}

/* FNV-1a with a seed: Maglev's h1 and h2 of a backend's name (§3.4). */
static __u64 fnv(const char *s, __u64 seed)
{
	__u64 h = 0xcbf29ce484222325ULL ^ seed;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

/* Maglev's population (Pseudocode 1): each backend in turn takes the next
 * free entry of its permutation (offset + j * skip) mod M.
 */
static void maglev_populate(__u32 *entry, __u32 m, const __be32 *addr, int n, __u32 *share)
{
	__u64 *offset = calloc(n, sizeof(*offset));
	__u64 *skip = calloc(n, sizeof(*skip));
	__u64 *next = calloc(n, sizeof(*next));
	char name[INET_ADDRSTRLEN];
	__u32 filled = 0, c;
	int i;

	if (!offset || !skip || !next)
		nf_fail("out of memory");
	for (c = 0; c < m; c++)
		entry[c] = ~0u;
	for (i = 0; i < n; i++) {
		inet_ntop(AF_INET, &addr[i], name, sizeof(name));
		offset[i] = fnv(name, 0x5bd1e995) % m;
		skip[i] = fnv(name, 0x27d4eb2f) % (m - 1) + 1;
		share[i] = 0;
	}
	while (filled < m) {
		for (i = 0; i < n && filled < m; i++) {
			do {
				c = (offset[i] + next[i] * skip[i]) % m;
				next[i]++;
			} while (entry[c] != ~0u);
			entry[c] = i;
			share[i]++;
			filled++;
		}
	}
	free(offset);
	free(skip);
	free(next);
}

static void lb_json(FILE *f, void *arg)
{
	struct lb_state *st = arg;
	int ncpu = libbpf_num_possible_cpus();
	char a[INET_ADDRSTRLEN];
	__u64 *v = calloc(ncpu, sizeof(*v)), sum;
	__u32 i;
	int c;

	if (!v)
		nf_fail("out of memory");
	fprintf(f, ", \"conn_max\": %llu, \"table_size\": %u, \"backends\": [",
		(unsigned long long)st->conn_max, st->skel->bss->cfg.table_size);
	for (i = 0; i < (__u32)st->n; i++) {
		inet_ntop(AF_INET, &st->addr[i], a, sizeof(a));
		fprintf(f, "%s\"%s\"", i ? ", " : "", a);
	}
	fprintf(f, "], \"table_share\": [");
	for (i = 0; i < (__u32)st->n; i++)
		fprintf(f, "%s%u", i ? ", " : "", st->share[i]);
	fprintf(f, "], \"backend_pkts\": [");
	for (i = 0; i < (__u32)st->n; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(st->skel->maps.backend_pkts), &i, v))
			nf_fail("cannot read the backend counters: %s", strerror(errno));
		for (sum = 0, c = 0; c < ncpu; c++)
			sum += v[c];
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)sum);
	}
	fprintf(f, "]");
	free(v);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "vip", required_argument, NULL, 'V' },
		{ "backend", required_argument, NULL, 'b' },
		{ "table-size", required_argument, NULL, 'M' },
		{ "conn-max", required_argument, NULL, 'C' },
		{ "out", required_argument, NULL, 'o' },
		{ "dmac", required_argument, NULL, 'm' },
		{ "secs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *ifname = NULL, *vip = NULL, *out = NULL, *dmac = NULL;
	struct lb_state st = { .conn_max = LB_CONN_DEFAULT };
	__u64 m = LB_M_DEFAULT, vport = 0;
	struct lb_backend be = {};
	double secs = 0;
	int c, i, ifindex, err;
	__u32 *table, *keys, k, cnt;
	char *colon;

	nf_prog = "nf-lb";
	opterr = 0;	/* getopt's messages lack the exit 2 hint */
	while ((c = getopt_long(argc, argv, "i:b:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'V':
			vip = optarg;
			break;
		case 'b':
			if (st.n == LB_MAX_BACKENDS)
				nf_usage_error("--backend: more than %d backends", LB_MAX_BACKENDS);
			st.addr[st.n] = nf_parse_ipv4("--backend", optarg);
			for (i = 0; i < st.n; i++)
				if (st.addr[i] == st.addr[st.n])
					nf_usage_error("--backend: %s given twice", optarg);
			st.n++;
			break;
		case 'M':
			m = nf_parse_u64("--table-size", optarg, 2, LB_M_MAX);
			if (!is_prime(m))
				nf_usage_error("--table-size: %llu is not prime (Maglev's M)",
					       (unsigned long long)m);
			break;
		case 'C':
			st.conn_max = nf_parse_u64("--conn-max", optarg, 1, LB_CONN_MAX);
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
		case 'h':
			print_help();
			return 0;
		default:
			nf_usage_error("bad option or missing argument: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		nf_usage_error("unexpected argument '%s'", argv[optind]);
	if (!ifname || !vip || !st.n)
		nf_usage_error("-i, --vip and at least one --backend are required");
	colon = strchr(vip, ':');
	if (colon) {
		*colon = '\0';
		vport = nf_parse_u64("--vip", colon + 1, 0, 65535);
	}
	if (m < (__u64)st.n)
		nf_usage_error("--table-size: %llu entries for %d backends",
			       (unsigned long long)m, st.n);
	ifindex = nf_ifindex("-i", ifname);

	st.skel = lb_bpf__open();
	if (!st.skel)
		nf_fail("cannot open the BPF object");
	st.skel->bss->cfg.vip = nf_parse_ipv4("--vip", vip);
	st.skel->bss->cfg.vport = htons(vport);
	st.skel->bss->cfg.table_size = m;
	st.skel->bss->cfg.nbackends = st.n;
	nf_egress(&st.skel->bss->cfg.egress, out, dmac, ifindex);
	nf_set_flow_map(st.skel->maps.lb_table, m);
	nf_set_flow_map(st.skel->maps.conns, st.conn_max);
	err = lb_bpf__load(st.skel);
	if (err)
		nf_fail("cannot load the program with a %llu-entry connection map: %s%s",
			(unsigned long long)st.conn_max, strerror(-err),
			err == -ENOMEM || err == -E2BIG ?
			" (map too large: lower --conn-max)" : "");
	table = calloc(m, sizeof(*table));
	keys = calloc(m, sizeof(*keys));
	if (!table || !keys)
		nf_fail("out of memory");
	maglev_populate(table, m, st.addr, st.n, st.share);
	for (k = 0; k < m; k++)
		keys[k] = k;
	/* one syscall, not M: M is 65537 and syscalls are slow under TCG */
	cnt = m;
	if (bpf_map_update_batch(bpf_map__fd(st.skel->maps.lb_table), keys, table, &cnt, NULL))
		for (k = 0; k < m; k++)
			if (bpf_map_update_elem(bpf_map__fd(st.skel->maps.lb_table), &k,
						&table[k], 0))
				nf_fail("cannot fill the lookup table: %s", strerror(errno));
	free(keys);
	free(table);
	for (k = 0; k < (__u32)st.n; k++) {
		be.addr = st.addr[k];
		if (bpf_map_update_elem(bpf_map__fd(st.skel->maps.backends), &k, &be, 0))
			nf_fail("cannot set the backends: %s", strerror(errno));
	}
	if (st.skel->bss->cfg.egress.ifindex)
		nf_add_tx_port(st.skel->maps.tx_ports, st.skel->bss->cfg.egress.ifindex);
	nf_attach(st.skel->progs.lb, ifindex, ifname);
	nf_run("lb", ifname, st.skel->maps.stats, secs, lb_json, &st);
	lb_bpf__destroy(st.skel);
	return 0;
}
