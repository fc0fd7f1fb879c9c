#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module load/unload: parameters, the ports they create, ip link add/del of
# pairs, invalid parameters, repeated load/unload.

source "$(dirname "$0")/lib.sh"

rxb_init
ktap_set_plan 19

# peer_of IF: name of the port IF is paired with (via iflink).
peer_of() {
	local il
	il=$(cat "/sys/class/net/$1/iflink" 2>/dev/null) || return 1
	ip -o link show 2>/dev/null | awk -F': ' -v i="$il" '$1 == i { sub(/@.*/, "", $2); print $2 }'
}

# same_set "a b" "b a": the same names, whatever the order.
same_set() {
	[ "$(tr ' ' '\n' <<<"$1" | sort | xargs)" = "$(tr ' ' '\n' <<<"$2" | sort | xargs)" ]
}

# 1
if rxb_load pairs=2 queues=3 rx_ring_size=256; then
	ktap_test_pass "load pairs=2 queues=3 rx_ring_size=256"
else
	ktap_test_fail "load pairs=2 queues=3 rx_ring_size=256"
	rxb_bail "cannot load the module"
fi

# 2
ports=$(rxb_ports | xargs)
ktap_print_msg "ports: $ports"
ktap_test_result "ports rxb0..rxb3 exist, no others" same_set "$ports" "rxb0 rxb1 rxb2 rxb3"

# 3
ok=1
for p in rxb0 rxb1 rxb2 rxb3; do
	peer=$(peer_of $p)
	case $p in rxb0) want=rxb1 ;; rxb1) want=rxb0 ;; rxb2) want=rxb3 ;; rxb3) want=rxb2 ;; esac
	[ "$peer" = "$want" ] || { ok=0; ktap_print_msg "$p: peer '$peer', expected $want"; }
done
ktap_test_result "pairs are rxb0/rxb1 and rxb2/rxb3" [ $ok = 1 ]

# 4
ok=1
for p in rxb0 rxb1 rxb2 rxb3; do
	r=$(rxb_ring $p RX)
	[ "$r" = 256 ] || { ok=0; ktap_print_msg "$p: ethtool -g RX '$r'"; }
done
ktap_test_result "ethtool -g shows RX 256 on every port" [ $ok = 1 ]

# 5
ok=1
for p in rxb0 rxb1 rxb2 rxb3; do
	c=$(rxb_channels $p)
	[ "$c" = 3 ] || { ok=0; ktap_print_msg "$p: ethtool -l combined '$c'"; }
	n=$(ls -d /sys/class/net/$p/queues/rx-* 2>/dev/null | wc -l)
	[ "$n" = 3 ] || { ok=0; ktap_print_msg "$p: $n rx queues in sysfs"; }
done
ktap_test_result "ethtool -l shows combined 3, 3 rx queues" [ $ok = 1 ]

# 6
info=$(ethtool -i rxb0 2>&1)
drv=$(awk '$1 == "driver:" { print $2 }' <<<"$info")
fw=$(sed -n 's/^firmware-version: //p' <<<"$info")
ktap_print_msg "driver '$drv', firmware-version '$fw'"
ktap_test_result "ethtool -i: driver rxbisect, firmware emulated privring" \
	eval '[ "$drv" = rxbisect ] && [ "$fw" = "emulated privring" ]'

# 7
ok=1
for p in rxb0 rxb1 rxb2 rxb3; do
	qs=$(ls "$RXB_DBG/$p" 2>/dev/null | grep '^q' | xargs)
	[ "$qs" = "q0 q1 q2" ] || { ok=0; ktap_print_msg "$p: debugfs '$qs'"; }
	for k in stall work irq_cpu; do
		[ -f "$RXB_DBG/$p/q0/$k" ] || { ok=0; ktap_print_msg "$p: no q0/$k"; }
	done
done
ktap_test_result "debugfs has q0..q2 with stall, work, irq_cpu per port" [ $ok = 1 ]

# 8
before=$(rxb_ports | xargs)
if ip link add rxbtest0 type rxbisect; then
	new=$(comm -13 <(tr ' ' '\n' <<<"$before" | sort) <(rxb_ports | sort) | xargs)
	other=$(tr ' ' '\n' <<<"$new" | grep -vx rxbtest0 | xargs)
	ktap_print_msg "ip link add rxbtest0 created: $new"
	ktap_test_result "ip link add creates NAME and a peer rxbN" \
		eval '[ "$(wc -w <<<"$new")" = 2 ] && [[ $other =~ ^rxb[0-9]+$ ]] &&
		      [ "$(peer_of rxbtest0)" = "$other" ] && [ "$(peer_of "$other")" = rxbtest0 ] &&
		      [ "$(rxb_channels rxbtest0)" = 3 ] && [ "$(rxb_ring "$other" RX)" = 256 ]'
else
	other=
	ktap_test_fail "ip link add creates NAME and a peer rxbN"
fi

# 9
if [ -n "$other" ] && ip link del "$other"; then
	ktap_test_result "ip link del of the peer removes both ends" \
		same_set "$(rxb_ports | xargs)" "$before"
else
	ktap_test_fail "ip link del of the peer removes both ends"
fi

# 10
if ip link add rxbtest1 type rxbisect && ip link del rxbtest1; then
	ktap_test_result "ip link del of NAME removes both ends" \
		same_set "$(rxb_ports | xargs)" "$before"
else
	ktap_test_fail "ip link del of NAME removes both ends"
fi

# 11: a pair with traffic is deleted by unload too; one end in a namespace
ip netns add "$NS0" && ip link add rxbtest2 type rxbisect &&
	ip link set rxbtest2 netns "$NS0"
if rxb_unload; then
	left=$(rxb_all_ports | xargs)
	ktap_test_result "unload removes every port (also in other namespaces)" \
		eval '[ -z "$left" ] && [ ! -e "$RXB_DBG" ] && ! rxb_is_loaded'
	[ -n "$left" ] && ktap_print_msg "left: $left"
else
	ktap_test_fail "unload removes every port (also in other namespaces)"
fi
ip netns del "$NS0" 2>/dev/null

# 12..15
for p in ring_model=bogus rx_ring_size=100 rx_ring_size=16384 queues=1000; do
	if rxb_load "$p" 2>/dev/null; then
		ktap_test_fail "load with $p fails"
		rxb_unload
		continue
	fi
	left=$(rxb_all_ports | xargs)
	ktap_test_result "load with $p fails and leaves no port" \
		eval '[ -z "$left" ] && ! rxb_is_loaded'
done

# 16
ok=1
for i in 1 2 3 4 5; do
	if ! rxb_load; then
		ok=0; ktap_print_msg "load $i failed"; break
	fi
	ports=$(rxb_ports | xargs)
	[ "$ports" = "rxb0 rxb1" ] || { ok=0; ktap_print_msg "load $i: ports '$ports'"; }
	if ! rxb_unload; then
		ok=0; ktap_print_msg "unload $i failed"; break
	fi
	[ -z "$(rxb_all_ports)" ] || { ok=0; ktap_print_msg "unload $i left ports"; }
done
ktap_test_result "load/unload 5 times with the defaults" [ $ok = 1 ]

# 17: defaults: one queue per online CPU, ring 1024, ring_model=privring
ncpu=$(rxb_online_cpus | wc -l)
[ "$ncpu" -gt 32 ] && ncpu=32
if rxb_load ring_model=privring; then
	c=$(rxb_channels rxb0); r=$(rxb_ring rxb1 RX)
	ktap_print_msg "defaults: combined $c (online CPUs $ncpu), RX ring $r"
	ktap_test_result "defaults: combined = online CPUs, RX ring 1024" \
		eval '[ "$c" = "$ncpu" ] && [ "$r" = 1024 ]'
else
	ktap_test_fail "defaults: combined = online CPUs, RX ring 1024"
fi

# 18: a port that is up (rings allocated) unloads cleanly
if ip link set rxb0 up && ip link set rxb1 up && rxb_wait_carrier rxb0 && rxb_unload; then
	ktap_test_result "unload with both ports up" eval '[ -z "$(rxb_all_ports)" ]'
else
	ktap_test_fail "unload with both ports up"
fi

# 19: a port created while the first pair lives in other namespaces (its
# name, rxbN, may then be one of theirs) still gets its own knobs
ok=0
if rxb_load && ip netns add "$NS0" && ip netns add "$NS1" &&
   ip link set rxb0 netns "$NS0" && ip link set rxb1 netns "$NS1" &&
   ip link add rxbtest3 type rxbisect; then
	ports=$(rxb_all_ports | xargs)
	dirs=$(cd "$RXB_DBG" && ls -d -- */ | tr -d / | xargs)
	ktap_print_msg "ports: $ports; debugfs: $dirs"
	[ "$(wc -w <<<"$dirs")" = "$(wc -w <<<"$ports")" ] && ok=1
fi
ktap_test_result "every port has its own debugfs directory (4 ports, 2 namespaces)" [ $ok = 1 ]
rxb_unload

ktap_finished
