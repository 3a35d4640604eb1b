// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libtpe and tpe-load's own parts (cmocka; built with ASan and
 * UBSan by `make check`). Names resolve through fake_db below, never NSS:
 * struct tpe_resolver is the seam, so the tests do not depend on the
 * machine's /etc/passwd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/tpe.h>

#include "conf.h"
#include "fixture.h"
#include "io.h"
#include "judge.h"
#include "json.h"
#include "tpe-load.h"

/* ---- a fake user and group database ---- */

struct entry {
	const char *name;
	uint32_t id;
};

static const struct entry fake_users[] = {
	{ "root", 0 }, { "bob", 1002 }, { "alice", 1001 },
	{ "big", 4000000000U }, { "odd\"name", 1500 },
	{ NULL, 0 }
};
static const struct entry fake_groups[] = {
	{ "root", 0 }, { "wheel", 10 }, { "tpe-trusted", 2000 },
	{ NULL, 0 }
};

static int lookup_name(const struct entry *t, const char *name, uint32_t *id)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*id = t->id;
			return 0;
		}
	return -1;
}

static const char *lookup_id(const struct entry *t, uint32_t id)
{
	for (; t->name; t++)
		if (t->id == id)
			return t->name;
	return NULL;
}

static int user_id(const char *n, uint32_t *id)
{
	return lookup_name(fake_users, n, id);
}

static const char *user_name(uint32_t id)
{
	return lookup_id(fake_users, id);
}

static int group_id(const char *n, uint32_t *id)
{
	return lookup_name(fake_groups, n, id);
}

static const char *group_name(uint32_t id)
{
	return lookup_id(fake_groups, id);
}

static const struct tpe_resolver fake_db = {
	.users = { user_id, user_name },
	.groups = { group_id, group_name },
};

/* ---- helpers ---- */

static char conf_path[1100];
static char err[ERRLEN];

/* The group's directory (fixture.c) and tpe.conf in it. */
static int setup_dir(void **state)
{
	if (fixture_dir_make(state))
		return -1;
	fixture_path(conf_path, sizeof(conf_path), "tpe.conf");
	return 0;
}

/* Loads path; warnings go to *warnings (caller frees). */
static int load_path(const char *path, struct tpe_policy *p, char **warnings)
{
	size_t wlen;
	FILE *w = open_memstream(warnings, &wlen);
	struct conf_opts o = { .r = &fake_db, .warn = w, .caller = geteuid() };
	int rc;

	err[0] = 0;
	rc = conf_load(path, &o, p, err);
	fclose(w);
	return rc < 0 ? -1 : 0;
}

/* Loads text as tpe.conf; warnings go to *warnings (caller frees). */
static int load(const char *text, struct tpe_policy *p, char **warnings)
{
	fixture_write(conf_path, text);
	return load_path(conf_path, p, warnings);
}

static void load_ok(const char *text, struct tpe_policy *p)
{
	char *w;

	if (load(text, p, &w))
		fail_msg("unexpected error: %s", err);
	free(w);
}

static void assert_ids(const struct tpe_ids *ids, size_t n, ...)
{
	va_list ap;

	assert_int_equal(ids->n, n);
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids->id[i], va_arg(ap, uint32_t));
	va_end(ap);
}

/* ---- conf.c: keys and defaults ---- */

static void test_defaults(void **state)
{
	struct tpe_policy p;

	(void)state;
	load_ok("# nothing\n", &p);
	/* The kernel's boot policy: CHECK_FILE is on unless the config says. */
	assert_int_equal(p.flags, TPE_POLICY_ENFORCE | TPE_POLICY_MMAP |
				  TPE_POLICY_CHECK_FILE);
	assert_ids(&p.users, 0);
	assert_ids(&p.groups, 0);
	policy_free(&p);
}

static void test_every_flag_key(void **state)
{
	static const struct {
		const char *key;
		uint32_t flag;
	} keys[] = {
		{ "enforce", TPE_POLICY_ENFORCE },
		{ "check_file", TPE_POLICY_CHECK_FILE },
		{ "strict", TPE_POLICY_STRICT },
		{ "mmap", TPE_POLICY_MMAP },
		{ "invert", TPE_POLICY_INVERT },
		{ "lock", TPE_POLICY_LOCK },
	};
	const uint32_t def = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP |
			     TPE_POLICY_CHECK_FILE;
	struct tpe_policy p;
	char text[64];

	(void)state;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(text, sizeof(text), "%s = true;\n", keys[i].key);
		load_ok(text, &p);
		assert_int_equal(p.flags, def | keys[i].flag);
		policy_free(&p);
		snprintf(text, sizeof(text), "%s = false;\n", keys[i].key);
		load_ok(text, &p);
		assert_int_equal(p.flags, def & ~keys[i].flag);
		policy_free(&p);
	}
	load_ok("enforce=true; check_file=true; strict=true; mmap=true;\n"
		"invert=true; lock=true;\n", &p);
	assert_int_equal(p.flags, TPE_POLICY_ALL_FLAGS);
	policy_free(&p);
}

static void test_lists(void **state)
{
	struct tpe_policy p;

	(void)state;
	load_ok("trusted_users = ( \"bob\", 1002, \"alice\", 7, 4294967294L,"
		" 3000000000L, 0x10, \"big\" );\n"
		"trusted_groups = [ \"tpe-trusted\", \"wheel\" ];\n", &p);
	assert_ids(&p.users, 7, 7, 16, 1001, 1002, 3000000000U, 4000000000U,
		   4294967294U);
	assert_ids(&p.groups, 2, 10, 2000);
	policy_free(&p);

	load_ok("trusted_users = [ ]; trusted_groups = ( );\n", &p);
	assert_ids(&p.users, 0);
	assert_ids(&p.groups, 0);
	policy_free(&p);

	load_ok("trusted_groups = ( 0, 4294967294L );\n", &p);
	assert_ids(&p.groups, 2, 0, 4294967294U);
	policy_free(&p);
}

/* ---- conf.c: every error, with its line ---- */

static void test_errors(void **state)
{
	static const struct {
		const char *text, *want;	/* want: after "path:" */
	} cases[] = {
		{ "enforce = true;\n\nbogus = 1;\n", "3: unknown key \"bogus\"" },
		{ "\nenforce = 1;\n", "2: enforce must be true or false" },
		{ "lock = \"yes\";\n", "1: lock must be true or false" },
		{ "mmap = [ true ];\n", "1: mmap must be true or false" },
		{ "trusted_users = 5;\n",
		  "1: trusted_users must be a list of user names and numbers" },
		{ "trusted_groups = \"wheel\";\n",
		  "1: trusted_groups must be a list of group names and numbers" },
		{ "trusted_users = { a = 1; };\n",
		  "1: trusted_users must be a list of user names and numbers" },
		{ "trusted_users = (\n 1,\n 1.5 );\n",
		  "3: trusted_users: expected a user name or number" },
		{ "trusted_groups = ( ( 1 ) );\n",
		  "1: trusted_groups: expected a group name or number" },
		{ "trusted_users = (\n\"bob\",\n\"bbo\" );\n",
		  "3: unknown user \"bbo\"" },
		{ "trusted_groups = [ \"nogroup\" ];\n",
		  "1: unknown group \"nogroup\"" },
		{ "trusted_users = [ \"\" ];\n", "1: unknown user \"\"" },
		{ "trusted_users = [ -1 ];\n",
		  "1: user ID -1 out of range 0..4294967294" },
		{ "trusted_groups = [ 4294967295L ];\n",
		  "1: group ID 4294967295 out of range 0..4294967294" },
		{ "trusted_groups = [ -5L ];\n",
		  "1: group ID -5 out of range 0..4294967294" },
		/* libconfig 1.5 wraps this to a negative int: scan.c says so */
		{ "trusted_users = [ 3000000000 ];\n",
		  "1: 3000000000 does not fit in 32 bits and libconfig would "
		  "read it as -1294967296: write a 64-bit integer with an L "
		  "suffix" },
		{ "enforce = true;\nmmap = ;\n", "2: syntax error (names are quoted, "
		  "\"alice\"; each setting ends in \";\"; no \",\" after a "
		  "list's last element)" },
		/* libconfig: 0 is an int, 4294967294L an int64 */
		{ "trusted_groups = [ 0, 4294967294L ];\n",
		  "1: mismatched element type in array (an array in [ ] "
		  "holds one type: use a list in ( ) to mix names, numbers "
		  "and L numbers)" },
		{ "enforce = true;\nenforce = false;\n",
		  "2: duplicate setting name: enforce given twice in this "
		  "file (first on line 1)" },
		/* the name libconfig does not give, also inside a list */
		{ "mmap = true;\n# x\n  mmap : false;\n",
		  "3: duplicate setting name: mmap given twice in this file "
		  "(first on line 1)" },
		{ "trusted_users = bob;\n", "1: syntax error (names are quoted, "
		  "\"alice\"; each setting ends in \";\"; no \",\" after a "
		  "list's last element)" },
		{ "trusted_users = [ \"bob\",\n 1002 ];\n",
		  "2: mismatched element type in array (an array in [ ] "
		  "holds one type: use a list in ( ) to mix names, numbers "
		  "and L numbers)" },
		{ "trusted_users = [ 1, 2, ];\n", "1: syntax error (names are quoted, "
		  "\"alice\"; each setting ends in \";\"; no \",\" after a "
		  "list's last element)" },
	};
	struct tpe_policy p;
	char want[ERRLEN + 1200], *w;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), "%s:%s", conf_path, cases[i].want);
		assert_int_equal(load(cases[i].text, &p, &w), -1);
		assert_string_equal(err, want);
		/* nothing half-built survives an error */
		assert_null(p.users.id);
		assert_null(p.groups.id);
		free(w);
	}
}

static void test_missing_file(void **state)
{
	struct tpe_policy p;
	char path[1200], want[1300], *w;

	(void)state;
	snprintf(path, sizeof(path), "%s/absent.conf", fixture_dir);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_int_equal(load_path(path, &p, &w), -1);
	assert_string_equal(err, want);
	free(w);

	/* a directory keeps its reason */
	snprintf(want, sizeof(want), "%s: Is a directory", fixture_dir);
	assert_int_equal(load_path(fixture_dir, &p, &w), -1);
	assert_string_equal(err, want);
	free(w);
}

/* One note per distinct ID, at the line where its repeat stands. */
static void test_duplicates_and_root(void **state)
{
	struct tpe_policy p;
	struct conf_opts quiet = { .r = &fake_db, .caller = geteuid() };
	char *w, want[4096], big[64 * 1024];
	size_t n = 0;

	(void)state;
	assert_int_equal(load("trusted_users = (\n \"bob\", 1002, 1002,\n"
			      " \"root\", 5 );\n"
			      "trusted_groups = [ 3, 3,\n 3 ];\n", &p, &w), 0);
	assert_ids(&p.users, 3, 0, 5, 1002);
	assert_ids(&p.groups, 1, 3);
	snprintf(want, sizeof(want),
		 "%1$s:2: note: user 1002 listed again (first on line 2), "
		 "3 times in all\n"
		 "%1$s:3: note: root is always trusted, listing it changes "
		 "nothing\n"
		 "%1$s:4: note: group 3 listed again (first on line 4), "
		 "3 times in all\n",
		 conf_path);
	assert_string_equal(w, want);
	free(w);
	policy_free(&p);

	/* root 2,000 times and 7 twice: two notes, not 2,000 */
	n += snprintf(big + n, sizeof(big) - n, "trusted_users = (\n");
	for (int i = 0; i < 2000; i++)
		n += snprintf(big + n, sizeof(big) - n, "0,\n");
	snprintf(big + n, sizeof(big) - n, "7,\n7 );\n");
	assert_int_equal(load(big, &p, &w), 0);
	assert_ids(&p.users, 2, 0, 7);
	snprintf(want, sizeof(want),
		 "%1$s:2: note: root is always trusted, listing it changes "
		 "nothing\n"
		 "%1$s:2003: note: user 7 listed again (first on line 2002)\n",
		 conf_path);
	assert_string_equal(w, want);
	free(w);
	policy_free(&p);

	/* quiet: no warnings stream at all */
	fixture_write(conf_path, "trusted_users = [ 1, 1 ];\n");
	assert_int_equal(conf_load(conf_path, &quiet, &p, err), 1);
	assert_ids(&p.users, 1, 1);
	policy_free(&p);
}

/* ---- scan.c: no literal is read as anything but what was written ---- */

static void test_no_wrapping(void **state)
{
	static const struct {
		const char *text, *want;	/* want: after "path:" */
	} refused[] = {
		{ "trusted_users = [ 4294968296 ];\n",
		  "1: 4294968296 does not fit in 32 bits and libconfig would "
		  "read it as 1000: write a 64-bit integer with an L suffix" },
		{ "trusted_users = [ 4294967296 ];\n",
		  "1: 4294967296 does not fit in 32 bits and libconfig would "
		  "read it as 0: write a 64-bit integer with an L suffix" },
		{ "# 4294968296\n\ntrusted_groups = (\n 1,\n 0x1000003E8 );\n",
		  "5: 0x1000003E8 does not fit in 32 bits and libconfig would "
		  "read it as 1000: write a 64-bit integer with an L suffix" },
		{ "trusted_users = ( -3000000000 );\n",
		  "1: -3000000000 does not fit in 32 bits and libconfig would "
		  "read it as 1294967296: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 2147483648 ];\n",
		  "1: 2147483648 does not fit in 32 bits and libconfig would "
		  "read it as -2147483648: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 0x80000000 ];\n",
		  "1: 0x80000000 does not fit in 32 bits and libconfig would "
		  "read it as -2147483648: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 000000000000000000004294968296 ];\n",
		  "1: 000000000000000000004294968296 does not fit in 32 bits "
		  "and libconfig would read it as 1000: write a 64-bit integer "
		  "with an L suffix" },
		/* anywhere, not only in a list */
		{ "enforce = 99999999999999999999;\n",
		  "1: 99999999999999999999 does not fit in 32 bits and "
		  "libconfig would read it as -1: write a 64-bit integer with "
		  "an L suffix" },
		/* what is not a plain integer is libconfig's to judge */
		{ "trusted_users = ( 99999999999e3 );\n",
		  "1: trusted_users: expected a user name or number" },
		{ "trusted_users = [ -2147483648 ];\n",
		  "1: user ID -2147483648 out of range 0..4294967294" },
	};
	struct tpe_policy p;
	char want[ERRLEN + 1200], *w;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(want, sizeof(want), "%s:%s", conf_path,
			 refused[i].want);
		assert_int_equal(load(refused[i].text, &p, &w), -1);
		assert_string_equal(err, want);
		free(w);
	}
	/* the largest plain literals, L literals, numbers in strings and
	 * comments, names with digits: read as written */
	load_ok("trusted_users = ( 2147483647, 0x7fffffff, 4294967294L,\n"
		" 0xFFFFFFFEL, 3000000000LL ); # 4294968296\n"
		"/* 4294968296\n 0x1000003E8 */ trusted_groups = ( 0x7FFFFFFF,"
		" -0, \"tpe-trusted\" ); // 2147483648\n", &p);
	assert_ids(&p.users, 3, 2147483647U, 3000000000U, 4294967294U);
	assert_ids(&p.groups, 3, 0, 2000, 2147483647U);
	policy_free(&p);
}

/* Writes text to dir/name (dir/sub made if need be). */
static void put(const char *name, const char *text)
{
	char path[1300];

	snprintf(path, sizeof(path), "%s/inc", fixture_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
	fixture_write(path, text);
}

/* @include: relative to the including file; lists add up, flags: last wins. */
static void test_include(void **state)
{
	static const struct {
		const char *text, *want;	/* want: after dir/ */
	} bad[] = {
		{ "trusted_users = (\n@include \"inc/a.conf\"\n);\n",
		  "tpe.conf:2: @include inside a list or group: it must stand "
		  "at the top level" },
		{ "@include \"nope.conf\"\n",
		  "tpe.conf:1: @include: %s/nope.conf: No such file or "
		  "directory" },
		{ "\n@include \"tpe.conf\"\n",
		  "tpe.conf:2: @include \"tpe.conf\": nested more than 10 "
		  "deep" },
		{ "@include \"inc/c.conf\" # a comment is fine\n"
		  "@include \"inc/c.conf\" x = 1;\n",
		  "tpe.conf:2: @include \"inc/c.conf\": nothing else may stand "
		  "on its line" },
		{ "\n\n@include \"inc/c\n.conf\"\n",
		  "tpe.conf:3: @include: the file name must end on its line "
		  "and be shorter than 4096 bytes" },
		{ "mmap = true;\n@include \"inc/c.conf\"\nmmap = false;\n",
		  "tpe.conf:3: mmap given twice in this file (first on line "
		  "1)" },
		{ "@include \"inc/bad.conf\"\n",
		  "inc/bad.conf:2: 4294968296 does not fit in 32 bits and "
		  "libconfig would read it as 1000: write a 64-bit integer "
		  "with an L suffix" },
		{ "@include \"inc/open.conf\"\n",
		  "tpe.conf:1: @include: %s/inc/open.conf: writable by group or "
		  "others (mode 0666): refusing it (chmod go-w %s/inc/open.conf)"
		},
	};
	struct tpe_policy p;
	char want[4096], path[1300], fmt[512], *w;

	(void)state;
	put("inc/a.conf", "trusted_users = [ 2 ];\n@include \"b.conf\"\n");
	put("inc/b.conf", "trusted_users = ( 3,\n1 ); enforce = true;\n");
	put("inc/c.conf", "strict = true;\n");
	put("inc/bad.conf", "\ntrusted_users = [ 4294968296 ];\n");
	put("inc/open.conf", "");
	snprintf(path, sizeof(path), "%s/inc/open.conf", fixture_dir);
	chmod(path, 0666);

	assert_int_equal(load("enforce = false;\n@include \"inc/a.conf\"\n"
			      "trusted_users = [ 1 ];\n", &p, &w), 0);
	assert_int_equal(p.flags, TPE_POLICY_ENFORCE | TPE_POLICY_MMAP |
				  TPE_POLICY_CHECK_FILE);
	assert_ids(&p.users, 3, 1, 2, 3);
	snprintf(want, sizeof(want), "%s:3: note: user 1 listed again (first "
		 "at %s/inc/b.conf:2)\n", conf_path, fixture_dir);
	assert_string_equal(w, want);
	free(w);
	policy_free(&p);

	/* a flag after the include wins over the included one */
	load_ok("@include \"inc/b.conf\"\nenforce = false;\n", &p);
	assert_int_equal(p.flags, TPE_POLICY_MMAP | TPE_POLICY_CHECK_FILE);
	policy_free(&p);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(fmt, sizeof(fmt), "%%s/%s", bad[i].want);
		snprintf(want, sizeof(want), fmt, fixture_dir, fixture_dir,
			 fixture_dir);
		assert_int_equal(load(bad[i].text, &p, &w), -1);
		assert_string_equal(err, want);
		assert_null(p.users.id);
		free(w);
	}
}

/* dir/tpe.conf.d/ *.conf after dir/tpe.conf, in lexical order. */
static void test_dropins(void **state)
{
	struct tpe_policy p;
	char path[1300], want[4096], *w;
	struct conf_opts o = { .r = &fake_db, .caller = geteuid() };

	(void)state;
	snprintf(path, sizeof(path), "%s.d", conf_path);
	assert_int_equal(mkdir(path, 0755), 0);
	put("tpe.conf.d/20-b.conf", "trusted_users = [ 2 ];\nenforce = true;\n");
	put("tpe.conf.d/10-a.conf", "trusted_users = ( \"bob\", 1 );\n"
	    "enforce = false;\n");
	put("tpe.conf.d/30-c.conf", "trusted_groups = [ \"wheel\" ];\n"
	    "mmap = false; trusted_users = [\n 1 ];\n");
	put("tpe.conf.d/.hidden.conf", "bogus = 1;\n");
	put("tpe.conf.d/README", "bogus = 1;\n");
	put("tpe.conf.d/40-d.conf.orig", "bogus = 1;\n");

	/* lists add up, flags: the last file wins; one note, in the right file */
	assert_int_equal(load("enforce = false; mmap = true;\n"
			      "trusted_users = [ 3 ];\n", &p, &w), 0);
	assert_int_equal(p.flags, TPE_POLICY_ENFORCE | TPE_POLICY_CHECK_FILE);
	assert_ids(&p.users, 4, 1, 2, 3, 1002);
	assert_ids(&p.groups, 1, 10);
	snprintf(want, sizeof(want), "%1$s.d/30-c.conf:3: note: user 1 listed "
		 "again (first at %1$s.d/10-a.conf:1)\n", conf_path);
	assert_string_equal(w, want);
	free(w);
	policy_free(&p);
	fixture_write(conf_path, "");
	assert_int_equal(conf_load(conf_path, &o, &p, err), 4);
	policy_free(&p);

	/* an error names the drop-in and its line */
	put("tpe.conf.d/25-bad.conf", "\ntrusted_users = [ \"bbo\" ];\n");
	snprintf(want, sizeof(want), "%s.d/25-bad.conf:2: unknown user "
		 "\"bbo\"", conf_path);
	assert_int_equal(load("", &p, &w), -1);
	assert_string_equal(err, want);
	assert_null(p.users.id);
	free(w);
	snprintf(path, sizeof(path), "%s.d/25-bad.conf", conf_path);
	unlink(path);

	/* a directory others can change is refused, and so is a drop-in */
	snprintf(path, sizeof(path), "%s.d", conf_path);
	chmod(path, 01777);
	snprintf(want, sizeof(want), "%1$s: writable by group or others (mode "
		 "1777): refusing it (chmod go-w %1$s)", path);
	assert_int_equal(load("", &p, &w), -1);
	assert_string_equal(err, want);
	free(w);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s.d/20-b.conf", conf_path);
	chmod(path, 0664);
	snprintf(want, sizeof(want), "%1$s: writable by group or others (mode "
		 "0664): refusing it (chmod go-w %1$s)", path);
	assert_int_equal(load("", &p, &w), -1);
	assert_string_equal(err, want);
	free(w);
	chmod(path, 0644);

	/* a drop-in that is a directory keeps its reason */
	snprintf(path, sizeof(path), "%s.d/50-dir.conf", conf_path);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(want, sizeof(want), "%s: Is a directory", path);
	assert_int_equal(load("", &p, &w), -1);
	assert_string_equal(err, want);
	free(w);
	rmdir(path);

	/* PATH.d that is a file, not a directory */
	snprintf(path, sizeof(path), "%s/other.conf", fixture_dir);
	fixture_write(path, "");
	snprintf(want, sizeof(want), "%s/other.conf.d", fixture_dir);
	fixture_write(want, "");
	assert_int_equal(load_path(path, &p, &w), -1);
	strcat(want, ": Not a directory");
	assert_string_equal(err, want);
	free(w);

	/* the tests after this one have no drop-ins */
	snprintf(path, sizeof(path), "rm -r '%s.d'", conf_path);
	assert_int_equal(system(path), 0);
}

static void test_summary(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP,
				.users = { (uint32_t[]){ 1, 2 }, 2 },
				.groups = { (uint32_t[]){ 3 }, 1 } };
	char *s;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	(void)state;
	conf_summary(f, &p);
	p.flags = TPE_POLICY_ALL_FLAGS & ~TPE_POLICY_ENFORCE;
	p.users.n = 1;
	p.groups.n = 0;
	conf_summary(f, &p);
	fclose(f);
	assert_string_equal(s, "enforce mmap, 2 users, 1 group"
			    "permissive check_file strict mmap invert lock, "
			    "1 user, 0 groups");
	free(s);
}

/* ---- names.c: the database read once, looked up both ways ---- */

static void test_names(void **state)
{
	struct names t = { 0 };
	char name[32];
	uint32_t id;

	(void)state;
	assert_int_equal(names_sort(&t), 0);	/* empty: every lookup misses */
	assert_int_equal(names_id(&t, "root", &id), -1);
	assert_null(names_name(&t, 0));
	names_free(&t);

	/* as getpwnam()/getpwuid() would: the first entry read wins */
	assert_int_equal(names_add(&t, "bob", 1002), 0);
	assert_int_equal(names_add(&t, "root", 0), 0);
	assert_int_equal(names_add(&t, "toor", 0), 0);
	assert_int_equal(names_add(&t, "bob", 7), 0);
	assert_int_equal(names_add(&t, "alice", 1001), 0);
	for (int i = 0; i < 5000; i++) {	/* past the first allocation */
		snprintf(name, sizeof(name), "u%d", i);
		assert_int_equal(names_add(&t, name, 100000 + i), 0);
	}
	assert_int_equal(names_sort(&t), 0);
	assert_int_equal(names_id(&t, "bob", &id), 0);
	assert_int_equal(id, 1002);
	assert_int_equal(names_id(&t, "toor", &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(names_id(&t, "alice", &id), 0);
	assert_int_equal(id, 1001);
	assert_int_equal(names_id(&t, "u4999", &id), 0);
	assert_int_equal(id, 104999);
	assert_int_equal(names_id(&t, "u5000", &id), -1);
	assert_int_equal(names_id(&t, "", &id), -1);
	assert_int_equal(names_id(&t, "zzz", &id), -1);
	assert_string_equal(names_name(&t, 0), "root");
	assert_string_equal(names_name(&t, 7), "bob");
	assert_string_equal(names_name(&t, 1002), "bob");
	assert_string_equal(names_name(&t, 100000), "u0");
	assert_string_equal(names_name(&t, 104999), "u4999");
	assert_null(names_name(&t, 1));
	assert_null(names_name(&t, 4294967294U));
	names_free(&t);
}

/* ---- policy.c ---- */

static void test_fold(void **state)
{
	uint32_t a[] = { 5, 1, 4294967294U, 5, 0, 1, 1, 7 };
	uint32_t one[] = { 9 };

	(void)state;
	assert_int_equal(ids_fold(a, 8), 5);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[2], 5);
	assert_int_equal(a[3], 7);
	assert_int_equal(a[4], 4294967294U);
	assert_int_equal(ids_fold(NULL, 0), 0);
	assert_int_equal(ids_fold(one, 1), 1);
}

static void assert_encodes(const struct tpe_policy *p, const uint8_t *want,
			   size_t want_len)
{
	uint8_t *blob;
	size_t len;

	assert_int_equal(policy_encode(p, &blob, &len, err), 0);
	assert_int_equal(len, want_len);
	assert_memory_equal(blob, want, want_len);
	free(blob);
}

/* Vectors computed by hand from <linux/tpe.h>: little-endian throughout. */
static void test_blob_vectors(void **state)
{
	static const uint8_t empty[] = {
		0x54, 0x50, 0x45, 0x31,	/* magic "TPE1" */
		0x01, 0x00,		/* version 1 */
		0x18, 0x00,		/* hdr_len 24 */
		0x0b, 0x00, 0x00, 0x00,	/* flags ENFORCE | CHECK_FILE | MMAP */
		0x00, 0x00, 0x00, 0x00,	/* nr_uids */
		0x00, 0x00, 0x00, 0x00,	/* nr_gids */
		0x00, 0x00, 0x00, 0x00,	/* reserved */
	};
	static const uint8_t full[] = {
		0x54, 0x50, 0x45, 0x31, 0x01, 0x00, 0x18, 0x00,
		0x3f, 0x00, 0x00, 0x00,	/* all six flags */
		0x03, 0x00, 0x00, 0x00,	/* 3 uids */
		0x02, 0x00, 0x00, 0x00,	/* 2 gids */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,	/* uid 0 */
		0xea, 0x03, 0x00, 0x00,	/* uid 1002 */
		0xfe, 0xff, 0xff, 0xff,	/* uid 4294967294 */
		0x0a, 0x00, 0x00, 0x00,	/* gid 10 */
		0x04, 0x03, 0x02, 0x01,	/* gid 0x01020304 */
	};
	struct tpe_policy p;

	(void)state;
	load_ok("", &p);
	assert_encodes(&p, empty, sizeof(empty));
	policy_free(&p);

	/* unsorted, with a duplicate and a name: same blob as hand-sorted */
	load_ok("enforce=true; check_file=true; strict=true; mmap=true;\n"
		"invert=true; lock=true;\n"
		"trusted_users = ( 4294967294L, \"bob\", 0, 1002 );\n"
		"trusted_groups = ( 16909060, \"wheel\" );\n", &p);
	assert_encodes(&p, full, sizeof(full));
	policy_free(&p);
}

static struct tpe_policy many(size_t users, size_t groups)
{
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE };

	p.users.id = malloc((users + 1) * sizeof(uint32_t));
	p.groups.id = malloc((groups + 1) * sizeof(uint32_t));
	for (p.users.n = 0; p.users.n < users; p.users.n++)
		p.users.id[p.users.n] = p.users.n * 3;
	for (p.groups.n = 0; p.groups.n < groups; p.groups.n++)
		p.groups.id[p.groups.n] = p.groups.n + 7;
	return p;
}

static void assert_round_trip(const struct tpe_policy *p)
{
	struct tpe_policy back;
	uint8_t *blob;
	size_t len;

	assert_int_equal(policy_encode(p, &blob, &len, err), 0);
	assert_int_equal(len, sizeof(struct tpe_policy_hdr) +
			 4 * (p->users.n + p->groups.n));
	assert_int_equal(policy_decode(blob, len, &back, err), 0);
	free(blob);
	assert_int_equal(back.flags, p->flags);
	assert_int_equal(back.users.n, p->users.n);
	assert_int_equal(back.groups.n, p->groups.n);
	assert_memory_equal(back.users.id, p->users.id,
			    p->users.n * sizeof(uint32_t));
	assert_memory_equal(back.groups.id, p->groups.id,
			    p->groups.n * sizeof(uint32_t));
	policy_free(&back);
}

static void test_limits(void **state)
{
	struct tpe_policy p;
	uint8_t *blob;
	size_t len;

	(void)state;
	p = many(0, 0);
	assert_round_trip(&p);
	policy_free(&p);

	p = many(TPE_POLICY_MAX_ENTRIES - 1000, 1000);	/* exactly the limit */
	assert_round_trip(&p);
	policy_free(&p);

	p = many(TPE_POLICY_MAX_ENTRIES - 1000, 1001);	/* limit + 1 */
	assert_int_equal(policy_encode(&p, &blob, &len, err), -1);
	assert_string_equal(err, "too many entries: 1048577 users and groups, "
			    "the kernel takes at most 1048576");
	policy_free(&p);
}

static void test_decode_rejects(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_MMAP,
				.users = { (uint32_t[]){ 1, 2 }, 2 },
				.groups = { (uint32_t[]){ 3 }, 1 } };
	static const struct {
		size_t at;	/* byte to change */
		uint8_t to;
		const char *why;
	} bad[] = {
		{ 0, 'X', "policy header is not a version 1 tpe policy" },
		{ 4, 2, "policy header is not a version 1 tpe policy" },
		{ 6, 20, "policy header is not a version 1 tpe policy" },
		{ 8, 0x40, "policy header is not a version 1 tpe policy" },
		{ 20, 1, "policy header is not a version 1 tpe policy" },
		{ 12, 3, "policy is 36 bytes, its header says 3 users and "
			 "1 groups" },
		{ 15, 0x80, "policy is 36 bytes, its header says 2147483650 "
			    "users and 1 groups" },
		{ 24, 2, "policy ID lists are not strictly ascending" },
		{ 28, 0, "policy ID lists are not strictly ascending" },
	};
	struct tpe_policy back;
	uint8_t *blob;
	size_t len;

	(void)state;
	assert_round_trip(&p);
	assert_int_equal(policy_encode(&p, &blob, &len, err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t was = blob[bad[i].at];

		blob[bad[i].at] = bad[i].to;
		assert_int_equal(policy_decode(blob, len, &back, err), -1);
		assert_string_equal(err, bad[i].why);
		assert_null(back.users.id);
		blob[bad[i].at] = was;
	}
	assert_int_equal(policy_decode(blob, len - 1, &back, err), -1);
	assert_int_equal(policy_decode(blob, 23, &back, err), -1);
	assert_string_equal(err, "policy is 23 bytes, shorter than its header");
	free(blob);
}

/* --dump: conf_write(decode(blob)) loads back to the identical blob. */
static void test_dump_round_trip(void **state)
{
	struct tpe_policy p, again;
	uint8_t *b1, *b2;
	size_t l1, l2;
	char *text;
	size_t tlen;
	FILE *f;

	(void)state;
	load_ok("enforce = false; strict = true; lock = true;\n"
		"trusted_users = ( \"bob\", 1500, 77, 2147483647, 2147483648L,"
		" \"big\", 4294967294L, 0 );\n"
		"trusted_groups = ( \"tpe-trusted\", 0, 99 );\n", &p);
	assert_int_equal(policy_encode(&p, &b1, &l1, err), 0);
	policy_free(&p);
	assert_int_equal(policy_decode(b1, l1, &p, err), 0);

	f = open_memstream(&text, &tlen);
	conf_write(f, &p, &fake_db);
	fclose(f);
	/* names where the database knows them and they read back; "odd\"name"
	 * (1500) is not written as a name */
	assert_non_null(strstr(text, "\"bob\""));
	assert_non_null(strstr(text, "\"big\""));
	assert_non_null(strstr(text, "\"tpe-trusted\""));
	assert_non_null(strstr(text, "1500"));
	assert_non_null(strstr(text, "2147483648L"));
	assert_non_null(strstr(text, "4294967294L"));
	assert_non_null(strstr(text, "enforce        = false;"));

	load_ok(text, &again);
	assert_int_equal(policy_encode(&again, &b2, &l2, err), 0);
	assert_int_equal(l1, l2);
	assert_memory_equal(b1, b2, l1);
	free(text);
	free(b1);
	free(b2);
	policy_free(&p);
	policy_free(&again);

	/* empty lists round-trip too */
	p = (struct tpe_policy){ 0 };
	f = open_memstream(&text, &tlen);
	conf_write(f, &p, &fake_db);
	fclose(f);
	load_ok(text, &again);
	assert_int_equal(again.flags, 0);
	assert_int_equal(again.users.n + again.groups.n, 0);
	free(text);
	policy_free(&again);
}

/* ---- file.c and securityfs.c ---- */

static void test_write_read(void **state)
{
	static const char big[] = "0123456789abcdef";
	char path[1200];
	uint8_t *buf;
	size_t len;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/policy", fixture_dir);
	unlink(path);
	/* securityfs is never created, only opened */
	assert_int_equal(write_once(path, 0, big, 16), ENOENT);
	assert_int_equal(read_all(path, &buf, &len), ENOENT);
	assert_int_equal(write_once(path, O_CREAT, big, 16), 0);
	/* a shorter write replaces, not overlays */
	assert_int_equal(write_once(path, 0, big, 3), 0);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(buf, "012", 3);
	free(buf);

	/* a file larger than read_all's first buffer */
	fd = open(path, O_WRONLY | O_TRUNC);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(write(fd, big, 16), 16);
	close(fd);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 16000);
	assert_memory_equal(buf + 15984, big, 16);
	free(buf);

	fd = open(path, O_WRONLY | O_TRUNC);
	close(fd);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 0);
	free(buf);
}

static void test_securityfs_path(void **state)
{
	(void)state;
	unsetenv("TPE_SECURITYFS");
	assert_string_equal(securityfs_policy(),
			    "/sys/kernel/security/tpe/policy");
	setenv("TPE_SECURITYFS", "/tmp/fake", 1);
	assert_string_equal(securityfs_policy(), "/tmp/fake/policy");
	unsetenv("TPE_SECURITYFS");
}

static void test_errno_words(void **state)
{
	(void)state;
	assert_string_equal(errno_words(EPERM), "EPERM: policy is locked or "
			    "you lack CAP_MAC_ADMIN");
	assert_string_equal(errno_words(EINVAL), "EINVAL: kernel rejected the "
			    "policy as malformed");
	assert_string_equal(errno_words(E2BIG), "E2BIG: too many entries");
	assert_non_null(strstr(errno_words(ENOENT), "securityfs tpe not "
			       "present"));
	assert_string_equal(errno_words(EIO), strerror(EIO));
}

/* ---- judge.c: the kernel's decision from facts ---- */

#define DIR_OK	{ 0, S_IFDIR | 0755 }
#define FILE_OK	{ 0, S_IFREG | 0755 }

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

/* The verdict in words names the check as the kernel logs it. */
static void test_explain_names_in_words(void **state)
{
	uint32_t g[] = { 1001 };
	struct tpe_identity alice = { 1001, 1001, g, 1, 0 };
	struct tpe_facts f = { .path = "/tmp/x", .resolved = "/srv/x",
			       .dir_path = "/srv",
			       .dir = { 0, S_IFDIR | 01777 },
			       .file = { 1001, S_IFREG | 0644 } };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE };
	struct tpe_verdict v;
	char *s;
	size_t len;
	FILE *out = open_memstream(&s, &len);

	(void)state;
	explain_judge(&p, &alice, &f, &v);
	explain_write(out, &p, &alice, &f, &v, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, "/tmp/x: denied check=dir-writable\n"));
	assert_non_null(strstr(s, "  resolved: /srv/x\n"));
	assert_non_null(strstr(s, "uid 1001 (alice)"));
	assert_non_null(strstr(s, "/srv is writable by group and others "
			       "(mode 1777)"));
	assert_non_null(strstr(s, "mmap PROT_EXEC: allowed (MMAP is off"));
	assert_non_null(strstr(s, "note: no execute bit"));
	free(s);
}

static void test_mountinfo(void **state)
{
	static const char mi[] =
		"22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"40 22 0:40 / /mnt/f rw,nosuid - fuse.sshfs host: "
		"rw,user_id=1001,group_id=1001\n"
		"41 22 0:41 / /mnt/r rw - fuse.sshfs host: rw,user_id=0\n"
		"42 22 254:0 /srv /mnt/i rw,idmapped - ext4 /dev/vda rw\n";
	struct tpe_facts f;
	char why[200];
	FILE *in;
	int id;

	(void)state;
	for (id = 22; id <= 43; id++) {
		in = fmemopen((void *)mi, sizeof(mi) - 1, "r");
		f = (struct tpe_facts){ 0 };
		assert_int_equal(mountinfo_judge(in, id, &f, why, sizeof(why)),
				 id == 22 || (id >= 40 && id <= 42) ? 0 : -1);
		fclose(in);
		assert_int_equal(f.untrusted_fs != NULL, id == 40);
		assert_int_equal(f.idmapped, id == 42);
	}
	in = fmemopen((void *)mi, sizeof(mi) - 1, "r");
	mountinfo_judge(in, 40, &f, why, sizeof(why));
	fclose(in);
	assert_string_equal(f.untrusted_fs,
			    "fuse.sshfs mounted for user_id=1001 (fusermount3)");
}

/* ---- json.c and status.c: what --json writes ---- */

static char *json_of(const char *s)
{
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	json_string(f, s);
	fclose(f);
	return out;
}

static void test_json_string(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "\"\"" },
		{ "plain", "\"plain\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\n\t\r\b\f", "\"\\n\\t\\u000d\\u0008\\u000c\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "/", "\"/\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		/* not UTF-8: stray, overlong, surrogate, cut short */
		{ "\xff", "\"\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "x\xe2\x82", "\"x\\ufffd\\ufffd\"" },
	};
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = json_of(cases[i].in);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void test_json_policy(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP,
				.users = { (uint32_t[]){ 1002, 1500, 7 }, 3 },
				.groups = { (uint32_t[]){ 2000 }, 1 } };
	char *s;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	(void)state;
	json_policy(f, "/x\"y", &p, &fake_db);
	fclose(f);
	assert_string_equal(s,
		"{\"source\": \"/x\\\"y\", \"flags\": {\"enforce\": true, "
		"\"check_file\": false, \"strict\": false, \"mmap\": true, "
		"\"invert\": false, \"lock\": false}, \"trusted_users\": "
		"[{\"id\": 1002, \"name\": \"bob\"}, {\"id\": 1500, \"name\": "
		"\"odd\\\"name\"}, {\"id\": 7}], \"trusted_groups\": "
		"[{\"id\": 2000, \"name\": \"tpe-trusted\"}]}\n");
	free(s);
}

static void test_status(void **state)
{
	char *files[] = { "/etc/tpe.conf", "/etc/tpe.conf.d/50-x.conf" };
	struct tpe_status s = { .mode = "enforcing", .have_policy = 1,
				.config = "/etc/tpe.conf", .sync = "stale",
				.files = files, .nfiles = 2,
				.live = { .flags = TPE_POLICY_ENFORCE |
					  TPE_POLICY_MMAP,
					  .groups = { (uint32_t[]){ 5 }, 1 } } };
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	assert_int_equal(status_parse_stats("exec_denials 3\nmmap_denials 0\n"
					    "would_deny 18446744073709551615\n",
					    &s), 0);
	assert_int_equal(s.ncounters, 3);
	assert_int_equal(s.counters[2].value, 18446744073709551615ULL);
	f = open_memstream(&out, &len);
	status_write(f, &s);
	fclose(f);
	assert_string_equal(out, "mode: enforcing\nflags: enforce mmap\n"
			    "trusted_users: 0\ntrusted_groups: 1\n"
			    "exec_denials: 3\nmmap_denials: 0\n"
			    "would_deny: 18446744073709551615\n"
			    "config: stale: the config and its drop-ins build "
			    "another policy than the live one (read: "
			    "/etc/tpe.conf, /etc/tpe.conf.d/50-x.conf)\n");
	free(out);
	f = open_memstream(&out, &len);
	json_status(f, &s);
	fclose(f);
	assert_string_equal(out, "{\"mode\": \"enforcing\", \"flags\": "
			    "{\"enforce\": true, \"check_file\": false, "
			    "\"strict\": false, \"mmap\": true, \"invert\": "
			    "false, \"lock\": false}, \"trusted_users\": 0, "
			    "\"trusted_groups\": 1, \"stats\": "
			    "{\"exec_denials\": 3, \"mmap_denials\": 0, "
			    "\"would_deny\": 18446744073709551615}, "
			    "\"config\": {\"path\": \"/etc/tpe.conf\", "
			    "\"state\": \"stale\", \"files\": "
			    "[\"/etc/tpe.conf\", \"/etc/tpe.conf.d/50-x.conf\"]}}\n");
	free(out);
	free(s.counters);
	s = (struct tpe_status){ 0 };
	assert_int_equal(status_parse_stats("exec_denials x\n", &s), -1);
	free(s.counters);
	s = (struct tpe_status){ 0 };
	assert_int_equal(status_parse_stats("a 1 2\n", &s), -1);
	free(s.counters);
}

/* ---- securityfs.c: what a refusal and a missing tpe mean ---- */

static void fake_securityfs(const char *lsm, uint32_t flags)
{
	char path[1200];
	struct tpe_policy p = { .flags = flags };
	uint8_t *blob;
	size_t len;

	snprintf(path, sizeof(path), "%s/sfs", fixture_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sfs/tpe", fixture_dir);
	mkdir(path, 0755);
	setenv("TPE_SECURITYFS", path, 1);
	snprintf(path, sizeof(path), "%s/sfs/lsm", fixture_dir);
	unlink(path);
	if (lsm)
		fixture_write(path, lsm);
	assert_int_equal(policy_encode(&p, &blob, &len, err), 0);
	assert_int_equal(write_once(securityfs_policy(), O_CREAT, blob, len),
			 0);
	free(blob);
}

static void test_presence_and_refusals(void **state)
{
	char want[1300], out[ERRLEN];
	struct utsname u;
	int why;

	(void)state;
	assert_int_equal(uname(&u), 0);
	fake_securityfs("capability,tpe,landlock\n", TPE_POLICY_LOCK);
	snprintf(want, sizeof(want), "%s/sfs", fixture_dir);
	assert_string_equal(securityfs_root(), want);
	assert_int_equal(tpe_presence(&why), TPE_ACTIVE);
	/* EPERM: the live flags tell a locked policy from a missing cap */
	write_refusal(EPERM, out);
	assert_string_equal(out, "EPERM: the live policy is locked (lock = "
			    "true; reboot to change it)");
	fake_securityfs("capability,tpe", TPE_POLICY_ENFORCE);
	write_refusal(EPERM, out);
	assert_string_equal(out, "EPERM: you lack CAP_MAC_ADMIN (the live "
			    "policy is not locked)");
	write_refusal(EACCES, out);
	assert_string_equal(out, "EACCES: only root may write the policy");
	write_refusal(EINVAL, out);
	assert_string_equal(out, errno_words(EINVAL));
	/* tpe not among the LSMs: which kernel to boot */
	fake_securityfs("capability,tpex,landlock", 0);
	assert_int_equal(tpe_presence(&why), TPE_INACTIVE);
	write_refusal(ENOENT, out);
	snprintf(want, sizeof(want), "tpe is not active in this kernel "
		 "(uname -r %s): boot a kernel with CONFIG_SECURITY_TPE=y "
		 "and tpe in lsm=, e.g. linux-image-*-tpe", u.release);
	assert_string_equal(out, want);
	/* no lsm file: securityfs is not mounted; nobody can tell */
	fake_securityfs(NULL, 0);
	assert_int_equal(tpe_presence(&why), TPE_UNKNOWN);
	assert_int_equal(why, ENOENT);
	write_refusal(ENOENT, out);
	snprintf(want, sizeof(want), "securityfs is not mounted at %s/sfs: "
		 "cannot tell whether tpe is active", fixture_dir);
	assert_string_equal(out, want);
	unsetenv("TPE_SECURITYFS");
	assert_string_equal(securityfs_root(), "/sys/kernel/security");
	setenv("TPE_SECURITYFS", "rel/", 1);
	assert_string_equal(securityfs_root(), ".");
	unsetenv("TPE_SECURITYFS");
}

/* A script is refused when its interpreter is; a UID without a group. */
static void test_explain_chain_and_no_egid(void **state)
{
	struct tpe_identity ghost = { 4242, 0, NULL, 0, 1 };
	struct tpe_facts f = { .path = "/srv/s", .resolved = "/srv/s",
			       .dir_path = "/srv", .dir = DIR_OK,
			       .file = FILE_OK };
	uint32_t g0[] = { 0 };
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE,
				.groups = { g0, 1 } };
	struct tpe_verdict v;
	char *s;
	size_t len;
	FILE *out;

	(void)state;
	/* egid 0 would be listed; a UID with no passwd entry has none */
	explain_judge(&p, &ghost, &f, &v);
	assert_int_equal(v.listed, LISTED_NONE);
	assert_false(v.trusted);
	assert_false(explain_refused(&v));
	assert_string_equal(explain_headline(&v), "allowed");
	v.interp = "/tmp/sh";
	v.interp_check = TPE_CHECK_DIR_WRITABLE;
	v.listed_at = "/etc/tpe.conf:3";
	assert_true(explain_refused(&v));
	assert_string_equal(explain_headline(&v), "denied");
	out = open_memstream(&s, &len);
	explain_write(out, &p, &ghost, &f, &v, &fake_db);
	fclose(out);
	assert_non_null(strstr(s, "/srv/s: denied (its interpreter /tmp/sh) "
			       "check=dir-writable\n"));
	assert_non_null(strstr(s, "  user: uid 4242, gid none (no passwd "
			       "entry: no primary group), groups none\n"));
	assert_non_null(strstr(s, "  exec: denied: the interpreter /tmp/sh "
			       "is refused (below)\n"));
	/* not listed: no listed line, whatever listed_at says */
	assert_null(strstr(s, "listed:"));
	free(s);
	p.flags = 0;	/* permissive */
	explain_judge(&p, &ghost, &f, &v);
	v.interp = "/tmp/sh";
	v.interp_check = TPE_CHECK_DIR_WRITABLE;
	assert_string_equal(explain_headline(&v), "would deny");
	/* JSON: the same facts; the caller closes the object */
	out = open_memstream(&s, &len);
	json_verdict(out, &p, &ghost, &f, &v, &fake_db);
	fputc('}', out);
	fclose(out);
	assert_string_equal(s, "{\"path\": \"/srv/s\", \"resolved\": "
		"\"/srv/s\", \"verdict\": \"would deny\", \"check\": null, "
		"\"user\": {\"uid\": 4242, \"gid\": null, \"groups\": []}, "
		"\"root\": false, \"trusted\": false, \"listed\": \"none\", "
		"\"invert\": false, \"strict\": false, \"checked\": true, "
		"\"file\": {\"path\": \"/srv/s\", \"uid\": 0, \"mode\": "
		"\"0755\"}, \"directory\": {\"path\": \"/srv\", \"uid\": 0, "
		"\"mode\": \"0755\"}, \"exec\": \"would deny\", \"mmap\": "
		"\"not checked\", \"refused_interpreter\": \"/tmp/sh\"}");
	free(s);
}

/* conf_opts.listed: the first place of each ID, across drop-ins. */
struct seen_at {
	char at[8][1200];
	int n;
};

static void note_listed(void *arg, int which, uint32_t id, const char *file,
			unsigned line)
{
	struct seen_at *s = arg;

	if (s->n < 8)
		snprintf(s->at[s->n++], sizeof(s->at[0]), "%d %u %s:%u",
			 which, id, file, line);
}

static void test_listed_places(void **state)
{
	struct seen_at seen = { .n = 0 };
	struct conf_opts o = { .r = &fake_db, .caller = geteuid(),
			       .listed = note_listed, .listed_arg = &seen };
	char d[1200], f[1300], want[1400];
	struct tpe_policy p;

	(void)state;
	fixture_write(conf_path, "trusted_users = (\n\"bob\",\n7 );\n");
	snprintf(d, sizeof(d), "%s.d", conf_path);
	mkdir(d, 0755);
	snprintf(f, sizeof(f), "%s/50-x.conf", d);
	fixture_write(f, "\ntrusted_users = [ 7 ];\ntrusted_groups = [ "
		      "\"wheel\" ];\n");
	assert_int_equal(conf_load(conf_path, &o, &p, err), 2);
	policy_free(&p);
	assert_int_equal(seen.n, 3);
	/* sorted by ID; 7's first place is the config's, not the drop-in's */
	snprintf(want, sizeof(want), "0 7 %s:3", conf_path);
	assert_string_equal(seen.at[0], want);
	snprintf(want, sizeof(want), "0 1002 %s:2", conf_path);
	assert_string_equal(seen.at[1], want);
	snprintf(want, sizeof(want), "1 10 %s:3", f);
	assert_string_equal(seen.at[2], want);
	unlink(f);
	rmdir(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_flag_key),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_duplicates_and_root),
		cmocka_unit_test(test_no_wrapping),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_dropins),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_blob_vectors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_securityfs_path),
		cmocka_unit_test(test_errno_words),
		cmocka_unit_test(test_explain_judge),
		cmocka_unit_test(test_judge_identity),
		cmocka_unit_test(test_judge_path),
		cmocka_unit_test(test_check_names),
		cmocka_unit_test(test_explain_names_in_words),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_json_policy),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_presence_and_refusals),
		cmocka_unit_test(test_explain_chain_and_no_egid),
		cmocka_unit_test(test_listed_places),
	};

	return cmocka_run_group_tests_name("tpe-load", tests, setup_dir,
					   fixture_dir_remove);
}
