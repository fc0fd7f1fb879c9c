// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect module: parameters, and the port pairs created at load time.
 */
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>
#include "rxbisect.h"

/* Configuration of new ports, from the parameters below; under RTNL. */
struct rxb_cfg rxb_default_cfg = {
	.rx_ring_size	= RXB_DEF_RING_SIZE,
	.tx_ring_size	= RXB_DEF_TX_RING_SIZE,
	.mp = {
		.share_factor	= RXB_DEF_SHARE_FACTOR,
		.ax_ring_size	= RXB_DEF_AX_RING_SIZE,
		.ax_policy	= RXB_AX_RR,
		.notif_compress	= 1,
		.notif_timeout_us = RXB_DEF_NOTIF_US,
		.ws_window	= RXB_DEF_WS_WINDOW,
		.cache_kb	= RXB_DEF_CACHE_KB,
	},
};

/* Every port, under RTNL. */
LIST_HEAD(rxb_ports);

static unsigned int pairs = 1;
module_param(pairs, uint, 0444);
MODULE_PARM_DESC(pairs, "Port pairs created at load (rxb0/rxb1, rxb2/rxb3, ...; default 1, at most 64)");

static unsigned int queues;
module_param(queues, uint, 0444);
MODULE_PARM_DESC(queues, "Queues per port (default 0: one per online CPU, at most 32)");

static unsigned int rx_ring_size = RXB_DEF_RING_SIZE;
module_param(rx_ring_size, uint, 0444);
MODULE_PARM_DESC(rx_ring_size, "Entries per Rx ring (rxBisect: Bx ring) and completion ring of new ports: power of two, 64..8192 (default 1024)");

/* The model parameters below may also be written at run time, in
 * /sys/module/rxbisect/parameters/: the new value then applies to every
 * port, rebuilding the rings of running ones under traffic.  A value that
 * a port cannot take is refused (EINVAL, reason in dmesg) and nothing
 * changes.
 */
static bool rxb_ready;	/* module init is done: ports may exist */

static const char * const rxb_ax_policy_names[RXB_AX_NPOLICIES] = {
	[RXB_AX_RR]	= "rr",
	[RXB_AX_MOST]	= "most",
};

/* Check a port configuration as the model will; log why it is refused. */
static int rxb_cfg_check(const struct rxb_cfg *cfg, struct net_device *dev)
{
	struct rxb_model_cfg mcfg;
	const char *msg;
	int err;

	rxb_rx_model_cfg(cfg, &mcfg);
	err = rxb_model_validate(cfg->model, &mcfg, &msg);
	if (err && dev)
		netdev_err(dev, "%s: %s\n", cfg->model->name, msg);
	else if (err)
		pr_err("rxbisect: %s: %s\n", cfg->model->name, msg);
	return err;
}

/* Apply @cfg's model and model parameters to the defaults and every port. */
static int rxb_apply_all(const struct rxb_cfg *cfg)
{
	struct rxb_port *port;
	struct rxb_cfg pcfg;
	int err;

	err = rxb_cfg_check(cfg, NULL);
	if (err)
		return err;
	/* Check every port first, so that a refusal changes nothing. */
	list_for_each_entry(port, &rxb_ports, list) {
		pcfg = port->cfg;
		pcfg.model = cfg->model;
		pcfg.mp = cfg->mp;
		err = rxb_cfg_check(&pcfg, port->dev);
		if (err)
			return err;
	}
	list_for_each_entry(port, &rxb_ports, list) {
		pcfg = port->cfg;
		pcfg.model = cfg->model;
		pcfg.mp = cfg->mp;
		err = rxb_reconfigure(port, &pcfg, NULL);
		if (err) {
			netdev_err(port->dev, "cannot apply the new parameters: %d\n",
				   err);
			return err;
		}
	}
	rxb_default_cfg.model = cfg->model;
	rxb_default_cfg.mp = cfg->mp;
	return 0;
}

/**
 * struct rxb_param - a writable model parameter.
 * @off: offset of its u32 in struct rxb_mparams, or -1 for ring_model.
 * @min: smallest value.
 * @max: largest value.
 * @pow2: the value must be a power of two.
 * @names: for a parameter given by name: the names of 0, 1, ...
 */
struct rxb_param {
	int off;
	u32 min, max;
	bool pow2;
	const char * const *names;
};

#define RXB_MP(f)	offsetof(struct rxb_mparams, f)

/* Not const: kernel_param.arg is a plain pointer. */
static struct rxb_param rxb_p_model = { .off = -1 };
static struct rxb_param rxb_p_share = {
	RXB_MP(share_factor), 1, RXB_MAX_QUEUES,
};

static struct rxb_param rxb_p_ax = {
	RXB_MP(ax_ring_size), RXB_RING_MIN, RXB_RING_MAX, true,
};

static struct rxb_param rxb_p_policy = {
	RXB_MP(ax_policy), 0, RXB_AX_NPOLICIES - 1, false, rxb_ax_policy_names,
};

static struct rxb_param rxb_p_assoc = {
	RXB_MP(ax_assoc), 0, RXB_MAX_QUEUES,
};

static struct rxb_param rxb_p_compress = {
	RXB_MP(notif_compress), 0, 1,
};

static struct rxb_param rxb_p_timeout = {
	RXB_MP(notif_timeout_us), 1, 1000000,
};

static struct rxb_param rxb_p_ws = {
	RXB_MP(ws_window), 256, 1U << 20, true,
};

static struct rxb_param rxb_p_cache = {
	RXB_MP(cache_kb), 1, 1U << 22,
};

static int rxb_param_parse(const struct rxb_param *p, const char *name,
			   const char *val, u32 *out)
{
	char buf[32];
	u32 i;

	strscpy(buf, val, sizeof(buf));
	strim(buf);
	if (p->names) {
		for (i = p->min; i <= p->max; i++)
			if (!strcmp(buf, p->names[i])) {
				*out = i;
				return 0;
			}
		pr_err("rxbisect: %s: unknown value '%s'\n", name, buf);
		return -EINVAL;
	}
	if (kstrtou32(buf, 0, out)) {
		pr_err("rxbisect: %s: '%s' is not a number\n", name, buf);
		return -EINVAL;
	}
	if (*out < p->min || *out > p->max || (p->pow2 && !is_power_of_2(*out))) {
		pr_err("rxbisect: %s %u: must be %sin %u..%u\n", name, *out,
		       p->pow2 ? "a power of two " : "", p->min, p->max);
		return -EINVAL;
	}
	return 0;
}

static int rxb_param_set(const char *val, const struct kernel_param *kp)
{
	const struct rxb_param *p = kp->arg;
	struct rxb_cfg cfg;
	u32 n = 0;
	int err;

	if (p->off >= 0) {
		err = rxb_param_parse(p, kp->name, val, &n);
		if (err)
			return err;
	}
	rtnl_lock();
	cfg = rxb_default_cfg;
	if (p->off < 0) {
		cfg.model = rxb_model_find(val);
		if (!cfg.model) {
			pr_err("rxbisect: ring_model: unknown model '%s'\n", val);
			err = -EINVAL;
			goto out;
		}
	} else {
		*(u32 *)((char *)&cfg.mp + p->off) = n;
	}
	err = 0;
	if (rxb_ready)
		err = rxb_apply_all(&cfg);
	else
		rxb_default_cfg = cfg;	/* at load: checked by rxb_params_check() */
out:
	rtnl_unlock();
	return err;
}

static int rxb_param_get(char *buf, const struct kernel_param *kp)
{
	const struct rxb_param *p = kp->arg;
	int n;
	u32 v;

	rtnl_lock();
	if (p->off < 0) {
		n = sysfs_emit(buf, "%s\n", rxb_default_cfg.model ?
			       rxb_default_cfg.model->name : "privring");
	} else {
		v = *(u32 *)((char *)&rxb_default_cfg.mp + p->off);
		n = p->names ? sysfs_emit(buf, "%s\n", p->names[v]) :
			       sysfs_emit(buf, "%u\n", v);
	}
	rtnl_unlock();
	return n;
}

static const struct kernel_param_ops rxb_param_ops = {
	.set = rxb_param_set,
	.get = rxb_param_get,
};

module_param_cb(ring_model, &rxb_param_ops, &rxb_p_model, 0644);
MODULE_PARM_DESC(ring_model, "Receive ring model: privring (default) or rxbisect; writable");
module_param_cb(share_factor, &rxb_param_ops, &rxb_p_share, 0644);
MODULE_PARM_DESC(share_factor, "shRing models: queues sharing one Rx ring, 1..32 (default 8, at most the queue count); writable");
module_param_cb(ax_ring_size, &rxb_param_ops, &rxb_p_ax, 0644);
MODULE_PARM_DESC(ax_ring_size, "rxBisect: entries per allocation (Ax) ring: power of two, 64..8192, at most the Rx ring size (default 128); writable");
module_param_cb(ax_policy, &rxb_param_ops, &rxb_p_policy, 0644);
MODULE_PARM_DESC(ax_policy, "rxBisect: Ax ring to borrow from when the queue's own is empty: rr (round-robin, default) or most (most filled); writable");
module_param_cb(ax_assoc, &rxb_param_ops, &rxb_p_assoc, 0644);
MODULE_PARM_DESC(ax_assoc, "rxBisect: Bx rings are associated with the Ax rings of their group of ax_assoc consecutive queues; 0 (default): all; writable");
module_param_cb(notif_compress, &rxb_param_ops, &rxb_p_compress, 0644);
MODULE_PARM_DESC(notif_compress, "rxBisect: hold buffer-consumed notifications until the next packet entry or notif_timeout_us (1, default) or write them at once (0); writable");
module_param_cb(notif_timeout_us, &rxb_param_ops, &rxb_p_timeout, 0644);
MODULE_PARM_DESC(notif_timeout_us, "rxBisect: longest hold of a notification, 1..1000000 us (default 50); writable");
module_param_cb(ws_window, &rxb_param_ops, &rxb_p_ws, 0644);
MODULE_PARM_DESC(ws_window, "NIC writes over which the I/O working set (ethtool -S io_ws_*) is measured: power of two, 256..1048576 (default 16384); writable");
module_param_cb(cache_kb, &rxb_param_ops, &rxb_p_cache, 0644);
MODULE_PARM_DESC(cache_kb, "Cache capacity (KiB) the I/O working set should fit, e.g. the LLC's DDIO ways (default 4096); used for configuration advice and by dynamic shRing; writable");

static int __init rxb_params_check(void)
{
	struct rxb_cfg *cfg = &rxb_default_cfg;

	if (!cfg->model)
		cfg->model = &rxb_privring_ops;
	if (!is_power_of_2(rx_ring_size) || rx_ring_size < RXB_RING_MIN ||
	    rx_ring_size > RXB_RING_MAX) {
		pr_err("rxbisect: rx_ring_size %u: must be a power of two in %u..%u\n",
		       rx_ring_size, RXB_RING_MIN, RXB_RING_MAX);
		return -EINVAL;
	}
	if (queues > RXB_MAX_QUEUES) {
		pr_err("rxbisect: queues %u: at most %u\n", queues,
		       RXB_MAX_QUEUES);
		return -EINVAL;
	}
	if (pairs > 64) {
		pr_err("rxbisect: pairs %u: at most 64\n", pairs);
		return -EINVAL;
	}
	cfg->nqueues = queues ? queues :
		       min_t(unsigned int, num_online_cpus(), RXB_MAX_QUEUES);
	cfg->rx_ring_size = rx_ring_size;
	return rxb_cfg_check(cfg, NULL);
}

static int __init rxb_module_init(void)
{
	unsigned int i;
	int err;

	err = rxb_params_check();
	if (err)
		return err;
	rxb_debugfs_init();
	err = rtnl_link_register(&rxb_link_ops);
	if (err)
		goto err_debugfs;
	rtnl_lock();
	rxb_ready = true;
	for (i = 0; i < pairs && !err; i++)
		err = rxb_pair_create(&init_net, NULL, NULL);
	rtnl_unlock();
	if (err) {
		pr_err("rxbisect: cannot create port pair %u: %d\n", i - 1, err);
		goto err_link;
	}
	return 0;

err_link:
	rtnl_link_unregister(&rxb_link_ops);
err_debugfs:
	rxb_debugfs_exit();
	return err;
}

static void __exit rxb_module_exit(void)
{
	/* Deletes every port, in every namespace. */
	rtnl_link_unregister(&rxb_link_ops);
	rxb_debugfs_exit();
}

module_init(rxb_module_init);
module_exit(rxb_module_exit);
MODULE_AUTHOR("rxbisect developers");
MODULE_DESCRIPTION("Emulated multi-queue NIC with pluggable receive-ring models (privRing, shRing, rxBisect, ...)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RXB_DRV_VERSION);
MODULE_ALIAS_RTNL_LINK(RXB_DRV_NAME);
