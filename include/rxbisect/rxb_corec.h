/* SPDX-License-Identifier: GPL-2.0 */
/*
 * COREC: what both halves of the model compute alike from the
 * configuration (the "create receive context" command's parameters): the
 * groups of consumers and the shared queue each group consumes, and where
 * the shared queues' indices start.
 *
 * The queues form groups of corec_consumers consecutive queues (all of
 * them when 0; the last group may be smaller).  Group g is shared queue
 * (ring) g: one Rx ring and one completion ring whose registers are in
 * the page of the group's first queue (rxb_desc.h, COREC section).  The
 * NIC delivers a frame RSS steered to queue q into ring
 * rxb_corec_ring_of(q) and interrupts that group's queues; the driver's
 * consumers of the group claim its completions.
 */
#ifndef _RXB_COREC_H
#define _RXB_COREC_H

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

/*
 * First transaction ID, and first index of every shared queue's Rx ring
 * and completion ring, on both sides: the NIC's Rx head and CR tail, the
 * driver's cq_head and rx_tail registers and its indices.  0 (the
 * registers' reset value) but in the userspace tests, which start just
 * below 2^32 so that every run crosses the 32-bit wrap the paper says is
 * harmless (section 3.4.3); an even epoch of the largest ring keeps zeroed
 * ring memory not done.
 */
#ifndef RXB_COREC_ID0
#define RXB_COREC_ID0	0U
#endif
static_assert(RXB_COREC_ID0 % (2 * RXB_RING_MAX) == 0);

/**
 * rxb_corec_group() - consumers per shared queue.
 * @cfg: the configuration.
 *
 * Return: corec_consumers, or every queue when it is 0.
 */
static inline unsigned int rxb_corec_group(const struct rxb_model_cfg *cfg)
{
	return cfg->corec_consumers ?: cfg->nqueues;
}

/**
 * rxb_corec_nrings() - shared queues of a configuration.
 * @cfg: the configuration.
 *
 * Return: the number of groups.
 */
static inline unsigned int rxb_corec_nrings(const struct rxb_model_cfg *cfg)
{
	return DIV_ROUND_UP(cfg->nqueues, rxb_corec_group(cfg));
}

/**
 * rxb_corec_first() - the first consumer (queue) of shared queue @r.
 * @cfg: the configuration.
 * @r: the shared queue, below rxb_corec_nrings().
 *
 * Its registers and debug registers are in that queue's page.
 *
 * Return: the queue.
 */
static inline unsigned int rxb_corec_first(const struct rxb_model_cfg *cfg,
					   unsigned int r)
{
	return r * rxb_corec_group(cfg);
}

/**
 * rxb_corec_consumers() - consumers of shared queue @r.
 * @cfg: the configuration.
 * @r: the shared queue.
 *
 * Return: the group's size: rxb_corec_group(), less for the last group.
 */
static inline unsigned int rxb_corec_consumers(const struct rxb_model_cfg *cfg,
					       unsigned int r)
{
	return min(rxb_corec_group(cfg), cfg->nqueues - rxb_corec_first(cfg, r));
}

#endif /* _RXB_COREC_H */
