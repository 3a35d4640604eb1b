// SPDX-License-Identifier: GPL-2.0
/* Result lines (tests/README.md, "The result contract"); see results.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "results.h"

const char *prog_name = "hardening";
int nr_ok, nr_fail;

void check(bool ok, const char *reason, const char *fmt, ...)
{
	va_list ap;

	printf("%s - %s: ", ok ? "ok" : "not ok", prog_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok)
		printf(": %s", reason && *reason ? reason : "failed");
	putchar('\n');
	fflush(stdout);
	if (ok)
		nr_ok++;
	else
		nr_fail++;
}

void note(const char *fmt, ...)
{
	va_list ap;

	printf("# %s: ", prog_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void die(const char *fmt, ...)
{
	va_list ap;
	int err = errno;

	printf("not ok - %s: setup: ", prog_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (errno %s)\n", errno_name(err));
	fflush(stdout);
	exit(1);
}

const char *errno_name(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "success";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case EFBIG: return "EFBIG";
	case ENOEXEC: return "ENOEXEC";
	case ETXTBSY: return "ETXTBSY";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	case EROFS: return "EROFS";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

