// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect-sim command line: one run, or a sweep of one option (optionally
 * times a series of another), printed as a table or CSV and plotted with
 * gnuplot.
 *
 * Every value is checked before the first run (opts.c: ranges, rules
 * between options, --change); a bad one stops with a message naming the
 * option and exit status 2.  A run that fails exits 1.  Plots are a data
 * file and a gnuplot script beside the PNG; user text reaches the script
 * only inside single-quoted gnuplot strings (no backquote, macro or escape
 * processing there) with quotes doubled and control characters replaced,
 * and gnuplot runs by execvp(), without a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rxbisect/rxb_drv_model.h>

#include "opts.h"
#include "sim.h"

#define MAX_VALS	64
#define MAX_PLOT_Y	8
#define MAX_COLUMNS	63
#define MAX_RUNS	1024

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

/* Everything the command line allocates, freed on every way out. */
struct cli {
	struct option *lo;
	unsigned int nlo;
	struct axis sweep, series;
	struct series ser[MAX_VALS];
	unsigned int ncase;
	struct sim_res *res;		/* one run's results */
	double *pts;			/* [run][plot-y], NAN: failed run */
	bool *ok;
	char *cols_arg, *ys_arg;
};

static const char *const default_columns[] = {
	"gbps", "mpps", "drop_pct", "nobuf", "ring_full", "alloc_fails",
	"lat_p50_us", "lat_p99_us", "lat_p999_us", "occ", "ddio_hit",
	"cpu_hit", "mem_gbs", "wss_mib", "util", NULL,
};

/* The default when a run splits headers from payloads (--nicmem-split). */
static const char *const split_columns[] = {
	"gbps", "mpps", "drop_pct", "nobuf", "ring_full", "alloc_fails",
	"lat_p50_us", "lat_p99_us", "lat_p999_us", "occ", "ddio_hit",
	"cpu_hit", "mem_gbs", "wss_mib", "util", "nicmem_host_bytes",
	"nicmem_nic_bytes", "nicmem_split_fallback", NULL,
};

static const char help_head[] =
	"usage: rxbisect-sim [OPTION]...\n"
	"Simulate a multi-queue NIC with the rxbisect ring models, an LLC with DDIO\n"
	"and the receiving cores; print throughput, drops, latency, ring occupancy,\n"
	"DDIO hit rate, memory bandwidth and I/O working set.\n\n"
	"Exit status: 0 done, 1 a run or the plot failed, or a run measured\n"
	"nothing or lost packets (a warning on stderr, and in the CSV's last\n"
	"column), 2 bad command line or a configuration the ring model refuses\n"
	"(the message names the option and the values it accepts).\n\n"
	"Output and runs:\n"
	"  --csv                 CSV (every metric) instead of a table\n"
	"  --columns M,M,...     table columns (metric names: see below; at most 63)\n"
	"  --per-queue           also print per-queue results\n"
	"  --xstats              also print the model's own counters (non-zero)\n"
	"  --sweep OPT=V,V,...   one run per value of option OPT (at most 64 values)\n"
	"  --series OPT=V,V,...  ... for each value of OPT (one plot line each)\n"
	"  --case LABEL:OPT=V[,OPT=V...]  ... and for this set of options\n"
	"                        (repeatable; one plot line each; at most 64 lines,\n"
	"                        8 options each, 1024 runs in all)\n"
	"  --plot FILE.png       plot the sweep with gnuplot; FILE.dat and FILE.gp\n"
	"                        (data and script) are written beside it\n"
	"  --plot-y M,M,...      metrics to plot, one panel each, at most 8 [gbps]\n"
	"  --plot-title TEXT     plot title\n"
	"  --bench               print packets simulated per second\n"
	"  --list-models         print the registered ring models\n"
	"  -h, --help            this help\n"
	"An option given twice: the last one counts (--sweep, --series: once).\n\n"
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

static int __printf(1, 2) usage(const char *fmt, ...)
{
	va_list ap;

	fputs("rxbisect-sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Split @list at commas into strdup()ed @out; empty items are an error. */
static int split_vals(const char *list, char **out, unsigned int max,
		      unsigned int *n)
{
	const char *p = list, *c;

	*n = 0;
	do {
		c = strchrnul(p, ',');
		if (c == p)
			return -EINVAL;
		if (*n == max)
			return -E2BIG;
		out[*n] = strndup(p, c - p);
		if (!out[*n])
			return -ENOMEM;
		(*n)++;
		p = c + 1;
	} while (*c);
	return 0;
}

static int parse_axis(struct axis *a, const char *what, const char *arg)
{
	const char *eq = strchr(arg, '=');
	int err;

	if (a->n)
		return usage("%s given twice", what);
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(a->name))
		return usage("%s \"%.64s\": want OPT=V,V,...", what, arg);
	memcpy(a->name, arg, eq - arg);
	a->name[eq - arg] = 0;
	err = split_vals(eq + 1, a->val, MAX_VALS, &a->n);
	if (err == -E2BIG)
		return usage("%s %s: at most %d values", what, a->name, MAX_VALS);
	if (err)
		return usage("%s \"%.64s\": want OPT=V,V,... without empty values",
			     what, arg);
	return 0;
}

static int parse_case(struct series *se, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *items[MAX_ASSIGN], *eq;
	unsigned int i, n = 0;
	int err;

	if (!colon || colon == arg)
		return usage("--case \"%.64s\": want LABEL:OPT=V[,OPT=V...]", arg);
	se->label = strndup(arg, colon - arg);
	if (!se->label)
		return usage("out of memory");
	err = split_vals(colon + 1, items, MAX_ASSIGN, &n);
	for (i = 0; i < n; i++) {
		eq = strchr(items[i], '=');
		if (!err && (!eq || eq == items[i]))
			err = -EINVAL;
		if (!err) {
			*eq = 0;
			se->opt[se->n] = items[i];
			se->val[se->n] = strdup(eq + 1);
			if (!se->val[se->n++])
				err = -ENOMEM;
		} else {
			free(items[i]);
		}
	}
	if (err == -E2BIG)
		return usage("--case %.64s: at most %d options", se->label, MAX_ASSIGN);
	if (err)
		return usage("--case \"%.64s\": want LABEL:OPT=V[,OPT=V...]", arg);
	return 0;
}

/* Metric names, comma-separated, into @out (NULL-terminated). */
static int split_list(const char *what, char *s, const char **out,
		      unsigned int max)
{
	unsigned int n = 0;
	char *tok;

	while ((tok = strsep(&s, ","))) {
		if (!sim_metric_find(tok))
			return usage("%s: no metric \"%.64s\" (see --help)", what, tok);
		if (n == max)
			return usage("%s: at most %u metrics", what, max);
		out[n++] = tok;
	}
	out[n] = NULL;
	return 0;
}

/* Option @what's metric list @arg, kept in *@copy (replacing an earlier one). */
static int metric_list(const char *what, char **copy, const char *arg,
		       const char **out, unsigned int max)
{
	free(*copy);
	*copy = strdup(arg);
	if (!*copy)
		return usage("out of memory");
	return split_list(what, *copy, out, max);
}

/* A CSV field: quoted if it holds a comma, quote or line break. */
static void csv_field(const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		printf(",%s", v);
		return;
	}
	putchar(',');
	putchar('"');
	for (; *v; v++) {
		if (*v == '"')
			putchar('"');
		putchar(*v);
	}
	putchar('"');
}

static void print_header(const char *const *cols, const char *s1, const char *s2,
			 bool csv)
{
	unsigned int i;

	if (csv) {
		printf("model");
		if (s1)
			csv_field(s1);
		if (s2)
			csv_field(s2);
		for (i = 0; i < sim_nmetrics; i++)
			printf(",%s", sim_metrics[i].name);
		printf(",warning\n");
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
			csv_field(v1);
		if (v2)
			csv_field(v2);
		for (i = 0; i < sim_nmetrics; i++) {
			snprintf(buf, sizeof(buf), sim_metrics[i].fmt,
				 sim_metrics[i].get(r));
			printf(",%s", buf);
		}
		if (*sim_warn_str(r->warn))
			csv_field(sim_warn_str(r->warn));
		else
			printf(",");
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

/* ---- plots ---------------------------------------------------------- */

/*
 * @s as a single-quoted gnuplot string: gnuplot does no backquote, macro
 * (@) or backslash processing inside single quotes; a quote is doubled.
 * Control characters (a newline would end the command) become spaces.
 */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		unsigned char ch = *s;

		if (ch == '\'')
			fputs("''", f);
		else if (ch < 0x20 || ch == 0x7f)
			fputc(' ', f);
		else
			fputc(ch, f);
	}
	fputc('\'', f);
}

static bool num_axis(const struct axis *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		char *end;
		double v = strtod(a->val[i], &end);

		if (*end || end == a->val[i] || !isfinite(v))
			return false;
	}
	return true;
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

/* @png with its ".png" replaced by (or, without one, followed by) @ext. */
static char *sibling(const char *png, const char *ext)
{
	size_t n = strlen(png);
	char *p;

	if (n > 4 && !strcmp(png + n - 4, ".png"))
		n -= 4;
	p = malloc(n + strlen(ext) + 1);
	if (p) {
		memcpy(p, png, n);
		strcpy(p + n, ext);
	}
	return p;
}

/* gnuplot @script, without a shell; 0, or the reason it did not work. */
static int run_gnuplot(const char *script)
{
	char *const argv[] = { "gnuplot", (char *)script, NULL };
	int st, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -ENOENT;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

/* Write the data and script of the plot; pts[series][point][metric]. */
static int write_plot(const char *png, const char *dat, const char *gp,
		      const char *title, const struct axis *x,
		      const struct series *ser, unsigned int nser,
		      const double *pts, const bool *ok, const char *const *ys)
{
	bool num = num_axis(x);
	unsigned int ny, i, s, k;
	FILE *d, *g;
	int err = 0;

	for (ny = 0; ys[ny]; ny++)
		;
	d = fopen(dat, "w");
	if (!d)
		return usage("--plot: %s: %s", dat, strerror(errno)) - 1;
	for (s = 0; s < nser; s++) {
		fprintf(d, "# series %u\n", s);
		for (i = 0; i < x->n; i++) {
			const double *v = &pts[(s * x->n + i) * MAX_PLOT_Y];

			if (!ok[s * x->n + i])
				continue;
			if (num)
				fprintf(d, "%.17g", strtod(x->val[i], NULL));
			else
				fprintf(d, "%u", i);
			for (k = 0; k < ny; k++)
				fprintf(d, isfinite(v[k]) ? " %.9g" : " NaN", v[k]);
			fprintf(d, "\n");
		}
		fprintf(d, "\n\n");
	}
	if (fclose(d))
		return usage("--plot: %s: %s", dat, strerror(errno)) - 1;

	g = fopen(gp, "w");
	if (!g)
		return usage("--plot: %s: %s", gp, strerror(errno)) - 1;
	fprintf(g, "# rxbisect-sim plot; data in the file below\n");
	fprintf(g, "set terminal pngcairo noenhanced size %u,%u font ',10'\n",
		640 * (ny > 1 ? 2 : 1), ny > 2 ? 340 * ((ny + 1) / 2) + 40 : 420);
	fprintf(g, "set output ");
	gp_str(g, png);
	fprintf(g, "\ndata = ");
	gp_str(g, dat);
	fprintf(g, "\nset grid\n%s\n", nser > 1 ? "set key below" : "unset key");
	if (!num) {
		fprintf(g, "set xtics (");
		for (i = 0; i < x->n; i++) {
			fprintf(g, "%s", i ? ", " : "");
			gp_str(g, x->val[i]);
			fprintf(g, " %u", i);
		}
		fprintf(g, ")\nset xrange [-0.5:%u.5]\n", x->n - 1);
	} else if (log2_axis(x)) {
		fprintf(g, "set logscale x 2\n");
	}
	if (ny > 1) {
		fprintf(g, "set multiplot layout %u,2 title ", (ny + 1) / 2);
		gp_str(g, title ? title : "");
		fprintf(g, "\n");
	} else if (title) {
		fprintf(g, "set title ");
		gp_str(g, title);
		fprintf(g, "\n");
	}
	for (i = 0; i < ny; i++) {
		const struct sim_metric *m = sim_metric_find(ys[i]);

		fprintf(g, "set xlabel ");
		gp_str(g, x->name);
		fprintf(g, "\nset ylabel ");
		gp_str(g, m->name);
		fprintf(g, "\n");
		/* Latencies span orders of magnitude once rings fill. */
		if (!strncmp(m->name, "lat_", 4))
			fprintf(g, "set logscale y\nset yrange [*:*]\n");
		else
			fprintf(g, "unset logscale y\nset yrange [0:*]\n");
		fprintf(g, "plot ");
		for (s = 0; s < nser; s++) {
			fprintf(g, "%sdata index %u using 1:%u with linespoints lw 2 title ",
				s ? ", " : "", s, i + 2);
			gp_str(g, ser[s].label);
		}
		fprintf(g, "\n");
	}
	if (ny > 1)
		fprintf(g, "unset multiplot\n");
	if (fclose(g))
		return usage("--plot: %s: %s", gp, strerror(errno)) - 1;

	err = run_gnuplot(gp);
	if (err == -ENOENT)
		fprintf(stderr,
			"rxbisect-sim: gnuplot not found (apt-get install gnuplot-nox); data in %s, script in %s\n",
			dat, gp);
	else if (err)
		fprintf(stderr, "rxbisect-sim: gnuplot %s failed\n", gp);
	return err ? 1 : 0;
}

/* ---- main ----------------------------------------------------------- */

static void cli_free(struct cli *c)
{
	unsigned int i, k;

	for (i = 0; c->lo && i < c->nlo; i++)
		if (!strncmp(c->lo[i].name, "no-", 3))
			free((char *)c->lo[i].name);
	free(c->lo);
	for (i = 0; i < c->sweep.n; i++)
		free(c->sweep.val[i]);
	for (i = 0; i < c->series.n; i++)
		free(c->series.val[i]);
	for (i = 0; i < c->ncase; i++) {
		free(c->ser[i].label);
		for (k = 0; k < c->ser[i].n; k++) {
			free(c->ser[i].opt[k]);
			free(c->ser[i].val[k]);
		}
	}
	free(c->res);
	free(c->pts);
	free(c->ok);
	free(c->cols_arg);
	free(c->ys_arg);
	free(c);
}

static int build_longopts(struct cli *c)
{
	unsigned int nopt = opt_count(), i, n = 0;
	static const struct option fixed[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "sweep", required_argument, NULL, OPT_SWEEP },
		{ "series", required_argument, NULL, OPT_SERIES },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "plot-y", required_argument, NULL, OPT_PLOT_Y },
		{ "plot-title", required_argument, NULL, OPT_PLOT_TITLE },
		{ "bench", no_argument, NULL, OPT_BENCH },
		{ "list-models", no_argument, NULL, OPT_LIST },
		{ "per-queue", no_argument, NULL, OPT_PERQ },
		{ "columns", required_argument, NULL, OPT_COLUMNS },
		{ "xstats", no_argument, NULL, OPT_XSTATS },
	};
	int has;

	c->lo = calloc(2 * nopt + ARRAY_SIZE(fixed) + 1, sizeof(*c->lo));
	if (!c->lo)
		return -ENOMEM;
	for (i = 0; i < nopt; i++) {
		c->lo[n].name = opt_name(i, &has);
		c->lo[n].has_arg = has == 2 ? optional_argument : required_argument;
		c->lo[n++].val = OPT_BASE + i;
		c->nlo = n;
		if (has == 2) {
			char *no = malloc(strlen(c->lo[n - 1].name) + 4);

			if (!no)
				return -ENOMEM;
			sprintf(no, "no-%s", c->lo[n - 1].name);
			c->lo[n].name = no;
			c->lo[n].has_arg = no_argument;
			c->lo[n++].val = OPT_BASE + nopt + i;
			c->nlo = n;
		}
	}
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		c->lo[n++] = fixed[i];
	return 0;
}

/* The configuration of run (@s, @k): base, then the series, then the sweep. */
static int point_cfg(const struct cli *cl, const struct sim_cfg *base,
		     unsigned int s, unsigned int k, struct sim_cfg *c)
{
	const struct series *se = &cl->ser[s];
	unsigned int a;

	*c = *base;
	for (a = 0; a < se->n; a++)
		if (opt_apply(c, se->opt[a], se->val[a]))
			return usage("%.64s: %s", se->label, opt_error());
	if (cl->sweep.val[0] && opt_apply(c, cl->sweep.name, cl->sweep.val[k]))
		return usage("--sweep: %s", opt_error());
	if (!sim_cfg_check(c, NULL)) {
		if (cl->sweep.val[0] || se->n)
			return usage("%s (run %s%s%s%s%s)", opt_error(),
				     se->n ? se->label : "",
				     se->n && cl->sweep.val[0] ? ", " : "",
				     cl->sweep.val[0] ? cl->sweep.name : "",
				     cl->sweep.val[0] ? "=" : "",
				     cl->sweep.val[0] ? cl->sweep.val[k] : "");
		return usage("%s", opt_error());
	}
	return 0;
}

static int cli_main(struct cli *cl, int argc, char **argv)
{
	unsigned int nopt = opt_count(), i, s, k, nser, nres;
	const char *cols_buf[MAX_COLUMNS + 1], *ys[MAX_PLOT_Y + 1] = { "gbps", NULL };
	const char *const *cols = default_columns;
	const char *ser_col = NULL, *png = NULL, *title = NULL;
	bool csv = false, bench = false, perq = false, xst = false, split = false;
	int o, has, rc = 0, err;
	struct sim_cfg base, c;
	char *dat, *gp;

	if (build_longopts(cl))
		return usage("out of memory");
	sim_cfg_default(&base);
	while ((o = getopt_long(argc, argv, "h", cl->lo, NULL)) != -1) {
		switch (o) {
		case OPT_HELP:
			print_help(stdout);
			return 0;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_SWEEP:
			if (parse_axis(&cl->sweep, "--sweep", optarg))
				return 2;
			break;
		case OPT_SERIES:
			if (parse_axis(&cl->series, "--series", optarg))
				return 2;
			break;
		case OPT_CASE:
			if (cl->ncase == MAX_VALS)
				return usage("--case: at most %d", MAX_VALS);
			if (parse_case(&cl->ser[cl->ncase++], optarg))
				return 2;
			ser_col = "case";
			break;
		case OPT_PLOT:
			png = optarg;
			break;
		case OPT_PLOT_Y:
			if (metric_list("--plot-y", &cl->ys_arg, optarg, ys, MAX_PLOT_Y))
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
			if (metric_list("--columns", &cl->cols_arg, optarg, cols_buf,
					MAX_COLUMNS))
				return 2;
			cols = cols_buf;
			break;
		default:
			if (o >= OPT_BASE && o < OPT_BASE + (int)nopt) {
				if (opt_apply(&base, opt_name(o - OPT_BASE, &has), optarg))
					return usage("%s", opt_error());
				break;
			}
			if (o >= OPT_BASE + (int)nopt && o < OPT_BASE + 2 * (int)nopt) {
				opt_apply(&base, opt_name(o - OPT_BASE - nopt, &has), "0");
				break;
			}
			return usage("see --help");
		}
	}
	if (optind < argc)
		return usage("unexpected argument \"%.64s\" (see --help)", argv[optind]);
	if (png && !cl->sweep.n)
		return usage("--plot needs --sweep");
	if (png && (!*png || strpbrk(png, "\t\n\r\v\f\x1b")))
		return usage("--plot: want a file name without control characters");
	if (!cl->sweep.n) {
		strcpy(cl->sweep.name, "-");
		cl->sweep.val[0] = NULL;
	}
	/* --series values become cases after any --case. */
	if (cl->series.n && cl->ncase + cl->series.n > MAX_VALS)
		return usage("--series and --case: at most %d lines", MAX_VALS);
	for (i = 0; i < cl->series.n; i++) {
		struct series *se = &cl->ser[cl->ncase++];

		se->opt[0] = strdup(cl->series.name);
		se->val[0] = strdup(cl->series.val[i]);
		se->n = 1;
		if (asprintf(&se->label, "%s=%s", cl->series.name,
			     cl->series.val[i]) < 0) {
			se->label = NULL;
			return usage("out of memory");
		}
		if (!se->opt[0] || !se->val[0])
			return usage("out of memory");
		if (!ser_col)
			ser_col = cl->series.name;
	}
	if (!cl->ncase) {
		cl->ser[0].label = strdup(base.model);
		if (!cl->ser[0].label)
			return usage("out of memory");
		cl->ncase = 1;
	}
	nser = cl->ncase;
	nres = nser * (cl->sweep.n ? cl->sweep.n : 1);
	if (nres > MAX_RUNS)
		return usage("--sweep x --series/--case: %u runs, at most %d", nres,
			     MAX_RUNS);
	/* Every run's options checked before the first one starts. */
	for (s = 0; s < nser; s++)
		for (k = 0; k < (cl->sweep.n ? cl->sweep.n : 1); k++) {
			if (point_cfg(cl, &base, s, k, &c))
				return 2;
			split |= c.nicmem_split;
		}
	if (split && cols == default_columns)
		cols = split_columns;
	cl->res = calloc(1, sizeof(*cl->res));
	cl->pts = calloc((size_t)nres * MAX_PLOT_Y, sizeof(*cl->pts));
	cl->ok = calloc(nres, sizeof(*cl->ok));
	if (!cl->res || !cl->pts || !cl->ok)
		return usage("out of memory");
	print_header(cols, ser_col, cl->sweep.val[0] ? cl->sweep.name : NULL, csv);
	for (s = 0; s < nser; s++) {
		for (k = 0; k < (cl->sweep.n ? cl->sweep.n : 1); k++) {
			struct sim_res *r = cl->res;
			unsigned int idx = s * (cl->sweep.n ? cl->sweep.n : 1) + k;

			point_cfg(cl, &base, s, k, &c);
			c.quiet = k || s;
			err = sim_run(&c, r);
			if (err) {
				/*
				 * Go on with the other points; the plot leaves
				 * a gap.  A configuration the model or the
				 * traffic refused (their message above) is a
				 * usage error.
				 */
				fprintf(stderr, "rxbisect-sim: run %u failed: %s\n",
					idx + 1, strerror(-err));
				if (err == -EINVAL || err == -EOPNOTSUPP || err == -ENOENT)
					rc = 2;
				else if (rc != 2)
					rc = 1;
				continue;
			}
			if (r->warn) {
				/*
				 * A run that measured nothing, or whose packets
				 * do not add up: its row says so (CSV: the
				 * warning column), and the exit status.
				 */
				fprintf(stderr,
					"rxbisect-sim: run %u: warning: %s (%llu offered, %llu delivered, %llu dropped)\n",
					idx + 1, sim_warn_str(r->warn),
					(unsigned long long)r->run_arrived,
					(unsigned long long)r->run_delivered,
					(unsigned long long)r->run_dropped);
				if (rc != 2)
					rc = 1;
			}
			cl->ok[idx] = true;
			for (i = 0; ys[i]; i++)
				cl->pts[idx * MAX_PLOT_Y + i] = sim_metric_find(ys[i])->get(r);
			print_row(&c, r, cols, ser_col ? cl->ser[s].label : NULL,
				  cl->sweep.val[0] ? cl->sweep.val[k] : NULL, csv);
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
	if (!png)
		return rc;
	dat = sibling(png, ".dat");
	gp = sibling(png, ".gp");
	if (!dat || !gp)
		err = usage("out of memory") - 1;
	else
		err = write_plot(png, dat, gp, title, &cl->sweep, cl->ser, nser,
				 cl->pts, cl->ok, ys);
	free(dat);
	free(gp);
	return rc ? rc : err;
}

int main(int argc, char **argv)
{
	struct cli *cl = calloc(1, sizeof(*cl));
	int rc;

	if (!cl) {
		fputs("rxbisect-sim: out of memory\n", stderr);
		return 1;
	}
	rc = cli_main(cl, argc, argv);
	cli_free(cl);
	return rc;
}
