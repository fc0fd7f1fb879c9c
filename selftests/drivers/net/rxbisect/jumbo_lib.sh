#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What jumbo.sh and jumbo_redirect.sh share: the module with 2 queues, the
# ports at MTU 9000 in their namespaces, the multi-buffer XDP programs
# pinned, and one case of one model (jumbo_case), or each model in turn
# (jumbo_models).  Sourced after lib.sh; the test sets its plan.

rxb_init ping bpftool iperf3 ethtool
rxb_xdp_setup xdp_mb_pass.bpf.o
# The models whose buffers must be contiguous (rxb_model_ops.contig_bufs,
# multi_pkt_bufs, stream): one larger page per buffer, a frame never
# split; the others take scatter buffers.
CONTIG=" shring-batched ceio enso "
# the test sets its plan (ktap_set_plan) after sourcing this

rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"

N=10		# pings per case
MTU=9000
S=$((MTU - 28))	# ICMP data bytes of a full-MTU echo request
FRAME=$((MTU + 14))

BPFFS=
jumbo_cleanup() {
	[ -n "$BPFFS" ] && umount "$BPFFS" && rmdir "$BPFFS"
	rxb_cleanup
}
trap jumbo_cleanup EXIT
# A path without dots: libbpf turns them into '_' in map pin paths.
mkdir "/run/rxbjumbo$$" && mount -t bpf bpf "/run/rxbjumbo$$" &&
	BPFFS=/run/rxbjumbo$$ || rxb_bail "cannot mount a bpffs"
for p in mb_pass mb_tx mb_redirect; do
	# (bpffs names take no dot)
	mkdir "$BPFFS/${p}_maps" &&
	bpftool prog load "$PROGS/xdp_$p.bpf.o" "$BPFFS/$p" type xdp \
		pinmaps "$BPFFS/${p}_maps" ||
		rxb_bail "cannot load progs/xdp_$p.bpf.o"
done
bpftool prog load "$PROGS/xdp_pass.bpf.o" "$BPFFS/pass" type xdp ||
	rxb_bail "cannot load progs/xdp_pass.bpf.o"

setmtu() { rxb_ip "$1" link set "$1" mtu "$2"; }

# Redirecting a multi-buffer frame to a device came with 6.3's
# xdp_features (NETDEV_XDP_ACT_NDO_XMIT_SG, checked in the devmap code):
# 6.1's xdp_do_redirect() refuses frames with fragments (-EOPNOTSUPP,
# counted as redirect errors), whatever the target.  Only the kernel's
# version tells which it is.
KSG=1
rxb_kver_ge 6.3 || KSG=0

# The redirect target: a second pair in rxb1's namespace, rxr0 with the
# ifindex progs/xdp_mb_redirect.c names, both ends at MTU $MTU.
TGT=1000
target_up() {
	local l
	ip -n "$NS1" link add rxr0 index $TGT type rxbisect || return 1
	l=$(ip -n "$NS1" -o link show rxr0) || return 1
	[[ $l =~ rxr0@([a-z0-9]+): ]] || return 1
	ip -n "$NS1" link set dev "${BASH_REMATCH[1]}" name rxr1 || return 1
	RXB_NS[rxr0]=$NS1
	RXB_NS[rxr1]=$NS1
	setmtu rxr0 $MTU && setmtu rxr1 $MTU &&
		ip -n "$NS1" link set rxr0 up && ip -n "$NS1" link set rxr1 up
}

# mb_stats PROG: "frames multibuf bytes max" from the program's counters.
mb_stats() {
	bpftool -j map dump pinned "$BPFFS/${1}_maps/mb_stats" |
		$RXB_PY -c '
import json, sys

def num(x):	# with BTF a number, without a list of hex bytes (LE)
    return x if isinstance(x, int) else int.from_bytes(
        bytes(int(b, 16) for b in x), "little")

v = {num(e["key"]): num(e["value"]) for e in json.load(sys.stdin)}
print(" ".join(str(v.get(k, 0)) for k in range(4)))'
}
mb_reset() {
	local k
	for k in 0 1 2 3; do
		bpftool map update pinned "$BPFFS/${1}_maps/mb_stats" \
			key $k 0 0 0 value 0 0 0 0 0 0 0 0 || return 1
	done
}

# jping [LINGER]: N full-MTU echo requests with a pattern; the replies, or
# 0.  A reply whose data differs is reported by ping as "wrong data byte".
# LINGER: seconds ping waits for a reply after the last request (default
# 2; where none comes back, XDP_TX and redirect, less: the program's
# counters are what those cases wait for).
jping() {
	local out
	out=$(ip netns exec "$NS0" timeout $((N + 20)) ping -n -c $N -i 0.05 -W "${1:-2}" \
		-M do -s $S -p a55aa55a "$RXB_IP1" 2>&1)
	if grep -q 'wrong data' <<<"$out"; then
		ktap_print_msg "corrupted replies: $(grep -m1 'wrong data' <<<"$out")"
		echo 0
		return
	fi
	[[ $out =~ ([0-9]+)\ received ]] && echo "${BASH_REMATCH[1]}" || echo 0
}

# rxsum IF FIELD: sum of the per-queue counter over rxb IF's queues.
rxsum() { rxb_qsum "$1" "$2"; }

jumbo_case() {	# MODEL CASE: 0 when the case did exactly what it should
	local m=$1 c=$2 why= got hw0 hw1 st0 b0 d0 t0 w k
	local frames mb bytes max want_mb=$N
	[[ $CONTIG == *" $m "* ]] && want_mb=0
	case $c in
	ping)
		k=$(rxb_in rxb1 ethtool -g rxb1 | sed -n 's/^RX Buf Len:[[:space:]]*//p' | head -n1)
		d0=$(rxsum rxb1 dma_errors)
		hw0=$(rxsum rxb1 hw_packets)
		got=$(jping)
		hw1=$(rxsum rxb1 hw_packets)
		ktap_print_msg "$m: rx buffers of $k bytes; $got/$N replies, rxb1's NIC wrote $((hw1 - hw0))"
		[ "$got" = $N ] || why+=" $got replies;"
		[ "${k:-0}" -ge $FRAME ] || why+=" RX Buf Len ${k:-none} < $FRAME;"
		[ "$(rxsum rxb1 dma_errors)" = "$d0" ] || why+=" DMA errors;"
		;;
	tcp)
		rxb_iperf "$RXB_TMP/iperf.json" 1 -M $((MTU - 52))
		rxb_iperf_check "$RXB_TMP/iperf.json" $? "$m: TCP at MTU $MTU" ||
			why+=" iperf3 failed;"
		;;
	xdp_pass|xdp_tx|xdp_redirect)
		k=mb_${c#xdp_}
		mb_reset $k || why+=" cannot reset the counters;"
		rxb_ip rxb1 -force link set dev rxb1 xdpdrv pinned "$BPFFS/$k" ||
			{ ktap_print_msg "$m $c: attach refused"; return 1; }
		st0=$(rxsum rxb0 stack_packets)
		t0=$(rxsum rxb1 xdp_tx)
		[ $c = xdp_redirect ] && st0=$(rxsum rxr1 hw_bytes) &&
			t0=$(rxsum rxb1 xdp_redirect)
		w=$(rxsum rxb1 xdp_pass)
		[ $c = xdp_redirect ] && w=$(rxsum rxb1 xdp_redirect_errors)
		if [ $c = xdp_pass ]; then got=$(jping); else got=$(jping 0.2); fi
		for b0 in {1..27}; do
			read -r frames mb bytes max < <(mb_stats $k)
			[ "$frames" -ge $N ] && break
			rxb_poll_wait $b0
		done
		ktap_print_msg "$m $c: program saw $frames frames, $mb in several buffers, longest $max bytes; $got replies"
		[ "$frames" = $N ] && [ "$mb" = $want_mb ] && [ "$max" = $FRAME ] &&
			[ "$bytes" = $((N * FRAME)) ] ||
			why+=" program saw $frames/$mb/$bytes/$max, want $N/$want_mb/$((N * FRAME))/$FRAME;"
		if [ $c = xdp_pass ]; then
			[ "$got" = $N ] || why+=" $got replies;"
			[ $(($(rxsum rxb1 xdp_pass) - w)) = $N ] || why+=" xdp_pass;"
		elif [ $c = xdp_redirect ] && [ $KSG = 0 ] && [ $want_mb = $N ]; then
			# every frame a redirect error: wait for those, not
			# for bytes that never reach rxr1
			for b0 in {1..27}; do
				[ $(($(rxsum rxb1 xdp_redirect_errors) - w)) -ge $N ] && break
				rxb_poll_wait $b0
			done
			b0=$(($(rxsum rxr1 hw_bytes) - st0))
			ktap_print_msg "$m $c: kernel $(uname -r) redirects no multi-buffer frame; rxr1's NIC wrote $b0 bytes"
			[ $(($(rxsum rxb1 xdp_redirect_errors) - w)) = $N ] && [ $b0 = 0 ] ||
				why+=" redirect errors $(($(rxsum rxb1 xdp_redirect_errors) - w)), rxr1's NIC wrote $b0 bytes;"
		elif [ $c = xdp_redirect ]; then
			for b0 in {1..27}; do
				[ $(($(rxsum rxr1 hw_bytes) - st0)) -ge $((N * FRAME)) ] && break
				rxb_poll_wait $b0
			done
			b0=$(($(rxsum rxr1 hw_bytes) - st0))
			ktap_print_msg "$m $c: rxr1's NIC wrote $b0 bytes"
			[ $(($(rxsum rxb1 xdp_redirect) - t0)) = $N ] && [ $b0 = $((N * FRAME)) ] ||
				why+=" xdp_redirect $(($(rxsum rxb1 xdp_redirect) - t0)), rxr1's NIC wrote $b0 bytes;"
		else
			for b0 in {1..27}; do
				[ $(($(rxsum rxb0 stack_packets) - st0)) -ge $N ] && break
				rxb_poll_wait $b0
			done
			b0=$(($(rxsum rxb0 stack_packets) - st0))
			[ $(($(rxsum rxb1 xdp_tx) - t0)) = $N ] && [ $b0 -ge $N ] ||
				why+=" xdp_tx $(($(rxsum rxb1 xdp_tx) - t0)), rxb0's stack got $b0;"
		fi
		rxb_ip rxb1 link set dev rxb1 xdpdrv off || why+=" detach failed;"
		;;
	esac
	[ -z "$why" ] && return 0
	ktap_print_msg "$m $c:$why"
	return 1
}

# jumbo_models CASES: for each model, at MTU $MTU on both ports, one
# result per case (NM * the number of CASES).
jumbo_models() {
	local m c

	for m in $MODELS; do
		if ! echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		   ! setmtu rxb0 $MTU || ! setmtu rxb1 $MTU; then
			for c in $1; do ktap_test_fail "$m: jumbo $c (cannot switch to the model at MTU $MTU)"; done
			continue
		fi
		rxb_static_neigh rxb0 rxb1
		for c in $1; do
			ktap_test_result "$m: MTU $MTU, $c" jumbo_case "$m" "$c"
		done
	done
}
