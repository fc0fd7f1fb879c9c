#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the rxbisect test VM (exec'd by the initramfs after switch_root into
# the host root).  Sets up the guest, installs the freshly built rxbisect.ko so
# that "modprobe rxbisect" works, runs the command that tools/vm/run-vm.sh left
# in its run directory, writes the exit status back, and powers off.
#
# Kernel command line parameters (set by run-vm.sh):
#   rxbvm.repo=DIR      repository checkout (shared read-write, same path)
#   rxbvm.rundir=DIR    run directory: cmd, env (input), rc (output)
#   rxbvm.modroot=DIR   the kernel's modules are in DIR/lib/modules/KVER on
#                       the host (a kernel not installed there: the debug one)
#   rxbvm.slow=1        the VM runs under TCG (exports KSFT_MACHINE_SLOW=yes;
#                       refuses to run a command on the TSC clocksource)
#   rxbvm.batch=1       run-vm.sh was given a command (no shell on errors)
#   rxbvm.debug=1       trace this script

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
export LANG=C.UTF-8
umask 022

REPO='' RUNDIR='' MODROOT='' SLOW='' DEBUG='' BATCH=''
read -r CMDLINE < /proc/cmdline 2>/dev/null
for arg in $CMDLINE; do
	case $arg in
	rxbvm.repo=*)   REPO=${arg#*=} ;;
	rxbvm.rundir=*) RUNDIR=${arg#*=} ;;
	rxbvm.modroot=*) MODROOT=${arg#*=} ;;
	rxbvm.slow=*)   SLOW=${arg#*=} ;;
	rxbvm.debug=*)  DEBUG=${arg#*=} ;;
	rxbvm.batch=*)  BATCH=${arg#*=} ;;
	esac
done
[ -n "$DEBUG" ] && { PS4='+ ${EPOCHREALTIME} '; set -x; }

CONSOLE=/dev/ttyS0
[ -c $CONSOLE ] || CONSOLE=/dev/console

msg() { echo "guest-init: $*" >&2; }

# The command's status for run-vm.sh, written whole (rename).
write_rc() { echo "$1" > "$RUNDIR/rc.tmp" && mv -f "$RUNDIR/rc.tmp" "$RUNDIR/rc"; }

poweroff_now() {
	sync
	# the host's /sbin/poweroff belongs to systemd; do it directly
	busybox poweroff -f 2>/dev/null
	echo o > /proc/sysrq-trigger
	sleep 30
}

# Never let PID 1 exit (that panics the kernel): any error path powers off.
trap 'poweroff_now' EXIT

# The initramfs normally did all of this already (with static busybox, which
# is much faster under TCG); only mount what is missing.  Avoid forks here.
declare -A MOUNTED=()
while read -r _ mp _; do MOUNTED[$mp]=1; done < /proc/self/mounts
mnt() {	# fstype source target [options]
	local t=$1 s=$2 d=$3 o=${4:-}
	[ -n "${MOUNTED[$d]:-}" ] && return 0
	[ -d "$d" ] || mkdir -p "$d" 2>/dev/null || return 0
	mount -t "$t" ${o:+-o "$o"} "$s" "$d" 2>/dev/null ||
		msg "warning: cannot mount $t on $d"
}
mnt proc proc /proc
mnt sysfs sysfs /sys
mnt devtmpfs devtmpfs /dev
mnt devpts devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs shm /dev/shm mode=1777
mnt tmpfs run /run mode=0755
[ -w /tmp ] || mnt tmpfs tmp /tmp mode=1777
mnt debugfs debugfs /sys/kernel/debug
mnt tracefs tracefs /sys/kernel/tracing
mnt bpf bpf /sys/fs/bpf mode=0700
mnt cgroup2 cgroup2 /sys/fs/cgroup
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
[ -d /run/netns ] || mkdir -p /run/netns /run/lock
echo 1 > /proc/sys/kernel/sysrq 2>/dev/null
read -r HOSTNAME < /proc/sys/kernel/hostname
if [ "$HOSTNAME" != rxb-vm ]; then
	hostname rxb-vm 2>/dev/null
	ip link set lo up 2>/dev/null || msg "warning: cannot bring lo up"
fi

# --- modules: make "modprobe rxbisect" work ---------------------------------
read -r KVER < /proc/sys/kernel/osrelease
MODDIR=/lib/modules/$KVER
# a kernel built elsewhere (tools/vm/debug-kernel): its module tree, which
# the host root shows under MODROOT, goes where modprobe looks for it
if [ -n "$MODROOT" ] && [ -d "$MODROOT$MODDIR" ] && [ ! -d "$MODDIR/kernel" ]; then
	mkdir -p "$MODDIR" && mount --bind "$MODROOT$MODDIR" "$MODDIR" ||
		msg "warning: cannot mount $MODROOT$MODDIR on $MODDIR"
fi
# run-vm.sh put a snapshot of the repository's top-level *.ko and the module
# index it generated on the host into $RUNDIR/mods (depmod -a here would take
# about 30 s under TCG): install them so that modprobe finds the modules.
RXB_KO=
MODS=$RUNDIR/mods
KOS=()
[ -n "$RUNDIR" ] && [ -d "$MODS" ] && KOS=("$MODS"/*.ko)
[ -e "${KOS[0]:-/nonexistent}" ] || KOS=()
if [ ${#KOS[@]} -gt 0 ]; then
	if [ ! -w "$MODDIR" ]; then
		# read-only root: writable overlay on the module directory
		mkdir -p /run/rxbvm/mods/upper /run/rxbvm/mods/work
		mount -t overlay -o "lowerdir=$MODDIR,upperdir=/run/rxbvm/mods/upper,workdir=/run/rxbvm/mods/work" \
			modules "$MODDIR" || msg "warning: cannot make $MODDIR writable"
	fi
	mkdir -p "$MODDIR/extra"
	if [ -s "$MODS/modules.dep.bin" ]; then
		cp "${KOS[@]}" "$MODS"/modules.* "$MODDIR/extra/" &&
			mv "$MODDIR"/extra/modules.* "$MODDIR/"
	else
		msg "running depmod -a (slow under TCG)"
		cp "${KOS[@]}" "$MODDIR/extra/" && depmod -a "$KVER"
	fi || msg "warning: cannot install ${KOS[*]##*/} for modprobe"
	[ -f "$MODDIR/extra/rxbisect.ko" ] && RXB_KO=$MODDIR/extra/rxbisect.ko
fi
[ -z "$RXB_KO" ] && [ -f "$REPO/rxbisect.ko" ] && RXB_KO=$REPO/rxbisect.ko

# --- environment for the tests ----------------------------------------------
export RXB_VM=1
export RXB_KVER=$KVER
export RXB_REPO=$REPO
export RXB_KO
[ "$SLOW" = 1 ] && export KSFT_MACHINE_SLOW=yes
export TERM=${TERM:-linux}
[ "$TERM" = dumb ] && TERM=linux

# --- the guest's clock ----------------------------------------------------------
# Under TCG, timekeeping on the TSC follows the host's raw TSC, which jumps
# when the host is snapshotted or migrated (run-vm.sh's tsc=unstable keeps
# it off): a command run on it may see days pass in a second.
if [ "$SLOW" = 1 ] && [ -n "$RUNDIR" ] && [ -d "$RUNDIR" ]; then
	read -r CLOCKSOURCE < /sys/devices/system/clocksource/clocksource0/current_clocksource
	if [ "$CLOCKSOURCE" = tsc ]; then
		msg "the guest keeps time on the TSC under TCG, which jumps with the host's raw TSC: boot with tsc=unstable (tools/vm/run-vm.sh)"
		write_rc 125
		poweroff_now
	fi
fi

# --- run the command ----------------------------------------------------------
rc=0
if [ -z "$RUNDIR" ] || [ ! -d "$RUNDIR" ]; then
	msg "no run directory (rxbvm.rundir=$RUNDIR)"
	if [ -z "$BATCH" ]; then
		msg "starting a shell; exit it to power off"
		setsid -w -c bash -l <$CONSOLE >$CONSOLE 2>&1
	fi
	poweroff_now
fi

[ -r "$RUNDIR/env" ] && . "$RUNDIR/env"
cd "${REPO:-/}" || cd /

if [ -r "$RUNDIR/cmd" ]; then
	# batch: no stdin, output on the serial console (-onlcr set by the
	# initramfs); the uptime at the command's start and end tells
	# run-vm.sh how long booting took
	cut -d' ' -f1 /proc/uptime > "$RUNDIR/uptime.start" 2>/dev/null
	bash "$RUNDIR/cmd" </dev/null >$CONSOLE 2>&1
	rc=$?
	cut -d' ' -f1 /proc/uptime > "$RUNDIR/uptime.end" 2>/dev/null
else
	# interactive shell with job control on the serial console
	[ -n "${RXBVM_ROWS:-}" ] && stty -F $CONSOLE rows "$RXBVM_ROWS" cols "$RXBVM_COLS" 2>/dev/null
	echo "rxbisect VM ($KVER): repo at ${REPO:-?}, RXB_KO=${RXB_KO:-<none>}; exit the shell to power off" >$CONSOLE
	PS1='rxb-vm:\w# ' setsid -w -c bash --norc -i <$CONSOLE >$CONSOLE 2>&1
	rc=$?
fi

write_rc "$rc"
poweroff_now
