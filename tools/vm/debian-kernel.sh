#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-kernel.sh [--pin | --env | --fetch | --source] SERIES
#
# A Debian kernel besides the default 6.1 to build rxbisect.ko against and
# to boot in the test VM.  SERIES is
#
#   6.12     Debian 12's 6.12 LTS, from bookworm-security (the system's apt
#            sources; make deps installs it)
#   newest   the newest kernel release of Debian's unstable suite:
#            RXB_KVER_NEWEST (tools/vm/kernels.conf or the environment)
#            while the archive has it.  Looked up with a private apt source
#            list and apt state under the cache (apt-unstable/; the system's
#            apt sources and state are not touched), on the system's Debian
#            mirror (RXB_DEBIAN_MIRROR overrides it)
#
# Installed (linux-image-KVER, linux-headers-KVER) the kernel is used where
# it is: /lib/modules/KVER/build and /boot/vmlinuz-KVER.  Without it,
# --fetch downloads the packages with apt-get download (no root needed) and
# unpacks them with dpkg-deb -x into
#   ${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}/debian-KVER/
# which is the VM's module root (run-vm.sh --modroot) and holds the build
# directory: Debian's usr/src/linux-headers-KVER when this machine has the
# compiler the kernel was built with (Debian's linux-kbuild tools are built
# for that system's C library too), else build/, made from the release's
# linux-source package with Debian's config by the host's gcc
# (olddefconfig re-probes the compiler's features, modules_prepare, then
# the kernel's own scripts/package/install-extmod-build; Debian's
# Module.symvers).  The options that differ from Debian's config (only the
# toolchain's) are in build/config.diff.  Unstable's kernels are built by
# a gcc newer than bookworm's gcc-12, with flags gcc-12 refuses
# (-fmin-function-alignment): this is how 7.x builds here.
#
#   --pin     print the release to install: the pinned one (RXB_KVER_612,
#             RXB_KVER_NEWEST) while the archive has it, else the newest
#             release of SERIES the archive has (a warning says so; with
#             RXB_KERNEL_STRICT=1 exit 3 instead)
#   --env     print KVER=, KDIR=, IMAGE=, MODROOT= (one a line) of the kernel
#             to use: for 6.12 the newest installed release, else the
#             unpacked one; for newest the pinned release installed or
#             unpacked, else the newest unpacked one (which may not be
#             unpacked yet: see --fetch)
#   --fetch   as --env, but first unpack the --pin release into the cache if
#             no release of SERIES is installed or unpacked (for newest: if
#             the pinned one is not)
#   --source  print the path of the kernel's linux-source tarball (its
#             tests, YNL and netlink specs: tools/ksrc.sh): for 6.12
#             /usr/src/linux-source-6.12.tar.xz (make deps), for newest
#             linux-source-X.Y.tar.xz in the cache, downloaded from unstable
#             (the package of the pinned release's version, else the
#             archive's, with a warning) when missing
#
# Exit status: 0; 1 with a message when no such kernel can be had; 3 when
# RXB_KERNEL_STRICT=1 and the archive has dropped the pinned release (which
# is not unpacked either).

set -euo pipefail
tmp=

SELF_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
CACHE=${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}

die() { echo "debian-kernel.sh: $*" >&2; exit 1; }
usage() { sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

[ $# -eq 2 ] || usage
MODE=$1
SERIES=$2
case $MODE in --pin|--env|--fetch|--source) ;; *) usage ;; esac
conf() { sed -n "s/^$1 ?= *//p" "$SELF_DIR/kernels.conf"; }
APT=()
case $SERIES in
6.12)
	PIN=${RXB_KVER_612:-$(conf RXB_KVER_612)}
	META=linux-image-6.12-amd64
	# Debian's generic amd64 flavour of the series, e.g. 6.12.117+deb12-amd64.
	RE='^6\.12\.[0-9]+\+deb[0-9]+-amd64$'
	;;
newest)
	PIN=${RXB_KVER_NEWEST:-$(conf RXB_KVER_NEWEST)}
	META=linux-image-amd64
	# a release of unstable, e.g. 7.2.13+deb14-amd64
	RE='^[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64$'
	APTDIR=$CACHE/apt-unstable
	APT=(-o "Dir::Etc::sourcelist=$APTDIR/sources.list"
	     -o "Dir::Etc::sourceparts=$APTDIR/none" -o "Dir::Etc::preferencesparts=$APTDIR/none"
	     -o "Dir::State::lists=$APTDIR/lists" -o "Dir::Cache=$APTDIR/cache"
	     -o Debug::NoLocking=1)
	# root: downloads into the cache, which apt's _apt user cannot write
	[ "$(id -u)" != 0 ] || APT+=(-o APT::Sandbox::User=root)
	;;
*) die "unknown kernel series $SERIES (known: 6.12, newest)" ;;
esac

newest() { { grep -E "$RE" || true; } | sort -V | tail -n1; }

# The private apt state of unstable (newest): its source list names the
# system's Debian mirror, its package lists are refreshed once a day.
apt_private() {
	local mirror=${RXB_DEBIAN_MIRROR:-}

	[ ${#APT[@]} -gt 0 ] || return 0
	command -v apt-get >/dev/null || die "apt-get needed to look up the $SERIES kernel"
	if [ -z "$mirror" ]; then
		mirror=$(apt-get indextargets --format '$(REPO_URI) $(ORIGIN) $(LABEL) $(RELEASE)' 2>/dev/null |
			 awk '$2 == "Debian" && $3 == "Debian" && $4 !~ /-/ { print $1; exit }')
	fi
	[ -n "$mirror" ] || die "no Debian mirror in the system's apt sources: set RXB_DEBIAN_MIRROR"
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/none"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/} unstable main" \
		> "$APTDIR/sources.list.new"
	cmp -s "$APTDIR/sources.list.new" "$APTDIR/sources.list" &&
		rm "$APTDIR/sources.list.new" || mv "$APTDIR/sources.list.new" "$APTDIR/sources.list"
	# the stamp of the last update (the lists keep the archive's dates)
	if [ -z "$(find "$APTDIR/updated" -newer "$APTDIR/sources.list" -mmin -1440 2>/dev/null)" ]; then
		echo "debian-kernel.sh: apt-get update of unstable's package list (private, $APTDIR)" >&2
		apt-get "${APT[@]}" -qq update >"$APTDIR/update.log" 2>&1 ||
			{ cat "$APTDIR/update.log" >&2; die "apt-get update of unstable failed"; }
		touch "$APTDIR/updated"
	fi
}

pin() {
	local meta

	apt_private
	if apt-cache "${APT[@]}" show "linux-image-$PIN" >/dev/null 2>&1; then
		echo "$PIN"
		return
	fi
	if [ "${RXB_KERNEL_STRICT:-0}" = 1 ]; then
		echo "debian-kernel.sh: linux-image-$PIN is gone from the archive" >&2
		exit 3
	fi
	# the metapackage's newest version's dependency
	meta=$(apt-cache "${APT[@]}" show "$META" 2>/dev/null |
	       sed -n 's/^Depends:.*linux-image-\([0-9][^ ,]*-amd64\).*/\1/p' | newest)
	[ -n "$meta" ] || die "neither linux-image-$PIN nor $META in the apt sources (apt-get update?)"
	echo "debian-kernel.sh: linux-image-$PIN is gone from the archive: using $meta" >&2
	echo "$meta"
}

installed() {
	local v

	for v in /lib/modules/*; do
		v=${v##*/}
		# newest: only the pinned release (6.12 would match RE too)
		[ "$SERIES" != newest ] || [ "$v" = "$PIN" ] || continue
		if [ -f "/lib/modules/$v/build/Makefile" ] && [ -r "/boot/vmlinuz-$v" ]; then
			echo "$v"
		fi
	done | newest
}

# unpacked [KVER]: the newest release of SERIES unpacked into the cache
# (the pinned release only, with KVER)
unpacked() {
	local d

	for d in "$CACHE"/debian-*/env; do
		[ -r "$d" ] || continue
		[ "$(sed -n 's/^SERIES=//p' "$d")" = "$SERIES" ] ||
			[ "$SERIES" = 6.12 ] || continue
		sed -n 's/^KVER=//p' "$d"
	done | { if [ -n "${1:-}" ]; then grep -Fx -- "$1" || true; else newest; fi; }
}

# usable_headers DIR: Debian's headers in DIR (unpacked) build modules here:
# their compiler exists and their kbuild tools run on this C library.
usable_headers() {
	local h=$1 cc f

	cc=$(sed -n 's/^CC = .*(CROSS_COMPILE)\(gcc[-0-9]*\)$/\1/p' "$h/.kernelvariables")
	command -v "x86_64-linux-gnu-${cc:-gcc}" >/dev/null || return 1
	for f in scripts/basic/fixdep scripts/mod/modpost tools/objtool/objtool; do
		[ -e "$h/$f" ] || continue
		! LC_ALL=C ldd "$h/$f" 2>&1 | grep -q 'not found' || return 1
	done
}

# source_tarball KVER: the linux-source tarball of KVER's series, in the
# cache (linux-source-X.Y.tar.xz, kept for tools/ksrc.sh), downloaded once
# from the private apt source: the package of KVER's version (7.2.13+deb14
# is 7.2.13-N), else the archive's, with a warning.
source_tarball() {
	local v=$1 s=${1%%-*} up ver t

	s=${s%.*}			# 7.2.13+deb14 -> 7.2
	up=${1%%+*}			# 7.2.13
	t=$CACHE/linux-source-$s.tar.xz
	if [ ! -r "$t" ]; then
		apt_private
		ver=$(apt-cache "${APT[@]}" show "linux-source-$s" 2>/dev/null |
		      sed -n 's/^Version: //p' | grep -m1 "^$up-" || true)
		[ -n "$ver" ] ||
			echo "debian-kernel.sh: warning: no linux-source-$s of $up in the archive: using its newest" >&2
		local d
		d=$(mktemp -d "$t.tmp.XXXXXX")
		(cd "$d" && apt-get "${APT[@]}" download -q "linux-source-$s${ver:+=$ver}" >&2) ||
			{ rm -rf "$d"; die "apt-get download of linux-source-$s failed"; }
		dpkg-deb --fsys-tarfile "$d"/linux-source-*.deb |
			tar -xO "./usr/src/linux-source-$s.tar.xz" > "$d/src.tar.xz" &&
			mv "$d/src.tar.xz" "$t" ||
			{ rm -rf "$d"; die "unpacking linux-source-$s failed"; }
		rm -rf "$d"
	fi
	echo "$t"
}

# build_dir V ROOT: ROOT/build, the build directory of release V made from
# its linux-source package (in the current directory) with Debian's config
# (the headers' .config, the one the kernel was built with) by this
# machine's compiler; FINAL: where ROOT will be.
build_dir() {
	local v=$1 root=$2 final=$3 src obj cfg=$2/usr/src/linux-headers-$1/.config

	src=$(source_tarball "$v") || exit
	echo "debian-kernel.sh: the packages' compiler or kbuild tools do not run here: preparing $v's build directory from ${src##*/} with Debian's config (a few CPU-minutes)" >&2
	tar -xJf "$src" || die "unpacking $src failed"
	src=$(cd linux-source-* && pwd)
	obj=$PWD/obj
	mkdir "$obj"
	cp "$cfg" "$obj/.config"
	# KERNELRELEASE: Debian's, so that vermagic matches its image.  A clean
	# environment: make's variables (W=1, C=1, MAKEFLAGS) of a caller
	# must not reach the kernel's build.
	kmake() {
		env -i PATH="$PATH" HOME="${HOME:-/}" LC_ALL=C \
			make -s -C "$src" O="$obj" KERNELRELEASE="$v" "$@" >&2
	}
	kmake olddefconfig && kmake -j"$(nproc)" modules_prepare ||
		die "modules_prepare of $v failed"
	cp "$root/usr/src/linux-headers-$v/Module.symvers" "$obj/"
	(cd "$obj" && MAKE=make srctree=$src SRCARCH=x86 CC=gcc HOSTCC=gcc \
		"$src/scripts/package/install-extmod-build" "$root/build") ||
		die "install-extmod-build of $v failed"
	# the build directory's Makefile: the source's, at its new place
	diff <(grep -v '^#' "$cfg" | sort) \
	     <(grep -v '^#' "$obj/.config" | sort) > "$root/build/config.diff" || true
	echo "debian-kernel.sh: the config options that differ from Debian's (the toolchain's): $(grep -c '^[<>]' "$root/build/config.diff") lines in $final/build/config.diff" >&2
	rm -rf "$src" "$obj"
}

# fetch KVER: download and unpack linux-image, -headers, -headers-common
# and -kbuild of KVER into $CACHE/debian-KVER (for newest also the image's
# parts, and the linux-source package when the headers cannot be used).
fetch() {
	local v=$1 dir=$CACHE/debian-$1 base=${1%-amd64} pkgs kdir h

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
	pkgs=("linux-image-$v" "linux-headers-$v" "linux-headers-$base-common" "linux-kbuild-$base")
	if [ "$SERIES" = newest ]; then
		# unstable splits the image (a metapackage) into its parts
		pkgs+=("linux-binary-$v" "linux-modules-$v" "linux-base-$v")
	fi
	(cd "$tmp" && apt-get "${APT[@]}" download -q "${pkgs[@]}" >&2) ||
		die "apt-get download of linux-image-$v failed"
	mkdir "$tmp/root"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	rm -f "$tmp"/*.deb
	h=$tmp/root/usr/src/linux-headers-$v
	# unstable's packages are usr-merged: lib/modules and the image (and
	# its config) under usr/lib/modules/KVER
	if [ ! -e "$tmp/root/lib" ] && [ -d "$tmp/root/usr/lib/modules/$v" ]; then
		ln -s usr/lib "$tmp/root/lib"
		mkdir -p "$tmp/root/boot"
		ln -s "../usr/lib/modules/$v/vmlinuz" "$tmp/root/boot/vmlinuz-$v"
		ln -s "../usr/lib/modules/$v/config" "$tmp/root/boot/config-$v"
	fi
	if [ ! -r "$tmp/root/boot/vmlinuz-$v" ] || [ ! -d "$tmp/root/lib/modules/$v/kernel" ]; then
		die "the packages of $v lack the kernel image or modules"
	fi
	# The headers' Makefile names its own directory and the common tree by
	# absolute path.
	sed -i -e "s|^include /usr/src/|include $dir/usr/src/|" \
	       -e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$dir/usr/src/|" "$h/Makefile"
	kdir=$dir/usr/src/linux-headers-$v
	if ! usable_headers "$h"; then
		(cd "$tmp" && build_dir "$v" "$tmp/root" "$dir") || exit
		kdir=$dir/build
	fi
	# The module index, as the package's postinst would make it.
	PATH=$PATH:/sbin:/usr/sbin depmod -b "$tmp/root" "$v" ||
		die "depmod of the unpacked $v failed"
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/root/"* "$dir/"
	printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=%s\nSERIES=%s\n' "$v" \
		"$kdir" "$dir/boot/vmlinuz-$v" "$dir" "$SERIES" > "$dir/env"
}

case $MODE in
--pin)
	pin
	exit 0
	;;
--source)
	if [ "$SERIES" = 6.12 ]; then
		t=/usr/src/linux-source-6.12.tar.xz
		[ -r "$t" ] || die "no $t (make deps installs linux-source-6.12)"
		echo "$t"
	else
		source_tarball "$PIN"
	fi
	exit 0
	;;
--fetch)
	if [ -z "$(installed)" ] && [ -z "$(unpacked "$([ "$SERIES" = newest ] && echo "$PIN")")" ]; then
		v=$(pin) || exit
		fetch "$v"
	fi
	;;
esac

v=$(installed)
if [ -n "$v" ]; then
	printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=\n' "$v" "/lib/modules/$v/build" "/boot/vmlinuz-$v"
	exit 0
fi
v=$(unpacked "$([ "$SERIES" = newest ] && echo "$PIN")")
[ -n "$v" ] || v=$(unpacked)
if [ -n "$v" ]; then
	grep -v '^SERIES=' "$CACHE/debian-$v/env"
	exit 0
fi
# Not there yet: where --fetch will put the pinned release.
v=$PIN
d=$CACHE/debian-$v
printf 'KVER=%s\nKDIR=%s\nIMAGE=%s\nMODROOT=%s\n' "$v" "$d/usr/src/linux-headers-$v" "$d/boot/vmlinuz-$v" "$d"
