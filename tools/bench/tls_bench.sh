#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kTLS device offload's measurements (thesis chapter 3, §3.5.1 and
# §3.5.4; issue 34 item 6), with tools/bench/ktls_bulk.c as the
# application: TLS 1.2, AES-GCM, a fixed key, 16 KiB records.
#
# Part "cpu": the application core's cost.  A bulk transfer over the port
# pair rxb0 (namespace NS0) - rxb1 (NS1), one queue each, the NIC on its
# own engine thread (engine=cpu$PEER_CPU).  The measured application runs
# in NS0 pinned to APP_CPU, and rxb0's queue interrupts APP_CPU (its NAPI:
# the ACKs for TX, the whole receive path for RX, as the
# thesis's single core does all of its host's work); the peer application,
# rxb1's queue interrupt and both NICs' engine threads are on PEER_CPU.
# TX: NS0 sends (tx: rxb0's TSO on; txgso: off, see the table's note);
# RX: NS0 receives, NS1 sends.  Each of plain TCP, software kTLS
# (tls-hw-*-offload off) and the device offload (on) moves BYTES; the cost
# is APP_CPU's busy time per byte: the transfer's wall time less APP_CPU's
# idle time (/proc/timer_list's idle_sleeptime and iowait_sleeptime, the
# ns counts /proc/stat rounds to 10 ms), read by the application on that
# CPU.  That and not the process's rusage, because the receive path's
# softirq work on that CPU is charged to whatever task it interrupts (or to
# ksoftirqd, or to no task when it wakes the CPU from idle): every cycle
# not idle counts, and nothing runs there but the application and its
# port's interrupt.  The process's own CPU time and the tick-sampled
# /proc/stat busy time are recorded too.  Each mode runs bulk (as fast as
# it goes) and paced at one rate for all (RATE; TCP pacing at the sender):
# bulk, the offload's CPU-bound peer makes the application core idle more
# in that mode than in the others; paced, every mode works at the same
# throughput (the thesis's "CPU at line rate").  Each repetition runs the
# three modes back to back, in an order that rotates, and the ratios are
# taken within it; the table gives their median and range over REPS.
# The emulated NIC does the offloaded crypto on its engine thread, i.e.
# on PEER_CPU's busy time, not APP_CPU's (Documentation/rxbisect-tls.rst,
# "who pays").
#
# Part "loss": the offload's effectiveness under loss and reordering.  Two
# ports stacked on a veth pair (rxbA on vA in NS0, rxbB on vB in NS1), so
# that netem can act on the wire below the NICs (netem with a delay on an
# offloading port itself makes the kernel drop the offloaded skbs); netem
# on vA only, the data direction (NS0 sends to NS1).  Per condition (LOSS:
# "0 1 2 5 r2" = 0, 1, 2, 5 % loss, 2 % reordering: netem "delay
# REORDER_DELAY reorder 2%", i.e. 2 % of the packets skip the delay and
# overtake the others), one verified transfer of LOSS_BYTES: every record
# software received, classified by the tls:tls_device_decrypted tracepoint
# as the thesis's Fig. 3.16b/3.17b do (fully offloaded: every packet
# decrypted by the NIC; partially; not offloaded), the NIC's own count of
# records it decrypted (rx tls_records), packets it passed up encrypted,
# resync requests and confirmations, TX record dumps (retransmissions);
# /proc/net/tls_stat's TlsDecryptError must stay 0 and every byte must
# arrive intact, else the script fails.  Each condition also runs with
# software kTLS, and each mode twice (LOSS_DIRS): the receiver measured (rx:
# NS1's application and rxbB's queue interrupt on APP_CPU, NS0's on
# PEER_CPU) and the sender measured (tx: the other way round), the NICs'
# engine threads, veth and netem on PEER_CPU as in part cpu.  The cost is
# the measured core's busy time per byte as in part cpu; software's over
# the offload's is the throughput a core that does only this would gain
# (the thesis's Figs. 3.15a/3.16a/3.17a: one core, CPU-bound).  Both modes
# check every byte, so the check's cost is in both (part cpu has none):
# the clean condition's ratio is the baseline the others are read against.
# RESYNC: the offload runs once per RX resync mode listed (the module's
# tls_resync, set before each run: sync, tls_offload_rx_resync_request();
# async, mlx5's async request), each its own rows; software's ratio is
# taken against each.
# The modes alternate, their order rotating with the repetition
# (LOSS_REPS); a condition's ratio is the median over repetitions.
#
# Run as root where the module loads and is not loaded yet (host.sh refuses
# otherwise, with exit 2, as every benchmark here; unloaded at the end):
#   make tls-bench [TLS_BENCH_ARGS='--reps 5']
#   tools/vm/run-vm.sh -- tools/bench/tls_bench.sh --out results/x
#   tools/bench/tls_bench.sh --app-cpu 2 --peer-cpu 3 --bytes 1G   (a host;
#   keep other work off both CPUs: everything APP_CPU does is counted)
# Options (the environment variable of the same meaning in brackets):
#   --reps N          repetitions of part cpu (REPS, 3)
#   --bytes N         bytes per transfer of part cpu (BYTES, 4M; K, M, G)
#   --loss-bytes N    bytes per transfer of part loss (LOSS_BYTES, 4M)
#   --loss LIST       conditions of part loss (LOSS, "0 1 2 5 r2"): N is
#                     N % loss, rN is N % reordering
#   --reorder-delay D netem delay for reordering (REORDER_DELAY, 1ms)
#   --loss-reps N     repetitions of part loss (LOSS_REPS, 1)
#   --loss-dirs LIST  part loss's measured sides (LOSS_DIRS, "rx tx"): rx
#                     the receiver, tx the sender
#   --resync LIST     part loss's RX resync modes of the offload (RESYNC,
#                     "sync"): sync, async or both, one offloaded run each
#   --app-cpu N       the measured application's CPU (APP_CPU, 0)
#   --peer-cpu N      peer, engine threads, peer IRQ (PEER_CPU, 1)
#   --cipher 128|256  AES-GCM key bits (CIPHER, 128)
#   --rate R          part cpu also paced, every mode at R bytes/s (RATE,
#                     auto: half the slowest bulk transfer of the first
#                     repetition; off: bulk only)
#   --dirs LIST       part cpu's directions (DIRS, "tx txgso rx")
#   --coalesce N      part cpu: both ports' interrupt moderation,
#                     rx-usecs N rx-frames 64 (COALESCE, 0: none, every
#                     event interrupts, the module's default)
#   --parts LIST      "cpu loss" (PARTS), either or both
#   --out DIR         results (OUT, results/tls-bench-DATE)
# Writes OUT/cpu.csv, OUT/loss.csv and OUT/tls.md (the tables printed).
# Exit status: 0 done, 1 a failure (setup, transfer, integrity, a mode
# that did not run as asked), 2 bad usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lib=$top/selftests/drivers/net/rxbisect

# shellcheck source=usage.sh
source "$here/usage.sh"

REPS=${REPS:-3}
BYTES=${BYTES:-4M}
LOSS_BYTES=${LOSS_BYTES:-4M}
LOSS=${LOSS:-0 1 2 5 r2}
REORDER_DELAY=${REORDER_DELAY:-1ms}
LOSS_REPS=${LOSS_REPS:-1}
LOSS_DIRS=${LOSS_DIRS:-rx tx}
RESYNC=${RESYNC:-sync}
APP_CPU=${APP_CPU:-0}
PEER_CPU=${PEER_CPU:-1}
CIPHER=${CIPHER:-128}
RATE=${RATE:-auto}
DIRS=${DIRS:-tx txgso rx}
COALESCE=${COALESCE:-0}
PARTS=${PARTS:-cpu loss}
OUT=${OUT:-}
while [ $# -gt 0 ]; do
	case $1 in
	--reps|--bytes|--loss-bytes|--loss|--reorder-delay|--loss-reps|--loss-dirs|--resync|--app-cpu|--peer-cpu|--cipher|--rate|--dirs|--coalesce|--parts|--out)
		[ $# -ge 2 ] || usage "$1 needs a value" ;;
	esac
	case $1 in
	--reps)		REPS=$2; shift 2 ;;
	--bytes)	BYTES=$2; shift 2 ;;
	--loss-bytes)	LOSS_BYTES=$2; shift 2 ;;
	--loss)		LOSS=$2; shift 2 ;;
	--reorder-delay) REORDER_DELAY=$2; shift 2 ;;
	--loss-reps)	LOSS_REPS=$2; shift 2 ;;
	--loss-dirs)	LOSS_DIRS=$2; shift 2 ;;
	--resync)	RESYNC=$2; shift 2 ;;
	--app-cpu)	APP_CPU=$2; shift 2 ;;
	--peer-cpu)	PEER_CPU=$2; shift 2 ;;
	--cipher)	CIPHER=$2; shift 2 ;;
	--rate)		RATE=$2; shift 2 ;;
	--dirs)		DIRS=$2; shift 2 ;;
	--coalesce)	COALESCE=$2; shift 2 ;;
	--parts)	PARTS=$2; shift 2 ;;
	--out)		OUT=$2; shift 2 ;;
	-h|--help)	usage ;;
	*)		usage "unknown argument '$1'" ;;
	esac
done

# size N[KMG] -> bytes, or nothing when malformed
size() {
	local v=$1 m=1
	case $v in
	*[kK]) m=1024; v=${v%?} ;;
	*M) m=$((1024 * 1024)); v=${v%?} ;;
	*G) m=$((1024 * 1024 * 1024)); v=${v%?} ;;
	esac
	[[ $v =~ ^[1-9][0-9]{0,12}$ ]] && echo $((v * m))
}

[[ $REPS =~ ^[1-9][0-9]{0,3}$ ]] || usage "REPS must be a whole number 1..9999, not '$REPS'"
[[ $LOSS_REPS =~ ^[1-9][0-9]{0,3}$ ]] || usage "LOSS_REPS must be a whole number 1..9999, not '$LOSS_REPS'"
for c in $LOSS_DIRS; do
	case $c in
	rx|tx) ;;
	*) usage "LOSS_DIRS are rx and tx, not '$c'" ;;
	esac
done
[ -n "${LOSS_DIRS// /}" ] || usage "LOSS_DIRS is empty"
for c in $RESYNC; do
	case $c in
	sync|async) ;;
	*) usage "RESYNC modes are sync and async, not '$c'" ;;
	esac
done
[ -n "${RESYNC// /}" ] || usage "RESYNC is empty"
b=$(size "$BYTES") || b=
[ -n "$b" ] || usage "BYTES must be a positive size (N, NK, NM, NG), not '$BYTES'"
BYTES=$b
b=$(size "$LOSS_BYTES") || b=
[ -n "$b" ] || usage "LOSS_BYTES must be a positive size (N, NK, NM, NG), not '$LOSS_BYTES'"
LOSS_BYTES=$b
for c in $LOSS; do
	[[ $c =~ ^r?([0-9]|[1-9][0-9])(\.[0-9]+)?$ ]] ||
		usage "a LOSS condition is N or rN with N a percentage below 100, not '$c'"
done
[ -n "${LOSS// /}" ] || usage "LOSS is empty"
[[ $REORDER_DELAY =~ ^[1-9][0-9]*(us|ms)$ ]] || usage "REORDER_DELAY is Nus or Nms, not '$REORDER_DELAY'"
for c in APP_CPU PEER_CPU; do
	[[ ${!c} =~ ^(0|[1-9][0-9]{0,4})$ ]] || usage "$c must be a CPU number, not '${!c}'"
done
[ "$APP_CPU" != "$PEER_CPU" ] || usage "APP_CPU and PEER_CPU must differ"
[ "$CIPHER" = 128 ] || [ "$CIPHER" = 256 ] || usage "CIPHER is 128 or 256, not '$CIPHER'"
if [ "$RATE" != auto ] && [ "$RATE" != off ]; then
	b=$(size "$RATE") || b=
	[ -n "$b" ] && [ "$b" -lt 4294967296 ] || usage "RATE is auto, off or bytes/s (N, NK, NM, NG) below 4G, not '$RATE'"
	RATE=$b
fi
for c in $DIRS; do
	case $c in
	tx|txgso|rx) ;;
	*) usage "DIRS are tx, txgso and rx, not '$c'" ;;
	esac
done
[ -n "${DIRS// /}" ] || usage "DIRS is empty"
[[ $COALESCE =~ ^(0|[1-9][0-9]{0,3}|10000)$ ]] && [ "$COALESCE" -le 10000 ] ||
	usage "COALESCE is rx-usecs 0..10000, not '$COALESCE'"
DO_CPU=
DO_LOSS=
for p in $PARTS; do
	case $p in
	cpu) DO_CPU=1 ;;
	loss) DO_LOSS=1 ;;
	*) usage "PARTS are cpu and loss, not '$p'" ;;
	esac
done
[ -n "$DO_CPU$DO_LOSS" ] || usage "PARTS is empty"

# ---- environment -------------------------------------------------------------

for c in $APP_CPU $PEER_CPU; do
	[ -d "/sys/devices/system/cpu/cpu$c" ] &&
		[ "$(cat "/sys/devices/system/cpu/cpu$c/online" 2>/dev/null || echo 1)" = 1 ] ||
		usage "CPU $c is not online (--app-cpu/--peer-cpu)"
done

fail() { echo "tls_bench: FAIL: $*" >&2; exit 1; }
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"
OUT=${OUT:-$top/results/tls-bench-$(date +%Y%m%d-%H%M%S)}
# Refused (exit 2) unless root, with the tools, no other rxbisect user and
# a module to load (RXB_MODPROBE, RXB_KO for lib.sh's rxb_load); the
# machine's layout, printed and written to OUT.
bench_host_init tls_bench.sh tc:iproute2 ss:iproute2 awk:mawk cc:gcc
BULK=${KTLS_BULK:-$top/build/bench/ktls_bulk}
if [ ! -x "$BULK" ]; then
	mkdir -p "$(dirname "$BULK")" &&
		cc -O2 -Wall -o "$BULK" "$here/ktls_bulk.c" ||
		fail "$BULK is not built and cc failed (make -C $top build/bench/ktls_bulk)"
fi
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
modprobe tls 2>/dev/null
[ -r /proc/net/tls_stat ] || fail "no kTLS (modprobe tls failed; CONFIG_TLS_DEVICE?)"

mkdir -p "$OUT" || exit 1
RXB_TMP=$(mktemp -d /tmp/rxb-tlsbench.XXXXXX)
NS0=rxbt-a-$$
NS1=rxbt-b-$$
VA=rxbtva$$
VB=rxbtvb$$
TRACE=
cleanup() {
	[ -n "$TRACE" ] && { echo 0 > "$TRACE/tracing_on"; rmdir "$TRACE"; } 2>/dev/null
	ip link del "$VA" 2>/dev/null
	rxb_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM
PORT=$((20000 + $$ % 20000))
BUSY_SRC="the transfer's wall time less the CPU's idle time (/proc/timer_list idle_sleeptime + iowait_sleeptime, ns): every cycle the CPU did not idle, the application's, its interrupts' and softirqs', whoever they were charged to"
MD=$OUT/tls.md
: > "$MD"

progress() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$OUT/progress.log" >&2; }
say() { echo "$*" | tee -a "$MD"; }

# The tracepoint that classifies each record software receives on an
# offloaded socket (net/tls/tls_device.c, tls_device_decrypted()), in a
# trace instance of our own.
trace_setup() {
	local t
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$t/instances" ] && break
	done
	[ -d "$t/events/tls/tls_device_decrypted" ] || return 1
	TRACE=$t/instances/rxb-tlsbench-$$
	mkdir "$TRACE" 2>/dev/null || { TRACE=; return 1; }
	echo 8192 > "$TRACE/buffer_size_kb"
	echo 1 > "$TRACE/events/tls/tls_device_decrypted/enable" || return 1
	echo 1 > "$TRACE/tracing_on"
}

# trace_count: "records fully partly none lost" since the last call, then
# empty the buffer.
trace_count() {
	awk '/^# entries-in-buffer/ { split($3, a, "/"); lost = a[2] - a[1] }
		/tls_device_decrypted:/ { n++
			if ($0 ~ / encrypted=0 decrypted=1/) f++
			else if ($0 ~ / encrypted=1 decrypted=0/) s++
			else p++ }
		END { printf "%d %d %d %d %d\n", n, f, p, s, lost }' "$TRACE/trace"
	echo > "$TRACE/trace"
}

declare -A ST=()
# stats NS IF PREFIX: ethtool -S IF and /proc/net/tls_stat in NS into
# ST[PREFIX.name], with the per-queue counters summed over queues
# (ST[PREFIX.tx_tls_records], ST[PREFIX.rx_irqs], ...).
stats() {
	local k v q
	# shellcheck disable=SC2016 # $0 is sh's, below
	while read -r k v; do
		k=${k%:}
		[ -n "$v" ] || continue
		if [[ $k =~ ^(tx|rx)[0-9]+_(.*)$ ]]; then
			q=$3.${BASH_REMATCH[1]}_${BASH_REMATCH[2]}
			ST[$q]=$((${ST[$q]:-0} + v))
		else
			ST[$3.$k]=$v
		fi
	done < <(ip netns exec "$1" sh -c 'ethtool -S "$0" 2>/dev/null; cat /proc/net/tls_stat' "$2")
}

# snap NS0 IF0 NS1 IF1 WHEN: both sides' counters, zeroing the sums first.
snap() {
	local k
	for k in "${!ST[@]}"; do
		[[ $k == "$5".* ]] && unset "ST[$k]"
	done
	stats "$1" "$2" "$5.0"
	stats "$3" "$4" "$5.1"
}

# d SIDE NAME: counter NAME of side 0 or 1, after minus before.
d() { echo $((${ST[a.$1.$2]:-0} - ${ST[b.$1.$2]:-0})); }

declare -A FEAT=()
# features NS IF TLS-OFFLOAD [TSO]: ethtool -K IF's kTLS offload (both
# directions) on or off, and its TSO (default on), when they change.
features() {
	local want="tls-hw-tx-offload $3 tls-hw-rx-offload $3 tso ${4:-on}"
	[ "${FEAT[$1.$2]:-}" = "$want" ] && return 0
	# shellcheck disable=SC2086 # the options, split
	ip netns exec "$1" ethtool -K "$2" $want || fail "ethtool -K $2 $want"
	FEAT[$1.$2]=$want
}

# transfer NSSEND NSRECV ADDR MEASURED CPU_SEND CPU_RECV BYTES EXTRA...:
# one ktls_bulk transfer from NSSEND to NSRECV (listening on ADDR); prints
# the measured side's (send or recv) result line.
transfer() {
	local nss=$1 nsr=$2 addr=$3 meas=$4 cs=$5 cr=$6 n=$7 rpid rc port
	shift 7
	PORT=$((PORT + 1))
	port=$PORT
	ip netns exec "$nsr" "$BULK" recv -l "$port" -n "$n" -C "$cr" "$@" \
		>"$RXB_TMP/recv.out" 2>"$RXB_TMP/recv.err" &
	rpid=$!
	rxb_wait_listen "$nsr" "$port" || { kill "$rpid"; fail "the receiver did not listen"; }
	ip netns exec "$nss" "$BULK" send -c "$addr:$port" -n "$n" -C "$cs" "$@" \
		>"$RXB_TMP/send.out" 2>"$RXB_TMP/send.err"
	rc=$?
	wait "$rpid" || rc=1
	if [ "$rc" != 0 ]; then
		cat "$RXB_TMP/send.err" "$RXB_TMP/recv.err" >&2
		fail "transfer failed ($*)"
	fi
	cat "$RXB_TMP/$meas.out"
}

kv() {	# LINE KEY
	[[ " $1 " =~ \ $2=([^ ]*)\  ]] && echo "${BASH_REMATCH[1]}"
}

# busy_of LINE: BUSY, the measured CPU's busy ns of ktls_bulk's result
# LINE; without /proc/timer_list (busy_ns -1) its tick-sampled busy time,
# and BUSY_SRC says so.
busy_of() {
	BUSY=$(kv "$1" busy_ns)
	[ "$BUSY" = -1 ] || return 0
	BUSY=$(awk -v b="$(kv "$1" busy_ticks)" -v h="$(kv "$1" hz)" 'BEGIN { printf "%d", b * 1e9 / h }')
	BUSY_SRC="/proc/stat busy ticks (user+nice+system+irq+softirq), as /proc/timer_list was not readable"
}

# AWK_STATS: the tables' awk functions.  med(LIST): the median of a
# space-separated list, its extremes in lo and hi; g(V): 3 digits or "-".
AWK_STATS='
	function med(list,    n, a, i, j, t) {
		n = split(list, a, " ")
		if (!n) return "-"
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		lo = a[1]; hi = a[n]
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function g(v) { return v == "-" ? "-" : sprintf("%.3g", v) }'

say "# kTLS device offload benchmark ($(date -u '+%Y-%m-%d %H:%M UTC'))"
say ""
say "kernel $(uname -r), $(nproc) CPUs, rxbisect $(modinfo -F version rxbisect 2>/dev/null || modinfo -F version "${RXB_KO:-}" 2>/dev/null), ${RXB_VM:+TCG VM, }AES-GCM-$CIPHER, 16 KiB records"
say "command: $0 --reps $REPS --bytes $BYTES --loss-bytes $LOSS_BYTES --loss '$LOSS' --loss-reps $LOSS_REPS --loss-dirs '$LOSS_DIRS' --resync '$RESYNC' --app-cpu $APP_CPU --peer-cpu $PEER_CPU --cipher $CIPHER --rate $RATE --dirs '$DIRS' --coalesce $COALESCE --parts '$PARTS'"
say ""

# ---- part cpu ----------------------------------------------------------------

# cpu_run DIR MODE REP KIND: one transfer (KIND bulk: as fast as it goes;
# paced: the sender paced at $RATE_BPS), one row of cpu.csv.
cpu_run() {
	local dir=$1 mode=$2 rep=$3 kind=$4 line m=tls busy hz bytes wall nsb selfb sirq peerb util
	local snd=0 rcv=1 onoff=off pace=() tput tmo
	[ "$mode" = plain ] && m=plain
	[ "$mode" = hw ] && onoff=on
	# txgso: TX with rxb0's TSO off, the stack's GSO segmenting on the
	# application's CPU in every mode (see cpu_notes)
	features "$NS0" rxb0 $onoff "$([ "$dir" = txgso ] && echo off || echo on)"
	features "$NS1" rxb1 $onoff
	# the helper's time limit: at least 0.5 MB/s, or half the pacing rate
	tmo=$((60 + BYTES / 500000))
	[ "$kind" = paced ] && pace=(-R "$RATE_BPS") && tmo=$((tmo + 2 * BYTES / RATE_BPS))
	snap "$NS0" rxb0 "$NS1" rxb1 b
	if [ "$dir" != rx ]; then
		line=$(transfer "$NS0" "$NS1" "$RXB_IP1" send "$APP_CPU" "$PEER_CPU" "$BYTES" \
			-m "$m" -k "$CIPHER" -w 262144 -P "$PEER_CPU" -t "$tmo" "${pace[@]}") || exit 1
	else
		snd=1 rcv=0
		line=$(transfer "$NS1" "$NS0" "$RXB_IP0" recv "$PEER_CPU" "$APP_CPU" "$BYTES" \
			-m "$m" -k "$CIPHER" -w 262144 -P "$PEER_CPU" -t "$tmo" "${pace[@]}") || exit 1
	fi
	snap "$NS0" rxb0 "$NS1" rxb1 a
	# the mode ran as asked: kTLS's device or software path, the NIC's
	# TLS engine busy or idle
	case $mode in
	hw)	{ [ "$(d $snd TlsTxDevice)" -ge 1 ] && [ "$(d $rcv TlsRxDevice)" -ge 1 ]; } ||
			fail "$dir $mode: the sockets did not get the device offload (TlsTxDevice/TlsRxDevice)"
		{ [ "$(d $snd tx_tls_records)" -gt 0 ] && [ "$(d $rcv rx_tls_records)" -gt 0 ]; } ||
			fail "$dir $mode: the NIC encrypted or decrypted no record" ;;
	sw)	{ [ "$(d $snd TlsTxSw)" -ge 1 ] && [ "$(d $rcv TlsRxSw)" -ge 1 ]; } ||
			fail "$dir $mode: the sockets are not in software kTLS (TlsTxSw/TlsRxSw)" ;;
	esac
	[ "$(d $rcv TlsDecryptError)" = 0 ] ||
		fail "$dir $mode: TlsDecryptError went up by $(d $rcv TlsDecryptError)"
	[ "$mode" = hw ] || [ "$(d $snd tx_tls_records)$(d $rcv rx_tls_records)" = 00 ] ||
		fail "$dir $mode: the NIC's TLS engine worked without the offload"
	hz=$(kv "$line" hz)
	bytes=$(kv "$line" bytes)
	wall=$(kv "$line" wall_ns)
	sirq=$(kv "$line" softirq_ticks)
	busy_of "$line"
	busy=$BUSY
	read -r nsb selfb peerb util tput < <(awk -v b="$busy" -v n="$bytes" -v w="$wall" -v h="$hz" \
		-v s="$(kv "$line" self_ns)" -v p="$(kv "$line" peer_busy_ticks)" \
		'BEGIN { printf "%.4f %.4f %.4f %.3f %d\n", b / n, s / n, p * 1e9 / h / n, b / w, n / (w / 1e9) }')
	echo "$rep,$kind,$dir,$mode,$bytes,$wall,$tput,${RATE_BPS:-0},$busy,$sirq,$hz,$nsb,$selfb,$util,$peerb,$(d $snd tx_tls_records),$(d $rcv rx_tls_records),$(d $rcv rx_tls_encrypted),$(d 0 rx_stack_packets),$(d 0 tx_packets),$(d 0 rx_irqs)" >> "$OUT/cpu.csv"
	progress "rep $rep $kind $dir $mode: $nsb ns/B on CPU $APP_CPU ($util busy, softirq $sirq ticks), self $selfb ns/B; CPU $PEER_CPU $peerb ns/B; $((tput / 1000)) kB/s; rxb0 $(d 0 rx_stack_packets) pkts in, $(d 0 tx_packets) out, $(d 0 rx_irqs) irqs"
}

# cpu_table KIND: the medians and ratios of cpu.csv's KIND rows (one awk:
# process start-up is slow under TCG).
cpu_table() {
	awk -F, -v k="$1" -v dirs="$DIRS" -v app="$APP_CPU" -v peer="$PEER_CPU" "$AWK_STATS"'
	function rng(list,    m) { m = med(list); return m == "-" ? "-" : sprintf("%.3gx [%.3g-%.3g]", m, lo, hi) }
	NR > 1 && $2 == k {
		key = $3 "," $4
		nsb[key] = nsb[key] " " $12; busy[key] = busy[key] " " $14
		peerb[key] = peerb[key] " " $15; tput[key] = tput[key] " " $7
		v[$1 "," key] = $12; reps[$1] = 1
	}
	END {
		printf "| dir | plain ns/B | sw kTLS ns/B | offload ns/B | sw/offload | thesis sw/offload | sw/plain | offload/plain | CPU %s busy: plain / sw / offload | CPU %s ns/B: plain / sw / offload | kB/s: plain / sw / offload |\n", app, peer
		print "|---|---|---|---|---|---|---|---|---|---|---|"
		nd = split(dirs, D, " ")
		for (i = 1; i <= nd; i++) {
			d = D[i]; rs = rp = rh = ""
			for (r in reps) {
				s = v[r "," d ",sw"]; h = v[r "," d ",hw"]; p = v[r "," d ",plain"]
				if (s > 0 && h > 0 && p > 0) {
					rs = rs " " s / h; rp = rp " " s / p; rh = rh " " h / p
				}
			}
			th = d == "rx" ? (k == "bulk" ? "2.2x (1-core tput)" : "1.7x (CPU at line rate)") \
				       : (k == "bulk" ? "3.3x (1-core tput)" : "2.4x (CPU at line rate)")
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s | %d / %d / %d |\n", d,
				g(med(nsb[d ",plain"])), g(med(nsb[d ",sw"])), g(med(nsb[d ",hw"])),
				rng(rs), th, rng(rp), rng(rh),
				g(med(busy[d ",plain"])), g(med(busy[d ",sw"])), g(med(busy[d ",hw"])),
				g(med(peerb[d ",plain"])), g(med(peerb[d ",sw"])), g(med(peerb[d ",hw"])),
				med(tput[d ",plain"]) / 1000, med(tput[d ",sw"]) / 1000, med(tput[d ",hw"]) / 1000
		}
	}' "$OUT/cpu.csv" | tee -a "$MD"
	say ""
}

part_cpu() {
	local rep dir mode modes i kind kinds
	progress "part cpu: load, pair rxb0-rxb1, engine=cpu$PEER_CPU"
	rxb_load pairs=1 queues=1 engine="cpu$PEER_CPU" || fail "loading rxbisect"
	rxb_setup_netns rxb0 rxb1 || fail "setting up the pair"
	{ echo "$APP_CPU" > "$RXB_DBG/rxb0/q0/irq_cpu" &&
		echo "$PEER_CPU" > "$RXB_DBG/rxb1/q0/irq_cpu"; } ||
		fail "setting the queues' irq_cpu (debugfs)"
	echo "rep,kind,dir,mode,bytes,wall_ns,bytes_per_s,pacing_rate,busy_ns,softirq_ticks,hz,busy_ns_per_byte,self_ns_per_byte,app_cpu_busy_share,peer_cpu_busy_ns_per_byte,nic_tx_records,nic_rx_records,nic_rx_encrypted_pkts,rxb0_rx_pkts,rxb0_tx_pkts,rxb0_irqs" > "$OUT/cpu.csv"
	modes=(plain sw hw)
	if [ "$COALESCE" != 0 ]; then
		ip netns exec "$NS0" ethtool -C rxb0 rx-usecs "$COALESCE" rx-frames 64 &&
			ip netns exec "$NS1" ethtool -C rxb1 rx-usecs "$COALESCE" rx-frames 64 ||
			fail "ethtool -C rx-usecs $COALESCE rx-frames 64"
	fi
	RATE_BPS=
	[ "$RATE" = off ] || [ "$RATE" = auto ] || RATE_BPS=$RATE
	kinds=bulk
	[ "$RATE" = off ] || kinds="bulk paced"
	for rep in $(seq 1 "$REPS"); do
		for kind in $kinds; do
			if [ "$kind" = paced ] && [ -z "$RATE_BPS" ]; then
				# half the slowest bulk transfer of the first
				# repetition, two significant digits
				RATE_BPS=$(awk -F, 'NR > 1 && $2 == "bulk" && (!m || $7 < m) { m = $7 }
					END { e = 10 ^ int(log(m / 2) / log(10) - 1); printf "%d", int(m / 2 / e) * e }' "$OUT/cpu.csv")
				[ "${RATE_BPS:-0}" -ge 1000 ] ||
					fail "the bulk transfers were too slow to pace at half their rate ($RATE_BPS B/s)"
				progress "pacing rate: $RATE_BPS B/s (half the slowest bulk transfer)"
			fi
			for dir in $DIRS; do
				for i in 0 1 2; do
					mode=${modes[$(((i + rep) % 3))]}
					cpu_run "$dir" "$mode" "$rep" "$kind"
				done
			done
		done
	done
	rxb_unload || fail "unloading rxbisect"
	progress "part cpu: done"

	say "## Application-core cost (part cpu)"
	say ""
	say "$(numfmt --to=iec "$BYTES" 2>/dev/null || echo "$BYTES") per transfer, REPS=$REPS, modes interleaved, ratios taken within each repetition: median [min-max]; ns/B: medians."
	say "Measured: CPU $APP_CPU's busy time per byte, $BUSY_SRC; it runs the measured application and its port's interrupt (NAPI), nothing else."
	say "On CPU $PEER_CPU: the peer application, the peer port's interrupt and both NICs' engine threads (engine=cpu$PEER_CPU; its ns/B is /proc/stat ticks)."
	say "The emulated NIC does the offloaded AES-GCM (and its copies) on its engine thread, i.e. on CPU $PEER_CPU, as hardware does it on the NIC: CPU $APP_CPU pays only the driver's part."
	[ "$COALESCE" = 0 ] || say "Interrupt moderation on both ports: rx-usecs $COALESCE rx-frames 64."
	say "busy: CPU $APP_CPU's busy share of the transfer's wall time (1 = saturated, as the thesis's single core)."
	say ""
	say "Bulk (as fast as it goes):"
	say ""
	cpu_table bulk
	if [ "$RATE" != off ]; then
		say "Paced at $RATE_BPS B/s, every mode the same (sender's SO_MAX_PACING_RATE):"
		say ""
		cpu_table paced
	fi
	say "tx: rxb0's TSO on.  rxbisect's Tx engine segments a plain or software-kTLS frame (its TSO, skb_gso_segment() in drv/netdev.c rxb_xmit_one()) synchronously in the sender's context, on CPU $APP_CPU even with engine=cpuN, but an offloaded frame on the NIC's engine thread together with its encryption: the NIC's segmentation is charged to the application core for plain and sw only, which favours the offload.  txgso: rxb0's TSO off, the stack's GSO segments on CPU $APP_CPU in all three modes, charging each the segmentation a real NIC does in hardware.  So sw/offload of txgso is a lower bound and that of tx an upper bound of the ratio with a NIC whose TSO is free in every mode."
	say ""
	say "Thesis (§3.5.1, iperf, 256 KiB messages, 16 KiB records, ConnectX-6 Dx): single-core throughput with offload 3.3x (TX) and 2.2x (RX) of software kTLS; CPU at line rate 2.4x (TX) and 1.7x (RX) less; crypto is up to 74 % (TX) and 60 % (RX) of the cycles, 46-74 % over its four workloads."
	say ""
}

# ---- part loss ---------------------------------------------------------------

# loss_run COND DIR MODE REP [RS]: one verified transfer NS0 -> NS1 under
# COND with kTLS MODE (hw: the offload, its RX resync mode RS; sw:
# software), the receiver (DIR rx) or the sender (tx) measured on APP_CPU;
# one row of loss.csv.
loss_run() {
	local c=$1 dir=$2 mode=$3 rep=$4 rs=${5:--} astart aend netem line rec=- full=- part=- none=- lost nicrec encp decp rsq conf rsd dumps txdrops derr what
	local cs=$PEER_CPU cr=$APP_CPU meas=recv onoff=off busy nsb
	[ "$dir" = tx ] && cs=$APP_CPU cr=$PEER_CPU meas=send
	[ "$mode" = hw ] && onoff=on
	# a socket takes the mode in force when its offload starts
	if [ "$mode" = hw ]; then
		echo "$rs" > /sys/module/rxbisect/parameters/tls_resync ||
			fail "setting tls_resync=$rs"
	fi
	features "$NS0" rxbA $onoff
	features "$NS1" rxbB $onoff
	# each side's queue interrupt on its application's CPU
	{ echo "$cs" > "$RXB_DBG/rxbA/q0/irq_cpu" &&
		echo "$cr" > "$RXB_DBG/rxbB/q0/irq_cpu"; } ||
		fail "setting rxbA's and rxbB's irq_cpu (debugfs)"
	tc qdisc del dev "$VA" root 2>/dev/null
	case $c in
	0)	netem= ; what="none" ;;
	r*)	netem="delay $REORDER_DELAY reorder ${c#r}%"; what="reorder ${c#r} %" ;;
	*)	netem="loss $c%"; what="loss $c %" ;;
	esac
	what="$what, $dir $mode${5:+ $rs} rep $rep"
	# shellcheck disable=SC2086 # the netem options, split
	[ -z "$netem" ] || tc qdisc add dev "$VA" root netem $netem limit 100000 ||
		fail "tc qdisc add dev $VA root netem $netem"
	[ -n "$TRACE" ] && trace_count >/dev/null
	snap "$NS0" rxbA "$NS1" rxbB b
	line=$(transfer "$NS0" "$NS1" "$RXB_IP1" "$meas" "$cs" "$cr" "$LOSS_BYTES" \
		-m tls -k "$CIPHER" -w 262144 -V -P "$PEER_CPU" \
		-t $((120 + LOSS_BYTES / 100000))) || exit 1
	snap "$NS0" rxbA "$NS1" rxbB a
	tc qdisc del dev "$VA" root 2>/dev/null
	[ "$(kv "$(cat "$RXB_TMP/recv.out")" verify)" = ok ] || fail "$what: no byte check"
	derr=$(d 1 TlsDecryptError)
	[ "$derr" = 0 ] || fail "$what: TlsDecryptError went up by $derr"
	nicrec=$(d 1 rx_tls_records)
	if [ "$mode" = hw ]; then
		[ "$(d 0 TlsTxDevice)" -ge 1 ] && [ "$(d 1 TlsRxDevice)" -ge 1 ] ||
			fail "$what: the sockets did not get the device offload"
	else
		[ "$(d 0 TlsTxSw)" -ge 1 ] && [ "$(d 1 TlsRxSw)" -ge 1 ] ||
			fail "$what: the sockets are not in software kTLS (TlsTxSw/TlsRxSw)"
		[ "$(d 0 tx_tls_records)$nicrec" = 00 ] ||
			fail "$what: the NIC's TLS engine worked without the offload"
	fi
	if [ -n "$TRACE" ]; then
		# shellcheck disable=SC2046
		set -- $(trace_count)
		lost=$5
		[ "$lost" = 0 ] || fail "$what: the trace lost $lost events (buffer_size_kb)"
		[ "$mode" = hw ] && rec=$1 full=$2 part=$3 none=$4
	elif [ "$mode" = hw ]; then
		rec=$(( (LOSS_BYTES + 16383) / 16384 ))
	fi
	decp=$(d 1 rx_tls_decrypted)
	encp=$(d 1 rx_tls_encrypted)
	rsq=$(d 1 rx_tls_resync_req)
	conf=$(d 1 tls_resync_confirmed)
	rsd=$(d 1 TlsRxDeviceResync)
	astart=$(d 1 tls_resync_async_start)
	aend=$(d 1 tls_resync_async_end)
	[ "$rs" != async ] || [ "$astart" -gt 0 ] || [ "$rsq" = 0 ] ||
		fail "$what: $rsq resync requests, no async request started"
	[ "$rs" = async ] || [ "$astart" = 0 ] ||
		fail "$what: async requests started ($astart) in mode $rs"
	dumps=$(d 0 tx_tls_dumps)
	txdrops=$(d 0 tx_tls_drops)
	busy_of "$line"
	busy=$BUSY
	nsb=$(awk -v b="$busy" -v n="$(kv "$line" bytes)" 'BEGIN { printf "%.4f", b / n }')
	echo "$c,$LOSS_BYTES,$rec,$full,$part,$none,$nicrec,$decp,$encp,$rsq,$conf,$rsd,$(d 0 tx_tls_records),$dumps,$txdrops,$derr,$rep,$dir,$mode,$(kv "$line" wall_ns),$busy,$nsb,$rs,$astart,$aend" >> "$OUT/loss.csv"
	progress "$what: $nsb ns/B on CPU $APP_CPU; records $rec: full $full, partial $part, none $none; NIC records $nicrec; pkts decrypted $decp, encrypted $encp; resync req $rsq, confirmed $conf (async started $astart, ended $aend); tx dumps $dumps, drops $txdrops"
}

part_loss() {
	local c rep dir rs
	progress "part loss: load, rxbA/rxbB stacked on veth $VA/$VB, netem on $VA"
	rxb_load pairs=0 queues=1 engine="cpu$PEER_CPU" || fail "loading rxbisect"
	for c in $NS0 $NS1; do
		[ -e "/run/netns/$c" ] || ip netns add "$c" || fail "ip netns add"
		ip netns exec "$c" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null
	done
	ip link add "$VA" type veth peer name "$VB" &&
		ip link set "$VA" up && ip link set "$VB" up &&
		ip link add link "$VA" name rxbA type rxbisect &&
		ip link add link "$VB" name rxbB type rxbisect &&
		ip link set rxbA netns "$NS0" && ip link set rxbB netns "$NS1" ||
		fail "setting up rxbA/rxbB on $VA/$VB"
	# lib.sh's map of ports to namespaces
	# shellcheck disable=SC2034
	RXB_NS["rxbA"]=$NS0 RXB_NS["rxbB"]=$NS1
	ip -n "$NS0" addr add "$RXB_IP0/24" dev rxbA && ip -n "$NS0" link set rxbA up &&
		ip -n "$NS0" link set lo up &&
		ip -n "$NS1" addr add "$RXB_IP1/24" dev rxbB && ip -n "$NS1" link set rxbB up &&
		ip -n "$NS1" link set lo up || fail "addresses"
	features "$NS0" rxbA on
	features "$NS1" rxbB on
	rxb_wait_carrier rxbA
	ip netns exec "$NS0" ping -q -c 1 -W 5 "$RXB_IP1" >/dev/null ||
		ip netns exec "$NS0" ping -q -c 2 -W 5 "$RXB_IP1" >/dev/null || fail "no ping over rxbA-rxbB"
	trace_setup || progress "tls:tls_device_decrypted tracepoint unavailable: records from the byte count, no classification"
	echo "cond,bytes,records,full,partial,none,nic_rx_records,rx_pkts_decrypted,rx_pkts_encrypted,resync_req,resync_confirmed,TlsRxDeviceResync,nic_tx_records,tx_dumps,tx_drops,TlsDecryptError,rep,dir,mode,wall_ns,busy_ns,busy_ns_per_byte,resync,async_start,async_end" > "$OUT/loss.csv"
	for rep in $(seq 1 "$LOSS_REPS"); do
		for c in $LOSS; do
			for dir in $LOSS_DIRS; do
				# the modes' order alternates with the repetition
				if [ $((rep % 2)) = 1 ]; then
					for rs in $RESYNC; do
						loss_run "$c" "$dir" hw "$rep" "$rs"
					done
					loss_run "$c" "$dir" sw "$rep"
				else
					loss_run "$c" "$dir" sw "$rep"
					for rs in $RESYNC; do
						loss_run "$c" "$dir" hw "$rep" "$rs"
					done
				fi
			done
		done
	done
	rxb_unload || fail "unloading rxbisect"

	say "## Offload effectiveness under loss and reordering (part loss)"
	say ""
	say "$(numfmt --to=iec "$LOSS_BYTES" 2>/dev/null || echo "$LOSS_BYTES") per condition, one transfer each, every byte checked; netem on the veth below the sending NIC (data direction only; reordering: delay $REORDER_DELAY, N % of packets skip it). Records as software received them (tracepoint tls:tls_device_decrypted): full = every packet decrypted by the NIC, partial = some, none = none; NIC = records the NIC authenticated (rx tls_records)."
	say ""
	say "Every offloaded transfer (LOSS_DIRS '$LOSS_DIRS' x LOSS_REPS $LOSS_REPS per condition; side: whose core was measured, which changes where the interrupts run)."
	say ""
	say "| wire | side | resync | records | full | partial | none | NIC records | pkts up encrypted | resync req / confirmed / TlsRxDeviceResync | async started / ended | TX dumps | TlsDecryptError | thesis |"
	say "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 && $19 == "hw" {
		w = $1 == "0" ? "clean" : ($1 ~ /^r/ ? "reorder " substr($1, 2) " %" : "loss " $1 " %")
		th = "-"
		if ($1 == "0") th = "(all in sequence)"
		if ($1 == "1" || $1 == "2") th = "no number in the text (Fig. 3.16b)"
		if ($1 == "5") th = "receiver loss: more than half fully offloaded, +19 % tput; sender loss: +33 % tput"
		if ($1 == "r2") th = "24 % fully offloaded, +9 % tput"
		if ($1 == "r5") th = "<= 2 % offloaded, tput as software"
		f = $4 == "-" ? "-" : sprintf("%.1f %%", 100 * $4 / $3)
		p = $5 == "-" ? "-" : sprintf("%.1f %%", 100 * $5 / $3)
		n = $6 == "-" ? "-" : sprintf("%.1f %%", 100 * $6 / $3)
		printf "| %s | %s | %s | %d | %s | %s | %s | %.1f %% | %d of %d | %d / %d / %d | %d / %d | %d | %d | %s |\n",
			w, $18 == "rx" ? "receiver" : "sender", $23, $3, f, p, n, 100 * $7 / $3, $9, $8 + $9, $10, $11, $12, $24, $25, $14, $16, th
	}' "$OUT/loss.csv" | tee -a "$MD"
	say ""
	say "Throughput of a core that does only this (its busy ns/B, $BUSY_SRC): software kTLS's over the offload's, median [min-max] over LOSS_REPS $LOSS_REPS, ratios taken within a repetition; vs clean: the median ratio over the clean condition's (1 = the offload keeps all its clean gain).  Both modes check every byte (part cpu does not), so the clean ratio is below part cpu's."
	say ""
	loss_tput_table | tee -a "$MD"
	say ""
}

# loss_tput_table: loss.csv's ratios of software's busy ns/B over the
# offload's, per side and condition (one awk: process start-up is slow
# under TCG).
loss_tput_table() {
	awk -F, -v conds="$LOSS" -v dirs="$LOSS_DIRS" -v modes="$RESYNC" "$AWK_STATS"'
	NR > 1 { k = $1 "," $18; m = $19 == "hw" ? "hw" $23 : $19
		 v[$17 "," k "," m] = $22; reps[$17] = 1
		 nsb[k "," m] = nsb[k "," m] " " $22 }
	END {
		printf "| wire | side | resync | sw kTLS ns/B | offload ns/B | sw/offload | vs clean | thesis sw/offload |\n"
		print "|---|---|---|---|---|---|---|---|"
		nd = split(dirs, D, " "); nc = split(conds, C, " ")
		nm = split(modes, M, " ")
		for (i = 1; i <= nd; i++) for (q = 1; q <= nm; q++) {
			d = D[i]; base = "-"; hw = "hw" M[q]
			for (j = 1; j <= nc; j++) {
				c = C[j]; k = c "," d; rs = ""
				for (r in reps)
					if (v[r "," k ",sw"] > 0 && v[r "," k "," hw] > 0)
						rs = rs " " v[r "," k ",sw"] / v[r "," k "," hw]
				m = med(rs); l = lo; h = hi
				if (c == "0") base = m
				w = c == "0" ? "clean" : (c ~ /^r/ ? "reorder " substr(c, 2) " %" : "loss " c " %")
				th = "-"
				if (d == "rx" && c == "0") th = "2.2x (RX, 1 core)"
				if (d == "tx" && c == "0") th = "3.3x (TX, 1 core)"
				if (d == "rx" && c == "5") th = "1.19x (Fig. 3.16a)"
				if (d == "tx" && c == "5") th = "1.33x (Fig. 3.15a)"
				if (d == "rx" && c == "r2") th = "1.09x (Fig. 3.17a)"
				if (d == "rx" && c == "r5") th = "1.0x (Fig. 3.17a)"
				printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", w,
					d == "rx" ? "receiver" : "sender", M[q],
					g(med(nsb[k ",sw"])), g(med(nsb[k "," hw])),
					m == "-" ? "-" : sprintf("%.3gx [%.3g-%.3g]", m, l, h),
					(m == "-" || base == "-") ? "-" : sprintf("%.2f", m / base), th
			}
		}
	}' "$OUT/loss.csv"
}

[ -n "$DO_CPU" ] && part_cpu
[ -n "$DO_LOSS" ] && part_loss
progress "done: $OUT"
