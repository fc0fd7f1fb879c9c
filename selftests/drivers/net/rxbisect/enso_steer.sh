#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ensō's steering to pipes through the NIC's flow table: a new flow is
# bound to a pipe of its queue (the least-loaded one, enso.c) and
# keeps it while its entry lives (the binding counters do not move on
# more traffic); an ntuple rule (ethtool -N ... action Q) picks the queue
# first: the flow moves to queue Q, is bound there once and stays;
# numbered datagrams of flows steered to one queue arrive exactly once
# and in order per flow; more pipes than the flow table holds are
# refused with a message and the device keeps forwarding.

source "$(dirname "$0")/lib.sh"

rxb_init ethtool python3 devlink
ktap_set_plan 6

rxb_load queues=2 ring_model=enso enso_pipes=4 enso_pipe_kb=32 \
	rx_ring_size=256 flow_idle_ms=600000 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null

e1() { rxb_in rxb1 ethtool "$@"; }
SPORTS="41001 41002 41003 41004 41005 41006 41007 41008"

# counters NAME: binds, moves and frames per queue into NAME_{b,m,h}.
counters() {
	rxb_snap rxb1
	eval "$1_b=(\$(rxb_s_qvals flow_binds)) $1_m=(\$(rxb_s_qvals flow_moves))"
	eval "$1_h=(\$(rxb_s_qvals hw_packets))"
}
sum() { local s=0 v; for v in "$@"; do s=$((s + v)); done; echo $s; }

# 1: eight flows, each bound once
counters a
rxb_udp_flows "$NS0" "$RXB_IP1" 20 $SPORTS
rxb_wait_consumed rxb1
counters b
binds=$(($(sum "${b_b[@]}") - $(sum "${a_b[@]}")))
moves=$(($(sum "${b_m[@]}") - $(sum "${a_m[@]}")))
ktap_print_msg "8 flows: $binds bindings (per queue ${b_b[*]}), $moves moves"
ktap_test_result "eight new UDP flows: one pipe binding each" \
	[ "$binds" = 8 -a "$moves" = 0 ]

# 2: the same flows again: they keep their pipes
rxb_udp_flows "$NS0" "$RXB_IP1" 20 $SPORTS
rxb_wait_consumed rxb1
counters c
binds=$(($(sum "${c_b[@]}") - $(sum "${b_b[@]}")))
frames=$(($(sum "${c_h[@]}") - $(sum "${b_h[@]}")))
ktap_print_msg "again: $frames frames, $binds new bindings"
ktap_test_result "the same flows again: $frames frames, no new binding (each stays on its pipe)" \
	[ "$binds" = 0 -a "$frames" -ge 160 ]

# 3: an ntuple rule moves flow 41001 to the other queue: bound there once
key=$(rxb_hkey rxb1)
indir=$(rxb_indir rxb1)
RSSQ=$(rxb_toeplitz_queue "$key" "$indir" "$RXB_IP0" "$RXB_IP1" 41001 9)
Q=$(((RSSQ + 1) % 2))
e1 -N rxb1 flow-type udp4 src-ip "$RXB_IP0" dst-ip "$RXB_IP1" src-port 41001 \
	dst-port 9 action $Q loc 3 || ktap_print_msg "ethtool -N refused the rule"
rxb_udp_flows "$NS0" "$RXB_IP1" 20 41001
rxb_udp_flows "$NS0" "$RXB_IP1" 20 41001
rxb_wait_consumed rxb1
counters d
ktap_print_msg "flow 41001: RSS queue $RSSQ, rule to $Q: frames +$((d_h[Q] - c_h[Q])) on queue $Q, +$((d_h[RSSQ] - c_h[RSSQ])) on $RSSQ; bindings +$((d_b[Q] - c_b[Q])), moves +$((d_m[Q] - c_m[Q])) on queue $Q"
ktap_test_result "ntuple rule: the flow goes to queue $Q, bound there once, and stays" \
	[ $((d_h[Q] - c_h[Q])) = 40 -a $((d_h[RSSQ] - c_h[RSSQ])) = 0 -a \
	  $((d_b[Q] - c_b[Q])) = 1 -a $((d_m[Q] - c_m[Q])) = 1 ]
e1 -N rxb1 delete 3

# 4: numbered datagrams over 8 flows, all steered to one queue by a rule
# on their destination port: exactly once, in order per flow
e1 -N rxb1 flow-type udp4 dst-ip "$RXB_IP1" dst-port $RXB_UDP_PORT action 1 loc 4
counters e
rxb_udp_seq "$RXB_TMP/seq.json" 6000 8 3000
counters f
uniq=$(rxb_jget "$RXB_TMP/seq.json" unique)
dup=$(rxb_jget "$RXB_TMP/seq.json" dup)
fooo=$(rxb_jget "$RXB_TMP/seq.json" flow_ooo)
ktap_print_msg "sent $RXB_UDP_SENT, unique $uniq, duplicates $dup, reordered within a flow $fooo; queue 1 frames +$((f_h[1] - e_h[1])), queue 0 +$((f_h[0] - e_h[0])); bindings on queue 1 +$((f_b[1] - e_b[1]))"
ktap_test_result "8 flows steered to queue 1 over its 4 pipes: exactly once, in order per flow" \
	[ "${RXB_UDP_SENT:-0}" -gt 0 -a "${dup:-x}" = 0 -a "${fooo:-x}" = 0 -a \
	  "${uniq:-0}" -ge $((RXB_UDP_SENT * 95 / 100)) -a \
	  $((f_h[1] - e_h[1])) -ge "${uniq:-1}" -a $((f_b[1] - e_b[1])) = 8 ]
e1 -N rxb1 delete 4

# 5: more pipes than the flow table holds: refused with a message
bad=0
rxb_dl_set flow_table_size 16 || { ktap_print_msg "flow_table_size 16 refused"; bad=1; }
rxb_dl_check_bad enso_pipes 16		# 2 queues x 16 pipes > 16 entries
out=$(rxb_dl_set enso_pipes 16 2>&1)
[[ $out == *"flow table"* ]] || { ktap_print_msg "message does not name the flow table: $out"; bad=1; }
rxb_dl_set enso_pipes 8 || { ktap_print_msg "8 pipes x 2 queues in 16 entries refused"; bad=1; }
rxb_dl_check_bad flow_table_size 8	# below the table's minimum
rxb_dl_set enso_pipes 4 && rxb_dl_set flow_table_size 4096 || bad=1
ktap_test_result "more pipes than the flow table holds refused with a message" [ $bad = 0 ]

# 6
ktap_test_result "the device still forwards, every frame consumed once" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 && rxb_wait_consumed rxb1'

ktap_finished
