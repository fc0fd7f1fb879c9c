// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of CEIO's two halves (hw/models/ceio.c, drv/models/ceio.c): the
 * paper's Fig. 7 script (order
 * kept by the merge, not by a pause of the fast path), the return to the
 * fast path under steady load, more flows than credits and the pool's
 * top-up, a fully slow flow (credits 0, sync and async fetch), tier
 * overflow, Algorithm 1 (both cases) with credit conservation, inactive
 * flows and round-robin re-activation, flow teardown, churn past the flow
 * table's size, a new flow's first frames on two queues at once (a
 * steering change) starting it once, and a multi-threaded stress (random
 * credit exhaustion, concurrent arrivals, the NIC's worker running): no
 * reorder per flow, every frame received or dropped in the tier, the
 * host-resident bound.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_nicmem.h>

#include "env.h"
#include "shim/shim.h"
#include "ktap.h"
#include "stress.h"

#define BUF	RXB_ENV_BUF_SIZE
#define NFT	16			/* flow table entries */

static u8 frame[BUF];

/* The next setup builds its rings with stamp rings (RXB_TSTAMP). */
static bool rx_tstamp;

/* Set up a CEIO instance with @credits credits (0: forced slow path),
 * credits released as @release says.
 */
static bool setup_rel(struct rxb_th *t, unsigned int nq, unsigned int credits,
		      u64 tier, u64 fetch_ns, bool async, unsigned int release)
{
	if (!rxb_th_init(t, "ceio", nq, 64, BUF))
		return false;
	t->cfg.ceio_release = release;
	rxb_env_nicmem(t->env, tier, fetch_ns);
	t->cfg.nicmem_bytes = tier;
	t->cfg.flow_table_size = NFT;
	t->cfg.ceio_llc_budget = (u64)credits * BUF;
	t->cfg.ceio_force_slow = !credits;
	t->cfg.ceio_fetch_async = async;
	t->cfg.rx_tstamp = rx_tstamp;
	rxb_env_fake_clock(t->env, 1000);
	return rxb_th_start(t);
}

static bool setup(struct rxb_th *t, unsigned int nq, unsigned int credits,
		  u64 tier, u64 fetch_ns, bool async)
{
	return setup_rel(t, nq, credits, tier, fetch_ns, async,
			 RXB_CEIO_REL_BATCH);
}

static int send(struct rxb_th *t, unsigned int q, u32 flow, u64 seq,
		unsigned int len)
{
	struct rxb_tframe_id id = { .producer = flow, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = frame, .len = len, .hash = flow, .flow = flow,
		.ts = rxb_mix64((u64)flow << 40 | seq),	/* arrival stamp */
	};

	rxb_tframe_fill(frame, len, &id);
	return rxb_th_hw_rx(t, q, &f);
}

/* The NIC's side between polls: its doorbell service (the fetches the
 * driver posted start), then its fetch engine once due (a fake clock
 * moves).  True if it did anything.
 */
static bool pump(struct rxb_th *t)
{
	bool did = rxb_th_nic_run(t);

	return rxb_env_run_fetches(t->env) || did;
}

/* Packets or fetches the queue still has (as NAPI would poll on, plus the
 * NIC's work in flight).
 */
static bool busy(struct rxb_th *t, unsigned int q)
{
	return t->ops->rx_pending(t->m, q) || rxb_env_doorbells_pending(t->env) ||
	       rxb_nicmem_fetch_busy(rxb_env_nicmem_get(t->env));
}

/* Poll @q once; check each packet of flow f is next[f]; put them back. */
static int poll_once(struct rxb_th *t, unsigned int q, u64 *next, int budget)
{
	struct rxb_pkt pkts[64];
	struct rxb_tframe_id id;
	int n, i;

	n = rxb_model_poll(t->m, q, pkts, budget);
	for (i = 0; i < n; i++) {
		const void *d = rxb_env_pkt_take(t->env, q, &pkts[i]);

		if (EXPECT(d && rxb_tframe_check(d, pkts[i].len, &id),
			   "bad frame") &&
		    /* fast or slow path, the stamp of its arrival (none
		     * without stamp rings)
		     */
		    EXPECT_EQ(pkts[i].ts, !t->cfg.rx_tstamp ? 0 :
			      rxb_mix64((u64)id.producer << 40 | id.seq)) &&
		    EXPECT(id.seq == next[id.producer],
			   "flow %u: seq %llu, expected %llu", id.producer,
			   (unsigned long long)id.seq,
			   (unsigned long long)next[id.producer]))
			next[id.producer]++;
		rxb_env_pkt_put(t->env, pkts[i].cookie);
	}
	return n;
}

/* Poll @q up to @budget packets, the NIC fetching between polls (a poll
 * stops at a slow entry whose fetch is in flight, and the fetch's
 * interrupt brings the next); as poll_once().
 */
static int poll_check(struct rxb_th *t, unsigned int q, u64 *next, int budget)
{
	int n = 0;

	do
		n += poll_once(t, q, next, budget - n);
	while (n < budget && pump(t));
	return n;
}

/* A queue counter (the NIC's and the driver's). */
static u64 qstat(struct rxb_th *t, unsigned int q, unsigned int off)
{
	struct rxb_qstats st;

	rxb_th_qstats(t, q, &st);
	return *(u64 *)((char *)&st + off);
}

#define QSTAT(t, q, f)	qstat(t, q, offsetof(struct rxb_qstats, f))

/* Credits are conserved: free (pool + flows) + in flight = total. */
static void conserved(struct rxb_th *t)
{
	EXPECT_EQ(rxb_th_xstat(t, "ceio_credits_free") +
		  rxb_th_xstat(t, "ceio_credits_inuse"),
		  rxb_th_xstat(t, "ceio_credits_total"));
}

/* Fig. 7: 4 credits, two six-packet messages.  Fast #1-4, slow #17-20;
 * the driver takes message 1 (#1-4, #17, #18) and releases #1-4's
 * credits; #5-8 arrive with credits: fast at once, though #19, #20 are
 * not drained yet, and delivered after them (message 2: #19, #20, #5-8).
 */
static void test_fig7(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 }, seq = 0;
	struct rxb_th t;
	int i;

	if (!setup(&t, 1, 4, 1 << 20, 0, false))
		goto out;
	for (i = 0; i < 8; i++)		/* #1-4 fast, #17-20 slow */
		EXPECT_EQ(send(&t, 0, 0, seq++, 256), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 4);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 4);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_to_slow"), 1);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), 4);
	conserved(&t);
	/* Message 1: #1-4 and #17, #18. */
	EXPECT_EQ(poll_check(&t, 0, next, 6), 6);
	for (i = 0; i < 4; i++)		/* #5-8: fast, #19, #20 still queued */
		EXPECT_EQ(send(&t, 0, 0, seq++, 256), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 8);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 4);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_to_fast"), 1);
	/* Message 2: #19, #20 first, then #5-8 (poll_check: in order). */
	EXPECT_EQ(poll_check(&t, 0, next, 16), 6);
	EXPECT_EQ(next[0], seq);
	EXPECT_EQ(QSTAT(&t, 0, packets), seq);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Steady load with the driver one poll behind: a flow that went slow
 * comes back to the fast path as soon as its credits do, though its
 * latest slow entry is never drained at an arrival (waiting for the drain
 * kept it slow for good); in order all along.
 */
static void test_steady(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 }, seq = 0;
	struct rxb_th t;
	int i;

	if (!setup(&t, 1, 2, 1 << 20, 0, false))
		goto out;
	for (i = 0; i < 3; i++)		/* fast, fast, slow */
		EXPECT_EQ(send(&t, 0, 0, seq++, 128), 0);
	for (i = 0; i < 300; i++) {
		EXPECT_EQ(poll_check(&t, 0, next, 1), 1);
		EXPECT_EQ(send(&t, 0, 0, seq++, 128), 0);
	}
	while (poll_check(&t, 0, next, 64))
		;
	EXPECT_EQ(next[0], seq);
	ktap_diag("steady: %llu fast, %llu slow, %llu to_slow, %llu to_fast",
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_fast"),
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_slow"),
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_to_slow"),
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_to_fast"));
	EXPECT(rxb_th_xstat(&t, "rx0_ceio_fast") >= 150);
	EXPECT(rxb_th_xstat(&t, "rx0_ceio_to_fast") >= 50);
	EXPECT(rxb_th_xstat(&t, "ceio_host_unconsumed_max") <= 2);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* More flows than credits: the quotient C_total / n is 0 for the third
 * flow, yet Algorithm 1 gives the two new flows a credit each (a share
 * is at least one).  Flow 0, which gave both, is then dry; once flows 1
 * and 2 went inactive their credits, in the pool, go to flow 0 and it is
 * fast again.
 */
static void test_dry(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 };
	struct rxb_th t;
	int f;

	if (!setup(&t, 1, 2, 1 << 20, 0, false))
		goto out;
	for (f = 0; f < 3; f++)
		EXPECT_EQ(send(&t, 0, f, next[f], 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 2);
	while (poll_check(&t, 0, next, 64))
		;
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_realloc"), 1);
	for (f = 1; f < 3; f++)
		EXPECT_EQ(send(&t, 0, f, next[f], 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 3);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_to_fast"), 2);
	EXPECT_EQ(send(&t, 0, 0, next[0], 64), 0);	/* dry: slow */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 3);
	while (poll_check(&t, 0, next, 64))
		;
	conserved(&t);
	rxb_env_advance(t.env, 2000000000ULL);
	EXPECT_EQ(send(&t, 0, 0, next[0], 64), 0);	/* slow, dry */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 4);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_inactive"), 2);
	EXPECT_EQ(send(&t, 0, 0, next[0] + 1, 64), 0);
	EXPECT_EQ(send(&t, 0, 0, next[0] + 2, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 5);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_to_fast"), 3);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 3);
	EXPECT_EQ(next[0], 5);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Merge across flows: a fast frame of flow 1 written after a slow frame
 * of flow 0 is delivered after it (arrival order per queue).
 */
static void test_merge(const void *arg)
{
	u64 next[NFT] = { 0 };
	struct rxb_th t;
	bool ok;

	rx_tstamp = arg;	/* "tstamp": fast and slow frames stamped */
	ok = setup(&t, 1, 2, 1 << 20, 0, false);
	rx_tstamp = false;
	if (!ok)
		goto out;
	EXPECT_EQ(send(&t, 0, 0, 0, 100), 0);	/* flow 0 takes both */
	EXPECT_EQ(send(&t, 0, 0, 1, 100), 0);
	EXPECT_EQ(send(&t, 0, 0, 2, 100), 0);	/* slow */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 1);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 3);
	EXPECT_EQ(next[0], 3);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Credits 0: every frame slow, none lost, in order; sync and async. */
static void test_all_slow(const void *arg)
{
	bool async = arg;
	u64 next[NFT] = { 0 }, seq;
	struct rxb_th t;
	int polls = 0;

	if (!setup(&t, 1, 0, 1 << 20, async ? 200000 : 0, async))
		goto out;
	for (seq = 0; seq < 500; ) {
		while (seq < 500 && send(&t, 0, seq % 3, seq / 3, 64 + seq % 900) == 0 &&
		       ++seq % 50)
			;
		while (busy(&t, 0) && polls < 1000000) {
			poll_check(&t, 0, next, 32);
			polls++;
		}
	}
	EXPECT_EQ(next[0] + next[1] + next[2], 500);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 500);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_tier_drops"), 0);
	/* The NIC freed each entry's memory when its fetch completed. */
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_tier_held"), 0);
	if (async)
		EXPECT(rxb_th_xstat(&t, "rx0_ceio_fetch_waits") > 0);
	ktap_diag("%s: %d polls, %llu fetch waits", async ? "async" : "sync",
		  polls,
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_fetch_waits"));
out:
	rxb_th_destroy(&t);
}

/* A slow entry that finds no host buffer fails the refill, so that the
 * driver backs off (rx.c) instead of repolling at once while rx_pending()
 * still sees the entry; once buffers come back every packet is delivered.
 */
static void test_slow_nobuf(const void *arg)
{
	bool async = arg;
	u64 next[NFT] = { 0 }, seq;
	struct rxb_th t;
	int polls = 0;

	if (!setup(&t, 1, 0, 1 << 20, 0, async))
		goto out;
	for (seq = 0; seq < 8; seq++)
		EXPECT_EQ(send(&t, 0, 0, seq, 100), 0);
	rxb_env_fail_allocs(t.env, 0, 0, 4);
	EXPECT_EQ(poll_check(&t, 0, next, 32), 0);
	EXPECT(t.ops->rx_pending(t.m, 0));
	EXPECT(!t.ops->refill(t.m, 0));
	EXPECT(rxb_th_xstat(&t, "rx0_ceio_slow_alloc_fails") > 0);
	while (busy(&t, 0) && polls++ < 1000) {
		poll_check(&t, 0, next, 32);
		t.ops->refill(t.m, 0);
	}
	EXPECT_EQ(next[0], 8);
	EXPECT(t.ops->refill(t.m, 0));
out:
	rxb_th_destroy(&t);
}

/* A full tier drops there, counted; nothing else drops. */
static void test_tier_full(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 };
	struct rxb_th t;
	int i, ok = 0;

	if (!setup(&t, 1, 0, 4 * 200, 0, false))
		goto out;
	for (i = 0; i < 10; i++)
		ok += send(&t, 0, 0, ok, 200) == 0;
	EXPECT_EQ(ok, 4);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_tier_drops"), 6);
	EXPECT_EQ(QSTAT(&t, 0, nobuf_drops), 0);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 4);
	/* The drained tier takes frames again. */
	EXPECT_EQ(send(&t, 0, 0, 4, 200), 0);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
out:
	rxb_th_destroy(&t);
}

/* Algorithm 1: case (a) 64 -> 32/32; case (b) a donor short of its
 * quota gives what it has, owes the rest and repays from releases; the
 * creditor is topped up; teardown returns credits; conservation.
 */
static void test_alg1(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 }, s0 = 0;
	struct rxb_th t;
	int i;

	if (!setup(&t, 1, 64, 1 << 20, 0, false))
		goto out;
	EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);	/* flow 0: all 64 */
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), 63);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
	EXPECT_EQ(send(&t, 0, 1, 0, 64), 0);	/* flow 1: pool empty */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 1);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_realloc"), 1);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_flows_active"), 2);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), 64);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
	/* 32 each: flow 0 takes 32 fast, the 33rd is slow. */
	for (i = 0; i < 33; i++)
		EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 2);
	conserved(&t);
	while (poll_check(&t, 0, next, 64))
		;
	/* Case (b): flow 0 holds 30 in flight (2 left), flow 2 arrives:
	 * c_flow 21, quota 21 from each of flows 0 and 1.
	 */
	for (i = 0; i < 30; i++)
		EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);
	EXPECT_EQ(send(&t, 0, 2, 0, 64), 0);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_realloc"), 2);
	conserved(&t);
	/* The releases repay flow 0's debt; flow 2 is topped up. */
	while (poll_check(&t, 0, next, 64))
		;
	EXPECT(send(&t, 0, 0, s0++, 64) == 0);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT(rxb_env_run_timer(t.env) || true);
	conserved(&t);
	while (poll_check(&t, 0, next, 64))
		;
	/* Teardown: every flow's credits back to the pool. */
	rxb_env_run_timer(t.env);
	for (i = 0; i < 3; i++)
		rxb_env_flow_free(t.env, i);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_free"), 64);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_flows_active"), 0);
out:
	rxb_th_destroy(&t);
}

/* The 1 s timer: an idle flow's credits go to the pool; a frame makes
 * it wanted, the worker re-activates it, then it is fast again.
 */
static void test_inactive(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 }, s0 = 0;
	struct rxb_th t;

	if (!setup(&t, 1, 8, 1 << 20, 0, false))
		goto out;
	EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
	rxb_env_advance(t.env, 2000000000ULL);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_inactive"), 1);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_flows_active"), 0);
	conserved(&t);
	EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);	/* inactive: slow */
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 1);
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_reactivated"), 1);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
	EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 2);
	EXPECT_EQ(poll_check(&t, 0, next, 64), 1);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Churn: 20 rounds of 16 flows through a 16-entry table, each entry
 * freed and reused; frames of untracked flows too.  No credit leaks.
 */
static void test_churn(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 };
	struct rxb_th t;
	int r, f, k;

	if (!setup(&t, 1, 32, 1 << 20, 0, false))
		goto out;
	for (r = 0; r < 20; r++) {
		for (f = 0; f < NFT; f++)
			for (k = 0; k < 4; k++)
				EXPECT_EQ(send(&t, 0, f, next[f] + k, 64), 0);
		rxb_env_run_timer(t.env);
		conserved(&t);
		while (poll_check(&t, 0, next, 64))
			;
		for (f = 0; f < NFT; f++) {
			rxb_env_flow_free(t.env, f);
			next[f] = 0;
		}
	}
	rxb_env_run_timer(t.env);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_free"), 32);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), 0);
	ktap_diag("churn: %llu fast, %llu slow, %llu reallocations",
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_fast"),
		  (unsigned long long)rxb_th_xstat(&t, "rx0_ceio_slow"),
		  (unsigned long long)rxb_th_xstat(&t, "ceio_realloc"));
out:
	rxb_th_destroy(&t);
}

/* Untracked frames (flow NFT: past the table) share the queue's
 * aggregate entry, many flows in one: it holds a flow's share, borrows
 * from the pool when that is used up, and gives what it owns beyond its
 * share back to the pool.
 */
static void test_untracked(const void *arg __always_unused)
{
	u64 next[NFT + 1] = { 0 }, sa = 0, s0 = 0, fast, slow;
	struct rxb_th t;
	int i;

	if (!setup(&t, 1, 32, 1 << 20, 0, false))
		goto out;
	/* Alone, the aggregate's share is all 32: 24 in flight, flow 0
	 * arrives (share 16 each, the pool empty: slow).
	 */
	for (i = 0; i < 24; i++)
		EXPECT_EQ(send(&t, 0, NFT, sa++, 64), 0);
	EXPECT_EQ(send(&t, 0, 0, s0++, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast"), 24);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow"), 1);
	/* The releases refill the aggregate up to its new share (16); the
	 * other 16 go to the pool, which tops flow 0 up without Algorithm 1.
	 */
	while (poll_check(&t, 0, next, 64))
		;
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_realloc"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_flows_active"), 2);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), 32);
	conserved(&t);
	/* Flow 0 torn down: its 16 to the pool.  The aggregate's 24 frames
	 * take its own 16 and borrow 8.
	 */
	rxb_env_flow_free(t.env, 0);
	fast = rxb_th_xstat(&t, "rx0_ceio_fast");
	slow = rxb_th_xstat(&t, "rx0_ceio_slow");
	for (i = 0; i < 24; i++)
		EXPECT_EQ(send(&t, 0, NFT, sa++, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast") - fast, 24);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_slow") - slow, 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_borrowed"), 8);
	conserved(&t);
	while (poll_check(&t, 0, next, 64))
		;
	EXPECT(rxb_env_run_timer(t.env));
	EXPECT_EQ(next[NFT], sa);
	EXPECT_EQ(next[0], s0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_free"), 32);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* The fetch ring and its register, posted: the first poll posts a host
 * buffer per slow entry (async: all six; sync: the next one) and writes
 * fetch_tail, hands up nothing, and nothing moves in its call; the NIC
 * reads the entries only when its doorbell service runs, moves the data
 * only once the tier's latency has passed (a 100 us fetch, a fake
 * clock), then writes the done marks and raises the interrupt; the next
 * poll hands the frames up in order.  The bytes on the bus are the NIC's
 * own count: the fetch entries it read, the data and the write-backs.
 * The driver read slow_tail across the bus (MMIO) only while no fast
 * completion told it more.
 */
static void test_fetch_ring(const void *arg)
{
	bool async = arg && strstr(arg, "async");
	bool ts = arg && strstr(arg, "tstamp");
	u64 next[NFT] = { 0 }, data = 0, rd0, wr0, mr0;
	unsigned int per = async ? 6 : 1, got = 0;
	struct rxb_th t;
	bool ok;
	int i;

	rx_tstamp = ts;
	ok = setup(&t, 1, 0, 1 << 20, 100000, async);
	rx_tstamp = false;
	if (!ok)
		goto out;
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(send(&t, 0, 0, i, 100 + i), 0);
		data += 100 + i;
	}
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DATA_WR), 0);
	rd0 = rxb_env_pcie(t.env, RXB_PCIE_DESC_RD);
	wr0 = rxb_env_pcie(t.env, RXB_PCIE_META_WR);
	mr0 = rxb_env_mmio_read(t.env);
	while (got < 6 && !ktap_failures()) {
		u64 rd = rxb_env_pcie(t.env, RXB_PCIE_DESC_RD);

		/* The poll posts and writes the register, nothing more. */
		EXPECT_EQ(poll_once(&t, 0, next, 32), 0);
		EXPECT(rxb_env_doorbells_pending(t.env));
		EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DESC_RD), rd);
		EXPECT_EQ(atomic64_read(&rxb_env_nicmem_get(t.env)->fetches),
			  got);
		/* The NIC starts the fetches: entries read, no data yet. */
		EXPECT(rxb_th_nic_run(&t));
		EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DESC_RD) - rd,
			  per * sizeof(struct rxb_ceio_fetch));
		EXPECT_EQ(atomic64_read(&rxb_env_nicmem_get(t.env)->fetches),
			  got);
		EXPECT(!t.ops->rx_pending(t.m, 0));
		/* Due: the engine completes them, the interrupt says so. */
		EXPECT(rxb_env_run_fetches(t.env));
		EXPECT(t.ops->rx_pending(t.m, 0));
		EXPECT_EQ(poll_once(&t, 0, next, 32), per);
		got += per;
	}
	EXPECT_EQ(next[0], 6);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DATA_WR), data);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DESC_RD) - rd0,
		  6 * sizeof(struct rxb_ceio_fetch));
	/* The 16-byte write-back; with stamp rings, a stamp per frame. */
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_META_WR) - wr0,
		  6 * (16 + (ts ? RXB_TSTAMP_LEN : 0)));
	EXPECT_EQ(atomic64_read(&rxb_env_nicmem_get(t.env)->fetched), data);
	/* No fast completion: each poll and rx_pending read slow_tail. */
	ktap_diag("%s: %llu MMIO bytes read", async ? "async" : "sync",
		  (unsigned long long)(rxb_env_mmio_read(t.env) - mr0));
	EXPECT(rxb_env_mmio_read(t.env) > mr0);
	EXPECT(!t.ops->rx_pending(t.m, 0));
out:
	rxb_th_destroy(&t);
}

/* Fast completions carry slow_tail: while they flow, the driver reads no
 * NIC register, and a slow entry written before a fast frame still goes
 * up first.
 */
static void test_no_mmio_fast(const void *arg __always_unused)
{
	u64 next[NFT] = { 0 }, mr0;
	struct rxb_th t;
	int i;

	if (!setup(&t, 1, 64, 1 << 20, 0, false))
		goto out;
	mr0 = rxb_env_mmio_read(t.env);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(send(&t, 0, 0, i, 100), 0);
	EXPECT_EQ(poll_once(&t, 0, next, 8), 8);
	EXPECT_EQ(rxb_env_mmio_read(t.env), mr0);
	EXPECT_EQ(next[0], 8);
out:
	rxb_th_destroy(&t);
}

/* Release=page: a fast packet's credit comes back only once its buffer
 * returned (the caller put it), in CR order; meanwhile the frames find
 * no credit and go slow.  Batch, for comparison: the credits come back
 * at the end of the poll, with the buffers still held.
 */
static void test_release_page(const void *arg)
{
	bool page = arg;
	struct rxb_pkt pkts[8];
	struct rxb_th t;
	u64 fast0;
	int i, n;

	if (!setup_rel(&t, 1, 4, 1 << 20, 0, false,
		       page ? RXB_CEIO_REL_PAGE : RXB_CEIO_REL_BATCH))
		goto out;
	for (i = 0; i < 4; i++)
		EXPECT_EQ(send(&t, 0, 0, i, 64), 0);
	n = rxb_model_poll(t.m, 0, pkts, 8);
	EXPECT_EQ(n, 4);
	for (i = 0; i < n; i++)
		EXPECT(rxb_env_pkt_take(t.env, 0, &pkts[i]));
	rxb_env_run_timer(t.env);	/* the NIC reads credit_ci */
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), page ? 4 : 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_host_unconsumed"), page ? 4 : 0);
	conserved(&t);
	/* Buffers 1 and 2 back, 0 still held: nothing released yet. */
	rxb_env_pkt_put(t.env, pkts[1].cookie);
	rxb_env_pkt_put(t.env, pkts[2].cookie);
	fast0 = rxb_th_xstat(&t, "rx0_ceio_fast");
	EXPECT_EQ(send(&t, 0, 0, 4, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "rx0_ceio_fast") - fast0, page ? 0 : 1);
	n = rxb_model_poll(t.m, 0, pkts + 4, 4);
	if (!n && pump(&t))	/* page: the frame went slow, fetched */
		n = rxb_model_poll(t.m, 0, pkts + 4, 4);
	EXPECT_EQ(n, 1);
	EXPECT(rxb_env_pkt_take(t.env, 0, &pkts[4]));
	rxb_env_pkt_put(t.env, pkts[4].cookie);
	rxb_env_run_timer(t.env);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), page ? 4 : 0);
	conserved(&t);
	/* Buffer 0 back: 0, 1, 2 released at the next poll; 3 held. */
	rxb_env_pkt_put(t.env, pkts[0].cookie);
	EXPECT_EQ(rxb_model_poll(t.m, 0, pkts + 4, 4), 0);
	rxb_env_run_timer(t.env);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), page ? 1 : 0);
	conserved(&t);
	rxb_env_pkt_put(t.env, pkts[3].cookie);
	t.ops->refill(t.m, 0);		/* the refill releases too */
	rxb_env_run_timer(t.env);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_inuse"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_free"), 4);
	/* Batch: the worker never saw a credit out, page: all four. */
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_host_unconsumed_max"), page ? 4 : 0);
	/* Every buffer is back in the pool or posted: none leaked. */
	EXPECT_EQ(rxb_env_held(t.env, 0), 0);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Multi-threaded: per queue a producer of 4 flows and a consumer that
 * polls, checks order per flow and sometimes stalls (credits run out);
 * the NIC's worker runs on its timer thread.
 */
#define MT_Q		2
#define MT_FLOWS	4
#define MT_CREDITS	16
#define MT_BUDGET	16

#define MT_HOLD		8		/* page: packets a consumer holds */

struct mt {
	struct rxb_th t;
	bool page;			/* release=page, packets held a while */
	u64 frames;
	int stop;
	int done[MT_Q];			/* producer finished */
	u64 sent[MT_Q * MT_FLOWS];	/* per flow, by its producer */
	u64 drops[MT_Q];
	u64 got[MT_Q];
	u64 max_resident;
	unsigned int q;
};

struct mt_arg {
	struct mt *mt;
	unsigned int q;
};

static void *mt_producer(void *arg)
{
	struct mt_arg *a = arg;
	struct mt *mt = a->mt;
	u8 buf[512];
	u64 i;

	for (i = 0; i < mt->frames; i++) {
		u32 flow = a->q * MT_FLOWS + rxb_mix64(i ^ a->q) % MT_FLOWS;
		struct rxb_tframe_id id = {
			.producer = flow, .q = a->q, .seq = mt->sent[flow],
		};
		struct rxb_frame f = {
			.data = buf, .len = 64 + i % 400, .hash = flow,
			.flow = flow,
		};

		rxb_tframe_fill(buf, f.len, &id);
		int err, tries = 0;

		/* A full slow ring or tier: the sender backs off a while. */
		while ((err = rxb_th_hw_rx(&mt->t, a->q, &f)) == -ENOSPC &&
		       ++tries < 2000)
			sched_yield();
		if (err)
			mt->drops[a->q]++;
		else
			mt->sent[flow]++;
		if (i % 64 == 0)
			sched_yield();
	}
	__atomic_store_n(&mt->done[a->q], 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *mt_consumer(void *arg)
{
	struct mt_arg *a = arg;
	struct mt *mt = a->mt;
	struct rxb_th *t = &mt->t;
	u64 next[MT_Q * MT_FLOWS] = { 0 }, rounds = 0, r = a->q, idle = 0;
	struct rxb_pkt pkts[MT_BUDGET];
	void *held[MT_HOLD];
	int nheld = 0;

	for (;;) {
		bool fin = __atomic_load_n(&mt->done[a->q], __ATOMIC_ACQUIRE);
		int n, i;
		u64 seen = rxb_env_irqs(t->env, a->q);

		n = rxb_model_poll(t->m, a->q, pkts, MT_BUDGET);
		for (i = 0; i < n; i++) {
			struct rxb_tframe_id id;
			const void *d = rxb_env_pkt_take(t->env, a->q, &pkts[i]);

			if (EXPECT(d && rxb_tframe_check(d, pkts[i].len, &id),
				   "bad frame") &&
			    !EXPECT(id.seq == next[id.producer],
				    "flow %u: seq %llu, expected %llu",
				    id.producer, (unsigned long long)id.seq,
				    (unsigned long long)next[id.producer]))
				break;
			next[id.producer] = id.seq + 1;
			if (!mt->page) {
				rxb_env_pkt_put(t->env, pkts[i].cookie);
				continue;
			}
			/* Page: hold it; return a random held one. */
			if (nheld == MT_HOLD) {
				unsigned int k = (r = rxb_mix64(r)) % MT_HOLD;

				rxb_env_pkt_put(t->env, held[k]);
				held[k] = held[--nheld];
			}
			held[nheld++] = pkts[i].cookie;
		}
		if (i < n)
			rxb_env_pkt_put(t->env, pkts[i++].cookie);
		for (; i < n; i++)
			if (rxb_env_pkt_take(t->env, a->q, &pkts[i]))
				rxb_env_pkt_put(t->env, pkts[i].cookie);
		mt->got[a->q] += n;
		/* Stall now and then: the flows run out of credits.  A
		 * sleep, not a run of sched_yield(): those last as long as
		 * the other runnable tasks let them, and beside two VMs
		 * at nice 19 the test took 830 s instead of 13.
		 */
		if (++rounds % 7 == 0)
			nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
		if (ktap_failures())
			break;
		if (!n) {
			/* Page: nothing new, so give the held ones back. */
			while (nheld)
				rxb_env_pkt_put(t->env, held[--nheld]);
			/* Done once every frame its producer sent is here (a
			 * fetch's interrupt may come a while after the poll
			 * that posted it); a frame that never comes fails.
			 */
			if (fin) {
				u64 want = 0, f;

				for (f = 0; f < MT_FLOWS; f++)
					want += mt->sent[a->q * MT_FLOWS + f];
				if (mt->got[a->q] >= want)
					break;
				if (!EXPECT(++idle < 20000000,
					    "q %u: %llu of %llu frames", a->q,
					    (unsigned long long)mt->got[a->q],
					    (unsigned long long)want))
					break;
				continue;
			}
			/* As the driver after napi_complete_done(): an
			 * entry pending (a fetch in flight) polls again.
			 */
			if (!fin && !t->ops->rx_pending(t->m, a->q))
				rxb_env_wait_irq(t->env, a->q, seen,
						 &mt->done[a->q]);
		}
	}
	return NULL;
}

static void test_mt(const void *arg)
{
	bool async = arg && !strcmp(arg, "async");
	const char *mode = arg ? arg : "sync";
	struct mt *mt = calloc(1, sizeof(*mt));
	pthread_t pt[MT_Q], ct[MT_Q];
	struct mt_arg a[MT_Q];
	u64 sent = 0, got = 0, drops = 0;
	unsigned int q;

	/* Sync: one fetch in flight, each slow frame a round trip to the
	 * NIC's thread; page: a slot freed only with its whole page, about
	 * four times async's time a frame (61 s against 16 s for 100000 a
	 * queue, 2026-11-29): a quarter of the frames, for the same coverage
	 * time.
	 */
	mt->frames = rxb_stress_frames(400000) / (async ? 4 : 16);
	if (!rxb_th_init(&mt->t, "ceio", MT_Q, 64, BUF))
		goto out;
	rxb_env_nicmem(mt->t.env, 1 << 20, async ? 2000 : 0);
	mt->t.cfg.nicmem_bytes = 1 << 20;
	mt->t.cfg.flow_table_size = MT_Q * MT_FLOWS;
	mt->t.cfg.ceio_llc_budget = MT_CREDITS * BUF;
	mt->t.cfg.ceio_fetch_async = async;
	mt->page = arg && !strcmp(arg, "page");
	if (mt->page)
		mt->t.cfg.ceio_release = RXB_CEIO_REL_PAGE;
	mt->t.cfg.ceio_inactive_ns = 2000000;	/* 2 ms: recycling too */
	if (!rxb_th_start(&mt->t))
		goto out;
	/* The NIC's timer thread: its worker, doorbells and fetches. */
	rxb_env_timer_start(mt->t.env);
	for (q = 0; q < MT_Q; q++) {
		a[q] = (struct mt_arg){ mt, q };
		pthread_create(&ct[q], NULL, mt_consumer, &a[q]);
		pthread_create(&pt[q], NULL, mt_producer, &a[q]);
	}
	for (q = 0; q < MT_Q; q++) {
		pthread_join(pt[q], NULL);
		pthread_join(ct[q], NULL);
	}
	rxb_env_timer_stop(mt->t.env);
	for (q = 0; q < MT_Q * MT_FLOWS; q++)
		sent += mt->sent[q];
	for (q = 0; q < MT_Q; q++) {
		got += mt->got[q];
		drops += mt->drops[q];
	}
	EXPECT_EQ(got, sent);
	EXPECT_EQ(sent + drops, mt->frames * MT_Q);
	EXPECT(rxb_th_xstat(&mt->t, "ceio_host_unconsumed_max") <= MT_CREDITS);
	ktap_diag("%s: %llu frames, %llu fast, %llu slow, %llu drops",
		  mode, (unsigned long long)sent,
		  (unsigned long long)rxb_th_xstat(&mt->t, "rx0_ceio_fast"),
		  (unsigned long long)rxb_th_xstat(&mt->t, "rx0_ceio_slow"),
		  (unsigned long long)drops);
	ktap_diag("%s: %llu to_slow, %llu to_fast, %llu realloc, %llu inactive, %llu congestion",
		  mode,
		  (unsigned long long)rxb_th_xstat(&mt->t, "rx0_ceio_to_slow"),
		  (unsigned long long)rxb_th_xstat(&mt->t, "rx0_ceio_to_fast"),
		  (unsigned long long)rxb_th_xstat(&mt->t, "ceio_realloc"),
		  (unsigned long long)rxb_th_xstat(&mt->t, "ceio_inactive"),
		  (unsigned long long)rxb_th_xstat(&mt->t, "rx0_ceio_congestion"));
	EXPECT(rxb_th_xstat(&mt->t, "rx0_ceio_slow") > 0);
	for (q = 0; q < MT_Q; q++) {
		EXPECT_EQ(QSTAT(&mt->t, q, nobuf_drops), 0);
		EXPECT_EQ(QSTAT(&mt->t, q, oversize_drops), 0);
	}
	conserved(&mt->t);
	/* Every buffer returned: the next poll releases the last credits. */
	for (q = 0; q < MT_Q; q++)
		rxb_model_poll(mt->t.m, q, NULL, 0);
	rxb_env_run_timer(mt->t.env);
	EXPECT_EQ(rxb_th_xstat(&mt->t, "ceio_credits_inuse"), 0);
	conserved(&mt->t);
out:
	rxb_th_destroy(&mt->t);
	free(mt);
}

/* A steering change (RSS indirection, an ntuple rule) moves a flow to
 * another queue while frames of it are still in the old queue's pipeline:
 * each queue's stage runs under its own lock, so the first frames of a new
 * flow may reach both at once.  Each round the first frames of NFT new
 * flows go to queues 0 and 1 from two threads released together, in the
 * same order, each thread yielding at every atomic operation of the model
 * (the shim's hook: a preemption there, as on a busy core, so that the two
 * interleave within the pipeline stage even with one free CPU); then the
 * flows are freed (the flow table's idle sweep).  A flow must start once:
 * NFT active flows after a round, credits conserved, none active once
 * freed; at the end a lone new flow holds every credit (an active count
 * left too high would give it a fraction and keep the rest idle in the
 * pool).  Rounds until ST_SECS or ST_ROUNDS.
 */
#define ST_ROUNDS	100000
#define ST_SECS		1
#define ST_CREDITS	64

struct steer {
	struct rxb_th *t;
	u64 go;				/* rounds released */
	u64 done;			/* producers that finished a round */
	int stop;
};

struct steer_arg {
	struct steer *st;
	unsigned int q;
};

/* Spin until *@p >= @v, yielding now and then (the machine may have fewer
 * free cores than threads); false if *@stop is set first.
 */
static bool steer_wait(u64 *p, u64 v, int *stop)
{
	unsigned int spins = 0;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) {
		if (stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE))
			return false;
		if (++spins % 1024 == 0)
			sched_yield();
	}
	return true;
}

/* The shim's access hook: yield at every atomic read-modify-write. */
static void steer_note(struct rxb_shim_sink *sink __always_unused,
		       enum rxb_shim_ev ev, const void *addr __always_unused)
{
	if (ev == RXB_SHIM_RMW)
		sched_yield();
}

static struct rxb_shim_sink steer_sink = { .note = steer_note };

static void *steer_producer(void *arg)
{
	struct steer_arg *a = arg;
	struct steer *st = a->st;
	u8 buf[128];
	u32 flow;
	u64 r;

	for (r = 0; steer_wait(&st->go, r + 1, &st->stop); r++) {
		rxb_shim_sink = &steer_sink;
		for (flow = 0; flow < NFT; flow++) {
			struct rxb_tframe_id id = {
				.producer = flow, .q = a->q, .seq = r,
			};
			struct rxb_frame f = {
				.data = buf, .len = 64, .hash = flow,
				.flow = flow,
			};

			rxb_tframe_fill(buf, f.len, &id);
			EXPECT_EQ(rxb_th_hw_rx(st->t, a->q, &f), 0);
		}
		rxb_shim_sink = NULL;
		__atomic_add_fetch(&st->done, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Hand up and give back everything queue @q holds, the NIC fetching the
 * slow entries between polls (pump()).
 */
static void steer_drain(struct rxb_th *t, unsigned int q)
{
	struct rxb_pkt pkts[64];
	int n, i;

	do {
		while ((n = rxb_model_poll(t->m, q, pkts, 64)) > 0)
			for (i = 0; i < n; i++)
				if (rxb_env_pkt_take(t->env, q, &pkts[i]))
					rxb_env_pkt_put(t->env, pkts[i].cookie);
	} while (pump(t));
}

static void test_steer(const void *arg __always_unused)
{
	struct steer st = { 0 };
	struct steer_arg a[2];
	struct timespec t0, t1;
	pthread_t pt[2];
	u64 r, active = NFT;
	struct rxb_th t;
	unsigned int q;
	u32 f;

	if (!setup(&t, 2, ST_CREDITS, 1 << 20, 0, false))
		goto out;
	st.t = &t;
	for (q = 0; q < 2; q++) {
		a[q] = (struct steer_arg){ &st, q };
		pthread_create(&pt[q], NULL, steer_producer, &a[q]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < ST_ROUNDS && !ktap_failures(); r++) {
		__atomic_store_n(&st.go, r + 1, __ATOMIC_RELEASE);
		steer_wait(&st.done, 2 * (r + 1), NULL);
		active = rxb_th_xstat(&t, "ceio_flows_active");
		conserved(&t);
		for (q = 0; q < 2; q++)
			steer_drain(&t, q);
		for (f = 0; f < NFT; f++)
			rxb_env_flow_free(t.env, f);
		/* A surplus stays: the first one ends the test. */
		if (active != NFT)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec -
		    t0.tv_nsec >= ST_SECS * 1000000000LL)
			break;
	}
	__atomic_store_n(&st.stop, 1, __ATOMIC_RELEASE);
	for (q = 0; q < 2; q++)
		pthread_join(pt[q], NULL);
	ktap_diag("steer: %llu rounds of %u new flows on 2 queues at once; %llu active",
		  (unsigned long long)r, NFT, (unsigned long long)active);
	EXPECT_EQ(active, NFT);
	for (q = 0; q < 2; q++)
		steer_drain(&t, q);
	rxb_env_run_timer(t.env);	/* the NIC reads credit_ci */
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_flows_active"), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_free"), ST_CREDITS);
	/* A lone new flow: all the credits, less the one its frame took. */
	EXPECT_EQ(send(&t, 0, 0, 0, 64), 0);
	EXPECT_EQ(rxb_th_xstat(&t, "ceio_credits_flows"), ST_CREDITS - 1);
	steer_drain(&t, 0);
	conserved(&t);
out:
	rxb_th_destroy(&t);
}

/* Bad input: each refused with a message (the last by the create, which
 * finds the driver cannot tell when a buffer is idle).
 */
static void test_bad_cfg(const void *arg __always_unused)
{
	const struct rxb_model_ops *ops = rxb_model_find("ceio");
	struct rxb_env *env = rxb_env_create(1, 0);
	struct rxb_drv_ops noref = rxb_env_test_drv_ops;
	const struct rxb_drv_ops *dops;
	struct rxb_model_cfg cfg;
	struct rxb_hw_model *hw;
	struct rxb_model *m;
	const char *msg;
	void *bar;
	int i;

	noref.buf_idle = NULL;
	for (i = 0; i < 5; i++) {
		dops = &rxb_env_test_drv_ops;
		rxb_env_model_cfg(env, &cfg, 1, 64, BUF);
		if (i == 0)
			cfg.ceio_llc_budget = BUF - 1;
		if (i == 1)
			cfg.ceio_llc_budget = RXB_CEIO_BUDGET_MAX + 1;
		if (i == 2) {
			cfg.ceio_force_slow = true;
			cfg.nicmem_bytes = 0;
		}
		if (i == 3)
			cfg.ceio_release = RXB_CEIO_REL_NMODES;
		if (i == 4) {	/* page, but the driver cannot tell */
			cfg.ceio_release = RXB_CEIO_REL_PAGE;
			dops = &noref;
		}
		msg = NULL;
		if (i < 4)
			EXPECT(rxb_model_validate(ops, &cfg, &msg) == -EINVAL &&
			       msg, "case %d accepted", i);
		EXPECT(rxb_env_models_create(env, ops, &cfg, dops,
					     &rxb_env_test_hw_ops, &m, &hw,
					     &bar) == -EINVAL, "case %d", i);
	}
	rxb_env_destroy(env);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "fig7", test_fig7, NULL },
		{ "steady", test_steady, NULL },
		{ "dry", test_dry, NULL },
		{ "merge", test_merge, NULL },
		{ "merge_tstamp", test_merge, "tstamp" },
		{ "all_slow_sync", test_all_slow, NULL },
		{ "all_slow_async", test_all_slow, "async" },
		{ "slow_nobuf_sync", test_slow_nobuf, NULL },
		{ "slow_nobuf_async", test_slow_nobuf, "async" },
		{ "tier_full", test_tier_full, NULL },
		{ "fetch_ring_sync", test_fetch_ring, NULL },
		{ "fetch_ring_async", test_fetch_ring, "async" },
		{ "fetch_ring_async_tstamp", test_fetch_ring, "async tstamp" },
		{ "no_mmio_fast", test_no_mmio_fast, NULL },
		{ "release_batch", test_release_page, NULL },
		{ "release_page", test_release_page, "page" },
		{ "alg1", test_alg1, NULL },
		{ "inactive", test_inactive, NULL },
		{ "churn", test_churn, NULL },
		{ "untracked", test_untracked, NULL },
		{ "steer", test_steer, NULL },
		{ "stress_sync", test_mt, NULL },
		{ "stress_async", test_mt, "async" },
		{ "stress_page", test_mt, "page" },
		{ "bad_cfg", test_bad_cfg, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
