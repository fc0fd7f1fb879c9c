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

const struct rxb_layout shlist_hw_layout = {
	.size = sizeof(struct shlist_hw),
	.tables = {
		SHRING_HW_Q_TABLE(struct shlist_hw),
		SHRING_HW_RING_TABLE(struct shlist_hw, struct shlist_hw_ring),
	},
};

/**
 * shlist_hw_init() - init of the RxList models' hardware halves
 *	(shring-list and shring-batched).
 * @m: the instance.
 *
 * Return: 0.
 */
int shlist_hw_init(struct rxb_hw_model *m)
{
	unsigned int g;

	shring_hw_base_init(m, sizeof(struct rxb_rx_ldesc));
	for (g = 0; g < to_shlist_hw(m)->b.nrings; g++) {
		struct shlist_hw_ring *r = &to_shlist_hw(m)->ring[g];

		r->st = rxb_shring_ring_stats(&m->bar, g);
		/* The list starts in array order at slot 0. */
		r->last = m->cfg.ring_size - 1;
	}
	return 0;
}

/* ---- RxList ----------------------------------------------------------- */

static int shlist_rx(struct rxb_hw_model *m, unsigned int qi,
		     const struct rxb_frame *f)
{
	struct shlist_hw *sl = to_shlist_hw(m);
	struct shlist_hw_ring *r = shlist_hw_ring_of(sl, qi);
	struct shring_hw_q *q = &sl->b.q[qi];
	int err;

	spin_lock(&r->h.lock);
	err = shlist_hw_admit(sl, r, qi, f->len,
			      rxb_hw_cring_held(&q->cr, q->dbg->cq_tail));
	if (!err) {
		u32 slot = shlist_hw_take(m, qi, r, sl->b.mask);
		u64 addr = le64_to_cpu(shlist_hw_desc(r)[slot].buf_addr);

		rxb_hw_cring_deliver(m, qi, &q->cr, &q->dbg->cq_tail, f, addr,
				     slot, r - sl->ring, 0);
	}
	return rxb_nic_finish(m, qi, &r->h.lock, err);
}

const struct rxb_hw_model_ops rxb_shring_list_hw_ops = {
	SHRING_HW_OPS("shring-list", shlist_hw_layout, shlist_hw_init,
		      shlist_rx),
};
