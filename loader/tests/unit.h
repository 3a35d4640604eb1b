/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests of libtpe and tpe-load share (one test program per
 * unit, test_UNIT.c): a fake user and group database, so that no test
 * depends on the machine's /etc/passwd, and a tpe.conf in the group's
 * temporary directory (fixture.h) loaded through it.
 */
#ifndef TPE_TEST_UNIT_H
#define TPE_TEST_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "conf.h"

/* A root 0755 directory and a root 0755 regular file, as stat() gives them. */
#define DIR_OK	{ 0, S_IFDIR | 0755 }
#define FILE_OK	{ 0, S_IFREG | 0755 }

/*
 * users root 0, bob 1002, alice 1001, big 4000000000, odd"name 1500;
 * groups root 0, wheel 10, tpe-trusted 2000
 */
extern const struct tpe_resolver fake_db;

extern char conf_path[1100];	/* fixture_dir/tpe.conf */
extern char err[ERRLEN];	/* the last error of the helpers below */

/* cmocka group setup: the temporary directory and conf_path in it */
int setup_conf(void **state);

/* Loads path, or text as conf_path; warnings to *warnings (caller frees). */
int load_path(const char *path, struct tpe_policy *p, char **warnings);
int load(const char *text, struct tpe_policy *p, char **warnings);
/* Loads text and fails the test on an error. */
void load_ok(const char *text, struct tpe_policy *p);

/* ids is the n IDs that follow, in that order. */
void assert_ids(const struct tpe_ids *ids, size_t n, ...);

#endif
