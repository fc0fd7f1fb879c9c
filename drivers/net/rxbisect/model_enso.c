// SPDX-License-Identifier: GPL-2.0
/*
 * Ensō: streaming receive into contiguous pipes with reactive
 * notifications (Sadok et al., OSDI '23, sections 3-5, Figure 5).
 *
 * No descriptors and no per-packet buffers.  Each queue has
 * cfg->enso_pipes pipes: rings of cfg->enso_pipe_size bytes of host
 * memory the driver maps twice in a row (rxb_drv_ops.map_ring) and the NIC
 * appends frames to, back to back (framing: rxb_desc.h).  Each queue (one
 * NAPI vector) has one notification ring of cfg->ring_size entries shared
 * by its pipes.  The NIC tells the driver how far a pipe is written
 * (Tail_NIC) only in notifications; the driver tells the NIC how far it
 * has read (Head_SW) in the pipe's head register.
 *
 * Reactive notifications (Figure 5): the NIC keeps one status bit per
 * pipe.  A frame arriving with status 0 is notified and sets it; with
 * status 1 it is not (the tail runs ahead silently).  A write of Head_SW
 * that reaches Tail_NIC clears the bit; one that does not notifies the
 * current Tail_NIC.  So a slow consumer gets fewer, larger notifications,
 * and every byte is notified eventually, provided the driver answers
 * every notification with a Head_SW write (it does, see enso_commit()).
 *
 * Hardware half (the NIC): one lock per queue, the pipe manager and
 * notification manager of that queue's pipes: arrival (enso_hw_rx()) and
 * the NIC's handling of register writes (enso_nic_head_write(),
 * enso_nic_notif_head_write(): an MMIO write the NIC acts on, run on the
 * writing CPU as the emulated NIC's other register side effects are) are
 * serialised per pipe by it, as Ensō's pipe managers serialise them.
 *
 * Choices where the paper is silent, after Ensō's library
 * (github.com/crossroadsfpga/enso) unless marked ours:
 *  - a frame that does not fit in its pipe's free space is dropped whole
 *    (rxb_qstats.ring_full_drops);
 *  - a notification that does not fit in the notification ring is dropped
 *    alone; ours: the NIC remembers the pipe and notifies it again when the
 *    driver next frees notification entries (its head register write), so
 *    no byte stays unnotified;
 *  - the driver consumes up to RXB_ENSO_NOTIF_BATCH notifications per
 *    write of the notification head register;
 *  - ours: Head_SW is written once per pipe per poll, for the data handed
 *    up by the previous poll call (which the caller has copied out by then,
 *    struct rxb_model_ops.stream);
 *  - low-latency mode (cfg->enso_prefetch, off by default as in the
 *    library): before handing up data of pipe k, the driver rings the
 *    prefetch doorbell of the queue's next pipe: a Head_SW write with its
 *    current value, which notifies whatever the pipe holds beyond it;
 *  - steering (enso_hw_pipe()): the NIC's pipeline picks the queue
 *    (ntuple rule, else RSS) and its flow table the flow's entry; the
 *    model binds each entry to a pipe of that queue on the flow's first
 *    frame there and keeps it on that pipe while the entry lives (until
 *    rxb_model_ops.hw_flow_free).  Ensō's NIC flow table holds the
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
 *    entry per pipe (enso_validate()).
 *  - Chaotic Ensō (section 7.2.3, cfg->enso_chaotic, for benchmarks
 *    only): "gaps in memory between subsequent messages" computed
 *    "deterministically based on the message's current position"; ours:
 *    0..15 flits from a multiplicative hash of the frame's first flit
 *    (enso_gap()), which both halves compute, so neither keeps state.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

/* NIC state of one pipe (its pipe manager's record). */
struct enso_pipe_hw {
	u32 tail;		/* Tail_NIC, flits */
	u8 status;		/* Figure 5's status bit */
	u8 missed;		/* a notification was dropped: notify again */
	u8 listed;		/* in the queue's retry list */
	atomic_t flows;		/* flow table entries bound to the pipe */
};

/* Driver state of one pipe. */
struct enso_pipe_sw {
	u32 head;		/* Head_SW: flits read so far */
	u32 tail;		/* Tail_NIC as last notified */
	bool active;		/* in the active list: notified data to read */
	bool dirty;		/* Head_SW to write at the next commit */
};

struct enso_q {
	/* Ring memory (notifications) and registers, shared. */
	struct rxb_enso_notif *notif;
	struct rxb_enso_notif_regs *nregs;
	char *regs;		/* per pipe, RXB_ENSO_REG_STRIDE apart */

	/* NIC-internal state: the queue's pipe and notification managers. */
	struct {
		spinlock_t lock;	/* the pipe and notification managers */
		struct enso_pipe_hw *pipe;
		u16 *retry;	/* pipes whose notification was dropped */
		u32 nretry;
		u32 ntail;	/* next notification entry to write */
		u64 notifs;	/* notifications written */
		u64 notif_drops;	/* dropped: notification ring full */
		u64 suppressed;	/* frames not notified (status 1) */
		u64 retries;	/* dropped notifications sent again */
		u64 flow_binds;	/* flows bound to a pipe of the queue */
		u64 flow_moves;	/* of them, flows bound on another queue */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		void **va;	/* each pipe's double mapping */
		struct enso_pipe_sw *pipe;
		u16 *active;	/* FIFO of pipes with data to read */
		u32 act_head;
		u32 nactive;
		u16 *dirty;	/* pipes whose Head_SW to write */
		u32 ndirty;
		u32 nhead;	/* next notification to read */
		u32 nhead_db;	/* notification head last written */
		u32 next_pf;	/* low-latency mode: next pipe to prefetch */
		u64 notifs_read;
		u64 head_writes;
		u64 prefetches;
		u64 bad_frames;	/* malformed header: rest of pipe skipped */
	} sw ____cacheline_aligned;
};

struct enso {
	struct rxb_model m;
	struct enso_q *q;
	u32 flit_mask;		/* flits per pipe - 1 (head, tail wrap) */
	/* NIC state: per flow table entry its pipe, ENSO_BIND(qi, pi), or
	 * RXB_FLOW_NONE; NULL without a flow table (cfg.flow_table_size 0).
	 */
	u32 *flow_pipe;
};

#define ENSO_BIND(qi, pi)	((u32)(qi) << 16 | (pi))
#define ENSO_BIND_Q(b)		((b) >> 16)
#define ENSO_BIND_PIPE(b)	((b) & 0xffff)

static struct enso *to_enso(struct rxb_model *m)
{
	return container_of(m, struct enso, m);
}

static struct rxb_enso_pipe_regs *enso_regs(struct enso_q *q, unsigned int pi)
{
	return (struct rxb_enso_pipe_regs *)(q->regs + pi * RXB_ENSO_REG_STRIDE);
}

/* Flits a frame of @len bytes takes in a pipe, header included. */
static u32 enso_frame_flits(u32 len)
{
	return DIV_ROUND_UP(sizeof(struct rxb_enso_hdr) + len, RXB_ENSO_FLIT);
}

/* Chaotic Ensō: flits left free after the frame at flit @pos. */
#define ENSO_GAP_MAX	15
static u32 enso_gap(const struct rxb_model *m, u32 pos)
{
	if (!m->cfg.enso_chaotic)
		return 0;
	return (pos * 0x9e3779b1U) >> 28;
}

/* The pipe of its queue the RSS hash picks: the hash's other bits (the
 * low ones chose the queue).
 */
static unsigned int enso_hash_pipe(const struct rxb_model *m,
				   const struct rxb_frame *f)
{
	u32 h = f->hash << 16 | f->hash >> 16;

	return ((u64)h * m->cfg.enso_pipes) >> 32;
}

/* ---- hardware half ---------------------------------------------------- */

/* NIC: the pipe of queue @qi frame @f goes to, under q->hw.lock: its
 * flow's pipe, or a new binding to the pipe with the fewest live flows
 * (from the hash's pipe on: ties go to it).  Bindings are exchanged
 * atomically: frames of one flow on two queues at once (while a steering
 * rule changes) each leave one binding, released once.
 */
static unsigned int enso_hw_pipe(struct rxb_model *m, unsigned int qi,
				 struct enso_q *q, const struct rxb_frame *f)
{
	struct enso *e = to_enso(m);
	unsigned int np = m->cfg.enso_pipes, pi = enso_hash_pipe(m, f), i;
	int best;
	u32 old;

	if (!e->flow_pipe || f->flow >= m->cfg.flow_table_size)
		return pi;
	old = READ_ONCE(e->flow_pipe[f->flow]);
	if (old != RXB_FLOW_NONE && ENSO_BIND_Q(old) == qi)
		return ENSO_BIND_PIPE(old);
	best = atomic_read(&q->hw.pipe[pi].flows);
	for (i = 1; i < np && best; i++) {
		unsigned int k = (pi + i) & (np - 1);
		int n = atomic_read(&q->hw.pipe[k].flows);

		if (n < best) {
			best = n;
			pi = k;
		}
	}
	atomic_inc(&q->hw.pipe[pi].flows);
	old = xchg(&e->flow_pipe[f->flow], ENSO_BIND(qi, pi));
	rxb_stat_inc(&q->hw.flow_binds);
	if (old != RXB_FLOW_NONE) {
		atomic_dec(&e->q[ENSO_BIND_Q(old)].hw.pipe[ENSO_BIND_PIPE(old)].flows);
		rxb_stat_inc(&q->hw.flow_moves);
	}
	return pi;
}

/* NIC: flow table entry @flow is free (rxb_model_ops.hw_flow_free). */
static void enso_hw_flow_free(struct rxb_model *m, u32 flow)
{
	struct enso *e = to_enso(m);
	u32 old;

	if (!e->flow_pipe || flow >= m->cfg.flow_table_size)
		return;
	old = xchg(&e->flow_pipe[flow], RXB_FLOW_NONE);
	if (old != RXB_FLOW_NONE)
		atomic_dec(&e->q[ENSO_BIND_Q(old)].hw.pipe[ENSO_BIND_PIPE(old)].flows);
}

/* NIC: write a notification of pipe @pi's Tail_NIC, under q->hw.lock.
 * Returns false when the notification ring is full: the notification is
 * dropped and the pipe is notified again at the driver's next write of
 * the notification head (enso_nic_notif_head_write()).
 */
static bool enso_nic_notify(struct rxb_model *m, unsigned int qi,
			    struct enso_q *q, unsigned int pi)
{
	struct enso_pipe_hw *p = &q->hw.pipe[pi];
	u32 t = q->hw.ntail;
	struct rxb_enso_notif *n;

	/* Acquire: pairs with the release in enso_notif_db(): the driver
	 * cleared the signals of the entries it gave back.
	 */
	if (t - rxb_db_read(&q->nregs->head) >= m->cfg.ring_size) {
		rxb_stat_inc(&q->hw.notif_drops);
		p->missed = 1;
		if (!p->listed) {
			p->listed = 1;
			q->hw.retry[q->hw.nretry++] = pi;
		}
		return false;
	}
	n = &q->notif[t & (m->cfg.ring_size - 1)];
	n->pipe = cpu_to_le64((u64)qi * m->cfg.enso_pipes + pi);
	n->tail = cpu_to_le64(p->tail);
	/* Release (the NIC's write barrier before the signal): the frames up
	 * to the tail and the fields above are visible before the signal.
	 * Pairs with the acquire in enso_notif_ready().
	 */
	smp_store_release(&n->signal, 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*n));
	p->missed = 0;
	WRITE_ONCE(q->hw.ntail, t + 1);
	WRITE_ONCE(q->nregs->tail, t + 1);
	rxb_stat_inc(&q->hw.notifs);
	return true;
}

static int enso_hw_rx(struct rxb_model *m, unsigned int qi,
		      const struct rxb_frame *f)
{
	struct enso_q *q = &to_enso(m)->q[qi];
	u32 mask = to_enso(m)->flit_mask, need, head, csum = 0;
	struct rxb_enso_pipe_regs *regs;
	struct rxb_enso_hdr hdr;
	struct enso_pipe_hw *p;
	bool irq = false;
	unsigned int pi;
	u64 addr;
	int err = 0;
	u8 flags;

	spin_lock(&q->hw.lock);
	pi = enso_hw_pipe(m, qi, q, f);
	regs = enso_regs(q, pi);
	p = &q->hw.pipe[pi];
	if (f->len > m->cfg.buf_len) {
		err = -EMSGSIZE;
		goto out;
	}
	need = enso_frame_flits(f->len) + enso_gap(m, p->tail);
	/* Acquire: pairs with the release in enso_commit(): the driver is
	 * done reading the flits below Head_SW.
	 */
	head = rxb_db_read(&regs->rx_head);
	if (need > ((head - p->tail - 1) & mask)) {
		err = -ENOSPC;		/* the whole frame is dropped */
		goto out;
	}
	addr = (u64)READ_ONCE(regs->rx_mem_high) << 32 |
	       READ_ONCE(regs->rx_mem_low);
	flags = f->hash_flags;
	flags |= rxb_hw_dma_write_ring(m, f, addr, m->cfg.enso_pipe_size,
				       p->tail * RXB_ENSO_FLIT + sizeof(hdr),
				       &csum);
	hdr = (struct rxb_enso_hdr) {
		.len = cpu_to_le16(f->len),
		.flags = flags,
		.rss_hash = cpu_to_le32(f->hash),
		.csum = cpu_to_le32(csum),
	};
	/* A flit never straddles the pipe's end: nor does the header. */
	rxb_hw_dma_put(m, &hdr, sizeof(hdr), addr + p->tail * RXB_ENSO_FLIT);
	/* The framing header is metadata on the bus, as a descriptor is. */
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(hdr));
	p->tail = (p->tail + need) & mask;
	WRITE_ONCE(regs->rx_tail, p->tail);
	rxb_stat_inc(&m->qstats[qi].hw_packets);
	rxb_stat_add(&m->qstats[qi].hw_bytes, f->len);
	/* Figure 5, onPktArrival. */
	if (!p->status) {
		irq = enso_nic_notify(m, qi, q, pi);
		p->status = 1;
	} else {
		rxb_stat_inc(&q->hw.suppressed);
	}
out:
	rxb_nic_drop(m, qi, err);
	spin_unlock(&q->hw.lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
	return err;
}

/* NIC: the driver wrote pipe @pi's head register (Figure 5, onRxUpdate).
 * A write of the value it held is the prefetch doorbell.
 */
static void enso_nic_head_write(struct rxb_model *m, unsigned int qi,
				unsigned int pi)
{
	struct enso_q *q = &to_enso(m)->q[qi];
	struct enso_pipe_hw *p = &q->hw.pipe[pi];
	bool irq = false;

	spin_lock(&q->hw.lock);
	/* Acquire: pairs with the release of the register's write. */
	if (rxb_db_read(&enso_regs(q, pi)->rx_head) == p->tail) {
		p->status = 0;
		p->missed = 0;
	} else {
		irq = enso_nic_notify(m, qi, q, pi);
		p->status = 1;
	}
	spin_unlock(&q->hw.lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
}

/* NIC: the driver wrote the notification head register: entries are free,
 * notify the pipes whose notification was dropped, in drop order.
 */
static void enso_nic_notif_head_write(struct rxb_model *m, unsigned int qi)
{
	struct enso_q *q = &to_enso(m)->q[qi];
	bool irq = false;
	u32 i = 0, j;

	spin_lock(&q->hw.lock);
	for (; i < q->hw.nretry; i++) {
		struct enso_pipe_hw *p = &q->hw.pipe[q->hw.retry[i]];

		if (p->missed) {
			if (!enso_nic_notify(m, qi, q, q->hw.retry[i]))
				break;
			rxb_stat_inc(&q->hw.retries);
			irq = true;
		}
		p->listed = 0;
	}
	/* enso_nic_notify() failing re-listed nothing: the pipe is listed. */
	for (j = 0; i < q->hw.nretry; i++, j++)
		q->hw.retry[j] = q->hw.retry[i];
	q->hw.nretry = j;
	spin_unlock(&q->hw.lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
}

/* ---- driver half ------------------------------------------------------ */

/* Is the notification at @idx written?  Acquire: then its fields are. */
static bool enso_notif_ready(const struct rxb_model *m, struct enso_q *q,
			     u32 idx)
{
	/* Acquire: pairs with the release in enso_nic_notify(). */
	return smp_load_acquire(&q->notif[idx & (m->cfg.ring_size - 1)].signal);
}

/* Give the notifications read back to the NIC: one register write. */
static void enso_notif_db(struct rxb_model *m, unsigned int qi,
			  struct enso_q *q)
{
	if (q->sw.nhead == q->sw.nhead_db)
		return;
	q->sw.nhead_db = q->sw.nhead;
	/* Release: the signals cleared before the NIC may reuse the
	 * entries.  Pairs with the acquire in enso_nic_notify().
	 */
	rxb_db_ring(m, qi, &q->nregs->head, q->sw.nhead);
	rxb_stat_inc(&m->qstats[qi].doorbells);
	enso_nic_notif_head_write(m, qi);
}

static void enso_mark_dirty(struct enso_q *q, unsigned int pi)
{
	if (!q->sw.pipe[pi].dirty) {
		q->sw.pipe[pi].dirty = true;
		q->sw.dirty[q->sw.ndirty++] = pi;
	}
}

/* Write pipe @pi's head register with @head and let the NIC act on it. */
static void enso_head_db(struct rxb_model *m, unsigned int qi,
			 struct enso_q *q, unsigned int pi, u32 head)
{
	/* Release: the reads of the flits below @head are done before the
	 * NIC may overwrite them.  Pairs with the acquire in enso_hw_rx().
	 */
	rxb_db_ring(m, qi, &enso_regs(q, pi)->rx_head, head);
	rxb_stat_inc(&m->qstats[qi].doorbells);
	enso_nic_head_write(m, qi, pi);
}

/* Write Head_SW of every pipe read from since the last commit (the caller
 * has copied the packets out, rxb_model_ops.stream), or notified with
 * nothing new.  Every notification is thus followed by a Head_SW write
 * once its data is read, which keeps Figure 5 live.
 */
static void enso_commit(struct rxb_model *m, unsigned int qi,
			struct enso_q *q)
{
	u32 i;

	for (i = 0; i < q->sw.ndirty; i++) {
		unsigned int pi = q->sw.dirty[i];

		q->sw.pipe[pi].dirty = false;
		rxb_stat_inc(&q->sw.head_writes);
		enso_head_db(m, qi, q, pi, q->sw.pipe[pi].head);
	}
	q->sw.ndirty = 0;
}

/* Read the notifications written so far into the pipes' tails. */
static void enso_read_notifs(struct rxb_model *m, unsigned int qi,
			     struct enso_q *q)
{
	u32 mask = m->cfg.ring_size - 1, flits = to_enso(m)->flit_mask + 1;

	while (enso_notif_ready(m, q, q->sw.nhead)) {
		struct rxb_enso_notif *n = &q->notif[q->sw.nhead & mask];
		u64 pipe = le64_to_cpu(n->pipe);
		u64 tail = le64_to_cpu(n->tail);
		struct enso_pipe_sw *p;
		unsigned int pi;

		WRITE_ONCE(n->signal, 0);
		q->sw.nhead++;
		rxb_stat_inc(&q->sw.notifs_read);
		if (q->sw.nhead - q->sw.nhead_db >= RXB_ENSO_NOTIF_BATCH)
			enso_notif_db(m, qi, q);
		pi = pipe - (u64)qi * m->cfg.enso_pipes;
		if (pipe < (u64)qi * m->cfg.enso_pipes ||
		    pi >= m->cfg.enso_pipes || tail >= flits) {
			rxb_stat_inc(&q->sw.bad_frames);
			continue;
		}
		p = &q->sw.pipe[pi];
		p->tail = tail;
		/* Nothing new: answer with Head_SW (the NIC clears the
		 * status bit or notifies what came since).  Otherwise the
		 * pipe is read, and its Head_SW written, later.
		 */
		if (p->head == p->tail) {
			enso_mark_dirty(q, pi);
		} else if (!p->active) {
			p->active = true;
			q->sw.active[(q->sw.act_head + q->sw.nactive++) &
				     (m->cfg.enso_pipes - 1)] = pi;
		}
	}
	enso_notif_db(m, qi, q);
}

/* Low-latency mode: ring the prefetch doorbell of the next pipe. */
static void enso_prefetch_next(struct rxb_model *m, unsigned int qi,
			       struct enso_q *q, unsigned int pi)
{
	unsigned int next = pi + 1 < m->cfg.enso_pipes ? pi + 1 : 0;

	if (next == pi || q->sw.pipe[next].dirty)
		return;		/* its Head_SW is written at the commit */
	rxb_stat_inc(&q->sw.prefetches);
	enso_head_db(m, qi, q, next, READ_ONCE(enso_regs(q, next)->rx_head));
}

/* Hand up the frames of pipe @pi from Head_SW to the notified tail, up to
 * @budget; the pipe's memory is mapped twice, so a frame across its end
 * is read in one piece.  Returns the packets.
 */
static int enso_read_pipe(struct rxb_model *m, struct enso_q *q,
			  unsigned int pi, struct rxb_pkt *pkts, int budget,
			  u64 *bytes)
{
	struct enso_pipe_sw *p = &q->sw.pipe[pi];
	u32 mask = to_enso(m)->flit_mask;
	const u8 *va = q->sw.va[pi];
	int n = 0;

	while (n < budget && p->head != p->tail) {
		const struct rxb_enso_hdr *h = (const void *)(va + p->head *
							      RXB_ENSO_FLIT);
		u32 len = le16_to_cpu(h->len);
		u32 need = enso_frame_flits(len) + enso_gap(m, p->head);

		if (!len || len > m->cfg.buf_len ||
		    need > ((p->tail - p->head) & mask)) {
			rxb_stat_inc(&q->sw.bad_frames);
			p->head = p->tail;
			break;
		}
		pkts[n] = (struct rxb_pkt) {
			.len = len,
			.hash = le32_to_cpu(h->rss_hash),
			.csum = le32_to_cpu(h->csum),
			.flags = h->flags,
			.pool_q = 0,
			.data = h + 1,
		};
		*bytes += len;
		p->head = (p->head + need) & mask;
		n++;
	}
	return n;
}

static int enso_poll(struct rxb_model *m, unsigned int qi,
		     struct rxb_pkt *pkts, int budget)
{
	struct enso_q *q = &to_enso(m)->q[qi];
	u32 amask = m->cfg.enso_pipes - 1;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	/* The previous call's packets are copied out: give them back. */
	enso_commit(m, qi, q);
	enso_read_notifs(m, qi, q);
	while (n < budget && q->sw.nactive) {
		unsigned int pi = q->sw.active[q->sw.act_head & amask];
		struct enso_pipe_sw *p = &q->sw.pipe[pi];

		if (m->cfg.enso_prefetch)
			enso_prefetch_next(m, qi, q, pi);
		n += enso_read_pipe(m, q, pi, pkts + n, budget - n, &bytes);
		enso_mark_dirty(q, pi);
		if (p->head != p->tail)
			break;		/* budget spent */
		p->active = false;
		q->sw.act_head++;
		q->sw.nactive--;
	}
	if (n) {
		rxb_stat_add(&m->qstats[qi].packets, n);
		rxb_stat_add(&m->qstats[qi].bytes, bytes);
	}
	return n;
}

/* Nothing to post: the pipes are the NIC's.  Gives back what was read. */
static bool enso_refill(struct rxb_model *m, unsigned int qi)
{
	enso_commit(m, qi, &to_enso(m)->q[qi]);
	return true;
}

static bool enso_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct enso_q *q = &to_enso(m)->q[qi];

	return q->sw.nactive || q->sw.ndirty ||
	       enso_notif_ready(m, q, q->sw.nhead);
}

static void enso_ring_state(struct rxb_model *m, unsigned int qi,
			    struct rxb_ring_state *st)
{
	struct enso_q *q = &to_enso(m)->q[qi];

	st->size = m->cfg.ring_size;
	st->drv_tail = READ_ONCE(q->sw.nhead);
	st->drv_gen = rxb_gen(st->drv_tail, ilog2(m->cfg.ring_size));
}

/* Debug registers: notification tail; free flits of the queue's pipes as
 * "posted", frames written as "taken".
 */
static void enso_hw_debug(struct rxb_model *m, unsigned int qi,
			  struct rxb_hw_debug *dbg)
{
	struct enso_q *q = &to_enso(m)->q[qi];
	u32 mask = to_enso(m)->flit_mask, free = 0;
	unsigned int pi;

	for (pi = 0; pi < m->cfg.enso_pipes; pi++) {
		struct rxb_enso_pipe_regs *r = enso_regs(q, pi);

		free += (READ_ONCE(r->rx_head) - READ_ONCE(r->rx_tail) - 1) &
			mask;
	}
	dbg->cq_tail = READ_ONCE(q->hw.ntail);
	dbg->posted = free;
	dbg->taken = (u32)READ_ONCE(m->qstats[qi].hw_packets);
}

static const char *const enso_xstat_names[] = {
	"notifs", "notif_drops", "suppressed", "notif_retries",
	"notifs_read", "head_writes", "prefetches", "bad_frames",
	"flow_binds", "flow_moves",
};

static const u16 enso_xstat_off[] = {
	offsetof(struct enso_q, hw.notifs),
	offsetof(struct enso_q, hw.notif_drops),
	offsetof(struct enso_q, hw.suppressed),
	offsetof(struct enso_q, hw.retries),
	offsetof(struct enso_q, sw.notifs_read),
	offsetof(struct enso_q, sw.head_writes),
	offsetof(struct enso_q, sw.prefetches),
	offsetof(struct enso_q, sw.bad_frames),
	offsetof(struct enso_q, hw.flow_binds),
	offsetof(struct enso_q, hw.flow_moves),
};

static_assert(ARRAY_SIZE(enso_xstat_names) == ARRAY_SIZE(enso_xstat_off));

static unsigned int enso_xstats_count(struct rxb_model *m)
{
	return m->cfg.nqueues * ARRAY_SIZE(enso_xstat_names);
}

static void enso_xstats_names(struct rxb_model *m, char *names)
{
	rxb_xstats_names_fill(names, "rx", m->cfg.nqueues, enso_xstat_names,
			      ARRAY_SIZE(enso_xstat_names));
}

static void enso_xstats_values(struct rxb_model *m, u64 *vals)
{
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++)
		vals = rxb_stats_read(vals, &to_enso(m)->q[qi], enso_xstat_off,
				      ARRAY_SIZE(enso_xstat_off));
}

static int enso_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	u32 size = cfg->enso_pipe_size;

	if (!cfg->drv_ops->ring || !cfg->hw_ops->ring) {
		*msg = "enso: the environment cannot map pipes";
		return -EINVAL;
	}
	if (!cfg->enso_pipes || cfg->enso_pipes > RXB_ENSO_MAX_PIPES_Q ||
	    !is_power_of_2(cfg->enso_pipes)) {
		*msg = "enso: pipes per queue must be a power of two in 1..512";
		return -EINVAL;
	}
	if (cfg->enso_pipes * cfg->nqueues > RXB_ENSO_MAX_PIPES) {
		*msg = "enso: more pipes (queues x pipes) than the NIC holds (1024)";
		return -EINVAL;
	}
	if (cfg->flow_table_size &&
	    cfg->enso_pipes * cfg->nqueues > cfg->flow_table_size) {
		*msg = "enso: more pipes than the NIC's flow table holds (flow_table_size)";
		return -EINVAL;
	}
	if (!is_power_of_2(size) || size < RXB_ENSO_PIPE_MIN ||
	    size > RXB_ENSO_PIPE_MAX) {
		*msg = "enso: pipe size must be a power of two in 4 KiB..2 MiB";
		return -EINVAL;
	}
	if ((enso_frame_flits(cfg->buf_len) +
	     (cfg->enso_chaotic ? ENSO_GAP_MAX : 0)) * RXB_ENSO_FLIT >= size) {
		*msg = "enso: pipe smaller than one frame";
		return -EINVAL;
	}
	if (cfg->ring_size < cfg->enso_pipes) {
		*msg = "enso: notification ring (rx ring size) smaller than the pipes it serves";
		return -EINVAL;
	}
	return 0;
}

static const struct rxb_layout enso_layout =
	RXB_QUEUE_LAYOUT(struct enso, struct enso_q);

/* Teardown: neither half runs. */
static void enso_destroy(struct rxb_model *m)
{
	struct enso *e = to_enso(m);
	unsigned int qi, pi;

	for (qi = 0; e->q && qi < m->cfg.nqueues; qi++) {
		struct enso_q *q = &e->q[qi];

		for (pi = 0; q->sw.va && pi < m->cfg.enso_pipes; pi++)
			if (q->sw.va[pi])
				rxb_drv_unmap_ring(m, qi, q->sw.va[pi],
						   m->cfg.enso_pipe_size);
		kvfree(q->notif);
		kfree(q->nregs);
		kvfree(q->regs);
		kfree(q->hw.pipe);
		kfree(q->hw.retry);
		kfree(q->sw.va);
		kfree(q->sw.pipe);
		kfree(q->sw.active);
		kfree(q->sw.dirty);
	}
	kvfree(e->flow_pipe);
	rxb_model_free(m, &enso_layout);
}

/* Allocate queue @qi's rings and registers and map its pipes. */
static int enso_q_init(struct rxb_model *m, unsigned int qi, struct enso_q *q)
{
	unsigned int np = m->cfg.enso_pipes, pi;

	spin_lock_init(&q->hw.lock);
	q->notif = kvcalloc(m->cfg.ring_size, sizeof(*q->notif), GFP_KERNEL);
	q->nregs = kzalloc(RXB_ENSO_REG_STRIDE, GFP_KERNEL);
	q->regs = kvzalloc((size_t)np * RXB_ENSO_REG_STRIDE, GFP_KERNEL);
	q->hw.pipe = kcalloc(np, sizeof(*q->hw.pipe), GFP_KERNEL);
	q->hw.retry = kcalloc(np, sizeof(*q->hw.retry), GFP_KERNEL);
	q->sw.va = kcalloc(np, sizeof(*q->sw.va), GFP_KERNEL);
	q->sw.pipe = kcalloc(np, sizeof(*q->sw.pipe), GFP_KERNEL);
	q->sw.active = kcalloc(np, sizeof(*q->sw.active), GFP_KERNEL);
	q->sw.dirty = kcalloc(np, sizeof(*q->sw.dirty), GFP_KERNEL);
	if (!q->notif || !q->nregs || !q->regs || !q->hw.pipe ||
	    !q->hw.retry || !q->sw.va || !q->sw.pipe || !q->sw.active ||
	    !q->sw.dirty)
		return -ENOMEM;
	for (pi = 0; pi < np; pi++) {
		struct rxb_enso_pipe_regs *r = enso_regs(q, pi);
		u64 addr;

		q->sw.va[pi] = rxb_drv_map_ring(m, qi, m->cfg.enso_pipe_size,
						&addr);
		if (!q->sw.va[pi])
			return -ENOMEM;
		/* The NIC reads them once the context is enabled. */
		r->rx_mem_low = (u32)addr;
		r->rx_mem_high = (u32)(addr >> 32);
	}
	return 0;
}

static struct rxb_model *enso_create(const struct rxb_model_cfg *cfg)
{
	struct rxb_model *m = rxb_model_alloc(&rxb_enso_ops, cfg, &enso_layout);
	unsigned int qi;

	if (IS_ERR(m))
		return m;
	to_enso(m)->flit_mask = cfg->enso_pipe_size / RXB_ENSO_FLIT - 1;
	if (cfg->flow_table_size) {
		u32 *fp = kvmalloc_array(cfg->flow_table_size, sizeof(*fp),
					 GFP_KERNEL);

		if (!fp) {
			enso_destroy(m);
			return ERR_PTR(-ENOMEM);
		}
		memset(fp, 0xff, cfg->flow_table_size * sizeof(*fp));
		to_enso(m)->flow_pipe = fp;
	}
	for (qi = 0; qi < cfg->nqueues; qi++) {
		if (enso_q_init(m, qi, &to_enso(m)->q[qi])) {
			enso_destroy(m);
			return ERR_PTR(-ENOMEM);
		}
	}
	return m;
}

const struct rxb_model_ops rxb_enso_ops = {
	RXB_MODEL_XOPS("enso", enso),
	.stream = true,
	.validate = enso_validate,
	.hw_flow_free = enso_hw_flow_free,
};
