// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of conf.c, with source.c and scan.c beneath it: the keys and
 * their defaults, every error with its file and line, @include, drop-ins, the
 * summary and where each listed ID stands.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "unit.h"

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
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_dropins),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_listed_places),
	};

	return cmocka_run_group_tests_name("conf", tests, setup_conf,
					   fixture_dir_remove);
}
