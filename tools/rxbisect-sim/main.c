// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect-sim command line: one run, or a sweep of one option (optionally
 * times a series of another), printed as a table or CSV and plotted with
 * gnuplot.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rxbisect/rxb_model.h>

#include "sim.h"

#define MAX_VALS	64
#define MAX_PLOT_Y	8

enum {
	OPT_HELP = 'h', OPT_CSV = 1000, OPT_SWEEP, OPT_SERIES, OPT_CASE,
	OPT_PLOT, OPT_PLOT_Y, OPT_PLOT_TITLE, OPT_BENCH, OPT_LIST, OPT_PERQ,
	OPT_COLUMNS, OPT_XSTATS, OPT_BASE = 2000
};

struct axis {
	char name[64];
	char *val[MAX_VALS];
	unsigned int n;
};

/* One line of a plot: a label and the options that make it. */
#define MAX_ASSIGN	8
struct series {
	char *label;
	char *opt[MAX_ASSIGN], *val[MAX_ASSIGN];
	unsigned int n;
};

static const char *const default_columns[] = {
	"gbps", "mpps", "drop_pct", "nobuf", "ring_full", "alloc_fails",
	"lat_p50_us", "lat_p99_us", "lat_p999_us", "occ", "ddio_hit",
	"cpu_hit", "mem_gbs", "wss_mib", "util", NULL,
};

static const char help_head[] =
	"usage: rxbisect-sim [OPTION]...\n"
	"Simulate a multi-queue NIC with the rxbisect ring models, an LLC with DDIO\n"
	"and the receiving cores; print throughput, drops, latency, ring occupancy,\n"
	"DDIO hit rate, memory bandwidth and I/O working set.\n\n"
	"Output and runs:\n"
	"  --csv                 CSV (every metric) instead of a table\n"
	"  --columns M,M,...     table columns (metric names: see below)\n"
	"  --per-queue           also print per-queue results\n"
	"  --xstats              also print the model's own counters (non-zero)\n"
	"  --sweep OPT=V,V,...   one run per value of option OPT\n"
	"  --series OPT=V,V,...  ... for each value of OPT (one plot line each)\n"
	"  --case LABEL:OPT=V[,OPT=V...]  ... and for this set of options\n"
	"                        (repeatable; one plot line each)\n"
	"  --plot FILE.png       plot the sweep with gnuplot\n"
	"  --plot-y M,M,...      metrics to plot, one panel each [gbps]\n"
	"  --plot-title TEXT     plot title\n"
	"  --bench               print packets simulated per second\n"
	"  --list-models         print the registered ring models\n"
	"  -h, --help            this help\n\n"
	"Model, traffic and host (defaults: the seeds' testbed):\n";

static void print_help(FILE *f)
{
	unsigned int i;

	fputs(help_head, f);
	opt_help(f);
	fprintf(f, "\nMetrics:\n");
	for (i = 0; i < sim_nmetrics; i++)
		fprintf(f, "  %-14s %s\n", sim_metrics[i].name, sim_metrics[i].help);
}

static int parse_axis(struct axis *a, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *vals, *tok, *save;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(a->name))
		return -EINVAL;
	memcpy(a->name, arg, eq - arg);
	a->name[eq - arg] = 0;
	vals = strdup(eq + 1);
	if (!vals)
		return -ENOMEM;
	a->n = 0;
	for (tok = strtok_r(vals, ",", &save); tok && a->n < MAX_VALS;
	     tok = strtok_r(NULL, ",", &save))
		a->val[a->n++] = strdup(tok);
	free(vals);
	return a->n ? 0 : -EINVAL;
}

static int parse_case(struct series *se, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *list, *tok, *save, *eq;

	if (!colon || colon == arg)
		return -EINVAL;
	se->label = strndup(arg, colon - arg);
	list = strdup(colon + 1);
	if (!se->label || !list)
		return -ENOMEM;
	se->n = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq || se->n == MAX_ASSIGN)
			return -EINVAL;
		*eq = 0;
		se->opt[se->n] = strdup(tok);
		se->val[se->n++] = strdup(eq + 1);
	}
	free(list);
	return se->n ? 0 : -EINVAL;
}

static int split_list(char *s, const char **out, unsigned int max)
{
	unsigned int n = 0;
	char *tok, *save;

	for (tok = strtok_r(s, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!sim_metric_find(tok)) {
			fprintf(stderr, "rxbisect-sim: no metric \"%s\" (see --help)\n", tok);
			return -EINVAL;
		}
		out[n++] = tok;
	}
	out[n] = NULL;
	return n;
}

static void print_header(const char *const *cols, const char *s1, const char *s2,
			 bool csv)
{
	unsigned int i;

	if (csv) {
		printf("model");
		if (s1)
			printf(",%s", s1);
		if (s2)
			printf(",%s", s2);
		for (i = 0; i < sim_nmetrics; i++)
			printf(",%s", sim_metrics[i].name);
		printf("\n");
		return;
	}
	printf("%-12s", "model");
	if (s1)
		printf(" %-20.20s", s1);
	if (s2)
		printf(" %12.12s", s2);
	for (i = 0; cols[i]; i++)
		printf(" %11.11s", cols[i]);
	printf("\n");
}

static void print_row(const struct sim_cfg *c, const struct sim_res *r,
		      const char *const *cols, const char *v1, const char *v2,
		      bool csv)
{
	unsigned int i;
	char buf[64];

	if (csv) {
		printf("%s", c->model);
		if (v1)
			printf(",%s", v1);
		if (v2)
			printf(",%s", v2);
		for (i = 0; i < sim_nmetrics; i++) {
			snprintf(buf, sizeof(buf), sim_metrics[i].fmt,
				 sim_metrics[i].get(r));
			printf(",%s", buf);
		}
		printf("\n");
		fflush(stdout);
		return;
	}
	printf("%-12s", c->model);
	if (v1)
		printf(" %-20.20s", v1);
	if (v2)
		printf(" %12.12s", v2);
	for (i = 0; cols[i]; i++) {
		const struct sim_metric *m = sim_metric_find(cols[i]);

		snprintf(buf, sizeof(buf), m->fmt, m->get(r));
		printf(" %11s", buf);
	}
	printf("\n");
	fflush(stdout);
}

static void print_queues(const struct sim_res *r)
{
	unsigned int i;

	printf("%5s %10s %10s %9s %9s %9s %8s %6s\n", "queue", "arrived",
	       "delivered", "nobuf", "ring_full", "allocfail", "occ", "util%");
	for (i = 0; i < r->nqueues; i++) {
		const struct sim_qres *q = &r->q[i];

		printf("%5u %10llu %10llu %9llu %9llu %9llu %8.1f %6.1f\n", i,
		       (unsigned long long)q->arrived,
		       (unsigned long long)q->delivered,
		       (unsigned long long)q->nobuf,
		       (unsigned long long)q->ring_full,
		       (unsigned long long)q->alloc_fails, q->occ_mean,
		       100 * q->util);
	}
}

static bool have_gnuplot(void)
{
	return !system("command -v gnuplot >/dev/null 2>&1");
}

static bool log2_axis(const struct axis *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		char *end;
		unsigned long v = strtoul(a->val[i], &end, 0);

		if (*end || v < 2 || (v & (v - 1)))
			return false;
	}
	return a->n > 2;
}

/* Plot @res[series][point] with gnuplot, one panel per metric in @ys. */
static int plot_sweep(const char *png, const char *title,
		      const struct axis *x, const struct series *ser,
		      unsigned int nser, struct sim_res *res,
		      const char *const *ys)
{
	unsigned int ny, i, s;
	FILE *g;

	if (!have_gnuplot()) {
		fputs("rxbisect-sim: gnuplot not found; to plot: apt-get install gnuplot-nox\n",
		      stderr);
		return -ENOENT;
	}
	for (ny = 0; ys[ny]; ny++)
		;
	g = popen("gnuplot", "w");
	if (!g)
		return -errno;
	fprintf(g, "set terminal pngcairo noenhanced size %u,%u font ',10'\n",
		640 * (ny > 1 ? 2 : 1), ny > 2 ? 340 * ((ny + 1) / 2) + 40 : 420);
	fprintf(g, "set output '%s'\n", png);
	for (s = 0; s < nser; s++) {
		fprintf(g, "$D%u << EOD\n", s);
		for (i = 0; i < x->n; i++) {
			const struct sim_res *r = &res[s * x->n + i];
			unsigned int k;

			if (isnan(r->gbps))
				continue;
			fprintf(g, "%s", x->val[i]);
			for (k = 0; k < ny; k++)
				fprintf(g, " %g", sim_metric_find(ys[k])->get(r));
			fprintf(g, "\n");
		}
		fprintf(g, "EOD\n");
	}
	fprintf(g, "set grid\n%s\n", nser > 1 ? "set key below" : "unset key");
	if (log2_axis(x))
		fprintf(g, "set logscale x 2\n");
	if (ny > 1)
		fprintf(g, "set multiplot layout %u,%u title '%s'\n", (ny + 1) / 2,
			2, title ? title : "");
	else if (title)
		fprintf(g, "set title '%s'\n", title);
	for (i = 0; i < ny; i++) {
		const struct sim_metric *m = sim_metric_find(ys[i]);

		fprintf(g, "set xlabel '%s'\nset ylabel '%s'\n", x->name, m->name);
		/* Latencies span orders of magnitude once rings fill. */
		if (!strncmp(m->name, "lat_", 4))
			fprintf(g, "set logscale y\nset yrange [*:*]\n");
		else
			fprintf(g, "unset logscale y\nset yrange [0:*]\n");
		fprintf(g, "plot ");
		for (s = 0; s < nser; s++)
			fprintf(g, "%s$D%u using 1:%u with linespoints lw 2 title '%s'",
				s ? ", " : "", s, i + 2, ser[s].label);
		fprintf(g, "\n");
	}
	if (ny > 1)
		fprintf(g, "unset multiplot\n");
	return pclose(g) ? -EIO : 0;
}

int main(int argc, char **argv)
{
	unsigned int nopt = opt_count(), i, s, k, nser, nres;
	struct option *lo = calloc(2 * nopt + 16, sizeof(*lo));
	const char *cols_buf[64], *ys[MAX_PLOT_Y + 1] = { "gbps", NULL };
	const char *const *cols = default_columns;
	struct axis sweep = { .n = 0 }, series = { .n = 0 };
	struct series ser[MAX_VALS];
	unsigned int ncase = 0;
	const char *ser_col = NULL;
	const char *png = NULL, *title = NULL;
	bool csv = false, bench = false, perq = false, xst = false, failed = false;
	struct sim_res *res;
	struct sim_cfg base;
	int o, n = 0, has, err = 0;

	if (!lo)
		return 1;
	sim_cfg_default(&base);
	for (i = 0; i < nopt; i++) {
		lo[n].name = opt_name(i, &has);
		lo[n].has_arg = has == 2 ? optional_argument : required_argument;
		lo[n++].val = OPT_BASE + i;
		if (has == 2) {
			char *no = malloc(strlen(lo[n - 1].name) + 4);

			if (!no)
				return 1;
			sprintf(no, "no-%s", lo[n - 1].name);
			lo[n].name = no;
			lo[n].has_arg = no_argument;
			lo[n++].val = OPT_BASE + nopt + i;
		}
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	lo[n++] = (struct option){ "csv", no_argument, NULL, OPT_CSV };
	lo[n++] = (struct option){ "sweep", required_argument, NULL, OPT_SWEEP };
	lo[n++] = (struct option){ "series", required_argument, NULL, OPT_SERIES };
	lo[n++] = (struct option){ "case", required_argument, NULL, OPT_CASE };
	lo[n++] = (struct option){ "plot", required_argument, NULL, OPT_PLOT };
	lo[n++] = (struct option){ "plot-y", required_argument, NULL, OPT_PLOT_Y };
	lo[n++] = (struct option){ "plot-title", required_argument, NULL, OPT_PLOT_TITLE };
	lo[n++] = (struct option){ "bench", no_argument, NULL, OPT_BENCH };
	lo[n++] = (struct option){ "list-models", no_argument, NULL, OPT_LIST };
	lo[n++] = (struct option){ "per-queue", no_argument, NULL, OPT_PERQ };
	lo[n++] = (struct option){ "columns", required_argument, NULL, OPT_COLUMNS };
	lo[n++] = (struct option){ "xstats", no_argument, NULL, OPT_XSTATS };

	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case OPT_HELP:
			print_help(stdout);
			return 0;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_SWEEP:
		case OPT_SERIES:
			if (parse_axis(o == OPT_SWEEP ? &sweep : &series, optarg)) {
				fprintf(stderr, "rxbisect-sim: want OPT=V,V,...: %s\n", optarg);
				return 2;
			}
			break;
		case OPT_CASE:
			if (ncase == MAX_VALS || parse_case(&ser[ncase++], optarg)) {
				fprintf(stderr, "rxbisect-sim: want LABEL:OPT=V[,OPT=V...]: %s\n",
					optarg);
				return 2;
			}
			ser_col = "case";
			break;
		case OPT_PLOT:
			png = optarg;
			break;
		case OPT_PLOT_Y:
			if (split_list(optarg, ys, MAX_PLOT_Y) <= 0)
				return 2;
			break;
		case OPT_PLOT_TITLE:
			title = optarg;
			break;
		case OPT_BENCH:
			bench = true;
			break;
		case OPT_LIST: {
			const char *names[64];
			unsigned int nm = sim_model_names(names, 64);

			for (i = 0; i < nm; i++)
				printf("%s\n", names[i]);
			return 0;
		}
		case OPT_PERQ:
			perq = true;
			break;
		case OPT_XSTATS:
			xst = true;
			break;
		case OPT_COLUMNS:
			if (split_list(optarg, cols_buf, 63) <= 0)
				return 2;
			cols = cols_buf;
			break;
		default:
			if (o >= OPT_BASE && o < OPT_BASE + (int)nopt) {
				const char *name = opt_name(o - OPT_BASE, &has);

				if (opt_apply(&base, name, optarg)) {
					fprintf(stderr, "rxbisect-sim: bad value for --%s: %s\n",
						name, optarg ? optarg : "");
					return 2;
				}
				break;
			}
			if (o >= OPT_BASE + (int)nopt && o < OPT_BASE + 2 * (int)nopt) {
				opt_apply(&base, opt_name(o - OPT_BASE - nopt, &has), "0");
				break;
			}
			print_help(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rxbisect-sim: unexpected argument: %s\n", argv[optind]);
		return 2;
	}
	if (!sweep.n) {
		strcpy(sweep.name, "-");
		sweep.val[0] = NULL;
		sweep.n = 1;
	}
	/* --series values become cases after any --case. */
	for (i = 0; i < series.n && ncase < MAX_VALS; i++) {
		struct series *se = &ser[ncase++];

		se->label = malloc(strlen(series.name) + strlen(series.val[i]) + 2);
		if (!se->label)
			return 1;
		sprintf(se->label, "%s=%s", series.name, series.val[i]);
		se->opt[0] = series.name;
		se->val[0] = series.val[i];
		se->n = 1;
		if (!ser_col)
			ser_col = series.name;
	}
	if (!ncase) {
		ser[0].label = base.model;
		ser[0].n = 0;
		ncase = 1;
	}
	nser = ncase;
	nres = nser * sweep.n;
	res = calloc(nres, sizeof(*res));
	if (!res)
		return 1;
	print_header(cols, ser_col, sweep.val[0] ? sweep.name : NULL, csv);
	for (s = 0; s < nser; s++) {
		for (k = 0; k < sweep.n; k++) {
			struct sim_cfg c = base;
			struct sim_res *r = &res[s * sweep.n + k];
			unsigned int a;

			for (a = 0; a < ser[s].n; a++)
				if (opt_apply(&c, ser[s].opt[a], ser[s].val[a])) {
					fprintf(stderr, "rxbisect-sim: bad option in %s: %s=%s\n",
						ser[s].label, ser[s].opt[a], ser[s].val[a]);
					return 2;
				}
			if (sweep.val[0] && opt_apply(&c, sweep.name, sweep.val[k])) {
				fprintf(stderr, "rxbisect-sim: bad --sweep %s=%s\n",
					sweep.name, sweep.val[k]);
				return 2;
			}
			c.quiet = k || s;
			if (sim_run(&c, r)) {
				/* Go on with the other points; the plot leaves a gap. */
				r->gbps = NAN;
				failed = true;
				continue;
			}
			print_row(&c, r, cols, ser_col ? ser[s].label : NULL,
				  sweep.val[k], csv);
			if (perq)
				print_queues(r);
			for (i = 0; xst && i < r->nx; i++)
				if (r->x[i].val)
					printf("  %-24s %llu\n", r->x[i].name,
					       (unsigned long long)r->x[i].val);
			if (bench)
				fprintf(csv ? stderr : stdout,
					"bench: %llu packets, %llu events in %.2f s (%.2f s CPU): %.0f packets/s simulated (%.0f per CPU second)\n",
					(unsigned long long)c.packets,
					(unsigned long long)r->events, r->wall_s,
					r->cpu_s, c.packets / r->wall_s,
					c.packets / r->cpu_s);
		}
	}
	if (png && sweep.val[0])
		err = plot_sweep(png, title, &sweep, ser, nser, res, ys);
	else if (png)
		fprintf(stderr, "rxbisect-sim: --plot needs --sweep\n");
	free(res);
	return err || failed ? 1 : 0;
}
