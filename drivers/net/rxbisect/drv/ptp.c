// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect hardware timestamps: the port's PTP hardware clock and the
 * hwtstamp configuration (Documentation/rxbisect-nic.rst, "Timestamps").
 *
 * Each port's NIC has its own clock (hw/nic_ptp.c); the driver registers
 * it as a PHC (/dev/ptpN, ethtool -T's "PTP Hardware Clock") whose
 * operations are the NIC's time registers.  The NIC stamps every frame at
 * arrival and reports the stamp in the frame's record; the driver hands
 * it to the stack (skb_hwtstamps()) while the receive filter is
 * HWTSTAMP_FILTER_ALL, and to an XDP program (rxb_xdp_rx_timestamp())
 * whatever the filter.  Transmit: one stamp in flight per port, as igb
 * and ice keep: a frame with SKBTX_HW_TSTAMP is posted with a stamp
 * request while none is in flight (else counted in tx_hwtstamp_skipped);
 * the NIC writes its stamp into the port's write-back record, which the
 * transmit completion reads; a request the NIC never answered (the frame
 * dropped) is given up after a second (tx_hwtstamp_timeouts).
 */
#include <linux/etherdevice.h>
#include <linux/net_tstamp.h>
#include <linux/ptp_clock_kernel.h>
#include "rxbisect.h"

static struct rxb_port *rxb_ptp_port(struct ptp_clock_info *info)
{
	return container_of(info, struct rxb_ptp, info)->port;
}

static int rxb_ptp_gettimex64(struct ptp_clock_info *info,
			      struct timespec64 *ts,
			      struct ptp_system_timestamp *sts)
{
	struct rxb_port *port = rxb_ptp_port(info);

	ptp_read_system_prets(sts);
	*ts = ns_to_timespec64(rxb_nic_clock_read(port->nic, NULL));
	ptp_read_system_postts(sts);
	return 0;
}

static int rxb_ptp_settime64(struct ptp_clock_info *info,
			     const struct timespec64 *ts)
{
	struct rxb_port *port = rxb_ptp_port(info);

	if (ts->tv_sec < 0)
		return -EINVAL;
	rxb_nic_clock_write(port->nic, timespec64_to_ns(ts));
	return 0;
}

static int rxb_ptp_adjtime(struct ptp_clock_info *info, s64 delta)
{
	rxb_nic_clock_step(rxb_ptp_port(info)->nic, delta);
	return 0;
}

static int rxb_ptp_adjfine(struct ptp_clock_info *info, long scaled_ppm)
{
	/* The PTP core bounds it by max_adj (RXB_CLK_MAX_PPB). */
	rxb_nic_clock_trim(rxb_ptp_port(info)->nic, scaled_ppm);
	return 0;
}

static int rxb_ptp_enable(struct ptp_clock_info *info,
			  struct ptp_clock_request *rq, int on)
{
	return -EOPNOTSUPP;	/* no pins, alarms or PPS */
}

static const struct ptp_clock_info rxb_ptp_info = {
	.owner		= THIS_MODULE,
	.name		= "rxbisect",
	.max_adj	= RXB_CLK_MAX_PPB,
	.adjfine	= rxb_ptp_adjfine,
	.adjtime	= rxb_ptp_adjtime,
	.gettimex64	= rxb_ptp_gettimex64,
	.settime64	= rxb_ptp_settime64,
	.enable		= rxb_ptp_enable,
};

/**
 * rxb_ptp_init() - register the port's PHC and its transmit stamp record.
 * @port: the port, its NIC created (ndo_init).
 *
 * Return: 0 or a negative error.
 */
int rxb_ptp_init(struct rxb_port *port)
{
	struct rxb_ptp *ptp = &port->ptp;
	struct ptp_clock *clock;

	spin_lock_init(&ptp->lock);
	ptp->port = port;
	ptp->info = rxb_ptp_info;
	ptp->rec = kzalloc(sizeof(*ptp->rec), GFP_KERNEL);
	if (!ptp->rec)
		return -ENOMEM;
	clock = ptp_clock_register(&ptp->info, port->dev->dev.parent);
	if (IS_ERR(clock)) {
		kfree(ptp->rec);
		ptp->rec = NULL;
		return PTR_ERR(clock);
	}
	ptp->clock = clock;
	/* The write-back register: the record's bus address (dma-direct). */
	rxb_nic_set_tx_tstamp(port->nic, virt_to_phys(ptp->rec));
	return 0;
}

/**
 * rxb_ptp_fini() - unregister the PHC, drop a transmit stamp in flight.
 * @port: the port (ndo_uninit): nothing transmits any more.
 */
void rxb_ptp_fini(struct rxb_port *port)
{
	struct rxb_ptp *ptp = &port->ptp;

	if (!ptp->rec)
		return;
	ptp_clock_unregister(ptp->clock);
	rxb_nic_set_tx_tstamp(port->nic, 0);
	rxb_ptp_tx_flush(port);
	kfree(ptp->rec);
	ptp->rec = NULL;
}

/**
 * rxb_ptp_index() - the port's PHC index (ethtool -T).
 * @port: the port.
 *
 * Return: the index, or -1 without a clock.
 */
int rxb_ptp_index(struct rxb_port *port)
{
	return port->ptp.clock ? ptp_clock_index(port->ptp.clock) : -1;
}

/**
 * rxb_ptp_hwtstamp_set() - ndo_hwtstamp_set: apply a hwtstamp
 *	configuration (SIOCSHWTSTAMP).
 * @dev: the port's device.
 * @c: flags (none supported), tx_type (HWTSTAMP_TX_OFF or _ON) and
 *	rx_filter; on success rx_filter is set to the one applied:
 *	HWTSTAMP_FILTER_NONE, or HWTSTAMP_FILTER_ALL for any other (the NIC
 *	stamps every frame, as drivers widen a PTP filter they lack).
 * @extack: for a message, or NULL.
 *
 * Receive stamps on or off rebuild the rings of a running port, with or
 * without a stamp ring behind each ring of records (rxb_desc.h,
 * RXB_TSTAMP), as mlx5 and ice restart their queues to change the
 * completion format: with them off, the rings and every byte the NIC
 * writes are what they are without timestamps.  The NIC's receive-stamp
 * register is set before rings with stamp rings exist, and cleared once
 * none does.  RTNL held.
 *
 * Return: 0, -EINVAL for flags, -ERANGE for an unsupported transmit type
 *	or an unknown filter, or the rebuild's error (nothing changed).
 */
int rxb_ptp_hwtstamp_set(struct net_device *dev,
			 struct kernel_hwtstamp_config *c,
			 struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_ptp *ptp = &port->ptp;
	struct rxb_cfg cfg = port->cfg;
	bool rx_on;
	int err;

	if (c->flags) {
		NL_SET_ERR_MSG_MOD(extack, "no hwtstamp flag is supported");
		netdev_err(dev, "hwtstamp: flags 0x%x refused (-EINVAL)\n",
			   c->flags);
		return -EINVAL;
	}
	if (c->tx_type != HWTSTAMP_TX_OFF && c->tx_type != HWTSTAMP_TX_ON) {
		NL_SET_ERR_MSG_MOD(extack, "transmit stamps: off or on only");
		netdev_err(dev, "hwtstamp: tx_type %d refused (-ERANGE)\n",
			   c->tx_type);
		return -ERANGE;
	}
	if (c->rx_filter < HWTSTAMP_FILTER_NONE ||
	    c->rx_filter > HWTSTAMP_FILTER_NTP_ALL) {
		NL_SET_ERR_MSG_MOD(extack, "unknown receive filter");
		netdev_err(dev, "hwtstamp: rx_filter %d refused (-ERANGE)\n",
			   c->rx_filter);
		return -ERANGE;
	}
	if (c->rx_filter != HWTSTAMP_FILTER_NONE)
		c->rx_filter = HWTSTAMP_FILTER_ALL;
	rx_on = c->rx_filter == HWTSTAMP_FILTER_ALL;
	if (rx_on != cfg.rx_tstamp) {
		if (rx_on)
			rxb_nic_set_rx_tstamp(port->nic, true);
		cfg.rx_tstamp = rx_on;
		err = rxb_reconfigure(port, &cfg, extack);
		if (err) {
			rxb_nic_set_rx_tstamp(port->nic, !rx_on);
			return err;
		}
		if (!rx_on)
			rxb_nic_set_rx_tstamp(port->nic, false);
	}
	WRITE_ONCE(ptp->rx_on, rx_on);
	WRITE_ONCE(ptp->tx_on, c->tx_type == HWTSTAMP_TX_ON);
	if (!ptp->tx_on)
		rxb_ptp_tx_flush(port);
	return 0;
}

/**
 * rxb_ptp_hwtstamp_get() - ndo_hwtstamp_get: the hwtstamp configuration
 *	(SIOCGHWTSTAMP).
 * @dev: the port's device.
 * @c: set: no flags, tx_type off or on, rx_filter none or all.
 *
 * Return: 0.
 */
int rxb_ptp_hwtstamp_get(struct net_device *dev,
			 struct kernel_hwtstamp_config *c)
{
	struct rxb_port *port = netdev_priv(dev);

	c->flags = 0;
	c->tx_type = READ_ONCE(port->ptp.tx_on) ? HWTSTAMP_TX_ON :
						  HWTSTAMP_TX_OFF;
	c->rx_filter = READ_ONCE(port->ptp.rx_on) ? HWTSTAMP_FILTER_ALL :
						    HWTSTAMP_FILTER_NONE;
	return 0;
}

/**
 * rxb_ptp_ioctl() - ndo_eth_ioctl where the kernel has no ndo_hwtstamp_*
 *	(before 6.6): SIOCSHWTSTAMP and SIOCGHWTSTAMP.
 * @dev: the port's device.
 * @ifr: the request.
 * @cmd: the ioctl.
 *
 * Return: 0 or a negative error (-EOPNOTSUPP for any other ioctl).
 */
int rxb_ptp_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd)
{
	return rxb_hwtstamp_ioctl(dev, ifr, cmd, rxb_ptp_hwtstamp_get,
				  rxb_ptp_hwtstamp_set);
}

/**
 * rxb_ptp_tx_request() - a frame asks for a transmit stamp: take the
 *	port's one stamp slot for it.
 * @port: the port.
 * @skb: the frame, with SKBTX_HW_TSTAMP; a reference is kept until its
 *	stamp comes back (or is given up).
 *
 * From ndo_start_xmit, bottom halves off.
 *
 * Return: the tag to post it with, or 0 (no stamp: transmit stamps off,
 *	or another in flight).
 */
u32 rxb_ptp_tx_request(struct rxb_port *port, struct sk_buff *skb)
{
	struct rxb_ptp *ptp = &port->ptp;
	struct sk_buff *old = NULL;
	u32 tag = 0;

	if (!READ_ONCE(ptp->tx_on) || !ptp->rec)
		return 0;
	spin_lock(&ptp->lock);
	if (ptp->tx_skb && time_after(jiffies, ptp->tx_start + HZ)) {
		old = ptp->tx_skb;
		ptp->tx_skb = NULL;
		ptp->tx_timeouts++;
	}
	if (ptp->tx_skb) {
		ptp->tx_skipped++;
		goto out;
	}
	tag = ++ptp->tag ?: ++ptp->tag;
	skb_shinfo(skb)->tx_flags |= SKBTX_IN_PROGRESS;
	ptp->tx_skb = skb_get(skb);
	ptp->tx_start = jiffies;
out:
	spin_unlock(&ptp->lock);
	if (old)
		dev_kfree_skb_any(old);
	return tag;
}

/**
 * rxb_ptp_tx_done() - transmit completion: if the NIC wrote back the stamp
 *	in flight, hand it to the frame's socket (its error queue).
 * @port: the port.
 *
 * Bottom halves off.
 */
void rxb_ptp_tx_done(struct rxb_port *port)
{
	struct rxb_ptp *ptp = &port->ptp;
	struct skb_shared_hwtstamps hwts = {};
	struct sk_buff *skb;

	if (!READ_ONCE(ptp->tx_skb))
		return;
	spin_lock(&ptp->lock);
	skb = ptp->tx_skb;
	/* Acquire: pairs with the NIC's release of the tag after @ns. */
	if (!skb || le32_to_cpu(smp_load_acquire(&ptp->rec->tag)) != ptp->tag) {
		spin_unlock(&ptp->lock);
		return;
	}
	hwts.hwtstamp = ns_to_ktime(le64_to_cpu(READ_ONCE(ptp->rec->ns)));
	ptp->tx_skb = NULL;
	ptp->tx_stamps++;
	spin_unlock(&ptp->lock);
	skb_tstamp_tx(skb, &hwts);
	dev_kfree_skb_any(skb);
}

/**
 * rxb_ptp_tx_flush() - drop the transmit stamp in flight, if any.
 * @port: the port.
 */
void rxb_ptp_tx_flush(struct rxb_port *port)
{
	struct rxb_ptp *ptp = &port->ptp;
	struct sk_buff *skb;

	spin_lock_bh(&ptp->lock);
	skb = ptp->tx_skb;
	ptp->tx_skb = NULL;
	spin_unlock_bh(&ptp->lock);
	if (skb)
		dev_kfree_skb_any(skb);
}

/**
 * rxb_ptp_counters() - the driver's transmit stamp counters.
 * @port: the port.
 * @stamps: set to tx_hwtstamps: stamps handed to sockets.
 * @skipped: set to tx_hwtstamp_skipped: requests refused, one in flight.
 * @timeouts: set to tx_hwtstamp_timeouts: requests given up.
 */
void rxb_ptp_counters(struct rxb_port *port, u64 *stamps, u64 *skipped,
		      u64 *timeouts)
{
	struct rxb_ptp *ptp = &port->ptp;

	spin_lock_bh(&ptp->lock);
	*stamps = ptp->tx_stamps;
	*skipped = ptp->tx_skipped;
	*timeouts = ptp->tx_timeouts;
	spin_unlock_bh(&ptp->lock);
}

/**
 * rxb_ptp_rx() - the stamp of a received frame to its skb, if it has one.
 * @port: the port.
 * @skb: the frame.
 * @ns: the arrival time its stamp ring reported; 0: none (receive stamps
 *	off: the rings have no stamp ring, the driver half read nothing).
 */
void rxb_ptp_rx(struct rxb_port *port, struct sk_buff *skb, u64 ns)
{
	if (ns)
		skb_hwtstamps(skb)->hwtstamp = ns_to_ktime(ns);
}
