// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the I/O working-set tracker (drivers/net/rxbisect/wss.c) against
 * a reference computed single-threaded: a count per buffer over the same
 * writes, sliding the same window, and the span of bytes written into each
 * buffer since it entered the window.
 *
 * One thread: the tracker is exact for the writes it has added, which are
 * the writes made less the ones staged (fewer than RXB_WSS_BATCH, none
 * after rxb_wss_flush()).  Several threads, each on its own CPU of the
 * shim: exact when the window holds every write; otherwise within the
 * bound wss.c states, 2 * CPUs * (RXB_WSS_BATCH - 1), plus one write in
 * flight per thread (between taking its place in the reference's order
 * and being staged).  A reader thread reads distinct and peak without a
 * lock meanwhile, as ethtool -S does.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <rxbisect/rxb_wss.h>

#include "ktap.h"
#include "shim/shim.h"

#define NTHREADS	4

/* Where write @k, into buffer @buf, begins in it and how long it is. */
static u32 wr_off(u64 k, u64 buf)
{
	return (buf * 37 + k * 11) % 2048;
}

static u32 wr_len(u64 k, u64 buf)
{
	return 1 + (k * 131 + buf) % 1500;
}

/* The reference: distinct buffers among the last @window of @seq[0..n). */
struct ref {
	const u64 *seq;
	u32 *cnt;		/* writes of each buffer in the window */
	u32 *lo, *hi;		/* span written since it entered */
	u64 n;			/* writes slid in so far */
	u32 window, distinct, peak;
	u64 bytes, bytes_peak;
};

static void ref_init(struct ref *r, const u64 *seq, u64 nbufs, u32 window)
{
	memset(r, 0, sizeof(*r));
	r->seq = seq;
	r->cnt = calloc(nbufs + 1, sizeof(*r->cnt));
	r->lo = calloc(nbufs + 1, sizeof(*r->lo));
	r->hi = calloc(nbufs + 1, sizeof(*r->hi));
	if (!r->cnt || !r->lo || !r->hi)
		abort();
	r->window = window;
}

static void ref_fini(struct ref *r)
{
	free(r->cnt);
	free(r->lo);
	free(r->hi);
}

/* Slide the reference on to the first @n writes. */
static void ref_advance(struct ref *r, u64 n)
{
	for (; r->n < n; r->n++) {
		u64 b = r->seq[r->n];
		u32 off = wr_off(r->n, b), end = off + wr_len(r->n, b);

		if (r->n >= r->window) {
			u64 o = r->seq[r->n - r->window];

			if (!--r->cnt[o]) {
				r->distinct--;
				r->bytes -= r->hi[o] - r->lo[o];
			}
		}
		if (!r->cnt[b]++) {
			if (++r->distinct > r->peak)
				r->peak = r->distinct;
			r->lo[b] = off;
			r->hi[b] = end;
			r->bytes += end - off;
		} else {
			r->bytes -= r->hi[b] - r->lo[b];
			r->lo[b] = min(r->lo[b], off);
			r->hi[b] = max(r->hi[b], end);
			r->bytes += r->hi[b] - r->lo[b];
		}
		if (r->bytes > r->bytes_peak)
			r->bytes_peak = r->bytes;
	}
}

/* Write @k of the sequence, into @buf. */
static void wr(struct rxb_wss *w, u64 k, u64 buf)
{
	rxb_wss_record(w, buf, wr_off(k, buf), wr_len(k, buf));
}

static u64 xorshift(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_bad_window(const void *arg)
{
	static const u32 bad[] = { 0, 1, 3, 100, 0x80000001 };
	struct rxb_wss w;
	unsigned int i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(rxb_wss_init(&w, bad[i]), -EINVAL);
}

/* Every allocation of rxb_wss_init() failing in turn: -ENOMEM, no leak. */
static void test_enomem(const void *arg)
{
	struct rxb_wss w;
	long k;
	int err;

	(void)arg;
	for (k = 0; k < 10; k++) {
		__atomic_store_n(&rxb_shim_alloc_fail_after, k, __ATOMIC_RELAXED);
		err = rxb_wss_init(&w, 64);
		__atomic_store_n(&rxb_shim_alloc_fail_after, -1, __ATOMIC_RELAXED);
		if (!err)
			break;
		EXPECT_EQ(err, -ENOMEM);
		EXPECT(!w.stage && !w.ring && !w.slots);
	}
	EXPECT(k > 0 && k < 10, "init made %ld allocations", k);
	if (!err)
		rxb_wss_fini(&w);
}

/* The tracker equals the reference. */
static bool same_as_ref(const struct rxb_wss *w, const struct ref *r)
{
	return READ_ONCE(w->distinct) == r->distinct &&
	       READ_ONCE(w->peak) == r->peak &&
	       READ_ONCE(w->bytes) == r->bytes &&
	       READ_ONCE(w->bytes_peak) == r->bytes_peak;
}

/*
 * One thread, windows from 2 to 1024, buffers from a few to three times
 * the window: after every write the tracker equals the reference over the
 * writes added (a multiple of RXB_WSS_BATCH, or all after a flush).
 */
static void test_exact_single(const void *arg)
{
	static const u32 windows[] = { 2, 4, 64, 1024 };
	const u64 n = 20000;
	u64 *seq = malloc(n * sizeof(*seq));
	unsigned int wi, ui;

	(void)arg;
	if (!seq)
		abort();
	for (wi = 0; wi < ARRAY_SIZE(windows); wi++) {
		u32 win = windows[wi];
		u64 universes[] = { 3, win / 2 + 1, win, 3 * (u64)win };

		for (ui = 0; ui < ARRAY_SIZE(universes); ui++) {
			u64 x = 0x9e3779b97f4a7c15ULL + wi * 131 + ui, k;
			u64 added = 0, staged = 0;
			struct rxb_wss w;
			struct ref r;
			long bad = 0;

			for (k = 0; k < n; k++)
				seq[k] = 1 + xorshift(&x) % universes[ui];
			if (!EXPECT_EQ(rxb_wss_init(&w, win), 0))
				continue;
			ref_init(&r, seq, universes[ui], win);
			for (k = 0; k < n; k++) {
				wr(&w, k, seq[k]);
				if (++staged == RXB_WSS_BATCH) {
					added = k + 1;
					staged = 0;
				}
				/* Now and then, and at the end: flush. */
				if (xorshift(&x) % 97 == 0 || k + 1 == n) {
					rxb_wss_flush(&w);
					added = k + 1;
					staged = 0;
				}
				ref_advance(&r, added);
				if (same_as_ref(&w, &r) || bad++)
					continue;
				EXPECT(0,
				       "window %u, %llu buffers, write %llu: %u %u %llu %llu, reference %u %u %llu %llu",
				       win, (unsigned long long)universes[ui],
				       (unsigned long long)k, w.distinct, w.peak,
				       (unsigned long long)w.bytes,
				       (unsigned long long)w.bytes_peak, r.distinct,
				       r.peak, (unsigned long long)r.bytes,
				       (unsigned long long)r.bytes_peak);
			}
			EXPECT_EQ(w.seq, n);
			EXPECT_EQ(bad, 0);
			rxb_wss_fini(&w);
			ref_fini(&r);
		}
	}
	free(seq);
}

struct nolock {
	struct rxb_wss w;
	int done;
};

static void *nolock_writer(void *p)
{
	struct nolock *nl = p;
	u64 i;

	rxb_shim_set_cpu(1);
	for (i = 1; i < RXB_WSS_BATCH; i++)
		wr(&nl->w, i, i);
	__atomic_store_n(&nl->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * No device-wide lock per write: with the tracker's lock held elsewhere,
 * a CPU still makes RXB_WSS_BATCH - 1 writes; the one that fills its batch
 * waits for the lock, then the batch is in the window.
 */
static void test_no_lock_per_write(const void *arg)
{
	static struct nolock nl;
	pthread_t th;
	double t0;

	(void)arg;
	memset(&nl, 0, sizeof(nl));
	if (!EXPECT_EQ(rxb_wss_init(&nl.w, 64), 0))
		return;
	spin_lock(&nl.w.lock);
	if (pthread_create(&th, NULL, nolock_writer, &nl))
		abort();
	/*
	 * A writer blocked on the lock never finishes: the bound only ends
	 * the wait, and is long enough for a writer starved of CPU (make
	 * test runs this stage niced beside two VMs) to finish.
	 */
	t0 = ktap_now();
	while (!__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE) &&
	       ktap_now() - t0 < 60)
		sched_yield();
	EXPECT(__atomic_load_n(&nl.done, __ATOMIC_ACQUIRE),
	       "%d writes blocked on the tracker's lock", RXB_WSS_BATCH - 1);
	EXPECT_EQ(nl.w.seq, 0);
	spin_unlock(&nl.w.lock);
	pthread_join(th, NULL);
	rxb_shim_set_cpu(0);
	/* Another CPU's stage: CPU 1's writes stay staged. */
	wr(&nl.w, RXB_WSS_BATCH, RXB_WSS_BATCH);
	EXPECT_EQ(nl.w.seq, 0);
	rxb_wss_flush(&nl.w);
	EXPECT_EQ(nl.w.seq, 1);
	rxb_wss_fini(&nl.w);
}

struct mt {
	struct rxb_wss w;
	u64 *seq;		/* the reference's order of the writes */
	u64 next;		/* next place in it */
	u64 per_thread, nbufs;
	bool exact;		/* each thread writes its own slice of seq */
	int stop;
};

struct mt_arg {
	struct mt *mt;
	int cpu;
};

/*
 * A NIC thread on its own CPU.  Exact case: buffers overlap between the
 * threads, the reference's order does not matter.  Bounded case: half the
 * writes go to 256 hot buffers, the rest anywhere; each takes its place in
 * the reference's order just before it is recorded.
 */
static void *mt_writer(void *p)
{
	const struct mt_arg *a = p;
	struct mt *mt = a->mt;
	u64 x = 0x2545f4914f6cdd1dULL * (a->cpu + 1), i, buf, k;

	rxb_shim_set_cpu(a->cpu);
	for (i = 0; i < mt->per_thread; i++) {
		if (mt->exact) {
			k = a->cpu * mt->per_thread + i;
			buf = 1 + (i * 7 + a->cpu * 1000) % mt->nbufs;
		} else {
			k = __atomic_fetch_add(&mt->next, 1, __ATOMIC_RELAXED);
			buf = xorshift(&x);
			buf = 1 + (buf & 1 ? (buf >> 1) % 256 : (buf >> 1) % mt->nbufs);
		}
		mt->seq[k] = buf;
		wr(&mt->w, k, buf);
	}
	if (mt->exact)
		rxb_wss_flush(&mt->w);
	return NULL;
}

/* ethtool -S: lock-free reads; peak never goes down, nothing exceeds the window. */
static void *mt_reader(void *p)
{
	struct mt *mt = p;
	u32 d, pk, last = 0;

	while (!__atomic_load_n(&mt->stop, __ATOMIC_ACQUIRE)) {
		d = READ_ONCE(mt->w.distinct);
		pk = READ_ONCE(mt->w.peak);
		EXPECT(d <= mt->w.window && pk <= mt->w.window,
		       "distinct %u peak %u window %u", d, pk, mt->w.window);
		EXPECT(pk >= last, "peak went down: %u after %u", pk, last);
		last = pk;
	}
	return NULL;
}

static void mt_run(struct mt *mt)
{
	struct mt_arg args[NTHREADS];
	pthread_t th[NTHREADS], rd;
	int i;

	mt->seq = calloc(NTHREADS * mt->per_thread, sizeof(*mt->seq));
	if (!mt->seq || pthread_create(&rd, NULL, mt_reader, mt))
		abort();
	for (i = 0; i < NTHREADS; i++) {
		args[i].mt = mt;
		args[i].cpu = i;
		if (pthread_create(&th[i], NULL, mt_writer, &args[i]))
			abort();
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&mt->stop, 1, __ATOMIC_RELEASE);
	pthread_join(rd, NULL);
}

/* The window holds every write and every thread flushed: exact. */
static void test_threads_exact(const void *arg)
{
	static struct mt mt;
	struct ref r;

	(void)arg;
	memset(&mt, 0, sizeof(mt));
	mt.exact = true;
	mt.per_thread = 8000;
	mt.nbufs = 5000;
	if (!EXPECT_EQ(rxb_wss_init(&mt.w, 1 << 16), 0))
		return;
	mt_run(&mt);
	ref_init(&r, mt.seq, mt.nbufs, 1 << 16);
	ref_advance(&r, NTHREADS * mt.per_thread);
	EXPECT_EQ(mt.w.seq, NTHREADS * mt.per_thread);
	EXPECT_EQ(mt.w.distinct, r.distinct);
	EXPECT_EQ(mt.w.peak, r.peak);
	EXPECT_EQ(mt.w.bytes, r.bytes);
	EXPECT_EQ(mt.w.bytes_peak, r.bytes_peak);
	rxb_wss_fini(&mt.w);
	ref_fini(&r);
	free(mt.seq);
}

/* A window smaller than the writes, nothing flushed: within the bound. */
static void test_threads_bounded(const void *arg)
{
	static struct mt mt;
	const long bound = 2 * NTHREADS * (RXB_WSS_BATCH - 1) + 2 * NTHREADS;
	u64 total;
	struct ref r;

	(void)arg;
	memset(&mt, 0, sizeof(mt));
	mt.per_thread = 100000;
	mt.nbufs = 20000;
	if (!EXPECT_EQ(rxb_wss_init(&mt.w, 1024), 0))
		return;
	mt_run(&mt);
	total = NTHREADS * mt.per_thread;
	ref_init(&r, mt.seq, mt.nbufs, 1024);
	ref_advance(&r, total);
	EXPECT(mt.w.seq + NTHREADS * (RXB_WSS_BATCH - 1) >= total &&
	       mt.w.seq <= total, "%llu of %llu writes added",
	       (unsigned long long)mt.w.seq, (unsigned long long)total);
	EXPECT(labs((long)mt.w.distinct - (long)r.distinct) <= bound,
	       "distinct %u, reference %u, bound %ld", mt.w.distinct,
	       r.distinct, bound);
	EXPECT(labs((long)mt.w.peak - (long)r.peak) <= bound,
	       "peak %u, reference %u, bound %ld", mt.w.peak, r.peak, bound);
	/* A write moves the bytes by at most the widest span, 2048 + 1500;
	 * no buffer spans more.
	 */
	EXPECT(llabs((long long)mt.w.bytes - (long long)r.bytes) <=
	       bound * 3548LL && mt.w.bytes <= mt.w.distinct * 3548ULL,
	       "bytes %llu, reference %llu, %u buffers",
	       (unsigned long long)mt.w.bytes, (unsigned long long)r.bytes,
	       mt.w.distinct);
	ktap_diag("distinct %u/%u, peak %u/%u, bytes %llu/%llu (tracker/ref), bound %ld",
		  mt.w.distinct, r.distinct, mt.w.peak, r.peak,
		  (unsigned long long)mt.w.bytes, (unsigned long long)r.bytes, bound);
	rxb_wss_fini(&mt.w);
	ref_fini(&r);
	free(mt.seq);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "wss:bad_window", test_bad_window, NULL },
		{ "wss:enomem", test_enomem, NULL },
		{ "wss:exact_single", test_exact_single, NULL },
		{ "wss:no_lock_per_write", test_no_lock_per_write, NULL },
		{ "wss:threads_exact", test_threads_exact, NULL },
		{ "wss:threads_bounded", test_threads_bounded, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
