/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring primitives shared by the ring-model cores: the completion ring's
 * sense-reverse protocol and doorbell register accesses.  Every access to
 * memory or a register that both the NIC and the driver touch goes through
 * here, so each ordering pair is written down once.
 */
#ifndef _RXB_RING_H
#define _RXB_RING_H

#include <linux/types.h>
#include <linux/compiler.h>
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
 * rxb_cqe_write() - NIC side: write a completion entry and make it visible.
 * @cqe: entry at the NIC's CR tail.
 * @gen: rxb_gen() of the NIC's CR tail index.
 * @desc_idx: descriptor slot holding the packet.
 * @ring_id: Rx ring of @desc_idx.
 * @len: packet length.
 * @hash: RSS hash.
 * @csum: checksum of the frame.
 * @flags: RXB_CQE_F_*_HASH, RXB_CQE_F_CSUM and RXB_CQE_F_DMA_ERR.
 */
static inline void rxb_cqe_write(struct rxb_cqe *cqe, u8 gen, u16 desc_idx,
				 u16 ring_id, u16 len, u32 hash, u32 csum,
				 u8 flags)
{
	cqe->rss_hash = cpu_to_le32(hash);
	cqe->desc_idx = cpu_to_le16(desc_idx);
	cqe->pkt_len = cpu_to_le16(len);
	cqe->ring_id = cpu_to_le16(ring_id);
	cqe->csum = cpu_to_le32(csum);
	cqe->reserved = 0;
	/* Release: the packet data (dma_write) and the fields above are
	 * visible before the done bit.  Pairs with the acquire in
	 * rxb_cqe_ready().
	 */
	smp_store_release(&cqe->flags, (u8)(flags | (gen ? RXB_CQE_F_DONE : 0)));
}

/**
 * rxb_cqe_read() - driver side: decode a completion rxb_cqe_ready() found.
 * @cqe: the entry.
 * @pkt: filled with length, hash, checksum and flags, and as the only
 *	packet in its buffer; not the buffer.
 *
 * Return: the descriptor index the entry names.
 */
static inline u16 rxb_cqe_read(const struct rxb_cqe *cqe, struct rxb_pkt *pkt)
{
	pkt->len = le16_to_cpu(cqe->pkt_len);
	pkt->hash = le32_to_cpu(cqe->rss_hash);
	pkt->csum = le32_to_cpu(cqe->csum);
	pkt->flags = cqe->flags & ~RXB_CQE_F_DONE;
	pkt->offset = 0;
	pkt->borrowed = false;
	return le16_to_cpu(cqe->desc_idx);
}

/**
 * rxb_cqe_ready() - driver side: has the NIC written the entry for this pass?
 * @cqe: entry at the driver's CR head.
 * @gen: rxb_gen() of the driver's CR head index.
 *
 * On true, the entry's fields and the packet data it points to may be read.
 */
static inline bool rxb_cqe_ready(const struct rxb_cqe *cqe, u8 gen)
{
	/* Acquire: pairs with the release in rxb_cqe_write(). */
	u8 flags = smp_load_acquire(&cqe->flags);

	return (flags & RXB_CQE_F_DONE) == (gen ? RXB_CQE_F_DONE : 0);
}

/**
 * rxb_mcqe_write() - NIC side: write a batched RxList completion entry.
 * @cqe: entry at the NIC's CR tail.
 * @gen: rxb_gen() of the NIC's CR tail index.
 * @desc_idx: descriptor slot whose buffer holds the packet.
 * @off: the packet's offset in that buffer.
 * @len: packet length.
 * @hash: RSS hash.
 * @csum: checksum of the frame.
 * @flags: RXB_MCQE_F_CLOSE, RXB_CQE_F_*_HASH, RXB_CQE_F_CSUM and
 *	RXB_CQE_F_DMA_ERR.
 */
static inline void rxb_mcqe_write(struct rxb_mcqe *cqe, u8 gen, u16 desc_idx,
				  u16 off, u16 len, u32 hash, u32 csum,
				  u8 flags)
{
	cqe->rss_hash = cpu_to_le32(hash);
	cqe->desc_idx = cpu_to_le16(desc_idx);
	cqe->pkt_len = cpu_to_le16(len);
	cqe->buf_off = cpu_to_le16(off);
	cqe->csum = cpu_to_le32(csum);
	cqe->reserved = 0;
	/* Release: as in rxb_cqe_write().  Pairs with the acquire in
	 * rxb_mcqe_ready().
	 */
	smp_store_release(&cqe->flags, (u8)(flags | (gen ? RXB_CQE_F_DONE : 0)));
}

/**
 * rxb_mcqe_ready() - driver side: rxb_cqe_ready() for a struct rxb_mcqe.
 * @cqe: entry at the driver's CR head.
 * @gen: rxb_gen() of the driver's CR head index.
 *
 * Return: true if the NIC wrote the entry in this pass.
 */
static inline bool rxb_mcqe_ready(const struct rxb_mcqe *cqe, u8 gen)
{
	/* Acquire: pairs with the release in rxb_mcqe_write(). */
	u8 flags = smp_load_acquire(&cqe->flags);

	return (flags & RXB_CQE_F_DONE) == (gen ? RXB_CQE_F_DONE : 0);
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

void rxb_cq_deliver(struct rxb_model *m, unsigned int qi,
		    const struct rxb_frame *f, u64 buf_addr, struct rxb_cqe *cq,
		    u32 mask, unsigned int order, u32 *cq_tail, u16 desc_idx,
		    u16 ring_id);
bool rxb_ring_refill(struct rxb_model *m, unsigned int qi,
		     struct rxb_rx_desc *desc, void **cookie, u32 mask,
		     u32 *tail, u32 ci, u32 *doorbell);

#endif /* _RXB_RING_H */
