// SPDX-License-Identifier: GPL-2.0
/*
 * compat-run LIST [SECS]: the inner loop of suites/hardening-compat, run as the
 * untrusted user. Each line of LIST is "PROG [ARG]": PROG is run with ARG,
 * or, without one, with --version and then, if that failed, with --help
 * (not after a timeout: the program ran, and --help would wait as long).
 * One output line per run:
 *
 *   PROG ARG STATUS EXEC_DENIALS MMAP_DENIALS WOULD_DENY
 *
 * the counters being what tpe/stats moved by during the run. stdin is
 * /dev/null, stdout and stderr are thrown away; a run still going after
 * SECS seconds (5) is killed with its process group and reported as status
 * 124, as timeout(1) would. One fork and one exec per run, where timeout(1) in a
 * shell loop costs three: under TCG the suite's time is its execs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef STATS
#define STATS "/sys/kernel/security/tpe/stats"
#endif
static int timeout_ms = 5000;

struct counters {
	long long exec, mmap, would;
};

static void stats(struct counters *c)
{
	char buf[512], *line, *save;
	int fd = open(STATS, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0) {
		fprintf(stderr, "compat-run: %s: %s\n", STATS, strerror(errno));
		exit(2);
	}
	close(fd);
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sscanf(line, "exec_denials %lld", &c->exec);
		sscanf(line, "mmap_denials %lld", &c->mmap);
		sscanf(line, "would_deny %lld", &c->would);
	}
}

/* Run prog arg; its exit status (128 + signal, 124 after the timeout). */
static int run1(const char *prog, const char *arg)
{
	static char *const env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", NULL };
	char *argv[] = { (char *)prog, (char *)arg, NULL };
	struct counters a = { 0 }, b = { 0 };
	struct pollfd pfd = { .events = POLLIN };
	int st, status, null;
	pid_t pid;

	stats(&a);
	pid = fork();
	if (pid < 0) {
		perror("compat-run: fork");
		exit(2);
	}
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(125);
		setpgid(0, 0);
		execve(prog, argv, env);
		_exit(errno == ENOENT ? 127 : 126);
	}
	setpgid(pid, pid);	/* either side may run first */
	pfd.fd = syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0) {
		perror("compat-run: pidfd_open");
		exit(2);
	}
	status = -1;
	if (poll(&pfd, 1, timeout_ms) == 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		status = 124;
	}
	close(pfd.fd);
	if (waitpid(pid, &st, 0) < 0) {
		perror("compat-run: waitpid");
		exit(2);
	}
	if (status < 0)
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	stats(&b);
	printf("%s %s %d %lld %lld %lld\n", prog, arg, status, b.exec - a.exec, b.mmap - a.mmap,
	       b.would - a.would);
	fflush(stdout);
	return status;
}

int main(int argc, char **argv)
{
	char line[4096], prog[4096], arg[64];
	FILE *in;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: compat-run LIST [SECS]\n");
		return 2;
	}
	if (argc == 3)
		timeout_ms = atoi(argv[2]) * 1000;
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		int n = sscanf(line, "%4095s %63s", prog, arg), status;

		if (n == 2) {
			run1(prog, arg);
		} else if (n == 1) {
			status = run1(prog, "--version");
			if (status != 0 && status != 124)
				run1(prog, "--help");
		}
	}
	fclose(in);
	return 0;
}
