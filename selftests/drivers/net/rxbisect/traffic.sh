#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traffic across rxb0 <-> rxb1 (in two namespaces): ping, iperf3 TCP and UDP,
# and the conservation of frames: everything one port transmitted reached
# the other port's NIC (written to a buffer or counted as a drop), and every
# frame written to a buffer was handed to the stack exactly once.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 11

rxb_load || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# Balances before the measured phase (frames sent before the other end was
# up, if any, stay out of the comparison).
base01=$(rxb_balance rxb0 rxb1)
base10=$(rxb_balance rxb1 rxb0)
tx0=$(rxb_stat rxb0 tx_packets)
txd0=$(rxb_stat rxb0 tx_drops)
txd1=$(rxb_stat rxb1 tx_drops)
ktap_print_msg "balance before: rxb0->rxb1 $base01, rxb1->rxb0 $base10"

# 1
ktap_test_result "ping 20 packets rxb0 -> rxb1 without loss" \
	rxb_ping_ok "$NS0" "$RXB_IP1" 20

# 2
rxb_iperf "$RXB_TMP/tcp.json" 5
ktap_test_result "iperf3 TCP 5 s" rxb_iperf_check "$RXB_TMP/tcp.json" $? "TCP rxb0->rxb1"

# 3: reverse direction, rxb1 -> rxb0
rxb_iperf "$RXB_TMP/tcpr.json" 3 -R
ktap_test_result "iperf3 TCP 3 s reverse (-R)" rxb_iperf_check "$RXB_TMP/tcpr.json" $? "TCP rxb1->rxb0"

# 4: UDP at a moderate rate.  What counts is what reached the receiving
# host's UDP layer (delivered or dropped for lack of socket buffer space: a
# slow VM may not run iperf3 often enough), against what iperf3 sent.
snmp_udp() {	# NS: "InDatagrams RcvbufErrors"
	local l
	l=$(ip netns exec "$1" cat /proc/net/snmp | grep '^Udp: [0-9]')
	set -- $l
	echo "$2 $6"
}
rxb_snap rxb1
nd0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
read -r in0 rb0 <<<"$(snmp_udp "$NS1")"
rxb_iperf "$RXB_TMP/udp.json" 3 -u -b 10M
rc=$?
rxb_snap rxb1
read -r in1 rb1 <<<"$(snmp_udp "$NS1")"
rxb_iperf_check "$RXB_TMP/udp.json" $rc "UDP 10 Mbit/s"
pk=$IPERF_PKTS
lost=$IPERF_LOST
got=$((in1 - in0 + rb1 - rb0))
ktap_print_msg "UDP: iperf3 $pk datagrams, $lost lost; receiver UDP layer: $((in1 - in0)) delivered +" \
	"$((rb1 - rb0)) socket-buffer drops; NIC drops (nobuf + ring_full) $((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - nd0))"
ktap_test_result "iperf3 UDP 3 s: > 90 % of the datagrams reached the receiver" \
	eval '[ "$rc" = 0 ] && [ "${pk:--1}" -gt 0 ] && [ $((got * 10)) -gt $((pk * 9)) ]'

# 5
ktap_test_result "ping 20 packets rxb1 -> rxb0 without loss after the load" \
	rxb_ping_ok "$NS1" "$RXB_IP0" 20

# Traffic has stopped (iperf3 ended, ping ended).
# 6, 7
b=$(rxb_wait_balance rxb0 rxb1 "$base01")
rc=$?
sent=$(($(rxb_stat rxb0 tx_packets) - tx0))
ktap_print_msg "rxb0 sent $sent frames; balance tx - (hw_packets + drops) now $b (before $base01)"
ktap_test_result "rxb0 tx_packets delta = rxb1 sum(rxN_hw_packets) + drops delta" [ $rc = 0 ]
b=$(rxb_wait_balance rxb1 rxb0 "$base10")
ktap_test_result "rxb1 tx_packets delta = rxb0 sum(rxN_hw_packets) + drops delta" [ $? = 0 ]
[ "$b" = "$base10" ] || ktap_print_msg "rxb1->rxb0 balance now $b (before $base10)"

# 8, 9
ktap_test_result "rxb1: rx_packets = sum(rxN_hw_packets) once idle" rxb_wait_consumed rxb1
ktap_test_result "rxb0: rx_packets = sum(rxN_hw_packets) once idle" rxb_wait_consumed rxb0

# 10
ok=1
for p in rxb0 rxb1; do
	rxb_snap $p
	b=${RXB_S[rx_bytes]}
	hb=$(rxb_s_qsum hw_bytes)
	qb=$(rxb_s_qsum bytes)
	ktap_print_msg "$p: rx_packets ${RXB_S[rx_packets]} rx_bytes $b sum(hw_bytes) $hb" \
		"nobuf ${RXB_S[rx_nobuf_drops]} ring_full ${RXB_S[rx_ring_full_drops]}" \
		"polls ${RXB_S[rx_polls]} refills ${RXB_S[rx_refills]}"
	[ "$b" = "$hb" ] && [ "$b" = "$qb" ] || ok=0
done
ktap_test_result "rx_bytes = sum(rxN_hw_bytes) = sum(rxN_bytes) on both ports" [ $ok = 1 ]

# 11
d0=$(($(rxb_stat rxb0 tx_drops) - txd0))
d1=$(($(rxb_stat rxb1 tx_drops) - txd1))
ktap_print_msg "tx_drops during the test: rxb0 $d0, rxb1 $d1"
ktap_test_result "no tx_drops" [ "$d0" = 0 -a "$d1" = 0 ]

ktap_finished
