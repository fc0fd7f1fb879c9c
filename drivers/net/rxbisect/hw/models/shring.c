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

/**
 * shring_hw_base_alloc() - allocate a shRing hardware half and find its
 *	queues' registers.
 * @ops: the model's hardware half.
 * @cfg: the context's configuration.
 * @env: the NIC's services.
 * @hw: their argument.
 * @bar: the register space, as the half sees it.
 * @lay: the variant's layout: its instance starts with struct
 *	shring_hw_base, whose queue table is the layout's first.
 *
 * Return: the instance, or ERR_PTR(-ENOMEM).
 */
struct rxb_hw_model *shring_hw_base_alloc(const struct rxb_hw_model_ops *ops,
					  const struct rxb_model_cfg *cfg,
					  const struct rxb_hw_ops *env,
					  void *hw, const struct rxb_bar *bar,
					  const struct rxb_layout *lay)
{
	struct rxb_hw_model *m = rxb_hw_model_alloc(ops, cfg, env, hw, bar,
						    lay);
	struct shring_hw_base *sb;
	unsigned int qi;

	if (IS_ERR(m))
		return m;
	sb = to_shring_hw_base(m);
	sb->mask = cfg->ring_size - 1;
	sb->nrings = rxb_shring_nrings(cfg);
	for (qi = 0; qi < cfg->nqueues; qi++) {
		sb->q[qi].dbg = rxb_bar_qdebug(&m->bar, qi);
		sb->q[qi].st = rxb_shring_qstats(&m->bar, qi);
	}
	return m;
}

/**
 * shring_hw_base_start() - map the queues' completion rings.
 * @sb: the instance.
 *
 * Return: 0, or -EINVAL when a base register maps nothing.
 */
int shring_hw_base_start(struct shring_hw_base *sb)
{
	struct rxb_hw_model *m = &sb->m;
	unsigned int qi;

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
 * @lock: the ring's pipeline stage: its head and its queues' CRs.
 * @desc: the descriptor array, mapped from the ring's base register.
 * @regs: the ring's registers.
 * @dbg: its debug registers; taken is the NIC's head, the next
 *	descriptor it takes (free-running).
 */
struct shring_hw_ring {
	spinlock_t lock;		/* the ring's pipeline stage */
	const struct rxb_rx_desc *desc;
	const struct rxb_shring_regs *regs;
	struct rxb_qdebug_regs *dbg;
} ____cacheline_aligned;

struct shring_hw {
	struct shring_hw_base b;
	struct shring_hw_ring *ring;
};

static struct shring_hw *to_shring_hw(struct rxb_hw_model *m)
{
	return container_of(m, struct shring_hw, b.m);
}

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

	spin_lock(&r->lock);
	held = rxb_hw_cring_held(&q->cr, q->dbg->cq_tail);
	head = r->dbg->taken;
	/* Strictly in array order: the NIC's contiguous descriptor prefetch. */
	d = &r->desc[head & sr->b.mask];
	if (rxb_db_read(&r->regs->rx_tail) == head)
		err = shring_hw_nobuf(&sr->b, qi, held);
	else
		err = rxb_hw_cring_admit(&q->cr, held, f->len, d->buf_len);
	if (!err) {
		/* WRITE_ONCE: a debug register, read from anywhere. */
		WRITE_ONCE(r->dbg->taken, head + 1);
		rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*d));
		rxb_hw_cring_deliver(m, qi, &q->cr, &q->dbg->cq_tail, f,
				     le64_to_cpu(d->buf_addr), d - r->desc, g,
				     0);
	}
	return rxb_nic_finish(m, qi, &r->lock, err);
}

/* The context is enabled: map the rings the driver programmed. */
static int shring_start(struct rxb_hw_model *m)
{
	struct shring_hw *sr = to_shring_hw(m);
	unsigned int g;

	for (g = 0; g < sr->b.nrings; g++) {
		struct shring_hw_ring *r = &sr->ring[g];

		r->desc = rxb_hw_dma_map(m, &r->regs->rx_base,
					 (size_t)m->cfg.ring_size *
					 sizeof(*r->desc));
		if (!r->desc)
			return -EINVAL;
	}
	return shring_hw_base_start(&sr->b);
}

static const struct rxb_layout shring_hw_layout = {
	.size = sizeof(struct shring_hw),
	.tables = {
		SHRING_HW_Q_TABLE(struct shring_hw),
		SHRING_HW_RING_TABLE(struct shring_hw, struct shring_hw_ring),
	},
};

static void shring_destroy(struct rxb_hw_model *m)
{
	rxb_hw_model_free(m, &shring_hw_layout);
}

static struct rxb_hw_model *shring_create(const struct rxb_model_cfg *cfg,
					  const struct rxb_hw_ops *env,
					  void *hw, const struct rxb_bar *bar)
{
	struct rxb_hw_model *m = shring_hw_base_alloc(&rxb_shring_hw_ops, cfg,
						      env, hw, bar,
						      &shring_hw_layout);
	unsigned int g;

	if (IS_ERR(m))
		return m;
	for (g = 0; g < to_shring_hw(m)->b.nrings; g++) {
		struct shring_hw_ring *r = &to_shring_hw(m)->ring[g];

		spin_lock_init(&r->lock);
		r->regs = rxb_shring_ring_regs(&m->bar, g);
		r->dbg = rxb_shring_ring_debug(&m->bar, g);
	}
	return m;
}

const struct rxb_hw_model_ops rxb_shring_hw_ops = {
	RXB_HW_MODEL_OPS("shring", shring),
	SHRING_HW_OPS,
};
