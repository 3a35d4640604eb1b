// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for tpe-suggest (cmocka; ASan and UBSan). The logs in
 * fixtures/ are real: one boot of the test image running the rollout
 * suite (fixtures/README, fixtures/capture): a permissive day of alice and
 * a service account, alice's forgeries in the kernel's log, then real
 * denials; as auditd wrote them (audit.log, ausearch --raw), as journald
 * stored them (journal.export, made into a journal file here with
 * systemd-journal-remote), and as the kernel-log text and interpreted
 * text that tpe-suggest refuses (dmesg, journal-k, journal-json,
 * ausearch-i). The machine is the fake one below: the guest's directories
 * and accounts as they were.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <systemd/sd-journal.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "denials.h"

#define ALICE	1001
#define BOB	1002
#define SVC	999		/* rollout-svc: useradd -r's first free UID */
#define SVC_GID	999
#define OPS_GID	1501		/* rollout-ops: alice and bob */
#define PRIV	2000		/* a group with one member, SVC2 */
#define SVC2	998

#define DEPLOY	"/opt/rollout-svc/bin"
#define FORGED	"/opt/rollout-forged/bin"
#define TEAM	"/srv/rollout-team"
#define HOME	"/home/alice"
#define PY	"/lib/python3.11/site-packages"

/* The guest's directories as they were (a file not listed is its dir's). */
static const struct {
	const char *path, *home_of;
	uid_t uid;
	gid_t gid;
	mode_t mode;
	bool venv;
} guest[] = {
	{ "/tmp", "", 0, 0, S_IFDIR | 01777, false },
	{ HOME "/bin", "alice", ALICE, ALICE, S_IFDIR | 0755, false },
	{ HOME "/Downloads", "alice", ALICE, ALICE, S_IFDIR | 0755, false },
	{ HOME "/venv/bin", "alice", ALICE, ALICE, S_IFDIR | 0755, true },
	{ HOME "/venv" PY "/fastmod", "alice", ALICE, ALICE, S_IFDIR | 0755, true },
	{ HOME "/.local/bin", "alice", ALICE, ALICE, S_IFDIR | 0755, false },
	{ HOME "/.local" PY "/fastjson", "alice", ALICE, ALICE, S_IFDIR | 0755, false },
	{ DEPLOY, "", 0, SVC_GID, S_IFDIR | 02775, false },
	{ FORGED, "", 0, SVC_GID, S_IFDIR | 02775, false },
	{ TEAM, "", 0, OPS_GID, S_IFDIR | 02775, false },
	{ "/srv/fw", "", 0, 0, S_IFDIR | 0755, false },
	{ "/srv/fw/tool", "", 0, 0, S_IFREG | 0666, false },
	{ "/srv/shared", "", 0, 0, S_IFDIR | 0777, false },
	{ "/srv/shared/mine", "", ALICE, ALICE, S_IFREG | 0755, false },
	{ "/var/lib/svc2", "svc2", SVC2, SVC2, S_IFDIR | 0750, false },
	{ "/var/lib/svc2/tool700", "", SVC2, SVC2, S_IFREG | 0700, false },
	{ "/var/lib/svc2/tool750", "", SVC2, OPS_GID, S_IFREG | 0750, false },
	{ "/var/lib/svc2/tool705", "", SVC2, OPS_GID, S_IFREG | 0705, false },
	{ "/var/lib/svc2/own", "", SVC2, PRIV, S_IFREG | 0700, false },
	{ "/dev", "", 0, 0, S_IFDIR | 0755, false },
};

/* A path the fake machine says moved since it was logged. */
static const char *changed_path;
/* svc2's own group: PRIV, or none */
static int64_t svc2_group = PRIV;

static int find(const char *path)
{
	for (size_t i = 0; i < sizeof(guest) / sizeof(guest[0]); i++)
		if (!strcmp(path, guest[i].path))
			return (int)i;
	return -1;
}

static int guest_probe(const struct record *r, struct object *o)
{
	char dir[REC_PATH_MAX];
	int d, f;

	memset(o, 0, sizeof(*o));
	snprintf(dir, sizeof(dir), "%s", r->path);
	*strrchr(dir, '/') = '\0';
	d = find(dir);
	f = find(r->path);
	/* alice's directory with newlines in its name, under /tmp */
	if (d < 0 && !strncmp(dir, "/tmp/n\n", 7))
		d = find(HOME "/bin");
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
	o->dir_gid = guest[d].gid;
	o->dir_mode = guest[d].mode;
	o->file_uid = f < 0 ? guest[d].uid : guest[f].uid;
	o->file_gid = f < 0 ? guest[d].gid : guest[f].gid;
	o->file_mode = f < 0 ? S_IFREG | 0755 : guest[f].mode;
	o->file_size = 16384;
	o->venv = guest[d].venv;
	if (strncmp(dir, "/tmp/n\n", 7))
		strcpy(o->home_of, guest[d].home_of);
	if (!strncmp(dir, "/dev", 4))
		o->never = "/dev";
	if (!strcmp(dir, "/srv/shared"))
		strcpy(o->risky[o->nrisky++], "mine");
	return 0;
}

static const char *guest_user(uint32_t uid)
{
	return uid == ALICE ? "alice" : uid == BOB ? "bob" :
	       uid == SVC ? "rollout-svc" : uid == SVC2 ? "svc2" : NULL;
}

static uint32_t trusted_gid;

/* bob is in the group trusted_gid, whatever it is. */
static int guest_identity(uint32_t uid, struct tpe_identity *who)
{
	uint32_t *g = malloc(sizeof(*g));

	assert_non_null(g);
	*g = trusted_gid;
	*who = (struct tpe_identity){ .euid = uid, .egid = uid, .groups = g,
				      .ngroups = uid == BOB && trusted_gid };
	return 0;
}

static void guest_account(uint32_t uid, struct account *a)
{
	const char *name = guest_user(uid);

	memset(a, 0, sizeof(*a));
	a->uid = uid;
	a->known = name != NULL;
	a->gid = uid;
	snprintf(a->name, sizeof(a->name), "%s", name ? name : "");
	if (uid == SVC || uid == SVC2) {
		a->service = true;
		snprintf(a->why, sizeof(a->why),
			 "UID in the system range 100-999 (login.defs); User= of %s.service",
			 name);
		snprintf(a->unit, sizeof(a->unit), "%s.service", name);
	}
}

static void guest_group(uint32_t gid, char *out, size_t size)
{
	snprintf(out, size, "%s",
		 gid == SVC_GID ? "rollout-svc (members: rollout-svc)" :
		 gid == OPS_GID ? "rollout-ops (members: alice, bob)" :
		 gid == PRIV ? "svc2 (members: svc2)" :
		 gid == 0 ? "root (members: root)" : "other (no members)");
}

static int64_t guest_own_group(uint32_t uid)
{
	return uid == SVC2 ? svc2_group : -1;
}

static bool guest_in_group(uint32_t uid, uint32_t gid)
{
	return (gid == OPS_GID && (uid == ALICE || uid == BOB || uid == SVC2)) ||
	       gid == uid;
}

static bool guest_people_in(uint32_t gid)
{
	return gid == OPS_GID || gid == 0;
}

static const struct world guest_world = {
	guest_probe, guest_user, guest_identity, guest_account, guest_group,
	guest_own_group, guest_in_group, guest_people_in,
};

/* ---- reading the fixtures ---- */

/* stderr into a file while FN runs; returns what it said. */
static char *quiet(int (*fn)(void *), void *arg, int *rc)
{
	char path[300], *text = calloc(1, 65536);
	int saved = dup(2), fd;
	ssize_t n;

	fixture_path(path, sizeof(path), "stderr");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0 && text);
	fflush(stderr);
	dup2(fd, 2);
	*rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, text, 65535, 0);
	assert_true(n >= 0);
	close(fd);
	return text;
}

struct text_read {
	const char *name;
	struct suggest *s;
};

static int text_read(void *arg)
{
	struct text_read *t = arg;
	char path[512];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, t->name);
	f = fopen(path, "r");
	assert_non_null(f);
	rc = input_text(f, t->name, t->s);
	fclose(f);
	return rc;
}

/* Every record of a text fixture into S; what stderr said into *err. */
static int read_text(const char *name, struct suggest *s, char **err)
{
	struct text_read t = { name, s };
	int rc;
	char *e = quiet(text_read, &t, &rc);

	if (err)
		*err = e;
	else
		free(e);
	return rc;
}

/* journal.export made into a journal file, as journald would have it. */
static void journal_file(char *out, size_t size)
{
	char cmd[1024];

	fixture_path(out, size, "fixture.journal");
	if (!access(out, F_OK))
		return;
	snprintf(cmd, sizeof(cmd),
		 "/lib/systemd/systemd-journal-remote --output='%s' '%s/journal.export' 2>/dev/null",
		 out, FIXTURES);
	if (system(cmd))
		fail_msg("systemd-journal-remote (package systemd-journal-remote) could not make %s", out);
}

struct journal_read {
	struct suggest *s;
};

static int journal_read(void *arg)
{
	struct journal_read *j = arg;
	char path[300];
	sd_journal *jr;
	int rc;

	journal_file(path, sizeof(path));
	assert_int_equal(sd_journal_open_files(&jr, (const char *[]){ path, NULL }, 0), 0);
	rc = input_journal(jr, "fixture.journal", j->s);
	sd_journal_close(jr);
	return rc;
}

static int read_journal(struct suggest *s, char **err)
{
	struct journal_read j = { s };
	int rc;
	char *e = quiet(journal_read, &j, &rc);

	if (err)
		*err = e;
	else
		free(e);
	return rc;
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

static size_t whole_report(FILE *f, struct suggest *s,
			   const struct tpe_policy *p, const struct world *w)
{
	suggest_report(f, s, p, w);
	return 0;
}

static const char *const *fix_only, *const *copy_only;

static size_t fixes(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w)
{
	const struct act_select sel = { ACT_FIX, fix_only, NULL };

	return suggest_actions(f, s, p, w, &sel);
}

static size_t copies(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w)
{
	const struct act_select sel = { ACT_COPY, NULL, copy_only };

	return suggest_actions(f, s, p, w, &sel);
}

static size_t summary(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w)
{
	(void)p;
	(void)w;
	suggest_summary(f, s);
	return 0;
}

/* The occurrences of NEEDLE in HAY. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ---- one record ---- */

#define AVC(fields) "type=AVC msg=audit(1796471694.715:35): " fields "\n"
#define TASK "ppid=1 pid=9 auid=4294967295 uid=1001 gid=1001 euid=1001 " \
	"suid=1001 fsuid=1001 egid=1001 sgid=1001 fsgid=1001 tty=(none) " \
	"ses=4294967295 comm=\"bash\" exe=\"/usr/bin/bash\" subj=unconfined "
#define HEAD(e) "lsm=tpe op=exec enforcing=" e " check=dir-owner " \
	"subj_euid=1001 dev=254:3 ino=12 dir_ino=34 "
#define GOOD AVC(HEAD("0") TASK "path=2F6120620A tclass=file res=1")
#define SUPPRESSED(uid, n) "lsm=tpe op=suppressed tclass=file uid=" uid \
	" denials=" n

static void test_record_line(void **state)
{
	struct record r;
	const char *why;

	(void)state;
	assert_int_equal(record_line(GOOD, &r, &why), 1);
	assert_string_equal(r.path, "/a b\n");
	assert_string_equal(r.op, "exec");
	assert_string_equal(r.comm, "bash");
	assert_int_equal(r.check, TPE_CHECK_DIR_OWNER);
	assert_false(r.enforced);
	assert_int_equal(r.uid, 1001);
	assert_int_equal(r.euid, 1001);
	assert_int_equal(r.pid, 9);
	assert_int_equal(r.dev_major, 254);
	assert_int_equal(r.dev_minor, 3);
	assert_int_equal(r.ino, 12);
	assert_int_equal(r.dir_ino, 34);
	assert_int_equal(r.time, 1796471694);
	assert_int_equal(r.serial, 35);
	/* a denial; auditd's node= and its enriched names after 0x1d */
	assert_int_equal(record_line("node=host " AVC(HEAD("1") TASK "path=\"/x\" tclass=file res=0\x1dUID=\"alice\""), &r, &why), 1);
	assert_true(r.enforced);
	assert_string_equal(r.path, "/x");
	/* no field order is pinned */
	assert_int_equal(record_line(AVC("lsm=tpe res=1 tclass=file path=\"/y\" " TASK "dir_ino=34 ino=12 dev=254:3 subj_euid=1001 check=dir-owner enforcing=0 op=mmap"), &r, &why), 1);
	assert_string_equal(r.op, "mmap");
	/* not TPE's: other LSMs' AVC, a policy load, a user-space record */
	assert_int_equal(record_line(AVC("apparmor=\"DENIED\" operation=\"exec\" comm=\"x\" name=\"/x\" tclass=file"), &r, &why), 0);
	assert_int_equal(record_line("type=MAC_POLICY_LOAD msg=audit(1.2:3): lsm=tpe op=policy_write len=24 res=1\n", &r, &why), 0);
	assert_int_equal(record_line("type=USER_AVC msg=audit(1.2:3): pid=1 uid=0 auid=0 ses=1 msg='lsm=tpe op=exec enforcing=0 check=dir-owner subj_euid=5 dev=254:3 ino=12 dir_ino=34 pid=9 uid=5 comm=\"x\" path=\"/x\" tclass=file res=1'\n", &r, &why), 0);
	assert_int_equal(record_line("type=USER_AVC msg=audit(1.2:3): lsm=tpe " TASK "\n", &r, &why), 0);
	/* lsm=tpe must be the first field */
	assert_int_equal(record_line(AVC("op=exec lsm=tpe enforcing=0 check=dir-owner subj_euid=1001 dev=254:3 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"), &r, &why), 0);
	assert_int_equal(record_line("\n", &r, &why), 0);
	/* the kernel's count of a user's denials it did not audit */
	assert_int_equal(record_line(AVC(SUPPRESSED("1001", "250")), &r, &why), 1);
	assert_string_equal(r.op, "suppressed");
	assert_int_equal(r.uid, 1001);
	assert_int_equal(r.denials, 250);
	assert_int_equal(record_line(AVC(SUPPRESSED("1001", "7") "\x1dUID=\"alice\""), &r, &why), 1);
	assert_int_equal(r.denials, 7);
}

static void test_record_refused(void **state)
{
	static const char *const bad[] = {
		/* a field given twice */
		AVC(HEAD("0") TASK "path=\"/x\" path=\"/y\" tclass=file res=1"),
		/* a field missing */
		AVC("lsm=tpe op=exec enforcing=0 check=dir-owner dev=254:3 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"),
		/* enforcing= and res= disagree */
		AVC(HEAD("1") TASK "path=\"/x\" tclass=file res=1"),
		AVC(HEAD("0") TASK "path=\"/x\" tclass=file res=0"),
		AVC(HEAD("2") TASK "path=\"/x\" tclass=file res=1"),
		/* hex the kernel does not write: lower case, a NUL, odd */
		AVC(HEAD("0") TASK "path=2f61 tclass=file res=1"),
		AVC(HEAD("0") TASK "path=2F0061 tclass=file res=1"),
		AVC(HEAD("0") TASK "path=2F6 tclass=file res=1"),
		/* not an absolute path; a quote inside quotes */
		AVC(HEAD("0") TASK "path=\"x\" tclass=file res=1"),
		/* unknown op, check, class */
		AVC("lsm=tpe op=read enforcing=0 check=dir-owner subj_euid=1001 dev=254:3 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"),
		AVC("lsm=tpe op=exec enforcing=0 check=none subj_euid=1001 dev=254:3 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"),
		AVC(HEAD("0") TASK "path=\"/x\" tclass=dir res=1"),
		/* numbers that are not */
		AVC("lsm=tpe op=exec enforcing=0 check=dir-owner subj_euid=-1 dev=254:3 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"),
		AVC("lsm=tpe op=exec enforcing=0 check=dir-owner subj_euid=1001 dev=254 ino=12 dir_ino=34 " TASK "path=\"/x\" tclass=file res=1"),
		/* a summary with a denial's fields, a denial with a count */
		AVC(SUPPRESSED("1001", "5") " path=\"/x\""),
		AVC("lsm=tpe op=suppressed tclass=file uid=1001"),
		AVC(SUPPRESSED("1001", "0")),
		AVC(SUPPRESSED("-1", "5")),
		AVC("lsm=tpe op=suppressed tclass=dir uid=1001 denials=5"),
		AVC(HEAD("0") TASK "path=\"/x\" tclass=file res=1 denials=5"),
	};
	struct record r;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		if (record_line(bad[i], &r, &why) != -1 || !why)
			fail_msg("not refused: %s", bad[i]);
	}
}

/* What is no audit record refuses the whole input, saying what it is. */
static void test_not_audit(void **state)
{
	static const struct {
		const char *line, *why;
	} lines[] = {
		{ "[   12.345678] tpe: would deny exec uid=1005 euid=1005 pid=1 comm=x check=dir-owner dev=254:0 ino=1 dir_ino=2 path=/x\n", REC_KERNEL_LOG },
		{ "Dec 06 08:00:00 tpe kernel: tpe: denied exec uid=5\n", REC_KERNEL_LOG },
		{ "[   12.3] audit: type=1400 audit(1.2:3): lsm=tpe op=exec\n", REC_KERNEL_LOG },
		{ "tpe: would deny exec uid=1005\n", REC_KERNEL_LOG },
		{ "{ \"MESSAGE\" : \"tpe: would deny\", \"_TRANSPORT\" : \"kernel\" }\n", REC_JSON },
		{ "----\n", REC_AUSEARCH },
		{ "time->Sat Dec  5 11:54:54 2026\n", REC_AUSEARCH },
		{ "type=AVC msg=audit(12/05/26 11:54:54.715:35) : lsm=tpe op=exec\n", REC_INTERPRETED },
		{ "hello\n", REC_NOT_AUDIT },
		{ "type=AVC lsm=tpe\n", REC_NOT_AUDIT },
	};
	struct record r;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(record_line(lines[i].line, &r, &why), REC_REFUSED);
		if (why != lines[i].why)
			fail_msg("%s: %s", lines[i].line, why);
	}
}

/* ---- the channels ---- */

/* The records of the capture, as auditd wrote them. */
static void test_audit_log(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	char *out;

	(void)state;
	assert_int_equal(read_text("audit.log", s, NULL), 0);
	out = run(s, &p, summary);
	/* names as alice gave them: a space, UTF-8, a backslash, newlines */
	assert_non_null(strstr(out, "e.g. " HOME "/Downloads/"));
	assert_int_equal(suggest_skipped(s), 0);
	free(out);
	suggest_free(s);
}

/* audit.log, ausearch --raw and the journal give the same records. */
static void test_same_records(void **state)
{
	struct suggest *a = suggest_new(), *r = suggest_new(), *j = suggest_new();
	struct tpe_policy p = { 0 };
	char *sa, *sr, *sj, *err;

	(void)state;
	assert_int_equal(read_text("audit.log", a, NULL), 0);
	assert_int_equal(read_text("ausearch-raw", r, NULL), 0);
	assert_int_equal(read_journal(j, &err), 0);
	assert_string_equal(err, "");
	free(err);
	suggest_source(a, "x");
	suggest_source(r, "x");
	suggest_source(j, "x");
	sa = run(a, &p, summary);
	sr = run(r, &p, summary);
	sj = run(j, &p, summary);
	assert_true(suggest_records(a) > 15);
	assert_string_equal(sa, sr);
	assert_string_equal(sa, sj);
	free(sa);
	free(sr);
	free(sj);
	suggest_free(a);
	suggest_free(r);
	suggest_free(j);
}

/*
 * alice's forged lines are in the capture's kernel log, as lines of their
 * own, naming the forged directory: read from the journal, none of them
 * is a record, and nothing is proposed for that directory.
 */
static void test_forgeries(void **state)
{
	struct suggest *s = suggest_new();
	struct tpe_policy p = { 0 };
	char path[512], *text, *report;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/dmesg", FIXTURES);
	f = fopen(path, "r");
	assert_non_null(f);
	text = calloc(1, 1 << 22);
	assert_non_null(text);
	len = fread(text, 1, (1 << 22) - 1, f);
	fclose(f);
	assert_true(len > 0);
	/* overlayfs (LF) and exec's NULL-argv warning: a line of its own */
	/* util-linux dmesg indents the continuation lines */
	assert_true(count(text, " tpe: would deny exec uid=999 euid=999 pid=1 comm=forged check=dir-writable ") >= 2);
	assert_true(count(text, "audit: type=1400 audit(1800000000.000:1): lsm=tpe") >= 1);
	free(text);
	assert_int_equal(read_journal(s, NULL), 0);
	report = run(s, &p, whole_report);
	assert_null(strstr(report, "chmod g-w " FORGED));
	assert_null(strstr(report, " in " FORGED " ("));
	free(report);
	report = run(s, &p, fixes);
	assert_null(strstr(report, FORGED));
	free(report);
	suggest_free(s);
}

/* Kernel-log text and interpreted text are refused, with the reason. */
static void test_refused_inputs(void **state)
{
	static const struct {
		const char *name, *says;
	} inputs[] = {
		{ "dmesg", "kernel-log text" },
		{ "journal-k", "kernel-log text" },
		{ "journal-json", "journalctl JSON is refused" },
		{ "ausearch-i", "use ausearch --raw" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		struct suggest *s = suggest_new();
		char *err;

		assert_int_equal(read_text(inputs[i].name, s, &err), 1);
		if (!strstr(err, inputs[i].says) || !strstr(err, inputs[i].name))
			fail_msg("%s: %s", inputs[i].name, err);
		if (strcmp(inputs[i].name, "ausearch-i") &&
		    !strstr(err, "tpe-suggest with no LOG reads the journal's"))
			fail_msg("%s: says not what to read: %s", inputs[i].name, err);
		/* nothing read before the refusal is used either */
		assert_int_equal(suggest_records(s), 0);
		free(err);
		suggest_free(s);
	}
}

struct owned_read {
	const char *path;
	uid_t caller;
	struct suggest *s;
};

static int owned_read(void *arg)
{
	struct owned_read *o = arg;

	return input_read(o->path, o->caller, o->s);
}

/* input_read() as CALLER; what it said on stderr into *err. */
static int read_as(const char *path, uid_t caller, struct suggest *s,
		   char **err)
{
	struct owned_read o = { path, caller, s };
	int rc;

	*err = quiet(owned_read, &o, &rc);
	return rc;
}

/* A file anyone but root and the caller may write is no record. */
static void test_owner(void **state)
{
	char path[300], *err;
	struct suggest *s = suggest_new();

	(void)state;
	fixture_path(path, sizeof(path), "audit.copy");
	fixture_write(path, GOOD);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(read_as(path, geteuid(), s, &err), 1);
	assert_non_null(strstr(err, "mode 0666: a file that others may write is no record of the kernel's; refusing it"));
	free(err);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(read_as(path, geteuid(), s, &err), 0);
	free(err);
	assert_int_equal(suggest_records(s), 1);
	/* as another caller, a file of this one's: refused unless it is root's */
	if (geteuid()) {
		assert_int_equal(read_as(path, geteuid() + 1, s, &err), 1);
		free(err);
	}
	suggest_free(s);
}

/* ---- what it proposes ---- */

static struct suggest *fixture_suggest(void)
{
	struct suggest *s = suggest_new();

	assert_non_null(s);
	assert_int_equal(read_text("audit.log", s, NULL), 0);
	return s;
}

static void test_sorted(void **state)
{
	struct suggest *s = fixture_suggest();
	struct tpe_policy p = { .flags = TPE_POLICY_MMAP };
	char *r;

	(void)state;
	r = run(s, &p, whole_report);
	/* what TPE exists to stop: alice's own programs */
	if (!strstr(r, "What TPE exists to stop: users' own programs (they stay denied):\n  alice (uid 1001):\n") ||
	    !strstr(r, " in /tmp (exec, mmap; dir-writable): a sticky directory anyone may write") ||
	    !strstr(r, " in " HOME "/Downloads (exec, mmap; dir-owner): in alice's home") ||
	    !strstr(r, " in " HOME "/bin (exec; dir-owner): in alice's home"))
		fail_msg("%s", r);
	/* tooling */
	assert_non_null(strstr(r, " in " HOME "/venv" PY "/fastmod (mmap; dir-owner): a Python virtual environment in alice's home"));
	assert_non_null(strstr(r, " in " HOME "/.local/bin (exec; dir-owner): a pip --user package in alice's home"));
	/* workloads: the service's deploy directory, the team's */
	assert_non_null(strstr(r, "rollout-svc (uid 999), a service account (UID in the system range"));
	assert_non_null(strstr(r, "fix, keeping the path: chmod g-w " DEPLOY "  (directory dev "));
	assert_non_null(strstr(r, "group rollout-svc (members: rollout-svc) loses write access"));
	assert_non_null(strstr(r, "chmod g-w " TEAM "  (directory dev "));
	assert_non_null(strstr(r, "group rollout-ops (members: alice, bob) loses write access"));
	assert_non_null(strstr(r, "take it by name: tpe-suggest --apply --fix=" TEAM));
	/* trust: proposals only, with what they mean */
	assert_non_null(strstr(r, "Trust: no one is trusted unless a person decides"));
	assert_non_null(strstr(r, "  alice (uid 1001): would allow "));
	assert_non_null(strstr(r, "(a service account: it would run any file it can write, an uploaded one too)"));
	/* alice's NULL-argv file: in a directory she owns under /tmp */
	assert_non_null(strstr(r, "/tmp/n\\x0atpe: would deny exec uid=999 "));
	assert_non_null(strstr(r, "a directory alice owns (uid 1001)"));
	free(r);
	suggest_free(s);
}

/* --fix takes what takes no person's write access; the rest by name. */
static void test_fix_select(void **state)
{
	static const char *const team[] = { TEAM, NULL };
	static const char *const nosuch[] = { "/tmp", NULL };
	const struct act_select sel = { ACT_FIX, nosuch, NULL };
	struct suggest *s = fixture_suggest();
	struct tpe_policy p = { 0 };
	char *a;

	(void)state;
	fix_only = NULL;
	a = run(s, &p, fixes);
	assert_non_null(strstr(a, "chmod g-w " DEPLOY " "));
	assert_null(strstr(a, TEAM));
	assert_int_equal(count(a, "chmod "), 1);
	free(a);
	fix_only = team;
	a = run(s, &p, fixes);
	assert_non_null(strstr(a, "chmod g-w " TEAM " "));
	assert_null(strstr(a, DEPLOY));
	free(a);
	fix_only = NULL;
	assert_string_equal(suggest_unknown(s, &p, &guest_world, &sel), "/tmp");
	/* no copies in this day */
	copy_only = NULL;
	a = run(s, &p, copies);
	assert_string_equal(a, "");
	free(a);
	suggest_free(s);
}

/* The drop-in trusts nobody new; --trust is the one act that adds. */
static void test_dropin(void **state)
{
	struct suggest *s = fixture_suggest();
	struct tpe_policy p = { 0 };
	char *d;

	(void)state;
	d = run(s, &p, suggest_dropin);
	assert_null(strstr(d, "trusted_users"));
	assert_non_null(strstr(d, "# Nobody is trusted by this drop-in.\n"));
	assert_non_null(strstr(d, "#\t\"alice\"\t# "));
	assert_non_null(strstr(d, "the user's own programs: what TPE exists to stop"));
	assert_non_null(strstr(d, "#\t\"rollout-svc\"\t# "));
	free(d);
	assert_int_equal(suggest_trust(s, &p, &guest_world, ALICE), 0);
	assert_int_equal(suggest_trust(s, &p, &guest_world, 0), -1);
	assert_int_equal(suggest_trust(s, &p, &guest_world, 4242), -1);
	d = run(s, &p, suggest_dropin);
	assert_non_null(strstr(d, "trusted_users = (\n\t\"alice\"\t# "));
	assert_non_null(strstr(d, "; trusted by --trust\n);\n"));
	assert_non_null(strstr(d, "#\t\"rollout-svc\"\t# "));
	free(d);
	suggest_free(s);
}

/* With its drop-in in place the same records give the same drop-in. */
static void test_converges(void **state)
{
	struct suggest *s = fixture_suggest();
	uint32_t kept[] = { ALICE, 1005 };
	struct tpe_policy p = { .users = { kept, 2 } };
	struct tpe_ids old = { kept, 2 };
	char *d;

	(void)state;
	assert_int_equal(suggest_keep(s, &old, "/etc/tpe.conf.d/50-suggest.conf"), 0);
	d = run(s, &p, suggest_dropin);
	/* both kept, each saying why; alice is trusted now, not a proposal */
	if (!strstr(d, "trusted_users = (\n\t\"alice\",\t# ") ||
	    !strstr(d, "kept from the drop-in as it was\n\t1005\t# kept from the drop-in as it was\n);\n") ||
	    strstr(d, "#\t\"alice\""))
		fail_msg("%s", d);
	free(d);
	d = run(s, &p, whole_report);
	assert_non_null(strstr(d, "by alice (uid 1001) in /tmp (dir-writable): the user is trusted by the config in force"));
	free(d);
	suggest_free(s);
}

/* One judge: under INVERT a listed user is untrusted, others trusted. */
static void test_current_config(void **state)
{
	struct suggest *s = fixture_suggest();
	uint32_t alice = ALICE;
	struct tpe_policy p = { .flags = TPE_POLICY_INVERT,
				.users = { &alice, 1 } };
	char *r;

	(void)state;
	r = run(s, &p, whole_report);
	assert_non_null(strstr(r, "invert is on"));
	/* the service, unlisted, is trusted under INVERT; alice is not */
	assert_non_null(strstr(r, "by rollout-svc (uid 999) in " DEPLOY " (dir-writable): the user is trusted by the config in force"));
	assert_non_null(strstr(r, "  alice (uid 1001):\n    "));
	/* a directory fix closes the hole whoever is trusted already */
	free(r);
	fix_only = NULL;
	r = run(s, &p, fixes);
	assert_non_null(strstr(r, "chmod g-w " DEPLOY " "));
	free(r);
	suggest_free(s);
}

static struct suggest *one(const char *path, uint32_t euid, const char *check,
			   const char *op)
{
	struct suggest *s = suggest_new();
	char line[1024];
	struct record r;
	const char *why;

	snprintf(line, sizeof(line),
		 "type=AVC msg=audit(1796471694.715:35): lsm=tpe op=%s enforcing=0 check=%s subj_euid=%u dev=254:0 ino=7 dir_ino=8 ppid=1 pid=9 auid=1 uid=%u gid=1 euid=%u suid=1 fsuid=1 egid=1 sgid=1 fsgid=1 tty=(none) ses=1 comm=\"x\" exe=\"/x\" path=\"%s\" tclass=file res=1\n",
		 op, check, euid, euid, euid, path);
	assert_int_equal(record_line(line, &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	return s;
}

/* A copy is no more readable than its source, and names where to run. */
static void test_copies(void **state)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
		/* 0700: through the owner's own group, no one else */
		{ "/var/lib/svc2/tool700", "/var/lib/svc2/tool700 -> /opt/tpe-suggest/svc2/tool700  (root:svc2 0550, from file dev 254:0 ino 7)\n" },
		/* 0750 in a group the owner is in: that group, as it was */
		{ "/var/lib/svc2/tool750", "/var/lib/svc2/tool750 -> /opt/tpe-suggest/svc2/tool750  (root:rollout-ops 0550, " },
		/* 0705: others read it already */
		{ "/var/lib/svc2/tool705", "/var/lib/svc2/tool705 -> /opt/tpe-suggest/svc2/tool705  (root:rollout-ops 0505, " },
		/* a 0666 file of root's, in a root directory: never in place */
		{ "/srv/fw/tool", "/srv/fw/tool -> /opt/tpe-suggest/svc2/tool  (root:root 0544, " },
	};
	struct tpe_policy p = { 0 };

	(void)state;
	copy_only = NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct suggest *s = one(cases[i].path, SVC2, "dir-owner", "exec");
		char *a = run(s, &p, copies), *r;

		if (!strstr(a, cases[i].want))
			fail_msg("%s: %s", cases[i].path, a);
		assert_non_null(strstr(a, "then run /opt/tpe-suggest/svc2/"));
		assert_non_null(strstr(a, " instead: change ExecStart= in svc2.service\n"));
		r = run(s, &p, whole_report);
		assert_non_null(strstr(r, "      copy: "));
		free(r);
		free(a);
		suggest_free(s);
	}
}

static void test_copy_refused(void **state)
{
	struct tpe_policy p = { 0 };
	struct suggest *s;
	char *a;

	(void)state;
	copy_only = NULL;
	/* a 0700 program whose owner has no group of her own */
	svc2_group = -1;
	s = one("/var/lib/svc2/tool700", SVC2, "dir-owner", "exec");
	a = run(s, &p, copies);
	assert_non_null(strstr(a, "/var/lib/svc2/tool700: no copy: its owner reads it through the owner's bits alone"));
	free(a);
	suggest_free(s);
	svc2_group = PRIV;
	/* a person's file in a directory every user may write: hers */
	s = one("/srv/shared/mine", ALICE, "dir-writable", "exec");
	a = run(s, &p, whole_report);
	assert_non_null(strstr(a, "a person's file in a directory everyone may write"));
	free(a);
	a = run(s, &p, copies);
	assert_string_equal(a, "");
	free(a);
	suggest_free(s);
}

/* Changed since logged, or under /dev: reported, never acted on. */
static void test_changed_and_never(void **state)
{
	struct tpe_policy p = { 0 };
	struct suggest *s;
	char *acts, *report;

	(void)state;
	changed_path = DEPLOY "/worker";
	s = one(DEPLOY "/worker", SVC, "dir-writable", "exec");
	fix_only = NULL;
	acts = run(s, &p, fixes);
	report = run(s, &p, whole_report);
	assert_string_equal(acts, "");
	assert_non_null(strstr(report, DEPLOY "/worker (dev 254:0 ino 7, by rollout-svc (uid 999), dir-writable): changed since logged"));
	free(acts);
	free(report);
	suggest_free(s);
	changed_path = NULL;
	/* alice's bind mount over /dev/zero in her own namespace */
	s = one("/dev/zero", ALICE, "dir-owner", "exec");
	report = run(s, &p, whole_report);
	assert_non_null(strstr(report, "under /dev, which tpe-suggest never changes nor copies from"));
	free(report);
	acts = run(s, &p, copies);
	assert_string_equal(acts, "");
	free(acts);
	suggest_free(s);
}

/* A log from elsewhere: who, where, how often, which check, when. */
static void test_summary(void **state)
{
	struct suggest *s = fixture_suggest();
	struct tpe_policy p = { 0 };
	char *out;

	(void)state;
	out = run(s, &p, summary);
	if (!strstr(out, " records (") || !strstr(out, " UTC to ") ||
	    !strstr(out, "  uid 1001: ") || !strstr(out, "  uid 999: ") ||
	    !strstr(out, " in /tmp (exec, mmap; dir-writable), e.g. /tmp/"))
		fail_msg("%s", out);
	free(out);
	suggest_free(s);
}

/* What the kernel left out of audit is counted per user, named by no file. */
static void test_unaudited(void **state)
{
	struct suggest *s = suggest_new();
	struct record r;
	const char *why;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(s);
	for (int i = 0; i < UNAUDITED_USERS + 2; i++) {
		assert_int_equal(record_line(AVC(SUPPRESSED("1000", "3")), &r, &why), 1);
		r.uid = 1000 + i;
		assert_int_equal(suggest_add(s, &r), 0);
	}
	assert_int_equal(record_line(AVC(SUPPRESSED("1000", "4")), &r, &why), 1);
	assert_int_equal(suggest_add(s, &r), 0);
	assert_int_equal(suggest_records(s), 0);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	suggest_skip_report(f, s, "");
	fclose(f);
	if (!strstr(out, "left out of audit") || !strstr(out, "\n  uid 1000: 7\n") ||
	    !strstr(out, "\n  uid 1007: 3\n") || strstr(out, "uid 1008") ||
	    !strstr(out, "\n  other users: 6\n"))
		fail_msg("%s", out);
	free(out);
	suggest_free(s);
}

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	suggest_escape(f, "/a\\b\n\x1b[2J\x7f\xc2\x9b\xc3\xa9");
	fclose(f);
	/* C1's 0x9b escaped, UTF-8's lead bytes and é as they are */
	assert_string_equal(buf, "/a\\\\b\\x0a\\x1b[2J\\x7f\xc2\\x9b\xc3\xa9");
	free(buf);
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
	char dir[300], file[320], odd[340], moved[340], other[300], venv[340];
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
	assert_int_equal(o.file_size, 10);
	assert_int_equal(o.nrisky, 0);
	assert_false(o.venv);
	/* a pyvenv.cfg above it: a virtual environment */
	snprintf(venv, sizeof(venv), "%s/pyvenv.cfg", fixture_dir);
	fixture_write(venv, "home = /usr/bin\n");
	object_probe(&r, &o);
	assert_true(o.venv);
	assert_int_equal(unlink(venv), 0);
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

/* The directory fix, on the descriptor it checked. */
static void test_fix_dir(void **state)
{
	char dir[300], file[320];
	const char *why;
	struct record r;
	struct stat st;

	(void)state;
	fixture_path(dir, sizeof(dir), "fix");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 02775), 0);
	snprintf(file, sizeof(file), "%s/tool", dir);
	touch(file, 0755);
	record_of(&r, file, dir);
	/* a record for another directory (dev:ino) is refused */
	assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
					r.ino, &why), -1);
	assert_non_null(strstr(why, "changed since logged"));
	if (geteuid())
		return;		/* the rest needs a root-owned directory */
	assert_int_equal(object_fix_dir(dir, r.dev_major, r.dev_minor,
					r.dir_ino, &why), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 02755);	/* set-GID kept */
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

static struct copy_plan plan(const char *name, uint32_t mode)
{
	struct copy_plan c = { .gid = getegid(), .mode = mode };

	snprintf(c.sub, sizeof(c.sub), "u");
	snprintf(c.name, sizeof(c.name), "%s", name);
	return c;
}

/* A copy: a new inode, the plan's group and mode, the bytes checked. */
static void test_copy(void **state)
{
	char dir[300], file[320], copies[300], copy[340], big[320];
	struct copy_plan c = plan("tool", 0550), refused = plan("x", 0550);
	const char *why;
	struct record r;
	struct stat st;

	(void)state;
	fixture_path(dir, sizeof(dir), "src");
	fixture_path(copies, sizeof(copies), "copies");
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/tool", dir);
	touch(file, 0700);
	record_of(&r, file, dir);
	assert_int_equal(object_copy(&r, copies, &c, geteuid(), &why), 0);
	snprintf(copy, sizeof(copy), "%s/u/tool", copies);
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal(st.st_uid, geteuid());
	assert_int_equal(st.st_gid, getegid());
	assert_int_equal(st.st_mode & 07777, 0550);
	assert_int_not_equal(st.st_ino, r.ino);
	assert_int_equal(st.st_size, 10);
	/* an existing copy is never replaced */
	assert_int_equal(object_copy(&r, copies, &c, geteuid(), &why), 1);
	/* a plan that says no: no copy, its reason */
	refused.why = "no group of her own";
	assert_int_equal(object_copy(&r, copies, &refused, geteuid(), &why), -1);
	assert_string_equal(why, "no group of her own");
	/* over 64 MiB (sparse): refused when checked, not copied */
	snprintf(big, sizeof(big), "%s/big", dir);
	touch(big, 0755);
	assert_int_equal(truncate(big, (off_t)COPY_MAX + 1), 0);
	record_of(&r, big, dir);
	c = plan("big", 0550);
	assert_int_equal(object_copy(&r, copies, &c, geteuid(), &why), -1);
	assert_non_null(strstr(why, "larger than 64 MiB"));
	snprintf(copy, sizeof(copy), "%s/u/big", copies);
	assert_int_equal(access(copy, F_OK), -1);
	/* at 64 MiB exactly: copied, all of it and no more */
	assert_int_equal(truncate(big, (off_t)COPY_MAX), 0);
	assert_int_equal(object_copy(&r, copies, &c, geteuid(), &why), 0);
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal((uint64_t)st.st_size, COPY_MAX);
	/* the source replaced since logged: no copy */
	record_of(&r, file, dir);
	snprintf(copy, sizeof(copy), "%s/tool.new", dir);
	touch(copy, 0755);
	assert_int_equal(rename(copy, file), 0);
	c = plan("tool2", 0550);
	assert_int_equal(object_copy(&r, copies, &c, geteuid(), &why), -1);
	assert_non_null(strstr(why, "changed since logged"));
	/* copies never go where others could write */
	record_of(&r, file, dir);
	snprintf(copy, sizeof(copy), "%s/ww/c", fixture_dir);
	fixture_path(dir, sizeof(dir), "ww");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 01777), 0);
	c = plan("tool", 0550);
	assert_int_equal(object_copy(&r, copy, &c, geteuid(), &why), -1);
}

/*
 * A program that grows while it is copied: the copy is refused, or has
 * exactly the size checked when the source was opened; never more.
 */
static void test_copy_growing(void **state)
{
	char dir[300], file[320], copies[300], copy[340];
	struct copy_plan c = plan("grow", 0550);
	const char *why;
	struct record r;
	struct stat st;
	pid_t child;
	int rc, status;

	(void)state;
	fixture_path(dir, sizeof(dir), "grow");
	fixture_path(copies, sizeof(copies), "grow-copies");
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/prog", dir);
	touch(file, 0755);
	assert_int_equal(truncate(file, 32 << 20), 0);
	record_of(&r, file, dir);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		static char chunk[1 << 20];
		int fd = open(file, O_WRONLY | O_APPEND);

		for (int i = 0; fd >= 0 && i < 64; i++)
			if (write(fd, chunk, sizeof(chunk)) < 0)
				break;
		_exit(0);
	}
	rc = object_copy(&r, copies, &c, geteuid(), &why);
	assert_int_equal(waitpid(child, &status, 0), child);
	snprintf(copy, sizeof(copy), "%s/u/grow", copies);
	if (rc == 0) {
		assert_int_equal(stat(copy, &st), 0);
		assert_true((uint64_t)st.st_size <= COPY_MAX);
		assert_true(st.st_size >= 32 << 20);
	} else {
		assert_int_equal(rc, -1);
		assert_true(strstr(why, "changed while it was copied") ||
			    strstr(why, "larger than 64 MiB"));
		assert_int_equal(access(copy, F_OK), -1);
	}
	/* no file left behind in the copies' directory but the copy */
	snprintf(copy, sizeof(copy), "ls -A '%s/u' | grep -qv '^grow$'", copies);
	assert_int_not_equal(system(copy), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_line),
		cmocka_unit_test(test_record_refused),
		cmocka_unit_test(test_not_audit),
		cmocka_unit_test(test_audit_log),
		cmocka_unit_test(test_same_records),
		cmocka_unit_test(test_forgeries),
		cmocka_unit_test(test_refused_inputs),
		cmocka_unit_test(test_owner),
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_fix_select),
		cmocka_unit_test(test_dropin),
		cmocka_unit_test(test_converges),
		cmocka_unit_test(test_current_config),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_copy_refused),
		cmocka_unit_test(test_changed_and_never),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_unaudited),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_path_ok),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_fix_dir),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_copy_growing),
	};

	return cmocka_run_group_tests_name("tpe-suggest", tests,
					   fixture_dir_make,
					   fixture_dir_remove);
}
