#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NIC's flow table: UDP flows learned on their first frame on every ring
# model, entries freed after flow_idle_ms without a frame, a full table
# learns no new flow (its frames are delivered untracked and counted), and
# flow_table_size is bounds-checked with a message.

source "$(dirname "$0")/lib.sh"

rxb_init ethtool python3 devlink
# The idle time, 2 s times RXB_TIMEOUT_SCALE: on the debug kernel a
# snapshot can come 2 s after the frames it looks for.
SC=${RXB_TIMEOUT_SCALE:-1}
IDLE_MS=$((2000 * SC))
rxb_load queues=2 flow_table_size=16 flow_idle_ms=$IDLE_MS ||
	rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
NM=$(wc -w <<<"$MODELS")
ktap_set_plan $((NM + 5))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

fstat() { rxb_stat rxb1 "$1"; }
# flows N FIRST_PORT [COUNT]: COUNT (2) datagrams from each of N source ports.
flows() { rxb_udp_flows "$NS0" "$RXB_IP1" "${3:-2}" $(seq "$2" $(($2 + $1 - 1))); }
# wait_idle: until every entry expired (idle IDLE_MS, sweep every 500
# ms; long enough for TCG's slow senders, loaded or not).
wait_idle() {
	local i
	for i in $(seq $((100 * SC))); do
		[ "$(fstat flow_active)" = 0 ] && return 0
		rxb_sleep 0.1
	done
	return 1
}

# snap_learned N: rxb1's snapshot, once flow_learned is N (at most 2 s:
# the frames are on their way) or later; no fixed pause, so that the
# snapshot comes well within the idle time.
snap_learned() {
	local i
	for i in {1..20}; do
		rxb_snap rxb1
		[ "${RXB_S[flow_learned]:-0}" -ge "$1" ] && return 0
		rxb_sleep 0.1
	done
}

# 1..NM: learning, on every model (the table restarts with each context)
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_test_fail "$m: cannot switch to it"; continue; }
	rxb_wait_carrier rxb1
	flows 3 41000 4
	snap_learned 3
	ktap_print_msg "$m: size ${RXB_S[flow_table_size]}, learned ${RXB_S[flow_learned]}, active ${RXB_S[flow_active]}"
	ktap_test_result "$m: 3 flows learned once each" \
		[ "${RXB_S[flow_learned]}" = 3 -a "${RXB_S[flow_active]}" = 3 -a \
		  "${RXB_S[flow_table_size]}" = 16 ]
done
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_wait_carrier rxb1

# NM+1: idle expiry
flows 3 41000 4
a=$(fstat flow_active)
wait_idle
rxb_snap rxb1
ktap_print_msg "3 flows, active $a; after idle: active ${RXB_S[flow_active]}, expired ${RXB_S[flow_expired]}"
ktap_test_result "idle entries freed by the NIC's sweep" \
	[ "$a" = 3 -a "${RXB_S[flow_active]}" = 0 -a "${RXB_S[flow_expired]}" = 3 ]

# NM+2: a flow that keeps sending (for twice the idle time) is not expired
rxb_udp_blast "$NS0" "$RXB_IP1" $((16 * SC)) 1 4 >/dev/null
rxb_snap rxb1
ktap_print_msg "one flow sending every 250 ms for $((4 * SC)) s: active ${RXB_S[flow_active]}, learned ${RXB_S[flow_learned]}, expired ${RXB_S[flow_expired]}"
ktap_test_result "an active flow keeps its entry" \
	[ "${RXB_S[flow_active]}" = 1 -a "${RXB_S[flow_learned]}" = 4 -a "${RXB_S[flow_expired]}" = 3 ]
wait_idle

# NM+3: full table: 20 flows, 16 entries
rxb_snap rxb1
u0=${RXB_S[flow_untracked_frames]} l0=${RXB_S[flow_learned]}
r0=$(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets)
flows 20 43000 2
for i in {1..20}; do
	rxb_snap rxb1
	r1=$(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets)
	[ $((RXB_S[flow_untracked_frames] - u0)) -ge 8 ] && [ $((r1 - r0)) -ge 40 ] && break
	rxb_sleep 0.1
done
ktap_print_msg "20 flows x 2: learned +$((RXB_S[flow_learned] - l0)), active ${RXB_S[flow_active]}, untracked frames +$((RXB_S[flow_untracked_frames] - u0)), delivered +$((r1 - r0))"
ktap_test_result "a full table learns no new flow, counts its frames, delivers them" \
	[ $((RXB_S[flow_learned] - l0)) = 16 -a "${RXB_S[flow_active]}" = 16 -a \
	  $((RXB_S[flow_untracked_frames] - u0)) = 8 -a $((r1 - r0)) = 40 ]

# NM+4: after expiry the table learns again (the snapshot once the NIC
# has learned them: a snapshot right after sending came before the frames
# under a loaded host's TCG)
wait_idle
rxb_snap rxb1
a0=${RXB_S[flow_active]} l0=${RXB_S[flow_learned]}
flows 2 44000 1
snap_learned $((l0 + 2))
ktap_print_msg "after the sweep: active $a0; 2 new flows: active ${RXB_S[flow_active]}, learned +$((RXB_S[flow_learned] - l0))"
ktap_test_result "after the idle sweep new flows are learned again" \
	[ "$a0" = 0 -a "${RXB_S[flow_active]}" = 2 -a $((RXB_S[flow_learned] - l0)) = 2 ]

# NM+5: bounds
ok=1
P=/sys/module/rxbisect/parameters
for v in 0 15 1048577 abc; do
	if echo "$v" > $P/flow_table_size 2>/dev/null; then
		ktap_print_msg "flow_table_size=$v accepted"
		ok=0
	fi
done
for v in 0 600001; do
	echo "$v" > $P/flow_idle_ms 2>/dev/null && { ktap_print_msg "flow_idle_ms=$v accepted"; ok=0; }
done
DL=rxbisect/rxbisect0
if [ -n "$DL" ]; then
	out=$(devlink dev param set "$DL" name flow_table_size value 8 cmode runtime 2>&1) &&
		{ ktap_print_msg "devlink flow_table_size 8 accepted"; ok=0; }
	ktap_print_msg "devlink flow_table_size 8: $out"
	[[ $out == *range* ]] || ok=0
fi
echo 64 > $P/flow_table_size || ok=0
rxb_wait_carrier rxb1
[ "$(fstat flow_table_size)" = 64 ] || ok=0
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "flow_table_size/flow_idle_ms out of range refused; 64 applies at once" [ $ok = 1 ]

ktap_finished
