// SPDX-License-Identifier: GPL-2.0
/*
 * Single-threaded tests of rxBisect (its NIC's half hw/models/rxbisect.c
 * and driver's half drv/models/rxbisect.c): combined entries, borrowing
 * from another Ax ring and the lender's notification, notification
 * compression (held until the Bx ring's next packet, the timer or 64
 * held), association groups and overlapping association sets
 * (ax_assoc_map), Ax rings linked to other queues or fewer Ax rings than
 * queues (ax_link), the random policy, the frame copy outside the NIC's
 * lock, the report order the driver relies on, posted doorbells, and
 * teardown with buffers in every state (by the handles the driver saved:
 * a umem buffer is never looked up by address); thread stress of those
 * configurations.  Model-independent tests (bad configurations, -ENOMEM
 * paths, thread stress with small Ax rings) are in test_models.c.
 *
 * rxbisect_poll() WARNs when a notification is not for the next Ax slot,
 * and a WARN fails the case, so every poll here also checks the order.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

#include "env.h"
#include "ktap.h"
#include "stress.h"

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

/*
 * @nq queues, Bx rings of @bx entries, Ax rings of AX entries, Ax rings
 * linked by @link and associated by @map ("": defaults), policy @policy;
 * the environment's services @drv_ops and @hw_ops (NULL: the defaults).
 */
static struct bt *bt_create_ops(unsigned int nq, unsigned int bx,
				bool compress, unsigned int assoc,
				const char *link, const char *map,
				unsigned int policy,
				const struct rxb_drv_ops *drv_ops,
				const struct rxb_hw_ops *hw_ops)
{
	struct bt *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	if (rxb_th_init(&t->th, "rxbisect", nq, bx, RXB_ENV_BUF_SIZE)) {
		t->th.cfg.ax_ring_size = AX;
		t->th.cfg.notif_compress = compress;
		t->th.cfg.ax_assoc = assoc;
		t->th.cfg.ax_policy = policy;
		strcpy(t->th.cfg.ax_link, link);
		strcpy(t->th.cfg.ax_assoc_map, map);
		if (drv_ops)
			t->th.drv_ops = drv_ops;
		if (hw_ops)
			t->th.hw_ops = hw_ops;
		/* The timer fires only when a case runs it. */
		rxb_env_fake_clock(t->th.env, 1000);
		if (rxb_th_start(&t->th))
			return t;
	}
	rxb_th_destroy(&t->th);
	free(t);
	return NULL;
}

static struct bt *bt_create_topo(unsigned int nq, unsigned int bx,
				 bool compress, unsigned int assoc,
				 const char *link, const char *map,
				 unsigned int policy)
{
	return bt_create_ops(nq, bx, compress, assoc, link, map, policy,
			     NULL, NULL);
}

static struct bt *bt_create(unsigned int nq, unsigned int bx, bool compress,
			    unsigned int assoc)
{
	return bt_create_topo(nq, bx, compress, assoc, "", "", RXB_AX_RR);
}

static void bt_destroy(struct bt *t)
{
	rxb_th_destroy(&t->th);
	free(t);
}

/* A qstats counter of @q, read as ethtool -S would. */
#define QS(t, q, f)	({ struct rxb_qstats _st;			\
			   rxb_th_qstats(&(t)->th, q, &_st); _st.f; })

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
	ret = rxb_th_hw_rx(&t->th, q, &f);
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
	int n = rxb_model_poll(t->th.m, q, t->pkts, budget), i;

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

/*
 * ax_assoc_map "0-1;1-2;2-3;3,0": overlapping sets.  Bx 0 borrows from
 * Ax 1 only, Bx 1 from Ax 2 only (its own is tried first), and so on.
 */
static void test_map_overlap(const void *arg)
{
	const char *map = arg;
	struct bt *t = bt_create_topo(4, 64, false, 0, "", map, RXB_AX_RR);

	if (!t || !empty_ax(t, 0) || !tx_n(t, 0, 2))
		goto out;
	EXPECT_EQ(xs(t, "rx1_lent"), 2);
	EXPECT_EQ(rx_all(t, 0), 2);
	EXPECT_EQ(rx_all(t, 1), 0);
	/* Ax 1 empty too: Bx 0 has no lender left, Bx 1 takes Ax 2's. */
	if (!empty_ax(t, 1))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	if (!tx_n(t, 1, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx2_lent"), 1);
	EXPECT_EQ(xs(t, "rx3_lent") + xs(t, "rx0_lent"), 0);
	EXPECT_EQ(rx_all(t, 1), 1);
	EXPECT_EQ(rx_all(t, 2), 0);
	/* Bx 3 (set {3, 0}) still receives into its own Ax. */
	if (!tx_n(t, 3, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx3_borrowed"), 0);
	EXPECT_EQ(rx_all(t, 3), 1);
out:
	if (t)
		bt_destroy(t);
}

/*
 * ax_link "3": one Ax ring, linked to queue 3, whose NAPI only refills
 * (the dedicated allocation core of the paper's section 4.2).  Every
 * other queue's packets are in its buffers; their notifications go to Bx
 * 3, and the buffers back to queue 3's pool.
 */
static void test_link_one_ax(const void *arg)
{
	struct bt *t = bt_create_topo(4, 128, false, 0, "3", "", RXB_AX_RR);
	unsigned int q, i;

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(rxb_env_posted(t->th.env, 3), AX);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0) + rxb_env_posted(t->th.env, 1) +
		  rxb_env_posted(t->th.env, 2), 0);
	for (i = 0; i < 3; i++)
		for (q = 0; q < 3; q++)
			if (!tx_n(t, q, 7))
				goto out;
	EXPECT_EQ(xs(t, "rx3_lent"), 63);
	EXPECT_EQ(xs(t, "rx0_borrowed"), 21);
	EXPECT_EQ(xs(t, "rx0_ax_empty"), 21);
	EXPECT_EQ(xs(t, "rx3_notif_entries"), 63);
	for (q = 0; q < 3; q++) {
		EXPECT_EQ(rx(t, q, 64), 21);
		EXPECT(t->pool[0] == 3 && t->pool[20] == 3,
		       "queue %u: buffers of pool %u, %u", q, t->pool[0],
		       t->pool[20]);
		EXPECT_EQ(QS(t, q, refills), 0);
	}
	/* Bx 3: 63 notifications, no packet; it refills Ax 0. */
	EXPECT_EQ(rx_all(t, 3), 0);
	EXPECT_EQ(xs(t, "rx3_ax_outstanding"), 0);
	EXPECT_EQ(rxb_env_posted(t->th.env, 3), AX);
	/* Queue 3's own packets: combined entries. */
	if (!tx_n(t, 3, 5))
		goto out;
	EXPECT_EQ(rx_all(t, 3), 5);
	EXPECT_EQ(xs(t, "rx3_borrowed"), 0);
	/* Ax 0 empty: every queue drops for want of a buffer. */
	rxb_env_fail_allocs(t->th.env, 3, 0, FOREVER);
	if (!tx_n(t, 0, AX))
		goto out;
	EXPECT_EQ(tx(t, 1), -ENOBUFS);
	EXPECT_EQ(rx_all(t, 3), 0);
	EXPECT_EQ(rx_all(t, 0), AX);
	pool_ok(t, 3);
	EXPECT(t->th.ops->refill(t->th.m, 3));
	EXPECT(t->th.ops->refill(t->th.m, 0));	/* no Ax ring: nothing to do */
	EXPECT_EQ(rxb_env_posted(t->th.env, 3), AX);
out:
	bt_destroy(t);
}

/*
 * ax_link "1,3" with ax_assoc_map "+0": two Ax rings, on queues 1 and 3;
 * with "+0" each queue's set is the Ax ring K = its own, or its number
 * modulo 2 when it has none: Bx 0 uses Ax 0 (queue 1's), Bx 2 Ax 0 too.
 */
static void test_link_map(const void *arg)
{
	struct bt *t = bt_create_topo(4, 128, true, 0, "1,3", "+0", RXB_AX_RR);

	(void)arg;
	if (!t || !tx_n(t, 0, 3) || !tx_n(t, 2, 2) || !tx_n(t, 3, 1))
		goto out;
	EXPECT_EQ(xs(t, "rx1_lent"), 5);
	EXPECT_EQ(xs(t, "rx3_lent"), 0);
	/* Compressed: held for Bx 1 until the timer. */
	EXPECT_EQ(xs(t, "rx1_notif_entries"), 0);
	EXPECT(rxb_env_run_timer(t->th.env));
	EXPECT_EQ(xs(t, "rx1_notif_entries"), 5);
	EXPECT_EQ(rx_all(t, 0), 3);
	EXPECT_EQ(t->pool[0], 1);
	EXPECT_EQ(rx_all(t, 2), 2);
	EXPECT_EQ(rx_all(t, 3), 1);
	EXPECT_EQ(t->pool[0], 3);
	EXPECT_EQ(rx_all(t, 1), 0);
	EXPECT_EQ(xs(t, "rx1_ax_outstanding"), 0);
out:
	if (t)
		bt_destroy(t);
}

/* ax_policy random: every non-empty associated Ax ring lends, none else. */
static void test_random(const void *arg)
{
	struct bt *t = bt_create_topo(4, 128, false, 0, "", "", RXB_AX_RANDOM);
	u64 l1, l2, l3;

	(void)arg;
	if (!t || !empty_ax(t, 0) || !tx_n(t, 0, 120))
		goto out;
	l1 = xs(t, "rx1_lent");
	l2 = xs(t, "rx2_lent");
	l3 = xs(t, "rx3_lent");
	EXPECT_EQ(l1 + l2 + l3, 120);
	EXPECT(l1 >= 20 && l2 >= 20 && l3 >= 20,
	       "lent %llu %llu %llu: not spread", (unsigned long long)l1,
	       (unsigned long long)l2, (unsigned long long)l3);
	EXPECT_EQ(rx_all(t, 0), 120);
	EXPECT_EQ(rx_all(t, 1) + rx_all(t, 2) + rx_all(t, 3), 0);
	/* Ax 2 and 3 empty too: only Ax 1 lends. */
	if (!empty_ax(t, 2) || !empty_ax(t, 3) || !tx_n(t, 0, 10))
		goto out;
	EXPECT_EQ(xs(t, "rx1_lent"), l1 + 10);
	EXPECT_EQ(rx_all(t, 0), 10);
	EXPECT_EQ(rx_all(t, 1), 0);
	if (!empty_ax(t, 1))
		goto out;
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
out:
	if (t)
		bt_destroy(t);
}

/* Each half's create refuses @cfg by itself, not only validate. */
static void expect_create_refused(struct rxb_env *env,
				  const struct rxb_model_ops *ops,
				  const struct rxb_model_cfg *cfg)
{
	u32 npages = rxb_hwm_bar_pages(ops->hw, cfg);
	void *mem = aligned_alloc(RXB_BAR_PAGE, (size_t)npages * RXB_BAR_PAGE);
	struct rxb_hw_model *hw;
	struct rxb_model *m;
	struct rxb_bar bar;

	if (!mem)
		abort();
	memset(mem, 0, (size_t)npages * RXB_BAR_PAGE);
	bar = (struct rxb_bar){ .base = mem, .qpage = 1,
				.xpage = 1 + cfg->nqueues, .npages = npages };
	hw = rxb_hw_model_create(ops->hw, cfg, &rxb_env_test_hw_ops, env, &bar);
	if (!EXPECT(IS_ERR(hw), "the NIC's create accepted it"))
		rxb_hw_model_destroy(hw);
	m = rxb_model_create(ops, cfg, &rxb_env_test_drv_ops, env, &bar);
	if (!EXPECT(IS_ERR(m), "the driver's create accepted it"))
		rxb_model_destroy(m);
	free(mem);
}

/* Bad ax_link / ax_assoc_map values: refused by validate and create. */
static void test_bad_topo(const void *arg)
{
	static const struct {
		unsigned int assoc;
		const char *link, *map;
	} bad[] = {
		{ 0, "x", "" }, { 0, "0-", "" }, { 0, "2-1", "" },
		{ 0, "0,,1", "" }, { 0, "4", "" }, { 0, "0,0", "" },
		{ 0, "1-3,2", "" }, { 0, "0 ", "" }, { 0, "999", "" },
		{ 0, "", "4" }, { 0, "", "0;;1" }, { 0, "", "0;1;2;3;0" },
		{ 0, "", "+4" }, { 0, "", "*;" }, { 0, "", "0-" },
		{ 0, "", "a" }, { 0, "", "+" }, { 0, "3", "1" },
		{ 0, "2,3", "0;2" },
		/* Queues 0 and 1 have no Ax ring in their ax_assoc group. */
		{ 2, "3", "" },
	};
	static const char * const good[][2] = {
		{ "", "*" }, { "", "+0-1" }, { "3", "" }, { "0-1,3", "0;1,2" },
		{ "", "0-3;2-3" }, { "3-3", "+0" }, { "", "0,2-3,+1" },
	};
	const struct rxb_model_ops *ops = rxb_model_find("rxbisect");
	struct rxb_model_cfg cfg;
	struct rxb_env *env = rxb_env_create(4, 0);
	const char *msg;
	unsigned int i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rxb_env_model_cfg(env, &cfg, 4, 128, RXB_ENV_BUF_SIZE);
		cfg.ax_assoc = bad[i].assoc;
		strcpy(cfg.ax_link, bad[i].link);
		strcpy(cfg.ax_assoc_map, bad[i].map);
		msg = NULL;
		EXPECT(ops->validate(&cfg, &msg) == -EINVAL && msg,
		       "link \"%s\" map \"%s\" accepted", bad[i].link,
		       bad[i].map);
		expect_create_refused(env, ops, &cfg);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		rxb_env_model_cfg(env, &cfg, 4, 128, RXB_ENV_BUF_SIZE);
		strcpy(cfg.ax_link, good[i][0]);
		strcpy(cfg.ax_assoc_map, good[i][1]);
		msg = NULL;
		EXPECT(!ops->validate(&cfg, &msg), "link \"%s\" map \"%s\": %s",
		       good[i][0], good[i][1], msg);
	}
	cfg.ax_policy = RXB_AX_NPOLICIES;
	EXPECT_EQ(ops->validate(&cfg, &msg), -EINVAL);
	rxb_env_destroy(env);
}

/*
 * The copy runs outside the NIC's lock: while one NIC thread is inside
 * dma_write for a frame to queue 0, a second NIC thread delivers the next
 * frame to queue 0.  Its entry comes after the first one's in the Bx ring
 * but is published first; the driver sees nothing until the first one is
 * published, then both, in order.
 */
struct nolock {
	struct bt *t;
	u8 (*dma_write)(void *env, const struct rxb_frame *frame, u64 addr,
			u32 *csum);
	u8 frame[RXB_ENV_BUF_SIZE];
	bool armed;
	int done;	/* the second frame went through */
	int ret;
};

static struct nolock nl;

static void *nolock_second(void *arg)
{
	struct bt *t = nl.t;
	u64 seq = t->next_tx[0] + 1;
	struct rxb_tframe_id id = { .producer = 0, .q = 0, .seq = seq };
	struct rxb_frame f = {
		.data = nl.frame, .len = tlen(0, seq), .hash = (u32)seq,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};

	(void)arg;
	rxb_tframe_fill(nl.frame, f.len, &id);
	nl.ret = rxb_th_hw_rx(&t->th, 0, &f);
	__atomic_store_n(&nl.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static u8 nolock_dma_write(void *env, const struct rxb_frame *frame, u64 addr,
			   u32 *csum)
{
	u8 flags = nl.dma_write(env, frame, addr, csum);
	struct bt *t = nl.t;
	pthread_t th;
	int i;

	if (!nl.armed)
		return flags;
	nl.armed = false;
	if (pthread_create(&th, NULL, nolock_second, NULL))
		abort();
	/* Two seconds: with the copy under the lock, it never completes. */
	for (i = 0; i < 2000 && !__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	EXPECT(__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE),
	       "a frame waited for another frame's copy");
	if (__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE)) {
		EXPECT_EQ(nl.ret, 0);
		EXPECT(!t->th.ops->rx_pending(t->th.m, 0),
		       "an entry before an unpublished one is visible");
		EXPECT_EQ(rxb_model_poll(t->th.m, 0, t->pkts, 64), 0);
	}
	pthread_detach(th);
	return flags;
}

static void test_copy_unlocked(const void *arg)
{
	static struct rxb_hw_ops ops;
	struct bt *t = calloc(1, sizeof(*t));

	(void)arg;
	if (!t)
		abort();
	if (!rxb_th_init(&t->th, "rxbisect", 2, 128, RXB_ENV_BUF_SIZE))
		goto out;
	t->th.cfg.ax_ring_size = AX;
	ops = *t->th.hw_ops;
	nl = (struct nolock){ .t = t, .dma_write = ops.dma_write };
	ops.dma_write = nolock_dma_write;
	t->th.hw_ops = &ops;
	if (!rxb_th_start(&t->th))
		goto out;
	nl.armed = true;
	EXPECT_EQ(tx(t, 0), 0);
	/* Wait for the second thread if it was stuck behind the lock. */
	while (!__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE))
		usleep(1000);
	EXPECT_EQ(nl.ret, 0);
	t->next_tx[0]++;
	EXPECT_EQ(rx(t, 0, 64), 2);
	EXPECT_EQ(QS(t, 0, hw_packets), 2);
out:
	rxb_th_destroy(&t->th);
	free(t);
}

/* The NIC's services, counted: any call from inside a driver's call is
 * the NIC's work done in the driver's context.
 */
static const struct rxb_hw_ops *cnt_real;
static long cnt_calls;

static void cnt_inc(void)
{
	__atomic_add_fetch(&cnt_calls, 1, __ATOMIC_RELAXED);
}

static long cnt_read(void)
{
	return __atomic_load_n(&cnt_calls, __ATOMIC_RELAXED);
}

static void cnt_raise_irq(void *env, unsigned int q)
{
	cnt_inc();
	cnt_real->raise_irq(env, q);
}

static void cnt_arm_timer(void *env, u64 ns)
{
	cnt_inc();
	cnt_real->arm_timer(env, ns);
}

static u64 cnt_now_ns(void *env)
{
	cnt_inc();
	return cnt_real->now_ns(env);
}

static u8 cnt_dma_write(void *env, const struct rxb_frame *frame, u64 addr,
			u32 *csum)
{
	cnt_inc();
	return cnt_real->dma_write(env, frame, addr, csum);
}

static void cnt_pcie(void *env, unsigned int q, unsigned int kind, u32 bytes)
{
	cnt_inc();
	cnt_real->pcie(env, q, kind, bytes);
}

static void *cnt_dma_map(void *env, u64 addr, size_t len)
{
	cnt_inc();
	return cnt_real->dma_map(env, addr, len);
}

/*
 * Posted doorbells: a poll that consumes Bx entries and reposts Ax slots
 * writes bx_head and ax_tail, and the NIC does nothing inside it (no
 * service of the NIC is called: a doorbell that did the NIC's work would
 * count PCIe bytes, read the clock, raise a vector there), nor does the
 * NIC's head move.  The NIC reads the new tail when it next runs: the
 * next frame to queue 0 takes its own Ax ring's buffer again.
 */
static void test_doorbells_posted(const void *arg)
{
	static struct rxb_hw_ops ops;
	struct rxb_hw_debug d0, d;
	long c0, irqs0;
	struct bt *t;

	(void)arg;
	cnt_real = &rxb_env_test_hw_ops;
	ops = rxb_env_test_hw_ops;
	ops.raise_irq = cnt_raise_irq;
	ops.arm_timer = cnt_arm_timer;
	ops.now_ns = cnt_now_ns;
	ops.dma_write = cnt_dma_write;
	ops.pcie = cnt_pcie;
	ops.dma_map = cnt_dma_map;
	t = bt_create_ops(2, 128, false, 0, "", "", RXB_AX_RR, NULL, &ops);
	if (!t || !empty_ax(t, 0) || !tx_n(t, 0, 4))
		goto out;
	EXPECT_EQ(xs(t, "rx0_borrowed"), 4);
	EXPECT_EQ(xs(t, "rx1_notif_entries"), 4);
	pool_ok(t, 0);
	rxb_th_nic_run(&t->th);
	t->th.ops->nic_debug(t->th.m, 0, &d0);
	EXPECT_EQ(d0.posted, 0);
	irqs0 = rxb_env_irqs(t->th.env, 0) + rxb_env_irqs(t->th.env, 1);
	c0 = cnt_read();
	/* Queue 0 reads its packets and refills its Ax ring; queue 1 reads
	 * the lender's reports and reposts.
	 */
	EXPECT_EQ(rx(t, 0, 64), 4);
	EXPECT_EQ(rx(t, 1, 64), 0);
	EXPECT(!t->th.ops->rx_pending(t->th.m, 0));
	EXPECT_EQ(cnt_read(), c0);
	EXPECT_EQ(rxb_env_irqs(t->th.env, 0) + rxb_env_irqs(t->th.env, 1),
		  irqs0);
	EXPECT(rxb_env_doorbells_pending(t->th.env),
	       "the polls wrote no register");
	t->th.ops->nic_debug(t->th.m, 0, &d);
	EXPECT_EQ(d.taken, d0.taken);
	EXPECT_EQ(d.posted, AX);
	/* The NIC runs: its doorbell service, then the frame, which finds
	 * Ax 0 posted again.
	 */
	EXPECT(rxb_th_nic_run(&t->th));
	if (!tx_n(t, 0, 1))
		goto out;
	EXPECT(cnt_read() > c0, "the NIC's frame used no service");
	EXPECT_EQ(xs(t, "rx0_borrowed"), 4);
	EXPECT_EQ(xs(t, "rx0_ax_empty"), 4);
	EXPECT_EQ(rx_all(t, 0), 1);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
out:
	if (t)
		bt_destroy(t);
}

/*
 * Teardown with the lender's reports held in the NIC (notif_compress):
 * Ax 0's buffers not taken, lent to Bx 1 and not polled, lent and
 * already handed up by Bx 1's poll while Ax 0's driver has not heard of
 * it.  Each buffer the rings hold goes back to its pool once and the
 * handed-up ones not at all: the environment fails a double free or a
 * buffer given to the wrong pool, rxb_th_destroy() one not given back.
 */
static void test_teardown_held(const void *arg)
{
	struct bt *t = bt_create(2, 128, true, 0);

	(void)arg;
	if (!t || !empty_ax(t, 1) || !tx_n(t, 1, 4))
		goto out;
	EXPECT_EQ(xs(t, "rx0_lent"), 4);
	EXPECT_EQ(rx(t, 1, 2), 2);
	EXPECT(t->pool[0] == 0 && t->pool[1] == 0, "borrowed from pool 0");
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 0);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 4);
	EXPECT(rxb_env_timer_pending(t->th.env));
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), AX - 2);
out:
	if (t)
		bt_destroy(t);
}

/*
 * Teardown with the reports written: Bx 1 holds two packets in buffers
 * whose lender already read their reports and reposted the slots (only
 * the entries' pointers name them now), and two whose reports wait in Bx
 * 0 unread; Bx 0 also holds its own packets (combined entries); one lent
 * buffer was handed up.  Each goes back to its pool once.
 */
static void test_teardown_reported(const void *arg)
{
	struct bt *t = bt_create(2, 128, false, 0);

	(void)arg;
	if (!t || !empty_ax(t, 1) || !tx_n(t, 1, 3))
		goto out;
	EXPECT_EQ(xs(t, "rx0_notif_entries"), 3);
	EXPECT_EQ(rx(t, 1, 1), 1);
	EXPECT_EQ(rx_all(t, 0), 0);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 0);
	if (!tx_n(t, 1, 2) || !tx_n(t, 0, 3))
		goto out;
	EXPECT_EQ(xs(t, "rx0_lent"), 5);
	EXPECT_EQ(xs(t, "rx0_ax_outstanding"), 5);
	EXPECT_EQ(rxb_env_outstanding(t->th.env, 0), AX + 2);
out:
	if (t)
		bt_destroy(t);
}

/* The umem's buffers (queue 0's pool) by address, for umem_buf_cookie(). */
static u64 umem_addr[4096];
static unsigned int umem_n;
static long umem_lookups;

static int umem_alloc_buf(void *env, unsigned int q, struct rxb_buf *buf)
{
	int err = rxb_env_test_drv_ops.alloc_buf(env, q, buf);

	if (!err && !q && umem_n < ARRAY_SIZE(umem_addr))
		umem_addr[umem_n++] = buf->addr;
	return err;
}

/* As an xsk pool's buffer: its address leads to no handle the driver
 * could give back (the kernel would find a page of the user's umem).
 */
static void *umem_buf_cookie(void *env, u64 addr)
{
	unsigned int i;

	for (i = 0; i < umem_n; i++) {
		if (umem_addr[i] == addr) {
			umem_lookups++;
			break;
		}
	}
	return rxb_env_test_drv_ops.buf_cookie(env, addr);
}

/*
 * Zero-copy AF_XDP (issue 32, item 1): queue 0's Ax ring is borrowed by
 * no other queue (ax_assoc_map "0-1;1"), so its buffers may be a umem's,
 * which cannot be found from their addresses.  Teardown with queue 0's
 * packets not polled gives them back by the handles saved at posting;
 * the buffers queue 0 borrowed from Ax 1 (its lender reposted their
 * slots) are queue 1's pool's, found from their pointers as poll does.
 */
static void test_teardown_umem(const void *arg)
{
	static struct rxb_drv_ops ops;
	const char *msg = NULL;
	struct bt *t;

	(void)arg;
	umem_n = 0;
	umem_lookups = 0;
	ops = rxb_env_test_drv_ops;
	ops.alloc_buf = umem_alloc_buf;
	ops.buf_cookie = umem_buf_cookie;
	t = bt_create_ops(2, 128, false, 0, "", "0-1;1", RXB_AX_RR, &ops, NULL);
	if (!t)
		return;
	EXPECT_EQ(t->th.ops->umem_check(&t->th.cfg, 0, &msg), 0);
	EXPECT_EQ(t->th.ops->umem_check(&t->th.cfg, 1, &msg), -EOPNOTSUPP);
	/* Two borrowed from Ax 1, whose reports queue 1 reads. */
	if (!empty_ax(t, 0) || !tx_n(t, 0, 2))
		goto out;
	EXPECT_EQ(xs(t, "rx1_lent"), 2);
	EXPECT_EQ(rx_all(t, 1), 0);
	/* Ax 0 posted again: three packets in the umem, one polled. */
	pool_ok(t, 0);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	if (!tx_n(t, 0, 3))
		goto out;
	EXPECT_EQ(xs(t, "rx0_borrowed"), 2);
	EXPECT_EQ(rx(t, 0, 1), 1);
	EXPECT_EQ(t->pool[0], 1);
	EXPECT_EQ(umem_lookups, 0);
	rxb_th_destroy(&t->th);
	EXPECT_EQ(umem_lookups, 0);
	free(t);
	return;
out:
	bt_destroy(t);
}

/* Thread stress (2 NIC threads) of the new topologies and policy. */
static void tune_overlap(struct rxb_model_cfg *cfg)
{
	cfg->ax_ring_size = RXB_RING_MIN;
	strcpy(cfg->ax_assoc_map, "+0-1");
	cfg->notif_compress = true;
	cfg->notif_timeout_ns = 20000;
}

static void tune_link_one(struct rxb_model_cfg *cfg)
{
	cfg->ax_ring_size = cfg->ring_size;
	strcpy(cfg->ax_link, "3");
	cfg->ax_policy = RXB_AX_MOST;
}

static void tune_link_two_random(struct rxb_model_cfg *cfg)
{
	cfg->ax_ring_size = RXB_RING_MIN;
	strcpy(cfg->ax_link, "0,2");
	strcpy(cfg->ax_assoc_map, "0-1;1");
	cfg->ax_policy = RXB_AX_RANDOM;
	cfg->notif_compress = true;
	cfg->notif_timeout_ns = 20000;
}

static void test_stress(const void *arg)
{
	void (*tune)(struct rxb_model_cfg *cfg) = arg;
	struct rxb_stress_cfg sc = {
		.model = "rxbisect", .tune = tune, .nqueues = 4,
		.ring_size = 128, .nproducers = 2, .budget = 16,
		.frames = rxb_stress_frames(2000000) / 8,
		.alloc_fail_one_in = 101, .dma_fail_one_in = 97,
		.oversize_one_in = 500, .skew = 30,
	};

	rxb_stress_run(&sc);
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
		{ "rxbisect:map_overlap", test_map_overlap, "0-1;1-2;2-3;3,0" },
		{ "rxbisect:map_overlap_relative", test_map_overlap, "+0-1" },
		{ "rxbisect:link_one_ax", test_link_one_ax, NULL },
		{ "rxbisect:link_map", test_link_map, NULL },
		{ "rxbisect:random", test_random, NULL },
		{ "rxbisect:bad_topo", test_bad_topo, NULL },
		{ "rxbisect:copy_unlocked", test_copy_unlocked, NULL },
		{ "rxbisect:doorbells_posted", test_doorbells_posted, NULL },
		{ "rxbisect:teardown_held", test_teardown_held, NULL },
		{ "rxbisect:teardown_reported", test_teardown_reported, NULL },
		{ "rxbisect:teardown_umem", test_teardown_umem, NULL },
		{ "rxbisect:stress_2nic_overlap", test_stress, tune_overlap },
		{ "rxbisect:stress_2nic_link_one", test_stress, tune_link_one },
		{ "rxbisect:stress_2nic_link_two_random", test_stress,
		  tune_link_two_random },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
