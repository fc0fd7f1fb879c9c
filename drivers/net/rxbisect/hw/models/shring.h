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
 * struct shring_hw_ring_head - what every shRing variant's shared ring
 *	starts with (the NIC's side); set up by the base.
 * @lock: the ring's pipeline stage: its takes and its queues' CRs.
 * @desc: the descriptor array (the variant's type), mapped from the ring's
 *	base register; the driver writes it, the NIC reads it.
 * @regs: the ring's registers.
 * @dbg: its debug registers; taken is the NIC's count of takes.
 */
struct shring_hw_ring_head {
	spinlock_t lock;		/* the ring's pipeline stage */
	const void *desc;
	const struct rxb_shring_regs *regs;
	struct rxb_qdebug_regs *dbg;
};

/**
 * struct shring_hw_base - head of every shRing hardware half.
 * @m: the common head.
 * @q: per queue, nqueues entries.
 * @mask: ring size - 1 (shared rings and completion rings alike).
 * @nrings: shared rings (groups of queues).
 * @desc_size: bytes of a shared ring's descriptor.
 *
 * The variant's instance adds its array of @nrings shared rings, the
 * second table of its layout (SHRING_HW_RING_TABLE), each starting with a
 * struct shring_hw_ring_head.
 */
struct shring_hw_base {
	struct rxb_hw_model m;
	struct shring_hw_q *q;
	u32 mask;
	unsigned int nrings;
	size_t desc_size;
};

#define to_shring_hw_base(mp)	container_of(mp, struct shring_hw_base, m)

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

/* The ops members every shRing hardware half has: model @model_name, its
 * layout @lay, its init @init_fn and rx @rx_fn; the base starts it.
 */
#define SHRING_HW_OPS(model_name, lay, init_fn, rx_fn)			\
	.name = model_name, .layout = &(lay), .init = init_fn,		\
	.start = shring_hw_base_start, .rx = rx_fn,			\
	.bar_pages = rxb_shring_bar_pages

void shring_hw_base_init(struct rxb_hw_model *m, size_t desc_size);
int shring_hw_base_start(struct rxb_hw_model *m);

/* ---- the RxList ring (shring_list.c), shared with batched RxList ---- */

/**
 * struct shlist_hw_ring - the NIC's state of one RxList shared ring
 *	(thesis section 5.1.4, Listing 5.2).
 * @h: what every shared ring has; its desc is struct rxb_rx_ldesc.
 * @st: its statistics registers.
 * @head: hwHead, the slot the NIC takes next.
 * @last: the slot taken last.
 */
struct shlist_hw_ring {
	struct shring_hw_ring_head h;
	struct rxb_shring_rstats_regs *st;
	u32 head;
	u32 last;
} ____cacheline_aligned;

/* Ring @r's descriptor array. */
static inline const struct rxb_rx_ldesc *
shlist_hw_desc(const struct shlist_hw_ring *r)
{
	return r->h.desc;
}

/**
 * struct shlist_hw - the hardware half of an RxList model (shring-list or
 *	shring-batched).
 * @b: the shRing base.
 * @ring: the shared rings, @b.nrings of them.
 * @ticking: batched RxList: the NIC's idle timer is armed or running.
 */
struct shlist_hw {
	struct shring_hw_base b;
	struct shlist_hw_ring *ring;
	bool ticking;
};

#define to_shlist_hw(mp)	container_of(mp, struct shlist_hw, b.m)

static inline struct shlist_hw_ring *shlist_hw_ring_of(struct shlist_hw *sl,
						       unsigned int qi)
{
	return &sl->ring[rxb_shring_group(&sl->b.m.cfg, qi)];
}

/**
 * shlist_hw_can_take() - may the NIC take a descriptor?
 * @r: the ring; under r->h.lock.
 *
 * The list's last descriptor only marks its end.  The register read
 * (acquire) covers the driver's writes of every descriptor and link below
 * the count it reads.
 *
 * Return: true if a descriptor other than the end marker is posted.
 */
static inline bool shlist_hw_can_take(const struct shlist_hw_ring *r)
{
	return rxb_db_read(&r->h.regs->rx_tail) - r->h.dbg->taken >= 2;
}

/**
 * shlist_hw_take() - take the descriptor at hwHead: the NIC reads it
 *	(one descriptor read over PCIe, counted for queue @qi).
 * @m: the model instance.
 * @qi: the queue the descriptor is taken for.
 * @r: the ring; under r->h.lock, shlist_hw_can_take() true.
 * @mask: ring size - 1.
 *
 * Return: the slot taken.
 */
static inline u32 shlist_hw_take(struct rxb_hw_model *m, unsigned int qi,
				 struct shlist_hw_ring *r, u32 mask)
{
	u32 slot = r->head;

	/* A contiguous prefetch would have missed this descriptor. */
	if (slot != ((r->last + 1) & mask))
		rxb_stat_inc(&r->st->out_of_order);
	r->last = slot;
	/* Not the list's last, so its link is valid (shlist_hw_can_take). */
	r->head = le32_to_cpu(shlist_hw_desc(r)[slot].next) & mask;
	/* WRITE_ONCE: a debug register, the driver reads it from anywhere. */
	WRITE_ONCE(r->h.dbg->taken, r->h.dbg->taken + 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(struct rxb_rx_ldesc));
	return slot;
}

/**
 * shlist_hw_admit() - may a frame to queue @qi take the next descriptor of
 *	the list?
 * @sl: the instance.
 * @r: @qi's ring; under r->h.lock.
 * @qi: the queue.
 * @len: frame length.
 * @held: rxb_hw_cring_held() of @qi's CR.
 *
 * Return: 0, or the drop cause for rxb_nic_finish() (-ENOBUFS counts a
 * victim drop too).
 */
static inline int shlist_hw_admit(struct shlist_hw *sl,
				  const struct shlist_hw_ring *r,
				  unsigned int qi, u32 len, u32 held)
{
	if (!shlist_hw_can_take(r))
		return shring_hw_nobuf(&sl->b, qi, held);
	return rxb_hw_cring_admit(&sl->b.q[qi].cr, held, len,
				  shlist_hw_desc(r)[r->head].buf_len);
}

int shlist_hw_init(struct rxb_hw_model *m);
extern const struct rxb_layout shlist_hw_layout;

#endif /* _RXB_HW_SHRING_H */
