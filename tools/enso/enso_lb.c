// SPDX-License-Identifier: GPL-2.0
/*
 * enso_lb: a Maglev-style load balancer on Ensō pipes (enso.rst).  UDP
 * and TCP over IPv4 to PORT..PORT+NPIPES-1 on IF are read in place from
 * one pipe per port; each frame's flow picks a backend in a Maglev lookup
 * table (maglev.h) of TABLE slots; the frame is copied with the backend's
 * MAC as destination (the old destination as source) and its IPv4
 * address as destination (IPv4 and UDP/TCP checksums fixed), and sent out
 * of IF through a TX pipe.
 *
 *   enso_lb -i IF -p PORT -b IP@MAC[,IP@MAC...] [-n NPIPES] [-m TABLE]
 *           [-s PIPE_KB] [-c COUNT] [-t SECONDS] [-v]
 *   enso_lb -L -b IP@MAC[,...] [-m TABLE]
 *
 * Exits after COUNT frames (default: never) or SECONDS (default: never)
 * and prints the frames each backend got (-v: and each flow's backend).
 * -L: no device; for each line "SRC SPORT DST DPORT PROTO" on stdin print
 * the backend the table picks (the selftest's reference).  Exit: 0, 1 on
 * failure, 2 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "enso.h"
#include "maglev.h"

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: enso_lb -i IF -p PORT -b IP@MAC[,IP@MAC...] [-n NPIPES] [-m TABLE] [-s PIPE_KB] [-c COUNT] [-t SECONDS] [-v]\n"
		"       enso_lb -L -b IP@MAC[,IP@MAC...] [-m TABLE]\n"
		"  NPIPES 1..%d (default 1), TABLE a prime up to %d (default %d),\n"
		"  PIPE_KB a power of two in 4..2048 (default 64), backends 1..%d\n",
		ENSO_MAX_PIPES - 1, MAGLEV_MAX_M, MAGLEV_MAX_M,
		MAGLEV_MAX_BACKENDS);
	exit(2);
}

#define CLI_PROG "enso_lb"
#include "cli.h"
#include "serve.h"

struct backend {
	char name[64];		/* as given: IP@MAC, the table's key */
	uint32_t ip;		/* network order */
	uint8_t mac[6];
	unsigned long long frames;
};

static struct backend be[MAGLEV_MAX_BACKENDS];
static unsigned int nbe;

/* Parse "IP@MAC,IP@MAC,...", or usage. */
static void parse_backends(char *s)
{
	char *tok, *save = NULL;
	size_t l = strlen(s);

	/* No empty entry: strtok_r() would skip it. */
	if (!l || s[0] == ',' || s[l - 1] == ',' || strstr(s, ",,"))
		bad_usage();
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct backend *b = &be[nbe];
		char *at = strchr(tok, '@');
		struct in_addr a;
		unsigned int m[6], i;
		char tail;

		if (nbe == MAGLEV_MAX_BACKENDS || !at ||
		    strlen(tok) >= sizeof(b->name))
			bad_usage();
		*at = 0;
		if (inet_pton(AF_INET, tok, &a) != 1 ||
		    sscanf(at + 1, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2],
			   &m[3], &m[4], &m[5], &tail) != 6)
			bad_usage();
		for (i = 0; i < 6; i++) {
			if (m[i] > 0xff)
				bad_usage();
			b->mac[i] = (uint8_t)m[i];
		}
		*at = '@';
		for (i = 0; i < nbe; i++)
			if (be[i].ip == a.s_addr)
				bad_usage();
		b->ip = a.s_addr;
		snprintf(b->name, sizeof(b->name), "%s", tok);
		nbe++;
	}
	if (!nbe)
		bad_usage();
}

/* One's complement sum helpers (RFC 1624: HC' = ~(~HC + ~m + m')). */
static uint16_t csum_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* Checksum at @c (network order) after a 32-bit field @from became @to
 * (both as stored).
 */
static void csum_replace4(uint8_t *c, uint32_t from, uint32_t to)
{
	uint16_t hc = (uint16_t)(c[0] << 8 | c[1]);
	const uint8_t *f = (const uint8_t *)&from, *t = (const uint8_t *)&to;
	uint32_t s = (uint16_t)~hc;

	s += (uint16_t)~(f[0] << 8 | f[1]);
	s += (uint16_t)~(f[2] << 8 | f[3]);
	s += (uint16_t)(t[0] << 8 | t[1]);
	s += (uint16_t)(t[2] << 8 | t[3]);
	hc = (uint16_t)~csum_fold(s);
	c[0] = hc >> 8;
	c[1] = hc & 0xff;
}

#define MAX_FLOWS	1024

static struct flow_rec {
	uint32_t src;
	uint16_t sport;
	uint8_t proto;
	uint8_t be;
} flows[MAX_FLOWS];
static unsigned int nflows;

static void note_flow(uint32_t src, uint16_t sport, uint8_t proto,
		      unsigned int b)
{
	unsigned int i;

	for (i = 0; i < nflows; i++)
		if (flows[i].src == src && flows[i].sport == sport &&
		    flows[i].proto == proto)
			return;
	if (nflows < MAX_FLOWS)
		flows[nflows++] = (struct flow_rec) {
			.src = src, .sport = sport, .proto = proto,
			.be = (uint8_t)b,
		};
}

/* Balance frame @f (@len bytes) out through @tx: 1 when sent. */
static int balance(const struct maglev *mg, struct enso_rx_pipe *tx,
		   const uint8_t *f, uint32_t len)
{
	uint32_t ihl, src, dst, csum_off;
	uint16_t sport, dport;
	uint8_t r[2048], proto;
	struct backend *b;
	int err;

	if (len < 14 + 20 + 8 || len > sizeof(r) || f[12] != 0x08 ||
	    f[13] != 0x00)
		return 0;
	ihl = (f[14] & 0xf) * 4;
	proto = f[14 + 9];
	if (ihl < 20 || len < 14 + ihl + 8 ||
	    (proto != IPPROTO_UDP && proto != IPPROTO_TCP) ||
	    (proto == IPPROTO_TCP && len < 14 + ihl + 20))
		return 0;
	memcpy(&src, f + 14 + 12, 4);
	memcpy(&dst, f + 14 + 16, 4);
	memcpy(&sport, f + 14 + ihl, 2);
	memcpy(&dport, f + 14 + ihl + 2, 2);
	b = &be[maglev_lookup(mg, maglev_flow_hash(src, dst, sport, dport,
						   proto))];
	memcpy(r, f, len);
	memcpy(r + 6, f, 6);		/* from us, the old destination */
	memcpy(r, b->mac, 6);
	memcpy(r + 14 + 16, &b->ip, 4);
	csum_replace4(r + 14 + 10, dst, b->ip);
	/* The pseudo-header's address: UDP (when summed) and TCP. */
	csum_off = 14 + ihl + (proto == IPPROTO_UDP ? 6 : 16);
	if (proto == IPPROTO_TCP || r[csum_off] || r[csum_off + 1])
		csum_replace4(r + csum_off, dst, b->ip);
	while ((err = enso_send(tx, r, len)) == -EAGAIN)
		sched_yield();
	if (err)
		return 0;
	b->frames++;
	note_flow(src, sport, proto, (unsigned int)(b - be));
	return 1;
}

/* -L: the table's answers for the flows on stdin. */
/* What serve() hands balance(): the table and the TX pipe. */
struct lb {
	const struct maglev *mg;
	struct enso_rx_pipe *tx;
};

static int balance_frame(void *ctx, const uint8_t *f, uint32_t len)
{
	struct lb *lb = ctx;

	return balance(lb->mg, lb->tx, f, len);
}

static int lookup_only(const struct maglev *mg)
{
	char line[256], s[64], d[64];
	unsigned int sp, dp, pr;
	struct in_addr a, b;

	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "%63s %u %63s %u %u", s, &sp, d, &dp,
			   &pr) != 5 || inet_pton(AF_INET, s, &a) != 1 ||
		    inet_pton(AF_INET, d, &b) != 1 || sp > 65535 ||
		    dp > 65535 || pr > 255) {
			fprintf(stderr, "enso_lb: bad flow: %s", line);
			return 1;
		}
		printf("%s %u %s\n", s, sp,
		       be[maglev_lookup(mg, maglev_flow_hash(a.s_addr,
				b.s_addr, htons((uint16_t)sp),
				htons((uint16_t)dp), (uint8_t)pr))].name);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct serve srv = { .np = 1, .kb = 64, .frame = balance_frame };
	unsigned long m = MAGLEV_MAX_M, i;
	struct enso_rx_pipe *tx;
	struct lb lb;
	const char *names[MAGLEV_MAX_BACKENDS];
	int c, lookup = 0, verbose = 0, err;
	const char *ifname = NULL;
	char *backends = NULL;
	struct enso_dev *dev;
	struct maglev mg;

	while ((c = getopt(argc, argv, SERVE_OPTS "b:m:vL")) != -1) {
		if (serve_opt(&srv, &ifname, c, optarg))
			continue;
		switch (c) {
		case 'b':
			backends = optarg;
			break;
		case 'm':
			m = num(optarg, 2, MAGLEV_MAX_M);
			if (!maglev_prime((uint32_t)m))
				bad_usage();
			break;
		case 'v':
			verbose = 1;
			break;
		case 'L':
			lookup = 1;
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || !backends)
		bad_usage();
	if (!lookup && (!ifname || !srv.port || srv.port + srv.np > 65536))
		bad_usage();
	if (lookup && (ifname || srv.port))
		bad_usage();
	parse_backends(backends);
	if (m < nbe)
		bad_usage();
	for (i = 0; i < nbe; i++)
		names[i] = be[i].name;
	err = maglev_build(&mg, (uint32_t)m, names, nbe);
	if (err) {
		fprintf(stderr, "enso_lb: table: %s\n", strerror(-err));
		return 1;
	}
	if (lookup) {
		err = lookup_only(&mg);
		maglev_free(&mg);
		return err;
	}
	dev = enso_dev_open(ifname, 0, 256);
	tx = dev ? enso_tx_pipe_alloc(dev, srv.kb * 1024) : NULL;
	if (!tx) {
		fprintf(stderr, "enso_lb: %s: %s\n", ifname, strerror(errno));
		return 1;
	}
	lb = (struct lb){ .mg = &mg, .tx = tx };
	srv.dev = dev;
	srv.ctx = &lb;
	if (serve(&srv))
		return 1;
	printf("frames %llu balanced %llu sent %llu refused %llu\n", srv.frames,
	       srv.handled, (unsigned long long)dev->tx_sent,
	       (unsigned long long)dev->tx_errors);
	for (i = 0; i < nbe; i++)
		printf("backend %s frames %llu\n", be[i].name, be[i].frames);
	for (i = 0; verbose && i < nflows; i++) {
		char s[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &flows[i].src, s, sizeof(s));
		printf("flow %s %u %s\n", s, ntohs(flows[i].sport),
		       be[flows[i].be].name);
	}
	enso_dev_close(dev);
	maglev_free(&mg);
	return 0;
}
