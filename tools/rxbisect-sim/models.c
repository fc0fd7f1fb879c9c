// SPDX-License-Identifier: GPL-2.0
/*
 * The ring models rxbisect-sim runs, and how it runs their two halves.
 *
 * Every model registered in drv/model.c (rxb_model_get()) is two objects
 * (include/rxbisect/rxb_drv_model.h, rxb_hw_model.h): the driver's half,
 * which allocates ring memory, programs base registers, posts buffers,
 * rings doorbells and polls what the NIC wrote, and the NIC's half, which
 * maps the rings and runs only in the NIC's context.  They share ring
 * memory, the register space (struct rxb_bar) and the configuration.  The
 * simulator creates them with the unit tests' code
 * (tools/testing/rxbisect/model_pair.c, sim_models_create()) and drives
 * them as the kernel and the tests' env.c do:
 *
 *  - the register space, the NIC's half ("create receive context"), the
 *    driver's half (programs the rings, posts buffers), the NIC's start,
 *    then the NIC's doorbell service once;
 *  - a frame reaches the NIC's half in the NIC's context, after the
 *    doorbells posted since the NIC last ran (sim_nic_rx(), the receive
 *    engine's order);
 *  - a register write is posted: it marks its page and, if the NIC had
 *    nothing pending, kicks it (rxb_drv_ops.kick); the simulator then
 *    runs the NIC's doorbell service in the NIC's context as an event of
 *    its own (sim.c, doorbell_event()), never inside the driver's call;
 *  - the NIC's timer, its fetch engine (the on-NIC memory tier's,
 *    nic_mem.c) and its flow-table frees run in the NIC's context too;
 *  - the driver's half runs on the simulated cores (poll, refill,
 *    rx_pending) and on its control task (ctl_tick).
 *
 * The NIC's context is a per-thread mark here, as in env.c
 * (rxb_nic_ctx_enter()/exit()); every hardware-half entry point and every
 * NIC service of sim.c asserts it (rxb_nic_ctx_assert()), so a driver half
 * that did the NIC's work in its own call stops the run.  env.c itself is
 * not linked: it is a test environment (real clock, threads, KTAP
 * failures, its own buffer accounting), while the simulator has its own
 * clock, buffers and costs; what both need of the kernel's code (the
 * doorbell service rxb_hw_doorbells(), the entry points rxb_hwm_*(), the
 * counter reads) and the halves' creation they call from the same files.
 *
 * Models that put several packets in one buffer (multi_pkt_bufs, batched
 * RxList) keep an arrival time per packet slot (sim.c, slot_filled()).
 * CEIO's slow path uses the environment's on-NIC memory tier (nic_mem.c,
 * sim.c: env_nicmem(), env_dma_ptr()).
 *
 * What the simulator uses of the models (the interface a change of the
 * models has to keep, or this file and sim.c have to follow):
 *
 *  - the registry: rxb_model_get(), rxb_model_find(),
 *    rxb_model_validate(), and the ops name, hw, multi_pkt_bufs, stream,
 *    advise, bufs_per_queue, nic_debug (only here: sim_model_streams());
 *  - the halves' create, start and destroy, as above;
 *  - the NIC half: rx, doorbell, timer (through rxb_hwm_*());
 *  - the driver half: poll, refill, rx_pending, ctl_tick;
 *  - counters: the NIC's statistics registers and the driver half's
 *    (rxb_model_qstats_read(), struct rxb_hw_qstats, struct
 *    rxb_drv_qstats) and xstats_count/xstats_names/xstats_values
 *    (notif_entries, notif_compressed, ringG_out_of_order by name);
 *  - what the halves call back (struct rxb_drv_ops: alloc_buf, free_buf,
 *    ref_buf, buf_idle, buf_cookie, now_ns, dma_alloc, dma_free,
 *    reg_write, reg_read, kick, ring->map/unmap; struct rxb_hw_ops:
 *    raise_irq, arm_timer, now_ns, dma_write, pcie with RXB_PCIE_DESC_RD
 *    and RXB_PCIE_DATA_WR, nicmem, nicmem_write, dma_ptr, dma_map,
 *    ring->dma_write/dma_put), the shim's counting sink (RXB_SHIM_COUNT)
 *    and the on-NIC memory tier's fetch engine (nic_mem.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_nicmem.h>
#include "model_pair.h"
#include "hw_ring.h"

#include "sim.h"

/* ---- the NIC's context (model_pair.c) ----------------------------- */

/* A driver half that does the NIC's work stops the run. */
void rxb_pair_ctx_fail(const char *what)
{
	fprintf(stderr, "rxbisect-sim: the NIC's %s ran outside the NIC's context\n",
		what);
	abort();
}

/* ---- the two halves ------------------------------------------------ */

int sim_models_create(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg,
		      const struct rxb_drv_ops *drv_ops, void *drv,
		      const struct rxb_hw_ops *hw_ops, void *hw,
		      struct sim_inst *in)
{
	int err;

	memset(in, 0, sizeof(*in));
	err = rxb_models_create(ops, cfg, drv_ops, drv, hw_ops, hw, &in->m,
				&in->hw, &in->bar);
	if (err)
		return err;
	/* The register writes of the driver's create. */
	sim_nic_doorbells(in);
	return 0;
}

void sim_models_destroy(struct sim_inst *in)
{
	rxb_models_destroy(in->m, in->hw, in->bar);
	memset(in, 0, sizeof(*in));
}

int sim_nic_rx(struct sim_inst *in, unsigned int q, const struct rxb_frame *f)
{
	int err;

	rxb_nic_ctx_enter();
	/* As the kernel's receive engine: the posted doorbells first. */
	rxb_hw_doorbells(in->hw, NULL, NULL);
	err = rxb_hwm_rx(in->hw, q, f);
	rxb_nic_ctx_exit();
	return err;
}

bool sim_nic_doorbells(struct sim_inst *in)
{
	const struct rxb_bar_global *g = (const void *)in->hw->bar.base;
	bool pending = READ_ONCE(g->pending);

	rxb_nic_ctx_enter();
	rxb_hw_doorbells(in->hw, NULL, NULL);
	rxb_nic_ctx_exit();
	return pending;
}

void sim_nic_timer(struct sim_inst *in)
{
	rxb_nic_ctx_enter();
	rxb_hwm_timer(in->hw);
	rxb_nic_ctx_exit();
}

bool sim_nic_fetch_run(struct rxb_nicmem *nm)
{
	bool ran;

	rxb_nic_ctx_enter();
	ran = rxb_nicmem_fetch_run(nm);
	rxb_nic_ctx_exit();
	return ran;
}

unsigned int sim_model_names(const char **names, unsigned int max)
{
	const struct rxb_model_ops *ops;
	unsigned int i, n = 0;

	for (i = 0; (ops = rxb_model_get(i)) && n < max; i++)
		names[n++] = ops->name;
	return n;
}

/*
 * The configuration of each port's model instance, as options @c give it
 * (a copy for each half: sim_models_create()).
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
	/* CEIO: a queue's frames are one flow, the paper's one flow per core
	 * (nic_rx() names the queue as the flow): a flow table of a flow a
	 * queue, which no other model reads here.
	 */
	if (!strcmp(c->model, "ceio"))
		mc->flow_table_size = qpp;
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
 * stands still.  One frame to a queue moves the "taken" index (the NIC's
 * debug registers, read with the driver half's nic_debug) of every queue
 * whose NIC takes from the same ring: those queues are one descriptor
 * stream.
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

static void *pr_dma_alloc(void *drv, size_t size, u64 *addr)
{
	void *va = calloc(1, size);

	(void)drv;
	*addr = (uintptr_t)va;
	return va;
}

static void pr_dma_free(void *drv, void *va, size_t size)
{
	(void)drv;
	(void)size;
	free(va);
}

static void pr_kick(void *drv)
{
	(void)drv;
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

/* Ring memory: the bus address is the driver's mapping. */
static void *pr_dma_map(void *hw, u64 addr, size_t len)
{
	(void)hw;
	(void)len;
	return (void *)(uintptr_t)addr;
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
	.dma_alloc	= pr_dma_alloc,
	.dma_free	= pr_dma_free,
	.kick		= pr_kick,
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
	.dma_map	= pr_dma_map,
	.ring		= &probe_hw_ring_ops,
};

int sim_model_streams(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg, u8 *stream)
{
	struct rxb_hw_debug before[RXB_MAX_MODEL_QUEUES], dbg;
	unsigned int q, j, n = cfg->nqueues, next = 0;
	u8 frame[64] = { 0 };
	struct rxb_model_cfg pc;
	struct sim_inst in;
	struct probe *p;
	bool seen[RXB_MAX_MODEL_QUEUES] = { false };
	int err = 0;

	if (n > RXB_MAX_MODEL_QUEUES)
		return -EINVAL;
	for (q = 0; q < n; q++)
		stream[q] = q;
	/* No descriptors (Ensō's pipes), or no debug registers: one each. */
	if (ops->stream || !ops->nic_debug)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	rxb_nicmem_init(&p->nm, 1 << 20, 0, pr_now, NULL);
	pc = *cfg;
	pc.nicmem_bytes = 1 << 20;
	pc.nicmem_split = false;
	pc.ceio_force_slow = false;
	err = sim_models_create(ops, &pc, &probe_drv_ops, p, &probe_hw_ops, p,
				&in);
	if (err)
		goto out;
	for (q = 0; q < n; q++) {
		struct rxb_frame f = {
			.data = frame, .len = sizeof(frame), .hash = q,
			.flow = RXB_FLOW_NONE,
		};

		if (seen[q])
			continue;
		for (j = 0; j < n; j++)
			ops->nic_debug(in.m, j, &before[j]);
		if (sim_nic_rx(&in, q, &f)) {
			err = -EIO;	/* the queue had nothing posted */
			break;
		}
		for (j = 0; j < n; j++) {
			ops->nic_debug(in.m, j, &dbg);
			if (!seen[j] && (j == q || dbg.taken != before[j].taken)) {
				seen[j] = true;
				stream[j] = next;
			}
		}
		next++;
	}
	sim_models_destroy(&in);
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
	return rxb_model_validate(ops, &mc, msg);
}
