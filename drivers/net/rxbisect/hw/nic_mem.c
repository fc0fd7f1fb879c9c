// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's on-NIC memory tier (include/rxbisect/rxb_nicmem.h).
 *
 * The region's capacity is an accounting limit: each piece is a kernel
 * allocation with a small header holding its length, made when the NIC
 * asks for it, so a 64 MiB tier costs host memory only for what it holds.
 * The NIC address of a piece is the address of its header.
 *
 * Fetch latency: a synchronous fetch busy-waits the latency on the NIC's
 * clock before it copies (the CPU stalls on a read across the bus); an
 * asynchronous fetch records when it completes and copies when polled
 * after that.  Counters are atomics of the tier, shared by whatever model
 * uses it: every user pays the same.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rxbisect/rxb_nicmem.h>

struct rxb_nicmem_piece {
	u32 len;
	u8 data[] __aligned(8);
};

static struct rxb_nicmem_piece *rxb_nicmem_piece(u64 addr)
{
	return (struct rxb_nicmem_piece *)(uintptr_t)addr;
}

/**
 * rxb_nicmem_init() - power on a tier, empty.
 * @nm: the tier.
 * @capacity: bytes, 0 for none.
 * @fetch_ns: latency of a host fetch.
 * @now_ns: the NIC's monotonic clock.
 */
void rxb_nicmem_init(struct rxb_nicmem *nm, u64 capacity, u64 fetch_ns,
		     u64 (*now_ns)(void))
{
	memset(nm, 0, sizeof(*nm));
	nm->capacity = capacity;
	nm->fetch_ns = fetch_ns;
	nm->now_ns = now_ns;
}

/**
 * rxb_nicmem_fini() - power off a tier.
 * @nm: the tier; its users freed every piece.
 */
void rxb_nicmem_fini(struct rxb_nicmem *nm)
{
	WARN_ON(atomic64_read(&nm->held));
}

/* Take @len bytes of the capacity; on success return the new held count
 * (the peak is the caller's to update), else -ENOSPC, counted.
 */
static s64 rxb_nicmem_take(struct rxb_nicmem *nm, u32 len)
{
	s64 held;

	/* Exact: no transient over-count refuses another allocation. */
	held = atomic64_read(&nm->held);
	do {
		if (!len || held + len > (s64)nm->capacity) {
			atomic64_inc(&nm->alloc_fails);
			return -ENOSPC;
		}
	} while (!atomic64_try_cmpxchg(&nm->held, &held, held + len));
	return held + len;
}

static void rxb_nicmem_took(struct rxb_nicmem *nm, s64 held)
{
	s64 peak = atomic64_read(&nm->peak);

	while (held > peak && !atomic64_try_cmpxchg(&nm->peak, &peak, held))
		;
	atomic64_inc(&nm->allocs);
}

/**
 * rxb_nicmem_alloc() - allocate a piece of NIC memory.
 * @nm: the tier.
 * @len: bytes, at least 1.
 * @addr: set to the piece's NIC address.
 *
 * Any context (atomic allocation).
 *
 * Return: 0; -ENOSPC when the tier lacks room (counted in alloc_fails);
 * -ENOMEM when the host has no memory for the emulation (counted too).
 */
int rxb_nicmem_alloc(struct rxb_nicmem *nm, u32 len, u64 *addr)
{
	struct rxb_nicmem_piece *p;
	s64 held;

	held = rxb_nicmem_take(nm, len);
	if (held < 0)
		return held;
	p = kmalloc(sizeof(*p) + len, GFP_ATOMIC | __GFP_NOWARN);
	if (!p) {
		atomic64_sub(len, &nm->held);
		atomic64_inc(&nm->alloc_fails);
		return -ENOMEM;
	}
	p->len = len;
	rxb_nicmem_took(nm, held);
	*addr = (uintptr_t)p;
	return 0;
}

/**
 * rxb_nicmem_reserve() - take capacity for bytes a NIC component keeps in
 *	memory of its own (counted as an allocation).
 * @nm: the tier.
 * @len: bytes, at least 1.
 *
 * Any context.
 *
 * Return: 0, or -ENOSPC when the tier lacks room (counted in alloc_fails).
 */
int rxb_nicmem_reserve(struct rxb_nicmem *nm, u32 len)
{
	s64 held = rxb_nicmem_take(nm, len);

	if (held < 0)
		return held;
	rxb_nicmem_took(nm, held);
	return 0;
}

/**
 * rxb_nicmem_unreserve() - give back what rxb_nicmem_reserve() took.
 * @nm: the tier.
 * @len: the reservation's bytes.
 */
void rxb_nicmem_unreserve(struct rxb_nicmem *nm, u32 len)
{
	atomic64_sub(len, &nm->held);
}

/**
 * rxb_nicmem_fetch_wait() - a synchronous host fetch of @len reserved
 *	bytes: wait the latency and count the fetch; the caller copies.
 * @nm: the tier.
 * @len: bytes fetched.
 */
void rxb_nicmem_fetch_wait(struct rxb_nicmem *nm, u32 len)
{
	u64 due = nm->now_ns() + nm->fetch_ns;

	while (nm->fetch_ns && nm->now_ns() < due)
		;
	atomic64_add(len, &nm->fetched);
	atomic64_inc(&nm->fetches);
}

/**
 * rxb_nicmem_free() - free a piece.
 * @nm: the tier.
 * @addr: its NIC address.
 */
void rxb_nicmem_free(struct rxb_nicmem *nm, u64 addr)
{
	struct rxb_nicmem_piece *p = rxb_nicmem_piece(addr);

	atomic64_sub(p->len, &nm->held);
	kfree(p);
}

/**
 * rxb_nicmem_ptr() - the NIC's own access to a piece (no bus crossed).
 * @nm: the tier.
 * @addr: the piece's NIC address.
 *
 * Return: its first byte.
 */
void *rxb_nicmem_ptr(struct rxb_nicmem *nm, u64 addr)
{
	/* A tier without capacity has no piece to access. */
	WARN_ON_ONCE(!nm->capacity);
	return rxb_nicmem_piece(addr)->data;
}

static void rxb_nicmem_copy(struct rxb_nicmem *nm, u64 addr, u32 off,
			    void *dst, u32 len)
{
	struct rxb_nicmem_piece *p = rxb_nicmem_piece(addr);

	if (WARN_ON(off > p->len || len > p->len - off))
		return;
	memcpy(dst, p->data + off, len);
	atomic64_add(len, &nm->fetched);
	atomic64_inc(&nm->fetches);
}

/**
 * rxb_nicmem_fetch() - synchronous host fetch: wait the latency, copy.
 * @nm: the tier.
 * @addr: the piece.
 * @off: offset in it.
 * @dst: host destination.
 * @len: bytes; @off + @len within the piece.
 */
void rxb_nicmem_fetch(struct rxb_nicmem *nm, u64 addr, u32 off, void *dst,
		      u32 len)
{
	u64 due = nm->now_ns() + nm->fetch_ns;

	while (nm->fetch_ns && nm->now_ns() < due)
		;
	rxb_nicmem_copy(nm, addr, off, dst, len);
}

/**
 * rxb_nicmem_fetch_start() - asynchronous host fetch: issue it.
 * @nm: the tier.
 * @req: the caller's request, filled; completed by rxb_nicmem_fetch_poll().
 * @addr: the piece (kept until the fetch completes).
 * @off: offset in it.
 * @dst: host destination.
 * @len: bytes.
 */
void rxb_nicmem_fetch_start(struct rxb_nicmem *nm, struct rxb_nicmem_fetch *req,
			    u64 addr, u32 off, void *dst, u32 len)
{
	req->addr = addr;
	req->off = off;
	req->dst = dst;
	req->len = len;
	req->due_ns = nm->now_ns() + nm->fetch_ns;
}

/**
 * rxb_nicmem_fetch_poll() - asynchronous host fetch: complete it if due.
 * @nm: the tier.
 * @req: a request issued and not yet completed.
 *
 * Return: true when the data is at its destination (the request is done),
 * false while it is in flight.
 */
bool rxb_nicmem_fetch_poll(struct rxb_nicmem *nm, struct rxb_nicmem_fetch *req)
{
	if (nm->now_ns() < req->due_ns)
		return false;
	rxb_nicmem_copy(nm, req->addr, req->off, req->dst, req->len);
	return true;
}

/**
 * rxb_nicmem_read() - read the tier's counters.
 * @nm: the tier.
 * @c: filled.
 */
void rxb_nicmem_read(struct rxb_nicmem *nm, struct rxb_nicmem_counters *c)
{
	c->capacity = nm->capacity;
	c->fetch_ns = nm->fetch_ns;
	c->held = atomic64_read(&nm->held);
	c->peak = atomic64_read(&nm->peak);
	c->fetched = atomic64_read(&nm->fetched);
	c->fetches = atomic64_read(&nm->fetches);
	c->allocs = atomic64_read(&nm->allocs);
	c->alloc_fails = atomic64_read(&nm->alloc_fails);
}
