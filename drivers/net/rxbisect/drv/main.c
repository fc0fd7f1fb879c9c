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

/* Configuration of new ports, from the parameters below; under RTNL.  The
 * ring-model parameters take their defaults at the first use
 * (rxb_defaults()), which may be a module parameter at load.
 */
struct rxb_cfg rxb_default_cfg = {
	.rx_ring_size	= RXB_DEF_RING_SIZE,
	.tx_ring_size	= RXB_DEF_TX_RING_SIZE,
	.mtu		= ETH_DATA_LEN,
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

/* The ring-model parameters, one module parameter per entry of
 * rxb_param_list.h, may also be written at run time, in
 * /sys/module/rxbisect/parameters/: the new value then applies to every
 * port, rebuilding the rings of running ones under traffic; the other
 * settings of each port (what devlink or ethtool set on it) stay.  A value
 * that a port cannot take is refused (EINVAL, reason in dmesg) and nothing
 * changes.
 */
static bool rxb_ready;	/* module init is done: ports may exist */

/* Give the ring-model parameters of rxb_default_cfg their defaults, once;
 * under RTNL.
 */
static void rxb_defaults(void)
{
	static bool done;

	if (!done)
		rxb_param_defaults(&rxb_default_cfg);
	done = true;
}

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

/* Apply @cfg, the defaults with the value @val of parameter @p, to the
 * defaults, and @val alone to every port, whose other settings stay (as
 * devlink changes a device's ports): all ports or none
 * (rxb_reconfigure_many()).
 */
static int rxb_apply_all(const struct rxb_cfg *cfg, const struct rxb_param *p,
			 const char *val)
{
	struct rxb_reconf *rc;
	struct rxb_port *port;
	unsigned int n = 0;
	const char *msg;
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
		/* A port's other settings may refuse it (ceio_force_slow
		 * without nicmem_kb); rxb_reconfigure_many() checks the rest.
		 */
		err = rxb_param_store(&rc[n].cfg, p, val, &msg);
		if (err) {
			netdev_err(port->dev, "%s '%.*s': %s\n", p->name,
				   (int)strcspn(val, "\n"), val, msg);
			goto out;
		}
		n++;
	}
	err = rxb_reconfigure_many(rc, n, NULL);
	if (!err)
		rxb_default_cfg = *cfg;
out:
	kvfree(rc);
	return err;
}

static int rxb_param_set(const char *val, const struct kernel_param *kp)
{
	const struct rxb_param *p = kp->arg;
	const char *msg;
	struct rxb_cfg cfg;
	int err;

	rtnl_lock();
	rxb_defaults();
	cfg = rxb_default_cfg;
	err = rxb_param_store(&cfg, p, val, &msg);
	if (err) {
		pr_err("rxbisect: %s '%.*s': %s\n", p->name,
		       (int)strcspn(val, "\n"), val, msg);
		goto out;
	}
	if (rxb_ready)
		err = rxb_apply_all(&cfg, p, val);
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
	rxb_defaults();
	rxb_param_show(&rxb_default_cfg, kp->arg, val);
	rtnl_unlock();
	return sysfs_emit(buf, "%s\n", val);
}

static const struct kernel_param_ops rxb_param_ops = {
	.set = rxb_param_set,
	.get = rxb_param_get,
};

/* Per entry of rxb_param_list.h: the module parameter, its type and its
 * description ("description (range; default value); writable") for modinfo.
 */
#define RXB_PARAM_TYPE_U32	"uint"
#define RXB_PARAM_TYPE_POW2	"uint"
#define RXB_PARAM_TYPE_NAMES	"string"
#define RXB_PARAM_TYPE_STR	"string"
#define RXB_PARAM_TYPE_MODEL	"string"
#define RXB_PARAM(name, type, lim, def, check)				\
	module_param_cb(name, &rxb_param_ops, &rxb_params[RXB_P_##name], 0644); \
	__MODULE_PARM_TYPE(name, RXB_PARAM_TYPE_##type);		\
	MODULE_PARM_DESC(name, RXB_PARAM_DESC(name, type, lim, def) "; writable");
#include "rxb_param_list.h"

/* debug_ctx: the check of the NIC's context (rxb_hw_model.h). */
static bool debug_ctx;

/* The words debug_ctx takes, off then on: whole words, not kstrtobool()'s
 * first letter ("yes please", "1.5" are refused).
 */
static const char * const rxb_bool_words[] = {
	"0", "n", "N", "no", "off", "false",
	"1", "y", "Y", "yes", "on", "true",
};

static int rxb_debug_ctx_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(rxb_bool_words, val);
	bool on;

	if (i < 0) {
		pr_err("rxbisect: debug_ctx '%.*s': not off or on (0, n, no, off, false; 1, y, yes, on, true)\n",
		       (int)strcspn(val, "\n"), val);
		return -EINVAL;
	}
	on = i >= ARRAY_SIZE(rxb_bool_words) / 2;
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

	rtnl_lock();
	rxb_defaults();
	rtnl_unlock();
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
	err = rxb_enso_user_init();
	if (err)
		goto err_link;
	err = rxb_bus_init(pairs);
	if (err) {
		pr_err("rxbisect: cannot create the devices: %d\n", err);
		goto err_enso;
	}
	return 0;

err_enso:
	rxb_enso_user_exit();
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
	rxb_enso_user_exit();
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
