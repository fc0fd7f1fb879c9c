#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debugfs knobs on a live queue: "stall" stops the queue's consumer, so
# its ring fills and the NIC drops for lack of buffers; clearing it delivers
# the backlog and traffic again.  "work" slows the consumer down.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 12

RING=256
rxb_load queues=2 rx_ring_size=$RING || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
# keep the rx_stall health watchdog from un-stalling the queue under test
rxb_stall_timeout 600000 || ktap_print_msg "cannot raise stall_timeout_ms"

# 1: everything to queue 0
if rxb_in rxb1 ethtool -X rxb1 weight 1 0; then
	t=$(rxb_indir rxb1)
	ktap_test_result "ethtool -X rxb1 weight 1 0: every entry is queue 0" \
		[ "$t" = "$(printf '0 %.0s' $(seq 127))0" ]
else
	ktap_test_fail "ethtool -X rxb1 weight 1 0: every entry is queue 0"
fi

# 2
rxb_knob_set rxb1 0 stall 1
ktap_test_result "stall q0: knob reads 1" [ "$(rxb_knob rxb1 0 stall)" = 1 ]

# 3, 4, 5: UDP for about 2 s while stalled
rxb_snap rxb1
pk0=${RXB_S[rx0_packets]}; hw0=${RXB_S[rx0_hw_packets]}
nb0=${RXB_S[rx0_nobuf_drops]}; rf0=${RXB_S[rx0_ring_full_drops]}
q1hw0=${RXB_S[rx1_hw_packets]}
sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" 3000 32 1500)
rxb_snap rxb1
pk=$((RXB_S[rx0_packets] - pk0)); hw=$((RXB_S[rx0_hw_packets] - hw0))
nb=$((RXB_S[rx0_nobuf_drops] - nb0)); rf=$((RXB_S[rx0_ring_full_drops] - rf0))
q1hw=$((RXB_S[rx1_hw_packets] - q1hw0))
ktap_print_msg "stalled: sent $sent; rx0: hw_packets +$hw nobuf_drops +$nb ring_full_drops +$rf packets +$pk; rx1 hw_packets +$q1hw"
ktap_test_result "stalled q0: rx0_nobuf_drops grows" [ "$nb" -gt 0 ]
# at most one NAPI budget (64) can have been in flight when the knob was set
ktap_test_result "stalled q0: rx0_packets does not grow (<= 64), ring holds <= $RING" \
	[ "$pk" -le 64 -a "$hw" -le $((RING + 64)) ]
ktap_test_result "stalled q0: every datagram written or dropped (hw + drops = sent)" \
	[ $((hw + nb + rf)) = "$sent" -a "$q1hw" = 0 ]

# 6
got=$(rxb_ping "$NS0" "$RXB_IP1" 2 -W 1)
ktap_test_result "stalled q0: ping gets no reply" [ "$got" = 0 ]

# 7, 8
pk0=$(rxb_stat rxb1 rx0_packets)
rxb_knob_set rxb1 0 stall 0
ktap_test_result "unstall q0: knob reads 0, ping works again" \
	eval '[ "$(rxb_knob rxb1 0 stall)" = 0 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 5'
rxb_wait_consumed rxb1
rc=$?
d=$(($(rxb_stat rxb1 rx0_packets) - pk0))
ktap_print_msg "after unstall: rx0_packets +$d"
ktap_test_result "unstall q0: the backlog is delivered (rx0_packets grows, all consumed)" \
	[ $rc = 0 -a "$d" -ge 5 ]

# 9, 10, 11: work knob
rxb_knob_set rxb1 0 work 2000
ktap_test_result "work q0 = 2000: knob reads 2000" [ "$(rxb_knob rxb1 0 work)" = 2000 ]
rxb_iperf "$RXB_TMP/tcp.json" 3
ktap_test_result "work q0 = 2000: iperf3 TCP still flows" \
	rxb_iperf_check "$RXB_TMP/tcp.json" $? "TCP into q0 with work=2000"
rxb_knob_set rxb1 0 work 0
ktap_test_result "work q0 = 0: knob reads 0, ping works" \
	eval '[ "$(rxb_knob rxb1 0 work)" = 0 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 5'

# 12: a stalled queue with a full ring does not block unloading
rxb_knob_set rxb1 0 stall 1
rxb_udp_blast "$NS0" "$RXB_IP1" 600 8 >/dev/null
hw=$(rxb_stat rxb1 rx0_hw_packets); pk=$(rxb_stat rxb1 rx0_packets)
ktap_print_msg "stalled again: rx0 hw_packets $hw, packets $pk"
start=$SECONDS
rxb_unload
rc=$?
ktap_print_msg "unload took $((SECONDS - start)) s"
ktap_test_result "unload with a stalled queue holding frames" \
	[ $rc = 0 -a -z "$(rxb_all_ports)" ]

ktap_finished
