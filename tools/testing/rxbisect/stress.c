// SPDX-License-Identifier: GPL-2.0
/* Generic multi-threaded stress test for rxbisect ring models; see stress.h. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>

#include "env.h"
#include "ktap.h"
#include "stress.h"

#define MAX_PRODUCERS	16
#define MAX_QUEUES	64
/* No progress for this long means a hang (TSAN is slow: be generous). */
#define WATCHDOG_S	120.0

struct prod_qstats {
	u64 sent, delivered, bytes, nobuf, ring_full, oversize;
};

struct stress;

struct producer {
	struct stress *s;
	pthread_t thr;
	unsigned int id;
	u64 frames;
	u64 progress;			/* frames sent, atomic */
	unsigned long *delivered;	/* bitmap by seq: hw_rx returned 0 */
	unsigned long *received;	/* bitmap by seq: consumer got it, atomic */
	struct prod_qstats q[MAX_QUEUES];
	u8 *frame;
};

struct consumer {
	struct stress *s;
	pthread_t thr;
	unsigned int q;
	u64 packets, bytes, polls;
	u64 dma_errs;			/* packets with RXB_CQE_F_DMA_ERR */
	u64 progress;			/* packets, atomic */
	u64 last_seq[MAX_PRODUCERS];	/* last seq + 1 per producer; 0: none */
	struct rxb_pkt *pkts;
};

struct stress {
	const struct rxb_stress_cfg *cfg;
	const struct rxb_model_ops *ops;
	struct rxb_model *m;
	struct rxb_hw_model *hw;
	void *bar;
	struct rxb_env *env;
	unsigned int buf_len, max_len;
	struct producer prod[MAX_PRODUCERS];
	struct consumer *cons;
	int producers_done;		/* atomic: producers joined */
	int nproducers_running;		/* atomic */
	int nconsumers_running;		/* atomic */
	long errors;			/* atomic: content/order errors */
};

#define stress_err(s, fmt, ...) do {					\
	__atomic_add_fetch(&(s)->errors, 1, __ATOMIC_RELAXED);		\
	ktap_fail_at(__FILE__, __LINE__, fmt, ##__VA_ARGS__);		\
} while (0)

u64 rxb_stress_frames(u64 dflt)
{
	const char *e = getenv("RXB_STRESS_FRAMES");

	return e && *e ? strtoull(e, NULL, 0) : dflt;
}

/* Everything about frame @seq of producer @p. */
struct fparams {
	unsigned int q, len;
	u32 hash;
	u8 hash_flags;
	bool oversize;
};

static void frame_params(const struct stress *s, unsigned int p, u64 seq,
			 struct fparams *f)
{
	const struct rxb_stress_cfg *c = s->cfg;
	u64 h = rxb_mix64(c->seed ^ ((u64)p << 52) ^ seq);
	unsigned int sel = (h >> 40) & 63, r = h >> 48;
	static const u8 flags[] = { RXB_CQE_F_L4_HASH, RXB_CQE_F_L3_HASH, 0 };

	f->q = (h >> 56) % 100 < c->skew ? 0 : (h >> 8) % c->nqueues;
	f->hash = (u32)(h >> 16) ^ (u32)(h << 7);
	f->hash_flags = flags[(h >> 2) % 3];
	f->oversize = c->oversize_one_in && (h >> 24) % c->oversize_one_in == 0;
	if (f->oversize)
		f->len = s->buf_len + 1 + r % 64;
	else if (sel == 0)
		f->len = s->max_len;
	else if (sel < 6)
		f->len = 60 + r % (s->max_len - 59);
	else
		f->len = 60 + r % (s->max_len < 260 ? s->max_len - 59 : 200);
}

static void *producer_fn(void *arg)
{
	struct producer *p = arg;
	struct stress *s = p->s;
	unsigned int drops = 0;
	u64 seq;

	for (seq = 0; seq < p->frames; seq++) {
		struct rxb_tframe_id id = { .producer = p->id, .seq = seq };
		struct prod_qstats *qs;
		struct fparams fp;
		struct rxb_frame f;
		int ret;

		frame_params(s, p->id, seq, &fp);
		id.q = fp.q;
		rxb_tframe_fill(p->frame, fp.len, &id);
		f.data = p->frame;
		f.len = fp.len;
		f.hash = fp.hash;
		f.hash_flags = fp.hash_flags;
		qs = &p->q[fp.q];
		qs->sent++;

		ret = rxb_env_nic_rx(s->env, fp.q, &f);

		switch (ret) {
		case 0:
			qs->delivered++;
			qs->bytes += fp.len;
			p->delivered[seq / BITS_PER_LONG] |= 1UL << (seq % BITS_PER_LONG);
			if (fp.oversize)
				stress_err(s, "producer %u seq %llu: %u-byte frame > buf_len %u delivered",
					   p->id, (unsigned long long)seq, fp.len, s->buf_len);
			break;
		case -ENOBUFS:
			qs->nobuf++;
			break;
		case -ENOSPC:
			qs->ring_full++;
			break;
		case -EMSGSIZE:
			qs->oversize++;
			if (!fp.oversize)
				stress_err(s, "producer %u seq %llu: %u-byte frame dropped as oversize",
					   p->id, (unsigned long long)seq, fp.len);
			break;
		default:
			stress_err(s, "producer %u seq %llu: hw_rx returned %d",
				   p->id, (unsigned long long)seq, ret);
		}
		/* Back off when the consumers lag, as a NIC FIFO would not. */
		if ((ret == -ENOBUFS || ret == -ENOSPC) && !s->cfg->no_backoff &&
		    (++drops & 3) == 0)
			sched_yield();
		__atomic_store_n(&p->progress, seq + 1, __ATOMIC_RELAXED);
	}
	__atomic_sub_fetch(&s->nproducers_running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Do queues @a and @b poll the same completion ring? */
static bool same_cr(const struct stress *s, unsigned int a, unsigned int b)
{
	unsigned int share = s->cfg->cr_share;

	if (share > s->cfg->nqueues)
		share = s->cfg->nqueues;
	return share > 1 ? a / share == b / share : a == b;
}

static void consume(struct consumer *c, const struct rxb_pkt *pkt)
{
	struct stress *s = c->s;
	struct rxb_tframe_id id;
	struct fparams fp;
	struct producer *p;
	const u8 *data;
	unsigned long bit;

	data = rxb_env_pkt_take(s->env, c->q, pkt);
	if (!data)
		return;
	c->packets++;
	c->bytes += pkt->len;
	if (pkt->flags & RXB_CQE_F_DMA_ERR) {
		/* Garbage content: nothing to check but the buffer's state. */
		c->dma_errs++;
		if (!s->cfg->dma_fail_one_in || (pkt->flags & RXB_CQE_F_CSUM))
			stress_err(s, "q %u: DMA error flags %#x", c->q,
				   pkt->flags);
		goto put;
	}
	if (!rxb_tframe_check(data, pkt->len, &id)) {
		stress_err(s, "q %u: packet of %u bytes: bad header or content",
			   c->q, pkt->len);
		goto put;
	}
	if (id.producer >= s->cfg->nproducers || !same_cr(s, id.q, c->q)) {
		stress_err(s, "q %u: frame of producer %u for q %u", c->q,
			   id.producer, id.q);
		goto put;
	}
	p = &s->prod[id.producer];
	if (id.seq >= p->frames) {
		stress_err(s, "q %u: producer %u seq %llu never sent", c->q,
			   id.producer, (unsigned long long)id.seq);
		goto put;
	}
	frame_params(s, id.producer, id.seq, &fp);
	if (!s->cfg->no_csum)
		fp.hash_flags |= RXB_CQE_F_CSUM;
	if (fp.q != id.q || fp.len != pkt->len || fp.hash != pkt->hash ||
	    fp.hash_flags != pkt->flags)
		stress_err(s, "q%u p%u #%llu: got/sent: len %u/%u hash %#x/%#x flags %#x/%#x, q %u",
			   c->q, id.producer, (unsigned long long)id.seq,
			   pkt->len, fp.len, pkt->hash, fp.hash, pkt->flags,
			   fp.hash_flags, fp.q);
	else if ((pkt->flags & RXB_CQE_F_CSUM) &&
		 pkt->csum != rxb_env_csum(data, pkt->len))
		stress_err(s, "q %u: producer %u seq %llu: csum %#x, frame sums to %#x",
			   c->q, id.producer, (unsigned long long)id.seq,
			   pkt->csum, rxb_env_csum(data, pkt->len));
	if (id.seq + 1 <= c->last_seq[id.producer])
		stress_err(s, "q %u: producer %u seq %llu after seq %llu", c->q,
			   id.producer, (unsigned long long)id.seq,
			   (unsigned long long)c->last_seq[id.producer] - 1);
	else
		c->last_seq[id.producer] = id.seq + 1;
	bit = 1UL << (id.seq % BITS_PER_LONG);
	if (__atomic_fetch_or(&p->received[id.seq / BITS_PER_LONG], bit,
			      __ATOMIC_RELAXED) & bit)
		stress_err(s, "q %u: producer %u seq %llu received twice", c->q,
			   id.producer, (unsigned long long)id.seq);
put:
	/* Dropped as XDP drops it: a model with a recycle cache keeps it. */
	rxb_env_pkt_drop(s->env, s->m, c->q, pkt);
}

static int poll_once(struct consumer *c)
{
	struct stress *s = c->s;
	int budget = s->cfg->budget, i, n;

	n = rxb_model_poll(s->m, c->q, c->pkts, budget);
	c->polls++;
	if (n < 0 || n > budget) {
		stress_err(s, "q %u: poll(budget %d) returned %d", c->q, budget, n);
		return 0;
	}
	for (i = 0; i < n; i++)
		consume(c, &c->pkts[i]);
	__atomic_store_n(&c->progress, c->packets, __ATOMIC_RELAXED);
	return n;
}

static void *consumer_fn(void *arg)
{
	struct consumer *c = arg;
	struct stress *s = c->s;
	int budget = s->cfg->budget;

	for (;;) {
		u64 seen;

		if (poll_once(c) == budget)
			continue;
		if (__atomic_load_n(&s->producers_done, __ATOMIC_ACQUIRE)) {
			int i;

			/*
			 * Every hw_rx has returned: drain what is left, and
			 * what the NIC still writes when it acts on the
			 * register writes of the last polls (posted: it does
			 * so in its own context, later; an Ensō Head_SW
			 * write has it notify data the driver has not seen).
			 * Done once the NIC is idle and a poll after that
			 * finds nothing.
			 */
			for (;;) {
				while (poll_once(c))
					;
				if (!rxb_env_nic_idle(s->env))
					sched_yield();
				else if (!poll_once(c))
					break;
			}
			/*
			 * A shared ring's poll returns 0 when another
			 * consumer won the race: drain until nothing is
			 * pending (a lying rx_pending hangs: the watchdog).
			 */
			while (s->cfg->cr_share > 1 &&
			       s->ops->rx_pending(s->m, c->q))
				poll_once(c);
			/*
			 * A model's timer may still write entries that carry
			 * no packet (rxBisect notifications); a packet now
			 * means poll missed one, or rx_pending lied.  Unless
			 * alloc_buf fails: a poll that cannot replace a
			 * buffer may stop early (RxList), as NAPI retries.
			 */
			for (i = 0; i < 1000 && s->ops->rx_pending(s->m, c->q); i++)
				if (poll_once(c) && !s->cfg->alloc_fail_one_in)
					stress_err(s, "q %u: packet after the final drain",
						   c->q);
			break;
		}
		/* napi_complete: re-arm, then close the race with the NIC. */
		seen = rxb_env_irqs(s->env, c->q);
		if (s->ops->rx_pending(s->m, c->q))
			continue;
		rxb_env_wait_irq(s->env, c->q, seen, &s->producers_done);
	}
	__atomic_sub_fetch(&s->nconsumers_running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* ethtool -S: counters read concurrently never go down. */
static void monitor(struct stress *s, u64 (*prev)[RXB_QSTATS_NUM])
{
	unsigned int q, i;

	for (q = 0; q < s->cfg->nqueues; q++) {
		struct rxb_qstats st;

		rxb_model_qstats_read(s->m, q, &st);
		for (i = 0; i < RXB_QSTATS_NUM; i++) {
			const struct rxb_stat_desc *d = &rxb_qstats_desc[i];
			u64 v = rxb_stat_get(&st, d);

			if (v < prev[q][i])
				stress_err(s, "q %u: %s went from %llu to %llu",
					   q, d->name, (unsigned long long)prev[q][i],
					   (unsigned long long)v);
			prev[q][i] = v;
		}
	}
}

static u64 total_progress(struct stress *s)
{
	u64 t = 0;
	unsigned int i;

	for (i = 0; i < s->cfg->nproducers; i++)
		t += __atomic_load_n(&s->prod[i].progress, __ATOMIC_RELAXED);
	for (i = 0; i < s->cfg->nqueues; i++)
		t += __atomic_load_n(&s->cons[i].progress, __ATOMIC_RELAXED);
	return t;
}

/* Monitor until *@running drops to zero; false on a watchdog timeout. */
static bool monitor_until(struct stress *s, int *running,
			  u64 (*prev)[RXB_QSTATS_NUM])
{
	double last_change = ktap_now();
	u64 last = total_progress(s);

	while (__atomic_load_n(running, __ATOMIC_ACQUIRE)) {
		u64 now;

		usleep(2000);
		monitor(s, prev);
		now = total_progress(s);
		if (now != last) {
			last = now;
			last_change = ktap_now();
		} else if (ktap_now() - last_change > WATCHDOG_S) {
			return false;
		}
	}
	return true;
}

static void check_counters(struct stress *s)
{
	const struct rxb_stress_cfg *cfg = s->cfg;
	u64 tot_sent = 0, tot_deliv = 0, tot_fails = 0, tot_injected = 0;
	u64 tot_dma_errs = 0, tot_dma_injected = 0, lost = 0;
	/* Per completion ring: what was sent to it, what its queues polled. */
	u64 cr_deliv = 0, cr_bytes = 0, cr_packets = 0, cr_pbytes = 0;
	long cr_irqs = 0;
	unsigned int q, i;

	for (q = 0; q < cfg->nqueues; q++) {
		struct rxb_qstats qst, *st = &qst;
		struct rxb_env_qstats es = rxb_env_qstats(s->env, q);
		struct consumer *c = &s->cons[q];
		struct prod_qstats t = { 0 };

		rxb_model_qstats_read(s->m, q, st);
		for (i = 0; i < cfg->nproducers; i++) {
			struct prod_qstats *pq = &s->prod[i].q[q];

			t.sent += pq->sent;
			t.delivered += pq->delivered;
			t.bytes += pq->bytes;
			t.nobuf += pq->nobuf;
			t.ring_full += pq->ring_full;
			t.oversize += pq->oversize;
		}
		ktap_diag("q%u: sent %llu deliv %llu nobuf %llu full %llu oversize %llu",
			  q, (unsigned long long)t.sent,
			  (unsigned long long)t.delivered,
			  (unsigned long long)t.nobuf,
			  (unsigned long long)t.ring_full,
			  (unsigned long long)t.oversize);
		ktap_diag("q%u: polls %llu irqs %ld alloc_fails %llu", q,
			  (unsigned long long)st->polls, es.irqs,
			  (unsigned long long)st->alloc_fails);
		EXPECT_EQ(t.delivered + t.nobuf + t.ring_full + t.oversize, t.sent);
		cr_deliv += t.delivered;
		cr_bytes += t.bytes;
		cr_packets += c->packets;
		cr_pbytes += c->bytes;
		cr_irqs += es.irqs;
		if (q + 1 == cfg->nqueues || !same_cr(s, q, q + 1)) {
			EXPECT_EQ(cr_packets, cr_deliv);
			EXPECT_EQ(cr_pbytes, cr_bytes);
			/* Each delivered packet is followed by an interrupt. */
			EXPECT(cr_irqs > 0 || !cr_deliv, "q %u: no interrupt", q);
			cr_deliv = 0;
			cr_bytes = 0;
			cr_packets = 0;
			cr_pbytes = 0;
			cr_irqs = 0;
		}
		EXPECT_EQ(st->hw_packets, t.delivered);
		EXPECT_EQ(st->hw_bytes, t.bytes);
		EXPECT_EQ(st->packets, c->packets);
		EXPECT_EQ(st->bytes, c->bytes);
		EXPECT_EQ(st->nobuf_drops, t.nobuf);
		EXPECT_EQ(st->ring_full_drops, t.ring_full);
		EXPECT_EQ(st->oversize_drops, t.oversize);
		EXPECT_EQ(st->polls, c->polls);
		/* Every packet put back once, or kept by the model
		 * (rxb_env_pkt_drop()); a reference per fragment.
		 */
		EXPECT_EQ(es.takes + es.borrows, es.puts + es.recycles);
		EXPECT_EQ(es.refs, es.borrows);
		tot_sent += t.sent;
		tot_deliv += t.delivered;
		tot_fails += st->alloc_fails;
		tot_injected += es.injected_fails;
		tot_dma_errs += c->dma_errs;
		tot_dma_injected += es.dma_errs;
	}
	EXPECT_EQ(tot_sent, cfg->frames);
	EXPECT_EQ(tot_fails, tot_injected);
	EXPECT_EQ(tot_dma_errs, tot_dma_injected);
	EXPECT(tot_deliv > 0, "no frame delivered");
	ktap_diag("%s: %llu frames, %llu delivered (%.1f%%), %llu alloc failures injected",
		  cfg->model, (unsigned long long)tot_sent,
		  (unsigned long long)tot_deliv,
		  tot_sent ? 100.0 * tot_deliv / tot_sent : 0.0,
		  (unsigned long long)tot_injected);

	if (tot_dma_injected)
		ktap_diag("%s: %llu DMA failures injected, all reported",
			  cfg->model, (unsigned long long)tot_dma_injected);

	/*
	 * Exactly once: the set received is the set hw_rx accepted, less
	 * the frames whose DMA failed (unidentifiable: as many as failed).
	 */
	for (i = 0; i < cfg->nproducers; i++) {
		struct producer *p = &s->prod[i];
		u64 w, nw = BITS_TO_LONGS(p->frames);

		for (w = 0; w < nw; w++) {
			if (p->received[w] & ~p->delivered[w] ||
			    (!tot_dma_injected && p->delivered[w] != p->received[w])) {
				stress_err(s, "producer %u seqs %llu..: delivered %#lx received %#lx",
					   i, (unsigned long long)w * BITS_PER_LONG,
					   p->delivered[w], p->received[w]);
				break;
			}
			lost += __builtin_popcountl(p->delivered[w] & ~p->received[w]);
		}
	}
	EXPECT_EQ(lost, tot_dma_injected);
}

/* Model-specific counters (ethtool -S extras): print the non-zero ones. */
static void show_xstats(struct stress *s)
{
	const struct rxb_model_ops *ops = s->ops;
	unsigned int n, i, len = 0;
	char *names, line[256];
	u64 *vals;

	if (!ops->xstats_count || !ops->xstats_names || !ops->xstats_values)
		return;
	n = ops->xstats_count(s->m);
	names = calloc(n + 1, RXB_STAT_NAME_LEN);
	vals = calloc(n + 1, sizeof(*vals));
	if (!names || !vals)
		abort();
	ops->xstats_names(s->m, names);
	ops->xstats_values(s->m, vals);
	for (i = 0; i < n; i++) {
		const char *name = names + i * RXB_STAT_NAME_LEN;

		EXPECT(strnlen(name, RXB_STAT_NAME_LEN) < RXB_STAT_NAME_LEN,
		       "xstat %u: name not terminated", i);
		if (!vals[i])
			continue;
		len += snprintf(line + len, sizeof(line) - len, " %.*s=%llu",
				RXB_STAT_NAME_LEN, name, (unsigned long long)vals[i]);
		if (len > sizeof(line) - 64) {
			ktap_diag("xstats:%s", line);
			len = 0;
		}
	}
	if (len)
		ktap_diag("xstats:%s", line);
	free(names);
	free(vals);
}

/*
 * After the storm every queue still works: once all queues are polled
 * empty and the timer has fired, a frame sent to a queue after a refill
 * is accepted and polled back.  The timer and controller threads are stopped.
 */
static void check_alive(struct stress *s)
{
	unsigned int q, i;
	bool busy = true;

	rxb_env_timer_stop(s->env);
	rxb_env_ctl_stop(s->env);
	for (i = 0; busy && i < 1000; i++) {
		busy = rxb_env_run_timer(s->env);
		busy |= rxb_env_nic_run(s->env);
		for (q = 0; q < s->cfg->nqueues; q++) {
			if (poll_once(&s->cons[q]))
				stress_err(s, "q %u: packet after the final drain", q);
			busy |= s->ops->rx_pending(s->m, q);
		}
	}
	EXPECT(!busy, "queues still busy after 1000 rounds");

	for (q = 0; q < s->cfg->nqueues; q++) {
		struct rxb_tframe_id id = { .producer = 0, .q = q, .seq = ~0ULL };
		struct consumer *c = &s->cons[q];
		struct rxb_frame f = { .data = s->prod[0].frame, .len = 64 };
		const void *data;
		int ret, n;

		rxb_env_fail_rate(s->env, 0);
		rxb_env_dma_fail_rate(s->env, 0);
		s->ops->refill(s->m, q);
		rxb_tframe_fill(s->prod[0].frame, f.len, &id);
		rxb_env_nic_run(s->env);
		ret = rxb_env_nic_rx(s->env, q, &f);
		if (!EXPECT_EQ(ret, 0))
			continue;
		n = rxb_model_poll(s->m, q, c->pkts, s->cfg->budget);
		if (!EXPECT_EQ(n, 1))
			continue;
		data = rxb_env_pkt_take(s->env, q, &c->pkts[0]);
		if (!data)
			continue;
		EXPECT(rxb_tframe_check(data, c->pkts[0].len, &id) && id.seq == ~0ULL,
		       "q %u: liveness frame corrupted", q);
		rxb_env_pkt_put(s->env, c->pkts[0].cookie);
	}
}

void rxb_stress_run(const struct rxb_stress_cfg *cfg)
{
	u64 (*prev)[RXB_QSTATS_NUM];
	struct rxb_model_cfg mcfg;
	struct stress *s;
	unsigned int i;
	bool ok;
	int err;

	if (!EXPECT(cfg->nproducers >= 1 && cfg->nproducers <= MAX_PRODUCERS &&
		    cfg->nqueues >= 1 && cfg->nqueues <= MAX_QUEUES &&
		    cfg->budget > 0, "bad stress configuration"))
		return;
	s = calloc(1, sizeof(*s));
	prev = calloc(cfg->nqueues, sizeof(*prev));
	s->cons = calloc(cfg->nqueues, sizeof(*s->cons));
	if (!s || !prev || !s->cons)
		abort();
	s->cfg = cfg;
	s->buf_len = cfg->buf_len ? cfg->buf_len : RXB_ENV_BUF_SIZE;
	s->max_len = cfg->max_len && cfg->max_len < s->buf_len ? cfg->max_len : s->buf_len;
	if (s->max_len < 60)
		s->max_len = 60;
	s->ops = rxb_model_find(cfg->model);
	if (!EXPECT(s->ops, "model \"%s\" not registered", cfg->model))
		goto out_free;
	s->env = rxb_env_create(cfg->nqueues, 0);
	rxb_env_fail_rate(s->env, cfg->alloc_fail_one_in);
	rxb_env_dma_fail_rate(s->env, cfg->dma_fail_one_in);
	rxb_env_set_csum(s->env, !cfg->no_csum);
	rxb_env_model_cfg(s->env, &mcfg, cfg->nqueues, cfg->ring_size, s->buf_len);
	if (cfg->tune)
		cfg->tune(&mcfg);
	err = rxb_env_models_create(s->env, s->ops, &mcfg,
				    &rxb_env_test_drv_ops, &rxb_env_test_hw_ops,
				    &s->m, &s->hw, &s->bar);
	if (!EXPECT(!err, "create: %d", err))
		goto out_env;
	/* The NIC's timer, and its doorbell service between frames. */
	rxb_env_timer_start(s->env);
	if (s->ops->ctl_tick)
		rxb_env_ctl_start(s->env);

	for (i = 0; i < cfg->nproducers; i++) {
		struct producer *p = &s->prod[i];

		p->s = s;
		p->id = i;
		p->frames = cfg->frames / cfg->nproducers +
			    (i < cfg->frames % cfg->nproducers);
		p->delivered = calloc(BITS_TO_LONGS(p->frames) + 1, sizeof(long));
		p->received = calloc(BITS_TO_LONGS(p->frames) + 1, sizeof(long));
		p->frame = malloc(s->buf_len + 128);
		if (!p->delivered || !p->received || !p->frame)
			abort();
	}
	for (i = 0; i < cfg->nqueues; i++) {
		struct consumer *c = &s->cons[i];

		c->s = s;
		c->q = i;
		c->pkts = calloc(cfg->budget, sizeof(*c->pkts));
		if (!c->pkts)
			abort();
	}

	s->nconsumers_running = cfg->nqueues;
	s->nproducers_running = cfg->nproducers;
	for (i = 0; i < cfg->nqueues; i++)
		if (pthread_create(&s->cons[i].thr, NULL, consumer_fn, &s->cons[i]))
			abort();
	for (i = 0; i < cfg->nproducers; i++)
		if (pthread_create(&s->prod[i].thr, NULL, producer_fn, &s->prod[i]))
			abort();

	ok = monitor_until(s, &s->nproducers_running, prev);
	if (ok) {
		for (i = 0; i < cfg->nproducers; i++)
			pthread_join(s->prod[i].thr, NULL);
		__atomic_store_n(&s->producers_done, 1, __ATOMIC_RELEASE);
		ok = monitor_until(s, &s->nconsumers_running, prev);
	}
	if (!ok) {
		/* A thread is stuck: nothing sane to clean up. */
		ktap_fail_at(__FILE__, __LINE__, "%s: no progress for %.0f s",
			     cfg->model, WATCHDOG_S);
		fflush(stdout);
		_exit(1);
	}
	for (i = 0; i < cfg->nqueues; i++)
		pthread_join(s->cons[i].thr, NULL);
	monitor(s, prev);

	check_counters(s);
	show_xstats(s);
	check_alive(s);
	rxb_env_models_destroy(s->env, s->m, s->hw, s->bar);
	EXPECT_EQ(rxb_env_outstanding(s->env, -1), 0);
	EXPECT_EQ(rxb_env_errors(s->env), 0);
	EXPECT_EQ(__atomic_load_n(&s->errors, __ATOMIC_RELAXED), 0);

	for (i = 0; i < cfg->nproducers; i++) {
		free(s->prod[i].delivered);
		free(s->prod[i].received);
		free(s->prod[i].frame);
	}
	for (i = 0; i < cfg->nqueues; i++)
		free(s->cons[i].pkts);
out_env:
	rxb_env_destroy(s->env);
out_free:
	free(s->cons);
	free(prev);
	free(s);
}
