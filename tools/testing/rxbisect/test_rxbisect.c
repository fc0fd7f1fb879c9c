// SPDX-License-Identifier: GPL-2.0
/*
 * Single-threaded tests of the rxBisect core (model_rxbisect.c): combined
 * entries, borrowing from another Ax ring and the lender's notification,
 * notification compression (held until the Bx ring's next packet, the
 * timer or 64 held), association groups, and the report order the driver
 * relies on.  Model-independent tests (bad configurations, -ENOMEM paths,
 * thread stress with small Ax rings) are in test_models.c.
 *
 * rxbisect_poll() WARNs when a notification is not for the next Ax slot,
 * and a WARN fails the case, so every poll here also checks the order.
 */
#include <stdlib.h>

#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

#include "env.h"
#include "ktap.h"

#define MAXQ	4
#define AX	64	/* Ax ring size in every case */
#define FOREVER	1000000	/* failures: more allocations than any case makes */

struct bt {
	struct rxb_th th;
	u64 next_tx[MAXQ];
	u64 next_rx[MAXQ];
	u8 frame[RXB_ENV_BUF_SIZE];
	struct rxb_pkt pkts[RXB_RING_MAX];
	u16 pool[RXB_RING_MAX];	/* pool_q of the last rx() */
};

/* @nq queues, Bx rings of @bx entries, Ax rings of AX entries. */
static struct bt *bt_create(unsigned int nq, unsigned int bx, bool compress,
			    unsigned int assoc)
{
	struct bt *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	if (rxb_th_init(&t->th, "rxbisect", nq, bx, RXB_ENV_BUF_SIZE)) {
		t->th.cfg.ax_ring_size = AX;
		t->th.cfg.notif_compress = compress;
		t->th.cfg.ax_assoc = assoc;
		/* The timer fires only when a case runs it. */
		rxb_env_fake_clock(t->th.env, 1000);
		if (rxb_th_start(&t->th))
			return t;
	}
	rxb_th_destroy(&t->th);
	free(t);
	return NULL;
}

static void bt_destroy(struct bt *t)
{
	rxb_th_destroy(&t->th);
	free(t);
}

#define QS(t, q, f)	READ_ONCE((t)->th.m->qstats[q].f)

/* An rxBisect counter by name (rxN_borrowed, ...). */
static u64 xs(struct bt *t, const char *name)
{
	return rxb_th_xstat(&t->th, name);
}

static unsigned int tlen(unsigned int q, u64 seq)
{
	return 60 + (seq * 37 + q * 101) % 1400;
}

/* Send the next frame of queue @q; 0 or the drop cause. */
static int tx(struct bt *t, unsigned int q)
{
	u64 seq = t->next_tx[q];
	struct rxb_tframe_id id = { .producer = 0, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = t->frame, .len = tlen(q, seq), .hash = (u32)seq,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};
	int ret;

	rxb_tframe_fill(t->frame, f.len, &id);
	ret = t->th.ops->hw_rx(t->th.m, q, &f);
	if (!ret)
		t->next_tx[q]++;
	return ret;
}

static bool tx_n(struct bt *t, unsigned int q, unsigned int n)
{
	while (n--)
		if (!EXPECT_EQ(tx(t, q), 0))
			return false;
	return true;
}

/*
 * Poll @q once with @budget: every packet is the next frame sent to @q,
 * intact; pool queues go to t->pool[]; buffers go back to their pools.
 */
static int rx(struct bt *t, unsigned int q, int budget)
{
	int n = t->th.ops->poll(t->th.m, q, t->pkts, budget), i;

	EXPECT(n >= 0 && n <= budget, "poll returned %d", n);
	for (i = 0; i < n; i++) {
		struct rxb_pkt *p = &t->pkts[i];
		u64 seq = t->next_rx[q]++;
		struct rxb_tframe_id id;
		void *data = rxb_env_pkt_take(t->th.env, q, p);

		t->pool[i] = p->pool_q;
		if (!data)
			continue;
		if (EXPECT(rxb_tframe_check(data, p->len, &id),
			   "q %u seq %llu: bad content", q,
			   (unsigned long long)seq)) {
			EXPECT_EQ(id.q, q);
			EXPECT_EQ(id.seq, seq);
		}
		EXPECT_EQ(p->len, tlen(q, seq));
		rxb_env_pkt_put(t->th.env, p->cookie);
	}
	return n;
}

/* Poll @q until its Bx ring is empty; the number of packets. */
static int rx_all(struct bt *t, unsigned int q)
{
	int n, total = 0;

	do {
		n = rx(t, q, 64);
		total += n;
	} while (n > 0 || t->th.ops->rx_pending(t->th.m, q));
	return total;
}

/*
 * Leave Ax @q empty and Bx @q empty: its pool fails every allocation from
 * now on, and its own posted buffers are received and not replaced.
 */
static bool empty_ax(struct bt *t, unsigned int q)
{
	rxb_env_fail_allocs(t->th.env, q, 0, FOREVER);
	if (!tx_n(t, q, AX))
		return false;
	return EXPECT_EQ(rx_all(t, q), AX) && EXPECT_EQ(rxb_env_posted(t->th.env, q), 0);
}

static void pool_ok(struct bt *t, unsigned int q)
{
	rxb_env_fail_allocs(t->th.env, q, 0, 0);
}

/* A buffer from the linked Ax ring: one combined entry, no notification. */
static void test_combined(const void *arg)
{
	struct bt *t = bt_create(2, 128, true, 0);

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX);
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), AX);
	if (!tx_n(t, 0, 40))
		goto out;
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 40);
	EXPECT_EQ(rx_all(t, 0), 40);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 0);
	EXPECT_EQ(xs(t, "rx0_borrowed"), 0);
	EXPECT_EQ(QS(t, 0, refills), AX + 40);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX);
	EXPECT(!rxb_env_timer_pending(t->th.env));
out:
	bt_destroy(t);
}

/*
 * Ax 1 empty: a packet for Bx 1 takes Ax 0's buffer, and Bx 0 gets a
 * notification-only entry at once (compression off), which makes its
 * driver repost the slot.
 */
static void test_borrow_notify(const void *arg)
{
	struct bt *t = bt_create(2, 128, false, 0);
	u64 irqs0;

	(void)arg;
	if (!t || !empty_ax(t, 1))
		goto out;
	irqs0 = rxb_env_irqs(t->th.env, 0);
	if (!tx_n(t, 1, 3))
		goto out;
	EXPECT_EQ(xs(t, "rx1_borrowed"), 3);
	EXPECT_EQ(xs(t, "rx0_lent"), 3);
	EXPECT_EQ(xs(t, "rx1_ax_empty"), 3);
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 3);
	EXPECT_EQ(xs(t, "rx0_notif_compressed"), 0);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 0), irqs0 + 3);
	EXPECT_EQ(rx(t, 1, 64), 3);
	EXPECT(t->pool[0] == 0 && t->pool[1] == 0 && t->pool[2] == 0,
	       "borrowed buffers belong to pool 0");
	/* Bx 0: three notifications, no packet; Ax 0 is full again. */
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 3);
	EXPECT_EQ(rx_all(t, 0), 0);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX);
	/* Both empty: dropped for want of a buffer. */
	if (!empty_ax(t, 0))
		goto out;
	EXPECT_EQ(tx(t, 1), -ENOBUFS);
	EXPECT_EQ(QS(t, 1, nobuf_drops), 1);
	pool_ok(t, 0);
	pool_ok(t, 1);
	t->th.ops->refill(t->th.m, 0);
	t->th.ops->refill(t->th.m, 1);
	EXPECT_EQ(tx(t, 1), 0);
	EXPECT_EQ(rx_all(t, 1), 1);
out:
	if (t)
		bt_destroy(t);
}

/* Compression: held until the timer, or the lender's next packet entry. */
static void test_compress(const void *arg)
{
	struct bt *t = bt_create(2, 128, true, 0);

	(void)arg;
	if (!t || !empty_ax(t, 1) || !tx_n(t, 1, 2))
		goto out;
	EXPECT_EQ(xs(t, "rx0_lent"), 2);
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 0);
	EXPECT(rxb_env_timer_pending(t->th.env));
	EXPECT(!t->th.ops->rx_pending(t->th.m, 0));
	EXPECT(rxb_env_run_timer(t->th.env));
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 2);
	EXPECT_EQ(xs(t, "rx0_notif_compressed"), 2);
	EXPECT(!rxb_env_timer_pending(t->th.env));
	EXPECT_EQ(rx_all(t, 0), 0);

	/* Held again; Bx 0's own packet writes the notification first. */
	if (!tx_n(t, 1, 1) || !tx_n(t, 0, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 3);
	EXPECT_EQ(rx_all(t, 0), 1);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	EXPECT_EQ(rx_all(t, 1), 3);
	/* The timer finds nothing held. */
	if (rxb_env_timer_pending(t->th.env))
		rxb_env_run_timer(t->th.env);
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 3);
out:
	if (t)
		bt_destroy(t);
}

/* 64 held notifications are written without waiting for the timer. */
static void test_held_max(const void *arg)
{
	struct bt *t = bt_create(2, 64, true, 0);
	unsigned int i;

	(void)arg;
	if (!t || !empty_ax(t, 1))
		goto out;
	for (i = 0; i < 63; i++)
		if (!tx_n(t, 1, 1) || !EXPECT_EQ(rx(t, 1, 1), 1))
			goto out;
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 0);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 63);
	if (!tx_n(t, 1, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 64);
	EXPECT_EQ(rx_all(t, 1), 1);
	EXPECT_EQ(rx_all(t, 0), 0);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX);
out:
	if (t)
		bt_destroy(t);
}

/* ax_assoc 2: queues 0-1 and 2-3 never borrow from each other. */
static void test_assoc(const void *arg)
{
	struct bt *t = bt_create(4, 64, false, 2);

	(void)arg;
	if (!t || !empty_ax(t, 3) || !tx_n(t, 3, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx2_lent"), 1);
	EXPECT_EQ(rx_all(t, 3), 1);
	EXPECT_EQ(rx_all(t, 2), 0);
	if (!empty_ax(t, 2))
		goto out;
	/* Ax 0 and 1 are full, but not associated with Bx 3. */
	EXPECT_EQ(tx(t, 3), -ENOBUFS);
	EXPECT_EQ(QS(t, 3, nobuf_drops), 1);
	EXPECT_EQ(xs(t, "rx0_lent") + xs(t, "rx1_lent"), 0);
	/* Bx 1 still borrows from Ax 0. */
	if (!empty_ax(t, 1) || !tx_n(t, 1, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx0_lent"), 1);
	EXPECT_EQ(rx_all(t, 1), 1);
	EXPECT_EQ(rx_all(t, 0), 0);
out:
	if (t)
		bt_destroy(t);
}

struct overtake {
	struct bt *t;
	int polled;
};

/* The driver of queue 0, on another core, takes one packet. */
static void overtake_poll(void *arg)
{
	struct overtake *o = arg;

	o->polled = rx(o->t, 0, 1);
}

/*
 * A notification held because Bx 0 was full goes out before anything
 * else is written to Bx 0, even if the driver frees room between the
 * NIC's flush and its room check.  Otherwise the driver sees Ax 0's next
 * slot reported first, reposts the wrong slot, and a buffer is lost.
 */
static void test_no_overtaking(const void *arg)
{
	struct bt *t = bt_create(2, 64, true, 0);
	struct overtake o = { .t = t };

	(void)arg;
	if (!t)
		return;
	/* Bx 0 full of packets in Ax 1's buffers, Ax 0 full again. */
	rxb_env_fail_allocs(t->th.env, 0, 0, FOREVER);
	if (!tx_n(t, 0, AX) || !EXPECT_EQ(rx_all(t, 0), AX) || !tx_n(t, 0, 64))
		goto out;
	EXPECT_EQ(xs(t, "rx0_borrowed"), 64);
	rxb_env_fail_allocs(t->th.env, 1, 0, FOREVER);
	EXPECT_EQ(rx_all(t, 1), 0);	/* 64 notifications, Ax 1 stays empty */
	pool_ok(t, 0);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	/* Bx 1 borrows from Ax 0: its notification is held, Bx 0 is full. */
	if (!tx_n(t, 1, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx0_lent"), 1);
	/* The flush finds Bx 0 full; then the driver makes room. */
	rxb_env_on_clock_read(t->th.env, overtake_poll, &o);
	EXPECT_EQ(tx(t, 0), -ENOSPC);
	if (!EXPECT_EQ(o.polled, 1))
		goto out;
	EXPECT_EQ(QS(t, 0, ring_full_drops), 1);
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 0);
	/* With room for both, the next packet writes the notification first. */
	if (!EXPECT_EQ(rx(t, 0, 1), 1) || !tx_n(t, 0, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 1);
	EXPECT_EQ(rx_all(t, 0), 63);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	EXPECT_EQ(rx_all(t, 1), 1);
	pool_ok(t, 1);
	t->th.ops->refill(t->th.m, 1);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX);
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), AX);
out:
	bt_destroy(t);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "rxbisect:combined", test_combined, NULL },
		{ "rxbisect:borrow_notify", test_borrow_notify, NULL },
		{ "rxbisect:compress", test_compress, NULL },
		{ "rxbisect:held_max", test_held_max, NULL },
		{ "rxbisect:assoc", test_assoc, NULL },
		{ "rxbisect:no_overtaking", test_no_overtaking, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
