#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-queue statistics of the netdev netlink family (netdev_stat_ops,
# kernels from 6.9): every live queue's rx and tx qstats equal ethtool -S's
# counters of that queue (netdev_nl.py: stack packets and bytes, alloc
# failures, NIC drops), and the device's equal ip -s link, after traffic
# with injected allocation failures, after ethtool -L drops queues (their
# counts go to the base) and with the port down.  Skipped, with the reason,
# on a kernel without the family (6.1: ethtool -S only).

source "$(dirname "$0")/lib.sh"

rxb_init python3

NL="python3 $RXB_DIR/netdev_nl.py"

rxb_load queues=4 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
out=$(ip netns exec "$NS1" $NL has qstats-get 2>&1)
[ $? = 4 ] && ktap_skip_all "${out#\# }"
ktap_set_plan 5

# check IF DESC: qstats of IF (in its namespace) as netdev_nl.py checks them
check() {
	local out rc
	out=$(rxb_in "$1" $NL qstats "$1" 2>&1)
	rc=$?
	ktap_print_msg "$out"
	ktap_test_result "$2" [ $rc = 0 ]
}

# 1, 2: traffic over every queue, a fifth of the buffer allocations failing
rxb_fault rxb1 alloc_fail 200
rxb_udp_blast "$NS0" "$RXB_IP1" 600 16 >/dev/null
rxb_fault rxb1 alloc_fail 0
rxb_ping_ok "$NS0" "$RXB_IP1" 3 >/dev/null
rxb_sleep 1
check rxb1 "rx: qstats of every queue and the device equal ethtool -S, ip -s link"
fails=$(rxb_qsum rxb1 alloc_fails)
ktap_print_msg "rxb1 alloc failures: $fails"
check rxb0 "tx: qstats of every queue and the device equal ethtool -S, ip -s link"

# 3: two queues fewer: the dropped queues' counts are in the base
rxb_in rxb1 ethtool -L rxb1 combined 2 || ktap_print_msg "ethtool -L failed"
rxb_udp_blast "$NS0" "$RXB_IP1" 200 16 >/dev/null
rxb_sleep 1
check rxb1 "after ethtool -L combined 2: queues + base add up to the device"

# 4: down: the device's qstats, no queue's, and the same totals
rxb_ip rxb1 link set rxb1 down
check rxb1 "port down: device qstats equal ethtool -S, ip -s link"
ktap_test_result "injected allocation failures were counted" [ "${fails:-0}" -gt 0 ]

ktap_finished
