// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the shRing models (shring.c: RxArr, shring_list.c: RxList,
 * shring_batched.c: batched RxList, dshring.c: dynamic shRing; each a
 * hardware half in drivers/net/rxbisect/hw/models/ and a driver half in
 * drv/models/): exact counter values, shared capacity and victim drops, RxArr's
 * held-back reposts and pool tracking, RxList's list order and end marker,
 * batched RxList's packing, closing and deferred re-arming, partly filled
 * rings, teardown, the
 * dshRing controller's switches (on a fake clock), and thread stress
 * with many queues contending for one ring.  Model-independent tests are
 * in test_models.c.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>

#include "env.h"
#include "ktap.h"
#include "stress.h"

#define MAXQ	8

struct st {
	struct rxb_th th;
	u64 next_tx[MAXQ];
	u64 next_rx[MAXQ];
	u8 frame[RXB_ENV_BUF_SIZE];
	struct rxb_pkt pkts[RXB_RING_MAX];
	u16 pool[RXB_RING_MAX];	/* pool_q of the last rx() */
	unsigned int fixed_len;	/* frame length, 0: tlen() */
};

static unsigned int tlen(unsigned int q, u64 seq)
{
	return 60 + (seq * 37 + q * 101) % 1400;
}

static struct st *st_create(const char *model, unsigned int nq,
			    unsigned int ring, unsigned int sf,
			    void (*tune)(struct rxb_model_cfg *cfg))
{
	struct st *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	if (rxb_th_init(&t->th, model, nq, ring, RXB_ENV_BUF_SIZE)) {
		t->th.cfg.share_factor = sf;
		if (tune)
			tune(&t->th.cfg);
		if (rxb_th_start(&t->th))
			return t;
	}
	rxb_th_destroy(&t->th);
	free(t);
	return NULL;
}

static void st_destroy(struct st *t)
{
	rxb_th_destroy(&t->th);
	free(t);
}

/* A qstats counter of @q, read as ethtool -S would. */
#define QS(t, q, f)	({ struct rxb_qstats _st;			\
			   rxb_th_qstats(&(t)->th, q, &_st); _st.f; })

/* A model-specific counter by name; fails the case if there is none. */
static u64 xs(struct st *t, const char *name)
{
	return rxb_th_xstat(&t->th, name);
}

static unsigned int st_len(const struct st *t, unsigned int q, u64 seq)
{
	return t->fixed_len ?: tlen(q, seq);
}

/* Send the next frame of queue @q; 0 or the drop cause. */
static int tx(struct st *t, unsigned int q)
{
	u64 seq = t->next_tx[q];
	struct rxb_tframe_id id = { .producer = 1, .q = q, .seq = seq };
	struct rxb_frame f = {
		.data = t->frame, .len = st_len(t, q, seq), .hash = (u32)seq,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};
	int ret;

	rxb_tframe_fill(t->frame, f.len, &id);
	ret = rxb_th_hw_rx(&t->th, q, &f);
	if (!ret)
		t->next_tx[q]++;
	return ret;
}

/* Send @n frames to @q, each accepted. */
static bool tx_n(struct st *t, unsigned int q, unsigned int n)
{
	while (n--)
		if (!EXPECT_EQ(tx(t, q), 0))
			return false;
	return true;
}

/* Send to @q until the first drop; the number accepted. */
static unsigned int tx_fill(struct st *t, unsigned int q, int *cause)
{
	unsigned int n = 0;
	int ret;

	while (!(ret = tx(t, q)))
		n++;
	*cause = ret;
	return n;
}

/*
 * Poll @q once with @budget: every packet is the next frame sent to @q,
 * intact; pool queues are recorded in t->pool[]; buffers go back.
 */
static int rx(struct st *t, unsigned int q, int budget)
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
		if (EXPECT(rxb_tframe_check(data, p->len, &id), "q %u seq %llu: bad content",
			   q, (unsigned long long)seq)) {
			EXPECT_EQ(id.q, q);
			EXPECT_EQ(id.seq, seq);
		}
		EXPECT_EQ(p->len, st_len(t, q, seq));
		EXPECT_EQ(p->hash, (u32)seq);
		rxb_env_pkt_put(t->th.env, p->cookie);
	}
	return n;
}

/* Poll @q until it is empty; the number of packets. */
static int rx_all(struct st *t, unsigned int q)
{
	int n, total = 0;

	while ((n = rx(t, q, 64)) > 0)
		total += n;
	return total;
}

/* ---- posted doorbells (every shRing model) --------------------------- */

/* What the NIC did so far: bytes it moved, vectors it raised, the
 * indices it wrote in its debug registers, entries reached from outside
 * its context.
 */
struct nic_snap {
	u64 pcie[RXB_ENV_PCIE_KINDS];
	u64 irqs[MAXQ];
	u32 cq_tail[MAXQ];
	u32 taken[MAXQ];
	long bad;
};

static void nic_snap(struct st *t, struct nic_snap *s)
{
	struct rxb_hw_debug d;
	unsigned int k, q;

	for (k = 0; k < RXB_ENV_PCIE_KINDS; k++)
		s->pcie[k] = rxb_env_pcie(t->th.env, k);
	for (q = 0; q < t->th.cfg.nqueues; q++) {
		s->irqs[q] = rxb_env_irqs(t->th.env, q);
		t->th.ops->nic_debug(t->th.m, q, &d);
		s->cq_tail[q] = d.cq_tail;
		s->taken[q] = d.taken;
	}
	s->bad = rxb_pair_ctx_violations();
}

static void nic_snap_same(struct st *t, const struct nic_snap *a,
			  const struct nic_snap *b, const char *what)
{
	unsigned int k, q;

	for (k = 0; k < RXB_ENV_PCIE_KINDS; k++)
		EXPECT(a->pcie[k] == b->pcie[k], "%s: pcie kind %u", what, k);
	for (q = 0; q < t->th.cfg.nqueues; q++) {
		EXPECT(a->irqs[q] == b->irqs[q], "%s: q %u irqs", what, q);
		EXPECT(a->cq_tail[q] == b->cq_tail[q], "%s: q %u cq_tail",
		       what, q);
		EXPECT(a->taken[q] == b->taken[q], "%s: q %u taken", what, q);
	}
	EXPECT(a->bad == b->bad, "%s: NIC entry outside its context", what);
}

/*
 * The driver's polls and refills only store into ring memory and the
 * register space: the NIC moves no byte, raises no vector and advances
 * no index of its own in them (a doorbell that did the NIC's work
 * would).  The register writes wait, marked, for the NIC's doorbell
 * service; shRing's NIC reads its registers at its next frame, so the
 * service has nothing to do either, and that frame then takes the
 * reposted descriptors.
 */
static void test_posted(const void *arg)
{
	const char *model = arg;
	struct st *t = st_create(model, 2, 64, 2, NULL);
	/* What the polls give back: the ring, less RxList's end marker;
	 * batched RxList: its CR (few descriptors hold 64 small frames).
	 */
	unsigned int usable = strcmp(model, "shring-list") ? 64 : 63;
	struct nic_snap a, b;
	u64 posted;
	int cause;

	if (!t)
		return;
	t->fixed_len = 100;
	if (!tx_n(t, 0, 20) || !tx_n(t, 1, 20))
		goto out;
	EXPECT(!rxb_env_doorbells_pending(t->th.env));
	nic_snap(t, &a);
	posted = xs(t, "ring0_posted");
	EXPECT_EQ(rx_all(t, 0), 20);
	EXPECT_EQ(rx_all(t, 1), 20);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	EXPECT(t->th.ops->refill(t->th.m, 1));
	nic_snap(t, &b);
	nic_snap_same(t, &a, &b, "poll");
	EXPECT(rxb_env_doorbells_pending(t->th.env), "no register written");
	/* The driver's tail register moved: more for the NIC to take. */
	EXPECT(xs(t, "ring0_posted") > posted, "posted %llu -> %llu",
	       (unsigned long long)posted,
	       (unsigned long long)xs(t, "ring0_posted"));
	EXPECT(rxb_th_nic_run(&t->th));
	EXPECT(!rxb_env_doorbells_pending(t->th.env));
	nic_snap(t, &b);
	nic_snap_same(t, &a, &b, "doorbell service");
	/* The next frames use what the polls gave back. */
	EXPECT_EQ(tx_fill(t, 0, &cause), usable);
	EXPECT_EQ(rx_all(t, 0), usable);
out:
	st_destroy(t);
}

/* ---- RxArr ---------------------------------------------------------- */

/* Groups by share factor; each queue's pool fills its share of its ring. */
static void test_arr_create(const void *arg)
{
	struct st *t = st_create("shring", 3, 64, 2, NULL);

	(void)arg;
	if (!t)
		return;
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
	EXPECT_EQ(xs(t, "ring1_posted"), 64);
	EXPECT_EQ(xs(t, "ring0_tail_advances"), 1);
	EXPECT_EQ(xs(t, "ring0_tail_advance_len"), 64);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 32);
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), 32);
	EXPECT_EQ(rxb_env_posted(t->th.env, 2), 64);
	EXPECT_EQ(QS(t, 0, refills), 32);
	EXPECT_EQ(QS(t, 2, refills), 64);
	EXPECT_EQ(QS(t, 0, doorbells) + QS(t, 1, doorbells), 1);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	EXPECT(t->th.ops->refill(t->th.m, 2));
	st_destroy(t);
}

/*
 * The sharing queues draw from one pool of descriptors: what one holds the
 * other cannot use.  A drop while the queue held less than its fair share
 * is a victim drop.
 */
static void test_arr_shared_capacity(const void *arg)
{
	struct st *t = st_create("shring", 2, 64, 2, NULL);
	int cause;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 40))
		goto out;
	EXPECT_EQ(tx_fill(t, 1, &cause), 24);
	EXPECT_EQ(cause, -ENOBUFS);
	EXPECT_EQ(QS(t, 1, nobuf_drops), 1);
	EXPECT_EQ(xs(t, "rx1_nobuf_victim_drops"), 1);
	/* Queue 0 holds 40 >= 32: its own drop is no victim's. */
	EXPECT_EQ(tx(t, 0), -ENOBUFS);
	EXPECT_EQ(xs(t, "rx0_nobuf_victim_drops"), 0);
	EXPECT_EQ(xs(t, "ring0_posted"), 0);
	EXPECT_EQ(rx_all(t, 0), 40);
	EXPECT_EQ(rx_all(t, 1), 24);
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
	EXPECT_EQ(xs(t, "ring0_reposts"), 64);
	EXPECT_EQ(xs(t, "ring0_held_back"), 0);
out:
	st_destroy(t);
}

/*
 * A descriptor reposted before an earlier one waits for it (section
 * 5.1.3); the earlier one's repost releases both.
 */
static void test_arr_held_back(const void *arg)
{
	struct st *t = st_create("shring", 2, 64, 2, NULL);
	u64 adv0, i;
	int n;

	(void)arg;
	if (!t)
		return;
	adv0 = xs(t, "ring0_tail_advance_len");
	if (!tx_n(t, 0, 10) || !tx_n(t, 1, 10))	/* slots 0-9, 10-19 */
		goto out;
	EXPECT_EQ(rx(t, 1, 64), 10);
	EXPECT_EQ(xs(t, "ring0_held_back"), 10);
	EXPECT_EQ(xs(t, "ring0_tail_advance_len"), adv0);
	EXPECT_EQ(xs(t, "ring0_posted"), 44);
	EXPECT_EQ(QS(t, 1, doorbells), 0);
	EXPECT_EQ(QS(t, 0, doorbells), 1);	/* create's */
	/* Only the 44 posted descriptors are usable. */
	EXPECT_EQ(tx_fill(t, 1, &n), 44);
	EXPECT_EQ(n, -ENOBUFS);
	EXPECT_EQ(rx(t, 0, 64), 10);
	EXPECT_EQ(xs(t, "ring0_tail_advance_len"), adv0 + 20);
	EXPECT_EQ(xs(t, "ring0_posted"), 20);
	EXPECT_EQ(xs(t, "ring0_held_back"), 10);
	EXPECT_EQ(QS(t, 0, doorbells), 2);
	EXPECT_EQ(rx_all(t, 1), 44);
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
	EXPECT_EQ(xs(t, "ring0_tail_advance_len"), adv0 + 64);
	/*
	 * Slots 0-9 now hold queue 0's buffers, 10-63 queue 1's: a packet
	 * names the pool its buffer came from, whatever queue receives it.
	 */
	if (!tx_n(t, 0, 64))
		goto out;
	EXPECT_EQ(rx(t, 0, 64), 64);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(t->pool[i], i < 10 ? 0 : 1);
	EXPECT_EQ(rxb_env_posted(t->th.env, 0), 64);
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), 0);
out:
	st_destroy(t);
}

/* One atomic per bitmap word marked and per word cleared. */
static void test_arr_bitmap_atomics(const void *arg)
{
	struct st *t = st_create("shring", 2, 256, 2, NULL);
	u64 a0, l0;

	(void)arg;
	if (!t)
		return;
	/* Move the head to slot 60: the next 100 slots span 3 words. */
	if (!tx_n(t, 1, 60) || !EXPECT_EQ(rx_all(t, 1), 60))
		goto out;
	a0 = xs(t, "ring0_bitmap_atomics");
	l0 = xs(t, "ring0_lock_acquired");
	if (!tx_n(t, 0, 100))
		goto out;
	EXPECT_EQ(rx(t, 0, 128), 100);
	EXPECT_EQ(xs(t, "ring0_bitmap_atomics") - a0, 3 + 3);
	EXPECT_EQ(xs(t, "ring0_lock_acquired") - l0, 1);
	EXPECT_EQ(xs(t, "ring0_lock_contended"), 0);
out:
	st_destroy(t);
}

/* Destroy frees every buffer: posted, delivered, and held back. */
static void test_arr_destroy(const void *arg)
{
	struct st *t = st_create("shring", 4, 128, 4, NULL);

	(void)arg;
	if (!t)
		return;
	if (tx_n(t, 0, 5) && tx_n(t, 1, 7) && tx_n(t, 2, 9) && tx_n(t, 3, 11))
		EXPECT_EQ(rx(t, 2, 64), 9);	/* held back behind 0 and 1 */
	EXPECT_EQ(xs(t, "ring0_held_back"), 9);
	EXPECT_EQ(rxb_env_outstanding(t->th.env, -1), 128);
	st_destroy(t);	/* checks nothing is outstanding, pools match */
}

/* Without a fresh buffer a packet stays in the CR; the poll retries. */
static void test_arr_alloc_fail(const void *arg)
{
	struct st *t = st_create("shring", 2, 64, 2, NULL);

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 8))
		goto out;
	rxb_env_fail_allocs(t->th.env, 0, 3, 2);
	EXPECT_EQ(rx(t, 0, 64), 3);
	EXPECT_EQ(QS(t, 0, alloc_fails), 1);
	EXPECT(!t->th.ops->refill(t->th.m, 0), "refill: starved queue reports full");
	EXPECT(t->th.ops->rx_pending(t->th.m, 0));
	EXPECT_EQ(rx(t, 0, 64), 0);
	EXPECT_EQ(QS(t, 0, alloc_fails), 2);
	EXPECT_EQ(rx(t, 0, 64), 5);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
out:
	st_destroy(t);
}

/* Slots create could not fill are filled by a later refill or poll. */
static void test_partial_create(const void *arg)
{
	const char *model = arg;
	struct st *t = calloc(1, sizeof(*t));
	unsigned int usable = strcmp(model, "shring") ? 63 : 64;
	int cause;

	if (!t)
		abort();
	if (!rxb_th_init(&t->th, model, 2, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t->th.cfg.share_factor = 2;
	/* Slots alternate between the pools: q0 fails its 6th. */
	rxb_env_fail_allocs(t->th.env, 0, 5, 1);
	if (!rxb_th_start(&t->th))
		goto out;
	EXPECT_EQ(rxb_env_posted(t->th.env, -1), 10);
	EXPECT_EQ(xs(t, "ring0_posted"), usable - 54);
	EXPECT_EQ(QS(t, 0, alloc_fails), 1);
	EXPECT(t->th.ops->refill(t->th.m, 1));
	EXPECT_EQ(rxb_env_posted(t->th.env, 1), 59);
	EXPECT_EQ(xs(t, "ring0_posted"), usable);
	EXPECT_EQ(tx_fill(t, 0, &cause), usable);
	EXPECT_EQ(rx_all(t, 0), usable);
	EXPECT_EQ(tx_fill(t, 1, &cause), usable);
	EXPECT_EQ(rx_all(t, 1), usable);
out:
	st_destroy(t);
}

/* ---- batched RxList ------------------------------------------------- */

/*
 * A CR's packets share its current descriptor, back to back at 64-byte
 * aligned offsets; a full one is closed by the first packet of the next,
 * and re-armed (one lock, one append per poll) in the poll that hands its
 * last packets up: they hold their own references on the old buffer.
 */
static void test_bat_packing(const void *arg)
{
	struct st *t = st_create("shring-batched", 2, 64, 2, NULL);
	int i, n;

	(void)arg;
	if (!t)
		return;
	t->fixed_len = 100;	/* 128-byte stride: 16 per 2 KiB buffer */
	EXPECT_EQ(xs(t, "ring0_posted"), 63);
	if (!tx_n(t, 0, 40))
		goto out;
	EXPECT_EQ(xs(t, "ring0_desc_taken"), 3);
	EXPECT_EQ(xs(t, "ring0_posted"), 60);
	n = rxb_model_poll(t->th.m, 0, t->pkts, 64);
	EXPECT_EQ(n, 40);
	for (i = 0; i < n; i++) {
		struct rxb_pkt *p = &t->pkts[i];
		void *data = rxb_env_pkt_take(t->th.env, 0, p);

		EXPECT(p->frag, "packet %d not a fragment", i);
		EXPECT_EQ(p->offset, (i % 16) * 128);
		EXPECT_EQ(p->flags, RXB_CQE_F_L4_HASH | RXB_CQE_F_CSUM);
		/* Packets of one batch share the buffer. */
		if (i % 16)
			EXPECT(p->cookie == t->pkts[i - 1].cookie,
			       "packet %d in another buffer", i);
		else if (i)
			EXPECT(p->cookie != t->pkts[i - 1].cookie,
			       "packet %d in the full buffer", i);
		if (data)
			rxb_env_pkt_put(t->th.env, p->cookie);
	}
	/* Two closed and re-armed by the poll: their packets hold refs. */
	EXPECT_EQ(xs(t, "ring0_frag_refs"), 40);
	EXPECT(t->th.ops->refill(t->th.m, 0));
	EXPECT_EQ(xs(t, "ring0_reposts"), 2);
	EXPECT_EQ(xs(t, "ring0_posted"), 62);
	EXPECT_EQ(xs(t, "ring0_lock_acquired"), 1);
	EXPECT_EQ(xs(t, "ring0_tail_advances"), 2);
	EXPECT_EQ(QS(t, 0, refills), 34);
	/* The open descriptor takes 8 more, then the next closes it. */
	t->next_rx[0] = t->next_tx[0];
	if (!tx_n(t, 0, 9))
		goto out;
	EXPECT_EQ(xs(t, "ring0_desc_taken"), 4);
	EXPECT_EQ(rx_all(t, 0), 9);
	EXPECT_EQ(xs(t, "ring0_reposts"), 3);
	EXPECT_EQ(QS(t, 0, packets), 49);
	EXPECT_EQ(QS(t, 0, hw_packets), 49);
out:
	st_destroy(t);
}

/*
 * A frame too long for what is left of the current descriptor opens the
 * next one; one longer than any buffer is an oversize drop and leaves the
 * current descriptor open.
 */
static void test_bat_fit(const void *arg)
{
	struct st *t = st_create("shring-batched", 1, 64, 1, NULL);
	struct rxb_frame f = { .data = NULL, .len = RXB_ENV_BUF_SIZE + 1 };

	(void)arg;
	if (!t)
		return;
	f.data = t->frame;
	t->fixed_len = 1000;	/* 1024-byte stride: two per buffer */
	if (!tx_n(t, 0, 3))
		goto out;
	EXPECT_EQ(xs(t, "ring0_desc_taken"), 2);
	EXPECT_EQ(rxb_th_hw_rx(&t->th, 0, &f), -EMSGSIZE);
	EXPECT_EQ(QS(t, 0, oversize_drops), 1);
	t->fixed_len = 900;	/* fits in the open descriptor's second half */
	if (!tx_n(t, 0, 1))
		goto out;
	EXPECT_EQ(xs(t, "ring0_desc_taken"), 2);
	t->fixed_len = 1000;
	t->next_rx[0] = 0;
	EXPECT_EQ(rx(t, 0, 3), 3);
	t->fixed_len = 900;
	EXPECT_EQ(rx(t, 0, 64), 1);
	EXPECT_EQ(t->pkts[0].offset, 1024);
out:
	st_destroy(t);
}

/*
 * A stalled queue holds at most its CR's worth of packets: in batches,
 * few descriptors, so the queue sharing the ring keeps receiving.  RxList
 * with one packet per descriptor lets the stalled queue take them all
 * (section 5.1.1's pathological overload, softened by batching).
 */
static void test_bat_stalled_neighbour(const void *arg)
{
	static const char *const models[] = { "shring-list", "shring-batched" };
	unsigned int i;
	int cause;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(models); i++) {
		struct st *t = st_create(models[i], 2, 64, 2, NULL);
		bool bat = i == 1;
		unsigned int n;

		if (!t)
			return;
		t->fixed_len = 100;
		/* Queue 0 is not polled: its CR (64) or the ring (63) fills. */
		n = tx_fill(t, 0, &cause);
		EXPECT_EQ(n, bat ? 64 : 63);
		EXPECT_EQ(cause, bat ? -ENOSPC : -ENOBUFS);
		n = tx_fill(t, 1, &cause);
		EXPECT_EQ(n, bat ? 64 : 0);
		EXPECT_EQ(xs(t, "rx1_nobuf_victim_drops"), bat ? 0 : 1);
		EXPECT_EQ(rx_all(t, 0), 64 - !bat);
		EXPECT_EQ(rx_all(t, 1), (int)n);
		st_destroy(t);
	}
}

/*
 * Fragment accounting: each packet of a batch holds a reference on the
 * buffer; the model's re-arm drops its own, and the buffer goes back to
 * its pool only with the last packet's: whichever order the two come in.
 */
static void test_bat_frag_refs(const void *arg)
{
	struct st *t = st_create("shring-batched", 1, 64, 1, NULL);
	struct rxb_env_qstats es;
	void *first;
	int i, n;

	(void)arg;
	if (!t)
		return;
	t->fixed_len = 1000;	/* two per buffer */
	if (!tx_n(t, 0, 3))	/* the third closes the first buffer */
		goto out;
	n = rxb_model_poll(t->th.m, 0, t->pkts, 64);
	EXPECT_EQ(n, 3);
	first = t->pkts[0].cookie;
	for (i = 0; i < n; i++)
		EXPECT(rxb_env_pkt_take(t->th.env, 0, &t->pkts[i]), "take %d", i);
	/* Re-armed: the model let the first buffer go, its packets not. */
	EXPECT_EQ(xs(t, "ring0_reposts"), 1);
	es = rxb_env_qstats(t->th.env, 0);
	EXPECT_EQ(es.frees, 1);
	EXPECT_EQ(es.refs, 3);
	EXPECT_EQ(rxb_env_held(t->th.env, 0), 1);
	rxb_env_pkt_put(t->th.env, t->pkts[0].cookie);
	EXPECT_EQ(rxb_env_held(t->th.env, 0), 1);
	rxb_env_pkt_put(t->th.env, t->pkts[1].cookie);
	EXPECT_EQ(rxb_env_held(t->th.env, 0), 0);
	/* The open buffer's packet goes before the model lets it go. */
	rxb_env_pkt_put(t->th.env, t->pkts[2].cookie);
	EXPECT_EQ(rxb_env_errors(t->th.env), 0);
	/* The first buffer is back in its pool: the next alloc reuses it. */
	EXPECT_EQ(rxb_env_qstats(t->th.env, 0).puts, 3);
	(void)first;
out:
	st_destroy(t);
}

/*
 * An idle queue's partly filled descriptor is closed by the NIC's idle
 * timer after one to two periods: an entry without a packet, and the
 * descriptor is re-armed.  Traffic keeps it open.
 */
static void test_bat_idle_close(const void *arg)
{
	struct st *t = st_create("shring-batched", 1, 64, 1, NULL);

	(void)arg;
	if (!t)
		return;
	t->fixed_len = 100;
	if (!tx_n(t, 0, 3))
		goto out;
	EXPECT(rxb_env_timer_pending(t->th.env), "idle timer not armed");
	EXPECT_EQ(rx_all(t, 0), 3);
	/* First tick: packets came since, it stays open. */
	EXPECT(rxb_env_run_timer(t->th.env), "timer did not fire");
	EXPECT_EQ(xs(t, "ring0_idle_closes"), 0);
	EXPECT(rxb_env_timer_pending(t->th.env), "idle timer not re-armed");
	/* Second tick without a packet: closed. */
	EXPECT(rxb_env_run_timer(t->th.env), "timer did not fire");
	EXPECT_EQ(xs(t, "ring0_idle_closes"), 1);
	EXPECT(!rxb_env_timer_pending(t->th.env), "idle timer still armed");
	EXPECT(t->th.ops->rx_pending(t->th.m, 0), "no close entry");
	EXPECT_EQ(rx(t, 0, 64), 0);
	EXPECT(!t->th.ops->rx_pending(t->th.m, 0), "close entry not consumed");
	EXPECT_EQ(xs(t, "ring0_reposts"), 1);
	EXPECT_EQ(xs(t, "ring0_posted"), 63);
	EXPECT_EQ(QS(t, 0, packets), 3);
	EXPECT_EQ(QS(t, 0, hw_packets), 3);
	/* The next packet opens a new descriptor, without a close flag. */
	if (!tx_n(t, 0, 1))
		goto out;
	EXPECT_EQ(xs(t, "ring0_desc_taken"), 2);
	EXPECT_EQ(rx_all(t, 0), 1);
	EXPECT_EQ(xs(t, "ring0_reposts"), 1);
out:
	st_destroy(t);
}

/* ---- RxList --------------------------------------------------------- */

/* The list's last descriptor marks its end: one per ring stays unused. */
static void test_list_end_marker(const void *arg)
{
	struct st *t = st_create("shring-list", 2, 64, 2, NULL);
	int round, cause;

	(void)arg;
	if (!t)
		return;
	for (round = 0; round < 3; round++) {
		EXPECT_EQ(xs(t, "ring0_posted"), 63);
		EXPECT_EQ(tx_fill(t, round & 1, &cause), 63);
		EXPECT_EQ(cause, -ENOBUFS);
		EXPECT_EQ(rx_all(t, round & 1), 63);
	}
	st_destroy(t);
}

/*
 * A queue's reposts go to the list at once, whatever the other queues
 * still hold: no head-of-line blocking.  The NIC then follows the list
 * out of array order.
 */
static void test_list_no_hol(const void *arg)
{
	struct st *t = st_create("shring-list", 2, 64, 2, NULL);
	int cause;

	(void)arg;
	if (!t)
		return;
	if (!tx_n(t, 0, 10) || !tx_n(t, 1, 10))	/* slots 0-9, 10-19 */
		goto out;
	EXPECT_EQ(rx(t, 1, 64), 10);
	EXPECT_EQ(xs(t, "ring0_posted"), 53);
	EXPECT_EQ(xs(t, "ring0_out_of_order"), 0);
	/* Slots 20-63, then 10-19: the jump back is out of order. */
	EXPECT_EQ(tx_fill(t, 1, &cause), 53);
	EXPECT_EQ(xs(t, "ring0_out_of_order"), 1);
	EXPECT_EQ(xs(t, "ring0_tail_advances"), 2);
	EXPECT_EQ(xs(t, "ring0_tail_advance_len"), 64 + 10);
	EXPECT_EQ(rx_all(t, 1), 53);
	EXPECT_EQ(rx_all(t, 0), 10);
	EXPECT_EQ(xs(t, "ring0_posted"), 63);
	EXPECT_EQ(xs(t, "ring0_reposts"), 73);
	/* Queue 1 held >= 32 when it filled the ring: not a victim. */
	EXPECT_EQ(xs(t, "rx1_nobuf_victim_drops"), 0);
out:
	st_destroy(t);
}

/* ---- dshRing -------------------------------------------------------- */

static void tune_dsh(struct rxb_model_cfg *cfg)
{
	cfg->dsh_period_ns = 1000000;
	cfg->dsh_window = 8;
	cfg->dsh_tput_mbps = 1;
	cfg->cache_bytes = 1024;
	cfg->dsh_overload_ratio = 4;
}

/* One controller period: traffic to every queue in @txq, polls of every
 * queue in @rxq, then the driver's controller task.  The NIC's timer is
 * never armed: the controller is the driver's.
 */
static void dsh_tick(struct st *t, unsigned int txq, unsigned int rxq)
{
	unsigned int q;

	unsigned int i;

	for (q = 0; q < t->th.cfg.nqueues; q++)
		for (i = 0; txq & (1U << q) && i < 8; i++)
			tx(t, q);	/* may be dropped */
	for (q = 0; q < t->th.cfg.nqueues; q++)
		if (rxq & (1U << q))
			rx_all(t, q);
	EXPECT(!rxb_env_timer_pending(t->th.env), "the NIC's timer is armed");
	EXPECT(rxb_env_run_ctl(t->th.env), "no driver-side controller");
}

/*
 * High throughput and pressure, balanced: privRing -> shRing after a
 * window.  A queue stops receiving while packets wait for it: overloaded,
 * shRing -> privRing after 7/8 of a window.  Every frame arrives once and
 * in order across both switches (the old set is drained first).
 */
static void test_dsh_switch(const void *arg)
{
	struct st *t;
	int i;

	(void)arg;
	t = st_create("dshring", 2, 64, 2, tune_dsh);
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 1000);
	EXPECT_EQ(xs(t, "dsh_shared"), 0);
	for (i = 0; i < 8; i++)
		dsh_tick(t, 3, 3);
	/* The first tick only took readings: 7 samples, no decision yet. */
	EXPECT_EQ(xs(t, "dsh_samples"), 7);
	EXPECT_EQ(xs(t, "dsh_switches"), 0);
	dsh_tick(t, 3, 3);
	EXPECT_EQ(xs(t, "dsh_switches"), 1);
	EXPECT_EQ(xs(t, "dsh_shared"), 1);
	EXPECT_EQ(xs(t, "ring0_reposts"), 0);
	/* Now the shared ring carries the traffic. */
	dsh_tick(t, 3, 3);
	EXPECT_EQ(xs(t, "ring0_reposts"), 16);
	EXPECT_EQ(xs(t, "dsh_overloaded"), 0);

	/* Queue 0 stops receiving: its packets fill the shared ring. */
	for (i = 0; i < 16 && xs(t, "dsh_switches") == 1; i++)
		dsh_tick(t, 3, 2);
	EXPECT(xs(t, "rx1_nobuf_victim_drops") > 0, "no victim drops on queue 1");
	EXPECT_EQ(xs(t, "dsh_switches"), 2);
	EXPECT_EQ(xs(t, "dsh_shared"), 0);
	/* Samples with the queue overloaded or the ring so full that no
	 * frame got through (low throughput) count against shRing.
	 */
	EXPECT(xs(t, "dsh_overloaded") > 0);
	ktap_diag("overloaded samples %llu, victim drops %llu",
		  (unsigned long long)xs(t, "dsh_overloaded"),
		  (unsigned long long)xs(t, "rx1_nobuf_victim_drops"));
	/* Queue 0 drains the shared ring, then its private one. */
	rx_all(t, 0);
	rx_all(t, 1);
	EXPECT_EQ(t->next_rx[0], t->next_tx[0]);
	EXPECT_EQ(t->next_rx[1], t->next_tx[1]);
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
	/* Every sample was a tick of the driver's task; the NIC has no
	 * controller.
	 */
	EXPECT(!t->th.hw->ops->timer, "the NIC's half has a timer");
	EXPECT_EQ(xs(t, "dsh_ctl_ticks"), xs(t, "dsh_samples") + 1);
	/* Counters add up over both sets. */
	EXPECT_EQ(QS(t, 0, packets), t->next_rx[0]);
	EXPECT_EQ(QS(t, 1, packets), t->next_rx[1]);
	EXPECT_EQ(QS(t, 0, hw_packets), t->next_tx[0]);
	st_destroy(t);
}

/*
 * The controller's switch is a posted write of every queue's select
 * register (2 x 4 bytes here): it moves no frame and latches nothing in
 * the NIC, nor does the NIC's doorbell service; the queue's next frame
 * latches it, writes the status back into host memory and goes to the
 * shared ring, and the queue's poll drains its private ring first.
 */
static void test_dsh_select_posted(const void *arg)
{
	struct rxb_hw_debug d0, d;
	struct nic_snap a, b;
	unsigned int q;
	struct st *t;
	u64 mmio;
	int i;

	(void)arg;
	t = st_create("dshring", 2, 64, 2, tune_dsh);
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 1000);
	for (i = 0; i < 8; i++)
		dsh_tick(t, 3, 3);
	/* The ninth sample switches: its traffic first, then the tick. */
	for (q = 0; q < 2; q++) {
		if (!tx_n(t, q, 8))
			goto out;
		rx_all(t, q);
	}
	/* Frames left in the private ring, for the drain. */
	if (!tx_n(t, 0, 3))
		goto out;
	/* The polls' writes served: what follows is the tick's. */
	rxb_th_nic_run(&t->th);
	nic_snap(t, &a);
	t->th.ops->nic_debug(t->th.m, 0, &d0);
	mmio = rxb_env_pcie(t->th.env, RXB_ENV_PCIE_KINDS);
	EXPECT(rxb_env_run_ctl(t->th.env), "no driver-side controller");
	if (!EXPECT_EQ(xs(t, "dsh_switches"), 1))
		goto out;
	EXPECT_EQ(xs(t, "dsh_shared"), 1);
	EXPECT_EQ(rxb_env_pcie(t->th.env, RXB_ENV_PCIE_KINDS) - mmio,
		  2 * sizeof(u32));
	EXPECT(rxb_env_doorbells_pending(t->th.env), "select not written");
	nic_snap(t, &b);
	nic_snap_same(t, &a, &b, "ctl_tick");
	EXPECT(rxb_th_nic_run(&t->th));
	nic_snap(t, &b);
	nic_snap_same(t, &a, &b, "doorbell service");
	/* Still the private ring's registers: the NIC latched nothing. */
	t->th.ops->nic_debug(t->th.m, 0, &d);
	EXPECT_EQ(d.taken, d0.taken);
	EXPECT_EQ(xs(t, "ring0_posted"), 64);
	/* The next frame latches the switch and takes the shared ring's
	 * first descriptor.
	 */
	if (!tx_n(t, 0, 1))
		goto out;
	t->th.ops->nic_debug(t->th.m, 0, &d);
	EXPECT_EQ(d.taken, 1);
	EXPECT_EQ(xs(t, "ring0_posted"), 63);
	EXPECT_EQ(rxb_env_pcie(t->th.env, RXB_PCIE_META_WR) -
		  a.pcie[RXB_PCIE_META_WR],
		  sizeof(struct rxb_cqe) + sizeof(struct rxb_dsh_status));
	/* In order: the private ring's three, then the shared ring's. */
	EXPECT_EQ(rx_all(t, 0), 4);
	EXPECT_EQ(t->next_rx[0], t->next_tx[0]);
	EXPECT_EQ(xs(t, "ring0_reposts"), 1);
out:
	st_destroy(t);
}

/*
 * One sample of @span ns on 4 queues: @calls[q] receive calls of queue q,
 * each after one frame, evenly spread over the sample (the inter-call
 * times the criterion looks at); @full[q]: queue q's calls take just
 * their budget (busy).  Returns the overloaded samples it added.
 */
static u64 dsh_sample_span(struct st *t, const unsigned int *calls,
			   const bool *full, u64 span)
{
	u64 ov = xs(t, "dsh_overloaded");
	unsigned int q, c, step = 64;

	for (c = 0; c < step; c++) {
		for (q = 0; q < 4; q++) {
			if (c * calls[q] / step == (c + 1) * calls[q] / step)
				continue;
			tx(t, q);
			rx(t, q, full[q] ? 1 : 64);
		}
		rxb_env_advance(t->th.env, span / step);
	}
	EXPECT(rxb_env_run_ctl(t->th.env), "no driver-side controller");
	return xs(t, "dsh_overloaded") - ov;
}

/* One sample of the controller's period (1 ms). */
static u64 dsh_period(struct st *t, const unsigned int *calls,
		      const bool *full)
{
	return dsh_sample_span(t, calls, full, 1000000);
}

/*
 * The overload criterion of thesis section 5.1.6 on synthetic inter-call
 * times: overloaded when the standard deviation of the times between
 * receive calls exceeds dsh_overload_ratio (4 here) times their median.
 * Four queues, three calling every x, one every y: the deviation is
 * sqrt(3)/4 (y - x), above 4x once y > 10.2x.  A queue that keeps up with
 * its packets is not slow, however rarely it is called.
 */
static void test_dsh_criterion(const void *arg)
{
	static const bool none[4], busy3[4] = { [3] = true };
	static const unsigned int even[4] = { 16, 16, 16, 16 };
	static const unsigned int tail8[4] = { 16, 16, 16, 2 };
	static const unsigned int tail16[4] = { 32, 32, 32, 2 };
	static const unsigned int stopped[4] = { 16, 16, 16, 0 };
	static const unsigned int rare[4] = { 2, 2, 2, 2 };
	struct st *t;

	(void)arg;
	t = st_create("dshring", 4, 256, 2, tune_dsh);
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 1000);
	rxb_env_run_ctl(t->th.env);	/* readings only */
	/* Uniform: no spread. */
	EXPECT_EQ(dsh_period(t, even, busy3), 0);
	/* Queue 3 busy, 8x the others' interval: sd 3.0x, not above 4x. */
	EXPECT_EQ(dsh_period(t, tail8, busy3), 0);
	/* Queue 3 busy, 16x: sd 6.1x > 4x. */
	EXPECT_EQ(dsh_period(t, tail16, busy3), 1);
	/* The same times, queue 3 not busy: it kept up with its traffic. */
	EXPECT_EQ(dsh_period(t, tail16, none), 0);
	/* Queue 3 stops calling with packets waiting: the time since its
	 * last call is its interval, busy.
	 */
	tx(t, 3);
	EXPECT_EQ(dsh_period(t, stopped, none), 1);
	/* Long samples (intervals past 2^26 ns, scaled): uniform ones are
	 * not spread, a queue stopped for seconds is.
	 */
	rx_all(t, 3);
	EXPECT_EQ(dsh_sample_span(t, rare, busy3, 640000000), 0);
	tx(t, 3);
	EXPECT_EQ(dsh_sample_span(t, stopped, none, 3200000000ULL), 1);
	EXPECT_EQ(xs(t, "dsh_samples"), 7);
	rx_all(t, 3);
	st_destroy(t);
}

static void tune_dsh_fast(struct rxb_model_cfg *cfg)
{
	tune_dsh(cfg);
	cfg->dsh_tput_mbps = 1000;
}

/* Low throughput: privRing stays, however high the pressure. */
static void test_dsh_stays_private(const void *arg)
{
	struct st *t;
	int i;

	(void)arg;
	t = st_create("dshring", 2, 64, 2, tune_dsh_fast);
	if (!t)
		return;
	rxb_env_fake_clock(t->th.env, 1000);
	/* 8 frames of ~700 B per ms per queue: ~90 Mbit/s, below 1000. */
	for (i = 0; i < 20; i++)
		dsh_tick(t, 3, 3);
	EXPECT_EQ(xs(t, "dsh_samples"), 19);
	EXPECT_EQ(xs(t, "dsh_pressure_high"), 19);
	EXPECT_EQ(xs(t, "dsh_tput_high"), 0);
	EXPECT_EQ(xs(t, "dsh_switches"), 0);
	EXPECT_EQ(xs(t, "dsh_shared"), 0);
	st_destroy(t);
}

/* Invalid dshRing and share-factor settings are refused. */
static void test_invalid(const void *arg)
{
	static const struct {
		const char *model;
		unsigned int sf, window, ratio;
		u64 period;
	} bad[] = {
		{ .model = "shring", .sf = 0 },
		{ .model = "shring", .sf = 5 },
		{ .model = "shring-list", .sf = 0 },
		{ .model = "shring-list", .sf = 9 },
		{ .model = "shring-batched", .sf = 0 },
		{ .model = "shring-batched", .sf = 5 },
		{ .model = "dshring", .sf = 0 },
		{ .model = "dshring", .sf = 3, .window = 12 },
		{ .model = "dshring", .sf = 2, .window = 72 },
		{ .model = "dshring", .sf = 2, .ratio = 1 },
		{ .model = "dshring", .sf = 2, .ratio = 2000 },
		{ .model = "dshring", .sf = 2, .period = 1000 },
	};
	struct rxb_model_cfg cfg;
	struct rxb_env *env = rxb_env_create(4, 0);
	unsigned int i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct rxb_model_ops *ops = rxb_model_find(bad[i].model);
		const char *msg = NULL;
		struct rxb_hw_model *hw;
		struct rxb_model *m;
		void *bar;
		int err;

		rxb_env_model_cfg(env, &cfg, 4, 64, 2048);
		cfg.share_factor = bad[i].sf;
		cfg.dsh_window = bad[i].window;
		cfg.dsh_overload_ratio = bad[i].ratio;
		cfg.dsh_period_ns = bad[i].period;
		EXPECT_EQ(rxb_model_validate(ops, &cfg, &msg), -EINVAL);
		EXPECT(msg && *msg, "%s case %u: no message", bad[i].model, i);
		if (msg)
			ktap_diag("%s: %s", bad[i].model, msg);
		/* Neither half is created: the driver validates first. */
		err = rxb_env_models_create(env, ops, &cfg,
					    &rxb_env_test_drv_ops,
					    &rxb_env_test_hw_ops, &m, &hw, &bar);
		if (!EXPECT_EQ(err, -EINVAL))
			rxb_env_models_destroy(env, m, hw, bar);
	}
	EXPECT_EQ(rxb_env_qstats(env, 0).alloc_calls, 0);
	rxb_env_destroy(env);
}

/* ---- thread stress: many queues on one small ring --------------------- */

static void tune_dsh_flap(struct rxb_model_cfg *cfg)
{
	tune_dsh(cfg);
	cfg->dsh_overload_ratio = 2;
}

static void test_stress_contended(const void *arg)
{
	const char *model = arg;
	struct rxb_stress_cfg cfg = {
		.model = model, .nqueues = 8, .ring_size = 64, .nproducers = 2,
		.budget = 3, .max_len = 200, .alloc_fail_one_in = 997,
		.seed = 0x5a17,
	};

	/* Every queue shares one 64-entry ring: constant lock and bitmap
	 * contention, tiny reposts, long held-back runs.
	 */
	if (!strcmp(model, "dshring"))
		cfg.tune = tune_dsh_flap;
	cfg.frames = rxb_stress_frames(2000000) / 5;
	rxb_stress_run(&cfg);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "arr_create", test_arr_create, NULL },
		{ "arr_shared_capacity", test_arr_shared_capacity, NULL },
		{ "arr_held_back", test_arr_held_back, NULL },
		{ "arr_bitmap_atomics", test_arr_bitmap_atomics, NULL },
		{ "arr_destroy", test_arr_destroy, NULL },
		{ "arr_alloc_fail", test_arr_alloc_fail, NULL },
		{ "arr_posted", test_posted, "shring" },
		{ "arr_partial_create", test_partial_create, "shring" },
		{ "list_partial_create", test_partial_create, "shring-list" },
		{ "list_end_marker", test_list_end_marker, NULL },
		{ "list_no_hol", test_list_no_hol, NULL },
		{ "list_posted", test_posted, "shring-list" },
		{ "bat_packing", test_bat_packing, NULL },
		{ "bat_fit", test_bat_fit, NULL },
		{ "bat_stalled_neighbour", test_bat_stalled_neighbour, NULL },
		{ "bat_frag_refs", test_bat_frag_refs, NULL },
		{ "bat_idle_close", test_bat_idle_close, NULL },
		{ "bat_posted", test_posted, "shring-batched" },
		{ "dsh_switch", test_dsh_switch, NULL },
		{ "dsh_select_posted", test_dsh_select_posted, NULL },
		{ "dsh_stays_private", test_dsh_stays_private, NULL },
		{ "dsh_criterion", test_dsh_criterion, NULL },
		{ "invalid", test_invalid, NULL },
		{ "stress_contended_arr", test_stress_contended, "shring" },
		{ "stress_contended_list", test_stress_contended, "shring-list" },
		{ "stress_contended_batched", test_stress_contended,
		  "shring-batched" },
		{ "stress_contended_dsh", test_stress_contended, "dshring" },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
