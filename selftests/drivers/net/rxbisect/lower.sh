#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxbisect behind another NIC ("ip link add link DEV type rxbisect"): every
# frame DEV receives goes through the emulated NIC's rings, frames sent on
# the port leave through DEV; removing either device under traffic is safe.
# Lower devices: a veth, and a virtio-net NIC when the machine has two of
# them cabled to each other (the test VM does: QEMU socket backend).

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping
ktap_set_plan 17

rxb_load queues=2 pairs=0 || rxb_bail "cannot load the module"
ip netns add "$NS0" && ip netns add "$NS1" || rxb_bail "cannot add namespaces"

# setup LOWER_PEER LOWER: LOWER_PEER in $NS0 as $RXB_IP0, rxbL on LOWER in
# $NS1 as $RXB_IP1 (LOWER stays in the initial namespace).
setup() {
	ip link set "$1" netns "$NS0" &&
	ip -n "$NS0" addr add $RXB_IP0/24 dev "$1" &&
	ip -n "$NS0" link set "$1" up && ip -n "$NS0" link set lo up &&
	ip link set "$2" up &&
	ip link add link "$2" name rxbL type rxbisect &&
	ip link set rxbL netns "$NS1" &&
	ip -n "$NS1" addr add $RXB_IP1/24 dev rxbL &&
	ip -n "$NS1" link set rxbL up && ip -n "$NS1" link set lo up
}
rxb_mtu_ns() { ip -n "$NS1" -o link show rxbL | sed 's/.* mtu \([0-9]*\).*/\1/'; }
rxb_stat_ns() { ip netns exec "$NS1" ethtool -S rxbL | awk -v k="$1:" '$1 == k { print $2 }'; }

# 1, 2, 3: veth
ip link add rxbvA type veth peer name rxbvB
ktap_test_result "ip link add link <veth> type rxbisect" setup rxbvA rxbvB
out=$(ip link add link rxbvB name rxbL2 type rxbisect 2>&1)
ktap_test_result "a second port on the same lower is refused ($out)" \
	eval '[ -n "$out" ] && ! ip link show rxbL2 >/dev/null 2>&1'
p0=$(rxb_stat_ns rx_packets)
rxb_iperf "$RXB_TMP/veth.json" 3
rc=$?
p1=$(rxb_stat_ns rx_packets); hw=$(ip netns exec "$NS1" ethtool -S rxbL | awk '/rx[0-9]+_hw_packets:/ { s += $2 } END { print s }')
ktap_print_msg "rxbL: rx_packets +$((p1 - p0)), hw_packets $hw"
# Every received segment through the rings: at least a frame a 1500 bytes
# (a count, whatever the rate: 935 frames at 2 Mbit/s on a debug kernel).
ktap_test_result "veth lower: ping and TCP through the emulated rings" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 3 && rxb_iperf_check "$RXB_TMP/veth.json" $rc "TCP via veth lower" &&
	      [ $((p1 - p0)) -gt 0 ] && [ $((p1 - p0)) -ge $((IPERF_BYTES / 1500)) ]'

# 4: iflink is the lower device
il=$(ip netns exec "$NS1" cat /sys/class/net/rxbL/iflink)
ktap_test_result "iflink of the port is the lower's ifindex ($il)" \
	eval '[ "$il" = "$(cat /sys/class/net/rxbvB/ifindex)" ]'

# 5, 6: the MTU: at most the lower's, and follows it
out=$(ip -n "$NS1" link set rxbL mtu 1600 2>&1)
ktap_test_result "an MTU above the lower's is refused ($out)" \
	eval '[ -n "$out" ] && [ "$(rxb_mtu_ns)" = 1500 ]'
ok=1
ip link set rxbvB mtu 1400 && [ "$(rxb_mtu_ns)" = 1400 ] || ok=0
ktap_print_msg "lower mtu 1400: rxbL $(rxb_mtu_ns)"
ip link set rxbvB mtu 1500 && [ "$(rxb_mtu_ns)" = 1500 ] || ok=0
ktap_print_msg "lower mtu 1500: rxbL $(rxb_mtu_ns)"
ktap_test_result "the port's MTU follows the lower's (1400, back to 1500)" [ $ok = 1 ]

# 7: the MAC address follows the lower's; traffic to the new one arrives
ip link set rxbvB address 02:00:00:00:0b:0b
ip -n "$NS0" neigh flush dev rxbvA
mac=$(ip -n "$NS1" -o link show rxbL | sed 's/.*link\/ether \([^ ]*\).*/\1/')
ktap_test_result "the port's address follows the lower's ($mac)" \
	eval '[ "$mac" = 02:00:00:00:0b:0b ] && rxb_ping_ok "$NS0" "$RXB_IP1" 3'

# 8, 9: delete the rxbisect port under traffic; the lower survives
rxb_iperf_start "$RXB_TMP/d1.json" 6
rxb_sleep 2
ip link del rxbL -n "$NS1" 2>/dev/null || ip -n "$NS1" link del rxbL
ktap_test_result "delete the port under traffic: port gone, lower intact" \
	eval '! ip -n "$NS1" link show rxbL >/dev/null 2>&1 && ip link show rxbvB >/dev/null'
ktap_test_result "the lower accepts a new port" \
	eval 'ip link add link rxbvB name rxbL type rxbisect && ip link set rxbL netns "$NS1" && ip -n "$NS1" addr add $RXB_IP1/24 dev rxbL && ip -n "$NS1" link set rxbL up && rxb_ping_ok "$NS0" "$RXB_IP1" 3'
rxb_kill_bg

# 10, 11: delete the lower under traffic; the port goes with it
rxb_iperf_start "$RXB_TMP/d2.json" 6
rxb_sleep 2
ip link del rxbvB
ktap_test_result "delete the lower under traffic: the port is removed with it" \
	eval '! ip -n "$NS1" link show rxbL >/dev/null 2>&1'
rxb_kill_bg
ktap_test_result "module still unloads and reloads" eval 'rxb_unload && rxb_load queues=2 pairs=0'
ip netns del "$NS0"; ip netns del "$NS1"
ip netns add "$NS0"; ip netns add "$NS1"

# 12..15: virtio-net lower (two virtio NICs cabled to each other)
modprobe virtio_net 2>/dev/null
rxb_sleep 1
vnics=()
for d in /sys/class/net/*; do
	[ "$(basename "$(readlink -f "$d/device/driver" 2>/dev/null)")" = virtio_net ] &&
		vnics+=("$(basename "$d")")
done
if [ ${#vnics[@]} -lt 2 ]; then
	for t in 12 13 14 15; do
		ktap_test_skip "virtio-net lower" "no pair of virtio-net NICs"
	done
else
	ktap_print_msg "virtio-net NICs: ${vnics[*]}"
	ktap_test_result "ip link add link ${vnics[1]} type rxbisect" setup "${vnics[0]}" "${vnics[1]}"
	ktap_test_result "virtio lower: ping through the emulated rings" \
		rxb_ping_ok "$NS0" "$RXB_IP1" 5
	rxb_iperf "$RXB_TMP/virtio.json" 3
	ktap_test_result "virtio lower: TCP" rxb_iperf_check "$RXB_TMP/virtio.json" $? "TCP via virtio-net lower"
	p=$(rxb_stat_ns rx_packets)
	ktap_print_msg "rxbL rx_packets $p"
	ip -n "$NS1" link del rxbL
	ktap_test_result "virtio lower: port removed, NIC intact and usable" \
		eval '[ "${p:-0}" -gt 0 ] && [ "${p:-0}" -ge $((IPERF_BYTES / 1500)) ] &&
		      ip link show "${vnics[1]}" >/dev/null'
	ip -n "$NS0" link set "${vnics[0]}" netns 1 2>/dev/null
fi

# 16, 17: bad lower devices
out=$(ip link add link lo name rxbX type rxbisect 2>&1)
ktap_test_result "loopback as lower refused ($out)" eval '[ -n "$out" ] && ! ip link show rxbX >/dev/null 2>&1'
ip link add rxbP type rxbisect
out=$(ip link add link rxbP name rxbX type rxbisect 2>&1)
ktap_test_result "rxbisect port as lower refused ($out)" eval '[ -n "$out" ] && ! ip link show rxbX >/dev/null 2>&1'

ktap_finished
