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
# warnings (WARNING:, BUG:, Call Trace, refcount_t, "leaked", "stalled pool
# shutdown"), which fail the test.
#
# Runs inside the test VM (tools/vm/run-vm.sh -- selftests/run_kselftest.sh)
# or as root on a host where the rxbisect module can be loaded.
#
# Environment:
#   RXB_SELFTEST_DIR   test directory (default: drivers/net/rxbisect here)
#   RXB_TEST_TIMEOUT   per-test timeout in seconds (default: "timeout=" in the
#                      directory's "settings" file, else 300)
#   RXB_DMESG_CHECK=0  do not check dmesg
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
DMESG_RE='WARNING:|BUG:|stalled pool shutdown|Call Trace|refcount_t|leaked'
DMESG_OK=
if [ "${RXB_DMESG_CHECK:-1}" != 0 ] && [ -w /dev/kmsg ] && dmesg >/dev/null 2>&1; then
	DMESG_OK=1
fi

LOG=$(mktemp "${TMPDIR:-/tmp}/rxb-kselftest.XXXXXX")
trap 'rm -f "$LOG"' EXIT

pass=0 fail=0 skip=0 n=0
echo "TAP version 13"
echo "1..${#TESTS[@]}"
[ -z "$DMESG_OK" ] && echo "# dmesg check disabled (RXB_DMESG_CHECK=0, or no root: needs /dev/kmsg and dmesg)"

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

	# timeout(1) without --foreground runs the test in a process group of
	# its own and kills all of it on expiry
	( cd "${t%/*}" && exec timeout -k 10 "$TIMEOUT" "./$name" ) </dev/null 2>&1 |
		tee "$LOG" | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}

	dmesg_bad=
	if [ -n "$DMESG_OK" ]; then
		new=$(dmesg 2>/dev/null | awk -v m="$marker" 'f { print } index($0, m) { f = 1 }')
		if ! dmesg 2>/dev/null | grep -qF "$marker"; then
			echo "# dmesg: test marker lost (log wrapped?), checking the whole log"
			new=$(dmesg 2>/dev/null)
		fi
		bad=$(grep -E "$DMESG_RE" <<<"$new" | grep -vF 'rxb-kselftest: [')
		if [ -n "$bad" ]; then
			dmesg_bad=1
			echo "# dmesg: new kernel warnings during $name:"
			sed 's/^/# dmesg: /' <<<"$bad"
			echo "# dmesg: full log since the test started (last 200 lines):"
			tail -n 200 <<<"$new" | sed 's/^/# dmesg| /'
		fi
	fi

	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "#"
		echo "not ok $n $hdr # TIMEOUT $TIMEOUT seconds"
		fail=$((fail + 1))
	elif [ -n "$dmesg_bad" ]; then
		echo "not ok $n $hdr # kernel warnings in dmesg (exit=$rc)"
		fail=$((fail + 1))
	elif [ $rc -eq 0 ]; then
		echo "ok $n $hdr"
		pass=$((pass + 1))
	elif [ $rc -eq 4 ]; then
		# the reason: the test's last "SKIP" diagnostic, if any
		why=$(grep 'SKIP' "$LOG" | tail -n1 | sed -E 's/.*SKIP[]:)]* *//')
		[ -n "$why" ] || why=$(grep -iE '^#* *skip' "$LOG" | tail -n1 | sed -E 's/^#+ *//')
		echo "ok $n $hdr # SKIP${why:+ $why}"
		skip=$((skip + 1))
	else
		echo "not ok $n $hdr # exit=$rc"
		fail=$((fail + 1))
	fi
done

echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ $fail -eq 0 ]
