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
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

struct privring_q {
	/* Ring memory, read and written by both NIC and driver. */
	struct rxb_rx_desc *desc;
	struct rxb_cqe *cq;

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
		u32 rx_tail;		/* next descriptor to post */
		u32 rx_ci;		/* descriptors consumed so far */
		u32 cq_head;		/* next CR entry to read */
		void **cookie;		/* buffer handle per descriptor slot */
	} sw ____cacheline_aligned;
};

struct privring {
	struct rxb_model m;
	u32 mask;
	unsigned int order;
	struct privring_q *q;
};

static struct privring *to_privring(struct rxb_model *m)
{
	return container_of(m, struct privring, m);
}

static bool privring_refill(struct rxb_model *m, unsigned int qi)
{
	struct privring *pr = to_privring(m);
	struct privring_q *q = &pr->q[qi];

	return rxb_ring_refill(m, qi, q->desc, q->sw.cookie, pr->mask,
			       &q->sw.rx_tail, q->sw.rx_ci, &q->regs.rx_tail);
}

static int privring_hw_rx(struct rxb_model *m, unsigned int qi,
			  const struct rxb_frame *f)
{
	struct privring *pr = to_privring(m);
	struct privring_q *q = &pr->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	const struct rxb_rx_desc *d;
	int err = 0;
	u32 slot;

	spin_lock(&q->hw.lock);
	if (rxb_db_read(&q->regs.rx_tail) == q->hw.rx_head) {
		rxb_stat_inc(&st->nobuf_drops);
		err = -ENOBUFS;
		goto unlock;
	}
	if (q->hw.cq_tail - rxb_db_read(&q->regs.cq_head) > pr->mask) {
		rxb_stat_inc(&st->ring_full_drops);
		err = -ENOSPC;
		goto unlock;
	}
	slot = q->hw.rx_head & pr->mask;
	d = &q->desc[slot];
	if (f->len > le32_to_cpu(d->buf_len)) {
		rxb_stat_inc(&st->oversize_drops);
		err = -EMSGSIZE;
		goto unlock;
	}
	WRITE_ONCE(q->hw.rx_head, q->hw.rx_head + 1);
	rxb_cq_deliver(m, qi, f, le64_to_cpu(d->buf_addr), q->cq, pr->mask,
		       pr->order, &q->hw.cq_tail, slot, qi);
unlock:
	spin_unlock(&q->hw.lock);
	if (!err)
		m->cfg.env_ops->raise_irq(m->cfg.env, qi);
	return err;
}

static int privring_poll(struct rxb_model *m, unsigned int qi,
			 struct rxb_pkt *pkts, int budget)
{
	struct privring *pr = to_privring(m);
	struct privring_q *q = &pr->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 head = q->sw.cq_head;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	while (n < budget) {
		const struct rxb_cqe *cqe = &q->cq[head & pr->mask];
		u32 slot;

		if (!rxb_cqe_ready(cqe, rxb_gen(head, pr->order)))
			break;
		slot = rxb_cqe_read(cqe, &pkts[n]) & pr->mask;
		pkts[n].cookie = q->sw.cookie[slot];
		pkts[n].pool_q = qi;
		q->sw.cookie[slot] = NULL;
		bytes += pkts[n].len;
		head++;
		n++;
	}
	if (n) {
		/* WRITE_ONCE: privring_ring_state() reads it from anywhere. */
		WRITE_ONCE(q->sw.cq_head, head);
		q->sw.rx_ci += n;
		rxb_db_write(&q->regs.cq_head, head);
		rxb_stat_add(&st->packets, n);
		rxb_stat_add(&st->bytes, bytes);
	}
	privring_refill(m, qi);
	return n;
}

static bool privring_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct privring *pr = to_privring(m);
	struct privring_q *q = &pr->q[qi];

	return rxb_cqe_ready(&q->cq[q->sw.cq_head & pr->mask],
			     rxb_gen(q->sw.cq_head, pr->order));
}

static void privring_ring_state(struct rxb_model *m, unsigned int qi,
				struct rxb_ring_state *st)
{
	struct privring *pr = to_privring(m);
	struct privring_q *q = &pr->q[qi];

	st->size = pr->mask + 1;
	st->nic_head = READ_ONCE(q->hw.cq_tail);
	st->drv_tail = READ_ONCE(q->sw.cq_head);
	st->drv_gen = rxb_gen(st->drv_tail, pr->order);
	st->posted = READ_ONCE(q->regs.rx_tail) - READ_ONCE(q->hw.rx_head);
}

static void privring_destroy(struct rxb_model *m)
{
	struct privring *pr = to_privring(m);
	unsigned int qi, slot;

	for (qi = 0; pr->q && qi < m->cfg.nqueues; qi++) {
		struct privring_q *q = &pr->q[qi];

		for (slot = 0; q->sw.cookie && slot <= pr->mask; slot++)
			if (q->sw.cookie[slot])
				m->cfg.env_ops->free_buf(m->cfg.env, qi,
							 q->sw.cookie[slot]);
		kvfree(q->sw.cookie);
		kvfree(q->desc);
		kvfree(q->cq);
	}
	kfree(pr->q);
	rxb_model_fini_common(m);
	kfree(pr);
}

static struct rxb_model *privring_create(const struct rxb_model_cfg *cfg)
{
	struct privring *pr;
	unsigned int qi;
	int err;

	pr = kzalloc(sizeof(*pr), GFP_KERNEL);
	if (!pr)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(&pr->m, &rxb_privring_ops, cfg);
	if (err) {
		kfree(pr);
		return ERR_PTR(err);
	}
	pr->mask = cfg->ring_size - 1;
	pr->order = ilog2(cfg->ring_size);
	pr->q = kcalloc(cfg->nqueues, sizeof(*pr->q), GFP_KERNEL);
	if (!pr->q)
		goto nomem;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct privring_q *q = &pr->q[qi];

		spin_lock_init(&q->hw.lock);
		q->desc = kvcalloc(cfg->ring_size, sizeof(*q->desc), GFP_KERNEL);
		q->cq = kvcalloc(cfg->ring_size, sizeof(*q->cq), GFP_KERNEL);
		q->sw.cookie = kvcalloc(cfg->ring_size, sizeof(void *),
					GFP_KERNEL);
		if (!q->desc || !q->cq || !q->sw.cookie)
			goto nomem;
	}
	/* A partly filled ring is topped up by the queue's next poll. */
	for (qi = 0; qi < cfg->nqueues; qi++)
		privring_refill(&pr->m, qi);
	return &pr->m;

nomem:
	privring_destroy(&pr->m);
	return ERR_PTR(-ENOMEM);
}

const struct rxb_model_ops rxb_privring_ops = {
	.name		= "privring",
	.create		= privring_create,
	.destroy	= privring_destroy,
	.hw_rx		= privring_hw_rx,
	.poll		= privring_poll,
	.refill		= privring_refill,
	.rx_pending	= privring_rx_pending,
	.ring_state	= privring_ring_state,
};
