// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-bench: the measuring half of `make bench`. Runs inside the guest,
 * as root; each command is one measurement and prints one line of
 * key=value pairs on stdout, which the suite scripts forward to the host.
 *
 *   tpe-bench exec   [opts] PATH [ARG]...  fork + execve(PATH, {PATH, ARG...},
 *                                  an empty environment) + exit + wait
 *   tpe-bench fork   [opts]        fork + _exit + wait: no exec, no check
 *   tpe-bench mmap   [opts] PATH   mmap(PROT_READ|PROT_EXEC) + munmap of PATH,
 *                                  opened once before the loop
 *   tpe-bench open-mmap [opts] PATH  open + mmap(PROT_EXEC) + munmap + close
 *     -n N      measured iterations (default 1000)
 *     -w N      warm-up iterations, not measured (default 100)
 *     -u UID    drop to this uid (and gid, no groups) before measuring
 *     -g GID    gid to drop to (default: the uid)
 *     -e allow|deny|any   what every iteration must do (default any)
 *     -s FILE   append each sample (ns, native u32) to FILE
 *     -R        no address space randomization (setarch -R), for tpe-bench
 *               itself (it execs itself again) and every exec it times
 *
 *   tpe-bench count -u UID -r ROOT [-n N] [-p STATS] -- PROG [ARG]...
 *     Runs PROG N times (default 10), each time in a child that chroots to
 *     ROOT, drops all groups, becomes UID (and gid UID), and execs it with an
 *     empty environment; every run must exit 0. Prints runs=, the
 *     would_deny= delta of tpe/stats (STATS defaults to
 *     $TPE_SECURITYFS/stats) over the runs, and checks_per_exec=. Under a
 *     permissive policy, with every directory under ROOT world-writable and
 *     UID untrusted, every check tpe judges fails and is counted there: the
 *     delta per run is the number of checks one exec of PROG costs.
 *
 *   tpe-bench policy -N ENTRIES [-f FLAGS] [-t UID] [-p PATH] [-o FILE]
 *     Writes a policy of ENTRIES trusted uids (UID among them, the others
 *     spread evenly around it) with one write(), reads it back, compares.
 *     Prints write_ns= and read_ns=. PATH defaults to $TPE_SECURITYFS/policy
 *     or /sys/kernel/security/tpe/policy. FLAGS: comma list of enforce, mmap,
 *     check_file, strict, invert, lock, or a number.
 *   tpe-bench conf -N ENTRIES [-f FLAGS] [-t UID] -o FILE
 *     The same policy as a tpe.conf for tpe-load.
 *   tpe-bench time [-n N] -- CMD [ARG]...
 *     Runs CMD N times (default 1); prints the median wall time.
 *   tpe-bench summarize FILE...
 *     Statistics over the samples that -s appended.
 *
 * The uid list for -t UID: UID itself, and the other ENTRIES-1 ids at even
 * distances from it, half below and half above (UID must be at least
 * ENTRIES). UID+1 is never listed: it is the untrusted user of the bench.
 *
 * -R: what a fork + exec costs depends on where things are in the address
 * space, of the forking process above all: with randomization, one run of
 * 400 execs took 234,101 instructions a median, the next run of the same
 * cell 242,044, its fastest exec 7,000 more than the other's, in one boot:
 * several times what the hook costs. A fixed layout is the same for every
 * variant, so it moves no variant's hook cost, and it takes that noise out.
 *
 * Time is CLOCK_MONOTONIC. Under QEMU -icount shift=0 the guest clock counts
 * executed instructions (1 ns each): the figures are then instruction cost,
 * not cache or TLB effects.
 *
 * Exit: 0 ok, 1 a measurement did not behave as -e required, 2 usage,
 * 3 system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "flags.h"
#include "policy.h"

#define DEFAULT_SECURITYFS	"/sys/kernel/security/tpe"

enum { OK, MISBEHAVED, USAGE, SYSERR };
enum expect { ANY, ALLOW, DENY };
enum op { OP_EXEC, OP_MMAP, OP_OPEN_MMAP, OP_FORK };

struct run {
	enum op op;
	const char *path, *samples;
	char *const *argv;		/* for exec: PATH and its arguments */
	long n, warmup;
	int norandom;			/* -R */
	long uid, gid;			/* -1: stay root */
	enum expect expect;
};

struct tally {
	long allowed, denied;
};

static const char *prog = "tpe-bench";
static char **main_argv;		/* to exec ourselves again (-R) */

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(SYSERR);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s exec|mmap|open-mmap [-n N] [-w N] [-u UID] [-g GID] "
		"[-e allow|deny|any] [-s FILE] [-R] PATH [ARG]...\n"
		"       %s fork [-n N] [-w N] [-u UID] [-g GID] [-s FILE] [-R]\n"
		"       %s count -u UID -r ROOT [-n N] [-p STATS] -- PROG "
		"[ARG]...\n"
		"       %s policy -N ENTRIES [-f FLAGS] [-t UID] [-p PATH] "
		"[-o FILE]\n"
		"       %s conf -N ENTRIES [-f FLAGS] [-t UID] -o FILE\n"
		"       %s time [-n N] -- CMD [ARG]...\n"
		"       %s summarize FILE...\n", prog, prog, prog, prog, prog,
		prog, prog);
	exit(USAGE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0)
		usage();
	return v;
}

/*
 * Memory that fork() does not copy: the sample buffer must not make the
 * child (and so every measured exec) bigger.
 */
static void *private_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, len, MADV_DONTFORK))
		die("madvise");
	memset(p, 0, len);
	return p;
}

/* ---- statistics ---------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Sorts s in place; prints n= median_ns= p99_ns= min_ns= max_ns= mean_ns= */
static void print_stats(uint32_t *s, size_t n)
{
	uint64_t sum = 0;
	size_t i, p99;

	if (!n) {
		printf("n=0");
		return;
	}
	qsort(s, n, sizeof(*s), cmp_u32);
	for (i = 0; i < n; i++)
		sum += s[i];
	p99 = (n * 99 + 99) / 100;	/* ceil(0.99 n), 1-based rank */
	printf("n=%zu median_ns=%u p99_ns=%u min_ns=%u max_ns=%u mean_ns=%llu",
	       n, n % 2 ? s[n / 2] : (uint32_t)(((uint64_t)s[n / 2 - 1] +
						 s[n / 2]) / 2),
	       s[p99 - 1], s[0], s[n - 1], (unsigned long long)(sum / n));
}

/* ---- exec and mmap ------------------------------------------------------- */

static void drop_to(long uid, long gid)
{
	if (uid < 0)
		return;
	if (gid < 0)
		gid = uid;
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		die("dropping privileges");
}

static int is_denial(int err)
{
	return err == EACCES || err == EPERM;
}

/* One fork + execve + exit + wait. Returns 0 allowed, 1 denied. */
static int one_exec(const char *path, char *const *argv)
{
	char *const envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execve(path, argv, envp);
		_exit(errno ? errno : 255);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status)) {
		fprintf(stderr, "%s: %s: child died by signal %d\n", prog, path,
			WTERMSIG(status));
		exit(SYSERR);
	}
	if (WEXITSTATUS(status) == 0)
		return 0;
	if (is_denial(WEXITSTATUS(status)))
		return 1;
	errno = WEXITSTATUS(status);
	die(path);
	return -1;
}

/* One mmap(PROT_EXEC) + munmap of fd, or open it first if fd < 0. */
static int one_mmap(const char *path, int fd)
{
	int own = fd < 0, denied = 0;
	void *p;

	if (own && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (!is_denial(errno))
			die(path);
		return 1;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		if (!is_denial(errno))
			die("mmap");
		denied = 1;
	} else if (munmap(p, 4096)) {
		die("munmap");
	}
	if (own)
		close(fd);
	return denied;
}

/* One fork + _exit + wait. */
static int one_fork(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	return 0;
}

static int one(const struct run *r, int fd)
{
	if (r->op == OP_FORK)
		return one_fork();
	return r->op == OP_EXEC ? one_exec(r->path, r->argv) :
				  one_mmap(r->path, fd);
}

static void append_samples(int fd, const uint32_t *s, size_t n)
{
	size_t len = n * sizeof(*s);

	if (write(fd, s, len) != (ssize_t)len)
		die("writing samples");
	close(fd);
}

static int measure(const struct run *r)
{
	static const char *const ops[] = { "exec", "mmap", "open-mmap",
					   "fork" };
	size_t len = ((size_t)r->n * sizeof(uint32_t) + 4095) & ~(size_t)4095;
	uint32_t *s = private_alloc(len ? len : 4096);
	struct tally t = { 0, 0 };
	int fd = -1, sfd = -1, bad;
	long i;

	/* Opened as root: the unprivileged user need not own the file. */
	if (r->samples && (sfd = open(r->samples, O_WRONLY | O_APPEND |
				      O_CREAT | O_CLOEXEC, 0644)) < 0)
		die(r->samples);
	drop_to(r->uid, r->gid);
	if (r->op == OP_MMAP && (fd = open(r->path, O_RDONLY | O_CLOEXEC)) < 0)
		die(r->path);
	for (i = 0; i < r->warmup; i++)
		one(r, fd);
	for (i = 0; i < r->n; i++) {
		uint64_t t0 = now_ns(), d;

		if (one(r, fd))
			t.denied++;
		else
			t.allowed++;
		d = now_ns() - t0;
		s[i] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	}
	if (sfd >= 0)
		append_samples(sfd, s, r->n);
	bad = (r->expect == ALLOW && t.denied) ||
	      (r->expect == DENY && t.allowed);
	printf("op=%s allowed=%ld denied=%ld ", ops[r->op], t.allowed,
	       t.denied);
	print_stats(s, r->n);
	printf("%s\n", bad ? " unexpected=1" : "");
	if (bad)
		fprintf(stderr, "%s: %s %s as uid %ld: %ld allowed, %ld denied,"
			" expected all %s\n", prog, ops[r->op], r->path,
			r->uid, t.allowed, t.denied,
			r->expect == ALLOW ? "allowed" : "denied");
	return bad ? MISBEHAVED : OK;
}

static int cmd_measure(enum op op, int argc, char **argv)
{
	struct run r = { .op = op, .n = 1000, .warmup = 100, .uid = -1,
			 .gid = -1, .expect = ANY };
	int ch;

	while ((ch = getopt(argc, argv, "+n:w:u:g:e:s:R")) != -1) {
		switch (ch) {
		case 'R': r.norandom = 1; break;
		case 'n': r.n = number(optarg); break;
		case 'w': r.warmup = number(optarg); break;
		case 'u': r.uid = number(optarg); break;
		case 'g': r.gid = number(optarg); break;
		case 's': r.samples = optarg; break;
		case 'e':
			if (!strcmp(optarg, "allow"))
				r.expect = ALLOW;
			else if (!strcmp(optarg, "deny"))
				r.expect = DENY;
			else if (!strcmp(optarg, "any"))
				r.expect = ANY;
			else
				usage();
			break;
		default: usage();
		}
	}
	if (r.n < 1 || (op == OP_FORK ? optind != argc : optind >= argc ||
			(op != OP_EXEC && optind != argc - 1)))
		usage();
	if (r.norandom) {
		int persona = personality(0xffffffff);

		if (persona < 0)
			die("personality");
		/* Once more with a fixed layout, inherited by every child. */
		if (!(persona & ADDR_NO_RANDOMIZE)) {
			if (personality((unsigned long)persona |
					ADDR_NO_RANDOMIZE) < 0)
				die("personality");
			execv("/proc/self/exe", main_argv);
			die("/proc/self/exe");
		}
	}
	r.path = op == OP_FORK ? "fork" : argv[optind];
	r.argv = argv + optind;
	return measure(&r);
}

/* ---- policies ------------------------------------------------------------ */

struct policy_opts {
	long entries, uid;
	uint32_t flags;
	const char *path, *output;
};

/* FLAGS of -f: a number, or tpe.conf's keys (tests/lib/policy.c). */
static uint32_t parse_flags(const char *s)
{
	uint32_t flags;

	if (*s >= '0' && *s <= '9')
		return (uint32_t)number(s);
	if (policy_parse_flags(s, &flags))
		usage();
	return flags;
}

/* The i-th of n ascending trusted uids around uid (see the top comment). */
static uint32_t nth_uid(long i, long n, long uid)
{
	long below = (n - 1) / 2;

	if (i == below)
		return (uint32_t)uid;
	return (uint32_t)(uid + 2 * (i - below));
}

static void parse_policy_opts(int argc, char **argv, struct policy_opts *o)
{
	int ch;

	*o = (struct policy_opts){ .entries = -1, .uid = 2000000,
				   .flags = TPE_POLICY_ENFORCE,
				   .path = NULL };
	while ((ch = getopt(argc, argv, "N:f:t:p:o:")) != -1) {
		switch (ch) {
		case 'N': o->entries = number(optarg); break;
		case 'f': o->flags = parse_flags(optarg); break;
		case 't': o->uid = number(optarg); break;
		case 'p': o->path = optarg; break;
		case 'o': o->output = optarg; break;
		default: usage();
		}
	}
	if (!o->path) {
		/* TPE_SECURITYFS=DIR means DIR/policy, as for tpe-load. */
		static char path[4096];
		const char *dir = getenv("TPE_SECURITYFS");

		snprintf(path, sizeof(path), "%s/policy",
			 dir && *dir ? dir : DEFAULT_SECURITYFS);
		o->path = path;
	}
	if (optind != argc || o->entries < 1 ||
	    o->entries > (long)TPE_POLICY_MAX_ENTRIES ||
	    o->uid < 2 * (o->entries / 2 + 1) || o->uid > 2000000000)
		usage();
}

/* The policy of the top comment, in tests/lib's encoder. */
static unsigned char *build_blob(const struct policy_opts *o, size_t *len)
{
	uint32_t *uids = malloc(sizeof(*uids) * (size_t)o->entries);
	struct policy p = { .flags = o->flags, .nr_uids = (uint32_t)o->entries,
			    .uids = uids };
	unsigned char *b;
	long i;

	if (!uids)
		die("malloc");
	for (i = 0; i < o->entries; i++)
		uids[i] = nth_uid(i, o->entries, o->uid);
	b = policy_blob(&p, len);
	free(uids);
	return b;
}

static int cmd_policy(int argc, char **argv)
{
	struct policy_opts o;
	uint64_t t0, write_ns, read_ns;
	unsigned char *blob, *back;
	size_t len;
	ssize_t got;
	int fd, err, same;

	parse_policy_opts(argc, argv, &o);
	blob = build_blob(&o, &len);
	if (o.output)
		o.path = o.output;
	fd = open(o.path, O_WRONLY | O_CLOEXEC | (o.output ? O_CREAT |
							 O_TRUNC : 0), 0644);
	if (fd < 0)
		die(o.path);
	t0 = now_ns();
	err = policy_write_fd(fd, blob, len);
	write_ns = now_ns() - t0;
	if (err) {
		errno = err;	/* EIO: a short write */
		die("policy write");
	}
	if (close(fd))
		die("policy close");

	/* Read back: the whole file, as tpe-load --dump would. */
	back = malloc(len + 1);
	if (!back)
		die("malloc");
	t0 = now_ns();
	fd = open(o.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(o.path);
	got = policy_read_fd(fd, back, len + 1);
	if (got < 0 && got != -EFBIG) {
		errno = (int)-got;
		die("policy read");
	}
	close(fd);
	read_ns = now_ns() - t0;
	same = got == (ssize_t)len && !memcmp(blob, back, len);
	printf("op=policy entries=%ld flags=0x%x bytes=%zu write_ns=%llu "
	       "read_ns=%llu readback=%s\n", o.entries, o.flags, len,
	       (unsigned long long)write_ns, (unsigned long long)read_ns,
	       same ? "same" : "DIFFERENT");
	free(back);
	free(blob);
	return same ? OK : MISBEHAVED;
}

static int cmd_conf(int argc, char **argv)
{
	struct policy_opts o;
	FILE *f;
	long i;

	parse_policy_opts(argc, argv, &o);
	if (!o.output)
		usage();
	f = fopen(o.output, "w");
	if (!f)
		die(o.output);
	fprintf(f, "# %ld trusted users, written by tpe-bench\n", o.entries);
	for (i = 0; i < (long)nflag_keys; i++)
		fprintf(f, "%s = %s;\n", flag_keys[i].key,
			o.flags & flag_keys[i].flag ? "true" : "false");
	fputs("trusted_users = [", f);
	for (i = 0; i < o.entries; i++)
		fprintf(f, "%s%u", i ? (i % 16 ? ", " : ",\n\t") : "\n\t",
			nth_uid(i, o.entries, o.uid));
	fputs("\n];\n", f);
	if (fclose(f))
		die(o.output);
	return OK;
}

/* ---- counting tpe's checks ------------------------------------------------ */

/* The would_deny counter of tpe/stats. */
static long long read_would_deny(const char *stats)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen(stats, "re");

	if (!f)
		die(stats);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "would_deny %lld", &v) == 1)
			break;
	fclose(f);
	if (v < 0) {
		fprintf(stderr, "%s: %s: no would_deny line\n", prog, stats);
		exit(SYSERR);
	}
	return v;
}

/* One run of argv[0] in root as uid; dies unless it exits 0. */
static void run_chrooted(const char *root, long uid, char *const *argv)
{
	char *const envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (chroot(root) || chdir("/"))
			die(root);
		drop_to(uid, uid);
		execve(argv[0], argv, envp);
		die(argv[0]);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: %s in %s as uid %ld: %s %d\n", prog,
			argv[0], root, uid, WIFEXITED(status) ? "exit" :
			"signal", WIFEXITED(status) ? WEXITSTATUS(status) :
			WTERMSIG(status));
		exit(MISBEHAVED);
	}
}

static int cmd_count(int argc, char **argv)
{
	static char stats[4096];
	const char *root = NULL, *dir = getenv("TPE_SECURITYFS");
	long runs = 10, uid = -1, i;
	long long before, after;
	int ch;

	snprintf(stats, sizeof(stats), "%s/stats",
		 dir && *dir ? dir : DEFAULT_SECURITYFS);
	while ((ch = getopt(argc, argv, "+n:u:r:p:")) != -1) {
		switch (ch) {
		case 'n': runs = number(optarg); break;
		case 'u': uid = number(optarg); break;
		case 'r': root = optarg; break;
		case 'p': snprintf(stats, sizeof(stats), "%s", optarg); break;
		default: usage();
		}
	}
	if (optind >= argc || !root || uid < 1 || runs < 1)
		usage();
	before = read_would_deny(stats);
	for (i = 0; i < runs; i++)
		run_chrooted(root, uid, argv + optind);
	after = read_would_deny(stats);
	printf("op=count runs=%ld would_deny=%lld checks_per_exec=", runs,
	       after - before);
	if ((after - before) % runs)
		printf("%.2f\n", (double)(after - before) / (double)runs);
	else
		printf("%lld\n", (after - before) / runs);
	return OK;
}

/* ---- timing a command, summaries ------------------------------------------ */

static int cmd_time(int argc, char **argv)
{
	long reps = 1, i;
	uint32_t *s;
	int ch, status, rc = OK;

	while ((ch = getopt(argc, argv, "+n:")) != -1) {
		if (ch != 'n')
			usage();
		reps = number(optarg);
	}
	if (optind >= argc || reps < 1)
		usage();
	s = private_alloc(((size_t)reps * 4 + 4095) & ~(size_t)4095);
	for (i = 0; i < reps; i++) {
		uint64_t t0 = now_ns(), d;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			dup2(2, 1);	/* our stdout is for the result line */
			execvp(argv[optind], argv + optind);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		d = now_ns() - t0;
		s[i] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = MISBEHAVED;
	}
	printf("exit=%s ", rc ? "FAILED" : "0");
	print_stats(s, (size_t)reps);
	putchar('\n');
	return rc;
}

static int cmd_summarize(int argc, char **argv)
{
	uint32_t *s = NULL;
	size_t n = 0;
	int i;

	if (argc < 2)
		usage();
	for (i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		struct stat st;
		uint32_t *more;

		if (fd < 0 || fstat(fd, &st))
			die(argv[i]);
		more = realloc(s, (n * 4 + (size_t)st.st_size) + 4);
		if (!more)
			die("realloc");
		s = more;
		if (read(fd, s + n, (size_t)st.st_size) != st.st_size)
			die(argv[i]);
		n += (size_t)st.st_size / 4;
		close(fd);
	}
	print_stats(s, n);
	putchar('\n');
	free(s);
	return OK;
}

int main(int argc, char **argv)
{
	const char *cmd;

	main_argv = argv;
	if (argc < 2)
		usage();
	cmd = argv[1];
	argc--;
	argv++;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "exec"))
		return cmd_measure(OP_EXEC, argc, argv);
	if (!strcmp(cmd, "mmap"))
		return cmd_measure(OP_MMAP, argc, argv);
	if (!strcmp(cmd, "open-mmap"))
		return cmd_measure(OP_OPEN_MMAP, argc, argv);
	if (!strcmp(cmd, "fork"))
		return cmd_measure(OP_FORK, argc, argv);
	if (!strcmp(cmd, "policy"))
		return cmd_policy(argc, argv);
	if (!strcmp(cmd, "conf"))
		return cmd_conf(argc, argv);
	if (!strcmp(cmd, "count"))
		return cmd_count(argc, argv);
	if (!strcmp(cmd, "time"))
		return cmd_time(argc, argv);
	if (!strcmp(cmd, "summarize"))
		return cmd_summarize(argc, argv);
	usage();
	return USAGE;
}
