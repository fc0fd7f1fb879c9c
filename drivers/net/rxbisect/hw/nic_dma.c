// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's DMA engine: copies a frame into a buffer the driver posted,
 * with the checksum unit and the I/O working set tracker on the way.
 *
 * Bus addresses are physical addresses: the emulated device sits behind
 * an identity IOMMU mapping onto the kernel's linear map, which is where
 * page_pool pages live.
 */
#include <linux/skbuff.h>
#include <net/checksum.h>
#include "nic_hw.h"

/**
 * struct rxb_dma_dst - where a transfer goes: segments filled in order.
 * @p: each segment's first byte.
 * @len: each segment's bytes; the last one's is never checked (the
 *	caller made sure the frame fits).
 * @n: segments: 1 (a linear buffer, NIC memory), 2 (a ring's wrap) or up
 *	to RXB_RX_SGE_MAX (a scatter buffer).
 */
struct rxb_dma_dst {
	u8 *p[RXB_RX_SGE_MAX];
	u32 len[RXB_RX_SGE_MAX];
	unsigned int n;
};

/* Where byte @o of a transfer goes. */
static u8 *rxb_dma_at(const struct rxb_dma_dst *d, u32 o)
{
	unsigned int i;

	for (i = 0; i + 1 < d->n && o >= d->len[i]; i++)
		o -= d->len[i];
	return d->p[i] + o;
}

/* Copy bytes [@from, @from + @len) of @skb to their place in @d; with
 * @sum, return their checksum.
 */
static __wsum rxb_dma_copy(const struct sk_buff *skb, u32 from, u32 len,
			   const struct rxb_dma_dst *d, bool sum)
{
	u32 base = 0, done = 0;
	unsigned int i;
	__wsum s = 0;

	for (i = 0; i < d->n && done < len; i++) {
		u32 end = i + 1 < d->n ? base + d->len[i] : U32_MAX;
		u32 at = from + done, n;
		u8 *p;

		if (at < end) {
			n = min(len - done, end - at);
			p = d->p[i] + (at - base);
			if (sum)
				s = csum_block_add(s,
						   skb_copy_and_csum_bits(skb,
									  at, p,
									  n),
						   done);
			else
				skb_copy_bits(skb, at, p, n);
			done += n;
		}
		base = end;
	}
	return s;
}

/* The DMA engine's copy of a frame into @d, with the checksum unit. */
static u8 rxb_nic_copy(struct rxb_nic *nic, const struct rxb_frame *f,
		       const struct rxb_dma_dst *d, u32 *csum)
{
	const struct sk_buff *skb = f->data;
	unsigned int start;
	__sum16 *field, old;
	__wsum l4;

	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		if (!READ_ONCE(nic->rx_csum)) {
			rxb_dma_copy(skb, 0, f->len, d, false);
			return 0;
		}
		rxb_dma_copy(skb, 0, ETH_HLEN, d, false);
		*csum = (__force u32)rxb_dma_copy(skb, ETH_HLEN,
						  f->len - ETH_HLEN, d, true);
		return RXB_CQE_F_CSUM;
	}
	/* rxb_xmit() checked csum_start and csum_offset against the frame. */
	start = skb_checksum_start_offset(skb);
	rxb_dma_copy(skb, 0, start, d, false);
	l4 = rxb_dma_copy(skb, start, f->len - start, d, true);
	/* At an even offset: never split (segments end at even offsets). */
	field = (__sum16 *)rxb_dma_at(d, start + skb->csum_offset);
	old = *field;
	*field = csum_fold(l4) ?: CSUM_MANGLED_0;
	if (!READ_ONCE(nic->rx_csum))
		return 0;
	/* The L4 sum with the checksum field as it now is on the wire. */
	l4 = csum_add(csum_sub(l4, csum_unfold(old)), csum_unfold(*field));
	*csum = (__force u32)csum_block_add(skb_checksum(skb, ETH_HLEN,
							 start - ETH_HLEN, 0),
					    l4, start - ETH_HLEN);
	return RXB_CQE_F_CSUM;
}

/* The DMA engine's transfer of a frame into host memory at @d, whose
 * first byte is bus address @addr: fault knob, working set tracker and
 * byte counters, then the copy (rxb_nic_copy()).
 */
static u8 rxb_nic_dma(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
		      u64 addr, const struct rxb_dma_dst *d, u32 *csum)
{
	const struct rxb_nic_frame *nf =
		container_of(f, const struct rxb_nic_frame, f);
	struct rxb_nic *nic = ctx->nic;

	if (rxb_fault_hit(&nic->dma_fail)) {
		atomic64_inc(&nic->dma_faults);
		return RXB_CQE_F_DMA_ERR;
	}
	rxb_nic_ws_write(ctx, addr, f->len);
	atomic64_add(f->len, &nic->dma_bytes[nf->q].v);
	return rxb_nic_copy(nic, f, d, csum);
}

/* A linear destination: @len bytes at @p. */
static void rxb_dma_dst_one(struct rxb_dma_dst *d, u8 *p, u32 len)
{
	d->p[0] = p;
	d->len[0] = len;
	d->n = 1;
}

/* A frame into a scatter buffer (rxb_desc.h, struct rxb_rx_sgl at @addr):
 * the NIC reads the list's first ctx->rx_sge entries (a descriptor read
 * on the interconnect, the same for every ring model), then writes the
 * frame across the segments it needs.  The working set tracker counts the
 * buffer once, by its first segment, as it counts any buffer: a unit of
 * RX Buf Len bytes (ethtool -g) in every layout.  A list that cannot hold
 * the frame is a DMA error.
 */
static u8 rxb_nic_dma_sgl(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
			  u64 addr, u32 *csum)
{
	const struct rxb_nic_frame *nf =
		container_of(f, const struct rxb_nic_frame, f);
	const struct rxb_rx_sgl *sgl = phys_to_virt(addr);
	struct rxb_nic *nic = ctx->nic;
	struct rxb_dma_dst d = { .n = 0 };
	u32 room = 0, i;
	u64 seg;

	atomic64_add(ctx->rx_sge * sizeof(sgl->sge[0]),
		     &nic->pcie[nf->q].to_nic_desc);
	for (i = 0; i < ctx->rx_sge && room < f->len; i++) {
		u32 len = le32_to_cpu(READ_ONCE(sgl->sge[i].len));

		if (!len)
			break;
		seg = le64_to_cpu(READ_ONCE(sgl->sge[i].addr));
		d.p[d.n] = phys_to_virt(seg);
		d.len[d.n++] = len;
		room += len;
	}
	if (room < f->len) {
		atomic64_inc(&nic->dma_faults);
		return RXB_CQE_F_DMA_ERR;
	}
	return rxb_nic_dma(ctx, f, le64_to_cpu(sgl->sge[0].addr), &d, csum);
}

/**
 * rxb_nic_dma_xfer() - the DMA engine's copy of a whole frame into the
 *	NIC's own memory (the header/data split), checksum unit included;
 *	no host memory, nothing counted.
 * @nic: the NIC.
 * @f: the frame.
 * @dst: where, f->len bytes.
 * @csum: as for rxb_nic_dma_write().
 *
 * Return: the completion flags the transfer adds.
 */
u8 rxb_nic_dma_xfer(struct rxb_nic *nic, const struct rxb_frame *f, u8 *dst,
		    u32 *csum)
{
	struct rxb_dma_dst d;

	rxb_dma_dst_one(&d, dst, f->len);
	return rxb_nic_copy(nic, f, &d, csum);
}

/**
 * rxb_nic_dma_host() - the DMA engine writes a whole frame to host bus
 *	address @addr (rxb_nic_dma_write() without the split).
 * @ctx: the receive context.
 * @f: the frame.
 * @addr: bus address of the buffer.
 * @csum: as for rxb_nic_dma_write().
 *
 * Return: the completion flags the transfer adds.
 */
u8 rxb_nic_dma_host(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
		    u64 addr, u32 *csum)
{
	struct rxb_dma_dst d;

	if (ctx->rx_sge > 1)
		return rxb_nic_dma_sgl(ctx, f, addr, csum);
	rxb_dma_dst_one(&d, phys_to_virt(addr), f->len);
	return rxb_nic_dma(ctx, f, addr, &d, csum);
}

/**
 * rxb_nic_dma_write() - rxb_hw_ops.dma_write: write a frame to @addr.
 * @hw: the receive context (struct rxb_nic_ctx).
 * @f: the frame (in a struct rxb_nic_frame).
 * @addr: bus address of the buffer (of its scatter list, in a context
 *	with scatter buffers: rxb_desc.h).
 * @csum: set to the checksum the unit computed, with RXB_CQE_F_CSUM.
 *
 * The frame crosses the emulated wire in this one copy, so the checksum
 * work of both ends is done in the same pass: the sender's Tx checksum
 * offload (CHECKSUM_PARTIAL: fill in the L4 checksum) and this NIC's Rx
 * checksum (the sum of everything after the Ethernet header).  A filled-in
 * checksum that folds to 0 goes out as 0xffff (CSUM_MANGLED_0), as
 * skb_checksum_help() and real NICs write it: in UDP a 0 would mean "no
 * checksum" (IPv4) or be invalid (IPv6); for TCP both forms are the same.
 *
 * Bytes are counted per queue, each counter in its own cache line: no line
 * is shared by the DMA writes of different queues.
 *
 * The dma_fail knob fails a write as a bus or IOMMU error would: nothing
 * is written and the completion carries the error bit.
 *
 * In header/data split mode (nic_hds.c) the write goes through the split:
 * headers to @addr, payload to the on-NIC memory tier.
 *
 * Return: the completion flags the transfer adds.
 */
u8 rxb_nic_dma_write(void *hw, const struct rxb_frame *f, u64 addr,
		     u32 *csum)
{
	struct rxb_nic_ctx *ctx = hw;

	rxb_nic_ctx_assert("dma_write");
	if (ctx->hds.on)
		return rxb_nic_hds_write(ctx, f, addr, csum);
	return rxb_nic_dma_host(ctx, f, addr, csum);
}

/**
 * rxb_nic_nicmem_write() - rxb_hw_ops.nicmem_write: the NIC stores a frame
 *	in its own memory tier (no host memory, no interconnect bytes).
 * @hw: the receive context.
 * @f: the frame.
 * @addr: NIC address of a piece of the context's tier.
 * @off: where in the piece; the piece holds @off + @f->len bytes.
 */
void rxb_nic_nicmem_write(void *hw, const struct rxb_frame *f, u64 addr,
			  u32 off)
{
	struct rxb_nic_ctx *ctx = hw;
	const struct sk_buff *skb = f->data;
	u8 *dst = (u8 *)rxb_nicmem_ptr(&ctx->mem, addr) + off;
	unsigned int start;
	__sum16 *field;

	skb_copy_bits(skb, 0, dst, f->len);
	/* The sender's Tx checksum offload is done on the wire, whatever
	 * memory the frame lands in (rxb_nic_dma()).
	 */
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		return;
	start = skb_checksum_start_offset(skb);
	field = (__sum16 *)(dst + start + skb->csum_offset);
	*field = csum_fold(csum_partial(dst + start, f->len - start, 0)) ?:
		 CSUM_MANGLED_0;
}

/**
 * rxb_nic_dma_write_ring() - rxb_hw_ring_ops.dma_write: write a frame into
 * a ring (an Ensō pipe), split at the ring's end.
 * @hw: the receive context (struct rxb_nic_ctx).
 * @f: the frame (in a struct rxb_nic_frame).
 * @addr: bus address of the ring, physically contiguous (struct
 *	rxb_drv_ring_ops).
 * @size: its bytes.
 * @off: where the frame starts in it.
 * @csum: as for rxb_nic_dma_write().
 *
 * Return: the completion flags the transfer adds.
 */
static u8 rxb_nic_dma_write_ring(void *hw, const struct rxb_frame *f,
				 u64 addr, u32 size, u32 off, u32 *csum)
{
	struct rxb_dma_dst d = {
		.p = { phys_to_virt(addr + off), phys_to_virt(addr) },
		.len = { size - off, off },
		.n = 2,
	};

	return rxb_nic_dma(hw, f, addr + off, &d, csum);
}

/**
 * rxb_nic_dma_put() - rxb_hw_ring_ops.dma_put: write bytes the NIC made up.
 * @hw: the receive context.
 * @src: the bytes (a header the NIC puts in front of a frame).
 * @len: their number.
 * @addr: bus address.
 */
static void rxb_nic_dma_put(void *hw, const void *src, u32 len, u64 addr)
{
	memcpy(phys_to_virt(addr), src, len);
}

/* rxb_hw_ops.ring: into the rings a driver maps twice (Ensō pipes). */
const struct rxb_hw_ring_ops rxb_nic_ring_ops = {
	.dma_write	= rxb_nic_dma_write_ring,
	.dma_put	= rxb_nic_dma_put,
};

/**
 * rxb_nic_set_dma_fail() - fault knob: fail this many DMA writes per mille.
 * @nic: the NIC.
 * @per_mille: 0 (none) to RXB_FAULT_SCALE (all).
 *
 * Return: 0, or -EINVAL for a rate above RXB_FAULT_SCALE.
 */
int rxb_nic_set_dma_fail(struct rxb_nic *nic, u32 per_mille)
{
	if (per_mille > RXB_FAULT_SCALE)
		return -EINVAL;
	WRITE_ONCE(nic->dma_fail, per_mille);
	return 0;
}

/**
 * rxb_nic_get_dma_fail() - fault knob: the DMA failure rate.
 * @nic: the NIC.
 *
 * Return: per mille.
 */
u32 rxb_nic_get_dma_fail(struct rxb_nic *nic)
{
	return READ_ONCE(nic->dma_fail);
}
