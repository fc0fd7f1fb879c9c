// SPDX-License-Identifier: GPL-2.0
/*
 * The ring models rxbisect-sim can run: every rxb_*_ops that rxb_model.h
 * declares, as registered in model.c (rxb_model_find).
 *
 * models.inc is generated from rxb_model.h at build time.  Each declared
 * model gets a weak, nameless stand-in, so that the simulator still links
 * while a model is declared (and listed in model.c) but its source file
 * has not landed yet: rxb_model_find() then simply does not find it.  The
 * model's own file, once there, overrides the stand-in.
 */
#include <string.h>

#include <rxbisect/rxb_model.h>

#include "sim.h"

#define SIM_MODEL(sym) \
	const struct rxb_model_ops sym __attribute__((weak)) = { .name = "" };
#include "models.inc"
#undef SIM_MODEL

#define SIM_MODEL(sym) &sym,
static const struct rxb_model_ops *const sim_models[] = {
#include "models.inc"
};
#undef SIM_MODEL

unsigned int sim_model_names(const char **names, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(sim_models) / sizeof(sim_models[0]) && n < max; i++) {
		const char *name = sim_models[i]->name;

		if (name && *name && rxb_model_find(name) == sim_models[i])
			names[n++] = name;
	}
	return n;
}
