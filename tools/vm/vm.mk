# SPDX-License-Identifier: GPL-2.0
#
# QEMU test VM, included by the top-level Makefile.  See tools/vm/README.
#
#   make vm-initramfs          build (or refresh) build/vm/initramfs-$(KVER).cpio.gz
#   make vm-shell              interactive root shell in the VM
#   make vm-run CMD='...'      run a command in the VM, from the repo directory
#
# With KERNEL=debug (set up by the top-level Makefile: VM_KERNEL_DEPS,
# VM_MODROOT, RXB_VM_KERNEL=debug) these use the debug kernel.
#
# In recipes: $(VM_RUN) [--timeout S] -- COMMAND...  (exits with COMMAND's
# status).  KVER is exported so that tools/vm/run-vm.sh, also when started
# from scripts, boots the kernel the module is built against.

VM_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_TOP := $(abspath $(VM_DIR)/../..)

# Newest installed kernel that has headers (a build dir to build against),
# 6.1 first.
ifeq ($(origin KVER),undefined)
KVER := $(shell for v in $$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -rV | \
	awk '/^6\.1\./ { print; next } { r = r $$0 "\n" } END { printf "%s", r }'); do \
	if [ -d /lib/modules/$$v/build ] || [ -d /usr/src/linux-headers-$$v ]; then echo $$v; break; fi; done)
endif
export KVER

VM_RUN := $(VM_DIR)/run-vm.sh
VM_INITRAMFS = $(VM_TOP)/build/vm/initramfs-$(KVER).cpio.gz

.PHONY: vm-initramfs vm-shell vm-run

vm-initramfs: $(VM_KERNEL_DEPS) ## build (or refresh) the VM's initramfs, build/vm/initramfs-KVER.cpio.gz
	@test -n "$(KVER)" || { echo "no installed kernel with headers: run 'make deps'" >&2; exit 1; }
	$(VM_DIR)/mkinitramfs.sh $(KVER) $(VM_INITRAMFS) $(VM_MODROOT)

vm-shell: $(VM_KERNEL_DEPS) ## an interactive root shell in the VM, the module ready for modprobe
	$(VM_RUN)

vm-run: export RXBVM_CMD := $(value CMD)
vm-run: $(VM_KERNEL_DEPS) ## CMD='...': run a command in the VM, from the top of the tree
	@test -n "$$RXBVM_CMD" || { echo "usage: make vm-run CMD='command'" >&2; exit 2; }
	$(VM_RUN) -- bash -c "$$RXBVM_CMD"
