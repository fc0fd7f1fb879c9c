// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect ring-model registry: one line per model, and the checks every
 * model's configuration passes.  The driver's: it names each model's
 * hardware half only as the opaque pointer it hands the NIC.
 *
 * Builds in the kernel and, through tools/testing/rxbisect's shim headers,
 * in userspace.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>

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

/* The registered ring models: RXB_MODELS() in rxb_model.h. */
#define RXB_MODEL_ENTRY(name) &rxb_##name##_ops,
static const struct rxb_model_ops *const rxb_models[] = {
	RXB_MODELS(RXB_MODEL_ENTRY)
};

#undef RXB_MODEL_ENTRY

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
	if (!cfg->nqueues || !cfg->buf_len) {
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
