#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# netdev conventions: /sys/class/net/X/device of the ports of a bus device,
# NETIF_F_RXHASH offered and honoured (the NIC's hash reaches the skb only
# while "ethtool -K X rxhash" is on; seen in the net:napi_gro_receive_entry
# trace event), and a refused ethtool change whose operation has no extack
# in this kernel (-X hfunc) says why in the log.

source "$(dirname "$0")/lib.sh"

rxb_init ping python3
ktap_set_plan 6

T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d $T/events/net/napi_gro_receive_entry ] || ktap_skip_all "no net trace events"

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 1: the ports' device is the bus device
d0=$(rxb_in rxb0 readlink -f /sys/class/net/rxb0/device)
d1=$(rxb_in rxb1 readlink -f /sys/class/net/rxb1/device)
ktap_print_msg "rxb0/device -> $d0, rxb1/device -> $d1"
ktap_test_result "/sys/class/net/rxbN/device is the bus device rxbisect0" \
	eval '[ "${d0##*/}" = rxbisect0 ] && [ "$d1" = "$d0" ] && [ -d "$d0" ]'

# hashes IF: "hash l4_hash" of each napi_gro_receive_entry of IF during a
# burst of UDP datagrams to rxb1.
hashes() {
	echo > $T/trace
	echo "name == \"$1\"" > $T/events/net/napi_gro_receive_entry/filter
	echo 1 > $T/events/net/napi_gro_receive_entry/enable
	rxb_udp_blast "$NS0" "$RXB_IP1" 20 4 200 >/dev/null
	sleep 0.5
	echo 0 > $T/events/net/napi_gro_receive_entry/enable
	echo 0 > $T/events/net/napi_gro_receive_entry/filter
	sed -n 's/.* hash=\(0x[0-9a-f]*\) l4_hash=\([01]\).*/\1 \2/p' $T/trace
}

# 2: offered, on by default
k=$(rxb_in rxb1 ethtool -k rxb1 | grep '^receive-hashing:')
ktap_test_result "NETIF_F_RXHASH offered and on ($k)" \
	eval '[[ $k == "receive-hashing: on" ]]'

# 3: on: the NIC's L4 hash
h=$(hashes rxb1)
ktap_print_msg "rxhash on: $(sort <<<"$h" | uniq -c | tr -s ' \n' ' ')"
ktap_test_result "rxhash on: UDP packets carry the NIC's L4 hash" \
	eval '[ -n "$h" ] && ! grep -qv " 1$" <<<"$h" && ! grep -q "^0x00000000" <<<"$h"'

# 4: off: no hash
rxb_in rxb1 ethtool -K rxb1 rxhash off
h=$(hashes rxb1)
ktap_print_msg "rxhash off: $(sort <<<"$h" | uniq -c | tr -s ' \n' ' ')"
ktap_test_result "rxhash off: no hash reported" \
	eval '[ -n "$h" ] && ! grep -qv "^0x00000000 0$" <<<"$h"'
rxb_in rxb1 ethtool -K rxb1 rxhash on

# 5: ethtool -X hfunc xor: refused, the reason in the log (no extack)
mark=$(rxb_kmsg_mark "conventions.sh: hfunc xor")
before=$(rxb_indir rxb1)
out=$(rxb_in rxb1 ethtool -X rxb1 hfunc xor 2>&1)
rc=$?
msg=$(rxb_kmsg_since "$mark" | grep -m1 "rxb1: ethtool -X")
ktap_print_msg "exit $rc: $out; log: $msg"
ktap_test_result "ethtool -X hfunc xor refused, the reason logged" \
	eval '[ $rc != 0 ] && [ -n "$msg" ] && [ "$(rxb_indir rxb1)" = "$before" ]'

# 6
ktap_test_result "ping rxb0 -> rxb1 at the end" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
