// SPDX-License-Identifier: GPL-2.0
/*
 * COREC, the NIC's half: one receive queue consumed by several cores at
 * once (Faltelli et al., "COREC: Concurrent Non-Blocking Single-Queue
 * Receive Driver for Low Latency Networking", section 3.4).  Registers:
 * the COREC section of rxb_desc.h; groups: include/rxbisect/rxb_corec.h.
 *
 * The NIC is unmodified: each shared queue is one Rx descriptor ring, one
 * completion ring (CR) and one struct rxb_rxq_regs, used as privRing's are
 * (hw/models/privring.c).  RSS still picks a queue per frame; the frame
 * goes to that queue's group's shared queue, and the NIC raises the
 * vector of the group's next queue, round-robin, or of all of them
 * (corec_irq_policy).  The consumers' coordination (transaction ID,
 * READ_DONE bits, the tail) is the driver's alone (drv/models/corec.c):
 * the NIC sees one consumer that returns descriptors in order.  It reads
 * rx_tail and cq_head when it needs them, at the next frame, so it has
 * nothing to do when they are written (no doorbell op).
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_corec.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include "hw_ring.h"

struct corec_hw_ring {
	spinlock_t lock;		/* the NIC's per-ring pipeline stage */
	const struct rxb_rx_desc *desc;	/* the Rx ring, mapped */
	struct rxb_hw_cring cr;
	struct rxb_rxq_regs *regs;	/* the shared queue's registers */
	struct rxb_qdebug_regs *dbg;	/* taken: Rx head; cq_tail: CR tail */
	struct rxb_corec_qstats_regs *st;
	unsigned int first;		/* consumers: first .. first + n - 1 */
	unsigned int n;
	unsigned int rr;		/* next consumer to interrupt */
} ____cacheline_aligned;

struct corec_hw {
	struct rxb_hw_model m;
	unsigned int group;		/* consumers per shared queue */
	struct corec_hw_ring *r;
};

#define to_corec_hw(mp)		container_of(mp, struct corec_hw, m)

static int corec_rx(struct rxb_hw_model *m, unsigned int qi,
		    const struct rxb_frame *f)
{
	struct corec_hw *ch = to_corec_hw(m);
	struct corec_hw_ring *r = &ch->r[qi / ch->group];
	bool rr = m->cfg.corec_irq_policy == RXB_COREC_IRQ_RR;
	unsigned int i, irq = 0;
	int err;

	spin_lock(&r->lock);
	/* rx_tail before cq_head: the driver rings them in the other
	 * order (corec_advance() in drv/models/corec.c).
	 */
	err = rxb_rxq_deliver(m, qi, r->desc, &r->regs->rx_tail, &r->cr,
			      &r->dbg->taken, &r->dbg->cq_tail, f, r - ch->r);
	if (err == -ENOBUFS)
		rxb_stat_inc(&r->st->nobuf_drops);
	if (!err && rr) {
		irq = r->rr;
		r->rr = (irq + 1) % r->n;
	}
	rxb_nic_drop(m, qi, err);
	spin_unlock(&r->lock);
	if (err)
		return err;
	/* A masked vector (its consumer is polling) costs nothing. */
	if (rr)
		rxb_hw_raise_irq(m, r->first + irq);
	else
		for (i = 0; i < r->n; i++)
			rxb_hw_raise_irq(m, r->first + i);
	return 0;
}

/* The context is enabled: map the rings the driver programmed. */
static int corec_start(struct rxb_hw_model *m)
{
	struct corec_hw *ch = to_corec_hw(m);
	unsigned int i;

	for (i = 0; i < rxb_corec_nrings(&m->cfg); i++) {
		struct corec_hw_ring *r = &ch->r[i];

		r->desc = rxb_hw_rxq_map(m, r->regs, &r->cr);
		if (!r->desc)
			return -EINVAL;
	}
	return 0;
}

static const struct rxb_layout corec_hw_layout = {
	.size = sizeof(struct corec_hw),
	.tables = { RXB_TABLE(struct corec_hw, r, struct corec_hw_ring,
			      rxb_corec_nrings) },
};

static int corec_init(struct rxb_hw_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct corec_hw *ch = to_corec_hw(m);
	unsigned int i;

	ch->group = rxb_corec_group(cfg);
	for (i = 0; i < rxb_corec_nrings(cfg); i++) {
		struct corec_hw_ring *r = &ch->r[i];

		spin_lock_init(&r->lock);
		r->first = rxb_corec_first(cfg, i);
		r->n = rxb_corec_consumers(cfg, i);
		r->regs = rxb_bar_q(&m->bar, r->first, RXB_QPAGE_REGS);
		r->dbg = rxb_bar_qdebug(&m->bar, r->first);
		r->st = rxb_bar_q(&m->bar, r->first, RXB_QPAGE_MSTATS);
		/* Before the NIC runs: its indices start where the
		 * driver's do.
		 */
		WRITE_ONCE(r->dbg->taken, RXB_COREC_ID0);
		WRITE_ONCE(r->dbg->cq_tail, RXB_COREC_ID0);
	}
	return 0;
}

const struct rxb_hw_model_ops rxb_corec_hw_ops = {
	RXB_HW_MODEL_OPS("corec", corec),
};
