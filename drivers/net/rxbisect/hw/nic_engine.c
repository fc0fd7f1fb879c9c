// SPDX-License-Identifier: GPL-2.0
/*
 * Where the NIC runs: inline, in the context of the sender that put the
 * frame on the wire, or on a dedicated engine (the engine parameter): one
 * or several pipelines (the engines parameter), each a kernel thread bound
 * to its own CPU that takes frames from a lock-free ingress FIFO as the
 * seeds' emulator core does.  With several, the port's front end (parser,
 * ntuple rules, RSS: rxb_nic_steer()) puts each frame into the FIFO of the
 * pipeline that owns its receive queue (queue q: pipeline q mod engines),
 * as a NIC's steering unit feeds its packet-processing pipelines; a
 * queue's frames are processed by one pipeline, in order.  Whatever the
 * model, its hardware half already serialises concurrent deliveries (the
 * inline engine runs in every sender's context at once: struct
 * rxb_hw_model_ops.rx), so every model runs with several pipelines, at the
 * cost it pays with one.  Also the engine_stall fault knob, which freezes
 * the receive pipelines.
 *
 * Transmit, with an engine: the driver's ndo_start_xmit rings the
 * transmit doorbell (rxb_nic_tx_post()), and its pipeline 0 does the NIC's
 * transmit work, the TLS engine's and TSO, puts the segments on the wire
 * and reports completions (rxb_nic_tx_run()); the driver bounds the
 * frames in flight by its Tx ring.  Inline the driver does that work in
 * ndo_start_xmit.  The same thread reads each queue's XDP Tx ring (XDP_TX,
 * ndo_xdp_xmit, AF_XDP zero-copy Tx: struct rxb_xdp_txd) once its doorbell
 * rings (rxb_nic_xdpq_doorbell()), gathers each frame from host memory,
 * puts it on the wire, writes back its head index and signals the queue's
 * vector; the driver reclaims the frames in its NAPI poll.
 */
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/dst.h>
#include "nic_hw.h"

/* The frame at the head of the non-empty chain *@list, unlinked: *@list
 * moves on to the next.
 */
static struct sk_buff *rxb_llist_skb_pop(struct llist_node **list)
{
	struct sk_buff *skb = llist_entry(*list, struct sk_buff, ll_node);

	*list = (*list)->next;
	skb->next = NULL;
	return skb;
}

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
	unsigned int i;
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
			rxb_nic_receive(nic, skb, false);
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
	for (i = 0; eng && i < eng->n; i++)
		wake_up_process(eng->pipe[i].task);
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
 * With a dedicated engine the frame waits in the ingress queue of a
 * pipeline: with several, the one that owns the queue the front end steers
 * it to (rxb_nic_steer()); a full queue drops it, as a NIC's packet buffer
 * overflows.  Called with RCU read lock and bottom halves disabled
 * (transmit path).
 */
void rxb_nic_ingress(struct rxb_nic *nic, struct sk_buff *skb)
{
	struct rxb_engine *eng = rcu_dereference(nic->engine);
	struct rxb_engine_pipe *pipe;
	int q = 0;

	/* The timestamp unit, at the MAC, while the receive-stamp register
	 * is set: the arrival time, before the ingress FIFO and any ring
	 * work (rxb_nic_deliver() hands it to the ring model with the
	 * frame, struct rxb_frame.ts); 0, no stamp, while it is not.
	 */
	skb->tstamp = READ_ONCE(nic->rx_tstamp) ?
		      ns_to_ktime(rxb_nic_clock_read(nic, NULL)) : 0;

	if (unlikely(READ_ONCE(nic->engine_stall))) {
		atomic64_inc(&nic->stall_frames);
		/* It may wait long: let go of the sender's socket and route. */
		skb_dst_drop(skb);
		skb_orphan(skb);
		if (!eng && rxb_nic_hold(nic, skb))
			return;
	}
	if (!eng) {
		rxb_nic_receive(nic, skb, false);
		consume_skb(skb);
		return;
	}
	if (eng->n > 1) {
		q = rxb_nic_steer(nic, skb);
		if (q < 0) {
			consume_skb(skb);
			return;
		}
	}
	pipe = &eng->pipe[q % eng->n];
	if (atomic_inc_return(&pipe->len) > RXB_ENGINE_FIFO) {
		atomic_dec(&pipe->len);
		atomic64_inc(&nic->fifo_drops);
		atomic64_inc(&nic->pipe_stats[pipe->idx].fifo_drops);
		kfree_skb(skb);
		return;
	}
	/* llist_add() is a full barrier: the skb is complete before the
	 * pipeline can see it.  Wake it when the queue was empty: it sleeps
	 * only after finding the queue empty (rxb_engine_fn()).
	 */
	if (llist_add(&skb->ll_node, &pipe->ingress))
		wake_up_process(pipe->task);
}

/* Process the frames of @list, from @pipe's ingress FIFO, in order,
 * RXB_NIC_BH_BATCH at a time with bottom halves disabled.  Process
 * context.
 */
static void rxb_engine_run(struct rxb_engine_pipe *pipe,
			   struct llist_node *list)
{
	struct rxb_nic *nic = pipe->eng->nic;
	bool steered = pipe->eng->n > 1;
	struct sk_buff *skb;
	int n;

	while (list) {
		local_bh_disable();
		rcu_read_lock();
		for (n = 0; list && n < RXB_NIC_BH_BATCH; n++) {
			skb = rxb_llist_skb_pop(&list);
			rxb_nic_receive(nic, skb, steered);
			consume_skb(skb);
		}
		rcu_read_unlock();
		local_bh_enable();
		atomic_sub(n, &pipe->len);
		atomic64_add(n, &nic->pipe_stats[pipe->idx].frames);
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	}
}

/* ---- the Tx engine ---------------------------------------------------- */

static_assert(sizeof(struct rxb_nic_txd) <= sizeof_field(struct sk_buff, cb));

/**
 * rxb_nic_tx_pending() - frames posted to Tx queue @q and not completed:
 *	the distance between its producer and consumer indices.
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES.
 *
 * Return: the frames in flight; 0 when the NIC runs inline.
 */
u32 rxb_nic_tx_pending(struct rxb_nic *nic, unsigned int q)
{
	struct rxb_nic_txq *tq = &nic->txq[q];

	/* Acquire: pairs with the release in rxb_nic_tx_complete(): the
	 * frames counted done are on the wire before what the caller sends
	 * next.
	 */
	return READ_ONCE(tq->posted) - smp_load_acquire(&tq->done);
}

/**
 * rxb_nic_tx_post() - the transmit doorbell: post a frame to the NIC's
 *	Tx engine.
 * @nic: the NIC.
 * @q: the Tx queue, below RXB_MAX_QUEUES; its xmit lock held.
 * @skb: the frame; consumed when posted.
 * @tls: the TLS engine runs first: @skb->cb holds the driver's struct
 *	rxb_tls_txd.
 * @bytes: what the frame's completion reports (the driver's byte count
 *	of it, for byte queue limits; 0 for none).
 * @ts_tag: nonzero: stamp the frame when it leaves, writing this tag with
 *	the stamp into the transmit timestamp record (rxb_nic_tx_tstamp()).
 *
 * With an engine thread the frame is stored behind the frames posted
 * before it and the thread does the NIC's transmit work: the TLS engine,
 * TSO, the wire (rxb_nic_tx_run()).  With none, a frame goes the same way
 * while frames of its queue are still in flight (an engine thread has just
 * stopped), so that it leaves behind them; otherwise nothing is posted and
 * the caller does the work inline, in its own context.  Bottom halves off.
 *
 * Return: true when posted.
 */
bool rxb_nic_tx_post(struct rxb_nic *nic, unsigned int q, struct sk_buff *skb,
		     bool tls, u32 bytes, u32 ts_tag)
{
	struct rxb_nic_txd *d = (void *)skb->cb;
	struct rxb_nic_txq *tq = &nic->txq[q];
	struct rxb_engine *eng;

	rcu_read_lock();
	eng = rcu_dereference(nic->engine);
	if (likely(!eng) && !rxb_nic_tx_pending(nic, q)) {
		rcu_read_unlock();
		return false;
	}
	d->flags = (tls ? RXB_NIC_TXD_TLS : 0) |
		   (ts_tag ? RXB_NIC_TXD_TSTAMP : 0);
	d->bytes = bytes;
	d->ts_tag = ts_tag;
	skb_set_queue_mapping(skb, q);
	WRITE_ONCE(tq->posted, tq->posted + 1);
	/* llist_add() is a full barrier: the frame and its count are
	 * complete before a run of the Tx engine can take it; pairs with
	 * llist_del_all() in rxb_nic_tx_run().  Whoever makes the queue
	 * non-empty wakes a consumer: the engine thread, which sleeps only
	 * after finding it empty (rxb_engine_fn()), or with none the work
	 * item; an engine stopped meanwhile is drained by its stop.
	 */
	if (llist_add(&skb->ll_node, &nic->egress)) {
		if (eng)
			wake_up_process(eng->pipe[0].task);
		else
			schedule_work(&nic->tx_work);
	}
	rcu_read_unlock();
	return true;
}

/**
 * rxb_nic_set_tx_done() - wire the NIC's transmit completions to the
 *	driver (its Tx interrupt).
 * @nic: the NIC, before its port opens.
 * @done: called from the Tx engine, bottom halves off, once a run has
 *	sent @frames posted frames of queue @q (@bytes: the sum of what they
 *	were posted with); rxb_nic_tx_pending() counts them done already.  Calls for
 *	one NIC never overlap.
 * @arg: its first argument.
 */
void rxb_nic_set_tx_done(struct rxb_nic *nic,
			 void (*done)(void *arg, unsigned int q,
				      unsigned int frames, unsigned int bytes),
			 void *arg)
{
	nic->tx_done_arg = arg;
	/* Release: pairs with the acquire in rxb_nic_tx_complete(). */
	smp_store_release(&nic->tx_done, done);
}

/**
 * rxb_nic_tx_read_q() - the Tx engine's counters of queue @q.
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES.
 * @c: filled in.
 */
void rxb_nic_tx_read_q(struct rxb_nic *nic, unsigned int q,
		       struct rxb_nic_txq_counters *c)
{
	c->engine = atomic64_read(&nic->txq[q].engine);
	c->drops = atomic64_read(&nic->txq[q].drops);
}

/* The Tx engine on one posted frame: the TLS engine, or the TSO; the
 * frames to put on the wire go to @out.
 */
static void rxb_nic_tx_one(struct rxb_nic *nic, struct sk_buff *skb,
			   struct sk_buff_head *out)
{
	const struct rxb_nic_txd *d = (const void *)skb->cb;
	unsigned int q = skb_get_queue_mapping(skb);
	struct sk_buff *segs, *seg, *next;

	if (d->flags & RXB_NIC_TXD_TLS) {
		rxb_nic_tls_tx(nic, skb, out);
		return;
	}
	if (!skb_is_gso(skb)) {
		__skb_queue_tail(out, skb);
		return;
	}
	/* TSO: MSS-sized frames, checksums left to DMA (the wire helps
	 * those the DMA engine cannot fill in), as inline.
	 */
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	if (IS_ERR_OR_NULL(segs)) {
		atomic64_inc(&nic->txq[q].drops);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		skb_set_queue_mapping(seg, q);
		__skb_queue_tail(out, seg);
	}
}

/* Count @n frames of queue @q done and tell the driver. */
static void rxb_nic_tx_complete(struct rxb_nic *nic, unsigned int q,
				unsigned int n, unsigned int bytes)
{
	struct rxb_nic_txq *tq = &nic->txq[q];
	void (*done)(void *arg, unsigned int q, unsigned int frames,
		     unsigned int bytes);

	/* Release: the frames are on the wire before an xmit that reads
	 * the count (rxb_nic_tx_pending(), acquire) sends behind them.
	 */
	smp_store_release(&tq->done, tq->done + n);
	/* Acquire: pairs with the release in rxb_nic_set_tx_done(). */
	done = smp_load_acquire(&nic->tx_done);
	if (done)
		done(nic->tx_done_arg, q, n, bytes);
}

/**
 * rxb_nic_tx_wire() - the NIC's transmit path to the wire: put @out on
 *	the port's wire from queue @q, in order; every frame is consumed.
 * @nic: the NIC.
 * @q: the queue.
 * @out: the frames.
 *
 * The NIC's context, bottom halves off.
 */
void rxb_nic_tx_wire(struct rxb_nic *nic, unsigned int q,
		     struct sk_buff_head *out)
{
	if (!skb_queue_empty(out))
		nic->wire_xmit(nic->wire_arg, q, out);
	__skb_queue_purge(out);
}

/* The largest frame the Tx engine gathers from an XDP Tx ring. */
#define RXB_XDPQ_MAX_FRAME	(64 * 1024)

/* One frame of queue @q's XDP Tx ring, from descriptor @head on (the
 * tail at @tail): read it from host memory into a buffer of the NIC's,
 * for the wire (@out).  Return: the descriptor after the frame's last.
 */
static u32 rxb_nic_xdpq_frame(struct rxb_nic *nic, unsigned int q, u32 head,
			      u32 tail, struct sk_buff_head *out)
{
	struct rxb_nic_txq *tq = &nic->txq[q];
	const struct rxb_xdp_txd *d;
	struct sk_buff *skb = NULL;
	u32 i, end, len = 0, dlen;
	bool last = false;

	for (end = head; end != tail && !last; end++) {
		d = &tq->xring[end & tq->xmask];
		len += le32_to_cpu(READ_ONCE(d->len));
		last = !(le32_to_cpu(READ_ONCE(d->flags)) & RXB_XDP_TXD_F_MORE);
	}
	/* A frame cut by the tail, a runt or a giant: completed, dropped. */
	if (last && len >= ETH_HLEN && len <= RXB_XDPQ_MAX_FRAME)
		skb = alloc_skb(len, GFP_ATOMIC);
	if (unlikely(!skb)) {
		atomic64_inc(&tq->drops);
		return end;
	}
	/* The DMA engine's reads of the buffers, in order. */
	for (i = head; i != end && len; i++) {
		d = &tq->xring[i & tq->xmask];
		dlen = min(le32_to_cpu(READ_ONCE(d->len)), len);
		skb_put_data(skb, phys_to_virt(le64_to_cpu(READ_ONCE(d->buf_addr))),
			     dlen);
		len -= dlen;
	}
	skb_set_queue_mapping(skb, q);
	__skb_queue_tail(out, skb);
	return end;
}

/* The XDP Tx ring of queue @q: its frames up to the tail the doorbell
 * wrote, RXB_NIC_BH_BATCH at a time with bottom halves off, on the wire;
 * after each batch the head written back and the queue's vector
 * signalled (the driver's poll reclaims the frames).  Under
 * @nic->tx_lock.  @engine: the caller is an engine thread.
 */
static void rxb_nic_xdpq_run(struct rxb_nic *nic, unsigned int q, bool engine)
{
	struct rxb_nic_txq *tq = &nic->txq[q];
	u32 head = tq->xhead, tail, n;
	struct sk_buff_head out;

	if (!tq->xring)
		return;
	__skb_queue_head_init(&out);
	/* Acquire: pairs with the release in rxb_nic_xdpq_doorbell(): the
	 * descriptors are written before the tail that covers them.
	 */
	tail = smp_load_acquire(&tq->xtail);
	while (head != tail) {
		local_bh_disable();
		rcu_read_lock();
		rxb_nic_ctx_enter();
		for (n = 0; head != tail && n < RXB_NIC_BH_BATCH; n++)
			head = rxb_nic_xdpq_frame(nic, q, head, tail, &out);
		if (engine)
			atomic64_add(n, &tq->engine);
		rxb_nic_tx_wire(nic, q, &out);
		rxb_nic_ctx_exit();
		tq->xhead = head;
		/* Release: the frames have left their buffers before the
		 * driver, reading the head, reclaims them.
		 */
		smp_store_release(tq->xwb, cpu_to_le32(head));
		rxb_vec_event(&nic->vec[q], READ_ONCE(nic->coal_frames),
			      READ_ONCE(nic->coal_usecs));
		rcu_read_unlock();
		local_bh_enable();
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	}
}

/* The XDP Tx rings whose doorbell rang, each up to its tail. */
static void rxb_nic_xdpq_run_all(struct rxb_nic *nic, bool engine)
{
	unsigned long db;
	unsigned int q;

	/* Fully ordered: pairs with test_and_set_bit() in
	 * rxb_nic_xdpq_doorbell(), after the tail it covers.
	 */
	while ((db = xchg(&nic->xdp_db, 0)))
		for_each_set_bit(q, &db, RXB_MAX_QUEUES)
			rxb_nic_xdpq_run(nic, q, engine);
}

/**
 * rxb_nic_tx_run() - the Tx engine: take the frames posted so far and do
 *	their transmit work, oldest first.
 * @nic: the NIC.
 * @engine: the caller is an engine thread (counted in tx<q>_engine).
 *
 * RXB_NIC_BH_BATCH frames at a time with bottom halves off, in the NIC's
 * context: the TLS engine or TSO (rxb_nic_tx_one()), then the wire, a
 * queue's run of frames at once; then each queue's completion.  Runs are
 * serialised by @nic->tx_lock, so that two engine threads (one replacing
 * the other), a stop's drain and the work item keep each queue's order.
 * Then the XDP Tx rings whose doorbell rang (rxb_nic_xdpq_run()).
 * Process context.
 */
static void rxb_nic_tx_run(struct rxb_nic *nic, bool engine)
{
	unsigned int n, q, wq, frames[RXB_MAX_QUEUES], bytes[RXB_MAX_QUEUES];
	const struct rxb_nic_txd *d;
	struct llist_node *list;
	struct sk_buff_head out;
	struct sk_buff *skb;
	u32 tag;

	__skb_queue_head_init(&out);
	mutex_lock(&nic->tx_lock);
	list = llist_reverse_order(llist_del_all(&nic->egress));
	while (list) {
		memset(frames, 0, sizeof(frames));
		memset(bytes, 0, sizeof(bytes));
		wq = 0;
		local_bh_disable();
		rcu_read_lock();
		rxb_nic_ctx_enter();
		for (n = 0; list && n < RXB_NIC_BH_BATCH; n++) {
			skb = rxb_llist_skb_pop(&list);
			q = skb_get_queue_mapping(skb);
			if (q != wq)
				rxb_nic_tx_wire(nic, wq, &out);
			wq = q;
			frames[q]++;
			bytes[q] += ((struct rxb_nic_txd *)skb->cb)->bytes;
			if (engine)
				atomic64_inc(&nic->txq[q].engine);
			d = (const void *)skb->cb;
			tag = d->flags & RXB_NIC_TXD_TSTAMP ? d->ts_tag : 0;
			rxb_nic_tx_one(nic, skb, &out);
			/* A stamp request: on the wire now, then stamped. */
			if (tag) {
				rxb_nic_tx_wire(nic, q, &out);
				rxb_nic_tx_tstamp(nic, tag);
			}
		}
		rxb_nic_tx_wire(nic, wq, &out);
		rxb_nic_ctx_exit();
		for (q = 0; q < RXB_MAX_QUEUES; q++)
			if (frames[q])
				rxb_nic_tx_complete(nic, q, frames[q], bytes[q]);
		rcu_read_unlock();
		local_bh_enable();
		rxb_nic_bh_batch(nic, n);
		cond_resched();
	}
	rxb_nic_xdpq_run_all(nic, engine);
	mutex_unlock(&nic->tx_lock);
}

/* Is anything posted to the Tx engine, or an XDP Tx doorbell rung? */
static bool rxb_nic_tx_idle(struct rxb_nic *nic)
{
	return llist_empty(&nic->egress) && !READ_ONCE(nic->xdp_db);
}

/* Frames posted with no engine thread: run the Tx engine here. */
static void rxb_nic_tx_work(struct work_struct *work)
{
	rxb_nic_tx_run(container_of(work, struct rxb_nic, tx_work), false);
}

/**
 * rxb_nic_tx_drain() - driver: have the NIC finish the transmit work
 *	posted so far, before the driver reclaims its rings.
 * @nic: the NIC; its port down, no engine thread (rxb_nic_engine_stop()).
 *
 * Whatever the work item was to send is sent when this returns, and every
 * XDP Tx ring whose doorbell rang is completed up to its tail.  Process
 * context.
 */
void rxb_nic_tx_drain(struct rxb_nic *nic)
{
	flush_work(&nic->tx_work);
	rxb_nic_tx_run(nic, false);
}

/**
 * rxb_nic_xdpq_set() - driver: program the XDP Tx ring of queue @q.
 * @nic: the NIC, before its port opens.
 * @q: the queue, below RXB_MAX_QUEUES.
 * @ring: the ring's descriptors, in host memory.
 * @size: its size, a power of two.
 * @wb: where the NIC writes back its head index.
 *
 * The ring's indices start at 0.
 */
void rxb_nic_xdpq_set(struct rxb_nic *nic, unsigned int q,
		      const struct rxb_xdp_txd *ring, u32 size, __le32 *wb)
{
	struct rxb_nic_txq *tq = &nic->txq[q];

	tq->xring = ring;
	tq->xwb = wb;
	tq->xmask = size - 1;
	tq->xtail = 0;
	tq->xhead = 0;
	*wb = 0;
}

/**
 * rxb_nic_xdpq_async() - does an XDP Tx ring doorbell of queue @q now go
 *	to the Tx engine?
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES; its xmit lock held, within an RCU
 *	read-side section that lasts until the doorbell.
 *
 * With an engine thread the driver posts its XDP frames to the queue's
 * XDP Tx ring and the thread sends them.  With none the driver sends them
 * itself, in its own context, as with every frame when the NIC runs
 * inline, unless descriptors it rang are still to be sent (an engine
 * thread has just stopped): the new ones go behind them, the work item
 * sends them.
 *
 * Return: true when the driver is to post and ring.
 */
bool rxb_nic_xdpq_async(struct rxb_nic *nic, unsigned int q)
{
	struct rxb_nic_txq *tq = &nic->txq[q];

	return tq->xring && (rcu_access_pointer(nic->engine) ||
			     READ_ONCE(tq->xtail) != READ_ONCE(tq->xhead));
}

/**
 * rxb_nic_xdpq_doorbell() - driver: the XDP Tx ring's tail register.
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES; its xmit lock held, within the RCU
 *	read-side section of rxb_nic_xdpq_async().
 * @tail: the descriptor after the last one posted (free-running).
 *
 * The Tx engine sends the frames up to @tail, the engine thread's or, with
 * none, the work item.  Bottom halves off.
 */
void rxb_nic_xdpq_doorbell(struct rxb_nic *nic, unsigned int q, u32 tail)
{
	struct rxb_nic_txq *tq = &nic->txq[q];
	struct rxb_engine *eng;

	/* Release: pairs with the acquire in rxb_nic_xdpq_run(). */
	smp_store_release(&tq->xtail, tail);
	/* Fully ordered: the tail before the bit; whoever sets it wakes the
	 * Tx engine, which sleeps only after finding none set
	 * (rxb_engine_fn()); an engine stopped meanwhile is drained by its
	 * stop.
	 */
	if (test_and_set_bit(q, &nic->xdp_db))
		return;
	eng = rcu_dereference(nic->engine);
	if (eng)
		wake_up_process(eng->pipe[0].task);
	else
		schedule_work(&nic->tx_work);
}

/**
 * rxb_nic_tx_init() - power on the Tx engine, no frame posted.
 * @nic: the NIC being created.
 */
void rxb_nic_tx_init(struct rxb_nic *nic)
{
	init_llist_head(&nic->egress);
	mutex_init(&nic->tx_lock);
	INIT_WORK(&nic->tx_work, rxb_nic_tx_work);
}

static int rxb_engine_fn(void *arg)
{
	struct rxb_engine_pipe *pipe = arg;
	struct rxb_nic *nic = pipe->eng->nic;
	/* Pipeline 0 is also the Tx engine and the doorbell service. */
	bool first = !pipe->idx;
	struct llist_node *list;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* Pairs with llist_add() in rxb_nic_ingress(): a frame added
		 * after this check wakes us, one added before is seen here;
		 * with wake_up_process() in rxb_nic_stall(), and in
		 * rxb_nic_ctx_kick() after the driver set the doorbell
		 * pending flag; with llist_add() in rxb_nic_tx_post() for
		 * the Tx engine's queue, and with test_and_set_bit() in
		 * rxb_nic_xdpq_doorbell() for its XDP Tx rings.
		 */
		if ((!first || rxb_nic_tx_idle(nic)) &&
		    (READ_ONCE(nic->engine_stall) ||
		     (llist_empty(&pipe->ingress) &&
		      (!first || !rxb_nic_doorbells_pending(nic))))) {
			if (kthread_should_stop())
				break;
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (first && !rxb_nic_tx_idle(nic))
			rxb_nic_tx_run(nic, true);
		if (READ_ONCE(nic->engine_stall)) {
			cond_resched();
			continue;
		}
		/* Doorbells the driver posted (rxb_nic_ctx_kick() woke us). */
		if (llist_empty(&pipe->ingress)) {
			rxb_nic_serve_doorbells(nic);
			cond_resched();
			continue;
		}
		list = llist_reverse_order(llist_del_all(&pipe->ingress));
		rxb_engine_run(pipe, list);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/**
 * rxb_nic_engine_start() - run the NIC on @n pipelines, threads bound to
 *	CPUs @cpu to @cpu + @n - 1.
 * @nic: the NIC; RTNL held.
 * @cpu: the first CPU; @n consecutive CPUs from it online.
 * @n: pipelines, 1 to RXB_MAX_ENGINES; receive queue q goes to pipeline
 *	q mod @n.
 * @old: set to the engine the new one replaces (NULL: inline), which goes
 *	on with the frames it holds until rxb_nic_engine_stop(@nic, *@old)
 *	or rxb_nic_engine_revert().
 *
 * Return: 0 or a negative error; nothing changed on error.
 */
int rxb_nic_engine_start(struct rxb_nic *nic, int cpu, unsigned int n,
			 struct rxb_engine **old)
{
	struct rxb_engine_pipe *pipe;
	struct rxb_engine *eng;
	unsigned int i;
	int err;

	if (!n || n > RXB_MAX_ENGINES)
		return -EINVAL;
	eng = kzalloc(struct_size(eng, pipe, n), GFP_KERNEL);
	if (!eng)
		return -ENOMEM;
	eng->nic = nic;
	eng->n = n;
	for (i = 0; i < n; i++) {
		pipe = &eng->pipe[i];
		pipe->eng = eng;
		pipe->idx = i;
		pipe->cpu = cpu + i;
		init_llist_head(&pipe->ingress);
		/* Pipeline 0 keeps the single engine's name. */
		if (i)
			pipe->task = kthread_create(rxb_engine_fn, pipe,
						    "rxb-nic%u/%s", i,
						    netdev_name(nic->dev));
		else
			pipe->task = kthread_create(rxb_engine_fn, pipe,
						    "rxb-nic/%s",
						    netdev_name(nic->dev));
		if (IS_ERR(pipe->task)) {
			err = PTR_ERR(pipe->task);
			goto err;
		}
		kthread_bind(pipe->task, pipe->cpu);
	}
	for (i = 0; i < n; i++)
		wake_up_process(eng->pipe[i].task);
	*old = rtnl_dereference(nic->engine);
	rcu_assign_pointer(nic->engine, eng);
	return 0;

err:
	/* Never woken: each stops before its function runs. */
	while (i--)
		kthread_stop(eng->pipe[i].task);
	kfree(eng);
	return err;
}

/* Stop @eng, no longer published: process what its pipelines still hold
 * (or drop it if no context is enabled) and free it.  The frames posted to
 * the Tx engine are sent: those posted while it ran, and any posted
 * meanwhile behind them (rxb_nic_tx_post() with no engine), which the work
 * item sends otherwise.
 */
static void rxb_engine_free(struct rxb_engine *eng)
{
	struct rxb_engine_pipe *pipe;
	unsigned int i;

	/* No sender still adds to an ingress queue after this, nor posts
	 * to the Tx engine believing this engine runs it.
	 */
	synchronize_net();
	for (i = 0; i < eng->n; i++)
		kthread_stop(eng->pipe[i].task);
	rxb_nic_tx_run(eng->nic, false);
	for (i = 0; i < eng->n; i++) {
		pipe = &eng->pipe[i];
		rxb_engine_run(pipe,
			       llist_reverse_order(llist_del_all(&pipe->ingress)));
	}
	kfree(eng);
}

/**
 * rxb_nic_engine_stop() - stop an engine thread.
 * @nic: the NIC; RTNL held.
 * @eng: an engine rxb_nic_engine_start() replaced, or NULL: the running
 *	one, after which the NIC runs inline.
 *
 * Frames the engine still holds are processed (or dropped if no receive
 * context is enabled) first, and the frames posted to the Tx engine sent:
 * none is left behind, and each queue's completions are reported (the
 * driver wakes its queues unless it is going down).
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
 * rxb_nic_engine_running() - does a dedicated engine run the NIC?
 * @nic: the NIC; RTNL held.
 *
 * Return: its pipelines, 0 when the NIC runs inline.
 */
unsigned int rxb_nic_engine_running(struct rxb_nic *nic)
{
	struct rxb_engine *eng = rtnl_dereference(nic->engine);

	return eng ? eng->n : 0;
}

/**
 * rxb_nic_read_pipe() - the counters of engine pipeline @i.
 * @nic: the NIC.
 * @i: the pipeline, below RXB_MAX_ENGINES.
 * @c: filled: they accumulate over the engines that ran, since the NIC
 *	was created.  Any context.
 */
void rxb_nic_read_pipe(struct rxb_nic *nic, unsigned int i,
		       struct rxb_nic_pipe_counters *c)
{
	struct rxb_engine *eng;

	c->frames = atomic64_read(&nic->pipe_stats[i].frames);
	c->fifo_drops = atomic64_read(&nic->pipe_stats[i].fifo_drops);
	c->cpu = -1;
	rcu_read_lock();
	eng = rcu_dereference(nic->engine);
	if (eng && i < eng->n)
		c->cpu = eng->pipe[i].cpu;
	rcu_read_unlock();
}

/**
 * rxb_nic_engine_fini() - at the NIC's destruction: stop the engine and
 * drop the frames a stall held.
 * @nic: the NIC; nothing transmits to it, nor through it, any more.
 */
void rxb_nic_engine_fini(struct rxb_nic *nic)
{
	struct llist_node *list;
	struct sk_buff *skb;

	/* The net device's destructor runs after rtnl_unlock(): no RTNL
	 * here, but nothing else sees the NIC any more either.
	 */
	struct rxb_engine *eng = rcu_dereference_protected(nic->engine, true);

	if (eng) {
		RCU_INIT_POINTER(nic->engine, NULL);
		rxb_engine_free(eng);
	}
	skb_queue_purge(&nic->held);
	/* Engines stop with their port (rxb_nic_engine_stop()), which sends
	 * what was posted; anything still posted is dropped, counted.
	 */
	cancel_work_sync(&nic->tx_work);
	list = llist_del_all(&nic->egress);
	while (list) {
		skb = rxb_llist_skb_pop(&list);
		atomic64_inc(&nic->txq[skb_get_queue_mapping(skb)].drops);
		kfree_skb(skb);
	}
}
