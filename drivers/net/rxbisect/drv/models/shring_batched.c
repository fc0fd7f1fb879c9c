// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, batched RxList, the driver's half: queues share RxList rings
 * (shring_list.c) whose descriptors each hold several packets (thesis
 * section 5.1.4, "Prefetching Solution", Figure 5.2b).  The NIC keeps a
 * current descriptor per completion ring and closes it with
 * RXB_MCQE_F_CLOSE (hw/models/shring_batched.c).
 *
 * Packets are handed up as fragments of the buffer (struct rxb_pkt.frag),
 * each with its own reference on it (rxb_drv_ops.ref_buf; in the kernel a
 * page_pool fragment of the page, added to the skb with no copy, as mlx5's
 * striding RQ does).  A closed descriptor is re-armed with a fresh buffer
 * in the same poll, while the old buffer is still held by the stack's
 * fragments: the model drops its own reference (free_buf), and the buffer
 * returns to its pool when the last fragment is freed.  Waiting for the
 * last fragment instead would let a socket that holds its skbs hold a
 * descriptor of the shared ring, the pathological overload of section
 * 5.1.1 again.  A poll's closed descriptors are appended as one chain, so
 * the ring's lock is taken at most once per poll and never more than once
 * per batch.
 *
 * Buffer layout: one buffer per descriptor (a page_pool page in the
 * kernel: RXB_RX_BUF_LEN bytes after the headroom); packets back to back
 * at 64-byte aligned offsets: two 1514-byte frames, or up to 55 of 64
 * bytes, per 4 KiB page.
 */
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_shring.h>
#include "drv_ring.h"
#include "shring.h"

/* + desc_taken, idle_closes, frag_refs */
#define SHBAT_RING_XSTATS	(SHLIST_RING_XSTATS + 3)

/* Re-arm the queue's closed descriptors with fresh buffers from its pool
 * and append them as one chain; drop the model's reference on the old
 * buffers, which every packet handed up from them still holds (struct
 * rxb_pkt.frag).  Stops at the first allocation failure; the rest wait
 * for the next call.
 */
static void shbat_rearm(struct shlist *sb, struct shlist_ring *r,
			unsigned int qi)
{
	struct rxb_drv_qstats *st = &sb->b.m.qstats[qi];
	struct shring_q *q = &sb->b.q[qi];
	u32 slot = q->ret_first, first = slot, last = slot, k;
	struct rxb_buf buf;

	for (k = 0; k < q->nret; k++) {
		if (rxb_drv_alloc_buf(&sb->b.m, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			break;
		}
		rxb_drv_free_buf(&sb->b.m, r->h.pool_q[slot], r->h.cookie[slot]);
		r->h.cookie[slot] = buf.cookie;
		r->h.pool_q[slot] = qi;
		shlist_desc_post(&r->desc[slot], buf.addr, sb->b.m.cfg.buf_len);
		last = slot;
		/* The next closed one; the link survives the re-arm. */
		slot = le32_to_cpu(r->desc[slot].next) & sb->b.mask;
	}
	if (!k)
		return;
	q->ret_first = slot;
	q->nret -= k;
	rxb_stat_add(&st->refills, k);
	shring_lock(&r->h.lock, &r->ls);
	shlist_ring_append(&sb->b.m, r, qi, first, last, k);
	rxb_stat_add(&r->reposts, k);
	spin_unlock(&r->h.lock);
}

/* Queue a descriptor the NIC closed for re-arming. */
static void shbat_retire(struct shlist_ring *r, struct shring_q *q, u32 slot)
{
	if (q->nret)
		r->desc[q->ret_last].next = cpu_to_le32(slot);
	else
		q->ret_first = slot;
	q->ret_last = slot;
	q->nret++;
}

static int shbat_poll(struct rxb_model *m, unsigned int qi,
		      struct rxb_pkt *pkts, int budget)
{
	struct shlist *sb = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sb, qi);
	struct shring_walk w;
	struct shring_q *q = shring_walk_begin(&w, &sb->b, qi, &r->h, pkts,
					       budget);

	while (shring_walk_ready(&w)) {
		struct rxb_pkt *p = &pkts[w.n];
		u32 slot = rxb_cring_read(&q->cr, w.head, p);

		w.head++;
		/* The closed descriptor's packets are all handed up, each
		 * with its own reference: re-armed below.
		 */
		if ((p->flags & RXB_MCQE_F_CLOSE) && q->open)
			shbat_retire(r, q, q->cur);
		if (p->flags & RXB_MCQE_F_NOPKT) {
			/* The idle timer closed the current descriptor. */
			q->open = false;
			continue;
		}
		q->cur = slot;
		q->open = true;
		p->cookie = r->h.cookie[slot];
		p->pool_q = r->h.pool_q[slot];
		p->flags &= ~RXB_MCQE_F_CLOSE;
		p->offset = le16_to_cpu(q->cr.ent[(w.head - 1) & q->cr.mask].buf_off);
		p->frag = true;
		rxb_drv_ref_buf(m, p->pool_q, p->cookie);
		w.bytes += p->len;
		w.n++;
	}
	if (w.head != q->cq_head) {
		rxb_stat_add(&q->frag_refs, w.n);
		/* A timeout close is an entry without a packet. */
		rxb_cring_consume(m, qi, &q->cr, &q->cq_head,
				  w.head - q->cq_head, w.n, w.bytes);
	}
	shbat_rearm(sb, r, qi);
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sb->b.mask, qi);
	return w.n;
}

static bool shbat_refill(struct rxb_model *m, unsigned int qi)
{
	struct shlist *sb = to_shlist(m);
	struct shlist_ring *r = shlist_ring_of(sb, qi);

	shbat_rearm(sb, r, qi);
	shlist_ring_arm_rest(m, r, sb->b.mask, qi);
	return !sb->b.q[qi].nret && READ_ONCE(r->armed) > sb->b.mask;
}

static int shbat_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	if (cfg->buf_len < RXB_MCQE_ALIGN) {
		*msg = "buffers too small for a batch";
		return -EINVAL;
	}
	return shring_validate(cfg, msg);
}

static const char * const shbat_ring_xstat_names[SHBAT_RING_XSTATS] = {
	"reposts", "lock_acquired", "lock_contended", "tail_advances",
	"tail_advance_len", "out_of_order", "posted", "desc_taken",
	"idle_closes", "frag_refs",
};

static int shbat_init(struct rxb_model *m)
{
	return shlist_rings_init(m, shbat_ring_xstat_names, SHBAT_RING_XSTATS);
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
		*vals++ = READ_ONCE(sb->ring[i].st->idle_closes);
		/* Zero-copy: one fragment reference per packet handed up. */
		for (qi = first; qi < first + rxb_shring_group_size(&m->cfg, i);
		     qi++)
			refs += READ_ONCE(sb->b.q[qi].frag_refs);
		*vals++ = refs;
	}
	shring_xstats_victims(m, vals);
}

const struct rxb_model_ops rxb_shring_batched_ops = {
	SHLIST_OPS("shring-batched", rxb_shring_batched_hw_ops, shbat,
		   shbat_xstats_values),
	.multi_pkt_bufs	= true,
	.validate	= shbat_validate,
};
