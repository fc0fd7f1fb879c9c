// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's flow table: exact-match 5-tuple entries (TCP and UDP
 * over IPv4 and IPv6, as the parser extracts them), learned on a flow's
 * first frame, freed by a NIC-side sweep once idle.
 *
 * Each receive context has one table of flow_table_size entries: a model
 * instance sees the indices learned during its own life (struct
 * rxb_frame.flow).  An entry keeps its flow's first and last arrival time
 * and its frame and byte counts.
 *
 * Full table: a new flow is not learned (no eviction): its frames carry
 * RXB_FLOW_NONE and count in the untracked counter until the sweep frees
 * an idle entry; the next frame of the flow after that learns it.  Flows
 * already in the table are never disturbed by churn beyond its size.
 *
 * Concurrency: lookups of different hash chains run in parallel (a lock
 * per chain, the same cost whatever the ring model); the free list has its
 * own lock, taken only to learn a flow.  The sweep runs every idle/4 in a
 * workqueue: it unlinks the idle entries chain by chain, waits for an RCU
 * grace period (the receive pipeline looks up and delivers a frame in one
 * RCU read-side section), so no frame carrying an unlinked index is still
 * in hw_rx, calls the model's flow_free for each, then frees them.
 */
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include "nic_hw.h"

static u32 rxb_flow_hash(const struct rxb_flow_table *ft,
			 const struct rxb_nic_tuple *t)
{
	return jhash2((const u32 *)t, sizeof(*t) / sizeof(u32), 0) &
	       (ft->nbkt - 1);
}

static void rxb_flow_put_free(struct rxb_flow_table *ft, u32 idx)
{
	ft->ent[idx].live = false;
	ft->ent[idx].next = ft->free_head;
	ft->free_head = idx;
}

/* Under the chain's lock: take a free entry for @t, or RXB_FLOW_NONE. */
static u32 rxb_flow_learn(struct rxb_flow_table *ft,
			  struct rxb_flow_bucket *b,
			  const struct rxb_nic_tuple *t, u64 now)
{
	struct rxb_flow_ent *e;
	u32 idx;

	spin_lock(&ft->free_lock);
	idx = ft->free_head;
	if (idx == RXB_FLOW_NONE) {
		WRITE_ONCE(ft->untracked, ft->untracked + 1);
		spin_unlock(&ft->free_lock);
		return idx;
	}
	ft->free_head = ft->ent[idx].next;
	WRITE_ONCE(ft->active, ft->active + 1);
	WRITE_ONCE(ft->learned, ft->learned + 1);
	spin_unlock(&ft->free_lock);
	e = &ft->ent[idx];
	e->key = *t;
	e->first_ns = now;
	e->packets = 0;
	e->bytes = 0;
	e->live = true;
	e->next = b->head;
	b->head = idx;
	return idx;
}

/**
 * rxb_flow_lookup() - the flow table's stage of the receive pipeline.
 * @ft: the enabled context's table.
 * @t: the frame's flow key.
 * @len: the frame's length.
 * @is_new: set when this frame learned the entry.
 *
 * RCU read lock held (through the frame's delivery).
 *
 * Return: the entry's index, or RXB_FLOW_NONE (not TCP/UDP, table full).
 */
u32 rxb_flow_lookup(struct rxb_flow_table *ft, const struct rxb_nic_tuple *t,
		    unsigned int len, bool *is_new)
{
	struct rxb_flow_bucket *b;
	struct rxb_flow_ent *e;
	u64 now;
	u32 idx;

	*is_new = false;
	if (!t->proto)
		return RXB_FLOW_NONE;
	b = &ft->bkt[rxb_flow_hash(ft, t)];
	now = ktime_get_ns();
	spin_lock(&b->lock);
	for (idx = b->head; idx != RXB_FLOW_NONE; idx = ft->ent[idx].next)
		if (!memcmp(&ft->ent[idx].key, t, sizeof(*t)))
			break;
	if (idx == RXB_FLOW_NONE) {
		idx = rxb_flow_learn(ft, b, t, now);
		*is_new = idx != RXB_FLOW_NONE;
	}
	if (idx != RXB_FLOW_NONE) {
		e = &ft->ent[idx];
		WRITE_ONCE(e->last_ns, now);
		WRITE_ONCE(e->packets, e->packets + 1);
		WRITE_ONCE(e->bytes, e->bytes + len);
	}
	spin_unlock(&b->lock);
	return idx;
}

static void rxb_flow_sweep(struct work_struct *work)
{
	struct rxb_flow_table *ft = container_of(to_delayed_work(work),
						 struct rxb_flow_table, sweep);
	struct rxb_hw_model *m = ft->ctx->hwm;
	u32 dead = RXB_FLOW_NONE, idx, *pp;
	u64 now = ktime_get_ns();
	unsigned int i, n = 0;

	for (i = 0; i < ft->nbkt; i++) {
		struct rxb_flow_bucket *b = &ft->bkt[i];

		if (READ_ONCE(b->head) == RXB_FLOW_NONE)
			continue;
		spin_lock_bh(&b->lock);
		pp = &b->head;
		while (*pp != RXB_FLOW_NONE) {
			idx = *pp;
			if (now - READ_ONCE(ft->ent[idx].last_ns) <
			    ft->idle_ns || ft->ent[idx].last_ns > now) {
				pp = &ft->ent[idx].next;
				continue;
			}
			*pp = ft->ent[idx].next;
			ft->ent[idx].next = dead;
			dead = idx;
			n++;
		}
		spin_unlock_bh(&b->lock);
		cond_resched();
	}
	if (n) {
		/* No frame that looked an unlinked entry up is in hw_rx. */
		synchronize_net();
		for (idx = dead; idx != RXB_FLOW_NONE; idx = ft->ent[idx].next) {
			if (!m->ops->flow_free)
				continue;
			local_bh_disable();
			rxb_nic_ctx_enter();
			rxb_hwm_flow_free(m, idx);
			rxb_nic_ctx_exit();
			local_bh_enable();
		}
		spin_lock_bh(&ft->free_lock);
		while (dead != RXB_FLOW_NONE) {
			idx = dead;
			dead = ft->ent[idx].next;
			rxb_flow_put_free(ft, idx);
		}
		WRITE_ONCE(ft->active, ft->active - n);
		WRITE_ONCE(ft->expired, ft->expired + n);
		spin_unlock_bh(&ft->free_lock);
	}
	schedule_delayed_work(&ft->sweep,
			      max(nsecs_to_jiffies(ft->idle_ns / 4), 1UL));
}

/**
 * rxb_flow_init() - build a context's flow table, every entry free.
 * @ft: the table.
 * @ctx: its context.
 * @cap: entries (flow_table_size).
 * @idle_ms: idle time after which an entry is freed (flow_idle_ms).
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_flow_init(struct rxb_flow_table *ft, struct rxb_nic_ctx *ctx,
		  u32 cap, u32 idle_ms)
{
	u32 i;

	ft->ctx = ctx;
	ft->cap = cap;
	ft->nbkt = roundup_pow_of_two(cap);
	ft->idle_ns = (u64)idle_ms * NSEC_PER_MSEC;
	ft->ent = kvcalloc(cap, sizeof(*ft->ent), GFP_KERNEL);
	ft->bkt = kvcalloc(ft->nbkt, sizeof(*ft->bkt), GFP_KERNEL);
	if (!ft->ent || !ft->bkt) {
		kvfree(ft->ent);
		kvfree(ft->bkt);
		return -ENOMEM;
	}
	for (i = 0; i < ft->nbkt; i++) {
		spin_lock_init(&ft->bkt[i].lock);
		ft->bkt[i].head = RXB_FLOW_NONE;
	}
	spin_lock_init(&ft->free_lock);
	ft->free_head = RXB_FLOW_NONE;
	for (i = cap; i-- > 0;)
		rxb_flow_put_free(ft, i);
	INIT_DELAYED_WORK(&ft->sweep, rxb_flow_sweep);
	return 0;
}

/**
 * rxb_flow_fini() - free a flow table (its context was never enabled or
 *	is disabled: the sweep is stopped).
 * @ft: the table.
 */
void rxb_flow_fini(struct rxb_flow_table *ft)
{
	kvfree(ft->ent);
	kvfree(ft->bkt);
}

/**
 * rxb_flow_start() - start the sweep (the context is being enabled).
 * @ft: the table.
 */
void rxb_flow_start(struct rxb_flow_table *ft)
{
	schedule_delayed_work(&ft->sweep,
			      max(nsecs_to_jiffies(ft->idle_ns / 4), 1UL));
}

/**
 * rxb_flow_stop() - stop the sweep (the context is disabled).
 * @ft: the table.
 */
void rxb_flow_stop(struct rxb_flow_table *ft)
{
	cancel_delayed_work_sync(&ft->sweep);
}

/* The table's counters, for rxb_nic_read_counters(); RCU read lock held. */
void rxb_flow_counters(struct rxb_flow_table *ft, struct rxb_nic_counters *c)
{
	c->flow_table_size = ft->cap;
	c->flow_active = READ_ONCE(ft->active);
	c->flow_learned = READ_ONCE(ft->learned);
	c->flow_expired = READ_ONCE(ft->expired);
	c->flow_untracked = READ_ONCE(ft->untracked);
}
