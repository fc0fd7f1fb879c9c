// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, array variant (RxArr): queues share Rx descriptor rings (thesis
 * sections 5.1.2 and 5.1.3, Listing 5.1, Figure 5.1).
 *
 * Queues are grouped by the share factor; each group shares one Rx ring of
 * ring_size descriptors with one tail doorbell, and each queue keeps its own
 * completion ring (CR).  The NIC takes the descriptor at the shared head in
 * array order and writes the CR entry to the queue RSS chose, so queues
 * receive without synchronising.  Reposting is shared: a queue re-arms each
 * consumed descriptor in place with a buffer from its own pool and marks it
 * in the group's bitmap; the tail may only pass a descriptor once every
 * earlier one was reposted too, so under the ring's lock the queue moves the
 * tail over the run of marked descriptors that starts at it.  A descriptor
 * that is ready before an earlier one waits ("held back"): a queue that
 * falls behind holds the others' reposts and can starve them (section
 * 5.1.1, pathological core overload).  The I/O working set is one ring per
 * group instead of one per queue.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
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

/* Counters of one shared ring, written under its driver lock. */
struct shring_rstats {
	u64 reposts;		/* descriptors re-armed by a queue's poll */
	u64 bitmap_atomics;	/* atomic bitmap updates: sets and clears */
	u64 tail_advances;	/* lock sessions that moved the tail */
	u64 tail_advance_len;	/* descriptors the tail moved over */
	u64 held_back;		/* reposted descriptors the tail could not
				 * pass in their own session: an earlier one
				 * was still out
				 */
};

#define SHRING_RING_XSTATS	8	/* the above, lock_stats, posted */
#define SHRING_Q_XSTATS		1	/* nobuf_victim_drops */

struct shring_ring {
	/* Ring memory and doorbell, read and written by both NIC and driver. */
	struct rxb_rx_desc *desc;
	struct rxb_shring_regs regs ____cacheline_aligned;

	/* NIC-internal state. */
	struct {
		spinlock_t lock;	/* the ring's pipeline stage */
		u32 rx_head;		/* next descriptor to take */
	} hw ____cacheline_aligned;

	/* Driver state shared by the group's queues. */
	struct {
		spinlock_t lock;	/* tail, bitmap clearing, doorbell */
		u32 rx_tail;		/* next descriptor to hand to the NIC */
		u32 armed;		/* slots >= armed never got a buffer */
		struct shring_lock_stats ls;
		struct shring_rstats st;
	} sw ____cacheline_aligned;

	/* Bit per slot: re-armed, not yet passed by the tail.  Any queue of
	 * the group sets bits (release); only the lock holder clears them.
	 */
	atomic_long_t *bitmap;
	/* Per slot: handle of the buffer posted there and the queue whose
	 * pool it came from.  Written by the queue that re-arms the slot
	 * before it marks the bitmap, read by the queue the packet in it is
	 * for; the mark, the doorbell and the CR entry order the two.
	 */
	void **cookie;
	u16 *pool_q;
};

struct shring_q {
	/* This queue's completion ring and its doorbell. */
	struct rxb_cqe *cq;
	struct rxb_cq_regs regs ____cacheline_aligned;

	/* NIC-internal state, under the ring's hw.lock. */
	struct {
		u32 cq_tail;		/* next CR entry to write */
		u64 victim_drops;	/* see shring_victim() */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		u32 cq_head;		/* next CR entry to read */
		bool starved;		/* the last poll stopped: no buffer */
		/* This poll's marks, for the held-back count: bits per
		 * bitmap word, and the words touched.
		 */
		unsigned long *mine;
		unsigned int *touched;
		unsigned int ntouched;
	} sw ____cacheline_aligned;
};

struct shring {
	struct rxb_model m;
	u32 mask;
	unsigned int order;
	unsigned int nrings;
	struct shring_ring *ring;
	struct shring_q *q;
};

static struct shring *to_shring(struct rxb_model *m)
{
	return container_of(m, struct shring, m);
}

static struct shring_ring *shring_ring_of(struct shring *sr, unsigned int qi)
{
	return &sr->ring[qi / sr->m.cfg.share_factor];
}

/* ---- NIC side ------------------------------------------------------- */

static int shring_hw_rx(struct rxb_model *m, unsigned int qi,
			const struct rxb_frame *f)
{
	struct shring *sr = to_shring(m);
	unsigned int g = qi / m->cfg.share_factor;
	struct shring_ring *r = &sr->ring[g];
	struct shring_q *q = &sr->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	const struct rxb_rx_desc *d;
	u32 slot, held;
	int err = 0;

	spin_lock(&r->hw.lock);
	held = q->hw.cq_tail - rxb_db_read(&q->regs.cq_head);
	if (rxb_db_read(&r->regs.rx_tail) == r->hw.rx_head) {
		rxb_stat_inc(&st->nobuf_drops);
		if (shring_victim(&m->cfg, g, held))
			rxb_stat_inc(&q->hw.victim_drops);
		err = -ENOBUFS;
		goto unlock;
	}
	if (held > sr->mask) {
		rxb_stat_inc(&st->ring_full_drops);
		err = -ENOSPC;
		goto unlock;
	}
	/* Strictly in array order: the NIC's contiguous descriptor prefetch. */
	slot = r->hw.rx_head & sr->mask;
	d = &r->desc[slot];
	if (f->len > le32_to_cpu(d->buf_len)) {
		rxb_stat_inc(&st->oversize_drops);
		err = -EMSGSIZE;
		goto unlock;
	}
	/* Read by the posted-descriptors counter without the lock. */
	WRITE_ONCE(r->hw.rx_head, r->hw.rx_head + 1);
	rxb_cq_deliver(m, qi, f, le64_to_cpu(d->buf_addr), q->cq, sr->mask,
		       sr->order, &q->hw.cq_tail, slot, g);
unlock:
	spin_unlock(&r->hw.lock);
	if (!err)
		m->cfg.env_ops->raise_irq(m->cfg.env, qi);
	return err;
}

/* ---- driver side (Listing 5.1) -------------------------------------- */

/* Mark the descriptors of @bits in bitmap word @word as reposted: one
 * atomic per word (Listing 5.1 lines 16-26, whose word-change test is
 * inverted in the thesis).
 */
static void shring_mark(struct shring_ring *r, struct shring_q *q,
			unsigned int word, unsigned long bits)
{
	/* Release: the descriptors re-armed and their cookie and pool
	 * shadows are visible to whoever sees the bits.  Pairs with the
	 * acquire in shring_advance().
	 */
	atomic_long_fetch_or_release(bits, &r->bitmap[word]);
	if (!q->sw.mine[word])
		q->sw.touched[q->sw.ntouched++] = word;
	q->sw.mine[word] |= bits;
}

/* Move the tail over the run of reposted descriptors that starts at it
 * (Listing 5.1 lines 30-35): find the first zero bit of each word and
 * clear the run with one atomic per word.  The run always ends: the slot
 * at the NIC's head is posted, so its bit is clear.  Under r->sw.lock;
 * returns how far the tail moved and counts the atomics in *@atomics.
 */
static u32 shring_advance(struct shring *sr, struct shring_ring *r,
			  u64 *atomics)
{
	u32 tail = r->sw.rx_tail, start = tail;

	for (;;) {
		u32 slot = tail & sr->mask;
		unsigned int off = slot % BITS_PER_LONG, len;
		atomic_long_t *w = &r->bitmap[slot / BITS_PER_LONG];
		unsigned long run;

		/* Acquire: pairs with the release in shring_mark() and
		 * shring_arm(), so the run's descriptors are re-armed
		 * before the doorbell hands them to the NIC.
		 */
		run = (unsigned long)atomic_long_read_acquire(w) >> off;
		if (!(run & 1))
			break;
		/* Only off == 0 can leave no zero bit in the shifted word. */
		len = ~run ? __ffs(~run) : BITS_PER_LONG;
		atomic_long_andnot(len == BITS_PER_LONG ? ~0UL :
				   (BIT(len) - 1) << off, w);
		(*atomics)++;
		tail += len;
	}
	r->sw.rx_tail = tail;
	return tail - start;
}

/* Give slots [r->sw.armed, ring_size) their first buffer, from the pools
 * of queues @first .. @first + @nq - 1 in turn, and mark them reposted.
 * Stops at the first allocation failure.  Under r->sw.lock, or before the
 * ring is in use.
 */
static void shring_arm(struct shring *sr, struct shring_ring *r,
		       unsigned int first, unsigned int nq)
{
	struct rxb_model *m = &sr->m;
	u32 slot = r->sw.armed;
	struct rxb_buf buf;

	for (; slot <= sr->mask; slot++) {
		unsigned int qi = first + slot % nq;

		if (m->cfg.env_ops->alloc_buf(m->cfg.env, qi, &buf)) {
			rxb_stat_inc(&m->qstats[qi].alloc_fails);
			break;
		}
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		rxb_rx_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		/* Release: as in shring_mark(), for another lock holder. */
		atomic_long_fetch_or_release(BIT(slot % BITS_PER_LONG),
					     &r->bitmap[slot / BITS_PER_LONG]);
		rxb_stat_inc(&m->qstats[qi].refills);
	}
	/* Read without the lock by shring_refill(). */
	WRITE_ONCE(r->sw.armed, slot);
}

/* Hand the tail's run to the NIC; under r->sw.lock.  Returns its length. */
static u32 shring_doorbell(struct shring *sr, struct shring_ring *r,
			   unsigned int qi)
{
	u64 atomics = 0;
	u32 adv = shring_advance(sr, r, &atomics);

	rxb_stat_add(&r->sw.st.bitmap_atomics, atomics);
	if (adv) {
		rxb_stat_inc(&r->sw.st.tail_advances);
		rxb_stat_add(&r->sw.st.tail_advance_len, adv);
		rxb_stat_inc(&sr->m.qstats[qi].doorbells);
		rxb_db_write(&r->regs.rx_tail, r->sw.rx_tail);
	}
	return adv;
}

/* Listing 5.1 lines 29-37: the shared part of reposting, under the lock. */
static void shring_repost(struct shring *sr, struct shring_ring *r,
			  unsigned int qi, u32 n, u64 atomics)
{
	struct shring_q *q = &sr->q[qi];
	u64 held = 0;
	unsigned int i, w;

	shring_lock(&r->sw.lock, &r->sw.ls);
	shring_doorbell(sr, r, qi);
	/* Our marks the tail did not reach wait for an earlier descriptor
	 * (a slot passed, taken again and marked by another queue within
	 * this poll would count too: rare, and only a statistic).
	 */
	for (i = 0; i < q->sw.ntouched; i++) {
		w = q->sw.touched[i];
		held += hweight_long((unsigned long)
				     atomic_long_read(&r->bitmap[w]) &
				     q->sw.mine[w]);
		q->sw.mine[w] = 0;
	}
	rxb_stat_add(&r->sw.st.reposts, n);
	rxb_stat_add(&r->sw.st.bitmap_atomics, atomics);
	rxb_stat_add(&r->sw.st.held_back, held);
	spin_unlock(&r->sw.lock);
	q->sw.ntouched = 0;
}

/* Slots create could not fill block the tail: fill them from @qi's pool. */
static void shring_arm_rest(struct shring *sr, struct shring_ring *r,
			    unsigned int qi)
{
	if (READ_ONCE(r->sw.armed) > sr->mask)
		return;
	shring_lock(&r->sw.lock, &r->sw.ls);
	shring_arm(sr, r, qi, 1);
	shring_doorbell(sr, r, qi);
	spin_unlock(&r->sw.lock);
}

static bool shring_refill(struct rxb_model *m, unsigned int qi)
{
	struct shring *sr = to_shring(m);
	struct shring_ring *r = shring_ring_of(sr, qi);

	shring_arm_rest(sr, r, qi);
	return !sr->q[qi].sw.starved && READ_ONCE(r->sw.armed) > sr->mask;
}

static int shring_poll(struct rxb_model *m, unsigned int qi,
		       struct rxb_pkt *pkts, int budget)
{
	struct shring *sr = to_shring(m);
	struct shring_ring *r = shring_ring_of(sr, qi);
	struct shring_q *q = &sr->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 head = q->sw.cq_head, slot;
	unsigned int word = 0;
	unsigned long bits = 0;
	struct rxb_buf buf;
	u64 bytes = 0, marks = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	q->sw.starved = false;
	while (n < budget) {
		const struct rxb_cqe *cqe = &q->cq[head & sr->mask];

		if (!rxb_cqe_ready(cqe, rxb_gen(head, sr->order)))
			break;
		/* Replace the buffer in place (lines 14-15).  Without a new
		 * one the entry stays in the CR until the next poll.
		 */
		if (m->cfg.env_ops->alloc_buf(m->cfg.env, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			q->sw.starved = true;
			break;
		}
		slot = rxb_cqe_read(cqe, &pkts[n]) & sr->mask;
		pkts[n].cookie = r->cookie[slot];
		pkts[n].pool_q = r->pool_q[slot];
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		rxb_rx_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		if (bits && slot / BITS_PER_LONG != word) {
			shring_mark(r, q, word, bits);
			marks++;
			bits = 0;
		}
		word = slot / BITS_PER_LONG;
		bits |= BIT(slot % BITS_PER_LONG);
		bytes += pkts[n].len;
		head++;
		n++;
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shring_arm_rest(sr, r, qi);
	if (!n)
		return 0;
	shring_mark(r, q, word, bits);
	marks++;
	WRITE_ONCE(q->sw.cq_head, head);
	rxb_db_write(&q->regs.cq_head, head);
	rxb_stat_add(&st->packets, n);
	rxb_stat_add(&st->bytes, bytes);
	rxb_stat_add(&st->refills, n);
	shring_repost(sr, r, qi, n, marks);
	return n;
}

static bool shring_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct shring *sr = to_shring(m);
	struct shring_q *q = &sr->q[qi];

	return rxb_cqe_ready(&q->cq[q->sw.cq_head & sr->mask],
			     rxb_gen(q->sw.cq_head, sr->order));
}

static void shring_ring_state(struct rxb_model *m, unsigned int qi,
			      struct rxb_ring_state *st)
{
	struct shring *sr = to_shring(m);
	struct shring_ring *r = shring_ring_of(sr, qi);
	struct shring_q *q = &sr->q[qi];

	st->size = sr->mask + 1;
	st->nic_head = READ_ONCE(q->hw.cq_tail);
	st->drv_tail = READ_ONCE(q->sw.cq_head);
	st->drv_gen = rxb_gen(st->drv_tail, sr->order);
	/* The shared ring's: every queue of the group may use them. */
	st->posted = READ_ONCE(r->regs.rx_tail) - READ_ONCE(r->hw.rx_head);
}

/* ---- setup ---------------------------------------------------------- */

static int shring_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	return shring_validate_share(cfg, msg);
}

static const char *shring_advise(const struct rxb_model_cfg *cfg)
{
	u64 ws = (u64)shring_nrings(cfg) * cfg->ring_size * cfg->buf_len;

	if (cfg->share_factor == 1)
		return "share factor 1: every ring is private, shRing only adds its lock";
	if (cfg->cache_bytes && ws > cfg->cache_bytes)
		return "rings * ring size * buffer size exceeds cache_kb (thesis 5.1.1)";
	return NULL;
}

static void shring_destroy(struct rxb_model *m)
{
	struct shring *sr = to_shring(m);
	unsigned int i;
	u32 slot;

	/* Every buffer a slot holds: posted, written but not polled, or
	 * reposted and waiting for the tail; each exactly once.
	 */
	for (i = 0; sr->ring && i < sr->nrings; i++) {
		struct shring_ring *r = &sr->ring[i];

		for (slot = 0; r->cookie && r->pool_q && slot <= sr->mask; slot++)
			if (r->cookie[slot])
				m->cfg.env_ops->free_buf(m->cfg.env,
							 r->pool_q[slot],
							 r->cookie[slot]);
		kvfree(r->desc);
		kvfree(r->bitmap);
		kvfree(r->cookie);
		kvfree(r->pool_q);
	}
	for (i = 0; sr->q && i < m->cfg.nqueues; i++) {
		kvfree(sr->q[i].cq);
		kfree(sr->q[i].sw.mine);
		kfree(sr->q[i].sw.touched);
	}
	kfree(sr->ring);
	kfree(sr->q);
	rxb_model_fini_common(m);
	kfree(sr);
}

static struct rxb_model *shring_create(const struct rxb_model_cfg *cfg)
{
	unsigned int i, words = cfg->ring_size / BITS_PER_LONG;
	struct shring *sr;
	int err;

	sr = kzalloc(sizeof(*sr), GFP_KERNEL);
	if (!sr)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(&sr->m, &rxb_shring_ops, cfg);
	if (err) {
		kfree(sr);
		return ERR_PTR(err);
	}
	sr->mask = cfg->ring_size - 1;
	sr->order = ilog2(cfg->ring_size);
	sr->nrings = shring_nrings(cfg);
	sr->ring = kcalloc(sr->nrings, sizeof(*sr->ring), GFP_KERNEL);
	sr->q = kcalloc(cfg->nqueues, sizeof(*sr->q), GFP_KERNEL);
	if (!sr->ring || !sr->q)
		goto nomem;
	for (i = 0; i < sr->nrings; i++) {
		struct shring_ring *r = &sr->ring[i];

		spin_lock_init(&r->hw.lock);
		spin_lock_init(&r->sw.lock);
		r->desc = kvcalloc(cfg->ring_size, sizeof(*r->desc), GFP_KERNEL);
		r->bitmap = kvcalloc(words, sizeof(*r->bitmap), GFP_KERNEL);
		r->cookie = kvcalloc(cfg->ring_size, sizeof(void *), GFP_KERNEL);
		r->pool_q = kvcalloc(cfg->ring_size, sizeof(u16), GFP_KERNEL);
		if (!r->desc || !r->bitmap || !r->cookie || !r->pool_q)
			goto nomem;
	}
	for (i = 0; i < cfg->nqueues; i++) {
		struct shring_q *q = &sr->q[i];

		q->cq = kvcalloc(cfg->ring_size, sizeof(*q->cq), GFP_KERNEL);
		q->sw.mine = kcalloc(words, sizeof(*q->sw.mine), GFP_KERNEL);
		q->sw.touched = kcalloc(words, sizeof(*q->sw.touched),
					GFP_KERNEL);
		if (!q->cq || !q->sw.mine || !q->sw.touched)
			goto nomem;
	}
	/* Each queue's pool supplies its share of the ring; slots left
	 * empty are filled by the group's next refill.
	 */
	for (i = 0; i < sr->nrings; i++) {
		struct shring_ring *r = &sr->ring[i];
		unsigned int first = i * cfg->share_factor;

		shring_arm(sr, r, first, shring_group_size(cfg, i));
		shring_doorbell(sr, r, first);
	}
	return &sr->m;

nomem:
	shring_destroy(&sr->m);
	return ERR_PTR(-ENOMEM);
}

/* ---- counters ------------------------------------------------------- */

static const char * const shring_ring_xstat_names[SHRING_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "bitmap_atomics",
	"tail_advances", "tail_advance_len", "held_back", "posted",
};

static unsigned int shring_xstats_count(struct rxb_model *m)
{
	return to_shring(m)->nrings * SHRING_RING_XSTATS +
	       m->cfg.nqueues * SHRING_Q_XSTATS;
}

static void shring_xstats_names(struct rxb_model *m, char *names)
{
	struct shring *sr = to_shring(m);
	unsigned int i, j;

	for (i = 0; i < sr->nrings; i++)
		for (j = 0; j < SHRING_RING_XSTATS; j++) {
			snprintf(names, RXB_STAT_NAME_LEN, "ring%u_%s", i,
				 shring_ring_xstat_names[j]);
			names += RXB_STAT_NAME_LEN;
		}
	for (i = 0; i < m->cfg.nqueues; i++) {
		snprintf(names, RXB_STAT_NAME_LEN, "rx%u_nobuf_victim_drops", i);
		names += RXB_STAT_NAME_LEN;
	}
}

static void shring_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shring *sr = to_shring(m);
	unsigned int i;

	for (i = 0; i < sr->nrings; i++) {
		const struct shring_ring *r = &sr->ring[i];

		*vals++ = READ_ONCE(r->sw.st.reposts);
		*vals++ = READ_ONCE(r->sw.ls.acquired);
		*vals++ = READ_ONCE(r->sw.ls.contended);
		*vals++ = READ_ONCE(r->sw.st.bitmap_atomics);
		*vals++ = READ_ONCE(r->sw.st.tail_advances);
		*vals++ = READ_ONCE(r->sw.st.tail_advance_len);
		*vals++ = READ_ONCE(r->sw.st.held_back);
		/* Descriptors the NIC may take now. */
		*vals++ = (u32)(READ_ONCE(r->regs.rx_tail) -
				READ_ONCE(r->hw.rx_head));
	}
	for (i = 0; i < m->cfg.nqueues; i++)
		*vals++ = READ_ONCE(sr->q[i].hw.victim_drops);
}

const struct rxb_model_ops rxb_shring_ops = {
	.name		= "shring",
	.create		= shring_create,
	.destroy	= shring_destroy,
	.hw_rx		= shring_hw_rx,
	.poll		= shring_poll,
	.refill		= shring_refill,
	.rx_pending	= shring_rx_pending,
	.validate	= shring_validate,
	.advise		= shring_advise,
	.ring_state	= shring_ring_state,
	.xstats_count	= shring_xstats_count,
	.xstats_names	= shring_xstats_names,
	.xstats_values	= shring_xstats_values,
};
