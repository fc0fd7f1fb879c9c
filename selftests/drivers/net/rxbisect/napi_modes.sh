#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Threaded NAPI and busy polling under every ring model (6.1 and 6.12).
#
# Threaded: iperf3 runs while rxb1 switches to threaded NAPI (one kthread
# "napi/rxb1-<id>" per queue), goes through every ring model (new NAPI
# instances get their kthreads; pings go through each), and back to
# softirq NAPI; iperf3 completes.  Busy polling, with interrupts deferred
# (napi_defer_hard_irqs, gro_flush_timeout): a UDP ping-pong whose
# receiver sets SO_BUSY_POLL and SO_PREFER_BUSY_POLL (busypoll.py), for
# every model, then one that relies on net.core.busy_read/busy_poll with
# poll(): every reply comes back, the socket reports the NAPI id it was
# fed by (SO_INCOMING_NAPI_ID), and busy polling took packets off the
# rings itself (TcpExt BusyPollRxPackets).

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 python3

NQ=2
N=30		# ping-pongs per busy-poll round
BP="python3 $RXB_DIR/busypoll.py"
P=/sys/module/rxbisect/parameters

rxb_load queues=$NQ || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
models=$(rxb_models)
nm=$(wc -w <<<"$models")
ktap_set_plan $((2 * nm + 4))

threaded() { rxb_in rxb1 sh -c "echo $1 > /sys/class/net/rxb1/threaded"; }
napi_threads() { cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^napi/rxb1-'; }

# 1..nm+2: threaded NAPI under traffic
rxb_iperf_start "$RXB_TMP/thr.json" $((nm * 2 + 4)) ||
	rxb_bail "iperf3 did not start"
rxb_sleep 1
threaded 1
n=$(napi_threads)
ktap_test_result "threaded on under traffic: $n NAPI kthreads of rxb1 (>= $NQ)" \
	[ "$n" -ge $NQ ]
# nic_drops: frames both NICs dropped (no buffer, ring full).
nic_drops() {
	echo $(($(rxb_stat rxb0 rx_nobuf_drops) + $(rxb_stat rxb0 rx_ring_full_drops) +
		$(rxb_stat rxb1 rx_nobuf_drops) + $(rxb_stat rxb1 rx_ring_full_drops)))
}
for m in $models; do
	echo "$m" > $P/ring_model
	a=$(rxb_stat rxb1 rx_packets)
	d=$(nic_drops)
	# ICMP: TCP may sit in a retransmission backoff after a switch.  The
	# iperf3 stream may fill a ring meanwhile: a ping may be lost to a
	# drop the NICs count, never otherwise.  Each probe waits for its
	# own reply (rxb_ping_each), however late.
	got=$(rxb_ping_each "$NS0" "$RXB_IP1" 10 -W 5)
	d=$(($(nic_drops) - d))
	b=$(rxb_stat rxb1 rx_packets)
	ktap_print_msg "$m: $((b - a)) packets during 10 pings, $got replies, $d NIC drops," \
		"$(napi_threads) NAPI kthreads"
	ktap_test_result "threaded, $m: 10 pings through the threaded NAPI instances" \
		eval '[ "$got" -gt 0 ] && { [ "$got" = 10 ] || [ "$d" -gt 0 ]; }'
done
echo privring > $P/ring_model
threaded 0
wait "$RXB_IPERF_PID"
rxb_iperf_check "$RXB_TMP/thr.json" $? "iperf3 through the switches"
ktap_test_result "threaded off: iperf3 completed" [ $? = 0 ]

# busy MODE MODEL...: a busy-poll ping-pong round per MODEL
busy() {
	local mode=$1
	shift
	rm -f "$RXB_TMP"/ready.*
	rxb_bg ip netns exec "$NS1" timeout 100 $BP server "$RXB_IP1" 7000 $N \
		"$RXB_TMP" "$mode" "$@" >"$RXB_TMP/bp.$mode" 2>&1
	ip netns exec "$NS0" timeout 100 $BP client "$RXB_IP1" 7000 $N \
		"$RXB_TMP" $# >"$RXB_TMP/bpc.$mode" 2>&1
	wait "${RXB_PIDS[-1]}"
	ktap_print_msg "$(sed 's/^/client: /' "$RXB_TMP/bpc.$mode")"
}

# round_ok FILE MODEL: the server's line for MODEL shows N datagrams, a
# NAPI id and packets taken by busy polling
round_ok() {
	local l
	l=$(grep "\"model\": \"$2\"" "$1") || return 1
	ktap_print_msg "$l"
	[[ $l =~ \"napi_id\":\ ([0-9]+).*\"got\":\ ([0-9]+).*\"busy_rx\":\ ([0-9]+) ]] &&
		[ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" = $N ] &&
		[ "${BASH_REMATCH[3]}" -gt 0 ]
}

# Interrupts stay masked for a while after a poll (the NAPI instance's
# timer polls instead), as busy-polling deployments configure it: else the
# NIC's interrupt races the busy poller for every packet (COREC interrupts
# another consumer of the shared queue than the socket's, and poll() busy
# polls one round per call, re-arming the vector in between).
dq() { rxb_in rxb1 cat "/sys/class/net/rxb1/$1"; }
sq() { rxb_in rxb1 sh -c "echo $2 > /sys/class/net/rxb1/$1"; }
old_defer=$(dq napi_defer_hard_irqs)
old_flush=$(dq gro_flush_timeout)
sq napi_defer_hard_irqs 100
sq gro_flush_timeout 20000000

# nm+3..2nm+2: SO_BUSY_POLL under every model
# shellcheck disable=SC2086
busy sockopt $models
for m in $models; do
	ktap_test_result "SO_BUSY_POLL, $m: $N replies, NAPI id, busy-polled packets" \
		round_ok "$RXB_TMP/bp.sockopt" "$m"
done

# 2nm+3: net.core.busy_read and busy_poll, poll() then recv().  poll()
# busy polls one round per call and each round ends with busy_poll_stop()
# polling once more: a poll that finds nothing, which uses up one of
# napi_defer_hard_irqs.  100 of them go by between two pings under TCG
# about as often as not, and the vector, unmasked, then takes the next ping
# in softirq before the busy poller sees it (busy_rx 0 of 30 now and then).
# The deferral is made long enough to outlast a round, and poll() spins
# for up to 10 s, longer than any ping-pong of the round (busypoll.py's
# BUSY_US, the sockopt rounds' window, likewise): a server that sleeps
# between two pings has its next ping taken by the NAPI timer
# (gro_flush_timeout), not by busy polling, and with a window of 200 ms a
# host slow enough that every turnaround took longer saw busy_rx 0 of 30.
# Whatever the host's speed, the server then sleeps only before the first
# ping (the socket has no NAPI id yet) and where the scheduler preempts it.
old_read=$(sysctl -n net.core.busy_read)
old_poll=$(sysctl -n net.core.busy_poll)
sysctl -qw net.core.busy_read=10000000 net.core.busy_poll=10000000
sq napi_defer_hard_irqs 1000000
busy sysctl privring
sysctl -qw net.core.busy_read="$old_read" net.core.busy_poll="$old_poll"
ktap_test_result "net.core.busy_read/busy_poll, privring: $N replies, NAPI id, busy-polled packets" \
	round_ok "$RXB_TMP/bp.sysctl" privring

sq napi_defer_hard_irqs "$old_defer"
sq gro_flush_timeout "$old_flush"

# 2nm+4: interrupts again afterwards
ktap_test_result "softirq NAPI after busy polling: ping" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
