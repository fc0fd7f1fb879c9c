/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive-buffer pools of the simulated host.
 *
 * Two-level, as page_pool and DPDK's mempool are: a LIFO cache per core in
 * front of a FIFO ring.  LIFO reuse keeps recently freed (still cached)
 * buffers hot; the FIFO ring is where buffers freed by other cores queue
 * up, so rxBisect's cross-core buffer movement shows in the working set.
 *
 * page_pool mode: one pool per queue.  The owning core frees into its
 *	cache (up to @cache_cap, then the ring); other cores free into the
 *	ring.  Allocation: cache, else up to 64 from the ring, else a new
 *	buffer while fewer than @limit exist.
 * mempool mode: one pool per port shared by its cores.  Every core frees
 *	into its own cache and flushes down to @cache_cap into the ring when
 *	the cache passes 1.5 * @cache_cap (DPDK); allocation refills the
 *	cache with up to @cache_cap from the ring.
 *
 * A buffer is an index; its bus address is BASE + index * stride.
 */
#ifndef _RXB_SIM_POOL_H
#define _RXB_SIM_POOL_H

#include <stdbool.h>
#include <linux/types.h>

struct u32_fifo {
	u32 *v;
	u32 cap;		/* power of two */
	u32 head, tail;	/* free-running */
};

struct u32_stack {
	u32 *v;
	u32 n, cap;
};

struct sim_pool {
	struct u32_fifo ring;
	u32 created;
	u32 limit;		/* 0: unlimited */
	u64 cross_frees;	/* buffers freed by a core other than the owner */
	u64 new_bufs;
	u64 fails;
};

bool fifo_push(struct u32_fifo *f, u32 v);
bool fifo_pop(struct u32_fifo *f, u32 *v);
static inline u32 fifo_len(const struct u32_fifo *f)
{
	return f->tail - f->head;
}

bool stack_push(struct u32_stack *s, u32 v);
void fifo_free(struct u32_fifo *f);
void stack_free(struct u32_stack *s);

#endif /* _RXB_SIM_POOL_H */
