# Image and end-to-end tests: included by the top-level Makefile (BUILD, TOP).
#
#   make image        the test/demo disk $(BUILD)/image/tpe.raw
#   make demo         boot it with the lean kernel on this terminal (KVM=1: use KVM)
#   make check-e2e    boot it with the debug kernel and run the e2e suite
#   make check-demo   do what `make demo` tells a person to, through its console
#   make image-base   only the mkosi part (redone when mkosi.conf changes)
#   make mkosi-qemu   the same disk and lean kernel, booted by `mkosi qemu`
#
# The image is two steps. mkosi builds the Debian base tree from mkosi.conf:
# slow (about a minute), so it is redone only when mkosi.conf changes. Then
# tests/image/assemble copies it, adds the loader and the guest tests (each
# dir's `make install DESTDIR=`), users and services, and writes the raw
# ext4 disk with mkfs.ext4 -d: seconds, so it is redone every time.

IMG := $(BUILD)/image
IMAGE := $(IMG)/tpe.raw
IMAGE_BASE := $(IMG)/base.tree
IMAGE_STAGE := $(IMG)/stage
# Directories that install guest tests into /usr/lib/tpe-tests; those present.
GUEST_TEST_DIRS := $(patsubst %/Makefile,%,$(wildcard $(addsuffix /Makefile,$(addprefix $(TOP)/,tests/guest tests/hardening tests/bench))))
LEAN_BZIMAGE := $(BUILD)/kernel/lean/arch/x86/boot/bzImage
DEBUG_BZIMAGE := $(BUILD)/kernel/debug/arch/x86/boot/bzImage
E2E_TIMEOUT ?= 1500
# Demo boot: TCG unless asked for KVM (it hangs on some machines).
KVM ?= 0
DEMO_ACCEL := $(if $(filter 1 yes,$(KVM)),kvm -cpu host,tcg)

.PHONY: image image-base demo check-e2e check-demo mkosi-qemu soak

# mkosi refuses to overwrite without --force; the stamp says the tree is whole.
# mkosi.skeleton (found by mkosi in $(TOP)) goes in before the packages.
$(IMG)/base.stamp: $(TOP)/mkosi.conf $(shell find $(TOP)/mkosi.skeleton -type f 2>/dev/null)
	mkdir -p $(IMG)
	rm -f $@
	cd $(TOP) && mkosi --output $(IMAGE_BASE) --cache $(IMG)/apt-cache --force build
	touch $@

image-base: $(IMG)/base.stamp

# tpe-load goes in as its Debian package (make deb), installed with dpkg.
image: $(IMG)/base.stamp $(TPE_LOAD_DEB)
	rm -rf $(IMAGE_STAGE)
	mkdir -p $(IMAGE_STAGE)
	$(foreach d,$(GUEST_TEST_DIRS),$(MAKE) -C $(d) install DESTDIR=$(IMAGE_STAGE) &&) true
	$(TOP)/tests/image/assemble $(IMAGE_BASE) $(IMAGE_STAGE) $(IMAGE) $(TPE_LOAD_DEB)

demo: deps kernel image
	@echo "demo: log in as root/root, then: su - alice (quit QEMU: Ctrl-a x)"
	qemu-system-x86_64 -accel $(DEMO_ACCEL) -m 2048 -smp 2 -nographic -no-reboot \
		-kernel $(LEAN_BZIMAGE) \
		-append "console=ttyS0 root=/dev/vda rw panic=-1 audit=1" \
		-drive if=virtio,file=$(IMAGE),format=raw,snapshot=on \
		-device virtio-rng-pci

# The e2e step boots the system as a Debian user would have it: tpe-load
# from its package, and the kernel from its package too. That is the debug
# kernel (the one every step of `make check` boots), packaged by bindeb-pkg
# from its build dir as linux-image-*-tpe-debug (no compiling, no relinking)
# and taken out of the .deb with dpkg-deb: what dpkg would put in /boot.
# gzip, not dpkg-deb's xz: the bzImage in it is compressed already, and xz
# spends seconds of the step on the packages for nothing.
E2E_KERNEL := $(BUILD)/kernel/debug-deb/vmlinuz
$(E2E_KERNEL): $(DEBUG_BZIMAGE)
	$(call deb-from-build,$(KDEBUG),KDEB_COMPRESS=gzip $(KMAKE_DEBUG))
	rm -rf $(dir $@)
	mkdir -p $(dir $@)root
	r=$$(cat $(KDEBUG)/include/config/kernel.release) && \
	dpkg-deb -x $(DEB)/linux-image-$${r}_*.deb $(dir $@)root && \
	cp $(dir $@)root/boot/vmlinuz-$$r $@

# Also a step of `make check`, which builds first.
CHECK_E2E = $(TOP)/tests/image/run-suite e2e --kernel $(E2E_KERNEL) \
	--timeout $(E2E_TIMEOUT) --kunit
check-e2e: kernel-debug image
	$(MAKE) $(E2E_KERNEL)
	$(CHECK_E2E)

check-demo: deps kernel image
	$(TOP)/tests/image/demo-check --kernel $(LEAN_BZIMAGE) --image $(IMAGE)

# The soak, outside `make check`: exec under reload at the issue's scale on
# the lean kernel (no KASAN, so TCG runs it fast enough), every verdict
# checked and the console clean. It stops at SOAK_EXECS execs once
# SOAK_RELOADS reloads are done; fewer within SOAK_HOURS is a failure.
# About 500 execs/s under TCG (lean kernel, 2 cores): 35 minutes or so.
SOAK_EXECS ?= 1000000
SOAK_RELOADS ?= 10000
SOAK_HOURS ?= 4
soak: kernel image
	@start=$$(date +%s); \
	$(TOP)/tests/image/run-suite hardening-stress --name soak \
		--kernel $(LEAN_BZIMAGE) --image $(IMAGE) --cpus 2 \
		--timeout $$(( $(SOAK_HOURS) * 3600 + 900 )) \
		--append "tpe_stress_execs=$(SOAK_EXECS) tpe_stress_min_execs=$(SOAK_EXECS) tpe_stress_reloads=$(SOAK_RELOADS) tpe_stress_secs=$$(( $(SOAK_HOURS) * 3600 ))"; \
	rc=$$?; echo "soak: $$(( $$(date +%s) - start )) s in all (exit $$rc)"; exit $$rc

# `mkosi qemu` can boot the same disk with our kernel, but only told on the
# command line: mkosi.conf builds a directory (mkosi 14 will not qemu-boot
# one), and `mkosi qemu` builds nothing when the output already exists. So:
# claim the disk is gpt_ext4 (it is plain ext4; mkosi only hands it to qemu),
# and give QemuBoot=linux its auxiliary files next to it: tpe.vmlinuz (our
# lean bzImage), tpe.initrd (an empty cpio: no /init, so the kernel mounts
# root= itself) and tpe.cmdline. mkosi then runs q35 + TCG, console on stdio;
# -snapshot keeps the disk unchanged, like the other boots.
MKOSI_QEMU_CMDLINE := console=ttyS0 root=/dev/vda rw panic=-1 audit=1
mkosi-qemu: kernel image
	ln -sf $(LEAN_BZIMAGE) $(IMG)/tpe.vmlinuz
	cd $(IMG) && mkdir -p empty && (cd empty && echo . | cpio -o -H newc --quiet) >tpe.initrd
	echo "$(MKOSI_QEMU_CMDLINE)" >$(IMG)/tpe.cmdline
	cd $(TOP) && mkosi --format gpt_ext4 --output $(IMAGE) --qemu-boot linux \
		--qemu-kvm $(if $(filter 1 yes,$(KVM)),yes,no) --qemu-headless yes \
		--qemu-mem 2G --qemu-smp 2 qemu -snapshot
