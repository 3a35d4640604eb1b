// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of judge.c: the kernel's decision from made-up facts;
 * judge_identity() and judge_path() alone, explain_judge() as they tie
 * together, and the check names of the kernel's table.
 */
#define _GNU_SOURCE

#include <linux/tpe.h>

#include "judge.h"
#include "unit.h"

static const char *judge(uint32_t flags, uint32_t *users, size_t nu,
			 uint32_t *groups, size_t ng,
			 const struct tpe_identity *who,
			 const struct tpe_facts *f, struct tpe_verdict *v)
{
	struct tpe_policy p = { .flags = flags, .users = { users, nu },
				.groups = { groups, ng } };

	explain_judge(&p, who, f, v);
	return v->check ? tpe_check_names[v->check] : "ok";
}

static void test_explain_judge(void **state)
{
	uint32_t alice_groups[] = { 1001 }, bob_groups[] = { 1002, 2000 };
	struct tpe_identity root = { 0, 0, NULL, 0, 0 },
		alice = { 1001, 1001, alice_groups, 1, 0 },
		bob = { 1002, 1002, bob_groups, 2, 0 };
	struct tpe_facts ok = { .dir = DIR_OK, .file = FILE_OK },
		ww = { .dir = { 0, S_IFDIR | 01777 }, .file = FILE_OK },
		gw = { .dir = { 0, S_IFDIR | 0775 }, .file = FILE_OK },
		mine = { .dir = { 1001, S_IFDIR | 0755 }, .file = FILE_OK },
		bobs = { .dir = { 1002, S_IFDIR | 0755 },
			 .file = { 1002, S_IFREG | 0755 } },
		wfile = { .dir = DIR_OK, .file = { 0, S_IFREG | 0757 } },
		wdev = { .dir = DIR_OK, .file = { 0, S_IFCHR | 0666 } },
		ufile = { .dir = DIR_OK, .file = { 1001, S_IFREG | 0755 } },
		fuse = { .dir = DIR_OK, .file = FILE_OK,
			 .untrusted_fs = "fuse" },
		noparent = { .dir = DIR_OK, .file = FILE_OK, .no_parent = 1 };
	uint32_t tg[] = { 2000 }, tu[] = { 1001 }, eg[] = { 1002 };
	const uint32_t E = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP;
	struct tpe_verdict v;

	(void)state;
	/* root: never checked, whatever the facts */
	assert_string_equal(judge(E, NULL, 0, NULL, 0, &root, &ww, &v), "ok");
	assert_true(v.root && !v.checked);
	/* untrusted alice: every check, in the kernel's order */
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &ok, &v), "ok");
	assert_true(v.checked && !v.trusted && v.listed == LISTED_NONE);
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &ww, &v),
			    "dir-writable");
	assert_true(explain_refused(&v) && v.enforce);
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &gw, &v),
			    "dir-writable");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &mine, &v),
			    "dir-owner");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &wfile, &v),
			    "file-writable");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &wdev, &v),
			    "ok");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &ufile, &v),
			    "ok");
	assert_string_equal(judge(E | TPE_POLICY_CHECK_FILE, NULL, 0, tg, 1,
				  &alice, &ufile, &v), "file-owner");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &fuse, &v),
			    "untrusted-fs");
	/* untrusted-fs comes before the directory's owner */
	fuse.dir = mine.dir;
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &fuse, &v),
			    "untrusted-fs");
	assert_string_equal(judge(E, NULL, 0, tg, 1, &alice, &noparent, &v),
			    "no-parent");
	/* permissive: still refused by the rule, not enforced */
	assert_string_equal(judge(TPE_POLICY_MMAP, NULL, 0, tg, 1, &alice,
				  &ww, &v), "dir-writable");
	assert_true(explain_refused(&v) && !v.enforce);
	/* bob, trusted through a supplementary group: not checked */
	assert_string_equal(judge(E, NULL, 0, tg, 1, &bob, &ww, &v), "ok");
	assert_true(v.trusted && !v.checked && v.listed == LISTED_GROUP &&
		    v.listed_id == 2000);
	/* ... through his egid, and by uid first */
	assert_string_equal(judge(E, NULL, 0, eg, 1, &bob, &ww, &v), "ok");
	assert_true(v.listed == LISTED_EGID && v.listed_id == 1002);
	assert_string_equal(judge(E, (uint32_t[]){ 1002 }, 1, eg, 1, &bob,
				  &ww, &v), "ok");
	assert_true(v.listed == LISTED_EUID);
	/* STRICT: trusted bob is checked, but may own his directory */
	assert_string_equal(judge(E | TPE_POLICY_STRICT, NULL, 0, tg, 1, &bob,
				  &ww, &v), "dir-writable");
	assert_string_equal(judge(E | TPE_POLICY_STRICT, NULL, 0, tg, 1, &bob,
				  &bobs, &v), "ok");
	assert_int_equal(v.owner, 1002);
	assert_string_equal(judge(E | TPE_POLICY_STRICT, NULL, 0, tg, 1,
				  &alice, &bobs, &v), "dir-owner");
	assert_string_equal(judge(E | TPE_POLICY_STRICT | TPE_POLICY_CHECK_FILE,
				  NULL, 0, tg, 1, &bob, &ufile, &v),
			    "file-owner");
	/* INVERT: the lists name the untrusted; alice listed, bob not */
	assert_string_equal(judge(E | TPE_POLICY_INVERT, tu, 1, NULL, 0,
				  &alice, &ww, &v), "dir-writable");
	assert_true(!v.trusted && v.listed == LISTED_EUID);
	assert_string_equal(judge(E | TPE_POLICY_INVERT, tu, 1, NULL, 0,
				  &bob, &ww, &v), "ok");
	assert_true(v.trusted && v.listed == LISTED_NONE);
	/* no group list: groups are not looked at (tpe_ids_listed) */
	assert_string_equal(judge(E | TPE_POLICY_INVERT, tu, 1, NULL, 0,
				  &bob, &ww, &v), "ok");
}

/* judge_identity(): the lists alone, as tpe_ids_trusted() reads them. */
static void test_judge_identity(void **state)
{
	uint32_t bob_groups[] = { 1002, 2000 }, tg[] = { 2000 },
		 eg[] = { 1002 }, tu[] = { 1001 };
	struct tpe_identity root = { 0, 0, NULL, 0, 0 },
		alice = { 1001, 1001, NULL, 0, 0 },
		bob = { 1002, 1002, bob_groups, 2, 0 },
		ghost = { 1002, 1002, bob_groups + 1, 1, 1 };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE };
	enum listed_by by;
	uint32_t id;

	(void)state;
	/* no lists: nobody, not even root (the caller's, as in the kernel) */
	assert_false(judge_identity(&p, &root, &by, &id));
	assert_true(by == LISTED_NONE && id == 0);
	/* a user list: the euid */
	p.users = (struct tpe_ids){ tu, 1 };
	assert_true(judge_identity(&p, &alice, &by, &id));
	assert_true(by == LISTED_EUID && id == 1001);
	assert_false(judge_identity(&p, &bob, &by, &id));
	assert_true(by == LISTED_NONE && id == 0);
	/* a group list: a supplementary group, then the egid before it */
	p.groups = (struct tpe_ids){ tg, 1 };
	assert_true(judge_identity(&p, &bob, &by, &id));
	assert_true(by == LISTED_GROUP && id == 2000);
	p.groups = (struct tpe_ids){ eg, 1 };
	assert_true(judge_identity(&p, &bob, &by, &id));
	assert_true(by == LISTED_EGID && id == 1002);
	/* a UID with no passwd entry has no egid to list */
	assert_false(judge_identity(&p, &ghost, &by, &id));
	assert_true(by == LISTED_NONE);
	/* STRICT is the path's business: trust is the same */
	p.flags |= TPE_POLICY_STRICT;
	assert_true(judge_identity(&p, &alice, &by, &id));
	assert_true(by == LISTED_EUID);
	/* INVERT: the listed are untrusted and everyone else trusted */
	p.flags |= TPE_POLICY_INVERT;
	assert_false(judge_identity(&p, &alice, &by, &id));
	assert_true(by == LISTED_EUID && id == 1001);
	assert_false(judge_identity(&p, &bob, &by, &id));
	assert_true(by == LISTED_EGID);
	p.groups = (struct tpe_ids){ NULL, 0 };
	assert_true(judge_identity(&p, &bob, &by, &id));
	assert_true(by == LISTED_NONE && id == 0);
}

/* judge_path(): tpe_file_untrusted()'s checks, in its order. */
static void test_judge_path(void **state)
{
	struct tpe_facts f = { .dir = DIR_OK, .file = FILE_OK };
	const uint32_t CF = TPE_POLICY_CHECK_FILE;

	(void)state;
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_NONE);
	/* a directory not root's: refused, unless the owner may own it */
	f.dir.uid = 1001;
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_DIR_OWNER);
	assert_int_equal(judge_path(&f, 0, 1002), TPE_CHECK_DIR_OWNER);
	assert_int_equal(judge_path(&f, 0, 1001), TPE_CHECK_NONE);
	/* group- or other-writable, sticky or not, whoever owns it */
	f.dir = (struct tpe_node){ 0, S_IFDIR | 0775 };
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_DIR_WRITABLE);
	f.dir.mode = S_IFDIR | 0757;
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_DIR_WRITABLE);
	f.dir.mode = S_IFDIR | 01777;
	assert_int_equal(judge_path(&f, 0, 1001), TPE_CHECK_DIR_WRITABLE);
	/* the owner comes first */
	f.dir.uid = 1001;
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_DIR_OWNER);
	f.dir = (struct tpe_node)DIR_OK;
	/* the file: writable by others refused, with or without CHECK_FILE */
	f.file.mode = S_IFREG | 0775;
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_FILE_WRITABLE);
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_FILE_WRITABLE);
	/* its owner only with CHECK_FILE, and the owner may own it */
	f.file = (struct tpe_node){ 1001, S_IFREG | 0755 };
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_NONE);
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_FILE_OWNER);
	assert_int_equal(judge_path(&f, CF, 1001), TPE_CHECK_NONE);
	/* a character device (/dev/zero): its mode and owner are not looked at */
	f.file = (struct tpe_node){ 1001, S_IFCHR | 0666 };
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_NONE);
	/* a block device: refused whoever owns it, CHECK_FILE or not */
	f.file = (struct tpe_node){ 0, S_IFBLK | 0600 };
	assert_int_equal(judge_path(&f, 0, 0), TPE_CHECK_BLOCK_DEVICE);
	assert_int_equal(judge_path(&f, CF, 1001), TPE_CHECK_BLOCK_DEVICE);
	/* ... after the directory */
	f.dir.mode = S_IFDIR | 0777;
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_DIR_WRITABLE);
	f.dir = (struct tpe_node)DIR_OK;
	/* the mount and the parent before the directory */
	f.dir = (struct tpe_node){ 1001, S_IFDIR | 0777 };
	f.untrusted_fs = "fuse";
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_UNTRUSTED_FS);
	f.no_parent = 1;
	assert_int_equal(judge_path(&f, CF, 0), TPE_CHECK_NO_PARENT);
}

/*
 * The names are the kernel's table (<linux/tpe.h>): each reads back as its
 * check, and judge_path() gives every check but file-open-write, which
 * user space cannot see.
 */
static void test_check_names(void **state)
{
	const uint32_t CF = TPE_POLICY_CHECK_FILE;
	const struct tpe_facts f[__TPE_CHECK_MAX] = {
		[TPE_CHECK_NONE] = { .dir = DIR_OK, .file = FILE_OK },
		[TPE_CHECK_NO_PARENT] = { .no_parent = 1 },
		[TPE_CHECK_UNTRUSTED_FS] = { .dir = DIR_OK, .file = FILE_OK,
					     .untrusted_fs = "fuse" },
		[TPE_CHECK_DIR_OWNER] = { .dir = { 1001, S_IFDIR | 0755 },
					  .file = FILE_OK },
		[TPE_CHECK_DIR_WRITABLE] = { .dir = { 0, S_IFDIR | 0775 },
					     .file = FILE_OK },
		[TPE_CHECK_BLOCK_DEVICE] = { .dir = DIR_OK,
					     .file = { 0, S_IFBLK | 0660 } },
		[TPE_CHECK_FILE_WRITABLE] = { .dir = DIR_OK,
					      .file = { 0, S_IFREG | 0757 } },
		[TPE_CHECK_FILE_OWNER] = { .dir = DIR_OK,
					   .file = { 1001, S_IFREG | 0755 } },
	};
	enum tpe_check c;

	(void)state;
	assert_string_equal(tpe_check_names[TPE_CHECK_NONE], "none");
	for (c = TPE_CHECK_NONE; c < __TPE_CHECK_MAX; c++) {
		assert_non_null(tpe_check_names[c]);
		assert_int_equal(tpe_check_by_name(tpe_check_names[c]), c);
		if (c != TPE_CHECK_FILE_OPEN_WRITE)
			assert_int_equal(judge_path(&f[c], CF, 0), c);
	}
	assert_int_equal(tpe_check_by_name("dir"), __TPE_CHECK_MAX);
	assert_int_equal(tpe_check_by_name(""), __TPE_CHECK_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_judge),
		cmocka_unit_test(test_judge_identity),
		cmocka_unit_test(test_judge_path),
		cmocka_unit_test(test_check_names),
	};

	return cmocka_run_group_tests_name("judge", tests, NULL, NULL);
}
