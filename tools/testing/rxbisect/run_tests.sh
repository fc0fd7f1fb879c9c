#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test program of every build flavour; print KTAP.
#
# Usage: run_tests.sh BUILD_DIR "FLAVOURS" "TESTS"
#
# Each program's own KTAP is nested (indented) under one top-level result
# "<flavour>:<program>", which fails if the program exits non-zero (a
# failed case, a sanitizer report, a crash or a timeout).  The last line
# is "# Totals: pass:N fail:N" over the top-level results.
# RXB_STRESS_FRAMES_<flavour> set RXB_STRESS_FRAMES for that flavour.
# RXB_UNIT_JOBS programs run at a time (default: the number of CPUs),
# each into its log; the logs are printed whole, in order.

set -u
build=$1
read -r -a flavours <<<"$2"
read -r -a tests <<<"$3"
# A hang guard, not a time limit: test_models under TSAN needs about
# 300 s on a 2-CPU machine shared with other work (2026-11-29), more
# beside another program.
timeout_s=${RXB_TEST_TIMEOUT:-900}

# Any sanitizer report is fatal and makes the program exit non-zero.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# run_one FLAVOUR TEST: run one program into its log; its exit status
# into LOG.rc, its wall time into LOG.time.
run_one() {
	local f=$1 t=$2 frames_var=RXB_STRESS_FRAMES_$1 bin=$build/$1/$2
	local log=$build/$1/$2.log t0=$SECONDS rc

	RXB_STRESS_FRAMES=${!frames_var:-} timeout "$timeout_s" "$bin" >"$log" 2>&1
	rc=$?
	# TSAN cannot map its shadow with some ASLR layouts: retry without.
	if [ "$rc" -ne 0 ] && grep -q 'ThreadSanitizer: unexpected memory mapping' "$log" &&
	   setarch "$(uname -m)" -R true 2>/dev/null; then
		{ echo "# retrying with ASLR disabled (TSAN memory layout)"
		  RXB_STRESS_FRAMES=${!frames_var:-} timeout "$timeout_s" \
			setarch "$(uname -m)" -R "$bin" 2>&1; } >"$log.retry"
		rc=$?
		mv "$log.retry" "$log"
	fi
	echo $((SECONDS - t0)) >"$log.time"
	echo "$rc" >"$log.rc"
}

# report N FLAVOUR TEST: print a finished program's log, nested, and its
# result line.
report() {
	local n=$1 f=$2 t=$3 log=$build/$2/$3.log rc why

	rc=$(cat "$log.rc")
	echo "# $f:$t"
	sed 's/^/    /' "$log"
	spass=$((spass + $(grep -c '^ok ' "$log")))
	sfail=$((sfail + $(grep -c '^not ok ' "$log")))
	if [ "$rc" -eq 0 ] && ! grep -q '^not ok ' "$log"; then
		echo "ok $n $f:$t # time=$(cat "$log.time")s"
		pass=$((pass + 1))
	else
		case $rc in
		124) why="timed out after ${timeout_s}s" ;;
		66) why="ThreadSanitizer report" ;;
		*) why="exit $rc" ;;
		esac
		echo "# $f:$t: $why (log: $log)"
		echo "not ok $n $f:$t"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
echo "1..$((${#flavours[@]} * ${#tests[@]}))"
pass=0 fail=0 spass=0 sfail=0
start=$SECONDS
# Up to $jobs programs at a time (most are one or two threads), each
# into its log; printed in order, each as soon as it and those before it
# are done.
jobs=${RXB_UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
names=() pids=()
for f in "${flavours[@]}"; do
	for t in "${tests[@]}"; do
		names+=("$f $t")
		rm -f "$build/$f/$t.log.rc"
	done
done
next=0
for i in "${!names[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
		while [ "$next" -lt "$i" ] && [ -e "$build/${names[next]/ //}.log.rc" ]; do
			wait "${pids[next]}"
			report $((next + 1)) ${names[next]}
			next=$((next + 1))
		done
	done
	run_one ${names[i]} &
	pids[i]=$!
done
for ((; next < ${#names[@]}; next++)); do
	wait "${pids[next]}"
	report $((next + 1)) ${names[next]}
done
echo "# Subtests: pass:$spass fail:$sfail, $((SECONDS - start))s"
echo "# Totals: pass:$pass fail:$fail"
[ "$fail" -eq 0 ]
