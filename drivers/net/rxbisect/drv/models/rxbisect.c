// SPDX-License-Identifier: GPL-2.0
/*
 * rxBisect, the driver's half: allocation (Ax) and bisected reception (Bx)
 * rings (rxbisect paper section 4, Listing 1; thesis chapter 6).
 * Registers: struct rxb_axbx_regs and struct rxb_rxbisect_qstats_regs in
 * each queue's page.
 *
 * Each queue polls its Bx ring: a packet entry is handed up, a
 * notification entry (or the notification half of a combined one) says
 * the NIC took the next slot of the Ax ring linked to the queue, which
 * the queue then reposts (Listing 1).  Buffers move between queues
 * without any software lock: a packet in a buffer borrowed from another
 * queue's Ax ring is known by its address only (the Bx entry's pointer,
 * section 4.1) and goes back to the pool of the queue that posted it.
 * Which queue each Ax ring is linked to and which Ax rings a queue may
 * borrow from is the configuration (include/rxbisect/rxb_topo.h); the NIC
 * parses the same.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_topo.h>
#include "drv_ring.h"

/* One queue: its Bx ring, and the Ax ring linked to it if it has one (an
 * Ax ring lives with the queue whose poll refills it).
 */
struct rxbisect_q {
	struct rxb_rx_desc *ax;		/* in @ax_mem; NULL: none is linked */
	const struct rxb_bxe *bx;	/* in @bx_mem */
	const __le64 *ts;		/* its stamp ring, in @bx_mem, or NULL */
	struct rxb_axbx_regs *regs;	/* the queue's registers */
	void **cookie;			/* buffer handle per Ax slot */
	u32 ax_tail;			/* next Ax slot to post */
	u32 ax_ci;			/* Ax slots reported consumed */
	u32 bx_head;			/* next Bx entry to read */
	struct rxb_ring_mem ax_mem;
	struct rxb_ring_mem bx_mem;
} ____cacheline_aligned;

struct rxbisect {
	struct rxb_model m;
	u32 amask, bmask;
	unsigned int border;
	struct rxbisect_topo t;
	struct rxbisect_q *q;
};

static const struct rxb_layout rxbisect_layout =
	RXB_QUEUE_LAYOUT(struct rxbisect, struct rxbisect_q,
			 RXB_ARRAY(struct rxbisect_q, cookie, void *,
				   RXB_ARR_AX));

#define to_rxbisect(mp)		container_of(mp, struct rxbisect, m)

/* The queue whose pool a buffer of Ax ring @a came from (its refiller). */
static unsigned int rxbisect_pool(struct rxbisect *rb, unsigned int a)
{
	return a < rb->t.nax ? rb->t.link[a] : 0;
}

static bool rxbisect_refill(struct rxb_model *m, unsigned int qi)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];

	if (!q->ax)
		return true;	/* no Ax ring is linked to this queue */
	/* Listing 1, lines 13-16: one doorbell for every slot reported.
	 * Its release pairs with the acquire in rxbisect_ax_avail() (NIC).
	 */
	return rxb_ring_refill(m, qi, q->ax, q->cookie, rb->amask,
			       &q->ax_tail, q->ax_ci, &q->regs->ax_tail);
}

/* Does the Bx entry at free-running index @idx hold this pass's write? */
static bool rxbisect_bx_done(const struct rxbisect *rb,
			     const struct rxb_bxe *e, u32 idx, u8 *flags)
{
	/* Acquire: pairs with the release in rxbisect_bx_write() (NIC). */
	*flags = smp_load_acquire(&e->flags);
	return (*flags & RXB_CQE_F_DONE) ==
	       (rxb_gen(idx, rb->border) ? RXB_CQE_F_DONE : 0);
}

static int rxbisect_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];
	struct rxb_drv_qstats *st = &m->qstats[qi];
	u32 head = q->bx_head, seen = 0;
	u64 bytes = 0;
	int n = 0;

	/* A notification-only entry is no packet: bound the walk by the ring. */
	while (n < budget && seen <= rb->bmask) {
		const struct rxb_bxe *e = &q->bx[head & rb->bmask];
		void *own_buf = NULL;
		u8 flags;

		if (!rxbisect_bx_done(rb, e, head, &flags))
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
			WARN_ONCE(slot != (q->ax_ci & rb->amask),
				  "rxbisect: Bx %u reports Ax slot %u, expected %u",
				  qi, slot, q->ax_ci & rb->amask);
			own_buf = q->cookie[slot];
			q->cookie[slot] = NULL;
			q->ax_ci++;
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
			p->ts = rxb_tstamp_read(q->ts, head & rb->bmask);
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
		/* WRITE_ONCE: rxbisect_ring_state() reads it from anywhere. */
		WRITE_ONCE(q->bx_head, head);
		/* Release: pairs with the acquire in rxbisect_bx_room()
		 * (NIC); the entries are read before the NIC may reserve
		 * them again.
		 */
		rxb_db_ring(m, qi, &q->regs->bx_head, head);
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
	u8 flags;

	return rxbisect_bx_done(rb, &q->bx[q->bx_head & rb->bmask],
				q->bx_head, &flags);
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

static void rxbisect_ring_state(struct rxb_model *m, unsigned int qi,
				struct rxb_ring_state *st)
{
	struct rxbisect *rb = to_rxbisect(m);
	struct rxbisect_q *q = &rb->q[qi];

	st->size = rb->bmask + 1;
	st->drv_tail = READ_ONCE(q->bx_head);
	st->drv_gen = rxb_gen(st->drv_tail, rb->border);
}

/* The Ax ring linked to @qi's (0 posted and taken if none): the queue
 * borrows from others too.
 */
static void rxbisect_nic_debug(struct rxb_model *m, unsigned int qi,
			       struct rxb_hw_debug *dbg)
{
	struct rxbisect_q *q = &to_rxbisect(m)->q[qi];

	rxb_nic_debug_fill(m, qi, READ_ONCE(q->regs->ax_tail), dbg);
}

/* Teardown, a packet entry of Bx ring @qi the driver never polled: give
 * back its buffer by the handle the driver saved when it posted it.  The
 * lender's slot still holds that handle unless the lender already read
 * the buffer's report and reposted the slot: then nothing but the Bx
 * entry's pointer names the buffer (it is one of another queue's pool,
 * never a umem's: rxbisect_umem_check()), and it is found from it as
 * rxbisect_poll() would.
 */
static void rxbisect_free_unpolled(struct rxbisect *rb, unsigned int qi,
				   const struct rxb_bxe *e, u8 flags,
				   const u32 *taken)
{
	unsigned int a = le16_to_cpu(e->ax_ring), l = rxbisect_pool(rb, a);
	u32 slot = le16_to_cpu(e->ax_idx) & rb->amask;
	u64 addr = le64_to_cpu(e->buf_addr);
	struct rxbisect_q *lq = &rb->q[l];

	if (flags & RXB_BXE_F_NOTIFY) {
		/* A combined entry: the own Ax slot, not yet reported. */
		rxb_drv_free_buf(&rb->m, qi, rb->q[qi].cookie[slot]);
		rb->q[qi].cookie[slot] = NULL;
		return;
	}
	/* Borrowed.  The lender's slot holds this buffer if it was taken
	 * and not yet reported (below the NIC's head) and still posted at
	 * this address: a buffer outstanding here is in no pool, so no
	 * other buffer at the same address can have been posted since.
	 */
	if (lq->ax && lq->cookie[slot] &&
	    ((slot - lq->ax_ci) & rb->amask) < taken[l] - lq->ax_ci &&
	    le64_to_cpu(lq->ax[slot].buf_addr) == addr) {
		rxb_drv_free_buf(&rb->m, l, lq->cookie[slot]);
		lq->cookie[slot] = NULL;
		return;
	}
	rxb_drv_free_buf(&rb->m, l, rxb_drv_buf_cookie(&rb->m, addr));
}

/* The NIC's context is disabled (no frame in flight: every reserved Bx
 * entry is published) and no poll runs: give back every buffer the rings
 * hold, once.  A buffer posted to an Ax ring is in one of these states:
 * not taken (slots from the NIC's head to the driver's tail, by the
 * handle saved there); taken, in a Bx entry not polled (that entry's
 * walk, rxbisect_free_unpolled()); or handed up by a poll, which its
 * lender may not know yet (its report held in the NIC or not polled):
 * the stack's, left alone.  The NIC's head of each Ax ring is its debug
 * register (rxb_desc.h, rxBisect's registers).
 */
static void rxbisect_free_bufs(struct rxbisect *rb)
{
	const struct rxb_model *m = &rb->m;
	u32 taken[RXB_MAX_MODEL_QUEUES];
	unsigned int qi;
	u32 i, head;
	u8 flags;

	for (qi = 0; qi < m->cfg.nqueues; qi++)
		taken[qi] = READ_ONCE(rxb_bar_qdebug(&m->bar, qi)->taken);
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		/* None on create's unwinding: no ring was live. */
		for (i = 0, head = q->bx_head; q->bx && i <= rb->bmask;
		     i++, head++) {
			const struct rxb_bxe *e = &q->bx[head & rb->bmask];

			if (!rxbisect_bx_done(rb, e, head, &flags))
				break;
			if (flags & RXB_BXE_F_PKT)
				rxbisect_free_unpolled(rb, qi, e, flags, taken);
		}
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		for (i = taken[qi]; q->ax && i != q->ax_tail; i++) {
			rxb_drv_free_buf(m, qi, q->cookie[i & rb->amask]);
			q->cookie[i & rb->amask] = NULL;
		}
	}
}

static void rxbisect_fini(struct rxb_model *m)
{
	struct rxbisect *rb = to_rxbisect(m);
	unsigned int qi;

	rxbisect_free_bufs(rb);
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		rxb_ring_mem_free(m, &rb->q[qi].ax_mem);
		rxb_ring_mem_free(m, &rb->q[qi].bx_mem);
	}
}

static int rxbisect_init(struct rxb_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct rxbisect *rb = to_rxbisect(m);
	unsigned int qi;
	const char *msg;

	/* Checked by rxbisect_validate() already. */
	if (rxbisect_topo(cfg, &rb->t, &msg))
		return -EINVAL;
	rb->amask = cfg->ax_ring_size - 1;
	rb->bmask = cfg->ring_size - 1;
	rb->border = ilog2(cfg->ring_size);
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct rxbisect_q *q = &rb->q[qi];

		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		if (rb->t.own[qi] < 0) {
			/* No Ax ring is linked to this queue: keep none. */
			kvfree(q->cookie);
			q->cookie = NULL;
		} else if (rxb_ring_mem_alloc(m, &q->ax_mem, (size_t)cfg->ax_ring_size *
					      sizeof(*q->ax))) {
			return -ENOMEM;
		}
		if (rxb_ring_mem_alloc(m, &q->bx_mem, (size_t)cfg->ring_size *
				       sizeof(*q->bx) +
				       rxb_tstamp_ring_bytes(cfg->ring_size,
							     cfg->rx_tstamp)))
			return -ENOMEM;
		q->ax = q->ax_mem.va;
		q->bx = q->bx_mem.va;
		q->ts = cfg->rx_tstamp ? (const __le64 *)(q->bx + cfg->ring_size) :
			NULL;
		if (q->ax)
			rxb_reg_base(m, qi, &q->regs->ax_base, q->ax_mem.addr);
		rxb_reg_base(m, qi, &q->regs->bx_base, q->bx_mem.addr);
	}
	for (qi = 0; qi < cfg->nqueues; qi++)
		rxbisect_refill(m, qi);
	return 0;
}

/* ---- counters ------------------------------------------------------- */

#define RXBISECT_XSTATS	6	/* the NIC's five, plus ax_outstanding */

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

/* The NIC's statistics registers (struct rxb_rxbisect_qstats_regs), in
 * rxbisect_xstat_names order.
 */
#define RXBISECT_XSTAT(f)	offsetof(struct rxb_rxbisect_qstats_regs, f)
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

		vals = rxb_stats_read(vals, rxb_bar_q(&m->bar, qi,
						      RXB_QPAGE_MSTATS),
				      rxbisect_xstat_off,
				      ARRAY_SIZE(rxbisect_xstat_off));
		/* Buffers taken from the Ax ring linked here (the NIC's
		 * debug registers), not yet reported back to it.
		 */
		rxbisect_nic_debug(m, qi, &dbg);
		*vals++ = (u32)(dbg.taken - READ_ONCE(q->ax_ci));
	}
}

const struct rxb_model_ops rxb_rxbisect_ops = {
	RXB_MODEL_OPS("rxbisect", rxbisect),
	.advise		= rxbisect_advise,
	.bufs_per_queue	= rxbisect_bufs_per_queue,
	.umem_bufs	= true,
	.umem_check	= rxbisect_umem_check,
};
