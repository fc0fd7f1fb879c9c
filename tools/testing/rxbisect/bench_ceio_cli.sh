#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench_ceio's command line (make check): bad input exits 2 with a message
# naming the program, and a tiny run of every scenario and model exits 0
# with its tables, with the plain build and, when given, the ASan build.
# Prints KTAP; exits non-zero if a case fails.
#
# Usage: bench_ceio_cli.sh BENCH_CEIO_BINARY [ASAN_BINARY]

set -u
bin=$1
asan=${2:-}
n=0 fail=0
bad_args=(
	"-q abc" "-q -4" "-q 0" "-q 3" "-q 32" "-c -1" "-c 0" "-c 9" "-c 8 -q 4"
	"-n nan" "-n -5" "-n 1e9" "-n 99999999999999999999999" "-n 999"
	"-n 1000000000" "-R 0" "-R 17" "-R 2x" "-m nosuchmodel"
	"-m privring,,ceio" "-m ceio," "-m corec" "-s nosuch" "-s static,"
	"-b 1000" "-b 128" "-b 65536" "-b 18446744073709551616" "-w -1"
	"-w 1000001" "-w inf" "-l 0" "-l 201" "-l 50.5" "-u 0" "-u 2000 -n 4000"
	"-k -1" "-d 0" "-f NaN" "-f 1e3" "-F" "-F both" "-F sync," "-x" "-q"
	"stray" ""
)
small="-n 4000 -R 1 -u 64 -k 64 -d 4"

echo "TAP version 13"
runs=1
[ -n "$asan" ] && runs=2
echo "1..$((${#bad_args[@]} + runs))"
for a in "${bad_args[@]}"; do
	n=$((n + 1))
	[ -z "$a" ] && a="-b ''"
	# shellcheck disable=SC2086 # one string, several options
	err=$(eval timeout 20 "$bin" $a 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == *bench_ceio:* ]]; then
		echo "ok $n bad input '$a': exit 2, ${err%%$'\n'*}"
	else
		echo "not ok $n bad input '$a': exit $rc, '$err'"
		fail=$((fail + 1))
	fi
done
for b in "$bin" $asan; do
	n=$((n + 1))
	t0=$(date +%s)
	# shellcheck disable=SC2086
	out=$(timeout 120 "$b" $small 2>&1)
	rc=$?
	t=$(($(date +%s) - t0))
	rows=$(grep -c '^| \(privring\|shring\|rxbisect\|ceio\) | [0-9]' <<<"$out")
	if [ "$rc" -eq 0 ] && [ "$rows" -eq 24 ] &&
	   ! grep -q 'cannot run\|^bench_ceio:' <<<"$out"; then
		echo "ok $n '${b##*/build/} $small' runs: 6 scenarios x 4 models in ${t}s"
	else
		echo "not ok $n '${b##*/build/} $small': exit $rc, $rows rows"
		echo "    # ${out//$'\n'/$'\n'    # }"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$((n - fail)) fail:$fail"
[ "$fail" -eq 0 ]
