// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC: its registers, the frame parser, RSS dispatch and the
 * receive contexts.
 *
 * A frame transmitted on one port of a pair arrives here, at the other
 * port's NIC, as it would over a cable.  The NIC checks the frame, hashes
 * it (Toeplitz, rss.c), picks the queue from the indirection table and
 * hands it to the hardware half of the enabled context's ring model, which
 * takes a posted buffer, has the DMA engine (nic_dma.c) write the frame
 * into it and writes a completion.  The queue's vector (nic_irq.c) then
 * interrupts the vector's CPU, where the driver's handler schedules NAPI.
 *
 * Everything here is the NIC's own state (nic_hw.h).  The driver reaches
 * it through the functions of nic.h only, as it would reach a device's
 * registers, and the NIC reaches the driver only through ring memory and
 * the interrupt handlers programmed into its vectors.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include "nic_hw.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rxbisect.h>

/* The order of the receive pipeline, the same for every ring model:
 * length checks, parser (rss.c), ntuple rules (nic_ntuple.c: drop, or a
 * queue that overrides RSS), flow table (nic_flow.c: struct
 * rxb_frame.flow), RSS indirection, then the model's hw_rx.
 */

/* Bytes of a frame the parser looks at: L2 + VLAN + IPv6 + L4 ports. */
#define RXB_PARSE_LEN	96

/**
 * rxb_nic_rss_default() - program the default RSS indirection table.
 * @nic: the NIC.
 * @nqueues: queues the table spreads over.
 */
void rxb_nic_rss_default(struct rxb_nic *nic, unsigned int nqueues)
{
	unsigned int i;

	for (i = 0; i < RXB_RSS_INDIR_SIZE; i++)
		WRITE_ONCE(nic->rss_indir[i],
			   ethtool_rxfh_indir_default(i, nqueues));
}

/**
 * rxb_nic_create() - power on a port's NIC.
 * @dev: the net device the NIC is wired to (names its traces and thread).
 * @nqueues: queues the default indirection table spreads over.
 * @mtu: initial MTU.
 *
 * Return: the NIC, with no receive context enabled, or NULL.
 */
struct rxb_nic *rxb_nic_create(struct net_device *dev, unsigned int nqueues,
			       unsigned int mtu)
{
	struct rxb_nic *nic = kzalloc(sizeof(*nic), GFP_KERNEL);
	unsigned int q;

	if (!nic)
		return NULL;
	nic->dev = dev;
	netdev_rss_key_fill(nic->rss_key, sizeof(nic->rss_key));
	rxb_nic_rss_default(nic, nqueues);
	nic->max_frame = mtu + ETH_HLEN + VLAN_HLEN;
	nic->rx_csum = true;
	skb_queue_head_init(&nic->held);
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		rxb_vec_init(nic, &nic->vec[q]);
	return nic;
}

/**
 * rxb_nic_destroy() - power off a NIC.
 * @nic: the NIC; no context enabled, nothing transmits to it any more.
 */
void rxb_nic_destroy(struct rxb_nic *nic)
{
	if (!nic)
		return;
	rxb_nic_engine_fini(nic);
	rxb_ntuple_fini(nic);
	kfree(nic);
}

/**
 * rxb_nic_set_max_frame() - max-frame register: longer frames are dropped.
 * @nic: the NIC.
 * @len: bytes, L2 headers included.
 */
void rxb_nic_set_max_frame(struct rxb_nic *nic, u32 len)
{
	WRITE_ONCE(nic->max_frame, len);
}

/**
 * rxb_nic_set_rx_csum() - receive checksum register.
 * @nic: the NIC.
 * @on: the DMA engine reports each frame's checksum.
 */
void rxb_nic_set_rx_csum(struct rxb_nic *nic, bool on)
{
	WRITE_ONCE(nic->rx_csum, on);
}

/**
 * rxb_nic_set_coalesce() - interrupt moderation registers.
 * @nic: the NIC.
 * @usecs: rx-usecs, at most RXB_COAL_MAX_USECS (checked by the caller).
 * @frames: rx-frames, at most RXB_COAL_MAX_FRAMES (checked by the caller).
 */
void rxb_nic_set_coalesce(struct rxb_nic *nic, u32 usecs, u32 frames)
{
	WRITE_ONCE(nic->coal_usecs, usecs);
	WRITE_ONCE(nic->coal_frames, frames);
}

/**
 * rxb_nic_get_coalesce() - read the interrupt moderation registers.
 * @nic: the NIC.
 * @usecs: set to rx-usecs.
 * @frames: set to rx-frames.
 */
void rxb_nic_get_coalesce(struct rxb_nic *nic, u32 *usecs, u32 *frames)
{
	*usecs = READ_ONCE(nic->coal_usecs);
	*frames = READ_ONCE(nic->coal_frames);
}

/**
 * rxb_nic_rss_write() - program the RSS registers.
 * @nic: the NIC.
 * @indir: RXB_RSS_INDIR_SIZE queue numbers, or NULL to keep the table.
 * @key: RXB_RSS_KEY_SIZE bytes, or NULL to keep the key.
 */
void rxb_nic_rss_write(struct rxb_nic *nic, const u32 *indir, const u8 *key)
{
	unsigned int i;

	for (i = 0; indir && i < RXB_RSS_INDIR_SIZE; i++)
		WRITE_ONCE(nic->rss_indir[i], indir[i]);
	for (i = 0; key && i < RXB_RSS_KEY_SIZE; i++)
		WRITE_ONCE(nic->rss_key[i], key[i]);
}

/**
 * rxb_nic_rss_read() - read the RSS registers.
 * @nic: the NIC.
 * @indir: RXB_RSS_INDIR_SIZE entries filled, or NULL.
 * @key: RXB_RSS_KEY_SIZE bytes filled, or NULL.
 */
void rxb_nic_rss_read(struct rxb_nic *nic, u32 *indir, u8 *key)
{
	unsigned int i;

	for (i = 0; indir && i < RXB_RSS_INDIR_SIZE; i++)
		indir[i] = READ_ONCE(nic->rss_indir[i]);
	for (i = 0; key && i < RXB_RSS_KEY_SIZE; i++)
		key[i] = READ_ONCE(nic->rss_key[i]);
}

/**
 * rxb_nic_read_counters() - read the NIC's statistics registers.
 * @nic: the NIC.
 * @c: filled.  Any context.
 */
void rxb_nic_read_counters(struct rxb_nic *nic, struct rxb_nic_counters *c)
{
	struct rxb_nic_ctx *ctx;
	struct rxb_engine *eng;
	unsigned int q;

	c->runt_drops = atomic64_read(&nic->runt_drops);
	c->oversize_drops = atomic64_read(&nic->oversize_drops);
	c->stopped_drops = atomic64_read(&nic->stopped_drops);
	c->fifo_drops = atomic64_read(&nic->fifo_drops);
	c->engine_frames = atomic64_read(&nic->engine_frames);
	c->stall_frames = atomic64_read(&nic->stall_frames);
	c->dma_faults = atomic64_read(&nic->dma_faults);
	c->dma_bytes = 0;
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		c->dma_bytes += atomic64_read(&nic->dma_bytes[q].v);
	c->ntuple_drops = atomic64_read(&nic->ntuple_drops);
	c->flow_table_size = 0;
	c->flow_active = 0;
	c->flow_learned = 0;
	c->flow_expired = 0;
	c->flow_untracked = 0;
	memset(&c->nicmem, 0, sizeof(c->nicmem));
	memset(&c->hds, 0, sizeof(c->hds));
	c->max_bh_batch = atomic_read(&nic->max_bh_batch);
	c->ws = 0;
	c->ws_peak = 0;
	c->ws_window = 0;
	c->ws_bytes = 0;
	c->ws_bytes_peak = 0;
	c->engine_cpu = -1;
	rcu_read_lock();
	ctx = rcu_dereference(nic->ctx);
	if (ctx) {
		c->ws = READ_ONCE(ctx->wss.distinct);
		c->ws_peak = READ_ONCE(ctx->wss.peak);
		c->ws_window = ctx->wss.window;
		c->ws_bytes = READ_ONCE(ctx->wss.bytes);
		c->ws_bytes_peak = READ_ONCE(ctx->wss.bytes_peak);
		rxb_flow_counters(&ctx->flows, c);
		rxb_nicmem_read(&ctx->mem, &c->nicmem);
		rxb_nic_hds_counters(ctx, &c->hds);
	}
	eng = rcu_dereference(nic->engine);
	if (eng)
		c->engine_cpu = eng->cpu;
	rcu_read_unlock();
}

/**
 * rxb_nic_read_qcounters() - read the NIC's statistics registers of a
 *	queue.
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES.
 * @c: filled.  Any context.
 */
void rxb_nic_read_qcounters(struct rxb_nic *nic, unsigned int q,
			    struct rxb_nic_qcounters *c)
{
	c->steered = atomic64_read(&nic->steered[q].v);
	c->to_host_data = atomic64_read(&nic->dma_bytes[q].v);
	c->to_host_meta = atomic64_read(&nic->pcie[q].to_host_meta);
	c->to_nic_desc = atomic64_read(&nic->pcie[q].to_nic_desc);
	c->to_nic_mmio = atomic64_read(&nic->pcie[q].to_nic_mmio.v);
}

/**
 * rxb_nic_reset_max_bh_batch() - clear the max_bh_batch statistic.
 * @nic: the NIC.
 */
void rxb_nic_reset_max_bh_batch(struct rxb_nic *nic)
{
	atomic_set(&nic->max_bh_batch, 0);
}

/**
 * rxb_nic_debug_read() - read queue @q's debug registers.
 * @nic: the NIC.
 * @q: queue.
 * @d: filled.  Any context.
 *
 * Return: 0, or -ENODEV when no context is enabled or it has no queue @q
 * (only @d->vec_masked and @d->irqs are filled then).
 */
int rxb_nic_debug_read(struct rxb_nic *nic, unsigned int q,
		       struct rxb_nic_qdebug *d)
{
	struct rxb_nic_ctx *ctx;
	int err = -ENODEV;

	memset(d, 0, sizeof(*d));
	if (q >= RXB_MAX_QUEUES)
		return -EINVAL;
	d->vec_masked = test_bit(RXB_VEC_MASKED, &nic->vec[q].flags);
	d->irqs = READ_ONCE(nic->vec[q].irqs);
	rcu_read_lock();
	ctx = rcu_dereference(nic->ctx);
	if (ctx && q < ctx->nqueues) {
		if (ctx->m->ops->hw_debug) {
			ctx->m->ops->hw_debug(ctx->m, q, &d->ring);
			d->has_ring = true;
		}
		err = 0;
	}
	rcu_read_unlock();
	return err;
}

/* ---- receive contexts ------------------------------------------------ */

static enum hrtimer_restart rxb_nic_timer_fn(struct hrtimer *t)
{
	struct rxb_nic_ctx *ctx = container_of(t, struct rxb_nic_ctx, timer);

	ctx->m->ops->hw_timer(ctx->m);
	return HRTIMER_NORESTART;
}

/**
 * rxb_nic_reg_write() - the NIC's register path: the driver wrote @bytes
 *	of queue @q's doorbell or other registers.
 * @nic: the NIC.
 * @q: queue.
 * @bytes: bytes written; counted as host-to-NIC interconnect bytes.
 */
void rxb_nic_reg_write(struct rxb_nic *nic, unsigned int q, u32 bytes)
{
	if (q < RXB_MAX_QUEUES)
		atomic64_add(bytes, &nic->pcie[q].to_nic_mmio.v);
}

static u64 rxb_nic_clock(void)
{
	return ktime_get_ns();
}

/**
 * rxb_nic_ctx_create() - "create receive context" command.
 * @nic: the NIC.
 * @cfg: its NIC-side parameters (checked by the caller).
 *
 * The context is not enabled.  Its address is the rxb_model_cfg.hw of the
 * ring model instance the driver builds for it, with rxb_nic_hw_ops.
 *
 * Return: the context or an ERR_PTR().
 */
struct rxb_nic_ctx *rxb_nic_ctx_create(struct rxb_nic *nic,
				       const struct rxb_nic_ctx_cfg *cfg)
{
	struct rxb_nic_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	int err;

	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->nic = nic;
	hrtimer_setup(&ctx->timer, rxb_nic_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
	err = rxb_wss_init(&ctx->wss, cfg->ws_window);
	if (err)
		goto err_free;
	err = rxb_flow_init(&ctx->flows, ctx, cfg->flow_table_size,
			    cfg->flow_idle_ms);
	if (err)
		goto err_wss;
	rxb_nicmem_init(&ctx->mem, (u64)cfg->nicmem_kb * 1024,
			cfg->nicmem_fetch_ns, rxb_nic_clock);
	rxb_nic_hds_init(ctx, cfg->nicmem_split);
	ctx->rx_sge = clamp_t(u32, cfg->rx_sge, 1, RXB_RX_SGE_MAX);
	return ctx;

err_wss:
	rxb_wss_fini(&ctx->wss);
err_free:
	kfree(ctx);
	return ERR_PTR(err);
}

/**
 * rxb_nic_ctx_enable() - the NIC starts receiving into a context's rings.
 * @ctx: a context not enabled; no other context of its NIC is.
 * @m: the ring model instance built for @ctx; its rings are posted.
 *
 * RTNL held.  The vectors of @m's queues must be programmed.
 */
void rxb_nic_ctx_enable(struct rxb_nic_ctx *ctx, struct rxb_model *m)
{
	ctx->m = m;
	ctx->nqueues = m->cfg.nqueues;
	/* Release: the context is complete before a frame can see it. */
	rcu_assign_pointer(ctx->nic->ctx, ctx);
	rxb_flow_start(&ctx->flows);
}

/**
 * rxb_nic_ctx_disable() - the NIC stops using a context's rings.
 * @ctx: the enabled context.
 *
 * On return no frame is being delivered into the rings and the context's
 * timer neither runs nor is pending; the vectors may still have interrupt
 * messages in flight (rxb_nic_vec_sync()).  RTNL held, may sleep.
 */
void rxb_nic_ctx_disable(struct rxb_nic_ctx *ctx)
{
	RCU_INIT_POINTER(ctx->nic->ctx, NULL);
	/* No delivery (transmit path, engine, stall's end) still uses it,
	 * so none arms the timer; the timer re-arms only itself.
	 */
	synchronize_net();
	hrtimer_cancel(&ctx->timer);
	rxb_flow_stop(&ctx->flows);
}

/**
 * rxb_nic_ctx_free() - "destroy receive context" command.
 * @ctx: a context not enabled, or NULL.
 */
void rxb_nic_ctx_free(struct rxb_nic_ctx *ctx)
{
	if (!ctx)
		return;
	rxb_nic_hds_fini(ctx);
	rxb_nicmem_fini(&ctx->mem);
	rxb_flow_fini(&ctx->flows);
	rxb_wss_fini(&ctx->wss);
	kfree(ctx);
}

/**
 * rxb_nic_queue_enable() - a receive queue's "queue enable" register.
 * @nic: the NIC.
 * @q: the queue.
 * @on: enable, or disable.
 *
 * Queues are enabled at power-on.  A disabled queue's rings are left
 * alone: frames RSS steers to it are dropped (stopped_drops), the other
 * queues receive as before.  Disabling returns once no frame is being
 * delivered into the queue's rings; enabling publishes the rings the
 * driver reset before.  RTNL held, may sleep.
 */
void rxb_nic_queue_enable(struct rxb_nic *nic, unsigned int q, bool on)
{
	if (on) {
		/* Release: pairs with test_bit_acquire() in delivery. */
		clear_bit_unlock(q, &nic->q_off);
		return;
	}
	set_bit(q, &nic->q_off);
	/* Deliveries run under RCU with bottom halves off. */
	synchronize_net();
}

/* A ring model signals queue @q: an event under the NIC's moderation. */
static void rxb_nic_raise_irq(void *hw, unsigned int q)
{
	struct rxb_nic *nic = ((struct rxb_nic_ctx *)hw)->nic;

	rxb_vec_event(&nic->vec[q], READ_ONCE(nic->coal_frames),
		      READ_ONCE(nic->coal_usecs));
}

static void rxb_nic_arm_timer(void *hw, u64 ns)
{
	struct rxb_nic_ctx *ctx = hw;

	if (!hrtimer_is_queued(&ctx->timer))
		hrtimer_start(&ctx->timer, ns_to_ktime(ns),
			      HRTIMER_MODE_REL_SOFT);
}

static u64 rxb_nic_now_ns(void *hw)
{
	return ktime_get_ns();
}

/* Interconnect bytes a model's hardware half moved: per-queue counters. */
static void rxb_nic_pcie(void *hw, unsigned int q, unsigned int kind,
			 u32 bytes)
{
	struct rxb_nic *nic = ((struct rxb_nic_ctx *)hw)->nic;

	switch (kind) {
	case RXB_PCIE_META_WR:
		atomic64_add(bytes, &nic->pcie[q].to_host_meta);
		break;
	case RXB_PCIE_DATA_WR:
		/* packet data into host memory, as the DMA engine's own */
		atomic64_add(bytes, &nic->dma_bytes[q].v);
		break;
	default:
		atomic64_add(bytes, &nic->pcie[q].to_nic_desc);
	}
}

/* The DMA engine's view of a host bus address (nic_dma.c: physical
 * addresses behind an identity IOMMU mapping), where it writes @len bytes.
 */
static void *rxb_nic_dma_ptr(void *hw, u64 addr, u32 len)
{
	struct rxb_nic_ctx *ctx = hw;

	if (len)
		rxb_nic_ws_write(ctx, addr, len);
	return phys_to_virt(addr);
}

static struct rxb_nicmem *rxb_nic_nicmem(void *hw)
{
	return &((struct rxb_nic_ctx *)hw)->mem;
}

/* The NIC's services to a ring model's hardware half; hw: the context. */
const struct rxb_hw_ops rxb_nic_hw_ops = {
	.raise_irq	= rxb_nic_raise_irq,
	.arm_timer	= rxb_nic_arm_timer,
	.now_ns		= rxb_nic_now_ns,
	.dma_write	= rxb_nic_dma_write,
	.pcie		= rxb_nic_pcie,
	.nicmem		= rxb_nic_nicmem,
	.nicmem_write	= rxb_nic_nicmem_write,
	.dma_ptr	= rxb_nic_dma_ptr,
	.ring		= &rxb_nic_ring_ops,
};

/**
 * rxb_nic_receive() - run the receive pipeline on a frame.
 * @nic: receiving NIC.
 * @skb: the frame; the caller keeps ownership.
 *
 * Called with RCU read lock and bottom halves disabled.
 */
void rxb_nic_receive(struct rxb_nic *nic, struct sk_buff *skb)
{
	u8 hdr[RXB_PARSE_LEN];
	struct rxb_nic_tuple t;
	struct rxb_nic_frame nf;
	struct rxb_frame *f = &nf.f;
	struct rxb_nic_ctx *ctx;
	struct rxb_model *m;
	const u8 *data;
	unsigned int q;
	u32 rule;
	int err;

	ctx = rcu_dereference(nic->ctx);
	if (!ctx) {
		atomic64_inc(&nic->stopped_drops);
		trace_rxb_drop(nic->dev, "", 0, "stopped");
		return;
	}
	m = ctx->m;
	if (skb->len < ETH_HLEN) {
		atomic64_inc(&nic->runt_drops);
		trace_rxb_drop(nic->dev, m->ops->name, 0, "runt");
		return;
	}
	if (skb->len > READ_ONCE(nic->max_frame)) {
		atomic64_inc(&nic->oversize_drops);
		trace_rxb_drop(nic->dev, m->ops->name, 0, "mtu");
		return;
	}
	data = skb_header_pointer(skb, 0, min_t(unsigned int, skb->len,
						RXB_PARSE_LEN), hdr);
	rxb_nic_parse(data, min_t(unsigned int, skb->len, RXB_PARSE_LEN), &t);
	rule = rxb_ntuple_match(nic, &t);
	if (rule == RXB_NTUPLE_DROP) {
		atomic64_inc(&nic->ntuple_drops);
		trace_rxb_drop(nic->dev, m->ops->name, 0, "ntuple");
		return;
	}
	f->data = skb;
	f->len = skb->len;
	f->hash = rxb_rss_hash(nic->rss_key, &t, &f->hash_flags);
	f->flow = rxb_flow_lookup(&ctx->flows, &t, skb->len, &f->flow_new);
	if (rule < ctx->nqueues) {
		q = rule;
		atomic64_inc(&nic->steered[q].v);
	} else {
		q = READ_ONCE(nic->rss_indir[f->hash % RXB_RSS_INDIR_SIZE]);
		if (q >= ctx->nqueues)
			q = 0;
	}
	nf.q = q;
	if (unlikely(test_bit_acquire(q, &nic->q_off))) {
		atomic64_inc(&nic->stopped_drops);
		trace_rxb_drop(nic->dev, m->ops->name, q, "stopped");
		return;
	}
	err = m->ops->hw_rx(m, q, f);
	if (!trace_rxb_deliver_enabled() && !trace_rxb_drop_enabled())
		return;
	if (!err)
		trace_rxb_deliver(nic->dev, m->ops->name, q, f->len, f->hash);
	else
		trace_rxb_drop(nic->dev, m->ops->name, q,
			       err == -ENOBUFS ? "nobuf" :
			       err == -ENOSPC ? "ring_full" :
			       err == -EMSGSIZE ? "oversize" : "other");
}
