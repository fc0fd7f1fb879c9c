// SPDX-License-Identifier: GPL-2.0
/*
 * privRing: the classic receive interface, one private Rx ring and one
 * completion ring (CR) per queue (rxbisect paper section 2, Figure 1;
 * thesis section 4.1).
 *
 * The NIC takes the buffer of the descriptor at the Rx ring's head, writes
 * the packet into it and a CR entry naming the descriptor.  The driver
 * consumes CR entries in order, replaces each consumed buffer with a fresh
 * one at the ring's tail and rings the tail doorbell.  Every posted buffer
 * must be used before any can be reused, so the queue's I/O working set is
 * the whole ring: ring_size buffers.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

struct privring_q {
	/* Ring memory, read and written by both NIC and driver. */
	struct rxb_rx_desc *desc;
	struct rxb_cring cr;

	/* Doorbell registers: written by the driver, read by the NIC. */
	struct rxb_rxq_regs regs ____cacheline_aligned;

	/* NIC-internal state. */
	struct {
		spinlock_t lock;	/* the NIC's per-ring pipeline stage */
		u32 rx_head;		/* next descriptor to take */
		u32 cq_tail;		/* next CR entry to write */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		void **cookie;		/* buffer handle per descriptor slot */
		u32 rx_tail;		/* next descriptor to post */
		u32 rx_ci;		/* descriptors consumed so far */
		u32 cq_head;		/* next CR entry to read */
	} sw ____cacheline_aligned;
};

struct privring {
	struct rxb_model m;
	struct privring_q *q;
};

static struct privring *to_privring(struct rxb_model *m)
{
	return container_of(m, struct privring, m);
}

static bool privring_refill(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	return rxb_ring_refill(m, qi, q->desc, q->sw.cookie, q->cr.mask,
			       &q->sw.rx_tail, q->sw.rx_ci, &q->regs.rx_tail);
}

static int privring_hw_rx(struct rxb_model *m, unsigned int qi,
			  const struct rxb_frame *f)
{
	struct privring_q *q = &to_privring(m)->q[qi];
	int err;

	spin_lock(&q->hw.lock);
	err = rxb_rxq_deliver(m, qi, q->desc, &q->regs, &q->cr, &q->hw.rx_head,
			      &q->hw.cq_tail, f, qi);
	return rxb_nic_finish(m, qi, &q->hw.lock, err);
}

static int privring_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct privring_q *q = &to_privring(m)->q[qi];
	u32 head = q->sw.cq_head;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	while (n < budget && rxb_cring_ready(&q->cr, head)) {
		u32 slot = rxb_cring_read(&q->cr, head, &pkts[n]);

		pkts[n].cookie = q->sw.cookie[slot];
		pkts[n].pool_q = qi;
		q->sw.cookie[slot] = NULL;
		bytes += pkts[n].len;
		head++;
		n++;
	}
	if (n) {
		q->sw.rx_ci += n;
		rxb_cring_consume(m, qi, &q->cr, &q->sw.cq_head, n, n, bytes);
	}
	privring_refill(m, qi);
	return n;
}

static bool privring_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	return rxb_cring_pending(&q->cr, q->sw.cq_head);
}

static void privring_ring_state(struct rxb_model *m, unsigned int qi,
				struct rxb_ring_state *st)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	rxb_cring_state(&q->cr, &q->sw.cq_head, st);
}

static void privring_hw_debug(struct rxb_model *m, unsigned int qi,
			      struct rxb_hw_debug *dbg)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	rxb_hw_debug_fill(dbg, &q->hw.cq_tail, &q->hw.rx_head,
			  &q->regs.rx_tail);
}

/* The queue's NAPI is stopped and the NIC's queue disabled: give back
 * every buffer the rings hold (posted, or written and not consumed: those
 * frames are lost, as in a reset) and start both halves over.
 */
static void privring_queue_reset(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];
	u32 size = m->cfg.ring_size, slot;

	for (slot = 0; slot < size; slot++) {
		if (q->sw.cookie[slot])
			rxb_drv_free_buf(m, qi, q->sw.cookie[slot]);
		q->sw.cookie[slot] = NULL;
	}
	memset(q->desc, 0, size * sizeof(*q->desc));
	memset(q->cr.ent, 0, size * sizeof(*q->cr.ent));
	q->hw.rx_head = 0;
	q->hw.cq_tail = 0;
	q->sw.rx_tail = 0;
	q->sw.rx_ci = 0;
	q->sw.cq_head = 0;
	WRITE_ONCE(q->regs.rx_tail, 0);
	WRITE_ONCE(q->regs.cq_head, 0);
}

static const struct rxb_layout privring_layout =
	RXB_QUEUE_LAYOUT(struct privring, struct privring_q,
			 RXB_ARRAY(struct privring_q, desc, struct rxb_rx_desc,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct privring_q, cr.ent, struct rxb_cqe,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct privring_q, sw.cookie, void *,
				   RXB_ARR_RING));

/* Teardown: neither half runs; only the driver's buffer table is read. */
static void privring_destroy(struct rxb_model *m)
{
	struct privring *pr = to_privring(m);
	unsigned int qi, slot;

	for (qi = 0; qi < m->cfg.nqueues; qi++)
		for (slot = 0; slot < m->cfg.ring_size; slot++)
			if (pr->q[qi].sw.cookie[slot])
				rxb_drv_free_buf(m, qi,
						 pr->q[qi].sw.cookie[slot]);
	rxb_model_free(m, &privring_layout);
}

static struct rxb_model *privring_create(const struct rxb_model_cfg *cfg)
{
	struct rxb_model *m = rxb_model_alloc(&rxb_privring_ops, cfg,
					      &privring_layout);
	unsigned int qi;

	if (IS_ERR(m))
		return m;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct privring_q *q = &to_privring(m)->q[qi];

		spin_lock_init(&q->hw.lock);
		rxb_cring_init(&q->cr, cfg->ring_size, &q->regs.cq_head);
		/* A partly filled ring is topped up by the queue's next poll. */
		privring_refill(m, qi);
	}
	return m;
}

const struct rxb_model_ops rxb_privring_ops = {
	RXB_MODEL_OPS("privring", privring),
	RXB_QUEUE_OPS(privring),
	.queue_reset = privring_queue_reset,
	.umem_bufs = true,
};
