#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tls_bench.sh's and enso_bench.sh's command lines (the unit stage of make
# test): every bad
# option or value exits 2 with one "tls_bench: " ("enso_bench: ") line
# naming what is wrong,
# before anything is loaded or written; --help exits 0; a valid command
# line gets as far as the root check.  Run as an unprivileged user (as
# root, through setpriv as nobody), so that nothing past the checks can
# run.  Then FUZZ_SECS (default 10) seconds of random command lines from
# the options and a dictionary of values, seeded (FUZZ_SEED, printed):
# each must exit 2 with such a line, or stop at the root check (exit 2,
# host.sh's refusal, as every benchmark of tools/bench).  Prints
# KTAP; exits non-zero if a case fails.  enso_bench.sh: its bad cases,
# --help and a valid line, then FUZZ_SECS / 2 seconds of its own fuzz.
#
# Usage: test_cli.sh [TLS_BENCH [ENSO_BENCH]]   (default: the scripts
# beside this file)

set -u
here=$(cd "$(dirname "$0")" && pwd)
prog=${1:-$here/tls_bench.sh}
eprog=${2:-$here/enso_bench.sh}
secs=${FUZZ_SECS:-10}
seed=${FUZZ_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
n=0 fail=0
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)

cases=(
	"--reps 0" "--reps -1" "--reps 1x" "--reps 10000" "--reps"
	"--bytes 0" "--bytes 5X" "--bytes -4M" "--bytes 99999999999999G"
	"--loss-bytes abc" "--loss ''" "--loss 100" "--loss r" "--loss 5%"
	"--loss '1 x'" "--reorder-delay 1s" "--reorder-delay 0ms"
	"--loss-reps 0" "--loss-reps nan" "--loss-dirs ''" "--loss-dirs rxtx"
	"--loss-dirs 'rx up'" "--resync ''" "--resync both" "--resync 'sync x'"
	"--app-cpu -1" "--app-cpu x" "--peer-cpu 0"
	"--app-cpu 9999" "--cipher 192" "--rate 0" "--rate 5G" "--rate fast"
	"--dirs ''" "--dirs up" "--coalesce -1" "--coalesce 10001"
	"--parts ''" "--parts net" "--bogus" "stray"
)
# option value ... for the fuzz: the options and values near their edges
opts=(--reps --bytes --loss-bytes --loss --reorder-delay --loss-reps
      --loss-dirs --resync --app-cpu --peer-cpu --cipher --rate --dirs --coalesce
      --parts --bogus -h)
# shellcheck disable=SC2016 # '$(id)' stays unexpanded: a value to refuse
vals=(0 1 -1 2 3 9999 10000 1x 4M 0M 1G 99999999999999G nan '' ' '
      r r2 r100 5 99 100 '0 1' 1ms 0ms 1us 1s rx tx 'rx tx' txgso up
      sync async 'sync async' 128 256 192 auto off 10000 10001 cpu loss 'cpu loss' net
      $'\t' '%s' '$(id)' '-')

ecases=(
	"--reps 0" "--reps x" "--reps" "--secs 0" "--secs 3601" "--rate 0"
	"--rate 1e6" "--rate 10000001" "--sizes ''" "--sizes 23" "--sizes 1473"
	"--sizes '64 x'" "--configs ''" "--configs enso" "--configs dpdk@privring"
	"--configs enso@privring" "--configs udp@enso" "--configs xdp@privring"
	"--configs enso@enso/0" "--configs enso@enso/17" "--configs 'udp@privring x'"
	"--ring 100" "--ring 32" "--ring 8192" "--buf-kb 8" "--buf-kb 3000"
	"--buf-kb 100" "--idle-us -1" "--idle-us 100001" "--app-cpu x"
	"--app-cpu 1 --peer-cpu 1" "--app-cpu 99999" "--bogus" "stray"
)
eopts=(--reps --secs --rate --sizes --configs --ring --buf-kb --idle-us
       --app-cpu --peer-cpu --bogus -h)
# shellcheck disable=SC2016 # '$(id)' stays unexpanded: a value to refuse
evals=(0 1 -1 2 24 23 64 1472 1473 3600 3601 x '' ' ' 512 100 2048 4096
       enso@enso enso@enso/4 enso@enso/17 udp@privring xdp-zc@rxbisect
       'enso@enso udp@privring' udp@enso 100000 100001 '64 1472' '$(id)' '-')

# check ARGS...: exit 2 and one tls_bench: line, or the root check's
# refusal (NAME=enso_bench, PROG=$eprog: enso_bench.sh's)
check() {
	local out rc name=${NAME:-tls_bench}
	out=$("${as_user[@]}" timeout 20 bash "${PROG:-$prog}" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $out == "$name: "* ]]; then
		return 0
	fi
	if [ "$rc" = 2 ] && [[ $out == "$name.sh: must run as root"* ]]; then
		return 0
	fi
	echo "# exit $rc: $(head -c 300 <<<"$out" | head -2 | tr '\n' ' ')"
	return 1
}

result() {	# OK DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
echo "1..$((${#cases[@]} + 3 + ${#ecases[@]} + 3))"
[ -r "$prog" ] || { echo "Bail out! no $prog"; exit 1; }
[ -r "$eprog" ] || { echo "Bail out! no $eprog"; exit 1; }
for c in "${cases[@]}"; do
	eval "set -- $c"
	out=$("${as_user[@]}" timeout 20 bash "$prog" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] && [[ $out == tls_bench:\ * ]]
	result $? "tls_bench.sh $c: exit 2 ($rc), $(head -1 <<<"$out" | cut -c1-80)"
done
"${as_user[@]}" timeout 20 bash "$prog" --help 2>&1 | grep -q -- '--loss-dirs'
result $? "tls_bench.sh --help: the options, exit 0"
out=$("${as_user[@]}" timeout 20 bash "$prog" --parts loss --loss '0 r2' --loss-dirs rx 2>&1)
rc=$?
[ "$rc" = 2 ] && [[ $out == "tls_bench.sh: must run as root"* ]]
result $? "a valid command line reaches the root check (exit $rc)"

# the fuzz: up to 4 options a command line, values from the dictionary
RANDOM=$seed
tries=0 bad=0
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ]; do
	args=()
	for _ in $(seq 1 $((RANDOM % 4 + 1))); do
		args+=("${opts[RANDOM % ${#opts[@]}]}")
		[ $((RANDOM % 8)) = 0 ] || args+=("${vals[RANDOM % ${#vals[@]}]}")
	done
	tries=$((tries + 1))
	if [ "${args[*]}" != -h ] && [[ " ${args[*]} " != *" -h "* ]]; then
		check "${args[@]}" || { bad=$((bad + 1)); printf '# %q ' "${args[@]}"; echo; }
	fi
done
[ "$bad" = 0 ]
result $? "fuzz: $tries command lines in ${secs}s (FUZZ_SEED=$seed), $bad wrong"

for c in "${ecases[@]}"; do
	eval "set -- $c"
	out=$("${as_user[@]}" timeout 20 bash "$eprog" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] && [[ $out == enso_bench:\ * ]]
	result $? "enso_bench.sh $c: exit 2 ($rc), $(head -1 <<<"$out" | cut -c1-80)"
done
"${as_user[@]}" timeout 20 bash "$eprog" --help 2>&1 | grep -q -- '--idle-us'
result $? "enso_bench.sh --help: the options, exit 0"
out=$("${as_user[@]}" timeout 20 bash "$eprog" --configs 'enso@enso/4 udp@privring' --sizes '24 1472' 2>&1)
rc=$?
[ "$rc" = 2 ] && [[ $out == "enso_bench.sh: must run as root"* ]]
result $? "enso_bench.sh: a valid command line reaches the root check (exit $rc)"
tries=0 bad=0
end=$((SECONDS + secs / 2))
while [ $SECONDS -lt $end ]; do
	args=()
	for _ in $(seq 1 $((RANDOM % 4 + 1))); do
		args+=("${eopts[RANDOM % ${#eopts[@]}]}")
		[ $((RANDOM % 8)) = 0 ] || args+=("${evals[RANDOM % ${#evals[@]}]}")
	done
	tries=$((tries + 1))
	if [[ " ${args[*]} " != *" -h "* ]]; then
		NAME=enso_bench PROG=$eprog check "${args[@]}" ||
			{ bad=$((bad + 1)); printf '# %q ' "${args[@]}"; echo; }
	fi
done
[ "$bad" = 0 ]
result $? "enso_bench.sh fuzz: $tries command lines in $((secs / 2))s (FUZZ_SEED=$seed), $bad wrong"
echo "# $((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
