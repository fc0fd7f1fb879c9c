/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's side of the shRing ring models (thesis chapter 5): what the
 * driver halves of RxArr (shring.c), RxList (shring_list.c), batched
 * RxList (shring_batched.c) and dynamic shRing (dshring.c, which runs
 * RxArr as one of its two ring sets) share.  The groups and the register
 * layout are in include/rxbisect/rxb_shring.h; the NIC's side is
 * drivers/net/rxbisect/hw/models/shring.h.
 *
 * Each queue reads its own completion ring (CR); the queues of a group
 * repost into their shared ring under the ring's lock, which is the
 * driver's alone.
 */
#ifndef _RXB_DRV_SHRING_H
#define _RXB_DRV_SHRING_H

#include <linux/build_bug.h>
#include <linux/cache.h>
#include <linux/container_of.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_layout.h>
#include <rxbisect/rxb_shring.h>
#include "drv_ring.h"

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
 * struct shring_q - the driver's state of one queue of a shRing model (any
 *	variant), its poll context's only.
 * @cr: the queue's completion ring.
 * @regs: its registers.
 * @cq_head: next CR entry to read.
 * @starved: RxArr, RxList: the last poll stopped: no buffer (set by
 *	shring_walk_next()).
 * @mine: RxArr: this poll's marks, for the held-back count: bits per
 *	bitmap word.
 * @touched: RxArr: the words of @mine touched.
 * @ntouched: RxArr: entries of @touched.
 * @cur: batched RxList: descriptor of the last packet polled.
 * @open: batched RxList: @cur is valid.
 * @ret_first: batched RxList: first closed descriptor not re-armed yet;
 *	they are linked through their descriptors' next fields (the NIC is
 *	done with them).
 * @ret_last: batched RxList: the last of them.
 * @nret: batched RxList: how many there are.
 * @frag_refs: batched RxList: packets handed up as fragments, each with
 *	its own reference on the buffer.
 */
struct shring_q {
	struct rxb_cring cr;
	struct rxb_cq_regs *regs;
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
} ____cacheline_aligned;

/**
 * struct shring_ring_head - what every shRing variant's shared ring starts
 *	with (the driver's side); set up and freed by the base.
 * @desc_mem: the ring's descriptor array (the variant's type).
 * @regs: the ring's registers.
 * @lock: serialises the ring's tail and doorbell among the group's queues
 *	(what else: the variant's).
 * @cookie: per slot, the buffer's environment handle.
 * @pool_q: per slot, the queue whose pool the buffer came from: a
 *	descriptor carries a buffer from the pool of whichever queue
 *	re-armed it.
 */
struct shring_ring_head {
	struct rxb_ring_mem desc_mem;
	struct rxb_shring_regs *regs;
	spinlock_t lock;		/* tail and doorbell: see the variant */
	void **cookie;
	u16 *pool_q;
};

/**
 * struct shring_base - head of every shRing driver half.
 * @m: the common head.
 * @q: per queue, nqueues entries.
 * @mask: ring size - 1 (shared rings and completion rings alike).
 * @nrings: shared rings (groups of queues).
 * @ring_xstat_names: names of each shared ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * The variant's instance adds its array of @nrings shared rings, the
 * second table of its layout (SHRING_RING_TABLE), each starting with a
 * struct shring_ring_head.
 */
struct shring_base {
	struct rxb_model m;
	struct shring_q *q;
	u32 mask;
	unsigned int nrings;
	const char *const *ring_xstat_names;
	unsigned int ring_xstats;
};

#define to_shring_base(mp)	container_of(mp, struct shring_base, m)

/**
 * shring_arm_slot() - give a slot of a shared ring its first buffer.
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
 * struct shring_walk - one poll's walk over a queue's completion ring (CR):
 *	the poll's cursor, on the poller's stack.
 * @sb: the instance.
 * @h: the shared ring of the queue's group.
 * @q: the queue.
 * @pkts: the poll's packets, @budget of them.
 * @qi: the queue's index.
 * @budget: the most packets the poll may hand up.
 * @head: the next CR entry to read.
 * @n: packets taken so far, the next index into @pkts.
 * @bytes: their bytes.
 *
 * Set up by shring_walk_begin().  RxArr and RxList step it with
 * shring_walk_next() and end it with shring_walk_done(); batched RxList,
 * whose CR entries are not all packets, reads the entries itself while
 * shring_walk_ready() and counts @head, @n and @bytes.  The helpers are
 * inline and the walk's address is never passed on, so the compiler keeps
 * it in registers: the walk adds no call to the per-packet path.
 */
struct shring_walk {
	struct shring_base *sb;
	struct shring_ring_head *h;
	struct shring_q *q;
	struct rxb_pkt *pkts;
	unsigned int qi;
	int budget;
	u32 head;
	int n;
	u64 bytes;
};

/**
 * shring_walk_begin() - start a poll's walk over queue @qi's CR.
 * @w: the walk.
 * @sb: the instance.
 * @qi: the polling queue.
 * @h: the shared ring of @qi's group.
 * @pkts: the poll's packets.
 * @budget: the most packets to hand up.
 *
 * Return: the queue, @w->q.
 */
static inline struct shring_q *shring_walk_begin(struct shring_walk *w,
						 struct shring_base *sb,
						 unsigned int qi,
						 struct shring_ring_head *h,
						 struct rxb_pkt *pkts,
						 int budget)
{
	w->sb = sb;
	w->h = h;
	w->q = &sb->q[qi];
	w->pkts = pkts;
	w->qi = qi;
	w->budget = budget;
	w->head = w->q->cq_head;
	w->n = 0;
	w->bytes = 0;
	return w->q;
}

/**
 * shring_walk_ready() - may the walk read the CR entry at its head?
 * @w: the walk.
 *
 * Return: true if the budget is not spent and the NIC has written the
 * entry (then its fields and packet may be read).
 */
static inline bool shring_walk_ready(const struct shring_walk *w)
{
	return w->n < w->budget && rxb_cring_ready(&w->q->cr, w->head);
}

/**
 * shring_walk_next() - take the walk's next packet, with a fresh buffer
 *	from the queue's pool put in the packet's slot of the shared ring.
 * @w: the walk: @w->pkts[@w->n] is filled with the packet and its buffer,
 *	then counted.
 * @buf: filled with the fresh buffer, for the caller to post.
 *
 * When the walk stops, records in @w->q->starved whether it stopped for
 * want of a buffer.
 *
 * Return: the slot, or -1 when the budget is spent, no completion is
 * ready or no buffer could be allocated (then the entry stays in the CR
 * until the next poll).
 */
static inline int shring_walk_next(struct shring_walk *w, struct rxb_buf *buf)
{
	struct rxb_model *m = &w->sb->m;
	void **cookie = w->h->cookie;
	u16 *pool_q = w->h->pool_q;
	struct rxb_pkt *pkt;
	u32 slot;

	if (!shring_walk_ready(w)) {
		w->q->starved = false;
		return -1;
	}
	if (rxb_drv_alloc_buf(m, w->qi, buf)) {
		rxb_stat_inc(&m->qstats[w->qi].alloc_fails);
		w->q->starved = true;
		return -1;
	}
	pkt = &w->pkts[w->n];
	slot = rxb_cring_read(&w->q->cr, w->head, pkt);
	pkt->cookie = cookie[slot];
	pkt->pool_q = pool_q[slot];
	cookie[slot] = buf->cookie;
	pool_q[slot] = w->qi;
	w->bytes += pkt->len;
	w->head++;
	w->n++;
	return slot;
}

/**
 * shring_walk_done() - end a walk that took at least one packet.
 * @w: the walk.
 *
 * Gives the CR entries back to the NIC.  Every packet's descriptor was
 * re-armed in place with a buffer from the queue's pool, counted here.
 */
static inline void shring_walk_done(const struct shring_walk *w)
{
	struct shring_q *q = w->q;

	rxb_cring_consume(&w->sb->m, w->qi, &q->cr, &q->cq_head, w->n, w->n,
			  w->bytes);
	rxb_stat_add(&w->sb->m.qstats[w->qi].refills, w->n);
}

/* The tables of a shRing variant's struct rxb_layout: its queues (struct
 * shring_q) in instance @type's b.q, and its shared rings (@rtype) in
 * instance @type's ring; each with the arrays given.  A ring's head
 * (first in @rtype: shring_ring_first()) adds its slots' cookie and
 * pool_q.
 */
#define SHRING_Q_TABLE(type, ...)					\
	{ .off = offsetof(type, b.q), .size = sizeof(struct shring_q),	\
	  .arrays = { __VA_ARGS__ } }
#define SHRING_RING_TABLE(type, rtype, ...)				\
	{ .off = offsetof(type, ring), .size = sizeof(rtype),		\
	  .count = rxb_shring_nrings,					\
	  .arrays = { SHRING_HEAD_COOKIE, SHRING_HEAD_POOL_Q, __VA_ARGS__ } }
#define SHRING_HEAD_COOKIE						\
	RXB_ARRAY(struct shring_ring_head, cookie, void *, RXB_ARR_RING)
#define SHRING_HEAD_POOL_Q						\
	RXB_ARRAY(struct shring_ring_head, pool_q, u16, RXB_ARR_RING)
/* A variant's shared ring (@rtype) starts with its head, member h. */
#define shring_ring_first(rtype)					\
	static_assert(offsetof(rtype, h) == 0)

/* The ops members every shRing variant shares: model @model_name, whose
 * hardware half is @hw_ops and layout @lay, with functions named
 * @pfx_init, @pfx_poll and @pfx_refill; @values: its xstats_values.
 */
#define SHRING_OPS(model_name, hw_ops, lay, pfx, values)		\
	.name = model_name, .hw = &(hw_ops), .layout = &(lay),		\
	.init = pfx##_init, .fini = shring_base_fini,			\
	.poll = pfx##_poll, .refill = pfx##_refill,			\
	.rx_pending = shring_rx_pending,				\
	.ring_state = shring_ring_state,				\
	.xstats_count = shring_xstats_count,				\
	.xstats_names = shring_xstats_names, .xstats_values = values

int shring_base_init(struct rxb_model *m, size_t desc_size,
		     const char *const *ring_xstat_names,
		     unsigned int ring_xstats);
void shring_base_fini(struct rxb_model *m);
u32 shring_nic_debug_fill(struct rxb_model *m, unsigned int qi,
			  struct rxb_hw_debug *dbg);
void shring_ring_state(struct rxb_model *m, unsigned int qi,
		       struct rxb_ring_state *st);
bool shring_rx_pending(struct rxb_model *m, unsigned int qi);
int shring_validate(const struct rxb_model_cfg *cfg, const char **msg);
unsigned int shring_xstats_count(struct rxb_model *m);
void shring_xstats_names(struct rxb_model *m, char *names);
void shring_xstats_victims(struct rxb_model *m, u64 *vals);

/* ---- the RxList ring (shring_list.c), shared with batched RxList ---- */

/* Counters of one RxList ring, see shlist_ring_xstat_names. */
#define SHLIST_RING_XSTATS	7
extern const char * const shlist_ring_xstat_names[SHLIST_RING_XSTATS];

/**
 * struct shlist_ring - the driver's state of one RxList shared ring
 *	(thesis section 5.1.4, Listing 5.2).
 * @h: what every shared ring has; its lock guards the list's tail and the
 *	doorbell, shared by the group's queues.
 * @desc: the descriptor array, in @h.desc_mem: the driver writes it, the
 *	NIC reads it.
 * @dbg: its debug registers, which the NIC writes.
 * @st: its statistics registers, which the NIC writes.
 * @tail: hwTail, the list's last slot.
 * @count: descriptors appended so far (the doorbell's value).
 * @armed: slots >= @armed never got a buffer.
 * @ls: @h.lock's counters.
 * @reposts: descriptors re-armed by a queue's poll.
 * @appends: chains appended (doorbells).
 * @append_len: descriptors in those chains.
 *
 * The empty-buffer queue is a linked list overlaid on the descriptor array
 * (struct rxb_rx_ldesc.next): the NIC takes descriptors in list order from
 * hwHead; a queue links the descriptors it re-armed into a chain and,
 * under the ring's lock, appends the chain after hwTail and adds its
 * length to the doorbell.  No descriptor waits for an earlier one, so a
 * slow queue cannot hold the others' reposts; but the list soon leaves
 * array order, which defeats the NIC's contiguous descriptor prefetch
 * (Figure 5.3): the NIC counts out-of-order takes.  The NIC never takes
 * the list's last descriptor: it marks the end, so the driver links after
 * it without racing the NIC.  One descriptor per ring stays unused.
 */
struct shlist_ring {
	struct shring_ring_head h;
	struct rxb_rx_ldesc *desc;
	const struct rxb_qdebug_regs *dbg;
	const struct rxb_shring_rstats_regs *st;
	u32 tail;
	u32 count;
	u32 armed;
	struct shring_lock_stats ls;
	u64 reposts;
	u64 appends;
	u64 append_len;
} ____cacheline_aligned;

shring_ring_first(struct shlist_ring);

/**
 * shlist_desc_post() - re-arm a descriptor with a buffer.
 * @d: the descriptor, not in the list.
 * @addr: buffer bus address.
 * @len: buffer length.
 *
 * Its link is written separately, when it joins a chain.
 */
static inline void shlist_desc_post(struct rxb_rx_ldesc *d, u64 addr, u32 len)
{
	d->buf_addr = cpu_to_le64(addr);
	d->buf_len = cpu_to_le32(len);
}

/**
 * struct shlist - the driver half of an RxList model (shring-list or
 *	shring-batched).
 * @b: the shRing base.
 * @ring: the shared RxList rings, @b.nrings of them.
 */
struct shlist {
	struct shring_base b;
	struct shlist_ring *ring;
};

#define to_shlist(mp)		container_of(mp, struct shlist, b.m)

static inline struct shlist_ring *shlist_ring_of(struct shlist *sl,
						 unsigned int qi)
{
	return &sl->ring[rxb_shring_group(&sl->b.m.cfg, qi)];
}

/* The ops members the RxList models share: SHRING_OPS with the layout
 * shlist_layout, and their nic_debug.
 */
#define SHLIST_OPS(model_name, hw_ops, pfx, values)			\
	SHRING_OPS(model_name, hw_ops, shlist_layout, pfx, values),	\
	.nic_debug = shlist_nic_debug

int shlist_rings_init(struct rxb_model *m, const char *const *ring_xstat_names,
		      unsigned int ring_xstats);
extern const struct rxb_layout shlist_layout;
void shlist_nic_debug(struct rxb_model *m, unsigned int qi,
		      struct rxb_hw_debug *dbg);
void shlist_ring_append(struct rxb_model *m, struct shlist_ring *r,
			unsigned int qi, u32 first, u32 last, u32 n);
void shlist_ring_arm_rest(struct rxb_model *m, struct shlist_ring *r,
			  u32 mask, unsigned int qi);
u64 *shlist_ring_xstats(struct rxb_model *m, unsigned int g, u64 *vals,
			struct rxb_hw_debug *dbg);

#endif /* _RXB_DRV_SHRING_H */
