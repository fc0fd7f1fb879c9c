#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The full benchmark matrix in one run: every ring model the module offers
# (bench_models: from the ring_model parameter's description, so a new
# model is picked up by itself; one that does not load is reported as
# skipped) plus a veth pair as the anchor, each under the same workloads:
#
#   tcp1, tcp8     iperf3 TCP, 1 and 8 streams (Gbit/s received)
#   udp64, udp1500 pktgen UDP frames of 64 B and 1518 B (1500 B IP packets)
#                  at full speed, frames received per second (kpps)
#   kernel/softirq CPU per packet: a fixed-rate iperf3 UDP stream (UDP_RATE
#                  Mbit/s, 1400 B); system+irq+softirq jiffies of all CPUs
#                  (and softirq alone) over the packets received (ns)
#   p50/p99/p99.9  sockperf UDP ping-pong latency at MPS messages/s (usec)
#   io_ws          the NIC's I/O working set (ethtool -S io_ws_buffers)
#                  after the 1500 B run, and its peak over the whole run
#   sweeps         the rxBisect paper's Figs. 14 and 15 (thesis Fig. 5.10):
#                  SWEEP_QUEUES queues, queue 0 the target (alone on the
#                  first CPU, the others and the sender on the second),
#                  UDP flows chosen
#                  against the RSS table (bench_flow_ports) at SWEEP_PPS:
#                  work sweep: queue 0 does WORK_BASE x {1..64} extra random
#                    cache-line touches per packet (debugfs work), target
#                    share SWEEP_SHARE %;
#                  share sweep: queue 0 does WORK_BASE x SHARE_MULT touches
#                    and gets {1..31} % of the datagrams.  (The paper slows
#                    every core alike and overloads the target by rate
#                    alone; with 2 CPUs the other queues would share one
#                    CPU and overload first, so here the target is the
#                    slow one and the others have CPU to spare.)
#                  reported: the share of target and non-target datagrams
#                  the NIC delivered (rxN_hw_packets over sent), and the
#                  rate the sender achieved (pps_sent).
#   nf             the network functions of tools/nf on every model and
#                  veth (nf_bench.sh: nf.csv, nf.md; after the rest)
#
# Repetitions: the whole grid is run REPS times (default 5), the models
# interleaved (ABAB: in each repetition veth and every model once, in
# turn), so that a slow phase of the host hits every model alike instead
# of one model's five runs.  Each row of the CSVs carries its repetition.
# report.py prints per cell the median and the spread (min-max) and marks
# every ratio to privring whose range, min(model)/max(privring) to
# max(model)/min(privring), includes 1.0 as within noise ("~").
#
# Writes into $OUT: bench.csv, sweep.csv (one row per model and
# repetition), bench.md (the tables: medians, spreads, ratios to privring
# and to veth), bench-summary.csv and sweep-summary.csv (median, min, max,
# ratio range and noise flag per cell), PNG plots (tools/bench/report.py,
# gnuplot), progress.log (the steps with their times) and env.txt
# (machine, kernel, parameters).  Numbers meant for the docs must come
# from a quiet machine: other load changes every one of them.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- env OUT=results/x tools/bench/bench_all.sh
#   make bench [BENCH=full]
# or natively on this machine (host.sh: refuses without root, with a tool
# missing, or with rxbisect already loaded; sized by hostlayout.py):
#   sudo make bench HOST=1, or sudo tools/bench/bench_all.sh
# The sweeps use rings of SWEEP_RING entries, so that a few seconds of
# overload outgrow them.
# Environment: BENCH (quick: works x1 x8 x64, shares 1 7 31 %, SECS 1,
# SWEEP_SECS 2; full: x1..x64, 1 3 7 15 31 %, SECS 5), REPS (5), CELLS
# (the workloads to run, default all: tcp1 tcp8 udp64 udp1500 cpu lat
# sweeps nf; e.g. CELLS=tcp1 MODELS="privring rxbisect" NO_VETH=1 for a
# quick check of the machinery), OUT, SECS, SWEEP_SECS (SECS of each sweep
# point), QUEUES (the layout's: one per queue CPU, 2 in the VM), RING
# (1024), UDP_RATE (20), MPS (1000), SWEEP_QUEUES (the layout's queues,
# at least 4: the paper's cores, each queue on its own CPU where the
# layout has them), SWEEP_RING (256),
# SWEEP_PPS (3000),
# SWEEP_SHARE (31), WORK_BASE (4096), SHARE_MULT (64), WORK_MULTS, SHARES,
# MODELS, NO_VETH=1, SWEEP_ONLY=1 (no iperf3/pktgen/sockperf).  The
# defaults put the target queue's overload within the grids under
# QEMU/TCG on a quiet host (about 6 ns per touch there: 262144 touches
# hold a vCPU 1.6 ms, so the target takes about 600 of its 930
# datagrams/s at 31 %); on a real host raise SWEEP_PPS or WORK_BASE.

set -u
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"

BENCH=${BENCH:-quick}
OUT=${OUT:-$here/../../results/bench-$(date +%Y%m%d-%H%M%S)}
# root, the tools, no other rxbisect user, the module; the machine's
# layout (HL_*), printed and kept in OUT/layout.txt and OUT/machine.txt
bench_host_init bench_all.sh iperf3:iperf3 sockperf:sockperf
QUEUES=${QUEUES:-$HL_QUEUES}
RING=${RING:-1024}
UDP_RATE=${UDP_RATE:-20}
MPS=${MPS:-1000}
SWEEP_QUEUES=${SWEEP_QUEUES:-$((HL_QUEUES > 4 ? HL_QUEUES : 4))}
SWEEP_RING=${SWEEP_RING:-256}
SWEEP_PPS=${SWEEP_PPS:-3000}
SWEEP_SHARE=${SWEEP_SHARE:-31}
WORK_BASE=${WORK_BASE:-4096}
SHARE_MULT=${SHARE_MULT:-64}
REPS=${REPS:-5}
CELLS=${CELLS:-tcp1 tcp8 udp64 udp1500 cpu lat sweeps nf}
if [ "$BENCH" = full ]; then
	SECS=${SECS:-5}
	WORK_MULTS=${WORK_MULTS:-1 2 4 8 16 32 64}
	SHARES=${SHARES:-1 3 7 15 31}
else
	SECS=${SECS:-1}
	WORK_MULTS=${WORK_MULTS:-1 8 64}
	SHARES=${SHARES:-1 7 31}
fi
# The sweeps' overload must outgrow a SWEEP_RING ring: 2 s at least.
SWEEP_SECS=${SWEEP_SECS:-$((SECS > 2 ? SECS : 2))}

mkdir -p "$OUT" || exit 1
csv=$OUT/bench.csv
swcsv=$OUT/sweep.csv
RXB_TMP=$(mktemp -d /tmp/rxb-bench.XXXXXX)
NS0=rxbe-a-$$
NS1=rxbe-b-$$
trap rxb_cleanup EXIT
trap 'exit 130' INT TERM
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
step=0
rep=0
progress() {
	step=$((step + 1))
	printf '[%3d %4ds] rep %s/%s: %s\n' "$step" "$SECONDS" "$rep" "$REPS" "$*" |
		tee -a "$OUT/progress.log" >&2
}

# cell NAME: whether workload NAME is in $CELLS.
cell() { [[ " $CELLS " == *" $1 "* ]]; }

# model_params MODEL QUEUES RING: the module parameters a model is run
# with.  rxBisect as the paper's section 4.5 asks: k * |Ax| = |Bx|.
model_params() {
	local p
	p="queues=$2 rx_ring_size=$3 ring_model=$1 $(bench_engine_param)"
	[ "$1" = rxbisect ] && p="$p ax_ring_size=$(($3 / $2 < 64 ? 64 : $3 / $2))"
	echo "$p"
}

# load MODEL QUEUES [RING]: module and namespaces up; 1 when the model
# will not load.
load() {
	rxb_kill_bg
	for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
	# shellcheck disable=SC2046
	rxb_load $(model_params "$1" "$2" "${3:-$RING}") 2>>"$OUT/errors.txt" || return 1
	rxb_setup_netns rxb0 rxb1 || return 1
	bench_pin_queues rxb0 "$2"
	bench_pin_queues rxb1 "$2"
	# a slowed queue must not trip the rx_stall watchdog
	rxb_stall_timeout 600000 2>/dev/null
	return 0
}

# measure LABEL IF0 IF1: one row of bench.csv for the pair in $NS0/$NS1.
measure() {
	local label=$1 if0=$2 if1=$3 tcp1 tcp8 u64 u1500 mac p0 p1 k0 s0 k1 s1
	local n kns=- sns=- lat="- - -" ws=- peak=- nb=- hz
	hz=$(getconf CLK_TCK)
	tcp1=- tcp8=- u64=- u1500=-
	if cell tcp1; then
		progress "$label: iperf3 TCP, 1 stream"
		rxb_iperf "$RXB_TMP/t1.json" "$SECS" >/dev/null 2>&1
		rxb_iperf_parse "$RXB_TMP/t1.json"
		tcp1=$IPERF_GBPS
	fi
	if cell tcp8; then
		progress "$label: iperf3 TCP, 8 streams"
		rxb_iperf "$RXB_TMP/t8.json" "$SECS" -P 8 >/dev/null 2>&1
		rxb_iperf_parse "$RXB_TMP/t8.json"
		tcp8=$IPERF_GBPS
	fi
	mac=$(rxb_mac "$if1")
	if cell udp64; then
		progress "$label: pktgen UDP 64 B"
		read -r u64 _ < <(bench_pktgen "$NS0" "$if0" "$mac" "$RXB_IP1" 60 "$SECS" "$NS1" "$if1")
	fi
	if cell udp1500; then
		progress "$label: pktgen UDP 1518 B"
		read -r u1500 _ < <(bench_pktgen "$NS0" "$if0" "$mac" "$RXB_IP1" 1514 "$SECS" "$NS1" "$if1")
	fi
	if [ "$label" != veth ]; then
		rxb_snap "$if1"
		ws=${RXB_S[io_ws_buffers]:--}
	fi
	if cell cpu; then
		progress "$label: CPU per packet, UDP $UDP_RATE Mbit/s"
		p0=$(bench_rx_packets "$NS1" "$if1")
		read -r k0 s0 < <(bench_jiffies)
		rxb_iperf "$RXB_TMP/u.json" "$SECS" -u -b "${UDP_RATE}M" -l 1400 >/dev/null 2>&1
		read -r k1 s1 < <(bench_jiffies)
		p1=$(bench_rx_packets "$NS1" "$if1")
		n=$((p1 - p0))
		if [ "$n" -gt 0 ]; then
			kns=$(( (k1 - k0) * 1000000000 / hz / n ))
			sns=$(( (s1 - s0) * 1000000000 / hz / n ))
		fi
	fi
	if cell lat; then
		progress "$label: sockperf ping-pong, $MPS msg/s"
		lat=$(bench_sockperf "$NS0" "$NS1" "$RXB_IP1" "$SECS" "$MPS")
	fi
	if [ "$label" != veth ]; then
		rxb_snap "$if1"
		peak=${RXB_S[io_ws_buffers_peak]:--}
		nb=${RXB_S[rx_nobuf_drops]:--}
	fi
	echo "$label,$rep,ok,$tcp1,$tcp8,$(kpps "$u64"),$(kpps "$u1500"),$kns,$sns,${lat// /,},$ws,$peak,$nb" >>"$csv"
}

kpps() { awk -v p="$1" 'BEGIN { if (p ~ /^[0-9]+$/) printf "%.1f", p / 1000; else print "-" }'; }

# sweep_point MODEL KIND WORK SHARE TPORTS OPORTS: one row of sweep.csv.
sweep_point() {
	local m=$1 kind=$2 w=$3 s=$4 st so secs tp op
	read -r st so secs tp op < <(bench_target_share "$NS0" "$RXB_IP1" rxb1 \
		"$SWEEP_SECS" "$SWEEP_PPS" "$s" "$5" "$6")
	echo "$m,$rep,$kind,$w,$s,${st:-0},${so:-0},${tp:--},${op:--},$(awk \
		-v n=$((${st:-0} + ${so:-0})) -v t="${secs:-0}" \
		'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }')" >>"$swcsv"
	rxb_knob_set rxb1 0 work 0
	rxb_wait_consumed rxb1 >/dev/null 2>&1
}

# sweeps MODEL: the work and share sweeps.
sweeps() {
	local m=$1 ports tports oports x w
	load "$m" "$SWEEP_QUEUES" "$SWEEP_RING" || return 1
	BENCH_TX_CPU=$(bench_pin_target rxb1 "$SWEEP_QUEUES")
	ports=$(bench_flow_ports rxb1 0 4) || return 1
	tports=${ports%% , *}
	oports=${ports##* , }
	tports=${tports// /,}
	oports=${oports// /,}
	for x in $WORK_MULTS; do
		w=$((WORK_BASE * x))
		progress "$m: work sweep, target work $w"
		rxb_knob_set rxb1 0 work "$w"
		sweep_point "$m" work "$w" "$SWEEP_SHARE" "$tports" "$oports"
	done
	w=$((WORK_BASE * SHARE_MULT))
	for x in $SHARES; do
		progress "$m: share sweep, target share $x %"
		rxb_knob_set rxb1 0 work "$w"
		sweep_point "$m" share "$w" "$x" "$tports" "$oports"
	done
}

# The whole run is one function, so that bash has read all of it before
# it starts: editing this file during a run does not derail the run.
main() {
	local models m ns
	: >"$OUT/progress.log"
	models=$(bench_models)
	{
		echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "kernel: $(uname -r); CPUs: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
		echo "layout: queues on CPUs $HL_QUEUE_CPUS, engine ${HL_ENGINE_PARAMS:-inline}, pktgen on CPU $BENCH_GEN_CPU (OUT/layout.txt, OUT/machine.txt)"
		echo "vm: ${RXB_VM:-0}; bench: $BENCH; reps $REPS (interleaved); secs $SECS queues $QUEUES ring $RING udp_rate $UDP_RATE mps $MPS"
		echo "sweep: secs $SWEEP_SECS queues $SWEEP_QUEUES ring $SWEEP_RING pps $SWEEP_PPS share $SWEEP_SHARE work_base $WORK_BASE mults $WORK_MULTS shares $SHARES share_mult $SHARE_MULT"
		echo "models: $models; cells: $CELLS"
	} >"$OUT/env.txt"
	echo "model,rep,status,tcp1_gbps,tcp8_gbps,udp64_kpps,udp1500_kpps,kernel_ns_pkt,softirq_ns_pkt,lat_p50_us,lat_p99_us,lat_p999_us,io_ws_buffers,io_ws_peak,nobuf_drops" >"$csv"
	echo "model,rep,sweep,work,share_pct,sent_target,sent_other,target_deliv_pct,other_deliv_pct,pps_sent" >"$swcsv"
	progress "models: $models; $REPS repetitions, interleaved"

	# ABAB: each repetition runs veth and every model once, in turn.
	for rep in $(seq 1 "$REPS"); do
		if [ -z "${NO_VETH:-}" ] && [ -z "${SWEEP_ONLY:-}" ]; then
			progress "veth anchor"
			rxb_unload
			ip link del rxbev0 2>/dev/null
			if ip link add rxbev0 type veth peer name rxbev1 && rxb_setup_netns rxbev0 rxbev1; then
				measure veth rxbev0 rxbev1
			else
				echo "veth,$rep,skipped,,,,,,,,,,,," >>"$csv"
			fi
			rxb_kill_bg
			for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
		fi
		for m in $models; do
			progress "model $m"
			if ! load "$m" "$QUEUES"; then
				progress "$m: does not load, skipped (see $OUT/errors.txt)"
				echo "$m,$rep,skipped,,,,,,,,,,,," >>"$csv"
				continue
			fi
			[ -z "${SWEEP_ONLY:-}" ] && measure "$m" rxb0 rxb1
			if cell sweeps; then
				sweeps "$m" || progress "$m: sweeps failed"
			fi
		done
	done
	rep=$REPS
	progress "done"
	rxb_cleanup
	trap - EXIT

	python3 "$here/report.py" "$OUT" | tee "$OUT/bench.md"
	# the network functions: a run of their own (nf.csv, nf.md)
	if cell nf; then
		OUT=$OUT REPS=$REPS MODELS=$models \
			bash "$here/nf_bench.sh" 2>>"$OUT/progress.log" | tee -a "$OUT/bench.md"
	fi
	echo "results: $OUT" >&2
}

main "$@"
exit
