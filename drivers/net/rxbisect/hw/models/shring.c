// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, array variant (RxArr), the NIC's half: queues share Rx
 * descriptor rings (thesis sections 5.1.2 and 5.1.3, Listing 5.1, Figure
 * 5.1).  Registers: rxb_desc.h's shRing section.
 *
 * Queues are grouped by the share factor; each group shares one Rx ring
 * of ring_size descriptors with one tail register, and each queue keeps
 * its own completion ring (CR).  The NIC takes the descriptor at the
 * shared head in array order (its contiguous descriptor prefetch) and
 * writes the CR entry to the queue RSS chose.  It reads the driver's
 * rx_tail and cq_head registers when it needs them, at the next frame, so
 * it has nothing to do when they are written (no doorbell op).
 *
 * Also the base every shRing hardware half builds on (shring.h).
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_shring.h>
#include "hw_ring.h"
#include "shring.h"

/* ---- the base of the shRing hardware halves (shring.h) -------------- */

/* Shared ring @g's head: the rings are the second table of the variant's
 * layout (struct shring_hw_base).
 */
static struct shring_hw_ring_head *shring_hw_head(struct rxb_hw_model *m,
						  unsigned int g)
{
	const struct rxb_table *t = &m->ops->layout->tables[1];
	u8 *rings = *(u8 **)((u8 *)m + t->off);

	return (struct shring_hw_ring_head *)(rings + g * t->size);
}

/**
 * shring_hw_base_init() - init of every shRing hardware half's base: find
 *	its queues' and its shared rings' registers.
 * @m: the instance; its layout's instance starts with struct
 *	shring_hw_base, whose queue table is the layout's first.
 * @desc_size: bytes of a shared ring's descriptor.
 */
void shring_hw_base_init(struct rxb_hw_model *m, size_t desc_size)
{
	struct shring_hw_base *sb = to_shring_hw_base(m);
	unsigned int qi, g;

	sb->mask = m->cfg.ring_size - 1;
	sb->nrings = rxb_shring_nrings(&m->cfg);
	sb->desc_size = desc_size;
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		sb->q[qi].dbg = rxb_bar_qdebug(&m->bar, qi);
		sb->q[qi].st = rxb_shring_qstats(&m->bar, qi);
	}
	for (g = 0; g < sb->nrings; g++) {
		struct shring_hw_ring_head *h = shring_hw_head(m, g);

		spin_lock_init(&h->lock);
		h->regs = rxb_shring_ring_regs(&m->bar, g);
		h->dbg = rxb_shring_ring_debug(&m->bar, g);
	}
}

/**
 * shring_hw_base_start() - start() of every shRing hardware half: map the
 *	shared rings' descriptor arrays and the queues' completion rings
 *	the driver programmed.
 * @m: the instance.
 *
 * Return: 0, or -EINVAL when a base register maps nothing.
 */
int shring_hw_base_start(struct rxb_hw_model *m)
{
	struct shring_hw_base *sb = to_shring_hw_base(m);
	unsigned int qi, g;

	for (g = 0; g < sb->nrings; g++) {
		struct shring_hw_ring_head *h = shring_hw_head(m, g);

		h->desc = rxb_hw_dma_map(m, &h->regs->rx_base,
					 (size_t)m->cfg.ring_size *
					 sb->desc_size);
		if (!h->desc)
			return -EINVAL;
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct rxb_cq_regs *regs = rxb_shring_cq_regs(&m->bar, qi);

		if (rxb_hw_cring_map(m, &sb->q[qi].cr, &regs->cq_base,
				     m->cfg.ring_size, &regs->cq_head))
			return -EINVAL;
	}
	return 0;
}

/* ---- RxArr ------------------------------------------------------------ */

/**
 * struct shring_hw_ring - the NIC's state of one RxArr shared ring.
 * @h: what every shared ring has; its desc is struct rxb_rx_desc, its
 *	dbg's taken the NIC's head, the next descriptor it takes
 *	(free-running).
 */
struct shring_hw_ring {
	struct shring_hw_ring_head h;
} ____cacheline_aligned;

struct shring_hw {
	struct shring_hw_base b;
	struct shring_hw_ring *ring;
};

#define to_shring_hw(mp)	container_of(mp, struct shring_hw, b.m)

static int shring_rx(struct rxb_hw_model *m, unsigned int qi,
		     const struct rxb_frame *f)
{
	struct shring_hw *sr = to_shring_hw(m);
	unsigned int g = rxb_shring_group(&m->cfg, qi);
	struct shring_hw_ring *r = &sr->ring[g];
	struct shring_hw_q *q = &sr->b.q[qi];
	const struct rxb_rx_desc *d;
	u32 held, head;
	int err;

	spin_lock(&r->h.lock);
	held = rxb_hw_cring_held(&q->cr, q->dbg->cq_tail);
	head = r->h.dbg->taken;
	/* Strictly in array order: the NIC's contiguous descriptor prefetch. */
	d = (const struct rxb_rx_desc *)r->h.desc + (head & sr->b.mask);
	if (rxb_db_read(&r->h.regs->rx_tail) == head)
		err = shring_hw_nobuf(&sr->b, qi, held);
	else
		err = rxb_hw_cring_admit(&q->cr, held, f->len, d->buf_len);
	if (!err) {
		/* WRITE_ONCE: a debug register, read from anywhere. */
		WRITE_ONCE(r->h.dbg->taken, head + 1);
		rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*d));
		rxb_hw_cring_deliver(m, qi, &q->cr, &q->dbg->cq_tail, f,
				     le64_to_cpu(d->buf_addr),
				     head & sr->b.mask, g, 0);
	}
	return rxb_nic_finish(m, qi, &r->h.lock, err);
}

static const struct rxb_layout shring_hw_layout = {
	.size = sizeof(struct shring_hw),
	.tables = {
		SHRING_HW_Q_TABLE(struct shring_hw),
		SHRING_HW_RING_TABLE(struct shring_hw, struct shring_hw_ring),
	},
};

static int shring_init(struct rxb_hw_model *m)
{
	shring_hw_base_init(m, sizeof(struct rxb_rx_desc));
	return 0;
}

const struct rxb_hw_model_ops rxb_shring_hw_ops = {
	SHRING_HW_OPS("shring", shring_hw_layout, shring_init, shring_rx),
};
