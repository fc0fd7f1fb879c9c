// SPDX-License-Identifier: GPL-2.0
/*
 * Options of rxbisect-sim: one table gives the command line (getopt_long),
 * --help, --sweep (any option by name) and the defaults: the seeds'
 * testbed (Xeon Silver 4216: 16 cores at 2.1 GHz, 22 MiB 11-way LLC with
 * 2 DDIO ways, 2 x 100 Gbps, 1500 B packets).
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/kernel.h>
#include <rxbisect/rxb_model.h>

#include "sim.h"

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
	O("cycles", T_UINT, cycles, "1200", "base cycles per packet (without memory stalls)"),
	O("poll-cycles", T_UINT, poll_cycles, "100", "cycles per poll call"),
	O("budget", T_UINT, budget, "32", "packets per poll (NAPI budget, DPDK burst)"),
	O("touch-lines", T_UINT, touch_lines, "0", "packet cache lines a core reads (0: all)"),
	O("rewrite", T_BOOL, rewrite, "1", "the core writes the packet's first line (NAT/LB)"),
	O("app-accesses", T_UINT, app_accesses, "2", "random reads per packet in --app-mem"),
	O("app-mem", T_SIZE, app_mem, "40M", "application data the random reads go to"),
	O("irq-us", T_DBL, irq_us, "0",
	  "interrupt-to-poll delay of an idle core (0: busy polling)"),
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
	O("dram-ns", T_DBL, dram_ns, "90", "DRAM latency, idle"),
	O("mem-gbs", T_DBL, mem_gbs, "80", "DRAM bandwidth (GB/s) the latency rises towards"),
	O("mem-load", T_DBL, mem_load, "1",
	  "loaded latency: dram-ns * (1 + mem-load * u / (1 - u))"),
	O("mlp", T_DBL, mlp, "8", "overlap of a packet's later line misses (prefetch)"),
	/* PCIe and the NIC's buffer: Documentation/simulator.rst gives sources */
	O("pcie-gbps", T_DBL, pcie_gbps, "125",
	  "PCIe bandwidth per direction per port (0: no PCIe model)"),
	O("pcie-rd-ns", T_DBL, pcie_rd_ns, "500", "DMA read latency when the LLC hits"),
	O("pcie-reads", T_UINT, pcie_reads, "64", "outstanding DMA reads per port"),
	O("nic-buf", T_SIZE, nic_buf, "256K", "on-NIC receive buffer per port"),
	O("wss-window", T_UINT, wss_window, "65536",
	  "I/O working set: DMA writes per window (power of two)"),
	{ "change", T_CHANGE, 0, "",
	  "set OPT to VAL once a fraction AT of --packets arrived (repeatable)", NULL },
};

#define NOPTS	ARRAY_SIZE(opts)

static const struct opt *opt_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NOPTS; i++)
		if (!strcmp(opts[i].name, name))
			return &opts[i];
	return NULL;
}

static int parse_u64(const char *v, u64 *out, bool size)
{
	char *end;
	unsigned long long n;
	double d;

	errno = 0;
	if (!*v || *v == '-')
		return -EINVAL;
	n = strtoull(v, &end, 0);
	if (errno)
		return -EINVAL;
	if (size && *end == '.') {
		d = strtod(v, &end);
		n = (unsigned long long)d;
	} else {
		d = (double)n;
	}
	if (size && *end) {
		double mul;

		switch (toupper((unsigned char)*end)) {
		case 'K':
			mul = 1024.0;
			break;
		case 'M':
			mul = 1024.0 * 1024;
			break;
		case 'G':
			mul = 1024.0 * 1024 * 1024;
			break;
		default:
			return -EINVAL;
		}
		end++;
		if (!strcasecmp(end, "i") || !strcasecmp(end, "ib") ||
		    !strcasecmp(end, "b"))
			end += strlen(end);
		n = (unsigned long long)(d * mul);
	}
	if (*end)
		return -EINVAL;
	*out = n;
	return 0;
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

static int apply_extra(struct sim_cfg *c, const char *v)
{
	int core;
	unsigned int cyc = 0, acc = 0;
	int n = sscanf(v, "%d:%u:%u", &core, &cyc, &acc);

	if (n >= 1 && core == -1) {
		memset(c->extra_cycles, 0, sizeof(c->extra_cycles));
		memset(c->extra_accesses, 0, sizeof(c->extra_accesses));
		return 0;
	}
	if (n < 2 || core < 0 || core >= SIM_MAX_CORES)
		return -EINVAL;
	c->extra_cycles[core] = cyc;
	c->extra_accesses[core] = acc;
	return 0;
}

static int apply_change(struct sim_cfg *c, const char *v)
{
	struct sim_change *ch;
	const char *colon = strchr(v, ':'), *eq;
	char *end;

	if (!colon || c->nchange == SIM_MAX_CHANGES)
		return -EINVAL;
	eq = strchr(colon, '=');
	if (!eq || eq == colon + 1 || (size_t)(eq - colon - 1) >= sizeof(ch->opt) ||
	    strlen(eq + 1) >= sizeof(ch->val))
		return -EINVAL;
	ch = &c->change[c->nchange];
	ch->at = strtod(v, &end);
	if (end != colon || ch->at < 0 || ch->at > 1)
		return -EINVAL;
	memcpy(ch->opt, colon + 1, eq - colon - 1);
	ch->opt[eq - colon - 1] = 0;
	strcpy(ch->val, eq + 1);
	/* Check it applies; the copy is thrown away. */
	{
		struct sim_cfg tmp = *c;

		if (!strcmp(ch->opt, "change") || opt_apply(&tmp, ch->opt, ch->val))
			return -EINVAL;
	}
	c->nchange++;
	return 0;
}

int opt_apply(struct sim_cfg *c, const char *name, const char *val)
{
	const struct opt *o = opt_find(name);
	void *p;
	u64 u;
	char *end;
	double d;
	long l;
	unsigned int i;

	if (!o && !strncmp(name, "no-", 3)) {
		o = opt_find(name + 3);
		if (!o || o->type != T_BOOL || val)
			return -ENOENT;
		*(bool *)((char *)c + o->off) = false;
		return 0;
	}
	if (!o)
		return -ENOENT;
	p = (char *)c + o->off;
	if (!val && o->type != T_BOOL)
		return -EINVAL;
	switch (o->type) {
	case T_UINT:
		if (parse_u64(val, &u, false) || u > UINT32_MAX)
			return -EINVAL;
		*(unsigned int *)p = u;
		return 0;
	case T_INT:
		errno = 0;
		l = strtol(val, &end, 0);
		if (errno || *end || !*val || l < INT32_MIN || l > INT32_MAX)
			return -EINVAL;
		*(int *)p = l;
		return 0;
	case T_U64:
	case T_SIZE:
		if (parse_u64(val, &u, o->type == T_SIZE))
			return -EINVAL;
		*(u64 *)p = u;
		return 0;
	case T_DBL:
		errno = 0;
		d = strtod(val, &end);
		if (errno || *end || !*val)
			return -EINVAL;
		*(double *)p = d;
		return 0;
	case T_STR:
		if (strlen(val) >= (o->off == offsetof(struct sim_cfg, model) ?
				    SIM_NAME_LEN : sizeof(c->trace)))
			return -EINVAL;
		strcpy(p, val);
		return 0;
	case T_BOOL:
		return parse_bool(val, p);
	case T_ENUM:
		for (i = 0; o->names[i]; i++)
			if (!strcmp(o->names[i], val)) {
				*(unsigned int *)p = i;
				return 0;
			}
		return -EINVAL;
	case T_EXTRA:
		return apply_extra(c, val);
	case T_CHANGE:
		return apply_change(c, val);
	}
	return -EINVAL;
}

void sim_cfg_default(struct sim_cfg *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NOPTS; i++)
		if (opts[i].type < T_EXTRA && opt_apply(c, opts[i].name, opts[i].def))
			abort();
}

bool sim_cfg_check(const struct sim_cfg *c, FILE *err)
{
	const char *why = NULL;

	if (!c->ports || c->ports > SIM_MAX_PORTS)
		why = "--ports must be 1..8";
	else if (!c->cores || c->cores > SIM_MAX_CORES || c->cores % c->ports)
		why = "--cores must be 1..64 and a multiple of --ports";
	else if (c->cores / c->ports > RXB_MAX_MODEL_QUEUES)
		why = "too many queues per port";
	else if (!(c->load > 0 && c->load <= 1))
		why = "--load must be in (0, 1]";
	else if (!(c->link_gbps > 0) || !(c->ghz > 0))
		why = "--link-gbps and --ghz must be positive";
	else if (c->pkt_size < 64 || c->pkt_size + c->headroom > c->buf_stride ||
		 (c->target_pkt_size &&
		  (c->target_pkt_size < 64 ||
		   c->target_pkt_size + c->headroom > c->buf_stride)))
		why = "packet sizes must be >= 64 and fit the buffer after --headroom";
	else if (c->buf_stride % 64 || c->buf_stride > 65536)
		why = "--buf-stride must be a multiple of 64, at most 64 KiB";
	else if (!c->budget || c->budget > SIM_MAX_BUDGET)
		why = "--budget must be 1..256";
	else if (c->arrival == ARR_BURST && !c->burst)
		why = "--burst must be at least 1";
	else if (c->arrival == ARR_TRACE && !*c->trace)
		why = "--arrival trace needs --trace FILE";
	else if (c->arrival != ARR_TRACE && !c->flows)
		why = "--flows must be at least 1";
	else if (c->target >= (int)(c->cores / c->ports))
		why = "--target must be a queue of a port";
	else if (c->target_share < 0 || c->target_share > 1)
		why = "--target-share must be in [0, 1]";
	else if (!c->packets || c->warmup < 0 || c->warmup >= 1)
		why = "--packets must be positive and --warmup in [0, 1)";
	else if (!c->llc_ways || c->llc_ways > 64 ||
		 c->ddio_ways > c->llc_ways || c->llc_bytes < 64ULL * c->llc_ways)
		why = "LLC geometry: --ddio-ways <= --llc-ways <= 64 (0: DDIO off)";
	else if (c->wss_window < 2 || (c->wss_window & (c->wss_window - 1)))
		why = "--wss-window must be a power of two >= 2";
	else if (!(c->mlp >= 1))
		why = "--mlp must be >= 1";
	else if (c->pool_x < 0 || !c->pool_cache)
		why = "--pool-x must be >= 0 and --pool-cache >= 1";
	else if (!(c->pcie_gbps >= 0 && c->pcie_gbps <= 1e5) ||
		 !(c->pcie_rd_ns >= 0 && c->pcie_rd_ns <= 1e6))
		why = "--pcie-gbps must be in [0, 1e5], --pcie-rd-ns in [0, 1e6]";
	else if (!c->pcie_reads || c->pcie_reads > 4096 ||
		 c->nic_buf < 2048 || c->nic_buf > (1ULL << 32))
		why = "--pcie-reads must be 1..4096, --nic-buf 2K..4G";
	if (why && err)
		fprintf(err, "rxbisect-sim: %s\n", why);
	return !why;
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
		char arg[96] = "";

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
		fputc('\n', f);
	}
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
M(util, 100 * r->util)
M(cross_frees, r->cross_frees)
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
	MD(wss_mib, "%.2f", "I/O working set, mean (MiB of packet bytes, wss.c)"),
	MD(wss_peak_mib, "%.2f", "I/O working set, peak (MiB)"),
	MD(wss_bufs, "%.0f", "I/O working set, mean (buffers)"),
	MD(util, "%.1f", "core busy time (%)"),
	MD(cross_frees, "%.0f", "buffers freed by a core other than their pool's"),
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
