// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, linked-list variant (RxList): queues share Rx descriptor rings
 * whose empty descriptors form a list (thesis section 5.1.4, Listing 5.2,
 * Figure 5.2a); the ring itself is in shring_list.h.
 *
 * Grouping, per-queue completion rings and in-place re-arming are as in
 * RxArr (model_shring.c): one packet per descriptor, the descriptor
 * re-armed with a fresh buffer by the poll that receives it, and the
 * poll's re-armed descriptors appended as one chain.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"
#include "shring.h"
#include "shring_list.h"

#define SHLIST_Q_XSTATS		1	/* nobuf_victim_drops */

const char * const shlist_ring_xstat_names[SHLIST_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "tail_advances",
	"tail_advance_len", "out_of_order", "posted",
};

/* ---- the RxList ring (shring_list.h) --------------------------------- */

/* Allocate a ring's arrays; its list is empty.  0 or -ENOMEM. */
static int shlist_ring_init(struct shlist_ring *r, unsigned int ring_size)
{
	spin_lock_init(&r->hw.lock);
	spin_lock_init(&r->sw.lock);
	/* The list starts in array order at slot 0. */
	r->hw.last = ring_size - 1;
	r->desc = kvcalloc(ring_size, sizeof(*r->desc), GFP_KERNEL);
	r->cookie = kvcalloc(ring_size, sizeof(void *), GFP_KERNEL);
	r->pool_q = kvcalloc(ring_size, sizeof(u16), GFP_KERNEL);
	return r->desc && r->cookie && r->pool_q ? 0 : -ENOMEM;
}

/**
 * shlist_rings_free() - free a model's rings and every buffer they hold.
 * @m: the model instance (its cfg gives the ring count and size).
 * @rings: from shlist_rings_alloc(), or NULL; neither half running.
 */
void shlist_rings_free(struct rxb_model *m, struct shlist_ring *rings)
{
	unsigned int i;
	u32 slot;

	for (i = 0; rings && i < shring_nrings(&m->cfg); i++) {
		struct shlist_ring *r = &rings[i];

		/* Posted, taken, or written but not polled: every buffer. */
		for (slot = 0; r->cookie && r->pool_q &&
		     slot < m->cfg.ring_size; slot++)
			if (r->cookie[slot])
				m->cfg.env_ops->free_buf(m->cfg.env,
							 r->pool_q[slot],
							 r->cookie[slot]);
		kvfree(r->desc);
		kvfree(r->cookie);
		kvfree(r->pool_q);
	}
	kfree(rings);
}

/**
 * shlist_rings_alloc() - one empty RxList ring per group of queues.
 * @m: the model instance, its cfg set (rxb_model_init_common()).
 *
 * Return: the rings, or NULL when memory ran out.
 */
struct shlist_ring *shlist_rings_alloc(struct rxb_model *m)
{
	unsigned int i, n = shring_nrings(&m->cfg);
	struct shlist_ring *rings;

	rings = kcalloc(n, sizeof(*rings), GFP_KERNEL);
	for (i = 0; rings && i < n; i++)
		if (shlist_ring_init(&rings[i], m->cfg.ring_size)) {
			shlist_rings_free(m, rings);
			return NULL;
		}
	return rings;
}

/**
 * shlist_ring_append() - driver side: append a chain to the list and ring
 * the doorbell (Listing 5.2 lines 18-24).
 * @m: the model instance.
 * @r: the ring; under r->sw.lock.
 * @qi: queue appending (its doorbell counter counts it).
 * @first: first slot of the chain.
 * @last: last slot of the chain.
 * @n: slots in the chain, already linked from @first to @last.
 */
void shlist_ring_append(struct rxb_model *m, struct shlist_ring *r,
			unsigned int qi, u32 first, u32 last, u32 n)
{
	/* The old tail is posted but never taken: safe to link. */
	if (r->sw.count)
		r->desc[r->sw.tail].next = cpu_to_le32(first);
	r->sw.tail = last;
	r->sw.count += n;
	rxb_stat_inc(&r->sw.appends);
	rxb_stat_add(&r->sw.append_len, n);
	rxb_stat_inc(&m->qstats[qi].doorbells);
	/* Release: the chain's descriptors and links, and the old tail's
	 * link, are visible before the count.  Pairs with the acquire in
	 * shlist_ring_can_take().
	 */
	rxb_db_write(&r->regs.rx_tail, r->sw.count);
}

/**
 * shlist_ring_arm() - give slots [r->sw.armed, ring size) their first
 * buffer and append them as one chain.
 * @m: the model instance.
 * @r: the ring; under r->sw.lock, or before it is in use.
 * @mask: ring size - 1.
 * @first: first queue of the group.
 * @nq: queues in the group: buffers come from their pools in turn.
 *
 * Stops at the first allocation failure.
 */
void shlist_ring_arm(struct rxb_model *m, struct shlist_ring *r, u32 mask,
		     unsigned int first, unsigned int nq)
{
	u32 start = r->sw.armed, slot;
	struct rxb_buf buf;

	for (slot = start; slot <= mask; slot++) {
		unsigned int qi = first + slot % nq;

		if (m->cfg.env_ops->alloc_buf(m->cfg.env, qi, &buf)) {
			rxb_stat_inc(&m->qstats[qi].alloc_fails);
			break;
		}
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		shlist_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		if (slot != start)
			r->desc[slot - 1].next = cpu_to_le32(slot);
		rxb_stat_inc(&m->qstats[qi].refills);
	}
	/* Read without the lock by the models' refill. */
	WRITE_ONCE(r->sw.armed, slot);
	if (slot != start)
		shlist_ring_append(m, r, first, start, slot - 1, slot - start);
}

/**
 * shlist_ring_arm_rest() - fill the slots create could not, from @qi's pool.
 * @m: the model instance.
 * @r: the ring.
 * @mask: ring size - 1.
 * @qi: the polling queue.
 */
void shlist_ring_arm_rest(struct rxb_model *m, struct shlist_ring *r,
			  u32 mask, unsigned int qi)
{
	if (READ_ONCE(r->sw.armed) > mask)
		return;
	shring_lock(&r->sw.lock, &r->sw.ls);
	shlist_ring_arm(m, r, mask, qi, 1);
	spin_unlock(&r->sw.lock);
}

/**
 * shlist_rings_arm() - give every ring of a new model its buffers, each
 * group's from its queues' pools in turn.
 * @m: the model instance.
 * @rings: from shlist_rings_alloc().
 */
void shlist_rings_arm(struct rxb_model *m, struct shlist_ring *rings)
{
	unsigned int i;

	for (i = 0; i < shring_nrings(&m->cfg); i++)
		shlist_ring_arm(m, &rings[i], m->cfg.ring_size - 1,
				i * m->cfg.share_factor,
				shring_group_size(&m->cfg, i));
}

/**
 * shlist_ring_xstats() - the ring's counters, in shlist_ring_xstat_names
 * order.
 * @r: the ring.
 * @vals: SHLIST_RING_XSTATS values are stored here.
 *
 * Return: @vals past the values stored.
 */
u64 *shlist_ring_xstats(const struct shlist_ring *r, u64 *vals)
{
	*vals++ = READ_ONCE(r->sw.reposts);
	*vals++ = READ_ONCE(r->sw.ls.acquired);
	*vals++ = READ_ONCE(r->sw.ls.contended);
	*vals++ = READ_ONCE(r->sw.appends);
	*vals++ = READ_ONCE(r->sw.append_len);
	*vals++ = READ_ONCE(r->hw.out_of_order);
	*vals++ = shlist_ring_posted(r);
	return vals;
}

/* ---- the RxList model ------------------------------------------------ */

struct shlist_q {
	/* This queue's completion ring and its doorbell. */
	struct rxb_cqe *cq;
	struct rxb_cq_regs regs ____cacheline_aligned;

	/* NIC-internal state, under the ring's hw.lock. */
	struct {
		u32 cq_tail;
		u64 victim_drops;	/* see shring_victim() */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		u32 cq_head;
		bool starved;		/* the last poll stopped: no buffer */
	} sw ____cacheline_aligned;
};

struct shlist {
	struct rxb_model m;
	u32 mask;
	unsigned int order;
	unsigned int nrings;
	struct shlist_ring *ring;
	struct shlist_q *q;
};

static struct shlist *to_shlist(struct rxb_model *m)
{
	return container_of(m, struct shlist, m);
}

static struct shlist_ring *shlist_ring_of(struct shlist *sl, unsigned int qi)
{
	return &sl->ring[qi / sl->m.cfg.share_factor];
}

/* ---- NIC side ------------------------------------------------------- */

static int shlist_hw_rx(struct rxb_model *m, unsigned int qi,
			const struct rxb_frame *f)
{
	struct shlist *sl = to_shlist(m);
	unsigned int g = qi / m->cfg.share_factor;
	struct shlist_ring *r = &sl->ring[g];
	struct shlist_q *q = &sl->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 slot, held;
	int err = 0;

	spin_lock(&r->hw.lock);
	held = q->hw.cq_tail - rxb_db_read(&q->regs.cq_head);
	if (!shlist_ring_can_take(r)) {
		rxb_stat_inc(&st->nobuf_drops);
		if (shring_victim(&m->cfg, g, held))
			rxb_stat_inc(&q->hw.victim_drops);
		err = -ENOBUFS;
		goto unlock;
	}
	if (held > sl->mask) {
		rxb_stat_inc(&st->ring_full_drops);
		err = -ENOSPC;
		goto unlock;
	}
	if (f->len > le32_to_cpu(r->desc[r->hw.head].buf_len)) {
		rxb_stat_inc(&st->oversize_drops);
		err = -EMSGSIZE;
		goto unlock;
	}
	slot = shlist_ring_take(r, sl->mask);
	rxb_cq_deliver(m, qi, f, le64_to_cpu(r->desc[slot].buf_addr), q->cq,
		       sl->mask, sl->order, &q->hw.cq_tail, slot, g);
unlock:
	spin_unlock(&r->hw.lock);
	if (!err)
		m->cfg.env_ops->raise_irq(m->cfg.env, qi);
	return err;
}

/* ---- driver side (Listing 5.2) -------------------------------------- */

static bool shlist_refill(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);

	shlist_ring_arm_rest(m, r, sl->mask, qi);
	return !sl->q[qi].sw.starved && READ_ONCE(r->sw.armed) > sl->mask;
}

static int shlist_poll(struct rxb_model *m, unsigned int qi,
		       struct rxb_pkt *pkts, int budget)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);
	struct shlist_q *q = &sl->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 head = q->sw.cq_head, slot, first = 0, last = 0;
	struct rxb_buf buf;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	q->sw.starved = false;
	while (n < budget) {
		const struct rxb_cqe *cqe = &q->cq[head & sl->mask];

		if (!rxb_cqe_ready(cqe, rxb_gen(head, sl->order)))
			break;
		/* Lines 9-10: replace the buffer in place. */
		if (m->cfg.env_ops->alloc_buf(m->cfg.env, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			q->sw.starved = true;
			break;
		}
		slot = rxb_cqe_read(cqe, &pkts[n]) & sl->mask;
		pkts[n].cookie = r->cookie[slot];
		pkts[n].pool_q = r->pool_q[slot];
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		shlist_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		/* Lines 11-13: link the dequeued descriptors into a chain;
		 * the NIC is done with them, so their links are ours.
		 */
		if (n)
			r->desc[last].next = cpu_to_le32(slot);
		else
			first = slot;
		last = slot;
		bytes += pkts[n].len;
		head++;
		n++;
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sl->mask, qi);
	if (!n)
		return 0;
	WRITE_ONCE(q->sw.cq_head, head);
	rxb_db_write(&q->regs.cq_head, head);
	rxb_stat_add(&st->packets, n);
	rxb_stat_add(&st->bytes, bytes);
	rxb_stat_add(&st->refills, n);

	shring_lock(&r->sw.lock, &r->sw.ls);
	shlist_ring_append(m, r, qi, first, last, n);
	rxb_stat_add(&r->sw.reposts, n);
	spin_unlock(&r->sw.lock);
	return n;
}

static bool shlist_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_q *q = &sl->q[qi];

	return rxb_cqe_ready(&q->cq[q->sw.cq_head & sl->mask],
			     rxb_gen(q->sw.cq_head, sl->order));
}

static void shlist_ring_state(struct rxb_model *m, unsigned int qi,
			      struct rxb_ring_state *st)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_q *q = &sl->q[qi];

	st->size = sl->mask + 1;
	st->nic_head = READ_ONCE(q->hw.cq_tail);
	st->drv_tail = READ_ONCE(q->sw.cq_head);
	st->drv_gen = rxb_gen(st->drv_tail, sl->order);
	st->posted = shlist_ring_posted(shlist_ring_of(sl, qi));
}

/* ---- setup ---------------------------------------------------------- */

static int shlist_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	return shring_validate_share(cfg, msg);
}

static void shlist_destroy(struct rxb_model *m)
{
	struct shlist *sl = to_shlist(m);
	unsigned int i;

	shlist_rings_free(m, sl->ring);
	for (i = 0; sl->q && i < m->cfg.nqueues; i++)
		kvfree(sl->q[i].cq);
	kfree(sl->q);
	rxb_model_fini_common(m);
	kfree(sl);
}

static struct rxb_model *shlist_create(const struct rxb_model_cfg *cfg)
{
	struct shlist *sl;
	unsigned int i;
	int err;

	sl = kzalloc(sizeof(*sl), GFP_KERNEL);
	if (!sl)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(&sl->m, &rxb_shring_list_ops, cfg);
	if (err) {
		kfree(sl);
		return ERR_PTR(err);
	}
	sl->mask = cfg->ring_size - 1;
	sl->order = ilog2(cfg->ring_size);
	sl->nrings = shring_nrings(cfg);
	sl->ring = shlist_rings_alloc(&sl->m);
	sl->q = kcalloc(cfg->nqueues, sizeof(*sl->q), GFP_KERNEL);
	if (!sl->ring || !sl->q)
		goto nomem;
	for (i = 0; i < cfg->nqueues; i++) {
		sl->q[i].cq = kvcalloc(cfg->ring_size, sizeof(*sl->q[i].cq),
				       GFP_KERNEL);
		if (!sl->q[i].cq)
			goto nomem;
	}
	shlist_rings_arm(&sl->m, sl->ring);
	return &sl->m;

nomem:
	shlist_destroy(&sl->m);
	return ERR_PTR(-ENOMEM);
}

/* ---- counters ------------------------------------------------------- */

static unsigned int shlist_xstats_count(struct rxb_model *m)
{
	return to_shlist(m)->nrings * SHLIST_RING_XSTATS +
	       m->cfg.nqueues * SHLIST_Q_XSTATS;
}

static void shlist_xstats_names(struct rxb_model *m, char *names)
{
	struct shlist *sl = to_shlist(m);
	unsigned int i, j;

	for (i = 0; i < sl->nrings; i++)
		for (j = 0; j < SHLIST_RING_XSTATS; j++) {
			snprintf(names, RXB_STAT_NAME_LEN, "ring%u_%s", i,
				 shlist_ring_xstat_names[j]);
			names += RXB_STAT_NAME_LEN;
		}
	for (i = 0; i < m->cfg.nqueues; i++) {
		snprintf(names, RXB_STAT_NAME_LEN, "rx%u_nobuf_victim_drops", i);
		names += RXB_STAT_NAME_LEN;
	}
}

static void shlist_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shlist *sl = to_shlist(m);
	unsigned int i;

	for (i = 0; i < sl->nrings; i++)
		vals = shlist_ring_xstats(&sl->ring[i], vals);
	for (i = 0; i < m->cfg.nqueues; i++)
		*vals++ = READ_ONCE(sl->q[i].hw.victim_drops);
}

const struct rxb_model_ops rxb_shring_list_ops = {
	.name		= "shring-list",
	.create		= shlist_create,
	.destroy	= shlist_destroy,
	.hw_rx		= shlist_hw_rx,
	.poll		= shlist_poll,
	.refill		= shlist_refill,
	.rx_pending	= shlist_rx_pending,
	.validate	= shlist_validate,
	.ring_state	= shlist_ring_state,
	.xstats_count	= shlist_xstats_count,
	.xstats_names	= shlist_xstats_names,
	.xstats_values	= shlist_xstats_values,
};
