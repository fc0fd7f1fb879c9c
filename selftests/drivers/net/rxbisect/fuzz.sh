#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The control-plane fuzzer, tools/fuzz/rxb-fuzz.py, for a bounded slice:
# for each seed, a freshly loaded module (queues=4) and a random sequence
# of module and devlink parameter writes, ethtool -G/-L/-C/-K/-X/-N/-S,
# MTU, link up/down, model switches, XDP and AF_XDP, debugfs faults and
# injected frames, port creation and deletion, bad values mixed in, under
# UDP traffic both ways; after each step the fuzzer checks that the pair
# forwards (or is cleanly down), refused requests were refused with a
# message and changed nothing, accumulating counters did not go down and
# the kernel log has no splat.  Then, with the module unloaded, every
# page_pool got all its pages back and the log is clean.
#
#  1..N  seed S: the fuzzer's steps all held (one case per seed)
#  N+1   every page_pool released with 0 pages in flight
#  N+2   no kernel splat during the run
#
# Deterministic by default: the seeds are RXB_FUZZ_SEEDS (default "1 2"),
# each run for at most RXB_FUZZ_STEPS steps (default 25) and all of them
# within RXB_FUZZ_SECS seconds (default 90; a seed cut short by the time
# says at which step).  RXB_FUZZ_SEED=S runs seed S alone for
# RXB_FUZZ_SECS (no step bound); RXB_FUZZ_SEED=random runs the seeds of
# RXB_FUZZ_SEEDS if set (RXB_FUZZ_STEPS each), then new random seeds (each
# printed, no step bound) until RXB_FUZZ_SECS is used up: make fuzz
# FUZZ_SECS=N [FUZZ_SEED=S].  A failing seed replays with RXB_FUZZ_SEED=S
# (or, on a loaded module, tools/fuzz/rxb-fuzz.py --seed S --steps N --ns0
# A --ns1 B).  RXB_FUZZ_TRACE=1: every step's log and each command's time.

source "$(dirname "$0")/lib.sh"

FUZZ=$(cd "$RXB_DIR/../../../.." && pwd)/tools/fuzz/rxb-fuzz.py
rxb_init ethtool devlink
[ -r "$FUZZ" ] || ktap_skip_all "no $FUZZ"

SECS=${RXB_FUZZ_SECS:-90}
STEPS=${RXB_FUZZ_STEPS:-25}
case ${RXB_FUZZ_SEED:-} in
"") SEEDS=${RXB_FUZZ_SEEDS:-1 2} ;;
random) SEEDS=random ;;
*) SEEDS=$RXB_FUZZ_SEED ;;
esac

rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"
mark=$(rxb_kmsg_mark "fuzz.sh")

# fuzz_one SEED SECS [STEPS]: one run of the fuzzer on a freshly loaded
# module (SEED "": a random one; STEPS 0 or none: no bound).
fuzz_one() {
	local out rc
	rxb_load queues=4 || { ktap_print_msg "cannot load the module"; return 1; }
	out=$RXB_TMP/fuzz.out
	python3 "$FUZZ" --ns0 "$NS0" --ns1 "$NS1" --secs "$2" \
		${1:+--seed "$1"} $([ "${3:-0}" -gt 0 ] && echo "--steps $3") \
		>"$out" 2>&1
	rc=$?
	# the whole log on a failure, else the first and last lines
	if [ $rc = 0 ] && [ -z "${RXB_FUZZ_TRACE:-}" ]; then
		{ head -n 1 "$out"; echo ...; tail -n 2 "$out"; } | sed 's/^/# /'
	else
		sed 's/^/# /' "$out"
	fi
	FUZZ_SEED_RAN=$(sed -n 's/^rxb-fuzz: seed \([0-9]*\).*/\1/p' "$out")
	return $rc
}

t0=$SECONDS
n=0
if [ "$SEEDS" = random ]; then
	# RXB_FUZZ_SEEDS, when set, first (e.g. replays of earlier finds)
	for s in ${RXB_FUZZ_SEEDS:-}; do
		n=$((n + 1))
		fuzz_one "$s" $((SECS - (SECONDS - t0))) "$STEPS"
		rc=$?
		ktap_test_result "seed $s" [ $rc = 0 ]
	done
	while [ $((SECONDS - t0)) -lt "$SECS" ]; do
		n=$((n + 1))
		fuzz_one "" $((SECS - (SECONDS - t0)))
		rc=$?
		ktap_test_result "random seed $FUZZ_SEED_RAN" [ $rc = 0 ]
	done
	ktap_set_plan $((n + 2))
else
	set -- $SEEDS
	ktap_set_plan $(($# + 2))
	for s; do
		left=$((SECS - (SECONDS - t0)))
		[ $left -lt 5 ] && left=5
		fuzz_one "$s" $left "$([ "$SEEDS" = "${RXB_FUZZ_SEED:-}" ] || echo "$STEPS")"
		rc=$?
		ktap_test_result "seed $s" [ $rc = 0 ]
	done
fi

rxb_unload || ktap_print_msg "cannot unload the module"
rxb_pp_released_result 30
bad=$(rxb_kmsg_clean "$mark")
ktap_test_result "no kernel splat during the run" [ -z "$bad" ]
[ -n "$bad" ] && ktap_print_msg "$bad"
ktap_finished
