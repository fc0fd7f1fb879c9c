// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect driver: the receive side of the NIC's header/data split into
 * its memory (nicmem, thesis chapter 2; Documentation/rxbisect-nicmem.rst).
 *
 * A completion with RXB_CQE_F_SPLIT names a buffer that holds only the
 * frame's headers; the split record the NIC wrote in front of it (struct
 * rxb_hds_rec) names the payload in NIC memory.  The driver reaches the
 * payload only through the queue's nicmem command ring (struct
 * rxb_nmc_desc, rxb_nic_nmc_doorbell()), one path for every ring model:
 *
 *  - to the stack: FETCH the payload into the buffer right behind the
 *    headers (the host bytes the NIC writes are counted), then the packet
 *    goes the usual way, whole;
 *  - an XDP program that takes multi-buffer frames sees the headers in
 *    the buffer and the payload as one fragment mapped from NIC memory
 *    (rxb_nic_hds_bar(), the BAR), so that XDP_TX sends the possibly
 *    rewritten headers from the host and the payload from NIC memory (a
 *    TX command, no host copy of the payload); XDP_REDIRECT leaves the
 *    payload in NIC memory too, lent to the redirected frame (below);
 *    XDP_PASS fetches it first (the stack needs it in host memory),
 *    XDP_DROP releases it;
 *  - a program without multi-buffer support gets the packet whole,
 *    fetched first, as it would without the split.
 *
 * The fragment runs under an xdp_rxq_info whose memory model is
 * MEM_TYPE_PAGE_ORDER0, with a page reference of the driver's own: a
 * program that shrinks the payload away (bpf_xdp_adjust_tail()) drops
 * that reference only, never the NIC's page nor a page_pool page.
 *
 * A redirected frame has one memory model for all its buffers: its
 * headers move into a small buffer of their own (MEM_TYPE_PAGE_SHARED, the
 * packet's page back to its pool at once) and its fragment stays the BAR
 * mapping, with a page reference of the frame's.  Whoever reads the frame
 * reads the payload in NIC memory: a port's Tx engine (peer-to-peer DMA on
 * hardware) or the CPU through the BAR; the emulation cannot count those
 * reads.  The payload is lent until the frame is freed: nicmem's prototype
 * learnt that from its device pages' free callback (dev_pagemap_ops), the
 * emulation from the page's reference count, which falls back to the
 * NIC's own one (rxb_hds_reclaim()); then the driver FREEs it.  Payloads
 * are reclaimed in the order they were lent, from the queue's NAPI poll,
 * which a timer reschedules while any is out.  Up to 6.2 devmap refuses
 * multi-buffer frames: there XDP_REDIRECT fetches the payload first, as it
 * does when RXB_HDS_LENT payloads are already out.
 */
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/bpf_trace.h>
#include <net/xdp.h>
#include "rxbisect.h"

#define RXB_HDS_NMC_ENTRIES	64	/* command ring entries per queue */
#define RXB_HDS_LENT		256	/* payloads lent to frames, per queue */

/**
 * struct rxb_hds_lent - a payload lent to a redirected frame.
 * @page: its BAR mapping, whose reference the frame holds.
 * @handle: the payload.
 */
struct rxb_hds_lent {
	struct page *page;
	u32 handle;
};

/**
 * struct rxb_hds_rxq - a queue's side of the split.
 * @ring: its nicmem command ring (host memory the NIC reads).
 * @tail: commands written (free-running).
 * @lent_head: the oldest payload still lent (free-running).
 * @lent_tail: payloads lent (free-running).
 * @xrxq_bar: @rxq's XDP receive info with the memory model of a payload
 *	mapped from NIC memory (MEM_TYPE_PAGE_ORDER0).
 * @xrxq_lend: its XDP receive info for a redirected frame whose payload
 *	stays in NIC memory (MEM_TYPE_PAGE_SHARED).
 * @lent: the payloads lent, in order.
 */
struct rxb_hds_rxq {
	struct rxb_nmc_desc *ring;
	u32 tail;
	u32 lent_head;
	u32 lent_tail;
	struct xdp_rxq_info xrxq_bar;
	struct xdp_rxq_info xrxq_lend;
	struct rxb_hds_lent lent[RXB_HDS_LENT];
};

/**
 * rxb_hds_rxq_init() - give queue @rxq its command ring.
 * @rxq: a queue of a configuration whose NIC context splits, its XDP
 *	receive info registered.
 *
 * Return: 0 or a negative error.
 */
int rxb_hds_rxq_init(struct rxb_rxq *rxq)
{
	struct rxb_hds_rxq *h = kzalloc(sizeof(*h), GFP_KERNEL);
	int err;

	if (!h)
		return -ENOMEM;
	h->ring = kcalloc(RXB_HDS_NMC_ENTRIES, sizeof(*h->ring), GFP_KERNEL);
	if (!h->ring) {
		kfree(h);
		return -ENOMEM;
	}
	err = rxb_nic_nmc_setup(rxq->rx->ctx, rxq->qid, virt_to_phys(h->ring),
				RXB_HDS_NMC_ENTRIES);
	if (err) {
		kfree(h->ring);
		kfree(h);
		return err;
	}
	h->xrxq_bar = rxq->xdp_rxq;
	h->xrxq_bar.mem.type = MEM_TYPE_PAGE_ORDER0;
	h->xrxq_bar.mem.id = 0;
	h->xrxq_lend = h->xrxq_bar;
	h->xrxq_lend.mem.type = MEM_TYPE_PAGE_SHARED;
	rxq->hds = h;
	return 0;
}

/**
 * rxb_hds_rxq_fini() - free what rxb_hds_rxq_init() allocated, if it did.
 * @rxq: the queue; its NIC context is freed (no command runs), which
 *	reclaimed the payloads still lent (their frames keep their pages).
 */
void rxb_hds_rxq_fini(struct rxb_rxq *rxq)
{
	if (!rxq->hds)
		return;
	kfree(rxq->hds->ring);
	kfree(rxq->hds);
	rxq->hds = NULL;
}

/* Write one command and the ring's tail register; the NIC executes it
 * within the write.  Return the flags it wrote back (RXB_NMC_F_*).
 */
static u8 rxb_hds_cmd(struct rxb_rxq *rxq, u8 op, u8 flags, u32 handle,
		      u32 len, u64 addr, u32 hdr_len, struct sk_buff_head *wire)
{
	struct rxb_hds_rxq *h = rxq->hds;
	struct rxb_nmc_desc *d = &h->ring[h->tail & (RXB_HDS_NMC_ENTRIES - 1)];

	memset(d, 0, sizeof(*d));
	d->op = op;
	d->flags = flags;
	d->len = cpu_to_le16(len);
	d->handle = cpu_to_le32(handle);
	d->buf_addr = cpu_to_le64(addr);
	d->hdr_len = cpu_to_le16(hdr_len);
	h->tail++;
	/* The entry before the tail register (an MMIO write on hardware). */
	smp_wmb();
	rxb_nic_nmc_doorbell(rxq->rx->ctx, rxq->qid, h->tail, wire);
	/* Acquire: pairs with the NIC's release of the done mark. */
	return smp_load_acquire(&d->flags);
}

/* Fetch @len payload bytes of @handle to host bus address @addr and
 * release the payload.  False when the NIC refused (nothing copied).
 */
static bool rxb_hds_fetch(struct rxb_rxq *rxq, u32 handle, u32 len, u64 addr)
{
	return !(rxb_hds_cmd(rxq, RXB_NMC_FETCH, RXB_NMC_F_RELEASE, handle, len,
			     addr, 0, NULL) & RXB_NMC_F_ERR);
}

static void rxb_hds_free(struct rxb_rxq *rxq, u32 handle)
{
	rxb_hds_cmd(rxq, RXB_NMC_FREE, 0, handle, 0, 0, 0, NULL);
}

/**
 * rxb_hds_reclaim() - FREE the payloads lent to redirected frames that
 *	have been freed, oldest first.
 * @rxq: a queue of the split, in its NAPI poll.
 *
 * Return: true while payloads are still lent (poll again later).
 */
bool rxb_hds_reclaim(struct rxb_rxq *rxq)
{
	struct rxb_hds_rxq *h = rxq->hds;

	for (; h->lent_head != h->lent_tail; h->lent_head++) {
		struct rxb_hds_lent *l = &h->lent[h->lent_head % RXB_HDS_LENT];

		/* Only the NIC's reference left: the frame's went when it
		 * was freed.
		 */
		if (page_ref_count(l->page) > 1)
			break;
		/* Pairs with the fully ordered put_page() of the frame's
		 * last user: its reads of the payload come before the FREE.
		 */
		smp_acquire__after_ctrl_dep();
		rxb_hds_free(rxq, l->handle);
	}
	return h->lent_head != h->lent_tail;
}

/* XDP_REDIRECT with the payload left in NIC memory: the headers (and the
 * program's metadata) of @xdp into a buffer of their own, the payload
 * @handle, mapped at @bar, lent to the frame (see the top of this file).
 * Return 1 when redirected, -1 when the redirect failed (the frame is
 * freed, the payload still held), 0 when not tried: the caller fetches.
 */
static int rxb_hds_lend(struct rxb_rxq *rxq, struct xdp_buff *xdp,
			struct bpf_prog *prog, u32 handle, struct page *bar)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	u32 meta = xdp->data_meta < xdp->data ? xdp->data - xdp->data_meta : 0;
	u32 len = xdp->data_end - xdp->data + meta, sz;
	struct rxb_hds_rxq *h = rxq->hds;
	struct skb_shared_info *fsinfo;
	struct xdp_buff frame;
	void *buf;

	sz = SKB_DATA_ALIGN(XDP_PACKET_HEADROOM + len) +
	     SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	if (!RXB_XDP_REDIRECT_FRAGS || sz > PAGE_SIZE)
		return 0;
	if (h->lent_tail - h->lent_head == RXB_HDS_LENT) {
		rxb_hds_reclaim(rxq);
		if (h->lent_tail - h->lent_head == RXB_HDS_LENT)
			return 0;
	}
	buf = napi_alloc_frag(sz);
	if (unlikely(!buf))
		return 0;
	memcpy(buf + XDP_PACKET_HEADROOM, xdp->data - meta, len);
	xdp_init_buff(&frame, sz, &h->xrxq_lend);
	xdp_prepare_buff(&frame, buf, XDP_PACKET_HEADROOM + meta, len - meta,
			 true);
	frame.data_meta = frame.data - meta;
	fsinfo = xdp_get_shared_info_from_buff(&frame);
	fsinfo->nr_frags = 1;
	fsinfo->xdp_frags_size = skb_frag_size(&sinfo->frags[0]);
	fsinfo->frags[0] = sinfo->frags[0];
	xdp_buff_set_frags_flag(&frame);
	/* The frame's reference, put when it is freed. */
	get_page(bar);
	if (unlikely(xdp_do_redirect(rxq->rx->port->dev, &frame, prog))) {
		put_page(bar);
		skb_free_frag(buf);
		return -1;
	}
	h->lent[h->lent_tail++ % RXB_HDS_LENT] = (struct rxb_hds_lent){
		.page = bar,
		.handle = handle,
	};
	return 1;
}

/* The packet's buffer back to its pool. */
static void rxb_hds_put_buf(struct rxb_rxq *rxq, const struct rxb_pkt *p)
{
	rxb_rx_put_pkt(rxq, p, 0);
}

/* Send the frames of TX commands on the port's wire, from @rxq's Tx
 * queue, as XDP_TX does (xdp.c).  Return the frames sent.
 */
static unsigned int rxb_hds_wire(struct rxb_rxq *rxq,
				 struct sk_buff_head *wire)
{
	struct rxb_port *port = rxq->rx->port;
	struct net_device *dev = port->dev, *peer, *lower;
	unsigned int qi = rxq->qid, n = 0;
	struct netdev_queue *txq;
	struct sk_buff *skb;

	if (qi >= dev->real_num_tx_queues)
		qi %= dev->real_num_tx_queues;
	txq = netdev_get_tx_queue(dev, qi);
	rcu_read_lock();
	lower = rcu_dereference(port->lower);
	peer = rcu_dereference(port->peer);
	if (unlikely(!lower && !peer))
		goto out;
	__netif_tx_lock(txq, smp_processor_id());
	while ((skb = __skb_dequeue(wire))) {
		skb->dev = dev;
		skb_reset_mac_header(skb);
		skb->protocol = eth_hdr(skb)->h_proto;
		skb_set_queue_mapping(skb, qi);
		if (lower)
			rxb_lower_xmit(port, lower, skb);
		else
			rxb_wire(netdev_priv(peer), &port->txs[qi], skb);
		n++;
	}
	__netif_tx_unlock(txq);
out:
	rcu_read_unlock();
	__skb_queue_purge(wire);
	return n;
}

/* Fetch the payload (@len bytes, released after) to just after the
 * headers that end at @end in the packet's page.  False when the page
 * has no room for it or the NIC refused.
 */
static bool rxb_hds_fetch_behind(struct rxb_rxq *rxq,
				 const struct rxb_pkt *p, u32 handle, u32 len,
				 void *end)
{
	void *hard = page_address(p->cookie);

	if (end + len > hard + PAGE_SIZE - RXB_RX_TAILROOM) {
		rxb_hds_free(rxq, handle);
		return false;
	}
	return rxb_hds_fetch(rxq, handle, len,
			     page_to_phys((struct page *)p->cookie) + (end - hard));
}

/* An XDP program that takes multi-buffer frames, on a split packet. */
static enum rxb_hds_verdict rxb_hds_xdp(struct rxb_rxq *rxq,
					struct rxb_pkt *p,
					struct bpf_prog *prog, u32 handle,
					u32 hlen, u32 pay, unsigned int *head,
					unsigned int *meta)
{
	struct rxb_rx *rx = rxq->rx;
	struct net_device *dev = rx->port->dev;
	struct sk_buff_head wire;
	struct skb_shared_info *sinfo;
	void *hard = page_address(p->cookie);
	struct xdp_buff xdp;
	struct page *bar;
	u32 act, off, flen = 0;

	bar = rxb_nic_hds_bar(rx->ctx, handle, &off);
	if (unlikely(!bar))
		goto drop;
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq->hds->xrxq_bar);
	xdp_prepare_buff(&xdp, hard, RXB_RX_HEADROOM, hlen, true);
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	sinfo->nr_frags = 1;
	sinfo->xdp_frags_size = pay;
	rxb_skb_frag_fill(&sinfo->frags[0], bar, off, pay);
	xdp_buff_set_frags_flag(&xdp);
	/* The mapping's own reference (see the top of this file). */
	get_page(bar);
	act = bpf_prog_run_xdp(prog, &xdp);
	if (xdp_buff_has_frags(&xdp) && sinfo->nr_frags) {
		flen = skb_frag_size(&sinfo->frags[0]);
		put_page(bar);
	}
	switch (act) {
	case XDP_PASS:
		if (flen && !rxb_hds_fetch_behind(rxq, p, handle, flen,
						  xdp.data_end))
			goto drop_buf;
		if (!flen)
			rxb_hds_free(rxq, handle);
		*head = xdp.data - hard;
		*meta = xdp.data - xdp.data_meta;
		p->len = xdp.data_end - xdp.data + flen;
		/* The program may have changed what the NIC summed. */
		p->flags &= ~RXB_CQE_F_CSUM;
		rxq->poll_xdp[RXB_XDP_PASS]++;
		return RXB_HDS_DELIVER;
	case XDP_TX:
		/* Headers from the host, payload from NIC memory. */
		__skb_queue_head_init(&wire);
		if (rxb_hds_cmd(rxq, RXB_NMC_TX, RXB_NMC_F_RELEASE, handle, flen,
				page_to_phys((struct page *)p->cookie) + (xdp.data - hard),
				xdp.data_end - xdp.data, &wire) &
		    RXB_NMC_F_ERR || !rxb_hds_wire(rxq, &wire)) {
			rxq->poll_xdp[RXB_XDP_TX_ERRORS]++;
			trace_xdp_exception(dev, prog, act);
		} else {
			rxq->poll_xdp[RXB_XDP_TX]++;
		}
		rxb_hds_put_buf(rxq, p);
		return RXB_HDS_CONSUMED;
	case XDP_REDIRECT:
		switch (flen ? rxb_hds_lend(rxq, &xdp, prog, handle, bar) : 0) {
		case 1:
			rxq->poll_xdp[RXB_XDP_NM_REDIRECT]++;
			rxq->poll_xdp[RXB_XDP_NM_REDIRECT_BYTES] += flen;
			rxq->poll_xdp[RXB_XDP_REDIRECT]++;
			rxq->poll_redirect = true;
			rxb_hds_put_buf(rxq, p);
			return RXB_HDS_CONSUMED;
		case -1:
			rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
			trace_xdp_exception(dev, prog, act);
			goto drop;
		}
		/* Not lent: into host memory, behind the headers. */
		if (flen && !rxb_hds_fetch_behind(rxq, p, handle, flen,
						  xdp.data_end)) {
			rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
			goto drop_buf;
		}
		if (!flen)
			rxb_hds_free(rxq, handle);
		xdp.data_end += flen;
		xdp.flags = 0;		/* one buffer now */
		xdp.rxq = &rxq->xdp_rxq;
		if (p->pool_q != rxq->qid) {
			xdp.rxq = &rxq->xdp_rxq_alt;
			xdp.rxq->mem = rx->rxq[p->pool_q].xdp_rxq.mem;
			if (!rxq->poll_no_direct) {
				xdp_set_return_frame_no_direct();
				rxq->poll_no_direct = true;
			}
		}
		if (unlikely(xdp_do_redirect(dev, &xdp, prog))) {
			rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
			trace_xdp_exception(dev, prog, act);
			rxb_hds_put_buf(rxq, p);
			return RXB_HDS_CONSUMED;
		}
		rxq->poll_redirect = true;
		rxq->poll_xdp[RXB_XDP_REDIRECT]++;
		return RXB_HDS_CONSUMED;
	default:	/* XDP_DROP, XDP_ABORTED or invalid */
		rxb_xdp_count_drop(rxq, prog, act);
		break;
	}
drop:
	rxb_hds_free(rxq, handle);
	rxb_hds_put_buf(rxq, p);
	return RXB_HDS_CONSUMED;
drop_buf:
	rxq->poll_drops++;
	rxb_hds_put_buf(rxq, p);
	return RXB_HDS_CONSUMED;
}

/**
 * rxb_hds_rx() - a packet the NIC split (RXB_CQE_F_SPLIT).
 * @rxq: its queue, in its NAPI poll.
 * @prog: the port's XDP program, or NULL.
 * @p: the packet: the headers in its buffer, the split record before it;
 *	on RXB_HDS_WHOLE and RXB_HDS_DELIVER, the packet whole in its buffer.
 * @head: on RXB_HDS_DELIVER, where the packet starts in its page.
 * @meta: on RXB_HDS_DELIVER, bytes of XDP metadata before it.
 *
 * Return: what the caller does with @p (enum rxb_hds_verdict).
 */
enum rxb_hds_verdict rxb_hds_rx(struct rxb_rxq *rxq, struct rxb_pkt *p,
				struct bpf_prog *prog, unsigned int *head,
				unsigned int *meta)
{
	u8 *buf = (u8 *)page_address(p->cookie) + RXB_RX_HEADROOM;
	const struct rxb_hds_rec *rec =
		(const void *)(buf - RXB_HDS_REC_ROOM);
	u32 handle = le32_to_cpu(rec->handle);
	u32 hlen = le16_to_cpu(rec->hdr_len), pay = le16_to_cpu(rec->pay_len);

	p->flags &= ~RXB_CQE_F_SPLIT;
	/* Only single-packet buffers are split (rxb_model_validate()). */
	if (unlikely(!rxq->hds || p->frag || p->offset ||
		     hlen + pay != p->len)) {
		if (rxq->hds)
			rxb_hds_free(rxq, handle);
		rxq->poll_drops++;
		rxb_hds_put_buf(rxq, p);
		return RXB_HDS_CONSUMED;
	}
	if (prog && prog->aux->xdp_has_frags)
		return rxb_hds_xdp(rxq, p, prog, handle, hlen, pay, head, meta);
	if (!rxb_hds_fetch(rxq, handle, pay,
			   page_to_phys((struct page *)p->cookie) + RXB_RX_HEADROOM + hlen)) {
		rxq->poll_drops++;
		rxb_hds_put_buf(rxq, p);
		return RXB_HDS_CONSUMED;
	}
	return RXB_HDS_WHOLE;
}
