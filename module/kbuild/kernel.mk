# Kernel side of tpe: included by the top-level Makefile (BUILD, TOP set).
#
#   make kernel             lean kernel   $(BUILD)/kernel/lean/arch/x86/boot/bzImage
#   make kernel-debug       debug kernel  $(BUILD)/kernel/debug/arch/x86/boot/bzImage
#   make patches            format-patch series in $(BUILD)/patches, checkpatch'd
#   make kernel-check-fast  boot the debug kernel with the busybox test initramfs
#   make kunit              tpe's KUnit suites by the kernel's own kunit.py
#                           (not in `make check`, which runs them at boot)
#   make kernel-deb         linux-image-$(KVERSION)-tpe (lean) in $(BUILD)/deb
#   make kernel-deb KCONFIG=debian   the same from Debian's own config plus tpe
#                           (hours on 2 cores; not in `make check`)
#   make kernel-deb-debug   linux-image-$(KVERSION)-tpe-debug, the test kernel
#   make kernel-debian-config  only resolve and check that Debian config
#
# One source tree, $(BUILD)/linux, unpacked once; module/ is synced into
# security/tpe by content, so editing module/ rebuilds only what changed.
# Needs only make, tar, patch, gcc and the kernel's build deps.
#
# module/ holds what goes into the kernel tree; this directory, module/kbuild,
# what builds it: this file, the config fragments and their checks
# (configs/), the hook-up patch and the series' messages (patches/).

TPE_MOD := $(TOP)/module
TPE_KBUILD := $(TPE_MOD)/kbuild
KSRC_TAR ?= /usr/src/linux-source-6.12.tar.xz
KSRC := $(BUILD)/linux
KPRISTINE := $(BUILD)/linux-pristine
KLEAN := $(BUILD)/kernel/lean
KDEBUG := $(BUILD)/kernel/debug
KJOBS ?= 3
# The build number (`uname -v`: #1) is fixed: bindeb-pkg's own `make all`
# passes its package revision as KBUILD_BUILD_VERSION, and any other number
# than the build's relinks vmlinux (and the bzImage the guests boot) under
# the steps that boot it. deb-from-build gives the package this revision.
KBUILD_REV := 1
KMAKE = $(MAKE) -C $(KSRC) -j$(KJOBS) CC="ccache gcc" HOSTCC="ccache gcc" \
	KBUILD_BUILD_VERSION=$(KBUILD_REV)
# ccache keys on paths relative to $(BUILD) (no debug info, so not on the
# working directory either): a fresh clone elsewhere on this machine, as CI
# makes, hits what the last build cached instead of compiling the kernel cold.
# Depend mode: on a miss ccache takes the headers from the compiler's own
# dependency file (kbuild passes -MMD) instead of running the preprocessor
# once more; a cold kernel build costs a quarter less CPU that way.
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_NOHASHDIR := 1
export CCACHE_DEPEND := 1
# Release names, so a packaged kernel never claims to be Debian's own.
KMAKE_LEAN = $(KMAKE) O=$(KLEAN) LOCALVERSION=-tpe
KMAKE_DEBUG = $(KMAKE) O=$(KDEBUG) LOCALVERSION=-tpe-debug
# The patches to the tree, applied in this order: the two LSM hooks tpe
# needs (a new mount with its flags, a loop device's backing file), then the
# hook-up (Kconfig, Makefile, LSM id and count, MAINTAINERS, docs index).
HOOKUP := $(addprefix $(TPE_KBUILD)/patches/,hook-sb-mounted.patch \
	hook-bdev-backing-file.patch hookup.patch)
COPY := $(TPE_KBUILD)/copy-changed
# Pristine tree files the patches touch, for restoring and for `patches`.
HOOKUP_FILES = $(sort $(shell sed -n 's|^+++ b/||p' $(HOOKUP)))

.PHONY: kernel kernel-debug kernel-src patches kernel-check-fast tpe-sync kernel-lint kunit \
	kernel-deb kernel-deb-debug kernel-debian-config

# xz -T0: Debian's tarball is xz in 62 blocks, which xz decompresses on
# every core (10 s on one here, 5 on two) where tar's own xz takes one.
$(KSRC)/.tpe-unpacked:
	test -f $(KSRC_TAR) || $(TOP)/tests/install-deps
	rm -rf $(KSRC) $(KSRC).tmp
	mkdir -p $(KSRC).tmp
	tar -I 'xz -T0' -xf $(KSRC_TAR) -C $(KSRC).tmp --strip-components=1
	mv $(KSRC).tmp $(KSRC)
	touch $@

# Apply the patches to pristine copies of the files they touch (saved on
# first use), then copy the results in by content: re-running it after a
# patch changed rebuilds only what depends on what really changed.
$(KSRC)/.tpe-hookup: $(HOOKUP) $(KSRC)/.tpe-unpacked
	cd $(KSRC) && for f in $(HOOKUP_FILES); do \
		[ -f $(KPRISTINE)/$$f ] || { mkdir -p $(KPRISTINE)/$$(dirname $$f) && \
			cp $$f $(KPRISTINE)/$$f; }; \
	done
	rm -rf $(KSRC).hookup
	cp -r $(KPRISTINE) $(KSRC).hookup
	for p in $(HOOKUP); do \
		patch -d $(KSRC).hookup -p1 -s --no-backup-if-mismatch < $$p || exit 1; \
	done
	for f in $(HOOKUP_FILES); do $(COPY) $(KSRC).hookup/$$f $(KSRC)/$$f; done
	rm -rf $(KSRC).hookup
	touch $@

# Copy by content: unchanged files keep their time stamps. security/tpe gets
# module/'s kernel sources (*.c, *.h, Kconfig, Makefile, .kunitconfig) and
# nothing else.
TPE_SRCS = $(wildcard $(TPE_MOD)/*.c $(TPE_MOD)/*.h) $(TPE_MOD)/Kconfig $(TPE_MOD)/Makefile \
	$(TPE_MOD)/.kunitconfig
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
$(KLEAN)/.tpe-config: $(TPE_KBUILD)/configs/lean.config $(TPE_MOD)/Kconfig | tpe-sync
	mkdir -p $(KLEAN)
	$(KMAKE) O=$(KLEAN) KCONFIG_ALLCONFIG=$< allnoconfig >/dev/null
	$(TPE_KBUILD)/configs/check-config $(KLEAN)/.config $<
	touch $@

$(KDEBUG)/tpe.config: $(TPE_KBUILD)/configs/lean.config $(TPE_KBUILD)/configs/debug.config
	mkdir -p $(KDEBUG)
	cat $^ > $@

$(KDEBUG)/.tpe-config: $(KDEBUG)/tpe.config $(TPE_MOD)/Kconfig | tpe-sync
	$(KMAKE) O=$(KDEBUG) KCONFIG_ALLCONFIG=$< allnoconfig >/dev/null
	$(TPE_KBUILD)/configs/check-config $(KDEBUG)/.config $<
	touch $@

kernel: tpe-sync $(KLEAN)/.tpe-config
	$(KMAKE_LEAN) bzImage
	@echo "kernel: $(KLEAN)/arch/x86/boot/bzImage"

kernel-debug: tpe-sync $(KDEBUG)/.tpe-config
	$(KMAKE_DEBUG) bzImage
	@echo "kernel-debug: $(KDEBUG)/arch/x86/boot/bzImage"

patches: tpe-sync
	$(TPE_KBUILD)/patches/make-patches $(KSRC) $(KPRISTINE) $(BUILD)/patches

# A step of `make check`: what a patch to security/ meets before a human
# reads it, each with zero reports on security/tpe. The debug build's own
# make (same LOCALVERSION and compilers, so nothing else rebuilds) with
# sparse and W=1 recompiles security/tpe (its log must show sparse's
# CHECK lines, so MAKEFLAGS loses -s); kernel-doc -Wall reads every file;
# coccicheck runs every semantic patch in report mode (M= absolute: a
# relative one names the object tree, where spatch finds no source).
KLINT_LOGS := $(BUILD)/logs/kernel-lint
KLINT_RESULT := $(TOP)/tests/kernel-lint-result
kernel-lint: tpe-sync $(KDEBUG)/.tpe-config
	@mkdir -p $(KLINT_LOGS)
	@rc=0; \
	: >$(KLINT_LOGS)/sparse-w1.log; : >$(KLINT_LOGS)/coccicheck.log; \
	command -v sparse >/dev/null || echo "error: no sparse" >>$(KLINT_LOGS)/sparse-w1.log; \
	MAKEFLAGS= $(KMAKE_DEBUG) C=2 W=1 security/tpe/ >>$(KLINT_LOGS)/sparse-w1.log 2>&1 || \
		echo "error: make C=2 W=1 failed" >>$(KLINT_LOGS)/sparse-w1.log; \
	grep -q 'CHECK .*security/tpe/lsm.c' $(KLINT_LOGS)/sparse-w1.log || \
		echo "error: sparse did not check security/tpe/lsm.c" >>$(KLINT_LOGS)/sparse-w1.log; \
	$(KLINT_RESULT) "sparse (C=2) and W=1 on security/tpe" $(KLINT_LOGS)/sparse-w1.log \
		'security/tpe/.*(warning|error)|^error: ' || rc=1; \
	{ echo "kernel-doc -none -Wall security/tpe"; cd $(KSRC) && \
		scripts/kernel-doc -none -Wall security/tpe/*.[ch] 2>&1; } \
		>$(KLINT_LOGS)/kernel-doc.log; \
	$(KLINT_RESULT) "kernel-doc -Wall on security/tpe" $(KLINT_LOGS)/kernel-doc.log \
		'warning|error' || rc=1; \
	command -v spatch >/dev/null || echo "error: no spatch" >>$(KLINT_LOGS)/coccicheck.log; \
	MAKEFLAGS= $(KMAKE_DEBUG) coccicheck MODE=report M=$(KSRC)/security/tpe J=2 \
		>>$(KLINT_LOGS)/coccicheck.log 2>&1 || \
		echo "error: make coccicheck failed" >>$(KLINT_LOGS)/coccicheck.log; \
	grep -q -- '--dir $(KSRC)/security/tpe ' $(KLINT_LOGS)/coccicheck.log || \
		echo "error: spatch did not read $(KSRC)/security/tpe" >>$(KLINT_LOGS)/coccicheck.log; \
	$(KLINT_RESULT) "coccicheck (report) on security/tpe" $(KLINT_LOGS)/coccicheck.log \
		'^security/tpe/|/security/tpe/[^ ]*:[0-9]+|^error: ' || rc=1; \
	exit $$rc

# Also a step of `make check`, which builds first.
KCHECK_FAST = $(TOP)/tests/kernel-fast/run $(KDEBUG)/arch/x86/boot/bzImage
kernel-check-fast: kernel-debug
	$(MAKE) -C $(TOP)/tests/kernel-fast
	$(KCHECK_FAST)

# What a security/ reviewer runs: kunit.py builds a small x86_64 kernel
# from module/.kunitconfig (as security/tpe/.kunitconfig) in $(BUILD)/kunit
# and boots it under QEMU. Its x86_64 config names no accelerator, so QEMU
# takes TCG by default; -accel tcg says so, as for every guest here.
KUNIT_BUILD := $(BUILD)/kunit
kunit: tpe-sync
	cd $(KSRC) && tools/testing/kunit/kunit.py run --kunitconfig=security/tpe \
		--arch=x86_64 --qemu_args='-accel tcg' --build_dir=$(KUNIT_BUILD) \
		--jobs=$(KJOBS) --make_options='CC=ccache gcc' \
		--make_options='HOSTCC=ccache gcc'

# Debian packages of a built kernel, by the kernel's own bindeb-pkg: it runs
# dpkg-buildpackage in the build dir, which writes to the dir above it.
# linux-image-RELEASE carries vmlinuz, config and System.map; bindeb-pkg
# also makes linux-libc-dev (and linux-headers where there are modules).
KCONFIG ?= lean
KDEBIAN := $(BUILD)/kernel/debian
DEB ?= $(BUILD)/deb
# deb-from-build DIR MAKE: package the kernel built in DIR; results to $(DEB).
define deb-from-build
	rm -f $(dir $(1))*.deb $(dir $(1))*.changes $(dir $(1))*.buildinfo
	$(2) KDEB_CHANGELOG_DIST=bookworm \
		KDEB_PKGVERSION=$$($(KMAKE) -s kernelversion)-$(KBUILD_REV) bindeb-pkg
	mkdir -p $(DEB)
	rm -f $(DEB)/linux-image-$$(cat $(1)/include/config/kernel.release)_*
	mv $(dir $(1))*.deb $(dir $(1))*.changes $(dir $(1))*.buildinfo $(DEB)/
endef

ifeq ($(KCONFIG),debian)
# -d: with modules there is a linux-headers package, whose build-depends
# name gcc-x86-64-linux-gnu, which bookworm does not have; gcc builds it.
# No -dbg package: Debian's config has debug info, a vmlinux of gigabytes.
kernel-deb: kernel-debian-config
	$(call deb-from-build,$(KDEBIAN),$(KMAKE_DEBIAN) \
		DPKG_FLAGS="-d -Ppkg.linux-upstream.nokerneldbg")
else ifeq ($(KCONFIG),lean)
kernel-deb: kernel
	$(call deb-from-build,$(KLEAN),$(KMAKE_LEAN))
else
kernel-deb:
	@echo "kernel-deb: KCONFIG=lean or KCONFIG=debian, not $(KCONFIG)" >&2; exit 2
endif

kernel-deb-debug: kernel-debug
	$(call deb-from-build,$(KDEBUG),$(KMAKE_DEBUG))

# Debian's own amd64 config (package linux-config-6.12) with tpe added: tpe
# last in CONFIG_LSM after Debian's list. check-debian-config then holds the
# resolved .config to that: tpe in, every other security option as Debian
# had it. Module signing uses a key made at build time (Debian's is not
# ours to have).
DEBIAN_CONFIG ?= /usr/src/linux-config-6.12/config.amd64_none_amd64.xz
KMAKE_DEBIAN = $(KMAKE) O=$(KDEBIAN) LOCALVERSION=-tpe
$(KDEBIAN)/.tpe-config: $(DEBIAN_CONFIG) $(TPE_MOD)/Kconfig \
		| tpe-sync
	test -f $(DEBIAN_CONFIG) || $(TOP)/tests/install-deps
	mkdir -p $(KDEBIAN)
	xzcat $(DEBIAN_CONFIG) >$(KDEBIAN)/debian.config
	{ cat $(KDEBIAN)/debian.config; \
	  echo 'CONFIG_SECURITY_TPE=y'; \
	  sed -n 's/^CONFIG_LSM="\(.*\)"$$/CONFIG_LSM="\1,tpe"/p' $(KDEBIAN)/debian.config; \
	  echo 'CONFIG_SYSTEM_TRUSTED_KEYS=""'; \
	  echo 'CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"'; \
	} >$(KDEBIAN)/.config
	$(KMAKE_DEBIAN) olddefconfig >/dev/null
	touch $@

# Also a step of `make check`: it prints result lines every time.
kernel-debian-config: $(KDEBIAN)/.tpe-config
	$(TPE_KBUILD)/configs/check-debian-config $(KDEBIAN)/debian.config \
		$(KDEBIAN)/.config $(KSRC)
