// SPDX-License-Identifier: GPL-2.0
/* Userspace shims: the few definitions the shim headers cannot inline. */
#include "shim.h"

long rxb_shim_live_allocs;
long rxb_shim_alloc_fail_after = -1;
long rxb_shim_alloc_injected;
long rxb_shim_warnings;
unsigned long rxb_shim_fence_word;
