// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, linked-list variant (RxList), the driver's half: queues share Rx
 * descriptor rings whose empty descriptors form a list (thesis section
 * 5.1.4, Listing 5.2, Figure 5.2a).  Registers: rxb_desc.h's shRing
 * section; the ring itself is struct shlist_ring (shring.h).
 *
 * Grouping, per-queue completion rings and in-place re-arming are as in
 * RxArr (shring.c): one packet per descriptor, the descriptor re-armed
 * with a fresh buffer by the poll that receives it, and the poll's
 * re-armed descriptors appended as one chain under the ring's lock.
 *
 * Also the RxList ring the batched variant (shring_batched.c) uses.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_shring.h>
#include "drv_ring.h"
#include "shring.h"

const char * const shlist_ring_xstat_names[SHLIST_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "tail_advances",
	"tail_advance_len", "out_of_order", "posted",
};

/* ---- the RxList ring (shring.h) --------------------------------------- */

const struct rxb_layout shlist_layout = {
	.size = sizeof(struct shlist),
	.tables = {
		SHRING_Q_TABLE(struct shlist),
		SHRING_RING_TABLE(struct shlist, struct shlist_ring),
	},
};

/**
 * shlist_ring_append() - append a chain to the list and ring the doorbell
 *	(Listing 5.2 lines 18-24).
 * @m: the model instance.
 * @r: the ring; under r->h.lock.
 * @qi: queue appending (its doorbell counter counts it).
 * @first: first slot of the chain.
 * @last: last slot of the chain.
 * @n: slots in the chain, already linked from @first to @last.
 */
void shlist_ring_append(struct rxb_model *m, struct shlist_ring *r,
			unsigned int qi, u32 first, u32 last, u32 n)
{
	/* The old tail is posted but never taken: safe to link. */
	if (r->count)
		r->desc[r->tail].next = cpu_to_le32(first);
	r->tail = last;
	r->count += n;
	rxb_stat_inc(&r->appends);
	rxb_stat_add(&r->append_len, n);
	rxb_stat_inc(&m->qstats[qi].doorbells);
	/* Release: the chain's descriptors and links, and the old tail's
	 * link, are visible before the count.  Pairs with the acquire in
	 * shlist_hw_can_take() (NIC).
	 */
	rxb_db_ring(m, qi, &r->h.regs->rx_tail, r->count);
}

/**
 * shlist_ring_arm() - give slots [r->armed, ring size) their first buffer
 *	and append them as one chain.
 * @m: the model instance.
 * @r: the ring; under r->h.lock, or before it is in use.
 * @mask: ring size - 1.
 * @first: first queue of the group.
 * @nq: queues in the group: buffers come from their pools in turn.
 *
 * Stops at the first allocation failure.
 */
static void shlist_ring_arm(struct rxb_model *m, struct shlist_ring *r,
			    u32 mask, unsigned int first, unsigned int nq)
{
	u32 start = r->armed, slot;
	struct rxb_buf buf;

	for (slot = start; slot <= mask; slot++) {
		if (!shring_arm_slot(m, r->h.cookie, r->h.pool_q, slot,
				     first + slot % nq, &buf))
			break;
		shlist_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		if (slot != start)
			r->desc[slot - 1].next = cpu_to_le32(slot);
	}
	/* Read without the lock by the models' refill. */
	WRITE_ONCE(r->armed, slot);
	if (slot != start)
		shlist_ring_append(m, r, first, start, slot - 1, slot - start);
}

/**
 * shlist_ring_arm_rest() - fill the slots create could not, from @qi's
 *	pool.
 * @m: the model instance.
 * @r: the ring.
 * @mask: ring size - 1.
 * @qi: the polling queue.
 */
void shlist_ring_arm_rest(struct rxb_model *m, struct shlist_ring *r,
			  u32 mask, unsigned int qi)
{
	if (READ_ONCE(r->armed) > mask)
		return;
	shring_lock(&r->h.lock, &r->ls);
	shlist_ring_arm(m, r, mask, qi, 1);
	spin_unlock(&r->h.lock);
}

/**
 * shlist_nic_debug() - nic_debug() of the RxList models.
 * @m: the instance.
 * @qi: the queue.
 * @dbg: filled with its CR's tail and its ring's takes and posted
 *	descriptors (less the end marker, which the NIC never takes).
 */
void shlist_nic_debug(struct rxb_model *m, unsigned int qi,
		      struct rxb_hw_debug *dbg)
{
	s32 avail = shring_nic_debug_fill(m, qi, dbg);

	dbg->posted = avail > 1 ? avail - 1 : 0;
}

/**
 * shlist_ring_xstats() - a ring's counters, in shlist_ring_xstat_names
 *	order.
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
	static const u16 off[SHLIST_RING_XSTATS - 2] = {
		SHLIST_RSTAT(reposts), SHLIST_RSTAT(ls.acquired),
		SHLIST_RSTAT(ls.contended), SHLIST_RSTAT(appends),
		SHLIST_RSTAT(append_len),
	};
	const struct shlist_ring *r = &to_shlist(m)->ring[g];

	vals = rxb_stats_read(vals, r, off, ARRAY_SIZE(off));
	/* out_of_order is the NIC's: one of its statistics registers. */
	*vals++ = READ_ONCE(r->st->out_of_order);
	shlist_nic_debug(m, g * m->cfg.share_factor, dbg);
	*vals++ = dbg->posted;
	return vals;
}

/**
 * shlist_rings_init() - the init of the RxList models (shring-list and
 *	shring-batched): rings and completion rings programmed, every ring
 *	given its buffers, each group's from its queues' pools in turn.
 * @m: the instance.
 * @ring_xstat_names: names of each ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * Return: 0, or -ENOMEM.
 */
int shlist_rings_init(struct rxb_model *m, const char *const *ring_xstat_names,
		      unsigned int ring_xstats)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct shlist *sl = to_shlist(m);
	unsigned int i;

	if (shring_base_init(m, sizeof(*sl->ring->desc), ring_xstat_names,
			     ring_xstats))
		return -ENOMEM;
	for (i = 0; i < sl->b.nrings; i++) {
		struct shlist_ring *r = &sl->ring[i];

		r->dbg = rxb_shring_ring_debug(&m->bar, i);
		r->st = rxb_shring_ring_stats(&m->bar, i);
		r->desc = r->h.desc_mem.va;
		shlist_ring_arm(m, r, cfg->ring_size - 1, i * cfg->share_factor,
				rxb_shring_group_size(cfg, i));
	}
	return 0;
}

/* ---- RxList (Listing 5.2) --------------------------------------------- */

static bool shlist_refill(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);

	shlist_ring_arm_rest(m, r, sl->b.mask, qi);
	return !sl->b.q[qi].starved && READ_ONCE(r->armed) > sl->b.mask;
}

static int shlist_poll(struct rxb_model *m, unsigned int qi,
		       struct rxb_pkt *pkts, int budget)
{
	struct shlist *sl = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sl, qi);
	struct shring_walk w;
	u32 first = 0, last = 0;
	struct rxb_buf buf;
	int slot;

	shring_walk_begin(&w, &sl->b, qi, &r->h, pkts, budget);
	/* Lines 9-10: replace each buffer in place. */
	while ((slot = shring_walk_next(&w, &buf)) >= 0) {
		shlist_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		/* Lines 11-13: link the dequeued descriptors into a chain;
		 * the NIC is done with them, so their links are ours.
		 */
		if (w.n > 1)
			r->desc[last].next = cpu_to_le32(slot);
		else
			first = slot;
		last = slot;
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sl->b.mask, qi);
	if (!w.n)
		return 0;
	shring_walk_done(&w);
	shring_lock(&r->h.lock, &r->ls);
	shlist_ring_append(m, r, qi, first, last, w.n);
	rxb_stat_add(&r->reposts, w.n);
	spin_unlock(&r->h.lock);
	return w.n;
}

static int shlist_init(struct rxb_model *m)
{
	return shlist_rings_init(m, shlist_ring_xstat_names,
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
	SHLIST_OPS("shring-list", rxb_shring_list_hw_ops, shlist,
		   shlist_xstats_values),
	.validate	= shring_validate,
};
