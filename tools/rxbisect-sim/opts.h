/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect-sim: the command line's own declarations (opts.c); the option
 * table's API shared with the simulation is in sim.h.
 */
#ifndef _RXB_SIM_OPTS_H
#define _RXB_SIM_OPTS_H

#include <linux/compiler_types.h>

/*
 * Why the last opt_apply() or sim_cfg_check() failed: "--OPT VALUE: want
 * ..." naming the option and the values it accepts.
 */
const char *opt_error(void);

#endif /* _RXB_SIM_OPTS_H */
