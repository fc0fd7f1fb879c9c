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
 * no bus cost (rxb_nicmem_ptr()).  Bytes go to the host through the tier's
 * fetch engine: the NIC submits a fetch (rxb_nicmem_fetch_submit()), and
 * the engine completes it in its own context once the fetch latency has
 * passed: it copies the bytes, counts them, and calls the request's done
 * callback (which writes a done mark into host memory and raises an
 * interrupt).  Nobody waits for emulated time: the environment runs the
 * engine from a timer (rxb_nicmem_set_timer(), rxb_nicmem_fetch_run()).
 * Fetches complete in the order they were submitted: the latency is one
 * for every fetch of the tier.  Allocation fails (-ENOSPC, counted) when
 * the capacity would be exceeded: the caller drops the frame and counts
 * it there.
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
#include <linux/spinlock.h>
#include <rxbisect/rxb_desc.h>

struct rxb_nicmem_fetch;

/**
 * struct rxb_nicmem - an on-NIC memory tier.
 * @capacity: bytes, 0: the tier is absent (every allocation fails).
 * @fetch_ns: latency of a host fetch.
 * @now_ns: the NIC's clock.
 * @clock_arg: its argument.
 * @fe_lock: the fetch engine's queue.
 * @fe_head: fetches in flight, oldest first (due in that order).
 * @fe_tail: where the next one is linked.
 * @fe_arm: the environment's timer for the engine: call
 *	rxb_nicmem_fetch_run() in about @ns nanoseconds (NULL: the
 *	environment calls it when it likes).
 * @fe_arg: its argument.
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
	u64 (*now_ns)(void *arg);
	void *clock_arg;
	spinlock_t fe_lock;	/* the fetch engine's queue */
	struct rxb_nicmem_fetch *fe_head;
	struct rxb_nicmem_fetch **fe_tail;
	void (*fe_arm)(void *arg, u64 ns);
	void *fe_arg;
	atomic64_t held;
	atomic64_t peak;
	atomic64_t fetched;
	atomic64_t fetches;
	atomic64_t allocs;
	atomic64_t alloc_fails;
};

/**
 * struct rxb_nicmem_fetch - a fetch of the tier's engine; owned by the
 * submitter (no allocation on the fast path), which must not touch it
 * until its @done ran.
 * @next: the engine's queue.
 * @addr: NIC address of the piece.
 * @off: offset in the piece.
 * @src: or, for memory a NIC component keeps its bytes in itself
 *	(rxb_nicmem_reserve(): the header/data split's pages), the bytes
 *	(@addr and @off unused).
 * @dst: host destination (the DMA engine's view of a host buffer), or
 *	NULL for a read the NIC keeps (its TX path): nothing is copied.
 * @len: bytes.
 * @due_ns: when the data has arrived.
 * @done: called by the engine, in the NIC's context, once the bytes are
 *	at @dst: the submitter writes its done mark and raises its
 *	interrupt.  The request may be reused from then on.
 */
struct rxb_nicmem_fetch {
	struct rxb_nicmem_fetch *next;
	u64 addr;
	u32 off;
	const void *src;
	void *dst;
	u32 len;
	u64 due_ns;
	void (*done)(struct rxb_nicmem_fetch *req);
};

void rxb_nicmem_init(struct rxb_nicmem *nm, u64 capacity, u64 fetch_ns,
		     u64 (*now_ns)(void *arg), void *clock_arg);
void rxb_nicmem_fini(struct rxb_nicmem *nm);
int rxb_nicmem_alloc(struct rxb_nicmem *nm, u32 len, u64 *addr);
void rxb_nicmem_free(struct rxb_nicmem *nm, u64 addr);
void *rxb_nicmem_ptr(struct rxb_nicmem *nm, u64 addr);
void rxb_nicmem_set_timer(struct rxb_nicmem *nm,
			  void (*arm)(void *arg, u64 ns), void *arg);
void rxb_nicmem_fetch_submit(struct rxb_nicmem *nm,
			     struct rxb_nicmem_fetch *req);
bool rxb_nicmem_fetch_run(struct rxb_nicmem *nm);
void rxb_nicmem_fetch_flush(struct rxb_nicmem *nm);
bool rxb_nicmem_fetch_busy(struct rxb_nicmem *nm);
void rxb_nicmem_fetch_abort(struct rxb_nicmem *nm);
void rxb_nicmem_read(struct rxb_nicmem *nm, struct rxb_nicmem_counters *c);
int rxb_nicmem_reserve(struct rxb_nicmem *nm, u32 len);
void rxb_nicmem_unreserve(struct rxb_nicmem *nm, u32 len);

#endif /* _RXB_NICMEM_H */
