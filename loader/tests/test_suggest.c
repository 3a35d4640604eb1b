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
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/tpe.h>

#include "fixture.h"
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
	{ "/opt/alice/mine", "", 1001, S_IFREG | 0755 },
	{ "/srv/fw", "", 0, S_IFDIR | 0755 },
	{ "/srv/fw/tool", "", 0, S_IFREG | 0777 },
	{ "/srv/it's here", "", 0, S_IFDIR | 0775 },
	{ "/srv/own", "", 0, S_IFDIR | 0755 },
	{ "/srv/own/it's", "", 5, S_IFREG | 0755 },
	{ "/dev", "", 0, S_IFDIR | 0755 },
	{ "/dev/zero", "", 0, S_IFREG | 0755 },
};

/* Paths the fake machine says moved since they were logged. */
static const char *changed_path;

static int find(const char *path)
{
	for (size_t i = 0; i < sizeof(guest) / sizeof(guest[0]); i++)
		if (!strcmp(path, guest[i].path))
			return (int)i;
	return -1;
}

/* The guest's directories as they were; a file not listed is its dir's. */
static int guest_probe(const struct record *r, struct object *o)
{
	char dir[REC_PATH_MAX];
	int d, f;

	memset(o, 0, sizeof(*o));
	snprintf(dir, sizeof(dir), "%s", r->path);
	*strrchr(dir, '/') = '\0';
	d = find(dir);
	f = find(r->path);
	if (changed_path && !strcmp(r->path, changed_path)) {
		o->state = OBJ_CHANGED;
		o->why = "changed since logged: the file is another one now (dev:ino differ)";
		return 0;
	}
	if (d < 0) {
		o->state = OBJ_MISSING;
		o->why = "directory not found";
		return 0;
	}
	o->dir_uid = guest[d].uid;
	o->dir_mode = guest[d].mode;
	o->file_uid = f < 0 ? guest[d].uid : guest[f].uid;
	o->file_mode = f < 0 ? S_IFREG | 0755 : guest[f].mode;
	strcpy(o->home_of, guest[d].home_of);
	if (!strncmp(dir, "/dev", 4))
		o->never = "/dev";
	if (!o->home_of[0] && !(o->dir_mode & S_ISVTX) &&
	    (o->dir_uid || (o->dir_mode & 022)))
		for (size_t i = 0; i < sizeof(guest) / sizeof(guest[0]); i++) {
			const char *slash = strrchr(guest[i].path, '/');

			if (S_ISREG(guest[i].mode) &&
			    (size_t)(slash - guest[i].path) == strlen(dir) &&
			    !strncmp(guest[i].path, dir, strlen(dir)) &&
			    (guest[i].uid || (guest[i].mode & 022)) &&
			    o->nrisky < RISKY_MAX)
				strcpy(o->risky[o->nrisky++], slash + 1);
		}
	return 0;
}

static const char *guest_user(uint32_t uid)
{
	return uid == 1001 ? "alice" : uid == 1002 ? "bob" : NULL;
}

static uint32_t trusted_gid;

/* bob is in the group trusted_gid, whatever it is. */
static int guest_identity(uint32_t uid, struct tpe_identity *who)
{
	uint32_t *g = malloc(sizeof(*g));

	assert_non_null(g);
	*g = trusted_gid;
	*who = (struct tpe_identity){ .euid = uid, .egid = uid, .groups = g,
				      .ngroups = uid == 1002 && trusted_gid };
	return 0;
}

static const struct world guest_world = {
	guest_probe, guest_user, guest_identity,
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

static size_t all_actions(FILE *f, struct suggest *s,
			  const struct tpe_policy *p, const struct world *w)
{
	return suggest_actions(f, s, p, w, ACT_FIX | ACT_COPY);
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

static void test_dropin_and_actions(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { .flags = TPE_POLICY_MMAP };
	char *dropin, *acts, *report;

	(void)state;
	read_fixture("dmesg", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	acts = run(s, &p, all_actions);
	report = run(s, &p, whole_report);
	/* Homes and the sticky /srv/tpe-ww: trust; uid 1003 has no name. */
	if (!strstr(dropin, "trusted_users = (\n\t\"alice\",\t# 9 in /home/alice/bin: ") ||
	    !strstr(dropin, "\t\"bob\",\t# 1 in /home/bob/bin: tpe-hello; 1 in /srv/tpe-ww: tpe-hello\n") ||
	    !strstr(dropin, "\t1003\t# 1 in /srv/tpe-ww: tpe-hello\n);\n"))
		fail_msg("%s", dropin);
	/* A root-owned shared directory holding root's files: chmod go-w.
	 * alice's own /opt/alice and a 0777 file: copies, never a chown or a
	 * file fixed in place. */
	assert_string_equal(acts,
		"  install -o root -g root -m 0755 /opt/alice/tool /opt/tpe-suggest/alice/tool  (file dev 254:0 ino 131077)\n"
		"  install -o root -g root -m 0755 /srv/fw/tool /opt/tpe-suggest/alice/tool-131091  (file dev 254:0 ino 131091)\n"
		"  chmod go-w /srv/shared  (directory dev 254:0 ino 131070)\n");
	assert_null(strstr(report, "chown root"));
	assert_null(strstr(report, "chmod go-w /srv/fw"));
	assert_null(strstr(report, "chmod go-w /opt"));
	assert_null(strstr(report, "mv -f"));
	/* Never a home or /tmp-like directory, and the report says so. */
	assert_null(strstr(acts, "/home"));
	assert_null(strstr(acts, "tpe-ww"));
	assert_non_null(strstr(report, "in a user's home directory"));
	assert_non_null(strstr(report, "a sticky directory like /tmp"));
	assert_non_null(strstr(report, "the directory is a user's: a chown would make her files trusted"));
	assert_non_null(strstr(report, "would become trusted by a chown or chmod: mine"));
	/* /srv/shared: both users' denials, either way, fix recommended. */
	assert_non_null(strstr(report,
			       "/srv/shared: removes 2 denials of 2 users"));
	assert_non_null(strstr(report, "or trust this user instead"));
	/* Each action once in its section, once in the list at the end. */
	{
		const char *c = report;
		int n = 0;

		while ((c = strstr(c, "chmod go-w /srv/shared ")))
			n++, c++;
		assert_int_equal(n, 2);
	}
	free(dropin);
	free(acts);
	free(report);
	suggest_free(s);
}

/*
 * One judge: explain_judge() says who is trusted. A user trusted through
 * a group is not proposed; under INVERT a listed user is untrusted (not
 * "trusted already") and nobody is proposed.
 */
static void test_current_config(void **state)
{
	struct suggest *s = suggest_new();
	uint32_t gid = 2000, alice = 1001;
	struct tpe_policy p = { .groups = { &gid, 1 } };
	char *dropin, *report;

	(void)state;
	trusted_gid = 2000;
	read_fixture("audit.log", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	assert_non_null(strstr(dropin, "\t\"alice\","));
	assert_non_null(strstr(dropin, "\t1003\t"));
	assert_null(strstr(dropin, "\"bob\""));
	free(dropin);
	/* a directory fix closes the hole whoever is trusted already */
	dropin = run(s, &p, all_actions);
	assert_non_null(strstr(dropin, "chmod go-w /srv/shared "));
	free(dropin);
	suggest_free(s);
	p = (struct tpe_policy){ .flags = TPE_POLICY_INVERT,
				 .users = { &alice, 1 } };
	s = suggest_new();
	read_fixture("audit.log", s, NULL, 0);
	dropin = run(s, &p, suggest_dropin);
	report = run(s, &p, whole_report);
	assert_null(strstr(dropin, "trusted_users"));
	/* bob, unlisted, is trusted under INVERT; alice, listed, is not */
	if (!strstr(report, "by bob (uid 1002) in /home/bob/bin (dir-owner): the user is trusted by the current config already") ||
	    strstr(report, "by alice (uid 1001) in /home/alice/bin (dir-owner): the user is trusted"))
		fail_msg("%s", report);
	/* alice's programs in her home: nothing may change there, and trust
	 * cannot help under INVERT: copies are proposed */
	assert_non_null(strstr(report, "install -o root -g root -m 0755 /home/alice/bin/tpe-hello /opt/tpe-suggest/alice/tpe-hello"));
	free(dropin);
	free(report);
	suggest_free(s);
	trusted_gid = 0;
}

/* With its first drop-in in place the same log gives the same drop-in. */
static void test_converges(void **state)
{
	struct suggest *s = suggest_new();
	uint32_t kept[] = { 1001, 1002, 1003 }, extra = 1005;
	struct tpe_policy p = { 0 };
	struct tpe_ids old = { kept, 3 };
	char *first, *second;

	(void)state;
	read_fixture("dmesg", s, NULL, 0);
	first = run(s, &p, suggest_dropin);
	suggest_free(s);
	/* the config in force now has the drop-in's users */
	p.users = old;
	s = suggest_new();
	read_fixture("dmesg", s, NULL, 0);
	assert_int_equal(suggest_keep(s, &old, "/etc/tpe.conf.d/50-suggest.conf"), 0);
	second = run(s, &p, suggest_dropin);
	/* same users in the same order; each line still says why */
	assert_non_null(strstr(second, "\t\"alice\",\t# 9 in /home/alice/bin: "));
	assert_non_null(strstr(second, "; kept from the drop-in as it was\n"));
	assert_non_null(strstr(second, "\t1003\t# 1 in /srv/tpe-ww: tpe-hello; kept"));
	assert_string_not_equal(first, "");
	free(first);
	free(second);
	suggest_free(s);
	/* a user only the old drop-in names stays */
	s = suggest_new();
	read_fixture("dmesg", s, NULL, 0);
	old = (struct tpe_ids){ &extra, 1 };
	assert_int_equal(suggest_keep(s, &old, "/x.d/50-suggest.conf"), 0);
	p.users = old;
	second = run(s, &p, suggest_dropin);
	assert_non_null(strstr(second, "\t1005,\t# kept from the drop-in as it was\n"));
	assert_non_null(strstr(second, "# /x.d/50-suggest.conf: written"));
	free(second);
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
	assert_int_equal(r[2].check, TPE_CHECK_FILE_OPEN_WRITE);
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

/*
 * fixtures/kernel-guest: the rollout-attack suite's records as the new
 * kernel printed them on the serial console (CR LF and all): names that
 * read like a way out, like fields, like a line; paths cut by the kernel.
 */
static void test_kernel_guest(void **state)
{
	static struct record r[32];
	size_t n = read_fixture("kernel-guest", NULL, r, 32);

	(void)state;
	assert_int_equal(n + skipped, 28);
	assert_int_equal(skipped, 3);
	for (size_t k = 0; k < skipped; k++)
		assert_ptr_equal(skip_why[k], REC_CUT);
	assert_true(has_path(r, n, "/home/alice/att/..\\x2ftmp", "exec"));
	assert_true(has_path(r, n, "/tmp/att/..\\x2ftmp/prog", "mmap"));
	assert_true(has_path(r, n, "/home/alice/att/a tclass=file subj_euid=1003 z", "exec"));
	assert_true(has_path(r, n, "/home/alice/att/\x1b[2J\x1b]0;pwned\a\x9b" "31m", "exec"));
	assert_true(has_path(r, n, "/home/alice/att/new\nline tpe: denied exec uid=0 euid=0", "exec"));
	for (size_t k = 0; k < n; k++) {
		assert_true(r[k].euid == 1001 || r[k].euid == 1003);
		assert_int_equal(r[k].uid, r[k].euid);
		assert_int_equal(r[k].dev_major, 254);
		assert_null(strstr(r[k].path, "long"));
	}
}

/*
 * fixtures/journal-json: journalctl -o json. Only the kernel's transport
 * counts: the same text sent by a program (syslog, stdout, a field given
 * twice that hides a "_TRANSPORT" in its strings) is skipped and counted.
 */
static void test_journal_json(void **state)
{
	static struct record r[8];
	size_t n = read_fixture("journal-json", NULL, r, 8);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(skipped, 2);
	assert_ptr_equal(skip_why[0], REC_NOT_KERNEL);
	assert_ptr_equal(skip_why[1], REC_NOT_KERNEL);
	assert_string_equal(r[0].path, "/home/a\\x2f\xc3\xa9");
	assert_int_equal(r[0].euid, 1001);
	/* a MESSAGE that is not UTF-8 comes as an array of bytes */
	assert_string_equal(r[1].path, "/x\xff");
	assert_int_equal(r[1].ino, 3);
	for (size_t k = 0; k < n; k++)
		assert_int_not_equal(r[k].euid, 0);
}

static bool terminal_safe(const char *out)
{
	for (const unsigned char *c = (const unsigned char *)out; *c; c++)
		if ((*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7f ||
		    (*c >= 0x80 && *c < 0xa0))
			return false;
	return true;
}

/* No raw C0, DEL or C1 byte of a name reaches the terminal. */
static void test_escape(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	struct record r;
	const char *why;
	char *out = NULL;
	size_t len;
	FILE *f;

	(void)state;
	f = open_memstream(&out, &len);
	suggest_escape(f, "/a\x1b[2J\x9b" "31m\\b\x7f\xc3\xa9\n");
	fclose(f);
	assert_string_equal(out, "/a\\x1b[2J\\x9b31m\\\\b\\x7f\xc3\xa9\\x0a");
	free(out);
	/* a home program and a copied one, names full of escapes */
	assert_int_equal(record_parse("tpe: denied exec uid=1001 euid=1001 pid=9 comm=x check=dir-owner dev=254:0 ino=1 dir_ino=2 path=/opt/alice/\\033]0;x\\007\\x9b\\n\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	assert_int_equal(record_parse("tpe: denied exec uid=1001 euid=1001 pid=10 comm=x check=dir-owner dev=254:0 ino=3 dir_ino=4 path=/home/alice/bin/\\e[H\\r\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	read_fixture("dmesg", s, NULL, 0);
	out = run(s, &p, whole_report);
	if (!terminal_safe(out))
		fail_msg("%s", out);
	/* the copy's name is made of safe bytes only */
	assert_non_null(strstr(out, "/opt/tpe-suggest/alice/__0_x___"));
	assert_non_null(strstr(out, "/home/alice/bin/\\x1b[H\\x0d"));
	free(out);
	out = run(s, &p, suggest_dropin);
	assert_true(terminal_safe(out));
	/* a name's new line makes no line of its own in the drop-in */
	for (const char *l = out; *l; l = strchr(l, '\n') + 1)
		if (strncmp(l, "# ", 2) && strncmp(l, "trusted_users = (\n", 18) &&
		    strncmp(l, "\t", 1) && strcmp(l, ");\n"))
			fail_msg("a line of its own: %s", l);
	free(out);
	suggest_free(s);
}

/* file-owner in a root directory: a copy, never the file in place. */
static void test_file_copy(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_CHECK_FILE };
	struct suggest *s = suggest_new();
	struct record r;
	const char *why;
	char *acts;

	(void)state;
	assert_int_equal(record_parse("tpe: would deny exec uid=5 euid=5 pid=9 comm=x check=file-owner dev=254:0 ino=1 dir_ino=2 path=/srv/own/it's\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	acts = run(s, &p, all_actions);
	assert_string_equal(acts, "  install -o root -g root -m 0755 /srv/own/it's /opt/tpe-suggest/uid-5/it_s  (file dev 254:0 ino 1)\n");
	free(acts);
	suggest_free(s);
}

/* Changed since logged, or under /dev: reported, never acted on. */
static void test_changed_and_never(void **state)
{
	struct tpe_policy p = { 0 };
	struct suggest *s = suggest_new();
	struct record r;
	const char *why;
	char *acts, *report, *dropin;

	(void)state;
	changed_path = "/srv/shared/tool";
	assert_int_equal(record_parse("tpe: would deny exec uid=7 euid=7 pid=9 comm=x check=dir-writable dev=254:0 ino=1 dir_ino=2 path=/srv/shared/tool\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	/* alice's bind mount over /dev/zero in her own namespace */
	assert_int_equal(record_parse("tpe: would deny exec uid=8 euid=8 pid=10 comm=x check=dir-owner dev=254:0 ino=3 dir_ino=4 path=/dev/zero\n", &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	acts = run(s, &p, all_actions);
	report = run(s, &p, whole_report);
	dropin = run(s, &p, suggest_dropin);
	assert_string_equal(acts, "");
	assert_non_null(strstr(report, "/srv/shared/tool (dev 254:0 ino 1, by uid 7, dir-writable): changed since logged"));
	assert_non_null(strstr(report, "under /dev, /proc, /sys or /run"));
	/* uid 7's only record changed: no trust either */
	assert_null(strstr(dropin, "\t7"));
	free(acts);
	free(report);
	free(dropin);
	suggest_free(s);
	changed_path = NULL;
}

/* ---- object.c on a real file system ---- */

static void record_of(struct record *r, const char *path, const char *dir)
{
	struct stat fs, ds;

	memset(r, 0, sizeof(*r));
	assert_int_equal(lstat(path, &fs), 0);
	assert_int_equal(stat(dir, &ds), 0);
	r->dev_major = major(fs.st_dev);
	r->dev_minor = minor(fs.st_dev);
	r->ino = fs.st_ino;
	r->dir_ino = ds.st_ino;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->check = TPE_CHECK_DIR_WRITABLE;
	strcpy(r->op, "exec");
}

static void touch(const char *path, mode_t mode)
{
	fixture_write(path, "#!/bin/sh\n");
	assert_int_equal(chmod(path, mode), 0);
}

static void test_path_ok(void **state)
{
	(void)state;
	assert_int_equal(object_path_ok("/"), 0);
	assert_int_equal(object_path_ok("/a/b.c/..d/...\\x2ftmp"), 0);
	assert_int_equal(object_path_ok("/a/../tmp"), -1);
	assert_int_equal(object_path_ok("/a/.."), -1);
	assert_int_equal(object_path_ok("/a/./b"), -1);
	assert_int_equal(object_path_ok("/a//b"), -1);
	assert_int_equal(object_path_ok("/a/"), -1);
	assert_int_equal(object_path_ok("a/b"), -1);
	assert_int_equal(object_path_ok(""), -1);
}

/* A record counts only for the very directory and file it names. */
static void test_probe(void **state)
{
	char dir[300], file[320], odd[340], moved[340], other[300];
	struct record r, ro;
	struct object o;

	(void)state;
	fixture_path(dir, sizeof(dir), "d");
	fixture_path(other, sizeof(other), "other");
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(mkdir(other, 0755), 0);
	snprintf(file, sizeof(file), "%s/prog", dir);
	touch(file, 0755);
	record_of(&r, file, dir);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_OK);
	assert_int_equal(o.dir_mode & 07777, 0777);
	assert_int_equal(o.nrisky, 0);
	/* a name that reads like a way out: the file itself, nothing else */
	snprintf(odd, sizeof(odd), "%s/..\\x2ftmp", dir);
	touch(odd, 0755);
	record_of(&ro, odd, dir);
	object_probe(&ro, &o);
	assert_int_equal(o.state, OBJ_OK);
	/* the same path, now another inode (written anew after the log) */
	snprintf(moved, sizeof(moved), "%s/prog.new", dir);
	touch(moved, 0755);
	assert_int_equal(rename(moved, file), 0);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_CHANGED);
	assert_non_null(strstr(o.why, "changed since logged"));
	/* the directory swapped for a symlink after the denial */
	record_of(&r, file, dir);
	snprintf(moved, sizeof(moved), "%s/d.old", fixture_dir);
	assert_int_equal(rename(dir, moved), 0);
	assert_int_equal(symlink(moved, dir), 0);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_CHANGED);
	assert_non_null(strstr(o.why, "symlink"));
	assert_int_equal(unlink(dir), 0);
	/* the directory swapped for another one */
	assert_int_equal(rename(other, dir), 0);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_CHANGED);
	assert_int_equal(rename(dir, other), 0);
	assert_int_equal(rename(moved, dir), 0);
	/* the file swapped for a symlink to it */
	snprintf(moved, sizeof(moved), "%s/prog.real", dir);
	assert_int_equal(rename(file, moved), 0);
	assert_int_equal(symlink(moved, file), 0);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_CHANGED);
	assert_int_equal(unlink(file), 0);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_MISSING);
	assert_int_equal(rename(moved, file), 0);
	/* a file another can write makes the directory risky to fix */
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_OK);
	assert_int_equal(chmod(odd, 0777), 0);
	object_probe(&r, &o);
	assert_int_equal(o.nrisky, 1);
	assert_string_equal(o.risky[0], "..\\x2ftmp");
	/* "..": never resolved */
	snprintf(r.path, sizeof(r.path), "%s/d/../d/prog", fixture_dir);
	object_probe(&r, &o);
	assert_int_equal(o.state, OBJ_REFUSED);
}

/* --apply's two actions, each on the descriptor it checked. */
static void test_apply_objects(void **state)
{
	char dir[300], file[320], copies[300], copy[340];
	const char *why;
	struct record r;
	struct stat st;

	(void)state;
	fixture_path(dir, sizeof(dir), "fix");
	fixture_path(copies, sizeof(copies), "copies");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	snprintf(file, sizeof(file), "%s/tool", dir);
	touch(file, 0755);
	record_of(&r, file, dir);
	/* a record for another directory (dev:ino) is refused */
	assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
					r.ino, &why), -1);
	assert_non_null(strstr(why, "changed since logged"));
	if (geteuid() == 0) {
		assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
						r.dir_ino, &why), 0);
		assert_int_equal(stat(dir, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0755);
		assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
						r.dir_ino, &why), 1);
		/* a file another can write in it: not fixed */
		assert_int_equal(chmod(dir, 0777), 0);
		assert_int_equal(chmod(file, 0777), 0);
		assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
						r.dir_ino, &why), -1);
		assert_int_equal(stat(dir, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0777);
		assert_int_equal(chmod(file, 0755), 0);
	}
	/* a copy: a new inode owned by the owner, 0755, the same bytes */
	assert_int_equal(object_copy(&r, copies, "u", "tool", geteuid(), &why), 0);
	snprintf(copy, sizeof(copy), "%s/u/tool", copies);
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal(st.st_uid, geteuid());
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_not_equal(st.st_ino, r.ino);
	assert_int_equal(st.st_size, 10);
	assert_int_equal(object_copy(&r, copies, "u", "tool", geteuid(), &why), 1);
	/* the source replaced since logged: no copy */
	snprintf(copy, sizeof(copy), "%s/tool.new", dir);
	touch(copy, 0755);
	assert_int_equal(rename(copy, file), 0);
	assert_int_equal(object_copy(&r, copies, "u", "tool2", geteuid(), &why), -1);
	assert_non_null(strstr(why, "changed since logged"));
	/* copies never go where others could write */
	record_of(&r, file, dir);
	snprintf(copy, sizeof(copy), "%s/ww/c", fixture_dir);
	fixture_path(dir, sizeof(dir), "ww");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(object_copy(&r, copy, "u", "tool", geteuid(), &why), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_log_form),
		cmocka_unit_test(test_escaped_paths),
		cmocka_unit_test(test_mmap_and_exec),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_dropin_and_actions),
		cmocka_unit_test(test_current_config),
		cmocka_unit_test(test_converges),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_skipped_records),
		cmocka_unit_test(test_ausearch_i),
		cmocka_unit_test(test_object_ids),
		cmocka_unit_test(test_kernel_edge),
		cmocka_unit_test(test_kernel_guest),
		cmocka_unit_test(test_journal_json),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_file_copy),
		cmocka_unit_test(test_changed_and_never),
		cmocka_unit_test(test_path_ok),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_apply_objects),
	};

	return cmocka_run_group_tests_name("tpe-suggest", tests,
					   fixture_dir_make,
					   fixture_dir_remove);
}
