#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The COREC ring model (COREC paper section 3.4): two queues consume one
# shared receive queue.  Numbered UDP datagrams arrive exactly once (order
# may differ: COREC's trade-off, reported); each consumer polls on its own
# CPU and drains the shared queue alone while the other is stalled (how
# the claims split when both run is printed: it is the scheduler's); TCP
# works (retransmissions reported); the consumer count and
# interrupt policy change under traffic; invalid consumer counts are
# refused with the configuration kept.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 13

P=/sys/module/rxbisect/parameters

rxb_load queues=2 ring_model=corec rx_ring_size=256 ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

udp_run() {
	rxb_udp_seq "$@"
	UDP_SENT=$RXB_UDP_SENT
}
jget() { rxb_jget "$@"; }

# 1
fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: //p')
rxb_snap rxb1
ktap_test_result "ethtool -i reports corec ($fw), one shared queue of 2 consumers" \
	[ "$fw" = "emulated corec" -a "${RXB_S[ring0_consumers]:-}" = 2 -a \
	  -z "${RXB_S[ring1_consumers]:-}" ]

# 2, 3, 4: 8000 numbered datagrams over 16 flows, both RSS queues
sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null
rxb_snap rxb1
b0=$(rxb_s_qvals corec_batches)
off0=$(rxb_s_qsum polls_off_cpu)
nic0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
hw0=$(rxb_s_qvals hw_packets)
rcvbuf0=$(rxb_udp_rcvbuf_errs)
udp_run "$RXB_TMP/udp.json" 8000 16 4000
sent=$UDP_SENT
rxb_snap rxb1
rcvbuf=$(($(rxb_udp_rcvbuf_errs) - rcvbuf0))
nic=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - nic0))
uniq=$(jget "$RXB_TMP/udp.json" unique)
dup=$(jget "$RXB_TMP/udp.json" dup)
ktap_print_msg "UDP: sent $sent, received $(jget "$RXB_TMP/udp.json" received): unique $uniq, duplicates $dup;" \
	"NIC drops $nic, socket buffer drops $rcvbuf; out of order $(jget "$RXB_TMP/udp.json" ooo)" \
	"($(jget "$RXB_TMP/udp.json" ooo_pct) %), max distance $(jget "$RXB_TMP/udp.json" max_dist)"
ktap_print_msg "hw_packets by RSS queue: $(rxb_vsub "$(rxb_s_qvals hw_packets)" "$hw0")"
ktap_test_result "UDP: every datagram delivered exactly once (unique + drops = sent, no duplicate)" \
	[ "${sent:-0}" -gt 0 -a "${dup:-x}" = 0 -a \
	  $((${uniq:-0} + nic + rcvbuf)) = "${sent:-0}" -a $((nic + rcvbuf)) -lt $((sent / 20)) ]
d=$(rxb_vsub "$(rxb_s_qvals corec_batches)" "$b0")
# How the claims split depends on how the two vCPUs were scheduled (one
# can take them all on a loaded TCG host): printed, and each consumer's
# ability to claim both queues' frames checked by stalling the other.
ktap_print_msg "batches claimed by consumer: $d; packets: $(rxb_s_qvals packets)"

# stalled_other STALLED TAKER: with consumer STALLED stopped, TAKER
# claims every frame of both RSS queues and none is dropped (privRing
# would drop what RSS sends to the stalled queue).
stalled_other() {
	local stalled=$1 taker=$2 p0 hw0 nb0 sent d hw nb v ok=1 q=0

	rxb_knob_set rxb1 "$stalled" stall 1
	rxb_snap rxb1
	p0=$(rxb_s_qvals packets)
	hw0=$(rxb_s_qsum hw_packets)
	nb0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
	sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" 1000 16 1000)
	rxb_wait_consumed rxb1
	rxb_snap rxb1
	d=$(rxb_vsub "$(rxb_s_qvals packets)" "$p0")
	hw=$(($(rxb_s_qsum hw_packets) - hw0))
	nb=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - nb0))
	rxb_knob_set rxb1 "$stalled" stall 0
	ktap_print_msg "consumer $stalled stalled: sent $sent, NIC wrote $hw, dropped $nb; packets by consumer: $d"
	for v in $d; do
		if [ $q = "$taker" ]; then
			[ "$v" = "$hw" ] || ok=0
		else
			[ "$v" = 0 ] || ok=0
		fi
		q=$((q + 1))
	done
	[ $ok = 1 ] && [ $q = 2 ] && [ "$hw" = "${sent:-x}" ] && [ "$nb" = 0 ]
}

# 3: each consumer claims the shared queue's frames (the other stalled)
rxb_stall_timeout 600000	# the watchdog must not resume a stalled one
ktap_test_result "consumer 0 stalled: consumer 1 takes every frame of both RSS queues" \
	stalled_other 0 1
off=$(($(rxb_s_qsum polls_off_cpu) - off0))
ktap_test_result "every poll ran on its consumer's CPU (polls_off_cpu +$off)" [ "$off" = 0 ]

# 5
ktap_test_result "every frame written was consumed exactly once" rxb_wait_consumed rxb1

# 6: a stalled consumer does not stop the shared queue: the other drains it
ktap_test_result "consumer 1 stalled: consumer 0 takes every frame of both RSS queues" \
	stalled_other 1 0

# 7: TCP
rxb_iperf "$RXB_TMP/tcp.json" 2 -P 2
rc=$?
ktap_test_result "iperf3 TCP, 2 streams" rxb_iperf_check "$RXB_TMP/tcp.json" $rc "TCP over corec"
ktap_print_msg "TCP: retransmissions $IPERF_RETR"
rxb_snap rxb1
ktap_print_msg "tail: advances ${RXB_S[ring0_tail_advances]}, held ${RXB_S[ring0_tail_held]}" \
	"(${RXB_S[ring0_tail_held_ns]} ns, max ${RXB_S[ring0_tail_held_max_ns]} ns);" \
	"CAS failures $(rxb_s_qvals corec_cas_fails), trylock failures $(rxb_s_qvals corec_trylock_fails)"

# 8, 9: consumer count and policy changed under traffic
rxb_iperf_start "$RXB_TMP/live.json" 8 || rxb_bail "iperf3 did not start"
rxb_wait_rx rxb1 200 5	# the stream flows
ok=1
for v in 1 2 0; do
	echo $v > $P/corec_consumers || ok=0
	rxb_sleep 0.5
	n=$(rxb_stat rxb1 ring0_consumers)
	[ "$(cat $P/corec_consumers)" = $v ] || ok=0
	[ "$n" = "$([ $v = 1 ] && echo 1 || echo 2)" ] || ok=0
	ktap_print_msg "corec_consumers $v: ring0_consumers $n, ring1_consumers $(rxb_stat rxb1 ring1_consumers)"
done
ktap_test_result "under traffic: corec_consumers 1, 2, 0 applied" [ $ok = 1 ]
ok=1
[ "$(cat $P/corec_irq_policy)" = all ] || ok=0
echo rr > $P/corec_irq_policy && rxb_sleep 0.5 && echo all > $P/corec_irq_policy || ok=0
wait "$RXB_IPERF_PID"
rc=$?
ktap_test_result "under traffic: corec_irq_policy all (default), rr, all; the TCP stream survived" \
	eval '[ $ok = 1 ] && rxb_iperf_check "$RXB_TMP/live.json" $rc "TCP under changes"'

# 10, 11: invalid values refused, configuration kept
mark=$(rxb_kmsg_mark "corec.sh: invalid corec_consumers")
bad=0
for v in 3 33 -1 abc ""; do
	if echo "$v" > $P/corec_consumers 2>/dev/null; then
		ktap_print_msg "corec_consumers '$v' was accepted"
		bad=1
	fi
done
ktap_test_result "invalid corec_consumers (3 > 2 queues, 33, -1, abc, empty) refused, value kept" \
	[ $bad = 0 -a "$(cat $P/corec_consumers)" = 0 -a "$(rxb_stat rxb1 ring0_consumers)" = 2 ]
ktap_test_result "the refusal says why in dmesg" \
	eval 'rxb_kmsg_since "$mark" | grep -q "corec_consumers exceeds the number of queues"'

# 12
bad=0
for v in none 2 ""; do
	echo "$v" > $P/corec_irq_policy 2>/dev/null && bad=1
done
ktap_test_result "invalid corec_irq_policy refused, value kept" \
	[ $bad = 0 -a "$(cat $P/corec_irq_policy)" = all ]

# 13
ktap_test_result "ping after all changes" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
