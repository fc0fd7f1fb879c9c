// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's side of the ring primitives every driver half shares
 * (drv_ring.h), and the driver's reads of the NIC's statistics registers.
 * Builds in the kernel and, through tools/testing/rxbisect's shim headers,
 * in userspace.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "drv_ring.h"

/**
 * rxb_ring_mem_alloc() - allocate zeroed ring memory the NIC may use.
 * @m: the model instance.
 * @r: filled.
 * @size: bytes.
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_ring_mem_alloc(struct rxb_model *m, struct rxb_ring_mem *r,
		       size_t size)
{
	r->va = m->env->dma_alloc(m->drv, size, &r->addr);
	r->size = r->va ? size : 0;
	return r->va ? 0 : -ENOMEM;
}

/**
 * rxb_ring_mem_free() - free what rxb_ring_mem_alloc() allocated, if it did.
 * @m: the model instance.
 * @r: the ring memory; emptied.
 */
void rxb_ring_mem_free(struct rxb_model *m, struct rxb_ring_mem *r)
{
	if (r->va)
		m->env->dma_free(m->drv, r->va, r->size);
	r->va = NULL;
	r->size = 0;
}

/**
 * rxb_cring_alloc() - allocate a completion ring and program its base
 *	register.
 * @m: the model instance.
 * @qi: the queue the register belongs to.
 * @cr: set up.
 * @size: entries, a power of two.
 * @base: the CR's base register.
 * @db: its consumer-index register.
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_cring_alloc(struct rxb_model *m, unsigned int qi, struct rxb_cring *cr,
		    u32 size, struct rxb_base_reg *base, u32 *db)
{
	int err = rxb_ring_mem_alloc(m, &cr->mem, (size_t)size *
				     sizeof(*cr->ent));

	if (err)
		return err;
	cr->ent = cr->mem.va;
	cr->db = db;
	cr->mask = size - 1;
	cr->order = ilog2(size);
	rxb_reg_base(m, qi, base, cr->mem.addr);
	return 0;
}

/**
 * rxb_cring_free() - free a completion ring's memory (the NIC's context
 *	is disabled).
 * @m: the model instance.
 * @cr: the ring.
 */
void rxb_cring_free(struct rxb_model *m, struct rxb_cring *cr)
{
	rxb_ring_mem_free(m, &cr->mem);
	cr->ent = NULL;
}

/**
 * rxb_model_alloc() - the create skeleton of every driver half: allocate
 *	an instance (rxb_layout_alloc()) with its counters, and set up its
 *	head.
 * @ops: the model.
 * @cfg: the configuration (validated by the caller).
 * @env: the driver's services.
 * @drv: their argument.
 * @bar: the NIC's register space of the context.
 * @lay: what to allocate; the instance's struct rxb_model comes first.
 *
 * Return: the instance, or ERR_PTR(-ENOMEM).
 */
struct rxb_model *rxb_model_alloc(const struct rxb_model_ops *ops,
				  const struct rxb_model_cfg *cfg,
				  const struct rxb_drv_ops *env, void *drv,
				  const struct rxb_bar *bar,
				  const struct rxb_layout *lay)
{
	struct rxb_model *m = rxb_layout_alloc(lay, cfg);

	if (!m)
		return ERR_PTR(-ENOMEM);
	m->ops = ops;
	m->cfg = *cfg;
	m->env = env;
	m->drv = drv;
	m->bar = *bar;
	m->qstats = kcalloc(cfg->nqueues, sizeof(*m->qstats), GFP_KERNEL);
	if (!m->qstats) {
		rxb_layout_free(m, lay, cfg);
		return ERR_PTR(-ENOMEM);
	}
	return m;
}

/**
 * rxb_model_free() - free an instance rxb_model_alloc() allocated.
 * @m: the instance; the model freed its buffers and ring memory.
 * @lay: its layout.
 */
void rxb_model_free(struct rxb_model *m, const struct rxb_layout *lay)
{
	struct rxb_model_cfg cfg = m->cfg;

	kfree(m->qstats);
	rxb_layout_free(m, lay, &cfg);
}

/**
 * rxb_ring_refill() - post fresh buffers to a ring the NIC consumes in
 *	order (privRing Rx ring, rxBisect Ax ring).
 * @m: the model instance.
 * @qi: queue whose pool the buffers come from.
 * @desc: the ring's descriptors.
 * @cookie: buffer handle per slot.
 * @mask: ring size - 1.
 * @tail: the driver's producer index; advanced past what was posted.
 * @ci: descriptors the NIC has reported consumed.
 * @doorbell: the ring's tail register, written once if anything was posted.
 *
 * The NIC takes descriptors in ring order and reports them in that order,
 * so the next free slots are always at the tail.
 *
 * Return: true when the ring is fully posted.
 */
bool rxb_ring_refill(struct rxb_model *m, unsigned int qi,
		     struct rxb_rx_desc *desc, void **cookie, u32 mask,
		     u32 *tail, u32 ci, u32 *doorbell)
{
	struct rxb_drv_qstats *st = &m->qstats[qi];
	u32 t = *tail;
	struct rxb_buf buf;

	while (t - ci <= mask) {
		u32 slot = t & mask;

		if (rxb_drv_alloc_buf(m, qi, &buf)) {
			rxb_stat_inc(&st->alloc_fails);
			break;
		}
		cookie[slot] = buf.cookie;
		rxb_rx_desc_post(&desc[slot], buf.addr, m->cfg.buf_len);
		t++;
	}
	if (t != *tail) {
		rxb_stat_add(&st->refills, t - *tail);
		rxb_stat_inc(&st->doorbells);
		*tail = t;
		rxb_db_ring(m, qi, doorbell, t);
	}
	return t - ci == mask + 1;
}

/**
 * rxb_cring_consume() - give the entries read back to the NIC.
 * @m: the model instance.
 * @qi: the polling queue: its counters count the packets.
 * @cr: the completion ring.
 * @head: the driver's head index, advanced by @n.
 * @n: entries read, at least one.
 * @pkts: packets handed up from them (@n, unless some carry none).
 * @bytes: their packet bytes.
 */
void rxb_cring_consume(struct rxb_model *m, unsigned int qi,
		       const struct rxb_cring *cr, u32 *head, u32 n, u32 pkts,
		       u64 bytes)
{
	struct rxb_drv_qstats *st = &m->qstats[qi];

	/* WRITE_ONCE: the models' ring_state() reads it from anywhere. */
	WRITE_ONCE(*head, *head + n);
	/* Release: our reads of the entries are done before the NIC may
	 * reuse them.  Pairs with the acquire in rxb_hw_cring_held() (NIC).
	 */
	rxb_db_ring(m, qi, cr->db, *head);
	rxb_stat_add(&st->packets, pkts);
	rxb_stat_add(&st->bytes, bytes);
}

/**
 * rxb_model_qstats_read() - a queue's counters: the NIC's statistics
 *	registers and the driver half's own.
 * @m: the model instance.
 * @q: the queue.
 * @st: filled.  Any context.
 */
void rxb_model_qstats_read(const struct rxb_model *m, unsigned int q,
			   struct rxb_qstats *st)
{
	const struct rxb_hw_qstats *h = rxb_bar_qstats(&m->bar, q);
	const struct rxb_drv_qstats *d = &m->qstats[q];

	st->hw_packets = READ_ONCE(h->hw_packets);
	st->hw_bytes = READ_ONCE(h->hw_bytes);
	st->nobuf_drops = READ_ONCE(h->nobuf_drops);
	st->ring_full_drops = READ_ONCE(h->ring_full_drops);
	st->oversize_drops = READ_ONCE(h->oversize_drops);
	st->packets = READ_ONCE(d->packets);
	st->bytes = READ_ONCE(d->bytes);
	st->polls = READ_ONCE(d->polls);
	st->refills = READ_ONCE(d->refills);
	st->alloc_fails = READ_ONCE(d->alloc_fails);
	st->doorbells = READ_ONCE(d->doorbells);
}
