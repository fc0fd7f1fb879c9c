// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC: frame parser, RSS, DMA engine and MSI-X vectors.
 *
 * A frame transmitted on one port of a pair arrives here, at the other
 * port's NIC, as it would over a cable.  The NIC checks the frame, hashes
 * it (Toeplitz, rss.c), picks the queue from the indirection table and
 * hands it to the ring model's hardware half, which takes a posted buffer,
 * DMAs the frame into it and writes a completion.  The queue's vector then
 * interrupts the vector's CPU, where the driver's handler schedules NAPI.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/rtnetlink.h>
#include <net/checksum.h>
#include <net/dst.h>
#include "rxbisect.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rxbisect.h>

/* Bytes of a frame the parser looks at: L2 + VLAN + IPv6 + L4 ports. */
#define RXB_PARSE_LEN	96

/**
 * rxb_nic_init() - reset state of a port's NIC.
 * @nic: the NIC.
 * @nqueues: queues the default indirection table spreads over.
 * @mtu: initial MTU.
 */
void rxb_nic_init(struct rxb_nic *nic, unsigned int nqueues, unsigned int mtu)
{
	unsigned int i;

	netdev_rss_key_fill(nic->rss_key, sizeof(nic->rss_key));
	for (i = 0; i < RXB_RSS_INDIR_SIZE; i++)
		nic->rss_indir[i] = ethtool_rxfh_indir_default(i, nqueues);
	nic->max_frame = mtu + ETH_HLEN + VLAN_HLEN;
	nic->rx_csum = true;
	nic->coal_usecs = 0;
	nic->coal_frames = 0;
	skb_queue_head_init(&nic->held);
}

/**
 * rxb_nic_fini() - free what a port's NIC still holds.
 * @nic: the NIC of a port no one transmits to any more.
 */
void rxb_nic_fini(struct rxb_nic *nic)
{
	skb_queue_purge(&nic->held);
}

static void rxb_vec_ipi(void *arg)
{
	struct rxb_vector *vec = arg;

	/* The csd is free again once this runs (async csd unlocks first). */
	clear_bit(RXB_VEC_SENDING, &vec->flags);
	vec->isr(vec->isr_arg);
	/* Pairs with atomic_read_acquire() in rxb_vec_sync(). */
	smp_mb__before_atomic();
	atomic_dec(&vec->in_flight);
}

/* Send the interrupt message to the vector's CPU. */
static void rxb_vec_send(struct rxb_vector *vec)
{
	/* One message in flight is enough: a sender that finds one already
	 * on its way knows its handler has not started yet, so the NAPI poll
	 * it schedules will see what this sender published.
	 */
	if (test_and_set_bit(RXB_VEC_SENDING, &vec->flags))
		return;
	atomic_inc(&vec->in_flight);
	rxb_stat_inc(&vec->irqs);
	if (smp_call_function_single_async(READ_ONCE(vec->cpu), &vec->csd)) {
		/* CPU went offline: take the interrupt here instead. */
		unsigned long irqflags;

		local_irq_save(irqflags);
		rxb_vec_ipi(vec);
		local_irq_restore(irqflags);
	}
}

static enum hrtimer_restart rxb_vec_timer_fn(struct hrtimer *t)
{
	struct rxb_vector *vec = container_of(t, struct rxb_vector, timer);

	/* Nothing unsignalled: the interrupt went out on the frame count,
	 * or the driver re-armed the vector since this timer was started.
	 */
	if (atomic_read(&vec->events))
		rxb_vec_raise(vec);
	return HRTIMER_NORESTART;
}

/**
 * rxb_vec_init() - set up a vector.
 * @vec: the vector.
 * @cpu: its affinity.
 * @isr: the driver's handler.
 * @arg: argument of @isr.
 */
void rxb_vec_init(struct rxb_vector *vec, int cpu, void (*isr)(void *),
		  void *arg)
{
	vec->flags = 0;
	vec->irqs = 0;
	vec->cpu = cpu;
	atomic_set(&vec->in_flight, 0);
	atomic_set(&vec->events, 0);
	INIT_CSD(&vec->csd, rxb_vec_ipi, vec);
	vec->isr = isr;
	vec->isr_arg = arg;
	hrtimer_init(&vec->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	vec->timer.function = rxb_vec_timer_fn;
}

/**
 * rxb_vec_raise() - NIC: send the vector's interrupt now, unless masked.
 * @vec: the vector.
 *
 * Interrupts auto-mask: after one is raised, further events are silent
 * until the driver re-arms the vector with rxb_vec_unmask().
 */
void rxb_vec_raise(struct rxb_vector *vec)
{
	/* Fully ordered RMW: the completion written before this call is
	 * visible to a driver that then sees the vector unmasked.  Pairs
	 * with smp_mb__after_atomic() in rxb_vec_unmask().
	 */
	if (test_and_set_bit(RXB_VEC_MASKED, &vec->flags))
		return;
	/* A timer still pending has nothing left to signal. */
	hrtimer_try_to_cancel(&vec->timer);
	rxb_vec_send(vec);
}

/**
 * rxb_vec_event() - NIC: an event (a completion written) on a vector,
 * under interrupt moderation.
 * @vec: the vector.
 * @frames: rx-frames: signal once this many events are unsignalled.
 * @usecs: rx-usecs: signal this long after the first unsignalled event.
 *
 * Whichever comes first sends the interrupt; @frames and @usecs both 0:
 * at once.  Events while the vector is masked are not counted: the
 * driver's poll finds them (rxb_vec_unmask() and its pending check).
 */
void rxb_vec_event(struct rxb_vector *vec, u32 frames, u32 usecs)
{
	int n;

	if (!usecs && frames <= 1) {
		rxb_vec_raise(vec);
		return;
	}
	/* The completion before the mask test; pairs with
	 * smp_mb__after_atomic() in rxb_vec_unmask().
	 */
	smp_mb();
	if (test_bit(RXB_VEC_MASKED, &vec->flags))
		return;
	n = atomic_inc_return(&vec->events);
	if (frames && n >= frames)
		rxb_vec_raise(vec);
	else if (n == 1 && usecs)
		hrtimer_start(&vec->timer, ns_to_ktime(usecs * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
}

/**
 * rxb_vec_trigger() - driver: fire a vector by software ("interrupt
 * trigger" register), whether or not it is masked.
 * @vec: the vector.
 */
void rxb_vec_trigger(struct rxb_vector *vec)
{
	set_bit(RXB_VEC_MASKED, &vec->flags);
	rxb_vec_send(vec);
}

/**
 * rxb_vec_unmask() - driver: re-arm a vector after its NAPI completed.
 * @vec: the vector.
 *
 * Re-arming also restarts interrupt moderation's count.  The caller must
 * then check for completions that arrived while masked.
 */
void rxb_vec_unmask(struct rxb_vector *vec)
{
	/* Still masked: no event counts until the bit is clear. */
	atomic_set(&vec->events, 0);
	clear_bit(RXB_VEC_MASKED, &vec->flags);
	/* Pairs with the ordered test_and_set_bit() in rxb_vec_raise() and
	 * with smp_mb() in rxb_vec_event().
	 */
	smp_mb__after_atomic();
}

/**
 * rxb_vec_sync() - wait until no interrupt message of @vec is in flight.
 * @vec: the vector; nothing may raise or trigger it any more.
 */
void rxb_vec_sync(struct rxb_vector *vec)
{
	hrtimer_cancel(&vec->timer);
	/* Pairs with smp_mb__before_atomic() in rxb_vec_ipi(). */
	while (atomic_read_acquire(&vec->in_flight))
		cpu_relax();
}

/* A ring model signals queue @q: an event under the NIC's moderation. */
static void rxb_env_raise_irq(void *env, unsigned int q)
{
	struct rxb_rx *rx = env;
	const struct rxb_nic *nic = &rx->port->nic;

	rxb_vec_event(&rx->vec[q], READ_ONCE(nic->coal_frames),
		      READ_ONCE(nic->coal_usecs));
}

/* A frame inside the NIC: what the parser found, and the queue RSS chose
 * (the DMA engine counts its bytes per queue).
 */
struct rxb_nic_frame {
	struct rxb_frame f;
	unsigned int q;
};

/**
 * rxb_nic_dma_bytes() - bytes the DMA engine of @nic has written.
 * @nic: the NIC.
 *
 * Return: the exact sum of the per-queue counters (since the port was
 * created; they survive ring rebuilds).
 */
u64 rxb_nic_dma_bytes(struct rxb_nic *nic)
{
	u64 sum = 0;
	unsigned int q;

	for (q = 0; q < RXB_MAX_QUEUES; q++)
		sum += atomic64_read(&nic->dma_bytes[q].v);
	return sum;
}

/* The DMA engine.  Bus addresses are physical addresses: the emulated
 * device sits behind an identity IOMMU mapping onto the kernel's linear
 * map, which is where page_pool pages live.
 *
 * The frame crosses the emulated wire in this one copy, so the checksum
 * work of both ends is done in the same pass: the sender's Tx checksum
 * offload (CHECKSUM_PARTIAL: fill in the L4 checksum) and this NIC's Rx
 * checksum (the sum of everything after the Ethernet header).  A filled-in
 * checksum that folds to 0 goes out as 0xffff (CSUM_MANGLED_0), as
 * skb_checksum_help() and real NICs write it: in UDP a 0 would mean "no
 * checksum" (IPv4) or be invalid (IPv6); for TCP both forms are the same.
 *
 * Bytes are counted per queue, each counter in its own cache line: no line
 * is shared by the DMA writes of different queues.
 *
 * The dma_fail knob fails a write as a bus or IOMMU error would: nothing
 * is written and the completion carries the error bit.
 */
static u8 rxb_env_dma_write(void *env, const struct rxb_frame *f, u64 addr,
			    u32 *csum)
{
	const struct rxb_nic_frame *nf =
		container_of(f, const struct rxb_nic_frame, f);
	const struct sk_buff *skb = f->data;
	struct rxb_rx *rx = env;
	struct rxb_nic *nic = &rx->port->nic;
	u8 *dst = phys_to_virt(addr);
	unsigned int start;
	__sum16 *field, old;
	__wsum l4;

	if (rxb_fault_hit(&rx->port->fault.dma_fail)) {
		atomic64_inc(&nic->dma_faults);
		return RXB_CQE_F_DMA_ERR;
	}
	rxb_wss_record(&rx->wss, (addr >> PAGE_SHIFT) + 1);
	atomic64_add(f->len, &nic->dma_bytes[nf->q].v);

	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		if (!READ_ONCE(nic->rx_csum)) {
			skb_copy_bits(skb, 0, dst, f->len);
			return 0;
		}
		skb_copy_bits(skb, 0, dst, ETH_HLEN);
		*csum = (__force u32)skb_copy_and_csum_bits(skb, ETH_HLEN,
							    dst + ETH_HLEN,
							    f->len - ETH_HLEN);
		return RXB_CQE_F_CSUM;
	}
	/* rxb_xmit() checked csum_start and csum_offset against the frame. */
	start = skb_checksum_start_offset(skb);
	skb_copy_bits(skb, 0, dst, start);
	l4 = skb_copy_and_csum_bits(skb, start, dst + start, f->len - start);
	field = (__sum16 *)(dst + start + skb->csum_offset);
	old = *field;
	*field = csum_fold(l4) ?: CSUM_MANGLED_0;
	if (!READ_ONCE(nic->rx_csum))
		return 0;
	/* The L4 sum with the checksum field as it now is on the wire. */
	l4 = csum_add(csum_sub(l4, csum_unfold(old)), csum_unfold(*field));
	*csum = (__force u32)csum_block_add(csum_partial(dst + ETH_HLEN,
							 start - ETH_HLEN, 0),
					    l4, start - ETH_HLEN);
	return RXB_CQE_F_CSUM;
}

static enum hrtimer_restart rxb_nic_timer_fn(struct hrtimer *t)
{
	struct rxb_rx *rx = container_of(t, struct rxb_rx, timer);

	rx->model->ops->hw_timer(rx->model);
	return HRTIMER_NORESTART;
}

/**
 * rxb_nic_timer_init() - set up the NIC's timer of a configuration.
 * @rx: the configuration.
 */
void rxb_nic_timer_init(struct rxb_rx *rx)
{
	hrtimer_init(&rx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rx->timer.function = rxb_nic_timer_fn;
}

static void rxb_env_arm_timer(void *env, u64 ns)
{
	struct rxb_rx *rx = env;

	if (!hrtimer_is_queued(&rx->timer))
		hrtimer_start(&rx->timer, ns_to_ktime(ns),
			      HRTIMER_MODE_REL_SOFT);
}

static u64 rxb_env_now_ns(void *env)
{
	return ktime_get_ns();
}

const struct rxb_env_ops rxb_env_ops = {
	/* the driver's buffers (rx.c) */
	.alloc_buf	= rxb_rx_alloc_buf,
	.free_buf	= rxb_rx_free_buf,
	.ref_buf	= rxb_rx_ref_buf,
	.buf_cookie	= rxb_rx_buf_cookie,
	/* the NIC's vectors, timer, clock and DMA engine */
	.raise_irq	= rxb_env_raise_irq,
	.arm_timer	= rxb_env_arm_timer,
	.now_ns		= rxb_env_now_ns,
	.dma_write	= rxb_env_dma_write,
};

/**
 * rxb_nic_receive() - a frame arrives at @port's NIC from the wire.
 * @port: receiving port.
 * @skb: the frame; the caller keeps ownership.
 *
 * Called with RCU read lock and bottom halves disabled (transmit path).
 */
void rxb_nic_receive(struct rxb_port *port, struct sk_buff *skb)
{
	struct rxb_nic *nic = &port->nic;
	u8 hdr[RXB_PARSE_LEN];
	struct rxb_nic_frame nf;
	struct rxb_frame *f = &nf.f;
	const u8 *data;
	struct rxb_rx *rx;
	unsigned int q;
	int err;

	rx = rcu_dereference(port->rx);
	if (!rx) {
		atomic64_inc(&nic->stopped_drops);
		trace_rxb_drop(port->dev, "", 0, "stopped");
		return;
	}
	if (skb->len < ETH_HLEN) {
		atomic64_inc(&nic->runt_drops);
		trace_rxb_drop(port->dev, rx->model->ops->name, 0, "runt");
		return;
	}
	if (skb->len > READ_ONCE(nic->max_frame)) {
		atomic64_inc(&nic->oversize_drops);
		trace_rxb_drop(port->dev, rx->model->ops->name, 0, "mtu");
		return;
	}
	data = skb_header_pointer(skb, 0, min_t(unsigned int, skb->len,
						RXB_PARSE_LEN), hdr);
	f->data = skb;
	f->len = skb->len;
	f->hash = rxb_rss_hash(nic->rss_key, data,
			       min_t(unsigned int, skb->len, RXB_PARSE_LEN),
			       &f->hash_flags);
	q = READ_ONCE(nic->rss_indir[f->hash % RXB_RSS_INDIR_SIZE]);
	if (q >= rx->nqueues)
		q = 0;
	nf.q = q;
	err = rx->model->ops->hw_rx(rx->model, q, f);
	if (!trace_rxb_deliver_enabled() && !trace_rxb_drop_enabled())
		return;
	if (!err)
		trace_rxb_deliver(port->dev, rx->model->ops->name, q, f->len,
				  f->hash);
	else
		trace_rxb_drop(port->dev, rx->model->ops->name, q,
			       err == -ENOBUFS ? "nobuf" :
			       err == -ENOSPC ? "ring_full" :
			       err == -EMSGSIZE ? "oversize" : "other");
}

/* ---- the dedicated engine ------------------------------------------- */

/* Inline engine stalled: hold @skb.  False when the stall has just ended:
 * the caller runs the pipeline itself, after the frames held before.
 */
static bool rxb_nic_hold(struct rxb_port *port, struct sk_buff *skb)
{
	struct rxb_nic *nic = &port->nic;

	spin_lock(&nic->held.lock);
	/* Under the lock rxb_nic_stall() drains and un-stalls with. */
	if (!READ_ONCE(port->fault.engine_stall)) {
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

/* Note a section of @n frames run with bottom halves disabled. */
static void rxb_nic_bh_batch(struct rxb_nic *nic, int n)
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
 * rxb_nic_stall() - freeze or resume @port's receive engine (fault/
 * engine_stall).
 * @port: the port.
 * @stall: freeze when true.
 *
 * A frozen engine leaves arriving frames in its ingress FIFO: the
 * dedicated engine's queue, or for the inline engine @port->nic.held.
 * Resuming processes them in order, RXB_NIC_BH_BATCH at a time with
 * bottom halves disabled.  Until @port->nic.held is found empty the
 * engine stays stalled, so that frames arriving meanwhile queue up behind
 * the held ones; it is un-stalled under the lock that found it empty, so
 * that no frame goes inline before a held one.  Process context.
 */
void rxb_nic_stall(struct rxb_port *port, bool stall)
{
	struct rxb_nic *nic = &port->nic;
	struct rxb_engine *eng;
	struct sk_buff *skb;
	bool more;
	int n;

	if (stall) {
		WRITE_ONCE(port->fault.engine_stall, 1);
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
			rxb_nic_receive(port, skb);
			consume_skb(skb);
		}
		more = !skb_queue_empty(&nic->held);
		/* Senders that saw the stall wait on the lock, then go
		 * inline.
		 */
		if (!more)
			WRITE_ONCE(port->fault.engine_stall, 0);
		spin_unlock(&nic->held.lock);
		rcu_read_unlock();
		local_bh_enable();
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	} while (more);
	/* wake_up_process() orders the store before its check of the
	 * engine's state; pairs with set_current_state() in rxb_engine_fn().
	 */
	rcu_read_lock();
	eng = rcu_dereference(port->engine);
	if (eng)
		wake_up_process(eng->task);
	rcu_read_unlock();
}

/**
 * rxb_nic_ingress() - a frame from the wire reaches @port's NIC.
 * @port: receiving port.
 * @skb: the frame; consumed.
 *
 * Inline mode runs the receive pipeline here, in the sender's context.
 * With a dedicated engine the frame waits in its ingress queue; a full
 * queue drops it, as a NIC's packet buffer overflows.  Called with RCU
 * read lock and bottom halves disabled (transmit path).
 */
void rxb_nic_ingress(struct rxb_port *port, struct sk_buff *skb)
{
	struct rxb_engine *eng = rcu_dereference(port->engine);

	if (unlikely(READ_ONCE(port->fault.engine_stall))) {
		atomic64_inc(&port->nic.stall_frames);
		/* It may wait long: let go of the sender's socket and route. */
		skb_dst_drop(skb);
		skb_orphan(skb);
		if (!eng && rxb_nic_hold(port, skb))
			return;
	}
	if (!eng) {
		rxb_nic_receive(port, skb);
		consume_skb(skb);
		return;
	}
	if (atomic_inc_return(&eng->len) > RXB_ENGINE_FIFO) {
		atomic_dec(&eng->len);
		atomic64_inc(&eng->fifo_drops);
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
	struct sk_buff *skb;
	int n;

	while (list) {
		local_bh_disable();
		rcu_read_lock();
		for (n = 0; list && n < RXB_NIC_BH_BATCH; n++) {
			skb = llist_entry(list, struct sk_buff, ll_node);
			list = list->next;
			skb->next = NULL;
			rxb_nic_receive(eng->port, skb);
			consume_skb(skb);
		}
		rcu_read_unlock();
		local_bh_enable();
		atomic_sub(n, &eng->len);
		WRITE_ONCE(eng->frames, eng->frames + n);
		rxb_nic_bh_batch(&eng->port->nic, n);
		cond_resched();
	}
}

static int rxb_engine_fn(void *arg)
{
	struct rxb_engine *eng = arg;
	struct llist_node *list;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* Pairs with llist_add() in rxb_nic_ingress(): a frame added
		 * after this check wakes us, one added before is seen here;
		 * and with wake_up_process() in rxb_nic_stall().
		 */
		if (llist_empty(&eng->ingress) ||
		    READ_ONCE(eng->port->fault.engine_stall)) {
			if (kthread_should_stop())
				break;
			schedule();
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
 * rxb_engine_start() - run @port's NIC in a thread bound to @cpu.
 * @port: the port; RTNL held, no engine running.
 * @cpu: an online CPU.
 *
 * Return: 0 or a negative error.
 */
int rxb_engine_start(struct rxb_port *port, int cpu)
{
	struct rxb_engine *eng;

	eng = kzalloc(sizeof(*eng), GFP_KERNEL);
	if (!eng)
		return -ENOMEM;
	eng->port = port;
	eng->cpu = cpu;
	init_llist_head(&eng->ingress);
	eng->task = kthread_create(rxb_engine_fn, eng, "rxb-nic/%s",
				   netdev_name(port->dev));
	if (IS_ERR(eng->task)) {
		int err = PTR_ERR(eng->task);

		kfree(eng);
		return err;
	}
	kthread_bind(eng->task, cpu);
	wake_up_process(eng->task);
	rcu_assign_pointer(port->engine, eng);
	return 0;
}

/**
 * rxb_engine_stop() - back to inline mode; frames still queued are
 * processed (or dropped if the rings are down) first.
 * @port: the port; RTNL held.
 */
void rxb_engine_stop(struct rxb_port *port)
{
	struct rxb_engine *eng = rtnl_dereference(port->engine);

	if (!eng)
		return;
	RCU_INIT_POINTER(port->engine, NULL);
	/* No sender still adds to the ingress queue after this. */
	synchronize_net();
	kthread_stop(eng->task);
	rxb_engine_run(eng, llist_reverse_order(llist_del_all(&eng->ingress)));
	atomic64_add(atomic64_read(&eng->fifo_drops), &port->nic.fifo_drops);
	port->nic.engine_frames += eng->frames;
	kfree(eng);
}
