/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic multi-threaded stress test for any rxbisect ring model.
 *
 * @nproducers "NIC" threads call ops->hw_rx() concurrently, each sending
 * its share of @frames to pseudo-random queues; one consumer thread per
 * queue runs a NAPI-like loop (poll until less than @budget, check
 * rx_pending, else wait for the queue's interrupt).  A monitor reads the
 * qstats concurrently (like ethtool -S) and checks they never decrease.
 *
 * Checked: every frame is delivered exactly once to the queue it was sent
 * to (or a queue sharing its completion ring, see cr_share) or counted as
 * a drop with the error hw_rx returned; per producer and consumer,
 * sequence numbers arrive in increasing order; length, hash, hash
 * flags and content of every packet match what was sent; every qstats
 * counter matches what the producers and consumers counted; every buffer
 * handed out was posted and not yet returned, and none is leaked after
 * destroy.  Failures are recorded in the running KTAP case.
 *
 * Every frame parameter is a function of (seed, producer, sequence
 * number), so consumers recompute what they should have received.
 */
#ifndef _RXB_STRESS_H
#define _RXB_STRESS_H

#include <linux/types.h>

struct rxb_model_cfg;

struct rxb_stress_cfg {
	const char *model;
	/* Adjust the model configuration (model-specific fields); or NULL. */
	void (*tune)(struct rxb_model_cfg *cfg);
	unsigned int nqueues;
	unsigned int ring_size;
	unsigned int buf_len;		/* 0: RXB_ENV_BUF_SIZE */
	unsigned int nproducers;	/* NIC threads, 1..16 */
	int budget;			/* poll budget */
	u64 frames;			/* total over all producers */
	unsigned int alloc_fail_one_in;	/* inject alloc_buf failures; 0: none */
	/*
	 * Inject dma_write failures (0: none).  Such a packet arrives with
	 * RXB_CQE_F_DMA_ERR and garbage content: consumers count it and
	 * return its buffer, and the frames delivered but never received
	 * must be exactly as many as the failures injected.
	 */
	unsigned int dma_fail_one_in;
	unsigned int oversize_one_in;	/* frames longer than buf_len; 0: none */
	unsigned int max_len;		/* longest regular frame; 0: buf_len */
	bool no_backoff;		/* producers never yield on a drop */
	bool no_csum;			/* DMA checksum unit off */
	unsigned int skew;		/* percent of frames all sent to queue 0 */
	/*
	 * Queues sharing one completion ring (COREC): a frame sent to queue
	 * q may be polled by any queue of q's group of @cr_share consecutive
	 * queues (clamped to @nqueues), and the per-queue consumer counts
	 * are checked per group.  0 or 1: each queue polls its own frames.
	 */
	unsigned int cr_share;
	u64 seed;
};

void rxb_stress_run(const struct rxb_stress_cfg *cfg);

/*
 * Total stress frames: RXB_STRESS_FRAMES from the environment (the
 * Makefile sizes it per build flavour), or @dflt.
 */
u64 rxb_stress_frames(u64 dflt);

#endif /* _RXB_STRESS_H */
