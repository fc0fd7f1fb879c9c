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

static unsigned int pairs = 1;
module_param(pairs, uint, 0444);
MODULE_PARM_DESC(pairs, "Port pairs created at load (rxb0/rxb1, rxb2/rxb3, ...; default 1)");

static unsigned int queues;
module_param(queues, uint, 0444);
MODULE_PARM_DESC(queues, "Queues per port (default 0: one per online CPU, at most 32)");

static char *ring_model = "privring";
module_param(ring_model, charp, 0444);
MODULE_PARM_DESC(ring_model, "Receive ring model of new ports (default privring)");

static unsigned int rx_ring_size = RXB_DEF_RING_SIZE;
module_param(rx_ring_size, uint, 0444);
MODULE_PARM_DESC(rx_ring_size, "Entries per Rx ring and completion ring: power of two, 64..8192 (default 1024)");

/* Configuration of new ports, from the parameters above. */
struct rxb_cfg rxb_default_cfg;

static int __init rxb_params_check(void)
{
	struct rxb_cfg *cfg = &rxb_default_cfg;

	cfg->model = rxb_model_find(ring_model);
	if (!cfg->model) {
		pr_err("rxbisect: unknown ring_model '%s'\n", ring_model);
		return -EINVAL;
	}
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
	cfg->tx_ring_size = RXB_DEF_TX_RING_SIZE;
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
