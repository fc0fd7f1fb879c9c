#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the benchmarks in tools/bench (source after the selftests'
# lib.sh, which loads the module, sets up the namespaces $NS0/$NS1 and
# computes RSS queues: rxb_load, rxb_setup_netns, rxb_snap,
# rxb_toeplitz_queue).
#
# Process start-up is slow under TCG, so parsing stays in bash where it
# can; python3 only sends traffic and draws tables.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_PG=/proc/net/pktgen

# bench_models: the ring models the module offers, from its ring_model
# parameter's modinfo text ("... (privring|rxbisect|...; default
# privring); writable"), so that a model added to the module is
# benchmarked without a change here.  $MODELS overrides.  Text it cannot
# read is an error (stderr, exit 1), never a list of its own.
bench_models() {
	local d src=rxbisect
	if [ -n "${MODELS:-}" ]; then
		echo "$MODELS"
		return
	fi
	modinfo -n rxbisect >/dev/null 2>&1 || src=${RXB_KO:-rxbisect}
	d=$(modinfo -p "$src" 2>/dev/null |
		sed -n 's/^ring_model:.*(\([a-z0-9|-]*\); default [a-z0-9-]*); writable.*/\1/p')
	if [ -z "$d" ]; then
		echo "bench_models: no ring models in modinfo -p $src" >&2
		return 1
	fi
	echo "${d//|/ }"
}

# bench_jiffies: "kernel softirq" jiffies of all CPUs (system + irq +
# softirq, and softirq alone) from /proc/stat.
bench_jiffies() { awk '/^cpu / { print $4 + $7 + $8, $8 }' /proc/stat; }

# bench_rx_packets NS IF: the interface's rx_packets (veth too).
bench_rx_packets() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_packets"
}

# bench_pg NS FILE CMD: one pktgen command in NS's pktgen (per namespace).
bench_pg() {
	ip netns exec "$1" sh -c "echo '$3' > $BENCH_PG/$2" 2>/dev/null
}

# bench_pktgen NS TXIF DSTMAC DSTIP PKT_SIZE SECS RXNS RXIF: pktgen blasts
# UDP frames of PKT_SIZE bytes (FCS excluded) from TXIF at full speed,
# destination ports 1000..1063 so that RSS spreads them; prints the frames
# RXIF received per second over SECS (after a one-second warm-up) and the
# "kernel softirq" jiffies spent meanwhile.  clone_skb 0: veth and
# rxbisect ports (no IFF_TX_SKB_SHARING) refuse shared skbs.  The pktgen
# thread of CPU BENCH_GEN_CPU (default 0; host.sh: the layout's first
# generator CPU) sends.
bench_pktgen() {
	local ns=$1 dev=$2 mac=$3 dst=$4 size=$5 secs=$6 rns=$7 rif=$8
	local pid p0 p1 k0 s0 k1 s1 t0 t1 th=kpktgend_${BENCH_GEN_CPU:-0}
	modprobe pktgen 2>/dev/null
	ip netns exec "$ns" test -e $BENCH_PG/pgctrl || { echo "- - -"; return; }
	bench_pg_setup "$ns" "$dev" "$mac" "$dst" "$size" 0 9 9 1000 1063
	ip netns exec "$ns" timeout $((secs + 30)) \
		sh -c "echo start > $BENCH_PG/pgctrl" 2>/dev/null &
	pid=$!
	sleep 1
	p0=$(bench_rx_packets "$rns" "$rif")
	read -r k0 s0 < <(bench_jiffies)
	t0=$(date +%s%N)
	sleep "$secs"
	p1=$(bench_rx_packets "$rns" "$rif")
	read -r k1 s1 < <(bench_jiffies)
	t1=$(date +%s%N)
	bench_pg "$ns" pgctrl stop
	wait "$pid" 2>/dev/null
	bench_pg "$ns" "$th" rem_device_all
	echo "$(( (p1 - p0) * 1000000000 / (t1 - t0) )) $((k1 - k0)) $((s1 - s0))"
}

# bench_pg_setup NS DEV MAC DST SIZE COUNT SPORT_MIN SPORT_MAX DPORT_MIN
# DPORT_MAX [PPS]: DEV alone on the pktgen thread of CPU BENCH_GEN_CPU,
# COUNT UDP frames of SIZE bytes (0: until stopped) at full speed or PPS.
bench_pg_setup() {
	local th=kpktgend_${BENCH_GEN_CPU:-0} c
	bench_pg "$1" "$th" rem_device_all
	bench_pg "$1" "$th" "add_device $2"
	for c in "count $6" "clone_skb 0" "pkt_size $5" "delay 0" \
		 "dst $4" "dst_mac $3" "udp_src_min $7" "udp_src_max $8" \
		 "udp_dst_min $9" "udp_dst_max ${10}" ${11:+"ratep ${11}"}; do
		bench_pg "$1" "$2" "$c"
	done
}

# bench_pg_sent NS DEV: frames pktgen sent from DEV in its last run.
bench_pg_sent() {
	ip netns exec "$1" sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "$BENCH_PG/$2" 2>/dev/null |
		head -n1
}

# bench_sockperf NS_CLIENT NS_SERVER DST SECS MPS [GRACE]: sockperf UDP
# ping-pong; prints "p50 p99 p99.9" (usec, RTT/2) or dashes.  The client
# is stopped GRACE seconds (20) after SECS (under a flood it may not end).
bench_sockperf() {
	local out pid
	ip netns exec "$2" timeout $(($4 + 30)) sockperf sr -i "$3" -p 11111 \
		>/dev/null 2>&1 &
	pid=$!
	sleep 1
	out=$(ip netns exec "$1" timeout $(($4 + ${6:-20})) sockperf pp -i "$3" \
		-p 11111 -t "$4" --mps="$5" 2>&1)
	kill "$pid" 2>/dev/null	# timeout passes it on to sockperf
	wait "$pid" 2>/dev/null
	awk '/percentile 50.000/ { a = $NF } /percentile 99.000/ { b = $NF }
	     /percentile 99.900/ { c = $NF }
	     END { print (a ? a : "-"), (b ? b : "-"), (c ? c : "-") }' <<<"$out"
}

# bench_flow_ports IF Q N: flow selection against IF's RSS table: N UDP
# source ports whose flows from $RXB_IP0 to $RXB_IP1 port 9 the Toeplitz
# hash and the indirection table (ethtool -x) put on queue Q, then ",",
# then N ports put on any other queue ("20000 20007 , 20001 20002").
bench_flow_ports() {
	local q=$2 n=$3 key ind sp=20000 t=() o=() got
	key=$(rxb_hkey "$1") && ind=$(rxb_indir "$1") || return 1
	while { [ ${#t[@]} -lt "$n" ] || [ ${#o[@]} -lt "$n" ]; } && [ $sp -lt 40000 ]; do
		got=$(rxb_toeplitz_queue "$key" "$ind" "$RXB_IP0" "$RXB_IP1" $sp 9)
		if [ "$got" = "$q" ]; then
			[ ${#t[@]} -lt "$n" ] && t+=("$sp")
		elif [ ${#o[@]} -lt "$n" ]; then
			o+=("$sp")
		fi
		sp=$((sp + 1))
	done
	echo "${t[*]} , ${o[*]}"
}

# bench_udp_mix NS DST SECS PPS SHARE TPORTS OPORTS [LEN]: UDP datagrams
# to DST port 9 at PPS in all, SHARE percent from the target ports (comma
# separated), the rest from the others; prints "sent_target sent_other
# seconds".  BENCH_TX_CPU: the CPU the sender runs on (the NIC runs in its
# context), away from a slowed target queue, so that the offered rate does
# not fall with the target's work.
bench_udp_mix() {
	local pin=()
	[ -n "${BENCH_TX_CPU:-}" ] && pin=(taskset -c "$BENCH_TX_CPU")
	ip netns exec "$1" timeout $(($3 + 30)) "${pin[@]}" python3 \
		"$BENCH_DIR/udp_mix.py" "$2" "$3" "$4" "$5" "$6" "$7" "${8:-1000}"
}

# bench_pin_target IF NQ: IF's queue 0 (the target) interrupts the first
# online CPU, its queues 1..NQ-1 the second; prints the second, the CPU
# for the sender (BENCH_TX_CPU).  With a host layout (host.sh: HL_*) the
# target gets the first queue CPU, the other queues the others in turn,
# and the sender the first generator CPU.
bench_pin_target() {
	local cpus q
	if [ -n "${HL_QUEUE_CPUS:-}" ] && [ -n "${HL_GEN_CPUS:-}" ]; then
		read -ra cpus <<<"$HL_QUEUE_CPUS"
		rxb_knob_set "$1" 0 irq_cpu "${cpus[0]}"
		for ((q = 1; q < $2; q++)); do
			if [ ${#cpus[@]} -gt 1 ]; then
				rxb_knob_set "$1" "$q" irq_cpu "${cpus[1 + (q - 1) % (${#cpus[@]} - 1)]}"
			else
				rxb_knob_set "$1" "$q" irq_cpu "${cpus[0]}"
			fi
		done
		echo "${HL_GEN_CPUS%% *}"
		return
	fi
	mapfile -t cpus < <(rxb_online_cpus)
	rxb_knob_set "$1" 0 irq_cpu "${cpus[0]}"
	for q in $(seq 1 $(($2 - 1))); do
		rxb_knob_set "$1" "$q" irq_cpu "${cpus[1]:-${cpus[0]}}"
	done
	echo "${cpus[1]:-${cpus[0]}}"
}

# bench_target_share NS DST IF SECS PPS SHARE TPORTS OPORTS: bench_udp_mix
# with IF's queue 0 as the target; prints "sent_target sent_other seconds
# target_pct other_pct", the last two the share of each the NIC delivered
# (rxN_hw_packets; "-" when none were sent).
bench_target_share() {
	local t0 o0 t1 o1 st so secs
	rxb_snap "$3" || return 1
	t0=${RXB_S[rx0_hw_packets]:-0}
	o0=$(($(rxb_s_qsum hw_packets) - t0))
	read -r st so secs < <(bench_udp_mix "$1" "$2" "$4" "$5" "$6" "$7" "$8")
	sleep 0.5
	rxb_snap "$3" || return 1
	t1=${RXB_S[rx0_hw_packets]:-0}
	o1=$(($(rxb_s_qsum hw_packets) - t1))
	awk -v st="${st:-0}" -v so="${so:-0}" -v secs="${secs:-0}" \
		-v dt=$((t1 - t0)) -v dn=$((o1 - o0)) '
		function pct(d, n) { return n > 0 ? sprintf("%.1f", 100 * d / n) : "-" }
		BEGIN { print st, so, secs, pct(dt, st), pct(dn, so) }'
}

# bench_ratio A B: A / B with two decimals, "-" when either is missing.
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "-";
		else printf "%.2f", a / b }'
}
