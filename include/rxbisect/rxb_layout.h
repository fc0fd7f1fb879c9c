/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory of a ring-model half (either side): an instance whose head
 * comes first, tables of per-queue (or per-shared-ring) structures, and
 * arrays each element of a table points to, allocated zeroed and freed
 * together (drivers/net/rxbisect/lib/layout.c).  Ring memory the NIC
 * reads or writes is not allocated here: the driver half takes it from
 * the driver (rxb_drv_ops.dma_alloc), the hardware half maps it.
 */
#ifndef _RXB_LAYOUT_H
#define _RXB_LAYOUT_H

#include <linux/stddef.h>
#include <linux/types.h>
#include <rxbisect/rxb_model.h>

/**
 * enum rxb_array_len - entries of an array of a per-queue structure.
 * @RXB_ARR_RING: the configuration's ring_size.
 * @RXB_ARR_RING_BITS: ring_size / BITS_PER_LONG (a bitmap by slot).
 * @RXB_ARR_AX: the configuration's ax_ring_size.
 */
enum rxb_array_len {
	RXB_ARR_RING,
	RXB_ARR_RING_BITS,
	RXB_ARR_AX,
};

/**
 * struct rxb_array - an array each element of a table points to.
 * @off: offset of the pointer in the table's element.
 * @size: bytes of one entry of the array.
 * @len: entries (enum rxb_array_len).
 */
struct rxb_array {
	size_t off;
	size_t size;
	enum rxb_array_len len;
};

/* An array of @n entries of @elem, pointed to by @type's member @field. */
#define RXB_ARRAY(type, field, elem, n)	{ offsetof(type, field), sizeof(elem), n }

#define RXB_LAYOUT_TABLES	4
#define RXB_LAYOUT_ARRAYS	5

/**
 * struct rxb_table - a table of per-queue (or per-shared-ring) structures.
 * @off: offset in the instance of the pointer to the table.
 * @size: bytes of one element.
 * @count: elements; NULL: one per queue.
 * @arrays: arrays each element points to, allocated zeroed.
 */
struct rxb_table {
	size_t off;
	size_t size;
	unsigned int (*count)(const struct rxb_model_cfg *cfg);
	struct rxb_array arrays[RXB_LAYOUT_ARRAYS];
};

/**
 * struct rxb_layout - the memory of a model half, for rxb_layout_alloc()
 * and rxb_layout_free().
 * @size: bytes of the instance, whose head comes first.
 * @tables: its tables; unused ones have size 0.
 */
struct rxb_layout {
	size_t size;
	struct rxb_table tables[RXB_LAYOUT_TABLES];
};

/* A table of instance @inst at its member @member: entries of @type, as
 * many as @cnt says (NULL: one per queue), each pointing to the arrays
 * given.
 */
#define RXB_TABLE(inst, member, type, cnt, ...)				\
	{ .off = offsetof(inst, member), .size = sizeof(type),		\
	  .count = cnt, .arrays = { __VA_ARGS__ } }

/* The layout of instance @inst whose one table is its queues (@qtype, one
 * per queue, at its member q), each pointing to the arrays given.
 */
#define RXB_QUEUE_LAYOUT(inst, qtype, ...)				\
	{ .size = sizeof(inst),						\
	  .tables = { RXB_TABLE(inst, q, qtype, NULL, __VA_ARGS__) } }

void *rxb_layout_alloc(const struct rxb_layout *lay,
		       const struct rxb_model_cfg *cfg);
void rxb_layout_free(void *inst, const struct rxb_layout *lay,
		     const struct rxb_model_cfg *cfg);
unsigned int rxb_table_len(const struct rxb_model_cfg *cfg,
			   const struct rxb_table *t);
u64 *rxb_stats_read(u64 *vals, const void *base, const u16 *off,
		    unsigned int n);
char *rxb_xstats_names_fill(char *names, const char *prefix, unsigned int n,
			    const char *const *tbl, unsigned int ntbl);

/**
 * RXB_DEFINE_INSTANCE() - define the create and destroy of one half's
 *	instances: the same skeleton for the driver half (struct rxb_model)
 *	and the hardware half (struct rxb_hw_model).
 * @create: name of the create function: allocate @ops->layout for the
 *	configuration (zeroed), fill the instance's head, run @head_init
 *	and then the model's optional init(); on init's failure destroy
 *	the instance.  Returns it, or an ERR_PTR().
 * @destroy: name of the destroy function: run the model's optional
 *	fini() (which also undoes a failed init), @head_fini, and free; a
 *	NULL or ERR_PTR() instance is none.
 * @inst_t: the instance head, first in every instance of the half.
 * @ops_t: the half's ops: members layout, init and fini.
 * @env_t: the services the half is created with.
 * @ctx: the head's member for their argument.
 * @head_init: int @head_init(@inst_t *): the half's own part of the head.
 * @head_fini: void @head_fini(@inst_t *): undoes it.
 */
#define RXB_DEFINE_INSTANCE(create, destroy, inst_t, ops_t, env_t, ctx,	\
			    head_init, head_fini)			\
void destroy(inst_t *m)							\
{									\
	struct rxb_model_cfg cfg;					\
									\
	if (IS_ERR_OR_NULL(m))						\
		return;							\
	cfg = m->cfg;							\
	if (m->ops->fini)						\
		m->ops->fini(m);					\
	head_fini(m);							\
	rxb_layout_free(m, m->ops->layout, &cfg);			\
}									\
									\
inst_t *create(const ops_t *ops, const struct rxb_model_cfg *cfg,	\
	       const env_t *env, void *arg, const struct rxb_bar *bar)	\
{									\
	inst_t *m = rxb_layout_alloc(ops->layout, cfg);			\
	int err;							\
									\
	if (!m)								\
		return ERR_PTR(-ENOMEM);				\
	m->ops = ops;							\
	m->cfg = *cfg;							\
	m->env = env;							\
	m->ctx = arg;							\
	m->bar = *bar;							\
	err = head_init(m);						\
	if (err) {							\
		rxb_layout_free(m, ops->layout, cfg);			\
		return ERR_PTR(err);					\
	}								\
	err = ops->init ? ops->init(m) : 0;				\
	if (err) {							\
		destroy(m);						\
		return ERR_PTR(err);					\
	}								\
	return m;							\
}

#endif /* _RXB_LAYOUT_H */
