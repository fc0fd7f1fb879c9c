#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntuple steering (ethtool -N/-n) on every ring model: a UDP flow steered
# to a queue RSS would not pick lands there (per-queue counters), and so does
# one steered into an RSS context (ethtool -X context new) whose table is
# that queue only (rss.sh tests the contexts themselves), a drop
# rule discards and counts, rules are listed and deleted by location, and
# bad rules (queue that does not exist, unsupported flow type or field,
# location out of range, full table) are refused with a message while the
# port keeps forwarding.

source "$(dirname "$0")/lib.sh"

rxb_init ethtool python3
NQ=4
rxb_load queues=$NQ || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
NM=$(wc -w <<<"$MODELS")
ktap_set_plan $((NM + 6))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

e1() { rxb_in rxb1 ethtool "$@"; }

# The queue RSS picks for 40001 -> 9, and another one for the rule.
key=$(rxb_hkey rxb1)
indir=$(rxb_indir rxb1)
RSSQ=$(rxb_toeplitz_queue "$key" "$indir" "$RXB_IP0" "$RXB_IP1" 40001 9)
Q=$(((RSSQ + 1) % NQ))
ktap_print_msg "flow 40001->9: RSS queue $RSSQ, steered to queue $Q"
e1 -N rxb1 flow-type udp4 src-ip "$RXB_IP0" dst-ip "$RXB_IP1" src-port 40001 \
	dst-port 9 action $Q loc 5 || ktap_print_msg "ethtool -N refused the rule"
# Flow 40003 into RSS context C, whose table is queue CQ only (neither Q nor
# the queue RSS picks for it).
RSSQ3=$(rxb_toeplitz_queue "$key" "$indir" "$RXB_IP0" "$RXB_IP1" 40003 9)
for CQ in 0 1 2 3; do [ $CQ != $Q ] && [ $CQ != "$RSSQ3" ] && break; done
w=(0 0 0 0)
w[CQ]=1
out=$(e1 -X rxb1 context new weight "${w[@]}" 2>&1)
C=${out##* }
ktap_print_msg "flow 40003->9: RSS queue $RSSQ3, steered to context '$C' (queue $CQ): $out"
e1 -N rxb1 flow-type udp4 src-ip "$RXB_IP0" dst-ip "$RXB_IP1" src-port 40003 \
	dst-port 9 context "$C" loc 6 || ktap_print_msg "ethtool -N refused the context rule"

# steer_ok DESC: 20 datagrams of flow 40001 all counted on queue $Q.
want_vec() {
	local i o=()
	for ((i = 0; i < NQ; i++)); do o+=($([ $i = "$1" ] && echo "$2" || echo 0)); done
	echo "${o[*]}"
}
steer_ok() {
	local before sb got st i want
	want=$(want_vec $Q 20)
	[ -n "${2:-}" ] && want=$(rxb_vsub "$want" "$(want_vec "$CQ" -20)")
	rxb_snap rxb1
	before=$(rxb_s_qvals hw_packets)
	sb=$(rxb_s_qvals ntuple_steered)
	rxb_udp_flows "$NS0" "$RXB_IP1" 20 40001 ${2:+40003}
	for i in {1..50}; do
		rxb_snap rxb1
		got=$(rxb_vsub "$(rxb_s_qvals hw_packets)" "$before")
		[ "$got" = "$want" ] && break
		rxb_sleep 0.1
	done
	st=$(rxb_vsub "$(rxb_s_qvals ntuple_steered)" "$sb")
	ktap_print_msg "$1: per-queue frames $got, steered $st"
	ktap_test_result "$1" [ "$got" = "$want" -a "$st" = "$want" ]
}

# 1..NM: every model, the rule kept across switches
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_test_fail "$m: cannot switch to it"; continue; }
	rxb_wait_carrier rxb1
	steer_ok "$m: udp4 flow steered to queue $Q, over RSS's $RSSQ; another into RSS context $C (queue $CQ)" ctx
done
e1 -N rxb1 delete 6
e1 -X rxb1 context "$C" delete || ktap_print_msg "cannot delete context $C"

echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_wait_carrier rxb1

# NM+1: drop action
e1 -N rxb1 flow-type udp4 dst-ip "$RXB_IP1" src-port 40002 dst-port 9 action -1 loc 7
rxb_snap rxb1
d0=${RXB_S[rx_ntuple_drops]:-x} h0=$(rxb_s_qsum hw_packets)
rxb_udp_flows "$NS0" "$RXB_IP1" 20 40002
for i in {1..10}; do
	rxb_snap rxb1
	d1=${RXB_S[rx_ntuple_drops]:-y} h1=$(rxb_s_qsum hw_packets)
	[ $((d1 - d0)) -ge 20 ] && break
	rxb_sleep 0.1
done
ktap_print_msg "drop rule: rx_ntuple_drops +$((d1 - d0)), frames delivered +$((h1 - h0))"
ktap_test_result "action -1 drops the flow and counts it in rx_ntuple_drops" \
	[ $((d1 - d0)) = 20 -a $((h1 - h0)) = 0 ]

# NM+2: listing, the other flow types, delete
ok=1
e1 -N rxb1 flow-type tcp4 src-ip 10.9.9.9 m 0.0.0.255 dst-port 80 action 1 loc 9 || ok=0
e1 -N rxb1 flow-type udp6 dst-ip 2001:db8::1 dst-port 4789 action 2 loc 10 || ok=0
e1 -N rxb1 flow-type tcp6 src-ip 2001:db8::2 src-port 443 action 3 loc 11 || ok=0
out=$(e1 -n rxb1)
cnt=$(grep -c "^Filter:" <<<"$out")
grep -q "Total 5 rules" <<<"$out" || ok=0
[ "$cnt" = 5 ] || ok=0
grep -A8 "^Filter: 10" <<<"$out" | grep -q "Rule Type: UDP over IPv6" || ok=0
grep -A12 "^Filter: 7" <<<"$out" | grep -q "Action: Drop" || ok=0
# each field and mask reads back as given (ethtool prints the masks of
# ignored bits and clears those bits of the value before it sends it)
has() {
	local rule

	rule=$(grep -A8 "^Filter: $1\$" <<<"$out")
	grep -qF "$2" <<<"$rule" ||
		{ ktap_print_msg "rule $1 lists no '$2': $rule"; ok=0; }
}
has 9 "Src IP addr: 10.9.9.0 mask: 0.0.0.255"
has 9 "Dest port: 80 mask: 0x0"
has 9 "Src port: 0 mask: 0xffff"
has 10 "Dest IP addr: 2001:db8::1 mask: ::"
has 10 "Dest port: 4789 mask: 0x0"
has 11 "Src IP addr: 2001:db8::2 mask: ::"
has 11 "Src port: 443 mask: 0x0"
has 11 "Rule Type: TCP over IPv6"
e1 -N rxb1 delete 9 && e1 -N rxb1 delete 10 && e1 -N rxb1 delete 11 || ok=0
[ "$(e1 -n rxb1 | grep -c '^Filter:')" = 2 ] || ok=0
ktap_print_msg "$(head -n 12 <<<"$out")"
ktap_test_result "ethtool -n lists tcp4/udp4/tcp6/udp6 rules; delete by location" [ $ok = 1 ]

# NM+3: bad input refused with a message, nothing changes
ok=1
# rules: the rule locations, from one ethtool -n (bash parses)
rules() {
	local k v o=()
	while read -r k v; do
		[ "$k" = Filter: ] && o+=("$v")
	done < <(e1 -n rxb1)
	echo "${o[*]}"
}
refused() {
	local b a out mark
	b=$(rules)
	mark=$(rxb_kmsg_mark "ntuple.sh: $*")
	# ethtool (6.1) exits 0 when the driver refuses an insertion: its
	# "Cannot insert" on stderr tells.
	if out=$("$@" 2>&1) && [[ $out != *Cannot* ]]; then
		ktap_print_msg "$*: accepted"
		ok=0
	fi
	a=$(rules)
	msg=$(rxb_kmsg_since "$mark" | grep -m1 -F "ethtool -N")
	if [ -z "$msg" ] && [ "${CORE_REFUSES:-0}" = 1 ]; then
		msg="ethtool -N: refused by the kernel's ethtool core, before the driver ($out)"
	fi
	[ -n "$msg" ] || { ktap_print_msg "$*: no message ($out)"; ok=0; }
	[ "$a" = "$b" ] || { ktap_print_msg "$*: rules '$b' -> '$a'"; ok=0; }
	ktap_print_msg "$*: ${msg#*: }"
}
refused e1 -N rxb1 flow-type udp4 src-port 1 action $NQ
refused e1 -N rxb1 flow-type udp4 src-port 1 action 1 loc 128
refused e1 -N rxb1 flow-type ether dst 00:11:22:33:44:55 action 1
refused e1 -N rxb1 flow-type ip4 dst-ip 1.2.3.4 action 1
refused e1 -N rxb1 flow-type udp4 src-port 1 tos 4 action 1
refused e1 -N rxb1 flow-type tcp6 src-port 1 tclass 4 action 1
refused e1 -N rxb1 flow-type udp4 src-port 1 vlan 5 action 1
# a rule for an RSS context that does not exist: 6.12 leaves it to the
# driver, later kernels' core refuses it first (7.2's ethtool_set_rxnfc()
# looks the context up), without a message
CORE_REFUSES=0
rxb_kver_ge 6.13 && CORE_REFUSES=1
refused e1 -N rxb1 flow-type udp4 src-port 1 context 9
CORE_REFUSES=0
refused e1 -N rxb1 delete 3
refused e1 -N rxb1 delete 500
ktap_test_result "bad rules refused with a message, the table unchanged" [ $ok = 1 ]

# NM+4: still steering and forwarding after all that
steer_ok "after bad input: still steering to queue $Q"

# NM+5: delete the rule: RSS decides again
e1 -N rxb1 delete 5
before=$(rxb_qvals rxb1 hw_packets)
rxb_udp_flows "$NS0" "$RXB_IP1" 20 40001
for i in {1..10}; do
	got=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$before")
	[ "$got" = "$(want_vec $RSSQ 20)" ] && break
	rxb_sleep 0.1
done
ktap_print_msg "rule deleted: per-queue frames $got (RSS queue $RSSQ)"
ktap_test_result "without the rule the flow goes where RSS sends it" \
	[ "$got" = "$(want_vec $RSSQ 20)" ]

# NM+6: full table (one rule left, at 7); ethtool (6.1) exits 0 when the
# driver refuses an insertion, its "Cannot insert" on stderr tells.
mark=$(rxb_kmsg_mark "ntuple.sh: full table")
added=$(rxb_in rxb1 bash -c 'for i in {1..130}; do
	out=$(ethtool -N rxb1 flow-type udp4 src-port $((50000 + i)) action 0 2>&1) &&
		[[ $out != *Cannot* ]] || break
	echo
done | wc -l')
total=$(e1 -n rxb1 | grep -c '^Filter:')
msg=$(rxb_kmsg_since "$mark" | grep -m1 "full")
ktap_print_msg "added $added rules before a refusal; $total in the table; ${msg#*: }"
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || msg=
ktap_test_result "a full table (128 rules) refuses the next rule with a message" \
	[ "$total" = 128 -a "$added" = 127 -a -n "$msg" ]

ktap_finished
