// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of mount.c: what the mount table and sysfs say of a file's
 * file system, for the kernel's untrusted-fs check. A mountinfo file, a
 * sysfs tree and a /dev are made in the temporary directory (struct
 * fs_roots); the loop devices' backing files are real files there.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "judge.h"
#include "unit.h"

static char mi_path[1200], sys_path[1200], dev_path[1200], fs_path[1200];
static const struct fs_roots roots = { mi_path, sys_path, dev_path, fs_path };

/* fixture_dir/NAME: made as a directory (and its parents). */
static void dir(const char *name)
{
	char cmd[1400];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", fixture_dir, name);
	assert_int_equal(system(cmd), 0);
}

/* fixture_dir/NAME, a symbolic link to TARGET. */
static void link_to(const char *name, const char *target)
{
	char path[1300];

	fixture_path(path, sizeof(path), name);
	assert_int_equal(symlink(target, path), 0);
}

/* mount_judge() of the mount with ID id: found or not, f filled in. */
static int judge_mount(int id, struct tpe_facts *f)
{
	*f = (struct tpe_facts){ 0 };
	return mount_judge(&roots, id, 0, f);
}

static void test_fuse_and_idmapped(void **state)
{
	struct tpe_facts f;
	int id;

	(void)state;
	fixture_write(mi_path,
		"22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"40 22 0:40 / /mnt/f rw,nosuid - fuse.sshfs host: "
		"rw,user_id=1001,group_id=1001\n"
		"41 22 0:41 / /mnt/r rw - fuse.sshfs host: rw,user_id=0\n"
		"42 22 254:0 /srv /mnt/i rw,idmapped - ext4 /dev/vda rw\n");
	for (id = 22; id <= 43; id++) {
		assert_int_equal(judge_mount(id, &f),
				 id == 22 || (id >= 40 && id <= 42) ? 0 : -1);
		assert_int_equal(f.untrusted_fs != NULL, id == 40);
		assert_int_equal(f.idmapped, id == 42);
		facts_free(&f);
	}
	judge_mount(40, &f);
	assert_string_equal(f.untrusted_fs,
			    "fuse.sshfs mounted for user_id=1001 (fusermount3)");
	assert_string_equal(f.mount, "fuse.sshfs host: on /mnt/f");
	/* who made a super block is never seen, but for FUSE's user_id= */
	assert_int_equal(f.unseen, UNSEEN_MOUNTER);
	facts_free(&f);
}

/*
 * A disk is judged by its oldest mount here, the first line of its
 * major:minor: mountinfo lists mounts oldest first, whatever their IDs
 * (reused) say. A disk is a block device's, or of a file system that
 * /proc/filesystems does not mark nodev (btrfs: an anonymous 0:N).
 */
static void test_first_mount(void **state)
{
	static const struct {
		int id;
		const char *why, *mount;
	} cases[] = {
		{ 22, NULL, "ext4 /dev/vda on /; its oldest mount here: /, "
		  "not nosuid" },
		/* udisks2's mount of a stick, and a later bind of it */
		{ 30, "/dev/vdb was first mounted nosuid (its oldest mount "
		  "here: /media/alice/stick): mounted for a user",
		  "ext4 /dev/vdb on /media/alice/stick; its oldest mount "
		  "here: /media/alice/stick, nosuid" },
		{ 31, "/dev/vdb was first mounted nosuid (its oldest mount "
		  "here: /media/alice/stick): mounted for a user",
		  "ext4 /dev/vdb on /mnt/again; its oldest mount here: "
		  "/media/alice/stick, nosuid" },
		/* root's disk, and a nosuid bind of it (bubblewrap's) */
		{ 32, NULL, "ext4 /dev/vdc on /srv/disk; its oldest mount "
		  "here: /srv/disk, not nosuid" },
		{ 33, NULL, "ext4 /dev/vdc on /run/bwrap/usr; its oldest "
		  "mount here: /srv/disk, not nosuid" },
		/* a file system on no disk: nosuid says nothing */
		{ 34, NULL, "tmpfs tmpfs on /tmp" },
		/* ID 25 was reused for a later, nosuid mount of vdd */
		{ 25, NULL, "ext4 /dev/vdd on /b; its oldest mount here: /a, "
		  "not nosuid" },
		/* btrfs on a stick: a disk, with no block device of its own */
		{ 36, "/dev/vde1 was first mounted nosuid (its oldest mount "
		  "here: /media/alice/btrfs): mounted for a user",
		  "btrfs /dev/vde1 on /media/alice/btrfs; its oldest mount "
		  "here: /media/alice/btrfs, nosuid" },
		{ 37, NULL, "btrfs /dev/vdf on /srv/b; its oldest mount here: "
		  "/srv/b, not nosuid" },
	};
	struct tpe_facts f;

	(void)state;
	fixture_write(mi_path,
		"22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"30 22 254:16 / /media/alice/stick rw,nosuid,nodev,relatime - "
		"ext4 /dev/vdb rw\n"
		"31 22 254:16 / /mnt/again rw,relatime - ext4 /dev/vdb rw\n"
		"32 22 254:32 / /srv/disk rw,relatime - ext4 /dev/vdc rw\n"
		"33 22 254:32 /usr /run/bwrap/usr ro,nosuid,relatime - ext4 "
		"/dev/vdc rw\n"
		"34 22 0:40 / /tmp rw,nosuid,nodev - tmpfs tmpfs rw\n"
		"35 22 254:48 / /a rw,relatime - ext4 /dev/vdd rw\n"
		"25 22 254:48 / /b rw,nosuid,relatime - ext4 /dev/vdd rw\n"
		"36 22 0:50 / /media/alice/btrfs rw,nosuid,nodev - btrfs "
		"/dev/vde1 rw\n"
		"37 22 0:51 / /srv/b rw - btrfs /dev/vdf rw\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(judge_mount(cases[i].id, &f), 0);
		if (cases[i].why)
			assert_string_equal(f.untrusted_fs, cases[i].why);
		else
			assert_null(f.untrusted_fs);
		assert_string_equal(f.mount, cases[i].mount);
		assert_int_equal(f.unseen, cases[i].id == 34 ? UNSEEN_MOUNTER :
				 UNSEEN_MOUNTER | UNSEEN_FIRST_MOUNT);
		facts_free(&f);
	}
}

/*
 * A loop device (and its partition) is judged by its backing file, as
 * root with CHECK_FILE: a user's image in a world-writable directory is
 * refused; an image in this directory is trusted only when it is root's;
 * a deleted backing file cannot be judged, and says so.
 */
static void test_loop(void **state)
{
	char img[1300], ww[1300], mine[1300], want[2000];
	struct tpe_facts f;
	const unsigned int loop_unseen = UNSEEN_MOUNTER | UNSEEN_FIRST_MOUNT |
		UNSEEN_LOOP_FILE | UNSEEN_LOOP_BIND;

	(void)state;
	dir("imgs");
	fixture_path(ww, sizeof(ww), "imgs");
	assert_int_equal(chmod(ww, 01777), 0);
	fixture_path(img, sizeof(img), "imgs/user.img");
	fixture_write(img, "");
	fixture_path(mine, sizeof(mine), "root.img");
	fixture_write(mine, "");
	dir("sys/devices/virtual/block/loop0/loop");
	dir("sys/devices/virtual/block/loop0/loop0p1");
	dir("sys/devices/virtual/block/loop1/loop");
	dir("sys/devices/virtual/block/loop2/loop");
	fixture_write(strcat(strcpy(want, sys_path),
			     "/devices/virtual/block/loop0/loop0p1/partition"),
		      "1\n");
	snprintf(want, sizeof(want), "%s\n", img);
	fixture_write(strcat(strcpy(ww, sys_path),
			     "/devices/virtual/block/loop0/loop/backing_file"),
		      want);
	snprintf(want, sizeof(want), "%s\n", mine);
	fixture_write(strcat(strcpy(ww, sys_path),
			     "/devices/virtual/block/loop1/loop/backing_file"),
		      want);
	snprintf(want, sizeof(want), "%s/gone.img (deleted)\n", fixture_dir);
	fixture_write(strcat(strcpy(ww, sys_path),
			     "/devices/virtual/block/loop2/loop/backing_file"),
		      want);
	dir("sys/dev/block");
	link_to("sys/dev/block/7:0", "../../devices/virtual/block/loop0");
	link_to("sys/dev/block/259:0",
		"../../devices/virtual/block/loop0/loop0p1");
	link_to("sys/dev/block/7:1", "../../devices/virtual/block/loop1");
	link_to("sys/dev/block/7:2", "../../devices/virtual/block/loop2");
	fixture_write(mi_path,
		"50 1 7:0 / /mnt/user rw,relatime - ext4 /dev/loop0 rw\n"
		"51 1 259:0 / /mnt/part rw,relatime - ext4 /dev/loop0p1 rw\n"
		"52 1 7:1 / /mnt/root rw,relatime - ext4 /dev/loop1 rw\n"
		"53 1 7:2 / /mnt/gone rw,relatime - ext4 /dev/loop2 rw\n");

	snprintf(want, sizeof(want), "loop0's backing file %s is not a "
		 "root-owned file in a trusted path (check=dir-writable)",
		 img);
	for (int id = 50; id <= 51; id++) {
		assert_int_equal(judge_mount(id, &f), 0);
		assert_string_equal(f.untrusted_fs, want);
		/* no /dev/loop0 here to ask which file it holds */
		assert_int_equal(f.unseen, loop_unseen);
		facts_free(&f);
	}
	assert_int_equal(judge_mount(52, &f), 0);
	if (geteuid() == 0) {
		assert_null(f.untrusted_fs);
	} else {
		snprintf(want, sizeof(want), "loop1's backing file %s is not "
			 "a root-owned file in a trusted path "
			 "(check=dir-owner)", mine);
		assert_string_equal(f.untrusted_fs, want);
	}
	facts_free(&f);
	assert_int_equal(judge_mount(53, &f), 0);
	assert_null(f.untrusted_fs);
	assert_int_equal(f.unseen, loop_unseen);
	facts_free(&f);
}

static int setup(void **state)
{
	if (fixture_dir_make(state))
		return -1;
	fixture_path(mi_path, sizeof(mi_path), "mountinfo");
	fixture_path(sys_path, sizeof(sys_path), "sys");
	fixture_path(dev_path, sizeof(dev_path), "dev");
	fixture_path(fs_path, sizeof(fs_path), "filesystems");
	fixture_write(fs_path, "nodev\tsysfs\nnodev\ttmpfs\n\text4\n\tbtrfs\n");
	dir("sys/dev/block/254:0");
	dir("sys/dev/block/254:16");
	dir("sys/dev/block/254:32");
	dir("sys/dev/block/254:48");
	dir("dev");
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuse_and_idmapped),
		cmocka_unit_test(test_first_mount),
		cmocka_unit_test(test_loop),
	};

	return cmocka_run_group_tests_name("mount", tests, setup,
					   fixture_dir_remove);
}
