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
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "nic_hw.h"
#include "models/hw_ring.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rxbisect.h>

/* The order of the receive pipeline, the same for every ring model:
 * length checks, parser (rss.c), ntuple rules (nic_ntuple.c: drop, or a
 * queue that overrides RSS), flow table (nic_flow.c: struct
 * rxb_frame.flow), RSS indirection, then the model's hw_rx.
 */

/* Bytes of a frame the parser looks at: L2 + VLAN + IPv6 + L4 ports. */
#define RXB_PARSE_LEN	96

/* The indirection table of a context for @nqueues queues: entry i -> i mod
 * @nqueues (ethtool's default).
 */
static void rxb_rss_indir_default(struct rxb_rss_table *r,
				  unsigned int nqueues)
{
	unsigned int i;

	for (i = 0; i < RXB_RSS_INDIR_SIZE; i++)
		WRITE_ONCE(r->indir[i], ethtool_rxfh_indir_default(i, nqueues));
}

/**
 * rxb_nic_rss_default() - program the default RSS indirection table.
 * @nic: the NIC.
 * @nqueues: queues the table of context 0 spreads over.
 */
void rxb_nic_rss_default(struct rxb_nic *nic, unsigned int nqueues)
{
	rxb_rss_indir_default(&nic->rss[0], nqueues);
}

/**
 * rxb_nic_create() - power on a port's NIC.
 * @dev: the net device the NIC is wired to (names its traces and thread).
 * @nqueues: queues the default indirection table spreads over.
 * @mtu: initial MTU.
 * @tls_contexts: entries of the kTLS offload's context table.
 *
 * Return: the NIC, with no receive context enabled, or NULL.
 */
struct rxb_nic *rxb_nic_create(struct net_device *dev, unsigned int nqueues,
			       unsigned int mtu, u32 tls_contexts)
{
	struct rxb_nic *nic = kzalloc(sizeof(*nic), GFP_KERNEL);
	unsigned int q;

	if (!nic)
		return NULL;
	nic->rss = kcalloc(RXB_RSS_CTX_MAX, sizeof(*nic->rss), GFP_KERNEL);
	if (!nic->rss) {
		kfree(nic);
		return NULL;
	}
	nic->dev = dev;
	netdev_rss_key_fill(nic->rss[0].key, sizeof(nic->rss[0].key));
	rxb_nic_rss_default(nic, nqueues);
	nic->rss[0].on = true;
	for (q = 0; q < RXB_RSS_FT_NUM; q++)
		nic->rss_fields[q] = RXB_RSS_F_ALL;
	nic->max_frame = mtu + ETH_HLEN + VLAN_HLEN;
	nic->rx_csum = true;
	skb_queue_head_init(&nic->held);
	rxb_nic_clock_init(nic);
	rxb_nic_tx_init(nic);
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		rxb_vec_init(nic, &nic->vec[q]);
	if (rxb_nic_tls_init(nic, tls_contexts)) {
		kfree(nic->rss);
		kfree(nic);
		return NULL;
	}
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
	rxb_nic_tls_fini(nic);
	kfree(nic->rss);
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
 * rxb_nic_rss_ctx_write() - program an RSS context's registers.
 * @nic: the NIC.
 * @id: the context, below RXB_RSS_CTX_MAX; a context other than 0 that was
 *	not programmed is turned on, with the default table over one queue
 *	and context 0's key where @indir or @key is NULL.
 * @indir: RXB_RSS_INDIR_SIZE queue numbers, or NULL to keep the table.
 * @key: RXB_RSS_KEY_SIZE bytes, or NULL to keep the key.
 *
 * A frame hashed while the registers change sees a mix: harmless, every
 * entry is a queue.
 *
 * Return: 0, or -EINVAL for @id out of range.
 */
int rxb_nic_rss_ctx_write(struct rxb_nic *nic, u32 id, const u32 *indir,
			  const u8 *key)
{
	struct rxb_rss_table *r;
	unsigned int i;

	if (id >= RXB_RSS_CTX_MAX)
		return -EINVAL;
	r = &nic->rss[id];
	if (!r->on) {
		if (!indir)
			rxb_rss_indir_default(r, 1);
		if (!key)
			for (i = 0; i < RXB_RSS_KEY_SIZE; i++)
				WRITE_ONCE(r->key[i],
					   READ_ONCE(nic->rss[0].key[i]));
	}
	for (i = 0; indir && i < RXB_RSS_INDIR_SIZE; i++)
		WRITE_ONCE(r->indir[i], indir[i]);
	for (i = 0; key && i < RXB_RSS_KEY_SIZE; i++)
		WRITE_ONCE(r->key[i], key[i]);
	/* A new context's table and key before it can be chosen. */
	smp_store_release(&r->on, true);
	return 0;
}

/**
 * rxb_nic_rss_ctx_read() - read an RSS context's registers.
 * @nic: the NIC.
 * @id: the context.
 * @indir: RXB_RSS_INDIR_SIZE entries filled, or NULL.
 * @key: RXB_RSS_KEY_SIZE bytes filled, or NULL.
 *
 * Return: 0, or -ENOENT for a context out of range or not programmed.
 */
int rxb_nic_rss_ctx_read(struct rxb_nic *nic, u32 id, u32 *indir, u8 *key)
{
	struct rxb_rss_table *r;
	unsigned int i;

	/* Pairs with rxb_nic_rss_ctx_write()'s release. */
	if (id >= RXB_RSS_CTX_MAX || !smp_load_acquire(&nic->rss[id].on))
		return -ENOENT;
	r = &nic->rss[id];
	for (i = 0; indir && i < RXB_RSS_INDIR_SIZE; i++)
		indir[i] = READ_ONCE(r->indir[i]);
	for (i = 0; key && i < RXB_RSS_KEY_SIZE; i++)
		key[i] = READ_ONCE(r->key[i]);
	return 0;
}

/**
 * rxb_nic_rss_ctx_clear() - turn an RSS context off.
 * @nic: the NIC.
 * @id: the context, 1..RXB_RSS_CTX_MAX - 1.  The frames of the ntuple
 *	rules that name it take context 0 from now on.
 *
 * Return: 0, -EINVAL for context 0 or out of range, -ENOENT if it is off.
 */
int rxb_nic_rss_ctx_clear(struct rxb_nic *nic, u32 id)
{
	if (!id || id >= RXB_RSS_CTX_MAX)
		return -EINVAL;
	if (!nic->rss[id].on)
		return -ENOENT;
	WRITE_ONCE(nic->rss[id].on, false);
	return 0;
}

/**
 * rxb_nic_rss_write() - program the RSS registers of context 0.
 * @nic: the NIC.
 * @indir: RXB_RSS_INDIR_SIZE queue numbers, or NULL to keep the table.
 * @key: RXB_RSS_KEY_SIZE bytes, or NULL to keep the key.
 */
void rxb_nic_rss_write(struct rxb_nic *nic, const u32 *indir, const u8 *key)
{
	rxb_nic_rss_ctx_write(nic, 0, indir, key);
}

/**
 * rxb_nic_rss_read() - read the RSS registers of context 0.
 * @nic: the NIC.
 * @indir: RXB_RSS_INDIR_SIZE entries filled, or NULL.
 * @key: RXB_RSS_KEY_SIZE bytes filled, or NULL.
 */
void rxb_nic_rss_read(struct rxb_nic *nic, u32 *indir, u8 *key)
{
	rxb_nic_rss_ctx_read(nic, 0, indir, key);
}

/**
 * rxb_nic_rss_fields_write() - program the RSS hash input of a flow type.
 * @nic: the NIC.
 * @ft: the flow type.
 * @fields: RXB_RSS_F_* (any subset; none hashes every frame to 0).
 */
void rxb_nic_rss_fields_write(struct rxb_nic *nic, enum rxb_rss_flow_type ft,
			      u8 fields)
{
	WRITE_ONCE(nic->rss_fields[ft], fields & RXB_RSS_F_ALL);
}

/**
 * rxb_nic_rss_fields_read() - read the RSS hash input of a flow type.
 * @nic: the NIC.
 * @ft: the flow type.
 *
 * Return: its RXB_RSS_F_* bits.
 */
u8 rxb_nic_rss_fields_read(struct rxb_nic *nic, enum rxb_rss_flow_type ft)
{
	return READ_ONCE(nic->rss_fields[ft]);
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
	unsigned int q, i;

	/* What no context reports (none, or a part of it off) reads 0. */
	memset(c, 0, sizeof(*c));
	c->runt_drops = atomic64_read(&nic->runt_drops);
	c->oversize_drops = atomic64_read(&nic->oversize_drops);
	c->stopped_drops = atomic64_read(&nic->stopped_drops);
	c->fifo_drops = atomic64_read(&nic->fifo_drops);
	for (i = 0; i < RXB_MAX_ENGINES; i++)
		c->engine_frames += atomic64_read(&nic->pipe_stats[i].frames);
	c->stall_frames = atomic64_read(&nic->stall_frames);
	c->dma_faults = atomic64_read(&nic->dma_faults);
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		c->dma_bytes += atomic64_read(&nic->dma_bytes[q].v);
	c->ntuple_drops = atomic64_read(&nic->ntuple_drops);
	c->tx_hwtstamps = atomic64_read(&nic->tx_tstamps);
	c->max_bh_batch = atomic_read(&nic->max_bh_batch);
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
		c->engine_cpu = eng->pipe[0].cpu;
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
	c->to_host_mmio = atomic64_read(&nic->pcie[q].to_host_mmio.v);
	c->mmio_reads = atomic64_read(&nic->pcie[q].mmio_reads.v);
	c->to_nic_data = atomic64_read(&nic->pcie[q].to_nic_data);
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
 * rxb_nic_debug_read() - read queue @q's vector debug registers.
 * @nic: the NIC.
 * @q: queue.
 * @d: filled.  Any context.
 *
 * The ring model's debug registers are in the receive context's register
 * space (struct rxb_qdebug_regs), where the driver reads them.
 *
 * Return: 0, or -EINVAL for a queue the NIC does not have.
 */
int rxb_nic_debug_read(struct rxb_nic *nic, unsigned int q,
		       struct rxb_nic_qdebug *d)
{
	memset(d, 0, sizeof(*d));
	if (q >= RXB_MAX_QUEUES)
		return -EINVAL;
	d->vec_masked = test_bit(RXB_VEC_MASKED, &nic->vec[q].flags);
	d->irqs = READ_ONCE(nic->vec[q].irqs);
	return 0;
}

/* ---- the NIC's context ------------------------------------------------ */

/* Sections in which the NIC runs (rxb_hw_model.h): the receive pipeline,
 * the doorbell service, the timers, the flow table's sweep.  A per-CPU
 * depth, kept always (two per-CPU operations per section, the same for
 * every model); the check of the hardware halves' entry points is off
 * unless the debug_ctx parameter turns the static key on.
 */
DEFINE_STATIC_KEY_FALSE(rxb_nic_ctx_check);
static DEFINE_PER_CPU(int, rxb_nic_depth);
static atomic64_t rxb_nic_ctx_bad;

/* Enter a NIC section: bottom halves off (or preemption), the same CPU. */
void rxb_nic_ctx_enter(void)
{
	this_cpu_inc(rxb_nic_depth);
}

void rxb_nic_ctx_exit(void)
{
	this_cpu_dec(rxb_nic_depth);
}

/* Is this CPU running the NIC? */
bool rxb_nic_ctx_in(void)
{
	return this_cpu_read(rxb_nic_depth) > 0;
}

/* A hardware half's entry point was reached outside the NIC's context. */
void rxb_nic_ctx_violation(const char *what)
{
	atomic64_inc(&rxb_nic_ctx_bad);
	WARN_ONCE(1, "rxbisect: the NIC's %s ran outside the NIC's context\n",
		  what);
}

/**
 * rxb_nic_set_ctx_check() - check that the NIC's entry points run in its
 *	context (debug_ctx).
 * @on: check.
 */
void rxb_nic_set_ctx_check(bool on)
{
	if (on)
		static_branch_enable(&rxb_nic_ctx_check);
	else
		static_branch_disable(&rxb_nic_ctx_check);
}

/**
 * rxb_nic_ctx_violations() - entry points reached outside the NIC's
 *	context since the module was loaded.
 *
 * Return: the count.
 */
u64 rxb_nic_ctx_violations(void)
{
	return atomic64_read(&rxb_nic_ctx_bad);
}

/* ---- receive contexts ------------------------------------------------ */

static enum hrtimer_restart rxb_nic_timer_fn(struct hrtimer *t)
{
	struct rxb_nic_ctx *ctx = container_of(t, struct rxb_nic_ctx, timer);

	rxb_nic_ctx_enter();
	rxb_hwm_timer(ctx->hwm);
	rxb_nic_ctx_exit();
	return HRTIMER_NORESTART;
}

/* The on-NIC memory tier's fetch engine: its fetches due. */
static enum hrtimer_restart rxb_nic_fetch_timer_fn(struct hrtimer *t)
{
	struct rxb_nic_ctx *ctx = container_of(t, struct rxb_nic_ctx,
					       fetch_timer);

	rxb_nic_ctx_enter();
	rxb_nicmem_fetch_run(&ctx->mem);
	rxb_nic_ctx_exit();
	return HRTIMER_NORESTART;
}

static void rxb_nic_fetch_arm(void *arg, u64 ns)
{
	struct rxb_nic_ctx *ctx = arg;

	hrtimer_start(&ctx->fetch_timer, ns_to_ktime(ns),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * rxb_nic_doorbells() - the doorbell service of an enabled context
 *	(rxb_hw_doorbells()).
 * @ctx: the context.
 */
void rxb_nic_doorbells(struct rxb_nic_ctx *ctx)
{
	rxb_hw_doorbells(ctx->hwm, ctx->hds.on ? rxb_nic_hds_doorbell : NULL,
			 ctx);
}

/**
 * rxb_nic_doorbells_pending() - has the driver written registers the NIC
 *	has not acted on yet?
 * @nic: the NIC.
 *
 * Return: true when the enabled context has doorbells pending.
 */
bool rxb_nic_doorbells_pending(struct rxb_nic *nic)
{
	struct rxb_nic_ctx *ctx;
	bool pending = false;

	rcu_read_lock();
	ctx = rcu_dereference(nic->ctx);
	if (ctx)
		pending = READ_ONCE(((struct rxb_bar_global *)
				     ctx->bar.base)->pending);
	rcu_read_unlock();
	return pending;
}

/**
 * rxb_nic_serve_doorbells() - the engine thread's doorbell service.
 * @nic: the NIC.  Process context.
 */
void rxb_nic_serve_doorbells(struct rxb_nic *nic)
{
	struct rxb_nic_ctx *ctx;

	local_bh_disable();
	rcu_read_lock();
	ctx = rcu_dereference(nic->ctx);
	if (ctx) {
		rxb_nic_ctx_enter();
		rxb_nic_doorbells(ctx);
		rxb_nic_ctx_exit();
	}
	rcu_read_unlock();
	local_bh_enable();
}

/* Inline engine: the doorbell service, after a kick, in softirq context of
 * the CPU that kicked.
 */
static void rxb_nic_db_bh(struct tasklet_struct *t)
{
	struct rxb_nic_ctx *ctx = from_tasklet(ctx, t, db_bh);

	/* A frozen engine serves them when it resumes (rxb_nic_stall()). */
	if (!READ_ONCE(ctx->live) || READ_ONCE(ctx->nic->engine_stall))
		return;
	rxb_nic_ctx_enter();
	rxb_nic_doorbells(ctx);
	rxb_nic_ctx_exit();
}

/**
 * rxb_nic_ctx_kick() - a register write marked a page while nothing was
 *	pending: wake the NIC.
 * @ctx: the context whose register space was written.
 *
 * Never does the NIC's work: the engine thread is woken, or the inline
 * engine's doorbell service scheduled.  A context not enabled yet is
 * served when it is (rxb_nic_ctx_enable()).  Any context.
 */
void rxb_nic_ctx_kick(struct rxb_nic_ctx *ctx)
{
	struct rxb_engine *eng;

	if (!READ_ONCE(ctx->live))
		return;
	rcu_read_lock();
	eng = rcu_dereference(ctx->nic->engine);
	if (eng)
		wake_up_process(eng->pipe[0].task);
	else
		tasklet_schedule(&ctx->db_bh);
	rcu_read_unlock();
}

static u64 rxb_nic_clock(void *arg)
{
	return ktime_get_ns();
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

/**
 * rxb_nic_reg_read() - the NIC's register path: the driver read @bytes of
 *	queue @q's registers or NIC memory on its data path (an MMIO read).
 * @nic: the NIC.
 * @q: queue.
 * @bytes: bytes read; counted as NIC-to-host interconnect bytes of reads
 *	the CPU waits for.
 */
void rxb_nic_reg_read(struct rxb_nic *nic, unsigned int q, u32 bytes)
{
	if (q < RXB_MAX_QUEUES) {
		atomic64_add(bytes, &nic->pcie[q].to_host_mmio.v);
		atomic64_inc(&nic->pcie[q].mmio_reads.v);
	}
}

static const struct rxb_hw_ops rxb_nic_hw_ops;

/**
 * rxb_nic_ctx_create() - "create receive context" command.
 * @nic: the NIC.
 * @cfg: its NIC-side parameters (checked by the caller).
 * @model: the ring model whose hardware half the context runs.
 * @mcfg: the model's configuration (checked by the driver's half).
 *
 * The context is not enabled: the driver maps its register space
 * (rxb_nic_ctx_bar()), programs the rings, then enables it.
 *
 * Return: the context or an ERR_PTR().
 */
struct rxb_nic_ctx *rxb_nic_ctx_create(struct rxb_nic *nic,
				       const struct rxb_nic_ctx_cfg *cfg,
				       const struct rxb_hw_model_ops *model,
				       const struct rxb_model_cfg *mcfg)
{
	struct rxb_nic_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	u32 npages = rxb_hwm_bar_pages(model, mcfg);
	struct rxb_hw_model *hwm;
	int err = -EINVAL;

	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->nic = nic;
	ctx->nqueues = mcfg->nqueues;
	if (npages > RXB_BAR_MAX_PAGES || mcfg->nqueues > RXB_MAX_QUEUES)
		goto err_free;
	err = -ENOMEM;
	ctx->bar_size = (size_t)npages * RXB_BAR_PAGE;
	ctx->bar_mem = vmalloc_user(ctx->bar_size);
	if (!ctx->bar_mem)
		goto err_free;
	ctx->bar = (struct rxb_bar) {
		.base = ctx->bar_mem,
		.qpage = 1,
		.xpage = 1 + mcfg->nqueues,
		.npages = npages,
	};
	tasklet_setup(&ctx->db_bh, rxb_nic_db_bh);
	skb_queue_head_init(&ctx->utx);
	hrtimer_setup(&ctx->timer, rxb_nic_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
	hrtimer_setup(&ctx->fetch_timer, rxb_nic_fetch_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
	err = rxb_wss_init(&ctx->wss, cfg->ws_window);
	if (err)
		goto err_bar;
	err = rxb_flow_init(&ctx->flows, ctx, cfg->flow_table_size,
			    cfg->flow_idle_ms);
	if (err)
		goto err_wss;
	rxb_nicmem_init(&ctx->mem, (u64)cfg->nicmem_kb * 1024,
			cfg->nicmem_fetch_ns, rxb_nic_clock, NULL);
	rxb_nicmem_set_timer(&ctx->mem, rxb_nic_fetch_arm, ctx);
	rxb_nic_hds_init(ctx, cfg->nicmem_split);
	ctx->rx_sge = clamp_t(u32, cfg->rx_sge, 1, RXB_RX_SGE_MAX);
	/* The buffer size register: a power of two, 256 bytes to a page. */
	ctx->ws_shift = cfg->rx_buf_size ?
			clamp_t(u32, ilog2(cfg->rx_buf_size), 8, PAGE_SHIFT) :
			PAGE_SHIFT;
	hwm = rxb_hw_model_create(model, mcfg, &rxb_nic_hw_ops, ctx, &ctx->bar);
	if (IS_ERR(hwm)) {
		err = PTR_ERR(hwm);
		goto err_hds;
	}
	ctx->hwm = hwm;
	return ctx;

err_hds:
	rxb_nic_hds_fini(ctx);
	rxb_nicmem_fini(&ctx->mem);
	rxb_flow_fini(&ctx->flows);
err_wss:
	rxb_wss_fini(&ctx->wss);
err_bar:
	vfree(ctx->bar_mem);
err_free:
	kfree(ctx);
	return ERR_PTR(err);
}

/**
 * rxb_nic_ctx_bar() - map a context's register space.
 * @ctx: the context.
 * @bar: filled: page 0, queue q's page at 1 + q, the model's pages after.
 */
void rxb_nic_ctx_bar(struct rxb_nic_ctx *ctx, struct rxb_bar *bar)
{
	*bar = ctx->bar;
}

/**
 * rxb_nic_ctx_load() - "load ring registers" command: the hardware half
 *	reads the ring base registers the driver programmed and maps the
 *	rings.
 * @ctx: a context not enabled.
 *
 * Return: 0, or -EINVAL when a register is not programmed or maps nothing
 * (the context cannot be enabled).
 */
int rxb_nic_ctx_load(struct rxb_nic_ctx *ctx)
{
	int err = ctx->hwm->ops->start ? ctx->hwm->ops->start(ctx->hwm) : 0;

	if (!err && ctx->hds.on)
		err = rxb_nic_hds_load(ctx);
	return err;
}

/**
 * rxb_nic_ctx_enable() - the NIC starts receiving into a context's rings.
 * @ctx: a loaded context (rxb_nic_ctx_load()) not enabled; no other
 *	context of its NIC is.  The driver posted its buffers.
 *
 * RTNL held.  The vectors of the context's queues must be programmed.
 */
void rxb_nic_ctx_enable(struct rxb_nic_ctx *ctx)
{
	WRITE_ONCE(ctx->live, true);
	/* Release: the context is complete before a frame can see it. */
	rcu_assign_pointer(ctx->nic->ctx, ctx);
	rxb_flow_start(&ctx->flows);
	/* The register writes made while the context was being built. */
	local_bh_disable();
	rxb_nic_ctx_enter();
	rxb_nic_doorbells(ctx);
	rxb_nic_ctx_exit();
	local_bh_enable();
}

/**
 * rxb_nic_ctx_disable() - the NIC stops using a context's rings.
 * @ctx: the enabled context.
 *
 * On return no frame is being delivered into the rings, no doorbell is
 * served and the context's timer neither runs nor is pending; the vectors
 * may still have interrupt messages in flight (rxb_nic_vec_sync()).  RTNL
 * held, may sleep.
 */
void rxb_nic_ctx_disable(struct rxb_nic_ctx *ctx)
{
	RCU_INIT_POINTER(ctx->nic->ctx, NULL);
	WRITE_ONCE(ctx->live, false);
	/* No delivery (transmit path, engine, stall's end) still uses it,
	 * so none arms the timer; the timer re-arms only itself.
	 */
	synchronize_net();
	tasklet_kill(&ctx->db_bh);
	tasklet_kill(&ctx->hds.bh);
	hrtimer_cancel(&ctx->timer);
	/* Fetches in flight are not completed: their owners free them.  The
	 * fetch engine's lock is taken with BH off, as in the NIC's context,
	 * where CEIO's queue lock, which its timer takes in softirq, is held
	 * around it (lockdep, under the KASAN kernel's fuzz).
	 */
	hrtimer_cancel(&ctx->fetch_timer);
	local_bh_disable();
	rxb_nicmem_fetch_abort(&ctx->mem);
	local_bh_enable();
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
	skb_queue_purge(&ctx->utx);
	rxb_hw_model_destroy(ctx->hwm);
	rxb_nic_hds_fini(ctx);
	rxb_nicmem_fini(&ctx->mem);
	rxb_flow_fini(&ctx->flows);
	rxb_wss_fini(&ctx->wss);
	vfree(ctx->bar_mem);
	kfree(ctx);
}

/**
 * rxb_nic_queue_reset() - "reset queue" command: the hardware half's state
 *	of a disabled queue goes back to power-on.
 * @ctx: the enabled context.
 * @q: the queue, disabled (rxb_nic_queue_enable()).
 */
void rxb_nic_queue_reset(struct rxb_nic_ctx *ctx, unsigned int q)
{
	if (ctx->hwm->ops->queue_reset && q < ctx->nqueues)
		ctx->hwm->ops->queue_reset(ctx->hwm, q);
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
	struct rxb_nic_ctx *ctx;

	if (on) {
		/* Release: pairs with test_bit_acquire() in delivery. */
		clear_bit_unlock(q, &nic->q_off);
		return;
	}
	set_bit(q, &nic->q_off);
	/* Deliveries run under RCU with bottom halves off. */
	synchronize_net();
	/* Fetches in flight complete now: their buffers go back to the
	 * driver (the queue's command rings and CEIO's fetch rings).
	 */
	ctx = rtnl_dereference(nic->ctx);
	if (ctx) {
		local_bh_disable();
		rxb_nic_ctx_enter();
		rxb_nicmem_fetch_flush(&ctx->mem);
		rxb_nic_ctx_exit();
		local_bh_enable();
	}
}

/**
 * rxb_nic_irq_event() - an event on queue @q's vector, under the NIC's
 *	interrupt moderation.
 * @ctx: the context.
 * @q: the queue.
 */
void rxb_nic_irq_event(struct rxb_nic_ctx *ctx, unsigned int q)
{
	struct rxb_nic *nic = ctx->nic;

	rxb_nic_ctx_assert("raise_irq");
	rxb_vec_event(&nic->vec[q], READ_ONCE(nic->coal_frames),
		      READ_ONCE(nic->coal_usecs));
}

/* A ring model signals queue @q. */
static void rxb_nic_raise_irq(void *hw, unsigned int q)
{
	rxb_nic_irq_event(hw, q);
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
	case RXB_PCIE_DATA_RD:
		atomic64_add(bytes, &nic->pcie[q].to_nic_data);
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

/* Ring memory through the emulation's IOMMU, which maps it one to one at
 * the driver's address (rxb_rx_dma_alloc()): the NIC's view of a ring is
 * the address its base register holds.
 */
static void *rxb_nic_dma_map(void *hw, u64 addr, size_t len)
{
	return (void *)(uintptr_t)addr;
}

/* Frames a model's transmit buffer holds at most (rxb_nic_tx_read()). */
#define RXB_NIC_UTX_MAX		1024

/* The DMA engine reads a frame to transmit from a ring in host memory
 * (Ensō's TX pipes: physically contiguous pages, bus address = physical,
 * as the XDP Tx ring's buffers) into a buffer of the NIC's.
 */
static int rxb_nic_tx_read(void *hw, unsigned int q, u64 addr, u32 size,
			   u32 off, u32 len)
{
	struct rxb_nic_ctx *ctx = hw;
	struct rxb_nic *nic = ctx->nic;
	struct sk_buff *skb;
	u32 first;

	if (len < ETH_HLEN || len > READ_ONCE(nic->max_frame) ||
	    off >= size || len > size || q >= RXB_MAX_QUEUES)
		return -EMSGSIZE;
	if (skb_queue_len(&ctx->utx) >= RXB_NIC_UTX_MAX)
		return -ENOMEM;
	skb = alloc_skb(len, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	first = min(len, size - off);
	skb_put_data(skb, phys_to_virt(addr + off), first);
	if (first < len)
		skb_put_data(skb, phys_to_virt(addr), len - first);
	atomic64_add(len, &nic->pcie[q].to_nic_data);
	skb_set_queue_mapping(skb, q);
	skb_queue_tail(&ctx->utx, skb);
	return 0;
}

/* Put the frames rxb_nic_tx_read() buffered on the wire, each queue's
 * run of frames at once.
 */
static void rxb_nic_tx_send(void *hw)
{
	struct rxb_nic_ctx *ctx = hw;
	struct sk_buff_head all, out;
	struct sk_buff *skb, *next;
	unsigned long flags;

	__skb_queue_head_init(&all);
	__skb_queue_head_init(&out);
	spin_lock_irqsave(&ctx->utx.lock, flags);
	skb_queue_splice_init(&ctx->utx, &all);
	spin_unlock_irqrestore(&ctx->utx.lock, flags);
	while ((skb = __skb_dequeue(&all))) {
		unsigned int q = skb_get_queue_mapping(skb);

		__skb_queue_tail(&out, skb);
		next = skb_peek(&all);
		if (!next || skb_get_queue_mapping(next) != q)
			rxb_nic_tx_wire(ctx->nic, q, &out);
	}
}

/* The NIC's services to a ring model's hardware half; hw: the context. */
static const struct rxb_hw_ops rxb_nic_hw_ops = {
	.raise_irq	= rxb_nic_raise_irq,
	.arm_timer	= rxb_nic_arm_timer,
	.now_ns		= rxb_nic_now_ns,
	.dma_write	= rxb_nic_dma_write,
	.pcie		= rxb_nic_pcie,
	.nicmem		= rxb_nic_nicmem,
	.nicmem_write	= rxb_nic_nicmem_write,
	.dma_ptr	= rxb_nic_dma_ptr,
	.dma_map	= rxb_nic_dma_map,
	.ring		= &rxb_nic_ring_ops,
	.tx_read	= rxb_nic_tx_read,
	.tx_send	= rxb_nic_tx_send,
};

/* The RSS hash input fields of a frame (TCP and UDP: its flow type's
 * register; other IP frames: both addresses).
 */
static u8 rxb_rss_fields(struct rxb_nic *nic, const struct rxb_nic_tuple *t)
{
	enum rxb_rss_flow_type ft;

	if (!t->proto)
		return RXB_RSS_F_SRC | RXB_RSS_F_DST;
	if (t->family == 4)
		ft = t->proto == IPPROTO_TCP ? RXB_RSS_FT_TCP4 : RXB_RSS_FT_UDP4;
	else
		ft = t->proto == IPPROTO_TCP ? RXB_RSS_FT_TCP6 : RXB_RSS_FT_UDP6;
	return READ_ONCE(nic->rss_fields[ft]);
}

/* The front end on one frame, for the enabled context @ctx: length
 * checks, parser, ntuple rules, RSS; what they chose into @d.  Return:
 * false when the frame is dropped (counted).
 */
static bool rxb_nic_front(struct rxb_nic *nic, struct rxb_nic_ctx *ctx,
			  struct sk_buff *skb, struct rxb_nic_rxd *d)
{
	const char *name = ctx->hwm->ops->name;
	struct rxb_rss_table *rss;
	u8 hdr[RXB_PARSE_LEN];
	const u8 *data;
	unsigned int q;
	u32 rule;
	u8 rctx;

	if (skb->len < ETH_HLEN) {
		atomic64_inc(&nic->runt_drops);
		trace_rxb_drop(nic->dev, name, 0, "runt");
		return false;
	}
	if (skb->len > READ_ONCE(nic->max_frame)) {
		atomic64_inc(&nic->oversize_drops);
		trace_rxb_drop(nic->dev, name, 0, "mtu");
		return false;
	}
	data = skb_header_pointer(skb, 0, min_t(unsigned int, skb->len,
						RXB_PARSE_LEN), hdr);
	rxb_nic_parse(data, min_t(unsigned int, skb->len, RXB_PARSE_LEN), &d->t);
	rule = rxb_ntuple_match(nic, &d->t, &rctx);
	if (rule == RXB_NTUPLE_DROP) {
		atomic64_inc(&nic->ntuple_drops);
		trace_rxb_drop(nic->dev, name, 0, "ntuple");
		return false;
	}
	/* A rule into a context that is off: context 0, not steered. */
	rss = &nic->rss[rctx];
	/* Pairs with rxb_nic_rss_ctx_write()'s release. */
	if (rctx && !smp_load_acquire(&rss->on)) {
		rss = &nic->rss[0];
		rctx = 0;
	}
	d->hash = rxb_rss_hash(rss->key, &d->t, rxb_rss_fields(nic, &d->t),
			       &d->hash_flags);
	if (rule < ctx->nqueues) {
		q = rule;
	} else {
		q = READ_ONCE(rss->indir[d->hash % RXB_RSS_INDIR_SIZE]);
		if (q >= ctx->nqueues)
			q = 0;
	}
	d->q = q;
	d->flags = RXB_NIC_RXD_VALID |
		   (rule < ctx->nqueues || rctx ? RXB_NIC_RXD_STEERED : 0);
	return true;
}

/* The rest of the pipeline, for the enabled context @ctx, on a frame the
 * front end steered (@d): flow table, queue enable, TLS, the model's
 * hw_rx.
 */
static void rxb_nic_deliver(struct rxb_nic *nic, struct rxb_nic_ctx *ctx,
			    struct sk_buff *skb, const struct rxb_nic_rxd *d)
{
	const char *name = ctx->hwm->ops->name;
	struct rxb_nic_frame nf;
	struct rxb_frame *f = &nf.f;
	unsigned int q = d->q;
	int err;

	f->data = skb;
	f->key = &d->t;
	f->len = skb->len;
	f->ts = ktime_to_ns(skb->tstamp);
	f->hash = d->hash;
	f->hash_flags = d->hash_flags;
	f->flow = rxb_flow_lookup(&ctx->flows, &d->t, skb->len, &f->flow_new);
	if (d->flags & RXB_NIC_RXD_STEERED)
		atomic64_inc(&nic->steered[q].v);
	nf.q = q;
	if (unlikely(test_bit_acquire(q, &nic->q_off))) {
		atomic64_inc(&nic->stopped_drops);
		trace_rxb_drop(nic->dev, name, q, "stopped");
		return;
	}
	rxb_nic_tls_rx(nic, skb, &d->t, f, q);
	err = rxb_hwm_rx(ctx->hwm, q, f);
	if (!trace_rxb_deliver_enabled() && !trace_rxb_drop_enabled())
		return;
	if (!err)
		trace_rxb_deliver(nic->dev, name, q, f->len, f->hash);
	else
		trace_rxb_drop(nic->dev, name, q,
			       err == -ENOBUFS ? "nobuf" :
			       err == -ENOSPC ? "ring_full" :
			       err == -EMSGSIZE ? "oversize" : "other");
}

static_assert(sizeof(struct rxb_nic_rxd) <= sizeof_field(struct sk_buff, cb));

/**
 * rxb_nic_steer() - the port's receive front end, for an engine of several
 *	pipelines: which queue, and so which pipeline, a frame goes to.
 * @nic: receiving NIC.
 * @skb: the frame; what the front end chose is stored in its cb (struct
 *	rxb_nic_rxd) for rxb_nic_receive(), which does not run it again.
 *
 * Length checks, parser, ntuple rules and RSS, as the MAC's steering unit
 * does before a NIC's pipelines; with no context enabled, queue 0 (whose
 * pipeline counts the frame stopped).  Called with RCU read lock and bottom
 * halves disabled, at the frame's arrival.
 *
 * Return: the queue, or -1 when the frame is dropped (counted); the
 * caller frees it then.
 */
int rxb_nic_steer(struct rxb_nic *nic, struct sk_buff *skb)
{
	struct rxb_nic_rxd *d = (void *)skb->cb;
	struct rxb_nic_ctx *ctx = rcu_dereference(nic->ctx);
	bool ok;

	d->flags = 0;
	if (!ctx)
		return 0;
	rxb_nic_ctx_enter();
	ok = rxb_nic_front(nic, ctx, skb, d);
	rxb_nic_ctx_exit();
	return ok ? d->q : -1;
}

/**
 * rxb_nic_receive() - run the receive pipeline on a frame.
 * @nic: receiving NIC.
 * @skb: the frame; the caller keeps ownership.
 * @steered: rxb_nic_steer() ran on it: its cb holds the front end's
 *	result, used unless it no longer fits the enabled context (steered
 *	with none, or for a queue it does not have: the front end runs
 *	again).
 *
 * The NIC's context: first the doorbells posted since it last ran, then
 * the frame.  Called with RCU read lock and bottom halves disabled.
 */
void rxb_nic_receive(struct rxb_nic *nic, struct sk_buff *skb, bool steered)
{
	struct rxb_nic_ctx *ctx = rcu_dereference(nic->ctx);
	struct rxb_nic_rxd local, *d = &local;

	if (!ctx) {
		atomic64_inc(&nic->stopped_drops);
		trace_rxb_drop(nic->dev, "", 0, "stopped");
		return;
	}
	rxb_nic_ctx_enter();
	rxb_nic_doorbells(ctx);
	if (steered) {
		d = (void *)skb->cb;
		if (!(d->flags & RXB_NIC_RXD_VALID) || d->q >= ctx->nqueues)
			steered = false;
	}
	if (steered || rxb_nic_front(nic, ctx, skb, d))
		rxb_nic_deliver(nic, ctx, skb, d);
	rxb_nic_ctx_exit();
}
