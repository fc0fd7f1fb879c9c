#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the rxbisect selftests (source this file).
#
# Every test loads the rxbisect module itself, with the parameters it needs
# (rxb_load), and unloads it when it exits; a module that is already loaded
# is unloaded first.  So the tests must run as root on a machine where no
# one else uses rxbisect ports: inside the test VM (tools/vm/run-vm.sh) or on
# a host where "modprobe rxbisect" works (make install), or with RXB_KO set
# to the path of rxbisect.ko (insmod is used when modprobe cannot find it).
#
# Port pair rxb0/rxb1 is moved into two network namespaces of its own
# (rxb_setup_netns): rxb0 192.0.2.1/24 in $NS0 and rxb1 192.0.2.2/24 in $NS1,
# IPv6 off and static neighbour entries, so that no background traffic
# disturbs the counters.  An EXIT trap kills the processes started in those
# namespaces, deletes them and unloads the module, even when a test fails.
#
# Output is KTAP (kselftest): "TAP version 13", "1..N", "ok N desc",
# "not ok N desc", "ok N desc # SKIP why", diagnostics as "# ...", and the
# exit code 0 (pass), 1 (fail) or 4 (skip) from ktap_finished.  The ktap_*
# names follow tools/testing/selftests/kselftest/ktap_helpers.sh.
#
# Process start-up is slow in the TCG VM (~0.15 s per exec, ~0.7 s per
# python3, of which ~0.5 s is the import of site: $RXB_PY, "python3 -S",
# runs the helpers' stdlib-only scripts), so the helpers parse with bash
# builtins and read each counter set with one ethtool -S (rxb_snap).
#
# Environment: RXB_KO (insmod fallback), RXB_DEBUG=1 (print the elapsed
# time before each result).

KSFT_PASS=0
KSFT_FAIL=1
KSFT_XFAIL=2
KSFT_XPASS=3
KSFT_SKIP=4

RXB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# rxb_kmsg_*: kernel log markers and the splat check
source "$RXB_DIR/lib_kmsg.sh"
RXB_DBG=/sys/kernel/debug/rxbisect
RXB_IP0=192.0.2.1
RXB_IP1=192.0.2.2
RXB_TMP=
RXB_LOADED=
NS0=
NS1=
declare -A RXB_NS=()		# interface -> its namespace ("" = init)
RXB_PIDS=()			# background processes to kill on exit
RXB_PORT=5201			# next iperf3 port
RXB_PY="python3 -S"		# for stdlib-only scripts: no site import

# rxb_sleep SECS: sleep without an exec: read's timeout on a pipe whose
# write end this shell holds, so no data and no EOF ever come.  Under TCG
# an exec of sleep(1) costs more than the 0.1-0.2 s the wait loops sleep.
# Opened here, once, so that subshells and background jobs share it.
exec {RXB_SLEEP_FD}<> <(:)
rxb_sleep() {
	read -r -t "$1" -u "$RXB_SLEEP_FD" _
	return 0
}

# rxb_poll_wait I: the wait after the I-th look of a poll loop, "for i in
# {1..27}; do COND && break; rxb_poll_wait $i; done": 0.02, 0.05 and 0.1 s,
# then 0.2 s, 4.97 s in all (the 5 s of 25 looks 0.2 s apart).  A
# condition met soon, as most are, costs a few hundredths of a second, not
# a whole 0.2 s; a slow one as many looks as before, give or take two.
rxb_poll_wait() {
	case $1 in
	1) rxb_sleep 0.02 ;;
	2) rxb_sleep 0.05 ;;
	3) rxb_sleep 0.1 ;;
	*) rxb_sleep 0.2 ;;
	esac
}

KTAP_CNT=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_PLAN=0

# ---- KTAP -------------------------------------------------------------------

ktap_print_header() { echo "TAP version 13"; }
ktap_set_plan() { KTAP_PLAN=$1; echo "1..$1"; }
ktap_print_msg() { local l; while IFS= read -r l; do echo "# $l"; done <<<"$*"; }
ktap_test_pass() {
	[ -n "${RXB_DEBUG:-}" ] && echo "# [${SECONDS}s]"
	KTAP_CNT=$((KTAP_CNT + 1)); KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_CNT $1"
}
ktap_test_fail() {
	[ -n "${RXB_DEBUG:-}" ] && echo "# [${SECONDS}s]"
	KTAP_CNT=$((KTAP_CNT + 1)); KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_CNT $1"
}
ktap_test_skip() {
	KTAP_CNT=$((KTAP_CNT + 1)); KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_CNT $1 # SKIP $2"
}
# ktap_test_result DESC CMD... : ok when CMD exits 0.  While KTAP_SKIP_WHY
# is set, CMD does not run and the case is skipped with that reason (a
# section skipped whole: rxb_kdep_only).
ktap_test_result() {
	local desc=$1; shift
	if [ -n "${KTAP_SKIP_WHY:-}" ]; then
		ktap_test_skip "$desc" "$KTAP_SKIP_WHY"
	elif "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

# rxb_kdep_only: this kernel runs only the kernel-dependent cases of a
# selftest every kernel runs.  make test's kernels share the suite
# (tools/run-tests.sh, vm_every_kernel); the first kernel runs such a
# selftest whole, the others (RXB_SHARD_KDEP=1) the cases that differ by
# kernel, the rest skipped with RXB_KDEP_WHY.
RXB_KDEP_WHY="not kernel-dependent: make test runs it on its first kernel (RXB_SHARD_KDEP=1)"
rxb_kdep_only() { [ "${RXB_SHARD_KDEP:-0}" = 1 ]; }
ktap_print_totals() {
	echo "# Totals: pass:$KTAP_PASS fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
}
# Print the totals and exit: 1 on any failure, 4 when everything skipped.
ktap_finished() {
	ktap_print_msg "${0##*/}: ${SECONDS}s"
	while [ "$KTAP_CNT" -lt "$KTAP_PLAN" ]; do
		ktap_test_fail "not run (test aborted)"
	done
	ktap_print_totals
	if [ "$KTAP_FAIL" -gt 0 ]; then exit $KSFT_FAIL; fi
	if [ "$KTAP_PASS" -eq 0 ] && [ "$KTAP_SKIP" -gt 0 ]; then exit $KSFT_SKIP; fi
	exit $KSFT_PASS
}
ktap_skip_all() {
	echo "1..0 # SKIP $1"
	exit $KSFT_SKIP
}
# Give up: the rest of the plan fails.  Before the plan (tests that count
# their cases once set up) the plan is one case, which fails; after it is
# used up, one more case fails: a test that gives up never passes.
rxb_bail() {
	ktap_print_msg "fatal: $*"
	[ "$KTAP_PLAN" = 0 ] && ktap_set_plan 1
	[ "$KTAP_CNT" -lt "$KTAP_PLAN" ] || ktap_test_fail "fatal: $*"
	ktap_finished
}

# ---- requirements and cleanup ----------------------------------------------

# rxb_require TOOL... : skip the whole test when something is missing.
rxb_require() {
	local t
	[ "$(id -u)" = 0 ] || ktap_skip_all "must run as root"
	for t in ip ethtool modprobe rmmod timeout python3 "$@"; do
		command -v "$t" >/dev/null 2>&1 || ktap_skip_all "$t not installed"
	done
	if modinfo -n rxbisect >/dev/null 2>&1; then
		RXB_MODPROBE=1
	elif [ -r "${RXB_KO:-}" ]; then
		RXB_MODPROBE=0
	else
		ktap_skip_all "rxbisect module not found (modprobe) and RXB_KO not set"
	fi
	[[ $(</proc/mounts) == *" /sys/kernel/debug debugfs "* ]] ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
}

# rxb_kill_bg: end the background processes this test started, and
# everything still running in its namespaces (RXB_NS_KILLED: how many of
# the latter).
rxb_kill_bg() {
	local p ns
	RXB_NS_KILLED=0
	for p in "${RXB_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for ns in $NS0 $NS1; do
		[ -e "/run/netns/$ns" ] || continue
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill "$p" 2>/dev/null
			RXB_NS_KILLED=$((RXB_NS_KILLED + 1))
		done
	done
	for p in "${RXB_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	RXB_PIDS=()
}

# rxb_ns_del NS...: SIGKILL every process of these namespaces, delete
# them (the extra namespaces a test made of its own).
rxb_ns_del() {
	local ns p
	for ns in "$@"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
		ip netns del "$ns" 2>/dev/null
	done
}

rxb_cleanup() {
	local ns p
	rxb_kill_bg
	# the namespaces had processes: SIGKILL the ones SIGTERM left
	for ns in $NS0 $NS1; do
		[ "$RXB_NS_KILLED" -gt 0 ] && [ -e "/run/netns/$ns" ] || continue
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
	done
	[ -s "$RXB_TMP/stats.port" ] && read -r _ p <"$RXB_TMP/stats.port" &&
		kill "$p" 2>/dev/null
	[ -n "$RXB_LOADED" ] && rxb_unload
	rxb_pp_trace_stop
	for ns in $NS0 $NS1; do
		ip netns del "$ns" 2>/dev/null
	done
	[ -n "$RXB_TMP" ] && rm -rf "$RXB_TMP"
}

rxb_init() {
	rxb_require "$@"
	RXB_TMP=$(mktemp -d /tmp/rxbisect-test.XXXXXX) || exit $KSFT_FAIL
	NS0=rxb-a-$$-$RANDOM
	NS1=rxb-b-$$-$RANDOM
	trap rxb_cleanup EXIT
	trap 'exit 130' INT TERM
	# rxb_snap's counter reader (RXB_STATS=0: ethtool's): detached, not
	# a job a test's "wait" would wait for; it goes away with this shell
	if [ "${RXB_STATS:-1}" != 0 ] && command -v python3 >/dev/null; then
		( $RXB_PY "$RXB_DIR/rxb_stats.py" "$RXB_TMP/stats.port" $$ \
			</dev/null >/dev/null 2>&1 & )
	fi
	ktap_print_header
}

# ---- module -----------------------------------------------------------------

rxb_is_loaded() { [ -d /sys/module/rxbisect ]; }

# rxb_unload: remove the module (and with it every port); 0 on success.
rxb_unload() {
	local i
	RXB_LOADED=
	rxb_is_loaded || return 0
	timeout 60 rmmod rxbisect || return 1
	for i in {1..50}; do
		rxb_is_loaded || return 0
		rxb_sleep 0.1
	done
	return 1
}

# rxb_load [param=value...]: (re)load the module; 0 on success.  Stderr of
# modprobe/insmod goes to stderr.
rxb_load() {
	rxb_unload || return 1
	# rxb_require found out whether modprobe knows the module
	[ -n "${RXB_MODPROBE:-}" ] ||
		{ modinfo -n rxbisect >/dev/null 2>&1 && RXB_MODPROBE=1 || RXB_MODPROBE=0; }
	if [ "$RXB_MODPROBE" = 1 ]; then
		modprobe rxbisect "$@" || return 1
	else
		# insmod resolves no dependency: the kTLS offload needs tls.ko,
		# the PHC ptp.ko where PTP_1588_CLOCK is a module (Debian's
		# 6.1, 6.12 and 7.2 build it in)
		modprobe -q tls
		modprobe -q ptp
		insmod "$RXB_KO" "$@" || return 1
	fi
	RXB_LOADED=1
	RXB_NS=()
	return 0
}

# ---- ports ------------------------------------------------------------------

# _rxb_link_names [ip args]: rxbisect ports that "ip -d -o link show" lists.
_rxb_link_names() {
	local l n
	while IFS= read -r l; do
		[[ $l == *" rxbisect "* ]] || continue
		n=${l#*: }
		n=${n%%: *}
		echo "${n%%@*}"
	done < <(ip "$@" -d -o link show 2>/dev/null)
}

# rxb_ports: names of every rxbisect port in the init namespace.
rxb_ports() { _rxb_link_names; }

# rxb_all_ports: every rxbisect port in any namespace (ns:name).
rxb_all_ports() {
	local ns n rest
	for n in $(_rxb_link_names); do echo "init:$n"; done
	while read -r ns rest; do
		for n in $(_rxb_link_names -n "$ns"); do echo "$ns:$n"; done
	done < <(ip netns list 2>/dev/null)
}

# ---- namespaces and running things in them ---------------------------------

# rxb_in IF CMD...: run CMD in the namespace that holds IF.
rxb_in() {
	local ns=${RXB_NS[$1]:-}
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# rxb_ip IF ARGS...: "ip ARGS" in the namespace of IF.
rxb_ip() {
	local ns=${RXB_NS[$1]:-}
	shift
	ip ${ns:+-n "$ns"} "$@"
}

# rxb_setup_netns [IF0 IF1]: IF0 (rxb0) -> $NS0 as $RXB_IP0, IF1 (rxb1) ->
# $NS1 as $RXB_IP1, both up, static neighbours.  0 on success.
rxb_setup_netns() {
	local if0=${1:-rxb0} if1=${2:-rxb1} ns mac0 mac1
	# the MACs, for the neighbour entries, while the ports are here
	mac0=$(<"/sys/class/net/$if0/address") && mac1=$(<"/sys/class/net/$if1/address") ||
		return 1
	for ns in $NS0 $NS1; do
		[ -e "/run/netns/$ns" ] || ip netns add "$ns" || return 1
		# no IPv6 (router/neighbour solicitations) on the ports
		ip netns exec "$ns" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6;
			echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null
	done
	ip link set "$if0" netns "$NS0" || return 1
	ip link set "$if1" netns "$NS1" || return 1
	RXB_NS[$if0]=$NS0
	RXB_NS[$if1]=$NS1
	# as rxb_static_neigh does
	ip -n "$NS0" -b - <<-EOF || return 1
		link set lo up
		addr add $RXB_IP0/24 dev $if0
		link set $if0 up
		neigh replace $RXB_IP1 lladdr $mac1 dev $if0 nud permanent
	EOF
	ip -n "$NS1" -b - <<-EOF || return 1
		link set lo up
		addr add $RXB_IP1/24 dev $if1
		link set $if1 up
		neigh replace $RXB_IP0 lladdr $mac0 dev $if1 nud permanent
	EOF
	rxb_wait_carrier "$if0"
}

# rxb_setup_ip6 IP0 IP1: IPv6 on the pair rxb_setup_netns made (it leaves
# IPv6 off in the namespaces): IP0/64 on rxb0, IP1/64 on rxb1, no DAD, each
# the other's permanent neighbour; 0 on success.
rxb_setup_ip6() {
	ip netns exec "$NS0" sysctl -qw net.ipv6.conf.rxb0.disable_ipv6=0 &&
	ip netns exec "$NS1" sysctl -qw net.ipv6.conf.rxb1.disable_ipv6=0 &&
	ip -n "$NS0" addr add "$1/64" dev rxb0 nodad &&
	ip -n "$NS1" addr add "$2/64" dev rxb1 nodad &&
	ip -n "$NS0" neigh replace "$2" lladdr "$(rxb_mac rxb1)" dev rxb0 nud permanent &&
	ip -n "$NS1" neigh replace "$1" lladdr "$(rxb_mac rxb0)" dev rxb1 nud permanent
}

# rxb_mac IF
rxb_mac() {
	local l
	l=$(rxb_ip "$1" -o link show "$1") || return 1
	l=${l#*link/ether }
	echo "${l%% *}"
}

# rxb_static_neigh IF0 IF1: permanent neighbour entries, so that no ARP
# crosses the wire (a link down flushes them: call again after up).
rxb_static_neigh() {
	local mac0 mac1
	mac0=$(rxb_mac "$1") && mac1=$(rxb_mac "$2") || return 1
	ip -n "$NS0" neigh replace "$RXB_IP1" lladdr "$mac1" dev "$1" nud permanent &&
	ip -n "$NS1" neigh replace "$RXB_IP0" lladdr "$mac0" dev "$2" nud permanent
}

# rxb_wait_carrier IF: wait (up to 10 s) for carrier on IF.
rxb_wait_carrier() {
	local i
	for i in {1..50}; do
		[[ $(rxb_ip "$1" -o link show "$1" 2>/dev/null) == *LOWER_UP* ]] && return 0
		rxb_sleep 0.2
	done
	return 1
}

# rxb_ping NS DST COUNT [ping args...]: prints the number of replies.
rxb_ping() {
	local ns=$1 dst=$2 count=$3 out
	shift 3
	out=$(ip netns exec "$ns" timeout $((count + 20)) ping -n -q -c "$count" -i 0.05 -W 2 "$@" "$dst" 2>&1)
	if [[ $out =~ ([0-9]+)\ received ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		echo 0
	fi
}

# rxb_ping_each NS DST COUNT [args]: prints the number of replies to COUNT
# pings, one probe per ping process, each waiting up to 2 s (-W) for its
# reply.  rxb_ping's ping -c N waits only max(2 RTT, -i) for the replies
# still due once its last probe is out (iputils' schedule_exit()), so under
# TCG a reply that a descheduled vCPU held back some 50 ms counts as lost
# there; here only a reply that never comes does.
rxb_ping_each() {
	local ns=$1 dst=$2 count=$3
	shift 3
	# shellcheck disable=SC2016
	ip netns exec "$ns" timeout $((6 * count + 20)) bash -c '
		n=0
		for ((i = 0; i < $1; i++)); do
			ping -n -q -c 1 -W 2 "${@:3}" "$2" >/dev/null 2>&1 && n=$((n + 1))
		done
		echo $n' rxb_ping_each "$count" "$dst" "$@"
}

# rxb_ping_ok NS DST COUNT [args]: 0 when every one of COUNT pings got a
# reply (rxb_ping_each).
rxb_ping_ok() {
	local got
	got=$(rxb_ping_each "$@")
	[ "$got" = "$3" ] ||
		{ ktap_print_msg "ping $2 from $1: ${got:-0}/$3 replies"; return 1; }
}

# ---- counters ---------------------------------------------------------------
#
# rxb_snap IF reads ethtool -S once into the associative array RXB_S
# (name -> value); the rxb_s_* helpers work on that snapshot.  The rxb_stat,
# rxb_qsum, ... wrappers take a snapshot of their own.

declare -A RXB_S=()

rxb_snap() {
	local k v out fd port
	RXB_S=()
	# rxb_stats.py, started by rxb_init: the same ioctls as ethtool,
	# through builtins only (no exec); ethtool when it is not there
	if [ -n "$RXB_TMP" ] && [ -s "$RXB_TMP/stats.port" ] &&
	   read -r port _ <"$RXB_TMP/stats.port" &&
	   exec {fd}<>"/dev/tcp/127.0.0.1/$port"; then
		echo "${RXB_NS[$1]:--} $1" >&"$fd"
		read -r -t 30 k out <&"$fd"
		exec {fd}>&-
		[ "$k" = 0 ] || return 1
		eval "RXB_S=$out"
		return 0
	fi 2>/dev/null
	out=$(rxb_in "$1" ethtool -S "$1" 2>/dev/null) || return 1
	while read -r k v; do
		[ -n "$v" ] && RXB_S[${k%:}]=$v
	done <<<"$out"
	return 0
}

# rxb_s_qvals FIELD: rx<N>_FIELD of every queue, by queue, space separated.
rxb_s_qvals() {
	local q=0 out=()
	while [ -n "${RXB_S[rx${q}_$1]:-}" ]; do
		out+=("${RXB_S[rx${q}_$1]}")
		q=$((q + 1))
	done
	echo "${out[*]}"
}

# rxb_kver_ge X.Y: the running kernel is version X.Y or later.
rxb_kver_ge() {
	local kv
	kv=$(uname -r)
	kv=${kv%%-*}
	[ "$(printf '%s\n' "$1" "$kv" | sort -V | head -n1)" = "$1" ]
}

# rxb_s_qsum FIELD [DIR]: sum of rx<N>_FIELD (DIR tx: tx<N>_FIELD) over
# the queues.
rxb_s_qsum() {
	local q=0 s=0 d=${2:-rx}
	while [ -n "${RXB_S[$d${q}_$1]:-}" ]; do
		s=$((s + ${RXB_S[$d${q}_$1]}))
		q=$((q + 1))
	done
	echo "$s"
}

# rxb_s_rx_in: frames that reached the NIC: sum of rxN_hw_packets and of
# every drop counter.
rxb_s_rx_in() {
	echo $(($(rxb_s_qsum hw_packets) + ${RXB_S[rx_nobuf_drops]:-0} +
		${RXB_S[rx_ring_full_drops]:-0} + ${RXB_S[rx_oversize_drops]:-0} +
		${RXB_S[rx_runt_drops]:-0} + ${RXB_S[rx_stopped_drops]:-0}))
}

rxb_stat() { rxb_snap "$1" && echo "${RXB_S[$2]:-}"; }	# IF NAME
rxb_qsum() { rxb_snap "$1" && rxb_s_qsum "$2"; }	# IF FIELD
rxb_qvals() { rxb_snap "$1" && rxb_s_qvals "$2"; }	# IF FIELD
rxb_rx_in() { rxb_snap "$1" && rxb_s_rx_in; }		# IF

# rxb_vsub "A..." "B...": element-wise A - B.
rxb_vsub() {
	local -a a=($1) b=($2)
	local i out=()
	for i in "${!a[@]}"; do out+=($((a[i] - ${b[i]:-0}))); done
	echo "${out[*]}"
}

# rxb_balance TXIF RXIF: TXIF's tx_packets minus the frames RXIF's NIC saw.
rxb_balance() {
	local tx
	tx=$(rxb_stat "$1" tx_packets)
	echo $((tx - $(rxb_rx_in "$2")))
}

# rxb_wait_balance TXIF RXIF BASE: wait (up to 5 s) until the balance is
# BASE again; prints the last balance, 0 when it matched.
rxb_wait_balance() {
	local b i
	for i in {1..27}; do
		b=$(rxb_balance "$1" "$2")
		[ "$b" = "$3" ] && { echo "$b"; return 0; }
		rxb_poll_wait $i
	done
	echo "$b"
	return 1
}

# rxb_wait_rx IF N SECS: wait up to SECS seconds until IF's rx_packets
# grew by N; 1 if it did not.  RXB_RX_GREW: the growth seen last.
rxb_wait_rx() {
	local f=/sys/class/net/$1/statistics/rx_packets p0 i
	p0=$(rxb_in "$1" cat "$f") || return 1
	RXB_RX_GREW=0
	for ((i = 0; i < $3 * 5; i++)); do
		rxb_sleep 0.2
		RXB_RX_GREW=$(($(rxb_in "$1" cat "$f") - p0))
		[ "$RXB_RX_GREW" -ge "$2" ] && return 0
	done
	return 1
}

# rxb_wait_consumed IF: wait (up to 5 s) until the sum of rxN_packets (the
# completions the driver consumed: handed to the stack or dropped by it)
# plus rx_flushed (frames freed with rings torn down by a reconfiguration)
# equals the sum of rxN_hw_packets: every frame the NIC wrote was consumed
# once.
rxb_wait_consumed() {
	local i p h
	for i in {1..27}; do
		rxb_snap "$1"
		p=$(($(rxb_s_qsum packets) + ${RXB_S[rx_flushed]:-0}))
		h=$(rxb_s_qsum hw_packets)
		[ "$p" = "$h" ] && return 0
		rxb_poll_wait $i
	done
	ktap_print_msg "$1: sum of rxN_packets + rx_flushed $p, sum of rxN_hw_packets $h"
	return 1
}

# ---- ethtool read-back ------------------------------------------------------

# _rxb_current CMD IF KEY: value of "KEY:" under "Current hardware settings".
_rxb_current() {
	local k v c=0
	while read -r k v; do
		[ "$k $v" = "Current hardware settings:" ] && c=1
		[ $c = 1 ] && [ "$k" = "$3:" ] && { echo "${v%% *}"; return 0; }
	done < <(rxb_in "$2" ethtool "$1" "$2" 2>/dev/null)
	return 1
}

rxb_ring() { _rxb_current -g "$1" "$2"; }		# IF RX|TX
rxb_channels() { _rxb_current -l "$1" Combined; }	# IF

# rxb_indir IF [CTX]: the 128 indirection entries from ethtool -x (of RSS
# context CTX), space separated.
rxb_indir() {
	local k v out=()
	while read -r k v; do
		[[ $k == RSS ]] && break
		[[ $k =~ ^[0-9]+:$ ]] && out+=($v)
	done < <(rxb_in "$1" ethtool -x "$1" ${2:+context "$2"} 2>/dev/null)
	echo "${out[*]}"
}

# rxb_hkey IF [CTX]: the RSS key from ethtool -x (of RSS context CTX)
# (aa:bb:...).
rxb_hkey() {
	local l k=0
	while read -r l; do
		[ $k = 1 ] && { echo "$l"; return 0; }
		[[ $l == "RSS hash key:"* ]] && k=1
	done < <(rxb_in "$1" ethtool -x "$1" ${2:+context "$2"} 2>/dev/null)
	return 1
}

# rxb_flow_hash IF TYPE: the RSS hash fields of flow type TYPE (tcp4,
# udp4, ...) from ethtool -n IF rx-flow-hash TYPE, as ethtool's letters (s:
# source address, d: destination, f: source port, n: destination port).
rxb_flow_hash() {
	local l o=
	while IFS= read -r l; do
		case $l in
		"IP SA"*) o+=s ;;
		"IP DA"*) o+=d ;;
		"L4 bytes 0 & 1"*) o+=f ;;
		"L4 bytes 2 & 3"*) o+=n ;;
		esac
	done < <(rxb_in "$1" ethtool -n "$1" rx-flow-hash "$2" 2>/dev/null)
	echo "$o"
}

# rxb_mtu IF
rxb_mtu() {
	local l
	l=$(rxb_ip "$1" -o link show "$1") || return 1
	l=${l#* mtu }
	echo "${l%% *}"
}

# ---- debugfs knobs ----------------------------------------------------------

rxb_knob() { local v; v=$(<"$RXB_DBG/$1/q$2/$3") && echo "$v"; }	# IF Q NAME
rxb_knob_set() { echo "$4" > "$RXB_DBG/$1/q$2/$3"; }	# IF Q NAME VALUE

# rxb_stall_timeout MS: set the devlink parameter stall_timeout_ms of every
# rxbisect device (the rx_stall health watchdog clears a stall knob once a
# queue with pending completions has not been polled for that long).  A
# module without devlink support is left alone.
rxb_stall_timeout() {
	local h rest
	command -v devlink >/dev/null 2>&1 || return 0
	while read -r h rest; do
		h=${h%:}
		[[ $h == rxbisect/* ]] || continue
		devlink dev param set "$h" name stall_timeout_ms value "$1" cmode runtime || return 1
	done < <(devlink dev show 2>/dev/null)
	return 0
}

# rxb_online_cpus: online CPU ids, one a line.
rxb_online_cpus() {
	local part a b
	local -a parts
	IFS=, read -r -a parts < /sys/devices/system/cpu/online
	for part in "${parts[@]}"; do
		a=${part%-*}
		b=${part#*-}
		seq "$a" "$b"
	done
}

# ---- traffic ----------------------------------------------------------------

rxb_bg() { "$@" & RXB_PIDS+=($!); }

# rxb_wait_listen NS PORT: wait until something listens on TCP PORT in NS.
rxb_wait_listen() {
	local i
	for i in {1..50}; do
		[ -n "$(ip netns exec "$1" ss -ltnH "sport = :$2" 2>/dev/null)" ] && return 0
		rxb_sleep 0.2
	done
	return 1
}

# rxb_iperf_start OUT SECONDS [iperf3 client args...]: one-shot server in
# $NS1, client in $NS0 in the background, JSON into OUT.  Sets RXB_IPERF_PID
# (the client).  1 when the server does not come up.
rxb_iperf_start() {
	local out=$1 secs=$2 port=$RXB_PORT
	shift 2
	RXB_PORT=$((RXB_PORT + 1))
	rxb_bg ip netns exec "$NS1" timeout $((secs + 60)) iperf3 -s -1 -p "$port" -B "$RXB_IP1" \
		>"$out.server" 2>&1
	rxb_wait_listen "$NS1" "$port" || return 1
	ip netns exec "$NS0" timeout $((secs + 45)) iperf3 -c "$RXB_IP1" -p "$port" \
		-t "$secs" --json "$@" >"$out" 2>&1 &
	RXB_IPERF_PID=$!
	RXB_PIDS+=($RXB_IPERF_PID)
	return 0
}

# rxb_iperf OUT SECONDS [args]: run iperf3 in the foreground; its exit code.
rxb_iperf() {
	rxb_iperf_start "$@" || return 1
	wait "$RXB_IPERF_PID"
}

# rxb_iperf_parse OUT: sets IPERF_GBPS (received), IPERF_BYTES (received),
# IPERF_PKTS and IPERF_LOST (UDP datagrams), IPERF_RETR (TCP
# retransmissions, -1 for UDP), IPERF_ERR from iperf3's JSON.
rxb_iperf_parse() {
	IFS='|' read -r IPERF_GBPS IPERF_BYTES IPERF_PKTS IPERF_LOST IPERF_RETR IPERF_ERR < <(
		$RXB_PY - "$1" <<-'EOF'
		import json, sys
		try:
		    j = json.load(open(sys.argv[1]))
		except Exception as e:
		    print("0|0|-1|-1|-1|cannot parse the JSON output (%s)" % e)
		    sys.exit(0)
		end = j.get("end", {})
		s = end.get("sum_received") or end.get("sum") or {}
		u = end.get("sum", {})
		print("%.3f|%d|%d|%d|%d|%s" % (s.get("bits_per_second", 0) / 1e9,
		      s.get("bytes", 0), u.get("packets", -1), u.get("lost_packets", -1),
		      end.get("sum_sent", {}).get("retransmits", -1),
		      j.get("error", "").replace("|", "/")))
		EOF
	)
}

# rxb_iperf_check OUT RC WHAT: 0 when iperf3 exited 0, reported no error and
# moved data; prints a diagnostic.
rxb_iperf_check() {
	local out=$1 rc=$2 what=$3
	rxb_iperf_parse "$out"
	ktap_print_msg "$what: exit $rc, $IPERF_GBPS Gbit/s, $IPERF_BYTES bytes received${IPERF_ERR:+, error: $IPERF_ERR}"
	if [ "$rc" != 0 ] || [ -n "$IPERF_ERR" ]; then
		tail -n 5 "$out" "$out.server" 2>/dev/null | sed 's/^/# /'
		return 1
	fi
	[ "${IPERF_BYTES:-0}" -gt 0 ] && [ "${IPERF_GBPS//[0.]/}" != "" ]
}

# rxb_udp_blast NS DST COUNT PORTS [RATE_PPS [LEN]]: send COUNT UDP datagrams
# to DST port 9 from PORTS different source ports (round robin) at about
# RATE_PPS (0: as fast as possible; below 100 each datagram is paced, else
# every 16th).  Prints the number sent.  It gives up
# after RXB_BLAST_SECS (default 120) seconds.
rxb_udp_blast() {
	ip netns exec "$1" timeout "${RXB_BLAST_SECS:-120}" $RXB_PY - "$2" "$3" "$4" "${5:-0}" "${6:-64}" <<'EOF'
import socket, sys, time
dst, count, nports, rate, ln = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
socks = []
for i in range(nports):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", 0))
    socks.append(s)
payload = b"x" * ln
sent = 0
t0 = time.monotonic()
for i in range(count):
    try:
        socks[i % nports].sendto(payload, (dst, 9))
        sent += 1
    except OSError:
        pass
    if rate > 0 and (rate < 100 or i % 16 == 15):
        ahead = t0 + (i + 1) / rate - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
print(sent)
EOF
}

# rxb_sender_start NS DST [NPORTS]: a UDP sender in NS, python3 started
# once (each start costs ~0.7 s in the VM), driven by rxb_send; NPORTS
# source ports (default 1), datagrams to DST port 9 in turn.
# rxb_send COUNT RATE: COUNT datagrams (64-byte payload) at about RATE a
# second; prints the number sent.
rxb_sender_start() {
	coproc RXB_SND { ip netns exec "$1" timeout 1800 $RXB_PY -u -c '
import socket, sys, time
dst, n = sys.argv[1], int(sys.argv[2])
socks = []
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", 0))
    socks.append(s)
payload = b"x" * 64
for line in sys.stdin:
    count, rate = int(line.split()[0]), float(line.split()[1])
    sent = 0
    t0 = time.monotonic()
    for i in range(count):
        try:
            socks[i % n].sendto(payload, (dst, 9))
            sent += 1
        except OSError:
            pass
        if i % 16 == 15:
            ahead = t0 + (i + 1) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    print(sent)
' "$2" "${3:-1}"; }
	RXB_PIDS+=("$RXB_SND_PID")
}
rxb_send() {
	echo "$*" >&"${RXB_SND[1]}" && read -r -t 60 REPLY <&"${RXB_SND[0]}" && echo "$REPLY"
}

# rxb_udp_flows NS DST COUNT SPORT...: COUNT datagrams from each source port
# SPORT to DST port 9.
# rxb_udp_seq OUT COUNT FLOWS RATE: COUNT numbered datagrams (udp_seq.py)
# from NS0 to rxb1 over FLOWS source ports at RATE per second; the
# receiver's JSON in OUT (read it with rxb_jget), the number sent in
# RXB_UDP_SENT.  Each call uses the next UDP port from 9000.
RXB_UDP_PORT=9000
rxb_udp_seq() {
	local out=$1 seq="$RXB_PY $RXB_DIR/udp_seq.py" i
	rm -f "$out" "$out.ready"
	rxb_bg ip netns exec "$NS1" timeout 120 $seq recv "$RXB_IP1" $RXB_UDP_PORT "$out" 90 \
		>"$out.log" 2>&1
	for i in {1..100}; do
		[ -e "$out.ready" ] && break
		rxb_sleep 0.05
	done
	RXB_UDP_SENT=$(ip netns exec "$NS0" timeout 100 $seq send "$RXB_IP1" $RXB_UDP_PORT "$2" "$3" "$4")
	for i in {1..200}; do
		[ -s "$out" ] && break
		rxb_sleep 0.05
	done
	RXB_UDP_PORT=$((RXB_UDP_PORT + 1))
}

# rxb_jget FILE KEY: a value of the JSON object in FILE.  A number in a
# flat object (udp_seq.py's) is read with bash, anything else by python3.
rxb_jget() {
	local j re="[{ ]\"$2\": (-?[0-9][0-9.eE+-]*)[,}]"
	[ -r "$1" ] || return 1
	j=$(<"$1")
	if [[ ${j:1} != *[{[]* && $j =~ $re ]]; then
		echo "${BASH_REMATCH[1]}"
		return 0
	fi
	$RXB_PY -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null
}

# rxb_udp_rcvbuf_errs: UDP RcvbufErrors in NS1 (datagrams the socket
# dropped: a full receive buffer, not the NIC).
rxb_udp_rcvbuf_errs() {
	ip netns exec "$NS1" awk '/^Udp:/ { n++ } n == 2 { print $6; exit }' /proc/net/snmp
}

# rxb_udp_seq_counted OUT COUNT FLOWS RATE: rxb_udp_seq, and what became
# of the datagrams: RXB_SEQ_NIC (rxb1's no-buffer and ring-full drops),
# RXB_SEQ_SOCK (socket drops, rxb_udp_rcvbuf_errs), RXB_SEQ_UNIQ,
# RXB_SEQ_DUP, RXB_SEQ_FOOO (reordered within a flow) from the receiver.
# RXB_S is rxb1's snapshot after the run.
rxb_udp_seq_counted() {
	local nic0 sock0 j k v

	rxb_snap rxb1
	nic0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
	sock0=$(rxb_udp_rcvbuf_errs)
	rxb_udp_seq "$@"
	rxb_snap rxb1
	RXB_SEQ_NIC=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - nic0))
	RXB_SEQ_SOCK=$(($(rxb_udp_rcvbuf_errs) - sock0))
	# udp_seq.py's JSON is one flat line: read in bash (a python start
	# per value costs about a second under TCG).
	j=
	[ -r "$1" ] && j=$(<"$1")
	for k in UNIQ:unique DUP:dup FOOO:flow_ooo; do
		v=
		[[ $j =~ \"${k#*:}\":\ (-?[0-9]+) ]] && v=${BASH_REMATCH[1]}
		printf -v "RXB_SEQ_${k%%:*}" '%s' "$v"
	done
}

rxb_udp_flows() {
	local ns=$1 dst=$2 count=$3
	shift 3
	ip netns exec "$ns" timeout 60 $RXB_PY - "$dst" "$count" "$@" <<'EOF'
import socket, sys
dst, count = sys.argv[1], int(sys.argv[2])
for sp in map(int, sys.argv[3:]):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", sp))
    for _ in range(count):
        s.sendto(b"rxbisect", (dst, 9))
    s.close()
EOF
}

# rxb_toeplitz KEY SRC DST [SPORT DPORT]: RXB_TOEPLITZ, the NIC's Toeplitz
# hash of that IPv4 TCP/UDP 4-tuple (KEY as aa:bb:...), of the addresses
# only without SPORT (rx-flow-hash sd); no subshell.
rxb_toeplitz() {
	local -a key in
	local i b v h=0
	IFS=: read -r -a key <<<"$1"
	IFS=. read -r -a in <<<"$2.$3"
	[ -n "${4:-}" ] && in+=($(($4 >> 8)) $(($4 & 255)) $(($5 >> 8)) $(($5 & 255)))
	v=$(((16#${key[0]} << 24) | (16#${key[1]} << 16) | (16#${key[2]} << 8) | 16#${key[3]}))
	for i in "${!in[@]}"; do
		for b in 0 1 2 3 4 5 6 7; do
			((in[i] & (0x80 >> b))) && h=$((h ^ v))
			v=$((((v << 1) & 0xffffffff) | ((16#${key[i + 4]} >> (7 - b)) & 1)))
		done
	done
	RXB_TOEPLITZ=$h
}

# rxb_toeplitz_queue KEY INDIR SRC DST [SPORT DPORT]: the queue the NIC
# should pick for that IPv4 TCP/UDP flow: INDIR[Toeplitz(KEY, src, dst,
# sport, dport) % 128] (KEY as aa:bb:..., INDIR space separated; without
# SPORT, the hash of the addresses only).
rxb_toeplitz_queue() {
	local -a ind=($2)
	rxb_toeplitz "$1" "$3" "$4" "${5:-}" "${6:-}"
	echo "${ind[RXB_TOEPLITZ % ${#ind[@]}]}"
}

# ---- faults, models, page_pool accounting ------------------------------------

# rxb_models: the ring models the module registers, one a line.
rxb_models() { cat "$RXB_DBG/models"; }

# rxb_xdp_setup PATTERN: what the native XDP tests (xdp.sh, jumbo.sh,
# jumbo_redirect.sh) start with, after rxb_init: the BPF programs of
# progs/ (PROGS; built here when none matches PATTERN, a glob in PROGS),
# ip with XDP support, the module loaded with 2 queues, and its models
# (MODELS, NM of them).  Skips the test when any of it is missing.
rxb_xdp_setup() {
	PROGS=$RXB_DIR/progs
	# shellcheck disable=SC2086 # PATTERN is a glob
	if ! ls "$PROGS"/$1 >/dev/null 2>&1; then
		make -s -C "$PROGS" >/dev/null 2>&1 ||
			ktap_skip_all "the BPF programs in $PROGS are not built (make module)"
	fi
	ip link help 2>&1 | grep -q xdpdrv || ktap_skip_all "ip has no XDP support"
	rxb_load queues=2 || ktap_skip_all "cannot load the module"
	MODELS=$(rxb_models | xargs)
	NM=$(wc -w <<<"$MODELS")
}

# rxb_fault IF NAME VALUE: set debugfs fault/NAME of IF (alloc_fail and
# dma_fail per mille, engine_stall 0/1).
rxb_fault() { echo "$3" > "$RXB_DBG/$1/fault/$2"; }

# rxb_inject IF HEX...: each HEX (bytes as hex digits, "" for none) is one
# frame put on IF's wire (debugfs inject: one write() per frame).
rxb_inject() { rxb_inject_n "$1" 1 "${@:2}"; }

# rxb_inject_n IF N HEX...: the frames of rxb_inject, N times over.
rxb_inject_n() {
	local f=$RXB_DBG/$1/inject
	$RXB_PY - "$f" "$2" "${@:3}" <<-'EOF'
	import os, sys
	fd = os.open(sys.argv[1], os.O_WRONLY)
	frames = [bytes.fromhex(h) for h in sys.argv[3:]]
	for i in range(int(sys.argv[2])):
	    for f in frames:
	        os.write(fd, f)
	os.close(fd)
	EOF
}

# rxb_pp_trace_start: record page_pool_release events (every page_pool
# that is destroyed reports its pages still in flight, then again every
# second until none is) in a trace instance of this test.
RXB_PP_TRACE=
rxb_pp_trace_start() {
	local t=/sys/kernel/tracing
	[ -d $t/instances ] || t=/sys/kernel/debug/tracing
	[ -d $t/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d $t/instances ] || return 1
	RXB_PP_TRACE=$t/instances/rxb-pp-$$
	mkdir "$RXB_PP_TRACE" || { RXB_PP_TRACE=; return 1; }
	echo 4096 > "$RXB_PP_TRACE/buffer_size_kb"
	echo 1 > "$RXB_PP_TRACE/events/page_pool/page_pool_release/enable"
}

rxb_pp_trace_stop() {
	[ -n "$RXB_PP_TRACE" ] || return 0
	echo 0 > "$RXB_PP_TRACE/events/page_pool/page_pool_release/enable"
	rmdir "$RXB_PP_TRACE" 2>/dev/null
	RXB_PP_TRACE=
}

# rxb_kick_net_rx: a NET_RX softirq on every online CPU, by a loopback
# ping from each (lo's backlog receives it on the sending CPU).  Each
# frees the skbs other CPUs deferred to it (skb_attempt_defer_free(): an
# skb goes back to the CPU that allocated it), and their page_pool pages
# with them, which an idle CPU otherwise holds until it next receives: a
# released pool's pages are late, not lost (seen on 7.2 in fuzz.sh).
rxb_kick_net_rx() {
	local c
	ip link set lo up 2>/dev/null
	for c in $(seq 0 $(($(getconf _NPROCESSORS_CONF) - 1))); do
		[ -e /sys/devices/system/cpu/cpu$c/online ] &&
			[ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 0 ] && continue
		taskset -c "$c" ping -c 1 -W 1 -q 127.0.0.1 >/dev/null 2>&1
	done
}

# rxb_pp_released_result [WAIT_S]: the KTAP result "every page_pool
# released with 0 pages in flight" (rxb_pp_trace_check WAIT_S), or a skip
# when rxb_pp_trace_start found no trace instance.
rxb_pp_released_result() {
	local desc="every page_pool released with 0 pages in flight"

	if [ -n "$RXB_PP_TRACE" ]; then
		ktap_test_result "$desc" rxb_pp_trace_check "${1:-15}"
	else
		ktap_test_skip "$desc" "no tracefs instances"
	fi
}

# rxb_pp_trace_check [WAIT_S]: wait (up to WAIT_S, default 15 s) until the
# last event of every page_pool released so far reports inflight=0.  Sets
# RXB_PP_POOLS (pools seen), RXB_PP_DEFERRED (releases that found pages
# still in flight, e.g. in socket queues, and were retried),
# RXB_PP_MAXINF (most pages in flight at a release), RXB_PP_LEFT (pools
# whose pages never all came back) and RXB_PP_LOST (events lost: the
# buffer overflowed, the check is void).  0 when every pool got all its
# pages back.
rxb_pp_trace_check() {
	local i
	for ((i = 0; i < ${1:-15} * 2; i++)); do
		[ $((i % 4)) = 1 ] && rxb_kick_net_rx
		read -r RXB_PP_POOLS RXB_PP_DEFERRED RXB_PP_MAXINF RXB_PP_LEFT < <(
			awk '{
				p = ""; n = 0
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^page_pool=/) p = substr($i, 11)
					if ($i ~ /^inflight=/) n = substr($i, 10) + 0
				}
				if (p == "") next
				# a new pool: addresses are reused once freed
				if (!(p in last) || last[p] == 0) pools++
				last[p] = n
				if (n != 0) def++
				if (n > max) max = n
			} END {
				left = 0
				for (p in last) if (last[p] != 0) left++
				print pools + 0, def + 0, max + 0, left
			}' "$RXB_PP_TRACE/trace")
		[ "$RXB_PP_LEFT" = 0 ] && break
		rxb_sleep 0.5
	done
	RXB_PP_LOST=0
	grep -q 'LOST.*EVENTS' "$RXB_PP_TRACE/trace" && RXB_PP_LOST=1
	ktap_print_msg "page_pool: $RXB_PP_POOLS pools released, $RXB_PP_DEFERRED deferred releases" \
		"(max $RXB_PP_MAXINF pages in flight), $RXB_PP_LEFT with pages never returned" \
		"$([ "$RXB_PP_LOST" = 1 ] && echo ', TRACE EVENTS LOST')"
	[ "$RXB_PP_LEFT" = 0 ] && [ "$RXB_PP_LOST" = 0 ] && [ "$RXB_PP_POOLS" -gt 0 ]
}

# rxb_ports_for Q N: N UDP source ports whose flows from rxb0 to rxb1's
# port 9 RSS steers to rxb1's queue Q, on one line; fails if there are
# fewer than N among 20000..39999.
rxb_ports_for() {
	local q=$1 n=$2 key ind sp=20000 out=()
	key=$(rxb_hkey rxb1) && ind=$(rxb_indir rxb1) || return 1
	while [ ${#out[@]} -lt "$n" ] && [ $sp -lt 40000 ]; do
		[ "$(rxb_toeplitz_queue "$key" "$ind" "$RXB_IP0" "$RXB_IP1" $sp 9)" = "$q" ] &&
			out+=($sp)
		sp=$((sp + 1))
	done
	echo "${out[*]}"
	[ ${#out[@]} = "$n" ]
}

# rxb_dl_get NAME: the runtime value of devlink parameter NAME of $DL
# (default rxbisect/rxbisect0); rxb_dl_set NAME VALUE sets it.
rxb_dl_get() {
	local l
	l=$(devlink dev param show "${DL:-rxbisect/rxbisect0}" name "$1" 2>/dev/null)
	[[ $l == *"cmode runtime value "* ]] || return 0
	l=${l##*cmode runtime value }
	echo "${l%%$'\n'*}"
}
rxb_dl_set() {
	devlink dev param set "${DL:-rxbisect/rxbisect0}" name "$1" value "$2" cmode runtime
}

# rxb_dl_params: every parameter of $DL with its runtime value, one
# "NAME=VALUE" a line, in devlink's order, from one devlink call (the dump of every
# device's parameters: "param show" takes a device only with a name).
rxb_dl_params() {
	local dl=${DL:-rxbisect/rxbisect0} l n= cur=
	while IFS= read -r l; do
		# a device's handle starts a line: "bus/name:"
		[[ $l == [^[:space:]]* ]] && { cur=${l%%:*}; l=${l#*:}; }
		[ "$cur" = "$dl" ] || continue
		l=${l#"${l%%[![:space:]]*}"}
		case $l in
		"name "*) n=${l#name }; n=${n%% *} ;;
		"cmode runtime value "*) echo "$n=${l#cmode runtime value }" ;;
		esac
	done < <(devlink dev param show 2>/dev/null)
}

# rxb_dl_refuse_one NAME VALUE: setting NAME to VALUE must be refused with
# a message (the kernel's extack, or devlink's own for values it cannot
# even send); otherwise say why and set bad=1.
rxb_dl_refuse_one() {
	local out
	if out=$(rxb_dl_set "$1" "$2" 2>&1); then
		ktap_print_msg "$1 '$2' was accepted"
		bad=1
	elif [ -z "$out" ]; then
		ktap_print_msg "$1 '$2': refused without a message"
		bad=1
	else
		ktap_print_msg "$1 '$2': $out"
	fi
}

# rxb_dl_refused NAME VALUE...: setting NAME to each VALUE must be refused
# with a message (rxb_dl_refuse_one) and leave every parameter of $DL as
# it was (compared once, after the last VALUE: one devlink call for the
# whole batch instead of two per value); otherwise say why and set bad=1.
rxb_dl_refused() {
	local name=$1 v before after
	shift
	before=$(rxb_dl_params)
	for v in "$@"; do
		rxb_dl_refuse_one "$name" "$v"
	done
	after=$(rxb_dl_params)
	if [ -z "$before" ] || [ "$before" != "$after" ]; then
		ktap_print_msg "after refusing $name $*: parameters changed:" \
			"$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | xargs)"
		bad=1
	fi
}

# rxb_dl_check_bad NAME VALUE: rxb_dl_refuse_one, and NAME left as it was.
rxb_dl_check_bad() {
	local before
	before=$(rxb_dl_get "$1")
	rxb_dl_refuse_one "$1" "$2"
	[ "$(rxb_dl_get "$1")" = "$before" ] || { ktap_print_msg "$1 changed"; bad=1; }
}
