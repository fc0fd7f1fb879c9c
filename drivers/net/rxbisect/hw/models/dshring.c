// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic shRing (dshRing), the NIC's half: a privRing ring set and an
 * shRing (RxArr) ring set side by side, the thesis's two pre-programmed
 * RSS table sets, chosen per queue by a register (thesis section 5.1.5).
 * Registers: rxb_desc.h's "Dynamic shRing" section; the pages each set
 * sees, include/rxbisect/rxb_shring.h (rxb_dsh_set_bar()).
 *
 * Each set is the hardware half of its model (privring.c, shring.c),
 * created here with its own view of the register space, so the driver's
 * half of the same model (drv/models/dshring.c creates it with the same
 * view) programs what it reads.  For each frame the NIC reads the queue's
 * select register, latches a change there (and writes the new status back
 * into host memory, struct rxb_dsh_status, before it delivers to the new
 * set) and hands the frame to the set's hardware half, which writes its
 * own rings and raises the queue's vector.  The queue's statistics
 * registers in dshRing's page count every frame of the queue, whichever
 * set took it; the driver's controller reads them there.  The NIC has no
 * timer and no policy: the controller is the driver's (ctl_tick).
 *
 * Neither set has a doorbell op, a timer or per-flow state, so neither
 * has dshRing.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_shring.h>
#include "hw_ring.h"

/**
 * struct dsh_hw_q - the NIC's steering of one queue.
 * @lock: one delivery of the queue's frames at a time, so that a latch
 *	falls between deliveries.
 * @regs: the queue's steering registers.
 * @status: the queue's status in host memory, mapped from
 *	@regs->status_base.
 * @set: the ring set the NIC delivers to.
 * @changes: the changes latched, the value of @status->active.
 */
struct dsh_hw_q {
	spinlock_t lock;	/* one delivery at a time */
	const struct rxb_dsh_regs *regs;
	struct rxb_dsh_status *status;
	u8 set;
	u32 changes;
} ____cacheline_aligned;

struct dsh_hw {
	struct rxb_hw_model m;
	struct rxb_hw_model *set[RXB_DSH_NSETS];
	struct dsh_hw_q *q;
};

#define to_dsh_hw(mp)		container_of(mp, struct dsh_hw, m)

static int dsh_rx(struct rxb_hw_model *m, unsigned int qi,
		  const struct rxb_frame *f)
{
	struct dsh_hw *d = to_dsh_hw(m);
	struct dsh_hw_q *q = &d->q[qi];
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, qi);
	u8 sel;
	int err;

	spin_lock(&q->lock);
	sel = rxb_db_read(&q->regs->select) & 1;
	if (sel != q->set) {
		/* Latch the driver's new choice. */
		q->set = sel;
		q->changes++;
		/* Release: every delivery to the old set, each in an earlier
		 * critical section, is visible to a driver that sees the new
		 * count.  Pairs with the acquire in dsh_active() (driver).
		 */
		smp_store_release(&q->status->active, cpu_to_le32(q->changes));
		rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*q->status));
	}
	err = rxb_hwm_rx(d->set[q->set], qi, f);
	if (!err) {
		rxb_stat_inc(&st->hw_packets);
		rxb_stat_add(&st->hw_bytes, f->len);
	}
	/* The set raised its own vector. */
	return rxb_nic_finish_irq(m, qi, &q->lock, err, false);
}

/* The context is enabled: map the status words, then each set's rings. */
static int dsh_start(struct rxb_hw_model *m)
{
	struct dsh_hw *d = to_dsh_hw(m);
	unsigned int qi, s;
	int err;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct dsh_hw_q *q = &d->q[qi];

		q->status = rxb_hw_dma_map(m, &q->regs->status_base,
					   sizeof(*q->status));
		if (!q->status)
			return -EINVAL;
	}
	for (s = 0; s < RXB_DSH_NSETS; s++) {
		err = d->set[s]->ops->start ? d->set[s]->ops->start(d->set[s]) :
		      0;
		if (err)
			return err;
	}
	return 0;
}

static void dsh_fini(struct rxb_hw_model *m)
{
	struct dsh_hw *d = to_dsh_hw(m);
	unsigned int s;

	for (s = 0; s < RXB_DSH_NSETS; s++)
		rxb_hw_model_destroy(d->set[s]);
}

static const struct rxb_layout dsh_hw_layout =
	RXB_QUEUE_LAYOUT(struct dsh_hw, struct dsh_hw_q);

/* The ring sets are the privRing and shRing hardware halves, each in its
 * view of the register space.
 */
static int dsh_init(struct rxb_hw_model *m)
{
	static const struct rxb_hw_model_ops *const set_ops[RXB_DSH_NSETS] = {
		[RXB_DSH_PRIV] = &rxb_privring_hw_ops,
		[RXB_DSH_SH] = &rxb_shring_hw_ops,
	};
	struct dsh_hw *d = to_dsh_hw(m);
	struct rxb_bar view;
	unsigned int qi, s;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		spin_lock_init(&d->q[qi].lock);
		d->q[qi].regs = rxb_dsh_regs(&m->bar, qi);
	}
	for (s = 0; s < RXB_DSH_NSETS; s++) {
		rxb_dsh_set_bar(&m->bar, m->cfg.nqueues, s, &view);
		d->set[s] = rxb_hw_model_create(set_ops[s], &m->cfg, m->env,
						m->hw, &view);
		if (IS_ERR(d->set[s]))
			return PTR_ERR(d->set[s]);
	}
	return 0;
}

const struct rxb_hw_model_ops rxb_dshring_hw_ops = {
	RXB_HW_MODEL_OPS("dshring", dsh),
	.fini = dsh_fini,
	.bar_pages = rxb_dsh_bar_pages,
};
