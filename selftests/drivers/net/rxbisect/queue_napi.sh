#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Queues, NAPI instances and page_pools in the netdev netlink family
# (kernels from 6.8): under every ring model, each rx queue of a port has a
# NAPI instance of its own, tx queue N shares rx queue N's (combined
# channels), and the port's page_pools (page-pool-get) are one per queue,
# with the port's ifindex and the queues' NAPI ids (COREC: one per shared
# queue, its consumers' together, with no NAPI id); a port that is down
# has neither.  Skipped, with the reason, on a kernel without the family
# (6.1).

source "$(dirname "$0")/lib.sh"

rxb_init python3

NL="python3 $RXB_DIR/netdev_nl.py"
NQ=4

rxb_load queues=$NQ || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
out=$(ip netns exec "$NS1" $NL has queue-get 2>&1)
[ $? = 4 ] && ktap_skip_all "${out#\# }"
models=$(rxb_models)
ktap_set_plan $(($(wc -w <<<"$models") + 2))

# 1..N: every model in turn, one python process (the module parameter
# ring_model switches both ports)
# shellcheck disable=SC2086
out=$(ip netns exec "$NS1" $NL napi rxb1 $NQ $models 2>&1)
ktap_print_msg "$(grep '^#' <<<"$out" | sed 's/^# //')"
for m in $models; do
	ktap_test_result "$m: queues, NAPI ids and page_pools of rxb1" \
		grep -qx "ok $m" <<<"$out"
done
echo privring > /sys/module/rxbisect/parameters/ring_model
ktap_test_result "traffic after the model switches" rxb_ping_ok "$NS0" "$RXB_IP1" 5

# N+1: down: no queue NAPI, no attached page_pool
rxb_ip rxb1 link set rxb1 down
out=$(ip netns exec "$NS1" $NL down rxb1 2>&1)
rc=$?
[ -n "$out" ] && ktap_print_msg "$out"
ktap_test_result "port down: no queue NAPI, no attached page_pool" [ $rc = 0 ]

ktap_finished
