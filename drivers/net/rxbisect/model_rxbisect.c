// SPDX-License-Identifier: GPL-2.0
/*
 * rxBisect: allocation (Ax) and bisected reception (Bx) rings (rxbisect
 * paper section 4, thesis chapter 6).
 *
 * Each queue has a small Ax ring of empty buffers (core -> NIC) and a large
 * Bx ring of entries (NIC -> core).  Ax ring i is linked to Bx ring i: the
 * NIC reports every buffer it takes from Ax i in Bx i.  Bx ring i is
 * associated with a set of Ax rings (all of them by default): when Ax i is
 * empty, the NIC borrows a buffer from another associated Ax ring, writes
 * the packet to Bx i and a buffer-consumed notification to the lender's Bx
 * ring.  Buffers thus move between cores without any software lock; the
 * one serialisation is the NIC's own pipeline stage (section 4.4).
 */
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
	u64 lent;		/* this Ax's buffers used for another Bx */
	u64 notif_entries;	/* notification-only entries written here */
	u64 notif_compressed;	/* of those, held back before being written */
	u64 ax_empty;		/* packets that found this Bx's own Ax empty */
};

#define RXBISECT_XSTATS	6	/* the above, plus ax_outstanding */

struct rxbisect_q {
	/* Ring memory, read and written by both NIC and driver. */
	struct rxb_rx_desc *ax;
	struct rxb_bxe *bx;

	/* Doorbell registers: written by the driver, read by the NIC. */
	struct rxb_axbx_regs regs ____cacheline_aligned;

	/* NIC-internal state, under rxbisect.lock. */
	struct {
		u32 ax_head;		/* next Ax slot to take */
		u32 bx_tail;		/* next Bx entry to write */
		u32 held;		/* notifications held for this Bx */
		u32 held_first;		/* Ax index of the oldest held one */
		u64 held_since;		/* when the oldest was held */
		u32 rr;			/* round-robin cursor over lenders */
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

struct rxbisect {
	struct rxb_model m;
	spinlock_t lock;	/* the NIC's ring-assignment pipeline stage */
	u32 amask, bmask;
	unsigned int border;
	unsigned int assoc;	/* association group size */
	u64 timeout_ns;
	struct rxbisect_q *q;
};

static struct rxbisect *to_rxbisect(struct rxb_model *m)
{
	return container_of(m, struct rxbisect, m);
}

/* ---- NIC side ------------------------------------------------------- */

static u32 rxbisect_ax_avail(struct rxbisect *rb, unsigned int a)
{
	return rxb_db_read(&rb->q[a].regs.ax_tail) - rb->q[a].hw.ax_head;
}

static bool rxbisect_bx_room(struct rxbisect *rb, unsigned int b)
{
	return rb->q[b].hw.bx_tail - rxb_db_read(&rb->q[b].regs.bx_head) <=
	       rb->bmask;
}

static void rxbisect_bx_write(struct rxbisect *rb, unsigned int b,
			      u64 addr, const struct rxb_frame *f, u32 csum,
			      u8 flags, unsigned int a, u32 ax_idx)
{
	struct rxbisect_q *q = &rb->q[b];
	struct rxb_bxe *e = &q->bx[q->hw.bx_tail & rb->bmask];
	u8 gen = rxb_gen(q->hw.bx_tail, rb->border);

	e->buf_addr = cpu_to_le64(addr);
	e->rss_hash = cpu_to_le32(f ? f->hash : 0);
	e->csum = cpu_to_le32(csum);
	e->pkt_len = cpu_to_le16(f ? f->len : 0);
	e->ax_idx = cpu_to_le16(ax_idx & rb->amask);
	e->ax_ring = cpu_to_le16(a);
	e->reserved0 = 0;
	e->reserved1 = 0;
	/* Release: pairs with the acquire in rxbisect_poll(). */
	smp_store_release(&e->flags, (u8)(flags | (gen ? RXB_CQE_F_DONE : 0)));
	/* WRITE_ONCE: rxbisect_ring_state() reads it from anywhere. */
	WRITE_ONCE(q->hw.bx_tail, q->hw.bx_tail + 1);
}

/* Write the notifications held for Bx ring @b that fit.  Returns true if
 * at least one was written (the ring's vector must be raised).
 */
static bool rxbisect_flush(struct rxbisect *rb, unsigned int b)
{
	struct rxbisect_q *q = &rb->q[b];
	bool wrote = false;

	while (q->hw.held && rxbisect_bx_room(rb, b)) {
		rxbisect_bx_write(rb, b, 0, NULL, 0, RXB_BXE_F_NOTIFY, b,
				  q->hw.held_first);
		q->hw.held_first++;
		q->hw.held--;
		rxb_stat_inc(&q->hw.xs.notif_entries);
		if (rb->m.cfg.notif_compress)
			rxb_stat_inc(&q->hw.xs.notif_compressed);
		wrote = true;
	}
	if (q->hw.held)
		q->hw.held_since = rb->m.cfg.env_ops->now_ns(rb->m.cfg.env);
	return wrote;
}

/* Report to Ax ring @a's linked Bx ring that its slot @ax_idx was taken. */
static bool rxbisect_notify(struct rxbisect *rb, unsigned int a, u32 ax_idx)
{
	struct rxbisect_q *q = &rb->q[a];
	const struct rxb_env_ops *env = rb->m.cfg.env_ops;

	/* Held ones go first: the driver refills its Ax in report order. */
	if (!q->hw.held && !rb->m.cfg.notif_compress &&
	    rxbisect_bx_room(rb, a)) {
		rxbisect_bx_write(rb, a, 0, NULL, 0, RXB_BXE_F_NOTIFY, a,
				  ax_idx);
		rxb_stat_inc(&q->hw.xs.notif_entries);
		return true;
	}
	if (!q->hw.held) {
		q->hw.held_first = ax_idx;
		q->hw.held_since = env->now_ns(rb->m.cfg.env);
	}
	q->hw.held++;
	if (q->hw.held >= RXBISECT_HELD_MAX)
		return rxbisect_flush(rb, a);
	env->arm_timer(rb->m.cfg.env, rb->timeout_ns);
	return false;
}

/* Choose the associated Ax ring to take a buffer from for Bx ring @b. */
static int rxbisect_pick_ax(struct rxbisect *rb, unsigned int b)
{
	unsigned int n = rb->m.cfg.nqueues, first, cnt, i, a;
	struct rxbisect_q *q = &rb->q[b];
	int best = -1;
	u32 most = 0;

	if (rxbisect_ax_avail(rb, b))
		return b;
	rxb_stat_inc(&q->hw.xs.ax_empty);
	first = b - b % rb->assoc;
	cnt = min(rb->assoc, n - first);
	for (i = 0; i < cnt; i++) {
		u32 avail;

		a = first + (q->hw.rr + i) % cnt;
		avail = rxbisect_ax_avail(rb, a);
		if (!avail)
			continue;
		if (rb->m.cfg.ax_policy == RXB_AX_RR) {
			q->hw.rr = (a - first + 1) % cnt;
			return a;
		}
		if (avail > most) {
			most = avail;
			best = a;
		}
	}
	return best;
}

static int rxbisect_hw_rx(struct rxb_model *m, unsigned int b,
			  const struct rxb_frame *f)
{
	struct rxbisect *rb = to_rxbisect(m);
	const struct rxb_env_ops *env = m->cfg.env_ops;
	struct rxb_qstats *st = &m->qstats[b];
	bool irq_b = false, irq_a = false;
	const struct rxb_rx_desc *d;
	u8 flags = f->hash_flags;
	u32 ax_idx, csum = 0;
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
		goto unlock;
	}
	a = rxbisect_pick_ax(rb, b);
	if (a < 0) {
		rxb_stat_inc(&st->nobuf_drops);
		err = -ENOBUFS;
		goto unlock;
	}
	ax_idx = rb->q[a].hw.ax_head;
	d = &rb->q[a].ax[ax_idx & rb->amask];
	if (f->len > le32_to_cpu(d->buf_len)) {
		rxb_stat_inc(&st->oversize_drops);
		err = -EMSGSIZE;
		goto unlock;
	}
	addr = le64_to_cpu(d->buf_addr);
	flags |= env->dma_write(m->cfg.env, f, addr, &csum);
	WRITE_ONCE(rb->q[a].hw.ax_head, rb->q[a].hw.ax_head + 1);
	flags |= RXB_BXE_F_PKT;
	if (a == b) {
		/* The common case: one combined entry (Figure 5b). */
		flags |= RXB_BXE_F_NOTIFY;
	} else {
		rxb_stat_inc(&rb->q[b].hw.xs.borrowed);
		rxb_stat_inc(&rb->q[a].hw.xs.lent);
	}
	rxbisect_bx_write(rb, b, addr, f, csum, flags, a, ax_idx);
	if (a != b)
		irq_a = rxbisect_notify(rb, a, ax_idx);
	irq_b = true;
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
unlock:
	spin_unlock(&rb->lock);
	if (irq_b)
		env->raise_irq(m->cfg.env, b);
	if (irq_a)
		env->raise_irq(m->cfg.env, a);
	return err;
}

static void rxbisect_hw_timer(struct rxb_model *m)
{
	struct rxbisect *rb = to_rxbisect(m);
	const struct rxb_env_ops *env = m->cfg.env_ops;
	unsigned int i, n = m->cfg.nqueues;
	bool again = false;
	u64 now, wrote = 0;

	spin_lock(&rb->lock);
	now = env->now_ns(m->cfg.env);
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
			env->raise_irq(m->cfg.env, i);
	if (again)
		env->arm_timer(m->cfg.env, rb->timeout_ns);
}

/* ---- driver side (Listing 1) ---------------------------------------- */

static bool rxbisect_refill(struct rxb_model *m, unsigned int qi)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];

	/* Listing 1, lines 13-16: one doorbell for every slot reported. */
	return rxb_ring_refill(m, qi, q->ax, q->sw.cookie, rb->amask,
			       &q->sw.ax_tail, q->sw.ax_ci, &q->regs.ax_tail);
}

static int rxbisect_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	const struct rxb_env_ops *env = m->cfg.env_ops;
	u32 head = q->sw.bx_head, seen = 0;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	/* A notification-only entry is no packet: bound the walk by the ring. */
	while (n < budget && seen <= rb->bmask) {
		const struct rxb_bxe *e = &q->bx[head & rb->bmask];
		u8 flags;

		/* Acquire: pairs with the release in rxbisect_bx_write(). */
		flags = smp_load_acquire(&e->flags);
		if ((flags & RXB_CQE_F_DONE) !=
		    (rxb_gen(head, rb->border) ? RXB_CQE_F_DONE : 0))
			break;
		if (flags & RXB_BXE_F_PKT) {
			struct rxb_pkt *p = &pkts[n++];

			p->cookie = env->buf_cookie(m->cfg.env,
						    le64_to_cpu(e->buf_addr));
			p->len = le16_to_cpu(e->pkt_len);
			p->hash = le32_to_cpu(e->rss_hash);
			p->csum = le32_to_cpu(e->csum);
			p->flags = flags & (RXB_CQE_F_L4_HASH |
					    RXB_CQE_F_L3_HASH | RXB_CQE_F_CSUM |
					    RXB_CQE_F_DMA_ERR);
			p->pool_q = le16_to_cpu(e->ax_ring);
			p->offset = 0;
			p->borrowed = false;
			bytes += p->len;
		}
		/* Only this queue's own Ax is reported here (linking), in the
		 * order the NIC took its slots: rxb_ring_refill() reposts
		 * the oldest slot for each report.
		 */
		if (flags & RXB_BXE_F_NOTIFY) {
			u32 slot = le16_to_cpu(e->ax_idx) & rb->amask;

			WARN_ONCE(slot != (q->sw.ax_ci & rb->amask),
				  "rxbisect: Bx %u reports Ax slot %u, expected %u",
				  qi, slot, q->sw.ax_ci & rb->amask);
			q->sw.cookie[slot] = NULL;
			q->sw.ax_ci++;
		}
		head++;
		seen++;
	}
	if (seen) {
		WRITE_ONCE(q->sw.bx_head, head);
		rxb_db_write(&q->regs.bx_head, head);
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
	return 0;
}

/* Configuration guidelines of the rxbisect paper, section 4.5. */
static const char *rxbisect_advise(const struct rxb_model_cfg *cfg)
{
	unsigned int k = cfg->ax_assoc && cfg->ax_assoc < cfg->nqueues ?
			 cfg->ax_assoc : cfg->nqueues;
	u64 ws = (u64)cfg->nqueues * cfg->ax_ring_size * cfg->buf_len;

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
	st->nic_head = READ_ONCE(q->hw.bx_tail);
	st->drv_tail = READ_ONCE(q->sw.bx_head);
	st->drv_gen = rxb_gen(st->drv_tail, rb->border);
	st->posted = READ_ONCE(q->regs.ax_tail) - READ_ONCE(q->hw.ax_head);
}

static void rxbisect_destroy(struct rxb_model *m)
{
	struct rxbisect *rb = to_rxbisect(m);
	const struct rxb_env_ops *env = m->cfg.env_ops;
	unsigned int qi;
	u32 i;

	for (qi = 0; rb->q && qi < m->cfg.nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		if (!q->ax || !q->bx || !q->sw.cookie)
			continue;
		/* Posted buffers the NIC has not taken. */
		for (i = q->hw.ax_head; i != q->sw.ax_tail; i++)
			env->free_buf(m->cfg.env, qi,
				      q->sw.cookie[i & rb->amask]);
		/* Packets written but never polled. */
		for (i = q->sw.bx_head; i != q->hw.bx_tail; i++) {
			const struct rxb_bxe *e = &q->bx[i & rb->bmask];

			if (e->flags & RXB_BXE_F_PKT)
				env->free_buf(m->cfg.env, le16_to_cpu(e->ax_ring),
					      env->buf_cookie(m->cfg.env,
							      le64_to_cpu(e->buf_addr)));
		}
	}
	for (qi = 0; rb->q && qi < m->cfg.nqueues; qi++) {
		kvfree(rb->q[qi].sw.cookie);
		kvfree(rb->q[qi].ax);
		kvfree(rb->q[qi].bx);
	}
	kfree(rb->q);
	rxb_model_fini_common(m);
	kfree(rb);
}

static struct rxb_model *rxbisect_create(const struct rxb_model_cfg *cfg)
{
	struct rxbisect *rb;
	unsigned int qi;
	int err;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(&rb->m, &rxb_rxbisect_ops, cfg);
	if (err) {
		kfree(rb);
		return ERR_PTR(err);
	}
	spin_lock_init(&rb->lock);
	rb->amask = cfg->ax_ring_size - 1;
	rb->bmask = cfg->ring_size - 1;
	rb->border = ilog2(cfg->ring_size);
	rb->assoc = cfg->ax_assoc && cfg->ax_assoc < cfg->nqueues ?
		    cfg->ax_assoc : cfg->nqueues;
	rb->timeout_ns = cfg->notif_timeout_ns ?: RXBISECT_NOTIF_TIMEOUT_NS;
	rb->q = kcalloc(cfg->nqueues, sizeof(*rb->q), GFP_KERNEL);
	if (!rb->q)
		goto nomem;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		q->ax = kvcalloc(cfg->ax_ring_size, sizeof(*q->ax), GFP_KERNEL);
		q->bx = kvcalloc(cfg->ring_size, sizeof(*q->bx), GFP_KERNEL);
		q->sw.cookie = kvcalloc(cfg->ax_ring_size, sizeof(void *),
					GFP_KERNEL);
		if (!q->ax || !q->bx || !q->sw.cookie)
			goto nomem;
	}
	for (qi = 0; qi < cfg->nqueues; qi++)
		rxbisect_refill(&rb->m, qi);
	return &rb->m;

nomem:
	rxbisect_destroy(&rb->m);
	return ERR_PTR(-ENOMEM);
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
	unsigned int qi, i;

	for (qi = 0; qi < m->cfg.nqueues; qi++)
		for (i = 0; i < RXBISECT_XSTATS; i++) {
			snprintf(names, RXB_STAT_NAME_LEN, "rx%u_%s", qi,
				 rxbisect_xstat_names[i]);
			names += RXB_STAT_NAME_LEN;
		}
}

static void rxbisect_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct rxbisect *rb = to_rxbisect(m);
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		const struct rxbisect_q *q = &rb->q[qi];

		*vals++ = READ_ONCE(q->hw.xs.borrowed);
		*vals++ = READ_ONCE(q->hw.xs.lent);
		*vals++ = READ_ONCE(q->hw.xs.notif_entries);
		*vals++ = READ_ONCE(q->hw.xs.notif_compressed);
		*vals++ = READ_ONCE(q->hw.xs.ax_empty);
		/* Buffers taken from this Ax, not yet reported back to it. */
		*vals++ = (u32)(READ_ONCE(q->hw.ax_head) -
				READ_ONCE(q->sw.ax_ci));
	}
}

const struct rxb_model_ops rxb_rxbisect_ops = {
	.name		= "rxbisect",
	.create		= rxbisect_create,
	.destroy	= rxbisect_destroy,
	.hw_rx		= rxbisect_hw_rx,
	.hw_timer	= rxbisect_hw_timer,
	.poll		= rxbisect_poll,
	.refill		= rxbisect_refill,
	.rx_pending	= rxbisect_rx_pending,
	.validate	= rxbisect_validate,
	.advise		= rxbisect_advise,
	.bufs_per_queue	= rxbisect_bufs_per_queue,
	.ring_state	= rxbisect_ring_state,
	.xstats_count	= rxbisect_xstats_count,
	.xstats_names	= rxbisect_xstats_names,
	.xstats_values	= rxbisect_xstats_values,
};
