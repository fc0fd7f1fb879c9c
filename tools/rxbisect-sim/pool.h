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
#include <stdint.h>

struct u32_fifo {
	uint32_t *v;
	uint32_t cap;		/* power of two */
	uint32_t head, tail;	/* free-running */
};

struct u32_stack {
	uint32_t *v;
	uint32_t n, cap;
};

struct sim_pool {
	struct u32_fifo ring;
	uint32_t created;
	uint32_t limit;		/* 0: unlimited */
	uint64_t cross_frees;	/* buffers freed by a core other than the owner */
	uint64_t new_bufs;
	uint64_t fails;
};

bool fifo_push(struct u32_fifo *f, uint32_t v);
bool fifo_pop(struct u32_fifo *f, uint32_t *v);
static inline uint32_t fifo_len(const struct u32_fifo *f)
{
	return f->tail - f->head;
}
bool stack_push(struct u32_stack *s, uint32_t v);
void fifo_free(struct u32_fifo *f);
void stack_free(struct u32_stack *s);

#endif /* _RXB_SIM_POOL_H */
