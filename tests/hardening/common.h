/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the hardening test programs: result lines, the policy blob,
 * and running a step as another user.
 *
 * Result lines go to stdout, one per check: "ok - NAME" or
 * "not ok - NAME: REASON" (tests/README.md). Anything else is log and
 * starts with "# ".
 */
#ifndef TPE_HARDENING_COMMON_H
#define TPE_HARDENING_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/tpe.h>

#define POLICY_PATH "/sys/kernel/security/tpe/policy"

extern const char *prog_name;	/* prefix of every check name */
extern int nr_ok, nr_fail;

/* One result line: "ok - PROG: NAME" or "not ok - PROG: NAME: REASON". */
__attribute__((format(printf, 3, 4)))
void check(bool ok, const char *reason, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void note(const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);

/* A policy: flags and the two lists, as the user wrote it. */
struct policy {
	uint32_t flags;
	uint32_t nr_uids, nr_gids;
	const uint32_t *uids, *gids;
};

/* Encode into a fresh malloc'd blob; *len gets its size. */
unsigned char *policy_blob(const struct policy *p, size_t *len);
/* One write() of the blob to tpe/policy; 0 or an errno. */
int policy_write_raw(const void *buf, size_t len);
/* Encode and write; 0 or an errno. */
int policy_set(const struct policy *p);
/* Write or die: for setting up a test, not for testing the writer. */
void policy_must_set(uint32_t flags, const uint32_t *uids, uint32_t nr_uids,
		     const uint32_t *gids, uint32_t nr_gids);
/* Read the live policy into buf (cap bytes); the length or -errno. */
ssize_t policy_read(void *buf, size_t cap);

/* Users of the test: uid and primary gid (alice untrusted, bob trusted). */
struct user {
	const char *name;
	uid_t uid;
	gid_t gid;
};
extern struct user alice, bob;
void users_init(void);

/* Become u (groups, gid, uid); dies on failure. For forked children. */
void become(const struct user *u);

/* Copy a file, creating dst with mode and owner. */
void copy_file(const char *src, const char *dst, mode_t mode, uid_t uid, gid_t gid);
/* mkdir -p of one level with exact owner and mode (chmod after mkdir). */
void make_dir(const char *path, mode_t mode, uid_t uid, gid_t gid);
void write_file(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid);

/*
 * The outcome of running something in a child: exec_errno is the errno of
 * a failed execve-like call (0 if it succeeded or none was made), status
 * the child's exit status (or 128 + signal).
 */
struct outcome {
	int err;
	int status;
};

/*
 * Fork; the child becomes u (NULL: stays root), then runs fn(arg). fn
 * reports a failing call with fail_errno(), which exits the child, or
 * execs something, or returns its exit status. The parent waits.
 */
struct outcome run_as(const struct user *u, int (*fn)(void *), void *arg);
__attribute__((noreturn)) void fail_errno(int err);

/* Human text for an outcome, for reasons ("EACCES", "exit 42", ...). */
const char *outcome_str(struct outcome o);
const char *errno_name(int err);

/* An empty tmpfs (root 0755) on dir, whatever was mounted there before. */
void fresh_tmpfs(const char *dir, const char *name);

/* An empty environment, for the programs the tests run. */
extern char *const empty_env[];
/* execve(path) with no arguments; a failure is reported with fail_errno(). */
int do_exec(void *path);
/* Write text to a file (a /proc knob) in one write(); 0 or -1. */
int write_text(const char *path, const char *text);
/*
 * Become root of a new user namespace (and mount namespace) that maps only
 * the caller's uid and gid, as `unshare -r` does; 0 or an errno.
 */
int enter_userns(void);

/*
 * The kernel log (module/audit.c): a denial is one line, fixed fields
 * first and the path last,
 *   tpe: denied exec uid=U euid=E pid=P comm=C check=X dev=MA:MI ino=I dir_ino=D path=PATH
 * with comm and path escaped: %*pE's escapes (\n, \t, ..., \ooo for other
 * non-printables) and also a backslash as \\ and a space as \040, so no
 * value has a space in it. log_escape() writes that form of @in to @out
 * (@cap bytes with the NUL); false if it did not fit.
 */
bool log_escape(const char *in, char *out, size_t cap);
/*
 * The whole kernel log (syslog view), malloc'd and NUL-terminated, or NULL.
 * Each line starts with "<N>" and, with printk.time, "[ seconds] ".
 */
char *klog_read(void);
/* A log line without its "<N>" and "[ seconds] " prefixes. */
const char *klog_text(const char *line);
/*
 * Does a kernel log line start with @prefix, then (after it) have @middle,
 * and end with @suffix? NULL or "" matches anything. The first such line
 * (its text, cut to @cap) goes to @found if not NULL.
 */
bool klog_line(const char *prefix, const char *middle, const char *suffix,
	       char *found, size_t cap);

#endif
