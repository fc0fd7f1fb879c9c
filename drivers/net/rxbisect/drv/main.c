// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect module: parameters, and the port pairs created at load time.
 */
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/rtnetlink.h>
#include "rxbisect.h"

/* Configuration of new ports, from the parameters below; under RTNL. */
struct rxb_cfg rxb_default_cfg = {
	.rx_ring_size	= RXB_DEF_RING_SIZE,
	.tx_ring_size	= RXB_DEF_TX_RING_SIZE,
	.mtu		= ETH_DATA_LEN,
	.mp = {
		.share_factor	= RXB_DEF_SHARE_FACTOR,
		.ax_ring_size	= RXB_DEF_AX_RING_SIZE,
		.ax_policy	= RXB_AX_RR,
		.notif_compress	= 1,
		.notif_timeout_us = RXB_DEF_NOTIF_US,
		.ws_window	= RXB_DEF_WS_WINDOW,
		.dsh_period_us	= 10000,
		.dsh_window	= 16,
		.dsh_tput_mbps	= 1000,
		.dsh_overload_ratio = 32,
		.cache_kb	= RXB_DEF_CACHE_KB,
		.corec_consumers = 0,
		.corec_irq_policy = RXB_COREC_IRQ_ALL,
		.flow_table_size = RXB_FLOW_TABLE_DEF,
		.flow_idle_ms	= RXB_FLOW_IDLE_DEF_MS,
		.nicmem_kb	= RXB_NICMEM_DEF_KB,
		.nicmem_fetch_ns = RXB_NICMEM_DEF_NS,
		.enso_pipes	= 1,
		.enso_pipe_kb	= RXB_ENSO_PIPE_MAX / 1024,
		.llc_budget	= RXB_CEIO_BUDGET_DEF,
		.ceio_fetch	= 1,
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

/* Apply @cfg's model and model parameters to the defaults and every port:
 * all ports or none (rxb_reconfigure_many()).
 */
static int rxb_apply_all(const struct rxb_cfg *cfg)
{
	struct rxb_reconf *rc;
	struct rxb_port *port;
	unsigned int n = 0;
	int err;

	err = rxb_cfg_check(cfg, NULL);
	if (err)
		return err;
	list_for_each_entry(port, &rxb_ports, list)
		n++;
	rc = kvcalloc(max(n, 1U), sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return -ENOMEM;
	n = 0;
	list_for_each_entry(port, &rxb_ports, list) {
		rc[n].port = port;
		rc[n].cfg = port->cfg;
		rc[n].cfg.model = cfg->model;
		rc[n].cfg.mp = cfg->mp;
		n++;
	}
	err = rxb_reconfigure_many(rc, n, NULL);
	kvfree(rc);
	if (err)
		return err;
	rxb_default_cfg.model = cfg->model;
	rxb_default_cfg.mp = cfg->mp;
	return 0;
}

static int rxb_param_set(const char *val, const struct kernel_param *kp)
{
	const struct rxb_param *p = kp->arg;
	const char *msg;
	struct rxb_cfg cfg;
	int err;

	rtnl_lock();
	cfg = rxb_default_cfg;
	err = rxb_param_store(&cfg, p, val, &msg);
	if (err) {
		pr_err("rxbisect: %s '%.*s': %s\n", p->name,
		       (int)strcspn(val, "\n"), val, msg);
		goto out;
	}
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
	char val[RXB_PARAM_STRLEN];

	rtnl_lock();
	rxb_param_show(&rxb_default_cfg, kp->arg, val);
	rtnl_unlock();
	return sysfs_emit(buf, "%s\n", val);
}

static const struct kernel_param_ops rxb_param_ops = {
	.set = rxb_param_set,
	.get = rxb_param_get,
};

module_param_cb(ring_model, &rxb_param_ops, &rxb_params[RXB_P_MODEL], 0644);
MODULE_PARM_DESC(ring_model, "Receive ring model: privring (default), rxbisect, shring, shring-list, shring-batched, dshring, corec, enso or ceio; writable");
module_param_cb(share_factor, &rxb_param_ops, &rxb_params[RXB_P_SHARE], 0644);
MODULE_PARM_DESC(share_factor, "shRing models: queues sharing one Rx ring, 1..32 (default 8, at most the queue count); writable");
module_param_cb(ax_ring_size, &rxb_param_ops, &rxb_params[RXB_P_AX], 0644);
MODULE_PARM_DESC(ax_ring_size, "rxBisect: entries per allocation (Ax) ring: power of two, 64..8192, at most the Rx ring size (default 128); writable");
module_param_cb(ax_policy, &rxb_param_ops, &rxb_params[RXB_P_POLICY], 0644);
MODULE_PARM_DESC(ax_policy, "rxBisect: Ax ring to borrow from when the queue's own is empty: rr (round-robin, default), most (most filled) or random; writable");
module_param_cb(ax_assoc, &rxb_param_ops, &rxb_params[RXB_P_ASSOC], 0644);
MODULE_PARM_DESC(ax_assoc, "rxBisect: Bx rings are associated with the Ax rings of their group of ax_assoc consecutive queues; 0 (default): all; writable");
module_param_cb(ax_assoc_map, &rxb_param_ops, &rxb_params[RXB_P_ASSOC_MAP], 0644);
MODULE_PARM_DESC(ax_assoc_map, "rxBisect: Ax rings each Bx ring may borrow from, ';'-separated sets used cyclically, each '*' or a ','-list of N, N-M (Ax rings) and +N, +N-M (N after the queue's own): e.g. 0-3;2-5 or +0-1; default (empty): ax_assoc; writable");
module_param_cb(ax_link, &rxb_param_ops, &rxb_params[RXB_P_LINK], 0644);
MODULE_PARM_DESC(ax_link, "rxBisect: queue each Ax ring is linked to (whose NAPI refills it), a ','-list of N and N-M, one queue per Ax ring: e.g. 7 (one Ax ring, refilled by queue 7); default (empty): Ax ring i per queue i; writable");
module_param_cb(notif_compress, &rxb_param_ops, &rxb_params[RXB_P_COMPRESS], 0644);
MODULE_PARM_DESC(notif_compress, "rxBisect: hold buffer-consumed notifications until the next packet entry or notif_timeout_us (1, default) or write them at once (0); writable");
module_param_cb(notif_timeout_us, &rxb_param_ops, &rxb_params[RXB_P_TIMEOUT], 0644);
MODULE_PARM_DESC(notif_timeout_us, "rxBisect: longest hold of a notification, 1..1000000 us (default 50); writable");
module_param_cb(ws_window, &rxb_param_ops, &rxb_params[RXB_P_WS], 0644);
MODULE_PARM_DESC(ws_window, "NIC writes over which the I/O working set (ethtool -S io_ws_*) is measured: power of two, 256..1048576 (default 16384); writable");
module_param_cb(cache_kb, &rxb_param_ops, &rxb_params[RXB_P_CACHE], 0644);
MODULE_PARM_DESC(cache_kb, "Cache capacity (KiB) the I/O working set should fit, e.g. the LLC's DDIO ways (default 4096); used for configuration advice and by dynamic shRing; writable");
module_param_cb(corec_consumers, &rxb_param_ops, &rxb_params[RXB_P_COREC_CONSUMERS], 0644);
MODULE_PARM_DESC(corec_consumers, "COREC: queues consuming each shared queue (groups of consecutive queues), 0..32, at most the queue count; 0 (default): all queues share one; writable");
module_param_cb(corec_irq_policy, &rxb_param_ops, &rxb_params[RXB_P_COREC_IRQ], 0644);
MODULE_PARM_DESC(corec_irq_policy, "COREC: consumers interrupted per completion: all (default: any idle one takes it) or rr (the next one, round-robin); writable");
module_param_cb(engine, &rxb_param_ops, &rxb_params[RXB_P_ENGINE], 0644);
MODULE_PARM_DESC(engine, "Where the emulated NIC runs: inline (default: in the sender's context) or cpuN (a dedicated kernel thread bound to CPU N, fed by a lock-free ingress queue); writable");
module_param_cb(dsh_period_us, &rxb_param_ops, &rxb_params[RXB_P_DSH_PERIOD], 0644);
MODULE_PARM_DESC(dsh_period_us, "dshring: controller sampling period, 100..10000000 us (default 10000); writable");
module_param_cb(dsh_window, &rxb_param_ops, &rxb_params[RXB_P_DSH_WINDOW], 0644);
MODULE_PARM_DESC(dsh_window, "dshring: samples in the sliding window, a multiple of 8 in 8..64 (default 16); writable");
module_param_cb(dsh_tput_mbps, &rxb_param_ops, &rxb_params[RXB_P_DSH_TPUT], 0644);
MODULE_PARM_DESC(dsh_tput_mbps, "dshring: a sample's throughput is high above this, Mbit/s (default 1000); writable");
module_param_cb(dsh_overload_ratio, &rxb_param_ops, &rxb_params[RXB_P_DSH_OVERLOAD], 0644);
MODULE_PARM_DESC(dsh_overload_ratio, "dshring: overloaded when the standard deviation of the queues' receive-call intervals exceeds this many times their median (default 32); writable");
module_param_cb(flow_table_size, &rxb_param_ops, &rxb_params[RXB_P_FLOW_SIZE], 0644);
MODULE_PARM_DESC(flow_table_size, "NIC flow table entries (5-tuple, learned on a flow's first frame; a full table learns no new flow), 16..1048576 (default 4096); writable");
module_param_cb(flow_idle_ms, &rxb_param_ops, &rxb_params[RXB_P_FLOW_IDLE], 0644);
MODULE_PARM_DESC(flow_idle_ms, "NIC flow table: an entry without a frame for this long is freed, 1..600000 ms (default 1000); writable");
module_param_cb(nicmem_kb, &rxb_param_ops, &rxb_params[RXB_P_NICMEM_KB], 0644);
MODULE_PARM_DESC(nicmem_kb, "Capacity of the on-NIC memory tier, 0..1048576 KiB (default 65536); writable");
module_param_cb(nicmem_fetch_ns, &rxb_param_ops, &rxb_params[RXB_P_NICMEM_NS], 0644);
MODULE_PARM_DESC(nicmem_fetch_ns, "Latency of a host fetch from the on-NIC memory tier, 0..1000000 ns (default 1000); writable");
module_param_cb(enso_pipes, &rxb_param_ops, &rxb_params[RXB_P_ENSO_PIPES], 0644);
MODULE_PARM_DESC(enso_pipes, "enso: pipes per queue, a power of two in 1..512, at most 1024 over all queues and at most the rx ring size (the notification ring); default 1; writable");
module_param_cb(enso_pipe_kb, &rxb_param_ops, &rxb_params[RXB_P_ENSO_PIPE_KB], 0644);
MODULE_PARM_DESC(enso_pipe_kb, "enso: KiB per pipe, a power of two in 4..2048 (default 2048, the Enso library's 2 MiB); writable");
module_param_cb(enso_prefetch, &rxb_param_ops, &rxb_params[RXB_P_ENSO_PREFETCH], 0644);
MODULE_PARM_DESC(enso_prefetch, "enso: low-latency mode, the driver prefetches the next pipe's notification: off (default, reactive only) or on; writable");
module_param_cb(llc_budget, &rxb_param_ops, &rxb_params[RXB_P_LLC_BUDGET], 0644);
MODULE_PARM_DESC(llc_budget, "ceio: host cache budget in bytes, one buffer..1 GiB; credits = budget / buffer size (default 6291456, the paper's 6 MiB); writable");
module_param_cb(ceio_release, &rxb_param_ops, &rxb_params[RXB_P_CEIO_RELEASE], 0644);
MODULE_PARM_DESC(ceio_release, "ceio: lazy credit release: batch (default: at the end of the NAPI batch), page (when the page returns to the page_pool); writable");
module_param_cb(ceio_fetch, &rxb_param_ops, &rxb_params[RXB_P_CEIO_FETCH], 0644);
MODULE_PARM_DESC(ceio_fetch, "ceio: slow-path fetch from the on-NIC tier: async (default, the paper's async_recv(): fetches posted for every slow entry known, delivered as they complete) or sync (recv(): one fetch at a time); writable");
module_param_cb(ceio_force_slow, &rxb_param_ops, &rxb_params[RXB_P_CEIO_FORCE_SLOW], 0644);
MODULE_PARM_DESC(ceio_force_slow, "ceio: no credits, every packet takes the slow path: off (default) or on (needs nicmem_kb > 0); writable");
module_param_cb(nicmem_split, &rxb_param_ops, &rxb_params[RXB_P_NICMEM_SPLIT], 0644);
MODULE_PARM_DESC(nicmem_split, "NIC header/data split: TCP/UDP headers to host buffers, payloads into the on-NIC memory tier: off (default) or on (needs nicmem_kb > 0; not with shring-batched or enso); writable");

/* debug_ctx: the check of the NIC's context (rxb_hw_model.h). */
static bool debug_ctx;

static int rxb_debug_ctx_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	rxb_nic_set_ctx_check(on);
	*(bool *)kp->arg = on;
	return 0;
}

static const struct kernel_param_ops rxb_debug_ctx_ops = {
	.set = rxb_debug_ctx_set,
	.get = param_get_bool,
};

module_param_cb(debug_ctx, &rxb_debug_ctx_ops, &debug_ctx, 0644);
MODULE_PARM_DESC(debug_ctx, "check that every entry point of the emulated NIC runs in the NIC's own context (its engine, timers, doorbell service), never in a driver's call: a violation warns once and counts in ethtool -S nic_ctx_violations; off (default) or on; writable");

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
	int err;

	err = rxb_params_check();
	if (err)
		return err;
	rxb_debugfs_init();
	err = rxb_lower_init();
	if (err)
		goto err_debugfs;
	err = rtnl_link_register(&rxb_link_ops);
	if (err)
		goto err_lower;
	rtnl_lock();
	rxb_ready = true;
	rtnl_unlock();
	rxb_devlink_init();
	err = rxb_bus_init(pairs);
	if (err) {
		pr_err("rxbisect: cannot create the devices: %d\n", err);
		goto err_link;
	}
	return 0;

err_link:
	rtnl_link_unregister(&rxb_link_ops);
err_lower:
	rxb_lower_exit();
err_debugfs:
	rxb_debugfs_exit();
	return err;
}

static void __exit rxb_module_exit(void)
{
	rxb_bus_exit();
	/* Deletes every other port, in every namespace. */
	rtnl_link_unregister(&rxb_link_ops);
	rxb_lower_exit();
	rxb_debugfs_exit();
}

module_init(rxb_module_init);
module_exit(rxb_module_exit);
MODULE_AUTHOR("rxbisect developers");
MODULE_DESCRIPTION("Emulated multi-queue NIC with pluggable receive-ring models (privRing, shRing, rxBisect, ...)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RXB_DRV_VERSION);
MODULE_ALIAS_RTNL_LINK(RXB_DRV_NAME);
