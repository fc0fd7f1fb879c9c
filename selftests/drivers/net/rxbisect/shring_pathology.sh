#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# shRing's pathology (rxbisect paper Fig. 6c, thesis section 5.1.1): two
# queues share one Rx ring and queue 0's consumer stops.  Its packets fill
# the shared ring, and then queue 1, whose consumer keeps up, loses every
# packet for lack of buffers: victim drops.  RxList shares the same fate (a
# stopped consumer holds its descriptors whatever the ring's order).  With
# private rings (privring) queue 1 loses nothing.  Batched RxList puts the
# stopped queue's small packets dozens to a descriptor: its completion ring
# fills first, holding a few descriptors, and queue 1 loses nothing.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/shring_lib.sh"

rxb_init python3 ping
ktap_set_plan 12

P=/sys/module/rxbisect/parameters
RING=256

rxb_load queues=2 rx_ring_size=$RING share_factor=2 ring_model=shring ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
# The rx_stall watchdog would resume the stopped consumer after 2 s.
devlink dev param set rxbisect/rxbisect0 name stall_timeout_ms value 600000 \
	cmode runtime 2>/dev/null ||
	ktap_print_msg "cannot raise stall_timeout_ms: the watchdog may resume queue 0"
ports0=$(rxb_ports_for 0 4) && ports1=$(rxb_ports_for 1 4) ||
	rxb_bail "no UDP source ports found for both queues"
ktap_print_msg "source ports to queue 0: $ports0; to queue 1: $ports1"

for model in shring shring-list shring-batched privring; do
	if [ "$(cat $P/ring_model)" != $model ]; then
		echo $model > $P/ring_model || ktap_print_msg "cannot switch to $model"
	fi
	rxb_wait_consumed rxb1 >/dev/null
	rxb_knob_set rxb1 0 stall 1
	rxb_snap rxb1
	hw0=${RXB_S[rx0_hw_packets]} hw1=${RXB_S[rx1_hw_packets]}
	nb1=${RXB_S[rx1_nobuf_drops]} v1=${RXB_S[rx1_nobuf_victim_drops]:-0}
	f0=${RXB_S[rx0_ring_full_drops]} t0=${RXB_S[ring0_desc_taken]:-0}
	c0=${RXB_S[ring0_idle_closes]:-0}
	# 600 datagrams for the stopped queue, then 200 for the other one:
	# fewer than its private ring holds, so that a slow consumer (TCG on
	# a loaded host) cannot lose any on privring.
	rxb_udp_flows "$NS0" "$RXB_IP1" 150 $ports0
	rxb_udp_flows "$NS0" "$RXB_IP1" 50 $ports1
	rxb_sleep 0.5
	rxb_snap rxb1
	d0=$((RXB_S[rx0_hw_packets] - hw0)) d1=$((RXB_S[rx1_hw_packets] - hw1))
	n1=$((RXB_S[rx1_nobuf_drops] - nb1)) vv=$((${RXB_S[rx1_nobuf_victim_drops]:-0} - v1))
	ktap_print_msg "$model: queue 0 (stopped) took $d0 of 600; queue 1 took $d1 of 200, nobuf drops $n1, victim drops $vv"
	case $model in
	shring-batched)
		f=$((RXB_S[rx0_ring_full_drops] - f0)) t=$((${RXB_S[ring0_desc_taken]:-0} - t0))
		# An idle descriptor closed by the NIC's timer takes a completion
		# entry of its own (no packet) and a fresh descriptor: queue 0's
		# ring holds $RING entries, packets plus at most c such closes.
		c=$((${RXB_S[ring0_idle_closes]:-0} - c0))
		ktap_print_msg "$model: queue 0's completion ring full drops $f; descriptors taken $t for $((d0 + d1)) packets; idle closes $c"
		ktap_test_result "$model: queue 1 loses nothing (took 200)" \
			[ $d1 = 200 -a $n1 = 0 ]
		ktap_test_result "$model: queue 0 is held by its completion ring ($d0 + idle closes = $RING, in <= 16 descriptors + closes)" \
			[ $d0 -le $RING -a $d0 -ge $((RING - c)) -a $f = $((600 - d0)) -a $t -le $((16 + c)) ] ;;
	privring)
		ktap_test_result "$model: queue 1 loses nothing (took 200)" \
			[ $d1 = 200 -a $n1 = 0 ]
		ktap_test_result "$model: queue 0 holds its own ring ($d0 <= $RING)" \
			[ $d0 -le $RING -a $d0 -ge $((RING - 1)) ] ;;
	*)
		ktap_test_result "$model: queue 1 starves: >= 190 of 200 dropped, all victim drops" \
			[ $n1 -ge 190 -a $vv = $n1 -a $((d1 + n1)) = 200 ]
		ktap_test_result "$model: queue 0's packets hold the shared ring ($d0 of $RING)" \
			[ $d0 -ge $((RING - 1)) -a $d0 -le $RING ] ;;
	esac
	rxb_knob_set rxb1 0 stall 0
	ktap_test_result "$model: after the consumer resumes, everything is consumed" \
		rxb_wait_consumed rxb1
done

ktap_finished
