// SPDX-License-Identifier: GPL-2.0
/*
 * Ensō, the driver's half: streaming receive from contiguous pipes with
 * reactive notifications (Sadok et al., OSDI '23, sections 3-5, Figure 5).
 * Register layout and framing: the Ensō section of rxb_desc.h.
 *
 * No descriptors and no per-packet buffers.  Each queue has
 * cfg->enso_pipes pipes: rings of cfg->enso_pipe_size bytes of host
 * memory the driver maps twice in a row (rxb_drv_ring_ops.map, section
 * 5.1) and the NIC appends frames to, back to back; the driver writes
 * each pipe's bus address into its rx_mem register.  Each queue (one NAPI
 * vector) has one notification ring of cfg->ring_size entries shared by
 * its pipes (section 4.1.2), in ring memory whose address the driver
 * writes into the ring's base register.  The driver learns how far a pipe
 * is written (Tail_NIC) only from notifications, and tells the NIC how far
 * it has read (Head_SW) in the pipe's rx_head register and how many
 * notifications it consumed in the ring's head register (section 4.1.1):
 * plain posted register writes (rxb_reg_write()).  The NIC acts on them
 * (Figure 5's onRxUpdate; the notifications it dropped for want of room)
 * in its own context, later: nothing of the NIC runs in the driver's
 * call, so a notification a Head_SW write asks for turns up at a later
 * poll, with the queue's interrupt.
 *
 * Reactive notifications stay live because the driver answers every
 * notification with a Head_SW write once its data is read (enso_commit()),
 * a notification that brought nothing new included.
 *
 * Choices where the paper is silent, after Ensō's library
 * (github.com/crossroadsfpga/enso) unless marked ours:
 *  - the driver consumes up to RXB_ENSO_NOTIF_BATCH notifications per
 *    write of the notification head register;
 *  - ours: Head_SW is written once per pipe per poll, for the data handed
 *    up by the previous poll call (which the caller has copied out by then,
 *    struct rxb_model_ops.stream);
 *  - low-latency mode (cfg->enso_prefetch, off by default as in the
 *    library; section 4.2, notification prefetching): before handing up
 *    data of pipe k, the driver rings the prefetch doorbell of the queue's
 *    next pipe: a Head_SW write of the value it holds, which has the NIC
 *    notify whatever the pipe holds beyond it.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include "drv_ring.h"

/* The driver's state of one pipe. */
struct enso_pipe {
	void *va;		/* its double mapping */
	u32 head;		/* Head_SW: flits read so far */
	u32 tail;		/* Tail_NIC as last notified */
	bool active;		/* in the active list: notified data to read */
	bool dirty;		/* Head_SW to write at the next commit */
	const __le64 *ts;	/* its stamp ring, in @ts_mem, or NULL */
	struct rxb_ring_mem ts_mem;
};

struct enso_q {
	struct rxb_enso_notif *notif;	/* the notification ring, in @notif_mem */
	struct rxb_ring_mem notif_mem;
	struct rxb_enso_notif_regs *nregs;	/* the queue's page */
	struct enso_pipe *pipe;
	u16 *active;		/* FIFO of pipes with data to read */
	u32 act_head;
	u32 nactive;
	u16 *dirty;		/* pipes whose Head_SW to write */
	u32 ndirty;
	u32 nhead;		/* next notification to read */
	u32 nhead_db;		/* notification head last written */
	u64 notifs_read;
	u64 head_writes;
	u64 prefetches;
	u64 bad_frames;		/* malformed header: rest of pipe skipped */
} ____cacheline_aligned;

struct enso {
	struct rxb_model m;
	struct enso_q *q;
	u32 flit_mask;		/* flits per pipe - 1 (head, tail wrap) */
};

static const struct rxb_layout enso_layout =
	RXB_QUEUE_LAYOUT(struct enso, struct enso_q);

#define to_enso(mp)		container_of(mp, struct enso, m)

/* Pipe @pi of queue @qi's registers, its own page. */
static struct rxb_enso_pipe_regs *enso_regs(struct rxb_model *m,
					    unsigned int qi, unsigned int pi)
{
	return rxb_enso_pipe_regs(&m->bar, m->cfg.enso_pipes, qi, pi);
}

/* Is the notification at @idx written?  Acquire: then its fields are. */
static bool enso_notif_ready(const struct rxb_model *m, struct enso_q *q,
			     u32 idx)
{
	/* Acquire: pairs with the release of the NIC's enso_notify(). */
	return smp_load_acquire(&q->notif[idx & (m->cfg.ring_size - 1)].signal);
}

/* Give the notifications read back to the NIC: one register write. */
static void enso_notif_db(struct rxb_model *m, unsigned int qi,
			  struct enso_q *q)
{
	if (q->nhead == q->nhead_db)
		return;
	q->nhead_db = q->nhead;
	/* Release: the signals cleared before the NIC may reuse the
	 * entries.  Pairs with the acquire of the NIC's enso_notify().
	 */
	rxb_db_ring(m, qi, &q->nregs->head, q->nhead);
	rxb_stat_inc(&m->qstats[qi].doorbells);
}

static void enso_mark_dirty(struct enso_q *q, unsigned int pi)
{
	if (!q->pipe[pi].dirty) {
		q->pipe[pi].dirty = true;
		q->dirty[q->ndirty++] = pi;
	}
}

/* Write pipe @pi's Head_SW register with @head: a posted write. */
static void enso_head_db(struct rxb_model *m, unsigned int qi,
			 unsigned int pi, u32 head)
{
	/* Release: the reads of the flits below @head are done before the
	 * NIC may overwrite them.  Pairs with the acquire of the NIC's
	 * enso_read_head().
	 */
	rxb_db_ring(m, qi, &enso_regs(m, qi, pi)->rx_head, head);
	rxb_stat_inc(&m->qstats[qi].doorbells);
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

	for (i = 0; i < q->ndirty; i++) {
		unsigned int pi = q->dirty[i];

		q->pipe[pi].dirty = false;
		rxb_stat_inc(&q->head_writes);
		enso_head_db(m, qi, pi, q->pipe[pi].head);
	}
	q->ndirty = 0;
}

/* Read the notifications written so far into the pipes' tails. */
static void enso_read_notifs(struct rxb_model *m, unsigned int qi,
			     struct enso_q *q)
{
	u32 mask = m->cfg.ring_size - 1, flits = to_enso(m)->flit_mask + 1;

	while (enso_notif_ready(m, q, q->nhead)) {
		struct rxb_enso_notif *n = &q->notif[q->nhead & mask];
		u64 pipe = le64_to_cpu(n->pipe);
		u64 tail = le64_to_cpu(n->tail);
		struct enso_pipe *p;
		unsigned int pi;

		WRITE_ONCE(n->signal, 0);
		/* WRITE_ONCE: ring_state() reads it from anywhere. */
		WRITE_ONCE(q->nhead, q->nhead + 1);
		rxb_stat_inc(&q->notifs_read);
		if (q->nhead - q->nhead_db >= RXB_ENSO_NOTIF_BATCH)
			enso_notif_db(m, qi, q);
		pi = pipe - (u64)qi * m->cfg.enso_pipes;
		if (pipe < (u64)qi * m->cfg.enso_pipes ||
		    pi >= m->cfg.enso_pipes || tail >= flits) {
			rxb_stat_inc(&q->bad_frames);
			continue;
		}
		p = &q->pipe[pi];
		p->tail = tail;
		/* Nothing new: answer with Head_SW (the NIC clears the
		 * status bit or notifies what came since).  Otherwise the
		 * pipe is read, and its Head_SW written, later.
		 */
		if (p->head == p->tail) {
			enso_mark_dirty(q, pi);
		} else if (!p->active) {
			p->active = true;
			q->active[(q->act_head + q->nactive++) &
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

	if (next == pi || q->pipe[next].dirty)
		return;		/* its Head_SW is written at the commit */
	rxb_stat_inc(&q->prefetches);
	/* Not dirty: the head is the value the register holds (the last
	 * commit wrote it), so the write asks for a notification only.
	 */
	enso_head_db(m, qi, next, q->pipe[next].head);
}

/* Hand up the frames of pipe @pi from Head_SW to the notified tail, up to
 * @budget; the pipe's memory is mapped twice, so a frame across its end
 * is read in one piece.  Returns the packets.
 */
static int enso_read_pipe(struct rxb_model *m, struct enso_q *q,
			  unsigned int pi, struct rxb_pkt *pkts, int budget,
			  u64 *bytes)
{
	struct enso_pipe *p = &q->pipe[pi];
	u32 mask = to_enso(m)->flit_mask;
	const u8 *va = p->va;
	int n = 0;

	while (n < budget && p->head != p->tail) {
		const struct rxb_enso_hdr *h = (const void *)(va + p->head *
							      RXB_ENSO_FLIT);
		u32 len = le16_to_cpu(h->len);
		u32 need = rxb_enso_frame_flits(len) +
			   rxb_enso_gap(m->cfg.enso_chaotic, p->head);

		if (!len || len > m->cfg.buf_len ||
		    need > ((p->tail - p->head) & mask)) {
			rxb_stat_inc(&q->bad_frames);
			p->head = p->tail;
			break;
		}
		pkts[n] = (struct rxb_pkt) {
			.len = len,
			.hash = le32_to_cpu(h->rss_hash),
			.ts = rxb_tstamp_read(p->ts, p->head),
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

	/* The previous call's packets are copied out: give them back. */
	enso_commit(m, qi, q);
	enso_read_notifs(m, qi, q);
	while (n < budget && q->nactive) {
		unsigned int pi = q->active[q->act_head & amask];
		struct enso_pipe *p = &q->pipe[pi];

		if (m->cfg.enso_prefetch)
			enso_prefetch_next(m, qi, q, pi);
		n += enso_read_pipe(m, q, pi, pkts + n, budget - n, &bytes);
		enso_mark_dirty(q, pi);
		if (p->head != p->tail)
			break;		/* budget spent */
		p->active = false;
		q->act_head++;
		q->nactive--;
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

	return q->nactive || q->ndirty || enso_notif_ready(m, q, q->nhead);
}

static void enso_ring_state(struct rxb_model *m, unsigned int qi,
			    struct rxb_ring_state *st)
{
	struct enso_q *q = &to_enso(m)->q[qi];

	st->size = m->cfg.ring_size;
	st->drv_tail = READ_ONCE(q->nhead);
	st->drv_gen = rxb_gen(st->drv_tail, ilog2(m->cfg.ring_size));
}

/* The NIC's debug registers: notification tail; free flits of the
 * queue's pipes as "posted", frames written as "taken".
 */
static void enso_nic_debug(struct rxb_model *m, unsigned int qi,
			   struct rxb_hw_debug *dbg)
{
	const struct rxb_qdebug_regs *r = rxb_bar_qdebug(&m->bar, qi);

	dbg->cq_tail = READ_ONCE(r->cq_tail);
	dbg->posted = READ_ONCE(r->free);
	dbg->taken = READ_ONCE(r->taken);
}

/* Per queue: the NIC's statistics registers (notifs .. notif_retries,
 * flow_binds, flow_moves) and the driver's own, in ethtool -S order.
 */
static const char *const enso_xstat_names[] = {
	"notifs", "notif_drops", "suppressed", "notif_retries",
	"notifs_read", "head_writes", "prefetches", "bad_frames",
	"flow_binds", "flow_moves",
};

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

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		const struct rxb_enso_qstats_regs *st =
			rxb_bar_q(&m->bar, qi, RXB_QPAGE_MSTATS);
		const struct enso_q *q = &to_enso(m)->q[qi];

		*vals++ = READ_ONCE(st->notifs);
		*vals++ = READ_ONCE(st->notif_drops);
		*vals++ = READ_ONCE(st->suppressed);
		*vals++ = READ_ONCE(st->notif_retries);
		*vals++ = READ_ONCE(q->notifs_read);
		*vals++ = READ_ONCE(q->head_writes);
		*vals++ = READ_ONCE(q->prefetches);
		*vals++ = READ_ONCE(q->bad_frames);
		*vals++ = READ_ONCE(st->flow_binds);
		*vals++ = READ_ONCE(st->flow_moves);
	}
}

static int enso_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	u32 size = cfg->enso_pipe_size;

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
	if ((rxb_enso_frame_flits(cfg->buf_len) +
	     (cfg->enso_chaotic ? RXB_ENSO_GAP_MAX : 0)) * RXB_ENSO_FLIT >= size) {
		*msg = "enso: pipe smaller than one frame";
		return -EINVAL;
	}
	if (cfg->ring_size < cfg->enso_pipes) {
		*msg = "enso: notification ring (rx ring size) smaller than the pipes it serves";
		return -EINVAL;
	}
	return 0;
}

/* The NIC's context is disabled: nothing writes the rings any more. */
static void enso_fini(struct rxb_model *m)
{
	struct enso *e = to_enso(m);
	unsigned int qi, pi;

	for (qi = 0; e->q && qi < m->cfg.nqueues; qi++) {
		struct enso_q *q = &e->q[qi];

		for (pi = 0; q->pipe && pi < m->cfg.enso_pipes; pi++) {
			if (q->pipe[pi].va)
				rxb_drv_unmap_ring(m, qi, q->pipe[pi].va,
						   m->cfg.enso_pipe_size);
			rxb_ring_mem_free(m, &q->pipe[pi].ts_mem);
		}
		rxb_ring_mem_free(m, &q->notif_mem);
		kfree(q->pipe);
		kfree(q->active);
		kfree(q->dirty);
	}
}

/* Allocate queue @qi's notification ring and pipes, and program their
 * base registers.
 */
static int enso_q_init(struct rxb_model *m, unsigned int qi, struct enso_q *q)
{
	unsigned int np = m->cfg.enso_pipes, pi;

	q->nregs = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);
	q->pipe = kcalloc(np, sizeof(*q->pipe), GFP_KERNEL);
	q->active = kcalloc(np, sizeof(*q->active), GFP_KERNEL);
	q->dirty = kcalloc(np, sizeof(*q->dirty), GFP_KERNEL);
	if (!q->pipe || !q->active || !q->dirty ||
	    rxb_ring_mem_alloc(m, &q->notif_mem, (size_t)m->cfg.ring_size *
			       sizeof(*q->notif)))
		return -ENOMEM;
	q->notif = q->notif_mem.va;
	rxb_reg_base(m, qi, &q->nregs->base, q->notif_mem.addr);
	for (pi = 0; pi < np; pi++) {
		u64 addr;

		q->pipe[pi].va = rxb_drv_map_ring(m, qi, m->cfg.enso_pipe_size,
						  &addr);
		if (!q->pipe[pi].va)
			return -ENOMEM;
		/* The NIC reads it once the context is enabled. */
		rxb_reg_base(m, qi, &enso_regs(m, qi, pi)->rx_mem, addr);
		if (!m->cfg.rx_tstamp)
			continue;
		/* A stamp per flit, in memory of its own (RXB_TSTAMP). */
		if (rxb_ring_mem_alloc(m, &q->pipe[pi].ts_mem,
				       rxb_tstamp_ring_bytes(m->cfg.enso_pipe_size /
							     RXB_ENSO_FLIT, true)))
			return -ENOMEM;
		q->pipe[pi].ts = q->pipe[pi].ts_mem.va;
		rxb_reg_base(m, qi, &enso_regs(m, qi, pi)->ts_mem,
			     q->pipe[pi].ts_mem.addr);
	}
	return 0;
}

static int enso_init(struct rxb_model *m)
{
	unsigned int qi;

	if (!m->env->ring)
		return -EINVAL;		/* the driver cannot map pipes */
	to_enso(m)->flit_mask = m->cfg.enso_pipe_size / RXB_ENSO_FLIT - 1;
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		if (enso_q_init(m, qi, &to_enso(m)->q[qi]))
			return -ENOMEM;
	return 0;
}

const struct rxb_model_ops rxb_enso_ops = {
	RXB_MODEL_OPS("enso", enso),
	.stream = true,
};
