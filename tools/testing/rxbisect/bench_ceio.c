// SPDX-License-Identifier: GPL-2.0
/*
 * The CEIO paper's scenarios at one host buffer budget (a benchmark, not a
 * test): privring, shring, rxbisect and ceio, each sized so that the host
 * holds the same B buffers of RXB_ENV_BUF_SIZE bytes per port (sizing()
 * prints how), run over the test environment (env.c: every buffer
 * transition checked, a checksum-less DMA engine, the on-NIC memory tier).
 *
 * One NIC thread plays a precomputed schedule of numbered frames
 * (rxb_tframe_*: flow, queue, per-flow sequence number) of several flows:
 * the flow's RSS hash picks its queue, its id is its flow-table entry.  It
 * hands each frame to the model's hardware half at the frame's time
 * (rxb_th_hw_rx(): in the NIC's context, after the doorbells the driver
 * posted since; nanosleep while more than 30 us early, else spinning),
 * notes the arrival time in a per-frame slot, and counts a refused frame
 * as DROPPED by its cause (no retry).  The environment's NIC helper thread
 * serves the doorbells between frames and runs the NIC's timer and the
 * on-NIC tier's fetch engine (CEIO's slow path) for every model.  Consumer
 * threads own the queues q with
 * q % consumers == thread and poll each one with pending completions like
 * NAPI (budget 64): check the frame, record its latency (arrival to
 * consume) and a reorder if its sequence number is below one already seen
 * for its flow, spin the per-packet work (-w), and free the buffer.
 *
 * The in-flight host working set is the buffers the NIC has written
 * (rxb_hw_ops.dma_write, and dma_ptr: ceio's slow-path fetch into a host
 * buffer) and software has not freed yet: its maximum, exact, and its
 * p50/p90/p99 over samples taken after every poll.  Drops by cause come
 * from the model's counters: qstats nobuf_drops, ring_full_drops (less
 * ceio's tier and slow-ring drops, which it also counts there) and the
 * ceio xstats rx<q>_ceio_tier_drops, rx<q>_ceio_slow_ring_full; the NIC
 * thread's count of refused frames must match their sum.  Slow-path
 * fraction: ceio's slow / (fast + slow); in the bulk scenario also of the
 * bulk flow's and the polled flows' packets, from the packets without a
 * checksum (the checksum unit sits on the DMA path into host memory, so
 * ceio's slow-path packets carry none; ceio.c).  The breakdown of
 * the drops by cause is summed over the runs of a cell.
 *
 * Scenarios (sched_build()), F = 8 flows at a steady rate of which the
 * busiest consumer gets -l percent (default 70: headroom for a shared
 * host, whose other load comes and goes) of what it sustains, measured before
 * each scenario (sustain(): the rate of one thread, one privring queue,
 * the consumer's work per packet at that frame size, lowered until
 * privring delivers 99.5 % of a static run with every thread in place):
 *  - static 128, 256, 512, 1024 B: the F flows, frames spread at random;
 *  - burst: the F flows at 512 B; at 1/3 and 2/3 of the run two more flows
 *    join, each with -u frames back to back (the paper's "+2 flows");
 *  - bulk: the F flows with half the frames, a bulk flow with the other
 *    half, 512 B; the bulk flow's consumer holds each of its buffers for
 *    -d polls of its queue, at most -k of them, before freeing it (a
 *    CPU-bypass flow releasing late, the digest's proxy for Table 4).
 * Each cell is run -R times (default 3), the models interleaved, and
 * printed as median [min-max]; a ratio to privring's (median over
 * privring's median, range min / privring's max .. max / privring's min)
 * is marked ~ when its range includes 1.
 *
 * -m ceio-page adds ceio with ceio_release=page: a fast packet's credit
 * comes back when its buffer does, not at the end of the poll.  CEIO
 * fetches its slow-path packets as the module does by default, the
 * paper's async_recv() (ceio_fetch=async); -F sync: recv(), one fetch at a
 * time.  Either completes in the NIC's context when its latency (-f) has
 * passed; nothing waits for it in a loop.
 *
 * Usage: bench_ceio [-q queues] [-c consumers] [-b buffers] [-n frames]
 *                   [-R reps] [-m model,...] [-s scenario,...] [-w ns]
 *                   [-l load%] [-u burst] [-k hold] [-d polls] [-f ns]
 *                   [-F async|sync]
 * Bad options exit 2 with a message (bench_ceio_cli.sh checks them).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

#include "env.h"
#include "ktap.h"
#include "shim.h"

#define BENCH_PROG "bench_ceio"
#include "bench_util.h"

#define BUF		RXB_ENV_BUF_SIZE
#define BUDGET		64		/* NAPI poll budget */
#define MAX_Q		16
#define MAX_CONS	8
#define MAX_FLOWS	16
#define NFLOWS		8		/* steady flows of every scenario */
#define FLOW_TABLE	64
#define TIER_BYTES	(64ULL << 20)
#define NMODELS		5
#define NDEFAULT	4	/* ceio-page only with -m */

/* ceio-page: ceio with ceio_release=page (credits back when the buffer is) */
static const char *const model_names[NMODELS] = {
	"privring", "shring", "rxbisect", "ceio", "ceio-page",
};

/* The registered model behind a name of model_names. */
static const char *core_of(const char *model)
{
	return strncmp(model, "ceio", 4) ? model : "ceio";
}

enum { SC_STATIC, SC_BURST, SC_BULK };

struct scen {
	const char *name;
	int kind;
	unsigned int len;
};

static const struct scen scens[] = {
	{ "static", SC_STATIC, 128 },
	{ "static", SC_STATIC, 256 },
	{ "static", SC_STATIC, 512 },
	{ "static", SC_STATIC, 1024 },
	{ "burst", SC_BURST, 512 },
	{ "bulk", SC_BULK, 512 },
};

#define NSCENS	ARRAY_SIZE(scens)

struct opts {
	unsigned int nq, ncons, group;
	u64 bufs;		/* B: host buffers per port */
	u64 frames;
	unsigned int reps;
	u64 work_ns;
	unsigned int load;	/* percent of the busiest consumer's capacity */
	unsigned int burst;
	unsigned int hold_k, hold_d;
	u64 fetch_ns;
	bool fetch_sync;	/* ceio_fetch=sync instead of async */
	bool model_on[NMODELS];
	bool scen_on[3];
};

static struct opts o;

/* One frame of the schedule. */
struct sent {
	u64 t;			/* ns after the start */
	u32 seq;
	u16 len;
	u8 flow;
};

struct sched {
	struct sent *e;
	u64 n;
	unsigned int nflows;
	int bulk;		/* the bulk flow, or -1 */
	u64 count[MAX_FLOWS];	/* frames per flow */
	double rate;		/* steady frames per second */
};

/* A held buffer of the bulk flow: freed after poll @due of its queue. */
struct held {
	void *cookie;
	u64 due;
};

struct cons {
	unsigned int id;
	u32 *lat;		/* latencies, ns */
	u64 nlat;
	u32 *ws;		/* working-set samples */
	u64 nws, cap;
	u64 reorders, bad;
	u64 nocsum[2], pkts[2];	/* polled flows, bulk flow */
	struct held *hold;	/* FIFO of o.hold_k + BUDGET */
	u64 hhead, htail;
	pthread_t thr;
};

struct run {
	struct rxb_th t;
	const struct sched *s;
	u64 *arr[MAX_FLOWS];	/* arrival ns per (flow, seq), atomic */
	u64 next[MAX_FLOWS];	/* consumer side: expected sequence number */
	long inflight;		/* atomic */
	long inflight_max;	/* atomic */
	int nic_done;		/* atomic */
	u64 polled;		/* atomic: packets the consumers polled */
	u64 refused[4];		/* -ENOBUFS, -ENOSPC, -EMSGSIZE, other */
	u64 nrefused;		/* their sum, before nic_done */
	u64 t_start, t_end;
	u64 polls[MAX_Q];	/* per queue, by its consumer */
	struct cons cons[MAX_CONS];
};

/* One run's results. */
struct res {
	double ws_max, ws_p50, ws_p90, ws_p99;
	double drops, nobuf, ring, tier, slowring, oversize;
	double reorders, slow_frac, p99_us, delivered, mpps;
	double slow_bulk, slow_polled;	/* packets without a checksum */
};

static struct run *cur;		/* the run the DMA hooks count for */
static struct rxb_hw_ops bench_hw_ops;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void ws_add(void)
{
	long v = __atomic_add_fetch(&cur->inflight, 1, __ATOMIC_RELAXED);
	long m = __atomic_load_n(&cur->inflight_max, __ATOMIC_RELAXED);

	while (v > m &&
	       !__atomic_compare_exchange_n(&cur->inflight_max, &m, v, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* The NIC writes a frame into a host buffer. */
static u8 bench_dma_write(void *hw, const struct rxb_frame *f, u64 addr,
			  u32 *csum)
{
	u8 ret = rxb_env_test_hw_ops.dma_write(hw, f, addr, csum);

	ws_add();
	return ret;
}

/* ceio's slow path: the NIC copies a frame from its memory into a host
 * buffer (the fetch), through this view of the buffer.
 */
static void *bench_dma_ptr(void *hw, u64 addr, u32 len)
{
	ws_add();
	return rxb_env_test_hw_ops.dma_ptr(hw, addr, len);
}

static void work(u64 ns)
{
	u64 end;

	if (!ns)
		return;
	end = now_ns() + ns;
	while (now_ns() < end)
		;
}

/*
 * The flow's RSS hash: its low byte is the flow id, so that the NIC's
 * indirection (hash modulo the queues) spreads the flows evenly, flow f on
 * queue f % queues, as an indirection table set up for them would.
 */
static u32 flow_hash(unsigned int flow)
{
	return ((u32)rxb_mix64(0xce10000000000000ULL ^ flow) & ~0xffU) | flow;
}

static unsigned int flow_q(unsigned int flow)
{
	return flow_hash(flow) % o.nq;
}

static unsigned int flow_cons(unsigned int flow)
{
	return flow_q(flow) % o.ncons;
}

/* ---- configuration at equal host buffers ---- */

static bool sizing(const char *model, struct rxb_model_cfg *cfg)
{
	u64 b = o.bufs;

	cfg->flow_table_size = FLOW_TABLE;
	cfg->share_factor = o.group;
	cfg->ax_ring_size = b / o.nq;
	cfg->ax_policy = RXB_AX_RR;
	if (!strcmp(model, "privring") || !strncmp(model, "ceio", 4)) {
		cfg->ring_size = b / o.nq;
	} else if (!strcmp(model, "rxbisect")) {
		/* its paper's k * |Ax| = |Bx| (k = nq, section 4.5) */
		cfg->ring_size = b < RXB_RING_MAX ? b : RXB_RING_MAX;
	} else if (!strcmp(model, "shring")) {
		cfg->ring_size = b / (o.nq / o.group);
	} else {
		return false;
	}
	cfg->ceio_llc_budget = b * BUF;
	cfg->ceio_fetch_async = !o.fetch_sync;
	cfg->ceio_release = strcmp(model, "ceio-page") ? RXB_CEIO_REL_BATCH :
			    RXB_CEIO_REL_PAGE;
	cfg->nicmem_bytes = TIER_BYTES;
	return true;
}

static void print_sizing(void)
{
	printf("# host buffer budget B = %llu buffers of %u B (%.1f MiB) per port, %u queues:\n",
	       (unsigned long long)o.bufs, BUF, o.bufs * BUF / 1048576.0, o.nq);
	printf("#   privring: %u Rx rings of %llu\n", o.nq,
	       (unsigned long long)(o.bufs / o.nq));
	printf("#   shring:   %u shared ring(s) of %llu (groups of %u queues)\n",
	       o.nq / o.group, (unsigned long long)(o.bufs / (o.nq / o.group)),
	       o.group);
	printf("#   rxbisect: %u Ax rings of %llu, Bx rings of %llu (k * |Ax| = |Bx|)\n",
	       o.nq, (unsigned long long)(o.bufs / o.nq),
	       (unsigned long long)(o.bufs < RXB_RING_MAX ? o.bufs : RXB_RING_MAX));
	printf("#   ceio:     %u fast rings of %llu, ceio_llc_budget %llu B = %llu credits,\n",
	       o.nq, (unsigned long long)(o.bufs / o.nq),
	       (unsigned long long)(o.bufs * BUF), (unsigned long long)o.bufs);
	printf("#             tier %llu MiB, fetch %llu ns (%s), release=batch, flow table %u\n",
	       TIER_BYTES >> 20, (unsigned long long)o.fetch_ns,
	       o.fetch_sync ? "sync" : "async", FLOW_TABLE);
	printf("#   ceio-page (-m): ceio with ceio_release=page\n");
}

/* ---- schedule ---- */

static void sched_free(struct sched *s)
{
	free(s->e);
	s->e = NULL;
}

static void sched_add(struct sched *s, u64 t, unsigned int flow,
		      unsigned int len)
{
	struct sent *e = &s->e[s->n++];

	e->t = t;
	e->flow = flow;
	e->len = len;
	e->seq = s->count[flow]++;
}

/* The share of the steady frames the busiest consumer gets. */
static double busiest_share(const double *flow_share, unsigned int nflows)
{
	double c[MAX_CONS] = { 0 }, max = 0;
	unsigned int f;

	for (f = 0; f < nflows; f++)
		c[flow_cons(f)] += flow_share[f];
	for (f = 0; f < o.ncons; f++)
		if (c[f] > max)
			max = c[f];
	return max;
}

/*
 * @n frames of scenario @sc; @cap: packets per second one consumer thread
 * sustains, of which the busiest consumer gets @load percent.
 */
static void sched_build(struct sched *s, const struct scen *sc, u64 n,
			double cap, unsigned int load)
{
	double share[MAX_FLOWS] = { 0 }, dt;
	u64 steady, i, mark[2] = { ~0ULL, ~0ULL };
	unsigned int f, m = 0, extra = 0;

	memset(s, 0, sizeof(*s));
	s->bulk = -1;
	s->nflows = NFLOWS;
	if (sc->kind == SC_BURST) {
		s->nflows = NFLOWS + 2;
		extra = 4 * o.burst;
	}
	if (sc->kind == SC_BULK)
		s->nflows = NFLOWS + 1;
	s->e = calloc(n, sizeof(*s->e));
	if (!s->e)
		abort();
	steady = n - extra;
	for (f = 0; f < NFLOWS; f++)
		share[f] = sc->kind == SC_BULK ? 0.5 / NFLOWS : 1.0 / NFLOWS;
	if (sc->kind == SC_BULK) {
		s->bulk = NFLOWS;
		share[NFLOWS] = 0.5;
	}
	s->rate = load / 100.0 * cap / busiest_share(share, s->nflows);
	dt = 1e9 / s->rate;
	if (extra) {
		mark[0] = steady / 3;
		mark[1] = 2 * steady / 3;
	}
	for (i = 0; i < steady; i++) {
		u64 r = rxb_mix64(0x5eed000000000000ULL ^ i), t = (u64)(i * dt);

		while (m < 2 && i == mark[m]) {
			unsigned int k;

			for (k = 0; k < 2 * o.burst; k++)
				sched_add(s, t, NFLOWS + k % 2, sc->len);
			m++;
		}
		if (sc->kind == SC_BULK && (r & 1))
			f = NFLOWS;
		else
			f = (r >> 1) % NFLOWS;
		sched_add(s, t, f, sc->len);
	}
}

/* ---- threads ---- */

static void *nic_fn(void *arg)
{
	struct run *r = arg;
	const struct sched *s = r->s;
	static u8 buf[BUF];
	u64 i, t0 = now_ns(), now = t0;

	r->t_start = t0;
	for (i = 0; i < s->n; i++) {
		const struct sent *e = &s->e[i];
		struct rxb_tframe_id id = {
			.producer = e->flow, .q = flow_q(e->flow), .seq = e->seq,
		};
		struct rxb_frame f = {
			.data = buf, .len = e->len, .hash = flow_hash(e->flow),
			.flow = e->flow,
		};
		u64 due = t0 + e->t;
		int err;

		for (now = now_ns(); now < due; now = now_ns()) {
			if (due - now > 30000) {
				struct timespec ts = { 0, due - now - 20000 };

				nanosleep(&ts, NULL);
			}
		}
		/* Behind by over 1 ms (preempted): do not replay it as a burst. */
		if (now - due > 1000000)
			t0 += now - due - 1000000;
		rxb_tframe_fill(buf, e->len, &id);
		__atomic_store_n(&r->arr[e->flow][e->seq], now_ns(),
				 __ATOMIC_RELAXED);
		err = rxb_th_hw_rx(&r->t, id.q, &f);
		if (err == -ENOBUFS)
			r->refused[0]++;
		else if (err == -ENOSPC)
			r->refused[1]++;
		else if (err == -EMSGSIZE)
			r->refused[2]++;
		else if (err)
			r->refused[3]++;
	}
	r->t_end = now_ns();
	r->nrefused = r->refused[0] + r->refused[1] + r->refused[2] +
		      r->refused[3];
	__atomic_store_n(&r->nic_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void put_buf(struct run *r, void *cookie)
{
	__atomic_sub_fetch(&r->inflight, 1, __ATOMIC_RELAXED);
	rxb_env_pkt_put(r->t.env, cookie);
}

/* Free the bulk flow's held buffers due by poll @pollno (all: ~0). */
static void hold_release(struct run *r, struct cons *c, u64 pollno)
{
	while (c->hhead != c->htail) {
		struct held *h = &c->hold[c->hhead % (o.hold_k + BUDGET)];

		if (h->due > pollno && c->htail - c->hhead <= o.hold_k)
			break;
		put_buf(r, h->cookie);
		c->hhead++;
	}
}

static void consume(struct run *r, struct cons *c, unsigned int q,
		    const struct rxb_pkt *p)
{
	const struct sched *s = r->s;
	struct rxb_tframe_id id;
	const void *d = rxb_env_pkt_take(r->t.env, q, p);
	u64 now;
	int k;

	if (!d || !rxb_tframe_check(d, p->len, &id) ||
	    id.producer >= s->nflows || id.seq >= s->count[id.producer]) {
		c->bad++;
		if (d)
			put_buf(r, p->cookie);
		return;
	}
	now = now_ns();
	c->lat[c->nlat++] = (u32)min_t(u64, now -
		__atomic_load_n(&r->arr[id.producer][id.seq], __ATOMIC_RELAXED),
		0xffffffffULL);
	k = (int)id.producer == s->bulk;
	c->pkts[k]++;
	c->nocsum[k] += !(p->flags & RXB_CQE_F_CSUM);
	if (id.seq < r->next[id.producer])
		c->reorders++;
	else
		r->next[id.producer] = id.seq + 1;
	work(o.work_ns);
	if ((int)id.producer == s->bulk && o.hold_k) {
		struct held *h = &c->hold[c->htail++ % (o.hold_k + BUDGET)];

		h->cookie = p->cookie;
		h->due = r->polls[q] + o.hold_d;
	} else {
		put_buf(r, p->cookie);
	}
}

static u64 s_n(const struct run *r)
{
	return r->s->n;
}

static void *cons_fn(void *arg)
{
	struct cons *c = arg;
	struct run *r = cur;
	const struct rxb_model_ops *ops = r->t.ops;
	struct rxb_pkt pkts[BUDGET];
	unsigned int q, spins = 0;
	u64 idle_since = 0;

	for (;;) {
		bool done = __atomic_load_n(&r->nic_done, __ATOMIC_ACQUIRE);
		bool pending = false;
		int got = 0, n, i;

		for (q = c->id; q < o.nq; q += o.ncons) {
			if (!ops->rx_pending(r->t.m, q))
				continue;
			pending = true;
			n = rxb_model_poll(r->t.m, q, pkts, BUDGET);
			r->polls[q]++;
			for (i = 0; i < n; i++)
				consume(r, c, q, &pkts[i]);
			if (flow_q(NFLOWS) == q)
				hold_release(r, c, r->polls[q]);
			if (c->nws < c->cap)
				c->ws[c->nws++] =
					__atomic_load_n(&r->inflight, __ATOMIC_RELAXED);
			got += n;
		}
		if (got) {
			__atomic_add_fetch(&r->polled, got, __ATOMIC_RELAXED);
			spins = 0;
			idle_since = 0;
			continue;
		}
		/*
		 * Done once every frame the NIC took is polled: a packet may
		 * still be on its way (a slow-path fetch in flight, a
		 * doorbell the NIC has not served yet) with nothing
		 * pending.  A frame lost for 2 s ends the run, and
		 * run_once() reports it.
		 */
		if (done && !pending) {
			if (c->hhead != c->htail) {
				hold_release(r, c, ~0ULL);
				continue;
			}
			if (__atomic_load_n(&r->polled, __ATOMIC_RELAXED) +
			    r->nrefused >= s_n(r))
				break;
			if (!idle_since)
				idle_since = now_ns();
			else if (now_ns() - idle_since > 2000000000ULL)
				break;
		}
		/* Idle: spin, yield, then nap as a NAPI context waiting
		 * for its interrupt would.
		 */
		if (++spins > 256) {
			struct timespec nap = { 0, 10000 };

			nanosleep(&nap, NULL);
		} else if (spins > 64) {
			sched_yield();
		}
	}
	return NULL;
}

/* ---- one run ---- */

static u64 ceio_sum(struct rxb_th *t, const char *what)
{
	char name[64];
	u64 v = 0;
	unsigned int q;

	for (q = 0; q < o.nq; q++) {
		snprintf(name, sizeof(name), "rx%u_ceio_%s", q, what);
		v += rxb_th_xstat(t, name);
	}
	return v;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static double pct(const u32 *v, u64 n, double p)
{
	u64 i = (u64)(p * n);

	if (!n)
		return 0;
	return v[i < n ? i : n - 1];
}

/* Merge the consumers' arrays of @off into one, sorted. */
static u32 *merge(struct run *r, bool lat, u64 *np)
{
	u64 n = 0, k = 0;
	unsigned int i;
	u32 *v;

	for (i = 0; i < o.ncons; i++)
		n += lat ? r->cons[i].nlat : r->cons[i].nws;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < o.ncons; i++) {
		struct cons *c = &r->cons[i];
		u64 m = lat ? c->nlat : c->nws;

		memcpy(v + k, lat ? c->lat : c->ws, m * sizeof(*v));
		k += m;
	}
	qsort(v, n, sizeof(*v), cmp_u32);
	*np = n;
	return v;
}

static bool run_once(const char *model, const struct sched *s, struct res *out)
{
	struct run *r = calloc(1, sizeof(*r));
	long fails = ktap_failures();
	u64 nv, delivered = 0, refused = 0, q;
	bool ok = false;
	pthread_t nic;
	unsigned int i;
	u32 *v;

	if (!r)
		abort();
	r->s = s;
	for (i = 0; i < s->nflows; i++) {
		r->arr[i] = calloc(s->count[i] ? s->count[i] : 1, sizeof(u64));
		if (!r->arr[i])
			abort();
	}
	for (i = 0; i < o.ncons; i++) {
		struct cons *c = &r->cons[i];

		c->id = i;
		c->cap = s->n + 1024;
		c->lat = malloc(s->n * sizeof(u32));
		c->ws = malloc(c->cap * sizeof(u32));
		c->hold = calloc(o.hold_k + BUDGET, sizeof(*c->hold));
		if (!c->lat || !c->ws || !c->hold)
			abort();
	}
	if (!rxb_th_init(&r->t, core_of(model), o.nq, o.bufs / o.nq, BUF))
		goto out;
	rxb_env_nicmem(r->t.env, TIER_BYTES, o.fetch_ns);
	sizing(model, &r->t.cfg);
	r->t.hw_ops = &bench_hw_ops;
	if (!rxb_th_start(&r->t))
		goto out;
	cur = r;
	rxb_env_timer_start(r->t.env);
	for (i = 0; i < o.ncons; i++)
		pthread_create(&r->cons[i].thr, NULL, cons_fn, &r->cons[i]);
	pthread_create(&nic, NULL, nic_fn, r);
	pthread_join(nic, NULL);
	for (i = 0; i < o.ncons; i++)
		pthread_join(r->cons[i].thr, NULL);
	rxb_env_timer_stop(r->t.env);

	memset(out, 0, sizeof(*out));
	out->ws_max = r->inflight_max;
	v = merge(r, false, &nv);
	out->ws_p50 = pct(v, nv, 0.50);
	out->ws_p90 = pct(v, nv, 0.90);
	out->ws_p99 = pct(v, nv, 0.99);
	free(v);
	v = merge(r, true, &nv);
	out->p99_us = pct(v, nv, 0.99) / 1000.0;
	free(v);
	for (q = 0; q < o.nq; q++) {
		struct rxb_qstats st;

		rxb_th_qstats(&r->t, q, &st);
		out->nobuf += st.nobuf_drops;
		out->ring += st.ring_full_drops;
		out->oversize += st.oversize_drops;
	}
	if (!strncmp(model, "ceio", 4)) {
		double fast = ceio_sum(&r->t, "fast"), slow = ceio_sum(&r->t, "slow");

		out->tier = ceio_sum(&r->t, "tier_drops");
		out->slowring = ceio_sum(&r->t, "slow_ring_full");
		out->ring -= out->tier + out->slowring;
		out->slow_frac = fast + slow ? slow / (fast + slow) : 0;
	}
	for (i = 0, nv = 0, delivered = 0; i < o.ncons; i++) {
		nv += r->cons[i].nocsum[0];
		delivered += r->cons[i].pkts[0];
	}
	out->slow_polled = delivered ? (double)nv / delivered : 0;
	for (i = 0, nv = 0, delivered = 0; i < o.ncons; i++) {
		nv += r->cons[i].nocsum[1];
		delivered += r->cons[i].pkts[1];
	}
	out->slow_bulk = delivered ? (double)nv / delivered : 0;
	delivered = 0;
	out->drops = out->nobuf + out->ring + out->tier + out->slowring +
		     out->oversize;
	for (i = 0; i < 4; i++)
		refused += r->refused[i];
	for (i = 0; i < o.ncons; i++) {
		out->reorders += r->cons[i].reorders;
		delivered += r->cons[i].nlat;
		if (r->cons[i].bad)
			fprintf(stderr, "bench_ceio: %s: %llu bad frames\n", model,
				(unsigned long long)r->cons[i].bad);
	}
	out->delivered = (double)delivered / s->n;
	out->mpps = s->n / ((r->t_end - r->t_start) / 1000.0);
	if (refused != (u64)out->drops)
		fprintf(stderr, "bench_ceio: %s: %s %llu frames, the counters %.0f\n",
			model, "the NIC refused", (unsigned long long)refused, out->drops);
	if (delivered + refused != s->n)
		fprintf(stderr, "bench_ceio: %s: %llu delivered + %llu dropped of %llu\n",
			model, (unsigned long long)delivered,
			(unsigned long long)refused, (unsigned long long)s->n);
	ok = delivered + refused == s->n && refused == (u64)out->drops &&
	     !rxb_env_errors(r->t.env);
out:
	cur = NULL;
	rxb_th_destroy(&r->t);
	if (ktap_failures() != fails)
		ok = false;
	for (i = 0; i < s->nflows; i++)
		free(r->arr[i]);
	for (i = 0; i < o.ncons; i++) {
		free(r->cons[i].lat);
		free(r->cons[i].ws);
		free(r->cons[i].hold);
	}
	free(r);
	return ok;
}

/* ---- calibration ---- */

/*
 * Packets per second one consumer sustains at @len: one thread, one
 * privring queue, bursts of BUDGET frames polled, checked, worked on and
 * freed; the best of 3 trials of 8192 packets.
 */
static double calibrate(unsigned int len)
{
	static u8 buf[BUF];
	double best = 0;
	int trial;

	for (trial = 0; trial < 3; trial++) {
		struct rxb_th t;
		struct rxb_pkt pkts[BUDGET];
		u64 t0, seq = 0, n = 0;
		int i, k;

		if (!rxb_th_create(&t, "privring", 1, 256, BUF))
			exit(1);
		rxb_env_set_csum(t.env, false);
		t0 = now_ns();
		while (n < 8192) {
			for (k = 0; k < BUDGET; k++, seq++) {
				struct rxb_tframe_id id = { 0, 0, seq };
				struct rxb_frame f = { .data = buf, .len = len };

				rxb_tframe_fill(buf, len, &id);
				rxb_th_hw_rx(&t, 0, &f);
			}
			k = rxb_model_poll(t.m, 0, pkts, BUDGET);
			for (i = 0; i < k; i++) {
				const void *d = rxb_env_pkt_take(t.env, 0, &pkts[i]);
				struct rxb_tframe_id id;

				if (!d || !rxb_tframe_check(d, pkts[i].len, &id))
					exit(1);
				now_ns();
				work(o.work_ns);
				rxb_env_pkt_put(t.env, pkts[i].cookie);
			}
			n += k;
		}
		if (n * 1e9 / (now_ns() - t0) > best)
			best = n * 1e9 / (now_ns() - t0);
		rxb_th_destroy(&t);
	}
	return best;
}

/*
 * What a consumer thread sustains in place, with the NIC thread and the
 * host's other load: from calibrate()'s single-thread rate down by 0.7
 * at a time until privring delivers 99.5 % of a static run of half the
 * frames at @sc's frame size (at most 8 tries; *@tries 0: not reached,
 * the last rate tried).
 */
static double sustain(const struct scen *sc, unsigned int *tries)
{
	struct scen st = { "static", SC_STATIC, sc->len };
	double cap = calibrate(sc->len);
	u64 n = o.frames / 2;
	struct sched s;
	struct res res;

	for (*tries = 1; ; ++*tries, cap *= 0.7) {
		sched_build(&s, &st, n, cap, 100);
		if (!run_once("privring", &s, &res))
			exit(1);
		sched_free(&s);
		if (res.delivered >= 0.995)
			return cap;
		if (*tries == 8)
			break;
	}
	*tries = 0;	/* not reached: the lowest rate tried */
	return cap;
}

/* ---- output ---- */

static const char *cell(char *buf, size_t len, const double *v, int n,
			int prec)
{
	double med, min, max;

	stats(v, n, &med, &min, &max);
	if (min == max)
		snprintf(buf, len, "%.*f", prec, med);
	else
		snprintf(buf, len, "%.*f [%.*f-%.*f]", prec, med, prec, min,
			 prec, max);
	return buf;
}

static double sum(const double *v, int n)
{
	double t = 0;
	int i;

	for (i = 0; i < n; i++)
		t += v[i];
	return t;
}

static double medof(const double *v, int n)
{
	double med, min, max;

	stats(v, n, &med, &min, &max);
	return med;
}

static void column(double *v, struct res *rs, int n, size_t off)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = *(double *)((char *)&rs[i] + off);
}

static void print_scen(const struct scen *sc, const struct sched *s,
		       double cap, unsigned int tries,
		       struct res rs[NMODELS][BENCH_MAX_REPS],
		       const bool *ok)
{
	int n = o.reps, mi, pr = o.model_on[0] && ok[0] ? 0 : -1;
	double v[BENCH_MAX_REPS], p[BENCH_MAX_REPS], w[BENCH_MAX_REPS];
	char c[8][96];

	printf("\n### %s %u B: %u flows", sc->name, sc->len, s->nflows);
	if (sc->kind == SC_BURST)
		printf(" (2 join at 1/3 and 2/3 of the run, %u frames each at once)",
		       o.burst);
	if (sc->kind == SC_BULK)
		printf(" (flow %u bulk, half the frames, holds each buffer %u polls, at most %u)",
		       NFLOWS, o.hold_d, o.hold_k);
	printf(", %llu frames, offered %.3f Mpps steady\n",
	       (unsigned long long)s->n, s->rate / 1e6);
	printf("# a consumer thread sustains %.3f Mpps here (sustain(): privring delivered\n",
	       cap / 1e6);
	if (tries)
		printf("#   >= 99.5 %% at try %u);", tries);
	else
		printf("#   < 99.5 %% at all 8 rates tried: the lowest);");
	printf(" the busiest consumer offered %u %% of it\n", o.load);
	printf("\n| model | %s | drops | %s | %s | %s |\n",
	       "WS max (bufs) | WS max vs privring | WS p50/p90/p99",
	       "nobuf/ring/tier/slow ring (all runs)",
	       "reorders | slow path % | p99 latency (us)",
	       "p99 vs privring | delivered % | NIC Mpps");
	printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (mi = 0; mi < NMODELS; mi++) {
		if (!o.model_on[mi])
			continue;
		if (!ok[mi]) {
			printf("| %s | cannot run | | | | | | | | | | |\n",
			       model_names[mi]);
			continue;
		}
		column(v, rs[mi], n, offsetof(struct res, ws_max));
		cell(c[0], sizeof(c[0]), v, n, 0);
		if (pr >= 0 && mi != pr) {
			column(p, rs[pr], n, offsetof(struct res, ws_max));
			ratio(c[1], sizeof(c[1]), v, p, n);
		} else {
			snprintf(c[1], sizeof(c[1]), mi == pr ? "1" : "-");
		}
		column(v, rs[mi], n, offsetof(struct res, ws_p50));
		column(p, rs[mi], n, offsetof(struct res, ws_p90));
		column(w, rs[mi], n, offsetof(struct res, ws_p99));
		snprintf(c[2], sizeof(c[2]), "%.0f/%.0f/%.0f", medof(v, n),
			 medof(p, n), medof(w, n));
		column(v, rs[mi], n, offsetof(struct res, drops));
		cell(c[3], sizeof(c[3]), v, n, 0);
		{
			double a[BENCH_MAX_REPS], b[BENCH_MAX_REPS];
			double d[BENCH_MAX_REPS], e[BENCH_MAX_REPS];

			column(a, rs[mi], n, offsetof(struct res, nobuf));
			column(b, rs[mi], n, offsetof(struct res, ring));
			column(d, rs[mi], n, offsetof(struct res, tier));
			column(e, rs[mi], n, offsetof(struct res, slowring));
			snprintf(c[4], sizeof(c[4]), "%.0f/%.0f/%.0f/%.0f",
				 sum(a, n), sum(b, n), sum(d, n), sum(e, n));
		}
		column(v, rs[mi], n, offsetof(struct res, reorders));
		cell(c[5], sizeof(c[5]), v, n, 0);
		column(v, rs[mi], n, offsetof(struct res, slow_frac));
		for (int i = 0; i < n; i++)
			v[i] *= 100;
		if (strncmp(model_names[mi], "ceio", 4))
			snprintf(c[6], sizeof(c[6]), "-");
		else
			cell(c[6], sizeof(c[6]), v, n, 1);
		if (!strncmp(model_names[mi], "ceio", 4) && sc->kind == SC_BULK) {
			size_t l = strlen(c[6]);

			column(p, rs[mi], n, offsetof(struct res, slow_bulk));
			column(w, rs[mi], n, offsetof(struct res, slow_polled));
			snprintf(c[6] + l, sizeof(c[6]) - l, " (bulk %.1f, polled %.1f)",
				 100 * medof(p, n), 100 * medof(w, n));
		}
		column(v, rs[mi], n, offsetof(struct res, p99_us));
		cell(c[7], sizeof(c[7]), v, n, 0);
		printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |",
		       model_names[mi], c[0], c[1], c[2], c[3], c[4], c[5],
		       c[6], c[7]);
		if (pr >= 0 && mi != pr) {
			column(p, rs[pr], n, offsetof(struct res, p99_us));
			printf(" %s |", ratio(c[0], sizeof(c[0]), v, p, n));
		} else {
			printf(" %s |", mi == pr ? "1" : "-");
		}
		column(v, rs[mi], n, offsetof(struct res, delivered));
		for (int i = 0; i < n; i++)
			v[i] *= 100;
		printf(" %s |", cell(c[1], sizeof(c[1]), v, n, 2));
		column(v, rs[mi], n, offsetof(struct res, mpps));
		printf(" %s |\n", cell(c[2], sizeof(c[2]), v, n, 3));
		fflush(stdout);
	}
}

/* ---- command line ---- */

/* A comma-separated list of names of @names into @on; exit 2 if bad. */
static void name_list(int opt, const char *arg, const char *const *names,
		      unsigned int n, bool *on)
{
	char buf[128], *save = NULL, *t;
	unsigned int i, cnt = 0;

	if (strlen(arg) >= sizeof(buf) || !*arg) {
		fprintf(stderr, "bench_ceio: -%c: expected a comma-separated list\n",
			opt);
		exit(2);
	}
	strcpy(buf, arg);
	memset(on, 0, n * sizeof(*on));
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && strcmp(t, names[i]); i++)
			;
		if (i == n) {
			fprintf(stderr, "bench_ceio: -%c: no such name '%s'\n",
				opt, t);
			exit(2);
		}
		on[i] = true;
		cnt++;
	}
	if (!cnt || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',') {
		fprintf(stderr, "bench_ceio: -%c '%s': empty name in the list\n",
			opt, arg);
		exit(2);
	}
}

static void print_help(void)
{
	printf("usage: bench_ceio [-q queues] [-c consumers] [-b buffers] [-n frames]\n"
	       "                  [-R reps] [-m model,...] [-s scenario,...] [-w ns]\n"
	       "                  [-l load%%] [-u burst] [-k hold] [-d polls] [-f ns]\n"
	       "                  [-F async|sync]\n"
	       "  -q  queues, a power of two (4)       -c  consumer threads (2)\n"
	       "  -b  host buffers per port B, a power of two (1024)\n"
	       "  -n  frames per run (100000)          -R  runs per cell (3)\n"
	       "  -m  privring,shring,rxbisect,ceio (default), ceio-page\n"
	       "  -s  static,burst,bulk\n"
	       "  -w  consumer work per packet, ns (1000)\n"
	       "  -l  offered load, %% of the busiest consumer's capacity (70)\n"
	       "  -u  burst frames per joining flow (512)\n"
	       "  -k  bulk flow: buffers held at most (256)  -d  polls held (16)\n"
	       "  -f  ceio slow-path fetch latency, ns (1000)\n"
	       "  -F  ceio slow-path fetch: async (default, the module's) or sync\n");
}

static const char *const scen_names[] = { "static", "burst", "bulk" };

int main(int argc, char **argv)
{
	static struct res rs[NMODELS][BENCH_MAX_REPS];
	struct sched s;
	bool ok[NMODELS];
	double cap;
	unsigned int si, mi, r, tries;
	int opt;

	o.nq = 4;
	o.ncons = 2;
	o.bufs = 1024;
	o.frames = 100000;
	o.reps = 3;
	o.work_ns = 1000;
	o.load = 70;
	o.burst = 512;
	o.hold_k = 256;
	o.hold_d = 16;
	o.fetch_ns = 1000;
	for (mi = 0; mi < NDEFAULT; mi++)
		o.model_on[mi] = true;
	for (si = 0; si < 3; si++)
		o.scen_on[si] = true;
	while ((opt = getopt(argc, argv, ":q:c:b:n:R:m:s:w:l:u:k:d:f:F:h")) != -1) {
		switch (opt) {
		case 'q':
			o.nq = num_arg(opt, optarg, 1, MAX_Q);
			if (!pow2(o.nq))
				bad("-q: the queue count must be a power of two");
			break;
		case 'c':
			o.ncons = num_arg(opt, optarg, 1, MAX_CONS);
			break;
		case 'b':
			o.bufs = num_arg(opt, optarg, 1, 1ULL << 20);
			break;
		case 'n':
			o.frames = num_arg(opt, optarg, 1000, 100000000);
			break;
		case 'R':
			o.reps = num_arg(opt, optarg, 1, BENCH_MAX_REPS);
			break;
		case 'm':
			name_list(opt, optarg, model_names, NMODELS, o.model_on);
			break;
		case 's':
			name_list(opt, optarg, scen_names, 3, o.scen_on);
			break;
		case 'w':
			o.work_ns = num_arg(opt, optarg, 0, 1000000);
			break;
		case 'l':
			o.load = num_arg(opt, optarg, 1, 200);
			break;
		case 'u':
			o.burst = num_arg(opt, optarg, 1, 100000);
			break;
		case 'k':
			o.hold_k = num_arg(opt, optarg, 0, 100000);
			break;
		case 'd':
			o.hold_d = num_arg(opt, optarg, 1, 100000);
			break;
		case 'f':
			o.fetch_ns = num_arg(opt, optarg, 0, 1000000);
			break;
		case 'F':
			if (!strcmp(optarg, "sync"))
				o.fetch_sync = true;
			else if (strcmp(optarg, "async"))
				bad("-F: the fetch mode is async or sync");
			break;
		case 'h':
			print_help();
			return 0;
		case ':':
			fprintf(stderr, "bench_ceio: -%c needs an argument\n", optopt);
			return 2;
		default:
			fprintf(stderr, "bench_ceio: unknown option -%c\n", optopt);
			print_help();
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench_ceio: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (o.ncons > o.nq)
		bad("-c: more consumer threads than queues");
	o.group = o.nq < 4 ? o.nq : 4;
	if (!pow2(o.bufs))
		bad("-b: the buffer budget must be a power of two");
	if (o.bufs / o.nq < RXB_RING_MIN)
		bad("-b: below 64 buffers per queue (the smallest ring)");
	if (o.bufs / (o.nq / o.group) > RXB_RING_MAX)
		bad("-b: above 8192 buffers per shared ring (the largest ring)");
	if (o.scen_on[1] && 4ULL * o.burst >= o.frames / 2)
		bad("-u: the bursts (4 x -u frames) must be under half of -n");

	bench_hw_ops = rxb_env_test_hw_ops;
	bench_hw_ops.dma_write = bench_dma_write;
	bench_hw_ops.dma_ptr = bench_dma_ptr;

	printf("# bench_ceio: %u queues, %u consumer thread(s) (queue q on thread q %% %u),\n",
	       o.nq, o.ncons, o.ncons);
	printf("# 1 NIC thread; ");
	printf("%ld CPUs; %llu frames per run, %u runs per cell, models interleaved,\n",
	       sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)o.frames, o.reps);
	printf("# median [min-max] over the runs; consumer work %llu ns per packet,\n",
	       (unsigned long long)o.work_ns);
	printf("# NAPI budget %u\n", BUDGET);
	print_sizing();
	printf("# flows -> queue (RSS hash):");
	for (mi = 0; mi < NFLOWS + 2; mi++)
		printf(" %u->%u", mi, flow_q(mi));
	printf("\n# WS: host buffers written by the NIC and not yet freed (max; samples after\n");
	printf("#   every poll); drops: refused frames, not retried; reorders: per-flow\n");
	printf("#   sequence regressions; latency: NIC arrival to consume; ratio ~: its\n");
	printf("#   range includes 1\n");
	fflush(stdout);

	for (si = 0; si < NSCENS; si++) {
		const struct scen *sc = &scens[si];

		if (!o.scen_on[sc->kind])
			continue;
		cap = sustain(sc, &tries);
		sched_build(&s, sc, o.frames, cap, o.load);
		for (mi = 0; mi < NMODELS; mi++)
			ok[mi] = true;
		for (r = 0; r < o.reps; r++)
			for (mi = 0; mi < NMODELS; mi++)
				if (o.model_on[mi] && ok[mi])
					ok[mi] = run_once(model_names[mi], &s,
							  &rs[mi][r]);
		print_scen(sc, &s, cap, tries, rs, ok);
		sched_free(&s);
		for (mi = 0; mi < NMODELS; mi++)
			if (o.model_on[mi] && !ok[mi])
				return 1;
	}
	return 0;
}
