/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NIC's side of the ring primitives every hardware half shares: the
 * completion ring it writes (struct rxb_hw_cring) with the sense-reverse
 * protocol, its reads of the driver's registers, drop accounting, and the
 * create/destroy skeleton.  The driver's side of the same protocol is in
 * drivers/net/rxbisect/drv/models/drv_ring.h; each ordering pair names
 * the other side's function.
 */
#ifndef _RXB_HW_RING_H
#define _RXB_HW_RING_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_layout.h>

/**
 * rxb_db_read() - NIC side: read a register the driver writes.
 * @reg: the register.
 *
 * Acquire: pairs with the release in rxb_reg_write() (driver side), so the
 * ring memory below the index read is the driver's latest write.
 *
 * Return: the value.
 */
static inline u32 rxb_db_read(const u32 *reg)
{
	/* Acquire: pairs with the release in rxb_reg_write(). */
	return smp_load_acquire(reg);
}

/**
 * struct rxb_hw_cring - the NIC's view of a completion ring (CR): entries
 * it writes in order with the done-bit protocol of struct rxb_cqe.
 * @ent: the entries, in ring memory (mapped from the CR's base register).
 * @db: the ring's consumer-index register (cq_head), written by the
 *	driver.
 * @mask: ring size - 1.
 * @order: log2 of the ring size.
 * @ts: the stamp ring behind the entries (rxb_desc.h, RXB_TSTAMP), with
 *	receive stamps (rxb_model_cfg.rx_tstamp); else NULL.
 *
 * The NIC's tail index lives in the queue's debug registers (struct
 * rxb_qdebug_regs.cq_tail), which the helpers take.
 */
struct rxb_hw_cring {
	struct rxb_cqe *ent;
	const u32 *db;
	u32 mask;
	unsigned int order;
	__le64 *ts;
};

/**
 * rxb_hw_cring_map() - map a completion ring from its base register.
 * @m: the model instance.
 * @cr: set up.
 * @base: the CR's base register.
 * @size: entries, a power of two.
 * @db: its consumer-index register.
 *
 * Return: 0, or -EINVAL when the register maps nothing.
 */
static inline int rxb_hw_cring_map(const struct rxb_hw_model *m,
				   struct rxb_hw_cring *cr,
				   const struct rxb_base_reg *base, u32 size,
				   const u32 *db)
{
	bool ts = m->cfg.rx_tstamp;

	cr->ent = rxb_hw_dma_map(m, base, (size_t)size * sizeof(*cr->ent) +
				 rxb_tstamp_ring_bytes(size, ts));
	cr->ts = ts && cr->ent ? (__le64 *)(cr->ent + size) : NULL;
	cr->db = db;
	cr->mask = size - 1;
	cr->order = ilog2(size);
	return cr->ent ? 0 : -EINVAL;
}

/**
 * rxb_hw_rxq_map() - map a queue's Rx ring and completion ring, of the
 *	context's ring size, from their base registers (struct rxb_rxq_regs:
 *	privRing's queues, COREC's shared rings, CEIO's fast path).
 * @m: the model instance.
 * @regs: the registers.
 * @cr: the completion ring; set up.
 *
 * Return: the Rx ring, or NULL when a register maps nothing.
 */
static inline const struct rxb_rx_desc *
rxb_hw_rxq_map(const struct rxb_hw_model *m, const struct rxb_rxq_regs *regs,
	       struct rxb_hw_cring *cr)
{
	u32 size = m->cfg.ring_size;
	const struct rxb_rx_desc *desc;

	desc = rxb_hw_dma_map(m, &regs->rx_base, (size_t)size * sizeof(*desc));
	if (!desc || rxb_hw_cring_map(m, cr, &regs->cq_base, size,
				      &regs->cq_head))
		return NULL;
	return desc;
}

/**
 * rxb_hw_cring_held() - entries written that the driver has not consumed.
 * @cr: the ring.
 * @tail: the NIC's tail index.
 *
 * Return: @tail less the consumer index in the register (acquire).
 */
static inline u32 rxb_hw_cring_held(const struct rxb_hw_cring *cr, u32 tail)
{
	return tail - rxb_db_read(cr->db);
}

/**
 * rxb_hw_cring_admit() - may a frame go to the entry at the tail?
 * @cr: the ring; the caller holds the lock that serialises its writers.
 * @held: rxb_hw_cring_held() of the NIC's tail.
 * @len: frame length.
 * @buf_len: length the driver posted with the buffer the NIC would use.
 *
 * Checks room (the entry at the tail is free: reserved for the caller
 * until it calls rxb_hw_cring_deliver() or drops its lock), then that the
 * frame fits the buffer.
 *
 * Return: 0, -ENOSPC (ring full) or -EMSGSIZE (frame longer than buffer).
 */
static inline int rxb_hw_cring_admit(const struct rxb_hw_cring *cr, u32 held,
				     u32 len, __le32 buf_len)
{
	if (held > cr->mask)
		return -ENOSPC;
	if (len > le32_to_cpu(buf_len))
		return -EMSGSIZE;
	return 0;
}

/**
 * rxb_nic_drop() - count a frame the NIC dropped, by cause.
 * @m: the model instance.
 * @qi: queue RSS chose; its statistics registers, under the
 *	serialisation of the NIC's writers for that queue.
 * @err: 0 (nothing counted), -ENOBUFS, -ENOSPC or -EMSGSIZE.
 *
 * Return: @err.
 */
static inline int rxb_nic_drop(struct rxb_hw_model *m, unsigned int qi,
			       int err)
{
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, qi);

	if (err == -ENOBUFS)
		rxb_stat_inc(&st->nobuf_drops);
	else if (err == -ENOSPC)
		rxb_stat_inc(&st->ring_full_drops);
	else if (err)
		rxb_stat_inc(&st->oversize_drops);
	return err;
}

/**
 * rxb_nic_finish_irq() - end a frame's delivery to queue @qi.
 * @m: the model instance.
 * @qi: queue RSS chose.
 * @lock: the pipeline stage the NIC held for the frame; released.
 * @err: 0, or the drop cause (see rxb_nic_drop()), counted before @lock is
 *	released.
 * @irq: raise @qi's vector, after leaving the pipeline stage.
 *
 * Return: @err.
 */
static inline int rxb_nic_finish_irq(struct rxb_hw_model *m, unsigned int qi,
				     spinlock_t *lock, int err, bool irq)
{
	rxb_nic_drop(m, qi, err);
	spin_unlock(lock);
	if (irq)
		rxb_hw_raise_irq(m, qi);
	return err;
}

/**
 * rxb_nic_finish() - end a frame's delivery to queue @qi, raising its
 *	vector on success (rxb_nic_finish_irq()).
 * @m: the model instance.
 * @qi: queue RSS chose.
 * @lock: the pipeline stage the NIC held for the frame; released.
 * @err: 0, or the drop cause (see rxb_nic_drop()).
 *
 * Return: @err.
 */
static inline int rxb_nic_finish(struct rxb_hw_model *m, unsigned int qi,
				 spinlock_t *lock, int err)
{
	return rxb_nic_finish_irq(m, qi, lock, err, !err);
}

/* The members of a hardware half's ops every model has: @model_name, the
 * layout @pfx_hw_layout, and functions named @pfx_init, @pfx_start and
 * @pfx_rx.  A model that holds more than its layout names its fini op.
 */
#define RXB_HW_MODEL_OPS(model_name, pfx)				\
	.name = model_name, .layout = &pfx##_hw_layout,			\
	.init = pfx##_init, .start = pfx##_start, .rx = pfx##_rx

/* The members of a model that keeps per-flow state and takes commands by
 * doorbell (Ensō, CEIO): @pfx_fini, @pfx_doorbell and @pfx_flow_free.
 */
#define RXB_HW_FLOW_OPS(pfx)						\
	.fini = pfx##_fini, .doorbell = pfx##_doorbell,			\
	.flow_free = pfx##_flow_free

void rxb_hw_doorbells(struct rxb_hw_model *m,
		      void (*core)(void *arg, u32 page), void *arg);
void rxb_hw_cring_deliver(struct rxb_hw_model *m, unsigned int qi,
			  const struct rxb_hw_cring *cr, u32 *tail,
			  const struct rxb_frame *f, u64 buf_addr, u16 desc_idx,
			  u16 ring_id, u8 flags);
void rxb_hw_cring_note(const struct rxb_hw_cring *cr, u32 *tail, u16 desc_idx,
		       u8 flags);

/**
 * rxb_rxq_deliver() - deliver a frame into the buffer at the head of an Rx
 *	ring the NIC takes in order (privRing, COREC, CEIO's fast path).
 * @m: the model instance.
 * @qi: queue whose counters count the frame.
 * @desc: the Rx ring's descriptors, as many as @cr has entries.
 * @rx_tail: the driver's producer register of the Rx ring.
 * @cr: the completion ring.
 * @head: the NIC's Rx head (a debug register); advanced.
 * @tail: the NIC's CR tail (a debug register); advanced.
 * @f: the frame.
 * @ring_id: the CR entry's ring number.
 *
 * Under the lock that serialises the ring's NIC writers.  Reads rx_tail
 * (acquire) before the CR's consumer index, which COREC relies on.
 *
 * Return: 0, or the drop cause (not counted): -ENOBUFS (nothing posted),
 * -ENOSPC or -EMSGSIZE (rxb_hw_cring_admit()).
 */
static inline int rxb_rxq_deliver(struct rxb_hw_model *m, unsigned int qi,
				  const struct rxb_rx_desc *desc,
				  const u32 *rx_tail,
				  const struct rxb_hw_cring *cr, u32 *head,
				  u32 *tail, const struct rxb_frame *f,
				  u16 ring_id)
{
	const struct rxb_rx_desc *d = &desc[*head & cr->mask];
	int err;

	if (rxb_db_read(rx_tail) == *head)
		return -ENOBUFS;
	err = rxb_hw_cring_admit(cr, rxb_hw_cring_held(cr, *tail), f->len,
				 d->buf_len);
	if (err)
		return err;
	WRITE_ONCE(*head, *head + 1);
	rxb_hw_pcie(m, qi, RXB_PCIE_DESC_RD, sizeof(*d));
	rxb_hw_cring_deliver(m, qi, cr, tail, f, le64_to_cpu(d->buf_addr),
			     d - desc, ring_id, 0);
	return 0;
}

#endif /* _RXB_HW_RING_H */
