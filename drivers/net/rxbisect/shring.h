/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parts shared by the shRing ring models (thesis chapter 5): RxArr
 * (model_shring.c), RxList (model_shring_list.c) and dynamic shRing
 * (model_dshring.c, which runs RxArr as one of its two ring sets).
 *
 * Queues are grouped by the share factor: group g is queues g * sf ..
 * g * sf + sf - 1 (the last group may be smaller).  Each group shares one
 * Rx descriptor ring; each queue keeps its own completion ring (CR), so
 * receiving is per queue and only reposting is shared (section 5.1.2).
 */
#ifndef _RXB_SHRING_H
#define _RXB_SHRING_H

#include <linux/cache.h>
#include <linux/container_of.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

/**
 * struct shring_lock_stats - acquisitions of a shared ring's driver lock.
 * @acquired: times the lock was taken.
 * @contended: of those, times another queue held it (spin_trylock failed).
 *
 * Written under the lock, read with READ_ONCE().
 */
struct shring_lock_stats {
	u64 acquired;
	u64 contended;
};

/**
 * shring_lock() - take a shared ring's driver lock, counting contention.
 * @lock: the lock.
 * @st: its counters.
 */
static inline void shring_lock(spinlock_t *lock, struct shring_lock_stats *st)
{
	bool contended = !spin_trylock(lock);

	if (contended)
		spin_lock(lock);
	rxb_stat_inc(&st->acquired);
	if (contended)
		rxb_stat_inc(&st->contended);
}

/**
 * shring_nrings() - number of shared rings (groups) of a configuration.
 * @cfg: configuration, share factor already validated.
 *
 * Return: the number of groups.
 */
static inline unsigned int shring_nrings(const struct rxb_model_cfg *cfg)
{
	return DIV_ROUND_UP(cfg->nqueues, cfg->share_factor);
}

/**
 * shring_group_size() - queues sharing ring @g.
 * @cfg: configuration.
 * @g: ring (group) index.
 *
 * Return: the share factor, or less for the last group.
 */
static inline unsigned int shring_group_size(const struct rxb_model_cfg *cfg,
					     unsigned int g)
{
	return min(cfg->share_factor, cfg->nqueues - g * cfg->share_factor);
}

/**
 * shring_validate_share() - check the share factor of a configuration.
 * @cfg: configuration.
 * @msg: set to a static explanation on error.
 *
 * The driver clamps the share_factor parameter to the queue count; a
 * configuration handed to a model must already be in range.
 *
 * Return: 0 or -EINVAL.
 */
static inline int shring_validate_share(const struct rxb_model_cfg *cfg,
					const char **msg)
{
	if (!cfg->share_factor) {
		*msg = "share factor must be at least 1";
		return -EINVAL;
	}
	if (cfg->share_factor > cfg->nqueues) {
		*msg = "share factor exceeds the number of queues";
		return -EINVAL;
	}
	return 0;
}

/**
 * shring_victim() - is a no-buffer drop on a queue a victim drop?
 * @cfg: configuration.
 * @g: the queue's ring.
 * @held: completions the NIC wrote to the queue's CR that its driver has
 *	not consumed yet (what the queue holds of the shared ring).
 *
 * The shared ring ran dry while this queue held less than its fair share
 * (ring size / queues of the group): other queues' packets hold the ring
 * (section 5.1.1, "pathological core overload").
 *
 * Return: true for a victim drop.
 */
static inline bool shring_victim(const struct rxb_model_cfg *cfg,
				 unsigned int g, u32 held)
{
	return held < cfg->ring_size / shring_group_size(cfg, g);
}

/**
 * struct shring_q - one queue of a shRing model (any variant): its own
 * completion ring, its doorbell, and what the NIC and its driver keep.
 * @cr: the queue's completion ring.
 * @regs: its doorbell.
 * @hw: NIC-internal state, under the shared ring's hw.lock.
 * @hw.cq_tail: next CR entry to write.
 * @hw.victim_drops: see shring_victim().
 * @hw.cur: batched RxList: the "mini hwHead", the descriptor this CR's
 *	packets go to.
 * @hw.off: batched RxList: next free byte of @hw.cur's buffer.
 * @hw.open: batched RxList: @hw.cur is valid.
 * @hw.seen: batched RxList: @hw.cq_tail at the idle timer's last tick.
 * @sw: driver state, the queue's poll context only.
 * @sw.cq_head: next CR entry to read.
 * @sw.starved: RxArr, RxList: the last poll stopped: no buffer.
 * @sw.mine: RxArr: this poll's marks, for the held-back count: bits per
 *	bitmap word.
 * @sw.touched: RxArr: the words of @sw.mine touched.
 * @sw.ntouched: RxArr: entries of @sw.touched.
 * @sw.cur: batched RxList: descriptor of the last packet polled.
 * @sw.open: batched RxList: @sw.cur is valid.
 * @sw.ret_first: batched RxList: first closed descriptor not re-armed yet;
 *	they are linked through their descriptors' next fields (the NIC is
 *	done with them).
 * @sw.ret_last: batched RxList: the last of them.
 * @sw.nret: batched RxList: how many there are.
 * @sw.frag_refs: batched RxList: packets handed up as fragments, each
 *	with its own reference on the buffer.
 */
struct shring_q {
	struct rxb_cring cr;
	struct rxb_cq_regs regs ____cacheline_aligned;

	struct {
		u32 cq_tail;
		u64 victim_drops;
		u32 cur;
		u32 off;
		bool open;
		u32 seen;
	} hw ____cacheline_aligned;

	struct {
		u32 cq_head;
		bool starved;
		union {
			struct {
				unsigned long *mine;
				unsigned int *touched;
				unsigned int ntouched;
			};
			struct {
				u32 cur;
				bool open;
				u32 ret_first;
				u32 ret_last;
				u32 nret;
				u64 frag_refs;
			};
		};
	} sw ____cacheline_aligned;
};

/**
 * struct shring_base - head of every shRing model instance.
 * @m: the common head.
 * @q: per queue, nqueues entries.
 * @mask: ring size - 1 (shared rings and completion rings alike).
 * @nrings: shared rings (groups of queues).
 * @ring_xstat_names: names of each shared ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * The variant's instance adds its array of @nrings shared rings.
 */
struct shring_base {
	struct rxb_model m;
	struct shring_q *q;
	u32 mask;
	unsigned int nrings;
	const char *const *ring_xstat_names;
	unsigned int ring_xstats;
};

static inline struct shring_base *to_shring_base(struct rxb_model *m)
{
	return container_of(m, struct shring_base, m);
}

/**
 * shring_nobuf() - NIC side: count a no-buffer drop of queue @qi.
 * @sb: the instance.
 * @qi: the queue; under its ring's hw.lock.
 * @held: its CR's rxb_cring_held().
 *
 * Return: -ENOBUFS, for rxb_nic_finish() to count.
 */
static inline int shring_nobuf(struct shring_base *sb, unsigned int qi,
			       u32 held)
{
	if (shring_victim(&sb->m.cfg, qi / sb->m.cfg.share_factor, held))
		rxb_stat_inc(&sb->q[qi].hw.victim_drops);
	return -ENOBUFS;
}

/**
 * shring_arm_slot() - driver side: give a slot of a shared ring its first
 * buffer.
 * @m: the instance.
 * @cookie: the ring's buffer handle per slot.
 * @pool_q: the ring's pool queue per slot.
 * @slot: the slot, never armed.
 * @qi: queue whose pool the buffer comes from.
 * @buf: filled with the buffer, for the caller to post.
 *
 * Return: false if the allocation failed (counted in @qi's alloc_fails).
 */
static inline bool shring_arm_slot(struct rxb_model *m, void **cookie,
				   u16 *pool_q, u32 slot, unsigned int qi,
				   struct rxb_buf *buf)
{
	if (rxb_drv_alloc_buf(m, qi, buf)) {
		rxb_stat_inc(&m->qstats[qi].alloc_fails);
		return false;
	}
	cookie[slot] = buf->cookie;
	pool_q[slot] = qi;
	rxb_stat_inc(&m->qstats[qi].refills);
	return true;
}

/**
 * shring_take() - driver side: the next completion of queue @qi, with a
 * fresh buffer from @qi's pool put in place of the packet's.
 * @sb: the instance.
 * @qi: the polling queue.
 * @head: index of the CR entry to read.
 * @pkt: filled with the packet and its buffer.
 * @cookie: the shared ring's buffer handle per slot.
 * @pool_q: the shared ring's pool queue per slot.
 * @buf: filled with the fresh buffer, for the caller to post.
 *
 * Return: the slot, or -1 when no completion is ready or no buffer could
 * be allocated (then the entry stays in the CR until the next poll).
 */
static inline int shring_take(struct shring_base *sb, unsigned int qi,
			      u32 head, struct rxb_pkt *pkt, void **cookie,
			      u16 *pool_q, struct rxb_buf *buf)
{
	struct shring_q *q = &sb->q[qi];
	u32 slot;

	if (!rxb_cring_ready(&q->cr, head))
		return -1;
	if (rxb_drv_alloc_buf(&sb->m, qi, buf)) {
		rxb_stat_inc(&sb->m.qstats[qi].alloc_fails);
		q->sw.starved = true;
		return -1;
	}
	slot = rxb_cring_read(&q->cr, head, pkt);
	pkt->cookie = cookie[slot];
	pkt->pool_q = pool_q[slot];
	cookie[slot] = buf->cookie;
	pool_q[slot] = qi;
	return slot;
}

/**
 * shring_free_bufs() - free every buffer the slots of a shared ring hold.
 * @m: the instance; neither half running.
 * @cookie: the ring's buffer handle per slot (NULL: none).
 * @pool_q: the ring's pool queue per slot.
 *
 * Posted, taken, written but not polled, or re-armed and waiting for the
 * tail: a slot holds each buffer exactly once.
 */
static inline void shring_free_bufs(struct rxb_model *m, void **cookie,
				    const u16 *pool_q)
{
	u32 slot;

	for (slot = 0; slot < m->cfg.ring_size; slot++)
		if (cookie[slot])
			rxb_drv_free_buf(m, pool_q[slot], cookie[slot]);
}

/* The tables of a shRing variant's struct rxb_layout: its queues (struct
 * shring_q) in instance @type's b.q, and its shared rings (@type, with
 * desc (of @desc_type), cookie and pool_q arrays) in instance @inst's
 * ring; then the variant's own arrays of each.
 */
#define SHRING_Q_TABLE(type, ...)					\
	{ .off = offsetof(type, b.q), .size = sizeof(struct shring_q),	\
	  .arrays = { RXB_ARRAY(struct shring_q, cr.ent, struct rxb_cqe,	\
				 RXB_ARR_RING),				\
		      __VA_ARGS__ } }
#define SHRING_RING_TABLE(inst, type, desc_type, ...)			\
	{ .off = offsetof(inst, ring), .size = sizeof(type),		\
	  .count = shring_nrings,					\
	  .arrays = { RXB_ARRAY(type, desc, desc_type,		\
				 RXB_ARR_RING),				\
		      RXB_ARRAY(type, cookie, void *, RXB_ARR_RING),	\
		      RXB_ARRAY(type, pool_q, u16, RXB_ARR_RING),	\
		      __VA_ARGS__ } }

/* The xstats members of a shRing model's ops; @values: its xstats_values. */
#define SHRING_XSTATS_OPS(values)					\
	.xstats_count = shring_xstats_count,				\
	.xstats_names = shring_xstats_names, .xstats_values = values

struct rxb_model *shring_base_alloc(const struct rxb_model_ops *ops,
				    const struct rxb_model_cfg *cfg,
				    const struct rxb_layout *lay,
				    const char *const *ring_xstat_names,
				    unsigned int ring_xstats);
void shring_poll_done(struct shring_base *sb, unsigned int qi, u32 n,
		      u64 bytes);
void shring_base_state(struct rxb_model *m, unsigned int qi,
		       struct rxb_ring_state *st);
void shring_base_debug(struct rxb_model *m, unsigned int qi,
		       struct rxb_hw_debug *dbg);
bool shring_rx_pending(struct rxb_model *m, unsigned int qi);
int shring_validate(const struct rxb_model_cfg *cfg, const char **msg);
unsigned int shring_xstats_count(struct rxb_model *m);
void shring_xstats_names(struct rxb_model *m, char *names);
void shring_xstats_victims(struct rxb_model *m, u64 *vals);

#endif /* _RXB_SHRING_H */
