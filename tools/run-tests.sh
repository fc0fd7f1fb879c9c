#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `make test` driver: static checks, userspace ring-model core tests,
# the simulator's tests, then the kernel selftests inside a QEMU VM, once
# per kernel.  Each stage prints KTAP and its wall time; the last line is
# "N passed, N failed" over all stages and kernels.
#
# Usage: tools/run-tests.sh [static|unit|sim|vm|vm-KERNEL]...
#        (default: static unit sim vm; "vm" is vm-K for each kernel K)
#
# The kernels the vm stage boots: RXB_TEST_KERNELS (the top-level Makefile
# sets it: "6.1 6.12" for a plain make test, else KERNEL's one), default
# RXB_VM_KERNEL's one kernel if set, else "6.1 6.12".  The first one is the
# kernel rxbisect.ko at the top of the tree was built for (make module
# KERNEL=...); the module for each other one is built in a copy of the tree
# (the static stage's W=1 C=1 build of it, else here) into build/test/ko-K/.
# 6.12 is Debian 12's 6.12 LTS; "newest" the newest kernel of Debian's
# unstable suite (tools/vm/kernels.conf: make test KERNEL=newest; not in
# the default kernels, but the static stage builds the module for it,
# W=1 C=1, and skips that check, naming the release, when unstable has
# dropped it); "debug" the debug kernel (make debug-kernel
# KVER=6.1 or 6.12: RXB_DEBUG_KVER), where every timeout is multiplied by
# RXB_TIMEOUT_SCALE (default 4 there, else 1) and the VM's by 3 more (the
# suite takes about 2.7 h on the 6.12 debug kernel under TCG).  RXB_SELFTESTS="a.sh b.sh":
# only those selftests in the VM; RXB_REUSE_KO=1: the vm stage of a kernel
# other than the first takes build/test/ko-K/ as an earlier run left it.
# RXB_VM_LOCK=FILE: the VM stages wait for
# an flock on FILE (a machine shared by several users of the VM).
# RXB_VM_SHARD=1 (default, with several kernels and no RXB_SELFTESTS): the
# kernels share the suite, each selftest on one of them but those that
# differ by kernel on each (vm_shard); 0: each kernel runs it all.
# RXB_VM_PARALLEL=1 (default): the kernels' VM stages at the same time,
# each one's output printed whole, in order, each VM on one host thread
# (RXB_VM_TCG_THREAD=single); 0: one after the other (tools/vm/README).
# RXB_OVERLAP=1 (default): the VM stages start first, the other stages run
# beside them at nice 19 (each stage is still printed whole, in order);
# 0: one stage after the other.
# RXB_W1_LOG=FILE (make test sets it): the log of the `make module W=1 C=1`
# that built rxbisect.ko at the top; the static stage reports its warnings
# instead of building the module with W=1 C=1 again in a copy of the tree.
# RXB_JOBS: make -j of the unit and sim stages' builds and checkpatch
# processes of the static stage, whose checks run side by side (default nproc).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logdir=build/test
mkdir -p "$logdir"

pass=0
fail=0
skip=0
scale=${RXB_TIMEOUT_SCALE:-1}
[ "${RXB_VM_KERNEL:-}" = debug ] && scale=${RXB_TIMEOUT_SCALE:-4}
export RXB_TIMEOUT_SCALE=$scale
jobs=${RXB_JOBS:-$(nproc 2>/dev/null || echo 1)}

# stock is 6.1 (the Makefile's KERNEL=stock)
if [ -n "${RXB_TEST_KERNELS:-}" ]; then
	read -ra vm_kernels <<<"${RXB_TEST_KERNELS//stock/6.1}"
elif [ -n "${RXB_VM_KERNEL:-}" ]; then
	vm_kernels=("${RXB_VM_KERNEL//stock/6.1}")
else
	vm_kernels=(6.1 6.12)
fi
# the kernel rxbisect.ko at the top of the tree is for
primary=${vm_kernels[0]}

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

# newest_kernel_build: other_kernel_build for the newest kernel of Debian's
# unstable suite, fetched into the cache first if it is not there.  Exit 4
# with "# SKIP ..." as its last line when unstable no longer has the pinned
# release (RXB_KVER_NEWEST) and the cache lacks it: a release the registry
# dropped is not a failure of the module.
newest_kernel_build() {
	local rc=0 kdir v=${RXB_KVER_NEWEST:-$(sed -n 's/^RXB_KVER_NEWEST ?= *//p' tools/vm/kernels.conf)}

	RXB_KERNEL_STRICT=1 tools/vm/debian-kernel.sh --fetch newest \
		>"$logdir/fetch-newest.log" 2>&1 || rc=$?
	if [ $rc -eq 3 ]; then
		echo "# SKIP linux-image-$v (RXB_KVER_NEWEST, tools/vm/kernels.conf) is no longer in Debian's unstable suite, nor in the cache"
		return 4
	elif [ $rc -ne 0 ]; then
		tail -n 5 "$logdir/fetch-newest.log"
		return 1
	fi
	# sparse where the kernel accepts this machine's: 7.x's headers use
	# __typeof_unqual__, which bookworm's sparse 0.6.4 lacks, and their
	# Makefile turns C=1 off with a warning then (checker-valid.sh)
	kdir=$(tools/vm/debian-kernel.sh --env newest | sed -n 's/^KDIR=//p')
	if [ "$("$kdir/scripts/checker-valid.sh" sparse -m64 2>/dev/null)" = 1 ]; then
		other_kernel_build newest W=1 C=1
	else
		echo "sparse $(sparse --version 2>/dev/null) is refused by the kernel's scripts/checker-valid.sh: W=1 only" >"$logdir/static/newest.nosparse"
		other_kernel_build newest W=1
	fi
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

# other_kernel_build KERNEL [MAKE-ARGS]: `make module KERNEL=KERNEL
# MAKE-ARGS` in a copy of the tree (rxbisect.ko at the top stays the one
# built for the first kernel); the *.ko built go to build/test/ko-KERNEL/
# for the vm stage.  Prints the warnings and errors, fails on a failed build.
# Once per run: the static stage's check and KERNEL's VM stage, started
# together, share one build (the second waits on ko-KERNEL.lock, then
# prints and returns what the first did: .out, .rc, .run in ko-KERNEL/).
other_kernel_build() {
	local k=$1 kodir=$top/$logdir/ko-$1

	(
		flock 9 || exit 1
		if [ "$(cat "$kodir/.run" 2>/dev/null)" = $$ ]; then
			cat "$kodir/.out"
			exit "$(cat "$kodir/.rc")"
		fi
		rm -rf "$kodir"
		mkdir -p "$kodir" || exit 1
		kernel_build_copy "$@" >"$kodir/.out"
		echo $? >"$kodir/.rc"
		# .run: this run ($$, also in the stages' subshells) built them
		echo $$ >"$kodir/.run"
		cat "$kodir/.out"
		exit "$(cat "$kodir/.rc")"
	) 9>"$top/$logdir/ko-$k.lock"
}

# kernel_build_copy KERNEL [MAKE-ARGS]: other_kernel_build's build, into
# build/test/ko-KERNEL/ (which exists).
kernel_build_copy() {
	local k=$1

	shift
	copy_build "$logdir/kernel-$k.log" "$top/$logdir/ko-$k" module "$@" KERNEL="$k"
}

# W=1 C=1 build for the first kernel, in a copy of the tree: rxbisect.ko at
# the top, which that kernel's VM stage may be loading, is not rebuilt.  Its
# module goes to build/test/static/w1/ (for params_doc_check when make test
# built none at the top).  Prints the warnings and errors.
w1_build() {
	mkdir -p "$logdir/static/w1" &&
	copy_build "$logdir/w1.log" "$logdir/static/w1" module W=1 C=1
}

# w1_log LOG: the warnings and errors of make test's own `make module W=1
# C=1` at the top (the Makefile's RXB_W1_LOG), which built rxbisect.ko.
w1_log() {
	grep -E 'warning|error' "$1"
	[ -f rxbisect.ko ]
}

# copy_build LOG DIR MAKE-ARGS...: `make -s MAKE-ARGS` in a copy of the tree,
# its output in LOG, the *.ko it built copied to DIR (which exists).
# Prints the warnings and errors (and LOG's last lines when it fails);
# fails on a failed build or no module.
copy_build() {
	local log=$1 dir=$2 tmp rc=0

	shift 2
	tmp=$(mktemp -d /tmp/rxb-build.XXXXXX) || return 1
	copy_tree "$tmp" &&
	make -C "$tmp" -s "$@" >"$log" 2>&1 || rc=1
	grep -E 'warning|error' "$log"
	if [ $rc -ne 0 ] || ! cp "$tmp"/*.ko "$dir/"; then
		rc=1
		tail -n 5 "$log"
	fi
	rm -rf "$tmp"
	return $rc
}

# cpu_s: the CPU seconds (user + system) this shell and its finished
# children have used, whole: a subshell's cost once its jobs are waited for.
# Not in $(...) or a pipe: that subshell has no children of its own.
cpu_s() {
	local f

	f=$(mktemp) || return
	times >"$f"	# into a file: the builtin runs in this shell
	awk '{ for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } }
	     END { printf "%dcpu\n", s }' "$f"
	rm -f "$f"
}

# The static stage's checks, each single-threaded or nearly (kbuild of a
# few files, checkpatch, dkms): started together, so that they share the
# CPUs, and reported in this order.  Each job writes JOB.out and JOB.rc
# under $logdir/static/.
static_jobs() {
	local d=$logdir/static t

	rm -rf "$d" && mkdir -p "$d"
	local plain_ko=
	[ -f rxbisect.ko ] && plain_ko=1
	job() {
		local name=$1

		shift
		( t0=$SECONDS
		  "$@" >"$d/$name.out" 2>&1; echo $? >"$d/$name.rc"
		  cpu_s >"$d/$name.cpu"
		  echo "$name $((SECONDS - t0))s/$(cat "$d/$name.cpu")" >"$d/$name.time" ) &
	}
	if [ -n "${RXB_W1_LOG:-}" ] && [ -r "$RXB_W1_LOG" ] && [ -n "$plain_ko" ]; then
		job w1 w1_log "$RXB_W1_LOG"
	else
		job w1 w1_build
	fi
	# dkms beside the builds (its copy of the tree takes sources only,
	# tools/dkms.sh: no kbuild product the in-tree build is writing), for
	# the kernels whose headers make deps installed; the newest kernel's
	# build is the newest job's, its place in dkms.conf's range
	# dkms-test.sh's check (RXB_DKMS_KDIRS empty: no tree of the cache)
	job dkms env RXB_DKMS_KDIRS= tools/dkms-test.sh
	# Both Debian 12 kernels: the other one's build too (not the debug
	# kernel's: make test KERNEL=debug checks that one alone).
	case ${RXB_VM_KERNEL:-} in
	debug) t= ;;
	6.12) t=6.1 ;;
	*) t=6.12 ;;
	esac
	echo "$t" >"$d/other.kernel"
	[ -n "$t" ] && job other other_kernel_build "$t" W=1 C=1
	# The newest kernel of Debian's unstable suite, unless the module at
	# the top is built for it (or for the debug kernel).
	case ${RXB_VM_KERNEL:-} in
	debug|newest) echo "KERNEL=${RXB_VM_KERNEL}" >"$d/newest.none" ;;
	*) job newest newest_kernel_build ;;
	esac
	# make test has just built the default goal in this tree (the
	# Makefile says so with RXB_ALL_BUILT=1), rxbisect.ko with it;
	# else a copy of the tree is built
	if [ "${RXB_ALL_BUILT:-0}" = 1 ] && [ -n "$plain_ko" ]; then
		echo "make test's own plain make (default goal all) built rxbisect.ko" >"$d/plain.out"
		echo 0 >"$d/plain.rc"
	else
		job plain plain_make_builds_ko
	fi
	job report python3 tools/bench/test_report.py
	job hostlayout python3 tools/bench/test_hostlayout.py
	# The NIC/driver/model-core boundary, and proof that its checker
	# catches each kind of crossing (on small trees in a temp directory).
	job boundary python3 tools/check-boundary.py
	job boundary-self python3 tools/check-boundary.py --self-test
	job checkpatch run_checkpatch
	job kerneldoc run_kerneldoc
	job rst rst_check
	job paramsdoc params_doc_check "$plain_ko"
	job shsyntax sh_syntax
	job ktaplib ktap_lib_test
	wait
}

# kernel-doc -none over the module and its headers: every kernel-doc
# comment matches what it documents.  Exit 4: no kernel-doc script.
run_kerneldoc() {
	local kd

	kd=$(ls /usr/src/linux-source-6.1/scripts/kernel-doc \
		build/linux-source-6.1/scripts/kernel-doc 2>/dev/null | head -n1)
	if [ -z "$kd" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
		mkdir -p build
		tar -C build -xf /usr/src/linux-source-6.1.tar.xz \
			linux-source-6.1/scripts 2>/dev/null
		kd=build/linux-source-6.1/scripts/kernel-doc
	fi
	[ -x "$kd" ] || return 4
	git ls-files -z 'drivers/net/rxbisect/*.[ch]' 'include/rxbisect/*.h' |
		xargs -0 "$kd" -none 2>&1
	return 0
}

# Every *.rst of the tree parses without docutils warnings or errors (an
# undefined substitution, a broken table, a missing image) and
# Documentation/index.rst's toctree reaches every document: make docs,
# tools/rst-lint.py.  Exit 4: no docutils.
rst_check() {
	python3 tools/rst-lint.py
}

# The README's parameter and counter lists and Documentation/devlink.rst's
# rows are what modinfo and the driver's source say (tools/params-doc.py),
# on the module at the top (PLAIN-KO nonempty: the stage found one; nothing
# rebuilds it), or without one the W=1 build's (in its copy of the tree)
# once done.  Usage: params_doc_check [PLAIN-KO]
params_doc_check() {
	local ko=rxbisect.ko

	if [ -z "${1:-}" ]; then
		while [ ! -e "$logdir/static/w1.rc" ]; do sleep 2; done
		ko=$logdir/static/w1/rxbisect.ko
	fi
	python3 tools/params-doc.py --check "$ko"
}

# make help lists every .PHONY target of the makefiles (each rule line's
# "## " comment): prints those it lacks.
help_missing() {
	local phony listed t

	phony=$(make -npq .DEFAULT 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | sort -u)
	listed=$(make -s help | awk '/^  [a-z]/ { print $1 }' | sort -u)
	for t in $phony; do
		grep -qx -- "$t" <<<"$listed" || echo "$t"
	done
}

# The selftests' KTAP helpers (lib.sh) give the exit status their results
# call for: a failure fails, all skipped skips, and a test that gives up
# (rxb_bail) fails before its plan, within it and after it is used up; the
# kernel log check (lib_kmsg.sh) finds splats after a marker, in the whole
# log when the marker is lost, and fails when the log cannot be read.
ktap_lib_test() {
	local lib=selftests/drivers/net/rxbisect/lib.sh c want got bad=0

	while IFS='|' read -r want c; do
		got=$(bash -c "source $lib; ktap_print_header; $c" 2>&1 >/dev/null; echo $?)
		got=${got##*$'\n'}
		[ "$got" = "$want" ] && continue
		echo "exit $got, not $want: $c"
		bad=1
	done <<'EOF'
0|ktap_set_plan 2; ktap_test_pass a; ktap_test_skip b why; ktap_finished
1|ktap_set_plan 2; ktap_test_pass a; ktap_test_fail b; ktap_finished
4|ktap_set_plan 1; ktap_test_skip a why; ktap_finished
1|rxb_bail before the plan
1|ktap_set_plan 3; ktap_test_pass a; rxb_bail within the plan
1|ktap_set_plan 1; ktap_test_pass a; rxb_bail after the plan
1|ktap_set_plan 2; ktap_test_pass a; ktap_finished
4|ktap_set_plan 1; KTAP_SKIP_WHY=x; ktap_test_result a exit 1; ktap_finished
1|ktap_set_plan 2; KTAP_SKIP_WHY=x; ktap_test_result a true; KTAP_SKIP_WHY=; ktap_test_result b false; ktap_finished
0|dmesg() { printf 'WARNING: old\nrxb-mark: t [1]\nfine\n'; }; rxb_kmsg_clean 'rxb-mark: t [1]'
0|dmesg() { printf 'old\nrxb-mark: t [1]\nfine\n'; }; [ "$(rxb_kmsg_since 'rxb-mark: t [1]')" = fine ]
1|dmesg() { printf 'rxb-mark: t [1]\nBUG: KASAN: use-after-free\n'; }; rxb_kmsg_clean 'rxb-mark: t [1]'
1|dmesg() { printf 'general protection fault\nfine\n'; }; rxb_kmsg_clean 'rxb-mark: lost'
0|dmesg() { printf 'rxb-mark: WARNING: [2]\nfine\n'; }; rxb_kmsg_clean 'rxb-mark: lost'
1|dmesg() { return 1; }; rxb_kmsg_clean 'rxb-mark: t [1]'
EOF
	return $bad
}

# Every shell script of the tree parses (bash -n): a test that does not
# would fail only once the VM boots, or its library every test sourcing it.
sh_syntax() {
	local f bad=0

	while IFS= read -r -d '' f; do
		bash -n "$f" || bad=1
	done < <(git ls-files -z '*.sh' .ci/run)
	return $bad
}

# checkpatch --strict over the tree (tools/checkpatch.sh; exit 4: no
# checkpatch.pl), then the script's own check: a file with findings is
# reported, exit 1.
run_checkpatch() {
	local bad out rc

	RXB_JOBS=$jobs tools/checkpatch.sh || return
	bad=$(mktemp --suffix=.c)
	printf '// SPDX-License-Identifier: GPL-2.0\nint  x ;\n' >"$bad"
	out=$(tools/checkpatch.sh "$bad")
	rc=$?
	rm -f "$bad"
	[ "$rc" = 1 ] && [[ $out == *SPACING* ]] && return 0
	echo "tools/checkpatch.sh: a file with findings gave exit $rc: $out"
	return 1
}

stage_static() {
	local n=0 f=0 sk=0 out t missing targets d=$logdir/static

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
	# rc JOB: the job's exit status (1 if it left none)
	rc() {
		cat "$d/$1.rc" 2>/dev/null || echo 1
	}

	echo "TAP version 13"
	echo "1..17"
	static_jobs

	out=$(cat "$d/w1.out")
	[ -n "$out" ] && echo "$out" | sed 's/^/# /'
	result "$([ -z "$out" ] && [ "$(rc w1)" = 0 ] && echo ok)" "build W=1 C=1 (sparse) clean"

	t=$(cat "$d/other.kernel")
	if [ -z "$t" ]; then
		result ok "build W=1 C=1 clean on the other Debian kernel" "KERNEL=debug"
	elif [ "$(rc other)" = 0 ] && [ ! -s "$d/other.out" ]; then
		result ok "build W=1 C=1 (sparse) clean on $t too"
	else
		sed 's/^/# /' "$d/other.out"
		result fail "build W=1 C=1 (sparse) clean on $t too"
	fi

	if [ -r "$d/newest.none" ]; then
		result ok "build W=1 C=1 clean on the newest Debian kernel" "$(cat "$d/newest.none"): built above"
	elif [ "$(rc newest)" = 4 ]; then
		result ok "build W=1 C=1 clean on the newest Debian kernel" \
			"$(tail -n1 "$d/newest.out" | sed 's/^# SKIP //')"
	else
		t="build W=1 C=1 (sparse) clean on the newest Debian kernel ($(tools/vm/debian-kernel.sh --env newest | sed -n 's/^KVER=//p'))"
		if [ -r "$d/newest.nosparse" ]; then
			sed 's/^/# /' "$d/newest.nosparse"
			t=${t/ C=1 (sparse)/}
		fi
		sed 's/^/# /' "$d/newest.out"
		result "$([ "$(rc newest)" = 0 ] && [ ! -s "$d/newest.out" ] && echo ok)" "$t"
	fi

	sed 's/^/# /' "$d/plain.out"
	result "$([ "$(rc plain)" = 0 ] && echo ok)" "plain make builds rxbisect.ko (default goal all)"

	targets=$(make_targets)
	missing=
	for t in $(readme_targets); do
		grep -qx -- "$t" <<<"$targets" || missing="$missing $t"
	done
	[ -n "$missing" ] && echo "# README names make targets the Makefile lacks:$missing"
	result "$([ -z "$missing" ] && echo ok)" "every make command of the README is a target"
	missing=$(help_missing | xargs)
	[ -n "$missing" ] && echo "# make help lacks these .PHONY targets (a \"## \" comment on the rule line): $missing"
	result "$([ -z "$missing" ] && echo ok)" "make help lists every .PHONY target"

	[ "$(rc report)" = 0 ] || sed 's/^/# /' "$d/report.out"
	result "$([ "$(rc report)" = 0 ] && echo ok)" "bench report: medians, spreads, ratios within noise (test_report.py)"
	[ "$(rc hostlayout)" = 0 ] || sed 's/^/# /' "$d/hostlayout.out"
	result "$([ "$(rc hostlayout)" = 0 ] && echo ok)" "host benchmark layout from fake sysfs trees: 2/16/64 CPUs, 4/22/260 MiB LLC (test_hostlayout.py)"
	[ "$(rc boundary)" = 0 ] || sed 's/^/# /' "$d/boundary.out"
	result "$([ "$(rc boundary)" = 0 ] && echo ok)" "boundary: driver, NIC and model cores keep apart (check-boundary.py)"
	[ "$(rc boundary-self)" = 0 ] || sed 's/^/# /' "$d/boundary-self.out"
	result "$([ "$(rc boundary-self)" = 0 ] && echo ok)" "boundary checker finds each crossing in a bad tree (--self-test)"

	if [ "$(rc checkpatch)" = 4 ]; then
		result ok "checkpatch --strict" "checkpatch.pl not found"
	else
		sed 's/^/# /' "$d/checkpatch.out"
		result "$([ "$(rc checkpatch)" = 0 ] && [ ! -s "$d/checkpatch.out" ] && echo ok)" "checkpatch --strict clean"
	fi

	if [ "$(rc kerneldoc)" = 4 ]; then
		result ok "kernel-doc" "scripts/kernel-doc not found"
	else
		sed 's/^/# /' "$d/kerneldoc.out"
		result "$([ "$(rc kerneldoc)" = 0 ] && [ ! -s "$d/kerneldoc.out" ] && echo ok)" "kernel-doc: no warnings"
	fi
	if [ "$(rc rst)" = 4 ]; then
		result ok "make docs: every .rst parses" "no python3-docutils"
	else
		sed 's/^/# /' "$d/rst.out"
		result "$([ "$(rc rst)" = 0 ] && echo ok)" "make docs: every .rst parses without docutils warnings, index.rst's toctree complete"
	fi
	sed 's/^/# /' "$d/paramsdoc.out"
	result "$([ "$(rc paramsdoc)" = 0 ] && echo ok)" "README and Documentation/devlink.rst list the parameters modinfo gives and the counters the source names (params-doc.py --check)"
	sed 's/^/# /' "$d/shsyntax.out"
	result "$([ "$(rc shsyntax)" = 0 ] && echo ok)" "every shell script parses (bash -n)"
	sed 's/^/# /' "$d/ktaplib.out"
	result "$([ "$(rc ktaplib)" = 0 ] && echo ok)" "selftests' KTAP helpers: exit status per outcome, rxb_bail fails"

	t=$(rc dkms)
	sed 's/^/# /' "$d/dkms.out"
	result "$([ "$t" = 0 ] && echo ok)" "dkms: install, build for each kernel series' headers, uninstall (tools/dkms-test.sh)" \
		"$([ "$t" = 4 ] && tail -n1 "$d/dkms.out" | sed 's/.*# SKIP //')"
	echo "# the checks' wall/CPU times, side by side: $(cat "$d"/*.time 2>/dev/null | sort -k2,2rn | xargs)"
	echo "# Totals: pass:$((n - f - sk)) fail:$f xfail:0 xpass:0 skip:$sk error:0"
}

# stage_vm KERNEL: the selftests in the VM booting KERNEL (6.1, 6.12,
# debug), with the rxbisect.ko built for it.
stage_vm() {
	local k=$1 kodir=

	if [ "$k" != "$primary" ]; then
		kodir=$top/$logdir/ko-$k
		if [ "${RXB_REUSE_KO:-0}" = 1 ] && [ -f "$kodir/rxbisect.ko" ]; then
			echo "# RXB_REUSE_KO=1: $logdir/ko-$k/rxbisect.ko of $(date -r "$kodir/rxbisect.ko" +%T)"
		elif ! other_kernel_build "$k" W=1 C=1 >/dev/null; then
			# the static stage reports the warnings
			echo "# cannot build rxbisect.ko for $k (log: $logdir/kernel-$k.log)"
			return 1
		fi
	elif [ ! -f rxbisect.ko ]; then
		make -s module >/dev/null 2>&1 || {
			echo "# cannot build rxbisect.ko: make module fails"
			return 1
		}
	fi
	if [ "$k" = 6.1 ]; then
		# the installed 6.1 (run-vm.sh's default), whatever KVER says
		case ${KVER:-} in 6.1.*) ;; *) unset KVER ;; esac
		k=
	fi
	# YNL for the netdev netlink tests, unpacked here: the VM is slow at it
	tools/ynl.sh --fetch >/dev/null || echo "# no YNL: the netdev netlink tests will skip"
	# the newest kernel's own YNL, specs and tests (tools/ksrc.sh running)
	[ "$k" != newest ] || tools/ynl.sh --fetch newest >/dev/null ||
		echo "# no linux-source of the newest kernel: its tests use 6.12's"
	# the whole suite: about 70 min on Debian's kernels, about 40 min each
	# with the kernels sharing it; 2.7 h on the 6.12 debug kernel
	# (2026-11-28), whose tests each run 3 to 10 times slower.  A hang
	# guard: each selftest has its own timeout.
	local vmt=$((3600 * scale)) tests
	[ "$1" = debug ] && vmt=$((vmt * 3))
	tests=${RXB_SELFTESTS:-$(vm_shard "$1")}
	local kdep=0
	if [ -z "${RXB_SELFTESTS:-}" ] && [ "${RXB_VM_SHARD:-1}" != 0 ] &&
	   [ ${#vm_kernels[@]} -ge 2 ]; then
		echo "# the kernels share the suite (RXB_VM_SHARD=0: each runs it all): $1 runs $(wc -w <<<"$tests") selftests"
		# the selftests every kernel runs: their kernel-dependent
		# cases only, but on the first kernel (lib.sh's rxb_kdep_only)
		if [ "$1" != "$primary" ]; then
			kdep=1
			echo "# $1 runs only the kernel-dependent cases of: $(xargs <<<"$vm_every_kernel")"
		fi
	fi
	RXB_SHARD_KDEP=$kdep RXB_VM_KERNEL=$k RXB_VM_KO_DIR=$kodir \
		tools/vm/run-vm.sh --timeout $vmt -- selftests/run_kselftest.sh $tests
}

# Selftests every kernel runs when the kernels share the suite: those with
# kernel-version branches (multi-buffer redirect before 6.3), those that
# only run where the netdev netlink family is (a quick skip elsewhere), and
# the module's load and parameter conventions, the kTLS offload (the
# kernel's tls_device differs between releases: its skb test, its skb mark;
# tls_kselftest.sh, the kernel's own tls tests over it),
# tcp-data-split set through netlink (6.7 and later: ethtool_knobs.sh),
# Ensō's user pipes (the vma flags' interface changed in 6.3: mmap and
# teardown, enso_user.sh), and the RSS contexts and hash fields (6.1's
# set_rxfh_context() and rxnfc, 6.11's create_rxfh_context() and 6.16's
# get/set_rxfh_fields(): rss.sh).
vm_every_kernel="jumbo_redirect.sh nicmem.sh kdrv_tests.sh qstats.sh
queue_napi.sh load_unload.sh conventions.sh tls.sh hwtstamp.sh
ethtool_knobs.sh tls_kselftest.sh enso_user.sh rss.sh"

# Seconds each selftest took, the two kernels' VMs side by side, each on
# one host thread, as make test runs them (a clean run of 2026-11-29 at
# 4c23a94, the static, unit and sim stages beside them at nice 19: the
# first kernel's time of a selftest every kernel runs, the other's of the
# rest): what vm_shard balances with; a selftest not named here counts 60.
# NAME:kdep: a selftest every kernel runs, on a kernel other than the
# first (its kernel-dependent cases only, RXB_SHARD_KDEP=1, or the whole
# where it has none, as load_unload.sh's 6.12 takes twice 6.1's time).
# tls.sh and tls.sh:kdep: +5 each for case 32 (tls_resync=async: a
# reload and 1 MiB each way), estimated, not from a clean run.
vm_cost="kdrv_tests.sh 216 host_bench.sh 300 nf.sh 147 xdp_clients.sh 144
xdp.sh 127 kfwd_tests.sh 125 jumbo.sh 122 tls.sh 115 updown_switch.sh 97
tls.sh:kdep 95 hwtstamp.sh 79 hwtstamp.sh:kdep 60 faults.sh 78
jumbo_redirect.sh 69 af_xdp.sh 63 fuzz.sh 53 nicmem.sh 52 napi_modes.sh 51
engine.sh 75 ntuple.sh 46 reconfig_fault.sh 46 badinput.sh 45 devlink.sh 45
conventions.sh 37 ceio.sh 36 rxbisect_model.sh 33 shring_reconfig.sh 33
lower.sh 31 rxbisect_props.sh 31 soak.sh 30 corec.sh 28 coalesce.sh 26
nic_ctx.sh 26 ethtool_live.sh 23 flow_table.sh 23 load_unload.sh 23
load_unload.sh:kdep 47 traffic.sh 23 enso.sh 22 queue_restart.sh 22
nicmem.sh:kdep 21 nic_bh.sh 19 pcie_bytes.sh 19 busypoll_switch.sh 18
invalid.sh 18 shring_traffic.sh 18 rss.sh 27 rss.sh:kdep 27 rxbisect_topo.sh 17
shring_traffic_batched.sh 17 dshring_switch.sh 16 qstats.sh 16
shring_traffic_dyn.sh 16 queue_napi.sh 15 shring_traffic_list.sh 15
stall.sh 15 unload_traffic.sh 15 counters.sh 14 mtu.sh 13 counter_docs.sh 12
ethtool_knobs.sh 15 ethtool_knobs.sh:kdep 21
working_set.sh 60 tls_kselftest.sh 130 tls_kselftest.sh:kdep 130
enso_user.sh 80
shring_pathology.sh 12 enso_steer.sh 11 macaddr.sh 11 csum0.sh 8 trace.sh 7
privilege.sh 4 enso_user.sh 60 enso_user.sh:kdep 26"

# A kernel other than the first starts its VM once its module is built
# (other_kernel_build, W=1 C=1): about this many seconds after the first
# (2026-11-29: its stage took 118 s more than its VM, the first's 3 s),
# which vm_shard counts as work already done on it, so that both VMs end
# together.
vm_start_cost=110

# vm_shard KERNEL: the selftests KERNEL's VM stage runs, by name: with
# several kernels (RXB_VM_SHARD=1, the default), vm_every_kernel's on each
# and every other selftest on one of them, the longest first, each to the
# kernel with the least time so far (vm_cost, vm_every_kernel's included);
# else none named (the whole suite).
vm_shard() {
	local k=$1 nk=${#vm_kernels[@]} ki=0 t n c best rest
	local -a load all
	local -A cost=()

	[ "${RXB_VM_SHARD:-1}" != 0 ] && [ "$nk" -ge 2 ] || return 0
	for n in "${!vm_kernels[@]}"; do
		[ "${vm_kernels[$n]}" = "$k" ] && ki=$n
		load[n]=$((n > 0 ? vm_start_cost : 0))
	done
	read -ra all <<<"${vm_cost//$'\n'/ }"
	for ((n = 0; n < ${#all[@]}; n += 2)); do
		cost[${all[n]}]=${all[n + 1]}
	done
	rest=
	for t in selftests/drivers/net/rxbisect/*.sh; do
		[ -x "$t" ] || continue
		t=${t##*/}
		case $t in lib.sh|lib_*.sh|*_lib.sh|*.lib.sh) continue ;; esac
		if [[ " ${vm_every_kernel//$'\n'/ } " == *" $t "* ]]; then
			echo "$t"
			# their time on each kernel; 6.1 skips the netdev
			# netlink ones at once
			# (the first kernel runs each whole, the others its
			# kernel-dependent cases: vm_cost's NAME:kdep)
			for n in "${!vm_kernels[@]}"; do
				case ${vm_kernels[n]}:$t in
				6.1:kdrv_tests.sh|6.1:qstats.sh|6.1:queue_napi.sh) ;;
				*) c=${cost[$t]:-60}
				   [ "$n" -gt 0 ] && c=${cost[$t:kdep]:-$c}
				   load[n]=$((load[n] + c)) ;;
				esac
			done
		else
			rest+="${cost[$t]:-60} $t"$'\n'
		fi
	done
	while read -r c t; do
		[ -n "$t" ] || continue
		best=0
		for n in "${!load[@]}"; do
			[ "${load[n]}" -lt "${load[best]}" ] && best=$n
		done
		load[best]=$((load[best] + c))
		[ "$best" = "$ki" ] && echo "$t"
	done < <(printf '%s' "$rest" | sort -k1,1rn -k2,2)
	return 0
}

# stage_body NAME: stage NAME's tests, its output on stdout; its status
stage_body() {
	local rc
	case $1 in
	static)	stage_static ;;
	# the builds of the flavours in parallel (RXB_JOBS, default the
	# number of CPUs); the tests run one after the other as before
	# and the network functions' loaders' command lines (tools/nf)
	unit)	make -s -j"$jobs" -C tools/testing/rxbisect check; rc=$?
		echo "# tools/nf: the loaders' command lines (test_cli.sh)"
		make -s -C tools/nf check || rc=1
		echo "# tools/bench: tls_bench.sh's and enso_bench.sh's command lines (test_cli.sh)"
		bash tools/bench/test_cli.sh || rc=1
		echo "# tools/ksrc.sh, ynl.sh, vm/debian-kernel.sh, checkpatch.sh: their command lines (test_ksrc_cli.sh)"
		bash tools/test_ksrc_cli.sh || rc=1
		return $rc ;;
	sim)	make -s -j"$jobs" -C tools/rxbisect-sim check ;;
	vm-*)	stage_vm "${1#vm-}" ;;
	*)	echo "unknown stage $1" >&2; return 1 ;;
	esac
}

# start_bg NAME: stage NAME started in the background, its output to its
# log (printed whole by run_stage, in the stages' order), its status to
# LOG.rc and the time it ended to LOG.t1
declare -A stage_bg=()
start_bg() {
	local log=$logdir/$1.log

	echo $SECONDS > "$log.t0"
	rm -f "$log.rc" "$log.t1"
	( stage_body "$1" > "$log" 2>&1; echo $? > "$log.rc"
	  cpu_s > "$log.cpu"; echo $SECONDS > "$log.t1" ) &
	stage_bg[$1]=$!
}

run_stage() {
	local name=$1 log=$logdir/$1.log rc t0=$SECONDS t1

	[ -n "${stage_bg[$name]:-}" ] || rm -f "$log.t1"
	echo "# ---- $name ----"
	if [ -n "${stage_bg[$name]:-}" ]; then
		# started with the others: its log whole, from the start,
		# then as it grows until it ends
		tail -n +1 -f --pid="${stage_bg[$name]}" "$log" 2>/dev/null
		wait "${stage_bg[$name]}"
		rc=$(cat "$log.rc" 2>/dev/null || echo 1)
		t0=$(cat "$log.t0")
	else
		rm -f "$log.cpu"
		{ stage_body "$name"; echo $? >"$log.rc"; cpu_s >"$log.cpu"; } 2>&1 | tee "$log"
		rc=$(cat "$log.rc" 2>/dev/null || echo 1)
	fi
	count "$log" "$rc"
	# a stage started beside others: from its start to its own end
	t1=$(cat "$log.t1" 2>/dev/null || echo $SECONDS)
	times+=("$name $((t1 - t0))s/$(cat "$log.cpu" 2>/dev/null)")
	echo "# ---- $name: $((t1 - t0)) s, $(cat "$log.cpu" 2>/dev/null) ----"
}

stages=()
for s in "${@:-static unit sim vm}"; do
	for s in $s; do
		case $s in
		vm) stages+=("${vm_kernels[@]/#/vm-}") ;;
		static|unit|sim|vm-?*) stages+=("$s") ;;
		*) echo "run-tests.sh: unknown stage $s (static, unit, sim, vm, vm-KERNEL)" >&2; exit 2 ;;
		esac
	done
done
# The VM stages of all kernels at once (RXB_VM_PARALLEL=1, the default;
# 0 runs them one after the other).  Side by side, each VM runs its vCPUs
# on one host thread (RXB_VM_TCG_THREAD=single unless set): a VM keeps
# about one core busy either way, so two fit the 2 cores, and no vCPU runs
# guest code while another patches it (the int3 oops of two multi-threaded
# VMs side by side; tools/vm/README).  Each stage's output goes to its
# log; the stages are printed in order, each whole (the one waited for as
# it grows): never interleaved.
start_vms_together() {
	local s n=0

	for s in "${stages[@]}"; do
		case $s in vm-*) n=$((n + 1)) ;; esac
	done
	[ "$n" -ge 2 ] || [ "$overlap" = 1 ] || return 0
	# once, here, not in each stage at the same time
	tools/ynl.sh --fetch >/dev/null 2>&1
	[ "$n" -ge 2 ] && export RXB_VM_TCG_THREAD=${RXB_VM_TCG_THREAD:-single}
	echo "# ---- the $n VM stage(s) start$([ "$overlap" = 1 ] && echo ", beside the other stages (RXB_OVERLAP=1; those at nice 19)")$([ "$n" -ge 2 ] && echo ", at the same time (RXB_VM_PARALLEL=1, TCG thread=$RXB_VM_TCG_THREAD)") ----"
	for s in "${stages[@]}"; do
		case $s in vm-*) start_bg "$s" ;; esac
	done
}

# RXB_VM_LOCK=FILE: held from the first VM stage to the end
vm_locked=
vm_lock() {
	if [ -n "${RXB_VM_LOCK:-}" ] && [ -z "$vm_locked" ]; then
		w=$SECONDS
		exec 8>>"$RXB_VM_LOCK" && flock 8 && vm_locked=1
		echo "# waited $((SECONDS - w)) s for $RXB_VM_LOCK"
	fi
}

# RXB_OVERLAP=1 (the default, with RXB_VM_PARALLEL=1): the VM stages start
# first and run beside the static, unit and sim stages, which this shell
# then runs at nice 19.  A VM keeps about one core busy and leaves the
# rest idle while the guest waits; the builds, checkpatch and userspace
# tests take that up instead of running before the VMs.  The VMs keep
# most of the CPU they had alone (at nice 10, six static jobs took a
# quarter of it from two VMs), but not all of their speed: beside a
# nice-19 build loop, five selftests took two VMs 342 and 362 s, and 30 %
# more QEMU CPU, against 258 and 294 s alone (2026-12-02; a nice-19 shell
# loop cost 5 %, the guests' HPET clock nothing: 330 and 354 s on the
# TSC).  Overlapped still wins: one after the other the static stage
# alone takes about as long as a VM stage (below).  A kernel
# other than the first starts once its module is built (its VM stage and
# the static stage's check share that build: other_kernel_build).  The
# sim stage starts beside the static stage, in the background at nice 19:
# one after the other, static, unit and sim ended 450 s after the VMs
# (2026-11-30: the VMs took 1214 s, static 1166 s, unit 367 s, sim
# 126 s).  The unit stage still follows the static one: its threaded
# stress tests hand frames between threads and slow down the most when
# starved (all three side by side, plain test_ceio took 345 s, 68 s
# after the static stage; each test binary has 900 s).
# 0: the stages one after the other.
overlap=0
if [ "${RXB_VM_PARALLEL:-1}" = 1 ] && [ "${RXB_OVERLAP:-1}" = 1 ] &&
   [[ " ${stages[*]} " == *" vm-"* ]] &&
   [[ " ${stages[*]} " =~ \ (static|unit|sim)\  ]]; then
	overlap=1
	vm_lock
	start_vms_together
	renice -n 19 -p $$ >/dev/null
	for s in "${stages[@]}"; do
		case $s in static|sim) start_bg "$s" ;; esac
	done
fi

times=()
for s in "${stages[@]}"; do
	case $s in
	vm-*)	vm_lock
		[ "${RXB_VM_PARALLEL:-1}" = 1 ] && [ -z "${stage_bg[$s]:-}" ] && start_vms_together ;;
	esac
	run_stage "$s"
done
cpu_s >"$logdir/total.cpu"
echo "# wall time/CPU time: ${times[*]}, total ${SECONDS}s/$(cat "$logdir/total.cpu")"

# failure_digest LOG...: every failed test again, with the diagnostics its
# test printed just before it (at most 12 lines each), at the end where a
# CI log cut to its tail still shows them.  A failed test is a "not ok"
# line without a TODO directive (xfail); a nested one (a selftest's
# subtest) is printed before its parent's line.
failure_digest() {
	awk -v max=12 '
	FNR == 1 { n = 0; stage = FILENAME; sub(/.*\//, "", stage); sub(/\.log$/, "", stage) }
	{
		line = $0
		d = 0
		while (substr(line, 1, 2) == "# ") { line = substr(line, 3); d++ }
	}
	line ~ /^(not )?ok [0-9]+/ {
		if (line ~ /^not ok/ && line !~ /# (TODO|todo)/) {
			if (!shown[stage]++) print "# -- " stage " --"
			# a parent whose subtests were shown: its line alone
			if (!nested[d + 1]) {
				from = n - cnt[d]; if (from < n - max) from = n - max
				for (i = from; i < n; i++) print buf[i % max]
			}
			print $0
			nested[d] = 1
		}
		nested[d + 1] = 0
		cnt[d] = 0
		for (k in cnt) if (k + 0 > d) cnt[k] = 0
		next
	}
	{ buf[n % max] = $0; n++; for (k = 0; k <= d; k++) cnt[k]++ }
	' "$@"
}
if [ "$fail" -gt 0 ]; then
	echo "# ---- the failures again, with what their tests printed before them ----"
	for s in "${stages[@]}"; do
		[ -f "$logdir/$s.log" ] && failure_digest "$logdir/$s.log"
	done | head -n 300
fi

# the last line stays exactly "N passed, N failed" (CI and the README
# parse it); skips are reported on the line before
[ "$skip" -gt 0 ] && echo "# $skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
