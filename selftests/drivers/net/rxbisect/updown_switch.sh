#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traffic after a port went down and up and the ring model was switched:
# the sequence of the kernel's stats.py (check_down: the port down, the
# netdev netlink family's qstats dumped while it is down, up again) and a
# switch of the module parameter ring_model, as kdrv_tests.sh runs them on
# 6.12.  rxb0 goes down and up under privring, then the model is switched
# through every model in turn (rxbisect first), rxb0 going down and up
# again under each; after each step a ping and a TCP transfer each way
# (iperf3, 4 streams: flows on several queues) must get through.  The
# qstats dump is done where the kernel has the family (6.9 on), the rest
# on every kernel.

source "$(dirname "$0")/lib.sh"

rxb_init ping iperf3 python3

NL="python3 $RXB_DIR/netdev_nl.py"
P=/sys/module/rxbisect/parameters

rxb_load || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
QSTATS=1
out=$(ip netns exec "$NS0" $NL has qstats-get 2>&1) ||
	{ QSTATS=; ktap_print_msg "no qstats dump: ${out#\# }"; }
models=$(rxb_models | grep -vx privring)
models="rxbisect $(grep -vx rxbisect <<<"$models" | tr '\n' ' ')"
ktap_set_plan $((2 + 2 * $(wc -w <<<"$models")))

# diag: what the ports' queues did, for a failure
diag() {
	local i
	for i in rxb0 rxb1; do
		rxb_in "$i" ethtool -S "$i" 2>/dev/null |
			grep -E '^ *(rx[0-9]+_(stack_packets|irqs|polls|packets|hw_packets|nobuf_drops|ring_full_drops|alloc_fails|borrowed|lent|ax_empty)|tx[0-9]+_packets|rx_(packets|polls|irqs|flushed|stopped_drops|nobuf_drops|ring_full_drops|skb_drops|dma_errors|refill_backoffs)):' |
			tr -s ' \n' ' ' | sed "s/^/# $i: /"
		echo
	done
}

# Two iperf3 servers in $NS1 for the whole test (5201: rxb0 -> rxb1, 5202:
# the client's -R, rxb1 -> rxb0), so that both directions run at once and
# no server is started (and waited for) per transfer.
for port in 5201 5202; do
	rxb_bg ip netns exec "$NS1" timeout 1800 iperf3 -s -p $port -B "$RXB_IP1" \
		>"$RXB_TMP/server$port" 2>&1
	rxb_wait_listen "$NS1" $port || rxb_bail "iperf3 server on port $port does not start"
done

# iperf_ok OUT RC WHAT: rxb_iperf_check, with the JSON read in bash (no
# python3 start per transfer): exit 0, no error, data received.
iperf_ok() {
	local out=$1 rc=$2 j bytes=0 bps=0 err=
	j=$(<"$out")
	[[ $j =~ \"error\":[[:space:]]*\"([^\"]*)\" ]] && err=${BASH_REMATCH[1]}
	[[ $j =~ \"sum_received\":[[:space:]]*\{[^}]*\"bytes\":[[:space:]]*([0-9]+)[^}]*\"bits_per_second\":[[:space:]]*([0-9.e+]+) ]] &&
		bytes=${BASH_REMATCH[1]} bps=${BASH_REMATCH[2]}
	ktap_print_msg "$3: exit $rc, $bps bit/s, $bytes bytes received${err:+, error: $err}"
	if [ "$rc" != 0 ] || [ -n "$err" ]; then
		tail -n 5 "$out" "$RXB_TMP"/server520? 2>/dev/null | sed 's/^/# /'
		return 1
	fi
	[ "$bytes" -gt 0 ] && [ "${bps//[0.]/}" != "" ]
}

# traffic WHAT: ping, then a TCP transfer each way (at the same time); one
# result
traffic() {
	local ok=1 rf rr pf pr
	rxb_ping_ok "$NS0" "$RXB_IP1" 3 || ok=
	if [ -n "$ok" ]; then
		ip netns exec "$NS0" timeout 45 iperf3 -c "$RXB_IP1" -p 5201 -t 1 --json \
			-P 4 --connect-timeout 5000 >"$RXB_TMP/fwd" 2>&1 &
		pf=$!
		ip netns exec "$NS0" timeout 45 iperf3 -c "$RXB_IP1" -p 5202 -t 1 --json \
			-P 4 -R --connect-timeout 5000 >"$RXB_TMP/rev" 2>&1 &
		pr=$!
		wait $pf
		rf=$?
		wait $pr
		rr=$?
		iperf_ok "$RXB_TMP/fwd" $rf "rxb0 -> rxb1" || ok=
		iperf_ok "$RXB_TMP/rev" $rr "rxb1 -> rxb0" || ok=
	fi
	[ -n "$ok" ] || diag
	ktap_test_result "$1" [ -n "$ok" ]
}

# down_up: rxb0 down, its qstats dumped (device and queue scope), up again
down_up() {
	rxb_ip rxb0 link set rxb0 down
	if [ -n "$QSTATS" ]; then
		out=$(ip netns exec "$NS0" $NL qstats rxb0 2>&1) ||
			ktap_print_msg "qstats of rxb0 while down: $out"
	fi
	rxb_ip rxb0 link set rxb0 up
	rxb_static_neigh rxb0 rxb1 && rxb_wait_carrier rxb0 && rxb_wait_carrier rxb1
}

traffic "privring: before"
down_up || ktap_print_msg "privring: rxb0 down/up failed"
traffic "privring: after rxb0 down${QSTATS:+, qstats}, up"
for m in $models; do
	if ! echo "$m" > "$P/ring_model" || ! rxb_wait_carrier rxb1; then
		ktap_test_fail "$m: switched to after rxb0 down/up"
		ktap_test_fail "$m: after rxb0 down${QSTATS:+, qstats}, up"
		continue
	fi
	traffic "$m: switched to after rxb0 down/up"
	down_up || ktap_print_msg "$m: rxb0 down/up failed"
	traffic "$m: after rxb0 down${QSTATS:+, qstats}, up"
done

ktap_finished
