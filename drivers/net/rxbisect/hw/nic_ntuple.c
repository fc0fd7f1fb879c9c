// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's ntuple steering rules (ethtool -N ... action Q): a
 * table of RXB_NTUPLE_MAX rules matched by the receive pipeline before RSS,
 * the first matching rule by location wins; its queue overrides the RSS
 * indirection table, or the frame is dropped (action -1, counted in
 * ntuple_drops), or an RSS context other than the default picks the queue
 * (ethtool -N ... context C).  The same stage for every ring model.
 *
 * Rules are registers of the NIC, kept across receive contexts (model
 * switches, ethtool -L/-G).  A rule whose queue is beyond the current
 * queue count (after ethtool -L) steers nothing: RSS decides.
 *
 * The driver writes rules under RTNL; the pipeline reads an RCU-protected
 * copy of the table, replaced whole on every change, so a frame sees the
 * old or the new rule set, never a rule half written.
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "nic_hw.h"

static struct rxb_ntuple_table *rxb_ntuple_cur(struct rxb_nic *nic)
{
	return rcu_dereference_rtnl(nic->ntuple);
}

static bool rxb_ntuple_hit(const struct rxb_nic_ntuple *r,
			   const struct rxb_nic_tuple *t)
{
	unsigned int i;

	if (r->family != t->family || r->proto != t->proto)
		return false;
	for (i = 0; i < 4; i++)
		if ((t->src[i] & r->src_mask[i]) != r->src[i] ||
		    (t->dst[i] & r->dst_mask[i]) != r->dst[i])
			return false;
	return (t->sport & r->sport_mask) == r->sport &&
	       (t->dport & r->dport_mask) == r->dport;
}

/**
 * rxb_ntuple_match() - the ntuple stage of the receive pipeline.
 * @nic: the NIC.
 * @t: the frame's flow key.
 * @rss_ctx: set to the RSS context of the first matching rule (0: none,
 *	or a rule with a queue or a drop).
 *
 * RCU read lock held.
 *
 * Return: the queue of the first matching rule, RXB_NTUPLE_DROP, or
 * RXB_NTUPLE_NONE when no rule matches or the rule names an RSS context.
 */
u32 rxb_ntuple_match(struct rxb_nic *nic, const struct rxb_nic_tuple *t,
		     u8 *rss_ctx)
{
	struct rxb_ntuple_table *tbl = rcu_dereference(nic->ntuple);
	unsigned int i;

	*rss_ctx = 0;
	if (!tbl || !t->proto)
		return RXB_NTUPLE_NONE;
	for (i = 0; i < tbl->n; i++) {
		if (!rxb_ntuple_hit(&tbl->rule[i], t))
			continue;
		*rss_ctx = tbl->rule[i].rss_ctx;
		return *rss_ctx ? RXB_NTUPLE_NONE : tbl->rule[i].action;
	}
	return RXB_NTUPLE_NONE;
}

/* A copy of the table with room for one more rule; RTNL held. */
static struct rxb_ntuple_table *rxb_ntuple_copy(struct rxb_nic *nic)
{
	struct rxb_ntuple_table *old = rxb_ntuple_cur(nic), *t;
	unsigned int n = old ? old->n : 0;

	t = kzalloc(struct_size(t, rule, n + 1), GFP_KERNEL);
	if (!t)
		return NULL;
	if (old)
		memcpy(t->rule, old->rule, n * sizeof(t->rule[0]));
	t->n = n;
	return t;
}

static void rxb_ntuple_publish(struct rxb_nic *nic, struct rxb_ntuple_table *t)
{
	struct rxb_ntuple_table *old = rxb_ntuple_cur(nic);

	rcu_assign_pointer(nic->ntuple, t);
	if (old)
		kfree_rcu(old, rcu);
}

static int rxb_ntuple_find(const struct rxb_ntuple_table *t, u32 loc)
{
	unsigned int i;

	for (i = 0; t && i < t->n; i++)
		if (t->rule[i].loc == loc)
			return i;
	return -1;
}

/**
 * rxb_nic_ntuple_write() - program (or replace) the rule at a location.
 * @nic: the NIC.
 * @r: the rule; @r->loc below RXB_NTUPLE_MAX; its values are masked here.
 *
 * RTNL held.  The caller checked the queue and the fields.
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_nic_ntuple_write(struct rxb_nic *nic, const struct rxb_nic_ntuple *r)
{
	struct rxb_ntuple_table *t = rxb_ntuple_copy(nic);
	struct rxb_nic_ntuple *nr;
	unsigned int i;
	int at;

	if (!t)
		return -ENOMEM;
	at = rxb_ntuple_find(t, r->loc);
	if (at < 0) {
		/* Insert in location order. */
		for (at = 0; at < t->n && t->rule[at].loc < r->loc; at++)
			;
		memmove(&t->rule[at + 1], &t->rule[at],
			(t->n - at) * sizeof(t->rule[0]));
		t->n++;
	}
	nr = &t->rule[at];
	*nr = *r;
	for (i = 0; i < 4; i++) {
		nr->src[i] &= nr->src_mask[i];
		nr->dst[i] &= nr->dst_mask[i];
	}
	nr->sport &= nr->sport_mask;
	nr->dport &= nr->dport_mask;
	rxb_ntuple_publish(nic, t);
	return 0;
}

/**
 * rxb_nic_ntuple_delete() - remove the rule at a location.
 * @nic: the NIC.
 * @loc: its location.
 *
 * RTNL held.
 *
 * Return: 0, -ENOENT if there is none, -ENOMEM.
 */
int rxb_nic_ntuple_delete(struct rxb_nic *nic, u32 loc)
{
	struct rxb_ntuple_table *t;
	int at = rxb_ntuple_find(rxb_ntuple_cur(nic), loc);

	if (at < 0)
		return -ENOENT;
	t = rxb_ntuple_copy(nic);
	if (!t)
		return -ENOMEM;
	memmove(&t->rule[at], &t->rule[at + 1],
		(t->n - at - 1) * sizeof(t->rule[0]));
	t->n--;
	rxb_ntuple_publish(nic, t);
	return 0;
}

/**
 * rxb_nic_ntuple_read() - read the rule at a location.
 * @nic: the NIC.
 * @loc: its location.
 * @r: filled (values as masked).
 *
 * RTNL held.
 *
 * Return: 0 or -ENOENT.
 */
int rxb_nic_ntuple_read(struct rxb_nic *nic, u32 loc, struct rxb_nic_ntuple *r)
{
	struct rxb_ntuple_table *t = rxb_ntuple_cur(nic);
	int at = rxb_ntuple_find(t, loc);

	if (at < 0)
		return -ENOENT;
	*r = t->rule[at];
	return 0;
}

/**
 * rxb_nic_ntuple_locs() - the locations in use, in increasing order.
 * @nic: the NIC.
 * @locs: filled with up to @max locations, or NULL.
 * @max: room at @locs.
 *
 * RTNL held.
 *
 * Return: the number of rules (may exceed @max).
 */
unsigned int rxb_nic_ntuple_locs(struct rxb_nic *nic, u32 *locs,
				 unsigned int max)
{
	struct rxb_ntuple_table *t = rxb_ntuple_cur(nic);
	unsigned int i;

	if (!t)
		return 0;
	for (i = 0; locs && i < t->n && i < max; i++)
		locs[i] = t->rule[i].loc;
	return t->n;
}

/**
 * rxb_ntuple_fini() - free the rules (the NIC is powered off).
 * @nic: the NIC; no frame arrives any more.
 */
void rxb_ntuple_fini(struct rxb_nic *nic)
{
	kfree(rcu_dereference_protected(nic->ntuple, true));
}
