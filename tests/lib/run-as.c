// SPDX-License-Identifier: GPL-2.0
/* Running a step as another user: one fork, the errno pipe; see run-as.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results.h"
#include "run-as.h"

const char *outcome_str(struct outcome o)
{
	static char buf[64];

	if (o.err)
		snprintf(buf, sizeof(buf), "%s", errno_name(o.err));
	else if (o.status >= 128)
		snprintf(buf, sizeof(buf), "killed by signal %d", o.status - 128);
	else
		snprintf(buf, sizeof(buf), "ran, exit %d", o.status);
	return buf;
}

void become(const struct user *u)
{
	if (setgroups(u->ngroups, u->groups) ||
	    setresgid(u->gid, u->gid, u->gid) ||
	    setresuid(u->uid, u->uid, u->uid)) {
		fprintf(stderr, "become %s: %s\n", u->name, strerror(errno));
		_exit(125);
	}
}

/* The write end of the errno pipe in the child; close-on-exec. */
static int errno_pipe = -1;

void fail_errno(int err)
{
	if (write(errno_pipe, &err, sizeof(err)) != sizeof(err))
		_exit(124);
	_exit(126);
}

pid_t fork_as(const struct user *u, int out, int (*fn)(void *), void *arg)
{
	pid_t pid;

	fflush(stdout);	/* or the child writes our buffer once more */
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (out >= 0 && (dup2(out, 1) < 0 || dup2(out, 2) < 0))
			_exit(127);
		if (u)
			become(u);
		_exit(fn(arg));
	}
	return pid;
}

int wait_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* run_as()'s step in the child: the pipe's ends set, then fn. */
struct errno_step {
	int (*fn)(void *);
	void *arg;
	int pipe[2];
};

static int with_errno_pipe(void *arg)
{
	struct errno_step *s = arg;

	close(s->pipe[0]);
	errno_pipe = s->pipe[1];
	return s->fn(s->arg);
}

struct outcome run_as(const struct user *u, int (*fn)(void *), void *arg)
{
	struct errno_step s = { fn, arg, { -1, -1 } };
	struct outcome o = { 0, 0 };
	pid_t pid;
	int err;

	if (pipe2(s.pipe, O_CLOEXEC))
		die("pipe");
	pid = fork_as(u, -1, with_errno_pipe, &s);
	close(s.pipe[1]);
	if (read(s.pipe[0], &err, sizeof(err)) == sizeof(err))
		o.err = err;
	close(s.pipe[0]);
	o.status = wait_status(pid);
	return o;
}
