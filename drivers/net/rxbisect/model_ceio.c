// SPDX-License-Identifier: GPL-2.0
/*
 * CEIO: a credit-gated fast path with an on-NIC overflow tier (Liu et al.,
 * "CEIO: A Cache-Efficient Network I/O Architecture for NIC-CPU Data
 * Paths", SIGCOMM '25, sections 3-4, Algorithm 1, Fig. 7).
 *
 * Each queue has privRing's fast path (an Rx ring and a completion ring,
 * the same rxb_ring.h helpers) and a slow ring in NIC memory.  A frame
 * whose flow holds a credit takes one and goes to the fast path; one
 * without goes into the on-NIC memory tier (nic_mem.c, a shared NIC
 * component) and a slow ring entry.  C_total = llc_budget / buf_len
 * credits exist; the NIC keeps them per flow table entry.
 *
 * Choices where the paper is silent (Documentation/rxbisect-ceio.rst):
 *
 *  - Credit check: per packet in the NIC pipeline (section 3), not from
 *    polled rule-hit counters: no overshoot.  One credit per packet
 *    whatever its length (a buffer per packet).
 *  - Frames the flow table does not track (RXB_FLOW_NONE) share one entry
 *    per queue, after the table's entries.
 *  - A new flow takes its initial share C_total / (n + 1) from the free
 *    pool in the pipeline; if the pool lacks it, the flow is marked
 *    wanting and the NIC-side worker (hw_timer, the paper's ARM cores)
 *    runs Algorithm 1.  Algorithm 1 (digest section 2.5): lines 3-6 as
 *    printed; line 8's else: a donor short of (m/n) C_flow gives all it
 *    has and owes the rest; the pairwise debts o_j^i are kept as one debt
 *    per debtor, repaid with min(debt, gamma) (min, not the printed max)
 *    from its releases into the pool, which the worker hands to flows
 *    below their share.
 *  - Inactive flows: no frame for ceio_inactive_ns (1 s) gives the flow's
 *    unused credits to the pool; an inactive flow that receives frames
 *    again takes the slow path until the worker re-activates it, at most
 *    CEIO_REACT_PER_TICK per tick, round-robin over the table.
 *  - Teardown (the flow table frees an idle entry, hw_flow_free): the
 *    flow's unused credits go to the pool and its debt is forgiven;
 *    credits still in flight return to whatever flow holds the entry
 *    then (to the pool if none).
 *  - Back to the fast path: a flow that went slow takes the fast path
 *    again with its next frame that finds a credit, without waiting for
 *    its slow entries to drain; the merge below delivers that frame after
 *    them (Fig. 7's order).  Waiting for the drain (the paper's pause)
 *    kept a flow under steady load slow with credits free: each arrival
 *    during the drain extended it.  A fast frame that finds the ring
 *    without buffer (or the completion ring full) goes slow instead of
 *    being dropped.
 *  - Merge: every slow entry carries the fast completion ring's tail at
 *    its write (a fence); poll delivers fast entries up to the fence of
 *    the next slow entry, then that one.  This keeps the NIC's arrival
 *    order per queue, hence per flow, with no per-packet sorting: no fast
 *    frame is delivered before a slow one that arrived earlier.  Async
 *    fetch stops at the first slow entry whose fetch is still in flight.
 *  - Shares are C_total / n but at least one credit, in the initial share
 *    and in Algorithm 1: with fewer credits than flows the quotient is 0
 *    and new flows would get nothing.
 *  - Recycled credits (inactive flows, teardown, repaid debts) wait in a
 *    pool; a flow that finds no credit while it owns (holds plus has in
 *    flight) less than its share is marked wanting, and the worker tops it
 *    up from the pool: no credit idles there while a flow goes slow for
 *    want of one.  A debtor that owns nothing has its debt forgiven.
 *  - The slow ring, in NIC memory, has CEIO_SLOW_MULT * ring_size
 *    entries, so that the tier's capacity, not the host ring's size,
 *    bounds the elastic buffer; a full slow ring drops (counted as
 *    slow_ring_full, beside the tier's own drops).  Async fetches hold a
 *    host buffer each from kick to delivery: at most ring_size of them
 *    are outstanding.
 *  - Lazy release: the driver writes the count of fast entries whose
 *    credit it releases, in CR order, to the credit_ci register; the NIC
 *    reads it before its next credit decision and on each worker tick,
 *    and returns each entry's credit to the entry's flow.  Batch: at the
 *    end of each poll, for the entries it handed up.  Page: the driver
 *    keeps a reference on each fast buffer it hands up and, at its next
 *    poll or refill, releases in CR order the credits of those whose
 *    other references are gone (rxb_drv_ops.buf_idle: the page would be
 *    back in its page_pool), dropping its own.
 *  - Slow-path fetch (rxb_desc.h, struct rxb_ceio_fetch): the driver
 *    posts a host buffer for a slow entry in the fetch ring and writes
 *    fetch_tail; the NIC's fetch engine (ceio_nic_fetch(), reached from
 *    that register write) copies the frame from its tier, counts it on
 *    the bus, and writes the entry's done mark, which the driver polls.
 *    Sync: completed within the write.  Async: completed in ring order
 *    once due, at a later write (the driver writes fetch_tail again
 *    while the oldest fetch is in flight).
 *  - Congestion trigger: per worker tick, a queue whose slow arrivals
 *    exceeded the slow entries the driver consumed, with a backlog left,
 *    counts one event (no CCA is run).
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_nicmem.h>
#include "rxb_ring.h"

/* The worker's period and the most inactive flows it wakes per tick. */
#define CEIO_TICK_NS		(1000 * 1000ULL)
#define CEIO_REACT_PER_TICK	8
#define CEIO_INACTIVE_NS	(1000 * 1000 * 1000ULL)
/* Slow ring entries per Rx ring entry (rxb_desc.h). */
#define CEIO_SLOW_MULT		RXB_CEIO_SLOW_MULT

enum ceio_state { CEIO_FREE, CEIO_ACTIVE, CEIO_INACTIVE };

/* A flow below its share: new (Algorithm 1 takes from the others once),
 * or waiting for its debtors' repayments through the pool.
 */
enum ceio_want { CEIO_WANT_NONE, CEIO_WANT_NEW, CEIO_WANT_OWED };

/* The CEIO part of a flow table entry (NIC state). */
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

struct ceio_q {
	struct rxb_rx_desc *desc;
	struct rxb_cring cr;
	struct rxb_ceio_slow *slow;	/* slow ring, NIC memory */
	struct rxb_ceio_fetch *fetch;	/* fetch ring, host memory */
	u32 slow_mask;			/* their entries - 1 */
	u32 *slot_flow;			/* NIC: flow of each CR slot */
	void **cookie;			/* driver: buffer per descriptor */
	void **lent;			/* driver, release=page: buffers handed
					 * up whose credit is not released, in
					 * CR order
					 */
	void **fetch_cookie;		/* driver: buffer per fetch entry */
	struct rxb_nicmem_fetch *req;	/* NIC: fetch engine, per entry */

	struct rxb_rxq_regs regs ____cacheline_aligned;
	struct rxb_ceio_regs cregs;	/* slow-path registers (rxb_desc.h) */

	struct {
		spinlock_t lock;	/* the NIC's per-queue pipeline stage */
		u32 rx_head;
		u32 cq_tail;
		u32 slow_tail;
		u32 slow_freed;		/* slow entries whose memory is freed */
		u32 credit_seen;	/* CR entries whose credit came back */
		u32 tick_arrivals;	/* slow arrivals since the last tick */
		u32 tick_head;		/* slow_head at the last tick */
		u64 fast;
		u64 slow_pkts;
		u64 to_slow;
		u64 to_fast;
		u64 tier_drops;
		u64 slow_full;
		u64 congestion;
	} hw ____cacheline_aligned;

	/* The NIC's fetch engine of the queue (its DMA reads of the tier). */
	struct {
		spinlock_t lock;	/* the engine: register writes */
		u32 head;		/* next fetch entry to start */
		u32 done;		/* next fetch to complete */
	} fe ____cacheline_aligned;

	struct {
		u32 rx_tail;
		u32 rx_ci;
		u32 cq_head;
		u32 slow_head;
		u32 fetch_head;		/* next fetch entry to post */
		u32 credit_rel;		/* release=page: credits released */
		bool slow_nobuf;	/* a slow entry found no buffer */
		u64 fetch_waits;	/* polls stopped at a fetch in flight */
		u64 slow_alloc_fails;
	} sw ____cacheline_aligned;
};

struct ceio {
	struct rxb_model m;
	struct ceio_q *q;
	struct ceio_flow *flow;		/* flow table entries + one per queue */
	struct rxb_nicmem *nm;
	struct rxb_ceio_slow *slow;	/* every queue's slow ring */
	struct rxb_ceio_fetch *fetch;	/* every queue's fetch ring */
	void **fetch_cookies;		/* every queue's fetch buffers */
	struct rxb_nicmem_fetch *reqs;	/* every queue's fetch engine */
	u32 nflows;
	u32 c_total;
	u64 inactive_ns;
	/* NIC-side controller state. */
	atomic_t pool;			/* credits no flow holds */
	atomic_t active;		/* flows in CEIO_ACTIVE */
	struct {
		spinlock_t lock;	/* the worker (one ARM core) */
		u32 rr;			/* round-robin cursor */
		u64 realloc;		/* Algorithm 1 runs with donors */
		u64 inactive;		/* flows made inactive */
		u64 reactivated;
		u64 unconsumed_max;
	} ctl ____cacheline_aligned;
};

static struct ceio *to_ceio(struct rxb_model *m)
{
	return container_of(m, struct ceio, m);
}

/* ---- NIC side: the pipeline and the credits ------------------------- */

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

/* Credits @n of flow @fl come back: repay its debt first (min). */
static void ceio_give(struct ceio *ce, struct ceio_flow *fl, u32 n)
{
	u32 pay;

	if (READ_ONCE(fl->state) != CEIO_ACTIVE) {
		atomic_add(n, &ce->pool);
		return;
	}
	pay = ceio_take(&fl->debt, n);
	if (pay)
		atomic_add(pay, &ce->pool);
	if (n > pay)
		atomic_add(n - pay, &fl->credits);
}

/* Credits in flight: fast entries written and not released. */
static u32 ceio_inflight(struct ceio *ce)
{
	u32 held = 0, qi;

	for (qi = 0; qi < ce->m.cfg.nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];

		held += READ_ONCE(q->hw.cq_tail) - READ_ONCE(q->hw.credit_seen);
	}
	return held;
}

/* NIC side, under @q's lock: credits the driver released, and the tier
 * memory of slow entries it consumed.
 */
static void ceio_reap(struct ceio *ce, struct ceio_q *q)
{
	u32 ci = rxb_db_read(&q->cregs.credit_ci);
	u32 head = rxb_db_read(&q->cregs.slow_head);

	while (q->hw.credit_seen != ci) {
		u32 f = q->slot_flow[q->hw.credit_seen & q->cr.mask];

		/* In flight per entry, whoever holds it now (teardown). */
		atomic_dec(&ce->flow[f].inflight);
		ceio_give(ce, &ce->flow[f], 1);
		WRITE_ONCE(q->hw.credit_seen, q->hw.credit_seen + 1);
	}
	for (; q->hw.slow_freed != head; q->hw.slow_freed++)
		rxb_nicmem_free(ce->nm, le64_to_cpu(q->slow[q->hw.slow_freed &
							   q->slow_mask].addr));
}

/* A flow's share among @n: C_total / n, but at least one credit (with
 * fewer credits than flows, C_total / n rounds to 0 and Algorithm 1 would
 * give no new flow anything).
 */
static u32 ceio_per_flow(struct ceio *ce, u32 n)
{
	return ce->c_total ? max(ce->c_total / max(n, 1U), 1U) : 0;
}

/* A flow starts (first frame, or re-activation): its initial share. */
static void ceio_flow_start(struct ceio *ce, struct ceio_flow *fl)
{
	u32 n = atomic_inc_return(&ce->active);
	u32 share = ceio_per_flow(ce, n), got;

	atomic_set(&fl->debt, 0);
	got = ceio_take(&ce->pool, share);
	atomic_add(got, &fl->credits);
	WRITE_ONCE(fl->want, got < share ? CEIO_WANT_NEW : CEIO_WANT_NONE);
	WRITE_ONCE(fl->state, CEIO_ACTIVE);
}

static void ceio_flow_stop(struct ceio *ce, struct ceio_flow *fl, u8 state)
{
	if (READ_ONCE(fl->state) == CEIO_ACTIVE)
		atomic_dec(&ce->active);
	WRITE_ONCE(fl->state, state);
	WRITE_ONCE(fl->want, 0);
	atomic_set(&fl->debt, 0);
	atomic_add(atomic_xchg(&fl->credits, 0), &ce->pool);
}

/* The slow path: the frame into the tier, an entry into the slow ring. */
static int ceio_slow_rx(struct ceio *ce, struct ceio_q *q, unsigned int qi,
			struct ceio_flow *fl, const struct rxb_frame *f)
{
	struct rxb_model *m = &ce->m;
	struct rxb_ceio_slow *e;
	u64 addr;

	if (f->len > m->cfg.buf_len)
		return -EMSGSIZE;
	/* Against the entries whose memory the NIC freed (ceio_reap()), not
	 * the register, which may have moved since: a slot is reused only
	 * once its old frame's memory is gone.
	 */
	if (q->hw.slow_tail - q->hw.slow_freed > q->slow_mask) {
		rxb_stat_inc(&q->hw.slow_full);
		return -ENOSPC;
	}
	if (!ce->nm || rxb_nicmem_alloc(ce->nm, f->len, &addr)) {
		rxb_stat_inc(&q->hw.tier_drops);
		return -ENOSPC;
	}
	m->cfg.hw_ops->nicmem_write(m->cfg.hw, f, addr, 0);
	e = &q->slow[q->hw.slow_tail & q->slow_mask];
	e->addr = cpu_to_le64(addr);
	e->len = cpu_to_le32(f->len);
	e->rss_hash = cpu_to_le32(f->hash);
	e->fence = cpu_to_le32(q->hw.cq_tail);
	e->flow = cpu_to_le32(f->flow);
	/* The checksum unit sits on the DMA engine's path into host
	 * memory (rxb_hw_ops.dma_write); a frame kept in NIC memory is not
	 * summed, so the stack checks it in software.
	 */
	e->flags = f->hash_flags;
	memset(e->reserved, 0, sizeof(e->reserved));
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*e));
	q->hw.slow_tail++;
	/* Release: the entry and the tier's bytes before the tail. */
	smp_store_release(&q->cregs.slow_tail, q->hw.slow_tail);
	if (!fl->slow) {
		WRITE_ONCE(fl->slow, 1);
		rxb_stat_inc(&q->hw.to_slow);
	}
	q->hw.tick_arrivals++;
	rxb_stat_inc(&q->hw.slow_pkts);
	rxb_stat_inc(&m->qstats[qi].hw_packets);
	rxb_stat_add(&m->qstats[qi].hw_bytes, f->len);
	return 0;
}

/* @fl found no credit: have the worker top it up from the pool if it owns
 * less than its share (Algorithm 1's new flows are topped up already).  A
 * debtor that owns nothing has nothing to repay from: its debt is
 * forgiven, or it would stay slow for good.
 */
static void ceio_dry(struct ceio *ce, struct ceio_flow *fl)
{
	int owned = atomic_read(&fl->credits) + atomic_read(&fl->inflight);

	if (READ_ONCE(fl->state) != CEIO_ACTIVE ||
	    READ_ONCE(fl->want) != CEIO_WANT_NONE)
		return;
	if (!owned)
		atomic_set(&fl->debt, 0);
	if (!atomic_read(&fl->debt) &&
	    owned < (int)ceio_per_flow(ce, atomic_read(&ce->active)))
		WRITE_ONCE(fl->want, CEIO_WANT_OWED);
}

static int ceio_hw_rx(struct rxb_model *m, unsigned int qi,
		      const struct rxb_frame *f)
{
	struct ceio *ce = to_ceio(m);
	struct ceio_q *q = &ce->q[qi];
	u32 idx = f->flow < m->cfg.flow_table_size ? f->flow :
		  m->cfg.flow_table_size + qi;
	struct ceio_flow *fl = &ce->flow[idx];
	int err = -ENOBUFS;
	bool slot_free;

	spin_lock(&q->hw.lock);
	ceio_reap(ce, q);
	if (READ_ONCE(fl->state) == CEIO_FREE)
		ceio_flow_start(ce, fl);
	else if (READ_ONCE(fl->state) == CEIO_INACTIVE)
		WRITE_ONCE(fl->arrived, 1);
	WRITE_ONCE(fl->last_ns, rxb_hw_now_ns(m));
	/* A CR slot is reused only once its old entry's credit came back
	 * (slot_flow names the flow to return it to).
	 */
	slot_free = q->hw.cq_tail - q->hw.credit_seen <= q->cr.mask;
	if (!slot_free) {
		/* the CR is full of unreleased entries: slow */
	} else if (!ceio_take(&fl->credits, 1)) {
		ceio_dry(ce, fl);
	} else {
		u32 slot = q->hw.cq_tail & q->cr.mask;

		err = rxb_rxq_deliver(m, qi, q->desc, &q->regs, &q->cr,
				      &q->hw.rx_head, &q->hw.cq_tail, f, qi);
		if (!err) {
			q->slot_flow[slot] = idx;
			atomic_inc(&fl->inflight);
			rxb_stat_inc(&q->hw.fast);
			if (fl->slow) {
				WRITE_ONCE(fl->slow, 0);
				rxb_stat_inc(&q->hw.to_fast);
			}
		} else {
			atomic_inc(&fl->credits);
		}
	}
	if (err && err != -EMSGSIZE)
		err = ceio_slow_rx(ce, q, qi, fl, f);
	if (!err)
		rxb_hw_arm_timer(m, CEIO_TICK_NS);
	return rxb_nic_finish(m, qi, &q->hw.lock, err);
}

/* NIC, the fetch engine: the driver wrote queue @qi's fetch_tail.  Start
 * the fetches of the entries posted since, then complete in ring order
 * those whose data has arrived: the frame is in the host buffer, the done
 * mark written.  Synchronous (ceio_fetch=sync): each fetch completes here,
 * the register write stalling for the tier's latency.
 */
static void ceio_nic_fetch(struct rxb_model *m, unsigned int qi)
{
	struct ceio *ce = to_ceio(m);
	struct ceio_q *q = &ce->q[qi];
	bool sync = !m->cfg.ceio_fetch_async;
	u32 tail;

	spin_lock(&q->fe.lock);
	/* Acquire: pairs with the release in ceio_fetch_db() (rxb_db_ring()):
	 * the entries below the tail are the driver's latest writes.
	 */
	tail = rxb_db_read(&q->cregs.fetch_tail);
	for (; q->fe.head != tail; q->fe.head++) {
		u32 i = q->fe.head & q->slow_mask;
		const struct rxb_ceio_fetch *fd = &q->fetch[i];
		const struct rxb_ceio_slow *e = &q->slow[i];
		u32 len = le32_to_cpu(e->len);

		rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*fd));
		/* A frame longer than the buffer is not copied (ERR). */
		if (len > le32_to_cpu(fd->buf_len))
			len = 0;
		rxb_nicmem_fetch_start(ce->nm, &q->req[i], le64_to_cpu(e->addr),
				       0, rxb_hw_dma_ptr(m,
						le64_to_cpu(fd->buf_addr),
						len),
				       len);
		if (sync && len)
			rxb_nicmem_fetch(ce->nm, q->req[i].addr, 0, q->req[i].dst,
					 len);
	}
	for (; q->fe.done != q->fe.head; q->fe.done++) {
		u32 i = q->fe.done & q->slow_mask;
		struct rxb_nicmem_fetch *req = &q->req[i];
		u8 flags = RXB_CEIO_FETCH_DONE;

		if (!sync && req->len && !rxb_nicmem_fetch_poll(ce->nm, req))
			break;
		if (req->len != le32_to_cpu(q->slow[i].len))
			flags |= RXB_CEIO_FETCH_ERR;
		/* The tier's bytes cross the bus now, not on arrival. */
		rxb_hw_pcie(m, qi, RXB_PCIE_DATA_WR, req->len);
		rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(u32));
		/* Release: the frame in the buffer before the done mark.
		 * Pairs with the acquire in ceio_fetch_done().
		 */
		smp_store_release(&q->fetch[i].flags, flags);
	}
	spin_unlock(&q->fe.lock);
}

/* ---- driver side ---------------------------------------------------- */

/* Release=page: the credits of the fast buffers handed up whose packets
 * are all freed (the buffer would be back in its pool but for the
 * model's reference), in CR order: drop that reference and tell the NIC.
 */
static void ceio_release_pages(struct rxb_model *m, unsigned int qi,
			       struct ceio_q *q)
{
	u32 rel = q->sw.credit_rel;

	if (m->cfg.ceio_release != RXB_CEIO_REL_PAGE)
		return;
	while (rel != q->sw.rx_ci) {
		void **c = &q->lent[rel & q->cr.mask];

		if (!rxb_drv_buf_idle(m, qi, *c))
			break;
		rxb_drv_free_buf(m, qi, *c);
		*c = NULL;
		rel++;
	}
	if (rel != q->sw.credit_rel) {
		q->sw.credit_rel = rel;
		rxb_db_ring(m, qi, &q->cregs.credit_ci, rel);
	}
}

static bool ceio_refill_fast(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];

	return rxb_ring_refill(m, qi, q->desc, q->cookie, q->cr.mask,
			       &q->sw.rx_tail, q->sw.rx_ci, &q->regs.rx_tail);
}

/* A slow entry that found no host buffer is a failed refill as well: the
 * driver then backs off as for an empty fast ring, where rx_pending() (the
 * entry still waits) would otherwise repoll at once, without end.
 */
static bool ceio_refill(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];
	bool ok;

	ceio_release_pages(m, qi, q);
	ok = ceio_refill_fast(m, qi);

	if (q->sw.slow_nobuf) {
		q->sw.slow_nobuf = false;
		ok = false;
	}
	return ok;
}

/* Write the fetch_tail register: posts the fetch entries written since,
 * and has the NIC write the done marks of the fetches that completed.
 */
static void ceio_fetch_db(struct rxb_model *m, unsigned int qi,
			  struct ceio_q *q)
{
	/* Release: the entries before the tail.  Pairs with the acquire in
	 * ceio_nic_fetch().
	 */
	rxb_db_ring(m, qi, &q->cregs.fetch_tail, q->sw.fetch_head);
	ceio_nic_fetch(m, qi);
}

/* Post a host buffer for the slow entry at fetch_head; false if none. */
static bool ceio_fetch_post(struct rxb_model *m, unsigned int qi,
			    struct ceio_q *q)
{
	u32 i = q->sw.fetch_head & q->slow_mask;
	struct rxb_ceio_fetch *fd = &q->fetch[i];
	struct rxb_buf buf;

	if (rxb_drv_alloc_buf(m, qi, &buf)) {
		rxb_stat_inc(&q->sw.slow_alloc_fails);
		q->sw.slow_nobuf = true;
		return false;
	}
	q->fetch_cookie[i] = buf.cookie;
	fd->buf_addr = cpu_to_le64(buf.addr);
	fd->buf_len = cpu_to_le32(m->cfg.buf_len);
	memset(fd->reserved, 0, sizeof(fd->reserved));
	/* The NIC writes the flags after it read the tail (acquire) that
	 * the release in ceio_fetch_db() publishes this after.
	 */
	WRITE_ONCE(fd->flags, 0);
	q->sw.fetch_head++;
	return true;
}

/* The done mark of fetch entry @i, 0 while the fetch is in flight. */
static u8 ceio_fetch_done(struct ceio_q *q, u32 i)
{
	/* Acquire: pairs with the release in ceio_nic_fetch(): then the
	 * frame is in the buffer.
	 */
	return smp_load_acquire(&q->fetch[i].flags);
}

/* Hand up the slow entry at slow_head into its host buffer; false if its
 * fetch is still in flight (async), or no buffer is free.
 */
static bool ceio_slow_deliver(struct rxb_model *m, unsigned int qi,
			      struct ceio_q *q, struct rxb_pkt *pkt)
{
	u32 i = q->sw.slow_head & q->slow_mask;
	const struct rxb_ceio_slow *e = &q->slow[i];
	u8 flags;

	if (q->sw.fetch_head == q->sw.slow_head) {
		/* Sync: fetch it now; async: not posted yet (no buffer). */
		if (m->cfg.ceio_fetch_async) {
			rxb_stat_inc(&q->sw.fetch_waits);
			return false;
		}
		if (!ceio_fetch_post(m, qi, q))
			return false;
		ceio_fetch_db(m, qi, q);
	}
	flags = ceio_fetch_done(q, i);
	if (!(flags & RXB_CEIO_FETCH_DONE)) {
		rxb_stat_inc(&q->sw.fetch_waits);
		return false;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->cookie = q->fetch_cookie[i];
	pkt->len = le32_to_cpu(e->len);
	pkt->hash = le32_to_cpu(e->rss_hash);
	pkt->flags = e->flags & (RXB_CQE_F_L4_HASH | RXB_CQE_F_L3_HASH);
	if (flags & RXB_CEIO_FETCH_ERR) {
		pkt->flags |= RXB_CQE_F_DMA_ERR;
		pkt->len = 0;
	}
	pkt->pool_q = qi;
	q->fetch_cookie[i] = NULL;
	q->sw.slow_head++;
	return true;
}

/* Async: post buffers for the slow entries written (up to @n, and at most
 * a ring of buffers in flight), and write fetch_tail if anything was
 * posted or the oldest fetch is still in flight: that write also has the
 * NIC report the fetches completed since.
 */
static void ceio_fetch_kick(struct rxb_model *m, unsigned int qi,
			    struct ceio_q *q, u32 tail, int n)
{
	u32 head0 = q->sw.fetch_head;

	while (q->sw.fetch_head != tail && n-- > 0 &&
	       q->sw.fetch_head - q->sw.slow_head <= q->cr.mask)
		if (!ceio_fetch_post(m, qi, q))
			break;
	if (q->sw.fetch_head != head0 ||
	    (q->sw.fetch_head != q->sw.slow_head &&
	     !ceio_fetch_done(q, q->sw.slow_head & q->slow_mask)))
		ceio_fetch_db(m, qi, q);
}

static int ceio_poll(struct rxb_model *m, unsigned int qi,
		     struct rxb_pkt *pkts, int budget)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];
	u32 head = q->sw.cq_head, slow0 = q->sw.slow_head;
	bool page = m->cfg.ceio_release == RXB_CEIO_REL_PAGE;
	/* Acquire: pairs with the release in ceio_slow_rx(). */
	u32 stail = smp_load_acquire(&q->cregs.slow_tail);
	int n = 0, nfast = 0;
	u64 bytes = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	ceio_release_pages(m, qi, q);
	if (m->cfg.ceio_fetch_async)
		ceio_fetch_kick(m, qi, q, stail, budget);
	while (n < budget) {
		/* The CR entry first: a slow entry written before it is then
		 * visible in the slow tail read after (the NIC released the
		 * tail before it wrote the entry).
		 */
		bool ready = rxb_cring_ready(&q->cr, head);

		/* Acquire: pairs with the release in ceio_slow_rx(). */
		stail = smp_load_acquire(&q->cregs.slow_tail);
		if (q->sw.slow_head != stail &&
		    le32_to_cpu(q->slow[q->sw.slow_head & q->slow_mask].fence) ==
		    head) {
			if (!ceio_slow_deliver(m, qi, q, &pkts[n]))
				break;
		} else if (ready) {
			/* No slow entry before it. */
			u32 slot = rxb_cring_read(&q->cr, head, &pkts[n]);
			void *c = q->cookie[slot];

			pkts[n].cookie = c;
			pkts[n].pool_q = qi;
			q->cookie[slot] = NULL;
			if (page) {
				/* Keep a reference: the credit goes back
				 * when the stack's is gone.
				 */
				rxb_drv_ref_buf(m, qi, c);
				q->lent[(q->sw.rx_ci + nfast) & q->cr.mask] = c;
			}
			head++;
			nfast++;
		} else {
			break;
		}
		bytes += pkts[n].len;
		n++;
	}
	if (nfast) {
		q->sw.rx_ci += nfast;
		rxb_cring_consume(m, qi, &q->cr, &q->sw.cq_head, nfast, n,
				  bytes);
		/* Lazy release, batch mode: the batch is handed up. */
		if (!page)
			rxb_db_ring(m, qi, &q->cregs.credit_ci, q->sw.rx_ci);
	} else if (n) {
		rxb_stat_add(&m->qstats[qi].packets, n);
		rxb_stat_add(&m->qstats[qi].bytes, bytes);
	}
	if (q->sw.slow_head != slow0)
		rxb_db_ring(m, qi, &q->cregs.slow_head, q->sw.slow_head);
	ceio_refill_fast(m, qi);
	return n;
}

static bool ceio_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];
	/* Acquire: pairs with the release in ceio_slow_rx(). */
	u32 stail = smp_load_acquire(&q->cregs.slow_tail);

	return rxb_cring_pending(&q->cr, q->sw.cq_head) ||
	       READ_ONCE(q->sw.slow_head) != stail;
}

static void ceio_ring_state(struct rxb_model *m, unsigned int qi,
			    struct rxb_ring_state *st)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];

	rxb_cring_state(&q->cr, &q->sw.cq_head, st);
}

/* ---- NIC side: the worker ------------------------------------------- */

/* Algorithm 1, on the worker: m new flows below their share take
 * (m/n) C_flow from each of the n others (all it has and a debt for the
 * rest from a flow short of it), once; flows owed credits are topped up
 * from the pool, where debtors' repayments go, on later ticks.
 */
static void ceio_realloc(struct ceio *ce)
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
	    atomic_read(&ce->pool) < (int)(c_flow * m_new)) {
		u32 quota = c_flow * m_new / n_old;

		rxb_stat_inc(&ce->ctl.realloc);
		for (i = 0; i < ce->nflows; i++) {
			struct ceio_flow *fl = &ce->flow[i];
			u32 t;

			if (READ_ONCE(fl->state) != CEIO_ACTIVE ||
			    READ_ONCE(fl->want) != CEIO_WANT_NONE)
				continue;
			t = ceio_take(&fl->credits, quota);
			if (t < quota)
				atomic_add(quota - t, &fl->debt);
			got += t;
		}
		atomic_add(got, &ce->pool);
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
			u32 t = ceio_take(&ce->pool, c_flow - have);

			atomic_add(t, &fl->credits);
			have += t;
		}
		WRITE_ONCE(fl->want, have < (int)c_flow ? CEIO_WANT_OWED :
			   CEIO_WANT_NONE);
	}
}

/* The NIC-side worker (the paper's ARM cores): returns, inactive flows,
 * round-robin re-activation and Algorithm 1, congestion events.
 */
static void ceio_hw_timer(struct rxb_model *m)
{
	struct ceio *ce = to_ceio(m);
	u64 now = rxb_hw_now_ns(m);
	u32 i, react = 0, qi;
	bool again = false;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];
		u32 head;

		spin_lock_bh(&q->hw.lock);
		ceio_reap(ce, q);
		head = rxb_db_read(&q->cregs.slow_head);
		if (q->hw.tick_arrivals > head - q->hw.tick_head &&
		    q->hw.slow_tail != head)
			rxb_stat_inc(&q->hw.congestion);
		again |= q->hw.slow_tail != head ||
			 q->hw.cq_tail != q->hw.credit_seen;
		q->hw.tick_arrivals = 0;
		q->hw.tick_head = head;
		spin_unlock_bh(&q->hw.lock);
	}

	spin_lock_bh(&ce->ctl.lock);
	for (i = 0; i < ce->nflows; i++) {
		struct ceio_flow *fl = &ce->flow[i];

		if (READ_ONCE(fl->state) != CEIO_ACTIVE)
			continue;
		if (now - READ_ONCE(fl->last_ns) > ce->inactive_ns) {
			ceio_flow_stop(ce, fl, CEIO_INACTIVE);
			rxb_stat_inc(&ce->ctl.inactive);
			continue;
		}
		again = true;
	}
	/* Round-robin re-activation of inactive flows that saw frames. */
	for (i = 0; i < ce->nflows && react < CEIO_REACT_PER_TICK; i++) {
		struct ceio_flow *fl = &ce->flow[(ce->ctl.rr + i) % ce->nflows];

		if (READ_ONCE(fl->state) != CEIO_INACTIVE ||
		    !READ_ONCE(fl->arrived))
			continue;
		WRITE_ONCE(fl->arrived, 0);
		ceio_flow_start(ce, fl);
		react++;
		again = true;
	}
	ce->ctl.rr = (ce->ctl.rr + i) % ce->nflows;
	rxb_stat_add(&ce->ctl.reactivated, react);
	ceio_realloc(ce);
	i = ceio_inflight(ce);
	if (i > ce->ctl.unconsumed_max)
		WRITE_ONCE(ce->ctl.unconsumed_max, i);
	spin_unlock_bh(&ce->ctl.lock);
	if (again)
		rxb_hw_arm_timer(m, CEIO_TICK_NS);
}

/* The flow table freed entry @flow: its credits go back (teardown). */
static void ceio_hw_flow_free(struct rxb_model *m, u32 flow)
{
	struct ceio *ce = to_ceio(m);

	if (flow >= m->cfg.flow_table_size)
		return;
	spin_lock_bh(&ce->ctl.lock);
	ceio_flow_stop(ce, &ce->flow[flow], CEIO_FREE);
	WRITE_ONCE(ce->flow[flow].slow, 0);
	WRITE_ONCE(ce->flow[flow].arrived, 0);
	spin_unlock_bh(&ce->ctl.lock);
}

static void ceio_hw_debug(struct rxb_model *m, unsigned int qi,
			  struct rxb_hw_debug *dbg)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];

	rxb_hw_debug_fill(dbg, &q->hw.cq_tail, &q->hw.rx_head,
			  &q->regs.rx_tail);
}

static const char *const ceio_qstat_names[] = {
	"ceio_fast", "ceio_slow", "ceio_to_slow", "ceio_to_fast",
	"ceio_tier_drops", "ceio_slow_ring_full", "ceio_congestion",
	"ceio_fetch_waits", "ceio_slow_alloc_fails",
};

static const u16 ceio_qstat_off[] = {
	offsetof(struct ceio_q, hw.fast),
	offsetof(struct ceio_q, hw.slow_pkts),
	offsetof(struct ceio_q, hw.to_slow),
	offsetof(struct ceio_q, hw.to_fast),
	offsetof(struct ceio_q, hw.tier_drops),
	offsetof(struct ceio_q, hw.slow_full),
	offsetof(struct ceio_q, hw.congestion),
	offsetof(struct ceio_q, sw.fetch_waits),
	offsetof(struct ceio_q, sw.slow_alloc_fails),
};

static_assert(ARRAY_SIZE(ceio_qstat_names) == ARRAY_SIZE(ceio_qstat_off));

static const char *const ceio_gstat_names[] = {
	"ceio_credits_total", "ceio_credits_free", "ceio_credits_inuse",
	"ceio_credits_flows", "ceio_flows_active", "ceio_host_unconsumed",
	"ceio_host_unconsumed_max", "ceio_tier_held", "ceio_realloc",
	"ceio_inactive", "ceio_reactivated",
};

#define CEIO_NGSTATS	ARRAY_SIZE(ceio_gstat_names)

static unsigned int ceio_xstats_count(struct rxb_model *m)
{
	return CEIO_NGSTATS + m->cfg.nqueues * ARRAY_SIZE(ceio_qstat_names);
}

static void ceio_xstats_names(struct rxb_model *m, char *names)
{
	unsigned int i;

	for (i = 0; i < CEIO_NGSTATS; i++, names += RXB_STAT_NAME_LEN)
		snprintf(names, RXB_STAT_NAME_LEN, "%s", ceio_gstat_names[i]);
	rxb_xstats_names_fill(names, "rx", m->cfg.nqueues, ceio_qstat_names,
			      ARRAY_SIZE(ceio_qstat_names));
}

/* Unused credits the flows hold. */
static u64 ceio_flow_credits(struct ceio *ce)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < ce->nflows; i++)
		sum += atomic_read(&ce->flow[i].credits);
	return sum;
}

static void ceio_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct ceio *ce = to_ceio(m);
	u64 flows = ceio_flow_credits(ce), pool = atomic_read(&ce->pool);
	u64 inflight = ceio_inflight(ce);
	unsigned int qi;

	*vals++ = ce->c_total;
	*vals++ = pool + flows;
	*vals++ = inflight;
	*vals++ = flows;
	*vals++ = atomic_read(&ce->active);
	*vals++ = inflight;
	*vals++ = max(READ_ONCE(ce->ctl.unconsumed_max), inflight);
	*vals++ = ce->nm ? atomic64_read(&ce->nm->held) : 0;
	*vals++ = READ_ONCE(ce->ctl.realloc);
	*vals++ = READ_ONCE(ce->ctl.inactive);
	*vals++ = READ_ONCE(ce->ctl.reactivated);
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		vals = rxb_stats_read(vals, &ce->q[qi], ceio_qstat_off,
				      ARRAY_SIZE(ceio_qstat_off));
}

/* ---- setup and counters --------------------------------------------- */

static int ceio_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	if (!cfg->hw_ops->dma_ptr || !cfg->hw_ops->nicmem ||
	    !cfg->hw_ops->nicmem_write) {
		*msg = "ceio: the NIC has no on-NIC memory tier";
		return -EINVAL;
	}
	if (!cfg->ceio_force_slow && cfg->ceio_llc_budget < cfg->buf_len) {
		*msg = "ceio: llc_budget below one buffer (no credit)";
		return -EINVAL;
	}
	if (cfg->ceio_llc_budget > RXB_CEIO_BUDGET_MAX) {
		*msg = "ceio: llc_budget above what the NIC addresses (1 GiB)";
		return -EINVAL;
	}
	if (cfg->ceio_force_slow && !cfg->nicmem_bytes) {
		*msg = "ceio: slow path forced but the on-NIC memory tier has no capacity";
		return -EINVAL;
	}
	if (cfg->ceio_release >= RXB_CEIO_REL_NMODES) {
		*msg = "ceio: unknown credit release mode";
		return -EINVAL;
	}
	if (cfg->ceio_release == RXB_CEIO_REL_PAGE &&
	    (!cfg->drv_ops->ref_buf || !cfg->drv_ops->buf_idle)) {
		*msg = "ceio: release=page needs buffer references from the driver";
		return -EINVAL;
	}
	return 0;
}

/* The Rx ring's buffers, and one per outstanding slow fetch (an async
 * fetch holds its host buffer from kick to delivery; at most ring_size).
 */
static unsigned int ceio_bufs_per_queue(const struct rxb_model_cfg *cfg)
{
	return 2 * cfg->ring_size;
}

static const struct rxb_layout ceio_layout =
	RXB_QUEUE_LAYOUT(struct ceio, struct ceio_q,
			 RXB_ARRAY(struct ceio_q, desc, struct rxb_rx_desc,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct ceio_q, cr.ent, struct rxb_cqe,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct ceio_q, slot_flow, u32, RXB_ARR_RING),
			 RXB_ARRAY(struct ceio_q, cookie, void *,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct ceio_q, lent, void *, RXB_ARR_RING));

static void ceio_free_arrays(struct ceio *ce)
{
	kvfree(ce->flow);
	kvfree(ce->slow);
	kvfree(ce->fetch);
	kvfree(ce->fetch_cookies);
	kvfree(ce->reqs);
}

/* Teardown: neither half runs. */
static void ceio_destroy(struct rxb_model *m)
{
	struct ceio *ce = to_ceio(m);
	unsigned int qi, i;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];

		for (i = 0; i < m->cfg.ring_size; i++)
			if (q->cookie[i])
				rxb_drv_free_buf(m, qi, q->cookie[i]);
		for (i = 0; i <= q->slow_mask; i++)
			if (q->fetch_cookie[i])
				rxb_drv_free_buf(m, qi, q->fetch_cookie[i]);
		/* Release=page: the references on buffers the stack holds. */
		for (i = 0; i < m->cfg.ring_size; i++)
			if (q->lent[i])
				rxb_drv_free_buf(m, qi, q->lent[i]);
		for (; q->hw.slow_freed != q->hw.slow_tail; q->hw.slow_freed++)
			rxb_nicmem_free(ce->nm,
					le64_to_cpu(q->slow[q->hw.slow_freed &
							    q->slow_mask].addr));
	}
	ceio_free_arrays(ce);
	rxb_model_free(m, &ceio_layout);
}

static struct rxb_model *ceio_create(const struct rxb_model_cfg *cfg)
{
	struct rxb_model *m = rxb_model_alloc(&rxb_ceio_ops, cfg, &ceio_layout);
	u32 nslow = cfg->ring_size * CEIO_SLOW_MULT;
	struct ceio *ce;
	unsigned int qi;

	if (IS_ERR(m))
		return m;
	ce = to_ceio(m);
	ce->nflows = cfg->flow_table_size + cfg->nqueues;
	ce->flow = kvcalloc(ce->nflows, sizeof(*ce->flow), GFP_KERNEL);
	ce->slow = kvcalloc(cfg->nqueues * nslow, sizeof(*ce->slow),
			    GFP_KERNEL);
	ce->fetch = kvcalloc(cfg->nqueues * nslow, sizeof(*ce->fetch),
			     GFP_KERNEL);
	ce->fetch_cookies = kvcalloc(cfg->nqueues * nslow,
				     sizeof(*ce->fetch_cookies), GFP_KERNEL);
	ce->reqs = kvcalloc(cfg->nqueues * nslow, sizeof(*ce->reqs),
			    GFP_KERNEL);
	if (!ce->flow || !ce->slow || !ce->fetch || !ce->fetch_cookies ||
	    !ce->reqs) {
		ceio_free_arrays(ce);
		rxb_model_free(m, &ceio_layout);
		return ERR_PTR(-ENOMEM);
	}
	ce->nm = rxb_hw_nicmem(m);
	ce->c_total = cfg->ceio_force_slow ? 0 :
		      cfg->ceio_llc_budget / cfg->buf_len;
	ce->inactive_ns = cfg->ceio_inactive_ns ?: CEIO_INACTIVE_NS;
	atomic_set(&ce->pool, ce->c_total);
	spin_lock_init(&ce->ctl.lock);
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];

		q->slow = ce->slow + qi * nslow;
		q->fetch = ce->fetch + qi * nslow;
		q->fetch_cookie = ce->fetch_cookies + qi * nslow;
		q->req = ce->reqs + qi * nslow;
		q->slow_mask = nslow - 1;
		spin_lock_init(&q->hw.lock);
		spin_lock_init(&q->fe.lock);
		rxb_cring_init(&q->cr, cfg->ring_size, &q->regs.cq_head);
		ceio_refill(m, qi);
	}
	return m;
}

/* Release=page keeps a reference on each fast buffer it hands up. */
static bool ceio_buf_refs(const struct rxb_model_cfg *cfg)
{
	return cfg->ceio_release == RXB_CEIO_REL_PAGE;
}

const struct rxb_model_ops rxb_ceio_ops = {
	RXB_MODEL_XOPS("ceio", ceio),
	.buf_refs = ceio_buf_refs,
	/* The fetch engine copies a slow-path frame into one host range. */
	.contig_bufs = true,
	.hw_timer = ceio_hw_timer,
	.validate = ceio_validate,
	.bufs_per_queue = ceio_bufs_per_queue,
	.hw_flow_free = ceio_hw_flow_free,
};
