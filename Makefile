# tpe: Trusted Path Execution for Linux. Entry points; see README.md.
#
#   make deps     install the Debian packages everything below needs (root)
#   make all      build kernels, loader and image
#   make demo     boot the demo image in QEMU with TPE enforcing
#   make check    run every test; ends with "N passed, N failed"
#   make bench    benchmark (not part of check)
#
# Everything generated goes under $(BUILD), which is never committed.

BUILD ?= $(CURDIR)/build
TOP := $(CURDIR)
export BUILD TOP

.PHONY: all deps loader check bench demo clean
all: loader kernel kernel-debug image

include module/kernel.mk
include tests/tests.mk

deps:
	tests/install-deps

loader:
	$(MAKE) -C loader

clean:
	rm -rf $(BUILD)
	$(MAKE) -C loader clean
