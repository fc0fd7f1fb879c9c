// SPDX-License-Identifier: GPL-2.0
/*
 * shRing, batched RxList: queues share RxList rings (shring_list.h) whose
 * descriptors each hold several packets (thesis section 5.1.4,
 * "Prefetching Solution", Figure 5.2b).  The thesis could not evaluate it:
 * it needs a NIC that keeps a current descriptor per completion ring.
 *
 * NIC: per CR, a "mini hwHead" (struct shbat_q.hw.cur) names the
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
#define SHBAT_Q_XSTATS		1	/* nobuf_victim_drops */

struct shbat_q {
	/* This queue's completion ring and its doorbell. */
	struct rxb_mcqe *cq;
	struct rxb_cq_regs regs ____cacheline_aligned;

	/* NIC-internal state, under the ring's hw.lock. */
	struct {
		u32 cq_tail;
		u32 cur;		/* mini hwHead: the current descriptor */
		u32 off;		/* next free byte of its buffer */
		bool open;		/* @cur is valid */
		u64 victim_drops;	/* see shring_victim() */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		u32 cq_head;
		u32 cur;		/* descriptor of the last packet polled */
		bool open;		/* @cur is valid */
		/* Closed descriptors not re-armed yet, linked through their
		 * descriptors' next fields (the NIC is done with them).
		 */
		u32 ret_first;
		u32 ret_last;
		u32 nret;
	} sw ____cacheline_aligned;
};

struct shbat {
	struct rxb_model m;
	u32 mask;
	unsigned int order;
	unsigned int nrings;
	struct shlist_ring *ring;
	struct shbat_q *q;
};

static struct shbat *to_shbat(struct rxb_model *m)
{
	return container_of(m, struct shbat, m);
}

static struct shlist_ring *shbat_ring_of(struct shbat *sb, unsigned int qi)
{
	return &sb->ring[qi / sb->m.cfg.share_factor];
}

/* ---- NIC side ------------------------------------------------------- */

static int shbat_hw_rx(struct rxb_model *m, unsigned int qi,
		       const struct rxb_frame *f)
{
	const struct rxb_env_ops *env = m->cfg.env_ops;
	struct shbat *sb = to_shbat(m);
	unsigned int g = qi / m->cfg.share_factor;
	struct shlist_ring *r = &sb->ring[g];
	struct shbat_q *q = &sb->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u8 flags = f->hash_flags;
	u32 held, csum = 0;
	int err = 0;
	u64 addr;

	spin_lock(&r->hw.lock);
	held = q->hw.cq_tail - rxb_db_read(&q->regs.cq_head);
	/* The current descriptor's buffer_len is the one the driver posted. */
	if (!q->hw.open ||
	    q->hw.off + f->len > le32_to_cpu(r->desc[q->hw.cur].buf_len)) {
		if (!shlist_ring_can_take(r)) {
			rxb_stat_inc(&st->nobuf_drops);
			if (shring_victim(&m->cfg, g, held))
				rxb_stat_inc(&q->hw.victim_drops);
			err = -ENOBUFS;
			goto unlock;
		}
		if (held > sb->mask) {
			rxb_stat_inc(&st->ring_full_drops);
			err = -ENOSPC;
			goto unlock;
		}
		if (f->len > le32_to_cpu(r->desc[r->hw.head].buf_len)) {
			rxb_stat_inc(&st->oversize_drops);
			err = -EMSGSIZE;
			goto unlock;
		}
		/* Close the current descriptor: the next one is the CR's. */
		if (q->hw.open)
			flags |= RXB_MCQE_F_CLOSE;
		q->hw.cur = shlist_ring_take(r, sb->mask);
		q->hw.off = 0;
		q->hw.open = true;
	} else if (held > sb->mask) {
		rxb_stat_inc(&st->ring_full_drops);
		err = -ENOSPC;
		goto unlock;
	}
	addr = le64_to_cpu(r->desc[q->hw.cur].buf_addr) + q->hw.off;
	/* A failed write still uses its space: the driver skips it. */
	flags |= env->dma_write(m->cfg.env, f, addr, &csum);
	rxb_mcqe_write(&q->cq[q->hw.cq_tail & sb->mask],
		       rxb_gen(q->hw.cq_tail, sb->order), q->hw.cur, q->hw.off,
		       f->len, f->hash, csum, flags);
	/* WRITE_ONCE: shbat_ring_state() reads it from anywhere. */
	WRITE_ONCE(q->hw.cq_tail, q->hw.cq_tail + 1);
	q->hw.off += ALIGN(f->len, RXB_MCQE_ALIGN);
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
unlock:
	spin_unlock(&r->hw.lock);
	if (!err)
		env->raise_irq(m->cfg.env, qi);
	return err;
}

/* ---- driver side ---------------------------------------------------- */

/* Queue a descriptor the NIC closed for re-arming. */
static void shbat_retire(struct shlist_ring *r, struct shbat_q *q, u32 slot)
{
	if (q->sw.nret)
		r->desc[q->sw.ret_last].next = cpu_to_le32(slot);
	else
		q->sw.ret_first = slot;
	q->sw.ret_last = slot;
	q->sw.nret++;
}

/* Re-arm the queue's closed descriptors with fresh buffers from its pool
 * and append them as one chain.  The caller guarantees that every packet
 * handed up from them was consumed (see struct rxb_pkt.borrowed).  Stops
 * at the first allocation failure; the rest wait for the next call.
 */
static void shbat_rearm(struct shbat *sb, struct shlist_ring *r,
			unsigned int qi)
{
	const struct rxb_env_ops *env = sb->m.cfg.env_ops;
	struct rxb_qstats *st = &sb->m.qstats[qi];
	struct shbat_q *q = &sb->q[qi];
	u32 slot = q->sw.ret_first, first = slot, last = slot, k;
	struct rxb_buf buf;

	for (k = 0; k < q->sw.nret; k++) {
		if (env->alloc_buf(sb->m.cfg.env, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			break;
		}
		env->free_buf(sb->m.cfg.env, r->pool_q[slot], r->cookie[slot]);
		r->cookie[slot] = buf.cookie;
		r->pool_q[slot] = qi;
		shlist_desc_post(&r->desc[slot], buf.addr, sb->m.cfg.buf_len);
		last = slot;
		/* The next closed one; the link survives the re-arm. */
		slot = le32_to_cpu(r->desc[slot].next) & sb->mask;
	}
	if (!k)
		return;
	q->sw.ret_first = slot;
	q->sw.nret -= k;
	rxb_stat_add(&st->refills, k);
	shring_lock(&r->sw.lock, &r->sw.ls);
	shlist_ring_append(&sb->m, r, qi, first, last, k);
	rxb_stat_add(&r->sw.reposts, k);
	spin_unlock(&r->sw.lock);
}

static bool shbat_refill(struct rxb_model *m, unsigned int qi)
{
	struct shbat *sb = to_shbat(m);
	struct shlist_ring *r = shbat_ring_of(sb, qi);

	shbat_rearm(sb, r, qi);
	shlist_ring_arm_rest(m, r, sb->mask, qi);
	return !sb->q[qi].sw.nret && READ_ONCE(r->sw.armed) > sb->mask;
}

static int shbat_poll(struct rxb_model *m, unsigned int qi,
		      struct rxb_pkt *pkts, int budget)
{
	struct shbat *sb = to_shbat(m);
	struct shlist_ring *r = shbat_ring_of(sb, qi);
	struct shbat_q *q = &sb->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 head = q->sw.cq_head;
	u64 bytes = 0;
	int n = 0;

	rxb_stat_inc(&st->polls);
	/* The previous call's packets are consumed by now. */
	shbat_rearm(sb, r, qi);
	while (n < budget) {
		const struct rxb_mcqe *cqe = &q->cq[head & sb->mask];
		struct rxb_pkt *p = &pkts[n];
		u32 slot;
		u8 flags;

		if (!rxb_mcqe_ready(cqe, rxb_gen(head, sb->order)))
			break;
		flags = cqe->flags & ~RXB_CQE_F_DONE;
		slot = le16_to_cpu(cqe->desc_idx) & sb->mask;
		/* Every packet of the closed descriptor is in this or an
		 * earlier poll's array: re-armed after they are consumed.
		 */
		if ((flags & RXB_MCQE_F_CLOSE) && q->sw.open)
			shbat_retire(r, q, q->sw.cur);
		q->sw.cur = slot;
		q->sw.open = true;
		p->cookie = r->cookie[slot];
		p->pool_q = r->pool_q[slot];
		p->len = le16_to_cpu(cqe->pkt_len);
		p->hash = le32_to_cpu(cqe->rss_hash);
		p->csum = le32_to_cpu(cqe->csum);
		p->flags = flags & ~RXB_MCQE_F_CLOSE;
		p->offset = le16_to_cpu(cqe->buf_off);
		p->borrowed = true;
		bytes += p->len;
		head++;
		n++;
	}
	/* A partly filled ring is topped up by its queues' next polls. */
	shlist_ring_arm_rest(m, r, sb->mask, qi);
	if (!n)
		return 0;
	WRITE_ONCE(q->sw.cq_head, head);
	rxb_db_write(&q->regs.cq_head, head);
	rxb_stat_add(&st->packets, n);
	rxb_stat_add(&st->bytes, bytes);
	return n;
}

static bool shbat_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct shbat *sb = to_shbat(m);
	struct shbat_q *q = &sb->q[qi];

	return rxb_mcqe_ready(&q->cq[q->sw.cq_head & sb->mask],
			      rxb_gen(q->sw.cq_head, sb->order));
}

static void shbat_ring_state(struct rxb_model *m, unsigned int qi,
			     struct rxb_ring_state *st)
{
	struct shbat *sb = to_shbat(m);
	struct shbat_q *q = &sb->q[qi];

	st->size = sb->mask + 1;
	st->nic_head = READ_ONCE(q->hw.cq_tail);
	st->drv_tail = READ_ONCE(q->sw.cq_head);
	st->drv_gen = rxb_gen(st->drv_tail, sb->order);
	st->posted = shlist_ring_posted(shbat_ring_of(sb, qi));
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

static void shbat_destroy(struct rxb_model *m)
{
	struct shbat *sb = to_shbat(m);
	unsigned int i;

	shlist_rings_free(m, sb->ring);
	for (i = 0; sb->q && i < m->cfg.nqueues; i++)
		kvfree(sb->q[i].cq);
	kfree(sb->q);
	rxb_model_fini_common(m);
	kfree(sb);
}

static struct rxb_model *shbat_create(const struct rxb_model_cfg *cfg)
{
	struct shbat *sb;
	unsigned int i;
	int err;

	sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(&sb->m, &rxb_shring_batched_ops, cfg);
	if (err) {
		kfree(sb);
		return ERR_PTR(err);
	}
	sb->mask = cfg->ring_size - 1;
	sb->order = ilog2(cfg->ring_size);
	sb->nrings = shring_nrings(cfg);
	sb->ring = shlist_rings_alloc(&sb->m);
	sb->q = kcalloc(cfg->nqueues, sizeof(*sb->q), GFP_KERNEL);
	if (!sb->ring || !sb->q)
		goto nomem;
	for (i = 0; i < cfg->nqueues; i++) {
		sb->q[i].cq = kvcalloc(cfg->ring_size, sizeof(*sb->q[i].cq),
				       GFP_KERNEL);
		if (!sb->q[i].cq)
			goto nomem;
	}
	shlist_rings_arm(&sb->m, sb->ring);
	return &sb->m;

nomem:
	shbat_destroy(&sb->m);
	return ERR_PTR(-ENOMEM);
}

/* ---- counters ------------------------------------------------------- */

static unsigned int shbat_xstats_count(struct rxb_model *m)
{
	return to_shbat(m)->nrings * SHBAT_RING_XSTATS +
	       m->cfg.nqueues * SHBAT_Q_XSTATS;
}

static void shbat_xstats_names(struct rxb_model *m, char *names)
{
	struct shbat *sb = to_shbat(m);
	unsigned int i, j;

	for (i = 0; i < sb->nrings; i++) {
		for (j = 0; j < SHLIST_RING_XSTATS; j++) {
			snprintf(names, RXB_STAT_NAME_LEN, "ring%u_%s", i,
				 shlist_ring_xstat_names[j]);
			names += RXB_STAT_NAME_LEN;
		}
		snprintf(names, RXB_STAT_NAME_LEN, "ring%u_desc_taken", i);
		names += RXB_STAT_NAME_LEN;
	}
	for (i = 0; i < m->cfg.nqueues; i++) {
		snprintf(names, RXB_STAT_NAME_LEN, "rx%u_nobuf_victim_drops", i);
		names += RXB_STAT_NAME_LEN;
	}
}

static void shbat_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct shbat *sb = to_shbat(m);
	unsigned int i;

	for (i = 0; i < sb->nrings; i++) {
		vals = shlist_ring_xstats(&sb->ring[i], vals);
		/* Batches: packets per batch = hw_packets / desc_taken. */
		*vals++ = READ_ONCE(sb->ring[i].hw.taken);
	}
	for (i = 0; i < m->cfg.nqueues; i++)
		*vals++ = READ_ONCE(sb->q[i].hw.victim_drops);
}

const struct rxb_model_ops rxb_shring_batched_ops = {
	.name		= "shring-batched",
	.multi_pkt_bufs	= true,
	.create		= shbat_create,
	.destroy	= shbat_destroy,
	.hw_rx		= shbat_hw_rx,
	.poll		= shbat_poll,
	.refill		= shbat_refill,
	.rx_pending	= shbat_rx_pending,
	.validate	= shbat_validate,
	.ring_state	= shbat_ring_state,
	.xstats_count	= shbat_xstats_count,
	.xstats_names	= shbat_xstats_names,
	.xstats_values	= shbat_xstats_values,
};
