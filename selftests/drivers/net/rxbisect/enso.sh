#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Ensō ring model (Sadok et al., OSDI '23): pipes the NIC appends
# frames to, reactive notifications.  Small pipes (32 KiB) so that the
# traffic wraps each pipe tens of times: numbered UDP datagrams arrive
# exactly once and in order per flow (a flow stays on one pipe); the
# NIC's notifications are fewer than its frames; 64 pipes per queue with
# prefetch set under traffic; switches to privring and back under
# traffic; bad pipe parameters are refused with a message and the device
# keeps forwarding.

source "$(dirname "$0")/lib.sh"

rxb_init ping python3 devlink
ktap_set_plan 8

rxb_load queues=2 ring_model=enso rx_ring_size=256 enso_pipe_kb=32 ||
	rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
sysctl -qw net.core.rmem_max=$((32 << 20)) 2>/dev/null

# seq_check NAME COUNT FLOWS RATE: numbered datagrams; exactly once (no
# duplicate, unique + NIC and socket drops = sent, drops under 5 %) and in
# order within each flow.
seq_check() {
	local name=$1 sent uniq dup fooo nic rcvbuf nic0 rcvbuf0
	rxb_snap rxb1
	nic0=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops]))
	rcvbuf0=$(ip netns exec "$NS1" awk '/^Udp:/ { n++ } n == 2 { print $6; exit }' /proc/net/snmp)
	rxb_udp_seq "$RXB_TMP/$name.json" "$2" "$3" "$4"
	sent=$RXB_UDP_SENT
	rxb_snap rxb1
	nic=$((RXB_S[rx_nobuf_drops] + RXB_S[rx_ring_full_drops] - nic0))
	rcvbuf=$(($(ip netns exec "$NS1" awk '/^Udp:/ { n++ } n == 2 { print $6; exit }' /proc/net/snmp) - rcvbuf0))
	uniq=$(rxb_jget "$RXB_TMP/$name.json" unique)
	dup=$(rxb_jget "$RXB_TMP/$name.json" dup)
	fooo=$(rxb_jget "$RXB_TMP/$name.json" flow_ooo)
	ktap_print_msg "$name: sent $sent, unique $uniq, duplicates $dup, pipe-full drops $nic, socket drops $rcvbuf, reordered within a flow $fooo"
	[ "${sent:-0}" -gt 0 -a "${dup:-x}" = 0 -a "${fooo:-x}" = 0 -a \
	  $((${uniq:-0} + nic + rcvbuf)) = "${sent:-0}" -a \
	  $((nic + rcvbuf)) -lt $((sent / 20)) ]
}

# 1
fw=$(rxb_in rxb1 ethtool -i rxb1 | sed -n 's/^firmware-version: //p')
ktap_test_result "ethtool -i reports enso ($fw)" [ "$fw" = "emulated enso" ]

# 2: 12000 frames of 128 bytes in the pipe through two 32 KiB pipes:
# about 24 wraps each
ktap_test_result "UDP over 8 flows through 32 KiB pipes: exactly once, in order per flow" \
	seq_check one 12000 8 3000

# 3: a burst the consumer cannot keep up with: the NIC notifies batches
rxb_snap rxb1
n0=$(rxb_s_qsum notifs) s0=$(rxb_s_qsum suppressed) h0=$(rxb_s_qsum hw_packets)
rxb_udp_blast "$NS0" "$RXB_IP1" 3000 4 >/dev/null
rxb_wait_consumed rxb1
rxb_snap rxb1
notifs=$(($(rxb_s_qsum notifs) - n0)) sup=$(($(rxb_s_qsum suppressed) - s0))
hw=$(($(rxb_s_qsum hw_packets) - h0))
ktap_print_msg "burst: $notifs notifications for $hw frames written ($sup not notified on arrival); head writes $(rxb_s_qsum head_writes)"
ktap_test_result "reactive notifications: fewer than frames under a burst, none lost" \
	[ "$notifs" -gt 0 -a "$notifs" -lt "$hw" -a "$sup" -gt 0 ]

# 4: 64 pipes per queue and low-latency mode, set while traffic runs
rxb_bg ip netns exec "$NS0" ping -q -i 0.01 -c 400 "$RXB_IP1" >/dev/null 2>&1
rxb_dl_set enso_pipes 64 && rxb_dl_set enso_prefetch on
rc=$?
ok=0
[ $rc = 0 ] && [ "$(rxb_dl_get enso_pipes)" = 64 ] && seq_check many 8000 16 3000 && ok=1
ktap_test_result "64 pipes per queue with prefetch: exactly once, in order per flow" \
	[ $ok = 1 ]
rxb_snap rxb1
ktap_print_msg "prefetches $(rxb_s_qsum prefetches), notifications $(rxb_s_qsum notifs), dropped $(rxb_s_qsum notif_drops), resent $(rxb_s_qsum notif_retries)"

# 5, 6: switch models under traffic
rxb_bg ip netns exec "$NS0" ping -q -i 0.01 -c 300 "$RXB_IP1" >/dev/null 2>&1
ok=1
for m in privring enso privring enso; do
	rxb_dl_set ring_model $m || ok=0
	sleep 0.3
done
ktap_test_result "ring_model switched enso <-> privring four times under traffic" \
	[ $ok = 1 -a "$(rxb_dl_get ring_model)" = enso ]
ktap_test_result "after the switches: exactly once, in order per flow" \
	seq_check after 4000 8 3000

# 7: bad input refused with a message, nothing changed
bad=0
for v in 3 12 0 4096 8192; do rxb_dl_check_bad enso_pipe_kb "$v"; done
for v in 0 3 1024; do rxb_dl_check_bad enso_pipes "$v"; done
# 512 pipes: more than the 256-entry notification ring (rx ring size)
rxb_dl_check_bad enso_pipes 512
rxb_dl_check_bad enso_prefetch maybe
ktap_test_result "bad pipe parameters refused with a message, values kept" [ $bad = 0 ]

# 8
ktap_test_result "the device still forwards, every frame consumed once" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 && rxb_wait_consumed rxb1'

ktap_finished
