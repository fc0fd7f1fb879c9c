#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hardware timestamps and the PTP clock (drv/ptp.c, hw/nic_ptp.c), and the
# XDP metadata kfuncs and features (drv/xdp.c):
#   - ethtool -T: hardware transmit/receive/raw stamps, tx off/on, rx
#     filters none/all, a PHC per port;
#   - linuxptp's phc_ctl moves the port's clock (set, get, adj, freq; a
#     frequency beyond the clock's range refused) and hwstamp_ctl configures
#     stamping; a bad configuration (flags, a one-step transmit type, an
#     unknown filter) refused with -EINVAL/-ERANGE, nothing changed;
#   - on every ring model, UDP datagrams carry hardware receive stamps
#     (SO_TIMESTAMPING), never decreasing and within the PHC's time around
#     their sending; none once the filter is off;
#   - the bus: with receive stamps off the NIC writes the metadata it
#     writes without timestamps (privRing's 16-byte completion per frame),
#     with them on 8 bytes more per frame (the stamp ring; privRing and
#     Ensō's framing);
#   - hardware transmit stamps come back on the error queue, inline and
#     with the NIC's engine thread, within the PHC's time around the send;
#     none with transmit stamps off;
#   - on every ring model, an XDP program bound to the port reads the
#     NIC's Toeplitz hash (equal to the hash computed here from the key and
#     the 4-tuple, type L4 IPv4 UDP) and the arrival stamp through
#     bpf_xdp_metadata_rx_hash/_rx_timestamp; -ENODATA for the stamp with
#     the receive filter off (6.5+; skipped on 6.1, which has no XDP
#     metadata kfuncs);
#   - xdp_features (netdev netlink): NETDEV_XDP_ACT_XSK_ZEROCOPY exactly
#     where a zero-copy socket would be accepted (privring; rxbisect once
#     no queue borrows from queue 0's Ax ring, updated with the
#     configuration), and xdp-rx-metadata-features hash and timestamp
#     (6.3+; skipped on 6.1).
# rxb_tstamp and rxb_xdp_meta are in progs/ (built by make module).

source "$(dirname "$0")/lib.sh"

PROGS=$RXB_DIR/progs
rxb_init ethtool hwstamp_ctl phc_ctl python3

if [ ! -x "$PROGS/rxb_tstamp" ] || [ ! -x "$PROGS/rxb_xdp_meta" ] ||
   [ ! -e "$PROGS/xdp_meta.bpf.o" ]; then
	make -s -C "$PROGS" >/dev/null 2>&1 ||
		ktap_skip_all "the programs in $PROGS are not built (make module)"
fi
TS=$PROGS/rxb_tstamp
rxb_load queues=2 || ktap_skip_all "cannot load the module"
MODELS=$(rxb_models | xargs)
NM=$(wc -w <<<"$MODELS")
ktap_set_plan $((15 + 3 * NM))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
P=/sys/module/rxbisect/parameters
N=20		# datagrams per receive check
PORT=4646	# xdp_meta.c's port

phc_of() { rxb_in "$1" ethtool -T "$1" | sed -n 's/^PTP Hardware Clock: *//p'; }
IDX0=$(phc_of rxb0)
IDX1=$(phc_of rxb1)
PHC0=/dev/ptp$IDX0
PHC1=/dev/ptp$IDX1

# 1: ethtool -T
T=$(rxb_in rxb1 ethtool -T rxb1)
ktap_print_msg "$T"
ktap_test_result "ethtool -T: hardware tx/rx/raw stamps, tx off/on, filters none/all, a PHC" \
	eval 'for w in hardware-transmit hardware-receive hardware-raw-clock \
		"^[[:space:]]*off" "^[[:space:]]*on" "^[[:space:]]*none" "^[[:space:]]*all"; do
		grep -Eq "$w" <<<"$T" || exit 1; done; [ "$IDX1" -ge 0 ] 2>/dev/null && [ -c "$PHC1" ]'

# 2
ktap_test_result "a PHC per port: rxb0 $PHC0, rxb1 $PHC1" \
	eval '[ -c "$PHC0" ] && [ "$IDX0" != "$IDX1" ]'

# phc_time DEV: the clock's seconds from phc_ctl get
phc_time() { phc_ctl "$1" get 2>&1 | sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p'; }
# phc_off DEV: phc_ctl cmp's offset from CLOCK_REALTIME, ns
phc_off() { phc_ctl "$1" cmp 2>&1 | sed -n 's/.*CLOCK_REALTIME is [a-z ]*\(-\?[0-9]*\)ns.*/\1/p'; }

# 3: set, get
phc_ctl "$PHC1" set 1000000 >/dev/null 2>&1
t=$(phc_time "$PHC1")
ktap_print_msg "phc_ctl set 1000000; get: $t"
ktap_test_result "phc_ctl set/get: the clock reads the time set" \
	eval '[ -n "$t" ] && [ "$t" -ge 1000000 ] && [ "$t" -le 1000030 ]'

# 4: adj
phc_ctl "$PHC1" set >/dev/null 2>&1	# CLOCK_REALTIME again
o0=$(phc_off "$PHC1")
phc_ctl "$PHC1" adj 10 >/dev/null 2>&1
o1=$(phc_off "$PHC1")
ktap_print_msg "phc_ctl cmp: offset $o0 ns, after adj 10: $o1 ns"
ktap_test_result "phc_ctl adj 10: the clock steps 10 s" \
	eval '[ -n "$o0" ] && [ -n "$o1" ] && d=$((o0 - o1)) && d=${d#-} &&
	      [ $d -gt 9500000000 ] && [ $d -lt 10500000000 ]'

# 5: freq: +5 % for 2 s moves the offset from CLOCK_REALTIME by ~100 ms
phc_ctl "$PHC1" set >/dev/null 2>&1
out=$(phc_ctl "$PHC1" freq 50000000 cmp wait 2 cmp freq 0 2>&1)
ktap_print_msg "$out"
mapfile -t offs < <(sed -n 's/.*CLOCK_REALTIME is [a-z ]*\(-\?[0-9]*\)ns.*/\1/p' <<<"$out")
ktap_test_result "phc_ctl freq 50000000 (+5 %): 2 s later the clock is ~100 ms ahead" \
	eval '[ ${#offs[@]} = 2 ] && d=$((offs[0] - offs[1])) && d=${d#-} &&
	      [ $d -gt 60000000 ] && [ $d -lt 160000000 ]'

# 6: beyond the range (max_adj 100000000 ppb): phc_ctl reports the
# failure (clockadj's error) but prints "adjusted" anyway; the frequency
# read back is still 0
out=$(phc_ctl "$PHC1" freq 200000000 freq 2>&1)
ktap_print_msg "$out"
ktap_test_result "phc_ctl freq 200000000: beyond the clock's range, refused (-ERANGE), frequency unchanged" \
	eval 'grep -q "failed to adjust the clock" <<<"$out" &&
	      grep -Eq "frequency offset is -?0(\.0*)?ppb" <<<"$out"'
phc_ctl "$PHC0" set >/dev/null 2>&1
phc_ctl "$PHC1" set >/dev/null 2>&1

# 7: hwstamp_ctl; a PTP filter is widened to all
out=$(rxb_in rxb1 hwstamp_ctl -i rxb1 -t 1 -r 12 2>&1; rxb_in rxb1 hwstamp_ctl -i rxb1 2>&1)
ktap_print_msg "$out"
ktap_test_result "hwstamp_ctl -t 1 -r 12: tx on, rx filter all (widened), read back" \
	eval 'grep -q "new settings:" <<<"$out" &&
	      grep -q "current settings:" <<<"$out" &&
	      [ "$(grep -c "tx_type 1" <<<"$out")" = 2 ] &&
	      [ "$(grep -c "rx_filter 1" <<<"$out")" = 2 ]'

# 8: bad configurations, nothing changed
b1=$(rxb_in rxb1 "$TS" cfg rxb1 1 0 1)
b2=$(rxb_in rxb1 "$TS" cfg rxb1 0 2 1)
b3=$(rxb_in rxb1 "$TS" cfg rxb1 0 0 99)
cur=$(rxb_in rxb1 hwstamp_ctl -i rxb1 2>&1)
ktap_print_msg "flags 1: $b1; tx_type 2 (one-step): $b2; rx_filter 99: $b3; then $cur"
ktap_test_result "bad hwtstamp config refused: flags -EINVAL, one-step tx -ERANGE, unknown filter -ERANGE" \
	eval '[ "$b1" = EINVAL ] && [ "$b2" = ERANGE ] && [ "$b3" = ERANGE ] &&
	      grep -q "tx_type 1" <<<"$cur" && grep -q "rx_filter 1" <<<"$cur"'

# meta_bytes: frames and metadata bytes the NIC wrote (pcie_to_host_meta_bytes)
# for 45 UDP datagrams rxb0 -> rxb1: MH (frames) and MB (bytes)
meta_bytes() {
	local m0 h0
	rxb_snap rxb1
	m0=${RXB_S[pcie_to_host_meta_bytes]} h0=$(rxb_s_qsum hw_packets)
	rxb_udp_blast "$NS0" "$RXB_IP1" 45 3 2000 >/dev/null
	rxb_wait_consumed rxb1
	rxb_snap rxb1
	MB=$((RXB_S[pcie_to_host_meta_bytes] - m0))
	MH=$(($(rxb_s_qsum hw_packets) - h0))
}

# 9: what stamps cost on the bus: nothing while off, 8 bytes per frame
# while on.  privRing writes exactly one 16-byte completion per frame
# (pcie_bytes.sh, as without timestamps); with stamps, its stamp ring's
# 8 bytes more.  Ensō: 16-byte headers plus 64-byte notifications, with
# stamps 8 bytes more per frame (45 frames: 8 * 45 is no multiple of 64).
rxb_static_neigh rxb0 rxb1
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 0 >/dev/null 2>&1
meta_bytes; p_off="$MH $MB"
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 1 >/dev/null 2>&1
meta_bytes; p_on="$MH $MB"
if echo enso > $P/ring_model; then
	rxb_static_neigh rxb0 rxb1
	meta_bytes; e_on="$MH $MB"
	rxb_in rxb1 hwstamp_ctl -i rxb1 -r 0 >/dev/null 2>&1
	meta_bytes; e_off="$MH $MB"
fi
echo privring > $P/ring_model
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 1 >/dev/null 2>&1
ktap_print_msg "frames, metadata bytes: privring off $p_off, on $p_on; enso off ${e_off:-?}, on ${e_on:-?}"
ktap_test_result "PCIe metadata: stamps off as without timestamps (privring 16 B/frame), on exactly 8 B/frame more (privring 24; enso 16 + 8 + 64-B notifications)" \
	eval 'read -r h b <<<"$p_off" && [ "$h" -gt 0 ] && [ "$b" = $((16 * h)) ] &&
	      read -r h b <<<"$p_on" && [ "$h" -gt 0 ] && [ "$b" = $((24 * h)) ] &&
	      read -r h b <<<"${e_off:-0 -1}" && [ "$h" -gt 0 ] && [ $(((b - 16 * h) % 64)) = 0 ] &&
	      [ "$b" -gt $((16 * h)) ] &&
	      read -r h b <<<"${e_on:-0 -1}" && [ "$h" -gt 0 ] && [ $(((b - 24 * h) % 64)) = 0 ] &&
	      [ "$b" -gt $((24 * h)) ]'

# rx_check NAME: N datagrams rxb0 -> rxb1, each with a hardware stamp,
# never decreasing, within the PHC's time around the sending
rx_check() {
	local out=$RXB_TMP/rx.$1 i
	rm -f "$out"
	rxb_bg ip netns exec "$NS1" "$TS" rx "$PHC1" $((PORT + 1)) $N 5000 > "$out"
	for i in {1..100}; do
		grep -q ready "$out" 2>/dev/null && break
		rxb_sleep 0.05
	done
	ip netns exec "$NS0" "$TS" send "$RXB_IP1" $((PORT + 1)) $N 2000
	wait "${RXB_PIDS[-1]}"
	R=$(tail -n 1 "$out")
	ktap_print_msg "$1: $R"
}
jv() { rxb_jget <(echo "$R") "$1"; }

# 10..9+NM: receive stamps on every model.  Where a kernel runs only what
# differs by kernel (rxb_kdep_only), the first model: the models differ in
# the driver, which is the same on every kernel; the delivery to the
# socket (skb_hwtstamps, SO_TIMESTAMPING) is the kernel's.
first=${MODELS%% *}
for m in $MODELS; do
	if rxb_kdep_only && [ "$m" != "$first" ]; then
		ktap_test_skip "$m: $N datagrams with hardware receive stamps, increasing, within the PHC around the send" "$RXB_KDEP_WHY"
		continue
	fi
	if ! echo "$m" > $P/ring_model; then
		ktap_test_fail "$m: UDP receive hardware stamps (cannot switch to the model)"
		continue
	fi
	rxb_static_neigh rxb0 rxb1
	rx_check "$m"
	ktap_test_result "$m: $N datagrams with hardware receive stamps, increasing, within the PHC around the send" \
		eval '[ "$(jv got)" = $N ] && [ "$(jv hw)" = $N ] && [ "$(jv mono)" = 1 ] &&
		      [ "$(jv neg)" = 0 ] && [ "$(jv first)" -ge "$(jv phc0)" ] &&
		      [ "$(jv last)" -le "$(jv phc1)" ]'
done
echo privring > $P/ring_model
rxb_static_neigh rxb0 rxb1

# +1: none with the filter off
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 0 >/dev/null 2>&1
rx_check "rx filter none"
ktap_test_result "rx filter none: datagrams arrive without hardware stamps" \
	eval '[ "$(jv got)" = $N ] && [ "$(jv hw)" = 0 ]'

# tx_check: transmit stamps of N datagrams from rxb0
tx_check() {
	R=$(ip netns exec "$NS0" "$TS" tx "$PHC0" "$RXB_IP1" $((PORT + 2)) $N)
	ktap_print_msg "$1: $R; rxb0 $(rxb_in rxb0 ethtool -S rxb0 | grep -E 'tx_hwtstamp' | xargs)"
}

# +2, +3: transmit stamps, inline and with the engine thread
rxb_in rxb0 hwstamp_ctl -i rxb0 -t 1 >/dev/null 2>&1
tx_check "inline"
ktap_test_result "inline Tx: $N hardware transmit stamps on the error queue, within the PHC around the send" \
	eval '[ "$(jv sent)" = $N ] && [ "$(jv hw)" = $N ] && [ "$(jv inwin)" = $N ]'
cpu=$(($(rxb_online_cpus | wc -w) - 1))
if echo "cpu$cpu" > $P/engine 2>/dev/null; then
	rxb_static_neigh rxb0 rxb1
	tx_check "engine=cpu$cpu"
	ktap_test_result "engine thread Tx: $N hardware transmit stamps, within the PHC around the send" \
		eval '[ "$(jv sent)" = $N ] && [ "$(jv hw)" = $N ] && [ "$(jv inwin)" = $N ]'
	echo inline > $P/engine
	rxb_static_neigh rxb0 rxb1
else
	ktap_test_fail "engine thread Tx (cannot start engine=cpu$cpu)"
fi

# +4: none with transmit stamps off
rxb_in rxb0 hwstamp_ctl -i rxb0 -t 0 >/dev/null 2>&1
w0=$(rxb_stat rxb0 tx_hwtstamp_writes)
tx_check "tx off"
w1=$(rxb_stat rxb0 tx_hwtstamp_writes)
ktap_test_result "tx type off: no transmit stamp (none written back)" \
	eval '[ "$(jv sent)" = $N ] && [ "$(jv hw)" = 0 ] && [ "$w0" = "$w1" ]'

# toeplitz KEY SRC DST SPORT DPORT: the NIC's RSS hash of a UDP 4-tuple
toeplitz() {
	rxb_toeplitz "$@"
	printf '0x%08x\n' "$RXB_TOEPLITZ"
}

# xdp_meta NAME: an XDP program bound to rxb1 records 4 datagrams (4
# sockets: 4 source ports) with the kfuncs; XDP_MISS reasons, or empty
XK=4
xdp_meta() {
	local out=$RXB_TMP/xm.$1 ready=$RXB_TMP/xm.ready i t0 t1 line ok=1
	local q sport ts_err ts hash_err hash type h key kv
	rm -f "$out" "$ready"
	rxb_bg ip netns exec "$NS1" "$PROGS/rxb_xdp_meta" "$PROGS/xdp_meta.bpf.o" rxb1 $XK 8000 "$ready" > "$out"
	for i in {1..200}; do
		[ -e "$ready" ] && break
		[ -s "$out" ] && break
		rxb_sleep 0.05
	done
	t0=$("$TS" now "$PHC1")
	for i in $(seq $XK); do
		ip netns exec "$NS0" "$TS" send "$RXB_IP1" $PORT 1 0
		rxb_sleep 0.02
	done
	t1=$("$TS" now "$PHC1")
	wait "${RXB_PIDS[-1]}"
	XRC=$?
	ktap_print_msg "$1: $(tr '\n' ';' < "$out")"
	[ $XRC = 4 ] && return 4
	key=$(rxb_hkey rxb1)
	grep -q "^count=$XK$" "$out" || ok=0
	while read -r line; do
		for kv in $line; do
			printf -v "${kv%%=*}" '%s' "${kv#*=}"
		done
		h=$(toeplitz "$key" "$RXB_IP0" "$RXB_IP1" "$sport" $PORT)
		if [ "$XTS" = on ]; then
			[ "$ts_err" = 0 ] && [ "$ts" -ge "$t0" ] && [ "$ts" -le "$t1" ] || {
				ktap_print_msg "$1: stamp $ts_err $ts not in [$t0, $t1]"; ok=0; }
		else
			[ "$ts_err" = -61 ] || { ktap_print_msg "$1: stamp with the filter off: $ts_err"; ok=0; }
		fi
		# XDP_RSS_TYPE_L4_IPV4_UDP = L3_IPV4 | L4 | L4_UDP = 41
		[ "$hash_err" = 0 ] && [ "$hash" = "$h" ] && [ "$type" = 41 ] || {
			ktap_print_msg "$1: hash $hash_err $hash type $type, expected $h type 41"; ok=0; }
	done < <(grep '^q=' "$out")
	[ $ok = 1 ]
}

# +5..+4+NM: the kfuncs on every model, the receive filter all
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 1 >/dev/null 2>&1
XTS=on
NOKF=
for m in $MODELS; do
	# a kernel without the kfuncs has them for no model: skip the rest
	if [ -n "$NOKF" ]; then
		ktap_test_skip "$m: XDP metadata kfuncs: $NOKF"
		continue
	fi
	if ! echo "$m" > $P/ring_model; then
		ktap_test_fail "$m: XDP metadata kfuncs (cannot switch to the model)"
		continue
	fi
	rxb_static_neigh rxb0 rxb1
	xdp_meta "$m"
	rc=$?
	if [ $rc = 4 ] && ! rxb_kver_ge 6.5; then
		NOKF="this kernel has none (6.5+: device-bound programs, the hash type)"
		ktap_test_skip "$m: XDP metadata kfuncs: $NOKF"
	else
		ktap_test_result "$m: XDP rx_hash = Toeplitz(key, 4-tuple), type L4 IPv4 UDP; rx_timestamp within the PHC around the send" \
			[ $rc = 0 ]
	fi
done
echo privring > $P/ring_model
rxb_static_neigh rxb0 rxb1

# +5+NM: no stamp for XDP either with the filter off
rxb_in rxb1 hwstamp_ctl -i rxb1 -r 0 >/dev/null 2>&1
XTS=off
rc=4
[ -z "$NOKF" ] && { xdp_meta "rx filter none"; rc=$?; }
if [ $rc = 4 ] && ! rxb_kver_ge 6.5; then
	ktap_test_skip "XDP rx_timestamp with the filter off: this kernel has no XDP metadata kfuncs (6.5+)"
else
	ktap_test_result "XDP rx_timestamp -ENODATA with the receive filter off (rx_hash still there)" [ $rc = 0 ]
fi

# +6+NM..: xdp_features per model
feat=$(rxb_in rxb1 python3 "$RXB_DIR/netdev_nl.py" xdpfeat rxb1 $MODELS 2>&1)
rc=$?
ktap_print_msg "$feat"
# privring takes zero-copy sockets; rxbisect only on a queue whose Ax ring
# no other queue borrows from, which its default association refuses
# (af_xdp.sh); the others never
for m in $MODELS; do
	line=$(grep "^$m " <<<"$feat")
	case $m in privring) want=1 ;; *) want=0 ;; esac
	if [ $rc = 4 ]; then
		ktap_test_skip "$m: xdp_features: $(grep '^#' <<<"$feat" | head -1)"
	else
		ktap_test_result "$m: xdp_features basic,redirect,ndo-xmit; xsk-zerocopy $([ $want = 1 ] && echo advertised || echo not advertised); rx metadata hash,timestamp" \
			eval '[[ $line == *basic* && $line == *redirect* &&
			         $line == *ndo-xmit* &&
			         $line == *meta=*hash* && $line == *meta=*timestamp* ]] &&
			      { [[ $line == *xsk-zerocopy* ]] && h=1 || h=0; [ $h = $want ]; }'
	fi
done

# +1: rxbisect, queue 0's Ax ring its own: zero-copy accepted, advertised
echo rxbisect > $P/ring_model
if echo '0;0-1' > $P/ax_assoc_map; then
	feat=$(rxb_in rxb1 python3 "$RXB_DIR/netdev_nl.py" xdpfeat rxb1 rxbisect 2>&1)
	rc=$?
	ktap_print_msg "ax_assoc_map 0;0-1: $feat"
	if [ $rc = 4 ]; then
		ktap_test_skip "rxbisect, ax_assoc_map 0;0-1: xdp_features: $(grep '^#' <<<"$feat" | head -1)"
	else
		ktap_test_result "rxbisect, ax_assoc_map 0;0-1 (no queue borrows from queue 0's Ax): xsk-zerocopy advertised" \
			eval '[[ $feat == *"rxbisect "*xsk-zerocopy* ]]'
	fi
else
	ktap_test_fail "rxbisect: cannot set ax_assoc_map 0;0-1"
fi
echo default > $P/ax_assoc_map
echo privring > $P/ring_model

ktap_finished
