#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kdrvtests.sh [run-vm.sh OPTIONS]
#
# The kernel's own python driver tests (linux-source-6.12's
# tools/testing/selftests/drivers/net: ping.py, queues.py, stats.py,
# hw/pp_alloc_fail.py where the kernel can inject faults) on a
# veth pair and on rxbisect ports under every ring model, in the 6.12 VM:
# extracts the kernel's tests on the host (tools/ksrc.sh, cached in
# build/ksrc-6.12), builds rxbisect.ko for 6.12 (make module KERNEL=6.12),
# then runs selftests/drivers/net/rxbisect/kdrv_tests.sh in the VM under
# the shared VM lock (/tmp/rxb-vm.lock).  The RXB_KDRV_* variables of
# kdrv_tests.sh choose the tests and models, e.g.
#
#   RXB_KDRV_TESTS="ping.py queues.py" RXB_KDRV_MODELS=corec tools/kdrvtests.sh
#
# Exit status: kdrv_tests.sh's (0 pass, 1 fail, 4 skip), or run-vm.sh's.

set -euo pipefail

SELF_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
REPO=$(cd "$SELF_DIR/.." && pwd -P)
cd "$REPO"

"$SELF_DIR/ksrc.sh" 6.12 >/dev/null
make -s module KERNEL=6.12
exec flock /tmp/rxb-vm.lock "$SELF_DIR/vm/run-vm.sh" --kernel 6.12 \
	--timeout "${RXB_VM_TIMEOUT:-900}" "$@" -- \
	selftests/drivers/net/rxbisect/kdrv_tests.sh
