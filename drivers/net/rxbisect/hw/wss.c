// SPDX-License-Identifier: GPL-2.0
/*
 * I/O working set tracker: distinct buffers among the NIC's last N writes,
 * and the bytes of them it wrote.
 *
 * A ring remembers which buffer each of the last @window writes went to and
 * a hash table (linear probing, backward-shift deletion) the sequence number
 * of each buffer's latest write.  When a write leaves the window, its buffer
 * leaves the set unless it was written again since.  Builds in userspace.
 *
 * No device-wide lock per write: the NIC writes from several CPUs at once
 * (every model, every DMA), and a lock per write would serialise them.
 * Each CPU stages its writes in a per-CPU batch of RXB_WSS_BATCH (B) and
 * adds the batch to the shared window under the lock when it is full:
 * one lock per B writes.  Readers (ethtool -S) take no lock.
 *
 * The window is exact for the writes added so far, in the order they were
 * added: each CPU's writes in its order, the CPUs' batches interleaved.
 * Against the exact count of the last @window writes in the order the NIC
 * made them, the error is bounded.  At most U = nr_cpu_ids * (B - 1)
 * writes are staged at any time.  The window and the exact one then
 * differ in at most 2U writes: writes made before the exact window began
 * but added after it began were staged at that moment (at most U), and
 * the added window reaches back before it only as far as writes made
 * since are still staged (at most U).  A write changes a distinct count
 * by at most one, so distinct and peak are within 2 * nr_cpu_ids * (B - 1)
 * of the exact ones (with 2 CPUs and B = 32: 124 buffers, in a window of
 * 16384 writes by default); bytes within that many times the largest span
 * written into one buffer.  A buffer's span is from the lowest to the
 * highest byte written since it entered the window, not only by the writes
 * still in it: for a buffer that holds one packet at a time, as most ring
 * models' do, the largest packet written there meanwhile; for one that
 * packets fill back to back (shRing-batched, a pipe's page), the bytes
 * filled.  A write is counted in the buffer it starts in, so one that runs
 * on into the next page of a pipe counts there too when a later write
 * starts in it.  A CPU that stops writing keeps up to B - 1
 * writes staged until it writes again; rxb_wss_flush() adds them now.
 *
 * Context: the NIC's, bottom halves disabled (the transmit path, the
 * engine, the soft hrtimer): the stage is per CPU and a flush may not be
 * interrupted by another on the same CPU.
 */
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_wss.h>

/**
 * rxb_wss_init() - set up a tracker.
 * @w: tracker.
 * @window: writes per window: a power of two, at least 2.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int rxb_wss_init(struct rxb_wss *w, u32 window)
{
	if (window < 2 || !is_power_of_2(window))
		return -EINVAL;
	spin_lock_init(&w->lock);
	w->window = window;
	w->seq = 0;
	w->distinct = 0;
	w->peak = 0;
	w->bytes = 0;
	w->bytes_peak = 0;
	w->stage = alloc_percpu(struct rxb_wss_stage);
	w->ring = kvcalloc(window, sizeof(*w->ring), GFP_KERNEL);
	w->slots = kvcalloc(2 * (size_t)window, sizeof(*w->slots), GFP_KERNEL);
	if (!w->stage || !w->ring || !w->slots) {
		rxb_wss_fini(w);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rxb_wss_fini() - free a tracker; staged writes are dropped.
 * @w: tracker.
 */
void rxb_wss_fini(struct rxb_wss *w)
{
	free_percpu(w->stage);
	kvfree(w->ring);
	kvfree(w->slots);
	w->stage = NULL;
	w->ring = NULL;
	w->slots = NULL;
}

static u32 rxb_wss_hash(const struct rxb_wss *w, u64 key)
{
	/* Fibonacci hashing: buffers are page-aligned, spread the bits. */
	return (u32)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (2 * w->window - 1);
}

static struct rxb_wss_slot *rxb_wss_find(struct rxb_wss *w, u64 key)
{
	u32 mask = 2 * w->window - 1, i = rxb_wss_hash(w, key);

	while (w->slots[i].key && w->slots[i].key != key)
		i = (i + 1) & mask;
	return &w->slots[i];
}

/* Remove @s, moving later entries of its probe run back (no tombstones). */
static void rxb_wss_delete(struct rxb_wss *w, struct rxb_wss_slot *s)
{
	u32 mask = 2 * w->window - 1, i = s - w->slots, j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if (!w->slots[j].key)
			break;
		k = rxb_wss_hash(w, w->slots[j].key);
		/* Move j to i unless its home k lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		w->slots[i] = w->slots[j];
		i = j;
	}
	w->slots[i].key = 0;
}

/* Add one write of @len bytes at @off of @buf to the window.  Under
 * @w->lock.
 */
static void rxb_wss_add(struct rxb_wss *w, u64 buf, u32 off, u32 len)
{
	struct rxb_wss_slot *s;
	u64 bytes = w->bytes;
	u32 pos;

	pos = w->seq & (w->window - 1);
	if (w->seq >= w->window) {
		/* The write leaving the window: its buffer leaves unless rewritten. */
		s = rxb_wss_find(w, w->ring[pos]);
		if (s->key && s->last == w->seq - w->window) {
			bytes -= s->hi - s->lo;
			rxb_wss_delete(w, s);
			WRITE_ONCE(w->distinct, w->distinct - 1);
		}
	}
	s = rxb_wss_find(w, buf);
	if (!s->key) {
		s->key = buf;
		s->lo = off;
		s->hi = off + len;
		bytes += len;
		WRITE_ONCE(w->distinct, w->distinct + 1);
		if (w->distinct > w->peak)
			WRITE_ONCE(w->peak, w->distinct);
	} else {
		bytes -= s->hi - s->lo;
		s->lo = min(s->lo, off);
		s->hi = max(s->hi, off + len);
		bytes += s->hi - s->lo;
	}
	WRITE_ONCE(w->bytes, bytes);
	if (bytes > w->bytes_peak)
		WRITE_ONCE(w->bytes_peak, bytes);
	s->last = w->seq;
	w->ring[pos] = buf;
	w->seq++;
}

/* Add the writes @st staged to the window and empty it. */
static void rxb_wss_add_staged(struct rxb_wss *w, struct rxb_wss_stage *st)
{
	u32 i;

	spin_lock(&w->lock);
	for (i = 0; i < st->n; i++)
		rxb_wss_add(w, st->buf[i], st->off[i], st->len[i]);
	spin_unlock(&w->lock);
	st->n = 0;
}

/**
 * rxb_wss_record() - the NIC wrote @len bytes at offset @off of buffer @buf.
 * @w: tracker.
 * @buf: the buffer's identity (e.g. its bus address >> PAGE_SHIFT); not 0.
 * @off: where the write began in the buffer.
 * @len: bytes written; @off + @len below 4 GiB.
 *
 * Context: bottom halves disabled.  Takes @w->lock once per RXB_WSS_BATCH
 * writes of this CPU.
 */
void rxb_wss_record(struct rxb_wss *w, u64 buf, u32 off, u32 len)
{
	struct rxb_wss_stage *st;

	lockdep_assert_in_softirq();
	st = get_cpu_ptr(w->stage);
	st->buf[st->n] = buf;
	st->off[st->n] = off;
	st->len[st->n++] = len;
	if (st->n == RXB_WSS_BATCH)
		rxb_wss_add_staged(w, st);
	put_cpu_ptr(w->stage);
}

/**
 * rxb_wss_flush() - add the writes this CPU staged to the window now.
 * @w: tracker.
 *
 * Context: bottom halves disabled.
 */
void rxb_wss_flush(struct rxb_wss *w)
{
	struct rxb_wss_stage *st;

	lockdep_assert_in_softirq();
	st = get_cpu_ptr(w->stage);
	if (st->n)
		rxb_wss_add_staged(w, st);
	put_cpu_ptr(w->stage);
}
