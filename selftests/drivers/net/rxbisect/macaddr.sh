#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live MAC address change, as veth and most NIC drivers take it: "ip link
# set rxb1 address MAC" on a port that is up succeeds (IFF_LIVE_ADDR_CHANGE)
# without taking the port down, and a ping running across the change keeps
# getting replies: rxb1 announces its new address (arp_notify, a gratuitous
# ARP) and rxb0's side, whose neighbour entry is a dynamic one here, learns
# it.  A multicast, broadcast or all-zero address is refused with
# EADDRNOTAVAIL, the address unchanged, and traffic still passes.  The
# emulated NIC filters no destination address (it hands every frame to the
# driver; eth_type_trans() tells the host's own from the others), so it
# has no copy of the address to follow.

source "$(dirname "$0")/lib.sh"

rxb_init ping
ktap_set_plan 6

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
# A dynamic neighbour entry on rxb0's side (rxb_setup_netns makes it
# permanent, which no ARP may change) and the announcement on rxb1's.
ip -n "$NS0" neigh del "$RXB_IP1" dev rxb0 || rxb_bail "cannot drop the static neighbour"
ip netns exec "$NS1" sysctl -qw net.ipv4.conf.rxb1.arp_notify=1 ||
	rxb_bail "cannot set arp_notify"
rxb_ping_ok "$NS0" "$RXB_IP1" 3 || rxb_bail "no traffic before the change"

OLD=$(rxb_mac rxb1)
NEW=02:36:00:00:00:01
[ "$OLD" != "$NEW" ] || NEW=02:36:00:00:00:02
carrier() { ip netns exec "$NS1" cat /sys/class/net/rxb1/carrier_changes; }
neigh() { ip -n "$NS0" neigh show "$RXB_IP1" dev rxb0 | awk '{ print $3 }'; }

# 1, 2: the change under a ping of COUNT probes, 10 a second; the one or
# two probes in flight between the change and the announcement may go to
# the old address (dropped as another host's by rxb1's stack): 2 allowed.
COUNT=40
cc0=$(carrier)
ip netns exec "$NS0" ping -n -c $COUNT -i 0.1 -w 60 "$RXB_IP1" >"$RXB_TMP/ping" 2>&1 &
PING=$!
rxb_sleep 1
out=$(ip -n "$NS1" link set rxb1 address "$NEW" 2>&1)
rc=$?
wait $PING
got=$(sed -nE 's/.* ([0-9]+) received.*/\1/p' "$RXB_TMP/ping")
mac=$(rxb_mac rxb1)
cc1=$(carrier)
state=$(ip -n "$NS1" -o link show rxb1)
ktap_print_msg "ip link set rxb1 address $NEW (was $OLD) while up: exit $rc ${out:+($out)}; now $mac, carrier changes $cc0 -> $cc1"
up=0
[[ $state == *",UP,"* ]] && up=1
ktap_test_result "live MAC change accepted on a running port, which stays up" \
	[ $rc = 0 -a "$mac" = "$NEW" -a "$cc0" = "$cc1" -a $up = 1 ]
ktap_print_msg "ping across the change: ${got:-0}/$COUNT replies; rxb0's neighbour $RXB_IP1 is at $(neigh)"
ktap_test_result "a ping keeps getting replies across the change, to the new address" \
	[ "${got:-0}" -ge $((COUNT - 2)) -a "$(neigh)" = "$NEW" ]

# 3-5: bad addresses refused, nothing changed
for bad in 01:00:5e:00:00:01 ff:ff:ff:ff:ff:ff 00:00:00:00:00:00; do
	out=$(ip -n "$NS1" link set rxb1 address "$bad" 2>&1)
	rc=$?
	mac=$(rxb_mac rxb1)
	ktap_print_msg "ip link set rxb1 address $bad: exit $rc: ${out:-<no output>}; now $mac"
	msg=0
	[[ $out == *"Cannot assign requested address"* ]] && msg=1
	ktap_test_result "address $bad refused with EADDRNOTAVAIL, the address unchanged" \
		[ $rc != 0 -a "$mac" = "$NEW" -a $msg = 1 ]
done

# 6
ktap_test_result "traffic passes after the refusals" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
