#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: RXB_SOAK_ITERS (default 2) times each, under iperf3 TCP traffic:
#  1. load the module, start a stream, unload it under the stream;
#  2. switch the ring model (every registered model in turn; at least
#     one round);
#  3. ethtool -L (1 <-> 2 queues) on rxb1 and -G (rx 256 <-> 1024) on rxb0.
# Then: every page_pool ever destroyed got all its pages back (its last
# page_pool_release event reports inflight=0), no kernel warning, and the
# memory use is back to where it was before the first iteration.
#
# Memory, from /proc/meminfo and /proc/zoneinfo with the module unloaded,
# after dropping the page cache and shrinking every slab cache, before
# the first iteration (after a warm-up load, traffic, unload: module
# text, first-use caches) and after the last:
#  - kernel memory the module allocates besides its pages, Slab +
#    VmallocUsed + Percpu (rings, queues, model state, work buffers,
#    module text): at most 4 MiB more.  Slab partial lists and socket
#    caches wander by well under 1 MiB between identical runs; one leaked
#    set of rings of one port is more than that;
#  - pages nobody accounts for: MemTotal less the free pages (the buddy
#    lists and the per-CPU page lists, which MemFree leaves out) and
#    every named owner (page cache and tmpfs, anonymous memory, slab,
#    kernel stacks, page tables, vmalloc, percpu).  A page_pool page
#    that never went back, or a page the module allocated and lost,
#    lands here: at most 4 MiB more.  A port's rings are 8 MiB of
#    pages, and page leaks of any size also fail the page_pool check.
#    MemAvailable is printed but not checked: it falls by whatever the
#    VM's tmpfs overlay and running processes gain (34 MiB in one CI
#    run with no leak).
#
# `make soak` runs it in the VM with RXB_SOAK_ITERS=100.

source "$(dirname "$0")/lib.sh"

ITERS=${RXB_SOAK_ITERS:-2}
rxb_init iperf3 ping ss
ktap_set_plan 6
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"

# mem: "MemAvailable kmem unaccounted" in KiB once caches are dropped
# and shrunk; kmem is Slab+VmallocUsed+Percpu, unaccounted is described
# at the top.
mem() {
	local f pcp
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 > "$f"
	done 2>/dev/null
	# pages on the per-CPU lists, every zone and CPU
	pcp=$(awk '$1 == "count:" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
	awk -v pcp="$pcp" -v pk="$(($(getconf PAGESIZE) / 1024))" '
		{ v[$1] = $2 }
		END {
			k = v["Slab:"] + v["VmallocUsed:"] + v["Percpu:"]
			u = v["MemTotal:"] - v["MemFree:"] - pcp * pk - \
			    v["Buffers:"] - v["Cached:"] - v["SwapCached:"] - \
			    v["AnonPages:"] - v["KernelStack:"] - \
			    v["PageTables:"] - v["SecPageTables:"] - k
			print v["MemAvailable:"], k, u
		}' /proc/meminfo
}

# Keep a 4-second iperf3 stream running; each one that ends must have
# succeeded.  IPERF_RUNS, IPERF_BAD count them.
IPERF_RUNS=0
IPERF_BAD=0
IPERF_LIVE=
iperf_done() {	# check the stream that ended
	wait "$RXB_IPERF_PID"
	if ! rxb_iperf_check "$IPERF_LIVE" $? "iperf3 run $IPERF_RUNS" >/dev/null; then
		IPERF_BAD=$((IPERF_BAD + 1))
		rxb_iperf_check "$IPERF_LIVE" 1 "iperf3 run $IPERF_RUNS failed"
	fi
	IPERF_LIVE=
}
keep_traffic() {
	if [ -n "$IPERF_LIVE" ]; then
		kill -0 "$RXB_IPERF_PID" 2>/dev/null && return 0
		iperf_done
	fi
	IPERF_RUNS=$((IPERF_RUNS + 1))
	IPERF_LIVE=$RXB_TMP/iperf.$IPERF_RUNS.json
	rxb_iperf_start "$IPERF_LIVE" 4 || { IPERF_BAD=$((IPERF_BAD + 1)); IPERF_LIVE=; }
}
end_traffic() {	# let the last stream finish, check it
	[ -n "$IPERF_LIVE" ] && iperf_done
	rxb_kill_bg
}

# warm-up, then the baseline
rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
MODELS=($(rxb_models))
rxb_iperf "$RXB_TMP/warm.json" 1 >/dev/null
rxb_kill_bg
rxb_unload || rxb_bail "cannot unload the module"
read -r A0 S0 U0 < <(mem)
W0=$(rxb_kmsg_mark "soak.sh: baseline") || rxb_bail "cannot write to the kernel log"
ktap_print_msg "baseline: MemAvailable $A0 KiB, Slab+VmallocUsed+Percpu $S0 KiB, unaccounted $U0 KiB; $ITERS iterations; models: ${MODELS[*]}"
t0=$SECONDS

# 1: load, stream, unload under the stream
bad=0
for i in $(seq "$ITERS"); do
	m=${MODELS[$(((i - 1) % ${#MODELS[@]}))]}
	if ! rxb_load queues=2 ring_model="$m" || ! rxb_setup_netns; then
		ktap_print_msg "iteration $i ($m): load or set-up failed"
		bad=$((bad + 1))
		continue
	fi
	rxb_iperf_start "$RXB_TMP/lu.json" 30 || { bad=$((bad + 1)); ktap_print_msg "iteration $i: no iperf3"; }
	rxb_wait_rx rxb1 200 10 || { bad=$((bad + 1)); ktap_print_msg "iteration $i ($m): no traffic"; }
	rxb_unload || { bad=$((bad + 1)); ktap_print_msg "iteration $i: rmmod failed"; }
	rxb_kill_bg
done
ktap_print_msg "load/unload: $ITERS iterations in $((SECONDS - t0)) s"
ktap_test_result "load, iperf3, unload under traffic x$ITERS" [ $bad = 0 ]

# 2: ring-model switches under traffic
rxb_load queues=2 && rxb_setup_netns || rxb_bail "cannot load the module"
n=$((ITERS > ${#MODELS[@]} ? ITERS : ${#MODELS[@]}))
t1=$SECONDS
bad=0
for i in $(seq "$n"); do
	keep_traffic
	m=${MODELS[$((i % ${#MODELS[@]}))]}
	echo "$m" > /sys/module/rxbisect/parameters/ring_model || bad=$((bad + 1))
	rxb_sleep 0.2
done
end_traffic
fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: emulated //p')
ktap_print_msg "model switches: $n in $((SECONDS - t1)) s, $IPERF_RUNS iperf3 runs, $IPERF_BAD failed; rxb1 runs $fw"
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || bad=$((bad + 1))
ktap_test_result "ring-model switch under iperf3 x$n" \
	[ $bad = 0 -a $IPERF_BAD = 0 -a "$fw" = "$m" ]

# 3: ethtool -L and -G under traffic
echo privring > /sys/module/rxbisect/parameters/ring_model
t1=$SECONDS
bad=0
IPERF_RUNS=0
IPERF_BAD=0
for i in $(seq "$ITERS"); do
	keep_traffic
	rxb_in rxb1 ethtool -L rxb1 combined $((i % 2 + 1)) || bad=$((bad + 1))
	rxb_in rxb0 ethtool -G rxb0 rx $((i % 2 ? 256 : 1024)) || bad=$((bad + 1))
	rxb_sleep 0.2
done
end_traffic
ktap_print_msg "ethtool -L/-G: $ITERS in $((SECONDS - t1)) s, $IPERF_RUNS iperf3 runs, $IPERF_BAD failed"
rxb_ping_ok "$NS0" "$RXB_IP1" 2 || bad=$((bad + 1))
ktap_test_result "ethtool -L and -G under iperf3 x$ITERS" [ $bad = 0 -a $IPERF_BAD = 0 ]
rxb_unload || ktap_print_msg "rmmod failed"

# 4: every page back in its pool
rxb_pp_released_result 20

# 5
W1=$(rxb_kmsg_clean "$W0")
rc=$?
[ -z "$W1" ] || ktap_print_msg "kernel log: $W1"
ktap_test_result "no WARNING, BUG, lockdep report or stalled pool in dmesg" [ $rc = 0 ]

# 6
read -r A1 S1 U1 < <(mem)
ktap_print_msg "after: MemAvailable $A1 KiB ($((A1 - A0)) KiB), Slab+VmallocUsed+Percpu $S1 KiB ($((S1 - S0)) KiB), unaccounted $U1 KiB ($((U1 - U0)) KiB); soak ${SECONDS}s"
ktap_test_result "memory back to the baseline (kernel memory and unaccounted pages +4 MiB at most)" \
	[ $((S1 - S0)) -le 4096 -a $((U1 - U0)) -le 4096 ]

ktap_finished
