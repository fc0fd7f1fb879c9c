#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The papers' experiments, one command each, sized to the machine they
# run on (host.sh, hostlayout.py: queues on their own CPUs, the NIC
# engine and pktgen on others, one NUMA node, buffer budgets relative to
# the LLC):
#
#   paper.sh ws      the I/O working set problem (rxBisect paper Fig. 2,
#                    thesis Fig. 4.2): privring with QUEUES queues against
#                    its ring size (RINGS: the layout's, buffer budgets
#                    of 1/4 .. 8 x the LLC); per ring size pktgen frames of
#                    PKT bytes at full speed over every queue (64 flows):
#                    delivered kpps and Gbit/s, sockperf ping-pong latency
#                    under that load (p50, p99), the I/O working set the
#                    NIC measured (io_ws_buffers, peak), the NIC's drops,
#                    and where perf can count them LLC misses and memory
#                    bytes (misses x 64) per packet.
#   paper.sh bursts  bursts absorbed (rxBisect Figs. 9 and 12, thesis
#                    Fig. 4.4): every frame of one flow to queue 0, the
#                    thesis's "single core"; per configuration (CONFIGS:
#                    privring 128 and 1 Ki, shring 1 Ki, rxbisect 1 Ki
#                    with Ax 128) bursts of BURSTS datagrams back to back
#                    from a socket (the share delivered, the largest
#                    absorbed without a drop), pktgen for SECS at full
#                    speed (delivered kpps, drops) and
#                    the no-drop rate (RFC 2544 style: NDR_STEPS halvings
#                    of the pktgen rate between 0 and the full speed).
#   paper.sh ceio    CEIO against the baseline (CEIO §6.2, Figs. 9-10):
#                    privring and ceio with QUEUES queues of CEIO_RING
#                    entries each (default the layout's largest ring, a
#                    buffer budget beyond the LLC), ceio's credits sized to
#                    the DDIO share (llc_budget, as the paper's 6 MiB are
#                    its DDIO ways); per frame size of CEIO_PKTS (the
#                    paper's 128-1024 B) pktgen at full speed over every
#                    queue: delivered kpps, each against privring's of the
#                    same repetition, the NIC's drops, the share of
#                    ceio's packets that took the slow path, the I/O
#                    working set, and where perf counts them LLC misses
#                    per packet (the paper: 88 % -> 1 % miss rate).
#
# Writes into OUT: EXP.csv (one row per measurement and repetition),
# EXP.md (medians over REPS repetitions, the papers' findings beside
# ours), PNG plots (matplotlib, else gnuplot), layout.txt, machine.txt
# (CPU, LLC, frequency policy, kernel, module, git commit, perf) and
# params.txt (the module's parameters of each configuration).  Progress
# goes to the terminal and OUT/progress.log.
#
# Run as root where the module loads: in the VM (make bench-ws,
# make bench-bursts) or natively (sudo make bench-ws HOST=1, or
# sudo tools/bench/paper.sh ws).  host.sh refuses without root, with a
# tool missing or with rxbisect already in use (exit 2).
# Environment: OUT, REPS (3), SECS (5), QUEUES (the layout's), PKT (1514),
# MPS (sockperf messages/s, 1000), RINGS (ws), CONFIGS ("privring:128
# privring:1024 shring:1024 rxbisect:1024:128", MODEL:RING[:AX]), BURSTS
# ("64 256 1024 4096"), NDR_STEPS (6; 0: no search), CEIO_RING (ceio),
# CEIO_PKTS ("128 512 1024").

set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$here/../../selftests/drivers/net/rxbisect/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"

EXP=${1:-}
case $EXP in
ws|bursts|ceio) ;;
*) echo "usage: paper.sh ws|bursts|ceio (the I/O working set; bursts absorbed; CEIO against the baseline)" >&2; exit 2 ;;
esac
OUT=${OUT:-$here/../../results/$EXP-$(date +%Y%m%d-%H%M%S)}
bench_host_init "paper.sh $EXP"
REPS=${REPS:-3}
SECS=${SECS:-5}
QUEUES=${QUEUES:-$HL_QUEUES}
PKT=${PKT:-1514}
MPS=${MPS:-1000}
RINGS=${RINGS:-$HL_RINGS}
CONFIGS=${CONFIGS:-privring:128 privring:1024 shring:1024 rxbisect:1024:128}
BURSTS=${BURSTS:-64 256 1024 4096}
NDR_STEPS=${NDR_STEPS:-6}
CEIO_RING=${CEIO_RING:-${RINGS##* }}
CEIO_PKTS=${CEIO_PKTS:-128 512 1024}
for v in $CEIO_RING $CEIO_PKTS; do
	[[ $v =~ ^[1-9][0-9]{1,4}$ ]] ||
		{ echo "paper.sh: CEIO_RING and CEIO_PKTS are whole numbers, not '$v'" >&2; exit 2; }
done

csv=$OUT/$EXP.csv
RXB_TMP=$(mktemp -d /tmp/rxb-paper.XXXXXX)
NS0=rxbp-a-$$
NS1=rxbp-b-$$
trap rxb_cleanup EXIT
trap 'exit 130' INT TERM
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
modprobe pktgen 2>/dev/null
: >"$OUT/progress.log"
: >"$OUT/params.txt"
rep=0

progress() {
	printf '[%4ds] %s: %s\n' "$SECONDS" "$EXP" "$*" | tee -a "$OUT/progress.log" >&2
}

# load LABEL MODEL RING [AX [PARAM=VALUE...]]: the module with the
# layout's queues and engine, the pair in its namespaces, queues pinned; 1
# when it fails.
load() {
	local -a p=(queues="$QUEUES" rx_ring_size="$3" ring_model="$2")
	[ -n "${4:-}" ] && p+=(ax_ring_size="$4")
	[ $# -gt 4 ] && p+=("${@:5}")
	[ "$2" = shring ] && p+=(share_factor="$QUEUES")
	local -a e
	read -ra e <<<"$(bench_engine_param)"
	p+=("${e[@]}")
	rxb_kill_bg
	for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
	rxb_load "${p[@]}" 2>>"$OUT/errors.txt" || return 1
	rxb_setup_netns rxb0 rxb1 || return 1
	bench_pin_queues rxb0 "$QUEUES"
	bench_pin_queues rxb1 "$QUEUES"
	rxb_stall_timeout 600000 2>/dev/null
	echo "$1 (rep $rep): $(bench_params)" >>"$OUT/params.txt"
	return 0
}

# nic_drops: rxb1's receive drops (no buffer, ring full, ingress FIFO).
nic_drops() {
	rxb_snap rxb1 || { echo 0; return; }
	echo $((${RXB_S[rx_nobuf_drops]:-0} + ${RXB_S[rx_ring_full_drops]:-0} + ${RXB_S[rx_fifo_drops]:-0}))
}

PERF_OK=0
if [ "$BENCH_PERF" = ok ]; then
	PERF_OK=1
else
	progress "perf: $BENCH_PERF; those columns stay empty"
fi
if ! command -v sockperf >/dev/null 2>&1; then
	progress "no sockperf (apt-get install sockperf): no latency columns"
fi

# perf_start SECS: LLC misses of all CPUs over the next SECS seconds.
perf_start() {
	[ "$PERF_OK" = 1 ] || return 0
	perf stat -a -x, -e LLC-load-misses,LLC-store-misses -o "$RXB_TMP/perf.txt" \
		-- sleep "$1" >/dev/null 2>&1 &
	PERF_PID=$!
}

# perf_misses: the misses perf_start counted ("" without perf).
perf_misses() {
	[ "$PERF_OK" = 1 ] || return 0
	wait "$PERF_PID" 2>/dev/null
	awk -F, '$1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }' "$RXB_TMP/perf.txt"
}

# ---- the I/O working set ----------------------------------------------------

ws_point() {
	local r=$1 mac p0 p1 pps kj n0 n1 lat=(- -) miss mpp=- bpp="" gbps
	mac=$(rxb_mac rxb1)
	n0=$(nic_drops)
	p0=$(bench_rx_packets "$NS1" rxb1)
	if command -v sockperf >/dev/null 2>&1; then
		( sleep 1; bench_sockperf "$NS0" "$NS1" "$RXB_IP1" "$((SECS > 2 ? SECS - 1 : 1))" "$MPS" 3 \
			>"$RXB_TMP/lat" ) &
	else
		echo "- - -" >"$RXB_TMP/lat"
	fi
	perf_start $((SECS + 1))
	read -r pps kj _ < <(bench_pktgen "$NS0" rxb0 "$mac" "$RXB_IP1" "$PKT" "$SECS" "$NS1" rxb1)
	miss=$(perf_misses)
	wait
	p1=$(bench_rx_packets "$NS1" rxb1)
	n1=$(nic_drops)
	read -r -a lat <"$RXB_TMP/lat"
	rxb_snap rxb1
	if [ -n "$miss" ] && [ $((p1 - p0)) -gt 0 ]; then
		mpp=$(awk -v m="$miss" -v n=$((p1 - p0)) 'BEGIN { printf "%.2f", m / n }')
		bpp=$(awk -v m="$miss" -v n=$((p1 - p0)) 'BEGIN { printf "%.0f", m * 64 / n }')
	fi
	gbps=$(awk -v p="${pps:-0}" -v s="$PKT" 'BEGIN { printf "%.3f", p * (s + 4) * 8 / 1e9 }')
	echo "$rep,$r,$QUEUES,$((QUEUES * r * 4)),$((QUEUES * r * 3 / 2)),$HL_LLC_BYTES,$HL_DDIO_KB,$(kpps "$pps"),$gbps,${lat[0]:--},${lat[1]:--},${RXB_S[io_ws_buffers]:--},${RXB_S[io_ws_buffers_peak]:--},$((n1 - n0)),$mpp,${bpp:--},${kj:--}" >>"$csv"
	progress "ring $r: $(kpps "$pps") kpps, p99 ${lat[1]:--} us, working set ${RXB_S[io_ws_buffers]:--} buffers, $((n1 - n0)) NIC drops"
}

kpps() { awk -v p="$1" 'BEGIN { if (p ~ /^[0-9]+$/) printf "%.1f", p / 1000; else print "-" }'; }

run_ws() {
	local r
	echo "rep,ring,queues,posted_kib,written_kib,llc_bytes,ddio_kb,kpps,gbps,lat_p50_us,lat_p99_us,io_ws_buffers,io_ws_peak,nic_drops,llc_misses_pkt,mem_bytes_pkt,kernel_jiffies" >"$csv"
	for rep in $(seq 1 "$REPS"); do
		for r in $RINGS; do
			progress "rep $rep/$REPS: privring, $QUEUES queues x $r entries"
			if ! load "privring-$r" privring "$r"; then
				progress "privring $r does not load, skipped (see $OUT/errors.txt)"
				continue
			fi
			ws_point "$r"
		done
	done
}

# ---- bursts absorbed --------------------------------------------------------

# burst_run COUNT [PPS]: COUNT > 0: one burst of COUNT datagrams of the
# queue-0 flow, back to back from a socket (udp_burst.py, on the
# generator CPU); 0: pktgen for SECS at full speed or PPS.  Prints "sent
# delivered nic_drops milliseconds".  (pktgen's own count is not used:
# at the end of a count it waits for its last frame's last reference.)
burst_run() {
	local mac p0 p1 n0 n1 t0 t1 sent pid
	n0=$(nic_drops)
	p0=$(bench_rx_packets "$NS1" rxb1)
	t0=$(date +%s%N)
	if [ "$1" -gt 0 ]; then
		read -r sent _ < <(ip netns exec "$NS0" timeout $((SECS + 30)) \
			taskset -c "${BENCH_GEN_CPU:-0}" $RXB_PY "$BENCH_DIR/udp_burst.py" \
			"$RXB_IP1" "$SPORT" "$1" $((PKT - 42)))
	else
		mac=$(rxb_mac rxb1)
		bench_pg_setup "$NS0" rxb0 "$mac" "$RXB_IP1" "$PKT" 0 "$SPORT" "$SPORT" 9 9 "${2:-}"
		t0=$(date +%s%N)
		ip netns exec "$NS0" timeout $((SECS + 30)) \
			sh -c "echo start > $BENCH_PG/pgctrl" 2>/dev/null &
		pid=$!
		sleep "$SECS"
		bench_pg "$NS0" pgctrl stop
		wait "$pid" 2>/dev/null
		sent=$(bench_pg_sent "$NS0" rxb0)
		bench_pg "$NS0" "kpktgend_${BENCH_GEN_CPU:-0}" rem_device_all
	fi
	t1=$(date +%s%N)
	# what the NIC delivered: NAPI done with it (rxb_wait_consumed waits
	# 5 s when drops keep the counters apart)
	rxb_sleep 0.5
	p1=$(bench_rx_packets "$NS1" rxb1)
	n1=$(nic_drops)
	echo "${sent:-0} $((p1 - p0)) $((n1 - n0)) $(( (t1 - t0) / 1000000 ))"
}

burst_row() {	# LABEL KIND BURST SENT DELIVERED DROPS MS
	local pct kp
	pct=$(awk -v d="$5" -v s="$4" 'BEGIN { if (s > 0) printf "%.1f", 100 * d / s; else print "-" }')
	kp=$(awk -v d="$5" -v ms="$7" 'BEGIN { if (ms > 0) printf "%.1f", d / ms; else print "-" }')
	echo "$1,$rep,$2,$3,$4,$5,$6,$pct,$kp" >>"$csv"
	echo "$pct"
}

run_bursts() {
	local c m r ax label b sent del dr ms pct lo hi mid full i ports
	echo "config,rep,kind,burst,sent,delivered,nic_drops,deliv_pct,deliv_kpps" >"$csv"
	for rep in $(seq 1 "$REPS"); do
		for c in $CONFIGS; do
			IFS=: read -r m r ax <<<"$c"
			label=$m-$r${ax:+-ax$ax}
			progress "rep $rep/$REPS: $label, every frame to queue 0"
			if ! load "$label" "$m" "$r" "$ax"; then
				progress "$label does not load, skipped (see $OUT/errors.txt)"
				continue
			fi
			ports=$(bench_flow_ports rxb1 0 1) || { progress "$label: no flow for queue 0"; continue; }
			SPORT=${ports%% *}
			progress "$label: flow from UDP port $SPORT to queue 0"
			for b in $BURSTS; do
				read -r sent del dr ms < <(burst_run "$b")
				pct=$(burst_row "$label" burst "$b" "$sent" "$del" "$dr" "$ms")
				progress "$label: burst of $b, $pct % delivered, $dr NIC drops"
			done
			read -r sent del dr ms < <(burst_run 0)
			burst_row "$label" full - "$sent" "$del" "$dr" "$ms" >/dev/null
			full=$(( ms > 0 ? sent * 1000 / ms : 0 ))
			progress "$label: full speed, $sent sent, $del delivered, $dr NIC drops"
			lo=0
			hi=$full
			for ((i = 0; i < NDR_STEPS && hi - lo > 1; i++)); do
				mid=$(( (lo + hi) / 2 ))
				read -r sent del dr ms < <(burst_run 0 "$mid")
				progress "$label: $mid pps: $sent sent, $del delivered, $dr NIC drops"
				if [ "$dr" = 0 ] && [ "$del" -ge "$sent" ]; then lo=$mid; else hi=$mid; fi
			done
			if [ "$NDR_STEPS" -gt 0 ]; then
				echo "$label,$rep,ndr,-,,,,,$(kpps "$lo")" >>"$csv"
				progress "$label: no-drop rate $(kpps "$lo") kpps (of $(kpps "$full") sent at full speed)"
			fi
		done
	done
}

# ---- CEIO against the baseline ------------------------------------------------

# ceio_point MODEL PKT: pktgen PKT-byte frames at full speed over every
# queue for SECS; one row of ceio.csv.
ceio_point() {
	local m=$1 pkt=$2 mac pps miss mpp=- bpp=- k fast=0 slow=0
	mac=$(rxb_mac rxb1)
	perf_start $((SECS + 1))
	read -r pps _ < <(bench_pktgen "$NS0" rxb0 "$mac" "$RXB_IP1" "$pkt" "$SECS" "$NS1" rxb1)
	miss=$(perf_misses)
	rxb_snap rxb1
	for k in "${!RXB_S[@]}"; do
		[[ $k =~ ^rx[0-9]+_ceio_fast$ ]] && fast=$((fast + RXB_S[$k]))
		[[ $k =~ ^rx[0-9]+_ceio_slow$ ]] && slow=$((slow + RXB_S[$k]))
	done
	if [ -n "$miss" ] && [[ ${pps:-} =~ ^[1-9][0-9]*$ ]]; then
		mpp=$(awk -v m="$miss" -v n="$((pps * SECS))" 'BEGIN { printf "%.2f", m / n }')
		bpp=$(awk -v m="$miss" -v n="$((pps * SECS))" 'BEGIN { printf "%.0f", m * 64 / n }')
	fi
	echo "$rep,$m,$pkt,$CEIO_RING,$QUEUES,$((HL_DDIO_KB * 1024)),$(kpps "$pps"),$(awk -v p="${pps:-0}" -v s="$pkt" 'BEGIN { printf "%.3f", p * (s + 4) * 8 / 1e9 }'),$(nic_drops),${RXB_S[io_ws_buffers]:--},$fast,$slow,$mpp,$bpp" >>"$csv"
	progress "$m, $pkt B: $(kpps "$pps") kpps, $(nic_drops) NIC drops, ceio fast $fast slow $slow, working set ${RXB_S[io_ws_buffers]:--} buffers"
}

run_ceio() {
	local pkt m
	echo "rep,model,pkt,ring,queues,llc_budget,kpps,gbps,nic_drops,io_ws_buffers,ceio_fast,ceio_slow,llc_misses_pkt,mem_bytes_pkt" >"$csv"
	for rep in $(seq 1 "$REPS"); do
		for pkt in $CEIO_PKTS; do
			for m in privring ceio; do
				progress "rep $rep/$REPS: $m, $QUEUES queues x $CEIO_RING entries, $pkt B frames"
				# ceio's credits: the DDIO share, as the paper's
				if ! load "$m-$CEIO_RING-$pkt" "$m" "$CEIO_RING" "" \
					llc_budget=$((HL_DDIO_KB * 1024)); then
					progress "$m does not load, skipped (see $OUT/errors.txt)"
					continue
				fi
				ceio_point "$m" "$pkt"
			done
		done
	done
}

main() {
	local frames="$PKT B frames"
	[ "$EXP" = ceio ] && frames="frames of $CEIO_PKTS B"
	progress "$QUEUES queues, $REPS repetitions of $SECS s, $frames"
	"run_$EXP"
	rep=$REPS
	rxb_cleanup
	trap - EXIT
	python3 "$here/paper_report.py" "$EXP" "$OUT" | tee "$OUT/$EXP.md"
	echo "results: $OUT" >&2
}

main "$@"
exit
