#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Simulation speed: ten million packets through 16 simulated cores (the
# default testbed, privRing with 1 Ki rings), on one host core.  Prints
# packets simulated per second.  Not a test: the figure depends on the host.
#
# Usage: bench.sh [PACKETS] [extra rxbisect-sim options]

set -eu
here=$(cd "$(dirname "$0")" && pwd)
packets=${1:-10000000}
shift || true
exec taskset -c 0 "$here/rxbisect-sim" --packets "$packets" --bench \
	--columns gbps,mpps,drop_pct,lat_p99_us,ddio_hit,mem_gbs "$@"
