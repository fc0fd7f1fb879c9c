#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No NIC section runs more than 64 frames with bottom halves disabled: the
# dedicated engine takes its ingress queue 64 frames at a time, and the end
# of an engine stall releases the frames held 64 at a time, in order.
# debugfs <port>/nic/max_bh_batch is the largest such section seen.

source "$(dirname "$0")/lib.sh"

rxb_init python3
ktap_set_plan 6

P=/sys/module/rxbisect/parameters
BH=$RXB_DBG/rxb1/nic/max_bh_batch
HELD=1000
last=$(rxb_online_cpus | tail -n1)

# 4096 buffers a queue: a stall's backlog (about 800 frames) fits the ring
# even when the host lets the engine's vCPU release it before the
# receiver's NAPI has refilled; with 1024, a loaded host saw nobuf drops
# (the driver not keeping up: counted, not the engine's doing), and the
# test is about the engine's sections, not about the ring's size.
rxb_load queues=2 rx_ring_size=4096 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
# the receiver's socket takes a released stall's backlog at once
sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null
[ -e "$BH" ] || rxb_bail "no $BH"
frame=$(rxb_mac rxb1 | tr -d :)$(rxb_mac rxb0 | tr -d :)88b5$(printf '%092d' 0)

# held_burst: stall rxb1's engine, put $HELD frames on its wire, resume;
# HB_IN: frames the NIC then saw, HB_MAX: max_bh_batch of the resume.
held_burst() {
	local in0 in i
	rxb_fault rxb1 engine_stall 1
	in0=$(rxb_rx_in rxb1)
	$RXB_PY - "$RXB_DBG/rxb1/inject" "$frame" $HELD <<-'PY'
	import os, sys
	fd = os.open(sys.argv[1], os.O_WRONLY)
	f = bytes.fromhex(sys.argv[2])
	for i in range(int(sys.argv[3])):
	    os.write(fd, f)
	os.close(fd)
	PY
	echo 0 > "$BH"
	rxb_fault rxb1 engine_stall 0
	for i in {1..100}; do
		in=$(rxb_rx_in rxb1)
		[ $((in - in0)) -ge $HELD ] && break
		rxb_sleep 0.1
	done
	HB_IN=$((in - in0))
	HB_MAX=$(cat "$BH")
}

# seq_stalls: numbered UDP (one flow) while the engine stalls and resumes
# three times once the datagrams flow; SQ: "lost reordered-in-flow",
# SQ_MAX: max_bh_batch, SQ_HELD: frames that arrived while stalled.
seq_stalls() {
	local tpid sf0 p0 fd0 nd0
	echo 0 > "$BH"
	rxb_snap rxb1
	sf0=${RXB_S[rx_stall_frames]}
	fd0=${RXB_S[rx_fifo_drops]}
	nd0=${RXB_S[rx_nobuf_drops]}
	p0=$(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets)
	(
		for i in {1..200}; do
			[ "$(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets)" -gt $((p0 + 100)) ] && break
			rxb_sleep 0.1
		done
		for i in 1 2 3; do
			rxb_fault rxb1 engine_stall 1
			rxb_sleep 0.3
			rxb_fault rxb1 engine_stall 0
			rxb_sleep 0.3
		done
	) &
	tpid=$!
	rxb_udp_seq "$RXB_TMP/seq.json" 6000 1 1500
	wait $tpid
	SQ="$(rxb_jget "$RXB_TMP/seq.json" lost) $(rxb_jget "$RXB_TMP/seq.json" flow_ooo)"
	SQ_MAX=$(cat "$BH")
	rxb_snap rxb1
	SQ_HELD=$((RXB_S[rx_stall_frames] - sf0))
	ktap_print_msg "$1: numbered UDP across 3 stalls: sent $RXB_UDP_SENT, received $(rxb_jget "$RXB_TMP/seq.json" received), lost reordered: $SQ; arrived while stalled $SQ_HELD; max_bh_batch $SQ_MAX; rx_fifo_drops +$((RXB_S[rx_fifo_drops] - fd0)), rx_nobuf_drops +$((RXB_S[rx_nobuf_drops] - nd0)), UDP rcvbuf errors $(ip netns exec "$NS1" nstat -az UdpRcvbufErrors | awk '/UdpRcvbufErrors/ { print $2 }')"
}

# 1, 2: inline engine
held_burst
ktap_print_msg "inline: $HELD frames held, $HB_IN reached the NIC after the stall, max_bh_batch $HB_MAX"
ktap_test_result "inline: $HELD held frames released 64 per BH-off section (max_bh_batch 64)" \
	[ "$HB_IN" = $HELD -a "$HB_MAX" = 64 ]
seq_stalls inline
ktap_test_result "inline: stalls under numbered UDP: none lost or reordered, max_bh_batch <= 64" \
	[ "$SQ" = "0 0" -a "$SQ_MAX" -le 64 -a "$SQ_HELD" -gt 0 ]

# 3, 4, 5: dedicated engine thread
echo cpu$last > $P/engine || rxb_bail "cannot start an engine thread"
held_burst
ktap_print_msg "engine thread: $HELD frames queued, $HB_IN reached the NIC after the stall, max_bh_batch $HB_MAX"
ktap_test_result "engine thread: $HELD queued frames run 64 per BH-off section (max_bh_batch 64)" \
	[ "$HB_IN" = $HELD -a "$HB_MAX" = 64 ]
echo 0 > "$BH"
e0=$(rxb_stat rxb1 engine_frames)
sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" 5000 8)
for i in {1..50}; do
	e1=$(rxb_stat rxb1 engine_frames)
	[ $((e1 - e0)) -ge "$sent" ] && break
	rxb_sleep 0.1
done
m=$(cat "$BH")
ktap_print_msg "engine thread: UDP burst of $sent: engine_frames +$((e1 - e0)), max_bh_batch $m"
ktap_test_result "engine thread: a UDP burst runs in sections of <= 64 frames" \
	[ "$m" -le 64 -a "$m" -gt 0 -a $((e1 - e0)) -ge "$sent" ]
seq_stalls "engine thread"
ktap_test_result "engine thread: stalls under numbered UDP: none lost or reordered, max_bh_batch <= 64" \
	[ "$SQ" = "0 0" -a "$SQ_MAX" -le 64 -a "$SQ_HELD" -gt 0 ]

# 6
echo inline > $P/engine
ktap_test_result "ping rxb0 -> rxb1 at the end" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
