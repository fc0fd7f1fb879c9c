// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the COREC model (its driver half drv/models/corec.c, its NIC
 * half hw/models/corec.c; COREC paper section 3.4).
 *
 * Single-threaded: the phases of Listing 2 (drv/models/corec.h) run one at
 * a time for
 * several consumers, to force the interleavings that matter: two
 * consumers scanning the same batch (one CAS wins), a snapshot one epoch
 * stale (the 32-bit ID defeats ABA), batches finishing out of order (the
 * tail waits, then returns both with one doorbell), a delayed consumer
 * holding the tail until the NIC runs dry (section 3.4.4, counted and
 * timed), a batch marked done by a consumer that left without the tail
 * lock (rx_pending reports it), the same with the lock holder still
 * inside (its re-check returns it), the 32-bit ID wrap, interrupt policies,
 * allocation failures, teardown in the middle of a batch, and the
 * boundary: the consumers' doorbells are posted writes into the shared
 * queue's register page, which the NIC reads when it next takes a frame.
 *
 * Multi-threaded: NIC threads and several consumer threads (NAPI-like,
 * woken by the model's interrupts; some pause between claiming and
 * marking a batch done) move millions of frames through one shared queue
 * without loss: every frame arrives exactly once, in order per consumer,
 * and a watchdog fails the run when nothing moves.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/errno.h>
#include <linux/err.h>
#include <rxbisect/rxb_corec.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "../../../drivers/net/rxbisect/drv/models/corec.h"

#include "env.h"
#include "ktap.h"
#include "stress.h"

#define MAXG		8
#define ID0		RXB_COREC_ID0

/* A corec instance, and per shared queue (group) the frames sent/received. */
struct ct {
	struct rxb_th th;
	unsigned int group;		/* consumers per shared queue */
	u64 next_tx[MAXG];		/* frames accepted per group */
	u64 next_rx[MAXG];		/* frames polled (in order) per group */
	u8 frame[RXB_ENV_BUF_SIZE];
	struct rxb_pkt pkts[RXB_RING_MAX];
};

static unsigned int tlen(u64 seq)
{
	return 60 + (seq * 37) % 1400;
}

static struct ct *ct_create(unsigned int nq, unsigned int ring,
			    unsigned int consumers, unsigned int policy)
{
	struct ct *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	if (!rxb_th_init(&t->th, "corec", nq, ring, RXB_ENV_BUF_SIZE))
		goto fail;
	t->th.cfg.corec_consumers = consumers;
	t->th.cfg.corec_irq_policy = policy;
	t->group = consumers ? consumers : nq;
	if (!rxb_th_start(&t->th))
		goto fail;
	return t;
fail:
	rxb_th_destroy(&t->th);
	free(t);
	return NULL;
}

static void ct_destroy(struct ct *t)
{
	rxb_th_destroy(&t->th);
	free(t);
}

/* A qstats counter of @q, read as ethtool -S would. */
#define QS(t, q, f)	({ struct rxb_qstats _st;			\
			   rxb_th_qstats(&(t)->th, q, &_st); _st.f; })

/* A model-specific counter by name (ethtool -S). */
static u64 xstat(struct ct *t, const char *name)
{
	return rxb_th_xstat(&t->th, name);
}

/* Consumer @q's counter @what (rx<q>_corec_<what>). */
static u64 cx(struct ct *t, unsigned int q, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "rx%u_corec_%s", q, what);
	return xstat(t, name);
}

/* Send the next frame of queue @q's group, through queue @q (RSS's pick). */
static int tx(struct ct *t, unsigned int q)
{
	unsigned int g = q / t->group;
	u64 seq = t->next_tx[g];
	struct rxb_tframe_id id = { .producer = g, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = t->frame, .len = tlen(seq), .hash = (u32)rxb_mix64(seq),
		.hash_flags = RXB_CQE_F_L4_HASH,
	};
	int ret;

	rxb_tframe_fill(t->frame, f.len, &id);
	ret = rxb_th_hw_rx(&t->th, q, &f);
	if (!ret)
		t->next_tx[g]++;
	return ret;
}

static bool tx_n(struct ct *t, unsigned int q, unsigned int n)
{
	while (n--)
		if (!EXPECT_EQ(tx(t, q), 0))
			return false;
	return true;
}

/*
 * Check that @n packets polled by consumer @q are frames @seq, @seq + 1,
 * ... of its group (each completion's transaction ID is ID0 + its
 * sequence number: the NIC writes completions in arrival order), then
 * return their buffers.
 */
static void check_pkts(struct ct *t, unsigned int q, const struct rxb_pkt *p,
		       unsigned int n, u64 seq)
{
	unsigned int i;

	for (i = 0; i < n; i++, seq++) {
		struct rxb_tframe_id id;
		void *data = rxb_env_pkt_take(t->th.env, q, &p[i]);

		if (!data)
			continue;
		if (EXPECT(rxb_tframe_check(data, p[i].len, &id),
			   "q %u: packet %u: bad content", q, i)) {
			EXPECT_EQ(id.seq, seq);
			EXPECT_EQ(id.producer, q / t->group);
		}
		EXPECT_EQ(p[i].len, tlen(seq));
		EXPECT_EQ(p[i].hash, (u32)rxb_mix64(seq));
		EXPECT_EQ(p[i].flags, RXB_CQE_F_L4_HASH | RXB_CQE_F_CSUM);
		EXPECT_EQ(p[i].csum, rxb_env_csum(data, p[i].len));
		rxb_env_pkt_put(t->th.env, p[i].cookie);
	}
}

/* ops->poll by consumer @q; the packets must be the group's next ones. */
static int rx(struct ct *t, unsigned int q, int budget)
{
	unsigned int g = q / t->group;
	int n = rxb_model_poll(t->th.m, q, t->pkts, budget);

	EXPECT(n >= 0 && n <= budget, "poll returned %d", n);
	if (n > 0) {
		check_pkts(t, q, t->pkts, n, t->next_rx[g]);
		t->next_rx[g] += n;
	}
	return n;
}

/* Phases 1-2 for consumer @q: true if it claimed a non-empty batch. */
static bool claim(struct ct *t, unsigned int q, u32 max,
		  struct rxb_corec_batch *b)
{
	t->th.ops->refill(t->th.m, q);
	return rxb_corec_scan(t->th.m, q, max, b) &&
	       rxb_corec_claim(t->th.m, q, b);
}

/* Phase 3: take a claimed batch and check its packets by ID. */
static void take(struct ct *t, unsigned int q, const struct rxb_corec_batch *b)
{
	rxb_corec_take(t->th.m, q, b, t->pkts);
	check_pkts(t, q, t->pkts, b->n, (u32)(b->id - ID0));
}

static bool pending(struct ct *t, unsigned int q)
{
	return t->th.ops->rx_pending(t->th.m, q);
}

/* create: one shared ring per group, posted from the pool of the group's
 * first queue, which its consumers' stashes share.
 */
static void test_create(const void *arg)
{
	struct ct *t = ct_create(5, 64, 2, RXB_COREC_IRQ_RR);
	unsigned int q;
	long refills = 0;

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(t->th.ops->xstats_count(t->th.m), 5 * 4 + 3 * 6);
	EXPECT_EQ(xstat(t, "ring0_consumers"), 2);
	EXPECT_EQ(xstat(t, "ring1_consumers"), 2);
	EXPECT_EQ(xstat(t, "ring2_consumers"), 1);
	for (q = 0; q < 5; q++) {
		/* The ring's slots, counted to its consumers in turn, plus a
		 * full stash each, all from the first queue's pool.
		 */
		refills += QS(t, q, refills);
		EXPECT_EQ(rxb_env_posted(t->th.env, q),
			  q % 2 ? 0 : 64 + (q < 4 ? 2 : 1) * RXB_COREC_BATCH);
		EXPECT(!pending(t, q));
		EXPECT(t->th.ops->refill(t->th.m, q));
	}
	EXPECT_EQ(refills, 3 * 64);
	EXPECT_EQ(QS(t, 0, refills), 32);
	EXPECT_EQ(QS(t, 1, refills), 32);
	EXPECT_EQ(QS(t, 4, refills), 64);
	/* One doorbell per ring, rung by its first consumer. */
	EXPECT_EQ(QS(t, 0, doorbells) + QS(t, 2, doorbells) + QS(t, 4, doorbells), 3);
	ct_destroy(t);
}

/*
 * The shared queue takes exactly one ring of frames, whichever queue RSS
 * picks in the group; any consumer polls them all, in order; frames of
 * another group stay in theirs.
 */
static void test_shared_fill_poll(const void *arg)
{
	struct ct *t = ct_create(4, 64, 2, RXB_COREC_IRQ_RR);
	unsigned int i, pass;

	(void)arg;
	if (!t)
		return;
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < 64; i++)
			if (!EXPECT_EQ(tx(t, i % 2), 0))
				goto out;
		EXPECT_EQ(tx(t, 1), -ENOBUFS);
		EXPECT_EQ(tx(t, 0), -ENOBUFS);
		EXPECT_EQ(xstat(t, "ring0_nobuf_drops"), 2 * (pass + 1));
		EXPECT(pending(t, 0) && pending(t, 1));
		EXPECT(!pending(t, 2) && !pending(t, 3));
		EXPECT_EQ(rx(t, 2, 64), 0);
		EXPECT_EQ(rx(t, 1, 20), 20);
		EXPECT_EQ(rx(t, 0, 64), 44);
		EXPECT(!pending(t, 0) && !pending(t, 1));
	}
	EXPECT_EQ(QS(t, 0, hw_packets) + QS(t, 1, hw_packets), 3 * 64);
	EXPECT_EQ(QS(t, 0, packets), 3 * 44);
	EXPECT_EQ(QS(t, 1, packets), 3 * 20);
	EXPECT_EQ(xstat(t, "rx0_corec_batches"), 3);
	EXPECT_EQ(xstat(t, "rx1_corec_claimed"), 3 * 20);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 6);
	EXPECT_EQ(xstat(t, "ring1_tail_advances"), 0);
	/* The other group is untouched and works on its own. */
	if (tx_n(t, 3, 5))
		EXPECT_EQ(rx(t, 2, 64), 5);
out:
	ct_destroy(t);
}

/* Two consumers scan the same batch: one CAS wins, the loser changed nothing. */
static void test_cas_race(const void *arg)
{
	struct ct *t = ct_create(2, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch a, b;
	u64 db1;

	(void)arg;
	if (!t || !tx_n(t, 0, 10))
		goto out;
	t->th.ops->refill(t->th.m, 0);
	t->th.ops->refill(t->th.m, 1);
	EXPECT_EQ(rxb_corec_scan(t->th.m, 0, 64, &a), 10);
	EXPECT_EQ(rxb_corec_scan(t->th.m, 1, 4, &b), 4);
	EXPECT_EQ(a.id, b.id);
	EXPECT_EQ(a.id, ID0);
	if (!EXPECT(rxb_corec_claim(t->th.m, 1, &b)))
		goto out;
	/* The loser's CAS fails; it owns nothing. */
	EXPECT(!rxb_corec_claim(t->th.m, 0, &a));
	EXPECT_EQ(xstat(t, "rx0_corec_cas_fails"), 1);
	EXPECT_EQ(xstat(t, "rx0_corec_batches"), 0);
	EXPECT_EQ(xstat(t, "rx1_corec_batches"), 1);
	/* A fresh scan starts after the winner's batch. */
	EXPECT_EQ(rxb_corec_scan(t->th.m, 0, 64, &a), 6);
	EXPECT_EQ(a.id, ID0 + 4);
	db1 = QS(t, 1, doorbells);
	take(t, 1, &b);
	rxb_corec_done(t->th.m, 1, &b);
	rxb_corec_tail(t->th.m, 1, &b);
	EXPECT_EQ(QS(t, 1, doorbells), db1 + 1);
	EXPECT(rxb_corec_claim(t->th.m, 0, &a));
	take(t, 0, &a);
	rxb_corec_done(t->th.m, 0, &a);
	rxb_corec_tail(t->th.m, 0, &a);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 2);
	EXPECT(!pending(t, 0) && !pending(t, 1));
	/* Every buffer is back: the ring takes a full ring again. */
	EXPECT(tx_n(t, 0, 64));
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
out:
	if (t)
		ct_destroy(t);
}

/*
 * ABA (section 3.4.3): a consumer's snapshot one full ring old names the
 * same slot as the current ID, whose entry is ready again; a ring index
 * would let its CAS succeed.  The 32-bit ID makes it fail.
 */
static void test_aba_epoch(const void *arg)
{
	struct ct *t = ct_create(2, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch stale, b;

	(void)arg;
	if (!t || !tx_n(t, 1, 1))
		goto out;
	t->th.ops->refill(t->th.m, 0);
	EXPECT_EQ(rxb_corec_scan(t->th.m, 0, 1, &stale), 1);
	/* Consumer 1 goes a whole ring round meanwhile. */
	if (!tx_n(t, 1, 63))
		goto out;
	EXPECT_EQ(rx(t, 1, 64), 64);
	if (!tx_n(t, 1, 1))
		goto out;
	t->th.ops->refill(t->th.m, 1);
	EXPECT_EQ(rxb_corec_scan(t->th.m, 1, 64, &b), 1);
	EXPECT_EQ(b.id, stale.id + 64);
	EXPECT_EQ(b.id & 63, stale.id & 63);
	EXPECT(!rxb_corec_claim(t->th.m, 0, &stale));
	EXPECT_EQ(xstat(t, "rx0_corec_cas_fails"), 1);
	/* The packet goes to a fresh claim, once. */
	EXPECT_EQ(rx(t, 0, 64), 1);
	EXPECT_EQ(rx(t, 1, 64), 0);
out:
	if (t)
		ct_destroy(t);
}

/*
 * Batches finishing out of order: the tail waits for the earlier one
 * (transparency, section 3.4.2), the hold is counted and timed, then one
 * doorbell returns both.
 */
static void test_out_of_order(const void *arg)
{
	struct ct *t = ct_create(2, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch a, b;
	u64 db0, db1;

	(void)arg;
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 1000000);
	if (!tx_n(t, 0, 64))
		goto out;
	if (!EXPECT(claim(t, 0, 8, &a)) || !EXPECT(claim(t, 1, 8, &b)))
		goto out;
	EXPECT_EQ(b.id, a.id + 8);
	db0 = QS(t, 0, doorbells);
	db1 = QS(t, 1, doorbells);
	take(t, 1, &b);
	rxb_corec_done(t->th.m, 1, &b);
	rxb_corec_tail(t->th.m, 1, &b);
	EXPECT_EQ(QS(t, 1, doorbells), db1);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 0);
	EXPECT_EQ(xstat(t, "ring0_tail_held"), 1);
	rxb_env_advance(t->th.env, 5000);
	EXPECT_EQ(xstat(t, "ring0_tail_held_ns"), 5000);	/* in progress */
	take(t, 0, &a);
	rxb_corec_done(t->th.m, 0, &a);
	rxb_corec_tail(t->th.m, 0, &a);
	EXPECT_EQ(QS(t, 0, doorbells), db0 + 1);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 1);
	EXPECT_EQ(xstat(t, "ring0_tail_held"), 1);
	EXPECT_EQ(xstat(t, "ring0_tail_held_ns"), 5000);
	EXPECT_EQ(xstat(t, "ring0_tail_held_max_ns"), 5000);
	/* Both batches' 16 descriptors went back at once. */
	t->next_rx[0] = 16;
	EXPECT(tx_n(t, 0, 16));
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT_EQ(rx(t, 0, 48), 48);
	EXPECT_EQ(rx(t, 1, 64), 16);
out:
	ct_destroy(t);
}

/*
 * Section 3.4.4: a consumer that claimed a batch and stalls holds the
 * tail.  The others consume the rest of the ring, then the NIC runs out
 * of descriptors and nothing is pending (no NAPI spin); when the stalled
 * consumer finishes, the whole ring returns at once.
 */
static void test_delayed_consumer(const void *arg)
{
	struct ct *t = ct_create(3, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch a;
	unsigned int i, drops = 0;

	(void)arg;
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 42);
	if (!tx_n(t, 2, 8) || !EXPECT(claim(t, 0, 8, &a)))
		goto out;
	take(t, 0, &a);
	t->next_rx[0] = 8;
	/* Consumers 1 and 2 keep going while the NIC sends. */
	for (i = 0; i < 200; i++) {
		if (tx(t, i % 3))
			drops++;
		if (i % 5 == 4) {
			rx(t, 1 + (i / 5) % 2, 4);
			rxb_env_advance(t->th.env, 100);
		}
	}
	while (rx(t, 1, 64))
		;
	EXPECT_EQ(t->next_tx[0], 64);
	EXPECT_EQ(t->next_rx[0], 64);
	EXPECT_EQ(drops, 200 - 56);
	EXPECT_EQ(xstat(t, "ring0_nobuf_drops"), drops);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 0);
	EXPECT_EQ(xstat(t, "ring0_tail_held"), 1);
	EXPECT(!pending(t, 0) && !pending(t, 1) && !pending(t, 2));
	rxb_env_advance(t->th.env, 1000000);
	rxb_corec_done(t->th.m, 0, &a);
	rxb_corec_tail(t->th.m, 0, &a);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 1);
	/* Held from consumer 1's first batch (before the clock moved). */
	EXPECT_EQ(xstat(t, "ring0_tail_held_ns"), 40 * 100 + 1000000);
	EXPECT_EQ(xstat(t, "ring0_tail_held_max_ns"), 40 * 100 + 1000000);
	EXPECT(tx_n(t, 1, 64));
	EXPECT_EQ(tx(t, 1), -ENOBUFS);
	EXPECT_EQ(rx(t, 2, 64), 64);
out:
	ct_destroy(t);
}

/*
 * A consumer marks its batch done and leaves without the tail (as after a
 * lost trylock): rx_pending reports the tail work, and the next poll by
 * any consumer returns the descriptors.
 */
static void test_done_without_tail(const void *arg)
{
	struct ct *t = ct_create(2, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch a;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 64) || !EXPECT(claim(t, 0, 64, &a)))
		goto out;
	take(t, 0, &a);
	rxb_corec_done(t->th.m, 0, &a);
	t->next_rx[0] = 64;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT(pending(t, 1));
	EXPECT(pending(t, 0));
	EXPECT_EQ(rx(t, 1, 64), 0);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 1);
	EXPECT(!pending(t, 0) && !pending(t, 1));
	EXPECT(tx_n(t, 1, 64));
out:
	ct_destroy(t);
}

/*
 * The lost-trylock race, forced: while consumer 0 holds the tail lock, its
 * clock read (ending a tail hold) runs consumer 2, which marks its batch
 * done and finds the lock taken.  Consumer 0's re-check after unlocking
 * must return consumer 2's batch too: nobody else will.
 */
static struct ct *recheck_t;
static const struct rxb_corec_batch *recheck_b;

static u64 recheck_now_ns(void *env)
{
	const struct rxb_corec_batch *b = recheck_b;

	if (b) {
		recheck_b = NULL;
		take(recheck_t, 2, b);
		rxb_corec_done(recheck_t->th.m, 2, b);
		rxb_corec_tail(recheck_t->th.m, 2, b);
	}
	return rxb_env_test_drv_ops.now_ns(env);
}

static void test_trylock_recheck(const void *arg)
{
	struct rxb_drv_ops ops = rxb_env_test_drv_ops;
	struct rxb_corec_batch a, b, c;
	struct ct *t = calloc(1, sizeof(*t));

	(void)arg;
	if (!t)
		abort();
	ops.now_ns = recheck_now_ns;
	if (!rxb_th_init(&t->th, "corec", 3, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t->th.drv_ops = &ops;
	t->group = 3;
	if (!rxb_th_start(&t->th))
		goto out;
	if (!tx_n(t, 0, 24) || !EXPECT(claim(t, 0, 8, &a)) ||
	    !EXPECT(claim(t, 1, 8, &b)) || !EXPECT(claim(t, 2, 8, &c)))
		goto out;
	take(t, 1, &b);
	rxb_corec_done(t->th.m, 1, &b);
	rxb_corec_tail(t->th.m, 1, &b);		/* a hold starts */
	EXPECT_EQ(xstat(t, "ring0_tail_held"), 1);
	take(t, 0, &a);
	rxb_corec_done(t->th.m, 0, &a);
	recheck_t = t;
	recheck_b = &c;
	rxb_corec_tail(t->th.m, 0, &a);		/* ends it: runs consumer 2 */
	EXPECT(!recheck_b, "consumer 2 did not run inside the lock");
	EXPECT_EQ(xstat(t, "rx2_corec_trylock_fails"), 1);
	EXPECT_EQ(xstat(t, "ring0_tail_advances"), 2);
	EXPECT_EQ(QS(t, 0, doorbells), 1 + 2);	/* create's, and two */
	EXPECT(!pending(t, 0) && !pending(t, 1) && !pending(t, 2));
	/* All 24 descriptors are back: the NIC takes a full ring again. */
	EXPECT(tx_n(t, 1, 64));
	EXPECT_EQ(tx(t, 1), -ENOBUFS);
out:
	recheck_b = NULL;
	ct_destroy(t);
}

/* The transaction ID wraps at 2^32 (section 3.4.3): nothing changes. */
static void test_id_wrap(const void *arg)
{
	struct ct *t = ct_create(2, 128, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch b;
	bool wrapped = false;
	unsigned int i;
	u32 last = ID0;

	(void)arg;
	if (!t)
		return;
	/* ID0 is 2^32 - 2^16 in this build: cross the wrap, then some. */
	EXPECT_EQ(ID0, 0xffff0000U);
	for (i = 0; i < 3000 && !ktap_failures(); i++) {
		unsigned int q = i % 2;

		if (!tx_n(t, 1 - q, 10 + i % 40))
			break;
		if (!claim(t, q, 1 + i % 64, &b))
			continue;
		EXPECT_EQ(b.id, last);
		wrapped |= b.id < ID0;
		take(t, q, &b);
		rxb_corec_done(t->th.m, q, &b);
		rxb_corec_tail(t->th.m, q, &b);
		last = b.id + b.n;
		while (claim(t, q, 64, &b)) {
			take(t, q, &b);
			rxb_corec_done(t->th.m, q, &b);
			rxb_corec_tail(t->th.m, q, &b);
			last = b.id + b.n;
		}
	}
	ktap_diag("%llu frames, last ID %#x", (unsigned long long)t->next_tx[0], last);
	EXPECT(wrapped, "the ID did not wrap");
	EXPECT_EQ(last, (u32)(ID0 + t->next_tx[0]));
	EXPECT(t->next_tx[0] > 65536 + 1000);
	EXPECT(!pending(t, 0));
	ct_destroy(t);
}

/* Interrupt policies: round-robin over the group's consumers, or all. */
static void test_irq_policy(const void *arg)
{
	static const unsigned int rr[] = { 2, 3, 2, 3, 2 };
	struct ct *t = ct_create(4, 64, 2, RXB_COREC_IRQ_RR);
	unsigned int i, q;

	(void)arg;
	if (!t)
		return;
	for (i = 0; i < ARRAY_SIZE(rr); i++) {
		u64 before[4];

		for (q = 0; q < 4; q++)
			before[q] = rxb_env_irqs(t->th.env, q);
		if (!EXPECT_EQ(tx(t, 3 - i % 2), 0))
			break;
		for (q = 0; q < 4; q++)
			EXPECT_EQ(rxb_env_irqs(t->th.env, q) - before[q], q == rr[i]);
	}
	/* The other group's consumers hear nothing. */
	EXPECT_EQ(rxb_env_irqs(t->th.env, 0) + rxb_env_irqs(t->th.env, 1), 0);
	ct_destroy(t);

	t = ct_create(4, 64, 2, RXB_COREC_IRQ_ALL);
	if (!t)
		return;
	if (tx_n(t, 0, 64)) {
		EXPECT_EQ(tx(t, 1), -ENOBUFS);
		for (q = 0; q < 4; q++)
			EXPECT_EQ(rxb_env_irqs(t->th.env, q), q < 2 ? 64 : 0);
	}
	ct_destroy(t);
}

/*
 * One pool per shared queue (the paper's one mempool per queue): every
 * buffer comes from the group's first queue's pool whichever consumer
 * posts it (the environment checks pool_q against the buffer's real
 * pool), and a consumer's dropped buffers go back to its stash, so the
 * buffers in circulation stay one ring and a stash per consumer however
 * the consumers share the completions.
 */
static void test_shared_pool(const void *arg)
{
	struct ct *t = ct_create(2, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_env_qstats before;
	unsigned int i, round;
	int n;

	(void)arg;
	if (!t)
		return;
	before = rxb_env_qstats(t->th.env, 0);
	for (round = 0; round < 8; round++) {
		/* Consumer 1 takes three rounds in four, consumer 0 one. */
		unsigned int q = round % 4 ? 1 : 0;

		if (!tx_n(t, 0, 64))
			goto out;
		n = rxb_model_poll(t->th.m, q, t->pkts, 64);
		if (!EXPECT_EQ(n, 64))
			goto out;
		for (i = 0; i < 64; i++) {
			EXPECT_EQ(t->pkts[i].pool_q, 0);
			EXPECT(rxb_env_pkt_take(t->th.env, q, &t->pkts[i]));
			EXPECT(rxb_env_pkt_drop(t->th.env, t->th.m, q,
						&t->pkts[i]));
		}
		t->next_rx[0] += 64;
		EXPECT_EQ(rxb_env_posted(t->th.env, 0),
			  64 + 2 * RXB_COREC_BATCH);
		EXPECT_EQ(rxb_env_posted(t->th.env, 1), 0);
	}
	/* Every slot was reposted from a stash the drops refilled: no
	 * buffer was allocated or returned to the pool.
	 */
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).allocs, before.allocs);
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).puts, before.puts);
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).recycles - before.recycles,
		  8 * 64);
	/* A refill topped the stash up before the drop: full, it refuses
	 * the buffer, which goes back to the pool.
	 */
	if (tx_n(t, 0, 1) &&
	    EXPECT_EQ(rxb_model_poll(t->th.m, 0, t->pkts, 64), 1) &&
	    EXPECT(t->th.ops->refill(t->th.m, 0)) &&
	    EXPECT(rxb_env_pkt_take(t->th.env, 0, &t->pkts[0]))) {
		EXPECT(!rxb_env_pkt_drop(t->th.env, t->th.m, 0, &t->pkts[0]));
		EXPECT_EQ(rxb_env_qstats(t->th.env, 0).puts, before.puts + 1);
	}
out:
	ct_destroy(t);
}

/*
 * The shared pool out of buffers: a consumer claims no more than its stash
 * holds, and none when it holds none; refill says so; the other consumer
 * carries on with its own stash; both go on once the pool has buffers.
 */
static void test_alloc_fail(const void *arg)
{
	struct ct *t = ct_create(2, 128, 0, RXB_COREC_IRQ_RR);

	(void)arg;
	if (!t)
		return;
	rxb_env_fail_allocs(t->th.env, 0, 0, 100000);
	if (!tx_n(t, 0, 100))
		goto out;
	EXPECT_EQ(rx(t, 0, 100), RXB_COREC_BATCH);
	EXPECT_EQ(rx(t, 0, 100), 0);
	EXPECT(!t->th.ops->refill(t->th.m, 0));
	EXPECT(QS(t, 0, alloc_fails) >= 2);
	EXPECT(pending(t, 0));
	EXPECT_EQ(rx(t, 1, 100), 100 - RXB_COREC_BATCH);
	rxb_env_fail_allocs(t->th.env, 0, 0, 0);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	if (tx_n(t, 1, 10))
		EXPECT_EQ(rx(t, 0, 100), 10);
out:
	ct_destroy(t);
}

/*
 * create ran out of buffers: the NIC gets the posted prefix only; the
 * consumers' refill posts the rest and the ring is whole again.
 */
static void test_create_short(const void *arg)
{
	struct rxb_th th;
	struct ct *t;
	unsigned int n = 0;

	(void)arg;
	t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	if (!rxb_th_init(&th, "corec", 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	/* The pool's 11th buffer fails: ring slot 10. */
	rxb_env_fail_allocs(th.env, 0, 10, 1);
	if (!rxb_th_start(&th))
		goto out;
	t->th = th;
	t->group = 2;
	EXPECT_EQ(QS(t, 0, alloc_fails), 1);
	while (!tx(t, 1))
		n++;
	EXPECT_EQ(n, 10);
	/* Consumer 1's poll posts the missing slot. */
	EXPECT_EQ(rx(t, 1, 64), 10);
	EXPECT_EQ(QS(t, 0, refills), 31);
	EXPECT_EQ(QS(t, 1, refills), 32 + 10 + 1);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	if (tx_n(t, 0, 64))
		EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT_EQ(rx(t, 0, 64), 64);
	ct_destroy(t);
	return;
out:
	rxb_th_destroy(&th);
	free(t);
}

/* destroy frees everything, even with batches claimed or not yet done. */
static void test_destroy_mid_batch(const void *arg)
{
	struct ct *t = ct_create(3, 64, 0, RXB_COREC_IRQ_RR);
	struct rxb_corec_batch a, b;

	(void)arg;
	if (!t)
		return;
	if (tx_n(t, 0, 40) && EXPECT(claim(t, 0, 10, &a)) &&
	    EXPECT(claim(t, 1, 10, &b)))
		take(t, 1, &b);
	/* a: claimed, buffers still in the ring; b: taken, not done. */
	EXPECT(rxb_env_outstanding(t->th.env, -1) > 0);
	ct_destroy(t);
}

/*
 * The boundary: a consumer's tail advance is two posted register writes
 * (cq_head, rx_tail) into the page of its group's first queue, whichever
 * consumer polls; nothing of the NIC's runs in the poll (its indices, its
 * counters and the vectors stay as they were, and no NIC entry point is
 * reached outside its context).  The NIC has no doorbell op: its doorbell
 * service only takes the marks, and it reads the registers when it takes
 * its next frame.
 */
static void test_doorbells_posted(const void *arg)
{
	struct ct *t = ct_create(4, 64, 2, RXB_COREC_IRQ_ALL);
	long bad0 = rxb_pair_ctx_violations(), kicks;
	const struct rxb_rxq_regs *regs;
	struct rxb_bar_global *g;
	struct rxb_hw_debug d0, d;
	u64 irqs[4], hw0;
	unsigned int q;

	(void)arg;
	if (!t)
		return;
	g = t->th.bar;
	/* Group 1 (queues 2 and 3): its registers are in queue 2's page. */
	regs = (const void *)((u8 *)t->th.bar + (1 + 2) * RXB_BAR_PAGE +
			      RXB_QPAGE_REGS);
	EXPECT(!rxb_env_doorbells_pending(t->th.env));
	if (!tx_n(t, 3, 64))
		goto out;
	EXPECT_EQ(tx(t, 2), -ENOBUFS);
	t->th.ops->nic_debug(t->th.m, 3, &d0);
	EXPECT_EQ(d0.taken, ID0 + 64);
	EXPECT_EQ(d0.cq_tail, ID0 + 64);
	EXPECT_EQ(d0.posted, 0);
	for (q = 0; q < 4; q++)
		irqs[q] = rxb_env_irqs(t->th.env, q);
	hw0 = QS(t, 2, hw_packets) + QS(t, 3, hw_packets);
	kicks = rxb_env_kicks(t->th.env);

	/* Consumer 3 takes the ring and gives it back. */
	EXPECT_EQ(rx(t, 3, 64), 64);
	EXPECT_EQ(xstat(t, "ring1_tail_advances"), 1);
	EXPECT(rxb_env_doorbells_pending(t->th.env));
	EXPECT_EQ(READ_ONCE(regs->cq_head), ID0 + 64);
	EXPECT_EQ(READ_ONCE(regs->rx_tail), ID0 + 128);
	EXPECT(test_bit(1 + 2, g->written), "queue 2's page not marked");
	EXPECT(!test_bit(1 + 3, g->written), "queue 3's page marked");
	EXPECT_EQ(rxb_env_kicks(t->th.env), kicks + 1);
	t->th.ops->nic_debug(t->th.m, 2, &d);
	EXPECT_EQ(d.taken, d0.taken);
	EXPECT_EQ(d.cq_tail, d0.cq_tail);
	EXPECT_EQ(d.posted, 64);
	for (q = 0; q < 4; q++)
		EXPECT_EQ(rxb_env_irqs(t->th.env, q), irqs[q]);
	EXPECT_EQ(QS(t, 2, hw_packets) + QS(t, 3, hw_packets), hw0);

	/* The doorbell service takes the marks and changes nothing else. */
	EXPECT(rxb_th_nic_run(&t->th));
	EXPECT(!rxb_env_doorbells_pending(t->th.env));
	EXPECT(!test_bit(1 + 2, g->written));
	t->th.ops->nic_debug(t->th.m, 3, &d);
	EXPECT_EQ(d.taken, d0.taken);
	EXPECT_EQ(d.cq_tail, d0.cq_tail);

	/* The next frame finds the descriptors and the CR room. */
	EXPECT_EQ(tx(t, 2), 0);
	t->th.ops->nic_debug(t->th.m, 2, &d);
	EXPECT_EQ(d.taken, d0.taken + 1);
	EXPECT_EQ(d.cq_tail, d0.cq_tail + 1);
	EXPECT_EQ(d.posted, 63);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 2), irqs[2] + 1);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 3), irqs[3] + 1);
	EXPECT_EQ(rx(t, 2, 64), 1);
	EXPECT_EQ(rxb_pair_ctx_violations(), bad0);
out:
	ct_destroy(t);
}

static void test_invalid_cfg(const void *arg)
{
	static const struct { unsigned int nq, consumers, policy; const char *msg; } bad[] = {
		{ 2, 3, 0, "corec_consumers exceeds the number of queues" },
		{ 1, 2, 0, "corec_consumers exceeds the number of queues" },
		{ 4, 0, RXB_COREC_IRQ_NPOLICIES, "unknown COREC interrupt policy" },
		{ 4, 2, 7, "unknown COREC interrupt policy" },
	};
	const struct rxb_model_ops *ops = rxb_model_find("corec");
	struct rxb_model_cfg cfg;
	struct rxb_env *env;
	const char *msg;
	unsigned int i;

	(void)arg;
	if (!EXPECT(ops))
		return;
	env = rxb_env_create(4, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct rxb_hw_model *hw;
		struct rxb_model *m;
		void *bar;
		int err;

		msg = NULL;
		rxb_env_model_cfg(env, &cfg, bad[i].nq, 64, 2048);
		cfg.corec_consumers = bad[i].consumers;
		cfg.corec_irq_policy = bad[i].policy;
		EXPECT_EQ(rxb_model_validate(ops, &cfg, &msg), -EINVAL);
		EXPECT(msg && !strcmp(msg, bad[i].msg), "case %u: \"%s\"", i,
		       msg ? msg : "(null)");
		/* Neither half is created. */
		err = rxb_env_models_create(env, ops, &cfg, &rxb_env_test_drv_ops,
					    &rxb_env_test_hw_ops, &m, &hw, &bar);
		if (!EXPECT_EQ(err, -EINVAL))
			rxb_env_models_destroy(env, m, hw, bar);
	}
	/* Valid edge cases, and the advice for one consumer per queue. */
	rxb_env_model_cfg(env, &cfg, 4, 64, 2048);
	cfg.corec_consumers = 4;
	EXPECT_EQ(rxb_model_validate(ops, &cfg, &msg), 0);
	EXPECT(!ops->advise(&cfg));
	cfg.corec_consumers = 1;
	EXPECT_EQ(rxb_model_validate(ops, &cfg, &msg), 0);
	EXPECT(ops->advise(&cfg));
	rxb_env_model_cfg(env, &cfg, 1, 64, 2048);
	EXPECT(ops->advise(&cfg));
	EXPECT_EQ(rxb_env_qstats(env, 0).alloc_calls, 0);
	rxb_env_destroy(env);
}

/* ---- multi-threaded: NIC threads and consumers on one shared queue ---- */

#define MT_MAXQ		8
#define MT_MAXP		2
#define MT_WATCHDOG_S	60.0

struct mt_cfg {
	const char *name;
	unsigned int nq, consumers, policy, ring, nproducers, budget;
	unsigned int slow_one_in;	/* phased polls pausing mid-batch */
	unsigned int share;		/* percent of the run's frames */
};

struct mt;

struct mt_consumer {
	struct mt *mt;
	pthread_t thr;
	unsigned int q;
	u64 packets, polls, slow;
	u64 poll_packets;		/* of packets, through ops->poll */
	u64 last_seq[MT_MAXP];		/* last seq + 1 per producer */
	u32 rnd;
	struct rxb_pkt pkts[RXB_COREC_BATCH * 2];
};

struct mt_producer {
	struct mt *mt;
	pthread_t thr;
	unsigned int id;
	u64 frames, retries;
	u8 frame[RXB_ENV_BUF_SIZE];
};

struct mt {
	const struct mt_cfg *cfg;
	struct rxb_th th;
	u64 frames;			/* per producer */
	unsigned long *got[MT_MAXP];	/* received bitmap by seq, atomic */
	u64 received;			/* atomic */
	u64 sent;			/* atomic */
	int stop;			/* atomic */
	long errors;			/* atomic */
	struct mt_producer prod[MT_MAXP];
	struct mt_consumer cons[MT_MAXQ];
};

#define mt_err(mt, fmt, ...) do {					\
	__atomic_add_fetch(&(mt)->errors, 1, __ATOMIC_RELAXED);	\
	ktap_fail_at(__FILE__, __LINE__, fmt, ##__VA_ARGS__);		\
} while (0)

static u32 xorshift(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void *mt_producer_fn(void *arg)
{
	struct mt_producer *p = arg;
	struct mt *mt = p->mt;
	u32 rnd = 0x9e3779b9u * (p->id + 1);
	u64 seq;

	for (seq = 0; seq < mt->frames; seq++) {
		unsigned int q = xorshift(&rnd) % mt->cfg->nq;
		struct rxb_tframe_id id = { .producer = p->id, .q = q, .seq = seq };
		struct rxb_frame f = { .data = p->frame, .len = 60 + seq % 200 };
		int ret;

		rxb_tframe_fill(p->frame, f.len, &id);
		/* Lossless: a NIC that holds the frame until a buffer frees. */
		while ((ret = rxb_env_nic_rx(mt->th.env, q, &f)) == -ENOBUFS) {
			p->retries++;
			sched_yield();
			if (__atomic_load_n(&mt->stop, __ATOMIC_ACQUIRE))
				return NULL;
		}
		if (ret) {
			mt_err(mt, "producer %u seq %llu: hw_rx %d", p->id,
			       (unsigned long long)seq, ret);
			break;
		}
		__atomic_add_fetch(&mt->sent, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void mt_consume(struct mt_consumer *c, const struct rxb_pkt *pkt)
{
	struct mt *mt = c->mt;
	struct rxb_tframe_id id;
	unsigned long bit;
	void *data;

	data = rxb_env_pkt_take(mt->th.env, c->q, pkt);
	if (!data)
		return;
	if (!rxb_tframe_check(data, pkt->len, &id) || id.producer >= MT_MAXP ||
	    id.seq >= mt->frames ||
	    id.q / (mt->cfg->consumers ?: mt->cfg->nq) !=
	    c->q / (mt->cfg->consumers ?: mt->cfg->nq)) {
		mt_err(mt, "q %u: bad packet (%u bytes)", c->q, pkt->len);
		goto put;
	}
	/* One consumer's claims go forward: its packets are in order. */
	if (id.seq < c->last_seq[id.producer])
		mt_err(mt, "q %u: producer %u seq %llu after %llu", c->q,
		       id.producer, (unsigned long long)id.seq,
		       (unsigned long long)c->last_seq[id.producer]);
	c->last_seq[id.producer] = id.seq + 1;
	bit = 1UL << (id.seq % BITS_PER_LONG);
	if (__atomic_fetch_or(&mt->got[id.producer][id.seq / BITS_PER_LONG], bit,
			      __ATOMIC_RELAXED) & bit)
		mt_err(mt, "q %u: producer %u seq %llu received twice", c->q,
		       id.producer, (unsigned long long)id.seq);
	c->packets++;
	__atomic_add_fetch(&mt->received, 1, __ATOMIC_RELAXED);
put:
	rxb_env_pkt_put(mt->th.env, pkt->cookie);
}

/* One poll: ops->poll, or the phases with a pause between claim and done. */
static int mt_poll(struct mt_consumer *c)
{
	struct mt *mt = c->mt;
	struct rxb_model *m = mt->th.m;
	struct rxb_corec_batch b;
	int n = 0, i;

	c->polls++;
	if (mt->cfg->slow_one_in && xorshift(&c->rnd) % mt->cfg->slow_one_in == 0) {
		c->slow++;
		mt->th.ops->refill(m, c->q);
		if (rxb_corec_scan(m, c->q, mt->cfg->budget, &b) &&
		    rxb_corec_claim(m, c->q, &b)) {
			rxb_corec_take(m, c->q, &b, c->pkts);
			/* Descheduled holding a batch: the tail waits. */
			if (xorshift(&c->rnd) % 4 == 0)
				usleep(50);
			else
				sched_yield();
			rxb_corec_done(m, c->q, &b);
			rxb_corec_tail(m, c->q, &b);
			n = b.n;
		} else {
			rxb_corec_tail(m, c->q, NULL);
		}
	} else {
		n = rxb_model_poll(m, c->q, c->pkts, mt->cfg->budget);
		if (n > 0)
			c->poll_packets += n;
	}
	if (n < 0 || n > (int)mt->cfg->budget) {
		mt_err(mt, "q %u: poll returned %d", c->q, n);
		return 0;
	}
	for (i = 0; i < n; i++)
		mt_consume(c, &c->pkts[i]);
	return n;
}

static void *mt_consumer_fn(void *arg)
{
	struct mt_consumer *c = arg;
	struct mt *mt = c->mt;

	while (!__atomic_load_n(&mt->stop, __ATOMIC_ACQUIRE)) {
		u64 seen;

		if (mt_poll(c) == (int)mt->cfg->budget)
			continue;
		/* As rxb_napi_poll(): refill, complete, re-arm, re-check. */
		if (!mt->th.ops->refill(mt->th.m, c->q))
			continue;
		seen = rxb_env_irqs(mt->th.env, c->q);
		if (mt->th.ops->rx_pending(mt->th.m, c->q))
			continue;
		rxb_env_wait_irq(mt->th.env, c->q, seen, &mt->stop);
	}
	return NULL;
}

static void mt_run(const void *arg)
{
	const struct mt_cfg *cfg = arg;
	u64 total = rxb_stress_frames(2000000) * cfg->share / 100, last = 0;
	struct mt *mt = calloc(1, sizeof(*mt));
	double last_change;
	unsigned int i;

	if (!mt)
		abort();
	mt->cfg = cfg;
	mt->frames = total / cfg->nproducers;
	if (!rxb_th_init(&mt->th, "corec", cfg->nq, cfg->ring, RXB_ENV_BUF_SIZE))
		goto out;
	mt->th.cfg.corec_consumers = cfg->consumers;
	mt->th.cfg.corec_irq_policy = cfg->policy;
	if (!rxb_th_start(&mt->th))
		goto out;
	for (i = 0; i < cfg->nproducers; i++) {
		mt->got[i] = calloc(BITS_TO_LONGS(mt->frames) + 1, sizeof(long));
		if (!mt->got[i])
			abort();
		mt->prod[i].mt = mt;
		mt->prod[i].id = i;
	}
	for (i = 0; i < cfg->nq; i++) {
		mt->cons[i].mt = mt;
		mt->cons[i].q = i;
		mt->cons[i].rnd = 0x2545f491u * (i + 1);
		if (pthread_create(&mt->cons[i].thr, NULL, mt_consumer_fn, &mt->cons[i]))
			abort();
	}
	for (i = 0; i < cfg->nproducers; i++)
		if (pthread_create(&mt->prod[i].thr, NULL, mt_producer_fn, &mt->prod[i]))
			abort();

	/* Watchdog: every frame must arrive, and something must move. */
	last_change = ktap_now();
	for (;;) {
		u64 got = __atomic_load_n(&mt->received, __ATOMIC_RELAXED);

		if (got >= mt->frames * cfg->nproducers ||
		    __atomic_load_n(&mt->errors, __ATOMIC_RELAXED))
			break;
		if (got + __atomic_load_n(&mt->sent, __ATOMIC_RELAXED) != last) {
			last = got + __atomic_load_n(&mt->sent, __ATOMIC_RELAXED);
			last_change = ktap_now();
		} else if (ktap_now() - last_change > MT_WATCHDOG_S) {
			ktap_fail_at(__FILE__, __LINE__,
				     "%s: stalled: sent %llu, received %llu; tail advances %llu",
				     cfg->name,
				     (unsigned long long)__atomic_load_n(&mt->sent,
									 __ATOMIC_RELAXED),
				     (unsigned long long)got,
				     (unsigned long long)READ_ONCE(mt->th.m->qstats[0].doorbells));
			fflush(stdout);
			_exit(1);
		}
		usleep(2000);
	}
	__atomic_store_n(&mt->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < cfg->nproducers; i++)
		pthread_join(mt->prod[i].thr, NULL);
	for (i = 0; i < cfg->nq; i++)
		pthread_join(mt->cons[i].thr, NULL);

	/* Exactly once: every frame of every producer, no more. */
	EXPECT_EQ(__atomic_load_n(&mt->received, __ATOMIC_RELAXED),
		  mt->frames * cfg->nproducers);
	for (i = 0; i < cfg->nproducers; i++) {
		u64 s;

		for (s = 0; s < mt->frames; s++)
			if (!(mt->got[i][s / BITS_PER_LONG] & (1UL << (s % BITS_PER_LONG)))) {
				mt_err(mt, "producer %u seq %llu never received", i,
				       (unsigned long long)s);
				break;
			}
	}
	/* Quiet: nothing pending, counters agree, every consumer worked. */
	{
		u64 pk = 0, hw = 0, claimed = 0, retries = 0;
		struct ct view = { .th = mt->th };

		for (i = 0; i < cfg->nq; i++) {
			struct rxb_qstats st;

			rxb_th_qstats(&mt->th, i, &st);
			EXPECT(!mt->th.ops->rx_pending(mt->th.m, i), "q %u pending", i);
			EXPECT_EQ(st.packets, mt->cons[i].poll_packets);
			pk += mt->cons[i].packets;
			hw += st.hw_packets;
			claimed += cx(&view, i, "claimed");
			ktap_diag("q%u: packets %llu polls %llu (slow %llu)", i,
				  (unsigned long long)mt->cons[i].packets,
				  (unsigned long long)mt->cons[i].polls,
				  (unsigned long long)mt->cons[i].slow);
			ktap_diag("q%u: batches %llu, fails: cas %llu trylock %llu", i,
				  (unsigned long long)cx(&view, i, "batches"),
				  (unsigned long long)cx(&view, i, "cas_fails"),
				  (unsigned long long)cx(&view, i, "trylock_fails"));
		}
		for (i = 0; i < cfg->nproducers; i++)
			retries += mt->prod[i].retries;
		EXPECT_EQ(pk, mt->frames * cfg->nproducers);
		EXPECT_EQ(hw, pk);
		EXPECT_EQ(claimed, pk);
		ktap_diag("%s: %llu frames, %llu NIC retries (ring dry)", cfg->name,
			  (unsigned long long)pk, (unsigned long long)retries);
		ktap_diag("tail: %llu advances, %llu held, %llu ns held (max %llu)",
			  (unsigned long long)xstat(&view, "ring0_tail_advances"),
			  (unsigned long long)xstat(&view, "ring0_tail_held"),
			  (unsigned long long)xstat(&view, "ring0_tail_held_ns"),
			  (unsigned long long)xstat(&view, "ring0_tail_held_max_ns"));
	}
out:
	for (i = 0; i < MT_MAXP; i++)
		free(mt->got[i]);
	rxb_th_destroy(&mt->th);
	free(mt);
}

static const struct mt_cfg mt_cfgs[] = {
	{ "mt_2c_rr", 2, 0, RXB_COREC_IRQ_RR, 256, 1, 64, 0, 200 },
	{ "mt_4c_all_small_ring", 4, 0, RXB_COREC_IRQ_ALL, 64, 1, 32, 0, 100 },
	{ "mt_3c_slow_holds", 3, 0, RXB_COREC_IRQ_RR, 128, 1, 16, 50, 50 },
	{ "mt_2x2c_2nic", 4, 2, RXB_COREC_IRQ_RR, 128, 2, 64, 200, 100 },
};

int main(void)
{
	static const struct ktap_case unit[] = {
		{ .name = "corec:create", .fn = test_create },
		{ .name = "corec:shared_fill_poll", .fn = test_shared_fill_poll },
		{ .name = "corec:cas_race", .fn = test_cas_race },
		{ .name = "corec:aba_epoch", .fn = test_aba_epoch },
		{ .name = "corec:out_of_order", .fn = test_out_of_order },
		{ .name = "corec:delayed_consumer", .fn = test_delayed_consumer },
		{ .name = "corec:done_without_tail", .fn = test_done_without_tail },
		{ .name = "corec:trylock_recheck", .fn = test_trylock_recheck },
		{ .name = "corec:id_wrap", .fn = test_id_wrap },
		{ .name = "corec:irq_policy", .fn = test_irq_policy },
		{ .name = "corec:shared_pool", .fn = test_shared_pool },
		{ .name = "corec:alloc_fail", .fn = test_alloc_fail },
		{ .name = "corec:create_short", .fn = test_create_short },
		{ .name = "corec:destroy_mid_batch", .fn = test_destroy_mid_batch },
		{ .name = "corec:doorbells_posted", .fn = test_doorbells_posted },
		{ .name = "corec:invalid_cfg", .fn = test_invalid_cfg },
	};
	struct ktap_case cases[ARRAY_SIZE(unit) + ARRAY_SIZE(mt_cfgs)];
	char names[ARRAY_SIZE(mt_cfgs)][64];
	unsigned int i;

	memcpy(cases, unit, sizeof(unit));
	for (i = 0; i < ARRAY_SIZE(mt_cfgs); i++) {
		snprintf(names[i], sizeof(names[i]), "corec:%s", mt_cfgs[i].name);
		cases[ARRAY_SIZE(unit) + i] = (struct ktap_case) {
			.name = names[i], .fn = mt_run, .arg = &mt_cfgs[i],
		};
	}
	return ktap_main(cases, ARRAY_SIZE(cases));
}
