#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Interconnect bytes on every ring model (ethtool -S pcie_*): the packet
# data the NIC writes equals the frames' bytes exactly; every model also
# moves descriptor/completion bytes both ways and rings doorbells; for
# privRing the metadata is exactly one 16-byte descriptor read and one
# 16-byte completion write per frame; Ensō reads no descriptors and writes
# a 16-byte framing header per frame plus 64-byte notifications.

source "$(dirname "$0")/lib.sh"

rxb_init ethtool python3
rxb_load queues=2 || rxb_bail "cannot load the module"
MODELS=$(rxb_models | xargs)
ktap_set_plan $(($(wc -w <<<"$MODELS") + 2))
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

N=200
FRAME=106	# 14 + 20 + 8 + 64
for m in $MODELS; do
	echo "$m" > /sys/module/rxbisect/parameters/ring_model ||
		{ ktap_test_fail "$m: cannot switch to it"; continue; }
	rxb_wait_carrier rxb1
	rxb_sleep 0.2
	rxb_snap rxb1
	d0=${RXB_S[pcie_to_host_data_bytes]} m0=${RXB_S[pcie_to_host_meta_bytes]}
	r0=${RXB_S[pcie_to_nic_desc_bytes]} b0=${RXB_S[pcie_to_nic_mmio_bytes]}
	h0=$(rxb_s_qsum hw_packets)
	sent=$(rxb_udp_blast "$NS0" "$RXB_IP1" $N 4 2000)
	rxb_wait_consumed rxb1
	rxb_sleep 0.3
	rxb_snap rxb1
	d=$((RXB_S[pcie_to_host_data_bytes] - d0))
	mt=$((RXB_S[pcie_to_host_meta_bytes] - m0))
	r=$((RXB_S[pcie_to_nic_desc_bytes] - r0))
	b=$((RXB_S[pcie_to_nic_mmio_bytes] - b0))
	h=$(($(rxb_s_qsum hw_packets) - h0))
	ktap_print_msg "$m: $h frames: data $d, meta written $mt, descriptors read $r, doorbells $b bytes; metadata share $(((mt + r + b) * 100 / (d + mt + r + b)))%"
	ok=1
	[ "$h" -gt 0 -a "$d" = $((h * FRAME)) ] || ok=0
	if [ "$m" = enso ]; then
		# no descriptors at all (Ensō's point): a 16-B framing header
		# per frame plus 64-B notifications, and Head_SW writes
		[ "$r" = 0 -a "$mt" -gt $((h * 16)) -a \
		  $(((mt - h * 16) % 64)) = 0 -a "$b" -gt 0 ] || ok=0
	else
		[ "$mt" -gt 0 -a "$r" -gt 0 -a "$b" -gt 0 ] || ok=0
	fi
	if [ "$m" = privring ]; then
		[ "$mt" = $((h * 16)) -a "$r" = $((h * 16)) ] || ok=0
	fi
	ktap_test_result "$m: data bytes = frame bytes, metadata and doorbells counted" [ $ok = 1 ]
done

# CEIO with every packet on its slow path: the frames wait in the NIC's
# memory tier and cross the bus when the driver fetches them, so the
# packet data is counted then, once, beside a slow-ring entry each.
ok=0
if echo ceio > /sys/module/rxbisect/parameters/ring_model &&
   echo on > /sys/module/rxbisect/parameters/ceio_force_slow; then
	rxb_wait_carrier rxb1
	rxb_sleep 0.2
	rxb_snap rxb1
	d0=${RXB_S[pcie_to_host_data_bytes]} m0=${RXB_S[pcie_to_host_meta_bytes]}
	h0=$(rxb_s_qsum hw_packets)
	rxb_udp_blast "$NS0" "$RXB_IP1" $N 4 2000 >/dev/null
	rxb_wait_consumed rxb1
	rxb_sleep 0.3
	rxb_snap rxb1
	d=$((RXB_S[pcie_to_host_data_bytes] - d0))
	mt=$((RXB_S[pcie_to_host_meta_bytes] - m0))
	h=$(($(rxb_s_qsum hw_packets) - h0))
	ktap_print_msg "ceio, slow path only: $h frames: data $d, meta written $mt bytes"
	[ "$h" -gt 0 -a "$d" = $((h * FRAME)) -a "$mt" -gt 0 ] && ok=1
fi
echo off > /sys/module/rxbisect/parameters/ceio_force_slow
ktap_test_result "ceio, slow path only: tier fetches counted as packet data, once" [ $ok = 1 ]

# the device-wide sums are the sums over queues
rxb_snap rxb1
s=$(rxb_s_qsum pcie_to_host_data_bytes)
ktap_test_result "pcie_to_host_data_bytes = sum of rxN_ = dma_bytes" \
	[ "$s" = "${RXB_S[pcie_to_host_data_bytes]}" -a "$s" = "${RXB_S[dma_bytes]}" ]

ktap_finished
