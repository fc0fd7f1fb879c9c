#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Arrival-to-application latency per ring model, from hardware receive
# stamps (a benchmark, not a test).  For each model the same load: COUNT
# UDP datagrams from rxb0 to one socket on rxb1, GAP_US apart, with
# hardware receive stamps on (hwstamp_ctl -r 1).  For each datagram the
# receiver (progs/rxb_tstamp rx) reads rxb1's PHC right after recvmsg()
# returns and takes PHC - stamp: the time from the frame's arrival at the
# NIC (the stamp, taken before any ring work) to the application holding
# it, the quantity of the seeds' latency figures (rxBisect Fig. 2b, Table
# 2; the thesis's Fig. 5.6).  Printed per model: datagrams, min, p50, p99,
# p99.9, max in microseconds; a CSV with RESULTS=FILE.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/tstamp_latency.sh
# Environment: QUEUES (2), COUNT (2000), GAP_US (500), MODELS (every
# registered model), ENGINE (inline, or cpuN), RESULTS (CSV file).
#
# Under TCG the numbers measure the emulator as much as the models; on a
# real machine the differences between models are the ring designs'.

set -u
QUEUES=${QUEUES:-2}
COUNT=${COUNT:-2000}
GAP_US=${GAP_US:-500}
ENGINE=${ENGINE:-inline}
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
RXB_TMP=$(mktemp -d /tmp/tstamp-bench.XXXXXX)
NS0=rxts-a-$$
NS1=rxts-b-$$
trap rxb_cleanup EXIT
TS=$lib/progs/rxb_tstamp
[ -x "$TS" ] || make -s -C "$lib/progs" rxb_tstamp >/dev/null ||
	{ echo "no $TS (make module)" >&2; exit 1; }

rxb_load queues="$QUEUES" engine="$ENGINE" || { echo "cannot load the module" >&2; exit 1; }
MODELS=${MODELS:-$(rxb_models | xargs)}
rxb_setup_netns || { echo "cannot set up the namespaces" >&2; exit 1; }
PHC=/dev/ptp$(rxb_in rxb1 ethtool -T rxb1 | sed -n 's/^PTP Hardware Clock: *//p')
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 1 >/dev/null || { echo "hwstamp_ctl failed" >&2; exit 1; }

us() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1000 }'; }
[ -n "${RESULTS:-}" ] && echo "model,count,min_us,p50_us,p99_us,p999_us,max_us" > "$RESULTS"
printf '%-16s %7s %9s %9s %9s %9s %9s\n' model count "min us" "p50 us" "p99 us" "p99.9 us" "max us"
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model || { echo "$m: cannot switch" >&2; continue; }
	rxb_static_neigh rxb0 rxb1
	out=$RXB_TMP/$m
	ip netns exec "$NS1" "$TS" rx "$PHC" 4747 "$COUNT" 3000 > "$out" &
	pid=$!
	for i in {1..100}; do
		grep -q ready "$out" 2>/dev/null && break
		sleep 0.05
	done
	ip netns exec "$NS0" "$TS" send "$RXB_IP1" 4747 "$COUNT" "$GAP_US"
	wait $pid
	R=$(tail -n 1 "$out")
	j() { rxb_jget <(echo "$R") "$1"; }
	printf '%-16s %7s %9s %9s %9s %9s %9s\n' "$m" "$(j hw)" "$(us "$(j lat_min)")" \
		"$(us "$(j p50)")" "$(us "$(j p99)")" "$(us "$(j p999)")" "$(us "$(j lat_max)")"
	[ -n "${RESULTS:-}" ] && echo "$m,$(j hw),$(us "$(j lat_min)"),$(us "$(j p50)"),$(us "$(j p99)"),$(us "$(j p999)"),$(us "$(j lat_max)")" >> "$RESULTS"
done
