/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated NIC's on-NIC memory tier (drivers/net/rxbisect/nic_mem.c):
 * a NIC-owned memory region with its own capacity and a fetch latency, the
 * "elastic buffer" of CEIO and the NIC memory of nicmem's header/data
 * split.  A shared NIC component: a model reaches its context's tier with
 * rxb_hw_nicmem() and writes frames into it with rxb_hw_ops.nicmem_write.
 *
 * Memory is allocated by the NIC in pieces (rxb_nicmem_alloc()), each named
 * by a NIC address (an opaque u64).  The NIC writes into its own memory at
 * no bus cost (rxb_nicmem_ptr()); the host reads it back ("fetch") either
 * synchronously, waiting the fetch latency (rxb_nicmem_fetch()), or
 * asynchronously: rxb_nicmem_fetch_start() issues the read, and
 * rxb_nicmem_fetch_poll() completes it (copies the data) once the latency
 * has passed, so a poll loop can stop at the first fetch still in flight
 * and resume at its next poll.  Fetched bytes cross the interconnect and
 * are counted.  Allocation fails (-ENOSPC, counted) when the capacity
 * would be exceeded: the caller drops the frame and counts it there.
 *
 * A NIC component that keeps its bytes in memory of its own (the header/
 * data split's payload pages, nic_hds.c) reserves them in the tier
 * instead (rxb_nicmem_reserve()): the same capacity, counters and fetch
 * latency, shared with every other user of the tier.
 *
 * Every allocation must be freed by its owner (a model frees its pieces
 * in its destroy op); rxb_nicmem_fini() warns about bytes still held.
 * The same source builds in userspace (tools/testing/rxbisect).
 */
#ifndef _RXB_NICMEM_H
#define _RXB_NICMEM_H

#include <linux/types.h>

/**
 * struct rxb_nicmem_counters - the tier's counters (ethtool -S nicmem_*).
 * @capacity: bytes the tier holds at most.
 * @held: bytes allocated now.
 * @peak: the largest @held seen.
 * @fetched: bytes the host fetched.
 * @fetches: fetches completed.
 * @allocs: allocations that succeeded.
 * @alloc_fails: allocations refused because the tier was full.
 * @fetch_ns: the fetch latency.
 */
struct rxb_nicmem_counters {
	u64 capacity;
	u64 held;
	u64 peak;
	u64 fetched;
	u64 fetches;
	u64 allocs;
	u64 alloc_fails;
	u64 fetch_ns;
};

/**
 * struct rxb_nicmem - an on-NIC memory tier.
 * @capacity: bytes, 0: the tier is absent (every allocation fails).
 * @fetch_ns: latency of a host fetch.
 * @now_ns: the NIC's clock.
 * @held: bytes allocated (atomic: any CPU running the NIC allocates).
 * @peak: largest @held (racy maximum, a statistic).
 * @fetched: bytes fetched by the host.
 * @fetches: fetches completed.
 * @allocs: successful allocations.
 * @alloc_fails: refused allocations.
 */
struct rxb_nicmem {
	u64 capacity;
	u64 fetch_ns;
	u64 (*now_ns)(void);
	atomic64_t held;
	atomic64_t peak;
	atomic64_t fetched;
	atomic64_t fetches;
	atomic64_t allocs;
	atomic64_t alloc_fails;
};

/**
 * struct rxb_nicmem_fetch - an asynchronous fetch in flight; owned by the
 * caller (no allocation on the fast path).
 * @addr: NIC address of the piece.
 * @off: offset in the piece.
 * @dst: host destination.
 * @len: bytes.
 * @due_ns: when the data arrives.
 */
struct rxb_nicmem_fetch {
	u64 addr;
	u32 off;
	void *dst;
	u32 len;
	u64 due_ns;
};

void rxb_nicmem_init(struct rxb_nicmem *nm, u64 capacity, u64 fetch_ns,
		     u64 (*now_ns)(void));
void rxb_nicmem_fini(struct rxb_nicmem *nm);
int rxb_nicmem_alloc(struct rxb_nicmem *nm, u32 len, u64 *addr);
void rxb_nicmem_free(struct rxb_nicmem *nm, u64 addr);
void *rxb_nicmem_ptr(struct rxb_nicmem *nm, u64 addr);
void rxb_nicmem_fetch(struct rxb_nicmem *nm, u64 addr, u32 off, void *dst,
		      u32 len);
void rxb_nicmem_fetch_start(struct rxb_nicmem *nm, struct rxb_nicmem_fetch *req,
			    u64 addr, u32 off, void *dst, u32 len);
bool rxb_nicmem_fetch_poll(struct rxb_nicmem *nm, struct rxb_nicmem_fetch *req);
void rxb_nicmem_read(struct rxb_nicmem *nm, struct rxb_nicmem_counters *c);
int rxb_nicmem_reserve(struct rxb_nicmem *nm, u32 len);
void rxb_nicmem_unreserve(struct rxb_nicmem *nm, u32 len);
void rxb_nicmem_fetch_wait(struct rxb_nicmem *nm, u32 len);

#endif /* _RXB_NICMEM_H */
