#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ring-model switches and single-queue restarts while a socket busy polls
# the port's NAPI instances.  A busy poller ends each round with
# busy_poll_stop(), which runs the driver's poll once more outside the
# busy-poll state: that poll completes NAPI and, after
# napi_complete_done(), still reads the ring model, unmasks the vector
# and may arm the refill timer.  napi_disable() returns as soon as NAPI
# is completed, so a switch that freed the model right after it would
# let that tail read freed memory (a general protection fault in
# privring_rx_pending() under busy_poll_stop(), seen once in CI with
# testpmd's AF_XDP busy polling): rxb_rx_stop() and rxb_queue_stop() wait
# a grace period for it.  RXB_BPSW_DELAY_US sets the delay (0..5000).
#
# On rxb1 (namespace NS1) a UDP socket with SO_BUSY_POLL spins on
# non-blocking recv(), each call one busy-poll round, while rxb0 sends it
# a datagram every few milliseconds (each one moves the socket to the
# NAPI instance of the moment).  Meanwhile the ring model of the ports is
# switched through every model RXB_BPSW_ROUNDS times (default 3) and,
# where debugfs has it, rxb1's queue 0 is restarted after each switch
# (the queue management API; models whose queues share rings refuse).
# Passes when every switch and restart succeeded, the socket received
# datagrams with a NAPI id (busy polling armed), the kernel logged no
# oops, KASAN report or warning, and pings pass afterwards.  The race is
# narrow, so the debugfs knob complete_delay holds every poll of rxb1
# for 2 ms after it completes NAPI: without the grace period the kernel
# faults at the first switch (6.1, measured 2026-11-28).

source "$(dirname "$0")/lib.sh"

ROUNDS=${RXB_BPSW_ROUNDS:-3}
[[ $ROUNDS =~ ^[1-9][0-9]{0,2}$ ]] || ROUNDS=3
P=/sys/module/rxbisect/parameters

rxb_init ping python3 dmesg
ktap_set_plan 4

rxb_load || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
models=$(rxb_models | tr '\n' ' ')
R0=$RXB_DBG/rxb1/q0/restart
[ -w "$R0" ] || R0=
# the kernel log from here on is checked at the end
dmesg_mark=$(rxb_kmsg_mark "busypoll_switch.sh: start") ||
	rxb_bail "cannot write to the kernel log"

# The busy poller (busypoll.py spin): until $RXB_TMP/stop exists
rxb_bg ip netns exec "$NS1" timeout 900 python3 "$RXB_DIR/busypoll.py" spin \
	"$RXB_IP1" 9 "$RXB_TMP" >"$RXB_TMP/spin" 2>&1
SPIN=${RXB_PIDS[-1]}
for ((i = 0; i < 100; i++)); do
	[ -e "$RXB_TMP/ready" ] && break
	rxb_sleep 0.1
done
[ -e "$RXB_TMP/ready" ] || rxb_bail "the busy poller does not start: $(<"$RXB_TMP/spin")"
# about 200 datagrams a second, to port 9, until the cleanup ends them
# (killing rxb_bg's subshell would leave the sender running)
rxb_bg rxb_udp_blast "$NS0" "$RXB_IP1" 180000 1 200 >/dev/null 2>&1

# Each poll of rxb1's queues that completes NAPI waits DELAY us before
# its tail: a switch's napi_disable() then nearly always returns inside a
# tail (the busy poller runs one every recv()).
DELAY=${RXB_BPSW_DELAY_US:-2000}
[[ $DELAY =~ ^[0-9]{1,4}$ ]] || DELAY=2000
for ((q = 0; q < $(rxb_channels rxb1); q++)); do
	rxb_knob_set rxb1 $q complete_delay "$DELAY" ||
		rxb_bail "cannot set complete_delay of rxb1's queue $q"
done
switches=0 want=0 restarts=0 want_r=0 t0=$SECONDS
for ((r = 0; r < ROUNDS; r++)); do
	for m in $models; do
		want=$((want + 1))
		echo "$m" > "$P/ring_model" && switches=$((switches + 1))
		rxb_sleep 0.2
		[ -n "$R0" ] || continue
		# models whose queues share rings refuse (EOPNOTSUPP)
		err=$( { echo 1 > "$R0"; } 2>&1) && restarts=$((restarts + 1))
		[[ $err == *"not supported"* ]] && continue
		want_r=$((want_r + 1))
		[ -z "$err" ] || ktap_print_msg "$m: restart of rxb1's queue 0: $err"
		rxb_sleep 0.2
	done
done
ktap_print_msg "$switches of $want switches${R0:+, $restarts of $want_r restarts of queue 0 of rxb1} in $((SECONDS - t0)) s"
for ((q = 0; q < $(rxb_channels rxb1); q++)); do
	rxb_knob_set rxb1 $q complete_delay 0
done
touch "$RXB_TMP/stop"
wait "$SPIN"
read -r calls got busy napi <"$RXB_TMP/spin"
ktap_print_msg "busy poller: $calls non-blocking recv() calls, $got datagrams, BusyPollRxPackets +${busy:-?}, NAPI id ${napi:-?}"

ktap_test_result "every ring-model switch and queue restart under busy polling succeeded" \
	eval '[ "$switches" = "$want" ] && [ "$restarts" = "$want_r" ]'
# Busy-poll rounds need a NAPI id on the socket (set as datagrams arrive
# through rxb1's NAPI instances).  How many packets they took is printed,
# not checked: with the tail delayed, interrupt-driven polls take nearly
# all of them.
ktap_test_result "the busy-polling socket received datagrams and has a NAPI id" \
	eval '[ "${got:-0}" -gt 0 ] && [[ ${napi:-} =~ ^[0-9]+$ ]] && [ "$napi" -gt 0 ]'
log=$(rxb_kmsg_clean "$dmesg_mark")
rc=$?
[ -z "$log" ] || ktap_print_msg "kernel log: $log"
ktap_test_result "no oops, KASAN report or warning in the kernel log" [ $rc = 0 ]
echo privring > "$P/ring_model"
rxb_wait_carrier rxb0 && rxb_wait_carrier rxb1
ktap_test_result "pings pass after the switches" rxb_ping_ok "$NS0" "$RXB_IP1" 3

ktap_finished
