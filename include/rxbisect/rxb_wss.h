/* SPDX-License-Identifier: GPL-2.0 */
/*
 * I/O working set tracker of the emulated NIC.
 *
 * The I/O working set is "the memory areas that are DMAed by an I/O device
 * during some time interval" (thesis chapter 4).  The NIC records every
 * buffer it writes; the tracker reports how many distinct buffers were
 * written during the last @window writes, and how many bytes of them, in
 * O(1) per write and without a device-wide lock per write: each CPU stages
 * its writes and adds them to the window RXB_WSS_BATCH at a time.  The
 * count is exact for the writes added; wss.c states the bound on its error
 * against the exact count.
 */
#ifndef _RXB_WSS_H
#define _RXB_WSS_H

#include <linux/types.h>
#include <linux/spinlock.h>

/* Writes a CPU stages before it adds them to the window. */
#define RXB_WSS_BATCH	32

/**
 * struct rxb_wss_stage - one CPU's writes not yet in the window.
 * @n: writes staged.
 * @buf: their buffers, oldest first.
 * @off: where in its buffer each write began (bytes).
 * @len: bytes of each write.
 */
struct rxb_wss_stage {
	u32 n;
	u64 buf[RXB_WSS_BATCH];
	u32 off[RXB_WSS_BATCH];
	u32 len[RXB_WSS_BATCH];
};

/**
 * struct rxb_wss_slot - a buffer in the window.
 * @key: the buffer; 0: empty slot.
 * @last: window sequence number of its latest write.
 * @lo: lowest byte offset written since the buffer entered the window.
 * @hi: end of the highest byte written since then.
 */
struct rxb_wss_slot {
	u64 key;
	u64 last;
	u32 lo;
	u32 hi;
};

/**
 * struct rxb_wss - distinct buffers among the last @window writes.
 * @stage: per-CPU writes not yet in the window.
 * @lock: serialises the CPUs adding their staged writes (once per batch).
 * @window: writes the window spans; a power of two.
 * @seq: writes added to the window so far.
 * @ring: the buffer of each of the last @window writes added.
 * @slots: open-addressing table: buffer -> sequence number of its last
 *	write; 2 * @window entries.
 * @distinct: distinct buffers in the window; readers use READ_ONCE().
 * @peak: largest @distinct seen; readers use READ_ONCE().
 * @bytes: the bytes of those buffers the NIC wrote: per buffer, from @lo
 *	to @hi of its slot; readers use READ_ONCE().
 * @bytes_peak: largest @bytes seen; readers use READ_ONCE().
 */
struct rxb_wss {
	struct rxb_wss_stage __percpu *stage;
	spinlock_t lock;	/* the fields below */
	u32 window;
	u64 seq;
	u64 *ring;
	struct rxb_wss_slot *slots;
	u32 distinct;
	u32 peak;
	u64 bytes;
	u64 bytes_peak;
};

int rxb_wss_init(struct rxb_wss *w, u32 window);
void rxb_wss_fini(struct rxb_wss *w);
void rxb_wss_record(struct rxb_wss *w, u64 buf, u32 off, u32 len);
void rxb_wss_flush(struct rxb_wss *w);

#endif /* _RXB_WSS_H */
