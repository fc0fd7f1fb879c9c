// SPDX-License-Identifier: GPL-2.0
/*
 * Single-threaded tests of the privRing model (hw/models/privring.c and
 * drv/models/privring.c): exact counter values, ring-full behaviour,
 * ordering, generation-bit wrap, budgets, oversize frames, alloc failures,
 * teardown.  Model-independent
 * tests (bad configurations, -ENOMEM paths, thread stress) are in
 * test_models.c.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

#include "env.h"
#include "ktap.h"

#define MAXQ	16

/* A privring instance and the sequence numbers sent and expected per queue. */
struct pt {
	struct rxb_th th;
	u64 next_tx[MAXQ];
	u64 next_rx[MAXQ];
	u8 frame[RXB_ENV_BUF_SIZE + 64];
	struct rxb_pkt pkts[RXB_RING_MAX + 1];
};

static unsigned int tlen(u64 seq)
{
	return 60 + (seq * 37) % (RXB_ENV_BUF_SIZE - 59);	/* 60..2048 */
}

static u32 thash(u64 seq)
{
	return (u32)rxb_mix64(seq);
}

static u8 tflags(u64 seq)
{
	static const u8 f[] = { RXB_CQE_F_L4_HASH, RXB_CQE_F_L3_HASH, 0 };

	return f[seq % 3];
}

static struct pt *pt_create(unsigned int nq, unsigned int ring, unsigned int buf_len)
{
	struct pt *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	if (!rxb_th_create(&t->th, "privring", nq, ring, buf_len)) {
		rxb_th_destroy(&t->th);
		free(t);
		return NULL;
	}
	return t;
}

static void pt_destroy(struct pt *t)
{
	rxb_th_destroy(&t->th);
	free(t);
}

/* A qstats counter of @q, read as ethtool -S would. */
#define QS(t, q, f)	({ struct rxb_qstats _st;			\
			   rxb_th_qstats(&(t)->th, q, &_st); _st.f; })

/* Send the next frame of queue @q, @len bytes (0: tlen(seq)). */
static int tx_len(struct pt *t, unsigned int q, unsigned int len)
{
	u64 seq = t->next_tx[q];
	struct rxb_tframe_id id = { .producer = 0, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = t->frame, .len = len ? len : tlen(seq),
		.hash = thash(seq), .hash_flags = tflags(seq),
	};
	int ret;

	rxb_tframe_fill(t->frame, f.len, &id);
	ret = rxb_th_hw_rx(&t->th, q, &f);
	if (!ret)
		t->next_tx[q]++;
	return ret;
}

static int tx(struct pt *t, unsigned int q)
{
	return tx_len(t, q, 0);
}

/* Send @n frames to @q, expecting each to be accepted. */
static bool tx_n(struct pt *t, unsigned int q, unsigned int n)
{
	while (n--)
		if (!EXPECT_EQ(tx(t, q), 0))
			return false;
	return true;
}

/*
 * Poll @q with @budget; check every packet is the next expected frame, with
 * its length (@len, 0: tlen(seq)), hash and flags; return the buffers.
 */
static int rx_len(struct pt *t, unsigned int q, int budget, unsigned int len)
{
	int n = rxb_model_poll(t->th.m, q, t->pkts, budget), i;

	EXPECT(n >= 0 && n <= (budget > 0 ? budget : 0), "poll returned %d", n);
	for (i = 0; i < n; i++) {
		struct rxb_pkt *p = &t->pkts[i];
		u64 seq = t->next_rx[q]++;
		unsigned int want = len ? len : tlen(seq);
		struct rxb_tframe_id id;
		void *data = rxb_env_pkt_take(t->th.env, q, p);

		if (!data)
			continue;
		if (EXPECT(rxb_tframe_check(data, p->len, &id), "q %u seq %llu: bad content",
			   q, (unsigned long long)seq)) {
			EXPECT_EQ(id.q, q);
			EXPECT_EQ(id.seq, seq);
		}
		EXPECT_EQ(p->len, want);
		EXPECT_EQ(p->hash, thash(seq));
		if (rxb_env_csum_on(t->th.env)) {
			EXPECT_EQ(p->flags, tflags(seq) | RXB_CQE_F_CSUM);
			EXPECT_EQ(p->csum, rxb_env_csum(data, p->len));
		} else {
			EXPECT_EQ(p->flags, tflags(seq));
		}
		EXPECT_EQ(p->pool_q, q);
		rxb_env_pkt_put(t->th.env, p->cookie);
	}
	return n;
}

static int rx(struct pt *t, unsigned int q, int budget)
{
	return rx_len(t, q, budget, 0);
}

static bool pending(struct pt *t, unsigned int q)
{
	return t->th.ops->rx_pending(t->th.m, q);
}

/* create: every slot of every queue posted, with one doorbell. */
static void test_create_posts_all(const void *arg)
{
	struct pt *t = pt_create(2, 64, RXB_ENV_BUF_SIZE);
	unsigned int q;

	(void)arg;
	if (!t)
		return;
	for (q = 0; q < 2; q++) {
		EXPECT_EQ(QS(t, q, refills), 64);
		EXPECT_EQ(QS(t, q, doorbells), 1);
		EXPECT_EQ(QS(t, q, alloc_fails), 0);
		EXPECT_EQ(QS(t, q, polls), 0);
		EXPECT_EQ(QS(t, q, hw_packets), 0);
		EXPECT_EQ(rxb_env_posted(t->th.env, q), 64);
		EXPECT(!pending(t, q));
		/* Already full: refill reports so and rings no doorbell. */
		EXPECT(t->th.ops->refill(t->th.m, q));
		EXPECT_EQ(QS(t, q, refills), 64);
		EXPECT_EQ(QS(t, q, doorbells), 1);
	}
	EXPECT_EQ(t->th.m->cfg.ring_size, 64);
	EXPECT(t->th.m->ops == &rxb_privring_ops);
	pt_destroy(t);
}

/* Ring size frames fit, the next one is dropped; poll returns them in order. */
static void test_fill_drop_poll(const void *arg)
{
	struct pt *t = pt_create(2, 64, RXB_ENV_BUF_SIZE);
	u64 bytes = 0;
	int pass;

	(void)arg;
	if (!t)
		return;
	for (pass = 1; pass <= 3; pass++) {
		unsigned int i;

		for (i = 0; i < 64; i++)
			bytes += tlen(t->next_tx[0] + i);
		if (!tx_n(t, 0, 64))
			goto out;
		EXPECT_EQ(QS(t, 0, hw_packets), 64 * pass);
		EXPECT_EQ(rxb_env_irqs(t->th.env, 0), 64 * pass);
		EXPECT(pending(t, 0));
		EXPECT(!pending(t, 1));
		EXPECT_EQ(tx(t, 0), -ENOBUFS);
		EXPECT_EQ(QS(t, 0, nobuf_drops), pass);
		EXPECT_EQ(QS(t, 0, hw_packets), 64 * pass);
		EXPECT_EQ(QS(t, 0, ring_full_drops), 0);

		EXPECT_EQ(rx(t, 0, 128), 64);
		EXPECT(!pending(t, 0));
		EXPECT_EQ(QS(t, 0, packets), 64 * pass);
		EXPECT_EQ(QS(t, 0, bytes), bytes);
		EXPECT_EQ(QS(t, 0, hw_bytes), bytes);
		EXPECT_EQ(QS(t, 0, polls), 2 * pass - 1);
		EXPECT_EQ(QS(t, 0, refills), 64 + 64 * pass);
		EXPECT_EQ(QS(t, 0, doorbells), 1 + pass);
		EXPECT_EQ(rxb_env_posted(t->th.env, 0), 64);
		EXPECT_EQ(rxb_env_held(t->th.env, -1), 0);
		/* An empty poll: counted, no doorbell. */
		EXPECT_EQ(rx(t, 0, 128), 0);
		EXPECT_EQ(QS(t, 0, polls), 2 * pass);
		EXPECT_EQ(QS(t, 0, doorbells), 1 + pass);
	}
	/* Queue 1 saw none of it. */
	EXPECT_EQ(QS(t, 1, hw_packets), 0);
	EXPECT_EQ(QS(t, 1, nobuf_drops), 0);
	EXPECT_EQ(QS(t, 1, refills), 64);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 1), 0);
out:
	pt_destroy(t);
}

/* poll never returns more than its budget; budget 0 consumes nothing. */
static void test_poll_budget(const void *arg)
{
	struct pt *t = pt_create(1, 64, RXB_ENV_BUF_SIZE);
	int left = 50, polls = 0, doorbells = 1;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 50))
		goto out;
	EXPECT_EQ(rx(t, 0, 0), 0);
	polls++;
	EXPECT(pending(t, 0));
	EXPECT_EQ(QS(t, 0, doorbells), doorbells);
	while (left) {
		int n = rx(t, 0, 7);

		polls++;
		doorbells++;
		EXPECT_EQ(n, left < 7 ? left : 7);
		if (n <= 0)
			break;
		left -= n;
		EXPECT_EQ(QS(t, 0, refills), 64 + 50 - left);
		EXPECT_EQ(pending(t, 0), left > 0);
	}
	EXPECT_EQ(QS(t, 0, polls), polls);
	EXPECT_EQ(QS(t, 0, doorbells), doorbells);
	EXPECT_EQ(QS(t, 0, packets), 50);
out:
	pt_destroy(t);
}

/* 10 000 frames per queue in odd-sized batches: many generation wraps. */
static void test_generation_wrap(const void *arg)
{
	static const int budgets[] = { 64, 5, 13, 63, 1, 64 };
	struct pt *t = pt_create(2, 64, RXB_ENV_BUF_SIZE);
	unsigned int batch = 1, q, i = 0;

	(void)arg;
	if (!t)
		return;
	while (t->next_tx[1] < 10000) {
		for (q = 0; q < 2; q++) {
			unsigned int n = batch;
			int budget = budgets[i++ % ARRAY_SIZE(budgets)];

			if (t->next_tx[q] + n > 10000)
				n = 10000 - t->next_tx[q];
			if (!tx_n(t, q, n))
				goto out;
			while (t->next_rx[q] < t->next_tx[q])
				if (!EXPECT(rx(t, q, budget) > 0))
					break;
			EXPECT(!pending(t, q));
		}
		batch = batch >= 63 ? 1 : batch + 2;
	}
	for (q = 0; q < 2; q++) {
		EXPECT_EQ(t->next_rx[q], 10000);
		EXPECT_EQ(QS(t, q, hw_packets), 10000);
		EXPECT_EQ(QS(t, q, packets), 10000);
		EXPECT_EQ(QS(t, q, nobuf_drops), 0);
		EXPECT_EQ(QS(t, q, refills), 10000 + 64);
	}
out:
	pt_destroy(t);
}

/*
 * Random walk with an exact prediction: a frame is accepted iff fewer than
 * ring_size completions are unconsumed (poll refills what it consumes);
 * poll returns min(budget, unconsumed).  Consumption stops anywhere in the
 * ring, so generation boundaries are crossed mid-batch.
 */
static void test_random_walk(const void *arg)
{
	const unsigned int ring = 64, nq = 3;
	struct pt *t = pt_create(nq, ring, RXB_ENV_BUF_SIZE);
	u64 nobuf[3] = { 0 }, rng = 12345;
	int step;

	(void)arg;
	if (!t)
		return;
	for (step = 0; step < 6000 && !ktap_failures(); step++) {
		unsigned int q, k, r;

		rng = rxb_mix64(rng);
		q = rng % nq;
		r = (rng >> 8) % 100;
		k = (rng >> 16) % 80;
		if (r < 50) {
			while (k--) {
				bool room = t->next_tx[q] - t->next_rx[q] < ring;

				if (room) {
					EXPECT_EQ(tx(t, q), 0);
				} else {
					EXPECT_EQ(tx(t, q), -ENOBUFS);
					nobuf[q]++;
				}
			}
		} else {
			u64 unconsumed = t->next_tx[q] - t->next_rx[q];
			int budget = (int)k;

			EXPECT_EQ(rx(t, q, budget), unconsumed < k ? unconsumed : k);
		}
		EXPECT_EQ(pending(t, q), t->next_tx[q] != t->next_rx[q]);
	}
	for (unsigned int q = 0; q < nq; q++) {
		EXPECT_EQ(QS(t, q, nobuf_drops), nobuf[q]);
		EXPECT_EQ(QS(t, q, hw_packets), t->next_tx[q]);
		EXPECT_EQ(QS(t, q, packets), t->next_rx[q]);
		EXPECT(t->next_tx[q] > 10 * ring, "only %llu frames",
		       (unsigned long long)t->next_tx[q]);
	}
	pt_destroy(t);
}

/* A frame longer than buf_len is dropped and leaves the buffer posted. */
static void test_oversize(const void *arg)
{
	struct pt *t = pt_create(1, 64, 1000);

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(tx_len(t, 0, 1001), -EMSGSIZE);
	EXPECT_EQ(QS(t, 0, oversize_drops), 1);
	EXPECT_EQ(QS(t, 0, hw_packets), 0);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 0), 0);
	EXPECT(!pending(t, 0));
	EXPECT_EQ(tx_len(t, 0, 1000), 0);
	EXPECT_EQ(tx_len(t, 0, 60), 0);
	EXPECT_EQ(tx_len(t, 0, 2048), -EMSGSIZE);
	EXPECT_EQ(QS(t, 0, oversize_drops), 2);
	EXPECT_EQ(rx_len(t, 0, 1, 1000), 1);
	EXPECT_EQ(rx_len(t, 0, 1, 60), 1);
	EXPECT(!pending(t, 0));
	EXPECT_EQ(QS(t, 0, hw_bytes), 1060);
	pt_destroy(t);

	/* buf_len == buffer size: the boundary is exact. */
	t = pt_create(1, 64, RXB_ENV_BUF_SIZE);
	if (!t)
		return;
	EXPECT_EQ(tx_len(t, 0, RXB_ENV_BUF_SIZE + 1), -EMSGSIZE);
	EXPECT_EQ(tx_len(t, 0, RXB_ENV_BUF_SIZE), 0);
	EXPECT_EQ(rx_len(t, 0, 64, RXB_ENV_BUF_SIZE), 1);
	EXPECT_EQ(QS(t, 0, oversize_drops), 1);
	pt_destroy(t);
}

/* rx_pending: per queue, true exactly while a completion is unconsumed. */
static void test_rx_pending(const void *arg)
{
	struct pt *t = pt_create(4, 64, RXB_ENV_BUF_SIZE);
	unsigned int q;

	(void)arg;
	if (!t)
		return;
	for (q = 0; q < 4; q++)
		EXPECT(!pending(t, q));
	EXPECT_EQ(tx(t, 2), 0);
	for (q = 0; q < 4; q++)
		EXPECT_EQ(pending(t, q), q == 2);
	EXPECT_EQ(rx(t, 2, 0), 0);
	EXPECT(pending(t, 2));
	EXPECT_EQ(tx(t, 2), 0);
	EXPECT_EQ(rx(t, 2, 1), 1);
	EXPECT(pending(t, 2));
	EXPECT_EQ(rx(t, 2, 1), 1);
	EXPECT(!pending(t, 2));
	EXPECT_EQ(rx(t, 2, 64), 0);
	EXPECT(!pending(t, 2));
	pt_destroy(t);
}

/* Every queue is independent. */
static void test_queue_isolation(const void *arg)
{
	struct pt *t = pt_create(MAXQ, 64, RXB_ENV_BUF_SIZE);
	unsigned int q;

	(void)arg;
	if (!t)
		return;
	for (q = 0; q < MAXQ; q++)
		if (!tx_n(t, q, 3 * q + 1))
			goto out;
	for (q = 0; q < MAXQ; q++) {
		EXPECT_EQ(QS(t, q, hw_packets), 3 * q + 1);
		EXPECT_EQ(rxb_env_irqs(t->th.env, q), 3 * q + 1);
		EXPECT(pending(t, q));
	}
	for (q = MAXQ; q-- > 0;) {
		EXPECT_EQ(rx(t, q, 64), 3 * q + 1);
		EXPECT(!pending(t, q));
	}
out:
	pt_destroy(t);
}

/* alloc_buf failures: counted, the ring is topped up later. */
static void test_alloc_fail(const void *arg)
{
	struct pt *t = calloc(1, sizeof(*t));
	const struct rxb_model_ops *ops;
	struct rxb_model *m;

	(void)arg;
	if (!t)
		return;
	/* Fail the 11th allocation of q0 during create. */
	if (!rxb_th_init(&t->th, "privring", 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	rxb_env_fail_allocs(t->th.env, 0, 10, 1);
	if (!rxb_th_start(&t->th))
		goto out;
	ops = t->th.ops;
	m = t->th.m;
	EXPECT_EQ(QS(t, 0, refills), 10);
	EXPECT_EQ(QS(t, 0, alloc_fails), 1);
	EXPECT_EQ(QS(t, 0, doorbells), 1);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 10);
	EXPECT_EQ(QS(t, 1, refills), 64);
	EXPECT_EQ(QS(t, 1, alloc_fails), 0);
	if (!tx_n(t, 0, 10))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT_EQ(rx(t, 0, 64), 10);
	EXPECT_EQ(QS(t, 0, refills), 74);
	EXPECT_EQ(QS(t, 0, doorbells), 2);
	if (!tx_n(t, 0, 64))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);

	/* Fail the next 3 allocations: poll consumes but cannot refill. */
	rxb_env_fail_allocs(t->th.env, 0, 0, 3);
	EXPECT_EQ(rx(t, 0, 64), 64);
	EXPECT_EQ(QS(t, 0, alloc_fails), 2);
	EXPECT_EQ(QS(t, 0, refills), 74);
	EXPECT_EQ(QS(t, 0, doorbells), 2);
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT(!ops->refill(m, 0));
	EXPECT_EQ(QS(t, 0, alloc_fails), 3);
	EXPECT_EQ(rx(t, 0, 64), 0);		/* poll refills, now failing */
	EXPECT_EQ(QS(t, 0, alloc_fails), 4);
	EXPECT(ops->refill(m, 0));		/* injection exhausted */
	EXPECT_EQ(QS(t, 0, refills), 74 + 64);
	EXPECT_EQ(QS(t, 0, doorbells), 3);
	if (!tx_n(t, 0, 64))
		goto out;

	/* Fail in the middle of a refill: a partial post, then the rest. */
	rxb_env_fail_allocs(t->th.env, 0, 20, 1);
	EXPECT_EQ(rx(t, 0, 64), 64);
	EXPECT_EQ(QS(t, 0, refills), 74 + 64 + 20);
	EXPECT_EQ(QS(t, 0, alloc_fails), 5);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 20);
	if (!tx_n(t, 0, 20))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT(ops->refill(m, 0));
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 64);
	if (!tx_n(t, 0, 44))
		goto out;
	EXPECT_EQ(rx(t, 0, 128), 64);
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).injected_fails, 5);
out:
	pt_destroy(t);
}

/* destroy returns every buffer the rings hold, filled or not. */
static void test_destroy_frees_all(const void *arg)
{
	struct pt *t = pt_create(2, 64, RXB_ENV_BUF_SIZE);
	struct rxb_pkt held[5];
	void *data[5];
	int i, n;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 30))
		goto out;
	if (!tx_n(t, 1, 10))
		goto out;
	/* Take 5 packets and keep them, as the stack would. */
	n = rxb_model_poll(t->th.m, 0, held, 5);
	if (!EXPECT_EQ(n, 5))
		goto out;
	for (i = 0; i < n; i++)
		data[i] = rxb_env_pkt_take(t->th.env, 0, &held[i]);
	rxb_model_destroy(t->th.m);
	t->th.m = NULL;
	EXPECT_EQ(rxb_env_posted(t->th.env, -1), 0);
	EXPECT_EQ(rxb_env_held(t->th.env, -1), 5);
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).frees, 64);
	EXPECT_EQ(rxb_env_qstats(t->th.env, 1).frees, 64);
	for (i = 0; i < n; i++)
		if (data[i])
			rxb_env_pkt_put(t->th.env, held[i].cookie);
out:
	pt_destroy(t);
}

/*
 * destroy after polls that could not refill: the consumed slots hold no
 * buffer any more, and destroy must not free them again.
 */
static void test_destroy_after_alloc_fail(const void *arg)
{
	struct pt *t = pt_create(1, 64, RXB_ENV_BUF_SIZE);

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 10))
		goto out;
	rxb_env_fail_allocs(t->th.env, 0, 0, 1000);
	EXPECT_EQ(rx(t, 0, 64), 10);
	EXPECT_EQ(QS(t, 0, alloc_fails), 1);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 54);
	rxb_model_destroy(t->th.m);
	t->th.m = NULL;
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).frees, 54);
out:
	pt_destroy(t);
}

/* The largest ring: 3 full passes. */
static void test_big_ring(const void *arg)
{
	struct pt *t = pt_create(1, RXB_RING_MAX, RXB_ENV_BUF_SIZE);
	int pass;

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(QS(t, 0, refills), RXB_RING_MAX);
	for (pass = 1; pass <= 3; pass++) {
		if (!tx_n(t, 0, RXB_RING_MAX))
			goto out;
		EXPECT_EQ(tx(t, 0), -ENOBUFS);
		while (t->next_rx[0] < t->next_tx[0])
			if (!EXPECT(rx(t, 0, 100) > 0))
				break;
		EXPECT(!pending(t, 0));
		EXPECT_EQ(QS(t, 0, hw_packets), pass * RXB_RING_MAX);
		EXPECT_EQ(QS(t, 0, refills), (pass + 1) * RXB_RING_MAX);
	}
out:
	pt_destroy(t);
}

/*
 * queue_reset (a single-queue restart): queue 0's buffers, posted or
 * written and unconsumed, all go back to its pool; queue 1 is untouched;
 * after a refill queue 0 starts over: a full ring, frames in order.
 */
static void test_queue_reset(const void *arg)
{
	struct pt *t = pt_create(2, 64, RXB_ENV_BUF_SIZE);
	long posted1, out1;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 40) || !tx_n(t, 1, 10))
		goto out;
	EXPECT_EQ(rx(t, 0, 10), 10);
	posted1 = rxb_env_posted(t->th.env, 1);
	out1 = rxb_env_outstanding(t->th.env, 1);
	rxb_th_queue_reset(&t->th, 0);
	EXPECT_EQ(rxb_env_outstanding(t->th.env, 0), 0);
	EXPECT(!pending(t, 0));
	EXPECT(pending(t, 1));
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), posted1);
	EXPECT_EQ(rxb_env_outstanding(t->th.env, 1), out1);
	/* No buffer: the NIC drops until the driver refills. */
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 64);
	/* The 30 written and unconsumed frames are gone. */
	t->next_rx[0] = t->next_tx[0];
	if (!tx_n(t, 0, 64))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	while (t->next_rx[0] < t->next_tx[0])
		if (!EXPECT(rx(t, 0, 64) > 0))
			break;
	EXPECT(!pending(t, 0));
	EXPECT_EQ(rx(t, 1, 64), 10);
	EXPECT_EQ(QS(t, 0, hw_packets), 40 + 64);
out:
	pt_destroy(t);
}

static const struct ktap_case cases[] = {
	{ .name = "privring:create_posts_all", .fn = test_create_posts_all },
	{ .name = "privring:fill_drop_poll", .fn = test_fill_drop_poll },
	{ .name = "privring:poll_budget", .fn = test_poll_budget },
	{ .name = "privring:generation_wrap", .fn = test_generation_wrap },
	{ .name = "privring:random_walk", .fn = test_random_walk },
	{ .name = "privring:oversize", .fn = test_oversize },
	{ .name = "privring:rx_pending", .fn = test_rx_pending },
	{ .name = "privring:queue_isolation", .fn = test_queue_isolation },
	{ .name = "privring:alloc_fail", .fn = test_alloc_fail },
	{ .name = "privring:destroy_frees_all", .fn = test_destroy_frees_all },
	{ .name = "privring:destroy_after_alloc_fail", .fn = test_destroy_after_alloc_fail },
	{ .name = "privring:big_ring", .fn = test_big_ring },
	{ .name = "privring:queue_reset", .fn = test_queue_reset },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
