/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring primitives shared by the ring-model cores: the completion ring
 * (struct rxb_cring) with its sense-reverse protocol, doorbell register
 * accesses, and the create/destroy skeleton (struct rxb_layout).  Every
 * access to memory or a register that both the NIC and the driver touch
 * goes through here, so each ordering pair is written down once.
 */
#ifndef _RXB_RING_H
#define _RXB_RING_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

/**
 * rxb_gen() - generation bit of the pass through a ring that @idx is in.
 * @idx: free-running ring index.
 * @order: log2 of the ring size.
 *
 * 1 on the first pass, 0 on the second, ... (thesis 4.1: the NIC fills the
 * done bit with its generation; software compares with its own).  Ring
 * memory starts zeroed, so no entry looks done before the NIC writes it.
 */
static inline u8 rxb_gen(u32 idx, unsigned int order)
{
	return ((idx >> order) & 1) ^ 1;
}

/**
 * rxb_db_write() - driver side: write a doorbell register.
 * @reg: the register.
 * @val: new producer or consumer index.
 *
 * Release: the descriptors posted (or the completions consumed) before
 * the doorbell are complete before the NIC can see the new index.  Pairs
 * with the acquire in rxb_db_read().
 */
static inline void rxb_db_write(u32 *reg, u32 val)
{
	/* Release: pairs with the acquire in rxb_db_read(). */
	smp_store_release(reg, val);
}

/**
 * rxb_db_ring() - driver side: write a doorbell register of queue @qi and
 *	account it on the NIC's register path (interconnect bytes).
 * @m: the model instance.
 * @qi: the queue the register belongs to (a shared ring's first queue).
 * @reg: the register.
 * @val: new producer or consumer index.
 *
 * Every model rings every doorbell through here, so each pays the same.
 */
static inline void rxb_db_ring(const struct rxb_model *m, unsigned int qi,
			       u32 *reg, u32 val)
{
	rxb_db_write(reg, val);
	rxb_drv_reg_write(m, qi, sizeof(*reg));
}

/**
 * rxb_db_read() - NIC side: read a doorbell register.
 * @reg: the register.
 *
 * Acquire: pairs with the release in rxb_db_write(), so the descriptors
 * below the index read are the driver's latest writes.
 */
static inline u32 rxb_db_read(const u32 *reg)
{
	/* Acquire: pairs with the release in rxb_db_write(). */
	return smp_load_acquire(reg);
}

/**
 * rxb_rx_desc_post() - driver side: fill an Rx descriptor.
 * @d: descriptor.
 * @addr: buffer bus address.
 * @len: buffer length.
 *
 * Made visible to the NIC by the next rxb_db_write() of the ring's tail.
 */
static inline void rxb_rx_desc_post(struct rxb_rx_desc *d, u64 addr, u32 len)
{
	d->buf_addr = cpu_to_le64(addr);
	d->buf_len = cpu_to_le32(len);
	d->reserved = 0;
}

/**
 * struct rxb_cring - a completion ring (CR): entries the NIC writes and the
 * driver reads, in order, with the done-bit protocol of struct rxb_cqe.
 * @ent: the entries, in ring memory.
 * @db: the ring's consumer-index doorbell register (rxb_rxq_regs.cq_head
 *	or rxb_cq_regs.cq_head): written by the driver, read by the NIC.
 * @mask: ring size - 1.
 * @order: log2 of the ring size.
 *
 * Set up at create and read-only afterwards.  The two indices are not in
 * here: the NIC's tail (next entry it writes) lives with the queue's NIC
 * state and the driver's head (next entry it reads) with its driver state,
 * each on its side's cache line; the helpers take the one they need.
 */
struct rxb_cring {
	struct rxb_cqe *ent;
	u32 *db;
	u32 mask;
	unsigned int order;
};

/**
 * rxb_cring_init() - set up a completion ring whose entries are allocated.
 * @cr: the ring; @cr->ent zeroed ring memory of @size entries.
 * @size: entries, a power of two.
 * @db: its consumer-index register.
 */
static inline void rxb_cring_init(struct rxb_cring *cr, u32 size, u32 *db)
{
	cr->db = db;
	cr->mask = size - 1;
	cr->order = ilog2(size);
}

/**
 * rxb_cring_held() - NIC side: entries written that the driver has not
 * consumed yet.
 * @cr: the ring.
 * @tail: the NIC's tail index.
 *
 * Return: @tail less the consumer index in the doorbell (acquire).
 */
static inline u32 rxb_cring_held(const struct rxb_cring *cr, u32 tail)
{
	return tail - rxb_db_read(cr->db);
}

/**
 * rxb_cring_admit() - NIC side: may a frame go to the entry at the tail?
 * @cr: the ring; the caller holds the lock that serialises its writers.
 * @held: rxb_cring_held() of the NIC's tail.
 * @len: frame length.
 * @buf_len: length the driver posted with the buffer the NIC would use.
 *
 * Checks room (the entry at the tail is free: reserved for the caller
 * until it calls rxb_cring_deliver() or drops its lock), then that the
 * frame fits the buffer.
 *
 * Return: 0, -ENOSPC (ring full) or -EMSGSIZE (frame longer than buffer).
 */
static inline int rxb_cring_admit(const struct rxb_cring *cr, u32 held,
				  u32 len, __le32 buf_len)
{
	if (held > cr->mask)
		return -ENOSPC;
	if (len > le32_to_cpu(buf_len))
		return -EMSGSIZE;
	return 0;
}

/**
 * rxb_cring_ready() - driver side: has the NIC written the entry for this
 * pass?
 * @cr: the ring.
 * @idx: free-running index of the entry (the driver's head, or beyond).
 *
 * On true, the entry's fields and the packet data it points to may be read.
 *
 * Return: true if the entry is done.
 */
static inline bool rxb_cring_ready(const struct rxb_cring *cr, u32 idx)
{
	/* Acquire: pairs with the release in rxb_cring_deliver(). */
	u8 flags = smp_load_acquire(&cr->ent[idx & cr->mask].flags);

	return (flags & RXB_CQE_F_DONE) ==
	       (rxb_gen(idx, cr->order) ? RXB_CQE_F_DONE : 0);
}

/**
 * rxb_cring_pending() - driver side: is there an entry to read at the head?
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
 * rxb_cring_read() - driver side: decode an entry rxb_cring_ready() found.
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
	pkt->csum = le32_to_cpu(cqe->csum);
	pkt->flags = cqe->flags & ~RXB_CQE_F_DONE;
	pkt->offset = 0;
	pkt->frag = false;
	return le16_to_cpu(cqe->desc_idx) & cr->mask;
}

/**
 * rxb_cring_state() - driver side: a snapshot of a completion ring as the
 * driver sees it, for ring_state().
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
 * rxb_hw_debug_fill() - NIC side: a queue's debug registers (hw_debug()).
 * @dbg: filled.
 * @cq_tail: the NIC's tail of the queue's completion ring.
 * @head: the NIC's head of the ring that supplies the queue's buffers
 *	(struct rxb_hw_debug.taken).
 * @db: that ring's tail doorbell, written by the driver.
 *
 * Lockless: a snapshot, read from any context.
 */
static inline void rxb_hw_debug_fill(struct rxb_hw_debug *dbg,
				     const u32 *cq_tail, const u32 *head,
				     const u32 *db)
{
	dbg->cq_tail = READ_ONCE(*cq_tail);
	dbg->taken = READ_ONCE(*head);
	dbg->posted = READ_ONCE(*db) - dbg->taken;
}

/**
 * rxb_nic_drop() - NIC side: count a frame the NIC dropped, by cause.
 * @m: the model instance.
 * @qi: queue RSS chose; its hardware counters, under the serialisation of
 *	the NIC's writers for that queue.
 * @err: 0 (nothing counted), -ENOBUFS, -ENOSPC or -EMSGSIZE.
 *
 * Return: @err.
 */
static inline int rxb_nic_drop(struct rxb_model *m, unsigned int qi, int err)
{
	struct rxb_qstats *st = &m->qstats[qi];

	if (err == -ENOBUFS)
		rxb_stat_inc(&st->nobuf_drops);
	else if (err == -ENOSPC)
		rxb_stat_inc(&st->ring_full_drops);
	else if (err)
		rxb_stat_inc(&st->oversize_drops);
	return err;
}

/**
 * rxb_nic_finish() - NIC side: end a frame's delivery to queue @qi.
 * @m: the model instance.
 * @qi: queue RSS chose.
 * @lock: the pipeline stage the NIC held for the frame; released.
 * @err: 0, or the drop cause (see rxb_nic_drop()), counted before @lock is
 *	released.
 *
 * On success, raises @qi's vector after leaving the pipeline stage.
 *
 * Return: @err.
 */
static inline int rxb_nic_finish(struct rxb_model *m, unsigned int qi,
				 spinlock_t *lock, int err)
{
	rxb_nic_drop(m, qi, err);
	spin_unlock(lock);
	if (!err)
		rxb_hw_raise_irq(m, qi);
	return err;
}

/**
 * enum rxb_array_len - entries of an array of a per-queue structure.
 * @RXB_ARR_RING: the configuration's ring_size.
 * @RXB_ARR_RING_BITS: ring_size / BITS_PER_LONG (a bitmap by slot).
 * @RXB_ARR_AX: the configuration's ax_ring_size.
 */
enum rxb_array_len {
	RXB_ARR_RING,
	RXB_ARR_RING_BITS,
	RXB_ARR_AX,
};

/**
 * struct rxb_array - an array each element of a table points to.
 * @off: offset of the pointer in the table's element.
 * @size: bytes of one entry of the array.
 * @len: entries (enum rxb_array_len).
 */
struct rxb_array {
	size_t off;
	size_t size;
	enum rxb_array_len len;
};

/* An array of @n entries of @elem, pointed to by @type's member @field. */
#define RXB_ARRAY(type, field, elem, n)	{ offsetof(type, field), sizeof(elem), n }

#define RXB_LAYOUT_TABLES	4
#define RXB_LAYOUT_ARRAYS	5

/**
 * struct rxb_table - a table of per-queue (or per-shared-ring) structures.
 * @off: offset in the instance of the pointer to the table.
 * @size: bytes of one element.
 * @count: elements; NULL: one per queue.
 * @arrays: arrays each element points to, allocated zeroed.
 */
struct rxb_table {
	size_t off;
	size_t size;
	unsigned int (*count)(const struct rxb_model_cfg *cfg);
	struct rxb_array arrays[RXB_LAYOUT_ARRAYS];
};

/**
 * struct rxb_layout - the memory of a model instance, for
 * rxb_model_alloc() and rxb_model_free().
 * @size: bytes of the instance, whose struct rxb_model comes first.
 * @tables: its tables; unused ones have size 0.
 */
struct rxb_layout {
	size_t size;
	struct rxb_table tables[RXB_LAYOUT_TABLES];
};

/* The members of struct rxb_model_ops every model has: @model_name, and
 * functions named @pfx_create, @pfx_hw_rx, @pfx_poll and @pfx_refill.
 */
#define RXB_MODEL_OPS(model_name, pfx)					\
	.name = model_name, .create = pfx##_create,			\
	.hw_rx = pfx##_hw_rx, .poll = pfx##_poll, .refill = pfx##_refill

/* The members of a model whose queues each have one completion ring the
 * driver reads (or a view of one): @pfx_destroy, @pfx_rx_pending,
 * @pfx_ring_state and @pfx_hw_debug.
 */
#define RXB_QUEUE_OPS(pfx)						\
	.destroy = pfx##_destroy, .rx_pending = pfx##_rx_pending,	\
	.ring_state = pfx##_ring_state, .hw_debug = pfx##_hw_debug

/* The members of RXB_MODEL_OPS, RXB_QUEUE_OPS and RXB_XSTATS_OPS (below)
 * together.
 */
#define RXB_MODEL_XOPS(model_name, pfx)					\
	.name = model_name, .create = pfx##_create,			\
	.hw_rx = pfx##_hw_rx, .poll = pfx##_poll, .refill = pfx##_refill, \
	.destroy = pfx##_destroy, .rx_pending = pfx##_rx_pending,	\
	.ring_state = pfx##_ring_state, .hw_debug = pfx##_hw_debug,	\
	.xstats_count = pfx##_xstats_count,				\
	.xstats_names = pfx##_xstats_names,				\
	.xstats_values = pfx##_xstats_values

/* The layout of instance @inst whose one table is its queues (@qtype, one
 * per queue, at its member q), each pointing to the arrays given.
 */
#define RXB_QUEUE_LAYOUT(inst, qtype, ...)				\
	{ .size = sizeof(inst),						\
	  .tables = { { .off = offsetof(inst, q), .size = sizeof(qtype),	\
			.arrays = { __VA_ARGS__ } } } }

/* The xstats members of a model's ops: @pfx_xstats_count, _names, _values. */
#define RXB_XSTATS_OPS(pfx)						\
	.xstats_count = pfx##_xstats_count,				\
	.xstats_names = pfx##_xstats_names,				\
	.xstats_values = pfx##_xstats_values

struct rxb_model *rxb_model_alloc(const struct rxb_model_ops *ops,
				  const struct rxb_model_cfg *cfg,
				  const struct rxb_layout *lay);
void rxb_model_free(struct rxb_model *m, const struct rxb_layout *lay);
unsigned int rxb_table_len(const struct rxb_model *m,
			   const struct rxb_table *t);
u64 *rxb_stats_read(u64 *vals, const void *base, const u16 *off,
		    unsigned int n);
char *rxb_xstats_names_fill(char *names, const char *prefix, unsigned int n,
			    const char *const *tbl, unsigned int ntbl);
void rxb_cring_deliver(struct rxb_model *m, unsigned int qi,
		       const struct rxb_cring *cr, u32 *tail,
		       const struct rxb_frame *f, u64 buf_addr, u16 desc_idx,
		       u16 ring_id, u8 flags);
void rxb_cring_note(const struct rxb_cring *cr, u32 *tail, u16 desc_idx,
		    u8 flags);
void rxb_cring_consume(struct rxb_model *m, unsigned int qi,
		       const struct rxb_cring *cr, u32 *head, u32 n, u32 pkts,
		       u64 bytes);
bool rxb_ring_refill(struct rxb_model *m, unsigned int qi,
		     struct rxb_rx_desc *desc, void **cookie, u32 mask,
		     u32 *tail, u32 ci, u32 *doorbell);

/**
 * rxb_rxq_deliver() - NIC side: deliver a frame into the buffer at the
 * head of an Rx ring the NIC takes in order (privRing, COREC).
 * @m: the model instance.
 * @qi: queue whose counters count the frame.
 * @desc: the Rx ring's descriptors, as many as @cr has entries.
 * @regs: its registers: the driver's rx_tail doorbell.
 * @cr: the completion ring.
 * @head: the NIC's Rx head; advanced (WRITE_ONCE: hw_debug() reads it).
 * @tail: the NIC's CR tail; advanced.
 * @f: the frame.
 * @ring_id: the CR entry's ring number.
 *
 * Under the lock that serialises the ring's NIC writers.  Reads rx_tail
 * (acquire) before the CR's consumer index, which COREC relies on (see
 * corec_advance()).
 *
 * Return: 0, or the drop cause (not counted): -ENOBUFS (nothing posted),
 * -ENOSPC or -EMSGSIZE (rxb_cring_admit()).
 */
static inline int rxb_rxq_deliver(struct rxb_model *m, unsigned int qi,
				  const struct rxb_rx_desc *desc,
				  const struct rxb_rxq_regs *regs,
				  const struct rxb_cring *cr, u32 *head,
				  u32 *tail, const struct rxb_frame *f,
				  u16 ring_id)
{
	const struct rxb_rx_desc *d = &desc[*head & cr->mask];
	int err;

	if (rxb_db_read(&regs->rx_tail) == *head)
		return -ENOBUFS;
	err = rxb_cring_admit(cr, rxb_cring_held(cr, *tail), f->len,
			      d->buf_len);
	if (err)
		return err;
	WRITE_ONCE(*head, *head + 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*d));
	rxb_cring_deliver(m, qi, cr, tail, f, le64_to_cpu(d->buf_addr),
			  d - desc, ring_id, 0);
	return 0;
}

#endif /* _RXB_RING_H */
