/* SPDX-License-Identifier: GPL-2.0 */
/*
 * I/O working set tracker of the emulated NIC.
 *
 * The I/O working set is "the memory areas that are DMAed by an I/O device
 * during some time interval" (thesis chapter 4).  The NIC records every
 * buffer it writes; the tracker reports how many distinct buffers were
 * written during the last @window writes, exactly, in O(1) per write.
 */
#ifndef _RXB_WSS_H
#define _RXB_WSS_H

#include <linux/types.h>
#include <linux/spinlock.h>

/**
 * struct rxb_wss - distinct buffers among the last @window writes.
 * @lock: serialises writers (the NIC may write from several CPUs).
 * @window: writes the window spans; a power of two.
 * @seq: writes so far.
 * @ring: the buffer of each of the last @window writes.
 * @slots: open-addressing table: buffer -> sequence number of its last
 *	write; 2 * @window entries, key 0 is empty.
 * @distinct: distinct buffers in the window.
 * @peak: largest @distinct seen.
 */
struct rxb_wss {
	spinlock_t lock;	/* the fields below */
	u32 window;
	u64 seq;
	u64 *ring;
	struct rxb_wss_slot {
		u64 key;
		u64 last;
	} *slots;
	u32 distinct;
	u32 peak;
};

int rxb_wss_init(struct rxb_wss *w, u32 window);
void rxb_wss_fini(struct rxb_wss *w);
void rxb_wss_record(struct rxb_wss *w, u64 buf);

#endif /* _RXB_WSS_H */
