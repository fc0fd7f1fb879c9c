#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ethtool-new.sh [--fetch | --print]
#
# A newer ethtool than Debian 12's (6.1) for the kernel's driver tests that
# need one: hw/rss_ctx.py reads "ethtool --json -x IF context N" (JSON for
# -x came with ethtool 6.10).  It is the ethtool package of Debian's
# unstable suite (ethtool 7.2 as of 2026-11; it depends on libc6 >= 2.34 and
# libmnl0, which bookworm has), downloaded with apt-get through the private
# apt state of unstable that tools/vm/debian-kernel.sh keeps in the cache
# (make kernel-newest), and unpacked, never installed, into
# build/ethtool-unstable/ of this checkout (outside git; the test VM sees
# it at the same path).  Nothing else uses it: kdrv_tests.sh puts its
# directory first in PATH for hw/rss_ctx.py only.
#
#   --fetch   download and unpack once; print the binary's path
#   --print   print the binary's path if it is unpacked (exit 4 otherwise)
#
# Exit status: 0; 4 (kselftest's skip) with the reason on stderr when
# there is none (--print) or it cannot be had (no apt-get or dpkg-deb, no
# network, no ethtool in unstable's list); 2 on a usage error.

set -euo pipefail

TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
DIR=$TOP/build/ethtool-unstable
BIN=$DIR/usr/sbin/ethtool
CACHE=${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}
APTDIR=$CACHE/apt-unstable

skip() { echo "ethtool-new.sh: $*" >&2; exit 4; }

case ${1:-} in
--print)
	[ -x "$BIN" ] || skip "no $BIN: run tools/ethtool-new.sh --fetch on the host"
	echo "$BIN"
	exit 0
	;;
--fetch) ;;
*) sed -n '3,22s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

if [ -x "$BIN" ]; then
	echo "$BIN"
	exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "apt-get and dpkg-deb needed to fetch unstable's ethtool"
# debian-kernel.sh sets up (and refreshes daily) the private apt state of
# unstable when it looks up the newest kernel's release
"$TOP/tools/vm/debian-kernel.sh" --pin newest >/dev/null ||
	skip "no apt state of Debian unstable (tools/vm/debian-kernel.sh --pin newest failed)"
APT=(-o "Dir::Etc::sourcelist=$APTDIR/sources.list"
     -o "Dir::Etc::sourceparts=$APTDIR/none" -o "Dir::Etc::preferencesparts=$APTDIR/none"
     -o "Dir::State::lists=$APTDIR/lists" -o "Dir::Cache=$APTDIR/cache"
     -o Debug::NoLocking=1)
[ "$(id -u)" != 0 ] || APT+=(-o APT::Sandbox::User=root)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get "${APT[@]}" download -q ethtool >&2) ||
	skip "apt-get download of unstable's ethtool failed"
mkdir -p "$TOP/build"
rm -rf "$DIR.new"
dpkg-deb -x "$tmp"/ethtool_*.deb "$DIR.new" ||
	skip "cannot unpack $(ls "$tmp")"
"$DIR.new/usr/sbin/ethtool" --version >/dev/null 2>&1 ||
	skip "unstable's ethtool does not run here: $("$DIR.new/usr/sbin/ethtool" --version 2>&1 | head -n 1)"
rm -rf "$DIR"
mv "$DIR.new" "$DIR"
echo "$BIN"
