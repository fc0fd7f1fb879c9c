#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One receive queue restarted alone (the queue management API, debugfs
# q<N>/restart): under privRing, queue 0 restarts with a new page_pool
# twenty times while UDP flows go to queues 0 and 1.  Queue 1 loses
# nothing meanwhile; every frame for queue 0 is accounted for (received,
# dropped by the disabled queue, or written to a ring before its reset);
# queue 0 receives everything again afterwards; TCP runs through restarts
# of both queues; on kernels with the netdev netlink family the restarted
# queues are linked to their NAPI again with one page_pool each; a restart
# that fails (fault/reconfig_fail 6: its XDP memory model) fails before
# the queue stops, which keeps receiving.  Ring models whose queues share
# rings (shring) refuse with EOPNOTSUPP, a port that is down with
# ENETDOWN.  Same on 6.1 and 6.12.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 python3
ktap_set_plan 9

RATE=400	# datagrams per second per flow
N=1200		# per flow: 3 s

rxb_load queues=2 ring_model=privring || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
R0=$RXB_DBG/rxb1/q0/restart
R1=$RXB_DBG/rxb1/q1/restart
read -r sp0 < <(rxb_ports_for 0 1) && read -r sp1 < <(rxb_ports_for 1 1) ||
	rxb_bail "no source ports for queues 0 and 1"

# flows N: N datagrams from $sp0 and from $sp1 (queues 0, 1) at RATE each
flows() {
	ip netns exec "$NS0" timeout 60 python3 - "$RXB_IP1" "$1" $RATE "$sp0" "$sp1" <<'PY'
import socket, sys, time
dst, n, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
socks = []
for sp in map(int, sys.argv[4:]):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", sp))
    socks.append(s)
t0 = time.monotonic()
for i in range(n):
    for s in socks:
        s.sendto(b"rxbisect", (dst, 9))
    ahead = t0 + (i + 1) / rate - time.monotonic()
    if ahead > 0:
        time.sleep(ahead)
PY
}

# restarts FILE COUNT...: restart queue FILE COUNT times, 0.1 s apart, in
# the background; the successes in $RXB_TMP/restarts.  A child bash, which
# has sleep(1), not lib.sh's rxb_sleep.
restarts() {
	rxb_bg bash -c 'ok=0; for i in $(seq '"$2"'); do
		echo 1 > '"$1"' && ok=$((ok + 1)); sleep 0.1; done; echo $ok > '"$RXB_TMP/restarts"
}

d() { echo $((${RXB_S[$1]:-0} - ${B[$1]:-0})); }

rxb_snap rxb1 || rxb_bail "no ethtool -S"
declare -A B=()
for k in "${!RXB_S[@]}"; do B[$k]=${RXB_S[$k]}; done
restarts "$R0" 20
flows $N
wait "${RXB_PIDS[-1]}"
rxb_sleep 0.5
rxb_snap rxb1
ok=$(<"$RXB_TMP/restarts")
ktap_test_result "20 restarts of queue 0 under traffic ($ok succeeded)" [ "$ok" = 20 ]

# 2: queue 1 lost nothing
ktap_print_msg "queue 1: $N sent, $(d rx1_stack_packets) received"
ktap_test_result "queue 1 received every frame during queue 0's restarts" \
	[ "$(d rx1_stack_packets)" = $N ]

# 3: queue 0: received + written before a reset + NIC drops = sent
got0=$(d rx0_stack_packets)
hw0=$(d rx0_hw_packets)
st=$(d rx_stopped_drops)
nb=$(($(d rx0_nobuf_drops) + $(d rx0_ring_full_drops)))
ktap_print_msg "queue 0: $N sent, $hw0 written ($got0 received), $st dropped while disabled, $nb for want of buffers"
ktap_test_result "queue 0: every frame accounted for (written, or dropped by the NIC)" \
	[ $((hw0 + st + nb)) = $N ]

# 4: queue 0 receives everything again
for k in "${!RXB_S[@]}"; do B[$k]=${RXB_S[$k]}; done
flows 200
rxb_sleep 0.5
rxb_snap rxb1
ktap_test_result "after the restarts queue 0 received all of 200 ($(d rx0_stack_packets))" \
	[ "$(d rx0_stack_packets)" = 200 ]

# 5: TCP through restarts of both queues
rxb_iperf_start "$RXB_TMP/tcp.json" 6 -P 4 || rxb_bail "iperf3 did not start"
rxb_sleep 1
restarts "$R0" 10
restarts "$R1" 10
wait "$RXB_IPERF_PID"
rc=$?
ktap_test_result "TCP (iperf3 -P 4) through 10 restarts of each queue" \
	rxb_iperf_check "$RXB_TMP/tcp.json" $rc "iperf3"

# 6: queues and their NAPI, pools (netdev netlink, where the kernel has it)
out=$(ip netns exec "$NS1" python3 "$RXB_DIR/netdev_nl.py" napi rxb1 2 2>&1)
rc=$?
ktap_print_msg "$out"
if [ $rc = 4 ]; then
	ktap_test_skip "restarted queues linked to their NAPI, one page_pool each" "${out#\# }"
else
	ktap_test_result "restarted queues linked to their NAPI, one page_pool each" [ $rc = 0 ]
fi

# 7: a restart that cannot register its new pool's XDP memory model
# (fault/reconfig_fail step 6) fails before the queue stops: the queue
# keeps its pool and receives, and the next restarts work (a start that
# failed after the stop left NAPI disabled, and the next stop hung in
# napi_disable() holding RTNL)
restart_fault() {
	local out got
	rxb_fault rxb1 reconfig_fail 6
	out=$(echo 1 2>&1 > "$R0")
	rxb_fault rxb1 reconfig_fail 0
	ktap_print_msg "restart with fault step 6: ${out:-accepted}"
	[[ $out == *"Cannot allocate memory"* ]] || return 1
	rxb_snap rxb1
	for k in "${!RXB_S[@]}"; do B[$k]=${RXB_S[$k]}; done
	flows 100
	rxb_sleep 0.5
	rxb_snap rxb1
	got=$(d rx0_stack_packets)
	ktap_print_msg "queue 0 after the failed restart: $got of 100 received"
	# a stop of a queue whose NAPI is disabled would hang: only when it runs
	[ "$got" = 100 ] || return 1
	echo 1 > "$R0" && echo 1 > "$R0" || return 1
	rxb_snap rxb1
	for k in "${!RXB_S[@]}"; do B[$k]=${RXB_S[$k]}; done
	flows 100
	rxb_sleep 0.5
	rxb_snap rxb1
	ktap_print_msg "queue 0 after two more restarts: $(d rx0_stack_packets) of 100 received"
	[ "$(d rx0_stack_packets)" = 100 ]
}
ktap_test_result "a restart failing at its XDP memory model leaves queue 0 receiving, later restarts work" \
	restart_fault

# 8: shared rings: refused
echo shring > /sys/module/rxbisect/parameters/ring_model
out=$(echo 1 2>&1 > "$R0")
ktap_print_msg "shring: $out"
ktap_test_result "shring: a queue restart is refused (EOPNOTSUPP)" \
	grep -q "not supported" <<<"$out"

# 9: down
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_ip rxb1 link set rxb1 down
out=$(echo 1 2>&1 > "$R0")
ktap_print_msg "down: $out"
ktap_test_result "port down: a queue restart is refused (ENETDOWN)" \
	grep -q "Network is down" <<<"$out"

ktap_finished
