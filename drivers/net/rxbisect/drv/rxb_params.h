/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-model parameters, each declared once, in rxb_param_list.h:
 *
 *	#define RXB_PARAM_DESC_<name> "description"
 *	RXB_PARAM(name, type, limits, default, check)
 *
 * (the descriptions stand apart only to keep lines short).  An entry
 * makes:
 *  - the field @name of struct rxb_mparams (rxbisect.h) and its default;
 *  - the entry of rxb_params[] (params.c) that parses, checks and shows it,
 *    whose refusals name the parameter and its range (extack, dmesg);
 *  - the writable module parameter @name, with its modinfo text
 *    "description (range; default value); writable" (main.c);
 *  - the runtime devlink parameter @name of every device (dev.c);
 *  - its row in Documentation/devlink.rst and the README, which
 *    tools/params-doc.py writes from modinfo and the conventions.sh
 *    selftest checks.
 * Adding a parameter is one entry; the ring model then reads it from
 * struct rxb_model_cfg (rxb_rx_model_cfg()).
 *
 * @type and @limits:
 *  U32    (min, max)	a number in min..max
 *  POW2   (min, max)	a power of two in min..max
 *  NAMES  ("a|b|c")	one of the names, stored as its index (0 for a);
 *			a name "xA..xB" stands for xA, xA+1, ..., xB
 *  STR    ()		a string of at most RXB_AX_TOPO_LEN - 1 characters,
 *			shown as "default" when empty (which "default" sets)
 *  MODEL  (names)	a registered ring model, struct rxb_cfg.model
 * @default is the value as text.  @check, or NULL, is an
 * int (*)(const struct rxb_cfg *cfg, u32 val, const char *str,
 * const char **msg) that sees the new value (@val, or @str for STR) and
 * the configuration it is about to enter, for what the range cannot say.
 * Limits and defaults are literals or macros of one literal: modinfo gets
 * them as they stand.
 */
#ifndef _RXB_PARAMS_H
#define _RXB_PARAMS_H

#include <linux/stringify.h>
#include <linux/types.h>

#define RXB_MODEL_NAMES							\
	"privring|rxbisect|shring|shring-list|shring-batched|dshring|"	\
	"corec|enso|ceio"
#define RXB_ENGINE_NAMES		"inline|cpu0..cpu31"

/* The index of each parameter in rxb_params[]. */
#define RXB_PARAM(name, type, lim, def, check)	RXB_P_##name,
enum rxb_param_id {
#include "rxb_param_list.h"
	RXB_NPARAMS
};

/* The type of the field of struct rxb_mparams of each type of parameter
 * (a ring model's is empty: the model is struct rxb_cfg.model).
 */
#define RXB_PARAM_CTYPE_U32		u32
#define RXB_PARAM_CTYPE_POW2		u32
#define RXB_PARAM_CTYPE_NAMES		u32
#define RXB_PARAM_CTYPE_STR		char[RXB_AX_TOPO_LEN]
#define RXB_PARAM_CTYPE_MODEL		struct {}

/* What modinfo and a refusal say about the values of each type. */
#define RXB_PARAM_CALL(m, ...)		m(__VA_ARGS__)
#define RXB_PARAM_ARGS(...)		__VA_ARGS__
#define RXB_PARAM_RANGE_U32(min, max)	__stringify(min) ".." __stringify(max)
#define RXB_PARAM_RANGE_POW2(min, max)					\
	"a power of two in " RXB_PARAM_RANGE_U32(min, max)
#define RXB_PARAM_RANGE_NAMES(names)	names
#define RXB_PARAM_RANGE_STR()		"at most 31 characters"
#define RXB_PARAM_RANGE_MODEL(names)	names
#define RXB_PARAM_RANGE(type, lim)					\
	RXB_PARAM_CALL(RXB_PARAM_RANGE_##type, RXB_PARAM_ARGS lim)
/* Why a value is refused: "not a number in the range 1..32" */
#define RXB_PARAM_BAD_U32(min, max)					\
	"not a number in the range " RXB_PARAM_RANGE_U32(min, max)
#define RXB_PARAM_BAD_POW2(min, max)	"not " RXB_PARAM_RANGE_POW2(min, max)
#define RXB_PARAM_BAD_NAMES(names)	"unknown value, not one of " names
#define RXB_PARAM_BAD_STR()		"too long, " RXB_PARAM_RANGE_STR()
#define RXB_PARAM_BAD_MODEL(names)	"unknown ring model, not one of " names
#define RXB_PARAM_BAD(type, lim)					\
	RXB_PARAM_CALL(RXB_PARAM_BAD_##type, RXB_PARAM_ARGS lim)
/* "description (1..32; default 8)" */
#define RXB_PARAM_DESC(name, type, lim, def)				\
	RXB_PARAM_DESC_##name " (" RXB_PARAM_RANGE(type, lim) "; default " def ")"

/**
 * enum rxb_param_type - how a parameter is given and stored.
 * @RXB_PT_U32: a number in @min..@max, a u32 of struct rxb_mparams.
 * @RXB_PT_POW2: the same, a power of two.
 * @RXB_PT_NAMES: one of the '|'-separated @names, stored as its index.
 * @RXB_PT_STR: a string of struct rxb_mparams, "" shown as "default".
 * @RXB_PT_MODEL: a ring model, struct rxb_cfg.model.
 */
enum rxb_param_type {
	RXB_PT_U32,
	RXB_PT_POW2,
	RXB_PT_NAMES,
	RXB_PT_STR,
	RXB_PT_MODEL,
};

struct rxb_cfg;

/**
 * struct rxb_param - a ring-model parameter, from its entry in rxb_param_list.h.
 * @name: its name, as module and devlink parameter.
 * @type: enum rxb_param_type.
 * @off: offset of its field in struct rxb_mparams.
 * @min: smallest value (RXB_PT_U32, RXB_PT_POW2).
 * @max: largest value (RXB_PT_U32, RXB_PT_POW2).
 * @names: the values, '|'-separated (RXB_PT_NAMES, RXB_PT_MODEL).
 * @def: the default, as text.
 * @bad: why a value is refused: the parameter's name and range.
 * @check: further checks of a value against the rest of the
 *	configuration, or NULL; sets a static message on error.
 */
struct rxb_param {
	const char *name;
	enum rxb_param_type type;
	int off;
	u32 min, max;
	const char *names;
	const char *def;
	const char *bad;
	int (*check)(const struct rxb_cfg *cfg, u32 val, const char *str,
		     const char **msg);
};

#define RXB_PARAM_STRLEN	32	/* devlink's string parameter size */

/* params.c */
extern struct rxb_param rxb_params[RXB_NPARAMS];
int rxb_param_store(struct rxb_cfg *cfg, const struct rxb_param *p,
		    const char *val, const char **msg);
void rxb_param_show(const struct rxb_cfg *cfg, const struct rxb_param *p,
		    char *buf);
void rxb_param_defaults(struct rxb_cfg *cfg);
bool rxb_engine_cpus_ok(u32 engine, u32 engines);

/**
 * rxb_param_is_string() - is @p a devlink string parameter?
 * @p: the parameter.
 *
 * Return: true for names, strings and the model, false for numbers.
 */
static inline bool rxb_param_is_string(const struct rxb_param *p)
{
	return p->type != RXB_PT_U32 && p->type != RXB_PT_POW2;
}

#endif /* _RXB_PARAMS_H */
