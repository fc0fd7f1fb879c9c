// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect ring-model registry and the parts every model shares.
 *
 * Builds in the kernel and, through tools/testing/rxbisect's shim headers,
 * in userspace.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"

#define RXB_QSTAT(f)	{ #f, offsetof(struct rxb_qstats, f) }
const struct rxb_stat_desc rxb_qstats_desc[RXB_QSTATS_NUM] = {
	RXB_QSTAT(hw_packets),
	RXB_QSTAT(hw_bytes),
	RXB_QSTAT(nobuf_drops),
	RXB_QSTAT(ring_full_drops),
	RXB_QSTAT(oversize_drops),
	RXB_QSTAT(packets),
	RXB_QSTAT(bytes),
	RXB_QSTAT(polls),
	RXB_QSTAT(refills),
	RXB_QSTAT(alloc_fails),
	RXB_QSTAT(doorbells),
};

static const struct rxb_model_ops *const rxb_models[] = {
	&rxb_privring_ops,
	&rxb_rxbisect_ops,
	&rxb_shring_ops,
	&rxb_shring_list_ops,
	&rxb_shring_batched_ops,
	&rxb_dshring_ops,
	&rxb_corec_ops,
};

/**
 * rxb_model_find() - look a ring model up by name.
 * @name: model name; a trailing newline is ignored.
 *
 * Return: the model, or NULL if there is none of that name.
 */
const struct rxb_model_ops *rxb_model_find(const char *name)
{
	size_t len = strlen(name);
	unsigned int i;

	if (len && name[len - 1] == '\n')
		len--;
	for (i = 0; i < ARRAY_SIZE(rxb_models); i++)
		if (strlen(rxb_models[i]->name) == len &&
		    !strncmp(rxb_models[i]->name, name, len))
			return rxb_models[i];
	return NULL;
}

/**
 * rxb_model_get() - the registered ring models, by index.
 * @i: index, from 0.
 *
 * Return: the @i-th model, or NULL past the last.
 */
const struct rxb_model_ops *rxb_model_get(unsigned int i)
{
	return i < ARRAY_SIZE(rxb_models) ? rxb_models[i] : NULL;
}

/**
 * rxb_model_validate() - check a configuration for a model.
 * @ops: the model.
 * @cfg: the configuration.
 * @msg: set to a static explanation on error.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_model_validate(const struct rxb_model_ops *ops,
		       const struct rxb_model_cfg *cfg, const char **msg)
{
	if (!cfg->nqueues || !cfg->buf_len || !cfg->env_ops) {
		*msg = "no queues or no buffer size";
		return -EINVAL;
	}
	/* Entries carry lengths and queue numbers in 16 bits. */
	if (cfg->buf_len > U16_MAX || cfg->nqueues > RXB_MAX_MODEL_QUEUES) {
		*msg = "buffer size or queue count out of range";
		return -EINVAL;
	}
	if (!is_power_of_2(cfg->ring_size) || cfg->ring_size < RXB_RING_MIN ||
	    cfg->ring_size > RXB_RING_MAX) {
		*msg = "ring size must be a power of two in 64..8192";
		return -EINVAL;
	}
	return ops->validate ? ops->validate(cfg, msg) : 0;
}

/**
 * rxb_model_init_common() - validate @cfg and set up the common head.
 * @m: instance being created.
 * @ops: its model.
 * @cfg: requested configuration.
 *
 * Return: 0, -EINVAL for a configuration no model accepts, or -ENOMEM.
 */
int rxb_model_init_common(struct rxb_model *m,
			  const struct rxb_model_ops *ops,
			  const struct rxb_model_cfg *cfg)
{
	const char *msg;

	if (rxb_model_validate(ops, cfg, &msg))
		return -EINVAL;
	m->ops = ops;
	m->cfg = *cfg;
	m->qstats = kcalloc(cfg->nqueues, sizeof(*m->qstats), GFP_KERNEL);
	return m->qstats ? 0 : -ENOMEM;
}

/**
 * rxb_model_fini_common() - free what rxb_model_init_common() allocated.
 * @m: instance being destroyed.
 */
void rxb_model_fini_common(struct rxb_model *m)
{
	kfree(m->qstats);
	m->qstats = NULL;
}

/**
 * rxb_ring_refill() - driver side: post fresh buffers to a ring the NIC
 * consumes in order (privRing Rx ring, rxBisect Ax ring).
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
	struct rxb_qstats *st = &m->qstats[qi];
	u32 t = *tail;
	struct rxb_buf buf;

	while (t - ci <= mask) {
		u32 slot = t & mask;

		if (m->cfg.env_ops->alloc_buf(m->cfg.env, qi, &buf)) {
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
		rxb_db_write(doorbell, t);
	}
	return t - ci == mask + 1;
}

/**
 * rxb_cq_deliver() - NIC side: DMA a frame into a buffer and report it in
 * a completion ring (privRing, shRing, COREC).
 * @m: the model instance.
 * @qi: queue whose counters count the frame.
 * @f: the frame; the caller checked it fits the buffer.
 * @buf_addr: bus address of the buffer.
 * @cq: the completion ring.
 * @mask: completion ring size - 1.
 * @order: log2 of the completion ring size.
 * @cq_tail: the NIC's CR tail index; advanced.  The caller checked the ring
 *	has room and holds the lock that serialises writers of @cq.
 * @desc_idx: descriptor slot the buffer came from.
 * @ring_id: Rx ring of @desc_idx.
 */
void rxb_cq_deliver(struct rxb_model *m, unsigned int qi,
		    const struct rxb_frame *f, u64 buf_addr, struct rxb_cqe *cq,
		    u32 mask, unsigned int order, u32 *cq_tail, u16 desc_idx,
		    u16 ring_id)
{
	struct rxb_qstats *st = &m->qstats[qi];
	u8 flags = f->hash_flags;
	u32 csum = 0;

	flags |= m->cfg.env_ops->dma_write(m->cfg.env, f, buf_addr, &csum);
	rxb_cqe_write(&cq[*cq_tail & mask], rxb_gen(*cq_tail, order), desc_idx,
		      ring_id, f->len, f->hash, csum, flags);
	/* WRITE_ONCE: the models' ring_state() reads it from anywhere. */
	WRITE_ONCE(*cq_tail, *cq_tail + 1);
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
}
