/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Last-level cache model: set-associative, LRU, with DDIO.
 *
 * DMA writes update a line wherever it is cached (write-update); a DMA
 * write that misses allocates only in the first @ddio ways of its set
 * (Intel DDIO's "I/O ways", write-allocate).  With @ddio 0 (DDIO off) every
 * DMA write goes to DRAM and invalidates the cached copy.  DMA reads are
 * served from the LLC on a hit and from DRAM otherwise, without allocating.
 *
 * The core's accesses come in two kinds.  Application data
 * (llc_cpu()) allocates in any way on a miss.  Packet lines
 * (llc_cpu_io()) stay where they are on a hit, and on a miss are filled
 * into the core's private L2 only, as the non-inclusive LLC of Skylake-SP
 * and later parts does: a packet line enters the LLC only through a DMA
 * write, so I/O lines never spread beyond the DDIO ways by being missed on.
 * With @migrate (not the default), a core hit in an I/O way moves the line
 * to an ordinary way.  Evicting a dirty line is a write-back to DRAM.
 */
#ifndef _RXB_SIM_LLC_H
#define _RXB_SIM_LLC_H

#include <stdbool.h>
#include <linux/bitops.h>
#include <linux/types.h>

#define LLC_LINE_SHIFT	6
#define LLC_LINE	BIT(LLC_LINE_SHIFT)

struct llc_stats {
	u64 dma_wr, dma_wr_hit;	/* DMA line writes, of which hits */
	u64 dma_rd, dma_rd_hit;	/* DMA line reads, of which hits */
	u64 cpu, cpu_hit;		/* CPU line accesses, of which hits */
	u64 mem_rd, mem_wr;	/* DRAM line reads, writes */
};

/*
 * Each set is one block, for locality: @ways tags (line + 1, 0: invalid;
 * bit 63: dirty), then @ways 32-bit LRU stamps.
 */
struct llc {
	u32 nsets;
	u32 ways;
	u32 ddio;
	u32 stride;	/* u64 words per set */
	bool migrate;
	u32 clock;		/* LRU stamp source */
	u64 *blk;
	struct llc_stats st;
};

int llc_init(struct llc *c, u64 bytes, u32 ways, u32 ddio,
	     bool migrate);
void llc_fini(struct llc *c);
/* Each returns true on a hit; @addr is a byte address. */
bool llc_dma_write(struct llc *c, u64 addr);
bool llc_dma_read(struct llc *c, u64 addr);
bool llc_cpu(struct llc *c, u64 addr, bool write);
bool llc_cpu_io(struct llc *c, u64 addr, bool write);
/* A DMA read served by a core's private cache (snooped, no DRAM). */
static inline void llc_dma_read_onchip(struct llc *c)
{
	c->st.dma_rd++;
	c->st.dma_rd_hit++;
}

/*
 * Install the line of @addr, clean, in an ordinary way (any way with
 * @ddio 0 or all ways DDIO's) as the steady state of a core's reads leaves
 * it; no statistics.  For a run's initial state.
 */
void llc_warm(struct llc *c, u64 addr);
/* Is the line of @addr cached (no side effect)? */
bool llc_present(const struct llc *c, u64 addr);

#endif /* _RXB_SIM_LLC_H */
