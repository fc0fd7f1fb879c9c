#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command lines of tools/ksrc.sh, tools/ynl.sh,
# tools/vm/debian-kernel.sh, tools/checkpatch.sh and make's kernel choice
# (the unit stage of make test): bad options, series and files exit 2 (debian-kernel.sh's unknown
# series 1) with a message naming them and write nothing; the queries that only read (--print-dir,
# --check, --help; debian-kernel.sh --source 6.12) answer.  Then FUZZ_SECS (default 5)
# seconds of random arguments to ksrc.sh's read-only modes, seeded
# (FUZZ_SEED, printed): each exits 0, 1 or 2, never anything else, and
# creates nothing under build/.  No network, no extraction.  Prints KTAP;
# exits non-zero if a case fails.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${FUZZ_SECS:-5}
seed=${FUZZ_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
n=0 fail=0

# check DESC WANT_RC WANT_TEXT CMD...: CMD exits WANT_RC, its stderr (or
# stdout) holds WANT_TEXT.
check() {
	local desc=$1 want=$2 text=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && [[ $out == *"$text"* ]]; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc (exit $rc, want $want: ${out:0:160})"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
before=$(ls "$top/build" 2>/dev/null | sort | tr '\n' ' ')
K=$top/tools/ksrc.sh Y=$top/tools/ynl.sh D=$top/tools/vm/debian-kernel.sh
check "ksrc.sh: unknown option" 2 "unknown option --bogus" "$K" --bogus
check "ksrc.sh: a series with shell characters" 2 "bad series 'x;y'" "$K" --print-dir 'x;y'
check "ksrc.sh: an empty series" 2 "bad series ''" "$K" --check ''
check "ksrc.sh: a series of letters" 2 "bad series 'abc'" "$K" --print-dir abc
check "ksrc.sh --print-dir 6.12: the directory, nothing extracted" 0 "build/ksrc-6.12" "$K" --print-dir 6.12
check "ksrc.sh --print-dir running: a build/ksrc- directory" 0 "build/ksrc-" "$K" --print-dir running
check "ksrc.sh --check 9.99: not extracted" 1 "" "$K" --check 9.99
check "ksrc.sh --help" 0 "ksrc.sh [--print-dir" "$K" --help
check "ynl.sh: no arguments, the usage" 2 "ynl.sh [--fetch [SERIES]]" "$Y"
check "debian-kernel.sh: no arguments, the usage" 2 "debian-kernel.sh [--pin" "$D"
check "debian-kernel.sh: unknown mode" 2 "debian-kernel.sh [--pin" "$D" --bogus 6.12
check "debian-kernel.sh: unknown series" 1 "unknown kernel series 5.4" "$D" --env 5.4
check "debian-kernel.sh: three arguments" 2 "debian-kernel.sh [--pin" "$D" --env 6.12 x
C=$top/tools/checkpatch.sh
check "checkpatch.sh: unknown option" 2 "unknown option '--bogus'" "$C" --bogus
check "checkpatch.sh: a file that is not there" 2 "no such file: /nonexistent.c" "$C" /nonexistent.c
check "checkpatch.sh: a directory" 2 "no such file: $top/tools" "$C" "$top/tools"
check "checkpatch.sh --help" 0 "Usage: tools/checkpatch.sh [FILE]..." "$C" --help
# make's kernel: KERNEL when given (run-tests.sh's builds for the other
# kernels give it beside RXB_TEST_KERNELS), else RXB_TEST_KERNELS's first
# (make -n reads the Makefile, runs nothing)
check "make: KERNEL given beside RXB_TEST_KERNELS is the module's" 0 \
	"KERNEL = 6.12" \
	env RXB_TEST_KERNELS="6.1 6.12" make -s -n -p -C "$top" KERNEL=6.12 help
check "make: RXB_TEST_KERNELS=6.12 alone builds the module for 6.12" 0 \
	"KERNEL := 6.12" \
	env -u KERNEL RXB_TEST_KERNELS=6.12 make -s -n -p -C "$top" help
# make deps: Debian's initramfs for the kernels it installs unless
# RXB_DEPS_INITRD=no (INITRD=No on each apt-get install); another value
# is refused before apt-get runs (a stub first in PATH makes sure)
deps_initrd() {
	local out

	out=$(make -s -n -C "$top" deps "$@") || return 2
	grep -c 'noninteractive INITRD=No apt-get install' <<<"$out"
	grep -c 'noninteractive apt-get install' <<<"$out"
	return 0
}
check "make deps RXB_DEPS_INITRD=no: both installs with INITRD=No" 0 \
	$'2\n0' deps_initrd RXB_DEPS_INITRD=no
check "make deps: Debian's initramfs by default" 0 $'0\n2' deps_initrd
if [ "$(id -u)" = 0 ]; then
	stub=$(mktemp -d)
	printf '#!/bin/sh\necho "stub $0 ran"\nexit 1\n' >"$stub/apt-get"
	chmod +x "$stub/apt-get"
	check "make deps RXB_DEPS_INITRD=maybe: refused before apt-get" 2 \
		"make deps: RXB_DEPS_INITRD is yes or no, not 'maybe'" \
		env PATH="$stub:$PATH" make -s -C "$top" deps RXB_DEPS_INITRD=maybe
	rm -rf "$stub"
fi
if [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	check "debian-kernel.sh --source 6.12: the installed tarball" 0 "/usr/src/linux-source-6.12.tar.xz" "$D" --source 6.12
fi

# fuzz: ksrc.sh's read-only modes with random words
words=(6.12 7.2 running newest 6.1 "" " " x 1.2.3 -- --check --print-dir
       ";" "\$(id)" ../.. 6..12 0 99999999999 "6.12 7.2" $'\n' '*')
RANDOM=$seed
end=$((SECONDS + secs)) runs=0 bad=0
while [ $SECONDS -lt $end ]; do
	mode=$([ $((RANDOM % 2)) = 0 ] && echo --print-dir || echo --check)
	w=${words[RANDOM % ${#words[@]}]}
	[ "$w" = newest ] && w=7.2	# newest may fetch: not here
	"$K" "$mode" "$w" >/dev/null 2>&1
	rc=$?
	runs=$((runs + 1))
	case $rc in 0|1|2) ;; *) bad=$((bad + 1)); echo "# $mode '$w': exit $rc" ;; esac
done
after=$(ls "$top/build" 2>/dev/null | sort | tr '\n' ' ')
n=$((n + 1))
if [ "$bad" = 0 ] && [ "$before" = "$after" ]; then
	echo "ok $n fuzz: $runs runs of ksrc.sh's read-only modes in ${secs}s (FUZZ_SEED=$seed), exits 0-2, nothing created"
else
	echo "not ok $n fuzz: $bad of $runs runs exited otherwise, or build/ changed (FUZZ_SEED=$seed)"
	fail=$((fail + 1))
fi
echo "1..$n"
echo "# $((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
