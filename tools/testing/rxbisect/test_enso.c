// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of Ensō's two halves (drivers/net/rxbisect/hw/models/enso.c, the
 * NIC's; drv/models/enso.c, the driver's): Figure 5's transitions, the
 * driver's register writes posted (the NIC notifies, and sends dropped
 * notifications again, only when its doorbell service runs, never in the
 * driver's call), frames read across a pipe's end through the double
 * mapping, a full pipe dropping whole frames, and a multi-threaded stress
 * with 1, 2, 32, 64 and 512 pipes per queue on 2 queues (vectors),
 * prefetch off and on: every frame is dropped (and counted) or received
 * exactly once, in order per pipe, and every byte is notified in the end
 * even when notifications are dropped.  Model-independent tests (stress
 * with one pipe per queue, bad configurations, -ENOMEM paths) are in
 * test_models.c.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>

#include "env.h"
#include "ktap.h"
#include "stress.h"

#define ALIGN_FLIT(x)	(((x) + RXB_ENSO_FLIT - 1) & ~(RXB_ENSO_FLIT - 1))

/* The pipe the NIC picks for @hash (hw/models/enso.c, enso_hash_pipe()). */
static unsigned int pipe_of(u32 hash, unsigned int npipes)
{
	u32 h = hash << 16 | hash >> 16;

	return ((u64)h * npipes) >> 32;
}

static u8 frame[RXB_ENV_BUF_SIZE];

static int send(struct rxb_th *t, unsigned int q, u64 seq, unsigned int len,
		u32 hash)
{
	struct rxb_tframe_id id = { .producer = 0, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = frame, .len = len, .hash = hash,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};

	rxb_tframe_fill(frame, len, &id);
	return rxb_th_hw_rx(t, q, &f);
}

/* Poll queue @q, check each packet is @next, @next + 1, ...; how many. */
static int poll_check(struct rxb_th *t, unsigned int q, u64 *next, int budget)
{
	struct rxb_pkt pkts[64];
	struct rxb_tframe_id id;
	int n, i;

	n = rxb_model_poll(t->m, q, pkts, budget);
	for (i = 0; i < n; i++) {
		const void *d = rxb_env_pkt_take(t->env, q, &pkts[i]);

		if (!EXPECT(d && rxb_tframe_check(d, pkts[i].len, &id),
			    "seq %llu: bad frame", (unsigned long long)*next))
			continue;
		EXPECT_EQ(id.seq, *next);
		EXPECT_EQ(pkts[i].flags, RXB_CQE_F_L4_HASH | RXB_CQE_F_CSUM);
		EXPECT_EQ(pkts[i].csum, rxb_env_csum(d, pkts[i].len));
		(*next)++;
	}
	return n;
}

/* A hash the NIC steers to pipe @k of @npipes (a power of two). */
static u32 hash_to_pipe(unsigned int k, unsigned int npipes)
{
	u32 h = (u32)k << (32 - __builtin_ctz(npipes));

	return h << 16 | h >> 16;
}

/*
 * Poll queue @q empty, checking the packets as poll_check() does, with the
 * NIC's doorbell service run whenever a poll finds nothing (what the NIC
 * does for the driver's register writes, Head_SW's notifications, comes
 * only then); the refill gives the last packets' flits back.  How many.
 */
static u64 drain(struct rxb_th *t, unsigned int q, u64 *next, int budget)
{
	unsigned int idle = 0;
	u64 got = 0;
	int n;

	while (idle < 1000) {
		n = poll_check(t, q, next, budget);
		got += n;
		if (n)
			continue;
		t->ops->refill(t->m, q);
		if (!rxb_th_nic_run(t) && !t->ops->rx_pending(t->m, q))
			return got;
		idle++;
	}
	EXPECT(false, "q %u: still pending after 1000 empty polls", q);
	return got;
}

static u64 qstat(struct rxb_th *t, unsigned int q, size_t off)
{
	struct rxb_qstats st;

	rxb_th_qstats(t, q, &st);
	return *(u64 *)((char *)&st + off);
}

#define QSTAT(t, q, f)	qstat(t, q, offsetof(struct rxb_qstats, f))

/*
 * Figure 5, one pipe: arrival with status 0 notifies, with 1 does not; a
 * Head_SW write reaching the tail clears the bit, one short of it
 * notifies the current tail: when the NIC's doorbell service runs, not in
 * the driver's write.
 */
static void test_fig5(const void *arg __always_unused)
{
	u64 next = 0, seq = 0;
	struct rxb_th t;

	if (!rxb_th_create(&t, "enso", 1, 64, RXB_ENV_BUF_SIZE))
		goto out;
	EXPECT_EQ(send(&t, 0, seq++, 100, 1), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 1);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), 1);
	EXPECT_EQ(send(&t, 0, seq++, 200, 2), 0);
	EXPECT_EQ(send(&t, 0, seq++, 300, 3), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 1);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_suppressed"), 2);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), 1);
	/* The notification carries the tail after the first frame only. */
	EXPECT(t.ops->rx_pending(t.m, 0));
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 1);
	/* Head_SW written (after the first frame) != tail: notified, once
	 * the NIC has seen the write.
	 */
	t.ops->refill(t.m, 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 1);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), 2);
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 2);
	/* Head_SW == tail: status cleared, no notification. */
	t.ops->refill(t.m, 0);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2);
	EXPECT(!t.ops->rx_pending(t.m, 0));
	EXPECT_EQ(send(&t, 0, seq++, 64, 4), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 3);
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 1);
	EXPECT_EQ(send(&t, 0, seq++, 64, 5), 0);	/* status 1: silent */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 3);
	/* The poll's first act writes Head_SW after the last frame; the NIC
	 * notifies the new tail when it serves the write, so the poll finds
	 * nothing yet, and the next one reads it.
	 */
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 3);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 4);
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 1);
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 0);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 4);
	EXPECT(!t.ops->rx_pending(t.m, 0));
	EXPECT_EQ(next, seq);
	EXPECT_EQ(QSTAT(&t, 0, packets), seq);
	EXPECT_EQ(QSTAT(&t, 0, hw_packets), seq);
out:
	rxb_th_destroy(&t);
}

/*
 * Posted Head_SW writes (issue 31): with data beyond Head_SW, the driver's
 * write of it produces no notification, no interrupt and nothing to poll
 * until the NIC's doorbell service runs; then it does.  Its notification
 * counters and debug registers (the register space) move only then too.
 */
static void test_posted_head(const void *arg __always_unused)
{
	const struct rxb_enso_pipe_regs *regs;
	long bad0 = rxb_pair_ctx_violations();
	struct rxb_hw_debug d0, d;
	u64 next = 0, seq = 0, irqs;
	struct rxb_th t;
	int i;

	if (!rxb_th_create(&t, "enso", 1, 64, RXB_ENV_BUF_SIZE))
		goto out;
	regs = rxb_enso_pipe_regs(&t.m->bar, 1, 0, 0);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(send(&t, 0, seq++, 100, 1), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 1);
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 1);
	t.ops->nic_debug(t.m, 0, &d0);
	irqs = rxb_env_irqs(t.env, 0);
	/* The driver gives the first frame's flits back: Head_SW moves. */
	t.ops->refill(t.m, 0);
	EXPECT_EQ(READ_ONCE(regs->rx_head), rxb_enso_frame_flits(100));
	EXPECT(rxb_env_doorbells_pending(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 1);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), irqs);
	EXPECT(!t.ops->rx_pending(t.m, 0));
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 0);
	t.ops->nic_debug(t.m, 0, &d);
	EXPECT_EQ(d.cq_tail, d0.cq_tail);
	EXPECT_EQ(d.posted, d0.posted);
	EXPECT_EQ(rxb_pair_ctx_violations(), bad0);
	/* The NIC serves the write: onRxUpdate, Head_SW != Tail_NIC. */
	EXPECT(rxb_th_nic_run(&t));
	EXPECT(!rxb_env_doorbells_pending(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), irqs + 1);
	t.ops->nic_debug(t.m, 0, &d);
	EXPECT_EQ(d.cq_tail, d0.cq_tail + 1);
	EXPECT_EQ(d.posted, d0.posted + rxb_enso_frame_flits(100));
	EXPECT(t.ops->rx_pending(t.m, 0));
	EXPECT_EQ(poll_check(&t, 0, &next, 16), 3);
	EXPECT_EQ(drain(&t, 0, &next, 16), 0);
	EXPECT_EQ(next, seq);
out:
	rxb_th_destroy(&t);
}

/*
 * The prefetch doorbell is posted too, and an event although it writes
 * the value Head_SW holds: low-latency mode, two pipes; reading pipe 0,
 * the driver rings pipe 1's (its head unchanged, 0), whose second frame
 * was not notified; the NIC notifies it when it serves the write.
 */
static void test_posted_prefetch(const void *arg __always_unused)
{
	const struct rxb_enso_pipe_regs *regs;
	u64 got = 0, seq = 0;
	struct rxb_pkt pkts[16];
	struct rxb_th t;
	int n;

	if (!rxb_th_init(&t, "enso", 1, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipes = 2;
	t.cfg.enso_prefetch = true;
	if (!rxb_th_start(&t))
		goto out;
	regs = rxb_enso_pipe_regs(&t.m->bar, 2, 0, 1);
	EXPECT_EQ(send(&t, 0, seq++, 100, hash_to_pipe(0, 2)), 0);
	EXPECT_EQ(send(&t, 0, seq++, 100, hash_to_pipe(1, 2)), 0);
	EXPECT_EQ(send(&t, 0, seq++, 100, hash_to_pipe(1, 2)), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_suppressed"), 1);
	/* One packet: pipe 0's, after the prefetch of pipe 1. */
	n = rxb_model_poll(t.m, 0, pkts, 1);
	EXPECT_EQ(n, 1);
	got += n;
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_prefetches"), 1);
	EXPECT_EQ(READ_ONCE(regs->rx_head), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(READ_ONCE(regs->rx_head), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 3);
	/* Pipe 1's frames: both, the second notified by the prefetch. */
	while ((n = rxb_model_poll(t.m, 0, pkts, 16)) > 0 || rxb_th_nic_run(&t))
		got += n;
	EXPECT_EQ(got, seq);
	EXPECT_EQ(QSTAT(&t, 0, packets), seq);
	EXPECT(!t.ops->rx_pending(t.m, 0));
out:
	rxb_th_destroy(&t);
}

/* Frames of varying length through a 4 KiB pipe: many straddle its end
 * and are read whole through the second mapping; a full pipe drops the
 * frame, counted.
 */
static void test_wrap(const void *arg __always_unused)
{
	u64 next = 0, seq, drops = 0, straddles = 0, off = 0;
	struct rxb_th t;

	if (!rxb_th_init(&t, "enso", 1, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN;
	if (!rxb_th_start(&t))
		goto out;
	for (seq = 0; seq < 5000 && !ktap_failures(); ) {
		unsigned int len = 60 + (seq * 37) % 1400;
		int ret = send(&t, 0, seq, len, (u32)seq);

		if (ret == -ENOSPC) {
			drops++;
			drain(&t, 0, &next, 64);
			continue;
		}
		if (!EXPECT_EQ(ret, 0))
			break;
		if (off + sizeof(struct rxb_enso_hdr) + len > RXB_ENSO_PIPE_MIN)
			straddles++;
		off = (off + ALIGN_FLIT(sizeof(struct rxb_enso_hdr) + len)) %
		      RXB_ENSO_PIPE_MIN;
		seq++;
	}
	drain(&t, 0, &next, 64);
	EXPECT_EQ(next, seq);
	EXPECT_EQ(QSTAT(&t, 0, ring_full_drops), drops);
	EXPECT(straddles > 100, "only %llu frames across the end",
	       (unsigned long long)straddles);
	ktap_diag("%llu frames, %llu across the pipe's end, %llu drops",
		  (unsigned long long)seq, (unsigned long long)straddles,
		  (unsigned long long)drops);
out:
	rxb_th_destroy(&t);
}

/* Chaotic Ensō: gaps between frames, computed alike by both halves:
 * every frame still arrives, in order, and the pipe holds fewer of them
 * (more pipe-full drops than back to back).
 */
static void test_chaotic(const void *arg __always_unused)
{
	u64 next = 0, seq, drops[2] = { 0, 0 };
	unsigned int c;

	for (c = 0; c < 2; c++) {
		struct rxb_th t;

		next = 0;
		if (!rxb_th_init(&t, "enso", 1, 64, RXB_ENV_BUF_SIZE))
			goto out;
		t.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN;
		t.cfg.enso_chaotic = c;
		if (!rxb_th_start(&t))
			goto out;
		for (seq = 0; seq < 3000 && !ktap_failures(); ) {
			int ret = send(&t, 0, seq, 60 + (seq * 37) % 300,
				       (u32)seq);

			if (ret == -ENOSPC) {
				drops[c]++;
				drain(&t, 0, &next, 64);
				continue;
			}
			if (!EXPECT_EQ(ret, 0))
				break;
			seq++;
		}
		drain(&t, 0, &next, 64);
		EXPECT_EQ(next, seq);
out:
		rxb_th_destroy(&t);
	}
	EXPECT(drops[1] > drops[0], "chaotic %llu full pipes, plain %llu",
	       (unsigned long long)drops[1], (unsigned long long)drops[0]);
	ktap_diag("pipe full %llu times back to back, %llu with gaps",
		  (unsigned long long)drops[0], (unsigned long long)drops[1]);
}

/* A full pipe drops whole frames and keeps what it holds intact. */
static void test_pipe_full(const void *arg __always_unused)
{
	/* 1000-byte frames take 16 flits; one flit stays free: 15 fit. */
	const unsigned int fit = RXB_ENSO_PIPE_MIN * 4 / RXB_ENSO_FLIT / 16 - 1;
	u64 next = 0, seq = 0;
	struct rxb_th t;
	unsigned int i;

	if (!rxb_th_init(&t, "enso", 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN * 4;
	if (!rxb_th_start(&t))
		goto out;
	for (i = 0; i < fit; i++)
		EXPECT_EQ(send(&t, 1, seq++, 1000, i), 0);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(send(&t, 1, seq + i, 1000, i), -ENOSPC);
	EXPECT_EQ(QSTAT(&t, 1, ring_full_drops), 5);
	EXPECT_EQ(QSTAT(&t, 1, hw_packets), fit);
	EXPECT_EQ(QSTAT(&t, 0, hw_packets), 0);
	drain(&t, 1, &next, 7);
	EXPECT_EQ(next, fit);
	EXPECT_EQ(send(&t, 1, seq++, 1000, 0), 0);
	EXPECT_EQ(poll_check(&t, 1, &next, 7), 1);
out:
	rxb_th_destroy(&t);
}

/* Poll up to @budget packets of queue @q, check them; how many. */
static int poll_any(struct rxb_th *t, unsigned int q, int budget)
{
	struct rxb_pkt pkts[64];
	int n, k;

	n = rxb_model_poll(t->m, q, pkts, budget);
	for (k = 0; k < n; k++) {
		struct rxb_tframe_id id;
		const void *d = rxb_env_pkt_take(t->env, q, &pkts[k]);

		EXPECT(d && rxb_tframe_check(d, pkts[k].len, &id));
	}
	return n;
}

/*
 * A full notification ring drops notifications, and the NIC sends them
 * again once the driver frees entries: every frame still arrives.  64
 * pipes on a 64-entry ring, low-latency mode, two frames per pipe: the
 * NIC notifies each pipe's first frame (the ring is full), the driver
 * reads them all and gives the entries back, and rings 63 prefetch
 * doorbells as it reads the pipes; the NIC serves the head write, then
 * the prefetches (63 notifications: 63 of 64 entries taken); the driver's
 * 64 Head_SW writes then find one entry: 63 notifications are dropped.
 * The poll that reads the ring and writes the notification head sends
 * none of them again: the NIC does, when it serves that write (posted,
 * issue 31), in drop order.
 */
static void test_notif_full(const void *arg __always_unused)
{
	const unsigned int np = 64;
	u64 seq = 0, got = 0;
	struct rxb_th t;
	unsigned int k, r, i;
	int n;

	if (!rxb_th_init(&t, "enso", 1, np, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipes = np;
	t.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN;
	t.cfg.enso_prefetch = true;
	if (!rxb_th_start(&t))
		goto out;
	for (r = 0; r < 2; r++)
		for (k = 0; k < np; k++)
			EXPECT_EQ(send(&t, 0, seq++, 100, hash_to_pipe(k, np)), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), np);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_suppressed"), np);
	got += poll_any(&t, 0, 64);
	EXPECT_EQ(got, np);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_prefetches"), np - 1);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2 * np - 1);
	t.ops->refill(t.m, 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notif_drops"), 0);
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notifs"), 2 * np);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notif_drops"), np - 1);
	/* The driver reads the full ring and writes the head: no retry. */
	got += poll_any(&t, 0, 64);
	EXPECT(rxb_env_doorbells_pending(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notif_retries"), 0);
	/* The NIC serves the write: the 63 dropped, sent again. */
	EXPECT(rxb_th_nic_run(&t));
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notif_retries"), np - 1);
	for (i = 0; i < 1000; i++) {
		n = poll_any(&t, 0, 64);
		got += n;
		rxb_th_nic_run(&t);
		t.ops->refill(t.m, 0);
		if (!n && !rxb_th_nic_run(&t) && !t.ops->rx_pending(t.m, 0))
			break;
	}
	EXPECT_EQ(got, seq);
	EXPECT_EQ(QSTAT(&t, 0, packets), seq);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_notif_retries"),
		  rxb_th_xstat(&t, "rx0_notif_drops"));
	ktap_diag("%llu notifications dropped and sent again",
		  (unsigned long long)rxb_th_xstat(&t, "rx0_notif_drops"));
out:
	rxb_th_destroy(&t);
}

/* ---- multi-threaded: many pipes on 2 queues ------------------------------ */

#define MT_PRODUCERS	2
#define MT_QUEUES	2

struct mt {
	struct rxb_th th;
	unsigned int npipes;
	u64 frames;			/* per producer */
	u8 *state[MT_PRODUCERS];	/* per frame: 1 dropped, 2 received */
	u64 *last[MT_QUEUES];		/* per producer x pipe: next seq min */
	u64 drops, received;		/* atomic */
	int stop;			/* atomic */
	int producers_done;		/* atomic */
};

struct mt_thr {
	struct mt *mt;
	unsigned int i;
};

static u32 mt_hash(unsigned int p, u64 seq)
{
	return (u32)rxb_mix64((u64)p << 48 ^ seq);
}

static void *mt_producer(void *arg)
{
	struct mt_thr *thr = arg;
	struct mt *mt = thr->mt;
	u8 buf[RXB_ENV_BUF_SIZE];
	u64 seq;

	for (seq = 0; seq < mt->frames; seq++) {
		u32 hash = mt_hash(thr->i, seq);
		unsigned int q = hash & 1;
		struct rxb_tframe_id id = { .producer = thr->i, .q = q,
					    .seq = seq };
		struct rxb_frame f = {
			.data = buf, .len = 60 + hash % 900, .hash = hash,
			.hash_flags = RXB_CQE_F_L4_HASH,
		};
		int ret;

		rxb_tframe_fill(buf, f.len, &id);
		ret = rxb_th_hw_rx(&mt->th, q, &f);
		if (ret == -ENOSPC) {
			mt->state[thr->i][seq] = 1;
			__atomic_add_fetch(&mt->drops, 1, __ATOMIC_RELAXED);
			sched_yield();
		} else {
			EXPECT_EQ(ret, 0);
		}
	}
	return NULL;
}

static void mt_consume(struct mt *mt, unsigned int q, const struct rxb_pkt *p)
{
	const void *d = rxb_env_pkt_take(mt->th.env, q, p);
	struct rxb_tframe_id id;
	unsigned int pipe;
	u64 *last;

	if (!EXPECT(d && rxb_tframe_check(d, p->len, &id), "q %u: bad frame", q))
		return;
	pipe = pipe_of(p->hash, mt->npipes);
	if (!EXPECT(id.producer < MT_PRODUCERS && id.q == q &&
		    id.seq < mt->frames && p->hash == mt_hash(id.producer, id.seq),
		    "q %u: frame p%u q%u", q, id.producer, id.q))
		return;
	last = &mt->last[q][id.producer * mt->npipes + pipe];
	EXPECT(id.seq >= *last, "q %u pipe %u: p%u seq %llu after %llu", q,
	       pipe, id.producer, (unsigned long long)id.seq,
	       (unsigned long long)*last);
	*last = id.seq + 1;
	EXPECT(mt->state[id.producer][id.seq] == 0, "p%u seq %llu twice",
	       id.producer, (unsigned long long)id.seq);
	mt->state[id.producer][id.seq] = 2;
	__atomic_add_fetch(&mt->received, 1, __ATOMIC_RELAXED);
}

/* Poll queue @q once, up to 16, consume, give back at a short poll. */
static int mt_poll(struct mt *mt, unsigned int q)
{
	const struct rxb_model_ops *ops = mt->th.ops;
	struct rxb_pkt pkts[16];
	int n, i;

	n = rxb_model_poll(mt->th.m, q, pkts, 16);
	for (i = 0; i < n; i++)
		mt_consume(mt, q, &pkts[i]);
	if (n < 16)
		ops->refill(mt->th.m, q);
	return n;
}

/*
 * NAPI-like: poll until short, give back (refill), wait for the vector.
 * Once the producers are done, drain until the NIC, whose thread serves
 * the register writes the polls posted, is idle and a poll after that
 * finds nothing: the last Head_SW writes may still have it notify data.
 */
static void *mt_consumer(void *arg)
{
	struct mt_thr *thr = arg;
	struct mt *mt = thr->mt;
	const struct rxb_model_ops *ops = mt->th.ops;
	unsigned int q = thr->i;

	for (;;) {
		u64 seen = rxb_env_irqs(mt->th.env, q);

		if (mt_poll(mt, q) == 16)
			continue;
		if (ops->rx_pending(mt->th.m, q))
			continue;
		if (__atomic_load_n(&mt->producers_done, __ATOMIC_ACQUIRE))
			break;
		rxb_env_wait_irq(mt->th.env, q, seen, &mt->stop);
	}
	for (;;) {
		while (mt_poll(mt, q))
			;
		if (!rxb_env_nic_idle(mt->th.env))
			sched_yield();
		else if (!mt_poll(mt, q) && !ops->rx_pending(mt->th.m, q))
			break;
	}
	return NULL;
}

/* The summary line (the string alone on its line: checkpatch lets it run long). */
#define MT_FMT \
	"%u pipes/queue, prefetch %d: %llu frames, %llu pipe-full drops, q0: %llu notifs (%llu dropped, %llu resent), %llu suppressed"

struct mt_case {
	const char *name;
	unsigned int npipes;
	bool prefetch;
};

static void test_mt(const void *arg)
{
	const struct mt_case *c = arg;
	struct mt_thr pt[MT_PRODUCERS], ct[MT_QUEUES];
	pthread_t pth[MT_PRODUCERS], cth[MT_QUEUES];
	unsigned int i, ring = c->npipes < 64 ? 64 : c->npipes;
	u64 seq, lost = 0, ndrops = 0;
	struct mt *mt = calloc(1, sizeof(*mt));

	if (!mt)
		abort();
	mt->npipes = c->npipes;
	mt->frames = rxb_stress_frames(2000000) / 40;
	if (!rxb_th_init(&mt->th, "enso", MT_QUEUES, ring, RXB_ENV_BUF_SIZE))
		goto out;
	mt->th.cfg.enso_pipes = c->npipes;
	mt->th.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN;
	mt->th.cfg.enso_prefetch = c->prefetch;
	if (!rxb_th_start(&mt->th))
		goto out;
	/* The NIC's doorbell service between frames, as its idle engine. */
	rxb_env_timer_start(mt->th.env);
	for (i = 0; i < MT_PRODUCERS; i++)
		mt->state[i] = calloc(mt->frames, 1);
	for (i = 0; i < MT_QUEUES; i++)
		mt->last[i] = calloc(MT_PRODUCERS * c->npipes, sizeof(u64));
	for (i = 0; i < MT_QUEUES; i++) {
		ct[i] = (struct mt_thr){ mt, i };
		pthread_create(&cth[i], NULL, mt_consumer, &ct[i]);
	}
	for (i = 0; i < MT_PRODUCERS; i++) {
		pt[i] = (struct mt_thr){ mt, i };
		pthread_create(&pth[i], NULL, mt_producer, &pt[i]);
	}
	for (i = 0; i < MT_PRODUCERS; i++)
		pthread_join(pth[i], NULL);
	__atomic_store_n(&mt->producers_done, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&mt->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < MT_QUEUES; i++)
		pthread_join(cth[i], NULL);
	/* Every byte notified: each frame dropped or received, none lost. */
	for (i = 0; i < MT_PRODUCERS; i++)
		for (seq = 0; seq < mt->frames; seq++)
			lost += !mt->state[i][seq];
	EXPECT_EQ(lost, 0);
	for (i = 0; i < MT_QUEUES; i++) {
		struct rxb_qstats st;

		rxb_th_qstats(&mt->th, i, &st);
		ndrops += st.ring_full_drops;
		EXPECT_EQ(st.hw_packets, st.packets);
	}
	EXPECT_EQ(ndrops, mt->drops);
	EXPECT_EQ(mt->received + mt->drops, MT_PRODUCERS * mt->frames);
	if (c->prefetch && c->npipes > 1)
		EXPECT(rxb_th_xstat(&mt->th, "rx0_prefetches"), "no prefetch");
	else
		EXPECT_EQ(rxb_th_xstat(&mt->th, "rx0_prefetches"), 0);
	ktap_diag(MT_FMT, c->npipes, c->prefetch,
		  (unsigned long long)(MT_PRODUCERS * mt->frames),
		  (unsigned long long)mt->drops,
		  (unsigned long long)rxb_th_xstat(&mt->th, "rx0_notifs"),
		  (unsigned long long)rxb_th_xstat(&mt->th, "rx0_notif_drops"),
		  (unsigned long long)rxb_th_xstat(&mt->th, "rx0_notif_retries"),
		  (unsigned long long)rxb_th_xstat(&mt->th, "rx0_suppressed"));
out:
	rxb_th_destroy(&mt->th);
	for (i = 0; i < MT_PRODUCERS; i++)
		free(mt->state[i]);
	for (i = 0; i < MT_QUEUES; i++)
		free(mt->last[i]);
	free(mt);
}

static const struct mt_case mt_cases[] = {
	{ "mt_1pipe", 1, false }, { "mt_1pipe_prefetch", 1, true },
	{ "mt_2pipes", 2, false }, { "mt_2pipes_prefetch", 2, true },
	{ "mt_32pipes", 32, false }, { "mt_32pipes_prefetch", 32, true },
	{ "mt_64pipes", 64, false }, { "mt_64pipes_prefetch", 64, true },
	{ "mt_512pipes", 512, false }, { "mt_512pipes_prefetch", 512, true },
};

/* Send a frame of flow table entry @flow with @hash to queue @q, poll it
 * back; the pipe (index over all queues' pipes) it came through, or -1.
 */
static int flow_pipe(struct rxb_th *t, unsigned int q, u32 flow, u32 hash)
{
	struct rxb_frame f = {
		.data = frame, .len = 100, .hash = hash, .flow = flow,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};
	struct rxb_pkt pkt;
	int ret = -1;

	memset(frame, 0, f.len);
	if (!EXPECT_EQ(rxb_th_hw_rx(t, q, &f), 0))
		return -1;
	while (rxb_model_poll(t->m, q, &pkt, 1) == 1 || rxb_th_nic_run(t))
		ret = rxb_env_ring_index(t->env, rxb_env_pkt_take(t->env, q,
								  &pkt));
	t->ops->refill(t->m, q);
	return ret;
}

/*
 * Steering through the NIC's flow table: a new flow goes to its queue's
 * pipe with the fewest live flows (ties: the hash's pipe) and stays there
 * while its entry lives, whatever its hash; a freed entry frees its pipe's
 * share; a flow moved to another queue (an ntuple rule) is bound again
 * there; frames the table does not track go where the hash says.
 */
static void test_steer(const void *arg __always_unused)
{
	const unsigned int np = 4;
	struct rxb_th t;
	unsigned int i;

	if (!rxb_th_init(&t, "enso", 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipes = np;
	t.cfg.enso_pipe_size = RXB_ENSO_PIPE_MIN;
	t.cfg.flow_table_size = 16;
	if (!rxb_th_start(&t))
		goto out;
	/* Four flows, one hash: one flow per pipe of queue 0. */
	for (i = 0; i < np; i++)
		EXPECT_EQ(flow_pipe(&t, 0, i, hash_to_pipe(0, np)), i);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_flow_binds"), np);
	/* Each stays on its pipe, whatever the hash says now. */
	for (i = 0; i < 3 * np; i++)
		EXPECT_EQ(flow_pipe(&t, 0, i % np, hash_to_pipe(i % 3, np)),
			  i % np);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_flow_binds"), np);
	/* Entry 1 freed and reused: the new flow takes the free pipe 1. */
	rxb_env_flow_free(t.env, 1);
	EXPECT_EQ(flow_pipe(&t, 0, 1, hash_to_pipe(3, np)), 1);
	/* Not tracked: the hash's pipe. */
	EXPECT_EQ(flow_pipe(&t, 0, RXB_FLOW_NONE, hash_to_pipe(2, np)), 2);
	EXPECT_EQ(flow_pipe(&t, 0, RXB_FLOW_NONE, hash_to_pipe(3, np)), 3);
	/* Flow 2 steered to queue 1: bound there, and it stays. */
	EXPECT_EQ(flow_pipe(&t, 1, 2, hash_to_pipe(1, np)), np + 1);
	EXPECT_EQ(rxb_th_xstat(&t, "rx1_flow_moves"), 1);
	EXPECT_EQ(flow_pipe(&t, 1, 2, hash_to_pipe(3, np)), np + 1);
	/* Its old pipe is free again: a new flow on queue 0 takes it. */
	EXPECT_EQ(flow_pipe(&t, 0, 9, hash_to_pipe(0, np)), 2);
	EXPECT_EQ(rxb_th_xstat(&t, "rx1_flow_moves"), 1);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_flow_moves"), 0);
out:
	rxb_th_destroy(&t);
}

/* Bad configurations the core refuses. */
static void test_bad_cfg(const void *arg __always_unused)
{
	static const struct { unsigned int pipes, size, ring, nq, flows; } bad[] = {
		{ 0, 4096, 64, 2, 0 }, { 3, 4096, 64, 2, 0 },
		{ 1024, 4096, 1024, 1, 0 }, { 512, 4096, 512, 4, 0 },
		{ 1, 6000, 64, 2, 0 }, { 1, 2048, 64, 2, 0 },
		{ 1, 4U << 20, 64, 2, 0 }, { 128, 4096, 64, 2, 0 },
		/* more pipes than the flow table holds */
		{ 16, 4096, 64, 2, 16 }, { 64, 4096, 64, 1, 32 },
	};
	struct rxb_env *env = rxb_env_create(4, 0);
	const struct rxb_model_ops *ops = rxb_model_find("enso");
	struct rxb_drv_ops drv_ops = rxb_env_test_drv_ops;
	struct rxb_hw_ops hw_ops = rxb_env_test_hw_ops;
	struct rxb_model_cfg cfg;
	struct rxb_hw_model *hw;
	struct rxb_model *m;
	unsigned int i;
	const char *msg;
	void *bar;
	int err;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rxb_env_model_cfg(env, &cfg, bad[i].nq, bad[i].ring,
				  RXB_ENV_BUF_SIZE);
		cfg.enso_pipes = bad[i].pipes;
		cfg.enso_pipe_size = bad[i].size;
		cfg.flow_table_size = bad[i].flows;
		msg = NULL;
		EXPECT(rxb_model_validate(ops, &cfg, &msg) == -EINVAL && msg,
		       "case %u accepted", i);
		err = rxb_env_models_create(env, ops, &cfg, &rxb_env_test_drv_ops,
					    &rxb_env_test_hw_ops, &m, &hw, &bar);
		if (!EXPECT_EQ(err, -EINVAL))
			rxb_env_models_destroy(env, m, hw, bar);
	}
	/* Neither half works without the rings of a streaming model: the
	 * driver's double mapping of pipes, the NIC's DMA into them.
	 */
	rxb_env_model_cfg(env, &cfg, 2, 64, RXB_ENV_BUF_SIZE);
	drv_ops.ring = NULL;
	err = rxb_env_models_create(env, ops, &cfg, &drv_ops,
				    &rxb_env_test_hw_ops, &m, &hw, &bar);
	if (!EXPECT_EQ(err, -EINVAL))
		rxb_env_models_destroy(env, m, hw, bar);
	hw_ops.ring = NULL;
	err = rxb_env_models_create(env, ops, &cfg, &rxb_env_test_drv_ops,
				    &hw_ops, &m, &hw, &bar);
	if (!EXPECT_EQ(err, -EINVAL))
		rxb_env_models_destroy(env, m, hw, bar);
	EXPECT_EQ(rxb_env_qstats(env, 0).alloc_calls, 0);
	rxb_env_destroy(env);
}

int main(void)
{
	struct ktap_case cases[9 + ARRAY_SIZE(mt_cases)] = {
		{ "fig5", test_fig5, NULL },
		{ "posted_head", test_posted_head, NULL },
		{ "posted_prefetch", test_posted_prefetch, NULL },
		{ "notif_full", test_notif_full, NULL },
		{ "wrap", test_wrap, NULL },
		{ "pipe_full", test_pipe_full, NULL },
		{ "bad_cfg", test_bad_cfg, NULL },
		{ "steer", test_steer, NULL },
		{ "chaotic", test_chaotic, NULL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mt_cases); i++)
		cases[9 + i] = (struct ktap_case){ mt_cases[i].name, test_mt,
						   &mt_cases[i] };
	return ktap_main(cases, ARRAY_SIZE(cases));
}
