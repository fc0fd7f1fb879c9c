#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MTU: large frames pass when both ends agree; a receiver with a smaller MTU
# drops longer frames (rx_oversize_drops) at exactly MTU + 18 bytes (L2
# header and one VLAN tag) while small frames still pass.  The receive
# buffers follow the MTU (drv/rx.c: rxb_rx_buf_layout(); Documentation/
# rxbisect.rst, "Receive buffers"): 2 KiB page_pool fragments, two to a
# page, up to MTU 1518; a page each above; scatter buffers of several
# pages above 3502.

source "$(dirname "$0")/lib.sh"

rxb_init ping
ktap_set_plan 12

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

setmtu() { rxb_ip "$1" link set "$1" mtu "$2"; }
# ethtool -g rxb1: the RX ring size (current) and the RX Buf Len, the
# bytes the NIC may write into one buffer.
ring() { rxb_in rxb1 ethtool -g rxb1 | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2; exit }'; }
buflen() { rxb_in rxb1 ethtool -g rxb1 | sed -n 's/^RX Buf Len:[[:space:]]*//p' | head -n1; }

# halves WHAT F0 F1: rxb1's rings of Q queues of R buffers were posted
# fresh between two readings F0, F1 of rx_pp_fresh (pages page_pool took
# from the page allocator) with MTU 1500: 2 KiB buffers, RX Buf Len 1536
# (a 1518-byte frame fits), and the Q*R buffers took Q*R/2 pages, two to a
# page, and at most one bulk refill of a pool's cache more per queue
# (PP_ALLOC_CACHE_REFILL, 64 pages: a pool takes pages from the allocator
# 64 at a time).  A page per buffer would have taken Q*R.
Q=2
halves() {
	local r k d=$(($3 - $2)) lo hi
	r=$(ring) k=$(buflen)
	lo=$((Q * ${r:-0} / 2)) hi=$((Q * (${r:-0} / 2 + 64)))
	ktap_print_msg "$1: RX Buf Len ${k:-none}, $Q queues of ${r:-?} buffers took $d fresh pages (two buffers a page: $lo..$hi)"
	ktap_test_result "$1: 2 KiB buffers, two to a page (RX Buf Len 1536, $lo..$hi pages)" \
		[ "${k:-0}" = 1536 -a "${r:-0}" -gt 0 -a $d -ge $lo -a $d -le $hi ]
}

# 1
halves "MTU 1500 at load" 0 "$(rxb_stat rxb1 rx_pp_fresh)"

# 2, 3: above MTU 1518 a page per buffer: RX Buf Len 4096 less the
# headroom (256) and the skb_shared_info, room for a 3018-byte frame
setmtu rxb0 3000 && setmtu rxb1 3000
ktap_test_result "MTU 3000 on both ends" \
	[ "$(rxb_mtu rxb0)" = 3000 -a "$(rxb_mtu rxb1)" = 3000 ]
k=$(buflen)
ktap_test_result "MTU 3000: a page per buffer (RX Buf Len ${k:-none}: 3018..4095)" \
	[ "${k:-0}" -ge 3018 -a "${k:-0}" -lt 4096 ]

# 4
ktap_test_result "ping -M do -s 2900 with MTU 3000 on both ends" \
	rxb_ping_ok "$NS0" "$RXB_IP1" 5 -M do -s 2900

# 5, 6
setmtu rxb1 1500
ov0=$(rxb_stat rxb1 rx_oversize_drops)
got=$(rxb_ping "$NS0" "$RXB_IP1" 3 -M do -s 2900)
ov=$(($(rxb_stat rxb1 rx_oversize_drops) - ov0))
ktap_print_msg "receiver MTU 1500, sender 3000: $got/3 replies, rx_oversize_drops +$ov"
ktap_test_result "ping -s 2900 to a receiver with MTU 1500 fails" [ "$got" = 0 ]
ktap_test_result "receiver's rx_oversize_drops grew by the 3 frames" [ "$ov" = 3 ]

# 9
ktap_test_result "small ping still works (sender MTU 3000, receiver 1500)" \
	rxb_ping_ok "$NS0" "$RXB_IP1" 5

# 8: exact limit: a frame of MTU + 18 bytes is taken, MTU + 19 is not
# (ICMP payload s: frame = s + 8 + 20 + 14 bytes).
rxb_snap rxb1
ov0=${RXB_S[rx_oversize_drops]}
hw0=$(rxb_s_qsum hw_packets)
rxb_ping "$NS0" "$RXB_IP1" 1 -M do -s $((1500 + 18 - 42)) >/dev/null
rxb_snap rxb1
ov1=${RXB_S[rx_oversize_drops]}
hw1=$(rxb_s_qsum hw_packets)
rxb_ping "$NS0" "$RXB_IP1" 1 -M do -s $((1500 + 19 - 42)) >/dev/null
rxb_snap rxb1
ov2=${RXB_S[rx_oversize_drops]}
hw2=$(rxb_s_qsum hw_packets)
ktap_print_msg "1518-byte frame: hw_packets +$((hw1 - hw0)) oversize +$((ov1 - ov0));" \
	"1519-byte frame: hw_packets +$((hw2 - hw1)) oversize +$((ov2 - ov1))"
ktap_test_result "receiver MTU 1500: 1518-byte frame accepted, 1519-byte frame dropped" \
	[ $((hw1 - hw0)) = 1 -a $((ov1 - ov0)) = 0 -a $((hw2 - hw1)) = 0 -a $((ov2 - ov1)) = 1 ]

# 9
ktap_test_result "reverse direction (MTU 1500 -> 3000): ping -M do -s 1472" \
	rxb_ping_ok "$NS1" "$RXB_IP0" 5 -M do -s 1472

# 10: the largest MTU the port offers works end to end
max=$(rxb_ip rxb1 -d link show rxb1 | sed -n 's/.* maxmtu \([0-9]*\).*/\1/p')
ktap_print_msg "maxmtu $max"
if [ -n "$max" ] && setmtu rxb0 "$max" && setmtu rxb1 "$max"; then
	ktap_test_result "MTU $max (maxmtu) on both ends: ping -M do -s $((max - 28))" \
		eval '[ "$max" = 9000 ] &&
		      rxb_ping_ok "$NS0" "$RXB_IP1" 5 -M do -s $((max - 28))'
else
	ktap_test_fail "MTU maxmtu on both ends"
fi

# 11, 12
d=$(rxb_stat rxb1 rx_oversize_drops)
f0=$(rxb_stat rxb1 rx_pp_fresh)
setmtu rxb0 1500 && setmtu rxb1 1500
halves "MTU 9000 -> 1500" "$f0" "$(rxb_stat rxb1 rx_pp_fresh)"
ktap_test_result "MTU 1500 again: ping -M do -s 1472 works, no new oversize drops" \
	eval 'rxb_ping_ok "$NS0" "$RXB_IP1" 5 -M do -s 1472 &&
	      [ "$(rxb_stat rxb1 rx_oversize_drops)" = "$d" ]'

ktap_finished
