#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_kselftest.sh [-t SECONDS] [TEST...]
#
# kselftest-style runner for the rxbisect selftests: runs every executable
# *.sh in selftests/drivers/net/rxbisect (or the TESTs named, by file name or
# path), each with a timeout, and prints one KTAP document on stdout with each
# test's own output indented as "# " lines, as the kernel's
# tools/testing/selftests/kselftest/runner.sh does.  Helper libraries
# (lib.sh, lib_*.sh, *_lib.sh) are not tests.
#
# Exit codes of a test: 0 pass, 4 skip, anything else fail; a test that
# times out fails.  After each test, dmesg is checked for new kernel
# warnings (lib_kmsg.sh's RXB_SPLAT_RE: WARNING:, BUG:, oopses, refcount_t,
# "leaked", "stalled pool shutdown", and the debug kernel's KASAN, lockdep,
# ODEBUG, UBSAN reports), which fail the test.
#
# On a kernel with kmemleak (/sys/kernel/debug/kmemleak) and/or lockdep
# (/proc/lockdep_stats), i.e. the debug kernel of tools/vm/debug-kernel, two
# more tests follow the selected ones: "kmemleak" unloads rxbisect, scans,
# and fails on unreferenced objects allocated from rxbisect (boot-time
# suspects are cleared before the first test); "lockdep" fails if lockdep
# turned itself off (after a splat, possibly during boot), since the run
# then had no lock checking.
#
# Runs inside the test VM (tools/vm/run-vm.sh -- selftests/run_kselftest.sh)
# or as root on a host where the rxbisect module can be loaded.
#
# Environment:
#   RXB_SELFTEST_DIR   test directory (default: drivers/net/rxbisect here)
#   RXB_TEST_TIMEOUT   per-test timeout in seconds (default: "timeout=" in the
#                      directory's "settings" file, else 300)
#   RXB_TIMEOUT_SCALE  multiplies that timeout (integer, default 1; the debug
#                      kernel runs several times slower: run-vm.sh sets 3)
#   RXB_KMEMLEAK=0     skip the kmemleak test (RXB_LOCKDEP=0: the lockdep one)
#   RXB_DMESG_CHECK=0  do not check dmesg
#   RXB_STATS=0        lib.sh reads counters with ethtool -S, not through
#                      rxb_stats.py (the same ioctls, without an exec)
#
# Each result line ends with the test's wall time, "time=Ns" (as the unit
# stage prints it), and the CPU time all CPUs were busy meanwhile,
# "busy=Ns" (from /proc/stat): "ok 3 NAME # time=12s busy=9s",
# "ok 4 NAME # SKIP why time=1s busy=1s", "not ok 5 NAME # exit=1 time=40s busy=20s".
#
# The last line is "# Totals: pass:N fail:N xfail:0 xpass:0 skip:N error:0";
# the exit status is 1 if a test failed, else 0.

set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIR=${RXB_SELFTEST_DIR:-$HERE/drivers/net/rxbisect}
TIMEOUT=${RXB_TEST_TIMEOUT:-}

while getopts "t:h" opt; do
	case $opt in
	t) TIMEOUT=$OPTARG ;;
	*) sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

if [ ! -d "$DIR" ]; then
	echo "run_kselftest.sh: no test directory $DIR" >&2
	exit 2
fi
DIR=$(cd "$DIR" && pwd)
if [ -z "$TIMEOUT" ] && [ -r "$DIR/settings" ]; then
	TIMEOUT=$(sed -n 's/^timeout=\([0-9]\+\).*/\1/p' "$DIR/settings" | tail -n1)
fi
TIMEOUT=${TIMEOUT:-300}
SCALE=${RXB_TIMEOUT_SCALE:-1}
case $SCALE in ''|*[!0-9]*|0) echo "run_kselftest.sh: bad RXB_TIMEOUT_SCALE=$SCALE" >&2; exit 2 ;; esac
TIMEOUT=$((TIMEOUT * SCALE))
# "drivers/net/rxbisect" for the header lines, as runner.sh prints it
COLLECTION=${DIR#"$HERE"/}

is_lib() {
	case ${1##*/} in
	lib.sh|lib_*.sh|*_lib.sh|*.lib.sh) return 0 ;;
	esac
	return 1
}

TESTS=()
MISSING=()
if [ $# -gt 0 ]; then
	for t in "$@"; do
		if [ -f "$t" ]; then
			TESTS+=("$(cd "$(dirname "$t")" && pwd)/${t##*/}")
		elif [ -f "$DIR/$t" ]; then
			TESTS+=("$DIR/$t")
		elif [ -f "$DIR/$t.sh" ]; then
			TESTS+=("$DIR/$t.sh")
		else
			TESTS+=("$t")
			MISSING+=("$t")
		fi
	done
else
	for t in "$DIR"/*.sh; do
		[ -f "$t" ] && [ -x "$t" ] && ! is_lib "$t" && TESTS+=("$t")
	done
fi

# dmesg check: a marker is written to /dev/kmsg before each test and the log
# after it is searched.  Needs root (or kernel.dmesg_restrict=0).
# The pattern and the helpers are lib_kmsg.sh's, shared with the tests.
source "$HERE/drivers/net/rxbisect/lib_kmsg.sh" || exit 2
DMESG_OK=
if [ "${RXB_DMESG_CHECK:-1}" != 0 ] && [ -w /dev/kmsg ] && dmesg >/dev/null 2>&1; then
	DMESG_OK=1
fi

LOG=$(mktemp "${TMPDIR:-/tmp}/rxb-kselftest.XXXXXX")
trap 'rm -f "$LOG"' EXIT

# Debug-kernel checks after the tests: kmemleak and lockdep.
KMEMLEAK=/sys/kernel/debug/kmemleak
LOCKDEP=/proc/lockdep_stats
EXTRA=()
[ "${RXB_KMEMLEAK:-1}" != 0 ] && [ -e $KMEMLEAK ] && EXTRA+=(kmemleak)
[ "${RXB_LOCKDEP:-1}" != 0 ] && [ -r $LOCKDEP ] && EXTRA+=(lockdep)

debug_locks() { awk '$1 == "debug_locks:" { print $2 }' $LOCKDEP 2>/dev/null; }

# kmemleak_report: the unreferenced-object records of the last scan, one per
# paragraph (blank-line separated).
kmemleak_report() {
	awk '/^unreferenced object/ && n++ { print "" } { print }' $KMEMLEAK 2>/dev/null
}

# cpu_busy: the CPU time all CPUs spent not idle since boot, in clock
# ticks (/proc/stat: user nice system irq softirq steal).  Against the
# wall time it tells a test that computes from one that waits.
cpu_busy() {
	local _ user nice sys idle iow irq sirq steal
	read -r _ user nice sys idle iow irq sirq steal _ </proc/stat 2>/dev/null &&
		echo $((user + nice + sys + irq + sirq + steal))
}
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)

pass=0 fail=0 skip=0 n=0
echo "TAP version 13"
echo "1..$((${#TESTS[@]} + ${#EXTRA[@]}))"
[ -z "$DMESG_OK" ] && echo "# dmesg check disabled (RXB_DMESG_CHECK=0, or no root: needs /dev/kmsg and dmesg)"
for x in "${EXTRA[@]}"; do
	case $x in
	kmemleak)
		# boot-time suspects (and false positives) are not ours
		t0=$SECONDS
		if echo scan > $KMEMLEAK 2>/dev/null && echo clear > $KMEMLEAK 2>/dev/null; then
			echo "# kmemleak: boot-time suspects cleared ($((SECONDS - t0)) s)"
		else
			echo "# kmemleak: cannot scan (disabled?); the kmemleak test will fail"
		fi ;;
	lockdep)
		[ "$(debug_locks)" = 1 ] ||
			echo "# lockdep: already off before the first test (debug_locks=$(debug_locks)); the lockdep test will fail" ;;
	esac
done

for t in "${TESTS[@]}"; do
	n=$((n + 1))
	name=${t##*/}
	hdr="selftests: $COLLECTION: $name"
	case $t in
	*/*) [ "${t%/*}" != "$DIR" ] && hdr="selftests: ${t%/*}: $name" ;;
	esac
	echo "# $hdr"

	missing=
	for m in "${MISSING[@]}"; do [ "$m" = "$t" ] && missing=1; done
	if [ -n "$missing" ] || [ ! -f "$t" ]; then
		echo "not ok $n $hdr # test not found"
		fail=$((fail + 1))
		continue
	fi
	if [ ! -x "$t" ]; then
		echo "# Warning: file $name is not executable"
		echo "not ok $n $hdr # not executable"
		fail=$((fail + 1))
		continue
	fi

	echo "# timeout set to $TIMEOUT"
	marker="rxb-kselftest: [$$.$n] start $name"
	[ -n "$DMESG_OK" ] && echo "$marker" > /dev/kmsg

	t0=$SECONDS
	b0=$(cpu_busy)
	# timeout(1) without --foreground runs the test in a process group of
	# its own and kills all of it on expiry
	( cd "${t%/*}" && exec timeout -k 10 "$TIMEOUT" "./$name" ) </dev/null 2>&1 |
		tee "$LOG" | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	tm="time=$((SECONDS - t0))s"
	b1=$(cpu_busy)
	[ -n "$b0" ] && [ -n "$b1" ] && tm="$tm busy=$(((b1 - b0) / CLK_TCK))s"

	dmesg_bad=
	if [ -n "$DMESG_OK" ]; then
		# one read: an unreadable log must not pass as a clean one
		new=$(rxb_kmsg_since "$marker")
		drc=$?
		if [ $drc = 3 ]; then
			echo "# dmesg: cannot read the kernel log: $(head -c 200 <<<"$new")"
			dmesg_bad=1
		elif [ $drc = 2 ]; then
			echo "# dmesg: test marker lost ($(wc -l <<<"$new") lines from $(head -n1 <<<"$new" | cut -c1-16)), checking the whole log"
		fi
		if [ $drc != 3 ] && ! bad=$(rxb_kmsg_splats "$new"); then
			dmesg_bad=1
			echo "# dmesg: new kernel warnings during $name:"
			sed 's/^/# dmesg: /' <<<"$bad"
			echo "# dmesg: full log since the test started (last 200 lines):"
			tail -n 200 <<<"$new" | sed 's/^/# dmesg| /'
		fi
	fi

	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "#"
		echo "not ok $n $hdr # TIMEOUT $TIMEOUT seconds $tm"
		fail=$((fail + 1))
	elif [ -n "$dmesg_bad" ]; then
		echo "not ok $n $hdr # kernel warnings in dmesg (exit=$rc) $tm"
		fail=$((fail + 1))
	elif [ $rc -eq 0 ]; then
		echo "ok $n $hdr # $tm"
		pass=$((pass + 1))
	elif [ $rc -eq 4 ]; then
		# the reason: the test's last "SKIP" diagnostic, if any
		why=$(grep 'SKIP' "$LOG" | tail -n1 | sed -E 's/.*SKIP[]:)]* *//')
		[ -n "$why" ] || why=$(grep -iE '^#* *skip' "$LOG" | tail -n1 | sed -E 's/^#+ *//')
		echo "ok $n $hdr # SKIP${why:+ $why} $tm"
		skip=$((skip + 1))
	else
		echo "not ok $n $hdr # exit=$rc $tm"
		fail=$((fail + 1))
	fi
done

# kmemleak: unload rxbisect so that whatever it did not free is unreferenced,
# scan twice (an object must look unreferenced in a scan after the one that
# first saw it to be a stable suspect), and attribute the suspects to
# rxbisect by their allocation backtrace: an rxbisect symbol, or a bare
# module address (the module is gone, so its addresses no longer resolve).
check_kmemleak() {
	local rep ours others t0=$SECONDS

	if grep -q '^rxbisect ' /proc/modules 2>/dev/null; then
		timeout 120 rmmod rxbisect 2>&1 | sed 's/^/# /'
	fi
	if ! { echo scan > $KMEMLEAK && sleep 1 && echo scan > $KMEMLEAK; } 2>/dev/null; then
		echo "# kmemleak: scan failed (kmemleak disabled? see dmesg)"
		dmesg | grep -i kmemleak | tail -n 5 | sed 's/^/# dmesg: /'
		return 1
	fi
	rep=$(kmemleak_report)
	ours=$(awk -v RS= '/rxbisect|\] 0x[0-9a-f]+(\n|$)/ { print; print "" }' <<<"$rep")
	others=$(grep -c '^unreferenced object' <<<"$rep")
	echo "# kmemleak: scanned in $((SECONDS - t0)) s; $others unreferenced object(s) since the boot-time clear"
	if [ -n "$ours" ]; then
		echo "# kmemleak: leaks allocated from rxbisect:"
		head -n 400 <<<"$ours" | sed 's/^/# /'
		return 1
	fi
	if [ "$others" -gt 0 ]; then
		echo "# kmemleak: none from rxbisect; the others (first 60 lines):"
		head -n 60 <<<"$rep" | sed 's/^/# /'
	fi
	return 0
}

check_lockdep() {
	local v
	v=$(debug_locks)
	[ "$v" = 1 ] && return 0
	echo "# lockdep: debug_locks=$v: lockdep turned itself off, so lock checking stopped there;"
	echo "# lockdep: the first report still in the log (the failing test shows it in full):"
	dmesg 2>&1 | grep -m1 -A 40 -E 'WARNING: .*(lock|RCU)|BUG: .*(lock|LOCKDEP)|INFO: .*lock' | sed 's/^/# dmesg| /'
	return 1
}

for x in "${EXTRA[@]}"; do
	n=$((n + 1))
	hdr="selftests: debug: $x"
	echo "# $hdr"
	t0=$SECONDS
	if "check_$x"; then
		echo "ok $n $hdr # time=$((SECONDS - t0))s"
		pass=$((pass + 1))
	else
		echo "not ok $n $hdr # time=$((SECONDS - t0))s"
		fail=$((fail + 1))
	fi
done

echo "# $n tests in $SECONDS s"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ $fail -eq 0 ]
