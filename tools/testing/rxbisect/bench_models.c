// SPDX-License-Identifier: GPL-2.0
/*
 * Microbenchmark of the ring-model cores (a benchmark, not a test).
 *
 * Each model runs as its two halves (rxb_models_create(), env.c): the
 * driver's (include/rxbisect/rxb_drv_model.h) on the consumer threads, the
 * NIC's (rxb_hw_model.h) on the NIC thread (two with -S), which is the
 * NIC's context for the whole run (rxb_nic_ctx_enter()), as the kernel's
 * engine thread is.  For every frame (RSS: a hash per frame picks the
 * queue) the NIC thread first serves the doorbells the driver posted
 * since it last looked (rxb_hw_doorbells(): the hardware half reads the
 * registers written), then hands the frame to the hardware half's rx;
 * between frames it fires the model's timer and the on-NIC memory tier's
 * fetch engine (CEIO's slow path) when they are due.  Consumer threads run
 * NAPI-like loops over the queues they own (queue q belongs to consumer q
 * % consumers): the driver half's poll (which consumes, refills and
 * writes its doorbell registers: a store and a mark in the register
 * space, rxb_reg_write(); the kick that would wake an idle NIC is empty,
 * the NIC thread never sleeps), read each packet's first cache line as
 * the stack's header parsing would, and return the buffer to the pool it
 * came from.  A frame the NIC drops for lack of a buffer or ring space is
 * sent again (back-pressure, no loss), so every run delivers the same
 * frames and the rate is that of the slower side.  No NIC entry point
 * runs on a consumer thread: each checks the NIC's context (env.c), and a
 * run that reaches one outside it is not reported ("cannot run").
 *
 * The environment is lean on purpose (unlike env.c's, nothing is checked):
 * buffers are 2 KiB slots of one array; each pool has a lock-free cache
 * its owner allocates from and frees into, and a locked list for buffers
 * freed by other threads (rxBisect moves buffers between queues), as
 * page_pool does.  DMA is a memcpy without checksum; ring memory is
 * page-aligned and zeroed, its bus address its address.
 *
 * The default mode measures what the papers measure: the cycles the
 * driver spends per packet, apart from the emulated NIC's (which real
 * hardware spends for free), with the cache residency of the buffers
 * controlled (run_grid()):
 *  - driver side: TSC cycles around each consumer's poll() (which consumes,
 *    refills and rings the doorbell) and the frees of that poll's buffers,
 *    summed per consumer thread, over the packets it delivered.  Polls run
 *    only when rx_pending() says so (NAPI after an interrupt), so the
 *    spinning of an idle consumer is not counted;
 *  - NIC side: around each rx that delivers its frame, each doorbell
 *    service that had doorbells to act on, each timer and fetch-engine
 *    run, over the frames;
 *  - the total rate of the pipeline, as before (the timing slows it).
 * Every model posts the same number of buffers (the papers compare at
 * equal buffer memory): -b, by default an eighth of the LLC, and -B, by
 * default 4 times it, each queue's share alike (fill_cfg() says how each
 * model's rings are sized).  All models run with the same consumer
 * threads (-c), queue q on thread q % threads; COREC's groups of -g
 * queues consume one shared queue, privring has as many queues.  Each
 * cell is run -R times (default 5), the models interleaved, and printed
 * as median [min-max]; the driver side's ratio to privring's is marked ~
 * (within noise) when its range includes 1.  Then the memcpy bound of the
 * machine, cache-resident and from DRAM.
 *
 * -1 runs the default mode's grid on one thread: the NIC delivers a burst
 * of BUDGET frames, then every queue with a completion is polled (and its
 * buffers read and freed), in turn, timed as above.  The driver's
 * instruction path and its own cache misses, without the transfers of
 * ring lines between a NIC core and a consumer core: what separates two
 * models' receive loops on the same core (run_one_thread()).
 * Ring sizes: every model's completion ring has the entries of its buffer
 * ring (fill_cfg()); rxbisect's Bx rings too, as many as its Ax ring's
 * ("rxbisect").  Its paper sizes the Bx ring to take what every
 * associated Ax ring can lend at once (k * |Ax| = |Bx|, section 4.5, up to
 * 8192): a second rxbisect row, "rxbisect k*Ax", has that, to tell the
 * cost of its larger ring from its loop's.  -X N: one rxbisect row, its
 * Bx rings of N entries at both buffer sizes.  CEIO fetches its slow-path
 * packets as the module does by default (ceio_fetch=async, the paper's
 * async_recv()); a second row, "ceio sync", one at a time (recv()).
 *
 * -A measures the buffer allocator instead (rxBisect paper Table 3, thesis
 * §6.1.2: the inter-core allocator's share of the cycles and its cost per
 * call against privRing).  Every allocation and free on a consumer thread
 * is timed with the TSC (the cost of reading it subtracted) and counted:
 * frees into the pool of another queue than the one being polled (the
 * buffer came from another queue's Ax ring) and frees that take the
 * pool's lock because another thread owns the pool.  The share is of the
 * consumer threads' CPU time.  Timing every call slows the runs, so -A
 * prints no rates.
 *
 * -S measures how the NIC scales: every model with 1 and with 2 NIC
 * threads running it concurrently, as the kernel's NIC does when
 * frames arrive on several CPUs.  NIC thread t takes the queues q with
 * q % 2 == t and half the frames; the consumers are the same in both
 * modes.  Printed per model and frame size: Mpps with 1 and with 2 NIC
 * threads, the scaling (2-thread rate / 1-thread rate) and the scaling
 * over privring's, each as median [min-max] over -R rounds (default 5)
 * that interleave the models (run_scaling()).  A device-wide lock in a
 * model's NIC path shows as a scaling below privring's.
 *
 * Usage: bench_models [-q queues] [-c consumers | -1] [-n frames] [-R reps]
 *                     [-m model,...] [-T] [-g group] [-b bufs] [-B bufs]
 *                     [-X bx_entries]
 *        bench_models -A | -S [-q queues] [-c consumers] [-r ring]
 *                     [-n frames] [-R reps] [-m model,...] [-T]
 * -T: consumers read the whole packet instead of its first cache line.
 * Bad options exit 2 with a message (bench_cli.sh checks them).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/err.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include "../../../drivers/net/rxbisect/hw/models/hw_ring.h"
#include "env.h"
#include "shim.h"

#define BENCH_PROG "bench_models"
#include "bench_util.h"
#include <rxbisect/rxb_nicmem.h>
#if __has_include("x86intrin.h")
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define BUF_SIZE	2048
#define CACHE_MAX	256		/* per-pool lock-free cache */
#define BUDGET		64		/* NAPI poll budget */
#define MAX_Q		RXB_MAX_MODEL_QUEUES
#define MAX_CONS	16
#define MAX_NIC		2		/* NIC threads */

struct bbuf {
	u8 *data;
	u16 pool;
	int refs;	/* the model's, or packets' (fragments); atomic */
};

struct pool {
	int owner;		/* consumer thread; set before the run */
	/* owner only */
	struct bbuf *cache[CACHE_MAX];
	unsigned int ncache;
	/* everyone, under lock */
	pthread_spinlock_t lock ____cacheline_aligned;
	struct bbuf **shared;
	unsigned int nshared;
	unsigned int cap;
} ____cacheline_aligned;

/*
 * TSC cycles of one side (driver or NIC) and the packets they handled;
 * sections longer than SECT_MAX cycles (the thread was preempted or
 * interrupted: no poll of BUDGET packets takes that long) are left out,
 * with their packets, and counted.
 */
struct side {
	u64 cyc, pkts, sect;
	u64 x_pkts, x_sect;	/* excluded */
};

#define SECT_MAX	250000ULL	/* ~100 us at 2.6 GHz */

struct bench {
	const struct rxb_model_ops *ops;
	struct rxb_model *m;		/* the driver's half */
	u64 shared_pools;		/* bit q: q's pool is shared (rx.c) */
	struct rxb_hw_model *hw;	/* the NIC's half */
	void *bar;			/* their register space */
	unsigned int nq, ncons, nnic, ring, len;
	bool nopin;		/* more threads than CPUs: the scheduler places them */
	u64 frames;
	bool touch_all;
	u8 *mem;
	struct bbuf *bufs;
	unsigned int nbufs;
	struct pool pools[MAX_Q];
	u64 timer_due ____cacheline_aligned;	/* 0: none armed */
	u64 fetch_due;		/* the fetch engine's timer; 0: none armed */
	u64 consumed ____cacheline_aligned;
	u64 retries;		/* summed over the NIC threads */
	u64 sink[MAX_CONS];
	/* -A: summed over the consumer threads at their end */
	bool acct;
	u64 tsc_cost;		/* cycles one rdtsc pair adds to a reading */
	u64 a_calls, a_cyc, a_cross, a_xcyc, a_remote, a_frees, cons_ns;
	/*
	 * The default mode: equal posted buffers (@posted, 0: -S/-A, sized by
	 * @ring), shared rings of @group queues, and each side timed
	 * (struct side), summed over the threads at their end.
	 */
	u64 posted;
	unsigned int group;
	bool timed;
	bool one;		/* -1: NIC and consumer alternate on one thread */
	unsigned int bx;	/* -X: rxbisect's Bx ring entries; 0: sized by posted */
	bool bx_kax;		/* rxbisect's Bx rings of k * |Ax| (its paper) */
	bool ceio_sync;		/* ceio_fetch=sync instead of the default */
	size_t mem_cap;		/* bytes of @mem, kept across runs */
	bool pcie;		/* -P: count interconnect bytes */
	struct side drv, nic;
	/* -E: Ensō's rows (run_enso()) */
	unsigned int enso_pipes;	/* pipes per queue; 0: 1 */
	bool enso_chaotic;
	u64 pace_ns;		/* NIC: ns between frames; 0: as fast as it can */
	u64 work_ns;		/* consumer: ns of work per packet */
	u64 notifs;		/* the run's notifications (xstats *_notifs) */
};

static __thread int self_cons = -1;	/* consumer index; -1: NIC or main */
/* -A, per consumer thread */
static __thread u64 t_calls, t_cyc, t_cross, t_xcyc, t_remote, t_frees;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u64 rdtsc(void)
{
#if HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

/*
 * -A: TSC reads fenced on both sides (lfence; rdtsc ... rdtscp; lfence), so
 * that a timed allocator call neither starts before the loads ahead of it
 * retire nor ends before its own do.
 */
static u64 tsc_begin(void)
{
#if HAVE_TSC
	_mm_lfence();
	return __rdtsc();
#else
	return 0;
#endif
}

static u64 tsc_end(void)
{
#if HAVE_TSC
	unsigned int aux;
	u64 t = __rdtscp(&aux);

	_mm_lfence();
	return t;
#else
	return 0;
#endif
}

static void cpu_relax(void)
{
#if HAVE_TSC
	_mm_pause();
#endif
}

static void pin(const struct bench *b, int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (n < 2 || b->nopin)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % n, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * A pool's lock: a spin lock, as page_pool's ring lock is.  Held briefly,
 * but a thread preempted while holding it (more threads than CPUs, -S)
 * would leave the others spinning for its time slice: after a while they
 * yield instead.  Uncontended, one trylock.
 */
static void pool_lock(struct pool *p)
{
	unsigned int n = 0;

	while (pthread_spin_trylock(&p->lock)) {
		if (++n & 127)
			cpu_relax();
		else
			sched_yield();
	}
}

/* Whether this thread owns queue @q's pool (no division per call). */
static bool owner(struct bench *b, unsigned int q)
{
	return self_cons >= 0 && b->pools[q].owner == self_cons;
}

static int buf_alloc(struct bench *b, unsigned int q, struct rxb_buf *out)
{
	struct pool *p = &b->pools[q];
	struct bbuf *x;

	if (owner(b, q) && !p->ncache) {
		/* refill the cache with what other threads freed */
		pool_lock(p);
		while (p->nshared && p->ncache < CACHE_MAX / 2)
			p->cache[p->ncache++] = p->shared[--p->nshared];
		pthread_spin_unlock(&p->lock);
	}
	if (owner(b, q) && p->ncache) {
		x = p->cache[--p->ncache];
	} else {
		pool_lock(p);
		x = p->nshared ? p->shared[--p->nshared] : NULL;
		pthread_spin_unlock(&p->lock);
		if (!x)
			return -ENOMEM;
	}
	out->addr = (u64)(unsigned long)x->data;
	out->cookie = x;
	x->refs = 1;
	return 0;
}

/* -A: the cycles since @c0, less the cost of reading the TSC */
static u64 acct_add(struct bench *b, u64 c0)
{
	u64 d = tsc_end() - c0;

	d = d > b->tsc_cost ? d - b->tsc_cost : 0;
	t_calls++;
	t_cyc += d;
	return d;
}

static int env_alloc(void *envp, unsigned int q, struct rxb_buf *out)
{
	struct bench *b = envp;
	u64 c0;
	int ret;

	if (!b->acct || self_cons < 0)
		return buf_alloc(b, q, out);
	c0 = tsc_begin();
	ret = buf_alloc(b, q, out);
	acct_add(b, c0);
	return ret;
}

/* Return @x to its pool; @q: the queue whose packet (or refill) it was. */
static void pool_put(struct bench *b, unsigned int q, struct bbuf *x)
{
	struct pool *p = &b->pools[x->pool];
	bool acct = b->acct && self_cons >= 0;
	u64 c0 = acct ? tsc_begin() : 0;

	if (owner(b, x->pool) && p->ncache < CACHE_MAX) {
		p->cache[p->ncache++] = x;
	} else {
		pool_lock(p);
		p->shared[p->nshared++] = x;
		pthread_spin_unlock(&p->lock);
		t_remote += acct;
	}
	if (acct) {
		u64 d = acct_add(b, c0);

		t_frees++;
		if (x->pool != q) {
			t_cross++;
			t_xcyc += d;
		}
	}
}

/* Drop a reference on @x (the model's, or a packet's); the last one
 * returns it to its pool.
 */
static void buf_unref(struct bench *b, unsigned int q, struct bbuf *x)
{
	/* The only reference (no fragment or model holds it, so no one
	 * can take another): no atomic, as page_pool's put of a page whose
	 * count is one.
	 */
	if (__atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) == 1 ||
	    !__atomic_sub_fetch(&x->refs, 1, __ATOMIC_ACQ_REL))
		pool_put(b, q, x);
}

/*
 * Queue @q's poll is done with packet @p, as XDP_DROP (drv/rx.c
 * rxb_rx_put_pkt()): a whole buffer of a pool several queues share goes
 * to the model's cache when it has one (rxb_model_ops.recycle, COREC's
 * stash), else back to the pool.
 */
static void pkt_drop(struct bench *b, unsigned int q, const struct rxb_pkt *p)
{
	const struct rxb_model_ops *ops = b->ops;
	struct bbuf *x = p->cookie;

	if (ops->recycle && (b->shared_pools & BIT_ULL(q)) && !p->frag &&
	    __atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) == 1) {
		struct rxb_buf rb = {
			.addr = (u64)(unsigned long)x->data, .cookie = x,
		};

		if (ops->recycle(b->m, q, &rb))
			return;
	}
	buf_unref(b, q, x);
}

static void env_free(void *envp, unsigned int q, void *cookie)
{
	buf_unref(envp, q, cookie);
}

static void env_ref(void *envp, unsigned int q, void *cookie)
{
	struct bbuf *x = cookie;

	__atomic_add_fetch(&x->refs, 1, __ATOMIC_RELAXED);
}

static void *env_cookie(void *envp, u64 addr)
{
	struct bench *b = envp;

	return &b->bufs[((u8 *)(unsigned long)addr - b->mem) / BUF_SIZE];
}

/*
 * The consumers poll on rx_pending() instead of waiting for vectors: an
 * interrupt costs the NIC nothing here (it is a message on the bus for a
 * real one; a shared atomic counter was a tenth of privring's profile).
 */
static void env_irq(void *envp, unsigned int q)
{
}

static void env_arm(void *envp, u64 ns)
{
	struct bench *b = envp;
	u64 due = now_ns() + ns;

	if (!__atomic_load_n(&b->timer_due, __ATOMIC_RELAXED))
		__atomic_store_n(&b->timer_due, due, __ATOMIC_RELAXED);
}

static u64 env_now(void *envp)
{
	return now_ns();
}

static u8 env_dma(void *envp, const struct rxb_frame *f, u64 addr, u32 *csum)
{
	memcpy((void *)(unsigned long)addr, f->data, f->len);
	return 0;
}

/*
 * Ring memory (descriptor, completion, notification and command rings):
 * page-aligned and zeroed, as dma_alloc_coherent()'s; its bus address is
 * its address, and the NIC's view of it (dma_map) the same memory.
 */
static void *env_dma_alloc(void *envp, size_t size, u64 *addr)
{
	size_t len = (size + 4095) & ~(size_t)4095;
	void *va = aligned_alloc(4096, len);

	if (!va)
		abort();
	memset(va, 0, len);
	*addr = (uintptr_t)va;
	return va;
}

static void env_dma_free(void *envp, void *va, size_t size)
{
	free(va);
}

static void *env_dma_map(void *envp, u64 addr, size_t len)
{
	return (void *)(uintptr_t)addr;
}

/* The NIC thread never sleeps: it looks for doorbells before every frame
 * and while it waits, so a kick has nobody to wake.
 */
static void env_kick(void *envp)
{
}

/*
 * Rings the driver maps for the NIC to write into (Ensō's pipes): the
 * shim's double mapping, as the kernel's vmap of the pages twice; the
 * NIC's DMA into them is a memcpy split at the ring's end.
 */
static void *env_map_ring(void *envp, unsigned int q, size_t size, u64 *addr)
{
	void *va = rxb_shim_map_double(size);

	*addr = (uintptr_t)va;
	return va;
}

static void env_unmap_ring(void *envp, unsigned int q, void *va, size_t size)
{
	rxb_shim_unmap_double(va, size);
}

static u8 env_dma_ring(void *envp, const struct rxb_frame *f, u64 addr,
		       u32 size, u32 off, u32 *csum)
{
	u8 *ring = (u8 *)(uintptr_t)addr;
	u32 n0 = size - off < f->len ? size - off : f->len;

	memcpy(ring + off, f->data, n0);
	memcpy(ring, (const u8 *)f->data + n0, f->len - n0);
	return 0;
}

static void env_dma_put(void *envp, const void *src, u32 len, u64 addr)
{
	memcpy((void *)(uintptr_t)addr, src, len);
}

static const struct rxb_drv_ring_ops bench_drv_ring_ops = {
	.map	= env_map_ring,
	.unmap	= env_unmap_ring,
};

static const struct rxb_hw_ring_ops bench_hw_ring_ops = {
	.dma_write	= env_dma_ring,
	.dma_put	= env_dma_put,
};

/* The on-NIC memory tier (CEIO's slow path): the kernel's defaults,
 * 64 MiB and a 1 us fetch, completed by its fetch engine when due
 * (env_fetch_arm(), nic_timers()).
 */
static struct rxb_nicmem bench_nm;

static struct rxb_nicmem *env_nicmem(void *envp)
{
	return &bench_nm;
}

static void env_nicmem_write(void *envp, const struct rxb_frame *f, u64 addr,
			     u32 off)
{
	memcpy((u8 *)rxb_nicmem_ptr(&bench_nm, addr) + off, f->data, f->len);
}

static void *env_dma_ptr(void *envp, u64 addr, u32 len)
{
	return (void *)(unsigned long)addr;
}

/* The fetch engine asks to run in @ns. */
static void env_fetch_arm(void *envp, u64 ns)
{
	struct bench *b = envp;
	u64 due = now_ns() + ns;

	__atomic_store_n(&b->fetch_due, due ? due : 1, __ATOMIC_RELAXED);
}

static const struct rxb_drv_ops bench_drv_ops = {
	.alloc_buf	= env_alloc,
	.free_buf	= env_free,
	.ref_buf	= env_ref,
	.buf_cookie	= env_cookie,
	.now_ns		= env_now,
	.dma_alloc	= env_dma_alloc,
	.dma_free	= env_dma_free,
	.kick		= env_kick,
	.ring		= &bench_drv_ring_ops,
};

static const struct rxb_hw_ops bench_hw_ops = {
	.raise_irq	= env_irq,
	.arm_timer	= env_arm,
	.now_ns		= env_now,
	.dma_write	= env_dma,
	.dma_map	= env_dma_map,
	.ring		= &bench_hw_ring_ops,
	.nicmem		= env_nicmem,
	.nicmem_write	= env_nicmem_write,
	.dma_ptr	= env_dma_ptr,
};

/*
 * -P: the interconnect bytes of each model, counted as the kernel NIC
 * counts them (rxb_hw_ops.pcie, rxb_drv_ops.reg_write and reg_read, the
 * DMA engine's data bytes).  Separate ops (pc_ops_init()), so that the
 * timed modes pay nothing.
 */
static u64 pc_data, pc_meta, pc_desc, pc_mmio, pc_mmio_rd;
static struct rxb_hw_ring_ops bench_hw_ring_ops_pc;
static struct rxb_drv_ops bench_drv_ops_pc;
static struct rxb_hw_ops bench_hw_ops_pc;

static void pc_add(u64 *c, u64 n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static u8 env_dma_pc(void *envp, const struct rxb_frame *f, u64 addr, u32 *csum)
{
	pc_add(&pc_data, f->len);
	return env_dma(envp, f, addr, csum);
}

static u8 env_dma_ring_pc(void *envp, const struct rxb_frame *f, u64 addr,
			  u32 size, u32 off, u32 *csum)
{
	pc_add(&pc_data, f->len);
	return env_dma_ring(envp, f, addr, size, off, csum);
}

static void env_pcie(void *envp, unsigned int q, unsigned int kind, u32 bytes)
{
	pc_add(kind == RXB_PCIE_META_WR ? &pc_meta :
	       kind == RXB_PCIE_DATA_WR ? &pc_data : &pc_desc, bytes);
}

static void env_reg_write(void *envp, unsigned int q, u32 bytes)
{
	pc_add(&pc_mmio, bytes);
}

static void env_reg_read(void *envp, unsigned int q, u32 bytes)
{
	pc_add(&pc_mmio_rd, bytes);
}

static void pc_ops_init(void)
{
	bench_hw_ring_ops_pc = bench_hw_ring_ops;
	bench_hw_ring_ops_pc.dma_write = env_dma_ring_pc;
	bench_drv_ops_pc = bench_drv_ops;
	bench_drv_ops_pc.reg_write = env_reg_write;
	bench_drv_ops_pc.reg_read = env_reg_read;
	bench_hw_ops_pc = bench_hw_ops;
	bench_hw_ops_pc.dma_write = env_dma_pc;
	bench_hw_ops_pc.pcie = env_pcie;
	bench_hw_ops_pc.ring = &bench_hw_ring_ops_pc;
}

static __thread struct side t_side;	/* this thread's timed sections */

/* A packet's first byte: in its buffer, or (a stream model, no buffer:
 * Ensō) where the model says, valid until the next poll.
 */
static const u64 *pkt_data(const struct rxb_pkt *p)
{
	const struct bbuf *x = p->cookie;

	return x ? (const u64 *)(x->data + p->offset) : p->data;
}

/* -E: spin @ns, the consumer's work on a packet. */
static void work(u64 ns)
{
	u64 end = now_ns() + ns;

	while (now_ns() < end)
		cpu_relax();
}

/*
 * A timed section of @d cycles, @pairs TSC read pairs (their cost is
 * subtracted), that handled @n packets.
 */
static void side_add(const struct bench *b, u64 d, unsigned int pairs, u64 n)
{
	u64 c = pairs * b->tsc_cost;

	d = d > c ? d - c : 0;
	if (d > SECT_MAX) {
		t_side.x_sect++;
		t_side.x_pkts += n;
		return;
	}
	t_side.sect++;
	t_side.cyc += d;
	t_side.pkts += n;
}

/* At the thread's end: its sections into @to (one side of the run). */
static void side_flush(struct side *to)
{
	__atomic_add_fetch(&to->cyc, t_side.cyc, __ATOMIC_RELAXED);
	__atomic_add_fetch(&to->pkts, t_side.pkts, __ATOMIC_RELAXED);
	__atomic_add_fetch(&to->sect, t_side.sect, __ATOMIC_RELAXED);
	__atomic_add_fetch(&to->x_pkts, t_side.x_pkts, __ATOMIC_RELAXED);
	__atomic_add_fetch(&to->x_sect, t_side.x_sect, __ATOMIC_RELAXED);
	memset(&t_side, 0, sizeof(t_side));
}

/*
 * The NIC's timers between frames, as its own pipeline: the model's, and
 * the fetch engine of its on-NIC memory tier.  One NIC thread runs each
 * at a time, as one hrtimer: the one that takes the due time.  Timed as
 * NIC work (no packets of their own).
 */
static void nic_timers(struct bench *b)
{
	u64 due = __atomic_load_n(&b->timer_due, __ATOMIC_RELAXED);
	u64 fdue = __atomic_load_n(&b->fetch_due, __ATOMIC_RELAXED);
	u64 c0, now;

	if (!due && !fdue)
		return;
	now = now_ns();
	if (due && now >= due &&
	    __atomic_compare_exchange_n(&b->timer_due, &due, 0, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		c0 = b->timed ? tsc_begin() : 0;
		rxb_hwm_timer(b->hw);
		if (b->timed)
			side_add(b, tsc_end() - c0, 1, 0);
	}
	if (fdue && now >= fdue &&
	    __atomic_compare_exchange_n(&b->fetch_due, &fdue, 0, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		c0 = b->timed ? tsc_begin() : 0;
		rxb_nicmem_fetch_run(&bench_nm);
		if (b->timed)
			side_add(b, tsc_end() - c0, 1, 0);
	}
}

/*
 * The NIC's doorbell service: the registers the driver wrote since the
 * NIC last looked, acted on when there are any (rxb_hw_doorbells()).
 * Timed as NIC work (no packets of its own).
 */
static void nic_doorbells(struct bench *b)
{
	const struct rxb_bar_global *g = b->bar;
	u64 c0;

	if (!READ_ONCE(g->pending))
		return;
	c0 = b->timed ? tsc_begin() : 0;
	rxb_hw_doorbells(b->hw, NULL, NULL);
	if (b->timed)
		side_add(b, tsc_end() - c0, 1, 0);
}

struct nic_arg {
	struct bench *b;
	unsigned int id;
};

/*
 * NIC thread @id of b->nnic, in the NIC's context: its share of the
 * frames, on the queues q with q % nnic == id (the queues of the CPUs its
 * frames arrive on), each after the doorbells posted since.  Timed
 * (b->timed): every rx that delivers its frame; the calls that drop it
 * (back-pressure, retried) are not NIC work per packet and are only
 * counted.  The doorbell services and timers are timed apart.
 */
static void *nic_fn(void *arg)
{
	const struct nic_arg *na = arg;
	struct bench *b = na->b;
	u8 frame[BUF_SIZE] = { 0 };
	u64 i, x = 0x9e3779b97f4a7c15ULL * (na->id + 1), retries = 0;
	u64 frames = b->frames / b->nnic + (na->id < b->frames % b->nnic);
	unsigned int nq = (b->nq - na->id + b->nnic - 1) / b->nnic;
	struct rxb_frame f = { .data = frame, .len = b->len,
			       .hash_flags = RXB_CQE_F_L4_HASH };

	u64 t0 = now_ns();

	pin(b, na->id);
	rxb_nic_ctx_enter();
	for (i = 0; i < frames; i++) {
		unsigned int q;

		/* -E: the offered load */
		while (b->pace_ns && now_ns() - t0 < i * b->pace_ns)
			cpu_relax();

		/* xorshift: the flow hash; RSS takes the queue from it */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		f.hash = (u32)x;
		q = na->id + (x >> 32) % nq * b->nnic;
		for (;;) {
			u64 c0;

			nic_doorbells(b);
			c0 = b->timed ? tsc_begin() : 0;
			if (!rxb_hwm_rx(b->hw, q, &f)) {
				if (b->timed)
					side_add(b, tsc_end() - c0, 1, 1);
				break;
			}
			/* the consumers lag: let them run if they share a CPU */
			if (!(++retries & 63))
				sched_yield();
			nic_timers(b);
			cpu_relax();
		}
		if (!(i & 3))
			nic_timers(b);
	}
	__atomic_add_fetch(&b->retries, retries, __ATOMIC_RELAXED);
	/* doorbells, held notifications, fetches and timers until everything
	 * is consumed
	 */
	while (__atomic_load_n(&b->consumed, __ATOMIC_ACQUIRE) < b->frames) {
		nic_doorbells(b);
		nic_timers(b);
		cpu_relax();
	}
	rxb_nic_ctx_exit();
	if (b->timed)
		side_flush(&b->nic);
	return NULL;
}

struct cons_arg {
	struct bench *b;
	int id;
};

/* Timed mode: sweeps with nothing pending before every queue is polled anyway. */
#define IDLE_SWEEPS	256

/*
 * A consumer thread: NAPI-like loops over its queues.  Timed (b->timed),
 * a queue is polled only when rx_pending() says its ring has a completion
 * (as NAPI runs on an interrupt), or after IDLE_SWEEPS empty sweeps (a
 * model whose poll has work without a completion); the poll (which
 * consumes, refills and rings the doorbell) and the frees of its packets'
 * buffers are one timed section.  The stack's read of each packet between
 * them is not driver work and is not timed.
 */
static void *cons_fn(void *arg)
{
	struct cons_arg *ca = arg;
	struct bench *b = ca->b;
	struct rxb_pkt pkts[BUDGET];
	u64 sink = 0;
	unsigned int q, idle = 0, sweeps = 0;
	int i, n, got;

	self_cons = ca->id;
	pin(b, b->nnic + ca->id);
	while (__atomic_load_n(&b->consumed, __ATOMIC_ACQUIRE) < b->frames) {
		bool force = !b->timed || ++sweeps >= IDLE_SWEEPS;

		got = 0;
		for (q = ca->id; q < b->nq; q += b->ncons) {
			u64 c0, d = 0;

			if (!force && !b->ops->rx_pending(b->m, q))
				continue;
			c0 = b->timed ? tsc_begin() : 0;
			n = rxb_model_poll(b->m, q, pkts, BUDGET);
			if (b->timed)
				d = tsc_end() - c0;
			for (i = 0; i < n; i++) {
				const u64 *dp = pkt_data(&pkts[i]);
				unsigned int w = b->touch_all ? pkts[i].len / 8 : 1;

				/* A fragment (batched RxList) is read in
				 * place, as rx.c adds it to an skb.
				 */
				while (w--)
					sink += dp[w];
				if (b->work_ns)
					work(b->work_ns);
			}
			c0 = b->timed ? tsc_begin() : 0;
			for (i = 0; i < n && !b->ops->stream; i++)
				pkt_drop(b, q, &pkts[i]);
			if (b->timed)
				side_add(b, d + tsc_end() - c0, 2, n);
			got += n;
		}
		if (got || force)
			sweeps = 0;
		if (got) {
			__atomic_add_fetch(&b->consumed, got, __ATOMIC_RELEASE);
			idle = 0;
		} else if (++idle > 64) {
			sched_yield();
		} else {
			cpu_relax();
		}
	}
	b->sink[ca->id] = sink;
	if (b->timed)
		side_flush(&b->drv);
	if (b->acct) {
		struct timespec ts;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		__atomic_add_fetch(&b->cons_ns, (u64)ts.tv_sec * 1000000000ULL +
				   ts.tv_nsec, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_calls, t_calls, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_cyc, t_cyc, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_cross, t_cross, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_xcyc, t_xcyc, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_remote, t_remote, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->a_frees, t_frees, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* How a model's rings are sized at equal posted buffers (fill_cfg()). */
enum sizing {
	SZ_PERQ,	/* a ring per queue: privring, dshring (its privRing set) */
	SZ_AX,		/* rxbisect: an Ax ring per queue, Bx rings */
	SZ_SHARED,	/* a ring per group of queues: shring*, corec */
};

static enum sizing model_sizing(const struct rxb_model_ops *ops)
{
	if (!strcmp(ops->name, "rxbisect"))
		return SZ_AX;
	if (!strncmp(ops->name, "shring", 6) || !strcmp(ops->name, "corec"))
		return SZ_SHARED;
	return SZ_PERQ;
}

static void fill_cfg(struct bench *b, struct rxb_model_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nqueues = b->nq;
	cfg->ring_size = b->ring;
	cfg->buf_len = BUF_SIZE;
	cfg->share_factor = b->nq;
	/* rxBisect as its paper's section 4.5 asks: k * |Ax| = |Bx| */
	cfg->ax_ring_size = b->ring / b->nq < 64 ? 64 : b->ring / b->nq;
	cfg->ax_policy = RXB_AX_RR;
	cfg->notif_compress = true;
	cfg->notif_timeout_ns = 50000;
	cfg->cache_bytes = 4 << 20;
	cfg->corec_irq_policy = RXB_COREC_IRQ_ALL;
	/* CEIO as the kernel's defaults: a 6 MiB budget, the paper's
	 * asynchronous fetch (ceio_fetch=async) from a 64 MiB tier; the
	 * "ceio sync" row: recv(), one fetch at a time.
	 */
	cfg->ceio_llc_budget = RXB_CEIO_BUDGET_DEF;
	cfg->ceio_fetch_async = !b->ceio_sync;
	cfg->nicmem_bytes = 64ULL << 20;
	if (!bench_nm.now_ns) {
		rxb_nicmem_init(&bench_nm, cfg->nicmem_bytes, 1000, env_now, b);
		rxb_nicmem_set_timer(&bench_nm, env_fetch_arm, b);
	}
	if (!b->posted)
		return;
	/*
	 * Equal posted buffers (b->posted) across models, every queue's
	 * share alike: privring b->posted / nq per ring; shared rings of
	 * b->group queues each hold the group's share; rxbisect's Ax rings
	 * hold a queue's share and its Bx rings as many entries (every
	 * completion ring as large as the buffer ring it reports on), or
	 * with b->bx_kax k * |Ax| (k = nq, every Ax ring associated) up to
	 * the largest ring, or -X's.
	 */
	cfg->share_factor = b->group;
	cfg->corec_consumers = b->group;
	cfg->ax_ring_size = b->posted / b->nq;
	switch (model_sizing(b->ops)) {
	case SZ_PERQ:
		cfg->ring_size = b->posted / b->nq;
		break;
	case SZ_AX:
		cfg->ring_size = b->posted / b->nq;
		if (b->bx_kax)
			cfg->ring_size = min_t(u64, b->posted, RXB_RING_MAX);
		if (b->bx)
			cfg->ring_size = b->bx;
		break;
	case SZ_SHARED:
		cfg->ring_size = b->posted / (b->nq / b->group);
		break;
	}
}

/*
 * Ensō at equal memory: the queue's pipes hold what its ring's buffers
 * would (ring entries x 2 KiB, split over the pipes, a power of two in
 * 4 KiB..2 MiB); its notification ring has the ring's entries, at least
 * one per pipe.
 */
static void fill_cfg_enso(const struct bench *b, struct rxb_model_cfg *cfg)
{
	unsigned int np = b->enso_pipes ? b->enso_pipes : 1;
	u64 bytes = (u64)cfg->ring_size * BUF_SIZE / np, size = RXB_ENSO_PIPE_MIN;

	while (size * 2 <= bytes && size < RXB_ENSO_PIPE_MAX)
		size *= 2;
	cfg->enso_pipes = np;
	cfg->enso_pipe_size = size;
	cfg->enso_chaotic = b->enso_chaotic;
	if (cfg->ring_size < np)
		cfg->ring_size = np;
}

/* One run's results. */
struct res {
	double ns;	/* wall-clock ns per packet */
	double cyc;	/* TSC cycles per packet, wall */
	double retr;	/* retried drops per packet */
	double drv;	/* timed: driver cycles per packet, over its threads */
	double nic;	/* timed: NIC cycles per packet */
	double excl;	/* timed: share of packets in excluded sections */
	double batch;	/* timed: packets per timed poll */
};

static double per_pkt(const struct side *s)
{
	return s->pkts ? (double)s->cyc / s->pkts : 0;
}

/*
 * -1: the NIC and consumer 0 on this thread, in turn: the NIC (in its
 * context) serves the doorbells and receives a burst of up to BUDGET
 * frames (a dropped frame ends the burst and is sent again after the
 * polls), serves the doorbells and its timers; then every queue with a
 * completion is polled as cons_fn() does.
 */
static void run_one_thread(struct bench *b)
{
	u8 frame[BUF_SIZE] = { 0 };
	struct rxb_frame f = { .data = frame, .len = b->len,
			       .hash_flags = RXB_CQE_F_L4_HASH };
	struct rxb_pkt pkts[BUDGET];
	u64 sent = 0, x = 0x9e3779b97f4a7c15ULL, sink = 0, c0, d;
	bool again = false, force = false;
	unsigned int q, j, got;
	int i, n;

	self_cons = 0;
	pin(b, 0);
	while (b->consumed < b->frames) {
		rxb_nic_ctx_enter();
		for (j = 0; j < BUDGET && sent < b->frames; j++) {
			/* the flow hash, as nic_fn(); a dropped frame again */
			if (!again) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				f.hash = (u32)x;
			}
			q = (x >> 32) % b->nq;
			nic_doorbells(b);
			c0 = tsc_begin();
			again = rxb_hwm_rx(b->hw, q, &f) != 0;
			if (again) {
				b->retries++;
				break;
			}
			side_add(b, tsc_end() - c0, 1, 1);
			sent++;
		}
		nic_doorbells(b);
		nic_timers(b);
		rxb_nic_ctx_exit();
		side_flush(&b->nic);
		got = 0;
		for (q = 0; q < b->nq; q++) {
			/* nothing delivered last time: poll every queue */
			if (!force && !b->ops->rx_pending(b->m, q))
				continue;
			c0 = tsc_begin();
			n = rxb_model_poll(b->m, q, pkts, BUDGET);
			d = tsc_end() - c0;
			for (i = 0; i < n; i++)
				sink += *pkt_data(&pkts[i]);
			c0 = tsc_begin();
			for (i = 0; i < n && !b->ops->stream; i++)
				pkt_drop(b, q, &pkts[i]);
			side_add(b, d + tsc_end() - c0, 2, n);
			got += n;
		}
		side_flush(&b->drv);
		b->consumed += got;
		force = !got && again;
	}
	b->sink[0] = sink;
	self_cons = -1;
}

/* The model's notifications so far: its counters named rx<N>_notifs. */
static u64 count_notifs(struct rxb_model *m)
{
	unsigned int n = m->ops->xstats_count ? m->ops->xstats_count(m) : 0, i;
	char *names = calloc(n + 1, RXB_STAT_NAME_LEN);
	u64 *vals = calloc(n + 1, sizeof(*vals)), sum = 0;

	if (!names || !vals)
		abort();
	if (n) {
		m->ops->xstats_names(m, names);
		m->ops->xstats_values(m, vals);
	}
	for (i = 0; i < n; i++) {
		const char *nm = names + i * RXB_STAT_NAME_LEN;
		size_t l = strlen(nm);

		if (l > 7 && !strcmp(nm + l - 7, "_notifs"))
			sum += vals[i];
	}
	free(names);
	free(vals);
	return sum;
}

/* One run into @out; false: cannot run. */
static bool run_once(struct bench *b, struct res *out)
{
	struct rxb_model_cfg cfg;
	struct cons_arg ca[MAX_CONS];
	struct nic_arg na[MAX_NIC];
	pthread_t nic[MAX_NIC], cons[MAX_CONS];
	long bad = rxb_pair_ctx_violations();
	unsigned int per, q, i, k = 0;
	const char *msg = "";
	u64 t0, t1, c0, c1;
	bool ok = false;
	size_t need;
	int err;

	fill_cfg(b, &cfg);
	if (!strcmp(b->ops->name, "enso"))
		fill_cfg_enso(b, &cfg);
	if (rxb_model_validate(b->ops, &cfg, &msg)) {
		fprintf(stderr, "%s: %s\n", b->ops->name, msg);
		return false;
	}
	per = b->ops->bufs_per_queue ? b->ops->bufs_per_queue(&cfg) : cfg.ring_size;
	/* headroom: packets in flight between poll and put */
	per += 2 * BUDGET + CACHE_MAX;
	b->nbufs = per * b->nq;
	/*
	 * The buffer memory is allocated and written once, for the largest
	 * run, so that no run takes page faults; only the buffers a model
	 * posts and recycles are touched by it.
	 */
	need = (size_t)b->nbufs * BUF_SIZE;
	if (need > b->mem_cap) {
		free(b->mem);
		b->mem = aligned_alloc(4096, need);
		if (!b->mem)
			abort();
		memset(b->mem, 0, need);
		b->mem_cap = need;
	}
	b->bufs = calloc(b->nbufs, sizeof(*b->bufs));
	if (!b->bufs)
		abort();
	for (q = 0; q < b->nq; q++) {
		struct pool *p = &b->pools[q];

		p->ncache = 0;
		p->cap = b->nbufs;
		p->shared = malloc(sizeof(*p->shared) * p->cap);
		if (!p->shared)
			abort();
		pthread_spin_init(&p->lock, PTHREAD_PROCESS_PRIVATE);
		p->nshared = 0;
		for (i = 0; i < per; i++, k++) {
			b->bufs[k].data = b->mem + (size_t)k * BUF_SIZE;
			b->bufs[k].pool = q;
			p->shared[p->nshared++] = &b->bufs[k];
		}
		p->owner = q % b->ncons;
	}
	b->timer_due = 0;
	b->fetch_due = 0;
	b->a_calls = 0;
	b->a_cyc = 0;
	b->a_cross = 0;
	b->a_xcyc = 0;
	b->a_remote = 0;
	b->a_frees = 0;
	b->cons_ns = 0;
	b->consumed = 0;
	b->retries = 0;
	memset(&b->drv, 0, sizeof(b->drv));
	memset(&b->nic, 0, sizeof(b->nic));
	/* Once per run, off the timed path: the queues whose pool others
	 * share, as rx.c decides at create (RXB_MAX_MODEL_QUEUES is 64).
	 */
	b->shared_pools = 0;
	for (i = 0; i < cfg.nqueues; i++)
		if (rxb_pool_users(b->ops, &cfg, i) > 1)
			b->shared_pools |= BIT_ULL(i);
	err = rxb_models_create(b->ops, &cfg,
				b->pcie ? &bench_drv_ops_pc : &bench_drv_ops, b,
				b->pcie ? &bench_hw_ops_pc : &bench_hw_ops, b,
				&b->m, &b->hw, &b->bar);
	if (err) {
		fprintf(stderr, "%s: create failed (%d)\n", b->ops->name, err);
		goto out;
	}

	t0 = now_ns();
	c0 = rdtsc();
	if (b->one) {
		run_one_thread(b);
		goto done;
	}
	for (i = 0; i < b->ncons; i++) {
		ca[i].b = b;
		ca[i].id = i;
		if (pthread_create(&cons[i], NULL, cons_fn, &ca[i]))
			abort();
	}
	for (i = 0; i < b->nnic; i++) {
		na[i].b = b;
		na[i].id = i;
		if (pthread_create(&nic[i], NULL, nic_fn, &na[i]))
			abort();
	}
	for (i = 0; i < b->nnic; i++)
		pthread_join(nic[i], NULL);
	for (i = 0; i < b->ncons; i++)
		pthread_join(cons[i], NULL);
done:
	c1 = rdtsc();
	t1 = now_ns();
	b->notifs = count_notifs(b->m);
	/* Everything was consumed: no fetch is in flight. */
	rxb_nicmem_fetch_abort(&bench_nm);
	rxb_models_destroy(b->m, b->hw, b->bar);
	ok = rxb_pair_ctx_violations() == bad;
	if (!ok)
		fprintf(stderr, "%s: the NIC ran outside its context\n",
			b->ops->name);
out:
	for (q = 0; q < b->nq; q++) {
		pthread_spin_destroy(&b->pools[q].lock);
		free(b->pools[q].shared);
	}
	free(b->bufs);
	if (!ok)
		return false;
	out->ns = (double)(t1 - t0) / b->frames;
	out->cyc = (double)(c1 - c0) / b->frames;
	out->retr = (double)b->retries / b->frames;
	out->drv = per_pkt(&b->drv);
	out->nic = per_pkt(&b->nic);
	out->excl = (double)(b->drv.x_pkts + b->nic.x_pkts) / (2 * b->frames);
	out->batch = b->drv.sect ? (double)b->drv.pkts / b->drv.sect : 0;
	return true;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return v[n / 2];
}

/* -A: the cycles an empty fenced pair of TSC reads measures (median). */
static u64 tsc_pair_cost(void)
{
	double d[15];
	int i, j;

	for (i = 0; i < 15; i++) {
		u64 min = ~0ULL;

		for (j = 0; j < 1000; j++) {
			u64 c0 = tsc_begin();
			u64 c1 = tsc_end();

			if (c1 - c0 < min)
				min = c1 - c0;
		}
		d[i] = min;
	}
	return median(d, 15);
}

/* TSC ticks per ns, against CLOCK_MONOTONIC over 200 ms. */
static double tsc_ghz(void)
{
	u64 t0, c0, t1;

	if (!HAVE_TSC)
		return 0;
	t0 = now_ns();
	c0 = rdtsc();
	do
		t1 = now_ns();
	while (t1 - t0 < 200000000ULL);
	return (double)(rdtsc() - c0) / (t1 - t0);
}

/* "32768K", "32 MiB", "1.5M"...: bytes; 0 if not a size. */
static unsigned long parse_size(const char *str)
{
	double v;
	char *end;

	v = strtod(str, &end);
	if (end == str || !(v > 0) || v > 1e15)
		return 0;
	while (*end == ' ')
		end++;
	switch (*end) {
	case 'G':
		v *= 1 << 30;
		break;
	case 'M':
		v *= 1 << 20;
		break;
	case 'K':
	case 'k':
		v *= 1 << 10;
		break;
	}
	return v;
}

/*
 * The last-level cache of CPU 0: sysfs index3 (index2 if there is no L3),
 * else lscpu's "L3 cache:" line, else 32 MiB.  *@src says which.
 */
static unsigned long llc_bytes(const char **src)
{
	unsigned long v = 0;
	char line[256];
	FILE *f;
	int i;

	for (i = 3; i >= 2 && !v; i--) {
		snprintf(line, sizeof(line),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(line, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f))
			v = parse_size(line);
		fclose(f);
		*src = i == 3 ? "sysfs index3" : "sysfs index2 (no L3)";
	}
	f = v ? NULL : popen("lscpu 2>/dev/null", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "L3 cache:", 9)) {
			v = parse_size(line + 9);
			*src = "lscpu";
		}
	if (f)
		pclose(f);
	if (!v)
		*src = "unknown, assumed";
	return v ? v : 32UL << 20;
}

/*
 * The physical limit: 1500-byte frames copied from one array of @ws bytes
 * into another, in order, one thread, after a pass that warms the caches:
 * with @ws within the LLC the copy runs from the cache, with @ws well
 * beyond it from DRAM.  No NIC path that copies each frame once can beat
 * the rate of the working set it has.
 */
static void memcpy_bound(unsigned long ws, const char *what, int reps)
{
	const unsigned int len = 1500, stride = 2048;
	u64 nfr = ws / stride, passes, i, p, t0, c0;
	double ns[BENCH_MAX_REPS], cyc[BENCH_MAX_REPS];
	u8 *src, *dst;
	int r;

	passes = (256UL << 20) / ws ?: 1;
	src = aligned_alloc(4096, ws);
	dst = aligned_alloc(4096, ws);
	if (!src || !dst)
		abort();
	memset(src, 1, ws);
	memset(dst, 2, ws);
	for (r = -1; r < reps; r++) {
		t0 = now_ns();
		c0 = rdtsc();
		for (p = 0; p < passes; p++)
			for (i = 0; i < nfr; i++)
				memcpy(dst + i * stride, src + i * stride, len);
		if (r < 0)
			continue;	/* warm-up */
		cyc[r] = (double)(rdtsc() - c0) / (nfr * passes);
		ns[r] = (double)(now_ns() - t0) / (nfr * passes);
	}
	ns[0] = median(ns, reps);
	cyc[0] = median(cyc, reps);
	printf("| memcpy 1500 B, 2 x %.1f MiB, %s | %.2f | %.1f | %.0f | %.1f GB/s |\n",
	       ws / 1048576.0, what, 1000.0 / ns[0], ns[0], cyc[0], len / ns[0]);
	fflush(stdout);
	free(src);
	free(dst);
}

/*
 * -A: one row from the last of the runs (the counters are of one run;
 * the runs before it warm the caches).  privring's cycles per call are
 * the reference for the rows after it.
 */
static void print_acct(struct bench *b, const char *name, unsigned int li,
		       double ghz)
{
	static double pr_cpc[2];
	double calls = b->a_calls ? b->a_calls : 1;
	double frees = b->a_frees ? b->a_frees : 1;
	double cpc = b->a_cyc / calls;
	double cons_cyc = b->cons_ns * ghz;
	char extra[16] = "-";

	if (!strcmp(name, "privring"))
		pr_cpc[li] = cpc;
	if (pr_cpc[li])
		snprintf(extra, sizeof(extra), "%+.1f", cpc - pr_cpc[li]);
	printf("| %s | %u B | %.2f | %.1f | %s | %.1f %% | %.1f %% | %.2f %% | %.2f %% |\n",
	       name, b->len, b->a_calls / (double)b->frames, cpc, extra,
	       100.0 * b->a_cross / frees, 100.0 * b->a_remote / frees,
	       cons_cyc ? 100.0 * b->a_cyc / cons_cyc : 0.0,
	       cons_cyc ? 100.0 * b->a_xcyc / cons_cyc : 0.0);
	fflush(stdout);
}

static void print_help(void)
{
	fprintf(stderr, "bench_models [-q queues] [-c consumers | -1] [-n frames] [-R reps]\n"
		"             [-m model,...] [-T] [-g group] [-b buffers] [-B buffers]\n"
		"             [-X bx_entries]\n"
		"bench_models -A | -S | -P [-q queues] [-c consumers] [-r ring] [-n frames]\n"
		"             [-R reps] [-m model,...] [-T]\n"
		"bench_models -E [-r ring] [-n frames] [-R reps] [-w slow_consumer_ns] [-T]\n");
}

/* @name is one of the comma-separated names in @only (NULL: all). */
static bool selected(const char *name, const char *only)
{
	size_t l = strlen(name);
	const char *p;

	if (!only)
		return true;
	p = strstr(only, name);
	/* whole names in a comma-separated list */
	while (p && ((p != only && p[-1] != ',') || (p[l] && p[l] != ',')))
		p = strstr(p + 1, name);
	return p;
}

/* "median [min-max]" of @v[0..n) (sorts @v), into @buf. */
static const char *spread(char *buf, size_t len, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	snprintf(buf, len, "%.2f [%.2f-%.2f]", v[n / 2], v[0], v[n - 1]);
	return buf;
}

#define MAX_MODELS	16

/* A row of a table: a model and its variant (fill_cfg()). */
struct row {
	const struct rxb_model_ops *ops;
	bool kax;		/* rxbisect: Bx rings of k * |Ax| */
	bool sync;		/* ceio: ceio_fetch=sync */
	const char *name;
};

/* The selected models into @rows, in registration order; @extra: the
 * default mode's variants too: rxbisect with Bx rings of k * |Ax| (with
 * @kax: not with -X), ceio with the synchronous fetch.  *@pr: privring's
 * index, or -1.  Returns their number.
 */
static unsigned int list_models(const char *only, bool extra, bool kax,
				struct row *rows, int *pr)
{
	const struct rxb_model_ops *ops;
	unsigned int nm = 0, mi;

	*pr = -1;
	for (mi = 0; nm < MAX_MODELS && (ops = rxb_model_get(mi)); mi++) {
		if (!selected(ops->name, only))
			continue;
		if (!strcmp(ops->name, "privring"))
			*pr = nm;
		rows[nm++] = (struct row){ ops, false, false, ops->name };
		if (!extra || nm == MAX_MODELS)
			continue;
		if (kax && model_sizing(ops) == SZ_AX)
			rows[nm++] = (struct row){ ops, true, false,
						   "rxbisect k*Ax" };
		else if (!strcmp(ops->name, "ceio"))
			rows[nm++] = (struct row){ ops, false, true,
						   "ceio sync" };
	}
	return nm;
}

/*
 * -S: the NIC's scaling.  Every model with 1 and with 2 NIC threads (the
 * queues split between them), @reps rounds; each round runs every model
 * once in each mode, the modes in alternating order (1,2 then 2,1), so
 * that drift in the machine's load falls on every cell alike.  Per model:
 * Mpps with 1 and 2 NIC threads, the scaling (2-thread rate / 1-thread
 * rate, of the same round) and that scaling over privring's in the same
 * round; each as median [min-max] over the rounds.  "noise": the spread of
 * the ratio to privring includes 1.
 */

/* A row of the interconnect table: model, size, data, then the others. */
#define PCIE_ROW_FMT \
	"| %s | %u B | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f %% | %.2f %% |\n"

/*
 * -P: bytes across the emulated PCIe per packet, each model at 64 B and
 * 1500 B, from one run each (the counts do not depend on timing beyond the
 * batching a run happens to see: notification compression, lazy doorbells).
 * "metadata" is everything but packet data: completions and notifications
 * written, descriptors read, doorbells written, registers or NIC memory
 * the driver read (MMIO reads: CEIO's slow_tail).
 */
static void run_pcie(struct bench *b, const char *only)
{
	const unsigned int lens[] = { 64, 1500 };
	unsigned int mi, li;

	printf("\n| model | frame | %s | %s | %s | %s | %s | %s | %s |\n",
	       "data B/pkt", "meta written B/pkt", "desc read B/pkt",
	       "doorbell B/pkt", "MMIO read B/pkt",
	       "metadata share of NIC->host", "metadata share of all bytes");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (mi = 0; (b->ops = rxb_model_get(mi)); mi++) {
		if (!selected(b->ops->name, only))
			continue;
		for (li = 0; li < ARRAY_SIZE(lens); li++) {
			struct res o;
			double n, d, mw, dr, db, rd;

			b->len = lens[li];
			pc_data = 0;
			pc_meta = 0;
			pc_desc = 0;
			pc_mmio = 0;
			pc_mmio_rd = 0;
			if (!run_once(b, &o)) {
				printf("| %s | %u B | - | - | - | - | - | - | cannot run |\n",
				       b->ops->name, b->len);
				continue;
			}
			n = b->frames;
			d = pc_data / n;
			mw = pc_meta / n;
			dr = pc_desc / n;
			db = pc_mmio / n;
			rd = pc_mmio_rd / n;
			printf(PCIE_ROW_FMT, b->ops->name, b->len, d, mw, dr, db, rd,
			       100 * mw / (d + mw),
			       100 * (mw + dr + db + rd) / (d + mw + dr + db + rd));
		}
	}
}

/*
 * -E: Ensō's microbenchmark rows (its paper's sections 7.2-7.3), one
 * queue, one NIC thread, one consumer thread, rings of -r entries (Ensō:
 * pipes of the same bytes, fill_cfg_enso()), each cell the median of -R
 * runs of its row (default 3), each rate's ratio to privring's of this
 * invocation:
 *  - one consumer at 64 B: privring, Ensō, Chaotic Ensō (section 7.2.3:
 *    gaps between frames, computed from their position);
 *  - pipes per core: 1, 2, 32, 64 pipes on the one queue, frames spread
 *    over them by their hash (Figure 13's pessimal case: consecutive
 *    frames on different pipes);
 *  - notifications per packet against the offered load (the NIC paced),
 *    with a fast consumer and a slow one (-w ns of work per packet):
 *    reactive notifications come fewer per packet as the consumer lags.
 */
struct enso_row {
	const char *model;
	unsigned int pipes;
	bool chaotic;
	double offered;		/* Mpps; 0: unpaced */
	u64 work_ns;
};

static void print_enso_row(struct bench *b, const struct enso_row *r,
			   double *ref, int reps)
{
	double mpps[BENCH_MAX_REPS], drv[BENCH_MAX_REPS], nt[BENCH_MAX_REPS], bat[BENCH_MAX_REPS];
	char what[64], vs[32] = "1", nic[32] = "max";
	u64 frames = b->frames;
	struct res o;
	int k;

	b->ops = rxb_model_find(r->model);
	b->enso_pipes = r->pipes;
	b->enso_chaotic = r->chaotic;
	b->pace_ns = r->offered ? 1000 / r->offered : 0;
	b->work_ns = r->work_ns;
	/* a paced run lasts about 0.3 s */
	if (r->offered && b->frames > r->offered * 300000)
		b->frames = r->offered * 300000 > 20000 ? r->offered * 300000 : 20000;
	if (!strcmp(r->model, "enso"))
		snprintf(what, sizeof(what), "enso, %u pipe%s%s", r->pipes,
			 r->pipes > 1 ? "s" : "", r->chaotic ? ", chaotic" : "");
	else
		snprintf(what, sizeof(what), "%s", r->model);
	for (k = 0; k < reps; k++) {
		if (!b->ops || !run_once(b, &o)) {
			printf("| %s | %u B | - | - | - | - | - | - | cannot run |\n",
			       what, b->len);
			b->frames = frames;
			return;
		}
		mpps[k] = 1000.0 / o.ns;
		drv[k] = o.drv;
		nt[k] = (double)b->notifs / b->frames;
		bat[k] = o.batch;
	}
	if (r->offered) {
		snprintf(nic, sizeof(nic), "%.1f Mpps", r->offered);
		strcpy(vs, "-");	/* the offered load's, not the model's */
	} else if (!*ref) {
		*ref = median(mpps, reps);
	} else {
		snprintf(vs, sizeof(vs), "%.2f", median(mpps, reps) / *ref);
	}
	printf("| %s | %u B | %s | %llu ns | %.2f | %s | %.0f | %.3f | %.1f |\n",
	       what, b->len, nic, (unsigned long long)r->work_ns,
	       median(mpps, reps), vs, median(drv, reps), median(nt, reps),
	       median(bat, reps));
	fflush(stdout);
	b->frames = frames;
}

static void run_enso(struct bench *b, u64 slow_ns, int reps)
{
	static const struct enso_row rows[] = {
		{ "privring", 1, false, 0, 0 },
		{ "enso", 1, false, 0, 0 },
		{ "enso", 1, true, 0, 0 },
		{ NULL, 0, false, 0, 0 },	/* pipes per core */
		{ "enso", 1, false, 0, 0 },
		{ "enso", 2, false, 0, 0 },
		{ "enso", 32, false, 0, 0 },
		{ "enso", 64, false, 0, 0 },
		{ "enso", 2, true, 0, 0 },
	};
	const double loads[] = { 0.1, 0.5, 2, 0 };
	unsigned int i, w;
	double ref = 0;
	struct res o;

	b->nq = 1;
	b->ncons = 1;
	b->nnic = 1;
	b->timed = true;
	b->len = 64;
	b->nopin = sysconf(_SC_NPROCESSORS_ONLN) < 2;
	printf("\n| configuration | frame | NIC | consumer work/pkt | Mpps | %s | %s | %s | %s |\n",
	       "vs privring", "driver cycles/pkt", "notifications/pkt", "pkts/poll");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	/* a run not printed: the first pays for warming the caches */
	b->ops = rxb_model_find("privring");
	b->enso_pipes = 1;
	run_once(b, &o);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		if (rows[i].model)
			print_enso_row(b, &rows[i], &ref, reps);
		else
			printf("| pipes per core | | | | | | | | |\n");
	}
	printf("| offered load (NIC paced), fast and slow consumer | | | | | | | | |\n");
	for (w = 0; w < 2; w++)
		for (i = 0; i < ARRAY_SIZE(loads); i++) {
			struct enso_row r = { "enso", 1, false, loads[i],
					      w ? slow_ns : 0 };

			print_enso_row(b, &r, &ref, reps);
		}
}

static void run_scaling(struct bench *b, const char *only, int reps)
{
	static double mpps[MAX_MODELS][MAX_NIC][BENCH_MAX_REPS];
	struct row rows[MAX_MODELS];
	const unsigned int lens[] = { 64, 1500 };
	bool ok[MAX_MODELS];
	unsigned int nm, mi, li, k;
	int r, pr;

	nm = list_models(only, false, false, rows, &pr);
	printf("\n| model | frame | Mpps, 1 NIC thread | Mpps, 2 NIC threads | %s | %s |\n",
	       "scaling (2/1)", "scaling / privring's");
	printf("|---|---|---|---|---|---|\n");
	for (li = 0; li < ARRAY_SIZE(lens); li++) {
		b->len = lens[li];
		for (mi = 0; mi < nm; mi++)
			ok[mi] = true;
		for (r = 0; r < reps; r++)
			for (mi = 0; mi < nm; mi++)
				for (k = 0; k < MAX_NIC && ok[mi]; k++) {
					unsigned int t = r & 1 ? MAX_NIC - 1 - k : k;
					struct res o;

					b->ops = rows[mi].ops;
					b->nnic = t + 1;
					ok[mi] = run_once(b, &o);
					if (ok[mi])
						mpps[mi][t][r] = 1000.0 / o.ns;
				}
		for (mi = 0; mi < nm; mi++) {
			double v1[BENCH_MAX_REPS], v2[BENCH_MAX_REPS];
			double sc[BENCH_MAX_REPS], rel[BENCH_MAX_REPS];
			char c1[48], c2[48], c3[48], c4[64] = "-";

			if (!ok[mi]) {
				printf("| %s | %u B | - | - | - | cannot run |\n",
				       rows[mi].name, b->len);
				continue;
			}
			for (r = 0; r < reps; r++) {
				v1[r] = mpps[mi][0][r];
				v2[r] = mpps[mi][1][r];
				sc[r] = v2[r] / v1[r];
				if (pr >= 0 && ok[pr])
					rel[r] = sc[r] / (mpps[pr][1][r] / mpps[pr][0][r]);
			}
			if (pr >= 0 && ok[pr]) {
				spread(c4, sizeof(c4) - 8, rel, reps);
				if (rel[0] <= 1.0 && rel[reps - 1] >= 1.0 &&
				    (int)mi != pr)
					strcat(c4, " noise");
			}
			printf("| %s | %u B | %s | %s | %s | %s |\n", rows[mi].name,
			       b->len, spread(c1, sizeof(c1), v1, reps),
			       spread(c2, sizeof(c2), v2, reps),
			       spread(c3, sizeof(c3), sc, reps), c4);
			fflush(stdout);
		}
	}
}

/* median, min and max of @v[0..n) (left unsorted) */
/* "median [min-max]" of @v[0..n), @prec decimals, into @buf. */
static const char *cell(char *buf, size_t len, const double *v, int n,
			int prec)
{
	double med, min, max;

	stats(v, n, &med, &min, &max);
	snprintf(buf, len, "%.*f [%.*f-%.*f]", prec, med, prec, min, prec, max);
	return buf;
}

/*
 * The default mode: for each of the two buffer sizes (@posted, buffers
 * resident in the LLC and far beyond it) and each frame size, @reps
 * rounds, each running every model once in turn (ABAB...), so that drift
 * in the host's load falls on every model alike.  Per model: driver-side
 * and NIC-side cycles per packet, the driver side's ratio to privring's,
 * the pipeline's rate, each as median [min-max] over the rounds.  The
 * ratio is median / privring's median, with the range min / privring's
 * max to max / privring's min; "~" (within noise) when that range
 * includes 1.
 */
static void run_grid(struct bench *b, const char *only, int reps,
		     const u64 *posted, unsigned long llc)
{
	static struct res o[MAX_MODELS][BENCH_MAX_REPS];
	struct row rows[MAX_MODELS];
	const unsigned int lens[] = { 64, 1500 };
	bool ok[MAX_MODELS];
	unsigned int nm, mi, li, si;
	int r, pr;

	nm = list_models(only, true, !b->bx, rows, &pr);
	printf("\n| model | buffers | frame | %s | %s | %s | %s | %s | %s |\n",
	       "driver cycles/pkt", "driver vs privring", "NIC cycles/pkt",
	       "Mpps", "pkts/poll", "excluded");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (si = 0; si < 2; si++) {
		u64 bytes = posted[si] * BUF_SIZE;
		char where[64];

		if (bytes <= llc)
			snprintf(where, sizeof(where), "%llu, %.1f MiB, in LLC",
				 (unsigned long long)posted[si], bytes / 1048576.0);
		else
			snprintf(where, sizeof(where), "%llu, %.0f MiB, %.1fx LLC",
				 (unsigned long long)posted[si], bytes / 1048576.0,
				 (double)bytes / llc);
		b->posted = posted[si];
		for (li = 0; li < ARRAY_SIZE(lens); li++) {
			double pdrv[BENCH_MAX_REPS];
			bool have_p;

			b->len = lens[li];
			for (mi = 0; mi < nm; mi++)
				ok[mi] = true;
			for (r = 0; r < reps; r++)
				for (mi = 0; mi < nm; mi++) {
					b->ops = rows[mi].ops;
					b->bx_kax = rows[mi].kax;
					b->ceio_sync = rows[mi].sync;
					if (ok[mi])
						ok[mi] = run_once(b, &o[mi][r]);
					b->bx_kax = false;
					b->ceio_sync = false;
				}
			have_p = pr >= 0 && ok[pr];
			for (r = 0; have_p && r < reps; r++)
				pdrv[r] = o[pr][r].drv;
			for (mi = 0; mi < nm; mi++) {
				double drv[BENCH_MAX_REPS], nic[BENCH_MAX_REPS];
				double mpps[BENCH_MAX_REPS], bat[BENCH_MAX_REPS];
				double excl = 0;
				char c1[48], c2[48] = "-", c3[48], c4[48], c5[48];

				if (!ok[mi]) {
					printf("| %s | %s | %u B | %s | cannot run |\n",
					       rows[mi].name, where, b->len,
					       "- | - | - | - | -");
					continue;
				}
				for (r = 0; r < reps; r++) {
					drv[r] = o[mi][r].drv;
					nic[r] = o[mi][r].nic;
					mpps[r] = 1000.0 / o[mi][r].ns;
					bat[r] = o[mi][r].batch;
					if (o[mi][r].excl > excl)
						excl = o[mi][r].excl;
				}
				if ((int)mi == pr)
					snprintf(c2, sizeof(c2), "1");
				else if (have_p)
					ratio(c2, sizeof(c2), drv, pdrv, reps);
				printf("| %s | %s | %u B | %s | %s | %s | %s | %s | %.2f %% |\n",
				       rows[mi].name, where, b->len,
				       cell(c1, sizeof(c1), drv, reps, 0), c2,
				       cell(c3, sizeof(c3), nic, reps, 0),
				       cell(c4, sizeof(c4), mpps, reps, 2),
				       cell(c5, sizeof(c5), bat, reps, 1),
				       100.0 * excl);
				fflush(stdout);
			}
		}
	}
}

/* The default mode's header: ring sizes, what is timed, the ratio's ~. */
static const char grid_legend[] =
"#   B posted, Q = %u queues, G = %u: privring Q rings of B/Q; dshring the\n"
"#   same (its privRing set, active: no controller runs; its shRing set,\n"
"#   Q/G rings of B/Q, stays idle); rxbisect Q Ax rings of B/Q, Bx rings\n"
"#   of B/Q (\"rxbisect k*Ax\": of min(B, %u), k * |Ax| with k = Q);\n"
"#   shring, shring-list, shring-batched Q/G shared rings of B*G/Q; corec\n"
"#   Q/G shared queues of B*G/Q, G consumers each; enso a pipe of B/Q\n"
"#   2-KiB buffers' bytes per queue, notification rings of B/Q; ceio Q\n"
"#   fast rings of B/Q, a 6 MiB budget, its slow path in a 64 MiB on-NIC\n"
"#   tier, fetched asynchronously (1 us; \"ceio sync\": one at a time)\n"
"# driver: TSC around poll (doorbell writes included) + the frees of its\n"
"#   buffers, per consumer thread, over the packets it delivered; NIC:\n"
"#   around each delivering rx, each doorbell service with doorbells\n"
"#   pending, each timer and fetch-engine run; ratio ~: its range\n"
"#   (min/privring's max .. max/privring's min) includes 1\n";

/* Posted buffers @v of the default mode: NULL if the rings can hold them. */
static const char *check_posted(const struct bench *b, u64 v)
{
	if (!pow2(v))
		return "posted buffers (-b, -B) must be a power of two";
	if (v / b->nq < RXB_RING_MIN)
		return "posted buffers (-b, -B) below 64 per queue (the smallest ring)";
	if (v / (b->nq / b->group) > RXB_RING_MAX)
		return "posted buffers (-b, -B) above 8192 per shared ring (the largest ring)";
	return NULL;
}

/* Every name of the comma-separated list @only is a model's. */
static void check_models(const char *only)
{
	char buf[256], *save = NULL, *t;

	if (strlen(only) >= sizeof(buf) || !*only)
		bad("-m: expected a comma-separated list of model names");
	strcpy(buf, only);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!rxb_model_find(t)) {
			fprintf(stderr, "bench_models: -m: no model '%s'\n", t);
			exit(2);
		}
}

int main(int argc, char **argv)
{
	static struct bench b;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *only = NULL, *llc_src = "", *msg;
	bool scale = false, q_set = false, r_set = false, c_set = false;
	bool enso = false;
	u64 slow_ns = 500;
	const unsigned int lens[] = { 64, 1500 };
	double ghz;
	u64 posted[2] = { 0, 0 };
	unsigned long llc;
	unsigned int mi, li;
	int opt, reps = 0, r;

	b.nq = 4;
	b.ring = 1024;
	b.frames = 1000000;
	b.ncons = ncpu > 1 ? ncpu - 1 : 1;
	b.nnic = 1;
	while ((opt = getopt(argc, argv, ":q:c:r:n:R:m:g:b:B:X:w:TASPE1h")) != -1) {
		switch (opt) {
		case 'q':
			b.nq = num_arg(opt, optarg, 1, MAX_Q);
			q_set = true;
			break;
		case 'c':
			b.ncons = num_arg(opt, optarg, 1, MAX_CONS);
			c_set = true;
			break;
		case 'r':
			b.ring = num_arg(opt, optarg, RXB_RING_MIN, RXB_RING_MAX);
			if (!pow2(b.ring))
				bad("-r: the ring size must be a power of two");
			r_set = true;
			break;
		case 'n':
			b.frames = num_arg(opt, optarg, 1000, 10000000000ULL);
			break;
		case 'R':
			reps = num_arg(opt, optarg, 1, BENCH_MAX_REPS);
			break;
		case 'm':
			check_models(optarg);
			only = optarg;
			break;
		case 'g':
			b.group = num_arg(opt, optarg, 1, MAX_Q);
			break;
		case 'b':
		case 'B':
			posted[opt == 'B'] = num_arg(opt, optarg, 1, 1ULL << 24);
			break;
		case 'T':
			b.touch_all = true;
			break;
		case 'A':
			b.acct = true;
			break;
		case 'S':
			scale = true;
			break;
		case '1':
			b.one = true;
			break;
		case 'X':
			b.bx = num_arg(opt, optarg, RXB_RING_MIN, RXB_RING_MAX);
			if (!pow2(b.bx))
				bad("-X: the Bx ring size must be a power of two");
			break;
		case 'P':
			b.pcie = true;
			break;
		case 'E':
			enso = true;
			break;
		case 'w':
			slow_ns = num_arg(opt, optarg, 1, 1000000);
			break;
		case 'h':
			print_help();
			return 0;
		case ':':
			fprintf(stderr, "bench_models: -%c needs an argument\n", optopt);
			return 2;
		default:
			fprintf(stderr, "bench_models: unknown option -%c\n", optopt);
			print_help();
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench_models: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (scale + b.acct + b.pcie + enso > 1)
		bad("-A, -S, -P and -E are separate modes");
	if (b.one && (scale || b.acct || b.pcie || enso))
		bad("-1 runs the default mode on one thread, not -A, -S, -P or -E");
	if (b.one && c_set)
		bad("-1 has one consumer, on the NIC's thread (no -c)");
	if (b.one)
		b.ncons = 1;
	b.timed = !scale && !b.acct && !b.pcie && !enso;
	if (!b.timed && (b.group || posted[0] || posted[1] || b.bx))
		bad("-g, -b, -B and -X size the default mode, not -A, -S or -P (use -r)");
	if (b.timed && r_set)
		bad("-r sizes -A and -S; the default mode sizes its rings from -b and -B");
	if (scale && b.nq < MAX_NIC)
		bad("-S needs at least 2 queues");
	if (!reps)
		reps = b.acct || enso ? 3 : 5;
	llc = llc_bytes(&llc_src);
	if (b.timed) {
		if (!q_set)
			b.nq = 32;
		if (!b.group)
			b.group = b.nq < 4 ? b.nq : 4;
		if (!pow2(b.nq) || !pow2(b.group) || b.group > b.nq)
			bad("-q and -g must be powers of two, -g at most -q");
		if (b.ncons > b.nq)
			b.ncons = b.nq;
		/*
		 * resident: an eighth of the LLC (room to spare: on the
		 * 32 MiB host of results.rst the NIC's and the driver's
		 * cycles jumped between 4 and 8 MiB); far: 4 times the LLC
		 */
		if (!posted[0]) {
			posted[0] = (u64)b.nq * RXB_RING_MIN;
			while (posted[0] * 2 * BUF_SIZE <= llc / 8)
				posted[0] *= 2;
		}
		if (!posted[1]) {
			posted[1] = posted[0];
			while (posted[1] * BUF_SIZE < 4 * (u64)llc &&
			       !check_posted(&b, posted[1] * 2))
				posted[1] *= 2;
		}
		msg = check_posted(&b, posted[0]) ?: check_posted(&b, posted[1]);
		if (msg)
			bad(msg);
		if (posted[0] >= posted[1])
			bad("-b (buffers within the LLC) must be below -B (beyond it)");
		b.nopin = b.nnic + b.ncons > ncpu;
	}
	/* after the default mode's queue count */
	if (b.ncons > b.nq)
		b.ncons = b.nq;
	/* -S: the same placement with 1 and 2 NIC threads */
	if (scale)
		b.nopin = MAX_NIC + b.ncons > ncpu;
	if (b.acct && !HAVE_TSC) {
		fprintf(stderr, "-A needs a TSC\n");
		return 2;
	}

	ghz = tsc_ghz();
	if (b.one)
		printf("# bench_models: %u queues, share groups of %u, -1: NIC and %s,\n",
		       b.nq, b.group, "consumer alternating on one thread");
	else if (b.timed)
		printf("# bench_models: %u queues, share groups of %u, 1 NIC thread + %u %s,\n",
		       b.nq, b.group, b.ncons, "consumer thread(s)");
	else
		printf("# bench_models: %u queues, ring %u, %s NIC thread%s + %u %s,\n",
		       b.nq, b.ring, scale ? "1 or 2" : "1", scale ? "s" : "", b.ncons,
		       "consumer thread(s)");
	printf("# %ld CPUs;", ncpu);
	printf(" %llu frames per run, median of %d %s; consumers read %s;\n",
	       (unsigned long long)b.frames, reps, scale || b.timed ? "rounds" : "runs",
	       b.touch_all ? "the whole packet" : "the first cache line");
	if (ghz)
		printf("# TSC %.3f GHz (calibrated against CLOCK_MONOTONIC over 200 ms)\n", ghz);
	else
		printf("# no TSC on this architecture: cycles not measured\n");
	if (enso) {
		printf("# -E: Ensō's rows, 1 queue (%u-entry rings, pipes of as many bytes),\n",
		       b.ring);
		printf("# 1 NIC + 1 consumer thread; slow consumer %llu ns/pkt; each cell the\n",
		       (unsigned long long)slow_ns);
		printf("# median of %d runs of its row, ratios to privring's median of this run\n",
		       reps);
		run_enso(&b, slow_ns, reps);
		free(b.mem);
		return 0;
	}
	if (b.pcie) {
		pc_ops_init();
		printf("# -P: interconnect bytes per packet (as ethtool -S pcie_*), %s\n",
		       "one run per cell");
		run_pcie(&b, only);
		free(b.mem);
		return 0;
	}
	if (scale) {
		printf("# -S: NIC threads split the queues (thread t: q %% 2 == t); %s;\n",
		       b.nopin ? "more threads than CPUs, none pinned" :
		       "threads pinned, NIC threads first");
		printf("# %d rounds, models interleaved; median [min-max] over the rounds\n",
		       reps);
		run_scaling(&b, only, reps);
		return 0;
	}
	if (b.timed) {
		b.tsc_cost = HAVE_TSC ? tsc_pair_cost() : 0;
		printf("# LLC %lu MiB (%s); every model posts the same buffers (2 KiB each):\n",
		       llc >> 20, llc_src);
		printf("#   %llu (%llu MiB, within the LLC) and %llu (%llu MiB, %.1fx the LLC)%s\n",
		       (unsigned long long)posted[0],
		       (unsigned long long)(posted[0] * BUF_SIZE) >> 20,
		       (unsigned long long)posted[1],
		       (unsigned long long)(posted[1] * BUF_SIZE) >> 20,
		       (double)posted[1] * BUF_SIZE / llc,
		       posted[1] * BUF_SIZE < 2 * (u64)llc ?
		       " -- NOT far beyond it: the largest rings (-q, -g) cannot hold more" : "");
		printf(grid_legend, b.nq, b.group, RXB_RING_MAX);
		if (b.bx)
			printf("# -X: rxbisect's Bx rings of %u entries at both sizes\n", b.bx);
		if (b.one)
			printf("# -1: bursts of up to %u frames, then every queue with a %s\n%s\n",
			       BUDGET, "completion polled, on one pinned",
			       "#   thread: no ring line moves between cores");
		else
			printf("# consumer q %% %u: thread; %s\n", b.ncons,
			       b.nopin ? "more threads than CPUs, none pinned" :
			       "threads pinned, NIC thread first");
		printf("# %llu cycles per fenced TSC pair subtracted; sections over %llu cycles\n",
		       (unsigned long long)b.tsc_cost, SECT_MAX);
		printf("# (preempted) excluded with their packets (\"excluded\", worst round);\n");
		printf("# %d rounds, models interleaved; median [min-max] over the rounds\n",
		       reps);
		run_grid(&b, only, reps, posted, llc);
		printf("\nThe physical limit (one core copying each frame once):\n\n");
		printf("| copy | Mpps | ns/pkt | cycles/pkt | bandwidth |\n");
		printf("|---|---|---|---|---|\n");
		memcpy_bound(posted[0] * BUF_SIZE, "cache-resident", reps < 3 ? reps : 3);
		memcpy_bound(posted[1] * BUF_SIZE < 4 * (u64)llc ?
			     4 * (u64)llc : posted[1] * BUF_SIZE, "DRAM",
			     reps < 3 ? reps : 3);
		free(b.mem);
		return 0;
	}
	b.tsc_cost = tsc_pair_cost();
	printf("# -A: allocator calls timed, %llu cycles per TSC read pair subtracted\n",
	       (unsigned long long)b.tsc_cost);
	printf("\n| model | frame | %s | %s | %s | %s | %s | %s | %s |\n",
	       "allocator calls/pkt", "cycles/call", "extra cycles/call vs privring",
	       "frees to another queue's pool", "frees under the pool lock",
	       "allocator share of consumer CPU",
	       "of it, frees to another queue's pool");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	/* Every registered model, privring (the reference) first. */
	for (mi = 0; (b.ops = rxb_model_get(mi)); mi++) {
		const char *name = b.ops->name;

		if (!selected(name, only))
			continue;
		for (li = 0; li < ARRAY_SIZE(lens); li++) {
			struct res o;

			b.len = lens[li];
			for (r = 0; r < reps; r++)
				if (!run_once(&b, &o))
					break;
			if (r < reps) {
				printf("| %s | %u B | - | - | - | - | - | cannot run |\n",
				       name, b.len);
				continue;
			}
			print_acct(&b, name, li, ghz);
		}
	}
	free(b.mem);
	return 0;
}
