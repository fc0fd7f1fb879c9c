#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the shRing selftests (source after lib.sh).

SHR_MODELS="shring shring-list shring-batched dshring"

# shr_traffic MODEL: the traffic test of one shRing model (8 results): TCP
# and UDP, every queue receives, numbered datagrams arrive exactly once and
# in order within each flow, every frame sent reaches the NIC and every
# frame written is handed to the stack exactly once, and the shared ring's
# counters add up (every reposted descriptor handed back to the NIC once
# idle).  Two queues share one 256-entry Rx ring.
SHR_TRAFFIC_RESULTS=8
shr_traffic() {
	local model=$1 start=$KTAP_CNT base p0 fw rc ok q ports d b r l v t f
	if ! rxb_load queues=2 share_factor=2 rx_ring_size=256 ring_model=$model ||
	   ! rxb_setup_netns; then
		ktap_print_msg "$model: cannot load the module or set up the namespaces"
		while [ $KTAP_CNT -lt $((start + SHR_TRAFFIC_RESULTS)) ]; do
			ktap_test_fail "$model: not run"
		done
		return
	fi
	base=$(rxb_balance rxb0 rxb1)
	p0=$(rxb_qvals rxb1 packets)

	fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: //p')
	ktap_test_result "$model: ethtool -i reports the model ($fw)" [ "$fw" = "emulated $model" ]

	rxb_iperf "$RXB_TMP/tcp.json" 2 -P 4
	ktap_test_result "$model: iperf3 TCP, 4 streams" \
		rxb_iperf_check "$RXB_TMP/tcp.json" $? "$model TCP"
	rxb_iperf "$RXB_TMP/udp.json" 2 -u -b 10M -l 1400
	rc=$?
	rxb_iperf_parse "$RXB_TMP/udp.json"
	rxb_snap rxb1
	ktap_print_msg "$model UDP: $IPERF_PKTS datagrams, $IPERF_LOST lost; rxb1 drops: nobuf ${RXB_S[rx_nobuf_drops]} ring_full ${RXB_S[rx_ring_full_drops]} stopped ${RXB_S[rx_stopped_drops]}; rxb0 nobuf $(rxb_stat rxb0 rx_nobuf_drops)"
	# Under TCG the guest's stack (socket buffers) loses a share too, so
	# this only checks that UDP flows; the NIC's drops are in the
	# diagnostic above, and the exactly-once accounting is checked below.
	ktap_test_result "$model: iperf3 UDP 10 Mbit/s, most datagrams received" \
		[ $rc = 0 -a "${IPERF_PKTS:-0}" -gt 0 -a $((IPERF_LOST * 2)) -lt "${IPERF_PKTS:-0}" ]

	# numbered datagrams over 8 flows (both queues)
	sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null
	rxb_udp_seq_counted "$RXB_TMP/seq.json" 6000 8 3000
	nic=$RXB_SEQ_NIC sk=$RXB_SEQ_SOCK u=$RXB_SEQ_UNIQ
	ktap_print_msg "$model numbered UDP: sent $RXB_UDP_SENT, unique $u, duplicates $(rxb_jget "$RXB_TMP/seq.json" dup), NIC drops $nic, socket drops $sk; $(rxb_jget "$RXB_TMP/seq.json" flows) flows, reordered within a flow $(rxb_jget "$RXB_TMP/seq.json" flow_ooo), across flows $(rxb_jget "$RXB_TMP/seq.json" ooo)"
	ktap_test_result "$model: numbered UDP, 8 flows: exactly once, in order within each flow" \
		[ "${RXB_UDP_SENT:-0}" -gt 0 -a "$(rxb_jget "$RXB_TMP/seq.json" dup)" = 0 -a \
		  "$(rxb_jget "$RXB_TMP/seq.json" flow_ooo)" = 0 -a \
		  "$(rxb_jget "$RXB_TMP/seq.json" flows)" = 8 -a \
		  $((${u:-0} + nic + sk)) = "${RXB_UDP_SENT:-0}" ]

	# flows that RSS puts on each queue
	ok=1
	for q in 0 1; do
		ports=$(rxb_ports_for $q 2) || ok=0
		rxb_udp_flows "$NS0" "$RXB_IP1" 100 $ports
	done
	rxb_wait_consumed rxb1 >/dev/null
	d=$(rxb_vsub "$(rxb_qvals rxb1 packets)" "$p0")
	ktap_print_msg "$model: rx packets by queue during the test: $d"
	ktap_test_result "$model: both queues received (>= 200 each)" \
		eval '[ $ok = 1 ] && for v in $d; do [ $v -ge 200 ] || exit 1; done'

	b=$(rxb_wait_balance rxb0 rxb1 "$base")
	ktap_test_result "$model: every frame sent reached the NIC (balance $b, was $base)" \
		[ "$b" = "$base" ]
	ktap_test_result "$model: every frame written was consumed exactly once" \
		rxb_wait_consumed rxb1

	rxb_snap rxb1
	r=${RXB_S[ring0_reposts]:-x}
	l=${RXB_S[ring0_tail_advance_len]:-y}
	case $model in
	shring)
		ktap_print_msg "$model: reposts $r, tail moved $l, held back ${RXB_S[ring0_held_back]}, lock ${RXB_S[ring0_lock_acquired]} (contended ${RXB_S[ring0_lock_contended]}), bitmap atomics ${RXB_S[ring0_bitmap_atomics]}, posted ${RXB_S[ring0_posted]}"
		ktap_test_result "$model: reposts + 256 = tail advance, 256 posted" \
			[ "$((r + 256))" = "$l" -a "${RXB_S[ring0_posted]}" = 256 -a "$r" -gt 0 ] ;;
	shring-list)
		ktap_print_msg "$model: reposts $r, appended $l, out of order ${RXB_S[ring0_out_of_order]}, posted ${RXB_S[ring0_posted]}"
		ktap_test_result "$model: reposts + 256 = appended, 255 posted" \
			[ "$((r + 256))" = "$l" -a "${RXB_S[ring0_posted]}" = 255 -a "$r" -gt 0 ] ;;
	shring-batched)
		# The NIC's idle timer closed the queues' current descriptors
		# (100 us without a packet): every descriptor taken is re-armed.
		# Every packet went up as a page_pool fragment, with no copy.
		rxb_sleep 0.2
		rxb_snap rxb1
		r=${RXB_S[ring0_reposts]:-x}
		l=${RXB_S[ring0_tail_advance_len]:-y}
		t=${RXB_S[ring0_desc_taken]:-0}
		f=${RXB_S[ring0_frag_refs]:-0}
		ktap_print_msg "$model: reposts $r, appended $l, descriptors taken $t for $(rxb_s_qsum hw_packets) packets, idle closes ${RXB_S[ring0_idle_closes]}, fragments $f for $(rxb_s_qsum packets) packets, lock ${RXB_S[ring0_lock_acquired]}, out of order ${RXB_S[ring0_out_of_order]}, posted ${RXB_S[ring0_posted]}"
		ktap_test_result "$model: reposts + 256 = appended, 255 posted, idle descriptors closed, every packet a fragment" \
			[ "$((r + 256))" = "$l" -a "${RXB_S[ring0_posted]}" = 255 -a "$r" = "$t" -a \
			  "${RXB_S[ring0_idle_closes]:-0}" -gt 0 -a "$f" = "$(rxb_s_qsum packets)" -a "$f" -gt 0 ] ;;
	dshring)
		ktap_print_msg "$model: shared ${RXB_S[dsh_shared]}, switches ${RXB_S[dsh_switches]}, samples ${RXB_S[dsh_samples]}, high tput ${RXB_S[dsh_tput_high]}, high pressure ${RXB_S[dsh_pressure_high]}"
		ktap_test_result "$model: the controller sampled the traffic" \
			[ "${RXB_S[dsh_samples]:-0}" -gt 10 ] ;;
	esac
}

# shr_xstat IF NAME: a counter from ethtool -S (empty if there is none).
shr_xstat() { rxb_stat "$1" "$2"; }
