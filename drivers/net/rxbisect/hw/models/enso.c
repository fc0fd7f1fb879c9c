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
 *
 * User pipes (rxb_desc.h, "Ensō user pipes"): rings and pipes the driver
 * lends to applications, whose register pages the applications write
 * with plain stores no address decoder sees.  The NIC reads those
 * registers itself, in its own context: a user pipe's before each frame
 * it writes there, and every user ring's and pipe's from its timer, every
 * RXB_ENSO_USCAN_NS while a user ring is enabled; a value changed since
 * the last read is a write (Fig. 5's onRxUpdate for Head_SW and the
 * prefetch counter), a value it cannot take is refused and counted.  A
 * user ring's lock serialises its pipes' managers (frames, scans, enable
 * and disable), whatever queue a frame came on.  A user pipe's frames and
 * drops count in its registers, not in the queue's statistics (the
 * kernel's).  No interrupt: applications poll.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
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

/* A user pipe's manager; its ring's lock protects it. */
struct enso_hw_upipe {
	struct rxb_enso_upipe_regs *regs;	/* the application's page */
	struct rxb_enso_upipe_cfg *cfg;
	struct rxb_enso_ukey key;	/* latched at enable */
	u64 addr;
	u32 size;		/* bytes */
	u32 mask;		/* flits - 1 */
	u32 tail;		/* Tail_NIC */
	u32 head;		/* Head_SW, as last accepted */
	u32 raw_head;		/* rx_head as last read */
	u32 raw_pf;		/* prefetch as last read */
	u32 tag;
	u32 uctx;
	u8 status;		/* Figure 5's status bit */
	u8 missed;		/* a notification was dropped */
	u8 on;			/* enabled: TX notifications may name it */
	u8 rx;			/* takes its flow: read without the lock first */
};

/* A user notification ring's manager. */
struct enso_hw_uctx {
	spinlock_t lock;	/* the ring and its pipes */
	struct rxb_enso_unotif_regs *regs;
	struct rxb_enso_uctx_cfg *cfg;
	struct rxb_enso_notif *notif;
	u32 size;		/* entries */
	u32 tail;		/* entries written, free-running */
	u32 head;		/* NotificationHead_SW, as last accepted */
	u32 raw;		/* head as last read */
	struct rxb_enso_txnotif *txn;	/* the TX notification ring */
	u32 txhead;		/* TX notifications completed, free-running */
	u32 txraw;		/* tx_tail as last read */
	u32 queue;		/* the queue its frames leave from */
	u8 on;
};

struct enso_hw {
	struct rxb_hw_model m;
	struct enso_hw_q *q;
	struct enso_hw_upipe up[RXB_ENSO_UPIPES];
	struct enso_hw_uctx uc[RXB_ENSO_UCTX];
	spinlock_t ucfg_lock;	/* the configuration pages' service */
	atomic_t nupipes;	/* user pipes taking their flows */
	atomic_t nuctx;		/* user rings enabled */
	u32 upage;		/* first user page */
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

/* Write frame @f and its header into the pipe of @size bytes at bus
 * address @addr, from flit @tail on (the space checked).
 */
static void enso_put_frame(struct rxb_hw_model *m, unsigned int qi,
			   const struct rxb_frame *f, u64 addr, u32 size,
			   u32 tail)
{
	struct rxb_enso_hdr hdr;
	u32 csum = 0;
	u8 flags;

	flags = f->hash_flags;
	flags |= rxb_hw_dma_write_ring(m, f, addr, size,
				       tail * RXB_ENSO_FLIT + sizeof(hdr),
				       &csum);
	hdr = (struct rxb_enso_hdr) {
		.len = cpu_to_le16(f->len),
		.flags = flags,
		.rss_hash = cpu_to_le32(f->hash),
		.csum = cpu_to_le32(csum),
	};
	/* A flit never straddles the pipe's end: nor does the header. */
	rxb_hw_dma_put(m, &hdr, sizeof(hdr), addr + tail * RXB_ENSO_FLIT);
	/* The framing header is metadata on the bus, as a descriptor is. */
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(hdr));
}

/* ---- user pipes ------------------------------------------------------ */

static bool enso_uaddr_hit(const __be32 *k, const __be32 *a)
{
	if (!(k[0] | k[1] | k[2] | k[3]))
		return true;
	return !memcmp(k, a, 4 * sizeof(*k));
}

/* Does the key of a user pipe take the frame of flow key @t? */
static bool enso_ukey_hit(const struct rxb_enso_ukey *k,
			  const struct rxb_nic_tuple *t)
{
	return k->proto == t->proto && k->family == t->family &&
	       k->dport == t->dport && (!k->sport || k->sport == t->sport) &&
	       enso_uaddr_hit(k->src, t->src) && enso_uaddr_hit(k->dst, t->dst);
}

/* Read user ring @uc's NotificationHead_SW, under its lock.  Returns true
 * when it moved: entries were freed.
 */
static bool enso_uscan_ctx(struct enso_hw_uctx *uc)
{
	/* Acquire: pairs with the application's release store: it cleared
	 * the signals of the entries it gives back.
	 */
	u32 h = smp_load_acquire(&uc->regs->head);
	bool moved;

	if (h == uc->raw)
		return false;
	uc->raw = h;
	if (h - uc->head > uc->tail - uc->head) {
		rxb_stat_inc(&uc->regs->bad_writes);
		return false;
	}
	moved = h != uc->head;
	uc->head = h;
	return moved;
}

/* Notify user pipe @up's Tail_NIC into its ring @uc, under @uc's lock;
 * @qi: the queue whose counters the bytes go to.
 */
static void enso_unotify(struct rxb_hw_model *m, unsigned int qi,
			 struct enso_hw_uctx *uc, struct enso_hw_upipe *up)
{
	struct rxb_enso_notif *n;

	if (uc->on && uc->tail - uc->head >= uc->size)
		enso_uscan_ctx(uc);
	if (!uc->on || uc->tail - uc->head >= uc->size) {
		rxb_stat_inc(&uc->regs->drops);
		up->missed = 1;
		return;
	}
	n = &uc->notif[uc->tail & (uc->size - 1)];
	n->pipe = cpu_to_le64(up->tag);
	n->tail = cpu_to_le64(up->tail);
	/* Release: the frames and the fields before the signal.  Pairs
	 * with the application's acquire of the signal.
	 */
	smp_store_release(&n->signal, 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*n));
	up->missed = 0;
	uc->tail++;
	WRITE_ONCE(uc->regs->tail, uc->tail);
	rxb_stat_inc(&uc->regs->notifs);
}

/* Read user pipe @up's registers, under its ring's lock: Figure 5's
 * onRxUpdate on a write of Head_SW or of the prefetch counter.
 */
static void enso_uscan_pipe(struct rxb_hw_model *m, unsigned int qi,
			    struct enso_hw_uctx *uc, struct enso_hw_upipe *up)
{
	/* Acquire: the application is done with the flits below. */
	u32 h = smp_load_acquire(&up->regs->rx_head);
	u32 pf = READ_ONCE(up->regs->prefetch);
	bool ev = false;

	if (h != up->raw_head) {
		up->raw_head = h;
		if (h > up->mask || ((h - up->head) & up->mask) >
				    ((up->tail - up->head) & up->mask)) {
			rxb_stat_inc(&up->regs->bad_writes);
		} else {
			up->head = h;
			ev = true;
		}
	}
	if (pf != up->raw_pf) {
		up->raw_pf = pf;
		ev = true;
	}
	if (!ev)
		return;
	if (up->head == up->tail) {
		up->status = 0;
		up->missed = 0;
	} else {
		enso_unotify(m, qi, uc, up);
		up->status = 1;
	}
}

/* The enabled pipe of user ring @ui whose tag is @tag, under its lock. */
static struct enso_hw_upipe *enso_utx_pipe(struct enso_hw *e, unsigned int ui,
					   u32 tag)
{
	unsigned int i;

	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		struct enso_hw_upipe *up = &e->up[i];

		if (up->on && up->uctx == ui && up->tag == tag)
			return up;
	}
	return NULL;
}

/* TX notification @t of user ring @ui, read: check it, read its frame
 * for the wire.  Returns its completion status.
 */
static u32 enso_utx_one(struct rxb_hw_model *m, unsigned int ui,
			const struct rxb_enso_txnotif *t)
{
	struct enso_hw *e = to_enso_hw(m);
	struct enso_hw_uctx *uc = &e->uc[ui];
	u32 pipe = READ_ONCE(t->pipe), off = READ_ONCE(t->offset);
	u32 len = READ_ONCE(t->len), rsv = 0, i;
	struct enso_hw_upipe *up;

	for (i = 0; i < ARRAY_SIZE(t->reserved); i++)
		rsv |= READ_ONCE(t->reserved[i]);
	if (rsv || READ_ONCE(t->status))
		return RXB_ENSO_TX_EINVAL;
	up = enso_utx_pipe(e, ui, pipe);
	if (!up)
		return RXB_ENSO_TX_EPIPE;
	if (off >= up->size)
		return RXB_ENSO_TX_ERANGE;
	if (len < RXB_ENSO_TX_MIN || len > up->size)
		return RXB_ENSO_TX_ELEN;
	if (!m->env->tx_read)
		return RXB_ENSO_TX_ENOWIRE;
	switch (m->env->tx_read(m->hw, uc->queue, up->addr, up->size, off,
				len)) {
	case 0:
		rxb_stat_inc(&uc->regs->tx.frames);
		rxb_stat_add(&uc->regs->tx.bytes, len);
		return RXB_ENSO_TX_OK;
	case -EMSGSIZE:
		return RXB_ENSO_TX_ELEN;
	default:
		return RXB_ENSO_TX_ENOWIRE;
	}
}

/* User ring @ui's TX notifications (section 2.2), under its lock: each
 * posted since the last scan read, its frame read for the wire, its
 * completion written over it.  Returns true when a frame was read.
 */
static bool enso_utx(struct rxb_hw_model *m, unsigned int ui)
{
	struct enso_hw_uctx *uc = &to_enso_hw(m)->uc[ui];
	bool sent = false;
	u32 tail;

	/* Acquire: pairs with the application's release store of the
	 * tail: the entries below it are written.
	 */
	tail = smp_load_acquire(&uc->regs->tx.tx_tail);
	if (tail == uc->txraw)
		return false;
	uc->txraw = tail;
	if (tail - uc->txhead > uc->size) {
		/* Behind the completions, or beyond the ring. */
		rxb_stat_inc(&uc->regs->tx.bad_writes);
		return false;
	}
	while (uc->txhead != tail) {
		struct rxb_enso_txnotif *t = &uc->txn[uc->txhead &
						      (uc->size - 1)];
		u32 st;

		rxb_hw_pcie(m, uc->queue, RXB_PCIE_DESC_RD, sizeof(*t));
		st = enso_utx_one(m, ui, t);
		if (st != RXB_ENSO_TX_OK)
			rxb_stat_inc(&uc->regs->tx.bad_notifs);
		else
			sent = true;
		/* The completion over the notification: status, then the
		 * signal.
		 */
		WRITE_ONCE(t->status, st);
		/* Release: the frame was read, the status written.  Pairs
		 * with the application's acquire of the signal.
		 */
		smp_store_release(&t->signal, 0);
		rxb_hw_pcie(m, uc->queue, RXB_PCIE_META_WR, sizeof(*t));
		uc->txhead++;
	}
	WRITE_ONCE(uc->regs->tx.tx_head, uc->txhead);
	return sent;
}

/* Scan user ring @ui and its pipes (the NIC's timer). */
static void enso_uscan(struct rxb_hw_model *m, unsigned int ui)
{
	struct enso_hw *e = to_enso_hw(m);
	struct enso_hw_uctx *uc = &e->uc[ui];
	bool sent = false;
	int i;

	spin_lock(&uc->lock);
	if (!uc->on)
		goto out;
	enso_uscan_ctx(uc);
	sent = enso_utx(m, ui);
	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		struct enso_hw_upipe *up = &e->up[i];

		if (!up->rx || up->uctx != ui)
			continue;
		enso_uscan_pipe(m, 0, uc, up);
		/* A dropped notification, once the ring has room. */
		if (up->missed && up->status &&
		    uc->tail - uc->head < uc->size)
			enso_unotify(m, 0, uc, up);
	}
out:
	spin_unlock(&uc->lock);
	/* The frames leave outside the lock: the wire may lead back here. */
	if (sent)
		m->env->tx_send(m->hw);
}

static void enso_timer(struct rxb_hw_model *m)
{
	struct enso_hw *e = to_enso_hw(m);
	unsigned int ui;

	for (ui = 0; ui < RXB_ENSO_UCTX; ui++)
		if (READ_ONCE(e->uc[ui].on))
			enso_uscan(m, ui);
	if (atomic_read(&e->nuctx))
		rxb_hw_arm_timer(m, RXB_ENSO_USCAN_NS);
}

/* Write frame @f into user pipe @up, under its ring's lock.  Returns 0
 * or the drop cause.
 */
static int enso_urx(struct rxb_hw_model *m, unsigned int qi,
		    struct enso_hw_uctx *uc, struct enso_hw_upipe *up,
		    const struct rxb_frame *f)
{
	u32 need = rxb_enso_frame_flits(f->len);

	if (f->len > m->cfg.buf_len)
		return -EMSGSIZE;
	enso_uscan_pipe(m, qi, uc, up);
	if (need > ((up->head - up->tail - 1) & up->mask)) {
		rxb_stat_inc(&up->regs->drops);
		return -ENOSPC;
	}
	enso_put_frame(m, qi, f, up->addr, up->size, up->tail);
	up->tail = (up->tail + need) & up->mask;
	WRITE_ONCE(up->regs->rx_tail, up->tail);
	rxb_stat_inc(&up->regs->packets);
	rxb_stat_add(&up->regs->bytes, f->len);
	if (!up->status) {
		enso_unotify(m, qi, uc, up);
		up->status = 1;
	}
	return 0;
}

/* The NIC's flow table for user pipes: write @f, which came on queue
 * @qi, into the user pipe whose key takes it.  Returns -ENOENT when none
 * does.
 */
static int enso_user_rx(struct rxb_hw_model *m, unsigned int qi,
			const struct rxb_frame *f)
{
	struct enso_hw *e = to_enso_hw(m);
	unsigned int i;

	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		struct enso_hw_upipe *up = &e->up[i];
		struct enso_hw_uctx *uc;
		int err = -ENOENT;

		/* Acquire: the key latched before the pipe took its flow. */
		if (!smp_load_acquire(&up->rx) ||
		    !enso_ukey_hit(&up->key, f->key))
			continue;
		uc = &e->uc[up->uctx];
		spin_lock(&uc->lock);
		if (up->rx)
			err = enso_urx(m, qi, uc, up, f);
		spin_unlock(&uc->lock);
		if (err != -ENOENT)
			return err;
	}
	return -ENOENT;
}

/* The NIC's answer to a configuration write: 1 enabled, 2 refused, 0
 * disabled (nothing of the ring or pipe is written any more).
 */
static void enso_answer(u32 *state, u32 v)
{
	/* Release: what the NIC did before is done.  Pairs with the
	 * driver's acquire of the answer (enso_user.c, rxb_enso_wait()).
	 */
	smp_store_release(state, v);
}

/* Enable user ring @ui as its configuration says, or refuse. */
static void enso_uctx_enable(struct rxb_hw_model *m, unsigned int ui)
{
	struct enso_hw *e = to_enso_hw(m);
	struct enso_hw_uctx *uc = &e->uc[ui];
	u32 size = READ_ONCE(uc->cfg->size), q = READ_ONCE(uc->cfg->queue);
	struct rxb_enso_notif *notif = NULL;
	struct rxb_enso_txnotif *txn = NULL;

	if (size && is_power_of_2(size) && size <= RXB_RING_MAX &&
	    q < m->cfg.nqueues) {
		notif = rxb_hw_dma_map(m, &uc->cfg->base,
				       (size_t)size * sizeof(*notif));
		txn = rxb_hw_dma_map(m, &uc->cfg->tx_base,
				     (size_t)size * sizeof(*txn));
	}
	if (!notif || !txn) {
		enso_answer(&uc->cfg->state, RXB_ENSO_USTATE_REFUSED);
		return;
	}
	spin_lock(&uc->lock);
	uc->notif = notif;
	uc->txn = txn;
	uc->queue = q;
	uc->txhead = READ_ONCE(uc->regs->tx.tx_tail);
	uc->txraw = uc->txhead;
	WRITE_ONCE(uc->regs->tx.tx_head, uc->txhead);
	uc->size = size;
	uc->raw = READ_ONCE(uc->regs->head);
	uc->head = uc->raw;
	uc->tail = uc->raw;
	WRITE_ONCE(uc->regs->tail, uc->tail);
	WRITE_ONCE(uc->on, 1);
	spin_unlock(&uc->lock);
	if (atomic_inc_return(&e->nuctx) == 1)
		rxb_hw_arm_timer(m, RXB_ENSO_USCAN_NS);
	enso_answer(&uc->cfg->state, 1);
}

/* Pipe @up's receive state from the start: empty, at the application's
 * current Head_SW and prefetch registers, Tail_NIC 0.
 */
static void enso_upipe_rx_reset(struct enso_hw_upipe *up)
{
	up->tail = 0;
	up->head = 0;
	up->raw_head = READ_ONCE(up->regs->rx_head);
	up->raw_pf = READ_ONCE(up->regs->prefetch);
	up->status = 0;
	up->missed = 0;
	WRITE_ONCE(up->regs->rx_tail, 0);
}

/* Enable user pipe @pi as its configuration says (@ctl), or refuse:
 * RXB_ENSO_UCTL_ON latches its memory and ring (TX notifications may
 * name it), RXB_ENSO_UCTL_RX its key too (it takes its flow).
 */
static void enso_upipe_enable(struct rxb_hw_model *m, unsigned int pi,
			      u32 ctl)
{
	struct enso_hw *e = to_enso_hw(m);
	struct enso_hw_upipe *up = &e->up[pi];
	const struct rxb_enso_upipe_cfg *c = up->cfg;
	u64 addr = (u64)READ_ONCE(c->mem.hi) << 32 | READ_ONCE(c->mem.lo);
	u32 size = READ_ONCE(c->size), ui = READ_ONCE(c->uctx);
	bool rx = ctl & RXB_ENSO_UCTL_RX;
	struct enso_hw_uctx *uc;

	if (!(ctl & RXB_ENSO_UCTL_ON) ||
	    ctl & ~(RXB_ENSO_UCTL_ON | RXB_ENSO_UCTL_RX) ||
	    ui >= RXB_ENSO_UCTX || !READ_ONCE(e->uc[ui].on) || !addr ||
	    !is_power_of_2(size) || size < RXB_ENSO_PIPE_MIN ||
	    size > RXB_ENSO_PIPE_MAX || addr % RXB_ENSO_PIPE_MIN ||
	    (rx && (!c->key.dport || !c->key.proto))) {
		enso_answer(&up->cfg->state, RXB_ENSO_USTATE_REFUSED);
		return;
	}
	uc = &e->uc[ui];
	spin_lock(&uc->lock);
	memcpy(&up->key, &c->key, sizeof(up->key));
	up->addr = addr;
	up->size = size;
	up->mask = size / RXB_ENSO_FLIT - 1;
	up->tag = READ_ONCE(c->tag);
	up->uctx = ui;
	enso_upipe_rx_reset(up);
	up->on = 1;
	if (rx)
		/* Release: pairs with the acquire of enso_user_rx(). */
		smp_store_release(&up->rx, 1);
	spin_unlock(&uc->lock);
	if (rx)
		atomic_inc(&e->nupipes);
	enso_answer(&up->cfg->state, ctl);
}

/* User pipe @pi, enabled for TX (state RXB_ENSO_UCTL_ON), takes its flow
 * now (@ctl has RXB_ENSO_UCTL_RX): its key latched, or refused (the pipe
 * then stays as it was, its state refused until the driver disables it).
 */
static void enso_upipe_bind(struct rxb_hw_model *m, unsigned int pi, u32 ctl)
{
	struct enso_hw *e = to_enso_hw(m);
	struct enso_hw_upipe *up = &e->up[pi];
	const struct rxb_enso_upipe_cfg *c = up->cfg;
	struct enso_hw_uctx *uc = &e->uc[up->uctx];

	if (ctl != (RXB_ENSO_UCTL_ON | RXB_ENSO_UCTL_RX) || !c->key.dport ||
	    !c->key.proto) {
		enso_answer(&up->cfg->state, RXB_ENSO_USTATE_REFUSED);
		return;
	}
	spin_lock(&uc->lock);
	memcpy(&up->key, &c->key, sizeof(up->key));
	enso_upipe_rx_reset(up);
	/* Release: the key; pairs with the acquire of enso_user_rx(). */
	smp_store_release(&up->rx, 1);
	spin_unlock(&uc->lock);
	atomic_inc(&e->nupipes);
	enso_answer(&up->cfg->state, ctl);
}

/* User pipe @up off, under nothing but the configuration's lock. */
static void enso_upipe_off(struct enso_hw *e, struct enso_hw_upipe *up)
{
	struct enso_hw_uctx *uc = &e->uc[up->uctx];
	bool rx;

	spin_lock(&uc->lock);
	rx = up->rx;
	WRITE_ONCE(up->rx, 0);
	up->on = 0;
	spin_unlock(&uc->lock);
	if (rx)
		atomic_dec(&e->nupipes);
}

/* The driver wrote a configuration page: enable or disable what changed.
 * Disabling takes the ring's lock, so no frame is being written into or
 * read from the pipe, nor notified into the ring, once the state reads 0.
 */
static void enso_ucfg_doorbell(struct rxb_hw_model *m)
{
	struct enso_hw *e = to_enso_hw(m);
	unsigned int i;

	spin_lock(&e->ucfg_lock);
	/* Rings first when enabling, pipes first when disabling. */
	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		struct enso_hw_upipe *up = &e->up[i];
		u32 ctl = rxb_db_read(&up->cfg->ctl);
		u32 state = READ_ONCE(up->cfg->state);

		if (ctl || !state)
			continue;
		if (up->on)
			enso_upipe_off(e, up);
		enso_answer(&up->cfg->state, 0);
	}
	for (i = 0; i < RXB_ENSO_UCTX; i++) {
		struct enso_hw_uctx *uc = &e->uc[i];
		u32 ctl = rxb_db_read(&uc->cfg->ctl);
		u32 state = READ_ONCE(uc->cfg->state);

		if (ctl && !state) {
			enso_uctx_enable(m, i);
		} else if (!ctl && state) {
			if (state == 1) {
				spin_lock(&uc->lock);
				WRITE_ONCE(uc->on, 0);
				spin_unlock(&uc->lock);
				atomic_dec(&e->nuctx);
			}
			enso_answer(&uc->cfg->state, 0);
		}
	}
	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		struct enso_hw_upipe *up = &e->up[i];
		u32 ctl = rxb_db_read(&up->cfg->ctl);
		u32 state = READ_ONCE(up->cfg->state);

		if (!ctl || ctl == state)
			continue;
		if (!state)
			enso_upipe_enable(m, i, ctl);
		else if (state == RXB_ENSO_UCTL_ON)
			enso_upipe_bind(m, i, ctl);
	}
	spin_unlock(&e->ucfg_lock);
}

static int enso_rx(struct rxb_hw_model *m, unsigned int qi,
		   const struct rxb_frame *f)
{
	struct enso_hw_q *q = &to_enso_hw(m)->q[qi];
	u32 mask = to_enso_hw(m)->flit_mask, need, head;
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, qi);
	struct enso_hw_pipe *p;
	bool irq = false;
	unsigned int pi;
	int err = 0;

	/* A user pipe's frame is the application's, not the queue's: its
	 * pipe's registers count it, and its drops.
	 */
	if (atomic_read(&to_enso_hw(m)->nupipes) && f->key && f->key->proto) {
		err = enso_user_rx(m, qi, f);
		if (err != -ENOENT)
			return err;
		err = 0;
	}
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
	enso_put_frame(m, qi, f, p->addr, m->cfg.enso_pipe_size, p->tail);
	/* The stamp in the slot of the header's flit (RXB_TSTAMP). */
	rxb_hw_tstamp_put(m, qi, p->ts, p->tail, f->ts);
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
	u32 cfg = to_enso_hw(m)->upage + RXB_ENSO_UCTX + RXB_ENSO_UPIPES;

	if (page >= cfg && page - cfg < RXB_ENSO_UCFG_PAGES) {
		enso_ucfg_doorbell(m);
	} else if (page >= m->bar.qpage && page - m->bar.qpage < nq) {
		enso_notif_head_write(m, page - m->bar.qpage);
	} else if (page >= m->bar.xpage && page - m->bar.xpage < nq * np) {
		page -= m->bar.xpage;
		enso_head_write(m, page / np, page % np);
	}
}

/* Pages beyond page 0: the queues', one per pipe, then the user rings',
 * the user pipes' and their configuration.
 */
static u32 enso_bar_pages(const struct rxb_model_cfg *cfg)
{
	return cfg->nqueues + cfg->nqueues * cfg->enso_pipes +
	       RXB_ENSO_USER_PAGES;
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
	e->upage = rxb_enso_user_page(&m->bar, np, cfg->nqueues);
	spin_lock_init(&e->ucfg_lock);
	for (pi = 0; pi < RXB_ENSO_UCTX; pi++) {
		spin_lock_init(&e->uc[pi].lock);
		e->uc[pi].regs = rxb_bar_page(&m->bar, e->upage + pi);
		e->uc[pi].cfg = rxb_enso_uctx_cfgs(&m->bar, np, cfg->nqueues) +
				pi;
	}
	for (pi = 0; pi < RXB_ENSO_UPIPES; pi++) {
		e->up[pi].regs = rxb_bar_page(&m->bar,
					      e->upage + RXB_ENSO_UCTX + pi);
		e->up[pi].cfg = rxb_enso_upipe_cfgs(&m->bar, np,
						    cfg->nqueues) + pi;
	}
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
	.timer = enso_timer,
};
