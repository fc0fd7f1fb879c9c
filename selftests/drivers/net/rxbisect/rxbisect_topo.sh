#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxBisect's association and linking as the paper allows (rxbisect paper
# sections 4.1-4.2): ax_link (fewer Ax rings than queues, linked to queues
# RSS does not feed, whose NAPI only refills), ax_assoc_map (any,
# overlapping, association sets) and ax_policy=random, set through modprobe,
# /sys/module and devlink; bad values are refused with a message and change
# nothing; traffic passes in every configuration.

source "$(dirname "$0")/lib.sh"

rxb_init devlink ethtool python3 ping
ktap_set_plan 9

DL=rxbisect/rxbisect0
PARAMS=/sys/module/rxbisect/parameters
N=200	# datagrams per flow


# flows_to Q...: $N datagrams on each of two flows per queue Q to rxb1;
# 0 if rxb1's NIC wrote them all and the stack consumed every one.
flows_to() {
	local q ports='' hw0 hw
	for q in "$@"; do
		ports="$ports $(rxb_ports_for "$q" 2)" || return 1
	done
	hw0=$(rxb_qsum rxb1 hw_packets)
	# shellcheck disable=SC2086
	rxb_udp_flows "$NS0" "$RXB_IP1" $N $ports || return 1
	rxb_wait_consumed rxb1 || return 1
	hw=$(rxb_qsum rxb1 hw_packets)
	[ $((hw - hw0)) -ge $((N * 2 * $#)) ] ||
		{ ktap_print_msg "rxb1 wrote $((hw - hw0)) of $((N * 2 * $#))"; return 1; }
}

# 1: modprobe: one Ax ring, linked to queue 3
if rxb_load ring_model=rxbisect queues=4 rx_ring_size=512 ax_ring_size=512 \
	ax_link=3 ax_policy=random; then
	loaded=1
else
	loaded=0
fi
ktap_test_result "modprobe ax_link=3 ax_policy=random: one Ax ring, read back" \
	eval '[ $loaded = 1 ] && [ "$(cat $PARAMS/ax_link)" = 3 ] &&
	      [ "$(rxb_dl_get ax_link)" = 3 ] && [ "$(rxb_dl_get ax_policy)" = random ] &&
	      [ "$(cat $PARAMS/ax_assoc_map)" = default ]'
[ $loaded = 1 ] || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 2: RSS feeds queues 0-2; queue 3 only refills the Ax ring
rxb_in rxb1 ethtool -X rxb1 weight 1 1 1 0 >/dev/null ||
	rxb_bail "cannot set the RSS table"
rxb_snap rxb1
pk3=${RXB_S[rx3_hw_packets]}
ok=0
flows_to 0 1 2 && ok=1
rxb_snap rxb1
ktap_print_msg "ax_link=3: rx3_lent ${RXB_S[rx3_lent]}, borrowed ${RXB_S[rx0_borrowed]} ${RXB_S[rx1_borrowed]} ${RXB_S[rx2_borrowed]}, rx3 notif ${RXB_S[rx3_notif_entries]}, rx3 +$((RXB_S[rx3_hw_packets] - pk3)) packets"
ktap_test_result "ax_link=3: queues 0-2 receive into queue 3's Ax ring, queue 3 refills it" \
	eval '[ $ok = 1 ] && [ "${RXB_S[rx3_hw_packets]}" = "$pk3" ] &&
	      [ "${RXB_S[rx0_borrowed]}" -ge $((N * 2)) ] &&
	      [ "${RXB_S[rx1_borrowed]}" -ge $((N * 2)) ] &&
	      [ "${RXB_S[rx2_borrowed]}" -ge $((N * 2)) ] &&
	      [ "${RXB_S[rx3_lent]}" -ge $((N * 6)) ] &&
	      rxb_ping_ok "$NS0" "$RXB_IP1" 3'

# 3: devlink: two Ax rings on queues 2 and 3, Bx 0 borrows from Ax 0 only,
# Bx 1 from Ax 1 only, Bx 2 and 3 from both (overlapping sets)
rxb_in rxb1 ethtool -X rxb1 weight 1 1 0 0 >/dev/null
ok=1
rxb_dl_set ax_policy rr || ok=0
rxb_dl_set ax_link 2-3 || ok=0
rxb_dl_set ax_assoc_map "0;1;0-1;0-1" || ok=0
ktap_test_result "devlink ax_link 2-3, ax_assoc_map 0;1;0-1;0-1 applied" \
	eval '[ $ok = 1 ] && [ "$(rxb_dl_get ax_link)" = 2-3 ] &&
	      [ "$(rxb_dl_get ax_assoc_map)" = "0;1;0-1;0-1" ] &&
	      [ "$(cat $PARAMS/ax_assoc_map)" = default ]'

# 4: traffic to queues 0 and 1: queue 0's in queue 2's buffers, queue 1's
# in queue 3's
ok=0
flows_to 0 1 && ok=1
rxb_snap rxb1
ktap_print_msg "rx2_lent ${RXB_S[rx2_lent]}, rx3_lent ${RXB_S[rx3_lent]}, borrowed ${RXB_S[rx0_borrowed]} ${RXB_S[rx1_borrowed]}"
ktap_test_result "each queue borrows from its own set only" \
	eval '[ $ok = 1 ] && [ "${RXB_S[rx2_lent]}" = "${RXB_S[rx0_borrowed]}" ] &&
	      [ "${RXB_S[rx3_lent]}" = "${RXB_S[rx1_borrowed]}" ] &&
	      [ "${RXB_S[rx0_borrowed]}" -ge $((N * 2)) ] &&
	      [ "${RXB_S[rx1_borrowed]}" -ge $((N * 2)) ]'

# 5: bad values through devlink: refused with a message, nothing changes
bad=0
for v in 4 9 0,0 x 1-0 "0;1" "2-3," 0123456789012345678901234567890123; do
	rxb_dl_check_bad ax_link "$v"
done
for v in 2 "0;1;0;1;0" + a "0;" "*,"; do
	rxb_dl_check_bad ax_assoc_map "$v"
done
rxb_dl_check_bad ax_policy sideways
# the message names the actual fault
out=$(rxb_dl_set ax_link 4 2>&1)
[[ $out == *"not below the queue count"* ]] ||
	{ ktap_print_msg "ax_link 4: '$out'"; bad=1; }
out=$(rxb_dl_set ax_assoc_map 2 2>&1)
[[ $out == *"no such Ax ring"* ]] ||
	{ ktap_print_msg "ax_assoc_map 2: '$out'"; bad=1; }
ktap_test_result "bad ax_link / ax_assoc_map values refused with a message, nothing changed" \
	[ $bad = 0 ]

# 6: bad values through /sys/module and modprobe
bad=0
for v in 0,0 bogus; do
	if echo "$v" > $PARAMS/ax_link 2>/dev/null; then
		ktap_print_msg "/sys/module ax_link '$v' was accepted"
		bad=1
	fi
done
[ "$(cat $PARAMS/ax_link)" = 3 ] || { ktap_print_msg "ax_link changed"; bad=1; }
[ "$(rxb_dl_get ax_link)" = 2-3 ] || { ktap_print_msg "rxbisect0 changed"; bad=1; }
ktap_test_result "bad module parameter writes refused, nothing changed" [ $bad = 0 ]

# 7: a queue count that leaves an Ax ring without its queue is refused
ch=$(rxb_channels rxb1)
out=$(rxb_in rxb1 ethtool -L rxb1 combined 2 2>&1)
ktap_print_msg "ethtool -L combined 2 with ax_link 2-3: $out"
ktap_test_result "ethtool -L refused while ax_link names queue 3" \
	eval '[ -n "$out" ] && [ "$(rxb_channels rxb1)" = "$ch" ]'

# 8: back to the defaults through devlink: every queue has its Ax ring again
rxb_in rxb1 ethtool -X rxb1 default >/dev/null
ok=1
rxb_dl_set ax_assoc_map default || ok=0
rxb_dl_set ax_link default || ok=0
rxb_snap rxb1
b0=$(rxb_s_qsum borrowed)
flows_to 0 1 2 3 || ok=0
rxb_snap rxb1
ktap_test_result "ax_link and ax_assoc_map back to default: traffic on all queues, no borrowing" \
	eval '[ $ok = 1 ] && [ "$(rxb_dl_get ax_link)" = default ] &&
	      [ "$(rxb_s_qsum borrowed)" = "$b0" ] && rxb_ping_ok "$NS0" "$RXB_IP1" 3'

# 9: modprobe refuses a bad value
out=$(rxb_load ring_model=rxbisect queues=4 ax_link=0,0 2>&1)
ret=$?
ktap_print_msg "modprobe ax_link=0,0: $ret $out"
ktap_test_result "modprobe ax_link=0,0 fails" eval '[ $ret != 0 ] && ! rxb_is_loaded'

ktap_finished
