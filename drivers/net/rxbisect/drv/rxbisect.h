/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect: an emulated multi-queue NIC with pluggable receive-ring models.
 *
 * This is the driver's header.  Two halves, kept apart as a datasheet
 * would keep them:
 *  - nic*.c, rss.c, wss.c and each model's hardware half: the emulated
 *    hardware, whose state is in nic_hw.h and whose registers nic.h
 *    describes;
 *  - everything else: the driver.  It builds rings through the ring-model
 *    interface, runs NAPI and page_pool, and talks to the NIC only through
 *    ring memory and the registers of nic.h.
 */
#ifndef _RXBISECT_H
#define _RXBISECT_H

#include <linux/device.h>
#include <linux/workqueue.h>
#include <net/devlink.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/u64_stats_sync.h>
#include <linux/if_vlan.h>
#include <linux/ptp_clock_kernel.h>
#include <linux/bpf.h>
#include <net/xdp.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_topo.h>
#include "compat.h"
#include <rxbisect/rxb_nic.h>
#include "rxb_params.h"

#define RXB_DRV_NAME		"rxbisect"
#define RXB_DRV_VERSION		"0.1"
#define RXB_NAPI_BUDGET		64
#define RXB_DEF_RING_SIZE	1024
#define RXB_DEF_TX_RING_SIZE	1024

/* Rx buffer layouts (struct rxb_buf_layout, rx.c).  Half a page: a
 * 2 KiB page_pool fragment per buffer, two to a 4 KiB page, as ice, i40e
 * and mlx5's legacy RQ post at MTU 1500: RXB_RX_HALF_HEADROOM bytes of
 * headroom, RXB_RX_HALF_LEN of frame (MTU up to RXB_HALF_MTU), the
 * skb_shared_info a build_skb() puts at its end.  XDP's full
 * XDP_PACKET_HEADROOM (256) does not fit beside a 1518-byte frame there
 * (2048 - 256 - 320 = 1472): as i40e, the half-page headroom is what is
 * left, 192 bytes, for XDP programs too (a native XDP driver may give
 * less than 256; bpf_xdp_adjust_head() can grow 192).  A whole page:
 * XDP_PACKET_HEADROOM, frames up to RXB_RX_BUF_LEN (MTU up to
 * RXB_LINEAR_MTU), for larger MTUs and for the models that keep whole
 * pages.  Longer frames take scatter buffers of several order-0 pages, or
 * larger pages for the models that need contiguous buffers.
 */
#define RXB_RX_HEADROOM		XDP_PACKET_HEADROOM
#define RXB_RX_TAILROOM		SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
#define RXB_RX_BUF_LEN		(PAGE_SIZE - RXB_RX_HEADROOM - RXB_RX_TAILROOM)
#define RXB_LINEAR_MTU		(RXB_RX_BUF_LEN - ETH_HLEN - VLAN_HLEN)
#define RXB_RX_HALF_SIZE	2048
#define RXB_RX_HALF_LEN		1536
#define RXB_RX_HALF_HEADROOM	(RXB_RX_HALF_SIZE - RXB_RX_TAILROOM - \
				 RXB_RX_HALF_LEN)
#define RXB_HALF_MTU		(RXB_RX_HALF_LEN - ETH_HLEN - VLAN_HLEN)
#define RXB_MAX_MTU		9000	/* jumbo frames */
#define RXB_MAX_FRAME		(RXB_MAX_MTU + ETH_HLEN + VLAN_HLEN)

/**
 * struct rxb_buf_layout - the receive buffers of a configuration.
 * @order: page order of the queues' page_pools.
 * @segs: pages per buffer: 1, or a scatter buffer of that many order-0
 *	pages (struct rxb_rx_sgl in the first page's headroom; rxb_desc.h).
 * @len: bytes the NIC may write into a buffer (rxb_model_cfg.buf_len).
 * @size: bytes of a buffer (of its first page for a scatter buffer), from
 *	its start to the end of its skb_shared_info: RXB_RX_HALF_SIZE, a
 *	page_pool fragment, or PAGE_SIZE << @order.  A power of two; each
 *	buffer starts at a multiple of it.
 * @headroom: bytes before the frame in a buffer.
 */
struct rxb_buf_layout {
	unsigned int order;
	unsigned int segs;
	unsigned int len;
	unsigned int size;
	unsigned int headroom;
};

/**
 * struct rxb_fault - the driver's fault injection knobs of a port (debugfs
 * fault/; the NIC's are behind nic.h).
 * @alloc_fail: per mille of buffer allocations that fail, as page_pool's
 *	would under memory pressure.
 * @reconfig_fail: every reconfiguration of the port fails at this step
 *	(enum rxb_reconfig_step); 0: none.
 */
struct rxb_fault {
	u32 alloc_fail;
	u32 reconfig_fail;
};

/**
 * enum rxb_reconfig_step - steps of a reconfiguration that can fail
 * (debugfs fault/reconfig_fail).
 * @RXB_RF_NONE: no failure.
 * @RXB_RF_RINGS: building the new receive configuration as a whole.
 * @RXB_RF_POOL: the page_pool of the last new queue (earlier queues have
 *	their pool and NAPI instance already).
 * @RXB_RF_MODEL: the ring model's create.
 * @RXB_RF_QUEUES: growing the stack's queue count.
 * @RXB_RF_ENGINE: starting the NIC's engine thread.
 * @RXB_RF_XDP_MEM: registering the XDP memory model of a queue's buffers
 *	(every queue of new rings; a single queue restart's new pool).
 * @RXB_RF_NSTEPS: number of steps, plus one.
 */
enum rxb_reconfig_step {
	RXB_RF_NONE,
	RXB_RF_RINGS,
	RXB_RF_POOL,
	RXB_RF_MODEL,
	RXB_RF_QUEUES,
	RXB_RF_ENGINE,
	RXB_RF_XDP_MEM,
	RXB_RF_NSTEPS
};

/* Should this reconfiguration step fail (fault/reconfig_fail)? */
static inline bool rxb_fault_step(const struct rxb_fault *f,
				  enum rxb_reconfig_step step)
{
	return unlikely(READ_ONCE(f->reconfig_fail) == step);
}

/* ---- driver ---------------------------------------------------------- */

/* The ring-model parameters (struct rxb_model_cfg is what a model sees of
 * them): a field per entry of rxb_param_list.h, named as the parameter
 * and described there; each in an anonymous struct of its own, so that an
 * entry makes one declaration whatever its type.
 */
struct rxb_mparams {
#define RXB_PARAM(name, type, lim, def, check)				\
	struct { __typeof__(RXB_PARAM_CTYPE_##type) name; };
#include "rxb_param_list.h"
};

/**
 * struct rxb_cfg - receive configuration chosen by the user.
 * @model: ring model.
 * @nqueues: receive (and transmit) queues in use.
 * @rx_ring_size: entries per Rx ring / completion ring / Bx ring.
 * @tx_ring_size: reported Tx ring size (the Tx engine is synchronous).
 * @mtu: the port's MTU, which sizes the receive buffers.
 * @mp: model parameters.
 * @rx_tstamp: receive stamps (hwtstamp rx_filter other than NONE): the
 *	rings are built with stamp rings (struct rxb_model_cfg.rx_tstamp).
 * @xdp: an XDP program is attached: on kernels that need it
 *	(RXB_XDP_WHOLE_PAGES) the buffers are whole pages.
 */
struct rxb_cfg {
	const struct rxb_model_ops *model;
	u32 nqueues;
	u32 rx_ring_size;
	u32 tx_ring_size;
	u32 mtu;
	struct rxb_mparams mp;
	bool rx_tstamp;
	bool xdp;
};

/**
 * rxb_cfg_pipes() - the pipelines of the dedicated engine @cfg runs.
 * @cfg: configuration.
 *
 * Return: the engines parameter, at most one per queue; 0: inline.
 */
static inline u32 rxb_cfg_pipes(const struct rxb_cfg *cfg)
{
	return cfg->mp.engine ? min(cfg->mp.engines, cfg->nqueues) : 0;
}

/**
 * enum rxb_xdp_stat - a receive queue's XDP counters (xdp.c; ethtool -S
 * rx<q>_xdp_<name>).
 * @RXB_XDP_PASS: packets the program passed to the stack.
 * @RXB_XDP_DROP: packets it dropped (their pages recycled).
 * @RXB_XDP_TX: packets it sent back out of the port.
 * @RXB_XDP_TX_ERRORS: XDP_TX verdicts that could not be sent (dropped).
 * @RXB_XDP_REDIRECT: packets redirected (xdp_do_redirect() accepted).
 * @RXB_XDP_REDIRECT_ERRORS: redirects refused (dropped).
 * @RXB_XDP_ABORTED: XDP_ABORTED and invalid verdicts (xdp_exception
 *	tracepoint; dropped).
 * @RXB_XDP_COPIES: packets copied out of a buffer shared with other
 *	packets (shRing-batched) into a page of their own, so that the
 *	program gets headroom and tailroom; and packets of a zero-copy
 *	AF_XDP queue copied out of their umem buffer into an skb (XDP_PASS,
 *	or no program).
 * @RXB_XDP_NM_REDIRECT: redirected packets of the NIC's header/data split
 *	whose payload stayed in NIC memory (hds.c), of @RXB_XDP_REDIRECT.
 * @RXB_XDP_NM_REDIRECT_BYTES: their payload bytes.
 * @RXB_XDP_NSTATS: number of counters.
 */
enum rxb_xdp_stat {
	RXB_XDP_PASS,
	RXB_XDP_DROP,
	RXB_XDP_TX,
	RXB_XDP_TX_ERRORS,
	RXB_XDP_REDIRECT,
	RXB_XDP_REDIRECT_ERRORS,
	RXB_XDP_ABORTED,
	RXB_XDP_COPIES,
	RXB_XDP_NM_REDIRECT,
	RXB_XDP_NM_REDIRECT_BYTES,
	RXB_XDP_NSTATS
};

/**
 * struct rxb_rxq_stats - a receive queue's driver counters.
 * @packets: packets handed to the stack (napi_gro_receive()).
 * @bytes: their bytes, Ethernet header included.
 * @skb_drops: packets dropped because no skb could be allocated.
 * @dma_errors: completions with RXB_CQE_F_DMA_ERR, dropped.
 * @polls_off_cpu: NAPI polls that ran on another CPU than the vector's.
 * @refill_backoffs: polls that could not refill the ring and backed off
 *	(NAPI completed, retried from a timer).
 * @xdp: XDP verdicts, enum rxb_xdp_stat.
 * @syncp: written by the queue's NAPI poll only, read on any CPU.
 */
struct rxb_rxq_stats {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t skb_drops;
	u64_stats_t dma_errors;
	u64_stats_t polls_off_cpu;
	u64_stats_t refill_backoffs;
	u64_stats_t xdp[RXB_XDP_NSTATS];
	struct u64_stats_sync syncp;
};

/**
 * struct rxb_qxstats - a snapshot of a receive queue's counters kept
 * outside the ring model (ethtool -S rx<q>_<name>).
 * @packets: packets handed to the stack (the rtnl rx_packets).
 * @bytes: their bytes (the rtnl rx_bytes).
 * @skb_drops: driver drops, no skb.
 * @dma_errors: driver drops, completions with a DMA error.
 * @irqs: interrupts the queue's vector sent.
 * @polls_off_cpu: NAPI polls that ran on another CPU than the vector's.
 * @refill_backoffs: polls that backed off after a failed refill.
 * @pp_fresh: pages the queue's page_pool took from the page allocator.
 * @pp_released: pages it gave back to the page allocator while running
 *	(a full recycle ring, or a page still referenced).
 * @pp_size: pages the live page_pool holds (its recycle ring); not
 *	cumulative, 0 while the port is down.
 * @xdp: XDP verdicts, enum rxb_xdp_stat.
 *
 * Every counter but @pp_size accumulates over reconfigurations.
 */
struct rxb_qxstats {
	u64 packets;
	u64 bytes;
	u64 skb_drops;
	u64 dma_errors;
	u64 irqs;
	u64 polls_off_cpu;
	u64 refill_backoffs;
	u64 pp_fresh;
	u64 pp_released;
	u64 pp_size;
	u64 xdp[RXB_XDP_NSTATS];
};

struct rxb_rx;
struct rxb_hds_rxq;

/**
 * struct rxb_rxq - driver state of one receive queue.
 * @napi: the queue's NAPI context.
 * @pp: the queue's page_pool: its own, or queue @pp_q's (shared).
 * @rx: the configuration this queue belongs to.
 * @qid: queue index.
 * @irq_cpu: the CPU programmed into the queue's vector.
 * @pp_size: pages @pp holds (see rxb_rx_pool_size()); 0 on a queue that
 *	uses another queue's pool.
 * @pp_q: the queue that created @pp and counts it (rxb_model_ops.pool_of).
 * @pp_shared: @pp is shared by several queues: nothing recycles into it
 *	directly, and it is linked to no NAPI instance.
 * @stats: driver counters.
 * @poll_pkts: packets handed to the stack during the current poll.
 * @poll_bytes: their bytes.
 * @poll_drops: packets the current poll dropped for want of an skb.
 * @refill_timer: retries a refill that failed (rxb_napi_poll()), and
 *	polls again while payloads are lent to redirected frames (hds.c).
 * @work_seed: state of the work knob's random cache-line walk.
 * @poll_xdp: XDP verdicts of the current poll (enum rxb_xdp_stat).
 * @poll_redirect: the current poll redirected a packet: xdp_do_flush().
 * @poll_no_direct: it redirected a packet of another queue's pool, whose
 *	page must not be recycled into that pool's NAPI cache from here.
 * @xdp_ntx: XDP_TX frames waiting in @xdp_tx.
 * @xdp_rxq: the queue's XDP receive info, with its pool's memory model.
 * @xdp_rxq_alt: the same for a packet of another queue's pool (shared
 *	rings): @xdp_rxq with that pool's memory model.
 * @xdp_tx: XDP_TX frames of the current batch, sent at its end.
 * @xsk: the xsk buffer pool of a zero-copy AF_XDP socket bound to the
 *	queue, or NULL: the queue's buffers then come from the socket's umem
 *	instead of @pp (xsk.c).  Set while the queue is stopped.
 * @xsk_live: the queue has started with @xsk: umem buffers may be posted
 *	(rxb_xsk_start()).
 * @hds: the header/data split's per-queue state (hds.c), or NULL when
 *	the NIC does not split.
 * @pkts: scratch array for the model's poll.
 */
struct rxb_rxq {
	struct napi_struct napi;
	struct page_pool *pp;
	struct rxb_rx *rx;
	unsigned int qid;
	int irq_cpu;
	unsigned int pp_size;
	unsigned int pp_q;
	bool pp_shared;
	struct rxb_rxq_stats stats;
	u32 poll_pkts;
	u32 poll_bytes;
	u32 poll_drops;
	struct timer_list refill_timer;
	u32 work_seed;
	u32 poll_xdp[RXB_XDP_NSTATS];
	bool poll_redirect;
	bool poll_no_direct;
	unsigned int xdp_ntx;
	struct xdp_rxq_info xdp_rxq;
	struct xdp_rxq_info xdp_rxq_alt;
	struct xdp_frame *xdp_tx[RXB_NAPI_BUDGET];
	struct xsk_buff_pool *xsk;
	bool xsk_live;
	struct rxb_hds_rxq *hds;
	struct rxb_pkt pkts[RXB_NAPI_BUDGET];
};

/**
 * struct rxb_rx - one live receive configuration: rings, vectors, queues.
 * @port: owner.
 * @model: ring-model instance (rings and their NIC-side state).
 * @ctx: the NIC's receive context of these rings.
 * @nqueues: queues.
 * @bl: the layout of its receive buffers.
 * @ctl_work: the driver's periodic control task, for models with one
 *	(rxb_model_ops.ctl_tick; ctl.c).
 * @rxq: per-queue driver state.
 */
struct rxb_rx {
	struct rxb_port *port;
	struct rxb_model *model;
	struct rxb_nic_ctx *ctx;
	unsigned int nqueues;
	struct rxb_buf_layout bl;
	struct delayed_work ctl_work;
	struct rxb_rxq rxq[];
};

/* Bytes of each buffer of @rx (struct rxb_buf_layout.size). */
static inline unsigned int rxb_rx_buf_size(const struct rxb_rx *rx)
{
	return rx->bl.size;
}

/* A buffer's handle (struct rxb_buf.cookie, not an AF_XDP one) is the
 * kernel address of its start: half a page or a whole (first) page.
 */
static inline void *rxb_buf_va(const void *cookie)
{
	return (void *)cookie;
}

/* The page_pool page a buffer is in (a fragment of). */
static inline struct page *rxb_buf_page(const void *cookie)
{
	return virt_to_head_page(cookie);
}

/**
 * struct rxb_qknobs - per-queue debug knobs (debugfs), kept across rebuilds.
 * @stall: when set, the queue's consumer does not consume.
 * @work: extra random cache-line touches per received packet.
 * @complete_delay: microseconds the queue's poll waits after completing
 *	NAPI, before its tail (vector unmask, ring recheck): widens the
 *	window in which a stop overlaps that tail (rxb_rx_stop()).
 * @irq_cpu: vector affinity; -1: queue i -> i-th online CPU.
 * @last_poll: jiffies when the queue's consumer last consumed (or 0).
 * @xsk_held: buffers of a zero-copy AF_XDP socket's umem the queue holds
 *	(posted, or written and not handed on): taken from the fill ring and
 *	neither given to the socket nor back to its pool (xsk.c; debugfs
 *	q<N>/xsk_held).  Written by the queue's poll, or with the queue
 *	stopped.
 * @port: owner.
 * @q: queue index.
 * @dir: debugfs directory q<N>.
 */
struct rxb_qknobs {
	u32 stall;
	u32 work;
	u32 complete_delay;
	int irq_cpu;
	unsigned long last_poll;
	u64 xsk_held;
	struct rxb_port *port;
	unsigned int q;
	struct dentry *dir;
};

/**
 * struct rxb_txq_stats - a transmit queue's counters.
 * @packets: frames put on the wire (after segmentation), or queued to
 *	the lower device.
 * @bytes: their bytes, Ethernet header included.
 * @drops: frames dropped: no peer, segmentation or checksum failure, or
 *	refused by the lower device.
 * @xdp_xmit: frames other devices redirected to this port (ndo_xdp_xmit)
 *	that it sent (also in @packets).
 * @xdp_xmit_errors: frames redirected to it that it could not send.
 * @stops: times the queue stopped: its Tx ring was full (engine thread).
 * @wakes: times the NIC's completions woke it.
 * @syncp: written by the queue's xmit only (Tx queue lock held, bottom
 *	halves off), read on any CPU.
 */
struct rxb_txq_stats {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t drops;
	u64_stats_t xdp_xmit;
	u64_stats_t xdp_xmit_errors;
	u64_stats_t stops;
	u64_stats_t wakes;
	struct u64_stats_sync syncp;
};

/**
 * struct rxb_txq_counts - a consistent snapshot of struct rxb_txq_stats.
 * @packets: see struct rxb_txq_stats.
 * @bytes: see struct rxb_txq_stats.
 * @drops: see struct rxb_txq_stats.
 * @xdp_xmit: see struct rxb_txq_stats.
 * @xdp_xmit_errors: see struct rxb_txq_stats.
 * @stops: see struct rxb_txq_stats.
 * @wakes: see struct rxb_txq_stats.
 * @engine: frames the NIC's engine thread sent (struct
 *	rxb_nic_txq_counters).
 * @inflight: frames posted to the NIC's Tx engine and not completed now
 *	(rxb_nic_tx_pending()).
 *
 * @drops includes the NIC's Tx engine's drops.
 */
struct rxb_txq_counts {
	u64 packets;
	u64 bytes;
	u64 drops;
	u64 xdp_xmit;
	u64 xdp_xmit_errors;
	u64 stops;
	u64 wakes;
	u64 engine;
	u64 inflight;
};

/* Count a frame of @len bytes sent by the Tx queue of @ts (its xmit). */
static inline void rxb_txq_sent(struct rxb_txq_stats *ts, unsigned int len)
{
	u64_stats_update_begin(&ts->syncp);
	u64_stats_inc(&ts->packets);
	u64_stats_add(&ts->bytes, len);
	u64_stats_update_end(&ts->syncp);
}

/* Count a frame the Tx queue of @ts dropped (its xmit). */
static inline void rxb_txq_drop(struct rxb_txq_stats *ts)
{
	u64_stats_update_begin(&ts->syncp);
	u64_stats_inc(&ts->drops);
	u64_stats_update_end(&ts->syncp);
}

struct rxb_port;

/**
 * struct rxb_tx_src - the frames of a burst for rxb_tx_burst().
 * @next: the next frame, as an skb whose data starts at its Ethernet
 *	header; NULL when there is none, or when the next one cannot be
 *	built (it and those after it stay the caller's); an ERR_PTR() for a
 *	frame taken but not built (counted as a drop, the burst goes on).
 * @post: or NULL: when the NIC's Tx engine reads the queue's XDP Tx ring
 *	(rxb_xdpq_async()), post the frames to it in order while they fit in
 *	@room descriptors; return the frames taken (the others stay the
 *	caller's).
 * @drain: with no wire, take the frames and drop them (counted) rather
 *	than leave them to the caller.
 * @flush: with @post, ring the XDP Tx ring's doorbell after the burst.
 * @xmit_n: the frames of an ndo_xdp_xmit call, or 0: those sent are
 *	counted in xdp_xmit, the others in xdp_xmit_errors.
 */
struct rxb_tx_src {
	struct sk_buff *(*next)(struct rxb_tx_src *src);
	unsigned int (*post)(struct rxb_tx_src *src, struct rxb_port *port,
			     unsigned int q, u32 room);
	bool drain;
	bool flush;
	unsigned int xmit_n;
};

/* Descriptors of each Tx queue's XDP Tx ring (struct rxb_xdpq); the ring
 * holds min(tx_ring_size, RXB_XDPQ_SIZE) frames' descriptors at once.
 */
#define RXB_XDPQ_SIZE	256

/* struct rxb_xdpq.buf of a zero-copy AF_XDP descriptor: its pool, tagged. */
#define RXB_XDPQ_XSK	1UL

/**
 * struct rxb_xdpq - the driver's half of a Tx queue's XDP Tx ring, which
 *	the NIC's Tx engine reads when an engine thread runs it (xdp.c).
 * @lock: serialises reclaims (the channel's NAPI poll, a teardown's).
 * @desc: the descriptors, in host memory the NIC reads.
 * @buf: per descriptor, what its completion gives back: the xdp_frame (on
 *	a frame's last descriptor), an AF_XDP pool tagged RXB_XDPQ_XSK (one
 *	xsk_tx_completed() each), or NULL.
 * @wb: the NIC's write-back of its head index: descriptors completed.
 * @prod: descriptors posted, free-running; under the queue's xmit lock.
 * @tail: the tail register as last written (the doorbell); ditto.
 * @clean: descriptors reclaimed, free-running; written under @lock with
 *	release, read by posters with acquire.
 */
struct rxb_xdpq {
	spinlock_t lock;	/* reclaims */
	struct rxb_xdp_txd *desc;
	void **buf;
	__le32 wb;
	u32 prod;
	u32 tail;
	u32 clean;
};

/**
 * struct rxb_ptp - a port's PTP hardware clock and hwtstamp state (ptp.c).
 * @info: the PHC's operations.
 * @clock: the registered PHC.
 * @port: owner.
 * @rec: the transmit stamp write-back record the NIC writes.
 * @rx_on: receive filter ALL: received frames carry their stamp.
 * @tx_on: transmit type ON: SKBTX_HW_TSTAMP frames get a stamp.
 * @lock: protects the fields below.
 * @tx_skb: the frame whose stamp is in flight, or NULL.
 * @tx_start: jiffies when it was posted.
 * @tag: its stamp request's tag.
 * @tx_stamps: stamps handed to sockets (ethtool -S tx_hwtstamps).
 * @tx_skipped: requests refused, a stamp in flight (tx_hwtstamp_skipped).
 * @tx_timeouts: requests given up (tx_hwtstamp_timeouts).
 */
struct rxb_ptp {
	struct ptp_clock_info info;
	struct ptp_clock *clock;
	struct rxb_port *port;
	struct rxb_tx_tstamp *rec;
	bool rx_on;
	bool tx_on;
	spinlock_t lock;	/* the transmit stamp in flight, counters */
	struct sk_buff *tx_skb;
	unsigned long tx_start;
	u32 tag;
	u64 tx_stamps;
	u64 tx_skipped;
	u64 tx_timeouts;
};

/* tls_resync: the index of "async" in its names. */
#define RXB_TLS_RESYNC_ASYNC	1

/* The kTLS offload's async resync, as the driver counts it. */
enum rxb_tls_async {
	RXB_TLS_ASYNC_START, RXB_TLS_ASYNC_END, RXB_TLS_ASYNC_SKIP,
	RXB_TLS_ASYNC_NUM
};

/**
 * struct rxb_port - one port of an rxbisect pair (netdev private data).
 * @dev: the net device.
 * @peer: the other port: what this port transmits arrives there.
 * @nic: this port's emulated NIC (registers of nic.h only).
 * @rx: live receive configuration, NULL while down (RCU).
 * @xdp_prog: the XDP program of every receive queue, or NULL (RCU; RTNL
 *	to change); kept across reconfigurations.
 * @lower: the device this port sits on ("ip link add link DEV"), whose
 *	wire it uses instead of a peer port (RCU; RTNL to change).
 * @xsk_pools: per receive queue, the xsk buffer pool of a zero-copy AF_XDP
 *	socket bound to it, DMA-mapped, or NULL (RTNL); kept across
 *	reconfigurations, which refuse a ring model that cannot use it.
 * @cfg: configuration applied at the next (re)start, under RTNL.
 * @stats_lock: protects @live and @qbase against folding.
 * @live: the configuration whose counters are still counting.
 * @qbase: counters of configurations already torn down, per queue.
 * @xbase: struct rxb_qxstats of torn-down configurations.
 * @flushed: frames the NIC wrote that were still in the rings when they
 *	were torn down (a reconfiguration, link down), freed unreceived.
 * @txs: per-Tx-queue counters, written under the Tx queue lock.
 * @xdpq: per Tx queue, its XDP Tx ring.
 * @knobs: per-queue debug knobs.
 * @fault: fault injection knobs.
 * @work_buf: memory the work knob touches.
 * @dbg_dir: debugfs directory of this port.
 * @tls_rx: the kTLS offload's RX contexts, by the NIC's id (RCU readers:
 *	the receive path's resync requests).
 * @tls_async: the async resync's requests started, ended and cancelled
 *	(enum rxb_tls_async; ethtool -S tls_resync_async_*).
 * @ptp: the PHC and the hwtstamp configuration.
 * @list: entry in the list of all ports, under RTNL.
 * @rdev: the bus device (devlink instance) owning the port, or NULL for
 *	ports created with "ip link add".
 * @index: the port's index in @rdev (0 or 1).
 */
struct rxb_port {
	struct net_device *dev;
	struct list_head list;
	struct rxb_dev *rdev;
	unsigned int index;
	struct net_device __rcu *peer;
	struct rxb_nic *nic;
	struct rxb_rx __rcu *rx;
	struct bpf_prog __rcu *xdp_prog;
	struct net_device __rcu *lower;
	struct xsk_buff_pool *xsk_pools[RXB_MAX_QUEUES];
	struct rxb_cfg cfg;

	spinlock_t stats_lock;	/* @live and @qbase */
	struct rxb_rx *live;
	struct rxb_qstats qbase[RXB_MAX_QUEUES];
	struct rxb_qxstats xbase[RXB_MAX_QUEUES];
	u64 flushed;
	struct rxb_txq_stats txs[RXB_MAX_QUEUES];
	struct rxb_xdpq xdpq[RXB_MAX_QUEUES];

	struct rxb_qknobs knobs[RXB_MAX_QUEUES];
	struct rxb_fault fault;
	u8 *work_buf;
	struct dentry *dbg_dir;
	struct xarray tls_rx;
	atomic64_t tls_async[RXB_TLS_ASYNC_NUM];
	struct rxb_ptp ptp;
};

#define RXB_WORK_BUF_SIZE	(4U << 20)

/**
 * struct rxb_bus_dev - a device on the rxbisect bus.
 * @dev: the device.
 * @id: its number (rxbisect<id>).
 * @list: entry in the bus's device list.
 * @rdev: its driver state (devlink private data).
 * @probe_err: what the driver's probe returned, for the device's creator.
 */
struct rxb_bus_dev {
	struct device dev;
	unsigned int id;
	struct list_head list;
	struct rxb_dev *rdev;
	int probe_err;
};

/**
 * enum rxb_health_kind - errors the driver sees and reports (health.c).
 * @RXB_HEALTH_DMA: a completion with the NIC's DMA error bit.
 * @RXB_HEALTH_ALLOC: a receive buffer (or a streaming model's skb) that
 *	could not be allocated.
 * @RXB_HEALTH_NKINDS: their number.
 */
enum rxb_health_kind {
	RXB_HEALTH_DMA,
	RXB_HEALTH_ALLOC,
	RXB_HEALTH_NKINDS
};

/**
 * struct rxb_health_ev - errors of one kind on one port, not yet reported.
 * @count: errors since the last report; any context.
 * @queue: the receive queue of the latest.
 * @reports: reports made (the health work only).
 * @last: jiffies of the last report (the health work only).
 */
struct rxb_health_ev {
	atomic_t count;
	u32 queue;
	u64 reports;
	unsigned long last;
};

/**
 * struct rxb_dev - an emulated dual-port NIC: devlink instance and ports.
 * @bdev: its bus device.
 * @ports: its two ports, cabled to each other.
 * @dl_ports: their devlink ports.
 * @stall_reporter: devlink health reporter of stalled queues.
 * @reporters: devlink health reporters of enum rxb_health_kind.
 * @watchdog: periodic stall check.
 * @stall_test: "devlink health test" asked the watchdog for a report.
 * @stall_timeout_ms: a queue with completions that its consumer has not
 *	run for this long is stalled.
 * @ev: per kind and port, errors the health work reports.
 * @ev_work: reports them, at most one per kind and port per
 *	RXB_HEALTH_PERIOD_MS.
 * @ev_live: errors may schedule @ev_work (RCU readers).
 */
struct rxb_dev {
	struct rxb_bus_dev *bdev;
	struct rxb_port *ports[2];
	struct devlink_port dl_ports[2];
	struct devlink_health_reporter *stall_reporter;
	struct devlink_health_reporter *reporters[RXB_HEALTH_NKINDS];
	struct delayed_work watchdog;
	bool stall_test;
	u32 stall_timeout_ms;
	struct rxb_health_ev ev[RXB_HEALTH_NKINDS][2];
	struct delayed_work ev_work;
	bool ev_live;
};

#define RXB_DEF_STALL_MS	10000

/* bus.c */
int rxb_bus_init(unsigned int ndev);
void rxb_bus_exit(void);

/* dev.c */
int rxb_dev_probe(struct rxb_bus_dev *bdev);
void rxb_dev_remove(struct rxb_bus_dev *bdev);
int rxb_devlink_init(void);

/* health.c */
int rxb_health_init(struct rxb_dev *rdev);
void rxb_health_start(struct rxb_dev *rdev);
void rxb_health_stop(struct rxb_dev *rdev);
void rxb_health_fini(struct rxb_dev *rdev);
void rxb_health_event(struct rxb_port *port, enum rxb_health_kind kind,
		      unsigned int q);

/* main.c */
extern struct rxb_cfg rxb_default_cfg;
extern struct list_head rxb_ports;
extern struct rtnl_link_ops rxb_link_ops;
extern struct rtnl_link_ops rxb_bus_link_ops;

/* ptp.c: the PHC, hardware timestamps */
int rxb_ptp_init(struct rxb_port *port);
void rxb_ptp_fini(struct rxb_port *port);
int rxb_ptp_index(struct rxb_port *port);
int rxb_ptp_hwtstamp_set(struct net_device *dev,
			 struct kernel_hwtstamp_config *c,
			 struct netlink_ext_ack *extack);
int rxb_ptp_hwtstamp_get(struct net_device *dev,
			 struct kernel_hwtstamp_config *c);
int rxb_ptp_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd);
u32 rxb_ptp_tx_request(struct rxb_port *port, struct sk_buff *skb);
void rxb_ptp_tx_done(struct rxb_port *port);
void rxb_ptp_tx_flush(struct rxb_port *port);
void rxb_ptp_counters(struct rxb_port *port, u64 *stamps, u64 *skipped,
		      u64 *timeouts);
void rxb_ptp_rx(struct rxb_port *port, struct sk_buff *skb, u64 ns);

/* rx.c: driver receive path */
extern const struct rxb_drv_ops rxb_rx_drv_ops;
void rxb_rx_buf_layout(const struct rxb_cfg *cfg, struct rxb_buf_layout *bl);
struct skb_shared_info *rxb_rx_shinfo(const struct rxb_rx *rx, void *cookie);
/**
 * rxb_rx_direct() - may queue @rxq's poll recycle a page of queue @pool_q's
 *	pool into the pool's cache directly?
 * @rxq: the polling queue.
 * @pool_q: the queue whose pool the page is of (struct rxb_pkt.pool_q).
 *
 * Return: true for its own pool, unless that pool is shared (pp_shared).
 */
static inline bool rxb_rx_direct(const struct rxb_rxq *rxq,
				 unsigned int pool_q)
{
	return pool_q == rxq->qid && !rxq->pp_shared;
}

void rxb_rx_put_pkt(struct rxb_rxq *rxq, const struct rxb_pkt *p,
		    unsigned int nfrags);
void rxb_rx_whole(struct rxb_rxq *rxq, struct rxb_pkt *p,
		  struct bpf_prog *prog, unsigned int head, unsigned int meta);
void rxb_rx_model_cfg(const struct rxb_cfg *cfg, struct rxb_model_cfg *mcfg);
void rxb_queue_kick(struct rxb_port *port, unsigned int q);
struct rxb_rx *rxb_rx_create(struct rxb_port *port, const struct rxb_cfg *cfg);
void rxb_rx_start(struct rxb_port *port, struct rxb_rx *rx);
void rxb_rx_stop(struct rxb_port *port);
void rxb_rx_destroy(struct rxb_rx *rx);

/* enso_user.c */
int rxb_enso_user_init(void);
void rxb_enso_user_exit(void);
void rxb_enso_user_detach(struct rxb_rx *rx);
void rxb_rxq_stats_add(const struct rxb_rx *rx, unsigned int q,
		       struct rxb_qxstats *x);
int rxb_queue_cpu(const struct rxb_port *port, unsigned int q);
extern const struct netdev_queue_mgmt_ops rxb_queue_mgmt_ops;
int rxb_rx_queue_restart(struct net_device *dev, unsigned int q);

/* ctl.c: the driver's periodic control task of a ring model */
void rxb_ctl_start(struct rxb_rx *rx);
void rxb_ctl_stop(struct rxb_rx *rx);

/**
 * struct rxb_reconf - a port's reconfiguration (netdev.c).
 * @port: the port.
 * @cfg: its new configuration, set by the caller.
 * @rx: the new rings of a running port, built but not started.
 * @old_engine: the engine thread the new one replaces, stopped at commit.
 * @new_engine: an engine thread was started for @cfg.
 * @old_nqueues: the stack's queue count before.
 * @running: the port was running when prepared.
 */
struct rxb_reconf {
	struct rxb_port *port;
	struct rxb_cfg cfg;
	struct rxb_rx *rx;
	struct rxb_engine *old_engine;
	bool new_engine;
	unsigned int old_nqueues;
	bool running;
};

/* netdev.c */
int rxb_reconfigure(struct rxb_port *port, const struct rxb_cfg *cfg,
		    struct netlink_ext_ack *extack);
int rxb_reconfigure_many(struct rxb_reconf *rc, unsigned int n,
			 struct netlink_ext_ack *extack);
void rxb_get_qstats(struct rxb_port *port, unsigned int q,
		    struct rxb_qstats *st, struct rxb_qxstats *xst);
void rxb_get_txq_counts(const struct rxb_port *port, unsigned int q,
			struct rxb_txq_counts *c);
int rxb_pair_create(struct net *net, struct net_device *dev,
		    struct rxb_dev *rdev, struct netlink_ext_ack *extack);
void rxb_pair_destroy(struct rxb_port *port);
int rxb_port_prepare(struct net_device *dev);
bool rxb_csum_offload_ok(const struct sk_buff *skb);
u32 rxb_tx_bql_bytes(struct rxb_port *port, unsigned int q,
		     const struct sk_buff *skb);
void rxb_tx_posted(struct rxb_port *port, unsigned int q, u32 bytes);
int rxb_xdpq_alloc(struct rxb_port *port);
void rxb_xdpq_free(struct rxb_port *port);
bool rxb_xdpq_async(struct rxb_port *port, unsigned int q);
u32 rxb_xdpq_room(struct rxb_port *port, unsigned int q);
void rxb_xdpq_put(struct rxb_xdpq *xq, u64 addr, u32 len, bool more,
		  void *buf);
void rxb_xdpq_ring(struct rxb_port *port, unsigned int q);
u32 rxb_xdpq_inflight(const struct rxb_port *port, unsigned int q);
bool rxb_xdpq_pending(struct rxb_port *port, unsigned int q);
void rxb_xdpq_reclaim(struct rxb_port *port, unsigned int q);
void rxb_xdpq_quiesce(struct rxb_port *port);
unsigned int rxb_tx_burst(struct rxb_port *port, unsigned int sender,
			  struct rxb_tx_src *src);

/* tls.c: the kTLS device offload's driver half */
void rxb_tls_init(struct rxb_port *port);
void rxb_tls_xmit(struct rxb_port *port, struct sk_buff *skb,
		  struct sk_buff_head *out);
void rxb_tls_rx_meta(struct rxb_port *port, struct sk_buff *skb, u32 meta);

/* xdp.c: the XDP path shared by every ring model */
int rxb_xdp_mem_reg(struct rxb_port *port, struct xdp_mem_info *mem,
		    struct page_pool *pp, bool xsk);
void rxb_xdp_rxq_set(struct rxb_rxq *rxq, struct xdp_mem_info *mem);
int rxb_xdp_rxq_reg(struct rxb_rxq *rxq);
void rxb_xdp_rxq_unreg(struct rxb_rxq *rxq);
void rxb_xdp_rxq_unreg_keep(struct rxb_rxq *rxq, struct xdp_mem_info *mem);
bool rxb_xdp_run(struct rxb_rxq *rxq, struct bpf_prog *prog,
		 struct rxb_pkt *p, unsigned int *nfrags, unsigned int *head,
		 unsigned int *meta);
u32 rxb_xdp_prog_run(struct bpf_prog *prog, struct xdp_buff *xdp,
		     const struct rxb_pkt *p);
int rxb_xdp_rx_timestamp(const struct xdp_buff *xdp, u64 *ts);
int rxb_xdp_rx_hash(const struct xdp_buff *xdp, u32 *hash, u8 *family,
		    u8 *l4);
void rxb_xdp_set_metadata_ops(struct net_device *dev);
void rxb_xdp_flush(struct rxb_rxq *rxq);
int rxb_xdp_bpf(struct net_device *dev, struct netdev_bpf *bpf);
int rxb_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		 u32 flags);
void rxb_xdp_count_drop(struct rxb_rxq *rxq, struct bpf_prog *prog, u32 act);
bool rxb_xdp_tx_queue(struct rxb_rxq *rxq, struct bpf_prog *prog,
		      struct xdp_buff *xdp);
bool rxb_xdp_redirect(struct rxb_rxq *rxq, struct bpf_prog *prog,
		      struct xdp_buff *xdp);
int rxb_xdp_mtu_check(struct net_device *dev, int mtu,
		      const struct bpf_prog *prog,
		      struct netlink_ext_ack *extack);

/* xsk.c: zero-copy AF_XDP, the buffers of a queue from a umem */

/* A buffer handle (struct rxb_buf.cookie) that is an xsk buffer, not a
 * page_pool page: its xdp_buff with this bit set.
 */
#define RXB_XSK_COOKIE	1UL

static inline bool rxb_xsk_cookie(const void *cookie)
{
	return (unsigned long)cookie & RXB_XSK_COOKIE;
}

int rxb_xsk_alloc_buf(struct rxb_rxq *rxq, struct rxb_buf *buf);
void rxb_xsk_free_buf(struct rxb_rxq *rxq, void *cookie);
struct sk_buff *rxb_xsk_rx(struct rxb_rxq *rxq, struct bpf_prog *prog,
			   struct rxb_pkt *p);
struct xsk_buff_pool *rxb_xsk_pool(struct rxb_port *port,
				   const struct rxb_model_ops *ops,
				   unsigned int q);
void rxb_xsk_start(struct rxb_rxq *rxq);
bool rxb_xsk_tx(struct rxb_rxq *rxq);
bool rxb_xsk_zc_ok(const struct rxb_port *port, const struct rxb_cfg *cfg);
int rxb_xsk_cfg_check(struct rxb_port *port, const struct rxb_cfg *cfg,
		      struct netlink_ext_ack *extack);
int rxb_xsk_mtu_check(struct net_device *dev, int mtu);
int rxb_xsk_pool_setup(struct net_device *dev, struct xsk_buff_pool *pool,
		       u16 qid);
int rxb_xsk_wakeup(struct net_device *dev, u32 qid, u32 flags);

/* hds.c: the driver's side of the NIC's header/data split */
int rxb_hds_rxq_init(struct rxb_rxq *rxq);
void rxb_hds_rxq_fini(struct rxb_rxq *rxq);
bool rxb_hds_reclaim(struct rxb_rxq *rxq);
void rxb_hds_rx(struct rxb_rxq *rxq, struct rxb_pkt *p, struct bpf_prog *prog);
unsigned int rxb_hds_room(const struct rxb_rxq *rxq);
bool rxb_hds_parked(const struct rxb_rxq *rxq);
bool rxb_hds_pending(const struct rxb_rxq *rxq);
int rxb_hds_drain(struct rxb_rxq *rxq, struct bpf_prog *prog, int budget);
void rxb_hds_flush(struct rxb_rxq *rxq);

/* lower.c */
int rxb_lower_create(struct net *net, struct net_device *dev, int ifindex,
		     struct netlink_ext_ack *extack);
void rxb_lower_detach(struct rxb_port *port);
void rxb_lower_xmit(struct rxb_port *port, struct net_device *lower,
		    struct sk_buff *skb);
int rxb_lower_init(void);
void rxb_lower_exit(void);

/* ethtool.c */
extern const struct ethtool_ops rxb_ethtool_ops;

/* debugfs.c */
void rxb_debugfs_init(void);
void rxb_debugfs_exit(void);
void rxb_debugfs_port_add(struct rxb_port *port);
void rxb_debugfs_port_del(struct rxb_port *port);
void rxb_debugfs_port_rename(struct rxb_port *port);
void rxb_debugfs_queues_update(struct rxb_port *port);

#endif /* _RXBISECT_H */
