#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel TCP over small and large privRing rings, measured in one run (a
# benchmark, not a test): the thesis's §5.3 (Figs. 5.13 and 5.14), where
# small private rings stand in for the working set rxBisect reaches.
#
# For each queue count in QUEUES_LIST (1: one ring, one core, as the
# thesis's "single core" TCP_STREAM; 2: one ring per vCPU) and each ring
# size in RINGS:
#  - TCP_STREAM: one iperf3 stream for SECS seconds; Gbit/s received, the
#    sender's retransmissions and the receiving port's drops for want of
#    a posted buffer (rx_nobuf_drops) or of ring space
#    (rx_ring_full_drops);
#  - TCP_RR: sockperf TCP ping-pong as fast as it goes, request and
#    response of each size in RR_SIZES bytes (Fig. 5.13b: equal sizes);
#    round trips per second.
# Printed: a table, and each row's ratio to the largest ring of the same
# queue count.
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/tcp_rings.sh
# Environment: RINGS (128 256 1024), QUEUES_LIST (1 2), SECS (4),
# RR_SIZES (1024 4096 65000), MODEL (privring).

set -u
RINGS=${RINGS:-128 256 1024}
QUEUES_LIST=${QUEUES_LIST:-1 2}
SECS=${SECS:-4}
RR_SIZES=${RR_SIZES:-1024 4096 65000}
MODEL=${MODEL:-privring}
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
RXB_TMP=$(mktemp -d /tmp/tcp-rings.XXXXXX)
NS0=rxtr-a-$$
NS1=rxtr-b-$$
trap rxb_cleanup EXIT
SP_PORT=11111

for t in iperf3 sockperf ethtool; do
	command -v $t >/dev/null || { echo "tcp_rings.sh: $t not found" >&2; exit 1; }
done

# setup QUEUES RING
setup() {
	rxb_kill_bg
	for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
	rxb_load queues="$1" rx_ring_size="$2" ring_model="$MODEL" ||
		{ echo "cannot load rxbisect queues=$1 rx_ring_size=$2" >&2; exit 1; }
	rxb_setup_netns || { echo "cannot set up the namespaces" >&2; exit 1; }
}

# drops: rxb1's receive drops (no buffer + ring full), all queues.
drops() {
	rxb_snap rxb1 && echo $((${RXB_S[rx_nobuf_drops]:-0} + ${RXB_S[rx_ring_full_drops]:-0}))
}

# stream: prints "Gbit/s retransmits drops".
stream() {
	local d0 d1
	d0=$(drops)
	rxb_iperf "$RXB_TMP/tcp.json" "$SECS" >/dev/null 2>&1
	d1=$(drops)
	rxb_iperf_parse "$RXB_TMP/tcp.json"
	if [ -n "$IPERF_ERR" ]; then
		echo "- - $((d1 - d0))"
	else
		echo "$IPERF_GBPS $IPERF_RETR $((d1 - d0))"
	fi
}

# rr SIZE: sockperf TCP ping-pong of SIZE-byte messages; round trips/s.
rr() {
	local out=$RXB_TMP/rr.txt pid
	ip netns exec "$NS1" timeout $((SECS + 30)) sockperf sr --tcp -i "$RXB_IP1" \
		-p $SP_PORT >/dev/null 2>&1 &
	pid=$!
	rxb_wait_listen "$NS1" $SP_PORT
	ip netns exec "$NS0" timeout $((SECS + 20)) sockperf pp --tcp -i "$RXB_IP1" \
		-p $SP_PORT -m "$1" -t "$SECS" --mps=max >"$out" 2>&1
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	sed -n 's/.*RunTime=\([0-9.]*\).*ReceivedMessages=\([0-9]*\).*/\1 \2/p' "$out" |
		head -n 1 | awk '$1 > 0 { printf "%.0f\n", $2 / $1; ok = 1 }
				 END { if (!ok) print "-" }'
}

declare -A R=()
for q in $QUEUES_LIST; do
	for ring in $RINGS; do
		setup "$q" "$ring"
		read -r R[$q.$ring.gbps] R[$q.$ring.retr] R[$q.$ring.drops] < <(stream)
		for sz in $RR_SIZES; do
			R[$q.$ring.rr$sz]=$(rr "$sz")
		done
	done
done
rxb_kill_bg

echo "Kernel TCP over $MODEL: ${SECS} s per run, iperf3 (one stream) and sockperf TCP ping-pong"
echo "(ratios: to the largest ring of the same queue count)"
echo
hdr="| queues | ring | stream Gbit/s | retransmits | rx drops |"
sep="|---|---|---|---|---|"
for sz in $RR_SIZES; do
	hdr+=" RR $sz B /s |"
	sep+="---|"
done
echo "$hdr"
echo "$sep"
for q in $QUEUES_LIST; do
	big=${RINGS##* }
	for ring in $RINGS; do
		row="| $q | $ring | ${R[$q.$ring.gbps]} ($(bench_ratio "${R[$q.$ring.gbps]}" "${R[$q.$big.gbps]}"))"
		row+=" | ${R[$q.$ring.retr]} | ${R[$q.$ring.drops]} |"
		for sz in $RR_SIZES; do
			row+=" ${R[$q.$ring.rr$sz]} ($(bench_ratio "${R[$q.$ring.rr$sz]}" "${R[$q.$big.rr$sz]}")) |"
		done
		echo "$row"
	done
done
echo
echo "Thesis §5.3: TCP_RR, equal sizes: about equal at 1 KiB, the small ring 5 % worse at 4 KiB"
echo "(Fig. 5.13b), up to 10 % better with 64 KiB requests (Fig. 5.13a); TCP_STREAM: small"
echo "rings are fine on 8 cores, a single ring below 1 Ki drops and TCP backs off (Fig. 5.14)."
