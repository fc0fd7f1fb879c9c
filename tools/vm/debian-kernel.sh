#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-kernel.sh [--pin | --env | --fetch] SERIES
#
# A Debian 12 kernel of SERIES (6.12) to build rxbisect.ko against and to
# boot in the test VM, besides the default 6.1.  Installed by make deps
# (linux-image-KVER, linux-headers-KVER) it is used where it is:
# /lib/modules/KVER/build and /boot/vmlinuz-KVER.  Without it, --fetch
# downloads the same packages with apt-get download (no root needed) and
# unpacks them with dpkg -x into
#   ${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}/debian-KVER/
# whose usr/src/linux-headers-KVER is the build directory and which is the
# VM's module root (run-vm.sh --modroot).
#
#   --pin     print the release to install: RXB_KVER_612 (tools/vm/kernels.conf
#             or the environment) while the archive has it, else the newest
#             6.12 release the archive has (a warning says so)
#   --env     print KVER=, KDIR=, IMAGE=, MODROOT= (one a line) of the kernel
#             to use: the newest installed release of SERIES, else the
#             unpacked one (which may not be unpacked yet: see --fetch)
#   --fetch   as --env, but first unpack the --pin release into the cache if
#             no release of SERIES is installed or unpacked
#
# Exit status: 0; 1 with a message when no such kernel can be had.

set -euo pipefail
tmp=

SELF_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
CACHE=${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}

die() { echo "debian-kernel.sh: $*" >&2; exit 1; }
usage() { sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

[ $# -eq 2 ] || usage
MODE=$1
SERIES=$2
case $MODE in --pin|--env|--fetch) ;; *) usage ;; esac
case $SERIES in
6.12) PIN=${RXB_KVER_612:-$(sed -n 's/^RXB_KVER_612 ?= *//p' "$SELF_DIR/kernels.conf")} ;;
*) die "unknown kernel series $SERIES (known: 6.12)" ;;
esac
# Debian's generic amd64 flavour of the series, e.g. 6.12.117+deb12-amd64.
RE="^${SERIES//./\\.}\\.[0-9]+\\+deb[0-9]+-amd64\$"

newest() { { grep -E "$RE" || true; } | sort -V | tail -n1; }

pin() {
	local meta

	if apt-cache show "linux-image-$PIN" >/dev/null 2>&1; then
		echo "$PIN"
		return
	fi
	meta=$(apt-cache show "linux-image-$SERIES-amd64" 2>/dev/null |
	       grep -oE "linux-image-$SERIES\\.[0-9]+\\+deb[0-9]+-amd64" | sed 's/^linux-image-//' | newest)
	[ -n "$meta" ] || die "neither linux-image-$PIN nor linux-image-$SERIES-amd64 in the apt sources (bookworm-security; apt-get update?)"
	echo "debian-kernel.sh: linux-image-$PIN is gone from the archive: using $meta" >&2
	echo "$meta"
}

installed() {
	local v

	for v in /lib/modules/*; do
		v=${v##*/}
		if [ -f "/lib/modules/$v/build/Makefile" ] && [ -r "/boot/vmlinuz-$v" ]; then
			echo "$v"
		fi
	done | newest
}

unpacked() {
	local d

	for d in "$CACHE"/debian-*/env; do
		if [ -r "$d" ]; then
			sed -n 's/^KVER=//p' "$d"
		fi
	done | newest
}

# fetch KVER: download and unpack linux-image, -headers, -headers-common
# and -kbuild of KVER into $CACHE/debian-KVER.
fetch() {
	local v=$1 dir=$CACHE/debian-$1 base=${1%-amd64}

	mkdir -p "$CACHE"
	exec 9> "$dir.lock"
	flock 9
	[ -r "$dir/env" ] && return
	if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
		die "apt-get and dpkg needed to fetch linux-image-$v (or install it: make deps)"
	fi
	tmp=$(mktemp -d "$dir.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "debian-kernel.sh: fetching linux-image-$v and its headers into $dir" >&2
	(cd "$tmp" && apt-get download -q "linux-image-$v" "linux-headers-$v" \
		"linux-headers-$base-common" "linux-kbuild-$base" >&2) ||
		die "apt-get download of linux-image-$v failed"
	mkdir "$tmp/root"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $dir/usr/src/|" \
		"$tmp/root/usr/src/linux-headers-$v/Makefile"
	if [ ! -r "$tmp/root/boot/vmlinuz-$v" ] || [ ! -d "$tmp/root/lib/modules/$v/kernel" ]; then
		die "the packages of $v lack the kernel image or modules"
	fi
	# The module index, as the package's postinst would make it.
	PATH=$PATH:/sbin:/usr/sbin depmod -b "$tmp/root" "$v" ||
		die "depmod of the unpacked $v failed"
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/root/"* "$dir/"
	printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=%s\n' "$v" \
		"$dir/usr/src/linux-headers-$v" "$dir/boot/vmlinuz-$v" "$dir" > "$dir/env"
}

case $MODE in
--pin)
	pin
	exit 0
	;;
--fetch)
	[ -n "$(installed)" ] || [ -n "$(unpacked)" ] || fetch "$(pin)"
	;;
esac

v=$(installed)
if [ -n "$v" ]; then
	printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=\n' "$v" "/lib/modules/$v/build" "/boot/vmlinuz-$v"
	exit 0
fi
v=$(unpacked)
if [ -n "$v" ]; then
	cat "$CACHE/debian-$v/env"
	exit 0
fi
# Not there yet: where --fetch will put the pinned release.
v=$PIN
d=$CACHE/debian-$v
printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=%s\n' "$v" "$d/usr/src/linux-headers-$v" "$d/boot/vmlinuz-$v" "$d"
