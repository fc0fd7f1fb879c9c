// SPDX-License-Identifier: GPL-2.0
/* LLC model with DDIO; see llc.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>

#include "llc.h"

#define DIRTY	BIT_ULL(63)

int llc_init(struct llc *c, u64 bytes, u32 ways, u32 ddio,
	     bool migrate)
{
	u64 lines = bytes / LLC_LINE;

	memset(c, 0, sizeof(*c));
	if (!ways || ways > 64 || ddio > ways || lines < ways)
		return -EINVAL;
	c->nsets = lines / ways;
	c->ways = ways;
	c->ddio = ddio;
	c->migrate = migrate;
	/* Tags, then the stamps and the most recently used way (u32 each). */
	c->stride = ways + (ways + 2) / 2;
	c->blk = calloc((size_t)c->nsets * c->stride, sizeof(*c->blk));
	return c->blk ? 0 : -ENOMEM;
}

void llc_fini(struct llc *c)
{
	free(c->blk);
	c->blk = NULL;
}

/*
 * Set of a line: the low bits XORed with the next ones, as the slice hash
 * of real LLCs spreads page-aligned buffers; contiguous lines still map to
 * distinct sets.
 */
static inline u64 *llc_set(const struct llc *c, u64 line)
{
	u64 h = line ^ (line >> 15) ^ (line >> 30);
	u32 set = (c->nsets & (c->nsets - 1)) ? h % c->nsets :
		       h & (c->nsets - 1);

	return c->blk + (size_t)set * c->stride;
}

static inline u32 *llc_stamps(const struct llc *c, u64 *set)
{
	return (u32 *)(set + c->ways);
}

static inline u32 *llc_mru(const struct llc *c, u64 *set)
{
	return llc_stamps(c, set) + c->ways;
}

/* The way holding @key: the most recently used one first, as the core and
 * the Tx engine mostly read a line soon after the NIC wrote it.
 */
static inline int llc_find(const struct llc *c, u64 *set, u64 key)
{
	u32 w = *llc_mru(c, set);

	if ((set[w] & ~DIRTY) == key)
		return w;
	for (w = 0; w < c->ways; w++)
		if ((set[w] & ~DIRTY) == key)
			return w;
	return -1;
}

static inline void llc_touch(struct llc *c, u64 *set, u32 w)
{
	llc_stamps(c, set)[w] = ++c->clock;
	*llc_mru(c, set) = w;
}

/* Least recently used (or invalid) way among [@lo, @hi) of a set. */
static inline u32 llc_victim(const struct llc *c, u64 *set, u32 lo, u32 hi)
{
	const u32 *st = llc_stamps(c, set);
	u32 w, best = lo, now = c->clock;

	for (w = lo; w < hi; w++) {
		if (!set[w])
			return w;
		/* Unsigned age survives the stamp wrapping around. */
		if (now - st[w] > now - st[best])
			best = w;
	}
	return best;
}

static inline void llc_fill(struct llc *c, u64 *set, u32 w,
			    u64 key, bool dirty)
{
	if (set[w] & DIRTY)
		c->st.mem_wr++;
	set[w] = key | (dirty ? DIRTY : 0);
	llc_touch(c, set, w);
}

bool llc_dma_write(struct llc *c, u64 addr)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line);
	int w = llc_find(c, set, line + 1);

	c->st.dma_wr++;
	if (!c->ddio) {
		/* DDIO off: the line goes to DRAM; a cached copy is stale. */
		if (w >= 0)
			set[w] = 0;
		c->st.mem_wr++;
		return false;
	}
	if (w >= 0) {
		/* Write-update in place, whichever way holds the line. */
		set[w] |= DIRTY;
		llc_touch(c, set, w);
		c->st.dma_wr_hit++;
		return true;
	}
	/* Full-line write: allocate without reading DRAM, I/O ways only. */
	llc_fill(c, set, llc_victim(c, set, 0, c->ddio), line + 1, true);
	return false;
}

bool llc_dma_read(struct llc *c, u64 addr)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line);

	c->st.dma_rd++;
	if (llc_find(c, set, line + 1) >= 0) {
		c->st.dma_rd_hit++;
		return true;
	}
	c->st.mem_rd++;
	return false;
}

bool llc_cpu(struct llc *c, u64 addr, bool write)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line);
	int w = llc_find(c, set, line + 1);

	c->st.cpu++;
	if (w >= 0) {
		c->st.cpu_hit++;
		if (write)
			set[w] |= DIRTY;
		llc_touch(c, set, w);
		return true;
	}
	c->st.mem_rd++;
	llc_fill(c, set, llc_victim(c, set, 0, c->ways), line + 1, write);
	return false;
}

bool llc_cpu_io(struct llc *c, u64 addr, bool write)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line);
	int w = llc_find(c, set, line + 1);
	bool dirty;

	c->st.cpu++;
	if (w >= 0) {
		c->st.cpu_hit++;
		if (c->migrate && (u32)w < c->ddio && c->ddio < c->ways) {
			/* Back from L2 into an ordinary way (--migrate). */
			dirty = (set[w] & DIRTY) || write;
			set[w] = 0;
			llc_fill(c, set, llc_victim(c, set, c->ddio, c->ways),
				 line + 1, dirty);
			return true;
		}
		if (write)
			set[w] |= DIRTY;
		llc_touch(c, set, w);
		return true;
	}
	/*
	 * Filled into L2, not the LLC.  A dirty line leaves L2 for DRAM
	 * before the NIC writes the buffer again (assumption: not re-inserted
	 * into the LLC).
	 */
	c->st.mem_rd++;
	if (write)
		c->st.mem_wr++;
	return false;
}

void llc_warm(struct llc *c, u64 addr)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line);
	u32 lo = c->ddio < c->ways ? c->ddio : 0, w;

	if (llc_find(c, set, line + 1) >= 0)
		return;
	w = llc_victim(c, set, lo, c->ways);
	set[w] = line + 1;
	llc_touch(c, set, w);
}

bool llc_present(const struct llc *c, u64 addr)
{
	u64 line = addr >> LLC_LINE_SHIFT, *set = llc_set(c, line), w;

	for (w = 0; w < c->ways; w++)
		if ((set[w] & ~DIRTY) == line + 1)
			return true;
	return false;
}
