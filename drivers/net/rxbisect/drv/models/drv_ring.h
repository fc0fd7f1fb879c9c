/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's side of the ring primitives every driver half shares: ring
 * memory (struct rxb_ring_mem), the completion ring it reads (struct
 * rxb_cring) with the sense-reverse protocol, posting descriptors, and
 * the create/destroy skeleton.  The NIC's side of the same protocol is in
 * drivers/net/rxbisect/hw/models/hw_ring.h; each ordering pair names the
 * other side's function.
 */
#ifndef _RXB_DRV_RING_H
#define _RXB_DRV_RING_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_layout.h>

/**
 * struct rxb_ring_mem - ring memory the driver allocated for the NIC.
 * @va: the driver's mapping, zeroed at allocation.
 * @addr: its bus address, what the base register holds.
 * @size: bytes.
 */
struct rxb_ring_mem {
	void *va;
	u64 addr;
	size_t size;
};

int rxb_ring_mem_alloc(struct rxb_model *m, struct rxb_ring_mem *r,
		       size_t size);
void rxb_ring_mem_free(struct rxb_model *m, struct rxb_ring_mem *r);

/**
 * rxb_rx_desc_post() - fill an Rx descriptor.
 * @d: descriptor.
 * @addr: buffer bus address.
 * @len: buffer length.
 *
 * Made visible to the NIC by the next register write of the ring's tail.
 */
static inline void rxb_rx_desc_post(struct rxb_rx_desc *d, u64 addr, u32 len)
{
	d->buf_addr = cpu_to_le64(addr);
	d->buf_len = cpu_to_le32(len);
	d->reserved = 0;
}

/**
 * rxb_tstamp_read() - a frame's arrival stamp from a stamp ring.
 * @ring: the stamp ring behind a ring of records, or NULL (receive stamps
 *	off: nothing is read).
 * @slot: the slot of the record that reported the frame, masked.
 *
 * After the acquire that found the record done, which the NIC's release
 * ordered after the stamp (rxb_hw_tstamp_put()).
 *
 * Return: nanoseconds on the NIC's clock, or 0: no stamp.
 */
static inline u64 rxb_tstamp_read(const __le64 *ring, u32 slot)
{
	return ring ? le64_to_cpu(READ_ONCE(ring[slot])) : 0;
}

/**
 * struct rxb_cring - the driver's view of a completion ring (CR): entries
 * the NIC writes and the driver reads, in order, with the done-bit
 * protocol of struct rxb_cqe.
 * @ent: the entries, in ring memory (@mem).
 * @db: the ring's consumer-index register (cq_head), written by the
 *	driver, read by the NIC.
 * @mask: ring size - 1.
 * @order: log2 of the ring size.
 * @ts: the stamp ring behind the entries (rxb_desc.h, RXB_TSTAMP), in
 *	@mem, with receive stamps (rxb_model_cfg.rx_tstamp); else NULL.
 * @mem: the ring memory.
 *
 * The driver's head (next entry it reads) lives with its queue state; the
 * helpers take it.
 */
struct rxb_cring {
	struct rxb_cqe *ent;
	u32 *db;
	u32 mask;
	unsigned int order;
	const __le64 *ts;
	struct rxb_ring_mem mem;
};

struct rxb_rx_desc *rxb_rxq_alloc(struct rxb_model *m, unsigned int qi,
				  struct rxb_rxq_regs *regs,
				  struct rxb_ring_mem *mem, struct rxb_cring *cr);
int rxb_cring_alloc(struct rxb_model *m, unsigned int qi, struct rxb_cring *cr,
		    u32 size, struct rxb_base_reg *base, u32 *db);
void rxb_cring_free(struct rxb_model *m, struct rxb_cring *cr);

/**
 * rxb_cring_ready() - has the NIC written the entry for this pass?
 * @cr: the ring.
 * @idx: free-running index of the entry (the driver's head, or beyond).
 *
 * On true, the entry's fields and the packet data it points to may be read.
 *
 * Return: true if the entry is done.
 */
static inline bool rxb_cring_ready(const struct rxb_cring *cr, u32 idx)
{
	/* Acquire: pairs with the release in rxb_hw_cring_note() (NIC). */
	u8 flags = smp_load_acquire(&cr->ent[idx & cr->mask].flags);

	return (flags & RXB_CQE_F_DONE) ==
	       (rxb_gen(idx, cr->order) ? RXB_CQE_F_DONE : 0);
}

/**
 * rxb_cring_pending() - is there an entry to read at the head?
 * @cr: the ring.
 * @head: the driver's head index.
 *
 * Return: true if the entry at @head is done.
 */
static inline bool rxb_cring_pending(const struct rxb_cring *cr, u32 head)
{
	return rxb_cring_ready(cr, head);
}

/**
 * rxb_cring_read() - decode an entry rxb_cring_ready() found.
 * @cr: the ring.
 * @idx: the entry's index.
 * @pkt: filled with length, hash, checksum and flags (less the done bit),
 *	and as the only packet in its buffer; not the buffer.
 *
 * Return: the descriptor index the entry names, masked to the ring.
 */
static inline u32 rxb_cring_read(const struct rxb_cring *cr, u32 idx,
				 struct rxb_pkt *pkt)
{
	const struct rxb_cqe *cqe = &cr->ent[idx & cr->mask];

	pkt->len = le16_to_cpu(cqe->pkt_len);
	pkt->hash = le32_to_cpu(cqe->rss_hash);
	pkt->ts = rxb_tstamp_read(cr->ts, idx & cr->mask);
	pkt->csum = le32_to_cpu(cqe->csum);
	pkt->flags = cqe->flags & ~RXB_CQE_F_DONE;
	pkt->offset = 0;
	pkt->frag = false;
	return le16_to_cpu(cqe->desc_idx) & cr->mask;
}

/**
 * rxb_cring_state() - a snapshot of a completion ring as the driver sees
 *	it, for ring_state().
 * @cr: the ring.
 * @head: the driver's head index (read with READ_ONCE).
 * @st: filled.
 */
static inline void rxb_cring_state(const struct rxb_cring *cr, const u32 *head,
				   struct rxb_ring_state *st)
{
	st->size = cr->mask + 1;
	st->drv_tail = READ_ONCE(*head);
	st->drv_gen = rxb_gen(st->drv_tail, cr->order);
}

/**
 * rxb_cring_reset() - driver side of a queue reset: the entries zeroed
 *	(no entry looks done), the consumer register back to 0.
 * @m: the model instance.
 * @qi: the queue.
 * @cr: the ring.
 */
static inline void rxb_cring_reset(struct rxb_model *m, unsigned int qi,
				   struct rxb_cring *cr)
{
	memset(cr->mem.va, 0, cr->mem.size);
	rxb_reg_write(m, qi, cr->db, 0);
}

/**
 * rxb_nic_debug_fill() - a queue's debug registers as the driver reads
 *	them (nic_debug()).
 * @m: the model instance.
 * @qi: the queue.
 * @posted: the producer index of the ring that supplies the queue's
 *	buffers, as the driver last wrote it (the register's value).
 * @dbg: filled; posted is what the driver posted beyond what the NIC took.
 */
static inline void rxb_nic_debug_fill(const struct rxb_model *m,
				      unsigned int qi, u32 posted,
				      struct rxb_hw_debug *dbg)
{
	const struct rxb_qdebug_regs *r = rxb_bar_qdebug(&m->bar, qi);

	dbg->cq_tail = READ_ONCE(r->cq_tail);
	dbg->taken = READ_ONCE(r->taken);
	dbg->posted = posted - dbg->taken;
}

/* The ring_state() and nic_debug() of a model whose queue @qi is
 * to_@pfx(m)->q[qi], with a completion ring cr the driver reads up to
 * cq_head, and an Rx ring whose tail register is at byte @tail_off of the
 * queue's register page.
 */
#define RXB_DEFINE_CRING_QUEUE_OPS(pfx, tail_off)			\
static void pfx##_ring_state(struct rxb_model *m, unsigned int qi,	\
			     struct rxb_ring_state *st)			\
{									\
	rxb_cring_state(&to_##pfx(m)->q[qi].cr,				\
			&to_##pfx(m)->q[qi].cq_head, st);		\
}									\
									\
static void pfx##_nic_debug(struct rxb_model *m, unsigned int qi,	\
			    struct rxb_hw_debug *dbg)			\
{									\
	const u8 *page = rxb_bar_q(&m->bar, qi, RXB_QPAGE_REGS);	\
									\
	rxb_nic_debug_fill(m, qi,					\
			   READ_ONCE(*(const u32 *)(page + (tail_off))), dbg); \
}

/* The members of a driver half's ops every model has: @model_name, its
 * hardware half rxb_@pfx_hw_ops, its layout @pfx_layout, and functions
 * named @pfx_init, @pfx_fini, @pfx_poll, @pfx_refill and @pfx_rx_pending.
 */
#define RXB_MODEL_CORE_OPS(model_name, pfx)				\
	.name = model_name, .hw = &rxb_##pfx##_hw_ops,			\
	.layout = &pfx##_layout,					\
	.init = pfx##_init, .fini = pfx##_fini,				\
	.poll = pfx##_poll, .refill = pfx##_refill,			\
	.rx_pending = pfx##_rx_pending

/* The members of a model whose queues each have one completion ring the
 * driver reads (or a view of one): @pfx_ring_state and @pfx_nic_debug.
 */
#define RXB_QUEUE_OPS(pfx)						\
	.ring_state = pfx##_ring_state, .nic_debug = pfx##_nic_debug

/* The xstats members of a model's ops: @pfx_xstats_count, _names, _values. */
#define RXB_XSTATS_OPS(pfx)						\
	.xstats_count = pfx##_xstats_count,				\
	.xstats_names = pfx##_xstats_names,				\
	.xstats_values = pfx##_xstats_values

/* The ops members of a model that has them all, each named after @pfx:
 * RXB_MODEL_CORE_OPS, RXB_QUEUE_OPS, RXB_XSTATS_OPS and @pfx_validate.
 */
#define RXB_MODEL_OPS(model_name, pfx)					\
	RXB_MODEL_CORE_OPS(model_name, pfx), RXB_QUEUE_OPS(pfx),	\
	RXB_XSTATS_OPS(pfx), .validate = pfx##_validate

void rxb_cring_consume(struct rxb_model *m, unsigned int qi,
		       const struct rxb_cring *cr, u32 *head, u32 n, u32 pkts,
		       u64 bytes);
bool rxb_ring_refill(struct rxb_model *m, unsigned int qi,
		     struct rxb_rx_desc *desc, void **cookie, u32 mask,
		     u32 *tail, u32 ci, u32 *doorbell);

#endif /* _RXB_DRV_RING_H */
