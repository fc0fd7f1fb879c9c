#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmmod while TCP and UDP streams run across the pair: the module goes away
# within a bounded time and takes every port with it; loading it again gives
# working ports.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 8

rxb_load || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 1
ok=1
rxb_iperf_start "$RXB_TMP/tcp.json" 30 || ok=0
tcp_pid=$RXB_IPERF_PID
rxb_iperf_start "$RXB_TMP/udp.json" 30 -u -b 30M -R || ok=0
udp_pid=$RXB_IPERF_PID
ktap_test_result "iperf3 TCP and UDP (reverse) streams started" [ $ok = 1 ]

# 2: both directions carry traffic before the unload
rxb_snap rxb1; a1=${RXB_S[rx_packets]}; t1=${RXB_S[tx_packets]}
for i in {1..27}; do
	rxb_poll_wait $i
	rxb_snap rxb1
	[ $((RXB_S[rx_packets] - a1)) -gt 2000 ] && [ $((RXB_S[tx_packets] - t1)) -gt 200 ] && break
done
ktap_print_msg "rxb1 before unload: rx_packets +$((RXB_S[rx_packets] - a1)), tx_packets +$((RXB_S[tx_packets] - t1))"
ktap_test_result "traffic flows in both directions" \
	[ $((RXB_S[rx_packets] - a1)) -gt 2000 -a $((RXB_S[tx_packets] - t1)) -gt 200 ]

# 3
start=$SECONDS
timeout 30 rmmod rxbisect
rc=$?
took=$((SECONDS - start))
ktap_print_msg "rmmod under traffic: exit $rc after ${took}s"
ktap_test_result "rmmod under traffic succeeds within 30 s" [ $rc = 0 ]
RXB_LOADED=

# 4
left=$(rxb_all_ports | xargs)
[ -n "$left" ] && ktap_print_msg "ports left: $left"
ktap_test_result "no rxbisect port or debugfs directory remains" \
	eval '[ -z "$left" ] && [ ! -e "$RXB_DBG" ] && ! rxb_is_loaded'

rxb_kill_bg

# 5
if rxb_load; then
	ktap_test_result "load again" [ "$(rxb_ports | xargs)" = "rxb0 rxb1" ]
else
	ktap_test_fail "load again"
	rxb_bail "cannot reload"
fi

# 6
rxb_setup_netns || ktap_print_msg "namespace setup failed"
ktap_test_result "ping rxb0 -> rxb1 after reloading" rxb_ping_ok "$NS0" "$RXB_IP1" 10

# 7
rxb_iperf "$RXB_TMP/tcp2.json" 2
ktap_test_result "iperf3 TCP 2 s after reloading" \
	rxb_iperf_check "$RXB_TMP/tcp2.json" $? "TCP after reload"

# 8: again, with UDP floods in both directions and a small ring
rxb_in rxb1 ethtool -G rxb1 rx 64 >/dev/null
rxb_bg rxb_udp_blast "$NS0" "$RXB_IP1" 200000 16 >/dev/null
rxb_bg rxb_udp_blast "$NS1" "$RXB_IP0" 200000 16 >/dev/null
rxb_sleep 1
start=$SECONDS
timeout 30 rmmod rxbisect
rc=$?
RXB_LOADED=
ktap_print_msg "rmmod under UDP floods: exit $rc after $((SECONDS - start))s"
rxb_kill_bg
ktap_test_result "rmmod under UDP floods both ways succeeds, no port left" \
	eval '[ $rc = 0 ] && [ -z "$(rxb_all_ports)" ]'

ktap_finished
