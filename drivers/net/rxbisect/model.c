// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect ring-model registry and the parts every model shares.
 *
 * Builds in the kernel and, through tools/testing/rxbisect's shim headers,
 * in userspace.
 */
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
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
	&rxb_enso_ops,
	&rxb_ceio_ops,
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
	if (!cfg->nqueues || !cfg->buf_len || !cfg->drv_ops || !cfg->hw_ops) {
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
	/* The split record sits before the buffer and the payload comes
	 * back behind the headers: a buffer of its own per packet.
	 */
	if (cfg->nicmem_split && (ops->multi_pkt_bufs || ops->stream)) {
		*msg = "nicmem_split: needs a buffer per packet (not shring-batched or enso)";
		return -EINVAL;
	}
	if (cfg->nicmem_split && !cfg->nicmem_bytes) {
		*msg = "nicmem_split: the split needs an on-NIC memory tier (nicmem_kb > 0)";
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
static int rxb_model_init_common(struct rxb_model *m,
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
static void rxb_model_fini_common(struct rxb_model *m)
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
 * rxb_cring_deliver() - NIC side: DMA a frame into a buffer and report it
 * in a completion ring (privRing, shRing, batched RxList, COREC).
 * @m: the model instance.
 * @qi: queue whose counters count the frame.
 * @cr: the completion ring.
 * @tail: the NIC's tail index; advanced.  The caller holds the lock that
 *	serialises writers of @cr and rxb_cring_admit() accepted the frame.
 * @f: the frame.
 * @buf_addr: bus address the frame goes to.
 * @desc_idx: descriptor slot the buffer came from.
 * @ring_id: Rx ring of @desc_idx, or (batched RxList) the frame's offset
 *	in that descriptor's buffer.
 * @flags: RXB_MCQE_F_CLOSE or 0; the frame's hash flags and the DMA's
 *	flags are added.
 */
void rxb_cring_deliver(struct rxb_model *m, unsigned int qi,
		       const struct rxb_cring *cr, u32 *tail,
		       const struct rxb_frame *f, u64 buf_addr, u16 desc_idx,
		       u16 ring_id, u8 flags)
{
	struct rxb_cqe *cqe = &cr->ent[*tail & cr->mask];
	struct rxb_qstats *st = &m->qstats[qi];
	u32 csum = 0;

	/* A failed write is still reported: the driver gets its buffer. */
	flags |= f->hash_flags;
	flags |= rxb_hw_dma_write(m, f, buf_addr, &csum);
	cqe->rss_hash = cpu_to_le32(f->hash);
	cqe->csum = cpu_to_le32(csum);
	cqe->pkt_len = cpu_to_le16(f->len);
	cqe->ring_id = cpu_to_le16(ring_id);
	rxb_cring_note(cr, tail, desc_idx, flags);
	rxb_hw_pcie(m, qi, RXB_PCIE_META_WR, sizeof(*cqe));
	rxb_stat_inc(&st->hw_packets);
	rxb_stat_add(&st->hw_bytes, f->len);
}

/**
 * rxb_cring_note() - NIC side: publish the entry at the tail.
 * @cr: the completion ring.
 * @tail: the NIC's tail index; advanced.  Under the lock that serialises
 *	writers of @cr, which has room (rxb_cring_admit()).
 * @desc_idx: descriptor slot the entry names.
 * @flags: its flags, less the done bit.
 *
 * Called by rxb_cring_deliver() once it wrote the packet's fields, or
 * alone for an entry without a packet (its packet fields are zeroed
 * here only then: batched RxList's RXB_MCQE_F_NOPKT).
 */
void rxb_cring_note(const struct rxb_cring *cr, u32 *tail, u16 desc_idx,
		    u8 flags)
{
	struct rxb_cqe *cqe = &cr->ent[*tail & cr->mask];

	if (flags & RXB_MCQE_F_NOPKT) {
		cqe->rss_hash = 0;
		cqe->csum = 0;
		cqe->pkt_len = 0;
		cqe->buf_off = 0;
	}
	cqe->desc_idx = cpu_to_le16(desc_idx);
	cqe->reserved = 0;
	if (rxb_gen(*tail, cr->order))
		flags |= RXB_CQE_F_DONE;
	/* Release: the packet data (dma_write) and the fields above are
	 * visible before the done bit.  Pairs with the acquire in
	 * rxb_cring_ready().
	 */
	smp_store_release(&cqe->flags, flags);
	/* WRITE_ONCE: the models' hw_debug() reads it from anywhere. */
	WRITE_ONCE(*tail, *tail + 1);
}

/**
 * rxb_cring_consume() - driver side: give the entries read back to the NIC.
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
	struct rxb_qstats *st = &m->qstats[qi];

	/* WRITE_ONCE: the models' ring_state() reads it from anywhere. */
	WRITE_ONCE(*head, *head + n);
	/* Release: our reads of the entries are done before the NIC may
	 * reuse them.  Pairs with the acquire in rxb_cring_held().
	 */
	rxb_db_ring(m, qi, cr->db, *head);
	rxb_stat_add(&st->packets, pkts);
	rxb_stat_add(&st->bytes, bytes);
}

/**
 * rxb_table_len() - elements of one of an instance's tables.
 * @m: the instance, its configuration set.
 * @t: the table.
 *
 * Return: its count() of the configuration, or one per queue.
 */
unsigned int rxb_table_len(const struct rxb_model *m, const struct rxb_table *t)
{
	return t->count ? t->count(&m->cfg) : m->cfg.nqueues;
}

static size_t rxb_array_len(const struct rxb_model_cfg *cfg,
			    const struct rxb_array *a)
{
	switch (a->len) {
	case RXB_ARR_RING_BITS:
		return cfg->ring_size / BITS_PER_LONG;
	case RXB_ARR_AX:
		return cfg->ax_ring_size;
	default:
		return cfg->ring_size;
	}
}

/**
 * rxb_model_free() - free an instance rxb_model_alloc() allocated.
 * @m: the instance; the model freed the buffers its rings hold.  Arrays
 *	and tables not allocated (NULL) are skipped.
 * @lay: its layout.
 */
void rxb_model_free(struct rxb_model *m, const struct rxb_layout *lay)
{
	unsigned int t, i, j;

	for (t = 0; t < RXB_LAYOUT_TABLES && lay->tables[t].size; t++) {
		const struct rxb_table *tb = &lay->tables[t];
		char *el = *(char **)((char *)m + tb->off);

		for (i = 0; el && i < rxb_table_len(m, tb); i++)
			for (j = 0; j < RXB_LAYOUT_ARRAYS && tb->arrays[j].size; j++)
				kvfree(*(void **)(el + i * tb->size +
						  tb->arrays[j].off));
		kfree(el);
	}
	rxb_model_fini_common(m);
	kfree(m);
}

/**
 * rxb_model_alloc() - the create skeleton every model shares: allocate an
 * instance, its tables and their arrays, zeroed, and set up its head.
 * @ops: the model.
 * @cfg: requested configuration.
 * @lay: what to allocate.
 *
 * Unwinds on failure.  The model then initialises locks, rings and
 * buffers, and frees the instance with rxb_model_free().
 *
 * Return: the instance, or ERR_PTR(-EINVAL) for a configuration the model
 * refuses, ERR_PTR(-ENOMEM).
 */
struct rxb_model *rxb_model_alloc(const struct rxb_model_ops *ops,
				  const struct rxb_model_cfg *cfg,
				  const struct rxb_layout *lay)
{
	struct rxb_model *m = kzalloc(lay->size, GFP_KERNEL);
	unsigned int t, i, j, n;
	int err;

	if (!m)
		return ERR_PTR(-ENOMEM);
	err = rxb_model_init_common(m, ops, cfg);
	if (err) {
		kfree(m);
		return ERR_PTR(err);
	}
	for (t = 0; t < RXB_LAYOUT_TABLES && lay->tables[t].size; t++) {
		const struct rxb_table *tb = &lay->tables[t];
		char *el;

		n = rxb_table_len(m, tb);
		el = kcalloc(n, tb->size, GFP_KERNEL);
		*(char **)((char *)m + tb->off) = el;
		if (!el)
			goto nomem;
		for (i = 0; i < n; i++)
			for (j = 0; j < RXB_LAYOUT_ARRAYS && tb->arrays[j].size; j++) {
				const struct rxb_array *a = &tb->arrays[j];
				void *p = kvcalloc(rxb_array_len(cfg, a), a->size,
						   GFP_KERNEL);

				*(void **)(el + i * tb->size + a->off) = p;
				if (!p)
					goto nomem;
			}
	}
	return m;

nomem:
	rxb_model_free(m, lay);
	return ERR_PTR(-ENOMEM);
}

/**
 * rxb_stats_read() - read u64 counters of a structure by their offsets.
 * @vals: where the values go.
 * @base: the structure.
 * @off: the counters' offsets in it.
 * @n: entries of @off.
 *
 * Return: @vals past the values stored.
 */
u64 *rxb_stats_read(u64 *vals, const void *base, const u16 *off,
		    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		*vals++ = READ_ONCE(*(const u64 *)((const char *)base + off[i]));
	return vals;
}

/**
 * rxb_xstats_names_fill() - name a table of counters for @n rings.
 * @names: where the names go, one every RXB_STAT_NAME_LEN bytes.
 * @prefix: prefix of ring i's names: "<prefix><i>_<name>".
 * @n: rings.
 * @tbl: the counters' names, in the order xstats_values() gives them.
 * @ntbl: entries of @tbl.
 *
 * Return: @names past the last name written.
 */
char *rxb_xstats_names_fill(char *names, const char *prefix, unsigned int n,
			    const char *const *tbl, unsigned int ntbl)
{
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < ntbl; j++) {
			snprintf(names, RXB_STAT_NAME_LEN, "%s%u_%s", prefix, i,
				 tbl[j]);
			names += RXB_STAT_NAME_LEN;
		}
	return names;
}
