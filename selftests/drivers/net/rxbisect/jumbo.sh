#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Jumbo frames and multi-buffer receive on every ring model (rx.c,
# rxb_rx_buf_layout(); nic_dma.c; Documentation/rxbisect-jumbo.rst).
# For each model, with MTU 9000 on both ports:
#   ping      9000-byte echo requests (-M do: never fragmented) with a
#             data pattern, every one answered intact; the receiving
#             NIC's buffers are what the layout says (ethtool -g RX Buf
#             Len), no DMA error, no oversize drop;
#   tcp       one second of iperf3 TCP at MTU 9000: the checksum the NIC
#             computes across a frame's buffers is right (a wrong one
#             stalls TCP), GRO takes multi-buffer skbs;
#   xdp pass  a multi-buffer program (SEC "xdp.frags") sees each 9014-byte
#             frame whole through bpf_xdp_get_buff_len(), in several
#             buffers on the models with scatter buffers and in one on
#             those with contiguous ones, and passes it: answered;
#   xdp tx    the same frames sent back out (XDP_TX of a multi-buffer
#             frame): rxb0's stack gets them all;
# (the redirect of multi-buffer frames, which depends on the kernel's
# version, is jumbo_redirect.sh's, run on every kernel).  Then: a program
# without frags support is refused on a jumbo MTU, and
# the MTU refused above a loaded one, each with a message, the port still
# forwarding; MTUs above the maximum refused; back to MTU 1500; every
# page_pool gets all its pages back.

source "$(dirname "$0")/lib.sh"
source "$RXB_DIR/jumbo_lib.sh"

CASES="ping tcp xdp_pass xdp_tx"
ktap_set_plan $((NM * $(wc -w <<<"$CASES") + 5))

# 1..NM*NC
jumbo_models "$CASES"

# +1, +2: a single-buffer program and a jumbo MTU exclude each other
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_static_neigh rxb0 rxb1
out=$(rxb_ip rxb1 -force link set dev rxb1 xdpdrv pinned "$BPFFS/pass" 2>&1)
rc=$?
ktap_print_msg "single-buffer program at MTU $MTU: exit $rc: $(head -n1 <<<"$out")"
ktap_test_result "a program without frags support is refused at MTU $MTU, with a message, the port forwarding" \
	eval '[ $rc != 0 ] && grep -q "frags" <<<"$out" &&
	      ! ip -n "$NS1" link show rxb1 | grep -q prog/xdp &&
	      [ "$(jping)" = $N ]'
setmtu rxb1 1500
rxb_ip rxb1 -force link set dev rxb1 xdpdrv pinned "$BPFFS/pass" ||
	ktap_print_msg "cannot attach the single-buffer program at MTU 1500"
out=$(setmtu rxb1 $MTU 2>&1)
rc=$?
ktap_print_msg "MTU $MTU with a single-buffer program: exit $rc: $(head -n1 <<<"$out")"
ktap_test_result "MTU $MTU refused while a program without frags support is attached; MTU 1500 kept" \
	eval '[ $rc != 0 ] && [ -n "$out" ] && [ "$(rxb_mtu rxb1)" = 1500 ] &&
	      rxb_ping_ok "$NS0" "$RXB_IP1" 5 -M do -s 1472'
rxb_ip rxb1 link set dev rxb1 xdpdrv off

# +3: above the maximum
out=$(setmtu rxb1 $((MTU + 1)) 2>&1)
rc=$?
ktap_print_msg "MTU $((MTU + 1)): exit $rc: $(head -n1 <<<"$out")"
ktap_test_result "MTU $((MTU + 1)) (above maxmtu $MTU) refused" \
	eval '[ $rc != 0 ] && [ "$(rxb_mtu rxb1)" = 1500 ] &&
	      [ "$(rxb_ip rxb1 -d link show rxb1 | sed -n "s/.* maxmtu \([0-9]*\).*/\1/p")" = $MTU ]'

# +4: back to MTU 1500 on both: one page per buffer again, small and
# full-size frames pass
setmtu rxb0 1500
k=$(rxb_in rxb1 ethtool -g rxb1 | sed -n 's/^RX Buf Len:[[:space:]]*//p' | head -n1)
ktap_print_msg "MTU 1500: rx buffers of $k bytes"
ktap_test_result "MTU 1500 again: one page per buffer ($k bytes), ping -M do -s 1472 answered" \
	eval '[ "${k:-0}" -lt 4096 ] && rxb_ping_ok "$NS0" "$RXB_IP1" 5 -M do -s 1472'

# +5: a model switch destroys the pools the last model left
echo shring > /sys/module/rxbisect/parameters/ring_model
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_pp_released_result 15

ktap_finished
