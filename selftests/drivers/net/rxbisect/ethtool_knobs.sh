#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every offload ethtool -K toggles has its effect, on and off, seen where
# the stack meets the driver (trace events of the net system, filtered on
# one port, in a trace instance of this test's own):
#  1 rx (NETIF_F_RXCSUM): the NIC's CHECKSUM_COMPLETE reaches rxb1's GRO
#    entry (ip_summed=2) while on, never while off (ip_summed=0);
#  2 tx (NETIF_F_HW_CSUM): rxb0's UDP datagrams reach its ndo_start_xmit
#    with CHECKSUM_PARTIAL (3) while on, with none while off;
#  3 sg (NETIF_F_SG): a TCP stream from rxb0 hands it paged skbs
#    (data_len > 0) while on, linear ones only while off;
#  4 tso, tso6 (NETIF_F_TSO, NETIF_F_TSO6): frames longer than 1514 bytes
#    reach rxb0's xmit for the family whose TSO is on, none for the other
#    (a TCP stream over IPv4 and one over IPv6, each flag off in turn);
#  5 gro (NETIF_F_GRO): rxb1 hands the stack aggregated skbs (longer than
#    1500) while on, single frames only while off;
#  6 ntuple (NETIF_F_NTUPLE): a drop rule drops while on; ntuple off
#    deletes the rules (none listed, the flow delivered), -N is refused
#    until it is on again;
#  7 tcp-data-split set through netlink (tools/ynl.sh: Debian's ethtool
#    cannot send it; the kernel takes it from 6.7,
#    ETHTOOL_RING_USE_TCP_DATA_SPLIT): enabled, ethtool -g says on and
#    the NIC splits every datagram (nicmem_split_frames); disabled, off
#    and none split, every datagram delivered both ways;
#  8 ethtool -G rx 64, then 256: a stalled queue takes no more frames than
#    that (the NIC drops the rest for lack of buffers), and at least half
#    (a ring left at its size would take all 400 sent);
#  9, 10 each family of ethtool -S moves under a burst of N datagrams
#    rxb0 -> rxb1: device-wide, rx<q>_ (the model's queue counters, the
#    driver's, the NIC's queue registers), tx<q>_, and rx_pp_* where the
#    kernel has page_pool statistics.
# Elsewhere: rxhash on/off conventions.sh, coalescing coalesce.sh, the
# kTLS offloads tls.sh, -G tx engine.sh, -L/-X ethtool_live.sh and rss.sh,
# -N ntuple.sh, -T hwtstamp.sh.  Not here: tx-tcp-ecn-segmentation (only a TCP segment
# with CWR set takes that GSO type) and highdma (no high memory on
# x86-64): both only change what the core hands the driver.
# On a kernel that runs only what differs by kernel (rxb_kdep_only):
# tcp-data-split alone.

source "$(dirname "$0")/lib.sh"

rxb_init python3 ethtool
ktap_set_plan 10

IP6_0=fd00:52:43::1
IP6_1=fd00:52:43::2
TPORT=7010	# TCP receiver (both families)
N=200		# datagrams a burst

T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
TI=
if [ -d $T/events/net/net_dev_start_xmit ] && mkdir $T/instances/rxb-knobs-$$ 2>/dev/null; then
	TI=$T/instances/rxb-knobs-$$
fi
kn_cleanup() {
	if [ -n "$TI" ]; then
		echo 0 > "$TI/tracing_on"
		echo 0 > "$TI/events/enable"
		rmdir "$TI"
	fi
	rxb_cleanup
}
trap kn_cleanup EXIT

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_setup_ip6 "$IP6_0" "$IP6_1" || rxb_bail "cannot set up IPv6 on the ports"

# udp_burst COUNT PORT [LEN]: COUNT datagrams of LEN bytes (default 64)
# from rxb0 to rxb1's PORT, through bash's /dev/udp (no exec a datagram).
udp_burst() {
	ip netns exec "$NS0" bash -c '
		p=$(printf "%*s" "$3" "")
		for ((i = 0; i < $1; i++)); do
			printf "%s" "$p" >"/dev/udp/$4/$2"
		done' _ "$1" "$2" "${3:-64}" "$RXB_IP1" 2>/dev/null
}

# kn_wait P0 [COUNT [NAME]]: wait (up to 5 s) until rxb1's NAME (default
# the sum of rx<q>_stack_packets) reaches P0 + COUNT (default N); RXB_S
# holds rxb1's counters then.
kn_wait() {
	local i v
	for i in {1..25}; do
		rxb_snap rxb1
		if [ -n "${3:-}" ]; then v=${RXB_S[$3]:-}; else v=$(rxb_s_qsum stack_packets); fi
		[ "${v:-0}" -ge $(($1 + ${2:-N})) ] && return 0
		rxb_sleep 0.2
	done
	return 1
}
stack() { rxb_qsum rxb1 stack_packets; }

# kn_set IF FEATURE on|off...: ethtool -K; 1 (with the message) on error.
kn_set() {
	local out
	out=$(rxb_in "$1" ethtool -K "$@" 2>&1) && return 0
	ktap_print_msg "ethtool -K $*: ${out:-failed}"
	return 1
}

# ---- the trace -----------------------------------------------------------------
# kn_trace_start: an empty buffer; rxb0's xmits, rxb1's GRO entries and
# skbs handed to the stack recorded from now on.
kn_trace_start() {
	local e
	echo 0 > "$TI/tracing_on"
	echo > "$TI/trace"
	for e in net_dev_start_xmit:rxb0 netif_receive_skb:rxb1 \
		 napi_gro_receive_entry:rxb1 napi_gro_frags_entry:rxb1; do
		echo "name == \"${e#*:}\"" > "$TI/events/net/${e%:*}/filter" &&
		echo 1 > "$TI/events/net/${e%:*}/enable" || return 1
	done
	echo 1 > "$TI/tracing_on"
}

# kn_trace_stop: sets TX (xmits), TXMAX (the longest), TXNL (paged ones),
# TXP (CHECKSUM_PARTIAL ones), RX (skbs to rxb1's stack), RXMAX (the
# longest), GRO (rxb1's GRO entries), GROC (with CHECKSUM_COMPLETE).
kn_trace_stop() {
	echo 0 > "$TI/tracing_on"
	read -r TX TXMAX TXNL TXP RX RXMAX GRO GROC < <(awk '
		function f(k,  i) {
			for (i = 1; i <= NF; i++)
				if (index($i, k "=") == 1)
					return substr($i, length(k) + 2) + 0
			return -1
		}
		/ net_dev_start_xmit:/ {
			tx++; l = f("len"); if (l > txmax) txmax = l
			if (f("data_len") > 0) txnl++
			if (f("ip_summed") == 3) txp++
		}
		/ netif_receive_skb:/ { rx++; l = f("len"); if (l > rxmax) rxmax = l }
		/ napi_gro_(receive|frags)_entry:/ { gro++; if (f("ip_summed") == 2) groc++ }
		END { printf "%d %d %d %d %d %d %d %d\n", tx, txmax, txnl, txp, rx, rxmax, gro, groc }
		' "$TI/trace")
}

# ---- a TCP receiver on rxb1 (python3 started once), both families ----------
coproc RCV { ip netns exec "$NS1" timeout 900 python3 -u -c '
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("::", int(sys.argv[1])))
s.listen(4)
print("ready")
while True:
    c, _ = s.accept()
    n = 0
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        n += len(b)
    c.close()
    print(n)
' $TPORT; }
RXB_PIDS+=("$RCV_PID")
read -r -t 60 r <&"${RCV[0]}"
[ "$r" = ready ] || rxb_bail "the TCP receiver does not start"

# tcp_xfer 4|6: 256 KiB from rxb0 to rxb1 over one TCP connection, traced;
# 1 unless the receiver got them all.
TCP_BYTES=262144
tcp_xfer() {
	local dst=$RXB_IP1 got
	[ "$1" = 6 ] && dst=$IP6_1
	kn_trace_start || return 1
	ip netns exec "$NS0" timeout 30 bash -c \
		'exec 3>"/dev/tcp/$1/$2" && dd if=/dev/zero bs=65536 count=4 >&3 2>/dev/null' \
		_ "$dst" $TPORT
	read -r -t 30 got <&"${RCV[0]}"
	kn_trace_stop
	[ "$got" = $TCP_BYTES ] ||
		{ ktap_print_msg "IPv$1: the receiver got ${got:-nothing} of $TCP_BYTES bytes"; return 1; }
}

# ---- 1..6: offloads --------------------------------------------------------------
OFFLOADS=("rx off: the NIC's checksum stops reaching the stack, on: it does"
	  "tx off: no CHECKSUM_PARTIAL reaches the driver, on: it does"
	  "sg off: linear skbs only reach the driver, on: paged ones"
	  "tso/tso6: skbs longer than the MTU reach the driver only for the family whose TSO is on"
	  "gro off: rxb1 hands up frames one by one, on: aggregated"
	  "ntuple off: the rules are deleted, -N refused; on: -N works")
if rxb_kdep_only; then
	for t in "${OFFLOADS[@]}"; do ktap_test_skip "$t" "$RXB_KDEP_WHY"; done
elif [ -z "$TI" ]; then
	for t in "${OFFLOADS[@]}"; do ktap_test_skip "$t" "no net trace events"; done
else
	# 1: rx, UDP datagrams to rxb1
	why=
	p0=$(stack); kn_trace_start; udp_burst 20 9; kn_wait "$p0" 20; kn_trace_stop
	on="$GROC/$GRO"
	[ "$GRO" -ge 20 ] && [ "$GROC" = "$GRO" ] || why+=" on: $on CHECKSUM_COMPLETE;"
	kn_set rxb1 rx off || why+=" cannot turn it off;"
	p0=$(stack); kn_trace_start; udp_burst 20 9; kn_wait "$p0" 20; kn_trace_stop
	off="$GROC/$GRO"
	[ "$GRO" -ge 20 ] && [ "$GROC" = 0 ] || why+=" off: $off CHECKSUM_COMPLETE;"
	kn_set rxb1 rx on || why+=" cannot turn it on;"
	ktap_print_msg "rxb1 GRO entries with CHECKSUM_COMPLETE: rx on $on, rx off $off"
	ktap_test_result "${OFFLOADS[0]}" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "rx:$why"

	# 2: tx, UDP datagrams from rxb0
	why=
	kn_trace_start; udp_burst 20 9; kn_trace_stop
	on="$TXP/$TX"
	[ "$TX" -ge 20 ] && [ "$TXP" -ge 20 ] || why+=" on: $on CHECKSUM_PARTIAL;"
	kn_set rxb0 tx off || why+=" cannot turn it off;"
	kn_trace_start; udp_burst 20 9; kn_trace_stop
	off="$TXP/$TX"
	[ "$TX" -ge 20 ] && [ "$TXP" = 0 ] || why+=" off: $off CHECKSUM_PARTIAL;"
	kn_set rxb0 tx on || why+=" cannot turn it on;"
	ktap_print_msg "rxb0 xmits with CHECKSUM_PARTIAL: tx on $on, tx off $off"
	ktap_test_result "${OFFLOADS[1]}" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "tx:$why"

	# 3..5: TCP streams.  All on: paged, long (TSO) and aggregated (GRO).
	bad3= bad4= bad5=
	tcp_xfer 4 || bad3+=" transfer failed;"
	r4="v4 on: xmits $TX longest $TXMAX paged $TXNL, rx skbs $RX longest $RXMAX"
	[ "$TXNL" -gt 0 ] || bad3+=" none paged with sg on;"
	[ "$TXMAX" -gt 1514 ] || bad4+=" v4 none long with tso on;"
	[ "$RXMAX" -gt 1500 ] || bad5+=" none aggregated with gro on;"
	tcp_xfer 6 || bad4+=" v6 transfer failed;"
	r4+="; v6 on: longest $TXMAX"
	[ "$TXMAX" -gt 1514 ] || bad4+=" v6 none long with tso6 on;"
	# sg off (TSO goes with it: the core's rule)
	kn_set rxb0 sg off || bad3+=" cannot turn it off;"
	tcp_xfer 4 || bad3+=" transfer with sg off failed;"
	r3="sg off: xmits $TX paged $TXNL longest $TXMAX"
	[ "$TX" -gt 0 ] && [ "$TXNL" = 0 ] || bad3+=" paged with sg off;"
	kn_set rxb0 sg on tso on || bad3+=" cannot turn it on;"
	# tso off, tso6 on; then the other way round
	kn_set rxb0 tx-tcp-segmentation off || bad4+=" cannot turn tso off;"
	tcp_xfer 4 || bad4+=" v4 transfer failed;"
	r4+="; tcp-segmentation off: v4 longest $TXMAX"
	[ "$TX" -gt 0 ] && [ "$TXMAX" -le 1514 ] || bad4+=" v4 long with tso off;"
	tcp_xfer 6 || bad4+=" v6 transfer failed;"
	r4+=", v6 longest $TXMAX"
	[ "$TXMAX" -gt 1514 ] || bad4+=" v6 none long with tso6 on;"
	kn_set rxb0 tx-tcp-segmentation on tx-tcp6-segmentation off || bad4+=" cannot swap;"
	tcp_xfer 6 || bad4+=" v6 transfer failed;"
	r4+="; tcp6-segmentation off: v6 longest $TXMAX"
	[ "$TX" -gt 0 ] && [ "$TXMAX" -le 1514 ] || bad4+=" v6 long with tso6 off;"
	tcp_xfer 4 || bad4+=" v4 transfer failed;"
	r4+=", v4 longest $TXMAX"
	[ "$TXMAX" -gt 1514 ] || bad4+=" v4 none long with tso on;"
	kn_set rxb0 tx-tcp6-segmentation on || bad4+=" cannot turn tso6 on;"
	# gro off on rxb1
	kn_set rxb1 gro off || bad5+=" cannot turn it off;"
	tcp_xfer 4 || bad5+=" transfer failed;"
	r5="gro off: rx skbs $RX longest $RXMAX (xmits $TX longest $TXMAX)"
	[ "$RX" -gt 0 ] && [ "$RXMAX" -le 1500 ] || bad5+=" aggregated with gro off;"
	kn_set rxb1 gro on || bad5+=" cannot turn it on;"
	ktap_print_msg "$r3"
	ktap_test_result "${OFFLOADS[2]}" [ -z "$bad3" ]
	[ -n "$bad3" ] && ktap_print_msg "sg:$bad3"
	ktap_print_msg "$r4"
	ktap_test_result "${OFFLOADS[3]}" [ -z "$bad4" ]
	[ -n "$bad4" ] && ktap_print_msg "tso:$bad4"
	ktap_print_msg "$r5"
	ktap_test_result "${OFFLOADS[4]}" [ -z "$bad5" ]
	[ -n "$bad5" ] && ktap_print_msg "gro:$bad5"

	# 6: ntuple; a drop rule for UDP port 7777
	why=
	rule() { rxb_in rxb1 ethtool -N rxb1 flow-type udp4 dst-port 7777 action -1 2>&1; }
	rules() { rxb_in rxb1 ethtool -n rxb1 2>/dev/null | grep -c "^Filter:"; }
	drops() { rxb_stat rxb1 rx_ntuple_drops; }
	rule >/dev/null || why+=" -N refused with ntuple on;"
	d0=$(drops); udp_burst 20 7777; kn_wait "$d0" 20 rx_ntuple_drops; d1=$(drops)
	[ $((d1 - d0)) = 20 ] || why+=" on: $((d1 - d0))/20 dropped;"
	kn_set rxb1 ntuple off || why+=" cannot turn it off;"
	n=$(rules)
	[ "$n" = 0 ] || why+=" $n rules left with ntuple off;"
	p0=$(stack); udp_burst 20 7777; kn_wait "$p0" 20; d2=$(drops)
	[ "$d2" = "$d1" ] || why+=" off: $((d2 - d1)) dropped;"
	# (Debian's ethtool 6.1 exits 0 on the refusal: the table says it)
	out=$(rule)
	n=$(rules)
	[ "$n" = 0 ] || why+=" -N took with ntuple off ($n rules);"
	kn_set rxb1 ntuple on || why+=" cannot turn it on;"
	rule >/dev/null || why+=" -N refused once on again;"
	n=$(rules)
	udp_burst 20 7777; kn_wait "$d2" 20 rx_ntuple_drops; d3=$(drops)
	[ "$n" = 1 ] && [ $((d3 - d2)) = 20 ] || why+=" on again: $n rules, $((d3 - d2))/20 dropped;"
	rxb_in rxb1 ethtool -K rxb1 ntuple off
	rxb_in rxb1 ethtool -K rxb1 ntuple on
	ktap_print_msg "drop rule: on +$((d1 - d0)), off +$((d2 - d1)) (-N: $(xargs <<<"$out")), on again +$((d3 - d2))"
	ktap_test_result "${OFFLOADS[5]}" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "ntuple:$why"
fi

# ---- 7: tcp-data-split through netlink -----------------------------------------
YNL=$RXB_DIR/../../../../tools/ynl.sh
T7="tcp-data-split through netlink: enabled splits every datagram, disabled none"
split() { rxb_in rxb1 ethtool -g rxb1 2>/dev/null | sed -n 's/^TCP data split:[[:space:]]*//ip'; }
# ynl_split enabled|disabled: 0, or ynl's status (4: it cannot run here).
# The 6.12 spec has the attribute as a plain u8: enum
# ethtool_tcp_data_split's value (1 disabled, 2 enabled).
ynl_split() {
	local out rc v=1
	[ "$1" = enabled ] && v=2
	out=$(ip netns exec "$NS1" "$YNL" ethtool --do rings-set \
		--json '{"header": {"dev-name": "rxb1"}, "tcp-data-split": '$v'}' 2>&1)
	rc=$?
	[ $rc = 0 ] || YNL_ERR=$(tail -n 2 <<<"$out" | xargs)
	rxb_wait_carrier rxb0
	rxb_static_neigh rxb0 rxb1
	return $rc
}
# udp_noports: NS1's UDP datagrams to a port nobody listens on (port 9):
# the burst's, and only those (rx<q>_stack_packets also counts what IPv6
# sends after the ring change's link flap).
udp_noports() { ip netns exec "$NS1" awk '$1 == "Udp:" && $3 ~ /^[0-9]+$/ { print $3 }' /proc/net/snmp; }
# split_burst: N datagrams of 1000 bytes; sets SPLIT (frames the NIC
# split) and DLV (of them delivered to UDP), once all are (5 s at most).
split_burst() {
	local s0 u0 i
	rxb_snap rxb1
	s0=${RXB_S[nicmem_split_frames]:-0} u0=$(udp_noports)
	udp_burst $N 9 1000
	for i in {1..27}; do
		DLV=$(($(udp_noports) - u0))
		[ "$DLV" -ge $N ] && break
		rxb_poll_wait "$i"
	done
	rxb_snap rxb1
	SPLIT=$((${RXB_S[nicmem_split_frames]:-0} - s0))
}
if ! rxb_kver_ge 6.7; then
	ktap_test_skip "$T7" "this kernel's ethtool netlink cannot set tcp-data-split (6.7: ETHTOOL_RING_USE_TCP_DATA_SPLIT)"
else
	why=
	# IPv6 off from here (cases 1-6 used it): the ring changes' link flaps
	# would make it send MLD and router solicitations into the bursts.
	ip netns exec "$NS0" sysctl -qw net.ipv6.conf.rxb0.disable_ipv6=1
	ip netns exec "$NS1" sysctl -qw net.ipv6.conf.rxb1.disable_ipv6=1
	ynl_split enabled
	rc=$?
	if [ $rc = 4 ]; then
		ktap_test_skip "$T7" "tools/ynl.sh cannot run here: $YNL_ERR"
	else
		[ $rc = 0 ] || why+=" enabled: ynl exit $rc ($YNL_ERR);"
		s=$(split); split_burst
		r="enabled: ethtool -g $s, split $SPLIT, delivered $DLV of $N"
		[ "$s" = on ] && [ "$SPLIT" = $N ] && [ "$DLV" = $N ] || why+=" enabled;"
		ynl_split disabled || why+=" disabled: ynl exit $? ($YNL_ERR);"
		s=$(split); split_burst
		r+="; disabled: ethtool -g $s, split $SPLIT, delivered $DLV of $N"
		[ "$s" = off ] && [ "$SPLIT" = 0 ] && [ "$DLV" = $N ] || why+=" disabled;"
		ktap_print_msg "$r"
		ktap_test_result "$T7" [ -z "$why" ]
		[ -n "$why" ] && ktap_print_msg "tcp-data-split:$why"
	fi
fi

# ---- 8: ethtool -G rx ------------------------------------------------------
# ring_fill RING: -G rx RING, queue 0 stalled (idle: no poll in flight),
# 400 datagrams to it; sets HW, the frames the NIC wrote to it (the rest
# are its drops for lack of buffers).
T10="ethtool -G rx 64, 256: a stalled queue takes no more frames than its ring has buffers"
ring_fill() {
	local w0 d0 i d
	rxb_in rxb1 ethtool -G rxb1 rx "$1" || return 1
	rxb_wait_carrier rxb0
	rxb_knob_set rxb1 0 stall 1
	rxb_snap rxb1
	w0=${RXB_S[rx0_hw_packets]}
	d0=$((RXB_S[rx0_nobuf_drops] + RXB_S[rx0_ring_full_drops]))
	udp_burst 400 9
	for i in {1..25}; do
		rxb_snap rxb1
		HW=$((RXB_S[rx0_hw_packets] - w0))
		d=$((RXB_S[rx0_nobuf_drops] + RXB_S[rx0_ring_full_drops] - d0))
		[ $((HW + d)) -ge 400 ] && break
		rxb_sleep 0.2
	done
	rxb_knob_set rxb1 0 stall 0
	rxb_wait_consumed rxb1 >/dev/null
}
if rxb_kdep_only; then
	ktap_test_skip "$T10" "$RXB_KDEP_WHY"
else
	why=
	r0=$(rxb_ring rxb1 RX)
	rxb_in rxb1 ethtool -X rxb1 weight 1 0 || why+=" -X weight 1 0 refused;"
	ring_fill 64 || why+=" -G rx 64 refused;"
	h64=$HW
	ring_fill 256 || why+=" -G rx 256 refused;"
	h256=$HW
	rxb_in rxb1 ethtool -X rxb1 default
	rxb_in rxb1 ethtool -G rxb1 rx "$r0"
	rxb_wait_carrier rxb0
	ktap_print_msg "frames a stalled queue took of 400: ring 64 $h64, ring 256 $h256"
	[ "$h64" -ge 32 ] && [ "$h64" -le 64 ] && [ "$h256" -ge 128 ] && [ "$h256" -le 256 ] ||
		why+=" ring 64: $h64, ring 256: $h256;"
	ktap_test_result "$T10" [ -z "$why" ]
	[ -n "$why" ] && ktap_print_msg "-G rx:$why"
fi

# ---- 9, 10: the counter families of ethtool -S ---------------------------------
T8="ethtool -S rxb1: each receive counter family moves with a burst of $N datagrams"
T9="ethtool -S rxb0: its transmit counters, device-wide and tx<q>_, count the burst"
if rxb_kdep_only; then
	ktap_test_skip "$T8" "$RXB_KDEP_WHY"
	ktap_test_skip "$T9" "$RXB_KDEP_WHY"
else
	declare -A A0 B0
	rxb_snap rxb1; for k in "${!RXB_S[@]}"; do A0[$k]=${RXB_S[$k]}; done
	p0=$(rxb_s_qsum stack_packets)
	rxb_snap rxb0; for k in "${!RXB_S[@]}"; do B0[$k]=${RXB_S[$k]}; done
	udp_burst $N 9
	# d KEY: its growth on rxb1; q FIELD: the growth of rx<q>_FIELD summed
	d() { echo $((${RXB_S[$1]:-0} - ${A0[$1]:-0})); }
	q() {
		local i=0 s=0
		while [ -n "${RXB_S[rx${i}_$1]:-}" ]; do
			s=$((s + RXB_S[rx${i}_$1] - ${A0[rx${i}_$1]:-0}))
			i=$((i + 1))
		done
		echo $s
	}
	# frames of 14 + 20 + 8 + 64 bytes
	F=$((N * 106))
	kn_wait "$p0"
	bad= msg=
	# KIND NAME MIN: NAME (device-wide "d", summed rx<q>_ "q") grew by MIN
	# at least
	for c in "d rx_packets $N" "d rx_bytes $F" "d rx_polls 1" \
		 "d rx_refills 1" "d rx_irqs 1" "d dma_bytes $F" \
		 "d pcie_to_host_data_bytes $F" "d pcie_to_host_meta_bytes 1" \
		 "d pcie_to_nic_desc_bytes 1" "d pcie_to_nic_mmio_bytes 1" \
		 "q hw_packets $N" "q hw_bytes $F" "q packets $N" "q bytes $F" \
		 "q polls 1" "q refills 1" "q doorbells 1" \
		 "q stack_packets $N" "q stack_bytes $F" "q irqs 1" \
		 "q pcie_to_host_data_bytes $F" "q pcie_to_host_meta_bytes 1" \
		 "q pcie_to_nic_desc_bytes 1" "q pcie_to_nic_mmio_bytes 1"; do
		read -r kind name min <<<"$c"
		v=$($kind "$name")
		[ "$kind" = q ] && name="rx<q>_$name"
		msg+=" $name +$v"
		[ "$v" -ge "$min" ] || bad+=" $name +$v (< $min);"
	done
	# io_ws_*: of the live rings, a level; page_pool's own: where kept
	[ "${RXB_S[io_ws_buffers_peak]:-0}" -gt 0 ] && [ "${RXB_S[io_ws_bytes_peak]:-0}" -gt 0 ] ||
		bad+=" io_ws_*_peak 0;"
	[ "$(rxb_s_qvals pp_size | tr -d ' 0')" != "" ] || bad+=" rx<q>_pp_size 0;"
	pp=0 npp=0
	for k in "${!RXB_S[@]}"; do
		[[ $k == rx_pp_alloc_* || $k == rx_pp_recycle_* ]] || continue
		npp=$((npp + 1)); pp=$((pp + $(d "$k")))
	done
	[ $npp = 0 ] || [ $pp -gt 0 ] || bad+=" rx_pp_alloc_*/recycle_* +0;"
	msg+=" io_ws_buffers_peak ${RXB_S[io_ws_buffers_peak]:-} rx<q>_pp_size $(rxb_s_qvals pp_size)"
	if [ $npp = 0 ]; then
		msg+=" no rx_pp_* (no CONFIG_PAGE_POOL_STATS)"
	else
		msg+=" rx_pp_alloc_*/recycle_* +$pp ($npp counters)"
	fi
	ktap_print_msg "rxb1:$msg"
	ktap_test_result "$T8" [ -z "$bad" ]
	[ -n "$bad" ] && ktap_print_msg "rxb1:$bad"

	rxb_snap rxb0
	tp=$((${RXB_S[tx_packets]:-0} - ${B0[tx_packets]:-0}))
	tb=$((${RXB_S[tx_bytes]:-0} - ${B0[tx_bytes]:-0}))
	qp=0 qb=0 i=0
	while [ -n "${RXB_S[tx${i}_packets]:-}" ]; do
		qp=$((qp + RXB_S[tx${i}_packets] - ${B0[tx${i}_packets]:-0}))
		qb=$((qb + RXB_S[tx${i}_bytes] - ${B0[tx${i}_bytes]:-0}))
		i=$((i + 1))
	done
	ktap_print_msg "rxb0: tx_packets +$tp tx_bytes +$tb, tx<q>_packets +$qp tx<q>_bytes +$qb ($N frames, $F bytes sent)"
	ktap_test_result "$T9" [ "$tp" -ge $N -a "$tb" -ge $F -a "$qp" = "$tp" -a "$qb" = "$tb" ]
fi

ktap_finished
