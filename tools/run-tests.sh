#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `make test` driver: static checks, userspace ring-model core tests,
# then the kernel selftests inside a QEMU VM.  Each stage prints KTAP; the
# last line is "N passed, N failed" over all stages.
#
# Usage: tools/run-tests.sh [static|unit|sim|vm]...   (default: all stages)
#
# The VM boots the kernel tools/vm/run-vm.sh picks: with RXB_VM_KERNEL=debug
# (make test KERNEL=debug) the debug kernel, with every timeout multiplied by
# RXB_TIMEOUT_SCALE (default 3 there, else 1); with RXB_VM_KERNEL=6.12 (make
# test KERNEL=6.12) Debian 12's 6.12.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logdir=build/test
mkdir -p "$logdir"

pass=0
fail=0
skip=0
scale=${RXB_TIMEOUT_SCALE:-1}
[ "${RXB_VM_KERNEL:-}" = debug ] && scale=${RXB_TIMEOUT_SCALE:-3}
export RXB_TIMEOUT_SCALE=$scale

# Add the top-level "# Totals:" lines of a KTAP log to the sums: one per
# KTAP document the stage printed (the unit stage prints two).
count() {
	local log=$1 rc=$2 line p f s n=0 lf=0

	while read -r line; do
		# anchored: "xpass:" and "xfail:" must not match
		p=$(sed -E 's/^# Totals: pass:([0-9]+) .*/\1/' <<<"$line")
		f=$(sed -E 's/^# Totals: pass:[0-9]+ fail:([0-9]+).*/\1/' <<<"$line")
		s=$(sed -nE 's/.* skip:([0-9]+).*/\1/p' <<<"$line")
		pass=$((pass + p))
		fail=$((fail + f))
		skip=$((skip + ${s:-0}))
		lf=$((lf + f))
		n=$((n + 1))
	done < <(grep -E '^# Totals: pass:[0-9]+ fail:[0-9]+' "$log")
	if [ "$n" -eq 0 ]; then
		echo "# $log: no KTAP totals (exit $rc): counted as 1 failure"
		fail=$((fail + 1))
		return
	fi
	if [ "$rc" -ne 0 ] && [ "$lf" -eq 0 ]; then
		echo "# $log: exit $rc with no failing test: counted as 1 failure"
		fail=$((fail + 1))
	fi
}

# The targets the top-level Makefile defines (make's database).
make_targets() {
	make -npq .DEFAULT 2>/dev/null | awk -F: '
		/^# Not a target/ { skip = 1; next }
		/^[a-zA-Z0-9][a-zA-Z0-9_.-]*:([^=]|$)/ { if (!skip) print $1 }
		{ skip = 0 }' | sort -u
}

# The targets the README's commands name: "make X" on an indented
# (command) line or in backquotes.
readme_targets() {
	grep -oE '^ {4}(sudo )?make +[a-z][a-z0-9-]*|`make +[a-z][a-z0-9-]*' README |
		sed -E 's/.*make +//' | sort -u
}

# copy_tree DIR: the tree's tracked and untracked, not ignored files (no
# build products) into DIR.
copy_tree() {
	git ls-files -z --cached --others --exclude-standard |
		tar --null --ignore-failed-read -T - -cf - 2>/dev/null |
		tar -C "$1" -xf -
}

# Plain `make` in a copy of the tree must build rxbisect.ko, as the README
# says.
plain_make_builds_ko() {
	local tmp rc=1

	tmp=$(mktemp -d /tmp/rxb-plainmake.XXXXXX) || return 1
	copy_tree "$tmp" &&
	make -C "$tmp" >"$logdir/plain-make.log" 2>&1 &&
	test -f "$tmp/rxbisect.ko" && rc=0
	[ $rc -eq 0 ] || tail -n 5 "$logdir/plain-make.log" | sed 's/^/# /'
	rm -rf "$tmp"
	return $rc
}

# other_kernel_build KERNEL: `make module W=1 C=1 KERNEL=KERNEL` in a copy
# of the tree (rxbisect.ko stays the one the VM stage loads); prints the
# warnings and errors, fails on a failed build.
other_kernel_build() {
	local tmp rc=0

	tmp=$(mktemp -d /tmp/rxb-otherkernel.XXXXXX) || return 1
	copy_tree "$tmp" &&
	make -C "$tmp" -s module W=1 C=1 KERNEL="$1" >"$logdir/kernel-$1.log" 2>&1 || rc=1
	grep -E 'warning|error' "$logdir/kernel-$1.log"
	[ $rc -eq 0 ] || tail -n 5 "$logdir/kernel-$1.log"
	rm -rf "$tmp"
	return $rc
}

stage_static() {
	local n=0 f=0 sk=0 out cp t missing targets

	# result OK NAME [SKIP-REASON]
	result() {
		n=$((n + 1))
		if [ -n "${3:-}" ]; then
			echo "ok $n $2 # SKIP $3"
			sk=$((sk + 1))
		elif [ "$1" = ok ]; then
			echo "ok $n $2"
		else
			echo "not ok $n $2"
			f=$((f + 1))
		fi
	}

	echo "TAP version 13"
	echo "1..9"
	out=$(make -s module W=1 C=1 -B 2>&1 | grep -E 'warning|error' || true)
	[ -n "$out" ] && echo "$out" | sed 's/^/# /'
	result "$([ -z "$out" ] && echo ok)" "build W=1 C=1 (sparse) clean"

	# Both Debian 12 kernels: the other one's build too (not the debug
	# kernel's: make test KERNEL=debug checks that one alone).
	case ${RXB_VM_KERNEL:-} in
	debug) t= ;;
	6.12) t=6.1 ;;
	*) t=6.12 ;;
	esac
	if [ -z "$t" ]; then
		result ok "build W=1 C=1 clean on the other Debian kernel" "KERNEL=debug"
	elif out=$(other_kernel_build "$t") && [ -z "$out" ]; then
		result ok "build W=1 C=1 (sparse) clean on $t too"
	else
		echo "$out" | sed 's/^/# /'
		result fail "build W=1 C=1 (sparse) clean on $t too"
	fi

	if plain_make_builds_ko; then
		result ok "plain make builds rxbisect.ko (default goal all)"
	else
		result fail "plain make builds rxbisect.ko (default goal all)"
	fi

	targets=$(make_targets)
	missing=
	for t in $(readme_targets); do
		grep -qx -- "$t" <<<"$targets" || missing="$missing $t"
	done
	[ -n "$missing" ] && echo "# README names make targets the Makefile lacks:$missing"
	result "$([ -z "$missing" ] && echo ok)" "every make command of the README is a target"

	if out=$(python3 tools/bench/test_report.py 2>&1); then
		result ok "bench report: medians, spreads, ratios within noise (test_report.py)"
	else
		echo "$out" | sed 's/^/# /'
		result fail "bench report: medians, spreads, ratios within noise (test_report.py)"
	fi

	# The NIC/driver/model-core boundary, and proof that its checker
	# catches each kind of crossing (on small trees in a temp directory).
	if out=$(python3 tools/check-boundary.py 2>&1); then
		result ok "boundary: driver, NIC and model cores keep apart (check-boundary.py)"
	else
		echo "$out" | sed 's/^/# /'
		result fail "boundary: driver, NIC and model cores keep apart (check-boundary.py)"
	fi
	if out=$(python3 tools/check-boundary.py --self-test 2>&1); then
		result ok "boundary checker finds each crossing in a bad tree (--self-test)"
	else
		echo "$out" | sed 's/^/# /'
		result fail "boundary checker finds each crossing in a bad tree (--self-test)"
	fi

	cp=$(ls /usr/src/linux-source-6.1/scripts/checkpatch.pl \
		build/linux-source-6.1/scripts/checkpatch.pl 2>/dev/null | head -n1)
	if [ -z "$cp" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
		tar -C build -xf /usr/src/linux-source-6.1.tar.xz \
			linux-source-6.1/scripts 2>/dev/null
		cp=build/linux-source-6.1/scripts/checkpatch.pl
	fi
	if [ ! -x "$cp" ]; then
		result ok "checkpatch --strict" "checkpatch.pl not found"
	else
		# Not the shims (compiler-level definitions) nor the TRACE_EVENT
		# header (its macro layout draws the same CHECKs as in-tree ones).
		out=$("$cp" --no-tree --strict --terse -f \
			$(git ls-files '*.c' '*.h' ':!tools/testing/rxbisect/shim' ':!include/trace' 2>/dev/null) \
			2>&1 | grep -E 'ERROR|WARNING|CHECK' || true)
		[ -n "$out" ] && echo "$out" | sed 's/^/# /'
		result "$([ -z "$out" ] && echo ok)" "checkpatch --strict clean"
	fi
	out=$(tools/dkms-test.sh 2>&1); t=$?; printf '%s\n' "$out" | sed 's/^/# /'
	result "$([ $t = 0 ] && echo ok)" "dkms: install, build for each kernel's headers, uninstall (tools/dkms-test.sh)" \
		"$([ $t = 4 ] && tail -n1 <<<"$out" | sed 's/.*# SKIP //')"
	echo "# Totals: pass:$((n - f - sk)) fail:$f xfail:0 xpass:0 skip:$sk error:0"
}

run_stage() {
	local name=$1 log=$logdir/$1.log rc

	echo "# ---- $name ----"
	case $name in
	static)	stage_static 2>&1 | tee "$log"; rc=${PIPESTATUS[0]} ;;
	unit)	make -s -C tools/testing/rxbisect check 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]} ;;
	sim)	make -s -C tools/rxbisect-sim check 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]} ;;
	vm)	# YNL for the netdev netlink tests, unpacked here: the VM is slow at it
		tools/ynl.sh --fetch >/dev/null || echo "# no YNL: the netdev netlink tests will skip"
		tools/vm/run-vm.sh --timeout $((2400 * scale)) -- selftests/run_kselftest.sh 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]} ;;
	*)	echo "unknown stage $name" >&2; return 1 ;;
	esac
	count "$log" "$rc"
}

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(static unit sim vm)
for s in "${stages[@]}"; do
	run_stage "$s"
done

if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
