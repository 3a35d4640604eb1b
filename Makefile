# tpe: Trusted Path Execution for Linux. Entry points; see README.md.
#
#   make deps     install the Debian packages everything below needs (root);
#                 demo and check run it first, it installs only what is missing
#   make all      build kernels, loader and image
#   make demo     boot the demo image in QEMU with TPE enforcing
#   make check    run every test; ends with "N passed, N failed, N skipped"
#   make bench    benchmark (not part of check)
#   make soak     exec under reload at full scale (not part of check)
#   make deb      the tpe-load Debian package in $(BUILD)/deb, lintian'd
#
# Everything generated goes under $(BUILD), which is never committed.

BUILD ?= $(CURDIR)/build
TOP := $(CURDIR)
export BUILD TOP

.PHONY: all deps loader install check check-space bench clean deb
all: loader kernel kernel-debug image

# The tpe-load package. The source package is built from a copy of the
# tree without build/ and .git, so dpkg-buildpackage writes its results
# next to it, in $(DEB); rebuilt when what goes into it changes. Without
# its tests (nocheck): the loader's tests are steps of their own, and
# clean-root builds the package with them, from Build-Depends alone.
DEB := $(BUILD)/deb
DEB_VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
DEB_ARCH := $(shell dpkg --print-architecture)
DEB_SRC := $(DEB)/tpe-$(DEB_VERSION)
TPE_LOAD_DEB := $(DEB)/tpe-load_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_INPUTS := $(wildcard loader/* loader/*/* loader/*/*/* units/* etc/* \
	debian/* debian/source/* debian/tests/*) \
	module/include/uapi/linux/tpe.h
export DEB

deb: $(TPE_LOAD_DEB)
$(TPE_LOAD_DEB): $(DEB_INPUTS)
	rm -rf $(DEB_SRC) $(DEB)/tpe_* $(DEB)/tpe-load_* $(DEB)/tpe-load-dbgsym_*
	mkdir -p $(DEB_SRC)
	rsync -a --exclude=/build --exclude=/.git ./ $(DEB_SRC)/
	cd $(DEB_SRC) && DEB_BUILD_OPTIONS="nocheck $$DEB_BUILD_OPTIONS" dpkg-buildpackage -us -uc
	rm -rf $(DEB_SRC)
	lintian --fail-on error,warning $(DEB)/tpe_$(DEB_VERSION)_$(DEB_ARCH).changes || \
		{ rm -f $@; exit 1; }
	@echo "deb: $@"

include module/kbuild/kernel.mk
include tests/tests.mk

deps:
	tests/install-deps

loader:
	$(MAKE) -C loader

install:
	$(MAKE) -C loader install

# Each step prints "ok - ..." / "not ok - ..." lines; tests/run-check adds
# them up. Everything boots the debug kernel: one kernel build for the tests.
# Two at a time (CHECK_JOBS): first the kernel build beside the image and
# clean-root (every check that needs no kernel build: the loader's tests,
# checkpatch, kernel-lint, Debian's config, the package, in a fresh root),
# then, once the kernel and the image are built (--wait=build,image), the
# guest boots, longest first: each guest is one QEMU, and on 2 cores two
# side by side take less time than one after the other. A step takes a
# core of its own: the first boot may run beside what is left of
# clean-root, never a third job beside two guests (their audit and timing
# checks want the CPU). The first boot goes beside the packaging of the
# kernel it boots (bindeb-pkg, for e2e; QEMU has read the bzImage by then),
# not after it. Suites that want the same kernel command line share
# a boot (a systemd boot under TCG costs a minute or more): e2e's runs the
# rollout first, while the boot's log holds no other suite's denials (it
# puts back what it changed). The selftests with and without tpe are
# compared once both boots are done.
RUN_SUITE = tests/image/run-suite
CHECK_JOBS ?= 2
CHECK_PACKAGE = $(MAKE) -s $(E2E_KERNEL) && $(MAKE) -s -C tests/kernel-fast && \
	echo "ok - build: the debug kernel package and the fast tier"
CHECK_STEPS = \
	'build=$(MAKE) -s kernel-debug && echo "ok - build: the debug kernel"' \
	'image=$(MAKE) -s image && echo "ok - build: the test image"' \
	'clean-root=tests/clean-root' \
	--wait=build,image \
	'hardening=$(RUN_SUITE) hardening --kernel $(DEBUG_BZIMAGE) --timeout 2400 --cpus 2' \
	'package=$(CHECK_PACKAGE)' \
	'with-tpe=tests/image/check-with-without with $(KDEBUG)' \
	'e2e=$(RUN_SUITE) rollout,e2e --name e2e --kernel $(E2E_KERNEL) --timeout 3000 --kunit' \
	'without-tpe=tests/image/check-with-without without $(KDEBUG)' \
	'bench-smoke=tests/bench/run --smoke --kernel $(DEBUG_BZIMAGE)' \
	'kernel-fast=$(KCHECK_FAST)' \
	--wait=with-tpe,without-tpe \
	'with-without=tests/image/check-with-without compare'

# A fresh `make check` leaves about 8 GB under $(BUILD) (the clean root
# 3.7 GB, the kernel tree 1.7, the image 1.4) and needs more while it runs;
# on a full disk every step fails at once, each in words of its own. So the
# disk is checked first: what $(BUILD) holds already counts as room.
CHECK_SPACE_GB ?= 12
check-space:
	@mkdir -p $(BUILD); \
	free=$$(df -Pk $(BUILD) | awk 'NR == 2 { print $$4 }'); \
	held=$$(du -sxk $(BUILD) | cut -f1); \
	if [ $$(((free + held) / 1048576)) -lt $(CHECK_SPACE_GB) ]; then \
		echo "make check: needs $(CHECK_SPACE_GB) GB on $(BUILD)'s file system:" \
			"$$((free / 1048576)) GB free, $$((held / 1048576)) GB in $(BUILD)" >&2; \
		exit 1; \
	fi

# deps first: on a fresh machine `make check` installs what it needs. The
# kernel tree is unpacked and synced once, before the steps that share it.
check: check-space deps kernel-src
	tests/run-check -j $(CHECK_JOBS) $(CHECK_STEPS)

bench: kernel image
	tests/bench/run

clean:
	rm -rf $(BUILD)
	$(MAKE) -C loader clean
