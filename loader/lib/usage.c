// SPDX-License-Identifier: GPL-2.0
/* Usage errors, said the same way by every program: what, then how. */
#include <stdarg.h>
#include <stdio.h>

#include "libtpe.h"

int usage_fail(const char *prog, const char *synopsis, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(synopsis, stderr);
	return -1;
}

int usage_fail_getopt(const char *prog, const char *synopsis, int ch,
		      int opt, const char *arg)
{
	if (ch == ':')
		return usage_fail(prog, synopsis, "%s needs an argument",
				  arg);
	if (opt)
		return usage_fail(prog, synopsis, "unknown option -%c", opt);
	return usage_fail(prog, synopsis, "unknown option %s", arg);
}
