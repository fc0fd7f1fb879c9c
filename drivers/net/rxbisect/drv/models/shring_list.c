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

static const struct rxb_layout shlist_layout = {
	.size = sizeof(struct shlist),
	.tables = {
		SHRING_Q_TABLE(struct shlist),
		SHRING_RING_TABLE(struct shlist, struct shlist_ring,
				  RXB_ARRAY(struct shlist_ring, cookie, void *,
					    RXB_ARR_RING),
				  RXB_ARRAY(struct shlist_ring, pool_q, u16,
					    RXB_ARR_RING)),
	},
};

/**
 * shlist_ring_append() - append a chain to the list and ring the doorbell
 *	(Listing 5.2 lines 18-24).
 * @m: the model instance.
 * @r: the ring; under r->lock.
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
	rxb_db_ring(m, qi, &r->regs->rx_tail, r->count);
}

/**
 * shlist_ring_arm() - give slots [r->armed, ring size) their first buffer
 *	and append them as one chain.
 * @m: the model instance.
 * @r: the ring; under r->lock, or before it is in use.
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
		if (!shring_arm_slot(m, r->cookie, r->pool_q, slot,
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
	shring_lock(&r->lock, &r->ls);
	shlist_ring_arm(m, r, mask, qi, 1);
	spin_unlock(&r->lock);
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
 * shlist_destroy() - destroy() of the RxList models.
 * @m: the instance; the NIC's context is disabled, no poll runs.
 */
void shlist_destroy(struct rxb_model *m)
{
	struct shlist *sl = to_shlist(m);
	unsigned int i;

	for (i = 0; i < sl->b.nrings; i++) {
		shring_free_bufs(m, sl->ring[i].cookie, sl->ring[i].pool_q);
		rxb_ring_mem_free(m, &sl->ring[i].desc_mem);
	}
	shring_base_free(m, &shlist_layout);
}

/**
 * shlist_alloc() - create the driver half of an RxList model: rings and
 *	completion rings programmed, every ring given its buffers, each
 *	group's from its queues' pools in turn.
 * @ops: the model (shring-list or shring-batched).
 * @cfg: requested configuration.
 * @env: the driver's services.
 * @drv: their argument.
 * @bar: the NIC's register space of the context.
 * @ring_xstat_names: names of each ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * Return: the instance, or ERR_PTR(-ENOMEM).
 */
struct rxb_model *shlist_alloc(const struct rxb_model_ops *ops,
			       const struct rxb_model_cfg *cfg,
			       const struct rxb_drv_ops *env, void *drv,
			       const struct rxb_bar *bar,
			       const char *const *ring_xstat_names,
			       unsigned int ring_xstats)
{
	struct rxb_model *m = shring_base_alloc(ops, cfg, env, drv, bar,
						&shlist_layout,
						ring_xstat_names, ring_xstats);
	struct shlist *sl;
	unsigned int i;

	if (IS_ERR(m))
		return m;
	sl = to_shlist(m);
	for (i = 0; i < sl->b.nrings; i++) {
		struct shlist_ring *r = &sl->ring[i];

		spin_lock_init(&r->lock);
		r->regs = rxb_shring_ring_regs(&m->bar, i);
		r->dbg = rxb_shring_ring_debug(&m->bar, i);
		r->st = rxb_shring_ring_stats(&m->bar, i);
		if (rxb_ring_mem_alloc(m, &r->desc_mem, (size_t)cfg->ring_size *
				       sizeof(*r->desc))) {
			shlist_destroy(m);
			return ERR_PTR(-ENOMEM);
		}
		r->desc = r->desc_mem.va;
		rxb_reg_base(m, i * cfg->share_factor, &r->regs->rx_base,
			     r->desc_mem.addr);
	}
	for (i = 0; i < sl->b.nrings; i++)
		shlist_ring_arm(m, &sl->ring[i], cfg->ring_size - 1,
				i * cfg->share_factor,
				rxb_shring_group_size(cfg, i));
	return m;
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
	struct shring_q *q = &sl->b.q[qi];
	u32 head = q->cq_head, first = 0, last = 0;
	struct rxb_buf buf;
	u64 bytes = 0;
	int n = 0, slot;

	q->starved = false;
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
	shring_lock(&r->lock, &r->ls);
	shlist_ring_append(m, r, qi, first, last, n);
	rxb_stat_add(&r->reposts, n);
	spin_unlock(&r->lock);
	return n;
}

static struct rxb_model *shlist_create(const struct rxb_model_cfg *cfg,
				       const struct rxb_drv_ops *env,
				       void *drv, const struct rxb_bar *bar)
{
	return shlist_alloc(&rxb_shring_list_ops, cfg, env, drv, bar,
			    shlist_ring_xstat_names, SHLIST_RING_XSTATS);
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
