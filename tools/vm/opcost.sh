#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# opcost.sh [N]: what the operations the selftests repeat cost in this
# machine, N runs each (default 40; the module loads a quarter of that),
# in ms per operation.  Meant for the VM, where each process costs tens of
# ms under TCG:
#   tools/vm/run-vm.sh -- tools/vm/opcost.sh 40
# Compare kernel command lines with run-vm.sh --append and the "QEMU used"
# line it prints.  Needs root and rxbisect.ko where modprobe finds it.
set -u
N=${1:-40}
case $N in ''|*[!0-9]*|0) echo "usage: opcost.sh [N]: N, the runs of each, a positive integer" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "opcost.sh: needs root" >&2; exit 2; }
ko=$(modinfo -n rxbisect 2>/dev/null) || { echo "opcost.sh: no rxbisect.ko for modprobe" >&2; exit 2; }
tmp=$(mktemp -d) || exit 1
ns=opcost-$$
cleanup() {
	rmmod rxbisect 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cp "$ko" "$tmp/full.ko"
objcopy --strip-debug "$ko" "$tmp/strip.ko"
modprobe -q tls; modprobe -q ptp
ip netns add "$ns" || exit 1

op() {
	local name=$1 t0 t1 i
	shift
	t0=$EPOCHREALTIME
	for ((i = 0; i < N; i++)); do "$@" >/dev/null 2>&1; done
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" -v n="$N" -v m="$name" \
		'BEGIN { printf "%-28s %8.1f ms\n", m, (b - a) * 1000 / n }'
}
lu() { insmod "$1" && rmmod rxbisect; }

echo "# $(uname -r), $(nproc) CPUs, N=$N; $(cat /proc/cmdline)"
op "bash builtin (:)" :
op "/bin/true" /bin/true
op "bash subshell \$(:)" eval 'x=$(:)'
op "ip netns exec NS true" ip netns exec "$ns" /bin/true
op "nsenter --net true" nsenter --net=/run/netns/"$ns" /bin/true
op "ip link show" ip link show
op "ip -n NS link show" ip -n "$ns" link show
op "cat /proc/stat" cat /proc/stat
op "grep -q x /proc/stat" grep -q x /proc/stat
op "awk 1 /proc/stat" awk 1 /proc/stat
op "python3 -c pass" python3 -c pass
op "python3 -S -c pass" python3 -S -c pass
op "ethtool -i lo" ethtool -i lo
op "/bin/sleep 0" sleep 0
N=$(((N + 3) / 4))
op "insmod+rmmod (debug info)" lu "$tmp/full.ko"
op "insmod+rmmod (stripped)" lu "$tmp/strip.ko"
op "modprobe+rmmod" eval 'modprobe rxbisect && rmmod rxbisect'
insmod "$tmp/strip.ko" || exit 1
op "ethtool -S rxb0" ethtool -S rxb0
op "ip link set rxb0 up; down" eval 'ip link set rxb0 up; ip link set rxb0 down'
