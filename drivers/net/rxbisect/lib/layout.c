// SPDX-License-Identifier: GPL-2.0
/*
 * The memory of a ring-model half (include/rxbisect/rxb_layout.h), and the
 * counter helpers both halves use.  Neither side's: builds with the NIC's
 * files and the driver's alike, in the kernel and in userspace.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rxbisect/rxb_layout.h>

/**
 * rxb_table_len() - elements of one of an instance's tables.
 * @cfg: the instance's configuration.
 * @t: the table.
 *
 * Return: its count() of the configuration, or one per queue.
 */
unsigned int rxb_table_len(const struct rxb_model_cfg *cfg,
			   const struct rxb_table *t)
{
	return t->count ? t->count(cfg) : cfg->nqueues;
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
 * rxb_layout_free() - free an instance rxb_layout_alloc() allocated.
 * @inst: the instance, or NULL.  Arrays and tables not allocated (NULL)
 *	are skipped.
 * @lay: its layout.
 * @cfg: the configuration it was allocated for.
 */
void rxb_layout_free(void *inst, const struct rxb_layout *lay,
		     const struct rxb_model_cfg *cfg)
{
	unsigned int t, i, j;

	if (!inst)
		return;
	for (t = 0; t < RXB_LAYOUT_TABLES && lay->tables[t].size; t++) {
		const struct rxb_table *tb = &lay->tables[t];
		char *el = *(char **)((char *)inst + tb->off);

		for (i = 0; el && i < rxb_table_len(cfg, tb); i++)
			for (j = 0; j < RXB_LAYOUT_ARRAYS && tb->arrays[j].size; j++)
				kvfree(*(void **)(el + i * tb->size +
						  tb->arrays[j].off));
		kfree(el);
	}
	kfree(inst);
}

/**
 * rxb_layout_alloc() - allocate an instance, its tables and their arrays,
 *	zeroed.
 * @lay: what to allocate.
 * @cfg: the configuration (queues, ring sizes).
 *
 * Unwinds on failure.
 *
 * Return: the instance, or NULL.
 */
void *rxb_layout_alloc(const struct rxb_layout *lay,
		       const struct rxb_model_cfg *cfg)
{
	char *inst = kzalloc(lay->size, GFP_KERNEL);
	unsigned int t, i, j, n;

	if (!inst)
		return NULL;
	for (t = 0; t < RXB_LAYOUT_TABLES && lay->tables[t].size; t++) {
		const struct rxb_table *tb = &lay->tables[t];
		char *el;

		n = rxb_table_len(cfg, tb);
		el = kcalloc(n, tb->size, GFP_KERNEL);
		*(char **)(inst + tb->off) = el;
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
	return inst;

nomem:
	rxb_layout_free(inst, lay, cfg);
	return NULL;
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
