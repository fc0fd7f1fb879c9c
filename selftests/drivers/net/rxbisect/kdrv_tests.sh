#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own driver tests on rxbisect ports: the python tests of
# tools/testing/selftests/drivers/net of linux-source-6.12 (ping.py,
# stats.py, queues.py), run as the kernel's CI runs them on a looped
# virtio-net: NETIF is the port under test in this namespace, its peer
# (the other end of the cable) sits in a network namespace, REMOTE_TYPE=netns,
# LOCAL_V4/REMOTE_V4 192.0.2.1/2, LOCAL_V6/REMOTE_V6 2001:db8::1/2
# (drivers/net/README.rst of the kernel).
#
# The tests run on an rxbisect pair under each ring model, in LANES (default
# 2) lanes at once: lane L has bus device rxbisectL (NETIF rxb<2L> in a
# namespace of the lane, its peer in another), switched to each of the
# lane's models through devlink.  Then, for a kernel test a case of which
# did not pass under some model, the baseline: a veth pair (2 queues each
# way) in namespaces of its own, which tells a driver bug from a case the
# kernel or the tools do not support.  One KTAP line per case of each
# kernel test and configuration:
#   veth: passed, skipped with the test's reason, or failed (printed, and
#         counted as a skip "fails on the veth baseline": not a driver bug);
#         one skip per test not needing the baseline (every case passed
#         under every model);
#   rxbisect/MODEL: passed; a skip or XFAIL of a case that passed on veth
#         fails (the port lacks something veth has); one that veth skipped
#         too is a skip with the reason; a failure fails unless the case
#         failed on veth too.
# ping.py (the data path: ARP and ND, ICMP, TCP both ways), queues.py
# (netdev queue-get, ethtool -L down and up again: a ring rebuild) and
# stats.py (pause/FEC stats, per-queue qstats summed against the link's,
# link down) run under every model; hw/pp_alloc_fail.py (page_pool
# allocation failures injected through fail_function while iperf3 runs, seen
# in the rx-alloc-fail qstat, and an ethtool -G under them) on privring only
# (RXB_KDRV_ONCE_MODELS), on a kernel with function error injection (without
# it the test cannot inject anything: skipped with that reason; qstats.sh
# injects allocation failures through rxbisect's own fault knob); and
# hw/rss_ctx.py (the RSS key and table, additional RSS contexts with ntuple
# rules steering iperf3 flows into them, per-queue qstats) on privring
# only, with a newer ethtool than Debian 12's 6.1, which has no JSON for
# "ethtool -x IF context N": unstable's, unpacked on the host by
# tools/ethtool-new.sh (make ksrc), put first in PATH for that test alone
# (without it: skipped, naming it; rss.sh and ntuple.sh test the contexts
# with Debian's ethtool).  Under TCG its test_hitless_key_update fails on
# time alone (the ethtool -X run takes 0.8 s against its 0.2 s; the NIC
# takes the key at once), counted against rxbisect unless the veth
# baseline fails it too; test_rss_key_indir skips (2 queues: the VM's
# CPUs) and test_rss_context32 too (66 queues).  Each
# kernel test costs 5-20 s of TCG time (python and its imports over 9p),
# which two lanes halve.  The kernel's other driver tests
# are listed as skipped with the reason they cannot apply.
#
# The kernel's tests come from build/ksrc-6.12 (build/ksrc-7.2 on 7.2,
# whose netlink 6.12's YNL cannot decode: tools/ksrc.sh running),
# extracted on the host by tools/ksrc.sh (make test does it before the VM
# boots); without them, or
# on a kernel older than 6.12 (whose netdev netlink family has no
# queue-get/qstats), the test is skipped with the reason.
#
# Environment:
#   RXB_KDRV_TESTS        tests run under every model
#                         (default "ping.py queues.py stats.py")
#   RXB_KDRV_ONCE         tests run on the RXB_KDRV_ONCE_MODELS only
#                         (default hw/pp_alloc_fail.py where the kernel has
#                         /sys/kernel/debug/fail_function, and hw/rss_ctx.py
#                         where tools/ethtool-new.sh has unpacked an ethtool)
#   RXB_KDRV_ONCE_MODELS  default privring
#   RXB_KDRV_MODELS       the models (default: every model the module lists)
#   RXB_KDRV_NO_VETH=1    no veth baseline (every case is judged alone)
#   RXB_KDRV_LANES        lanes at once (default 2; 1: one model after the
#                         other)

source "$(dirname "$0")/lib.sh"

TOP=$(cd "$RXB_DIR/../../../.." && pwd)
EVERY=${RXB_KDRV_TESTS-ping.py queues.py stats.py}
FAILFN=/sys/kernel/debug/fail_function
# hw/rss_ctx.py's ethtool (a newer one than Debian 12's), if unpacked
ETHNEW=$("$TOP/tools/ethtool-new.sh" --print 2>/dev/null) || ETHNEW=
ONCE_DEF=
[ -d "$FAILFN" ] && ONCE_DEF=hw/pp_alloc_fail.py
# hw/rss_ctx.py only when asked (RXB_KDRV_ONCE="hw/rss_ctx.py"): under TCG
# its test_hitless_key_update fails on time alone (the ethtool -X run takes
# 0.8 s against its 0.2 s), which the veth baseline, without RSS, cannot
# excuse; on a host it runs as the kernel's own test.
ONCE_MODELS=${RXB_KDRV_ONCE_MODELS-privring}
LV4=192.0.2.1
RV4=192.0.2.2
LV6=2001:db8::1
RV6=2001:db8::2
KTIMEOUT=$((180 * ${RXB_TIMEOUT_SCALE:-1}))

if ! rxb_kver_ge 6.12; then
	ktap_print_header
	ktap_skip_all "kernel $(uname -r): the driver tests are linux-source-6.12's and need its netdev netlink family (queue-get, qstats-get); run on 6.12 (make test KERNEL=6.12)"
fi
rxb_init ping python3	# socat: ping.py skips its TCP case without it
KSRC=$("$TOP/tools/ksrc.sh" --print-dir running)
KDIR=$KSRC/tools/testing/selftests/drivers/net
[ -r "$KDIR/lib/py/env.py" ] && "$TOP/tools/ksrc.sh" --check running ||
	ktap_skip_all "the kernel's driver tests are not extracted in $KSRC: run tools/ksrc.sh on the host (make test does)"
# hw/csum.py reads cfg.remote_ifname, which NetDrvEpEnv sets in later
# kernels' library (7.2's), not in 6.12's: there it fails on any device,
# veth too.  Where it can run, it runs once (26 s on 7.2 under TCG).
CSUM=0
grep -q "self.remote_ifname *=" "$KDIR/lib/py/env.py" && CSUM=1
[ "$CSUM" = 1 ] && ONCE_DEF+="${ONCE_DEF:+ }hw/csum.py"
ONCE=${RXB_KDRV_ONCE-$ONCE_DEF}

# The kernel's python library is compiled once, into this run's temporary
# directory (the source tree is read-only in the VM), and the tests' output
# is unbuffered, so that a test stopped by KTIMEOUT shows how far it got.
# On a slow kernel (KASAN under TCG) the first start of a program over 9p
# can take seconds: ping.py's test_tcp gives socat 5 s to listen
# (wait_port_listen) and, when that raises, waits for the listener for
# ever (bkg(exit_wait=True)).  So the library and socat are loaded once
# before the lanes start.
export PYTHONPYCACHEPREFIX=$RXB_TMP/pycache PYTHONUNBUFFERED=1
# pylib/sitecustomize.py: their specs parsed by libyaml, not by PyYAML's
# pure-Python parser (seconds per spec under TCG)
export PYTHONPATH=$RXB_DIR/pylib${PYTHONPATH:+:$PYTHONPATH}
unset PYTHONDONTWRITEBYTECODE
(cd "$KDIR" && python3 -c 'import lib.py') >/dev/null 2>&1
socat -V >/dev/null 2>&1

declare -A VETH=()	# case -> pass | skip:REASON | fail
RESULTS=
VETH_UP=

# run_kernel_test LNS IF RNS TEST: run the kernel test TEST against IF in
# namespace LNS with the peer in RNS; prints "exit RC SECONDS", then the
# test's output.
run_kernel_test() {
	local lns=$1 ifc=$2 rns=$3 t=$4 out rc t0=$SECONDS path=$PATH tmo=$KTIMEOUT

	# rss_ctx.py: the newer ethtool; 13 cases, about 40 iperf3 traffic
	# checks: 156 s on privring under 6.12 (2026-11-30)
	if [ "$t" = hw/rss_ctx.py ]; then
		[ -n "$ETHNEW" ] && path=${ETHNEW%/*}:$PATH
		tmo=$((2 * KTIMEOUT))
	fi
	out=$(cd "$KDIR" && timeout -k 5 "$tmo" ip netns exec "$lns" \
		env PATH="$path" NETIF="$ifc" LOCAL_V4=$LV4 REMOTE_V4=$RV4 LOCAL_V6=$LV6 \
		REMOTE_V6=$RV6 REMOTE_TYPE=netns REMOTE_ARGS="$rns" \
		python3 "./$t" 2>&1)
	rc=$?
	echo "exit $rc $((SECONDS - t0))"
	echo "$out"
}

# out CFG TEST: the file a run's output goes to (TEST may be hw/x.py)
out() { echo "$RXB_TMP/out.$1.${2//\//_}"; }

# parse LABEL TEST: the output of a run (out CFG TEST); sets
# RESULTS to "STATUS CASE REASON" lines (STATUS pass, skip, xfail or fail)
# and prints the test's own diagnostics as "# " lines.
parse() {
	local label=$1 t=$2 out rc l re n=0 secs
	re='^(not )?ok [0-9]+ ([^ ]+)( # (SKIP|XFAIL) ?(.*))?$'

	{ read -r l; out=$(cat); } < "$(out "${label#rxbisect/}" "$t")"
	read -r _ rc secs <<<"$l"
	echo "# [$label $t] exit $rc, ${secs}s"
	RESULTS=
	while IFS= read -r l; do
		if [[ $l =~ $re ]]; then
			n=$((n + 1))
			if [ -n "${BASH_REMATCH[1]}" ]; then
				RESULTS+="fail ${BASH_REMATCH[2]}"$'\n'
			elif [ "${BASH_REMATCH[4]}" = SKIP ]; then
				RESULTS+="skip ${BASH_REMATCH[2]} ${BASH_REMATCH[5]}"$'\n'
			elif [ "${BASH_REMATCH[4]}" = XFAIL ]; then
				RESULTS+="xfail ${BASH_REMATCH[2]} ${BASH_REMATCH[5]}"$'\n'
			else
				RESULTS+="pass ${BASH_REMATCH[2]}"$'\n'
			fi
		elif [[ $l != "KTAP version 1" && $l != 1..* && $l != "# Totals:"* ]]; then
			echo "# [$label $t] $l"
		fi
	done <<<"$out"
	if [ "$n" = 0 ]; then
		# no case ran: the test as a whole failed (or skipped) to start
		if [ "$rc" = 4 ]; then
			RESULTS="skip ${t%.py} exit 4 before any case"$'\n'
		else
			RESULTS="fail ${t%.py} exit $rc before any case"$'\n'
		fi
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		RESULTS+="fail ${t%.py} timed out after ${KTIMEOUT}s"$'\n'
	fi
}

# all_pass LABEL TEST: every case of the run passed
all_pass() {
	local RESULTS
	parse "$1" "$2" >/dev/null
	! grep -qv '^pass ' <<<"${RESULTS%$'\n'}"
}
# why STATUS REASON: the reason of a skip ("XFAIL: " for an XFAIL).
why() { if [ "$1" = xfail ]; then echo "XFAIL: $2"; else echo "$2"; fi; }

# report_veth: the baseline's results, remembered in VETH.
report_veth() {
	local st c why
	while read -r st c why; do
		[ -n "$st" ] || continue
		case $st in
		pass)	VETH[$c]=pass; ktap_test_pass "veth: $c" ;;
		skip|xfail)
			VETH[$c]="skip:$why"
			ktap_test_skip "veth: $c" "$(why "$st" "$why")" ;;
		*)	VETH[$c]=fail
			ktap_test_skip "veth: $c" "fails on the veth baseline (not counted against rxbisect)" ;;
		esac
	done <<<"$RESULTS"
}

# report_rxb MODEL: rxbisect's results, judged against the baseline.
report_rxb() {
	local m=$1 st c why v
	while read -r st c why; do
		[ -n "$st" ] || continue
		v=${VETH[$c]:-}
		[ -n "${RXB_KDRV_NO_VETH:-}" ] && v=none
		case $st in
		pass)	ktap_test_pass "rxbisect/$m: $c" ;;
		skip|xfail)
			if [ "$v" = pass ]; then
				ktap_test_fail "rxbisect/$m: $c (passes on veth; here $(why "$st" "$why"))"
			else
				ktap_test_skip "rxbisect/$m: $c" "$(why "$st" "$why")"
			fi ;;
		*)	if [ "$v" = fail ]; then
				ktap_test_skip "rxbisect/$m: $c" "fails on the veth baseline too"
			else
				ktap_test_fail "rxbisect/$m: $c"
			fi ;;
		esac
	done <<<"$RESULTS"
}

# addrs LNS IF RNS NSIF: the kernel CI's addressing, IF in LNS, NSIF in
# RNS, both up; again after every kernel test (replace: the addresses a test left
# stay).  A test that takes IF down (stats.py's check_down) leaves it
# without its IPv6 address: IPv6 flushes an interface's addresses when it
# goes down (keep_addr_on_down 0, the default) and the test only sets the
# link up again.  The next test would find no LOCAL_V6: ping.py's test_v6
# fails and its test_tcp (IPv6 when LOCAL_V6 is set) waits for a
# connection that cannot come.
addrs() {
	ip -n "$1" -b - <<-EOF || return 1
		link set lo up
		addr replace $LV4/24 dev $2
		addr replace $LV6/64 dev $2 nodad
		link set $2 up
	EOF
	ip -n "$3" -b - <<-EOF || return 1
		link set lo up
		addr replace $RV4/24 dev $4
		addr replace $RV6/64 dev $4 nodad
		link set $4 up
	EOF
}

# restore LNS IF RNS NSIF: the addressing after a test; a failure is
# reported
restore() {
	addrs "$@" && rxb_wait_carrier "$2" ||
		ktap_print_msg "cannot restore the addresses of $2/$4"
}

# The kernel's driver tests of 6.12 that cannot apply here, and why.
[ "$CSUM" = 1 ] ||
	ktap_test_skip "hw/csum.py" "this kernel's csum.py reads cfg.remote_ifname, which its NetDrvEpEnv does not set (6.12's; later kernels' do): fails on any device, veth too"
if [[ " $ONCE " != *" hw/rss_ctx.py"* ]]; then
	if [ -z "$ETHNEW" ]; then
		ktap_test_skip "hw/rss_ctx.py" "needs ethtool 6.10 or newer ('ethtool --json -x IF context N'; Debian 12 has 6.1): none unpacked in $TOP/build/ethtool-unstable (run tools/ethtool-new.sh --fetch on the host; make ksrc does)"
	else
		ktap_test_skip "hw/rss_ctx.py" "run with RXB_KDRV_ONCE=hw/rss_ctx.py: under TCG its test_hitless_key_update fails on time alone (ethtool -X takes 0.8 s against its 0.2 s)"
	fi
fi
ktap_test_skip "netcons_basic.sh" "creates its own netdevsim pair; 6.12's version has no NETIF mode"
ktap_test_skip "hw/devlink_port_split.py" "needs splittable devlink ports (a physical switch ASIC)"
[ -d "$FAILFN" ] ||
	ktap_test_skip "hw/pp_alloc_fail.py" "this kernel has no function error injection ($FAILFN: CONFIG_FUNCTION_ERROR_INJECTION and CONFIG_FAIL_FUNCTION, which Debian's kernels lack), so the test cannot inject page_pool allocation failures (qstats.sh injects them through rxbisect's fault/alloc_fail)"
ktap_test_skip "hw/*.sh (ethtool, ethtool_mm, ethtool_rmon, ethtool_extended_state, hw_stats_l3, hw_stats_l3_gre, loopback)" "forwarding-lib tests of physical NICs (link modes, MAC merge, RMON, L3 hardware stats, PHY loopback) over NETIFS cabled pairs: no such hardware to emulate"

# ---- rxbisect, every model, LANES lanes at once -------------------------------
LANES=${RXB_KDRV_LANES:-2}
[ "$LANES" -ge 1 ] 2>/dev/null || LANES=1
LNS=()
RNS=()
kdrv_cleanup() {
	rxb_ns_del "${LNS[@]}" "${RNS[@]}"
	rxb_cleanup
}
trap kdrv_cleanup EXIT
rxb_load pairs=$LANES || rxb_bail "cannot load the module with pairs=$LANES"
for ((l = 0; l <= LANES; l++)); do	# lane LANES: the veth baseline
	LNS[l]=kdrv-$$-l$l
	RNS[l]=kdrv-$$-r$l
	ip netns add "${LNS[l]}" && ip netns add "${RNS[l]}" ||
		rxb_bail "cannot create the namespaces of lane $l"
	[ "$l" = "$LANES" ] && break
	RXB_NS["rxb$((2 * l))"]=${LNS[l]}
	RXB_NS["rxb$((2 * l + 1))"]=${RNS[l]}
	ip link set rxb$((2 * l)) netns "${LNS[l]}" &&
		ip link set rxb$((2 * l + 1)) netns "${RNS[l]}" &&
		addrs "${LNS[l]}" rxb$((2 * l)) "${RNS[l]}" rxb$((2 * l + 1)) &&
		rxb_wait_carrier rxb$((2 * l)) ||
		rxb_bail "cannot set up rxb$((2 * l))/rxb$((2 * l + 1))"
done
models=${RXB_KDRV_MODELS:-$(rxb_models)}

# lane L MODEL...: the lane's models one after the other, every test under
# each; "setup" in $RXB_TMP/out.MODEL.setup when a switch failed
lane() {
	local l=$1 m t o a=rxb$((2 * $1)) b=rxb$((2 * $1 + 1))
	shift
	for m in "$@"; do
		if ! DL=rxbisect/rxbisect$l rxb_dl_set ring_model "$m" ||
		   ! rxb_wait_carrier $a || ! rxb_wait_carrier $b; then
			echo "switch failed" > "$RXB_TMP/out.$m.setup"
			continue
		fi
		for t in $(tests_of "$m"); do
			o=$(out "$m" "$t")
			run_kernel_test "${LNS[l]}" $a "${RNS[l]}" "$t" > "$o"
			# progress, so that a run cut short by its timeout shows how far it got
			echo "# lane $l: $m $t: $(head -n 1 "$o")s"
			restore "${LNS[l]}" $a "${RNS[l]}" $b > "$o.restore"
		done
	done
}

# tests_of MODEL: the kernel tests run under MODEL
tests_of() {
	local tests=$EVERY
	[[ " $ONCE_MODELS " == *" $1 "* ]] && tests="$tests $ONCE"
	echo $tests
}

declare -a mine=()
i=0
for m in $models; do
	mine[i % LANES]+=" $m"
	i=$((i + 1))
done
for ((l = 0; l < LANES; l++)); do
	# shellcheck disable=SC2086
	lane "$l" ${mine[l]} &
done
wait

# ---- the veth baseline, for the tests that need it ------------------------------
declare -A NEED=()
for m in $models; do
	[ -e "$RXB_TMP/out.$m.setup" ] && continue
	for t in $(tests_of "$m"); do
		all_pass "rxbisect/$m" "$t" || NEED[$t]=1
	done
done
for t in $EVERY $ONCE; do
	if [ -n "${RXB_KDRV_NO_VETH:-}" ]; then
		continue
	elif [ -z "${NEED[$t]:-}" ]; then
		ktap_test_skip "veth: $t" "baseline not needed: every case passes on rxbisect under every model"
		continue
	fi
	if [ -z "$VETH_UP" ]; then
		l=$LANES
		RXB_NS["kdv0"]=${LNS[l]}
		RXB_NS["kdv1"]=${RNS[l]}
		if ip -n "${LNS[l]}" link add kdv0 numtxqueues 2 numrxqueues 2 \
			type veth peer name kdv1 numtxqueues 2 numrxqueues 2 \
			netns "${RNS[l]}" && addrs "${LNS[l]}" kdv0 "${RNS[l]}" kdv1 &&
		   rxb_wait_carrier kdv0; then
			VETH_UP=1
		else
			ktap_test_fail "veth baseline: cannot set up kdv0/kdv1"
			VETH_UP=fail
		fi
	fi
	[ "$VETH_UP" = 1 ] || continue
	run_kernel_test "${LNS[l]}" kdv0 "${RNS[l]}" "$t" > "$(out veth "$t")"
	parse veth "$t"
	report_veth
	restore "${LNS[l]}" kdv0 "${RNS[l]}" kdv1
done

# ---- the results under every model, in order ----------------------------------
for m in $models; do
	if [ -e "$RXB_TMP/out.$m.setup" ]; then
		ktap_test_fail "rxbisect/$m: switch to the model"
		continue
	fi
	for t in $(tests_of "$m"); do
		parse "rxbisect/$m" "$t"
		report_rxb "$m"
		cat "$(out "$m" "$t").restore"
	done
done

ktap_set_plan "$KTAP_CNT"
ktap_finished
