// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect zero-copy AF_XDP: the buffers of a queue from a socket's umem.
 *
 * A zero-copy socket bound to receive queue q hands the driver its xsk
 * buffer pool (ndo_bpf XDP_SETUP_XSK_POOL).  The driver maps the umem for
 * the NIC (the bus device: dma-direct, no IOMMU, so the bus addresses are
 * the physical addresses the NIC's DMA engine writes, nic_dma.c) and from
 * then on queue q's rxb_drv_ops.alloc_buf returns umem buffers instead of
 * page_pool pages: the ring model posts them, the NIC writes into them,
 * and the model's poll hands them up as it would a page, its handle
 * (struct rxb_buf.cookie) the xdp_buff tagged with RXB_XSK_COOKIE.  No
 * model file knows about AF_XDP: the same driver path for every ring
 * model that can take a queue's buffers from a umem (rxb_model_ops.
 * umem_bufs: privRing, rxBisect when no other queue borrows from the Ax
 * ring of q).  The others cannot: a shared ring (shRing models, COREC,
 * dshRing) hands one queue's buffers to every queue of its group, a
 * batched RxList buffer holds several packets, CEIO keeps references on
 * its buffers and fetches slow-path packets into them, and Ensō has no
 * buffers at all (streaming pipes); a zero-copy bind there is refused and
 * a default bind falls back to copy mode.
 *
 * The XDP program runs on the umem buffer in place.  XDP_REDIRECT to the
 * socket is the zero-copy receive; XDP_PASS (or no program) copies the
 * packet into an skb and gives the buffer back to the umem (counted:
 * rx<q>_xdp_copies), XDP_TX copies it into a page (the core's
 * xdp_convert_zc_to_xdp_frame()).
 *
 * The socket's Tx ring is read by the queue's poll (rxb_xsk_tx()): inline
 * the frames are sent at once; with an engine thread their descriptors
 * are posted to the XDP Tx ring of the channel's Tx queue (xdp.c), the
 * NIC reads the frames out of the umem, and the poll completes them to
 * the socket once the NIC has (rxb_xdpq_reclaim()).
 *
 * A pool comes and goes with the queue stopped: the queue management
 * API's single-queue restart where the model has it (privRing), else a
 * rebuild of the port's rings (rxb_reconfigure() with the same
 * configuration); a port that is down takes the pool at its next start.
 * A new receive configuration (rxb_rx_create()) posts no umem buffer
 * before it starts (rxb_xsk_start()): the old one may still be receiving
 * into the same pool, whose allocation side is one queue's alone.
 */
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/bpf_trace.h>
#include <net/xdp.h>
#include <net/xdp_sock_drv.h>
#include "rxbisect.h"

static struct xdp_buff *rxb_xsk_buff(void *cookie)
{
	return (struct xdp_buff *)((unsigned long)cookie & ~RXB_XSK_COOKIE);
}

/* Count umem buffers the queue takes (+1) or hands on (-1): struct
 * rxb_qknobs.xsk_held, which must be back at 0 once the socket is gone.
 */
static void rxb_xsk_held(struct rxb_rxq *rxq, int n)
{
	u64 *held = &rxq->rx->port->knobs[rxq->qid].xsk_held;

	WRITE_ONCE(*held, *held + n);
}

/**
 * rxb_xsk_alloc_buf() - rxb_drv_ops.alloc_buf of a queue with a pool.
 * @rxq: the queue, in its poll context (or stopped).
 * @buf: filled with the buffer's bus address and tagged handle.
 *
 * Return: 0, or -ENOMEM when the socket's fill ring is empty (the socket
 * is told to wake the queue up, with need_wakeup) or the queue has not
 * started yet.
 */
int rxb_xsk_alloc_buf(struct rxb_rxq *rxq, struct rxb_buf *buf)
{
	struct xsk_buff_pool *pool = rxq->xsk;
	struct xdp_buff *xdp;

	if (unlikely(!rxq->xsk_live))
		return -ENOMEM;
	xdp = xsk_buff_alloc(pool);
	if (unlikely(!xdp)) {
		if (xsk_uses_need_wakeup(pool))
			xsk_set_rx_need_wakeup(pool);
		return -ENOMEM;
	}
	if (xsk_uses_need_wakeup(pool))
		xsk_clear_rx_need_wakeup(pool);
	rxb_xsk_held(rxq, 1);
	buf->addr = xsk_buff_xdp_get_dma(xdp);
	buf->cookie = (void *)((unsigned long)xdp | RXB_XSK_COOKIE);
	return 0;
}

/**
 * rxb_xsk_free_buf() - give a umem buffer back to its pool.
 * @rxq: the pool's queue; the caller runs in its context (its poll, or
 *	the queue stopped).
 * @cookie: the buffer's tagged handle.
 */
void rxb_xsk_free_buf(struct rxb_rxq *rxq, void *cookie)
{
	rxb_xsk_held(rxq, -1);
	xsk_buff_free(rxb_xsk_buff(cookie));
}

/* XDP_PASS, or no program: the packet into an skb of its own, with the
 * metadata the program put before it; the buffer back to the umem.
 */
static struct sk_buff *rxb_xsk_copy_skb(struct rxb_rxq *rxq,
					struct xdp_buff *xdp)
{
	unsigned int meta = xdp->data_meta < xdp->data ?
			    xdp->data - xdp->data_meta : 0;
	unsigned int len = xdp->data_end - xdp->data;
	struct sk_buff *skb;

	skb = napi_alloc_skb(&rxq->napi, meta + len);
	if (likely(skb)) {
		skb_put_data(skb, xdp->data - meta, meta + len);
		if (meta) {
			__skb_pull(skb, meta);
			skb_metadata_set(skb, meta);
		}
		rxq->poll_xdp[RXB_XDP_COPIES]++;
	} else {
		rxq->poll_drops++;
	}
	xsk_buff_free(xdp);
	return skb;
}

/**
 * rxb_xsk_rx() - a packet in a umem buffer: XDP, then the stack.
 * @rxq: the queue, in its NAPI poll.
 * @prog: the port's XDP program, or NULL.
 * @p: the packet (the model's poll); on XDP_PASS its length is updated
 *	and its checksum dropped.
 *
 * Return: an skb to hand up (XDP_PASS or no program), or NULL when the
 * packet was consumed: redirected (zero-copy into the socket), sent,
 * dropped; every case counted.
 */
struct sk_buff *rxb_xsk_rx(struct rxb_rxq *rxq, struct bpf_prog *prog,
			   struct rxb_pkt *p)
{
	struct xdp_buff *xdp = rxb_xsk_buff(p->cookie);
	u32 act;

	/* Whatever the verdict, the queue no longer holds it. */
	rxb_xsk_held(rxq, -1);
	xsk_buff_set_size(xdp, p->len);
	rxb_xsk_buff_dma_sync_for_cpu(xdp, rxq->xsk);
	if (!prog)
		return rxb_xsk_copy_skb(rxq, xdp);
	act = rxb_xdp_prog_run(prog, xdp, p);
	switch (act) {
	case XDP_PASS:
		p->len = xdp->data_end - xdp->data;
		p->flags &= ~RXB_CQE_F_CSUM;
		rxq->poll_xdp[RXB_XDP_PASS]++;
		return rxb_xsk_copy_skb(rxq, xdp);
	case XDP_REDIRECT:
		if (!rxb_xdp_redirect(rxq, prog, xdp))
			break;
		return NULL;
	case XDP_TX:
		/* A copy into a page; the umem buffer is given back. */
		if (!rxb_xdp_tx_queue(rxq, prog, xdp))
			break;
		return NULL;
	default:	/* XDP_DROP, XDP_ABORTED or invalid */
		rxb_xdp_count_drop(rxq, prog, act);
		break;
	}
	xsk_buff_free(xdp);
	return NULL;
}

/* Most Tx descriptors one poll sends before it polls again. */
#define RXB_XSK_TX_BUDGET	RXB_NAPI_BUDGET

/**
 * struct rxb_xsk_src - an AF_XDP socket's Tx descriptors for rxb_tx_burst().
 * @src: the burst's source.
 * @pool: the socket's pool.
 * @n: descriptors taken.
 * @posted: they were posted to the NIC, which completes them later.
 */
struct rxb_xsk_src {
	struct rxb_tx_src src;
	struct xsk_buff_pool *pool;
	unsigned int n;
	bool posted;
};

/* The Tx engine copies the next frame out of the umem into an skb for the
 * wire; a descriptor it cannot send is dropped.
 */
static struct sk_buff *rxb_xsk_next(struct rxb_tx_src *src)
{
	struct rxb_xsk_src *x = container_of(src, struct rxb_xsk_src, src);
	struct xdp_desc desc;
	struct sk_buff *skb;

	if (x->n == RXB_XSK_TX_BUDGET || !xsk_tx_peek_desc(x->pool, &desc))
		return NULL;
	x->n++;
	skb = desc.len >= ETH_HLEN ? alloc_skb(desc.len, GFP_ATOMIC) : NULL;
	if (unlikely(!skb))
		return ERR_PTR(-ENOMEM);
	skb_put_data(skb, xsk_buff_raw_get_data(x->pool, desc.addr),
		     desc.len);
	return skb;
}

/* Post the socket's Tx descriptors to Tx queue @q's XDP Tx ring while
 * there is @room: the NIC reads the frames out of the umem.  A descriptor
 * the NIC cannot send it completes and drops, counted.
 */
static unsigned int rxb_xsk_post(struct rxb_tx_src *src,
				 struct rxb_port *port, unsigned int q,
				 u32 room)
{
	struct rxb_xsk_src *x = container_of(src, struct rxb_xsk_src, src);
	void *tag = (void *)((unsigned long)x->pool | RXB_XDPQ_XSK);
	struct xdp_desc desc;

	x->posted = true;
	while (x->n < min_t(u32, room, RXB_XSK_TX_BUDGET) &&
	       xsk_tx_peek_desc(x->pool, &desc)) {
		x->n++;
		rxb_xdpq_put(&port->xdpq[q],
			     xsk_buff_raw_get_dma(x->pool, desc.addr),
			     desc.len, false, tag);
	}
	return x->n;
}

/**
 * rxb_xsk_tx() - the socket's Tx ring on the wire of the queue's channel.
 * @rxq: a queue with a pool, in its NAPI poll (ndo_xsk_wakeup fires its
 *	vector).
 *
 * The Tx engine copies each frame out of the umem into an skb for the
 * wire (the peer port's NIC, or the lower device) from the channel's Tx
 * queue (rxb_tx_burst()).  Inline that is synchronous, so each descriptor
 * is completed at once; with an engine thread the descriptors are posted
 * (rxb_xsk_post()) and completed by rxb_xdpq_reclaim() once the NIC sent
 * them.  Counted on that Tx queue (tx<q>_packets, drops).
 *
 * Return: true when descriptors are left (the poll goes on).
 */
bool rxb_xsk_tx(struct rxb_rxq *rxq)
{
	struct rxb_xsk_src x = {
		.src.next = rxb_xsk_next,
		.src.post = rxb_xsk_post,
		.src.drain = true,
		.src.flush = true,
		.pool = rxq->xsk,
	};

	rxb_tx_burst(rxq->rx->port, rxq->qid, &x.src);
	if (x.n) {
		xsk_tx_release(x.pool);
		if (!x.posted)
			xsk_tx_completed(x.pool, x.n);
	}
	if (xsk_uses_need_wakeup(x.pool))
		xsk_set_tx_need_wakeup(x.pool);
	return x.n == RXB_XSK_TX_BUDGET;
}

/**
 * rxb_xsk_pool() - the pool queue @q of a configuration takes buffers from.
 * @port: the port.
 * @ops: the configuration's ring model.
 * @q: the queue.
 *
 * Return: the pool of a zero-copy socket bound to @q, or NULL.
 */
struct xsk_buff_pool *rxb_xsk_pool(struct rxb_port *port,
				   const struct rxb_model_ops *ops,
				   unsigned int q)
{
	return ops->umem_bufs && q < RXB_MAX_QUEUES ? port->xsk_pools[q] : NULL;
}

/**
 * rxb_xsk_start() - a queue with a pool starts: umem buffers may be posted.
 * @rxq: the queue, stopped, its XDP receive info registered.
 *
 * The pool's buffers carry the queue's XDP receive info from now on.
 */
void rxb_xsk_start(struct rxb_rxq *rxq)
{
	if (!rxq->xsk)
		return;
	xsk_pool_set_rxq_info(rxq->xsk, &rxq->xdp_rxq);
	rxq->xsk_live = true;
}

/* Can ring model @ops under configuration @cfg take queue @q's buffers
 * from a umem?  0, or an error with *@msg set.
 */
static int rxb_xsk_model_ok(const struct rxb_cfg *cfg, unsigned int q,
			    const char **msg)
{
	const struct rxb_model_ops *ops = cfg->model;
	struct rxb_model_cfg mcfg;

	if (!ops->umem_bufs) {
		*msg = "the ring model cannot take a queue's buffers from a umem";
		return -EOPNOTSUPP;
	}
	if (q >= cfg->nqueues) {
		*msg = "no such receive queue";
		return -EINVAL;
	}
	/* A split packet's payload stays in NIC memory (hds.c), which a
	 * umem buffer cannot stand for.
	 */
	if (cfg->mp.nicmem_split) {
		*msg = "the NIC splits headers from payloads (nicmem_split)";
		return -EOPNOTSUPP;
	}
	/* A umem frame is one linear buffer, never a scatter buffer. */
	if (cfg->mtu > RXB_LINEAR_MTU) {
		*msg = "the MTU's frames do not fit one buffer (multi-buffer receive)";
		return -EOPNOTSUPP;
	}
	if (!ops->umem_check)
		return 0;
	rxb_rx_model_cfg(cfg, &mcfg);
	return ops->umem_check(&mcfg, q, msg);
}

/**
 * rxb_xsk_zc_ok() - would a zero-copy socket be accepted on some queue of
 *	the port under configuration @cfg (its xdp_features)?
 * @port: the port.
 * @cfg: the configuration.
 *
 * Return: true when rxb_xsk_enable() would accept one, umem aside.
 */
bool rxb_xsk_zc_ok(const struct rxb_port *port, const struct rxb_cfg *cfg)
{
	const char *msg;
	unsigned int q;

	if (!port->rdev)
		return false;
	for (q = 0; q < cfg->nqueues; q++)
		if (!rxb_xsk_model_ok(cfg, q, &msg))
			return true;
	return false;
}

/**
 * rxb_xsk_cfg_check() - may the port take configuration @cfg with the
 *	zero-copy sockets bound to it?
 * @port: the port; RTNL held.
 * @cfg: its new configuration.
 * @extack: for the reason of a refusal, or NULL.
 *
 * Return: 0, or -EBUSY when a socket is bound to a queue that @cfg's ring
 * model cannot take from a umem, or that @cfg does not have.
 */
int rxb_xsk_cfg_check(struct rxb_port *port, const struct rxb_cfg *cfg,
		      struct netlink_ext_ack *extack)
{
	const char *msg;
	unsigned int q;

	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		if (!port->xsk_pools[q] || !rxb_xsk_model_ok(cfg, q, &msg))
			continue;
		NL_SET_ERR_MSG_MOD(extack,
				   "an AF_XDP zero-copy socket is bound to a queue the new configuration cannot keep");
		netdev_err(port->dev,
			   "reconfiguration refused: an AF_XDP zero-copy socket is bound to queue %u, and %s with %u queues: %s; close it first (-EBUSY)\n",
			   q, cfg->model->name, cfg->nqueues, msg);
		return -EBUSY;
	}
	return 0;
}

/**
 * rxb_xsk_mtu_check() - do the umem frames of every bound socket hold a
 *	frame of MTU @mtu?
 * @dev: the port; RTNL held.
 * @mtu: the new MTU.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_xsk_mtu_check(struct net_device *dev, int mtu)
{
	struct rxb_port *port = netdev_priv(dev);
	unsigned int q;

	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		struct xsk_buff_pool *pool = port->xsk_pools[q];

		if (pool && xsk_pool_get_rx_frame_size(pool) <
			    mtu + ETH_HLEN + VLAN_HLEN) {
			netdev_err(dev, "MTU %d refused: the AF_XDP zero-copy socket of queue %u has %u-byte umem frames\n",
				   mtu, q, xsk_pool_get_rx_frame_size(pool));
			return -EINVAL;
		}
	}
	return 0;
}

/* Queue @q takes its buffers from its new source: restarted alone where
 * the ring model can (its rings' buffers back to the old source, fresh
 * ones from the new), else the port's rings rebuilt.  RTNL held.
 */
static int rxb_xsk_restart(struct rxb_port *port, unsigned int q)
{
	struct rxb_rx *rx = rtnl_dereference(port->rx);

	if (!rx)
		return 0;	/* down: the next start takes it */
	if (rx->model->ops->queue_reset)
		return rxb_rx_queue_restart(port->dev, q);
	return rxb_reconfigure(port, &port->cfg, NULL);
}

static int rxb_xsk_refuse(struct net_device *dev, unsigned int q, int err,
			  const char *msg)
{
	netdev_err(dev, "AF_XDP zero-copy on queue %u refused: %s (%d)\n", q,
		   msg, err);
	return err;
}

static int rxb_xsk_enable(struct rxb_port *port, struct xsk_buff_pool *pool,
			  unsigned int q)
{
	struct net_device *dev = port->dev;
	const char *msg;
	int err;

	if (port->xsk_pools[q])
		return rxb_xsk_refuse(dev, q, -EBUSY, "a socket is bound already");
	err = rxb_xsk_model_ok(&port->cfg, q, &msg);
	if (err) {
		netdev_err(dev, "AF_XDP zero-copy on queue %u refused: ring model %s: %s (%d)\n",
			   q, port->cfg.model->name, msg, err);
		return err;
	}
	if (!port->rdev)
		return rxb_xsk_refuse(dev, q, -EOPNOTSUPP,
				      "the port has no bus device to map the umem for (ip link add)");
	if (xsk_pool_get_rx_frame_size(pool) < dev->mtu + ETH_HLEN + VLAN_HLEN)
		return rxb_xsk_refuse(dev, q, -EINVAL,
				      "umem frames are too small for the MTU");
	err = xsk_pool_dma_map(pool, &port->rdev->bdev->dev, 0);
	if (err)
		return rxb_xsk_refuse(dev, q, err, "cannot map the umem");
	port->xsk_pools[q] = pool;
	err = rxb_xsk_restart(port, q);
	if (err) {
		port->xsk_pools[q] = NULL;
		xsk_pool_dma_unmap(pool, 0);
		return rxb_xsk_refuse(dev, q, err, "cannot restart the queue");
	}
	return 0;
}

static int rxb_xsk_disable(struct rxb_port *port, unsigned int q)
{
	struct xsk_buff_pool *pool = port->xsk_pools[q];
	int err;

	if (!pool)
		return -EINVAL;
	port->xsk_pools[q] = NULL;
	/* The pool's buffers go back to it before it is unmapped: the queue
	 * must not keep any.  A restart that fails leaves the queue's old
	 * rings running on the pool, which cannot be: tear them down.
	 */
	err = rxb_xsk_restart(port, q);
	if (err) {
		netdev_err(port->dev, "AF_XDP zero-copy off on queue %u: cannot restart the queue (%d): receive stopped until the port is brought up again\n",
			   q, err);
		rxb_rx_stop(port);
	}
	/* Its Tx descriptors still on an XDP Tx ring: sent and completed
	 * to it before it goes.
	 */
	rxb_xdpq_quiesce(port);
	xsk_pool_dma_unmap(pool, 0);
	return 0;
}

/**
 * rxb_xsk_pool_setup() - ndo_bpf XDP_SETUP_XSK_POOL: a zero-copy socket's
 *	pool for queue @qid, or none.
 * @dev: the port; RTNL held.
 * @pool: the pool, or NULL when the socket goes.
 * @qid: the receive queue.
 *
 * Return: 0 or a negative error (the reason in the kernel log): the core
 * then refuses a bind with XDP_ZEROCOPY and falls back to copy mode for
 * one without either flag.
 */
int rxb_xsk_pool_setup(struct net_device *dev, struct xsk_buff_pool *pool,
		       u16 qid)
{
	struct rxb_port *port = netdev_priv(dev);

	if (qid >= RXB_MAX_QUEUES || qid >= port->cfg.nqueues) {
		if (!pool)
			return -EINVAL;
		netdev_err(dev, "AF_XDP zero-copy on queue %u refused: the port has %u receive queues\n",
			   qid, port->cfg.nqueues);
		return -EINVAL;
	}
	return pool ? rxb_xsk_enable(port, pool, qid) :
		      rxb_xsk_disable(port, qid);
}

/**
 * rxb_xsk_wakeup() - ndo_xsk_wakeup: the socket of queue @qid has filled
 *	its fill ring (or wants its Rx ring looked at): run the queue's poll.
 * @dev: the port.
 * @qid: the queue.
 * @flags: XDP_WAKEUP_RX and/or XDP_WAKEUP_TX.
 *
 * Return: 0, -ENETDOWN or -EINVAL (no zero-copy socket on @qid).
 */
int rxb_xsk_wakeup(struct net_device *dev, u32 qid, u32 flags)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_rx *rx;
	int err = 0;

	/* As rxb_queue_kick(): the vector fires with bottom halves off. */
	local_bh_disable();
	rcu_read_lock();
	rx = rcu_dereference(port->rx);
	if (!rx || !netif_running(dev))
		err = -ENETDOWN;
	else if (qid >= rx->nqueues || !READ_ONCE(rx->rxq[qid].xsk))
		err = -EINVAL;
	else	/* The queue's vector: its poll refills from the fill ring. */
		rxb_nic_vec_trigger(port->nic, qid);
	rcu_read_unlock();
	local_bh_enable();
	return err;
}
