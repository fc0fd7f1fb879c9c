/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shRing ring models (thesis chapter 5): the geometry both halves
 * compute from the configuration, and where each finds its registers.
 *
 * Queues are grouped by the share factor: group g is queues g * sf ..
 * g * sf + sf - 1 (the last group may be smaller).  Each group shares one
 * Rx descriptor ring; each queue keeps its own completion ring (CR), so
 * receiving is per queue and only reposting is shared (section 5.1.2).
 * The register layouts are the datasheet's (rxb_desc.h, "shRing" and
 * "Dynamic shRing").
 *
 * Neither side's: the NIC's halves (hw/models/shring*.c, dshring.c) and
 * the driver's (drv/models/shring*.c, dshring.c) both include it.
 */
#ifndef _RXB_SHRING_H
#define _RXB_SHRING_H

#include <linux/kernel.h>
#include <linux/types.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>

/**
 * rxb_shring_nrings() - number of shared rings (groups) of a configuration.
 * @cfg: configuration, share factor already validated.
 *
 * Return: the number of groups.
 */
static inline unsigned int rxb_shring_nrings(const struct rxb_model_cfg *cfg)
{
	return DIV_ROUND_UP(cfg->nqueues, cfg->share_factor);
}

/**
 * rxb_shring_group() - the shared ring of queue @q.
 * @cfg: configuration.
 * @q: the queue.
 *
 * Return: its group.
 */
static inline unsigned int rxb_shring_group(const struct rxb_model_cfg *cfg,
					    unsigned int q)
{
	return q / cfg->share_factor;
}

/**
 * rxb_shring_group_size() - queues sharing ring @g.
 * @cfg: configuration.
 * @g: ring (group) index.
 *
 * Return: the share factor, or less for the last group.
 */
static inline unsigned int rxb_shring_group_size(const struct rxb_model_cfg *cfg,
						 unsigned int g)
{
	return min(cfg->share_factor, cfg->nqueues - g * cfg->share_factor);
}

/**
 * rxb_shring_fair_share() - a queue's fair share of its shared ring: the
 *	input of the victim rule.
 * @cfg: configuration.
 * @g: the queue's ring.
 *
 * A no-buffer drop on a queue whose CR held fewer completions than this is
 * a victim drop: other queues' packets held the ring (section 5.1.1,
 * "pathological core overload"; struct rxb_shring_qstats_regs).
 *
 * Return: ring size / queues of the group.
 */
static inline u32 rxb_shring_fair_share(const struct rxb_model_cfg *cfg,
					unsigned int g)
{
	return cfg->ring_size / rxb_shring_group_size(cfg, g);
}

/**
 * rxb_shring_bar_pages() - pages of the register space beyond page 0: a
 *	page per queue, then a page per shared ring.
 * @cfg: configuration.
 *
 * Return: the page count.
 */
static inline u32 rxb_shring_bar_pages(const struct rxb_model_cfg *cfg)
{
	return cfg->nqueues + rxb_shring_nrings(cfg);
}

/**
 * rxb_shring_ring_page() - the page of shared ring @g.
 * @bar: the model's view of the register space.
 * @g: the ring.
 *
 * Return: the page, which holds the ring's registers (struct
 * rxb_shring_regs), statistics and debug registers at the offsets of a
 * queue's page.
 */
static inline u8 *rxb_shring_ring_page(const struct rxb_bar *bar,
				       unsigned int g)
{
	return rxb_bar_page(bar, bar->xpage + g);
}

/* The registers of shared ring @g. */
static inline struct rxb_shring_regs *
rxb_shring_ring_regs(const struct rxb_bar *bar, unsigned int g)
{
	return (struct rxb_shring_regs *)(rxb_shring_ring_page(bar, g) +
					  RXB_QPAGE_REGS);
}

/* The statistics registers of shared ring @g. */
static inline struct rxb_shring_rstats_regs *
rxb_shring_ring_stats(const struct rxb_bar *bar, unsigned int g)
{
	return (struct rxb_shring_rstats_regs *)(rxb_shring_ring_page(bar, g) +
						 RXB_QPAGE_MSTATS);
}

/* The debug registers of shared ring @g (taken: the NIC's takes). */
static inline struct rxb_qdebug_regs *
rxb_shring_ring_debug(const struct rxb_bar *bar, unsigned int g)
{
	return (struct rxb_qdebug_regs *)(rxb_shring_ring_page(bar, g) +
					  RXB_QPAGE_DEBUG);
}

/* The registers of queue @q's completion ring. */
static inline struct rxb_cq_regs *rxb_shring_cq_regs(const struct rxb_bar *bar,
						     unsigned int q)
{
	return rxb_bar_q(bar, q, RXB_QPAGE_REGS);
}

/* The shRing statistics registers of queue @q. */
static inline struct rxb_shring_qstats_regs *
rxb_shring_qstats(const struct rxb_bar *bar, unsigned int q)
{
	return rxb_bar_q(bar, q, RXB_QPAGE_MSTATS);
}

/*
 * Dynamic shRing: its own queue pages (steering, the queue's statistics),
 * then the privRing set's queue pages, then the RxArr set's queue and ring
 * pages.
 */

/**
 * rxb_dsh_bar_pages() - pages of the register space beyond page 0.
 * @cfg: configuration.
 *
 * Return: dshRing's queue pages, the privRing set's and the RxArr set's.
 */
static inline u32 rxb_dsh_bar_pages(const struct rxb_model_cfg *cfg)
{
	return 2 * cfg->nqueues + rxb_shring_bar_pages(cfg);
}

/**
 * rxb_dsh_set_bar() - a ring set's view of the register space.
 * @bar: dshRing's view (queue pages at @bar->qpage, its own pages from
 *	@bar->xpage on).
 * @nqueues: queues of the configuration.
 * @set: RXB_DSH_PRIV or RXB_DSH_SH.
 * @view: filled: the set's queue pages and, after them, its own.
 *
 * Both halves compute the same views, so each set's driver half programs
 * the registers its hardware half reads, and no queue register of one set
 * is another's.
 */
static inline void rxb_dsh_set_bar(const struct rxb_bar *bar,
				   unsigned int nqueues, unsigned int set,
				   struct rxb_bar *view)
{
	*view = *bar;
	view->qpage = bar->xpage + (set == RXB_DSH_SH ? nqueues : 0);
	view->xpage = view->qpage + nqueues;
}

/* dshRing's steering registers of queue @q. */
static inline struct rxb_dsh_regs *rxb_dsh_regs(const struct rxb_bar *bar,
						unsigned int q)
{
	return rxb_bar_q(bar, q, RXB_QPAGE_REGS);
}

#endif /* _RXB_SHRING_H */
