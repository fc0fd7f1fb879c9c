// SPDX-License-Identifier: GPL-2.0
/*
 * privRing, the driver's half: the classic receive interface, one private
 * Rx ring and one completion ring (CR) per queue (rxbisect paper section
 * 2, Figure 1; thesis section 4.1).  Registers: struct rxb_rxq_regs in
 * each queue's page.
 *
 * The driver consumes CR entries in order, replaces each consumed buffer
 * with a fresh one at the Rx ring's tail and writes the tail register.
 * Every posted buffer must be used before any can be reused, so the
 * queue's I/O working set is the whole ring: ring_size buffers.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include "drv_ring.h"

struct privring_q {
	struct rxb_rx_desc *desc;	/* the Rx ring, in @desc_mem */
	struct rxb_ring_mem desc_mem;
	struct rxb_cring cr;
	struct rxb_rxq_regs *regs;	/* the queue's registers */
	void **cookie;			/* buffer handle per descriptor slot */
	u32 rx_tail;			/* next descriptor to post */
	u32 rx_ci;			/* descriptors consumed so far */
	u32 cq_head;			/* next CR entry to read */
} ____cacheline_aligned;

struct privring {
	struct rxb_model m;
	struct privring_q *q;
};

#define to_privring(mp)		container_of(mp, struct privring, m)

static bool privring_refill(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	return rxb_ring_refill(m, qi, q->desc, q->cookie, q->cr.mask,
			       &q->rx_tail, q->rx_ci, &q->regs->rx_tail);
}

static int privring_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct privring_q *q = &to_privring(m)->q[qi];
	u32 head = q->cq_head;
	u64 bytes = 0;
	int n = 0;

	while (n < budget && rxb_cring_ready(&q->cr, head)) {
		u32 slot = rxb_cring_read(&q->cr, head, &pkts[n]);

		pkts[n].cookie = q->cookie[slot];
		pkts[n].pool_q = qi;
		q->cookie[slot] = NULL;
		bytes += pkts[n].len;
		head++;
		n++;
	}
	if (n) {
		q->rx_ci += n;
		rxb_cring_consume(m, qi, &q->cr, &q->cq_head, n, n, bytes);
	}
	privring_refill(m, qi);
	return n;
}

static bool privring_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	return rxb_cring_pending(&q->cr, q->cq_head);
}

RXB_DEFINE_CRING_QUEUE_OPS(privring, offsetof(struct rxb_rxq_regs, rx_tail))

/* Give back every buffer of queue @qi's slots. */
static void privring_free_bufs(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];
	u32 slot;

	for (slot = 0; slot < m->cfg.ring_size; slot++) {
		if (q->cookie[slot])
			rxb_drv_free_buf(m, qi, q->cookie[slot]);
		q->cookie[slot] = NULL;
	}
}

/* The queue's NAPI is stopped and the NIC's queue disabled: give back
 * every buffer the rings hold (posted, or written and not consumed: those
 * frames are lost, as in a reset) and start over; the NIC resets its
 * indices (rxb_hw_model_ops.queue_reset) before the driver refills.
 */
static void privring_queue_reset(struct rxb_model *m, unsigned int qi)
{
	struct privring_q *q = &to_privring(m)->q[qi];

	privring_free_bufs(m, qi);
	memset(q->desc, 0, q->desc_mem.size);
	rxb_cring_reset(m, qi, &q->cr);
	q->rx_tail = 0;
	q->rx_ci = 0;
	q->cq_head = 0;
	rxb_reg_write(m, qi, &q->regs->rx_tail, 0);
}

static const struct rxb_layout privring_layout =
	RXB_QUEUE_LAYOUT(struct privring, struct privring_q,
			 RXB_ARRAY(struct privring_q, cookie, void *,
				   RXB_ARR_RING));

/* The NIC's context is disabled: nothing reads the rings any more. */
static void privring_fini(struct rxb_model *m)
{
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct privring_q *q = &to_privring(m)->q[qi];

		if (q->cookie)
			privring_free_bufs(m, qi);
		rxb_ring_mem_free(m, &q->desc_mem);
		rxb_cring_free(m, &q->cr);
	}
}

static int privring_init(struct rxb_model *m)
{
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct privring_q *q = &to_privring(m)->q[qi];

		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->desc = rxb_rxq_alloc(m, qi, q->regs, &q->desc_mem, &q->cr);
		if (!q->desc)
			return -ENOMEM;
		/* A partly filled ring is topped up by the queue's next poll. */
		privring_refill(m, qi);
	}
	return 0;
}

const struct rxb_model_ops rxb_privring_ops = {
	RXB_MODEL_CORE_OPS("privring", privring),
	RXB_QUEUE_OPS(privring),
	.queue_reset = privring_queue_reset,
	.umem_bufs = true,
};
