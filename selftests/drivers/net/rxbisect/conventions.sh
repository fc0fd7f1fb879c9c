#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# netdev conventions: /sys/class/net/X/device of the ports of a bus device,
# NETIF_F_RXHASH offered and honoured (the NIC's hash reaches the skb only
# while "ethtool -K X rxhash" is on; seen in the net:napi_gro_receive_entry
# trace event), and a refused ethtool change whose operation has no extack
# in this kernel (-X hfunc) says why in the log.  The ring-model parameters,
# each declared once (drivers/net/rxbisect/drv/rxb_param_list.h): the
# documentation says what modinfo says (tools/params-doc.py --check), every
# parameter starts at the default modinfo gives, in sysfs and in devlink,
# devlink offers exactly them (and stall_timeout_ms), the ring models
# modinfo names are those the module registers, and a value outside the
# range is refused with a message that names the parameter and its range,
# as a module parameter (dmesg) and as a devlink parameter (extack).

source "$(dirname "$0")/lib.sh"

rxb_init ping python3
ktap_set_plan 11

T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d $T/events/net/napi_gro_receive_entry ] || ktap_skip_all "no net trace events"

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"

# 1: the ports' device is the bus device
d0=$(rxb_in rxb0 readlink -f /sys/class/net/rxb0/device)
d1=$(rxb_in rxb1 readlink -f /sys/class/net/rxb1/device)
ktap_print_msg "rxb0/device -> $d0, rxb1/device -> $d1"
ktap_test_result "/sys/class/net/rxbN/device is the bus device rxbisect0" \
	eval '[ "${d0##*/}" = rxbisect0 ] && [ "$d1" = "$d0" ] && [ -d "$d0" ]'

# hashes IF: "hash l4_hash" of each napi_gro_receive_entry of IF during a
# burst of UDP datagrams to rxb1.
hashes() {
	echo > $T/trace
	echo "name == \"$1\"" > $T/events/net/napi_gro_receive_entry/filter
	echo 1 > $T/events/net/napi_gro_receive_entry/enable
	rxb_udp_blast "$NS0" "$RXB_IP1" 20 4 200 >/dev/null
	rxb_sleep 0.5
	echo 0 > $T/events/net/napi_gro_receive_entry/enable
	echo 0 > $T/events/net/napi_gro_receive_entry/filter
	sed -n 's/.* hash=\(0x[0-9a-f]*\) l4_hash=\([01]\).*/\1 \2/p' $T/trace
}

# 2: offered, on by default
k=$(rxb_in rxb1 ethtool -k rxb1 | grep '^receive-hashing:')
ktap_test_result "NETIF_F_RXHASH offered and on ($k)" \
	eval '[[ $k == "receive-hashing: on" ]]'

# 3: on: the NIC's L4 hash
h=$(hashes rxb1)
ktap_print_msg "rxhash on: $(sort <<<"$h" | uniq -c | tr -s ' \n' ' ')"
ktap_test_result "rxhash on: UDP packets carry the NIC's L4 hash" \
	eval '[ -n "$h" ] && ! grep -qv " 1$" <<<"$h" && ! grep -q "^0x00000000" <<<"$h"'

# 4: off: no hash
rxb_in rxb1 ethtool -K rxb1 rxhash off
h=$(hashes rxb1)
ktap_print_msg "rxhash off: $(sort <<<"$h" | uniq -c | tr -s ' \n' ' ')"
ktap_test_result "rxhash off: no hash reported" \
	eval '[ -n "$h" ] && ! grep -qv "^0x00000000 0$" <<<"$h"'
rxb_in rxb1 ethtool -K rxb1 rxhash on

# 5: ethtool -X hfunc xor: refused, the reason in the log (no extack)
mark=$(rxb_kmsg_mark "conventions.sh: hfunc xor")
before=$(rxb_indir rxb1)
out=$(rxb_in rxb1 ethtool -X rxb1 hfunc xor 2>&1)
rc=$?
msg=$(rxb_kmsg_since "$mark" | grep -m1 "rxb1: ethtool.*hash function")
ktap_print_msg "exit $rc: $out; log: $msg"
ktap_test_result "ethtool -X hfunc xor refused, the reason logged" \
	eval '[ $rc != 0 ] && [ -n "$msg" ] && [ "$(rxb_indir rxb1)" = "$before" ]'

# 6..10: the ring-model parameters
TOP=$RXB_DIR/../../../..
P=/sys/module/rxbisect/parameters
DL=rxbisect/rxbisect0
KO=rxbisect
[ "${RXB_MODPROBE:-1}" = 1 ] || KO=$RXB_KO
HAVE_DL=
command -v devlink >/dev/null 2>&1 && devlink dev | grep -qx "$DL" && HAVE_DL=1

# 6: the documentation from modinfo
out=$(python3 "$TOP/tools/params-doc.py" --check "$KO" 2>&1)
rc=$?
[ $rc = 0 ] || ktap_print_msg "$out"
ktap_print_msg "${out##*$'\n'}"
ktap_test_result "Documentation/devlink.rst and the README say what modinfo says of each parameter" \
	[ $rc = 0 ]

# NAME TYPE RANGE DEFAULT of each parameter of the table, from modinfo:
# "NAME:description (RANGE; default DEFAULT); writable (uint|string)"
re='^([a-z0-9_]+):.* \(([^()]*); default ([^()]*)\); writable \((uint|string)\)$'
declare -A RANGE=() DEF=()
NAMES=()
while IFS= read -r l; do
	[[ $l =~ $re ]] || continue
	NAMES+=("${BASH_REMATCH[1]}")
	RANGE[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	DEF[${BASH_REMATCH[1]}]=${BASH_REMATCH[3]}
done < <(modinfo -p "$KO")
ktap_print_msg "${#NAMES[@]} ring-model parameters in modinfo"

# 7: every parameter starts at its default
bad=
for n in "${NAMES[@]}"; do
	v=$(<"$P/$n")
	[ "$v" = "${DEF[$n]}" ] || bad+=" $n=$v (modinfo: ${DEF[$n]})"
done
if [ -n "$HAVE_DL" ]; then
	while IFS== read -r n v; do
		[ "$n" = stall_timeout_ms ] && continue
		[ "$v" = "${DEF[$n]-(none)}" ] || bad+=" devlink $n=$v (modinfo: ${DEF[$n]-none})"
	done < <(rxb_dl_params)
fi
[ -z "$bad" ] || ktap_print_msg "not at the default:$bad"
ktap_test_result "every parameter starts at the default modinfo gives (sysfs${HAVE_DL:+, devlink})" \
	eval '[ ${#NAMES[@]} -ge 30 -a -z "$bad" ]'

# 8: devlink offers the table's parameters and stall_timeout_ms, no other
if [ -n "$HAVE_DL" ]; then
	dl=$(rxb_dl_params | sed 's/=.*//' | sort | xargs)
	tb=$(printf '%s\n' "${NAMES[@]}" stall_timeout_ms | sort | xargs)
	[ "$dl" = "$tb" ] || ktap_print_msg "devlink: $dl; modinfo: $tb"
	ktap_test_result "devlink's parameters are modinfo's and stall_timeout_ms" [ "$dl" = "$tb" ]
else
	ktap_test_skip "devlink's parameters are modinfo's and stall_timeout_ms" "no devlink"
fi

# 9: the ring models modinfo names are the registered ones
mi=$(tr '|' '\n' <<<"${RANGE[ring_model]}" | sort | xargs)
reg=$(rxb_models | sort | xargs)
ktap_print_msg "ring_model: $mi"
ktap_test_result "the ring models of modinfo are those the module registers" \
	eval '[ -n "$reg" ] && [ "$mi" = "$reg" ]'

# 10: a value outside the range: refused, the message names the parameter
# and its range, nothing changes
bad=0
mark=$(rxb_kmsg_mark "conventions.sh: out of range")
for n in "${NAMES[@]}"; do
	r=${RANGE[$n]}
	case $r in
	*"|"*) v=bogus ;;			# not one of the names
	*..*) v=$(( ${r##*..} + 1 )) ;;		# one above the largest
	*) v=$(printf 'x%.0s' {1..40}) ;;	# too long a string
	esac
	before=$(<"$P/$n")
	if (echo "$v" > "$P/$n") 2>/dev/null; then
		ktap_print_msg "$n=$v accepted"
		bad=1
	fi
	[ "$(<"$P/$n")" = "$before" ] || { ktap_print_msg "$n changed"; bad=1; }
	if [ -n "$HAVE_DL" ]; then
		out=$(devlink dev param set $DL name "$n" value "$v" cmode runtime 2>&1) &&
			{ ktap_print_msg "devlink $n $v accepted"; bad=1; }
		# (devlink itself refuses a string of 32 characters or more,
		# before the driver sees it)
		[[ $r == *characters || $out == *"$n: "*"${r##* }"* ]] ||
			{ ktap_print_msg "devlink $n $v: '$out' does not name $n and $r"; bad=1; }
	fi
done
log=$(rxb_kmsg_since "$mark")
for n in "${NAMES[@]}"; do
	r=${RANGE[$n]}
	grep -qF -- "$n: " <<<"$(grep -F "rxbisect: $n '" <<<"$log")" &&
		grep -F "rxbisect: $n '" <<<"$log" | grep -qF -- "${r##* }" ||
		{ ktap_print_msg "no message naming $n and $r in dmesg"; bad=1; }
done
ktap_print_msg "e.g. $(grep -m1 -F "rxbisect: share_factor '" <<<"$log")"
ktap_test_result "out-of-range values refused, the messages name the parameter and its range${HAVE_DL:+ (sysfs and devlink)}" \
	[ $bad = 0 ]

# 11
ktap_test_result "ping rxb0 -> rxb1 at the end" rxb_ping_ok "$NS0" "$RXB_IP1" 5

ktap_finished
