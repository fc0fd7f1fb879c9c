#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the rxbisect-sim command line: every case must stop with
# exit status 2 and a message naming the option (and, for values, the
# accepted range) before any simulation, never crash, hang, leak or run a
# command.  A few good command lines must still work.  KTAP, one line per
# case; last line "# Totals: pass:N fail:N skip:0".
#
# Usage: test_cli.sh BINARY   (the plain or the ASan/UBSan build)

set -u
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Anything a label managed to run would land here.
cd "$tmp" || exit 1
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Runs that pass the checks: short.
small=(--packets 3000 --warmup 0 --columns "gbps,drop_pct")

n=0 pass=0 fail=0
declare -a lines

# check WANT_RC WANT_MSG NAME -- ARGS...: exit status and a stderr substring.
check() {
	local want_rc=$1 want_msg=$2 name=${3//$'\n'/\\n} rc err
	shift 4
	n=$((n + 1))
	timeout 120 "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	err=$(head -c 2000 "$tmp/err")
	if [ "$rc" -ne "$want_rc" ]; then
		lines+=("# $name: exit $rc, want $want_rc; stderr: ${err//$'\n'/ | }")
		lines+=("not ok $n $name")
		fail=$((fail + 1))
	elif [ -n "$want_msg" ] && ! grep -qF -- "$want_msg" "$tmp/err"; then
		lines+=("# $name: stderr lacks \"$want_msg\": ${err//$'\n'/ | }")
		lines+=("not ok $n $name")
		fail=$((fail + 1))
	elif grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then
		lines+=("# $name: sanitizer report: ${err//$'\n'/ | }")
		lines+=("not ok $n $name")
		fail=$((fail + 1))
	else
		lines+=("ok $n $name")
		pass=$((pass + 1))
	fi
}

bad() {	# bad WANT_MSG ARGS...
	local msg=$1
	shift
	check 2 "$msg" "bad: $*" -- --packets 2000 "$@"
}

# The issue's list.
bad '--change 0.5:budget=100000: --budget "100000": want an integer in [1, 256]' \
	--change 0.5:budget=100000
bad '--ports cannot change during a run' --change 0.5:ports=8
bad '--warmup "nan": want a number in [0, 1)' --warmup nan
bad '--dram-ns "-90": want a number in [0, 100000]' --dram-ns -90
bad '--llc-ns "-1": want a number in [0, 100000]' --llc-ns -1
bad '--irq-us "-1": want a number in [0, 1000000]' --irq-us -1
bad '--flows "4294967295": want an integer in [0, 1048576]' --flows 4294967295
bad '--wss-window "2147483648": want an integer in [2, 4194304]' --wss-window 2147483648
bad '--llc "1024G": want a size (bytes, suffix K, M, G or T) in [64K, 1G]' --llc 1024G
# Numbers that are not, or not in range.
bad '--load "": want a number' --load ''
bad '--cores "": want an integer' --cores ''
bad '--llc "": want a size' --llc ''
bad '--ghz "1e400": want a number' --ghz 1e400
bad '--ghz "1e-400": want a number' --ghz 1e-400
bad '--packets "1e400": want an integer' --packets 1e400
bad '--load "0x": want a number' --load 0x
bad '--ring "0x": want an integer' --ring 0x
bad '--ring "0xg": want an integer' --ring 0xg
bad '--cores "0": want an integer in [1, 64]' --cores 0
bad '--cores "65": want an integer in [1, 64]' --cores 65
bad '--cores "-1": want an integer' --cores -1
bad '--cores " 8": want an integer' --cores ' 8'
bad '--cores "8 ": want an integer' --cores '8 '
bad '--cores "8.5": want an integer' --cores 8.5
bad '--packets "99999999999": want an integer in [1, 10000000000]' --packets 99999999999
bad '--packets "18446744073709551616": want an integer' --packets 18446744073709551616
bad '--packets "0": want an integer in [1, 10000000000]' --packets 0
bad '--load "inf": want a number' --load inf
bad '--load "-inf": want a number' --load -inf
bad '--mlp "nan": want a number in [1, 1024]' --mlp nan
bad '--mlp "0.5": want a number in [1, 1024]' --mlp 0.5
bad '--load "1.5": want a number in [1e-06, 1]' --load 1.5
bad '--load "0": want a number' --load 0
bad '--hold-us "-0.1": want a number' --hold-us -0.1
bad '--refill-retry-us "0": want a number' --refill-retry-us 0
bad '--mem-gbs "-1": want a number' --mem-gbs -1
bad '--link-gbps "0": want a number' --link-gbps 0
bad '--app-mem "2T": want a size' --app-mem 2T
bad '--llc "22Q": want a size' --llc 22Q
bad '--llc "1.5": want a size' --llc 1.5
bad '--budget "257": want an integer in [1, 256]' --budget 257
bad '--pool-cache "0": want an integer in [1, 65536]' --pool-cache 0
bad '--seed "-1": want an integer' --seed -1
bad '--target "-2": want an integer in [-1, 63]' --target -2
bad '--target 8: want -1 or a queue of a port, 0..7' --target 8
bad '--rewrite "maybe": want 1, 0, yes, no' --rewrite=maybe
bad '--arrival "uniform": want one of const, poisson, burst, trace' --arrival uniform
bad '--model "nosuch": no such ring model' --model nosuch
bad '--model: at most 31 bytes' --model "$(printf 'x%.0s' {1..40})"
bad '--xfer-ns "-1": want a number in [0, 100000]' --xfer-ns -1
bad '--atomic-ns "nan": want a number in [0, 100000]' --atomic-ns nan
bad '--fence-ns "1e6": want a number in [0, 100000]' --fence-ns 1e6
bad '--alloc-ns "inf": want a number' --alloc-ns inf
bad '--doorbell-ns "": want a number' --doorbell-ns ''
bad '--sync-cost "2": want 1, 0, yes, no' --sync-cost=2
bad '--change 0.5:xfer-ns=-5: --xfer-ns "-5": want a number in [0, 100000]' \
	--change 0.5:xfer-ns=-5
# CEIO and the on-NIC memory tier.
bad '--ceio-budget "2G": want a size (bytes, suffix K, M, G or T) in [0, 1G]' --ceio-budget 2G
bad '--ceio-budget "-1": want a size' --ceio-budget -1
bad '--ceio-budget "nan": want a size' --ceio-budget nan
bad '--ceio-budget "1.5": want a size' --ceio-budget 1.5
bad '--nicmem "1.5G": want a size (bytes, suffix K, M, G or T) in [0, 1G]' --nicmem 1.5G
bad '--nicmem "-64M": want a size' --nicmem -64M
bad '--nicmem "18446744073709551616": want a size' --nicmem 18446744073709551616
bad '--nicmem-fetch-ns "nan": want a number in [0, 100000]' --nicmem-fetch-ns nan
bad '--nicmem-fetch-ns "-1": want a number in [0, 100000]' --nicmem-fetch-ns -1
bad '--nicmem-fetch-ns "1e6": want a number in [0, 100000]' --nicmem-fetch-ns 1e6
bad '--nicmem-fetch-ns "inf": want a number' --nicmem-fetch-ns inf
bad '--ceio-fetch "maybe": want one of sync, async' --ceio-fetch maybe
bad '--ceio-force-slow "2": want 1, 0, yes, no' --ceio-force-slow=2
bad '--ceio-budget 1024: want at least a buffer (2048 B) per port' --model ceio --ceio-budget 1K
bad '--ceio-budget 0: want at least a buffer (2048 B) per port' --model ceio --ddio-ways 0
bad '--ceio-force-slow: want --nicmem above 0' --model ceio --ceio-force-slow --nicmem 0
bad '--ring 65536 x --cores 16: ceio takes at most 262144 entries' --model ceio --ring 65536
bad '--nicmem cannot change during a run' --change 0.5:nicmem=1M
bad '--ceio-fetch cannot change during a run' --change 0.5:ceio-fetch=async
# The header/data split: values, and the module's rules (rxb_model_validate()).
bad '--nicmem-split "2": want 1, 0, yes, no' --nicmem-split=2
bad '--nicmem-split-hdr "41": want an integer in [42, 256]' --nicmem-split-hdr 41
bad '--nicmem-split-hdr "257": want an integer in [42, 256]' --nicmem-split-hdr 257
bad '--nicmem-split-hdr "": want an integer' --nicmem-split-hdr ''
bad '--nicmem-split: want --nicmem above 0' --nicmem-split --headroom 64 --nicmem 0
bad '--nicmem-split: want --headroom 16 or more' --nicmem-split
bad '--nicmem-split: want --headroom 16 or more' --nicmem-split --headroom 15
bad '--nicmem-split: --model shring-batched has no buffer per packet' \
	--nicmem-split --headroom 64 --model shring-batched
bad '--nicmem-split: --model enso has no buffer per packet' \
	--nicmem-split --headroom 64 --model enso
bad '--nicmem-split cannot change during a run' --headroom 64 --change 0.5:nicmem-split=1
bad '--nicmem-split: want --headroom 16 or more, not 0 (run nicmem-split=1)' \
	--sweep nicmem-split=0,1
# Rules between options.
bad '--cores 12: want a multiple of --ports 8' --cores 12 --ports 8
bad '--ddio-ways 12: at most --llc-ways 11' --ddio-ways 12
bad '--wss-window 1000: want a power of two' --wss-window 1000
bad '--buf-stride 100: want a multiple of 64' --buf-stride 100
bad '--pkt-size 3000: want at most --buf-stride - --headroom (2048)' --pkt-size 3000
bad '--headroom 2048: want at most --buf-stride 2048 - 64' --headroom 2048
bad '--extra 20:...: want a core below --cores 16' --extra 20:100
bad '--extra "3:-1": want CORE:CYCLES' --extra 3:-1
bad '--extra "3::1": want CORE:CYCLES' --extra 3::1
bad '--extra "64:1": want CORE:CYCLES' --extra 64:1
bad '--extra "1:2:3:4": want CORE:CYCLES' --extra 1:2:3:4
bad '--arrival trace needs --trace FILE' --arrival trace
bad '--trace /nonexistent/x: No such file or directory' --arrival trace --trace /nonexistent/x
bad '--trace /dev/zero: want a regular file' --arrival trace --trace /dev/zero
bad '--trace /: want a regular file' --arrival trace --trace /
# Traces that are not one (issue 32 item 9): refused before any run, with
# the file and the line, not run to 0.0 Gbit/s.
printf '' >"$tmp/empty.tr"
printf '# only a comment\n\n' >"$tmp/comment.tr"
printf 'garbage in here\n' >"$tmp/junk.tr"
printf '100 1 nan\n' >"$tmp/nan.tr"
printf '100 1 NaN 0\n' >"$tmp/nan2.tr"
printf -- '-100 1 1500\n' >"$tmp/neg.tr"
printf '100 -1 1500\n' >"$tmp/negflow.tr"
printf '100 1 0\n' >"$tmp/zero.tr"
printf '100 1 9001\n' >"$tmp/huge.tr"
printf '100 1 1500 2\n' >"$tmp/port.tr"
printf '100 1 1500 0 9\n' >"$tmp/five.tr"
printf '100 1 1500x\n' >"$tmp/suffix.tr"
printf '100 1\n200 2\n1e3 3\n' >"$tmp/third.tr"
bad "--trace $tmp/empty.tr: no packet in it" --arrival trace --trace "$tmp/empty.tr"
bad "--trace $tmp/comment.tr: no packet in it" --arrival trace --trace "$tmp/comment.tr"
for f in junk nan nan2 neg negflow zero huge port five suffix; do
	bad "--trace $tmp/$f.tr:1: want TIME_NS FLOW [LEN [PORT]]" --arrival trace \
		--trace "$tmp/$f.tr"
done
bad "--trace $tmp/third.tr:3: want TIME_NS FLOW [LEN [PORT]]" --arrival trace \
	--trace "$tmp/third.tr"
# What the ring model refuses names the option (issue 32 item 9).
bad '--ring 3: ring size must be a power of two in 64..8192' --ring 3
bad '--ring 3: ring size must be a power of two in 64..8192' --model shring --ring 3
bad '--ax 100: Ax ring size must be a power of two in 64..8192' --model rxbisect --ax 100
bad '--ring 3: ring size must be a power of two in 64..8192' --model enso --ring 3
bad '--ceio-budget 1024: want at least a buffer (2048 B) per port' \
	--model ceio --ceio-budget 1K
# --seed's range: 2^64 - 1, as it accepts.
bad '--seed "18446744073709551616": want an integer in [0, 18446744073709551615]' \
	--seed 18446744073709551616
bad '--seed "-1": want an integer in [0, 18446744073709551615]' --seed -1
# The new options' ranges.
bad '--desc-reads "0": want an integer in [1, 32]' --desc-reads 0
bad '--desc-reads "33": want an integer in [1, 32]' --desc-reads 33
bad '--tx-ring "0": want an integer in [1, 65536]' --tx-ring 0
bad '--tx-iqueue "-1": want an integer in [0, 65536]' --tx-iqueue -1
bad '--nic-mpps "nan": want a number in [0, 10000]' --nic-mpps nan
bad '--mem-burst-ns "-1": want a number in [0, 1000000]' --mem-burst-ns -1
bad '--tx-ring cannot change during a run' --change 0.5:tx-ring=8
# --change
bad '--change "0.5:foo=1": no option --foo' --change 0.5:foo=1
bad '--change "0.5:cores=4": --cores cannot change during a run' --change 0.5:cores=4
bad '--change "1.5:load=0.5": AT must be a number in [0, 1]' --change 1.5:load=0.5
bad '--change "nan:load=0.5": AT must be a number in [0, 1]' --change nan:load=0.5
bad '--change ":load=0.5": AT must be a number' --change :load=0.5
bad '--change "0.5:load": want AT:OPT=VALUE' --change 0.5:load
bad '--change "0.5:=1": want AT:OPT=VALUE' --change 0.5:=1
bad '--change "": want AT:OPT=VALUE' --change ''
bad '--change 0.5:load=2: --load "2": want a number' --change 0.5:load=2
bad '--change 0.5:extra=40:5: --extra 40:...: want a core below --cores 16' \
	--change 0.5:extra=40:5
nine=()
for i in 1 2 3 4 5 6 7 8 9; do nine+=(--change "0.$i:load=0.5"); done
bad '--change: at most 8 changes' "${nine[@]}"
# Sweeps, series, cases, output options.
bad '--sweep given twice' --sweep ring=64 --sweep ring=128
bad '--series given twice' --series ring=64 --series ring=128
bad '--sweep "ring=": want OPT=V,V,... without empty values' --sweep ring=
bad '--sweep "ring=64,,128": want OPT=V,V,... without empty values' --sweep ring=64,,128
bad '--sweep "=64": want OPT=V,V,...' --sweep =64
bad '--sweep: --nosuch: no such option' --sweep nosuch=1
bad '--sweep: --ring "x": want an integer' --sweep ring=64,x
bad '--sweep ring: at most 64 values' --sweep "ring=$(seq -s, 64 128)"
bad '--sweep x --series/--case: 4096 runs, at most 1024' \
	--sweep "ring=$(seq -s, 1 64)" --series "cycles=$(seq -s, 1 64)"
bad '--case "nolabel": want LABEL:OPT=V' --case nolabel
bad '--case ":ring=64": want LABEL:OPT=V' --case :ring=64
bad '--case "a:ring": want LABEL:OPT=V' --case a:ring
bad 'a: --ring "0": want an integer' --case a:ring=0
bad '--cores 13: want a multiple of --ports 2 (run a)' --case a:cores=13
bad '--columns: no metric "nosuch"' --columns gbps,nosuch
bad '--columns: no metric ""' --columns ''
bad '--plot-y: at most 8 metrics' --plot-y gbps,gbps,gbps,gbps,gbps,gbps,gbps,gbps,gbps
bad '--plot needs --sweep' --plot "$tmp/x.png"
bad '--plot: want a file name without control characters' --sweep ring=64 --plot "$tmp/a
b.png"
bad 'unexpected argument "stray"' stray
# The NIC's descriptor cache: ranges, and a prefetch read must fit it.
bad '--desc-batch "0": want an integer in [1, 32]' --desc-batch 0
bad '--desc-batch "33": want an integer in [1, 32]' --desc-batch 33
bad '--desc-cache "0": want an integer in [1, 4096]' --desc-cache 0
bad '--desc-thresh "-1": want an integer in [0, 4096]' --desc-thresh -1
bad '--desc-batch 16: at most --desc-cache 8' --desc-batch 16 --desc-cache 8
bad '--desc-thresh 58: at most --desc-cache - --desc-batch + 1 = 57' --desc-thresh 58
bad '--desc-thresh 10: at most --desc-cache - --desc-batch + 1 = 9' \
	--desc-cache 16 --desc-thresh 10
bad '--desc-prefetch' --desc-prefetch=2
# Completion write-back (at most one 256 B TLP of 16 B entries) and the
# DMA engines overlapping descriptor waits (at most one per queue slot).
bad '--wb-batch "0": want an integer in [1, 16]' --wb-batch 0
bad '--wb-batch "17": want an integer in [1, 16]' --wb-batch 17
bad '--wb-batch "-1": want an integer in [1, 16]' --wb-batch -1
bad '--wb-batch "nan": want an integer in [1, 16]' --wb-batch nan
bad '--wb-batch "1e99": want an integer in [1, 16]' --wb-batch 1e99
bad '--wb-batch "8x": want an integer in [1, 16]' --wb-batch 8x
bad '--wb-batch "": want an integer in [1, 16]' --wb-batch ''
bad '--wb-batch "2.5": want an integer in [1, 16]' --wb-batch 2.5
bad '--dma-engines "65": want an integer in [0, 64]' --dma-engines 65
bad '--dma-engines "-1": want an integer in [0, 64]' --dma-engines -1
bad '--dma-engines "NaN": want an integer in [0, 64]' --dma-engines NaN
bad '--dma-engines "99999999999999999999": want an integer in [0, 64]' \
	--dma-engines 99999999999999999999
bad '--dma-engines "port": want an integer in [0, 64]' --dma-engines port
bad '--wb-batch cannot change during a run' \
	--change 0.5:wb-batch=2
bad 'see --help' --nosuch-option
bad 'see --help' --ring
bad 'see --help' --help=1

# A run that measured nothing exits 1 with a warning its CSV row carries
# (issue 32 item 9): three packets end the run before any is processed.
check 1 'run 1: warning: nothing delivered' "measured nothing: exit 1, warned" -- \
	--packets 3 --warmup 0 --csv
if ! tail -n1 "$tmp/out" | grep -q ',nothing delivered$' ||
   ! head -n1 "$tmp/out" | grep -q ',warning$'; then
	lines+=("# CSV without the warning column: $(tr '\n' '|' <"$tmp/out")")
	lines[-2]="not ok $n measured nothing: exit 1, warned"
	pass=$((pass - 1)) fail=$((fail + 1))
fi
printf '100 1\n# a comment\n\n2000 2 64 1\n' >"$tmp/good.tr"
check 0 '' "good: a trace with comments, looped" -- "${small[@]}" --arrival trace \
	--trace "$tmp/good.tr" --trace-loop --csv
if ! tail -n1 "$tmp/out" | grep -q ',$'; then
	lines+=("# a good run warned: $(tr '\n' '|' <"$tmp/out")")
	lines[-2]="not ok $n good: a trace with comments, looped"
	pass=$((pass - 1)) fail=$((fail + 1))
fi

# Duplicated options: the last one counts.
check 0 '' "duplicate: --cores 8 --cores 4 runs with 4" -- "${small[@]}" \
	--cores 8 --cores 4 --per-queue
if [ "$(grep -cE '^ +[0-9]+ +[0-9]+' "$tmp/out")" -ne 4 ]; then
	lines+=("# expected 4 queues: $(tr '\n' '|' <"$tmp/out")")
	lines[-2]="not ok $n duplicate: --cores 8 --cores 4 runs with 4"
	pass=$((pass - 1)) fail=$((fail + 1))
fi
# Good command lines still run, --change included.
check 0 '' "good: --seed 2^64-1, --load 1e-3, --packets 3e3" -- "${small[@]}" \
	--seed 18446744073709551615 --load 1e-3 --packets 3e3
check 0 '' "good: --change live options in any order" -- "${small[@]}" \
	--change 0.6:budget=64 --change 0.3:load=0.5 --change 0.5:extra=3:100:2 \
	--change 0.7:rewrite=0
check 0 '' "good: model-code costs, switched off and on mid-run" -- "${small[@]}" \
	--model shring --xfer-ns 0 --doorbell-ns 1e4 --change 0.3:sync-cost=0 \
	--change 0.6:sync-cost=1 --columns model_cyc,xfers,locks
check 0 '' "good: descriptor cache off, on demand, and at its limits" -- "${small[@]}" \
	--model shring-list --sweep desc-prefetch=0,1 --desc-thresh 0 --desc-batch 32 \
	--desc-cache 32 --columns gbps,desc_wait_pct,desc_wait_us,desc_miss_pct,desc_rd_pkt
check 0 '' "good: write-back batches and DMA engines at their limits" -- \
	"${small[@]}" --model shring-list --share 2 --wb-batch 16 \
	--sweep dma-engines=0,1,64 --columns gbps,cqe_wr_pkt,desc_wait_pct
check 0 '' "good: --llc 1G --llc-ways 16 --ddio-ways 16" -- "${small[@]}" \
	--llc 1G --llc-ways 16 --ddio-ways 16
check 0 '' "good: ceio, async fetch, a 1 MiB budget and a 16 MiB tier" -- "${small[@]}" \
	--model ceio --ceio-fetch async --ceio-budget 1M --nicmem 16M --nicmem-fetch-ns 0
check 0 '' "good: ceio, slow path only, sync fetch of 2 us" -- "${small[@]}" \
	--model ceio --ceio-force-slow --ddio-ways 0 --nicmem-fetch-ns 2000
check 0 '' "good: header/data split, headers only and to a socket, a 64 KiB tier" -- \
	"${small[@]}" --headroom 64 --nicmem-split --nicmem 64K --sweep touch-lines=0,1 \
	--columns wss_mib,nicmem_host_bytes,nicmem_nic_bytes,nicmem_split_fallback,buf_errs
check 0 '' "good: header/data split without the PCIe model, under ceio" -- "${small[@]}" \
	--headroom 16 --nicmem-split --nicmem-split-hdr 42 --pcie-gbps 0 --model ceio
check 0 '' "good: --sweep with a --case label full of gnuplot syntax" -- \
	"${small[@]}" --sweep ring=64,128 --case "it's \`touch $tmp/pwned1\` @x \$1:cycles=1000"
check 0 '' "good: --csv quotes labels with commas and quotes" -- "${small[@]}" --csv \
	--sweep ring=64 --case 'a,"b":cycles=900'
if ! grep -qF 'privring,"a,""b""",64,' "$tmp/out"; then
	lines+=("# CSV row not quoted: $(tr '\n' '|' <"$tmp/out")")
	lines[-2]="not ok $n good: --csv quotes labels with commas and quotes"
	pass=$((pass - 1)) fail=$((fail + 1))
fi

# Plots: labels with gnuplot syntax stay text, nothing runs.
if command -v gnuplot >/dev/null; then
	evil="x' ; system('touch $tmp/pwned2') ; print 'y \`touch $tmp/pwned3\` @a"
	check 0 '' "plot: title, case label and sweep value cannot inject" -- \
		"${small[@]}" --sweep model=privring,rxbisect --case "$evil:cycles=1000" \
		--plot "p'\`touch pwned4\`.png" --plot-title "$evil" \
		--plot-y gbps,drop_pct
	n=$((n + 1))
	if ls pwned* "$tmp"/pwned* >/dev/null 2>&1 || [ ! -s "p'\`touch pwned4\`.png" ] ||
	   [ ! -s "p'\`touch pwned4\`.dat" ]; then
		lines+=("# injected or no plot: $(ls "$tmp")")
		lines+=("not ok $n plot: no file created by labels, PNG and data written")
		fail=$((fail + 1))
	else
		lines+=("ok $n plot: no file created by labels, PNG and data written")
		pass=$((pass + 1))
	fi
else
	n=$((n + 1))
	lines+=("ok $n plot: injection # SKIP gnuplot not installed")
fi

echo "KTAP version 1"
echo "1..$n"
printf '%s\n' "${lines[@]}"
echo "# Totals: pass:$pass fail:$fail skip:$((n - pass - fail))"
[ "$fail" -eq 0 ]
