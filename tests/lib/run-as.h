/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a step as another user: fork, become the user, run the step,
 * and learn how it ended, an exec's errno included, through a
 * close-on-exec pipe (nothing arrives when the exec succeeded).
 */
#ifndef TPE_TESTS_LIB_RUN_AS_H
#define TPE_TESTS_LIB_RUN_AS_H

#include <sys/types.h>

/* A subject: uid, primary gid and supplementary groups. */
struct user {
	const char *name;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[2];
};

/* Become u (groups, gid, uid); exits 125 on failure. For forked children. */
void become(const struct user *u);

/*
 * The outcome of running something in a child: err is the errno a step
 * reported with fail_errno() (0 if none), status the child's exit status
 * (or 128 + signal).
 */
struct outcome {
	int err;
	int status;
};

/*
 * The one fork of a step as a user. The child sends its stdout and stderr
 * to @out (-1: keeps them), becomes u (NULL: stays root) and exits with
 * fn(arg); the parent gets its pid, for wait_status() once it has read
 * the child's output or talked to it over its own pipes.
 */
pid_t fork_as(const struct user *u, int out, int (*fn)(void *), void *arg);
/* Reap pid: its exit status, or 128 + the signal that ended it. */
int wait_status(pid_t pid);

/*
 * fork_as() with the errno pipe, and wait: fn reports a failing call with
 * fail_errno(), which exits the child, or execs something, or returns its
 * exit status.
 */
struct outcome run_as(const struct user *u, int (*fn)(void *), void *arg);
__attribute__((noreturn)) void fail_errno(int err);

/* Human text for an outcome, for reasons ("EACCES", "ran, exit 42", ...). */
const char *outcome_str(struct outcome o);

#endif
