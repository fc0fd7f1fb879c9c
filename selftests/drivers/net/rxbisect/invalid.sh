#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Invalid settings are refused (ethtool -G/-L/-X, MTU, debugfs knobs) with a
# useful message, leave the setting as it was, and the link keeps working.

source "$(dirname "$0")/lib.sh"

rxb_init ping
ktap_set_plan 21

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

PWR2_RX="rx ring size must be a power of two in 64..8192"
PWR2_TX="tx ring size must be a power of two in 64..8192"

# refused DESC MSG GETTER CMD...: CMD must fail, print MSG (if not empty),
# leave "GETTER" (a command whose output is the setting) unchanged, and a
# ping must still go through.
refused() {
	local desc=$1 msg=$2 getter=$3 before after out rc ok=1
	shift 3
	before=$(eval "$getter")
	out=$("$@" 2>&1)
	rc=$?
	after=$(eval "$getter")
	ktap_print_msg "$*: exit $rc: ${out:-<no output>}"
	[ $rc != 0 ] || { ok=0; ktap_print_msg "command succeeded"; }
	if [ -n "$msg" ] && [[ $out != *"$msg"* ]]; then
		ok=0
		ktap_print_msg "message '$msg' missing"
	fi
	if [ "$before" != "$after" ] || [ -z "$before" ]; then
		ok=0
		ktap_print_msg "setting changed: '$before' -> '$after'"
	fi
	rxb_ping_ok "$NS0" "$RXB_IP1" 2 || ok=0
	ktap_test_result "$desc" [ $ok = 1 ]
}

e1() { rxb_in rxb1 ethtool "$@"; }

# 1..5: ring sizes
refused "ethtool -G rx 100 refused" "$PWR2_RX" "rxb_ring rxb1 RX" e1 -G rxb1 rx 100
refused "ethtool -G rx 32 refused" "$PWR2_RX" "rxb_ring rxb1 RX" e1 -G rxb1 rx 32
refused "ethtool -G rx 16384 refused" "" "rxb_ring rxb1 RX" e1 -G rxb1 rx 16384
refused "ethtool -G tx 100 refused" "$PWR2_TX" "rxb_ring rxb1 TX" e1 -G rxb1 tx 100
refused "ethtool -G rx 0 refused" "$PWR2_RX" "rxb_ring rxb1 RX" e1 -G rxb1 rx 0

# 6: a refused rx size does not apply the valid tx size of the same request
refused "ethtool -G rx 100 tx 512 refused as a whole" "$PWR2_RX" \
	"echo \$(rxb_ring rxb1 RX) \$(rxb_ring rxb1 TX)" e1 -G rxb1 rx 100 tx 512

# 7, 8: channels
refused "ethtool -L combined 0 refused" "" "rxb_channels rxb1" e1 -L rxb1 combined 0
refused "ethtool -L combined 1000 refused" "" "rxb_channels rxb1" e1 -L rxb1 combined 1000

# 9, 10: indirection table
refused "ethtool -X equal 99 refused" "" "rxb_indir rxb1" e1 -X rxb1 equal 99
refused "ethtool -X hkey of 4 bytes refused" "" "rxb_hkey rxb1" e1 -X rxb1 hkey 01:02:03:04

# 11..13: MTU
refused "ip link set mtu 10 refused" "" "rxb_mtu rxb1" rxb_ip rxb1 link set rxb1 mtu 10
refused "ip link set mtu 70000 refused" "" "rxb_mtu rxb1" rxb_ip rxb1 link set rxb1 mtu 70000
refused "ip link set mtu 9001 refused (jumbo frames stop at 9000)" "" "rxb_mtu rxb1" \
	rxb_ip rxb1 link set rxb1 mtu 9001

# 14..18: debugfs knobs
kset() { echo "$4" > "$RXB_DBG/$1/q$2/$3"; }
refused "debugfs stall = 2 refused" "" "rxb_knob rxb1 0 stall" kset rxb1 0 stall 2
refused "debugfs irq_cpu = 4096 (no such CPU) refused" "" "rxb_knob rxb1 0 irq_cpu" \
	kset rxb1 0 irq_cpu 4096
# the bounds that keep a poll far from the soft-lockup watchdog
refused "debugfs work = 262145 refused (at most 262144 touches a packet)" "" \
	"rxb_knob rxb1 1 work" kset rxb1 1 work 262145
refused "debugfs complete_delay = 5001 refused (at most 5000 us)" "" \
	"rxb_knob rxb1 1 complete_delay" kset rxb1 1 complete_delay 5001
kset rxb1 1 work 262144 && kset rxb1 1 complete_delay 5000
ktap_test_result "debugfs work = 262144 and complete_delay = 5000 (the bounds) accepted" \
	[ "$(rxb_knob rxb1 1 work) $(rxb_knob rxb1 1 complete_delay)" = "262144 5000" ]
kset rxb1 1 work 0
kset rxb1 1 complete_delay 0

# 19: after all that, the valid settings still apply
ok=1
e1 -G rxb1 rx 512 tx 256 || ok=0
e1 -L rxb1 combined 3 || ok=0
rxb_ip rxb1 link set rxb1 mtu 2000 || ok=0
ktap_test_result "valid settings apply afterwards (-G rx 512 tx 256, -L 3, mtu 2000)" \
	eval '[ $ok = 1 ] && [ "$(rxb_ring rxb1 RX) $(rxb_ring rxb1 TX) $(rxb_channels rxb1) $(rxb_mtu rxb1)" = "512 256 3 2000" ]'

# 20: a queue removed (ethtool -L) takes its debugfs faults with it: added
# again, it starts without them (the fuzzer found them kept)
kset rxb1 2 complete_delay 500 && kset rxb1 2 work 16 &&
	e1 -L rxb1 combined 2 && e1 -L rxb1 combined 3
ktap_test_result "a queue removed and added again comes back without its debugfs faults" \
	[ "$(rxb_knob rxb1 2 work) $(rxb_knob rxb1 2 complete_delay)" = "0 0" ]

# 21
ktap_test_result "ping rxb0 -> rxb1 at the end" rxb_ping_ok "$NS0" "$RXB_IP1" 10

ktap_finished
