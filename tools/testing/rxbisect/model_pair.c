// SPDX-License-Identifier: GPL-2.0
/*
 * A ring model's two halves in host memory, created as the kernel creates
 * them, and the NIC's context they run in (model_pair.h).  One copy for
 * the unit tests (env.c), the benchmarks and the simulator
 * (tools/rxbisect-sim/models.c).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include "model_pair.h"

/* ---- the NIC's context (rxb_hw_model.h) ---------------------------- */

/* Always checked: a driver half that does the NIC's work is reported. */
bool rxb_nic_ctx_check = true;
static __thread int nic_depth;
static long ctx_violations;
static bool ctx_expected;

void rxb_nic_ctx_enter(void)
{
	nic_depth++;
}

void rxb_nic_ctx_exit(void)
{
	nic_depth--;
}

bool rxb_nic_ctx_in(void)
{
	return nic_depth > 0;
}

void rxb_nic_ctx_violation(const char *what)
{
	__atomic_add_fetch(&ctx_violations, 1, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&ctx_expected, __ATOMIC_RELAXED))
		rxb_pair_ctx_fail(what);
}

void rxb_pair_ctx_expect(bool on)
{
	__atomic_store_n(&ctx_expected, on, __ATOMIC_RELAXED);
}

long rxb_pair_ctx_violations(void)
{
	return __atomic_load_n(&ctx_violations, __ATOMIC_RELAXED);
}

/* ---- the two halves ------------------------------------------------ */

int rxb_models_create(const struct rxb_model_ops *ops,
		      const struct rxb_model_cfg *cfg,
		      const struct rxb_drv_ops *drv_ops, void *drv,
		      const struct rxb_hw_ops *hw_ops, void *hwarg,
		      struct rxb_model **mp, struct rxb_hw_model **hwp,
		      void **barp)
{
	struct rxb_hw_model *hw;
	struct rxb_model *m;
	struct rxb_bar bar;
	const char *msg;
	u32 npages;
	void *mem;
	int err;

	*mp = NULL;
	*hwp = NULL;
	*barp = NULL;
	err = rxb_model_validate(ops, cfg, &msg);
	if (err)
		return err;
	/* As the kernel: the pages of a validated configuration (a model's
	 * bar_pages may divide by its parameters).
	 */
	npages = rxb_hwm_bar_pages(ops->hw, cfg);
	if (npages > RXB_BAR_MAX_PAGES)
		return -EINVAL;
	mem = aligned_alloc(RXB_BAR_PAGE, (size_t)npages * RXB_BAR_PAGE);
	if (!mem)
		return -ENOMEM;
	memset(mem, 0, (size_t)npages * RXB_BAR_PAGE);
	bar = (struct rxb_bar){ .base = mem, .qpage = 1,
				.xpage = 1 + cfg->nqueues, .npages = npages };
	/* The NIC's half first ("create receive context"), then the
	 * driver's, which programs the rings, then the NIC loads them.
	 */
	hw = rxb_hw_model_create(ops->hw, cfg, hw_ops, hwarg, &bar);
	if (IS_ERR(hw)) {
		free(mem);
		return PTR_ERR(hw);
	}
	m = rxb_model_create(ops, cfg, drv_ops, drv, &bar);
	if (IS_ERR(m)) {
		rxb_hw_model_destroy(hw);
		free(mem);
		return PTR_ERR(m);
	}
	err = hw->ops->start ? hw->ops->start(hw) : 0;
	if (err) {
		rxb_model_destroy(m);
		rxb_hw_model_destroy(hw);
		free(mem);
		return err;
	}
	*mp = m;
	*hwp = hw;
	*barp = mem;
	return 0;
}

void rxb_models_destroy(struct rxb_model *m, struct rxb_hw_model *hw,
			void *bar)
{
	if (m)
		rxb_model_destroy(m);
	if (hw)
		rxb_hw_model_destroy(hw);
	free(bar);
}
