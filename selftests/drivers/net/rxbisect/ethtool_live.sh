#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ring, channel and RSS changes, and a link down/up, on a port that is
# receiving a TCP stream: every change succeeds, the stream survives, and
# the port reports the last settings.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 21

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# default_indir N: the default table for N queues (entry i -> i mod N).
default_indir() {
	local i o=()
	for ((i = 0; i < 128; i++)); do o+=($((i % $1))); done
	echo "${o[*]}"
}

# live IF ETHTOOL-ARGS...: one change under traffic, then a short pause.
live() {
	local ifc=$1 out rc
	shift
	out=$(rxb_in "$ifc" ethtool "$@" 2>&1)
	rc=$?
	[ -n "$out" ] && ktap_print_msg "$out"
	ktap_test_result "under traffic: ethtool $*" [ $rc = 0 ]
	rxb_sleep 0.2
}

base01=$(rxb_balance rxb0 rxb1)
base10=$(rxb_balance rxb1 rxb0)
bytes0=$(rxb_stat rxb1 rx_bytes)

# 1
rxb_iperf_start "$RXB_TMP/tcp.json" 12
ktap_test_result "iperf3 TCP 12 s started" [ $? = 0 ]
# wait until the stream is flowing
rxb_wait_rx rxb1 1001 5

# 2..10
live rxb1 -G rxb1 rx 256
live rxb1 -G rxb1 rx 4096
live rxb1 -G rxb1 rx 1024
live rxb0 -G rxb0 rx 512
live rxb1 -L rxb1 combined 1
live rxb1 -L rxb1 combined 2
live rxb1 -X rxb1 equal 2
live rxb1 -L rxb1 combined 4
live rxb0 -L rxb0 combined 3

# 11
if rxb_ip rxb1 link set rxb1 down && rxb_sleep 0.2 && rxb_ip rxb1 link set rxb1 up &&
   rxb_wait_carrier rxb1; then
	rxb_static_neigh rxb0 rxb1
	ktap_test_pass "under traffic: ip link set rxb1 down, up"
else
	ktap_test_fail "under traffic: ip link set rxb1 down, up"
fi

# 12
wait "$RXB_IPERF_PID"
ktap_test_result "iperf3 TCP completes across all the changes" \
	rxb_iperf_check "$RXB_TMP/tcp.json" $? "TCP rxb0->rxb1 under reconfiguration"

# 13
ktap_test_result "ping rxb0 -> rxb1 afterwards" rxb_ping_ok "$NS0" "$RXB_IP1" 10

# 14: no frame unaccounted for across ring rebuilds and the link toggle
b01=$(rxb_wait_balance rxb0 rxb1 "$base01")
b10=$(rxb_wait_balance rxb1 rxb0 "$base10")
ktap_print_msg "balance tx - (hw_packets + drops): rxb0->rxb1 $b01 (before $base01), rxb1->rxb0 $b10 (before $base10)"
ktap_test_result "conservation holds across the changes (tx = hw_packets + drops)" \
	[ "$b01" = "$base01" -a "$b10" = "$base10" ]

rxb_snap rxb1
ktap_print_msg "rxb1: sum(rxN_hw_packets) - rx_packets = $(($(rxb_s_qsum hw_packets) - RXB_S[rx_packets]))" \
	"(frames written to rings that were torn down before being polled)"

# 15: counters of torn-down rings are kept
rb=$(($(rxb_stat rxb1 rx_bytes) - bytes0))
ktap_print_msg "rxb1 rx_bytes +$rb, iperf3 received $IPERF_BYTES bytes of payload"
ktap_test_result "rxb1 rx_bytes grew by at least the TCP payload received" \
	[ "$rb" -ge "${IPERF_BYTES:-1}" -a "${IPERF_BYTES:-0}" -gt 0 ]

# 16
r1=$(rxb_ring rxb1 RX); c1=$(rxb_channels rxb1)
r0=$(rxb_ring rxb0 RX); c0=$(rxb_channels rxb0)
ktap_print_msg "rxb1: RX ring $r1, combined $c1; rxb0: RX ring $r0, combined $c0"
ktap_test_result "ethtool -g/-l report the last values" \
	[ "$r1" = 1024 -a "$c1" = 4 -a "$r0" = 512 -a "$c0" = 3 ]

# 17
t=$(rxb_indir rxb1)
ktap_test_result "the user-set table (equal 2) survives -L combined 4" \
	[ "$t" = "$(default_indir 2)" ]

# 18
q1=$(ls "$RXB_DBG/rxb1" 2>/dev/null | grep "^q" | xargs)
q0=$(ls "$RXB_DBG/rxb0" 2>/dev/null | grep "^q" | xargs)
ktap_print_msg "debugfs: rxb1 $q1; rxb0 $q0"
ktap_test_result "debugfs has one q<N> directory per queue in use" \
	[ "$q1" = "q0 q1 q2 q3" -a "$q0" = "q0 q1 q2" ]

# 19: all 4 queues of rxb1 take traffic after the changes
rxb_in rxb1 ethtool -X rxb1 default >/dev/null 2>&1
before=$(rxb_qvals rxb1 hw_packets)
rxb_udp_blast "$NS0" "$RXB_IP1" 400 64 >/dev/null
rxb_wait_consumed rxb1 >/dev/null
d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$before")
ktap_print_msg "rxb1 per-queue frames after -X default: $d"
ok=1
for v in $d; do [ "$v" -gt 0 ] || ok=0; done
ktap_test_result "ethtool -X default: the 4 queues of rxb1 receive" \
	[ $ok = 1 -a "$(wc -w <<<"$d")" = 4 ]

# 20, 21: changes while the port is down apply when it comes up
ok=1
rxb_ip rxb1 link set rxb1 down || ok=0
rxb_in rxb1 ethtool -G rxb1 rx 128 || ok=0
rxb_in rxb1 ethtool -L rxb1 combined 2 || ok=0
rxb_ip rxb1 link set rxb1 up || ok=0
rxb_wait_carrier rxb1 || ok=0
rxb_static_neigh rxb0 rxb1
r1=$(rxb_ring rxb1 RX); c1=$(rxb_channels rxb1)
q1=$(ls "$RXB_DBG/rxb1" 2>/dev/null | grep "^q" | xargs)
ktap_print_msg "after down, -G rx 128, -L 2, up: RX ring $r1, combined $c1, debugfs $q1"
ktap_test_result "ethtool -G/-L while down: accepted and reported" \
	[ $ok = 1 -a "$r1" = 128 -a "$c1" = 2 -a "$q1" = "q0 q1" ]
before=$(rxb_qvals rxb1 hw_packets)
rxb_udp_blast "$NS0" "$RXB_IP1" 500 64 >/dev/null
d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$before")
ktap_print_msg "per-queue frames: $d"
ktap_test_result "after up: ping works and both queues receive" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 && [ "$(wc -w <<<"$d")" = 2 ] &&
	      [ "${d% *}" -gt 0 ] && [ "${d#* }" -gt 0 ]'

ktap_finished
