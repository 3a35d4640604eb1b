// SPDX-License-Identifier: GPL-2.0
/* Running a step as another user, with the errno pipe; see run-as.h. */
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

struct outcome run_as(const struct user *u, int (*fn)(void *), void *arg)
{
	struct outcome o = { 0, 0 };
	int p[2], st, err;
	pid_t pid;

	fflush(stdout);
	if (pipe2(p, O_CLOEXEC))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(p[0]);
		errno_pipe = p[1];
		if (u)
			become(u);
		_exit(fn(arg));
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) == sizeof(err))
		o.err = err;
	close(p[0]);
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return o;
}

