// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect net_device: a back-to-back pair of ports.
 *
 * Transmit hands each frame to the peer port's emulated NIC, as a cable
 * would; the NIC's Tx engine does the segmentation and checksum offloads it
 * advertises in software, frame by frame, before the frame goes on the wire.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/vmalloc.h>
#include <net/rtnetlink.h>
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
		for (i = 0; i < RXB_QSTATS_NUM; i++) {
			const struct rxb_stat_desc *d = &rxb_qstats_desc[i];

			*(u64 *)((char *)st + d->off) +=
				rxb_stat_get(&port->live->model->qstats[q], d);
		}
		rxb_rxq_stats_add(port->live, q, xst);
		xst->pp_size = port->live->rxq[q].pp_size;
	}
	spin_unlock_bh(&port->stats_lock);
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
	struct rxb_engine *eng;
	struct rxb_qxstats xst;
	struct rxb_qstats st;
	unsigned int q;

	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		rxb_get_qstats(port, q, &st, &xst);
		s->rx_packets += xst.packets;
		s->rx_bytes += xst.bytes;
		s->rx_dropped += xst.skb_drops + xst.dma_errors;
		s->rx_missed_errors += st.nobuf_drops + st.ring_full_drops;
		s->rx_length_errors += st.oversize_drops;
		s->tx_packets += READ_ONCE(port->txs[q].packets);
		s->tx_bytes += READ_ONCE(port->txs[q].bytes);
		s->tx_dropped += READ_ONCE(port->txs[q].drops);
	}
	s->rx_length_errors += atomic64_read(&port->nic.runt_drops) +
			       atomic64_read(&port->nic.oversize_drops);
	s->rx_missed_errors += atomic64_read(&port->nic.stopped_drops);
	s->rx_fifo_errors = atomic64_read(&port->nic.fifo_drops);
	rcu_read_lock();
	eng = rcu_dereference(port->engine);
	if (eng)
		s->rx_fifo_errors += atomic64_read(&eng->fifo_drops);
	rcu_read_unlock();
	spin_lock_bh(&port->stats_lock);
	s->rx_dropped += port->flushed;
	spin_unlock_bh(&port->stats_lock);
	s->rx_errors = s->rx_length_errors + s->rx_fifo_errors;
}

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

/* Put one frame on the wire towards @peer; consumes @skb. */
static void rxb_wire(struct rxb_port *peer, struct rxb_txq_stats *ts,
		     struct sk_buff *skb)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL && !rxb_csum_offload_ok(skb) &&
	    skb_checksum_help(skb)) {
		rxb_stat_inc(&ts->drops);
		kfree_skb(skb);
		return;
	}
	rxb_stat_inc(&ts->packets);
	rxb_stat_add(&ts->bytes, skb->len);
	rxb_nic_ingress(peer, skb);
}

static netdev_tx_t rxb_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_txq_stats *ts = &port->txs[skb_get_queue_mapping(skb)];
	struct net_device *peer_dev;
	struct sk_buff *segs, *seg, *next;
	struct net_device *lower;

	rcu_read_lock();
	lower = rcu_dereference(port->lower);
	if (lower) {
		rxb_lower_xmit(port, lower, skb);
		rcu_read_unlock();
		return NETDEV_TX_OK;
	}
	peer_dev = rcu_dereference(port->peer);
	if (unlikely(!peer_dev)) {
		rxb_stat_inc(&ts->drops);
		goto out;
	}
	if (!skb_is_gso(skb)) {
		rxb_wire(netdev_priv(peer_dev), ts, skb);
		rcu_read_unlock();
		return NETDEV_TX_OK;
	}
	/* The Tx engine's TSO: MSS-sized frames, checksums left to DMA. */
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	if (IS_ERR_OR_NULL(segs)) {
		rxb_stat_inc(&ts->drops);
		goto out;
	}
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		rxb_wire(netdev_priv(peer_dev), ts, seg);
	}
out:
	rcu_read_unlock();
	consume_skb(skb);
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
	struct rxb_rx *rx;

	rx = rxb_rx_create(port, &port->cfg);
	if (IS_ERR(rx))
		return PTR_ERR(rx);
	rxb_rx_start(port, rx);
	if (port->cfg.mp.engine &&
	    rxb_engine_start(port, port->cfg.mp.engine - 1))
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
	rxb_engine_stop(port);
	rxb_rx_stop(port);
	return 0;
}

static int rxb_set_num_queues(struct net_device *dev, unsigned int n)
{
	int err = netif_set_real_num_rx_queues(dev, n);

	return err ?: netif_set_real_num_tx_queues(dev, n);
}

/**
 * rxb_reconfigure() - apply a new receive configuration.
 * @port: the port; RTNL held.
 * @cfg: the new configuration.
 * @extack: for the reason of a failure.
 *
 * On a running port the new rings are built first; only then are the old
 * ones quiesced and freed, so a failure leaves the port as it was.
 *
 * Return: 0 or a negative error.
 */
int rxb_reconfigure(struct rxb_port *port, const struct rxb_cfg *cfg,
		    struct netlink_ext_ack *extack)
{
	struct net_device *dev = port->dev;
	struct rxb_model_cfg mcfg;
	struct rxb_rx *rx;
	const char *msg;
	int err;

	if (cfg->mp.engine && !cpu_online(cfg->mp.engine - 1)) {
		NL_SET_ERR_MSG_MOD(extack, "the engine CPU is not online");
		netdev_err(dev, "engine cpu%u is not online\n", cfg->mp.engine - 1);
		return -EINVAL;
	}
	rxb_rx_model_cfg(cfg, &mcfg);
	err = rxb_model_validate(cfg->model, &mcfg, &msg);
	if (err) {
		/* @msg is static, as NL_SET_ERR_MSG() requires. */
		if (extack)
			extack->_msg = msg;
		netdev_err(dev, "%s: %s\n", cfg->model->name, msg);
		return err;
	}
	if (cfg->model->advise) {
		msg = cfg->model->advise(&mcfg);
		if (msg) {
			netdev_warn(dev, "%s: %s\n", cfg->model->name, msg);
			if (extack)
				extack->_msg = msg;	/* a warning: no error */
		}
	}
	if (!netif_running(dev)) {
		port->cfg = *cfg;
		goto queues;
	}
	rx = rxb_rx_create(port, cfg);
	if (IS_ERR(rx)) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the new rings");
		return PTR_ERR(rx);
	}
	if (cfg->mp.engine != port->cfg.mp.engine)
		rxb_engine_stop(port);
	rxb_rx_stop(port);
	/* No queue receives now: the stack may see the new count. */
	err = rxb_set_num_queues(dev, cfg->nqueues);
	rxb_rx_start(port, rx);
	if (cfg->mp.engine && !rtnl_dereference(port->engine) &&
	    rxb_engine_start(port, cfg->mp.engine - 1))
		netdev_warn(dev, "cannot start the NIC engine thread: inline\n");
	port->cfg = *cfg;
	return err;
queues:
	return rxb_set_num_queues(dev, cfg->nqueues);
}

static int rxb_change_mtu(struct net_device *dev, int mtu)
{
	struct rxb_port *port = netdev_priv(dev);

	/* The core has checked min_mtu..max_mtu: a frame fits one buffer. */
	dev->mtu = mtu;
	WRITE_ONCE(port->nic.max_frame, mtu + ETH_HLEN + VLAN_HLEN);
	return 0;
}

static int rxb_set_features(struct net_device *dev,
			    netdev_features_t features)
{
	struct rxb_port *port = netdev_priv(dev);

	/* The NIC's "checksum enable" register. */
	WRITE_ONCE(port->nic.rx_csum, !!(features & NETIF_F_RXCSUM));
	return 0;
}

static struct devlink_port *rxb_get_devlink_port(struct net_device *dev)
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
	peer = rcu_dereference(port->peer);
	iflink = peer ? peer->ifindex : 0;
	rcu_read_unlock();
	return iflink;
}

static void rxb_uninit(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	list_del_init(&port->list);
}

/* A port stacked on a lower device (lower.c) transmits through the
 * lower's queue with its own xmit lock held: its own lock classes keep
 * lockdep from taking that for recursion, as for vlan and macvlan.
 */
static int rxb_init(struct net_device *dev)
{
	netdev_lockdep_set_classes(dev);
	return 0;
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
	.ndo_get_devlink_port	= rxb_get_devlink_port,
};

static void rxb_free(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	rxb_debugfs_port_del(port);
	rxb_nic_fini(&port->nic);
	vfree(port->work_buf);
}

static void rxb_setup(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	unsigned int q;

	ether_setup(dev);
	dev->netdev_ops = &rxb_netdev_ops;
	dev->ethtool_ops = &rxb_ethtool_ops;
	dev->rtnl_link_ops = &rxb_link_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = rxb_free;
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->hw_features = NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_RXCSUM |
			   NETIF_F_GRO | NETIF_F_TSO | NETIF_F_TSO6 |
			   NETIF_F_TSO_ECN | NETIF_F_HIGHDMA;
	dev->features = dev->hw_features;
	dev->vlan_features = dev->features;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = RXB_MAX_MTU;
	eth_hw_addr_random(dev);

	port->dev = dev;
	INIT_LIST_HEAD(&port->list);
	port->cfg = rxb_default_cfg;
	spin_lock_init(&port->stats_lock);
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		port->knobs[q].irq_cpu = -1;
		port->knobs[q].port = port;
		port->knobs[q].q = q;
	}
	rxb_nic_init(&port->nic, port->cfg.nqueues, dev->mtu);
}

static void rxb_port_own(struct rxb_port *port, struct rxb_dev *rdev,
			 unsigned int index)
{
	port->rdev = rdev;
	port->index = index;
	rdev->ports[index] = port;
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
	rxb_nic_init(&port->nic, port->cfg.nqueues, dev->mtu);
	return rxb_set_num_queues(dev, port->cfg.nqueues);
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

static int rxb_newlink(struct net *src_net, struct net_device *dev,
		       struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	if (tb[IFLA_LINK])
		return rxb_lower_create(src_net, dev,
					nla_get_u32(tb[IFLA_LINK]), extack);
	return rxb_pair_create(dev_net(dev), dev, NULL, extack);
}

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
	struct net_device *peer = rtnl_dereference(port->peer);

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
	.newlink		= rxb_newlink,
	.dellink		= rxb_dellink,
	.get_num_tx_queues	= rxb_get_num_queues,
	.get_num_rx_queues	= rxb_get_num_queues,
	.get_link_net		= rxb_get_link_net,
};
