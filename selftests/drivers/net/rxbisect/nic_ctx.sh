#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boundary at run time: with debug_ctx=1 every entry point of a ring
# model's hardware half (receive, doorbell service, timers, flow
# expiry, queue reset) checks that it runs in the emulated NIC's own
# context (its engine, its timers, its doorbell service), never inside a
# driver's call.  Traffic through every registered model, CEIO's slow path
# (fetches completed by the NIC's timer) and the header/data split's
# FETCH and FREE commands, with the count of violations (ethtool -S
# nic_ctx_violations) still 0 at the end of each.  The userspace tests
# (tools/testing/rxbisect, nic_ctx_check and <model>:doorbells_posted) show
# that the check catches a doorbell that does the NIC's work.

source "$(dirname "$0")/lib.sh"

rxb_init ping python3
models=$(rxb_models 2>/dev/null) || true
[ -n "$models" ] || { rxb_load || rxb_bail "cannot load the module"; models=$(rxb_models); }
ktap_set_plan $((2 + $(wc -w <<<"$models") + 2))

# A small llc_budget: CEIO's 8 flows below overrun their credits and take
# the on-NIC tier's slow path.
rxb_load queues=2 rx_ring_size=256 llc_budget=16384 debug_ctx=1 ||
	rxb_bail "cannot load the module with debug_ctx=1"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
P=/sys/module/rxbisect/parameters

# 1
ktap_test_result "debug_ctx reads back Y" [ "$(<$P/debug_ctx)" = Y ]

# violations: nic_ctx_violations of rxb0 (module-wide: every port shows it)
violations() { rxb_stat rxb0 nic_ctx_violations; }

# 2
v=$(violations)
ktap_print_msg "nic_ctx_violations after load: ${v:-missing}"
ktap_test_result "ethtool -S shows nic_ctx_violations, 0 after load" [ "${v:-x}" = 0 ]

# ctx_traffic NAME: ping both ways, 8 UDP flows of 300 datagrams (CEIO: both
# paths), then 0 violations and the pair still forwarding.
ctx_traffic() {
	local v ok=1
	rxb_ping_ok "$NS0" "$RXB_IP1" 3 || { ktap_print_msg "$1: ping rxb0 -> rxb1 failed"; ok=0; }
	rxb_udp_flows "$NS0" "$RXB_IP1" 300 {5001..5008} ||
		{ ktap_print_msg "$1: UDP flows failed"; ok=0; }
	rxb_ping_ok "$NS1" "$RXB_IP0" 3 || { ktap_print_msg "$1: ping rxb1 -> rxb0 failed"; ok=0; }
	v=$(violations)
	ktap_print_msg "$1: nic_ctx_violations ${v:-missing}; rxb1 rx_packets $(rxb_stat rxb1 rx_packets)"
	[ "$ok" = 1 ] && [ "${v:-x}" = 0 ]
}

# 3 .. 2 + number of models
for m in $models; do
	if ! echo "$m" > "$P/ring_model" || ! rxb_wait_carrier rxb1 ||
	   ! rxb_wait_carrier rxb0; then
		ktap_test_fail "$m: traffic with no NIC work outside the NIC's context (cannot switch)"
		continue
	fi
	ktap_test_result "$m: traffic with no NIC work outside the NIC's context" \
		ctx_traffic "$m"
done

# CEIO with every packet on the slow path: each one a fetch the NIC's
# timer completes after nicmem_fetch_ns.
echo ceio > "$P/ring_model" && rxb_wait_carrier rxb1 && rxb_wait_carrier rxb0
s0=$(rxb_qsum rxb1 ceio_slow)
echo on > "$P/ceio_force_slow"
ok=0
ctx_traffic "ceio, every packet slow" && ok=1
s1=$(rxb_qsum rxb1 ceio_slow)
echo off > "$P/ceio_force_slow"
ktap_print_msg "ceio slow-path packets: $((s1 - s0))"
ktap_test_result "ceio, every packet through the on-NIC tier: no NIC work outside its context" \
	eval '[ $ok = 1 ] && [ $((s1 - s0)) -gt 0 ]'

# The header/data split: FETCH, TX and FREE commands through the NIC's
# command processor.
echo privring > "$P/ring_model" && rxb_wait_carrier rxb1 && rxb_wait_carrier rxb0
ok=0
if echo on > "$P/nicmem_split" && rxb_wait_carrier rxb1 && rxb_wait_carrier rxb0; then
	c0=$(rxb_stat rxb1 nicmem_split_frames)
	ctx_traffic "privring, header/data split" && ok=1
	c1=$(rxb_stat rxb1 nicmem_split_frames)
	ktap_print_msg "split packets: $((${c1:-0} - ${c0:-0}))"
	[ $((${c1:-0} - ${c0:-0})) -gt 0 ] || ok=0
	echo off > "$P/nicmem_split"
fi
ktap_test_result "header/data split: FETCH/TX/FREE with no NIC work outside its context" [ $ok = 1 ]

ktap_finished
