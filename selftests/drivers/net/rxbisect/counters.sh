#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Buffer pools and standard counters, one queue per port:
#  1..nm  for every ring model: each queue's page_pool holds what the model
#         can have outstanding: a socket that holds 768 datagrams (3/4 of a
#         ring) and then frees them all at once sends every page back into
#         its pool, none to the page allocator (rx_pp_released +0); the
#         pool size (rxN_pp_size) is printed;
#  nm+1   rx_packets and rx_bytes of ip -s link grow by what the socket
#         received, exactly;
#  nm+2   DMA error completions (fault/dma_fail=1000) are driver drops:
#         rx_dropped grows by the datagrams sent, rx_packets does not;
#  nm+3   a full engine FIFO (engine_stall and 4200 frames) counts its 104
#         drops in rx_fifo_errors (and rx_errors);
#  nm+4   tearing down N queues costs as many synchronize_net() calls as
#         one queue (kprobe count over "ip link set down" with 1 and 8).

source "$(dirname "$0")/lib.sh"

rxb_init

rxb_load queues=1 || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
[ -n "$MODELS" ] || rxb_bail "no $RXB_DBG/models"
nm=$(wc -w <<<"$MODELS")
ktap_set_plan $((nm + 4))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# link STAT: rxb1's standard counter STAT (ip -s link, rtnl).
link() { rxb_in rxb1 cat "/sys/class/net/rxb1/statistics/$1"; }

# hold_recv: a UDP socket on rxb1's port 9 with room for everything sent,
# that reads nothing until $RXB_TMP/done exists, then reads all, writes the
# count to $RXB_TMP/count and closes.
hold_recv() {
	rm -f "$RXB_TMP/ready" "$RXB_TMP/done" "$RXB_TMP/count"
	cat > "$RXB_TMP/hold.py" <<-'EOF'
	import os, socket, sys, time
	d = sys.argv[1]
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)	# SO_RCVBUFFORCE
	s.bind(("", 9))
	open(d + "/ready", "w").close()
	while not os.path.exists(d + "/done"):
	    time.sleep(0.05)
	s.setblocking(False)
	n = 0
	try:
	    while True:
	        s.recv(4096)
	        n += 1
	except BlockingIOError:
	    pass
	s.close()
	with open(d + "/count.tmp", "w") as f:
	    f.write(str(n))
	os.rename(d + "/count.tmp", d + "/count")
	EOF
	rxb_bg ip netns exec "$NS1" timeout 120 python3 "$RXB_TMP/hold.py" "$RXB_TMP"
	for i in $(seq 50); do
		[ -e "$RXB_TMP/ready" ] && return 0
		sleep 0.2
	done
	return 1
}

# hold_end: let the socket read and close; prints its count.
hold_end() {
	touch "$RXB_TMP/done"
	for i in $(seq 50); do
		[ -e "$RXB_TMP/count" ] && { cat "$RXB_TMP/count"; return 0; }
		sleep 0.2
	done
	echo -1
}

# 1..nm
N=768
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_test_fail "$m: cannot switch to it"; continue; }
	hold_recv || { ktap_test_fail "$m: the receiver does not start"; continue; }
	rxb_snap rxb1
	r0=${RXB_S[rx_pp_released]:-x} f0=${RXB_S[rx_pp_fresh]:-0}
	p0=$(link rx_packets) b0=$(link rx_bytes)
	sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" $N 1 3000)
	# until rx_packets has grown by what was sent since p0 (up to 10 s;
	# rxb_wait_rx would count from after the blast and always wait 10 s)
	for i in $(seq 50); do
		[ $(($(link rx_packets) - p0)) -ge "${sent:-0}" ] && break
		sleep 0.2
	done
	got=$(hold_end)
	rxb_kill_bg
	sleep 0.3
	rxb_snap rxb1
	r1=${RXB_S[rx_pp_released]:-y}
	p=$(($(link rx_packets) - p0)) b=$(($(link rx_bytes) - b0))
	ktap_print_msg "$m: pool ${RXB_S[rx0_pp_size]} pages; $sent sent, $got held then freed;" \
		"pages from the page allocator +$((${RXB_S[rx_pp_fresh]:-0} - f0)), back to it +$((r1 - r0))"
	ktap_test_result "$m: a ring's worth of held pages all return to the pool" \
		[ "$r0" = "$r1" -a "$got" = "$sent" ]
	if [ "$m" = privring ]; then
		P_OK=0
		# 64-byte payload: 14 + 20 + 8 + 64 bytes a frame
		[ "$p" = "$got" -a "$b" = $((got * 106)) ] && P_OK=1
		ktap_print_msg "privring: ip -s link rx_packets +$p rx_bytes +$b; socket got $got"
	fi
done
echo privring > /sys/module/rxbisect/parameters/ring_model

# nm+1
ktap_test_result "rx_packets/rx_bytes (ip -s link) = what the socket received" \
	[ "${P_OK:-0}" = 1 ]

# nm+2: dma_fail: every completion carries a DMA error
hold_recv || ktap_print_msg "the receiver does not start"
p0=$(link rx_packets) d0=$(link rx_dropped)
rxb_fault rxb1 dma_fail 1000
sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" 200 1 2000)
for i in $(seq 25); do
	[ $(($(link rx_dropped) - d0)) -ge 200 ] && break
	sleep 0.2
done
rxb_fault rxb1 dma_fail 0
got=$(hold_end)
rxb_kill_bg
p=$(($(link rx_packets) - p0)) d=$(($(link rx_dropped) - d0))
ktap_print_msg "dma_fail=1000: $sent sent, rx_dropped +$d, rx_packets +$p, socket got $got"
ktap_test_result "DMA error completions: rx_dropped, not rx_packets" \
	[ "$d" = "$sent" -a "$p" = 0 -a "$got" = 0 ]

# nm+3: 4200 frames into a stalled inline engine: 4096 held, 104 dropped
frame=$(rxb_mac rxb1 | tr -d :)$(rxb_mac rxb0 | tr -d :)88b5$(printf '%092d' 0)
fe0=$(link rx_fifo_errors) e0=$(link rx_errors)
rxb_fault rxb1 engine_stall 1
rxb_inject_n rxb1 4200 "$frame"
rxb_fault rxb1 engine_stall 0
fe=$(($(link rx_fifo_errors) - fe0)) e=$(($(link rx_errors) - e0))
ktap_print_msg "4200 frames into a stalled engine: rx_fifo_errors +$fe, rx_errors +$e"
ktap_test_result "engine FIFO drops in rx_fifo_errors" [ "$fe" = 104 -a "$e" = 104 ]

# nm+4: synchronize_net() calls of a link down, 1 queue vs 8
syncs() {	# QUEUES: prints the calls during "ip link set rxb1 down"
	rxb_in rxb1 ethtool -L rxb1 combined "$1" || return 1
	echo > "$SYNC_T/trace"
	rxb_ip rxb1 link set rxb1 down
	grep -c 'rxb_sync_net:' "$SYNC_T/trace"
	rxb_ip rxb1 link set rxb1 up
}
t=/sys/kernel/tracing
[ -e $t/kprobe_events ] || t=/sys/kernel/debug/tracing
SYNC_T=$t/instances/rxb-sync-$$
if echo 'p:rxb_sync_net synchronize_net' >> $t/kprobe_events 2>/dev/null &&
   mkdir "$SYNC_T" && echo 1 > "$SYNC_T/events/kprobes/rxb_sync_net/enable"; then
	s1=$(syncs 1) s8=$(syncs 8)
	ktap_print_msg "synchronize_net() at link down: $s1 with 1 queue, $s8 with 8"
	ktap_test_result "teardown of 8 queues: no more synchronize_net() than of 1" \
		[ -n "$s1" -a "$s1" = "$s8" ]
	echo 0 > "$SYNC_T/events/kprobes/rxb_sync_net/enable"
	rmdir "$SYNC_T"
	echo '-:rxb_sync_net' >> $t/kprobe_events
else
	rmdir "$SYNC_T" 2>/dev/null
	ktap_test_skip "teardown of 8 queues: no more synchronize_net() than of 1" "no kprobe events"
fi

ktap_finished
