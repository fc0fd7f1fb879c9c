// SPDX-License-Identifier: GPL-2.0
/*
 * CEIO, the NIC's half: a credit-gated fast path with an on-NIC overflow
 * tier (Liu et al., "CEIO: A Cache-Efficient Network I/O Architecture for
 * NIC-CPU Data Paths", SIGCOMM '25, sections 3-4, Algorithm 1, Fig. 7).
 * Registers and rings: rxb_desc.h's CEIO section.
 *
 * Each queue has privRing's fast path (an Rx ring and a completion ring)
 * and a slow ring in NIC memory.  A frame whose flow holds a credit takes
 * one and goes to the fast path; one without goes into the on-NIC memory
 * tier (nic_mem.c, a shared NIC component) and a slow ring entry.
 * C_total = llc_budget / buf_len credits exist; the NIC keeps them per
 * flow table entry.
 *
 * Choices where the paper is silent (Documentation/rxbisect-ceio.rst):
 *
 *  - Credit check: per packet in the NIC pipeline (section 3), not from
 *    polled rule-hit counters: no overshoot.  One credit per packet
 *    whatever its length (a buffer per packet).
 *  - Frames the flow table does not track (RXB_FLOW_NONE, or a full table)
 *    share one entry per queue, after the table's entries: an aggregate of
 *    many flows.  It holds a flow's share as a flow does; when that is
 *    used up it borrows from the free pool, one credit a frame, and a
 *    released credit it owns beyond its share goes back to the pool.  So
 *    untracked frames use the credits no tracked flow holds instead of
 *    going slow behind one flow's share, and C_total still bounds all.
 *  - A new flow takes its initial share C_total / (n + 1) from the free
 *    pool in the pipeline; if the pool lacks it, the flow is marked
 *    wanting and the NIC-side worker (the timer, the paper's ARM cores)
 *    runs Algorithm 1.  Algorithm 1 (digest section 2.5): lines 3-6 as
 *    printed; line 8's else: a donor short of (m/n) C_flow gives all it
 *    has and owes the rest; the pairwise debts o_j^i are kept as one debt
 *    per debtor, repaid with min(debt, gamma) (min, not the printed max)
 *    from its releases into the pool, which the worker hands to flows
 *    below their share.
 *  - Inactive flows: no frame for ceio_inactive_ns (1 s) gives the flow's
 *    unused credits to the pool; an inactive flow that receives frames
 *    again takes the slow path until the worker re-activates it, at most
 *    CEIO_REACT_PER_TICK per tick, round-robin over the table.  The
 *    paper's other test (section 4.1 Q3 (b): fast packets unprocessed
 *    when the slow-path drain is invoked) is not done: a poll's credits
 *    are released at its end, after the drain it posted.
 *  - Teardown (the flow table frees an idle entry, flow_free): the flow's
 *    unused credits go to the pool and its debt is forgiven; credits still
 *    in flight return to whatever flow holds the entry then (to the pool
 *    if none).
 *  - Back to the fast path: a flow that went slow takes the fast path
 *    again with its next frame that finds a credit, without waiting for
 *    its slow entries to drain; the driver's merge delivers that frame
 *    after them (Fig. 7's order).  A fast frame that finds the ring
 *    without buffer (or the completion ring full) goes slow instead of
 *    being dropped.
 *  - Merge (ours): every fast completion carries the slow ring's tail at
 *    its write (rxb_cqe.ring_id, RXB_CEIO_TAIL_MASK); the driver hands up
 *    the slow entries below it first.  This keeps the NIC's arrival order
 *    per queue, hence per flow, with no per-packet sorting and no read of
 *    NIC registers while fast completions flow.
 *  - Shares are C_total / n but at least one credit, in the initial share
 *    and in Algorithm 1: with fewer credits than flows the quotient is 0
 *    and new flows would get nothing.
 *  - Recycled credits (inactive flows, teardown, repaid debts) wait in a
 *    pool; a flow that finds no credit while it owns (holds plus has in
 *    flight) less than its share is marked wanting, and the worker tops it
 *    up from the pool.  A debtor that owns nothing has its debt forgiven.
 *  - The slow ring, in NIC memory, has CEIO_SLOW_MULT * ring_size entries
 *    (at most RXB_CEIO_SLOW_MAX), so that the tier's capacity, not the
 *    host ring's size, bounds the elastic buffer; a full slow ring drops
 *    (slow_ring_full, beside the tier's own drops).  An entry is free
 *    again once its fetch completed; its tier memory too.
 *  - Lazy release: the driver writes the count of fast entries whose
 *    credit it releases, in CR order, to the credit_ci register; the NIC
 *    reads it before its next credit decision and on each worker tick,
 *    and returns each entry's credit to the entry's flow.
 *  - Slow-path fetch: a write of the fetch_tail register is a doorbell:
 *    the NIC's doorbell service (ceio_doorbell(), its context, later)
 *    starts the fetches of the entries posted since, through the memory
 *    tier's fetch engine, which completes each once the tier's latency
 *    has passed (ceio_fetch_done(), the NIC's context): the frame in the
 *    host buffer, the write-back and the done mark, an interrupt.  No
 *    register write does work in the driver's call, nobody waits for
 *    emulated time.
 *  - Congestion trigger: per worker tick, a queue whose slow arrivals
 *    exceeded the fetches completed, with a backlog left, counts one
 *    event (no CCA is run).
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_nicmem.h>
#include "hw_ring.h"

/* The worker's period and the most inactive flows it wakes per tick. */
#define CEIO_TICK_NS		(1000 * 1000ULL)
#define CEIO_REACT_PER_TICK	8
#define CEIO_INACTIVE_NS	(1000 * 1000 * 1000ULL)

enum ceio_state { CEIO_FREE, CEIO_ACTIVE, CEIO_INACTIVE };

/* A flow below its share: new (Algorithm 1 takes from the others once),
 * or waiting for its debtors' repayments through the pool.
 */
enum ceio_want { CEIO_WANT_NONE, CEIO_WANT_NEW, CEIO_WANT_OWED };

/* The CEIO part of a flow table entry. */
struct ceio_flow {
	atomic_t credits;	/* unused credits */
	atomic_t debt;		/* Algorithm 1: owed to other flows */
	atomic_t inflight;	/* fast frames of the entry not released */
	u64 last_ns;		/* last frame */
	u8 state;		/* enum ceio_state */
	u8 slow;		/* in the slow phase */
	u8 want;		/* below its share: CEIO_WANT_* */
	u8 arrived;		/* inactive, and a frame arrived since */
};

/* A slow ring entry: a frame in the memory tier (NIC memory). */
struct ceio_slow {
	u64 addr;		/* the tier's piece */
	u32 len;
	u32 hash;
	u32 flow;
	u8 hash_flags;
	u64 ts;			/* arrival time (struct rxb_frame.ts) */
};

struct ceio_hw;

/* A fetch of the queue's fetch engine, one per slow entry. */
struct ceio_req {
	struct rxb_nicmem_fetch f;
	struct ceio_hw *ce;
	u16 qi;
	bool err;		/* the frame did not fit the buffer */
};

struct ceio_hw_q {
	spinlock_t lock;		/* the queue's pipeline stage */
	const struct rxb_rx_desc *desc;	/* the fast Rx ring, mapped */
	struct rxb_hw_cring cr;
	struct rxb_ceio_qregs *regs;	/* the queue's registers */
	struct rxb_qdebug_regs *dbg;	/* taken: Rx head; cq_tail: CR tail */
	struct rxb_ceio_qstats_regs *st;	/* the queue's statistics */
	struct ceio_slow *slow;		/* the slow ring */
	u32 *slot_flow;			/* flow of each CR slot */
	u32 slow_mask;			/* slow ring entries - 1 */
	u32 slow_tail;			/* slow entries written */
	u32 tick_arrivals;		/* slow arrivals since the last tick */
	u32 tick_done;			/* fe_done at the last tick */

	/* The queue's fetch engine (its DMA reads of the tier). */
	struct rxb_ceio_fetch *fetch;	/* the fetch ring, mapped */
	__le64 *ts;			/* its stamp ring (RXB_TSTAMP), or NULL */
	struct ceio_req *req;		/* per slow entry */
	u32 fe_head;			/* next fetch entry to start */
	u32 fe_done;			/* fetches completed (release) */
} ____cacheline_aligned;

struct ceio_hw {
	struct rxb_hw_model m;
	struct ceio_hw_q *q;
	struct ceio_flow *flow;		/* flow table entries + one per queue */
	struct rxb_nicmem *nm;
	struct rxb_ceio_gstats_regs *gs;	/* the context's statistics */
	u32 nflows;
	u32 c_total;
	u64 inactive_ns;
	/* The worker (one ARM core). */
	spinlock_t ctl_lock;		/* the worker; flow starts */
	u32 rr;				/* round-robin cursor */
};

#define to_ceio(mp)		container_of(mp, struct ceio_hw, m)

/* Slow ring entries of a configuration. */
static u32 ceio_nslow(const struct rxb_model_cfg *cfg)
{
	return min_t(u32, cfg->ring_size * RXB_CEIO_SLOW_MULT,
		     RXB_CEIO_SLOW_MAX);
}

/* ---- the credits ---------------------------------------------------- */

/* Take up to @want credits from @a, without letting it go negative. */
static u32 ceio_take(atomic_t *a, u32 want)
{
	int old = atomic_read(a), n;

	do {
		n = min_t(int, old, want);
		if (n <= 0)
			return 0;
	} while (!atomic_try_cmpxchg(a, &old, old - n));
	return n;
}

/* A flow's unused credits, and their sum in the statistics registers. */
static u32 ceio_fl_take(struct ceio_hw *ce, struct ceio_flow *fl, u32 want)
{
	u32 n = ceio_take(&fl->credits, want);

	if (n)
		atomic64_sub(n, &ce->gs->flow_credits);
	return n;
}

static void ceio_fl_add(struct ceio_hw *ce, struct ceio_flow *fl, u32 n)
{
	atomic_add(n, &fl->credits);
	atomic64_add(n, &ce->gs->flow_credits);
}

/* Up to @want credits from the pool. */
static u32 ceio_pool_take(struct ceio_hw *ce, u32 want)
{
	s64 old = atomic64_read(&ce->gs->pool), n;

	do {
		n = min_t(s64, old, want);
		if (n <= 0)
			return 0;
	} while (!atomic64_try_cmpxchg(&ce->gs->pool, &old, old - n));
	return n;
}

/* A flow's share among @n: C_total / n, but at least one credit (with
 * fewer credits than flows, C_total / n rounds to 0 and Algorithm 1 would
 * give no new flow anything).
 */
static u32 ceio_per_flow(struct ceio_hw *ce, u32 n)
{
	return ce->c_total ? max(ce->c_total / max(n, 1U), 1U) : 0;
}

/* A queue's untracked aggregate, not a flow table entry. */
static bool ceio_is_agg(const struct ceio_hw *ce, const struct ceio_flow *fl)
{
	return fl - ce->flow >= ce->m.cfg.flow_table_size;
}

/* Credits @n of flow @fl come back: repay its debt first (min); an
 * aggregate's beyond its share (borrowed) go back to the pool.
 */
static void ceio_give(struct ceio_hw *ce, struct ceio_flow *fl, u32 n)
{
	u32 pay, keep;
	int room;

	if (READ_ONCE(fl->state) != CEIO_ACTIVE) {
		atomic64_add(n, &ce->gs->pool);
		return;
	}
	pay = ceio_take(&fl->debt, n);
	keep = n - pay;
	if (keep && ceio_is_agg(ce, fl)) {
		/* Up to its share: what it owns, held and in flight. */
		room = ceio_per_flow(ce, atomic64_read(&ce->gs->flows_active));
		room -= atomic_read(&fl->credits) + atomic_read(&fl->inflight);
		keep = clamp_t(int, room, 0, keep);
	}
	if (n > keep)
		atomic64_add(n - keep, &ce->gs->pool);
	if (keep)
		ceio_fl_add(ce, fl, keep);
}

/* Credits in flight: fast entries written and not released. */
static u32 ceio_inflight(struct ceio_hw *ce)
{
	u32 held = 0, qi;

	for (qi = 0; qi < ce->m.cfg.nqueues; qi++) {
		struct ceio_hw_q *q = &ce->q[qi];

		held += READ_ONCE(q->dbg->cq_tail) -
			(u32)READ_ONCE(q->st->credit_seen);
	}
	return held;
}

/* Under @q's lock: the credits the driver released (credit_ci). */
static void ceio_reap(struct ceio_hw *ce, struct ceio_hw_q *q)
{
	u32 ci = rxb_db_read(&q->regs->slow.credit_ci);
	u32 seen = (u32)q->st->credit_seen;

	while (seen != ci) {
		u32 f = q->slot_flow[seen & q->cr.mask];

		/* In flight per entry, whoever holds it now (teardown). */
		atomic_dec(&ce->flow[f].inflight);
		ceio_give(ce, &ce->flow[f], 1);
		seen++;
		/* A statistics register: the driver reads it. */
		WRITE_ONCE(q->st->credit_seen, seen);
	}
}

/* A flow starts (first frame, or re-activation): its initial share. */
static void ceio_flow_start(struct ceio_hw *ce, struct ceio_flow *fl)
{
	u32 n = atomic64_inc_return(&ce->gs->flows_active);
	u32 share = ceio_per_flow(ce, n), got;

	atomic_set(&fl->debt, 0);
	got = ceio_pool_take(ce, share);
	ceio_fl_add(ce, fl, got);
	WRITE_ONCE(fl->want, got < share ? CEIO_WANT_NEW : CEIO_WANT_NONE);
	WRITE_ONCE(fl->state, CEIO_ACTIVE);
}

/* The first frame of a free flow, in a queue's pipeline stage: start the
 * flow, once.  A flow's frames may be in two queues' stages at once (a
 * steering change moved it: RSS indirection, an ntuple rule), each under
 * its own queue's lock, and both may find it free: its state is read again
 * under the worker's lock, which serialises every start and stop.  Lock
 * order: a queue's lock, then the worker's; nothing takes them the other
 * way.
 */
static void ceio_flow_first(struct ceio_hw *ce, struct ceio_flow *fl)
{
	spin_lock(&ce->ctl_lock);
	if (READ_ONCE(fl->state) == CEIO_FREE)
		ceio_flow_start(ce, fl);
	else if (READ_ONCE(fl->state) == CEIO_INACTIVE)
		WRITE_ONCE(fl->arrived, 1);
	spin_unlock(&ce->ctl_lock);
}

static void ceio_flow_stop(struct ceio_hw *ce, struct ceio_flow *fl, u8 state)
{
	u32 n;

	if (READ_ONCE(fl->state) == CEIO_ACTIVE)
		atomic64_dec(&ce->gs->flows_active);
	WRITE_ONCE(fl->state, state);
	WRITE_ONCE(fl->want, 0);
	atomic_set(&fl->debt, 0);
	n = atomic_xchg(&fl->credits, 0);
	atomic64_sub(n, &ce->gs->flow_credits);
	atomic64_add(n, &ce->gs->pool);
}

/* @fl found no credit: have the worker top it up from the pool if it owns
 * less than its share (Algorithm 1's new flows are topped up already).  A
 * debtor that owns nothing has nothing to repay from: its debt is
 * forgiven, or it would stay slow for good.
 */
static void ceio_dry(struct ceio_hw *ce, struct ceio_flow *fl)
{
	int owned = atomic_read(&fl->credits) + atomic_read(&fl->inflight);

	if (READ_ONCE(fl->state) != CEIO_ACTIVE ||
	    READ_ONCE(fl->want) != CEIO_WANT_NONE)
		return;
	if (!owned)
		atomic_set(&fl->debt, 0);
	if (!atomic_read(&fl->debt) &&
	    owned < (int)ceio_per_flow(ce,
				       atomic64_read(&ce->gs->flows_active)))
		WRITE_ONCE(fl->want, CEIO_WANT_OWED);
}

/* ---- the pipeline and the slow path ---------------------------------- */

/* Under @q's lock: start the fetch of slow entry @idx, posted
 * by the driver (the fetch ring's entry read across the bus).
 */
static void ceio_fetch_start(struct ceio_hw *ce, struct ceio_hw_q *q,
			     unsigned int qi, u32 idx)
{
	struct rxb_hw_model *m = &ce->m;
	u32 i = idx & q->slow_mask;
	const struct rxb_ceio_fetch *fd = &q->fetch[i];
	const struct ceio_slow *e = &q->slow[i];
	struct ceio_req *r = &q->req[i];
	u32 len = e->len;

	rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*fd));
	/* A frame longer than the buffer is not copied (ERR). */
	r->err = len > le32_to_cpu(fd->buf_len);
	if (r->err)
		len = 0;
	r->f.addr = e->addr;
	r->f.off = 0;
	r->f.len = len;
	r->f.dst = len ? rxb_hw_dma_ptr(m, le64_to_cpu(fd->buf_addr), len) :
		   NULL;
	rxb_nicmem_fetch_submit(ce->nm, &r->f);
}

/* The fetch engine's completion of slow entry @r (the NIC's context): the
 * write-back, the done mark, the tier's memory free, an interrupt.
 */
static void ceio_fetch_done(struct rxb_nicmem_fetch *f)
{
	struct ceio_req *r = container_of(f, struct ceio_req, f);
	struct ceio_hw *ce = r->ce;
	struct ceio_hw_q *q = &ce->q[r->qi];
	struct rxb_hw_model *m = &ce->m;
	u32 i = r - q->req;
	struct ceio_slow *e = &q->slow[i];
	struct rxb_ceio_fetch *fd = &q->fetch[i];
	u8 flags = RXB_CEIO_FETCH_DONE;

	if (r->err)
		flags |= RXB_CEIO_FETCH_ERR;
	/* The tier's bytes cross the bus now, not on arrival. */
	rxb_hw_pcie(m, r->qi, RXB_PCIE_DATA_WR, f->len);
	rxb_hw_pcie(m, r->qi, RXB_PCIE_META_WR, 16);
	fd->pkt_len = cpu_to_le16(e->len);
	fd->hash_flags = e->hash_flags;
	fd->rss_hash = cpu_to_le32(e->hash);
	fd->flow = cpu_to_le32(e->flow);
	rxb_hw_tstamp_put(m, r->qi, q->ts, i, e->ts);
	/* Release: the frame in the buffer and the write-back before the
	 * done mark.  Pairs with the acquire in ceio_fetch_flags() (driver).
	 */
	smp_store_release(&fd->flags, flags);
	rxb_nicmem_free(ce->nm, e->addr);
	atomic64_sub(e->len, &ce->gs->tier_held);
	/* Release: the entry's fields are read; pairs with the acquire in
	 * ceio_slow_rx(), which may reuse the slot.
	 */
	smp_store_release(&q->fe_done, q->fe_done + 1);
	rxb_hw_raise_irq(m, r->qi);
}

/* The slow path: the frame into the tier, an entry into the slow ring. */
static int ceio_slow_rx(struct ceio_hw *ce, struct ceio_hw_q *q,
			unsigned int qi, struct ceio_flow *fl,
			const struct rxb_frame *f)
{
	struct rxb_hw_model *m = &ce->m;
	struct ceio_slow *e;
	u64 addr;

	if (f->len > m->cfg.buf_len)
		return -EMSGSIZE;
	/* A slot is reused only once its old frame was fetched (the NIC
	 * freed its tier memory then).
	 */
	if (q->slow_tail - smp_load_acquire(&q->fe_done) > q->slow_mask) {
		rxb_stat_inc(&q->st->slow_full);
		return -ENOSPC;
	}
	if (!ce->nm || rxb_nicmem_alloc(ce->nm, f->len, &addr)) {
		rxb_stat_inc(&q->st->tier_drops);
		return -ENOSPC;
	}
	atomic64_add(f->len, &ce->gs->tier_held);
	m->env->nicmem_write(m->hw, f, addr, 0);
	e = &q->slow[q->slow_tail & q->slow_mask];
	e->addr = addr;
	e->len = f->len;
	e->hash = f->hash;
	e->flow = f->flow;
	e->hash_flags = f->hash_flags;
	e->ts = f->ts;
	q->slow_tail++;
	/* Release: the entry before the tail the driver reads. */
	smp_store_release(&q->regs->slow.slow_tail, q->slow_tail);
	/* Another queue's stage may flip it too (a flow on two queues). */
	if (!READ_ONCE(fl->slow)) {
		WRITE_ONCE(fl->slow, 1);
		rxb_stat_inc(&q->st->to_slow);
	}
	q->tick_arrivals++;
	rxb_stat_inc(&q->st->slow);
	rxb_stat_inc(&rxb_hw_qstats(m, qi)->hw_packets);
	rxb_stat_add(&rxb_hw_qstats(m, qi)->hw_bytes, f->len);
	return 0;
}

static int ceio_rx(struct rxb_hw_model *m, unsigned int qi,
		   const struct rxb_frame *f)
{
	struct ceio_hw *ce = to_ceio(m);
	struct ceio_hw_q *q = &ce->q[qi];
	u32 idx = f->flow < m->cfg.flow_table_size ? f->flow :
		  m->cfg.flow_table_size + qi;
	struct ceio_flow *fl = &ce->flow[idx];
	int err = -ENOBUFS;
	bool credit = false, borrowed = false;

	spin_lock(&q->lock);
	ceio_reap(ce, q);
	if (READ_ONCE(fl->state) == CEIO_FREE)
		ceio_flow_first(ce, fl);
	else if (READ_ONCE(fl->state) == CEIO_INACTIVE)
		WRITE_ONCE(fl->arrived, 1);
	WRITE_ONCE(fl->last_ns, rxb_hw_now_ns(m));
	/* A CR slot is reused only once its old entry's credit came back
	 * (slot_flow names the flow to return it to).
	 */
	if (q->dbg->cq_tail - (u32)q->st->credit_seen <= q->cr.mask) {
		credit = ceio_fl_take(ce, fl, 1);
		/* An active aggregate borrows a credit no flow holds. */
		if (!credit && ceio_is_agg(ce, fl) &&
		    READ_ONCE(fl->state) == CEIO_ACTIVE) {
			borrowed = ceio_pool_take(ce, 1);
			credit = borrowed;
		}
		if (!credit)
			ceio_dry(ce, fl);
	}
	/* else the CR is full of unreleased entries: slow */
	if (credit) {
		u32 slot = q->dbg->cq_tail & q->cr.mask;

		/* The entry carries the slow ring's tail: the driver hands
		 * up the slow entries below it first.
		 */
		err = rxb_rxq_deliver(m, qi, q->desc, &q->regs->fast.rx_tail,
				      &q->cr, &q->dbg->taken, &q->dbg->cq_tail,
				      f, q->slow_tail & RXB_CEIO_TAIL_MASK);
		if (!err) {
			q->slot_flow[slot] = idx;
			atomic_inc(&fl->inflight);
			rxb_stat_inc(&q->st->fast);
			if (borrowed)
				atomic64_inc(&ce->gs->borrowed);
			if (READ_ONCE(fl->slow)) {
				WRITE_ONCE(fl->slow, 0);
				rxb_stat_inc(&q->st->to_fast);
			}
		} else if (borrowed) {
			atomic64_inc(&ce->gs->pool);
		} else {
			ceio_fl_add(ce, fl, 1);
		}
	}
	if (err && err != -EMSGSIZE)
		err = ceio_slow_rx(ce, q, qi, fl, f);
	if (!err)
		rxb_hw_arm_timer(m, CEIO_TICK_NS);
	return rxb_nic_finish(m, qi, &q->lock, err);
}

/* The driver wrote queue @page's registers (the NIC's doorbell service):
 * start the fetches it posted (fetch_tail).  The driver posts fetches
 * only for slow entries it learned of; a fetch_tail beyond them waits for
 * the doorbell that follows its frames.
 */
static void ceio_doorbell(struct rxb_hw_model *m, u32 page)
{
	struct ceio_hw *ce = to_ceio(m);
	unsigned int qi = page - m->bar.qpage;
	struct ceio_hw_q *q;
	u32 tail, written;

	if (page < m->bar.qpage || qi >= m->cfg.nqueues)
		return;
	q = &ce->q[qi];
	spin_lock(&q->lock);
	/* Acquire: pairs with the release of the driver's register write:
	 * the entries below the tail are its latest writes.
	 */
	tail = rxb_db_read(&q->regs->slow.fetch_tail);
	written = q->slow_tail;
	while (q->fe_head != tail && q->fe_head != written)
		ceio_fetch_start(ce, q, qi, q->fe_head++);
	spin_unlock(&q->lock);
}

/* ---- the worker ----------------------------------------------------- */

/* Algorithm 1, on the worker: m new flows below their share take
 * (m/n) C_flow from each of the n others (all it has and a debt for the
 * rest from a flow short of it), once; flows owed credits are topped up
 * from the pool, where debtors' repayments go, on later ticks.
 */
static void ceio_realloc(struct ceio_hw *ce)
{
	u32 i, m_new = 0, n_old = 0, n_want = 0, c_flow, got = 0;

	for (i = 0; i < ce->nflows; i++) {
		struct ceio_flow *fl = &ce->flow[i];

		if (READ_ONCE(fl->state) != CEIO_ACTIVE)
			continue;
		if (READ_ONCE(fl->want) == CEIO_WANT_NEW)
			m_new++;
		else if (READ_ONCE(fl->want) == CEIO_WANT_NONE)
			n_old++;
		else
			n_want++;
	}
	if (!m_new && !n_want)
		return;
	c_flow = ceio_per_flow(ce, n_old + m_new + n_want);
	if (m_new && n_old &&
	    atomic64_read(&ce->gs->pool) < (s64)c_flow * m_new) {
		u32 quota = c_flow * m_new / n_old;

		atomic64_inc(&ce->gs->realloc);
		for (i = 0; i < ce->nflows; i++) {
			struct ceio_flow *fl = &ce->flow[i];
			u32 t;

			if (READ_ONCE(fl->state) != CEIO_ACTIVE ||
			    READ_ONCE(fl->want) != CEIO_WANT_NONE)
				continue;
			t = ceio_fl_take(ce, fl, quota);
			if (t < quota)
				atomic_add(quota - t, &fl->debt);
			got += t;
		}
		atomic64_add(got, &ce->gs->pool);
	}
	for (i = 0; i < ce->nflows; i++) {
		struct ceio_flow *fl = &ce->flow[i];
		int have;

		if (READ_ONCE(fl->state) != CEIO_ACTIVE ||
		    READ_ONCE(fl->want) == CEIO_WANT_NONE)
			continue;
		/* What it owns: held, and in flight (coming back to it). */
		have = atomic_read(&fl->credits) + atomic_read(&fl->inflight);
		if (have < (int)c_flow) {
			u32 t = ceio_pool_take(ce, c_flow - have);

			ceio_fl_add(ce, fl, t);
			have += t;
		}
		WRITE_ONCE(fl->want, have < (int)c_flow ? CEIO_WANT_OWED :
			   CEIO_WANT_NONE);
	}
}

/* The NIC-side worker (the paper's ARM cores): returns, inactive flows,
 * round-robin re-activation and Algorithm 1, congestion events.
 */
static void ceio_timer(struct rxb_hw_model *m)
{
	struct ceio_hw *ce = to_ceio(m);
	u64 now = rxb_hw_now_ns(m);
	u32 i, react = 0, qi;
	bool again = false;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct ceio_hw_q *q = &ce->q[qi];
		u32 done;

		spin_lock_bh(&q->lock);
		ceio_reap(ce, q);
		/* Acquire: pairs with the release of a completed fetch. */
		done = smp_load_acquire(&q->fe_done);
		if (q->tick_arrivals > done - q->tick_done &&
		    q->slow_tail != done)
			rxb_stat_inc(&q->st->congestion);
		again |= q->slow_tail != done ||
			 q->dbg->cq_tail != (u32)q->st->credit_seen;
		q->tick_arrivals = 0;
		q->tick_done = done;
		spin_unlock_bh(&q->lock);
	}

	spin_lock_bh(&ce->ctl_lock);
	for (i = 0; i < ce->nflows; i++) {
		struct ceio_flow *fl = &ce->flow[i];

		if (READ_ONCE(fl->state) != CEIO_ACTIVE)
			continue;
		if (now - READ_ONCE(fl->last_ns) > ce->inactive_ns) {
			ceio_flow_stop(ce, fl, CEIO_INACTIVE);
			atomic64_inc(&ce->gs->inactive);
			continue;
		}
		again = true;
	}
	/* Round-robin re-activation of inactive flows that saw frames. */
	for (i = 0; i < ce->nflows && react < CEIO_REACT_PER_TICK; i++) {
		struct ceio_flow *fl = &ce->flow[(ce->rr + i) % ce->nflows];

		if (READ_ONCE(fl->state) != CEIO_INACTIVE ||
		    !READ_ONCE(fl->arrived))
			continue;
		WRITE_ONCE(fl->arrived, 0);
		ceio_flow_start(ce, fl);
		react++;
		again = true;
	}
	ce->rr = (ce->rr + i) % ce->nflows;
	atomic64_add(react, &ce->gs->reactivated);
	ceio_realloc(ce);
	i = ceio_inflight(ce);
	if (i > atomic64_read(&ce->gs->unconsumed_max))
		atomic64_set(&ce->gs->unconsumed_max, i);
	spin_unlock_bh(&ce->ctl_lock);
	if (again)
		rxb_hw_arm_timer(m, CEIO_TICK_NS);
}

/* The flow table freed entry @flow: its credits go back (teardown). */
static void ceio_flow_free(struct rxb_hw_model *m, u32 flow)
{
	struct ceio_hw *ce = to_ceio(m);

	if (flow >= m->cfg.flow_table_size)
		return;
	spin_lock_bh(&ce->ctl_lock);
	ceio_flow_stop(ce, &ce->flow[flow], CEIO_FREE);
	WRITE_ONCE(ce->flow[flow].slow, 0);
	WRITE_ONCE(ce->flow[flow].arrived, 0);
	spin_unlock_bh(&ce->ctl_lock);
}

/* ---- setup ---------------------------------------------------------- */

/* The context is enabled: map the rings the driver programmed. */
static int ceio_start(struct rxb_hw_model *m)
{
	struct ceio_hw *ce = to_ceio(m);
	u32 nslow = ceio_nslow(&m->cfg);
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct ceio_hw_q *q = &ce->q[qi];

		q->desc = rxb_hw_rxq_map(m, &q->regs->fast, &q->cr);
		q->fetch = rxb_hw_dma_map(m, &q->regs->slow.fetch_base,
					  (size_t)nslow * sizeof(*q->fetch) +
					  rxb_tstamp_ring_bytes(nslow,
								m->cfg.rx_tstamp));
		if (!q->desc || !q->fetch)
			return -EINVAL;
		q->ts = m->cfg.rx_tstamp ? (__le64 *)(q->fetch + nslow) : NULL;
	}
	return 0;
}

static const struct rxb_layout ceio_hw_layout =
	RXB_QUEUE_LAYOUT(struct ceio_hw, struct ceio_hw_q,
			 RXB_ARRAY(struct ceio_hw_q, slot_flow, u32,
				   RXB_ARR_RING));

static int ceio_init(struct rxb_hw_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	const struct rxb_hw_ops *env = m->env;
	u32 nslow = ceio_nslow(cfg), i;
	struct ceio_hw *ce = to_ceio(m);
	unsigned int qi;

	/* The NIC needs its memory tier and the DMA engine's fetch path. */
	if (!env->nicmem || !env->nicmem_write || !env->dma_ptr)
		return -EINVAL;
	ce->nflows = cfg->flow_table_size + cfg->nqueues;
	ce->flow = kvcalloc(ce->nflows, sizeof(*ce->flow), GFP_KERNEL);
	if (!ce->flow)
		return -ENOMEM;
	ce->nm = rxb_hw_nicmem(m);
	ce->gs = (void *)((u8 *)rxb_bar_page(&m->bar, 0) + RXB_GPAGE_MSTATS);
	ce->c_total = cfg->ceio_force_slow ? 0 :
		      cfg->ceio_llc_budget / cfg->buf_len;
	ce->inactive_ns = cfg->ceio_inactive_ns ?: CEIO_INACTIVE_NS;
	atomic64_set(&ce->gs->credits_total, ce->c_total);
	atomic64_set(&ce->gs->pool, ce->c_total);
	spin_lock_init(&ce->ctl_lock);
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct ceio_hw_q *q = &ce->q[qi];

		q->slow = kvcalloc(nslow, sizeof(*q->slow), GFP_KERNEL);
		q->req = kvcalloc(nslow, sizeof(*q->req), GFP_KERNEL);
		if (!q->slow || !q->req)
			return -ENOMEM;
		for (i = 0; i < nslow; i++) {
			q->req[i].ce = ce;
			q->req[i].qi = qi;
			q->req[i].f.done = ceio_fetch_done;
		}
		q->slow_mask = nslow - 1;
		spin_lock_init(&q->lock);
		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->dbg = rxb_bar_qdebug(&m->bar, qi);
		q->st = rxb_bar_q(&m->bar, qi, RXB_QPAGE_MSTATS);
	}
	return 0;
}

/* Nothing runs: the frames still in the tier go with the context (their
 * fetches, if any were in flight, were aborted when it was disabled).
 */
static void ceio_fini(struct rxb_hw_model *m)
{
	struct ceio_hw *ce = to_ceio(m);
	unsigned int qi;

	for (qi = 0; ce->q && qi < m->cfg.nqueues; qi++) {
		struct ceio_hw_q *q = &ce->q[qi];
		u32 i;

		for (i = q->fe_done; q->slow && i != q->slow_tail; i++)
			rxb_nicmem_free(ce->nm, q->slow[i & q->slow_mask].addr);
		kvfree(q->slow);
		kvfree(q->req);
	}
	kvfree(ce->flow);
}

const struct rxb_hw_model_ops rxb_ceio_hw_ops = {
	RXB_HW_MODEL_OPS("ceio", ceio),
	RXB_HW_FLOW_OPS(ceio),
	.timer = ceio_timer,
};
