// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect-sim engine: the NIC, the host (cores, buffer pools, LLC) and
 * the environment (struct rxb_drv_ops, struct rxb_hw_ops) a ring model's
 * two halves run in (models.c creates and enters them).
 *
 * Per packet: the port's arrival process picks a flow, RSS picks the
 * queue, the model's NIC half (its rx, in the NIC's context) takes a
 * buffer and calls dma_write, which
 * writes the packet's lines into the LLC model at the buffer's address.
 * A core polls its queue when an interrupt (raise_irq) finds it idle, or
 * again after a batch; it processes each packet for base cycles plus the
 * latency of its memory accesses, then the NIC DMA-reads it (Tx) and the
 * buffer is freed to its pool.  Nothing here knows how a model works.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include <rxbisect/rxb_nicmem.h>
#include <rxbisect/rxb_wss.h>
#include <shim.h>

#include "llc.h"
#include "pool.h"
#include "sim.h"
#include "traffic.h"

#define PS_PER_NS	1000ULL
#define BUF_BASE	BIT_ULL(40)	/* bus addresses of receive buffers */
#define APP_BASE	BIT_ULL(44)	/* the application's data */
#define PP_REFILL	64		/* page_pool: buffers per ring refill */
#define MEM_TICK_PS	(1000 * PS_PER_NS)
#define MEM_TAU_PS	(10000 * PS_PER_NS)
#define MAX_BUFS	BIT(24)
#define MAX_SLOTS	BIT(26)		/* multi_pkt_bufs: packet slots, 512 MiB */
/*
 * PCIe (Documentation/simulator.rst, "Memory and PCIe"): TLP framing,
 * sequence number, LCRC and a 4-DW header per TLP; 256 B maximum payload,
 * 512 B maximum read request.  Descriptors are fetched PCIE_DESC_BATCH per
 * read when posted (--desc-prefetch 0), or by the NIC's descriptor cache
 * (desc_take()).  Every DMA read the NIC issues holds one of its
 * --pcie-reads read tags until its completion is back (dma_read()).
 *
 * DRAM is a token bucket: --mem-burst-ns of traffic at --mem-gbs pass at
 * once (the controllers' and the IIO's queues); beyond that backlog, cores
 * wait for their reads, the NIC's DMA writes stall and its reads wait
 * behind them.  Below saturation the measured loaded-latency curve alone
 * models queueing (mem_tick()).
 */
#define PCIE_TLP_OH	24
#define PCIE_MPS	256
#define PCIE_MRRS	512
#define PCIE_DESC_BATCH	8
#define PCIE_DB_BYTES	4
#define PCIE_NOTIF_EVERY 32	/* packets between reads of notif_* xstats */
#define SIM_DESC_READS_MAX 32	/* --desc-reads */

enum { CORE_IDLE, CORE_WAKING, CORE_BUSY };
/* Events of the model code a core pays for (sync_note()). */
enum { SC_XFER, SC_RMW, SC_LOCK, SC_FENCE, SC_ALLOC, SC_DB, SC_WAIT, SC_BUFX, SC_NR };
/* BUF_FILLED: the NIC wrote a packet into it, no core has processed it. */
enum { BUF_FREE, BUF_POSTED, BUF_FILLED, BUF_HELD };
/*
 * The on-NIC memory tier: a frame in the tier holds a struct tier_rec, and
 * the tier's fetch engine (nic_mem.c, run in the NIC's context by
 * fetch_event() once the fetch latency has passed) copies it into a
 * landing pad (the bytes of the host buffer, env_dma_ptr()), read at
 * delivery.  Nobody waits on the tier's clock.
 */
#define TIER_MAGIC	0x7ce10f7cU
/*
 * The header/data split (--nicmem-split, nic_hds.c): the DMA engine's
 * decision for a frame; frames above SPLIT_MAX_LEN (a page of NIC memory)
 * are written whole.  A nicmem command (FETCH, TX, FREE) is a 32 B entry
 * of the queue's command ring the NIC reads after a doorbell.
 */
enum { HD_NONE, HD_SPLIT, HD_FALLBACK, HD_WHOLE };
#define SPLIT_MAX_LEN	4096
/* The L2 streamer follows a stream within a 4 KiB page, 20 lines ahead. */
#define PAGE_4K		4096
#define STREAM_AHEAD	20
#define NMC_DESC_BYTES	32

/*
 * A receive buffer.  References as the driver's page_pool pages count
 * them (drivers/net/rxbisect/rx.c): the model's, from alloc_buf until
 * free_buf or until it hands the buffer up whole (the packet takes it
 * over), and one per packet handed up in it as a fragment (ref_buf);
 * the buffer returns to its pool when the last one goes (buf_put()).
 * Models with multi_pkt_bufs keep each packet's arrival time in
 * sim.slot_t, by offset; the others in @t_arr and @len.
 */
struct sbuf {
	u64 t_arr;		/* arrival time of the packet in it (ps) */
	u64 ring_addr;		/* streaming models: the packet is read from
				 * here (a pipe), the buffer is its copy (skb)
				 */
	u32 land;		/* landing pad of a tier fetch + 1, 0: none */
	u16 split_pay;		/* payload bytes in NIC memory, 0: none */
	u16 pool;
	u16 len;
	u16 refs;		/* references: the model's, the packets' */
	u16 pend;		/* multi_pkt_bufs: packets written, not processed */
	u16 up;			/* packets handed up, not processed */
	u8 state;
	bool model;		/* the model holds a reference */
};

/* What the NIC keeps of a frame it writes into its memory tier. */
struct tier_rec {
	u64 t_arr;
	u32 len;
	u32 magic;
};

struct sim;

/*
 * The NIC's descriptor cache of one ring (--desc-prefetch): descriptors
 * read and not yet taken, and the reads in flight (up to --desc-reads), in
 * ring order, each landing no sooner than the one before it.
 */
struct dcache {
	u32 cached;
	u32 nfly, fly_head, fly_desc;
	u32 fly_n[SIM_DESC_READS_MAX];
	u64 fly_land[SIM_DESC_READS_MAX];
};

/*
 * The Tx path of one queue (--tx): the packets its core processed and
 * handed to the NIC, oldest first: [head, iss) have had every read
 * request issued, [iss, tail) wait; the NIC reads only from the first
 * --tx-ring of them (its Tx ring), the rest wait in the NF's queue.
 */
struct txent {
	u64 t_arr;
	u64 addr;		/* where the NIC reads it from */
	u32 buf;
	u32 len;
	u16 core;
	u16 reqs, fly;		/* read requests, those in flight */
	u32 wlen;		/* frame bytes on the wire */
	u8 touched;		/* lines the core read (in its L2) */
};

struct txq {
	struct txent *e;
	u32 mask, head, iss, tail;
	u16 req_next;		/* requests of e[iss] issued */
	u16 unread;		/* Tx descriptors posted, not yet read */
};

/* A Tx read request in flight: it completes at @t. */
struct txcomp {
	u64 t;
	u32 idx;
	u16 q;
	u16 n;			/* packets from e[idx] its request covers */
};

/* A packet in the NIC's receive buffer, waiting for its DMA. */
struct npkt {
	struct tr_pkt pkt;
};

struct sport {
	struct sim *s;
	unsigned int idx;
	/* PCIe: when the links are next free (ps) */
	u64 up_free, down_free;
	u64 up_bytes, down_bytes;
	u64 meta_down;			/* of down_bytes: descriptors, notifications */
	/* the read tags: a min-heap of the times each is free again */
	u64 *tag;
	unsigned int ntags;
	double rd_lat_sum;		/* Tx read requests: latency sum (ps) */
	u64 rd_n;
	double rd_wait_sum;		/* DMA reads: waits for a tag (ps) */
	u64 rd_wait_n;
	/* the Tx engine (--tx): a queue per core, the requests in flight */
	struct txq txq[RXB_MAX_MODEL_QUEUES];
	struct txcomp *comp;		/* min-heap by @t */
	u32 ncomp;
	unsigned int tx_rr;
	u64 egress_free;
	double tx_occ_sum;
	/* --nic-mpps: when the DMA engine may start its next frame */
	u64 nic_next;
	/* the on-NIC receive buffer, a FIFO in front of the DMA engine */
	struct npkt *nb;
	u32 nb_cap, nb_head, nb_tail;
	u64 nb_bytes;
	u64 nic_drop;
	/* --nicmem-split: the DMA engine's decision for the head frame */
	unsigned int hd_kind;		/* HD_*, HD_NONE: none pending */
	u32 hd_pay;
	u64 hd_tlp;			/* its data bytes charged on the link */
	/* notification-only completions: the model's notif_* xstats */
	u64 *xs_val;
	u16 *xs_ent, *xs_comp;	/* indices of notif_entries, _compressed */
	unsigned int xs_n, n_ent, n_comp, xs_tick;
	u64 ent_seen, comp_seen;
	/*
	 * --desc-prefetch: the cache per queue the model reads descriptors
	 * for (RXB_PCIE_DESC_RD in the NIC half's rx), a list ring's ringG_out_of_order
	 * xstats (the last value of each), when each list ring's last read
	 * at a new place lands, when each of the --dma-engines engines is
	 * free of a frame waiting for its descriptor, and when the next
	 * frame may start (the earliest of those).
	 */
	struct dcache dc[RXB_MAX_MODEL_QUEUES];
	u8 stream[RXB_MAX_MODEL_QUEUES];	/* queue -> its ring's cache */
	unsigned int desc_acc;		/* --desc-prefetch 0: posted, unread */
	u16 *xs_ooo;
	u64 *ooo_seen;
	unsigned int n_ooo;
	u64 ring_land[RXB_MAX_MODEL_QUEUES];
	u64 eng_free[RXB_MAX_MODEL_QUEUES];
	unsigned int neng;
	u64 dma_hold;
	/*
	 * --wb-batch: completions held per queue, frames per queue in the
	 * NIC's buffer, and the write-backs (measured) and completions
	 * owed and written (whole run).
	 */
	u8 wb_pend[RXB_MAX_MODEL_QUEUES];
	u32 nb_q[RXB_MAX_MODEL_QUEUES];
	u64 cqe_writes, cqe_owed, cqe_done;
	bool in_rx;			/* in the NIC half's rx: a descriptor read is a take */
	u64 desc_reads, desc_misses, desc_waits;	/* measured */
	double desc_wait_ps;
	const struct rxb_model_ops *ops;
	struct rxb_model *m;
	u64 pool_shared;		/* bit q: q's pool is shared (rx.c) */
	struct traffic tr;
	bool timer_pending;
	struct rxb_qstats *snap;	/* qstats at the end of warm-up */
	/* the model's two halves (models.c); @m is @in.m, the driver's */
	struct sim_inst in;
};

struct score {
	unsigned int idx, port, q;
	int state;
	int n, i;			/* packets of the batch, current one */
	bool first;			/* next packet is the batch's first */
	bool started;			/* batch[i] is being processed */
	bool tx_wait;			/* batch[i] processed, its Tx path full */
	bool idling;			/* going idle once its last cost is paid */
	bool irq_missed;		/* an interrupt came while it was idling */
	bool refill_retry;		/* idle with a ring short of buffers */
	bool parked;			/* ... waiting for a buffer to come back */
	u64 fail_frees;			/* sim.frees when its refill failed */
	u64 tx_wait_at;
	u64 tx_block_ps;
	u64 busy_ps;
	u64 sync_ps;			/* model-code cost not yet charged */
	u64 stall_ps;			/* waited on the tier, not yet charged */
	u64 cost_ps;			/* model-code cost charged so far */
	u64 sc[SC_NR];
	struct u32_stack cache;		/* LIFO level of its pool */
	u64 last_line;			/* its last packet line read */
	struct rxb_pkt batch[SIM_MAX_BUDGET];
};

/* Coherence state of one cache line of model state the cores touched. */
struct sline {
	u64 tag;			/* line number + 1, 0: empty slot */
	u64 sharers;			/* cores holding a copy */
	u64 busy;			/* its last transfer ends (ps) */
	int owner;			/* last core that wrote it, -1: none */
};

struct held {
	u64 when;
	u32 buf;
	u16 core;
};

/* Log-linear latency histogram: 64 sub-buckets per power of two (ns). */
#define HIST_SUB	64
#define HIST_N		(HIST_SUB * 48)

struct sim {
	struct sim_cfg c;
	u64 now;
	unsigned int qpp;		/* queues per port */
	unsigned int nent;
	u64 *key;			/* per entity: next event time, ~0: none */
	unsigned int *heap, *pos, nheap;
	struct sport port[SIM_MAX_PORTS];
	struct score core[SIM_MAX_CORES];
	struct sim_pool *pool;
	unsigned int npools;
	struct sbuf *buf;
	u32 nbuf, capbuf;
	struct held *held;		/* FIFO: constant hold, monotone times */
	u32 held_cap, held_head, held_tail;
	struct llc llc;
	struct rxb_wss wss;
	u64 rng;
	u64 app_lines;
	double ps_per_cycle;
	/* memory load */
	u64 mem_t, mem_lines;
	double mem_bw, dram_ps, mem_u;
	u64 mem_free, mem_seen;		/* DRAM queue: next free (ps), lines */
	double line_ps;			/* DRAM time of one line at --mem-gbs */
	u64 burst_ps;			/* --mem-burst-ns */
	double up_ps_per_byte, rd_ps, nic_gap_ps;
	bool pcie;
	bool stalled;			/* --start-stall: cores wait */
	u64 frees;			/* buffers given back to a pool */
	unsigned int nparked;		/* cores parked in core_idle() */
	/* measurement */
	bool measuring;
	u64 arrived, t0;
	struct llc_stats llc0;
	u64 pkt_cpu, pkt_cpu_hit, app_cpu, app_cpu_hit;
	u64 hist[HIST_N];
	u64 lat_n;
	double lat_sum;
	double occ_sum[SIM_MAX_CORES];
	u64 occ_n[SIM_MAX_PORTS];
	double wss_sum, wss_peak;
	u64 wss_n;
	u64 qarr[SIM_MAX_CORES], qdel[SIM_MAX_CORES];
	u64 arr_bytes, del_bytes;
	u64 busy0[SIM_MAX_CORES];
	u64 pool_fails0, cross0;
	u64 nic_drop, up0, down0, meta0, tx_block0[SIM_MAX_CORES];
	u64 tx_drop, copy_drop, run_delivered, run_txdrop, run_copydrop;
	u64 events;
	/* the on-NIC memory tier, shared by the ports, and the landing pads */
	struct rxb_nicmem nm;
	u64 mmio_reads;			/* the driver halves' MMIO reads, measured */
	double mmio_ps;			/* core time they took, measured */
	u8 **land;
	u32 nland, land_cap, *land_free, nland_free;
	u64 tier_pkts;
	/* buffers in BUF_FILLED (multi_pkt_bufs: packets): host-resident */
	u64 resident;
	/*
	 * --nicmem-split: the module's counters (measured), and the working
	 * set in bytes: the bytes DMA-written into the distinct buffers of
	 * the last --wss-window writes (wss.c's bytes, sampled).
	 */
	u64 nm_host, nm_nic, nm_fetch, nm_split, nm_whole, nm_fallback;
	u64 nm_fetches;
	double nm_fetch_ps;
	double wb_sum, wb_peak;
	/*
	 * Models with several packets per buffer (ops->multi_pkt_bufs): the
	 * arrival time of the packet at each RXB_MCQE_ALIGN slot of each
	 * buffer (spb slots a buffer), and the working set in buffers
	 * beside the one in slots (wss).
	 */
	bool multi;
	u32 spb;
	u64 *slot_t;
	struct rxb_wss wss_buf;
	double wss_buf_sum, wss_buf_peak;
	/* buffer reference errors (buf_err()): must stay 0 */
	u64 buf_errs;
	bool teardown;			/* the models free what they hold */
	double res_sum, res_peak;
	/* the model code's cost: the shim's sink, the core running it */
	struct rxb_shim_sink sink;
	int agent;			/* core in model code, -1: NIC, setup */
	struct sline *lines;
	u32 lines_cap, lines_n;
	double atomic_ps, xfer_ps, fence_ps, alloc_ps, db_ps;
	u64 sc0[SC_NR], cost0;
};

static inline u64 rnd(struct sim *s)
{
	return rxb_sim_mix64(s->rng++);
}

/* ---- event heap ---------------------------------------------------- */

static bool ent_before(const struct sim *s, unsigned int a, unsigned int b)
{
	return s->key[a] < s->key[b] || (s->key[a] == s->key[b] && a < b);
}

static void heap_swap(struct sim *s, unsigned int i, unsigned int j)
{
	unsigned int t = s->heap[i];

	s->heap[i] = s->heap[j];
	s->heap[j] = t;
	s->pos[s->heap[i]] = i;
	s->pos[s->heap[j]] = j;
}

static void heap_fix(struct sim *s, unsigned int i)
{
	while (i && ent_before(s, s->heap[i], s->heap[(i - 1) / 2])) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->nheap && ent_before(s, s->heap[l], s->heap[m]))
			m = l;
		if (r < s->nheap && ent_before(s, s->heap[r], s->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

/* Schedule entity @e at @t (replacing its pending event), ~0: cancel. */
static void ev_set(struct sim *s, unsigned int e, u64 t)
{
	unsigned int i = s->pos[e];

	if (t == UINT64_MAX) {
		if (i == UINT32_MAX)
			return;
		s->key[e] = t;
		heap_swap(s, i, --s->nheap);
		s->pos[e] = UINT32_MAX;
		if (i < s->nheap)
			heap_fix(s, i);
		return;
	}
	s->key[e] = t;
	if (i == UINT32_MAX) {
		i = s->nheap++;
		s->heap[i] = e;
		s->pos[e] = i;
	}
	heap_fix(s, i);
}

static unsigned int ent_arrival(const struct sim *s, unsigned int p)
{
	(void)s;
	return p;
}

static unsigned int ent_timer(const struct sim *s, unsigned int p)
{
	return s->c.ports + p;
}

/* The driver's periodic control task of port @p (ops->ctl_tick). */
static unsigned int ent_ctl(const struct sim *s, unsigned int p)
{
	return 2 * s->c.ports + p;
}

/* The DMA engine of port @p (with --pcie-gbps). */
static unsigned int ent_dma(const struct sim *s, unsigned int p)
{
	return 3 * s->c.ports + p;
}

/* The Tx engine of port @p (with --tx and --pcie-gbps). */
static unsigned int ent_tx(const struct sim *s, unsigned int p)
{
	return 4 * s->c.ports + p;
}

/* The NIC's doorbell service of port @p (after a kick). */
static unsigned int ent_db(const struct sim *s, unsigned int p)
{
	return 5 * s->c.ports + p;
}

/* The fetch engine of the on-NIC memory tier (one, shared by the ports). */
static unsigned int ent_fetch(const struct sim *s)
{
	return 6 * s->c.ports;
}

static unsigned int ent_core(const struct sim *s, unsigned int c)
{
	return 6 * s->c.ports + 1 + c;
}

/* ---- buffers and pools --------------------------------------------- */

static inline u64 buf_addr(const struct sim *s, u32 b)
{
	if (s->buf[b].ring_addr)
		return s->buf[b].ring_addr;
	return BUF_BASE + (u64)b * s->c.buf_stride + s->c.headroom;
}

static inline void *buf_cookie(u32 b)
{
	return (void *)(uintptr_t)(b + 1);
}

static inline u32 cookie_buf(const void *cookie)
{
	return (u32)((uintptr_t)cookie - 1);
}

static int buf_new(struct sim *s, unsigned int pool, u32 *b)
{
	if (s->nbuf == MAX_BUFS ||
	    (s->multi && (u64)(s->nbuf + 1) * s->spb > MAX_SLOTS))
		return -ENOMEM;
	if (s->nbuf == s->capbuf) {
		u32 ncap = s->capbuf ? 2 * s->capbuf : 4096;
		struct sbuf *nb = realloc(s->buf, sizeof(*nb) * ncap);

		if (!nb)
			return -ENOMEM;
		s->buf = nb;
		if (s->multi) {
			u64 *nt = realloc(s->slot_t, sizeof(*nt) * min_t(u64,
					  (u64)ncap * s->spb, MAX_SLOTS));

			if (!nt)
				return -ENOMEM;
			s->slot_t = nt;
		}
		s->capbuf = ncap;
	}
	memset(&s->buf[s->nbuf], 0, sizeof(s->buf[0]));
	s->buf[s->nbuf].pool = pool;
	s->pool[pool].created++;
	s->pool[pool].new_bufs++;
	*b = s->nbuf++;
	return 0;
}

/* Pool of global queue @gq, and the core whose cache fronts it. */
static unsigned int pool_of_queue(const struct sim *s, unsigned int gq)
{
	return s->c.pool_mode == POOL_MEMPOOL ? gq / s->qpp : gq;
}

static bool pool_owned_by(const struct sim *s, unsigned int pool, unsigned int core)
{
	return pool_of_queue(s, core) == pool;
}

static int pool_alloc(struct sim *s, unsigned int core, u32 *b)
{
	unsigned int p = pool_of_queue(s, core);
	struct sim_pool *pl = &s->pool[p];
	struct u32_stack *c = &s->core[core].cache;
	u32 want, v;

	if (!c->n) {
		want = s->c.pool_mode == POOL_MEMPOOL ? s->c.pool_cache : PP_REFILL;
		while (c->n < want && fifo_pop(&pl->ring, &v))
			if (!stack_push(c, v))
				return -ENOMEM;
	}
	if (c->n) {
		*b = c->v[--c->n];
		return 0;
	}
	if (pl->limit && pl->created >= pl->limit) {
		pl->fails++;
		return -ENOMEM;
	}
	return buf_new(s, p, b);
}

/* Core @core is done with buffer @b: back to its pool. */
static void pool_free(struct sim *s, unsigned int core, u32 b)
{
	struct sbuf *sb = &s->buf[b];
	struct sim_pool *pl = &s->pool[sb->pool];
	struct u32_stack *c = &s->core[core].cache;
	u32 cap = s->c.pool_cache;

	sb->state = BUF_FREE;
	if (!pool_owned_by(s, sb->pool, core)) {
		pl->cross_frees++;
		fifo_push(&pl->ring, b);
		return;
	}
	if (s->c.pool_mode == POOL_PAGE_POOL) {
		/* page_pool's direct recycling into the alloc cache. */
		if (c->n < cap)
			stack_push(c, b);
		else
			fifo_push(&pl->ring, b);
		return;
	}
	stack_push(c, b);
	/* DPDK: past 1.5x the cache size, flush the excess to the ring. */
	if (c->n >= cap + cap / 2) {
		while (c->n > cap)
			fifo_push(&pl->ring, c->v[--c->n]);
	}
}

/* The payload of buffer @b leaves NIC memory (a nicmem command's release). */
static void split_release(struct sim *s, u32 b)
{
	struct sbuf *sb = &s->buf[b];

	if (!sb->split_pay)
		return;
	rxb_nicmem_unreserve(&s->nm, sb->split_pay);
	sb->split_pay = 0;
}

/*
 * A buffer reference error: the NIC wrote into a buffer the model holds
 * no reference on, the model freed one it did not hold, or a buffer
 * went back to its pool with a packet in it not processed.  Counted
 * (sim_res.buf_errs, test multi_pkt_bufs), the first one reported.
 */
static void buf_err(struct sim *s, u32 b, const char *what)
{
	if (s->teardown)
		return;
	if (!s->buf_errs++)
		fprintf(stderr, "rxbisect-sim: buffer %u: %s\n", b, what);
}

static void refill_unpark(struct sim *s);

/*
 * The last reference on buffer @b is gone: the checks, then as the
 * driver's pool takes a page back.  @core: the core that dropped it,
 * -1 for the model's free_buf (page_pool_put_full_page() without direct
 * recycling: the pool's ring).
 */
static void buf_release(struct sim *s, int core, u32 b)
{
	struct sbuf *sb = &s->buf[b];

	s->frees++;
	if (s->nparked)
		refill_unpark(s);

	if (sb->up)
		buf_err(s, b, "freed while a packet handed up in it is outstanding");
	if (s->multi && sb->pend) {
		buf_err(s, b, "freed with a packet written in it not processed");
		s->resident -= sb->pend;
		sb->pend = 0;
	}
	/* Freed unprocessed: the driver's FREE (the module's reclaim). */
	split_release(s, b);
	if (core >= 0) {
		pool_free(s, core, b);
		return;
	}
	sb->state = BUF_FREE;
	fifo_push(&s->pool[sb->pool].ring, b);
}

static void buf_meta(struct sim *s, int core, u32 b);

/* Drop one reference on buffer @b (see struct sbuf). */
static void buf_put(struct sim *s, int core, u32 b)
{
	struct sbuf *sb = &s->buf[b];

	if (!sb->refs) {
		buf_err(s, b, "reference dropped on a free buffer");
		return;
	}
	buf_meta(s, core, b);
	if (!--sb->refs)
		buf_release(s, core, b);
}

/* ---- DRAM queue and PCIe ----------------------------------------- */

/*
 * DRAM as one FIFO server of --mem-gbs: every line read or written since
 * the last call queues behind the others.  Returns the backlog (ps) a
 * request made now sees; past --mem-burst-ns, cores wait on their misses
 * and the NIC stalls.
 */
static u64 mem_charge(struct sim *s)
{
	u64 lines = s->llc.st.mem_rd + s->llc.st.mem_wr, n = lines - s->mem_seen;

	if (s->mem_free < s->now)
		s->mem_free = s->now;
	if (n) {
		s->mem_free += (u64)(n * s->line_ps);
		s->mem_seen = lines;
	}
	return s->mem_free - s->now;
}

/* The backlog beyond what the memory system absorbs: the wait (ps). */
static u64 mem_wait(struct sim *s)
{
	u64 q = mem_charge(s);

	return q > s->burst_ps ? q - s->burst_ps : 0;
}

/* Latency of a DRAM line read issued now, queueing included (ps). */
static double dram_lat(struct sim *s)
{
	return s->dram_ps + mem_wait(s);
}

/*
 * Latency of a DMA read request whose @n lines missed the LLC, from DRAM
 * (ps): its completion waits for the last of them (sim_mem_max_factor()),
 * plus the backlog beyond --mem-burst-ns.
 */
static double dram_lat_lines(struct sim *s, unsigned int n)
{
	return s->c.dram_ns * PS_PER_NS *
	       sim_mem_max_factor(s->mem_u, s->c.mem_load, n) + mem_wait(s);
}

/* Advance PCIe resource @free by @ps from now at the earliest. */
static inline void pcie_use(const struct sim *s, u64 *free, double ps)
{
	if (*free < s->now)
		*free = s->now;
	*free += (u64)ps;
}

/* Bytes on the link for @len bytes of payload in TLPs of at most @max. */
static inline u64 tlp_bytes(u64 len, unsigned int max)
{
	return len + (len + max - 1) / max * PCIE_TLP_OH;
}

/*
 * A DMA read the NIC wants to issue at @t (>= now): it takes the read tag
 * free soonest (the min-heap's root), is issued then and holds the tag
 * for @lat_ps.  Returns when its completion is back.  Reads that miss no
 * line still wait behind the posted writes the memory system holds back
 * (PCIe ordering: a read request does not pass a posted write).
 */
static u64 dma_read(struct sim *s, struct sport *p, u64 t, double lat_ps)
{
	u64 *h = p->tag, start, done;
	unsigned int i = 0, n = p->ntags;

	start = max_t(u64, t, h[0]);
	done = start + (u64)lat_ps;
	if (s->measuring) {
		p->rd_wait_sum += start - t;
		p->rd_wait_n++;
	}
	/* Replace the root, sift down. */
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;
		u64 v = m == i ? done : h[m];

		if (l < n && h[l] < v) {
			m = l;
			v = h[l];
		}
		if (r < n && h[r] < v)
			m = r;
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = done;
	return done;
}

/* Latency of a DMA read of lines that hit (descriptors, commands): ps. */
static double dma_rd_hit_ps(struct sim *s)
{
	return s->rd_ps + mem_wait(s);
}

/*
 * The NIC DMA-reads @n descriptors (posted buffers): one read request up
 * per batch, the completions down, a read tag for the latency.
 */
static void pcie_desc_fetch(struct sim *s, struct sport *p, unsigned int n)
{
	double ps = s->up_ps_per_byte;

	pcie_use(s, &p->up_free, (double)n * PCIE_TLP_OH / PCIE_DESC_BATCH * ps);
	p->up_bytes += n * PCIE_TLP_OH / PCIE_DESC_BATCH;
	pcie_use(s, &p->down_free,
		 (double)n * (sizeof(struct rxb_rx_desc) +
			      (double)PCIE_TLP_OH / PCIE_DESC_BATCH) * ps);
	p->down_bytes += n * (sizeof(struct rxb_rx_desc) + PCIE_TLP_OH / PCIE_DESC_BATCH);
	p->meta_down += n * (sizeof(struct rxb_rx_desc) + PCIE_TLP_OH / PCIE_DESC_BATCH);
	p->desc_acc += n;
	while (p->desc_acc >= PCIE_DESC_BATCH) {
		p->desc_acc -= PCIE_DESC_BATCH;
		dma_read(s, p, s->now, dma_rd_hit_ps(s));
	}
}

/*
 * The NIC's descriptor cache @d issues a read at @t: one read request up
 * of --desc-batch descriptors (no more than the cache has room for), their
 * completion down, a read tag; it lands once its tag is free and the read
 * is back (dma_read()), and no sooner than the read before it.
 */
static void desc_read(struct sim *s, struct sport *p, struct dcache *d, u64 t)
{
	u32 n = min_t(u32, s->c.desc_batch,
		      s->c.desc_cache - d->cached - d->fly_desc);
	u64 bytes = tlp_bytes((u64)n * sizeof(struct rxb_rx_desc), PCIE_MPS);
	u32 i = (d->fly_head + d->nfly) % SIM_DESC_READS_MAX;
	u64 land;

	pcie_use(s, &p->up_free, PCIE_TLP_OH * s->up_ps_per_byte);
	p->up_bytes += PCIE_TLP_OH;
	pcie_use(s, &p->down_free, bytes * s->up_ps_per_byte);
	p->down_bytes += bytes;
	p->meta_down += bytes;
	land = dma_read(s, p, t, dma_rd_hit_ps(s));
	if (d->nfly) {
		u32 prev = (i + SIM_DESC_READS_MAX - 1) % SIM_DESC_READS_MAX;

		land = max_t(u64, land, d->fly_land[prev]);
	}
	d->fly_n[i] = n;
	d->fly_land[i] = land;
	d->nfly++;
	d->fly_desc += n;
	p->desc_reads += s->measuring;
}

/* The oldest read in flight of @d landed: its descriptors are cached. */
static void desc_land(struct dcache *d)
{
	u32 n = d->fly_n[d->fly_head];

	d->cached += n;
	d->fly_desc -= n;
	d->fly_head = (d->fly_head + 1) % SIM_DESC_READS_MAX;
	d->nfly--;
}

/* Drop what @d holds and has in flight: reads for the wrong place. */
static void desc_flush(struct dcache *d)
{
	d->cached = 0;
	d->nfly = 0;
	d->fly_desc = 0;
}

/*
 * Did the take just made move a list ring's out_of_order counter?  The
 * ring's index among those counters, -1: no.
 */
static int desc_ooo(struct sport *p)
{
	unsigned int i;
	int ring = -1;

	p->ops->xstats_values(p->m, p->xs_val);
	for (i = 0; i < p->n_ooo; i++) {
		u64 v = p->xs_val[p->xs_ooo[i]];

		if (v != p->ooo_seen[i] && ring < 0)
			ring = i;
		p->ooo_seen[i] = v;
	}
	return ring;
}

/*
 * A frame waits until @t for its descriptor: it holds the engine that
 * took it, the one free earliest; the next frame starts once an engine
 * is free.  With one engine (--dma-engines 1) every wait holds the port.
 */
static void dma_engine_hold(struct sport *p, u64 t)
{
	unsigned int i, e = 0;
	u64 min;

	for (i = 1; i < p->neng; i++)
		if (p->eng_free[i] < p->eng_free[e])
			e = i;
	if (p->eng_free[e] < t)
		p->eng_free[e] = t;
	min = p->eng_free[0];
	for (i = 1; i < p->neng; i++)
		min = min_t(u64, min, p->eng_free[i]);
	p->dma_hold = min;
}

/*
 * The model took a descriptor for queue @qi (its RXB_PCIE_DESC_RD in
 * the NIC half's rx), from the ring models.c says the queue takes from (a shared ring
 * is one descriptor stream, whichever of its queues takes).  The NIC's
 * cache of the ring holds descriptors read ahead in array order; below
 * --desc-thresh (cached and in flight) it reads --desc-batch more at a
 * time, up to --desc-reads reads in flight, as far as the cache has room.
 * A take that finds the cache empty takes the next descriptor of the
 * oldest read in flight, or of one of its own, and waits for it to land;
 * takes of an array ring need not wait for each other (the addresses are
 * known: on demand, reads for several frames overlap).  A list ring's
 * take out of array order (the model's ringG_out_of_order moved) misses
 * whatever is cached or coming:
 * the NIC reads at the new place and waits.  A list ring's reads at a new
 * place follow each other (the next link is in the descriptor read last),
 * whichever queue takes.  The simulator runs the NIC half's rx once the frame has
 * crossed the link, so the wait holds a DMA engine before the next frame
 * (dma_engine_hold(); Documentation/simulator.rst, "Descriptor prefetch").
 */
static void desc_take(struct sim *s, struct sport *p, unsigned int qi)
{
	struct dcache *d = &p->dc[p->stream[qi % RXB_MAX_MODEL_QUEUES]];
	u64 t = s->now;
	int ring;

	while (d->nfly && d->fly_land[d->fly_head] <= t)
		desc_land(d);
	ring = p->n_ooo ? desc_ooo(p) : -1;
	if (ring >= 0) {
		u64 *rl = &p->ring_land[ring % RXB_MAX_MODEL_QUEUES];

		desc_flush(d);
		desc_read(s, p, d, max_t(u64, t, *rl));
		*rl = d->fly_land[d->fly_head];
		p->desc_misses += s->measuring;
	}
	if (d->cached) {
		d->cached--;
	} else {
		/* The next descriptor in ring order: the oldest read's. */
		if (!d->nfly)
			desc_read(s, p, d, t);
		t = max_t(u64, t, d->fly_land[d->fly_head]);
		d->fly_desc--;
		if (!--d->fly_n[d->fly_head]) {
			d->fly_head = (d->fly_head + 1) % SIM_DESC_READS_MAX;
			d->nfly--;
		}
	}
	if (d->cached + d->fly_desc < s->c.desc_thresh)
		while (d->nfly < s->c.desc_reads &&
		       d->cached + d->fly_desc + s->c.desc_batch <= s->c.desc_cache)
			desc_read(s, p, d, s->now);
	if (t == s->now)
		return;
	dma_engine_hold(p, t);
	if (s->measuring) {
		p->desc_waits++;
		p->desc_wait_ps += t - s->now;
	}
}

/*
 * Notification-only completion entries (a model that writes them counts
 * them in xstats named notif_entries, of which notif_compressed were held
 * and written together with a packet's entry): one rxb_bxe each, in a TLP
 * of its own unless compressed.
 */
static void pcie_notif(struct sim *s, struct sport *p)
{
	u64 ent = 0, comp = 0, de, dc, bytes;
	unsigned int i;

	p->ops->xstats_values(p->m, p->xs_val);
	for (i = 0; i < p->n_ent; i++)
		ent += p->xs_val[p->xs_ent[i]];
	for (i = 0; i < p->n_comp; i++)
		comp += p->xs_val[p->xs_comp[i]];
	de = ent - p->ent_seen;
	dc = comp - p->comp_seen;
	if (dc > de)
		dc = de;
	p->ent_seen = ent;
	p->comp_seen = comp;
	bytes = de * sizeof(struct rxb_bxe) + (de - dc) * PCIE_TLP_OH;
	if (bytes) {
		pcie_use(s, &p->up_free, bytes * s->up_ps_per_byte);
		p->up_bytes += bytes;
	}
}

/*
 * Find the model's notif_* xstats, and a list ring's out_of_order ones
 * (desc_take()), if it has any.
 */
static int notif_setup(struct sport *p)
{
	unsigned int n, i, q;
	char *names;
	int off;

	if (!p->ops->xstats_count || !p->ops->xstats_values)
		return 0;
	n = p->ops->xstats_count(p->m);
	if (!n || n > UINT16_MAX)
		return 0;
	names = calloc(n, RXB_STAT_NAME_LEN);
	p->xs_val = calloc(n, sizeof(*p->xs_val));
	p->xs_ent = calloc(n, sizeof(*p->xs_ent));
	p->xs_comp = calloc(n, sizeof(*p->xs_comp));
	p->xs_ooo = calloc(n, sizeof(*p->xs_ooo));
	p->ooo_seen = calloc(n, sizeof(*p->ooo_seen));
	if (!names || !p->xs_val || !p->xs_ent || !p->xs_comp || !p->xs_ooo ||
	    !p->ooo_seen) {
		free(names);
		return -ENOMEM;
	}
	p->ops->xstats_names(p->m, names);
	for (i = 0; i < n; i++) {
		const char *nm = names + i * RXB_STAT_NAME_LEN;

		off = 0;
		if (sscanf(nm, "rx%u_%n", &q, &off) == 1 && off)
			nm += off;
		off = 0;
		if (sscanf(nm, "ring%u_%n", &q, &off) == 1 && off &&
		    !strcmp(nm + off, "out_of_order"))
			p->xs_ooo[p->n_ooo++] = i;
		if (!strcmp(nm, "notif_entries"))
			p->xs_ent[p->n_ent++] = i;
		else if (!strcmp(nm, "notif_compressed"))
			p->xs_comp[p->n_comp++] = i;
	}
	free(names);
	p->xs_n = p->n_ent ? n : 0;
	return 0;
}

/* ---- the cost of the model code ------------------------------------ */

/*
 * The shims of the model cores' atomics, locks, READ_ONCE/WRITE_ONCE and
 * fences report here (tools/testing/rxbisect/shim/shim.h) while a core
 * runs model code (s->agent >= 0); the NIC's half and setup are free.
 * Each line of model state keeps the core that last wrote it and the cores
 * that read it since: an access that needs the line from another core's
 * cache (a read after another core's write, a write while others hold
 * it) costs --xfer-ns, a locked RMW --atomic-ns more, smp_mb()
 * --fence-ns.  Plain loads and stores are invisible.
 *
 * A line moves to one core at a time (--contention): a transfer starts
 * when the line's previous transfer has ended, at the core's own time in
 * its poll (now plus the model-code cost it has run up).  Cores that
 * touch one line together wait for each other's transfers, so a contended
 * access costs more the more cores contend, as measured for contended
 * atomics (David, Guerraoui, Trigonakis, SOSP 2013, section 4: the latency
 * of atomic operations on one line grows with the threads hammering it;
 * the rate at which a line can change owner is bounded by its transfer).
 */
static struct sline *sline_get(struct sim *s, u64 line)
{
	struct sline *l;
	u32 i;

	if (2 * (s->lines_n + 1) > s->lines_cap) {
		u32 ncap = s->lines_cap ? 2 * s->lines_cap : 4096, j;
		struct sline *nl = calloc(ncap, sizeof(*nl));

		if (!nl)
			abort();
		for (j = 0; j < s->lines_cap; j++) {
			if (!s->lines[j].tag)
				continue;
			i = rxb_sim_mix64(s->lines[j].tag) & (ncap - 1);
			while (nl[i].tag)
				i = (i + 1) & (ncap - 1);
			nl[i] = s->lines[j];
		}
		free(s->lines);
		s->lines = nl;
		s->lines_cap = ncap;
	}
	i = rxb_sim_mix64(line + 1) & (s->lines_cap - 1);
	for (l = &s->lines[i]; l->tag; l = &s->lines[i]) {
		if (l->tag == line + 1)
			return l;
		i = (i + 1) & (s->lines_cap - 1);
	}
	l->tag = line + 1;
	l->owner = -1;
	s->lines_n++;
	return l;
}

/*
 * Core @agent's access @ev to cache line @line; a transfer it needs is
 * counted in c->sc[@what].
 */
static void sync_access(struct sim *s, int agent, u64 line, enum rxb_shim_ev ev,
			unsigned int what)
{
	struct score *c = &s->core[agent];
	struct sline *l = sline_get(s, line);
	u64 me = BIT_ULL(agent);
	bool xfer;

	if (ev == RXB_SHIM_READ) {
		xfer = l->owner >= 0 && l->owner != agent && !(l->sharers & me);
		l->sharers |= me;
	} else {
		xfer = (l->owner >= 0 && l->owner != agent) ||
		       (l->sharers & ~me);
		l->owner = agent;
		l->sharers = me;
		if (ev != RXB_SHIM_WRITE) {
			c->sc[ev == RXB_SHIM_LOCK ? SC_LOCK : SC_RMW]++;
			c->sync_ps += s->atomic_ps;
		}
	}
	if (xfer) {
		u64 t = s->now + c->sync_ps, start = t;

		if (s->c.contention && l->busy > t)
			start = l->busy;
		l->busy = start + (u64)s->xfer_ps;
		c->sc[what]++;
		c->sc[SC_WAIT] += start - t;
		c->sync_ps += start - t + (u64)s->xfer_ps;
	}
}

static void sync_note(struct rxb_shim_sink *k, enum rxb_shim_ev ev,
		      const void *addr)
{
	struct sim *s = container_of(k, struct sim, sink);
	struct score *c;

	if (s->agent < 0 || !s->c.sync_cost)
		return;
	c = &s->core[s->agent];
	if (ev == RXB_SHIM_FENCE) {
		c->sc[SC_FENCE]++;
		c->sync_ps += s->fence_ps;
		return;
	}
	sync_access(s, s->agent, (uintptr_t)addr / LLC_LINE, ev, SC_XFER);
}

/*
 * The line of buffer @b's metadata (the kernel's struct page, DPDK's
 * rte_mbuf header), in a range no host address reaches.
 */
#define BUF_META_LINE0	BIT_ULL(56)

/*
 * Core @core writes buffer @b's metadata (--buf-xfer): the driver's
 * allocation when it posts the buffer (page_pool sets the page's
 * fields, a mempool the mbuf's), the receive path handing a packet in it
 * up (the page's reference, the mbuf's packet fields) and the free that
 * returns it to its pool.  A write after another core's moves the line:
 * one --xfer-ns transfer, serialised as model state is (--contention).
 * A buffer refilled by one core and received by another (a ring its
 * consumers share) moves its line at least once a packet; one core's
 * own buffers never.
 */
static void buf_meta(struct sim *s, int core, u32 b)
{
	if (core < 0 || !s->c.sync_cost || !s->c.buf_xfer)
		return;
	sync_access(s, core, BUF_META_LINE0 + b, RXB_SHIM_WRITE, SC_BUFX);
}

/* Core @c's allocator call or doorbells (@n), charged if it runs model code. */
static void sync_charge(struct sim *s, unsigned int what, u64 n)
{
	struct score *c;

	if (s->agent < 0 || !s->c.sync_cost)
		return;
	c = &s->core[s->agent];
	c->sc[what] += n;
	c->sync_ps += n * (what == SC_ALLOC ? s->alloc_ps : s->db_ps);
}

/* The model-code cost core @c ran up, now charged to its busy time. */
static u64 sync_take(struct score *c)
{
	u64 ps = c->sync_ps, stall = c->stall_ps;

	c->sync_ps = 0;
	c->stall_ps = 0;
	c->cost_ps += ps;
	return ps + stall;
}

/* ---- environment (struct rxb_drv_ops, struct rxb_hw_ops) ------------------------------ */

static void land_put(struct sim *s, u32 b);

static int env_alloc_buf(void *env, unsigned int q, struct rxb_buf *rb)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u32 b;
	int err = pool_alloc(s, p->idx * s->qpp + q, &b);

	if (err)
		return err;
	sync_charge(s, SC_ALLOC, 1);
	buf_meta(s, s->agent, b);
	if (s->pcie && !s->c.desc_prefetch)
		pcie_desc_fetch(s, p, 1);
	s->buf[b].state = BUF_POSTED;
	s->buf[b].refs = 1;
	s->buf[b].model = true;
	s->buf[b].pend = 0;
	s->buf[b].up = 0;
	rb->addr = buf_addr(s, b);
	rb->cookie = buf_cookie(b);
	return 0;
}

/*
 * The model drops its reference (rx.c: page_pool_put_full_page(), no
 * direct recycling): the buffer goes back to its pool's ring now, or,
 * when packets handed up in it still hold it, once the last is done.
 */
static void env_free_buf(void *env, unsigned int q, void *cookie)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u32 b = cookie_buf(cookie);

	(void)q;
	if (b >= s->nbuf)
		return;
	sync_charge(s, SC_ALLOC, 1);
	if (!s->buf[b].model) {
		buf_err(s, b, "the model freed a buffer it holds no reference on");
		return;
	}
	buf_meta(s, s->agent, b);
	s->buf[b].model = false;
	if (s->buf[b].refs > 1) {
		s->buf[b].refs--;
		return;
	}
	if (s->buf[b].land)
		land_put(s, b);
	if (s->buf[b].state == BUF_FILLED && !s->multi)
		s->resident--;
	s->buf[b].refs = 0;
	buf_release(s, -1, b);
}

/* A packet handed up in buffer @cookie takes a reference (rx.c). */
static void env_ref_buf(void *env, unsigned int q, void *cookie)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u32 b = cookie_buf(cookie);

	(void)q;
	if (b >= s->nbuf)
		return;
	if (!s->buf[b].refs || s->buf[b].refs == UINT16_MAX) {
		buf_err(s, b, "reference taken on a free buffer");
		return;
	}
	s->buf[b].refs++;
}

/* The model's reference is the buffer's last (rx.c: page refcount 1). */
static bool env_buf_idle(void *env, unsigned int q, void *cookie)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u32 b = cookie_buf(cookie);

	(void)q;
	return b < s->nbuf && s->buf[b].model && s->buf[b].refs == 1;
}

static void *env_buf_cookie(void *env, u64 addr)
{
	struct sport *p = env;
	struct sim *s = p->s;

	return buf_cookie((addr - BUF_BASE) / s->c.buf_stride);
}

/*
 * The interrupt reaches idle core @c after --irq-us.  Before --start-stall
 * of the packets arrived no core polls, as when the traffic starts before
 * the NF or every core stalls at once, and the NIC fills the rings (the
 * state a core that fell behind leaves, thesis 4.1): the interrupt waits
 * for stall_release().
 */
static void core_wake(struct sim *s, struct score *c)
{
	if (c->parked) {
		c->parked = false;
		s->nparked--;
	}
	c->state = CORE_WAKING;
	if (s->stalled) {
		ev_set(s, ent_core(s, c->idx), UINT64_MAX);
		return;
	}
	ev_set(s, ent_core(s, c->idx), s->now + (u64)(s->c.irq_us * 1e6));
}

/* --start-stall is over: the interrupts that came meanwhile reach their cores. */
static void stall_release(struct sim *s)
{
	unsigned int i;

	s->stalled = false;
	for (i = 0; i < s->c.cores; i++)
		if (s->core[i].state == CORE_WAKING)
			core_wake(s, &s->core[i]);
}

static void env_raise_irq(void *env, unsigned int q)
{
	struct sport *p = env;
	struct sim *s = p->s;
	struct score *c = &s->core[p->idx * s->qpp + q];

	rxb_nic_ctx_assert("raise_irq");
	if (c->state != CORE_IDLE) {
		/* polling: the vector is masked (NAPI); it fires at re-arm */
		if (c->idling)
			c->irq_missed = true;
		return;
	}
	core_wake(s, c);
}

static void env_arm_timer(void *env, u64 ns)
{
	struct sport *p = env;
	struct sim *s = p->s;

	if (p->timer_pending)
		return;
	p->timer_pending = true;
	ev_set(s, ent_timer(s, p->idx), s->now + ns * PS_PER_NS);
}

static u64 env_now_ns(void *env)
{
	struct sport *p = env;

	return p->s->now / PS_PER_NS;
}

/*
 * The memory system holds back more than --mem-burst-ns of traffic: the
 * NIC's posted writes wait for it (its PCIe write credits run out), so the
 * link takes nothing more until the backlog is back under the burst.
 */
static void dma_write_stall(struct sim *s, struct sport *p)
{
	if (mem_charge(s) > s->burst_ps && s->pcie &&
	    p->up_free < s->mem_free - s->burst_ps)
		p->up_free = s->mem_free - s->burst_ps;
}

/*
 * The NIC wrote a packet of @len bytes at bus address @addr: its lines
 * through DDIO; DRAM behind by more than the write buffers hold stalls
 * the NIC.
 */
static void pkt_dma_lines(struct sim *s, struct sport *p, u64 addr, u32 len)
{
	u64 a;

	/* The packet's lines, not its bytes: what DDIO sees. */
	for (a = addr & ~(u64)(LLC_LINE - 1); a < addr + len; a += LLC_LINE)
		llc_dma_write(&s->llc, a);
	dma_write_stall(s, p);
}

/* ---- the header/data split (--nicmem-split, nic_hds.c) ------------ */

/*
 * The DMA engine in split mode decides for a frame of @len bytes, as
 * rxb_nic_hds_write() does: split, the payload's room reserved in the
 * tier (*@pay bytes); fallback, the tier has no room: written whole;
 * whole, nothing to split (no payload, or more than a page).
 */
static unsigned int split_decide(struct sim *s, u32 len, u32 *pay)
{
	*pay = 0;
	if (len <= s->c.split_hdr || len > SPLIT_MAX_LEN)
		return HD_WHOLE;
	if (rxb_nicmem_reserve(&s->nm, len - s->c.split_hdr))
		return HD_FALLBACK;
	*pay = len - s->c.split_hdr;
	return HD_SPLIT;
}

/* Bytes of a frame of @len the NIC writes into host memory on arrival. */
static u32 split_host_len(const struct sim *s, unsigned int kind, u32 len)
{
	return kind == HD_SPLIT ? s->c.split_hdr + RXB_HDS_REC_ROOM : len;
}

/* The module's counters (measured): nicmem_host_bytes, ... */
static void split_count(struct sim *s, unsigned int kind, u32 len, u32 pay)
{
	if (!s->measuring)
		return;
	s->nm_host += split_host_len(s, kind, len);
	if (kind == HD_SPLIT) {
		s->nm_nic += pay;
		s->nm_split++;
	} else if (kind == HD_FALLBACK) {
		s->nm_fallback++;
	} else {
		s->nm_whole++;
	}
}

/* Slot of the packet at offset @off of buffer @b (multi_pkt_bufs). */
static inline u64 *slot_of(const struct sim *s, u32 b, u32 off)
{
	return &s->slot_t[(u64)b * s->spb + off / RXB_MCQE_ALIGN];
}

/*
 * A model with several packets per buffer: the NIC wrote one at offset
 * @off of buffer @b.  Its lines from its own address; the I/O working
 * set counts the slot (packet bytes) and, beside it, the buffer; each
 * packet is host-resident until processed.
 */
static void slot_filled(struct sim *s, struct sport *p, u32 b, u32 off,
			u32 len, u64 t)
{
	struct sbuf *sb = &s->buf[b];

	*slot_of(s, b, off) = t;
	sb->len = len;
	pkt_dma_lines(s, p, buf_addr(s, b) + off, len);
	rxb_wss_record(&s->wss, (u64)b * s->spb + off / RXB_MCQE_ALIGN + 1, 0,
		       len);
	rxb_wss_record(&s->wss_buf, b + 1, off, len);
	sb->state = BUF_FILLED;
	sb->pend++;
	s->resident++;
	if (s->measuring && s->resident > s->res_peak)
		s->res_peak = s->resident;
}

/*
 * The NIC wrote a packet into buffer @b (its t_arr and len set): its lines
 * through DDIO, the I/O working set, the host-resident packets.
 */
static void buf_filled(struct sim *s, struct sport *p, u32 b)
{
	struct sbuf *sb = &s->buf[b];

	/* Split: the record before the buffer, then the headers. */
	if (sb->split_pay)
		pkt_dma_lines(s, p, buf_addr(s, b) - RXB_HDS_REC_ROOM,
			      s->c.split_hdr + RXB_HDS_REC_ROOM);
	else
		pkt_dma_lines(s, p, buf_addr(s, b), sb->len);
	if (sb->split_pay)
		rxb_wss_record(&s->wss, b + 1, 0,
			       s->c.split_hdr + RXB_HDS_REC_ROOM);
	else
		rxb_wss_record(&s->wss, b + 1, RXB_HDS_REC_ROOM, sb->len);
	if (s->buf[b].state != BUF_FILLED) {
		s->buf[b].state = BUF_FILLED;
		s->resident++;
		if (s->measuring && s->resident > s->res_peak)
			s->res_peak = s->resident;
	}
}

static u8 env_dma_write(void *env, const struct rxb_frame *f, u64 addr,
			u32 *csum)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u32 b = (addr - BUF_BASE) / s->c.buf_stride;
	const struct tr_pkt *pkt = f->data;
	unsigned int kind = HD_NONE;
	u32 pay = 0;
	u64 off;

	(void)csum;
	rxb_nic_ctx_assert("dma_write");
	if (addr < BUF_BASE + s->c.headroom || b >= s->nbuf) {
		fprintf(stderr, "rxbisect-sim: DMA to a bus address %#llx outside the buffers\n",
			(unsigned long long)addr);
		abort();
	}
	/* The buffer must be the model's: posted, not freed. */
	if (!s->buf[b].model)
		buf_err(s, b, "DMA write into a buffer the model does not hold");
	off = addr - buf_addr(s, b);
	if (s->multi) {
		if (off % RXB_MCQE_ALIGN || off + f->len > s->c.buf_stride - s->c.headroom) {
			fprintf(stderr, "rxbisect-sim: packet at offset %llu of buffer %u\n",
				(unsigned long long)off, b);
			abort();
		}
		slot_filled(s, p, b, off, f->len, pkt->t);
		return 0;
	}
	if (off)
		buf_err(s, b, "a packet at an offset, from a model with one packet per buffer");
	split_release(s, b);
	if (s->c.nicmem_split) {
		/* Decided as the frame went up the link (dma_start()). */
		if (p->hd_kind != HD_NONE) {
			kind = p->hd_kind;
			pay = p->hd_pay;
			p->hd_kind = HD_NONE;
		} else {
			kind = split_decide(s, f->len, &pay);
		}
		split_count(s, kind, f->len, pay);
	}
	s->buf[b].t_arr = pkt->t;
	s->buf[b].len = f->len;
	s->buf[b].split_pay = kind == HD_SPLIT ? pay : 0;
	buf_filled(s, p, b);
	/* no checksum unit: nothing reads the bytes */
	return kind == HD_SPLIT ? RXB_CQE_F_SPLIT : 0;
}

/* ---- the on-NIC memory tier (nic_mem.c) ------------------------------ */

/* The tier's clock (struct rxb_nicmem.now_ns): simulated time. */
static u64 tier_now_ns(void *arg)
{
	const struct sim *s = arg;

	return s->now / PS_PER_NS;
}

/* The tier's fetch engine asks to run in @ns (fetch_event()). */
static void tier_fetch_arm(void *arg, u64 ns)
{
	struct sim *s = arg;

	ev_set(s, ent_fetch(s), s->now + ns * PS_PER_NS);
}

static struct rxb_nicmem *env_nicmem(void *env)
{
	struct sport *p = env;

	return &p->s->nm;
}

/*
 * The NIC keeps the frame in its memory instead of writing it to the
 * host: no LLC line, no I/O working set, no bytes on the host's link yet
 * (env_pcie() counts them when the host fetches the frame).  The frame
 * still took its transfer time on the link in dma_start(), which does
 * not know where the model puts it: each frame occupies the link once,
 * a slow-path frame at its arrival instead of at its fetch.
 */
static void env_nicmem_write(void *env, const struct rxb_frame *f, u64 addr,
			     u32 off)
{
	struct sport *p = env;
	struct sim *s = p->s;
	const struct tr_pkt *pkt = f->data;
	struct tier_rec r = { pkt->t, f->len, TIER_MAGIC };
	/* What dma_start() charged for the frame's data. */
	u64 bytes = p->hd_kind != HD_NONE ? p->hd_tlp : tlp_bytes(f->len, PCIE_MPS);

	rxb_nic_ctx_assert("nicmem_write");
	memcpy((u8 *)rxb_nicmem_ptr(&s->nm, addr) + off, &r,
	       min_t(u32, sizeof(r), f->len));
	if (s->pcie)
		p->up_bytes -= bytes < p->up_bytes ? bytes : p->up_bytes;
	s->tier_pkts += s->measuring;
}

/* A pad to land a fetch in, for buffer @b. */
static u8 *land_get(struct sim *s, u32 b)
{
	u32 i;

	if (s->buf[b].land)
		return s->land[s->buf[b].land - 1];
	if (s->nland_free) {
		i = s->land_free[--s->nland_free];
	} else {
		if (s->nland == s->land_cap) {
			u32 ncap = s->land_cap ? 2 * s->land_cap : 256;
			u8 **nl = realloc(s->land, sizeof(*nl) * ncap);
			u32 *nf;

			if (!nl)
				abort();
			s->land = nl;
			nf = realloc(s->land_free, sizeof(*nf) * ncap);
			if (!nf)
				abort();
			s->land_free = nf;
			s->land_cap = ncap;
		}
		i = s->nland;
		s->land[i] = calloc(1, s->c.buf_stride);
		if (!s->land[i])
			abort();
		s->nland++;
	}
	s->buf[b].land = i + 1;
	return s->land[i];
}

static void land_put(struct sim *s, u32 b)
{
	u32 i = s->buf[b].land - 1;

	memset(s->land[i], 0, sizeof(struct tier_rec));
	s->land_free[s->nland_free++] = i;
	s->buf[b].land = 0;
}

/*
 * The DMA engine's view of host buffer @addr, for a fetch out of the tier:
 * the buffer's landing pad.
 */
static void *env_dma_ptr(void *env, u64 addr, u32 len)
{
	struct sport *p = env;
	struct sim *s = p->s;
	u64 b = (addr - BUF_BASE) / s->c.buf_stride;

	(void)len;	/* tier_land() records the write, when it lands */
	rxb_nic_ctx_assert("dma_ptr");
	if (addr < BUF_BASE || b >= s->nbuf) {
		fprintf(stderr, "rxbisect-sim: DMA to a bus address %#llx outside the buffers\n",
			(unsigned long long)addr);
		abort();
	}
	return land_get(s, b) + (addr - buf_addr(s, b));
}

/*
 * Interconnect bytes a model reports: the tier's fetches, a DMA write up
 * the link as a packet's (its link time was taken at the frame's arrival,
 * env_nicmem_write()), and with --desc-prefetch the descriptors the NIC
 * reads; dma_start(), pcie_desc_fetch() and pcie_notif() count the rest.
 */
static void env_pcie(void *env, unsigned int q, unsigned int kind, u32 bytes)
{
	struct sport *p = env;
	struct sim *s = p->s;

	rxb_nic_ctx_assert("pcie");
	if (!s->pcie)
		return;
	/*
	 * With the descriptor cache, a descriptor is paid for when the NIC
	 * reads it: taken in the NIC half's rx, or read outside reception (CEIO's fetch
	 * entries) one at a time, as when posted without the cache.
	 */
	if (kind == RXB_PCIE_DESC_RD && s->c.desc_prefetch) {
		if (p->in_rx)
			desc_take(s, p, q);
		else
			pcie_desc_fetch(s, p, 1);
		return;
	}
	if (kind != RXB_PCIE_DATA_WR)
		return;
	p->up_bytes += tlp_bytes(bytes, PCIE_MPS);
}

/*
 * A packet fetched from the tier reaches the core: its bytes land in the
 * host buffer now (the DMA write the driver's fetch asked for), through
 * DDIO as any packet's.
 */
static void tier_land(struct sim *s, struct sport *p, u32 b)
{
	struct tier_rec r;

	memcpy(&r, s->land[s->buf[b].land - 1], sizeof(r));
	if (r.magic != TIER_MAGIC) {
		fprintf(stderr, "rxbisect-sim: a packet delivered before its fetch landed\n");
		abort();
	}
	land_put(s, b);
	s->buf[b].t_arr = r.t_arr;
	s->buf[b].len = r.len;
	s->buf[b].split_pay = 0;
	buf_filled(s, p, b);
}

/*
 * Streaming models (Ensō): pipes the driver maps twice (a memfd mapped
 * twice in a row); the bus address is the first mapping's address.
 */
static void *env_map_ring(void *env, unsigned int q, size_t size, u64 *addr)
{
	int fd = memfd_create("rxb-sim-ring", 0);
	u8 *va = MAP_FAILED;

	(void)env;
	(void)q;
	if (fd >= 0 && !ftruncate(fd, size))
		va = mmap(NULL, 2 * size, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (va != MAP_FAILED &&
	    (mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		  fd, 0) == MAP_FAILED ||
	     mmap(va + size, size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)) {
		munmap(va, 2 * size);
		va = MAP_FAILED;
	}
	if (fd >= 0)
		close(fd);
	if (va == MAP_FAILED)
		return NULL;
	*addr = (uintptr_t)va;
	return va;
}

static void env_unmap_ring(void *env, unsigned int q, void *va, size_t size)
{
	(void)env;
	(void)q;
	munmap(va, 2 * size);
}

/* What the sim's "frame bytes" in a pipe are: the packet's arrival time
 * and where it lies, for the driver side to find (stream_copy()).
 */
struct sim_stream_rec {
	u64 t_arr;
	u64 addr;
};

static u8 env_dma_write_ring(void *env, const struct rxb_frame *f, u64 addr,
			     u32 size, u32 off, u32 *csum)
{
	struct sport *p = env;
	struct sim *s = p->s;
	const struct tr_pkt *pkt = f->data;
	struct sim_stream_rec r = { pkt->t, addr + off };
	u64 a, end = addr + off + f->len;

	(void)csum;
	rxb_nic_ctx_assert("dma_write");
	/* 16-byte aligned in a ring of a multiple of 16 bytes: not split. */
	memcpy((void *)(uintptr_t)(addr + off), &r, sizeof(r));
	for (a = (addr + off) & ~(u64)(LLC_LINE - 1); a < end; a += LLC_LINE)
		llc_dma_write(&s->llc, a < addr + size ? a : a - size);
	dma_write_stall(s, p);
	rxb_wss_record(&s->wss, ((addr + off) >> 12) + 1, (addr + off) & 4095,
		       f->len);
	return 0;
}

static void env_dma_put(void *env, const void *src, u32 len, u64 addr)
{
	(void)env;
	memcpy((void *)(uintptr_t)addr, src, len);
}

/*
 * Ring memory (descriptor, completion, notification, fetch rings): host
 * memory whose bus address is the driver's mapping.  Its lines are not in
 * the LLC model: the model's own accesses are costed by the shim's sink
 * (sync_note()) and the PCIe model (descriptor reads, completion writes).
 */
static void *env_dma_alloc(void *env, size_t size, u64 *addr)
{
	void *va;

	(void)env;
	if (posix_memalign(&va, 4096, size ? size : 1))
		return NULL;
	memset(va, 0, size);
	*addr = (uintptr_t)va;
	return va;
}

static void env_dma_free(void *env, void *va, size_t size)
{
	(void)env;
	(void)size;
	free(va);
}

/* The NIC's view of ring memory the driver programmed (at start too). */
static void *env_dma_map(void *env, u64 addr, size_t len)
{
	(void)env;
	(void)len;
	return (void *)(uintptr_t)addr;
}

/*
 * A register write marked a page while the NIC had nothing pending: the
 * NIC's doorbell service runs in its own context as the next event at this
 * instant (doorbell_event()), after the driver's call has returned.  The
 * write itself is charged by env_reg_write().
 */
static void env_kick(void *env)
{
	struct sport *p = env;
	struct sim *s = p->s;

	if (s->key[ent_db(s, p->idx)] == UINT64_MAX)
		ev_set(s, ent_db(s, p->idx), s->now);
}

/*
 * The driver half writes a NIC register (rxb_reg_write(), rxb_db_ring():
 * every register write of every model, whatever the model calls it: a
 * ring's tail, a completion ring's consumer index, CEIO's credit and
 * fetch doorbells): a posted MMIO write, --doorbell-ns for the core
 * running the driver half (none for the driver's control task, on a core
 * of its own, or at setup) and a TLP down the link.
 */
static void env_reg_write(void *env, unsigned int q, u32 bytes)
{
	struct sport *p = env;
	struct sim *s = p->s;

	(void)q;
	sync_charge(s, SC_DB, 1);
	if (s->pcie) {
		pcie_use(s, &p->down_free, (double)(bytes + PCIE_TLP_OH) *
			 s->up_ps_per_byte);
		p->down_bytes += bytes + PCIE_TLP_OH;
	}
}

/*
 * The driver half reads a NIC register or NIC memory on its data path
 * (rxb_reg_read(), counted as pcie_mmio_reads by the module): an uncached
 * read across PCIe.  The core stalls for the round trip (a UC load retires
 * only when its completion is back), --pcie-rd-ns as the NIC's read of an
 * LLC-resident line takes the other way; with the PCIe model, a read
 * request down the link and its completion up.
 */
static void env_reg_read(void *env, unsigned int q, u32 bytes)
{
	struct sport *p = env;
	struct sim *s = p->s;

	(void)q;
	if (s->measuring)
		s->mmio_reads++;
	if (s->agent >= 0) {
		s->core[s->agent].stall_ps += (u64)s->rd_ps;
		if (s->measuring)
			s->mmio_ps += s->rd_ps;
	}
	if (s->pcie) {
		pcie_use(s, &p->down_free, PCIE_TLP_OH * s->up_ps_per_byte);
		p->down_bytes += PCIE_TLP_OH;
		pcie_use(s, &p->up_free, (bytes + PCIE_TLP_OH) * s->up_ps_per_byte);
		p->up_bytes += bytes + PCIE_TLP_OH;
	}
}

static const struct rxb_drv_ring_ops sim_drv_ring_ops = {
	.map	= env_map_ring,
	.unmap	= env_unmap_ring,
};

static const struct rxb_hw_ring_ops sim_hw_ring_ops = {
	.dma_write	= env_dma_write_ring,
	.dma_put	= env_dma_put,
};

static const struct rxb_drv_ops sim_drv_ops = {
	.alloc_buf	= env_alloc_buf,
	.free_buf	= env_free_buf,
	.ref_buf	= env_ref_buf,
	.buf_idle	= env_buf_idle,
	.buf_cookie	= env_buf_cookie,
	.now_ns		= env_now_ns,
	.dma_alloc	= env_dma_alloc,
	.dma_free	= env_dma_free,
	.reg_write	= env_reg_write,
	.reg_read	= env_reg_read,
	.kick		= env_kick,
	.ring		= &sim_drv_ring_ops,
};

static const struct rxb_hw_ops sim_hw_ops = {
	.raise_irq	= env_raise_irq,
	.arm_timer	= env_arm_timer,
	.now_ns		= env_now_ns,
	.dma_write	= env_dma_write,
	.pcie		= env_pcie,
	.nicmem		= env_nicmem,
	.nicmem_write	= env_nicmem_write,
	.dma_ptr	= env_dma_ptr,
	.dma_map	= env_dma_map,
	.ring		= &sim_hw_ring_ops,
};

/* ---- memory latency under load ------------------------------------- */

/*
 * The DRAM latency of a miss rises with the bandwidth in use, "linearly at
 * first and then exponentially" (thesis Figure 1.5, on the testbed's Xeon
 * Silver 4216), as a queue's does: --dram-ns * (1 + k * u / (1 - u)), u
 * the recent DRAM bandwidth (EWMA, 10 us) over --mem-gbs, capped at 0.99,
 * k = --mem-load.  Its defaults, 83 ns and 0.40, are the least-squares fit
 * to an Intel MLC loaded-latency run on a Xeon Silver 4110 (Skylake-SP
 * Silver, COREC's testbed CPU; Intel community forum, "Intel Memory
 * Latency Checker v3.5 test", thread 1126268), its bandwidth over its
 * theoretical peak (12 DDR4-2400 channels, 230.4 GB/s): within 5 % at
 * every point measured (test mem_curve_mlc).  Beyond saturation the DRAM
 * queue of mem_charge() holds the backlog.
 */
double sim_mem_factor(double u, double k)
{
	if (!(u > 0))
		return 1.0;
	if (u > 0.99)
		u = 0.99;
	return 1 + k * u / (1 - u);
}

/*
 * The same law for a request of @n lines that all missed, issued together
 * (a NIC's 512 B read): over idle, the latency of the last of them.  The
 * fit above is exactly a fixed part, (1 - k) of --dram-ns, plus the
 * sojourn time of an M/M/1 queue of service k x --dram-ns at utilisation
 * u: (1 - k) + k / (1 - u) = 1 + k u / (1 - u).  An M/M/1 sojourn time is
 * exponentially distributed (Kleinrock, Queueing Systems vol. 1, 1975,
 * eq. 3.26; Harchol-Balter, Performance Modeling and Design of Computer
 * Systems, 2013, ch. 14); the lines of one request interleave over the
 * channels, so their sojourns are taken as independent, and the mean of
 * the largest of n independent exponentials of mean m is m H(n), H(n) the
 * n-th harmonic number.  So (1 - k) + k H(n) / (1 - u); n = 1 is
 * sim_mem_factor().  No new parameter.
 */
double sim_mem_max_factor(double u, double k, unsigned int n)
{
	double h = 0;
	unsigned int i;

	if (!n)
		return 0;
	if (!(u > 0))
		u = 0;
	if (u > 0.99)
		u = 0.99;
	for (i = 1; i <= n; i++)
		h += 1.0 / i;
	return 1 - k + k * h / (1 - u);
}

static void mem_tick(struct sim *s)
{
	u64 lines = s->llc.st.mem_rd + s->llc.st.mem_wr;
	u64 dt = s->now - s->mem_t;
	double bw, w, u;

	if (dt < MEM_TICK_PS)
		return;
	bw = (double)(lines - s->mem_lines) * LLC_LINE / (dt / 1e12);
	w = dt >= MEM_TAU_PS ? 1.0 : (double)dt / MEM_TAU_PS;
	s->mem_bw += (bw - s->mem_bw) * w;
	u = s->c.mem_gbs > 0 ? s->mem_bw / (s->c.mem_gbs * 1e9) : 0;
	s->dram_ps = s->c.dram_ns * PS_PER_NS * sim_mem_factor(u, s->c.mem_load);
	s->mem_u = u;
	s->mem_t = s->now;
	s->mem_lines = lines;
}

/* ---- cores --------------------------------------------------------- */

static void hist_add(struct sim *s, u64 ps)
{
	u64 ns = ps / PS_PER_NS;
	unsigned int i;

	if (ns < HIST_SUB) {
		i = ns;
	} else {
		unsigned int e = 63 - __builtin_clzll(ns);	/* >= 6 */

		i = (e - 5) * HIST_SUB + (unsigned int)((ns >> (e - 6)) - HIST_SUB);
		if (i >= HIST_N)
			i = HIST_N - 1;
	}
	s->hist[i]++;
	s->lat_n++;
	s->lat_sum += ps;
}

static double hist_pct(const struct sim *s, double pct)
{
	u64 want = (u64)ceil(pct / 100 * s->lat_n), acc = 0;
	unsigned int i;

	if (!s->lat_n)
		return 0;
	for (i = 0; i < HIST_N; i++) {
		acc += s->hist[i];
		if (acc >= want && acc)
			break;
	}
	if (i < HIST_SUB)
		return i;
	/* Middle of the bucket. */
	{
		unsigned int e = i / HIST_SUB + 5, m = i % HIST_SUB + HIST_SUB;

		return ((double)m + 0.5) * (double)(1ULL << (e - 6));
	}
}

/*
 * Where packet @pk of a core's batch is: its buffer, bus address, length
 * and arrival time.  One packet per buffer: the buffer's; several: at
 * the packet's offset, its length from the completion, its arrival time
 * from its slot.
 */
struct spkt {
	u32 b;
	u32 len;
	u64 addr;
	u64 t_arr;
	/* host-resident bytes: the packet's, or a split record and headers */
	u64 haddr;
	u32 hbytes;
	bool split;
};

static struct spkt pkt_of(const struct sim *s, const struct rxb_pkt *pk)
{
	struct spkt r = { .b = cookie_buf(pk->cookie) };

	r.addr = buf_addr(s, r.b);
	if (s->multi) {
		r.addr += pk->offset;
		r.len = pk->len;
		r.t_arr = *slot_of(s, r.b, pk->offset);
	} else {
		r.len = s->buf[r.b].len;
		r.t_arr = s->buf[r.b].t_arr;
		r.split = s->buf[r.b].split_pay;
	}
	r.haddr = r.addr;
	r.hbytes = r.len;
	if (r.split) {
		r.haddr -= RXB_HDS_REC_ROOM;
		r.hbytes = s->c.split_hdr + RXB_HDS_REC_ROOM;
	}
	return r;
}

/*
 * Cache lines of packet @pk in host memory, and how many of them the core
 * reads: of a split packet, all (the driver reads the record, the
 * application the headers).
 */
static unsigned int pkt_lines(const struct sim *s, const struct spkt *pk,
			      unsigned int *touched)
{
	u64 addr = pk->haddr;
	unsigned int lines;

	lines = (pk->hbytes + (addr & (LLC_LINE - 1)) + LLC_LINE - 1) / LLC_LINE;
	*touched = lines;
	if (!pk->split && s->c.touch_lines && lines > s->c.touch_lines)
		*touched = s->c.touch_lines;
	return lines;
}

/* Cost of core @c's memory accesses for packet @pk, made now (ps). */
static u64 pkt_mem_ps(struct sim *s, struct score *c, const struct spkt *pk)
{
	unsigned int i, lines, acc;
	double ps = 0, lat;
	bool hit;
	u64 a;

	pkt_lines(s, pk, &lines);
	a = pk->haddr & ~(u64)(LLC_LINE - 1);
	for (i = 0; i < lines; i++, a += LLC_LINE) {
		/* --rewrite: the line the headers start in */
		hit = llc_cpu_io(&s->llc, a, s->c.rewrite &&
				 a == (pk->addr & ~(u64)(LLC_LINE - 1)));
		lat = hit ? s->c.llc_ns * PS_PER_NS : dram_lat(s);
		/*
		 * The hardware prefetcher overlaps a packet's later lines, and
		 * a first line up to STREAM_AHEAD lines above the core's last
		 * packet line in the same 4 KiB page: packets back to back
		 * (Ensō's pipes) form one ascending stream, which the L2
		 * streamer follows (Intel 64 and IA-32 Architectures
		 * Optimization Reference Manual, "Data Prefetching":
		 * "Prefetched cache lines must be in the same 4K page", "can
		 * run up to 20 lines ahead of the load request"); scattered
		 * buffers do not (Ensō §2, §7.2.3, Table 1: "chaotic memory
		 * access").
		 */
		if (i || (a > c->last_line &&
			  a - c->last_line <= STREAM_AHEAD * LLC_LINE &&
			  a / PAGE_4K == c->last_line / PAGE_4K))
			ps += lat / s->c.mlp;
		else
			ps += lat;
		s->pkt_cpu++;
		s->pkt_cpu_hit += hit;
	}
	c->last_line = a - LLC_LINE;
	acc = s->c.app_accesses + s->c.extra_accesses[c->idx];
	if ((int)c->q == s->c.target)
		acc += s->c.target_accesses;
	for (i = 0; i < acc; i++) {
		/* Dependent random reads (hash-table lookups): no overlap. */
		a = APP_BASE + (rnd(s) % s->app_lines) * LLC_LINE;
		hit = llc_cpu(&s->llc, a, false);
		ps += hit ? s->c.llc_ns * PS_PER_NS : dram_lat(s);
		s->app_cpu++;
		s->app_cpu_hit += hit;
	}
	return (u64)ps;
}

static void held_push(struct sim *s, u64 when, u32 b, unsigned int core)
{
	if (s->held_tail - s->held_head == s->held_cap) {
		u32 ncap = s->held_cap ? 2 * s->held_cap : 1024, i;
		u32 n = s->held_tail - s->held_head;
		struct held *nh = malloc(sizeof(*nh) * ncap);

		if (!nh)
			abort();
		for (i = 0; i < n; i++)
			nh[i] = s->held[(s->held_head + i) & (s->held_cap - 1)];
		free(s->held);
		s->held = nh;
		s->held_cap = ncap;
		s->held_head = 0;
		s->held_tail = n;
	}
	s->held[s->held_tail++ & (s->held_cap - 1)] =
		(struct held){ .when = when, .buf = b, .core = core };
}

static void held_release(struct sim *s)
{
	while (s->held_head != s->held_tail) {
		struct held *h = &s->held[s->held_head & (s->held_cap - 1)];

		if (h->when > s->now)
			return;
		buf_put(s, h->core, h->buf);
		s->held_head++;
	}
}

/*
 * The driver writes a nicmem command (hds.c: FETCH, TX or FREE) and rings
 * the queue's command doorbell: core @c's MMIO write (--doorbell-ns, with
 * --sync-cost), 4 B down the link, and the NIC's read of the 32 B entry
 * (a read request up, its completion down, a read tag).  Returns when
 * the NIC has the command (now without the PCIe model).
 */
static u64 split_cmd(struct sim *s, struct score *c, struct sport *p)
{
	if (s->c.sync_cost)
		c->stall_ps += (u64)s->db_ps;
	if (!s->pcie)
		return s->now;
	pcie_use(s, &p->down_free, (double)(PCIE_DB_BYTES + NMC_DESC_BYTES +
					    2 * PCIE_TLP_OH) * s->up_ps_per_byte);
	p->down_bytes += PCIE_DB_BYTES + NMC_DESC_BYTES + 2 * PCIE_TLP_OH;
	pcie_use(s, &p->up_free, PCIE_TLP_OH * s->up_ps_per_byte);
	p->up_bytes += PCIE_TLP_OH;
	return dma_read(s, p, s->now, dma_rd_hit_ps(s));
}

/*
 * A split packet goes to a socket (hds.c: FETCH with release, into the
 * buffer behind the headers): the NIC DMA-writes the payload up the link
 * and through DDIO, and core @c waits for it.  With the PCIe model the
 * wait is the command's read (a free read tag, then its latency) and the
 * payload's transfer, behind what the link already carries; without it
 * the tier's --nicmem-fetch-ns, as the module waits.  Returns the wait.
 */
static u64 split_fetch(struct sim *s, struct score *c, const struct spkt *pk)
{
	struct sport *p = &s->port[c->port];
	struct sbuf *sb = &s->buf[pk->b];
	u32 pay = sb->split_pay;
	u64 wait, bytes, cmd;

	if (s->pcie) {
		cmd = split_cmd(s, c, p);
		bytes = tlp_bytes(pay, PCIE_MPS);
		pcie_use(s, &p->up_free, bytes * s->up_ps_per_byte);
		p->up_bytes += bytes;
		wait = max_t(u64, cmd - s->now + (u64)(bytes * s->up_ps_per_byte),
			     p->up_free - s->now);
	} else {
		split_cmd(s, c, p);
		wait = (u64)(s->c.nicmem_fetch_ns * PS_PER_NS);
	}
	pkt_dma_lines(s, p, pk->addr + s->c.split_hdr, pay);
	/* A DMA write behind the headers, as the module's FETCH records. */
	rxb_wss_record(&s->wss, pk->b + 1, RXB_HDS_REC_ROOM + s->c.split_hdr,
		       pay);
	atomic64_add(pay, &s->nm.fetched);
	atomic64_inc(&s->nm.fetches);
	if (s->measuring) {
		s->nm_fetch += pay;
		s->nm_host += pay;
		s->nm_fetches++;
		s->nm_fetch_ps += wait;
	}
	split_release(s, pk->b);
	return wait;
}

/* The last use of buffer @b by core @core's packet ends now. */
static void pkt_release(struct sim *s, unsigned int core, u32 b)
{
	if (s->c.hold_us > 0) {
		if (!s->multi)
			s->buf[b].state = BUF_HELD;
		held_push(s, s->now + (u64)(s->c.hold_us * 1e6), b, core);
	} else {
		buf_put(s, core, b);
	}
}

/* ---- the Tx path (--tx with the PCIe model) ------------------------ */

/*
 * A forwarding NF hands each processed packet to its core's Tx queue
 * (FastClick's ToDPDKDevice: a ring of --tx-ring descriptors the NIC reads
 * from, and, once it is full, an internal queue of --tx-iqueue packets;
 * with both full the core blocks, --tx-block, its default).  The NIC's
 * Tx engine serves the queues round robin, one packet at a time: it
 * DMA-reads each packet in 512 B requests, each holding one of the port's
 * read tags until its completion is back, with the latency of a DMA read
 * of its lines (the DRAM's, loaded, when one missed the LLC), sends the
 * packet once all its requests are back and the earlier packets of the
 * port are out, and gives the buffer back.  A packet's latency ends when
 * it leaves on the wire.
 */
static inline bool tx_path(const struct sim *s)
{
	return s->c.tx && s->pcie;
}

static void tx_comp_push(struct sport *p, u64 t, unsigned int q, u32 idx,
			 unsigned int n)
{
	struct txcomp *h = p->comp;
	u32 i = p->ncomp++;

	while (i && h[(i - 1) / 2].t > t) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = (struct txcomp){ .t = t, .idx = idx, .q = q, .n = n };
}

static void tx_comp_pop(struct sport *p)
{
	struct txcomp *h = p->comp, last = h[--p->ncomp];
	u32 i = 0, n = p->ncomp;

	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = l;

		if (l >= n)
			break;
		if (r < n && h[r].t < h[l].t)
			m = r;
		if (h[m].t >= last.t)
			break;
		h[i] = h[m];
		i = m;
	}
	if (n)
		h[i] = last;
}

/* Queue @q has a packet whose next read request the NIC may issue. */
static inline bool tx_issuable(const struct sim *s, const struct txq *tq)
{
	return tq->iss != tq->tail && tq->iss - tq->head < s->c.tx_ring;
}

/*
 * A streaming model's (Ensō's) TX notification hands the NIC a range of
 * its TX pipe, an address and a length (Ensō §2.2, §5.2: the NIC "DMA
 * reads the notification, then DMA reads the data"): packets that lie
 * back to back in the pipe share the read requests of that range, 512 B
 * each; a descriptor NIC reads each descriptor's buffer with requests of
 * its own.  How many packets after e[iss] the request from e[iss]'s
 * start covers, its length in @len.
 */
static unsigned int tx_coalesce(const struct sim *s, const struct sport *p,
				const struct txq *tq, u32 *len)
{
	const struct txent *e = &tq->e[tq->iss & tq->mask], *prev = e;
	unsigned int n = 0;
	u32 j;

	if (!p->ops->stream || e->reqs != 1)
		return 0;
	for (j = tq->iss + 1; j != tq->tail && j - tq->head < s->c.tx_ring; j++) {
		const struct txent *f = &tq->e[j & tq->mask];

		if (f->reqs != 1 || f->addr < prev->addr + prev->len ||
		    f->addr + f->len - e->addr > PCIE_MRRS)
			break;
		*len = f->addr + f->len - e->addr;
		prev = f;
		n++;
	}
	return n;
}

/*
 * Bytes [@off, @off + @len) of packet @e through the LLC: the lines the
 * core read are in its L2 (snooped).  Returns the lines that missed.
 */
static unsigned int tx_read_lines(struct sim *s, const struct txent *e,
				  u32 off, u32 len)
{
	u64 first = e->addr & ~(u64)(LLC_LINE - 1), a;
	unsigned int nmiss = 0;

	for (a = (e->addr + off) & ~(u64)(LLC_LINE - 1); a < e->addr + off + len;
	     a += LLC_LINE) {
		if ((a - first) / LLC_LINE < e->touched && !llc_present(&s->llc, a)) {
			llc_dma_read_onchip(&s->llc);
			continue;
		}
		if (!llc_dma_read(&s->llc, a))
			nmiss++;
	}
	return nmiss;
}

/* Issue the next read request of queue @q's packet at e[iss]. */
static void tx_issue_one(struct sim *s, struct sport *p, unsigned int q)
{
	struct txq *tq = &p->txq[q];
	struct txent *e = &tq->e[tq->iss & tq->mask];
	u32 off = tq->req_next * PCIE_MRRS;
	u32 len = min_t(u32, PCIE_MRRS, e->len - off);
	unsigned int nmiss, more, k;
	double lat;
	u64 bytes, done;

	nmiss = tx_read_lines(s, e, off, len);
	more = tx_coalesce(s, p, tq, &len);
	for (k = 1; k <= more; k++) {
		const struct txent *f = &tq->e[(tq->iss + k) & tq->mask];

		nmiss += tx_read_lines(s, f, 0, f->len);
	}
	bytes = tlp_bytes(len, PCIE_MPS);
	/*
	 * A request's lines come from DRAM in parallel; its completion waits
	 * for the last of them.
	 */
	lat = nmiss ? s->rd_ps + dram_lat_lines(s, nmiss) : dma_rd_hit_ps(s);
	pcie_use(s, &p->up_free, PCIE_TLP_OH * s->up_ps_per_byte);
	p->up_bytes += PCIE_TLP_OH;
	pcie_use(s, &p->down_free, bytes * s->up_ps_per_byte);
	p->down_bytes += bytes;
	if (p->down_free > s->now + lat)
		lat = p->down_free - s->now;
	done = dma_read(s, p, s->now, lat);
	if (s->measuring) {
		p->rd_lat_sum += done - s->now;
		p->rd_n++;
	}
	tx_comp_push(p, done, q, tq->iss, more + 1);
	for (k = 0; k <= more; k++)
		tq->e[(tq->iss + k) & tq->mask].fly++;
	tq->iss += more;
	if (++tq->req_next == e->reqs) {
		tq->req_next = 0;
		tq->iss++;
		p->tx_rr = (q + 1) % s->qpp;
	} else {
		p->tx_rr = q;
	}
}

/* Issue read requests while a tag is free and a packet waits. */
static void tx_issue(struct sim *s, struct sport *p)
{
	unsigned int k, q;

	while (p->tag[0] <= s->now) {
		for (k = 0; k < s->qpp; k++) {
			q = (p->tx_rr + k) % s->qpp;
			if (tx_issuable(s, &p->txq[q]))
				break;
		}
		if (k == s->qpp)
			return;
		tx_issue_one(s, p, q);
	}
}

/* Send queue @q's oldest packets whose reads are all back. */
static void tx_send(struct sim *s, struct sport *p, unsigned int q)
{
	struct txq *tq = &p->txq[q];
	struct score *c = &s->core[p->idx * s->qpp + q];

	while (tq->head != tq->iss && !tq->e[tq->head & tq->mask].fly) {
		struct txent *e = &tq->e[tq->head & tq->mask];
		u64 start = max_t(u64, p->egress_free, s->now);

		p->egress_free = start + (u64)((e->wlen + s->c.wire_overhead) * 8 *
					       1000.0 / s->c.link_gbps);
		if (s->measuring)
			hist_add(s, p->egress_free - e->t_arr);
		pkt_release(s, e->core, e->buf);
		tq->head++;
		if (c->tx_wait)
			ev_set(s, ent_core(s, c->idx), s->now);
	}
}

static void tx_sched(struct sim *s, struct sport *p)
{
	u64 next = p->ncomp ? p->comp[0].t : UINT64_MAX;
	unsigned int q;

	if (p->tag[0] < next)
		for (q = 0; q < s->qpp; q++)
			if (tx_issuable(s, &p->txq[q])) {
				next = max_t(u64, p->tag[0], s->now);
				break;
			}
	ev_set(s, ent_tx(s, p->idx), next);
}

static void tx_event(struct sim *s, struct sport *p)
{
	unsigned int k;

	while (p->ncomp && p->comp[0].t <= s->now) {
		struct txcomp c = p->comp[0];
		struct txq *tq = &p->txq[c.q];

		tx_comp_pop(p);
		for (k = 0; k < c.n; k++)
			tq->e[(c.idx + k) & tq->mask].fly--;
		tx_send(s, p, c.q);
	}
	tx_issue(s, p);
	tx_sched(s, p);
}

/*
 * The NIC reads the queue's Tx descriptors (16 B each) --desc-batch at a
 * time, a streaming model's (Ensō's) TX notification once per --budget
 * packets: one read request, its completion down, a read tag.  Counted as
 * metadata (meta_pct), as the descriptor reads of reception.
 */
static void tx_desc_read(struct sim *s, struct sport *p, struct txq *tq)
{
	unsigned int per = p->ops->stream ? s->c.budget : s->c.desc_batch;
	u64 bytes;

	if (++tq->unread < per)
		return;
	bytes = tlp_bytes(p->ops->stream ? sizeof(struct rxb_rx_desc) :
			  (u64)per * sizeof(struct rxb_rx_desc), PCIE_MPS);
	tq->unread = 0;
	pcie_use(s, &p->up_free, PCIE_TLP_OH * s->up_ps_per_byte);
	p->up_bytes += PCIE_TLP_OH;
	pcie_use(s, &p->down_free, bytes * s->up_ps_per_byte);
	p->down_bytes += bytes;
	p->meta_down += bytes;
	dma_read(s, p, s->now, dma_rd_hit_ps(s));
}

/*
 * Core @c hands its processed packet @pk to the NIC: @txlen bytes from
 * the packet's address, of which the core read @touched lines.
 */
static void tx_enqueue(struct sim *s, struct score *c, const struct spkt *pk,
		       u32 txlen, unsigned int touched)
{
	struct sport *p = &s->port[c->port];
	struct txq *tq = &p->txq[c->q];
	struct txent *e = &tq->e[tq->tail++ & tq->mask];

	*e = (struct txent){
		.t_arr = pk->t_arr, .addr = pk->addr, .buf = pk->b, .len = txlen,
		.core = c->idx, .reqs = (txlen + PCIE_MRRS - 1) / PCIE_MRRS,
		.touched = min_t(unsigned int, touched, 255), .wlen = pk->len,
	};
	if (!e->reqs)
		e->reqs = 1;
	tx_desc_read(s, p, tq);
	tx_issue(s, p);
	tx_sched(s, p);
}

/* Is core @c's Tx path full (its ring and the NF's queue)? */
static bool tx_full(const struct sim *s, const struct score *c)
{
	const struct txq *tq = &s->port[c->port].txq[c->q];

	return tq->tail - tq->head >= s->c.tx_ring + s->c.tx_iqueue;
}

/*
 * Without the PCIe model, --tx reads the packet through the LLC at once
 * (the DRAM traffic and hit rates), with no latency or link.
 */
static void tx_read_now(struct sim *s, const struct spkt *pk, u32 txlen,
			unsigned int touched)
{
	u64 a = pk->addr & ~(u64)(LLC_LINE - 1);
	unsigned int i, lines;

	lines = (txlen + (pk->addr & (LLC_LINE - 1)) + LLC_LINE - 1) / LLC_LINE;
	for (i = 0; i < lines; i++, a += LLC_LINE) {
		if (i < touched && !llc_present(&s->llc, a)) {
			llc_dma_read_onchip(&s->llc);
			continue;
		}
		llc_dma_read(&s->llc, a);
	}
}

/*
 * Core @c is done with buffer @b of a packet it dropped, as XDP_DROP (not
 * forwarded): a whole buffer of a pool several queues share goes to the
 * model's cache if it has one (drv/rx.c rxb_rx_put_pkt(),
 * rxb_model_ops.recycle: COREC's stash), the buffer the model's again.
 */
static bool core_recycle(struct sim *s, struct score *c, u32 b)
{
	struct sport *p = &s->port[c->port];
	struct sbuf *sb = &s->buf[b];
	unsigned int q = c->q;
	struct rxb_buf rb;
	bool ok;

	if (!p->ops->recycle || s->multi || s->c.hold_us > 0 ||
	    sb->refs != 1 || sb->model || sb->up ||
	    !(p->pool_shared & BIT_ULL(q)))
		return false;
	rb.addr = buf_addr(s, b);
	rb.cookie = buf_cookie(b);
	s->agent = c->idx;
	ok = p->ops->recycle(p->m, q, &rb);
	s->agent = -1;
	if (!ok)
		return false;
	buf_meta(s, c->idx, b);
	sb->state = BUF_POSTED;
	sb->model = true;
	return true;
}

/*
 * Core @c is done with packet c->batch[c->i]: counted delivered, then
 * handed to the Tx path (--tx) or its buffer freed.  Returns false, with
 * nothing done, if the Tx path is full and the core must wait for it.
 */
static bool core_finish(struct sim *s, struct score *c)
{
	struct spkt pk = pkt_of(s, &c->batch[c->i]);
	u32 b = pk.b;
	unsigned int touched;
	/* Split, header-only: TX (--tx) or FREE, with release. */
	u32 txlen = pk.split ? s->c.split_hdr : pk.len;
	bool tx = s->c.tx, drop = false;

	if (tx && tx_path(s) && tx_full(s, c)) {
		if (s->c.tx_block)
			return false;
		drop = true;
	}
	if (pk.split)
		split_cmd(s, c, &s->port[c->port]);
	/* TX of a split packet: its headers, all read by the core. */
	if (pk.split)
		touched = (txlen + (pk.addr & (LLC_LINE - 1)) + LLC_LINE - 1) /
			  LLC_LINE;
	else
		pkt_lines(s, &pk, &touched);
	split_release(s, b);
	if (drop) {
		s->run_txdrop++;
		s->tx_drop += s->measuring;
	} else {
		s->run_delivered++;
		if (s->measuring) {
			s->qdel[c->idx]++;
			s->del_bytes += pk.len;
			if (!(tx && tx_path(s)))
				hist_add(s, s->now - pk.t_arr);
		}
	}
	s->buf[b].ring_addr = 0;	/* a streaming model's copy: the skb's */
	if (s->buf[b].up)
		s->buf[b].up--;
	else
		buf_err(s, b, "a packet processed that was not handed up");
	if (s->multi) {
		/* The buffer stays the model's or other packets' meanwhile. */
		if (s->buf[b].pend) {
			s->buf[b].pend--;
			s->resident--;
		}
	} else if (s->buf[b].state == BUF_FILLED) {
		s->resident--;
	}
	if (tx && !drop && tx_path(s)) {
		tx_enqueue(s, c, &pk, txlen, touched);
		return true;
	}
	if (tx && !drop)
		tx_read_now(s, &pk, txlen, touched);
	else if (core_recycle(s, c, b))
		return true;
	pkt_release(s, c->idx, b);
	return true;
}

static void core_start(struct sim *s, struct score *c)
{
	struct spkt pk = pkt_of(s, &c->batch[c->i]);
	double cyc = s->c.cycles + s->c.extra_cycles[c->idx];
	u64 ps;

	if ((int)c->q == s->c.target)
		cyc += s->c.target_cycles;
	if (c->first)
		cyc += s->c.poll_cycles;
	c->first = false;
	ps = 0;
	/* Split: --touch-lines 0 is socket delivery, the payload fetched. */
	if (pk.split && !s->c.touch_lines) {
		ps = split_fetch(s, c, &pk);
		pk = pkt_of(s, &c->batch[c->i]);
	}
	ps += (u64)(cyc * s->ps_per_cycle) + pkt_mem_ps(s, c, &pk) + sync_take(c);
	c->busy_ps += ps;
	c->started = true;
	ev_set(s, ent_core(s, c->idx), s->now + ps);
}

/*
 * A streaming model's packets are in its pipes: the driver copies each
 * into an skb, a buffer of the core's pool here, which the core then
 * processes (reading the packet's lines in the pipe) and frees or holds
 * as any buffer.  A packet with no buffer to copy into is dropped.
 * Returns the packets kept.
 */
static int stream_copy(struct sim *s, struct score *c, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		struct sim_stream_rec r;
		u32 b;

		memcpy(&r, c->batch[i].data, sizeof(r));
		if (pool_alloc(s, c->idx, &b)) {
			s->run_copydrop++;
			s->copy_drop += s->measuring;
			continue;
		}
		/* the skb the copy goes into: an allocator call */
		sync_charge(s, SC_ALLOC, 1);
		buf_meta(s, c->idx, b);
		s->buf[b].state = BUF_POSTED;
		s->buf[b].refs = 1;	/* the skb's */
		s->buf[b].model = false;
		s->buf[b].pend = 0;
		s->buf[b].up = 1;
		s->buf[b].t_arr = r.t_arr;
		s->buf[b].len = c->batch[i].len;
		s->buf[b].ring_addr = r.addr;
		c->batch[k] = c->batch[i];
		c->batch[k++].cookie = buf_cookie(b);
	}
	return k;
}

/*
 * The model handed packet @pk up: a fragment holds the reference it took
 * (ref_buf); a whole buffer takes the model's over.  A packet fetched
 * from the tier lands now.
 */
static void pkt_up(struct sim *s, struct sport *p, const struct rxb_pkt *pk)
{
	u32 b = cookie_buf(pk->cookie);
	struct sbuf *sb;

	if (b >= s->nbuf) {
		fprintf(stderr, "rxbisect-sim: a packet in no buffer\n");
		abort();
	}
	sb = &s->buf[b];
	if (s->multi && (pk->offset % RXB_MCQE_ALIGN ||
			 pk->offset + pk->len > s->c.buf_stride - s->c.headroom)) {
		fprintf(stderr, "rxbisect-sim: packet at offset %u of buffer %u\n",
			pk->offset, b);
		abort();
	}
	if (!pk->frag) {
		if (!sb->model)
			buf_err(s, b, "handed up whole, not the model's");
		sb->model = false;
	} else if (!s->multi) {
		buf_err(s, b, "a fragment, from a model with one packet per buffer");
	}
	/* The model passes the DMA engine's flag on (rx.c acts on it). */
	if (!s->multi && !(pk->flags & RXB_CQE_F_SPLIT) != !sb->split_pay)
		buf_err(s, b, "RXB_CQE_F_SPLIT does not match the NIC's split of the frame");
	if (sb->up == UINT16_MAX)
		buf_err(s, b, "too many packets handed up");
	else
		sb->up++;
	buf_meta(s, s->agent, b);
	if (sb->land)
		tier_land(s, p, b);
}

/* Core @c retries its refill --refill-retry-us from now. */
static void refill_retry_at(struct sim *s, struct score *c)
{
	ev_set(s, ent_core(s, c->idx),
	       s->now + (u64)(s->c.refill_retry_us * 1e6));
}

/*
 * Core @c goes idle: it re-arms its interrupt, which fires at once if the
 * NIC raised it while the core was still busy (as a NIC's masked vector
 * does at re-arm), and waits for it, or for its refill retry.
 */
static void core_idle(struct sim *s, struct score *c)
{
	c->idling = false;
	if (c->irq_missed) {
		c->irq_missed = false;
		core_wake(s, c);
		return;
	}
	c->state = CORE_IDLE;
	/*
	 * A ring left short of buffers by a failed allocation gets no
	 * interrupt once it runs dry: retry later, as a driver's refill
	 * timer or NAPI reschedule does.
	 */
	if (c->refill_retry && s->frees == c->fail_frees) {
		/*
		 * No buffer came back to a pool since the refill failed: a
		 * retry would fail the same way.  It waits for one
		 * (refill_unpark()); a pool smaller than the rings at a light
		 * load had cores retry every --refill-retry-us for nothing,
		 * for seconds of simulated time.
		 */
		c->parked = true;
		s->nparked++;
		ev_set(s, ent_core(s, c->idx), UINT64_MAX);
	} else if (c->refill_retry) {
		refill_retry_at(s, c);
	} else {
		ev_set(s, ent_core(s, c->idx), UINT64_MAX);
	}
}

/* A buffer came back: the parked cores retry their refill. */
static void refill_unpark(struct sim *s)
{
	unsigned int i;

	for (i = 0; i < s->c.cores && s->nparked; i++) {
		struct score *c = &s->core[i];

		if (!c->parked)
			continue;
		c->parked = false;
		s->nparked--;
		refill_retry_at(s, c);
	}
}

static void core_event(struct sim *s, struct score *c)
{
	struct sport *p = &s->port[c->port];
	int i;
	u64 ps;

	if (c->idling) {
		core_idle(s, c);
		return;
	}
	if (c->started) {
		if (!core_finish(s, c)) {
			/* Its Tx path is full: it spins until the NIC sends one. */
			if (!c->tx_wait) {
				c->tx_wait = true;
				c->tx_wait_at = s->now;
			}
			ev_set(s, ent_core(s, c->idx), UINT64_MAX);
			return;
		}
		if (c->tx_wait) {
			c->tx_wait = false;
			c->busy_ps += s->now - c->tx_wait_at;
			c->tx_block_ps += s->now - c->tx_wait_at;
		}
		c->started = false;
		c->i++;
	}
	if (c->i < c->n) {
		core_start(s, c);
		return;
	}
	c->state = CORE_BUSY;
	s->agent = c->idx;
	c->n = rxb_model_poll(p->m, c->q, c->batch, s->c.budget);
	if (p->ops->stream)
		c->n = stream_copy(s, c, c->n);
	else
		for (i = 0; i < c->n; i++)
			pkt_up(s, p, &c->batch[i]);
	c->i = 0;
	c->first = true;
	if (c->n) {
		s->agent = -1;
		core_start(s, c);
		return;
	}
	if (p->ops->rx_pending(p->m, c->q)) {
		/* Only notifications so far: poll again. */
		s->agent = -1;
		ps = (u64)(s->c.poll_cycles * s->ps_per_cycle) + 1 + sync_take(c);
		c->busy_ps += ps;
		ev_set(s, ent_core(s, c->idx), s->now + ps);
		return;
	}
	c->refill_retry = !p->ops->refill(p->m, c->q);
	c->fail_frees = s->frees;
	s->agent = -1;
	/*
	 * The poll's and the refill's cost (a register read's stall, an
	 * allocator call) still take the core's time: it goes idle after
	 * them.  Charged as busy time only, it had made a core that polls
	 * an empty ring often, CEIO's (its credit register), busier than
	 * the time that passed.
	 */
	ps = sync_take(c);
	if (ps) {
		c->busy_ps += ps;
		c->idling = true;
		ev_set(s, ent_core(s, c->idx), s->now + ps);
		return;
	}
	core_idle(s, c);
}

/* ---- measurement --------------------------------------------------- */

static void measure_start(struct sim *s)
{
	unsigned int p, i;

	s->measuring = true;
	s->t0 = s->now;
	s->res_peak = s->resident;
	s->llc0 = s->llc.st;
	for (p = 0; p < s->c.ports; p++)
		for (i = 0; i < s->qpp; i++)
			rxb_model_qstats_read(s->port[p].m, i, &s->port[p].snap[i]);
	for (i = 0; i < s->c.cores; i++) {
		s->busy0[i] = s->core[i].busy_ps;
		s->tx_block0[i] = s->core[i].tx_block_ps;
		s->cost0 += s->core[i].cost_ps;
		for (p = 0; p < SC_NR; p++)
			s->sc0[p] += s->core[i].sc[p];
	}
	for (i = 0; i < s->npools; i++) {
		s->pool_fails0 += s->pool[i].fails;
		s->cross0 += s->pool[i].cross_frees;
	}
	for (p = 0; p < s->c.ports; p++) {
		s->up0 += s->port[p].up_bytes;
		s->down0 += s->port[p].down_bytes;
		s->meta0 += s->port[p].meta_down;
	}
}

/* The NIC hands packet @pkt to the model: buffer, DMA write, completion. */
static void nic_rx(struct sport *p, const struct tr_pkt *pkt)
{
	struct rxb_frame f = {
		.data = pkt,
		.len = pkt->len,
		.hash = pkt->hash,
		/* CEIO's flow table holds a flow a queue (sim_model_cfg()) */
		.flow = pkt->queue,
		.hash_flags = RXB_CQE_F_L4_HASH,
	};

	/*
	 * The doorbells posted since the NIC last ran first (sim_nic_rx()
	 * would run them too), apart: a descriptor they read (CEIO's fetch
	 * entries) is not this frame's take.
	 */
	sim_nic_doorbells(&p->in);
	p->in_rx = true;
	sim_nic_rx(&p->in, pkt->queue, &f);
	p->in_rx = false;
}

/*
 * The completion of the frame of queue @q the DMA engine starts
 * (--wb-batch): the NIC holds a queue's completions and writes them back
 * in one TLP once it holds --wb-batch, or with the last frame of that
 * queue in its buffer: nothing would fill the batch, so nothing is held
 * for it (the end of the burst; a held completion always has a frame of
 * its queue behind it).  The bytes of the write, sent after the frame's
 * data, 0: held.  With --wb-batch 1, a TLP per frame as before.  Intel's
 * 82598 flushes on its receive timer instead (datasheet §3.5.2.7); an
 * end-of-burst flush needs no timer and never holds a completion idle.
 */
static u64 wb_complete(struct sim *s, struct sport *p, unsigned int q)
{
	unsigned int n = ++p->wb_pend[q];

	p->cqe_owed++;
	if (n < s->c.wb_batch && p->nb_q[q] > 1)
		return 0;
	p->wb_pend[q] = 0;
	p->cqe_done += n;
	p->cqe_writes += s->measuring;
	return tlp_bytes(n * sizeof(struct rxb_cqe), PCIE_MPS);
}

/*
 * The DMA engine starts the packet at the head of the NIC's buffer: once
 * the upstream link is free, a descriptor the last take waited for has
 * arrived (desc_take(); a read waits for a read tag, which Tx reads may
 * hold) and, with --nic-mpps, the NIC's pipeline has a slot; it ends when
 * the packet and its completion crossed the link.
 */
static void dma_start(struct sim *s, struct sport *p)
{
	const struct tr_pkt *pkt = &p->nb[p->nb_head & (p->nb_cap - 1)].pkt;
	u32 data = pkt->len;
	u64 bytes;

	if (p->up_free < p->dma_hold)
		p->up_free = p->dma_hold;
	/* --nic-mpps: the NIC's pipeline takes a frame at most that often. */
	if (s->nic_gap_ps > 0) {
		if (p->up_free < p->nic_next)
			p->up_free = p->nic_next;
		p->nic_next = max_t(u64, p->up_free, s->now) + (u64)s->nic_gap_ps;
	}
	/*
	 * Split: the engine decides where the payload goes before it moves
	 * it (room reserved in the tier now): only the headers and the
	 * record cross the link.  dma_event() gives the room back if the
	 * model drops the frame or keeps it whole (CEIO's slow path).
	 */
	if (s->c.nicmem_split) {
		p->hd_kind = split_decide(s, pkt->len, &p->hd_pay);
		data = split_host_len(s, p->hd_kind, pkt->len);
		p->hd_tlp = tlp_bytes(data, PCIE_MPS);
	}
	bytes = tlp_bytes(data, PCIE_MPS) +
		wb_complete(s, p, pkt->queue % RXB_MAX_MODEL_QUEUES);
	pcie_use(s, &p->up_free, bytes * s->up_ps_per_byte);
	p->up_bytes += bytes;
	ev_set(s, ent_dma(s, p->idx), p->up_free);
}

static void dma_event(struct sim *s, struct sport *p)
{
	struct tr_pkt pkt = p->nb[p->nb_head++ & (p->nb_cap - 1)].pkt;

	p->nb_bytes -= pkt.len;
	p->nb_q[pkt.queue % RXB_MAX_MODEL_QUEUES]--;
	nic_rx(p, &pkt);
	/* Split decided, no DMA write took it: dropped or kept whole. */
	if (p->hd_kind == HD_SPLIT)
		rxb_nicmem_unreserve(&s->nm, p->hd_pay);
	p->hd_kind = HD_NONE;
	if (p->xs_n && !(++p->xs_tick % PCIE_NOTIF_EVERY))
		pcie_notif(s, p);
	if (p->nb_head != p->nb_tail)
		dma_start(s, p);
	else
		ev_set(s, ent_dma(s, p->idx), UINT64_MAX);
}

/* Into the NIC's buffer, or dropped when it is full. */
static void nic_buffer(struct sim *s, struct sport *p, const struct tr_pkt *pkt)
{
	u32 n = p->nb_tail - p->nb_head, i;

	if (p->nb_bytes + pkt->len > s->c.nic_buf) {
		p->nic_drop++;
		s->nic_drop += s->measuring;
		return;
	}
	if (n == p->nb_cap) {
		u32 ncap = p->nb_cap ? 2 * p->nb_cap : 256;
		struct npkt *nb = malloc(sizeof(*nb) * ncap);

		if (!nb)
			abort();
		for (i = 0; i < n; i++)
			nb[i] = p->nb[(p->nb_head + i) & (p->nb_cap - 1)];
		free(p->nb);
		p->nb = nb;
		p->nb_cap = ncap;
		p->nb_head = 0;
		p->nb_tail = n;
	}
	p->nb[p->nb_tail++ & (p->nb_cap - 1)].pkt = *pkt;
	p->nb_bytes += pkt->len;
	p->nb_q[pkt->queue % RXB_MAX_MODEL_QUEUES]++;
	if (!n)
		dma_start(s, p);
}

static void arrival_event(struct sim *s, struct sport *p)
{
	struct tr_pkt pkt;
	unsigned int q, i, gq;
	u64 next;

	next = traffic_next(&p->tr, s->now, &pkt);
	q = pkt.queue;
	gq = p->idx * s->qpp + q;
	if (s->pcie)
		nic_buffer(s, p, &pkt);
	else
		nic_rx(p, &pkt);
	s->arrived++;
	if (s->measuring) {
		s->qarr[gq]++;
		s->arr_bytes += pkt.len;
		/*
		 * Time average by sampling at arrivals (PASTA for Poisson).
		 * Signed: a model whose queues take each other's packets
		 * (corec) counts a packet on one queue and polls it on another.
		 */
		for (i = 0; i < s->qpp; i++)
			s->occ_sum[p->idx * s->qpp + i] +=
				(double)(s64)(READ_ONCE(rxb_bar_qstats(&p->m->bar, i)->hw_packets) -
					      READ_ONCE(p->m->qstats[i].packets));
		s->occ_n[p->idx]++;
		if (tx_path(s))
			for (i = 0; i < s->qpp; i++)
				p->tx_occ_sum += min_t(u32, p->txq[i].tail - p->txq[i].head,
						       s->c.tx_ring);
		s->wss_sum += s->wss.distinct;
		s->res_sum += s->resident;
		s->wss_n++;
		if (s->c.nicmem_split) {
			s->wb_sum += s->wss.bytes;
			if (s->wss.bytes > s->wb_peak)
				s->wb_peak = s->wss.bytes;
		}
		if (s->wss.distinct > s->wss_peak)
			s->wss_peak = s->wss.distinct;
		if (s->multi) {
			s->wss_buf_sum += s->wss_buf.distinct;
			if (s->wss_buf.distinct > s->wss_buf_peak)
				s->wss_buf_peak = s->wss_buf.distinct;
		}
	}
	ev_set(s, ent_arrival(s, p->idx), next);
}

static void timer_event(struct sim *s, struct sport *p)
{
	p->timer_pending = false;
	ev_set(s, ent_timer(s, p->idx), UINT64_MAX);
	if (p->in.hw->ops->timer)
		sim_nic_timer(&p->in);
}

/* The NIC's doorbell service of port @p, in its context, after a kick. */
static void doorbell_event(struct sim *s, struct sport *p)
{
	ev_set(s, ent_db(s, p->idx), UINT64_MAX);
	sim_nic_doorbells(&p->in);
}

/* The tier's fetch engine completes the fetches due (it re-arms itself). */
static void fetch_event(struct sim *s)
{
	ev_set(s, ent_fetch(s), UINT64_MAX);
	sim_nic_fetch_run(&s->nm);
}

/* The driver's controller runs on a core of its own: no core time. */
static void ctl_event(struct sim *s, struct sport *p)
{
	u64 ns = p->ops->ctl_tick(p->m, s->now / PS_PER_NS);

	ev_set(s, ent_ctl(s, p->idx), s->now + (ns ? ns : 1) * PS_PER_NS);
}

static void xstats(struct sim *s, struct sim_res *r)
{
	unsigned int p, i, j, n;
	char *names;
	u64 *vals;

	for (p = 0; p < s->c.ports; p++) {
		struct sport *sp = &s->port[p];

		if (!sp->ops->xstats_count)
			continue;
		n = sp->ops->xstats_count(sp->m);
		names = calloc(n ? n : 1, RXB_STAT_NAME_LEN);
		vals = calloc(n ? n : 1, sizeof(*vals));
		if (!names || !vals)
			goto next;
		sp->ops->xstats_names(sp->m, names);
		sp->ops->xstats_values(sp->m, vals);
		for (i = 0; i < n; i++) {
			const char *nm = names + i * RXB_STAT_NAME_LEN;

			for (j = 0; j < r->nx; j++)
				if (!strncmp(r->x[j].name, nm, sizeof(r->x[j].name)))
					break;
			if (j == r->nx) {
				if (r->nx == SIM_MAX_XSTATS)
					continue;
				snprintf(r->x[j].name, sizeof(r->x[j].name), "%s", nm);
				r->nx++;
			}
			r->x[j].val += vals[i];
		}
next:
		free(names);
		free(vals);
	}
}

bool sim_res_xstat(const struct sim_res *r, const char *name, u64 *val)
{
	unsigned int i, q;
	bool found = false;
	int off;

	*val = 0;
	for (i = 0; i < r->nx; i++) {
		const char *nm = r->x[i].name;

		off = 0;
		if (sscanf(nm, "rx%u_%n", &q, &off) == 1 && off)
			nm += off;
		if (!strcmp(nm, name)) {
			*val += r->x[i].val;
			found = true;
		}
	}
	return found;
}

static double ratio(u64 x, u64 y)
{
	return y ? (double)x / y : 0;
}

static void sync_results(const struct sim *s, struct sim_res *r)
{
	u64 sc[SC_NR] = { 0 }, cost = 0;
	double n = r->delivered ? (double)r->delivered : 1;
	unsigned int i, k;

	for (i = 0; i < s->c.cores; i++) {
		cost += s->core[i].cost_ps;
		for (k = 0; k < SC_NR; k++)
			sc[k] += s->core[i].sc[k];
	}
	r->model_cyc_pkt = (cost - s->cost0) / s->ps_per_cycle / n;
	for (i = 0; i < s->c.cores; i++)
		r->cyc_pkt += (s->core[i].busy_ps - s->busy0[i]) / s->ps_per_cycle / n;
	r->xfer_pkt = (sc[SC_XFER] - s->sc0[SC_XFER]) / n;
	r->rmw_pkt = (sc[SC_RMW] - s->sc0[SC_RMW]) / n;
	r->lock_pkt = (sc[SC_LOCK] - s->sc0[SC_LOCK]) / n;
	r->fence_pkt = (sc[SC_FENCE] - s->sc0[SC_FENCE]) / n;
	r->alloc_pkt = (sc[SC_ALLOC] - s->sc0[SC_ALLOC]) / n;
	r->db_pkt = (sc[SC_DB] - s->sc0[SC_DB]) / n;
	r->xwait_ns_pkt = (sc[SC_WAIT] - s->sc0[SC_WAIT]) / (double)PS_PER_NS / n;
	r->buf_xfer_pkt = (sc[SC_BUFX] - s->sc0[SC_BUFX]) / n;
	r->mmio_rd_pkt = s->mmio_reads / n;
	r->mmio_ns_pkt = s->mmio_ps / PS_PER_NS / n;
}

const char *sim_warn_str(unsigned int w)
{
	switch (w & (SIM_WARN_NOTHING | SIM_WARN_LEAK)) {
	case 0:
		return "";
	case SIM_WARN_NOTHING:
		return "nothing delivered";
	case SIM_WARN_LEAK:
		return "packets lost: offered != delivered + dropped + held";
	default:
		return "nothing delivered; packets lost: offered != delivered + dropped + held";
	}
}

/*
 * The whole run's account (warm-up included): every packet offered was
 * delivered, dropped or is still held (NIC buffer, model, a core's batch);
 * and something was delivered in the window.  Else sim_res.warn says so.
 */
static void run_account(const struct sim *s, struct sim_res *r)
{
	unsigned int p, q;
	u64 drop = s->run_txdrop + s->run_copydrop;

	for (p = 0; p < s->c.ports; p++) {
		drop += s->port[p].nic_drop;
		for (q = 0; q < s->qpp; q++) {
			struct rxb_qstats n;

			rxb_model_qstats_read(s->port[p].m, q, &n);
			drop += n.nobuf_drops + n.ring_full_drops + n.oversize_drops;
		}
	}
	r->run_arrived = s->arrived;
	r->run_delivered = s->run_delivered;
	r->run_dropped = drop;
	if (!r->delivered)
		r->warn |= SIM_WARN_NOTHING;
	if (r->run_arrived != r->run_delivered + r->run_dropped + r->in_flight +
			      r->in_model + r->in_core)
		r->warn |= SIM_WARN_LEAK;
}

static void results(struct sim *s, struct sim_res *r)
{
	const struct llc_stats *a = &s->llc.st, *b = &s->llc0;
	double T = (s->now - s->t0) / 1e12, busy = 0;
	unsigned int p, q, i;
	u64 rd, wr, rd_n = 0;

	memset(r, 0, sizeof(*r));
	r->sim_s = T;
	r->nqueues = s->c.cores;
	for (p = 0; p < s->c.ports; p++) {
		for (q = 0; q < s->qpp; q++) {
			const struct rxb_qstats *o = &s->port[p].snap[q];
			struct rxb_qstats nst, *n = &nst;
			struct sim_qres *qr = &r->q[p * s->qpp + q];

			rxb_model_qstats_read(s->port[p].m, q, n);
			i = p * s->qpp + q;
			qr->arrived = s->qarr[i];
			qr->delivered = s->qdel[i];
			qr->nobuf = n->nobuf_drops - o->nobuf_drops;
			qr->ring_full = n->ring_full_drops - o->ring_full_drops;
			qr->oversize = n->oversize_drops - o->oversize_drops;
			qr->alloc_fails = n->alloc_fails - o->alloc_fails;
			qr->occ_mean = s->occ_n[p] ? s->occ_sum[i] / s->occ_n[p] : 0;
			qr->util = T > 0 ? (s->core[i].busy_ps - s->busy0[i]) / 1e12 / T : 0;
			r->arrived += qr->arrived;
			r->delivered += qr->delivered;
			r->nobuf += qr->nobuf;
			r->ring_full += qr->ring_full;
			r->oversize += qr->oversize;
			r->alloc_fails += qr->alloc_fails;
			r->occ_mean += qr->occ_mean / s->c.cores;
			busy += qr->util;
		}
	}
	r->util = busy / s->c.cores;
	for (i = 0; i < s->npools; i++) {
		r->pool_fails += s->pool[i].fails;
		r->cross_frees += s->pool[i].cross_frees;
	}
	r->pool_fails -= s->pool_fails0;
	r->cross_frees -= s->cross0;
	r->nic_drop = s->nic_drop;
	for (p = 0; p < s->c.ports; p++) {
		r->pcie_rd_us += s->port[p].rd_lat_sum / 1e6;
		rd_n += s->port[p].rd_n;
		r->desc_reads += s->port[p].desc_reads;
		r->desc_misses += s->port[p].desc_misses;
		r->desc_waits += s->port[p].desc_waits;
		r->desc_wait_us += s->port[p].desc_wait_ps / 1e6;
		r->cqe_writes += s->port[p].cqe_writes;
		r->cqe_owed += s->port[p].cqe_owed;
		r->cqe_done += s->port[p].cqe_done;
		for (i = 0; i < RXB_MAX_MODEL_QUEUES; i++)
			r->cqe_held += s->port[p].wb_pend[i];
		r->in_flight += s->port[p].nb_tail - s->port[p].nb_head;
		if (T > 0) {
			r->pcie_up_gbs += s->port[p].up_bytes / T / 1e9;
			r->pcie_down_gbs += s->port[p].down_bytes / T / 1e9;
		}
	}
	r->pcie_rd_us = rd_n ? r->pcie_rd_us / rd_n : 0;
	{
		u64 meta = 0, down = 0;

		for (p = 0; p < s->c.ports; p++) {
			meta += s->port[p].meta_down;
			down += s->port[p].down_bytes;
		}
		meta -= s->meta0;
		down -= s->down0;
		r->meta_pct = down ? 100.0 * meta / down : 0;
	}
	{
		double wsum = 0, occ = 0, occn = 0, blk = 0;
		u64 wn = 0;

		for (p = 0; p < s->c.ports; p++) {
			wsum += s->port[p].rd_wait_sum;
			wn += s->port[p].rd_wait_n;
			occ += s->port[p].tx_occ_sum;
			occn += (double)s->occ_n[p] * s->qpp;
		}
		r->rd_wait_us = wn ? wsum / wn / 1e6 : 0;
		r->tx_occ_pct = occn && s->c.tx_ring ? 100 * occ / occn / s->c.tx_ring : 0;
		for (i = 0; i < s->c.cores; i++) {
			const struct score *c = &s->core[i];

			blk += c->tx_block_ps - s->tx_block0[i] +
			       (c->tx_wait ? s->now - c->tx_wait_at : 0);
		}
		r->tx_block_pct = T > 0 ? 100 * blk / 1e12 / T / s->c.cores : 0;
	}
	r->desc_wait_us = r->desc_waits ? r->desc_wait_us / r->desc_waits : 0;
	if (T > 0) {
		r->pcie_up_gbs -= s->up0 / T / 1e9;
		r->pcie_down_gbs -= s->down0 / T / 1e9;
	}
	r->occ_pct = 100 * r->occ_mean / s->c.ring;
	if (T > 0) {
		r->offered_gbps = s->arr_bytes * 8.0 / T / 1e9;
		r->gbps = s->del_bytes * 8.0 / T / 1e9;
		r->mpps = r->delivered / T / 1e6;
	}
	r->drop_pct = r->arrived ?
		100.0 * (r->nobuf + r->ring_full + r->oversize + r->nic_drop) /
		r->arrived : 0;
	r->lat_mean_us = s->lat_n ? s->lat_sum / s->lat_n / 1e6 : 0;
	r->lat_p50_us = hist_pct(s, 50) / 1e3;
	r->lat_p99_us = hist_pct(s, 99) / 1e3;
	r->lat_p999_us = hist_pct(s, 99.9) / 1e3;
	r->ddio_hit = ratio(a->dma_wr_hit - b->dma_wr_hit, a->dma_wr - b->dma_wr);
	r->tx_hit = ratio(a->dma_rd_hit - b->dma_rd_hit, a->dma_rd - b->dma_rd);
	r->cpu_pkt_hit = ratio(s->pkt_cpu_hit, s->pkt_cpu);
	r->app_hit = ratio(s->app_cpu_hit, s->app_cpu);
	rd = a->mem_rd - b->mem_rd;
	wr = a->mem_wr - b->mem_wr;
	if (T > 0) {
		r->mem_rd_gbs = rd * (double)LLC_LINE / T / 1e9;
		r->mem_wr_gbs = wr * (double)LLC_LINE / T / 1e9;
		r->mem_gbs = r->mem_rd_gbs + r->mem_wr_gbs;
	}
	r->res_mean = s->wss_n ? s->res_sum / s->wss_n : 0;
	r->res_peak = s->res_peak;
	r->tier_pkts = s->tier_pkts;
	r->tier_pct = r->arrived ? 100.0 * s->tier_pkts / r->arrived : 0;
	r->tier_peak_mib = (double)atomic64_read(&s->nm.peak) / (1 << 20);
	/*
	 * Per port: a model whose queues take each other's packets (COREC)
	 * counts a packet on the queue RSS chose and its poll on another.
	 */
	for (p = 0; p < s->c.ports; p++) {
		u64 hw = 0, sw = 0;

		for (q = 0; q < s->qpp; q++) {
			struct rxb_qstats st;

			rxb_model_qstats_read(s->port[p].m, q, &st);
			hw += st.hw_packets;
			sw += st.packets;
		}
		if (hw > sw)
			r->in_model += hw - sw;
	}
	for (i = 0; i < s->c.cores; i++)
		if (s->core[i].n > s->core[i].i)
			r->in_core += s->core[i].n - s->core[i].i;
	r->wss_bufs = s->wss_n ? s->wss_sum / s->wss_n : 0;
	r->wss_peak_bufs = s->wss_peak;
	r->wss_mib = r->wss_bufs * s->c.pkt_size / (1 << 20);
	r->wss_peak_mib = r->wss_peak_bufs * s->c.pkt_size / (1 << 20);
	if (s->multi) {
		/* wss counted packet slots: the bytes; wss_buf the buffers. */
		r->wss_bufs = s->wss_n ? s->wss_buf_sum / s->wss_n : 0;
		r->wss_peak_bufs = s->wss_buf_peak;
	}
	if (s->c.nicmem_split) {
		/* The bytes the NIC wrote into the buffers, not whole frames. */
		r->wss_mib = s->wss_n ? s->wb_sum / s->wss_n / (1 << 20) : 0;
		r->wss_peak_mib = s->wb_peak / (1 << 20);
	}
	r->nm_host_bytes = s->nm_host;
	r->nm_nic_bytes = s->nm_nic;
	r->nm_fetch_bytes = s->nm_fetch;
	r->nm_split = s->nm_split;
	r->nm_whole = s->nm_whole;
	r->nm_fallback = s->nm_fallback;
	r->nm_fetches = s->nm_fetches;
	r->nm_fetch_us = s->nm_fetches ? s->nm_fetch_ps / s->nm_fetches / 1e6 : 0;
	r->buf_errs = s->buf_errs;
	r->events = s->events;
	r->tx_drop = s->tx_drop;
	r->copy_drop = s->copy_drop;
	run_account(s, r);
	sync_results(s, r);
	xstats(s, r);
}

/* ---- setup and main loop ------------------------------------------- */

static void sim_free(struct sim *s)
{
	unsigned int i;

	/* Buffers with packets still in them go back: not an error now. */
	s->teardown = true;
	for (i = 0; i < s->c.ports; i++) {
		if (s->port[i].in.m) {
			/* As the kernel: fetches in flight are dropped, their
			 * owner frees them with its NIC half.
			 */
			rxb_nicmem_fetch_abort(&s->nm);
			sim_models_destroy(&s->port[i].in);
		}
		s->port[i].m = NULL;
	}
	/* Split payloads still held: the module's reclaim at teardown. */
	for (i = 0; i < s->c.ports; i++)
		if (s->port[i].hd_kind == HD_SPLIT)
			rxb_nicmem_unreserve(&s->nm, s->port[i].hd_pay);
	for (i = 0; i < s->nbuf; i++)
		split_release(s, i);
	/* Every model freed its pieces of the tier. */
	if (s->nm.now_ns)
		rxb_nicmem_fini(&s->nm);
	for (i = 0; i < s->nland; i++)
		free(s->land[i]);
	free(s->land);
	free(s->land_free);
	for (i = 0; i < s->c.ports; i++) {
		free(s->port[i].snap);
		free(s->port[i].nb);
		free(s->port[i].xs_val);
		free(s->port[i].xs_ent);
		free(s->port[i].xs_comp);
		free(s->port[i].xs_ooo);
		free(s->port[i].ooo_seen);
		free(s->port[i].tag);
		free(s->port[i].comp);
		for (unsigned int q = 0; q < RXB_MAX_MODEL_QUEUES; q++)
			free(s->port[i].txq[q].e);
		traffic_fini(&s->port[i].tr);
	}
	for (i = 0; i < s->c.cores; i++)
		stack_free(&s->core[i].cache);
	for (i = 0; s->pool && i < s->npools; i++)
		fifo_free(&s->pool[i].ring);
	free(s->pool);
	free(s->buf);
	free(s->held);
	free(s->key);
	free(s->heap);
	free(s->pos);
	free(s->lines);
	free(s->slot_t);
	llc_fini(&s->llc);
	if (s->wss.ring)
		rxb_wss_fini(&s->wss);
	if (s->wss_buf.ring)
		rxb_wss_fini(&s->wss_buf);
	free(s);
}

static void model_cfg(const struct sim *s, struct rxb_model_cfg *mc)
{
	sim_model_cfg(&s->c, mc);
}

/* Times per unit that follow from options (again after a --change). */
static void sim_derive(struct sim *s)
{
	s->line_ps = s->c.mem_gbs > 0 ? LLC_LINE * 1e3 / s->c.mem_gbs : 0;
	s->up_ps_per_byte = s->c.pcie_gbps > 0 ? 8e3 / s->c.pcie_gbps : 0;
	s->rd_ps = s->c.pcie_rd_ns * PS_PER_NS;
	s->burst_ps = (u64)(s->c.mem_burst_ns * PS_PER_NS);
	s->nic_gap_ps = s->c.nic_mpps > 0 ? 1e6 / s->c.nic_mpps : 0;
	s->atomic_ps = s->c.atomic_ns * PS_PER_NS;
	s->xfer_ps = s->c.xfer_ns * PS_PER_NS;
	s->fence_ps = s->c.fence_ns * PS_PER_NS;
	s->alloc_ps = s->c.alloc_ns * PS_PER_NS;
	s->db_ps = s->c.doorbell_ns * PS_PER_NS;
}

/*
 * Port @p's read tags (all free), its Tx queues (room for a full ring and
 * the NF's queue each) and which ring each queue's descriptors come from.
 */
static int port_pcie_setup(struct sim *s, struct sport *p,
			   const struct rxb_model_cfg *mc)
{
	u32 cap = roundup_pow_of_two(s->c.tx_ring + s->c.tx_iqueue + 1);
	unsigned int q;
	int err;

	p->ntags = s->c.pcie_reads;
	p->tag = calloc(p->ntags, sizeof(*p->tag));
	p->comp = calloc(p->ntags, sizeof(*p->comp));
	if (!p->tag || !p->comp)
		return -ENOMEM;
	for (q = 0; s->c.tx && q < s->qpp; q++) {
		p->txq[q].e = calloc(cap, sizeof(*p->txq[q].e));
		if (!p->txq[q].e)
			return -ENOMEM;
		p->txq[q].mask = cap - 1;
	}
	err = sim_model_streams(p->ops, mc, p->stream);
	if (err)
		fprintf(stderr, "rxbisect-sim: %s: descriptor streams unknown (%d): one a queue\n",
			p->ops->name, err);
	if (err)
		for (q = 0; q < s->qpp; q++)
			p->stream[q] = q;
	return 0;
}

/*
 * The application's data starts as a long-running NF's is: in the LLC's
 * ordinary ways (the DMA writes own the DDIO ways) as far as it fits.  A
 * run is too short to get there (SYN's 40 MiB is 640 Ki lines; the
 * warm-up of 300 K packets reads 120 K of them), so without this the
 * application's hit rate counts cold misses.  Its reads are uniform over
 * the table, so which part of a larger table is cached does not matter:
 * the first lines, as many as the ordinary ways hold, which fill each
 * set's ways evenly (llc_set() spreads consecutive lines over the sets).
 * The I/O then evicts what it evicts in the warm-up.
 */
static void app_prefill(struct sim *s)
{
	u32 ways = s->llc.ways - (s->llc.ddio < s->llc.ways ? s->llc.ddio : 0);
	u64 n = min_t(u64, s->app_lines, (u64)s->llc.nsets * ways), i;
	unsigned int c;
	bool reads = s->c.app_accesses || s->c.target_accesses;

	for (c = 0; c < s->c.cores; c++)
		reads |= s->c.extra_accesses[c] != 0;
	if (!reads)
		return;
	for (i = 0; i < n; i++)
		llc_warm(&s->llc, APP_BASE + i * LLC_LINE);
}

static int sim_setup(struct sim *s)
{
	const struct rxb_model_ops *ops = s->c.ops ? s->c.ops :
					  rxb_model_find(s->c.model);
	struct rxb_model_cfg mc;
	unsigned int i, q, limit;
	const char *msg;
	int err;

	if (!ops) {
		fprintf(stderr, "rxbisect-sim: no ring model \"%s\"\n", s->c.model);
		return -ENOENT;
	}
	/* Several packets per buffer: one arrival time per slot. */
	s->multi = ops->multi_pkt_bufs;
	s->spb = s->c.buf_stride / RXB_MCQE_ALIGN;
	s->agent = -1;
	s->sink.note = sync_note;
	s->qpp = s->c.cores / s->c.ports;
	s->ps_per_cycle = 1000.0 / s->c.ghz;
	s->dram_ps = s->c.dram_ns * PS_PER_NS;
	s->mem_u = 0;
	s->pcie = s->c.pcie_gbps > 0;
	sim_derive(s);
	s->app_lines = s->c.app_mem / LLC_LINE ? s->c.app_mem / LLC_LINE : 1;
	s->rng = s->c.seed * 0x9e3779b97f4a7c15ULL + 1;
	rxb_nicmem_init(&s->nm, s->c.nicmem, (u64)s->c.nicmem_fetch_ns,
			tier_now_ns, s);
	rxb_nicmem_set_timer(&s->nm, tier_fetch_arm, s);
	s->nent = 6 * s->c.ports + 1 + s->c.cores;
	s->key = malloc(sizeof(*s->key) * s->nent);
	s->heap = malloc(sizeof(*s->heap) * s->nent);
	s->pos = malloc(sizeof(*s->pos) * s->nent);
	if (!s->key || !s->heap || !s->pos)
		return -ENOMEM;
	for (i = 0; i < s->nent; i++) {
		s->key[i] = UINT64_MAX;
		s->pos[i] = UINT32_MAX;
	}
	err = llc_init(&s->llc, s->c.llc_bytes, s->c.llc_ways, s->c.ddio_ways,
		       s->c.migrate);
	if (err)
		return err;
	app_prefill(s);
	err = rxb_wss_init(&s->wss, s->c.wss_window);
	if (err)
		return err;
	if (s->multi) {
		err = rxb_wss_init(&s->wss_buf, s->c.wss_window);
		if (err)
			return err;
	}
	s->npools = s->c.pool_mode == POOL_MEMPOOL ? s->c.ports : s->c.cores;
	s->pool = calloc(s->npools, sizeof(*s->pool));
	if (!s->pool)
		return -ENOMEM;
	for (i = 0; i < s->c.cores; i++) {
		s->core[i].idx = i;
		s->core[i].port = i / s->qpp;
		s->core[i].q = i % s->qpp;
		s->core[i].state = CORE_IDLE;
	}
	for (i = 0; i < s->c.ports; i++) {
		struct sport *p = &s->port[i];

		p->s = s;
		p->idx = i;
		p->ops = ops;
		/*
		 * --dma-engines 0: one per queue (QDMA, PG344: a descriptor
		 * fetch pending per queue); a waiting engine holds a read, so
		 * no more than --pcie-reads.
		 */
		p->neng = s->c.dma_engines ? s->c.dma_engines : s->qpp;
		p->neng = min3(p->neng, s->c.pcie_reads,
			       (unsigned int)RXB_MAX_MODEL_QUEUES);
		model_cfg(s, &mc);
		if (rxb_model_validate(ops, &mc, &msg)) {
			fprintf(stderr, "rxbisect-sim: %s: %s\n", ops->name, msg);
			return -EINVAL;
		}
		if (!i && ops->advise && !s->c.quiet) {
			msg = ops->advise(&mc);
			if (msg)
				fprintf(stderr, "rxbisect-sim: %s: warning: %s\n",
					ops->name, msg);
		}
		limit = 0;
		if (s->c.pool_x > 0) {
			unsigned int bpq = ops->bufs_per_queue ?
					   ops->bufs_per_queue(&mc) : mc.ring_size;

			limit = (unsigned int)ceil(s->c.pool_x * bpq);
			if (s->c.pool_mode == POOL_MEMPOOL)
				limit *= s->qpp;
		}
		if (s->c.pool_mode == POOL_MEMPOOL)
			s->pool[i].limit = limit;
		else
			for (unsigned int q = 0; q < s->qpp; q++)
				s->pool[i * s->qpp + q].limit = limit;
		p->snap = calloc(s->qpp, sizeof(*p->snap));
		if (!p->snap)
			return -ENOMEM;
		err = traffic_init(&p->tr, &s->c, i, s->qpp);
		if (err)
			return err;
		/* Tags first: --desc-prefetch 0 reads as create posts. */
		if (s->pcie) {
			err = port_pcie_setup(s, p, &mc);
			if (err)
				return err;
		}
		err = sim_models_create(ops, &mc, &sim_drv_ops, p, &sim_hw_ops,
					p, &p->in);
		if (err) {
			fprintf(stderr, "rxbisect-sim: %s: create failed (%d)\n",
				ops->name, err);
			return err;
		}
		p->m = p->in.m;
		/* Once, as rx.c decides at create: RXB_MAX_MODEL_QUEUES 64. */
		for (q = 0; q < mc.nqueues; q++)
			if (rxb_pool_users(ops, &mc, q) > 1)
				p->pool_shared |= BIT_ULL(q);
		if (s->pcie) {
			err = notif_setup(p);
			if (err)
				return err;
		}
		ev_set(s, ent_arrival(s, i), traffic_first(&p->tr));
		if (ops->ctl_tick)
			ev_set(s, ent_ctl(s, i), s->now);
	}
	return 0;
}

/* An option changes mid-run (--change); the traffic picks up its rate. */
static void apply_change(struct sim *s, const struct sim_change *ch)
{
	unsigned int p;

	if (opt_apply(&s->c, ch->opt, ch->val))
		return;
	/* PCIe stays on or off; --pcie-gbps 0 mid-run is an unlimited link. */
	sim_derive(s);
	for (p = 0; p < s->c.ports; p++)
		traffic_retune(&s->port[p].tr);
}

int sim_run(const struct sim_cfg *c, struct sim_res *r)
{
	struct sim *s = calloc(1, sizeof(*s));
	u64 warm, stall;
	struct timespec t0, t1, c0, c1;
	unsigned int e, nch = 0;
	int err;

	if (!s)
		return -ENOMEM;
	if (!sim_cfg_check(c, stderr)) {
		free(s);
		return -EINVAL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	s->c = *c;
	err = sim_setup(s);
	if (err) {
		sim_free(s);
		return err;
	}
	/* Setup is free; from here the model code costs (sync_note()). */
	rxb_shim_sink = &s->sink;
	warm = (u64)(c->warmup * c->packets);
	stall = (u64)(c->start_stall * c->packets);
	s->stalled = stall > 0;
	if (!warm)
		measure_start(s);
	while (s->arrived < c->packets && s->nheap) {
		if (s->stalled && s->arrived >= stall)
			stall_release(s);
		if (nch < c->nchange &&
		    s->arrived >= (u64)(c->change[nch].at * c->packets))
			apply_change(s, &c->change[nch++]);
		e = s->heap[0];
		s->now = s->key[e];
		s->events++;
		if (s->held_head != s->held_tail)
			held_release(s);
		mem_tick(s);
		if (e < c->ports) {
			arrival_event(s, &s->port[e]);
			if (!s->measuring && s->arrived >= warm)
				measure_start(s);
		} else if (e < 2 * c->ports) {
			timer_event(s, &s->port[e - c->ports]);
		} else if (e < 3 * c->ports) {
			ctl_event(s, &s->port[e - 2 * c->ports]);
		} else if (e < 4 * c->ports) {
			dma_event(s, &s->port[e - 3 * c->ports]);
		} else if (e < 5 * c->ports) {
			tx_event(s, &s->port[e - 4 * c->ports]);
		} else if (e < 6 * c->ports) {
			doorbell_event(s, &s->port[e - 5 * c->ports]);
		} else if (e == 6 * c->ports) {
			fetch_event(s);
		} else {
			core_event(s, &s->core[e - 6 * c->ports - 1]);
		}
	}
	rxb_shim_sink = NULL;
	results(s, r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	r->wall_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->cpu_s = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9;
	sim_free(s);
	return 0;
}
