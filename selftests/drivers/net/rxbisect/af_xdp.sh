#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# AF_XDP on every ring model, with progs/rxb_xsk (libxdp's xsk API) and
# progs/xdp_xsk.c (native XDP, bpf_redirect_map() to an XSKMAP by queue,
# XDP_PASS where no socket is bound; loaded once, attached to rxb1 for the
# whole test, across model switches):
#   copy mode   an AF_XDP socket on rxb1's queue 1 (XDP_COPY) receives N
#               numbered UDP datagrams sent from rxb0's namespace on a flow
#               RSS steers to queue 1: all N, once each, content intact;
#               rxb1 counts N XDP redirects;
#   zero-copy   on privring and rxbisect (ZC_MODELS) a bind with
#               XDP_ZEROCOPY succeeds and receives the N datagrams in umem
#               buffers the NIC wrote (all N, intact, N redirects), the
#               queue holds umem buffers while bound (debugfs q1/xsk_held)
#               and none once the socket is closed; rxbisect with an
#               ax_assoc_map under which no other queue borrows from queue
#               1's Ax ring (queue 1 still borrows from queue 0's), its
#               default topology (every queue borrows from every Ax ring)
#               refused with a message; on every other model the bind is
#               refused with a message;
# then a model switch to a model without zero-copy while a zero-copy socket
# is bound (refused, the socket keeps receiving), zero-copy transmit on
# privring (N datagrams from rxb1's queue 1 Tx ring reach rxb0, intact),
# zero-copy teardown on both zero-copy models (queue 1 stalled under
# traffic so that the NIC's writes into umem buffers stay in the rings, a
# model switch and the socket's close tear those rings down: every umem
# buffer back to the socket, no page_pool page lost, no splat),
# xdp-bench (when it has an
# AF_XDP mode), bad input (a bind to a queue id out of range refused with a
# message while the port keeps forwarding) and every page_pool getting all
# its pages back.
#
# rxb_xsk and the BPF program are built on the host by "make module" (or
# here when they are missing; libxdp-dev).  RXB_XSK_FRAMES: datagrams
# per model (default 200).

source "$(dirname "$0")/lib.sh"

PROGS=$RXB_DIR/progs
XSK=$PROGS/rxb_xsk
XPROG=$PROGS/xdp_xsk.bpf.o
rxb_init ping bpftool

if [ ! -x "$XSK" ] || [ ! -e "$XPROG" ]; then
	make -s -C "$PROGS" >/dev/null 2>&1
	[ -x "$XSK" ] && [ -e "$XPROG" ] ||
		ktap_skip_all "progs/rxb_xsk is not built (make module; libxdp-dev)"
fi

rxb_load queues=2 || ktap_skip_all "cannot load the module"
MODELS=$(rxb_models | xargs)
NM=$(wc -w <<<"$MODELS")
ZC_MODELS="privring rxbisect"	# zero-copy AF_XDP (rxb_model_ops.umem_bufs)
ktap_set_plan $((NM * 2 + 8))

rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"

# The program, loaded once (slow under TCG), its XSKMAP pinned in a bpffs
# of this test, which "ip -n" and "ip netns exec" (mount namespaces of
# their own) see.
BPFFS=
xsk_cleanup() {
	[ -n "$BPFFS" ] && umount "$BPFFS"
	rxb_cleanup
}
trap xsk_cleanup EXIT
mkdir "$RXB_TMP/bpf" && mount -t bpf bpf "$RXB_TMP/bpf" && BPFFS=$RXB_TMP/bpf ||
	rxb_bail "cannot mount a bpffs"
# (pinmaps fails in the VM: the map is pinned by id instead)
bpftool prog load "$XPROG" "$BPFFS/xsk" type xdp || rxb_bail "cannot load progs/xdp_xsk.bpf.o"
mid=$(bpftool prog show pinned "$BPFFS/xsk" | grep -o 'map_ids [0-9]*' | cut -d' ' -f2)
[ -n "$mid" ] && bpftool map pin id "$mid" "$BPFFS/xsks" || rxb_bail "cannot pin the XSKMAP"
ip -n "$NS1" link set dev rxb1 xdpdrv pinned "$BPFFS/xsk" || rxb_bail "cannot attach the program to rxb1"

N=${RXB_XSK_FRAMES:-200}	# datagrams per model
Q=1				# the socket's queue
LEN=200				# bytes of UDP payload

# xsk_held: umem buffers rxb1's queue $Q holds (debugfs).
xsk_held() { rxb_knob rxb1 $Q xsk_held; }

# xsk_recv ARGS...: rxb_xsk recv on rxb1 (queue $Q, $N datagrams to port 9)
# in the background while rxb0's namespace sends them from $SPORT; its
# stdout and stderr in OUT, the umem buffers queue $Q held once the socket
# was ready in HELD; 0 when it got them all, intact.
# xsk_recv_start COUNT [ARGS...]: the umem receiver on rxb1 in the
# background (its pid in XSK_PID, its output in $RXB_TMP/xsk.out), waited
# for until its socket is bound ($RXB_TMP/ready) or it exits, 10 s at most.
xsk_recv_start() {
	local n=$1 i ready=$RXB_TMP/ready
	shift
	rm -f "$ready"
	ip netns exec "$NS1" timeout 90 "$XSK" recv -i rxb1 -n "$n" -p 9 "$@" \
		-m "$BPFFS/xsks" -t 60 -r "$ready" >"$RXB_TMP/xsk.out" 2>&1 &
	XSK_PID=$!
	for i in {1..100}; do
		[ -e "$ready" ] && break
		kill -0 $XSK_PID 2>/dev/null || break
		rxb_sleep 0.1
	done
}

OUT=
HELD=
xsk_recv() {
	local pid i rc ready=$RXB_TMP/ready
	xsk_recv_start $N "$@"
	pid=$XSK_PID
	HELD=$(xsk_held)
	[ -e "$ready" ] && ip netns exec "$NS0" timeout 60 "$XSK" send -d "$RXB_IP1" \
		-p 9 -s "$SPORT" -n $N -l $LEN -g 100 >/dev/null
	wait $pid
	rc=$?
	OUT=$(cat "$RXB_TMP/xsk.out")
	return $rc
}

# copy_case MODEL: copy mode, every datagram once and intact.
copy_case() {
	local r0 r1
	r0=$(rxb_qsum rxb1 xdp_redirect)
	xsk_recv -q $Q
	local rc=$?
	ktap_print_msg "$1: $OUT"
	[ $rc = 0 ] || return 1
	r1=$(($(rxb_qsum rxb1 xdp_redirect) - r0))
	[ "$r1" = $N ] || { ktap_print_msg "$1: rxb1 counted $r1 XDP redirects"; return 1; }
}

# zc_case MODEL: zero-copy, every datagram once and intact, the queue's
# ring posted from the umem; none held once the socket is gone.
zc_case() {
	local r0 r1 rc held
	r0=$(rxb_qsum rxb1 xdp_redirect)
	xsk_recv -q $Q -z
	rc=$?
	ktap_print_msg "$1: $OUT; queue $Q held $HELD umem buffers before the first datagram"
	[ $rc = 0 ] || return 1
	[ "$HELD" -gt 0 ] 2>/dev/null || return 1
	r1=$(($(rxb_qsum rxb1 xdp_redirect) - r0))
	[ "$r1" = $N ] || { ktap_print_msg "$1: rxb1 counted $r1 XDP redirects"; return 1; }
	held=$(xsk_held)
	[ "$held" = 0 ] || { ktap_print_msg "$1: queue $Q holds $held umem buffers after the socket closed"; return 1; }
}

# refused DESC ARGS...: rxb_xsk recv ARGS must fail to make its socket
# (exit 2) with a message.
refused() {
	local out rc
	out=$(ip netns exec "$NS1" timeout 60 "$XSK" recv -i rxb1 -n 1 -p 9 \
		-m "$BPFFS/xsks" -t 1 "${@:2}" 2>&1)
	rc=$?
	ktap_print_msg "$1: exit $rc: $out"
	[ $rc = 2 ] && [[ $out == *refused:* ]]
}

# zc_refused MODEL DMESG_PATTERN: a zero-copy bind on queue $Q is refused,
# and the driver says why in the log; or, where the kernel checks a port's
# xdp_features before it asks the driver (6.3+: NETDEV_XDP_ACT_XSK_ZEROCOPY,
# advertised per model and Ax association), the kernel refuses it and the
# port does not advertise zero-copy (netdev netlink).
zc_refused() {
	local msg mark feat
	mark=$(rxb_kmsg_mark "af_xdp.sh: $1 zero-copy")
	refused "$1 zero-copy" -q $Q -z || return 1
	msg=$(rxb_kmsg_since "$mark" | grep -o "AF_XDP zero-copy on queue $Q refused: .*" | tail -n1)
	ktap_print_msg "$1: log: $msg"
	[[ $msg == *"ring model $1: "*"$2"* ]] && return 0
	[ -z "$msg" ] || return 1
	feat=$(rxb_in rxb1 python3 "$RXB_DIR/netdev_nl.py" xdpfeat rxb1 "$1" 2>&1) || return 1
	ktap_print_msg "$1: refused by the kernel; xdp_features: $feat"
	feat=$(grep "^$1 " <<<"$feat")
	[ -n "$feat" ] && [[ $feat != *xsk-zerocopy* ]]
}

# 1..2*NM
for m in $MODELS; do
	# COREC: any consumer of a shared queue may claim a frame, and XDP
	# sees the claiming consumer's queue (its NAPI, its xdp_rxq_info),
	# so an AF_XDP user binds a socket on every consumer of the group.
	# The client binds one queue: one consumer per shared queue here.
	[ "$m" = corec ] && echo 1 > /sys/module/rxbisect/parameters/corec_consumers
	if ! echo "$m" > /sys/module/rxbisect/parameters/ring_model; then
		ktap_test_fail "$m: AF_XDP copy mode (cannot switch to the model)"
		ktap_test_fail "$m: AF_XDP zero-copy bind (cannot switch to the model)"
		continue
	fi
	rxb_static_neigh rxb0 rxb1
	SPORT=$(rxb_ports_for $Q 1) || rxb_bail "no UDP source port for queue $Q"
	ktap_test_result "$m: AF_XDP copy mode on queue $Q: $N datagrams, once each, intact" \
		copy_case "$m"
	if [[ " $ZC_MODELS " != *" $m "* ]]; then
		ktap_test_result "$m: XDP_ZEROCOPY bind refused (no zero-copy on this model)" \
			zc_refused "$m" "cannot take a queue's buffers from a umem"
		continue
	fi
	if [ "$m" = rxbisect ]; then
		# +1: every queue may borrow from queue 1's Ax ring
		ktap_test_result "rxbisect: XDP_ZEROCOPY bind refused while other queues borrow from queue $Q's Ax ring" \
			zc_refused rxbisect "other queues borrow from its Ax ring"
		# queue 0 borrows from no Ax ring but its own, queue 1 from both
		echo '0;0-1' > /sys/module/rxbisect/parameters/ax_assoc_map ||
			ktap_print_msg "cannot set ax_assoc_map"
		rxb_static_neigh rxb0 rxb1
	fi
	ktap_test_result "$m: AF_XDP zero-copy on queue $Q: $N datagrams, once each, intact, no umem buffer held after" \
		zc_case "$m"
	[ "$m" = rxbisect ] && echo default > /sys/module/rxbisect/parameters/ax_assoc_map
done

echo 0 > /sys/module/rxbisect/parameters/corec_consumers

# +1: a model switch under a bound zero-copy socket is refused, and the
# socket keeps receiving
switch_refused() {
	local pid i rc held ready=$RXB_TMP/ready
	xsk_recv_start $N -q $Q -z
	pid=$XSK_PID
	held=$(xsk_held)
	ktap_print_msg "queue $Q holds $held umem buffers with the socket bound"
	mark=$(rxb_kmsg_mark "af_xdp.sh: $m to shring")
	if echo shring > /sys/module/rxbisect/parameters/ring_model 2>/dev/null; then
		ktap_print_msg "the switch to shring was accepted"
		rc=1
	else
		ktap_print_msg "refused: $(rxb_kmsg_since "$mark" | grep -o 'reconfiguration refused: an AF_XDP.*' | tail -n1)"
		rc=0
	fi
	[ "$(cat /sys/module/rxbisect/parameters/ring_model)" = privring ] || rc=1
	[ "$held" -gt 0 ] 2>/dev/null || rc=1
	[ -e "$ready" ] && ip netns exec "$NS0" timeout 60 "$XSK" send -d "$RXB_IP1" \
		-p 9 -s "$SPORT" -n $N -l $LEN -g 100 >/dev/null
	wait $pid || rc=1
	ktap_print_msg "$(cat "$RXB_TMP/xsk.out")"
	return $rc
}
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_static_neigh rxb0 rxb1
SPORT=$(rxb_ports_for $Q 1) || rxb_bail "no UDP source port for queue $Q"
ktap_test_result "a switch to a model without zero-copy is refused while a zero-copy socket is bound" \
	switch_refused

# +1: zero-copy transmit: rxb_xsk xmit on rxb1's queue $Q, a UDP socket in
# rxb0's namespace checks every datagram
tx_case() {
	local pid i rc out ready=$RXB_TMP/uready mac held
	mac=$(rxb_in rxb0 cat /sys/class/net/rxb0/address)
	rm -f "$ready"
	ip netns exec "$NS0" timeout 60 $RXB_PY "$RXB_DIR/xsk_udp_recv.py" $N "$ready" >"$RXB_TMP/udp.out" 2>&1 &
	pid=$!
	for i in {1..100}; do
		[ -e "$ready" ] && break
		rxb_sleep 0.1
	done
	out=$(ip netns exec "$NS1" timeout 60 "$XSK" xmit -i rxb1 -q $Q -z -a "$RXB_IP1" \
		-d "$RXB_IP0" -D "$mac" -p 9 -s 4242 -n $N -l $LEN -g 2000 -t 20 2>&1)
	rc=$?
	ktap_print_msg "$out"
	wait $pid || rc=1
	ktap_print_msg "$(cat "$RXB_TMP/udp.out")"
	held=$(xsk_held)
	[ "$held" = 0 ] || { ktap_print_msg "queue $Q holds $held umem buffers after the socket closed"; rc=1; }
	return $rc
}
ktap_test_result "privring: AF_XDP zero-copy transmit on queue $Q: $N datagrams reach rxb0 intact" \
	tx_case

# +1: xdp-bench
if command -v xdp-bench >/dev/null && xdp-bench help 2>&1 | grep -qiE 'xsk|af_xdp'; then
	ktap_test_skip "xdp-bench AF_XDP mode (not wired into this test yet)"
else
	ktap_test_skip "xdp-bench AF_XDP mode (this xdp-bench has no AF_XDP mode: $(xdp-bench help 2>&1 |
		grep -oE '^ +[a-z-]+ ' | xargs | tr ' ' ,))"
fi

# +2: a queue id out of range, refused while the port forwards
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_static_neigh rxb0 rxb1
p0=$(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets)
rxb_bg ip netns exec "$NS0" ping -q -c 200 -i 0.01 -W 1 "$RXB_IP1"
bad=0
refused "queue 2 of 2" -q 2 || bad=1
refused "queue 1000" -q 1000 || bad=1
rxb_kill_bg
ktap_print_msg "rxb1 received $(($(rxb_in rxb1 cat /sys/class/net/rxb1/statistics/rx_packets) - p0)) frames meanwhile"
ktap_test_result "an AF_XDP bind to a queue id out of range is refused, the port keeps forwarding" \
	eval '[ $bad = 0 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 20'

# +2: zero-copy teardown with umem buffers in the rings, under traffic.
# zc_teardown MODEL OTHER: on MODEL a zero-copy socket on queue $Q, the
# queue stalled (debugfs stall) while datagrams for it arrive: the NIC
# writes them into umem buffers that no poll hands on.  Then, still under
# traffic, the ring model switches to OTHER (MODEL's rings torn down with
# those buffers in them), the NIC fills OTHER's rings the same way, and the
# socket closes (OTHER's rings rebuilt without the umem).  Every umem
# buffer must go back to the socket's pool (xsk_held 0), every page_pool
# destroyed meanwhile must get all its pages back (a umem page handed to
# one leaves it with a negative in-flight count) and the kernel log must
# stay clean.  Both zero-copy models are torn down in each direction.
# hw_grows N: wait (up to 10 s) until rxb1's queue $Q has written N more
# frames than when $HW0 was read.
hw_grows() {
	local i
	for i in {1..50}; do
		[ $(($(rxb_stat rxb1 rx${Q}_hw_packets) - HW0)) -ge "$1" ] && return 0
		rxb_sleep 0.2
	done
	return 1
}
# xsk_posted: wait (up to 10 s) until queue $Q's rings hold umem buffers:
# the driver posts them at the queue's first poll after the bind or the
# switch, which a stall set before it would keep from running.
xsk_posted() {
	local i
	for i in {1..50}; do
		[ "$(xsk_held)" -gt 0 ] 2>/dev/null && return 0
		rxb_sleep 0.2
	done
	return 1
}
zc_teardown() {
	local pid snd i rc=0 held0 held1 held mark log ready=$RXB_TMP/ready t0=$SECONDS
	echo "$1" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_print_msg "cannot switch to $1"; return 1; }
	rxb_static_neigh rxb0 rxb1
	SPORT=$(rxb_ports_for $Q 1) || { ktap_print_msg "no UDP source port for queue $Q"; return 1; }
	mark=$(rxb_kmsg_mark "af_xdp.sh: zero-copy teardown $1 -> $2")
	xsk_recv_start 1000000 -q $Q -z
	pid=$XSK_PID
	[ -e "$ready" ] || { ktap_print_msg "$1: no socket: $(cat "$RXB_TMP/xsk.out")"; return 1; }
	xsk_posted || ktap_print_msg "$1: no umem buffer posted after the bind"
	rxb_knob_set rxb1 $Q stall 1
	HW0=$(rxb_stat rxb1 rx${Q}_hw_packets)
	ip netns exec "$NS0" timeout 60 "$XSK" send -d "$RXB_IP1" -p 9 -s "$SPORT" \
		-n 100000 -l $LEN -g 2000 >/dev/null 2>&1 &
	snd=$!
	hw_grows 16 || { ktap_print_msg "$1: the NIC wrote nothing for queue $Q"; rc=1; }
	held0=$(xsk_held)
	# MODEL's rings go with the umem buffers the NIC wrote into them
	echo "$2" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_print_msg "$1 -> $2: the switch was refused"; rc=1; }
	# OTHER's rings post umem buffers at their queue's first poll: let
	# it run, then stall it again
	rxb_knob_set rxb1 $Q stall 0
	xsk_posted || ktap_print_msg "$2: no umem buffer posted after the switch"
	rxb_knob_set rxb1 $Q stall 1
	HW0=$(rxb_stat rxb1 rx${Q}_hw_packets)
	hw_grows 16 || { ktap_print_msg "$2: the NIC wrote nothing for queue $Q"; rc=1; }
	held1=$(xsk_held)
	# the socket goes: OTHER's rings go with theirs
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	for i in {1..50}; do
		held=$(xsk_held)
		[ "$held" = 0 ] && break
		rxb_sleep 0.2
	done
	rxb_knob_set rxb1 $Q stall 0
	kill $snd 2>/dev/null
	wait $snd 2>/dev/null
	ktap_print_msg "$1 -> $2: queue $Q held $held0 umem buffers at the switch, $held1 at the close, $held after"
	[ "$held" = 0 ] || rc=1
	# both teardowns had umem buffers in the rings
	[ "$held0" -gt 0 ] && [ "$held1" -gt 0 ] 2>/dev/null ||
		{ ktap_print_msg "no umem buffer in the rings at a teardown"; rc=1; }
	# the pools of OTHER's rings go too
	echo "$1" > /sys/module/rxbisect/parameters/ring_model || rc=1
	if [ -n "$RXB_PP_TRACE" ]; then
		rxb_pp_trace_check 15 || rc=1
	fi
	log=$(rxb_kmsg_clean "$mark") || { ktap_print_msg "kernel log: $log"; rc=1; }
	rxb_static_neigh rxb0 rxb1
	rxb_ping_ok "$NS0" "$RXB_IP1" 3 || { ktap_print_msg "no ping after the teardown"; rc=1; }
	ktap_print_msg "$1 -> $2: $((SECONDS - t0)) s"
	return $rc
}
rxb_stall_timeout 600000 || ktap_print_msg "cannot raise stall_timeout_ms"
# queue 0 borrows from no Ax ring but its own: zero-copy on rxbisect
echo '0;0-1' > /sys/module/rxbisect/parameters/ax_assoc_map ||
	ktap_print_msg "cannot set ax_assoc_map"
ktap_test_result "privring -> rxbisect under traffic with umem buffers written and unpolled: all back to the socket, no page_pool page lost, no splat" \
	zc_teardown privring rxbisect
ktap_test_result "rxbisect -> privring under traffic with umem buffers written and unpolled: all back to the socket, no page_pool page lost, no splat" \
	zc_teardown rxbisect privring
echo default > /sys/module/rxbisect/parameters/ax_assoc_map

# +3
ip -n "$NS1" link set dev rxb1 xdpdrv off
# a model switch destroys the pools the last model left
echo shring > /sys/module/rxbisect/parameters/ring_model
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_pp_released_result 15

ktap_finished
