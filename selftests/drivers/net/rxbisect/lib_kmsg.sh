#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel log checks, shared by the runner (run_kselftest.sh: after every
# test) and the tests (lib.sh: a test that checks a part of its own run, or
# looks for a message it caused).  A place in the log is a marker line
# written to /dev/kmsg, not a line count or "dmesg -C": a count goes wrong
# when the ring buffer wraps, and a cleared log hides what came before from
# the runner's check.

# Kernel splats: warnings, oopses, and the debug kernel's KASAN, UBSAN,
# lockdep, ODEBUG and kmemleak reports (most start with WARNING: or BUG:
# anyway; named for clarity), and page_pool's pages never returned.
RXB_SPLAT_RE='WARNING:|BUG:|Oops|general protection|RIP:|Call Trace|refcount_t|leaked'
RXB_SPLAT_RE+='|stalled pool shutdown|KASAN:|UBSAN:|ODEBUG:|possible circular locking'
RXB_SPLAT_RE+='|suspicious RCU usage|inconsistent lock state|possible recursive locking'
RXB_SPLAT_RE+='|kmemleak: .*disabled'
# marker lines themselves never count (a test name could match)
RXB_KMSG_MARK_RE='rxb-mark: |rxb-kselftest: \['

# rxb_kmsg_mark WHAT: write a marker naming WHAT to the kernel log; prints it
# (unique: pid, a random number and the time).
rxb_kmsg_mark() {
	local m="rxb-mark: $1 [$$.$RANDOM.$SECONDS]"
	echo "$m" > /dev/kmsg && echo "$m"
}

# rxb_kmsg_since MARK: the kernel log after MARK, from one read.  Status 2
# (and the whole log) when MARK is no longer in it; 3 when the log cannot
# be read, which must not pass as a clean log.
rxb_kmsg_since() {
	local all
	all=$(dmesg 2>&1) && [ -n "$all" ] || { echo "$all"; return 3; }
	if grep -qF -- "$1" <<<"$all"; then
		awk -v m="$1" 'f { print } index($0, m) { f = 1 }' <<<"$all"
	else
		echo "$all"
		return 2
	fi
}

# rxb_kmsg_splats LOG: the splat lines of LOG (from rxb_kmsg_since); status
# 1 when there are some.
rxb_kmsg_splats() {
	local bad
	bad=$(grep -E "$RXB_SPLAT_RE" <<<"$1" | grep -vE "$RXB_KMSG_MARK_RE")
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# rxb_kmsg_clean MARK: 0 when the kernel log after MARK is readable and has
# no splat; else prints why (the first splat lines) and returns 1.
rxb_kmsg_clean() {
	local log rc
	log=$(rxb_kmsg_since "$1")
	rc=$?
	[ $rc = 3 ] && { echo "cannot read the kernel log: ${log:0:200}"; return 1; }
	[ $rc = 2 ] && echo "marker lost from the kernel log, checking all of it"
	rxb_kmsg_splats "$log" | head -n 5
	return "${PIPESTATUS[0]}"
}
