#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The comparison in one run: every ring model rxbisect was built with, plus
# a veth pair as the anchor, under the same workloads, side by side:
#   TCP throughput (1 and 4 streams), UDP at a fixed rate (delivered
#   fraction, kernel CPU per packet), the I/O working set the emulated NIC
#   measured, and the share of queue 1's datagrams the NIC delivered while
#   queue 0 is slowed down (the rxBisect paper's Fig. 14 in one point, as
#   "make bench" sweeps it: queue 0 alone on the first CPU does SLOW_WORK
#   random cache-line touches per packet (debugfs work knob) and gets 31 %
#   of SLOW_PPS UDP datagrams/s, from source ports chosen against the RSS
#   table; the sender runs on the other CPU).
# Prints a progress line per step and a markdown table with ratios to
# privring and to veth; writes CSV and PNG plots (gnuplot) into $OUT.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/demo.sh        (what "make demo" does)
# or natively on this machine (host.sh's checks and layout, which it
# prints and writes to OUT/layout.txt, OUT/machine.txt):
#   sudo make demo HOST=1, or sudo tools/bench/demo.sh
# Environment: OUT (results), SECS (per measurement, 3), QUEUES (one per
# queue CPU of the layout, 2 in the VM),
# MODELS (default: every model the module accepts), SLOW_WORK (262144),
# SLOW_PPS (3000).

set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$here/../../selftests/drivers/net/rxbisect/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"
SLOW_WORK=${SLOW_WORK:-262144}
SLOW_PPS=${SLOW_PPS:-3000}
OUT=${OUT:-$here/../../results}
SECS=${SECS:-3}
# root, the tools, no other rxbisect user, the module; the layout (HL_*)
bench_host_init demo.sh iperf3:iperf3
QUEUES=${QUEUES:-$HL_QUEUES}
NS0=rxbd-a-$$
NS1=rxbd-b-$$
mkdir -p "$OUT"
csv=$OUT/demo.csv
step=0

progress() { step=$((step + 1)); printf '[%2d] %s\n' "$step" "$*" >&2; }

cleanup() {
	for ns in $NS0 $NS1; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	rmmod rxbisect 2>/dev/null
}
trap cleanup EXIT

netns() {	# IF0 IF1
	ip netns add "$NS0"; ip netns add "$NS1"
	ip link set "$1" netns "$NS0"; ip link set "$2" netns "$NS1"
	ip -n "$NS0" addr add 192.0.2.1/24 dev "$1"; ip -n "$NS0" link set "$1" up
	ip -n "$NS1" addr add 192.0.2.2/24 dev "$2"; ip -n "$NS1" link set "$2" up
	ip -n "$NS0" link set lo up; ip -n "$NS1" link set lo up
	RXB_NS[$1]=$NS0
	RXB_NS[$2]=$NS1
	sleep 1
}

# slowed: queue 1's delivered share (%) while queue 0 is slowed down.
slowed() {
	local ports tp op pct
	BENCH_TX_CPU=$(bench_pin_target rxb1 "$QUEUES")
	ports=$(bench_flow_ports rxb1 0 4) || { echo -; return; }
	tp=${ports%% , *}
	op=${ports##* , }
	rxb_knob_set rxb1 0 work "$SLOW_WORK"
	read -r _ _ _ _ pct < <(bench_target_share "$NS0" "$RXB_IP1" rxb1 "$SECS" \
		"$SLOW_PPS" 31 "${tp// /,}" "${op// /,}")
	rxb_knob_set rxb1 0 work 0
	echo "${pct:--}"
}

RXIF=rxb1
stat() {
	if [ "$1" = rx_packets ]; then	# also for the veth anchor
		ip netns exec "$NS1" cat /sys/class/net/$RXIF/statistics/rx_packets
		return
	fi
	ip netns exec "$NS1" ethtool -S $RXIF 2>/dev/null | awk -v k="$1:" '$1 == k { print $2 }'
}
kjiffies() { awk '/^cpu / { print $4 + $7 + $8 }' /proc/stat; }

# iperf ARGS...: prints received Gbit/s
iperf() {
	ip netns exec "$NS1" iperf3 -s -1 -B 192.0.2.2 >/dev/null 2>&1 &
	sleep 0.5
	ip netns exec "$NS0" timeout $((SECS + 30)) iperf3 -c 192.0.2.2 -t "$SECS" -J "$@" 2>/dev/null |
		python3 -c 'import json,sys
try:
    j = json.load(sys.stdin)["end"]
    s = j.get("sum_received") or j.get("sum")
    print("%.3f %d" % (s["bits_per_second"] / 1e9, s.get("packets", 0)))
except Exception:
    print("0 0")'
	wait
}

# measure LABEL: one row of the table for the current pair in $NS0/$NS1
measure() {
	local label=$1 tcp1 tcp4 k0 k1 p0 p1 udp ws peak nb cpu frac w
	progress "$label: TCP, 1 stream"
	read -r tcp1 _ < <(iperf)
	progress "$label: TCP, 4 streams"
	read -r tcp4 _ < <(iperf -P 4)
	progress "$label: UDP 20 Mbit/s, 1400 B"
	p0=$(stat rx_packets); k0=$(kjiffies)
	read -r udp sent < <(iperf -u -b 20M -l 1400)
	k1=$(kjiffies); p1=$(stat rx_packets)
	cpu=0
	if [ -n "$p0" ] && [ $((p1 - p0)) -gt 0 ]; then
		cpu=$(( (k1 - k0) * 1000000000 / $(getconf CLK_TCK) / (p1 - p0) ))
	fi
	ws=$(stat io_ws_buffers); peak=$(stat io_ws_buffers_peak); nb=$(stat rx_nobuf_drops)
	frac=-
	if [ "$label" != veth ]; then
		progress "$label: queue 1's share with queue 0 slowed (work $SLOW_WORK)"
		ip netns exec "$NS1" ethtool -X rxb1 weight 1 1 >/dev/null 2>&1
		frac=$(slowed)
	fi
	echo "$label,$tcp1,$tcp4,$cpu,${ws:-},${peak:-},${nb:-},$frac" >> "$csv"
}

echo "model,tcp1_gbps,tcp4_gbps,kernel_ns_per_pkt,io_ws_buffers,io_ws_peak,nobuf_drops,q1_deliv_pct_q0_slowed" > "$csv"

progress "veth anchor"
ip link add rxbdv0 type veth peer name rxbdv1
netns rxbdv0 rxbdv1
RXIF=rxbdv1
measure veth
RXIF=rxb1
cleanup

# bench_models reads the list of models from the same module, the one
# bench_host_init found (RXB_MODPROBE, RXB_KO)
if [ "$RXB_MODPROBE" = 1 ]; then load=(modprobe rxbisect); else modprobe -q tls; load=(insmod "$RXB_KO"); fi
# the layout's NIC engine cores (engine=cpuN [engines=K]), if it has them
read -ra eng <<<"$(bench_engine_param)"
load+=("${eng[@]}")
# one clear error when the module does not load at all
"${load[@]}" queues="$QUEUES" ax_ring_size=$((1024 / QUEUES)) ||
	{ echo "cannot load rxbisect" >&2; exit 1; }
rmmod rxbisect
models=$(bench_models)
for m in $models; do
	progress "model $m"
	# rxbisect as section 4.5 asks: k * |Ax| = |Bx| (1024)
	"${load[@]}" queues="$QUEUES" ring_model="$m" \
		ax_ring_size=$((1024 / QUEUES)) || continue
	netns rxb0 rxb1
	bench_pin_queues rxb0 "$QUEUES"
	bench_pin_queues rxb1 "$QUEUES"
	measure "$m"
	cleanup
done

# the table
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
base = {r["model"]: r for r in rows}
def f(x):
    try: return float(x)
    except ValueError: return None
def ratio(a, b):
    a, b = f(a), f(b)
    return "%.2f" % (a / b) if a is not None and b else "-"
pr, ve = base.get("privring"), base.get("veth")
print("| model | TCP 1 (Gbit/s) | TCP 4 | vs privring | vs veth | kernel ns/pkt (UDP) | vs privring | I/O WS (buffers) | peak | nobuf drops | q1 delivered %, q0 slowed | vs privring |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        r["model"], r["tcp1_gbps"], r["tcp4_gbps"],
        ratio(r["tcp4_gbps"], pr["tcp4_gbps"]) if pr else "-",
        ratio(r["tcp4_gbps"], ve["tcp4_gbps"]) if ve else "-",
        r["kernel_ns_per_pkt"], ratio(r["kernel_ns_per_pkt"], pr["kernel_ns_per_pkt"]) if pr else "-",
        r["io_ws_buffers"] or "-", r["io_ws_peak"] or "-", r["nobuf_drops"] or "-",
        r["q1_deliv_pct_q0_slowed"], ratio(r["q1_deliv_pct_q0_slowed"], pr["q1_deliv_pct_q0_slowed"]) if pr else "-"))
PY

# the plots
if command -v gnuplot >/dev/null; then
	progress "plots"
	gnuplot <<-GP
		set datafile separator ","
		set terminal pngcairo size 900,480 noenhanced
		set style data histograms
		set style fill solid 0.8
		set key off
		set yrange [0:*]
		set xtics rotate by -30
		set output "$OUT/demo-throughput.png"
		set title "TCP, 4 streams (Gbit/s)"
		plot "$csv" every ::1 using 3:xtic(1)
		set output "$OUT/demo-working-set.png"
		set title "I/O working set: distinct buffers the NIC wrote (last 16384 writes)"
		plot "$csv" every ::2 using 5:xtic(1)
	GP
	echo "plots: $OUT/demo-throughput.png $OUT/demo-working-set.png" >&2
else
	echo "no gnuplot: apt-get install gnuplot-nox for the plots" >&2
fi
echo "CSV: $csv" >&2
