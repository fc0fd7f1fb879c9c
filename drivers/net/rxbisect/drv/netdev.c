// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect net_device: a back-to-back pair of ports.
 *
 * Transmit hands each frame to the peer port's emulated NIC, as a cable
 * would; the NIC's Tx engine does the segmentation and checksum offloads it
 * advertises in software, frame by frame, before the frame goes on the wire.
 * Inline (the default engine) that runs here, in ndo_start_xmit; with an
 * engine thread (engine=cpuN) ndo_start_xmit only rings the transmit
 * doorbell (rxb_nic_tx_post()) and the NIC's thread does the work, behind
 * a Tx ring of tx_ring_size frames per queue (ethtool -G tx).
 */
#include <linux/capability.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/vmalloc.h>
#include <net/rtnetlink.h>
#include <net/tls.h>
#include "rxbisect.h"

/**
 * rxb_get_qstats() - cumulative counters of receive queue @q.
 * @port: the port.
 * @q: queue.
 * @st: filled with the ring model's counters of every configuration so far.
 * @xst: filled with the queue's driver, vector and page_pool counters.
 */
void rxb_get_qstats(struct rxb_port *port, unsigned int q,
		    struct rxb_qstats *st, struct rxb_qxstats *xst)
{
	unsigned int i;

	spin_lock_bh(&port->stats_lock);
	*st = port->qbase[q];
	*xst = port->xbase[q];
	if (port->live && q < port->live->nqueues) {
		struct rxb_qstats live;

		rxb_model_qstats_read(port->live->model, q, &live);
		for (i = 0; i < RXB_QSTATS_NUM; i++) {
			const struct rxb_stat_desc *d = &rxb_qstats_desc[i];

			*(u64 *)((char *)st + d->off) += rxb_stat_get(&live, d);
		}
		rxb_rxq_stats_add(port->live, q, xst);
		xst->pp_size = port->live->rxq[q].pp_size;
	}
	spin_unlock_bh(&port->stats_lock);
	/* A statistics register of the NIC, counting since power-on. */
	xst->irqs = rxb_nic_vec_irqs(port->nic, q);
}

/**
 * rxb_get_txq_counts() - read Tx queue @q's counters.
 * @port: the port.
 * @q: queue.
 * @c: filled with a consistent snapshot of them.
 */
void rxb_get_txq_counts(const struct rxb_port *port, unsigned int q,
			struct rxb_txq_counts *c)
{
	const struct rxb_txq_stats *ts = &port->txs[q];
	struct rxb_nic_txq_counters nc;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&ts->syncp);
		c->packets = u64_stats_read(&ts->packets);
		c->bytes = u64_stats_read(&ts->bytes);
		c->drops = u64_stats_read(&ts->drops);
		c->xdp_xmit = u64_stats_read(&ts->xdp_xmit);
		c->xdp_xmit_errors = u64_stats_read(&ts->xdp_xmit_errors);
		c->stops = u64_stats_read(&ts->stops);
		c->wakes = u64_stats_read(&ts->wakes);
	} while (u64_stats_fetch_retry(&ts->syncp, start));
	/* The NIC's registers of the queue. */
	rxb_nic_tx_read_q(port->nic, q, &nc);
	c->drops += nc.drops;
	c->engine = nc.engine;
	c->inflight = rxb_nic_tx_pending(port->nic, q) +
		      rxb_xdpq_inflight(port, q);
}

/* The standard counters (ip -s link):
 *  rx_packets, rx_bytes: packets the driver handed to the stack, only;
 *  rx_dropped: packets the driver dropped (no skb, a DMA error completion)
 *	and frames written to rings torn down before they were received;
 *  rx_missed_errors: frames the NIC dropped for want of a buffer or of
 *	completion ring room, or because its rings were down;
 *  rx_fifo_errors: frames a full NIC engine ingress FIFO dropped;
 *  rx_length_errors: runt and oversize frames;
 *  rx_errors: rx_length_errors + rx_fifo_errors.
 */
static void rxb_get_stats64(struct net_device *dev,
			    struct rtnl_link_stats64 *s)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_nic_counters nc;
	struct rxb_txq_counts tx;
	struct rxb_qxstats xst;
	struct rxb_qstats st;
	unsigned int q;

	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		rxb_get_qstats(port, q, &st, &xst);
		rxb_get_txq_counts(port, q, &tx);
		s->rx_packets += xst.packets;
		s->rx_bytes += xst.bytes;
		s->rx_dropped += xst.skb_drops + xst.dma_errors;
		s->rx_missed_errors += st.nobuf_drops + st.ring_full_drops;
		s->rx_length_errors += st.oversize_drops;
		s->tx_packets += tx.packets;
		s->tx_bytes += tx.bytes;
		s->tx_dropped += tx.drops;
	}
	rxb_nic_read_counters(port->nic, &nc);
	s->rx_length_errors += nc.runt_drops + nc.oversize_drops;
	s->rx_missed_errors += nc.stopped_drops;
	s->rx_fifo_errors = nc.fifo_drops;
	spin_lock_bh(&port->stats_lock);
	s->rx_dropped += port->flushed;
	spin_unlock_bh(&port->stats_lock);
	s->rx_errors = s->rx_length_errors + s->rx_fifo_errors;
}

/* Per-queue statistics of the netdev netlink family (qstats; kernels with
 * netdev_stat_ops, see compat.h).  The numbers are those of ethtool -S for
 * the same queue, accumulated over reconfigurations as there:
 *  rx packets, bytes:	rx<q>_stack_packets, rx<q>_stack_bytes (handed to
 *			the stack, as ip -s link counts them);
 *  rx alloc-fail:	rx<q>_alloc_fails;
 *  rx hw-drop-overruns: rx<q>_nobuf_drops + rx<q>_ring_full_drops;
 *  rx hw-drops:	those + rx<q>_oversize_drops + rx<q>_dma_errors;
 *  tx packets, bytes, hw-drops: tx<q>_packets, tx<q>_bytes, tx<q>_drops;
 *  tx stop, wake: tx<q>_stops, tx<q>_wakes.
 * The base holds the queues beyond the live count and the NIC's own drops
 * (runt, oversize, stopped, FIFO), so that base plus live queues add up to
 * the device's totals (ip -s link's rx/tx packets and bytes).
 */
/* Set @rx to the sum of queues [@from, @to).  Only the counters the port
 * keeps are set: the others stay unreported.
 */
static void rxb_qstats_rx_sum(struct rxb_port *port, unsigned int from,
			      unsigned int to, struct netdev_queue_stats_rx *rx)
{
	u64 packets = 0, bytes = 0, alloc_fail = 0, overruns = 0, drops = 0;
	struct rxb_qxstats xst;
	struct rxb_qstats st;

	for (; from < to; from++) {
		rxb_get_qstats(port, from, &st, &xst);
		packets += xst.packets;
		bytes += xst.bytes;
		alloc_fail += st.alloc_fails;
		overruns += st.nobuf_drops + st.ring_full_drops;
		drops += st.oversize_drops + xst.dma_errors;
	}
	rx->packets = packets;
	rx->bytes = bytes;
	rx->alloc_fail = alloc_fail;
	rx->hw_drop_overruns = overruns;
	rx->hw_drops = overruns + drops;
}

/* Set @tx to the sum of queues [@from, @to), as rxb_qstats_rx_sum(). */
static void rxb_qstats_tx_sum(struct rxb_port *port, unsigned int from,
			      unsigned int to, struct netdev_queue_stats_tx *tx)
{
	u64 packets = 0, bytes = 0, drops = 0, stops = 0, wakes = 0;
	struct rxb_txq_counts c;

	for (; from < to; from++) {
		rxb_get_txq_counts(port, from, &c);
		packets += c.packets;
		bytes += c.bytes;
		drops += c.drops;
		stops += c.stops;
		wakes += c.wakes;
	}
	tx->packets = packets;
	tx->bytes = bytes;
	tx->hw_drops = drops;
	tx->stop = stops;
	tx->wake = wakes;
}

static void rxb_get_queue_stats_rx(struct net_device *dev, int idx,
				   struct netdev_queue_stats_rx *rx)
{
	rxb_qstats_rx_sum(netdev_priv(dev), idx, idx + 1, rx);
}

static void rxb_get_queue_stats_tx(struct net_device *dev, int idx,
				   struct netdev_queue_stats_tx *tx)
{
	rxb_qstats_tx_sum(netdev_priv(dev), idx, idx + 1, tx);
}

/* RTNL held, as for the live queues' calls that follow. */
static void rxb_get_base_stats(struct net_device *dev,
			       struct netdev_queue_stats_rx *rx,
			       struct netdev_queue_stats_tx *tx)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_nic_counters nc;

	rxb_qstats_rx_sum(port, dev->real_num_rx_queues, RXB_MAX_QUEUES, rx);
	rxb_qstats_tx_sum(port, dev->real_num_tx_queues, RXB_MAX_QUEUES, tx);
	rxb_nic_read_counters(port->nic, &nc);
	rx->hw_drop_overruns += nc.stopped_drops + nc.fifo_drops;
	rx->hw_drops += nc.runt_drops + nc.oversize_drops + nc.stopped_drops +
			nc.fifo_drops;
}

static const struct netdev_stat_ops rxb_stat_ops = {
	.get_queue_stats_rx	= rxb_get_queue_stats_rx,
	.get_queue_stats_tx	= rxb_get_queue_stats_tx,
	.get_base_stats		= rxb_get_base_stats,
};

/**
 * rxb_csum_offload_ok() - can the DMA engine fill in this frame's L4
 * checksum (see nic.c)?
 * @skb: a frame with CHECKSUM_PARTIAL.
 *
 * Return: true when its checksum start and offset lie inside the frame.
 */
bool rxb_csum_offload_ok(const struct sk_buff *skb)
{
	unsigned int start = skb_checksum_start_offset(skb);

	return start >= ETH_HLEN && !(start & 1) && !(skb->csum_offset & 1) &&
	       start + skb->csum_offset + sizeof(__sum16) <= skb->len;
}

/**
 * rxb_wire() - put one frame on the wire towards @peer.
 * @peer: the peer port.
 * @ts: counters of the sending Tx queue, whose lock is held.
 * @skb: the frame; consumed.
 */
static void rxb_wire(struct rxb_port *peer, struct rxb_txq_stats *ts,
		     struct sk_buff *skb)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL && !rxb_csum_offload_ok(skb) &&
	    skb_checksum_help(skb)) {
		rxb_txq_drop(ts);
		kfree_skb(skb);
		return;
	}
	rxb_txq_sent(ts, skb->len);
	rxb_nic_ingress(peer->nic, skb);
}

/**
 * rxb_tx_burst() - put a burst of frames on the port's wire from one of its
 *	Tx queues: XDP_TX, ndo_xdp_xmit, an AF_XDP socket's Tx ring and the
 *	NIC's own TX commands all send through here.
 * @port: the port.
 * @sender: who sends: the queue the frames belong to (XDP_TX and AF_XDP:
 *	the channel they came in on; a TX command: the queue of its command
 *	ring), or the sending CPU (smp_processor_id()) for frames of no
 *	queue of the port's (ndo_xdp_xmit).
 * @src: the frames, taken one at a time, in order.
 *
 * The Tx queue is @sender modulo the port's real number of Tx queues, one
 * rule for every sender, as veth picks a queue for a redirected frame by
 * the sending CPU and netdevsim folds a frame's queue mapping onto its
 * peer's queues: a channel's frames leave from its own Tx queue (the
 * numbers of Rx and Tx queues are equal, as the channels are combined),
 * and while a reconfiguration has fewer Tx than Rx queues they share one.
 * The frames go to the lower device, else to the peer port's NIC, under
 * the Tx queue's lock and counted in its counters (tx<q>_packets, bytes,
 * drops; @src->xmit_n: xdp_xmit, xdp_xmit_errors).  With no wire (no peer,
 * no lower device) the frames are dropped, counted, if @src->drain, and
 * left to the caller otherwise.  With @src->post and an engine thread the
 * frames are posted to the queue's XDP Tx ring instead (xdp.c), and the
 * NIC's engine does the work; the wire's counters then count when it
 * sends.  Bottom halves off.
 *
 * Return: the frames taken from @src (sent, or dropped and counted).
 */
unsigned int rxb_tx_burst(struct rxb_port *port, unsigned int sender,
			  struct rxb_tx_src *src)
{
	unsigned int nq = READ_ONCE(port->dev->real_num_tx_queues), qi, n = 0;
	struct net_device *peer, *lower;
	struct rxb_txq_stats *ts;
	struct netdev_queue *txq;
	struct sk_buff *skb;

	if (unlikely(!nq))
		return 0;
	qi = sender % nq;
	txq = netdev_get_tx_queue(port->dev, qi);
	ts = &port->txs[qi];
	rcu_read_lock();
	lower = rcu_dereference(port->lower);
	peer = rcu_dereference(port->peer);
	if (unlikely(!lower && !peer && !src->drain))
		goto out;
	__netif_tx_lock(txq, smp_processor_id());
	if (src->post && rxb_xdpq_async(port, qi)) {
		n = src->post(src, port, qi, rxb_xdpq_room(port, qi));
		if (src->flush)
			rxb_xdpq_ring(port, qi);
		goto counted;
	}
	while ((skb = src->next(src))) {
		n++;
		if (IS_ERR(skb) || unlikely(!lower && !peer)) {
			if (!IS_ERR(skb))
				kfree_skb(skb);
			rxb_txq_drop(ts);
			continue;
		}
		skb_set_queue_mapping(skb, qi);
		if (lower)
			rxb_lower_xmit(port, lower, skb);
		else
			rxb_wire(netdev_priv(peer), ts, skb);
	}
counted:
	if (src->xmit_n) {
		u64_stats_update_begin(&ts->syncp);
		u64_stats_add(&ts->xdp_xmit, n);
		u64_stats_add(&ts->xdp_xmit_errors, src->xmit_n - n);
		u64_stats_update_end(&ts->syncp);
	}
	__netif_tx_unlock(txq);
out:
	rcu_read_unlock();
	return n;
}

static void rxb_xmit_one(struct rxb_port *port, struct sk_buff *skb)
{
	struct rxb_txq_stats *ts = &port->txs[skb_get_queue_mapping(skb)];
	struct net_device *peer_dev;
	struct sk_buff *segs, *seg, *next;
	struct net_device *lower;

	rcu_read_lock();
	lower = rcu_dereference(port->lower);
	if (lower) {
		rxb_lower_xmit(port, lower, skb);
		rcu_read_unlock();
		return;
	}
	peer_dev = rcu_dereference(port->peer);
	if (unlikely(!peer_dev)) {
		rxb_txq_drop(ts);
		goto out;
	}
	if (!skb_is_gso(skb)) {
		rxb_wire(netdev_priv(peer_dev), ts, skb);
		rcu_read_unlock();
		return;
	}
	/* The Tx engine's TSO: MSS-sized frames, checksums left to DMA. */
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	if (IS_ERR_OR_NULL(segs)) {
		rxb_txq_drop(ts);
		goto out;
	}
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		rxb_wire(netdev_priv(peer_dev), ts, seg);
	}
out:
	rcu_read_unlock();
	consume_skb(skb);
}

/* Frames one ndo_start_xmit posts at most: a TLS frame and its dump. */
#define RXB_TX_MAX_POSTS	2

/* Has Tx queue @q's ring room for the posts of one more xmit?  The NIC's
 * producer and consumer indices; 0 in flight when it runs inline.
 */
static bool rxb_tx_room(struct rxb_port *port, unsigned int q)
{
	return rxb_nic_tx_pending(port->nic, q) + RXB_TX_MAX_POSTS <=
	       READ_ONCE(port->cfg.tx_ring_size);
}

/* Does Tx queue @txq have no qdisc (noqueue, the default: IFF_NO_QUEUE)?
 * A stopped queue then drops what the stack sends it, with a complaint,
 * so the driver neither stops it nor runs byte queue limits on it: a full
 * ring drops.  Within ndo_start_xmit (RCU-bh).
 */
static bool rxb_txq_noqueue(struct netdev_queue *txq)
{
	return !rcu_dereference_bh(txq->qdisc)->enqueue;
}

/* Stop Tx queue @q if its ring has no room for another xmit; its lock
 * held, a qdisc on it.  Return: true when it stays stopped.
 */
static bool rxb_tx_maybe_stop(struct rxb_port *port, struct netdev_queue *txq,
			      unsigned int q)
{
	struct rxb_txq_stats *ts = &port->txs[q];

	if (likely(rxb_tx_room(port, q)) || rxb_txq_noqueue(txq))
		return false;
	netif_tx_stop_queue(txq);
	u64_stats_update_begin(&ts->syncp);
	u64_stats_inc(&ts->stops);
	u64_stats_update_end(&ts->syncp);
	/* Pairs with smp_mb() in rxb_tx_done(): either the NIC's completion
	 * sees the queue stopped and wakes it, or this sees the consumer
	 * index it advanced before and restarts the queue: it cannot stay
	 * stopped with its ring drained.
	 */
	smp_mb__after_atomic();
	if (!rxb_tx_room(port, q))
		return true;
	netif_tx_start_queue(txq);
	return false;
}

/**
 * rxb_tx_bql_bytes() - what a frame posted to the NIC's Tx engine counts
 *	in its queue's byte queue limits.
 * @port: the port.
 * @q: the Tx queue, whose lock is held (ndo_start_xmit).
 * @skb: the frame.
 *
 * Return: its length, or 0 on a queue without a qdisc (no BQL there).
 */
u32 rxb_tx_bql_bytes(struct rxb_port *port, unsigned int q,
		     const struct sk_buff *skb)
{
	return rxb_txq_noqueue(netdev_get_tx_queue(port->dev, q)) ? 0 :
	       skb->len;
}

/**
 * rxb_tx_posted() - account a frame posted to the NIC's Tx engine.
 * @port: the port.
 * @q: its Tx queue, whose lock is held.
 * @bytes: what it was posted with (rxb_tx_bql_bytes()), which its
 *	completion reports.
 */
void rxb_tx_posted(struct rxb_port *port, unsigned int q, u32 bytes)
{
	if (bytes)
		netdev_tx_sent_queue(netdev_get_tx_queue(port->dev, q), bytes);
}

/* The NIC's transmit completion (its Tx interrupt): @frames posted frames
 * of queue @q are done, @bytes of them counted in its byte queue limits.  From the NIC's Tx
 * engine, bottom halves off; calls never overlap (BQL needs that).
 */
static void rxb_tx_done(void *arg, unsigned int q, unsigned int frames,
			unsigned int bytes)
{
	struct rxb_port *port = arg;
	struct net_device *dev = port->dev;
	struct netdev_queue *txq = netdev_get_tx_queue(dev, q);
	struct rxb_txq_stats *ts = &port->txs[q];

	netdev_tx_completed_queue(txq, frames, bytes);
	rxb_ptp_tx_done(port);
	/* Pairs with smp_mb__after_atomic() in rxb_tx_maybe_stop(): the
	 * consumer index the NIC advanced before this is seen by an xmit
	 * that stops the queue after the test below.  A port going down
	 * is not woken: dev_close() clears netif_running() and waits for an
	 * RCU grace period, which this call is within, before ndo_stop.
	 */
	smp_mb();
	if (likely(!netif_tx_queue_stopped(txq)) || !netif_running(dev) ||
	    rxb_nic_tx_pending(port->nic, q) >
	    READ_ONCE(port->cfg.tx_ring_size) / 2)
		return;
	/* Below half full: wake it, under its lock (no xmit runs). */
	__netif_tx_lock(txq, smp_processor_id());
	if (netif_tx_queue_stopped(txq) && rxb_tx_room(port, q)) {
		netif_tx_wake_queue(txq);
		u64_stats_update_begin(&ts->syncp);
		u64_stats_inc(&ts->wakes);
		u64_stats_update_end(&ts->syncp);
	}
	__netif_tx_unlock(txq);
}

static netdev_tx_t rxb_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	unsigned int q = skb_get_queue_mapping(skb);
	struct netdev_queue *txq = netdev_get_tx_queue(dev, q);
	struct sk_buff_head out;
	u32 bytes, tag = 0;

	/* The ring full: with no qdisc to hold the frame, drop it; else
	 * the queue was stopped (or the ring shrank, ethtool -G tx).
	 */
	if (unlikely(!rxb_tx_room(port, q))) {
		if (rxb_txq_noqueue(txq)) {
			rxb_txq_drop(&port->txs[q]);
			kfree_skb(skb);
			return NETDEV_TX_OK;
		}
		if (rxb_tx_maybe_stop(port, txq, q))
			return NETDEV_TX_BUSY;
	}
	if (likely(!tls_is_skb_tx_device_offloaded(skb))) {
		bytes = rxb_tx_bql_bytes(port, q, skb);
		if (unlikely(skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP))
			tag = rxb_ptp_tx_request(port, skb);
		/* After the request: no software stamp for a frame whose
		 * hardware stamp is in progress.
		 */
		skb_tx_timestamp(skb);
		if (!rxb_nic_tx_post(port->nic, q, skb, false, bytes, tag)) {
			rxb_xmit_one(port, skb);
			/* Inline, the frame has left: the timestamp unit
			 * writes its stamp back, the completion reads it.
			 */
			if (tag) {
				rxb_nic_tx_tstamp(port->nic, tag);
				rxb_ptp_tx_done(port);
			}
			return NETDEV_TX_OK;
		}
		/* The doorbell: the NIC's engine thread does the rest. */
		rxb_tx_posted(port, q, bytes);
		rxb_tx_maybe_stop(port, txq, q);
		return NETDEV_TX_OK;
	}
	/* The NIC's TLS engine; inline, its frames come back to go out. */
	skb_tx_timestamp(skb);
	__skb_queue_head_init(&out);
	rxb_tls_xmit(port, skb, &out);
	while ((skb = __skb_dequeue(&out)))
		rxb_xmit_one(port, skb);
	rxb_tx_maybe_stop(port, txq, q);
	return NETDEV_TX_OK;
}

static void rxb_carrier_update(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(port->peer);
	struct net_device *lower = rtnl_dereference(port->lower);

	if (lower) {
		netif_stacked_transfer_operstate(lower, dev);
		return;
	}
	if (peer && netif_running(dev) && netif_running(peer)) {
		netif_carrier_on(dev);
		netif_carrier_on(peer);
	} else {
		netif_carrier_off(dev);
		if (peer)
			netif_carrier_off(peer);
	}
}

static int rxb_open(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_engine *old;
	struct rxb_rx *rx;

	rx = rxb_rx_create(port, &port->cfg);
	if (IS_ERR(rx))
		return PTR_ERR(rx);
	rxb_rx_start(port, rx);
	if (port->cfg.mp.engine &&
	    rxb_nic_engine_start(port->nic, port->cfg.mp.engine - 1,
				 rxb_cfg_pipes(&port->cfg), &old))
		netdev_warn(dev, "cannot start the NIC engine thread: inline\n");
	netif_tx_start_all_queues(dev);
	rxb_carrier_update(dev);
	return 0;
}

static int rxb_stop(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	netif_tx_stop_all_queues(dev);
	rxb_carrier_update(dev);
	rxb_nic_engine_stop(port->nic, NULL);
	rxb_rx_stop(port);
	/* No poll reclaims the XDP Tx rings any more: give every frame
	 * back (page_pool pages, AF_XDP descriptors).
	 */
	rxb_xdpq_quiesce(port);
	rxb_ptp_tx_flush(port);
	return 0;
}

/* Refuse a reconfiguration: @msg for the caller (static, as extack needs)
 * and the log, since ethtool -L, devlink and module parameters have no
 * extack in this kernel.
 */
static int rxb_reconf_refuse(struct net_device *dev, int err, const char *msg,
			     struct netlink_ext_ack *extack)
{
	if (extack)
		extack->_msg = msg;
	netdev_err(dev, "reconfiguration refused: %s (%d)\n", msg, err);
	return err;
}

/* Check @cfg as the model will; a warning of the model goes to @extack. */
static int rxb_reconf_check(struct rxb_port *port, const struct rxb_cfg *cfg,
			    struct netlink_ext_ack *extack)
{
	struct rxb_model_cfg mcfg;
	const char *msg;
	int err;

	if (cfg->mp.engine && !cpu_online(cfg->mp.engine - 1))
		return rxb_reconf_refuse(port->dev, -EINVAL,
					 "the engine CPU is not online", extack);
	if (!rxb_engine_cpus_ok(cfg->mp.engine, cfg->mp.engines))
		return rxb_reconf_refuse(port->dev, -EINVAL,
					 "the CPUs of the engine's pipelines are not all online",
					 extack);
	/* The split keeps a frame's headers in a linear host buffer and
	 * copies its payload there for the stack (hds.c): one page.
	 */
	if (cfg->mp.nicmem_split && cfg->mtu > RXB_LINEAR_MTU)
		return rxb_reconf_refuse(port->dev, -EINVAL,
					 "nicmem_split takes frames that fit one buffer: lower the MTU first",
					 extack);
	rxb_rx_model_cfg(cfg, &mcfg);
	err = rxb_model_validate(cfg->model, &mcfg, &msg);
	if (err)
		return rxb_reconf_refuse(port->dev, err, msg, extack);
	err = rxb_xsk_cfg_check(port, cfg, extack);
	if (err)
		return err;
	if (cfg->model->advise) {
		msg = cfg->model->advise(&mcfg);
		if (msg) {
			netdev_warn(port->dev, "%s: %s\n", cfg->model->name, msg);
			if (extack)
				extack->_msg = msg;	/* a warning: no error */
		}
	}
	return 0;
}

/* The stack's queue count: both directions, an increase can fail. */
static int rxb_set_num_queues(struct rxb_port *port, unsigned int n)
{
	struct net_device *dev = port->dev;

	if (n > dev->real_num_rx_queues &&
	    rxb_fault_step(&port->fault, RXB_RF_QUEUES))
		return -ENOMEM;
	return netif_set_real_num_queues(dev, n, n);
}

/* Run the NIC on the engine of @cfg, its pipelines: the new threads take
 * the frames from now on; the engine it replaces goes on with those it
 * holds until rxb_reconf_commit() stops it.
 */
static int rxb_reconf_engine(struct rxb_reconf *rc)
{
	struct rxb_port *port = rc->port;
	u32 engine = rc->cfg.mp.engine, pipes = rxb_cfg_pipes(&rc->cfg);
	struct rxb_engine *old;
	int err;

	if (!engine || (engine == port->cfg.mp.engine &&
			rxb_nic_engine_running(port->nic) == pipes))
		return 0;
	if (rxb_fault_step(&port->fault, RXB_RF_ENGINE))
		return -ENOMEM;
	err = rxb_nic_engine_start(port->nic, engine - 1, pipes, &old);
	if (err)
		return err;
	rc->old_engine = old;
	rc->new_engine = true;
	return 0;
}

static void rxb_reconf_abort(struct rxb_reconf *rc)
{
	struct rxb_port *port = rc->port;

	if (rc->new_engine) {
		/* Back to the old thread (or inline), the new one drained. */
		rxb_nic_engine_revert(port->nic, rc->old_engine);
	}
	/* A decrease cannot fail. */
	WARN_ON(netif_set_real_num_queues(port->dev, rc->old_nqueues,
					  rc->old_nqueues));
	if (rc->rx)
		rxb_rx_destroy(rc->rx);
}

/* Everything that can fail, without touching what runs. */
static int rxb_reconf_prepare(struct rxb_reconf *rc,
			      struct netlink_ext_ack *extack)
{
	struct rxb_port *port = rc->port;
	struct net_device *dev = port->dev;
	int err;

	err = rxb_reconf_check(port, &rc->cfg, extack);
	if (err)
		return err;
	rc->rx = NULL;
	rc->old_engine = NULL;
	rc->new_engine = false;
	rc->old_nqueues = dev->real_num_rx_queues;
	rc->running = netif_running(dev);
	if (rc->running) {
		rc->rx = rxb_fault_step(&port->fault, RXB_RF_RINGS) ?
			 ERR_PTR(-ENOMEM) : rxb_rx_create(port, &rc->cfg);
		if (IS_ERR(rc->rx)) {
			err = PTR_ERR(rc->rx);
			rc->rx = NULL;
			return rxb_reconf_refuse(dev, err,
						 "cannot allocate the new rings",
						 extack);
		}
	}
	/* An increase now, while the old rings run; a decrease at commit. */
	if (rc->cfg.nqueues > rc->old_nqueues) {
		err = rxb_set_num_queues(port, rc->cfg.nqueues);
		if (err) {
			rxb_reconf_refuse(dev, err,
					  "cannot grow the stack's queue count",
					  extack);
			goto err;
		}
	}
	if (rc->running) {
		err = rxb_reconf_engine(rc);
		if (err) {
			rxb_reconf_refuse(dev, err,
					  "cannot start the NIC engine thread",
					  extack);
			goto err;
		}
	}
	return 0;
err:
	rxb_reconf_abort(rc);
	return err;
}

/* What cannot fail: quiesce and free the old rings, start the new.
 *
 * Never queue by queue (rxb_rx_queue_restart()): what a reconfiguration
 * changes is the ring model's instance as a whole.  A model switch
 * replaces every ring with another architecture's, a ring size the one
 * size all the instance's rings are allocated with, a queue count the
 * instance's queues, RSS and, in the shared-ring models, which queues
 * share a ring; a queue restart keeps the instance and resets one queue's
 * rings in place.
 */
static void rxb_reconf_commit(struct rxb_reconf *rc)
{
	struct rxb_port *port = rc->port;

	if (rc->running) {
		if (rc->old_engine)
			rxb_nic_engine_stop(port->nic, rc->old_engine);
		else if (!rc->cfg.mp.engine)
			rxb_nic_engine_stop(port->nic, NULL);
		rxb_rx_stop(port);
	}
	/* No queue receives now: the stack may see a smaller count. */
	WARN_ON(netif_set_real_num_queues(port->dev, rc->cfg.nqueues,
					  rc->cfg.nqueues));
	if (rc->running)
		rxb_rx_start(port, rc->rx);
	port->cfg = rc->cfg;
	rxb_nic_tls_set_size(port->nic, port->cfg.mp.tls_contexts);
	rxb_xdp_set_features(port->dev, rxb_xsk_zc_ok(port, &port->cfg));
}

/**
 * rxb_reconfigure_many() - apply new receive configurations to ports, all
 * or none.
 * @rc: one entry per port, @port and @cfg set.
 * @n: entries.
 * @extack: for the reason of a failure.
 *
 * Everything that can fail is done first for every port: the new rings of
 * running ports are built, the stack's queue counts grown and new engine
 * threads started, while the old rings keep receiving.  If any of that
 * fails, it is undone on every port, which is left exactly as it was.
 * Only then are the old rings quiesced and freed and the new ones started.
 * Counters carry over (rxb_rx_stop() folds them).  RTNL held.
 *
 * Return: 0 or a negative error.
 */
int rxb_reconfigure_many(struct rxb_reconf *rc, unsigned int n,
			 struct netlink_ext_ack *extack)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = rxb_reconf_prepare(&rc[i], extack);
		if (err) {
			while (i--)
				rxb_reconf_abort(&rc[i]);
			return err;
		}
	}
	for (i = 0; i < n; i++)
		rxb_reconf_commit(&rc[i]);
	return 0;
}

/**
 * rxb_reconfigure() - apply a new receive configuration to one port.
 * @port: the port; RTNL held.
 * @cfg: the new configuration.
 * @extack: for the reason of a failure.
 *
 * See rxb_reconfigure_many(): a failure leaves the port as it was.
 *
 * Return: 0 or a negative error.
 */
int rxb_reconfigure(struct rxb_port *port, const struct rxb_cfg *cfg,
		    struct netlink_ext_ack *extack)
{
	struct rxb_reconf rc = { .port = port, .cfg = *cfg };

	return rxb_reconfigure_many(&rc, 1, extack);
}

/* A new MTU that changes the receive buffers' layout (half a page, one
 * page, scatter buffers of so many pages, larger pages:
 * rxb_rx_buf_layout()) rebuilds
 * the rings, as a real NIC's driver reopens its queues; the rest only
 * moves the NIC's max-frame register.
 */
static int rxb_change_mtu(struct net_device *dev, int mtu)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *lower = rtnl_dereference(port->lower);
	struct rxb_buf_layout old, new;
	struct rxb_cfg cfg = port->cfg;
	int err;

	/* The core has checked min_mtu..max_mtu. */
	if (lower && mtu > lower->mtu) {
		netdev_err(dev, "MTU %d refused: above the MTU %u of the lower device %s\n",
			   mtu, lower->mtu, netdev_name(lower));
		return -EINVAL;
	}
	err = rxb_xdp_mtu_check(dev, mtu, rtnl_dereference(port->xdp_prog),
				NULL) ?: rxb_xsk_mtu_check(dev, mtu);
	if (err)
		return err;
	cfg.mtu = mtu;
	rxb_rx_buf_layout(&port->cfg, &old);
	rxb_rx_buf_layout(&cfg, &new);
	if (old.order == new.order && old.segs == new.segs &&
	    old.size == new.size) {
		port->cfg.mtu = mtu;
		rxb_xdp_set_features(dev, rxb_xsk_zc_ok(port, &port->cfg));
		goto out;
	}
	/* No frame longer than the new buffers once they are posted; a
	 * longer MTU takes effect once they are.
	 */
	if (mtu < dev->mtu)
		rxb_nic_set_max_frame(port->nic, mtu + ETH_HLEN + VLAN_HLEN);
	err = rxb_reconfigure(port, &cfg, NULL);
	if (err) {
		rxb_nic_set_max_frame(port->nic,
				      dev->mtu + ETH_HLEN + VLAN_HLEN);
		return err;
	}
out:
	dev->mtu = mtu;
	rxb_nic_set_max_frame(port->nic, mtu + ETH_HLEN + VLAN_HLEN);
	return 0;
}

static int rxb_set_features(struct net_device *dev,
			    netdev_features_t features)
{
	struct rxb_port *port = netdev_priv(dev);
	u32 loc;
	int err;

	/* ntuple off: the NIC's rules go (as ice and ixgbe clear theirs),
	 * else they would go on steering and dropping with the feature off.
	 * Before any register is written: a failure leaves the features.
	 */
	if (!(features & NETIF_F_NTUPLE)) {
		while (rxb_nic_ntuple_locs(port->nic, &loc, 1)) {
			err = rxb_nic_ntuple_delete(port->nic, loc);
			if (err)
				return err;
		}
	}
	/* The NIC's "checksum enable" register. */
	rxb_nic_set_rx_csum(port->nic, features & NETIF_F_RXCSUM);
	return 0;
}

static __maybe_unused struct devlink_port *
rxb_get_devlink_port(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	return port->rdev ? &port->rdev->dl_ports[port->index] : NULL;
}

static int rxb_get_iflink(const struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *peer;
	int iflink;

	rcu_read_lock();
	/* The lower device of a port on one, else the peer port. */
	peer = rcu_dereference(port->lower) ?: rcu_dereference(port->peer);
	iflink = peer ? peer->ifindex : 0;
	rcu_read_unlock();
	return iflink;
}

static void rxb_uninit(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	rxb_ptp_fini(port);
	list_del_init(&port->list);
}

/* A port stacked on a lower device (lower.c) transmits through the
 * lower's queue with its own xmit lock held: its own lock classes keep
 * lockdep from taking that for recursion, as for vlan and macvlan.
 */
/**
 * struct rxb_phy_src - frames the NIC sends itself, for rxb_tx_burst().
 * @src: the burst's source.
 * @dev: the port.
 * @frames: the frames.
 */
struct rxb_phy_src {
	struct rxb_tx_src src;
	struct net_device *dev;
	struct sk_buff_head *frames;
};

static struct sk_buff *rxb_phy_next(struct rxb_tx_src *src)
{
	struct rxb_phy_src *p = container_of(src, struct rxb_phy_src, src);
	struct sk_buff *skb = __skb_dequeue(p->frames);

	if (skb) {
		skb->dev = p->dev;
		skb_reset_mac_header(skb);
		skb->protocol = eth_hdr(skb)->h_proto;
	}
	return skb;
}

/* The port's PHY: frames the NIC sends itself (its header/data split's
 * TX commands) from its queue @q, in the NIC's context, bottom halves off:
 * onto the cable to the peer's NIC, or the lower device, from the Tx queue
 * of channel @q (rxb_tx_burst()).
 */
static void rxb_phy_xmit(void *arg, unsigned int q,
			 struct sk_buff_head *frames)
{
	struct rxb_port *port = arg;
	struct rxb_phy_src p = {
		.src.next = rxb_phy_next,
		.src.drain = true,
		.dev = port->dev,
		.frames = frames,
	};

	rxb_tx_burst(port, q, &p.src);
	/* None are left but with no Tx queue at all. */
	__skb_queue_purge(frames);
}

static int rxb_init(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	int err;

	netdev_lockdep_set_classes(dev);
	/* Freed by rxb_free(), which register_netdevice() also calls if it
	 * fails after this.
	 */
	port->nic = rxb_nic_create(dev, port->cfg.nqueues, dev->mtu,
				   port->cfg.mp.tls_contexts);
	if (!port->nic)
		return -ENOMEM;
	rxb_nic_set_wire(port->nic, rxb_phy_xmit, port);
	rxb_nic_set_tx_done(port->nic, rxb_tx_done, port);
	err = rxb_xdpq_alloc(port);
	if (err)
		return err;
	rxb_xdp_set_features(dev, rxb_xsk_zc_ok(port, &port->cfg));
	return rxb_ptp_init(port);
}

static const struct net_device_ops rxb_netdev_ops = {
	.ndo_init		= rxb_init,
	.ndo_uninit		= rxb_uninit,
	.ndo_open		= rxb_open,
	.ndo_stop		= rxb_stop,
	.ndo_start_xmit		= rxb_xmit,
	.ndo_get_stats64	= rxb_get_stats64,
	.ndo_change_mtu		= rxb_change_mtu,
	.ndo_set_features	= rxb_set_features,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_get_iflink		= rxb_get_iflink,
	.ndo_bpf		= rxb_xdp_bpf,
	.ndo_xdp_xmit		= rxb_xdp_xmit,
	.ndo_xsk_wakeup		= rxb_xsk_wakeup,
	RXB_NDO_HWTSTAMP(rxb_ptp_hwtstamp_get, rxb_ptp_hwtstamp_set,
			 rxb_ptp_ioctl)
	RXB_NDO_GET_DEVLINK_PORT(rxb_get_devlink_port)
};

static void rxb_free(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	rxb_debugfs_port_del(port);
	rxb_nic_destroy(port->nic);
	rxb_xdpq_free(port);
	vfree(port->work_buf);
}

static void rxb_setup(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	unsigned int q;

	ether_setup(dev);
	dev->netdev_ops = &rxb_netdev_ops;
	dev->ethtool_ops = &rxb_ethtool_ops;
	rxb_xdp_set_metadata_ops(dev);
	rxb_netdev_set_stat_ops(dev, &rxb_stat_ops);
	rxb_netdev_set_queue_mgmt_ops(dev, &rxb_queue_mgmt_ops);
	dev->rtnl_link_ops = &rxb_link_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = rxb_free;
	/* eth_mac_addr() on a running port too: the NIC keeps no copy of
	 * the address (it hands every frame up; eth_type_trans() sorts them).
	 */
	dev->priv_flags |= IFF_NO_QUEUE | IFF_LIVE_ADDR_CHANGE;
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->hw_features = NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_RXCSUM |
			   NETIF_F_RXHASH | NETIF_F_GRO | NETIF_F_TSO |
			   NETIF_F_TSO6 | NETIF_F_TSO_ECN | NETIF_F_HIGHDMA |
			   NETIF_F_NTUPLE;
	dev->features = dev->hw_features;
	dev->vlan_features = dev->features & ~NETIF_F_NTUPLE;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = RXB_MAX_MTU;
	eth_hw_addr_random(dev);

	port->dev = dev;
	/* The kTLS offload: offered, off (tls.c). */
	rxb_tls_init(port);
	INIT_LIST_HEAD(&port->list);
	port->cfg = rxb_default_cfg;
	spin_lock_init(&port->stats_lock);
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		u64_stats_init(&port->txs[q].syncp);
		port->knobs[q].irq_cpu = -1;
		port->knobs[q].port = port;
		port->knobs[q].q = q;
	}
}

static void rxb_port_own(struct rxb_port *port, struct rxb_dev *rdev,
			 unsigned int index)
{
	port->rdev = rdev;
	port->index = index;
	rdev->ports[index] = port;
	rxb_netdev_set_devlink_port(port->dev, &rdev->dl_ports[index]);
}

/**
 * rxb_port_prepare() - a new port starts with the module's defaults.
 * @dev: the port, not registered yet.
 *
 * Return: 0 or a negative error.
 */
int rxb_port_prepare(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	port->cfg.nqueues = min(port->cfg.nqueues, dev->num_rx_queues);
	port->cfg.nqueues = min(port->cfg.nqueues, dev->num_tx_queues);
	return netif_set_real_num_queues(dev, port->cfg.nqueues,
					 port->cfg.nqueues);
}

/**
 * rxb_pair_create() - create and register a port pair.
 * @net: namespace of the new ports.
 * @dev: the first port, allocated by rtnetlink, or NULL to allocate one.
 * @rdev: the bus device that owns both ports, or NULL.
 * @extack: for errors.
 *
 * Called with RTNL held.  The second port is named rxb%d.  Ports of a bus
 * device live as long as the device: "ip link del" refuses them, and a
 * namespace that goes away returns them to the initial namespace.
 *
 * Return: 0 or a negative error.
 */
int rxb_pair_create(struct net *net, struct net_device *dev,
		    struct rxb_dev *rdev, struct netlink_ext_ack *extack)
{
	struct net_device *peer, *own = NULL;
	struct rxb_port *port, *pport;
	int err;

	if (!dev) {
		own = alloc_netdev_mqs(sizeof(struct rxb_port), "rxb%d",
				       NET_NAME_ENUM, rxb_setup,
				       RXB_MAX_QUEUES, RXB_MAX_QUEUES);
		if (!own)
			return -ENOMEM;
		dev_net_set(own, net);
		dev = own;
	}
	peer = alloc_netdev_mqs(sizeof(struct rxb_port), "rxb%d",
				NET_NAME_ENUM, rxb_setup, dev->num_tx_queues,
				dev->num_rx_queues);
	if (!peer) {
		err = -ENOMEM;
		goto err_free_own;
	}
	dev_net_set(peer, net);
	if (rdev) {
		dev->rtnl_link_ops = &rxb_bus_link_ops;
		peer->rtnl_link_ops = &rxb_bus_link_ops;
		rxb_port_own(netdev_priv(dev), rdev, 0);
		rxb_port_own(netdev_priv(peer), rdev, 1);
		/* /sys/class/net/rxbN/device: the bus device. */
		SET_NETDEV_DEV(dev, &rdev->bdev->dev);
		SET_NETDEV_DEV(peer, &rdev->bdev->dev);
	}
	err = rxb_port_prepare(peer);
	if (err)
		goto err_free_peer;
	err = rxb_port_prepare(dev);
	if (err)
		goto err_free_peer;

	/* dev first, so that rxb0 and rxb1 are one pair in that order. */
	err = register_netdevice(dev);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot register the first port");
		goto err_free_peer;
	}
	err = register_netdevice(peer);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot register the peer port");
		goto err_unreg_dev;
	}
	netif_carrier_off(dev);
	netif_carrier_off(peer);
	port = netdev_priv(dev);
	pport = netdev_priv(peer);
	rcu_assign_pointer(port->peer, peer);
	rcu_assign_pointer(pport->peer, dev);
	list_add_tail(&port->list, &rxb_ports);
	list_add_tail(&pport->list, &rxb_ports);
	rxb_debugfs_port_add(port);
	rxb_debugfs_port_add(pport);
	return 0;

err_unreg_dev:
	unregister_netdevice(dev);
	free_netdev(peer);
	return err;
err_free_peer:
	free_netdev(peer);
err_free_own:
	if (own)
		free_netdev(own);
	return err;
}

static int rxb_newlink(struct net_device *dev,
		       struct rtnl_newlink_params *params,
		       struct netlink_ext_ack *extack)
{
	struct nlattr **tb = params->tb;

	/* As for a bus device (new_device): CAP_NET_ADMIN in the network
	 * namespace, which a user namespace of one's own gives, is not
	 * enough.  Each port pins up to a GiB of page_pool memory no memcg
	 * is charged for.
	 */
	if (!capable(CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "creating rxbisect ports needs CAP_NET_ADMIN in the initial user namespace");
		return -EPERM;
	}
	if (tb[IFLA_LINK])
		return rxb_lower_create(rtnl_newlink_link_net(params), dev,
					nla_get_u32(tb[IFLA_LINK]), extack);
	return rxb_pair_create(dev_net(dev), dev, NULL, extack);
}

RXB_RTNL_NEWLINK_DEFINE(rxb_newlink)

static void rxb_dellink(struct net_device *dev, struct list_head *head)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(port->peer);

	rxb_lower_detach(port);
	unregister_netdevice_queue(dev, head);
	RCU_INIT_POINTER(port->peer, NULL);
	if (peer) {
		struct rxb_port *pport = netdev_priv(peer);

		RCU_INIT_POINTER(pport->peer, NULL);
		unregister_netdevice_queue(peer, head);
	}
}

/**
 * rxb_pair_destroy() - unregister a port and its peer.
 * @port: either port; RTNL held.
 */
void rxb_pair_destroy(struct rxb_port *port)
{
	LIST_HEAD(list);

	rxb_dellink(port->dev, &list);
	unregister_netdevice_many(&list);
}

static int rxb_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	if ((tb[IFLA_NUM_TX_QUEUES] &&
	     nla_get_u32(tb[IFLA_NUM_TX_QUEUES]) > RXB_MAX_QUEUES) ||
	    (tb[IFLA_NUM_RX_QUEUES] &&
	     nla_get_u32(tb[IFLA_NUM_RX_QUEUES]) > RXB_MAX_QUEUES)) {
		NL_SET_ERR_MSG_MOD(extack, "at most 32 queues per port");
		return -EINVAL;
	}
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG_MOD(extack, "invalid link address length");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG_MOD(extack, "invalid link address");
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

static unsigned int rxb_get_num_queues(void)
{
	return RXB_MAX_QUEUES;
}

static struct net *rxb_get_link_net(const struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(port->lower) ?:
				  rtnl_dereference(port->peer);

	return peer ? dev_net(peer) : dev_net(dev);
}

/* Ports of a bus device: same kind, but no dellink (see rxb_pair_create()).
 * Not registered: only referenced by those ports.
 */
struct rtnl_link_ops rxb_bus_link_ops = {
	.kind			= RXB_DRV_NAME,
	.priv_size		= sizeof(struct rxb_port),
	.netns_refund		= true,
	.get_link_net		= rxb_get_link_net,
};

struct rtnl_link_ops rxb_link_ops = {
	.kind			= RXB_DRV_NAME,
	.priv_size		= sizeof(struct rxb_port),
	.setup			= rxb_setup,
	.validate		= rxb_validate,
	RXB_RTNL_NEWLINK(rxb_newlink),
	.dellink		= rxb_dellink,
	.get_num_tx_queues	= rxb_get_num_queues,
	.get_num_rx_queues	= rxb_get_num_queues,
	.get_link_net		= rxb_get_link_net,
};
