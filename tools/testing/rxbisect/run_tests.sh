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

set -u
build=$1
read -r -a flavours <<<"$2"
read -r -a tests <<<"$3"
# A hang guard, not a time limit: test_models under TSAN needs about
# 300 s on a 2-CPU machine shared with other work (2026-11-29).
timeout_s=${RXB_TEST_TIMEOUT:-900}

# Any sanitizer report is fatal and makes the program exit non-zero.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

echo "TAP version 13"
echo "1..$((${#flavours[@]} * ${#tests[@]}))"
n=0 pass=0 fail=0 spass=0 sfail=0
start=$SECONDS
for f in "${flavours[@]}"; do
	frames_var=RXB_STRESS_FRAMES_$f
	for t in "${tests[@]}"; do
		n=$((n + 1))
		bin=$build/$f/$t
		log=$build/$f/$t.log
		t0=$SECONDS
		echo "# $f:$t"
		RXB_STRESS_FRAMES=${!frames_var:-} timeout "$timeout_s" "$bin" 2>&1 |
			tee "$log" | sed -u 's/^/    /'
		rc=${PIPESTATUS[0]}
		# TSAN cannot map its shadow with some ASLR layouts: retry without.
		if [ "$rc" -ne 0 ] && grep -q 'ThreadSanitizer: unexpected memory mapping' "$log" &&
		   setarch "$(uname -m)" -R true 2>/dev/null; then
			echo "    # retrying with ASLR disabled (TSAN memory layout)"
			RXB_STRESS_FRAMES=${!frames_var:-} timeout "$timeout_s" \
				setarch "$(uname -m)" -R "$bin" 2>&1 |
				tee "$log" | sed -u 's/^/    /'
			rc=${PIPESTATUS[0]}
		fi
		spass=$((spass + $(grep -c '^ok ' "$log")))
		sfail=$((sfail + $(grep -c '^not ok ' "$log")))
		if [ "$rc" -eq 0 ] && ! grep -q '^not ok ' "$log"; then
			echo "ok $n $f:$t # time=$((SECONDS - t0))s"
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
	done
done
echo "# Subtests: pass:$spass fail:$sfail, $((SECONDS - start))s"
echo "# Totals: pass:$pass fail:$fail"
[ "$fail" -eq 0 ]
