#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shRing models reconfigured under traffic: share factor, ring size,
# queue count and the model itself (shring -> shring-list -> shring-batched
# -> dshring -> shring) change while iperf3 runs; invalid share factors (0, 33, -1, abc)
# are refused with a message and change nothing; afterwards every frame
# sent reached the NIC and every frame written was consumed exactly once.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping python3
ktap_set_plan 23

P=/sys/module/rxbisect/parameters

rxb_load queues=2 rx_ring_size=256 share_factor=2 ring_model=shring ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
base=$(rxb_balance rxb0 rxb1)

# 24 s: the changes take about 10 s under TCG on 6.1, about 15 s on 6.12
# (a message says if the stream ended before the last one)
rxb_iperf_start "$RXB_TMP/live.json" 24 -P 2 || rxb_bail "iperf3 did not start"
rxb_wait_rx rxb1 200 5	# the stream flows

# change WHAT CMD...: CMD succeeds under traffic
change() {
	local what=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && ktap_print_msg "$out"
	ktap_test_result "under traffic: $what" [ $rc = 0 ]
	rxb_sleep 0.2
}
e1() { rxb_in rxb1 ethtool "$@"; }

# 1..15
change "share_factor 1 (private rings)" sh -c "echo 1 > $P/share_factor"
change "ethtool -G rx 512" e1 -G rxb1 rx 512
change "ring_model shring-list" sh -c "echo shring-list > $P/ring_model"
change "ethtool -L combined 1" e1 -L rxb1 combined 1
change "ethtool -L combined 2" e1 -L rxb1 combined 2
change "share_factor 2" sh -c "echo 2 > $P/share_factor"
change "ring_model shring-batched" sh -c "echo shring-batched > $P/ring_model"
change "ethtool -G rx 1024 (batched)" e1 -G rxb1 rx 1024
change "share_factor 1 (batched)" sh -c "echo 1 > $P/share_factor"
change "ethtool -L combined 1 (batched)" e1 -L rxb1 combined 1
change "ethtool -L combined 2 (batched)" e1 -L rxb1 combined 2
change "share_factor 2 (batched)" sh -c "echo 2 > $P/share_factor"
change "ring_model dshring" sh -c "echo dshring > $P/ring_model"
change "ethtool -G rx 256" e1 -G rxb1 rx 256
change "ring_model shring" sh -c "echo shring > $P/ring_model"
live=0
kill -0 "$RXB_IPERF_PID" 2>/dev/null && live=1

# 16..19: refused, with a message naming the parameter, nothing changed
for v in 0 33 -1 abc; do
	marker="rxb-shring-reconfig-$$-$v"
	echo "$marker" > /dev/kmsg
	before="$(cat $P/share_factor) $(cat $P/ring_model) $(rxb_ring rxb1 RX)"
	out=$(sh -c "echo $v > $P/share_factor" 2>&1)
	rc=$?
	after="$(cat $P/share_factor) $(cat $P/ring_model) $(rxb_ring rxb1 RX)"
	msg=$(dmesg | awk -v m="$marker" 'f { print } index($0, m) { f = 1 }' |
	      grep 'share_factor' | tail -n1)
	ktap_print_msg "share_factor=$v: exit $rc (${out:-no output}); kernel: ${msg:-nothing}"
	ktap_test_result "share_factor $v refused, setting kept ($after)" \
		[ $rc != 0 -a "$before" = "$after" -a -n "$msg" ]
done

# 20
wait "$RXB_IPERF_PID"
rc=$?
[ $live = 1 ] || ktap_print_msg "iperf3 ended before the last change (a slow machine?)"
ktap_test_result "iperf3 TCP ran through every change" \
	rxb_iperf_check "$RXB_TMP/live.json" $rc "TCP under changes"

# 21, 22: frames still in the rings when a configuration is torn down are
# freed unconsumed (rx.c), so exactly-once is checked on the final one.
b=$(rxb_wait_balance rxb0 rxb1 "$base")
ktap_test_result "every frame sent reached the NIC (balance $b, was $base)" [ "$b" = "$base" ]
rxb_snap rxb1
p0=${RXB_S[rx_packets]} h0=$(rxb_s_qsum hw_packets)
ktap_print_msg "written but freed unconsumed at the reconfigurations: $((h0 - p0))"
rxb_iperf "$RXB_TMP/after.json" 2 -P 2 >/dev/null
rxb_ping_ok "$NS0" "$RXB_IP1" 5
for i in {1..27}; do
	rxb_snap rxb1
	p=$((RXB_S[rx_packets] - p0)) h=$(($(rxb_s_qsum hw_packets) - h0))
	[ $p = $h ] && break
	rxb_poll_wait $i
done
ktap_print_msg "after the changes: $h frames written, $p consumed"
ktap_test_result "after the changes every frame written is consumed exactly once" \
	[ $p = $h -a $h -gt 0 ]

# 23
fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: //p')
rxb_snap rxb1
ktap_print_msg "now: $fw, share_factor $(cat $P/share_factor), ring0_posted ${RXB_S[ring0_posted]:-none}"
ktap_test_result "ends on shring, share factor 2, shared ring fully posted" \
	[ "$fw" = "emulated shring" -a "$(cat $P/share_factor)" = 2 -a "${RXB_S[ring0_posted]:-0}" = 256 ]

ktap_finished
