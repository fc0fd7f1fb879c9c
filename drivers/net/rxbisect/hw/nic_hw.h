/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated NIC's own state: what sits behind the registers of nic.h.
 * Included by the NIC's files only (nic*.c); the driver never sees it.
 *
 * The NIC is built from components, one file each, shared by every ring
 * model: the parser, RSS and the receive contexts (nic.c, rss.c), the
 * interrupt vectors with their moderation (nic_irq.c), the DMA engine with
 * the I/O working set tracker (nic_dma.c, wss.c) and the engine that runs
 * the receive pipeline (nic_engine.c), the flow table (nic_flow.c), the
 * ntuple steering rules (nic_ntuple.c) and the on-NIC memory tier
 * (nic_mem.c).
 */
#ifndef _RXB_NIC_HW_H
#define _RXB_NIC_HW_H

#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/skbuff.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rxbisect/rxb_hw_model.h>
#include "compat.h"	/* hrtimer_setup() before 6.13 */
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_wss.h>
#include <rxbisect/rxb_nicmem.h>
#include <rxbisect/rxb_nic.h>

struct rxb_tls_table;

/**
 * struct rxb_vector - one emulated MSI-X vector.
 * @flags: RXB_VEC_MASKED: raised and not yet re-armed by the driver;
 *	RXB_VEC_SENDING: an interrupt message is on its way to @cpu.
 * @cpu: affinity: the CPU the interrupt (and so the NAPI poll) runs on.
 * @in_flight: interrupt messages not yet fully handled (for teardown).
 * @events: interrupt moderation: events not yet signalled since the
 *	driver last re-armed the vector.
 * @irqs: interrupt messages sent; written by the sender holding
 *	RXB_VEC_SENDING.
 * @csd: the inter-processor message that carries the interrupt.
 * @isr: the driver's interrupt handler (the MSI-X table entry), run in
 *	hard-IRQ context on @cpu.
 * @isr_arg: argument of @isr.
 * @timer: interrupt moderation: fires rx-usecs after the first event
 *	not yet signalled.
 * @nic: owner.
 */
struct rxb_vector {
	unsigned long flags;
	int cpu;
	atomic_t in_flight;
	atomic_t events;
	u64 irqs;
	call_single_data_t csd;
	void (*isr)(void *arg);
	void *isr_arg;
	struct hrtimer timer;
	struct rxb_nic *nic;
};

#define RXB_VEC_MASKED	0
#define RXB_VEC_SENDING	1

/**
 * struct rxb_engine_pipe - one of the NIC's packet-processing pipelines: a
 * kernel thread pinned to one CPU that takes arriving frames from its
 * lock-free ingress FIFO and runs the receive pipeline on them, like the
 * seeds' emulator core.
 * @task: the thread.
 * @eng: the engine it belongs to.
 * @ingress: frames from the wire (multi-producer llist, lock-free).
 * @len: frames in @ingress.
 * @cpu: the CPU the thread is bound to.
 * @idx: its index in @eng->pipe, which counts its frames in
 *	&rxb_nic.pipe_stats[@idx].
 */
struct rxb_engine_pipe {
	struct task_struct *task;
	struct rxb_engine *eng;
	struct llist_head ingress;
	atomic_t len;
	int cpu;
	unsigned int idx;
} ____cacheline_aligned_in_smp;

/**
 * struct rxb_engine - the NIC's dedicated engine: @n pipelines on CPUs
 * @pipe[0].cpu to @pipe[0].cpu + @n - 1 (the engine and engines
 * parameters).  Receive queue q belongs to pipeline q mod @n: the port's
 * front end steers each frame into the FIFO of its queue's pipeline
 * (rxb_nic_steer()), so that one pipeline processes every frame of a
 * queue, in order.  Pipeline 0 also does the transmit work and serves the
 * doorbells it is woken for.
 * @nic: its NIC.
 * @n: pipelines, 1 to RXB_MAX_ENGINES.
 * @pipe: the pipelines.
 */
struct rxb_engine {
	struct rxb_nic *nic;
	unsigned int n;
	struct rxb_engine_pipe pipe[];
};

/**
 * struct rxb_nic_rxd - the receive front end's result for a frame, in its
 * skb->cb while it waits in a pipeline's ingress FIFO (several engine
 * pipelines: rxb_nic_steer()).
 * @t: the parser's flow key.
 * @hash: the RSS hash.
 * @hash_flags: RXB_CQE_F_L4_HASH / RXB_CQE_F_L3_HASH, or 0.
 * @q: the queue chosen, by an ntuple rule or RSS.
 * @flags: RXB_NIC_RXD_*.
 */
struct rxb_nic_rxd {
	struct rxb_nic_tuple t;
	u32 hash;
	u8 hash_flags;
	u8 q;
	u8 flags;
};

#define RXB_NIC_RXD_VALID	0x01	/* steered with a context enabled */
#define RXB_NIC_RXD_STEERED	0x02	/* by an ntuple rule (steered[q]) */

/**
 * struct rxb_nic_l4 - where a TCP or UDP frame's parts are
 *	(rxb_nic_parse_l4()), as byte offsets in the frame.
 * @family: 4 or 6.
 * @proto: IPPROTO_TCP or IPPROTO_UDP.
 * @l3: the IP header.
 * @l4: the TCP or UDP header.
 * @data: the payload.
 * @end: the IP packet's end.
 * @seq: TCP: the sequence number of the payload's first byte.
 */
struct rxb_nic_l4 {
	u8 family;
	u8 proto;
	u32 l3;
	u32 l4;
	u32 data;
	u32 end;
	u32 seq;
};

/**
 * struct rxb_flow_ent - one entry of the flow table.
 * @key: the flow's 5-tuple.
 * @first_ns: when the entry was learned.
 * @last_ns: when its last frame arrived.
 * @packets: frames of the flow since it was learned.
 * @bytes: their bytes.
 * @next: next entry of its hash chain, or of the free list;
 *	RXB_FLOW_NONE ends either.
 * @live: the entry holds a flow.
 */
struct rxb_flow_ent {
	struct rxb_nic_tuple key;
	u64 first_ns;
	u64 last_ns;
	u64 packets;
	u64 bytes;
	u32 next;
	bool live;
};

/**
 * struct rxb_flow_bucket - a hash chain of the flow table.
 * @lock: serialises lookups, learning and the sweep of the chain.
 * @head: first entry, or RXB_FLOW_NONE.
 */
struct rxb_flow_bucket {
	spinlock_t lock;	/* the chain */
	u32 head;
};

/**
 * struct rxb_flow_table - the NIC's exact-match flow table of a receive
 * context (nic_flow.c).
 * @ent: @cap entries; the index of an entry is the flow id models see.
 * @bkt: @nbkt hash chains.
 * @cap: entries.
 * @nbkt: chains, a power of two.
 * @idle_ns: an entry without a frame for this long is freed by the sweep.
 * @free_lock: protects @free_head, @active and the counters below.
 * @free_head: first free entry, or RXB_FLOW_NONE.
 * @active: entries holding a flow.
 * @learned: flows learned.
 * @expired: entries the sweep freed.
 * @untracked: frames of new flows that found the table full (not learned;
 *	the frame is delivered with RXB_FLOW_NONE).
 * @sweep: the NIC-side sweep, every @idle_ns / 4 while the context is
 *	enabled.
 * @ctx: owner.
 */
struct rxb_flow_table {
	struct rxb_flow_ent *ent;
	struct rxb_flow_bucket *bkt;
	u32 cap;
	u32 nbkt;
	u64 idle_ns;
	spinlock_t free_lock;	/* free list, counters */
	u32 free_head;
	u32 active;
	u64 learned;
	u64 expired;
	u64 untracked;
	struct delayed_work sweep;
	struct rxb_nic_ctx *ctx;
};

/**
 * struct rxb_ntuple_table - the rules, in location order (RCU: replaced
 * whole under RTNL, read by the receive pipeline).
 * @rcu: for kfree_rcu().
 * @n: rules.
 * @rule: @n rules, by increasing location, values pre-masked.
 */
struct rxb_ntuple_table {
	struct rcu_head rcu;
	unsigned int n;
	struct rxb_nic_ntuple rule[];
};

#define RXB_NTUPLE_NONE	0xfffffffeU	/* rxb_ntuple_match(): no rule */

/**
 * struct rxb_nic_pcie - a queue's interconnect counters, per direction.
 * @to_host_meta: descriptor, completion and notification bytes the NIC
 *	wrote to host memory.
 * @to_nic_desc: descriptor bytes the NIC read from host memory.
 * @to_nic_mmio: doorbell and register bytes the driver wrote (in their own
 *	cache line: the driver's CPU writes them, the NIC's the others).
 * @to_host_mmio: register and NIC memory bytes the driver read (MMIO
 *	reads, which the CPU waits for); the driver's line too.
 * @mmio_reads: those reads.
 * @to_nic_data: packet bytes the NIC read from host memory to transmit.
 */
struct rxb_nic_pcie {
	atomic64_t to_host_meta;
	atomic64_t to_nic_desc;
	struct {
		atomic64_t v;
	} ____cacheline_aligned_in_smp to_nic_mmio;
	struct {
		atomic64_t v;
	} to_host_mmio, mmio_reads;
	atomic64_t to_nic_data;
};

/**
 * struct rxb_hds_req - a FETCH command in the memory tier's fetch engine.
 * @f: the fetch.
 * @ctx: its context.
 * @q: its queue.
 * @page: the payload's NIC page.
 * @handle: the payload.
 * @release: release it once fetched.
 */
struct rxb_hds_req {
	struct rxb_nicmem_fetch f;
	struct rxb_nic_ctx *ctx;
	unsigned int q;
	struct page *page;
	u32 handle;
	bool release;
};

/**
 * struct rxb_hds_q - the NIC's side of a queue's nicmem command ring.
 * @lock: the ring's execution (doorbell service).
 * @ring: the ring in host memory (its bus address, mapped), or NULL.
 * @req: per entry, its FETCH in flight.
 * @mask: entries - 1.
 * @head: next entry the NIC executes (free-running).
 */
struct rxb_hds_q {
	spinlock_t lock;	/* the ring's execution */
	struct rxb_nmc_desc *ring;
	struct rxb_hds_req *req;
	u32 mask;
	u32 head;
};

/**
 * struct rxb_hds - the header/data split of a receive context (nic_hds.c).
 * @on: split mode (fixed for the context's life).
 * @bh: the command processor (rxb_hds_bh()).
 * @todo: queues whose command ring the driver rang.
 * @xa: payloads in NIC memory: handle -> the NIC page holding the frame
 *	(page_private: header length << 16 | payload length).
 * @q: command rings, per queue.
 * @frames: see struct rxb_nic_hds_counters, as are the counters below.
 * @host_bytes: counter.
 * @nic_bytes: counter.
 * @fetch_bytes: counter.
 * @tx_frames: counter.
 * @tx_nic_bytes: counter.
 * @tx_host_bytes: counter.
 * @fallback: counter.
 * @whole: counter.
 * @held: counter.
 * @cmd_errors: counter.
 * @reclaimed: counter.
 */
struct rxb_hds {
	bool on;
	struct tasklet_struct bh;
	unsigned long todo;
	struct xarray xa;
	struct rxb_hds_q q[RXB_MAX_QUEUES];
	atomic64_t frames;
	atomic64_t host_bytes;
	atomic64_t nic_bytes;
	atomic64_t fetch_bytes;
	atomic64_t tx_frames;
	atomic64_t tx_nic_bytes;
	atomic64_t tx_host_bytes;
	atomic64_t fallback;
	atomic64_t whole;
	atomic64_t held;
	atomic64_t cmd_errors;
	atomic64_t reclaimed;
};

/**
 * struct rxb_nic_ctx - a receive context: the NIC's state of one ring
 * configuration.
 * @nic: owner.
 * @hwm: the ring model's hardware half, created with the context.
 * @bar: the context's register space: page 0 and the model's pages.
 * @bar_mem: its memory (vmalloc_user(): pages a driver may map).
 * @bar_size: its bytes.
 * @live: enabled: the hardware half started, doorbells served.
 * @db_bh: inline engine: the doorbell service a kick schedules (softirq
 *	context of the kicking CPU).
 * @nqueues: its queues.
 * @timer: the NIC's timer, for models that ask for one (arm_timer).
 * @fetch_timer: the timer of the on-NIC memory tier's fetch engine.
 * @wss: the I/O working set tracker of the DMA engine.
 * @flows: the flow table.
 * @mem: the on-NIC memory tier.
 * @hds: the header/data split.
 * @rx_sge: segments per receive buffer (struct rxb_nic_ctx_cfg.rx_sge).
 * @utx: frames a ring model read from host memory to transmit
 *	(rxb_hw_ops.tx_read), until its tx_send puts them on the wire.
 * @ws_shift: log2 of the bytes the working set tracker counts as one
 *	buffer (struct rxb_nic_ctx_cfg.rx_buf_size, a page at most).
 */
struct rxb_nic_ctx {
	struct rxb_nic *nic;
	struct rxb_hw_model *hwm;
	struct rxb_bar bar;
	void *bar_mem;
	size_t bar_size;
	bool live;
	struct tasklet_struct db_bh;
	unsigned int nqueues;
	struct hrtimer timer;
	struct hrtimer fetch_timer;
	struct rxb_wss wss;
	struct rxb_flow_table flows;
	struct rxb_nicmem mem;
	struct rxb_hds hds;
	unsigned int rx_sge;
	struct sk_buff_head utx;
	unsigned int ws_shift;
};

/**
 * struct rxb_nic_txq - a transmit queue's registers.
 * @posted: frames the driver posted (rxb_nic_tx_post()): the producer
 *	index, written under the queue's xmit lock.
 * @done: frames the NIC completed (sent, or dropped and counted): the
 *	consumer index, written under &struct rxb_nic.tx_lock, with release.
 * @engine: frames the engine thread took (ethtool -S tx<q>_engine), from
 *	the driver's posts and from the queue's XDP Tx ring.
 * @drops: frames the Tx engine dropped (its TSO failed, an XDP Tx
 *	descriptor it could not send), in tx<q>_drops.
 * @xring: the XDP Tx ring's base register (struct rxb_xdp_txd, in host
 *	memory), or NULL: none (rxb_nic_xdpq_set()).
 * @xwb: where the NIC writes back its head index of the XDP Tx ring
 *	(host memory).
 * @xmask: the XDP Tx ring's size, a power of two, minus one.
 * @xtail: the XDP Tx ring's tail register, free-running: the doorbell
 *	(rxb_nic_xdpq_doorbell()), written under the queue's xmit lock.
 * @xhead: the descriptors of the XDP Tx ring the NIC completed,
 *	free-running; written under &struct rxb_nic.tx_lock.
 */
struct rxb_nic_txq {
	u32 posted;
	u32 done;
	atomic64_t engine;
	atomic64_t drops;
	const struct rxb_xdp_txd *xring;
	__le32 *xwb;
	u32 xmask;
	u32 xtail;
	u32 xhead;
} ____cacheline_aligned_in_smp;

#define RXB_NIC_TXD_TLS	0x01	/* the TLS engine first (struct rxb_tls_txd) */
#define RXB_NIC_TXD_TSTAMP	0x02	/* stamp it when it leaves (@ts_tag) */

/**
 * struct rxb_nic_txd - what the transmit doorbell stores of a posted frame,
 * in its control block.
 * @tls: the driver's TLS descriptor, with %RXB_NIC_TXD_TLS.
 * @flags: RXB_NIC_TXD_*.
 * @bytes: what its completion reports, as the driver posted it.
 * @ts_tag: with %RXB_NIC_TXD_TSTAMP: the tag of its timestamp write-back.
 */
struct rxb_nic_txd {
	struct rxb_tls_txd tls;
	u32 flags;
	u32 bytes;
	u32 ts_tag;
};

/**
 * struct rxb_nic_clock - the NIC's clock (nic_ptp.c).
 * @lock: readers retry over a write of the fields below.
 * @base_raw: CLOCK_MONOTONIC_RAW when the time or the rate was last set.
 * @base_ns: the clock's time then.
 * @mult: its rate against the raw clock, 32.32 fixed point.
 */
struct rxb_nic_clock {
	seqlock_t lock;	/* the fields below */
	u64 base_raw;
	u64 base_ns;
	u64 mult;
};

/**
 * struct rxb_rss_table - the registers of one RSS context.
 * @indir: indirection table: hash % RXB_RSS_INDIR_SIZE -> queue.
 * @key: Toeplitz key.
 * @on: programmed (context 0 always is); written after the table and the
 *	key (release), read before them (acquire).
 */
struct rxb_rss_table {
	u32 indir[RXB_RSS_INDIR_SIZE];
	u8 key[RXB_RSS_KEY_SIZE];
	bool on;
};

/**
 * struct rxb_nic - one port's emulated NIC.
 * @dev: the net device the NIC is wired to; names its trace events and
 *	its engine thread, nothing else.
 * @rss: the RSS contexts' registers, RXB_RSS_CTX_MAX of them: context 0
 *	for every frame no ntuple rule sends to another one.
 * @rss_fields: RSS hash input fields (RXB_RSS_F_*) per flow type (enum
 *	rxb_rss_flow_type); other IP frames hash both addresses.
 * @max_frame: largest frame accepted, in bytes (MTU plus L2 headers).
 * @rx_csum: the DMA engine reports each frame's checksum.
 * @coal_usecs: interrupt moderation register (ethtool rx-usecs): a vector
 *	signals at the latest this long after its first unsignalled event.
 * @coal_frames: interrupt moderation register (ethtool rx-frames): a
 *	vector signals once this many events are unsignalled.  Both 0:
 *	every event is signalled at once.
 * @dma_fail: fault knob: per mille of DMA writes that fail; the completion
 *	carries RXB_CQE_F_DMA_ERR.
 * @engine_stall: fault knob: the receive engine is frozen; arriving frames
 *	wait in its ingress FIFO (up to RXB_ENGINE_FIFO, then dropped).
 * @ctx: the enabled receive context, or NULL (RCU).
 * @q_off: queue enable registers, inverted: bit q set, queue q disabled
 *	(rxb_nic_queue_enable()).
 * @engine: the dedicated engine, or NULL: inline (RCU).
 * @vec: interrupt vectors, one per queue.
 * @max_bh_batch: most frames the engine or a stall's end processed in one
 *	section with bottom halves disabled (at most RXB_NIC_BH_BATCH).
 * @runt_drops: see struct rxb_nic_counters.
 * @oversize_drops: see struct rxb_nic_counters.
 * @stopped_drops: see struct rxb_nic_counters.
 * @fifo_drops: see struct rxb_nic_counters.
 * @pipe_stats: per engine pipeline (struct rxb_engine_pipe.idx): frames
 *	it processed and frames its full ingress FIFO dropped, a cache line
 *	each; they sum to engine_frames and, with the inline engine's stall
 *	drops, fifo_drops (struct rxb_nic_counters).
 * @stall_frames: see struct rxb_nic_counters.
 * @dma_faults: see struct rxb_nic_counters.
 * @held: inline engine: frames held while it is stalled, in order; its
 *	lock also orders the stall's end against arriving frames.
 * @ntuple: the ntuple steering rules, or NULL (RCU; written under RTNL).
 * @ntuple_drops: frames a drop rule discarded.
 * @dma_bytes: bytes the DMA engine wrote, per queue, a cache line each.
 * @steered: frames an ntuple rule sent to each queue, a cache line each.
 * @pcie: interconnect counters per queue.
 * @wire_xmit: the port's wire, where the NIC's own TX sends (the
 *	header/data split's TX commands); set by the driver.
 * @wire_arg: its argument.
 * @tx_done: the driver's transmit completion (rxb_nic_set_tx_done()).
 * @tx_done_arg: its argument.
 * @egress: frames the driver posted to the Tx engine, oldest last
 *	(multi-producer llist): plain frames and those of the TLS engine.
 * @tx_lock: serialises the Tx engine's runs over @egress (an engine
 *	thread, the one it replaces, a stop's drain, @tx_work), so that the
 *	frames of a queue leave in the order they were posted.
 * @tx_work: runs the Tx engine while frames are posted with no engine
 *	thread (just after one stopped).
 * @xdp_db: the XDP Tx rings whose doorbell rang since the Tx engine last
 *	looked, bit q for queue q.
 * @txq: the transmit queues' registers.
 * @tls: the kTLS offload's context table (nic_tls.c).
 * @clk: the clock the timestamp unit reads (nic_ptp.c).
 * @tx_ts_addr: transmit timestamp write-back register: bus address of the
 *	driver's struct rxb_tx_tstamp, or 0.
 * @tx_tstamps: transmit stamps written (ethtool -S tx_hwtstamps).
 * @rx_tstamp: receive-stamp register: the timestamp unit stamps arriving
 *	frames (rxb_nic_set_rx_tstamp()).
 */
struct rxb_nic {
	struct net_device *dev;
	struct rxb_rss_table *rss;
	u8 rss_fields[RXB_RSS_FT_NUM];
	u32 max_frame;
	bool rx_csum;
	u32 coal_usecs;
	u32 coal_frames;
	u32 dma_fail;
	u32 engine_stall;
	struct rxb_nic_ctx __rcu *ctx;
	unsigned long q_off;
	struct rxb_engine __rcu *engine;
	struct rxb_vector vec[RXB_MAX_QUEUES];
	atomic_t max_bh_batch;
	atomic64_t runt_drops;
	atomic64_t oversize_drops;
	atomic64_t stopped_drops;
	atomic64_t fifo_drops;
	struct {
		atomic64_t frames;
		atomic64_t fifo_drops;
	} ____cacheline_aligned_in_smp pipe_stats[RXB_MAX_ENGINES];
	atomic64_t stall_frames;
	atomic64_t dma_faults;
	struct sk_buff_head held;
	struct rxb_ntuple_table __rcu *ntuple;
	atomic64_t ntuple_drops;
	struct {
		atomic64_t v;
	} ____cacheline_aligned_in_smp dma_bytes[RXB_MAX_QUEUES];
	struct {
		atomic64_t v;
	} ____cacheline_aligned_in_smp steered[RXB_MAX_QUEUES];
	struct rxb_nic_pcie pcie[RXB_MAX_QUEUES] ____cacheline_aligned_in_smp;
	void (*wire_xmit)(void *arg, unsigned int q,
			  struct sk_buff_head *frames);
	void *wire_arg;
	void (*tx_done)(void *arg, unsigned int q, unsigned int frames,
			unsigned int bytes);
	void *tx_done_arg;
	struct llist_head egress;
	struct mutex tx_lock;	/* the Tx engine's runs */
	struct work_struct tx_work;
	unsigned long xdp_db;
	struct rxb_nic_txq txq[RXB_MAX_QUEUES];
	struct rxb_tls_table *tls;
	struct rxb_nic_clock clk;
	u64 tx_ts_addr;
	atomic64_t tx_tstamps;
	bool rx_tstamp;
};

/**
 * struct rxb_nic_frame - a frame inside the NIC.
 * @f: what the parser found, as the ring model sees it.
 * @q: the queue RSS chose (the DMA engine counts its bytes per queue).
 */
struct rxb_nic_frame {
	struct rxb_frame f;
	unsigned int q;
};

/* nic.c */
void rxb_nic_receive(struct rxb_nic *nic, struct sk_buff *skb, bool steered);
int rxb_nic_steer(struct rxb_nic *nic, struct sk_buff *skb);
void rxb_nic_doorbells(struct rxb_nic_ctx *ctx);
void rxb_nic_irq_event(struct rxb_nic_ctx *ctx, unsigned int q);
bool rxb_nic_doorbells_pending(struct rxb_nic *nic);
void rxb_nic_serve_doorbells(struct rxb_nic *nic);
void rxb_nic_bh_batch(struct rxb_nic *nic, int n);

/* nic_irq.c */
void rxb_vec_init(struct rxb_nic *nic, struct rxb_vector *vec);
void rxb_vec_event(struct rxb_vector *vec, u32 frames, u32 usecs);

/* nic_dma.c */
/* The DMA engine wrote @len bytes at host bus address @addr: into the
 * context's I/O working set, a buffer each 1 << ws_shift bytes, the size
 * the driver set for its buffers (wss.c): two 2 KiB buffers in a page
 * are two buffers.
 */
static inline void rxb_nic_ws_write(struct rxb_nic_ctx *ctx, u64 addr, u32 len)
{
	rxb_wss_record(&ctx->wss, (addr >> ctx->ws_shift) + 1,
		       addr & (BIT_ULL(ctx->ws_shift) - 1), len);
}

void rxb_nic_tx_wire(struct rxb_nic *nic, unsigned int q,
		     struct sk_buff_head *out);
u8 rxb_nic_dma_write(void *hw, const struct rxb_frame *f, u64 addr,
		     u32 *csum);
void rxb_nic_nicmem_write(void *hw, const struct rxb_frame *f, u64 addr,
			  u32 off);
u8 rxb_nic_dma_xfer(struct rxb_nic *nic, const struct rxb_frame *f, u8 *dst,
		    u32 *csum);
u8 rxb_nic_dma_host(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
		    u64 addr, u32 *csum);
extern const struct rxb_hw_ring_ops rxb_nic_ring_ops;

/* nic_hds.c */
void rxb_nic_hds_init(struct rxb_nic_ctx *ctx, bool on);
void rxb_nic_hds_fini(struct rxb_nic_ctx *ctx);
u8 rxb_nic_hds_write(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
		     u64 addr, u32 *csum);
void rxb_nic_hds_counters(struct rxb_nic_ctx *ctx,
			  struct rxb_nic_hds_counters *c);
int rxb_nic_hds_load(struct rxb_nic_ctx *ctx);
void rxb_nic_hds_doorbell(void *arg, u32 page);

/* nic_engine.c */
void rxb_nic_tx_init(struct rxb_nic *nic);
void rxb_nic_engine_fini(struct rxb_nic *nic);

/* nic_ptp.c */
void rxb_nic_clock_init(struct rxb_nic *nic);

/* nic_tls.c */
int rxb_nic_tls_init(struct rxb_nic *nic, u32 size);
void rxb_nic_tls_fini(struct rxb_nic *nic);
void rxb_nic_tls_rx(struct rxb_nic *nic, struct sk_buff *skb,
		    const struct rxb_nic_tuple *key, struct rxb_frame *f,
		    unsigned int q);
void rxb_nic_tls_tx(struct rxb_nic *nic, struct sk_buff *skb,
		    struct sk_buff_head *out);

/* rss.c */
void rxb_nic_parse(const u8 *frame, unsigned int len,
		   struct rxb_nic_tuple *t);
u32 rxb_rss_hash(const u8 *key, const struct rxb_nic_tuple *t, u8 fields,
		 u8 *hash_flags);
bool rxb_nic_parse_l4(const struct sk_buff *skb, struct rxb_nic_l4 *s);

/* nic_flow.c */
int rxb_flow_init(struct rxb_flow_table *ft, struct rxb_nic_ctx *ctx,
		  u32 cap, u32 idle_ms);
void rxb_flow_fini(struct rxb_flow_table *ft);
void rxb_flow_start(struct rxb_flow_table *ft);
void rxb_flow_stop(struct rxb_flow_table *ft);
u32 rxb_flow_lookup(struct rxb_flow_table *ft, const struct rxb_nic_tuple *t,
		    unsigned int len, bool *is_new);
void rxb_flow_counters(struct rxb_flow_table *ft, struct rxb_nic_counters *c);

/* nic_ntuple.c */
u32 rxb_ntuple_match(struct rxb_nic *nic, const struct rxb_nic_tuple *t,
		     u8 *rss_ctx);
void rxb_ntuple_fini(struct rxb_nic *nic);

#endif /* _RXB_NIC_HW_H */
