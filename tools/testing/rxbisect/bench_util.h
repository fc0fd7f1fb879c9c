/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the userspace benchmarks (bench_models.c, bench_ceio.c) share:
 * strict integer options, whose bad values exit 2 with a message naming
 * the program (BENCH_PROG, which the includer defines), and the cells of
 * their tables: median [min-max] over the rounds, and ratios to privring
 * marked "~" (within noise) when their range includes 1.
 */
#ifndef _RXB_BENCH_UTIL_H
#define _RXB_BENCH_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>

#ifndef BENCH_PROG
#error "define BENCH_PROG (the program's name) before including this header"
#endif

/* Most rounds of one cell (-R). */
#define BENCH_MAX_REPS	16

/* The option's argument as an integer in [@min, @max], or exit 2. */
static inline u64 num_arg(int opt, const char *arg, u64 min, u64 max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr, BENCH_PROG ": -%c '%s': expected an integer in %llu..%llu\n",
			opt, arg, (unsigned long long)min, (unsigned long long)max);
		exit(2);
	}
	return v;
}

static inline void bad(const char *msg)
{
	fprintf(stderr, BENCH_PROG ": %s\n", msg);
	exit(2);
}

static inline bool pow2(u64 v)
{
	return v && !(v & (v - 1));
}

static inline int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min and max of @v[0..n), @n at most BENCH_MAX_REPS. */
static inline void stats(const double *v, int n, double *med, double *min,
			 double *max)
{
	double w[BENCH_MAX_REPS];

	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), cmp_dbl);
	*med = w[n / 2];
	*min = w[0];
	*max = w[n - 1];
}

/*
 * The ratio of @v to privring's @p, round by round alike, into @buf:
 * "med [lo-hi]" with lo = min / privring's max and hi = max / privring's
 * min, " ~" behind when that range includes 1; "-" when privring's
 * values are not positive.
 */
static inline const char *ratio(char *buf, size_t len, const double *v,
				const double *p, int n)
{
	double med, min, max, pmed, pmin, pmax;

	stats(v, n, &med, &min, &max);
	stats(p, n, &pmed, &pmin, &pmax);
	if (pmed <= 0 || pmin <= 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(buf, len, "%.2f [%.2f-%.2f]%s", med / pmed, min / pmax,
		 max / pmin, min <= pmax && max >= pmin ? " ~" : "");
	return buf;
}

#endif /* _RXB_BENCH_UTIL_H */
