// SPDX-License-Identifier: GPL-2.0
/* Minimal KTAP test runner; see ktap.h. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktap.h"
#include "shim/shim.h"

/* Diagnostics printed per case before the rest are only counted. */
#define KTAP_MAX_MSGS	25

static pthread_mutex_t ktap_lock = PTHREAD_MUTEX_INITIALIZER;
static long ktap_nfail;		/* failures in the running case */

double ktap_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void ktap_vdiag(const char *pfx, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	printf("# %s%s\n", pfx, buf);
	fflush(stdout);
}

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&ktap_lock);
	ktap_vdiag("", fmt, ap);
	pthread_mutex_unlock(&ktap_lock);
	va_end(ap);
}

void ktap_fail_at(const char *file, int line, const char *fmt, ...)
{
	char pfx[256];
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&ktap_lock);
	if (++ktap_nfail <= KTAP_MAX_MSGS) {
		snprintf(pfx, sizeof(pfx), "%s:%d: ", file, line);
		ktap_vdiag(pfx, fmt, ap);
	} else if (ktap_nfail == KTAP_MAX_MSGS + 1) {
		printf("# (further failures of this case are not printed)\n");
	}
	pthread_mutex_unlock(&ktap_lock);
	va_end(ap);
}

long ktap_failures(void)
{
	long n;

	pthread_mutex_lock(&ktap_lock);
	n = ktap_nfail;
	pthread_mutex_unlock(&ktap_lock);
	return n;
}

int ktap_main(const struct ktap_case *cases, unsigned int ncases)
{
	const char *filter = getenv("RXB_TEST");
	unsigned int i, n = 0, pass = 0, fail = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ncases; i++)
		if (!filter || strstr(cases[i].name, filter))
			n++;
	printf("KTAP version 1\n1..%u\n", n);
	for (i = 0; i < ncases; i++) {
		const struct ktap_case *c = &cases[i];
		long allocs, warns;
		double t0;

		if (filter && !strstr(c->name, filter))
			continue;
		pthread_mutex_lock(&ktap_lock);
		ktap_nfail = 0;
		pthread_mutex_unlock(&ktap_lock);
		allocs = __atomic_load_n(&rxb_shim_live_allocs, __ATOMIC_RELAXED);
		warns = __atomic_load_n(&rxb_shim_warnings, __ATOMIC_RELAXED);
		t0 = ktap_now();

		c->fn(c->arg);

		allocs = __atomic_load_n(&rxb_shim_live_allocs, __ATOMIC_RELAXED) - allocs;
		warns = __atomic_load_n(&rxb_shim_warnings, __ATOMIC_RELAXED) - warns;
		if (allocs)
			ktap_fail_at(__FILE__, __LINE__,
				     "%ld kmalloc-family allocations leaked", allocs);
		if (warns)
			ktap_fail_at(__FILE__, __LINE__, "%ld WARN_ON() hits", warns);
		__atomic_store_n(&rxb_shim_alloc_fail_after, -1, __ATOMIC_RELAXED);
		printf("# %s: %.2f s\n", c->name, ktap_now() - t0);
		if (ktap_failures()) {
			printf("not ok %u %s\n", pass + fail + 1, c->name);
			fail++;
		} else {
			printf("ok %u %s\n", pass + fail + 1, c->name);
			pass++;
		}
	}
	printf("# Totals: pass:%u fail:%u\n", pass, fail);
	return fail ? 1 : 0;
}
