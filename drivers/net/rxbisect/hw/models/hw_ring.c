// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's side of the ring primitives every hardware half shares
 * (hw_ring.h).  Builds in the kernel and, through tools/testing/rxbisect's
 * shim headers, in userspace.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "hw_ring.h"

/* The hardware half's head has nothing of its own. */
#define rxb_hw_model_head_init(m)	0
#define rxb_hw_model_head_fini(m)	do { } while (0)

/* rxb_hw_model_create() and rxb_hw_model_destroy(), documented in
 * rxb_hw_model.h.
 */
RXB_DEFINE_INSTANCE(rxb_hw_model_create, rxb_hw_model_destroy,
		    struct rxb_hw_model, struct rxb_hw_model_ops,
		    struct rxb_hw_ops, hw, rxb_hw_model_head_init,
		    rxb_hw_model_head_fini)

/**
 * rxb_hw_cring_deliver() - DMA a frame into a buffer and report it in a
 *	completion ring (privRing, shRing, batched RxList, COREC, CEIO).
 * @m: the model instance.
 * @qi: queue whose statistics registers count the frame.
 * @cr: the completion ring.
 * @tail: the NIC's tail index; advanced.  The caller holds the lock that
 *	serialises writers of @cr and rxb_hw_cring_admit() accepted the
 *	frame.
 * @f: the frame.
 * @buf_addr: bus address the frame goes to.
 * @desc_idx: descriptor slot the buffer came from.
 * @ring_id: Rx ring of @desc_idx, or (batched RxList) the frame's offset
 *	in that descriptor's buffer.
 * @flags: RXB_MCQE_F_CLOSE or 0; the frame's hash flags and the DMA's
 *	flags are added.
 */
void rxb_hw_cring_deliver(struct rxb_hw_model *m, unsigned int qi,
			  const struct rxb_hw_cring *cr, u32 *tail,
			  const struct rxb_frame *f, u64 buf_addr, u16 desc_idx,
			  u16 ring_id, u8 flags)
{
	struct rxb_cqe *cqe = &cr->ent[*tail & cr->mask];
	struct rxb_hw_qstats *st = rxb_hw_qstats(m, qi);
	u32 csum = 0;

	/* A failed write is still reported: the driver gets its buffer. */
	flags |= f->hash_flags;
	flags |= rxb_hw_dma_write(m, f, buf_addr, &csum);
	cqe->rss_hash = cpu_to_le32(f->hash);
	cqe->csum = cpu_to_le32(csum);
	cqe->pkt_len = cpu_to_le16(f->len);
	cqe->ring_id = cpu_to_le16(ring_id);
	rxb_hw_tstamp_put(m, qi, cr->ts, *tail & cr->mask, f->ts);
	rxb_hw_cring_note(cr, tail, desc_idx, flags);
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*cqe));
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
}

/**
 * rxb_hw_cring_note() - publish the entry at the tail.
 * @cr: the completion ring.
 * @tail: the NIC's tail index; advanced.  Under the lock that serialises
 *	writers of @cr, which has room (rxb_hw_cring_admit()).
 * @desc_idx: descriptor slot the entry names.
 * @flags: its flags, less the done bit.
 *
 * Called by rxb_hw_cring_deliver() once it wrote the packet's fields, or
 * alone for an entry without a packet (its packet fields are zeroed here
 * only then: batched RxList's RXB_MCQE_F_NOPKT).
 */
void rxb_hw_cring_note(const struct rxb_hw_cring *cr, u32 *tail, u16 desc_idx,
		       u8 flags)
{
	struct rxb_cqe *cqe = &cr->ent[*tail & cr->mask];

	if (flags & RXB_MCQE_F_NOPKT) {
		cqe->rss_hash = 0;
		cqe->csum = 0;
		cqe->pkt_len = 0;
		cqe->buf_off = 0;
	}
	cqe->desc_idx = cpu_to_le16(desc_idx);
	cqe->reserved = 0;
	if (rxb_gen(*tail, cr->order))
		flags |= RXB_CQE_F_DONE;
	/* Release: the packet data (dma_write) and the fields above are
	 * visible before the done bit.  Pairs with the acquire in
	 * rxb_cring_ready() (driver side).
	 */
	smp_store_release(&cqe->flags, flags);
	/* WRITE_ONCE: a debug register, the driver reads it from anywhere. */
	WRITE_ONCE(*tail, *tail + 1);
}

/**
 * rxb_hw_doorbells() - the NIC's doorbell service: act on the register
 *	writes the driver posted since the NIC last looked.
 * @m: the context's hardware half (its view's page 0 is the context's).
 * @core: optional: the NIC's own components' service of a page (the
 *	header/data split's command rings), before the model's.
 * @arg: its argument.
 *
 * In the NIC's context: the receive engine (before a frame), the engine
 * thread, or the kick's bottom half (the kernel; the environment's NIC
 * threads in userspace).  May run on several CPUs at once: each marked
 * page is taken by one of them, and the model's doorbell op sees it.
 */
void rxb_hw_doorbells(struct rxb_hw_model *m,
		      void (*core)(void *arg, u32 page), void *arg)
{
	struct rxb_bar_global *g = (struct rxb_bar_global *)m->bar.base;
	unsigned int w, nw = BITS_TO_LONGS(m->bar.npages);

	if (!READ_ONCE(g->pending))
		return;
	WRITE_ONCE(g->pending, 0);
	/* @pending cleared before the marks are taken.  Pairs with the
	 * barrier after the driver's mark in rxb_reg_decode(): a mark we
	 * miss here is followed by the driver seeing @pending clear, and
	 * waking the NIC again.
	 */
	smp_mb();
	for (w = 0; w < nw; w++) {
		unsigned long bits;

		if (!READ_ONCE(g->written[w]))
			continue;
		/* Fully ordered: the registers are read after the marks. */
		bits = xchg(&g->written[w], 0);
		while (bits) {
			unsigned int b = __ffs(bits);

			bits &= bits - 1;
			if (core)
				core(arg, w * BITS_PER_LONG + b);
			rxb_hwm_doorbell(m, w * BITS_PER_LONG + b);
		}
	}
}
