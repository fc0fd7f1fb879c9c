// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the option layer of rxbisect-sim (opts.c): random
 * option values through opt_apply(), then sim_cfg_check().  Whatever the
 * check passes must be a configuration the simulation can take: finite
 * values in their ranges, bounded allocations, live-only --change entries.
 * A violation aborts (a crash for libFuzzer), as does any ASan/UBSan
 * report.
 *
 * Input: items separated by NUL bytes; an item's first byte picks the
 * option (modulo their number, or --no-OPT for bools when its top bit is
 * set), the rest is the value: text, or, after '#', '%' or '^', up to 8
 * raw bytes printed as an integer, a double or a power of two plus a
 * small offset (so that mutations reach every magnitude).
 *
 * Built with clang -fsanitize=fuzzer (make check runs it for a few
 * seconds; see run_check.sh).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>
#include <rxbisect/rxb_drv_model.h>

#include "opts.h"
#include "sim.h"

#define MAX_ITEMS	16

static void must(bool cond, const char *what, const struct sim_cfg *c)
{
	if (cond)
		return;
	fprintf(stderr, "fuzz_opts: sim_cfg_check() passed %s (model %s)\n", what,
		c->model);
	abort();
}

/* What sim.c and traffic.c rely on once sim_cfg_check() said yes. */
static void invariants(const struct sim_cfg *c)
{
	unsigned int i;
	char buf[128];

	must(c->cores >= 1 && c->cores <= SIM_MAX_CORES && c->ports >= 1 &&
	     c->ports <= SIM_MAX_PORTS && !(c->cores % c->ports), "cores/ports", c);
	must(c->load > 0 && c->load <= 1 && isfinite(c->link_gbps) &&
	     c->link_gbps > 0, "load", c);
	must(c->warmup >= 0 && c->warmup < 1 && c->packets >= 1 &&
	     c->packets <= 10000000000ULL, "warmup/packets", c);
	must(c->budget >= 1 && c->budget <= SIM_MAX_BUDGET, "budget", c);
	must(c->flows <= BIT(20) && c->wss_window >= 2 &&
	     c->wss_window <= BIT(22) &&
	     !(c->wss_window & (c->wss_window - 1)), "flows/wss-window", c);
	must(c->llc_bytes <= BIT_ULL(30) && c->llc_ways >= 1 &&
	     c->llc_ways <= 64 && c->ddio_ways <= c->llc_ways, "LLC", c);
	/* sim.c divides by these when they are not 0 (0: model off). */
	must(c->pcie_gbps >= 0 && isfinite(c->pcie_gbps) && c->pcie_rd_ns >= 0 &&
	     isfinite(c->pcie_rd_ns) && c->pcie_reads >= 1 &&
	     c->nic_buf >= 2048, "PCIe/NIC buffer", c);
	/* desc_read() reads at least one descriptor, into room it has. */
	must(c->desc_batch >= 1 && c->desc_batch <= SIM_DESC_BATCH_MAX &&
	     c->desc_batch <= c->desc_cache &&
	     c->desc_thresh + c->desc_batch - 1 <= c->desc_cache,
	     "descriptor cache", c);
	/* wb_complete() holds at most a TLP; eng_free[] has a slot a queue. */
	must(c->wb_batch >= 1 && c->wb_batch <= SIM_WB_BATCH_MAX &&
	     c->dma_engines <= RXB_MAX_MODEL_QUEUES, "write-back/DMA engines", c);
	must(c->ghz > 0 && isfinite(c->ghz) && c->mlp >= 1 && isfinite(c->mlp) &&
	     c->llc_ns >= 0 && isfinite(c->llc_ns) && c->dram_ns >= 0 &&
	     isfinite(c->dram_ns) && c->irq_us >= 0 && isfinite(c->irq_us) &&
	     c->hold_us >= 0 && isfinite(c->hold_us) && c->refill_retry_us > 0 &&
	     isfinite(c->refill_retry_us) && c->mem_gbs >= 0 &&
	     isfinite(c->mem_gbs) && c->mem_load >= 0 && isfinite(c->mem_load),
	     "a time, latency or rate", c);
	must(c->pkt_size >= 64 && c->pkt_size + c->headroom <= c->buf_stride &&
	     c->buf_stride <= 65536, "packet/buffer sizes", c);
	must(c->target < (int)(c->cores / c->ports) && c->target >= -1 &&
	     c->target_share >= 0 && c->target_share <= 1, "target", c);
	/* The tier and ceio (sim.c sizes the tier, ceio its slow rings). */
	must(c->nicmem <= BIT_ULL(30) && c->ceio_budget <= BIT_ULL(30) &&
	     isfinite(c->nicmem_fetch_ns) && c->nicmem_fetch_ns >= 0 &&
	     c->nicmem_fetch_ns <= 1e5 && c->ceio_fetch <= CEIO_FETCH_ASYNC,
	     "tier/ceio values", c);
	if (!strcmp(c->model, "ceio")) {
		u64 budget = c->ceio_budget ? c->ceio_budget :
			     c->llc_bytes / c->llc_ways * c->ddio_ways;

		must(c->ceio_force_slow ? c->nicmem > 0 :
		     budget / c->ports >= c->buf_stride - c->headroom,
		     "ceio: a credit per port, or a tier for the slow path", c);
		must((u64)c->ring * c->cores <= BIT(18), "ceio: slow ring entries", c);
	}
	must(c->nchange <= SIM_MAX_CHANGES, "nchange", c);
	for (i = 0; i < c->nchange; i++)
		must(c->change[i].at >= 0 && c->change[i].at <= 1 &&
		     (!i || c->change[i].at >= c->change[i - 1].at), "change order", c);
	for (i = 0; i < opt_count(); i++) {
		int has;

		opt_value(c, opt_name(i, &has), buf, sizeof(buf));
	}
}

/* libFuzzer's entry point; its name comes from the Makefile. */
/* The value of an item: text, or a number made from raw bytes. */
static const char *item_value(const char *v, size_t len, char *buf, size_t blen)
{
	unsigned char raw[8] = { 0 };
	double d;
	u64 u;

	if (!len || (*v != '#' && *v != '%' && *v != '^'))
		return v;
	memcpy(raw, v + 1, len - 1 < sizeof(raw) ? len - 1 : sizeof(raw));
	memcpy(&u, raw, sizeof(u));
	memcpy(&d, raw, sizeof(d));
	if (*v == '#')
		snprintf(buf, blen, "%llu", (unsigned long long)u);
	else if (*v == '%')
		snprintf(buf, blen, "%.17g", d);
	else
		snprintf(buf, blen, "%.0f", ldexp(1, raw[0] % 70) + (int8_t)raw[1]);
	return buf;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *p, *end;
	unsigned int n = 0, nopt = opt_count();
	struct sim_cfg c;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	sim_cfg_default(&c);
	for (p = buf, end = buf + size; p < end && n < MAX_ITEMS; n++) {
		size_t len = strlen(p);
		unsigned char sel = *p;
		int has;

		if (len) {
			const char *name = opt_name(sel % nopt, &has);
			char no[64], num[64];

			if ((sel & 0x80) && has == 2) {
				snprintf(no, sizeof(no), "no-%s", name);
				opt_apply(&c, no, NULL);
			} else {
				opt_apply(&c, name, item_value(p + 1, len - 1, num,
							       sizeof(num)));
			}
		}
		p += len + 1;
	}
	if (sim_cfg_check(&c, NULL))
		invariants(&c);
	free(buf);
	return 0;
}
