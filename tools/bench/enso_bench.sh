#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ensō's microbenchmark against AF_XDP and UDP sockets, same machine, same
# run (issue 37 item 4; Sadok et al., OSDI '23, §7): tools/enso/enso_bench
# receives on rxb1 (namespace NS1), pinned to APP_CPU, from one of its back
# ends, while enso_tool send offers a fixed rate of UDP datagrams from
# rxb0 (NS0), pinned to PEER_CPU, every configuration the same rate, so
# that the comparison is per message and not a race.
#
# Configurations (CONFIGS; BACKEND@MODEL[/PIPES], the ring model set live
# through the ring_model parameter):
#   enso@enso         Ensō pipes in userspace (ring_model=enso), one pipe
#   enso@enso/4       four pipes (four ports) sharing one notification
#                     buffer, the offered rate split over them
#   xdp-zc@privring   AF_XDP zero-copy (the umem's frames are the ring's
#   xdp-zc@rxbisect   buffers), progs/xdp_xsk.bpf.o in native mode
#   xdp-copy@shring   AF_XDP copy mode (shring has no zero-copy): the
#                     driver's buffer copied into a umem frame
#   udp@privring      plain UDP sockets, recvmmsg()
# xdp and udp with /PIPES take as many ports (xdp: one socket, udp: one
# socket a port).
#
# One module load for the run: one queue per port (RSS out of the way),
# rx_ring_size RING (512) 2 KiB buffers, the NIC on its own engine thread
# on PEER_CPU (engine=cpuN), rxb1's queue interrupt (its NAPI: the driver's
# work for xdp and udp) on APP_CPU, rxb0's on PEER_CPU.  The same buffer
# budget everywhere it applies, BUF_KB (default RING x 2 KiB = 1 MiB): the
# Ensō pipe (each of /PIPES), the umem, the UDP sockets' SO_RCVBUF.
# Every receiver polls without blocking and sleeps IDLE_US when a poll
# finds nothing (0: spins), the same for all.
#
# Per point (configuration x payload size x repetition; the
# configurations' order rotates with the repetition): the receiver's
# window opens at its first message and lasts SECS; the sender sends
# RATE x (SECS + 1.5) datagrams.  Reported per message: the application
# CPU's busy ns (the window's wall time less APP_CPU's idle time from
# /proc/timer_list, as tls_bench.sh: every cycle not idle, the receiver's,
# its interrupts' and softirqs'), throughput (Mpps, Gbit/s of UDP
# payload), latency (the sender's CLOCK_MONOTONIC stamp to the receiver's
# read: p50, p99, p99.9), loss, and the interconnect counters of rxb1
# (ethtool -S) over the sender's whole run: the NIC's writes to host
# memory that are metadata (pcie_to_host_meta_bytes over it plus
# pcie_to_host_data_bytes) and metadata over every byte in both directions
# (meta + pcie_to_nic_desc_bytes + pcie_to_nic_mmio_bytes +
# pcie_to_host_mmio_bytes, over those plus data both ways), and metadata
# bytes per message.  Medians [min-max] over REPS.
#
# Run as root where the module loads (it is unloaded first and at the end):
#   make bench-enso [ENSO_BENCH_ARGS='--reps 5']      (in the VM)
#   tools/vm/run-vm.sh -- tools/bench/enso_bench.sh --out results/x
#   tools/bench/enso_bench.sh --app-cpu 2 --peer-cpu 3 --rate 200000
#                                   (a host; keep other work off both CPUs)
# Options (the environment variable of the same meaning in brackets):
#   --reps N          repetitions (REPS, 3)
#   --secs N          seconds a point measures (SECS, 3)
#   --rate N          datagrams per second offered, all configurations
#                     (RATE, 3000: what a TCG VM sustains;
#                     raise it on a host)
#   --sizes LIST      UDP payload bytes, 24..1472 (SIZES, "64 256 1024 1472")
#   --configs LIST    BACKEND@MODEL[/PIPES] (CONFIGS, "enso@enso enso@enso/4
#                     xdp-zc@privring xdp-zc@rxbisect xdp-copy@shring
#                     udp@privring")
#   --ring N          rx_ring_size, a power of two 64..4096 (RING, 512)
#   --buf-kb N        buffer budget in KiB, a power of two 16..2048 (BUF_KB,
#                     RING x 2)
#   --idle-us N       the receivers' sleep when a poll finds nothing,
#                     0..100000 (IDLE_US, 20)
#   --app-cpu N       the receiver's CPU and rxb1's interrupt (APP_CPU, 0)
#   --peer-cpu N      sender, NIC engine, rxb0's interrupt (PEER_CPU, 1)
#   --out DIR         results (OUT, results/enso-bench-DATE)
# Writes OUT/enso.csv and OUT/enso.md (the table printed).
# Exit status: 0 done, 1 a failure (setup, a receiver that saw no
# traffic), 2 bad usage, or refused as every benchmark of tools/bench
# refuses (host.sh: not root, a tool missing, rxbisect in use, no
# module for this kernel).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lib=$top/selftests/drivers/net/rxbisect

# shellcheck source=usage.sh
source "$here/usage.sh"

REPS=${REPS:-3}
SECS=${SECS:-3}
RATE=${RATE:-3000}
SIZES=${SIZES:-64 256 1024 1472}
CONFIGS=${CONFIGS:-enso@enso enso@enso/4 xdp-zc@privring xdp-zc@rxbisect xdp-copy@shring udp@privring}
RING=${RING:-512}
BUF_KB=${BUF_KB:-}
IDLE_US=${IDLE_US:-20}
APP_CPU=${APP_CPU:-0}
PEER_CPU=${PEER_CPU:-1}
OUT=${OUT:-}
while [ $# -gt 0 ]; do
	case $1 in
	--reps|--secs|--rate|--sizes|--configs|--ring|--buf-kb|--idle-us|--app-cpu|--peer-cpu|--out)
		[ $# -ge 2 ] || usage "$1 needs a value" ;;
	esac
	case $1 in
	--reps)		REPS=$2; shift 2 ;;
	--secs)		SECS=$2; shift 2 ;;
	--rate)		RATE=$2; shift 2 ;;
	--sizes)	SIZES=$2; shift 2 ;;
	--configs)	CONFIGS=$2; shift 2 ;;
	--ring)		RING=$2; shift 2 ;;
	--buf-kb)	BUF_KB=$2; shift 2 ;;
	--idle-us)	IDLE_US=$2; shift 2 ;;
	--app-cpu)	APP_CPU=$2; shift 2 ;;
	--peer-cpu)	PEER_CPU=$2; shift 2 ;;
	--out)		OUT=$2; shift 2 ;;
	-h|--help)	usage ;;
	*)		usage "unknown argument '$1'" ;;
	esac
done

# in LO..HI, a whole number
inrange() { [[ $1 =~ ^(0|[1-9][0-9]{0,8})$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
pow2() { [ $(($1 & ($1 - 1))) = 0 ]; }

inrange "$REPS" 1 999 || usage "REPS must be a whole number 1..999, not '$REPS'"
inrange "$SECS" 1 3600 || usage "SECS must be a whole number 1..3600, not '$SECS'"
inrange "$RATE" 1 10000000 || usage "RATE must be datagrams per second 1..10000000, not '$RATE'"
[ -n "${SIZES// /}" ] || usage "SIZES is empty"
for s in $SIZES; do
	inrange "$s" 24 1472 || usage "a payload size is 24..1472 bytes (a 24-byte header: port, sequence, time), not '$s'"
done
inrange "$RING" 64 4096 && pow2 "$RING" || usage "RING is a power of two 64..4096, not '$RING'"
[ -n "$BUF_KB" ] || BUF_KB=$((RING * 2))
inrange "$BUF_KB" 16 2048 && pow2 "$BUF_KB" || usage "BUF_KB is a power of two 16..2048, not '$BUF_KB'"
inrange "$IDLE_US" 0 100000 || usage "IDLE_US is 0..100000, not '$IDLE_US'"
for c in APP_CPU PEER_CPU; do
	[[ ${!c} =~ ^(0|[1-9][0-9]{0,4})$ ]] || usage "$c must be a CPU number, not '${!c}'"
done
[ "$APP_CPU" != "$PEER_CPU" ] || usage "APP_CPU and PEER_CPU must differ"
[ -n "${CONFIGS// /}" ] || usage "CONFIGS is empty"
NEED_XDP=
for c in $CONFIGS; do
	[[ $c =~ ^(enso|xdp-zc|xdp-copy|udp)@([a-z][a-z0-9-]*)(/([1-9][0-9]?))?$ ]] ||
		usage "a configuration is BACKEND@MODEL[/PIPES] (enso, xdp-zc, xdp-copy, udp; PIPES 1..16), not '$c'"
	[ "${BASH_REMATCH[4]:-1}" -le 16 ] || usage "PIPES is 1..16, not '${BASH_REMATCH[4]}' in '$c'"
	[ "${BASH_REMATCH[1]}" != enso ] || [ "${BASH_REMATCH[2]}" = enso ] ||
		usage "Ensō pipes need ring model enso, not '$c'"
	[ "${BASH_REMATCH[1]}" = enso ] || [ "${BASH_REMATCH[2]}" != enso ] ||
		usage "ring model enso serves Ensō pipes; the kernel's own skb path is not a back end here: '$c'"
	[[ ${BASH_REMATCH[1]} == xdp-* ]] && NEED_XDP=1
done

# ---- environment -------------------------------------------------------------

for c in $APP_CPU $PEER_CPU; do
	[ -d "/sys/devices/system/cpu/cpu$c" ] &&
		[ "$(cat "/sys/devices/system/cpu/cpu$c/online" 2>/dev/null || echo 1)" = 1 ] ||
		usage "CPU $c is not online (--app-cpu/--peer-cpu)"
done

fail() { echo "enso_bench: FAIL: $*" >&2; exit 1; }
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"
OUT=${OUT:-$top/results/enso-bench-$(date +%Y%m%d-%H%M%S)}
# Refused (exit 2) unless root, with the tools, no other rxbisect user and
# a module to load (RXB_MODPROBE, RXB_KO for lib.sh's rxb_load); the
# machine's layout, printed and written to OUT.
bench_host_init enso_bench.sh awk:mawk
ENSO=$top/tools/enso
if [ ! -x "$ENSO/enso_bench" ] || [ ! -x "$ENSO/enso_tool" ]; then
	make -s -C "$ENSO" >/dev/null 2>&1 ||
		fail "tools/enso is not built and make failed (make -C tools/enso)"
fi
XPROG=$lib/progs/xdp_xsk.bpf.o
if [ -n "$NEED_XDP" ]; then
	[ -e "$XPROG" ] || make -s -C "$lib/progs" xdp_xsk.bpf.o >/dev/null 2>&1 ||
		fail "$XPROG is not built (make xdp-progs; clang, libbpf-dev)"
	"$ENSO/enso_bench" -b xdp -i lo -p 1 -o /nonexistent -T 1 2>&1 |
		grep -q 'built without libxdp' && fail "enso_bench was built without libxdp (libxdp-dev)"
fi
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

mkdir -p "$OUT" || exit 1
RXB_TMP=$(mktemp -d /tmp/rxb-ensobench.XXXXXX)
NS0=rxbe-a-$$
NS1=rxbe-b-$$
trap rxb_cleanup EXIT
trap 'exit 130' INT TERM
MD=$OUT/enso.md
CSV=$OUT/enso.csv
: > "$MD"
PORT=9000

progress() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$OUT/progress.log" >&2; }
say() { echo "$*" | tee -a "$MD"; }

kv() {	# LINE KEY
	[[ " $1 " =~ \ $2=([^ ]*)\  ]] && echo "${BASH_REMATCH[1]}"
}

# pcie: rxb1's interconnect counters, "data_w meta_w desc_r mmio_w mmio_r
# data_r" (ethtool -S names in Documentation/rxbisect.rst)
pcie() {
	ip netns exec "$NS1" ethtool -S rxb1 | awk '
		$1 == "pcie_to_host_data_bytes:" { a = $2 }
		$1 == "pcie_to_host_meta_bytes:" { b = $2 }
		$1 == "pcie_to_nic_desc_bytes:" { c = $2 }
		$1 == "pcie_to_nic_mmio_bytes:" { d = $2 }
		$1 == "pcie_to_host_mmio_bytes:" { e = $2 }
		$1 == "pcie_to_nic_data_bytes:" { f = $2 }
		END { print a + 0, b + 0, c + 0, d + 0, e + 0, f + 0 }'
}

# model M: ring model M on both ports (live)
model() {
	[ "$(cat /sys/module/rxbisect/parameters/ring_model)" = "$1" ] && return 0
	echo "$1" > /sys/module/rxbisect/parameters/ring_model ||
		fail "ring_model=$1 refused"
	rxb_wait_carrier rxb0 || fail "no carrier after ring_model=$1"
	rxb_static_neigh rxb0 rxb1 || fail "neighbours after ring_model=$1"
}

# point CONFIG SIZE REP: one measurement, one row of enso.csv
point() {
	local cfg=$1 size=$2 rep=$3 be model np=1 args=() line rpid count sent srate
	local p0 p1 out=$RXB_TMP/recv.out i
	be=${cfg%@*}
	model=${cfg#*@}
	[[ $model == */* ]] && np=${model#*/} && model=${model%/*}
	model "$model"
	case $be in
	enso)	args=(-b enso) ;;
	udp)	args=(-b udp) ;;
	xdp-zc)	args=(-b xdp -z -o "$XPROG") ;;
	xdp-copy) args=(-b xdp -o "$XPROG") ;;
	esac
	PORT=$((PORT + 20))
	[ $PORT -lt 60000 ] || PORT=9000
	ip netns exec "$NS1" "$ENSO/enso_bench" "${args[@]}" -i rxb1 -p $PORT \
		-n "$np" -s "$BUF_KB" -d "$SECS" -T 60 -C "$APP_CPU" -w "$IDLE_US" \
		>"$out" 2>"$RXB_TMP/recv.err" &
	rpid=$!
	for i in {1..300}; do
		grep -q '^ready' "$out" && break
		kill -0 $rpid 2>/dev/null || break
		sleep 0.1
	done
	grep -q '^ready' "$out" ||
		{ wait $rpid; fail "$cfg: the receiver did not start: $(cat "$RXB_TMP/recv.err")"; }
	count=$(( (RATE * (SECS * 2 + 3) / 2 + np - 1) / np ))
	read -ra p0 < <(pcie)
	sent=$(ip netns exec "$NS0" taskset -c "$PEER_CPU" "$ENSO/enso_tool" send \
		"$RXB_IP1" $PORT "$np" "$count" "$size" "$RATE")
	read -ra p1 < <(pcie)
	wait $rpid || fail "$cfg $size B: $(cat "$RXB_TMP/recv.err")"
	line=$(grep '^backend=' "$out")
	srate=$(awk -v s="$sent" 'BEGIN { split(s, a, " "); printf "%d", (a[4] > 0 ? a[2] / a[4] : 0) }')
	awk -v rep="$rep" -v cfg="$cfg" -v be="$be" -v m="$model" -v np="$np" \
		-v size="$size" -v rate="$RATE" -v srate="$srate" -v line="$line" \
		-v d="$((p1[0] - p0[0])) $((p1[1] - p0[1])) $((p1[2] - p0[2])) $((p1[3] - p0[3])) $((p1[4] - p0[4])) $((p1[5] - p0[5]))" \
		-v sent="${sent#sent }" 'BEGIN {
		n = split(line, f, " ")
		for (i = 1; i <= n; i++) { split(f[i], kv, "="); v[kv[1]] = kv[2] }
		split(d, c, " "); split(sent, s, " ")
		meta = c[2] + c[3] + c[4] + c[5]; all = meta + c[1] + c[6]
		msgs = v["msgs"]
		printf "%d,%s,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.4f,%.6f,%.6f,%.1f,%.1f,%.1f,%.3f,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.1f,%d\n",
			rep, cfg, be, m, np, size, rate, srate, msgs, v["lost"], v["bad"], v["other"],
			v["wall_ns"], v["busy_ns"], v["self_ns"],
			msgs ? v["busy_ns"] / msgs : 0, v["busy_ns"] / v["wall_ns"],
			v["mpps"], v["gbps"], v["p50_ns"] / 1000, v["p99_ns"] / 1000, v["p999_ns"] / 1000,
			msgs + v["lost"] ? 100 * v["lost"] / (msgs + v["lost"]) : 0,
			c[1], c[2], c[3], c[4], c[5], c[6],
			c[1] + c[2] ? 100 * c[2] / (c[1] + c[2]) : 0, all ? 100 * meta / all : 0,
			s[1] ? meta / s[1] : 0, v["empty_polls"]
	}' >> "$CSV"
	progress "rep $rep $cfg ${size} B: $(tail -n 1 "$CSV" | awk -F, '{ printf "%s ns/msg busy (%.0f %% of CPU %s), %s Mpps, p50/p99/p99.9 %s/%s/%s us, loss %s %%, meta %s %% of writes, %s %% of all, sender %s/s", $16, 100 * $17, cpu, $18, $20, $21, $22, $23, $30, $31, $8 }' cpu="$APP_CPU")"
}

say "# Ensō pipes, AF_XDP and UDP sockets: the receiver's cost per message ($(date -u '+%Y-%m-%d %H:%M UTC'))"
say ""
say "kernel $(uname -r), $(nproc) CPUs, rxbisect $(modinfo -F version rxbisect 2>/dev/null || modinfo -F version "${RXB_KO:-}" 2>/dev/null), ${RXB_VM:+TCG VM, }one queue a port, rx_ring_size $RING, buffer budget $BUF_KB KiB, engine=cpu$PEER_CPU"
say "command: $0 --reps $REPS --secs $SECS --rate $RATE --sizes '$SIZES' --configs '$CONFIGS' --ring $RING --buf-kb $BUF_KB --idle-us $IDLE_US --app-cpu $APP_CPU --peer-cpu $PEER_CPU"
say ""

# this shell and all it starts (the sender, ethtool, awk) off APP_CPU; the
# receiver moves itself there
taskset -pc "$PEER_CPU" $$ >/dev/null || fail "taskset -pc $PEER_CPU"
progress "load: pair rxb0-rxb1, one queue, engine=cpu$PEER_CPU, rx_ring_size $RING"
rxb_load pairs=1 queues=1 engine="cpu$PEER_CPU" rx_ring_size="$RING" ||
	fail "loading rxbisect"
rxb_setup_netns rxb0 rxb1 || fail "setting up the pair"
{ echo "$APP_CPU" > "$RXB_DBG/rxb1/q0/irq_cpu" &&
	echo "$PEER_CPU" > "$RXB_DBG/rxb0/q0/irq_cpu"; } ||
	fail "setting the queues' irq_cpu (debugfs)"
echo "rep,config,backend,model,pipes,size,rate,sender_rate,msgs,lost,bad,other,wall_ns,busy_ns,self_ns,busy_ns_per_msg,busy_share,mpps,gbps,p50_us,p99_us,p999_us,loss_pct,pcie_to_host_data_bytes,pcie_to_host_meta_bytes,pcie_to_nic_desc_bytes,pcie_to_nic_mmio_bytes,pcie_to_host_mmio_bytes,pcie_to_nic_data_bytes,meta_pct_of_writes,meta_pct_of_all,meta_bytes_per_msg,empty_polls" > "$CSV"
read -ra CFG <<<"$CONFIGS"
for rep in $(seq 1 "$REPS"); do
	for size in $SIZES; do
		for i in "${!CFG[@]}"; do
			point "${CFG[$(((i + rep - 1) % ${#CFG[@]}))]}" "$size" "$rep"
		done
	done
done
rxb_unload || fail "unloading rxbisect"

say "Offered: $RATE datagrams/s from one UDP socket (enso_tool send, pinned to CPU $PEER_CPU), the same for every configuration; measured window $SECS s from the first message; REPS=$REPS, configurations interleaved; median [min-max]."
say "busy ns/msg: CPU $APP_CPU's busy time (wall time less /proc/timer_list idle) over messages received; it runs the receiver and rxb1's queue interrupt (the driver's NAPI for xdp and udp), nothing else (this script and the sender run on CPU $PEER_CPU).  It includes the receiver's empty polls and their wake-ups (a ${IDLE_US} us sleep after each, every back end alike).  vs enso: busy ns/msg over enso@enso's at the same size, within each repetition."
say "meta % W: pcie_to_host_meta_bytes / (that + pcie_to_host_data_bytes), the NIC's writes; meta % all: every metadata byte (NIC writes, descriptor reads, doorbells, register reads) over every byte; meta B/msg: metadata bytes per datagram sent."
say ""
awk -F, -v cfgs="$CONFIGS" -v sizes="$SIZES" '
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
	function rng(list, fmt,    m) { m = med(list); return m == "-" ? "-" : sprintf(fmt " [" fmt "-" fmt "]", m, lo, hi) }
	function m1(list, fmt,    m) { m = med(list); return m == "-" ? "-" : sprintf(fmt, m) }
	NR > 1 {
		k = $2 "," $6
		busy[k] = busy[k] " " $16; share[k] = share[k] " " $17 * 100; mpps[k] = mpps[k] " " $18; gbps[k] = gbps[k] " " $19
		p50[k] = p50[k] " " $20; p99[k] = p99[k] " " $21; p999[k] = p999[k] " " $22
		loss[k] = loss[k] " " $23; mw[k] = mw[k] " " $30; ma[k] = ma[k] " " $31
		mb[k] = mb[k] " " $32; sr[k] = sr[k] " " $8
		v[$1 "," k] = $16; reps[$1] = 1
	}
	END {
		print "| config | payload B | busy ns/msg | vs enso | CPU busy % | Mpps | Gbit/s | p50 / p99 / p99.9 us | loss % | meta % W | meta % all | meta B/msg | sender msg/s |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		nc = split(cfgs, C, " "); ns = split(sizes, S, " ")
		for (j = 1; j <= ns; j++)
			for (i = 1; i <= nc; i++) {
				k = C[i] "," S[j]; r = ""
				for (x in reps)
					if (v[x "," k] > 0 && v[x ",enso@enso," S[j]] > 0)
						r = r " " v[x "," k] / v[x ",enso@enso," S[j]]
				printf "| %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s | %s | %s | %s | %s |\n",
					C[i], S[j], rng(busy[k], "%.0f"), rng(r, "%.2f"), m1(share[k], "%.0f"),
					m1(mpps[k], "%.4f"), m1(gbps[k], "%.3f"),
					m1(p50[k], "%.0f"), m1(p99[k], "%.0f"), m1(p999[k], "%.0f"),
					m1(loss[k], "%.2f"), m1(mw[k], "%.1f"), m1(ma[k], "%.1f"),
					m1(mb[k], "%.1f"), m1(sr[k], "%d")
			}
	}' "$CSV" | tee -a "$MD"
say ""
progress "done: $OUT"
