// SPDX-License-Identifier: GPL-2.0
/*
 * Model-independent tests, run for every ring-model variant in variants[]:
 * invalid configurations, -ENOMEM unwinding in create, a single-threaded
 * round trip, ring_state() against hw_debug(), and the multi-threaded
 * stress test (stress.c) in several shapes.
 *
 * To cover a new model, add it (and variants of its configuration) to
 * variants[].  Each case is reported as "<variant>:<test>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_wss.h>

#include "env.h"
#include "ktap.h"
#include "shim/shim.h"
#include "stress.h"

static void tune_rxbisect_small_ax(struct rxb_model_cfg *cfg)
{
	/* Small Ax rings: queues borrow buffers from each other all the time. */
	cfg->ax_ring_size = RXB_RING_MIN;
	cfg->ax_policy = RXB_AX_MOST;
	cfg->ax_assoc = 2;
	cfg->notif_compress = true;
	cfg->notif_timeout_ns = 20000;
}

static void tune_share2(struct rxb_model_cfg *cfg)
{
	/* Two queues per shared ring; with three queues the last is alone. */
	cfg->share_factor = 2;
}

static void tune_dshring_flappy(struct rxb_model_cfg *cfg)
{
	/*
	 * Thresholds every sample passes and a hair-trigger overload test:
	 * the controller switches ring sets back and forth under traffic,
	 * so queues drain one set while the NIC fills the other.
	 */
	cfg->dsh_period_ns = 1000000;
	cfg->dsh_window = 8;
	cfg->dsh_tput_mbps = 1;
	cfg->cache_bytes = 1;
	cfg->dsh_overload_ratio = 2;
}

static void tune_corec_c2(struct rxb_model_cfg *cfg)
{
	/* Two consumers per shared queue; with three queues the last is alone. */
	cfg->corec_consumers = 2;
}

static void tune_corec_c1(struct rxb_model_cfg *cfg)
{
	cfg->corec_consumers = 1;
}

static void tune_corec_irq_all(struct rxb_model_cfg *cfg)
{
	cfg->corec_irq_policy = RXB_COREC_IRQ_ALL;
}

static const struct variant {
	const char *name;
	const char *model;
	void (*tune)(struct rxb_model_cfg *cfg);
} variants[] = {
	{ "privring", "privring", NULL },
	{ "rxbisect", "rxbisect", NULL },
	{ "rxbisect_small_ax", "rxbisect", tune_rxbisect_small_ax },
	{ "shring", "shring", NULL },
	{ "shring_sf2", "shring", tune_share2 },
	{ "shring_list", "shring-list", NULL },
	{ "shring_list_sf2", "shring-list", tune_share2 },
	{ "shring_batched", "shring-batched", NULL },
	{ "shring_batched_sf2", "shring-batched", tune_share2 },
	{ "dshring", "dshring", NULL },
	{ "dshring_flappy", "dshring", tune_dshring_flappy },
	{ "corec", "corec", NULL },
	{ "corec_c2", "corec", tune_corec_c2 },
	{ "corec_c1", "corec", tune_corec_c1 },
	{ "corec_irq_all", "corec", tune_corec_irq_all },
	/* One pipe per queue: the stress checks order per queue, which
	 * Ensō keeps per pipe only (several pipes: test_enso.c).
	 */
	{ "enso", "enso", NULL },
};

/*
 * Models whose cores the generic cases cannot check, with the file that
 * does: CEIO hands up slow-path packets without a checksum (the checksum
 * unit is on the host DMA path) and keeps order per flow across two
 * producers, not per completion ring.
 */
static const struct {
	const char *model, *tested_in;
} own_tests[] = {
	{ "ceio", "test_ceio.c" },
};

/*
 * Queues polling one completion ring (struct rxb_stress_cfg.cr_share):
 * COREC's consumers share one; every other model's queue has its own.
 */
static unsigned int variant_cr_share(const struct variant *v)
{
	struct rxb_model_cfg cfg = { 0 };

	if (strcmp(v->model, "corec"))
		return 0;
	if (v->tune)
		v->tune(&cfg);
	return cfg.corec_consumers ?: ~0U;	/* 0: all queues */
}

/* Stress shapes; each gets @share percent of RXB_STRESS_FRAMES. */
static const struct stress_shape {
	const char *name;
	unsigned int share;
	struct rxb_stress_cfg cfg;
} shapes[] = {
	{ "stress_1nic_2q", 20, {
		.nqueues = 2, .ring_size = 64, .nproducers = 1, .budget = 64,
	} },
	{ "stress_2nic_2q", 30, {
		.nqueues = 2, .ring_size = 64, .nproducers = 2, .budget = 16,
		.oversize_one_in = 1000,
	} },
	{ "stress_2nic_3q_allocfail", 20, {
		.nqueues = 3, .ring_size = 128, .nproducers = 2, .budget = 7,
		.alloc_fail_one_in = 257, .oversize_one_in = 500,
		.buf_len = 1500,
	} },
	{ "stress_2nic_4q_skewed", 15, {
		.nqueues = 4, .ring_size = 256, .nproducers = 2, .budget = 32,
		.skew = 70,
	} },
	{ "stress_2nic_4q_flood_nocsum", 15, {
		.nqueues = 4, .ring_size = 256, .nproducers = 2, .budget = 64,
		.no_backoff = true, .max_len = 256, .no_csum = true,
	} },
	/* Issue 7: buffer and DMA faults; no buffer lost or freed twice. */
	{ "stress_2nic_3q_faults", 10, {
		.nqueues = 3, .ring_size = 64, .nproducers = 2, .budget = 16,
		.alloc_fail_one_in = 31, .dma_fail_one_in = 43,
	} },
};

#define DEFAULT_STRESS_FRAMES	2000000

struct model_case {
	const char *model;
	const struct variant *v;
	const struct stress_shape *shape;
	char name[96];
};

/* Harness with the case's model variant; false (failure recorded) if not. */
static bool mc_create(struct rxb_th *t, const struct model_case *mc,
		      unsigned int nq, unsigned int ring, unsigned int buf_len)
{
	if (!rxb_th_init(t, mc->model, nq, ring, buf_len))
		return false;
	if (mc->v->tune)
		mc->v->tune(&t->cfg);
	return rxb_th_start(t);
}

static void test_invalid_cfg(const void *arg)
{
	static const struct { unsigned int nq, ring, buf_len; } bad[] = {
		{ 2, 0, 2048 }, { 2, 63, 2048 }, { 2, 100, 2048 },
		{ 2, 16384, 2048 }, { 2, RXB_RING_MIN / 2, 2048 },
		{ 2, RXB_RING_MAX * 2, 2048 }, { 0, 64, 2048 }, { 2, 64, 0 },
	};
	const struct model_case *mc = arg;
	const struct rxb_model_ops *ops = rxb_model_find(mc->model);
	struct rxb_model_cfg cfg;
	struct rxb_hw_model *hw;
	struct rxb_env *env;
	struct rxb_model *m;
	unsigned int i;
	void *bar;
	int err;

	if (!EXPECT(ops, "model %s not registered", mc->model))
		return;
	env = rxb_env_create(2, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rxb_env_model_cfg(env, &cfg, bad[i].nq, bad[i].ring, bad[i].buf_len);
		if (mc->v->tune)
			mc->v->tune(&cfg);
		err = rxb_env_models_create(env, ops, &cfg, &rxb_env_test_drv_ops,
					    &rxb_env_test_hw_ops, &m, &hw, &bar);
		if (!EXPECT_EQ(err, -EINVAL))
			rxb_env_models_destroy(env, m, hw, bar);
	}
	EXPECT_EQ(rxb_env_qstats(env, 0).alloc_calls, 0);
	rxb_env_destroy(env);

	EXPECT(!rxb_model_find("no-such-model"));
	EXPECT(!rxb_model_find(""));
	EXPECT(rxb_model_find(mc->model) == ops);
	/* A trailing newline (from sysfs) is ignored. */
	{
		char nl[64];

		snprintf(nl, sizeof(nl), "%s\n", mc->model);
		EXPECT(rxb_model_find(nl) == ops);
	}
	EXPECT(!strcmp(ops->name, mc->model));
}

/* Every kmalloc failure in create unwinds without a leak. */
static void test_create_enomem(const void *arg)
{
	const struct model_case *mc = arg;
	struct rxb_th t;
	long k;

	if (!rxb_th_init(&t, mc->model, 3, 64, 2048))
		return;
	if (mc->v->tune)
		mc->v->tune(&t.cfg);
	for (k = 0; k < 1000; k++) {
		long live = __atomic_load_n(&rxb_shim_live_allocs, __ATOMIC_RELAXED);
		struct rxb_hw_model *hw;
		struct rxb_model *m;
		void *bar;
		int err;

		__atomic_store_n(&rxb_shim_alloc_fail_after, k, __ATOMIC_RELAXED);
		err = rxb_env_models_create(t.env, t.ops, &t.cfg, t.drv_ops,
					    t.hw_ops, &m, &hw, &bar);
		__atomic_store_n(&rxb_shim_alloc_fail_after, -1, __ATOMIC_RELAXED);
		if (!err) {
			rxb_env_models_destroy(t.env, m, hw, bar);
			EXPECT(k > 0, "create succeeded without any allocation");
			break;
		}
		EXPECT_EQ(err, -ENOMEM);
		EXPECT_EQ(__atomic_load_n(&rxb_shim_live_allocs, __ATOMIC_RELAXED), live);
		EXPECT_EQ(rxb_env_outstanding(t.env, -1), 0);
	}
	ktap_diag("%s: create makes %ld allocations", mc->model, k);
	EXPECT(k < 1000, "create never succeeded");
	rxb_th_destroy(&t);
}

/* Length of test frame @seq. */
static unsigned int frame_len(u64 seq)
{
	return 60 + seq % 1400;
}

/* Deliver test frame @seq to queue @q; the NIC's verdict (hw_rx). */
static int send_frame(struct rxb_th *t, unsigned int q, u64 seq)
{
	static u8 frame[RXB_ENV_BUF_SIZE];
	struct rxb_tframe_id id = { .producer = 7, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = frame, .len = frame_len(seq),
		.hash = (u32)seq * 2654435761u, .hash_flags = RXB_CQE_F_L4_HASH,
		.ts = rxb_mix64(seq),	/* the timestamp unit's stamp */
	};

	rxb_tframe_fill(frame, f.len, &id);
	return rxb_th_hw_rx(t, q, &f);
}

/*
 * Single-threaded: send to queue @q until the first drop, then poll it all
 * back; everything arrives once, in order, intact; counters agree.
 * Return the number of frames accepted.
 */
static u64 fill_and_drain(struct rxb_th *t, unsigned int q, unsigned int limit)
{
	const struct rxb_model_ops *ops = t->ops;
	struct rxb_qstats qst, *st = &qst;
	u64 base, sent = 0, got = 0, bytes = 0, bytes0, drops0;
	struct rxb_pkt pkts[16];
	int ret = 0, n, idle;

	rxb_th_qstats(t, q, st);
	base = st->hw_packets;
	bytes0 = st->hw_bytes;
	drops0 = st->nobuf_drops + st->ring_full_drops;
	EXPECT(!ops->rx_pending(t->m, q));
	while (sent < limit) {
		ret = send_frame(t, q, base + sent);
		if (ret)
			break;
		bytes += frame_len(base + sent);
		sent++;
	}
	EXPECT(ret == -ENOBUFS || ret == -ENOSPC, "q %u: drop cause %d", q, ret);
	EXPECT(sent >= 1, "q %u: nothing accepted", q);
	EXPECT(rxb_env_irqs(t->env, q) > 0);
	EXPECT(ops->rx_pending(t->m, q));
	/*
	 * Until a poll finds nothing and the NIC had nothing left to act on:
	 * the driver's register writes are posted, and what the NIC does for
	 * one (an Ensō notification of the data beyond a Head_SW write) is
	 * seen only after its doorbell service ran.
	 */
	for (idle = 0; idle < 1000; ) {
		int i;

		n = rxb_model_poll(t->m, q, pkts, ARRAY_SIZE(pkts));
		if (!n) {
			if (!rxb_th_nic_run(t) && !ops->rx_pending(t->m, q))
				break;
			idle++;
			continue;
		}
		EXPECT(n > 0 && n <= (int)ARRAY_SIZE(pkts));
		for (i = 0; i < n; i++) {
			u64 seq = base + got;
			struct rxb_tframe_id id;
			void *data = rxb_env_pkt_take(t->env, q, &pkts[i]);

			got++;
			if (!data)
				continue;
			if (EXPECT(rxb_tframe_check(data, pkts[i].len, &id))) {
				EXPECT_EQ(id.q, q);
				EXPECT_EQ(id.seq, seq);
				EXPECT_EQ(pkts[i].len, frame_len(seq));
				EXPECT_EQ(pkts[i].hash, (u32)seq * 2654435761u);
				/* The stamp, with stamp rings; else none. */
				EXPECT_EQ(pkts[i].ts, t->cfg.rx_tstamp ?
						      rxb_mix64(seq) : 0);
				EXPECT_EQ(pkts[i].flags, RXB_CQE_F_L4_HASH | RXB_CQE_F_CSUM);
				EXPECT_EQ(pkts[i].csum, rxb_env_csum(data, pkts[i].len));
			}
			rxb_env_pkt_put(t->env, pkts[i].cookie);
		}
	}
	EXPECT(idle < 1000, "q %u: still pending after 1000 empty polls", q);
	EXPECT_EQ(n, 0);
	EXPECT_EQ(got, sent);
	EXPECT(!ops->rx_pending(t->m, q));
	rxb_th_qstats(t, q, st);
	EXPECT_EQ(READ_ONCE(st->hw_packets), base + sent);
	EXPECT_EQ(READ_ONCE(st->hw_bytes), bytes0 + bytes);
	EXPECT_EQ(READ_ONCE(st->packets), base + got);
	EXPECT_EQ(READ_ONCE(st->nobuf_drops) + READ_ONCE(st->ring_full_drops),
		  drops0 + 1);
	EXPECT_EQ(rxb_env_held(t->env, -1), 0);
	return sent;
}

/*
 * Let every queue catch up: poll them all and fire the NIC's timer until
 * nothing is pending (no packet may turn up: they were all polled).
 */
static void settle(struct rxb_th *t)
{
	struct rxb_pkt pkts[16];
	unsigned int q, i;
	bool busy = true;
	int n;

	for (i = 0; busy && i < 1000; i++) {
		busy = rxb_env_run_timer(t->env);
		busy |= rxb_th_nic_run(t);
		for (q = 0; q < t->cfg.nqueues; q++) {
			n = rxb_model_poll(t->m, q, pkts, ARRAY_SIZE(pkts));
			if (!EXPECT_EQ(n, 0))
				return;
			busy |= t->ops->rx_pending(t->m, q);
		}
	}
	EXPECT(!busy, "queues still busy after 1000 rounds");
}

static void test_roundtrip(const void *arg)
{
	const struct model_case *mc = arg;
	const unsigned int nq = 2, ring = 64;
	u64 first[2] = { 0 };
	unsigned int q, round;
	struct rxb_th t;

	if (!mc_create(&t, mc, nq, ring, RXB_ENV_BUF_SIZE))
		goto out;
	/*
	 * After a full drain a queue takes as many frames as the first time:
	 * the driver gave the NIC back its buffers and completion entries.
	 */
	for (round = 0; round < 3 && !ktap_failures(); round++) {
		for (q = 0; q < nq; q++) {
			u64 n;

			settle(&t);
			n = fill_and_drain(&t, q, 4 * ring);

			/* A pipe holds bytes, not a number of frames. */
			if (!round)
				first[q] = n;
			else if (!t.ops->stream)
				EXPECT_EQ(n, first[q]);
		}
	}
out:
	rxb_th_destroy(&t);
}

/*
 * Receive stamps (rxb_desc.h, RXB_TSTAMP) cost nothing while off and
 * exactly RXB_TSTAMP_LEN bytes of metadata per frame while on, whatever
 * the model: the same stamped frames through a queue of rings built
 * without stamp rings and with them; every other bus count is equal, and
 * without them the driver gets no stamp (fill_and_drain()).
 */
static void test_tstamp(const void *arg)
{
	const struct model_case *mc = arg;
	u64 sent[2], bus[2][RXB_ENV_PCIE_KINDS + 1];
	unsigned int on, k;
	struct rxb_th t = { 0 };

	for (on = 0; on < 2; on++) {
		if (!rxb_th_init(&t, mc->model, 2, 64, RXB_ENV_BUF_SIZE))
			goto out;
		if (mc->v->tune)
			mc->v->tune(&t.cfg);
		t.cfg.rx_tstamp = on;
		if (!rxb_th_start(&t))
			goto out;
		settle(&t);
		for (k = 0; k <= RXB_ENV_PCIE_KINDS; k++)
			bus[on][k] = rxb_env_pcie(t.env, k);
		sent[on] = fill_and_drain(&t, 0, 4 * 64);
		for (k = 0; k <= RXB_ENV_PCIE_KINDS; k++)
			bus[on][k] = rxb_env_pcie(t.env, k) - bus[on][k];
		rxb_th_destroy(&t);
	}
	EXPECT_EQ(sent[1], sent[0]);
	EXPECT_EQ(bus[1][RXB_PCIE_META_WR] - bus[0][RXB_PCIE_META_WR],
		  RXB_TSTAMP_LEN * sent[1]);
	for (k = 0; k <= RXB_ENV_PCIE_KINDS; k++)
		if (k != RXB_PCIE_META_WR)
			EXPECT_EQ(bus[1][k], bus[0][k]);
	ktap_diag("%s: %llu frames, %llu and %llu metadata bytes", mc->name,
		  (unsigned long long)sent[1],
		  (unsigned long long)bus[0][RXB_PCIE_META_WR],
		  (unsigned long long)bus[1][RXB_PCIE_META_WR]);
	return;
out:
	rxb_th_destroy(&t);
}

/* Poll up to @budget packets of queue @q and give them back; how many. */
static int poll_put(struct rxb_th *t, unsigned int q, int budget)
{
	struct rxb_pkt pkts[16];
	int n, i;

	if (budget > (int)ARRAY_SIZE(pkts))
		budget = ARRAY_SIZE(pkts);
	n = rxb_model_poll(t->m, q, pkts, budget);
	for (i = 0; i < n; i++) {
		rxb_env_pkt_take(t->env, q, &pkts[i]);
		rxb_env_pkt_put(t->env, pkts[i].cookie);
	}
	return n;
}

/*
 * Poll queue @q empty, the NIC's doorbell service run between polls (what
 * it does for the polls' register writes may bring packets); how many.
 */
static u64 drain_queue(struct rxb_th *t, unsigned int q)
{
	unsigned int i;
	u64 got = 0;
	int n;

	for (i = 0; i < 1000; i++) {
		n = poll_put(t, q, 16);
		got += n;
		if (!n && !rxb_th_nic_run(t) && !t->ops->rx_pending(t->m, q))
			return got;
	}
	EXPECT(false, "q %u: still pending after 1000 polls", q);
	return got;
}

/*
 * The I/O working set under steady traffic, against what each design
 * predicts (Documentation/rxbisect.rst, "I/O working set": the table and
 * its derivation).  WS_NQ queues of WS_RING entries; WS_LEN-byte frames
 * round robin over the queues (RSS spreading flows evenly), one every
 * 250 ns on the test's clock (no idle timer fires); every queue polled
 * empty after each frame, so no queue falls behind and at most one packet
 * is out of the rings at a time.  The tracker's window, WS_WINDOW =
 * 4 * WS_NQ * WS_RING writes, spans at least two cycles of every ring
 * (privring 4, a shared ring 8 or 16, an Ensō pipe 8; shring-batched,
 * whose descriptors take WS_FRAGS frames each, 2 with two groups), so it
 * never cuts a cycle short, and after 3 windows of traffic the start-up
 * buffers have left it.  Single-threaded and flushed: the tracker is
 * exact (wss.c).
 */
#define WS_NQ		4
#define WS_RING		256
#define WS_LEN		512
#define WS_WINDOW	(4 * WS_NQ * WS_RING)
/* Frames per shRing-batched buffer: WS_LEN is a multiple of RXB_MCQE_ALIGN. */
#define WS_FRAGS	(RXB_ENV_BUF_SIZE / WS_LEN)
/*
 * Slack above the design's count: per queue, the buffers outside its
 * rings that the LIFO pool (page_pool's direct cache) rotates back into
 * them within a ring cycle: the packet handed up, returned after the
 * model refilled its slot (1), and the top of a refill stash taken from
 * the pool ahead of its slot (COREC's, 1).
 */
#define WS_SLACK_Q	2

/* Queues grouped @per to a ring: how many rings. */
static unsigned int ws_groups(unsigned int nq, unsigned int per)
{
	return per && per < nq ? DIV_ROUND_UP(nq, per) : 1;
}

static void test_ws_steady(const void *arg)
{
	const struct model_case *mc = arg;
	static u8 frame[WS_LEN];
	const struct rxb_model_cfg *c;
	struct rxb_wss w = { 0 };
	unsigned int q, i, busy_rounds;
	u64 drops = 0, want, bytes_lo, bytes_hi;
	const char *name, *unit = "buffers";
	struct rxb_th t;

	if (!EXPECT_EQ(rxb_wss_init(&w, WS_WINDOW), 0))
		return;
	if (!mc_create(&t, mc, WS_NQ, WS_RING, RXB_ENV_BUF_SIZE))
		goto out;
	rxb_env_wss(t.env, &w);
	for (i = 0; i < 3 * WS_WINDOW && !ktap_failures(); i++) {
		struct rxb_frame f = {
			.data = frame, .len = WS_LEN,
			.hash = i * 2654435761u, .hash_flags = RXB_CQE_F_L4_HASH,
		};
		bool busy = true;

		rxb_env_fake_clock(t.env, 1000000000ULL + 250ULL * i);
		if (rxb_th_hw_rx(&t, i % WS_NQ, &f))
			drops++;
		for (busy_rounds = 0; busy && busy_rounds < 1000; busy_rounds++) {
			busy = rxb_th_nic_run(&t);
			for (q = 0; q < WS_NQ; q++)
				busy |= poll_put(&t, q, 16) > 0;
		}
	}
	rxb_wss_flush(&w);
	rxb_env_wss(t.env, NULL);
	EXPECT_EQ(drops, 0);

	c = &t.cfg;
	name = t.ops->name;
	if (!strcmp(name, "rxbisect")) {
		/* k Ax rings (one per core) of |Ax| buffers */
		want = (u64)c->nqueues * c->ax_ring_size;
	} else if (!strncmp(name, "shring", 6)) {
		/* one ring of R per group of share_factor queues */
		want = (u64)ws_groups(c->nqueues, c->share_factor) * c->ring_size;
	} else if (!strcmp(name, "corec")) {
		/* one shared ring of R per group of corec_consumers queues */
		want = (u64)ws_groups(c->nqueues, c->corec_consumers) *
		       c->ring_size;
	} else if (!strcmp(name, "enso")) {
		/* pipes of bytes, no buffers: every byte of every pipe */
		unit = "pipe bytes";
		want = (u64)c->nqueues * c->enso_pipes * c->enso_pipe_size;
	} else {
		/* privring; dshring in its private set (no ctl_tick here) */
		want = (u64)c->nqueues * c->ring_size;
	}
	ktap_diag("%s: io_ws %u buffers (peak %u), %llu bytes in %u writes; design: %llu %s",
		  mc->v->name, w.distinct, w.peak, (unsigned long long)w.bytes,
		  w.window, (unsigned long long)want, unit);
	if (!strcmp(name, "enso")) {
		/*
		 * Every pipe byte is written within the window (each pipe
		 * wraps 8 times in it); a write is counted whole in the
		 * chunk it starts in, so each chunk may count up to one
		 * frame more.
		 */
		EXPECT_EQ(w.distinct, want / RXB_ENV_BUF_SIZE);
		bytes_lo = want;
		bytes_hi = want + want / RXB_ENV_BUF_SIZE * WS_LEN;
	} else {
		u64 per = WS_LEN;

		EXPECT(w.distinct >= want &&
		       w.distinct <= want + WS_SLACK_Q * c->nqueues,
		       "%s: %u buffers, want %llu..%llu", mc->v->name,
		       w.distinct, (unsigned long long)want,
		       (unsigned long long)(want + WS_SLACK_Q * c->nqueues));
		/* Batched: WS_FRAGS frames back to back per buffer, except
		 * in a queue's open descriptor (one per queue).
		 */
		if (!strcmp(name, "shring-batched"))
			per = WS_FRAGS * WS_LEN;
		bytes_hi = w.distinct * per;
		bytes_lo = bytes_hi - (per - WS_LEN) * c->nqueues;
	}
	EXPECT(w.bytes >= bytes_lo && w.bytes <= bytes_hi,
	       "%s: %llu bytes, want %llu..%llu", mc->v->name,
	       (unsigned long long)w.bytes, (unsigned long long)bytes_lo,
	       (unsigned long long)bytes_hi);
out:
	rxb_th_destroy(&t);
	rxb_wss_fini(&w);
}

/* ring_state() of queue @q, checked for what holds of any snapshot. */
static void ring_state(struct rxb_th *t, unsigned int q,
		       struct rxb_ring_state *st)
{
	memset(st, 0xa5, sizeof(*st));
	t->ops->ring_state(t->m, q, st);
	EXPECT_EQ(st->size, t->cfg.ring_size);
	/* 1 on the first pass through the ring, 0 on the second, ... */
	EXPECT_EQ(st->drv_gen, !((st->drv_tail / st->size) & 1));
}

/* The NIC's debug registers of queue @q, as the driver reads them. */
static void hw_debug(struct rxb_th *t, unsigned int q, struct rxb_hw_debug *d)
{
	memset(d, 0xa5, sizeof(*d));
	t->ops->nic_debug(t->m, q, d);
}

/*
 * The driver's view (ring_state) against the NIC's debug registers
 * (nic_debug), queue by queue, single-threaded: after N frames delivered
 * to a queue and K of them polled, the NIC's CR tail is N - K entries
 * ahead of the driver's head, which moved by K; each frame took one
 * posted descriptor (posted falls, taken rises, by one); once drained and
 * refilled the queue has as many posted as before.
 *
 * Exception: batched RxList (multi_pkt_bufs) takes a descriptor per batch,
 * not per frame, and keeps the current one open after the drain: there
 * posted falls exactly as taken rises, by at most one per frame.  Every
 * model writes one CR entry per frame here: RxList's idle timer and
 * rxBisect's borrowing (a notification entry on another queue's ring)
 * do not run in this test.
 */
static void test_debug_regs(const void *arg)
{
	const struct model_case *mc = arg;
	const unsigned int nq = 2, ring = 64, nsent = 40, npoll = 13;
	struct rxb_hw_debug d0, d;
	struct rxb_ring_state s0, s;
	unsigned int k, q, i;
	struct rxb_th t;
	bool batched;
	u64 seq = 0;

	if (!mc_create(&t, mc, nq, ring, RXB_ENV_BUF_SIZE))
		goto out;
	if (!EXPECT(t.ops->ring_state && t.ops->nic_debug,
		    "%s: no ring_state or nic_debug", t.ops->name))
		goto out;
	/* A streaming model writes one notification per batch of frames
	 * (Ensō's reactive notifications), not one entry per frame: its
	 * registers are checked in test_enso.c.
	 */
	if (t.ops->stream) {
		ktap_diag("%s: streaming model, see test_enso", t.ops->name);
		goto out;
	}
	batched = t.ops->multi_pkt_bufs;
	/* Two rounds: every completion ring wraps (the generation flips). */
	for (k = 0; k < 2 * nq && !ktap_failures(); k++) {
		q = k % nq;
		settle(&t);
		ring_state(&t, q, &s0);
		hw_debug(&t, q, &d0);
		EXPECT_EQ(d0.cq_tail, s0.drv_tail);
		/* What a queue's pool may hold, rxBisect's Ax ring at most. */
		EXPECT(d0.posted > 0 && d0.posted <= ring, "q %u: %u posted",
		       q, d0.posted);
		for (i = 1; i <= nsent; i++) {
			if (!EXPECT_EQ(send_frame(&t, q, seq++), 0))
				goto out;
			hw_debug(&t, q, &d);
			EXPECT_EQ(d.cq_tail - d0.cq_tail, i);
			EXPECT_EQ(d0.posted - d.posted, d.taken - d0.taken);
			if (batched)
				EXPECT(d.taken - d0.taken <= i, "q %u: %u frames took %u",
				       q, i, d.taken - d0.taken);
			else
				EXPECT_EQ(d.taken - d0.taken, i);
		}
		ring_state(&t, q, &s);
		EXPECT_EQ(s.drv_tail, s0.drv_tail);
		EXPECT_EQ(d.cq_tail - s.drv_tail, nsent);

		EXPECT_EQ(poll_put(&t, q, npoll), npoll);
		ring_state(&t, q, &s);
		hw_debug(&t, q, &d);
		EXPECT_EQ(s.drv_tail - s0.drv_tail, npoll);
		EXPECT_EQ(d.cq_tail - s.drv_tail, nsent - npoll);

		while (poll_put(&t, q, 16) > 0)
			;
		ring_state(&t, q, &s);
		hw_debug(&t, q, &d);
		EXPECT_EQ(s.drv_tail - s0.drv_tail, nsent);
		EXPECT_EQ(d.cq_tail, s.drv_tail);
		if (!batched)
			EXPECT_EQ(d.posted, d0.posted);
	}
out:
	rxb_th_destroy(&t);
}

/*
 * Posted doorbells (the boundary): the driver half's register writes mark
 * the register space and at most wake the NIC; the NIC acts on them only
 * when it runs.  Every NIC entry point checks that it runs in the NIC's
 * context (the environment fails a case otherwise), so a model whose
 * doorbell did the NIC's work in the driver's call fails here: traffic,
 * polls and refills, then the NIC's doorbell service, with no violation;
 * after a poll that consumed packets the writes are pending, the NIC's
 * service takes them.
 */
static void test_doorbells_posted(const void *arg)
{
	const struct model_case *mc = arg;
	long bad0 = rxb_pair_ctx_violations();
	struct rxb_pkt pkts[16];
	unsigned int q, i;
	struct rxb_th t;
	u64 seq = 0;
	int n;

	if (!mc_create(&t, mc, 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	EXPECT(!rxb_env_doorbells_pending(t.env),
	       "the create's register writes were not served");
	for (q = 0; q < 2 && !ktap_failures(); q++) {
		for (i = 0; i < 8; i++)
			EXPECT_EQ(send_frame(&t, q, seq++), 0);
		n = rxb_model_poll(t.m, q, pkts, ARRAY_SIZE(pkts));
		EXPECT(n > 0, "q %u: nothing polled", q);
		for (i = 0; i < (unsigned int)n; i++) {
			rxb_env_pkt_take(t.env, q, &pkts[i]);
			rxb_env_pkt_put(t.env, pkts[i].cookie);
		}
		t.ops->refill(t.m, q);
		/* The poll gave entries back and reposted buffers: writes the
		 * NIC has not seen yet.
		 */
		EXPECT(rxb_env_doorbells_pending(t.env),
		       "q %u: a poll wrote no register", q);
		EXPECT(rxb_th_nic_run(&t));
		EXPECT(!rxb_env_doorbells_pending(t.env));
		/* What the NIC did for them may be more packets (Ensō: the
		 * frames beyond the Head_SW written, notified now).
		 */
		EXPECT_EQ(n + drain_queue(&t, q), 8);
	}
	settle(&t);
	EXPECT_EQ(rxb_pair_ctx_violations(), bad0);
out:
	rxb_th_destroy(&t);
}

/*
 * The NIC maps only ring memory the driver programmed: a hardware half
 * started on a register space no driver half wrote refuses (-EINVAL).
 */
static void test_nic_refuses_unprogrammed(const void *arg)
{
	const struct model_case *mc = arg;
	const struct rxb_hw_model_ops *hw_ops;
	struct rxb_hw_model *hw;
	struct rxb_bar bar;
	struct rxb_th t;
	u32 npages;
	void *mem;

	if (!rxb_th_init(&t, mc->model, 2, 64, RXB_ENV_BUF_SIZE))
		return;
	if (mc->v->tune)
		mc->v->tune(&t.cfg);
	hw_ops = t.ops->hw;
	npages = rxb_hwm_bar_pages(hw_ops, &t.cfg);
	mem = aligned_alloc(RXB_BAR_PAGE, (size_t)npages * RXB_BAR_PAGE);
	if (!mem)
		abort();
	memset(mem, 0, (size_t)npages * RXB_BAR_PAGE);
	bar = (struct rxb_bar){ .base = mem, .qpage = 1,
				.xpage = 1 + t.cfg.nqueues, .npages = npages };
	hw = rxb_hw_model_create(hw_ops, &t.cfg, &rxb_env_test_hw_ops, t.env, &bar);
	if (EXPECT(!IS_ERR(hw), "create: %ld", PTR_ERR(hw))) {
		if (hw_ops->start)
			EXPECT_EQ(hw_ops->start(hw), -EINVAL);
		else
			ktap_diag("%s: no ring registers to load", mc->model);
		rxb_hw_model_destroy(hw);
	}
	free(mem);
	rxb_th_destroy(&t);
}

static void test_stress(const void *arg)
{
	const struct model_case *mc = arg;
	struct rxb_stress_cfg cfg = mc->shape->cfg;

	cfg.model = mc->model;
	cfg.tune = mc->v->tune;
	cfg.cr_share = variant_cr_share(mc->v);
	cfg.frames = rxb_stress_frames(DEFAULT_STRESS_FRAMES) * mc->shape->share / 100;
	if (!cfg.frames)
		cfg.frames = 1;
	cfg.seed = 0x5eed0000 + (mc->shape - shapes);
	rxb_stress_run(&cfg);
}

/* Every registered model runs the cases above (the fault stress included). */
static void test_models_covered(const void *arg __always_unused)
{
	const struct rxb_model_ops *ops;
	unsigned int i, j;

	for (i = 0; (ops = rxb_model_get(i)); i++) {
		for (j = 0; j < ARRAY_SIZE(own_tests); j++)
			if (!strcmp(own_tests[j].model, ops->name))
				break;
		if (j < ARRAY_SIZE(own_tests)) {
			ktap_diag("%s: tested in %s", ops->name,
				  own_tests[j].tested_in);
			continue;
		}
		for (j = 0; j < ARRAY_SIZE(variants); j++)
			if (!strcmp(variants[j].model, ops->name))
				break;
		EXPECT(j < ARRAY_SIZE(variants), "model %s has no variant",
		       ops->name);
	}
	EXPECT(i >= 6, "only %u models registered", i);
}

/*
 * The context check itself: a hardware half's entry point called from
 * outside the NIC's context (as a driver that did the NIC's work in its
 * doorbell would) is caught.
 */
static void test_nic_ctx_check(const void *arg __always_unused)
{
	struct rxb_frame f = { .len = 64 };
	static u8 frame[64];
	struct rxb_th t;
	long bad0;

	if (!rxb_th_create(&t, "privring", 1, 64, RXB_ENV_BUF_SIZE))
		goto out;
	f.data = frame;
	bad0 = rxb_pair_ctx_violations();
	rxb_pair_ctx_expect(true);
	EXPECT_EQ(rxb_hwm_rx(t.hw, 0, &f), 0);
	rxb_pair_ctx_expect(false);
	/* The entry point, and the DMA engine and vector it used. */
	EXPECT(rxb_pair_ctx_violations() >= bad0 + 3, "%ld violations seen",
	       rxb_pair_ctx_violations() - bad0);
	while (poll_put(&t, 0, 16) > 0)
		;
out:
	rxb_th_destroy(&t);
}

int main(void)
{
	static const struct {
		const char *name;
		void (*fn)(const void *arg);
	} generic[] = {
		{ "invalid_cfg", test_invalid_cfg },
		{ "create_enomem", test_create_enomem },
		{ "roundtrip", test_roundtrip },
		{ "debug_regs", test_debug_regs },
		{ "doorbells_posted", test_doorbells_posted },
		{ "nic_refuses_unprogrammed", test_nic_refuses_unprogrammed },
		{ "tstamp", test_tstamp },
		{ "ws_steady", test_ws_steady },
	};
	const unsigned int per_model = ARRAY_SIZE(generic) + ARRAY_SIZE(shapes);
	unsigned int n = ARRAY_SIZE(variants) * per_model + 2, i, j, k = 0;
	struct model_case *mcs = calloc(n, sizeof(*mcs));
	struct ktap_case *cases = calloc(n, sizeof(*cases));
	int ret;

	if (!mcs || !cases)
		return 1;
	for (i = 0; i < ARRAY_SIZE(variants); i++) {
		for (j = 0; j < per_model; j++, k++) {
			struct model_case *mc = &mcs[k];

			mc->v = &variants[i];
			mc->model = variants[i].model;
			if (j < ARRAY_SIZE(generic)) {
				snprintf(mc->name, sizeof(mc->name), "%s:%s",
					 variants[i].name, generic[j].name);
				cases[k].fn = generic[j].fn;
			} else {
				mc->shape = &shapes[j - ARRAY_SIZE(generic)];
				snprintf(mc->name, sizeof(mc->name), "%s:%s",
					 variants[i].name, mc->shape->name);
				cases[k].fn = test_stress;
			}
			cases[k].name = mc->name;
			cases[k].arg = mc;
		}
	}
	cases[k].name = "models_covered";
	cases[k].fn = test_models_covered;
	cases[++k].name = "nic_ctx_check";
	cases[k].fn = test_nic_ctx_check;
	ret = ktap_main(cases, n);
	free(cases);
	free(mcs);
	return ret;
}
