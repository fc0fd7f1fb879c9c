#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The network functions of tools/nf (nat, lb, l3fwd) on every ring model
# and on a veth pair: pktgen sends 64 B UDP frames at full speed from rxb0
# to the NF on rxb1 (native XDP), which sends them back out of rxb1
# (XDP_TX); rxb0 drops them in XDP, so that the way back costs little.
# Random source addresses (192.0.2.1-254) and ports (1-65535), the
# thesis's "random 5-tuples" (seed-thesis.md §3.2), so that the LB adds
# connections all the time to a map of CONN_MAX entries; for the NAT,
# whose one external address has 64512 ports, 16 addresses x 2048 ports
# (its mappings, in maps of FLOWS entries, fit).  Per NF, model and repetition: the NF's forwarded
# Mpps (XDP_TX + redirect, over SECS after a one-second warm-up), its
# drops by cause and the NIC's (rxb1 nobuf + ring-full + fifo drops).
# The models are interleaved (in each repetition every model once, per
# NF), and each ratio to privring is taken within one repetition: the
# table gives its median and range over the repetitions (nf_report.py).
#
# Run as root where the module loads, e.g. in the test VM:
#   make nf-bench [NF_BENCH_ENV='REPS=5 SECS=3']
#   tools/vm/run-vm.sh -- env OUT=results/x tools/bench/nf_bench.sh
# or natively on this machine (host.sh's checks and layout):
#   sudo make nf-bench HOST=1, or sudo tools/bench/nf_bench.sh
# Environment: OUT, REPS (3), SECS (2), MODELS (every one the module
# lists), NFS ("nat lb l3fwd"), NO_VETH=1, QUEUES (the layout's, 2 in the
# VM), RING (1024),
# CONN_MAX (lb's connection map, default 1000000; the papers' 10 M needs
# about 1 GiB: CONN_MAX=10000000 with a VM of 4 GiB), FLOWS (nat's
# mappings, 1048576).  Writes OUT/nf.csv and OUT/nf.md.
# A MODELS entry MODEL:N runs MODEL with N queues instead of QUEUES; for
# corec, N consumers of one shared queue (corec_consumers=N).
# COREC_SCALE=1: COREC's single-queue scale-up (its Table 2: l3fwd, 64 B,
# 1 to 4 cores on one queue against DPDK's one thread per queue): MODELS
# defaults to "privring:1 corec:1 .. corec:QUEUES", NFS to l3fwd, no veth;
# the table gives each against privring:1 beside the paper's.
#   make bench-corec [HOST=1]

set -u
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../../selftests/drivers/net/rxbisect
NF=$(cd "$here/../nf" && pwd)
PROGS=$lib/progs
# shellcheck source=../../selftests/drivers/net/rxbisect/lib.sh
source "$lib/lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=host.sh
source "$here/host.sh"

OUT=${OUT:-$here/../../results/nf-bench-$(date +%Y%m%d-%H%M%S)}
# root, the tools, no other rxbisect user, the module; the layout (HL_*)
bench_host_init nf_bench.sh
REPS=${REPS:-3}
SECS=${SECS:-2}
NFS=${NFS:-nat lb l3fwd}
QUEUES=${QUEUES:-$HL_QUEUES}
if [ "${COREC_SCALE:-0}" = 1 ]; then
	NFS=${NFS_SCALE:-l3fwd}
	NO_VETH=1
	MODELS=${MODELS:-privring:1 $(seq -s ' ' -f 'corec:%g' 1 "$QUEUES")}
fi
RING=${RING:-1024}
CONN_MAX=${CONN_MAX:-1000000}
FLOWS=${FLOWS:-1048576}
DST=198.51.100.9
VIP=198.51.100.1

for n in $NFS; do
	[ -x "$NF/nf-$n" ] || { echo "nf_bench: tools/nf/nf-$n is not built (make tools)" >&2; exit 1; }
done
[ -f "$PROGS/xdp_drop.bpf.o" ] || make -s -C "$PROGS" >/dev/null 2>&1 ||
	{ echo "nf_bench: $PROGS not built (make module)" >&2; exit 1; }
mkdir -p "$OUT" || exit 1
csv=$OUT/nf.csv
RXB_TMP=$(mktemp -d /tmp/rxb-nfbench.XXXXXX)
NS0=rxbn-a-$$
NS1=rxbn-b-$$
trap rxb_cleanup EXIT
trap 'exit 130' INT TERM
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
modprobe pktgen 2>/dev/null
CAUSES="malformed frag no_route ttl_expired conn_map_full no_backend no_port"

progress() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$OUT/progress.log" >&2; }

# pair IF0 IF1: the namespaces, rxb0/va's way to the NFs' addresses, and
# an XDP drop on IF0 for what comes back.
pair() {
	rxb_setup_netns "$1" "$2" || return 1
	ip -n "$NS0" route add 198.51.100.0/24 via "$RXB_IP1" dev "$1" || return 1
	ip -n "$NS0" link set dev "$1" xdpdrv obj "$PROGS/xdp_drop.bpf.o" sec xdp
}

nf_args() {	# NF IF0 IF1
	case $1 in
	nat)	echo "--inside 192.0.2.0/24 --external 203.0.113.1 --flows $FLOWS" ;;
	lb)	echo "--vip $VIP:9 -b 10.0.0.1 -b 10.0.0.2 -b 10.0.0.3 -b 10.0.0.4" \
			"-b 10.0.0.5 -b 10.0.0.6 -b 10.0.0.7 -b 10.0.0.8 --conn-max $CONN_MAX" ;;
	l3fwd)	echo "-r 198.51.100.0/24,$3,$(rxb_mac "$2")" ;;
	esac
}

# dump PID FILE: the loader's counters (SIGUSR1), its new last line.
dump() {
	local n
	n=$(wc -l <"$2")
	kill -USR1 "$1" 2>/dev/null || return 1
	for _ in $(seq 100); do
		[ "$(wc -l <"$2")" -gt "$n" ] && { tail -n 1 "$2"; return 0; }
		sleep 0.05
	done
	return 1
}

jnum() {	# LINE KEY
	[[ $1 =~ \"$2\":\ ([0-9.]+) ]] && echo "${BASH_REMATCH[1]}"
}

nicdrops() {	# IF: rxbisect's receive drops (veth: -)
	[ "$1" = va ] || [ "$1" = vb ] && { echo 0; return; }
	rxb_snap "$1" || { echo 0; return; }
	echo $((${RXB_S[rx_nobuf_drops]:-0} + ${RXB_S[rx_ring_full_drops]:-0} + ${RXB_S[rx_fifo_drops]:-0}))
}

# run NF LABEL IF0 IF1: one row of nf.csv.
run() {
	local nf=$1 label=$2 if0=$3 if1=$4 dst=$DST pid out l0 l1 c pg n0 n1 mac row mpps
	[ "$nf" = lb ] && dst=$VIP
	# nat: 16 x 2048 inside endpoints, half of its 64512 external ports
	# (one external address): random 5-tuples over all of 192.0.2.0/24
	# and every port would measure port exhaustion (no_port drops) only
	local smax=192.0.2.254 pmax=65535
	[ "$nf" = nat ] && smax=192.0.2.16 pmax=2048
	out=$RXB_TMP/$nf.json
	# the previous run's files: the loader truncates them only once it
	# runs, after this shell has looked at them
	rm -f "$out" "$RXB_TMP/$nf.err"
	# shellcheck disable=SC2046 # the options, split
	ip netns exec "$NS1" "$NF/nf-$nf" -i "$if1" $(nf_args "$nf" "$if0" "$if1") \
		>"$out" 2>"$RXB_TMP/$nf.err" &
	pid=$!
	for c in $(seq 100); do
		grep -q "attached to" "$RXB_TMP/$nf.err" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -q "attached to" "$RXB_TMP/$nf.err"; then
		progress "$nf on $label: $(cat "$RXB_TMP/$nf.err")"
		echo "$nf,$label,$rep,failed,,,,,,,,,," >>"$csv"
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
		return
	fi
	mac=$(rxb_mac "$if1")
	# one shell for all of pktgen's set-up: a process costs under TCG
	pg="echo rem_device_all > $BENCH_PG/kpktgend_$BENCH_GEN_CPU;"
	pg+=" echo 'add_device $if0' > $BENCH_PG/kpktgend_$BENCH_GEN_CPU;"
	for c in "count 0" "clone_skb 0" "pkt_size 60" "delay 0" "dst $dst" \
		 "dst_mac $mac" "src_min 192.0.2.1" "src_max $smax" \
		 "udp_src_min 1" "udp_src_max $pmax" "udp_dst_min 9" "udp_dst_max 9" \
		 "flag IPSRC_RND" "flag UDPSRC_RND"; do
		pg+=" echo '$c' > $BENCH_PG/$if0;"
	done
	ip netns exec "$NS0" sh -c "$pg" 2>/dev/null
	ip netns exec "$NS0" timeout $((SECS + 30)) \
		sh -c "echo start > $BENCH_PG/pgctrl" 2>/dev/null &
	pg=$!
	sleep 1
	n0=$(nicdrops "$if1")
	l0=$(dump $pid "$out")
	sleep "$SECS"
	l1=$(dump $pid "$out")
	n1=$(nicdrops "$if1")
	bench_pg "$NS0" pgctrl stop
	wait $pg 2>/dev/null
	bench_pg "$NS0" "kpktgend_$BENCH_GEN_CPU" rem_device_all
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -z "$l0" ] || [ -z "$l1" ]; then
		progress "$nf on $label: no counters"
		echo "$nf,$label,$rep,failed,,,,,,,,,," >>"$csv"
		return
	fi
	d() { echo $(($(jnum "$l1" "$1") - $(jnum "$l0" "$1"))); }
	mpps=$(awk -v f=$(($(d tx) + $(d redirect))) -v r="$(d rx)" \
		-v t0="$(jnum "$l0" secs)" -v t1="$(jnum "$l1" secs)" \
		'BEGIN { if (t1 > t0) printf "%.4f,%.4f", f / (t1 - t0) / 1e6, r / (t1 - t0) / 1e6 }')
	if [ -z "$mpps" ]; then
		echo "$nf,$label,$rep,failed,,,,,,,,,," >>"$csv"
		return
	fi
	row="$nf,$label,$rep,ok,$mpps"
	for c in $CAUSES; do row+=",$(d "$c")"; done
	row+=",$((n1 - n0))"
	echo "$row" >>"$csv"
	progress "$nf on $label: ${mpps%%,*} Mpps forwarded"
}

main() {
	local models m nf q extra
	: >"$OUT/progress.log"
	models=$(bench_models)
	for m in $models; do
		[[ $m =~ ^[a-z-]+(:[1-9][0-9]?)?$ ]] ||
			{ echo "nf_bench: MODELS: '$m' is not MODEL or MODEL:N (N queues, 1..99)" >&2; exit 2; }
	done
	{
		echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "kernel: $(uname -r); CPUs: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
		echo "nf bench: reps $REPS secs $SECS queues $QUEUES ring $RING conn_max $CONN_MAX flows $FLOWS"
		echo "models: $models; nfs: $NFS"
	} >"$OUT/nf-env.txt"
	echo "nf,model,rep,status,mpps,rx_mpps,${CAUSES// /,},nic_drops" >"$csv"
	for rep in $(seq 1 "$REPS"); do
		if [ -z "${NO_VETH:-}" ]; then
			rxb_unload
			for m in $NS0 $NS1; do ip netns del "$m" 2>/dev/null; done
			if ip link add va type veth peer name vb && pair va vb; then
				for nf in $NFS; do run "$nf" veth va vb; done
			fi
			for m in $NS0 $NS1; do ip netns del "$m" 2>/dev/null; done
		fi
		for m in $models; do
			rxb_kill_bg
			for nf in $NS0 $NS1; do ip netns del "$nf" 2>/dev/null; done
			# MODEL:N: N queues (corec: N consumers of one queue)
			q=$QUEUES extra=()
			if [[ $m == *:* ]]; then
				q=${m#*:}
				[ "${m%%:*}" = corec ] && extra=(corec_consumers="$q")
			fi
			# shellcheck disable=SC2046 # engine=cpuN [engines=K] or nothing
			if ! rxb_load queues="$q" rx_ring_size="$RING" ring_model="${m%%:*}" \
				"${extra[@]}" $(bench_engine_param) || ! pair rxb0 rxb1; then
				progress "$m: does not load, skipped"
				for nf in $NFS; do echo "$nf,$m,$rep,skipped,,,,,,,,,," >>"$csv"; done
				continue
			fi
			bench_pin_queues rxb0 "$q"
			bench_pin_queues rxb1 "$q"
			for nf in $NFS; do run "$nf" "$m" rxb0 rxb1; done
		done
	done
	rxb_cleanup
	trap - EXIT
	python3 "$here/nf_report.py" "$csv" | tee "$OUT/nf.md"
	echo "results: $OUT" >&2
}

main "$@"
exit
