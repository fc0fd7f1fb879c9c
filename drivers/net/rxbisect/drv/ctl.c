// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's periodic control task of a ring model.
 *
 * A model with a software controller (rxb_model_ops.ctl_tick: dynamic
 * shRing's, thesis section 5.1.6, which reads the NIC's counters and
 * writes its steering registers) gets it run here, by a delayed work of
 * the driver on an unbound workqueue: like the thesis's thread on a
 * separate core, it takes no time from the queues' NAPI contexts, and the
 * NIC has no part in it.  It runs while the configuration is live, from
 * rxb_rx_start() to rxb_rx_stop(), at the delay the model returns, in
 * jiffies (at least one): the model measures the time between its runs
 * itself.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>
#include "rxbisect.h"

static void rxb_ctl_work(struct work_struct *work)
{
	struct rxb_rx *rx = container_of(to_delayed_work(work), struct rxb_rx,
					 ctl_work);
	u64 ns = rx->model->ops->ctl_tick(rx->model, ktime_get_ns());

	queue_delayed_work(system_unbound_wq, &rx->ctl_work,
			   max(nsecs_to_jiffies(ns), 1UL));
}

/**
 * rxb_ctl_start() - start the model's control task, if it has one.
 * @rx: the configuration, just made live.
 */
void rxb_ctl_start(struct rxb_rx *rx)
{
	if (!rx->model->ops->ctl_tick)
		return;
	INIT_DELAYED_WORK(&rx->ctl_work, rxb_ctl_work);
	queue_delayed_work(system_unbound_wq, &rx->ctl_work, 1);
}

/**
 * rxb_ctl_stop() - stop the control task and wait for a run in progress.
 * @rx: the configuration, being torn down.
 */
void rxb_ctl_stop(struct rxb_rx *rx)
{
	if (rx->model->ops->ctl_tick)
		cancel_delayed_work_sync(&rx->ctl_work);
}
