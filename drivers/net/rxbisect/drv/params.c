// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-model parameters, one table for both interfaces that set them:
 * module parameters (/sys/module/rxbisect/parameters, every port) and
 * devlink parameters (one device's ports).  To add a parameter: a field in
 * struct rxb_mparams, an RXB_P_* index and an entry here, then a
 * module_param_cb() line in main.c; devlink picks it up by itself.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include "rxbisect.h"

static const char * const rxb_ax_policy_names[RXB_AX_NPOLICIES] = {
	[RXB_AX_RR]	= "rr",
	[RXB_AX_MOST]	= "most",
	[RXB_AX_RANDOM]	= "random",
};

static const char * const rxb_enso_prefetch_names[] = {
	"off", "on",
};

static const char * const rxb_ceio_release_names[RXB_CEIO_REL_NMODES] = {
	[RXB_CEIO_REL_BATCH]	= "batch",
	[RXB_CEIO_REL_PAGE]	= "page",
};

static const char * const rxb_ceio_fetch_names[] = {
	"sync", "async",
};

static const char * const rxb_corec_irq_names[RXB_COREC_IRQ_NPOLICIES] = {
	[RXB_COREC_IRQ_RR]	= "rr",
	[RXB_COREC_IRQ_ALL]	= "all",
};

#define RXB_CPU(n)	"cpu" #n
static const char * const rxb_engine_names[RXB_MAX_QUEUES + 1] = {
	"inline",
	RXB_CPU(0), RXB_CPU(1), RXB_CPU(2), RXB_CPU(3), RXB_CPU(4), RXB_CPU(5),
	RXB_CPU(6), RXB_CPU(7), RXB_CPU(8), RXB_CPU(9), RXB_CPU(10),
	RXB_CPU(11), RXB_CPU(12), RXB_CPU(13), RXB_CPU(14), RXB_CPU(15),
	RXB_CPU(16), RXB_CPU(17), RXB_CPU(18), RXB_CPU(19), RXB_CPU(20),
	RXB_CPU(21), RXB_CPU(22), RXB_CPU(23), RXB_CPU(24), RXB_CPU(25),
	RXB_CPU(26), RXB_CPU(27), RXB_CPU(28), RXB_CPU(29), RXB_CPU(30),
	RXB_CPU(31),
};

#define RXB_MP(f)	offsetof(struct rxb_mparams, f)

/* Not const: kernel_param.arg, which points here, is a plain pointer. */
struct rxb_param rxb_params[RXB_NPARAMS] = {
	[RXB_P_MODEL]	 = { "ring_model", -1 },
	[RXB_P_SHARE]	 = { "share_factor", RXB_MP(share_factor), 1,
			     RXB_MAX_QUEUES },
	[RXB_P_AX]	 = { "ax_ring_size", RXB_MP(ax_ring_size), RXB_RING_MIN,
			     RXB_RING_MAX, true },
	[RXB_P_POLICY]	 = { "ax_policy", RXB_MP(ax_policy), 0,
			     RXB_AX_NPOLICIES - 1, false, rxb_ax_policy_names },
	[RXB_P_ASSOC]	 = { "ax_assoc", RXB_MP(ax_assoc), 0, RXB_MAX_QUEUES },
	[RXB_P_COMPRESS] = { "notif_compress", RXB_MP(notif_compress), 0, 1 },
	[RXB_P_TIMEOUT]	 = { "notif_timeout_us", RXB_MP(notif_timeout_us), 1,
			     1000000 },
	[RXB_P_WS]	 = { "ws_window", RXB_MP(ws_window), 256, 1U << 20, true },
	[RXB_P_CACHE]	 = { "cache_kb", RXB_MP(cache_kb), 1, 1U << 22 },
	[RXB_P_COREC_CONSUMERS] = { "corec_consumers", RXB_MP(corec_consumers),
				    0, RXB_MAX_QUEUES },
	[RXB_P_COREC_IRQ] = { "corec_irq_policy", RXB_MP(corec_irq_policy), 0,
			      RXB_COREC_IRQ_NPOLICIES - 1, false,
			      rxb_corec_irq_names },
	[RXB_P_ENGINE]	 = { "engine", RXB_MP(engine), 0, RXB_MAX_QUEUES, false,
			     rxb_engine_names },
	[RXB_P_DSH_PERIOD] = { "dsh_period_us", RXB_MP(dsh_period_us), 100,
			       10000000 },
	[RXB_P_DSH_WINDOW] = { "dsh_window", RXB_MP(dsh_window), 8, 64 },
	[RXB_P_DSH_TPUT] = { "dsh_tput_mbps", RXB_MP(dsh_tput_mbps), 1, 1000000 },
	[RXB_P_DSH_OVERLOAD] = { "dsh_overload_ratio", RXB_MP(dsh_overload_ratio),
				 2, 1024 },
	[RXB_P_ASSOC_MAP] = { "ax_assoc_map", RXB_MP(ax_assoc_map), 0, 0, false,
			      NULL, true },
	[RXB_P_LINK]	 = { "ax_link", RXB_MP(ax_link), 0, 0, false, NULL,
			     true },
	[RXB_P_FLOW_SIZE] = { "flow_table_size", RXB_MP(flow_table_size),
			      RXB_FLOW_TABLE_MIN, RXB_FLOW_TABLE_MAX },
	[RXB_P_FLOW_IDLE] = { "flow_idle_ms", RXB_MP(flow_idle_ms), 1, 600000 },
	[RXB_P_NICMEM_KB] = { "nicmem_kb", RXB_MP(nicmem_kb), 0,
			      RXB_NICMEM_MAX_KB },
	[RXB_P_NICMEM_NS] = { "nicmem_fetch_ns", RXB_MP(nicmem_fetch_ns), 0,
			      RXB_NICMEM_MAX_NS },
	[RXB_P_ENSO_PIPES] = { "enso_pipes", RXB_MP(enso_pipes), 1,
			       RXB_ENSO_MAX_PIPES_Q, true },
	[RXB_P_ENSO_PIPE_KB] = { "enso_pipe_kb", RXB_MP(enso_pipe_kb),
				 RXB_ENSO_PIPE_MIN / 1024,
				 RXB_ENSO_PIPE_MAX / 1024, true },
	[RXB_P_ENSO_PREFETCH] = { "enso_prefetch", RXB_MP(enso_prefetch), 0, 1,
				  false, rxb_enso_prefetch_names },
	[RXB_P_LLC_BUDGET] = { "llc_budget", RXB_MP(llc_budget), RXB_RX_BUF_LEN,
			       RXB_CEIO_BUDGET_MAX },
	[RXB_P_CEIO_RELEASE] = { "ceio_release", RXB_MP(ceio_release), 0,
				 RXB_CEIO_REL_NMODES - 1, false,
				 rxb_ceio_release_names },
	[RXB_P_CEIO_FETCH] = { "ceio_fetch", RXB_MP(ceio_fetch), 0, 1, false,
			       rxb_ceio_fetch_names },
	[RXB_P_CEIO_FORCE_SLOW] = { "ceio_force_slow", RXB_MP(ceio_force_slow),
				    0, 1, false, rxb_enso_prefetch_names },
	[RXB_P_NICMEM_SPLIT] = { "nicmem_split", RXB_MP(nicmem_split), 0, 1,
				 false, rxb_enso_prefetch_names },
};

/* Why @p refuses a value outside its range. */
static const char *rxb_param_range_msg(const struct rxb_param *p)
{
	if (p == &rxb_params[RXB_P_ENSO_PIPE_KB])
		return "enso: pipe size out of range: 4..2048 KiB (2 MiB at most)";
	if (p == &rxb_params[RXB_P_ENSO_PIPES])
		return "enso: pipes per queue out of range: 1..512";
	if (p == &rxb_params[RXB_P_LLC_BUDGET])
		return "ceio: llc_budget below one buffer or above what the NIC addresses (1 GiB)";
	return "out of range (see modinfo rxbisect)";
}

/* A topology string parameter (ax_assoc_map, ax_link). */
static int rxb_param_store_str(struct rxb_cfg *cfg, const struct rxb_param *p,
			       const char *buf, const char **msg)
{
	struct rxb_model_cfg mcfg = { .nqueues = RXB_MAX_MODEL_QUEUES };
	char *dst = (char *)&cfg->mp + p->off;

	if (!strcmp(buf, "default"))
		buf = "";
	if (strlen(buf) >= RXB_AX_TOPO_LEN) {
		*msg = "too long (31 characters at most)";
		return -EINVAL;
	}
	/* The syntax is checked here, whatever the model, for the most
	 * queues a port may have: ax_link alone, ax_assoc_map against the
	 * Ax rings of the current ax_link.  rxBisect's validate() checks the
	 * whole against each port's queue count.
	 */
	if (p == &rxb_params[RXB_P_LINK]) {
		strscpy(mcfg.ax_link, buf, sizeof(mcfg.ax_link));
	} else {
		strscpy(mcfg.ax_link, cfg->mp.ax_link, sizeof(mcfg.ax_link));
		strscpy(mcfg.ax_assoc_map, buf, sizeof(mcfg.ax_assoc_map));
	}
	if (rxb_rxbisect_topo_check(&mcfg, msg))
		return -EINVAL;
	strscpy(dst, buf, RXB_AX_TOPO_LEN);
	return 0;
}

/**
 * rxb_param_store() - parse @val and store it in @cfg.
 * @cfg: configuration to change.
 * @p: the parameter.
 * @val: its new value as text (a trailing newline is ignored).
 * @msg: set to a static explanation on error.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_param_store(struct rxb_cfg *cfg, const struct rxb_param *p,
		    const char *val, const char **msg)
{
	char buf[RXB_PARAM_STRLEN];
	u32 i, n;

	if (strlen(val) >= sizeof(buf)) {
		*msg = "too long";
		return -EINVAL;
	}
	strscpy(buf, val, sizeof(buf));
	strim(buf);
	if (p->str)
		return rxb_param_store_str(cfg, p, strim(buf), msg);
	if (p->off < 0) {
		const struct rxb_model_ops *ops = rxb_model_find(buf);

		if (!ops) {
			*msg = "unknown ring model";
			return -EINVAL;
		}
		cfg->model = ops;
		return 0;
	}
	if (p->names) {
		for (i = p->min; i <= p->max; i++)
			if (!strcmp(buf, p->names[i]))
				break;
		if (i > p->max) {
			*msg = p == &rxb_params[RXB_P_CEIO_RELEASE] ?
			       "ceio: unknown credit release mode (batch, page)" :
			       "unknown value";
			return -EINVAL;
		}
		n = i;
	} else if (kstrtou32(buf, 0, &n)) {
		*msg = "not a number";
		return -EINVAL;
	} else if (n < p->min || n > p->max) {
		*msg = rxb_param_range_msg(p);
		return -EINVAL;
	} else if (p->pow2 && !is_power_of_2(n)) {
		*msg = "must be a power of two";
		return -EINVAL;
	}
	/* Checked here, not only by dshRing: a value set while another
	 * model runs would otherwise be refused at the switch to dshRing.
	 */
	if (p == &rxb_params[RXB_P_DSH_WINDOW] && n % 8) {
		*msg = "must be a multiple of 8";
		return -EINVAL;
	}
	/* CEIO's forced slow path needs the on-NIC memory tier. */
	if ((p == &rxb_params[RXB_P_CEIO_FORCE_SLOW] && n &&
	     !cfg->mp.nicmem_kb) ||
	    (p == &rxb_params[RXB_P_NICMEM_KB] && !n &&
	     cfg->mp.ceio_force_slow)) {
		*msg = "ceio: slow path forced but the on-NIC memory tier has no capacity";
		return -EINVAL;
	}
	/* The header/data split keeps payloads in the tier. */
	if ((p == &rxb_params[RXB_P_NICMEM_SPLIT] && n && !cfg->mp.nicmem_kb) ||
	    (p == &rxb_params[RXB_P_NICMEM_KB] && !n && cfg->mp.nicmem_split)) {
		*msg = "nicmem_split: the split needs an on-NIC memory tier (nicmem_kb > 0)";
		return -EINVAL;
	}
	if (p == &rxb_params[RXB_P_ENGINE] && n && !cpu_online(n - 1)) {
		*msg = "the engine CPU is not online";
		return -EINVAL;
	}
	*(u32 *)((char *)&cfg->mp + p->off) = n;
	return 0;
}

/**
 * rxb_param_show() - the value of @p in @cfg, as text.
 * @cfg: configuration.
 * @p: the parameter.
 * @buf: RXB_PARAM_STRLEN bytes.
 */
void rxb_param_show(const struct rxb_cfg *cfg, const struct rxb_param *p,
		    char *buf)
{
	u32 v;

	if (p->off < 0) {
		strscpy(buf, cfg->model ? cfg->model->name : "privring",
			RXB_PARAM_STRLEN);
		return;
	}
	if (p->str) {
		strscpy(buf, (const char *)&cfg->mp + p->off, RXB_PARAM_STRLEN);
		if (!*buf)
			strscpy(buf, "default", RXB_PARAM_STRLEN);
		return;
	}
	v = *(const u32 *)((const char *)&cfg->mp + p->off);
	if (p->names)
		strscpy(buf, p->names[v], RXB_PARAM_STRLEN);
	else
		snprintf(buf, RXB_PARAM_STRLEN, "%u", v);
}
