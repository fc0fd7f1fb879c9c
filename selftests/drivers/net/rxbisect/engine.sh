#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NIC engine placement: inline (in the sender's context) or a dedicated
# kernel thread bound to one CPU and fed by a lock-free ingress queue, like
# the seeds' emulator core; switching under traffic; invalid placements.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ps
ktap_set_plan 9

P=/sys/module/rxbisect/parameters
last=$(($(nproc) - 1))

# engine_cpus: "name:cpu" of every rxb-nic thread
engine_cpus() { ps -eo psr=,comm= | awk '$2 ~ /^rxb-nic\// { print $2 ":" $1 }' | sort; }

rxb_load queues=2 engine=cpu$last || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 1
t=$(engine_cpus)
ktap_print_msg "threads: $(echo $t)"
ktap_test_result "engine=cpu$last: one thread per port, on CPU $last" \
	[ "$t" = "$(printf 'rxb-nic/rxb0:%s\nrxb-nic/rxb1:%s' $last $last)" ]

# 2, 3: traffic goes through the engine
e0=$(rxb_stat rxb1 engine_frames)
rxb_iperf "$RXB_TMP/tcp.json" 3
rc=$?
e1=$(rxb_stat rxb1 engine_frames)
ktap_print_msg "engine_frames +$((e1 - e0)), rx_fifo_drops $(rxb_stat rxb1 rx_fifo_drops)"
ktap_test_result "TCP through the dedicated engine" rxb_iperf_check "$RXB_TMP/tcp.json" $rc "TCP, engine thread"
# At least a frame a 1500 bytes received: a count, whatever the rate.
ktap_test_result "the engine processed the frames (engine_frames grows)" \
	eval '[ $((e1 - e0)) -gt 0 ] && [ $((e1 - e0)) -ge $((IPERF_BYTES / 1500)) ]'

# 4, 5: switching under traffic
rxb_iperf_start "$RXB_TMP/sw.json" 10 || rxb_bail "iperf3 did not start"
rxb_sleep 1
ok=1
for e in inline cpu0 inline cpu$last; do
	echo "$e" > $P/engine || { ktap_print_msg "engine $e failed"; ok=0; }
	rxb_sleep 1.5
done
ktap_test_result "engine inline/cpu0/inline/cpu$last under traffic" [ $ok = 1 ]
wait "$RXB_IPERF_PID"
ktap_test_result "the TCP stream survived the switches" \
	rxb_iperf_check "$RXB_TMP/sw.json" $? "TCP across engine switches"

# 6
echo inline > $P/engine
ktap_test_result "engine=inline: no engine thread left" [ -z "$(engine_cpus)" ]

# 7: invalid placements
bad=0
for v in cpu99 cpu$((last + 1)) foo "" 3 -1; do
	echo "$v" > $P/engine 2>/dev/null && { ktap_print_msg "engine '$v' accepted"; bad=1; }
done
ktap_test_result "invalid engine values refused, value kept" \
	[ $bad = 0 -a "$(cat $P/engine)" = inline ]

# 8, 9: frames in the ingress queue at teardown are not leaked
echo cpu0 > $P/engine
rxb_udp_blast "$NS0" "$RXB_IP1" 3000 16 >/dev/null &
rxb_sleep 0.3
ktap_test_result "link down with the engine busy" rxb_ip rxb1 link set rxb1 down
wait
ktap_test_result "unload with the engine running" rxb_unload

ktap_finished
