#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-mode benchmarks (tools/bench/host.sh, paper.sh, bench_all.sh),
# run here as on a researcher's host, briefly:
#   1  not root: refused, exit 2, one line saying so;
#   2  a required tool missing (ethtool): refused, naming its package;
#   3  rxbisect already loaded (another user's ports): refused;
#   4  another benchmark holding the lock: refused;
#   5  paper.sh ws (2 ring sizes, 1 s): exit 0, traffic at both sizes, a
#      table row per ring size, the layout, machine record and module
#      parameters written;
#   6  paper.sh bursts (shring and rxbisect, one burst size, no no-drop
#      search): a table row per configuration, the burst sent whole;
#   7  bench_all.sh with one cell and model: its row, the layout;
#   8  nf_bench.sh COREC_SCALE=1 (make bench-corec): l3fwd on privring:1
#      and corec with 1 .. QUEUES consumers, a forwarding row each, the
#      table against privring:1 with COREC's Table 2 beside;
#   9  paper.sh ceio (one frame size): a row each for privring and ceio,
#      traffic, ceio's packets counted on its fast and slow paths;
#  10  bench_all.sh's slow-core sweeps (rxBisect Figs. 14-15) with one
#      point each: a work row and a share row, the target's share sent.

source "$(dirname "$0")/lib.sh"

rxb_init setpriv flock
ktap_set_plan 10

BENCH=$RXB_DIR/../../../../tools/bench
[ -x "$BENCH/paper.sh" ] || rxb_bail "no tools/bench/paper.sh"
id nobody >/dev/null 2>&1 || rxb_bail "no user nobody"
# RXB_HOST_BENCH_OUT: keep the results (e.g. under the checkout, which
# the VM writes to), else a temporary directory
O=${RXB_HOST_BENCH_OUT:-$RXB_TMP/out}
rm -rf "$O"
mkdir -p "$O"
# each run at most this long, so that a hang fails the case, not the test
T=${RXB_HOST_BENCH_TIMEOUT:-240}

# refused DESC WANT CMD...: CMD exits 2 with one line containing WANT
refused() {
	local want=$1 out rc
	shift
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	ktap_print_msg "exit $rc: $out"
	[ "$rc" = 2 ] && [[ $out == *"$want"* ]] && [ "$(wc -l <<<"$out")" = 1 ]
}

# 1
ktap_test_result "not root: refused (exit 2, one line)" \
	refused "must run as root" setpriv --reuid=nobody --regid=nogroup \
	--clear-groups env OUT="$O" "$BENCH/paper.sh" ws

# 2: a PATH of everything but ethtool
mkdir -p "$RXB_TMP/bin"
ln -s /usr/bin/* /usr/sbin/* "$RXB_TMP/bin/" 2>/dev/null
rm -f "$RXB_TMP/bin/ethtool"
ktap_test_result "ethtool missing: refused, naming the Debian package" \
	refused "ethtool not found: apt-get install ethtool" \
	env PATH="$RXB_TMP/bin" OUT="$O" "$BENCH/paper.sh" ws

# 3
rxb_load || rxb_bail "cannot load the module"
ip link add rxbh0 type rxbisect 2>/dev/null
ktap_test_result "rxbisect loaded already: refused" \
	refused "rxbisect is loaded already" env OUT="$O" "$BENCH/paper.sh" ws
ip link del rxbh0 2>/dev/null
rxb_unload || rxb_bail "cannot unload the module"

# 4
exec {lk}>>/run/rxbisect-bench.lock
flock -n "$lk" || rxb_bail "cannot take the benchmarks' lock"
ktap_test_result "another benchmark running: refused" \
	refused "another rxbisect benchmark is running" env OUT="$O" "$BENCH/paper.sh" ws
flock -u "$lk"
exec {lk}>&-

# 5
ws() {
	local rc rows
	local t0=$SECONDS
	timeout "$T" env OUT="$O/ws" REPS=1 SECS=1 RINGS="64 1024" "$BENCH/paper.sh" ws \
		>"$RXB_TMP/ws.out" 2>"$RXB_TMP/ws.err"
	rc=$?
	ktap_print_msg "paper.sh ws: $((SECONDS - t0)) s"
	ktap_print_msg "$(cat "$RXB_TMP/ws.out")"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/ws.err")"; return 1; }
	grep -q "^host layout: .* online CPUs" "$RXB_TMP/ws.err" || return 1
	# two rows, each with traffic delivered (kpps > 0)
	rows=$(awk -F, 'NR > 1 && $8 + 0 > 0' "$O/ws/ws.csv" | wc -l)
	[ "$rows" = 2 ] || { ktap_print_msg "ws.csv: $(cat "$O/ws/ws.csv")"; return 1; }
	grep -q '^| 64 |' "$O/ws/ws.md" && grep -q '^| 1024 |' "$O/ws/ws.md" &&
	grep -q "queues on CPUs" "$O/ws/layout.txt" &&
	grep -q '^git: ' "$O/ws/machine.txt" && grep -q '^llc: ' "$O/ws/machine.txt" &&
	grep -q '^kernel: ' "$O/ws/machine.txt" &&
	grep -q 'ring_model=privring .*rx_ring_size=1024' "$O/ws/params.txt"
}
ktap_test_result "paper.sh ws: a row per ring size, traffic, layout and machine record" ws

# 6: two configurations, one through each branch of paper.sh's load()
# that case 5's privring does not take (shring's share factor, rxBisect's
# Ax ring): 50 s of TCG time less than the four of make bench-bursts
bursts() {
	local rc c
	local t0=$SECONDS
	timeout "$T" env OUT="$O/bursts" REPS=1 SECS=1 BURSTS=2048 NDR_STEPS=0 \
		CONFIGS="shring:1024 rxbisect:1024:128" \
		"$BENCH/paper.sh" bursts >"$RXB_TMP/b.out" 2>"$RXB_TMP/b.err"
	rc=$?
	ktap_print_msg "paper.sh bursts: $((SECONDS - t0)) s"
	ktap_print_msg "$(cat "$RXB_TMP/b.out")"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/b.err")"; return 1; }
	for c in shring-1024 rxbisect-1024-ax128; do
		grep -q "^| $c |" "$O/bursts/bursts.md" || { ktap_print_msg "no row $c"; return 1; }
		# the burst sent whole, the full-speed run sent something
		[ "$(awk -F, -v c="$c" '$1 == c && $3 == "burst" && $5 == $4' \
			"$O/bursts/bursts.csv" | wc -l)" = 1 ] || return 1
		grep -q "^$c,1,full,-,[1-9]" "$O/bursts/bursts.csv" || return 1
	done
}
ktap_test_result "paper.sh bursts: a row per configuration, every burst sent" bursts

# 7
bench_all() {
	local rc
	local t0=$SECONDS
	timeout "$T" env OUT="$O/all" REPS=1 SECS=1 CELLS=udp64 MODELS=privring NO_VETH=1 \
		"$BENCH/bench_all.sh" >"$RXB_TMP/a.out" 2>"$RXB_TMP/a.err"
	rc=$?
	ktap_print_msg "bench_all.sh: $((SECONDS - t0)) s"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/a.err")"; return 1; }
	ktap_print_msg "$(cat "$O/all/bench.csv")"
	grep -q '^privring,1,ok,' "$O/all/bench.csv" &&
	grep -q '^layout: queues on CPUs' "$O/all/env.txt" &&
	[ -s "$O/all/machine.txt" ]
}
ktap_test_result "bench_all.sh in host mode: its row, the layout recorded" bench_all

# 8
corec_scale() {
	local rc m
	local t0=$SECONDS
	timeout "$T" env OUT="$O/corec" REPS=1 SECS=1 COREC_SCALE=1 QUEUES=2 \
		"$BENCH/nf_bench.sh" >"$RXB_TMP/c.out" 2>"$RXB_TMP/c.err"
	rc=$?
	ktap_print_msg "nf_bench.sh COREC_SCALE=1: $((SECONDS - t0)) s"
	ktap_print_msg "$(cat "$RXB_TMP/c.out")"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/c.err")"; return 1; }
	for m in privring:1 corec:1 corec:2; do
		awk -F, -v m="$m" '$1 == "l3fwd" && $2 == m && $4 == "ok" && $5 > 0 { f = 1 }
			END { exit !f }' "$O/corec/nf.csv" ||
			{ ktap_print_msg "no forwarding row for $m"; return 1; }
	done
	grep -q "vs privring:1" "$O/corec/nf.md" && grep -q "COREC paper, Table 2" "$O/corec/nf.md"
}
ktap_test_result "nf_bench.sh COREC_SCALE=1: l3fwd on privring:1, corec:1 and corec:2, against privring:1" corec_scale

# 9
ceio() {
	local rc m
	local t0=$SECONDS
	timeout "$T" env OUT="$O/ceio" REPS=1 SECS=1 CEIO_PKTS=512 CEIO_RING=512 \
		"$BENCH/paper.sh" ceio >"$RXB_TMP/e.out" 2>"$RXB_TMP/e.err"
	rc=$?
	ktap_print_msg "paper.sh ceio: $((SECONDS - t0)) s"
	ktap_print_msg "$(cat "$RXB_TMP/e.out")"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/e.err")"; return 1; }
	for m in privring ceio; do
		grep -q "^| 512 | $m | [0-9]" "$O/ceio/ceio.md" || { ktap_print_msg "no row $m"; return 1; }
	done
	# ceio's packets went one path or the other, privring's neither
	awk -F, '$2 == "ceio" && $7 > 0 && $11 + $12 > 0 { c = 1 }
		$2 == "privring" && $7 > 0 && $11 + $12 == 0 { p = 1 }
		END { exit !(c && p) }' "$O/ceio/ceio.csv"
}
ktap_test_result "paper.sh ceio: privring and ceio each a row, ceio's fast and slow paths counted" ceio

# 10
sweeps() {
	local rc
	local t0=$SECONDS
	timeout "$T" env OUT="$O/sweeps" REPS=1 SWEEP_SECS=1 CELLS=sweeps MODELS=privring \
		NO_VETH=1 WORK_MULTS=1 SHARES=31 "$BENCH/bench_all.sh" \
		>"$RXB_TMP/s.out" 2>"$RXB_TMP/s.err"
	rc=$?
	ktap_print_msg "bench_all.sh sweeps: $((SECONDS - t0)) s"
	[ "$rc" = 0 ] || { ktap_print_msg "exit $rc: $(tail -n 15 "$RXB_TMP/s.err")"; return 1; }
	ktap_print_msg "$(cat "$O/sweeps/sweep.csv")"
	# model,rep,sweep,work,share_pct,sent_target,...: one row per sweep,
	# datagrams sent to the target queue
	awk -F, '$1 == "privring" && $3 == "work" && $6 > 0 { w = 1 }
		$1 == "privring" && $3 == "share" && $6 > 0 { s = 1 }
		END { exit !(w && s) }' "$O/sweeps/sweep.csv" &&
	grep -q '^layout: queues on CPUs' "$O/sweeps/env.txt"
}
ktap_test_result "bench_all.sh's slow-core sweeps in host mode: a work and a share row" sweeps

ktap_finished
