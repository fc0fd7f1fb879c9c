#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input, the matrix invalid.sh, mtu.sh and devlink.sh leave out: module
# parameters at load time and at run time, "ip link add ... type rxbisect"
# attributes, ethtool and devlink values that are empty, negative, unknown
# or out of range, the debugfs fault/inject files, bus device ids, MTUs;
# then bad frames on the wire: zero-length and runt frames, frames longer
# than the receive MTU (inject and AF_PACKET from a peer with a larger
# MTU), frames with garbage L2.5/L3/L4 headers.  Each gets an error with a
# message or a counted drop, nothing else changes, and the port pair keeps
# forwarding.

source "$(dirname "$0")/lib.sh"

rxb_init ping
ktap_set_plan 14

# nsx IF CMD...: CMD in the network namespace of IF, through nsenter (about
# a third of the cost of rxb_in's "ip netns exec" in the VM; only for
# commands that do not read /sys/class/net).
nsx() {
	local ns=${RXB_NS[$1]:-}
	shift
	if [ -n "$ns" ]; then
		nsenter --net="/run/netns/$ns" "$@"
	else
		"$@"
	fi
}

# 1: module parameters at load time
ok=1
# (one of each kind: every run-time parameter is tried in 3, and a load
# takes about a second in the VM)
# modload SPEC: rxb_load for a module that is not loaded, without its
# modinfo per load (an exec each)
if modinfo -n rxbisect >/dev/null 2>&1; then
	modload() { modprobe rxbisect "$@" && RXB_LOADED=1; }
else
	modload() { insmod "$RXB_KO" "$@" && RXB_LOADED=1; }
fi
rxb_unload
for spec in pairs=65 pairs=-1 queues= rx_ring_size=0 rx_ring_size=100 \
	    rx_ring_size=16384 ring_model= engine=cpu999 dsh_window=12; do
	rxb_is_loaded && rxb_unload	# (only after a spec was accepted)
	mark=$(rxb_kmsg_mark "badinput.sh: load $spec")
	if out=$(modload "$spec" 2>&1); then
		ktap_print_msg "load $spec: accepted"
		ok=0
	fi
	msg=$(rxb_kmsg_since "$mark" | grep -v 'taint\|verification' | grep -m1 rxbisect)
	[ -n "$msg$out" ] || { ktap_print_msg "load $spec: no message"; ok=0; }
	rxb_is_loaded && { ktap_print_msg "load $spec: module loaded"; ok=0; }
	ktap_print_msg "load $spec: ${msg:-$out}"
done
ktap_test_result "bad module parameters at load time refused with a message" [ $ok = 1 ]

# 2: an unknown parameter is ignored (the kernel's rule) and said so
mark=$(rxb_kmsg_mark "badinput.sh: unknown parameter")
rxb_load queues=2 no_such_param=1 >/dev/null 2>&1
msg=$(rxb_kmsg_since "$mark" | grep -m1 no_such_param)
ktap_print_msg "${msg:-no message}"
ktap_test_result "unknown module parameter: loads, with a message" \
	eval 'rxb_is_loaded && [ -n "$msg" ]'
rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 3: module parameters at run time
P=/sys/module/rxbisect/parameters
ok=1
for kv in ring_model=bogus ring_model= share_factor=0 share_factor=-1 share_factor=33 \
	  share_factor=abc ax_ring_size=100 ax_ring_size=16384 ax_policy=sideways \
	  notif_compress=2 notif_timeout_us=0 ws_window=300 cache_kb=0 \
	  corec_consumers=33 corec_irq_policy=none engine=cpu999 dsh_period_us=0 \
	  dsh_window=12 dsh_tput_mbps=0 dsh_overload_ratio=1 pairs=2 queues=4 \
	  rx_ring_size=512; do
	k=${kv%%=*}
	before=$(<"$P/$k")
	if (echo "${kv#*=}" > "$P/$k") 2>/dev/null; then
		ktap_print_msg "$kv: accepted"
		ok=0
	fi
	[ "$(<"$P/$k")" = "$before" ] || { ktap_print_msg "$kv: changed"; ok=0; }
done
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "bad run-time module parameters refused, nothing changed, forwarding" [ $ok = 1 ]

# 4: ip link add ... type rxbisect
ok=1
before=$(rxb_ports | xargs)
addbad() {	# ARGS...: "ip link add rxbbad ARGS" must fail with a message
	local out
	if out=$(ip link add rxbbad "$@" 2>&1); then
		ktap_print_msg "ip link add rxbbad $*: accepted"
		ok=0
		ip link del rxbbad 2>/dev/null
	fi
	[ -n "$out" ] || { ktap_print_msg "ip link add rxbbad $*: no message"; ok=0; }
	ktap_print_msg "ip link add rxbbad $*: $out"
}
addbad numtxqueues 33 type rxbisect
addbad numrxqueues 64 type rxbisect
addbad numtxqueues 0 type rxbisect
addbad address 01:00:5e:00:00:01 type rxbisect
addbad address 00:00:00:00:00:00 type rxbisect
addbad mtu 10 type rxbisect
addbad mtu 70000 type rxbisect
addbad link no-such-dev type rxbisect
addbad type rxbisect bogus 1
[ "$(rxb_ports | xargs)" = "$before" ] || { ktap_print_msg "ports now: $(rxb_ports | xargs)"; ok=0; }
ktap_test_result "bad ip link add attributes refused with a message, no port created" [ $ok = 1 ]

# refused DESC GETTER CMD...: CMD fails with a message, GETTER's output is
# unchanged; failures are printed and clear $ok.
# The value GETTER read after one command is the value before the next
# one with the same GETTER (nothing else runs in between): read once.
R_GETTER='' R_VAL=''
refused() {
	local getter=$1 b a out
	shift
	if [ "$getter" = "$R_GETTER" ]; then
		b=$R_VAL
	else
		b=$(eval "$getter")
	fi
	if out=$("$@" 2>&1); then
		ktap_print_msg "$*: accepted"
		ok=0
	fi
	a=$(eval "$getter")
	R_GETTER=$getter R_VAL=$a
	[ -n "$out" ] || { ktap_print_msg "$*: no message"; ok=0; }
	[ "$a" = "$b" ] || { ktap_print_msg "$*: '$b' -> '$a'"; ok=0; }
}
e1() { nsx rxb1 ethtool "$@"; }
# ring sizes "RX TX", channels, indirection table of rxb1: one ethtool each
rings1() {
	local k v c=0 out=()
	while read -r k v; do
		[ "$k $v" = "Current hardware settings:" ] && c=1
		[ $c = 1 ] && [[ $k == RX: || $k == TX: ]] && out+=("$v")
	done < <(e1 -g rxb1 2>/dev/null)
	echo "${out[*]}"
}
chan1() {
	local k v c=0
	while read -r k v; do
		[ "$k $v" = "Current hardware settings:" ] && c=1
		[ $c = 1 ] && [ "$k" = Combined: ] && { echo "$v"; return; }
	done < <(e1 -l rxb1 2>/dev/null)
}
indir1() {
	local k v out=()
	while read -r k v; do
		[[ $k == RSS ]] && break
		[[ $k =~ ^[0-9]+:$ ]] && out+=($v)
	done < <(e1 -x rxb1 2>/dev/null)
	echo "${out[*]}"
}

# 5: ethtool values invalid.sh does not try
ok=1
G=rings1
refused "$G" e1 -G rxb1 rx -1
refused "$G" e1 -G rxb1 rx ""
refused "$G" e1 -G rxb1 rx abc
refused "$G" e1 -G rxb1 rx-mini 64
refused "$G" e1 -G rxb1 rx-jumbo 64
refused "$G" e1 -G rxb1 tx 0
refused "$G" e1 -G rxb1 tx 16384
refused "$G" e1 -G rxb1 bogus 64
refused chan1 e1 -L rxb1 combined -1
refused chan1 e1 -L rxb1 combined ""
refused chan1 e1 -L rxb1 rx 1
refused chan1 e1 -L rxb1 tx 1
refused indir1 e1 -X rxb1 weight 0 0
refused indir1 e1 -X rxb1 equal 0
refused indir1 e1 -X rxb1 hfunc xor
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "ethtool: negative, empty, unknown, unsupported values refused, nothing changed" [ $ok = 1 ]

# 6: devlink values devlink.sh does not try
if command -v devlink >/dev/null 2>&1; then
	ok=1
	DL=rxbisect/rxbisect0
	dlget() {	# NAME: its runtime value (parsed in bash: no sed)
		local o
		o=$(devlink dev param show $DL name "$1" 2>/dev/null)
		[[ $o == *"cmode runtime value "* ]] || return 0
		o=${o##*cmode runtime value }
		echo "${o%%$'\n'*}"
	}
	refused "devlink dev param show $DL" devlink dev param set $DL name no_such_param value 1 cmode runtime
	refused "dlget share_factor" devlink dev param set $DL name share_factor value "" cmode runtime
	refused "dlget share_factor" devlink dev param set $DL name share_factor value 4 cmode driverinit
	refused "dlget share_factor" devlink dev param set $DL name share_factor value 4 cmode permanent
	refused "dlget engine" devlink dev param set $DL name engine value cpu999 cmode runtime
	refused "dlget dsh_window" devlink dev param set $DL name dsh_window value 12 cmode runtime
	refused "dlget corec_consumers" devlink dev param set $DL name corec_consumers value 33 cmode runtime
	refused "dlget stall_timeout_ms" devlink dev param set $DL name stall_timeout_ms value -1 cmode runtime
	refused "devlink dev" devlink dev param set rxbisect/rxbisect9 name share_factor value 4 cmode runtime
	rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
	ktap_test_result "devlink: unknown names, empty values, other cmodes, out of range refused" [ $ok = 1 ]
else
	ktap_test_skip "devlink: unknown names, empty values, other cmodes, out of range refused" "no devlink"
fi

# 7: debugfs fault knobs, inject, bus device ids
ok=1
F=$RXB_DBG/rxb1/fault
wr() { echo "$2" > "$1"; }
for k in alloc_fail dma_fail; do
	for v in 1001 -1 "" abc 4294967296; do
		refused "echo \$(<$F/$k)" wr "$F/$k" "$v"
	done
done
for v in 2 -1 "" abc; do
	refused "echo \$(<$F/engine_stall)" wr "$F/engine_stall" "$v"
done
refused "rxb_stat rxb1 rx_runt_drops" rxb_inject rxb1 "$(printf '%032800d' 0)"
for v in abc -1 "" 0; do
	refused "echo /sys/bus/rxbisect/devices/*" wr /sys/bus/rxbisect/new_device "$v"
done
refused "echo /sys/bus/rxbisect/devices/*" wr /sys/bus/rxbisect/del_device 99
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "debugfs fault knobs, inject of 16400 bytes, bus ids: refused, nothing changed" [ $ok = 1 ]

# 8: MTUs invalid.sh does not try
ok=1
for v in 0 -1 67 "" abc 4294967296; do
	refused "rxb_mtu rxb1" rxb_ip rxb1 link set rxb1 mtu "$v"
done
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "ip link set mtu 0, -1, 67, empty, abc, 2^32 refused" [ $ok = 1 ]

# ---- frames ------------------------------------------------------------------

# delta NAMES...: after "mark", the change of each ethtool -S counter of
# rxb1 (hw_packets: sum over queues), space separated.
declare -A M=()
# snap1: rxb_snap rxb1, through nsx
snap1() {
	local k v
	RXB_S=()
	while read -r k v; do
		[ -n "$v" ] && RXB_S[${k%:}]=$v
	done < <(nsx rxb1 ethtool -S rxb1 2>/dev/null)
}
mark() { snap1; M=(); for k in "${!RXB_S[@]}"; do M[$k]=${RXB_S[$k]}; done; M[hw]=$(rxb_s_qsum hw_packets); }
delta() {
	local k out=()
	snap1
	RXB_S[hw]=$(rxb_s_qsum hw_packets)
	for k in "$@"; do out+=($((${RXB_S[$k]:-0} - ${M[$k]:-0}))); done
	echo "${out[*]}"
}

# consumed: rxb_wait_consumed rxb1, without a new snapshot when the one
# delta took already shows every written frame consumed.
consumed() {
	[ $(($(rxb_s_qsum packets) + ${RXB_S[rx_flushed]:-0})) = "$(rxb_s_qsum hw_packets)" ] ||
		rxb_wait_consumed rxb1
}

# inj HEX...: rxb_inject rxb1 HEX... through one python3 started once (a
# start costs ~0.7 s in the VM): a line "PATH HEX..." ("-" for an empty
# frame) is written frame by frame, one write() each, and answered "ok".
coproc INJ { python3 -u -c '
import os, sys
for line in sys.stdin:
    path, *frames = line.split()
    try:
        fd = os.open(path, os.O_WRONLY)
        for h in frames:
            os.write(fd, bytes.fromhex("" if h == "-" else h))
        os.close(fd)
        print("ok")
    except (OSError, ValueError) as e:
        print("error", e)
'; }
RXB_PIDS+=("$INJ_PID")
inj() {
	local h r line=$RXB_DBG/rxb1/inject
	for h in "$@"; do line+=" ${h:--}"; done
	echo "$line" >&"${INJ[1]}"
	read -r r <&"${INJ[0]}"
	[ "$r" = ok ] || { ktap_print_msg "inject: ${r:-no answer}"; return 1; }
}

MAC1=$(rxb_mac rxb1 | tr -d :)
MAC0=$(rxb_mac rxb0 | tr -d :)
ETH=$MAC1$MAC0
# hex of N zero bytes
zeros() { printf "%0$(($1 * 2))d" 0; }

# 9: zero-length and runt frames: counted, nothing written
mark
inj "" 00 "$(zeros 13)" "${ETH:0:26}"
d=$(delta rx_runt_drops hw rx_oversize_drops)
ktap_print_msg "frames of 0, 1, 13, 13 bytes: rx_runt_drops, hw_packets, rx_oversize_drops +: $d"
ok=1
[ "$d" = "4 0 0" ] || ok=0
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "zero-length and runt frames: rx_runt_drops +4, nothing written, forwarding" [ $ok = 1 ]

# 10: a 14-byte frame (just a header) is a frame; MTU + 18 is the limit
mark
inj "${ETH}88b5" "${ETH}88b5$(zeros $((1500 + 18 - 14)))" \
	"${ETH}88b5$(zeros $((1500 + 19 - 14)))" "${ETH}88b5$(zeros 16000)"
d=$(delta rx_runt_drops hw rx_oversize_drops)
ktap_print_msg "frames of 14, 1518, 1519, 16014 bytes: rx_runt_drops, hw_packets, rx_oversize_drops +: $d"
ok=1
[ "$d" = "0 2 2" ] || ok=0
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "14- and 1518-byte frames written, 1519 and 16014 counted as oversize" [ $ok = 1 ]

# 11: frames above the receive MTU from a peer with a larger MTU (AF_PACKET)
ok=1
rxb_ip rxb0 link set rxb0 mtu 3000 || ok=0
mark
rxb_in rxb0 python3 - rxb0 "$MAC1" "$MAC0" <<'EOF' || ok=0
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
hdr = bytes.fromhex(sys.argv[2] + sys.argv[3]) + b"\x08\x00"
for n in (1519, 2000, 3000 + 14):
    s.send(hdr + b"\x45" + bytes(n - 15))
EOF
d=$(delta rx_oversize_drops hw)
rxb_ip rxb0 link set rxb0 mtu 1500
ktap_print_msg "AF_PACKET frames of 1519, 2000, 3014 bytes to MTU 1500: rx_oversize_drops, hw_packets +: $d"
[ "$d" = "3 0" ] || ok=0
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "frames above the receive MTU from the peer: rx_oversize_drops +3, forwarding" [ $ok = 1 ]

# 12: garbage headers: written and handed up (the parser stays inside the
# frame), dropped by the stack, counted there
snmp_errs() {	# IP/IPv6/TCP/UDP header, length and checksum errors in NS1
	ip netns exec "$NS1" cat /proc/net/snmp /proc/net/snmp6 2>/dev/null | awk '
		/^Ip: Forw/ { for (i = 2; i <= NF; i++) f[$i] = i }
		/^Ip: [0-9]/ { ip = $(f["InHdrErrors"]) + $(f["InAddrErrors"]) + $(f["InUnknownProtos"]) + $(f["InDiscards"]) }
		/^Tcp: Rto/ { for (i = 2; i <= NF; i++) t[$i] = i }
		/^Tcp: [0-9]/ { tcp = $(t["InErrs"]) + $(t["InCsumErrors"]) }
		/^Udp: InD/ { for (i = 2; i <= NF; i++) u[$i] = i }
		/^Udp: [0-9]/ { udp = $(u["InErrors"]) + $(u["InCsumErrors"]) + $(u["NoPorts"]) }
		/^Ip6InHdrErrors|^Ip6InTruncatedPkts|^Ip6InDiscards/ { ip6 += $2 }
		END { print ip + tcp + udp + ip6 }'
}
IP0=c0000201 IP1=c0000202	# 192.0.2.1, 192.0.2.2
frames=(
	"${ETH}0800$(zeros 10)"					# IPv4, 10 bytes
	"${ETH}08004f00003c000000004006ffff${IP0}${IP1}"		# IHL 15, 20 bytes
	"${ETH}08004000003c000000004006ffff${IP0}${IP1}$(zeros 40)"	# IHL 0
	"${ETH}08006500003c000000004011ffff${IP0}${IP1}$(zeros 40)"	# version 6
	"${ETH}08004500ffff000000004011ffff${IP0}${IP1}$(zeros 40)"	# length 65535
	"${ETH}08004500003c000020004006ffff${IP0}${IP1}$(zeros 40)"	# fragment, TCP
	"${ETH}08004500001c000000004006ffff${IP0}${IP1}$(zeros 8)"	# TCP, 8 bytes
	"${ETH}08004500001c000000004011ffff${IP0}${IP1}0001000900000000"	# UDP length 0
	"${ETH}08004500002800000000400600ff${IP0}${IP1}$(zeros 20)"	# TCP, bad csums
	"${ETH}86dd6000000000200640$(zeros 20)"			# IPv6, truncated
	"${ETH}86dd60000000ffff0640$(zeros 32)$(zeros 4)"		# IPv6, length 65535
	"${ETH}81000001"						# VLAN tag, nothing after
	"${ETH}8100000108004f00"					# VLAN, IPv4 cut
	"${ETH}88a80001810000020800$(zeros 30)"				# QinQ
	"${ETH}0800$(head -c 1400 /dev/urandom | od -An -tx1 -v | tr -d ' \n')"	# noise
)
mark
e0=$(snmp_errs)
inj "${frames[@]}"
rxb_sleep 0.5
d=$(delta hw rx_runt_drops rx_oversize_drops)
e1=$(snmp_errs)
ktap_print_msg "${#frames[@]} frames with garbage headers: hw_packets, runt, oversize +: $d; stack errors +$((e1 - e0))"
ok=1
[ "$d" = "${#frames[@]} 0 0" ] || ok=0
[ $((e1 - e0)) -gt 0 ] || ok=0
rxb_wait_consumed rxb1 || ok=0
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "garbage L2.5/L3/L4 headers: written, handed up once, dropped and counted by the stack" [ $ok = 1 ]

# 13: the same through every ring model's parser and rings, plus RSS on
ok=1
for m in $(rxb_models); do
	echo "$m" > "$P/ring_model" || { ok=0; continue; }
	mark
	inj "${frames[@]}" "" 00
	delta hw rx_runt_drops > "$RXB_TMP/d"	# (not $(): RXB_S is kept)
	d=$(<"$RXB_TMP/d")
	[ "$d" = "${#frames[@]} 2" ] || { ktap_print_msg "$m: hw_packets, runt +: $d"; ok=0; }
	consumed || ok=0
done
echo privring > "$P/ring_model"
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
ktap_test_result "every ring model: garbage and runt frames counted, forwarding" [ $ok = 1 ]

# 14
ktap_test_result "ping rxb0 -> rxb1 and back at the end" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 && rxb_ping_ok "$NS1" "$RXB_IP0" 5'

ktap_finished
