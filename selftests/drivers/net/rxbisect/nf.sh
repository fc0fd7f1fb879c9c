#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The network functions of tools/nf (nat, lb, l3fwd) on rxb1 in native XDP
# mode, on every ring model, and on a veth pair as the baseline.  Each NF
# is loaded once and kept across the model switches; per model, UDP from
# rxb0 ($NS0) in FLOWS flows, and from the counters, exactly: the NF saw
# every datagram and sent every one back out of rxb1 (XDP_TX), dropped
# none, and rxb0's stack received them all.  A sniffer on rxb0
# (tools/nf/nf_sniff.py) checks what came back over all the models:
#   nat    source 203.0.113.1 with a port of the range, one port per flow;
#   lb     destination one of the backends, each flow on one backend
#          throughout, every backend some flows; Maglev's table gives each
#          backend M/N entries within one;
#   l3fwd  TTL 64 - 1, to the routed destination;
# and every IP header and UDP checksum is right (rxb0 computes its UDP
# checksums: tx offload off), every frame from IF_NF's MAC to IF_TX's.
# l3fwd's XDP_REDIRECT: a route out of rxr0, the first port of a second
# rxbisect pair (its peer rxr1 in a namespace of its own), per model
# FLOWS x COUNT datagrams routed there and COUNT to an address with no
# route; exactly: l3fwd redirected the routed ones and dropped the others
# as no_route, rxb1 counted the redirects (xdp_redirect, no errors), rxr0
# sent them (txN_xdp_xmit) and rxr1 received them, TTL 63, from rxr0's MAC
# to rxr1's.  The LB with its default connection map, 10 M entries as in
# the papers (about 1 GiB: the VM has 2 GiB): the kernel's map has
# max_entries 10000000 (bpftool), traffic goes through it with each
# connection an entry of the map, and it unloads: program detached, map
# freed, its memory back.  Bad input: a loader on a nonexistent
# device, and the LB with a connection map the kernel cannot allocate and
# with one beyond the loader's limit, is refused with a clear message,
# nothing stays attached and the port keeps forwarding.
#
# The loaders are built on the host (make, make tools: clang, bpftool,
# libbpf); without them the test skips.

source "$(dirname "$0")/lib.sh"

NF=$(cd "$RXB_DIR/../../../../tools/nf" 2>/dev/null && pwd)
PROGS=$RXB_DIR/progs
rxb_init ethtool
for n in nat lb l3fwd; do
	[ -x "$NF/nf-$n" ] || ktap_skip_all "tools/nf/nf-$n is not built (make tools)"
done
[ -f "$PROGS/xdp_pass.bpf.o" ] || make -s -C "$PROGS" >/dev/null 2>&1 ||
	ktap_skip_all "the BPF programs in $PROGS are not built (make module)"

rxb_load queues=2 || ktap_skip_all "cannot load the module"
MODELS=$(rxb_models | xargs)
NM=$(wc -w <<<"$MODELS")
NFS="nat lb l3fwd"
# per NF: each model, the sniffer's check on rxb, veth; l3fwd's redirect:
# each model, the sniffer's check; the 10 M-entry LB: 3; bad input: 3
ktap_set_plan $((3 * (NM + 2) + NM + 1 + 3 + 3))

COUNT=8		# datagrams per flow
FLOWS=8		# flows (source ports) per model
DST=198.51.100.9
VIP=198.51.100.1
EXT=203.0.113.1
BACKENDS="10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4"
M=251		# Maglev table size (prime)
LB_CONN=4096	# nf-lb --conn-max; empty: the loader's default (10 M)
L3_ROUTES=	# nf-l3fwd's routes; empty: back out of the port (nf_args)
NF_WAIT=100	# tenths of a second a loader may take to attach

NSV0=rxb-va-$$-$RANDOM
NSV1=rxb-vb-$$-$RANDOM
NSR=rxb-vr-$$-$RANDOM
nf_cleanup() {
	rxb_kill_bg
	rxb_ns_del "$NSV0" "$NSV1" "$NSR"
	rxb_cleanup
}
trap nf_cleanup EXIT

rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# nf_side_setup NS_TX IF_TX NS_NF IF_NF: the sender's route to the NFs'
# addresses, its UDP checksums computed in software.
nf_side_setup() {
	ip -n "$1" route add 198.51.100.0/24 via "$RXB_IP1" dev "$2" || return 1
	ip netns exec "$1" ethtool -K "$2" tx off >/dev/null 2>&1 ||
		ktap_print_msg "$2: cannot turn tx checksum offload off"
	return 0
}
nf_side_setup "$NS0" rxb0 || rxb_bail "cannot route in $NS0"

# The veth baseline: va ($NSV0, 192.0.2.1) - vb ($NSV1, 192.0.2.2); va
# runs a pass program so that it takes vb's XDP_TX frames (veth NAPI).
veth_setup() {
	local ma mb ns
	ip netns add "$NSV0" && ip netns add "$NSV1" || return 1
	# no IPv6 (router solicitations) to count, as rxb_setup_netns does
	for ns in $NSV0 $NSV1; do
		ip netns exec "$ns" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6;
			echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null
	done
	ip link add va netns "$NSV0" type veth peer name vb netns "$NSV1" || return 1
	ma=$(ip netns exec "$NSV0" cat /sys/class/net/va/address) &&
	mb=$(ip netns exec "$NSV1" cat /sys/class/net/vb/address) || return 1
	ip -n "$NSV0" -b - <<-EOF || return 1
		link set lo up
		addr add $RXB_IP0/24 dev va
		link set va up
		neigh replace $RXB_IP1 lladdr $mb dev va nud permanent
	EOF
	ip -n "$NSV1" -b - <<-EOF || return 1
		link set lo up
		addr add $RXB_IP1/24 dev vb
		link set vb up
		neigh replace $RXB_IP0 lladdr $ma dev vb nud permanent
	EOF
	ip -n "$NSV0" link set dev va xdpdrv obj "$PROGS/xdp_pass.bpf.o" sec xdp || return 1
	RXB_NS["va"]=$NSV0
	RXB_NS["vb"]=$NSV1
	nf_side_setup "$NSV0" va
}
VETH=1
veth_setup || { VETH=; ktap_print_msg "cannot set up the veth pair"; }

# nf_args NF NS_TX IF_TX IF_NF: the loader's options.
nf_args() {
	local b mac
	case $1 in
	nat)	echo "--inside 192.0.2.0/24 --external $EXT --ports 2000-2999 --flows 4096" ;;
	lb)	for b in $BACKENDS; do echo -n "-b $b "; done
		echo "--vip $VIP:9 --table-size $M${LB_CONN:+ --conn-max $LB_CONN}" ;;
	l3fwd)	[ -n "$L3_ROUTES" ] && { echo "$L3_ROUTES"; return; }
		mac=$(ip netns exec "$2" cat "/sys/class/net/$3/address")
		echo "-r 198.51.100.0/24,$4,$mac -r 10.0.0.0/8,$4,02:00:00:00:00:01" ;;
	esac
}

# nf_get KEY: KEY's number in NF_LINE, the loader's last JSON line.
nf_get() {
	[[ $NF_LINE =~ \"$1\":\ ([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}

# nf_start NF NS_TX IF_TX NS_NF IF_NF [NS_SNIFF IF_SNIFF]: the loader on
# IF_NF and the sniffer on IF_TX (or IF_SNIFF); NF_PID, SNIFF_PID, NF_OUT.
nf_start() {
	local i args sns=${6:-$2} sif=${7:-$3}
	NF_OUT=$RXB_TMP/$1-$5${7:+-$7}
	args=$(nf_args "$1" "$2" "$3" "$5")
	rm -f "$NF_OUT".*
	# shellcheck disable=SC2086 # the options, split
	ip netns exec "$4" "$NF/nf-$1" -i "$5" $args >"$NF_OUT.json" 2>"$NF_OUT.err" &
	NF_PID=$!
	RXB_PIDS+=("$NF_PID")
	ip netns exec "$sns" $RXB_PY "$NF/nf_sniff.py" "$sif" 9 "$NF_OUT.sniff" \
		>"$NF_OUT.sniff.log" 2>&1 &
	SNIFF_PID=$!
	RXB_PIDS+=("$SNIFF_PID")
	for i in $(seq "$NF_WAIT"); do
		grep -q attached "$NF_OUT.err" 2>/dev/null && [ -e "$NF_OUT.sniff.ready" ] &&
			return 0
		kill -0 $NF_PID 2>/dev/null || break
		rxb_sleep 0.1
	done
	ktap_print_msg "$1 on $5: $(cat "$NF_OUT.err" "$NF_OUT.sniff.log" 2>/dev/null)"
	return 1
}

# nf_dump: the loader's counters now (SIGUSR1) into NF_LINE.
nf_dump() {
	local n i l
	n=$(wc -l <"$NF_OUT.json")
	kill -USR1 $NF_PID 2>/dev/null || return 1
	for i in {1..50}; do
		l=$(wc -l <"$NF_OUT.json")
		[ "$l" -gt "$n" ] && { NF_LINE=$(tail -n 1 "$NF_OUT.json"); return 0; }
		rxb_sleep 0.1
	done
	return 1
}

# nf_send NS DST: COUNT datagrams of 64 bytes to DST port 9 from each of
# FLOWS UDP sockets (bash's /dev/udp: each its own source port), in turn;
# prints the number sent.  One bash, no python: process start-up is what
# costs under TCG.
nf_send() {
	ip netns exec "$1" bash -c '
		n=0 p=$(printf "%064d" 0)
		for ((f = 0; f < $2; f++)); do
			eval "exec $((f + 10))>/dev/udp/$1/9" || exit 1
		done
		for ((i = 0; i < $3; i++)); do
			for ((f = 0; f < $2; f++)); do
				printf %s "$p" >&$((f + 10)) && n=$((n + 1))
			done
		done
		echo $n' nf_send "$2" $FLOWS $COUNT
}

# nf_rx NS IF: IF's rx_packets.
nf_rx() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_packets"; }

# nf_round NF NS_TX IF_TX: FLOWS x COUNT datagrams through the running NF;
# 0 when it translated or forwarded each one back to IF_TX, exactly.
# NF_SENT: the total so far.
nf_round() {
	local dst=$DST sent r0 rx0 tx0 d0 rx tx d got i why=
	[ "$1" = lb ] && dst=$VIP
	nf_dump || { ktap_print_msg "$1: no counters"; return 1; }
	rx0=$(nf_get rx) tx0=$(nf_get tx) d0=$(nf_get drop)
	r0=$(nf_rx "$2" "$3")
	sent=$(nf_send "$2" "$dst")
	NF_SENT=$((NF_SENT + sent))
	for i in {1..27}; do
		nf_dump || break
		tx=$(($(nf_get tx) - tx0))
		got=$(($(nf_rx "$2" "$3") - r0))
		[ "$tx" -ge "$sent" ] && [ "$got" -ge "$sent" ] && break
		rxb_poll_wait $i
	done
	rx=$(($(nf_get rx) - rx0)) d=$(($(nf_get drop) - d0))
	[ "$sent" = $((COUNT * FLOWS)) ] || why+=" sent $sent of $((COUNT * FLOWS));"
	ktap_print_msg "$1: ${sent} sent, ${SECONDS}s"
	[ "$rx" = "$sent" ] && [ "$tx" = "$sent" ] && [ "$d" = 0 ] ||
		why+=" NF rx $rx tx $tx drop $d of $sent;"
	[ "$got" = "$sent" ] || why+=" $3 received $got of $sent;"
	[ -z "$why" ] && return 0
	ktap_print_msg "$1:$why ($NF_LINE)"
	return 1
}

# nf_stop: end the loader and the sniffer; NF_LINE their last counters.
nf_stop() {
	local i
	kill $SNIFF_PID $NF_PID 2>/dev/null
	wait $SNIFF_PID $NF_PID 2>/dev/null
	for i in {1..50}; do
		[ -s "$NF_OUT.sniff" ] && break
		rxb_sleep 0.1
	done
	NF_LINE=$(tail -n 1 "$NF_OUT.json")
}

# nf_verify NF IF DMAC SMAC: what the sniffer saw against NF_SENT and
# NF_LINE; every frame from SMAC to DMAC.
nf_verify() {
	local out
	out=$($RXB_PY - "$1" "$NF_OUT.sniff" "$NF_SENT" "$NF_LINE" "$EXT" "$DST" \
		"$BACKENDS" "$M" "$3" "$4" <<'EOF'
import json, sys
nf, rows, sent = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
line, ext, dst = json.loads(sys.argv[4]), sys.argv[5], sys.argv[6]
backends, m = sys.argv[7].split(), int(sys.argv[8])
dmac, smac = sys.argv[9], sys.argv[10]
bad = []
total = sum(r[7] for r in rows)
if total != sent:
    bad.append("received %d of %d" % (total, sent))
if any(r[4] != 3 for r in rows):
    bad.append("bad checksums: %s" % [r for r in rows if r[4] != 3][:3])
if any(r[5] != dmac or r[6] != smac for r in rows):
    bad.append("not from %s to %s: %s" % (smac, dmac,
               [r for r in rows if r[5] != dmac or r[6] != smac][:3]))
if nf == "nat":
    if any(r[0] != ext or not 2000 <= r[1] <= 2999 or r[2] != dst or r[3] != 64 for r in rows):
        bad.append("not translated: %s" % rows[:3])
    if len(rows) != line["new_flows"]:
        bad.append("%d ports for %d mappings" % (len(rows), line["new_flows"]))
elif nf == "lb":
    flows = {}
    for r in rows:
        if r[2] not in backends or r[3] != 64:
            bad.append("to %s, not a backend" % r[2])
        flows.setdefault(r[1], set()).add(r[2])
    moved = [f for f, b in flows.items() if len(b) > 1]
    if moved:
        bad.append("flows on several backends: %s" % moved[:3])
    per = {b: sum(1 for f in flows.values() if b in f) for b in backends}
    if min(per.values()) == 0:
        bad.append("a backend got no flow: %s" % per)
    if len(flows) != line["new_flows"]:
        bad.append("%d flows, %d connections" % (len(flows), line["new_flows"]))
    share = line["table_share"]
    if max(share) - min(share) > 1 or sum(share) != m:
        bad.append("Maglev table shares %s of %d" % (share, m))
    if sum(line["backend_pkts"]) != sent:
        bad.append("backend packets %s" % line["backend_pkts"])
    print("flows per backend %s, table entries %s" % (per, share))
else:
    wrong = [r for r in rows if r[2] != dst or r[3] != 63 or r[0] != "192.0.2.1"]
    if wrong:
        bad.append("not forwarded to %s with TTL 63: %s" % (dst, wrong[:3]))
print("; ".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
EOF
	)
	local rc=$?
	ktap_print_msg "$1 on $2: $out"
	return $rc
}

# nf_side NF NS_TX IF_TX NS_NF IF_NF LABEL [MODELS]: the NF on IF_NF,
# a round per model (none: one round), then the sniffer's check.
nf_side() {
	local nf=$1 m ok=0 dmac smac
	NF_SENT=0
	dmac=$(ip netns exec "$2" cat "/sys/class/net/$3/address")
	smac=$(ip netns exec "$4" cat "/sys/class/net/$5/address")
	if ! nf_start "$1" "$2" "$3" "$4" "$5"; then
		for m in ${7:-}; do ktap_test_fail "$6: $nf on $m"; done
		ktap_test_fail "$6: $nf, what came back"
		return
	fi
	# one round, with as many flows as all the models' rounds: enough
	# for every LB backend to get some
	if [ -z "${7:-}" ]; then
		FLOWS=$((FLOWS * NM)) nf_round "$nf" "$2" "$3" || ok=1
	fi
	for m in ${7:-}; do
		if ! echo "$m" > /sys/module/rxbisect/parameters/ring_model; then
			ktap_test_fail "$6: $nf on $m (cannot switch to the model)"
			continue
		fi
		rxb_static_neigh rxb0 rxb1
		ktap_test_result "$6: $nf on $m" nf_round "$nf" "$2" "$3"
	done
	nf_stop
	if [ -z "${7:-}" ]; then
		[ $ok = 0 ] && { nf_verify "$nf" "$5" "$dmac" "$smac" || ok=1; }
		ktap_test_result "$6: $nf, every datagram translated or forwarded, and what came back" \
			test $ok = 0
	else
		ktap_test_result "$6: $nf, what came back over every model" \
			nf_verify "$nf" "$5" "$dmac" "$smac"
	fi
}

for nf in $NFS; do
	nf_side "$nf" "$NS0" rxb0 "$NS1" rxb1 rxbisect "$MODELS"
	echo privring > /sys/module/rxbisect/parameters/ring_model
	rxb_static_neigh rxb0 rxb1
	if [ -n "$VETH" ]; then
		nf_side "$nf" "$NSV0" va "$NSV1" vb veth
	else
		ktap_test_fail "veth: $nf (no veth pair)"
	fi
done

# ---- l3fwd's XDP_REDIRECT: rxb1 -> devmap -> rxr0, out to rxr1 ----
NOROUTE=198.51.100.200	# in the sender's route to rxb1, not in l3fwd's

# redir_setup: a second pair, rxr0 in $NS1 beside rxb1 (l3fwd's devmap
# takes ifindexes of its namespace) and its peer rxr1 in $NSR, neither
# with an address: rxr1's stack drops what it gets, after the sniffer
# saw it.
redir_setup() {
	local l
	ip netns add "$NSR" || return 1
	ip netns exec "$NSR" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6;
		echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null
	ip -n "$NS1" link add rxr0 type rxbisect || return 1
	l=$(ip -n "$NS1" -o link show rxr0) || return 1
	[[ $l =~ rxr0@([a-z0-9]+): ]] || return 1
	# its peer gets the first free rxb%d name of the namespace
	ip -n "$NS1" link set dev "${BASH_REMATCH[1]}" name rxr1 || return 1
	ip -n "$NS1" link set dev rxr1 netns "$NSR" || return 1
	RXB_NS["rxr0"]=$NS1
	RXB_NS["rxr1"]=$NSR
	ip -n "$NSR" link set lo up && ip -n "$NSR" link set rxr1 up &&
		ip -n "$NS1" link set rxr0 up && rxb_wait_carrier rxr0
}

# nf_s_txsum FIELD: sum of tx<N>_FIELD over the queues (of RXB_S).
nf_s_txsum() {
	local q=0 s=0
	while [ -n "${RXB_S[tx${q}_$1]:-}" ]; do
		s=$((s + ${RXB_S[tx${q}_$1]}))
		q=$((q + 1))
	done
	echo "$s"
}

# redir_counts: into RC, l3fwd's rx, redirect, drop and no_route, rxb1's
# xdp_redirect and xdp_redirect_errors, rxr0's xdp_xmit and
# xdp_xmit_errors, rxr1's rx_packets.
RC=()
redir_counts() {
	nf_dump || return 1
	RC=("$(nf_get rx)" "$(nf_get redirect)" "$(nf_get drop)" "$(nf_get no_route)")
	rxb_snap rxb1 || return 1
	RC+=("$(rxb_s_qsum xdp_redirect)" "$(rxb_s_qsum xdp_redirect_errors)")
	rxb_snap rxr0 || return 1
	RC+=("$(nf_s_txsum xdp_xmit)" "$(nf_s_txsum xdp_xmit_errors)")
	RC+=("$(nf_rx "$NSR" rxr1)")
}

# redir_round MODEL: FLOWS x COUNT datagrams to DST, routed out of rxr0,
# and COUNT to NOROUTE; 0 when every one is accounted for, exactly.
redir_round() {
	local -a c0 d
	local sent lost i k why=
	redir_counts || { ktap_print_msg "$1: no counters"; return 1; }
	c0=("${RC[@]}")
	sent=$(nf_send "$NS0" "$DST")
	lost=$(FLOWS=1 nf_send "$NS0" "$NOROUTE")
	NF_SENT=$((NF_SENT + sent))
	for i in {1..27}; do
		redir_counts || break
		[ $((RC[0] - c0[0])) -ge $((sent + lost)) ] &&
			[ $((RC[8] - c0[8])) -ge "$sent" ] && break
		rxb_poll_wait $i
	done
	for k in "${!c0[@]}"; do d[k]=$((${RC[k]:-0} - c0[k])); done
	[ "$sent" = $((COUNT * FLOWS)) ] && [ "$lost" = "$COUNT" ] ||
		why+=" sent $sent + $lost, not $((COUNT * FLOWS)) + $COUNT;"
	[ "${d[0]}" = $((sent + lost)) ] && [ "${d[1]}" = "$sent" ] &&
		[ "${d[2]}" = "$lost" ] && [ "${d[3]}" = "$lost" ] ||
		why+=" l3fwd rx ${d[0]} redirect ${d[1]} drop ${d[2]} (no_route ${d[3]});"
	[ "${d[4]}" = "$sent" ] && [ "${d[5]}" = 0 ] ||
		why+=" rxb1 xdp_redirect ${d[4]} errors ${d[5]};"
	[ "${d[6]}" = "$sent" ] && [ "${d[7]}" = 0 ] ||
		why+=" rxr0 xdp_xmit ${d[6]} errors ${d[7]};"
	[ "${d[8]}" = "$sent" ] || why+=" rxr1 received ${d[8]};"
	ktap_print_msg "$1: $sent routed + $lost unroutable sent; l3fwd redirected ${d[1]}," \
		"dropped ${d[3]} (no route); rxr0 sent ${d[6]}, rxr1 received ${d[8]}; ${SECONDS}s"
	[ -z "$why" ] && return 0
	ktap_print_msg "$1:$why ($NF_LINE)"
	return 1
}

# redir_side: l3fwd on rxb1 routing DST's /25 out of rxr0 to rxr1's MAC,
# a round per model, then what rxr1 received.
redir_side() {
	local m dmac smac t="rxbisect: l3fwd rxb1 -> rxr0 (devmap redirect)"
	NF_SENT=0
	if ! redir_setup; then
		ktap_print_msg "cannot set up the second pair rxr0/rxr1"
		for m in $MODELS; do ktap_test_fail "$t on $m"; done
		ktap_test_fail "$t, what rxr1 received over every model"
		return
	fi
	dmac=$(ip netns exec "$NSR" cat /sys/class/net/rxr1/address)
	smac=$(ip netns exec "$NS1" cat /sys/class/net/rxr0/address)
	if ! L3_ROUTES="-r 198.51.100.0/25,rxr0,$dmac" \
	     nf_start l3fwd "$NS0" rxb0 "$NS1" rxb1 "$NSR" rxr1; then
		for m in $MODELS; do ktap_test_fail "$t on $m"; done
		ktap_test_fail "$t, what rxr1 received over every model"
		return
	fi
	for m in $MODELS; do
		if ! echo "$m" > /sys/module/rxbisect/parameters/ring_model; then
			ktap_test_fail "$t on $m (cannot switch to the model)"
			continue
		fi
		rxb_static_neigh rxb0 rxb1
		rxb_wait_carrier rxr0 && rxb_wait_carrier rxr1 ||
			ktap_print_msg "$m: no carrier on rxr0/rxr1"
		ktap_test_result "$t on $m" redir_round "$m"
	done
	nf_stop
	ktap_test_result "$t, what rxr1 received over every model: TTL 63, from rxr0's MAC to rxr1's" \
		nf_verify l3fwd rxr1 "$dmac" "$smac"
	echo privring > /sys/module/rxbisect/parameters/ring_model
	rxb_static_neigh rxb0 rxb1
}
redir_side

# ---- the LB's connection map at its default size: 10 M entries ----
# An LRU hash of 10^7 16-byte keys and 4-byte values: 72-byte elements
# (htab_elem 48 + 16 + 8) and 2^24 16-byte buckets, about 1 GiB of the
# VM's 2 GiB.
BIG_FLOWS=32	# connections
BIG_MAP=
meminfo() {	# NAME: its kB in /proc/meminfo
	local k v
	while read -r k v _; do
		[ "$k" = "$1:" ] && { echo "$v"; return 0; }
	done </proc/meminfo
	return 1
}

# big_map_id: BIG_MAP, the id of the connection map ("conns") of the
# program on rxb1, and BIG_SHOW, bpftool's line of it.
big_map_id() {
	local l id
	l=$(rxb_ip rxb1 -d link show rxb1)
	[[ $l =~ prog/xdp\ id\ ([0-9]+) ]] || return 1
	l=$(bpftool prog show id "${BASH_REMATCH[1]}") || return 1
	[[ $l =~ map_ids\ ([0-9,]+) ]] || return 1
	for id in ${BASH_REMATCH[1]//,/ }; do
		l=$(bpftool map show id "$id") || continue
		[[ $l == *" name conns "* ]] || continue
		BIG_MAP=$id
		BIG_SHOW=$(echo $l)
		return 0
	done
	return 1
}

# big_load: nf-lb without --conn-max on rxb1; 0 when the loader reports
# 10000000 and the kernel's map has max_entries 10000000.
big_load() {
	local m0 m1 t0=$SECONDS why=
	m0=$(meminfo MemAvailable)
	ktap_print_msg "MemTotal $(($(meminfo MemTotal) / 1024)) MiB, MemAvailable $((m0 / 1024)) MiB"
	LB_CONN='' NF_WAIT=$((600 * ${RXB_TIMEOUT_SCALE:-1})) \
		nf_start lb "$NS0" rxb0 "$NS1" rxb1 || return 1
	BIG_M0=$m0
	m1=$(meminfo MemAvailable)
	ktap_print_msg "attached in $((SECONDS - t0))s; MemAvailable $((m1 / 1024)) MiB," \
		"$(((m0 - m1) / 1024)) MiB less"
	nf_dump || return 1
	[ "$(nf_get conn_max)" = 10000000 ] || why+=" the loader reports conn_max $(nf_get conn_max);"
	if big_map_id; then
		ktap_print_msg "bpftool: $BIG_SHOW"
		[[ " $BIG_SHOW " == *" max_entries 10000000 "* ]] ||
			why+=" the kernel's map is not of 10000000 entries;"
	else
		why+=" no connection map on rxb1's program;"
	fi
	[ -z "$why" ] && return 0
	ktap_print_msg "nf-lb with its default map:$why"
	return 1
}

# big_traffic: BIG_FLOWS x COUNT datagrams through it, exactly, and
# BIG_FLOWS entries in the map, as many as the loader's new connections.
big_traffic() {
	local n new
	NF_SENT=0
	FLOWS=$BIG_FLOWS nf_round lb "$NS0" rxb0 || return 1
	new=$(nf_get new_flows)
	# the entries: bpftool's JSON, a list of them
	n=$(bpftool -j map dump id "$BIG_MAP" 2>&1 |
		$RXB_PY -c 'import json, sys; print(len(json.load(sys.stdin)))' 2>&1)
	ktap_print_msg "new connections $new, flow hits $(nf_get flow_hits); entries in the map: $n"
	[ "$n" = "$BIG_FLOWS" ] && [ "$new" = "$BIG_FLOWS" ] &&
		[ "$(nf_get flow_hits)" = $((NF_SENT - BIG_FLOWS)) ]
}

# big_unload: SIGTERM; 0 when the loader exits 0, nothing stays on rxb1,
# the map is freed (gone, MemAvailable back within 128 MiB) and rxb1
# forwards.
big_unload() {
	local rc m p t0=$SECONDS why=
	kill $NF_PID
	wait $NF_PID
	rc=$?
	kill $SNIFF_PID 2>/dev/null
	wait $SNIFF_PID 2>/dev/null
	[ "$rc" = 0 ] || why+=" the loader exited $rc;"
	[[ $(rxb_ip rxb1 -d link show rxb1) != *prog/xdp* ]] || why+=" a program stayed on rxb1;"
	# the map's id goes before its memory (freed from a workqueue): wait
	# for the memory all back, or within 128 MiB and no longer growing
	p=0
	for _ in {1..100}; do
		m=$(meminfo MemAvailable)
		if ! bpftool map show id "$BIG_MAP" >/dev/null 2>&1; then
			[ "$m" -ge $((BIG_M0 - 32768)) ] && break
			[ "$m" -ge $((BIG_M0 - 131072)) ] && [ $((m - p)) -lt 4096 ] && break
		fi
		p=$m
		rxb_sleep 0.2
	done
	ktap_print_msg "unloaded and freed in $((SECONDS - t0))s: MemAvailable $((m / 1024)) MiB (before loading $((BIG_M0 / 1024)) MiB)"
	! bpftool map show id "$BIG_MAP" >/dev/null 2>&1 || why+=" map $BIG_MAP still exists;"
	[ "$m" -ge $((BIG_M0 - 131072)) ] || why+=" its memory is not back;"
	rxb_ping_ok "$NS0" "$RXB_IP1" 5 || why+=" rxb1 does not answer;"
	[ -z "$why" ] && return 0
	ktap_print_msg "unload:$why"
	return 1
}

D="rxbisect: nf-lb with its default connection map"
if ! command -v bpftool >/dev/null 2>&1; then
	ktap_test_skip "$D: max_entries 10000000" "bpftool not installed"
	ktap_test_skip "$D: traffic, each connection in the map" "bpftool not installed"
	ktap_test_skip "$D: unloaded, the map freed" "bpftool not installed"
elif ktap_test_result "$D: max_entries 10000000" big_load; then
	ktap_test_result "$D: traffic, each connection in the map" big_traffic
	ktap_test_result "$D: unloaded, the map freed" big_unload
else
	[ -n "${NF_PID:-}" ] && kill "$NF_PID" "$SNIFF_PID" 2>/dev/null
	ktap_test_fail "$D: traffic, each connection in the map (not loaded)"
	ktap_test_fail "$D: unloaded, the map freed (not loaded)"
fi

# ---- bad input ----
# refused: "CMD" EXIT PATTERN -- the loader exits EXIT with PATTERN in its
# message, nothing is attached to rxb1 and rxb1 still answers pings.
refused() {
	local err rc
	err=$(ip netns exec "$NS1" timeout 60 "$@" 2>&1 >/dev/null)
	rc=$?
	ktap_print_msg "$2 ...: exit $rc: $err"
	[ "$rc" = "$EXIT" ] && [[ $err == *$PAT* ]] || return 1
	[[ $(rxb_ip rxb1 -d link show rxb1) != *prog/xdp* ]] ||
		{ ktap_print_msg "a program stayed on rxb1"; return 1; }
	rxb_ping_ok "$NS0" "$RXB_IP1" 5
}
EXIT=2 PAT="no such device"
ktap_test_result "bad input: nf-nat on a nonexistent device refused, rxb1 forwards" \
	refused "$NF/nf-nat" -i nosuchdev0 --inside 192.0.2.0/24 --external $EXT
# 2^28 entries: tens of GiB, more than the VM has
EXIT=1 PAT="map too large"
ktap_test_result "bad input: nf-lb with a connection map too large to allocate refused, rxb1 forwards" \
	refused "$NF/nf-lb" -i rxb1 --vip $VIP:9 -b 10.0.0.1 --conn-max 268435456
EXIT=2 PAT="out of range"
ktap_test_result "bad input: nf-lb with an absurd map size refused, rxb1 forwards" \
	refused "$NF/nf-lb" -i rxb1 --vip $VIP:9 -b 10.0.0.1 --conn-max 100000000000

ktap_finished
