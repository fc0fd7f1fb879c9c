// SPDX-License-Identifier: GPL-2.0
/*
 * Ensō, the NIC's half: streaming receive into contiguous pipes with
 * reactive notifications (Sadok et al., OSDI '23, sections 3-5, Figure 5).
 * Register layout and framing: the Ensō section of rxb_desc.h.
 *
 * Per queue (one interrupt vector) the NIC runs the queue's RX pipe
 * managers and its notification buffer manager (section 5.2.1) under one
 * lock: arrival (enso_rx()) and the handling of register writes
 * (enso_doorbell()) are serialised per pipe by it, as Ensō's pipe managers
 * serialise them.  Each pipe's state is "the buffer's physical address,
 * Head_SW, Tail_NIC, notification buffer ID and notification status bit"
 * (section 5.2.1): the address is read from the pipe's rx_mem register
 * once, when the context is enabled (enso_start()), Head_SW is the last
 * value the NIC read from the pipe's rx_head register, Tail_NIC and the
 * status bit are the NIC's own.
 *
 * Reactive notifications (Figure 5, section 4.2): a frame arriving with
 * status 0 is notified and sets it; with status 1 it is not (the tail runs
 * ahead silently).  A write of Head_SW that reaches Tail_NIC clears the
 * bit; one that does not notifies the current Tail_NIC.  The driver's
 * write is a posted MMIO write: the NIC applies onRxUpdate when its
 * doorbell service reaches the pipe's page (before its next frame, or from
 * its idle service), never in the driver's call; writes to one page it has
 * not served yet count as one, with the last value (their notifications
 * would all carry the tail the NIC has when it serves them).  Every write
 * into the page is an event, a write of the value Head_SW already held
 * too: that is the prefetch doorbell (section 4.2, notification
 * prefetching).
 *
 * Choices where the paper is silent, after Ensō's library
 * (github.com/crossroadsfpga/enso) unless marked ours:
 *  - a frame that does not fit in its pipe's free space is dropped whole
 *    (ring_full_drops);
 *  - a notification that does not fit in the notification ring is dropped
 *    alone; ours: the NIC remembers the pipe and notifies it again when the
 *    driver next frees notification entries (a write of the ring's head
 *    register that moved it, served in the NIC's context like the others),
 *    so no byte stays unnotified;
 *  - steering (enso_pipe_of()): the NIC's pipeline picks the queue
 *    (ntuple rule, else RSS) and its flow table the flow's entry; the
 *    model binds each entry to a pipe of that queue on the flow's first
 *    frame there and keeps it on that pipe while the entry lives (until
 *    rxb_hw_model_ops.flow_free).  Ensō's NIC flow table holds the
 *    bindings software installs and sends the rest to fallback pipes by
 *    hash; here the NIC learns flows itself, so ours: a new flow goes to
 *    the queue's pipe with the fewest live flows, ties broken from the
 *    pipe the RSS hash picks.  Least-loaded rather than hash alone so
 *    that flows spread over the pipes as Ensō's evaluation spreads them
 *    (evenly, EnsōGen's round-robin): with the hash, two flows share one
 *    of two pipes half the time.  Frames the table does not track
 *    (RXB_FLOW_NONE) take the hash's pipe.  A flow an ntuple rule (or a
 *    new indirection table) moves to another queue is bound again there
 *    (counted in flow_moves).  The flow table must hold at least one
 *    entry per pipe (the driver half's validate).
 *  - Chaotic Ensō (section 7.2.3, cfg->enso_chaotic, for benchmarks
 *    only): a gap after each frame, rxb_enso_gap(), which both halves
 *    compute, so neither keeps state.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include "hw_ring.h"

/* The state of one pipe (its pipe manager's record). */
struct enso_hw_pipe {
	struct rxb_enso_pipe_regs *regs;	/* its page */
	u64 addr;		/* bus address, latched at start */
	__le64 *ts;		/* its stamp ring, mapped at start, or NULL */
	u32 tail;		/* Tail_NIC, flits */
	u32 head;		/* Head_SW as the NIC last read it, flits */
	u8 status;		/* Figure 5's status bit */
	u8 missed;		/* a notification was dropped: notify again */
	u8 listed;		/* in the queue's retry list */
	atomic_t flows;		/* flow table entries bound to the pipe */
};

struct enso_hw_q {
	spinlock_t lock;	/* the pipe and notification managers */
	struct enso_hw_pipe *pipe;
	struct rxb_enso_notif *notif;	/* the notification ring, mapped */
	struct rxb_enso_notif_regs *nregs;
	/* cq_tail: next notification entry; taken: frames written; free:
	 * free flits of the queue's pipes.
	 */
	struct rxb_qdebug_regs *dbg;
	struct rxb_enso_qstats_regs *st;
	u16 *retry;		/* pipes whose notification was dropped */
	u32 nretry;
	u32 nhead;		/* notification head at the last service */
} ____cacheline_aligned;

struct enso_hw {
	struct rxb_hw_model m;
	struct enso_hw_q *q;
	u32 flit_mask;		/* flits per pipe - 1 (head, tail wrap) */
	/* Per flow table entry its pipe, ENSO_BIND(qi, pi), or
	 * RXB_FLOW_NONE; NULL without a flow table (flow_table_size 0).
	 */
	u32 *flow_pipe;
};

static const struct rxb_layout enso_hw_layout =
	RXB_QUEUE_LAYOUT(struct enso_hw, struct enso_hw_q);

#define ENSO_BIND(qi, pi)	((u32)(qi) << 16 | (pi))
#define ENSO_BIND_Q(b)		((b) >> 16)
#define ENSO_BIND_PIPE(b)	((b) & 0xffff)

#define to_enso_hw(mp)		container_of(mp, struct enso_hw, m)

/* The pipe of its queue the RSS hash picks: the hash's other bits (the
 * low ones chose the queue).
 */
static unsigned int enso_hash_pipe(const struct rxb_hw_model *m,
				   const struct rxb_frame *f)
{
	u32 h = f->hash << 16 | f->hash >> 16;

	return ((u64)h * m->cfg.enso_pipes) >> 32;
}

/* The pipe of queue @qi frame @f goes to, under q->lock: its flow's pipe,
 * or a new binding to the pipe with the fewest live flows (from the
 * hash's pipe on: ties go to it).  Bindings are exchanged atomically:
 * frames of one flow on two queues at once (while a steering rule
 * changes) each leave one binding, released once.
 */
static unsigned int enso_pipe_of(struct rxb_hw_model *m, unsigned int qi,
				 struct enso_hw_q *q, const struct rxb_frame *f)
{
	struct enso_hw *e = to_enso_hw(m);
	unsigned int np = m->cfg.enso_pipes, pi = enso_hash_pipe(m, f), i;
	int best;
	u32 old;

	if (!e->flow_pipe || f->flow >= m->cfg.flow_table_size)
		return pi;
	old = READ_ONCE(e->flow_pipe[f->flow]);
	if (old != RXB_FLOW_NONE && ENSO_BIND_Q(old) == qi)
		return ENSO_BIND_PIPE(old);
	best = atomic_read(&q->pipe[pi].flows);
	for (i = 1; i < np && best; i++) {
		unsigned int k = (pi + i) & (np - 1);
		int n = atomic_read(&q->pipe[k].flows);

		if (n < best) {
			best = n;
			pi = k;
		}
	}
	atomic_inc(&q->pipe[pi].flows);
	old = xchg(&e->flow_pipe[f->flow], ENSO_BIND(qi, pi));
	rxb_stat_inc(&q->st->flow_binds);
	if (old != RXB_FLOW_NONE) {
		atomic_dec(&e->q[ENSO_BIND_Q(old)].pipe[ENSO_BIND_PIPE(old)].flows);
		rxb_stat_inc(&q->st->flow_moves);
	}
	return pi;
}

/* Flow table entry @flow is free (rxb_hw_model_ops.flow_free). */
static void enso_flow_free(struct rxb_hw_model *m, u32 flow)
{
	struct enso_hw *e = to_enso_hw(m);
	u32 old;

	if (!e->flow_pipe || flow >= m->cfg.flow_table_size)
		return;
	old = xchg(&e->flow_pipe[flow], RXB_FLOW_NONE);
	if (old != RXB_FLOW_NONE)
		atomic_dec(&e->q[ENSO_BIND_Q(old)].pipe[ENSO_BIND_PIPE(old)].flows);
}

/* Read pipe @p's Head_SW register, under q->lock: the free flits the
 * queue's debug register counts grow by what the driver gave back.
 *
 * Return: Head_SW.
 */
static u32 enso_read_head(struct rxb_hw_model *m, struct enso_hw_q *q,
			  struct enso_hw_pipe *p)
{
	/* Acquire: pairs with the release of the driver's register write
	 * (rxb_reg_write()): it is done reading the flits below Head_SW.
	 */
	u32 head = rxb_db_read(&p->regs->rx_head) & to_enso_hw(m)->flit_mask;

	if (head != p->head) {
		WRITE_ONCE(q->dbg->free, q->dbg->free +
			   ((head - p->head) & to_enso_hw(m)->flit_mask));
		p->head = head;
	}
	return head;
}

/* Write a notification of pipe @pi's Tail_NIC, under q->lock.  Returns
 * false when the notification ring is full: the notification is dropped
 * and the pipe is notified again once the driver frees entries
 * (enso_notif_head_write()).
 */
static bool enso_notify(struct rxb_hw_model *m, unsigned int qi,
			struct enso_hw_q *q, unsigned int pi)
{
	struct enso_hw_pipe *p = &q->pipe[pi];
	u32 t = q->dbg->cq_tail;
	struct rxb_enso_notif *n;

	/* Acquire: pairs with the release of the driver's head write: it
	 * cleared the signals of the entries it gave back.
	 */
	if (t - rxb_db_read(&q->nregs->head) >= m->cfg.ring_size) {
		rxb_stat_inc(&q->st->notif_drops);
		p->missed = 1;
		if (!p->listed) {
			p->listed = 1;
			q->retry[q->nretry++] = pi;
		}
		return false;
	}
	n = &q->notif[t & (m->cfg.ring_size - 1)];
	n->pipe = cpu_to_le64((u64)qi * m->cfg.enso_pipes + pi);
	n->tail = cpu_to_le64(p->tail);
	/* Release (the NIC's write barrier before the signal): the frames up
	 * to the tail and the fields above are visible before the signal.
	 * Pairs with the acquire of the driver's enso_notif_ready().
	 */
	smp_store_release(&n->signal, 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*n));
	p->missed = 0;
	WRITE_ONCE(q->dbg->cq_tail, t + 1);
	rxb_stat_inc(&q->st->notifs);
	return true;
}

static int enso_rx(struct rxb_hw_model *m, unsigned int qi,
		   const struct rxb_frame *f)
{
	struct enso_hw_q *q = &to_enso_hw(m)->q[qi];
	u32 mask = to_enso_hw(m)->flit_mask, need, head, csum = 0;
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, qi);
	struct rxb_enso_hdr hdr;
	struct enso_hw_pipe *p;
	bool irq = false;
	unsigned int pi;
	int err = 0;
	u8 flags;

	spin_lock(&q->lock);
	pi = enso_pipe_of(m, qi, q, f);
	p = &q->pipe[pi];
	if (f->len > m->cfg.buf_len) {
		err = -EMSGSIZE;
		goto out;
	}
	need = rxb_enso_frame_flits(f->len) +
	       rxb_enso_gap(m->cfg.enso_chaotic, p->tail);
	/* Section 5.2.1: "the manager checks for sufficient space". */
	head = enso_read_head(m, q, p);
	if (need > ((head - p->tail - 1) & mask)) {
		err = -ENOSPC;		/* the whole frame is dropped */
		goto out;
	}
	flags = f->hash_flags;
	flags |= rxb_hw_dma_write_ring(m, f, p->addr, m->cfg.enso_pipe_size,
				       p->tail * RXB_ENSO_FLIT + sizeof(hdr),
				       &csum);
	hdr = (struct rxb_enso_hdr) {
		.len = cpu_to_le16(f->len),
		.flags = flags,
		.rss_hash = cpu_to_le32(f->hash),
		.csum = cpu_to_le32(csum),
	};
	/* The stamp in the slot of the header's flit (RXB_TSTAMP). */
	rxb_hw_tstamp_put(m, qi, p->ts, p->tail, f->ts);
	/* A flit never straddles the pipe's end: nor does the header. */
	rxb_hw_dma_put(m, &hdr, sizeof(hdr), p->addr + p->tail * RXB_ENSO_FLIT);
	/* The framing header is metadata on the bus, as a descriptor is. */
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(hdr));
	p->tail = (p->tail + need) & mask;
	WRITE_ONCE(p->regs->rx_tail, p->tail);
	WRITE_ONCE(q->dbg->free, q->dbg->free - need);
	WRITE_ONCE(q->dbg->taken, q->dbg->taken + 1);
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
	/* Figure 5, onPktArrival. */
	if (!p->status) {
		irq = enso_notify(m, qi, q, pi);
		p->status = 1;
	} else {
		rxb_stat_inc(&q->st->suppressed);
	}
out:
	return rxb_nic_finish_irq(m, qi, &q->lock, err, irq);
}

/* The driver wrote pipe @pi's page (Figure 5, onRxUpdate): Head_SW
 * reached Tail_NIC, or the NIC notifies the tail.  A write of the value
 * Head_SW held is the prefetch doorbell.
 */
static void enso_head_write(struct rxb_hw_model *m, unsigned int qi,
			    unsigned int pi)
{
	struct enso_hw_q *q = &to_enso_hw(m)->q[qi];
	struct enso_hw_pipe *p = &q->pipe[pi];
	bool irq = false;

	spin_lock(&q->lock);
	if (enso_read_head(m, q, p) == p->tail) {
		p->status = 0;
		p->missed = 0;
	} else {
		irq = enso_notify(m, qi, q, pi);
		p->status = 1;
	}
	spin_unlock(&q->lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
}

/* The driver wrote queue @qi's page: if the notification head moved,
 * entries are free: notify the pipes whose notification was dropped, in
 * drop order.
 */
static void enso_notif_head_write(struct rxb_hw_model *m, unsigned int qi)
{
	struct enso_hw_q *q = &to_enso_hw(m)->q[qi];
	bool irq = false;
	u32 i = 0, j, head;

	spin_lock(&q->lock);
	/* Acquire: pairs with the release of the driver's head write. */
	head = rxb_db_read(&q->nregs->head);
	if (head == q->nhead)
		goto out;	/* no entry freed since the last service */
	q->nhead = head;
	for (; i < q->nretry; i++) {
		struct enso_hw_pipe *p = &q->pipe[q->retry[i]];

		if (p->missed) {
			if (!enso_notify(m, qi, q, q->retry[i]))
				break;
			rxb_stat_inc(&q->st->notif_retries);
			irq = true;
		}
		p->listed = 0;
	}
	/* enso_notify() failing re-listed nothing: the pipe is listed. */
	for (j = 0; i < q->nretry; i++, j++)
		q->retry[j] = q->retry[i];
	q->nretry = j;
out:
	spin_unlock(&q->lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
}

/* The NIC's doorbell service: the driver wrote registers of page @page. */
static void enso_doorbell(struct rxb_hw_model *m, u32 page)
{
	u32 np = m->cfg.enso_pipes, nq = m->cfg.nqueues;

	if (page >= m->bar.qpage && page - m->bar.qpage < nq) {
		enso_notif_head_write(m, page - m->bar.qpage);
	} else if (page >= m->bar.xpage && page - m->bar.xpage < nq * np) {
		page -= m->bar.xpage;
		enso_head_write(m, page / np, page % np);
	}
}

/* Pages beyond page 0: the queues', then one per pipe. */
static u32 enso_bar_pages(const struct rxb_model_cfg *cfg)
{
	return cfg->nqueues + cfg->nqueues * cfg->enso_pipes;
}

/* The context is enabled: map the notification rings and latch the pipes'
 * bus addresses the driver programmed.
 */
static int enso_start(struct rxb_hw_model *m)
{
	unsigned int qi, pi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct enso_hw_q *q = &to_enso_hw(m)->q[qi];

		q->notif = rxb_hw_dma_map(m, &q->nregs->base,
					  (size_t)m->cfg.ring_size *
					  sizeof(*q->notif));
		if (!q->notif)
			return -EINVAL;
		for (pi = 0; pi < m->cfg.enso_pipes; pi++) {
			struct enso_hw_pipe *p = &q->pipe[pi];
			const struct rxb_base_reg *r = &p->regs->rx_mem;

			p->addr = (u64)READ_ONCE(r->hi) << 32 | READ_ONCE(r->lo);
			if (!p->addr || p->addr % RXB_ENSO_PIPE_MIN)
				return -EINVAL;
			p->ts = NULL;
			if (!m->cfg.rx_tstamp)
				continue;
			p->ts = rxb_hw_dma_map(m, &p->regs->ts_mem,
					       rxb_tstamp_ring_bytes(m->cfg.enso_pipe_size /
								     RXB_ENSO_FLIT, true));
			if (!p->ts)
				return -EINVAL;
		}
	}
	return 0;
}

static int enso_init(struct rxb_hw_model *m)
{
	const struct rxb_model_cfg *cfg = &m->cfg;
	unsigned int np = cfg->enso_pipes, qi, pi;
	struct enso_hw *e = to_enso_hw(m);

	if (!m->env->ring)
		return -EINVAL;		/* no DMA into pipes */
	e->flit_mask = cfg->enso_pipe_size / RXB_ENSO_FLIT - 1;
	if (cfg->flow_table_size) {
		e->flow_pipe = kvmalloc_array(cfg->flow_table_size,
					      sizeof(*e->flow_pipe), GFP_KERNEL);
		if (!e->flow_pipe)
			return -ENOMEM;
		memset(e->flow_pipe, 0xff,
		       cfg->flow_table_size * sizeof(*e->flow_pipe));
	}
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct enso_hw_q *q = &e->q[qi];

		spin_lock_init(&q->lock);
		q->nregs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
		q->dbg = rxb_bar_qdebug(&m->bar, qi);
		q->st = rxb_bar_q(&m->bar, qi, RXB_QPAGE_MSTATS);
		q->pipe = kcalloc(np, sizeof(*q->pipe), GFP_KERNEL);
		q->retry = kcalloc(np, sizeof(*q->retry), GFP_KERNEL);
		if (!q->pipe || !q->retry)
			return -ENOMEM;
		for (pi = 0; pi < np; pi++)
			q->pipe[pi].regs = rxb_enso_pipe_regs(&m->bar, np, qi,
							      pi);
		/* Every pipe empty: one flit of each stays free. */
		WRITE_ONCE(q->dbg->free, np * e->flit_mask);
	}
	return 0;
}

/* Nothing runs: free the NIC's state. */
static void enso_fini(struct rxb_hw_model *m)
{
	struct enso_hw *e = to_enso_hw(m);
	unsigned int qi;

	for (qi = 0; e->q && qi < m->cfg.nqueues; qi++) {
		kfree(e->q[qi].pipe);
		kfree(e->q[qi].retry);
	}
	kvfree(e->flow_pipe);
}

const struct rxb_hw_model_ops rxb_enso_hw_ops = {
	RXB_HW_MODEL_OPS("enso", enso),
	RXB_HW_FLOW_OPS(enso),
	.bar_pages = enso_bar_pages,
};
