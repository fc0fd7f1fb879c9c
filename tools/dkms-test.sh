#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS on the build machine (make dkms-test; make test's static stage):
# make dkms-install (twice), `dkms build` for every kernel series whose
# headers are installed (/lib/modules/*/build; the newest release of each
# series, 6.1, 6.12, ...) within dkms.conf's
# BUILD_EXCLUSIVE_KERNEL, the built rxbisect.ko's vermagic, then make
# dkms-uninstall (twice) and nothing left behind: no `dkms status` line,
# no /usr/src/rxbisect-*, no /var/lib/dkms/rxbisect.  Nothing is installed
# into /lib/modules (dkms build, not dkms install), so a VM run sharing
# this root still loads the tree's own rxbisect.ko.
# RXB_DKMS_KDIRS="DIR ...": also build against these headers trees
# (dkms --kernelsourcedir), e.g. a kernel unpacked outside /lib/modules;
# unset, the build directory of the newest kernel of Debian's unstable
# suite where tools/vm/debian-kernel.sh has unpacked it into the cache;
# empty, none (make test: its static stage builds for the newest kernel
# once, in its newest job).  Every kernel tools/vm/kernels.conf pins is
# checked against BUILD_EXCLUSIVE_KERNEL, built or not.
#
# KTAP on stdout.  Exit 0: passed; 1: a check failed; 4: skipped (not
# root, no dkms, or rxbisect already registered with DKMS here: someone's
# installation, not touched), the reason on the last line.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
name=rxbisect
n=0
fail=0
skip=0
keydir=

comment() {
	sed 's/^/# /'
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 4
}

# check OK DESCRIPTION [SKIP-REASON]
check() {
	n=$((n + 1))
	if [ -n "${3:-}" ]; then
		echo "ok $n $2 # SKIP $3"
		skip=$((skip + 1))
	elif [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

# Anything of rxbisect's DKMS state on the machine, one line each.
leftovers() {
	local f

	dkms status 2>/dev/null | grep -E "^${name}[/,]"
	ls -d /usr/src/"$name"-* /var/lib/dkms/"$name" 2>/dev/null
	for f in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
		[ -e "$f" ] && ! grep -qxF "$f" "$keydir/before" && echo "$f"
	done
	return 0
}

# rxbisect.ko files under /lib/modules (make install's, say): unchanged.
installed_modules() {
	find /lib/modules -name "$name.ko*" 2>/dev/null | sort
}

cleanup() {
	# Whatever failed above, leave no DKMS state behind.
	local f

	[ -n "$(leftovers)" ] && tools/dkms.sh uninstall >/dev/null 2>&1
	for f in $(leftovers); do
		case $f in
		/var/lib/dkms/mok.*) rm -f "$f" ;;
		esac
	done
	rm -rf "$keydir"
}

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "not root (dkms add/build/remove need root)"
command -v dkms >/dev/null || skip_all "dkms not installed (make deps)"
# One DKMS test at a time on this machine: every checkout registers the
# same rxbisect/VERSION.
exec 9>/tmp/rxb-dkms.lock
flock 9
ver=$(tools/dkms.sh version) || skip_all "no RXB_DRV_VERSION"
keydir=$(mktemp -d /tmp/rxb-dkms-test.XXXXXX)
ls /var/lib/dkms/mok.key /var/lib/dkms/mok.pub >"$keydir/before" 2>/dev/null
installed_modules >"$keydir/modules"
if [ -n "$(leftovers)" ]; then
	leftovers | comment
	rm -rf "$keydir"
	skip_all "rxbisect is already registered with DKMS on this machine (above): not touching it"
fi
trap cleanup EXIT

conf_ver=$(sed -nE 's/^PACKAGE_VERSION="?([^"]*)"?[[:space:]]*$/\1/p' dkms.conf)
[ "$conf_ver" = "$ver" ] || echo "# dkms.conf PACKAGE_VERSION=$conf_ver, RXB_DRV_VERSION=$ver"
check "$([ "$conf_ver" = "$ver" ] && echo ok)" "dkms.conf PACKAGE_VERSION is RXB_DRV_VERSION ($ver)"

out=$(make -s dkms-uninstall 2>&1)
rc=$?
echo "# $out"
check "$([ $rc = 0 ] && grep -q 'not installed' <<<"$out" && echo ok)" \
	"dkms-uninstall when not installed: says so, exit 0"

for i in 1 2; do
	out=$(make -s dkms-install 2>&1)
	rc=$?
	printf '%s\n' "$out" | comment
	st=$(dkms status -m "$name" -v "$ver" 2>&1)
	echo "# dkms status: $st"
	check "$([ $rc = 0 ] && [ "$(grep -c "^$name/$ver" <<<"$st")" = 1 ] &&
		grep -q "added" <<<"$st" && echo ok)" "dkms-install ($i): exit 0, rxbisect/$ver added once"
done
products=$(find "/usr/src/$name-$ver" -name '*.o' -o -name '*.ko' -o -name '.*.cmd' 2>/dev/null)
check "$([ -f "/usr/src/$name-$ver/dkms.conf" ] && [ -f "/usr/src/$name-$ver/Kbuild" ] &&
	[ -z "$products" ] && echo ok)" "/usr/src/$name-$ver: sources with dkms.conf, no build products"

# dkms build for kernel $1, headers in $2 (or /lib/modules/$1/build).
build_for() {
	local k=$1 kdir=${2:-} what out rc ko vm log opt=()

	what="dkms build rxbisect/$ver -k $k: rxbisect.ko with vermagic $k"
	[[ $k =~ ^6\.12\. ]] && seen612=1
	if ! [[ $k =~ $range ]]; then
		check ok "$what" "outside dkms.conf's BUILD_EXCLUSIVE_KERNEL $range"
		return
	fi
	if ! [[ $k =~ ^6\.1\. ]] && [ ! -f drivers/net/rxbisect/compat.h ]; then
		check ok "$what" "this tree builds against 6.1 only (no drivers/net/rxbisect/compat.h yet)"
		return
	fi
	[ -n "$kdir" ] && opt=(--kernelsourcedir "$kdir")
	# A throw-away signing key: dkms would otherwise create
	# /var/lib/dkms/mok.key and mok.pub and keep them.
	out=$(mok_signing_key=$keydir/mok.key mok_certificate=$keydir/mok.pub \
		dkms build "$name/$ver" -k "$k" "${opt[@]}" 2>&1)
	rc=$?
	ko=$(find "/var/lib/dkms/$name/$ver/$k" -path "*/module/$name.ko*" 2>/dev/null | head -n1)
	vm=
	[ -n "$ko" ] && vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	if [ $rc != 0 ] || [ "$vm" != "$k" ]; then
		echo "# dkms build exit $rc, module '${ko:-none}', vermagic '${vm:-none}'; its last lines:"
		tail -n 20 <<<"$out" | comment
		log=/var/lib/dkms/$name/$ver/build/make.log
		[ -f "$log" ] && grep -E 'error|Error' "$log" | head -n 20 | comment
		check fail "$what"
	else
		echo "# $ko"
		check ok "$what"
		built=$((built + 1))
	fi
}

# Kernels: every installed headers tree, and the trees RXB_DKMS_KDIRS
# names (kernels unpacked elsewhere, e.g. the VM's 6.12 in ~/.cache);
# BUILD_EXCLUSIVE_KERNEL from dkms.conf.
range=$(sed -nE 's/^BUILD_EXCLUSIVE_KERNEL="(.*)"[[:space:]]*$/\1/p' dkms.conf)
built=0
seen612=
# One build per kernel series (6.1, 6.12, ...): its newest release with
# headers here.  Releases of one series share the interfaces the module
# builds against (Debian's 6.1.0-56 and -57 alike); dkms's own
# mechanism is the same for each.
declare -A series=()
for mk in /lib/modules/*/build/Makefile; do
	[ -f "$mk" ] || continue
	k=${mk#/lib/modules/}
	echo "${k%/build/Makefile}"
done | sort -V >"$keydir/releases"
while read -r k; do
	[[ $k =~ ^([0-9]+\.[0-9]+)\. ]] && series[${BASH_REMATCH[1]}]=$k
done <"$keydir/releases"
while read -r k; do
	[[ $k =~ ^([0-9]+\.[0-9]+)\. ]] && [ "${series[${BASH_REMATCH[1]}]}" != "$k" ] &&
		{ echo "# $k: ${series[${BASH_REMATCH[1]}]} is built for its series"; continue; }
	build_for "$k"
done <"$keydir/releases"
kdirs=${RXB_DKMS_KDIRS-$(tools/vm/debian-kernel.sh --env newest 2>/dev/null | sed -n 's/^KDIR=//p')}
if [ -z "${RXB_DKMS_KDIRS+x}" ] && [ ! -f "$kdirs/Makefile" ]; then
	echo "# the newest Debian kernel is not unpacked (make module KERNEL=newest): not built"
	kdirs=
fi
for kdir in $kdirs; do
	k=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
	if [ -z "$k" ]; then
		check fail "RXB_DKMS_KDIRS: $kdir is a kernel headers tree"
	else
		build_for "$k" "$kdir"
	fi
done
[ -n "$seen612" ] ||
	echo "# no 6.12 headers in /lib/modules (make deps installs them) nor RXB_DKMS_KDIRS: 6.12 not built"
[ $built -gt 0 ] || echo "# no kernel headers in range $range were built"

# The range takes every kernel the suite runs on, built here or not:
# Debian 12's (its releases here) and the pinned 6.12 and newest ones.
out=
for k in $(cat "$keydir/releases") \
	 $(sed -nE 's/^RXB_KVER_[A-Z0-9]+ \?= *//p' tools/vm/kernels.conf); do
	[[ $k =~ ^(6\.1|6\.12|[7-9]\.[0-9]+)\. ]] && ! [[ $k =~ $range ]] &&
		out+=" $k"
done
[ -z "$out" ] || echo "# outside BUILD_EXCLUSIVE_KERNEL $range:$out"
check "$([ -z "$out" ] && echo ok)" \
	"dkms.conf's BUILD_EXCLUSIVE_KERNEL takes 6.1, 6.12 and the newest kernel (tools/vm/kernels.conf)"

for i in 1 2; do
	out=$(make -s dkms-uninstall 2>&1)
	rc=$?
	printf '%s\n' "$out" | comment
	left=$(leftovers)
	[ -n "$left" ] && printf 'left: %s\n' "$left" | comment
	check "$([ $rc = 0 ] && [ -z "$left" ] && echo ok)" \
		"dkms-uninstall ($i): exit 0, no dkms status, /usr/src or /var/lib/dkms entry left"
done
installed_modules >"$keydir/after"
check "$(cmp -s "$keydir/modules" "$keydir/after" && echo ok)" \
	"no rxbisect.ko added to or removed from /lib/modules"

echo "1..$n"
echo "# Totals: pass:$((n - fail - skip)) fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ $fail = 0 ]
