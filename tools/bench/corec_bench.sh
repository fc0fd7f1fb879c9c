#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# COREC against privRing, measured in one run (a benchmark, not a test):
#
#  1. Reordering: numbered UDP datagrams of one flow at a fixed rate, the
#     share received out of order (RFC 4737, as the COREC paper's section
#     4.3.1) and the largest distance; TCP: one iperf3 stream, its
#     throughput and retransmissions (section 4.3.2).
#  2. Latency under a skewed load: one heavy UDP flow plus many light
#     ones, and sockperf ping-pong (UDP, RTT/2 percentiles).  With
#     privRing the probe flow is steered by its client port (Toeplitz
#     computed here) onto the heavy flow's queue ("same") or the other
#     ("other"); COREC's consumers share one queue either way.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/corec_bench.sh
# Environment: QUEUES (2), RING (1024), SECS (5), UDP_PPS (numbered
# datagrams per second, 4000), HEAVY (heavy flow Mbit/s, 40), LIGHT
# (light flows, 16), MPS (sockperf messages per second, 1000), RUNS (the
# configurations: privring, and corec with each interrupt policy).

set -u
QUEUES=${QUEUES:-2}
RING=${RING:-1024}
SECS=${SECS:-5}
UDP_PPS=${UDP_PPS:-4000}
HEAVY=${HEAVY:-40}
LIGHT=${LIGHT:-16}
MPS=${MPS:-1000}
RUNS=${RUNS:-privring corec:all corec:rr}
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
RXB_TMP=$(mktemp -d /tmp/corec-bench.XXXXXX)
NS0=rxcb-a-$$
NS1=rxcb-b-$$
trap rxb_cleanup EXIT
SEQ="python3 $lib/udp_seq.py"
HEAVY_CPORT=40000
SP_PORT=11111

# setup MODEL[:IRQ_POLICY]
setup() {
	local model=${1%%:*} pol=
	[ "$model" != "$1" ] && pol=corec_irq_policy=${1#*:}
	rxb_kill_bg
	rxb_load queues="$QUEUES" rx_ring_size="$RING" ring_model="$model" $pol ||
		{ echo "cannot load rxbisect ring_model=$1" >&2; exit 1; }
	for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
	rxb_setup_netns || { echo "cannot set up the namespaces" >&2; exit 1; }
	sysctl -qw net.core.rmem_max=$((32 << 20))
}

# queue_of SPORT DPORT: rxb1's RSS queue for UDP 192.0.2.1:SPORT -> :DPORT.
queue_of() {
	rxb_toeplitz_queue "$(rxb_hkey rxb1)" "$(rxb_indir rxb1)" "$RXB_IP0" \
		"$RXB_IP1" "$1" "$2"
}

# udp_reorder: prints "ooo_pct max_dist lost".
udp_reorder() {
	local out=$RXB_TMP/seq.json i
	rm -f "$out" "$out.ready"
	rxb_bg ip netns exec "$NS1" timeout $((SECS + 60)) $SEQ recv "$RXB_IP1" 9000 \
		"$out" $((SECS + 40)) >/dev/null 2>&1
	for i in $(seq 50); do [ -e "$out.ready" ] && break; sleep 0.1; done
	ip netns exec "$NS0" timeout $((SECS + 30)) $SEQ send "$RXB_IP1" 9000 \
		$((UDP_PPS * SECS)) 1 "$UDP_PPS" 64 >/dev/null
	for i in $(seq 100); do [ -s "$out" ] && break; sleep 0.1; done
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
print("%.3f %d %d" % (j["ooo_pct"], j["max_dist"], j["lost"]))' "$out" 2>/dev/null ||
		echo "- - -"
}

# tcp_one: one iperf3 stream; prints "Gbit/s retransmits".
tcp_one() {
	rxb_iperf "$RXB_TMP/tcp.json" "$SECS" >/dev/null 2>&1
	rxb_iperf_parse "$RXB_TMP/tcp.json"
	if [ -n "$IPERF_ERR" ]; then
		echo "- -"
	else
		echo "$IPERF_GBPS $IPERF_RETR"
	fi
}

# latency CPORT: heavy + light load, sockperf from client port CPORT;
# prints "p50 p99 p99.9" (usec, RTT/2).
latency() {
	local cport=$1 out=$RXB_TMP/sockperf.txt
	rxb_bg ip netns exec "$NS1" sockperf sr -i "$RXB_IP1" -p $SP_PORT >/dev/null 2>&1
	rxb_bg ip netns exec "$NS1" iperf3 -s -1 -p 5300 -B "$RXB_IP1" >/dev/null 2>&1
	rxb_wait_listen "$NS1" 5300
	rxb_bg ip netns exec "$NS0" iperf3 -c "$RXB_IP1" -p 5300 -u -b "${HEAVY}M" -l 1400 \
		--cport $HEAVY_CPORT -t $((SECS + 3)) >/dev/null 2>&1
	rxb_bg ip netns exec "$NS0" $SEQ send "$RXB_IP1" 9 $((LIGHT * 20 * (SECS + 3))) \
		"$LIGHT" $((LIGHT * 20)) 200 >/dev/null 2>&1
	sleep 1
	ip netns exec "$NS0" sockperf pp -i "$RXB_IP1" -p $SP_PORT --client_port "$cport" \
		-t "$SECS" --mps="$MPS" >"$out" 2>&1
	rxb_kill_bg
	awk '/percentile 50.000/ { a = $NF } /percentile 99.000/ { b = $NF }
	     /percentile 99.900/ { c = $NF } END { print (a ? a : "-"), (b ? b : "-"), (c ? c : "-") }' "$out"
}

# A client port whose flow rxb1 steers to queue WANT (or not to it, with !).
pick_cport() {
	local want=$1 p q
	for p in $(seq 30000 30200); do
		q=$(queue_of "$p" $SP_PORT)
		if [ "${want#!}" = "$want" ]; then
			[ "$q" = "$want" ] && { echo "$p"; return; }
		else
			[ "$q" != "${want#!}" ] && { echo "$p"; return; }
		fi
	done
	echo 30000
}

declare -A R=()
for model in $RUNS; do
	setup "$model"
	read -r R[$model.ooo] R[$model.dist] R[$model.lost] < <(udp_reorder)
	read -r R[$model.gbps] R[$model.retr] < <(tcp_one)
	hq=$(queue_of $HEAVY_CPORT 5300)
	read -r R[$model.s50] R[$model.s99] R[$model.s999] < <(latency "$(pick_cport "$hq")")
	read -r R[$model.o50] R[$model.o99] R[$model.o999] < <(latency "$(pick_cport "!$hq")")
	rxb_snap rxb1
	R[$model.held]=${RXB_S[ring0_tail_held]:--}
	R[$model.cas]=$(rxb_s_qsum corec_cas_fails)
	ip netns del "$NS0"
	ip netns del "$NS1"
done

loss() {
	python3 -c 'import sys
try: print("%+.1f %%" % (100.0 * (float(sys.argv[2]) - float(sys.argv[1])) / float(sys.argv[1])))
except Exception: print("-")' "$1" "$2"
}

echo "COREC vs privRing: $QUEUES queues, ring $RING, ${SECS} s per run"
echo "  reordering: one UDP flow, $UDP_PPS datagrams/s; one TCP stream"
echo "  latency: sockperf ping-pong at $MPS msg/s (usec, RTT/2) under one ${HEAVY} Mbit/s"
echo "  UDP flow + $LIGHT light flows; 'same'/'other': the probe on the heavy"
echo "  flow's RSS queue or not (privRing; COREC shares one queue)"
echo
printf '%-10s %8s %5s %5s %8s %6s  %-24s %-24s\n' model "UDP ooo%" dist lost "TCP Gb/s" retr \
	"lat same p50/p99/p99.9" "lat other p50/p99/p99.9"
for model in $RUNS; do
	printf '%-10s %8s %5s %5s %8s %6s  %-24s %-24s\n' "$model" "${R[$model.ooo]}" \
		"${R[$model.dist]}" "${R[$model.lost]}" "${R[$model.gbps]}" "${R[$model.retr]}" \
		"${R[$model.s50]}/${R[$model.s99]}/${R[$model.s999]}" \
		"${R[$model.o50]}/${R[$model.o99]}/${R[$model.o999]}"
	[[ $model == corec* ]] &&
		echo "    $model: tail holds ${R[$model.held]}, CAS failures ${R[$model.cas]} (latency runs)"
done
echo
echo "TCP throughput vs privring: corec:all $(loss "${R[privring.gbps]:-}" "${R[corec:all.gbps]:-}")," \
	"corec:rr $(loss "${R[privring.gbps]:-}" "${R[corec:rr.gbps]:-}")" \
	"(paper, Table 5: single flow FCT +0.5 % (1 GB) to +2.4 % (10 GB) from 1 to 4 cores," \
	"retransmissions 6 -> 1071 (1 GB))"
echo "UDP reordering (paper, Table 4: < 1 % on MAWI traces; Fig. 7: high only at high rate" \
	"with minimum-size packets)"
echo "Latency p99.9 on the loaded queue corec:all / corec:rr / privring:" \
	"${R[corec:all.s999]:-} / ${R[corec:rr.s999]:-} / ${R[privring.s999]:-} usec" \
	"(paper, Figs. 5-6: COREC flattens mean and tail latency up to saturation; no numbers in the text)"
