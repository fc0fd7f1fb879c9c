#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devlink: the instance of each bus device, its ports, info, every runtime
# parameter (valid and invalid values), switching the ring model under
# traffic, the rx_stall health reporter, bus device creation/removal, and
# a module parameter write that leaves per-device and per-port values alone.

source "$(dirname "$0")/lib.sh"

rxb_init devlink iperf3 ping
ktap_set_plan 20

DL=rxbisect/rxbisect0
MODELS="privring rxbisect shring shring-list shring-batched dshring corec enso"

rxb_load queues=2 || rxb_bail "cannot load the module"


# 1, 2
ktap_test_result "devlink dev lists $DL" eval 'devlink dev | grep -qx "$DL"'
ports=$(devlink port show | grep -c "^$DL/[01]: type eth netdev rxb[01] ")
ktap_test_result "two devlink ports, bound to rxb0 and rxb1" [ "$ports" = 2 ]

# 3
info=$(devlink dev info $DL)
ktap_print_msg "$(echo "$info" | tr -s ' \n' ' ')"
ktap_test_result "devlink dev info: driver and ring model versions" \
	eval '[[ $info == *"driver rxbisect"* && $info == *"ring_model privring"* && $info == *"ring_model_api"* ]]'

# 4: every parameter is there
missing=
for p in ring_model share_factor ax_ring_size ax_policy ax_assoc notif_compress \
	 notif_timeout_us ws_window cache_kb stall_timeout_ms; do
	[ -n "$(rxb_dl_get $p)" ] || missing="$missing $p"
done
ktap_test_result "every parameter is shown${missing:+ (missing:$missing)}" [ -z "$missing" ]

# 5: invalid values: a message, an error, and nothing changes
bad=0
rxb_dl_refused ring_model bogus ""
rxb_dl_refused ax_policy sideways
rxb_dl_refused share_factor 0 -1 33 abc
rxb_dl_refused ax_ring_size 0 -1 32 100 16384
rxb_dl_refused notif_compress 2 5
rxb_dl_refused notif_timeout_us 0 2000000
rxb_dl_refused ws_window 0 100 300
rxb_dl_refused stall_timeout_ms 0 99 1000000
out=$(rxb_dl_set ax_ring_size 100 2>&1)
ktap_print_msg "ax_ring_size 100: $out"
ktap_test_result "invalid values of every parameter refused with a message, nothing changed" \
	[ $bad = 0 ]

# 6: a valid value, on both ports
rxb_dl_set ax_ring_size 256
ktap_test_result "ax_ring_size 256 applies" [ "$(rxb_dl_get ax_ring_size)" = 256 ]

# 7, 8: every ring model in turn under a TCP stream
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
# the models of $MODELS this module registers (each switch below must work)
avail=
reg=" $(rxb_models | xargs) "
for m in $MODELS; do
	[[ $reg == *" $m "* ]] && avail="$avail $m"
done
ktap_print_msg "models:$avail"
rxb_iperf_start "$RXB_TMP/tcp.json" 8 || rxb_bail "iperf3 did not start"
rxb_wait_rx rxb1 200 5	# the stream flows
ok=1
for m in $avail privring; do
	if ! rxb_dl_set ring_model "$m"; then
		ktap_print_msg "switch to $m failed"
		ok=0
	fi
	fw=$(rxb_in rxb1 ethtool -i rxb1)
	fw=${fw#*firmware-version: emulated }
	fw=${fw%%$'\n'*}
	[ "$fw" = "$m" ] || { ktap_print_msg "rxb1 runs '$fw', not $m"; ok=0; }
	rxb_sleep 0.3
done
ktap_test_result "switched through every model under traffic" [ $ok = 1 ]
wait "$RXB_IPERF_PID"
ktap_test_result "the TCP connection survived every switch" \
	rxb_iperf_check "$RXB_TMP/tcp.json" $? "TCP across model switches"

# 9, 10, 11: a stall is reported with a dump and recovered
rxb_dl_set stall_timeout_ms 500
errs0=$(devlink health show $DL reporter rx_stall | sed -n 's/.* error \([0-9]*\).*/\1/p')
rxb_in rxb1 ethtool -X rxb1 weight 1 0 >/dev/null
rxb_knob_set rxb1 0 stall 1
rxb_ping "$NS0" "$RXB_IP1" 3 >/dev/null
for i in {1..30}; do
	[ "$(rxb_knob rxb1 0 stall)" = 0 ] && break
	rxb_sleep 0.2
done
h=$(devlink health show $DL reporter rx_stall)
ktap_print_msg "$(echo "$h" | tr -s ' \n' ' ')"
errs=$(echo "$h" | sed -n 's/.* error \([0-9]*\).*/\1/p')
recs=$(echo "$h" | sed -n 's/.* recover \([0-9]*\).*/\1/p')
ktap_test_result "rx_stall reported the stalled queue" [ "${errs:-0}" -gt "${errs0:-0}" ]
dump=$(devlink health dump show $DL reporter rx_stall 2>&1)
ktap_print_msg "$(echo "$dump" | tr -s ' \n' ' ')"
# The NIC's side (head, posted, vector_masked) comes from its debug
# registers, the driver's (tail, generation) from the ring model: the pings
# left entries between them, and the stalled queue's vector stays masked.
dv() { echo "$dump" | sed -n "s/.* $1: \([0-9a-z]*\).*/\1/p" | head -1; }
hd=$(dv head); tl=$(dv tail); occ=$(dv occupancy); sz=$(dv size)
ps=$(dv posted); vm=$(dv vector_masked)
ktap_test_result "the dump shows the queue's ring state (head $hd tail $tl occupancy $occ posted $ps masked $vm)" \
	eval '[[ $dump == *"port: rxb1"* && $dump == *"queue: 0"* && $dump == *generation* ]] &&
	      [ -n "$hd" -a -n "$tl" -a -n "$sz" -a -n "$ps" ] &&
	      [ "${occ:-0}" -ge 1 -a "$occ" -le "$sz" ] &&
	      [ $(( (hd - tl) & 0xffffffff )) = "$occ" ] && [ "$vm" = true ]'
ktap_test_result "recovered: knob cleared, recover count > 0, ping works" \
	eval '[ "$(rxb_knob rxb1 0 stall)" = 0 -a "${recs:-0}" -gt 0 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 3'

# 12..16: the health reporters.  hv REPORTER FIELD: a field of "devlink
# health show" (state, error, recover, grace_period).
hv() {
	devlink health show $DL reporter "$1" | sed -n "s/.* $2 \([0-9a-z]*\).*/\1/p"
}
# hwait REPORTER FIELD MIN: up to 3 s for FIELD to reach MIN (a number) or
# equal MIN (a word)
hwait() {
	local i v
	for i in {1..30}; do
		v=$(hv "$1" "$2")
		[ "$v" = "$3" ] && return 0
		[[ $v =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ ]] && [ "$v" -ge "$3" ] && return 0
		rxb_sleep 0.1
	done
	ktap_print_msg "$1: $2 is ${v:-nothing}, not $3"
	return 1
}
t0=$SECONDS
# (Debian 12's devlink shows one reporter of a device, or all of all)
h=$(devlink health show | sed -n "\|^$DL:|,\|^[^ ]|p")
ktap_print_msg "$(echo "$h" | tr -s ' \n' ' ')"
ktap_test_result "health show: rx_stall, dma_fault, alloc_fail (grace period 500 ms)" \
	eval '[[ $h == *"reporter rx_stall"* && $h == *"reporter dma_fault"* &&
		 $h == *"reporter alloc_fail"* ]] && [ "$(hv alloc_fail grace_period)" = 500 ]'

# 13: diagnose: every queue of both ports (rx_stall), per port (the others)
ok=1
d=$(devlink health diagnose $DL reporter rx_stall 2>&1)
ktap_print_msg "rx_stall: $(echo "$d" | tr -s ' \n' ' ')"
nq=$(grep -o 'port: rxb[01] queue: [0-9]*' <<<"$(echo "$d" | tr -s ' \n' ' ')" | sort -u | wc -l)
[[ $d == *"stall_timeout_ms: 500"* ]] && [ "$nq" = 4 ] || ok=0
for r in dma_fault alloc_fail; do
	d=$(devlink health diagnose $DL reporter $r 2>&1)
	ktap_print_msg "$r: $(echo "$d" | tr -s ' \n' ' ')"
	[[ $d == *"report_period_ms: 500"* && $d == *"port: rxb0"* && $d == *"port: rxb1"* ]] || ok=0
done
ktap_test_result "health diagnose: rx_stall's 4 queues, dma_fault and alloc_fail per port" [ $ok = 1 ]

# 14: "devlink health test" makes rx_stall report (and recover)
errs0=$(hv rx_stall error) recs0=$(hv rx_stall recover)
out=$(devlink health test $DL reporter rx_stall 2>&1)
ktap_test_result "health test: rx_stall reports and recovers${out:+ ($out)}" \
	eval 'hwait rx_stall error $((errs0 + 1)) && hwait rx_stall recover $((recs0 + 1))'

# 15: DMA faults: the NIC writes completions with the error bit, the
# driver reports them (one report for the burst), dumps the queue, and the
# reporter is healthy again a period after the last
frame=$(rxb_mac rxb1 | tr -d :)$(rxb_mac rxb0 | tr -d :)88b5$(printf '%092d' 0)
errs0=$(hv dma_fault error)
devlink health dump clear $DL reporter dma_fault 2>/dev/null
rxb_fault rxb1 dma_fail 1000
rxb_inject_n rxb1 20 "$frame"
rxb_fault rxb1 dma_fail 0
ok=1
hwait dma_fault error $((errs0 + 1)) || ok=0
errs=$(hv dma_fault error)
dump=$(devlink health dump show $DL reporter dma_fault 2>&1 | tr -s ' \n' ' ')
ktap_print_msg "dma_fault: errors $errs0 -> $errs; dump: $dump"
n=$(sed -n 's/.* errors: \([0-9]*\).*/\1/p' <<<"$dump")
f=$(sed -n 's/.* rx_dma_faults: \([0-9]*\).*/\1/p' <<<"$dump")
[[ $dump == *"port: rxb1"* ]] && [ "${n:-0}" -ge 1 -a "${f:-0}" -ge "${n:-1}" ] || ok=0
[ $((errs - errs0)) -le 3 ] || { ktap_print_msg "20 faults, $((errs - errs0)) reports"; ok=0; }
hwait dma_fault state healthy || ok=0
ktap_test_result "dma_fault: a burst of 20 is reported with a dump ($n errors), healthy after" \
	[ $ok = 1 ]

# 16: allocation failures: reported, dumped, recovered automatically and
# by "devlink health recover"; the port forwards
errs0=$(hv alloc_fail error) recs0=$(hv alloc_fail recover)
devlink health dump clear $DL reporter alloc_fail 2>/dev/null
rxb_fault rxb1 alloc_fail 1000
rxb_inject_n rxb1 20 "$frame"
ok=1
hwait alloc_fail error $((errs0 + 1)) && hwait alloc_fail recover $((recs0 + 1)) || ok=0
dump=$(devlink health dump show $DL reporter alloc_fail 2>&1 | tr -s ' \n' ' ')
rxb_fault rxb1 alloc_fail 0
recs=$(hv alloc_fail recover)
ktap_print_msg "alloc_fail: errors $errs0 -> $(hv alloc_fail error), recover $recs0 -> $recs; dump: $dump"
a=$(sed -n 's/.* alloc_fails: \([0-9]*\).*/\1/p' <<<"$dump")
[[ $dump == *"port: rxb1"* && $dump == *"errors: "* ]] && [ "${a:-0}" -ge 1 ] || ok=0
# Asked: devlink recovers only a reporter in error (a healthy one is a
# no-op), and whether the last automatic recovery fell in the grace
# period is timing; so with auto_recover off, a report leaves it in error
# and "devlink health recover" runs the driver's .recover
devlink health set $DL reporter alloc_fail auto_recover false || ok=0
errs0=$(hv alloc_fail error) recs=$(hv alloc_fail recover)
rxb_fault rxb1 alloc_fail 1000
rxb_inject_n rxb1 20 "$frame"
rxb_fault rxb1 alloc_fail 0
hwait alloc_fail error $((errs0 + 1)) || ok=0
# the errors after the first report are reported together a report period
# later: wait until rxb1 has none pending, so that no report comes after
# the recovery
for i in {1..30}; do
	p=$(devlink health diagnose $DL reporter alloc_fail 2>/dev/null | tr -s ' \n' ' ' |
		sed -n 's/.*port: rxb1 reports: [0-9]* pending: \([0-9]*\).*/\1/p')
	[ "$p" = 0 ] && break
	rxb_sleep 0.1
done
[ "$p" = 0 ] || { ktap_print_msg "alloc_fail: rxb1 has ${p:-?} errors pending"; ok=0; }
hwait alloc_fail state error || ok=0
out=$(devlink health recover $DL reporter alloc_fail 2>&1) || { ktap_print_msg "recover: $out"; ok=0; }
hwait alloc_fail recover $((recs + 1)) && hwait alloc_fail state healthy || ok=0
devlink health set $DL reporter alloc_fail auto_recover true || ok=0
ktap_test_result "alloc_fail: reported with a dump, recovered (auto and asked), rxb1 forwards" \
	eval '[ $ok = 1 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 3'
ktap_print_msg "health cases 12..16: $((SECONDS - t0)) s"

# 17..20: bus devices
echo 7 > /sys/bus/rxbisect/new_device
n=$(rxb_ports | wc -l)
ktap_test_result "new_device 7: rxbisect/rxbisect7 with two more ports" \
	eval 'devlink dev | grep -qx rxbisect/rxbisect7 && [ "$n" = 2 ]'
port=$(devlink port show | sed -n 's|^rxbisect/rxbisect7/0: .* netdev \([^ ]*\) .*|\1|p')

# 18: a module parameter write changes that parameter alone, on every port:
# what devlink set per device (rxbisect0: ax_ring_size 256 from 6 above;
# rxbisect7: ring_model rxbisect, ax_ring_size 512) and ethtool per port
# (rxb1's tcp-data-split, where the kernel takes it and tools/ynl.sh can
# send it) stays; a value one port refuses (ax_ring_size 2048, above
# rxbisect7's rx ring under rxbisect) changes nothing anywhere.
P=/sys/module/rxbisect/parameters
bad=0
DL=rxbisect/rxbisect7 rxb_dl_set ring_model rxbisect || bad=1
DL=rxbisect/rxbisect7 rxb_dl_set ax_ring_size 512 || bad=1
split() { rxb_in "$1" ethtool -g "$1" 2>/dev/null | sed -n 's/^TCP data split:[[:space:]]*//ip'; }
ynl_split=
if [ "$(split rxb1)" = off ] &&
   ip netns exec "$NS1" "$RXB_DIR/../../../../tools/ynl.sh" ethtool --do rings-set \
	--json '{"header": {"dev-name": "rxb1"}, "tcp-data-split": 2}' >/dev/null 2>&1 &&
   [ "$(split rxb1)" = on ]; then
	ynl_split=1
fi
params() {
	echo "rxbisect0: $(DL=rxbisect/rxbisect0 rxb_dl_params | grep -v '^ws_window=' | xargs)"
	echo "rxbisect7: $(DL=rxbisect/rxbisect7 rxb_dl_params | grep -v '^ws_window=' | xargs)"
	echo "rxb0 split $(split rxb0), rxb1 split $(split rxb1); module ring_model $(<$P/ring_model) ax_ring_size $(<$P/ax_ring_size)"
}
before=$(params)
ktap_print_msg "before: $before"
echo 8192 > $P/ws_window || bad=1
after=$(params)
ws="$(DL=rxbisect/rxbisect0 rxb_dl_get ws_window) $(DL=rxbisect/rxbisect7 rxb_dl_get ws_window) $(<$P/ws_window)"
[ "$ws" = "8192 8192 8192" ] || { ktap_print_msg "ws_window: $ws"; bad=1; }
[ "$before" = "$after" ] ||
	{ ktap_print_msg "after ws_window 8192: $(diff <(echo "$before") <(echo "$after") | grep '^>' | xargs)"; bad=1; }
if echo 2048 > $P/ax_ring_size 2>/dev/null; then
	ktap_print_msg "ax_ring_size 2048 was accepted"
	bad=1
fi
after=$(params)
[ "$before" = "$after" ] ||
	{ ktap_print_msg "after a refused ax_ring_size 2048: $(diff <(echo "$before") <(echo "$after") | grep '^>' | xargs)"; bad=1; }
echo 16384 > $P/ws_window
ktap_test_result "a module parameter write changes only that parameter, on every port (devlink values kept${ynl_split:+, ethtool tcp-data-split kept})" \
	[ $bad = 0 ]

# 19
out=$(ip link del "$port" 2>&1)
ktap_test_result "ip link del of a bus device's port is refused ($out)" \
	eval '[ -n "$out" ] && ip link show "$port" >/dev/null 2>&1'

# 20
echo 7 > /sys/bus/rxbisect/del_device
ktap_test_result "del_device 7 removes the device and its ports" \
	eval '! devlink dev | grep -q rxbisect7 && ! ip link show "$port" >/dev/null 2>&1'

ktap_finished
