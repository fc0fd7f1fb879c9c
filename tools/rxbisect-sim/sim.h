/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect-sim: discrete-event simulator of a multi-queue NIC, its host's
 * LLC with DDIO, and the receiving cores, around the project's ring-model
 * models' two halves (drivers/net/rxbisect/hw/models/ and drv/models/,
 * compiled unmodified; models.c runs them).
 *
 * Time is in picoseconds.  Entities (the ports' arrival processes, the
 * NIC halves' timers, the drivers' control tasks, the DMA and Tx engines,
 * the NICs' doorbell services, the on-NIC tier's fetch engine, the cores)
 * each have at most one pending event; an indexed binary heap orders
 * them.
 */
#ifndef _RXB_SIM_H
#define _RXB_SIM_H

#include <stdbool.h>
#include <linux/types.h>
#include <stdio.h>

#define SIM_MAX_CORES	64
#define SIM_MAX_PORTS	8
/* Descriptors in one read request: 512 B of 16 B descriptors. */
#define SIM_DESC_BATCH_MAX	32
/* Completions in one write-back: a 256 B TLP payload of 16 B entries. */
#define SIM_WB_BATCH_MAX	16
#define SIM_MAX_BUDGET	256
#define SIM_NAME_LEN	32

#define SIM_MAX_CHANGES	8
#define SIM_MAX_XSTATS	512

struct rxb_model_ops;

enum sim_arrival { ARR_CONST, ARR_POISSON, ARR_BURST, ARR_TRACE };
enum sim_pool_mode { POOL_PAGE_POOL, POOL_MEMPOOL };
enum sim_ceio_fetch { CEIO_FETCH_SYNC, CEIO_FETCH_ASYNC };

/* An option changed during a run, once @at of the packets have arrived. */
struct sim_change {
	double at;
	char opt[32];
	char val[64];
};

/* Everything a run depends on; see opts.c for meanings and defaults. */
struct sim_cfg {
	/* ring model */
	char model[SIM_NAME_LEN];
	unsigned int ring;		/* Rx / Bx / shared ring entries */
	unsigned int ax;		/* rxBisect Ax entries */
	unsigned int share;		/* shRing share factor */
	unsigned int ax_assoc;
	unsigned int ax_policy;
	bool notif_compress;
	double notif_timeout_us;
	double dsh_period_us;
	unsigned int dsh_window;
	unsigned int dsh_tput_mbps;
	unsigned int dsh_overload_ratio;
	u64 ceio_budget;		/* host cache budget, all ports; 0: DDIO ways */
	unsigned int ceio_fetch;	/* enum sim_ceio_fetch */
	bool ceio_force_slow;
	/* the NIC's on-NIC memory tier (nic_mem.c), shared by the ports */
	u64 nicmem;			/* capacity (bytes), 0: none */
	double nicmem_fetch_ns;		/* latency of a host fetch */
	/* the DMA engine's header/data split into that tier (nic_hds.c) */
	bool nicmem_split;
	unsigned int split_hdr;		/* header bytes written to the host */
	/* NIC and traffic */
	unsigned int cores;
	unsigned int ports;
	double link_gbps;
	double load;			/* offered fraction of line rate */
	unsigned int pkt_size;
	unsigned int wire_overhead;
	enum sim_arrival arrival;
	unsigned int burst;
	unsigned int flows;
	char trace[256];
	bool trace_loop;
	int target;			/* queue of each port, -1: none */
	double target_share;		/* its share of a port's packets */
	unsigned int target_cycles;	/* more work per packet on it */
	unsigned int target_accesses;
	unsigned int target_pkt_size;	/* its packets' size, 0: pkt_size */
	u64 packets;		/* arrivals to simulate, all ports */
	double warmup;			/* fraction of @packets not measured */
	u64 seed;
	/* host: buffers */
	unsigned int buf_stride;
	unsigned int headroom;
	enum sim_pool_mode pool_mode;
	double pool_x;			/* pool size / posted buffers; 0: no limit */
	unsigned int pool_cache;
	double hold_us;			/* buffer held after processing (Tx) */
	/* host: cores */
	double ghz;
	unsigned int cycles;		/* base cycles per packet */
	unsigned int poll_cycles;
	unsigned int budget;
	unsigned int touch_lines;	/* packet lines the core reads, 0: all */
	bool rewrite;			/* ... and writes the first of them */
	unsigned int app_accesses;
	u64 app_mem;
	double irq_us;
	double start_stall;		/* cores poll once this share arrived */
	double refill_retry_us;
	bool tx;			/* NIC DMA-reads the packet afterwards */
	unsigned int extra_cycles[SIM_MAX_CORES];
	unsigned int extra_accesses[SIM_MAX_CORES];
	/* host: memory */
	u64 llc_bytes;
	unsigned int llc_ways;
	unsigned int ddio_ways;
	bool migrate;
	double llc_ns;
	double dram_ns;
	double mem_gbs;			/* peak DRAM bandwidth */
	double mem_load;		/* scale of the loaded-latency curve's rise */
	double mem_burst_ns;		/* DRAM backlog absorbed before requests wait */
	double mlp;			/* overlap of a packet's line misses */
	/* PCIe and the NIC's receive buffer, per port */
	double pcie_gbps;		/* per direction, after encoding; 0: off */
	double pcie_rd_ns;		/* DMA read latency, LLC hit */
	unsigned int pcie_reads;	/* outstanding DMA reads (read tags) a port */
	u64 nic_buf;			/* on-NIC receive buffer (bytes) */
	double nic_mpps;		/* the NIC's frame rate a port, 0: no limit */
	/* the Tx path of a forwarding NF (--tx): per queue */
	unsigned int tx_ring;		/* Tx descriptors the NIC reads from */
	unsigned int tx_iqueue;		/* packets the NF holds when it is full */
	bool tx_block;			/* a full Tx path stalls the core (FastClick) */
	/* the NIC's descriptor cache per queue (Documentation/simulator.rst) */
	bool desc_prefetch;		/* 0: descriptors charged when posted */
	unsigned int desc_cache;	/* descriptors it holds */
	unsigned int desc_batch;	/* descriptors per read */
	unsigned int desc_thresh;	/* prefetch below this many cached */
	unsigned int desc_reads;	/* descriptor reads in flight per ring */
	unsigned int dma_engines;	/* descriptor waits overlapped, 0: a queue */
	unsigned int wb_batch;		/* completions per write-back */
	/* cost of the ring-model code (Documentation/simulator.rst) */
	bool sync_cost;			/* charge it at all */
	double atomic_ns;		/* locked RMW, line already owned */
	double xfer_ns;			/* line last written by another core */
	bool contention;		/* a line moves to one core at a time */
	bool buf_xfer;			/* a buffer's metadata line moves too */
	double fence_ns;		/* smp_mb() */
	double alloc_ns;		/* buffer alloc or free (drv ops) */
	double doorbell_ns;		/* MMIO doorbell write */
	unsigned int wss_window;
	struct sim_change change[SIM_MAX_CHANGES];
	unsigned int nchange;
	/* output */
	bool quiet;
	/* tests only: run this table, not --model's (which it wraps) */
	const struct rxb_model_ops *ops;
};

/* Per-queue results (global queue index = port * queues per port + q). */
struct sim_qres {
	u64 arrived, delivered, nobuf, ring_full, oversize, alloc_fails;
	double occ_mean;
	double util;
};

struct sim_res {
	double sim_s;			/* simulated time measured */
	u64 arrived, delivered, nobuf, ring_full, oversize, alloc_fails;
	u64 pool_fails, cross_frees;
	u64 nic_drop;			/* on-NIC buffer full (PCIe stalled) */
	u64 in_flight;			/* in the NIC's buffer at the end */
	u64 in_model;			/* written by the NIC, not polled, at the end */
	u64 in_core;			/* polled, not processed, at the end */
	u64 tx_drop;			/* Tx path full (--tx-block 0) */
	u64 copy_drop;			/* streaming models: no buffer to copy into */
	/*
	 * Over the whole run (warm-up included): packets offered, delivered,
	 * dropped; offered = delivered + dropped + the in_* above, or the run
	 * lost or invented packets (@warn).
	 */
	u64 run_arrived, run_delivered, run_dropped;
	unsigned int warn;		/* SIM_WARN_* */
	/* host-resident packets: written to host memory, not yet processed */
	double res_mean, res_peak;
	/* the on-NIC memory tier: frames written to it, its peak */
	u64 tier_pkts;
	double tier_pct, tier_peak_mib;
	/*
	 * The header/data split (--nicmem-split), measured: the module's
	 * nicmem_* ethtool counters (Documentation/rxbisect-nicmem.rst).
	 * Host bytes: headers and split records, whole frames, fetched
	 * payloads; NIC bytes: payloads kept in the tier.
	 */
	u64 nm_host_bytes, nm_nic_bytes, nm_fetch_bytes;
	u64 nm_split, nm_whole, nm_fallback, nm_fetches;
	double nm_fetch_us;		/* mean wait of a payload fetch */
	double pcie_up_gbs, pcie_down_gbs;	/* link bytes incl. TLP overhead */
	double pcie_rd_us;		/* mean latency of a Tx DMA read request */
	double rd_wait_us;		/* mean wait of a DMA read for a read tag */
	double meta_pct;		/* host-to-NIC bytes: descriptors' share */
	double tx_occ_pct;		/* NIC Tx ring occupancy, % of --tx-ring */
	double tx_block_pct;		/* core time stalled on a full Tx path (%) */
	/*
	 * Descriptor cache (--desc-prefetch): its reads, the takes a list
	 * ring made out of array order (misses), the frames whose descriptor
	 * was not cached and the DMA engine's mean wait for those.
	 */
	u64 desc_reads, desc_misses, desc_waits;
	double desc_wait_us;
	/*
	 * Completion write-back (--wb-batch): the writes (TLPs) measured,
	 * and over the whole run the completions the NIC owed (one a frame
	 * it moved), wrote, and still held when the run ended.
	 */
	u64 cqe_writes, cqe_owed, cqe_done, cqe_held;
	double offered_gbps, gbps, mpps, drop_pct;
	double lat_mean_us, lat_p50_us, lat_p99_us, lat_p999_us;
	double occ_mean, occ_pct;
	double ddio_hit, tx_hit, cpu_pkt_hit, app_hit;
	double mem_gbs, mem_rd_gbs, mem_wr_gbs;
	/*
	 * I/O working set: distinct buffers written in the window, their
	 * packet bytes; with several packets per buffer (multi_pkt_bufs)
	 * the bytes count each packet's slot, the buffers each buffer once.
	 */
	double wss_bufs, wss_peak_bufs, wss_mib, wss_peak_mib;
	u64 buf_errs;			/* buffer reference errors: 0 */
	double util;
	/* the model code's cost per delivered packet (core cycles, events) */
	double cyc_pkt;			/* core busy cycles per packet, all in */
	double model_cyc_pkt, xfer_pkt, rmw_pkt, lock_pkt, fence_pkt;
	double alloc_pkt, db_pkt;
	double xwait_ns_pkt;		/* waits for a line's earlier transfer */
	double buf_xfer_pkt;		/* buffer metadata lines moved */
	/*
	 * The driver halves' reads of NIC registers or NIC memory
	 * (rxb_reg_read(), the module's pcie_mmio_reads) per packet, and the
	 * core time they stalled for (ns per packet).
	 */
	double mmio_rd_pkt, mmio_ns_pkt;
	double wall_s, cpu_s;		/* host time of the run */
	u64 events;
	unsigned int nqueues;
	struct sim_qres q[SIM_MAX_CORES];
	/* the model's own counters (since start), summed over the ports */
	unsigned int nx;
	struct sim_xstat {
		char name[32];
		u64 val;
	} x[SIM_MAX_XSTATS];
};

/*
 * Sum of the model counters named @name, or named "rx<N>_@name" (per
 * queue); false if the model has none of that name.
 */
bool sim_res_xstat(const struct sim_res *r, const char *name, u64 *val);

/* What a run's results may warn of (sim_res.warn). */
#define SIM_WARN_NOTHING	1U	/* no packet delivered in the window */
#define SIM_WARN_LEAK		2U	/* offered != delivered + dropped + held */
/* The warnings of @w as text ("" if none), for messages and the CSV. */
const char *sim_warn_str(unsigned int w);

void sim_cfg_default(struct sim_cfg *c);
/* Check @c; on error print why to @err and return false. */
bool sim_cfg_check(const struct sim_cfg *c, FILE *err);
/* The model configuration options @c give, no environment set (models.c). */
struct rxb_model_cfg;
void sim_model_cfg(const struct sim_cfg *c, struct rxb_model_cfg *mc);
/*
 * Would the model of @c accept the configuration the options give it?  0,
 * or a negative errno with *@msg the model's static reason (models.c).
 */
int sim_model_check(const struct sim_cfg *c, const char **msg);
/* Run one simulation; 0, or a negative errno (message printed to stderr). */
int sim_run(const struct sim_cfg *c, struct sim_res *r);

/* Loaded DRAM latency over idle at utilisation @u, rise @k (sim.c). */
double sim_mem_factor(double u, double k);
/* The same for the last of @n lines read together (sim.c). */
double sim_mem_max_factor(double u, double k, unsigned int n);

/* Registered ring models, by name (from the registry of model.c). */
unsigned int sim_model_names(const char **names, unsigned int max);
/*
 * The descriptor streams of a model instance configured as @cfg (models.c):
 * @stream[q] is the same for queues whose NIC takes descriptors from one
 * ring (a shared ring), distinct otherwise.  0, or a negative errno.
 */
struct rxb_model_ops;
struct rxb_model_cfg;
int sim_model_streams(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg, u8 *stream);

/*
 * A model instance: its driver half, its NIC half and their register
 * space (models.c).  sim_models_create() creates them as the kernel does
 * and runs the NIC's doorbell service once; 0 or a negative errno
 * (nothing allocated).
 */
struct rxb_model;
struct rxb_hw_model;
struct rxb_drv_ops;
struct rxb_hw_ops;
struct rxb_frame;
struct rxb_nicmem;
struct sim_inst {
	struct rxb_model *m;
	struct rxb_hw_model *hw;
	void *bar;
};

int sim_models_create(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg,
		      const struct rxb_drv_ops *drv_ops, void *drv,
		      const struct rxb_hw_ops *hw_ops, void *hw,
		      struct sim_inst *in);
void sim_models_destroy(struct sim_inst *in);
/* The NIC, in its context: a frame on queue @q (doorbells first). */
int sim_nic_rx(struct sim_inst *in, unsigned int q, const struct rxb_frame *f);
/* The NIC's doorbell service; true if doorbells were pending. */
bool sim_nic_doorbells(struct sim_inst *in);
/* The NIC's timer fired. */
void sim_nic_timer(struct sim_inst *in);
/* The on-NIC memory tier's fetch engine runs; true if it completed any. */
bool sim_nic_fetch_run(struct rxb_nicmem *nm);
/*
 * NIC services reached outside the NIC's context stop the run unless
 * expected: rxb_pair_ctx_expect(), rxb_pair_ctx_violations()
 * (tools/testing/rxbisect/model_pair.h).
 */

/* Options (opts.c). */
int opt_apply(struct sim_cfg *c, const char *name, const char *val);
void opt_help(FILE *f);
/* Option @i for getopt_long; *@has_arg: 1 required, 2 optional (bools). */
unsigned int opt_count(void);
const char *opt_name(unsigned int i, int *has_arg);
/* Current value of option @name in @c, as text. */
int opt_value(const struct sim_cfg *c, const char *name, char *buf, size_t len);
/* Named result metrics for tables, CSV and plots. */
struct sim_metric {
	const char *name;
	const char *fmt;
	double (*get)(const struct sim_res *r);
	const char *help;
};

extern const struct sim_metric sim_metrics[];
extern const unsigned int sim_nmetrics;
const struct sim_metric *sim_metric_find(const char *name);

#endif /* _RXB_SIM_H */
