// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of facts.c: a path as exec meets it, on real files in the
 * temporary directory: symbolic links resolved and the resolved file's
 * directory judged, a script's #! interpreter as binfmt_script reads it,
 * its mount found by statx()'s ID in a mount table, "/" with no parent,
 * and a directory refused.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "judge.h"
#include "unit.h"

/* MOUNTINFO: one line, PATH's own mount by its statx() ID, on /fixture. */
static void mount_table(const char *path, const char *mountinfo)
{
	struct statx stx;
	char line[128];

	assert_int_equal(statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx), 0);
	assert_true(stx.stx_mask & STATX_MNT_ID);
	snprintf(line, sizeof(line),
		 "%llu 1 0:99 / /fixture rw,relatime - tmpfs tmpfs rw\n",
		 (unsigned long long)stx.stx_mnt_id);
	fixture_write(mountinfo, line);
}

static void test_gather(void **state)
{
	char sub[1200], script[1300], link[1300], want[1400], mi[1300];
	char *interp;
	struct tpe_facts f;
	/* no /sys and /dev of disks: the mount is no disk's */
	const struct fs_roots roots = {
		mi, "/nonexistent", "/nonexistent", "/proc/filesystems",
	};

	(void)state;
	fixture_path(sub, sizeof(sub), "sub");
	assert_int_equal(mkdir(sub, 0775), 0);
	assert_int_equal(chmod(sub, 0775), 0);
	fixture_path(script, sizeof(script), "sub/run");
	fixture_write(script, "#! /usr/bin/env  python3 -u\nprint()\n");
	assert_int_equal(chmod(script, 0750), 0);
	fixture_path(link, sizeof(link), "link");
	assert_int_equal(symlink("sub/run", link), 0);

	fixture_path(mi, sizeof(mi), "mountinfo");
	fixture_write(mi, "");
	assert_int_equal(facts_gather_in(link, &roots, 0, &f, &interp, err), 0);
	assert_string_equal(f.path, link);
	assert_string_equal(f.resolved, script);
	assert_string_equal(f.dir_path, sub);
	assert_int_equal(f.file.mode, S_IFREG | 0750);
	assert_int_equal(f.dir.mode, S_IFDIR | 0775);
	assert_int_equal(f.file.uid, geteuid());
	assert_false(f.no_parent);
	/* binfmt_script: the first word after #! and blanks */
	assert_string_equal(interp, "/usr/bin/env");
	/*
	 * Not the real mount table, which a chroot (a package build) does
	 * not show: one that has the file's mount by its statx() ID.
	 */
	assert_null(f.mount);
	free(interp);
	facts_free(&f);
	mount_table(script, mi);
	assert_int_equal(facts_gather_in(link, &roots, 0, &f, &interp, err), 0);
	assert_string_equal(f.mount, "tmpfs tmpfs on /fixture");
	assert_true(f.unseen & UNSEEN_MOUNTER);
	assert_null(f.untrusted_fs);
	free(interp);
	facts_free(&f);

	assert_int_equal(facts_gather("/", &f, &interp, err), -1);
	assert_string_equal(err, "/: is a directory");
	assert_int_equal(facts_gather(sub, &f, &interp, err), -1);
	snprintf(want, sizeof(want), "%s: is a directory", sub);
	assert_string_equal(err, want);
	snprintf(want, sizeof(want), "%s/none", fixture_dir);
	assert_int_equal(facts_gather(want, &f, &interp, err), -1);
	strcat(want, ": No such file or directory");
	assert_string_equal(err, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gather),
	};

	return cmocka_run_group_tests_name("facts", tests, setup_conf,
					   fixture_dir_remove);
}
