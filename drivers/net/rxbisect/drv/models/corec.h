/* SPDX-License-Identifier: GPL-2.0 */
/*
 * COREC, the driver's half: its receive routine (COREC paper section 3.4,
 * Listing 2), one function per phase.  The ring model's poll
 * (drv/models/corec.c) runs them in order; tests run them one at a time to
 * interleave consumers.  What the NIC's half shares with it: the group
 * geometry (include/rxbisect/rxb_corec.h) and the registers (rxb_desc.h).
 *
 *   rxb_corec_scan()   lines 8-19   snapshot the transaction ID, count the
 *                                   completions ready after it
 *   rxb_corec_claim()  line 21      claim them with one compare-and-swap
 *   rxb_corec_take()   lines 23-30  hand the buffers up, swap in fresh ones
 *   rxb_corec_done()   line 33      mark the batch in READ_DONE
 *   rxb_corec_tail()   lines 35-43  return the done run at the tail
 *
 * All take a consumer queue @q of a "corec" model instance and run in that
 * queue's poll context; any consumers of the same shared queue may run
 * them concurrently.
 */
#ifndef _RXB_DRV_COREC_H
#define _RXB_DRV_COREC_H

#include <linux/types.h>
#include <rxbisect/rxb_corec.h>
#include <rxbisect/rxb_drv_model.h>

/* Most completions one claim takes (and fresh buffers a consumer keeps). */
#define RXB_COREC_BATCH		64

/**
 * struct rxb_corec_batch - a consumer's view of one batch.
 * @id: transaction ID (free-running 32-bit completion index) of its first
 *	completion, as snapshotted by rxb_corec_scan().
 * @n: completions in the batch.
 */
struct rxb_corec_batch {
	u32 id;
	u32 n;
};

/**
 * rxb_corec_scan() - snapshot the shared transaction ID and size a batch.
 * @m: the model instance.
 * @q: consumer queue.
 * @max: most completions wanted; also bounded by @q's fresh buffers.
 * @b: filled with the snapshot and the number of ready completions.
 *
 * Read only: nothing shared is written.
 *
 * Return: @b->n.
 */
u32 rxb_corec_scan(struct rxb_model *m, unsigned int q, u32 max,
		   struct rxb_corec_batch *b);

/**
 * rxb_corec_claim() - claim a scanned batch.
 * @m: the model instance.
 * @q: consumer queue.
 * @b: batch from rxb_corec_scan(), @b->n > 0.
 *
 * Return: true if @q now owns @b; false if another consumer moved the
 * transaction ID first (the batch is not @q's; nothing changed).
 */
bool rxb_corec_claim(struct rxb_model *m, unsigned int q,
		     const struct rxb_corec_batch *b);

/**
 * rxb_corec_take() - hand a claimed batch's packets up, repost the slots.
 * @m: the model instance.
 * @q: consumer queue that claimed @b.
 * @b: the batch.
 * @pkts: @b->n entries, filled with the packets in completion order.
 *
 * Each slot gets one of @q's fresh buffers; each packet's pool_q names the
 * queue whose pool the shared queue's buffers come from (its first).
 */
void rxb_corec_take(struct rxb_model *m, unsigned int q,
		    const struct rxb_corec_batch *b, struct rxb_pkt *pkts);

/**
 * rxb_corec_done() - mark a taken batch done (READ_DONE bits).
 * @m: the model instance.
 * @q: consumer queue that took @b.
 * @b: the batch.
 */
void rxb_corec_done(struct rxb_model *m, unsigned int q,
		    const struct rxb_corec_batch *b);

/**
 * rxb_corec_tail() - return done descriptors to the NIC if the lock is free.
 * @m: the model instance.
 * @q: consumer queue.
 * @b: the batch @q just marked done, or NULL.  When it lies beyond the
 *	tail and the tail's batch is not done, a tail hold starts (paper
 *	section 3.4.4).
 *
 * Never waits: a consumer that finds the tail lock taken leaves, and the
 * holder looks at the done bits again after unlocking.
 */
void rxb_corec_tail(struct rxb_model *m, unsigned int q,
		    const struct rxb_corec_batch *b);

#endif /* _RXB_DRV_COREC_H */
