#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NIC's header/data split into its memory (nicmem_split=on,
# drivers/net/rxbisect/nic_hds.c and hds.c, Documentation/rxbisect-nicmem.rst):
#   models    under each ring model whose buffers hold one packet, UDP
#             datagrams of a known pattern arrive intact (rxb1's receive
#             checksum offload off: the stack verifies every datagram
#             against the bytes delivered), the NIC split each one, and
#             nicmem_host_bytes = headers and split records + the payloads
#             fetched for the sockets, nicmem_nic_bytes = the payloads;
#             the I/O working set's bytes are whole frames (the payload
#             fetched behind the headers: io_ws_bytes ~ 1058 a buffer);
#             a TCP stream (iperf3) under privring;
#   nat       a NAT program (progs/xdp_nat.c, xdp.frags) on rxb1 rewrites
#             destination address and port and sends the packets back
#             (XDP_TX): rxb0 receives them rewritten, checksums valid, the
#             payload intact; rxb1 fetched no payload byte to the host
#             (nicmem_split_fetch_bytes 0, nicmem_tx_nic_bytes = payloads)
#             and counted the frames on its Tx queues (tx_packets);
#   redirect  the same program redirecting to rxb1 (bpf_redirect()): on
#             6.3 and later the payloads stay in NIC memory, lent to the
#             frames (rx<q>_xdp_redirect_nicmem), none fetched, every one
#             freed once its frame is, and the I/O working set's bytes
#             are records and headers only (io_ws_bytes ~ 58 a buffer);
#             before 6.3 (no multi-buffer redirect) the CPU copies each
#             payload out of the window (pcie_to_host_mmio_bytes), none
#             fetched;
#   held      redirected to a veth whose far end queues every frame in a
#             packet socket: 256 payloads lent on the queue, the rest
#             copied out of the window by the CPU (pcie_to_host_mmio_bytes),
#             none fetched; once the socket lets go, every payload is freed;
#   full      a 1 KiB tier with rxb1's queues stalled: the first payload
#             fills it, the other frames fall back to host buffers
#             (counted) and every datagram arrives;
#   ethtool   ethtool -g shows tcp-data-split on (where ethtool prints it);
#   refused   a split without a tier, a tier of 0 with the split on,
#             nonsense values and the models without a buffer per packet
#             are refused with a message, the port forwarding meanwhile;
#   pages     nothing held in NIC memory at the end, every page_pool gets
#             its pages back.

source "$(dirname "$0")/lib.sh"

PROGS=$RXB_DIR/progs
P=/sys/module/rxbisect/parameters
rxb_init ping bpftool

if ! [ -r "$PROGS/xdp_nat.bpf.o" ]; then
	make -s -C "$PROGS" >/dev/null 2>&1 ||
		ktap_skip_all "the BPF programs in $PROGS are not built (make module)"
fi
ip link help 2>&1 | grep -q xdpdrv || ktap_skip_all "ip has no XDP support"

rxb_load queues=2 nicmem_split=on || ktap_skip_all "cannot load the module with nicmem_split=on"
SPLIT_MODELS=
for m in $(rxb_models); do
	case $m in
	shring-batched|enso) ;;
	*) SPLIT_MODELS+=" $m" ;;
	esac
done
NM=$(wc -w <<<"$SPLIT_MODELS")
ktap_set_plan $((NM + 10))

rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"

BPFFS=
nm_cleanup() {
	[ -n "$BPFFS" ] && umount "$BPFFS"
	rxb_cleanup
}
trap nm_cleanup EXIT

N=100		# datagrams per model
LEN=1000	# UDP payload bytes
HDR=42		# Ethernet + IPv4 + UDP headers
REC=16		# the split record before each buffer

# The datagrams: "RXNM", a sequence number, then bytes that depend on it.
cat >"$RXB_TMP/nm.py" <<'EOF'
import os, socket, struct, sys, time

def body(i, ln):
    b = struct.pack("<4sI", b"RXNM", i)
    return (b + bytes((i * 7 + k) & 0xff for k in range(ln - len(b))))[:ln]

def ipsum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s

mode = sys.argv[1]
if mode == "send":	# send DST PORT COUNT LEN
    dst, port, n, ln = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i in range(n):
        s.sendto(body(i, ln), (dst, port))
        if i % 16 == 15:
            time.sleep(0.002)
    print(n)
elif mode == "recv":	# recv ADDR PORT COUNT LEN OUT: good, bad datagrams
    addr, port, n, ln, out = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 8 << 20)
    s.bind((addr, port))
    open(out + ".ready", "w").close()
    s.settimeout(8)
    good = bad = 0
    try:
        while good + bad < n:
            d = s.recv(65536)
            i = struct.unpack("<I", d[4:8])[0] if len(d) >= 8 else -1
            if i >= 0 and d == body(i, ln):
                good += 1
            else:
                bad += 1
    except socket.timeout:
        pass
    open(out, "w").write("%d %d\n" % (good, bad))
elif mode == "hold":	# hold IF OUT: keep IF's frames queued until OUT.release
    ifn, out = sys.argv[2], sys.argv[3]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
    s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 32 << 20)
    s.bind((ifn, 0))
    open(out + ".ready", "w").close()
    while not os.path.exists(out + ".release"):
        time.sleep(0.05)
    s.setblocking(False)
    n = 0
    try:
        while True:
            s.recv(65536)
            n += 1
    except BlockingIOError:
        pass
    s.close()
    open(out, "w").write("%d\n" % n)
elif mode == "sniff":	# sniff IF DADDR DPORT COUNT LEN OUT: frames as NATed
    ifn, daddr, dport, n, ln, out = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
    s.bind((ifn, 0))
    s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 8 << 20)
    open(out + ".ready", "w").close()
    s.settimeout(8)
    good = bad = 0
    want = socket.inet_aton(daddr)
    try:
        while good + bad < n:
            f, a = s.recvfrom(65536)
            if a[2] == socket.PACKET_OUTGOING:
                continue
            ip = f[14:34]
            if ip[9] != 17 or f[14 + 20 + 2:14 + 20 + 4] == b"\0\x09":
                continue
            u = f[34:42]
            ok = ip[16:20] == want and struct.unpack("!H", u[2:4])[0] == dport
            ok = ok and ipsum(ip) == 0xffff
            ulen = struct.unpack("!H", u[4:6])[0]
            pseudo = ip[12:20] + struct.pack("!BBH", 0, 17, ulen)
            ok = ok and (u[6:8] == b"\0\0" or ipsum(pseudo + f[34:34 + ulen]) == 0xffff)
            pay = f[42:34 + ulen]
            i = struct.unpack("<I", pay[4:8])[0] if len(pay) >= 8 else -1
            ok = ok and pay == body(i, ln)
            if ok:
                good += 1
            else:
                bad += 1
    except socket.timeout:
        pass
    open(out, "w").write("%d %d\n" % (good, bad))
EOF
NMPY="$RXB_PY $RXB_TMP/nm.py"

# nm_wait TEST FILE TRIES: until [ TEST FILE ] holds, every 50 ms: -e
# FILE.ready, the receiver bound its socket; -s FILE, it wrote its result.
nm_wait() {
	local i
	for i in $(seq "$3"); do
		[ "$1" "$2" ] && return 0
		rxb_sleep 0.05
	done
	return 1
}

# nm_snmp: UDP InCsumErrors and RcvbufErrors in NS1.
nm_snmp() {
	ip netns exec "$NS1" awk '/^Udp:/ { n++ } n == 2 { print $8, $6; exit }' /proc/net/snmp
}

# nm_udp PORT COUNT: COUNT datagrams from rxb0 to rxb1:PORT; GOOD and BAD
# as the receiver in NS1 counted them, CSUMERR and RCVBUFERR the stack's.
nm_udp() {
	local out=$RXB_TMP/recv.$1 c0 r0 c1 r1
	read -r c0 r0 < <(nm_snmp)
	rm -f "$out" "$out.ready"
	rxb_bg ip netns exec "$NS1" timeout 60 $NMPY recv "$RXB_IP1" "$1" "$2" $LEN "$out"
	nm_wait -e "$out.ready" 200 || { GOOD=0; BAD=0; return 1; }
	ip netns exec "$NS0" timeout 60 $NMPY send "$RXB_IP1" "$1" "$2" $LEN >/dev/null
	nm_wait -s "$out" 300
	read -r GOOD BAD < <(cat "$out" 2>/dev/null || echo "0 0")
	read -r c1 r1 < <(nm_snmp)
	CSUMERR=$((c1 - c0))
	RCVBUFERR=$((r1 - r0))
}

# S1 holds rxb1's counters: nm_s1 snapshots them.
declare -A S1=()
nm_s1() {
	local k
	S1=()
	rxb_snap rxb1 || return 1
	for k in "${!RXB_S[@]}"; do
		S1[$k]=${RXB_S[$k]}
	done
}
# nm_d NAME: NAME now (rxb_snap rxb1) minus NAME in S1.
nm_d() { echo $((${RXB_S[$1]:-0} - ${S1[$1]:-0})); }

# nm_settle: wait (up to 5 s) until rxb1 holds no payload in NIC memory.
nm_settle() {
	local i
	for i in {1..27}; do
		rxb_snap rxb1
		[ "${RXB_S[nicmem_split_held]:-1}" = 0 ] && return 0
		rxb_poll_wait $i
	done
	return 1
}

nm_model() {	# MODEL
	echo "$1" > $P/ring_model || return 1
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1
}

# Checksums verified by the stack, not by the NIC's CHECKSUM_COMPLETE.
rxb_in rxb1 ethtool -K rxb1 rx off >/dev/null 2>&1 ||
	ktap_print_msg "cannot turn rxb1's receive checksum offload off"

# On a kernel that runs only what differs by kernel (rxb_kdep_only): the
# split under the first model, then nat, redirect, held and pages; the
# rest ran on make test's first kernel.
UPORT=7000
read -r FIRST_MODEL _ <<<"$SPLIT_MODELS"
for m in $SPLIT_MODELS; do
	why=
	if rxb_kdep_only && [ "$m" != "$FIRST_MODEL" ]; then
		ktap_test_skip "$m: split, $N datagrams intact, counters add up" "$RXB_KDEP_WHY"
		continue
	fi
	if ! nm_model "$m"; then
		ktap_test_fail "$m: split, $N datagrams intact" "cannot switch to $m"
		continue
	fi
	nm_s1
	slow0=$(rxb_s_qsum ceio_slow)
	nm_udp $UPORT $N
	UPORT=$((UPORT + 1))
	nm_settle || why+=" payloads still held: ${RXB_S[nicmem_split_held]};"
	fr=$(nm_d nicmem_split_frames)
	host=$(nm_d nicmem_host_bytes)
	nic=$(nm_d nicmem_nic_bytes)
	fetch=$(nm_d nicmem_split_fetch_bytes)
	whole=$(nm_d nicmem_split_whole)
	fb=$(nm_d nicmem_split_fallback)
	# CEIO's slow path (no credit) takes whole frames into the tier
	# before any split: how many depends on how fast the host returns
	# credits, so those are counted, not expected to be 0
	slow=$(($(rxb_s_qsum ceio_slow) - slow0))
	# The model switch emptied the working set: these frames fill it.
	wsn=${RXB_S[io_ws_buffers]:-0}
	wsb=${RXB_S[io_ws_bytes]:-0}
	ktap_print_msg "$m: received $GOOD intact, $BAD bad ($CSUMERR checksum errors," \
		"$RCVBUFERR socket drops); split $fr, whole $whole, fallback $fb," \
		"CEIO slow path $slow; host bytes $host (fetched $fetch), NIC bytes $nic;" \
		"I/O working set $wsn buffers, $wsb bytes"
	[ "$GOOD" = $N ] && [ "$BAD" = 0 ] || why+=" $GOOD/$N intact, $BAD bad;"
	[ "$fr" -ge $((N - slow)) ] || why+=" only $fr frames split ($slow slow);"
	[ "$fb" = 0 ] || why+=" $fb fallbacks;"
	# every payload split went to a socket: fetched once, counted as
	# host bytes
	[ "$fetch" = "$nic" ] && [ "$nic" -ge $(((N - slow) * LEN)) ] ||
		why+=" fetched $fetch, NIC $nic, for $((N - slow)) payloads;"
	# host bytes: each split frame's headers and record, the fetched
	# payloads, and whole frames (ARP, ...: at most 100 bytes here)
	exp=$((fr * (HDR + REC) + fetch))
	[ "$host" -ge "$exp" ] && [ "$host" -le $((exp + whole * 100)) ] ||
		why+=" host bytes $host, expected $exp (+ $whole whole frames);"
	# 16 + 42 + 1000 bytes a buffer.  Each CPU adds its writes to the
	# window 32 at a time (wss.c): a frame's header write and its fetch
	# may be counted apart, up to 31 a CPU still staged; and a stray
	# IPv6 frame is smaller.  Far above the split alone's 58 (redirect).
	[ "$wsn" -gt 0 ] && [ "$wsb" -ge $((wsn * 500)) ] &&
		[ "$wsb" -le $((wsn * (REC + HDR + LEN))) ] ||
		why+=" working set $wsb bytes in $wsn buffers;"
	ktap_test_result "$m: split, $N datagrams intact, counters add up" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "$m:$why"
done

# TCP, checksums verified by the stack.
if rxb_kdep_only; then
	ktap_test_skip "privring: TCP stream under the split" "$RXB_KDEP_WHY"
else
	nm_model privring
	nm_s1
	rxb_iperf "$RXB_TMP/tcp.json" 2
	rc=$?
	rxb_snap rxb1
	fr=$(nm_d nicmem_split_frames)
	ktap_print_msg "tcp: $fr frames split, NIC bytes $(nm_d nicmem_nic_bytes), fetched $(nm_d nicmem_split_fetch_bytes)"
	ktap_test_result "privring: TCP stream under the split" \
		eval 'rxb_iperf_check "$RXB_TMP/tcp.json" $rc tcp && [ "$fr" -gt 0 ]'
fi

# nm_nat_round NAME: $N datagrams to rxb1:7777, which the NAT sends back to
# rxb0:7778, where they are checked (GOOD, BAD); then until rxb1 holds no
# payload (RXB_S its counters).  Adds to why.
nm_nat_round() {
	local out=$RXB_TMP/sniff.$1

	rm -f "$out" "$out.ready"
	rxb_bg ip netns exec "$NS0" timeout 60 $NMPY sniff rxb0 "$RXB_IP0" 7778 $N $LEN "$out"
	nm_wait -e "$out.ready" 200 || why+=" no sniffer;"
	ip netns exec "$NS0" timeout 60 $NMPY send "$RXB_IP1" 7777 $N $LEN >/dev/null
	nm_wait -s "$out" 300
	read -r GOOD BAD < <(cat "$out" 2>/dev/null || echo "0 0")
	[ "$GOOD" = $N ] && [ "$BAD" = 0 ] || why+=" $GOOD/$N rewritten at the peer, $BAD bad;"
	nm_settle || why+=" payloads still held: ${RXB_S[nicmem_split_held]};"
}

# ---- nat: XDP_TX from NIC memory --------------------------------------------
# A model switch: a new receive context, whose working set holds only what
# follows.
nm_model rxbisect || rxb_bail "cannot switch to rxbisect"
mkdir "$RXB_TMP/bpf" && mount -t bpf bpf "$RXB_TMP/bpf" && BPFFS=$RXB_TMP/bpf ||
	rxb_bail "cannot mount a bpffs"
bpftool prog load "$PROGS/xdp_nat.bpf.o" "$BPFFS/nat" type xdp ||
	rxb_bail "cannot load progs/xdp_nat.bpf.o"
NAT_MAP=$(bpftool prog show pinned "$BPFFS/nat" | sed -n 's/.*map_ids \([0-9]*\).*/\1/p')
# nm_nat_cfg [IFINDEX]: 192.0.2.2:7777 -> 192.0.2.1:7778 (network order),
# then XDP_TX, or with IFINDEX a redirect there (host order).
nm_nat_cfg() {
	local i=${1:-0}

	bpftool map update id "${NAT_MAP:-0}" key 0 0 0 0 \
		value 0xc0 0x00 0x02 0x01 0x1e 0x61 0x1e 0x62 \
		$((i & 255)) $((i >> 8 & 255)) $((i >> 16 & 255)) $((i >> 24))
}
nm_nat_cfg || rxb_bail "cannot configure the NAT"
why=
nm_s1
rxb_ip rxb1 -force link set dev rxb1 xdpdrv pinned "$BPFFS/nat" || why+=" cannot attach;"
nm_nat_round nat
tx=$(nm_d nicmem_tx_frames)
txnic=$(nm_d nicmem_tx_nic_bytes)
fetch=$(nm_d nicmem_split_fetch_bytes)
ktap_print_msg "nat: rxb0 got $GOOD rewritten and intact, $BAD bad; rxb1 sent $tx from NIC memory" \
	"($txnic payload bytes, headers $(nm_d nicmem_tx_host_bytes) bytes from host), fetched $fetch"
[ "$tx" = $N ] || why+=" $tx frames sent from NIC memory;"
# The TX commands' frames leave through the port's Tx queues, counted there
# (ARP and the like may add a few).
txp=$(nm_d tx_packets)
[ "$txp" -ge $N ] || why+=" tx_packets +$txp;"
[ "$txnic" = $((N * LEN)) ] || why+=" $txnic payload bytes from NIC memory;"
[ "$fetch" = 0 ] || why+=" $fetch payload bytes fetched to the host;"
ktap_test_result "nat: XDP_TX sends the payload from NIC memory, rewritten at the peer" [ -z "$why" ]
[ -n "$why" ] && ktap_print_msg "nat:$why"

# ---- redirect: XDP_REDIRECT, the payload left in NIC memory -----------------
why=
nm_nat_cfg "$(rxb_in rxb1 cat /sys/class/net/rxb1/ifindex)" ||
	why+=" cannot set the redirect;"
nm_s1
rd0=$(rxb_s_qsum xdp_redirect)
nmr0=$(rxb_s_qsum xdp_redirect_nicmem)
nmb0=$(rxb_s_qsum xdp_redirect_nicmem_bytes)
nm_nat_round redirect
rd=$(($(rxb_s_qsum xdp_redirect) - rd0))
nmr=$(($(rxb_s_qsum xdp_redirect_nicmem) - nmr0))
nmb=$(($(rxb_s_qsum xdp_redirect_nicmem_bytes) - nmb0))
fetch=$(nm_d nicmem_split_fetch_bytes)
tx=$(nm_d nicmem_tx_frames)
recl=$(nm_d nicmem_split_reclaimed)
ktap_print_msg "redirect: rxb0 got $GOOD rewritten and intact, $BAD bad; rxb1 redirected $rd," \
	"$nmr of them ($nmb payload bytes) from NIC memory, fetched $fetch, TX commands $tx"
[ "$rd" = $N ] || why+=" $rd redirected;"
[ "$tx" = 0 ] && [ "$recl" = 0 ] || why+=" $tx TX commands, $recl reclaimed by the NIC;"
if rxb_kver_ge 6.3; then
	[ "$nmr" = $N ] && [ "$nmb" = $((N * LEN)) ] ||
		why+=" $nmr payloads ($nmb bytes) left in NIC memory;"
	[ "$fetch" = 0 ] || why+=" $fetch payload bytes fetched to the host;"
	# NAT and redirect frames: 16 + 42 bytes a buffer written (a stray
	# IPv6 frame whole, ~100)
	wsn=${RXB_S[io_ws_buffers]:-0}
	wsb=${RXB_S[io_ws_bytes]:-0}
	ktap_print_msg "redirect: I/O working set $wsn buffers, $wsb bytes"
	[ "$wsn" -gt 0 ] && [ "$wsb" -ge $((wsn * (REC + HDR))) ] &&
		[ "$wsb" -le $((wsn * 200)) ] ||
		why+=" working set $wsb bytes in $wsn buffers;"
	ktap_test_result "redirect: the payload stays in NIC memory, freed with its frame" [ -z "$why" ]
else
	# The CPU copies each payload out of the window behind its
	# headers: an MMIO read of the payload, not a fetch command.
	hmmio=$(nm_d pcie_to_host_mmio_bytes)
	[ "$nmr" = 0 ] && [ "$fetch" = 0 ] && [ "$hmmio" -ge $((N * LEN)) ] ||
		why+=" $nmr left in NIC memory, $fetch bytes fetched, $hmmio read over MMIO;"
	ktap_test_result "redirect: each payload copied out of NIC memory (no multi-buffer redirect before 6.3)" [ -z "$why" ]
fi
[ -n "$why" ] && ktap_print_msg "redirect:$why"

# ---- held: payloads lent while a consumer keeps the frames -------------------
NH=300		# datagrams, one flow: one queue, RXB_HDS_LENT (256) a queue
if ! rxb_kver_ge 6.3; then
	ktap_test_skip "held: 256 payloads lent a queue, the rest copied out, all freed" \
		"no multi-buffer redirect before 6.3"
else
	why=
	# GRO on the far end: veth's NAPI, without which it takes no
	# redirected frame
	ip -n "$NS1" link add nmv0 type veth peer name nmv1 &&
		ip -n "$NS1" link set nmv0 up && ip -n "$NS1" link set nmv1 up &&
		ip netns exec "$NS1" ethtool -K nmv1 gro on >/dev/null ||
		why+=" cannot set up a veth pair;"
	nm_nat_cfg "$(ip netns exec "$NS1" cat /sys/class/net/nmv0/ifindex)" ||
		why+=" cannot set the redirect;"
	out=$RXB_TMP/hold
	rm -f "$out" "$out.ready" "$out.release"
	rxb_bg ip netns exec "$NS1" timeout 120 $NMPY hold nmv1 "$out"
	nm_wait -e "$out.ready" 200 || why+=" no holder;"
	nm_s1
	nmr0=$(rxb_s_qsum xdp_redirect_nicmem)
	ip netns exec "$NS0" timeout 60 $NMPY send "$RXB_IP1" 7777 $NH $LEN >/dev/null
	for i in {1..50}; do
		rxb_snap rxb1
		nmr=$(($(rxb_s_qsum xdp_redirect_nicmem) - nmr0))
		fetch=$(nm_d nicmem_split_fetch_bytes)
		hmmio=$(nm_d pcie_to_host_mmio_bytes)
		[ $((nmr + hmmio / LEN)) -ge $NH ] && break
		rxb_sleep 0.2
	done
	held=${RXB_S[nicmem_split_held]:-}
	touch "$out.release"
	nm_wait -s "$out" 300
	got=$(cat "$out" 2>/dev/null || echo 0)
	nm_settle || why+=" payloads still held after the socket closed: ${RXB_S[nicmem_split_held]};"
	ktap_print_msg "held: $nmr payloads lent ($held held while the socket kept its" \
		"$got frames), $fetch bytes fetched, $hmmio read over MMIO;" \
		"after: ${RXB_S[nicmem_split_held]} held"
	[ "$nmr" = 256 ] && [ "$held" = 256 ] ||
		why+=" $nmr lent, $held held, expected 256;"
	# The rest: the CPU copies each payload out of the window (hds.c)
	[ "$fetch" = 0 ] && [ "$hmmio" -ge $(((NH - 256) * LEN)) ] ||
		why+=" $fetch bytes fetched, $hmmio read over MMIO;"
	[ "$got" = $NH ] || why+=" the socket kept $got of $NH frames;"
	ktap_test_result "held: 256 payloads lent a queue, the rest copied out, all freed" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "held:$why"
	ip -n "$NS1" link del nmv0
fi
rxb_ip rxb1 link set dev rxb1 xdpdrv off

# full, refused, off and on, ethtool: not kernel-dependent (rxb_kdep_only)
if rxb_kdep_only; then
	for d in "full: a full tier falls back to host buffers, counted, nothing lost" \
		 "refused: no tier, nonsense, models without a buffer per packet" \
		 "split off and on again: delivered both ways" \
		 "ethtool -g rxb1 reports tcp-data-split on"; do
		ktap_test_skip "$d" "$RXB_KDEP_WHY"
	done
else
	# ---- full: the tier full, fallback to host buffers ---------------------------
	why=
	echo 1 > $P/nicmem_kb || why+=" cannot set a 1 KiB tier;"
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1
	NF=40
	nm_s1
	for q in 0 1; do rxb_knob_set rxb1 $q stall 1; done
	out=$RXB_TMP/recv.full
	rm -f "$out" "$out.ready"
	rxb_bg ip netns exec "$NS1" timeout 60 $NMPY recv "$RXB_IP1" 7100 $NF $LEN "$out"
	nm_wait -e "$out.ready" 200 || why+=" no receiver;"
	ip netns exec "$NS0" timeout 60 $NMPY send "$RXB_IP1" 7100 $NF $LEN >/dev/null
	rxb_sleep 0.5
	for q in 0 1; do rxb_knob_set rxb1 $q stall 0; done
	nm_wait -s "$out" 300
	read -r GOOD BAD < <(cat "$out" 2>/dev/null || echo "0 0")
	nm_settle || why+=" payloads still held;"
	fr=$(nm_d nicmem_split_frames)
	fb=$(nm_d nicmem_split_fallback)
	fails=$(nm_d nicmem_alloc_fails)
	ktap_print_msg "full: $GOOD/$NF intact ($BAD bad); split $fr, fallback $fb, tier refusals $fails"
	[ "$GOOD" = $NF ] && [ "$BAD" = 0 ] || why+=" $GOOD/$NF intact;"
	[ "$fr" -ge 1 ] && [ "$fb" -ge $((NF - 2)) ] && [ $((fr + fb)) -ge $NF ] ||
		why+=" split $fr + fallback $fb of $NF;"
	[ "$fails" -ge "$fb" ] || why+=" refusals $fails < fallbacks $fb;"
	ktap_test_result "full: a full tier falls back to host buffers, counted, nothing lost" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "full:$why"
	echo 65536 > $P/nicmem_kb
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1

	# ---- refused -----------------------------------------------------------------
	# nm_refused FILE VALUE MSG_PART: the write fails, dmesg says why.
	nm_refused() {
		local before after mark
		before=$(<"$1")
		mark=$(rxb_kmsg_mark "nicmem.sh: $1 $2")
		if echo "$2" > "$1" 2>/dev/null; then
			ktap_print_msg "$1 took '$2'"
			return 1
		fi
		after=$(<"$1")
		[ "$before" = "$after" ] || { ktap_print_msg "$1: $before -> $after"; return 1; }
		rxb_kmsg_since "$mark" | grep -q -- "$3" ||
			{ ktap_print_msg "no message with '$3' in dmesg"; return 1; }
	}
	why=
	nm_refused $P/nicmem_kb 0 "needs an on-NIC memory tier" || why+=" nicmem_kb=0 taken;"
	nm_refused $P/nicmem_split maybe "unknown value" || why+=" nonsense split value taken;"
	nm_refused $P/ring_model shring-batched "needs a buffer per packet" || why+=" shring-batched taken;"
	nm_refused $P/ring_model enso "needs a buffer per packet" || why+=" enso taken;"
	echo off > $P/nicmem_split || why+=" cannot turn the split off;"
	echo 0 > $P/nicmem_kb || why+=" cannot set nicmem_kb=0 with the split off;"
	nm_refused $P/nicmem_split on "needs an on-NIC memory tier" || why+=" split without a tier taken;"
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1
	rxb_ping_ok "$NS0" "$RXB_IP1" 10 || why+=" the port stopped forwarding;"
	ktap_test_result "refused: no tier, nonsense, models without a buffer per packet" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "refused:$why"

	# ---- off again, then on again under traffic ----------------------------------
	echo 65536 > $P/nicmem_kb
	why=
	nm_s1
	nm_udp 7200 50
	[ "$GOOD" = 50 ] || why+=" split off: $GOOD/50;"
	rxb_snap rxb1
	[ "$(nm_d nicmem_split_frames)" = 0 ] || why+=" frames split with the split off;"
	echo on > $P/nicmem_split || why+=" cannot turn it on again;"
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1
	nm_udp 7201 50
	[ "$GOOD" = 50 ] || why+=" split on again: $GOOD/50;"
	ktap_test_result "split off and on again: delivered both ways" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "off/on:$why"

	# ---- ethtool: tcp-data-split reports the mode ---------------------------------
	l=$(rxb_in rxb1 ethtool -g rxb1 2>/dev/null | grep -i "tcp data split")
	if [ -z "$l" ]; then
		ktap_test_skip "ethtool -g rxb1 reports tcp-data-split on" "this ethtool does not print it"
	else
		ktap_print_msg "ethtool -g rxb1: $(xargs <<<"$l")"
		ktap_test_result "ethtool -g rxb1 reports tcp-data-split on" grep -qiE ":[[:space:]]*on[[:space:]]*$" <<<"$l"
	fi
fi

# ---- pages ---------------------------------------------------------------------
nm_settle
rxb_snap rxb1
ktap_print_msg "end: nicmem held ${RXB_S[nicmem_held_bytes]} bytes, ${RXB_S[nicmem_split_held]} payloads"
ktap_test_result "nothing held in NIC memory at the end" \
	test "${RXB_S[nicmem_held_bytes]}" = 0 -a "${RXB_S[nicmem_split_held]}" = 0
# a model switch destroys the pools the last model left
echo shring > $P/ring_model
echo privring > $P/ring_model
rxb_pp_released_result 15

ktap_finished
