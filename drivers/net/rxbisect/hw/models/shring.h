/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NIC's side of the shRing ring models (thesis chapter 5): what the
 * hardware halves of RxArr (shring.c), RxList (shring_list.c) and batched
 * RxList (shring_batched.c) share.  The groups and the register layout
 * are in include/rxbisect/rxb_shring.h; the driver's side is
 * drivers/net/rxbisect/drv/models/shring.h.
 *
 * Each queue has its own completion ring (CR), which the NIC writes under
 * the pipeline stage (lock) of the queue's shared ring; the lock is the
 * NIC's alone.
 */
#ifndef _RXB_HW_SHRING_H
#define _RXB_HW_SHRING_H

#include <linux/cache.h>
#include <linux/container_of.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_layout.h>
#include <rxbisect/rxb_shring.h>
#include "hw_ring.h"

/**
 * struct shring_hw_q - the NIC's state of one queue of a shRing model.
 * @cr: the queue's completion ring, mapped from its base register.
 * @dbg: the queue's debug registers; cq_tail is the NIC's CR tail.
 * @st: the queue's shRing statistics registers.
 * @cur: batched RxList: the "mini hwHead", the descriptor this CR's
 *	packets go to.
 * @off: batched RxList: next free byte of @cur's buffer.
 * @open: batched RxList: @cur is valid.
 * @seen: batched RxList: the CR tail at the idle timer's last tick.
 *
 * All under the lock of the queue's shared ring.
 */
struct shring_hw_q {
	struct rxb_hw_cring cr;
	struct rxb_qdebug_regs *dbg;
	struct rxb_shring_qstats_regs *st;
	u32 cur;
	u32 off;
	bool open;
	u32 seen;
} ____cacheline_aligned;

/**
 * struct shring_hw_base - head of every shRing hardware half.
 * @m: the common head.
 * @q: per queue, nqueues entries.
 * @mask: ring size - 1 (shared rings and completion rings alike).
 * @nrings: shared rings (groups of queues).
 *
 * The variant's instance adds its array of @nrings shared rings.
 */
struct shring_hw_base {
	struct rxb_hw_model m;
	struct shring_hw_q *q;
	u32 mask;
	unsigned int nrings;
};

static inline struct shring_hw_base *to_shring_hw_base(struct rxb_hw_model *m)
{
	return container_of(m, struct shring_hw_base, m);
}

/**
 * shring_hw_nobuf() - count a no-buffer drop of queue @qi, and a victim
 *	drop if it is one (rxb_shring_fair_share()).
 * @sb: the instance.
 * @qi: the queue; under its ring's lock.
 * @held: completions of its CR the driver has not consumed.
 *
 * Return: -ENOBUFS, for rxb_nic_finish() to count.
 */
static inline int shring_hw_nobuf(struct shring_hw_base *sb, unsigned int qi,
				  u32 held)
{
	const struct rxb_model_cfg *cfg = &sb->m.cfg;

	if (held < rxb_shring_fair_share(cfg, rxb_shring_group(cfg, qi)))
		rxb_stat_inc(&sb->q[qi].st->nobuf_victim_drops);
	return -ENOBUFS;
}

/* The NIC's queue table of a variant's struct rxb_layout: instance
 * @type's b.q.
 */
#define SHRING_HW_Q_TABLE(type)						\
	{ .off = offsetof(type, b.q), .size = sizeof(struct shring_hw_q) }
/* Its table of shared rings (@rtype), in instance @type's ring. */
#define SHRING_HW_RING_TABLE(type, rtype)				\
	{ .off = offsetof(type, ring), .size = sizeof(rtype),		\
	  .count = rxb_shring_nrings }

/* The members of a shRing hardware half's ops besides RXB_HW_MODEL_OPS. */
#define SHRING_HW_OPS	.bar_pages = rxb_shring_bar_pages

struct rxb_hw_model *shring_hw_base_alloc(const struct rxb_hw_model_ops *ops,
					  const struct rxb_model_cfg *cfg,
					  const struct rxb_hw_ops *env,
					  void *hw, const struct rxb_bar *bar,
					  const struct rxb_layout *lay);
int shring_hw_base_start(struct shring_hw_base *sb);

#endif /* _RXB_HW_SHRING_H */
