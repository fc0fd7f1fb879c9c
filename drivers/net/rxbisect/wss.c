// SPDX-License-Identifier: GPL-2.0
/*
 * I/O working set tracker: distinct buffers among the NIC's last N writes.
 *
 * A ring remembers which buffer each of the last @window writes went to and
 * a hash table (linear probing, backward-shift deletion) the sequence number
 * of each buffer's latest write.  When a write leaves the window, its buffer
 * leaves the set unless it was written again since.  Builds in userspace.
 */
#include <linux/errno.h>
#include <linux/log2.h>
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
	w->ring = kvcalloc(window, sizeof(*w->ring), GFP_KERNEL);
	w->slots = kvcalloc(2 * (size_t)window, sizeof(*w->slots), GFP_KERNEL);
	if (!w->ring || !w->slots) {
		rxb_wss_fini(w);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rxb_wss_fini() - free a tracker.
 * @w: tracker.
 */
void rxb_wss_fini(struct rxb_wss *w)
{
	kvfree(w->ring);
	kvfree(w->slots);
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

/**
 * rxb_wss_record() - the NIC wrote buffer @buf.
 * @w: tracker.
 * @buf: the buffer's identity (e.g. its bus address >> PAGE_SHIFT); not 0.
 */
void rxb_wss_record(struct rxb_wss *w, u64 buf)
{
	struct rxb_wss_slot *s;
	u32 pos;

	spin_lock(&w->lock);
	pos = w->seq & (w->window - 1);
	if (w->seq >= w->window) {
		/* The write leaving the window: its buffer leaves unless rewritten. */
		s = rxb_wss_find(w, w->ring[pos]);
		if (s->key && s->last == w->seq - w->window) {
			rxb_wss_delete(w, s);
			/* Readers (ethtool) use READ_ONCE() without the lock. */
			WRITE_ONCE(w->distinct, w->distinct - 1);
		}
	}
	s = rxb_wss_find(w, buf);
	if (!s->key) {
		s->key = buf;
		WRITE_ONCE(w->distinct, w->distinct + 1);
		if (w->distinct > w->peak)
			WRITE_ONCE(w->peak, w->distinct);
	}
	s->last = w->seq;
	w->ring[pos] = buf;
	w->seq++;
	spin_unlock(&w->lock);
}
