#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shRing models against privRing, measured in one run (a benchmark,
# not a test):
#
#  1. CPU per packet at low load (thesis section 6.3 "low load": shRing up
#     to 34 % more cycles per packet than privRing): a fixed-rate UDP
#     stream over all queues; kernel time of all CPUs from /proc/stat
#     (system + irq + softirq: NIC emulation, driver, stack, both ends)
#     and softirq time alone (NAPI receive and the NIC's interrupts), each
#     divided by the packets received; ratios to privring.
#  2. Processing variability (thesis Fig. 5.10, rxbisect paper Fig. 6c):
#     queue 0's consumer does extra work per packet (debugfs "work": 0,
#     100, 1000, 10000 random cache-line touches); UDP flows at a fixed
#     rate to queue 0 (target) and to the other queues (non-target); the
#     fraction of the non-target datagrams delivered, per model.  With a
#     shared ring the slowed queue's packets hold the ring (RxArr: and the
#     reposts of every later descriptor) and the others lose packets.
#
# shring-batched (batched RxList) is not built: it needs the rxb_pkt
# offset and rx.c's copy path (see Documentation/rxbisect.rst).
#
# Run as root where the module loads, e.g. in the test VM:
#   tools/vm/run-vm.sh -- tools/bench/shring_bench.sh
# Environment: QUEUES (2), RING (256), SF (share factor, QUEUES), RATE
# (part 1, UDP Mbit/s, 10), SECS (3), REPS (3), PPS (part 2, datagrams/s
# per side, 1500), WORKS ("0 100 1000 10000"), MODELS.

set -u
QUEUES=${QUEUES:-2}
RING=${RING:-256}
SF=${SF:-$QUEUES}
RATE=${RATE:-10}
SECS=${SECS:-3}
REPS=${REPS:-3}
PPS=${PPS:-1500}
WORKS=${WORKS:-0 100 1000 10000}
MODELS=${MODELS:-privring shring shring-list shring-batched dshring}
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=../../selftests/drivers/net/rxbisect/shring_lib.sh
source "$lib/shring_lib.sh"
RXB_TMP=$(mktemp -d /tmp/shring-bench.XXXXXX)
NS0=rxsb-a-$$
NS1=rxsb-b-$$
trap rxb_cleanup EXIT
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

setup() {
	rxb_kill_bg
	rxb_load queues="$QUEUES" rx_ring_size="$RING" share_factor="$SF" \
		ring_model="$1" || { echo "cannot load rxbisect ring_model=$1" >&2; exit 1; }
	for ns in $NS0 $NS1; do ip netns del "$ns" 2>/dev/null; done
	rxb_setup_netns || { echo "cannot set up the namespaces" >&2; exit 1; }
	# The rx_stall watchdog must not interfere with a slowed queue.
	devlink dev param set rxbisect/rxbisect0 name stall_timeout_ms \
		value 600000 cmode runtime 2>/dev/null
}

# kernel and softirq jiffies of all CPUs
kern() { awk '/^cpu / { print $4 + $7 + $8, $8 }' /proc/stat; }

# cpu_per_pkt MODEL: "kernel_ns softirq_ns" per packet, medians of REPS.
cpu_per_pkt() {
	local r k0 s0 k1 s1 p0 p1 n hz ks=() ss=()
	hz=$(getconf CLK_TCK)
	setup "$1"
	for r in $(seq "$REPS"); do
		p0=$(rxb_stat rxb1 rx_packets)
		read -r k0 s0 < <(kern)
		rxb_iperf "$RXB_TMP/u.json" "$SECS" -u -b "${RATE}M" -l 1400 -P 4 >/dev/null
		read -r k1 s1 < <(kern)
		p1=$(rxb_stat rxb1 rx_packets)
		n=$((p1 - p0 > 0 ? p1 - p0 : 1))
		ks+=($(( (k1 - k0) * 1000000000 / hz / n )))
		ss+=($(( (s1 - s0) * 1000000000 / hz / n )))
	done
	echo "$(printf '%s\n' "${ks[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")" \
	     "$(printf '%s\n' "${ss[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")"
}

# blast SECS PPS "PORTS...": UDP to port 9 from each source port in turn,
# PPS datagrams per second in all; prints the number sent.
blast() {
	ip netns exec "$NS0" timeout $(($1 + 30)) python3 - "$RXB_IP1" "$1" "$2" $3 <<'PY'
import socket, sys, time
dst, secs, pps = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
socks = []
for p in map(int, sys.argv[4:]):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", p))
    socks.append(s)
n, sent, t0 = int(secs * pps), 0, time.monotonic()
for i in range(n):
    try:
        socks[i % len(socks)].sendto(b"x" * 1000, (dst, 9))
        sent += 1
    except OSError:
        pass
    if i % 16 == 15:
        ahead = t0 + (i + 1) / pps - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
print(sent)
PY
}

# variability MODEL WORK: "delivered% of non-target, of target, victim drops"
variability() {
	local model=$1 work=$2 tports=$3 oports=$4 q pk0 pk1 o0 o1 t0 t1 v0 v1 sent
	rxb_knob_set rxb1 0 work "$work"
	rxb_wait_consumed rxb1 >/dev/null
	rxb_snap rxb1
	t0=${RXB_S[rx0_packets]} o0=0 v0=0
	for q in $(seq 1 $((QUEUES - 1))); do
		o0=$((o0 + RXB_S[rx${q}_packets]))
		v0=$((v0 + ${RXB_S[rx${q}_nobuf_victim_drops]:-0}))
	done
	# target and non-target flows interleaved, PPS each
	sent=$(blast "$SECS" $((2 * PPS)) "$tports $oports")
	sleep 1
	rxb_knob_set rxb1 0 work 0
	rxb_wait_consumed rxb1 >/dev/null
	rxb_snap rxb1
	t1=${RXB_S[rx0_packets]} o1=0 v1=0
	for q in $(seq 1 $((QUEUES - 1))); do
		o1=$((o1 + RXB_S[rx${q}_packets]))
		v1=$((v1 + ${RXB_S[rx${q}_nobuf_victim_drops]:-0}))
	done
	awk -v o=$((o1 - o0)) -v t=$((t1 - t0)) -v s="$sent" -v v=$((v1 - v0)) \
		'BEGIN { printf "%.1f %.1f %d\n", 200 * o / s, 200 * t / s, v }'
}

echo "# shring_bench: queues=$QUEUES ring=$RING share_factor=$SF, $(nproc) CPUs"
echo "# part 1: UDP ${RATE} Mbit/s, 4 streams, ${SECS}s x $REPS reps (median)"
declare -A K=() S=()
for m in $MODELS; do
	read -r K[$m] S[$m] < <(cpu_per_pkt "$m")
done
echo
echo "| model       | kernel ns/pkt | ratio | softirq ns/pkt | ratio |"
echo "|-------------|---------------|-------|----------------|-------|"
for m in $MODELS; do
	printf '| %-11s | %13s | %5s | %14s | %5s |\n' "$m" "${K[$m]}" \
		"$(awk -v a="${K[$m]}" -v b="${K[privring]:-0}" 'BEGIN { if (b) printf "%.2f", a / b; else print "-" }')" \
		"${S[$m]}" \
		"$(awk -v a="${S[$m]}" -v b="${S[privring]:-0}" 'BEGIN { if (b) printf "%.2f", a / b; else print "-" }')"
done

echo
echo "# part 2: queue 0 slowed by 'work' random cache-line touches per packet;"
echo "# ${PPS} datagrams/s to queue 0 and ${PPS}/s to the others, ${SECS}s"
declare -A D=()
for m in $MODELS; do
	setup "$m"
	tports=$(shr_ports_for 0 4)
	oports=
	for q in $(seq 1 $((QUEUES - 1))); do
		oports="$oports $(shr_ports_for "$q" $((4 / (QUEUES - 1) > 0 ? 4 / (QUEUES - 1) : 1)))"
	done
	for w in $WORKS; do
		D[$m.$w]=$(variability "$m" "$w" "$tports" "$oports")
	done
done
echo
printf '| %-6s |' work
for m in $MODELS; do printf ' %-26s |' "$m: other% / target% / victim"; done
echo
for w in $WORKS; do
	printf '| %-6s |' "$w"
	for m in $MODELS; do
		read -r o t v <<<"${D[$m.$w]}"
		printf ' %-26s |' "$o / $t / $v"
	done
	echo
done
echo
echo "| work   | non-target delivered, ratio to privring |"
echo "|--------|-----------------------------------------|"
for w in $WORKS; do
	line=
	for m in $MODELS; do
		read -r o t v <<<"${D[$m.$w]}"
		read -r po pt pv <<<"${D[privring.$w]:-0 0 0}"
		line="$line $m $(awk -v a="$o" -v b="$po" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
	printf '| %-6s |%s |\n' "$w" "$line"
done
