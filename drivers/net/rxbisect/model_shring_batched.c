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
 * flags the first entry it writes for it RXB_MCQE_F_CLOSE.
 *
 * Driver: packets are handed up borrowed (struct rxb_pkt.borrowed): the
 * stack glue copies them out, the buffer stays with the descriptor.  A
 * closed descriptor is re-armed with a fresh buffer once its packets have
 * been handed up: in the queue's next refill or poll call, which come
 * after the glue consumed the previous poll's packets.  A poll's closed
 * descriptors are appended as one chain, so the ring's lock is taken at
 * most once per poll and never more than once per batch.
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

#define SHBAT_RING_XSTATS	(SHLIST_RING_XSTATS + 1)	/* + desc_taken */

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
			q->hw.off = 0;
			q->hw.open = true;
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

/* ---- driver side ---------------------------------------------------- */

/* Re-arm the queue's closed descriptors with fresh buffers from its pool
 * and append them as one chain.  The caller guarantees that every packet
 * handed up from them was consumed (see struct rxb_pkt.borrowed).  Stops
 * at the first allocation failure; the rest wait for the next call.
 */
static void shbat_rearm(struct shlist *sb, struct shlist_ring *r,
			unsigned int qi)
{
	const struct rxb_env_ops *env = sb->b.m.cfg.env_ops;
	struct rxb_qstats *st = &sb->b.m.qstats[qi];
	struct shring_q *q = &sb->b.q[qi];
	u32 slot = q->sw.ret_first, first = slot, last = slot, k;
	struct rxb_buf buf;

	for (k = 0; k < q->sw.nret; k++) {
		if (env->alloc_buf(sb->b.m.cfg.env, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			break;
		}
		env->free_buf(sb->b.m.cfg.env, r->pool_q[slot], r->cookie[slot]);
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
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	/* The previous call's packets are consumed by now. */
	shbat_rearm(sb, r, qi);
	while (n < budget && rxb_cring_ready(&q->cr, q->sw.cq_head + n)) {
		u32 head = q->sw.cq_head + n;
		struct rxb_pkt *p = &pkts[n];
		u32 slot = rxb_cring_read(&q->cr, head, p);

		/* Every packet of the closed descriptor is in this or an
		 * earlier poll's array: re-armed after they are consumed.
		 */
		if ((p->flags & RXB_MCQE_F_CLOSE) && q->sw.open)
			shbat_retire(r, q, q->sw.cur);
		q->sw.cur = slot;
		q->sw.open = true;
		p->cookie = r->cookie[slot];
		p->pool_q = r->pool_q[slot];
		p->flags &= ~RXB_MCQE_F_CLOSE;
		p->offset = le16_to_cpu(q->cr.ent[head & q->cr.mask].buf_off);
		p->borrowed = true;
		bytes += p->len;
		n++;
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sb->b.mask, qi);
	if (n)
		rxb_cring_consume(m, qi, &q->cr, &q->sw.cq_head, n, bytes);
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
};

static struct rxb_model *shbat_create(const struct rxb_model_cfg *cfg)
{
	return shlist_alloc(&rxb_shring_batched_ops, cfg,
			    shbat_ring_xstat_names, SHBAT_RING_XSTATS);
}

static void shbat_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shlist *sb = to_shlist(m);
	unsigned int i;

	for (i = 0; i < sb->b.nrings; i++) {
		vals = shlist_ring_xstats(&sb->ring[i], vals);
		/* Batches: packets per batch = hw_packets / desc_taken. */
		*vals++ = READ_ONCE(sb->ring[i].hw.taken);
	}
	shring_xstats_victims(m, vals);
}

const struct rxb_model_ops rxb_shring_batched_ops = {
	RXB_MODEL_OPS("shring-batched", shbat),
	.multi_pkt_bufs	= true,
	SHRING_XSTATS_OPS(shbat_xstats_values),
	.destroy	= shlist_destroy,
	.rx_pending	= shring_rx_pending,
	.validate	= shbat_validate,
	.ring_state	= shlist_ring_state,
};
