/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated NIC as its datasheet describes it to a driver: registers,
 * doorbell-like commands, counters and debug registers.  The driver
 * (rxbisect.h) includes this header only; the NIC's state is defined in
 * nic_hw.h, which no driver file includes, so that the compiler keeps the
 * driver out of it.  Ring memory and the per-ring doorbell registers are
 * described by include/rxbisect/rxb_desc.h and each ring model.
 *
 * A receive context (struct rxb_nic_ctx) is the NIC's state of one ring
 * configuration: the ring model's hardware half, the NIC's timer and its
 * I/O working set tracker.  The driver creates one for a configuration,
 * enables it when the rings go live and disables it before freeing them;
 * two may exist during a reconfiguration, one enabled.
 */
#ifndef _RXB_NIC_H
#define _RXB_NIC_H

#include <linux/compiler.h>
#include <linux/random.h>
#include <linux/types.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

struct net_device;
struct page;
struct sk_buff;
struct sk_buff_head;
struct rxb_nic;
struct rxb_nic_ctx;
struct rxb_engine;
struct rxb_hw_model_ops;

#define RXB_MAX_QUEUES		32
#define RXB_RSS_INDIR_SIZE	128
#define RXB_RSS_KEY_SIZE	40
#define RXB_RSS_CTX_MAX		32	/* RSS contexts: 0 (default), 1..31 */
#define RXB_NIC_BH_BATCH	64	/* frames per bottom-half-off section */
#define RXB_COAL_MAX_USECS	10000	/* 10 ms */
#define RXB_COAL_MAX_FRAMES	4096
#define RXB_ENGINE_FIFO		4096	/* ingress frames a pipeline may hold */
#define RXB_MAX_ENGINES		16	/* engine pipelines (the engines param) */
#define RXB_FAULT_SCALE		1000	/* fault rates are per mille */
#define RXB_FLOW_TABLE_MIN	16	/* flow table entries */
#define RXB_FLOW_TABLE_MAX	1048576
#define RXB_FLOW_TABLE_DEF	4096
#define RXB_FLOW_IDLE_DEF_MS	1000	/* CEIO's inactive-flow timer */
#define RXB_NTUPLE_MAX		128	/* ntuple rule locations */
#define RXB_NICMEM_DEF_KB	65536	/* on-NIC memory: 64 MiB */
#define RXB_NICMEM_MAX_KB	1048576	/* 1 GiB */
#define RXB_NICMEM_DEF_NS	1000	/* its fetch latency: 1 us */
#define RXB_NICMEM_MAX_NS	1000000
#define RXB_TLS_CTX_MIN		1	/* TLS crypto context table entries */
#define RXB_TLS_CTX_MAX		1048576
/* The thesis's table: 4 MiB of NIC memory, 208 B per context (ch. 3). */
#define RXB_TLS_CTX_DEF		20165

/* RSS hash input fields of a flow type (rxb_nic_rss_fields_write()): the
 * Toeplitz input is the selected fields in this order.
 */
#define RXB_RSS_F_SRC		0x1	/* source address */
#define RXB_RSS_F_DST		0x2	/* destination address */
#define RXB_RSS_F_SPORT		0x4	/* TCP/UDP source port */
#define RXB_RSS_F_DPORT		0x8	/* TCP/UDP destination port */
#define RXB_RSS_F_ALL		0xf

/* The flow types whose RSS hash fields are configurable. */
enum rxb_rss_flow_type {
	RXB_RSS_FT_TCP4, RXB_RSS_FT_UDP4, RXB_RSS_FT_TCP6, RXB_RSS_FT_UDP6,
	RXB_RSS_FT_NUM
};

/**
 * struct rxb_nic_hds_counters - the header/data split's counters of the
 * enabled receive context (ethtool -S nicmem_*; restart with the rings).
 * @frames: frames split: headers to the host, payload to NIC memory.
 * @host_bytes: bytes of frames received in split mode that the NIC wrote
 *	to host memory: headers and split records, payloads fetched by the
 *	driver, and whole frames (not splittable, or the fallback).
 * @nic_bytes: payload bytes the NIC kept in its memory.
 * @fetch_bytes: payload bytes fetched into host memory (part of
 *	@host_bytes).
 * @tx_frames: frames sent from NIC memory (TX commands).
 * @tx_nic_bytes: their payload bytes, read from NIC memory.
 * @tx_host_bytes: their header bytes, read from host memory.
 * @fallback: frames written whole to the host because the tier was full
 *	(or the emulation had no memory for them).
 * @whole: frames written whole because they had nothing to split (not
 *	TCP or UDP over IP, an IP fragment, no payload).
 * @held: payloads in NIC memory now.
 * @cmd_errors: commands naming an unknown handle or too many bytes.
 * @reclaimed: payloads the context's teardown freed (the driver never
 *	released them: their buffers were freed unconsumed).
 */
struct rxb_nic_hds_counters {
	u64 frames;
	u64 host_bytes;
	u64 nic_bytes;
	u64 fetch_bytes;
	u64 tx_frames;
	u64 tx_nic_bytes;
	u64 tx_host_bytes;
	u64 fallback;
	u64 whole;
	u64 held;
	u64 cmd_errors;
	u64 reclaimed;
};

/**
 * struct rxb_nic_counters - the NIC's statistics registers (ethtool -S,
 * rtnl stats).  Every counter accumulates since the NIC was created.
 * @runt_drops: frames shorter than an Ethernet header.
 * @oversize_drops: frames longer than the max-frame register.
 * @stopped_drops: frames that arrived with no receive context enabled, or
 *	for a queue disabled (rxb_nic_queue_enable()).
 * @fifo_drops: frames a full ingress FIFO dropped (engine thread's, or
 *	the inline engine's while stalled).
 * @engine_frames: frames the engine threads processed (every pipeline).
 * @stall_frames: frames that arrived while the engine was stalled.
 * @dma_faults: DMA writes that failed (fault injection).
 * @dma_bytes: bytes the DMA engine wrote.
 * @ws: distinct buffers written in the tracker's window (enabled context).
 * @ws_peak: the largest @ws seen by the enabled context.
 * @ws_window: writes the tracker's window spans; 0 with no context.
 * @ws_bytes: bytes the NIC wrote of the buffers in @ws (struct rxb_wss).
 * @ws_bytes_peak: the largest @ws_bytes seen by the enabled context.
 * @engine_cpu: CPU of the engine thread (its first pipeline's), -1 when
 *	inline.
 * @max_bh_batch: most frames processed in one section with bottom halves
 *	disabled.
 * @ntuple_drops: frames an ntuple drop rule (action -1) discarded.
 * @flow_table_size: entries of the enabled context's flow table; the
 *	flow_* counters restart with each context, 0 without one.
 * @flow_active: entries holding a flow.
 * @flow_learned: flows learned.
 * @flow_expired: entries freed by the idle sweep.
 * @flow_untracked: frames of new flows that found the table full.
 * @nicmem: the enabled context's on-NIC memory tier (zero without one).
 * @hds: the enabled context's header/data split (zero without one).
 * @tx_hwtstamps: transmit timestamps the NIC wrote back (struct
 *	rxb_tx_tstamp).
 */
struct rxb_nic_counters {
	u64 runt_drops;
	u64 oversize_drops;
	u64 stopped_drops;
	u64 fifo_drops;
	u64 engine_frames;
	u64 stall_frames;
	u64 dma_faults;
	u64 dma_bytes;
	u64 ws;
	u64 ws_peak;
	u64 ws_window;
	u64 ws_bytes;
	u64 ws_bytes_peak;
	int engine_cpu;
	u32 max_bh_batch;
	u64 ntuple_drops;
	u64 flow_table_size;
	u64 flow_active;
	u64 flow_learned;
	u64 flow_expired;
	u64 flow_untracked;
	struct rxb_nicmem_counters nicmem;
	struct rxb_nic_hds_counters hds;
	u64 tx_hwtstamps;
};

/**
 * struct rxb_nic_pipe_counters - the counters of one of the engine's
 *	pipelines (ethtool -S engine<i>_*).
 * @frames: frames it processed.
 * @fifo_drops: frames its full ingress FIFO dropped.
 * @cpu: the CPU its thread is bound to, -1 when the engine has no such
 *	pipeline now (inline, or fewer pipelines).
 */
struct rxb_nic_pipe_counters {
	u64 frames;
	u64 fifo_drops;
	int cpu;
};

/**
 * struct rxb_nic_qcounters - the NIC's statistics registers of one queue
 *	(rxb_nic_read_qcounters()): a few words, where the device's whole
 *	set would be too much for a stack frame.
 * @steered: frames an ntuple rule sent to the queue.
 * @to_host_data: packet data bytes the NIC wrote to host memory for it
 *	(the queues' sum is struct rxb_nic_counters.dma_bytes).
 * @to_host_meta: descriptor, completion and notification bytes the NIC
 *	wrote to host memory.
 * @to_nic_desc: descriptor bytes the NIC read from host memory.
 * @to_nic_mmio: doorbell and register bytes the driver wrote.
 * @to_host_mmio: register and NIC memory bytes the driver read (MMIO).
 * @mmio_reads: those reads.
 * @to_nic_data: packet bytes the NIC read from host memory to transmit
 *	(Ensō's TX pipes).
 */
struct rxb_nic_qcounters {
	u64 steered;
	u64 to_host_data;
	u64 to_host_meta;
	u64 to_nic_desc;
	u64 to_nic_mmio;
	u64 to_host_mmio;
	u64 mmio_reads;
	u64 to_nic_data;
};

/**
 * struct rxb_nic_ntuple - an ntuple steering rule register.
 * @src: source address to match (IPv4: @src[0]), under @src_mask.
 * @src_mask: its significant bits.
 * @dst: destination address to match, under @dst_mask.
 * @dst_mask: its significant bits.
 * @sport: source port to match, under @sport_mask.
 * @sport_mask: its significant bits.
 * @dport: destination port to match, under @dport_mask.
 * @dport_mask: its significant bits.
 * @family: 4 or 6 (always matched).
 * @proto: IPPROTO_TCP or IPPROTO_UDP (always matched).
 * @rss_ctx: 0: @action is the frame's fate; 1..RXB_RSS_CTX_MAX - 1: RSS
 *	context @rss_ctx picks the queue (@action 0), or the default context
 *	0 when @rss_ctx is not programmed.
 * @action: queue, or RXB_NTUPLE_DROP.
 * @loc: location, below RXB_NTUPLE_MAX.
 */
struct rxb_nic_ntuple {
	__be32 src[4];
	__be32 src_mask[4];
	__be32 dst[4];
	__be32 dst_mask[4];
	__be16 sport;
	__be16 sport_mask;
	__be16 dport;
	__be16 dport_mask;
	u8 family;
	u8 proto;
	u8 rss_ctx;
	u32 action;
	u32 loc;
};

#define RXB_NTUPLE_DROP	0xffffffffU	/* rxb_nic_ntuple.action: drop */

/**
 * struct rxb_nic_ctx_cfg - the NIC-side parameters of a receive context.
 * @ws_window: DMA writes the working set tracker's window spans, a power
 *	of two.
 * @flow_table_size: flow table entries, RXB_FLOW_TABLE_MIN..MAX.
 * @flow_idle_ms: an entry idle this long is freed.
 * @nicmem_kb: capacity of the on-NIC memory tier, KiB (0: none).
 * @nicmem_fetch_ns: its fetch latency.
 * @nicmem_split: header/data split mode (nic_hds.c): headers to the host,
 *	payloads into the tier.
 * @rx_sge: segments of each receive buffer: 1, linear (the buffer
 *	address is the data's); 2..RXB_RX_SGE_MAX, scatter buffers (the
 *	address is a struct rxb_rx_sgl's, rxb_desc.h).
 * @rx_buf_size: bytes of each receive buffer, headroom to tailroom, a
 *	power of two; buffers start at multiples of it (the RX buffer size
 *	of a queue context, as ice's dbuf).  The working set tracker counts
 *	one buffer per this many bytes, a page at most (a larger or scatter
 *	buffer counts by its pages, as before); 0: a page.
 */
struct rxb_nic_ctx_cfg {
	u32 ws_window;
	u32 flow_table_size;
	u32 flow_idle_ms;
	u32 nicmem_kb;
	u32 nicmem_fetch_ns;
	bool nicmem_split;
	u32 rx_sge;
	u32 rx_buf_size;
};

/**
 * struct rxb_nic_tls_params - a crypto context to create (ADD_CTX).
 * @rx: receive direction (else transmit).
 * @key_len: 16 or 32 (AES-GCM-128 or -256).
 * @key: the AES key.
 * @salt: the implicit nonce.
 * @rec_seq: sequence number of the first record.
 * @tcp_seq: TCP sequence number of its first byte.
 * @family: RX: 4 or 6.
 * @saddr: RX: the flow's source address as this NIC receives it (the
 *	peer's; IPv4: @saddr[0]).
 * @daddr: RX: its destination address (ours).
 * @sport: RX: its source port.
 * @dport: RX: its destination port.
 * @mbox: RX: bus address of the context's struct rxb_tls_rx_mbox.
 * @async: RX: the async resync (RXB_TLS_META_PROGRESS): a request names
 *	the frame the candidate header is in, and the NIC says which
 *	header when the driver asks; else a request names the header.
 */
struct rxb_nic_tls_params {
	bool rx;
	u8 key_len;
	u8 key[32];
	u8 salt[4];
	u64 rec_seq;
	u32 tcp_seq;
	u8 family;
	__be32 saddr[4];
	__be32 daddr[4];
	__be16 sport;
	__be16 dport;
	u64 mbox;
	bool async;
};

/**
 * struct rxb_nic_txq_counters - the Tx engine's counters of one transmit
 *	queue (ethtool -S), since the NIC was created.
 * @engine: frames the NIC's engine thread took from the queue and sent
 *	(or dropped), in its own context (engine=cpuN).
 * @drops: frames the Tx engine dropped: its TSO failed.
 */
struct rxb_nic_txq_counters {
	u64 engine;
	u64 drops;
};

/**
 * struct rxb_nic_tls_counters - the TLS engine's device-wide counters
 *	(ethtool -S tls_*), since the NIC was created.
 * @ctx_active: crypto contexts in the table now.
 * @ctx_added: contexts created.
 * @ctx_refused: creations refused: the table was full.
 * @ctx_deleted: contexts deleted.
 * @resync_confirmed: RX resyncs software confirmed and the NIC took.
 */
struct rxb_nic_tls_counters {
	u64 ctx_active;
	u64 ctx_added;
	u64 ctx_refused;
	u64 ctx_deleted;
	u64 resync_confirmed;
};

/**
 * struct rxb_nic_tls_qcounters - the TLS engine's counters of one queue.
 * @tx_records: records the NIC encrypted (tag written).
 * @tx_packets: packets it encrypted.
 * @tx_dumps: retransmissions it recovered from a record dump.
 * @tx_drops: packets it could not encrypt and dropped (no context, out
 *	of step, a bad record).
 * @rx_decrypted: packets it decrypted and marked.
 * @rx_records: records it decrypted and authenticated.
 * @rx_encrypted: packets of an RX context's flow it passed up as they
 *	came (out of step, or a tag that failed).
 * @rx_resync_req: resync requests it posted.
 * @rx_auth_fail: records whose tag did not verify.
 * @rx_resync_progress: async resync: progress queries it answered.
 */
struct rxb_nic_tls_qcounters {
	u64 tx_records;
	u64 tx_packets;
	u64 tx_dumps;
	u64 tx_drops;
	u64 rx_decrypted;
	u64 rx_records;
	u64 rx_encrypted;
	u64 rx_resync_req;
	u64 rx_auth_fail;
	u64 rx_resync_progress;
};

/**
 * struct rxb_nic_qdebug - the interrupt vector's debug registers of one
 *	queue (the ring model's are in the context's register space).
 * @vec_masked: the queue's vector is masked (raised, not re-armed).
 * @irqs: interrupt messages the queue's vector has sent since the NIC was
 *	created.
 */
struct rxb_nic_qdebug {
	bool vec_masked;
	u64 irqs;
};

/* Should this operation fail (a fault knob of either side)?  @rate: per
 * mille, read once.
 */
static inline bool rxb_fault_hit(const u32 *rate)
{
	u32 r = READ_ONCE(*rate);

	return unlikely(r) && get_random_u32_below(RXB_FAULT_SCALE) < r;
}

/* nic.c: power-on, registers, contexts, counters */
struct rxb_nic *rxb_nic_create(struct net_device *dev, unsigned int nqueues,
			       unsigned int mtu, u32 tls_contexts);
void rxb_nic_destroy(struct rxb_nic *nic);
void rxb_nic_ingress(struct rxb_nic *nic, struct sk_buff *skb);
void rxb_nic_set_max_frame(struct rxb_nic *nic, u32 len);
void rxb_nic_set_rx_csum(struct rxb_nic *nic, bool on);
void rxb_nic_set_coalesce(struct rxb_nic *nic, u32 usecs, u32 frames);
void rxb_nic_get_coalesce(struct rxb_nic *nic, u32 *usecs, u32 *frames);
void rxb_nic_rss_write(struct rxb_nic *nic, const u32 *indir, const u8 *key);
void rxb_nic_rss_read(struct rxb_nic *nic, u32 *indir, u8 *key);
void rxb_nic_rss_default(struct rxb_nic *nic, unsigned int nqueues);
int rxb_nic_rss_ctx_write(struct rxb_nic *nic, u32 id, const u32 *indir,
			  const u8 *key);
int rxb_nic_rss_ctx_read(struct rxb_nic *nic, u32 id, u32 *indir, u8 *key);
int rxb_nic_rss_ctx_clear(struct rxb_nic *nic, u32 id);
void rxb_nic_rss_fields_write(struct rxb_nic *nic, enum rxb_rss_flow_type ft,
			      u8 fields);
u8 rxb_nic_rss_fields_read(struct rxb_nic *nic, enum rxb_rss_flow_type ft);
void rxb_nic_read_counters(struct rxb_nic *nic, struct rxb_nic_counters *c);
void rxb_nic_read_qcounters(struct rxb_nic *nic, unsigned int q,
			    struct rxb_nic_qcounters *c);
void rxb_nic_reset_max_bh_batch(struct rxb_nic *nic);
int rxb_nic_debug_read(struct rxb_nic *nic, unsigned int q,
		       struct rxb_nic_qdebug *d);
u64 rxb_nic_vec_irqs(struct rxb_nic *nic, unsigned int q);

void rxb_nic_reg_write(struct rxb_nic *nic, unsigned int q, u32 bytes);
void rxb_nic_reg_read(struct rxb_nic *nic, unsigned int q, u32 bytes);

struct rxb_nic_ctx *rxb_nic_ctx_create(struct rxb_nic *nic,
				       const struct rxb_nic_ctx_cfg *cfg,
				       const struct rxb_hw_model_ops *model,
				       const struct rxb_model_cfg *mcfg);
void rxb_nic_ctx_bar(struct rxb_nic_ctx *ctx, struct rxb_bar *bar);
int rxb_nic_ctx_load(struct rxb_nic_ctx *ctx);
void rxb_nic_ctx_enable(struct rxb_nic_ctx *ctx);
void rxb_nic_ctx_disable(struct rxb_nic_ctx *ctx);
void rxb_nic_ctx_free(struct rxb_nic_ctx *ctx);
void rxb_nic_ctx_kick(struct rxb_nic_ctx *ctx);
void rxb_nic_queue_enable(struct rxb_nic *nic, unsigned int q, bool on);
void rxb_nic_queue_reset(struct rxb_nic_ctx *ctx, unsigned int q);
void rxb_nic_set_ctx_check(bool on);
u64 rxb_nic_ctx_violations(void);

/* nic_hds.c: header/data split: the wire the NIC's TX commands send on */
void rxb_nic_set_wire(struct rxb_nic *nic,
		      void (*xmit)(void *arg, unsigned int q,
				   struct sk_buff_head *frames), void *arg);

/* nic_ntuple.c: the ntuple steering rules (RTNL held) */
int rxb_nic_ntuple_write(struct rxb_nic *nic, const struct rxb_nic_ntuple *r);
int rxb_nic_ntuple_delete(struct rxb_nic *nic, u32 loc);
int rxb_nic_ntuple_read(struct rxb_nic *nic, u32 loc, struct rxb_nic_ntuple *r);
unsigned int rxb_nic_ntuple_locs(struct rxb_nic *nic, u32 *locs,
				 unsigned int max);

/* nic_irq.c: the MSI-X vectors, one per queue */
void rxb_nic_vec_program(struct rxb_nic *nic, unsigned int q, int cpu,
			 void (*isr)(void *), void *arg);
void rxb_nic_vec_set_cpu(struct rxb_nic *nic, unsigned int q, int cpu);
void rxb_nic_vec_unmask(struct rxb_nic *nic, unsigned int q);
void rxb_nic_vec_trigger(struct rxb_nic *nic, unsigned int q);
void rxb_nic_vec_sync(struct rxb_nic *nic, unsigned int q);

/* nic_tls.c: the kTLS offload's crypto contexts and TLS engine */
int rxb_nic_tls_add(struct rxb_nic *nic, const struct rxb_nic_tls_params *p,
		    u32 *id);
void rxb_nic_tls_del(struct rxb_nic *nic, u32 id);
void rxb_nic_tls_set_size(struct rxb_nic *nic, u32 size);
void rxb_nic_tls_rx_resync(struct rxb_nic *nic, u32 id, u32 hdr_seq,
			   u64 rec_seq);
void rxb_nic_tls_rx_progress(struct rxb_nic *nic, u32 id);
bool rxb_nic_tls_xmit(struct rxb_nic *nic, unsigned int q,
		      struct sk_buff *skb, u32 bytes, struct sk_buff_head *out);
void rxb_nic_tls_read(struct rxb_nic *nic, struct rxb_nic_tls_counters *c);
void rxb_nic_tls_read_q(struct rxb_nic *nic, unsigned int q,
			struct rxb_nic_tls_qcounters *c);

/* nic_dma.c: the DMA engine's fault knob */
int rxb_nic_set_dma_fail(struct rxb_nic *nic, u32 per_mille);
u32 rxb_nic_get_dma_fail(struct rxb_nic *nic);

/* nic_ptp.c: the clock's time registers, the transmit stamp write-back */
#define RXB_CLK_MAX_PPB	100000000	/* the trim's range, +-10 % */
u64 rxb_nic_clock_read(struct rxb_nic *nic, u64 *raw);
void rxb_nic_clock_write(struct rxb_nic *nic, u64 ns);
void rxb_nic_clock_step(struct rxb_nic *nic, s64 delta);
void rxb_nic_clock_trim(struct rxb_nic *nic, long scaled_ppm);
void rxb_nic_set_tx_tstamp(struct rxb_nic *nic, u64 addr);
void rxb_nic_set_rx_tstamp(struct rxb_nic *nic, bool on);
void rxb_nic_tx_tstamp(struct rxb_nic *nic, u32 tag);

/* nic_engine.c: where the NIC runs; the transmit doorbell */
void rxb_nic_stall(struct rxb_nic *nic, bool stall);
bool rxb_nic_stalled(struct rxb_nic *nic);
int rxb_nic_engine_start(struct rxb_nic *nic, int cpu, unsigned int n,
			 struct rxb_engine **old);
void rxb_nic_engine_stop(struct rxb_nic *nic, struct rxb_engine *eng);
void rxb_nic_engine_revert(struct rxb_nic *nic, struct rxb_engine *old);
unsigned int rxb_nic_engine_running(struct rxb_nic *nic);
void rxb_nic_read_pipe(struct rxb_nic *nic, unsigned int i,
		       struct rxb_nic_pipe_counters *c);
bool rxb_nic_tx_post(struct rxb_nic *nic, unsigned int q, struct sk_buff *skb,
		     bool tls, u32 bytes, u32 ts_tag);
u32 rxb_nic_tx_pending(struct rxb_nic *nic, unsigned int q);
void rxb_nic_set_tx_done(struct rxb_nic *nic,
			 void (*done)(void *arg, unsigned int q,
				      unsigned int frames, unsigned int bytes),
			 void *arg);
void rxb_nic_tx_read_q(struct rxb_nic *nic, unsigned int q,
		       struct rxb_nic_txq_counters *c);
void rxb_nic_tx_drain(struct rxb_nic *nic);
void rxb_nic_xdpq_set(struct rxb_nic *nic, unsigned int q,
		      const struct rxb_xdp_txd *ring, u32 size, __le32 *wb);
bool rxb_nic_xdpq_async(struct rxb_nic *nic, unsigned int q);
void rxb_nic_xdpq_doorbell(struct rxb_nic *nic, unsigned int q, u32 tail);

#endif /* _RXB_NIC_H */
