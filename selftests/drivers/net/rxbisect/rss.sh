#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RSS with 4 queues: flows spread over every queue, each queue's NAPI runs on
# its interrupt CPU, the NIC steers by Toeplitz(key) and the indirection
# table, and ethtool -x/-X read and change both.

source "$(dirname "$0")/lib.sh"

rxb_init iperf3 ping ss
ktap_set_plan 12

NQ=4
rxb_load queues=$NQ || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

mapfile -t CPUS < <(rxb_online_cpus)
ktap_print_msg "online CPUs: ${CPUS[*]}"

# default_indir N: the default table for N queues (entry i -> i mod N).
default_indir() {
	local i o=()
	for ((i = 0; i < 128; i++)); do o+=($((i % $1))); done
	echo "${o[*]}"
}

# Traffic to rxb1 from many flows: 1000 UDP datagrams from 64 source ports.
spray() { rxb_udp_blast "$NS0" "$RXB_IP1" "${1:-1000}" 64 >/dev/null; }

# steer_check DESC: send 3 datagrams on each of 8 flows and compare the
# per-queue rxN_hw_packets deltas of rxb1 with what Toeplitz(key) and the
# table say.
steer_check() {
	local key indir sp q want=() got before i n=3
	key=$(rxb_hkey rxb1)
	indir=$(rxb_indir rxb1)
	if [ -z "$key" ] || [ "$(wc -w <<<"$indir")" != 128 ]; then
		ktap_print_msg "cannot read the key/table with ethtool -x"
		ktap_test_fail "$1"
		return
	fi
	for i in $(seq 0 $((NQ - 1))); do want[i]=0; done
	for sp in {40001..40008}; do
		q=$(rxb_toeplitz_queue "$key" "$indir" "$RXB_IP0" "$RXB_IP1" "$sp" 9)
		want[q]=$((want[q] + n))
	done
	before=$(rxb_qvals rxb1 hw_packets)
	rxb_udp_flows "$NS0" "$RXB_IP1" $n {40001..40008}
	for i in {1..50}; do
		got=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$before")
		[ "$got" = "${want[*]}" ] && break
		rxb_sleep 0.1
	done
	ktap_print_msg "per-queue frames: expected (Toeplitz) ${want[*]}, got $got"
	ktap_test_result "$1" [ "$got" = "${want[*]}" ]
}

# 1
ktap_test_result "ethtool -l rxb1: combined $NQ" [ "$(rxb_channels rxb1)" = $NQ ]

# 2
ok=1
for p in rxb0 rxb1; do
	for q in $(seq 0 $((NQ - 1))); do
		c=$(rxb_knob $p $q irq_cpu)
		w=${CPUS[q % ${#CPUS[@]}]}
		[ "$c" = "$w" ] || { ok=0; ktap_print_msg "$p q$q: irq_cpu $c, expected $w"; }
	done
done
ktap_test_result "debugfs irq_cpu of queue i = i-th online CPU (mod ${#CPUS[@]})" [ $ok = 1 ]

# 3
indir=$(rxb_indir rxb1)
key=$(rxb_hkey rxb1)
rxb_in rxb1 ethtool -x rxb1 2>&1 | head -n 3 | sed 's/^/# /'
ktap_print_msg "key: $key"
ktap_test_result "ethtool -x: 128-entry default table (i mod $NQ), 40-byte key" \
	eval '[ "$indir" = "$(default_indir $NQ)" ] && [ "$(tr ":" " " <<<"$key" | wc -w)" = 40 ]'

# 4, 5, 6: many flows
pk0=$(rxb_qvals rxb1 packets)
rxb_iperf "$RXB_TMP/tcp.json" 3 -P 16
rc=$?
spray 2000
d=$(rxb_vsub "$(rxb_qvals rxb1 packets)" "$pk0")
ktap_print_msg "rxb1 per-queue rxN_packets deltas: $d"
ktap_test_result "iperf3 TCP -P 16" rxb_iperf_check "$RXB_TMP/tcp.json" $rc "TCP -P 16"
ok=1
for v in $d; do [ "$v" -gt 0 ] || ok=0; done
ktap_test_result "every receive queue of rxb1 got packets" [ $ok = 1 -a "$(wc -w <<<"$d")" = $NQ ]

polls=$(rxb_qvals rxb1 polls)
ok=1
for v in $polls; do [ "$v" -gt 0 ] || ok=0; done
off0=$(rxb_stat rxb0 rx_polls_off_cpu)
off1=$(rxb_stat rxb1 rx_polls_off_cpu)
ktap_print_msg "rxb1 rxN_polls: $polls; rx_polls_off_cpu: rxb0 $off0, rxb1 $off1"
ktap_test_result "rxN_polls > 0 and rx_polls_off_cpu = 0 (NAPI on the irq CPU)" \
	[ $ok = 1 -a "$off0" = 0 -a "$off1" = 0 ]

# 7
steer_check "queue of each flow = indir[Toeplitz(default key) % 128]"

# 8, 9
MSKEY=6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa
if rxb_in rxb1 ethtool -X rxb1 hkey $MSKEY; then
	ktap_test_result "ethtool -X hkey: new key accepted and read back" \
		[ "$(rxb_hkey rxb1)" = $MSKEY ]
else
	ktap_test_fail "ethtool -X hkey: new key accepted and read back"
fi
steer_check "queue of each flow = indir[Toeplitz(new key) % 128]"

# 10
if rxb_in rxb1 ethtool -X rxb1 weight 0 1 0 0; then
	t=$(rxb_indir rxb1)
	hw0=$(rxb_qvals rxb1 hw_packets)
	pk0=$(rxb_qvals rxb1 packets)
	spray 1000
	rxb_ping_ok "$NS0" "$RXB_IP1" 5
	rxb_wait_consumed rxb1
	d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$hw0")
	dp=$(rxb_vsub "$(rxb_qvals rxb1 packets)" "$pk0")
	ktap_print_msg "weight 0 1 0 0: rxN_hw_packets deltas $d, rxN_packets deltas $dp"
	read -r a b c e <<<"$d"
	read -r pa pb pc pe <<<"$dp"
	ktap_test_result "ethtool -X weight 0 1 0 0: only queue 1 receives" \
		eval '[ "$t" = "$(default_indir 1 | sed "s/0/1/g")" ] && [ "$b" -gt 0 ] &&
		      [ "$a$c$e" = 000 ] && [ "$pb" = "$b" ] && [ "$pa$pc$pe" = 000 ]'
else
	ktap_test_fail "ethtool -X weight 0 1 0 0: only queue 1 receives"
fi

# 11
if rxb_in rxb1 ethtool -X rxb1 default; then
	t=$(rxb_indir rxb1)
	hw0=$(rxb_qvals rxb1 hw_packets)
	spray 1000
	d=$(rxb_vsub "$(rxb_qvals rxb1 hw_packets)" "$hw0")
	ktap_print_msg "default table again: rxN_hw_packets deltas $d"
	ok=1
	for v in $d; do [ "$v" -gt 0 ] || ok=0; done
	ktap_test_result "ethtool -X default: default table, every queue receives again" \
		[ $ok = 1 -a "$t" = "$(default_indir $NQ)" ]
else
	ktap_test_fail "ethtool -X default: default table, every queue receives again"
fi

# 12: the pinned CPU is used after irq_cpu changes
last=${CPUS[${#CPUS[@]} - 1]}
if rxb_knob_set rxb1 0 irq_cpu "$last" && [ "$(rxb_knob rxb1 0 irq_cpu)" = "$last" ] &&
   rxb_knob_set rxb1 0 irq_cpu -1; then
	w=${CPUS[0]}
	ktap_test_result "irq_cpu: set to CPU $last, read back; -1 restores CPU $w" \
		[ "$(rxb_knob rxb1 0 irq_cpu)" = "$w" ]
else
	ktap_test_fail "irq_cpu: set to CPU $last, read back; -1 restores CPU ${CPUS[0]}"
fi

ktap_finished
