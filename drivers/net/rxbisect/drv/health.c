// SPDX-License-Identifier: GPL-2.0
/*
 * devlink health reporters of a bus device (Documentation/devlink.rst):
 *
 * "rx_stall": a watchdog finds receive queues that have completions
 * waiting and whose consumer has not run for stall_timeout_ms (a devlink
 * parameter), reports each with a dump of the queue's ring state, and
 * recovers it: the stall knob is cleared and the queue's vector fired, so
 * that its NAPI runs again.
 *
 * "dma_fault" and "alloc_fail": errors the driver itself sees in its
 * receive path, a completion the NIC wrote with its DMA error bit and a
 * buffer (or skb) that could not be allocated.  rxb_health_event() counts
 * one from any context; a work item reports them, at most one report per
 * kind and port per RXB_HEALTH_PERIOD_MS (the errors between in it), the
 * alloc_fail reporter's graceful period: a burst of errors is one report,
 * and one automatic recovery.
 *
 * Locks: the watchdog collects under RTNL and reports without it, because
 * reporting takes the devlink lock, which is taken before RTNL elsewhere.
 * The devlink core calls .diagnose, .test and a requested .dump or
 * .recover with the devlink lock held: they may take RTNL, and .test asks
 * the watchdog for its report (reporting there would take the lock again).
 */
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include "rxbisect.h"

#define RXB_STALL_MAX	8	/* reports per watchdog round */
#define RXB_HEALTH_PERIOD_MS	500	/* dma_fault, alloc_fail: see above */

/**
 * struct rxb_health_ctx - what a report is about (its priv_ctx).
 * @port: the port.
 * @q: the receive queue (of the latest error).
 * @errors: errors the report stands for (0: a stall).
 */
struct rxb_health_ctx {
	struct rxb_port *port;
	unsigned int q;
	unsigned int errors;
};

/* Milliseconds since queue @q of @port was last polled. */
static u32 rxb_ms_since_poll(struct rxb_port *port, unsigned int q)
{
	return jiffies_to_msecs(jiffies - READ_ONCE(port->knobs[q].last_poll));
}

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
	struct rxb_health_ctx found[RXB_STALL_MAX];
	unsigned int i, q, n = 0;

	rtnl_lock();
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++) {
		struct rxb_port *port = rdev->ports[i];
		struct rxb_rx *rx = rtnl_dereference(port->rx);

		for (q = 0; rx && q < rx->nqueues && n < RXB_STALL_MAX; q++)
			if (rxb_queue_stalled(port, rx, q, timeout))
				found[n++] = (struct rxb_health_ctx){ port, q };
	}
	rtnl_unlock();
	/* The ports outlive this work: rxb_health_fini() cancels it first. */
	for (i = 0; i < n; i++)
		devlink_health_report(rdev->stall_reporter,
				      "receive queue stalled", &found[i]);
	/* "devlink health test": a report of the first port's queue 0. */
	if (READ_ONCE(rdev->stall_test)) {
		WRITE_ONCE(rdev->stall_test, false);
		found[0] = (struct rxb_health_ctx){ rdev->ports[0], 0 };
		devlink_health_report(rdev->stall_reporter,
				      "test report (devlink health test)",
				      &found[0]);
	}
	schedule_delayed_work(&rdev->watchdog, max(timeout / 2, 1UL));
}

/* Receive queue @q of @port as the driver and the NIC's debug registers
 * see it: its ring model, ring size, the NIC's completion tail (head), the
 * driver's (tail), generation, entries between them, buffers posted, and
 * whether the queue's vector is masked.  RTNL held.
 */
static int rxb_health_put_queue(struct devlink_fmsg *fmsg,
				struct rxb_port *port, unsigned int q)
{
	struct rxb_rx *rx = rtnl_dereference(port->rx);
	struct rxb_ring_state st = {};
	struct rxb_hw_debug ring = {};
	struct rxb_nic_qdebug d = {};
	int err;

	if (rx && q < rx->nqueues && rx->model->ops->ring_state)
		rx->model->ops->ring_state(rx->model, q, &st);
	/* The NIC's side of the ring, from its debug registers. */
	if (rx && q < rx->nqueues && rx->model->ops->nic_debug)
		rx->model->ops->nic_debug(rx->model, q, &ring);
	rxb_nic_debug_read(port->nic, q, &d);
	err = rxb_fmsg_string_pair_put(fmsg, "port", netdev_name(port->dev));
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "queue", q);
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
	if (!err && rx && q < rx->nqueues)
		err = rxb_fmsg_bool_pair_put(fmsg, "vector_masked",
					     d.vec_masked);
	return err;
}

/* Is there a report to dump?  A dump is taken when one is made. */
static int rxb_health_ctx_check(const void *priv_ctx,
				struct netlink_ext_ack *extack)
{
	if (priv_ctx)
		return 0;
	NL_SET_ERR_MSG_MOD(extack, "a dump is taken when an error is reported");
	return -EOPNOTSUPP;
}

static int rxb_stall_dump(struct devlink_health_reporter *reporter,
			  struct devlink_fmsg *fmsg, void *priv_ctx,
			  struct netlink_ext_ack *extack)
{
	struct rxb_health_ctx *ctx = priv_ctx;
	struct rxb_port *port;
	unsigned int q;
	int err;

	err = rxb_health_ctx_check(ctx, extack);
	if (err)
		return err;
	port = ctx->port;
	q = ctx->q;
	rtnl_lock();
	err = rxb_health_put_queue(fmsg, port, q);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "ms_since_poll",
					    rxb_ms_since_poll(port, q));
	if (!err)
		err = rxb_fmsg_bool_pair_put(fmsg, "stall_knob",
					     READ_ONCE(port->knobs[q].stall));
	rtnl_unlock();
	return err;
}

/* One queue of the rx_stall diagnosis.  RTNL held. */
static int rxb_stall_diagnose_queue(struct devlink_fmsg *fmsg,
				    struct rxb_port *port, unsigned int q,
				    bool stalled)
{
	int err;

	err = rxb_fmsg_obj_nest_start(fmsg);
	if (!err)
		err = rxb_fmsg_string_pair_put(fmsg, "port",
					       netdev_name(port->dev));
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "queue", q);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "ms_since_poll",
					    rxb_ms_since_poll(port, q));
	if (!err)
		err = rxb_fmsg_bool_pair_put(fmsg, "stalled", stalled);
	if (!err)
		err = rxb_fmsg_obj_nest_end(fmsg);
	return err;
}

/* "devlink health diagnose": every receive queue of both ports, whether
 * it has completions waiting, since when its consumer has not run, and
 * whether that makes it stalled now.
 */
static int rxb_stall_diagnose(struct devlink_health_reporter *reporter,
			      struct devlink_fmsg *fmsg,
			      struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);
	u32 timeout_ms = READ_ONCE(rdev->stall_timeout_ms);
	unsigned long timeout = msecs_to_jiffies(timeout_ms);
	unsigned int i, q, stalled = 0;
	int err;

	err = rxb_fmsg_u32_pair_put(fmsg, "stall_timeout_ms", timeout_ms);
	if (!err)
		err = rxb_fmsg_arr_pair_nest_start(fmsg, "queues");
	rtnl_lock();
	for (i = 0; !err && i < ARRAY_SIZE(rdev->ports); i++) {
		struct rxb_port *port = rdev->ports[i];
		struct rxb_rx *rx = rtnl_dereference(port->rx);

		for (q = 0; !err && rx && q < rx->nqueues; q++) {
			bool st = rxb_queue_stalled(port, rx, q, timeout);

			stalled += st;
			err = rxb_stall_diagnose_queue(fmsg, port, q, st);
		}
	}
	rtnl_unlock();
	if (!err)
		err = rxb_fmsg_arr_pair_nest_end(fmsg);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "stalled", stalled);
	return err;
}

/* "devlink health test": the watchdog reports queue 0 of the first port
 * at once (a report from here would take the devlink lock again).
 */
static int rxb_stall_test(struct devlink_health_reporter *reporter,
			  struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);
	int err = 0;

	/* Not once rxb_health_stop() began (an RCU reader of ev_live). */
	rcu_read_lock();
	if (READ_ONCE(rdev->ev_live)) {
		WRITE_ONCE(rdev->stall_test, true);
		mod_delayed_work(system_wq, &rdev->watchdog, 0);
	} else {
		err = -ENODEV;
	}
	rcu_read_unlock();
	return err;
}

/* "devlink health recover" of rx_stall and alloc_fail: restart consumers.
 * rx_stall's restarts the reported queue and clears its stall knob;
 * alloc_fail's has every receive queue of the reported port poll now and
 * refill its ring, instead of at its back-off timer (rxb_refill_retry()).
 * Without a report (a user's recover), every queue of the device.
 */
static int rxb_health_recover(struct devlink_health_reporter *reporter,
			      void *priv_ctx, struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);
	bool stall = reporter == rdev->stall_reporter;
	struct rxb_health_ctx *ctx = priv_ctx;
	unsigned int i, q;

	rtnl_lock();
	for (i = 0; i < ARRAY_SIZE(rdev->ports); i++) {
		struct rxb_port *port = rdev->ports[i];

		if (ctx && port != ctx->port)
			continue;
		for (q = 0; q < port->cfg.nqueues; q++) {
			if (ctx && stall && q != ctx->q)
				continue;
			if (stall)
				WRITE_ONCE(port->knobs[q].stall, 0);
			rxb_queue_kick(port, q);
		}
	}
	rtnl_unlock();
	return 0;
}

static const struct devlink_health_reporter_ops rxb_stall_ops = {
	.name		= "rx_stall",
	.dump		= rxb_stall_dump,
	.recover	= rxb_health_recover,
	.diagnose	= rxb_stall_diagnose,
	.test		= rxb_stall_test,
};

/**
 * rxb_health_event() - count an error for the dma_fault or alloc_fail
 *	reporter, and have it reported.
 * @port: the port that saw it.
 * @kind: which.
 * @q: its receive queue.
 *
 * Any context; a port without a devlink instance reports nothing.
 */
void rxb_health_event(struct rxb_port *port, enum rxb_health_kind kind,
		      unsigned int q)
{
	struct rxb_dev *rdev = port->rdev;
	struct rxb_health_ev *ev;

	if (!rdev)
		return;
	ev = &rdev->ev[kind][port->index];
	WRITE_ONCE(ev->queue, q);
	/* The first since the last report wakes the work. */
	if (atomic_inc_return(&ev->count) != 1)
		return;
	rcu_read_lock();
	if (READ_ONCE(rdev->ev_live))
		schedule_delayed_work(&rdev->ev_work, 0);
	rcu_read_unlock();
}

static const char * const rxb_health_msg[RXB_HEALTH_NKINDS] = {
	[RXB_HEALTH_DMA]	= "DMA error in a receive completion",
	[RXB_HEALTH_ALLOC]	= "receive buffer allocation failed",
};

/* Report the errors counted since the last report of each kind and port,
 * if the last is RXB_HEALTH_PERIOD_MS old; come back for those that must
 * wait, and once more a period after a report: the dma_fault reporter,
 * which recovers nothing, is healthy again after a period without errors.
 */
static void rxb_health_ev_work(struct work_struct *work)
{
	struct rxb_dev *rdev = container_of(to_delayed_work(work),
					    struct rxb_dev, ev_work);
	struct devlink_health_reporter *dma = rdev->reporters[RXB_HEALTH_DMA];
	unsigned long period = msecs_to_jiffies(RXB_HEALTH_PERIOD_MS);
	unsigned long now = jiffies, next = 0;
	struct rxb_health_ctx ctx;
	bool quiet = true;
	unsigned int k, i;

	for (k = 0; k < RXB_HEALTH_NKINDS; k++) {
		for (i = 0; i < ARRAY_SIZE(rdev->ports); i++) {
			struct rxb_health_ev *ev = &rdev->ev[k][i];
			unsigned long due = ev->last + period;

			if (ev->reports && time_before(now, due)) {
				/* Within a period of the last report. */
				next = next ? min(next, due - now) : due - now;
				if (k == RXB_HEALTH_DMA)
					quiet = false;
				continue;
			}
			if (!atomic_read(&ev->count))
				continue;
			ctx.port = rdev->ports[i];
			ctx.q = READ_ONCE(ev->queue);
			ctx.errors = atomic_xchg(&ev->count, 0);
			ev->last = now;
			ev->reports++;
			devlink_health_report(rdev->reporters[k],
					      rxb_health_msg[k], &ctx);
			next = next ? min(next, period) : period;
			if (k == RXB_HEALTH_DMA)
				quiet = false;
		}
	}
	if (quiet)
		devlink_health_reporter_state_update(dma,
						     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
	if (next && READ_ONCE(rdev->ev_live))
		schedule_delayed_work(&rdev->ev_work, next);
}

/* A name and value for a devlink_fmsg u64 pair. */
struct rxb_fmsg_u64 {
	const char *name;
	u64 val;
};

/* A port's totals of the counters behind @kind's errors, as ethtool -S
 * shows them (port-wide names).
 */
static int rxb_health_put_counts(struct devlink_fmsg *fmsg,
				 struct rxb_port *port,
				 enum rxb_health_kind kind)
{
	struct rxb_nic_counters nc;
	u64 dma_errors = 0, alloc_fails = 0, skb_drops = 0, backoffs = 0;
	struct rxb_fmsg_u64 c[3];
	struct rxb_qxstats xst;
	struct rxb_qstats st;
	unsigned int q, i, n = 0;
	int err = 0;

	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		rxb_get_qstats(port, q, &st, &xst);
		dma_errors += xst.dma_errors;
		alloc_fails += st.alloc_fails;
		skb_drops += xst.skb_drops;
		backoffs += xst.refill_backoffs;
	}
	if (kind == RXB_HEALTH_DMA) {
		/* The NIC's statistics register, and the driver's drops. */
		rxb_nic_read_counters(port->nic, &nc);
		c[n++] = (struct rxb_fmsg_u64){ "rx_dma_faults", nc.dma_faults };
		c[n++] = (struct rxb_fmsg_u64){ "rx_dma_errors", dma_errors };
	} else {
		c[n++] = (struct rxb_fmsg_u64){ "alloc_fails", alloc_fails };
		c[n++] = (struct rxb_fmsg_u64){ "rx_skb_drops", skb_drops };
		c[n++] = (struct rxb_fmsg_u64){ "rx_refill_backoffs", backoffs };
	}
	for (i = 0; !err && i < n; i++)
		err = rxb_fmsg_u64_pair_put(fmsg, c[i].name, c[i].val);
	return err;
}

static enum rxb_health_kind
rxb_health_kind_of(struct devlink_health_reporter *reporter)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);

	return reporter == rdev->reporters[RXB_HEALTH_DMA] ? RXB_HEALTH_DMA :
							     RXB_HEALTH_ALLOC;
}

/* The dump of a dma_fault or alloc_fail report: the errors it stands for,
 * the port's totals, and the state of the queue of the latest.
 */
static int rxb_health_ev_dump(struct devlink_health_reporter *reporter,
			      struct devlink_fmsg *fmsg, void *priv_ctx,
			      struct netlink_ext_ack *extack)
{
	struct rxb_health_ctx *ctx = priv_ctx;
	int err;

	err = rxb_health_ctx_check(ctx, extack);
	if (err)
		return err;
	rtnl_lock();
	err = rxb_health_put_queue(fmsg, ctx->port, ctx->q);
	if (!err)
		err = rxb_fmsg_u32_pair_put(fmsg, "errors", ctx->errors);
	if (!err)
		err = rxb_health_put_counts(fmsg, ctx->port,
					    rxb_health_kind_of(reporter));
	rtnl_unlock();
	return err;
}

/* "devlink health diagnose": per port, the reports made, the errors
 * waiting for the next, and the counters behind them.
 */
static int rxb_health_ev_diagnose(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg,
				  struct netlink_ext_ack *extack)
{
	struct rxb_dev *rdev = devlink_health_reporter_priv(reporter);
	enum rxb_health_kind kind = rxb_health_kind_of(reporter);
	unsigned int i;
	int err;

	err = rxb_fmsg_u32_pair_put(fmsg, "report_period_ms",
				    RXB_HEALTH_PERIOD_MS);
	if (!err)
		err = rxb_fmsg_arr_pair_nest_start(fmsg, "ports");
	for (i = 0; !err && i < ARRAY_SIZE(rdev->ports); i++) {
		struct rxb_health_ev *ev = &rdev->ev[kind][i];
		struct rxb_port *port = rdev->ports[i];

		err = rxb_fmsg_obj_nest_start(fmsg);
		if (!err)
			err = rxb_fmsg_string_pair_put(fmsg, "port",
						       netdev_name(port->dev));
		if (!err)
			err = rxb_fmsg_u64_pair_put(fmsg, "reports",
						    READ_ONCE(ev->reports));
		if (!err)
			err = rxb_fmsg_u32_pair_put(fmsg, "pending",
						    atomic_read(&ev->count));
		if (!err)
			err = rxb_health_put_counts(fmsg, port, kind);
		if (!err)
			err = rxb_fmsg_obj_nest_end(fmsg);
	}
	if (!err)
		err = rxb_fmsg_arr_pair_nest_end(fmsg);
	return err;
}

/* No .recover: the driver drops the packet and recycles its buffer as it
 * finds the error, and the queue goes on; healthy again after a period
 * without errors.
 */
static const struct devlink_health_reporter_ops rxb_dma_ops = {
	.name		= "dma_fault",
	.dump		= rxb_health_ev_dump,
	.diagnose	= rxb_health_ev_diagnose,
};

static const struct devlink_health_reporter_ops rxb_alloc_ops = {
	.name		= "alloc_fail",
	.dump		= rxb_health_ev_dump,
	.recover	= rxb_health_recover,
	.diagnose	= rxb_health_ev_diagnose,
	RXB_HEALTH_GRACEFUL_PERIOD(RXB_HEALTH_PERIOD_MS)
};

/**
 * rxb_health_init() - create the reporters.
 * @rdev: the device; its devlink lock held.
 *
 * Return: 0 or a negative error.
 */
int rxb_health_init(struct rxb_dev *rdev)
{
	struct devlink *devlink = priv_to_devlink(rdev);
	struct devlink_health_reporter *r;

	r = rxb_health_reporter_create(devlink, &rxb_stall_ops, 0, rdev);
	if (IS_ERR(r))
		return PTR_ERR(r);
	rdev->stall_reporter = r;
	r = rxb_health_reporter_create(devlink, &rxb_dma_ops, 0, rdev);
	if (IS_ERR(r))
		goto err_stall;
	rdev->reporters[RXB_HEALTH_DMA] = r;
	r = rxb_health_reporter_create(devlink, &rxb_alloc_ops,
				       RXB_HEALTH_PERIOD_MS, rdev);
	if (IS_ERR(r))
		goto err_dma;
	rdev->reporters[RXB_HEALTH_ALLOC] = r;
	INIT_DELAYED_WORK(&rdev->watchdog, rxb_health_watchdog);
	INIT_DELAYED_WORK(&rdev->ev_work, rxb_health_ev_work);
	return 0;

err_dma:
	devl_health_reporter_destroy(rdev->reporters[RXB_HEALTH_DMA]);
err_stall:
	devl_health_reporter_destroy(rdev->stall_reporter);
	return PTR_ERR(r);
}

/**
 * rxb_health_start() - start the watchdog and the error reports, once
 *	devlink is registered.
 * @rdev: the device.
 */
void rxb_health_start(struct rxb_dev *rdev)
{
	WRITE_ONCE(rdev->ev_live, true);
	/* Errors counted before: reported now. */
	schedule_delayed_work(&rdev->ev_work, 0);
	schedule_delayed_work(&rdev->watchdog,
			      msecs_to_jiffies(rdev->stall_timeout_ms));
}

/**
 * rxb_health_stop() - stop the watchdog and the error reports, before
 *	devlink is unregistered.
 * @rdev: the device; neither its devlink lock nor RTNL held (a report
 *	takes both).
 */
void rxb_health_stop(struct rxb_dev *rdev)
{
	WRITE_ONCE(rdev->ev_live, false);
	/* Neither rxb_health_event() nor rxb_stall_test() schedules a work
	 * after this.
	 */
	synchronize_rcu();
	cancel_delayed_work_sync(&rdev->ev_work);
	cancel_delayed_work_sync(&rdev->watchdog);
}

/**
 * rxb_health_fini() - destroy the reporters.
 * @rdev: the device, its reports stopped.
 */
void rxb_health_fini(struct rxb_dev *rdev)
{
	devl_health_reporter_destroy(rdev->reporters[RXB_HEALTH_ALLOC]);
	devl_health_reporter_destroy(rdev->reporters[RXB_HEALTH_DMA]);
	devl_health_reporter_destroy(rdev->stall_reporter);
}
