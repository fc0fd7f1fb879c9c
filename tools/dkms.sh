#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Register rxbisect's sources with DKMS, or remove them (make dkms-install,
# make dkms-uninstall; dkms.conf).
#
# Usage: tools/dkms.sh install|uninstall|version
#
#   install    copy what the module build needs (Kbuild, Makefile,
#              dkms.conf, drivers/, include/, tools/compat/ when present;
#              no build products) to /usr/src/rxbisect-VERSION and
#              `dkms add` it.  Run again, it refreshes the copy and leaves
#              the registration as it is.
#   uninstall  `dkms remove rxbisect/VERSION --all` (every kernel it was
#              built or installed for) and delete the copy.  Says so and
#              succeeds when there is nothing to remove.
#   version    print VERSION: RXB_DRV_VERSION of drivers/net/rxbisect/drv/rxbisect.h
#
# Both need root (and dkms: apt-get install dkms, dnf install dkms).

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
name=rxbisect

die() {
	echo "dkms-$cmd: $*" >&2
	exit 1
}

# RXB_DRV_VERSION, the one version of the driver.
drv_version() {
	sed -nE 's/^#define[[:space:]]+RXB_DRV_VERSION[[:space:]]+"([^"]+)".*/\1/p' \
		"$top/drivers/net/rxbisect/drv/rxbisect.h"
}

# PACKAGE_VERSION of dkms.conf.
conf_version() {
	sed -nE 's/^PACKAGE_VERSION="?([^"]*)"?[[:space:]]*$/\1/p' "$top/dkms.conf"
}

# The registration lines `dkms status` prints for this version, if any.
registered() {
	dkms status -m "$name" -v "$ver" 2>/dev/null | grep -F "$name/$ver" || true
}

# The files the module build reads, relative to the top; build products,
# editor and hidden files (kbuild's .cmd, .d) left out.
source_files() {
	local dirs=(drivers include)

	[ -d "$top/tools/compat" ] && dirs+=(tools/compat)
	(cd "$top" && printf '%s\n' Kbuild Makefile dkms.conf &&
		find "${dirs[@]}" -type f ! -name '.*' ! -name '*~' \
			! -name '*.o' ! -name '*.ko' ! -name '*.mod' \
			! -name '*.mod.c' ! -name '*.a' ! -name '*.dwo' \
			! -name 'modules.order' ! -name 'Module.symvers' | sort)
}

do_install() {
	local dest=/usr/src/$name-$ver tmp

	command -v dkms >/dev/null ||
		die "dkms not found: install it (apt-get install dkms, dnf install dkms)"
	[ "$(conf_version)" = "$ver" ] ||
		die "dkms.conf says PACKAGE_VERSION=$(conf_version), rxbisect.h RXB_DRV_VERSION=$ver: make them agree"
	tmp=$(mktemp -d "/usr/src/.$name-$ver.XXXXXX")
	# shellcheck disable=SC2064 # $tmp is fixed now
	trap "rm -rf '$tmp'" EXIT
	source_files | (cd "$top" && tar -cf - -T -) | tar -C "$tmp" -xf -
	chmod 755 "$tmp"
	rm -rf "$dest"
	mv "$tmp" "$dest"
	echo "copied $(source_files | wc -l) files to $dest"
	if [ -n "$(registered)" ]; then
		echo "$name/$ver is already registered with DKMS; its sources are refreshed."
		echo "Kernels it was built for keep that build: 'make dkms-uninstall dkms-install' to start over."
	else
		dkms add -m "$name" -v "$ver"
	fi
	echo "Next: dkms install $name/$ver (build and install for the running kernel), then modprobe $name"
}

do_uninstall() {
	local dest=/usr/src/$name-$ver found=

	if command -v dkms >/dev/null && [ -n "$(registered)" ]; then
		dkms remove "$name/$ver" --all
		found=1
	fi
	if [ -e "$dest" ]; then
		rm -rf "$dest"
		echo "removed $dest"
		found=1
	fi
	[ -n "$found" ] || echo "$name/$ver is not installed with DKMS (no registration, no $dest): nothing to do"
	return 0
}

cmd=${1:-}
ver=$(drv_version)
[ -n "$ver" ] || { echo "no RXB_DRV_VERSION in drivers/net/rxbisect/drv/rxbisect.h" >&2; exit 1; }
case $cmd in
version)	echo "$ver"; exit 0 ;;
install|uninstall)
		[ "$(id -u)" = 0 ] || die "run as root (sudo make dkms-$cmd)" ;;
*)		echo "usage: $0 install|uninstall|version" >&2; exit 2 ;;
esac
"do_$cmd"
