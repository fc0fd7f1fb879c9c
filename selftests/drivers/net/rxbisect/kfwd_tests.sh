#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's generic forwarding selftests on rxbisect pairs: the bash
# tests of tools/testing/selftests/net/forwarding of linux-source-6.12
# (router.sh, bridge_vlan_aware.sh, ...), which take their ports from
# NETIFS (forwarding.config) with p1 cabled to p2, p3 to p4, ...: exactly
# the back-to-back pairs rxb0/rxb1, rxb2/rxb3, ... of "pairs=N"; veth pairs
# are the tests' documented default.  Issue 15: every generic networking
# selftest of the kernel that passes on a veth pair must pass on an
# rxbisect pair; a failure there is a driver bug.
#
# The tests run on rxbisect pairs (the module loaded with as many pairs as
# the largest test needs, times the jobs run at once) under each ring
# model; then, for a test a case of which did not pass on rxbisect, on
# veth pairs (kfv0/kfv1, ...): the baseline that tells a driver bug from a
# case the kernel or the tools do not support.  One KTAP line per kernel
# test and configuration (the test's own "TEST: ... [ OK ]" cases are
# printed as "# " lines):
#   veth: skipped when not needed (every case passed on rxbisect under
#         every model); else passed when every case passed; a test none
#         of whose cases passed (missing tool, feature, or failing) is a
#         skip with the reason; cases that fail or skip on veth are listed
#         and not counted against rxbisect;
#   rxbisect/MODEL: passed when every case that passed on veth passes;
#         fails naming the cases that pass on veth and not here (a driver
#         bug); skipped with the veth result when veth passed no case.
#
# The tests run from a copy of net/forwarding, net/lib.sh and net/lib/sh (build/
# ksrc-6.12, or the running kernel's build/ksrc-X.Y when extracted, as
# 7.2's: tools/ksrc.sh running; make test extracts them on the host) in
# this test's temporary directory, with a forwarding.config naming the
# ports.  They are 6.12's tests; on 6.1 they run too, the veth baseline
# telling which cases the older kernel supports.
#
# Each test and configuration is a job; RXB_KFWD_JOBS of them (default 3)
# run at once, each in a namespace of its own (see run_jobs below).  Budget:
# ~1.5 minutes of TCG per kernel by default (2 tests, privring and
# rxbisect, no veth needed).  Time measured in the VM with the "# time="
# lines.
#
# Environment:
#   RXB_KFWD_TESTS        the kernel tests (default: $DEFAULT_TESTS below;
#                         "all": those and $MORE_TESTS)
#   RXB_KFWD_MODELS       the ring models (default "privring rxbisect";
#                         "all": every model the module lists)
#   RXB_KFWD_ALL_CASES=1  every case of each test (default: see CASES)
#   RXB_KFWD_NO_VETH=1    no veth baseline (every case is judged alone)
#   RXB_KFWD_JOBS         jobs at once (default 3; 1: one after the other)
#   RXB_KFWD_WAIT_TIME    the tests' WAIT_TIME after their ports are up
#                         (default 2 s; the kernel's default is 5)

source "$(dirname "$0")/lib.sh"

TOP=$(cd "$RXB_DIR/../../../.." && pwd)
# Generic tests (no offload, no special hardware) needing only ip, tc,
# jq, mausezahn (router.sh: smcrouted too): IPv4/IPv6 routing, a
# VLAN-aware bridge (promiscuous ports, learning, flooding, tagged frames,
# 802.1ad), MTU limits, VLAN push/modify by tc on the wire.
# Measured on 6.12 under TCG (s, veth/privring/rxbisect): router.sh
# 21/19/19, bridge_vlan_aware.sh (all cases) 87/76/75, min_max_mtu.sh
# 27/29/28, tc_vlan_modify.sh 34/35/35: the last two (both pass on every
# configuration) are left to "all" to keep the default near 3 minutes.
DEFAULT_TESTS="router.sh bridge_vlan_aware.sh"
MORE_TESTS="min_max_mtu.sh tc_vlan_modify.sh bridge_vlan_unaware.sh router_vid_1.sh no_forwarding.sh
pedit_dsfield.sh tc_actions.sh tc_flower.sh ipip_flat_gre.sh gre_multipath.sh
router_multipath.sh mirror_gre.sh vxlan_bridge_1d.sh"
TESTS=${RXB_KFWD_TESTS:-$DEFAULT_TESTS}
# The cases of a test run by default, when not all of them (the forwarding
# lib's TESTS): bridge_vlan_aware.sh's learning and vlan_deletion sleep out
# the FDB ageing time (20 s each); RXB_KFWD_ALL_CASES=1 runs them too.
declare -A CASES=(
	[bridge_vlan_aware.sh]="ping_ipv4 ping_ipv6 flooding extern_learn other_tpid"
)
[ -n "${RXB_KFWD_ALL_CASES:-}" ] && CASES=()
# Measured seconds per run on 6.12 under TCG (default cases; the vxlan tests
# with one other VM running): the jobs start longest first, and a job's
# time limit follows (limit)
declare -A COST=(
	[bridge_vlan_aware.sh]=60 [router.sh]=20 [min_max_mtu.sh]=28
	[tc_vlan_modify.sh]=35 [vxlan_bridge_1q.sh]=700 [vxlan_bridge_1d.sh]=640
)
[ "$TESTS" = all ] && TESTS="$DEFAULT_TESTS $MORE_TESTS"
MODELS=${RXB_KFWD_MODELS:-privring rxbisect}
# limit TEST: a job's time limit: 300 s, or three times the test's measured
# cost when that is more (jobs run side by side), times RXB_TIMEOUT_SCALE
limit() {
	local c=$((3 * ${COST[$1]:-0}))
	echo $(((c > 300 ? c : 300) * ${RXB_TIMEOUT_SCALE:-1}))
}
T0=$SECONDS

rxb_init jq tc mausezahn ping6
KSRC=$("$TOP/tools/ksrc.sh" --print-dir running)
FSRC=$KSRC/tools/testing/selftests/net
[ -r "$FSRC/forwarding/lib.sh" ] && [ -r "$FSRC/lib.sh" ] &&
	"$TOP/tools/ksrc.sh" --check running ||
	ktap_skip_all "the kernel's forwarding tests are not extracted in $KSRC: run tools/ksrc.sh on the host (make test does)"
# net/lib/sh: lib.sh's helpers from 6.13 on (defer.sh; 7.2's lib.sh
# sources it)
mkdir -p "$RXB_TMP/net" && cp -r "$FSRC/forwarding" "$FSRC/lib.sh" "$RXB_TMP/net/" &&
	{ [ ! -d "$FSRC/lib/sh" ] ||
		{ mkdir -p "$RXB_TMP/net/lib" && cp -r "$FSRC/lib/sh" "$RXB_TMP/net/lib/"; }; } ||
	rxb_bail "cannot copy the forwarding tests"
FDIR=$RXB_TMP/net/forwarding

# the ports each test needs (its NUM_NETIFS), the pairs for all of them
declare -A NIFS=()
MAXN=2
for t in $TESTS; do
	n=$(grep -m1 -o '^NUM_NETIFS=[0-9]*' "$FDIR/$t" 2>/dev/null)
	n=${n#NUM_NETIFS=}
	NIFS[$t]=${n:-0}
	[ "${n:-0}" -gt "$MAXN" ] && MAXN=$n
done
PAIRS=$(((MAXN + 1) / 2))

declare -A VETH=()	# "test: case" -> pass | skip:REASON | fail
declare -A VETH_T=()	# test -> the reason no case passed on veth, if so
RESULTS=
SETUP=

# report_veth TEST: the baseline's results, remembered in VETH and VETH_T.
report_veth() {
	local t=$1 st c why np=0 bad=
	while IFS='|' read -r st c why; do
		[ -n "$st" ] || continue
		why=${why% }
		case $st in
		pass)	VETH[$t: $c]=pass; np=$((np + 1)) ;;
		skip|xfail) VETH[$t: $c]="skip:$why"; bad+=" '$c' ($st${why:+: $why})" ;;
		*)	VETH[$t: $c]=fail; bad+=" '$c' (fails${why:+: $why})" ;;
		esac
	done <<<"$RESULTS"
	if [ "$np" = 0 ]; then
		VETH_T[$t]="no case passes on veth:${bad:- no case ran}"
		ktap_test_skip "veth: $t" "${VETH_T[$t]}"
	elif [ -n "$bad" ]; then
		ktap_test_pass "veth: $t ($np cases; not counted against rxbisect:$bad)"
	else
		ktap_test_pass "veth: $t ($np cases)"
	fi
}

# report_rxb MODEL TEST: rxbisect's results, judged against the baseline.
report_rxb() {
	local m=$1 t=$2 st c why v np=0 bad= other=
	if [ -z "$NOVETH" ] && [ -n "${VETH_T[$t]:-}" ]; then
		ktap_test_skip "rxbisect/$m: $t" "veth baseline: ${VETH_T[$t]}"
		return
	fi
	while IFS='|' read -r st c why; do
		[ -n "$st" ] || continue
		why=${why% }
		v=${VETH[$t: $c]:-}
		[ -n "$NOVETH" ] && v=pass
		if [ "$st" = pass ]; then
			np=$((np + 1))
		elif [ "$v" = pass ] || [ -z "$v" ]; then
			# passes on veth (or never ran there): the port lacks something
			bad+=" '$c' ($st${why:+: $why})"
		else
			other+=" '$c' ($st; on veth ${v%%:*})"
		fi
	done <<<"$RESULTS"
	if [ -n "$bad" ]; then
		ktap_test_fail "rxbisect/$m: $t: passes on veth, not here:$bad"
	elif [ "$np" = 0 ]; then
		ktap_test_skip "rxbisect/$m: $t" "no case passes:${other:- no case ran}"
	else
		ktap_test_pass "rxbisect/$m: $t ($np cases${other:+; as on veth:$other})"
	fi
}

# ---- the jobs: one kernel test on one configuration, JOBS at a time ----------
# Each job runs in a slot: a namespace of its own (kfwd-$$-S) holding the
# slot's PAIRS rxbisect pairs (bus devices S*PAIRS.., each switched to the
# job's model through its devlink instance) or, for the baseline, PAIRS veth
# pairs made there for the job; and a copy of the tests with a
# forwarding.config naming the slot's ports.  The kernel tests keep their
# state in their namespace (VRFs, bridges, sysctls), but some act on the
# whole machine (router.sh's cleanup "pkill smcrouted"), so the same test
# never runs twice at once (a lock per test); different tests do.  The
# tests mostly sleep (WAIT_TIME, ping intervals, FDB ageing), so slots
# overlap well under TCG.  The output of every job is kept and reported
# at the end in a fixed order.
NOVETH=${RXB_KFWD_NO_VETH:-}
JOBS=${RXB_KFWD_JOBS:-3}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
rxb_load pairs=$((PAIRS * JOBS)) ||
	rxb_bail "cannot load the module with pairs=$((PAIRS * JOBS))"
[ "$MODELS" = all ] && MODELS=$(rxb_models)
SLOT_NS=()
kfwd_cleanup() {
	rxb_ns_del "${SLOT_NS[@]}"
	rxb_cleanup
}
trap kfwd_cleanup EXIT
for ((s = 0; s < JOBS; s++)); do
	ns=kfwd-$$-$s
	ip netns add "$ns" || rxb_bail "cannot create namespace $ns"
	SLOT_NS+=("$ns")
	mkdir -p "$RXB_TMP/s$s/net" &&
		cp -r "$RXB_TMP/net/." "$RXB_TMP/s$s/net/" ||
		rxb_bail "cannot copy the forwarding tests"
	for ((i = 2 * PAIRS * s; i < 2 * PAIRS * (s + 1); i++)); do
		ip link set rxb$i netns "$ns" || rxb_bail "cannot move rxb$i to $ns"
		RXB_NS["rxb$i"]=$ns
	done
done

# config SLOT PREFIX FIRST: the slot's forwarding.config naming
# PREFIX<FIRST>.. as p1..
config() {
	local i
	{
		echo "NETIFS=("
		for ((i = 0; i < 2 * PAIRS; i++)); do
			echo "	[p$((i + 1))]=$2$(($3 + i))"
		done
		echo ")"
		echo "NETIF_CREATE=no"
		echo "MZ=mausezahn"
		echo "PING6=ping6"
		echo "WAIT_TIME=${RXB_KFWD_WAIT_TIME:-2}"
		echo "PAUSE_ON_FAIL=no"
		echo "PAUSE_ON_CLEANUP=no"
	} > "$RXB_TMP/s$1/net/forwarding/forwarding.config"
}

# model SLOT M: the slot's rxbisect devices to ring model M (devlink),
# their ports up until carrier, then down again (the tests set them up)
model() {
	local s=$1 i ok=0 ns=${SLOT_NS[$1]} first=$((2 * PAIRS * $1))
	for ((i = PAIRS * s; i < PAIRS * (s + 1); i++)); do
		DL=rxbisect/rxbisect$i rxb_dl_set ring_model "$2" || return 1
	done
	for ((i = first; i < first + 2 * PAIRS; i++)); do
		ip -n "$ns" link set rxb$i up || ok=1
	done
	for ((i = first; i < first + 2 * PAIRS; i++)); do
		rxb_wait_carrier rxb$i || ok=1
	done
	for ((i = first; i < first + 2 * PAIRS; i++)); do
		ip -n "$ns" link set rxb$i down 2>/dev/null
	done
	return $ok
}

# lock TEST SLOT: the lock file of a job.  Some tests act on the whole
# machine, so that two of them must not run at once: the vxlan and q_in_vni
# tests make network namespaces with fixed names ("ip netns add ns1"), the
# same in each of them, so one lock for all of those; and a test that kills
# by name (pkill, killall: router.sh kills every smcrouted, whose control
# socket has a fixed name) must not run twice at once, so a lock per such
# test.  The others take their slot's lock.
lock() {
	if grep -qE '\<ip netns (add|del)\>' "$FDIR/$1"; then
		echo "$RXB_TMP/lock.netns"
	elif grep -qE '\<(pkill|killall)\>' "$FDIR/$1"; then
		echo "$RXB_TMP/lock.$1"
	else
		echo "$RXB_TMP/lock.slot$2"
	fi
}

# job SLOT CFG TEST: run the kernel test TEST on configuration CFG (veth or
# a ring model) in SLOT; its first output line is "exit RC SECONDS", or
# "setup: WHY" when the configuration could not be made.
job() {
	local s=$1 cfg=$2 t=$3 ns=${SLOT_NS[$1]} t0=$SECONDS i rc err
	if [ "$cfg" = veth ]; then
		for ((i = 0; i < 2 * PAIRS; i += 2)); do
			err=$(ip -n "$ns" link add kfv$i type veth \
				peer name kfv$((i + 1)) 2>&1) && continue
			# the pairs made so far go: the slot's next job makes its own
			for ((i -= 2; i >= 0; i -= 2)); do
				ip -n "$ns" link del kfv$i 2>/dev/null
			done
			echo "setup: cannot create $PAIRS veth pairs: $err"
			return
		done
		config "$s" kfv 0
	else
		model "$s" "$cfg" || { echo "setup: switch to the model"; return; }
		config "$s" rxb $((2 * PAIRS * s))
	fi
	# (through a file: a test's output can hold NUL bytes, tc_actions.sh's
	# ncat does, which bash drops from a variable with a warning)
	(cd "$RXB_TMP/s$s/net/forwarding" && TESTS=${CASES[$t]:-} \
		flock "$(lock "$t" "$s")" timeout -k 5 "$(limit "$t")" \
		ip netns exec "$ns" bash "./$t") > "$RXB_TMP/raw.$s" 2>&1
	rc=$?
	echo "exit $rc $((SECONDS - t0))"
	tr -d '\0' < "$RXB_TMP/raw.$s"
	if [ "$cfg" = veth ]; then
		for ((i = 0; i < 2 * PAIRS; i += 2)); do
			ip -n "$ns" link del kfv$i 2>/dev/null
		done
	fi
}

# run_jobs "CFG TEST"...: every job, JOBS at a time, each into
# $RXB_TMP/out.CFG.TEST
run_jobs() {
	local -a busy=() pidslot=()
	local j s pid c t
	for j in "$@"; do
		while :; do
			for ((s = 0; s < JOBS; s++)); do
				[ -z "${busy[s]:-}" ] && break
			done
			[ "$s" -lt "$JOBS" ] && break
			pid=
			wait -n -p pid
			[ -n "$pid" ] || { busy=(); continue; }
			s=${pidslot[pid]}
			busy[s]=
		done
		read -r c t <<<"$j"
		# a line as each job ends: a run cut short by its timeout shows
		# how far it got
		{
			job "$s" "$c" "$t" > "$RXB_TMP/out.$c.$t"
			echo "# $c $t: $(head -n 1 "$RXB_TMP/out.$c.$t")"
		} &
		busy[s]=$!
		pidslot[$!]=$s
	done
	wait
}

# parse LABEL TEST: the output of a job: sets RESULTS to "STATUS|CASE|REASON"
# lines (STATUS pass, skip, xfail or fail) and prints the test's output as
# "# " lines; 1 when the job could not set up its configuration.
parse() {
	local label=$1 t=$2 out rc l re n=0 c st last= secs
	local -A seen=()
	re='^TEST: (.*[^ ]) +\[ *(OK|FAIL|SKIP|XFAIL) *\]$'

	{ read -r l; out=$(cat); } < "$RXB_TMP/out.${label#rxbisect/}.$t"
	[[ $l == setup:* ]] && { SETUP=${l#setup: }; return 1; }
	read -r _ rc secs <<<"$l"
	echo "# [$label $t] exit $rc, ${secs}s"
	RESULTS=
	while IFS= read -r l; do
		echo "# [$label $t] $l"
		if [[ $l =~ $re ]]; then
			n=$((n + 1))
			c=${BASH_REMATCH[1]}
			c=${c//|/ }
			seen[$c]=$((${seen[$c]:-0} + 1))
			[ "${seen[$c]}" -gt 1 ] && c="$c #${seen[$c]}"
			case ${BASH_REMATCH[2]} in
			OK) st=pass ;; FAIL) st=fail ;; SKIP) st=skip ;; *) st=xfail ;;
			esac
			RESULTS+="$st|$c|"$'\n'
			last=$st
		elif [[ $l == $'\t'* && $last != pass && -n $last ]]; then
			RESULTS="${RESULTS%$'\n'}${l#$'\t'} "$'\n'	# the case's message
		else
			last=
		fi
	done <<<"$out"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		RESULTS+="fail|$t|timed out after $(limit "$t")s"$'\n'
	elif [ "$n" = 0 ]; then
		# no case ran: the test as a whole skipped or failed to start
		l=$(grep -m1 -E '^(SKIP|FAIL)' <<<"$out")
		if [ "$rc" = 4 ]; then
			RESULTS="skip|$t|${l:-exit 4 before any case}"$'\n'
		else
			RESULTS="fail|$t|exit $rc before any case${l:+: $l}"$'\n'
		fi
	fi
}

# all_pass LABEL TEST: every case of the job passed (nothing for the
# baseline to classify)
all_pass() {
	local SETUP RESULTS
	parse "$1" "$2" >/dev/null || return 1
	! grep -qv '^pass|' <<<"${RESULTS%$'\n'}"
}

# rxbisect pairs first, every test under every model; then the veth
# baseline, only for the tests a case of which did not pass on rxbisect:
# the baseline only classifies such cases (a driver bug, or as on veth),
# and a test all of whose cases pass on every model passes whatever veth
# does.  The order of the jobs: the first model of each test that runs one
# at a time (lock), then the other tests, longest first (bridge_vlan_aware.sh
# takes about three times router.sh), then the other models of the first
# ones, which wait for each other anyway.
list=()
later=()
for t in $(for t in $TESTS; do
		echo "${COST[$t]:-1} $t"
	done | sort -s -k1,1 -rn | cut -d' ' -f2); do
	if [[ $(lock "$t" 0) == */lock.slot0 ]]; then
		for m in $MODELS; do
			list+=("$m $t")
		done
	else
		ms=($MODELS)
		list=("${ms[0]} $t" "${list[@]}")
		for m in "${ms[@]:1}"; do
			later+=("$m $t")
		done
	fi
done
list+=("${later[@]}")
run_jobs "${list[@]}"
declare -A NEED=()
list=()
for t in $TESTS; do
	for m in $MODELS; do
		all_pass "rxbisect/$m" "$t" && continue
		NEED[$t]=1
	done
	[ -z "$NOVETH" ] && [ -n "${NEED[$t]:-}" ] && list+=("veth $t")
done
[ ${#list[@]} -gt 0 ] && run_jobs "${list[@]}"

for t in $TESTS; do
	if [ -n "$NOVETH" ]; then
		:
	elif [ -z "${NEED[$t]:-}" ]; then
		ktap_test_skip "veth: $t" "baseline not needed: every case passes on rxbisect pairs under every model"
	elif ! parse veth "$t"; then
		ktap_test_fail "veth baseline: $t: $SETUP"
	else
		report_veth "$t"
	fi
	for m in $MODELS; do
		if ! parse "rxbisect/$m" "$t"; then
			ktap_test_fail "rxbisect/$m: $t: $SETUP"
			continue
		fi
		report_rxb "$m" "$t"
	done
done

echo "# time=$((SECONDS - T0))s (tests: $TESTS; models: $MODELS; pairs=$PAIRS; jobs=$JOBS)"
ktap_set_plan "$KTAP_CNT"
ktap_finished
