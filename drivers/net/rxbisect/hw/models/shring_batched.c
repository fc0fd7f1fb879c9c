// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, batched RxList, the NIC's half: queues share RxList rings
 * (shring_list.c) whose descriptors each hold several packets (thesis
 * section 5.1.4, "Prefetching Solution", Figure 5.2b).  The thesis could
 * not evaluate it: it needs a NIC that keeps a current descriptor per
 * completion ring, as this one does.
 *
 * Per CR, a "mini hwHead" (struct shring_hw_q.cur) names the descriptor
 * that CR's packets go to; each packet is placed at the next
 * RXB_MCQE_ALIGN-aligned offset of its buffer.  When the next packet does
 * not fit, the NIC takes the next descriptor from the list (the only time
 * it touches the shared list: once per batch, not once per packet) and
 * flags the first entry it writes for it RXB_MCQE_F_CLOSE.  A queue that
 * stays idle with a partly filled descriptor would hold it (and its
 * buffer) for ever: the NIC's idle timer closes it after one to two
 * SHBAT_IDLE_NS periods without a packet for that CR, with an entry that
 * carries no packet (RXB_MCQE_F_CLOSE | RXB_MCQE_F_NOPKT), as rxBisect's
 * notification timeout flushes held notifications.  The timer runs only
 * while a descriptor is open.
 *
 * Since a queue's CR bounds the packets it holds, a stalled queue holds at
 * most ring size / batch descriptors of the shared ring: batching also
 * softens RxArr's pathological core overload (section 5.1.1).
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

/* Period of the NIC's idle timer (see above). */
#define SHBAT_IDLE_NS		(100 * 1000)

static int shbat_rx(struct rxb_hw_model *m, unsigned int qi,
		    const struct rxb_frame *f)
{
	struct shlist_hw *sb = to_shlist_hw(m);
	struct shlist_hw_ring *r = shlist_hw_ring_of(sb, qi);
	const struct rxb_rx_ldesc *desc = shlist_hw_desc(r);
	struct shring_hw_q *q = &sb->b.q[qi];
	u8 flags = 0;
	u32 held;
	int err;

	spin_lock(&r->h.lock);
	held = rxb_hw_cring_held(&q->cr, q->dbg->cq_tail);
	/* The current descriptor's buf_len is the one the driver posted. */
	if (!q->open ||
	    q->off + f->len > le32_to_cpu(desc[q->cur].buf_len)) {
		err = shlist_hw_admit(sb, r, qi, f->len, held);
		if (!err) {
			/* Close the current descriptor: the next one is the
			 * CR's.
			 */
			if (q->open)
				flags = RXB_MCQE_F_CLOSE;
			q->cur = shlist_hw_take(m, qi, r, sb->b.mask);
			q->off = 0;
			q->open = true;
			/* The idle timer watches open descriptors. */
			if (!READ_ONCE(sb->ticking)) {
				WRITE_ONCE(sb->ticking, true);
				rxb_hw_arm_timer(m, SHBAT_IDLE_NS);
			}
		}
	} else {
		err = held > sb->b.mask ? -ENOSPC : 0;
	}
	if (!err) {
		/* A failed write still uses its space: the driver skips it. */
		rxb_hw_cring_deliver(m, qi, &q->cr, &q->dbg->cq_tail, f,
				     le64_to_cpu(desc[q->cur].buf_addr) + q->off,
				     q->cur, q->off, flags);
		q->off += ALIGN(f->len, RXB_MCQE_ALIGN);
	}
	return rxb_nic_finish(m, qi, &r->h.lock, err);
}

/* Close queue @qi's current descriptor if no packet came for it since the
 * last tick.  Under its ring's lock.  Returns true if an entry was written
 * (raise the vector); *@open is set if it stays open.
 */
static bool shbat_idle_close(struct shlist_hw *sb, struct shlist_hw_ring *r,
			     unsigned int qi, bool *open)
{
	struct shring_hw_q *q = &sb->b.q[qi];
	u32 tail = q->dbg->cq_tail;

	if (!q->open)
		return false;
	if (tail != q->seen || rxb_hw_cring_held(&q->cr, tail) > sb->b.mask) {
		/* Busy, or no room for the entry: try next tick. */
		q->seen = tail;
		*open = true;
		return false;
	}
	rxb_hw_pcie(&sb->b.m, qi, RXB_PCIE_META_WR, sizeof(q->cr.ent[0]));
	rxb_hw_cring_note(&q->cr, &q->dbg->cq_tail, q->cur,
			  RXB_MCQE_F_CLOSE | RXB_MCQE_F_NOPKT);
	q->seen = q->dbg->cq_tail;
	q->open = false;
	rxb_stat_inc(&r->st->idle_closes);
	return true;
}

static void shbat_timer(struct rxb_hw_model *m)
{
	struct shlist_hw *sb = to_shlist_hw(m);
	u64 wrote = 0;
	bool open = false;
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct shlist_hw_ring *r = shlist_hw_ring_of(sb, qi);

		spin_lock(&r->h.lock);
		if (shbat_idle_close(sb, r, qi, &open))
			wrote |= 1ULL << qi;
		spin_unlock(&r->h.lock);
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		if (wrote & (1ULL << qi))
			rxb_hw_raise_irq(m, qi);
	if (!open) {
		/* Sleep until a descriptor opens (shbat_rx() arms the
		 * timer).  One that opened since the check above saw ticking
		 * true and armed nothing: look again, under each ring's lock,
		 * which orders our write of ticking before its read there,
		 * or its open before our read.
		 */
		WRITE_ONCE(sb->ticking, false);
		for (qi = 0; qi < m->cfg.nqueues && !open; qi++) {
			struct shlist_hw_ring *r = shlist_hw_ring_of(sb, qi);

			spin_lock(&r->h.lock);
			open = sb->b.q[qi].open;
			spin_unlock(&r->h.lock);
		}
		if (!open)
			return;
		WRITE_ONCE(sb->ticking, true);
	}
	rxb_hw_arm_timer(m, SHBAT_IDLE_NS);
}

const struct rxb_hw_model_ops rxb_shring_batched_hw_ops = {
	SHRING_HW_OPS("shring-batched", shlist_hw_layout, shlist_hw_init,
		      shbat_rx),
	.timer = shbat_timer,
};
