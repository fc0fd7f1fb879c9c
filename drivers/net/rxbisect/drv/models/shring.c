// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, array variant (RxArr), the driver's half: queues share Rx
 * descriptor rings (thesis sections 5.1.2 and 5.1.3, Listing 5.1, Figure
 * 5.1).  Registers: rxb_desc.h's shRing section.
 *
 * Queues are grouped by the share factor; each group shares one Rx ring of
 * ring_size descriptors with one tail register, and each queue keeps its
 * own completion ring (CR): queues receive without synchronising.
 * Reposting is shared: a queue re-arms each consumed descriptor in place
 * with a buffer from its own pool and marks it in the group's bitmap; the
 * tail may only pass a descriptor once every earlier one was reposted too,
 * so under the ring's lock the queue moves the tail over the run of marked
 * descriptors that starts at it.  A descriptor that is ready before an
 * earlier one waits ("held back"): a queue that falls behind holds the
 * others' reposts and can starve them (section 5.1.1, pathological core
 * overload).  The I/O working set is one ring per group instead of one per
 * queue.
 *
 * Also the base every shRing driver half builds on (shring.h).
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_shring.h>
#include "drv_ring.h"
#include "shring.h"

/* ---- the base of the shRing driver halves (shring.h) ---------------- */

/* Shared ring @g's head: the rings are the second table of the variant's
 * layout (struct shring_base).
 */
static struct shring_ring_head *shring_head(struct rxb_model *m,
					    unsigned int g)
{
	const struct rxb_table *t = &m->ops->layout->tables[1];
	u8 *rings = *(u8 **)((u8 *)m + t->off);

	return (struct shring_ring_head *)(rings + g * t->size);
}

/**
 * shring_base_fini() - fini() of every shRing driver half: give back every
 *	buffer the shared rings' slots hold, and free the descriptor arrays
 *	and the queues' completion rings.
 * @m: the instance; the NIC's context is disabled, no poll runs.
 *
 * Posted, taken, written but not polled, or re-armed and waiting for the
 * tail: a slot holds each buffer exactly once.
 */
void shring_base_fini(struct rxb_model *m)
{
	struct shring_base *sb = to_shring_base(m);
	unsigned int g, qi;
	u32 slot;

	for (g = 0; g < sb->nrings; g++) {
		struct shring_ring_head *h = shring_head(m, g);

		for (slot = 0; h->cookie && slot < m->cfg.ring_size; slot++)
			if (h->cookie[slot])
				rxb_drv_free_buf(m, h->pool_q[slot],
						 h->cookie[slot]);
		rxb_ring_mem_free(m, &h->desc_mem);
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		rxb_cring_free(m, &sb->q[qi].cr);
}

/**
 * shring_base_init() - set up a shRing driver half's base: allocate its
 *	queues' completion rings and its shared rings' descriptor arrays,
 *	and program their base registers.
 * @m: the instance; its layout's instance starts with struct shring_base.
 * @desc_size: bytes of a shared ring's descriptor.
 * @ring_xstat_names: names of each shared ring's counters.
 * @ring_xstats: entries of @ring_xstat_names.
 *
 * Return: 0, or -ENOMEM.
 */
int shring_base_init(struct rxb_model *m, size_t desc_size,
		     const char *const *ring_xstat_names,
		     unsigned int ring_xstats)
{
	struct shring_base *sb = to_shring_base(m);
	unsigned int g, qi;

	sb->mask = m->cfg.ring_size - 1;
	sb->nrings = rxb_shring_nrings(&m->cfg);
	sb->ring_xstat_names = ring_xstat_names;
	sb->ring_xstats = ring_xstats;
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct shring_q *q = &sb->q[qi];

		q->regs = rxb_shring_cq_regs(&m->bar, qi);
		if (rxb_cring_alloc(m, qi, &q->cr, m->cfg.ring_size,
				    &q->regs->cq_base, &q->regs->cq_head))
			return -ENOMEM;
	}
	for (g = 0; g < sb->nrings; g++) {
		struct shring_ring_head *h = shring_head(m, g);

		spin_lock_init(&h->lock);
		h->regs = rxb_shring_ring_regs(&m->bar, g);
		if (rxb_ring_mem_alloc(m, &h->desc_mem,
				       m->cfg.ring_size * desc_size))
			return -ENOMEM;
		rxb_reg_base(m, g * m->cfg.share_factor, &h->regs->rx_base,
			     h->desc_mem.addr);
	}
	return 0;
}

/**
 * shring_nic_debug_fill() - the NIC's debug registers of queue @qi and of
 *	its shared ring.
 * @m: the instance.
 * @qi: the queue.
 * @dbg: its CR's tail and the ring's takes filled in, not posted.
 *
 * Return: the ring's tail register, as the driver last wrote it, less the
 * takes.
 */
u32 shring_nic_debug_fill(struct rxb_model *m, unsigned int qi,
			  struct rxb_hw_debug *dbg)
{
	unsigned int g = rxb_shring_group(&m->cfg, qi);

	dbg->cq_tail = READ_ONCE(rxb_bar_qdebug(&m->bar, qi)->cq_tail);
	/* The shared ring's: every queue of the group may use them. */
	dbg->taken = READ_ONCE(rxb_shring_ring_debug(&m->bar, g)->taken);
	return READ_ONCE(rxb_shring_ring_regs(&m->bar, g)->rx_tail) -
	       dbg->taken;
}

/**
 * shring_ring_state() - ring_state() of every shRing model.
 * @m: the instance.
 * @qi: the queue.
 * @st: filled with the driver's view of its CR.
 */
void shring_ring_state(struct rxb_model *m, unsigned int qi,
		       struct rxb_ring_state *st)
{
	struct shring_q *q = &to_shring_base(m)->q[qi];

	rxb_cring_state(&q->cr, &q->cq_head, st);
}

/**
 * shring_rx_pending() - rx_pending() of every shRing model.
 * @m: the instance.
 * @qi: the queue.
 *
 * Return: true if @qi's CR has an entry to read.
 */
bool shring_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct shring_q *q = &to_shring_base(m)->q[qi];

	return rxb_cring_pending(&q->cr, q->cq_head);
}

/**
 * shring_validate() - validate() of the RxArr and RxList models: the
 *	share factor.
 * @cfg: the configuration.
 * @msg: set to a static explanation on error.
 *
 * The driver clamps the share_factor parameter to the queue count; a
 * configuration handed to a model must already be in range.
 *
 * Return: 0 or -EINVAL.
 */
int shring_validate(const struct rxb_model_cfg *cfg, const char **msg)
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
 * shring_xstats_count() - xstats_count() of every shRing model.
 * @m: the instance.
 *
 * Return: the shared rings' counters and one victim counter per queue.
 */
unsigned int shring_xstats_count(struct rxb_model *m)
{
	struct shring_base *sb = to_shring_base(m);

	return sb->nrings * sb->ring_xstats + m->cfg.nqueues;
}

/**
 * shring_xstats_names() - xstats_names() of every shRing model.
 * @m: the instance.
 * @names: filled with "ring<g>_<name>" per shared ring, then
 *	"rx<q>_nobuf_victim_drops" per queue.
 */
void shring_xstats_names(struct rxb_model *m, char *names)
{
	static const char * const victim[] = { "nobuf_victim_drops" };
	struct shring_base *sb = to_shring_base(m);

	names = rxb_xstats_names_fill(names, "ring", sb->nrings,
				      sb->ring_xstat_names, sb->ring_xstats);
	rxb_xstats_names_fill(names, "rx", m->cfg.nqueues, victim, 1);
}

/**
 * shring_xstats_victims() - the queues' victim drops, after the variant's
 *	ring counters in xstats_values().
 * @m: the instance.
 * @vals: one value per queue is stored here.
 */
void shring_xstats_victims(struct rxb_model *m, u64 *vals)
{
	unsigned int qi;

	/* Counters the NIC writes: its statistics registers. */
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		*vals++ = READ_ONCE(rxb_shring_qstats(&m->bar, qi)->nobuf_victim_drops);
}

/* ---- RxArr ------------------------------------------------------------ */

/* Counters of one shared ring, written under its lock. */
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

/**
 * struct shring_ring - the driver's state of one RxArr shared ring.
 * @h: what every shared ring has.  Its lock guards the tail, bitmap
 *	clearing and the doorbell, shared by the group's queues.  A slot's
 *	pool_q is written with its cookie by the queue that re-arms the slot
 *	before it marks the bitmap, read by the queue the packet in it is
 *	for; the mark, the doorbell and the CR entry order the two.
 * @desc: the descriptor array, in @h.desc_mem.
 * @rx_tail: next descriptor to hand to the NIC.
 * @armed: slots >= @armed never got a buffer.
 * @ls: @h.lock's counters.
 * @st: the ring's counters, under @h.lock.
 * @bitmap: bit per slot: re-armed, not yet passed by the tail.  Any queue
 *	of the group sets bits (release); only the lock holder clears them.
 */
struct shring_ring {
	struct shring_ring_head h;
	struct rxb_rx_desc *desc;
	u32 rx_tail;
	u32 armed;
	struct shring_lock_stats ls;
	struct shring_rstats st;
	atomic_long_t *bitmap;
} ____cacheline_aligned;

shring_ring_first(struct shring_ring);

struct shring {
	struct shring_base b;
	struct shring_ring *ring;
};

#define to_shring(mp)		container_of(mp, struct shring, b.m)

static struct shring_ring *shring_ring_of(struct shring *sr, unsigned int qi)
{
	return &sr->ring[rxb_shring_group(&sr->b.m.cfg, qi)];
}

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
	if (!q->mine[word])
		q->touched[q->ntouched++] = word;
	q->mine[word] |= bits;
}

/* Move the tail over the run of reposted descriptors that starts at it
 * (Listing 5.1 lines 30-35): find the first zero bit of each word and
 * clear the run with one atomic per word.  The run always ends: the slot
 * at the NIC's head is posted, so its bit is clear.  Under r->h.lock;
 * returns how far the tail moved and counts the atomics in *@atomics.
 */
static u32 shring_advance(struct shring *sr, struct shring_ring *r,
			  u64 *atomics)
{
	u32 tail = r->rx_tail, start = tail;

	for (;;) {
		u32 slot = tail & sr->b.mask;
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
	r->rx_tail = tail;
	return tail - start;
}

/* Give slots [r->armed, ring_size) their first buffer, from the pools of
 * queues @first .. @first + @nq - 1 in turn, and mark them reposted.
 * Stops at the first allocation failure.  Under r->h.lock, or before the
 * ring is in use.
 */
static void shring_arm(struct shring *sr, struct shring_ring *r,
		       unsigned int first, unsigned int nq)
{
	struct rxb_model *m = &sr->b.m;
	u32 slot = r->armed;
	struct rxb_buf buf;

	for (; slot <= sr->b.mask; slot++) {
		if (!shring_arm_slot(m, r->h.cookie, r->h.pool_q, slot,
				     first + slot % nq, &buf))
			break;
		rxb_rx_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		/* Release: as in shring_mark(), for another lock holder. */
		atomic_long_fetch_or_release(BIT(slot % BITS_PER_LONG),
					     &r->bitmap[slot / BITS_PER_LONG]);
	}
	/* Read without the lock by shring_refill(). */
	WRITE_ONCE(r->armed, slot);
}

/* Hand the tail's run to the NIC; under r->h.lock.  Returns its length. */
static u32 shring_doorbell(struct shring *sr, struct shring_ring *r,
			   unsigned int qi)
{
	u64 atomics = 0;
	u32 adv = shring_advance(sr, r, &atomics);

	rxb_stat_add(&r->st.bitmap_atomics, atomics);
	if (adv) {
		rxb_stat_inc(&r->st.tail_advances);
		rxb_stat_add(&r->st.tail_advance_len, adv);
		rxb_stat_inc(&sr->b.m.qstats[qi].doorbells);
		/* Release: the run's descriptors before the tail.  Pairs
		 * with the acquire of the NIC's read in shring_rx().
		 */
		rxb_db_ring(&sr->b.m, qi, &r->h.regs->rx_tail, r->rx_tail);
	}
	return adv;
}

/* Listing 5.1 lines 29-37: the shared part of reposting, under the lock. */
static void shring_repost(struct shring *sr, struct shring_ring *r,
			  unsigned int qi, u32 n, u64 atomics)
{
	struct shring_q *q = &sr->b.q[qi];
	u64 held = 0;
	unsigned int i, w;

	shring_lock(&r->h.lock, &r->ls);
	shring_doorbell(sr, r, qi);
	/* Our marks the tail did not reach wait for an earlier descriptor
	 * (a slot passed, taken again and marked by another queue within
	 * this poll would count too: rare, and only a statistic).
	 */
	for (i = 0; i < q->ntouched; i++) {
		w = q->touched[i];
		held += hweight_long((unsigned long)
				     atomic_long_read(&r->bitmap[w]) &
				     q->mine[w]);
		q->mine[w] = 0;
	}
	rxb_stat_add(&r->st.reposts, n);
	rxb_stat_add(&r->st.bitmap_atomics, atomics);
	rxb_stat_add(&r->st.held_back, held);
	spin_unlock(&r->h.lock);
	q->ntouched = 0;
}

/* Slots create could not fill block the tail: fill them from @qi's pool. */
static void shring_arm_rest(struct shring *sr, struct shring_ring *r,
			    unsigned int qi)
{
	if (READ_ONCE(r->armed) > sr->b.mask)
		return;
	shring_lock(&r->h.lock, &r->ls);
	shring_arm(sr, r, qi, 1);
	shring_doorbell(sr, r, qi);
	spin_unlock(&r->h.lock);
}

static int shring_poll(struct rxb_model *m, unsigned int qi,
		       struct rxb_pkt *pkts, int budget)
{
	struct shring *sr = to_shring(m);
	struct shring_ring *r = shring_ring_of(sr, qi);
	struct shring_walk w;
	unsigned int word = 0;
	unsigned long bits = 0;
	struct rxb_buf buf;
	u64 marks = 0;
	int slot;

	shring_walk_begin(&w, &sr->b, qi, &r->h, pkts, budget);
	/* Lines 14-15: replace each buffer in place. */
	while ((slot = shring_walk_next(&w, &buf)) >= 0) {
		rxb_rx_desc_post(&r->desc[slot], buf.addr, m->cfg.buf_len);
		if (bits && slot / BITS_PER_LONG != word) {
			shring_mark(r, w.q, word, bits);
			marks++;
			bits = 0;
		}
		word = slot / BITS_PER_LONG;
		bits |= BIT(slot % BITS_PER_LONG);
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shring_arm_rest(sr, r, qi);
	if (!w.n)
		return 0;
	shring_mark(r, w.q, word, bits);
	marks++;
	shring_walk_done(&w);
	shring_repost(sr, r, qi, w.n, marks);
	return w.n;
}

static bool shring_refill(struct rxb_model *m, unsigned int qi)
{
	struct shring *sr = to_shring(m);
	struct shring_ring *r = shring_ring_of(sr, qi);

	shring_arm_rest(sr, r, qi);
	return !sr->b.q[qi].starved && READ_ONCE(r->armed) > sr->b.mask;
}

static void shring_nic_debug(struct rxb_model *m, unsigned int qi,
			     struct rxb_hw_debug *dbg)
{
	dbg->posted = shring_nic_debug_fill(m, qi, dbg);
}

static const struct rxb_layout shring_layout = {
	.size = sizeof(struct shring),
	.tables = {
		SHRING_Q_TABLE(struct shring,
			       RXB_ARRAY(struct shring_q, mine, unsigned long,
					 RXB_ARR_RING_BITS),
			       RXB_ARRAY(struct shring_q, touched, unsigned int,
					 RXB_ARR_RING_BITS)),
		SHRING_RING_TABLE(struct shring, struct shring_ring,
				  RXB_ARRAY(struct shring_ring, bitmap,
					    atomic_long_t, RXB_ARR_RING_BITS)),
	},
};

static const char *shring_advise(const struct rxb_model_cfg *cfg)
{
	u64 ws = (u64)rxb_shring_nrings(cfg) * cfg->ring_size * cfg->buf_len;

	if (cfg->share_factor == 1)
		return "share factor 1: every ring is private, shRing only adds its lock";
	if (cfg->cache_bytes && ws > cfg->cache_bytes)
		return "rings * ring size * buffer size exceeds cache_kb (thesis 5.1.1)";
	return NULL;
}

static const char * const shring_ring_xstat_names[SHRING_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "bitmap_atomics",
	"tail_advances", "tail_advance_len", "held_back", "posted",
};

static int shring_init(struct rxb_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct shring *sr = to_shring(m);
	unsigned int i;

	if (shring_base_init(m, sizeof(*sr->ring->desc),
			     shring_ring_xstat_names, SHRING_RING_XSTATS))
		return -ENOMEM;
	/* Each queue's pool supplies its share of the ring; slots left
	 * empty are filled by the group's next refill.
	 */
	for (i = 0; i < sr->b.nrings; i++) {
		struct shring_ring *r = &sr->ring[i];
		unsigned int first = i * cfg->share_factor;

		r->desc = r->h.desc_mem.va;
		shring_arm(sr, r, first, rxb_shring_group_size(cfg, i));
		shring_doorbell(sr, r, first);
	}
	return 0;
}

/* The u64 counters of a ring, in shring_ring_xstat_names order. */
#define SHRING_RSTAT(f)	offsetof(struct shring_ring, f)
static const u16 shring_rstat_off[SHRING_RING_XSTATS - 1] = {
	SHRING_RSTAT(st.reposts), SHRING_RSTAT(ls.acquired),
	SHRING_RSTAT(ls.contended), SHRING_RSTAT(st.bitmap_atomics),
	SHRING_RSTAT(st.tail_advances), SHRING_RSTAT(st.tail_advance_len),
	SHRING_RSTAT(st.held_back),
};

static void shring_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shring *sr = to_shring(m);
	struct rxb_hw_debug dbg;
	unsigned int i;

	for (i = 0; i < sr->b.nrings; i++) {
		vals = rxb_stats_read(vals, &sr->ring[i], shring_rstat_off,
				      ARRAY_SIZE(shring_rstat_off));
		/* posted: descriptors the NIC may take now, from its debug
		 * registers.
		 */
		shring_nic_debug(m, i * m->cfg.share_factor, &dbg);
		*vals++ = dbg.posted;
	}
	shring_xstats_victims(m, vals);
}

const struct rxb_model_ops rxb_shring_ops = {
	SHRING_OPS("shring", rxb_shring_hw_ops, shring_layout, shring,
		   shring_xstats_values),
	.validate	= shring_validate,
	.advise		= shring_advise,
	.nic_debug	= shring_nic_debug,
};
