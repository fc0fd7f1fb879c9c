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

const char * const shlist_ring_xstat_names[SHLIST_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "tail_advances",
	"tail_advance_len", "out_of_order", "posted",
};

/* ---- the RxList ring (shring_list.h) --------------------------------- */

static const struct rxb_layout shlist_layout = {
	.size = sizeof(struct shlist),
	.tables = {
		SHRING_Q_TABLE(struct shlist),
		SHRING_RING_TABLE(struct shlist, struct shlist_ring,
				  struct rxb_rx_ldesc),
	},
};

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
	rxb_db_ring(m, qi, &r->regs.rx_tail, r->sw.count);
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
static void shlist_ring_arm(struct rxb_model *m, struct shlist_ring *r,
			    u32 mask, unsigned int first, unsigned int nq)
{
	u32 start = r->sw.armed, slot;
	struct rxb_buf buf;

	for (slot = start; slot <= mask; slot++) {
		if (!shring_arm_slot(m, r->cookie, r->pool_q, slot,
				     first + slot % nq, &buf))
			break;
		shlist_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		if (slot != start)
			r->desc[slot - 1].next = cpu_to_le32(slot);
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
 * shlist_ring_xstats() - a ring's counters, in shlist_ring_xstat_names
 * order.
 * @m: the model instance.
 * @g: the ring.
 * @vals: SHLIST_RING_XSTATS values are stored here.
 * @dbg: filled with the debug registers of the ring's first queue, which
 *	give its posted descriptors (and the caller its takes).
 *
 * Return: @vals past the values stored.
 */
u64 *shlist_ring_xstats(struct rxb_model *m, unsigned int g, u64 *vals,
			struct rxb_hw_debug *dbg)
{
#define SHLIST_RSTAT(f)	offsetof(struct shlist_ring, f)
	/* out_of_order is the NIC's: one of its statistics registers. */
	static const u16 off[SHLIST_RING_XSTATS - 1] = {
		SHLIST_RSTAT(sw.reposts), SHLIST_RSTAT(sw.ls.acquired),
		SHLIST_RSTAT(sw.ls.contended), SHLIST_RSTAT(sw.appends),
		SHLIST_RSTAT(sw.append_len), SHLIST_RSTAT(hw.out_of_order),
	};

	vals = rxb_stats_read(vals, &to_shlist(m)->ring[g], off,
			      ARRAY_SIZE(off));
	shlist_hw_debug(m, g * m->cfg.share_factor, dbg);
	*vals++ = dbg->posted;
	return vals;
}

/* ---- the RxList model ------------------------------------------------ */

/**
 * shlist_alloc() - create an RxList instance: rings and completion rings,
 * every ring given its buffers, each group's from its queues' pools in
 * turn.
 * @ops: the model (shring-list or shring-batched).
 * @cfg: requested configuration.
 * @ring_xstat_names: names of each ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * Return: the instance, or an ERR_PTR() (see rxb_model_alloc()).
 */
struct rxb_model *shlist_alloc(const struct rxb_model_ops *ops,
			       const struct rxb_model_cfg *cfg,
			       const char *const *ring_xstat_names,
			       unsigned int ring_xstats)
{
	struct rxb_model *m = shring_base_alloc(ops, cfg, &shlist_layout,
						ring_xstat_names, ring_xstats);
	unsigned int i;

	if (IS_ERR(m))
		return m;
	for (i = 0; i < to_shlist(m)->b.nrings; i++) {
		struct shlist_ring *r = &to_shlist(m)->ring[i];

		spin_lock_init(&r->hw.lock);
		spin_lock_init(&r->sw.lock);
		/* The list starts in array order at slot 0. */
		r->hw.last = cfg->ring_size - 1;
		shlist_ring_arm(m, r, cfg->ring_size - 1,
				i * cfg->share_factor,
				shring_group_size(cfg, i));
	}
	return m;
}

/**
 * shlist_destroy() - destroy() of the RxList models.
 * @m: the instance; neither half running.  Only the driver's buffer
 *	tables are read.
 */
void shlist_destroy(struct rxb_model *m)
{
	struct shlist *sl = to_shlist(m);
	unsigned int i;

	for (i = 0; i < sl->b.nrings; i++)
		shring_free_bufs(m, sl->ring[i].cookie, sl->ring[i].pool_q);
	rxb_model_free(m, &shlist_layout);
}

/**
 * shlist_hw_debug() - hw_debug() of the RxList models.
 * @m: the instance.
 * @qi: the queue.
 * @dbg: filled with its CR's tail and its ring's takes and posted
 *	descriptors (less the end marker, which the NIC never takes).
 */
void shlist_hw_debug(struct rxb_model *m, unsigned int qi,
		     struct rxb_hw_debug *dbg)
{
	const struct shlist_ring *r = shlist_ring_of(to_shlist(m), qi);
	s32 avail;

	shring_base_debug(m, qi, dbg);
	dbg->taken = READ_ONCE(r->hw.taken);
	avail = READ_ONCE(r->regs.rx_tail) - dbg->taken;
	dbg->posted = avail > 1 ? avail - 1 : 0;
}

/* ---- NIC side ------------------------------------------------------- */

static int shlist_hw_rx(struct rxb_model *m, unsigned int qi,
			const struct rxb_frame *f)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);
	struct shring_q *q = &sl->b.q[qi];
	u32 slot;
	int err;

	spin_lock(&r->hw.lock);
	err = shlist_admit(sl, r, qi, f->len,
			   rxb_cring_held(&q->cr, q->hw.cq_tail));
	if (!err) {
		slot = shlist_ring_take(r, sl->b.mask);
		rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(r->desc[0]));
		rxb_cring_deliver(m, qi, &q->cr, &q->hw.cq_tail, f,
				  le64_to_cpu(r->desc[slot].buf_addr), slot,
				  r - sl->ring, 0);
	}
	return rxb_nic_finish(m, qi, &r->hw.lock, err);
}

/* ---- driver side (Listing 5.2) -------------------------------------- */

static bool shlist_refill(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);

	shlist_ring_arm_rest(m, r, sl->b.mask, qi);
	return !sl->b.q[qi].sw.starved && READ_ONCE(r->sw.armed) > sl->b.mask;
}

static int shlist_poll(struct rxb_model *m, unsigned int qi,
		       struct rxb_pkt *pkts, int budget)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);
	struct shring_q *q = &sl->b.q[qi];
	u32 head = q->sw.cq_head, first = 0, last = 0;
	struct rxb_buf buf;
	u64 bytes = 0;
	int n = 0, slot;

	q->sw.starved = false;
	rxb_stat_inc(&m->qstats[qi].polls);
	/* Lines 9-10: replace each buffer in place. */
	while (n < budget &&
	       (slot = shring_take(&sl->b, qi, head, &pkts[n], r->cookie,
				   r->pool_q, &buf)) >= 0) {
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
	shlist_ring_arm_rest(m, r, sl->b.mask, qi);
	if (!n)
		return 0;
	shring_poll_done(&sl->b, qi, n, bytes);
	shring_lock(&r->sw.lock, &r->sw.ls);
	shlist_ring_append(m, r, qi, first, last, n);
	rxb_stat_add(&r->sw.reposts, n);
	spin_unlock(&r->sw.lock);
	return n;
}

/* ---- setup and counters --------------------------------------------- */

static struct rxb_model *shlist_create(const struct rxb_model_cfg *cfg)
{
	return shlist_alloc(&rxb_shring_list_ops, cfg, shlist_ring_xstat_names,
			    SHLIST_RING_XSTATS);
}

static void shlist_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct rxb_hw_debug dbg;
	unsigned int i;

	for (i = 0; i < to_shlist(m)->b.nrings; i++)
		vals = shlist_ring_xstats(m, i, vals, &dbg);
	shring_xstats_victims(m, vals);
}

const struct rxb_model_ops rxb_shring_list_ops = {
	RXB_MODEL_OPS("shring-list", shlist),
	SHLIST_OPS(shlist_xstats_values),
	.validate	= shring_validate,
};
