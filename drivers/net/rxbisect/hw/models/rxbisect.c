// SPDX-License-Identifier: GPL-2.0
/*
 * rxBisect, the NIC's half: allocation (Ax) and bisected reception (Bx)
 * rings (rxbisect paper section 4, thesis chapter 6).  Registers: struct
 * rxb_axbx_regs and struct rxb_rxbisect_qstats_regs in each queue's page.
 *
 * Each queue has a Bx ring the NIC writes and, by default, an Ax ring of
 * empty buffers the driver posts.  Each Ax ring is linked to one Bx ring
 * (by default Ax i to Bx i, ax_link): the NIC reports every buffer it
 * takes from the Ax ring there.  Each Bx ring is associated with a set of
 * Ax rings (all of them by default; ax_assoc groups or any overlapping
 * sets, ax_assoc_map): when its own Ax ring is empty (or it has none), the
 * NIC borrows a buffer from an associated Ax ring, writes the packet to
 * the Bx ring and a buffer-consumed notification to the lender's linked
 * Bx ring.  The one serialisation is the NIC's own pipeline stage
 * (section 4.4), which assigns ring entries but copies no frame.
 *
 * The NIC reads the driver's ax_tail and bx_head registers when it needs
 * them, at the next frame, so it has nothing to do when they are written
 * (no doorbell op).  Notifications held back (notif_compress, or a full
 * Bx ring) go out with the Bx ring's next packet, or from the NIC's
 * timer.  Its head of each Ax ring and its tail of each Bx ring are the
 * queue's debug registers (taken, cq_tail).
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_topo.h>
#include "hw_ring.h"

/* Default hold of a compressed notification, and the most held per ring. */
#define RXBISECT_NOTIF_TIMEOUT_NS	(50 * 1000)
#define RXBISECT_HELD_MAX		64

/* One queue: its Bx ring, and the Ax ring linked to it if it has one. */
struct rxbisect_hw_q {
	const struct rxb_rx_desc *ax;	/* mapped; NULL: none is linked */
	struct rxb_bxe *bx;		/* mapped */
	__le64 *ts;			/* its stamp ring (RXB_TSTAMP), or NULL */
	struct rxb_axbx_regs *regs;	/* the queue's registers */
	/* taken: the linked Ax ring's head; cq_tail: the Bx ring's tail */
	struct rxb_qdebug_regs *dbg;
	struct rxb_rxbisect_qstats_regs *xs;
	/* Under rxbisect_hw.lock. */
	u32 held;		/* notifications held for this Bx */
	u32 held_first;		/* Ax index of the oldest held one */
	u64 held_since;		/* when the oldest was held */
	u32 rr;			/* round-robin cursor over lenders */
	u32 rnd;		/* the random policy's LFSR state */
} ____cacheline_aligned;

struct rxbisect_hw {
	struct rxb_hw_model m;
	u32 amask, bmask;
	unsigned int border;
	u64 timeout_ns;
	struct rxbisect_topo t;
	struct rxbisect_hw_q *q;
	/* The NIC's ring-assignment pipeline stage (section 4.4): reserves
	 * Ax slots and Bx entries and writes notification-only entries.  No
	 * frame is copied under it.  On a line of its own: the NIC takes it
	 * for every frame.
	 */
	spinlock_t lock ____cacheline_aligned;
};

#define to_rxbisect_hw(mp)	container_of(mp, struct rxbisect_hw, m)

/* The queue Ax ring @a is linked to: where its state lives. */
static struct rxbisect_hw_q *rxbisect_axq(struct rxbisect_hw *rb,
					  unsigned int a)
{
	return &rb->q[rb->t.link[a]];
}

/* Buffers posted to Ax ring @a and not taken.  Acquire (rxb_db_read):
 * pairs with the driver's release of ax_tail in rxb_ring_refill(), so the
 * descriptors up to the tail are visible.
 */
static u32 rxbisect_ax_avail(struct rxbisect_hw *rb, unsigned int a)
{
	struct rxbisect_hw_q *q = rxbisect_axq(rb, a);

	return rxb_db_read(&q->regs->ax_tail) - q->dbg->taken;
}

/* Room to reserve a Bx entry.  Acquire (rxb_db_read): pairs with the
 * release of bx_head in rxbisect_poll() (driver), so the driver is done
 * reading an entry before the NIC rewrites it.  The driver never passes
 * an entry that is reserved but not yet published, so neither does
 * bx_head.
 */
static bool rxbisect_bx_room(struct rxbisect_hw *rb, unsigned int b)
{
	return rb->q[b].dbg->cq_tail - rxb_db_read(&rb->q[b].regs->bx_head) <=
	       rb->bmask;
}

/* Reserve the next entry of Bx ring @b; under rxbisect_hw.lock. */
static u32 rxbisect_bx_reserve(struct rxbisect_hw *rb, unsigned int b)
{
	u32 idx = rb->q[b].dbg->cq_tail;

	/* WRITE_ONCE: a debug register, the driver reads it from anywhere. */
	WRITE_ONCE(rb->q[b].dbg->cq_tail, idx + 1);
	return idx;
}

/* Write and publish the Bx entry @idx of ring @b, reserved by the caller
 * (with or without rxbisect_hw.lock: the entry is the reserver's alone
 * until its done bit flips).
 */
static void rxbisect_bx_write(struct rxbisect_hw *rb, unsigned int b, u32 idx,
			      u64 addr, const struct rxb_frame *f, u32 csum,
			      u8 flags, unsigned int a, u32 ax_idx)
{
	struct rxb_bxe *e = &rb->q[b].bx[idx & rb->bmask];
	u8 gen = rxb_gen(idx, rb->border);

	e->buf_addr = cpu_to_le64(addr);
	e->rss_hash = cpu_to_le32(f ? f->hash : 0);
	e->csum = cpu_to_le32(csum);
	e->pkt_len = cpu_to_le16(f ? f->len : 0);
	e->ax_idx = cpu_to_le16(ax_idx & rb->amask);
	e->ax_ring = cpu_to_le16(a);
	e->reserved0 = 0;
	e->reserved1 = 0;
	if (f)
		rxb_hw_tstamp_put(&rb->m, b, rb->q[b].ts, idx & rb->bmask,
				  f->ts);
	/* Release: the frame copied by dma_write() and the fields above are
	 * visible before the done bit.  Pairs with the acquire in
	 * rxbisect_poll() and rxbisect_rx_pending() (driver).
	 */
	smp_store_release(&e->flags, (u8)(flags | (gen ? RXB_CQE_F_DONE : 0)));
	rxb_hw_pcie(&rb->m, b, RXB_PCIE_META_WR, sizeof(*e));
}

/* A notification-only entry for Bx ring @b, about slot @ax_idx of its Ax. */
static void rxbisect_notif_write(struct rxbisect_hw *rb, unsigned int b,
				 u32 ax_idx)
{
	rxbisect_bx_write(rb, b, rxbisect_bx_reserve(rb, b), 0, NULL, 0,
			  RXB_BXE_F_NOTIFY, rb->t.own[b], ax_idx);
	rxb_stat_inc(&rb->q[b].xs->notif_entries);
}

/* Write the notifications held for Bx ring @b that fit.  Returns true if
 * at least one was written (the ring's vector must be raised).
 */
static bool rxbisect_flush(struct rxbisect_hw *rb, unsigned int b)
{
	struct rxbisect_hw_q *q = &rb->q[b];
	bool wrote = false;

	while (q->held && rxbisect_bx_room(rb, b)) {
		rxbisect_notif_write(rb, b, q->held_first);
		q->held_first++;
		q->held--;
		if (rb->m.cfg.notif_compress)
			rxb_stat_inc(&q->xs->notif_compressed);
		wrote = true;
	}
	if (q->held)
		q->held_since = rxb_hw_now_ns(&rb->m);
	return wrote;
}

/* Report to Ax ring @a's linked Bx ring that its slot @ax_idx was taken. */
static bool rxbisect_notify(struct rxbisect_hw *rb, unsigned int a, u32 ax_idx)
{
	unsigned int l = rb->t.link[a];
	struct rxbisect_hw_q *q = &rb->q[l];

	/* Held ones go first: the driver refills its Ax in report order. */
	if (!q->held && !rb->m.cfg.notif_compress && rxbisect_bx_room(rb, l)) {
		rxbisect_notif_write(rb, l, ax_idx);
		return true;
	}
	if (!q->held) {
		q->held_first = ax_idx;
		q->held_since = rxb_hw_now_ns(&rb->m);
	}
	q->held++;
	if (q->held >= RXBISECT_HELD_MAX)
		return rxbisect_flush(rb, l);
	rxb_hw_arm_timer(&rb->m, rb->timeout_ns);
	return false;
}

/* The NIC's LFSR (xorshift32): hardware picks "a random non-empty Ax
 * ring" (section 4.1) without a software random source.
 */
static u32 rxbisect_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* Choose the Ax ring to take a buffer from for Bx ring @b. */
static int rxbisect_pick_ax(struct rxbisect_hw *rb, unsigned int b)
{
	unsigned int nax = rb->t.nax, i, a, cnt = 0, pick = 0;
	struct rxbisect_hw_q *q = &rb->q[b];
	int own = rb->t.own[b], best = -1;
	u64 lenders;
	u32 most = 0;

	if (own >= 0 && rxbisect_ax_avail(rb, own))
		return own;
	rxb_stat_inc(&q->xs->ax_empty);
	lenders = rb->t.assoc[b] & ~(own >= 0 ? BIT_ULL(own) : 0);
	if (rb->m.cfg.ax_policy == RXB_AX_RANDOM) {
		for (a = 0; a < nax; a++)
			if ((lenders & BIT_ULL(a)) && rxbisect_ax_avail(rb, a))
				cnt++;
		if (cnt)
			pick = rxbisect_rand(&q->rnd) % cnt;
	}
	for (i = 0; i < nax; i++) {
		u32 avail;

		a = rb->m.cfg.ax_policy == RXB_AX_RANDOM ? i :
		    (q->rr + i) % nax;
		if (!(lenders & BIT_ULL(a)))
			continue;
		avail = rxbisect_ax_avail(rb, a);
		if (!avail)
			continue;
		switch (rb->m.cfg.ax_policy) {
		case RXB_AX_RR:
			q->rr = (a + 1) % nax;
			return a;
		case RXB_AX_RANDOM:
			/* Ax heads move only under the lock, tails only
			 * grow: every ring counted is still non-empty.
			 */
			if (!pick--)
				return a;
			break;
		default:
			if (avail > most) {
				most = avail;
				best = a;
			}
		}
	}
	return best;
}

/* The NIC receives @f for Bx ring @b.  Under rxbisect_hw.lock (the
 * pipeline stage that assigns ring entries, section 4.4): flush held
 * notifications, pick an Ax ring, reserve its slot and the Bx entry, and
 * write the lender's notification.  Outside it: copy the frame and
 * publish the entry.  Entries of one Bx ring may thus be published out of
 * order; the driver stops at the first one not done, so it still reads
 * them in ring order, and every Ax slot is reported in the order it was
 * reserved.  A reserved entry is always published, with RXB_CQE_F_DMA_ERR
 * if the copy failed, so the driver's teardown finds every packet.
 */
static int rxbisect_rx(struct rxb_hw_model *m, unsigned int b,
		       const struct rxb_frame *f)
{
	struct rxbisect_hw *rb = to_rxbisect_hw(m);
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, b);
	bool irq_b = false, irq_a = false;
	const struct rxb_rx_desc *d;
	u8 flags = f->hash_flags;
	u32 ax_idx, bx_idx, csum = 0;
	struct rxbisect_hw_q *aq;
	int a, err = 0;
	u64 addr;

	spin_lock(&rb->lock);
	/* Notifications held for this ring go out with its next packet, and
	 * before it: the driver refills its Ax in report order.  Whatever is
	 * still held found the ring full; the driver may free room after
	 * the flush looked, but a new entry must not overtake the held ones.
	 */
	irq_b = rxbisect_flush(rb, b);
	if (rb->q[b].held || !rxbisect_bx_room(rb, b)) {
		err = -ENOSPC;
		goto drop;
	}
	a = rxbisect_pick_ax(rb, b);
	if (a < 0) {
		err = -ENOBUFS;
		goto drop;
	}
	aq = rxbisect_axq(rb, a);
	ax_idx = aq->dbg->taken;
	d = &aq->ax[ax_idx & rb->amask];
	if (f->len > le32_to_cpu(d->buf_len)) {
		err = -EMSGSIZE;
		goto drop;
	}
	addr = le64_to_cpu(d->buf_addr);
	rxb_hw_pcie(m, b, RXB_PCIE_DESC_RD, sizeof(*d));
	/* WRITE_ONCE: a debug register, the driver reads it from anywhere. */
	WRITE_ONCE(aq->dbg->taken, ax_idx + 1);
	bx_idx = rxbisect_bx_reserve(rb, b);
	flags |= RXB_BXE_F_PKT;
	if (a == rb->t.own[b]) {
		/* The common case: one combined entry (Figure 5b). */
		flags |= RXB_BXE_F_NOTIFY;
	} else {
		rxb_stat_inc(&rb->q[b].xs->borrowed);
		rxb_stat_inc(&aq->xs->lent);
		/* Written now, in parallel with the packet (section 4.4):
		 * the lender may repost the slot; the NIC has read its
		 * address already.
		 */
		irq_a = rxbisect_notify(rb, a, ax_idx);
	}
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
	spin_unlock(&rb->lock);

	/* The copy runs in parallel with other frames, as privRing's does. */
	flags |= rxb_hw_dma_write(m, f, addr, &csum);
	rxbisect_bx_write(rb, b, bx_idx, addr, f, csum, flags, a, ax_idx);
	rxb_hw_raise_irq(m, b);
	if (irq_a)
		rxb_hw_raise_irq(m, rb->t.link[a]);
	return 0;

drop:
	return rxb_nic_finish_irq(m, b, &rb->lock, err, irq_b);
}

/* The NIC's timer: write the notifications held longer than the timeout. */
static void rxbisect_timer(struct rxb_hw_model *m)
{
	struct rxbisect_hw *rb = to_rxbisect_hw(m);
	unsigned int i, n = m->cfg.nqueues;
	bool again = false;
	u64 now, wrote = 0;

	spin_lock(&rb->lock);
	now = rxb_hw_now_ns(m);
	for (i = 0; i < n; i++) {
		struct rxbisect_hw_q *q = &rb->q[i];

		if (!q->held)
			continue;
		if (now - q->held_since >= rb->timeout_ns &&
		    rxbisect_flush(rb, i))
			wrote |= 1ULL << i;
		again |= q->held != 0;
	}
	spin_unlock(&rb->lock);
	for (i = 0; i < n; i++)
		if (wrote & (1ULL << i))
			rxb_hw_raise_irq(m, i);
	if (again)
		rxb_hw_arm_timer(m, rb->timeout_ns);
}

static const struct rxb_layout rxbisect_hw_layout =
	RXB_QUEUE_LAYOUT(struct rxbisect_hw, struct rxbisect_hw_q);

static int rxbisect_init(struct rxb_hw_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct rxbisect_hw *rb = to_rxbisect_hw(m);
	unsigned int qi;
	const char *msg;

	spin_lock_init(&rb->lock);
	rb->amask = cfg->ax_ring_size - 1;
	rb->bmask = cfg->ring_size - 1;
	rb->border = ilog2(cfg->ring_size);
	rb->timeout_ns = cfg->notif_timeout_ns ?: RXBISECT_NOTIF_TIMEOUT_NS;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct rxbisect_hw_q *q = &rb->q[qi];

		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->dbg = rxb_bar_qdebug(&m->bar, qi);
		q->xs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_MSTATS);
		q->rnd = qi + 1;	/* any nonzero LFSR seed */
	}
	/* Checked by the driver half's validate already. */
	return rxbisect_topo(cfg, &rb->t, &msg);
}

/* The context is enabled: map the rings the driver programmed. */
static int rxbisect_start(struct rxb_hw_model *m)
{
	struct rxbisect_hw *rb = to_rxbisect_hw(m);
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct rxbisect_hw_q *q = &rb->q[qi];

		q->bx = rxb_hw_dma_map(m, &q->regs->bx_base,
				       (size_t)(rb->bmask + 1) * sizeof(*q->bx) +
				       rxb_tstamp_ring_bytes(rb->bmask + 1,
							     m->cfg.rx_tstamp));
		if (!q->bx)
			return -EINVAL;
		q->ts = m->cfg.rx_tstamp ? (__le64 *)(q->bx + rb->bmask + 1) :
			NULL;
		if (rb->t.own[qi] < 0)
			continue;	/* no Ax ring is linked to this queue */
		q->ax = rxb_hw_dma_map(m, &q->regs->ax_base,
				       (size_t)(rb->amask + 1) * sizeof(*q->ax));
		if (!q->ax)
			return -EINVAL;
	}
	return 0;
}

const struct rxb_hw_model_ops rxb_rxbisect_hw_ops = {
	RXB_HW_MODEL_OPS("rxbisect", rxbisect),
	.timer = rxbisect_timer,
};
