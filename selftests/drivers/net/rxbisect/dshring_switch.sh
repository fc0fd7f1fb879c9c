#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dynamic shRing's controller switching ring sets at run time (thesis
# section 5.1.5), with thresholds a TCG guest can reach: dsh_tput_mbps 5
# and cache_kb 64 (the I/O working set of two 256-entry rings is 2 MiB),
# sampled every 10 ms.  On a slower kernel (RXB_TIMEOUT_SCALE: TCP made
# 4-5 Mbit/s on the debug kernel with another VM beside it, 0.4 frames
# per 10 ms) the thresholds are divided by the scale and the period
# multiplied by it, so that a sample still sees frames: the controller's
# rule is the same, at the rate the guest reaches.
# Under TCP the NIC moves from the privRing set to the shRing set; when
# the traffic stops it moves back; with a queue's consumer stopped
# (overloaded: packets wait and it makes no receive calls) it does not
# share; every frame written is consumed exactly once across the switches.
# The controller is the driver's periodic task, not the NIC's: it ticks
# (dsh_ctl_ticks) whether frames arrive or not.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/shring_lib.sh"

rxb_init iperf3 ping python3
ktap_set_plan 8

SC=${RXB_TIMEOUT_SCALE:-1}
TPUT=$((5 / SC))
[ "$TPUT" -ge 1 ] || TPUT=1
CACHE=$((64 / SC))
[ "$CACHE" -ge 8 ] || CACHE=8
TICKS_WAIT=$((SC * 5 / 10)).$((SC * 5 % 10))	# 0.5 s times the scale
rxb_load queues=2 rx_ring_size=256 share_factor=2 ring_model=dshring \
	dsh_tput_mbps=$TPUT cache_kb=$CACHE dsh_period_us=$((10000 * SC)) ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_stall_timeout 600000

# dsh: rxb1's dshRing set (shared) and switch count (sw)
dsh() { rxb_snap rxb1; shared=${RXB_S[dsh_shared]:-x}; sw=${RXB_S[dsh_switches]:-x}; }

# wait_shared V SECS: wait until dsh_shared is V
wait_shared() {
	local i
	for i in $(seq $(($2 * 10))); do
		dsh
		[ "$shared" = "$1" ] && return 0
		rxb_sleep 0.1
	done
	return 1
}

# 1
rxb_sleep 0.5
dsh
sw0=$sw
ticks0=${RXB_S[dsh_ctl_ticks]:-0}
ktap_test_result "idle: the privRing set is live (dsh_shared $shared, switches $sw)" \
	[ "$shared" = 0 ]

# 2
sleep "$TICKS_WAIT"
dsh
ticks=${RXB_S[dsh_ctl_ticks]:-0}
ktap_test_result "the driver's controller task ticks on its own, idle or not (dsh_ctl_ticks $ticks0 -> $ticks in $TICKS_WAIT s, samples ${RXB_S[dsh_samples]:-x})" \
	[ $((ticks - ticks0)) -ge 5 ]

# 3, 4
rxb_iperf_start "$RXB_TMP/tcp.json" 6 -P 4 || rxb_bail "iperf3 did not start"
wait_shared 1 $((5 * ${RXB_TIMEOUT_SCALE:-1}))
rc=$?
dsh
# From the privRing set, a first switch is to the shRing set: on a slow
# (debug) kernel TCP hovers near the threshold and the set may flap back
# before a snapshot sees it.
[ $rc = 0 ] || [ $((sw - sw0)) -ge 1 ] && rc=0
ktap_print_msg "under TCP: dsh_shared $shared, switches $((sw - sw0)), samples ${RXB_S[dsh_samples]}, high tput ${RXB_S[dsh_tput_high]}, high pressure ${RXB_S[dsh_pressure_high]}"
ktap_test_result "under TCP above $TPUT Mbit/s the NIC switches to the shRing set" [ $rc = 0 ]
wait "$RXB_IPERF_PID"
ktap_test_result "the TCP streams survived the switch" \
	rxb_iperf_check "$RXB_TMP/tcp.json" $? "TCP across the switch"

# 5
wait_shared 0 5
rc=$?
dsh
ktap_print_msg "idle again: dsh_shared $shared, switches $((sw - sw0))"
ktap_test_result "idle again: back to the privRing set (>= 2 switches)" \
	[ $rc = 0 -a $((sw - sw0)) -ge 2 ]

# 6, 7: queue 1's consumer stops with packets waiting (overloaded); the
# traffic goes on at full rate through queue 0: the NIC must not share.
ports1=$(rxb_ports_for 1 2) || rxb_bail "no UDP source ports for queue 1"
rxb_knob_set rxb1 1 stall 1
rxb_udp_flows "$NS0" "$RXB_IP1" 50 $ports1
rxb_in rxb1 ethtool -X rxb1 weight 1 0 >/dev/null
rxb_sleep 0.3
dsh
sw1=$sw ov0=${RXB_S[dsh_overloaded]:-0} hi0=${RXB_S[dsh_tput_high]:-0}
rxb_iperf "$RXB_TMP/tcp2.json" 3 -P 4
rc=$?
dsh
ov=$((${RXB_S[dsh_overloaded]:-0} - ov0)) hi=$((${RXB_S[dsh_tput_high]:-0} - hi0))
ktap_print_msg "queue 1 stopped, TCP through queue 0: samples with high throughput $hi, overloaded $ov; dsh_shared $shared, switches $((sw - sw1))"
ktap_test_result "a stopped queue with packets waiting is seen overloaded (>= 16 high-throughput samples)" \
	[ $rc = 0 -a $ov -gt 0 -a $hi -ge 16 ]
ktap_test_result "with a queue overloaded the NIC stays on the privRing set" \
	[ "$shared" = 0 -a "$sw" = "$sw1" ]
rxb_in rxb1 ethtool -X rxb1 default >/dev/null
rxb_knob_set rxb1 1 stall 0

# 8
ktap_test_result "every frame written was consumed exactly once" \
	rxb_wait_consumed rxb1

ktap_finished
