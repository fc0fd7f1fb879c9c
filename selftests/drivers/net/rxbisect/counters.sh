#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Buffer pools and standard counters, one queue per port:
#  1..2nm for every ring model, two tests: each queue's page_pool holds
#         what the model can have outstanding: a socket that holds 768
#         datagrams (3/4 of a ring) and then frees them all at once sends
#         every page back into its pool, none to the page allocator
#         (rx_pp_released +0; the pool size, rxN_pp_size, is printed); and
#         its polls are counted (rx_polls and rx0_polls grew alike: the
#         driver counts them, not each model);
#  2nm+1 rx_packets and rx_bytes of ip -s link grow by what the socket
#         received, exactly;
#  2nm+2 DMA error completions (fault/dma_fail=1000) are driver drops:
#         rx_dropped grows by the datagrams sent, rx_packets does not;
#  2nm+3 a full engine FIFO (engine_stall and 4200 frames) counts its 104
#         drops in rx_fifo_errors (and rx_errors);
#  2nm+4 tearing down N queues costs as many synchronize_net() calls as
#         one queue (kprobe count over "ip link set down" with 1 and 8,
#         the least of 3 tries each).

source "$(dirname "$0")/lib.sh"

rxb_init

rxb_load queues=1 || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
[ -n "$MODELS" ] || rxb_bail "no $RXB_DBG/models"
nm=$(wc -w <<<"$MODELS")
ktap_set_plan $((2 * nm + 4))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# Two python3 started once (each start costs ~0.7 s in the VM), driven a
# line at a time:
#  - RCV in $NS1: a UDP socket on rxb1's port 9 with room for everything
#    sent, read only when asked: "base" notes rxb1's standard counters
#    (/sys/class/net/rxb1/statistics: ip -s link, rtnl); "hold STAT N"
#    waits (up to 10 s) until STAT grew by N since, then reads everything
#    the socket holds at once and answers "COUNT +rx_packets +rx_bytes
#    +rx_dropped"; "get STAT..." answers their values;
#  - a sender in $NS0 (rxb_sender_start, rxb_send): COUNT UDP datagrams
#    (64-byte payload) to rxb1's port 9 from one socket at about RATE a
#    second.
coproc RCV { ip netns exec "$NS1" timeout 900 python3 -u -c '
import os, socket, sys, time
st = "/sys/class/net/rxb1/statistics/"
def get(k):
    with open(st + k) as f:
        return int(f.read())
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)	# SO_RCVBUFFORCE
s.bind(("", 9))
s.setblocking(False)
names = ("rx_packets", "rx_bytes", "rx_dropped")
base = {}
print("ready")
for line in sys.stdin:
    w = line.split()
    if w[0] == "base":
        base = {k: get(k) for k in names}
        print("ok")
    elif w[0] == "hold":
        t = time.monotonic() + 10
        while get(w[1]) - base[w[1]] < int(w[2]) and time.monotonic() < t:
            time.sleep(0.02)
        n = 0
        try:
            while True:
                s.recv(4096)
                n += 1
        except BlockingIOError:
            pass
        print(n, *(get(k) - base[k] for k in names))
    elif w[0] == "get":
        print(*(get(k) for k in w[1:]))
'; }
RXB_PIDS+=("$RCV_PID")
rxb_sender_start "$NS0" "$RXB_IP1"
rcv() { echo "$*" >&"${RCV[1]}" && read -r -t 60 REPLY <&"${RCV[0]}" && echo "$REPLY"; }
read -r -t 60 r <&"${RCV[0]}"
[ "$r" = ready ] || rxb_bail "the receiver does not start"

# 1..2nm
N=768
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_test_fail "$m: cannot switch to it"; continue; }
	rxb_snap rxb1
	r0=${RXB_S[rx_pp_released]:-x} f0=${RXB_S[rx_pp_fresh]:-0}
	po0=${RXB_S[rx_polls]:-0} qo0=${RXB_S[rx0_polls]:-0}
	n0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
	rcv base >/dev/null
	sent=$(rxb_send $N 3000)
	# until rx_packets has grown by what was sent (up to 10 s), then the
	# socket frees them all at once
	# (or by what was sent less the NIC's drops: with rxBisect's 128
	# posted buffers a burst the host let pile up behind a descheduled
	# vCPU finds none left, a counted drop, not a page lost)
	rxb_snap rxb1
	nd=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - n0))
	read -r got p b d <<<"$(rcv hold rx_packets "$((${sent:-0} - nd))")"
	rxb_sleep 0.3
	rxb_snap rxb1
	r1=${RXB_S[rx_pp_released]:-y}
	nd=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - n0))
	ktap_print_msg "$m: pool ${RXB_S[rx0_pp_size]} pages; $sent sent, $got held then freed, $nd NIC drops;" \
		"pages from the page allocator +$((${RXB_S[rx_pp_fresh]:-0} - f0)), back to it +$((r1 - r0))"
	ktap_test_result "$m: a ring's worth of held pages all return to the pool" \
		[ "$r0" = "$r1" -a $((got + nd)) = "${sent:-x}" -a "$got" -gt 0 ]
	po=$((${RXB_S[rx_polls]:-0} - po0)) qo=$((${RXB_S[rx0_polls]:-0} - qo0))
	ktap_print_msg "$m: rx_polls +$po rx0_polls +$qo"
	ktap_test_result "$m: its polls are counted (rx_polls, rx0_polls)" \
		[ "$po" -gt 0 -a "$qo" = "$po" ]
	if [ "$m" = privring ]; then
		P_OK=0
		# 64-byte payload: 14 + 20 + 8 + 64 bytes a frame
		[ "$p" = "$got" -a "$b" = $((got * 106)) ] && P_OK=1
		ktap_print_msg "privring: ip -s link rx_packets +$p rx_bytes +$b; socket got $got"
	fi
done
echo privring > /sys/module/rxbisect/parameters/ring_model

# 2nm+1
ktap_test_result "rx_packets/rx_bytes (ip -s link) = what the socket received" \
	[ "${P_OK:-0}" = 1 ]

# 2nm+2: dma_fail: every completion carries a DMA error
rcv base >/dev/null
rxb_fault rxb1 dma_fail 1000
sent=$(rxb_send 200 2000)
read -r got p b d <<<"$(rcv hold rx_dropped "${sent:-0}")"
rxb_fault rxb1 dma_fail 0
ktap_print_msg "dma_fail=1000: $sent sent, rx_dropped +$d, rx_packets +$p, socket got $got"
ktap_test_result "DMA error completions: rx_dropped, not rx_packets" \
	[ "$d" = "$sent" -a "$p" = 0 -a "$got" = 0 ]

# 2nm+3: 4200 frames into a stalled inline engine: 4096 held, 104 dropped
frame=$(rxb_mac rxb1 | tr -d :)$(rxb_mac rxb0 | tr -d :)88b5$(printf '%092d' 0)
read -r fe0 e0 <<<"$(rcv get rx_fifo_errors rx_errors)"
rxb_fault rxb1 engine_stall 1
rxb_inject_n rxb1 4200 "$frame"
rxb_fault rxb1 engine_stall 0
read -r fe e <<<"$(rcv get rx_fifo_errors rx_errors)"
fe=$((fe - fe0)) e=$((e - e0))
ktap_print_msg "4200 frames into a stalled engine: rx_fifo_errors +$fe, rx_errors +$e"
ktap_test_result "engine FIFO drops in rx_fifo_errors" [ "$fe" = 104 -a "$e" = 104 ]
rxb_kill_bg

# 2nm+4: synchronize_net() calls of a link down, 1 queue vs 8
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
	# the least of 3 tries each: other tasks (a netns cleanup worker,
	# say) call it too, now and then inside the window, never less
	s1= s8=
	for i in 1 2 3; do
		a=$(syncs 1) b=$(syncs 8)
		[ -z "$s1" ] || [ "${a:-0}" -lt "$s1" ] && s1=$a
		[ -z "$s8" ] || [ "${b:-0}" -lt "$s8" ] && s8=$b
	done
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
