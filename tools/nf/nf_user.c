// SPDX-License-Identifier: GPL-2.0
/*
 * The loaders' common part (nf_user.h).
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>

#include "nf_user.h"

const char *nf_prog = "nf";

void nf_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", nf_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help)\n", nf_prog);
	exit(NF_EXIT_USAGE);
}

void nf_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", nf_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Decimal digits only: no sign, no space, no 0x, no suffix. */
__u64 nf_parse_u64(const char *opt, const char *s, __u64 min, __u64 max)
{
	unsigned long long v;
	const char *c;
	char *end;

	for (c = s; *c; c++)
		if (*c < '0' || *c > '9')
			break;
	if (!*s || *c)
		nf_usage_error("%s: '%s' is not a whole number in %llu..%llu", opt, s,
			       (unsigned long long)min, (unsigned long long)max);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		nf_usage_error("%s: %s is out of range %llu..%llu", opt, s,
			       (unsigned long long)min, (unsigned long long)max);
	return v;
}

/* Seconds, 0 (until a signal) to a day, decimals allowed. */
double nf_parse_secs(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0 || v > 86400 ||
	    strchr(s, 'x') || strchr(s, 'X'))
		nf_usage_error("%s: '%s' is not a number of seconds in 0..86400", opt, s);
	return v;
}

__be32 nf_parse_ipv4(const char *opt, const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		nf_usage_error("%s: '%s' is not an IPv4 address", opt, s);
	return a.s_addr;
}

void nf_parse_prefix(const char *opt, const char *s, __be32 *net, __u32 *len)
{
	const char *slash = strchr(s, '/');
	char addr[INET_ADDRSTRLEN];
	__u32 mask;

	if (!slash || slash - s >= (long)sizeof(addr))
		nf_usage_error("%s: '%s' is not an IPv4 prefix ADDR/LEN", opt, s);
	memcpy(addr, s, slash - s);
	addr[slash - s] = '\0';
	*net = nf_parse_ipv4(opt, addr);
	*len = nf_parse_u64(opt, slash + 1, 0, 32);
	mask = *len ? htonl(~0u << (32 - *len)) : 0;
	if (*net & ~mask)
		nf_usage_error("%s: '%s' has host bits set", opt, s);
}

void nf_parse_mac(const char *opt, const char *s, __u8 mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &tail) != 6)
		nf_usage_error("%s: '%s' is not a MAC address xx:xx:xx:xx:xx:xx", opt, s);
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
}

int nf_ifindex(const char *opt, const char *name)
{
	unsigned int i;

	if (!*name || strlen(name) >= IF_NAMESIZE)
		nf_usage_error("%s: '%s' is not an interface name", opt, name);
	i = if_nametoindex(name);
	if (!i)
		nf_usage_error("%s: no such device '%s'", opt, name);
	return i;
}

int nf_if_mac(const char *name, __u8 mac[6])
{
	char path[64 + IF_NAMESIZE], buf[32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = !!fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	nf_parse_mac(path, buf, mac);
	return 0;
}

void nf_set_flow_map(struct bpf_map *map, __u64 entries)
{
	int err = bpf_map__set_max_entries(map, entries);

	if (err)
		nf_fail("map %s: cannot set %llu entries: %s", bpf_map__name(map),
			(unsigned long long)entries, strerror(-err));
}

/* --out IFNAME and --dmac MAC into e; smac: the egress port's own MAC. */
void nf_egress(struct nf_egress *e, const char *out, const char *dmac, int ifindex)
{
	const char *eg = out;

	memset(e, 0, sizeof(*e));
	if (out) {
		e->ifindex = nf_ifindex("--out", out);
		if (e->ifindex == (__u32)ifindex)
			e->ifindex = 0;
	}
	if (out && !dmac)
		nf_usage_error("--out needs --dmac (the next hop's MAC)");
	if (!dmac)
		return;
	nf_parse_mac("--dmac", dmac, e->dmac);
	if (!eg) {
		static char name[IF_NAMESIZE];

		eg = if_indextoname(ifindex, name);
	}
	if (!eg || nf_if_mac(eg, e->smac))
		nf_fail("cannot read the MAC address of the egress port");
}

void nf_add_tx_port(struct bpf_map *tx_ports, int ifindex)
{
	__u32 k = ifindex, v = ifindex;

	if (bpf_map_update_elem(bpf_map__fd(tx_ports), &k, &v, BPF_ANY))
		nf_fail("cannot add ifindex %d to the egress ports: %s", ifindex,
			strerror(errno));
}

static int nf_link_fd = -1;

/* Native mode only: XDP_FLAGS_DRV_MODE; the generic hook is no NIC path. */
void nf_attach(struct bpf_program *prog, int ifindex, const char *ifname)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = XDP_FLAGS_DRV_MODE);
	int fd;

	fd = bpf_link_create(bpf_program__fd(prog), ifindex, BPF_XDP, &opts);
	if (fd < 0) {
		int e = errno;

		nf_fail("cannot attach to %s in native XDP mode: %s%s", ifname,
			strerror(e),
			e == EBUSY || e == EEXIST ? " (another XDP program is attached)" :
			e == EOPNOTSUPP ? " (the driver has no native XDP)" : "");
	}
	/* the link: closed at exit (or death), the program detaches */
	nf_link_fd = fd;
}

/* set by the signal handler: atomics, which the main loop re-reads */
static int nf_stop, nf_dump;

static void nf_on_signal(int sig)
{
	__atomic_store_n(sig == SIGUSR1 ? &nf_dump : &nf_stop, 1, __ATOMIC_RELAXED);
}

static void nf_print(FILE *f, const char *nf, const char *ifname, struct bpf_map *stats,
		     double secs, nf_json_fn extra, void *arg)
{
	static const char * const names[] = NF_STAT_NAMES;
	int ncpu = libbpf_num_possible_cpus();
	__u64 sum[NF_STAT_MAX] = { 0 };
	__u64 *v;
	__u32 i;
	int c;

	v = calloc(ncpu > 0 ? ncpu : 1, sizeof(*v));
	if (!v || ncpu <= 0)
		nf_fail("out of memory");
	for (i = 0; i < NF_STAT_MAX; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(stats), &i, v))
			nf_fail("cannot read the counters: %s", strerror(errno));
		for (c = 0; c < ncpu; c++)
			sum[i] += v[c];
	}
	free(v);
	fprintf(f, "{\"nf\": \"%s\", \"ifname\": \"%s\", \"secs\": %.3f", nf, ifname, secs);
	for (i = 0; i < NF_STAT_MAX; i++) {
		if (i > NF_DROP && i < NF_NEW_FLOW)
			continue;
		fprintf(f, ", \"%s\": %llu", names[i], (unsigned long long)sum[i]);
	}
	fprintf(f, ", \"drops\": {");
	for (i = NF_DROP + 1; i < NF_NEW_FLOW; i++)
		fprintf(f, "%s\"%s\": %llu", i == NF_DROP + 1 ? "" : ", ", names[i],
			(unsigned long long)sum[i]);
	fprintf(f, "}");
	if (extra)
		extra(f, arg);
	fprintf(f, "}\n");
	fflush(f);
}

static double nf_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Run until SIGINT/SIGTERM or secs (0: no limit); SIGUSR1 prints the
 * counters so far.  Prints them at the end; the caller exits, which
 * closes the link and detaches the program.
 */
int nf_run(const char *nf, const char *ifname, struct bpf_map *stats, double secs,
	   nf_json_fn extra, void *arg)
{
	struct sigaction sa = { .sa_handler = nf_on_signal };
	double t0 = nf_now();

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	fprintf(stderr, "%s: attached to %s\n", nf_prog, ifname);
	while (!__atomic_load_n(&nf_stop, __ATOMIC_RELAXED)) {
		double left = secs ? t0 + secs - nf_now() : 1;

		if (left <= 0)
			break;
		usleep(left < 0.05 ? left * 1e6 : 50000);
		if (__atomic_exchange_n(&nf_dump, 0, __ATOMIC_RELAXED))
			nf_print(stdout, nf, ifname, stats, nf_now() - t0, extra, arg);
	}
	nf_print(stdout, nf, ifname, stats, nf_now() - t0, extra, arg);
	return 0;
}
