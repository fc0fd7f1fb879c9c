// SPDX-License-Identifier: GPL-2.0
/*
 * syncbench: the costs rxbisect-sim charges for the ring-model code
 * (--atomic-ns, --xfer-ns, --fence-ns, --alloc-ns), measured on this
 * machine.  Each figure is the median of --rounds rounds of --iters
 * operations, in ns and in TSC cycles:
 *
 *   atomic  lock-prefixed fetch-add on a line the thread owns
 *   cas     compare-and-swap that succeeds, owned line
 *   lock    uncontended spinlock acquire + release (xchg, store)
 *   fence   mfence (__atomic_thread_fence(SEQ_CST))
 *   xfer    one hand-off of a line between two threads on two CPUs
 *           (ping-pong: each side waits for the other's write, then
 *           writes; the 10th percentile of the round trips, over 2)
 *   alloc   pop + push of a per-CPU LIFO buffer cache (page_pool's
 *           alloc cache, the allocator's fast path)
 *
 * Usage: syncbench [--iters N] [--rounds N] [--cpus A,B]
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include <linux/cache.h>
#include <linux/types.h>

#define MAX_ROUNDS	64

static unsigned long iters = 2000000;
static unsigned int rounds = 7;
static int cpu_a, cpu_b = 1;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static unsigned long word ____cacheline_aligned;

static void op_atomic(unsigned long n)
{
	while (n--)
		__atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST);
}

static void op_cas(unsigned long n)
{
	unsigned long v = __atomic_load_n(&word, __ATOMIC_RELAXED);

	while (n--) {
		__atomic_compare_exchange_n(&word, &v, v + 1, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		v++;
	}
}

static void op_lock(unsigned long n)
{
	__atomic_store_n(&word, 0, __ATOMIC_RELAXED);
	while (n--) {
		while (__atomic_exchange_n(&word, 1, __ATOMIC_ACQUIRE))
			;
		__atomic_store_n(&word, 0, __ATOMIC_RELEASE);
	}
}

static void op_fence(unsigned long n)
{
	while (n--)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* A LIFO cache of buffer pointers, as page_pool's alloc.cache. */
static void *cache[128];
static unsigned int cache_n;

static void op_alloc(unsigned long n)
{
	void *b;

	while (n--) {
		b = cache[--cache_n];
		__asm__ __volatile__("" : "+r"(b));
		cache[cache_n++] = b;
	}
	__asm__ __volatile__("" : : "r"(cache_n) : "memory");
}

/* Ping-pong: thread A writes odd values, thread B even ones. */
static unsigned long pp ____cacheline_aligned;

static void *pong(void *arg)
{
	unsigned long n = *(unsigned long *)arg, v;

	pin(cpu_b);
	for (v = 1; v < 2 * n; v += 2) {
		while (__atomic_load_n(&pp, __ATOMIC_ACQUIRE) != v)
			;
		__atomic_store_n(&pp, v + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * Each round trip is timed on its own: on a loaded machine most of them
 * include the other thread's preemption, so the figure is a low
 * percentile of the round trips (both threads running), over 2.
 */
#define XFER_PCT	10

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int op_xfer(unsigned long n, double *ns, double *cyc)
{
	u64 *rt = malloc(sizeof(*rt) * n), c0, c1;
	double t0, ns_per_cyc;
	unsigned long v, i = 0;
	pthread_t t;

	if (!rt)
		return -1;
	__atomic_store_n(&pp, 0, __ATOMIC_RELAXED);
	if (pthread_create(&t, NULL, pong, &n)) {
		free(rt);
		return -1;
	}
	pin(cpu_a);
	t0 = now_ns();
	c0 = __rdtsc();
	c1 = c0;
	for (v = 0; v < 2 * n; v += 2) {
		u64 a = __rdtsc();

		while (__atomic_load_n(&pp, __ATOMIC_ACQUIRE) != v)
			;
		if (v)
			rt[i++] = a - c1;
		c1 = a;
		__atomic_store_n(&pp, v + 1, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&pp, __ATOMIC_ACQUIRE) != 2 * n)
		;
	rt[i++] = __rdtsc() - c1;
	ns_per_cyc = (now_ns() - t0) / (double)(__rdtsc() - c0);
	pthread_join(t, NULL);
	qsort(rt, i, sizeof(*rt), cmp_u64);
	/* A round trip is two hand-offs. */
	*cyc = rt[i * XFER_PCT / 100] / 2.0;
	*ns = *cyc * ns_per_cyc;
	free(rt);
	return 0;
}

static void report(const char *name, double *ns, double *cyc, const char *what)
{
	qsort(ns, rounds, sizeof(*ns), cmp_dbl);
	qsort(cyc, rounds, sizeof(*cyc), cmp_dbl);
	printf("%-7s %8.1f ns %8.1f cycles  (min %.1f ns, max %.1f ns)  %s\n",
	       name, ns[rounds / 2], cyc[rounds / 2], ns[0], ns[rounds - 1], what);
}

static void bench(const char *name, void (*op)(unsigned long), const char *what)
{
	double ns[MAX_ROUNDS], cyc[MAX_ROUNDS], t0;
	u64 c0;
	unsigned int r;

	pin(cpu_a);
	for (r = 0; r < rounds; r++) {
		t0 = now_ns();
		c0 = __rdtsc();
		op(iters);
		ns[r] = (now_ns() - t0) / iters;
		cyc[r] = (double)(__rdtsc() - c0) / iters;
	}
	report(name, ns, cyc, what);
}

static unsigned long parse(const char *opt, const char *s, unsigned long lo,
			   unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "syncbench: %s: \"%s\" is not in [%lu, %lu]\n",
			opt, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	double ns[MAX_ROUNDS], cyc[MAX_ROUNDS];
	unsigned int r;
	int i;

	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--iters")) {
			iters = parse(argv[i], argv[i + 1], 1000, 1000000000);
		} else if (i + 1 < argc && !strcmp(argv[i], "--rounds")) {
			rounds = parse(argv[i], argv[i + 1], 1, MAX_ROUNDS);
		} else if (i + 1 < argc && !strcmp(argv[i], "--cpus")) {
			if (sscanf(argv[i + 1], "%d,%d", &cpu_a, &cpu_b) != 2 ||
			    cpu_a < 0 || cpu_b < 0 || cpu_a >= CPU_SETSIZE ||
			    cpu_b >= CPU_SETSIZE || cpu_a == cpu_b) {
				fprintf(stderr, "syncbench: --cpus A,B: two CPUs\n");
				return 2;
			}
		} else {
			fprintf(stderr,
				"usage: syncbench [--iters N] [--rounds N] [--cpus A,B]\n");
			return 2;
		}
		i++;
	}
	for (r = 0; r < 128; r++)
		cache[r] = &cache[r];
	cache_n = 128;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# syncbench: median of %u rounds of %lu operations, CPUs %d,%d\n",
	       rounds, iters, cpu_a, cpu_b);
	bench("atomic", op_atomic, "lock xadd, owned line      -> --atomic-ns");
	bench("cas", op_cas, "lock cmpxchg, owned line");
	bench("lock", op_lock, "xchg acquire + store release");
	bench("fence", op_fence, "mfence                     -> --fence-ns");
	bench("alloc", op_alloc, "LIFO cache pop + push      -> --alloc-ns / 2");
	for (r = 0; r < rounds; r++)
		if (op_xfer(iters / 100 + 1, &ns[r], &cyc[r]))
			return 1;
	report("xfer", ns, cyc, "line hand-off, 2 CPUs      -> --xfer-ns");
	return 0;
}
