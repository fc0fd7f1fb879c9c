// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's on-NIC memory tier (include/rxbisect/rxb_nicmem.h).
 *
 * The region's capacity is an accounting limit: each piece is a kernel
 * allocation with a small header holding its length, made when the NIC
 * asks for it, so a 64 MiB tier costs host memory only for what it holds.
 * The NIC address of a piece is the address of its header.
 *
 * Fetch latency: the fetch engine queues each fetch with the time its bytes
 * arrive and completes it from the environment's timer once that time has
 * passed (rxb_nicmem_fetch_run(), the NIC's context): nobody busy-waits
 * for emulated time.  Counters are atomics of the tier, shared by
 * whatever model uses it: every user pays the same.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/limits.h>
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
 * @clock_arg: its argument.
 */
void rxb_nicmem_init(struct rxb_nicmem *nm, u64 capacity, u64 fetch_ns,
		     u64 (*now_ns)(void *arg), void *clock_arg)
{
	memset(nm, 0, sizeof(*nm));
	nm->capacity = capacity;
	nm->fetch_ns = fetch_ns;
	nm->now_ns = now_ns;
	nm->clock_arg = clock_arg;
	spin_lock_init(&nm->fe_lock);
	nm->fe_tail = &nm->fe_head;
}

/**
 * rxb_nicmem_set_timer() - the environment's timer for the fetch engine.
 * @nm: the tier, no fetch in flight.
 * @arm: call rxb_nicmem_fetch_run() in about @ns nanoseconds.
 * @arg: its argument.
 */
void rxb_nicmem_set_timer(struct rxb_nicmem *nm,
			  void (*arm)(void *arg, u64 ns), void *arg)
{
	nm->fe_arm = arm;
	nm->fe_arg = arg;
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
 * rxb_nicmem_fetch_submit() - the fetch engine: start a fetch.
 * @nm: the tier.
 * @req: the request: @addr, @off, @dst, @len and @done set; the piece is
 *	kept until @done ran.
 *
 * In the NIC's context.  The fetch completes in the engine's context once
 * the tier's fetch latency has passed, after every fetch submitted before
 * it (rxb_nicmem_fetch_run()).
 */
void rxb_nicmem_fetch_submit(struct rxb_nicmem *nm,
			     struct rxb_nicmem_fetch *req)
{
	bool first;

	req->next = NULL;
	req->due_ns = nm->now_ns(nm->clock_arg) + nm->fetch_ns;
	spin_lock(&nm->fe_lock);
	first = !nm->fe_head;
	*nm->fe_tail = req;
	nm->fe_tail = &req->next;
	spin_unlock(&nm->fe_lock);
	/* The queue is in due order: only a new head needs the timer. */
	if (first && nm->fe_arm)
		nm->fe_arm(nm->fe_arg, nm->fetch_ns);
}

static bool rxb_nicmem_fetch_due(struct rxb_nicmem *nm, u64 now);

/**
 * rxb_nicmem_fetch_run() - the fetch engine: complete the fetches due.
 * @nm: the tier.
 *
 * In the NIC's context, from one caller at a time (the environment's
 * timer): copies each due fetch's bytes to its destination, counts them,
 * and calls its done callback, oldest first; re-arms the timer for the
 * next one.
 *
 * Return: true while fetches are still in flight.
 */
bool rxb_nicmem_fetch_run(struct rxb_nicmem *nm)
{
	return rxb_nicmem_fetch_due(nm, nm->now_ns(nm->clock_arg));
}

/**
 * rxb_nicmem_fetch_flush() - the fetch engine: complete every fetch in
 *	flight now, due or not (a queue is being disabled: its buffers go
 *	back to the driver).
 * @nm: the tier.
 *
 * In the NIC's context.
 */
void rxb_nicmem_fetch_flush(struct rxb_nicmem *nm)
{
	rxb_nicmem_fetch_due(nm, U64_MAX);
}

/* Complete the fetches due at @now; true while others are in flight. */
static bool rxb_nicmem_fetch_due(struct rxb_nicmem *nm, u64 now)
{
	struct rxb_nicmem_fetch *done, *req, **pp;
	u64 next = 0;
	bool more;

	spin_lock(&nm->fe_lock);
	done = NULL;
	if (nm->fe_head && nm->fe_head->due_ns <= now) {
		/* Unlink the due prefix of the queue. */
		done = nm->fe_head;
		for (pp = &done->next; *pp && (*pp)->due_ns <= now;
		     pp = &(*pp)->next)
			;
		nm->fe_head = *pp;
		*pp = NULL;
		if (!nm->fe_head)
			nm->fe_tail = &nm->fe_head;
	}
	more = nm->fe_head;
	if (more)
		next = nm->fe_head->due_ns;
	spin_unlock(&nm->fe_lock);
	while (done) {
		req = done;
		done = req->next;
		if (req->dst && req->len && req->src) {
			memcpy(req->dst, req->src, req->len);
			atomic64_add(req->len, &nm->fetched);
			atomic64_inc(&nm->fetches);
		} else if (req->dst && req->len) {
			rxb_nicmem_copy(nm, req->addr, req->off, req->dst,
					req->len);
		} else {
			atomic64_inc(&nm->fetches);
		}
		req->done(req);
	}
	if (more && nm->fe_arm && now != U64_MAX)
		nm->fe_arm(nm->fe_arg, next > now ? next - now : 0);
	return more;
}

/**
 * rxb_nicmem_fetch_busy() - are fetches in flight?
 * @nm: the tier.
 *
 * Return: true when the engine holds a fetch.
 */
bool rxb_nicmem_fetch_busy(struct rxb_nicmem *nm)
{
	return READ_ONCE(nm->fe_head);
}

/**
 * rxb_nicmem_fetch_abort() - drop every fetch in flight, uncompleted (the
 *	context is being torn down: nothing runs, their owners free them).
 * @nm: the tier.
 */
void rxb_nicmem_fetch_abort(struct rxb_nicmem *nm)
{
	spin_lock(&nm->fe_lock);
	nm->fe_head = NULL;
	nm->fe_tail = &nm->fe_head;
	spin_unlock(&nm->fe_lock);
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
