// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, batched RxList: queues share RxList rings (shring_list.h) whose
 * descriptors each hold several packets (thesis section 5.1.4,
 * "Prefetching Solution", Figure 5.2b).  The thesis could not evaluate it:
 * it needs a NIC that keeps a current descriptor per completion ring.
 *
 * NIC: per CR, a "mini hwHead" (struct shring_q.hw.cur) names the
 * descriptor that CR's packets go to; each packet is placed at the next
 * RXB_MCQE_ALIGN-aligned offset of its buffer.  When the next packet does
 * not fit, the NIC takes the next descriptor from the list (the only time
 * it touches the shared list: once per batch, not once per packet) and
 * flags the first entry it writes for it RXB_MCQE_F_CLOSE.  A queue that
 * stays idle with a partly filled descriptor would hold it (and its
 * buffer) for ever: the NIC's idle timer closes it after one to two
 * SHBAT_IDLE_NS periods without a packet for that CR, with an entry that
 * carries no packet (RXB_MCQE_F_CLOSE | RXB_MCQE_F_NOPKT), as rxBisect's
 * notification timeout flushes held notifications.
 *
 * Driver: packets are handed up as fragments of the buffer (struct
 * rxb_pkt.frag), each with its own reference on it (rxb_drv_ops.ref_buf;
 * in the kernel a page_pool fragment of the page, added to the skb with no
 * copy, as mlx5's striding RQ does).  A closed descriptor is re-armed with
 * a fresh buffer in the same poll, while the old buffer is still held by
 * the stack's fragments: the model drops its own reference (free_buf),
 * and the buffer returns to its pool when the last fragment is freed.
 * Waiting for the last fragment instead would let a socket that holds
 * its skbs hold a descriptor of the shared ring, the pathological
 * overload of section 5.1.1 again.  A poll's closed descriptors are
 * appended as one chain, so the ring's lock is taken at most once per
 * poll and never more than once per batch.
 *
 * Buffer layout: one buffer per descriptor (a page_pool page in the
 * kernel: RXB_RX_BUF_LEN bytes after the headroom); packets back to back
 * at 64-byte aligned offsets: two 1514-byte frames, or up to 55 of 64
 * bytes, per 4 KiB page.
 *
 * Since a queue's CR bounds the packets it holds, a stalled queue holds at
 * most ring size / batch descriptors of the shared ring: batching also
 * softens RxArr's pathological core overload (section 5.1.1).
 */
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
#include "shring_list.h"

/* + desc_taken, idle_closes, frag_refs */
#define SHBAT_RING_XSTATS	(SHLIST_RING_XSTATS + 3)

/* Period of the NIC's idle timer (see above). */
#define SHBAT_IDLE_NS		(100 * 1000)

/* ---- NIC side ------------------------------------------------------- */

static int shbat_hw_rx(struct rxb_model *m, unsigned int qi,
		       const struct rxb_frame *f)
{
	struct shlist *sb = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sb, qi);
	struct shring_q *q = &sb->b.q[qi];
	u8 flags = 0;
	u32 held;
	int err;

	spin_lock(&r->hw.lock);
	held = rxb_cring_held(&q->cr, q->hw.cq_tail);
	/* The current descriptor's buffer_len is the one the driver posted. */
	if (!q->hw.open ||
	    q->hw.off + f->len > le32_to_cpu(r->desc[q->hw.cur].buf_len)) {
		err = shlist_admit(sb, r, qi, f->len, held);
		if (!err) {
			/* Close the current descriptor: the next one is the
			 * CR's.
			 */
			if (q->hw.open)
				flags = RXB_MCQE_F_CLOSE;
			q->hw.cur = shlist_ring_take(r, sb->b.mask);
			rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD,
				    sizeof(r->desc[0]));
			q->hw.off = 0;
			q->hw.open = true;
			/* The idle timer watches open descriptors. */
			if (!READ_ONCE(sb->ticking)) {
				WRITE_ONCE(sb->ticking, true);
				rxb_hw_arm_timer(m, SHBAT_IDLE_NS);
			}
		}
	} else {
		err = held > sb->b.mask ? -ENOSPC : 0;
	}
	if (!err) {
		/* A failed write still uses its space: the driver skips it. */
		rxb_cring_deliver(m, qi, &q->cr, &q->hw.cq_tail, f,
				  le64_to_cpu(r->desc[q->hw.cur].buf_addr) +
				  q->hw.off, q->hw.cur, q->hw.off, flags);
		q->hw.off += ALIGN(f->len, RXB_MCQE_ALIGN);
	}
	return rxb_nic_finish(m, qi, &r->hw.lock, err);
}

/* Close queue @qi's current descriptor if no packet came for it since the
 * last tick.  Under its ring's hw.lock.  Returns true if an entry was
 * written (raise the vector); *@open is set if it stays open.
 */
static bool shbat_idle_close(struct shlist *sb, struct shlist_ring *r,
			     unsigned int qi, bool *open)
{
	struct shring_q *q = &sb->b.q[qi];

	if (!q->hw.open)
		return false;
	if (q->hw.cq_tail != q->hw.seen ||
	    rxb_cring_held(&q->cr, q->hw.cq_tail) > sb->b.mask) {
		/* Busy, or no room for the entry: try next tick. */
		q->hw.seen = q->hw.cq_tail;
		*open = true;
		return false;
	}
	rxb_hw_pcie(&sb->b.m, qi, RXB_PCIE_META_WR, sizeof(q->cr.ent[0]));
	rxb_cring_note(&q->cr, &q->hw.cq_tail, q->hw.cur,
		       RXB_MCQE_F_CLOSE | RXB_MCQE_F_NOPKT);
	q->hw.seen = q->hw.cq_tail;
	q->hw.open = false;
	rxb_stat_inc(&r->hw.idle_closes);
	return true;
}

static void shbat_hw_timer(struct rxb_model *m)
{
	struct shlist *sb = to_shlist(m);
	u64 wrote = 0;
	bool open = false;
	unsigned int qi;

	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct shlist_ring *r = shlist_ring_of(sb, qi);

		spin_lock(&r->hw.lock);
		if (shbat_idle_close(sb, r, qi, &open))
			wrote |= 1ULL << qi;
		spin_unlock(&r->hw.lock);
	}
	for (qi = 0; qi < m->cfg.nqueues; qi++)
		if (wrote & (1ULL << qi))
			rxb_hw_raise_irq(m, qi);
	if (!open) {
		/* Sleep until a descriptor opens (shbat_hw_rx() arms the
		 * timer).  One that opened since the check above saw ticking
		 * true and armed nothing: look again, under each ring's lock,
		 * which orders our write of ticking before its read there,
		 * or its open before our read.
		 */
		WRITE_ONCE(sb->ticking, false);
		for (qi = 0; qi < m->cfg.nqueues && !open; qi++) {
			struct shlist_ring *r = shlist_ring_of(sb, qi);

			spin_lock(&r->hw.lock);
			open = sb->b.q[qi].hw.open;
			spin_unlock(&r->hw.lock);
		}
		if (!open)
			return;
		WRITE_ONCE(sb->ticking, true);
	}
	rxb_hw_arm_timer(m, SHBAT_IDLE_NS);
}

/* ---- driver side ---------------------------------------------------- */

/* Re-arm the queue's closed descriptors with fresh buffers from its pool
 * and append them as one chain; drop the model's reference on the old
 * buffers, which every packet handed up from them still holds (struct
 * rxb_pkt.frag).  Stops at the first allocation failure; the rest wait
 * for the next call.
 */
static void shbat_rearm(struct shlist *sb, struct shlist_ring *r,
			unsigned int qi)
{
	struct rxb_qstats *st = &sb->b.m.qstats[qi];
	struct shring_q *q = &sb->b.q[qi];
	u32 slot = q->sw.ret_first, first = slot, last = slot, k;
	struct rxb_buf buf;

	for (k = 0; k < q->sw.nret; k++) {
		if (rxb_drv_alloc_buf(&sb->b.m, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			break;
		}
		rxb_drv_free_buf(&sb->b.m, r->pool_q[slot], r->cookie[slot]);
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		shlist_desc_post(&r->desc[slot], buf.addr, sb->b.m.cfg.buf_len);
		last = slot;
		/* The next closed one; the link survives the re-arm. */
		slot = le32_to_cpu(r->desc[slot].next) & sb->b.mask;
	}
	if (!k)
		return;
	q->sw.ret_first = slot;
	q->sw.nret -= k;
	rxb_stat_add(&st->refills, k);
	shring_lock(&r->sw.lock, &r->sw.ls);
	shlist_ring_append(&sb->b.m, r, qi, first, last, k);
	rxb_stat_add(&r->sw.reposts, k);
	spin_unlock(&r->sw.lock);
}

/* Queue a descriptor the NIC closed for re-arming. */
static void shbat_retire(struct shlist_ring *r, struct shring_q *q, u32 slot)
{
	if (q->sw.nret)
		r->desc[q->sw.ret_last].next = cpu_to_le32(slot);
	else
		q->sw.ret_first = slot;
	q->sw.ret_last = slot;
	q->sw.nret++;
}

static int shbat_poll(struct rxb_model *m, unsigned int qi,
		      struct rxb_pkt *pkts, int budget)
{
	struct shlist *sb = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sb, qi);
	struct shring_q *q = &sb->b.q[qi];
	u32 head = q->sw.cq_head;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	while (n < budget && rxb_cring_ready(&q->cr, head)) {
		struct rxb_pkt *p = &pkts[n];
		u32 slot = rxb_cring_read(&q->cr, head, p);

		head++;
		/* The closed descriptor's packets are all handed up, each
		 * with its own reference: re-armed below.
		 */
		if ((p->flags & RXB_MCQE_F_CLOSE) && q->sw.open)
			shbat_retire(r, q, q->sw.cur);
		if (p->flags & RXB_MCQE_F_NOPKT) {
			/* The idle timer closed the current descriptor. */
			q->sw.open = false;
			continue;
		}
		q->sw.cur = slot;
		q->sw.open = true;
		p->cookie = r->cookie[slot];
		p->pool_q = r->pool_q[slot];
		p->flags &= ~RXB_MCQE_F_CLOSE;
		p->offset = le16_to_cpu(q->cr.ent[(head - 1) & q->cr.mask].buf_off);
		p->frag = true;
		rxb_drv_ref_buf(m, p->pool_q, p->cookie);
		bytes += p->len;
		n++;
	}
	if (head != q->sw.cq_head) {
		rxb_stat_add(&q->sw.frag_refs, n);
		/* A timeout close is an entry without a packet. */
		rxb_cring_consume(m, qi, &q->cr, &q->sw.cq_head,
				  head - q->sw.cq_head, n, bytes);
	}
	shbat_rearm(sb, r, qi);
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sb->b.mask, qi);
	return n;
}

static bool shbat_refill(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sb = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sb, qi);

	shbat_rearm(sb, r, qi);
	shlist_ring_arm_rest(m, r, sb->b.mask, qi);
	return !sb->b.q[qi].sw.nret && READ_ONCE(r->sw.armed) > sb->b.mask;
}

/* ---- setup ---------------------------------------------------------- */

static int shbat_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	if (cfg->buf_len < RXB_MCQE_ALIGN) {
		*msg = "buffers too small for a batch";
		return -EINVAL;
	}
	return shring_validate_share(cfg, msg);
}

/* ---- counters ------------------------------------------------------- */

static const char * const shbat_ring_xstat_names[SHBAT_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "tail_advances",
	"tail_advance_len", "out_of_order", "posted", "desc_taken",
	"idle_closes", "frag_refs",
};

static struct rxb_model *shbat_create(const struct rxb_model_cfg *cfg)
{
	return shlist_alloc(&rxb_shring_batched_ops, cfg,
			    shbat_ring_xstat_names, SHBAT_RING_XSTATS);
}

static void shbat_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shlist *sb = to_shlist(m);
	struct rxb_hw_debug dbg;
	unsigned int i;

	for (i = 0; i < sb->b.nrings; i++) {
		unsigned int qi, first = i * m->cfg.share_factor;
		u64 refs = 0;

		vals = shlist_ring_xstats(m, i, vals, &dbg);
		/* Batches: packets per batch = hw_packets / desc_taken. */
		*vals++ = dbg.taken;
		/* A counter the NIC writes: a statistics register. */
		*vals++ = READ_ONCE(sb->ring[i].hw.idle_closes);
		/* Zero-copy: one fragment reference per packet handed up. */
		for (qi = first; qi < first + shring_group_size(&m->cfg, i); qi++)
			refs += READ_ONCE(sb->b.q[qi].sw.frag_refs);
		*vals++ = refs;
	}
	shring_xstats_victims(m, vals);
}

const struct rxb_model_ops rxb_shring_batched_ops = {
	RXB_MODEL_OPS("shring-batched", shbat),
	.multi_pkt_bufs	= true,
	SHLIST_OPS(shbat_xstats_values),
	.validate	= shbat_validate,
	.hw_timer	= shbat_hw_timer,
};
