# SPDX-License-Identifier: GPL-2.0
#
# rxbisect top-level Makefile.  `make help` lists the targets, each with
# the "## ..." comment of its rule line below, and the variables of the
# "## " lines; a plain `make` builds the default goal, all.
#
## KERNEL=6.12|newest|debug  build for and boot that kernel instead of 6.1 (module, test, vm-test, vm-run, vm-shell, demo)
## KVER=6.12                 with debug-kernel and KERNEL=debug: the debug kernel from linux-source-6.12
## KDIR=DIR KVER=RELEASE     with module and install: the kernel build directory to build against
## W=1 C=1                   with module: extra warnings and sparse, as in-tree

SHELL := /bin/bash
TOP := $(CURDIR)

# KERNEL=stock (or 6.1): the installed Debian 12 kernel, 6.1.  KERNEL=debug:
# the debug kernel of tools/vm/debug-kernel, built on first use into its
# cache directory; the module is built against that tree and run-vm.sh boots
# it.  KERNEL=6.12: Debian 12's 6.12 (tools/vm/debian-kernel.sh: installed by
# make deps, or unpacked into the cache on first use).  KERNEL=newest: the
# newest kernel release of Debian's unstable suite (tools/vm/kernels.conf),
# unpacked into the cache on first use, its build directory prepared there.
# A plain `make test` (no KERNEL) runs the VM stage on both Debian 12 kernels;
# with KERNEL=... on that one (tools/run-tests.sh: RXB_TEST_KERNELS).
# RXB_TEST_KERNELS="6.12 ..." without KERNEL: rxbisect.ko at the top is
# built for its first kernel, as the VM stage boots that one with it.
ifeq ($(origin KERNEL),undefined)
RXB_TEST_KERNELS ?= 6.1 6.12
KERNEL := $(firstword $(RXB_TEST_KERNELS))
endif
KERNEL ?= stock
# The debug kernel's source: make debug-kernel KVER=6.12 (or
# RXB_DEBUG_KVER=6.12); default 6.1.  KVER given on the command line names
# it and is otherwise replaced by the debug kernel's release.
ifeq ($(origin KVER),command line)
RXB_DEBUG_KVER := $(if $(filter 6.12 6.12.%,$(KVER)),6.12,$(if $(filter 6.1 6.1.%,$(KVER)),6.1,$(KVER)))
endif
RXB_DEBUG_KVER ?= 6.1
export RXB_DEBUG_KVER
# RXB_KVER_612: the pinned 6.12 release make deps installs.
include tools/vm/kernels.conf
export RXB_KVER_612 RXB_KVER_NEWEST
ifeq ($(KERNEL),6.1)
override KERNEL := stock
endif
ifeq ($(KERNEL),debug)
DEBUG_KERNEL_DIR := $(shell tools/vm/debug-kernel/build.sh --kver $(RXB_DEBUG_KVER) --print-dir)
override KDIR := $(DEBUG_KERNEL_DIR)/linux
# read when a recipe runs, i.e. after debug-kernel has built the tree
override KVER = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
MAKEOVERRIDES := $(filter-out KVER=%,$(MAKEOVERRIDES))
VM_MODROOT := $(DEBUG_KERNEL_DIR)/modroot
VM_KERNEL_DEPS := debug-kernel
export RXB_VM_KERNEL := debug
else ifneq ($(filter 6.12 newest,$(KERNEL)),)
# read when used: after kernel-$(KERNEL) has fetched the kernel if it had to
deb-kernel-env = $(patsubst $(1)=%,%,$(filter $(1)=%,$(shell tools/vm/debian-kernel.sh --env $(KERNEL))))
KVER = $(call deb-kernel-env,KVER)
KDIR = $(call deb-kernel-env,KDIR)
VM_MODROOT = $(call deb-kernel-env,MODROOT)
VM_KERNEL_DEPS := kernel-$(KERNEL)
export RXB_VM_KERNEL := $(KERNEL)
else ifneq ($(KERNEL),stock)
$(error KERNEL=$(KERNEL): use KERNEL=stock or 6.1 (default), KERNEL=6.12, KERNEL=newest or KERNEL=debug)
endif
RXB_TEST_KERNELS ?= $(if $(filter stock,$(KERNEL)),6.1,$(KERNEL))
export RXB_TEST_KERNELS

# The running kernel's build dir if it has one, else the newest installed
# Debian 12 6.1 linux-headers (these machines' own kernel cannot load
# modules), else the newest installed headers.
RUNNING := $(shell uname -r)
ifneq ($(wildcard /lib/modules/$(RUNNING)/build/Makefile),)
KVER ?= $(RUNNING)
else
KVER ?= $(shell ls -d /lib/modules/*/build 2>/dev/null | cut -d/ -f4 | sort -V | \
	{ grep -E '^6\.1\.' || cat; } | tail -n1)
endif
KDIR ?= /lib/modules/$(KVER)/build

# Plain `make` builds the module and the tools, as `make help` says: the
# included vm.mk must not make its first target (vm-initramfs) the default.
.DEFAULT_GOAL := all

-include tools/vm/vm.mk

DEPS := build-essential linux-image-amd64 linux-headers-amd64 \
	linux-source-6.1 dwarves qemu-system-x86 busybox-static kmod cpio \
	iproute2 ethtool iperf3 sockperf sparse bc flex bison libelf-dev \
	libssl-dev python3 procps xz-utils iputils-ping gnuplot-nox \
	clang llvm libbpf-dev libxdp-dev bpftool xdp-tools python3-yaml \
	python3-jsonschema python3-docutils linux-source-6.12 socat jq netsniff-ng smcroute ncat \
	dpdk-dev linuxptp

.PHONY: all module xdp-progs tools sim sim-test deps test unit-test vm-test demo bench nf-bench bench-corec bench-ws bench-bursts bench-ceio bench-enso tls-bench microbench ceio-bench soak fuzz install \
	clean checkpatch debug-kernel kernel-6.12 kernel-newest ksrc help docs

all: module xdp-progs tools sim ## the default goal: rxbisect.ko, the selftests' programs, the userspace tools and the simulator

# rxbisect.ko needs the kernel's build directory and a C compiler only; the
# selftests' programs are built too where their toolchain is (clang and
# libbpf for the BPF ones: BPF_OPTIONAL=1 leaves them out, with a note).
module: $(VM_KERNEL_DEPS) ## rxbisect.ko for KERNEL (default 6.1): a C compiler and the kernel headers, no clang or libbpf
	@test -f $(KDIR)/Makefile || { echo "no kernel build dir at KDIR=$(KDIR): run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules
	@$(MAKE) -s -C selftests/drivers/net/rxbisect/progs BPF_OPTIONAL=1
	@$(MAKE) -s -C tools/enso

# The selftests' BPF programs (xdp.sh, af_xdp.sh) and AF_XDP client, built on
# the host: the VM only runs.  Here a missing clang or libbpf is an error.
xdp-progs: ## the selftests' BPF programs and their AF_XDP and kTLS clients (clang, libbpf)
	$(MAKE) -C selftests/drivers/net/rxbisect/progs

# tools/nf: the network functions (nat, lb, l3fwd; clang, bpftool, libbpf)
tools: ## the ring-model cores' userspace tests and benchmarks, tools/nf's network functions
	$(MAKE) -C tools/testing/rxbisect all
	$(MAKE) -C tools/nf

sim: ## the simulator, tools/rxbisect-sim
	$(MAKE) -C tools/rxbisect-sim

sim-test: ## the simulator's tests
	$(MAKE) -C tools/rxbisect-sim check

# RXB_DEPS_INITRD=no: make deps makes no Debian initramfs for the kernels
# it installs (INITRD=No, read by initramfs-tools' kernel hook; with none
# made, its trigger finds nothing to update).  The VMs boot those kernels
# with an initramfs of their own (tools/vm/vm.mk), and make deps made
# Debian's three times (one took 175 s, 141 CPU-s, on a 2-core machine):
# for a machine that never boots them itself, as .ci/run's; not for a
# host that may.
RXB_DEPS_INITRD ?= yes
DEPS_APT = DEBIAN_FRONTEND=noninteractive $(if $(filter no,$(RXB_DEPS_INITRD)),INITRD=No )apt-get install -y --no-install-recommends

deps: ## (root) install the Debian packages the build and the tests need (RXB_DEPS_INITRD=no: no initramfs for their kernels)
	@if [ "$$(id -u)" != 0 ]; then echo "make deps: run as root" >&2; exit 1; fi
	@case "$(RXB_DEPS_INITRD)" in yes|no) ;; \
	*) echo "make deps: RXB_DEPS_INITRD is yes or no, not '$(RXB_DEPS_INITRD)'" >&2; exit 2 ;; esac
	apt-get update
	$(DEPS_APT) $(DEPS)
	@# 6.12 from bookworm-security, pinned (tools/vm/kernels.conf); the
	@# newest 6.12 release when the archive has dropped the pinned one.
	v=$$(tools/vm/debian-kernel.sh --pin 6.12) && \
	$(DEPS_APT) linux-image-$$v linux-headers-$$v

# The builds first, on every CPU (their sub-makes are parallel-safe).  The
# module once, with W=1 C=1 (sparse): the flags add warnings and change no
# code, and the static stage reports the warnings from its log
# (RXB_W1_LOG) instead of building it again; `all` passes the same flags
# so that kbuild finds it up to date.
test: ## static checks, userspace tests, simulator, selftests in VMs on 6.1 and 6.12; last line "N passed, N failed"
	@mkdir -p build
	@echo "make module W=1 C=1 (its warnings: build/module-w1.log, the static stage)"
	@$(MAKE) -s -j$$(nproc 2>/dev/null || echo 1) module W=1 C=1 >build/module-w1.log 2>&1 || \
		{ tail -n 30 build/module-w1.log; exit 1; }
	@$(MAKE) -j$$(nproc 2>/dev/null || echo 1) all ksrc W=1 C=1
	@RXB_ALL_BUILT=1 RXB_W1_LOG=build/module-w1.log tools/run-tests.sh

# The kernel's driver tests and ynl of linux-source-6.12, extracted on the
# host into build/ksrc-6.12 (cached) for kdrv_tests.sh in the VM, which
# sees the host read-only; without the tarball that test skips.  With
# KERNEL=newest also that kernel's (build/ksrc-7.2), which the tests in a
# VM booting it use instead (tools/ksrc.sh running).  And the
# newer ethtool hw/rss_ctx.py needs (Debian unstable's, unpacked into
# build/ethtool-unstable); without it that test alone skips.
ksrc: ## unpack linux-source-6.12's driver tests (and a newer ethtool) for kdrv_tests.sh into build/
	@tools/ksrc.sh 6.12 >/dev/null || echo "make: no linux-source-6.12 (make deps): kdrv_tests.sh will skip" >&2
	@test "$(KERNEL)" != newest || tools/ksrc.sh newest >/dev/null || echo "make: no linux-source of the newest kernel: its tests fall back to 6.12's" >&2
	@tools/ethtool-new.sh --fetch >/dev/null 2>&1 || echo "make: no newer ethtool (tools/ethtool-new.sh --fetch): kdrv_tests.sh skips hw/rss_ctx.py" >&2

unit-test: ## the userspace unit tests alone (tools/testing/rxbisect, tools/nf)
	$(MAKE) -C tools/testing/rxbisect check
	$(MAKE) -C tools/nf check

vm-test: module xdp-progs tools ksrc ## the selftests alone, in the VM
	@tools/run-tests.sh vm

# HOST=1: demo, bench, nf-bench and the paper experiments run natively on
# this machine, as root, instead of in the VM (tools/bench/host.sh: they
# refuse without root, with a tool missing or with rxbisect in use, and
# size themselves to the machine with tools/bench/hostlayout.py).  The
# module: the installed one (make install, DKMS) when modprobe finds it,
# else this tree's rxbisect.ko, built for the running kernel.
## HOST=1                    with demo, bench, nf-bench, bench-corec, bench-ws, bench-bursts, bench-ceio, bench-enso: natively on this machine as root, not in the VM
ifeq ($(HOST),1)
bench-run =
BENCH_KO := $(if $(shell modinfo -n rxbisect 2>/dev/null),,module)
else
bench-run = tools/vm/run-vm.sh --timeout $(1) --
BENCH_KO := module
endif

# Boot the VM, compare every ring model (and veth), print the table,
# write CSV and plots under results/.
demo: $(BENCH_KO) ## every ring model and veth side by side in the VM (HOST=1: here): a table, results/demo.csv and plots
	@mkdir -p results
	$(call bench-run,1200) env OUT=$(TOP)/results tools/bench/demo.sh

# Every ring model and veth under iperf3, pktgen, sockperf and the
# imbalance sweeps, in the VM (tools/bench/bench_all.sh): CSV, markdown
# tables and plots under results/bench-DATE/.  BENCH_REPS repetitions,
# the models interleaved; medians, spreads, ratios marked when within
# noise.  BENCH_ENV: more of bench_all.sh's variables, e.g.
# BENCH_ENV='MODELS="privring rxbisect" CELLS=tcp1 NO_VETH=1'.
BENCH ?= quick
BENCH_REPS ?= 5
BENCH_ENV ?=
BENCH_TIMEOUT ?= $(shell echo $$(( ($(BENCH_REPS) + 1) * $(if $(filter full,$(BENCH)),4200,800) )))
bench: $(BENCH_KO) xdp-progs tools ## the benchmark matrix in the VM (HOST=1: here), results/bench-*/ (BENCH_REPS, BENCH=full, BENCH_ENV)
	@d=$(TOP)/results/bench-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,$(BENCH_TIMEOUT)) env OUT=$$d BENCH=$(BENCH) \
		REPS=$(BENCH_REPS) $(BENCH_ENV) tools/bench/bench_all.sh

# The network functions of tools/nf (nat, lb, l3fwd) on every ring model
# and veth in the VM (tools/bench/nf_bench.sh): pktgen 64 B, random
# 5-tuples; forwarded Mpps, drops by cause, ratios to privring within each
# repetition.  make bench runs it too (its "nf" cell).  NF_BENCH_ENV: more
# of nf_bench.sh's variables, e.g. NF_BENCH_ENV='REPS=5 CONN_MAX=10000000'.
NF_BENCH_ENV ?=
nf-bench: $(BENCH_KO) xdp-progs tools ## the network functions on every model and veth in the VM (HOST=1: here): Mpps, drops by cause
	@d=$(TOP)/results/nf-bench-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) env OUT=$$d $(NF_BENCH_ENV) tools/bench/nf_bench.sh

# COREC's single-queue scale-up (its Table 2): l3fwd on privring with one
# queue and on corec with 1 .. QUEUES consumers of one queue, the layout's
# queue CPUs (nf_bench.sh COREC_SCALE=1; NF_BENCH_ENV as for nf-bench).
bench-corec: $(BENCH_KO) xdp-progs tools ## COREC's scale-up on one queue, l3fwd 64 B (its Table 2) in the VM (HOST=1: here)
	@d=$(TOP)/results/corec-scale-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) env OUT=$$d COREC_SCALE=1 $(NF_BENCH_ENV) tools/bench/nf_bench.sh

# The papers' experiments, one command each (tools/bench/paper.sh): the
# I/O working set (privring against ring size, buffer budgets from a
# quarter of the LLC to several times it) and bursts absorbed (privring
# 128 and 1 Ki, shring, rxbisect Ax 128), CEIO against privring (its
# §6.2: credits the size of the DDIO share, rings beyond the LLC).  CSV, a markdown table with the
# papers' findings beside ours, PNG plots, the layout and the machine
# record under results/EXP-DATE/.  PAPER_ENV: paper.sh's variables.
bench-ws: $(BENCH_KO) ## the I/O working set experiment (rxBisect Fig. 2, thesis Fig. 4.2) in the VM (HOST=1: here)
	@d=$(TOP)/results/ws-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) env OUT=$$d $(PAPER_ENV) tools/bench/paper.sh ws

bench-bursts: $(BENCH_KO) ## bursts absorbed (rxBisect Figs. 9, 12, thesis Fig. 4.4) in the VM (HOST=1: here)
	@d=$(TOP)/results/bursts-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) env OUT=$$d $(PAPER_ENV) tools/bench/paper.sh bursts

bench-ceio: $(BENCH_KO) ## CEIO against privring beyond the LLC, 128-1024 B frames (CEIO §6.2) in the VM (HOST=1: here)
	@d=$(TOP)/results/ceio-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) env OUT=$$d $(PAPER_ENV) tools/bench/paper.sh ceio

# Ensō's microbenchmark (issue 37; tools/bench/enso_bench.sh with
# tools/enso/enso_bench): Ensō pipes against AF_XDP (zero-copy on privring
# and rxbisect, copy on shring) and UDP sockets, one offered rate for all;
# the receiver CPU's busy ns per message, Mpps, latency percentiles, the
# interconnect counters' metadata share.  ENSO_BENCH_ARGS: its options,
# e.g. ENSO_BENCH_ARGS='--reps 5 --secs 3' (on a host: --rate 200000).
ENSO_BENCH_ARGS ?=
bench-enso: $(BENCH_KO) xdp-progs ## Ensō pipes vs AF_XDP vs UDP sockets per message (Ensō §7) in the VM (HOST=1: here; ENSO_BENCH_ARGS)
	@d=$(TOP)/results/enso-bench-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	$(call bench-run,3600) tools/bench/enso_bench.sh --out $$d $(ENSO_BENCH_ARGS)

# The ring-model cores in userspace (tools/testing/rxbisect/bench_models.c):
# driver-side and NIC-side cycles per packet at equal posted buffers, within
# and beyond the LLC, 5 interleaved rounds (a few minutes on 2 cores).
# Longer runs: make microbench BENCH_ARGS="-R 9 -n 4000000"; -S: the NIC's
# 1-to-2-thread scaling; -A: the allocator's cycles.
microbench: ## each ring model's two halves in userspace: cycles per packet (BENCH_ARGS=-A, -S)
	$(MAKE) -C tools/testing/rxbisect bench

# The CEIO paper's scenarios (tools/testing/rxbisect/bench_ceio.c): privring,
# shring, rxbisect and ceio at the same host buffer budget; static
# 128-1024 B, +2 flows with a burst, a bulk flow that frees late.  Working
# set, drops by cause, reorders, slow-path fraction, p99 latency, ratios to
# privring; 3 interleaved runs per cell (1-3 minutes on a shared 2-core host).
# More: make ceio-bench CEIO_BENCH_ARGS="-R 5 -n 300000".
ceio-bench: ## the CEIO paper's scenarios in userspace (CEIO_BENCH_ARGS)
	$(MAKE) -C tools/testing/rxbisect ceio-bench

# The kTLS device offload's measurements (thesis chapter 3, issue 34) in
# the VM (tools/bench/tls_bench.sh, its helper tools/bench/ktls_bulk.c):
# the application core's ns per byte with plain TCP, software kTLS and the
# offload, TX and RX, sw/offload within each repetition; the share of
# records the NIC decrypted fully under 0-5 % loss and 2 % reordering.
# TLS_BENCH_ARGS: its options, e.g. TLS_BENCH_ARGS='--reps 5 --bytes 8M'.
TLS_BENCH_ARGS ?=
tls-bench: module $(TOP)/build/bench/ktls_bulk ## the kTLS device offload against software kTLS in the VM (TLS_BENCH_ARGS)
	@d=$(TOP)/results/tls-bench-$$(date +%Y%m%d-%H%M%S) && mkdir -p $$d && \
	tools/vm/run-vm.sh --timeout 1800 -- tools/bench/tls_bench.sh --out $$d $(TLS_BENCH_ARGS)

$(TOP)/build/bench/ktls_bulk: tools/bench/ktls_bulk.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -o $@ $<

# Load/unload, ring-model switches, ethtool -L/-G, each RXB_SOAK_ITERS
# times under iperf3 (selftests/drivers/net/rxbisect/soak.sh).
RXB_SOAK_ITERS ?= 100
soak: module ## soak.sh with RXB_SOAK_ITERS (100) iterations in the VM
	RXB_SOAK_ITERS=$(RXB_SOAK_ITERS) RXB_TEST_TIMEOUT=7000 \
	tools/vm/run-vm.sh --timeout 7200 -- selftests/run_kselftest.sh soak.sh

# The control-plane fuzzer for FUZZ_SECS seconds: random seeds, or
# FUZZ_SEED alone (selftests/drivers/net/rxbisect/fuzz.sh).
FUZZ_SECS ?= 3600
FUZZ_SEED ?= random
fuzz: module xdp-progs ## the control-plane fuzzer in the VM for FUZZ_SECS (3600) s; FUZZ_SEED=S replays seed S
	RXB_FUZZ_SECS=$(FUZZ_SECS) RXB_FUZZ_SEED=$(FUZZ_SEED) \
	RXB_TEST_TIMEOUT=$$(($(FUZZ_SECS) + 600)) \
	tools/vm/run-vm.sh --timeout $$(($(FUZZ_SECS) + 1800)) -- \
		selftests/run_kselftest.sh fuzz.sh

debug-kernel: ## build the KASAN + lockdep + kmemleak kernel for the VM, once (KVER=6.12: from 6.12)
	@tools/vm/debug-kernel/build.sh --kver $(RXB_DEBUG_KVER)

# Debian 12's 6.12: installed (make deps) or unpacked into the cache.
kernel-6.12: ## Debian 12's 6.12: unpack it into the cache unless make deps installed it
	@tools/vm/debian-kernel.sh --fetch 6.12 >/dev/null

# The newest kernel of Debian's unstable suite, unpacked into the cache
# (and its build directory prepared there) on first use.
kernel-newest: ## the newest kernel of Debian unstable, unpacked into the cache
	@tools/vm/debian-kernel.sh --fetch newest >/dev/null

install: module ## install rxbisect.ko into /lib/modules/KVER/extra, depmod
	@test "$(KERNEL)" = stock || { echo "make install: only for the installed kernel (KERNEL=stock)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install
	depmod -a $(KVER)

# Every target of these makefiles whose rule line has a "## " comment, with
# it, then the "## " lines (variables).  run-tests.sh's static stage
# checks that every .PHONY target has one.
help: ## this list
	@awk '/^[a-zA-Z0-9][a-zA-Z0-9_.-]*:[^=].*## / { \
		t = $$0; sub(/:.*/, "", t); d = $$0; sub(/^[^#]*## /, "", d); \
		printf "  %-16s %s\n", t, d; next } \
	     /^## / { v = v "  " substr($$0, 4) "\n" } \
	     END { if (v != "") printf "\nVariables:\n%s", v }' $(MAKEFILE_LIST)

# reStructuredText: every *.rst of the tree through docutils, warnings
# fatal, and Documentation/index.rst's toctree reaching every document
# (tools/rst-lint.py; the static stage of make test runs it too).
docs: ## lint every .rst with docutils (python3-docutils), Documentation/index.rst's toctree complete
	@python3 tools/rst-lint.py

checkpatch: ## checkpatch.pl --strict over the C sources, less tools/checkpatch.allow
	@tools/checkpatch.sh

clean: ## remove the build products
	$(MAKE) -C $(KDIR) M=$(TOP) clean || true
	$(MAKE) -C tools/testing/rxbisect clean || true
	$(MAKE) -C tools/nf clean || true
	$(MAKE) -C tools/rxbisect-sim clean || true
	rm -rf build

# ---- DKMS (dkms.conf; Documentation/usage.rst "Installing with DKMS") ----
#   make dkms-install    copy the sources the build needs to
#                        /usr/src/rxbisect-VERSION and `dkms add` them
#                        (VERSION: RXB_DRV_VERSION); again: refreshes
#   make dkms-uninstall  `dkms remove rxbisect/VERSION --all`, delete the copy
#   make dkms-test       install, `dkms build` for every installed kernel
#                        headers in dkms.conf's range, check, uninstall
#                        (tools/dkms-test.sh; in make test's static stage)
DEPS += dkms
.PHONY: dkms-install dkms-uninstall dkms-test
dkms-install: ## (root) copy the sources to /usr/src/rxbisect-VERSION and dkms add them
	@tools/dkms.sh install

dkms-uninstall: ## (root) dkms remove rxbisect/VERSION --all, delete the copy
	@tools/dkms.sh uninstall

dkms-test: ## (root) dkms install, build for each kernel series' headers, uninstall
	@tools/dkms-test.sh
