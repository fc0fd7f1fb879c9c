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
	.share_factor	= RXB_DEF_SHARE_FACTOR,
	.ax_ring_size	= RXB_DEF_AX_RING_SIZE,
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
MODULE_PARM_DESC(rx_ring_size, "Entries per Rx ring and completion ring of new ports: power of two, 64..8192 (default 1024)");

/* The parameters below may also be written at run time, in
 * /sys/module/rxbisect/parameters/: the new value then applies to every
 * port, rebuilding the rings of running ones under traffic.  A value that
 * a port cannot take is refused (EINVAL, reason in dmesg) and nothing
 * changes.
 */
static bool rxb_ready;	/* ports may exist: module init is done */

/* Apply @cfg's model settings to the defaults and to every port. */
static int rxb_apply_all(const struct rxb_cfg *cfg)
{
	struct rxb_model_cfg mcfg;
	struct rxb_port *port;
	const char *msg;
	int err;

	rxb_rx_model_cfg(cfg, &mcfg);
	err = rxb_model_validate(cfg->model, &mcfg, &msg);
	if (err) {
		pr_err("rxbisect: %s: %s\n", cfg->model->name, msg);
		return err;
	}
	/* Check every port first, so that a refusal changes nothing. */
	list_for_each_entry(port, &rxb_ports, list) {
		struct rxb_cfg pcfg = port->cfg;

		pcfg.model = cfg->model;
		pcfg.share_factor = cfg->share_factor;
		pcfg.ax_ring_size = cfg->ax_ring_size;
		rxb_rx_model_cfg(&pcfg, &mcfg);
		err = rxb_model_validate(pcfg.model, &mcfg, &msg);
		if (err) {
			netdev_err(port->dev, "%s: %s\n", pcfg.model->name, msg);
			return err;
		}
	}
	list_for_each_entry(port, &rxb_ports, list) {
		struct rxb_cfg pcfg = port->cfg;

		pcfg.model = cfg->model;
		pcfg.share_factor = cfg->share_factor;
		pcfg.ax_ring_size = cfg->ax_ring_size;
		err = rxb_reconfigure(port, &pcfg, NULL);
		if (err) {
			netdev_err(port->dev, "cannot apply the new parameters: %d\n",
				   err);
			return err;
		}
	}
	rxb_default_cfg.model = cfg->model;
	rxb_default_cfg.share_factor = cfg->share_factor;
	rxb_default_cfg.ax_ring_size = cfg->ax_ring_size;
	return 0;
}

enum rxb_param { RXB_P_MODEL, RXB_P_SHARE, RXB_P_AX };

static int rxb_param_set(const char *val, const struct kernel_param *kp)
{
	enum rxb_param which = (uintptr_t)kp->arg;
	struct rxb_cfg cfg;
	unsigned int n = 0;
	int err = 0;

	if (which != RXB_P_MODEL) {
		err = kstrtouint(val, 0, &n);
		if (err) {
			pr_err("rxbisect: %s: '%s' is not a number\n", kp->name,
			       strim((char *)val));
			return -EINVAL;
		}
	}
	rtnl_lock();
	cfg = rxb_default_cfg;
	switch (which) {
	case RXB_P_MODEL:
		cfg.model = rxb_model_find(val);
		if (!cfg.model) {
			pr_err("rxbisect: ring_model: unknown model '%s'\n",
			       strim((char *)val));
			err = -EINVAL;
		}
		break;
	case RXB_P_SHARE:
		if (!n || n > RXB_MAX_QUEUES) {
			pr_err("rxbisect: share_factor %u: must be in 1..%u\n", n,
			       RXB_MAX_QUEUES);
			err = -EINVAL;
		}
		cfg.share_factor = n;
		break;
	case RXB_P_AX:
		if (!is_power_of_2(n) || n < RXB_RING_MIN || n > RXB_RING_MAX) {
			pr_err("rxbisect: ax_ring_size %u: must be a power of two in %u..%u\n",
			       n, RXB_RING_MIN, RXB_RING_MAX);
			err = -EINVAL;
		}
		cfg.ax_ring_size = n;
		break;
	}
	if (!err && rxb_ready)
		err = rxb_apply_all(&cfg);
	else if (!err)
		rxb_default_cfg = cfg;	/* at load: checked in rxb_params_check() */
	rtnl_unlock();
	return err;
}

static int rxb_param_get(char *buf, const struct kernel_param *kp)
{
	enum rxb_param which = (uintptr_t)kp->arg;
	int n = 0;

	rtnl_lock();
	switch (which) {
	case RXB_P_MODEL:
		n = sysfs_emit(buf, "%s\n", rxb_default_cfg.model ?
			       rxb_default_cfg.model->name : "privring");
		break;
	case RXB_P_SHARE:
		n = sysfs_emit(buf, "%u\n", rxb_default_cfg.share_factor);
		break;
	case RXB_P_AX:
		n = sysfs_emit(buf, "%u\n", rxb_default_cfg.ax_ring_size);
		break;
	}
	rtnl_unlock();
	return n;
}

static const struct kernel_param_ops rxb_param_ops = {
	.set = rxb_param_set,
	.get = rxb_param_get,
};

module_param_cb(ring_model, &rxb_param_ops, (void *)RXB_P_MODEL, 0644);
MODULE_PARM_DESC(ring_model, "Receive ring model: privring (default); writable: applies to every port");
module_param_cb(share_factor, &rxb_param_ops, (void *)RXB_P_SHARE, 0644);
MODULE_PARM_DESC(share_factor, "shRing models: queues sharing one Rx ring, 1..32 (default 8, at most the queue count); writable");
module_param_cb(ax_ring_size, &rxb_param_ops, (void *)RXB_P_AX, 0644);
MODULE_PARM_DESC(ax_ring_size, "rxBisect: entries per allocation (Ax) ring: power of two, 64..8192, at most the Rx ring size (default 128); writable");

static int __init rxb_params_check(void)
{
	struct rxb_cfg *cfg = &rxb_default_cfg;
	struct rxb_model_cfg mcfg;
	const char *msg;

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
	rxb_rx_model_cfg(cfg, &mcfg);
	if (rxb_model_validate(cfg->model, &mcfg, &msg)) {
		pr_err("rxbisect: %s: %s\n", cfg->model->name, msg);
		return -EINVAL;
	}
	return 0;
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
