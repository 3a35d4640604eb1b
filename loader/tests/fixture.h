/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests share: one temporary directory per test group, made
 * by the group's setup and removed by its teardown, and files written in it.
 */
#ifndef TPE_TEST_FIXTURE_H
#define TPE_TEST_FIXTURE_H

#include <stddef.h>

/* $TMPDIR/tpe-unit-XXXXXX (or /tmp/...), mode 0755; "" before setup */
extern char fixture_dir[256];

/* cmocka group setup and teardown; umask 022, as the programs assume */
int fixture_dir_make(void **state);
int fixture_dir_remove(void **state);

/* out = fixture_dir/name; fails the test if it does not fit */
void fixture_path(char *out, size_t size, const char *name);

/* Writes text to path (created or emptied); fails the test on an error. */
void fixture_write(const char *path, const char *text);

#endif
