#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The two defining properties of rxBisect (rxbisect paper section 4.3),
# made deterministic with the debugfs stall knob:
#
#  Fig. 6d: one queue's consumer stalls.  Once its Bx ring is full, only its
#  own packets drop (bx-full); the other queues, loaded below what they can
#  process, keep receiving without a single drop.  privring behaves the
#  same (its rings are private).
#
#  Fig. 12: a single-flow burst of |Bx| packets to one queue whose own Ax
#  ring holds only |Bx|/k buffers is absorbed by borrowing the other
#  queues' Ax buffers; privring with an Rx ring of |Ax| entries drops.

source "$(dirname "$0")/lib.sh"

rxb_init python3
ktap_set_plan 9

BX=256
Q=4

# stall_case MODEL: check Fig. 6d on MODEL; queue 1 stalls, queue 0 does not.
stall_case() {
	local model=$1 p0 p1 nb0 rf0 pk0 nb1 rf1 hw1 d_nb0 d_rf0 d_pk0 d_drop1

	# k * |Ax| = |Bx|, as section 4.5 asks
	rxb_load queues=2 ring_model="$model" rx_ring_size=$BX \
		ax_ring_size=$((BX / 2)) || return 1
	rxb_setup_netns || return 1
	p0=$(rxb_ports_for 0 4) && p1=$(rxb_ports_for 1 4) || return 1
	# The rx_stall watchdog must not resume the queue (slow kernels).
	rxb_stall_timeout 600000
	rxb_knob_set rxb1 1 stall 1 || return 1
	# Phase 1: the stalled queue's flows fill its ring and then drop.
	rxb_udp_flows "$NS0" "$RXB_IP1" $((BX / 2)) $p1 || return 1
	# Phase 2: both queues' flows, interleaved, at a rate queue 0 keeps up
	# with (about 800 packets/s each): it is the stalled queue's packets,
	# not load, that must not hurt it.
	rxb_snap rxb1
	nb0=${RXB_S[rx0_nobuf_drops]}; rf0=${RXB_S[rx0_ring_full_drops]}
	pk0=${RXB_S[rx0_hw_packets]}
	nb1=${RXB_S[rx1_nobuf_drops]}; rf1=${RXB_S[rx1_ring_full_drops]}
	hw1=${RXB_S[rx1_hw_packets]}
	ip netns exec "$NS0" timeout 60 python3 - "$RXB_IP1" $p0 -- $p1 <<-'PY' || return 1
		import socket, sys, time
		dst = sys.argv[1]
		cut = sys.argv.index("--")
		a = [int(p) for p in sys.argv[2:cut]]
		b = [int(p) for p in sys.argv[cut + 1:]]
		socks = []
		for sp in a + b:
		    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
		    s.bind(("", sp))
		    socks.append(s)
		for i in range(200):
		    for s in socks:
		        s.sendto(b"rxbisect", (dst, 9))
		    time.sleep(0.005)
	PY
	rxb_wait_consumed rxb1 >/dev/null
	rxb_snap rxb1
	d_nb0=$((RXB_S[rx0_nobuf_drops] - nb0))
	d_rf0=$((RXB_S[rx0_ring_full_drops] - rf0))
	d_pk0=$((RXB_S[rx0_hw_packets] - pk0))
	d_drop1=$((RXB_S[rx1_nobuf_drops] - nb1 + RXB_S[rx1_ring_full_drops] - rf1))
	ktap_print_msg "$model, q1 stalled: q0 got +$d_pk0 (nobuf +$d_nb0, ring_full +$d_rf0); q1 dropped +$d_drop1, wrote +$((RXB_S[rx1_hw_packets] - hw1))"
	[ "$model" = rxbisect ] &&
		ktap_print_msg "rxbisect: rx0_lent ${RXB_S[rx0_lent]}, rx1_borrowed ${RXB_S[rx1_borrowed]}"
	rxb_knob_set rxb1 1 stall 0
	# 4 flows x 200 datagrams reached q0, none lost; q1 lost its own.
	[ "$d_pk0" = 800 ] && [ "$d_nb0" = 0 ] && [ "$d_rf0" = 0 ] &&
		[ "$d_drop1" -gt 0 ]
}

# burst_case MODEL RING AX: a burst of $BX packets of one flow to stalled
# queue 0; prints "written dropped".
burst_case() {
	local model=$1 ring=$2 ax=$3 sp hw nb rf

	rxb_load queues=$Q ring_model="$model" rx_ring_size="$ring" \
		ax_ring_size="$ax" || return 1
	rxb_setup_netns || return 1
	sp=$(rxb_ports_for 0 1) || return 1
	rxb_stall_timeout 600000
	rxb_knob_set rxb1 0 stall 1 || return 1
	rxb_snap rxb1
	hw=${RXB_S[rx0_hw_packets]}; nb=${RXB_S[rx0_nobuf_drops]}
	rf=${RXB_S[rx0_ring_full_drops]}
	rxb_udp_flows "$NS0" "$RXB_IP1" $BX "$sp" || return 1
	rxb_snap rxb1
	echo "$((RXB_S[rx0_hw_packets] - hw)) $((RXB_S[rx0_nobuf_drops] - nb + RXB_S[rx0_ring_full_drops] - rf)) ${RXB_S[rx0_borrowed]:-0}"
	rxb_knob_set rxb1 0 stall 0
}

# 1, 2: Fig. 6d
ktap_test_result "rxbisect: a stalled queue drops only its own packets (Fig. 6d)" \
	stall_case rxbisect
ktap_test_result "privring: a stalled queue drops only its own packets" \
	stall_case privring

# 3, 4: after unstalling, the backlog drains and traffic flows
rxb_knob_set rxb1 1 stall 0 2>/dev/null
ktap_test_result "privring: unstalled queue drains, every written frame consumed" \
	rxb_wait_consumed rxb1
ktap_test_result "privring: ping after unstall" rxb_ping_ok "$NS0" "$RXB_IP1" 5

# 5, 6, 7: Fig. 12 with k = 4 queues, |Ax| = |Bx| / k
read -r w d b < <(burst_case rxbisect $BX $((BX / Q)))
ktap_print_msg "rxbisect |Bx|=$BX |Ax|=$((BX / Q)) k=$Q: burst of $BX: written $w, dropped $d, borrowed $b"
ktap_test_result "rxbisect absorbs a |Bx| burst to one queue with |Ax| = |Bx|/k (Fig. 12)" \
	[ "${w:-0}" = $BX -a "${d:-1}" = 0 ]
ktap_test_result "rxbisect: the burst borrowed other queues' Ax buffers" \
	[ "${b:-0}" -ge $((BX - BX / Q)) ]
ktap_test_result "rxbisect: the burst is delivered after unstall" \
	eval 'rxb_wait_consumed rxb1 && rxb_ping_ok "$NS0" "$RXB_IP1" 3'

# 8, 9: privring with an Rx ring of |Ax| entries
read -r w d b < <(burst_case privring $((BX / Q)) 64)
ktap_print_msg "privring |Rx|=$((BX / Q)): burst of $BX: written $w, dropped $d"
ktap_test_result "privring with |Rx| = |Ax| drops the same burst" \
	[ "${w:-0}" = $((BX / Q)) -a "${d:-0}" = $((BX - BX / Q)) ]
ktap_test_result "privring: the part written is delivered after unstall" \
	rxb_wait_consumed rxb1

ktap_finished
