#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A reconfiguration that fails leaves every port exactly as it was.  For each
# interface that rebuilds the rings (ethtool -L, ethtool -G, a devlink
# parameter, a writable module parameter) and each step of the rebuild that
# the change goes through, debugfs fault/reconfig_fail makes that step fail
# (1 new rings, 2 a page_pool, 3 the ring model, 4 the stack's queue count,
# 5 the engine thread).  The command must fail with a message (extack or
# dmesg), and both ports keep their configuration, model, queue count,
# engine thread, carrier, counters and a working ping.  The fault is set on
# rxb1, which devlink and the module parameters reconfigure after rxb0: rxb0
# must be rolled back too.  Afterwards, without the fault, every change
# applies.

source "$(dirname "$0")/lib.sh"

rxb_init devlink ping python3
ktap_set_plan 18

DL=rxbisect/rxbisect0
P=/sys/module/rxbisect/parameters
rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
[ -e "$RXB_DBG/rxb1/fault/reconfig_fail" ] || rxb_bail "no fault/reconfig_fail"


# state IF: everything that must survive a failed reconfiguration: ethtool
# -l, -g, -i (the model: firmware-version), the stack's queues, the link
# (flags), with one "ip netns exec"; the engine threads are counted in
# all_state.
state() {
	local i=$1 l out=()
	while read -r l; do
		out+=("$l")
	done < <(rxb_in "$i" sh -c "ethtool -l $i; ethtool -g $i; ethtool -i $i;
		ls /sys/class/net/$i/queues; ip -o link show $i" 2>&1)
	echo "$i: ${out[*]}"
}
# threads: the number of engine threads of rxb0 and rxb1 (pgrep -c -x
# rxb-nic/IF each, from /proc in bash: no exec)
threads() {
	local f c n0=0 n1=0
	for f in /proc/[0-9]*/comm; do
		read -r c < "$f" 2>/dev/null || continue
		[ "$c" = rxb-nic/rxb0 ] && n0=$((n0 + 1))
		[ "$c" = rxb-nic/rxb1 ] && n1=$((n1 + 1))
	done
	echo "engine threads rxb0 $n0 rxb1 $n1"
}
# dlvals NAME...: their devlink runtime values, from one "devlink dev param
# show".
dlvals() {
	local k v n='' out=()
	local -A val=()
	while read -r k v; do
		[ "$k" = name ] && n=${v%% *}
		[ "$k" = cmode ] && [[ $v == "runtime value "* ]] && val[$n]=${v#runtime value }
	done < <(devlink dev param show $DL 2>/dev/null)
	for k in "$@"; do out+=("${val[$k]:-}"); done
	echo "${out[*]}"
}
all_state() {
	echo "$(state rxb0) | $(state rxb1) | $(threads) |" \
		"devlink $(dlvals ring_model engine ax_ring_size)" \
		"| module $(<$P/ring_model) $(<$P/engine)"
}
# rx1: rx_packets of rxb1 (ethtool -S through nsenter: no "ip netns exec")
rx1() {
	local k v
	while read -r k v; do
		[ "$k" = rx_packets: ] && { echo "$v"; return; }
	done < <(nsenter --net="/run/netns/$NS1" ethtool -S rxb1 2>/dev/null)
}

# failed DESC STEP MSG CMD...: with fault STEP on rxb1, CMD fails; MSG is
# in its output or in dmesg; nothing changed; counters did not go back;
# ping still works.  The state and rx_packets read after one failed call
# are those before the next one (LAST_STATE, LAST_RX; clear LAST_STATE
# after any other change).
LAST_STATE='' LAST_RX=''
failed() {
	local desc=$1 step=$2 msg=$3 before after out rc n p0 p1 ok=1 log l
	shift 3
	if [ -n "$LAST_STATE" ]; then
		before=$LAST_STATE p0=$LAST_RX
	else
		before=$(all_state) p0=$(rx1)
	fi
	mapfile -t log < <(dmesg)
	n=${#log[@]}
	echo "$step" > "$RXB_DBG/rxb1/fault/reconfig_fail"
	out=$("$@" 2>&1)
	rc=$?
	echo 0 > "$RXB_DBG/rxb1/fault/reconfig_fail"
	mapfile -t log < <(dmesg)
	for l in "${log[@]:n}"; do
		[[ $l == *rxb* ]] && out+=" $l"
	done
	after=$(all_state)
	ktap_print_msg "step $step: $*: exit $rc: $(echo $out)"
	[ $rc != 0 ] || { ok=0; ktap_print_msg "command succeeded"; }
	[[ $out == *"$msg"* ]] || { ok=0; ktap_print_msg "message '$msg' missing"; }
	if [ "$before" != "$after" ]; then
		ok=0
		ktap_print_msg "before: $before"
		ktap_print_msg "after:  $after"
	fi
	# (rxb_ping_ok without "ip netns exec" and timeout)
	nsenter --net="/run/netns/$NS0" ping -n -q -c 2 -i 0.05 -W 2 -w 20 "$RXB_IP1" >/dev/null ||
		{ ok=0; ktap_print_msg "ping $RXB_IP1 from $NS0 failed"; }
	p1=$(rx1)
	[ "${p1:-0}" -gt "${p0:-0}" ] || { ok=0; ktap_print_msg "rx_packets $p0 -> $p1"; }
	LAST_STATE=$after LAST_RX=$p1
	ktap_test_result "$desc, step $step: refused, both ports unchanged" [ $ok = 1 ]
}

e1() { rxb_in rxb1 ethtool "$@"; }
mp() { echo "$2" > "$P/$1"; }

RINGS="cannot allocate the new rings"
QUEUES="cannot grow the stack's queue count"
ENGINE="cannot start the NIC engine thread"

# 1..4: ethtool -L 2 -> 4 (the queue count grows)
for s in 1 2 3; do failed "ethtool -L combined 4" $s "$RINGS" e1 -L rxb1 combined 4; done
failed "ethtool -L combined 4" 4 "$QUEUES" e1 -L rxb1 combined 4

# 5..7: ethtool -G rx 512 (extack)
for s in 1 2 3; do failed "ethtool -G rx 512" $s "$RINGS" e1 -G rxb1 rx 512; done

# 8..11: devlink: ax_ring_size (rebuild), engine (new thread)
for s in 1 2 3; do
	failed "devlink ax_ring_size 64" $s "$RINGS" \
		devlink dev param set $DL name ax_ring_size value 64 cmode runtime
done
failed "devlink engine cpu0" 5 "$ENGINE" \
	devlink dev param set $DL name engine value cpu0 cmode runtime

# 12..15: module parameters: ring_model, engine
for s in 1 2 3; do failed "module parameter ring_model=rxbisect" $s "$RINGS" mp ring_model rxbisect; done
failed "module parameter engine=cpu0" 5 "$ENGINE" mp engine cpu0

# 16: a running engine thread is kept when its replacement fails
ok=1
mp engine cpu0 || ok=0
LAST_STATE=
failed "module parameter engine=cpu1 (from cpu0)" 5 "$ENGINE" mp engine cpu1
mp engine inline || ok=0

# 17: without the fault, every change applies
# (a module parameter applies all of them: first)
mp ring_model rxbisect || ok=0
e1 -L rxb1 combined 4 || ok=0
e1 -G rxb1 rx 512 || ok=0
devlink dev param set $DL name ax_ring_size value 64 cmode runtime || ok=0
devlink dev param set $DL name engine value cpu0 cmode runtime || ok=0
got="$(rxb_channels rxb1) $(rxb_ring rxb1 RX) $(rxb_dl_get ax_ring_size) $(rxb_dl_get engine) $(<$P/ring_model) $(pgrep -c -x rxb-nic/rxb0)"
ktap_print_msg "after: $got"
ktap_test_result "without the fault every change applies" \
	eval '[ $ok = 1 ] && [ "$got" = "4 512 64 cpu0 rxbisect 1" ]'

# 18: a UDP flow still arrives whole
p0=$(rxb_stat rxb1 rx_packets)
rxb_udp_blast "$NS0" "$RXB_IP1" 300 4 1000 >/dev/null
for i in {1..27}; do	# up to 5 s
	p1=$(rxb_stat rxb1 rx_packets)
	[ $((p1 - p0)) -ge 300 ] && break
	rxb_poll_wait $i
done
ktap_print_msg "rx_packets +$((p1 - p0)) of 300 datagrams"
ktap_test_result "a UDP flow arrives whole afterwards" [ $((p1 - p0)) -ge 300 ]

ktap_finished
