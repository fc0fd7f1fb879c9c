// SPDX-License-Identifier: GPL-2.0
/*
 * COREC, the driver's half: one receive queue consumed by several cores at
 * once, lock-free (Faltelli et al., "COREC: Concurrent Non-Blocking
 * Single-Queue Receive Driver for Low Latency Networking", section 3.4,
 * Listing 2).  Registers: the COREC section of rxb_desc.h; groups:
 * include/rxbisect/rxb_corec.h.
 *
 * The NIC is unmodified (hw/models/corec.c): each shared queue is one Rx
 * descriptor ring, one completion ring (CR) and one tail doorbell, used as
 * privRing's are.  The queues of a group of corec_consumers consecutive
 * queues (all by default) are its consumers: each is a NAPI context on its
 * own CPU with its own vector.  The consumers of a shared queue allocate
 * from one page_pool, as the paper's threads take buffers from the
 * queue's one mempool (Listing 2 lines 17 and 24).  The paper is silent on
 * how threads share it; we chose what DPDK's mempool does with its
 * per-lcore caches: each consumer keeps a stash of fresh buffers, topped
 * up from the pool under a lock once a poll (page_pool's cache is
 * single-consumer), and takes back the buffers its poll drops
 * (rxb_model_ops.recycle).  So the buffers in circulation are one ring's
 * and a stash per consumer, whichever consumer takes which completion.
 *
 * A consumer reads the shared transaction ID (a free-running 32-bit CR
 * index: section 3.4.3, Table 1, its epochs rule out ABA), counts the
 * completions ready after it and claims them with one compare-and-swap.
 * The winner hands the packets up, puts one of its stash's fresh buffers
 * in each slot and sets the batch's READ_DONE bits.  Whoever then wins a
 * trylock returns the contiguous run of done descriptors at the tail to
 * the NIC, clears their bits and rings the doorbells (section 3.4.2: the
 * NIC must see one in-order consumer).
 * A loser of either race leaves without waiting; the lock holder looks at
 * the done bits again after unlocking, so a batch marked done by a
 * consumer that lost the trylock is not left behind.  All of this state
 * (ID, bits, tail, shadows) is the driver's, in host memory: the NIC sees
 * only the descriptors and the two registers.
 *
 * A consumer delayed between claim and done holds the tail (section
 * 3.4.4): the others go on for up to a ring, then the NIC runs out of
 * descriptors.  Holds are counted and timed (ringN_tail_held*).
 *
 * Packets of one flow may be handed to several cores at once and reach
 * the stack out of order: COREC trades per-flow order for load balance.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_corec.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include "drv_ring.h"
#include "corec.h"

/* Per-consumer counters, written by the consumer's poll context only. */
struct corec_cxstats {
	u64 batches;		/* claims won */
	u64 claimed;		/* completions claimed */
	u64 cas_fails;		/* claims lost to another consumer */
	u64 trylock_fails;	/* tail lock found taken */
};

#define COREC_CXSTATS	4

/* Per-shared-queue counters of the tail, written under the tail lock. */
struct corec_txstats {
	u64 advances;		/* tail moves (doorbells) */
	u64 held;		/* holds: a done batch behind an unfinished one */
	u64 held_ns;		/* total time of finished holds */
	u64 held_max_ns;	/* longest hold */
};

#define COREC_RXSTATS	6	/* the above, consumers, nobuf_drops */

struct corec_ring {
	/* Ring memory, shared with the NIC, and its registers. */
	struct rxb_rx_desc *desc;	/* the Rx ring, in @desc_mem */
	struct rxb_ring_mem desc_mem;
	struct rxb_cring cr;
	struct rxb_rxq_regs *regs;	/* in the page of queue @first */
	const struct rxb_corec_qstats_regs *st;	/* the NIC's counters */

	/* Driver state shared by the consumers, per slot. */
	atomic_long_t *done;	/* READ_DONE bitmap, by CR slot */
	void **cookie;		/* buffer handle per descriptor slot */

	/* Set at create, read-only: the consumer group, the queues whose
	 * vectors the NIC raises for this shared queue.
	 */
	unsigned int first;	/* consumers: queues first .. first + n - 1 */
	unsigned int n;

	/* The consumers' page_pool (queue @first's, rxb_model_ops.pool_of):
	 * every allocation from it, by any consumer, holds this lock.
	 */
	spinlock_t pool_lock;

	/* Transaction ID: next CR entry to claim.  Alone: every consumer
	 * compares-and-swaps it.
	 */
	u32 claim ____cacheline_aligned;

	/* Tail: under lock (Listing 2 line 35); read locklessly where noted. */
	struct {
		spinlock_t lock;	/* the tail's trylock (line 35) */
		u32 tail;		/* first CR entry not returned */
		u32 post;		/* descriptors posted up to here */
		u32 empty;		/* slots never posted (create ran short) */
		bool held;		/* a hold is being timed */
		u32 held_at;		/* tail index the hold started at */
		u64 held_since;
		struct corec_txstats xs;
	} tl ____cacheline_aligned;
};

struct corec_consumer {
	struct rxb_buf stash[RXB_COREC_BATCH];	/* fresh buffers, ring's pool */
	unsigned int nstash;
	struct corec_cxstats xs;
} ____cacheline_aligned;

struct corec {
	struct rxb_model m;
	u32 mask;
	unsigned int group;	/* consumers per shared queue */
	unsigned int nrings;
	struct corec_ring *r;
	struct corec_consumer *c;
};

#define to_corec(mp)		container_of(mp, struct corec, m)

static struct corec_ring *corec_ring_of(struct corec *cr, unsigned int q)
{
	return &cr->r[q / cr->group];
}

/* ---- READ_DONE bitmap ------------------------------------------------ */

/* Bits of @n entries from index @id within one word, and that word. */
static unsigned long corec_bits(struct corec *cr, u32 id, u32 n,
				unsigned int *word)
{
	u32 slot = id & cr->mask, bit = slot % BITS_PER_LONG;

	*word = slot / BITS_PER_LONG;
	n = min_t(u32, n, BITS_PER_LONG - bit);
	return (n == BITS_PER_LONG ? ~0UL : (1UL << n) - 1) << bit;
}

/* Is the entry at index @id marked done? */
static bool corec_done_at(struct corec *cr, struct corec_ring *r, u32 id)
{
	u32 slot = id & cr->mask;

	/* Acquire: pairs with the fully ordered fetch_or in rxb_corec_done(). */
	return atomic_long_read_acquire(&r->done[slot / BITS_PER_LONG]) &
	       BIT(slot % BITS_PER_LONG);
}

/* Length of the run of done entries from index @id (at most a ring). */
static u32 corec_done_run(struct corec *cr, struct corec_ring *r, u32 id)
{
	u32 run = 0;

	while (run <= cr->mask) {
		u32 slot = (id + run) & cr->mask, bit = slot % BITS_PER_LONG;
		unsigned long w;
		u32 n;

		/* Acquire: pairs with the fully ordered fetch_or in
		 * rxb_corec_done(): the winner's descriptor and shadow writes
		 * are visible before they are posted to the NIC.
		 */
		w = atomic_long_read_acquire(&r->done[slot / BITS_PER_LONG]);
		w >>= bit;
		n = ~w ? __ffs(~w) : BITS_PER_LONG;
		run += n;
		if (n < BITS_PER_LONG - bit)
			break;
	}
	return min_t(u32, run, cr->mask + 1);
}

/* ---- the tail (Listing 2 lines 35-43) -------------------------------- */

/* Advance the post index over slots that hold a buffer.  Under tl.lock. */
static void corec_post(struct corec *cr, struct corec_ring *r)
{
	u32 end = r->tl.tail + cr->mask + 1;

	if (!r->tl.empty) {
		r->tl.post = end;
		return;
	}
	while (r->tl.post != end && r->cookie[r->tl.post & cr->mask])
		r->tl.post++;
}

/* Return the done run at the tail to the NIC, and start or end a tail
 * hold.  @stuck: the caller's batch (or NULL) may be blocked by an
 * unfinished batch at the tail.  Under tl.lock.
 */
static void corec_advance(struct corec *cr, struct corec_ring *r,
			  unsigned int qi, const struct rxb_corec_batch *stuck)
{
	u32 tail = r->tl.tail, run, left, id;
	struct corec_txstats *xs = &r->tl.xs;

	run = corec_done_run(cr, r, tail);
	if (run) {
		/* Listing 2 line 39: clear the bits first, so the next epoch
		 * of these slots starts clean; ordered before the doorbell's
		 * release.
		 */
		for (id = tail, left = run; left; ) {
			unsigned int word;
			unsigned long bits = corec_bits(cr, id, left, &word);

			atomic_long_andnot(bits, &r->done[word]);
			id += hweight_long(bits);
			left -= hweight_long(bits);
		}
		tail += run;
		WRITE_ONCE(r->tl.tail, tail);
		corec_post(cr, r);
		/* cq_head before rx_tail, both with release: a NIC that reads
		 * the new rx_tail (first, with acquire, in corec_rx() of
		 * hw/models/corec.c) then reads the new cq_head.
		 */
		rxb_db_ring(&cr->m, qi, &r->regs->cq_head, tail);
		rxb_db_ring(&cr->m, qi, &r->regs->rx_tail, r->tl.post);
		rxb_stat_inc(&cr->m.qstats[qi].doorbells);
		rxb_stat_inc(&xs->advances);
		if (r->tl.held && (s32)(tail - r->tl.held_at) > 0) {
			u64 ns = rxb_drv_now_ns(&cr->m) - r->tl.held_since;

			rxb_stat_add(&xs->held_ns, ns);
			if (ns > xs->held_max_ns)
				WRITE_ONCE(xs->held_max_ns, ns);
			WRITE_ONCE(r->tl.held, false);
		}
	}
	/* Section 3.4.4: a done batch waits behind an unfinished one. */
	if (stuck && !r->tl.held && (s32)(stuck->id - tail) > 0 &&
	    !corec_done_at(cr, r, tail)) {
		r->tl.held_at = tail;
		WRITE_ONCE(r->tl.held_since, rxb_drv_now_ns(&cr->m));
		WRITE_ONCE(r->tl.held, true);
		rxb_stat_inc(&xs->held);
	}
}

void rxb_corec_tail(struct rxb_model *m, unsigned int qi,
		    const struct rxb_corec_batch *b)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	const struct rxb_corec_batch *stuck = b;

	for (;;) {
		u32 tail = READ_ONCE(r->tl.tail);

		/* Nothing to return, and no hold to start (or one is on). */
		if (!corec_done_at(cr, r, tail) &&
		    !(stuck && (s32)(stuck->id - tail) > 0 &&
		      !READ_ONCE(r->tl.held)))
			return;
		/* Listing 2 line 35.  The failed trylock reads the lock after
		 * our done bits were set with a fully ordered RMW (pairs with
		 * smp_mb() below in the holder): the holder sees them.
		 */
		if (!spin_trylock(&r->tl.lock)) {
			rxb_stat_inc(&cr->c[qi].xs.trylock_fails);
			return;
		}
		corec_advance(cr, r, qi, stuck);
		spin_unlock(&r->tl.lock);
		/* Done bits set while we held the lock by consumers whose
		 * trylock failed are ours to return: order the unlock before
		 * reading them again.  Pairs with the fully ordered
		 * atomic_long_fetch_or() in rxb_corec_done().
		 */
		smp_mb();
		stuck = NULL;
	}
}

/* ---- claiming (Listing 2 lines 8-33) --------------------------------- */

u32 rxb_corec_scan(struct rxb_model *m, unsigned int qi, u32 max,
		   struct rxb_corec_batch *b)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	u32 id, n;

	/* Line 24's bulk allocation is done ahead: the stash bounds it. */
	max = min_t(u32, min_t(u32, max, cr->c[qi].nstash), cr->mask + 1);
	/* Line 8.  Acquire: pairs with the fully ordered cmpxchg of the
	 * consumers that moved the ID here, so the CR entries before it
	 * that they saw written are seen too, never an older epoch's.
	 */
	id = smp_load_acquire(&r->claim);
	/* Lines 12-19: count the completions ready from the ID on. */
	for (n = 0; n < max; n++)
		if (!rxb_cring_ready(&r->cr, id + n))
			break;
	b->id = id;
	b->n = n;
	return n;
}

bool rxb_corec_claim(struct rxb_model *m, unsigned int qi,
		     const struct rxb_corec_batch *b)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	struct corec_consumer *c = &cr->c[qi];
	u32 id = b->id;

	/* Line 21.  Fully ordered: pairs with the acquire in
	 * rxb_corec_scan() of the next consumers.  A stale snapshot, even
	 * one a whole ring behind (same slot, older epoch), fails: the ID
	 * never repeats within 2^32 completions.
	 */
	if (!try_cmpxchg(&r->claim, &id, b->id + b->n)) {
		rxb_stat_inc(&c->xs.cas_fails);
		return false;
	}
	rxb_stat_inc(&c->xs.batches);
	rxb_stat_add(&c->xs.claimed, b->n);
	return true;
}

void rxb_corec_take(struct rxb_model *m, unsigned int qi,
		    const struct rxb_corec_batch *b, struct rxb_pkt *pkts)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	struct corec_consumer *c = &cr->c[qi];
	u32 j;

	/* Lines 23-30.  The scan's acquire of each done bit ordered these
	 * reads after the NIC's writes; the NIC reuses neither the CR
	 * entries nor the slots before the batch is marked done.
	 */
	for (j = 0; j < b->n; j++) {
		struct rxb_buf *nb = &c->stash[--c->nstash];
		u32 slot = rxb_cring_read(&r->cr, b->id + j, &pkts[j]);

		pkts[j].cookie = r->cookie[slot];
		pkts[j].pool_q = r->first;
		r->cookie[slot] = nb->cookie;
		rxb_rx_desc_post(&r->desc[slot], nb->addr, cr->m.cfg.buf_len);
	}
	rxb_stat_add(&m->qstats[qi].refills, b->n);
}

void rxb_corec_done(struct rxb_model *m, unsigned int qi,
		    const struct rxb_corec_batch *b)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	u32 id = b->id, left = b->n;

	/* Line 33: one RMW per bitmap word (two at most). */
	while (left) {
		unsigned int word;
		unsigned long bits = corec_bits(cr, id, left, &word);

		/* Fully ordered: the slot writes of rxb_corec_take() are
		 * visible before the bits (pairs with the acquire in
		 * corec_done_run()), and the bits before this consumer
		 * reads the tail lock (pairs with smp_mb() in
		 * rxb_corec_tail()).
		 */
		atomic_long_fetch_or(bits, &r->done[word]);
		id += hweight_long(bits);
		left -= hweight_long(bits);
	}
}

/* Allocate a buffer for @qi from its shared queue's pool.  Under
 * r->pool_lock, which BH-disabling callers (the polls) and process context
 * (create) both take with bottom halves off.
 */
static bool corec_alloc(struct corec *cr, unsigned int qi, struct rxb_buf *b)
{
	if (!rxb_drv_alloc_buf(&cr->m, corec_ring_of(cr, qi)->first, b))
		return true;
	rxb_stat_inc(&cr->m.qstats[qi].alloc_fails);
	return false;
}

/* Keep @qi's stash of fresh buffers full: one pool lock per fill. */
static bool corec_stash_fill(struct corec *cr, unsigned int qi)
{
	struct corec_ring *r = corec_ring_of(cr, qi);
	struct corec_consumer *c = &cr->c[qi];
	bool ok = true;

	if (c->nstash == RXB_COREC_BATCH)
		return true;
	spin_lock_bh(&r->pool_lock);
	while (c->nstash < RXB_COREC_BATCH) {
		ok = corec_alloc(cr, qi, &c->stash[c->nstash]);
		if (!ok)
			break;
		c->nstash++;
	}
	spin_unlock_bh(&r->pool_lock);
	return ok;
}

/* A buffer @qi's poll dropped goes back to its stash while there is room:
 * the next claim reposts it, with no pool access (rxb_model_ops.recycle).
 */
static bool corec_recycle(struct rxb_model *m, unsigned int qi,
			  const struct rxb_buf *buf)
{
	struct corec_consumer *c = &to_corec(m)->c[qi];

	if (c->nstash == RXB_COREC_BATCH)
		return false;
	c->stash[c->nstash++] = *buf;
	return true;
}

/* Every consumer of a shared queue allocates from its first queue's pool. */
static unsigned int corec_pool_of(const struct rxb_model_cfg *cfg,
				  unsigned int q)
{
	return rxb_corec_first(cfg, q / rxb_corec_group(cfg));
}

/* Post a buffer from the pool to every slot create could not fill. */
static bool corec_fill_empty(struct corec *cr, struct corec_ring *r,
			     unsigned int qi)
{
	struct rxb_drv_qstats *st = &cr->m.qstats[qi];
	u32 end, post, posted = 0;
	struct rxb_buf buf;
	bool ok = true;

	if (!READ_ONCE(r->tl.empty))
		return true;
	if (!spin_trylock(&r->tl.lock)) {
		rxb_stat_inc(&cr->c[qi].xs.trylock_fails);
		return false;
	}
	end = r->tl.tail + cr->mask + 1;
	spin_lock_bh(&r->pool_lock);
	for (post = r->tl.post; r->tl.empty && post != end; post++) {
		u32 slot = post & cr->mask;

		if (r->cookie[slot])
			continue;
		ok = corec_alloc(cr, qi, &buf);
		if (!ok)
			break;
		r->cookie[slot] = buf.cookie;
		rxb_rx_desc_post(&r->desc[slot], buf.addr, cr->m.cfg.buf_len);
		WRITE_ONCE(r->tl.empty, r->tl.empty - 1);
		posted++;
	}
	spin_unlock_bh(&r->pool_lock);
	/* Advance over the filled slots, and any done run at the tail. */
	corec_advance(cr, r, qi, NULL);
	if (posted) {
		corec_post(cr, r);
		rxb_db_ring(&cr->m, qi, &r->regs->rx_tail, r->tl.post);
		rxb_stat_add(&st->refills, posted);
		rxb_stat_inc(&st->doorbells);
	}
	spin_unlock(&r->tl.lock);
	/* The holder's re-check, as in rxb_corec_tail(). */
	smp_mb();
	rxb_corec_tail(&cr->m, qi, NULL);
	return ok && !READ_ONCE(r->tl.empty);
}

static int corec_poll(struct rxb_model *m, unsigned int qi,
		      struct rxb_pkt *pkts, int budget)
{
	struct corec *cr = to_corec(m);
	struct rxb_drv_qstats *st = &m->qstats[qi];
	struct rxb_corec_batch b;
	u64 bytes = 0;
	int n = 0, i;

	/* Topped up once a poll, and again only when a budget larger than
	 * the stash empties it: the buffers this poll hands up and the
	 * driver drops come back to the stash (corec_recycle()), not to the
	 * pool.
	 */
	corec_stash_fill(cr, qi);
	for (;;) {
		bool won = false;

		if (!cr->c[qi].nstash && n < budget)
			corec_stash_fill(cr, qi);
		if (n < budget && rxb_corec_scan(m, qi, budget - n, &b) &&
		    rxb_corec_claim(m, qi, &b)) {
			rxb_corec_take(m, qi, &b, pkts + n);
			rxb_corec_done(m, qi, &b);
			won = true;
		}
		/* Line 35 runs whether or not the claim was won. */
		rxb_corec_tail(m, qi, won ? &b : NULL);
		if (!won)
			break;
		n += b.n;
	}
	corec_fill_empty(cr, corec_ring_of(cr, qi), qi);
	for (i = 0; i < n; i++)
		bytes += pkts[i].len;
	if (n) {
		rxb_stat_add(&st->packets, n);
		rxb_stat_add(&st->bytes, bytes);
	}
	return n;
}

static bool corec_refill(struct rxb_model *m, unsigned int qi)
{
	struct corec *cr = to_corec(m);
	bool full = corec_stash_fill(cr, qi);

	return corec_fill_empty(cr, corec_ring_of(cr, qi), qi) && full;
}

static bool corec_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct corec *cr = to_corec(m);
	struct corec_ring *r = corec_ring_of(cr, qi);
	/* Acquire: as in rxb_corec_scan(). */
	u32 id = smp_load_acquire(&r->claim);

	/* A completion to claim, or done descriptors to return. */
	return rxb_cring_pending(&r->cr, id) ||
	       corec_done_at(cr, r, READ_ONCE(r->tl.tail));
}

/* The consumers' view of their shared CR, the same for each of them: the
 * next entry is the one at the transaction ID, which any consumer of the
 * group reads next.  The consumer index the NIC sees (tl.tail, in cq_head)
 * may lag behind it: by the batches being taken, or by a tail hold.
 */
static void corec_ring_state(struct rxb_model *m, unsigned int qi,
			     struct rxb_ring_state *st)
{
	struct corec_ring *r = corec_ring_of(to_corec(m), qi);

	rxb_cring_state(&r->cr, &r->claim, st);
}

/* The shared queue's debug registers, in the page of the group's first
 * queue: every consumer of the group reports them.
 */
static void corec_nic_debug(struct rxb_model *m, unsigned int qi,
			    struct rxb_hw_debug *dbg)
{
	struct corec_ring *r = corec_ring_of(to_corec(m), qi);

	rxb_nic_debug_fill(m, r->first, READ_ONCE(r->regs->rx_tail), dbg);
}

/* ---- setup ---------------------------------------------------------- */

static int corec_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	if (cfg->corec_consumers > cfg->nqueues) {
		*msg = "corec_consumers exceeds the number of queues";
		return -EINVAL;
	}
	if (cfg->corec_irq_policy >= RXB_COREC_IRQ_NPOLICIES) {
		*msg = "unknown COREC interrupt policy";
		return -EINVAL;
	}
	return 0;
}

static const char *corec_advise(const struct rxb_model_cfg *cfg)
{
	if (rxb_corec_group(cfg) == 1)
		return "one consumer per shared queue: COREC runs as a private ring";
	return NULL;
}

/* Per consumer: the pool it shares holds the group's sum (drv/rx.c). */
static unsigned int corec_bufs_per_queue(const struct rxb_model_cfg *cfg)
{
	return cfg->ring_size + RXB_COREC_BATCH;
}

static const struct rxb_layout corec_layout = {
	.size = sizeof(struct corec),
	.tables = {
		RXB_TABLE(struct corec, r, struct corec_ring, rxb_corec_nrings,
			  RXB_ARRAY(struct corec_ring, done, atomic_long_t, RXB_ARR_RING_BITS),
			  RXB_ARRAY(struct corec_ring, cookie, void *, RXB_ARR_RING)),
		RXB_TABLE(struct corec, c, struct corec_consumer, NULL),
	},
};

/* The NIC's context is disabled: nothing reads the rings any more; only
 * the driver's buffers are read.
 */
static void corec_fini(struct rxb_model *m)
{
	struct corec *cr = to_corec(m);
	unsigned int i, qi;
	u32 slot;

	for (i = 0; i < cr->nrings; i++) {
		struct corec_ring *r = &cr->r[i];

		/* Every slot holds a buffer, posted or with a packet not
		 * yet claimed, unless create ran short.
		 */
		for (slot = 0; slot <= cr->mask; slot++)
			if (r->cookie[slot])
				rxb_drv_free_buf(m, r->first, r->cookie[slot]);
		rxb_ring_mem_free(m, &r->desc_mem);
		rxb_cring_free(m, &r->cr);
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		while (cr->c[qi].nstash)
			rxb_drv_free_buf(m, corec_ring_of(cr, qi)->first,
					 cr->c[qi].stash[--cr->c[qi].nstash].cookie);
}

/* Post the initial buffers of ring @r, counted to its consumers in turn. */
static void corec_ring_init(struct corec *cr, struct corec_ring *r)
{
	u32 slot, posted = 0;
	struct rxb_buf buf;

	spin_lock_bh(&r->pool_lock);
	for (slot = 0; slot <= cr->mask; slot++) {
		unsigned int qi = r->first + slot % r->n;

		if (!corec_alloc(cr, qi, &buf)) {
			r->tl.empty++;
			continue;
		}
		r->cookie[slot] = buf.cookie;
		rxb_rx_desc_post(&r->desc[slot], buf.addr, cr->m.cfg.buf_len);
		rxb_stat_inc(&cr->m.qstats[qi].refills);
		posted++;
	}
	spin_unlock_bh(&r->pool_lock);
	/* Before the NIC runs: its indices start there too (rxb_corec.h). */
	r->claim = RXB_COREC_ID0;
	r->tl.tail = RXB_COREC_ID0;
	r->tl.post = RXB_COREC_ID0;
	/* A short ring is topped up by its consumers' next refill. */
	corec_post(cr, r);
	/* cq_head's reset value is 0: written only if the IDs start
	 * elsewhere (the userspace tests).
	 */
	if (RXB_COREC_ID0)
		rxb_reg_write(&cr->m, r->first, r->cr.db, RXB_COREC_ID0);
	rxb_db_ring(&cr->m, r->first, &r->regs->rx_tail, r->tl.post);
	if (posted)
		rxb_stat_inc(&cr->m.qstats[r->first].doorbells);
}

/* Allocate shared queue @i's rings and program their base registers. */
static int corec_ring_alloc(struct corec *cr, unsigned int i)
{
	struct corec_ring *r = &cr->r[i];
	struct rxb_model *m = &cr->m;

	r->first = rxb_corec_first(&m->cfg, i);
	r->n = rxb_corec_consumers(&m->cfg, i);
	spin_lock_init(&r->tl.lock);
	spin_lock_init(&r->pool_lock);
	r->regs = rxb_bar_q(&m->bar, r->first, RXB_QPAGE_REGS);
	r->st = rxb_bar_q(&m->bar, r->first, RXB_QPAGE_MSTATS);
	r->desc = rxb_rxq_alloc(m, r->first, r->regs, &r->desc_mem, &r->cr);
	return r->desc ? 0 : -ENOMEM;
}

static int corec_init(struct rxb_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct corec *cr = to_corec(m);
	unsigned int i, qi;

	cr->mask = cfg->ring_size - 1;
	cr->group = rxb_corec_group(cfg);
	cr->nrings = rxb_corec_nrings(cfg);
	for (i = 0; i < cr->nrings; i++)
		if (corec_ring_alloc(cr, i))
			return -ENOMEM;
	for (i = 0; i < cr->nrings; i++)
		corec_ring_init(cr, &cr->r[i]);
	for (qi = 0; qi < cfg->nqueues; qi++)
		corec_stash_fill(cr, qi);
	return 0;
}

/* ---- counters ------------------------------------------------------- */

static const char * const corec_cxstat_names[COREC_CXSTATS] = {
	"corec_batches", "corec_claimed", "corec_cas_fails",
	"corec_trylock_fails",
};

static const char * const corec_rxstat_names[COREC_RXSTATS] = {
	"tail_advances", "tail_held", "tail_held_ns", "tail_held_max_ns",
	"consumers", "nobuf_drops",
};

static unsigned int corec_xstats_count(struct rxb_model *m)
{
	struct corec *cr = to_corec(m);

	return m->cfg.nqueues * COREC_CXSTATS + cr->nrings * COREC_RXSTATS;
}

static void corec_xstats_names(struct rxb_model *m, char *names)
{
	names = rxb_xstats_names_fill(names, "rx", m->cfg.nqueues,
				      corec_cxstat_names, COREC_CXSTATS);
	/* Per shared queue: "ring<r>_", as the shRing models' shared rings. */
	rxb_xstats_names_fill(names, "ring", to_corec(m)->nrings,
			      corec_rxstat_names, COREC_RXSTATS);
}

static void corec_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct corec *cr = to_corec(m);
	unsigned int i;

	for (i = 0; i < m->cfg.nqueues; i++) {
		const struct corec_cxstats *xs = &cr->c[i].xs;

		*vals++ = READ_ONCE(xs->batches);
		*vals++ = READ_ONCE(xs->claimed);
		*vals++ = READ_ONCE(xs->cas_fails);
		*vals++ = READ_ONCE(xs->trylock_fails);
	}
	for (i = 0; i < cr->nrings; i++) {
		const struct corec_ring *r = &cr->r[i];
		u64 held_ns = READ_ONCE(r->tl.xs.held_ns);

		/* A hold in progress counts up to now (racy, for display). */
		if (READ_ONCE(r->tl.held))
			held_ns += rxb_drv_now_ns(m) -
				   READ_ONCE(r->tl.held_since);
		*vals++ = READ_ONCE(r->tl.xs.advances);
		*vals++ = READ_ONCE(r->tl.xs.held);
		*vals++ = held_ns;
		*vals++ = READ_ONCE(r->tl.xs.held_max_ns);
		*vals++ = r->n;
		/* A counter the NIC writes: a statistics register. */
		*vals++ = READ_ONCE(r->st->nobuf_drops);
	}
}

const struct rxb_model_ops rxb_corec_ops = {
	RXB_MODEL_OPS("corec", corec),
	.advise		= corec_advise,
	.bufs_per_queue	= corec_bufs_per_queue,
	.pool_of	= corec_pool_of,
	.recycle	= corec_recycle,
};
