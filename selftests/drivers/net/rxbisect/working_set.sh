#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The I/O working set each ring model predicts, asserted on the module
# (Documentation/rxbisect.rst, "Predicted working set per model"; the
# userspace cores are asserted by test_models' ws_steady).
#
# Per model, frames of 1024 bytes are injected at rxb1's wire (debugfs
# inject), alternating between two UDP flows that RSS steers to queue 0
# and to queue 1 of N = 2, and an XDP program drops them in the queues'
# NAPI context, which hands each buffer straight back to a page_pool
# (socket traffic adds the buffers the stack holds: Documentation/
# rxbisect.rst).  2D + W frames per model (ws_window W): the rings cycle
# twice before the window's W writes, which hold none of their start-up.
# They go in chunks of 48 a queue, each once the NIC has taken the last
# (feed), so that no burst outruns the polls whatever the guest's speed.
#
# Predicted (D), per model and setting:
#   privring (R = 256)            N*R = 512
#   dshring (R = 256)             its shared set R .. its private N*R
#   rxbisect (|Ax| = 128, |Bx| = 1024)
#                                 k*|Ax| = 256 (its Bx rings, k*|Bx| = 2048,
#                                 do not count)
#   shring, shring-list, shring-batched (R = 512, share factor 2)
#                                 one ring of R = 512 (a ring per queue:
#                                 1024, above the bound below)
#   corec (R = 512, 2 consumers) one ring of R = 512 (its consumers
#                                 share the ring's one page_pool)
#   enso (one 512 KiB pipe per queue)
#                                 every page of every pipe, N*512/4 = 256
#   ceio                          asserted by ceio.sh (credits)
#
# Tolerance, derived, not fitted:
#  - below D: none but the tracker's.  The window of W = 2048 writes
#    spans at least two cycles of every ring's buffers in circulation (at
#    most 512 + 2 * 130 of the shared rings; an Ensō pipe of 512 KiB in 1088-byte slots: 2048 *
#    1088 bytes = 4.25 pipes), and within one cycle a ring's writes go to
#    distinct buffers.
#  - above D, per queue: B = RXB_NAPI_BUDGET (64) buffers, those one poll
#    hands up while the model refills their slots from the queue's pool
#    (drv/rx.c: the model's poll refills before its packets are dropped),
#    and 2 more, the one returned after its slot was refilled and the top
#    of a refill stash (COREC), as in test_models.  A model whose queues
#    consume buffers another queue posted (the shared rings; rxbisect when
#    it borrows) returns them to the poster's pool from outside its NAPI
#    context, through the pool's ptr_ring, whose pages come back into the
#    pool's cache PP_ALLOC_CACHE_REFILL (64) at a time: 64 pages more per
#    queue, PPR = 64 * P buffers for P buffers a page (P = 2 with 2 KiB
#    buffers, page_pool fragments: MTU 1500 on the models that post a
#    buffer per packet, unless the kernel takes whole pages under XDP,
#    6.1; 1 with a page per buffer: RX Buf Len above 2048).
#    COREC instead, per consumer: S = RXB_COREC_BATCH (64).  Its
#    consumers allocate from the ring's one pool into a stash of S fresh
#    buffers each, topped up at the start of a poll; a claim reposts its
#    slots from the stash, and the buffers the poll hands up and XDP
#    drops go back to the stash (drv/models/corec.c, corec_recycle()),
#    not to the pool.  Once the stashes are full nothing goes to the pool
#    or comes from it: the buffers in circulation are exactly the ring's
#    R and the C stashes' C * S, whichever consumer takes which frame
#    (before the shared pool, with a pool per consumer, pages drifted
#    between the pools by as much as the consumers' shares differed: 1776
#    for R = 1024 on 6.12).  Its queues are fed together (one ring): the
#    precondition is their sum.
#  - the tracker is within E = 2 * CPUs * 31 of the exact count
#    (drivers/net/rxbisect/hw/wss.c).
# So D - E <= io_ws_buffers <= D + N * (B + 2 [+ 64]) + E, COREC's
# D + N * S + E.  Preconditions, checked: every frame injected was
# received, none dropped, and the two queues fed evenly (COREC's ring:
# both frames each round).

source "$(dirname "$0")/lib.sh"

rxb_init python3 bpftool

N=2 AX=128 PIPE_KB=512 LEN=1024 B=64 P=1
PROGS=$RXB_DIR/progs
[ -e "$PROGS/xdp_drop.bpf.o" ] || make -s -C "$PROGS" >/dev/null 2>&1 ||
	ktap_skip_all "the BPF programs in $PROGS are not built (make module)"
ip link help 2>&1 | grep -q xdpdrv || ktap_skip_all "ip has no XDP support"
rxb_load queues=$N rx_ring_size=256 ax_ring_size=$AX ws_window=2048 \
	share_factor=2 corec_consumers=2 enso_pipes=1 enso_pipe_kb=$PIPE_KB ||
	ktap_skip_all "cannot load the module"
MODELS=$(rxb_models | xargs)
ASSERT=()
for m in $MODELS; do [ "$m" = ceio ] || ASSERT+=("$m"); done
ktap_set_plan ${#ASSERT[@]}
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

mkdir "$RXB_TMP/bpf" && mount -t bpf bpf "$RXB_TMP/bpf" ||
	rxb_bail "cannot mount a bpffs"
ws_cleanup() { umount "$RXB_TMP/bpf" 2>/dev/null; rxb_cleanup; }
trap ws_cleanup EXIT
bpftool prog load "$PROGS/xdp_drop.bpf.o" "$RXB_TMP/bpf/drop" type xdp ||
	rxb_bail "cannot load progs/xdp_drop.bpf.o"

CPUS=$(getconf _NPROCESSORS_CONF)
E=$((2 * CPUS * 31))

# One UDP frame of LEN bytes, rxb0 to rxb1's port 9 from source port $1,
# as hex digits.
frame() {
	$RXB_PY - "$(rxb_mac rxb1)" "$(rxb_mac rxb0)" "$RXB_IP0" "$RXB_IP1" "$1" "$LEN" <<-'EOF'
	import socket, struct, sys
	dst, src, ip0, ip1, sp, n = sys.argv[1:]
	sp, n = int(sp), int(n)
	udp = struct.pack("!HHHH", sp, 9, n - 34, 0) + bytes(n - 42)
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, n - 14, 0, 0x4000, 64, 17, 0,
	                 socket.inet_aton(ip0), socket.inet_aton(ip1))
	s = sum(struct.unpack("!10H", ip))
	s = (s & 0xffff) + (s >> 16)
	s = (s & 0xffff) + (s >> 16)
	ip = ip[:10] + struct.pack("!H", ~s & 0xffff) + ip[12:]
	eth = bytes.fromhex(dst.replace(":", "") + src.replace(":", "")) + b"\x08\x00"
	print((eth + ip + udp).hex())
	EOF
}
sp0=$(rxb_ports_for 0 1) && sp1=$(rxb_ports_for 1 1) ||
	rxb_bail "no UDP source ports for each queue"
F0=$(frame "$sp0") && F1=$(frame "$sp1") || rxb_bail "cannot build the frames"

# setting MODEL: "R W LO HI SLACK": its ring size (rxbisect: |Bx|), window,
# predicted buffers (LO = HI but for dshring) and slack per queue, with P
# buffers a page.
setting() {
	local PPR=$((64 * P))
	case $1 in
	privring) echo "256 2048 512 512 $((B + 2))" ;;
	dshring) echo "256 2048 256 512 $((B + 2 + PPR))" ;;
	rxbisect) echo "1024 2048 $((N * AX)) $((N * AX)) $((B + 2 + PPR))" ;;
	shring*) echo "512 2048 512 512 $((B + 2 + PPR))" ;;
	corec) echo "512 2048 512 512 64" ;;
	enso) echo "256 2048 $((N * PIPE_KB / 4)) $((N * PIPE_KB / 4)) 0" ;;
	ceio) echo "256 2048 0 0 0" ;;
	*) return 1 ;;
	esac
}

# The injector, one python3 started once: a line "N" writes N rounds of the
# two frames, one write() each, and is answered "ok".
coproc INJ { $RXB_PY -u -c '
import os, sys
path, f0, f1 = sys.argv[1:]
frames = [bytes.fromhex(f0), bytes.fromhex(f1)]
fd = os.open(path, os.O_WRONLY)
for line in sys.stdin:
    try:
        for i in range(int(line)):
            for f in frames:
                os.write(fd, f)
        print("ok")
    except (OSError, ValueError) as e:
        print("error", e)
' "$RXB_DBG/rxb1/inject" "$F0" "$F1"; }
RXB_PIDS+=("$INJ_PID")

# feed N IN0: N rounds in chunks of C, each sent once the NIC has taken
# every frame before it (XDP drops, NIC drops) and at most 15 s per chunk:
# so no burst outruns the poll that refills the rings, whatever the
# guest's speed (C = 48 a queue: below every ring's buffers less one poll).
C=48
feed() {
	local n=$1 in0=$2 sent=0 c r
	while [ $sent -lt "$n" ]; do
		c=$((n - sent < C ? n - sent : C))
		echo $c >&"${INJ[1]}"
		read -r r <&"${INJ[0]}"
		[ "$r" = ok ] || { echo "inject: ${r:-no answer}"; return 1; }
		sent=$((sent + c))
		# a chunk takes milliseconds: look every 10 ms, 15 s at most
		for _ in {1..1500}; do
			rxb_snap rxb1 &&
				[ $(( $(rxb_s_qsum xdp_drop) + $(rxb_s_rx_in) - $(rxb_s_qsum hw_packets) - in0 )) -ge $((2 * sent)) ] &&
				break
			rxb_sleep 0.01
		done
	done
}

# ms T0 T1: milliseconds from EPOCHREALTIME T0 to T1.
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }

# ws MODEL: set it up, inject 2D + W frames, check and print.
ws() {
	local m=$1 t0=$EPOCHREALTIME t2 t3 r w lo hi sl d got pk b0 b1 q0 q1 in0 in dr0 dr n k why=
	read -r r w lo hi sl <<<"$(setting "$m")" || { echo "no setting"; return 1; }
	echo "$w" > /sys/module/rxbisect/parameters/ws_window &&
	echo "$m" > /sys/module/rxbisect/parameters/ring_model &&
	rxb_in rxb1 ethtool -G rxb1 rx "$r" || { echo "cannot set up $m"; return 1; }
	rxb_ip rxb1 -force link set dev rxb1 xdpdrv pinned "$RXB_TMP/bpf/drop" || {
		echo "cannot attach the XDP program"; return 1; }
	# buffers a page: 2 KiB buffers (RX Buf Len 1536) or a page each
	k=$(rxb_in rxb1 ethtool -g rxb1 | sed -n 's/^RX Buf Len:[[:space:]]*//p' | head -n1)
	P=1
	[ "${k:-4096}" -le 2048 ] && P=2
	read -r r w lo hi sl <<<"$(setting "$m")"
	rxb_snap rxb1 || return 1
	in0=$(rxb_s_rx_in)
	dr0=$(( in0 - $(rxb_s_qsum hw_packets) ))
	read -r b0 b1 <<<"$(rxb_s_qvals xdp_drop)"
	n=$(( (2 * hi + w + 1) / 2 ))
	t2=$EPOCHREALTIME
	feed $n $((b0 + b1 + dr0)) || return 1
	rxb_snap rxb1
	t3=$EPOCHREALTIME
	got=${RXB_S[io_ws_buffers]:-}
	pk=${RXB_S[io_ws_buffers_peak]:-}
	in=$(( $(rxb_s_rx_in) - in0 ))
	dr=$(( in0 + in - $(rxb_s_qsum hw_packets) - dr0 ))
	read -r q0 q1 <<<"$(rxb_s_qvals xdp_drop)"
	q0=$((q0 - b0)) q1=$((q1 - b1))
	d="design $lo, bounds $((lo - E))..$((hi + N * sl + E))"
	[ "$hi" != "$lo" ] && d="design $lo..$hi, bounds $((lo - E))..$((hi + N * sl + E))"
	[ "$m" = ceio ] && d="asserted by ceio.sh"
	echo "$m: io_ws_buffers $got (peak $pk) over ${RXB_S[io_ws_window]:-?} writes; $d; RX Buf Len ${k:-?} ($P a page); $in frames in, $dr dropped, XDP drops by queue $q0 $q1; set-up $(ms "$t0" "$t2") ms, injection $(ms "$t2" "$t3") ms"
	rxb_ip rxb1 link set dev rxb1 xdpdrv off
	[ "$m" = ceio ] && return 0
	[ "$in" = $((2 * n)) ] || why+=" $in of $((2 * n)) frames reached the NIC;"
	[ "$dr" = 0 ] || why+=" the NIC dropped $dr;"
	if [ "$m" = corec ]; then
		[ $((q0 + q1)) = $((2 * n)) ] || why+=" queues fed $q0 and $q1, not $((2 * n)) together;"
	else
		[ "$q0" = "$n" ] && [ "$q1" = "$n" ] || why+=" queues fed $q0 and $q1, not $n each;"
	fi
	[ -n "$got" ] && [ "$got" -ge $((lo - E)) ] && [ "$got" -le $((hi + N * sl + E)) ] ||
		why+=" $got outside the bounds;"
	[ -z "$why" ] || { echo "$m:$why"; return 1; }
}

ktap_print_msg "N=$N |Ax|=$AX pipe ${PIPE_KB} KiB, B=$B, frames of $LEN B from ports $sp0 (queue 0) and $sp1 (queue 1); tracker error E=$E ($CPUS CPUs)"
for m in $MODELS; do
	ws "$m" >"$RXB_TMP/ws.out" 2>&1
	rc=$?
	ktap_print_msg "$(cat "$RXB_TMP/ws.out")"
	[ "$m" = ceio ] && continue
	ktap_test_result "$m: the I/O working set the design predicts" [ $rc = 0 ]
done
ktap_finished
