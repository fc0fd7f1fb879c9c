#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# shring-batched (batched RxList) under socket traffic, two queues sharing
# one Rx ring: TCP and UDP, every queue receives, every frame delivered
# exactly once (page fragments of multi-packet buffers, no copy), idle
# descriptors closed by the NIC's timer, the shared ring's counters add up
# (shr_traffic in shring_lib.sh).

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/shring_lib.sh"

rxb_init iperf3 ping python3
ktap_set_plan $SHR_TRAFFIC_RESULTS
shr_traffic shring-batched
ktap_finished
