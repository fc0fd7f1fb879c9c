// SPDX-License-Identifier: GPL-2.0
/*
 * CEIO, the driver's half: the fast path's rings, the slow path's fetch
 * ring, credit release, and the merge of both into one in-order stream
 * (Liu et al., SIGCOMM '25, sections 3-4, Fig. 7).  Registers and rings:
 * rxb_desc.h's CEIO section; the NIC's half: hw/models/ceio.c.
 *
 * Merge (ours): every fast completion carries the slow ring's tail as the
 * NIC wrote it then: the slow entries below it arrived before the fast
 * frame, and go up first.  When the completion ring is empty the driver
 * reads the slow_tail register (an MMIO read: the paper's driver polls
 * the "on-NIC buffer ring registers", §4.2), once per poll, and in
 * rx_pending(); nothing else of the NIC's memory is read.
 *
 * Slow-path fetch (§4.2, recv() and async_recv()): the driver posts a host
 * buffer per slow entry in the fetch ring and writes fetch_tail; the NIC
 * copies the frame once its memory tier's latency has passed, writes the
 * frame's length and hash back, sets the done mark and raises the queue's
 * interrupt.  async (ceio_fetch=async, the default: async_recv()): the
 * driver posts fetches for every slow entry it knows of, up to a ring of
 * buffers in flight, and a poll stops at the first one not done yet.
 * sync (recv()): one fetch at a time, posted when the entry is next to
 * go up; the poll stops until it is done.  Neither waits in a loop: the
 * done mark's interrupt schedules the next poll.
 *
 * Lazy release: the driver writes the count of fast entries whose credit
 * it releases, in CR order, to credit_ci.  Batch: at the end of each
 * poll, for the entries it handed up.  Page: the driver keeps a reference
 * on each fast buffer it hands up and, at its next poll or refill,
 * releases in CR order the credits of those whose other references are
 * gone (rxb_drv_ops.buf_idle: the page would be back in its page_pool),
 * dropping its own.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include "drv_ring.h"

struct ceio_q {
	struct rxb_rx_desc *desc;	/* the fast Rx ring, in @desc_mem */
	struct rxb_ring_mem desc_mem;
	struct rxb_cring cr;
	struct rxb_ceio_fetch *fetch;	/* the fetch ring, in @fetch_mem */
	const __le64 *ts;		/* its stamp ring, in @fetch_mem, or NULL */
	struct rxb_ring_mem fetch_mem;
	struct rxb_ceio_qregs *regs;	/* the queue's registers */
	const struct rxb_ceio_qstats_regs *hst;	/* the NIC's statistics */
	void **cookie;			/* buffer per descriptor */
	void **lent;			/* release=page: buffers handed up whose
					 * credit is not released, in CR order
					 */
	void **fetch_cookie;		/* buffer per fetch entry */
	u32 slow_mask;			/* slow (and fetch) entries - 1 */
	u32 rx_tail;
	u32 rx_ci;
	u32 cq_head;
	u32 slow_head;			/* next slow entry to hand up */
	u32 slow_known;			/* slow entries the driver knows of */
	u32 fetch_head;			/* next fetch entry to post */
	u32 credit_rel;			/* release=page: credits released */
	bool slow_nobuf;		/* a fetch found no buffer */
	u64 fetch_waits;		/* polls stopped at a fetch in flight */
	u64 slow_alloc_fails;
} ____cacheline_aligned;

struct ceio {
	struct rxb_model m;
	struct ceio_q *q;
	const struct rxb_ceio_gstats_regs *gs;	/* the NIC's statistics */
};

#define to_ceio(mp)		container_of(mp, struct ceio, m)

/* Slow (and fetch) ring entries of a configuration, as the NIC's. */
static u32 ceio_nslow(const struct rxb_model_cfg *cfg)
{
	return min_t(u32, cfg->ring_size * RXB_CEIO_SLOW_MULT,
		     RXB_CEIO_SLOW_MAX);
}

/* Release=page: the credits of the fast buffers handed up whose packets
 * are all freed (the buffer would be back in its pool but for the
 * model's reference), in CR order: drop that reference and tell the NIC.
 */
static void ceio_release_pages(struct rxb_model *m, unsigned int qi,
			       struct ceio_q *q)
{
	u32 rel = q->credit_rel;

	if (m->cfg.ceio_release != RXB_CEIO_REL_PAGE)
		return;
	while (rel != q->rx_ci) {
		void **c = &q->lent[rel & q->cr.mask];

		if (!rxb_drv_buf_idle(m, qi, *c))
			break;
		rxb_drv_free_buf(m, qi, *c);
		*c = NULL;
		rel++;
	}
	if (rel != q->credit_rel) {
		q->credit_rel = rel;
		rxb_db_ring(m, qi, &q->regs->slow.credit_ci, rel);
	}
}

static bool ceio_refill_fast(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];

	return rxb_ring_refill(m, qi, q->desc, q->cookie, q->cr.mask,
			       &q->rx_tail, q->rx_ci, &q->regs->fast.rx_tail);
}

/* A fetch that found no host buffer is a failed refill as well: the
 * driver then backs off as for an empty fast ring, where rx_pending() (the
 * entry still waits) would otherwise repoll at once, without end.
 */
static bool ceio_refill(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];
	bool ok;

	ceio_release_pages(m, qi, q);
	ok = ceio_refill_fast(m, qi);
	if (q->slow_nobuf) {
		q->slow_nobuf = false;
		ok = false;
	}
	return ok;
}

/* Post a host buffer for the slow entry at fetch_head; false if none. */
static bool ceio_fetch_post(struct rxb_model *m, unsigned int qi,
			    struct ceio_q *q)
{
	u32 i = q->fetch_head & q->slow_mask;
	struct rxb_ceio_fetch *fd = &q->fetch[i];
	struct rxb_buf buf;

	if (rxb_drv_alloc_buf(m, qi, &buf)) {
		rxb_stat_inc(&q->slow_alloc_fails);
		q->slow_nobuf = true;
		return false;
	}
	q->fetch_cookie[i] = buf.cookie;
	memset(fd, 0, sizeof(*fd));
	fd->buf_addr = cpu_to_le64(buf.addr);
	fd->buf_len = cpu_to_le32(m->cfg.buf_len);
	/* The NIC writes the flags after it read the tail (acquire) that
	 * the release of the fetch_tail write publishes this after.
	 */
	q->fetch_head++;
	return true;
}

/* Fetches in flight a queue may have: sync one, async a ring of buffers. */
static u32 ceio_fetch_max(const struct rxb_model *m, const struct ceio_q *q)
{
	return m->cfg.ceio_fetch_async ? q->cr.mask + 1 : 1;
}

/* Could a fetch be posted now: a known slow entry, room in flight? */
static bool ceio_can_post(const struct rxb_model *m, const struct ceio_q *q)
{
	return q->fetch_head != q->slow_known &&
	       q->fetch_head - q->slow_head < ceio_fetch_max(m, q);
}

/* Post fetches for the slow entries the driver knows of: sync, only the
 * one to go up next (none in flight); async, all of them, at most a ring
 * of buffers in flight.  One register write for what was posted.
 */
static void ceio_fetch_kick(struct rxb_model *m, unsigned int qi,
			    struct ceio_q *q)
{
	u32 head0 = q->fetch_head;

	while (ceio_can_post(m, q))
		if (!ceio_fetch_post(m, qi, q))
			break;
	if (q->fetch_head != head0)
		rxb_db_ring(m, qi, &q->regs->slow.fetch_tail, q->fetch_head);
}

/* The done mark of fetch entry @i, 0 while the fetch is in flight. */
static u8 ceio_fetch_flags(struct ceio_q *q, u32 i)
{
	/* Acquire: pairs with the release in ceio_fetch_done() (NIC): then
	 * the frame is in the buffer and the write-back done.
	 */
	return smp_load_acquire(&q->fetch[i].flags);
}

/* Hand up the slow entry at slow_head into its host buffer; false if its
 * fetch is not posted or still in flight.
 */
static bool ceio_slow_deliver(struct rxb_model *m, unsigned int qi,
			      struct ceio_q *q, struct rxb_pkt *pkt)
{
	u32 i = q->slow_head & q->slow_mask;
	const struct rxb_ceio_fetch *fd = &q->fetch[i];
	u8 flags;

	if (q->fetch_head == q->slow_head)
		ceio_fetch_kick(m, qi, q);
	flags = q->fetch_head != q->slow_head ? ceio_fetch_flags(q, i) : 0;
	if (!(flags & RXB_CEIO_FETCH_DONE)) {
		rxb_stat_inc(&q->fetch_waits);
		return false;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->cookie = q->fetch_cookie[i];
	pkt->len = le16_to_cpu(fd->pkt_len);
	pkt->hash = le32_to_cpu(fd->rss_hash);
	pkt->ts = rxb_tstamp_read(q->ts, i);
	pkt->flags = fd->hash_flags & (RXB_CQE_F_L4_HASH | RXB_CQE_F_L3_HASH);
	if (flags & RXB_CEIO_FETCH_ERR) {
		pkt->flags |= RXB_CQE_F_DMA_ERR;
		pkt->len = 0;
	}
	pkt->pool_q = qi;
	q->fetch_cookie[i] = NULL;
	q->slow_head++;
	return true;
}

/* The NIC's slow_tail register: an MMIO read, counted. */
static void ceio_read_slow_tail(struct rxb_model *m, unsigned int qi,
				struct ceio_q *q)
{
	u32 t = rxb_reg_read(m, qi, &q->regs->slow.slow_tail);

	/* Never backwards: a fast completion may have told more already. */
	if ((s32)(t - q->slow_known) > 0)
		q->slow_known = t;
}

static int ceio_poll(struct rxb_model *m, unsigned int qi,
		     struct rxb_pkt *pkts, int budget)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];
	bool page = m->cfg.ceio_release == RXB_CEIO_REL_PAGE, tail_read = false;
	u32 head = q->cq_head;
	int n = 0, nfast = 0;
	u64 bytes = 0;

	ceio_release_pages(m, qi, q);
	if (m->cfg.ceio_fetch_async)
		ceio_fetch_kick(m, qi, q);
	while (n < budget) {
		if (rxb_cring_ready(&q->cr, head)) {
			/* Slow entries below the tail the NIC wrote into the
			 * completion go up before its frame.
			 */
			u16 before = (u16)le16_to_cpu(q->cr.ent[head & q->cr.mask].ring_id) -
				     (u16)q->slow_head;

			if (before) {
				if ((s32)(q->slow_head + before - q->slow_known) > 0)
					q->slow_known = q->slow_head + before;
				if (!ceio_slow_deliver(m, qi, q, &pkts[n]))
					break;
			} else {
				u32 slot = rxb_cring_read(&q->cr, head, &pkts[n]);
				void *c = q->cookie[slot];

				pkts[n].cookie = c;
				pkts[n].pool_q = qi;
				q->cookie[slot] = NULL;
				if (page) {
					/* Keep a reference: the credit goes
					 * back when the stack's is gone.
					 */
					rxb_drv_ref_buf(m, qi, c);
					q->lent[(q->rx_ci + nfast) & q->cr.mask] = c;
				}
				head++;
				nfast++;
			}
		} else {
			/* No fast completion: the slow ring's tail, once; then
			 * the completion ring again: a fast entry written
			 * before the slow entries the tail shows is visible
			 * now, and goes first (its copy of the tail says
			 * which slow entries precede it).
			 */
			if (!tail_read) {
				ceio_read_slow_tail(m, qi, q);
				tail_read = true;
				continue;
			}
			if (q->slow_head == q->slow_known ||
			    !ceio_slow_deliver(m, qi, q, &pkts[n]))
				break;
		}
		bytes += pkts[n].len;
		n++;
	}
	if (nfast) {
		q->rx_ci += nfast;
		rxb_cring_consume(m, qi, &q->cr, &q->cq_head, nfast, n, bytes);
		/* Lazy release, batch mode: the batch is handed up. */
		if (!page)
			rxb_db_ring(m, qi, &q->regs->slow.credit_ci, q->rx_ci);
	} else if (n) {
		rxb_stat_add(&m->qstats[qi].packets, n);
		rxb_stat_add(&m->qstats[qi].bytes, bytes);
	}
	if (m->cfg.ceio_fetch_async)
		ceio_fetch_kick(m, qi, q);
	ceio_refill_fast(m, qi);
	return n;
}

/* Something to poll: a fetch done, a fast completion no slow entry
 * precedes, or a slow entry whose fetch can be posted (known from a fast
 * completion's copy of the tail, or from the slow_tail register, an MMIO
 * read).  A fetch in flight is not, nor a fast completion waiting behind
 * it: the fetch's completion raises the interrupt, so NAPI sleeps
 * meanwhile rather than repolling until it is due.
 */
static bool ceio_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct ceio_q *q = &to_ceio(m)->q[qi];

	if (q->fetch_head != q->slow_head &&
	    (ceio_fetch_flags(q, q->slow_head & q->slow_mask) &
	     RXB_CEIO_FETCH_DONE))
		return true;
	if (rxb_cring_pending(&q->cr, q->cq_head)) {
		u16 before = (u16)le16_to_cpu(q->cr.ent[q->cq_head & q->cr.mask].ring_id) -
			     (u16)q->slow_head;

		if (!before)
			return true;
		/* As the poll learns it: slow entries precede this one. */
		if ((s32)(q->slow_head + before - q->slow_known) > 0)
			q->slow_known = q->slow_head + before;
		return ceio_can_post(m, q);
	}
	ceio_read_slow_tail(m, qi, q);
	return ceio_can_post(m, q);
}

/* The fast path's Rx ring and completion ring. */
RXB_DEFINE_CRING_QUEUE_OPS(ceio, offsetof(struct rxb_ceio_qregs, fast.rx_tail))

/* The NIC's per-queue statistics registers, then the driver's own. */
static const char *const ceio_qstat_names[] = {
	"ceio_fast", "ceio_slow", "ceio_to_slow", "ceio_to_fast",
	"ceio_tier_drops", "ceio_slow_ring_full", "ceio_congestion",
	"ceio_fetch_waits", "ceio_slow_alloc_fails",
};

static const u16 ceio_hw_qstat_off[] = {
	offsetof(struct rxb_ceio_qstats_regs, fast),
	offsetof(struct rxb_ceio_qstats_regs, slow),
	offsetof(struct rxb_ceio_qstats_regs, to_slow),
	offsetof(struct rxb_ceio_qstats_regs, to_fast),
	offsetof(struct rxb_ceio_qstats_regs, tier_drops),
	offsetof(struct rxb_ceio_qstats_regs, slow_full),
	offsetof(struct rxb_ceio_qstats_regs, congestion),
};

static const u16 ceio_sw_qstat_off[] = {
	offsetof(struct ceio_q, fetch_waits),
	offsetof(struct ceio_q, slow_alloc_fails),
};

static_assert(ARRAY_SIZE(ceio_qstat_names) ==
	      ARRAY_SIZE(ceio_hw_qstat_off) + ARRAY_SIZE(ceio_sw_qstat_off));

static const char *const ceio_gstat_names[] = {
	"ceio_credits_total", "ceio_credits_free", "ceio_credits_inuse",
	"ceio_credits_flows", "ceio_flows_active", "ceio_host_unconsumed",
	"ceio_host_unconsumed_max", "ceio_tier_held", "ceio_realloc",
	"ceio_inactive", "ceio_reactivated", "ceio_borrowed",
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

/* Credits in flight: fast entries the NIC wrote whose credit it has not
 * seen come back (its debug and statistics registers).
 */
static u64 ceio_inflight(struct rxb_model *m)
{
	struct ceio *ce = to_ceio(m);
	unsigned int qi;
	u64 held = 0;

	for (qi = 0; qi < m->cfg.nqueues; qi++)
		held += (u32)(READ_ONCE(rxb_bar_qdebug(&m->bar, qi)->cq_tail) -
			      (u32)READ_ONCE(ce->q[qi].hst->credit_seen));
	return held;
}

static void ceio_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct ceio *ce = to_ceio(m);
	const struct rxb_ceio_gstats_regs *gs = ce->gs;
	u64 flows = atomic64_read(&gs->flow_credits);
	u64 inflight = ceio_inflight(m);
	unsigned int qi;

	*vals++ = atomic64_read(&gs->credits_total);
	*vals++ = atomic64_read(&gs->pool) + flows;
	*vals++ = inflight;
	*vals++ = flows;
	*vals++ = atomic64_read(&gs->flows_active);
	*vals++ = inflight;
	*vals++ = max_t(u64, atomic64_read(&gs->unconsumed_max), inflight);
	*vals++ = atomic64_read(&gs->tier_held);
	*vals++ = atomic64_read(&gs->realloc);
	*vals++ = atomic64_read(&gs->inactive);
	*vals++ = atomic64_read(&gs->reactivated);
	*vals++ = atomic64_read(&gs->borrowed);
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		vals = rxb_stats_read(vals, ce->q[qi].hst, ceio_hw_qstat_off,
				      ARRAY_SIZE(ceio_hw_qstat_off));
		vals = rxb_stats_read(vals, &ce->q[qi], ceio_sw_qstat_off,
				      ARRAY_SIZE(ceio_sw_qstat_off));
	}
}

/* ---- setup ---------------------------------------------------------- */

static int ceio_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
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
	return 0;
}

/* The Rx ring's buffers, and one per outstanding slow fetch (a fetch
 * holds its host buffer from posting to delivery; at most ring_size).
 */
static unsigned int ceio_bufs_per_queue(const struct rxb_model_cfg *cfg)
{
	return 2 * cfg->ring_size;
}

/* Release=page keeps a reference on each fast buffer it hands up. */
static bool ceio_buf_refs(const struct rxb_model_cfg *cfg)
{
	return cfg->ceio_release == RXB_CEIO_REL_PAGE;
}

static const struct rxb_layout ceio_layout =
	RXB_QUEUE_LAYOUT(struct ceio, struct ceio_q,
			 RXB_ARRAY(struct ceio_q, cookie, void *,
				   RXB_ARR_RING),
			 RXB_ARRAY(struct ceio_q, lent, void *, RXB_ARR_RING));

/* The NIC's context is disabled: nothing reads or writes the rings. */
static void ceio_fini(struct rxb_model *m)
{
	struct ceio *ce = to_ceio(m);
	unsigned int qi, i;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];

		for (i = 0; q->cookie && i < m->cfg.ring_size; i++)
			if (q->cookie[i])
				rxb_drv_free_buf(m, qi, q->cookie[i]);
		for (i = 0; q->fetch_cookie && i <= q->slow_mask; i++)
			if (q->fetch_cookie[i])
				rxb_drv_free_buf(m, qi, q->fetch_cookie[i]);
		/* Release=page: the references on buffers the stack holds. */
		for (i = 0; q->lent && i < m->cfg.ring_size; i++)
			if (q->lent[i])
				rxb_drv_free_buf(m, qi, q->lent[i]);
		kvfree(q->fetch_cookie);
		rxb_ring_mem_free(m, &q->desc_mem);
		rxb_ring_mem_free(m, &q->fetch_mem);
		rxb_cring_free(m, &q->cr);
	}
}

static int ceio_init(struct rxb_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	u32 nslow = ceio_nslow(cfg);
	struct ceio *ce = to_ceio(m);
	unsigned int qi;

	/* release=page keeps references on buffers it hands up. */
	if (cfg->ceio_release == RXB_CEIO_REL_PAGE &&
	    (!m->env->ref_buf || !m->env->buf_idle))
		return -EINVAL;
	ce->gs = (const void *)((u8 *)rxb_bar_page(&m->bar, 0) +
				RXB_GPAGE_MSTATS);
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct ceio_q *q = &ce->q[qi];

		q->regs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->hst = rxb_bar_q(&m->bar, qi, RXB_QPAGE_MSTATS);
		q->slow_mask = nslow - 1;
		q->fetch_cookie = kvcalloc(nslow, sizeof(*q->fetch_cookie),
					   GFP_KERNEL);
		if (q->fetch_cookie)
			q->desc = rxb_rxq_alloc(m, qi, &q->regs->fast,
						&q->desc_mem, &q->cr);
		if (!q->desc ||
		    rxb_ring_mem_alloc(m, &q->fetch_mem,
				       (size_t)nslow * sizeof(*q->fetch) +
				       rxb_tstamp_ring_bytes(nslow,
							     m->cfg.rx_tstamp)))
			return -ENOMEM;
		q->fetch = q->fetch_mem.va;
		q->ts = m->cfg.rx_tstamp ? (const __le64 *)(q->fetch + nslow) :
			NULL;
		rxb_reg_base(m, qi, &q->regs->slow.fetch_base,
			     q->fetch_mem.addr);
		ceio_refill(m, qi);
	}
	return 0;
}

const struct rxb_model_ops rxb_ceio_ops = {
	RXB_MODEL_OPS("ceio", ceio),
	.buf_refs = ceio_buf_refs,
	/* The fetch engine copies a slow-path frame into one host range. */
	.contig_bufs = true,
	.bufs_per_queue = ceio_bufs_per_queue,
};
