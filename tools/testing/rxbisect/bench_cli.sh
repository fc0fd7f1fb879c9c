#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The microbenchmark's command line (make check): bad input exits 2 with
# a message naming the option, and a tiny run of each mode exits 0 with
# its table.  Prints KTAP; exits non-zero if a case fails.
#
# Usage: bench_cli.sh BENCH_BINARY

set -u
bin=$1
n=0 fail=0
bad_args=(
	"-q abc" "-q -3" "-q 0" "-q 65" "-c -1" "-c 99" "-n nan" "-n -5"
	"-n 1e9" "-n 99999999999999999999999" "-R 0" "-R 17" "-R 2x"
	"-m nosuchmodel" "-m privring,,nosuchmodel" "-g 3" "-b 3000"
	"-b 64" "-B 1048576" "-b 8192 -B 4096" "-r 100" "-S -g 4" "-A -S"
	"-S -q 1" "-x" "-q" "stray" "-X 100" "-S -X 64" "-1 -S" "-1 -A"
	"-1 -c 1"
)
good_args=(
	"-q 4 -g 2 -b 256 -B 512 -n 4000 -R 1 -m privring,rxbisect,corec"
	"-S -n 4000 -R 1 -m privring"
	"-A -n 4000 -R 1 -m privring"
	"-1 -q 4 -g 2 -b 256 -B 512 -X 128 -n 4000 -R 1 -m privring,rxbisect"
	"-P -n 4000 -m privring,rxbisect"
)

echo "TAP version 13"
echo "1..$((${#bad_args[@]} + ${#good_args[@]}))"
for a in "${bad_args[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # one string, several options
	err=$(timeout 20 "$bin" $a 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == *bench_models:* ]]; then
		echo "ok $n bad input '$a': exit 2, ${err%%$'\n'*}"
	else
		echo "not ok $n bad input '$a': exit $rc, '$err'"
		fail=$((fail + 1))
	fi
done
for a in "${good_args[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	out=$(timeout 60 "$bin" $a 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^| privring |' <<<"$out" &&
	   ! grep -q 'cannot run' <<<"$out"; then
		echo "ok $n '$a' runs"
	else
		echo "not ok $n '$a': exit $rc"
		echo "    # ${out//$'\n'/$'\n'    # }"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$((n - fail)) fail:$fail"
[ "$fail" -eq 0 ]
