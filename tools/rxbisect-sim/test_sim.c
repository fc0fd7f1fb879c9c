// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of rxbisect-sim: the parts (LLC, RSS, arrivals, traces), every
 * registered ring model, and the seeds' experiments the simulator exists to
 * reproduce, each checked for direction and rough size
 * (Documentation/simulator.rst has the numbers and the paper's).
 *
 * SIM_TEST=substr runs only the cases whose name contains substr.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/err.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>

#include "../testing/rxbisect/shim/shim.h"
#include "llc.h"
#include "model_pair.h"
#include "pool.h"
#include "sim.h"
#include "traffic.h"

/* ---- a small KTAP runner, with SKIP -------------------------------- */

static int t_fail;
static const char *t_skip;

static void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

#define EXPECT(cond, ...) ({						\
	bool __ok = !!(cond);						\
	if (!__ok) {							\
		t_fail++;						\
		printf("# %s:%d: EXPECT(%s) ", __FILE__, __LINE__, #cond); \
		printf(" " __VA_ARGS__);				\
		printf("\n");						\
	}								\
	__ok; })

static void skip(const char *why)
{
	t_skip = why;
}

/* Configuration every case starts from: the defaults, quiet. */
static struct sim_cfg base(void)
{
	struct sim_cfg c;

	sim_cfg_default(&c);
	c.quiet = true;
	return c;
}

static void set_model(struct sim_cfg *c, const char *name)
{
	snprintf(c->model, sizeof(c->model), "%s", name);
}

/* The defaults, quiet, with @model's rings of @ring entries. */
static struct sim_cfg cfg_for(const char *model, unsigned int ring)
{
	struct sim_cfg c = base();

	set_model(&c, model);
	c.ring = ring;
	return c;
}

static bool has_model(const char *name)
{
	return rxb_model_find(name);
}

/* Run, or fail the case; prints a one-line summary. */
/* One result line (the string alone on its line: checkpatch lets it run long). */
#define RESULT_FMT \
	"%-26s %6.1f Gbps drop %6.2f%% p50 %8.1f us p99 %8.1f us occ %6.1f ddio %5.1f%% cpu %5.1f%% mem %5.1f GB/s wss %6.2f MiB"

static bool run(const char *what, const struct sim_cfg *c, struct sim_res *r)
{
	const char *fmt = RESULT_FMT;
	int err = sim_run(c, r);

	if (!EXPECT(!err, "%s: sim_run: %d", what, err))
		return false;
	diag(fmt, what, r->gbps, r->drop_pct, r->lat_p50_us, r->lat_p99_us,
	     r->occ_mean, 100 * r->ddio_hit, 100 * r->cpu_pkt_hit, r->mem_gbs,
	     r->wss_mib);
	return true;
}

static double max_occ(const struct sim_res *r)
{
	double m = 0;
	unsigned int q;

	for (q = 0; q < r->nqueues; q++)
		if (r->q[q].occ_mean > m)
			m = r->q[q].occ_mean;
	return m;
}

static u64 drops(const struct sim_qres *q)
{
	return q->nobuf + q->ring_full + q->oversize;
}

/* ---- parts --------------------------------------------------------- */

static void test_llc(void)
{
	struct llc c;
	/* 4 sets of 4 ways, 2 DDIO ways: lines i and i + 4 share a set. */
	u64 a = 0, b = 4 * 64, d = 8 * 64, e = 12 * 64;

	if (!EXPECT(!llc_init(&c, 16 * 64, 4, 2, false)))
		return;
	EXPECT(c.nsets == 4);
	EXPECT(!llc_dma_write(&c, a));
	EXPECT(!llc_dma_write(&c, b));
	EXPECT(llc_dma_write(&c, a), "write-update in place");
	/* A third DMA line evicts within the two DDIO ways only: b (LRU). */
	EXPECT(!llc_dma_write(&c, d));
	EXPECT(llc_present(&c, a) && !llc_present(&c, b) && llc_present(&c, d));
	EXPECT(c.st.mem_wr == 1, "dirty DMA line written back: %llu",
	       (unsigned long long)c.st.mem_wr);
	/* CPU reads allocate in any way: b and e fill the other two. */
	EXPECT(!llc_cpu(&c, b, false));
	EXPECT(!llc_cpu(&c, e, false));
	EXPECT(llc_present(&c, a) && llc_present(&c, b) && llc_present(&c, d) &&
	       llc_present(&c, e));
	EXPECT(llc_cpu(&c, a, false));
	/* A DMA write to a line in an ordinary way hits and stays. */
	EXPECT(llc_dma_write(&c, e));
	EXPECT(llc_dma_read(&c, e) && !llc_dma_read(&c, 1000 * 64));
	EXPECT(c.st.mem_rd == 3, "two CPU misses and one DMA read miss: %llu",
	       (unsigned long long)c.st.mem_rd);
	llc_fini(&c);

	/* migrate: a CPU hit in a DDIO way moves the line out of it. */
	if (!EXPECT(!llc_init(&c, 16 * 64, 4, 2, true)))
		return;
	llc_dma_write(&c, a);
	llc_cpu_io(&c, a, false);
	llc_dma_write(&c, b);
	llc_dma_write(&c, d);
	EXPECT(llc_present(&c, a) && llc_present(&c, b) && llc_present(&c, d),
	       "a left the DDIO ways for b and d");
	llc_fini(&c);

	/*
	 * Packet lines: a core hit leaves the line where it is, a core miss
	 * does not allocate (L2 fill), so I/O lines stay in the DDIO ways.
	 */
	if (!EXPECT(!llc_init(&c, 16 * 64, 4, 2, false)))
		return;
	llc_dma_write(&c, a);
	EXPECT(llc_cpu_io(&c, a, false), "core hit on a DMA-written line");
	llc_dma_write(&c, b);
	llc_dma_write(&c, d);
	EXPECT(!llc_present(&c, a), "a stayed in a DDIO way and was evicted");
	EXPECT(!llc_cpu_io(&c, a, false) && !llc_present(&c, a),
	       "a core miss on a packet line does not allocate it in the LLC");
	EXPECT(!llc_dma_write(&c, a), "so the next DMA write misses again");
	llc_fini(&c);

	/* DDIO off: DMA writes go to DRAM and invalidate cached copies. */
	if (!EXPECT(!llc_init(&c, 16 * 64, 4, 0, false)))
		return;
	EXPECT(!llc_cpu(&c, a, false) && llc_present(&c, a));
	EXPECT(!llc_dma_write(&c, a) && !llc_present(&c, a),
	       "DMA write invalidates the cached copy");
	EXPECT(!llc_dma_write(&c, b) && !llc_present(&c, b), "and never allocates");
	EXPECT(c.st.mem_wr == 2 && c.st.dma_wr_hit == 0, "both went to DRAM");
	EXPECT(!llc_cpu_io(&c, b, false), "the core's read misses to DRAM");
	llc_fini(&c);
}

static void test_fifo_stack(void)
{
	struct u32_fifo f = { 0 };
	struct u32_stack s = { 0 };
	u32 i, v;
	bool ok = true;

	for (i = 0; i < 1000; i++)
		fifo_push(&f, i);
	for (i = 0; i < 1000; i++)
		ok &= fifo_pop(&f, &v) && v == i;
	EXPECT(ok && !fifo_pop(&f, &v), "FIFO order");
	for (i = 0; i < 300; i++)
		stack_push(&s, i);
	EXPECT(s.n == 300 && s.v[s.n - 1] == 299, "LIFO top");
	fifo_free(&f);
	stack_free(&s);
}

static void test_toeplitz(void)
{
	/* Microsoft's RSS verification suite, IPv4 with TCP ports. */
	static const u8 in[12] = { 66, 9, 149, 187, 161, 142, 100, 80,
					0x0a, 0xea, 0x06, 0xe6 };
	static const u8 in2[12] = { 199, 92, 111, 2, 65, 69, 140, 83,
					 0x37, 0x96, 0x12, 0x83 };

	EXPECT(rxb_sim_toeplitz(in, 12) == 0x51ccc178, "%08x",
	       rxb_sim_toeplitz(in, 12));
	EXPECT(rxb_sim_toeplitz(in2, 12) == 0xc626b0ea, "%08x",
	       rxb_sim_toeplitz(in2, 12));
}

static void test_arrivals(void)
{
	static const char *const names[] = { "const", "poisson", "burst" };
	struct sim_res r;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct sim_cfg c = base();
		double want;

		opt_apply(&c, "arrival", names[i]);
		c.load = 0.5;
		c.packets = 200000;
		c.burst = 64;
		if (!run(names[i], &c, &r))
			return;
		/* 1500 B of every 1524 B on the wire, 2 x 100 Gbps at 50%. */
		want = 200 * 0.5 * 1500 / 1524;
		EXPECT(fabs(r.offered_gbps - want) < (i ? 0.04 : 0.002) * want,
		       "%s: offered %.2f Gbps, want %.2f", names[i],
		       r.offered_gbps, want);
		EXPECT(r.drop_pct == 0 && fabs(r.gbps - r.offered_gbps) < 0.02 * want,
		       "%s: half load is delivered", names[i]);
	}
}

static void test_rss_spread(void)
{
	struct sim_cfg c = base();
	struct sim_res r;
	unsigned int q;
	bool ok = true;

	c.load = 0.5;
	c.packets = 320000;
	if (!run("rss", &c, &r))
		return;
	for (q = 0; q < r.nqueues; q++)
		ok &= fabs((double)r.q[q].arrived / (r.arrived / r.nqueues) - 1) < 0.15;
	EXPECT(ok, "4096 flows spread over 16 queues within 15%%");

	c.target = 3;
	c.target_share = 0.4;
	if (!run("rss target", &c, &r))
		return;
	EXPECT(fabs((double)r.q[3].arrived / (r.arrived / 2) - 0.4) < 0.02,
	       "target queue gets its share");
}

static void test_trace(void)
{
	char path[] = "/tmp/rxbisect-sim-trace-XXXXXX";
	struct sim_cfg c = base();
	struct sim_res r;
	int fd = mkstemp(path);
	FILE *f;
	unsigned int i;

	if (!EXPECT(fd >= 0))
		return;
	f = fdopen(fd, "w");
	fprintf(f, "# time_ns flow len port\n");
	/* Two flows, one per port, 0.5 Mpps each, the second of 64 B. */
	for (i = 0; i < 10000; i++)
		fprintf(f, "%u %u %u %u\n", i * 1000, i % 2, i % 2 ? 64 : 1500, i % 2);
	fclose(f);
	opt_apply(&c, "arrival", "trace");
	opt_apply(&c, "trace", path);
	c.packets = 30000;
	c.warmup = 0;
	c.trace_loop = true;
	if (run("trace", &c, &r)) {
		unsigned int busy = 0, q;

		EXPECT(r.arrived == 30000 - 1 || r.arrived == 30000, "%llu",
		       (unsigned long long)r.arrived);
		for (q = 0; q < r.nqueues; q++)
			busy += r.q[q].arrived > 0;
		EXPECT(busy == 2, "one flow per port: %u queues", busy);
		EXPECT(fabs(r.mpps - 1) < 0.02, "%.2f Mpps", r.mpps);
		EXPECT(fabs(r.gbps - 0.5 * (1500 + 64) * 8 / 1000) < 0.1, "%.2f Gbps",
		       r.gbps);
	}
	c.trace_loop = false;
	if (run("trace once", &c, &r))
		EXPECT(r.arrived <= 10000);
	unlink(path);
}

/*
 * sim_run() refuses what the command line refuses, also when a caller
 * fills struct sim_cfg itself: NaN, values out of range, structural or
 * out-of-range --change entries (these crashed runs before).
 */
static void test_opts(void)
{
	struct sim_res *r = calloc(1, sizeof(*r));
	static const char *const bad[][2] = {
		{ "warmup", "nan" }, { "dram-ns", "-90" }, { "irq-us", "-1" },
		{ "flows", "4294967295" }, { "wss-window", "2147483648" },
		{ "llc", "1024G" }, { "cores", "0" }, { "load", "1e400" },
		{ "packets", "0x" }, { "ring", "" }, { "change", "0.5:budget=100000" },
		{ "change", "0.5:ports=8" }, { "change", "0.5:nosuch=1" },
		{ "extra", "3:-1" }, { "nosuch", "1" },
		{ "nicmem-split", "2" }, { "nicmem-split-hdr", "41" },
		{ "nicmem-split-hdr", "257" }, { "change", "0.5:nicmem-split=1" },
	};
	struct sim_cfg c = base();
	unsigned int i;

	if (!EXPECT(r, "calloc"))
		return;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = base();
		EXPECT(opt_apply(&c, bad[i][0], bad[i][1]) == -EINVAL,
		       "--%s %s accepted", bad[i][0], bad[i][1]);
	}
	/* CEIO fetches as the module does by default (ceio_fetch=async,
	 * drv/main.c; the paper's async_recv()).
	 */
	c = base();
	{
		struct rxb_model_cfg mc;

		sim_model_cfg(&c, &mc);
		EXPECT(c.ceio_fetch == CEIO_FETCH_ASYNC && mc.ceio_fetch_async,
		       "CEIO's default fetch is not async");
	}
	/* Straight into the struct: sim_run() checks before it allocates. */
	c = base();
	c.warmup = NAN;
	EXPECT(sim_run(&c, r) == -EINVAL, "warmup NaN ran");
	c = base();
	c.dram_ns = -90;
	EXPECT(sim_run(&c, r) == -EINVAL, "negative DRAM latency ran");
	c = base();
	c.flows = UINT32_MAX;
	EXPECT(sim_run(&c, r) == -EINVAL, "2^32 - 1 flows ran");
	/* The split: no room for its record, no tier. */
	c = base();
	c.nicmem_split = true;
	EXPECT(sim_run(&c, r) == -EINVAL, "split without headroom ran");
	c.headroom = RXB_HDS_REC_ROOM;
	c.nicmem = 0;
	EXPECT(sim_run(&c, r) == -EINVAL, "split without a tier ran");
	c = base();
	c.nchange = 1;
	c.change[0] = (struct sim_change){ .at = 0.5, .opt = "budget", .val = "100000" };
	EXPECT(sim_run(&c, r) == -EINVAL, "budget 100000 mid-run ran");
	c.change[0] = (struct sim_change){ .at = 0.5, .opt = "ports", .val = "8" };
	EXPECT(sim_run(&c, r) == -EINVAL, "ports changed mid-run");
	/* The live ones still run, in order of AT. */
	c = base();
	c.packets = 20000;
	EXPECT(!opt_apply(&c, "change", "0.6:budget=64") &&
	       !opt_apply(&c, "change", "0.3:load=0.5") &&
	       !opt_apply(&c, "change", "0.5:extra=3:100:2"), "live changes refused");
	EXPECT(c.nchange == 3 && c.change[0].at == 0.3 && c.change[2].at == 0.6,
	       "changes not in order of AT");
	EXPECT(sim_run(&c, r) == 0, "live changes did not run");
	free(r);
}

/* Every registered model runs, conserves packets and frees its buffers. */
static void test_models(void)
{
	const char *names[64];
	unsigned int n = sim_model_names(names, 64), i;

	EXPECT(n >= 2, "privring and rxbisect at least");
	for (i = 0; i < n; i++) {
		struct sim_cfg c = base();
		struct sim_res r;
		u64 lost;

		set_model(&c, names[i]);
		c.cores = 8;
		c.ports = 2;
		c.ring = 256;
		c.packets = 60000;
		c.load = 0.3;
		c.warmup = 0;
		c.share = 4;
		if (!run(names[i], &c, &r))
			continue;
		/*
		 * A list ring (RxList) pays a descriptor read per take out of
		 * array order: at this load its NIC buffer overflows and its
		 * rings run short (desc_prefetch); the others deliver
		 * everything.
		 */
		if (r.desc_misses)
			EXPECT(r.desc_waits && r.delivered + r.nic_drop + r.nobuf +
			       r.ring_full > 0.97 * r.arrived,
			       "%s: %llu delivered, %llu dropped of %llu", names[i],
			       (unsigned long long)r.delivered,
			       (unsigned long long)(r.nic_drop + r.nobuf + r.ring_full),
			       (unsigned long long)r.arrived);
		else
			EXPECT(r.delivered > 0.97 * r.arrived, "%s: %llu of %llu delivered",
			       names[i], (unsigned long long)r.delivered,
			       (unsigned long long)r.arrived);
		lost = r.arrived - r.delivered - r.nobuf - r.ring_full - r.oversize -
		       r.nic_drop;
		EXPECT(lost <= c.cores * (c.ring + c.budget),
		       "%s: %llu packets neither delivered, dropped nor in flight",
		       names[i], (unsigned long long)lost);
		EXPECT(r.buf_errs == 0, "%s: %llu buffer reference errors", names[i],
		       (unsigned long long)r.buf_errs);
		/* The whole run's account: offered = delivered + dropped + held. */
		EXPECT(!r.warn, "%s: run warned: %s (%llu offered, %llu delivered, %llu dropped)",
		       names[i], sim_warn_str(r.warn), (unsigned long long)r.run_arrived,
		       (unsigned long long)r.run_delivered,
		       (unsigned long long)r.run_dropped);
	}
}

/*
 * A core is never busier than the time that passed: with no work per
 * packet, one core saturated by 64 B frames, each model's core is at most
 * 100 % busy (half a per mille for the last packet's cost, charged at its
 * start, running past the window).  The model code a core runs before it
 * goes idle, an empty poll's register read (CEIO), takes its time too:
 * charged as busy time alone, it had Ensō's core 148 % busy.
 */
static void core_busy(void)
{
	const char *names[64];
	unsigned int n = sim_model_names(names, 64), i;

	for (i = 0; i < n; i++) {
		struct sim_cfg c = base();
		struct sim_res r;

		set_model(&c, names[i]);
		c.ports = 1;
		c.cores = 1;
		c.pkt_size = 64;
		c.cycles = 0;
		c.app_accesses = 0;
		c.packets = 200000;
		if (!run(names[i], &c, &r))
			continue;
		EXPECT(r.util <= 1.0005, "%s: one core %.1f %% busy", names[i],
		       100 * r.util);
	}
}

/*
 * A run too short to deliver anything warns (issue 32 item 9), and the
 * account of packets does not: it adds up however short the run.
 */
static void run_warn(void)
{
	struct sim_cfg c = base();
	struct sim_res r;

	c.packets = 3;
	c.warmup = 0;
	if (!run("3 packets", &c, &r))
		return;
	EXPECT(r.warn == SIM_WARN_NOTHING, "warned %u: %s", r.warn,
	       sim_warn_str(r.warn));
	EXPECT(!strcmp(sim_warn_str(SIM_WARN_NOTHING), "nothing delivered"));
	EXPECT(r.run_arrived == 3 && r.run_arrived == r.run_delivered + r.run_dropped +
	       r.in_flight + r.in_model + r.in_core, "3 packets accounted for");
	EXPECT(!*sim_warn_str(0));
}

/*
 * Ensō (a streaming model): packets are copied out of the pipes; at a
 * light load nothing is lost, and reactive notifications adapt: an
 * overloaded consumer gets fewer notifications per packet (larger
 * batches) than a lightly loaded one.
 */
static void enso_stream(void)
{
	static const double load[] = { 0.2, 1.0 };
	double per_pkt[2] = { 0, 0 };
	unsigned int i;

	if (!has_model("enso")) {
		skip("enso model not registered");
		return;
	}
	for (i = 0; i < 2; i++) {
		struct sim_cfg c = base();
		struct sim_res r;
		u64 n;

		set_model(&c, "enso");
		c.cores = 4;
		c.ports = 1;
		c.ring = 256;
		c.packets = 100000;
		c.load = load[i];
		if (!run(i ? "enso load 1.0" : "enso load 0.2", &c, &r))
			return;
		if (!EXPECT(sim_res_xstat(&r, "notifs", &n), "no notifs counter"))
			return;
		per_pkt[i] = (double)n / (r.delivered ? r.delivered : 1);
		diag("enso load %.1f: %.3f notifications (warm-up included) per packet delivered",
		     load[i], per_pkt[i]);
		if (!i)
			EXPECT(r.drop_pct < 0.01, "enso at 0.2 load: %.2f%% dropped",
			       r.drop_pct);
	}
	EXPECT(per_pkt[1] < per_pkt[0] / 2,
	       "reactive notifications: %.3f per packet overloaded, %.3f light",
	       per_pkt[1], per_pkt[0]);
}

/* ---- CEIO: credits and the on-NIC memory tier ---------------------- */

/*
 * Every packet that arrived (the run measured from its start) was
 * delivered, dropped, or is still somewhere at the end: in the NIC's
 * buffer, in the model (rings, the tier), in a core's batch.
 */
static void expect_conserved(const char *what, const struct sim_res *r)
{
	u64 acct = r->delivered + r->nobuf + r->ring_full + r->oversize +
		   r->nic_drop + r->in_flight + r->in_model + r->in_core;

	EXPECT(acct == r->arrived,
	       "%s: %llu arrived, %llu delivered + dropped + still in the NIC, model or a core",
	       what, (unsigned long long)r->arrived, (unsigned long long)acct);
}

/*
 * Host-resident packets (written to host memory, not yet processed) never
 * exceed the credits plus one poll batch per core: a fast-path frame holds
 * its credit until the batch that handed it up ends, a fetched slow-path
 * frame reaches host memory in the batch that hands it up.
 */
static void expect_ceio_bound(const char *what, const struct sim_cfg *c,
			      const struct sim_res *r, u64 *c_total)
{
	if (!EXPECT(sim_res_xstat(r, "ceio_credits_total", c_total),
		    "%s: no ceio_credits_total", what))
		return;
	EXPECT(r->res_peak <= *c_total + (u64)c->cores * c->budget,
	       "%s: %.0f host-resident packets at the peak, credits %llu + %u batches of %u",
	       what, r->res_peak, (unsigned long long)*c_total, c->cores, c->budget);
}

/*
 * CEIO beside privRing and rxBisect on the seeds' testbed (16 cores,
 * 2 x 100 Gbps, 22 MiB LLC with 2 DDIO ways): credits = the DDIO ways'
 * 4 MiB / 2 KiB buffers.  Checked: the bound above and conservation; with
 * the fast ring as large as privRing's (1 Ki), the credits keep unconsumed
 * data in the LLC (the cores' reads hit where privRing's miss) but the NIC
 * still writes its buffers in ring order (DDIO write misses as
 * privRing's); with the fast ring at the credits' share (128, the same
 * host buffer budget as the credits), DDIO hits, and DRAM write-backs
 * stay below privRing 1 Ki's, whose working set exceeds the LLC.
 */
static void ceio_llc(void)
{
	struct sim_res pr, rb, ce, cs;
	struct sim_cfg c;
	u64 ct, v;

	if (!has_model("ceio")) {
		skip("ceio model not registered");
		return;
	}
	c = base();
	c.packets = 300000;
	c.warmup = 0;
	c.ring = 1024;
	/* predict.py's LB, under which privRing's 1 Ki rings fill. */
	c.app_mem = 640 << 20;
	if (!run("privring R=1024", &c, &pr))
		return;
	set_model(&c, "rxbisect");
	c.ax = 128;
	if (!run("rxbisect Bx 1024 Ax 128", &c, &rb))
		return;
	set_model(&c, "ceio");
	c.ceio_fetch = CEIO_FETCH_ASYNC;
	if (!run("ceio R=1024 async", &c, &ce))
		return;
	diag("ceio R=1024: host-resident peak %.0f (privring %.0f), %.1f%% via the tier",
	     ce.res_peak, pr.res_peak, ce.tier_pct);
	expect_conserved("ceio R=1024", &ce);
	expect_ceio_bound("ceio R=1024", &c, &ce, &ct);
	/* A queue's frames are one flow of the table (the paper's one flow
	 * a core): as many flows as queues, no untracked frame borrowing.
	 */
	EXPECT(sim_res_xstat(&ce, "ceio_flows_active", &v) && v == c.cores,
	       "ceio: %llu flows active, %u queues", (unsigned long long)v,
	       c.cores);
	EXPECT(sim_res_xstat(&ce, "ceio_borrowed", &v) && !v,
	       "ceio: %llu frames on borrowed credits", (unsigned long long)v);
	EXPECT(pr.res_peak > ct + (u64)c.cores * c.budget,
	       "privring R=1024 holds more than ceio's bound: %.0f", pr.res_peak);
	EXPECT(ce.cpu_pkt_hit > pr.cpu_pkt_hit + 0.2,
	       "credits keep unconsumed data cached: cores hit %.0f%%, privring %.0f%%",
	       100 * ce.cpu_pkt_hit, 100 * pr.cpu_pkt_hit);

	c.ring = 128;
	if (!run("ceio R=128 async", &c, &cs))
		return;
	expect_conserved("ceio R=128", &cs);
	expect_ceio_bound("ceio R=128", &c, &cs, &ct);
	EXPECT(pr.wss_mib > c.llc_bytes / (1 << 20),
	       "privring R=1024's working set exceeds the LLC: %.1f MiB", pr.wss_mib);
	EXPECT(cs.wss_mib < c.llc_bytes / (1 << 20),
	       "ceio's working set within the LLC: %.1f MiB", cs.wss_mib);
	EXPECT(cs.mem_wr_gbs < pr.mem_wr_gbs && cs.ddio_hit > pr.ddio_hit,
	       "ceio R=128: DRAM writes %.1f GB/s, DDIO %.0f%%; privring R=1024: %.1f GB/s, %.0f%%",
	       cs.mem_wr_gbs, 100 * cs.ddio_hit, pr.mem_wr_gbs, 100 * pr.ddio_hit);
	EXPECT(cs.gbps >= pr.gbps, "ceio R=128 %.1f Gbps, privring R=1024 %.1f",
	       cs.gbps, pr.gbps);
}

/*
 * Bursts (32 packets of one flow at line rate): at the same host buffer
 * budget (128 buffers a queue), privRing drops what its ring cannot hold;
 * CEIO keeps it in the tier and drops only if its slow ring or the tier
 * is full.
 */
static void ceio_burst(void)
{
	struct sim_res pr, ce;
	struct sim_cfg c;
	u64 ct;

	if (!has_model("ceio")) {
		skip("ceio model not registered");
		return;
	}
	c = base();
	c.packets = 300000;
	c.warmup = 0;
	c.ring = 128;
	c.arrival = ARR_BURST;
	if (!run("privring R=128 burst", &c, &pr))
		return;
	set_model(&c, "ceio");
	c.ceio_fetch = CEIO_FETCH_ASYNC;
	if (!run("ceio R=128 async burst", &c, &ce))
		return;
	diag("ceio: %.1f%% via the tier (peak %.1f MiB), %llu dropped; privring %llu",
	     ce.tier_pct, ce.tier_peak_mib,
	     (unsigned long long)(ce.nobuf + ce.ring_full + ce.nic_drop),
	     (unsigned long long)(pr.nobuf + pr.ring_full + pr.nic_drop));
	expect_conserved("ceio burst", &ce);
	expect_ceio_bound("ceio burst", &c, &ce, &ct);
	EXPECT(ce.tier_pkts > 0, "bursts beyond the credits take the slow path");
	EXPECT(pr.nobuf + pr.ring_full > 0, "privring R=128 drops under bursts");
	EXPECT((ce.nobuf + ce.ring_full + ce.nic_drop) * 2 <
	       pr.nobuf + pr.ring_full + pr.nic_drop,
	       "the tier absorbs the bursts: ceio drops %llu, privring %llu",
	       (unsigned long long)(ce.nobuf + ce.ring_full + ce.nic_drop),
	       (unsigned long long)(pr.nobuf + pr.ring_full + pr.nic_drop));
}

/* CEIO on 4 cores of one port at 10 % load, 40 000 packets, no warm-up. */
static struct sim_cfg ceio_light(void)
{
	struct sim_cfg c = base();

	set_model(&c, "ceio");
	c.cores = 4;
	c.ports = 1;
	c.packets = 40000;
	c.warmup = 0;
	c.load = 0.1;
	return c;
}

/*
 * No credits (--ceio-force-slow): every packet is kept in the tier and
 * fetched, lossless at a light load, never sooner than the fetch latency
 * after it arrived, and the host holds no more than the batches.  A
 * smaller tier drops, counted, and only there.
 */
static void ceio_slow(void)
{
	static const double fetch_ns[] = { 3000, 4000 };
	struct sim_res r;
	struct sim_cfg c;
	unsigned int i;

	if (!has_model("ceio")) {
		skip("ceio model not registered");
		return;
	}
	for (i = 0; i < 2; i++) {
		char what[48];

		c = ceio_light();
		c.ceio_force_slow = true;
		c.nicmem_fetch_ns = fetch_ns[i];
		c.ceio_fetch = i ? CEIO_FETCH_ASYNC : CEIO_FETCH_SYNC;
		snprintf(what, sizeof(what), "ceio slow only, %s, fetch %.0f ns",
			 i ? "async" : "sync", fetch_ns[i]);
		if (!run(what, &c, &r))
			return;
		expect_conserved(what, &r);
		/* all but those still in the NIC's buffer at the end */
		EXPECT(r.tier_pkts + r.in_flight == r.arrived,
		       "%s: %llu + %llu in the NIC's buffer of %llu via the tier", what,
		       (unsigned long long)r.tier_pkts, (unsigned long long)r.in_flight,
		       (unsigned long long)r.arrived);
		EXPECT(!r.nobuf && !r.ring_full && !r.nic_drop, "%s: lossless", what);
		EXPECT(r.lat_p50_us * 1e3 >= fetch_ns[i] && r.lat_mean_us * 1e3 >= fetch_ns[i],
		       "%s: latency p50 %.2f us, mean %.2f us", what, r.lat_p50_us,
		       r.lat_mean_us);
		EXPECT(r.res_peak <= (double)c.cores * c.budget,
		       "%s: %.0f host-resident packets at the peak", what, r.res_peak);
	}
	/* 64 KiB of tier: about 43 frames. */
	c.nicmem = 64 << 10;
	c.load = 1;
	if (!run("ceio slow only, 64 KiB tier", &c, &r))
		return;
	expect_conserved("64 KiB tier", &r);
	EXPECT(r.ring_full > 0 && !r.nobuf, "a full tier drops (ring_full): %llu",
	       (unsigned long long)r.ring_full);
	EXPECT(r.tier_peak_mib * (1 << 20) <= c.nicmem, "the tier held %.3f MiB",
	       r.tier_peak_mib);
}

/*
 * A driver half that reads a NIC register or NIC memory on its data path
 * (rxb_reg_read(), the module's pcie_mmio_reads; CEIO reads slow_tail when
 * its completion ring is empty, paper section 4.2) makes an uncached read
 * across PCIe: counted, and the core stalls a round trip (--pcie-rd-ns)
 * for each.  Without the PCIe model (--pcie-gbps 0) --pcie-rd-ns moves
 * nothing else, so the cores' busy cycles per packet grow by exactly the
 * reads' stall.  A model that reads no NIC register (privRing) reads none.
 * Every register write is a doorbell the core pays (rxb_reg_write()):
 * CEIO's fetch doorbell, one a packet at this load; privRing's tail and
 * its completion ring's consumer index, two a packet (one a poll).
 */
static void mmio_reads(void)
{
	static const double rd_ns[] = { 500, 5000 };
	struct sim_res r[2];
	struct sim_cfg c;
	double d_cyc, d_stall;
	unsigned int i;

	if (!has_model("ceio")) {
		skip("ceio model not registered");
		return;
	}
	for (i = 0; i < 2; i++) {
		char what[48];

		c = ceio_light();
		c.pcie_gbps = 0;
		c.ceio_force_slow = true;
		c.pcie_rd_ns = rd_ns[i];
		snprintf(what, sizeof(what), "ceio slow only, MMIO read %.0f ns",
			 rd_ns[i]);
		if (!run(what, &c, &r[i]))
			return;
		expect_conserved(what, &r[i]);
		diag("%s: %.3f MMIO reads a packet, %.1f ns stall, %.0f cycles",
		     what, r[i].mmio_rd_pkt, r[i].mmio_ns_pkt, r[i].cyc_pkt);
		EXPECT(r[i].mmio_rd_pkt > 0.1, "%s: %.3f MMIO reads a packet", what,
		       r[i].mmio_rd_pkt);
		/* At 500 ns the cores keep up: a packet a poll. */
		EXPECT(i || r[i].db_pkt > 0.9, "%s: %.3f register writes a packet",
		       what, r[i].db_pkt);
		/* Every read stalled its core for the round trip. */
		EXPECT(fabs(r[i].mmio_ns_pkt - r[i].mmio_rd_pkt * rd_ns[i]) <=
		       r[i].mmio_ns_pkt / 1e6,
		       "%s: %.1f ns stall for %.3f reads of %.0f ns", what,
		       r[i].mmio_ns_pkt, r[i].mmio_rd_pkt, rd_ns[i]);
	}
	/* The stall is core time: busy cycles grow by it. */
	d_cyc = r[1].cyc_pkt - r[0].cyc_pkt;
	d_stall = (r[1].mmio_ns_pkt - r[0].mmio_ns_pkt) * c.ghz;
	EXPECT(d_stall > 100 && d_cyc > 0.9 * d_stall && d_cyc < 1.1 * d_stall,
	       "busy cycles a packet +%.0f for +%.0f cycles of MMIO stall",
	       d_cyc, d_stall);
	c.model[0] = 0;
	set_model(&c, "privring");
	c.ceio_force_slow = false;
	if (!run("privring, MMIO read 5000 ns", &c, &r[0]))
		return;
	EXPECT(r[0].mmio_rd_pkt == 0 && r[0].mmio_ns_pkt == 0,
	       "privring: %.3f MMIO reads a packet", r[0].mmio_rd_pkt);
	EXPECT(r[0].db_pkt > 1.9, "privring: %.3f register writes a packet",
	       r[0].db_pkt);
}

/*
 * The two halves run where they belong (models.c): the NIC half's rx and
 * doorbell only in the NIC's context and never inside a driver call, the
 * driver half's poll never in the NIC's context.  CEIO with every packet
 * on the slow path rings a fetch doorbell from its poll; the NIC must
 * act on it in its own doorbell service, later.  The check itself is
 * live: a NIC entry point reached outside the context is a violation.
 */
static const struct rxb_model_ops *ctx_base;
static struct rxb_hw_model_ops ctx_hw;
static bool ctx_in_poll;
static long ctx_rx, ctx_db, ctx_polls, ctx_bad;

static int ctx_poll(struct rxb_model *m, unsigned int q, struct rxb_pkt *pkts,
		    int budget)
{
	int n;

	ctx_bad += rxb_nic_ctx_in();
	ctx_polls++;
	ctx_in_poll = true;
	n = ctx_base->poll(m, q, pkts, budget);
	ctx_in_poll = false;
	return n;
}

static int ctx_rx_op(struct rxb_hw_model *m, unsigned int q,
		     const struct rxb_frame *f)
{
	ctx_bad += !rxb_nic_ctx_in() || ctx_in_poll;
	ctx_rx++;
	return ctx_base->hw->rx(m, q, f);
}

static void ctx_doorbell(struct rxb_hw_model *m, u32 page)
{
	ctx_bad += !rxb_nic_ctx_in() || ctx_in_poll;
	ctx_db++;
	ctx_base->hw->doorbell(m, page);
}

static void two_halves(void)
{
	struct rxb_model_ops ops;
	struct sim_res r;
	struct sim_cfg c;
	long v0;

	if (!has_model("ceio")) {
		skip("ceio model not registered");
		return;
	}
	ctx_base = rxb_model_find("ceio");
	ctx_hw = *ctx_base->hw;
	ctx_hw.rx = ctx_rx_op;
	ctx_hw.doorbell = ctx_doorbell;
	ops = *ctx_base;
	ops.hw = &ctx_hw;
	ops.poll = ctx_poll;
	c = ceio_light();
	c.ops = &ops;
	c.ceio_force_slow = true;
	if (!run("ceio slow only, halves watched", &c, &r))
		return;
	expect_conserved("halves watched", &r);
	diag("%ld frames, %ld doorbell services, %ld polls", ctx_rx, ctx_db,
	     ctx_polls);
	EXPECT(ctx_rx > 0 && ctx_db > 0 && ctx_polls > 0,
	       "rx %ld, doorbell %ld, poll %ld", ctx_rx, ctx_db, ctx_polls);
	EXPECT(!ctx_bad, "%ld calls in the wrong context", ctx_bad);
	EXPECT(r.tier_pkts > 0 && r.delivered > 0.9 * r.arrived,
	       "%llu via the tier, %llu of %llu delivered",
	       (unsigned long long)r.tier_pkts, (unsigned long long)r.delivered,
	       (unsigned long long)r.arrived);
	/* The check is live in the simulator, and quiet inside the context. */
	rxb_pair_ctx_expect(true);
	v0 = rxb_pair_ctx_violations();
	rxb_nic_ctx_assert("test");
	EXPECT(rxb_pair_ctx_violations() == v0 + 1, "a violation went uncounted");
	rxb_nic_ctx_enter();
	rxb_nic_ctx_assert("test");
	rxb_nic_ctx_exit();
	EXPECT(rxb_pair_ctx_violations() == v0 + 1, "a NIC-context call counted");
	rxb_pair_ctx_expect(false);
}

/* ---- the header/data split into NIC memory (thesis ch. 2, nicmem) -- */

/* A run's DRAM bytes (reads and write-backs) and PCIe bytes (both ways). */
static double dram_bytes(const struct sim_res *r)
{
	return r->mem_gbs * 1e9 * r->sim_s;
}

static double pcie_bytes(const struct sim_res *r)
{
	return (r->pcie_up_gbs + r->pcie_down_gbs) * 1e9 * r->sim_s;
}

/* One line of the split's numbers (the string alone: checkpatch lets it run long). */
#define SPLIT_FMT \
	"%s: wss %.2f MiB (%.0f buffers), DRAM %.1f MB, PCIe %.1f MB, DDIO %.1f%%, host %llu B, NIC memory %llu B, split %llu, whole %llu, fallback %llu, fetched %llu B (%.2f us)"

static void split_diag(const char *what, const struct sim_res *r)
{
	const char *fmt = SPLIT_FMT;

	diag(fmt, what, r->wss_mib, r->wss_bufs, dram_bytes(r) / 1e6, pcie_bytes(r) / 1e6,
	     100 * r->ddio_hit, (unsigned long long)r->nm_host_bytes,
	     (unsigned long long)r->nm_nic_bytes, (unsigned long long)r->nm_split,
	     (unsigned long long)r->nm_whole, (unsigned long long)r->nm_fallback,
	     (unsigned long long)r->nm_fetch_bytes, r->nm_fetch_us);
}

/*
 * privRing 1 Ki on the seeds' testbed, room for the split record;
 * measured from the start (packets conserved).
 */
static struct sim_cfg split_base(void)
{
	struct sim_cfg c = base();

	c.ring = 1024;
	c.packets = 300000;
	c.warmup = 0;
	c.headroom = 64;
	return c;
}

/*
 * A data mover that reads headers only (thesis §2.1, §2.4.2-2.4.3), the
 * same run (seed) without and with the split.  Whole frames: privRing
 * 1 Ki's working set is past the LLC, DDIO misses.  Split: the host holds
 * headers and records only, the payloads stay in NIC memory and leave
 * through TX commands: working set, DRAM and PCIe bytes shrink by far,
 * over the same buffers; throughput does not fall.
 */
static void nicmem_split_headers(void)
{
	struct sim_cfg c = split_base();
	struct sim_res off, on;
	u64 hdr;

	c.touch_lines = 1;
	/* predict.py's LB, under which privRing's 1 Ki rings fill. */
	c.app_mem = 640 << 20;
	if (!run("privring 1Ki headers, whole", &c, &off))
		return;
	c.nicmem_split = true;
	if (!run("privring 1Ki headers, split", &c, &on))
		return;
	split_diag("whole", &off);
	split_diag("split", &on);
	expect_conserved("whole", &off);
	expect_conserved("split", &on);
	hdr = c.split_hdr + RXB_HDS_REC_ROOM;
	EXPECT(!off.nm_host_bytes && !off.nm_nic_bytes && !off.nm_split,
	       "split counters without the split");
	EXPECT(on.nm_split > 0 && !on.nm_whole && !on.nm_fallback,
	       "every frame split: %llu, whole %llu, fallback %llu",
	       (unsigned long long)on.nm_split, (unsigned long long)on.nm_whole,
	       (unsigned long long)on.nm_fallback);
	EXPECT(on.nm_host_bytes == on.nm_split * hdr &&
	       on.nm_nic_bytes == on.nm_split * (c.pkt_size - c.split_hdr) &&
	       !on.nm_fetch_bytes,
	       "host bytes %llu, NIC bytes %llu for %llu frames split",
	       (unsigned long long)on.nm_host_bytes,
	       (unsigned long long)on.nm_nic_bytes, (unsigned long long)on.nm_split);
	EXPECT(on.wss_mib < off.wss_mib / 8, "working set %.2f MiB split, %.2f whole",
	       on.wss_mib, off.wss_mib);
	EXPECT(on.wss_bufs > 0.9 * off.wss_bufs && on.wss_bufs < 1.1 * off.wss_bufs,
	       "buffers in the working set: %.0f split, %.0f whole", on.wss_bufs,
	       off.wss_bufs);
	EXPECT(dram_bytes(&on) < dram_bytes(&off) / 4, "DRAM %.1f MB split, %.1f whole",
	       dram_bytes(&on) / 1e6, dram_bytes(&off) / 1e6);
	EXPECT(pcie_bytes(&on) < pcie_bytes(&off) / 4, "PCIe %.1f MB split, %.1f whole",
	       pcie_bytes(&on) / 1e6, pcie_bytes(&off) / 1e6);
	EXPECT(on.ddio_hit > off.ddio_hit + 0.5, "DDIO hits %.1f%% split, %.1f%% whole",
	       100 * on.ddio_hit, 100 * off.ddio_hit);
	EXPECT(on.gbps >= off.gbps, "%.1f Gbps split, %.1f whole", on.gbps, off.gbps);
	EXPECT(!on.buf_errs && !off.buf_errs, "buffer errors");
}

/*
 * Socket delivery (--touch-lines 0): each payload is fetched behind its
 * headers before the core reads it.  It crosses PCIe as it would have
 * (no saving on the link) and costs the core the fetch's wait: at least
 * a DMA read's latency with the PCIe model, the tier's fetch latency
 * without it; each packet is delivered later.
 */
static void nicmem_split_socket(void)
{
	struct sim_cfg c = split_base();
	struct sim_res off, on, np;
	u64 hdr, pay, left;

	c.touch_lines = 0;
	c.load = 0.3;
	if (!run("privring 1Ki socket, whole", &c, &off))
		return;
	c.nicmem_split = true;
	if (!run("privring 1Ki socket, split", &c, &on))
		return;
	split_diag("whole", &off);
	split_diag("split", &on);
	expect_conserved("split", &on);
	hdr = c.split_hdr + RXB_HDS_REC_ROOM;
	pay = c.pkt_size - c.split_hdr;
	EXPECT(on.nm_fetch_bytes > 0 && on.nm_fetch_bytes <= on.nm_nic_bytes &&
	       on.nm_host_bytes == on.nm_split * hdr + on.nm_fetch_bytes,
	       "host %llu B = %llu x %llu + fetched %llu", (unsigned long long)on.nm_host_bytes,
	       (unsigned long long)on.nm_split, (unsigned long long)hdr,
	       (unsigned long long)on.nm_fetch_bytes);
	/* Not fetched: only frames not processed when the run ended. */
	left = (on.nm_nic_bytes - on.nm_fetch_bytes) / pay;
	EXPECT(left <= on.in_model + on.in_core + (u64)c.cores * c.budget,
	       "%llu payloads never fetched", (unsigned long long)left);
	EXPECT(on.nm_fetch_us * 1e3 >= c.pcie_rd_ns, "fetch wait %.3f us, DMA read %.0f ns",
	       on.nm_fetch_us, c.pcie_rd_ns);
	EXPECT(on.pcie_up_gbs > 0.9 * off.pcie_up_gbs,
	       "the payloads still cross the link: %.2f GB/s up split, %.2f whole",
	       on.pcie_up_gbs, off.pcie_up_gbs);
	EXPECT(on.lat_p50_us > off.lat_p50_us,
	       "the fetch delays each packet: p50 %.2f us split, %.2f whole",
	       on.lat_p50_us, off.lat_p50_us);
	EXPECT(!on.buf_errs, "buffer errors");
	/* Without the PCIe model: the tier's latency, as the module waits. */
	c.pcie_gbps = 0;
	c.nicmem_fetch_ns = 1500;
	c.packets = 100000;
	if (!run("privring 1Ki socket, split, no PCIe model", &c, &np))
		return;
	EXPECT(fabs(np.nm_fetch_us * 1e3 - c.nicmem_fetch_ns) < 1,
	       "fetch wait %.3f us, --nicmem-fetch-ns %.0f", np.nm_fetch_us,
	       c.nicmem_fetch_ns);
}

/*
 * A tier too small for the payloads in flight: frames that find no room
 * are written whole (nic_hds.c's fallback), none lost for it, counted;
 * the tier never holds more than its capacity, and the working set is
 * larger than with room for all.  Frames with nothing to split are
 * written whole too (counted apart).
 */
static void nicmem_split_tiny(void)
{
	struct sim_cfg c = split_base();
	struct sim_res big, tiny;

	c.touch_lines = 1;
	c.nicmem_split = true;
	if (!run("privring 1Ki headers, split, 64 MiB", &c, &big))
		return;
	c.nicmem = 64 << 10;
	if (!run("privring 1Ki headers, split, 64 KiB", &c, &tiny))
		return;
	split_diag("64 MiB tier", &big);
	split_diag("64 KiB tier", &tiny);
	expect_conserved("64 KiB tier", &tiny);
	EXPECT(!big.nm_fallback && tiny.nm_fallback > 0 && tiny.nm_split > 0,
	       "fallback %llu (64 MiB), %llu (64 KiB)", (unsigned long long)big.nm_fallback,
	       (unsigned long long)tiny.nm_fallback);
	EXPECT(tiny.nm_host_bytes == tiny.nm_split * (c.split_hdr + RXB_HDS_REC_ROOM) +
				     tiny.nm_fallback * c.pkt_size,
	       "host bytes %llu: headers of %llu split, %llu whole",
	       (unsigned long long)tiny.nm_host_bytes, (unsigned long long)tiny.nm_split,
	       (unsigned long long)tiny.nm_fallback);
	EXPECT(tiny.tier_peak_mib * (1 << 20) <= c.nicmem, "the tier held %.3f MiB",
	       tiny.tier_peak_mib);
	EXPECT(tiny.wss_mib > 2 * big.wss_mib, "working set %.2f MiB (64 KiB), %.2f (64 MiB)",
	       tiny.wss_mib, big.wss_mib);
	EXPECT(!tiny.buf_errs, "buffer errors");
	/* Nothing to split: a frame no longer than its headers goes whole. */
	c.nicmem = 64 << 20;
	c.packets = 20000;
	c.pkt_size = 64;
	c.split_hdr = 64;
	if (!run("privring 1Ki, split, 64 B frames of 64 B headers", &c, &big))
		return;
	EXPECT(!big.nm_split && big.nm_whole > 0 && big.nm_host_bytes == big.nm_whole * 64,
	       "%llu split, %llu whole, %llu host bytes", (unsigned long long)big.nm_split,
	       (unsigned long long)big.nm_whole, (unsigned long long)big.nm_host_bytes);
}

/*
 * Every model with a buffer per packet runs split and passes the DMA
 * engine's RXB_CQE_F_SPLIT on (the simulator checks each packet: a
 * mismatch is a buffer error); the others are refused.  A model that
 * loses the flag is caught.
 */
static int flagless_poll(struct rxb_model *m, unsigned int q, struct rxb_pkt *pkts,
			 int budget)
{
	int n = rxb_privring_ops.poll(m, q, pkts, budget), i;

	for (i = 0; i < n; i++)
		pkts[i].flags &= ~RXB_CQE_F_SPLIT;
	return n;
}

static void nicmem_split_models(void)
{
	const char *names[64];
	unsigned int n = sim_model_names(names, 64), i;
	struct rxb_model_ops flagless;
	struct sim_cfg c;
	struct sim_res r;

	for (i = 0; i < n; i++) {
		const struct rxb_model_ops *ops = rxb_model_find(names[i]);
		char what[64];

		c = base();
		set_model(&c, names[i]);
		c.cores = 8;
		c.ring = 256;
		c.packets = 60000;
		c.load = 0.3;
		c.warmup = 0;
		c.share = 4;
		c.headroom = 16;
		c.touch_lines = i % 2 ? 0 : 2;
		c.cycles = 600;	/* light: each socket packet waits its fetch */
		c.nicmem_split = true;
		if (ops->multi_pkt_bufs || ops->stream) {
			EXPECT(!sim_cfg_check(&c, NULL), "%s: split accepted", names[i]);
			continue;
		}
		snprintf(what, sizeof(what), "%s split, %s", names[i],
			 c.touch_lines ? "headers" : "socket");
		if (!run(what, &c, &r))
			continue;
		/* A list ring's descriptor misses overflow the NIC buffer. */
		EXPECT(r.nm_split > 0 &&
		       r.delivered + (r.desc_misses ? r.nic_drop : 0) > 0.97 * r.arrived,
		       "%s: %llu split, %llu of %llu delivered", names[i],
		       (unsigned long long)r.nm_split, (unsigned long long)r.delivered,
		       (unsigned long long)r.arrived);
		EXPECT(r.buf_errs == 0, "%s: %llu buffer errors (RXB_CQE_F_SPLIT lost?)",
		       names[i], (unsigned long long)r.buf_errs);
	}
	flagless = rxb_privring_ops;
	flagless.poll = flagless_poll;
	c = base();
	c.ops = &flagless;
	c.cores = 4;
	c.packets = 20000;
	c.warmup = 0;
	c.headroom = 16;
	c.nicmem_split = true;
	if (!run("privring losing RXB_CQE_F_SPLIT", &c, &r))
		return;
	EXPECT(r.buf_errs > 0, "a split packet handed up as whole went unnoticed");
}

/* ---- experiments --------------------------------------------------- */

/*
 * (1) Paper Fig. 2 / Fig. 13: privRing throughput vs ring size, 16 cores,
 * 2 x 100 Gbps, 1500 B: fits the DDIO ways (R <= 128), fits the LLC, exceeds
 * it (R >= 1024).  The NF is the figure's LB (predict.py: two reads in a
 * 640 MiB flow table).
 */
static void exp1_privring_ring_size(void)
{
	static const unsigned int R[] = { 64, 128, 256, 1024, 2048 };
	struct sim_res r[5], h[5];
	unsigned int i;
	char what[40];

	for (i = 0; i < 5; i++) {
		struct sim_cfg c = base();

		c.ring = R[i];
		c.packets = 200000;
		c.app_mem = 640 << 20;
		/* Header-only reads (64 B), as the papers' NAT and LB. */
		snprintf(what, sizeof(what), "privring R=%u header", R[i]);
		if (!run(what, &c, &h[i]))
			return;
		c.touch_lines = 0;
		snprintf(what, sizeof(what), "privring R=%u payload", R[i]);
		if (!run(what, &c, &r[i]))
			return;
	}
	/* Regime 1: line rate, DMA writes hit, little DRAM traffic. */
	EXPECT(h[0].drop_pct < 0.01 && h[1].drop_pct < 0.01, "line rate at R <= 128");
	/* Reading 24 lines a packet, LB's cores are near their budget at 128. */
	EXPECT(r[0].drop_pct < 0.01 && r[1].drop_pct < 2,
	       "whole payload: line rate at R = 64, within 2 %% at 128 (%.2f %% dropped)",
	       r[1].drop_pct);
	EXPECT(r[0].ddio_hit > 0.95 && r[1].ddio_hit > 0.6, "DDIO hits at R <= 128");
	/* Regime 2 (header-only): line rate, but DMA writes miss: DRAM up. */
	EXPECT(h[2].drop_pct < 0.5, "line rate at R = 256");
	EXPECT(h[2].mem_gbs > 2 * h[1].mem_gbs && h[2].ddio_hit < h[1].ddio_hit,
	       "DDIO misses and DRAM traffic once the ways overflow");
	/* Whole-payload reads: the cores stall on DRAM from R = 256 on. */
	EXPECT(r[2].gbps < 0.95 * r[1].gbps, "whole payload, R = 256: %.0f%% of R = 128",
	       100 * r[2].gbps / r[1].gbps);
	/* Regime 3: throughput collapses, rings fill, latency explodes. */
	EXPECT(h[3].gbps < 0.97 * h[1].gbps && h[3].gbps > 0.6 * h[1].gbps,
	       "header-only R = 1024: %.0f%% of R = 128 (paper: up to 0.8x)",
	       100 * h[3].gbps / h[1].gbps);
	EXPECT(h[4].gbps < 0.97 * h[1].gbps, "R = 2048 collapsed too");
	EXPECT(h[3].lat_p99_us > 10 * h[1].lat_p99_us, "latency: rings fill");
	EXPECT(h[3].cpu_pkt_hit < h[2].cpu_pkt_hit - 0.2,
	       "leaky DMA: packets evicted before the core reads them");
	EXPECT(r[4].mem_gbs > 3 * r[1].mem_gbs, "DRAM traffic up (paper: 4.9x)");
}

/* (1) continued: rxBisect with |Ax| = 128 is flat as |Bx| grows (Fig. 13). */
static void exp1_rxbisect_bx_size(void)
{
	static const unsigned int B[] = { 128, 512, 1024, 2048 };
	struct sim_res r[4];
	unsigned int i;
	char what[32];

	for (i = 0; i < 4; i++) {
		struct sim_cfg c = cfg_for("rxbisect", B[i]);

		c.ax = 128;
		c.packets = 150000;
		snprintf(what, sizeof(what), "rxbisect Bx=%u", B[i]);
		if (!run(what, &c, &r[i]))
			return;
	}
	for (i = 0; i < 4; i++) {
		EXPECT(r[i].drop_pct < 0.01, "Bx=%u: line rate", B[i]);
		EXPECT(fabs(r[i].gbps - r[0].gbps) < 0.01 * r[0].gbps &&
		       fabs(r[i].wss_mib - r[0].wss_mib) < 0.1 * r[0].wss_mib,
		       "Bx=%u: throughput and working set flat", B[i]);
	}
	EXPECT(r[0].wss_mib < 4, "working set fits the DDIO ways: %.2f MiB",
	       r[0].wss_mib);
}

/*
 * (2) mu < lambda (thesis Fig. 5.7f/g): when overloaded, occupancy and
 * latency are proportional to the ring size; shRing divides them by the
 * share factor.  The cores are made slower than the arrivals; the LLC is
 * made big enough for every ring so that only queueing differs.
 */
static struct sim_cfg exp2_cfg(const char *model, unsigned int ring)
{
	struct sim_cfg c = cfg_for(model, ring);

	c.cycles = 2600;		/* > 2061: mu < lambda */
	c.llc_bytes = 256ULL << 20;
	c.llc_ways = 16;
	c.ddio_ways = 16;
	c.packets = 600000;
	c.warmup = 0.5;
	return c;
}

static void exp2_queueing(void)
{
	struct sim_res p128, p256, p1024, sh;
	struct sim_cfg c;

	c = exp2_cfg("privring", 128);
	if (!run("privring R=128", &c, &p128))
		return;
	c = exp2_cfg("privring", 256);
	if (!run("privring R=256", &c, &p256))
		return;
	c = exp2_cfg("privring", 1024);
	if (!run("privring R=1024", &c, &p1024))
		return;
	EXPECT(p256.occ_pct > 85 && p1024.occ_pct > 85,
	       "overloaded rings are full: %.0f%%, %.0f%% (thesis: 94%%)",
	       p256.occ_pct, p1024.occ_pct);
	EXPECT(p1024.lat_p50_us / p256.lat_p50_us > 3.2 &&
	       p1024.lat_p50_us / p256.lat_p50_us < 4.8,
	       "latency ~ ring size: x%.2f for x4", p1024.lat_p50_us / p256.lat_p50_us);
	if (!has_model("shring")) {
		skip("shring model not registered: shRing part not run");
		return;
	}
	c = exp2_cfg("shring", 1024);
	c.share = 8;
	if (!run("shring 1024/8", &c, &sh))
		return;
	/*
	 * RxArr reposts in ring order, so the most loaded queue of a group
	 * holds its share of the ring and the others wait behind it.
	 */
	EXPECT(max_occ(&sh) > 0.7 * 1024 / 8 && max_occ(&sh) < 1.3 * 1024 / 8,
	       "shRing: the bottleneck queue holds ring / share factor: %.0f",
	       max_occ(&sh));
	EXPECT(sh.lat_p99_us > 0.6 * p128.lat_p99_us && sh.lat_p99_us < 1.6 * p128.lat_p99_us,
	       "shRing 1024/8 tail latency ~ privRing 128: %.1f vs %.1f us",
	       sh.lat_p99_us, p128.lat_p99_us);
}

/*
 * (3) Burst absorption (thesis Fig. 4.4, 5.8; paper Fig. 9): 8 cores, one
 * 100 Gbps port, bursts of 512 line-rate packets to one of the cores.
 */
static struct sim_cfg exp3_cfg(const char *model, unsigned int ring)
{
	struct sim_cfg c = cfg_for(model, ring);

	c.cores = 8;
	c.ports = 1;
	c.arrival = ARR_BURST;
	c.burst = 512;
	c.load = 0.06;
	c.target = 0;
	c.target_share = 1;
	c.ax = 128;
	c.share = 8;
	c.packets = 300000;
	c.warmup = 0.1;
	return c;
}

static void exp3_burst(void)
{
	struct sim_res small, big, rxb, sh;
	struct sim_cfg c;

	c = exp3_cfg("privring", 128);
	if (!run("privring 128", &c, &small))
		return;
	c = exp3_cfg("privring", 1024);
	if (!run("privring 1024", &c, &big))
		return;
	c = exp3_cfg("rxbisect", 1024);
	if (!run("rxbisect 128/1024", &c, &rxb))
		return;
	EXPECT(small.drop_pct > 20, "128-entry private rings drop bursts: %.2f%%",
	       small.drop_pct);
	EXPECT(big.drop_pct < 0.05 * small.drop_pct, "1 Ki private rings absorb them");
	EXPECT(rxb.drop_pct < 0.05 * small.drop_pct &&
	       rxb.drop_pct <= 1.5 * big.drop_pct + 0.05,
	       "rxBisect Ax 128 / Bx 1 Ki absorbs them as 1 Ki privRing: %.3f%% vs %.3f%%",
	       rxb.drop_pct, big.drop_pct);
	if (!has_model("shring")) {
		skip("shring model not registered: shRing part not run");
		return;
	}
	c = exp3_cfg("shring", 1024);
	if (run("shring 1024/8", &c, &sh))
		EXPECT(sh.drop_pct < 0.05 * small.drop_pct &&
		       sh.drop_pct <= 1.5 * big.drop_pct + 0.05,
		       "shRing 1 Ki shared absorbs them: %.3f%%", sh.drop_pct);
}

/*
 * (4) Head-of-line blocking (thesis Fig. 5.10/5.11, paper Fig. 14/15): one
 * core per port is slow (more memory accesses per packet) or flooded.
 */
static struct sim_cfg exp4_cfg(const char *model, bool flood)
{
	struct sim_cfg c = cfg_for(model, 1024);

	c.ax = 128;
	c.share = 8;
	c.packets = 500000;
	c.warmup = 0.4;
	/* A small working set everywhere: only the slow core differs. */
	c.ring = strcmp(model, "privring") ? 1024 : 128;
	/*
	 * rxBisect's borrowing grows its working set past the two DDIO ways
	 * (13 MiB here); give DDIO the whole LLC so that only the rings
	 * differ (the cache side is ddio_monotonic's and exp1's).
	 */
	c.ddio_ways = c.llc_ways;
	c.target = 0;
	if (flood) {
		/* 30% of each port's packets to its queue 0. */
		c.target_share = 0.3;
	} else {
		/* ~1 Gbps to queue 0 of each port, 300 more reads per packet. */
		c.target_share = 0.01;
		opt_apply(&c, "extra", "0:0:300");
		opt_apply(&c, "extra", "8:0:300");
	}
	return c;
}

static void exp4_one(const char *model, bool flood, struct sim_res *r)
{
	struct sim_cfg c = exp4_cfg(model, flood);
	char what[48];

	snprintf(what, sizeof(what), "%s %s", model, flood ? "flooded" : "slow");
	if (!run(what, &c, r))
		memset(r, 0, sizeof(*r));
}

static u64 other_drops(const struct sim_res *r)
{
	u64 d = 0;
	unsigned int q;

	for (q = 0; q < r->nqueues; q++)
		if (q % (r->nqueues / 2))
			d += drops(&r->q[q]);
	return d;
}

static void exp4_hol(void)
{
	struct sim_res pr, rb, sh;
	bool flood;

	for (flood = false; ; flood = true) {
		exp4_one("privring", flood, &pr);
		exp4_one("rxbisect", flood, &rb);
		EXPECT(pr.q[0].nobuf + pr.q[0].ring_full > 0.3 * pr.q[0].arrived,
		       "%s: the target drops", flood ? "flood" : "slow");
		EXPECT(other_drops(&pr) == 0, "privRing: only the target's traffic is lost");
		EXPECT(other_drops(&rb) == 0, "rxBisect: no other core loses traffic");
		EXPECT(rb.gbps > 0.98 * pr.gbps, "rxBisect >= privRing: %.1f vs %.1f",
		       rb.gbps, pr.gbps);
		if (has_model("shring")) {
			exp4_one("shring", flood, &sh);
			EXPECT(sh.gbps < 0.75 * rb.gbps,
			       "shRing loses far more (paper: -49..-60%%): %.0f%%",
			       100 * (sh.gbps / rb.gbps - 1));
			EXPECT(other_drops(&sh) > 0, "shRing: other cores lose traffic");
		}
		if (flood)
			break;
	}
	if (!has_model("shring"))
		skip("shring model not registered: shRing part not run");
}

/*
 * (7) Dynamic shRing (thesis 5.1.5, Fig. 5.12): on under high balanced
 * load with a working set beyond the DDIO ways, off once one core is
 * pathologically slow.
 */
static void exp7_dshring(void)
{
	struct sim_cfg c = base();
	struct sim_res r;
	u64 shared, sw;

	if (!has_model("dshring")) {
		skip("dshring model not registered");
		return;
	}
	set_model(&c, "dshring");
	c.ring = 1024;
	c.share = 8;
	c.dsh_period_us = 2000;		/* ~2 ring rounds per queue */
	c.dsh_window = 8;
	/*
	 * The thesis's overload criterion (standard deviation of the
	 * queues' receive-call intervals above 32x their median) flags one
	 * slow queue of 8 only when it is ~98x slower than the median.  The
	 * simulated cores wait for interrupts where the thesis's busy-poll,
	 * so the cores that keep up call receive as rarely as their packets
	 * arrive, which raises the median.  A quarter of the ratio flags
	 * the slow core below on both ports (at 16, one port of two stayed
	 * shared once the Tx path made the cores' calls more even).
	 */
	c.dsh_overload_ratio = 8;
	c.packets = 900000;
	c.warmup = 0.75;
	c.target = 0;
	c.target_share = 0.125;		/* as RSS would give it */
	if (!run("dshring balanced", &c, &r))
		return;
	EXPECT(sim_res_xstat(&r, "dsh_shared", &shared) && shared == c.ports,
	       "balanced high load: shRing on (%llu of %u ports)",
	       (unsigned long long)shared, c.ports);
	EXPECT(r.drop_pct < 1, "and at line rate: %.2f%% dropped", r.drop_pct);
	/*
	 * Then the target core turns slow (Fig. 5.12 at t = 20 s): 1 Gbps
	 * to it, 300 more reads per packet, as in (4).
	 */
	c.packets = 1800000;
	c.warmup = 0.8;
	opt_apply(&c, "change", "0.45:target-share=0.01");
	opt_apply(&c, "change", "0.45:extra=0:0:300");
	opt_apply(&c, "change", "0.45:extra=8:0:300");
	if (!run("dshring then slow core", &c, &r))
		return;
	EXPECT(sim_res_xstat(&r, "dsh_shared", &shared) && shared == 0,
	       "pathological: back to privRing (%llu ports shared)",
	       (unsigned long long)shared);
	EXPECT(sim_res_xstat(&r, "dsh_switches", &sw) && sw >= 2 * c.ports,
	       "switched on and off: %llu switches", (unsigned long long)sw);
}

/*
 * (8) Buffer-pool exhaustion (thesis 6.2.1): with a 2|Rx| pool, privRing
 * runs out when the NF holds buffers until Tx completes; rxBisect's
 * overloaded Bx ring hogs buffers but the other cores keep receiving.
 */
static void exp8_pool(void)
{
	struct sim_cfg c = base();
	struct sim_res r2, r4, rb;
	unsigned int q;
	u64 borrowed = 0;
	bool ok = true;

	c.ring = 256;
	c.load = 0.9;
	c.packets = 500000;
	c.hold_us = 400;	/* ~ a 400-packet Tx ring per core, cleaned lazily */
	c.pool_x = 2;
	if (!run("privring pool 2|Rx|", &c, &r2))
		return;
	c.pool_x = 4;
	if (!run("privring pool 4|Rx|", &c, &r4))
		return;
	EXPECT(r2.alloc_fails > 0,
	       "2|Rx| runs out: %llu allocation failures (rings not refilled)",
	       (unsigned long long)r2.alloc_fails);
	EXPECT(r4.alloc_fails == 0 && r4.drop_pct < 0.01, "4|Rx| does not");

	c = cfg_for("rxbisect", 1024);
	c.ax = 128;
	c.pool_x = 2;
	c.packets = 800000;
	c.warmup = 0.5;
	opt_apply(&c, "extra", "0:0:60");
	opt_apply(&c, "extra", "8:0:60");
	if (!run("rxbisect pool 2|Ax|, slow", &c, &rb))
		return;
	sim_res_xstat(&rb, "borrowed", &borrowed);
	EXPECT(rb.q[0].occ_mean > 2 * c.ax,
	       "the slow core's Bx ring hogs buffers: %.0f > 2 |Ax|", rb.q[0].occ_mean);
	EXPECT(borrowed > 0, "borrowed from other Ax rings");
	for (q = 1; q < rb.nqueues; q++)
		if (q != 8)
			ok &= drops(&rb.q[q]) < 0.005 * rb.q[q].arrived;
	EXPECT(ok, "the other cores keep receiving");
}

/* ---- several packets per buffer: batched RxList -------------------- */

/*
 * shRing with batched RxList (thesis 5.1.4, "Prefetching Solution",
 * Fig. 5.2b): each descriptor's buffer holds packets at RXB_MCQE_ALIGN
 * offsets, each handed up as a fragment with its own reference; the
 * model drops its own when it re-arms the descriptor, and the buffer
 * goes back to its pool when the last packet in it is done.  Checked
 * under light load, overload with held buffers and a small pool, and
 * bursts of large packets in 4 KiB buffers: every packet offered is
 * delivered, dropped or still in the host; no buffer reference error
 * (a buffer back in its pool with a packet in it outstanding, a DMA
 * write into a buffer the model let go); each packet handed up took a
 * reference; small packets share descriptors.
 */
/* Sum of the model counters whose names end in "_@name" (per ring). */
static bool xstat_rings(const struct sim_res *r, const char *name, u64 *val)
{
	size_t n = strlen(name), l;
	bool found = false;
	unsigned int i;

	*val = 0;
	for (i = 0; i < r->nx; i++) {
		l = strlen(r->x[i].name);
		if (l > n && r->x[i].name[l - n - 1] == '_' &&
		    !strcmp(r->x[i].name + l - n, name)) {
			*val += r->x[i].val;
			found = true;
		}
	}
	return found;
}

static void batched_run(const char *what, struct sim_cfg *c, bool small)
{
	struct sim_res r;
	u64 taken, refs;

	if (!run(what, c, &r))
		return;
	expect_conserved(what, &r);
	EXPECT(r.buf_errs == 0, "%s: %llu buffer reference errors", what,
	       (unsigned long long)r.buf_errs);
	EXPECT(r.delivered > 0, "%s: nothing delivered", what);
	if (!EXPECT(xstat_rings(&r, "desc_taken", &taken) &&
		    xstat_rings(&r, "frag_refs", &refs), "%s: no xstats", what))
		return;
	/* Counters since the start; delivered since the warm-up. */
	EXPECT(refs >= r.delivered, "%s: %llu references for %llu packets",
	       what, (unsigned long long)refs, (unsigned long long)r.delivered);
	if (small)
		EXPECT(taken * 8 < refs, "%s: %llu descriptors for %llu packets",
		       what, (unsigned long long)taken, (unsigned long long)refs);
	diag("%s: %.0f host-resident at the peak; working set %.0f buffers, %.2f MiB",
	     what, r.res_peak, r.wss_bufs, r.wss_mib);
	diag("%s: %llu packets in %llu descriptors", what,
	     (unsigned long long)refs, (unsigned long long)taken);
}

static void models_multi_pkt(void)
{
	struct sim_cfg c;

	if (!has_model("shring-batched")) {
		skip("shring-batched model not registered");
		return;
	}
	c = base();
	set_model(&c, "shring-batched");
	c.cores = 8;
	c.packets = 80000;
	c.warmup = 0;
	c.ring = 256;
	c.share = 4;
	c.pkt_size = 64;
	c.load = 0.02;
	batched_run("batched 64 B light", &c, true);

	/* Overloaded, buffers held after processing, pools of 2x. */
	c.load = 0.1;
	c.hold_us = 20;
	c.pool_x = 2;
	batched_run("batched 64 B overload", &c, true);

	/* Bursts of 1500 B packets, two a 4 KiB buffer (the kernel's page). */
	c = base();
	set_model(&c, "shring-batched");
	c.cores = 8;
	c.packets = 60000;
	c.warmup = 0;
	c.ring = 256;
	c.buf_stride = 4096;
	c.arrival = ARR_BURST;
	c.burst = 64;
	c.load = 0.5;
	batched_run("batched 1500 B bursts", &c, false);
}

/*
 * The checks above catch a model that lets a buffer go while a packet in
 * it is outstanding: here one that drops each packet's reference as soon
 * as it hands it up.
 */
static int leaky_poll(struct rxb_model *m, unsigned int q, struct rxb_pkt *pkts,
		      int budget)
{
	int n = rxb_shring_batched_ops.poll(m, q, pkts, budget), i;

	for (i = 0; i < n; i++)
		rxb_drv_free_buf(m, pkts[i].pool_q, pkts[i].cookie);
	return n;
}

static void models_multi_pkt_leak(void)
{
	struct rxb_model_ops leaky;
	struct sim_cfg c = base();
	struct sim_res r;

	if (!has_model("shring-batched")) {
		skip("shring-batched model not registered");
		return;
	}
	leaky = rxb_shring_batched_ops;
	leaky.poll = leaky_poll;
	set_model(&c, "shring-batched");
	c.ops = &leaky;
	c.cores = 4;
	c.packets = 20000;
	c.warmup = 0;
	c.ring = 256;
	c.share = 4;
	c.pkt_size = 64;
	c.load = 0.01;
	if (!run("batched, references dropped early", &c, &r))
		return;
	EXPECT(r.buf_errs > 0, "a buffer freed under its packets went unnoticed");
}

/*
 * The I/O working set with small packets (64 B) at a load the cores keep
 * up with.  In buffers, batched RxList's is below shRing's at the same
 * ring entries: its packets share buffers.  In bytes (the lines DMA
 * writes touch, thesis ch. 4's definition) it is above: the NIC goes
 * round the same number of descriptors, each with room for a batch, so
 * the ring holds k times the packets; with the same packet slots
 * (descriptors x packets a buffer) it is shRing's.  And the thesis's
 * two claims for the design: a lock (repost) at most once per batch and
 * one descriptor per batch, so fewer locks and descriptor fetches per
 * packet than RxList's.
 */
static void batched_wss(void)
{
	struct sim_res sh, li, ba, sh4, ba4;
	struct sim_cfg c = base();

	if (!has_model("shring-batched") || !has_model("shring-list")) {
		skip("shring-batched or shring-list not registered");
		return;
	}
	c.pkt_size = 64;
	c.load = 0.05;
	c.packets = 600000;
	c.ring = 1024;
	set_model(&c, "shring");
	if (!run("shring 1 Ki, 64 B", &c, &sh))
		return;
	set_model(&c, "shring-list");
	if (!run("shring-list 1 Ki, 64 B", &c, &li))
		return;
	set_model(&c, "shring-batched");
	if (!run("shring-batched 1 Ki, 64 B", &c, &ba))
		return;
	EXPECT(ba.drop_pct == 0 && sh.drop_pct == 0, "the cores keep up");
	EXPECT(ba.buf_errs == 0, "no buffer reference error");
	EXPECT(ba.wss_bufs < sh.wss_bufs, "buffers: batched %.0f, shRing %.0f",
	       ba.wss_bufs, sh.wss_bufs);
	EXPECT(ba.wss_mib > 2 * sh.wss_mib,
	       "bytes at equal entries: batched %.2f MiB, shRing %.2f MiB",
	       ba.wss_mib, sh.wss_mib);
	EXPECT(ba.lock_pkt < li.lock_pkt / 4, "locks per packet: batched %.3f, RxList %.3f",
	       ba.lock_pkt, li.lock_pkt);
	EXPECT(ba.pcie_down_gbs < li.pcie_down_gbs,
	       "descriptor fetches: batched %.2f GB/s down, RxList %.2f",
	       ba.pcie_down_gbs, li.pcie_down_gbs);

	/* Equal packet slots: 256-byte buffers (4 slots), 256 descriptors. */
	c.buf_stride = 256;
	set_model(&c, "shring");
	if (!run("shring 1 Ki, 256 B buffers", &c, &sh4))
		return;
	set_model(&c, "shring-batched");
	c.ring = 256;
	if (!run("shring-batched 256 x 4 slots", &c, &ba4))
		return;
	EXPECT(ba4.wss_mib <= 1.1 * sh4.wss_mib,
	       "bytes at equal slots: batched %.3f MiB, shRing %.3f MiB",
	       ba4.wss_mib, sh4.wss_mib);
}

/*
 * Pathological overload (thesis 5.1.1, 5.1.4): batched RxList keeps
 * RxList's resilience to a slow core, and with small packets to a
 * flooded core (paper Fig. 15's 64 B target traffic) does better: the
 * flooded core's packets share descriptors, so it holds few of the
 * shared ring.  exp4's setting (DDIO the whole LLC), 4 KiB buffers as
 * the kernel's pages.
 */
static void batched_hol(void)
{
	struct sim_res sh, li, ba;
	struct sim_cfg c;
	bool flood;

	if (!has_model("shring-batched") || !has_model("shring-list") ||
	    !has_model("shring")) {
		skip("a shRing model is not registered");
		return;
	}
	for (flood = false; ; flood = true) {
		c = exp4_cfg("shring", flood);
		c.packets = 300000;
		if (flood)
			c.target_pkt_size = 64;
		c.buf_stride = 4096;
		/*
		 * Head-of-line blocking alone: with the NIC's descriptor cache
		 * the list rings' misses bound them first (desc_prefetch,
		 * Documentation/simulator.rst experiment (10)).
		 */
		c.desc_prefetch = false;
		if (!run(flood ? "shring flooded 64 B" : "shring slow", &c, &sh))
			return;
		set_model(&c, "shring-list");
		if (!run(flood ? "shring-list flooded 64 B" : "shring-list slow", &c, &li))
			return;
		set_model(&c, "shring-batched");
		if (!run(flood ? "shring-batched flooded 64 B" : "shring-batched slow",
			 &c, &ba))
			return;
		EXPECT(ba.buf_errs == 0, "no buffer reference error");
		EXPECT(ba.gbps >= 0.98 * li.gbps, "batched %.1f, RxList %.1f Gbps",
		       ba.gbps, li.gbps);
		EXPECT(ba.gbps > 1.2 * sh.gbps, "batched %.1f, RxArr %.1f Gbps",
		       ba.gbps, sh.gbps);
		if (flood) {
			EXPECT(ba.gbps > 1.5 * li.gbps,
			       "flooded with 64 B: batched %.1f, RxList %.1f Gbps",
			       ba.gbps, li.gbps);
			break;
		}
	}
}

/*
 * DDIO: the DMA-write hit rate never falls as DDIO gets more ways, whatever
 * the ring size (the old model's cores pulled I/O lines out of the DDIO
 * ways on a miss: 95.9% with 1 way, 54.4% with 2, 20.6% with 3 at R = 256).
 */
static void ddio_monotonic(void)
{
	static const unsigned int R[] = { 128, 256, 512, 1024 };
	static const unsigned int W[] = { 1, 2, 3, 4, 6, 8, 11 };
	unsigned int i, j;
	char what[48];

	for (i = 0; i < ARRAY_SIZE(R); i++) {
		double prev = -1;

		for (j = 0; j < ARRAY_SIZE(W); j++) {
			struct sim_cfg c = base();
			struct sim_res r;

			c.ring = R[i];
			c.ddio_ways = W[j];
			c.packets = 100000;
			c.warmup = 0.3;
			/*
			 * A light NF: the same packets reach the LLC
			 * whatever the ways (no collapse to feed back).
			 */
			c.cycles = 600;
			snprintf(what, sizeof(what), "R=%u ddio-ways=%u", R[i], W[j]);
			if (!run(what, &c, &r))
				return;
			EXPECT(r.ddio_hit >= prev - 0.002,
			       "R=%u: %u ways %.1f%% < fewer ways %.1f%%", R[i],
			       W[j], 100 * r.ddio_hit, 100 * prev);
			prev = r.ddio_hit;
		}
	}
}

/* DDIO off: every DMA write to DRAM, every packet read from DRAM. */
static void ddio_off(void)
{
	struct sim_cfg c = base();
	struct sim_res on, off;

	c.ring = 64;
	c.packets = 200000;
	if (!run("R=64 DDIO on", &c, &on))
		return;
	c.ddio_ways = 0;
	if (!run("R=64 DDIO off", &c, &off))
		return;
	EXPECT(off.ddio_hit == 0 && off.cpu_pkt_hit == 0,
	       "no DMA write and no packet read hits: %.2f %.2f",
	       off.ddio_hit, off.cpu_pkt_hit);
	/* Every packet byte is written to DRAM, then read back. */
	EXPECT(off.mem_wr_gbs * 8 > 0.95 * off.gbps && off.mem_rd_gbs * 8 > 0.95 * off.gbps,
	       "DRAM write %.1f and read %.1f GB/s for %.1f Gbps",
	       off.mem_wr_gbs, off.mem_rd_gbs, off.gbps);
	EXPECT(on.ddio_hit > 0.95 && off.lat_p50_us > on.lat_p50_us,
	       "DDIO on: hits, and lower latency (%.1f vs %.1f us)",
	       on.lat_p50_us, off.lat_p50_us);
}

/*
 * Application access patterns: header-only (the first 64 or 128 B, what
 * NAT and LB read) and whole payload.  The core reads exactly those lines;
 * reading less keeps line rate to larger rings.
 */
static void access_patterns(void)
{
	static const unsigned int touch[] = { 1, 2, 0 };
	struct sim_res r[3];
	unsigned int i;
	char what[48];

	for (i = 0; i < 3; i++) {
		struct sim_cfg c = base();

		c.ring = 256;
		c.packets = 300000;
		c.cycles = 1200;	/* an NF with room to spare */
		c.app_mem = 640 << 20;	/* predict.py's LB */
		c.touch_lines = touch[i];
		snprintf(what, sizeof(what), "R=256 %s",
			 !touch[i] ? "whole payload" : touch[i] == 1 ? "64 B header" :
			 "128 B header");
		if (!run(what, &c, &r[i]))
			return;
	}
	EXPECT(r[0].mem_rd_gbs < r[2].mem_rd_gbs && r[1].mem_rd_gbs < r[2].mem_rd_gbs,
	       "header-only reads less from DRAM: %.1f %.1f vs %.1f GB/s",
	       r[0].mem_rd_gbs, r[1].mem_rd_gbs, r[2].mem_rd_gbs);
	EXPECT(r[0].drop_pct < 0.5 && r[1].drop_pct < 0.5,
	       "header-only holds line rate at R = 256: %.2f%% %.2f%%",
	       r[0].drop_pct, r[1].drop_pct);
	EXPECT(r[2].gbps < 0.95 * r[1].gbps,
	       "whole-payload reads do not: %.1f vs %.1f Gbps", r[2].gbps, r[1].gbps);
}

/*
 * Every packet offered is delivered, dropped, or still in the host.  The
 * window counts the arrivals after the warm-up and the deliveries in it:
 * packets still in the NIC's buffer, a ring or a core when it opens (at
 * most what they hold then, as at its end) are delivered in it too.
 */
static bool conserved(const struct sim_cfg *c, const struct sim_res *r)
{
	u64 out = r->delivered + r->nobuf + r->ring_full + r->oversize + r->nic_drop;
	u64 held = r->in_flight + c->cores * (c->ring + c->budget);

	return out <= r->arrived + held && r->arrived <= out + held;
}

/* Sweep option @opt; throughput must not rise, NIC drops must not fall. */
static bool sweep_down(struct sim_cfg c, const char *opt,
		       const char *const *vals, unsigned int n, struct sim_res *r)
{
	unsigned int i;
	char what[64];

	for (i = 0; i < n; i++) {
		if (!EXPECT(!opt_apply(&c, opt, vals[i])))
			return false;
		snprintf(what, sizeof(what), "%s=%s", opt, vals[i]);
		if (!run(what, &c, &r[i]))
			return false;
		EXPECT(conserved(&c, &r[i]), "%s: delivered + dropped = offered", what);
		if (i) {
			EXPECT(r[i].gbps <= r[i - 1].gbps * 1.002,
			       "%s: throughput rose: %.1f after %.1f", what,
			       r[i].gbps, r[i - 1].gbps);
			EXPECT(r[i].nic_drop >= r[i - 1].nic_drop,
			       "%s: fewer NIC drops", what);
		}
	}
	return true;
}

/* PCIe link bandwidth: below the frames plus TLP overhead, the NIC drops. */
static void pcie_link(void)
{
	static const char *const v[] = { "125", "110", "100", "80" };
	struct sim_cfg c = base();
	struct sim_res r[4];

	c.ring = 128;
	c.packets = 200000;
	c.warmup = 0;
	c.cycles = 1200;	/* the cores keep up: the link decides */
	if (!sweep_down(c, "pcie-gbps", v, 4, r))
		return;
	EXPECT(r[0].nic_drop == 0 && r[0].drop_pct < 0.01, "125 Gbps carries 100");
	EXPECT(r[3].nic_drop > 0 && r[3].pcie_up_gbs * 8 < 2 * 80 * 1.001,
	       "80 Gbps: the buffer overflows, the link stays under its rate (%.1f GB/s)",
	       r[3].pcie_up_gbs);
	EXPECT(r[3].lat_p50_us > r[0].lat_p50_us, "and packets wait in the NIC");
}

/* DMA reads: fewer outstanding reads, longer latency: Tx reads stall Rx. */
static void pcie_reads(void)
{
	static const char *const v[] = { "64", "8", "2", "1" };
	struct sim_cfg c = base();
	struct sim_res r[4];

	c.ring = 128;
	c.packets = 200000;
	c.warmup = 0;
	c.cycles = 1200;
	c.pcie_rd_ns = 1450;	/* thesis Fig. 5.7e, privRing's loaded read */
	if (!sweep_down(c, "pcie-reads", v, 4, r))
		return;
	EXPECT(r[0].nic_drop == 0, "64 reads in flight hide 1.45 us");
	EXPECT(r[3].nic_drop > 0, "one read in flight does not");
}

/* Descriptor fetches and doorbells are PCIe traffic too. */
static void pcie_descriptors(void)
{
	struct sim_cfg c = base();
	struct sim_res r;
	double per_pkt;

	c.ring = 128;
	c.packets = 200000;
	c.tx = false;
	if (!run("no Tx: descriptors only", &c, &r))
		return;
	/*
	 * 16 B descriptor + 24 B / 8 per fetch, and the doorbells the model
	 * rang (4 B + 24 B of TLP each).
	 */
	per_pkt = r.pcie_down_gbs * 1e3 / r.mpps;
	EXPECT(fabs(per_pkt - (19 + 28 * r.db_pkt)) < 3,
	       "%.1f B down per packet, %.3f doorbells", per_pkt, r.db_pkt);
	c.budget = 4;
	if (!run("budget 4: more doorbells", &c, &r))
		return;
	EXPECT(r.pcie_down_gbs * 1e3 / r.mpps > per_pkt,
	       "smaller batches, more doorbell bytes: %.1f",
	       r.pcie_down_gbs * 1e3 / r.mpps);
}

/*
 * --start-stall: the cores wait while the NIC fills the rings.  At half the
 * line rate the rings overflow meanwhile; under the synthetic NF (two
 * reads in 40 MiB, thesis Fig. 5.7) privRing 1 Ki then stays collapsed,
 * the packets evicted before the cores read them, while from an empty
 * start it keeps up; shRing/8 comes back from the same stall.
 */
static void start_stall(void)
{
	struct sim_cfg c = cfg_for("privring", 1024);
	struct sim_res r;

	c.load = 0.5;
	c.packets = 100000;
	c.warmup = 0;
	if (!run("half load, no stall", &c, &r))
		return;
	EXPECT(r.drop_pct == 0, "no stall: %.2f %% dropped", r.drop_pct);
	c.start_stall = 0.3;
	if (!run("half load, stalled for 30 %", &c, &r))
		return;
	EXPECT(r.drop_pct > 5, "stalled: %.2f %% dropped", r.drop_pct);

	c = cfg_for("privring", 1024);
	c.cycles = 1138;	/* the calibrated NF (predict.py) */
	c.app_accesses = 2;
	c.app_mem = 40 << 20;
	c.packets = 300000;
	c.warmup = 0.5;
	if (!run("privRing, empty start", &c, &r))
		return;
	EXPECT(r.occ_pct < 10 && r.cyc_pkt < 2061,
	       "keeps up: %.1f %% full, %.0f cycles", r.occ_pct, r.cyc_pkt);
	c.start_stall = 0.05;
	if (!run("privRing, after a stall", &c, &r))
		return;
	EXPECT(r.occ_pct > 75 && r.cyc_pkt > 2061,
	       "collapsed: %.1f %% full, %.0f cycles", r.occ_pct, r.cyc_pkt);
	set_model(&c, "shring");
	c.share = 8;
	if (!run("shRing/8, after a stall", &c, &r))
		return;
	EXPECT(r.occ_pct < 10, "shRing/8 recovers: %.1f %% full", r.occ_pct);
}

/*
 * A pool smaller than the rings at a light load: a core whose refill
 * failed retries only once a buffer came back, not every
 * --refill-retry-us for nothing (230 M failed allocations over the 91 s
 * of simulated time 1500 packets took at --load 1e-6, 24 s of wall time).
 */
static void refill_park(void)
{
	struct sim_cfg c = cfg_for("privring", 1024);
	struct sim_res r;

	c.load = 0.00001;
	c.pool_x = 0.647;
	c.packets = 1500;
	c.warmup = 0;
	if (!run("pool 0.647 x the rings, load 1e-5", &c, &r))
		return;
	EXPECT(r.alloc_fails > 0 && r.alloc_fails < 100 * c.packets,
	       "%llu failed allocations for %llu packets",
	       (unsigned long long)r.alloc_fails, (unsigned long long)c.packets);
	EXPECT(r.drop_pct == 0, "%.2f %% dropped", r.drop_pct);
}

/* rxBisect's notification-only entries cost PCIe, less when compressed. */
static void pcie_notifications(void)
{
	struct sim_cfg c = base();
	struct sim_res on, off;
	u64 n = 0;

	if (!has_model("rxbisect")) {
		skip("rxbisect model not registered");
		return;
	}
	set_model(&c, "rxbisect");
	c.target = 0;
	c.target_share = 0.3;	/* queue 0 borrows: its lenders get notices */
	c.packets = 200000;
	c.warmup = 0;
	if (!run("rxbisect notif-compress", &c, &on))
		return;
	c.notif_compress = false;
	if (!run("rxbisect no compression", &c, &off))
		return;
	EXPECT(sim_res_xstat(&off, "notif_entries", &n) && n > 0, "notices written");
	/* Upstream bytes per packet delivered. */
	EXPECT(off.pcie_up_gbs / off.mpps > on.pcie_up_gbs / on.mpps,
	       "a TLP header per uncompressed notice: %.2f vs %.2f B/packet",
	       1e3 * off.pcie_up_gbs / off.mpps, 1e3 * on.pcie_up_gbs / on.mpps);
}

/*
 * The NIC's descriptor cache (--desc-prefetch) at moderate load: an array
 * ring (privRing, shRing's RxArr, rxBisect's Ax rings) reads its
 * descriptors a batch a read, ahead of need, and no frame waits for one;
 * RxList's takes out of array order miss the cached run, each a read
 * round trip that holds the DMA engine (thesis Fig. 5.3).  With one queue
 * per ring RxList's links stay in array order and it is an array ring.
 */
static void desc_prefetch(void)
{
	static const char *const arrays[] = { "privring", "shring", "rxbisect" };
	struct sim_cfg c = base();
	struct sim_res arr = {}, lst, r;
	unsigned int i;

	if (!has_model("shring") || !has_model("shring-list")) {
		skip("shring or shring-list model not registered");
		return;
	}
	c.packets = 60000;
	c.load = 0.5;
	for (i = 0; i < ARRAY_SIZE(arrays); i++) {
		if (!has_model(arrays[i]))
			continue;
		set_model(&c, arrays[i]);
		if (!run(arrays[i], &c, &r))
			return;
		EXPECT(r.desc_waits == 0 && r.desc_misses == 0,
		       "%s: %llu frames waited for a descriptor, %llu misses",
		       arrays[i], (unsigned long long)r.desc_waits,
		       (unsigned long long)r.desc_misses);
		/* A read per --desc-batch descriptors, one descriptor a frame. */
		EXPECT(fabs((double)r.desc_reads * c.desc_batch - r.delivered) <
		       0.1 * r.delivered, "%s: %llu reads for %llu frames", arrays[i],
		       (unsigned long long)r.desc_reads,
		       (unsigned long long)r.delivered);
		if (!strcmp(arrays[i], "shring"))
			arr = r;
	}
	set_model(&c, "shring-list");
	if (!run("shring-list 1:8", &c, &lst))
		return;
	diag("RxList 1:8: %.1f%% of frames waited %.3f us, %.2f reads a frame",
	     100.0 * lst.desc_waits / lst.delivered, lst.desc_wait_us,
	     (double)lst.desc_reads / lst.delivered);
	EXPECT(lst.desc_waits > lst.delivered / 2 && lst.desc_misses > lst.delivered / 2,
	       "RxList's frames wait: %llu of %llu",
	       (unsigned long long)lst.desc_waits, (unsigned long long)lst.delivered);
	EXPECT(lst.desc_wait_us * 1e3 >= c.pcie_rd_ns * 0.999,
	       "a miss waits a read at least: %.3f us", lst.desc_wait_us);
	EXPECT(lst.gbps < 0.6 * arr.gbps && lst.nic_drop > 0,
	       "RxList below RxArr's %.1f Gbps: %.1f, NIC drops %llu", arr.gbps,
	       lst.gbps, (unsigned long long)lst.nic_drop);
	c.desc_prefetch = false;
	if (!run("shring-list 1:8, no cache", &c, &r))
		return;
	EXPECT(r.desc_waits == 0 && r.gbps >= 0.99 * arr.gbps,
	       "without the cache model RxList is RxArr: %.1f Gbps", r.gbps);
	c.desc_prefetch = true;
	c.share = 1;
	if (!run("shring-list 1:1", &c, &lst))
		return;
	set_model(&c, "shring");
	if (!run("shring 1:1", &c, &arr))
		return;
	EXPECT(lst.desc_misses == 0 && lst.desc_waits == 0 &&
	       fabs(lst.gbps - arr.gbps) <= 0.01 * arr.gbps,
	       "1:1, links in array order: RxList %.1f Gbps, RxArr %.1f, %llu misses",
	       lst.gbps, arr.gbps, (unsigned long long)lst.desc_misses);
}

/*
 * RxList at line rate, 1:8: each miss costs a read, so its throughput
 * falls as --pcie-rd-ns grows; RxArr's prefetch hides the latency.
 */
static void desc_list_rd_ns(void)
{
	static const char *const v[] = { "250", "500", "1000" };
	struct sim_cfg c = base();
	struct sim_res r[3], a0, a1;
	unsigned int i;

	if (!has_model("shring") || !has_model("shring-list")) {
		skip("shring or shring-list model not registered");
		return;
	}
	c.packets = 60000;
	set_model(&c, "shring-list");
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		char what[64];

		if (!EXPECT(!opt_apply(&c, "pcie-rd-ns", v[i])))
			return;
		snprintf(what, sizeof(what), "shring-list pcie-rd-ns=%s", v[i]);
		if (!run(what, &c, &r[i]))
			return;
		EXPECT(conserved(&c, &r[i]), "%s: delivered + dropped = offered", what);
		if (i)
			EXPECT(r[i].gbps < 0.85 * r[i - 1].gbps,
			       "%s: %.1f Gbps, not below %.1f", what, r[i].gbps,
			       r[i - 1].gbps);
	}
	set_model(&c, "shring");
	if (!run("shring pcie-rd-ns=1000", &c, &a1))
		return;
	c.pcie_rd_ns = 250;
	if (!run("shring pcie-rd-ns=250", &c, &a0))
		return;
	/* Rarely: its reads share the read tags with the Tx reads. */
	EXPECT(a1.desc_waits < 0.03 * a1.delivered && a1.gbps >= 0.97 * a0.gbps,
	       "RxArr hides the read: %.1f Gbps at 1000 ns, %.1f at 250, %llu waits",
	       a1.gbps, a0.gbps, (unsigned long long)a1.desc_waits);
}

/*
 * A batch of one and no prefetch (--desc-batch 1 --desc-thresh 0): every
 * frame of an array ring waits for its descriptor's read, as RxList's do.
 * With the port's one engine it runs as RxList; with an engine a queue
 * the eight queues' reads overlap (2 Mpps a queue, 16 a port, twice the
 * line rate) and it runs as RxArr.
 */
static void desc_array_as_list(void)
{
	struct sim_cfg c = base();
	struct sim_res arr, one, lst, par;

	if (!has_model("shring") || !has_model("shring-list")) {
		skip("shring or shring-list model not registered");
		return;
	}
	c.packets = 60000;
	set_model(&c, "shring");
	if (!run("shring", &c, &arr))
		return;
	c.desc_batch = 1;
	c.desc_thresh = 0;
	if (!run("shring, batch 1, on demand", &c, &par))
		return;
	c.dma_engines = 1;
	if (!run("shring, batch 1, on demand, one engine", &c, &one))
		return;
	c.desc_batch = 8;
	c.desc_thresh = 8;
	set_model(&c, "shring-list");
	if (!run("shring-list, one engine", &c, &lst))
		return;
	EXPECT(one.desc_waits >= 0.99 * one.delivered && one.desc_misses == 0 &&
	       par.desc_waits >= 0.99 * par.delivered,
	       "every frame waits: %llu of %llu, %llu of %llu",
	       (unsigned long long)one.desc_waits,
	       (unsigned long long)one.delivered,
	       (unsigned long long)par.desc_waits,
	       (unsigned long long)par.delivered);
	EXPECT(one.gbps < 0.5 * arr.gbps && fabs(one.gbps - lst.gbps) < 0.15 * lst.gbps,
	       "one engine: RxArr without prefetch %.1f Gbps, RxList %.1f, RxArr %.1f",
	       one.gbps, lst.gbps, arr.gbps);
	EXPECT(par.gbps >= 0.95 * arr.gbps,
	       "an engine a queue: RxArr without prefetch %.1f Gbps, RxArr %.1f",
	       par.gbps, arr.gbps);
}

/* Every completion owed is written or held behind a frame of its queue. */
static void wb_accounted(const char *what, const struct sim_cfg *c,
			 const struct sim_res *r)
{
	EXPECT(r->cqe_owed == r->cqe_done + r->cqe_held,
	       "%s: %llu completions owed, %llu written, %llu held", what,
	       (unsigned long long)r->cqe_owed, (unsigned long long)r->cqe_done,
	       (unsigned long long)r->cqe_held);
	EXPECT(r->cqe_held <= r->in_flight &&
	       r->cqe_held <= (u64)(c->wb_batch - 1) * c->cores,
	       "%s: %llu held at the end, %llu frames in the NIC's buffer", what,
	       (unsigned long long)r->cqe_held, (unsigned long long)r->in_flight);
}

/*
 * Completion write-back (--wb-batch).  With PCIe slower than the link
 * (80 against 100 Gbps: frames queue in the NIC, the case mlx5 compresses
 * CQEs for) a batch of 8 cuts the write-backs about 8 times and the link
 * bytes a frame with them.  At 30 % load the NIC's buffer rarely holds two
 * frames of a queue, so a completion is written with its frame: nothing
 * waits for a batch that would not fill.
 */
static void wb_batch(void)
{
	struct sim_cfg c = base();
	struct sim_res one, eight, low;
	double w1, w8;

	c.packets = 60000;
	c.pcie_gbps = 80;
	if (!run("privring, PCIe 80 Gbps, wb 1", &c, &one))
		return;
	c.wb_batch = 8;
	if (!run("privring, PCIe 80 Gbps, wb 8", &c, &eight))
		return;
	w1 = (double)one.cqe_writes / one.delivered;
	w8 = (double)eight.cqe_writes / eight.delivered;
	diag("write-backs a frame: %.3f with 1, %.3f with 8; up %.1f, %.1f B a frame",
	     w1, w8, 1e3 * one.pcie_up_gbs / one.mpps,
	     1e3 * eight.pcie_up_gbs / eight.mpps);
	EXPECT(one.cqe_held == 0 && one.cqe_done == one.cqe_owed,
	       "a batch of 1 holds nothing: %llu held",
	       (unsigned long long)one.cqe_held);
	EXPECT(w1 > 0.99 && w1 / w8 > 6 && w1 / w8 < 8.5,
	       "8 a write: %.3f -> %.3f write-backs a frame", w1, w8);
	EXPECT(eight.pcie_up_gbs / eight.mpps < one.pcie_up_gbs / one.mpps,
	       "fewer TLP headers a frame");
	c.wb_batch = 1;
	wb_accounted("wb 1", &c, &one);
	c.wb_batch = 8;
	wb_accounted("wb 8", &c, &eight);
	c = base();
	c.packets = 60000;
	c.load = 0.3;
	c.wb_batch = 16;
	if (!run("privring, load 0.3, wb 16", &c, &low))
		return;
	EXPECT((double)low.cqe_writes / low.delivered > 0.9,
	       "no backlog, no batch: %.3f write-backs a frame",
	       (double)low.cqe_writes / low.delivered);
	wb_accounted("load 0.3, wb 16", &c, &low);
}

/*
 * DMA engines (--dma-engines): with one a queue (the default) the misses
 * of RxList's four rings a port at 1:2 overlap and it loses far less than
 * with the port's one engine; one shared ring a port (1:8) still reads at
 * a new place one read after the other and stays far below RxArr, whose
 * frames do not wait and which runs the same either way.  One engine is
 * the model before the option.
 */
static void dma_engines(void)
{
	struct sim_cfg c = base();
	struct sim_res l1, l0, a1, a0, l8;

	if (!has_model("shring") || !has_model("shring-list")) {
		skip("shring or shring-list model not registered");
		return;
	}
	c.packets = 60000;
	c.share = 2;
	set_model(&c, "shring-list");
	c.dma_engines = 1;
	if (!run("shring-list 1:2, one engine", &c, &l1))
		return;
	c.dma_engines = 0;
	if (!run("shring-list 1:2, one a queue", &c, &l0))
		return;
	set_model(&c, "shring");
	if (!run("shring 1:2, one a queue", &c, &a0))
		return;
	c.dma_engines = 1;
	if (!run("shring 1:2, one engine", &c, &a1))
		return;
	EXPECT(l0.gbps > 1.5 * l1.gbps && l0.gbps >= 0.8 * a0.gbps,
	       "RxList 1:2: %.1f Gbps with an engine a queue, %.1f with one; RxArr %.1f",
	       l0.gbps, l1.gbps, a0.gbps);
	EXPECT(fabs(a0.gbps - a1.gbps) <= 0.03 * a1.gbps,
	       "RxArr 1:2: %.1f and %.1f Gbps", a0.gbps, a1.gbps);
	c.dma_engines = 0;
	c.share = 8;
	set_model(&c, "shring-list");
	if (!run("shring-list 1:8, one a queue", &c, &l8))
		return;
	EXPECT(l8.gbps < 0.4 * a0.gbps && l8.desc_wait_us * 1e3 > c.pcie_rd_ns,
	       "one ring a port: %.1f Gbps, waits %.3f us", l8.gbps,
	       l8.desc_wait_us);
}

/*
 * Memory bandwidth limits the cores' reads (their latency rises with the
 * bandwidth in use) and, once saturated, the NIC's writes.
 */
static void mem_bandwidth(void)
{
	static const char *const v[] = { "200", "60", "40", "25" };
	struct sim_cfg c = base();
	struct sim_res r[4];

	c.ring = 64;
	c.ddio_ways = 0;	/* every packet to DRAM and back */
	c.touch_lines = 2;
	c.packets = 200000;
	c.warmup = 0;
	if (!sweep_down(c, "mem-gbs", v, 4, r))
		return;
	EXPECT(r[3].drop_pct > r[1].drop_pct + 20,
	       "25 GB/s: the cores' misses wait and the rings overflow: %.1f %%",
	       r[3].drop_pct);
	EXPECT(r[3].mem_gbs < 25 * 1.01, "DRAM stays under its bandwidth: %.1f",
	       r[3].mem_gbs);
	EXPECT(r[1].lat_p50_us >= r[0].lat_p50_us && r[3].lat_p50_us > r[1].lat_p50_us,
	       "latency rises towards saturation");
}

/*
 * The ring-model code costs core time (the shim's sink): at low load a
 * shared ring's lock, bitmap atomics and the transfers of its lines
 * between the sharing cores cost more per packet than a private ring's
 * code (thesis section 5.4: +34 % cycles at low load).  Direction only.
 */
static void sync_cost(void)
{
	struct sim_cfg c = base();
	struct sim_res priv, sh, off;

	if (!has_model("shring")) {
		skip("shring model not registered");
		return;
	}
	c.load = 0.1;
	c.packets = 100000;
	c.warmup = 0.2;
	if (!run("privring, low load", &c, &priv))
		return;
	set_model(&c, "shring");
	if (!run("shring 1024/8, low load", &c, &sh))
		return;
	diag("model cycles/packet: privring %.1f shring %.1f", priv.model_cyc_pkt,
	     sh.model_cyc_pkt);
	diag("shring per packet: %.2f transfers, %.2f atomics, %.2f locks",
	     sh.xfer_pkt, sh.rmw_pkt, sh.lock_pkt);
	EXPECT(sh.model_cyc_pkt > priv.model_cyc_pkt,
	       "shring's code costs more per packet: %.1f vs %.1f",
	       sh.model_cyc_pkt, priv.model_cyc_pkt);
	EXPECT(sh.xfer_pkt > priv.xfer_pkt && sh.lock_pkt > 0,
	       "a shared ring moves lines between cores and takes a lock");
	EXPECT(sh.util > priv.util, "and so keeps its cores busier: %.1f%% vs %.1f%%",
	       100 * sh.util, 100 * priv.util);
	/*
	 * --buf-xfer: a buffer's metadata line moves when the core that
	 * receives a packet in it is not the one that posted it (and back
	 * when the poster allocates it again): never for privRing's own
	 * buffers, 2 x 7/8 a packet for a ring eight cores share (RSS
	 * spreads the flows); without it the model code costs less.
	 */
	diag("buffer metadata transfers a packet: privring %.2f, shring %.2f",
	     priv.buf_xfer_pkt, sh.buf_xfer_pkt);
	EXPECT(priv.buf_xfer_pkt == 0, "privRing's buffers stay on their core");
	EXPECT(sh.buf_xfer_pkt > 1.5 && sh.buf_xfer_pkt < 2,
	       "shRing 1:8: %.2f buffer transfers a packet, about 2 x 7/8",
	       sh.buf_xfer_pkt);
	c.buf_xfer = false;
	if (!run("shring, --buf-xfer 0", &c, &off))
		return;
	EXPECT(off.buf_xfer_pkt == 0 && off.model_cyc_pkt < sh.model_cyc_pkt,
	       "--buf-xfer 0: no buffer transfers, %.1f model cycles against %.1f",
	       off.model_cyc_pkt, sh.model_cyc_pkt);
	c.buf_xfer = true;
	c.sync_cost = false;
	if (!run("shring, --sync-cost 0", &c, &off))
		return;
	EXPECT(off.model_cyc_pkt == 0 && off.xfer_pkt == 0 && off.buf_xfer_pkt == 0,
	       "--sync-cost 0: nothing counted");
	EXPECT(!rxb_shim_sink, "the sink is uninstalled after a run");
}

/* ---- the memory system and the NIC's reads ------------------------- */

/*
 * The loaded DRAM latency is the least-squares fit to an Intel MLC run on
 * a Xeon Silver 4110 (12 DDR4-2400 channels, 230.4 GB/s): the defaults,
 * 83 ns and a rise of 0.40, are within 6 % of every point measured.
 */
static void mem_curve_mlc(void)
{
	static const double mbs[] = {
		1237.6, 1785.2, 2583.5, 3354.4, 4383.3, 6068.3, 7680.3, 9723.8,
		13463.5, 18355.0, 22580.9, 29473.3, 42695.4, 68357.8, 131282.0,
		135267.3, 135599.5, 135655.9,
	};
	static const double ns[] = {
		81.96, 83.00, 84.20, 84.99, 85.56, 86.54, 87.24, 87.81, 88.79,
		90.16, 90.85, 92.29, 94.56, 98.94, 123.71, 129.67, 130.37, 130.31,
	};
	struct sim_cfg c = base();
	double worst = 0, prev = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mbs); i++) {
		double f = sim_mem_factor(mbs[i] / 230400, c.mem_load);
		double e = fabs(c.dram_ns * f / ns[i] - 1);

		worst = e > worst ? e : worst;
		EXPECT(f >= prev, "the latency never falls as the bandwidth rises");
		prev = f;
	}
	diag("MLC fit: %.0f ns, rise %.2f: worst error %.1f %%", c.dram_ns, c.mem_load,
	     100 * worst);
	EXPECT(worst < 0.06, "worst error %.1f %%", 100 * worst);
	EXPECT(sim_mem_factor(0.999, 0.4) == sim_mem_factor(0.99, 0.4),
	       "capped at u = 0.99");
	EXPECT(sim_mem_factor(0.5, 0) == 1 && sim_mem_factor(0, 0.4) == 1);
}

/*
 * A DMA read request of n lines that missed waits for the last of them:
 * (1 - k) + k H(n) / (1 - u) of --dram-ns (sim_mem_max_factor()).  One line
 * is the MLC curve; the harmonic numbers are exact; the factor grows with
 * n and u, and is capped as the curve is.
 */
#define TINY	(1.0 / (1 << 30) / (1 << 10))	/* about 1e-12 */

static void mem_max_lines(void)
{
	static const double u[] = { 0, 0.3, 0.79, 0.95 };
	double k = 0.4, h8 = 761.0 / 280, prev;
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(u); i++) {
		EXPECT(fabs(sim_mem_max_factor(u[i], k, 1) - sim_mem_factor(u[i], k)) < TINY,
		       "u %.2f: one line is the MLC curve", u[i]);
		prev = 0;
		for (n = 1; n <= 8; n++) {
			double f = sim_mem_max_factor(u[i], k, n);

			EXPECT(f > prev, "u %.2f: the last of %u lines comes later", u[i], n);
			prev = f;
		}
	}
	EXPECT(fabs(sim_mem_max_factor(0, k, 2) - (0.6 + 0.4 * 1.5)) < TINY, "H(2) = 3/2");
	EXPECT(fabs(sim_mem_max_factor(0.5, k, 8) - (0.6 + 0.4 * h8 / 0.5)) < TINY,
	       "H(8) = 761/280, u 0.5");
	EXPECT(sim_mem_max_factor(0.999, k, 8) == sim_mem_max_factor(0.99, k, 8),
	       "capped at u = 0.99");
	EXPECT(sim_mem_max_factor(0.9, 0, 8) == 1, "no rise, no spread: --mem-load 0");
	EXPECT(sim_mem_max_factor(0.5, k, 0) == 0, "no line missed, no DRAM time");
	EXPECT(sim_mem_max_factor(0.5, k, 8) > sim_mem_max_factor(0.3, k, 8),
	       "and with the load");
}

/*
 * The Tx path (--tx with the PCIe model): with one read tag a port the
 * NIC's Tx engine is the bottleneck: its ring fills, the cores wait
 * (FastClick's BLOCKING) or, with --tx-block 0, drop; reads wait for the
 * tag.  With the default 32 nothing waits.  Packets add up either way.
 */
static void tx_path(void)
{
	static const char *const what[] = { "32 tags", "1 tag", "1 tag, no block",
					    "no Tx" };
	struct sim_res r[4];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct sim_cfg c = base();

		c.ports = 1;
		c.cores = 4;
		c.packets = 60000;
		c.load = 0.5;
		c.cycles = 300;
		if (i == 1 || i == 2)
			c.pcie_reads = 1;
		if (i == 2)
			c.tx_block = false;
		if (i == 3)
			c.tx = false;
		if (!run(what[i], &c, &r[i]))
			return;
		diag("%s: Tx ring %.1f%%, blocked %.1f%%, drops %llu, read %.2f us, tag %.3f us",
		     what[i], r[i].tx_occ_pct, r[i].tx_block_pct,
		     (unsigned long long)r[i].tx_drop, r[i].pcie_rd_us, r[i].rd_wait_us);
		EXPECT(!r[i].warn, "%s: %s", what[i], sim_warn_str(r[i].warn));
	}
	EXPECT(r[0].drop_pct == 0 && r[0].tx_occ_pct < 5 && r[0].tx_block_pct == 0,
	       "32 tags: the Tx path keeps up");
	EXPECT(r[1].gbps < 0.5 * r[0].gbps, "1 tag: %.1f Gbps, 32: %.1f",
	       r[1].gbps, r[0].gbps);
	EXPECT(r[1].tx_occ_pct > 50 && r[1].tx_block_pct > 20,
	       "1 tag: the Tx ring fills and the cores wait");
	EXPECT(r[1].rd_wait_us > r[0].rd_wait_us, "1 tag: reads wait for it");
	EXPECT(r[1].lat_p50_us > 10 * r[0].lat_p50_us,
	       "the latency ends on the wire: %.1f us against %.1f",
	       r[1].lat_p50_us, r[0].lat_p50_us);
	EXPECT(r[2].tx_drop > 0 && r[2].tx_block_pct == 0,
	       "--tx-block 0: dropped, never blocked");
	EXPECT(r[3].tx_occ_pct == 0 && r[3].pcie_rd_us == 0,
	       "no Tx: no Tx ring, no Tx read");
}

/*
 * The DMA side of the memory system (issue 33): privRing with a working
 * set beyond the DDIO ways collapses with header-only reads; its NIC's Tx
 * reads miss and see the loaded DRAM latency, the DMA writes miss, the
 * rings stay full; the small ring at the same load does none of it.  A
 * flat DRAM latency (--mem-load 0) shortens those reads.
 */
static void dma_loaded(void)
{
	struct sim_res big, small, flat;
	struct sim_cfg c = base();

	c.packets = 200000;
	/* The calibration's LB (predict.py): two buckets of a flow table. */
	c.app_accesses = 2;
	c.app_mem = 640 << 20;
	if (!run("LB privRing 1 Ki", &c, &big))
		return;
	c.ring = 128;
	if (!run("LB privRing 128", &c, &small))
		return;
	c.ring = 1024;
	c.mem_load = 0;
	if (!run("LB privRing 1 Ki, flat DRAM", &c, &flat))
		return;
	diag("Tx read %.2f / %.2f / %.2f us, DDIO misses %.0f %%, occupancy %.0f %%",
	     big.pcie_rd_us, small.pcie_rd_us, flat.pcie_rd_us, 100 - 100 * big.ddio_hit,
	     big.occ_pct);
	EXPECT(c.touch_lines == 1, "the default NF reads the headers only");
	EXPECT(big.gbps < 0.9 * small.gbps, "privRing 1 Ki collapses: %.1f against %.1f",
	       big.gbps, small.gbps);
	EXPECT(big.pcie_rd_us > small.pcie_rd_us + 0.1,
	       "its Tx reads go to loaded DRAM: %.2f against %.2f us",
	       big.pcie_rd_us, small.pcie_rd_us);
	EXPECT(flat.pcie_rd_us < big.pcie_rd_us, "less so without the loaded rise");
	EXPECT(big.ddio_hit < 0.15 && big.occ_pct > 60,
	       "DDIO writes miss, the rings stay full");
	EXPECT(small.drop_pct < 2 && small.occ_pct < 30, "the small ring keeps up");
}

/*
 * The application's data starts as a long-running NF's is (app_prefill()):
 * a table that fits in the LLC hits from the first packet, one larger than
 * it hits in about the share the LLC holds, however short the run.
 * Without the prefill, 20 000 packets of two reads each touch 40 000 of
 * the 4 MiB table's 65 536 lines: more than half of them miss cold.
 */
static void app_warm(void)
{
	struct sim_res fit, big;
	struct sim_cfg c = base();

	c.packets = 20000;
	c.load = 0.1;
	c.app_accesses = 2;
	c.app_mem = 4 << 20;
	if (!run("4 MiB table", &c, &fit))
		return;
	c.app_mem = 88 << 20;
	if (!run("88 MiB table", &c, &big))
		return;
	diag("application hits %.1f %% (4 MiB), %.1f %% (88 MiB, LLC %u MiB)",
	     100 * fit.app_hit, 100 * big.app_hit, (unsigned int)(c.llc_bytes >> 20));
	EXPECT(fit.app_hit > 0.99, "a table in the LLC hits: %.3f", fit.app_hit);
	/* 22 MiB of 88: a quarter at most, less the ways the I/O takes. */
	EXPECT(big.app_hit > 0.15 && big.app_hit < 0.26,
	       "a table 4x the LLC hits in the share it holds: %.3f", big.app_hit);
}

/*
 * Several descriptor reads in flight a ring (--desc-reads): a lone queue
 * of 64 B frames is capped near --desc-batch descriptors a read latency
 * with one read, not with the default 8.
 */
static void desc_reads(void)
{
	static const unsigned int reads[] = { 1, 8 };
	struct sim_res r[2];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct sim_cfg c = base();
		char what[32];

		c.ports = 1;
		c.cores = 1;
		c.pkt_size = 64;
		c.link_gbps = 40;
		c.cycles = 10;
		c.app_accesses = 0;
		c.tx = false;
		c.packets = 100000;
		c.desc_reads = reads[i];
		snprintf(what, sizeof(what), "--desc-reads %u", reads[i]);
		if (!run(what, &c, &r[i]))
			return;
		diag("%s: %.1f Mpps, %.2f %% of frames wait for a descriptor", what,
		     r[i].mpps, 100.0 * r[i].desc_waits / (r[i].delivered + 1));
	}
	EXPECT(r[0].mpps < 8 / 0.5 * 1.1, "one read: %.1f Mpps, at most 8 / 0.5 us",
	       r[0].mpps);
	EXPECT(r[1].mpps > 1.5 * r[0].mpps, "eight: %.1f Mpps", r[1].mpps);
}

/*
 * Which queues share a descriptor stream (models.c probes a throw-away
 * instance): privRing's and rxBisect's queues each have their own ring,
 * shRing's share one per group, COREC's consumers all one.  A shared
 * ring's cache is one: shRing 1:8 reads as many descriptors a read as
 * privRing.
 */
static void desc_streams(void)
{
	static const struct { const char *model; unsigned int share, groups; } t[] = {
		{ "privring", 1, 8 }, { "rxbisect", 1, 8 }, { "shring", 4, 2 },
		{ "shring-list", 8, 1 }, { "corec", 1, 1 },
	};
	unsigned int i, q;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct sim_cfg c = base();
		struct rxb_model_cfg mc;
		const struct rxb_model_ops *ops = rxb_model_find(t[i].model);
		u8 st[RXB_MAX_MODEL_QUEUES], max = 0;
		int err;

		if (!ops)
			continue;
		set_model(&c, t[i].model);
		c.share = t[i].share;
		sim_model_cfg(&c, &mc);
		err = sim_model_streams(ops, &mc, st);
		EXPECT(!err, "%s: probe failed: %d", t[i].model, err);
		for (q = 0; q < mc.nqueues; q++) {
			max = st[q] > max ? st[q] : max;
			/* Groups of consecutive queues. */
			if (q)
				EXPECT(st[q] == st[q - 1] || st[q] == st[q - 1] + 1,
				       "%s: queue %u in stream %u after %u", t[i].model, q,
				       st[q], st[q - 1]);
		}
		EXPECT(max + 1u == t[i].groups, "%s: %u streams, want %u", t[i].model,
		       max + 1, t[i].groups);
	}
	{
		struct sim_cfg c = base();
		struct sim_res p, sh;

		c.packets = 60000;
		c.load = 0.5;
		if (!run("privring", &c, &p))
			return;
		set_model(&c, "shring");
		if (!run("shring 1:8", &c, &sh))
			return;
		EXPECT(fabs((double)sh.desc_reads / sh.delivered -
			    (double)p.desc_reads / p.delivered) < 0.03,
		       "reads a packet: shRing %.3f, privRing %.3f",
		       (double)sh.desc_reads / sh.delivered,
		       (double)p.desc_reads / p.delivered);
	}
}

/*
 * Contended lines (--contention): COREC's consumers of one queue (on its
 * XL710, which takes 37.7 Mpps) take its claim index, done bits and tail
 * lock in turn; with more consumers each poll finds fewer packets, the
 * lines move more often a packet and the consumers wait for each other's
 * transfers: each core's share falls.  Without the serialisation they
 * wait for nothing.
 */
static void contention(void)
{
	static const unsigned int n[] = { 1, 2, 4 };
	struct sim_res r[3], off;
	unsigned int i;
	struct sim_cfg c;

	if (!has_model("corec")) {
		skip("corec model not registered");
		return;
	}
	c = base();
	set_model(&c, "corec");
	c.ports = 1;
	c.link_gbps = 40;
	c.pkt_size = 64;
	c.cycles = 128;
	c.app_accesses = 0;
	c.nic_mpps = 37.7;	/* the XL710's, COREC section 5 */
	c.packets = 150000;
	c.quiet = true;
	/* The model state's lines alone (buffers: test sync_cost). */
	c.buf_xfer = false;
	for (i = 0; i < 3; i++) {
		char what[32];

		c.cores = n[i];
		snprintf(what, sizeof(what), "corec %u consumers", n[i]);
		if (!run(what, &c, &r[i]))
			return;
		diag("%u cores: %.2f Mpps, %.2f a core; a packet: %.2f transfers, %.2f ns waits",
		     n[i], r[i].mpps, r[i].mpps / n[i], r[i].xfer_pkt, r[i].xwait_ns_pkt);
	}
	c.contention = false;
	if (!run("corec 4, lines uncontended", &c, &off))
		return;
	EXPECT(r[1].mpps / 2 < r[0].mpps && r[2].mpps / 4 < 0.9 * r[1].mpps / 2,
	       "a core's share falls with consumers");
	EXPECT(r[2].xfer_pkt > r[1].xfer_pkt && r[1].xfer_pkt > r[0].xfer_pkt,
	       "more sharers, more transfers a packet: %.2f, %.2f, %.2f", r[0].xfer_pkt,
	       r[1].xfer_pkt, r[2].xfer_pkt);
	EXPECT(r[2].xwait_ns_pkt > 2 * r[1].xwait_ns_pkt && r[0].xwait_ns_pkt == 0,
	       "waits grow with consumers: %.2f, %.2f, %.2f ns", r[0].xwait_ns_pkt,
	       r[1].xwait_ns_pkt, r[2].xwait_ns_pkt);
	EXPECT(off.xwait_ns_pkt == 0 && off.mpps >= 0.995 * r[2].mpps,
	       "no serialisation: %.2f Mpps", off.mpps);
}

/* --nic-mpps: the NIC's pipeline takes frames no faster. */
static void nic_mpps(void)
{
	struct sim_cfg c = base();
	struct sim_res r;

	c.ports = 1;
	c.cores = 8;
	c.pkt_size = 64;
	c.cycles = 50;
	c.app_accesses = 0;
	c.packets = 100000;
	c.nic_mpps = 10;
	if (!run("NIC at 10 Mpps", &c, &r))
		return;
	EXPECT(r.mpps <= 10.05 && r.mpps > 9 && r.nic_drop > 0,
	       "%.2f Mpps, %llu NIC drops", r.mpps, (unsigned long long)r.nic_drop);
}

/*
 * What share of the NIC's reads are descriptors (Ensō section 2: 39 % for
 * an E810 with 64 B echo), against an Ensō pipe's notifications.
 */
static void meta_share(void)
{
	struct sim_cfg c = base();
	struct sim_res p, e;

	c.ports = 1;
	c.cores = 1;
	c.pkt_size = 64;
	c.cycles = 52;
	c.app_accesses = 0;
	c.packets = 60000;
	if (!run("privring 64 B", &c, &p))
		return;
	EXPECT(p.meta_pct > 20 && p.meta_pct < 45, "descriptors %.1f %%", p.meta_pct);
	if (!has_model("enso"))
		return;
	set_model(&c, "enso");
	if (!run("enso 64 B", &c, &e))
		return;
	EXPECT(e.meta_pct < 3, "notifications %.1f %%", e.meta_pct);
}

/*
 * Packets back to back in a pipe are one ascending stream the L2 streamer
 * follows: the core's read of a packet's first line is overlapped as a
 * packet's later lines are (Ensō Table 1: 0.2 % L1d misses against the
 * E810's 6 %); scattered buffers pay the LLC's latency each.
 */
static void stream_prefetch(void)
{
	struct sim_cfg c = base();
	struct sim_res p, e;

	c.ports = 1;
	c.cores = 1;
	c.pkt_size = 64;
	c.ghz = 3.1;
	c.cycles = 52;
	c.app_accesses = 0;
	c.packets = 60000;
	if (!has_model("enso")) {
		skip("enso model not registered");
		return;
	}
	if (!run("privring 64 B", &c, &p))
		return;
	set_model(&c, "enso");
	if (!run("enso 64 B", &c, &e))
		return;
	diag("cycles a packet: privring %.1f, enso %.1f", p.cyc_pkt, e.cyc_pkt);
	/* an LLC read is 62 cycles at 3.1 GHz; overlapped 8 times, 8 */
	EXPECT(e.cyc_pkt < p.cyc_pkt - 30, "enso %.1f, privring %.1f cycles",
	       e.cyc_pkt, p.cyc_pkt);
}

/*
 * Ensō's TX notification gives the NIC a range of the pipe: packets back
 * to back share its 512 B read requests, so 64 B echo is not held to one
 * request a packet (32 read tags over a 500 ns read: 64 Mpps).
 */
static void enso_tx_reads(void)
{
	struct sim_cfg c = base();
	struct sim_res e;

	if (!has_model("enso")) {
		skip("enso model not registered");
		return;
	}
	c.ports = 1;
	c.cores = 1;
	c.pkt_size = 64;
	c.ghz = 3.1;
	c.cycles = 10;
	c.app_accesses = 0;
	c.packets = 100000;
	set_model(&c, "enso");
	if (!run("enso 64 B echo", &c, &e))
		return;
	EXPECT(e.mpps > 66, "%.1f Mpps: capped by one read request a packet",
	       e.mpps);
}

/* ---- runner -------------------------------------------------------- */

struct tcase {
	const char *name;
	void (*fn)(void);
};

static const struct tcase cases[] = {
	{ "unit_llc", test_llc },
	{ "unit_fifo_stack", test_fifo_stack },
	{ "unit_toeplitz", test_toeplitz },
	{ "unit_arrivals", test_arrivals },
	{ "unit_rss", test_rss_spread },
	{ "unit_trace", test_trace },
	{ "unit_opts", test_opts },
	{ "models", test_models },
	{ "core_busy", core_busy },
	{ "run_warn", run_warn },
	{ "unit_mem_curve", mem_curve_mlc },
	{ "unit_mem_max_lines", mem_max_lines },
	{ "tx_path", tx_path },
	{ "dma_loaded", dma_loaded },
	{ "app_warm", app_warm },
	{ "desc_reads", desc_reads },
	{ "desc_streams", desc_streams },
	{ "contention", contention },
	{ "nic_mpps", nic_mpps },
	{ "meta_share", meta_share },
	{ "enso_stream", enso_stream },
	{ "stream_prefetch", stream_prefetch },
	{ "enso_tx_reads", enso_tx_reads },
	{ "ceio_llc", ceio_llc },
	{ "ceio_burst", ceio_burst },
	{ "ceio_slow", ceio_slow },
	{ "mmio_reads", mmio_reads },
	{ "two_halves", two_halves },
	{ "nicmem_split_headers", nicmem_split_headers },
	{ "nicmem_split_socket", nicmem_split_socket },
	{ "nicmem_split_tiny", nicmem_split_tiny },
	{ "nicmem_split_models", nicmem_split_models },
	{ "ddio_monotonic", ddio_monotonic },
	{ "ddio_off", ddio_off },
	{ "access_patterns", access_patterns },
	{ "pcie_link", pcie_link },
	{ "pcie_reads", pcie_reads },
	{ "pcie_descriptors", pcie_descriptors },
	{ "start_stall", start_stall },
	{ "refill_park", refill_park },
	{ "pcie_notifications", pcie_notifications },
	{ "desc_prefetch", desc_prefetch },
	{ "desc_list_rd_ns", desc_list_rd_ns },
	{ "desc_array_as_list", desc_array_as_list },
	{ "wb_batch", wb_batch },
	{ "dma_engines", dma_engines },
	{ "mem_bandwidth", mem_bandwidth },
	{ "sync_cost", sync_cost },
	{ "exp1_privring_ring_size", exp1_privring_ring_size },
	{ "exp1_rxbisect_bx_size", exp1_rxbisect_bx_size },
	{ "exp2_queueing", exp2_queueing },
	{ "exp3_burst", exp3_burst },
	{ "exp4_hol", exp4_hol },
	{ "exp7_dshring", exp7_dshring },
	{ "exp8_pool", exp8_pool },
	{ "models_multi_pkt", models_multi_pkt },
	{ "models_multi_pkt_leak", models_multi_pkt_leak },
	{ "batched_wss", batched_wss },
	{ "batched_hol", batched_hol },
};

/*
 * SIM_SHARD=K/N runs every N-th case from the K-th (of those SIM_TEST
 * selects): run_check.sh runs the shards of the plain build side by side.
 */
static bool in_shard(unsigned int i)
{
	const char *sh = getenv("SIM_SHARD");
	unsigned int k, n;

	if (!sh || sscanf(sh, "%u/%u", &k, &n) != 2 || !n || k >= n)
		return true;
	return i % n == k;
}

int main(void)
{
	const char *filter = getenv("SIM_TEST");
	unsigned int i, n = 0, pass = 0, fail = 0, nskip = 0;
	struct timespec t0, t1, c0, c1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if ((!filter || strstr(cases[i].name, filter)) && in_shard(i))
			n++;
	printf("KTAP version 1\n1..%u\n", n);
	n = 0;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		long allocs = rxb_shim_live_allocs;

		if ((filter && !strstr(cases[i].name, filter)) || !in_shard(i))
			continue;
		t_fail = 0;
		t_skip = NULL;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		cases[i].fn();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		if (rxb_shim_live_allocs != allocs)
			EXPECT(0, "%ld model allocations leaked",
			       rxb_shim_live_allocs - allocs);
		diag("%s: %.1f s (%.1f s CPU)", cases[i].name, (t1.tv_sec - t0.tv_sec) +
		     (t1.tv_nsec - t0.tv_nsec) / 1e9, (c1.tv_sec - c0.tv_sec) +
		     (c1.tv_nsec - c0.tv_nsec) / 1e9);
		n++;
		if (t_fail) {
			printf("not ok %u %s\n", n, cases[i].name);
			fail++;
		} else if (t_skip) {
			printf("ok %u %s # SKIP %s\n", n, cases[i].name, t_skip);
			nskip++;
		} else {
			printf("ok %u %s\n", n, cases[i].name);
			pass++;
		}
	}
	printf("# Totals: pass:%u fail:%u skip:%u\n", pass, fail, nskip);
	return fail ? 1 : 0;
}
