#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Simulation speed: ten million packets through 16 simulated cores (the
# default testbed, privRing with 1 Ki rings), on one host core, and a tenth
# of that to show the cost is linear in packets.  Prints packets simulated
# per CPU second and the CPU-time ratio.  Not a test: the figures depend on
# the host (the target is under 30 s of CPU for 10 M packets).
#
# Usage: bench.sh [PACKETS] [extra rxbisect-sim options]

set -eu
here=$(cd "$(dirname "$0")" && pwd)
packets=${1:-10000000}
shift || true

# CPU seconds of one run of @1 packets, from --bench's line.
cpu() {
	taskset -c 0 "$here/rxbisect-sim" --packets "$1" --bench \
		--columns gbps,mpps,drop_pct,lat_p99_us,ddio_hit,mem_gbs "${@:2}" |
		tee /dev/stderr | sed -n 's/.*(\([0-9.]*\) s CPU).*/\1/p'
}

small=$(cpu $((packets / 10)) "$@")
big=$(cpu "$packets" "$@")
awk -v n="$packets" -v s="$small" -v b="$big" 'BEGIN {
	printf "bench: %d packets: %.2f s CPU; %d packets: %.2f s CPU; ratio %.2f (10 = linear)\n",
	       n / 10, s, n, b, (s > 0 ? b / s : 0) }'
