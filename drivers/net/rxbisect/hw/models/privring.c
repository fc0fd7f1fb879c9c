// SPDX-License-Identifier: GPL-2.0
/*
 * privRing, the NIC's half: the classic receive interface, one private Rx
 * ring and one completion ring (CR) per queue (rxbisect paper section 2,
 * Figure 1; thesis section 4.1).  Registers: struct rxb_rxq_regs in each
 * queue's page.
 *
 * The NIC takes the buffer of the descriptor at the Rx ring's head, writes
 * the packet into it and a CR entry naming the descriptor.  It reads the
 * driver's rx_tail and cq_head registers when it needs them, at the next
 * frame, so it has nothing to do when they are written (no doorbell op).
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include "hw_ring.h"

struct privring_hw_q {
	spinlock_t lock;		/* the NIC's per-ring pipeline stage */
	const struct rxb_rx_desc *desc;	/* the Rx ring, mapped */
	struct rxb_hw_cring cr;
	struct rxb_rxq_regs *regs;	/* the queue's registers */
	struct rxb_qdebug_regs *dbg;	/* taken: Rx head; cq_tail: CR tail */
} ____cacheline_aligned;

struct privring_hw {
	struct rxb_hw_model m;
	struct privring_hw_q *q;
};

#define to_privring_hw(mp)	container_of(mp, struct privring_hw, m)

static int privring_rx(struct rxb_hw_model *m, unsigned int qi,
		       const struct rxb_frame *f)
{
	struct privring_hw_q *q = &to_privring_hw(m)->q[qi];
	int err;

	spin_lock(&q->lock);
	err = rxb_rxq_deliver(m, qi, q->desc, &q->regs->rx_tail, &q->cr,
			      &q->dbg->taken, &q->dbg->cq_tail, f, qi);
	return rxb_nic_finish(m, qi, &q->lock, err);
}

/* The queue is disabled: its indices go back to zero. */
static void privring_queue_reset(struct rxb_hw_model *m, unsigned int qi)
{
	struct privring_hw_q *q = &to_privring_hw(m)->q[qi];

	WRITE_ONCE(q->dbg->taken, 0);
	WRITE_ONCE(q->dbg->cq_tail, 0);
}

static const struct rxb_layout privring_hw_layout =
	RXB_QUEUE_LAYOUT(struct privring_hw, struct privring_hw_q);

static int privring_init(struct rxb_hw_model *m)
{
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct privring_hw_q *q = &to_privring_hw(m)->q[qi];

		spin_lock_init(&q->lock);
		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->dbg = rxb_bar_qdebug(&m->bar, qi);
	}
	return 0;
}

/* The context is enabled: map the rings the driver programmed. */
static int privring_start(struct rxb_hw_model *m)
{
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct privring_hw_q *q = &to_privring_hw(m)->q[qi];

		q->desc = rxb_hw_rxq_map(m, q->regs, &q->cr);
		if (!q->desc)
			return -EINVAL;
	}
	return 0;
}

const struct rxb_hw_model_ops rxb_privring_hw_ops = {
	RXB_HW_MODEL_OPS("privring", privring),
	.queue_reset = privring_queue_reset,
};
