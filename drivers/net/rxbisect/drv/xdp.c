// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect XDP: one path for every ring model.
 *
 * The program runs in rx.c's NAPI poll on the packets the ring model's
 * poll returns (struct rxb_pkt), in the page_pool page the NIC wrote,
 * before any skb exists; no model file knows about XDP, so that every
 * model pays the same for it.  The one exception is forced by the NIC's
 * layout: a packet that shares its buffer with others (shRing-batched)
 * has neither headroom nor tailroom of its own and is copied into a page
 * of its own first (counted: rx<q>_xdp_copies); so is a packet of a
 * streaming model (Ensō), which has no buffer at all and is copied out of
 * its pipe with or without XDP.
 *
 * Each queue registers an xdp_rxq_info with the page_pool memory model of
 * its own pool.  A shared-ring model may hand a queue a page of another
 * queue's pool (rxb_pkt.pool_q): the packet then runs with an
 * xdp_rxq_info of this queue carrying that pool's memory model, so that
 * its frame returns to the pool it came from, never through this queue's
 * direct (NAPI) cache.
 *
 * XDP_TX and ndo_xdp_xmit put frames on the port's wire through the Tx
 * path of netdev.c (rxb_tx_burst(): the Tx queue's lock and counters): the
 * peer port's NIC, or the lower device, receives them.  XDP_TX sends from
 * the Tx queue of the frame's channel, ndo_xdp_xmit from the sending CPU's.
 *
 * Inline (no engine thread) the sender does the NIC's transmit work in its
 * own context, at once.  With an engine thread the frames are posted to
 * the Tx queue's XDP Tx ring (struct rxb_xdpq: descriptors in host memory,
 * a doorbell, rxb_nic_xdpq_doorbell()), which the engine reads and sends
 * from; the NIC writes back its head and signals the queue's vector, and
 * the channel's NAPI poll gives the frames back (rxb_xdpq_reclaim():
 * xdp_return_frame(), xsk_tx_completed()), as a real driver reclaims its
 * XDP send queue.  A full ring refuses a frame: an XDP_TX error, a frame
 * ndo_xdp_xmit does not take (its caller frees it), an AF_XDP descriptor
 * left in the socket's Tx ring.  A frame of several buffers takes one
 * descriptor each (a gather).
 */
#include <linux/bpf_trace.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/mm.h>
#include <net/xdp.h>
#include <net/xdp_sock_drv.h>
#include "rxbisect.h"

/* The largest MTU whose frames single-buffer XDP sees whole, on every
 * ring model (rxb_rx_buf_layout()).
 */
#define RXB_XDP_MAX_MTU		RXB_LINEAR_MTU

/**
 * rxb_xdp_mem_reg() - register the XDP memory model of a queue's buffers.
 * @port: the port (its fault knobs).
 * @mem: set to the memory model.
 * @pp: the queue's page_pool.
 * @xsk: the queue's buffers come from a zero-copy AF_XDP socket's umem
 *	(xsk.c) instead.
 *
 * The one step of a queue's XDP registration that allocates, and so can
 * fail: done before anything is torn down (rxb_rx_create(), the queue
 * management API's ndo_queue_mem_alloc), and handed to the queue's receive
 * info by rxb_xdp_rxq_set(), which cannot fail.
 *
 * Return: 0 or a negative error (fault/reconfig_fail RXB_RF_XDP_MEM).
 */
int rxb_xdp_mem_reg(struct rxb_port *port, struct xdp_mem_info *mem,
		    struct page_pool *pp, bool xsk)
{
	*mem = (struct xdp_mem_info){};
	if (rxb_fault_step(&port->fault, RXB_RF_XDP_MEM))
		return -ENOMEM;
	return xsk ? xdp_reg_mem_model(mem, MEM_TYPE_XSK_BUFF_POOL, NULL) :
		     xdp_reg_mem_model(mem, MEM_TYPE_PAGE_POOL, pp);
}

/**
 * rxb_xdp_rxq_set() - register queue @rxq's XDP receive info.
 * @rxq: a queue with its NAPI instance, not running.
 * @mem: a memory model from rxb_xdp_mem_reg(), which the receive info
 *	takes over (rxb_xdp_rxq_unreg() unregisters it); cleared.
 */
void rxb_xdp_rxq_set(struct rxb_rxq *rxq, struct xdp_mem_info *mem)
{
	/* Scatter buffers: a fragment may grow to the end of its page.
	 * Fails only for a driver bug (no device, registered twice), which
	 * the core warns about.
	 */
	if (__xdp_rxq_info_reg(&rxq->xdp_rxq, rxq->rx->port->dev, rxq->qid,
			       rxq->napi.napi_id,
			       rxq->rx->bl.segs > 1 ? PAGE_SIZE : 0)) {
		xdp_unreg_mem_model(mem);
		return;
	}
	rxq->xdp_rxq.mem = *mem;
	*mem = (struct xdp_mem_info){};
	/* Its memory model is set per packet (rxb_xdp_run()). */
	rxq->xdp_rxq_alt = rxq->xdp_rxq;
}

/**
 * rxb_xdp_rxq_reg() - register queue @rxq's XDP receive info.
 * @rxq: a queue with its page_pool and NAPI instance, and its xsk pool if
 *	it has one.
 *
 * Return: 0 or a negative error.
 */
int rxb_xdp_rxq_reg(struct rxb_rxq *rxq)
{
	struct xdp_mem_info mem;
	int err;

	err = rxb_xdp_mem_reg(rxq->rx->port, &mem, rxq->pp, rxq->xsk);
	if (!err)
		rxb_xdp_rxq_set(rxq, &mem);
	return err;
}

/**
 * rxb_xdp_rxq_unreg() - undo rxb_xdp_rxq_reg(), if it was done.
 * @rxq: a queue whose NAPI instance is deleted, before its pool is
 *	destroyed.
 */
void rxb_xdp_rxq_unreg(struct rxb_rxq *rxq)
{
	if (xdp_rxq_info_is_reg(&rxq->xdp_rxq))
		xdp_rxq_info_unreg(&rxq->xdp_rxq);
}

/**
 * rxb_xdp_rxq_unreg_keep() - unregister queue @rxq's XDP receive info, but
 *	not its memory model.
 * @rxq: a stopped queue.
 * @mem: set to the memory model, now the caller's (xdp_unreg_mem_model(),
 *	or rxb_xdp_rxq_set() again).
 */
void rxb_xdp_rxq_unreg_keep(struct rxb_rxq *rxq, struct xdp_mem_info *mem)
{
	*mem = rxq->xdp_rxq.mem;
	/* xdp_rxq_info_unreg() unregisters the model it finds: none. */
	rxq->xdp_rxq.mem = (struct xdp_mem_info){};
	rxb_xdp_rxq_unreg(rxq);
}

/**
 * struct rxb_xdp_src - XDP frames for rxb_tx_burst().
 * @src: the burst's source.
 * @dev: the port.
 * @frames: the frames.
 * @n: how many.
 * @i: the next one.
 */
struct rxb_xdp_src {
	struct rxb_tx_src src;
	struct net_device *dev;
	struct xdp_frame **frames;
	unsigned int n;
	unsigned int i;
};

/* The Tx engine reads the frame where it is: an skb around it, whose page
 * returns to its pool when the skb is freed.  NULL at the first frame that
 * cannot be sent: it and the rest are still the caller's.
 */
static struct sk_buff *rxb_xdp_next(struct rxb_tx_src *src)
{
	struct rxb_xdp_src *x = container_of(src, struct rxb_xdp_src, src);
	struct sk_buff *skb;

	if (x->i == x->n || unlikely(x->frames[x->i]->len < ETH_HLEN))
		return NULL;
	skb = xdp_build_skb_from_frame(x->frames[x->i], x->dev);
	if (unlikely(!skb))
		return NULL;
	x->i++;
	skb_push(skb, ETH_HLEN);	/* eth_type_trans() pulled it */
	return skb;
}

/* Post the frames to Tx queue @q's XDP Tx ring while they fit in @room
 * descriptors, one per buffer; stop at the first that does not fit, or
 * that cannot be sent.
 */
static unsigned int rxb_xdp_post(struct rxb_tx_src *src,
				 struct rxb_port *port, unsigned int q,
				 u32 room)
{
	struct rxb_xdp_src *x = container_of(src, struct rxb_xdp_src, src);
	struct rxb_xdpq *xq = &port->xdpq[q];
	struct skb_shared_info *sh;
	struct xdp_frame *f;
	unsigned int j, nfr;
	skb_frag_t *fr;

	for (; x->i < x->n; x->i++) {
		f = x->frames[x->i];
		sh = xdp_frame_has_frags(f) ?
		     xdp_get_shared_info_from_frame(f) : NULL;
		nfr = sh ? sh->nr_frags : 0;
		if (nfr + 1 > room || unlikely(f->len < ETH_HLEN))
			break;
		room -= nfr + 1;
		rxb_xdpq_put(xq, virt_to_phys(f->data), f->len, nfr,
			     nfr ? NULL : f);
		for (j = 0; j < nfr; j++) {
			fr = &sh->frags[j];
			rxb_xdpq_put(xq, page_to_phys(skb_frag_page(fr)) +
				     skb_frag_off(fr), skb_frag_size(fr),
				     j + 1 < nfr, j + 1 < nfr ? NULL : f);
		}
	}
	return x->i;
}

/* Put @n frames on the port's wire from @sender (rxb_tx_burst()), in
 * order, until one cannot be sent.  @ndo: they come from another device
 * (ndo_xdp_xmit), counted as such.  @flush: ring the XDP Tx ring's
 * doorbell (an engine thread sends them).
 *
 * Return: the frames sent or posted; the rest are still the caller's.
 */
static unsigned int rxb_xdp_wire(struct rxb_port *port, unsigned int sender,
				 struct xdp_frame **frames, unsigned int n,
				 bool ndo, bool flush)
{
	struct rxb_xdp_src x = {
		.src.next = rxb_xdp_next,
		.src.post = rxb_xdp_post,
		.src.flush = flush,
		.src.xmit_n = ndo ? n : 0,
		.dev = port->dev,
		.frames = frames,
		.n = n,
	};

	return rxb_tx_burst(port, sender, &x.src);
}

/**
 * rxb_xdpq_alloc() - allocate and program the port's XDP Tx rings.
 * @port: the port, its NIC created, before it opens.
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_xdpq_alloc(struct rxb_port *port)
{
	struct rxb_xdp_txd *desc;
	unsigned int q;
	void **buf;

	desc = kvcalloc(RXB_MAX_QUEUES * RXB_XDPQ_SIZE, sizeof(*desc),
			GFP_KERNEL);
	buf = kvcalloc(RXB_MAX_QUEUES * RXB_XDPQ_SIZE, sizeof(*buf),
		       GFP_KERNEL);
	if (!desc || !buf) {
		kvfree(desc);
		kvfree(buf);
		return -ENOMEM;
	}
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		struct rxb_xdpq *xq = &port->xdpq[q];

		spin_lock_init(&xq->lock);
		xq->desc = desc + q * RXB_XDPQ_SIZE;
		xq->buf = buf + q * RXB_XDPQ_SIZE;
		rxb_nic_xdpq_set(port->nic, q, xq->desc, RXB_XDPQ_SIZE,
				 &xq->wb);
	}
	return 0;
}

/**
 * rxb_xdpq_free() - free the port's XDP Tx rings.
 * @port: the port, its NIC destroyed (rxb_xdpq_quiesce() at its last stop
 *	reclaimed every frame).
 */
void rxb_xdpq_free(struct rxb_port *port)
{
	kvfree(port->xdpq[0].desc);
	kvfree(port->xdpq[0].buf);
}

/**
 * rxb_xdpq_async() - are the frames of a burst on Tx queue @q posted to its
 *	XDP Tx ring?
 * @port: the port.
 * @q: the queue, its xmit lock held, within an RCU read-side section that
 *	lasts until the doorbell.
 *
 * Return: true with an engine thread, and while descriptors are posted
 * that the NIC has not sent (which the new ones go behind).
 */
bool rxb_xdpq_async(struct rxb_port *port, unsigned int q)
{
	struct rxb_xdpq *xq = &port->xdpq[q];

	return xq->prod != xq->tail || rxb_nic_xdpq_async(port->nic, q);
}

/**
 * rxb_xdpq_room() - descriptors Tx queue @q's XDP Tx ring has free.
 * @port: the port.
 * @q: the queue, its xmit lock held.
 *
 * Return: min(tx_ring_size, RXB_XDPQ_SIZE) less those not reclaimed.
 */
u32 rxb_xdpq_room(struct rxb_port *port, unsigned int q)
{
	struct rxb_xdpq *xq = &port->xdpq[q];
	u32 size = min_t(u32, READ_ONCE(port->cfg.tx_ring_size),
			 RXB_XDPQ_SIZE);
	/* Acquire: pairs with the release in rxb_xdpq_reclaim(). */
	u32 used = xq->prod - smp_load_acquire(&xq->clean);

	return used < size ? size - used : 0;
}

/**
 * rxb_xdpq_put() - write the next descriptor of an XDP Tx ring.
 * @xq: the ring, its queue's xmit lock held, rxb_xdpq_room() checked.
 * @addr: bus address of the buffer.
 * @len: bytes of the frame in it.
 * @more: the frame goes on in the next descriptor.
 * @buf: what the descriptor's completion gives back (struct rxb_xdpq.buf).
 */
void rxb_xdpq_put(struct rxb_xdpq *xq, u64 addr, u32 len, bool more,
		  void *buf)
{
	unsigned int i = xq->prod & (RXB_XDPQ_SIZE - 1);
	struct rxb_xdp_txd *d = &xq->desc[i];

	d->buf_addr = cpu_to_le64(addr);
	d->len = cpu_to_le32(len);
	d->flags = cpu_to_le32(more ? RXB_XDP_TXD_F_MORE : 0);
	xq->buf[i] = buf;
	xq->prod++;
}

/**
 * rxb_xdpq_ring() - ring Tx queue @q's XDP Tx ring doorbell for what was
 *	posted since the last.
 * @port: the port.
 * @q: the queue, its xmit lock held, within an RCU read-side section;
 *	bottom halves off.
 */
void rxb_xdpq_ring(struct rxb_port *port, unsigned int q)
{
	struct rxb_xdpq *xq = &port->xdpq[q];

	if (xq->tail == xq->prod)
		return;
	xq->tail = xq->prod;
	rxb_nic_xdpq_doorbell(port->nic, q, xq->tail);
}

/* The descriptors the NIC completed: its write-back. */
static u32 rxb_xdpq_head(const struct rxb_xdpq *xq)
{
	/* Acquire: pairs with the NIC's release of its write-back: the
	 * frames have left their buffers.
	 */
	return le32_to_cpu(smp_load_acquire(&xq->wb));
}

/**
 * rxb_xdpq_inflight() - descriptors Tx queue @q's XDP Tx ring holds:
 *	posted and not reclaimed.
 * @port: the port.
 * @q: the queue.
 *
 * Return: their number (a snapshot).
 */
u32 rxb_xdpq_inflight(const struct rxb_port *port, unsigned int q)
{
	const struct rxb_xdpq *xq = &port->xdpq[q];

	return READ_ONCE(xq->prod) - READ_ONCE(xq->clean);
}

/**
 * rxb_xdpq_pending() - has the NIC completed descriptors of Tx queue @q's
 *	XDP Tx ring that are not reclaimed?
 * @port: the port.
 * @q: the queue.
 *
 * Return: true when it has (the channel's poll goes on).
 */
bool rxb_xdpq_pending(struct rxb_port *port, unsigned int q)
{
	struct rxb_xdpq *xq = &port->xdpq[q];

	return rxb_xdpq_head(xq) != READ_ONCE(xq->clean);
}

/**
 * rxb_xdpq_reclaim() - give back the frames of Tx queue @q's XDP Tx ring
 *	that the NIC completed.
 * @port: the port.
 * @q: the queue: from the NAPI poll of channel @q, or a teardown's.
 *
 * XDP frames go back to their memory (xdp_return_frame()), AF_XDP
 * descriptors to their socket's completion ring (xsk_tx_completed()).
 */
void rxb_xdpq_reclaim(struct rxb_port *port, unsigned int q)
{
	struct rxb_xdpq *xq = &port->xdpq[q];
	struct xsk_buff_pool *pool = NULL, *p;
	u32 head, i, nxsk = 0;
	unsigned long b;

	if (!rxb_xdpq_pending(port, q))
		return;
	spin_lock_bh(&xq->lock);
	head = rxb_xdpq_head(xq);
	for (i = xq->clean; i != head; i++) {
		b = (unsigned long)xq->buf[i & (RXB_XDPQ_SIZE - 1)];
		if (!(b & RXB_XDPQ_XSK)) {
			if (b)
				xdp_return_frame((struct xdp_frame *)b);
			continue;
		}
		p = (struct xsk_buff_pool *)(b & ~RXB_XDPQ_XSK);
		if (p != pool && nxsk) {
			xsk_tx_completed(pool, nxsk);
			nxsk = 0;
		}
		pool = p;
		nxsk++;
	}
	if (nxsk)
		xsk_tx_completed(pool, nxsk);
	/* Release: the slots are free before a poster sees them so. */
	smp_store_release(&xq->clean, head);
	spin_unlock_bh(&xq->lock);
}

/**
 * rxb_xdpq_quiesce() - send and reclaim every frame posted to the port's
 *	XDP Tx rings.
 * @port: the port; RTNL held.  Nothing posts any more to the rings of
 *	what is to be reclaimed: the port is down, or its sockets' queues
 *	restarted without them.
 *
 * Descriptors posted and not rung yet (ndo_xdp_xmit without
 * XDP_XMIT_FLUSH) are rung; the NIC finishes its transmit work
 * (rxb_nic_tx_drain()), then the frames are given back.  Afterwards no
 * page of a page_pool and no AF_XDP descriptor is left in the rings.
 */
void rxb_xdpq_quiesce(struct rxb_port *port)
{
	struct netdev_queue *txq;
	unsigned int q;

	for (q = 0; q < port->dev->num_tx_queues && q < RXB_MAX_QUEUES; q++) {
		txq = netdev_get_tx_queue(port->dev, q);
		local_bh_disable();
		rcu_read_lock();
		__netif_tx_lock(txq, smp_processor_id());
		rxb_xdpq_ring(port, q);
		__netif_tx_unlock(txq);
		rcu_read_unlock();
		local_bh_enable();
	}
	rxb_nic_tx_drain(port->nic);
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		rxb_xdpq_reclaim(port, q);
}

/**
 * rxb_xdp_xmit() - ndo_xdp_xmit: frames another device redirected here
 * go out of this port (to its peer, or on its lower device).
 * @dev: the port.
 * @n: frames.
 * @frames: the frames.
 * @flags: XDP_XMIT_*: XDP_XMIT_FLUSH rings the XDP Tx ring's doorbell
 *	when an engine thread sends (inline the frames go at once).
 *
 * Return: frames sent or posted (the caller frees the others: the ring
 * was full) or a negative error.
 */
int rxb_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		 u32 flags)
{
	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(!netif_running(dev) || !netif_carrier_ok(dev) ||
		     !READ_ONCE(dev->real_num_tx_queues)))
		return -ENETDOWN;
	/* No queue of this port's: the sending CPU picks the Tx queue. */
	return rxb_xdp_wire(netdev_priv(dev), smp_processor_id(), frames, n,
			    true, flags & XDP_XMIT_FLUSH);
}

/* A packet in a buffer it shares with others, or in a streaming model's
 * ring (no buffer: p->cookie NULL, p->data in an Ensō pipe): into a page
 * of the queue's own pool, with the headroom and tailroom of a buffer of
 * its own.  For a streaming model this is the copy it makes without XDP
 * too (into an skb, rx.c), only earlier.
 */
static bool rxb_xdp_linearize(struct rxb_rxq *rxq, struct rxb_pkt *p)
{
	struct page_pool *pp = rxq->pp;
	unsigned int hr = rxq->rx->bl.headroom;
	struct page *page;

	/* Only models that keep whole pages share buffers or stream
	 * (rxb_rx_buf_layout()): a whole page of the pool.
	 */
	page = page_pool_dev_alloc_pages(pp);
	if (unlikely(!page))
		return false;
	rxb_page_pool_frag_init(pp, page);
	if (!p->cookie) {
		memcpy(page_address(page) + hr, p->data, p->len);
		goto done;
	}
	/* Both pages are of the configuration's order: the packet fits. */
	memcpy(page_address(page) + hr,
	       rxb_buf_va(p->cookie) + hr + p->offset, p->len);
	/* The packet's own reference on the shared buffer. */
	rxb_rx_put_pkt(rxq, p, 0);
done:
	p->cookie = page_address(page);
	p->pool_q = rxq->qid;
	p->offset = 0;
	p->frag = false;
	rxq->poll_xdp[RXB_XDP_COPIES]++;
	return true;
}

/**
 * rxb_xdp_count_drop() - count a verdict that drops the packet.
 * @rxq: the queue whose poll ran the program.
 * @prog: the program.
 * @act: XDP_DROP, XDP_ABORTED or a verdict the program may not return
 *	(warned about, then counted as XDP_ABORTED with the xdp_exception
 *	tracepoint).
 *
 * The caller gives the packet's buffer back.
 */
void rxb_xdp_count_drop(struct rxb_rxq *rxq, struct bpf_prog *prog, u32 act)
{
	struct net_device *dev = rxq->rx->port->dev;

	switch (act) {
	case XDP_DROP:
		rxq->poll_xdp[RXB_XDP_DROP]++;
		return;
	default:
		bpf_warn_invalid_xdp_action(dev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		trace_xdp_exception(dev, prog, act);
		rxq->poll_xdp[RXB_XDP_ABORTED]++;
	}
}

/**
 * rxb_xdp_tx_queue() - an XDP_TX verdict: queue the frame for the end of
 *	the batch (rxb_xdp_flush()).
 * @rxq: the queue whose poll ran the program.
 * @prog: the program.
 * @xdp: the packet; a zero-copy (umem) buffer is copied into a page.
 *
 * Return: true when queued; false when the frame could not be made
 * (counted, traced): the caller gives the buffer back.
 */
bool rxb_xdp_tx_queue(struct rxb_rxq *rxq, struct bpf_prog *prog,
		      struct xdp_buff *xdp)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);

	if (unlikely(!xdpf)) {
		rxq->poll_xdp[RXB_XDP_TX_ERRORS]++;
		trace_xdp_exception(rxq->rx->port->dev, prog, XDP_TX);
		return false;
	}
	rxq->xdp_tx[rxq->xdp_ntx++] = xdpf;
	return true;
}

/**
 * rxb_xdp_redirect() - an XDP_REDIRECT verdict: redirect the packet,
 *	flushed at the end of the batch (rxb_xdp_flush()).
 * @rxq: the queue whose poll ran the program.
 * @prog: the program.
 * @xdp: the packet.
 *
 * Return: true when redirected; false when the redirect failed (counted,
 * traced): the packet is still the caller's.
 */
bool rxb_xdp_redirect(struct rxb_rxq *rxq, struct bpf_prog *prog,
		      struct xdp_buff *xdp)
{
	struct net_device *dev = rxq->rx->port->dev;

	if (unlikely(xdp_do_redirect(dev, xdp, prog))) {
		rxq->poll_xdp[RXB_XDP_REDIRECT_ERRORS]++;
		trace_xdp_exception(dev, prog, XDP_REDIRECT);
		return false;
	}
	rxq->poll_redirect = true;
	rxq->poll_xdp[RXB_XDP_REDIRECT]++;
	return true;
}

/* The XDP metadata kfuncs (bpf_xdp_metadata_rx_hash, _rx_timestamp): the
 * packet an XDP program runs on, per CPU, while it runs (a program runs
 * in its queue's poll, bottom halves off, and does not nest there).
 */
struct rxb_xdp_cur {
	const struct xdp_buff *xdp;
	const struct rxb_pkt *p;
};

static DEFINE_PER_CPU(struct rxb_xdp_cur, rxb_xdp_cur);

/**
 * rxb_xdp_prog_run() - run an XDP program on a packet the NIC reported,
 *	its record's hash and stamp at hand for the metadata kfuncs.
 * @prog: the program.
 * @xdp: the packet's buffer.
 * @p: the packet.
 *
 * Return: the program's verdict.
 */
u32 rxb_xdp_prog_run(struct bpf_prog *prog, struct xdp_buff *xdp,
		     const struct rxb_pkt *p)
{
	struct rxb_xdp_cur *c = this_cpu_ptr(&rxb_xdp_cur);
	u32 act;

	c->xdp = xdp;
	c->p = p;
	act = bpf_prog_run_xdp(prog, xdp);
	c->xdp = NULL;
	return act;
}

/* The packet the kfunc's program runs on, or NULL. */
static const struct rxb_pkt *rxb_xdp_cur_pkt(const struct xdp_buff *xdp)
{
	const struct rxb_xdp_cur *c = this_cpu_ptr(&rxb_xdp_cur);

	return c->xdp == xdp ? c->p : NULL;
}

/**
 * rxb_xdp_rx_timestamp() - xmo_rx_timestamp: the packet's arrival stamp,
 *	on the port's PHC, while the hwtstamp receive filter is "all" (as
 *	the stack gets it: the rings have stamp rings then).
 * @xdp: the program's buffer.
 * @ts: set to the stamp, nanoseconds.
 *
 * Return: 0, or -ENODATA (receive stamps off).
 */
int rxb_xdp_rx_timestamp(const struct xdp_buff *xdp, u64 *ts)
{
	const struct rxb_pkt *p = rxb_xdp_cur_pkt(xdp);

	if (!p || !p->ts)
		return -ENODATA;
	*ts = p->ts;
	return 0;
}

/**
 * rxb_xdp_rx_hash() - xmo_rx_hash: the NIC's Toeplitz hash and what it
 *	covered.
 * @xdp: the program's buffer.
 * @hash: set to the hash.
 * @family: set to 4 or 6 (the frame's IP version), 0 for neither.
 * @l4: set to IPPROTO_TCP or IPPROTO_UDP when the hash covers the ports
 *	(RXB_CQE_F_L4_HASH), 0 when it covers the addresses only.
 *
 * The record says whether the hash covers ports or addresses only; which
 * IP version and transport it hashed are read from the frame's headers,
 * as the NIC's parser found them (rss.c).
 *
 * Return: 0, or -ENODATA: no hash (not IP, a kTLS offload word in its
 *	place), or the port's rxhash feature off.
 */
int rxb_xdp_rx_hash(const struct xdp_buff *xdp, u32 *hash, u8 *family,
		    u8 *l4)
{
	const struct rxb_pkt *p = rxb_xdp_cur_pkt(xdp);
	const u8 *d = xdp->data;
	u32 len = xdp->data_end - xdp->data;
	u16 proto;
	u8 hf;

	if (!p || !(xdp->rxq->dev->features & NETIF_F_RXHASH))
		return -ENODATA;
	hf = p->flags & RXB_CQE_F_TLS_META;
	if (!hf || hf == RXB_CQE_F_TLS_META)
		return -ENODATA;
	*hash = p->hash;
	*family = 0;
	*l4 = 0;
	proto = len >= ETH_HLEN ? d[12] << 8 | d[13] : 0;
	if (proto == ETH_P_IP && len >= ETH_HLEN + 10) {
		*family = 4;
		if (hf & RXB_CQE_F_L4_HASH)
			*l4 = d[ETH_HLEN + 9];
	} else if (proto == ETH_P_IPV6 && len >= ETH_HLEN + 7) {
		*family = 6;
		if (hf & RXB_CQE_F_L4_HASH)
			*l4 = d[ETH_HLEN + 6];
	}
	return 0;
}

static int rxb_xmo_rx_timestamp(const struct xdp_md *ctx, u64 *ns)
{
	return rxb_xdp_rx_timestamp((const struct xdp_buff *)ctx, ns);
}

static int rxb_xmo_rx_hash(const struct xdp_md *ctx, u32 *hash,
			   enum xdp_rss_hash_type *type)
{
	u8 family, l4;
	int err;

	err = rxb_xdp_rx_hash((const struct xdp_buff *)ctx, hash, &family,
			      &l4);
	if (err)
		return err;
	if (family == 4)
		*type = l4 == IPPROTO_TCP ? XDP_RSS_TYPE_L4_IPV4_TCP :
			l4 == IPPROTO_UDP ? XDP_RSS_TYPE_L4_IPV4_UDP :
			XDP_RSS_TYPE_L3_IPV4;
	else if (family == 6)
		*type = l4 == IPPROTO_TCP ? XDP_RSS_TYPE_L4_IPV6_TCP :
			l4 == IPPROTO_UDP ? XDP_RSS_TYPE_L4_IPV6_UDP :
			XDP_RSS_TYPE_L3_IPV6;
	else
		*type = XDP_RSS_TYPE_L2;
	return 0;
}

static const struct xdp_metadata_ops rxb_xdp_metadata_ops = {
	.xmo_rx_timestamp	= rxb_xmo_rx_timestamp,
	.xmo_rx_hash		= rxb_xmo_rx_hash,
};

/**
 * rxb_xdp_set_metadata_ops() - the port's XDP metadata kfuncs, where the
 *	kernel has them.
 * @dev: the port, not registered yet.
 */
void rxb_xdp_set_metadata_ops(struct net_device *dev)
{
	rxb_netdev_set_xdp_metadata_ops(dev, &rxb_xdp_metadata_ops);
}

/**
 * rxb_xdp_run() - run the port's XDP program on a received packet.
 * @rxq: the queue, in its NAPI poll.
 * @prog: the program.
 * @p: the packet, from the ring model's poll; on XDP_PASS, updated to what
 *	the program left (length, buffer after a copy, no checksum).
 * @nfrags: fragments of a multi-buffer frame in the shared info of its
 *	first page (rx.c, scatter buffers), which hold its last
 *	xdp_frags_size bytes; on XDP_PASS, what the program left.
 * @head: on XDP_PASS, where the packet now starts in its page.
 * @meta: on XDP_PASS, bytes of metadata the program put before it.
 *
 * Return: true on XDP_PASS (the caller builds the skb), false when the
 * packet was consumed: sent, redirected or dropped.
 */
bool rxb_xdp_run(struct rxb_rxq *rxq, struct bpf_prog *prog,
		 struct rxb_pkt *p, unsigned int *nfrags, unsigned int *head,
		 unsigned int *meta)
{
	struct rxb_rx *rx = rxq->rx;
	struct xdp_rxq_info *xrxq = &rxq->xdp_rxq;
	struct skb_shared_info *sh = NULL;
	struct xdp_buff xdp;
	u32 act, frags_len = 0;
	void *hard;

	if ((p->frag || !p->cookie) && !rxb_xdp_linearize(rxq, p)) {
		if (p->cookie)
			rxb_rx_put_pkt(rxq, p, 0);
		rxq->poll_drops++;
		return false;
	}
	if (p->pool_q != rxq->qid) {
		xrxq = &rxq->xdp_rxq_alt;
		xrxq->mem = rx->rxq[p->pool_q].xdp_rxq.mem;
	}
	hard = rxb_buf_va(p->cookie);
	if (*nfrags) {
		sh = rxb_rx_shinfo(rx, p->cookie);
		frags_len = sh->xdp_frags_size;
	}
	xdp_init_buff(&xdp, rxb_rx_buf_size(rx), xrxq);
	xdp_prepare_buff(&xdp, hard, rx->bl.headroom, p->len - frags_len,
			 true);
	if (*nfrags)
		xdp_buff_set_frags_flag(&xdp);
	act = rxb_xdp_prog_run(prog, &xdp, p);
	/* bpf_xdp_adjust_tail() may have dropped fragments, or all of them. */
	*nfrags = xdp_buff_has_frags(&xdp) ? sh->nr_frags : 0;
	switch (act) {
	case XDP_PASS:
		*head = xdp.data - hard;
		*meta = xdp.data - xdp.data_meta;
		p->len = xdp.data_end - xdp.data +
			 (*nfrags ? sh->xdp_frags_size : 0);
		/* The program may have changed what the NIC summed. */
		p->flags &= ~RXB_CQE_F_CSUM;
		rxq->poll_xdp[RXB_XDP_PASS]++;
		return true;
	case XDP_TX:
		if (!rxb_xdp_tx_queue(rxq, prog, &xdp))
			break;
		return false;
	case XDP_REDIRECT:
		if (!rxb_rx_direct(rxq, p->pool_q) && !rxq->poll_no_direct) {
			/* Frames returned before the end of the poll go
			 * back to their pool the slow way.
			 */
			xdp_set_return_frame_no_direct();
			rxq->poll_no_direct = true;
		}
		if (!rxb_xdp_redirect(rxq, prog, &xdp))
			break;
		return false;
	default:	/* XDP_DROP, XDP_ABORTED or invalid */
		rxb_xdp_count_drop(rxq, prog, act);
		break;
	}
	rxb_rx_put_pkt(rxq, p, *nfrags);
	return false;
}

/**
 * rxb_xdp_flush() - end of a batch of rxb_xdp_run(): send its XDP_TX
 * frames, flush its redirects.
 * @rxq: the queue, in its NAPI poll.
 */
void rxb_xdp_flush(struct rxb_rxq *rxq)
{
	unsigned int n = rxq->xdp_ntx, i, sent;

	if (n) {
		sent = rxb_xdp_wire(rxq->rx->port, rxq->qid, rxq->xdp_tx, n,
				    false, true);
		for (i = sent; i < n; i++)
			xdp_return_frame(rxq->xdp_tx[i]);
		rxq->poll_xdp[RXB_XDP_TX] += sent;
		rxq->poll_xdp[RXB_XDP_TX_ERRORS] += n - sent;
		rxq->xdp_ntx = 0;
	}
	if (rxq->poll_redirect) {
		xdp_do_flush();
		rxq->poll_redirect = false;
	}
	if (rxq->poll_no_direct) {
		xdp_clear_return_frame_no_direct();
		rxq->poll_no_direct = false;
	}
}

/**
 * rxb_xdp_mtu_check() - may @prog run with MTU @mtu?
 * @dev: the port.
 * @mtu: an MTU.
 * @prog: a program, or NULL.
 * @extack: for the reason of a refusal, or NULL.
 *
 * Return: 0, or -EOPNOTSUPP when @mtu's frames do not fit one buffer and
 * @prog does not take multi-buffer frames.
 */
int rxb_xdp_mtu_check(struct net_device *dev, int mtu,
		      const struct bpf_prog *prog,
		      struct netlink_ext_ack *extack)
{
	if (!prog || mtu <= RXB_XDP_MAX_MTU || prog->aux->xdp_has_frags)
		return 0;
	NL_SET_ERR_MSG_MOD(extack,
			   "MTU too large for an XDP program without frags support");
	netdev_err(dev, "MTU %d above %lu: the XDP program does not support frags\n",
		   mtu, (unsigned long)RXB_XDP_MAX_MTU);
	return -EOPNOTSUPP;
}

/* Record whether a program is attached (struct rxb_cfg.xdp); rebuild the
 * rings when that changes their buffers (RXB_XDP_WHOLE_PAGES).
 */
static int rxb_xdp_set_cfg(struct rxb_port *port, bool on,
			   struct netlink_ext_ack *extack)
{
	struct rxb_buf_layout old, new;
	struct rxb_cfg cfg = port->cfg;
	int err;

	cfg.xdp = on;
	rxb_rx_buf_layout(&port->cfg, &old);
	rxb_rx_buf_layout(&cfg, &new);
	if (old.size != new.size) {
		err = rxb_reconfigure(port, &cfg, extack);
		if (err)
			return err;
	}
	port->cfg.xdp = on;
	return 0;
}

static int rxb_xdp_setup(struct net_device *dev, struct bpf_prog *prog,
			 struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	struct bpf_prog *old;
	int err;

	err = rxb_xdp_mtu_check(dev, dev->mtu, prog, extack);
	if (err)
		return err;
	/* Whole pages before a program runs (RXB_XDP_WHOLE_PAGES). */
	if (prog && !port->cfg.xdp) {
		err = rxb_xdp_set_cfg(port, true, extack);
		if (err)
			return err;
	}
	/* Each poll reads the pointer once: a poll runs the old program or
	 * the new one, and the old one is freed after an RCU grace period,
	 * when no poll runs it any more.
	 */
	old = rtnl_dereference(port->xdp_prog);
	rcu_assign_pointer(port->xdp_prog, prog);
	if (old)
		bpf_prog_put(old);
	/* Half pages again once none runs; whole pages stay if it fails. */
	if (!prog && port->cfg.xdp)
		rxb_xdp_set_cfg(port, false, NULL);
	return 0;
}

/**
 * rxb_xdp_bpf() - ndo_bpf: attach, replace or remove the XDP program.
 * @dev: the port; RTNL held.
 * @bpf: the command.
 *
 * Return: 0 or a negative error.
 */
int rxb_xdp_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	switch (bpf->command) {
	case XDP_SETUP_PROG:
		return rxb_xdp_setup(dev, bpf->prog, bpf->extack);
	case XDP_SETUP_XSK_POOL:
		return rxb_xsk_pool_setup(dev, bpf->xsk.pool, bpf->xsk.queue_id);
	default:
		return -EINVAL;
	}
}
