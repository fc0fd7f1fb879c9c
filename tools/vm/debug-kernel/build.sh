#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [--kver 6.1|6.12] [--print-dir | --env | --config-only]
#
# Build the rxbisect debug kernel (KASAN, lockdep with PROVE_LOCKING and
# PROVE_RCU, kmemleak, DEBUG_ATOMIC_SLEEP, ...) for the test VM from Debian's
# linux-source-6.1 or linux-source-6.12 package (--kver, or RXB_DEBUG_KVER;
# default 6.1): x86_64_defconfig plus debug.config (next to this script),
# built in a cache directory outside the checkout, one per version, so that
# every clone reuses it:
#
#   ${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}/kernel-debug-VER-HASH/
#       linux/      the kernel tree and build (KDIR for rxbisect.ko)
#       modroot/    lib/modules/KVER (modules_install; the VM mounts it)
#       build.log   the last build's output
#       env         written last, when everything is built: KDIR, KVER,
#                   IMAGE, MODROOT, BUILD_SECONDS (shell syntax)
#
# HASH covers the settings in debug.config (not its comments), RECIPE below
# and the source tarball, so a new setting or package starts a fresh tree; an unchanged one is not rebuilt
# (the env file is the stamp).  Nothing is written under /usr/src or the
# checkout.
#
#   --print-dir     print the cache directory and exit (builds nothing)
#   --env           print the env file if the kernel is built, else fail
#   --config-only   stop after writing and checking .config
#
# Environment: RXB_DEBUG_KVER (6.1 or 6.12, as --kver), RXB_CACHE,
# RXB_KERNEL_SRC (default /usr/src/linux-source-VER.tar.xz), RXB_KERNEL_JOBS
# (default nproc).

set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SELF")
FRAGMENT=$HERE/debug.config
VER=${RXB_DEBUG_KVER:-6.1}
if [ "${1:-}" = --kver ]; then
	VER=${2:-}
	shift 2 || true
fi
case $VER in
6.1|6.1.*) VER=6.1 ;;
6.12|6.12.*) VER=6.12 ;;
*) echo "debug-kernel: ERROR: --kver/RXB_DEBUG_KVER=$VER: use 6.1 or 6.12" >&2; exit 2 ;;
esac
SRC_TAR=${RXB_KERNEL_SRC:-/usr/src/linux-source-$VER.tar.xz}
CACHE=${RXB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxbisect}
JOBS=${RXB_KERNEL_JOBS:-$(nproc)}

# Bump when a change to this script changes what it builds (so that caches
# built by the old recipe are not reused).
RECIPE=1

die() { echo "debug-kernel: ERROR: $*" >&2; exit 1; }
msg() { echo "debug-kernel: $*" >&2; }

[ -r "$SRC_TAR" ] || die "$SRC_TAR not found (apt-get install linux-source-$VER)"
HASH=$( { echo "recipe $RECIPE"; grep -E '^(# )?CONFIG_' "$FRAGMENT"; stat -L -c '%n %s %Y' "$SRC_TAR"; } |
	sha256sum | cut -c1-12)
DIR=$CACHE/kernel-debug-$VER-$HASH
KDIR=$DIR/linux
MODROOT=$DIR/modroot
ENVFILE=$DIR/env

case ${1:-} in
--print-dir)	echo "$DIR"; exit 0 ;;
--env)		[ -r "$ENVFILE" ] || die "not built yet (make debug-kernel)"
		cat "$ENVFILE"; exit 0 ;;
--config-only|'') ;;
*)		sed -n '4,/^$/s/^# \{0,1\}//p' "$SELF" >&2; exit 2 ;;
esac

case $DIR in *[[:space:]]*) die "the cache path must not contain white space: $DIR" ;; esac
mkdir -p "$DIR"
# one builder at a time per tree; the others wait and then find it built
exec 9>"$DIR/.lock"
flock -n 9 || { msg "waiting for another build of $DIR"; flock 9; }

if [ -r "$ENVFILE" ] && [ "${1:-}" != --config-only ]; then
	# shellcheck source=/dev/null
	. "$ENVFILE"
	msg "up to date: $KVER in $DIR"
	exit 0
fi

# The kernel build must not see our caller's make (jobserver, -s, KERNEL=).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES KVER KERNEL KBUILD_OUTPUT
kmake() { nice -n 10 make -C "$KDIR" "$@"; }

START=$(date +%s)
if [ ! -e "$KDIR/.rxb-extracted" ]; then
	msg "extracting $SRC_TAR into $KDIR"
	rm -rf "$KDIR" "$KDIR.tmp"
	mkdir -p "$KDIR.tmp"
	tar -C "$KDIR.tmp" --strip-components=1 -xf "$SRC_TAR"
	touch "$KDIR.tmp/.rxb-extracted"
	mv "$KDIR.tmp" "$KDIR"
fi

# --- configuration: defconfig + fragment, then check the fragment held ------
msg "configuring (x86_64_defconfig + ${FRAGMENT##*/})"
kmake -s x86_64_defconfig
(cd "$KDIR" && scripts/kconfig/merge_config.sh -m -O "$KDIR" .config "$FRAGMENT" >/dev/null)
kmake -s olddefconfig

# Every line of the fragment must hold in the final .config: a dependency
# we missed silently drops an option (e.g. a hidden symbol nothing selects).
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		opt=${line%%=*}
		got=$(grep -E "^$opt=" "$KDIR/.config" || true)
		if [ "$got" != "$line" ]; then
			msg "wanted $line, .config has: ${got:-nothing ($opt is not set)}"
			bad=1
		fi ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -qE "^$opt=[ym]" "$KDIR/.config"; then
			msg "wanted $opt off, .config has: $(grep -E "^$opt=" "$KDIR/.config")"
			bad=1
		fi ;;
	esac
done < "$FRAGMENT"
[ $bad = 0 ] || die "the configuration does not match ${FRAGMENT##*/} (fix its dependencies)"
msg "configuration checked"
[ "${1:-}" = --config-only ] && exit 0

# --- build -------------------------------------------------------------------
msg "building bzImage and modules with -j$JOBS (log: $DIR/build.log)"
if ! kmake -j"$JOBS" bzImage modules > "$DIR/build.log" 2>&1; then
	tail -n 40 "$DIR/build.log" >&2
	die "kernel build failed; see $DIR/build.log"
fi
# (kernelrelease needs include/config/auto.conf, written by the build)
KVER=$(kmake -s kernelrelease)
case $KVER in *-rxbdebug) ;; *) die "unexpected kernel release $KVER" ;; esac
rm -rf "$MODROOT"
kmake -s INSTALL_MOD_PATH="$MODROOT" modules_install >> "$DIR/build.log" 2>&1 ||
	die "modules_install failed; see $DIR/build.log"
# the VM's module tree must not point back into the build tree
rm -f "$MODROOT/lib/modules/$KVER/build" "$MODROOT/lib/modules/$KVER/source"

# Not the ELF vmlinux through PVH as for the stock kernel: with KASAN it
# triple-faults before the first console message.
IMAGE=$KDIR/arch/x86/boot/bzImage
SECS=$(($(date +%s) - START))
{
	echo "# generated by tools/vm/debug-kernel/build.sh on $(date -u +%FT%TZ)"
	echo "KVER=$KVER"
	echo "SRC_VER=$VER"
	echo "KDIR=$KDIR"
	echo "IMAGE=$IMAGE"
	echo "MODROOT=$MODROOT"
	echo "BUILD_SECONDS=$SECS"
	echo "BUILD_JOBS=$JOBS"
} > "$ENVFILE.tmp"
mv "$ENVFILE.tmp" "$ENVFILE"
msg "built $KVER in $((SECS / 60)) min $((SECS % 60)) s: $DIR"
