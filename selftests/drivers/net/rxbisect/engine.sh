#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NIC engine placement: inline (in the sender's context) or a dedicated
# kernel thread bound to one CPU and fed by a lock-free ingress queue, like
# the seeds' emulator core; switching under traffic; invalid placements.
# Transmit: with an engine thread ndo_start_xmit only rings the doorbell
# and the sending NIC's thread does the TSO and the wire (tx<q>_engine);
# inline the sender does (tx<q>_engine stays); the Tx ring bounds what is
# posted: a 64-frame ring with the engine held off its CPU by a real-time
# hog drops without a qdisc (tx<q>_drops), and with one (mq) stops the
# queue (tx<q>_stops) until the engine's completions wake it
# (tx<q>_wakes); TCP completes through it, and a link down with frames
# posted sends them all (tx<q>_inflight back to 0 on every queue).
# Several pipelines (engines=2): one thread per CPU, each queue's frames
# on the pipeline that owns it (engine<i>_frames), switching models and
# pipelines under traffic, bad values refused with a message.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ps ethtool taskset chrt tc
ktap_set_plan 26

P=/sys/module/rxbisect/parameters
last=$(($(nproc) - 1))

# engine_cpus: "name:cpu" of every rxb-nic thread
engine_cpus() { ps -eo psr=,comm= | awk '$2 ~ /^rxb-nic\// { print $2 ":" $1 }' | sort; }

# txsum IF FIELD: tx<q>_FIELD of IF summed over its queues.
txsum() { rxb_snap "$1" && rxb_s_qsum "$2" tx; }

# inflight IF: frames posted on IF's Tx rings and not completed now,
# summed over its queues (tx<q>_inflight).
inflight() { txsum "$1" inflight; }

# wait_drained IF: wait (up to 10 s) until nothing is in flight on IF.
wait_drained() {
	local i f
	for i in {1..50}; do
		f=$(inflight "$1")
		[ "$f" = 0 ] && return 0
		rxb_sleep 0.2
	done
	ktap_print_msg "$1: inflight ${f:-unknown}"
	return 1
}

rxb_load queues=2 engine=cpu$last || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 1
t=$(engine_cpus)
ktap_print_msg "threads: $(echo $t)"
ktap_test_result "engine=cpu$last: one thread per port, on CPU $last" \
	[ "$t" = "$(printf 'rxb-nic/rxb0:%s\nrxb-nic/rxb1:%s' $last $last)" ]

# 2, 3, 4: traffic goes through the engine; the sender's (rxb0's) NIC
# thread does its transmit work: TSO on, each frame it took from the
# queues (tx<q>_engine) became one wire frame or more (tx<q>_packets)
tso=$(rxb_in rxb0 ethtool -k rxb0 | sed -n 's/^tcp-segmentation-offload: //p')
e0=$(rxb_stat rxb1 engine_frames)
t0=$(txsum rxb0 engine) p0=$(txsum rxb0 packets) d0=$(txsum rxb0 drops)
rxb_iperf "$RXB_TMP/tcp.json" 3
rc=$?
e1=$(rxb_stat rxb1 engine_frames)
t1=$(txsum rxb0 engine) p1=$(txsum rxb0 packets) d1=$(txsum rxb0 drops)
ktap_print_msg "engine_frames +$((e1 - e0)), rx_fifo_drops $(rxb_stat rxb1 rx_fifo_drops)"
ktap_test_result "TCP through the dedicated engine" rxb_iperf_check "$RXB_TMP/tcp.json" $rc "TCP, engine thread"
# At least a frame a 1500 bytes received: a count, whatever the rate.
ktap_test_result "the engine processed the frames (engine_frames grows)" \
	eval '[ $((e1 - e0)) -gt 0 ] && [ $((e1 - e0)) -ge $((IPERF_BYTES / 1500)) ]'
ktap_print_msg "rxb0 (TSO $tso): tx_engine +$((t1 - t0)), tx_packets +$((p1 - p0)), tx_drops +$((d1 - d0))"
ktap_test_result "the sending NIC's engine thread did the Tx work (tx<q>_engine grows, TSO after the doorbell)" \
	eval '[ "$tso" = on ] && [ $((t1 - t0)) -gt 0 ] && [ $((p1 - p0)) -gt $((t1 - t0)) ] &&
	      [ $((d1 - d0)) = 0 ]'

# 5-9: XDP transmit with the engine thread.  XDP_TX, ndo_xdp_xmit (a
# redirect to the first port of a second rxbisect pair) and AF_XDP
# zero-copy Tx post their frames to the Tx queue's XDP Tx ring, and the
# NIC's engine thread (on CPU $last, test 1) gathers and sends them, its
# work counted exactly in tx<q>_engine (the ports send nothing else: no
# IPv6, static neighbours, the pings not answered); the frames arrive.  A
# full ring refuses frames: the target's NAPI stalled (nothing reclaimed),
# its 64-frame ring takes 64 of the 80 frames redirected to it, xdp_xmit
# 64 and xdp_xmit_errors 16, and holds them (tx<q>_inflight: posted, not
# reclaimed) until its NAPI runs again.  26: the page pools got every page
# back, XDP_TX's included, once the module is unloaded.
PROGS=$RXB_DIR/progs
XSK=$PROGS/rxb_xsk
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"
rxb_static_neigh rxb0 rxb1
N=20

# xdp_on IF PROG: PROG (progs/xdp_PROG.bpf.o) on IF.
xdp_on() { rxb_ip "$1" -force link set dev "$1" xdpdrv obj "$PROGS/xdp_$2.bpf.o" sec xdp; }

# settle IF FIELD COUNT: wait (up to 5 s) until IF's rx<q>_FIELD sum reaches
# COUNT; prints the sum.
settle() {
	local i v
	for i in {1..27}; do
		v=$(rxb_qsum "$1" "$2")
		[ "${v:-0}" -ge "$3" ] && break
		rxb_poll_wait $i
	done
	echo "${v:-0}"
}

xdp_tx_case() {
	local x0 e0 b0 x1 e1 b1 er
	xdp_on rxb1 tx || { ktap_print_msg "cannot attach xdp_tx to rxb1"; return 1; }
	x0=$(rxb_qsum rxb1 xdp_tx) e0=$(txsum rxb1 engine) b0=$(rxb_qsum rxb0 stack_packets)
	rxb_ping "$NS0" "$RXB_IP1" $N -i 0.02 -W 0.1 >/dev/null
	b1=$(settle rxb0 stack_packets $((b0 + N)))
	x1=$(rxb_qsum rxb1 xdp_tx) e1=$(txsum rxb1 engine) er=$(rxb_qsum rxb1 xdp_tx_errors)
	rxb_ip rxb1 link set dev rxb1 xdpdrv off
	ktap_print_msg "XDP_TX: xdp_tx +$((x1 - x0)) (errors $er), rxb1 tx_engine +$((e1 - e0)), rxb0 stack +$((b1 - b0))"
	XTX_ENGINE=$((e1 - e0))
	[ $((x1 - x0)) = $N ] && [ "$er" = 0 ] && [ $((b1 - b0)) = $N ]
}

redirect_case() {
	local l r0 p0 e0 r1 p1 e1 pe
	ip -n "$NS1" link add rxr0 index 1000 type rxbisect || return 1
	l=$(ip -n "$NS1" -o link show rxr0) || return 1
	[[ $l =~ rxr0@([a-z0-9]+): ]] || return 1
	ip -n "$NS1" link set dev "${BASH_REMATCH[1]}" name rxr1 || return 1
	RXB_NS[rxr0]=$NS1 RXB_NS[rxr1]=$NS1
	# the receiving end takes frames with XDP_PASS
	rxb_ip rxr0 link set rxr0 up && rxb_ip rxr1 link set rxr1 up || return 1
	xdp_on rxb1 redirect || { ktap_print_msg "cannot attach xdp_redirect to rxb1"; return 1; }
	r0=$(rxb_in rxr1 cat /sys/class/net/rxr1/statistics/rx_packets)
	p0=$(txsum rxr0 xdp_xmit) e0=$(txsum rxr0 engine)
	rxb_ping "$NS0" "$RXB_IP1" $N -i 0.02 -W 0.1 >/dev/null
	for i in {1..27}; do
		r1=$(rxb_in rxr1 cat /sys/class/net/rxr1/statistics/rx_packets)
		[ $((r1 - r0)) -ge $N ] && break
		rxb_poll_wait $i
	done
	p1=$(txsum rxr0 xdp_xmit) e1=$(txsum rxr0 engine) pe=$(txsum rxr0 xdp_xmit_errors)
	ktap_print_msg "ndo_xdp_xmit: rxr0 xdp_xmit +$((p1 - p0)) (errors $pe), tx_engine +$((e1 - e0)), rxr1 rx +$((r1 - r0))"
	[ $((p1 - p0)) = $N ] && [ "$pe" = 0 ] && [ $((r1 - r0)) = $N ] && [ $((e1 - e0)) = $N ]
}

ring_full_case() {
	local r0 p0 pe0 r1 p1 pe1 f q
	rxb_in rxr0 ethtool -G rxr0 tx 64 || return 1
	for q in 0 1; do rxb_knob_set rxr0 $q stall 1; done
	r0=$(rxb_in rxr1 cat /sys/class/net/rxr1/statistics/rx_packets)
	p0=$(txsum rxr0 xdp_xmit) pe0=$(txsum rxr0 xdp_xmit_errors)
	rxb_ping "$NS0" "$RXB_IP1" 80 -i 0.01 -W 0.1 >/dev/null
	for i in {1..27}; do
		r1=$(rxb_in rxr1 cat /sys/class/net/rxr1/statistics/rx_packets)
		[ $((r1 - r0)) -ge 64 ] && break
		rxb_poll_wait $i
	done
	rxb_sleep 0.3
	r1=$(rxb_in rxr1 cat /sys/class/net/rxr1/statistics/rx_packets)
	p1=$(txsum rxr0 xdp_xmit) pe1=$(txsum rxr0 xdp_xmit_errors) f=$(inflight rxr0)
	for q in 0 1; do rxb_knob_set rxr0 $q stall 0; done
	ktap_print_msg "full ring: rxr0 xdp_xmit +$((p1 - p0)), xdp_xmit_errors +$((pe1 - pe0)), rxr1 rx +$((r1 - r0)), in flight $f; after the stall: $(inflight rxr0)"
	[ $((p1 - p0)) = 64 ] && [ $((pe1 - pe0)) = 16 ] && [ $((r1 - r0)) = 64 ] && [ "$f" = 64 ] &&
		wait_drained rxr0
}

xsk_tx_case() {
	local pid i rc=0 out ready=$RXB_TMP/uready mac e0 e1
	mac=$(rxb_mac rxb0) || return 1
	rm -f "$ready"
	ip netns exec "$NS0" timeout 60 $RXB_PY "$RXB_DIR/xsk_udp_recv.py" $N "$ready" >"$RXB_TMP/udp.out" 2>&1 &
	pid=$!
	for i in {1..100}; do
		[ -e "$ready" ] && break
		rxb_sleep 0.1
	done
	e0=$(rxb_snap rxb1 && echo "${RXB_S[tx1_engine]}")
	out=$(ip netns exec "$NS1" timeout 60 "$XSK" xmit -i rxb1 -q 1 -z -a "$RXB_IP1" \
		-d "$RXB_IP0" -D "$mac" -p 9 -s 4242 -n $N -l 200 -g 2000 -t 20 2>&1) || rc=1
	wait $pid || rc=1
	e1=$(rxb_snap rxb1 && echo "${RXB_S[tx1_engine]}")
	ktap_print_msg "$out; $(cat "$RXB_TMP/udp.out"); rxb1 tx1_engine +$((e1 - e0))"
	[ $rc = 0 ] && [ $((e1 - e0)) = $N ]
}

if [ -e "$PROGS/xdp_tx.bpf.o" ] && [ -e "$PROGS/xdp_redirect.bpf.o" ] &&
   ip link help 2>&1 | grep -q xdpdrv; then
	XTX_ENGINE=
	ktap_test_result "engine: XDP_TX frames go back out of rxb1 (xdp_tx $N, rxb0's stack gets $N)" xdp_tx_case
	ktap_test_result "engine: rxb1's engine thread sent the XDP_TX frames (tx<q>_engine +$N)" \
		[ "$XTX_ENGINE" = $N ]
	ktap_test_result "engine: ndo_xdp_xmit to a second pair: posted, sent by rxr0's engine thread (xdp_xmit $N, tx<q>_engine +$N, rxr1 gets $N)" \
		redirect_case
	ktap_test_result "engine: a full XDP Tx ring (64, NAPI stalled) takes 64 of 80 (xdp_xmit_errors 16), all reclaimed after" \
		ring_full_case
	rxb_ip rxb1 link set dev rxb1 xdpdrv off
	ip -n "$NS1" link del rxr0 2>/dev/null
else
	for i in 1 2 3 4; do ktap_test_skip "engine: XDP transmit" "progs/ not built or ip has no XDP"; done
fi
if [ -x "$XSK" ]; then
	ktap_test_result "engine: AF_XDP zero-copy Tx on rxb1 queue 1: $N datagrams reach rxb0 intact, sent by its engine thread (tx1_engine +$N)" \
		xsk_tx_case
else
	ktap_test_skip "engine: AF_XDP zero-copy Tx" "progs/rxb_xsk is not built"
fi

# 10, 11: switching under traffic
rxb_iperf_start "$RXB_TMP/sw.json" 10 || rxb_bail "iperf3 did not start"
rxb_sleep 1
ok=1
for e in inline cpu0 inline cpu$last; do
	echo "$e" > $P/engine || { ktap_print_msg "engine $e failed"; ok=0; }
	rxb_sleep 1.5
done
ktap_test_result "engine inline/cpu0/inline/cpu$last under traffic" [ $ok = 1 ]
wait "$RXB_IPERF_PID"
ktap_test_result "the TCP stream survived the switches" \
	rxb_iperf_check "$RXB_TMP/sw.json" $? "TCP across engine switches"

# 12, 13
echo inline > $P/engine
ktap_test_result "engine=inline: no engine thread left" [ -z "$(engine_cpus)" ]
t0=$(txsum rxb0 engine) p0=$(txsum rxb0 packets)
rxb_in rxb0 ping -c 5 -i 0.2 -q "$RXB_IP1" >/dev/null
rc=$?
t1=$(txsum rxb0 engine) p1=$(txsum rxb0 packets)
ktap_print_msg "inline: ping exit $rc, rxb0 tx_engine +$((t1 - t0)), tx_packets +$((p1 - p0))"
ktap_test_result "engine=inline: the sender does the Tx work (tx<q>_engine unchanged)" \
	eval '[ $rc = 0 ] && [ $((t1 - t0)) = 0 ] && [ $((p1 - p0)) -ge 5 ]'

# 14: invalid placements
bad=0
for v in cpu99 cpu$((last + 1)) foo "" 3 -1; do
	echo "$v" > $P/engine 2>/dev/null && { ktap_print_msg "engine '$v' accepted"; bad=1; }
done
ktap_test_result "invalid engine values refused, value kept" \
	[ $bad = 0 -a "$(cat $P/engine)" = inline ]

# 15-18: several pipelines (engines=2, CPUs 0 and 1), each owning one of
# rxb1's two queues (queue q: pipeline q mod 2): UDP flows that RSS steers
# to queue 0 and to queue 1 all arrive, each queue's frames counted by its
# own pipeline (engine<i>_frames, exactly: nothing else reaches rxb1);
# models and pipelines switched under a TCP stream, with debug_ctx on: no
# NIC work outside the NIC's context (nic_ctx_violations stays 0; the
# steering at the port is the NIC's too); values whose CPUs are not all
# online, or out of range, refused with a message.

# pipes: "name:cpu" of every pipeline thread of rxb1
pipes() {
	ps -eo psr=,comm= | awk '$2 ~ /^rxb-nic[0-9]*\/rxb1$/ { print $2 ":" $1 }' |
		LC_ALL=C sort
}

# pipes_case: 10 datagrams from each of 4 flows to queue 0 and 4 to
# queue 1; waits (up to 5 s) until both queues have them and the
# pipelines' counts match.
pipes_case() {
	local p0 p1 r0 r1 e0 e1 dr0 dr1 de0 de1 i
	p0=$(rxb_ports_for 0 4) && p1=$(rxb_ports_for 1 4) || return 1
	rxb_snap rxb1
	r0=${RXB_S[rx0_stack_packets]} r1=${RXB_S[rx1_stack_packets]}
	e0=${RXB_S[engine0_frames]} e1=${RXB_S[engine1_frames]}
	rxb_udp_flows "$NS0" "$RXB_IP1" 10 $p0 $p1 >/dev/null
	for i in {1..27}; do
		rxb_snap rxb1
		dr0=$((RXB_S[rx0_stack_packets] - r0)) dr1=$((RXB_S[rx1_stack_packets] - r1))
		de0=$((RXB_S[engine0_frames] - e0)) de1=$((RXB_S[engine1_frames] - e1))
		[ $dr0 -ge 40 ] && [ $dr1 -ge 40 ] && [ $de0 = $dr0 ] && [ $de1 = $dr1 ] && break
		rxb_poll_wait $i
	done
	ktap_print_msg "queue 0: +$dr0 frames, engine0_frames +$de0 (CPU ${RXB_S[engine0_cpu]});" \
		"queue 1: +$dr1, engine1_frames +$de1 (CPU ${RXB_S[engine1_cpu]})"
	[ $dr0 -ge 40 ] && [ $dr1 -ge 40 ] && [ $de0 = $dr0 ] && [ $de1 = $dr1 ]
}

if [ "$last" -ge 1 ]; then
	echo cpu0 > $P/engine && echo 2 > $P/engines || ktap_print_msg "engines=2 failed"
	t=$(pipes)
	ktap_print_msg "pipelines: $(echo $t)"
	ktap_test_result "engine=cpu0 engines=2: two pipelines per port, on CPUs 0 and 1" \
		[ "$t" = "$(printf 'rxb-nic/rxb1:0\nrxb-nic1/rxb1:1')" ]
	ktap_test_result "engines=2: every queue's frames arrive, each queue's on its own pipeline (engine<i>_frames)" \
		pipes_case
	echo 1 > $P/debug_ctx
	v0=$(rxb_stat rxb1 nic_ctx_violations)
	rxb_iperf_start "$RXB_TMP/pipes.json" 10 || rxb_bail "iperf3 did not start"
	rxb_sleep 1
	ok=1
	for v in ring_model=shring ring_model=corec ring_model=enso ring_model=ceio \
		 ring_model=rxbisect engines=1 engine=cpu$last engine=cpu0 engines=2 \
		 ring_model=privring; do
		echo "${v#*=}" > "$P/${v%%=*}" || { ktap_print_msg "$v failed"; ok=0; }
		rxb_sleep 0.7
	done
	wait "$RXB_IPERF_PID"
	rc=$?
	v1=$(rxb_stat rxb1 nic_ctx_violations)
	echo 0 > $P/debug_ctx
	ktap_print_msg "nic_ctx_violations: ${v0:-missing} before, ${v1:-missing} after"
	ktap_test_result "engines=2: models and pipelines switched under a TCP stream, which survives; no NIC work outside its context" \
		eval '[ $ok = 1 ] && [ "${v0:-x}" = 0 ] && [ "${v1:-x}" = 0 ] &&
		      rxb_iperf_check "$RXB_TMP/pipes.json" $rc "TCP across model and pipeline switches"'
	bad=0
	for v in 0 17 x -1; do
		rxb_dl_set engines "$v" 2>/dev/null && { ktap_print_msg "engines '$v' accepted"; bad=1; }
	done
	out=$(rxb_dl_set engines $((last + 2)) 2>&1) && bad=1
	ktap_print_msg "engines $((last + 2)) from cpu0: $out"
	[[ $out == *"not all online"* ]] || bad=1
	out=$(rxb_dl_set engine cpu$last 2>&1) && bad=1
	ktap_print_msg "engine cpu$last with engines 2: $out"
	[[ $out == *"not all online"* ]] || bad=1
	[ "$(rxb_dl_get engines)" = 2 ] && [ "$(rxb_dl_get engine)" = cpu0 ] || bad=1
	echo 1 > $P/engines && echo inline > $P/engine
	ktap_test_result "engines: out of range or CPUs not all online refused with a message, values kept; inline leaves no pipeline" \
		eval '[ $bad = 0 ] && [ -z "$(pipes)" ]'
else
	for i in 1 2 3 4; do ktap_test_skip "engines=2" "one CPU"; done
fi

# 19-22: backpressure.  rxb0's Tx ring at 64 frames, both engines on
# CPU 0, held off it by a real-time hog, the test and its senders on CPU
# $last.  With no qdisc (noqueue, the default) a full ring drops, counted;
# with one (mq) the queue stops with 64 frames posted and the engine's
# completions wake it, nothing in flight (tx<q>_inflight) once the hog is
# gone (BQL's floor, where its sysfs is (6.1), above what 64 frames hold,
# so that the ring is what stops the queue).

# hog_start SECS: a real-time busy loop on CPU 0 for at most SECS, the RT
# throttle off meanwhile, so that it holds the engines off CPU 0 entirely
# (an engine's stop waits for it: kthread_stop()).
# From 6.12 a deadline server gives CPU 0's fair tasks 50 ms a second
# whatever the RT throttle: its runtime goes to 0 meanwhile too.
RT=/proc/sys/kernel/sched_rt_runtime_us
RT0=$(cat $RT)
FS=/sys/kernel/debug/sched/fair_server/cpu0/runtime
FS0=$(cat $FS 2>/dev/null)
hog_start() {
	echo -1 > $RT
	[ -z "$FS0" ] || echo 0 > $FS
	# timeout off CPU 0: the loop starves whatever else runs there
	timeout "$1" taskset -c 0 chrt -f 1 sh -c 'while :; do :; done' &
	HOG=$!
	RXB_PIDS+=("$HOG")
}
hog_stop() {
	kill "$HOG" 2>/dev/null
	wait "$HOG" 2>/dev/null
	[ -z "$FS0" ] || echo "$FS0" > $FS
	echo "$RT0" > $RT
}

# blast_hogged: UDP datagrams from rxb0 with the engines held off; sets
# SENT, and F, the frames in flight then
blast_hogged() {
	hog_start 20
	rxb_sleep 0.3
	SENT=$(rxb_udp_blast "$NS0" "$RXB_IP1" 1000 16)
	F=$(inflight rxb0)
	hog_stop
}

# wait_inflight IF: wait (up to 10 s) until frames are in flight on IF.
wait_inflight() {
	local i f
	for i in {1..50}; do
		f=$(inflight "$1")
		[ "${f:-0}" -gt 0 ] && { echo "$f"; return 0; }
		rxb_sleep 0.2
	done
	echo "${f:-0}"
	return 1
}

echo cpu0 > $P/engine
rxb_in rxb0 ethtool -G rxb0 tx 64 || ktap_print_msg "ethtool -G rxb0 tx 64 failed"
taskset -pc "$last" $$ >/dev/null
s0=$(txsum rxb0 stops) d0=$(txsum rxb0 drops)
blast_hogged
s1=$(txsum rxb0 stops) d1=$(txsum rxb0 drops)
ktap_print_msg "noqueue, 64-frame ring: $SENT datagrams sent, tx_drops +$((d1 - d0)), tx_stops +$((s1 - s0))"
ktap_test_result "no qdisc: a full Tx ring drops, counted (tx<q>_drops), never stops the queue" \
	eval '[ $((d1 - d0)) -gt 0 ] && [ $((s1 - s0)) = 0 ]'

rxb_in rxb0 tc qdisc replace dev rxb0 root mq || ktap_print_msg "tc qdisc replace dev rxb0 root mq failed"
rxb_in rxb0 sh -c 'for f in /sys/class/net/rxb0/queues/tx-*/byte_queue_limits/limit_min; do
	echo 10000000 > "$f"; done' 2>/dev/null
s0=$(txsum rxb0 stops) w0=$(txsum rxb0 wakes) d0=$(txsum rxb0 drops)
blast_hogged
wait_drained rxb0
drained=$?
s1=$(txsum rxb0 stops) w1=$(txsum rxb0 wakes) d1=$(txsum rxb0 drops)
ktap_print_msg "mq, 64-frame ring: $SENT datagrams sent, ${F:-unknown} frames in flight under the hog," \
	"tx_stops +$((s1 - s0)), tx_wakes +$((w1 - w0)), tx_drops +$((d1 - d0))"
ktap_test_result "a full Tx ring stops the queue, the engine's completions wake it (tx<q>_stops, tx<q>_wakes)" \
	eval '[ $((s1 - s0)) -gt 0 ] && [ $((w1 - w0)) -gt 0 ] && [ $((d1 - d0)) = 0 ]'
ktap_test_result "the frames posted under the hog all completed (tx<q>_inflight back to 0)" \
	eval "[ $drained = 0 ] && [ ${F:-0} -gt 0 ]"

rxb_iperf_start "$RXB_TMP/ring.json" 4 || rxb_bail "iperf3 did not start"
rxb_sleep 1
hog_start 1
rxb_sleep 1
hog_stop
wait "$RXB_IPERF_PID"
ktap_test_result "TCP through the 64-frame Tx ring, the engine held off for 1 s" \
	rxb_iperf_check "$RXB_TMP/ring.json" $? "TCP, 64-frame Tx ring"

# 23, 24, 25: frames in the ingress queue and posted to the Tx engine at
# teardown are not leaked: both links go down with the engines held off
# (rxb1's ingress queue full of frames, frames posted on rxb0), which
# processes and sends them (tx<q>_inflight 0); then unload with the engine
# running
hog_start 20
rxb_sleep 0.3
rxb_udp_blast "$NS0" "$RXB_IP1" 1000 16 >/dev/null &
f=$(wait_inflight rxb0)
# the engines' stop waits for the hog, gone a second later
(rxb_ip rxb1 link set rxb1 down && rxb_ip rxb0 link set rxb0 down) &
dpid=$!
rxb_sleep 1
hog_stop
wait "$dpid"
ktap_test_result "link down with the engine busy" [ $? = 0 ]
wait
ktap_print_msg "link down with ${f:-unknown} frames in flight; after: $(inflight rxb0)"
ktap_test_result "link down sent what was posted (tx<q>_inflight 0)" \
	eval '[ "${f:-0}" -gt 0 ] && [ "$(inflight rxb0)" = 0 ]'
taskset -pc "0-$last" $$ >/dev/null
ktap_test_result "unload with the engine running" rxb_unload
rxb_pp_released_result 15

ktap_finished
