// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-model parameters, for both interfaces that set them: module
 * parameters (/sys/module/rxbisect/parameters, every port; main.c) and
 * devlink parameters (one device's ports; dev.c).  Each is declared once,
 * in rxb_param_list.h; this file parses, checks and shows them.
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include "rxbisect.h"

/* The names of RXB_PT_NAMES parameters are their enums' values in order. */
static_assert(RXB_AX_RR == 0 && RXB_AX_MOST == 1 && RXB_AX_RANDOM == 2 &&
	      RXB_AX_NPOLICIES == 3);
static_assert(RXB_COREC_IRQ_RR == 0 && RXB_COREC_IRQ_ALL == 1 &&
	      RXB_COREC_IRQ_NPOLICIES == 2);
static_assert(RXB_CEIO_REL_BATCH == 0 && RXB_CEIO_REL_PAGE == 1 &&
	      RXB_CEIO_REL_NMODES == 2);
/* The literal limits of rxb_param_list.h that stand for the datasheet's. */
static_assert(RXB_AX_TOPO_LEN == 32);			/* "at most 31" */
static_assert(RXB_MAX_QUEUES == 32);			/* engine: cpu31 */
static_assert(RXB_MAX_ENGINES == 16);			/* engines: 1..16 */
static_assert(4 * 1024 == RXB_ENSO_PIPE_MIN && 2048 * 1024 == RXB_ENSO_PIPE_MAX);
static_assert(1073741824 == RXB_CEIO_BUDGET_MAX);
static_assert(6291456 == RXB_CEIO_BUDGET_DEF);

/* A topology string (ax_assoc_map, ax_link): its syntax is checked here,
 * whatever the model, for the most queues a port may have: ax_link alone,
 * ax_assoc_map against the Ax rings of the current ax_link.  rxBisect's
 * validate() checks the whole against each port's queue count.
 */
static int rxb_check_topo(const char *link, const char *map, const char **msg)
{
	struct rxb_model_cfg mcfg = { .nqueues = RXB_MAX_MODEL_QUEUES };

	strscpy(mcfg.ax_link, link, sizeof(mcfg.ax_link));
	strscpy(mcfg.ax_assoc_map, map, sizeof(mcfg.ax_assoc_map));
	return rxb_rxbisect_topo_check(&mcfg, msg) ? -EINVAL : 0;
}

static int rxb_check_ax_link(const struct rxb_cfg *cfg, u32 val,
			     const char *str, const char **msg)
{
	return rxb_check_topo(str, "", msg);
}

static int rxb_check_assoc_map(const struct rxb_cfg *cfg, u32 val,
			       const char *str, const char **msg)
{
	return rxb_check_topo(cfg->mp.ax_link, str, msg);
}

/**
 * rxb_engine_cpus_ok() - are the CPUs of an engine online?
 * @engine: the engine parameter's value: 0 (inline), or cpuN's N + 1.
 * @engines: its pipelines: CPUs N to N + @engines - 1.
 *
 * Return: true when they are, or inline.
 */
bool rxb_engine_cpus_ok(u32 engine, u32 engines)
{
	u32 i;

	for (i = 0; engine && i < engines; i++)
		if (engine - 1 + i >= nr_cpu_ids || !cpu_online(engine - 1 + i))
			return false;
	return true;
}

static int rxb_check_engine(const struct rxb_cfg *cfg, u32 val,
			    const char *str, const char **msg)
{
	if (val && !cpu_online(val - 1)) {
		*msg = "engine: the engine CPU is not online";
		return -EINVAL;
	}
	if (!rxb_engine_cpus_ok(val, cfg->mp.engines)) {
		*msg = "engine: the CPUs of the engines pipelines from it are not all online";
		return -EINVAL;
	}
	return 0;
}

static int rxb_check_engines(const struct rxb_cfg *cfg, u32 val,
			     const char *str, const char **msg)
{
	if (!rxb_engine_cpus_ok(cfg->mp.engine, val)) {
		*msg = "engines: the pipelines' CPUs, from the engine CPU on, are not all online";
		return -EINVAL;
	}
	return 0;
}

/* Checked here, not only by dshRing: a value set while another model runs
 * would otherwise be refused at the switch to dshRing.
 */
static int rxb_check_dsh_window(const struct rxb_cfg *cfg, u32 val,
				const char *str, const char **msg)
{
	if (val % 8) {
		*msg = "dsh_window: must be a multiple of 8";
		return -EINVAL;
	}
	return 0;
}

static const char rxb_msg_force_slow[] =
	"ceio: slow path forced but the on-NIC memory tier has no capacity";
static const char rxb_msg_split[] =
	"nicmem_split: the split needs an on-NIC memory tier (nicmem_kb > 0)";

/* CEIO's forced slow path and the header/data split need the tier. */
static int rxb_check_nicmem_kb(const struct rxb_cfg *cfg, u32 val,
			       const char *str, const char **msg)
{
	if (!val && cfg->mp.ceio_force_slow)
		*msg = rxb_msg_force_slow;
	else if (!val && cfg->mp.nicmem_split)
		*msg = rxb_msg_split;
	else
		return 0;
	return -EINVAL;
}

static int rxb_check_force_slow(const struct rxb_cfg *cfg, u32 val,
				const char *str, const char **msg)
{
	if (val && !cfg->mp.nicmem_kb) {
		*msg = rxb_msg_force_slow;
		return -EINVAL;
	}
	return 0;
}

static int rxb_check_split(const struct rxb_cfg *cfg, u32 val,
			   const char *str, const char **msg)
{
	if (val && !cfg->mp.nicmem_kb) {
		*msg = rxb_msg_split;
		return -EINVAL;
	}
	return 0;
}

static int rxb_check_llc_budget(const struct rxb_cfg *cfg, u32 val,
				const char *str, const char **msg)
{
	if (val < RXB_RX_BUF_LEN) {
		*msg = "llc_budget: below one receive buffer";
		return -EINVAL;
	}
	return 0;
}

#define RXB_PARAM_LIM_U32(lo, hi)	.min = (lo), .max = (hi)
#define RXB_PARAM_LIM_POW2(lo, hi)	.min = (lo), .max = (hi)
#define RXB_PARAM_LIM_NAMES(n)		.names = (n)
#define RXB_PARAM_LIM_STR()		.names = NULL
#define RXB_PARAM_LIM_MODEL(n)		.names = (n)

/* Not const: kernel_param.arg, which points here, is a plain pointer. */
struct rxb_param rxb_params[RXB_NPARAMS] = {
#define RXB_PARAM(_name, _type, _lim, _def, _check)			\
	[RXB_P_##_name] = {						\
		.name = #_name,						\
		.type = RXB_PT_##_type,					\
		.off = offsetof(struct rxb_mparams, _name),		\
		RXB_PARAM_CALL(RXB_PARAM_LIM_##_type, RXB_PARAM_ARGS _lim), \
		.def = _def,						\
		.bad = #_name ": " RXB_PARAM_BAD(_type, _lim),		\
		.check = _check,					\
	},
#include "rxb_param_list.h"
};

/* A name of a '|'-separated list: a word, or "pfxA..pfxB", which stands
 * for the names pfxA, pfxA+1, ..., pfxB (e.g. cpu0..cpu31).
 */
struct rxb_name {
	const char *s;	/* the word, or the prefix of a range */
	size_t len;	/* its length */
	u32 lo, n;	/* first number of a range, and its names (a word: 1) */
};

/* The decimal number in [@s, @end). */
static u32 rxb_name_num(const char *s, const char *end)
{
	u32 v = 0;

	while (s < end)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* Parse the first name of @names into @nm; return the rest, or NULL. */
static const char *rxb_name_next(const char *names, struct rxb_name *nm)
{
	const char *end = strchrnul(names, '|');
	const char *dots = strnstr(names, "..", end - names);

	nm->s = names;
	nm->len = end - names;
	nm->lo = 0;
	nm->n = 1;
	if (dots) {
		nm->len = strcspn(names, "0123456789");
		nm->lo = rxb_name_num(names + nm->len, dots);
		nm->n = rxb_name_num(dots + 2 + nm->len, end) - nm->lo + 1;
	}
	return *end ? end + 1 : NULL;
}

/* The index of @val among the '|'-separated @names, or -1. */
static int rxb_names_find(const char *names, const char *val)
{
	size_t len = strlen(val);
	struct rxb_name nm;
	const char *num;
	int i = 0;
	u32 v;

	while (names) {
		names = rxb_name_next(names, &nm);
		if (nm.n == 1 && nm.len == len && !strncmp(nm.s, val, len))
			return i;
		num = val + nm.len;
		/* a range: its prefix, then a number without leading 0 */
		if (nm.n > 1 && len > nm.len && len - nm.len < 10 &&
		    !strncmp(nm.s, val, nm.len) &&
		    strspn(num, "0123456789") == len - nm.len &&
		    (*num != '0' || !num[1])) {
			v = rxb_name_num(num, val + len);
			if (v >= nm.lo && v - nm.lo < nm.n)
				return i + v - nm.lo;
		}
		i += nm.n;
	}
	return -1;
}

/* Name @i of the '|'-separated @names into @buf (RXB_PARAM_STRLEN). */
static void rxb_names_get(const char *names, u32 i, char *buf)
{
	struct rxb_name nm;

	while (names) {
		names = rxb_name_next(names, &nm);
		if (i < nm.n) {
			if (nm.n == 1)
				snprintf(buf, RXB_PARAM_STRLEN, "%.*s",
					 (int)nm.len, nm.s);
			else
				snprintf(buf, RXB_PARAM_STRLEN, "%.*s%u",
					 (int)nm.len, nm.s, nm.lo + i);
			return;
		}
		i -= nm.n;
	}
	WARN_ON_ONCE(1);
	strscpy(buf, "?", RXB_PARAM_STRLEN);
}

/**
 * rxb_param_store() - parse @val and store it in @cfg.
 * @cfg: configuration to change.
 * @p: the parameter.
 * @val: its new value as text (a trailing newline is ignored).
 * @msg: set to a static explanation on error, which names the parameter.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_param_store(struct rxb_cfg *cfg, const struct rxb_param *p,
		    const char *val, const char **msg)
{
	const struct rxb_model_ops *ops = NULL;
	char buf[RXB_PARAM_STRLEN];
	const char *s;
	int i = 0;
	u32 n = 0;

	*msg = p->bad;
	if (strlen(val) >= sizeof(buf))
		return -EINVAL;
	strscpy(buf, val, sizeof(buf));
	s = strim(buf);
	switch (p->type) {
	case RXB_PT_MODEL:
		ops = rxb_model_find(s);
		if (!ops)
			return -EINVAL;
		break;
	case RXB_PT_STR:
		if (!strcmp(s, "default"))
			s = "";
		if (strlen(s) >= RXB_AX_TOPO_LEN)
			return -EINVAL;
		break;
	case RXB_PT_NAMES:
		i = rxb_names_find(p->names, s);
		if (i < 0)
			return -EINVAL;
		n = i;
		break;
	case RXB_PT_U32:
	case RXB_PT_POW2:
		if (kstrtou32(s, 0, &n) || n < p->min || n > p->max ||
		    (p->type == RXB_PT_POW2 && !is_power_of_2(n)))
			return -EINVAL;
		break;
	}
	if (p->check && p->check(cfg, n, s, msg))
		return -EINVAL;
	if (ops)
		cfg->model = ops;
	else if (p->type == RXB_PT_STR)
		strscpy((char *)&cfg->mp + p->off, s, RXB_AX_TOPO_LEN);
	else
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
	const char *field = (const char *)&cfg->mp;

	if (p->type == RXB_PT_MODEL) {
		strscpy(buf, cfg->model ? cfg->model->name : p->def,
			RXB_PARAM_STRLEN);
		return;
	}
	field += p->off;
	if (p->type == RXB_PT_STR)
		strscpy(buf, *field ? field : "default", RXB_PARAM_STRLEN);
	else if (p->type == RXB_PT_NAMES)
		rxb_names_get(p->names, *(const u32 *)field, buf);
	else
		snprintf(buf, RXB_PARAM_STRLEN, "%u", *(const u32 *)field);
}

/**
 * rxb_param_defaults() - set every parameter of @cfg to its default.
 * @cfg: configuration.
 */
void rxb_param_defaults(struct rxb_cfg *cfg)
{
	const char *msg;
	unsigned int i;

	for (i = 0; i < RXB_NPARAMS; i++)
		WARN(rxb_param_store(cfg, &rxb_params[i], rxb_params[i].def,
				     &msg),
		     "rxbisect: default of %s: %s\n", rxb_params[i].name, msg);
}
