// SPDX-License-Identifier: GPL-2.0
/*
 * flood: one user's denials hide no other user's. alice (untrusted)
 * hammers denied execs and mmaps of her own program while carol (a second
 * untrusted user, whom the suite adds) makes one denial: carol's kernel log
 * line and audit record both arrive, and in each channel each of alice's
 * denials is either recorded or counted in a "suppressed" summary named by
 * her UID. Then the same with alice in her own user namespace spread over
 * more subordinate UIDs than the kernel's table of limits has slots: every
 * one is still charged to alice.
 *
 * The kernel's limits (module/audit.c): per user, 10 denials logged and
 * 100 audited in 5 s; each channel sums up what it left out, at most 5 s
 * after the first of them, as
 *   tpe: suppressed uid=U denials=N
 *   type=AVC ... lsm=tpe op=suppressed tclass=file uid=U denials=N
 *
 * Run as root in the test guest with auditd running; it rewrites
 * tpe/policy. The figures are "# flood: ..." lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define BASE "/run/tpe-flood"
#define AUDIT_LOG "/var/log/audit/audit.log"
#define STATS "/sys/kernel/security/tpe/stats"

/* The kernel's limits per user, and their interval in seconds. */
#define LOG_BURST 10
#define AUDIT_BURST 100
#define LIMIT_SECS 5
/* How long alice floods, and when carol's one denial comes. */
#define FLOOD_SECS 12
#define CAROL_AFTER 4
/* alice's flooders as herself; her subordinate UIDs in her namespace. */
#define FLOODERS 2
#define NS_UIDS 80
#define SUBUID_BASE 100000

static struct user carol = { "carol", 0, 0, 0, { 0 } };
static char hello[PATH_MAX + 8];

/* ---- alice's flood ---- */

struct flood {
	const char *path;
	struct timespec until;	/* CLOCK_MONOTONIC */
	int out;		/* where each flooder writes its counts */
};

/* What one flooder saw: denied (EACCES), and anything else. */
struct counts {
	long denied;
	long other;
};

static bool past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec ||
	       (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* execve and mmap PROT_EXEC of f->path in turn, until f->until. */
static int do_flood(void *arg)
{
	const struct flood *f = arg;
	char *argv[] = { (char *)f->path, NULL };
	struct counts c = { 0, 0 };
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 120;
	for (long i = 0; !past(&f->until); i++) {
		int err = 0;

		if (i % 2 == 0) {
			execve(f->path, argv, empty_env);
			err = errno;
		} else {
			void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

			if (p == MAP_FAILED)
				err = errno;
			else
				munmap(p, 4096);
		}
		if (err == EACCES)
			c.denied++;
		else
			c.other++;
	}
	return write(f->out, &c, sizeof(c)) == sizeof(c) ? 0 : 121;
}

/* Add up @n flooders' counts from @fd; false if one never reported. */
static bool read_counts(int fd, int n, struct counts *sum)
{
	struct counts c;

	*sum = (struct counts){ 0, 0 };
	while (n-- > 0) {
		if (read(fd, &c, sizeof(c)) != sizeof(c))
			return false;
		sum->denied += c.denied;
		sum->other += c.other;
	}
	return true;
}

/* ---- the two channels, from a point in time on ---- */

struct window {
	int kmsg;		/* /dev/kmsg, past the last record before */
	off_t audit_from;	/* audit.log's size before */
	long long denials;	/* tpe/stats: exec_denials + mmap_denials */
};

static long long stats_denials(void)
{
	FILE *f = fopen(STATS, "r");
	char line[128];
	long long v, sum = 0;

	if (!f)
		die("open " STATS);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "exec_denials %lld", &v) == 1 ||
		    sscanf(line, "mmap_denials %lld", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/*
 * A fresh audit.log first (auditd rotates on SIGUSR1, as the rollout-attack
 * suite has it), so that no rotation falls inside the window.
 */
static void window_open(struct window *w)
{
	struct stat st;

	if (system("systemctl kill -s USR1 auditd.service"))
		die("rotate audit.log");
	sleep(2);

	w->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->kmsg < 0 || lseek(w->kmsg, 0, SEEK_END) < 0)
		die("open /dev/kmsg");
	if (stat(AUDIT_LOG, &st))
		die("stat " AUDIT_LOG);
	w->audit_from = st.st_size;
	w->denials = stats_denials();
}

/* Append @len bytes to the malloc'd text at *@buf (*@used long). */
static void append(char **buf, size_t *used, const char *s, size_t len)
{
	*buf = realloc(*buf, *used + len + 2);
	if (!*buf)
		die("realloc");
	memcpy(*buf + *used, s, len);
	*used += len;
	(*buf)[*used] = '\0';
}

/* The kernel's messages since window_open(), one a line; malloc'd. */
static char *kmsg_since(struct window *w)
{
	char rec[8192], *text = NULL;
	size_t used = 0;
	ssize_t n;

	append(&text, &used, "", 0);
	for (;;) {
		char *msg, *end;

		n = read(w->kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			die("/dev/kmsg: records were overwritten before they were read");
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "PRIO,SEQ,USEC,FLAGS;MESSAGE\n" then " KEY=VALUE" lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		append(&text, &used, msg, end ? (size_t)(end - msg) : strlen(msg));
		append(&text, &used, "\n", 1);
	}
	return text;
}

/* audit.log since window_open(); malloc'd. */
static char *audit_since(struct window *w)
{
	char buf[65536], *text = NULL;
	size_t used = 0;
	ssize_t n;
	int fd = open(AUDIT_LOG, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || lseek(fd, w->audit_from, SEEK_SET) < 0)
		die("open " AUDIT_LOG);
	if (lseek(fd, 0, SEEK_END) < w->audit_from)
		die(AUDIT_LOG " is shorter than at the start: rotated in the window");
	lseek(fd, w->audit_from, SEEK_SET);
	append(&text, &used, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		append(&text, &used, buf, n);
	close(fd);
	return text;
}

/* ---- counting what arrived ---- */

/* What one channel says of a set of files and a user's summaries. */
struct tally {
	long lines;		/* denials of files under the prefix */
	long summaries;		/* summaries naming the user */
	long summed;		/* their denials= */
	long foreign;		/* summaries naming a subordinate UID */
};

/* The next line of @text at *@pos, NUL-terminated in @line; false at the end. */
static bool next_line(const char *text, size_t *pos, char *line, size_t cap)
{
	size_t len;

	if (!text[*pos])
		return false;
	len = strcspn(text + *pos, "\n");
	snprintf(line, cap, "%.*s", (int)len, text + *pos);
	*pos += len + (text[*pos + len] == '\n');
	return true;
}

/*
 * Count, in the kernel log (@audit false) or audit.log, the denials of
 * files whose path starts with @prefix and the summaries for @uid;
 * @print: note each summary.
 */
static struct tally count(const char *text, bool audit, const char *prefix, uid_t uid,
			  bool print)
{
	const char *den = audit ? "lsm=tpe op=" : "tpe: denied ";
	const char *sum = audit ? "lsm=tpe op=suppressed tclass=file uid=" :
				  "tpe: suppressed uid=";
	char line[4096], path[PATH_MAX + 16];
	struct tally t = { 0, 0, 0, 0 };
	size_t pos = 0;

	snprintf(path, sizeof(path), audit ? " path=\"%s" : " path=%s", prefix);
	while (next_line(text, &pos, line, sizeof(line))) {
		const char *p = strstr(line, sum);
		unsigned int u;
		long n;

		if (p && sscanf(p + strlen(sum), "%u denials=%ld", &u, &n) == 2) {
			/* auditd's enriched format adds names after a 0x1d */
			if (print)
				note("%s: %.*s", audit ? "audit.log" : "kernel log",
				     (int)strcspn(p, "\x1d"), p);
			if (u == uid) {
				t.summaries++;
				t.summed += n;
			} else if (u >= SUBUID_BASE && u < SUBUID_BASE + 65536) {
				t.foreign++;
			}
			continue;
		}
		p = strstr(line, den);
		if (p && (audit || p == line) && strstr(p, path))
			t.lines++;
	}
	return t;
}

/* ---- the two floods ---- */

static void deadline(struct timespec *t, int secs)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += secs;
}

/*
 * A summary comes at most LIMIT_SECS after the first denial it counts:
 * after this long, everything alice did before is summed up.
 */
static void settle(void)
{
	sleep(LIMIT_SECS + 3);
}

/*
 * kauditd parks a record that finds auditd's socket full in its retry
 * queue, and sends it again only when another record is queued
 * (kernel/audit.c, kauditd_thread()). After a flood, when nothing else is
 * audited, the last summary can wait there indefinitely: a user message
 * is another record.
 */
static void nudge_kauditd(void)
{
	if (system("auditctl -m 'tpe flood: send what is held' >/dev/null"))
		die("auditctl -m");
}

/*
 * What the two channels say, once auditd has written it: wait until
 * audit.log has carol's record and accounts for each of alice's @attempts,
 * or 30 s.
 */
static void read_channels(struct window *w, const char *what, const char *alice_dir,
			  long attempts, char **klog, char **alog)
{
	struct tally at, ct;

	*klog = kmsg_since(w);
	for (int i = 0; i < 30; i++) {
		*alog = audit_since(w);
		at = count(*alog, true, alice_dir, alice.uid, false);
		ct = count(*alog, true, BASE "/carol/", carol.uid, false);
		if (ct.lines && at.lines + at.summed >= attempts) {
			note("%s: audit.log accounts for the flood after %d s", what, i);
			return;
		}
		free(*alog);
		nudge_kauditd();
		sleep(1);
	}
	*alog = audit_since(w);
}

/*
 * One channel's figures for alice: within its limit over @intervals, and
 * each of her @attempts recorded or summed up.
 */
static void judge_channel(const char *what, const char *channel, const struct tally *t,
			  long attempts, int burst, int intervals)
{
	check(t->lines >= burst && t->lines <= (long)burst * intervals, "not within the limit",
	      "%s: %s: alice's denials recorded within the per-user limit (%d <= %ld <= %d)",
	      what, channel, burst, t->lines, burst * intervals);
	check(t->lines + t->summed == attempts, "some went unaccounted",
	      "%s: %s: each of alice's denials recorded or in a summary (%ld + %ld = %ld)",
	      what, channel, t->lines, t->summed, attempts);
	check(!t->foreign, "a summary names a subordinate UID",
	      "%s: %s: every summary names alice's own UID", what, channel);
}

/* Judge one flood's window: @what names it, alice flooded @flood_secs. */
static void judge(struct window *w, const char *what, const char *alice_dir,
		  const struct counts *alice_counts, int flood_secs)
{
	struct tally kl, al, kc, ac;
	long long denials = stats_denials() - w->denials;
	long attempts = alice_counts->denied;
	/* Intervals start at a denial, each more than LIMIT_SECS after the last. */
	int intervals = flood_secs / LIMIT_SECS + 1;
	char *klog, *alog;

	read_channels(w, what, alice_dir, attempts, &klog, &alog);
	kl = count(klog, false, alice_dir, alice.uid, true);
	al = count(alog, true, alice_dir, alice.uid, true);
	kc = count(klog, false, BASE "/carol/", carol.uid, false);
	ac = count(alog, true, BASE "/carol/", carol.uid, false);
	note("%s: alice %ld denials (%ld other outcomes); kernel log: %ld lines + %ld in %ld "
	     "summaries; audit.log: %ld records + %ld in %ld summaries", what,
	     attempts, alice_counts->other, kl.lines, kl.summed, kl.summaries,
	     al.lines, al.summed, al.summaries);
	note("%s: carol 1 denial; kernel log: %ld lines, %ld summaries; audit.log: %ld records, "
	     "%ld summaries; tpe/stats counted %lld denials", what, kc.lines, kc.summaries,
	     ac.lines, ac.summaries, denials);

	check(alice_counts->other == 0 && attempts >= 2 * AUDIT_BURST,
	      "alice's flood was not a flood of denials",
	      "%s: alice's %ld execs and mmaps were all denied", what, attempts);
	check(kc.lines == 1, "carol's line did not arrive once",
	      "%s: carol's one denial is in the kernel log (%ld lines)", what, kc.lines);
	check(ac.lines == 1, "carol's record did not arrive once",
	      "%s: carol's one denial is in audit.log (%ld records)", what, ac.lines);
	check(!kc.summaries && !ac.summaries, "carol had a summary",
	      "%s: nothing of carol's was left out", what);
	check(denials == attempts + 1, "tpe/stats missed some",
	      "%s: tpe/stats counts every denial (%lld = alice's %ld + carol's 1)", what,
	      denials, attempts);
	judge_channel(what, "kernel log", &kl, attempts, LOG_BURST, intervals);
	judge_channel(what, "audit.log", &al, attempts, AUDIT_BURST, intervals);
	free(klog);
	free(alog);
}

/* carol's one denial, CAROL_AFTER seconds into the flood. */
static void carol_denial(const char *what)
{
	struct outcome o;

	sleep(CAROL_AFTER);
	o = run_as(&carol, do_exec, BASE "/carol/hello");
	check(o.err == EACCES, outcome_str(o), "%s: carol's exec during alice's flood: denied",
	      what);
}

static void flood_as_herself(void)
{
	const char *what = "alice as herself";
	struct flood f = { .path = BASE "/alice/hello" };
	struct counts c;
	struct window w;
	pid_t pids[FLOODERS];
	int fds[2], i, bad = 0;

	settle();
	window_open(&w);
	if (pipe2(fds, O_CLOEXEC))
		die("pipe");
	f.out = fds[1];
	deadline(&f.until, FLOOD_SECS);
	for (i = 0; i < FLOODERS; i++)
		pids[i] = fork_as(&alice, -1, do_flood, &f);
	close(fds[1]);
	carol_denial(what);
	if (!read_counts(fds[0], FLOODERS, &c))
		die("%s: a flooder did not report (did an exec run?)", what);
	for (i = 0; i < FLOODERS; i++)
		bad |= wait_status(pids[i]);
	close(fds[0]);
	if (bad)
		die("%s: a flooder failed", what);
	settle();
	judge(&w, what, BASE "/alice/", &c, FLOOD_SECS);
	close(w.kmsg);
}

/*
 * alice in a user namespace of her own, whose maps root writes as
 * newuidmap would from /etc/subuid: namespace 0 is alice, 1.. her range.
 * Her holder forks NS_UIDS flooders, each a subordinate UID of its own.
 */
struct ns_flood {
	struct flood f;
	int ready[2], go[2];
};

static int do_ns_holder(void *arg)
{
	struct ns_flood *n = arg;
	int i, bad = 0;
	char c;

	close(n->ready[0]);
	close(n->go[1]);
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
		return 110;
	if (write(n->ready[1], "r", 1) != 1 || read(n->go[0], &c, 1) != 1)
		return 111;
	for (i = 1; i <= NS_UIDS; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 112;
		if (pid == 0) {
			close(n->go[0]);
			if (setresuid(i, i, i))
				_exit(113);
			_exit(do_flood(&n->f));
		}
	}
	close(n->f.out);
	while (i-- > 1) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	return bad ? 114 : 0;
}

static void flood_from_userns(void)
{
	const char *what = "alice from 80 subordinate UIDs";
	struct ns_flood n = { .f = { .path = BASE "/ns/hello" } };
	char path[64], map[64], c;
	struct counts counts;
	struct window w;
	int fds[2], st;
	pid_t holder;

	settle();
	window_open(&w);
	if (pipe2(fds, O_CLOEXEC) || pipe2(n.ready, O_CLOEXEC) || pipe2(n.go, O_CLOEXEC))
		die("pipe");
	n.f.out = fds[1];
	deadline(&n.f.until, FLOOD_SECS + 1);
	holder = fork_as(&alice, -1, do_ns_holder, &n);
	close(fds[1]);
	close(n.ready[1]);
	close(n.go[0]);
	if (read(n.ready[0], &c, 1) != 1)
		die("%s: alice's namespace (holder exit %d)", what, wait_status(holder));
	snprintf(map, sizeof(map), "0 %u 1\n1 %u 65536", alice.uid, SUBUID_BASE);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", holder);
	if (write_text(path, map))
		die("write %s", path);
	snprintf(map, sizeof(map), "0 %u 1\n1 %u 65536", alice.gid, SUBUID_BASE);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", holder);
	if (write_text(path, map))
		die("write %s", path);
	if (write(n.go[1], "g", 1) != 1)
		die("%s: go", what);
	close(n.go[1]);
	carol_denial(what);
	if (!read_counts(fds[0], NS_UIDS, &counts))
		die("%s: a flooder did not report (holder exit %d)", what, wait_status(holder));
	st = wait_status(holder);
	close(fds[0]);
	close(n.ready[0]);
	if (st)
		die("%s: alice's holder exited %d", what, st);
	settle();
	judge(&w, what, BASE "/ns/", &counts, FLOOD_SECS + 1);
	close(w.kmsg);
}

static void setup(void)
{
	struct passwd *pw = getpwnam(carol.name);
	uint32_t trusted[] = { bob.uid };

	if (!pw)
		die("no user carol in passwd (the suite adds her)");
	carol.uid = pw->pw_uid;
	carol.gid = pw->pw_gid;
	if (system("systemctl -q is-active auditd.service"))
		die("auditd is not running: audit.log would not be written");
	fresh_tmpfs(BASE, "tpe-flood");
	make_dir(BASE "/alice", 0755, alice.uid, alice.gid);
	copy_file(hello, BASE "/alice/hello", 0755, alice.uid, alice.gid);
	make_dir(BASE "/ns", 0755, alice.uid, alice.gid);
	copy_file(hello, BASE "/ns/hello", 0755, alice.uid, alice.gid);
	make_dir(BASE "/carol", 0755, carol.uid, carol.gid);
	copy_file(hello, BASE "/carol/hello", 0755, carol.uid, carol.gid);
	policy_must_set(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, trusted, 1, NULL, 0);
	note("alice uid %u, carol uid %u (both untrusted), bob uid %u trusted", alice.uid,
	     carol.uid, bob.uid);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "flood";
	helper_path("hello", hello, sizeof(hello));
	users_init();
	setup();
	flood_as_herself();
	flood_from_userns();
	note("%d passed, %d failed", nr_ok, nr_fail);
	return nr_fail ? 1 : 0;
}
