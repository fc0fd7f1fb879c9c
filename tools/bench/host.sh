#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host mode of the benchmarks in tools/bench (source after lib.sh): the
# same scripts run natively as root on the machine they are started on,
# be it a researcher's server (make bench HOST=1) or the test VM, which
# calls them the same way.
#
# bench_host_init NAME [TOOL:PACKAGE...] refuses, with one line on stderr
# and exit status 2, when
#   - the script does not run as root;
#   - a tool is missing (ip, ethtool, kmod's modprobe/insmod/rmmod/modinfo,
#     python3, timeout, taskset, flock and the script's own): the line
#     names the Debian package;
#   - another benchmark holds /run/rxbisect-bench.lock, or the rxbisect
#     module is loaded already (someone else's ports: the benchmarks
#     unload and reload it with their own parameters);
#   - there is no module to load: "modprobe rxbisect" (make install,
#     DKMS) is used when modinfo finds it, else RXB_KO or the tree's
#     rxbisect.ko, which must be built for the running kernel.
# Then it reads the machine (hostlayout.py: online CPUs, NUMA node, LLC)
# into HL_* variables, prints the layout and, with OUT set, writes it
# and the machine record (bench_machine_record) to OUT/layout.txt and
# OUT/machine.txt.  A child benchmark (bench_all.sh runs nf_bench.sh)
# inherits the lock (RXB_BENCH_LOCKED).

BENCH_LOCK=${RXB_BENCH_LOCK:-/run/rxbisect-bench.lock}
BENCH_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

bench_refuse() {
	echo "$BENCH_NAME: $*" >&2
	exit 2
}

# bench_host_require TOOL:PACKAGE...: refuse when a tool is missing.
bench_host_require() {
	local t
	for t in "$@"; do
		command -v "${t%%:*}" >/dev/null 2>&1 ||
			bench_refuse "${t%%:*} not found: apt-get install ${t#*:}"
	done
}

bench_host_init() {
	local kv mv
	BENCH_NAME=$1
	shift
	[ "$(id -u)" = 0 ] || bench_refuse "must run as root (sudo), it loads the rxbisect module"
	bench_host_require ip:iproute2 ethtool:ethtool modprobe:kmod insmod:kmod \
		rmmod:kmod modinfo:kmod python3:python3 timeout:coreutils \
		taskset:util-linux flock:util-linux "$@"
	if [ -z "${RXB_BENCH_LOCKED:-}" ]; then
		exec {BENCH_LOCK_FD}>>"$BENCH_LOCK" ||
			bench_refuse "cannot open $BENCH_LOCK"
		flock -n "$BENCH_LOCK_FD" ||
			bench_refuse "another rxbisect benchmark is running (it holds $BENCH_LOCK)"
		export RXB_BENCH_LOCKED=$$
		if [ -d /sys/module/rxbisect ]; then
			bench_refuse "rxbisect is loaded already ($(_rxb_link_names | wc -l) ports, refcnt $(cat /sys/module/rxbisect/refcnt 2>/dev/null)): another instance is in use; unload it (rmmod rxbisect) first"
		fi
	fi
	kv=$(uname -r)
	if modinfo -n rxbisect >/dev/null 2>&1; then
		RXB_MODPROBE=1
		BENCH_MODULE="modprobe rxbisect: $(modinfo -n rxbisect) (version $(modinfo -F version rxbisect 2>/dev/null), srcversion $(modinfo -F srcversion rxbisect 2>/dev/null))"
	else
		RXB_MODPROBE=0
		RXB_KO=${RXB_KO:-$BENCH_REPO/rxbisect.ko}
		[ -r "$RXB_KO" ] ||
			bench_refuse "no rxbisect module: install it (make install, or DKMS) or build it (make module), or set RXB_KO"
		mv=$(modinfo -F vermagic "$RXB_KO" 2>/dev/null)
		[ "${mv%% *}" = "$kv" ] ||
			bench_refuse "$RXB_KO is built for ${mv%% *}, this kernel is $kv: make module (the running kernel's headers: apt-get install linux-headers-$kv)"
		BENCH_MODULE="insmod $RXB_KO (srcversion $(modinfo -F srcversion "$RXB_KO" 2>/dev/null))"
	fi
	export RXB_KO RXB_MODPROBE
	local lay
	lay=$(python3 "$BENCH_DIR/hostlayout.py" --format shell) ||
		bench_refuse "cannot read the machine's layout from /sys"
	eval "$lay"
	export BENCH_GEN_CPU=${HL_GEN_CPUS%% *}
	BENCH_LAYOUT=$HL_TEXT
	echo "$BENCH_LAYOUT" >&2
	# perf's verdict once: a perf start-up is seconds in the VM
	BENCH_PERF=$(bench_perf_status)
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT" || bench_refuse "cannot create $OUT"
		echo "$BENCH_LAYOUT" >"$OUT/layout.txt"
		bench_machine_record >"$OUT/machine.txt"
	fi
}

# bench_machine_record: the machine a result comes from, "key: value"
# lines: CPU model, LLC, frequency policy, kernel, module and its
# parameters (as loaded now, else the defaults), git commit, VM or not,
# whether perf can count LLC misses.
bench_machine_record() {
	local gov drv fmin fmax virt commit p
	gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null)
	drv=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver 2>/dev/null)
	fmin=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq 2>/dev/null)
	fmax=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq 2>/dev/null)
	virt=$(systemd-detect-virt 2>/dev/null)
	# the test VM: git's --dirty would stat every file over 9p
	if [ -n "${RXB_VM:-}" ]; then
		virt="qemu (rxbisect test VM)"
		commit=$(git -C "$BENCH_REPO" -c safe.directory='*' rev-parse --short HEAD 2>/dev/null)
		commit="${commit:-unknown} (clean or not: not checked in the VM)"
	else
		commit=$(git -C "$BENCH_REPO" -c safe.directory='*' describe --always --dirty 2>/dev/null ||
			echo unknown)
	fi
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	echo "cpus: ${HL_CPUS:-$(nproc)} online, ${HL_NODES:-1} NUMA node(s)"
	echo "llc: $((${HL_LLC_BYTES:-0} / 1024)) KiB, ${HL_LLC_WAYS:-?} ways, ${HL_LLC_SLICES:-?} slice(s) on node ${HL_NODE:-0}"
	if [ -n "$gov" ]; then
		echo "frequency: $drv $gov, $((fmin / 1000))-$((fmax / 1000)) MHz"
	else
		echo "frequency: no cpufreq (fixed or controlled by the hypervisor/firmware)"
	fi
	echo "kernel: $(uname -r) ($(uname -v))"
	echo "virtualization: ${virt:-none}"
	echo "module: ${BENCH_MODULE:-?}"
	if [ -d /sys/module/rxbisect/parameters ]; then
		printf 'params:'
		for p in /sys/module/rxbisect/parameters/*; do
			printf ' %s=%s' "${p##*/}" "$(cat "$p" 2>/dev/null)"
		done
		echo
	fi
	echo "git: $commit"
	echo "perf: ${BENCH_PERF:-$(bench_perf_status)}"
}

# bench_perf_status: "ok" when perf stat can count LLC misses
# system-wide here, else why not (said once, in the machine record).
bench_perf_status() {
	local out
	if ! command -v perf >/dev/null 2>&1; then
		echo "not installed (apt-get install linux-perf): no LLC misses per packet"
		return 1
	fi
	out=$(perf stat -x, -a -e LLC-load-misses -- sleep 0.1 2>&1 >/dev/null)
	if [[ $out == *"not supported"* || $out == *"not counted"* || -z $out ]]; then
		echo "no LLC-load-misses event here (no PMU access, e.g. in a VM): no LLC misses per packet"
		return 1
	fi
	echo ok
}

# bench_params: the module's parameters as loaded now, one line.
bench_params() {
	local p
	for p in /sys/module/rxbisect/parameters/*; do
		[ -r "$p" ] && printf '%s=%s ' "${p##*/}" "$(cat "$p" 2>/dev/null)"
	done
}

# bench_pin_queues IF NQ: queue i of IF interrupts (and runs its NAPI
# on) the layout's i-th queue CPU, round-robin when NQ exceeds them.
bench_pin_queues() {
	local -a c
	local q
	read -ra c <<<"$HL_QUEUE_CPUS"
	for ((q = 0; q < $2; q++)); do
		rxb_knob_set "$1" "$q" irq_cpu "${c[q % ${#c[@]}]}" 2>/dev/null
	done
}

# bench_engine_param: the engine=... parameters of the layout: engine=cpuN,
# and engines=K when it lays out K > 1 pipelines on CPUs N..N+K-1 ("" inline).
bench_engine_param() {
	[ "${HL_ENGINE:-inline}" = inline ] && return 0
	echo "${HL_ENGINE_PARAMS:-engine=$HL_ENGINE}"
}
