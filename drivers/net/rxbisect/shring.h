/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parts shared by the shRing ring models (thesis chapter 5): RxArr
 * (model_shring.c), RxList (model_shring_list.c) and dynamic shRing
 * (model_dshring.c, which runs RxArr as one of its two ring sets).
 *
 * Queues are grouped by the share factor: group g is queues g * sf ..
 * g * sf + sf - 1 (the last group may be smaller).  Each group shares one
 * Rx descriptor ring; each queue keeps its own completion ring (CR), so
 * receiving is per queue and only reposting is shared (section 5.1.2).
 */
#ifndef _RXB_SHRING_H
#define _RXB_SHRING_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <rxbisect/rxb_model.h>

/**
 * struct shring_lock_stats - acquisitions of a shared ring's driver lock.
 * @acquired: times the lock was taken.
 * @contended: of those, times another queue held it (spin_trylock failed).
 *
 * Written under the lock, read with READ_ONCE().
 */
struct shring_lock_stats {
	u64 acquired;
	u64 contended;
};

/**
 * shring_lock() - take a shared ring's driver lock, counting contention.
 * @lock: the lock.
 * @st: its counters.
 */
static inline void shring_lock(spinlock_t *lock, struct shring_lock_stats *st)
{
	bool contended = !spin_trylock(lock);

	if (contended)
		spin_lock(lock);
	rxb_stat_inc(&st->acquired);
	if (contended)
		rxb_stat_inc(&st->contended);
}

/**
 * shring_nrings() - number of shared rings (groups) of a configuration.
 * @cfg: configuration, share factor already validated.
 *
 * Return: the number of groups.
 */
static inline unsigned int shring_nrings(const struct rxb_model_cfg *cfg)
{
	return DIV_ROUND_UP(cfg->nqueues, cfg->share_factor);
}

/**
 * shring_group_size() - queues sharing ring @g.
 * @cfg: configuration.
 * @g: ring (group) index.
 *
 * Return: the share factor, or less for the last group.
 */
static inline unsigned int shring_group_size(const struct rxb_model_cfg *cfg,
					     unsigned int g)
{
	return min(cfg->share_factor, cfg->nqueues - g * cfg->share_factor);
}

/**
 * shring_validate_share() - check the share factor of a configuration.
 * @cfg: configuration.
 * @msg: set to a static explanation on error.
 *
 * The driver clamps the share_factor parameter to the queue count; a
 * configuration handed to a model must already be in range.
 *
 * Return: 0 or -EINVAL.
 */
static inline int shring_validate_share(const struct rxb_model_cfg *cfg,
					const char **msg)
{
	if (!cfg->share_factor) {
		*msg = "share factor must be at least 1";
		return -EINVAL;
	}
	if (cfg->share_factor > cfg->nqueues) {
		*msg = "share factor exceeds the number of queues";
		return -EINVAL;
	}
	return 0;
}

/**
 * shring_victim() - is a no-buffer drop on a queue a victim drop?
 * @cfg: configuration.
 * @g: the queue's ring.
 * @held: completions the NIC wrote to the queue's CR that its driver has
 *	not consumed yet (what the queue holds of the shared ring).
 *
 * The shared ring ran dry while this queue held less than its fair share
 * (ring size / queues of the group): other queues' packets hold the ring
 * (section 5.1.1, "pathological core overload").
 *
 * Return: true for a victim drop.
 */
static inline bool shring_victim(const struct rxb_model_cfg *cfg,
				 unsigned int g, u32 held)
{
	return held < cfg->ring_size / shring_group_size(cfg, g);
}

#endif /* _RXB_SHRING_H */
