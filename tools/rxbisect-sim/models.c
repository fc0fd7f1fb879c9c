// SPDX-License-Identifier: GPL-2.0
/*
 * The ring models rxbisect-sim can run: every rxb_*_ops that rxb_model.h
 * declares, as registered in model.c (rxb_model_find).  Those that put
 * several packets in one buffer (multi_pkt_bufs, batched RxList) keep an
 * arrival time per packet slot (sim.c, slot_filled()).
 *
 * build/models_gen.c is generated from rxb_model.h: it lists the declared
 * models and gives each a weak, nameless stand-in, so that the simulator
 * still links while a model is declared (and listed in model.c) but its
 * file has not landed yet: rxb_model_find() then does not find it.  The
 * model's own file, once there, overrides the stand-in.
 *
 * CEIO's slow path uses the environment's on-NIC memory tier (nic_mem.c,
 * sim.c: env_nicmem(), env_dma_ptr()).
 */
#include <string.h>

#include <rxbisect/rxb_model.h>

#include "sim.h"

unsigned int sim_model_names(const char **names, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < sim_nmodels && n < max; i++) {
		const char *name = sim_models[i]->name;

		if (name && *name && rxb_model_find(name) == sim_models[i])
			names[n++] = name;
	}
	return n;
}
