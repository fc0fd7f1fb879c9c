// SPDX-License-Identifier: GPL-2.0
/*
 * Options of rxbisect-sim: one table gives the command line (getopt_long),
 * --help, --sweep (any option by name) and the defaults: the seeds'
 * testbed (Xeon Silver 4216: 16 cores at 2.1 GHz, 22 MiB 11-way LLC with
 * 2 DDIO ways, 2 x 100 Gbps, 1500 B packets).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>

#include "opts.h"
#include "sim.h"
#include "traffic.h"

enum opt_type { T_UINT, T_INT, T_U64, T_SIZE, T_DBL, T_STR, T_BOOL, T_ENUM,
		T_EXTRA, T_CHANGE };

struct opt {
	const char *name;
	enum opt_type type;
	size_t off;
	const char *def;
	const char *help;
	const char *const *names;	/* T_ENUM */
};

static const char *const arrival_names[] = { "const", "poisson", "burst",
					     "trace", NULL };
static const char *const pool_names[] = { "page_pool", "mempool", NULL };
static const char *const policy_names[] = { "rr", "most", NULL };
static const char *const fetch_names[] = { "sync", "async", NULL };

#define O(n, t, f, d, h) { n, t, offsetof(struct sim_cfg, f), d, h, NULL }
#define E(n, f, d, h, v) { n, T_ENUM, offsetof(struct sim_cfg, f), d, h, v }

static const struct opt opts[] = {
	/* ring model */
	O("model", T_STR, model, "privring", "ring model (ring_model name; --list-models)"),
	O("ring", T_UINT, ring, "1024", "Rx ring, Bx ring or shared ring entries"),
	O("ax", T_UINT, ax, "128", "rxbisect: Ax ring entries"),
	O("share", T_UINT, share, "8", "shring: queues sharing one Rx ring"),
	O("ax-assoc", T_UINT, ax_assoc, "0",
	  "rxbisect: Ax association group (0: all queues of a port)"),
	E("ax-policy", ax_policy, "rr", "rxbisect: Ax ring to borrow from", policy_names),
	O("notif-compress", T_BOOL, notif_compress, "1",
	  "rxbisect: hold notification-only entries"),
	O("notif-timeout-us", T_DBL, notif_timeout_us, "0",
	  "rxbisect: longest hold (0: model default)"),
	O("dsh-period-us", T_DBL, dsh_period_us, "0",
	  "dshring: controller period (0: model default)"),
	O("dsh-window", T_UINT, dsh_window, "0", "dshring: samples in the window (0: default)"),
	O("dsh-tput-mbps", T_UINT, dsh_tput_mbps, "0",
	  "dshring: high-throughput threshold (0: default)"),
	O("dsh-overload-ratio", T_UINT, dsh_overload_ratio, "0",
	  "dshring: overload ratio (0: default)"),
	O("ceio-budget", T_SIZE, ceio_budget, "0",
	  "ceio: host cache budget over the ports, credits = budget / buffer (0: DDIO ways)"),
	E("ceio-fetch", ceio_fetch, "async",
	  "ceio: slow-path fetches issued ahead (async_recv, the module's default) or one at a time (recv)",
	  fetch_names),
	O("ceio-force-slow", T_BOOL, ceio_force_slow, "0",
	  "ceio: no credits, every packet takes the slow path"),
	O("nicmem", T_SIZE, nicmem, "64M",
	  "on-NIC memory tier (CEIO's elastic buffer), all ports (0: none)"),
	O("nicmem-fetch-ns", T_DBL, nicmem_fetch_ns, "1000",
	  "latency of a host fetch from the on-NIC memory tier"),
	O("nicmem-split", T_BOOL, nicmem_split, "0",
	  "header/data split: headers to the host buffer, payloads to the tier (nicmem)"),
	O("nicmem-split-hdr", T_UINT, split_hdr, "54",
	  "--nicmem-split: header bytes the NIC writes to the host (TCP/IPv4: 54)"),
	/* NIC and traffic */
	O("cores", T_UINT, cores, "16", "receiving cores = queues, split evenly over the ports"),
	O("ports", T_UINT, ports, "2", "NIC ports, one model instance each"),
	O("link-gbps", T_DBL, link_gbps, "100", "line rate of each port"),
	O("load", T_DBL, load, "1", "offered load, fraction of line rate (0..1]"),
	O("pkt-size", T_UINT, pkt_size, "1500", "frame bytes the NIC writes"),
	O("wire-overhead", T_UINT, wire_overhead, "24",
	  "preamble, FCS and gap bytes per frame on the wire"),
	E("arrival", arrival, "poisson", "arrival process", arrival_names),
	O("burst", T_UINT, burst, "32", "burst: packets per burst, one flow each"),
	O("flows", T_UINT, flows, "4096", "flows per port (random 4-tuples, Toeplitz RSS)"),
	O("trace", T_STR, trace, "",
	  "trace file: lines TIME_NS FLOW [LEN [PORT]] (--arrival trace)"),
	O("trace-loop", T_BOOL, trace_loop, "0", "replay the trace until --packets"),
	O("target", T_INT, target, "-1", "queue of each port that gets --target-share (-1: none)"),
	O("target-share", T_DBL, target_share, "0.125",
	  "fraction of each port's packets to --target"),
	O("target-cycles", T_UINT, target_cycles, "0",
	  "more cycles per packet on the --target queue's core"),
	O("target-pkt-size", T_UINT, target_pkt_size, "0",
	  "size of the --target queue's packets (0: --pkt-size)"),
	O("target-accesses", T_UINT, target_accesses, "0",
	  "more random reads per packet on the --target queue's core"),
	O("packets", T_U64, packets, "2000000", "arrivals to simulate (all ports)"),
	O("warmup", T_DBL, warmup, "0.2", "fraction of --packets before measuring"),
	O("seed", T_U64, seed, "1", "random seed"),
	/* buffers */
	O("buf-stride", T_UINT, buf_stride, "2048", "bytes between receive buffers"),
	O("headroom", T_UINT, headroom, "0", "offset of packet data in a buffer"),
	E("pool-mode", pool_mode, "page_pool",
	  "page_pool: per queue; mempool: per port, per-core caches", pool_names),
	O("pool-x", T_DBL, pool_x, "0", "pool size / buffers the model posts (0: unlimited)"),
	O("pool-cache", T_UINT, pool_cache, "128", "per-core LIFO cache of the pool"),
	O("hold-us", T_DBL, hold_us, "0", "buffer held after processing (e.g. until Tx completes)"),
	/* cores */
	O("ghz", T_DBL, ghz, "2.1", "core clock"),
	O("cycles", T_UINT, cycles, "1138",
	  "base cycles per packet (without memory stalls; calibrated: predict.py)"),
	O("poll-cycles", T_UINT, poll_cycles, "100", "cycles per poll call"),
	O("budget", T_UINT, budget, "32", "packets per poll (NAPI budget, DPDK burst)"),
	O("touch-lines", T_UINT, touch_lines, "1",
	  "packet cache lines a core reads (0: all; 1: the headers, as NAT and LB)"),
	O("rewrite", T_BOOL, rewrite, "1", "the core writes the packet's first line (NAT/LB)"),
	O("app-accesses", T_UINT, app_accesses, "2", "random reads per packet in --app-mem"),
	O("app-mem", T_SIZE, app_mem, "40M", "application data the random reads go to"),
	O("irq-us", T_DBL, irq_us, "0",
	  "interrupt-to-poll delay of an idle core (0: busy polling)"),
	O("start-stall", T_DBL, start_stall, "0",
	  "no core polls before this fraction of --packets arrived (the NIC fills the rings)"),
	O("refill-retry-us", T_DBL, refill_retry_us, "10",
	  "an idle core whose ring is short of buffers retries its refill after this"),
	O("tx", T_BOOL, tx, "1", "the NIC DMA-reads each processed packet (forwarding)"),
	{ "extra", T_EXTRA, 0, "",
	  "CORE:CYCLES[:ACCESSES] more work on a core (repeatable; CORE -1: clear)", NULL },
	/* memory */
	O("llc", T_SIZE, llc_bytes, "22M", "LLC size"),
	O("llc-ways", T_UINT, llc_ways, "11", "LLC associativity"),
	O("ddio-ways", T_UINT, ddio_ways, "2", "ways DMA writes may allocate in (0: DDIO off)"),
	O("migrate", T_BOOL, migrate, "0",
	  "CPU-touched lines live in the ordinary ways (non-inclusive LLC)"),
	O("llc-ns", T_DBL, llc_ns, "20", "LLC hit latency"),
	O("dram-ns", T_DBL, dram_ns, "83", "DRAM latency, idle"),
	O("mem-gbs", T_DBL, mem_gbs, "55", "sustained DRAM bandwidth (GB/s)"),
	O("mem-load", T_DBL, mem_load, "0.4",
	  "loaded latency: dram-ns * (1 + mem-load * u / (1 - u)), u = bandwidth / mem-gbs"),
	O("mem-burst-ns", T_DBL, mem_burst_ns, "1000",
	  "DRAM backlog the memory system absorbs before requests wait"),
	O("mlp", T_DBL, mlp, "8", "overlap of a packet's later line misses (prefetch)"),
	/* PCIe and the NIC's buffer: Documentation/simulator.rst gives sources */
	O("pcie-gbps", T_DBL, pcie_gbps, "125",
	  "PCIe bandwidth per direction per port (0: no PCIe model)"),
	O("pcie-rd-ns", T_DBL, pcie_rd_ns, "500", "DMA read latency when the LLC hits"),
	O("pcie-reads", T_UINT, pcie_reads, "32",
	  "DMA reads a port keeps in flight (its read tags)"),
	O("nic-buf", T_SIZE, nic_buf, "256K", "on-NIC receive buffer per port"),
	O("nic-mpps", T_DBL, nic_mpps, "0",
	  "frames the NIC's pipeline takes per second a port, millions (0: no limit)"),
	O("tx-ring", T_UINT, tx_ring, "1024",
	  "--tx: Tx descriptors a queue's NIC ring holds"),
	O("tx-iqueue", T_UINT, tx_iqueue, "1024",
	  "--tx: packets the NF queues when its Tx ring is full"),
	O("tx-block", T_BOOL, tx_block, "1",
	  "--tx: with both full the core waits (0: the packet is dropped)"),
	O("desc-prefetch", T_BOOL, desc_prefetch, "1",
	  "NIC descriptor cache per queue, refilled by prefetch reads (0: fetched when posted)"),
	O("desc-cache", T_UINT, desc_cache, "64", "descriptors the NIC caches per queue"),
	O("desc-batch", T_UINT, desc_batch, "8",
	  "descriptors per prefetch read (one read request)"),
	O("desc-thresh", T_UINT, desc_thresh, "8",
	  "prefetch when fewer descriptors than this are cached (0: on demand only)"),
	O("desc-reads", T_UINT, desc_reads, "8",
	  "descriptor reads a ring's cache keeps in flight"),
	O("dma-engines", T_UINT, dma_engines, "0",
	  "descriptor waits a port overlaps (0: one per queue; 1: one engine a port)"),
	O("wb-batch", T_UINT, wb_batch, "1",
	  "completions a queue writes back in one PCIe write (1: a write a frame)"),
	/* cost of the ring-model code: sources in Documentation/simulator.rst */
	O("sync-cost", T_BOOL, sync_cost, "1",
	  "cores pay for the model code: atomics, locks, line transfers, allocs, doorbells"),
	O("atomic-ns", T_DBL, atomic_ns, "2.6", "locked RMW (atomic, cmpxchg, lock), owned line"),
	O("xfer-ns", T_DBL, xfer_ns, "25", "cache-line transfer from another core"),
	O("contention", T_BOOL, contention, "1",
	  "a line moves to one core at a time: contending cores wait for each other"),
	O("buf-xfer", T_BOOL, buf_xfer, "1",
	  "a buffer's metadata line (struct page, mbuf) moves between the cores using it"),
	O("fence-ns", T_DBL, fence_ns, "2.4", "full fence (smp_mb)"),
	O("alloc-ns", T_DBL, alloc_ns, "0.25", "buffer allocation or free by the driver"),
	O("doorbell-ns", T_DBL, doorbell_ns, "100", "core time of one MMIO doorbell write"),
	O("wss-window", T_UINT, wss_window, "65536",
	  "I/O working set: DMA writes per window (power of two)"),
	{ "change", T_CHANGE, 0, "",
	  "set OPT to VAL once a fraction AT of --packets arrived (repeatable)", NULL },
};

#define NOPTS	ARRAY_SIZE(opts)

/*
 * Accepted values of the numeric options: [lo, hi], an end excluded where
 * @open says so.  Bounds keep every value finite, non-negative where a
 * negative one means nothing, and every allocation the run makes bounded
 * (flows, windows, LLC, buffers).  An option not listed here gets its
 * type's default range (range_of()).
 */
#define LO_OPEN	1
#define HI_OPEN	2
struct range {
	const char *name;
	double lo, hi;
	unsigned int open;
};

#define SIM_MAX_FLOWS		BIT(20)
#define SIM_MAX_WSS_WINDOW	BIT(22)
#define SIM_MAX_LLC		BIT_ULL(30)
#define SIM_MAX_PACKETS		1e10
#define SIM_MAX_CYCLES		1e7
#define SIM_MAX_ACCESSES	1024
#define SIM_MAX_US		1e6	/* one second of simulated time */
#define SIM_MAX_NS		1e5
#define SIM_MAX_CEIO_ENTRIES	(256U * 1024)

#define R(n, lo, hi)		{ n, lo, hi, 0 }
#define RO(n, lo, hi, open)	{ n, lo, hi, open }
static const struct range ranges[] = {
	R("ring", 1, 65536), R("ax", 1, 65536),
	R("share", 1, SIM_MAX_CORES), R("ax-assoc", 0, SIM_MAX_CORES),
	R("notif-timeout-us", 0, SIM_MAX_US), R("dsh-period-us", 0, SIM_MAX_US),
	R("dsh-window", 0, 65536), R("dsh-tput-mbps", 0, 1e7),
	R("dsh-overload-ratio", 0, 1000),
	R("ceio-budget", 0, SIM_MAX_LLC), R("nicmem", 0, SIM_MAX_LLC),
	R("nicmem-fetch-ns", 0, SIM_MAX_NS), R("nicmem-split-hdr", 42, 256),
	R("cores", 1, SIM_MAX_CORES), R("ports", 1, SIM_MAX_PORTS),
	R("link-gbps", 0.001, 1e5), R("load", 0.000001, 1),
	R("pkt-size", 64, 65536), R("wire-overhead", 0, 1024),
	R("burst", 1, 1 << 20), R("flows", 0, SIM_MAX_FLOWS),
	R("target", -1, SIM_MAX_CORES - 1), R("target-share", 0, 1),
	R("target-cycles", 0, SIM_MAX_CYCLES),
	R("target-pkt-size", 0, 65536),
	R("target-accesses", 0, SIM_MAX_ACCESSES),
	R("packets", 1, SIM_MAX_PACKETS), RO("warmup", 0, 1, HI_OPEN),
	R("seed", 0, 18446744073709551615.0),
	R("buf-stride", 64, 65536), R("headroom", 0, 65536 - 64),
	R("pool-x", 0, 1000), R("pool-cache", 1, 65536),
	R("hold-us", 0, SIM_MAX_US),
	R("ghz", 0.01, 100), R("cycles", 0, SIM_MAX_CYCLES),
	R("poll-cycles", 0, SIM_MAX_CYCLES), R("budget", 1, SIM_MAX_BUDGET),
	R("touch-lines", 0, 1024), R("app-accesses", 0, SIM_MAX_ACCESSES),
	R("app-mem", 0, 1ULL << 40), R("irq-us", 0, SIM_MAX_US),
	RO("start-stall", 0, 1, HI_OPEN),
	R("refill-retry-us", 0.001, SIM_MAX_US),
	R("llc", 64 << 10, SIM_MAX_LLC), R("llc-ways", 1, 64),
	R("ddio-ways", 0, 64), R("llc-ns", 0, SIM_MAX_NS),
	R("dram-ns", 0, SIM_MAX_NS), R("mem-gbs", 0, 1e5),
	R("mem-load", 0, 1000), R("mlp", 1, 1024),
	R("mem-burst-ns", 0, SIM_MAX_NS * 10),
	R("nic-mpps", 0, 1e4), R("tx-ring", 1, 65536), R("tx-iqueue", 0, 65536),
	R("wss-window", 2, SIM_MAX_WSS_WINDOW),
	R("pcie-gbps", 0, 1e5), R("pcie-rd-ns", 0, 1e6),
	R("pcie-reads", 1, 4096), R("nic-buf", 2048, 1ULL << 32),
	/* one read request: 512 B, 32 descriptors of 16 B */
	R("desc-cache", 1, 4096), R("desc-batch", 1, SIM_DESC_BATCH_MAX),
	R("desc-thresh", 0, 4096), R("desc-reads", 1, 32),
	R("dma-engines", 0, RXB_MAX_MODEL_QUEUES),
	/* one TLP: 256 B, 16 completions of 16 B; 82598 WTHRESH: 0..16 */
	R("wb-batch", 1, SIM_WB_BATCH_MAX),
	R("atomic-ns", 0, SIM_MAX_NS), R("xfer-ns", 0, SIM_MAX_NS),
	R("fence-ns", 0, SIM_MAX_NS), R("alloc-ns", 0, SIM_MAX_NS),
	R("doorbell-ns", 0, SIM_MAX_NS),
};

/*
 * Options --change may set during a run: those the simulation reads as it
 * goes (sim.c, traffic.c).  The others size or set up the run.
 */
static const char *const live_opts[] = {
	"load", "cycles", "poll-cycles", "budget", "touch-lines", "rewrite",
	"app-accesses", "extra", "irq-us", "refill-retry-us", "tx", "hold-us",
	"llc-ns", "dram-ns", "mem-gbs", "mem-load", "mlp", "target-share",
	"sync-cost", "atomic-ns", "xfer-ns", "contention", "buf-xfer", "fence-ns",
	"alloc-ns", "doorbell-ns",
	"target-cycles", "target-accesses", NULL,
};

static char opt_err[512];

/* Why the last opt_apply() or sim_cfg_check() failed. */
const char *opt_error(void)
{
	return opt_err;
}

static int __printf(1, 2) fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(opt_err, sizeof(opt_err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct opt *opt_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NOPTS; i++)
		if (!strcmp(opts[i].name, name))
			return &opts[i];
	return NULL;
}

static bool numeric(const struct opt *o)
{
	return o->type == T_UINT || o->type == T_INT || o->type == T_U64 ||
	       o->type == T_SIZE || o->type == T_DBL;
}

static struct range range_of(const struct opt *o)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ranges); i++)
		if (!strcmp(ranges[i].name, o->name))
			return ranges[i];
	switch (o->type) {
	case T_INT:
		return (struct range)R(o->name, -1, INT32_MAX);
	case T_DBL:
		return (struct range)R(o->name, 0, 1e9);
	default:
		return (struct range)R(o->name, 0, UINT32_MAX);
	}
}

static bool in_range(const struct range *r, double v)
{
	return isfinite(v) &&
	       ((r->open & LO_OPEN) ? v > r->lo : v >= r->lo) &&
	       ((r->open & HI_OPEN) ? v < r->hi : v <= r->hi);
}

/* A bound as a user would write it: sizes with K/M/G. */
static void fmt_bound(char *buf, size_t len, double v, bool size)
{
	static const char sfx[] = "KMGT";
	int i;

	/* The largest u64 (--seed) is no double: 2^64 - 1, not 2^64. */
	if (v >= 0x1p64) {
		snprintf(buf, len, "%llu", (unsigned long long)UINT64_MAX);
		return;
	}
	for (i = 3; size && i >= 0; i--) {
		double unit = ldexp(1, 10 * (i + 1));

		if (v >= unit && fmod(v, unit) == 0) {
			snprintf(buf, len, "%.0f%c", v / unit, sfx[i]);
			return;
		}
	}
	snprintf(buf, len, "%.*g", v == floor(v) ? 20 : 6, v);
}

/* "a number in (0, 1]" for --help and messages. */
static void fmt_range(char *buf, size_t len, const struct opt *o)
{
	struct range r = range_of(o);
	char lo[32], hi[32];

	fmt_bound(lo, sizeof(lo), r.lo, o->type == T_SIZE);
	fmt_bound(hi, sizeof(hi), r.hi, o->type == T_SIZE);
	snprintf(buf, len, "%s in %c%s, %s%c",
		 o->type == T_DBL ? "a number" :
		 o->type == T_SIZE ? "a size (bytes, suffix K, M, G or T)" :
		 "an integer",
		 (r.open & LO_OPEN) ? '(' : '[', lo, hi,
		 (r.open & HI_OPEN) ? ')' : ']');
}

static int bad_enum(const struct opt *o, const char *v)
{
	char list[128] = "";
	unsigned int i;

	for (i = 0; o->names[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", o->names[i]);
	return fail("--%s \"%.64s\": want one of %s", o->name, v, list);
}

static int bad_value(const struct opt *o, const char *v)
{
	char want[160];

	fmt_range(want, sizeof(want), o);
	return fail("--%s \"%.64s\": want %s", o->name, v, want);
}

/*
 * An integer: decimal, 0x hex, or a decimal with an exponent that gives an
 * integer ("1e7"); no sign unless @sign, no blanks, nothing after it.
 */
static bool parse_int(const char *v, bool sign, double *out, u64 *exact)
{
	const char *p = v + (sign && *v == '-');
	unsigned long long n;
	char *end;
	double d;

	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		n = strtoull(p + 2, &end, 16);
	else
		n = strtoull(p, &end, 10);
	if (errno || (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		      !isxdigit((unsigned char)p[2])))
		return false;
	d = (double)n;
	if (*end == 'e' || *end == 'E' || *end == '.') {
		d = strtod(p, &end);
		if (errno || !isfinite(d) || d != floor(d) || d > 0x1p53)
			return false;
	}
	if (*end)
		return false;
	*out = p != v ? -d : d;
	if (exact)
		*exact = d == (double)n ? n : (u64)d;
	return true;
}

/* A finite decimal number; no blanks, "nan", "inf" or hex. */
static bool parse_dbl(const char *v, double *out)
{
	const char *p = v + (*v == '-' || *v == '+');
	char *end;

	if (!isdigit((unsigned char)*p) && *p != '.')
		return false;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return false;
	errno = 0;
	*out = strtod(v, &end);
	return !errno && !*end && end != v && isfinite(*out);
}

/* A byte count: a number with an optional K, M, G or T (binary) suffix. */
static bool parse_size(const char *v, double *out)
{
	static const char sfx[] = "KMGT";
	const char *s;
	char *end;
	double d;

	if (!isdigit((unsigned char)*v) && *v != '.')
		return false;
	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || !isfinite(d))
		return false;
	if (*end) {
		s = strchr(sfx, toupper((unsigned char)*end));
		if (!s || !*s)
			return false;
		d = ldexp(d, 10 * (int)(s - sfx + 1));
		end++;
		if (!strcasecmp(end, "i") || !strcasecmp(end, "ib") ||
		    !strcasecmp(end, "b"))
			end += strlen(end);
	}
	if (*end || d != floor(d))
		return false;
	*out = d;
	return true;
}

static int parse_bool(const char *v, bool *out)
{
	if (!v || !strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") ||
	    !strcasecmp(v, "true")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "off") ||
	    !strcasecmp(v, "false")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/* "CORE:CYCLES[:ACCESSES]", or "-1" to clear. */
static int apply_extra(struct sim_cfg *c, const char *v)
{
	static const char want[] =
		"want CORE:CYCLES[:ACCESSES] (0..63:0..1e7:0..1024) or -1";
	char buf[64], *f[4], *rest = buf;
	double core, cyc, acc = 0;
	unsigned int n = 0;

	if (strlen(v) >= sizeof(buf))
		return fail("--extra \"%.64s\": %s", v, want);
	strcpy(buf, v);
	while (rest && n < 4)
		f[n++] = strsep(&rest, ":");
	if (n == 1 && !strcmp(f[0], "-1")) {
		memset(c->extra_cycles, 0, sizeof(c->extra_cycles));
		memset(c->extra_accesses, 0, sizeof(c->extra_accesses));
		return 0;
	}
	if (rest || n < 2 || n > 3 ||
	    !parse_int(f[0], false, &core, NULL) || core >= SIM_MAX_CORES ||
	    !parse_int(f[1], false, &cyc, NULL) || cyc > SIM_MAX_CYCLES ||
	    (n == 3 && (!parse_int(f[2], false, &acc, NULL) ||
			acc > SIM_MAX_ACCESSES)))
		return fail("--extra \"%.64s\": %s", v, want);
	c->extra_cycles[(int)core] = cyc;
	c->extra_accesses[(int)core] = acc;
	return 0;
}

static bool live(const char *name)
{
	unsigned int i;

	for (i = 0; live_opts[i]; i++)
		if (!strcmp(live_opts[i], name))
			return true;
	return false;
}

/* The options --change may set, for messages. */
static const char *live_list(void)
{
	static char buf[512];
	unsigned int i;

	if (!*buf)
		for (i = 0; live_opts[i]; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 i ? ", " : "", live_opts[i]);
	return buf;
}

/* "AT:OPT=VAL": kept in order of AT; checked with the rest in sim_cfg_check(). */
static int apply_change(struct sim_cfg *c, const char *v)
{
	const char *colon = strchr(v, ':'), *eq;
	struct sim_change ch = { 0 };
	struct sim_cfg tmp;
	char at[32];
	unsigned int i;

	if (c->nchange >= SIM_MAX_CHANGES)
		return fail("--change: at most %d changes", SIM_MAX_CHANGES);
	eq = colon ? strchr(colon, '=') : NULL;
	if (!colon || !eq || eq == colon + 1 || (size_t)(colon - v) >= sizeof(at))
		return fail("--change \"%.64s\": want AT:OPT=VALUE, AT in [0, 1]", v);
	memcpy(at, v, colon - v);
	at[colon - v] = 0;
	if (!parse_dbl(at, &ch.at) || ch.at < 0 || ch.at > 1)
		return fail("--change \"%.64s\": AT must be a number in [0, 1]", v);
	if ((size_t)(eq - colon - 1) >= sizeof(ch.opt) ||
	    strlen(eq + 1) >= sizeof(ch.val))
		return fail("--change \"%.64s\": option or value too long", v);
	memcpy(ch.opt, colon + 1, eq - colon - 1);
	strcpy(ch.val, eq + 1);
	if (!opt_find(ch.opt))
		return fail("--change \"%.64s\": no option --%s", v, ch.opt);
	if (!live(ch.opt))
		return fail("--change \"%.64s\": --%s cannot change during a run (these can: %s)",
			    v, ch.opt, live_list());
	tmp = *c;
	if (opt_apply(&tmp, ch.opt, ch.val)) {
		char why[sizeof(opt_err)];

		snprintf(why, sizeof(why), "%s", opt_err);
		return fail("--change %.64s: %s", v, why);
	}
	/* In order of AT, after those at the same AT. */
	for (i = c->nchange; i && c->change[i - 1].at > ch.at; i--)
		c->change[i] = c->change[i - 1];
	c->change[i] = ch;
	c->nchange++;
	return 0;
}

int opt_apply(struct sim_cfg *c, const char *name, const char *val)
{
	const struct opt *o;
	struct range r;
	unsigned int i;
	size_t max;
	double d;
	u64 u = 0;
	void *p;

	if (!name)
		return fail("no option name");
	o = opt_find(name);
	if (!o && !strncmp(name, "no-", 3)) {
		o = opt_find(name + 3);
		if (!o || o->type != T_BOOL || val)
			return fail("--%.64s: no such option", name);
		*(bool *)((char *)c + o->off) = false;
		return 0;
	}
	if (!o)
		return fail("--%.64s: no such option (see --help)", name);
	p = (char *)c + o->off;
	if (!val && o->type != T_BOOL)
		return fail("--%s needs a value", o->name);
	r = range_of(o);
	switch (o->type) {
	case T_UINT:
	case T_INT:
	case T_U64:
	case T_SIZE:
	case T_DBL:
		if (!(o->type == T_SIZE ? parse_size(val, &d) :
		      o->type == T_DBL ? parse_dbl(val, &d) :
		      parse_int(val, o->type == T_INT, &d, &u)) || !in_range(&r, d))
			return bad_value(o, val);
		if (o->type == T_UINT)
			*(unsigned int *)p = d;
		else if (o->type == T_INT)
			*(int *)p = d;
		else if (o->type == T_DBL)
			*(double *)p = d;
		else if (o->type == T_SIZE)
			*(u64 *)p = d;
		else	/* exactly, beyond a double's integers (--seed) */
			*(u64 *)p = u;
		return 0;
	case T_STR:
		max = o->off == offsetof(struct sim_cfg, model) ? SIM_NAME_LEN :
		      sizeof(c->trace);
		if (strlen(val) >= max)
			return fail("--%s: at most %zu bytes", o->name, max - 1);
		strcpy(p, val);
		return 0;
	case T_BOOL:
		if (parse_bool(val, p))
			return fail("--%s \"%.64s\": want 1, 0, yes, no, on, off, true or false",
				    o->name, val);
		return 0;
	case T_ENUM:
		for (i = 0; o->names[i]; i++)
			if (!strcmp(o->names[i], val)) {
				*(unsigned int *)p = i;
				return 0;
			}
		return bad_enum(o, val);
	case T_EXTRA:
		return apply_extra(c, val);
	case T_CHANGE:
		return apply_change(c, val);
	}
	return fail("--%s: unknown option type", o->name);
}

void sim_cfg_default(struct sim_cfg *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NOPTS; i++)
		if (opts[i].type < T_EXTRA && opt_apply(c, opts[i].name, opts[i].def))
			abort();
}

/* The value of numeric option @o in @c. */
static double opt_num(const struct sim_cfg *c, const struct opt *o)
{
	const void *p = (const char *)c + o->off;

	switch (o->type) {
	case T_UINT:
		return *(const unsigned int *)p;
	case T_INT:
		return *(const int *)p;
	case T_U64:
	case T_SIZE:
		return (double)*(const u64 *)p;
	default:
		return *(const double *)p;
	}
}

/*
 * The options a model instance's configuration comes from (sim.c,
 * cfg_model()), in the order a refusal is blamed on them.
 */
static const char *const model_opts[] = {
	"ring", "ax", "share", "ax-assoc", "ax-policy", "notif-timeout-us",
	"dsh-period-us", "dsh-window", "dsh-tput-mbps", "dsh-overload-ratio",
	"ceio-budget", "ceio-force-slow", "nicmem", "nicmem-split", "buf-stride",
	"headroom", "cores", "ports", "llc", "llc-ways", "ddio-ways", NULL,
};

/*
 * The model's own rules (rxb_model_validate(), as the module applies
 * them), named by option: the one whose default the model would accept
 * with everything else as given, else the model.
 */
static int cfg_check_opts(const struct sim_cfg *c);

static int model_check(const struct sim_cfg *c)
{
	const char *msg, *m2;
	struct sim_cfg tmp;
	unsigned int i;
	char buf[64];

	if (!sim_model_check(c, &msg))
		return 0;
	for (i = 0; model_opts[i]; i++) {
		const struct opt *o = opt_find(model_opts[i]);

		tmp = *c;
		if (opt_apply(&tmp, o->name, o->def) || cfg_check_opts(&tmp) ||
		    sim_model_check(&tmp, &m2))
			continue;
		opt_value(c, o->name, buf, sizeof(buf));
		return fail("--%s %s: %s", o->name, buf,
			    msg ? msg : "the ring model refuses it");
	}
	return fail("--model %.32s: %s", c->model,
		    msg ? msg : "the ring model refuses this configuration");
}

/* Every option in its range, then the rules between options. */
static int cfg_check_opts(const struct sim_cfg *c)
{
	unsigned int i;

	for (i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];
		struct range r = range_of(o);
		char buf[64], want[160];

		if (!numeric(o) || in_range(&r, opt_num(c, o)))
			continue;
		opt_value(c, o->name, buf, sizeof(buf));
		fmt_range(want, sizeof(want), o);
		return fail("--%s %s: want %s", o->name, buf, want);
	}
	if (!rxb_model_find(c->model))
		return fail("--model \"%.32s\": no such ring model (see --list-models)",
			    c->model);
	if (c->cores % c->ports)
		return fail("--cores %u: want a multiple of --ports %u", c->cores,
			    c->ports);
	if (c->cores / c->ports > RXB_MAX_MODEL_QUEUES)
		return fail("--cores / --ports: at most %d queues per port",
			    RXB_MAX_MODEL_QUEUES);
	if (c->buf_stride % 64)
		return fail("--buf-stride %u: want a multiple of 64", c->buf_stride);
	if (c->headroom + 64 > c->buf_stride)
		return fail("--headroom %u: want at most --buf-stride %u - 64",
			    c->headroom, c->buf_stride);
	if (c->pkt_size + c->headroom > c->buf_stride)
		return fail("--pkt-size %u: want at most --buf-stride - --headroom (%u)",
			    c->pkt_size, c->buf_stride - c->headroom);
	if (c->target_pkt_size && (c->target_pkt_size < 64 ||
				   c->target_pkt_size + c->headroom > c->buf_stride))
		return fail("--target-pkt-size %u: want 0, or 64 to --buf-stride - --headroom (%u)",
			    c->target_pkt_size, c->buf_stride - c->headroom);
	if (c->arrival == ARR_TRACE) {
		struct stat st;

		if (!*c->trace)
			return fail("--arrival trace needs --trace FILE");
		if (stat(c->trace, &st))
			return fail("--trace %.200s: %s", c->trace, strerror(errno));
		if (!S_ISREG(st.st_mode) || st.st_size > (1LL << 30))
			return fail("--trace %.200s: want a regular file of at most 1 GiB",
				    c->trace);
		if (traffic_check_trace(c, opt_err, sizeof(opt_err)))
			return -EINVAL;
	} else if (!c->flows) {
		return fail("--flows must be at least 1");
	}
	if (c->target >= (int)(c->cores / c->ports))
		return fail("--target %d: want -1 or a queue of a port, 0..%u",
			    c->target, c->cores / c->ports - 1);
	if (c->ddio_ways > c->llc_ways)
		return fail("--ddio-ways %u: at most --llc-ways %u", c->ddio_ways,
			    c->llc_ways);
	if (c->llc_bytes < 64ULL * c->llc_ways)
		return fail("--llc: want at least 64 bytes per way");
	if (c->wss_window & (c->wss_window - 1))
		return fail("--wss-window %u: want a power of two", c->wss_window);
	if (!strcmp(c->model, "ceio")) {
		u64 ddio = c->llc_bytes / c->llc_ways * c->ddio_ways;
		u64 budget = c->ceio_budget ? c->ceio_budget : ddio;
		u64 buf = c->buf_stride - c->headroom;

		if (!c->ceio_force_slow && budget / c->ports < buf)
			return fail("--ceio-budget %llu: want at least a buffer (%llu B) per port",
				    (unsigned long long)c->ceio_budget,
				    (unsigned long long)buf);
		if (c->ceio_force_slow && !c->nicmem)
			return fail("--ceio-force-slow: want --nicmem above 0");
		/* Its slow rings (in NIC memory) hold 8 entries per Rx entry. */
		if ((u64)c->ring * c->cores > SIM_MAX_CEIO_ENTRIES)
			return fail("--ring %u x --cores %u: ceio takes at most %u entries in all",
				    c->ring, c->cores, SIM_MAX_CEIO_ENTRIES);
	}
	/* The cache holds what is left below the threshold plus a read. */
	if (c->desc_batch > c->desc_cache)
		return fail("--desc-batch %u: at most --desc-cache %u",
			    c->desc_batch, c->desc_cache);
	if (c->desc_thresh + c->desc_batch - 1 > c->desc_cache)
		return fail("--desc-thresh %u: at most --desc-cache - --desc-batch + 1 = %u",
			    c->desc_thresh, c->desc_cache - c->desc_batch + 1);
	if (c->nicmem_split) {
		const struct rxb_model_ops *ops = rxb_model_find(c->model);

		/* The module's rules (rxb_model_validate()), named here. */
		if (ops->multi_pkt_bufs || ops->stream)
			return fail("--nicmem-split: --model %s has no buffer per packet",
				    c->model);
		if (!c->nicmem)
			return fail("--nicmem-split: want --nicmem above 0 (the payloads' tier)");
		/* The split record's room before the buffer. */
		if (c->headroom < RXB_HDS_REC_ROOM)
			return fail("--nicmem-split: want --headroom %d or more, not %u",
				    RXB_HDS_REC_ROOM, c->headroom);
	}
	for (i = c->cores; i < SIM_MAX_CORES; i++)
		if (c->extra_cycles[i] || c->extra_accesses[i])
			return fail("--extra %u:...: want a core below --cores %u",
				    i, c->cores);
	return 0;
}

static int cfg_check(const struct sim_cfg *c)
{
	return cfg_check_opts(c) ?: model_check(c);
}

bool sim_cfg_check(const struct sim_cfg *c, FILE *err)
{
	struct sim_cfg tmp;
	unsigned int i;
	int bad = cfg_check(c);

	if (!bad && c->nchange > SIM_MAX_CHANGES)
		bad = fail("--change: at most %d changes", SIM_MAX_CHANGES);
	/* Each change, on top of the earlier ones, keeps the run valid. */
	tmp = *c;
	tmp.nchange = 0;
	for (i = 0; !bad && i < c->nchange; i++) {
		const struct sim_change *ch = &c->change[i];
		char why[sizeof(opt_err)];

		if (!memchr(ch->opt, 0, sizeof(ch->opt)) ||
		    !memchr(ch->val, 0, sizeof(ch->val)) ||
		    !(ch->at >= 0 && ch->at <= 1) ||
		    (i && ch->at < c->change[i - 1].at) || !live(ch->opt)) {
			bad = fail("--change number %u: want AT in [0, 1], in order, one of: %s",
				   i + 1, live_list());
		} else if (opt_apply(&tmp, ch->opt, ch->val) || cfg_check(&tmp)) {
			snprintf(why, sizeof(why), "%s", opt_err);
			bad = fail("--change %g:%s=%s: %s", ch->at, ch->opt,
				   ch->val, why);
		}
	}
	if (bad && err)
		fprintf(err, "rxbisect-sim: %s\n", opt_err);
	return !bad;
}

void opt_help(FILE *f)
{
	static const char *const type_arg[] = {
		[T_UINT] = "N", [T_INT] = "N", [T_U64] = "N", [T_SIZE] = "BYTES",
		[T_DBL] = "X", [T_STR] = "S", [T_BOOL] = "[=0|1]",
		[T_ENUM] = "", [T_EXTRA] = "C:CYC[:ACC]", [T_CHANGE] = "AT:OPT=VAL",
	};
	unsigned int i, j;

	for (i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];
		char arg[160] = "";

		if (o->type == T_ENUM) {
			for (j = 0; o->names[j]; j++) {
				strcat(arg, j ? "|" : "");
				strcat(arg, o->names[j]);
			}
		} else {
			strcpy(arg, type_arg[o->type]);
		}
		fprintf(f, "  --%s%s%s\n        %s", o->name,
			o->type == T_BOOL ? "" : " ", arg, o->help);
		if (*o->def)
			fprintf(f, " [%s]", o->def);
		if (numeric(o)) {
			fmt_range(arg, sizeof(arg), o);
			fprintf(f, "\n        %s", arg);
		}
		fputc('\n', f);
	}
	fprintf(f, "\n  --change may set: %s.\n"
		"  Limits keep runs bounded: at most %d cores, %d ports, %d flows per port,\n"
		"  a %d-write --wss-window, a 1 GiB LLC, 1e10 packets; a --trace file of\n"
		"  at most 1 GiB.\n", live_list(), SIM_MAX_CORES, SIM_MAX_PORTS,
		(int)SIM_MAX_FLOWS, (int)SIM_MAX_WSS_WINDOW);
}

unsigned int opt_count(void)
{
	return NOPTS;
}

const char *opt_name(unsigned int i, int *has_arg)
{
	*has_arg = opts[i].type == T_BOOL ? 2 : 1;
	return opts[i].name;
}

int opt_value(const struct sim_cfg *c, const char *name, char *buf, size_t len)
{
	const struct opt *o = opt_find(name);
	const void *p;

	if (!o)
		return -ENOENT;
	p = (const char *)c + o->off;
	switch (o->type) {
	case T_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)p);
		break;
	case T_INT:
		snprintf(buf, len, "%d", *(const int *)p);
		break;
	case T_U64:
	case T_SIZE:
		snprintf(buf, len, "%llu", (unsigned long long)*(const u64 *)p);
		break;
	case T_DBL:
		snprintf(buf, len, "%g", *(const double *)p);
		break;
	case T_STR:
		snprintf(buf, len, "%s", (const char *)p);
		break;
	case T_BOOL:
		snprintf(buf, len, "%d", *(const bool *)p);
		break;
	case T_ENUM:
		snprintf(buf, len, "%s", o->names[*(const unsigned int *)p]);
		break;
	default:
		snprintf(buf, len, "-");
	}
	return 0;
}

/* ---- metrics ------------------------------------------------------- */

#define M(n, f) \
	static double m_##n(const struct sim_res *r) { return (double)(f); }
M(gbps, r->gbps)
M(mpps, r->mpps)
M(offered_gbps, r->offered_gbps)
M(drop_pct, r->drop_pct)
M(nobuf, r->nobuf)
M(ring_full, r->ring_full)
M(oversize, r->oversize)
M(alloc_fails, r->alloc_fails)
M(nic_drop, r->nic_drop)
M(pcie_up_gbs, r->pcie_up_gbs)
M(pcie_down_gbs, r->pcie_down_gbs)
M(pcie_rd_us, r->pcie_rd_us)
M(rd_wait_us, r->rd_wait_us)
M(meta_pct, r->meta_pct)
M(tx_occ_pct, r->tx_occ_pct)
M(tx_block_pct, r->tx_block_pct)
M(tx_drop, r->tx_drop)
M(desc_wait_pct, r->delivered ? 100.0 * r->desc_waits / r->delivered : 0)
M(desc_wait_us, r->desc_wait_us)
M(desc_miss_pct, r->delivered ? 100.0 * r->desc_misses / r->delivered : 0)
M(desc_rd_pkt, r->delivered ? (double)r->desc_reads / r->delivered : 0)
M(cqe_wr_pkt, r->delivered ? (double)r->cqe_writes / r->delivered : 0)
M(lat_p50_us, r->lat_p50_us)
M(lat_p99_us, r->lat_p99_us)
M(lat_p999_us, r->lat_p999_us)
M(lat_mean_us, r->lat_mean_us)
M(occ, r->occ_mean)
M(occ_pct, r->occ_pct)
M(ddio_hit, 100 * r->ddio_hit)
M(tx_hit, 100 * r->tx_hit)
M(cpu_hit, 100 * r->cpu_pkt_hit)
M(app_hit, 100 * r->app_hit)
M(mem_gbs, r->mem_gbs)
M(mem_rd_gbs, r->mem_rd_gbs)
M(mem_wr_gbs, r->mem_wr_gbs)
M(wss_mib, r->wss_mib)
M(wss_peak_mib, r->wss_peak_mib)
M(wss_bufs, r->wss_bufs)
M(res_bufs, r->res_mean)
M(res_peak, r->res_peak)
M(tier_pct, r->tier_pct)
M(tier_peak_mib, r->tier_peak_mib)
M(nicmem_host_bytes, r->nm_host_bytes)
M(nicmem_nic_bytes, r->nm_nic_bytes)
M(nicmem_split_frames, r->nm_split)
M(nicmem_split_whole, r->nm_whole)
M(nicmem_split_fallback, r->nm_fallback)
M(nicmem_split_fetch_bytes, r->nm_fetch_bytes)
M(nicmem_fetch_us, r->nm_fetch_us)
M(util, 100 * r->util)
M(cyc_pkt, r->cyc_pkt)
M(model_cyc, r->model_cyc_pkt)
M(xfers, r->xfer_pkt)
M(rmws, r->rmw_pkt)
M(locks, r->lock_pkt)
M(fences, r->fence_pkt)
M(allocs, r->alloc_pkt)
M(doorbells, r->db_pkt)
M(xfer_wait_ns, r->xwait_ns_pkt)
M(buf_xfers, r->buf_xfer_pkt)
M(mmio_rd_pkt, r->mmio_rd_pkt)
M(mmio_ns_pkt, r->mmio_ns_pkt)
M(cross_frees, r->cross_frees)
M(buf_errs, r->buf_errs)
M(sim_ms, r->sim_s * 1e3)
M(wall_s, r->wall_s)
#undef M

#define MD(n, fmt, h) { #n, fmt, m_##n, h }
const struct sim_metric sim_metrics[] = {
	MD(gbps, "%.1f", "delivered throughput (Gbit/s of frames)"),
	MD(mpps, "%.2f", "delivered packets (Mpps)"),
	MD(offered_gbps, "%.1f", "offered load (Gbit/s)"),
	MD(drop_pct, "%.3f", "dropped packets (% of arrivals)"),
	MD(nobuf, "%.0f", "drops: no buffer posted (rxb_qstats.nobuf_drops)"),
	MD(ring_full, "%.0f", "drops: completion / Bx ring full"),
	MD(oversize, "%.0f", "drops: frame larger than the buffer"),
	MD(alloc_fails, "%.0f", "buffer allocation failures (pool exhausted)"),
	MD(nic_drop, "%.0f", "drops: on-NIC buffer full behind stalled DMA"),
	MD(pcie_up_gbs, "%.1f", "PCIe NIC-to-host bytes, TLP overhead included (GB/s)"),
	MD(pcie_down_gbs, "%.1f", "PCIe host-to-NIC bytes, TLP overhead included (GB/s)"),
	MD(pcie_rd_us, "%.2f", "Tx DMA read request latency, mean (us; thesis Fig. 5.7e)"),
	MD(rd_wait_us, "%.3f", "DMA reads: mean wait for a free read tag (us)"),
	MD(meta_pct, "%.1f",
	   "PCIe host-to-NIC bytes that are descriptors or notifications (%; Enso section 2)"),
	MD(tx_occ_pct, "%.1f", "NIC Tx ring occupancy, % of --tx-ring (thesis Fig. 5.7f)"),
	MD(tx_block_pct, "%.1f", "core time spent waiting for a full Tx path (%)"),
	MD(tx_drop, "%.0f", "drops: Tx path full (--tx-block 0)"),
	MD(desc_wait_pct, "%.2f",
	   "frames the DMA engine held for a descriptor not cached (% of delivered)"),
	MD(desc_wait_us, "%.3f", "mean wait of those frames for their descriptor (us)"),
	MD(desc_miss_pct, "%.2f",
	   "list ring: descriptors taken out of array order, cache misses (% of delivered)"),
	MD(desc_rd_pkt, "%.3f", "descriptor read requests per delivered packet"),
	MD(cqe_wr_pkt, "%.3f",
	   "completion write-backs (PCIe writes) per delivered packet (--wb-batch)"),
	MD(lat_p50_us, "%.1f", "latency, NIC arrival to processed, median (us)"),
	MD(lat_p99_us, "%.1f", "latency, 99th percentile (us)"),
	MD(lat_p999_us, "%.1f", "latency, 99.9th percentile (us)"),
	MD(lat_mean_us, "%.1f", "latency, mean (us)"),
	MD(occ, "%.1f", "ring occupancy: unconsumed entries per queue"),
	MD(occ_pct, "%.1f", "ring occupancy, % of --ring"),
	MD(ddio_hit, "%.1f", "DMA writes that found their line in the LLC (%)"),
	MD(tx_hit, "%.1f", "Tx DMA reads served by the LLC (%)"),
	MD(cpu_hit, "%.1f", "core reads of packet lines that hit the LLC (%)"),
	MD(app_hit, "%.1f", "application reads that hit the LLC (%)"),
	MD(mem_gbs, "%.1f", "DRAM traffic, read + write-back (GB/s)"),
	MD(mem_rd_gbs, "%.1f", "DRAM reads (GB/s)"),
	MD(mem_wr_gbs, "%.1f", "DRAM write-backs (GB/s)"),
	MD(wss_mib, "%.2f",
	   "I/O working set, mean (MiB of packet bytes, wss.c; several a buffer: per packet)"),
	MD(wss_peak_mib, "%.2f", "I/O working set, peak (MiB)"),
	MD(wss_bufs, "%.0f", "I/O working set, mean (buffers)"),
	MD(res_bufs, "%.0f", "host-resident packets: written to host memory, not processed, mean"),
	MD(res_peak, "%.0f", "host-resident packets, peak"),
	MD(tier_pct, "%.2f",
	   "packets the NIC kept in its memory tier (ceio slow path, % of arrivals)"),
	MD(tier_peak_mib, "%.2f", "on-NIC memory tier, peak bytes held (MiB, whole run)"),
	MD(nicmem_host_bytes, "%.0f",
	   "--nicmem-split: bytes written to host memory (headers, records, frames, fetches)"),
	MD(nicmem_nic_bytes, "%.0f", "--nicmem-split: payload bytes kept in NIC memory"),
	MD(nicmem_split_frames, "%.0f", "--nicmem-split: frames split"),
	MD(nicmem_split_whole, "%.0f", "--nicmem-split: frames written whole, nothing to split"),
	MD(nicmem_split_fallback, "%.0f",
	   "--nicmem-split: frames written whole, no room in the tier"),
	MD(nicmem_split_fetch_bytes, "%.0f",
	   "--nicmem-split: payload bytes fetched to the host (part of nicmem_host_bytes)"),
	MD(nicmem_fetch_us, "%.2f", "--nicmem-split: mean wait of a core for a payload fetch (us)"),
	MD(util, "%.1f", "core busy time (%)"),
	MD(cyc_pkt, "%.1f", "core busy cycles per delivered packet, model code included"),
	MD(model_cyc, "%.1f", "cycles per packet in the ring-model code (--sync-cost)"),
	MD(xfers, "%.2f", "model state: cache-line transfers between cores per packet"),
	MD(rmws, "%.2f", "model code: locked RMWs (atomics) per packet, locks excluded"),
	MD(locks, "%.2f", "model code: spinlock acquisitions per packet"),
	MD(fences, "%.2f", "model code: full fences per packet"),
	MD(allocs, "%.2f", "model code: buffer allocator calls per packet"),
	MD(doorbells, "%.3f", "model code: doorbell writes per packet"),
	MD(mmio_rd_pkt, "%.3f",
	   "driver's MMIO reads of NIC registers/memory per packet (pcie_mmio_reads)"),
	MD(mmio_ns_pkt, "%.1f",
	   "core stall on those uncached reads, ns per packet (--pcie-rd-ns each)"),
	MD(xfer_wait_ns, "%.2f",
	   "model code: ns per packet waiting for a line another core is taking (--contention)"),
	MD(buf_xfers, "%.2f",
	   "buffer metadata lines moved between cores per packet (--buf-xfer; in model_cyc)"),
	MD(cross_frees, "%.0f", "buffers freed by a core other than their pool's"),
	MD(buf_errs, "%.0f",
	   "buffer reference errors (a buffer freed with a packet in it outstanding): 0"),
	MD(sim_ms, "%.2f", "simulated time measured (ms)"),
	MD(wall_s, "%.2f", "wall-clock time of the run (s)"),
};

const unsigned int sim_nmetrics = ARRAY_SIZE(sim_metrics);

const struct sim_metric *sim_metric_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sim_nmetrics; i++)
		if (!strcmp(sim_metrics[i].name, name))
			return &sim_metrics[i];
	return NULL;
}
