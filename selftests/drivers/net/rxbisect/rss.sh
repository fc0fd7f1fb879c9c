#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RSS with 4 queues: flows spread over every queue, each queue's NAPI runs on
# its interrupt CPU, the NIC steers by Toeplitz(key) and the indirection
# table, and ethtool -x/-X read and change both.  Then the additional RSS
# contexts (ethtool -X rxb1 context new|N ...: create, own key, resize,
# delete) with an ntuple rule steering into one (ethtool -N ... context N),
# and the hash fields per flow type (ethtool -N/-n rx-flow-hash), each
# checked against where the NIC puts the frames of 8 UDP flows.  These
# reach the driver through interfaces that differ by kernel (compat.h):
# every kernel runs them, and context 0's cases before them.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 20

NQ=4
rxb_load queues=$NQ || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

mapfile -t CPUS < <(rxb_online_cpus)
ktap_print_msg "online CPUs: ${CPUS[*]}"

# default_indir N: the default table for N queues (entry i -> i mod N).
default_indir() {
	local i o=()
	for ((i = 0; i < 128; i++)); do o+=($((i % $1))); done
	echo "${o[*]}"
}

# Traffic to rxb1 from many flows: 1000 UDP datagrams from 64 source ports.
spray() { rxb_udp_blast "$NS0" "$RXB_IP1" "${1:-1000}" 64 >/dev/null; }

# steer_expect KEY INDIR [sd]: the per-queue frames the NIC should count
# for 3 datagrams on each of 8 flows (source ports 40001..40008 to port 9),
# hashing the 4-tuple, or the addresses only with "sd".
steer_expect() {
	local sp q want=() i n=3
	for i in $(seq 0 $((NQ - 1))); do want[i]=0; done
	for sp in {40001..40008}; do
		if [ "${3:-}" = sd ]; then
			q=$(rxb_toeplitz_queue "$1" "$2" "$RXB_IP0" "$RXB_IP1")
		else
			q=$(rxb_toeplitz_queue "$1" "$2" "$RXB_IP0" "$RXB_IP1" "$sp" 9)
		fi
		want[q]=$((want[q] + n))
	done
	echo "${want[*]}"
}

# steer_want DESC WANT: send the 8 flows of steer_expect and compare the
# per-queue rxN_hw_packets deltas of rxb1 with WANT.
steer_want() {
	local got before i
	before=$(rxb_qvals rxb1 hw_packets)
	rxb_udp_flows "$NS0" "$RXB_IP1" 3 {40001..40008}
	for i in {1..50}; do
		got=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$before")
		[ "$got" = "$2" ] && break
		rxb_sleep 0.1
	done
	ktap_print_msg "per-queue frames: expected (Toeplitz) $2, got $got"
	ktap_test_result "$1" [ "$got" = "$2" ]
}

# steer_check DESC [CTX [sd]]: steer_want with what Toeplitz and the table
# of RSS context CTX (default 0) say, read with ethtool -x.
steer_check() {
	local key indir
	key=$(rxb_hkey rxb1 "${2:-}")
	indir=$(rxb_indir rxb1 "${2:-}")
	if [ -z "$key" ] || [ "$(wc -w <<<"$indir")" != 128 ]; then
		ktap_print_msg "cannot read the key/table with ethtool -x"
		ktap_test_fail "$1"
		return
	fi
	steer_want "$1" "$(steer_expect "$key" "$indir" "${3:-}")"
}

# qset TABLE: the queues a table names, sorted, space separated.
qset() { tr ' ' '\n' <<<"$1" | sort -un | xargs; }

# The RSS of context 0.
base_cases() {
	# 1
	ktap_test_result "ethtool -l rxb1: combined $NQ" [ "$(rxb_channels rxb1)" = $NQ ]

	# 2
	ok=1
	for p in rxb0 rxb1; do
		for q in $(seq 0 $((NQ - 1))); do
			c=$(rxb_knob $p $q irq_cpu)
			w=${CPUS[q % ${#CPUS[@]}]}
			[ "$c" = "$w" ] || { ok=0; ktap_print_msg "$p q$q: irq_cpu $c, expected $w"; }
		done
	done
	ktap_test_result "debugfs irq_cpu of queue i = i-th online CPU (mod ${#CPUS[@]})" [ $ok = 1 ]

	# 3
	indir=$(rxb_indir rxb1)
	key=$(rxb_hkey rxb1)
	rxb_in rxb1 ethtool -x rxb1 2>&1 | head -n 3 | sed 's/^/# /'
	ktap_print_msg "key: $key"
	ktap_test_result "ethtool -x: 128-entry default table (i mod $NQ), 40-byte key" \
		eval '[ "$indir" = "$(default_indir $NQ)" ] && [ "$(tr ":" " " <<<"$key" | wc -w)" = 40 ]'

	# 4, 5, 6: many flows
	pk0=$(rxb_qvals rxb1 packets)
	rxb_iperf "$RXB_TMP/tcp.json" 3 -P 16
	rc=$?
	spray 2000
	d=$(rxb_vsub "$(rxb_qvals rxb1 packets)" "$pk0")
	ktap_print_msg "rxb1 per-queue rxN_packets deltas: $d"
	ktap_test_result "iperf3 TCP -P 16" rxb_iperf_check "$RXB_TMP/tcp.json" $rc "TCP -P 16"
	ok=1
	for v in $d; do [ "$v" -gt 0 ] || ok=0; done
	ktap_test_result "every receive queue of rxb1 got packets" [ $ok = 1 -a "$(wc -w <<<"$d")" = $NQ ]

	polls=$(rxb_qvals rxb1 polls)
	ok=1
	for v in $polls; do [ "$v" -gt 0 ] || ok=0; done
	off0=$(rxb_stat rxb0 rx_polls_off_cpu)
	off1=$(rxb_stat rxb1 rx_polls_off_cpu)
	ktap_print_msg "rxb1 rxN_polls: $polls; rx_polls_off_cpu: rxb0 $off0, rxb1 $off1"
	ktap_test_result "rxN_polls > 0 and rx_polls_off_cpu = 0 (NAPI on the irq CPU)" \
		[ $ok = 1 -a "$off0" = 0 -a "$off1" = 0 ]

	# 7
	steer_check "queue of each flow = indir[Toeplitz(default key) % 128]"

	# 8, 9
	MSKEY=6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa
	if rxb_in rxb1 ethtool -X rxb1 hkey $MSKEY; then
		ktap_test_result "ethtool -X hkey: new key accepted and read back" \
			[ "$(rxb_hkey rxb1)" = $MSKEY ]
	else
		ktap_test_fail "ethtool -X hkey: new key accepted and read back"
	fi
	steer_check "queue of each flow = indir[Toeplitz(new key) % 128]"

	# 10
	if rxb_in rxb1 ethtool -X rxb1 weight 0 1 0 0; then
		t=$(rxb_indir rxb1)
		hw0=$(rxb_qvals rxb1 hw_packets)
		pk0=$(rxb_qvals rxb1 packets)
		spray 1000
		rxb_ping_ok "$NS0" "$RXB_IP1" 5
		rxb_wait_consumed rxb1
		d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$hw0")
		dp=$(rxb_vsub "$(rxb_qvals rxb1 packets)" "$pk0")
		ktap_print_msg "weight 0 1 0 0: rxN_hw_packets deltas $d, rxN_packets deltas $dp"
		read -r a b c e <<<"$d"
		read -r pa pb pc pe <<<"$dp"
		ktap_test_result "ethtool -X weight 0 1 0 0: only queue 1 receives" \
			eval '[ "$t" = "$(default_indir 1 | sed "s/0/1/g")" ] && [ "$b" -gt 0 ] &&
			      [ "$a$c$e" = 000 ] && [ "$pb" = "$b" ] && [ "$pa$pc$pe" = 000 ]'
	else
		ktap_test_fail "ethtool -X weight 0 1 0 0: only queue 1 receives"
	fi

	# 11
	if rxb_in rxb1 ethtool -X rxb1 default; then
		t=$(rxb_indir rxb1)
		hw0=$(rxb_qvals rxb1 hw_packets)
		spray 1000
		d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$hw0")
		ktap_print_msg "default table again: rxN_hw_packets deltas $d"
		ok=1
		for v in $d; do [ "$v" -gt 0 ] || ok=0; done
		ktap_test_result "ethtool -X default: default table, every queue receives again" \
			[ $ok = 1 -a "$t" = "$(default_indir $NQ)" ]
	else
		ktap_test_fail "ethtool -X default: default table, every queue receives again"
	fi

	# 12: the pinned CPU is used after irq_cpu changes
	last=${CPUS[${#CPUS[@]} - 1]}
	if rxb_knob_set rxb1 0 irq_cpu "$last" && [ "$(rxb_knob rxb1 0 irq_cpu)" = "$last" ] &&
	   rxb_knob_set rxb1 0 irq_cpu -1; then
		w=${CPUS[0]}
		ktap_test_result "irq_cpu: set to CPU $last, read back; -1 restores CPU $w" \
			[ "$(rxb_knob rxb1 0 irq_cpu)" = "$w" ]
	else
		ktap_test_fail "irq_cpu: set to CPU $last, read back; -1 restores CPU ${CPUS[0]}"
	fi
}
# Every kernel runs context 0's cases too: the contexts' cases start from
# the state they leave (without them 6.12 refused context 1's key).
base_cases

# ---- RSS contexts -----------------------------------------------------------
e1() { rxb_in rxb1 ethtool "$@"; }

# 13: a new context on queues 2 and 3, with context 0's key (Debian 12's
# ethtool 6.1 has weight, not start)
out=$(e1 -X rxb1 context new weight 0 0 1 1 2>&1)
C=${out##* }
ktap_print_msg "ethtool -X rxb1 context new weight 0 0 1 1: $out"
k0=$(rxb_hkey rxb1)
ktap_test_result "context new weight 0 0 1 1: context $C, its table on queues 2 and 3, context 0's key" \
	eval '[[ $C =~ ^[1-9][0-9]*$ ]] && [ "$(qset "$(rxb_indir rxb1 "$C")")" = "2 3" ] &&
	      [ "$(rxb_hkey rxb1 "$C")" = "$k0" ]'

# 14: its own key
K2=$(printf '%s\n' ${MSKEY//:/ } | tac | paste -sd:)
e1 -X rxb1 context "$C" hkey "$K2" ||
	ktap_print_msg "ethtool -X context $C hkey: refused"
ktap_test_result "context $C hkey: its own key read back, context 0's unchanged" \
	eval '[ "$(rxb_hkey rxb1 "$C")" = "$K2" ] && [ "$(rxb_hkey rxb1)" = "$k0" ]'

# 15: an ntuple rule into it: every UDP flow to port 9 hashed with its key
# over its table (queues 2 and 3 only)
e1 -K rxb1 ntuple on >/dev/null 2>&1
e1 -N rxb1 flow-type udp4 dst-ip "$RXB_IP1" dst-port 9 context "$C" loc 3 >/dev/null ||
	ktap_print_msg "ethtool -N ... context $C: refused"
wq=$(steer_expect "$K2" "$(rxb_indir rxb1 "$C")")
ktap_print_msg "rule at 3: $(e1 -n rxb1 rule 3 2>&1 | grep -i -m1 context)"
steer_want "ntuple rule into context $C: the flows on queues 2-3 as Toeplitz(its key) and its table say" "$wq"

# 16: resize to queues 1..3; ethtool -L 2 refused (the context uses queue 3)
e1 -X rxb1 context "$C" weight 0 1 1 1 ||
	ktap_print_msg "ethtool -X context $C weight 0 1 1 1: refused"
e1 -L rxb1 combined 2 >/dev/null 2>&1
ch=$(rxb_channels rxb1)
ktap_print_msg "ethtool -L rxb1 combined 2 with the context on queue 3: $ch queues"
t=$(rxb_indir rxb1 "$C")
[ "$(qset "$t")" = "1 2 3" ] || ktap_print_msg "context $C table: $t"
wq=$(steer_expect "$K2" "$t")
if [ "$(qset "$t")" = "1 2 3" ] && [ "$ch" = $NQ ]; then
	steer_want "context $C resized to queues 1-3 (read back; ethtool -L 2 refused): the flows follow it" "$wq"
else
	ktap_test_fail "context $C resized to queues 1-3 (read back; ethtool -L 2 refused): the flows follow it"
fi

# 17: delete refused while the rule steers into it; after the rule, deleted
e1 -X rxb1 context "$C" delete >/dev/null 2>&1
busy=$(rxb_indir rxb1 "$C" | wc -w)
e1 -N rxb1 delete 3
e1 -X rxb1 context "$C" delete || ktap_print_msg "ethtool -X context $C delete: refused"
gone=$(rxb_indir rxb1 "$C" | wc -w)
ktap_print_msg "context $C: $busy entries after a delete with the rule, $gone after"
if [ "$busy" = 128 ] && [ "$gone" = 0 ]; then
	steer_check "context $C deleted (refused while a rule named it): the flows back on context 0"
else
	ktap_test_fail "context $C deleted (refused while a rule named it): the flows back on context 0"
fi

# ---- hash fields per flow type ----------------------------------------------
# 18
got=
for ft in tcp4 udp4 tcp6 udp6; do got+=" $ft:$(rxb_flow_hash rxb1 $ft)"; done
ktap_print_msg "rx-flow-hash:$got"
ktap_test_result "rx-flow-hash tcp4 udp4 tcp6 udp6: sdfn (addresses and ports)" \
	[ "$got" = " tcp4:sdfn udp4:sdfn tcp6:sdfn udp6:sdfn" ]

# 19: udp4 on the addresses only: every flow on one queue; back to sdfn
e1 -N rxb1 rx-flow-hash udp4 sd || ktap_print_msg "rx-flow-hash udp4 sd: refused"
if [ "$(rxb_flow_hash rxb1 udp4)" = sd ]; then
	steer_check "rx-flow-hash udp4 sd: read back, the 8 flows on Toeplitz(addresses)'s queue" "" sd
else
	ktap_test_fail "rx-flow-hash udp4 sd: read back, the 8 flows on Toeplitz(addresses)'s queue"
fi
e1 -N rxb1 rx-flow-hash udp4 sdfn

# 20: the other types set and restored; what the NIC cannot hash refused
ok=1
for ft in tcp4 tcp6 udp6; do
	e1 -N rxb1 rx-flow-hash $ft sd && [ "$(rxb_flow_hash rxb1 $ft)" = sd ] ||
		{ ok=0; ktap_print_msg "rx-flow-hash $ft sd: not set"; }
	e1 -N rxb1 rx-flow-hash $ft sdfn && [ "$(rxb_flow_hash rxb1 $ft)" = sdfn ] ||
		{ ok=0; ktap_print_msg "rx-flow-hash $ft sdfn: not restored"; }
done
e1 -N rxb1 rx-flow-hash udp4 sdfv >/dev/null 2>&1
e1 -N rxb1 rx-flow-hash sctp4 sdfn >/dev/null 2>&1
[ "$(rxb_flow_hash rxb1 udp4)" = sdfn ] || { ok=0; ktap_print_msg "udp4 sdfv changed udp4"; }
[ "$(rxb_flow_hash rxb1 sctp4)" = sd ] || { ok=0; ktap_print_msg "sctp4: $(rxb_flow_hash rxb1 sctp4)"; }
if [ $ok = 1 ]; then
	steer_check "rx-flow-hash tcp4/tcp6/udp6 set and restored, vlan and sctp4 ports refused; udp4 flows spread by 4-tuple again"
else
	ktap_test_fail "rx-flow-hash tcp4/tcp6/udp6 set and restored, vlan and sctp4 ports refused; udp4 flows spread by 4-tuple again"
fi

ktap_finished
