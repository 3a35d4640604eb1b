// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for record.c and suggest.c (cmocka; ASan and UBSan). The logs
 * in fixtures/ are real: one permissive guest boot (alice, bob and uid 1003
 * running programs from their homes, the sticky /srv/tpe-ww, a
 * world-writable /srv/shared, /opt/alice that alice owns, a world-writable
 * file in /srv/fw; names with a space, a newline, a backslash, a quote and
 * UTF-8; ld.so ./prog; then two real denials), read back as audit.log,
 * `ausearch -m AVC`, `ausearch -m AVC -i`, `journalctl -k` and dmesg,
 * rewritten in the kernel's new format (fixed fields, path last, dev=,
 * ino=, dir_ino=). journal-k and dmesg also have a cut record
 * (path_prefix=) and an old-format line whose path forges uid=0: both are
 * skipped. kernel-edge has one line for each other parser rule.
 * The machine is the fake one below: the guest's directories as they were.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <linux/tpe.h>

#include "suggest.h"

/* Every form tpe-suggest reads, and how many records each skips. */
static const char *const logs[] = {
	"audit.log", "ausearch-raw", "journal-k", "dmesg",
};
static const size_t skips[] = { 0, 0, 2, 2 };

static const struct {
	const char *path, *home_of;
	uid_t uid;
	mode_t mode;
} guest[] = {
	{ "/home/alice/bin", "alice", 1001, S_IFDIR | 0755 },
	{ "/home/bob/bin", "bob", 1002, S_IFDIR | 0755 },
	{ "/srv/tpe-ww", "", 0, S_IFDIR | 01777 },
	{ "/srv/shared", "", 0, S_IFDIR | 0777 },
	{ "/srv/shared/tool", "", 0, S_IFREG | 0755 },
	{ "/opt/alice", "", 1001, S_IFDIR | 0755 },
	{ "/opt/alice/tool", "", 0, S_IFREG | 0755 },
	{ "/srv/fw", "", 0, S_IFDIR | 0755 },
	{ "/srv/fw/tool", "", 0, S_IFREG | 0777 },
	{ "/srv/it's here", "", 0, S_IFDIR | 0775 },
};

static int guest_facts(const char *path, struct facts *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < sizeof(guest) / sizeof(guest[0]); i++) {
		if (strcmp(path, guest[i].path))
			continue;
		f->found = true;
		f->uid = guest[i].uid;
		f->mode = guest[i].mode;
		strcpy(f->home_of, guest[i].home_of);
	}
	return 0;
}

static const char *guest_user(uint32_t uid)
{
	return uid == 1001 ? "alice" : uid == 1002 ? "bob" : NULL;
}

static uint32_t trusted_gid;

static bool guest_in_group(uint32_t uid, uint32_t gid)
{
	return uid == 1002 && gid == trusted_gid;
}

static const struct world guest_world = {
	guest_facts, guest_user, guest_in_group,
};

/* The reasons of the records the last read_fixture() skipped. */
static const char *skip_why[64];
static size_t skipped;

/* Every denial record of a fixture; counts the skipped ones. */
static size_t read_fixture(const char *name, struct suggest *s,
			   struct record *out, size_t max)
{
	char path[512], *line = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	assert_non_null(f);
	skipped = 0;
	while (getline(&line, &cap, f) >= 0) {
		struct record r;
		const char *why;
		int rc = record_parse(line, &r, &why);

		if (rc < 0) {
			assert_non_null(why);
			if (skipped < 64)
				skip_why[skipped] = why;
			skipped++;
			if (s)
				suggest_skip(s, why);
			continue;
		}
		if (rc == 0)
			continue;
		if (s)
			assert_int_equal(suggest_add(s, &r), 0);
		if (out && n < max)
			out[n] = r;
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static char *run(struct suggest *s, const struct tpe_policy *p,
		 size_t (*what)(FILE *, struct suggest *,
				const struct tpe_policy *,
				const struct world *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	what(f, s, p, &guest_world);
	fclose(f);
	return buf;
}

static size_t whole_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w)
{
	suggest_report(f, s, p, w);
	return 0;
}

static bool has_path(const struct record *r, size_t n, const char *path,
		     const char *op)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].path, path) && !strcmp(r[i].op, op))
			return true;
	return false;
}

/* Each form names the same 18 programs runs, 2 of them denied. */
static void test_every_log_form(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		struct suggest *s = suggest_new();
		struct tpe_policy p = { 0 };
		char *out;

		read_fixture(logs[i], s, NULL, 0);
		out = run(s, &p, whole_report);
		assert_int_equal(suggest_records(s), 18);
		assert_int_equal(skipped, skips[i]);
		if (!strstr(out, "18 denials (2 denied, 16 would deny)"))
			fail_msg("%s: %s", logs[i], out);
		free(out);
		suggest_free(s);
	}
}

/* %*pE, audit's hex and ausearch -i's decoding all give the same bytes. */
static void test_escaped_paths(void **state)
{
	static const char *const names[] = {
		"/home/alice/bin/sp ace", "/home/alice/bin/new\nline",
		"/home/alice/bin/back\\slash", "/home/alice/bin/caf\xc3\xa9",
		"/home/alice/bin/quo\"te",
	};
	static struct record r[64];

	(void)state;
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		size_t n = read_fixture(logs[i], NULL, r, 64);

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!has_path(r, n, names[k], "exec"))
				fail_msg("%s: no exec of \"%s\"", logs[i],
					 names[k]);
	}
}

/* ld.so ./prog is an mmap denial of its own; an exec's mmap is the same. */
static void test_mmap_and_exec(void **state)
{
	static struct record r[64];
	size_t n = read_fixture("audit.log", NULL, r, 64), ld = 0;

	(void)state;
	for (size_t i = 0; i < n; i++)
		ld += !strcmp(r[i].comm, "ld-linux-x86-64") &&
		      !strcmp(r[i].op, "mmap") &&
		      !strcmp(r[i].path, "/home/alice/bin/tpe-hello");
	assert_int_equal(ld, 1);
	assert_int_equal(n, 33);	/* 16 exec + 16 mmap + 1 ld.so */
}

/* The same events from two logs, or one log twice, count once. */
static void test_duplicates(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	char *out;

	(void)state;
	read_fixture("audit.log", s, NULL, 0);
	read_fixture("journal-k", s, NULL, 0);
	read_fixture("journal-k", s, NULL, 0);
	out = run(s, &p, whole_report);
	assert_int_equal(suggest_records(s), 18);
	free(out);
	suggest_free(s);
}

static void test_dropin_and_commands(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { .flags = TPE_POLICY_MMAP };
	char *dropin, *cmds, *report;

	(void)state;
	read_fixture("dmesg", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	cmds = run(s, &p, suggest_commands);
	report = run(s, &p, whole_report);
	/* Homes and the sticky /srv/tpe-ww: trust; uid 1003 has no name. */
	assert_non_null(strstr(dropin,
			       "trusted_users = ( \"alice\", \"bob\", 1003 );\n"));
	/* Shared and owned directories, a writable file: fix them. */
	/* A file gets a new inode: no chmod of it in place (file-open-write). */
	assert_string_equal(cmds, "chown root:root /opt/alice\n"
				  "install -o root -g root -m 0755 /srv/fw/tool /srv/fw/.tool.tpe-new && mv -f /srv/fw/.tool.tpe-new /srv/fw/tool\n"
				  "chmod go-w /srv/shared\n");
	/* Never a home or /tmp-like directory, and the report says so. */
	assert_null(strstr(cmds, "/home"));
	assert_null(strstr(cmds, "tpe-ww"));
	assert_non_null(strstr(report, "in a user's home directory"));
	assert_non_null(strstr(report, "sticky and world-writable"));
	/* /srv/shared: both users' denials, either way, fix recommended. */
	assert_non_null(strstr(report,
			       "/srv/shared: removes 2 denials of 2 users"));
	assert_non_null(strstr(report, "or trust this user instead"));
	/* Each command once in its section, once in the script at the end. */
	assert_null(strstr(strstr(report, "Commands"), "Trust"));
	{
		const char *c = report;
		int n = 0;

		while ((c = strstr(c, "chmod go-w /srv/shared\n")))
			n++, c++;
		assert_int_equal(n, 2);
	}
	free(dropin);
	free(cmds);
	free(report);
	suggest_free(s);
}

/* A user the config trusts already, and INVERT, add no one. */
static void test_current_config(void **state)
{
	struct suggest *s = suggest_new();
	uint32_t gid = 2000;
	struct tpe_policy p = { .groups = { &gid, 1 } };
	char *dropin;

	(void)state;
	trusted_gid = 2000;
	read_fixture("audit.log", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	assert_non_null(strstr(dropin, "trusted_users = ( \"alice\", 1003 );"));
	free(dropin);
	p.flags = TPE_POLICY_INVERT;
	p.groups.n = 0;
	suggest_free(s);
	s = suggest_new();
	read_fixture("audit.log", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	assert_null(strstr(dropin, "trusted_users"));
	free(dropin);
	suggest_free(s);
}

#define NEW_LINE(tail) "tpe: denied exec uid=1 euid=6 pid=7 comm=c " \
	"check=dir-owner dev=254:3 ino=12 dir_ino=34 " tail "\n"

static void test_lines(void **state)
{
	struct record r;
	const char *why;

	(void)state;
	assert_int_equal(record_parse("kernel: usb 1-1: new device\n", &r, &why), 0);
	assert_int_equal(record_parse("type=MAC_POLICY_LOAD msg=audit(1:2): lsm=tpe op=policy_write len=24 res=1\n", &r, &why), 0);
	assert_int_equal(record_parse("tpe: would deny exec of /x by uid=1\n", &r, &why), -1);
	assert_non_null(why);
	assert_int_equal(record_parse("type=AVC msg=audit(1:2): lsm=tpe op=exec check=dir-owner path=\"/x\" res=1\n", &r, &why), -1);
	/* The old format's name that imitates the tail: refused, whole. */
	assert_int_equal(record_parse("tpe: denied exec of /a by uid=1 euid=1 pid=1 comm=x: check=y by uid=5 euid=6 pid=7 comm=c: check=dir-owner\n", &r, &why), -1);
	assert_ptr_equal(why, REC_OLD_FORMAT);
	/* The new one: every field where it must be. */
	assert_int_equal(record_parse(NEW_LINE("path=/a\\040by\\040uid=0"), &r, &why), 1);
	assert_string_equal(r.path, "/a by uid=0");
	assert_int_equal(r.uid, 1);
	assert_int_equal(r.euid, 6);
	assert_int_equal(r.pid, 7);
	assert_int_equal(r.dev_major, 254);
	assert_int_equal(r.dev_minor, 3);
	assert_int_equal(r.ino, 12);
	assert_int_equal(r.dir_ino, 34);
	assert_true(r.enforced);
	/* A cut path, a field after the path, a bad escape, a raw space. */
	assert_int_equal(record_parse(NEW_LINE("path_prefix=/a/b"), &r, &why), -1);
	assert_ptr_equal(why, REC_CUT);
	assert_int_equal(record_parse(NEW_LINE("path=/a euid=0"), &r, &why), -1);
	assert_int_equal(record_parse(NEW_LINE("path=/a\\q"), &r, &why), -1);
	assert_int_equal(record_parse(NEW_LINE("path=/a\\000b"), &r, &why), -1);
	assert_int_equal(record_parse(NEW_LINE("path=relative"), &r, &why), -1);
	assert_int_equal(record_parse("tpe: denied exec euid=6 uid=1 pid=7 comm=c check=dir-owner dev=254:3 ino=12 dir_ino=34 path=/a\n", &r, &why), -1);
	assert_int_equal(record_parse("tpe: denied exec uid=1 euid=6 pid=7 comm=c check=no-such dev=254:3 ino=12 dir_ino=34 path=/a\n", &r, &why), -1);
	assert_int_equal(record_parse("tpe: denied exec uid=1 euid=-6 pid=7 comm=c check=dir-owner dev=254:3 ino=12 dir_ino=34 path=/a\n", &r, &why), -1);
	/* Escapes: \\ is one backslash; \x2f after it is text, not a slash. */
	assert_int_equal(record_parse(NEW_LINE("path=/h/..\\\\x2ftmp"), &r, &why), 1);
	assert_string_equal(r.path, "/h/..\\x2ftmp");
	assert_int_equal(record_parse(NEW_LINE("path=/h/\\x41\\101\\n\\e\\\\"), &r, &why), 1);
	assert_string_equal(r.path, "/h/AA\n\033\\");
	/* "tpe: " inside some other program's message is not the kernel's. */
	assert_int_equal(record_parse("host app[1]: " NEW_LINE("path=/a"), &r, &why), -1);
	assert_int_equal(record_parse("Dec 05 host kernel: " NEW_LINE("path=/a"), &r, &why), 1);
	/* Audit: action= and res= agree; the order is the kernel's. */
	assert_int_equal(record_parse("type=AVC msg=audit(1.2:3): lsm=tpe op=exec action=permissive check=dir-owner tclass=file subj_euid=1001 dev=254:0 ino=5 dir_ino=6 ppid=1 pid=9 auid=1 uid=1001 gid=1 euid=1001 suid=1 fsuid=1 egid=1 sgid=1 fsgid=1 tty=(none) ses=1 comm=\"a\" exe=\"/b\" subj=unconfined path=2F6120620A res=0\n", &r, &why), -1);
	assert_int_equal(record_parse("type=AVC msg=audit(1.2:3): lsm=tpe op=exec action=denied check=dir-owner tclass=file subj_euid=1001 dev=254:0 ino=5 dir_ino=6 ppid=1 pid=9 auid=1 uid=1001 gid=1 euid=1001 suid=1 fsuid=1 egid=1 sgid=1 fsgid=1 tty=(none) ses=1 comm=\"a\" exe=\"/b\" subj=unconfined path=2F6120620A res=0\n", &r, &why), 1);
	assert_string_equal(r.path, "/a b\n");
	assert_int_equal(r.ino, 5);
	assert_int_equal(r.dir_ino, 6);
	assert_int_equal(r.pid, 9);
	assert_int_equal(r.euid, 1001);
	/* The old audit order (path= before tclass=, no dev=): refused. */
	assert_int_equal(record_parse("type=AVC msg=audit(1.2:3): lsm=tpe op=exec action=denied check=dir-owner path=\"/x\" tclass=file subj_euid=1001 ppid=1 pid=9 auid=1 uid=1001 gid=1 euid=1001 suid=1 fsuid=1 egid=1 sgid=1 fsgid=1 tty=(none) ses=1 comm=\"a\" exe=\"/b\" subj=unconfined res=0\n", &r, &why), -1);
}

/* journal-k and dmesg: the cut record and the forged line are skipped. */
static void test_skipped_records(void **state)
{
	static const char *const kernel_logs[] = { "journal-k", "dmesg" };
	static struct record r[64];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct suggest *s = suggest_new();
		struct tpe_policy p = { 0 };
		size_t n = read_fixture(kernel_logs[i], NULL, r, 64);
		char *out;

		assert_int_equal(n, 33);
		assert_int_equal(skipped, 2);
		assert_ptr_equal(skip_why[0], REC_CUT);
		assert_ptr_equal(skip_why[1], REC_OLD_FORMAT);
		for (size_t k = 0; k < n; k++) {
			assert_int_not_equal(r[k].euid, 0);
			assert_int_not_equal(r[k].uid, 0);
			assert_null(strstr(r[k].path, "long-name"));
		}
		read_fixture(kernel_logs[i], s, NULL, 0);
		out = run(s, &p, whole_report);
		if (!strstr(out, "2 unreadable TPE records skipped") ||
		    !strstr(out, REC_CUT) || !strstr(out, REC_OLD_FORMAT))
			fail_msg("%s: %s", kernel_logs[i], out);
		free(out);
		suggest_free(s);
	}
}

/* ausearch -i: every record skipped, with the hint; nothing proposed. */
static void test_ausearch_i(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	char *out;

	(void)state;
	assert_int_equal(read_fixture("ausearch-i", s, NULL, 0), 0);
	assert_int_equal(skipped, 33);
	for (size_t k = 0; k < skipped; k++)
		assert_ptr_equal(skip_why[k], REC_INTERPRETED);
	out = run(s, &p, whole_report);
	assert_non_null(strstr(out, "0 denials"));
	assert_non_null(strstr(out, "use ausearch --raw or audit.log"));
	free(out);
	suggest_free(s);
}

/* The same object has the same dev, ino and dir_ino in every form. */
static void test_object_ids(void **state)
{
	static struct record a[64], k[64];
	size_t na = read_fixture("audit.log", NULL, a, 64);
	size_t nk = read_fixture("journal-k", NULL, k, 64), m = 0;

	(void)state;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nk; j++) {
			if (a[i].pid != k[j].pid || strcmp(a[i].op, k[j].op))
				continue;
			assert_string_equal(a[i].path, k[j].path);
			assert_int_equal(a[i].dev_major, 254);
			assert_int_equal(a[i].dev_major, k[j].dev_major);
			assert_int_equal(a[i].dev_minor, k[j].dev_minor);
			assert_int_equal(a[i].ino, k[j].ino);
			assert_int_equal(a[i].dir_ino, k[j].dir_ino);
			assert_int_equal(a[i].uid, k[j].uid);
			assert_string_equal(a[i].comm, k[j].comm);
			m++;
		}
	assert_int_equal(m, 33);
}

/* One line per rule: see the fixture. */
static void test_kernel_edge(void **state)
{
	static struct record r[16];
	size_t n = read_fixture("kernel-edge", NULL, r, 16);

	(void)state;
	assert_int_equal(n, 4);
	assert_int_equal(skipped, 5);
	/* A literal backslash, then x2f: the bytes, never a slash. */
	assert_string_equal(r[0].path, "/home/alice/bin/..\\x2ftmp");
	assert_int_equal(r[0].ino, 140001);
	/* Spaces in a name are \040: it names a file, not a uid. */
	assert_string_equal(r[1].path, "/home/alice/bin/x uid=0 euid=0");
	assert_int_equal(r[1].euid, 1001);
	/* /dev/kmsg's prefix; a check explain never returns. */
	assert_string_equal(r[2].check, "file-open-write");
	assert_string_equal(r[2].op, "mmap");
	assert_false(r[2].enforced);
	/* An audit record the kernel printed itself (no auditd). */
	assert_string_equal(r[3].op, "mprotect");
	assert_string_equal(r[3].path, "/usr/local/lib/x.so");
	assert_int_equal(r[3].dev_minor, 1);
	assert_int_equal(r[3].euid, 1003);
	assert_true(r[3].enforced);
	assert_ptr_equal(skip_why[0], REC_CUT);
	assert_ptr_equal(skip_why[1], REC_OLD_FORMAT);
	assert_ptr_equal(skip_why[4], REC_INTERPRETED);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(r[i].euid, 0);
}

/* A command names its directory as one shell word, whatever it holds. */
static void test_shell_word(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	struct record r;
	const char *why;
	char *cmds;

	(void)state;
	assert_int_equal(record_parse("tpe: denied exec uid=5 euid=5 pid=9 comm=x check=dir-writable dev=254:0 ino=1 dir_ino=2 path=/srv/it's\\040here/x\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	cmds = run(s, &p, suggest_commands);
	assert_string_equal(cmds, "chmod go-w '/srv/it'\\''s here'\n");
	free(cmds);
	suggest_free(s);
}

/* file-owner: a new root-owned inode under CHECK_FILE, else nothing. */
static void test_file_fix(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_CHECK_FILE };
	struct suggest *s = suggest_new();
	struct record r;
	const char *why;
	char *cmds;

	(void)state;
	assert_int_equal(record_parse("tpe: would deny exec uid=5 euid=5 pid=9 comm=x check=file-owner dev=254:0 ino=1 dir_ino=2 path=/srv/fw/it's\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	cmds = run(s, &p, suggest_commands);
	assert_string_equal(cmds, "install -o root -g root -m 0755 '/srv/fw/it'\\''s' '/srv/fw/.it'\\''s.tpe-new' && mv -f '/srv/fw/.it'\\''s.tpe-new' '/srv/fw/it'\\''s'\n");
	assert_null(strstr(cmds, "chown"));
	free(cmds);
	suggest_free(s);
	p.flags = 0;
	s = suggest_new();
	assert_int_equal(suggest_add(s, &r), 0);
	cmds = run(s, &p, suggest_commands);
	assert_string_equal(cmds, "");
	free(cmds);
	suggest_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_log_form),
		cmocka_unit_test(test_escaped_paths),
		cmocka_unit_test(test_mmap_and_exec),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_dropin_and_commands),
		cmocka_unit_test(test_current_config),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_skipped_records),
		cmocka_unit_test(test_ausearch_i),
		cmocka_unit_test(test_object_ids),
		cmocka_unit_test(test_kernel_edge),
		cmocka_unit_test(test_shell_word),
		cmocka_unit_test(test_file_fix),
	};

	return cmocka_run_group_tests_name("tpe-suggest", tests, NULL, NULL);
}
