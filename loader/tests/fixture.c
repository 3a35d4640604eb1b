// SPDX-License-Identifier: GPL-2.0
/*
 * The temporary directory and files of the unit tests (fixture.h): one
 * place for what every unit test program needs.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fixture.h"

char fixture_dir[256];

int fixture_dir_make(void **state)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	(void)state;
	umask(022);	/* a group-writable config is refused */
	n = snprintf(fixture_dir, sizeof(fixture_dir), "%s/tpe-unit-XXXXXX",
		     tmp ? tmp : "/tmp");
	assert_true(n > 0 && (size_t)n < sizeof(fixture_dir));
	assert_non_null(mkdtemp(fixture_dir));
	/* mkdtemp() makes it 0700; the directory tests expect 0755 */
	assert_int_equal(chmod(fixture_dir, 0755), 0);
	return 0;
}

int fixture_dir_remove(void **state)
{
	char cmd[sizeof(fixture_dir) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture_dir);
	return system(cmd);
}

void fixture_path(char *out, size_t size, const char *name)
{
	int n = snprintf(out, size, "%s/%s", fixture_dir, name);

	assert_true(n > 0 && (size_t)n < size);
}

void fixture_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}
