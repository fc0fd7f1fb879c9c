/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxBisect's topology (rxbisect paper sections 4.1-4.2; the ax_link and
 * ax_assoc_map parameters, Documentation/rxbisect.rst): which queue each
 * allocation (Ax) ring is linked to and which Ax rings each reception (Bx)
 * ring may borrow from.  The configuration both halves read: the NIC picks
 * Ax rings by it, the driver knows which rings its queues refill.  Built
 * on either side (drivers/net/rxbisect/lib/rxbisect_topo.c).
 */
#ifndef _RXB_TOPO_H
#define _RXB_TOPO_H

#include <linux/build_bug.h>
#include <linux/types.h>
#include <rxbisect/rxb_model.h>

/**
 * struct rxbisect_topo - rxBisect's rings and their links.
 * @nax: Ax rings.  One per queue by default (ax_link ""); ax_link lists
 *	the queue each Ax ring is linked to (its buffers come from that
 *	queue's pool, refilled by its poll), so @nax <= nqueues, and a queue
 *	may have none: its packets always take borrowed buffers ("a small
 *	number of large Ax rings, which are served by a few dedicated
 *	allocation cores", section 4.2).
 * @link: Ax ring -> the queue it is linked to.
 * @own: queue -> its linked Ax ring, or -1.
 * @assoc: queue -> the Ax rings its Bx ring may borrow from (a bitmap).
 *	Sets may overlap; a queue's own Ax ring is always tried first, then
 *	the set.
 */
struct rxbisect_topo {
	unsigned int nax;
	u8 link[RXB_MAX_MODEL_QUEUES];
	s8 own[RXB_MAX_MODEL_QUEUES];
	u64 assoc[RXB_MAX_MODEL_QUEUES];
};

static_assert(RXB_MAX_MODEL_QUEUES <= 64);

int rxbisect_topo(const struct rxb_model_cfg *cfg, struct rxbisect_topo *t,
		  const char **msg);
int rxb_rxbisect_topo_check(const struct rxb_model_cfg *cfg, const char **msg);

#endif /* _RXB_TOPO_H */
