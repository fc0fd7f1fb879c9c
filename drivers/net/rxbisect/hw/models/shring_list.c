// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, linked-list variant (RxList), the NIC's half: queues share Rx
 * descriptor rings whose empty descriptors form a list (thesis section
 * 5.1.4, Listing 5.2, Figure 5.2a).  Registers: rxb_desc.h's shRing
 * section.
 *
 * The NIC takes descriptors in list order from hwHead (struct
 * rxb_rx_ldesc.next) and never takes the list's last one, which only
 * marks its end; it counts the takes that leave array order, each a miss
 * of its contiguous descriptor prefetch (ringG_out_of_order, Figure 5.3).
 * One packet per descriptor, written to the CR of the queue RSS chose.  It
 * reads the ring's count register and the CRs' consumer registers when it
 * needs them, at the next frame (no doorbell op).
 *
 * Also the RxList ring the batched variant (shring_batched.c) uses.
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

/* ---- the RxList ring (shring.h) --------------------------------------- */

static const struct rxb_layout shlist_hw_layout = {
	.size = sizeof(struct shlist_hw),
	.tables = {
		SHRING_HW_Q_TABLE(struct shlist_hw),
		SHRING_HW_RING_TABLE(struct shlist_hw, struct shlist_hw_ring),
	},
};

/**
 * shlist_hw_alloc() - create the hardware half of an RxList model.
 * @ops: the model's hardware half (shring-list or shring-batched).
 * @cfg: the context's configuration.
 * @env: the NIC's services.
 * @hw: their argument.
 * @bar: the register space, as the half sees it.
 *
 * Return: the instance, or ERR_PTR(-ENOMEM).
 */
struct rxb_hw_model *shlist_hw_alloc(const struct rxb_hw_model_ops *ops,
				     const struct rxb_model_cfg *cfg,
				     const struct rxb_hw_ops *env, void *hw,
				     const struct rxb_bar *bar)
{
	struct rxb_hw_model *m = shring_hw_base_alloc(ops, cfg, env, hw, bar,
						      &shlist_hw_layout);
	unsigned int g;

	if (IS_ERR(m))
		return m;
	for (g = 0; g < to_shlist_hw(m)->b.nrings; g++) {
		struct shlist_hw_ring *r = &to_shlist_hw(m)->ring[g];

		spin_lock_init(&r->lock);
		r->regs = rxb_shring_ring_regs(&m->bar, g);
		r->dbg = rxb_shring_ring_debug(&m->bar, g);
		r->st = rxb_shring_ring_stats(&m->bar, g);
		/* The list starts in array order at slot 0. */
		r->last = cfg->ring_size - 1;
	}
	return m;
}

/**
 * shlist_hw_start() - start() of the RxList models: map the descriptor
 *	arrays and the completion rings the driver programmed.
 * @m: the instance.
 *
 * Return: 0, or -EINVAL when a base register maps nothing.
 */
int shlist_hw_start(struct rxb_hw_model *m)
{
	struct shlist_hw *sl = to_shlist_hw(m);
	unsigned int g;

	for (g = 0; g < sl->b.nrings; g++) {
		struct shlist_hw_ring *r = &sl->ring[g];

		r->desc = rxb_hw_dma_map(m, &r->regs->rx_base,
					 (size_t)m->cfg.ring_size *
					 sizeof(*r->desc));
		if (!r->desc)
			return -EINVAL;
	}
	return shring_hw_base_start(&sl->b);
}

/**
 * shlist_hw_destroy() - destroy() of the RxList models.
 * @m: the instance; nothing runs.
 */
void shlist_hw_destroy(struct rxb_hw_model *m)
{
	rxb_hw_model_free(m, &shlist_hw_layout);
}

/* ---- RxList ----------------------------------------------------------- */

static int shlist_rx(struct rxb_hw_model *m, unsigned int qi,
		     const struct rxb_frame *f)
{
	struct shlist_hw *sl = to_shlist_hw(m);
	struct shlist_hw_ring *r = shlist_hw_ring_of(sl, qi);
	struct shring_hw_q *q = &sl->b.q[qi];
	u32 slot;
	int err;

	spin_lock(&r->lock);
	err = shlist_hw_admit(sl, r, qi, f->len,
			      rxb_hw_cring_held(&q->cr, q->dbg->cq_tail));
	if (!err) {
		slot = shlist_hw_take(r, sl->b.mask);
		rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(r->desc[0]));
		rxb_hw_cring_deliver(m, qi, &q->cr, &q->dbg->cq_tail, f,
				     le64_to_cpu(r->desc[slot].buf_addr), slot,
				     r - sl->ring, 0);
	}
	return rxb_nic_finish(m, qi, &r->lock, err);
}

static struct rxb_hw_model *shlist_create(const struct rxb_model_cfg *cfg,
					  const struct rxb_hw_ops *env,
					  void *hw, const struct rxb_bar *bar)
{
	return shlist_hw_alloc(&rxb_shring_list_hw_ops, cfg, env, hw, bar);
}

const struct rxb_hw_model_ops rxb_shring_list_hw_ops = {
	.name = "shring-list", .create = shlist_create,
	.start = shlist_hw_start, .destroy = shlist_hw_destroy,
	.rx = shlist_rx,
	SHRING_HW_OPS,
};
