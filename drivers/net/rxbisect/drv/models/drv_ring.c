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
	bool ts = m->cfg.rx_tstamp;
	int err = rxb_ring_mem_alloc(m, &cr->mem, (size_t)size *
				     sizeof(*cr->ent) +
				     rxb_tstamp_ring_bytes(size, ts));

	if (err)
		return err;
	cr->ent = cr->mem.va;
	cr->ts = ts ? (const __le64 *)(cr->ent + size) : NULL;
	cr->db = db;
	cr->mask = size - 1;
	cr->order = ilog2(size);
	rxb_reg_base(m, qi, base, cr->mem.addr);
	return 0;
}

/**
 * rxb_rxq_alloc() - allocate a queue's Rx ring and completion ring, of the
 *	configured ring size, and program their base registers (struct
 *	rxb_rxq_regs: privRing's queues, COREC's shared rings, CEIO's fast
 *	path).
 * @m: the model instance.
 * @qi: the queue the registers belong to.
 * @regs: the registers.
 * @mem: the Rx ring's memory; set up.
 * @cr: the completion ring; set up.
 *
 * Return: the Rx ring, or NULL (out of memory: the model's destroy frees
 * what was allocated).
 */
struct rxb_rx_desc *rxb_rxq_alloc(struct rxb_model *m, unsigned int qi,
				  struct rxb_rxq_regs *regs,
				  struct rxb_ring_mem *mem, struct rxb_cring *cr)
{
	u32 size = m->cfg.ring_size;

	if (rxb_ring_mem_alloc(m, mem, (size_t)size *
			       sizeof(struct rxb_rx_desc)) ||
	    rxb_cring_alloc(m, qi, cr, size, &regs->cq_base, &regs->cq_head))
		return NULL;
	rxb_reg_base(m, qi, &regs->rx_base, mem->addr);
	return mem->va;
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

/* The driver half's own part of an instance's head: its counters. */
static int rxb_model_head_init(struct rxb_model *m)
{
	m->qstats = kcalloc(m->cfg.nqueues, sizeof(*m->qstats), GFP_KERNEL);
	return m->qstats ? 0 : -ENOMEM;
}

static void rxb_model_head_fini(struct rxb_model *m)
{
	kfree(m->qstats);
}

/* rxb_model_create() and rxb_model_destroy(), documented in
 * rxb_drv_model.h.
 */
RXB_DEFINE_INSTANCE(rxb_model_create, rxb_model_destroy, struct rxb_model,
		    struct rxb_model_ops, struct rxb_drv_ops, drv,
		    rxb_model_head_init, rxb_model_head_fini)

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
