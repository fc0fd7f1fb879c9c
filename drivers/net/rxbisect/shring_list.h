/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RxList shared ring (thesis section 5.1.4, Listing 5.2, Figure 5.2),
 * shared by the RxList model (model_shring_list.c, one packet per
 * descriptor) and the batched RxList model (model_shring_batched.c,
 * several packets per descriptor).
 *
 * The empty-buffer queue is a linked list overlaid on the descriptor array
 * (struct rxb_rx_ldesc.next): the NIC takes descriptors in list order from
 * hwHead; a queue links the descriptors it re-armed into a chain and,
 * under the ring's lock, appends the chain after hwTail and adds its
 * length to the doorbell.  No descriptor waits for an earlier one, so a
 * slow queue cannot hold the others' reposts; but the list soon leaves
 * array order, which defeats the NIC's contiguous descriptor prefetch
 * (Figure 5.3): counted as out-of-order takes.
 *
 * The NIC never takes the list's last descriptor: it marks the end, so the
 * driver links after it without racing the NIC (hardware shared receive
 * queues do the same).  One descriptor per ring stays unused.
 */
#ifndef _RXB_SHRING_LIST_H
#define _RXB_SHRING_LIST_H

#include <linux/cache.h>
#include <linux/container_of.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"
#include "shring.h"

/* Counters of one RxList ring, see shlist_ring_xstat_names. */
#define SHLIST_RING_XSTATS	7
extern const char * const shlist_ring_xstat_names[SHLIST_RING_XSTATS];

/**
 * struct shlist_ring - one RxList shared ring.
 * @desc: the descriptor array, read by the NIC, written by the driver.
 * @regs: the ring's doorbell.
 * @hw: NIC-internal state, under @hw.lock (the ring's pipeline stage):
 *	hwHead (@hw.head), descriptors taken so far, the slot taken last,
 *	takes not adjacent to the last one, (batched RxList) descriptors
 *	closed by the idle timeout.
 * @sw: driver state shared by the group's queues, under @sw.lock: hwTail
 *	(@sw.tail, the list's last slot), descriptors appended so far, the
 *	first slot that never got a buffer, lock and repost counters.
 * @cookie: per slot, the buffer's environment handle.
 * @pool_q: per slot, the queue whose pool the buffer came from: a
 *	descriptor carries a buffer from the pool of whichever queue
 *	re-armed it.
 */
struct shlist_ring {
	struct rxb_rx_ldesc *desc;
	struct rxb_shring_regs regs ____cacheline_aligned;

	struct {
		spinlock_t lock;	/* the ring's NIC pipeline stage */
		u32 head;
		u32 taken;
		u32 last;
		u64 out_of_order;
		u64 idle_closes;
	} hw ____cacheline_aligned;

	struct {
		spinlock_t lock;	/* list tail and doorbell */
		u32 tail;
		u32 count;
		u32 armed;
		struct shring_lock_stats ls;
		u64 reposts;
		u64 appends;
		u64 append_len;
	} sw ____cacheline_aligned;

	void **cookie;
	u16 *pool_q;
};

/**
 * shlist_ring_can_take() - NIC side: may the NIC take a descriptor?
 * @r: the ring; under r->hw.lock.
 *
 * The list's last descriptor only marks its end.  The doorbell read
 * (acquire) covers the driver's writes of every descriptor and link
 * below the count it reads.
 *
 * Return: true if a descriptor other than the end marker is posted.
 */
static inline bool shlist_ring_can_take(const struct shlist_ring *r)
{
	return rxb_db_read(&r->regs.rx_tail) - r->hw.taken >= 2;
}

/**
 * shlist_ring_take() - NIC side: take the descriptor at hwHead.
 * @r: the ring; under r->hw.lock, shlist_ring_can_take() true.
 * @mask: ring size - 1.
 *
 * Return: the slot taken.
 */
static inline u32 shlist_ring_take(struct shlist_ring *r, u32 mask)
{
	u32 slot = r->hw.head;

	/* A contiguous prefetch would have missed this descriptor. */
	if (slot != ((r->hw.last + 1) & mask))
		rxb_stat_inc(&r->hw.out_of_order);
	r->hw.last = slot;
	/* Not the list's last, so its link is valid (shlist_ring_can_take). */
	r->hw.head = le32_to_cpu(r->desc[slot].next) & mask;
	/* WRITE_ONCE: shlist_hw_debug() reads it from anywhere. */
	WRITE_ONCE(r->hw.taken, r->hw.taken + 1);
	return slot;
}

/**
 * shlist_desc_post() - driver side: re-arm a descriptor with a buffer.
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
 * struct shlist - an instance of an RxList model (shring-list or
 * shring-batched).
 * @b: the shRing group base.
 * @ring: the shared RxList rings, @b.nrings of them.
 * @ticking: batched RxList: the NIC's idle timer is armed or running.
 */
struct shlist {
	struct shring_base b;
	struct shlist_ring *ring;
	bool ticking;
};

static inline struct shlist *to_shlist(struct rxb_model *m)
{
	return container_of(m, struct shlist, b.m);
}

static inline struct shlist_ring *shlist_ring_of(struct shlist *sl,
						 unsigned int qi)
{
	return &sl->ring[qi / sl->b.m.cfg.share_factor];
}

/**
 * shlist_admit() - NIC side: may a frame to queue @qi take the next
 * descriptor of the list?
 * @sl: the instance.
 * @r: @qi's ring; under r->hw.lock.
 * @qi: the queue.
 * @len: frame length.
 * @held: rxb_cring_held() of @qi's CR.
 *
 * Return: 0, or the drop cause for rxb_nic_finish() (-ENOBUFS counts a
 * victim drop too).
 */
static inline int shlist_admit(struct shlist *sl, struct shlist_ring *r,
			       unsigned int qi, u32 len, u32 held)
{
	if (!shlist_ring_can_take(r))
		return shring_nobuf(&sl->b, qi, held);
	return rxb_cring_admit(&sl->b.q[qi].cr, held, len,
			       r->desc[r->hw.head].buf_len);
}

/* The ops members the RxList models share; @values: their xstats_values. */
#define SHLIST_OPS(values)						\
	.destroy = shlist_destroy, .rx_pending = shring_rx_pending,	\
	.ring_state = shring_base_state, .hw_debug = shlist_hw_debug, SHRING_XSTATS_OPS(values)

struct rxb_model *shlist_alloc(const struct rxb_model_ops *ops,
			       const struct rxb_model_cfg *cfg,
			       const char *const *ring_xstat_names,
			       unsigned int ring_xstats);
void shlist_destroy(struct rxb_model *m);
void shlist_hw_debug(struct rxb_model *m, unsigned int qi,
		     struct rxb_hw_debug *dbg);
void shlist_ring_append(struct rxb_model *m, struct shlist_ring *r,
			unsigned int qi, u32 first, u32 last, u32 n);
void shlist_ring_arm_rest(struct rxb_model *m, struct shlist_ring *r,
			  u32 mask, unsigned int qi);
u64 *shlist_ring_xstats(struct rxb_model *m, unsigned int g, u64 *vals,
			struct rxb_hw_debug *dbg);

#endif /* _RXB_SHRING_LIST_H */
