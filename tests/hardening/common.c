// SPDX-License-Identifier: GPL-2.0
/* Shared by the hardening test programs; see common.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

/* ---- our own programs ---- */

void helper_path(const char *name, char *out, size_t len)
{
	static char bindir[PATH_MAX];

	if (!bindir[0]) {
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n < 0)
			die("readlink /proc/self/exe");
		self[n] = 0;
		snprintf(bindir, sizeof(bindir), "%s", dirname(self));
	}
	snprintf(out, len, "%s/%s", bindir, name);
}

/* ---- the policy (the blob is tests/lib/policy.c's) ---- */

void policy_must_set(uint32_t flags, const uint32_t *uids, uint32_t nr_uids,
		     const uint32_t *gids, uint32_t nr_gids)
{
	struct policy p = { flags, nr_uids, nr_gids, uids, gids };
	int err = policy_set(&p);

	if (err) {
		errno = err;
		die("writing policy flags %#x", flags);
	}
}

/* ---- users ---- */

struct user alice = { "alice", 60001, 60001, 0, { 0 } };
struct user bob = { "bob", 60002, 60002, 0, { 0 } };

static void user_lookup(struct user *u)
{
	struct passwd *pw = getpwnam(u->name);

	if (pw) {
		u->uid = pw->pw_uid;
		u->gid = pw->pw_gid;
	} else {
		note("no user %s in passwd; using uid %u", u->name, u->uid);
	}
}

void users_init(void)
{
	user_lookup(&alice);
	user_lookup(&bob);
}

/* ---- files ---- */

void copy_file(const char *src, const char *dst, mode_t mode, uid_t uid, gid_t gid)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	struct stat st;

	if (in < 0 || fstat(in, &st))
		die("open %s", src);
	unlink(dst);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0)
		die("create %s", dst);
	for (off_t off = 0; off < st.st_size;) {
		ssize_t n = sendfile(out, in, &off, st.st_size - off);

		if (n <= 0)
			die("copy %s to %s", src, dst);
	}
	if (fchown(out, uid, gid) || fchmod(out, mode))
		die("chown/chmod %s", dst);
	close(in);
	close(out);
}

void make_dir(const char *path, mode_t mode, uid_t uid, gid_t gid)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		die("mkdir %s", path);
	if (chown(path, uid, gid) || chmod(path, mode))
		die("chown/chmod %s", path);
}

void write_file(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write %s", path);
	if (fchown(fd, uid, gid) || fchmod(fd, mode))
		die("chown/chmod %s", path);
	close(fd);
}

/* ---- mounts (running a step as a user is tests/lib/run-as.c) ---- */

void fresh_tmpfs(const char *dir, const char *name)
{
	umount2(dir, MNT_DETACH);
	mkdir(dir, 0755);
	if (mount(name, dir, "tmpfs", 0, "mode=0755"))
		die("mount tmpfs on %s", dir);
}

/* ---- exec and user namespaces ---- */

char *const empty_env[] = { NULL };

int do_exec(void *path)
{
	char *argv[] = { path, NULL };

	execve(path, argv, empty_env);
	fail_errno(errno);
}

int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

int enter_userns(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	/*
	 * Changing uid made the process non-dumpable, which makes
	 * /proc/self/uid_map root's: become dumpable again to write it.
	 */
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return errno;
	snprintf(map, sizeof(map), "0 %u 1", uid);
	if (write_text("/proc/self/uid_map", map) ||
	    write_text("/proc/self/setgroups", "deny"))
		return errno;
	snprintf(map, sizeof(map), "0 %u 1", gid);
	if (write_text("/proc/self/gid_map", map))
		return errno;
	return 0;
}

/* ---- the kernel log ---- */

bool log_escape(const char *in, char *out, size_t cap)
{
	static const char letter[256] = {
		['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r', ['\v'] = 'v',
		['\f'] = 'f', ['\a'] = 'a', ['\033'] = 'e', ['\\'] = '\\',
	};
	size_t used = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		char one[5];
		/* The kernel's isprint() is Latin-1: 0x80..0x9f are controls. */
		bool np = *p < 0x20 || *p == 0x7f || (*p >= 0x80 && *p < 0xa0);

		if (letter[*p])
			snprintf(one, sizeof(one), "\\%c", letter[*p]);
		else if (np || *p == ' ')
			snprintf(one, sizeof(one), "\\%03o", *p);
		else
			snprintf(one, sizeof(one), "%c", *p);
		if (used + strlen(one) >= cap) {
			if (cap)
				out[used] = '\0';
			return false;
		}
		memcpy(out + used, one, strlen(one));
		used += strlen(one);
	}
	out[used] = '\0';
	return true;
}

char *klog_read(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (len <= 0)
		return NULL;
	buf = calloc(1, len + 1);
	if (!buf)
		return NULL;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

const char *klog_text(const char *line)
{
	const char *p = line;

	if (*p == '<' && strchr(p, '>'))	/* "<5>" */
		p = strchr(p, '>') + 1;
	if (*p == '[' && strchr(p, ']'))	/* "[   12.345678]" */
		p = strchr(p, ']') + 1;
	while (*p == ' ')
		p++;
	return p;
}

static bool klog_line_matches(const char *text, const char *prefix,
			      const char *middle, const char *suffix)
{
	size_t len = strlen(text), np = prefix ? strlen(prefix) : 0;
	size_t ns = suffix ? strlen(suffix) : 0;

	if (np && strncmp(text, prefix, np))
		return false;
	if (ns && (len < np + ns || strcmp(text + len - ns, suffix)))
		return false;
	if (middle && *middle) {
		const char *m = strstr(text + np, middle);

		/* The middle lies between the prefix and the suffix. */
		if (!m || m + strlen(middle) > text + len - ns)
			return false;
	}
	return true;
}

bool klog_line(const char *prefix, const char *middle, const char *suffix,
	       char *found, size_t cap)
{
	char *buf = klog_read(), *line, *save;
	bool hit = false;

	if (!buf)
		die("klogctl: cannot read the kernel log");
	for (line = strtok_r(buf, "\n", &save); line && !hit;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *text = klog_text(line);

		hit = klog_line_matches(text, prefix, middle, suffix);
		if (hit && found && cap)
			snprintf(found, cap, "%s", text);
	}
	free(buf);
	return hit;
}

/*
 * TPE prints at most 10 lines a user (DEFAULT_RATELIMIT_BURST) in an
 * interval of 5 s that starts with her first denial (module/audit.c), and
 * that first one is always printed. An interval that started less than 5 s
 * ago printed all of its lines since, so with at most LOG_QUIET_LINES tpe
 * lines of anyone in the last 5 s, every user has room for 10 minus that.
 * The log's clock is the kernel's, CLOCK_MONOTONIC's within a few
 * milliseconds: LOG_QUIET_SECS looks back 1.5 s more.
 */
#define LOG_QUIET_LINES	4
#define LOG_QUIET_SECS	6.5

void log_quiet(void)
{
	for (;;) {
		char *buf = klog_read(), *line, *save;
		struct timespec now;
		double since, t;
		int n = 0;

		if (!buf)
			die("klogctl: cannot read the kernel log");
		clock_gettime(CLOCK_MONOTONIC, &now);
		since = now.tv_sec + now.tv_nsec / 1e9 - LOG_QUIET_SECS;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			const char *stamp = strchr(line, '[');

			if (stamp && sscanf(stamp + 1, "%lf", &t) == 1 && t >= since &&
			    !strncmp(klog_text(line), "tpe: ", 5))
				n++;
		}
		free(buf);
		if (n <= LOG_QUIET_LINES)
			return;
		usleep(250 * 1000);
	}
}
