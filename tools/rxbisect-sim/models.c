// SPDX-License-Identifier: GPL-2.0
/*
 * The ring models rxbisect-sim can run: every rxb_*_ops that rxb_model.h
 * declares, as registered in model.c (rxb_model_find).  Those that put
 * several packets in one buffer (multi_pkt_bufs, batched RxList) keep an
 * arrival time per packet slot (sim.c, slot_filled()).
 *
 * build/models_gen.c is generated from rxb_model.h: it lists the declared
 * models and gives each a weak, nameless stand-in, so that the simulator
 * still links while a model is declared (and listed in model.c) but its
 * file has not landed yet: rxb_model_find() then does not find it.  The
 * model's own file, once there, overrides the stand-in.
 *
 * CEIO's slow path uses the environment's on-NIC memory tier (nic_mem.c,
 * sim.c: env_nicmem(), env_dma_ptr()).
 *
 * What the simulator uses of the model cores (the interface a change of
 * the cores has to keep, or this file and sim.c have to follow):
 *
 *  - the registry: rxb_model_find(), rxb_model_validate(), and the ops
 *    name, multi_pkt_bufs, stream, advise, bufs_per_queue;
 *  - the lifetime: create (struct rxb_model_cfg: the fields model_cfg()
 *    in sim.c sets, with drv_ops/drv and hw_ops/hw) and destroy;
 *  - the NIC half: hw_rx (one call per frame, in the DMA engine's event),
 *    hw_timer, and hw_debug (only here: sim_model_streams());
 *  - the driver half: poll, refill, rx_pending, ctl_tick;
 *  - counters: struct rxb_model.qstats (hw_packets, packets, nobuf_drops,
 *    ring_full_drops, oversize_drops, alloc_fails, doorbells) and
 *    xstats_count/xstats_names/xstats_values (notif_entries,
 *    notif_compressed, ringG_out_of_order by name);
 *  - what the cores call back (struct rxb_drv_ops: alloc_buf, free_buf,
 *    ref_buf, buf_idle, buf_cookie, now_ns, ring->map/unmap; struct
 *    rxb_hw_ops: raise_irq, arm_timer, now_ns, dma_write, pcie with
 *    RXB_PCIE_DESC_RD and RXB_PCIE_DATA_WR, nicmem, nicmem_write, dma_ptr,
 *    ring->dma_write/dma_put), the shim's counting sink (RXB_SHIM_COUNT)
 *    and the on-NIC memory tier (nic_mem.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_nicmem.h>

#include "sim.h"

unsigned int sim_model_names(const char **names, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < sim_nmodels && n < max; i++) {
		const char *name = sim_models[i]->name;

		if (name && *name && rxb_model_find(name) == sim_models[i])
			names[n++] = name;
	}
	return n;
}

/*
 * The configuration of each port's model instance, as options @c give it
 * (no environment: sim.c sets drv_ops, drv, hw_ops, hw).
 */
void sim_model_cfg(const struct sim_cfg *c, struct rxb_model_cfg *mc)
{
	unsigned int qpp = c->cores / c->ports;

	memset(mc, 0, sizeof(*mc));
	mc->nqueues = qpp;
	mc->ring_size = c->ring;
	mc->buf_len = c->buf_stride - c->headroom;
	mc->share_factor = c->share < qpp ? c->share : qpp;
	mc->ax_ring_size = c->ax;
	mc->ax_policy = c->ax_policy;
	mc->notif_compress = c->notif_compress;
	mc->notif_timeout_ns = (u64)(c->notif_timeout_us * 1e3);
	mc->ax_assoc = c->ax_assoc;
	mc->cache_bytes = c->llc_bytes / c->llc_ways * c->ddio_ways;
	mc->dsh_period_ns = (u64)(c->dsh_period_us * 1e3);
	mc->dsh_window = c->dsh_window;
	mc->dsh_tput_mbps = c->dsh_tput_mbps;
	mc->dsh_overload_ratio = c->dsh_overload_ratio;
	/* CEIO: the host's cache budget, split evenly over the ports. */
	mc->ceio_llc_budget = (c->ceio_budget ? c->ceio_budget :
			       c->llc_bytes / c->llc_ways * c->ddio_ways) / c->ports;
	mc->ceio_fetch_async = c->ceio_fetch == CEIO_FETCH_ASYNC;
	mc->ceio_force_slow = c->ceio_force_slow;
	mc->ceio_release = RXB_CEIO_REL_BATCH;
	mc->nicmem_bytes = c->nicmem;
	mc->nicmem_split = c->nicmem_split;
	/* Ensō: one pipe per queue, as much memory as a ring of buffers. */
	mc->enso_pipes = 1;
	mc->enso_pipe_size = RXB_ENSO_PIPE_MIN;
	while (mc->enso_pipe_size < mc->ring_size * 2048ULL &&
	       mc->enso_pipe_size < RXB_ENSO_PIPE_MAX)
		mc->enso_pipe_size *= 2;
}

/* ---- which queues share a descriptor ring --------------------------- */

/*
 * A throw-away instance of the model, in an environment of its own with
 * nothing behind it: buffers are numbers, DMA writes go nowhere, time
 * stands still.  One frame to a queue moves the "taken" index (struct
 * rxb_hw_debug) of every queue whose NIC takes from the same ring: those
 * queues are one descriptor stream.
 */
#define PROBE_BASE	0x100000ULL
#define PROBE_STRIDE	0x20000ULL

struct probe {
	u64 next;
	struct rxb_nicmem nm;
	u8 scratch[PROBE_STRIDE];
};

static int pr_alloc_buf(void *drv, unsigned int q, struct rxb_buf *b)
{
	struct probe *p = drv;

	(void)q;
	b->addr = PROBE_BASE + p->next * PROBE_STRIDE;
	b->cookie = (void *)(uintptr_t)(++p->next);
	return 0;
}

static void pr_free_buf(void *drv, unsigned int q, void *cookie)
{
	(void)drv;
	(void)q;
	(void)cookie;
}

static void pr_ref_buf(void *drv, unsigned int q, void *cookie)
{
	pr_free_buf(drv, q, cookie);
}

static bool pr_buf_idle(void *drv, unsigned int q, void *cookie)
{
	(void)drv;
	(void)q;
	(void)cookie;
	return true;
}

static void *pr_buf_cookie(void *drv, u64 addr)
{
	(void)drv;
	return (void *)(uintptr_t)((addr - PROBE_BASE) / PROBE_STRIDE + 1);
}

static u64 pr_now(void *env)
{
	(void)env;
	return 0;
}

static u64 pr_tier_now(void)
{
	return 0;
}

static void pr_irq(void *hw, unsigned int q)
{
	(void)hw;
	(void)q;
}

static void pr_timer(void *hw, u64 ns)
{
	(void)hw;
	(void)ns;
}

static u8 pr_dma_write(void *hw, const struct rxb_frame *f, u64 addr, u32 *csum)
{
	(void)hw;
	(void)f;
	(void)addr;
	(void)csum;
	return 0;
}

static struct rxb_nicmem *pr_nicmem(void *hw)
{
	return &((struct probe *)hw)->nm;
}

static void pr_nicmem_write(void *hw, const struct rxb_frame *f, u64 addr,
			    u32 off)
{
	(void)hw;
	(void)f;
	(void)addr;
	(void)off;
}

static void *pr_dma_ptr(void *hw, u64 addr, u32 len)
{
	(void)addr;
	(void)len;
	return ((struct probe *)hw)->scratch;
}

/* Pipes (Ensō) are never created here: the probe skips streaming models. */
static void *pr_map(void *drv, unsigned int q, size_t size, u64 *addr)
{
	(void)drv;
	(void)q;
	(void)size;
	(void)addr;
	return NULL;
}

static void pr_unmap(void *drv, unsigned int q, void *va, size_t size)
{
	(void)drv;
	(void)q;
	(void)va;
	(void)size;
}

static u8 pr_dma_write_ring(void *hw, const struct rxb_frame *f, u64 addr,
			    u32 size, u32 off, u32 *csum)
{
	(void)size;
	(void)off;
	return pr_dma_write(hw, f, addr, csum);
}

static void pr_dma_put(void *hw, const void *src, u32 len, u64 addr)
{
	(void)hw;
	(void)src;
	(void)len;
	(void)addr;
}

static const struct rxb_drv_ring_ops probe_drv_ring_ops = {
	.map	= pr_map,
	.unmap	= pr_unmap,
};

static const struct rxb_hw_ring_ops probe_hw_ring_ops = {
	.dma_write	= pr_dma_write_ring,
	.dma_put	= pr_dma_put,
};

static const struct rxb_drv_ops probe_drv_ops = {
	.alloc_buf	= pr_alloc_buf,
	.free_buf	= pr_free_buf,
	.ref_buf	= pr_ref_buf,
	.buf_idle	= pr_buf_idle,
	.buf_cookie	= pr_buf_cookie,
	.now_ns		= pr_now,
	.ring		= &probe_drv_ring_ops,
};

static const struct rxb_hw_ops probe_hw_ops = {
	.raise_irq	= pr_irq,
	.arm_timer	= pr_timer,
	.now_ns		= pr_now,
	.dma_write	= pr_dma_write,
	.nicmem		= pr_nicmem,
	.nicmem_write	= pr_nicmem_write,
	.dma_ptr	= pr_dma_ptr,
	.ring		= &probe_hw_ring_ops,
};

int sim_model_streams(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg, u8 *stream)
{
	struct rxb_hw_debug before[RXB_MAX_MODEL_QUEUES], dbg;
	unsigned int q, j, n = cfg->nqueues, next = 0;
	u8 frame[64] = { 0 };
	struct rxb_model_cfg pc;
	struct rxb_model *m;
	struct probe *p;
	bool seen[RXB_MAX_MODEL_QUEUES] = { false };
	int err = 0;

	if (n > RXB_MAX_MODEL_QUEUES)
		return -EINVAL;
	for (q = 0; q < n; q++)
		stream[q] = q;
	/* No descriptors (Ensō's pipes), or no debug registers: one each. */
	if (ops->stream || !ops->hw_debug)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	rxb_nicmem_init(&p->nm, 1 << 20, 0, pr_tier_now);
	pc = *cfg;
	pc.drv_ops = &probe_drv_ops;
	pc.drv = p;
	pc.hw_ops = &probe_hw_ops;
	pc.hw = p;
	pc.nicmem_bytes = 1 << 20;
	pc.nicmem_split = false;
	pc.ceio_force_slow = false;
	m = ops->create(&pc);
	if (IS_ERR(m)) {
		err = PTR_ERR(m);
		goto out;
	}
	for (q = 0; q < n; q++) {
		struct rxb_frame f = {
			.data = frame, .len = sizeof(frame), .hash = q,
			.flow = RXB_FLOW_NONE,
		};

		if (seen[q])
			continue;
		for (j = 0; j < n; j++)
			ops->hw_debug(m, j, &before[j]);
		if (ops->hw_rx(m, q, &f)) {
			err = -EIO;	/* the queue had nothing posted */
			break;
		}
		for (j = 0; j < n; j++) {
			ops->hw_debug(m, j, &dbg);
			if (!seen[j] && (j == q || dbg.taken != before[j].taken)) {
				seen[j] = true;
				stream[j] = next;
			}
		}
		next++;
	}
	ops->destroy(m);
out:
	rxb_nicmem_fini(&p->nm);
	free(p);
	if (err)
		for (q = 0; q < n; q++)
			stream[q] = q;
	return err;
}

int sim_model_check(const struct sim_cfg *c, const char **msg)
{
	const struct rxb_model_ops *ops = c->ops ? c->ops : rxb_model_find(c->model);
	struct rxb_model_cfg mc;

	*msg = NULL;
	if (!ops)
		return -ENOENT;
	sim_model_cfg(c, &mc);
	/* An environment with every hook, as sim.c's (CEIO looks). */
	mc.drv_ops = &probe_drv_ops;
	mc.hw_ops = &probe_hw_ops;
	return rxb_model_validate(ops, &mc, msg);
}
