// SPDX-License-Identifier: GPL-2.0
/*
 * devlink health reporter "rx_stall": a watchdog finds receive queues that
 * have completions waiting and whose consumer has not run for
 * stall_timeout_ms (a devlink parameter), reports each with a dump of the
 * queue's ring state, and recovers it: the stall knob is cleared and the
 * queue's vector fired, so that its NAPI runs again.
 *
 * Locks: the watchdog collects under RTNL and reports without it, because
 * reporting takes the devlink lock, which is taken before RTNL elsewhere.
 */
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include "rxbisect.h"

#define RXB_STALL_MAX	8	/* reports per watchdog round */

struct rxb_stall_ctx {
	struct rxb_port *port;
	unsigned int q;
};

/* Does queue @q have completions its consumer has not run for @timeout? */
static bool rxb_queue_stalled(struct rxb_port *port, struct rxb_rx *rx,
			      unsigned int q, unsigned long timeout)
{
	unsigned long last = READ_ONCE(port->knobs[q].last_poll);
	struct rxb_model *m = rx->model;
	struct rxb_ring_state st;
	struct rxb_hw_debug d;
	bool pending;

	/* Entries the NIC wrote (its debug registers) and the driver has not
	 * read; or, without those registers, a done entry at the head.
	 */
	if (m->ops->ring_state && m->ops->nic_debug) {
		m->ops->nic_debug(m, q, &d);
		m->ops->ring_state(m, q, &st);
		pending = d.cq_tail != st.drv_tail;
	} else {
		pending = m->ops->rx_pending(m, q);
	}
	return pending && time_after(jiffies, last + timeout);
}

static void rxb_health_watchdog(struct work_struct *work)
{
	struct rxb_dev *rdev = container_of(to_delayed_work(work),
					    struct rxb_dev, watchdog);
	unsigned long timeout = msecs_to_jiffies(READ_ONCE(rdev->stall_timeout_ms));
	struct rxb_stall_ctx found[RXB_STALL_MAX];
	unsigned int i, q, n = 0;

	rtnl_lock();
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++) {
		struct rxb_port *port = rdev->ports[i];
		struct rxb_rx *rx = rtnl_dereference(port->rx);

		for (q = 0; rx && q < rx->nqueues && n < RXB_STALL_MAX; q++)
			if (rxb_queue_stalled(port, rx, q, timeout))
				found[n++] = (struct rxb_stall_ctx){ port, q };
	}
	rtnl_unlock();
	/* The ports outlive this work: rxb_health_fini() cancels it first. */
	for (i = 0; i < n; i++)
		devlink_health_report(rdev->stall_reporter,
				      "receive queue stalled", &found[i]);
	schedule_delayed_work(&rdev->watchdog, max(timeout / 2, 1UL));
}

static int rxb_stall_dump(struct devlink_health_reporter *reporter,
			  struct devlink_fmsg *fmsg, void *priv_ctx,
			  struct netlink_ext_ack *extack)
{
	struct rxb_stall_ctx *ctx = priv_ctx;
	struct rxb_ring_state st = {};
	struct rxb_hw_debug ring = {};
	struct rxb_nic_qdebug d;
	struct rxb_port *port;
	unsigned long since;
	struct rxb_rx *rx;
	int err = 0;

	if (!ctx) {
		NL_SET_ERR_MSG_MOD(extack, "a dump is taken when a stall is reported");
		return -EOPNOTSUPP;
	}
	port = ctx->port;
	rtnl_lock();
	rx = rtnl_dereference(port->rx);
	if (rx && ctx->q < rx->nqueues && rx->model->ops->ring_state)
		rx->model->ops->ring_state(rx->model, ctx->q, &st);
	/* The NIC's side of the ring, from its debug registers. */
	if (rx && ctx->q < rx->nqueues && rx->model->ops->nic_debug)
		rx->model->ops->nic_debug(rx->model, ctx->q, &ring);
	rxb_nic_debug_read(port->nic, ctx->q, &d);
	err = rxb_fmsg_string_pair_put(fmsg, "port", netdev_name(port->dev));
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "queue", ctx->q);
	if (!err)
		err = rxb_fmsg_string_pair_put(fmsg, "ring_model",
					       port->cfg.model->name);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "size", st.size);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "head", ring.cq_tail);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "tail", st.drv_tail);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "generation", st.drv_gen);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "occupancy",
					    ring.cq_tail - st.drv_tail);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "posted", ring.posted);
	since = jiffies - READ_ONCE(port->knobs[ctx->q].last_poll);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "ms_since_poll",
					    jiffies_to_msecs(since));
	if (!err)
		err = rxb_fmsg_bool_pair_put(fmsg, "stall_knob",
					     READ_ONCE(port->knobs[ctx->q].stall));
	if (!err && rx && ctx->q < rx->nqueues)
		err = rxb_fmsg_bool_pair_put(fmsg, "vector_masked",
					     d.vec_masked);
	rtnl_unlock();
	return err;
}

/* Restart queue @q's consumer. */
static void rxb_stall_recover_queue(struct rxb_port *port, unsigned int q)
{
	WRITE_ONCE(port->knobs[q].stall, 0);
	rxb_queue_kick(port, q);
}

static int rxb_stall_recover(struct devlink_health_reporter *reporter,
			     void *priv_ctx, struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);
	struct rxb_stall_ctx *ctx = priv_ctx;
	unsigned int i, q;

	rtnl_lock();
	if (ctx) {
		rxb_stall_recover_queue(ctx->port, ctx->q);
	} else {
		/* "devlink health recover": every queue of the device. */
		for (i = 0; i < ARRAY_SIZE(rdev->ports); i++)
			for (q = 0; q < rdev->ports[i]->cfg.nqueues; q++)
				rxb_stall_recover_queue(rdev->ports[i], q);
	}
	rtnl_unlock();
	return 0;
}

static const struct devlink_health_reporter_ops rxb_stall_ops = {
	.name		= "rx_stall",
	.dump		= rxb_stall_dump,
	.recover	= rxb_stall_recover,
};

/**
 * rxb_health_init() - create the reporter.
 * @rdev: the device.
 *
 * Return: 0 or a negative error.
 */
int rxb_health_init(struct rxb_dev *rdev)
{
	struct devlink_health_reporter *r;

	r = devl_health_reporter_create(priv_to_devlink(rdev), &rxb_stall_ops,
					rdev);
	if (IS_ERR(r))
		return PTR_ERR(r);
	rdev->stall_reporter = r;
	INIT_DELAYED_WORK(&rdev->watchdog, rxb_health_watchdog);
	return 0;
}

/**
 * rxb_health_start() - start the watchdog, once devlink is registered.
 * @rdev: the device.
 */
void rxb_health_start(struct rxb_dev *rdev)
{
	schedule_delayed_work(&rdev->watchdog,
			      msecs_to_jiffies(rdev->stall_timeout_ms));
}

/**
 * rxb_health_stop() - stop the watchdog, before devlink is unregistered.
 * @rdev: the device; neither its devlink lock nor RTNL held (a report
 *	takes both).
 */
void rxb_health_stop(struct rxb_dev *rdev)
{
	cancel_delayed_work_sync(&rdev->watchdog);
}

/**
 * rxb_health_fini() - destroy the reporter.
 * @rdev: the device, watchdog stopped.
 */
void rxb_health_fini(struct rxb_dev *rdev)
{
	devl_health_reporter_destroy(rdev->stall_reporter);
}
