#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CEIO ring model (Liu et al., SIGCOMM '25): a credit-gated fast path
# and an on-NIC memory tier behind it.  A small llc_budget (16 KiB: a few
# credits) so that numbered UDP datagrams of 8 flows take both paths and
# switch between them: each arrives exactly once and in order per flow
# (the merge of the two rings keeps the NIC's arrival order), and the
# counters show slow packets and transitions both ways.  The same with
# asynchronous fetches, with every packet forced slow, with credits
# released when the pages return to the page_pool, after switches to
# privring and back under traffic; bad input (a budget below one buffer
# or above 1 GiB, an unknown release mode, a forced slow path without a
# tier) is refused with a message and the device keeps forwarding.

source "$(dirname "$0")/lib.sh"

rxb_init ping python3 devlink
ktap_set_plan 9

rxb_load queues=2 ring_model=ceio rx_ring_size=256 llc_budget=16384 ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null

# ceio_seq NAME COUNT FLOWS RATE: numbered datagrams, exactly once (the
# NIC drops nothing: the tier takes what has no credit) and in order per
# flow; sets FAST, SLOW, TO_SLOW, TO_FAST to the counters' increase.
ceio_seq() {
	local name=$1 sent uniq dup fooo nic rcvbuf f0 s0 ts0 tf0 t0=$SECONDS
	rxb_snap rxb1
	f0=$(rxb_s_qsum ceio_fast) s0=$(rxb_s_qsum ceio_slow)
	ts0=$(rxb_s_qsum ceio_to_slow) tf0=$(rxb_s_qsum ceio_to_fast)
	rxb_udp_seq_counted "$RXB_TMP/$name.json" "$2" "$3" "$4"
	sent=$RXB_UDP_SENT uniq=$RXB_SEQ_UNIQ dup=$RXB_SEQ_DUP fooo=$RXB_SEQ_FOOO
	nic=$RXB_SEQ_NIC rcvbuf=$RXB_SEQ_SOCK
	FAST=$(($(rxb_s_qsum ceio_fast) - f0)) SLOW=$(($(rxb_s_qsum ceio_slow) - s0))
	TO_SLOW=$(($(rxb_s_qsum ceio_to_slow) - ts0))
	TO_FAST=$(($(rxb_s_qsum ceio_to_fast) - tf0))
	ktap_print_msg "$name: sent $sent, unique $uniq, duplicates $dup, NIC drops $nic, socket drops $rcvbuf, reordered within a flow $fooo; fast $FAST, slow $SLOW, fast->slow $TO_SLOW, slow->fast $TO_FAST; credits ${RXB_S[ceio_credits_total]}, host-resident max ${RXB_S[ceio_host_unconsumed_max]}, tier peak ${RXB_S[nicmem_held_peak]:-?}, congestion $(rxb_s_qsum ceio_congestion); $((SECONDS - t0)) s"
	[ "${sent:-0}" -gt 0 -a "${dup:-x}" = 0 -a "${fooo:-x}" = 0 -a \
	  "$nic" = 0 -a $((${uniq:-0} + rcvbuf)) = "${sent:-0}" -a \
	  "$rcvbuf" -lt $((sent / 20)) ]
}

# 1
fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: //p')
rxb_snap rxb1
ktap_test_result "ethtool -i reports ceio ($fw), ${RXB_S[ceio_credits_total]:-?} credits" \
	[ "$fw" = "emulated ceio" -a "${RXB_S[ceio_credits_total]:-0}" -gt 0 ]

# 2: a few credits for 8 flows: both paths, switches both ways
ok=0
ceio_seq sync 4000 8 4000 && [ $SLOW -gt 0 -a $TO_SLOW -gt 0 -a $TO_FAST -gt 0 ] && ok=1
ktap_test_result "UDP over 8 flows, sync fetch: exactly once, in order per flow, slow path and transitions counted" \
	[ $ok = 1 ]

# 3: asynchronous fetches, set under traffic
rxb_bg ip netns exec "$NS0" ping -q -i 0.01 -c 200 "$RXB_IP1" >/dev/null 2>&1
ok=0
rxb_dl_set ceio_fetch async && ceio_seq async 3000 8 4000 && [ $SLOW -gt 0 ] && ok=1
ktap_test_result "async fetch: exactly once, in order per flow" [ $ok = 1 ]

# 4: every packet on the slow path (credits 0), lossless and in order
ok=0
rxb_dl_set ceio_force_slow on && ceio_seq slow 2000 4 3000 &&
	[ $FAST = 0 -a $SLOW -gt 0 ] && ok=1
rxb_dl_set ceio_force_slow off
rxb_dl_set ceio_fetch sync
ktap_test_result "forced slow path: every packet through the tier, exactly once, in order" \
	[ $ok = 1 ]

# 5: credits back when the pages return to the page_pool: exactly once,
# in order, both paths, twice (a credit that did not come back with its
# page would leave the second run without fast packets: 4 credits in
# all), and the credits conserved after the traffic
ok=0
if rxb_dl_set ceio_release page && [ "$(rxb_dl_get ceio_release)" = page ] &&
   ceio_seq page 3000 8 4000 && [ $FAST -gt 0 -a $SLOW -gt 0 ] &&
   ceio_seq page2 1500 8 3000 && [ $FAST -gt 0 ]; then
	rxb_ping_ok "$NS0" "$RXB_IP1" 3 >/dev/null
	rxb_wait_consumed rxb1
	rxb_snap rxb1
	inuse=${RXB_S[ceio_credits_inuse]:-x} free=${RXB_S[ceio_credits_free]:-x}
	total=${RXB_S[ceio_credits_total]:-x}
	ktap_print_msg "page: credits in use $inuse, free $free of $total, host-resident max ${RXB_S[ceio_host_unconsumed_max]:-?}"
	[ $((inuse + free)) = "$total" ] && ok=1
fi
rxb_dl_set ceio_release batch
ktap_test_result "release=page: exactly once, in order per flow, fast packets again in a second run; credits conserved" \
	[ $ok = 1 ]

# 6, 7: switch models under traffic
rxb_bg ip netns exec "$NS0" ping -q -i 0.01 -c 300 "$RXB_IP1" >/dev/null 2>&1
ok=1
for m in privring ceio privring ceio; do
	rxb_dl_set ring_model $m || ok=0
	rxb_sleep 0.3
done
ktap_test_result "ring_model switched ceio <-> privring four times under traffic" \
	[ $ok = 1 -a "$(rxb_dl_get ring_model)" = ceio ]
ktap_test_result "after the switches: exactly once, in order per flow" \
	ceio_seq after 2000 8 3000

# 8: bad input refused with a message, nothing changed
bad=0
for v in 0 100 2147483648; do rxb_dl_check_bad llc_budget "$v"; done
rxb_dl_check_bad ceio_release foo
rxb_dl_check_bad ceio_fetch maybe
if rxb_dl_set nicmem_kb 0; then
	rxb_dl_check_bad ceio_force_slow on
	rxb_dl_set nicmem_kb 65536 || bad=1
else
	ktap_print_msg "nicmem_kb 0 refused"
	bad=1
fi
ktap_test_result "bad CEIO parameters refused with a message, values kept" [ $bad = 0 ]

# 9
ktap_test_result "the device still forwards, every frame consumed once" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 && rxb_wait_consumed rxb1'

ktap_finished
