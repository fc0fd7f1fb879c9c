// SPDX-License-Identifier: GPL-2.0
/*
 * rxBisect: allocation (Ax) and bisected reception (Bx) rings (rxbisect
 * paper section 4, thesis chapter 6).
 *
 * Each queue has a large Bx ring of entries (NIC -> core) and, by default,
 * a small Ax ring of empty buffers (core -> NIC).  Each Ax ring is linked
 * to one Bx ring (by default Ax i to Bx i, ax_link): the NIC reports every
 * buffer it takes from the Ax ring there, and that queue refills it.  Each
 * Bx ring is associated with a set of Ax rings (all of them by default;
 * ax_assoc groups or any overlapping sets, ax_assoc_map): when its own Ax
 * ring is empty (or it has none), the NIC borrows a buffer from an
 * associated Ax ring, writes the packet to the Bx ring and a
 * buffer-consumed notification to the lender's linked Bx ring.  Buffers
 * thus move between cores without any software lock; the one
 * serialisation is the NIC's own pipeline stage (section 4.4), which
 * assigns ring entries but copies no frame.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

/* Default hold of a compressed notification, and the most held per ring. */
#define RXBISECT_NOTIF_TIMEOUT_NS	(50 * 1000)
#define RXBISECT_HELD_MAX		64

/* NIC-side counters of one queue, beyond struct rxb_qstats. */
struct rxbisect_xstats {
	u64 borrowed;		/* packets to this Bx in another Ax's buffer */
	u64 lent;		/* this queue's Ax buffers used for another Bx */
	u64 notif_entries;	/* notification-only entries written here */
	u64 notif_compressed;	/* of those, held back before being written */
	u64 ax_empty;		/* packets that found this Bx's own Ax empty */
};

#define RXBISECT_XSTATS	6	/* the above, plus ax_outstanding */

/* One queue: its Bx ring, and the Ax ring linked to it if it has one (an
 * Ax ring lives with the queue whose NAPI refills it, see rxbisect_topo).
 */
struct rxbisect_q {
	/* Ring memory, read and written by both NIC and driver. */
	struct rxb_rx_desc *ax;	/* NULL: no Ax ring is linked here */
	struct rxb_bxe *bx;

	/* Doorbell registers: written by the driver, read by the NIC. */
	struct rxb_axbx_regs regs ____cacheline_aligned;

	/* NIC-internal state, under rxbisect.lock. */
	struct {
		u32 ax_head;		/* next slot to take from the linked Ax */
		u32 bx_tail;		/* next Bx entry to reserve */
		u32 held;		/* notifications held for this Bx */
		u32 held_first;		/* Ax index of the oldest held one */
		u64 held_since;		/* when the oldest was held */
		u32 rr;			/* round-robin cursor over lenders */
		u32 rnd;		/* the random policy's LFSR state */
		struct rxbisect_xstats xs;
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		u32 ax_tail;		/* next Ax slot to post */
		u32 ax_ci;		/* Ax slots reported consumed */
		u32 bx_head;		/* next Bx entry to read */
		void **cookie;		/* buffer handle per Ax slot */
	} sw ____cacheline_aligned;
};

/* Association and linking (rxbisect paper section 4.1): "software
 * associates each Bx ring r with several Ax rings" and "links each Ax ring
 * a with some Bx ring r".  Written by the driver at create (the NIC's
 * association and link registers), read-only afterwards.  Ax rings are
 * numbered 0..nax-1; at most one Ax ring is linked to a queue (Listing 1
 * refills one Ax ring per Bx ring), so nax <= nqueues, and a queue may
 * have none: its packets always take borrowed buffers ("a small number of
 * large Ax rings, which are served by a few dedicated allocation cores",
 * section 4.2).  Sets may overlap; a queue's own Ax ring is always tried
 * first, then the set.
 */
struct rxbisect_topo {
	unsigned int nax;
	u8 link[RXB_MAX_MODEL_QUEUES];	 /* Ax ring -> queue it is linked to */
	s8 own[RXB_MAX_MODEL_QUEUES];	 /* queue -> its linked Ax ring or -1 */
	u64 assoc[RXB_MAX_MODEL_QUEUES]; /* queue -> Ax rings it may borrow */
};

static_assert(RXB_MAX_MODEL_QUEUES <= 64);

struct rxbisect {
	struct rxb_model m;
	/* Set at create, read-only afterwards: read by both halves. */
	u32 amask, bmask;
	unsigned int border;
	u64 timeout_ns;
	struct rxbisect_topo t;
	struct rxbisect_q *q;
	/* The NIC's ring-assignment pipeline stage (section 4.4): reserves
	 * Ax slots and Bx entries and writes notification-only entries.  No
	 * frame is copied under it.  NIC-internal, so on a line of its own:
	 * the NIC takes it for every frame, and a lock beside the read-only
	 * fields above would cost the driver a cache miss on them per poll,
	 * which no hardware NIC's pipeline stage does.
	 */
	spinlock_t lock ____cacheline_aligned;
};

static const struct rxb_layout rxbisect_layout =
	RXB_QUEUE_LAYOUT(struct rxbisect, struct rxbisect_q,
			 RXB_ARRAY(struct rxbisect_q, bx, struct rxb_bxe,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct rxbisect_q, ax, struct rxb_rx_desc,
				   RXB_ARR_AX),
			 RXB_ARRAY(struct rxbisect_q, sw.cookie, void *,
				   RXB_ARR_AX));

static struct rxbisect *to_rxbisect(struct rxb_model *m)
{
	return container_of(m, struct rxbisect, m);
}

/* The queue Ax ring @a is linked to: where its state lives. */
static struct rxbisect_q *rxbisect_axq(struct rxbisect *rb, unsigned int a)
{
	return &rb->q[rb->t.link[a]];
}

/* ---- topology strings (Documentation/rxbisect.rst) ------------------- */

/* A decimal number below 256 at *@s; advances *@s past it. */
static bool rxbisect_num(const char **s, unsigned int *v)
{
	const char *p = *s;
	unsigned int n = 0;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > 255)
			return false;
	}
	*v = n;
	*s = p;
	return true;
}

/* "N" or "N-M" with N <= M at *@s. */
static bool rxbisect_range(const char **s, unsigned int *lo, unsigned int *hi)
{
	if (!rxbisect_num(s, lo))
		return false;
	*hi = *lo;
	if (**s != '-')
		return true;
	(*s)++;
	return rxbisect_num(s, hi) && *hi >= *lo;
}

#define RXBISECT_MAP_SYNTAX \
	"ax_assoc_map: expected sets of Ax rings, e.g. 0-3;2-5 or +0-1 or *"

/* Bits @lo..@hi, @hi < 64. */
static u64 rxbisect_bits(unsigned int lo, unsigned int hi)
{
	return (~0ULL >> (63 - hi)) & (~0ULL << lo);
}

/* ax_link: "Q[-Q],...": Ax ring k is linked to the k-th queue listed. */
static int rxbisect_parse_link(const struct rxb_model_cfg *cfg,
			       struct rxbisect_topo *t, const char **msg)
{
	const char *s = cfg->ax_link;
	unsigned int lo, hi, qi;

	memset(t->own, -1, sizeof(t->own));
	t->nax = 0;
	if (!*s) {
		for (qi = 0; qi < cfg->nqueues; qi++) {
			t->own[qi] = qi;
			t->link[t->nax++] = qi;
		}
		return 0;
	}
	for (;;) {
		if (!rxbisect_range(&s, &lo, &hi)) {
			*msg = "ax_link: expected queues and ranges, e.g. 6-7 or 0,3";
			return -EINVAL;
		}
		if (hi >= cfg->nqueues) {
			*msg = "ax_link: a queue number is not below the queue count";
			return -EINVAL;
		}
		for (qi = lo; qi <= hi; qi++) {
			if (t->own[qi] >= 0) {
				*msg = "ax_link: a queue is linked to two Ax rings";
				return -EINVAL;
			}
			t->own[qi] = t->nax;
			t->link[t->nax++] = qi;
		}
		if (!*s)
			return 0;
		if (*s++ != ',') {
			*msg = "ax_link: expected queues and ranges, e.g. 6-7 or 0,3";
			return -EINVAL;
		}
	}
}

/* One set of ax_assoc_map, "*" or "[+]N[-M],...", for the queues b with
 * b % @nsets == @set; advances *@s to its end.
 */
static int rxbisect_parse_set(const struct rxb_model_cfg *cfg,
			      struct rxbisect_topo *t, const char **s,
			      unsigned int set, unsigned int nsets,
			      const char **msg)
{
	unsigned int lo, hi, k, b;
	u64 abs = 0, rel = 0;

	for (;;) {
		bool plus = **s == '+';

		if (**s == '*') {
			(*s)++;
			abs |= rxbisect_bits(0, t->nax - 1);
		} else {
			*s += plus;
			if (!rxbisect_range(s, &lo, &hi)) {
				*msg = RXBISECT_MAP_SYNTAX;
				return -EINVAL;
			}
			if (hi >= t->nax) {
				*msg = "ax_assoc_map: no such Ax ring (see ax_link)";
				return -EINVAL;
			}
			if (plus)
				rel |= rxbisect_bits(lo, hi);
			else
				abs |= rxbisect_bits(lo, hi);
		}
		if (**s != ',')
			break;
		(*s)++;
	}
	for (b = set; b < cfg->nqueues; b += nsets) {
		t->assoc[b] = abs;
		/* "+K": the Ax ring K after the queue's own (or after b). */
		for (k = 0; k < t->nax; k++)
			if (rel & BIT_ULL(k))
				t->assoc[b] |= BIT_ULL(((t->own[b] >= 0 ?
							 t->own[b] : b) + k) %
						       t->nax);
	}
	return 0;
}

/* ax_assoc_map, or the groups of ax_assoc when it is empty. */
static int rxbisect_parse_map(const struct rxb_model_cfg *cfg,
			      struct rxbisect_topo *t, const char **msg)
{
	unsigned int n = cfg->nqueues, nsets = 1, set, a, b, g;
	const char *s = cfg->ax_assoc_map;
	int err;

	memset(t->assoc, 0, sizeof(t->assoc));
	if (!*s) {
		/* Groups of consecutive queues; an Ax ring is in the group
		 * of the queue it is linked to.
		 */
		g = cfg->ax_assoc && cfg->ax_assoc < n ? cfg->ax_assoc : n;
		for (b = 0; b < n; b++)
			for (a = 0; a < t->nax; a++)
				if (t->link[a] / g == b / g)
					t->assoc[b] |= BIT_ULL(a);
		goto check;
	}
	for (; *s; s++)
		nsets += *s == ';';
	if (nsets > n) {
		*msg = "ax_assoc_map: more sets than queues";
		return -EINVAL;
	}
	s = cfg->ax_assoc_map;
	for (set = 0; set < nsets; set++) {
		err = rxbisect_parse_set(cfg, t, &s, set, nsets, msg);
		if (err)
			return err;
		if (*s && *s++ != ';') {
			*msg = RXBISECT_MAP_SYNTAX;
			return -EINVAL;
		}
	}
check:
	for (b = 0; b < n; b++)
		if (t->own[b] < 0 && !t->assoc[b]) {
			*msg = "a queue has no Ax ring to take buffers from (ax_link, ax_assoc)";
			return -EINVAL;
		}
	return 0;
}

static int rxbisect_topo(const struct rxb_model_cfg *cfg,
			 struct rxbisect_topo *t, const char **msg)
{
	return rxbisect_parse_link(cfg, t, msg) ?:
	       rxbisect_parse_map(cfg, t, msg);
}

/**
 * rxb_rxbisect_topo_check() - check rxBisect's ax_link and ax_assoc_map.
 * @cfg: configuration; @cfg->nqueues, @cfg->ax_assoc and the two strings
 *	are used.
 * @msg: set to a static explanation on error.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_rxbisect_topo_check(const struct rxb_model_cfg *cfg, const char **msg)
{
	struct rxbisect_topo t;

	return rxbisect_topo(cfg, &t, msg);
}

/* Zero-copy AF_XDP (rxb_model_ops.umem_check): queue @q's buffers go to
 * the Ax ring linked to it and come back to it only if no other Bx ring
 * may borrow from that Ax ring: a borrowed buffer is handed up by the
 * borrower's poll, known by its address only, and a umem buffer must go
 * back to its socket's queue.  Borrowing the other way (@q's packets in
 * other queues' buffers) is fine: those are copied into the umem.
 */
static int rxbisect_umem_check(const struct rxb_model_cfg *cfg, unsigned int q,
			       const char **msg)
{
	struct rxbisect_topo t;
	unsigned int b;
	int err;

	err = rxbisect_topo(cfg, &t, msg);
	if (err)
		return err;
	if (q >= cfg->nqueues || t.own[q] < 0) {
		*msg = "no Ax ring is linked to the queue (ax_link)";
		return -EOPNOTSUPP;
	}
	for (b = 0; b < cfg->nqueues; b++) {
		if (b != q && (t.assoc[b] & BIT_ULL(t.own[q]))) {
			*msg = "other queues borrow from its Ax ring (ax_assoc_map)";
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* ---- NIC side ------------------------------------------------------- */

/* Buffers posted to Ax ring @a and not taken.  Acquire (rxb_db_read):
 * pairs with the driver's release of the doorbell in rxb_ring_refill(),
 * so the descriptors up to the tail are visible.
 */
static u32 rxbisect_ax_avail(struct rxbisect *rb, unsigned int a)
{
	struct rxbisect_q *q = rxbisect_axq(rb, a);

	return rxb_db_read(&q->regs.ax_tail) - q->hw.ax_head;
}

/* Room to reserve a Bx entry.  Acquire (rxb_db_read): pairs with the
 * release of bx_head in rxbisect_poll(), so the driver is done reading an
 * entry before the NIC rewrites it.  The driver never passes an entry
 * that is reserved but not yet published, so neither does bx_head.
 */
static bool rxbisect_bx_room(struct rxbisect *rb, unsigned int b)
{
	return rb->q[b].hw.bx_tail - rxb_db_read(&rb->q[b].regs.bx_head) <=
	       rb->bmask;
}

/* Reserve the next entry of Bx ring @b; under rxbisect.lock. */
static u32 rxbisect_bx_reserve(struct rxbisect *rb, unsigned int b)
{
	u32 idx = rb->q[b].hw.bx_tail;

	/* WRITE_ONCE: rxbisect_hw_debug() reads it from anywhere. */
	WRITE_ONCE(rb->q[b].hw.bx_tail, idx + 1);
	return idx;
}

/* Write and publish the Bx entry @idx of ring @b, reserved by the caller
 * (with or without rxbisect.lock: the entry is the reserver's alone until
 * its done bit flips).
 */
static void rxbisect_bx_write(struct rxbisect *rb, unsigned int b, u32 idx,
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
	/* Release: the frame copied by dma_write() and the fields above are
	 * visible before the done bit.  Pairs with the acquire in
	 * rxbisect_poll() and rxbisect_rx_pending().
	 */
	smp_store_release(&e->flags, (u8)(flags | (gen ? RXB_CQE_F_DONE : 0)));
	rxb_hw_pcie(&rb->m, b, RXB_PCIE_META_WR, sizeof(*e));
}

/* A notification-only entry for Bx ring @b, about slot @ax_idx of its Ax. */
static void rxbisect_notif_write(struct rxbisect *rb, unsigned int b,
				 u32 ax_idx)
{
	rxbisect_bx_write(rb, b, rxbisect_bx_reserve(rb, b), 0, NULL, 0,
			  RXB_BXE_F_NOTIFY, rb->t.own[b], ax_idx);
	rxb_stat_inc(&rb->q[b].hw.xs.notif_entries);
}

/* Write the notifications held for Bx ring @b that fit.  Returns true if
 * at least one was written (the ring's vector must be raised).
 */
static bool rxbisect_flush(struct rxbisect *rb, unsigned int b)
{
	struct rxbisect_q *q = &rb->q[b];
	bool wrote = false;

	while (q->hw.held && rxbisect_bx_room(rb, b)) {
		rxbisect_notif_write(rb, b, q->hw.held_first);
		q->hw.held_first++;
		q->hw.held--;
		if (rb->m.cfg.notif_compress)
			rxb_stat_inc(&q->hw.xs.notif_compressed);
		wrote = true;
	}
	if (q->hw.held)
		q->hw.held_since = rxb_hw_now_ns(&rb->m);
	return wrote;
}

/* Report to Ax ring @a's linked Bx ring that its slot @ax_idx was taken. */
static bool rxbisect_notify(struct rxbisect *rb, unsigned int a, u32 ax_idx)
{
	unsigned int l = rb->t.link[a];
	struct rxbisect_q *q = &rb->q[l];

	/* Held ones go first: the driver refills its Ax in report order. */
	if (!q->hw.held && !rb->m.cfg.notif_compress &&
	    rxbisect_bx_room(rb, l)) {
		rxbisect_notif_write(rb, l, ax_idx);
		return true;
	}
	if (!q->hw.held) {
		q->hw.held_first = ax_idx;
		q->hw.held_since = rxb_hw_now_ns(&rb->m);
	}
	q->hw.held++;
	if (q->hw.held >= RXBISECT_HELD_MAX)
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
static int rxbisect_pick_ax(struct rxbisect *rb, unsigned int b)
{
	unsigned int nax = rb->t.nax, i, a, cnt = 0, pick = 0;
	struct rxbisect_q *q = &rb->q[b];
	int own = rb->t.own[b], best = -1;
	u64 lenders;
	u32 most = 0;

	if (own >= 0 && rxbisect_ax_avail(rb, own))
		return own;
	rxb_stat_inc(&q->hw.xs.ax_empty);
	lenders = rb->t.assoc[b] & ~(own >= 0 ? BIT_ULL(own) : 0);
	if (rb->m.cfg.ax_policy == RXB_AX_RANDOM) {
		for (a = 0; a < nax; a++)
			if ((lenders & BIT_ULL(a)) && rxbisect_ax_avail(rb, a))
				cnt++;
		if (cnt)
			pick = rxbisect_rand(&q->hw.rnd) % cnt;
	}
	for (i = 0; i < nax; i++) {
		u32 avail;

		a = rb->m.cfg.ax_policy == RXB_AX_RANDOM ? i :
		    (q->hw.rr + i) % nax;
		if (!(lenders & BIT_ULL(a)))
			continue;
		avail = rxbisect_ax_avail(rb, a);
		if (!avail)
			continue;
		switch (rb->m.cfg.ax_policy) {
		case RXB_AX_RR:
			q->hw.rr = (a + 1) % nax;
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

/* The NIC receives @f for Bx ring @b.  Under rxbisect.lock (the pipeline
 * stage that assigns ring entries, section 4.4): flush held notifications,
 * pick an Ax ring, reserve its slot and the Bx entry, and write the
 * lender's notification.  Outside it: copy the frame and publish the
 * entry.  Entries of one Bx ring may thus be published out of order; the
 * driver stops at the first one not done, so it still reads them in ring
 * order, and every Ax slot is reported in the order it was reserved.  A
 * reserved entry is always published, with RXB_CQE_F_DMA_ERR if the copy
 * failed, so destroy() finds every packet.
 */
static int rxbisect_hw_rx(struct rxb_model *m, unsigned int b,
			  const struct rxb_frame *f)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxb_qstats *st = &m->qstats[b];
	bool irq_b = false, irq_a = false;
	const struct rxb_rx_desc *d;
	u8 flags = f->hash_flags;
	u32 ax_idx, bx_idx, csum = 0;
	struct rxbisect_q *aq;
	int a, err = 0;
	u64 addr;

	spin_lock(&rb->lock);
	/* Notifications held for this ring go out with its next packet, and
	 * before it: the driver refills its Ax in report order.  Whatever is
	 * still held found the ring full; the driver may free room after
	 * the flush looked, but a new entry must not overtake the held ones.
	 */
	irq_b = rxbisect_flush(rb, b);
	if (rb->q[b].hw.held || !rxbisect_bx_room(rb, b)) {
		rxb_stat_inc(&st->ring_full_drops);
		err = -ENOSPC;
		goto drop;
	}
	a = rxbisect_pick_ax(rb, b);
	if (a < 0) {
		rxb_stat_inc(&st->nobuf_drops);
		err = -ENOBUFS;
		goto drop;
	}
	aq = rxbisect_axq(rb, a);
	ax_idx = aq->hw.ax_head;
	d = &aq->ax[ax_idx & rb->amask];
	if (f->len > le32_to_cpu(d->buf_len)) {
		rxb_stat_inc(&st->oversize_drops);
		err = -EMSGSIZE;
		goto drop;
	}
	addr = le64_to_cpu(d->buf_addr);
	rxb_hw_pcie(m, b, RXB_PCIE_DESC_RD, sizeof(*d));
	WRITE_ONCE(aq->hw.ax_head, ax_idx + 1);
	bx_idx = rxbisect_bx_reserve(rb, b);
	flags |= RXB_BXE_F_PKT;
	if (a == rb->t.own[b]) {
		/* The common case: one combined entry (Figure 5b). */
		flags |= RXB_BXE_F_NOTIFY;
	} else {
		rxb_stat_inc(&rb->q[b].hw.xs.borrowed);
		rxb_stat_inc(&aq->hw.xs.lent);
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
	spin_unlock(&rb->lock);
	if (irq_b)
		rxb_hw_raise_irq(m, b);
	return err;
}

static void rxbisect_hw_timer(struct rxb_model *m)
{
	struct rxbisect *rb = to_rxbisect(m);
	unsigned int i, n = m->cfg.nqueues;
	bool again = false;
	u64 now, wrote = 0;

	spin_lock(&rb->lock);
	now = rxb_hw_now_ns(m);
	for (i = 0; i < n; i++) {
		struct rxbisect_q *q = &rb->q[i];

		if (!q->hw.held)
			continue;
		if (now - q->hw.held_since >= rb->timeout_ns &&
		    rxbisect_flush(rb, i))
			wrote |= 1ULL << i;
		again |= q->hw.held != 0;
	}
	spin_unlock(&rb->lock);
	for (i = 0; i < n; i++)
		if (wrote & (1ULL << i))
			rxb_hw_raise_irq(m, i);
	if (again)
		rxb_hw_arm_timer(m, rb->timeout_ns);
}

/* ---- driver side (Listing 1) ---------------------------------------- */

static bool rxbisect_refill(struct rxb_model *m, unsigned int qi)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];

	if (!q->ax)
		return true;	/* no Ax ring is linked to this queue */
	/* Listing 1, lines 13-16: one doorbell for every slot reported.
	 * Its release pairs with the acquire in rxbisect_ax_avail().
	 */
	return rxb_ring_refill(m, qi, q->ax, q->sw.cookie, rb->amask,
			       &q->sw.ax_tail, q->sw.ax_ci, &q->regs.ax_tail);
}

/* The queue whose pool a buffer of Ax ring @a came from (its refiller). */
static unsigned int rxbisect_pool(struct rxbisect *rb, unsigned int a)
{
	return a < rb->t.nax ? rb->t.link[a] : 0;
}

static int rxbisect_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 head = q->sw.bx_head, seen = 0;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	/* A notification-only entry is no packet: bound the walk by the ring. */
	while (n < budget && seen <= rb->bmask) {
		const struct rxb_bxe *e = &q->bx[head & rb->bmask];
		void *own_buf = NULL;
		u8 flags;

		/* Acquire: pairs with the release in rxbisect_bx_write(). */
		flags = smp_load_acquire(&e->flags);
		if ((flags & RXB_CQE_F_DONE) !=
		    (rxb_gen(head, rb->border) ? RXB_CQE_F_DONE : 0))
			break;
		/* Only this queue's own Ax is reported here (linking), in the
		 * order the NIC took its slots: rxb_ring_refill() reposts
		 * the oldest slot for each report (Listing 1, lines 8-10).
		 */
		if (flags & RXB_BXE_F_NOTIFY) {
			u32 slot = le16_to_cpu(e->ax_idx) & rb->amask;

			WARN_ONCE(le16_to_cpu(e->ax_ring) != rb->t.own[qi],
				  "rxbisect: Bx %u reports Ax ring %u, linked: %d",
				  qi, le16_to_cpu(e->ax_ring), rb->t.own[qi]);
			WARN_ONCE(slot != (q->sw.ax_ci & rb->amask),
				  "rxbisect: Bx %u reports Ax slot %u, expected %u",
				  qi, slot, q->sw.ax_ci & rb->amask);
			own_buf = q->sw.cookie[slot];
			q->sw.cookie[slot] = NULL;
			q->sw.ax_ci++;
		}
		if (flags & RXB_BXE_F_PKT) {
			struct rxb_pkt *p = &pkts[n++];

			if (flags & RXB_BXE_F_NOTIFY) {
				/* A combined entry (Figure 5b): the buffer
				 * of the own Ax slot just reported, whose
				 * handle the driver kept when it posted it,
				 * as privRing's driver does per descriptor.
				 */
				p->cookie = own_buf;
				p->pool_q = qi;
			} else {
				/* Borrowed from another queue's Ax ring:
				 * known by its address only, and returned
				 * to the pool of the queue that posted it.
				 */
				p->cookie = rxb_drv_buf_cookie(m, le64_to_cpu(e->buf_addr));
				p->pool_q = rxbisect_pool(rb, le16_to_cpu(e->ax_ring));
			}
			p->len = le16_to_cpu(e->pkt_len);
			p->hash = le32_to_cpu(e->rss_hash);
			p->csum = le32_to_cpu(e->csum);
			p->flags = flags & (RXB_CQE_F_L4_HASH |
					    RXB_CQE_F_L3_HASH | RXB_CQE_F_CSUM |
					    RXB_CQE_F_DMA_ERR | RXB_CQE_F_SPLIT);
			p->offset = 0;
			p->frag = false;
			bytes += p->len;
		}
		head++;
		seen++;
	}
	if (seen) {
		WRITE_ONCE(q->sw.bx_head, head);
		/* Release: pairs with the acquire in rxbisect_bx_room(); the
		 * entries are read before the NIC may reserve them again.
		 */
		rxb_db_ring(m, qi, &q->regs.bx_head, head);
		rxb_stat_add(&st->packets, n);
		rxb_stat_add(&st->bytes, bytes);
	}
	rxbisect_refill(m, qi);
	return n;
}

static bool rxbisect_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];
	const struct rxb_bxe *e = &q->bx[q->sw.bx_head & rb->bmask];

	/* Acquire: pairs with the release in rxbisect_bx_write(). */
	return (smp_load_acquire(&e->flags) & RXB_CQE_F_DONE) ==
	       (rxb_gen(q->sw.bx_head, rb->border) ? RXB_CQE_F_DONE : 0);
}

/* ---- setup ---------------------------------------------------------- */

static int rxbisect_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	u32 ax = cfg->ax_ring_size;

	if (!is_power_of_2(ax) || ax < RXB_RING_MIN || ax > RXB_RING_MAX) {
		*msg = "Ax ring size must be a power of two in 64..8192";
		return -EINVAL;
	}
	if (ax > cfg->ring_size) {
		*msg = "Ax ring size must not exceed the Bx (rx) ring size";
		return -EINVAL;
	}
	if (cfg->nqueues > RXB_MAX_MODEL_QUEUES) {
		*msg = "too many queues";
		return -EINVAL;
	}
	if (cfg->ax_policy >= RXB_AX_NPOLICIES) {
		*msg = "unknown Ax selection policy";
		return -EINVAL;
	}
	return rxb_rxbisect_topo_check(cfg, msg);
}

/* Configuration guidelines of the rxbisect paper, section 4.5. */
static const char *rxbisect_advise(const struct rxb_model_cfg *cfg)
{
	struct rxbisect_topo t;
	unsigned int b, k = ~0U;
	const char *err;
	u64 ws;

	if (rxbisect_topo(cfg, &t, &err))
		return NULL;
	/* k: the Ax rings the least connected Bx ring can take buffers from. */
	for (b = 0; b < cfg->nqueues; b++)
		k = min(k, hweight64(t.assoc[b] |
				     (t.own[b] >= 0 ? BIT_ULL(t.own[b]) : 0)));
	ws = (u64)t.nax * cfg->ax_ring_size * cfg->buf_len;
	if ((u64)k * cfg->ax_ring_size < cfg->ring_size)
		return "k*|Ax| < |Bx|: Ax buffers cannot absorb a full Bx burst (sec. 4.5)";
	if (cfg->cache_bytes && ws > cfg->cache_bytes)
		return "k*|Ax|*buffer size exceeds cache_kb: working set too big (sec. 4.5)";
	return NULL;
}

static unsigned int rxbisect_bufs_per_queue(const struct rxb_model_cfg *cfg)
{
	return cfg->ax_ring_size;
}

static void rxbisect_ring_state(struct rxb_model *m, unsigned int qi,
				struct rxb_ring_state *st)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];

	st->size = rb->bmask + 1;
	st->drv_tail = READ_ONCE(q->sw.bx_head);
	st->drv_gen = rxb_gen(st->drv_tail, rb->border);
}

static void rxbisect_hw_debug(struct rxb_model *m, unsigned int qi,
			      struct rxb_hw_debug *dbg)
{
	struct rxbisect_q *q = &to_rxbisect(m)->q[qi];

	/* The Ax ring linked to qi's: the queue borrows from others too. */
	rxb_hw_debug_fill(dbg, &q->hw.bx_tail, &q->hw.ax_head,
			  &q->regs.ax_tail);
}

static void rxbisect_destroy(struct rxb_model *m)
{
	struct rxbisect *rb = to_rxbisect(m);
	unsigned int qi;
	u32 i;

	/* Teardown reads both halves' state: neither half runs, and every
	 * reserved Bx entry has been published.
	 */
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		/* Posted buffers the NIC has not taken. */
		for (i = q->hw.ax_head; q->sw.cookie && i != q->sw.ax_tail; i++)
			rxb_drv_free_buf(m, qi, q->sw.cookie[i & rb->amask]);
		/* Packets written but never polled. */
		for (i = q->sw.bx_head; i != q->hw.bx_tail; i++) {
			const struct rxb_bxe *e = &q->bx[i & rb->bmask];

			if (e->flags & RXB_BXE_F_PKT)
				rxb_drv_free_buf(m, rxbisect_pool(rb, le16_to_cpu(e->ax_ring)),
						 rxb_drv_buf_cookie(m, le64_to_cpu(e->buf_addr)));
		}
	}
	rxb_model_free(m, &rxbisect_layout);
}

static struct rxb_model *rxbisect_create(const struct rxb_model_cfg *cfg)
{
	struct rxb_model *m = rxb_model_alloc(&rxb_rxbisect_ops, cfg,
					      &rxbisect_layout);
	struct rxbisect *rb;
	unsigned int qi;
	const char *msg;
	int err;

	if (IS_ERR(m))
		return m;
	rb = to_rxbisect(m);
	/* Checked by rxbisect_validate() already. */
	err = rxbisect_topo(cfg, &rb->t, &msg);
	if (err) {
		rxbisect_destroy(m);
		return ERR_PTR(err);
	}
	spin_lock_init(&rb->lock);
	rb->amask = cfg->ax_ring_size - 1;
	rb->bmask = cfg->ring_size - 1;
	rb->border = ilog2(cfg->ring_size);
	rb->timeout_ns = cfg->notif_timeout_ns ?: RXBISECT_NOTIF_TIMEOUT_NS;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		q->hw.rnd = qi + 1;	/* any nonzero LFSR seed */
		if (rb->t.own[qi] >= 0)
			continue;
		/* No Ax ring is linked to this queue: keep none. */
		kvfree(q->ax);
		kvfree(q->sw.cookie);
		q->ax = NULL;
		q->sw.cookie = NULL;
	}
	for (qi = 0; qi < cfg->nqueues; qi++)
		rxbisect_refill(m, qi);
	return m;
}

/* ---- counters ------------------------------------------------------- */

static const char * const rxbisect_xstat_names[RXBISECT_XSTATS] = {
	"borrowed", "lent", "notif_entries", "notif_compressed", "ax_empty",
	"ax_outstanding",
};

static unsigned int rxbisect_xstats_count(struct rxb_model *m)
{
	return m->cfg.nqueues * RXBISECT_XSTATS;
}

static void rxbisect_xstats_names(struct rxb_model *m, char *names)
{
	rxb_xstats_names_fill(names, "rx", m->cfg.nqueues,
			      rxbisect_xstat_names, RXBISECT_XSTATS);
}

/* The counters of struct rxbisect_xstats, in rxbisect_xstat_names order:
 * the NIC writes them, so the driver reads its statistics registers.
 */
#define RXBISECT_XSTAT(f)	offsetof(struct rxbisect_q, hw.xs.f)
static const u16 rxbisect_xstat_off[RXBISECT_XSTATS - 1] = {
	RXBISECT_XSTAT(borrowed), RXBISECT_XSTAT(lent),
	RXBISECT_XSTAT(notif_entries), RXBISECT_XSTAT(notif_compressed),
	RXBISECT_XSTAT(ax_empty),
};

static void rxbisect_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct rxb_hw_debug dbg;
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		const struct rxbisect_q *q = &to_rxbisect(m)->q[qi];

		vals = rxb_stats_read(vals, q, rxbisect_xstat_off,
				      ARRAY_SIZE(rxbisect_xstat_off));
		/* Buffers taken from the Ax ring linked here (the NIC's
		 * debug registers), not yet reported back to it.
		 */
		rxbisect_hw_debug(m, qi, &dbg);
		*vals++ = (u32)(dbg.taken - READ_ONCE(q->sw.ax_ci));
	}
}

const struct rxb_model_ops rxb_rxbisect_ops = {
	RXB_MODEL_XOPS("rxbisect", rxbisect),
	.hw_timer	= rxbisect_hw_timer,
	.validate	= rxbisect_validate,
	.advise		= rxbisect_advise,
	.bufs_per_queue	= rxbisect_bufs_per_queue,
	.umem_bufs	= true,
	.umem_check	= rxbisect_umem_check,
};
