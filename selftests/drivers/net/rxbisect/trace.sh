#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trace events: rxb_deliver, rxb_drop (with the cause) and rxb_poll fire
# with the device, queue and ring model.

source "$(dirname "$0")/lib.sh"

rxb_init ping
ktap_set_plan 4

T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d $T/events ] || ktap_skip_all "no tracefs"

rxb_load queues=2 ring_model=rxbisect || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
[ -d $T/events/rxbisect ] || rxb_bail "no rxbisect trace events"

# Room for every event of the run (the drops of a stalled queue would
# overwrite the deliveries of the pings in a small buffer).
kb0=$(sed 's/.*expanded: \([0-9]*\).*/\1/; s/ .*//' $T/buffer_size_kb)
echo 4096 > $T/buffer_size_kb
echo > $T/trace
echo 1 > $T/events/rxbisect/enable
rxb_ping "$NS0" "$RXB_IP1" 3 >/dev/null
rxb_stall_timeout 600000	# the watchdog must not resume it
rxb_knob_set rxb1 0 stall 1
rxb_in rxb1 ethtool -X rxb1 weight 1 0 >/dev/null
rxb_udp_blast "$NS0" "$RXB_IP1" 1500 4 >/dev/null
echo 0 > $T/events/rxbisect/enable
rxb_knob_set rxb1 0 stall 0
tr=$(cat $T/trace)
ktap_print_msg "$(grep -c rxb_ <<<"$tr") events"

ktap_test_result "rxb_deliver: device, model, queue, length, hash" \
	grep -qE 'rxb_deliver: dev=rxb1 model=rxbisect queue=[01] len=[0-9]+ hash=0x' <<<"$tr"
ktap_test_result "rxb_poll: packets, budget, refilled" \
	grep -qE 'rxb_poll: dev=rxb1 model=rxbisect queue=[01] packets=[0-9]+ budget=[0-9]+ refilled=[01]' <<<"$tr"
ktap_test_result "rxb_drop with its cause (stalled queue: ring_full or nobuf)" \
	grep -qE 'rxb_drop: dev=rxb1 model=rxbisect queue=0 cause=(ring_full|nobuf)' <<<"$tr"
ktap_test_result "events off: nothing more recorded" \
	eval 'echo > $T/trace; rxb_ping "$NS0" "$RXB_IP1" 2 >/dev/null; ! grep -q rxb_ $T/trace'

echo "$kb0" > $T/buffer_size_kb 2>/dev/null
ktap_finished
