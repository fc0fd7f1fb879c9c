#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: run test_sim of each build flavour, nested as KTAP subtests.
# The plain build runs every case, in two shards side by side
# (SIM_SHARD); the ASan/UBSan build the unit and model cases (the
# experiments are the same code on longer runs).  Then the
# command line: test_cli.sh (bad input) on each flavour's rxbisect-sim,
# fuzz_cli.py (random command lines, SIM_FUZZ_SECONDS, default 20, seed
# SIM_FUZZ_SEED, default 1) on the ASan/UBSan one, and the libFuzzer
# target of the option layer (build/fuzz/fuzz_opts, clang) for
# SIM_LIBFUZZER_SECONDS (default 15) beside it, and predict.py --quick (three rows
# of the prediction table and one of the sensitivity table: that it runs
# and prints well-formed rows, not their numbers).  The last line is
# "# Totals: pass:N fail:N skip:N" over the nested cases.
#
# Usage: run_check.sh BUILD_DIR "FLAVOURS"

set -u
build=$1
read -r -a flavours <<<"$2"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

here=$(cd "$(dirname "$0")" && pwd)
# The command-line tests run unless SIM_TEST names something else.
cli_case() {
	[ -z "${SIM_TEST:-}" ] || [[ $1 == *"$SIM_TEST"* ]]
}
ntests=${#flavours[@]}
for f in "${flavours[@]}"; do
	cli_case "$f:test_cli" && ntests=$((ntests + 1))
done
cli_case asan:fuzz_cli && [[ " ${flavours[*]} " == *" asan "* ]] && ntests=$((ntests + 1))
cli_case asan:fuzz_opts && ntests=$((ntests + 1))
cli_case plain:predict && ntests=$((ntests + 1))

echo "KTAP version 1"
echo "1..$ntests"
n=0 pass=0 fail=0 skip=0

# limited CMD...: run CMD with 600 s of CPU (a hang spins: the
# simulation is one CPU-bound thread) and an hour of wall time, so that a
# machine loaded by others slows the tests down without failing them.
limited() {
	( ulimit -t 600 && exec timeout 3600 "$@" )
}

# tally NAME LOG RC T0: count LOG's nested results, print test n's line.
tally() {
	local name=$1 log=$2 rc=$3 t0=$4 p s x

	p=$(grep -c '^ok ' "$log" | head -n1)
	s=$(grep -c '^ok .* # SKIP' "$log")
	x=$(grep -c '^not ok ' "$log")
	pass=$((pass + p - s))
	skip=$((skip + s))
	fail=$((fail + x))
	if [ "$rc" -eq 0 ] && [ "$x" -eq 0 ]; then
		echo "ok $n $name # time=$((SECONDS - t0))s"
	else
		echo "not ok $n $name # exit $rc (log: $log)"
		[ "$x" -eq 0 ] && fail=$((fail + 1))
	fi
}

for f in "${flavours[@]}"; do
	n=$((n + 1))
	log=$build/$f/test_sim.log
	filter=${SIM_TEST:-}
	[ "$f" = plain ] || filter=${SIM_TEST:-unit}
	t0=$SECONDS
	echo "# $f:test_sim${filter:+ (SIM_TEST=$filter)}"
	if [ "$f" = plain ]; then
		# Two shards side by side (the machine's two cores), then
		# their logs one after the other.
		SIM_SHARD=0/2 SIM_TEST=$filter limited "$build/$f/test_sim" \
			>"$log.0" 2>&1 &
		pid0=$!
		SIM_SHARD=1/2 SIM_TEST=$filter limited "$build/$f/test_sim" \
			>"$log.1" 2>&1
		rc=$?
		wait "$pid0"
		rc0=$?
		[ "$rc" -eq 0 ] && rc=$rc0
		cat "$log.0" "$log.1" | tee "$log" | sed 's/^/    /'
	else
		SIM_TEST=$filter limited "$build/$f/test_sim" 2>&1 | tee "$log" |
			sed -u 's/^/    /'
		rc=${PIPESTATUS[0]}
	fi
	if [ "$f" != plain ] && [ -z "${SIM_TEST:-}" ]; then
		# The models too, briefly, under the sanitizers.
		SIM_TEST=models limited "$build/$f/test_sim" 2>&1 | tee -a "$log" |
			grep -E '^(ok|not ok|#)' | sed -u 's/^/    /'
		rc2=${PIPESTATUS[0]}
		[ "$rc" -eq 0 ] && rc=$rc2
	fi
	tally "$f:test_sim" "$log" "$rc" "$t0"
done
for f in "${flavours[@]}"; do
	cli_case "$f:test_cli" || continue
	n=$((n + 1))
	log=$build/$f/test_cli.log
	t0=$SECONDS
	echo "# $f:test_cli"
	timeout 900 bash "$here/test_cli.sh" "$build/$f/rxbisect-sim" 2>&1 | tee "$log" |
		sed -u 's/^/    /'
	tally "$f:test_cli" "$log" "${PIPESTATUS[0]}" "$t0"
done

# The libFuzzer target (one process) runs beside fuzz_cli.py (one process
# at a time): started here, its result reported after fuzz_cli's.
fo_pid= fo_t0=$SECONDS
secs=${SIM_LIBFUZZER_SECONDS:-15}
if cli_case asan:fuzz_opts && [ -x "$build/fuzz/fuzz_opts" ]; then
	# Crash inputs land in build/fuzz/ (crash-*), to replay:
	# build/fuzz/fuzz_opts FILE
	timeout $((secs + 60)) "$build/fuzz/fuzz_opts" -seed="${SIM_FUZZ_SEED:-1}" \
		-max_total_time="$secs" -timeout=10 -max_len=512 -rss_limit_mb=2048 \
		-dict="$here/fuzz_opts.dict" -artifact_prefix="$build/fuzz/" \
		-print_final_stats=1 >"$build/fuzz/fuzz_opts.log" 2>&1 &
	fo_pid=$!
fi

if cli_case asan:fuzz_cli && [[ " ${flavours[*]} " == *" asan "* ]]; then
	n=$((n + 1))
	log=$build/asan/fuzz_cli.log
	t0=$SECONDS
	echo "# asan:fuzz_cli (${SIM_FUZZ_SECONDS:-20} s, seed ${SIM_FUZZ_SEED:-1})"
	if ! command -v python3 >/dev/null; then
		echo "ok $n asan:fuzz_cli # SKIP python3 not installed"
		skip=$((skip + 1))
	else
		timeout $((${SIM_FUZZ_SECONDS:-20} + 120)) python3 "$here/fuzz_cli.py" \
			--seconds "${SIM_FUZZ_SECONDS:-20}" "$build/asan/rxbisect-sim" 2>&1 |
			tee "$log" | sed -u 's/^/    /'
		rc=${PIPESTATUS[0]}
		if [ "$rc" -eq 0 ]; then
			echo "ok $n asan:fuzz_cli # time=$((SECONDS - t0))s"
			pass=$((pass + 1))
		else
			echo "not ok $n asan:fuzz_cli # exit $rc (log: $log)"
			fail=$((fail + 1))
		fi
	fi
fi

if cli_case asan:fuzz_opts; then
	n=$((n + 1))
	log=$build/fuzz/fuzz_opts.log
	t0=$fo_t0
	echo "# asan:fuzz_opts (libFuzzer, $secs s, seed ${SIM_FUZZ_SEED:-1})"
	if [ -z "$fo_pid" ]; then
		echo "ok $n asan:fuzz_opts # SKIP no clang to build it"
		skip=$((skip + 1))
	else
		wait "$fo_pid"
		rc=$?
		grep -E '^(stat::number_of_executed_units|Done|==[0-9]+==ERROR|SUMMARY|fuzz_opts:)' \
			"$log" | sed 's/^/    # /'
		if [ "$rc" -eq 0 ]; then
			echo "ok $n asan:fuzz_opts # time=$((SECONDS - t0))s"
			pass=$((pass + 1))
		else
			echo "not ok $n asan:fuzz_opts # exit $rc (log: $log)"
			fail=$((fail + 1))
		fi
	fi
fi
if cli_case plain:predict; then
	n=$((n + 1))
	log=$build/plain/predict.log
	t0=$SECONDS
	echo "# plain:predict (predict.py --quick)"
	if ! command -v python3 >/dev/null; then
		echo "ok $n plain:predict # SKIP python3 not installed"
		skip=$((skip + 1))
	else
		timeout 300 python3 "$here/predict.py" --quick --jobs 1 \
			--sim "$build/plain/rxbisect-sim" >"$log" 2>&1
		rc=$?
		sed 's/^/    # /' "$log"
		# Rows: source, quantity ... then paper, sim, ratio as numbers or --.
		num='([0-9.]+|--)'
		rows=$(grep -cE "^(Fig|Table)[^ ]* .*  $num +$num +$num( |\$)" "$log")
		# Grid rows: parameter, default, variation, source, a cell a
		# headline; then the verdict.
		sens=$(grep -cE '^[a-z-]+ +[0-9.]+ +[-+0-9]+/[-+0-9]+ % .*  [yn]{2}$' "$log")
		verd=$(grep -cE '^Verdict: (robust|fragile: )' "$log")
		tally=$(grep -cE '^Tally: [0-9]+ rows with a ratio' "$log")
		if [ "$rc" -eq 0 ] && [ "$rows" -eq 3 ] && [ "$sens" -eq 1 ] &&
		   [ "$verd" -eq 1 ] && [ "$tally" -eq 1 ]; then
			echo "ok $n plain:predict # time=$((SECONDS - t0))s"
			pass=$((pass + 1))
		else
			echo "    # exit $rc, $rows prediction rows (want 3), $sens sensitivity rows (want 1), $verd verdicts, $tally tallies (want 1 each)"
			echo "not ok $n plain:predict # (log: $log)"
			fail=$((fail + 1))
		fi
	fi
fi
echo "# Totals: pass:$pass fail:$fail skip:$skip"
[ "$fail" -eq 0 ]
