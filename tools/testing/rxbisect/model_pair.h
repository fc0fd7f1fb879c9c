/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring model's two halves in host memory (model_pair.c): what the
 * kernel's NIC and driver do between them when a model is loaded, for the
 * userspace programs that run the models' code (the unit tests' env.c,
 * the benchmarks, tools/rxbisect-sim).  Each brings its own services.
 */
#ifndef _RXB_MODEL_PAIR_H
#define _RXB_MODEL_PAIR_H

#include <stdbool.h>

struct rxb_model_ops;
struct rxb_model_cfg;
struct rxb_drv_ops;
struct rxb_hw_ops;
struct rxb_model;
struct rxb_hw_model;

/*
 * The NIC's context, per thread (rxb_nic_ctx_enter() and the rest of
 * rxb_hw_model.h).  A NIC entry point reached outside it counts a
 * violation and, unless the caller said it expects them, calls
 * rxb_pair_ctx_fail(), which each program defines (the tests fail the
 * running case, the simulator stops).
 */
void rxb_pair_ctx_fail(const char *what);
/* Violations are expected (a test provoking them): count them only. */
void rxb_pair_ctx_expect(bool on);
/* Violations counted so far. */
long rxb_pair_ctx_violations(void);

/*
 * Create a model's two halves as the kernel does: the register space
 * (*@barp), the NIC's half with the NIC's services @hw_ops (their
 * argument @hwarg), the driver's with the driver's @drv_ops (@drv), which
 * programs the rings and posts buffers, the NIC's start.  Returns 0 or
 * the error (nothing allocated then).  The caller runs the NIC: its
 * doorbell service has the register writes of the driver's create to act
 * on.
 */
int rxb_models_create(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg,
		      const struct rxb_drv_ops *drv_ops, void *drv,
		      const struct rxb_hw_ops *hw_ops, void *hwarg,
		      struct rxb_model **mp, struct rxb_hw_model **hwp,
		      void **barp);
/* Destroy what rxb_models_create() made (any of them may be NULL). */
void rxb_models_destroy(struct rxb_model *m, struct rxb_hw_model *hw,
			void *bar);

#endif /* _RXB_MODEL_PAIR_H */
