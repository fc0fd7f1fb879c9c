#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ensō pipes in userspace (/dev/rxbisect-enso, tools/enso): bad calls
# refused; the library's operations over pipes of every size, each
# wrapping, datagrams intact, in order, every loss a counted pipe-full
# drop; reactive notifications under a slow consumer (fewer than frames);
# flows not bound to a pipe reach the kernel stack, bound ones do not;
# two processes each see their own flows only; every bad register write
# refused and counted; the pinned-memory bound; the echo server; a
# process killed (-9) under traffic frees everything (every context and
# pipe can be taken again, its flow goes back to the kernel); the ring
# model changed under a holding process.  The datagrams come from a UDP
# socket in the peer's namespace (enso_tool send).  Transmit: frames sent
# through a TX pipe reach the peer's stack, every completion comes back,
# their bytes count in pcie_to_nic_data_bytes; every bad TX notification
# is refused and counted and nothing leaves; a process killed with TX in
# flight frees everything; the echo server answers through a TX pipe; the
# Maglev load balancer sends each flow to the backend its table picks; the
# benchmark's receiver (enso_bench) measures a second on each back end:
# Ensō pipes, UDP sockets and AF_XDP (copy mode) on privring.

source "$(dirname "$0")/lib.sh"

rxb_init python3
TOOLS=$RXB_DIR/../../../../tools/enso
T=$TOOLS/enso_tool
[ -x "$T" ] && [ -x "$TOOLS/enso_echo" ] && [ -x "$TOOLS/enso_lb" ] &&
	[ -x "$TOOLS/enso_bench" ] ||
	ktap_skip_all "tools/enso not built (make module builds it)"
ktap_set_plan 17

rxb_load queues=2 ring_model=enso rx_ring_size=256 enso_pipe_kb=32 ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
[ -c /dev/rxbisect-enso ] || rxb_bail "no /dev/rxbisect-enso"
mark=$(rxb_kmsg_mark enso_user)

# send PORT NPORTS COUNT LEN RATE: datagrams from rxb0's namespace.
send() { ip netns exec "$NS0" "$T" send "$RXB_IP1" "$@" >/dev/null; }

# start NAME CMD...: CMD in rxb1's namespace, in the background, output in
# $RXB_TMP/NAME; waits for its "ready" line.  PID in $BG.
start() {
	local name=$1 i
	shift
	ip netns exec "$NS1" "$@" >"$RXB_TMP/$name" 2>&1 &
	BG=$!
	RXB_PIDS+=("$BG")
	for i in {1..100}; do
		grep -q '^ready' "$RXB_TMP/$name" && return 0
		kill -0 "$BG" 2>/dev/null || break
		rxb_sleep 0.1
	done
	ktap_print_msg "$name did not start: $(cat "$RXB_TMP/$name")"
	return 1
}

# finish NAME: wait for it; its output as messages; its status.
finish() {
	local rc
	wait "$BG"
	rc=$?
	ktap_print_msg "$(grep -v '^ready' "$RXB_TMP/$1")"
	return $rc
}

# recv_run NAME PORT SIZES COUNT LEN RATE [recv options]: a receiver on
# pipes of SIZES, COUNT datagrams of LEN bytes to each port; its status.
recv_run() {
	local name=$1 port=$2 sizes=$3 count=$4 len=$5 rate=$6 np
	shift 6
	np=$(tr ',' '\n' <<<"$sizes" | wc -l)
	start "$name" "$T" recv rxb1 "$port" "$sizes" "$count" --timeout 60 "$@" ||
		return 1
	send "$port" "$np" "$count" "$len" "$rate"
	finish "$name"
}

# 1
ktap_test_result "bad calls refused (attach, pipe, bind, free, mmap)" \
	ip netns exec "$NS1" "$T" errors rxb1

# 2, 3: every pipe size, each wrapped twice or more (1472-byte payloads:
# 1536 bytes in the pipe), prefetch on the small ones.  640 datagrams fill
# the 256 KiB pipe 3.75 times: it still wraps twice when a receiver the
# machine's load holds back loses 45 % of them to a full pipe (400 left
# it at 1.99 with 15 % lost, on a loaded CI run).
wraps_ok() {
	awk '/^pipe/ { for (i = 1; i < NF; i++) if ($i == "wraps") w = $(i + 1);
		if (w < 2) bad = 1 } END { exit bad }' "$RXB_TMP/$1"
}
sizes_small=4096,8192,16384,32768,65536,131072,262144
sizes_big=524288,1048576,2097152
if rxb_kdep_only; then
	ktap_test_skip "receive chunk, confirm, free, prefetch over pipes of 4 KiB..256 KiB" "$RXB_KDEP_WHY"
	ktap_test_skip "the same over pipes of 512 KiB..2 MiB" "$RXB_KDEP_WHY"
else
	ktap_test_result "receive chunk, confirm, free, prefetch over pipes of 4 KiB..256 KiB: intact, in order, each wrapped" \
		eval 'recv_run small 9000 $sizes_small 640 1472 2500 --prefetch && wraps_ok small'
	ktap_test_result "the same over pipes of 512 KiB..2 MiB" \
		eval 'recv_run big 9100 $sizes_big 2900 1472 3000 && wraps_ok big'
fi

# 4: a slow consumer (10 ms per chunk): the NIC notifies batches
slow_ok() {
	recv_run slow 9200 2097152 2000 64 4000 --slow 10000 || return 1
	local n f
	n=$(awk '/^notifications/ { print $2 }' "$RXB_TMP/slow")
	f=$(awk '/^pipe/ { print $8 }' "$RXB_TMP/slow")
	ktap_print_msg "slow consumer: $n notifications for $f frames"
	[ "${n:-0}" -gt 0 ] && [ "$n" -lt $((f / 4)) ]
}
if rxb_kdep_only; then
	ktap_test_skip "reactive notifications under a slow consumer" "$RXB_KDEP_WHY"
else
	ktap_test_result "reactive notifications under a slow consumer: every datagram, notifications < frames / 4" \
		slow_ok
fi

# 5: flows not bound reach the kernel; a bound one does not
kernel_rx() {	# kernel_rx PORT N: datagrams a UDP socket on PORT gets
	rm -f "$RXB_TMP/krx.$1.done"
	ip netns exec "$NS1" python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.settimeout(0.2)
print("ready", flush=True)
n = 0
# until the sender is done, however slow its start, then 1.5 s more
while not os.path.exists(sys.argv[2]):
    try:
        s.recv(2048)
        n += 1
    except socket.timeout:
        pass
s.settimeout(1.5)
try:
    while True:
        s.recv(2048)
        n += 1
except socket.timeout:
    pass
print(n)' "$1" "$RXB_TMP/krx.$1.done" >"$RXB_TMP/krx.$1" 2>&1 &
	local p=$! i
	for i in {1..50}; do
		grep -q ready "$RXB_TMP/krx.$1" && break
		rxb_sleep 0.1
	done
	send "$1" 1 "$2" 64 1000
	: >"$RXB_TMP/krx.$1.done"
	wait $p
	tail -n 1 "$RXB_TMP/krx.$1"
}
steer_ok() {
	local bound unbound
	start hold "$T" hold rxb1 9300 1 65536 || return 1
	bound=$(kernel_rx 9300 20)
	unbound=$(kernel_rx 9301 20)
	kill "$BG"
	wait "$BG"
	ktap_print_msg "kernel socket: $bound of 20 on the bound port, $unbound of 20 on another"
	[ "$bound" = 0 ] && [ "$unbound" = 20 ] &&
		rxb_in rxb0 ping -q -c 2 -W 2 "$RXB_IP1" >/dev/null &&
		rxb_wait_consumed rxb1
}
ktap_test_result "a flow bound to a pipe bypasses the kernel stack, other traffic reaches it; the queues count the kernel's frames only" \
	steer_ok

# 6: two processes, each its own flows
two_ok() {
	local a b rc=0
	start procA "$T" recv rxb1 9400 4096,65536 500 --timeout 30 || return 1
	a=$BG
	start procB "$T" recv rxb1 9410 4096,65536 500 --timeout 30 || return 1
	b=$BG
	send 9400 2 500 200 2000 &
	send 9410 2 500 200 2000
	wait $!
	BG=$a; finish procA || rc=1
	BG=$b; finish procB || rc=1
	return $rc
}
if rxb_kdep_only; then
	ktap_test_skip "two processes on one port" "$RXB_KDEP_WHY"
else
	ktap_test_result "two processes on one port: each receives its own flows only, intact" \
		two_ok
fi

# 7
bad_ok() {
	start bad "$T" badwrite rxb1 9500 || return 1
	send 9500 1 4 64 0
	finish bad
}
if rxb_kdep_only; then
	ktap_test_skip "every bad register write refused and counted" "$RXB_KDEP_WHY"
else
	ktap_test_result "every bad register write refused and counted, the pipe unharmed" \
		bad_ok
fi

# 8: enso_user_kb bounds what a context pins; RLIMIT_MEMLOCK too
bound_ok() {
	local out rc
	echo 64 > /sys/module/rxbisect/parameters/enso_user_kb || return 1
	out=$(ip netns exec "$NS1" "$T" recv rxb1 9600 2097152 1 --timeout 1 2>&1)
	rc=$?
	echo 16384 > /sys/module/rxbisect/parameters/enso_user_kb
	ktap_print_msg "2 MiB pipe under enso_user_kb=64: $out"
	[ $rc = 1 ] && [[ $out == *"No buffer space"* ]] || return 1
	# charged to the process: RLIMIT_MEMLOCK of 64 KiB, no CAP_IPC_LOCK
	out=$(ip netns exec "$NS1" prlimit --memlock=65536:65536 \
		setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock \
		"$T" recv rxb1 9601 131072 1 --timeout 1 2>&1)
	rc=$?
	ktap_print_msg "128 KiB pipe under RLIMIT_MEMLOCK 64 KiB: $out"
	[ $rc = 1 ] && [[ $out == *"Cannot allocate memory"* ]] || return 1
	out=$(ip netns exec "$NS1" prlimit --memlock=262144:262144 \
		setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock \
		"$T" recv rxb1 9601 131072 1 --timeout 1 2>&1)
	ktap_print_msg "the same under 256 KiB: $(head -n1 <<<"$out")"
	[[ $out == ready* ]]
}
ktap_test_result "pinned memory bounded by enso_user_kb (ENOBUFS) and charged to RLIMIT_MEMLOCK (ENOMEM)" \
	bound_ok

# 9: the echo server
echo_ok() {
	local n
	start echo "$TOOLS/enso_echo" -i rxb1 -p 9700 -n 2 -s 16 -c 200 -t 60 ||
		return 1
	n=$(ip netns exec "$NS0" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
got = 0
for i in range(200):
    s.sendto(b"x%d" % i, (sys.argv[1], 9700 + i % 2))
    try:
        if s.recv(100) == b"x%d" % i:
            got += 1
    except socket.timeout:
        pass
print(got)' "$RXB_IP1")
	finish echo
	ktap_print_msg "echo server: $n of 200 answered"
	[ "$n" = 200 ]
}
if rxb_kdep_only; then
	ktap_test_skip "echo server" "$RXB_KDEP_WHY"
else
	ktap_test_result "echo server: every datagram answered" echo_ok
fi

# 10: kill -9 under traffic: everything freed, the flows back to the kernel
kill_ok() {
	local s n
	start hold "$T" hold rxb1 9800 16 65536 || return 1
	send 9800 16 500 1000 8000 &
	s=$!
	rxb_sleep 0.5
	kill -9 "$BG"
	wait "$BG" 2>/dev/null
	wait $s
	s=$(ip netns exec "$NS1" "$T" fill rxb1 2>&1) ||
		{ ktap_print_msg "$s"; return 1; }
	n=$(kernel_rx 9800 20)
	ktap_print_msg "after the kill: a kernel socket on the held port got $n of 20"
	[ "$n" = 20 ]
}
ktap_test_result "kill -9 under traffic: every context and pipe free again, the flow back to the kernel" \
	kill_ok

# 11: the ring model changes under a process holding pipes
switch_ok() {
	local rc=0 out
	start hold "$T" hold rxb1 9900 4 65536 || return 1
	send 9900 4 200 500 5000
	echo privring > /sys/module/rxbisect/parameters/ring_model || rc=1
	kill -0 "$BG" || rc=1
	send 9900 4 200 500 5000
	out=$(ip netns exec "$NS1" "$T" hold rxb1 9950 1 4096 2>&1)
	ktap_print_msg "a context on privring: $out"
	[[ $out == *"Operation not supported"* ]] || rc=1
	kill -9 "$BG"
	wait "$BG" 2>/dev/null
	echo enso > /sys/module/rxbisect/parameters/ring_model || rc=1
	ip netns exec "$NS1" "$T" fill rxb1 >/dev/null 2>&1 || rc=1
	return $rc
}
ktap_test_result "ring model changed under a holding process: detached, freed at exit; no context on privring" \
	switch_ok

# 12: TX pipe: datagrams built and sent by the application reach rxb0's
# stack; completions; the bytes the NIC read, on the interconnect counters
# (a receive buffer for all N: the NIC sends up to 32 at a scan, faster than
# python under a loaded host's TCG reads them, and the socket would drop)
udp_count() {	# udp_count IP PORT N OUT: datagrams there, up to N or idle
	ip netns exec "$NS0" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 8 << 20)
s.bind((sys.argv[1], int(sys.argv[2])))
s.settimeout(5)
print("ready", flush=True)
n = 0
try:
    while n < int(sys.argv[3]):
        s.recv(2048)
        n += 1
except socket.timeout:
    pass
print(n)' "$1" "$2" "$3" >"$4" 2>&1 &
	RXB_PIDS+=($!)
	UDP_PID=$!
	local i
	for i in {1..50}; do
		grep -q ready "$4" && return 0
		rxb_sleep 0.1
	done
	return 1
}
tx_ok() {
	local mac0 d0 d out n rc
	mac0=$(rxb_mac rxb0) || return 1
	d0=$(rxb_stat rxb1 pcie_to_nic_data_bytes) || return 1
	udp_count "$RXB_IP0" 9960 300 "$RXB_TMP/txrx" || return 1
	out=$(ip netns exec "$NS1" "$T" xmit rxb1 "$mac0" "$RXB_IP0" 9960 300 100)
	rc=$?
	wait "$UDP_PID"
	n=$(tail -n 1 "$RXB_TMP/txrx")
	d=$(( $(rxb_stat rxb1 pcie_to_nic_data_bytes) - d0 ))
	ktap_print_msg "$(tail -n 1 <<<"$out"); rxb0's socket got $n of 300; pcie_to_nic_data_bytes +$d"
	[ $rc = 0 ] && [ "$n" = 300 ] && [ "$d" = $((300 * 142)) ]
}
ktap_test_result "TX pipe: 300 frames sent reach the peer's socket, 300 completions, 300 x 142 bytes read by the NIC" \
	tx_ok

# 13: bad TX notifications and tail writes: refused, counted, nothing sent
txbad_ok() {
	local out rc d0 p0
	d0=$(rxb_stat rxb1 pcie_to_nic_data_bytes) || return 1
	p0=$(rxb_stat rxb0 rx_packets) || return 1
	out=$(ip netns exec "$NS1" "$T" txbad rxb1 2>&1)
	rc=$?
	rxb_sleep 0.2
	ktap_print_msg "$(grep -c '^ok' <<<"$out") checks passed; $(grep FAIL <<<"$out")"
	[ $rc = 0 ] && [ "$(rxb_stat rxb1 pcie_to_nic_data_bytes)" = "$d0" ] &&
		[ "$(rxb_stat rxb0 rx_packets)" = "$p0" ]
}
ktap_test_result "every bad TX notification and TX tail write refused and counted; nothing read or sent" \
	txbad_ok

# 14: a process killed with TX notifications in flight: everything freed
txkill_ok() {
	local mac0 s
	mac0=$(rxb_mac rxb0) || return 1
	start txkill "$T" xmit rxb1 "$mac0" "$RXB_IP0" 9961 1000000 1472 ||
		return 1
	rxb_sleep 0.5
	kill -9 "$BG"
	wait "$BG" 2>/dev/null
	s=$(ip netns exec "$NS1" "$T" fill rxb1 2>&1) ||
		{ ktap_print_msg "$s"; return 1; }
	ktap_print_msg "after the kill: $s"
}
ktap_test_result "kill -9 with TX in flight: every context and pipe free again" \
	txkill_ok

# 15: the Maglev load balancer: 24 flows to rxb1's port, each forwarded
# (destination MAC and address rewritten, checksums fixed) to the backend
# (an address of rxb0's) its lookup table picks, as enso_lb -L says
lb_ok() {
	local mac0 b ip flows exp got rc=0
	mac0=$(rxb_mac rxb0) || return 1
	b=192.0.2.11@$mac0,192.0.2.12@$mac0,192.0.2.13@$mac0
	for ip in 192.0.2.11 192.0.2.12 192.0.2.13; do
		ip -n "$NS0" addr add "$ip/32" dev rxb0 2>/dev/null
	done
	# the forwarded frames carry rxb0's own address as source
	ip netns exec "$NS0" sysctl -qw net.ipv4.conf.rxb0.accept_local=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.rxb0.rp_filter=0 ||
		return 1
	flows=$(for p in $(seq 40000 40023); do
		echo "$RXB_IP0 $p $RXB_IP1 9970 17"; done)
	exp=$("$TOOLS/enso_lb" -L -b "$b" -m 251 <<<"$flows" |
		awk '{ split($3, a, "@"); print $2, a[1] }' | sort) || return 1
	start lb "$TOOLS/enso_lb" -i rxb1 -p 9970 -b "$b" -m 251 -c 120 -t 60 ||
		return 1
	got=$(ip netns exec "$NS0" python3 -c '
import select, socket, sys
rx = []
for ip in ("192.0.2.11", "192.0.2.12", "192.0.2.13"):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((ip, 9970))
    rx.append((ip, s))
tx = []
for p in range(40000, 40024):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((sys.argv[1], p))
    tx.append(s)
for i in range(5):
    for s in tx:
        s.sendto(b"lb", (sys.argv[2], 9970))
seen = {}
n = 0
while n < 120:
    r, _, _ = select.select([s for _, s in rx], [], [], 5)
    if not r:
        break
    for ip, s in rx:
        if s in r:
            _, src = s.recvfrom(100)
            seen.setdefault(src[1], []).append(ip)
            n += 1
for p in sorted(seen):
    print(p, " ".join(sorted(set(seen[p]))), len(seen[p]))' "$RXB_IP0" "$RXB_IP1")
	finish lb || rc=1
	ktap_print_msg "$(awk '{ print $2 }' <<<"$exp" | sort | uniq -c | tr '\n' ' ')(expected flows per backend)"
	# every flow: 5 datagrams, all at the table's backend
	[ "$(awk 'NF == 3 && $3 == 5 { print $1, $2 }' <<<"$got" | sort)" = "$exp" ] ||
		{ ktap_print_msg "got: $(tr '\n' ';' <<<"$got")"; rc=1; }
	return $rc
}
if rxb_kdep_only; then
	ktap_test_skip "Maglev load balancer" "$RXB_KDEP_WHY"
else
	ktap_test_result "Maglev load balancer: 24 flows x 5 frames, each flow at the backend its table picks" \
		lb_ok
fi

# 16: enso_bench, a second on each back end: one line, every datagram of
# the window in order (1000/s from enso_tool send, with its time stamp);
# udp and xdp on privring (AF_XDP copy mode, on queue 0: RSS to it alone)
# A UDP socket may drop datagrams when its reader is starved (a loaded
# host): allowed, as long as the kernel counted each one (Udp
# RcvbufErrors); Ensō's pipes and AF_XDP lose none.
bench_one() {	# bench_one BACKEND ARGS...: 0 when its line is sound
	local b=$1 line drops=0 e0
	shift
	e0=$(rxb_udp_rcvbuf_errs)
	start "bench_$b" "$TOOLS/enso_bench" -b "$b" -i rxb1 -p 9980 -d 1 -T 30 "$@" ||
		return 1
	send 9980 1 1500 64 1000
	wait "$BG" || { ktap_print_msg "$b: $(cat "$RXB_TMP/bench_$b")"; return 1; }
	[ "$b" = udp ] && drops=$(($(rxb_udp_rcvbuf_errs) - e0))
	line=$(grep '^backend=' "$RXB_TMP/bench_$b")
	ktap_print_msg "$line"
	[ "$drops" = 0 ] || ktap_print_msg "$b: $drops datagrams dropped by the socket (RcvbufErrors)"
	awk -v drops="$drops" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	     END { exit !(v["msgs"] >= 500 && v["bad"] == 0 && v["lost"] <= drops &&
		     v["p50_ns"] > 0 && v["mpps"] > 0 && v["busy_ns"] != "") }' <<<"$line"
}
bench_ok() {
	local rc=0 obj=$RXB_DIR/progs/xdp_xsk.bpf.o
	bench_one enso || rc=1
	echo privring > /sys/module/rxbisect/parameters/ring_model || return 1
	rxb_static_neigh rxb0 rxb1
	bench_one udp || rc=1
	if [ -e "$obj" ] && ! "$TOOLS/enso_bench" -b xdp -i lo -p 1 -o /none -T 1 2>&1 |
		grep -q 'without libxdp'; then
		rxb_in rxb1 ethtool -X rxb1 equal 1 || rc=1
		bench_one xdp -o "$obj" || rc=1
		rxb_in rxb1 ethtool -X rxb1 default
	else
		ktap_print_msg "xdp back end not tried: no progs/xdp_xsk.bpf.o or no libxdp"
	fi
	echo enso > /sys/module/rxbisect/parameters/ring_model || rc=1
	rxb_static_neigh rxb0 rxb1
	return $rc
}
if rxb_kdep_only; then
	ktap_test_skip "enso_bench on each back end" "$RXB_KDEP_WHY"
else
	ktap_test_result "enso_bench: a second on Ensō pipes, UDP sockets and AF_XDP, one sound line each" \
		bench_ok
fi

# 17
ktap_test_result "no kernel warning" rxb_kmsg_clean "$mark"

ktap_finished
