// SPDX-License-Identifier: GPL-2.0
/*
 * The emulation behind a real NIC: "ip link add link eth0 name rxb0 type
 * rxbisect" makes a single port whose wire is eth0.  Every frame eth0
 * receives enters rxb0's emulated NIC (an rx_handler takes it before the
 * stack), is DMA-emulated into the ring model's buffers and reaches the
 * stack through rxb0's rings and NAPI; frames sent on rxb0 leave through
 * eth0.  rxb0 takes eth0's MAC address so that eth0's filters pass its
 * traffic, and follows its changes; its MTU is at most eth0's and follows
 * eth0's changes when it was the same or is above the new one.  Removing
 * either device, in any order, is safe: rxb0 goes away with its lower
 * device.  (The netdevice notifier here also renames the
 * debugfs directory of any rxbisect port that is renamed.)
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>
#include "rxbisect.h"

static rx_handler_result_t rxb_lower_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb, *segs, *seg, *next;
	struct rxb_port *port = rcu_dereference(skb->dev->rx_handler_data);

	if (unlikely(skb->pkt_type == PACKET_LOOPBACK))
		return RX_HANDLER_PASS;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	/* Back to the frame as it was on the wire. */
	skb_push(skb, skb->data - skb_mac_header(skb));
	if (skb_vlan_tag_present(skb)) {
		skb = __vlan_hwaccel_push_inside(skb);
		if (!skb)
			return RX_HANDLER_CONSUMED;
	}
	if (!skb_is_gso(skb)) {
		if (skb->ip_summed == CHECKSUM_PARTIAL &&
		    !rxb_csum_offload_ok(skb) && skb_checksum_help(skb)) {
			kfree_skb(skb);
			return RX_HANDLER_CONSUMED;
		}
		rxb_nic_ingress(port->nic, skb);
		return RX_HANDLER_CONSUMED;
	}
	/* The lower device's GRO/LRO merged frames: split them again. */
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	consume_skb(skb);
	if (IS_ERR_OR_NULL(segs))
		return RX_HANDLER_CONSUMED;
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		rxb_nic_ingress(port->nic, seg);
	}
	return RX_HANDLER_CONSUMED;
}

/**
 * rxb_lower_xmit() - send a frame of a port on its lower device.
 * @port: the port.
 * @lower: its lower device.
 * @skb: the frame; consumed.
 */
void rxb_lower_xmit(struct rxb_port *port, struct net_device *lower,
		    struct sk_buff *skb)
{
	struct rxb_txq_stats *ts = &port->txs[skb_get_queue_mapping(skb)];
	unsigned int len = skb->len;

	skb->dev = lower;
	if (dev_queue_xmit(skb) == NET_XMIT_SUCCESS)
		rxb_txq_sent(ts, len);
	else
		rxb_txq_drop(ts);
}

/**
 * rxb_lower_create() - register @dev as a port on lower device @ifindex.
 * @net: namespace of the lower device.
 * @dev: the new port, allocated by rtnetlink.
 * @ifindex: the lower device.
 * @extack: for errors.
 *
 * Return: 0 or a negative error.
 */
int rxb_lower_create(struct net *net, struct net_device *dev, int ifindex,
		     struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	struct net_device *lower;
	int err;

	lower = __dev_get_by_index(net, ifindex);
	if (!lower) {
		NL_SET_ERR_MSG_MOD(extack, "no such lower device");
		return -ENODEV;
	}
	if (lower->type != ARPHRD_ETHER || lower->flags & IFF_LOOPBACK ||
	    lower->rtnl_link_ops == &rxb_link_ops) {
		NL_SET_ERR_MSG_MOD(extack, "lower device: not an Ethernet NIC");
		return -EINVAL;
	}
	err = rxb_port_prepare(dev);
	if (err)
		return err;
	eth_hw_addr_set(dev, lower->dev_addr);
	dev->mtu = min(dev->mtu, lower->mtu);
	dev->max_mtu = min_t(unsigned int, dev->max_mtu,
			     lower->max_mtu ?: lower->mtu);
	err = register_netdevice(dev);
	if (err)
		return err;
	err = netdev_rx_handler_register(lower, rxb_lower_rx, port);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "lower device: it already has an rx_handler");
		goto err_unregister;
	}
	err = netdev_upper_dev_link(lower, dev, extack);
	if (err)
		goto err_rx_handler;
	rcu_assign_pointer(port->lower, lower);
	list_add_tail(&port->list, &rxb_ports);
	netif_stacked_transfer_operstate(lower, dev);
	rxb_debugfs_port_add(port);
	return 0;

err_rx_handler:
	netdev_rx_handler_unregister(lower);
err_unregister:
	unregister_netdevice(dev);
	return err;
}

/**
 * rxb_lower_detach() - stop receiving from and sending to the lower device.
 * @port: a port with a lower device; RTNL held.
 */
void rxb_lower_detach(struct rxb_port *port)
{
	struct net_device *lower = rtnl_dereference(port->lower);

	if (!lower)
		return;
	netdev_upper_dev_unlink(lower, port->dev);
	/* Waits for rx_handler users (synchronize_net()). */
	netdev_rx_handler_unregister(lower);
	RCU_INIT_POINTER(port->lower, NULL);
}

/* The lower's MTU changed from @old: a port that had the same or has more
 * takes the new one (up to what it can take).
 */
static void rxb_lower_mtu(struct rxb_port *port, struct net_device *lower,
			  u32 old)
{
	struct net_device *dev = port->dev;
	unsigned int mtu = min(lower->mtu, dev->max_mtu);

	if ((dev->mtu == old || dev->mtu > lower->mtu) && dev->mtu != mtu &&
	    dev_set_mtu(dev, mtu))
		netdev_warn(dev, "cannot follow the MTU %u of %s\n", lower->mtu,
			    netdev_name(lower));
}

static void rxb_lower_addr(struct rxb_port *port, struct net_device *lower)
{
	if (ether_addr_equal(port->dev->dev_addr, lower->dev_addr))
		return;
	eth_hw_addr_set(port->dev, lower->dev_addr);
	call_netdevice_notifiers(NETDEV_CHANGEADDR, port->dev);
}

static int rxb_lower_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *lower = netdev_notifier_info_to_dev(ptr);
	struct rxb_port *port;
	LIST_HEAD(kill);

	/* Our own ports: the debugfs directory follows the name. */
	if (event == NETDEV_CHANGENAME &&
	    (lower->rtnl_link_ops == &rxb_link_ops ||
	     lower->rtnl_link_ops == &rxb_bus_link_ops)) {
		rxb_debugfs_port_rename(netdev_priv(lower));
		return NOTIFY_DONE;
	}
	if (rcu_access_pointer(lower->rx_handler) != rxb_lower_rx)
		return NOTIFY_DONE;
	port = rtnl_dereference(lower->rx_handler_data);
	switch (event) {
	case NETDEV_UNREGISTER:
		/* The wire is gone: so is the port. */
		rxb_link_ops.dellink(port->dev, &kill);
		unregister_netdevice_many(&kill);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		netif_stacked_transfer_operstate(lower, port->dev);
		break;
	case NETDEV_CHANGEMTU:
		rxb_lower_mtu(port, lower,
			      ((struct netdev_notifier_info_ext *)ptr)->ext.mtu);
		break;
	case NETDEV_CHANGEADDR:
		rxb_lower_addr(port, lower);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block rxb_lower_nb = {
	.notifier_call = rxb_lower_event,
};

int rxb_lower_init(void)
{
	return register_netdevice_notifier(&rxb_lower_nb);
}

void rxb_lower_exit(void)
{
	unregister_netdevice_notifier(&rxb_lower_nb);
}
