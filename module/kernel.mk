# Kernel side of tpe: included by the top-level Makefile (BUILD, TOP set).
#
#   make kernel             lean kernel   $(BUILD)/kernel/lean/arch/x86/boot/bzImage
#   make kernel-debug       debug kernel  $(BUILD)/kernel/debug/arch/x86/boot/bzImage
#   make patches            format-patch series in $(BUILD)/patches, checkpatch'd
#   make kernel-check-fast  boot the debug kernel with the busybox test initramfs
#
# One source tree, $(BUILD)/linux, unpacked once; module/ is synced into
# security/tpe by content, so editing module/ rebuilds only what changed.
# Needs only make, tar, patch, gcc and the kernel's build deps.

TPE_MOD := $(TOP)/module
KSRC_TAR ?= /usr/src/linux-source-6.12.tar.xz
KSRC := $(BUILD)/linux
KPRISTINE := $(BUILD)/linux-pristine
KLEAN := $(BUILD)/kernel/lean
KDEBUG := $(BUILD)/kernel/debug
KJOBS ?= 3
KMAKE = $(MAKE) -C $(KSRC) -j$(KJOBS) CC="ccache gcc" HOSTCC="ccache gcc"
HOOKUP := $(TPE_MOD)/patches/hookup.patch
COPY := $(TPE_MOD)/copy-changed
# Pristine tree files the hook-up patch touches, for restoring and for `patches`.
HOOKUP_FILES = $(shell sed -n 's|^+++ b/||p' $(HOOKUP))

.PHONY: kernel kernel-debug kernel-src patches kernel-check-fast tpe-sync

$(KSRC)/.tpe-unpacked:
	test -f $(KSRC_TAR) || $(TOP)/tests/install-deps
	rm -rf $(KSRC) $(KSRC).tmp
	mkdir -p $(KSRC).tmp
	tar -xf $(KSRC_TAR) -C $(KSRC).tmp --strip-components=1
	mv $(KSRC).tmp $(KSRC)
	touch $@

# Apply the hook-up patch to pristine copies of the files it touches (saved
# on first use), then copy the results in by content: re-running it after the
# patch changed rebuilds only what depends on what really changed.
$(KSRC)/.tpe-hookup: $(HOOKUP) $(KSRC)/.tpe-unpacked
	cd $(KSRC) && for f in $(HOOKUP_FILES); do \
		[ -f $(KPRISTINE)/$$f ] || { mkdir -p $(KPRISTINE)/$$(dirname $$f) && \
			cp $$f $(KPRISTINE)/$$f; }; \
	done
	rm -rf $(KSRC).hookup
	cp -r $(KPRISTINE) $(KSRC).hookup
	patch -d $(KSRC).hookup -p1 -s --no-backup-if-mismatch < $(HOOKUP)
	for f in $(HOOKUP_FILES); do $(COPY) $(KSRC).hookup/$$f $(KSRC)/$$f; done
	rm -rf $(KSRC).hookup
	touch $@

# Copy by content: unchanged files keep their time stamps. security/tpe gets
# module/'s kernel sources (*.c, *.h, Kconfig, Makefile) and nothing else.
TPE_SRCS = $(wildcard $(TPE_MOD)/*.c $(TPE_MOD)/*.h) $(TPE_MOD)/Kconfig $(TPE_MOD)/Makefile
tpe-sync: $(KSRC)/.tpe-hookup
	mkdir -p $(KSRC)/security/tpe
	for f in $(notdir $(TPE_SRCS)); do \
		$(COPY) $(TPE_MOD)/$$f $(KSRC)/security/tpe/$$f; done
	cd $(KSRC)/security/tpe && for f in *; do \
		[ -e $(TPE_MOD)/$$f ] || rm -f $$f; done
	$(COPY) $(TPE_MOD)/include/uapi/linux/tpe.h $(KSRC)/include/uapi/linux/tpe.h
	$(COPY) $(TPE_MOD)/tpe.rst $(KSRC)/Documentation/admin-guide/LSM/tpe.rst

kernel-src: tpe-sync

# allnoconfig plus the fragments, redone only when they or module/Kconfig
# change (a stamp, since Kconfig leaves an unchanged .config untouched);
# then check that every line of the fragments took.
$(KLEAN)/.tpe-config: $(TPE_MOD)/configs/lean.config $(TPE_MOD)/Kconfig | tpe-sync
	mkdir -p $(KLEAN)
	$(KMAKE) O=$(KLEAN) KCONFIG_ALLCONFIG=$< allnoconfig >/dev/null
	$(TPE_MOD)/configs/check-config $(KLEAN)/.config $<
	touch $@

$(KDEBUG)/tpe.config: $(TPE_MOD)/configs/lean.config $(TPE_MOD)/configs/debug.config
	mkdir -p $(KDEBUG)
	cat $^ > $@

$(KDEBUG)/.tpe-config: $(KDEBUG)/tpe.config $(TPE_MOD)/Kconfig | tpe-sync
	$(KMAKE) O=$(KDEBUG) KCONFIG_ALLCONFIG=$< allnoconfig >/dev/null
	$(TPE_MOD)/configs/check-config $(KDEBUG)/.config $<
	touch $@

kernel: tpe-sync $(KLEAN)/.tpe-config
	$(KMAKE) O=$(KLEAN) bzImage
	@echo "kernel: $(KLEAN)/arch/x86/boot/bzImage"

kernel-debug: tpe-sync $(KDEBUG)/.tpe-config
	$(KMAKE) O=$(KDEBUG) bzImage
	@echo "kernel-debug: $(KDEBUG)/arch/x86/boot/bzImage"

patches: tpe-sync
	$(TPE_MOD)/patches/make-patches $(KSRC) $(KPRISTINE) $(BUILD)/patches

# Also a step of `make check`, which builds first.
KCHECK_FAST = $(TOP)/tests/kernel-fast/run $(KDEBUG)/arch/x86/boot/bzImage
kernel-check-fast: kernel-debug
	$(MAKE) -C $(TOP)/tests/kernel-fast
	$(KCHECK_FAST)
