/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the hardening test programs: their users, files, namespaces
 * and the kernel log. Result lines, the policy blob and running a step as
 * another user are tests/lib's (results.h, policy.h, run-as.h).
 */
#ifndef TPE_HARDENING_COMMON_H
#define TPE_HARDENING_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/tpe.h>

#include "policy.h"
#include "results.h"
#include "run-as.h"

/* Write or die: for setting up a test, not for testing the writer. */
void policy_must_set(uint32_t flags, const uint32_t *uids, uint32_t nr_uids,
		     const uint32_t *gids, uint32_t nr_gids);

/* Users of the test (alice untrusted, bob trusted), from the passwd. */
extern struct user alice, bob;
void users_init(void);

/* Our helper program NAME (hello, fuse-root, ...): in the directory this
 * program runs from, where the suites install them all. */
void helper_path(const char *name, char *out, size_t len);

/* Copy a file, creating dst with mode and owner. */
void copy_file(const char *src, const char *dst, mode_t mode, uid_t uid, gid_t gid);
/* mkdir -p of one level with exact owner and mode (chmod after mkdir). */
void make_dir(const char *path, mode_t mode, uid_t uid, gid_t gid);
void write_file(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid);

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

/*
 * Return once every user has room for a check's few lines in TPE's
 * rate-limited kernel log: at once when the last 5 s were quiet.
 */
void log_quiet(void);

#endif
