// SPDX-License-Identifier: GPL-2.0
/* Flows, RSS and arrival processes of a port; see traffic.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic.h"

#define RSS_TABLE	128

/* Microsoft's default RSS key, the one most NICs ship with. */
static const u8 rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

u32 rxb_sim_toeplitz(const u8 *in, unsigned int len)
{
	u32 h = 0, win;
	unsigned int i, b, kb = 4;

	win = (u32)rss_key[0] << 24 | rss_key[1] << 16 | rss_key[2] << 8 |
	      rss_key[3];
	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (in[i] & (0x80 >> b))
				h ^= win;
			win <<= 1;
			if (kb < sizeof(rss_key) && rss_key[kb] & (0x80 >> b))
				win |= 1;
		}
		kb++;
	}
	return h;
}

u32 traffic_flow_hash(u64 seed, unsigned int port, u32 flow)
{
	u64 r = rxb_sim_mix64(seed ^ ((u64)port << 32 | flow));
	u8 in[12];

	/* saddr, daddr, sport, dport in network order; one server address. */
	memcpy(in, &r, 4);
	in[4] = 192;
	in[5] = 0;
	in[6] = 2;
	in[7] = 1 + port;
	in[8] = r >> 32;
	in[9] = r >> 40;
	in[10] = 0x00;
	in[11] = 0x50;
	return rxb_sim_toeplitz(in, sizeof(in));
}

static unsigned int rss_queue(const struct traffic *tr, u32 hash)
{
	return (hash % RSS_TABLE) % tr->nq;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct tr_rec *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

#define TRACE_MAX_LEN	9000
#define TRACE_MAX_NS	18000000000000000ULL	/* x 1000 ps fits a u64 */

/* A decimal field of digits only, at most @max. */
static bool trace_num(const char *f, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*f))
		return false;
	errno = 0;
	*v = strtoull(f, &end, 10);
	return !errno && !*end && *v <= max;
}

/*
 * One line of a trace: "TIME_NS FLOW [LEN [PORT]]" after any "# comment";
 * false if it is not that (a blank line is *@n = 0).
 */
static bool trace_line(char *line, unsigned int ports, unsigned int dflt_len,
		       unsigned int *n, struct tr_rec *rec, unsigned int *port)
{
	char *h = strchr(line, '#'), *f[5], *save = NULL, *tok;
	unsigned long long v[4] = { 0, 0, dflt_len, 0 };
	static const unsigned long long max[4] = {
		TRACE_MAX_NS, UINT32_MAX, TRACE_MAX_LEN, SIM_MAX_PORTS - 1,
	};
	unsigned int i;

	if (h)
		*h = 0;
	for (*n = 0; *n < 5 && (tok = strtok_r(*n ? NULL : line, " \t\r\n", &save)); )
		f[(*n)++] = tok;
	if (!*n)
		return true;
	if (*n < 2 || *n > 4)
		return false;
	for (i = 0; i < *n; i++)
		if (!trace_num(f[i], max[i], &v[i]))
			return false;
	if (!v[2] || (*n == 4 && v[3] >= ports))
		return false;
	rec->t = v[0] * 1000;
	rec->flow = v[1];
	rec->len = v[2];
	*port = *n == 4 ? v[3] : v[1] % ports;
	return true;
}

int traffic_check_trace(const struct sim_cfg *c, char *err, size_t len)
{
	FILE *f = fopen(c->trace, "r");
	char line[256];
	unsigned long long ln = 0, pkts = 0;
	struct tr_rec rec;
	unsigned int n, port;

	if (!f) {
		snprintf(err, len, "--trace %.200s: %s", c->trace, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, len, "--trace %.200s:%llu: line longer than %zu bytes",
				 c->trace, ln, sizeof(line) - 2);
			fclose(f);
			return -EINVAL;
		}
		if (!trace_line(line, c->ports, c->pkt_size, &n, &rec, &port)) {
			snprintf(err, len,
				 "--trace %.200s:%llu: want TIME_NS FLOW [LEN [PORT]]: integers, TIME_NS at most %llu, LEN 1..%u, PORT below --ports %u",
				 c->trace, ln, TRACE_MAX_NS, TRACE_MAX_LEN, c->ports);
			fclose(f);
			return -EINVAL;
		}
		pkts += n > 0;
	}
	fclose(f);
	if (!pkts) {
		snprintf(err, len, "--trace %.200s: no packet in it", c->trace);
		return -EINVAL;
	}
	return 0;
}

static int trace_load(struct traffic *tr)
{
	const struct sim_cfg *c = tr->c;
	FILE *f;
	char line[256];
	u64 cap = 0;
	int err;

	err = traffic_check_trace(c, line, sizeof(line));
	if (err) {
		fprintf(stderr, "rxbisect-sim: %s\n", line);
		return err;
	}
	f = fopen(c->trace, "r");
	if (!f) {
		fprintf(stderr, "rxbisect-sim: %s: %s\n", c->trace, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		struct tr_rec rec;
		unsigned int n, port;

		if (!trace_line(line, c->ports, c->pkt_size, &n, &rec, &port) || !n ||
		    port != tr->port)
			continue;
		if (tr->nrec == cap) {
			struct tr_rec *nr;

			cap = cap ? 2 * cap : 4096;
			nr = realloc(tr->rec, sizeof(*nr) * cap);
			if (!nr) {
				fclose(f);
				return -ENOMEM;
			}
			tr->rec = nr;
		}
		tr->rec[tr->nrec++] = rec;
	}
	fclose(f);
	/* A port the trace sends nothing to stays idle. */
	if (!tr->nrec)
		return 0;
	qsort(tr->rec, tr->nrec, sizeof(*tr->rec), cmp_rec);
	/* A loop restarts one mean gap after the last packet. */
	tr->period = tr->rec[tr->nrec - 1].t + tr->rec[tr->nrec - 1].t /
		     (tr->nrec > 1 ? tr->nrec - 1 : 1) + 1;
	return 0;
}

int traffic_init(struct traffic *tr, const struct sim_cfg *c,
		 unsigned int port, unsigned int nq)
{
	u32 i, extra;

	memset(tr, 0, sizeof(*tr));
	tr->c = c;
	tr->port = port;
	tr->nq = nq;
	tr->rng = rxb_sim_mix64(c->seed + 0x1234567ULL * (port + 1));
	tr->wire_ps = (c->pkt_size + c->wire_overhead) * 8 * 1000.0 / c->link_gbps;
	tr->mean_ps = tr->wire_ps / c->load;
	if (c->arrival == ARR_TRACE)
		return trace_load(tr);
	tr->nflows = c->flows;
	/* Room for flows searched to reach the target queue. */
	extra = c->target >= 0 ? 64 * nq : 0;
	tr->hash = calloc(tr->nflows + extra, sizeof(*tr->hash));
	tr->queue = calloc(tr->nflows + extra, sizeof(*tr->queue));
	tr->tgt = calloc(tr->nflows + extra, sizeof(*tr->tgt));
	tr->oth = calloc(tr->nflows + extra, sizeof(*tr->oth));
	if (!tr->hash || !tr->queue || !tr->tgt || !tr->oth)
		return -ENOMEM;
	for (i = 0; i < tr->nflows + extra; i++) {
		tr->hash[i] = traffic_flow_hash(c->seed, port, i);
		tr->queue[i] = rss_queue(tr, tr->hash[i]);
		if (i >= tr->nflows && (tr->ntgt || tr->queue[i] != c->target))
			continue;
		if (c->target >= 0 && tr->queue[i] == c->target)
			tr->tgt[tr->ntgt++] = i;
		else
			tr->oth[tr->noth++] = i;
	}
	if (c->target >= 0 && (!tr->ntgt || !tr->noth)) {
		fprintf(stderr, "rxbisect-sim: no flow reaches queue %d or the others\n",
			c->target);
		return -EINVAL;
	}
	return 0;
}

void traffic_retune(struct traffic *tr)
{
	tr->mean_ps = tr->wire_ps / tr->c->load;
}

void traffic_fini(struct traffic *tr)
{
	free(tr->hash);
	free(tr->queue);
	free(tr->tgt);
	free(tr->oth);
	free(tr->rec);
	memset(tr, 0, sizeof(*tr));
}

static inline u64 tr_rnd(struct traffic *tr)
{
	return rxb_sim_mix64(tr->rng++);
}

static inline double tr_unif(struct traffic *tr)
{
	return ((tr_rnd(tr) >> 11) + 0.5) / 9007199254740992.0;
}

static u32 pick_flow(struct traffic *tr)
{
	const struct sim_cfg *c = tr->c;

	if (c->target < 0)
		return tr_rnd(tr) % tr->nflows;
	if (tr_unif(tr) < c->target_share)
		return tr->tgt[tr_rnd(tr) % tr->ntgt];
	return tr->oth[tr_rnd(tr) % tr->noth];
}

/*
 * Gap after a packet of @len bytes (ps) for the generated processes: the
 * offered load is a fraction of the line rate in bytes, so a small packet
 * is followed sooner.
 */
static double next_gap(struct traffic *tr, unsigned int len)
{
	const struct sim_cfg *c = tr->c;
	double scale = len == c->pkt_size ? 1.0 :
		       (double)(len + c->wire_overhead) / (c->pkt_size + c->wire_overhead);
	double w = tr->wire_ps * scale, m = tr->mean_ps * scale;

	switch (c->arrival) {
	case ARR_POISSON:
		/* Exponential, but never faster than the wire. */
		return w + (m > w ? -log(tr_unif(tr)) * (m - w) : 0);
	case ARR_BURST:
		if (tr->burst_left)
			return w;
		/* Bursts of c->burst back to back, Poisson burst starts. */
		return w + -log(tr_unif(tr)) * (c->burst * (m - w));
	default:
		return m;
	}
}

u64 traffic_first(struct traffic *tr)
{
	if (tr->c->arrival == ARR_TRACE)
		return tr->nrec ? tr->rec[0].t : UINT64_MAX;
	/* Ports start out of phase. */
	tr->t = tr->mean_ps * tr->port / tr->c->ports;
	return (u64)tr->t;
}

u64 traffic_next(struct traffic *tr, u64 now, struct tr_pkt *pkt)
{
	const struct sim_cfg *c = tr->c;

	pkt->t = now;
	if (c->arrival == ARR_TRACE) {
		const struct tr_rec *r = &tr->rec[tr->pos];

		pkt->flow = r->flow;
		pkt->len = r->len;
		pkt->hash = traffic_flow_hash(c->seed, tr->port, r->flow);
		pkt->queue = rss_queue(tr, pkt->hash);
		if (++tr->pos == tr->nrec) {
			if (!c->trace_loop)
				return UINT64_MAX;
			tr->pos = 0;
			tr->loop_off += tr->period;
		}
		return tr->loop_off + tr->rec[tr->pos].t;
	}
	if (c->arrival == ARR_BURST) {
		if (!tr->burst_left) {
			tr->burst_flow = pick_flow(tr);
			tr->burst_left = c->burst;
		}
		tr->burst_left--;
		pkt->flow = tr->burst_flow;
	} else {
		pkt->flow = pick_flow(tr);
	}
	pkt->hash = tr->hash[pkt->flow];
	pkt->queue = tr->queue[pkt->flow];
	pkt->len = c->target_pkt_size && pkt->queue == c->target ?
		   c->target_pkt_size : c->pkt_size;
	tr->t += next_gap(tr, pkt->len);
	return (u64)tr->t;
}
