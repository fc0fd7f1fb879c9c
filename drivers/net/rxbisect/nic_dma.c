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
 * rxb_nic_dma_write() - rxb_hw_ops.dma_write: write a frame to @addr.
 * @hw: the receive context (struct rxb_nic_ctx).
 * @f: the frame (in a struct rxb_nic_frame).
 * @addr: bus address of the buffer.
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
 * Return: the completion flags the transfer adds.
 */
u8 rxb_nic_dma_write(void *hw, const struct rxb_frame *f, u64 addr,
		     u32 *csum)
{
	const struct rxb_nic_frame *nf =
		container_of(f, const struct rxb_nic_frame, f);
	const struct sk_buff *skb = f->data;
	struct rxb_nic_ctx *ctx = hw;
	struct rxb_nic *nic = ctx->nic;
	u8 *dst = phys_to_virt(addr);
	unsigned int start;
	__sum16 *field, old;
	__wsum l4;

	if (rxb_fault_hit(&nic->dma_fail)) {
		atomic64_inc(&nic->dma_faults);
		return RXB_CQE_F_DMA_ERR;
	}
	rxb_wss_record(&ctx->wss, (addr >> PAGE_SHIFT) + 1);
	atomic64_add(f->len, &nic->dma_bytes[nf->q].v);

	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		if (!READ_ONCE(nic->rx_csum)) {
			skb_copy_bits(skb, 0, dst, f->len);
			return 0;
		}
		skb_copy_bits(skb, 0, dst, ETH_HLEN);
		*csum = (__force u32)skb_copy_and_csum_bits(skb, ETH_HLEN,
							    dst + ETH_HLEN,
							    f->len - ETH_HLEN);
		return RXB_CQE_F_CSUM;
	}
	/* rxb_xmit() checked csum_start and csum_offset against the frame. */
	start = skb_checksum_start_offset(skb);
	skb_copy_bits(skb, 0, dst, start);
	l4 = skb_copy_and_csum_bits(skb, start, dst + start, f->len - start);
	field = (__sum16 *)(dst + start + skb->csum_offset);
	old = *field;
	*field = csum_fold(l4) ?: CSUM_MANGLED_0;
	if (!READ_ONCE(nic->rx_csum))
		return 0;
	/* The L4 sum with the checksum field as it now is on the wire. */
	l4 = csum_add(csum_sub(l4, csum_unfold(old)), csum_unfold(*field));
	*csum = (__force u32)csum_block_add(csum_partial(dst + ETH_HLEN,
							 start - ETH_HLEN, 0),
					    l4, start - ETH_HLEN);
	return RXB_CQE_F_CSUM;
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

	skb_copy_bits(f->data, 0, (u8 *)rxb_nicmem_ptr(&ctx->mem, addr) + off,
		      f->len);
}

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
