#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Who may create ports: a process with CAP_NET_ADMIN in the initial user
# namespace, as for any device on a bus (Documentation/rxbisect.rst,
# "Devices, devlink and configuration").  Each port pins up to about a GiB
# of page_pool memory that no memcg is charged for.
#   1  an unprivileged user in a user and network namespace of its own
#      (unshare -Urn: CAP_NET_ADMIN in that namespace only) is refused
#      "ip link add type rxbisect" with a message saying why, and no port
#      appears;
#   2  so is the lower-device form, "ip link add link DEV type rxbisect";
#   3  root in the initial user namespace without CAP_NET_ADMIN (setpriv)
#      is refused /sys/bus/rxbisect/new_device (EPERM), and no device
#      appears;
#   4  root with CAP_NET_ADMIN creates a pair with ip link and a device with
#      new_device, and removes them.

source "$(dirname "$0")/lib.sh"

rxb_init unshare setpriv
ktap_set_plan 4

rxb_load || rxb_bail "cannot load the module"
id nobody >/dev/null 2>&1 || ktap_skip_all "no user nobody"
# Debian's switch for unprivileged user namespaces, where it exists
uns=/proc/sys/kernel/unprivileged_userns_clone
uns0=
if [ -w $uns ]; then
	uns0=$(<$uns)
	echo 1 > $uns
fi
cleanup_priv() {
	[ -n "$uns0" ] && echo "$uns0" > $uns
	rxb_cleanup
}
trap cleanup_priv EXIT
MSG="creating rxbisect ports needs CAP_NET_ADMIN in the initial user namespace"

# as_user CMD: CMD as nobody in a new user and network namespace, then the
# rxbisect ports that namespace has; stdout and stderr together.
as_user() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		unshare -Urn sh -c "$1; echo \"ports: \$(ip -o link show type rxbisect | wc -l)\"" 2>&1
}
# the namespace works at all: a dummy device, which needs only CAP_NET_ADMIN
# in it
out=$(as_user "ip link add d0 type dummy && echo dummy-ok")
[[ $out == *dummy-ok* ]] ||
	ktap_skip_all "unprivileged user namespaces do not work here: $out"

# 1, 2
refused_user() {
	local out
	out=$(as_user "$1")
	ktap_print_msg "$1: $out"
	[[ $out == *"$MSG"* ]] && [[ $out == *"ports: 0"* ]]
}
ktap_test_result "unprivileged user namespace: ip link add type rxbisect refused with a message" \
	refused_user "ip link add rxbu type rxbisect"
ktap_test_result "unprivileged user namespace: ip link add link DEV type rxbisect refused with a message" \
	refused_user "ip link add d0 type dummy; ip link add link d0 name rxbl type rxbisect"

# 3
n0=$(ls /sys/bus/rxbisect/devices | wc -l)
out=$(setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
	bash -c 'echo 9 > /sys/bus/rxbisect/new_device' 2>&1)
rc=$?
n1=$(ls /sys/bus/rxbisect/devices | wc -l)
ktap_print_msg "new_device 9 without CAP_NET_ADMIN: exit $rc: $out; devices $n0 -> $n1"
[ -e /sys/bus/rxbisect/devices/rxbisect9 ] && echo 9 > /sys/bus/rxbisect/del_device
ktap_test_result "root without CAP_NET_ADMIN: new_device refused (EPERM)" \
	eval '[ $rc != 0 ] && [[ $out == *"not permitted"* ]] && [ "$n1" = "$n0" ]'

# 4
ok=1
echo 9 > /sys/bus/rxbisect/new_device || ok=0
[ -e /sys/bus/rxbisect/devices/rxbisect9 ] || ok=0
echo 9 > /sys/bus/rxbisect/del_device || ok=0
ip link add rxbp type rxbisect || ok=0
ip link show rxbp >/dev/null 2>&1 || ok=0
ip link del rxbp || ok=0
ktap_test_result "root with CAP_NET_ADMIN: new_device and ip link add create ports" [ $ok = 1 ]

ktap_finished
