// SPDX-License-Identifier: GPL-2.0
/*
 * Where the NIC's receive pipeline runs: inline, in the context of the
 * sender that put the frame on the wire, or on a dedicated engine thread
 * bound to one CPU (the engine parameter), which takes frames from a
 * lock-free ingress FIFO as the seeds' emulator core does.  Also the
 * engine_stall fault knob, which freezes either.
 */
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/dst.h>
#include "nic_hw.h"

/* Inline engine stalled: hold @skb.  False when the stall has just ended:
 * the caller runs the pipeline itself, after the frames held before.
 */
static bool rxb_nic_hold(struct rxb_nic *nic, struct sk_buff *skb)
{
	spin_lock(&nic->held.lock);
	/* Under the lock rxb_nic_stall() drains and un-stalls with. */
	if (!READ_ONCE(nic->engine_stall)) {
		spin_unlock(&nic->held.lock);
		return false;
	}
	if (skb_queue_len(&nic->held) >= RXB_ENGINE_FIFO) {
		atomic64_inc(&nic->fifo_drops);
		kfree_skb(skb);
	} else {
		__skb_queue_tail(&nic->held, skb);
	}
	spin_unlock(&nic->held.lock);
	return true;
}

/**
 * rxb_nic_bh_batch() - note a section of @n frames run with bottom halves
 * disabled.
 * @nic: the NIC.
 * @n: frames.
 */
void rxb_nic_bh_batch(struct rxb_nic *nic, int n)
{
	int max = atomic_read(&nic->max_bh_batch);

	while (n > max) {
		int old = atomic_cmpxchg(&nic->max_bh_batch, max, n);

		if (old == max)
			break;
		max = old;
	}
}

/**
 * rxb_nic_stall() - fault knob: freeze or resume the receive engine.
 * @nic: the NIC.
 * @stall: freeze when true.
 *
 * A frozen engine leaves arriving frames in its ingress FIFO: the
 * dedicated engine's queue, or for the inline engine @nic->held.
 * Resuming processes them in order, RXB_NIC_BH_BATCH at a time with
 * bottom halves disabled.  Until @nic->held is found empty the engine
 * stays stalled, so that frames arriving meanwhile queue up behind the
 * held ones; it is un-stalled under the lock that found it empty, so that
 * no frame goes inline before a held one.  Process context.
 */
void rxb_nic_stall(struct rxb_nic *nic, bool stall)
{
	struct rxb_engine *eng;
	struct sk_buff *skb;
	bool more;
	int n;

	if (stall) {
		WRITE_ONCE(nic->engine_stall, 1);
		return;
	}
	do {
		local_bh_disable();
		rcu_read_lock();
		spin_lock(&nic->held.lock);
		for (n = 0; n < RXB_NIC_BH_BATCH; n++) {
			skb = __skb_dequeue(&nic->held);
			if (!skb)
				break;
			rxb_nic_receive(nic, skb);
			consume_skb(skb);
		}
		more = !skb_queue_empty(&nic->held);
		/* Senders that saw the stall wait on the lock, then go
		 * inline.
		 */
		if (!more)
			WRITE_ONCE(nic->engine_stall, 0);
		spin_unlock(&nic->held.lock);
		rcu_read_unlock();
		local_bh_enable();
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	} while (more);
	/* The doorbells posted while the engine was frozen. */
	rxb_nic_serve_doorbells(nic);
	/* wake_up_process() orders the store before its check of the
	 * engine's state; pairs with set_current_state() in rxb_engine_fn().
	 */
	rcu_read_lock();
	eng = rcu_dereference(nic->engine);
	if (eng)
		wake_up_process(eng->task);
	rcu_read_unlock();
}

/**
 * rxb_nic_stalled() - fault knob: is the receive engine frozen?
 * @nic: the NIC.
 *
 * Return: true while stalled (until the frames held are processed).
 */
bool rxb_nic_stalled(struct rxb_nic *nic)
{
	return READ_ONCE(nic->engine_stall);
}

/**
 * rxb_nic_ingress() - a frame from the wire reaches the NIC.
 * @nic: receiving NIC.
 * @skb: the frame; consumed.
 *
 * Inline mode runs the receive pipeline here, in the sender's context.
 * With a dedicated engine the frame waits in its ingress queue; a full
 * queue drops it, as a NIC's packet buffer overflows.  Called with RCU
 * read lock and bottom halves disabled (transmit path).
 */
void rxb_nic_ingress(struct rxb_nic *nic, struct sk_buff *skb)
{
	struct rxb_engine *eng = rcu_dereference(nic->engine);

	if (unlikely(READ_ONCE(nic->engine_stall))) {
		atomic64_inc(&nic->stall_frames);
		/* It may wait long: let go of the sender's socket and route. */
		skb_dst_drop(skb);
		skb_orphan(skb);
		if (!eng && rxb_nic_hold(nic, skb))
			return;
	}
	if (!eng) {
		rxb_nic_receive(nic, skb);
		consume_skb(skb);
		return;
	}
	if (atomic_inc_return(&eng->len) > RXB_ENGINE_FIFO) {
		atomic_dec(&eng->len);
		atomic64_inc(&nic->fifo_drops);
		kfree_skb(skb);
		return;
	}
	/* llist_add() is a full barrier: the skb is complete before the
	 * engine can see it.  Wake it when the queue was empty: it sleeps
	 * only after finding the queue empty (rxb_engine_fn()).
	 */
	if (llist_add(&skb->ll_node, &eng->ingress))
		wake_up_process(eng->task);
}

/* Process the frames of @list in order, RXB_NIC_BH_BATCH at a time with
 * bottom halves disabled.  Process context.
 */
static void rxb_engine_run(struct rxb_engine *eng, struct llist_node *list)
{
	struct rxb_nic *nic = eng->nic;
	struct sk_buff *skb;
	int n;

	while (list) {
		local_bh_disable();
		rcu_read_lock();
		for (n = 0; list && n < RXB_NIC_BH_BATCH; n++) {
			skb = llist_entry(list, struct sk_buff, ll_node);
			list = list->next;
			skb->next = NULL;
			rxb_nic_receive(nic, skb);
			consume_skb(skb);
		}
		rcu_read_unlock();
		local_bh_enable();
		atomic_sub(n, &eng->len);
		atomic64_add(n, &nic->engine_frames);
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	}
}

/* The TLS engine's transmit work (nic_tls.c), bottom halves off. */
static void rxb_engine_egress(struct rxb_engine *eng)
{
	struct llist_node *list = llist_del_all(&eng->egress);

	if (!list)
		return;
	local_bh_disable();
	rcu_read_lock();
	rxb_nic_tls_egress(eng->nic, llist_reverse_order(list));
	rcu_read_unlock();
	local_bh_enable();
}

static int rxb_engine_fn(void *arg)
{
	struct rxb_engine *eng = arg;
	struct llist_node *list;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* Pairs with llist_add() in rxb_nic_ingress(): a frame added
		 * after this check wakes us, one added before is seen here;
		 * with wake_up_process() in rxb_nic_stall(), and in
		 * rxb_nic_ctx_kick() after the driver set the doorbell
		 * pending flag; with llist_add() in rxb_nic_tls_xmit() for
		 * the egress queue.
		 */
		if (llist_empty(&eng->egress) &&
		    (READ_ONCE(eng->nic->engine_stall) ||
		     (llist_empty(&eng->ingress) &&
		      !rxb_nic_doorbells_pending(eng->nic)))) {
			if (kthread_should_stop())
				break;
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		rxb_engine_egress(eng);
		if (READ_ONCE(eng->nic->engine_stall)) {
			cond_resched();
			continue;
		}
		/* Doorbells the driver posted (rxb_nic_ctx_kick() woke us). */
		if (llist_empty(&eng->ingress)) {
			rxb_nic_serve_doorbells(eng->nic);
			cond_resched();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		list = llist_reverse_order(llist_del_all(&eng->ingress));
		rxb_engine_run(eng, list);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/**
 * rxb_nic_engine_start() - run the NIC on a thread bound to @cpu.
 * @nic: the NIC; RTNL held.
 * @cpu: an online CPU.
 * @old: set to the engine the new one replaces (NULL: inline), which goes
 *	on with the frames it holds until rxb_nic_engine_stop(@nic, *@old)
 *	or rxb_nic_engine_revert().
 *
 * Return: 0 or a negative error; nothing changed on error.
 */
int rxb_nic_engine_start(struct rxb_nic *nic, int cpu,
			 struct rxb_engine **old)
{
	struct rxb_engine *eng;

	eng = kzalloc(sizeof(*eng), GFP_KERNEL);
	if (!eng)
		return -ENOMEM;
	eng->nic = nic;
	eng->cpu = cpu;
	init_llist_head(&eng->ingress);
	init_llist_head(&eng->egress);
	eng->task = kthread_create(rxb_engine_fn, eng, "rxb-nic/%s",
				   netdev_name(nic->dev));
	if (IS_ERR(eng->task)) {
		int err = PTR_ERR(eng->task);

		kfree(eng);
		return err;
	}
	kthread_bind(eng->task, cpu);
	wake_up_process(eng->task);
	*old = rtnl_dereference(nic->engine);
	rcu_assign_pointer(nic->engine, eng);
	return 0;
}

/* Stop @eng, no longer published: process what it still holds (or drop
 * it if no context is enabled) and free it.
 */
static void rxb_engine_free(struct rxb_engine *eng)
{
	/* No sender still adds to the ingress queue after this. */
	synchronize_net();
	kthread_stop(eng->task);
	rxb_engine_egress(eng);
	rxb_engine_run(eng, llist_reverse_order(llist_del_all(&eng->ingress)));
	kfree(eng);
}

/**
 * rxb_nic_engine_stop() - stop an engine thread.
 * @nic: the NIC; RTNL held.
 * @eng: an engine rxb_nic_engine_start() replaced, or NULL: the running
 *	one, after which the NIC runs inline.
 *
 * Frames the engine still holds are processed (or dropped if no receive
 * context is enabled) first.
 */
void rxb_nic_engine_stop(struct rxb_nic *nic, struct rxb_engine *eng)
{
	if (!eng) {
		eng = rtnl_dereference(nic->engine);
		if (!eng)
			return;
		RCU_INIT_POINTER(nic->engine, NULL);
	}
	rxb_engine_free(eng);
}

/**
 * rxb_nic_engine_revert() - undo rxb_nic_engine_start(): stop the running
 * engine and go back to @old.
 * @nic: the NIC; RTNL held.
 * @old: what rxb_nic_engine_start() returned in its @old.
 */
void rxb_nic_engine_revert(struct rxb_nic *nic, struct rxb_engine *old)
{
	struct rxb_engine *eng = rtnl_dereference(nic->engine);

	rcu_assign_pointer(nic->engine, old);
	if (eng)
		rxb_engine_free(eng);
}

/**
 * rxb_nic_engine_running() - does a dedicated engine thread run the NIC?
 * @nic: the NIC; RTNL held.
 *
 * Return: true when one does, false when the NIC runs inline.
 */
bool rxb_nic_engine_running(struct rxb_nic *nic)
{
	return rtnl_dereference(nic->engine);
}

/**
 * rxb_nic_engine_fini() - at the NIC's destruction: stop the engine and
 * drop the frames a stall held.
 * @nic: the NIC; nothing transmits to it any more.
 */
void rxb_nic_engine_fini(struct rxb_nic *nic)
{
	/* The net device's destructor runs after rtnl_unlock(): no RTNL
	 * here, but nothing else sees the NIC any more either.
	 */
	struct rxb_engine *eng = rcu_dereference_protected(nic->engine, true);

	if (eng) {
		RCU_INIT_POINTER(nic->engine, NULL);
		rxb_engine_free(eng);
	}
	skb_queue_purge(&nic->held);
}
