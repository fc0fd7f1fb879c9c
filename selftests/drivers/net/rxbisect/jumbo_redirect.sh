#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Multi-buffer XDP redirect on every ring model (jumbo.sh's setup,
# jumbo_lib.sh): for each model, with MTU 9000 on both ports, a
# multi-buffer program (SEC "xdp.frags") on rxb1 redirects each 9014-byte
# echo request to the first port of a second rxbisect pair (ndo_xdp_xmit
# of a multi-buffer frame): its peer's NIC writes every one, 9014 bytes
# each.  6.1 redirects no multi-buffer frame (6.3's xdp_features): there,
# on the scatter-buffer models, every one is a redirect error and none
# arrives, while the contiguous-buffer models' frames, in one buffer,
# are redirected.  The behaviour differs by kernel: make test runs this
# on each.  Last, every page_pool gets all its pages back.

source "$(dirname "$0")/lib.sh"
source "$RXB_DIR/jumbo_lib.sh"

ktap_set_plan $((NM + 1))
target_up || rxb_bail "cannot make the redirect target"

# 1..NM
jumbo_models xdp_redirect

# +1: the redirect target gone and a model switch: every pool released
ip -n "$NS1" link del rxr0
echo shring > /sys/module/rxbisect/parameters/ring_model
echo privring > /sys/module/rxbisect/parameters/ring_model
rxb_pp_released_result 15

ktap_finished
