// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect devlink: one instance per bus device (an emulated dual-port
 * NIC), its two ports, its parameters and "devlink dev info".
 *
 * Every ring-model parameter (params.c) is a runtime devlink parameter of
 * the same name; a change applies to both ports of the device, rebuilding
 * running rings under traffic.  Lock order: devlink instance lock, then
 * RTNL (as netdevsim), never the reverse.
 */
#include <linux/rtnetlink.h>
#include "rxbisect.h"

#define RXB_DL_PARAM_BASE	(DEVLINK_PARAM_GENERIC_ID_MAX + 1)
#define RXB_DL_PARAM_STALL	(RXB_DL_PARAM_BASE + RXB_NPARAMS)

static struct rxb_dev *rxb_dev_of(struct devlink *devlink)
{
	return devlink_priv(devlink);
}

static const struct rxb_param *rxb_dl_param(u32 id)
{
	return &rxb_params[id - RXB_DL_PARAM_BASE];
}

static bool rxb_dl_is_string(const struct rxb_param *p)
{
	return p->off < 0 || p->names || p->str;
}

/* The devlink value of parameter @id as text. */
static void rxb_dl_text(const struct rxb_param *p, union devlink_param_value val,
			char *buf)
{
	if (rxb_dl_is_string(p))
		strscpy(buf, val.vstr, RXB_PARAM_STRLEN);
	else
		snprintf(buf, RXB_PARAM_STRLEN, "%u", val.vu32);
}

static int rxb_dl_param_get(struct devlink *devlink, u32 id,
			    struct devlink_param_gset_ctx *ctx,
			    struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = rxb_dev_of(devlink);
	const struct rxb_param *p = rxb_dl_param(id);
	char buf[RXB_PARAM_STRLEN];

	/* Both ports always have the same model configuration. */
	rtnl_lock();
	rxb_param_show(&rdev->ports[0]->cfg, p, buf);
	rtnl_unlock();
	if (rxb_dl_is_string(p))
		strscpy(ctx->val.vstr, buf, sizeof(ctx->val.vstr));
	else if (kstrtou32(buf, 10, &ctx->val.vu32))
		return -EINVAL;
	return 0;
}

RXB_DL_PARAM_GET_DEFINE(rxb_dl_param_get)

/* Apply @val to a copy of each port's configuration; 0 if all accept it. */
static int rxb_dl_prepare(struct rxb_dev *rdev, const struct rxb_param *p,
			  union devlink_param_value val, struct rxb_cfg *cfgs,
			  struct netlink_ext_ack *extack)
{
	struct rxb_model_cfg mcfg;
	char buf[RXB_PARAM_STRLEN];
	const char *msg;
	unsigned int i;
	int err;

	rxb_dl_text(p, val, buf);
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++) {
		cfgs[i] = rdev->ports[i]->cfg;
		err = rxb_param_store(&cfgs[i], p, buf, &msg);
		if (!err) {
			rxb_rx_model_cfg(&cfgs[i], &mcfg);
			err = rxb_model_validate(cfgs[i].model, &mcfg, &msg);
		}
		if (err) {
			/* @msg is static, as NL_SET_ERR_MSG() requires. */
			if (extack)
				extack->_msg = msg;
			return err;
		}
	}
	return 0;
}

static int rxb_dl_param_validate(struct devlink *devlink, u32 id,
				 union devlink_param_value *val,
				 struct netlink_ext_ack *extack)
{
	struct rxb_cfg cfgs[2];
	int err;

	rtnl_lock();
	err = rxb_dl_prepare(rxb_dev_of(devlink), rxb_dl_param(id), *val, cfgs,
			     extack);
	rtnl_unlock();
	return err;
}

RXB_DL_PARAM_VALIDATE_DEFINE(rxb_dl_param_validate)

static int rxb_dl_param_set(struct devlink *devlink, u32 id,
			    struct devlink_param_gset_ctx *ctx,
			    struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = rxb_dev_of(devlink);
	struct rxb_reconf rc[ARRAY_SIZE(rdev->ports)];
	struct rxb_cfg cfgs[ARRAY_SIZE(rdev->ports)];
	unsigned int i;
	int err;

	rtnl_lock();
	err = rxb_dl_prepare(rdev, rxb_dl_param(id), ctx->val, cfgs, NULL);
	if (err)
		goto out;
	for (i = 0; i < ARRAY_SIZE(rc); i++)
		rc[i] = (struct rxb_reconf) {
			.port = rdev->ports[i], .cfg = cfgs[i]
		};
	/* Both ports or neither. */
	err = rxb_reconfigure_many(rc, ARRAY_SIZE(rc), NULL);
out:
	rtnl_unlock();
	return err;
}

RXB_DL_PARAM_SET_DEFINE(rxb_dl_param_set)

static int rxb_dl_stall_get(struct devlink *devlink, u32 id,
			    struct devlink_param_gset_ctx *ctx,
			    struct netlink_ext_ack *extack)
{
	ctx->val.vu32 = READ_ONCE(rxb_dev_of(devlink)->stall_timeout_ms);
	return 0;
}

RXB_DL_PARAM_GET_DEFINE(rxb_dl_stall_get)

static int rxb_dl_stall_set(struct devlink *devlink, u32 id,
			    struct devlink_param_gset_ctx *ctx,
			    struct netlink_ext_ack *extack)
{
	WRITE_ONCE(rxb_dev_of(devlink)->stall_timeout_ms, ctx->val.vu32);
	return 0;
}

RXB_DL_PARAM_SET_DEFINE(rxb_dl_stall_set)

static int rxb_dl_stall_validate(struct devlink *devlink, u32 id,
				 union devlink_param_value *val,
				 struct netlink_ext_ack *extack)
{
	if (val->vu32 < 100 || val->vu32 > 600000) {
		NL_SET_ERR_MSG_MOD(extack, "stall_timeout_ms must be in 100..600000");
		return -EINVAL;
	}
	return 0;
}

RXB_DL_PARAM_VALIDATE_DEFINE(rxb_dl_stall_validate)

/* Filled from rxb_params[] at module load: one entry per parameter. */
static struct devlink_param rxb_dl_params[RXB_NPARAMS + 1];

/**
 * rxb_devlink_init() - build the devlink parameter table.
 *
 * Return: 0.
 */
int rxb_devlink_init(void)
{
	unsigned int i;

	for (i = 0; i < RXB_NPARAMS; i++) {
		const struct rxb_param *p = &rxb_params[i];

		rxb_dl_params[i] = (struct devlink_param)
			DEVLINK_PARAM_DRIVER(RXB_DL_PARAM_BASE + i, p->name,
					     rxb_dl_is_string(p) ?
					     DEVLINK_PARAM_TYPE_STRING :
					     DEVLINK_PARAM_TYPE_U32,
					     BIT(DEVLINK_PARAM_CMODE_RUNTIME),
					     RXB_DL_PARAM_GET(rxb_dl_param_get),
					     RXB_DL_PARAM_SET(rxb_dl_param_set),
					     RXB_DL_PARAM_VALIDATE(rxb_dl_param_validate));
	}
	rxb_dl_params[RXB_NPARAMS] = (struct devlink_param)
		DEVLINK_PARAM_DRIVER(RXB_DL_PARAM_STALL, "stall_timeout_ms",
				     DEVLINK_PARAM_TYPE_U32,
				     BIT(DEVLINK_PARAM_CMODE_RUNTIME),
				     RXB_DL_PARAM_GET(rxb_dl_stall_get),
				     RXB_DL_PARAM_SET(rxb_dl_stall_set),
				     RXB_DL_PARAM_VALIDATE(rxb_dl_stall_validate));
	return 0;
}

static int rxb_dl_info_get(struct devlink *devlink, struct devlink_info_req *req,
			   struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = rxb_dev_of(devlink);
	char model[RXB_PARAM_STRLEN];
	int err;

	err = devlink_info_driver_name_put(req, RXB_DRV_NAME);
	if (err)
		return err;
	rtnl_lock();
	strscpy(model, rdev->ports[0]->cfg.model->name, sizeof(model));
	rtnl_unlock();
	err = devlink_info_version_running_put(req, "driver", RXB_DRV_VERSION);
	if (!err)
		err = devlink_info_version_running_put(req, "ring_model", model);
	if (!err)
		err = devlink_info_version_running_put(req, "ring_model_api",
						       RXB_MODEL_API_VERSION);
	return err;
}

static const struct devlink_ops rxb_devlink_ops = {
	.info_get	= rxb_dl_info_get,
};

static int rxb_dev_ports_register(struct rxb_dev *rdev)
{
	struct devlink *devlink = priv_to_devlink(rdev);
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
	};
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(rdev->dl_ports); i++) {
		attrs.phys.port_number = i;
		devlink_port_attrs_set(&rdev->dl_ports[i], &attrs);
		err = devl_port_register(devlink, &rdev->dl_ports[i], i);
		if (err) {
			while (i--)
				devl_port_unregister(&rdev->dl_ports[i]);
			return err;
		}
	}
	return 0;
}

/**
 * rxb_dev_probe() - set up a new bus device: devlink, ports, health.
 * @bdev: the device, registered.
 *
 * Return: 0 or a negative error.
 */
int rxb_dev_probe(struct rxb_bus_dev *bdev)
{
	struct devlink *devlink;
	struct rxb_dev *rdev;
	unsigned int i;
	int err;

	devlink = devlink_alloc(&rxb_devlink_ops, sizeof(*rdev), &bdev->dev);
	if (!devlink)
		return -ENOMEM;
	rdev = devlink_priv(devlink);
	rdev->bdev = bdev;
	rdev->stall_timeout_ms = RXB_DEF_STALL_MS;
	bdev->rdev = rdev;
	devl_lock(devlink);
	err = devl_params_register(devlink, rxb_dl_params,
				   ARRAY_SIZE(rxb_dl_params));
	if (err)
		goto err_unlock;
	err = rxb_dev_ports_register(rdev);
	if (err)
		goto err_params;
	rtnl_lock();
	err = rxb_pair_create(&init_net, NULL, rdev, NULL);
	rtnl_unlock();
	if (err)
		goto err_ports;
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++)
		rxb_devlink_port_type_eth_set(&rdev->dl_ports[i],
					      rdev->ports[i]->dev);
	err = rxb_health_init(rdev);
	if (err)
		goto err_netdevs;
	devl_unlock(devlink);
	devlink_register(devlink);
	rxb_health_start(rdev);
	return 0;

err_netdevs:
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++)
		rxb_devlink_port_type_clear(&rdev->dl_ports[i]);
	rtnl_lock();
	rxb_pair_destroy(rdev->ports[0]);
	rtnl_unlock();
err_ports:
	for (i = 0; i < ARRAY_SIZE(rdev->dl_ports); i++)
		devl_port_unregister(&rdev->dl_ports[i]);
err_params:
	devl_params_unregister(devlink, rxb_dl_params,
			       ARRAY_SIZE(rxb_dl_params));
err_unlock:
	devl_unlock(devlink);
	devlink_free(devlink);
	bdev->rdev = NULL;
	return err;
}

/**
 * rxb_dev_remove() - tear a bus device down: ports, devlink.
 * @bdev: the device.
 */
void rxb_dev_remove(struct rxb_bus_dev *bdev)
{
	struct rxb_dev *rdev = bdev->rdev;
	struct devlink *devlink = priv_to_devlink(rdev);
	unsigned int i;

	rxb_health_stop(rdev);
	devlink_unregister(devlink);
	devl_lock(devlink);
	rxb_health_fini(rdev);
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++)
		rxb_devlink_port_type_clear(&rdev->dl_ports[i]);
	rtnl_lock();
	rxb_pair_destroy(rdev->ports[0]);
	rtnl_unlock();
	for (i = 0; i < ARRAY_SIZE(rdev->dl_ports); i++)
		devl_port_unregister(&rdev->dl_ports[i]);
	devl_params_unregister(devlink, rxb_dl_params,
			       ARRAY_SIZE(rxb_dl_params));
	devl_unlock(devlink);
	devlink_free(devlink);
	bdev->rdev = NULL;
}
