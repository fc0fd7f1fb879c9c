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
# First the baseline on veth pairs (kfv0/kfv1, ...), then the same tests on
# rxbisect pairs (the module loaded with as many pairs as the largest test
# needs) under each ring model.  One KTAP line per kernel test and
# configuration (the test's own "TEST: ... [ OK ]" cases are printed as
# "# " lines):
#   veth: passed when every case passed; a test none of whose cases passed
#         (missing tool, feature, or failing) is a skip with the reason;
#         cases that fail or skip on veth are listed and not counted
#         against rxbisect;
#   rxbisect/MODEL: passed when every case that passed on veth passes;
#         fails naming the cases that pass on veth and not here (a driver
#         bug); skipped with the veth result when veth passed no case.
#
# The tests run from a copy of net/forwarding and net/lib.sh (build/
# ksrc-6.12, extracted on the host by tools/ksrc.sh; make test does it) in
# this test's temporary directory, with a forwarding.config naming the
# ports.  They are 6.12's tests; on 6.1 they run too, the veth baseline
# telling which cases the older kernel supports.
#
# Budget: ~3 minutes of TCG per kernel by default (2 tests, veth, privring
# and rxbisect).  Time measured in the VM with the "# time=" lines.
#
# Environment:
#   RXB_KFWD_TESTS        the kernel tests (default: $DEFAULT_TESTS below;
#                         "all": those and $MORE_TESTS)
#   RXB_KFWD_MODELS       the ring models (default "privring rxbisect";
#                         "all": every model the module lists)
#   RXB_KFWD_ALL_CASES=1  every case of each test (default: see CASES)
#   RXB_KFWD_NO_VETH=1    no veth baseline (every case is judged alone)
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
[ "$TESTS" = all ] && TESTS="$DEFAULT_TESTS $MORE_TESTS"
MODELS=${RXB_KFWD_MODELS:-privring rxbisect}
P=/sys/module/rxbisect/parameters
KTIMEOUT=$((300 * ${RXB_TIMEOUT_SCALE:-1}))
T0=$SECONDS

rxb_init jq tc mausezahn ping6
KSRC=$("$TOP/tools/ksrc.sh" --print-dir 6.12)
FSRC=$KSRC/tools/testing/selftests/net
[ -r "$FSRC/forwarding/lib.sh" ] && [ -r "$FSRC/lib.sh" ] &&
	"$TOP/tools/ksrc.sh" --check 6.12 ||
	ktap_skip_all "the kernel's forwarding tests are not extracted in $KSRC: run tools/ksrc.sh on the host (make test does)"
mkdir -p "$RXB_TMP/net" && cp -r "$FSRC/forwarding" "$FSRC/lib.sh" "$RXB_TMP/net/" ||
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

# config PREFIX: forwarding.config naming PREFIX0..PREFIX(2*PAIRS-1) p1..
config() {
	local i
	{
		echo "NETIFS=("
		for ((i = 0; i < 2 * PAIRS; i++)); do
			echo "	[p$((i + 1))]=$1$i"
		done
		echo ")"
		echo "NETIF_CREATE=no"
		echo "MZ=mausezahn"
		echo "PING6=ping6"
		echo "WAIT_TIME=${RXB_KFWD_WAIT_TIME:-2}"
		echo "PAUSE_ON_FAIL=no"
		echo "PAUSE_ON_CLEANUP=no"
	} > "$FDIR/forwarding.config"
}

declare -A VETH=()	# "test: case" -> pass | skip:REASON | fail
declare -A VETH_T=()	# test -> the reason no case passed on veth, if so
RESULTS=
RXB_VETH=()

# run_kernel_test LABEL TEST: run the kernel test TEST on the ports of
# forwarding.config; sets RESULTS to "STATUS|CASE|REASON" lines (STATUS
# pass, skip, xfail or fail) and prints the test's output as "# " lines.
run_kernel_test() {
	local label=$1 t=$2 out rc l re n=0 t0=$SECONDS c st last=
	local -A seen=()
	re='^TEST: (.*[^ ]) +\[ *(OK|FAIL|SKIP|XFAIL) *\]$'

	out=$(cd "$FDIR" && TESTS=${CASES[$t]:-} timeout -k 5 "$KTIMEOUT" \
		bash "./$t" 2>&1)
	rc=$?
	echo "# [$label $t] exit $rc, $((SECONDS - t0))s"
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
		RESULTS+="fail|$t|timed out after ${KTIMEOUT}s"$'\n'
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

# ---- per test: the veth baseline, then rxbisect pairs under each model ------
# (interleaved, so that a run cut short still pairs each result with its
# baseline)
NOVETH=${RXB_KFWD_NO_VETH:-}
if [ -z "$NOVETH" ]; then
	for ((i = 0; i < 2 * PAIRS; i += 2)); do
		RXB_VETH+=(kfv$i)
		ip link add kfv$i type veth peer name kfv$((i + 1)) || NOVETH=fail
	done
	[ "$NOVETH" = fail ] &&
		ktap_test_fail "veth baseline: cannot create $PAIRS veth pairs"
fi
rxb_load pairs=$PAIRS || rxb_bail "cannot load the module with pairs=$PAIRS"
[ "$MODELS" = all ] && MODELS=$(rxb_models)

# model M: switch every rxbisect port to ring model M (carrier checked)
model() {
	local i ok=0
	echo "$1" > "$P/ring_model" || return 1
	for ((i = 0; i < 2 * PAIRS; i++)); do
		ip link set rxb$i up || ok=1
	done
	for ((i = 0; i < 2 * PAIRS; i++)); do
		rxb_wait_carrier rxb$i || ok=1
	done
	for ((i = 0; i < 2 * PAIRS; i++)); do
		ip link set rxb$i down 2>/dev/null
	done
	return $ok
}

for t in $TESTS; do
	if [ -z "$NOVETH" ]; then
		config kfv
		run_kernel_test veth "$t"
		report_veth "$t"
	fi
	config rxb
	for m in $MODELS; do
		if ! model "$m"; then
			ktap_test_fail "rxbisect/$m: $t: switch to the model"
			continue
		fi
		run_kernel_test "rxbisect/$m" "$t"
		report_rxb "$m" "$t"
	done
done
for v in "${RXB_VETH[@]}"; do
	ip link del "$v" 2>/dev/null
done

echo "# time=$((SECONDS - T0))s (tests: $TESTS; models: $MODELS; pairs=$PAIRS)"
ktap_set_plan "$KTAP_CNT"
ktap_finished
