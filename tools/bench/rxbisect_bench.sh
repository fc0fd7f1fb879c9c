#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxBisect against privRing, measured in one run (a benchmark, not a test):
#
#  1. CPU per packet at low load: a fixed-rate UDP stream, the kernel time
#     of all CPUs (/proc/stat system + irq + softirq: NIC emulation, driver
#     and stack, sender and receiver) divided by the packets received, for
#     each model; the ratio rxbisect / privring (paper: about 1).
#  2. The I/O working set the emulated NIC measured (ethtool -S
#     io_ws_buffers: distinct buffers among its last io_ws_window writes)
#     under balanced load and under 10:1 imbalance, against k*|Ax| and N*R.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/rxbisect_bench.sh
# Environment: QUEUES (4), RING (1024), AX (128), RATE (UDP Mbit/s, 20),
# SECS (5), REPS (3).

set -u
QUEUES=${QUEUES:-4}
RING=${RING:-1024}
AX=${AX:-128}
RATE=${RATE:-20}
SECS=${SECS:-5}
REPS=${REPS:-3}
NS0=rxbb-a-$$
NS1=rxbb-b-$$
here=$(cd "$(dirname "$0")" && pwd)

cleanup() {
	ip netns pids "$NS0" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$NS1" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$NS0" 2>/dev/null
	ip netns del "$NS1" 2>/dev/null
	rmmod rxbisect 2>/dev/null
}
trap cleanup EXIT

load() {
	cleanup
	if modinfo -n rxbisect >/dev/null 2>&1; then
		modprobe rxbisect "$@"
	else
		modprobe -q tls
		insmod "${RXB_KO:-$here/../../rxbisect.ko}" "$@"
	fi || { echo "cannot load rxbisect $*" >&2; exit 1; }
	ip netns add "$NS0"; ip netns add "$NS1"
	ip link set rxb0 netns "$NS0"; ip link set rxb1 netns "$NS1"
	ip -n "$NS0" addr add 192.0.2.1/24 dev rxb0
	ip -n "$NS1" addr add 192.0.2.2/24 dev rxb1
	ip -n "$NS0" link set rxb0 up; ip -n "$NS1" link set rxb1 up
	ip -n "$NS0" link set lo up; ip -n "$NS1" link set lo up
	sleep 1
}

stat() { ip netns exec "$NS1" ethtool -S rxb1 | awk -v k="$1:" '$1 == k { print $2 }'; }

# kernel jiffies of all CPUs
busy() { awk '/^cpu / { print $4 + $7 + $8 }' /proc/stat; }

# udp_run SECS RATE PARALLEL: fixed-rate UDP, prints packets received.
udp_run() {
	ip netns exec "$NS1" iperf3 -s -1 -B 192.0.2.2 >/dev/null 2>&1 &
	sleep 0.5
	ip netns exec "$NS0" iperf3 -c 192.0.2.2 -u -b "${2}M" -l 1400 -P "$3" \
		-t "$1" >/dev/null 2>&1
	wait
}

# cpu_per_pkt MODEL: ns of busy CPU per packet received, median of REPS.
cpu_per_pkt() {
	local r b0 b1 p0 p1 hz vals=()
	hz=$(getconf CLK_TCK)
	load queues="$QUEUES" ring_model="$1" rx_ring_size="$RING" ax_ring_size="$AX"
	for r in $(seq "$REPS"); do
		p0=$(stat rx_packets); b0=$(busy)
		udp_run "$SECS" "$RATE" 1
		b1=$(busy); p1=$(stat rx_packets)
		vals+=($(( (b1 - b0) * 1000000000 / hz / (p1 - p0 > 0 ? p1 - p0 : 1) )))
	done
	printf '%s\n' "${vals[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p"
}

# wss MODEL WEIGHTS: io_ws_buffers after 8 UDP flows spread by WEIGHTS.
wss() {
	load queues="$QUEUES" ring_model="$1" rx_ring_size="$RING" ax_ring_size="$AX" \
		ws_window=16384
	ip netns exec "$NS1" ethtool -X rxb1 weight $2 >/dev/null
	udp_run "$SECS" $((RATE * 4)) 8
	echo "$(stat io_ws_buffers) $(stat io_ws_buffers_peak) $(stat rx_packets) $(stat rx_nobuf_drops)"
}

echo "# rxbisect_bench: queues=$QUEUES |Rx|=|Bx|=$RING |Ax|=$AX, UDP ${RATE} Mbit/s x ${SECS}s, $REPS reps, $(nproc) CPUs"
pr=$(cpu_per_pkt privring)
rb=$(cpu_per_pkt rxbisect)
echo
echo "| model    | kernel CPU ns/packet | ratio to privring |"
echo "|----------|---------------|-------------------|"
echo "| privring | $pr | 1.00 |"
echo "| rxbisect | $rb | $(awk -v a="$rb" -v b="$pr" 'BEGIN { printf "%.2f", a / b }') |"

bal=$(printf '1 %.0s' $(seq "$QUEUES"))
imb="10 $(printf '1 %.0s' $(seq $((QUEUES - 1))))"
echo
echo "I/O working set (distinct buffers among the NIC's last 16384 writes)"
echo "N*R = $((QUEUES * RING)), k*|Ax| = $((QUEUES * AX))"
echo
echo "| model    | load      | io_ws_buffers | peak | rx_packets | nobuf_drops | ws / N*R | ws / k*|Ax| |"
echo "|----------|-----------|---------------|------|------------|-------------|----------|-------------|"
for m in privring rxbisect; do
	for l in balanced imbalanced; do
		w=$bal; [ $l = imbalanced ] && w=$imb
		read -r ws peak pk nb < <(wss $m "$w")
		echo "| $m | $l | $ws | $peak | $pk | $nb | $(awk -v a="$ws" -v b=$((QUEUES * RING)) 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="$ws" -v b=$((QUEUES * AX)) 'BEGIN { printf "%.2f", a / b }') |"
	done
done
