#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh [OPTIONS] [-- COMMAND [ARGS...]]
#
# Boot the installed Debian kernel in QEMU with the host root file system
# shared read-only (virtio-9p, with a tmpfs overlay so the guest can write
# anywhere) and this repository shared read-write at the same absolute path,
# then run COMMAND as root from the repository directory.  The guest's output
# (the serial console) is printed on stdout and run-vm.sh exits with COMMAND's
# exit status.  Without COMMAND, an interactive shell is started.
#
# Options:
#   --kernel PATH   kernel image (default: /boot/vmlinuz-$KVER; env
#                   RXB_VM_KERNEL); "debug" boots the debug kernel built by
#                   tools/vm/debug-kernel/build.sh (make debug-kernel), with
#                   its modules, --mem 4G and RXB_TIMEOUT_SCALE=4 by default;
#                   "6.12" boots Debian 12's 6.12 with its modules, installed
#                   or unpacked into the cache (tools/vm/debian-kernel.sh);
#                   "newest" the newest kernel of Debian's unstable suite,
#                   unpacked into the cache (the same script)
#   --kver KVER     kernel version (default: $KVER, or the newest installed
#                   kernel that has headers)
#   --modroot DIR   the kernel's modules are in DIR/lib/modules/KVER
#                   (default: /; env RXB_VM_MODROOT)
#   --smp N         virtual CPUs (default 2, env RXB_VM_SMP)
#   --mem SIZE      memory, QEMU syntax (default 2G, env RXB_VM_MEM)
#   --timeout S     kill the VM after S seconds (default 3600 for a command,
#                   none for the shell; 0 = none; env RXB_VM_TIMEOUT)
#   --accel A       tcg (default) or kvm (env RXB_VM_ACCEL; KVM may be
#                   unusable under nested virtualization)
#                   env RXB_VM_TCG_THREAD: multi (default: a host thread
#                   per vCPU) or single (all vCPUs on one host thread)
#   --append ARGS   extra kernel command line
#   --verbose       show the kernel console messages
#   --qemu ARGS     extra QEMU arguments (word-split)
#
# Exit status: COMMAND's status; 124 if the VM timed out; 125 if the VM
# stopped without reporting a status (boot failure, panic, ...); 2 on usage
# errors.  Environment variables named RXB_* and KSFT_* are passed to COMMAND.
#
# The guest's modprobe finds the *.ko at the top of the repository, or those
# in RXB_VM_KO_DIR if set (tools/run-tests.sh: a module built for another
# kernel in a copy of the tree).

set -euo pipefail

SELF_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
REPO=$(cd "$SELF_DIR/../.." && pwd -P)

die() { echo "run-vm.sh: ERROR: $1" >&2; exit "${2:-125}"; }
usage() { sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

KERNEL=${RXB_VM_KERNEL:-}
KVER=${KVER:-}
MODROOT=${RXB_VM_MODROOT:-}
SMP=${RXB_VM_SMP:-2}
MEM=${RXB_VM_MEM:-}
TIMEOUT=${RXB_VM_TIMEOUT:-}
ACCEL=${RXB_VM_ACCEL:-tcg}
APPEND=
VERBOSE=
QEMU_EXTRA=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)  KERNEL=$2; shift 2 ;;
	--kver)    KVER=$2; shift 2 ;;
	--modroot) MODROOT=$2; shift 2 ;;
	--smp)     SMP=$2; shift 2 ;;
	--mem)     MEM=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--accel)   ACCEL=$2; shift 2 ;;
	--append)  APPEND="$APPEND $2"; shift 2 ;;
	--verbose) VERBOSE=1; shift ;;
	--qemu)    QEMU_EXTRA="$QEMU_EXTRA $2"; shift 2 ;;
	-h|--help) usage ;;
	--)        shift; break ;;
	-*)        echo "run-vm.sh: unknown option $1" >&2; usage ;;
	*)         break ;;
	esac
done
INTERACTIVE=
if [ $# -eq 0 ]; then
	[ -t 0 ] || die "no COMMAND given and stdin is not a terminal (interactive mode needs one)" 2
	INTERACTIVE=1
fi

# --- pick the kernel -------------------------------------------------------
if [ "$KERNEL" = debug ]; then
	# KASAN + lockdep + kmemleak kernel: everything comes from its build
	DBG_ENV=$("$SELF_DIR/debug-kernel/build.sh" --env 2>/dev/null) ||
		die "the debug kernel is not built (make debug-kernel)" 2
	KVER=$(sed -n 's/^KVER=//p' <<<"$DBG_ENV")
	KERNEL=$(sed -n 's/^IMAGE=//p' <<<"$DBG_ENV")
	MODROOT=$(sed -n 's/^MODROOT=//p' <<<"$DBG_ENV")
	# several times slower under TCG, and KASAN's shadow needs memory
	MEM=${MEM:-4G}
	export RXB_TIMEOUT_SCALE=${RXB_TIMEOUT_SCALE:-4}
	# 4-level paging, as servers run: -cpu max offers TCG guests 5-level
	# paging, under which two debug boots reported a KASAN
	# wild-memory-access in early interrupt handling (0.006 s, before
	# any test; a 5-level direct-map address, ff11...) and lockdep
	# turned itself off for the run.
	APPEND="$APPEND no5lvl"
elif [ "$KERNEL" = 6.12 ] || [ "$KERNEL" = newest ]; then
	DEB_ENV=$("$SELF_DIR/debian-kernel.sh" --fetch "$KERNEL") ||
		die "no $KERNEL kernel (see tools/vm/debian-kernel.sh's message above)" 2
	KVER=$(sed -n 's/^KVER=//p' <<<"$DEB_ENV")
	KERNEL=$(sed -n 's/^IMAGE=//p' <<<"$DEB_ENV")
	MODROOT=$(sed -n 's/^MODROOT=//p' <<<"$DEB_ENV")
fi
MEM=${MEM:-2G}
MODROOT=${MODROOT%/}
MODDIR=$MODROOT/lib/modules
# The newest installed kernel that has headers, 6.1 first (the default;
# --kernel 6.12 for Debian's 6.12).
newest_kver() {
	local v
	for v in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' |
		   sort -rV | awk '/^6\.1\./ { print; next } { rest = rest $0 "\n" } END { printf "%s", rest }'); do
		if [ -d "/lib/modules/$v/build" ] || [ -d "/usr/src/linux-headers-$v" ]; then
			echo "$v"
			return
		fi
	done
}
if [ -z "$KVER" ] && [ -n "$KERNEL" ]; then
	case ${KERNEL##*/} in vmlinuz-*) KVER=${KERNEL##*/vmlinuz-} ;; esac
fi
[ -n "$KVER" ] || KVER=$(newest_kver)
[ -n "$KVER" ] || die "no installed kernel with headers found (make deps: linux-image-amd64 linux-headers-amd64)" 2
[ -n "$KERNEL" ] || KERNEL=/boot/vmlinuz-$KVER
[ -r "$KERNEL" ] || die "cannot read kernel image $KERNEL" 2
[ -d "$MODDIR/$KVER" ] || die "$MODDIR/$KVER missing: the guest loads its modules from there" 2
case $MODROOT in *[[:space:]]*) die "--modroot must not contain white space: $MODROOT" 2 ;; esac
case $REPO in *[[:space:]]*) die "the repository path must not contain white space: $REPO" 2 ;; esac
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)" 2

VMDIR=$REPO/build/vm
mkdir -p "$VMDIR"

# --- boot the uncompressed kernel through PVH when possible ------------------
# Under TCG, decompressing the xz bzImage costs ~2 s per boot; QEMU boots the
# ELF vmlinux directly through its PVH entry point (CONFIG_PVH=y).  The
# extracted vmlinux is cached in build/vm.
is_elf() { [ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = '177ELF' ]; }
extract_vmlinux() {	# bzImage out
	local img=$1 out=$2 magic pat cmd pos
	for try in "xz -dc|\3757zXZ\000|xz" "gzip -dc|\037\213\010|gzip" "zstd -dcq|(\265/\375|zstd"; do
		IFS='|' read -r cmd magic tool <<< "$try"
		command -v "$tool" >/dev/null || continue
		pat=abcde
		[ "$tool" = zstd ] && pat=abcd
		for pos in $(tr "$magic\n$pat" "\n$pat=" < "$img" | grep -abo "^$pat"); do
			pos=${pos%%:*}
			tail -c+"$pos" "$img" | $cmd > "$out.tmp.$$" 2>/dev/null
			if is_elf "$out.tmp.$$"; then
				mv "$out.tmp.$$" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp.$$"
	return 1
}
BOOT_KERNEL=$KERNEL
if [ "${RXB_VM_PVH:-1}" = 1 ] && ! is_elf "$KERNEL" &&
   grep -qs '^CONFIG_PVH=y' "/boot/config-$KVER" "$(dirname "$KERNEL")/config-$KVER" 2>/dev/null; then
	VMLINUX=$VMDIR/vmlinux-$KVER
	KSTAMP=$(stat -L -c '%n %s %Y' "$KERNEL")
	if [ -s "$VMLINUX" ] && [ "$(cat "$VMLINUX.src" 2>/dev/null)" = "$KSTAMP" ]; then
		BOOT_KERNEL=$VMLINUX
	elif extract_vmlinux "$KERNEL" "$VMLINUX"; then
		echo "$KSTAMP" > "$VMLINUX.src"
		BOOT_KERNEL=$VMLINUX
	fi
fi
# qboot starts much faster than SeaBIOS under TCG
BIOS=${RXB_VM_BIOS:-/usr/share/qemu/qboot.rom}
BIOS_ARGS=()
[ "$BIOS" != default ] && [ -r "$BIOS" ] && BIOS_ARGS=(-bios "$BIOS")

# --- initramfs (cached) ------------------------------------------------------
INITRD=$VMDIR/initramfs-$KVER.cpio.gz
"$SELF_DIR/mkinitramfs.sh" "$KVER" "$INITRD" "$MODROOT" || die "building the initramfs failed" 2

# --- run directory: command, environment, modules, exit status ---------------
find "$VMDIR" -maxdepth 1 -name 'run.*' -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
RUNDIR=$(mktemp -d "$VMDIR/run.XXXXXX")
QEMU_PID=
cleanup() {
	[ -n "$QEMU_PID" ] && kill "$QEMU_PID" 2>/dev/null
	rm -rf "$RUNDIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- module index for the repository's modules ---------------------------------
# "depmod -a" in the guest reads all ~4000 modules over 9p: 30 s under TCG.
# Run it here instead (under a second) against a tree that links the installed
# modules plus the repository's top-level *.ko under extra/, cached in
# build/vm/modules-KVER on the .ko contents.  The run directory gets a
# snapshot (the .ko files and the index), which the guest installs.
MODSTAGE=$VMDIR/modules-$KVER
shopt -s nullglob
KOS=("${RXB_VM_KO_DIR:-$REPO}"/*.ko)
shopt -u nullglob
if [ ${#KOS[@]} -gt 0 ] && command -v depmod >/dev/null; then
	for ko in "${KOS[@]}"; do
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null) || continue
		[ "${vm%% *}" = "$KVER" ] ||
			echo "run-vm.sh: warning: ${ko##*/} was built for ${vm%% *}, the VM boots $KVER" >&2
	done
	mkdir -p "$RUNDIR/mods"
	cp "${KOS[@]}" "$RUNDIR/mods/"
	KSIG=$( { echo "$KVER $MODROOT"; cd "$RUNDIR/mods" && sha256sum ./*.ko "$MODDIR/$KVER/modules.dep"; } | sha256sum)
	M=$MODSTAGE/lib/modules/$KVER
	if [ -r "$MODSTAGE/sig" ] && [ "$(cat "$MODSTAGE/sig")" = "$KSIG" ] &&
	   cp "$M"/modules.* "$RUNDIR/mods/" 2>/dev/null && [ -s "$RUNDIR/mods/modules.dep.bin" ]; then
		:
	else
		T=$MODSTAGE.tmp.$$
		rm -rf "$T"
		M=$T/lib/modules/$KVER
		mkdir -p "$M/extra"
		for f in "$MODDIR/$KVER"/*; do
			case ${f##*/} in
			modules.order|modules.builtin|modules.builtin.modinfo) cp "$f" "$M/" ;;
			modules.*|build|source|extra) ;;
			*) ln -s "$f" "$M/" ;;
			esac
		done
		for f in "$MODDIR/$KVER"/extra/*; do
			[ -e "$f" ] && ln -s "$f" "$M/extra/"
		done
		cp "$RUNDIR"/mods/*.ko "$M/extra/"
		depmod -b "$T" "$KVER" || true
		if [ -s "$M/modules.dep.bin" ]; then
			cp "$M"/modules.* "$RUNDIR/mods/"
			echo "$KSIG" > "$T/sig"
			rm -rf "$MODSTAGE"
			mv "$T" "$MODSTAGE" 2>/dev/null || rm -rf "$T"
		else
			echo "run-vm.sh: warning: host depmod failed; the guest will run depmod -a (slow)" >&2
			rm -rf "$T"
		fi
	fi
fi

{
	echo "# generated by run-vm.sh"
	while IFS= read -r name; do
		printf 'export %s=%q\n' "$name" "${!name}"
	done < <(compgen -e | grep -E '^(RXB_|KSFT_)' || true)
	if [ -n "$INTERACTIVE" ] && [ -t 0 ] && sz=$(stty size 2>/dev/null); then
		printf 'export RXBVM_ROWS=%s RXBVM_COLS=%s\n' ${sz}
		printf 'export TERM=%q\n' "${TERM:-linux}"
	fi
} > "$RUNDIR/env"
if [ -z "$INTERACTIVE" ]; then
	{
		printf '%q ' "$@"
		echo
	} > "$RUNDIR/cmd"
fi

# --- QEMU ----------------------------------------------------------------------
SLOW=1
# shellcheck disable=SC2054  # QEMU's comma options
case $ACCEL in
tcg)  case ${RXB_VM_TCG_THREAD:-multi} in
      multi|single) ;;
      *) die "RXB_VM_TCG_THREAD must be multi or single" 2 ;;
      esac
      ACCEL_ARGS=(-accel "tcg,thread=${RXB_VM_TCG_THREAD:-multi}") ;;
kvm)  ACCEL_ARGS=(-accel kvm); SLOW= ;;
*)    die "unknown --accel $ACCEL" 2 ;;
esac

CMDLINE="console=ttyS0,115200 panic=-1 log_buf_len=4M"
if [ -n "$VERBOSE" ]; then
	CMDLINE="$CMDLINE loglevel=7 rxbvm.debug=1"
else
	CMDLINE="$CMDLINE quiet loglevel=3"
fi
CMDLINE="$CMDLINE mitigations=off no_timer_check random.trust_cpu=on"
# Under TCG the guest's TSC is the host's raw TSC, which jumps when the host
# is a VM that is snapshotted or migrated: keep time on the HPET (QEMU's
# virtual clock) instead.  Why and what it costs: tools/vm/README.
[ -n "$SLOW" ] && CMDLINE="$CMDLINE tsc=unstable"
# Hardening a test VM does not need, and TCG pays for on every process:
# Debian's kernels zero each page and slab object at allocation
# (INIT_ON_ALLOC_DEFAULT_ON), run AppArmor's hooks and the audit
# subsystem.  Without them a process-heavy guest took about 11 % less
# QEMU CPU (tools/vm/README).  A bug reading memory it never wrote
# gets noise instead of zeros: found sooner, not hidden.
CMDLINE="$CMDLINE init_on_alloc=0 apparmor=0 audit=0"
CMDLINE="$CMDLINE rdinit=/init rxbvm.init=$SELF_DIR/guest-init.sh rxbvm.repo=$REPO rxbvm.rundir=$RUNDIR"
[ -n "$SLOW" ] && CMDLINE="$CMDLINE rxbvm.slow=1"
[ -n "$MODROOT" ] && CMDLINE="$CMDLINE rxbvm.modroot=$MODROOT"
[ -z "$INTERACTIVE" ] && CMDLINE="$CMDLINE rxbvm.batch=1"
CMDLINE="$CMDLINE$APPEND"

# Two virtio-net NICs cabled to each other through QEMU's UDP socket
# backend on the loopback address (nothing leaves this machine): the
# selftests use them as the real lower device of an rxbisect port.
NICPORT=$((20000 + ($$ * 2) % 40000))
NICPAIR_ARGS=(
	-netdev "socket,id=nicp0,udp=127.0.0.1:$((NICPORT + 1)),localaddr=127.0.0.1:$NICPORT"
	-device virtio-net-pci,netdev=nicp0,mac=52:54:00:00:00:01
	-netdev "socket,id=nicp1,udp=127.0.0.1:$NICPORT,localaddr=127.0.0.1:$((NICPORT + 1))"
	-device virtio-net-pci,netdev=nicp1,mac=52:54:00:00:00:02
)

# shellcheck disable=SC2054,SC2206
QEMU=(qemu-system-x86_64
	-nodefaults -no-user-config
	-machine q35 "${ACCEL_ARGS[@]}" -cpu max
	-smp "$SMP" -m "$MEM"
	-display none -vga none -no-reboot
	"${BIOS_ARGS[@]}"
	-kernel "$BOOT_KERNEL" -initrd "$INITRD" -append "$CMDLINE"
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot
	-virtfs "local,path=$REPO,mount_tag=repo,security_model=none,multidevs=remap,id=repo"
	-device virtio-rng-pci
	"${NICPAIR_ARGS[@]}"
	$QEMU_EXTRA)

[ -n "$TIMEOUT" ] || { [ -n "$INTERACTIVE" ] && TIMEOUT=0 || TIMEOUT=3600; }

START=$(date +%s)
if [ -n "$INTERACTIVE" ]; then
	echo "run-vm.sh: booting $KERNEL (Ctrl-A X quits QEMU)" >&2
	set +e
	if [ "$TIMEOUT" != 0 ]; then
		timeout --foreground -k 5 "$TIMEOUT" "${QEMU[@]}" -serial mon:stdio
	else
		"${QEMU[@]}" -serial mon:stdio
	fi
	QRC=$?
	set -e
else
	# drop CRs and the final "reboot: Power down" line of the kernel
	filter() {
		sed -u -e 's/\r$//' -e '/^\[ *[0-9.]*\] reboot: Power down$/d'
	}
	# Batch: no stdin (CI has none; a TTY must not be put into raw mode),
	# CRs from the kernel console dropped.  QEMU runs in the background so
	# that a signal to run-vm.sh can kill it.
	set +e
	if [ "$TIMEOUT" != 0 ]; then
		timeout -k 5 "$TIMEOUT" "${QEMU[@]}" -serial stdio </dev/null \
			> >(filter) &
	else
		"${QEMU[@]}" -serial stdio </dev/null > >(filter) &
	fi
	QEMU_PID=$!
	wait "$QEMU_PID"
	QRC=$?
	QEMU_PID=
	set -e
	wait 2>/dev/null	# for the output filter to drain
fi
ELAPSED=$(($(date +%s) - START))
# Where the time went (guest uptime at the command's start and end): on
# stderr, so that it does not mix with the command's KTAP.
if [ -z "$INTERACTIVE" ] && [ -r "$RUNDIR/uptime.start" ] && [ -r "$RUNDIR/uptime.end" ]; then
	# and the CPU time QEMU used (this shell's children): near 2 x the
	# wall time, the 2 vCPUs kept 2 host cores busy
	times > "$RUNDIR/times"	# (in this shell: a subshell has no children)
	read -r cu cs < <(tail -n1 "$RUNDIR/times")
	awk -v all="$ELAPSED" -v k="$KVER" -v cpu="${cu:-0}" -v sys="${cs:-0}" '
		function sec(v, a) { split(v, a, /[ms]/); return a[1] * 60 + a[2] }
		NR == 1 { s = $1 } NR == 2 { e = $1 }
		END { c = sec(cpu) + sec(sys)
		      printf "run-vm.sh: %s: %d s in all: boot %.0f s, command %.0f s; QEMU used %.0f CPU-s (%.2f cores)\n",
			k, all, s, e - s, c, all ? c / all : 0 }' \
		"$RUNDIR/uptime.start" "$RUNDIR/uptime.end" >&2
fi

if [ -r "$RUNDIR/rc" ]; then
	rc=$(cat "$RUNDIR/rc")
	case $rc in ''|*[!0-9]*) rc=125 ;; esac
	exit "$rc"
fi
if [ "$QRC" = 124 ] || [ "$QRC" = 137 ]; then
	echo "run-vm.sh: ERROR: VM timed out after ${TIMEOUT}s and was killed" >&2
	exit 124
fi
echo "run-vm.sh: ERROR: VM stopped after ${ELAPSED}s without reporting an exit status (qemu status $QRC; boot failure or kernel panic? try --verbose)" >&2
exit 125
