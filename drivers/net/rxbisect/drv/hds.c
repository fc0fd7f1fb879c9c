// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect driver: the receive side of the NIC's header/data split into
 * its memory (nicmem, thesis chapter 2; Documentation/rxbisect-nicmem.rst).
 *
 * A completion with RXB_CQE_F_SPLIT names a buffer that holds only the
 * frame's headers; the split record the NIC wrote in front of it (struct
 * rxb_hds_rec) names the payload in NIC memory.  The driver moves the
 * payload only through the queue's nicmem command ring (struct
 * rxb_nmc_desc, its tail register a posted doorbell), one path for every
 * ring model:
 *
 *  - to the stack: FETCH the payload into the buffer right behind the
 *    headers; the NIC completes the fetch in its own context once its
 *    memory tier's latency has passed, writes the command's done mark and
 *    raises the queue's interrupt.  Meanwhile the packet waits in the
 *    queue's parking FIFO, and so does every packet the queue polls after
 *    it, so that the queue hands packets up in the NIC's order; a later
 *    poll delivers them whole, the usual way;
 *  - an XDP program that takes multi-buffer frames sees the headers in
 *    the buffer and the payload as one fragment mapped from NIC memory
 *    (the split record's bar: the NIC's memory window), so that XDP_TX
 *    sends the possibly rewritten headers, carried inline in a TX command,
 *    and the payload from NIC memory (no host copy of the payload);
 *    XDP_REDIRECT leaves the payload in NIC memory too, lent to the
 *    redirected frame (below); XDP_PASS fetches it first (the stack needs
 *    it in host memory) and parks the packet; XDP_DROP releases it;
 *  - a program without multi-buffer support gets the packet whole, after
 *    its fetch, as it would without the split.
 *
 * Nothing waits for the NIC in a loop: a command is posted, and its done
 * mark found by a later poll.
 *
 * The fragment runs under an xdp_rxq_info whose memory model is
 * MEM_TYPE_PAGE_ORDER0, with a page reference of the driver's own: a
 * program that shrinks the payload away (bpf_xdp_adjust_tail()) drops
 * that reference only, never the NIC's page nor a page_pool page.
 *
 * A redirected frame has one memory model for all its buffers: its
 * headers move into a small buffer of their own (MEM_TYPE_PAGE_SHARED, the
 * packet's page back to its pool at once) and its fragment stays the
 * window's mapping, with a page reference of the frame's.  Whoever reads
 * the frame reads the payload in NIC memory: a port's Tx engine (peer-to-
 * peer DMA on hardware) or the CPU through the window; the emulation
 * cannot count those reads.  The payload is lent until the frame is
 * freed: nicmem's prototype learnt that from its device pages' free
 * callback (dev_pagemap_ops), the emulation from the page's reference
 * count, which falls back to the NIC's own one (rxb_hds_reclaim()); then
 * the driver FREEs it.  Payloads are reclaimed in the order they were
 * lent, from the queue's NAPI poll, which a timer reschedules while any
 * is out.  Up to 6.2 devmap refuses multi-buffer frames; there, and when
 * RXB_HDS_LENT payloads are already out, XDP_REDIRECT copies the payload
 * out of the window behind the headers (the CPU's read of NIC memory, an
 * MMIO read: counted in pcie_to_host_mmio_bytes) and FREEs it.
 */
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/bpf_trace.h>
#include <net/xdp.h>
#include "rxbisect.h"

#define RXB_HDS_NMC_ENTRIES	256	/* command ring entries per queue */
#define RXB_HDS_PARK		128	/* packets parked per queue */
#define RXB_HDS_LENT		256	/* payloads lent to frames, per queue */
#define RXB_HDS_FREES		256	/* FREEs waiting for a ring entry */

/* struct rxb_hds_park.cmd of a packet that waits for no command, or for
 * one not posted yet (the ring was full).
 */
#define RXB_HDS_NOCMD		0xffffffffU
#define RXB_HDS_UNPOSTED	0xfffffffeU

/**
 * struct rxb_hds_lent - a payload lent to a redirected frame.
 * @page: its window mapping, whose reference the frame holds.
 * @handle: the payload.
 */
struct rxb_hds_lent {
	struct page *page;
	u32 handle;
};

/**
 * struct rxb_hds_park - a packet waiting in a queue's parking FIFO.
 * @p: the packet.
 * @cmd: the FETCH it waits for (a free-running command index), or
 *	RXB_HDS_NOCMD (it waits for the packets before it only), or
 *	RXB_HDS_UNPOSTED (its FETCH is still to be posted).
 * @handle: the payload of an unposted FETCH.
 * @pay: its bytes.
 * @dst: where they go (bus address).
 * @head: where the packet starts in its page.
 * @meta: bytes of XDP metadata before it.
 * @prog_done: the XDP program ran on it already (XDP_PASS).
 */
struct rxb_hds_park {
	struct rxb_pkt p;
	u32 cmd;
	u32 handle;
	u32 pay;
	u64 dst;
	u32 head;
	u32 meta;
	bool prog_done;
};

/**
 * struct rxb_hds_rxq - a queue's side of the split.
 * @ring: its nicmem command ring (host memory the NIC reads).
 * @regs: the ring's registers, in the NIC's register space.
 * @tail: commands written (free-running).
 * @park_head: the oldest parked packet (free-running).
 * @park_tail: packets parked (free-running).
 * @lent_head: the oldest payload still lent (free-running).
 * @lent_tail: payloads lent (free-running).
 * @nfrees: payloads whose FREE waits for a ring entry.
 * @xrxq_bar: @rxq's XDP receive info with the memory model of a payload
 *	mapped from NIC memory (MEM_TYPE_PAGE_ORDER0).
 * @xrxq_lend: its XDP receive info for a redirected frame whose payload
 *	stays in NIC memory (MEM_TYPE_PAGE_SHARED).
 * @park: the parked packets, in order.
 * @lent: the payloads lent, in order.
 * @frees: the payloads of @nfrees.
 */
struct rxb_hds_rxq {
	struct rxb_nmc_desc *ring;
	struct rxb_nmc_regs *regs;
	u32 tail;
	u32 park_head;
	u32 park_tail;
	u32 lent_head;
	u32 lent_tail;
	u32 nfrees;
	struct xdp_rxq_info xrxq_bar;
	struct xdp_rxq_info xrxq_lend;
	struct rxb_hds_park park[RXB_HDS_PARK];
	struct rxb_hds_lent lent[RXB_HDS_LENT];
	u32 frees[RXB_HDS_FREES];
};

/**
 * rxb_hds_rxq_init() - give queue @rxq its command ring.
 * @rxq: a queue of a configuration whose NIC context splits, its XDP
 *	receive info registered; before the context is loaded.
 *
 * Return: 0 or a negative error.
 */
int rxb_hds_rxq_init(struct rxb_rxq *rxq)
{
	struct rxb_hds_rxq *h = kvzalloc(sizeof(*h), GFP_KERNEL);
	struct rxb_bar bar;

	if (!h)
		return -ENOMEM;
	/* Ring memory: the emulation's IOMMU maps it at this address. */
	h->ring = kvcalloc(RXB_HDS_NMC_ENTRIES, sizeof(*h->ring), GFP_KERNEL);
	if (!h->ring) {
		kvfree(h);
		return -ENOMEM;
	}
	rxb_nic_ctx_bar(rxq->rx->ctx, &bar);
	h->regs = rxb_bar_q(&bar, rxq->qid, RXB_QPAGE_NMC);
	/* Before the context loads: plain register writes. */
	WRITE_ONCE(h->regs->entries, RXB_HDS_NMC_ENTRIES);
	WRITE_ONCE(h->regs->base.hi, (u32)((uintptr_t)h->ring >> 32));
	WRITE_ONCE(h->regs->base.lo, (u32)(uintptr_t)h->ring);
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
 *	reclaimed the payloads still lent (their frames keep their pages),
 *	and its parked packets were flushed.
 */
void rxb_hds_rxq_fini(struct rxb_rxq *rxq)
{
	if (!rxq->hds)
		return;
	kvfree(rxq->hds->ring);
	kvfree(rxq->hds);
	rxq->hds = NULL;
}

/* The done mark of command @idx: RXB_NMC_F_* the NIC wrote, 0 while it
 * has not executed it.
 */
static u8 rxb_hds_cmd_flags(const struct rxb_hds_rxq *h, u32 idx)
{
	/* Acquire: pairs with the release in rxb_hds_done() (the NIC): the
	 * payload moved before the mark.
	 */
	return smp_load_acquire(&h->ring[idx % RXB_HDS_NMC_ENTRIES].flags);
}

/* Is the ring's entry at the tail the driver's (never used, or done)? */
static bool rxb_hds_cmd_room(const struct rxb_hds_rxq *h)
{
	return h->tail < RXB_HDS_NMC_ENTRIES ||
	       (rxb_hds_cmd_flags(h, h->tail) & RXB_NMC_F_DONE);
}

/* Write one command and the ring's tail register (a posted write: the NIC
 * executes it later).  False when the ring has no free entry; else its
 * index in *@idx.
 */
static bool rxb_hds_cmd(struct rxb_rxq *rxq, u8 op, u8 flags, u32 handle,
			u32 len, u64 addr, const void *hdr, u32 hdr_len,
			u32 *idx)
{
	struct rxb_hds_rxq *h = rxq->hds;
	struct rxb_nmc_desc *d = &h->ring[h->tail % RXB_HDS_NMC_ENTRIES];

	if (!rxb_hds_cmd_room(h))
		return false;
	memset(d, 0, offsetof(struct rxb_nmc_desc, hdr));
	d->op = op;
	d->flags = flags;
	d->len = cpu_to_le16(len);
	d->handle = cpu_to_le32(handle);
	d->buf_addr = cpu_to_le64(addr);
	d->hdr_len = cpu_to_le16(hdr_len);
	if (hdr_len)
		memcpy(d->hdr, hdr, hdr_len);
	if (idx)
		*idx = h->tail;
	h->tail++;
	/* Release: the entry before the tail (rxb_reg_write()). */
	rxb_reg_write(rxq->rx->model, rxq->qid, &h->regs->tail, h->tail);
	return true;
}

/* FREE payload @handle, or remember it for a later poll (ring full). */
static void rxb_hds_free(struct rxb_rxq *rxq, u32 handle)
{
	struct rxb_hds_rxq *h = rxq->hds;

	if (rxb_hds_cmd(rxq, RXB_NMC_FREE, 0, handle, 0, 0, NULL, 0, NULL))
		return;
	/* Full too: the payload stays until the context goes (reclaimed). */
	if (h->nfrees < RXB_HDS_FREES)
		h->frees[h->nfrees++] = handle;
}

/* The FREEs that waited for a ring entry. */
static void rxb_hds_frees(struct rxb_rxq *rxq)
{
	struct rxb_hds_rxq *h = rxq->hds;

	while (h->nfrees &&
	       rxb_hds_cmd(rxq, RXB_NMC_FREE, 0, h->frees[h->nfrees - 1], 0, 0,
			   NULL, 0, NULL))
		h->nfrees--;
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

	rxb_hds_frees(rxq);
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
		if (!rxb_hds_cmd(rxq, RXB_NMC_FREE, 0, l->handle, 0, 0, NULL, 0,
				 NULL))
			break;
	}
	return h->lent_head != h->lent_tail || h->nfrees;
}

/* XDP_REDIRECT with the payload left in NIC memory: the headers (and the
 * program's metadata) of @xdp into a buffer of their own, the payload
 * @handle, mapped at @bar, lent to the frame (see the top of this file).
 * Return 1 when redirected, -1 when the redirect failed (the frame is
 * freed, the payload still held), 0 when not tried.
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

/* Park packet @p at the FIFO's tail, waiting for command @cmd. */
static struct rxb_hds_park *rxb_hds_park(struct rxb_rxq *rxq,
					 const struct rxb_pkt *p, u32 cmd,
					 u32 head, u32 meta, bool prog_done)
{
	struct rxb_hds_rxq *h = rxq->hds;
	struct rxb_hds_park *e = &h->park[h->park_tail++ % RXB_HDS_PARK];

	*e = (struct rxb_hds_park){
		.p = *p, .cmd = cmd, .head = head, .meta = meta,
		.prog_done = prog_done,
	};
	return e;
}

/* FETCH @len payload bytes of @handle (released after) to just after the
 * headers that end at @end in the packet's page, and park the packet.
 * False when the page has no room for it (the payload is freed).
 */
static bool rxb_hds_fetch_park(struct rxb_rxq *rxq, const struct rxb_pkt *p,
			       u32 handle, u32 len, void *end, u32 head,
			       u32 meta, bool prog_done)
{
	void *hard = rxb_buf_va(p->cookie);
	u64 dst = virt_to_phys(end);
	struct rxb_hds_park *e;
	u32 cmd;

	if (end + len > hard + rxb_rx_buf_size(rxq->rx) - RXB_RX_TAILROOM) {
		rxb_hds_free(rxq, handle);
		return false;
	}
	if (rxb_hds_cmd(rxq, RXB_NMC_FETCH, RXB_NMC_F_RELEASE, handle, len,
			dst, NULL, 0, &cmd)) {
		rxb_hds_park(rxq, p, cmd, head, meta, prog_done);
		return true;
	}
	/* The ring is full: post it when an entry is free. */
	e = rxb_hds_park(rxq, p, RXB_HDS_UNPOSTED, head, meta, prog_done);
	e->handle = handle;
	e->pay = len;
	e->dst = dst;
	return true;
}

/**
 * rxb_hds_room() - packets a poll may hand the split now.
 * @rxq: a queue of the split.
 *
 * Return: free entries of the parking FIFO.
 */
unsigned int rxb_hds_room(const struct rxb_rxq *rxq)
{
	const struct rxb_hds_rxq *h = rxq->hds;

	return RXB_HDS_PARK - (h->park_tail - h->park_head);
}

/**
 * rxb_hds_parked() - does the queue hold parked packets?
 * @rxq: a queue of the split.
 *
 * Return: true when a packet waits: the queue's next ones wait behind it.
 */
bool rxb_hds_parked(const struct rxb_rxq *rxq)
{
	return rxq->hds->park_head != rxq->hds->park_tail;
}

/* Is the oldest parked packet ready to go up (its FETCH done)? */
static bool rxb_hds_head_ready(const struct rxb_hds_rxq *h)
{
	const struct rxb_hds_park *e = &h->park[h->park_head % RXB_HDS_PARK];

	if (h->park_head == h->park_tail || e->cmd == RXB_HDS_UNPOSTED)
		return false;
	return e->cmd == RXB_HDS_NOCMD ||
	       (rxb_hds_cmd_flags(h, e->cmd) & RXB_NMC_F_DONE);
}

/**
 * rxb_hds_pending() - has the queue parked packets to hand up now, or
 *	commands to post (rx_pending's part of the split)?
 * @rxq: a queue of the split.
 *
 * Return: true when a poll has work.
 */
bool rxb_hds_pending(const struct rxb_rxq *rxq)
{
	const struct rxb_hds_rxq *h = rxq->hds;
	const struct rxb_hds_park *e = &h->park[h->park_head % RXB_HDS_PARK];

	return rxb_hds_head_ready(h) ||
	       (rxb_hds_parked(rxq) && e->cmd == RXB_HDS_UNPOSTED &&
		rxb_hds_cmd_room(h));
}

/**
 * rxb_hds_drain() - hand up the parked packets whose FETCH completed, in
 *	order, up to @budget.
 * @rxq: a queue of the split, in its NAPI poll.
 * @prog: the port's XDP program, or NULL.
 * @budget: most packets.
 *
 * Return: the packets handed up (or dropped).
 */
int rxb_hds_drain(struct rxb_rxq *rxq, struct bpf_prog *prog, int budget)
{
	struct rxb_hds_rxq *h = rxq->hds;
	int n = 0;

	while (n < budget && h->park_head != h->park_tail) {
		struct rxb_hds_park *e = &h->park[h->park_head % RXB_HDS_PARK];

		if (e->cmd == RXB_HDS_UNPOSTED) {
			if (!rxb_hds_cmd(rxq, RXB_NMC_FETCH, RXB_NMC_F_RELEASE,
					 e->handle, e->pay, e->dst, NULL, 0,
					 &e->cmd))
				break;
		}
		if (!rxb_hds_head_ready(h))
			break;
		h->park_head++;
		n++;
		if (e->cmd != RXB_HDS_NOCMD &&
		    (rxb_hds_cmd_flags(h, e->cmd) & RXB_NMC_F_ERR)) {
			/* The NIC refused the FETCH: no payload. */
			rxq->poll_drops++;
			rxb_hds_put_buf(rxq, &e->p);
			continue;
		}
		e->p.flags &= ~RXB_CQE_F_SPLIT;
		rxb_rx_whole(rxq, &e->p, e->prog_done ? NULL : prog, e->head,
			     e->meta);
	}
	return n;
}

/**
 * rxb_hds_flush() - drop every parked packet (the queue is stopped, its
 *	NIC context disabled or the queue disabled: no FETCH runs).
 * @rxq: a queue of the split.
 */
void rxb_hds_flush(struct rxb_rxq *rxq)
{
	struct rxb_hds_rxq *h = rxq->hds;

	if (!h)
		return;
	for (; h->park_head != h->park_tail; h->park_head++)
		rxb_hds_put_buf(rxq, &h->park[h->park_head % RXB_HDS_PARK].p);
	h->nfrees = 0;
}

/* XDP_REDIRECT of a split packet whose payload cannot be lent: the CPU
 * copies it out of NIC memory through the window (an MMIO read, counted)
 * behind the headers that end at @end, the driver FREEs it, and the frame
 * goes as one buffer.  False when the page has no room for it.
 */
static bool rxb_hds_copy_behind(struct rxb_rxq *rxq, const struct rxb_pkt *p,
				u32 handle, const struct page *bar, u32 off,
				u32 len, void *end)
{
	void *hard = rxb_buf_va(p->cookie);

	if (end + len > hard + rxb_rx_buf_size(rxq->rx) - RXB_RX_TAILROOM) {
		rxb_hds_free(rxq, handle);
		return false;
	}
	memcpy(end, page_address(bar) + off, len);
	rxb_nic_reg_read(rxq->rx->port->nic, rxq->qid, len);
	rxb_hds_free(rxq, handle);
	return true;
}

/* An XDP program that takes multi-buffer frames, on a split packet. */
static void rxb_hds_xdp(struct rxb_rxq *rxq, struct rxb_pkt *p,
			struct bpf_prog *prog, u32 handle, u32 hlen, u32 pay,
			struct page *bar, u32 off)
{
	struct rxb_rx *rx = rxq->rx;
	struct net_device *dev = rx->port->dev;
	struct skb_shared_info *sinfo;
	void *hard = rxb_buf_va(p->cookie);
	struct xdp_buff xdp;
	u32 act, flen = 0;

	xdp_init_buff(&xdp, rxb_rx_buf_size(rx), &rxq->hds->xrxq_bar);
	xdp_prepare_buff(&xdp, hard, rx->bl.headroom, hlen, true);
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	sinfo->nr_frags = 1;
	sinfo->xdp_frags_size = pay;
	rxb_skb_frag_fill(&sinfo->frags[0], bar, off, pay);
	xdp_buff_set_frags_flag(&xdp);
	/* The mapping's own reference (see the top of this file). */
	get_page(bar);
	act = rxb_xdp_prog_run(prog, &xdp, p);
	if (xdp_buff_has_frags(&xdp) && sinfo->nr_frags) {
		flen = skb_frag_size(&sinfo->frags[0]);
		put_page(bar);
	}
	switch (act) {
	case XDP_PASS:
		/* The program may have changed what the NIC summed. */
		p->flags &= ~RXB_CQE_F_CSUM;
		p->len = xdp.data_end - xdp.data + flen;
		rxq->poll_xdp[RXB_XDP_PASS]++;
		if (!flen) {
			rxb_hds_free(rxq, handle);
			rxb_hds_park(rxq, p, RXB_HDS_NOCMD, xdp.data - hard,
				     xdp.data - xdp.data_meta, true);
			return;
		}
		if (!rxb_hds_fetch_park(rxq, p, handle, flen, xdp.data_end,
					xdp.data - hard,
					xdp.data - xdp.data_meta, true))
			goto drop_buf;
		return;
	case XDP_TX:
		/* Headers inline in the command, payload from NIC memory. */
		if (xdp.data_end - xdp.data > RXB_NMC_INLINE ||
		    !rxb_hds_cmd(rxq, RXB_NMC_TX, RXB_NMC_F_RELEASE, handle,
				 flen, 0, xdp.data, xdp.data_end - xdp.data,
				 NULL)) {
			rxq->poll_xdp[RXB_XDP_TX_ERRORS]++;
			trace_xdp_exception(dev, prog, act);
			rxb_hds_free(rxq, handle);
		} else {
			rxq->poll_xdp[RXB_XDP_TX]++;
		}
		rxb_hds_put_buf(rxq, p);
		return;
	case XDP_REDIRECT:
		switch (flen ? rxb_hds_lend(rxq, &xdp, prog, handle, bar) : 0) {
		case 1:
			rxq->poll_xdp[RXB_XDP_NM_REDIRECT]++;
			rxq->poll_xdp[RXB_XDP_NM_REDIRECT_BYTES] += flen;
			rxq->poll_xdp[RXB_XDP_REDIRECT]++;
			rxq->poll_redirect = true;
			rxb_hds_put_buf(rxq, p);
			return;
		case -1:
			rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
			trace_xdp_exception(dev, prog, act);
			goto drop;
		}
		/* Not lent: into host memory, behind the headers. */
		if (!flen) {
			rxb_hds_free(rxq, handle);
		} else if (!rxb_hds_copy_behind(rxq, p, handle, bar, off, flen,
						xdp.data_end)) {
			rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
			goto drop_buf;
		}
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
		if (!rxb_xdp_redirect(rxq, prog, &xdp))
			rxb_hds_put_buf(rxq, p);
		return;
	default:	/* XDP_DROP, XDP_ABORTED or invalid */
		rxb_xdp_count_drop(rxq, prog, act);
		break;
	}
drop:
	rxb_hds_free(rxq, handle);
	rxb_hds_put_buf(rxq, p);
	return;
drop_buf:
	rxq->poll_drops++;
	rxb_hds_put_buf(rxq, p);
}

/**
 * rxb_hds_rx() - a packet of a queue of the split: a packet the NIC split
 *	(RXB_CQE_F_SPLIT), or any packet while others are parked.
 * @rxq: its queue, in its NAPI poll; the caller leaves room for it
 *	(rxb_hds_room()).
 * @prog: the port's XDP program, or NULL.
 * @p: the packet: the headers in its buffer, the split record before it.
 *
 * The packet goes up later, whole, in order (rxb_hds_drain()), or XDP
 * consumes it here.
 */
void rxb_hds_rx(struct rxb_rxq *rxq, struct rxb_pkt *p, struct bpf_prog *prog)
{
	unsigned int hr = rxq->rx->bl.headroom;
	u8 *buf = (u8 *)rxb_buf_va(p->cookie) + hr;
	const struct rxb_hds_rec *rec =
		(const void *)(buf - RXB_HDS_REC_ROOM);
	u32 handle, hlen, pay;
	void *bar;

	if (!(p->flags & RXB_CQE_F_SPLIT)) {
		/* Whole: behind the packets parked before it. */
		rxb_hds_park(rxq, p, RXB_HDS_NOCMD, hr, 0, false);
		return;
	}
	handle = le32_to_cpu(rec->handle);
	hlen = le16_to_cpu(rec->hdr_len);
	pay = le16_to_cpu(rec->pay_len);
	bar = (void *)(uintptr_t)le64_to_cpu(rec->bar);
	p->flags &= ~RXB_CQE_F_SPLIT;
	/* Only single-packet buffers are split (rxb_model_validate()). */
	if (unlikely(p->frag || p->offset || hlen + pay != p->len || !bar)) {
		rxb_hds_free(rxq, handle);
		rxq->poll_drops++;
		rxb_hds_put_buf(rxq, p);
		return;
	}
	if (prog && prog->aux->xdp_has_frags) {
		rxb_hds_xdp(rxq, p, prog, handle, hlen, pay, virt_to_page(bar),
			    offset_in_page(bar));
		return;
	}
	if (!rxb_hds_fetch_park(rxq, p, handle, pay, buf + hlen,
				hr, 0, false)) {
		rxq->poll_drops++;
		rxb_hds_put_buf(rxq, p);
	}
}
