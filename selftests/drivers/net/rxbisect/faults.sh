#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection (debugfs fault/), for every ring model the module
# registers, with a UDP stream running rxb0 -> rxb1:
#  - alloc_fail: buffer allocations fail; rxN_alloc_fails counts them;
#    when all of them fail, the polls back off (rx_refill_backoffs) instead
#    of spinning the softirq: fewer than 1000 polls a second;
#  - dma_fail: the NIC's DMA writes fail; the NIC counts rx_dma_faults,
#    the driver drops each such packet (rx_dma_errors) and recycles its
#    buffer;
#  - engine_stall: the NIC's engine freezes, nothing is written, arriving
#    frames wait (rx_stall_frames) and are delivered when it resumes;
# after each, traffic flows again.  Then: every frame is accounted for,
# a stalled engine's FIFO overflows into rx_fifo_drops, and after the
# module is unloaded every page_pool got all its pages back.

source "$(dirname "$0")/lib.sh"

rxb_init ping

rxb_load queues=2 || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
[ -n "$MODELS" ] || rxb_bail "no $RXB_DBG/models"
nm=$(wc -w <<<"$MODELS")
ktap_set_plan $((nm + 4))
ktap_print_msg "models: $MODELS"
rxb_pp_trace_start || ktap_print_msg "no trace instance for page_pool events"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# snap: counters of rxb1 into P (delivered), AF (alloc_fails), DF, DE
# (DMA faults, errors), SF (stall frames), HW (written by the NIC), POLLS,
# BO (refill back-offs), T (when, ns); one awk instead of rxb_snap's loop:
# this test takes many.
# (ethtool through nsenter: a third of the cost of "ip netns exec" in the
# VM; the time from bash, not date)
snap() {
	read -r P AF DF DE SF HW POLLS BO < <(nsenter --net="/run/netns/$NS1" ethtool -S rxb1 | awk '
		{ v[$1] = $2 }
		/^ *rx[0-9]+_alloc_fails:/ { af += $2 }
		/^ *rx[0-9]+_hw_packets:/ { hw += $2 }
		END { print v["rx_packets:"] + 0, af + v["rx_skb_drops:"], v["rx_dma_faults:"] + 0,
			    v["rx_dma_errors:"] + 0, v["rx_stall_frames:"] + 0, hw + 0,
			    v["rx_polls:"] + 0, v["rx_refill_backoffs:"] + 0 }')
	T=${EPOCHREALTIME//[!0-9]/}000
}

# flows: wait (up to 5 s, times RXB_TIMEOUT_SCALE: the debug kernel's
# sender may take that long to start) for rx_packets to grow by 50
# (traffic recovered); the first look right away, then every 0.1 s.
FLOWS_WAIT=$((5 * ${RXB_TIMEOUT_SCALE:-1}))
flows() {
	local p0 t0=$SECONDS
	snap
	p0=$P
	while [ $((SECONDS - t0)) -le $FLOWS_WAIT ]; do
		rxb_sleep 0.1
		snap
		[ $((P - p0)) -ge 50 ] && return 0
	done
	ktap_print_msg "rx_packets +$((P - p0)) in $FLOWS_WAIT s"
	return 1
}

model_faults() {	# MODEL: one KTAP result
	local m=$1 ok=1 af0 df0 de0 sf0 hw0 st

	echo "$m" > /sys/module/rxbisect/parameters/ring_model || {
		ktap_test_fail "$m: cannot switch to it"
		return
	}
	st=$(nsenter --net="/run/netns/$NS1" ethtool -i rxb1)
	st=${st#*firmware-version: emulated }
	st=${st%%$'\n'*}
	[ "$st" = "$m" ] || { ktap_print_msg "$m: rxb1 runs '$st'"; ok=0; }
	snap

	# alloc_fail: a fifth of the allocations fail for a while
	af0=$AF
	rxb_fault rxb1 alloc_fail 200
	rxb_sleep 0.2
	snap
	rxb_fault rxb1 alloc_fail 0
	[ $((AF - af0)) -gt 0 ] || { ktap_print_msg "$m: alloc_fails did not grow"; ok=0; }
	st="alloc_fails +$((AF - af0))"
	flows || { ktap_print_msg "$m: no traffic after alloc_fail"; ok=0; }

	# alloc_fail 1000: no buffer at all for half a second; polls per
	# second (a poll that finds no buffer re-arms in a jiffy: at most
	# HZ a second per queue).
	# Not for enso: it has no buffers to post, only the skbs it copies
	# packets into (their failures counted above, in rx_skb_drops).
	[ "$m" = enso ] || {
	rxb_fault rxb1 alloc_fail 1000
	rxb_sleep 0.3
	snap; p0=$POLLS; bo0=$BO; t0=$T
	rxb_sleep 0.5
	snap
	rxb_fault rxb1 alloc_fail 0
	pps=$(((POLLS - p0) * 1000000000 / (T - t0)))
	[ $pps -lt 1000 ] && [ $((BO - bo0)) -gt 0 ] ||
		{ ktap_print_msg "$m: no buffers: $pps polls/s, rx_refill_backoffs +$((BO - bo0))"; ok=0; }
	st="$st, no buffers: $pps polls/s"
	flows || { ktap_print_msg "$m: no traffic after alloc_fail=1000"; ok=0; }
	}

	# dma_fail: a third of the DMA writes fail
	df0=$DF; de0=$DE
	rxb_fault rxb1 dma_fail 333
	rxb_sleep 0.2
	snap
	rxb_fault rxb1 dma_fail 0
	[ $((DF - df0)) -gt 0 ] && [ $((DE - de0)) -gt 0 ] ||
		{ ktap_print_msg "$m: rx_dma_faults +$((DF - df0)) rx_dma_errors +$((DE - de0))"; ok=0; }
	st="$st, dma_faults +$((DF - df0))"
	flows || { ktap_print_msg "$m: no traffic after dma_fail"; ok=0; }

	# engine_stall: nothing is written while it lasts, all comes later
	rxb_fault rxb1 engine_stall 1
	rxb_sleep 0.1
	snap; sf0=$SF; hw0=$HW
	rxb_sleep 0.3
	snap
	rxb_fault rxb1 engine_stall 0
	[ $((SF - sf0)) -gt 0 ] && [ "$HW" = "$hw0" ] ||
		{ ktap_print_msg "$m: stalled: stall_frames +$((SF - sf0)), hw_packets +$((HW - hw0))"; ok=0; }
	st="$st, stall_frames +$((SF - sf0))"
	flows || { ktap_print_msg "$m: no traffic after engine_stall"; ok=0; }

	ktap_print_msg "$m: $st"
	ktap_test_result "$m: alloc_fail, dma_fail, engine_stall counted, traffic recovers" [ $ok = 1 ]
}

# 1..nm: one UDP stream throughout, 400 datagrams/s over 8 flows (enough
# for every window below: the shortest, 0.2 s plus a snap, sees 80 or more;
# 1000/s took most of the VM's CPU and made each snap take a second)
base=$(rxb_balance rxb0 rxb1)
# It runs until the test ends (rxb_cleanup), however slow the kernel.
RXB_BLAST_SECS=3600 rxb_bg rxb_udp_blast "$NS0" "$RXB_IP1" 10000000 8 400 >/dev/null
flows || ktap_print_msg "the UDP stream does not start"
for m in $MODELS; do
	model_faults "$m"
done
rxb_kill_bg
echo privring > /sys/module/rxbisect/parameters/ring_model

# nm+1: every frame rxb0 sent reached rxb1's NIC or a counted drop; every
# frame written was handed up once (or freed with rings torn down by a
# model switch); every DMA failure was dropped by the driver.
rxb_wait_consumed rxb1
rxb_snap rxb1
fifo=${RXB_S[rx_fifo_drops]}
b=$(rxb_balance rxb0 rxb1)
ktap_print_msg "balance tx - rx_in: $base before, $b after, rx_fifo_drops $fifo;" \
	"rx_dma_faults ${RXB_S[rx_dma_faults]}, rx_dma_errors ${RXB_S[rx_dma_errors]}"
ktap_test_result "every frame accounted for: received, flushed or a counted drop" \
	[ $((b - fifo)) = "$base" -a "${RXB_S[rx_dma_faults]}" = "${RXB_S[rx_dma_errors]}" ]

# nm+2: a stalled engine holds at most 4096 frames, then drops and counts;
# inline (the held queue) and with a dedicated engine thread (its queue)
frame=$(rxb_mac rxb1 | tr -d :)$(rxb_mac rxb0 | tr -d :)88b5$(printf '%092d' 0)
ok=1
for eng in inline cpu$(($(rxb_online_cpus | tail -n1))); do
	echo "$eng" > /sys/module/rxbisect/parameters/engine || { ok=0; continue; }
	rxb_fault rxb1 engine_stall 1
	rxb_snap rxb1
	f0=${RXB_S[rx_fifo_drops]}
	in0=$(rxb_s_rx_in)
	rxb_inject_n rxb1 4200 "$frame"
	rxb_snap rxb1
	f1=${RXB_S[rx_fifo_drops]}
	in1=$(rxb_s_rx_in)
	rxb_fault rxb1 engine_stall 0
	# The ring takes what it can of the burst, the rest are ring drops:
	# all of it counts in rx_in.
	for i in {1..27}; do
		rxb_snap rxb1
		in2=$(rxb_s_rx_in)
		[ $((in2 - in1)) -ge 4096 ] && break
		rxb_poll_wait $i
	done
	rxb_wait_consumed rxb1 || ok=0
	ktap_print_msg "engine $eng: 4200 frames while stalled: rx_fifo_drops +$((f1 - f0)), processed while stalled $((in1 - in0)), after it resumed $((in2 - in1))"
	[ $((f1 - f0)) = 104 -a $((in1 - in0)) = 0 -a $((in2 - in1)) = 4096 ] || ok=0
done
echo inline > /sys/module/rxbisect/parameters/engine
ktap_test_result "stalled engine (inline, thread): 4096 frames held and processed on resume, 104 dropped" \
	[ $ok = 1 ]

# nm+3
ktap_test_result "ping rxb0 -> rxb1 at the end" rxb_ping_ok "$NS0" "$RXB_IP1" 5

# nm+4: all pages back in their pools once the ports are gone
rxb_kill_bg
rxb_unload || ktap_print_msg "rmmod failed"
rxb_pp_released_result 15

ktap_finished
