// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the on-NIC memory tier (drivers/net/rxbisect/nic_mem.c): the
 * capacity is enforced and accounted (held, peak, failed allocations),
 * the fetch engine completes a fetch only once the latency has passed, in
 * order, from its own run (nobody waits), fetched bytes are counted, and
 * concurrent allocators never exceed the capacity (run under TSAN too).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_nicmem.h>

#include "ktap.h"
#include "shim/shim.h"

static u64 fake_ns;

static u64 fake_clock(void *arg __always_unused)
{
	return __atomic_load_n(&fake_ns, __ATOMIC_RELAXED);
}

static void test_capacity(const void __always_unused *arg)
{
	struct rxb_nicmem nm;
	struct rxb_nicmem_counters c;
	u64 a[5];
	int i;

	rxb_nicmem_init(&nm, 4096, 0, fake_clock, NULL);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(rxb_nicmem_alloc(&nm, 1000, &a[i]), 0);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 1000, &a[4]), -ENOSPC);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 0, &a[4]), -ENOSPC);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.capacity, 4096);
	EXPECT_EQ(c.held, 4000);
	EXPECT_EQ(c.peak, 4000);
	EXPECT_EQ(c.allocs, 4);
	EXPECT_EQ(c.alloc_fails, 2);
	rxb_nicmem_free(&nm, a[1]);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 96, &a[1]), 0);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 1000, &a[4]), 0);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.held, 4096);
	for (i = 0; i < 5; i++)
		rxb_nicmem_free(&nm, a[i]);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.held, 0);
	EXPECT_EQ(c.peak, 4096);
	rxb_nicmem_fini(&nm);
}

static void test_absent(const void __always_unused *arg)
{
	struct rxb_nicmem nm;
	struct rxb_nicmem_counters c;
	u64 a;

	rxb_nicmem_init(&nm, 0, 1000, fake_clock, NULL);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 1, &a), -ENOSPC);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.alloc_fails, 1);
	EXPECT_EQ(c.held, 0);
	rxb_nicmem_fini(&nm);
}

static void test_enomem(const void __always_unused *arg)
{
	struct rxb_nicmem nm;
	struct rxb_nicmem_counters c;
	u64 a;

	rxb_nicmem_init(&nm, 1 << 20, 0, fake_clock, NULL);
	rxb_shim_alloc_fail_after = 0;
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 100, &a), -ENOMEM);
	rxb_shim_alloc_fail_after = -1;
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.alloc_fails, 1);
	EXPECT_EQ(c.held, 0);
	rxb_nicmem_fini(&nm);
}

/* The fetch engine's timer, as an environment arms it. */
static int armed;
static u64 armed_ns;

static void arm_timer(void *arg, u64 ns)
{
	(void)arg;
	armed++;
	armed_ns = ns;
}

static int done_order[4], ndone;

static void fetch_done(struct rxb_nicmem_fetch *req)
{
	done_order[ndone++] = (int)req->off;
}

/*
 * The fetch engine: a fetch completes only once the latency has passed,
 * in submission order, from the engine's run (the environment's timer),
 * never inside the submit; its bytes are copied then and counted; a
 * submit arms the timer for a new head only, a run for what is left.
 */
static void test_fetch_engine(const void __always_unused *arg)
{
	struct rxb_nicmem_fetch req[3];
	struct rxb_nicmem_counters c;
	struct rxb_nicmem nm;
	char dst[3][64];
	u64 a;
	int i;

	fake_ns = 1000;
	armed = 0;
	ndone = 0;
	rxb_nicmem_init(&nm, 1 << 20, 1000, fake_clock, NULL);
	rxb_nicmem_set_timer(&nm, arm_timer, NULL);
	EXPECT_EQ(rxb_nicmem_alloc(&nm, 192, &a), 0);
	for (i = 0; i < 192; i++)
		((u8 *)rxb_nicmem_ptr(&nm, a))[i] = (u8)i;
	memset(dst, 0, sizeof(dst));
	for (i = 0; i < 3; i++) {
		req[i] = (struct rxb_nicmem_fetch){
			.addr = a, .off = 64 * i, .dst = dst[i], .len = 64,
			.done = fetch_done,
		};
		rxb_nicmem_fetch_submit(&nm, &req[i]);
		fake_ns += 100;
	}
	EXPECT_EQ(armed, 1);
	EXPECT_EQ(armed_ns, 1000);
	EXPECT(rxb_nicmem_fetch_busy(&nm));
	/* Not due yet: nothing moves. */
	fake_ns = 1999;
	EXPECT(rxb_nicmem_fetch_run(&nm));
	EXPECT_EQ(ndone, 0);
	EXPECT_EQ(dst[0][0], 0);
	/* Re-armed for what is left of the head's latency. */
	EXPECT_EQ(armed, 2);
	EXPECT_EQ(armed_ns, 1);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.fetched, 0);
	/* The first two are due; the timer is re-armed for the third. */
	fake_ns = 2100;
	EXPECT(rxb_nicmem_fetch_run(&nm));
	EXPECT_EQ(ndone, 2);
	EXPECT_EQ(armed, 3);
	EXPECT_EQ(armed_ns, 100);
	EXPECT_EQ((u8)dst[0][63], 63);
	EXPECT_EQ((u8)dst[1][0], 64);
	EXPECT_EQ(dst[2][0], 0);
	fake_ns = 2200;
	EXPECT(!rxb_nicmem_fetch_run(&nm));
	EXPECT(!rxb_nicmem_fetch_busy(&nm));
	EXPECT_EQ(ndone, 3);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(done_order[i], 64 * i);
	EXPECT_EQ((u8)dst[2][63], 191);
	rxb_nicmem_read(&nm, &c);
	EXPECT_EQ(c.fetched, 192);
	EXPECT_EQ(c.fetches, 3);
	/* A fetch submitted and aborted (teardown) never completes. */
	rxb_nicmem_fetch_submit(&nm, &req[0]);
	rxb_nicmem_fetch_abort(&nm);
	fake_ns += 10000;
	EXPECT(!rxb_nicmem_fetch_run(&nm));
	EXPECT_EQ(ndone, 3);
	rxb_nicmem_free(&nm, a);
	rxb_nicmem_fini(&nm);
}

#define NTHREADS	4
#define CAP		(64 * 1024)
/*
 * Slots per thread: a thread holds about half of them, 128 buffers of
 * 814 B on average, more than CAP, so each thread meets the limit even
 * when the scheduler runs the threads one after the other (32 slots left
 * the refusals to how the threads overlapped: none in one CI run).
 */
#define SLOTS		256

struct mt {
	struct rxb_nicmem nm;
	pthread_barrier_t go;
	int over;
};

static void *mt_fn(void *arg)
{
	struct mt *mt = arg;
	u64 held[SLOTS] = { 0 }, x = (uintptr_t)&held;
	int i, k;

	pthread_barrier_wait(&mt->go);
	for (i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = x % SLOTS;
		if (held[k]) {
			rxb_nicmem_free(&mt->nm, held[k]);
			held[k] = 0;
		} else if (!rxb_nicmem_alloc(&mt->nm, 64 + x % 1500, &held[k])) {
			if (atomic64_read(&mt->nm.held) > CAP)
				__atomic_store_n(&mt->over, 1, __ATOMIC_RELAXED);
		}
	}
	for (k = 0; k < SLOTS; k++)
		if (held[k])
			rxb_nicmem_free(&mt->nm, held[k]);
	return NULL;
}

static void test_threads(const void __always_unused *arg)
{
	static struct mt mt;
	struct rxb_nicmem_counters c;
	pthread_t t[NTHREADS];
	int i;

	rxb_nicmem_init(&mt.nm, CAP, 0, fake_clock, NULL);
	pthread_barrier_init(&mt.go, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, mt_fn, &mt);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	rxb_nicmem_read(&mt.nm, &c);
	EXPECT_EQ(c.held, 0);
	EXPECT(c.peak <= CAP, "peak %llu", (unsigned long long)c.peak);
	EXPECT(c.alloc_fails > 0);
	EXPECT_EQ(mt.over, 0);
	ktap_diag("allocs %llu, refused %llu, peak %llu of %u",
		  (unsigned long long)c.allocs, (unsigned long long)c.alloc_fails,
		  (unsigned long long)c.peak, CAP);
	pthread_barrier_destroy(&mt.go);
	rxb_nicmem_fini(&mt.nm);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "nicmem:capacity", test_capacity, NULL },
		{ "nicmem:absent", test_absent, NULL },
		{ "nicmem:enomem", test_enomem, NULL },
		{ "nicmem:fetch_engine", test_fetch_engine, NULL },
		{ "nicmem:threads", test_threads, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
