// SPDX-License-Identifier: GPL-2.0
/*
 * bypass: try every known way around TPE as an untrusted user, and check
 * each one is denied with EACCES when the flag that covers it is on, and
 * allowed from a trusted directory, for a trusted user, and when the flag
 * is off. Run as root in the test guest; it rewrites tpe/policy.
 *
 * The kernel rule itself (which policy gives which caller which verdict
 * for an execve, execveat, memfd, mmap or mprotect of which file, by
 * whatever path) is the matrix of tests/selftests/tpe, in the fast tier;
 * here is what needs the full image: ld.so, LD_PRELOAD of a shared
 * library, interpreters, trust changed under a running process, user
 * namespaces, concurrent policy writers, LOCK.
 *
 *   bypass [--lock]
 *
 * --lock runs only the LOCK checks; LOCK cannot be undone, so it runs last.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define BASE "/run/tpe-hardening"
#define T BASE "/trusted"	/* root 0755 */
#define U BASE "/untrusted"	/* alice 0755 */

/* ---- the steps a child runs; each returns an exit status or execs ---- */

static int do_exec_sh_script(void *path)
{
	/* the documented limit: the interpreter is trusted, the script is data */
	char *argv[] = { "/bin/sh", path, NULL };

	execve(argv[0], argv, empty_env);
	fail_errno(errno);
}

static int do_exec_python(void *path)
{
	char *argv[] = { "python3", path, NULL };

	execvp("python3", argv);
	fail_errno(errno);
}

static int do_ldso(void *path)
{
	char *argv[] = { "/lib64/ld-linux-x86-64.so.2", path, NULL };

	execve(argv[0], argv, empty_env);
	fail_errno(errno);
}

/* Run the trusted hello with LD_PRELOAD=path: 43 if the library loaded. */
static int do_preload(void *path)
{
	char hello[PATH_MAX + 16], env[PATH_MAX + 16];
	char *argv[] = { hello, NULL }, *envp[] = { env, NULL };

	snprintf(hello, sizeof(hello), "%s/hello", T);
	snprintf(env, sizeof(env), "LD_PRELOAD=%s", (char *)path);
	execve(hello, argv, envp);
	fail_errno(errno);
}

static int do_mmap_shared_exec(void *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return 120;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		fail_errno(errno);
	return 42;
}

/* Anonymous executable memory (JITs) is not a file: never TPE's business. */
static int do_anon_exec(void *unused)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)unused;
	if (p == MAP_FAILED)
		fail_errno(errno);
	return 42;
}

/* ---- the matrix ---- */

enum cover { BY_EXEC, BY_MMAP, NEVER };

struct step {
	const char *name;
	int (*fn)(void *);
	const char *path;	/* argument */
	enum cover cover;	/* which flag must deny it when untrusted */
	int allowed;		/* exit status when it ran */
	int denied;		/* exit status when denied without an errno (ld.so, preload), or 0 */
};

/*
 * The untrusted cases. Each names a file in an untrusted place (or a way
 * to reach one) that alice must not be able to run. A plain execve, mmap
 * or mprotect of a file in an untrusted or writable dir, a #! script
 * there or a trusted one naming an untrusted interpreter, execveat on an
 * fd, fexecve of a memfd, an unlinked file run through /proc/self/fd, and
 * a symlink, hardlink or bind mount that names the file by another path
 * are rows of tests/selftests/tpe; here is what needs the image.
 */
static const struct step untrusted_steps[] = {
	{ "ld.so ./binary", do_ldso, U "/hello", BY_MMAP, 42, 127 },
	{ "LD_PRELOAD of a library in an untrusted dir", do_preload, U "/libpreload.so", BY_MMAP, 43, 42 },
	{ "mmap(PROT_EXEC, MAP_SHARED) of an untrusted file", do_mmap_shared_exec, U "/hello", BY_MMAP, 42, 0 },
	{ "sh ./script (documented limit before AT_EXECVE_CHECK, 6.14)", do_exec_sh_script, U "/script", NEVER, 42, 0 },
	{ "python3 script (documented limit before AT_EXECVE_CHECK, 6.14)", do_exec_python, U "/script.py", NEVER, 42, 0 },
	{ "anonymous PROT_EXEC memory", do_anon_exec, NULL, NEVER, 42, 0 },
};

/* The same ways in, pointed at trusted files: always allowed. */
static const struct step trusted_steps[] = {
	{ "/usr/bin/true", do_exec, "/usr/bin/true", NEVER, 0, 0 },
	{ "ld.so on a trusted binary", do_ldso, T "/hello", NEVER, 42, 0 },
	{ "LD_PRELOAD of a library in a trusted dir", do_preload, T "/libpreload.so", NEVER, 43, 0 },
};

enum verdict { RAN, DENIED, OTHER };

static enum verdict judge(const struct step *s, struct outcome o)
{
	if (o.err == EACCES)
		return DENIED;
	if (o.err)
		return OTHER;
	if (o.status == s->allowed)
		return RAN;
	if (s->denied && o.status == s->denied)
		return DENIED;
	return OTHER;
}

/* Run one step as u and check it against what should happen. */
static void try(const char *mode, const struct user *u, const struct step *s, bool deny)
{
	struct outcome o = run_as(u, s->fn, (void *)s->path);
	enum verdict v = judge(s, o);
	char why[160];

	snprintf(why, sizeof(why), "expected %s%s, got %s", deny ? "denied" : "allowed",
		 deny && !s->denied ? " (EACCES)" : "", outcome_str(o));
	check(v == (deny ? DENIED : RAN), why, "[%s] %s %s: %s", mode,
	      u ? u->name : "root", s->name, deny ? "denied" : "allowed");
}

struct mode {
	const char *name;
	uint32_t flags;
};

static void matrix(void)
{
	static const struct mode modes[] = {
		{ "ENFORCE|MMAP", TPE_POLICY_ENFORCE | TPE_POLICY_MMAP },
		{ "ENFORCE", TPE_POLICY_ENFORCE },
		{ "MMAP without ENFORCE", TPE_POLICY_MMAP },
		{ "no flags", 0 },
	};
	uint32_t trusted[] = { bob.uid };

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		const struct mode *md = &modes[m];
		bool enforce = md->flags & TPE_POLICY_ENFORCE;
		bool mmap_on = md->flags & TPE_POLICY_MMAP;

		policy_must_set(md->flags, trusted, 1, NULL, 0);
		for (size_t i = 0; i < sizeof(untrusted_steps) / sizeof(untrusted_steps[0]); i++) {
			const struct step *s = &untrusted_steps[i];
			bool deny = enforce && (s->cover == BY_EXEC ||
						(s->cover == BY_MMAP && mmap_on));

			try(md->name, &alice, s, deny);
			/* the trusted user runs the very same untrusted things */
			try(md->name, &bob, s, false);
		}
		for (size_t i = 0; i < sizeof(trusted_steps) / sizeof(trusted_steps[0]); i++) {
			try(md->name, &alice, &trusted_steps[i], false);
			try(md->name, &bob, &trusted_steps[i], false);
		}
	}
}

/* start_alice()'s child, as alice: its ends of the pipes, @dir, @child. */
struct alice_start {
	const char *dir;
	int (*child)(void *);
	int *to, *from;
};

static int alice_in_dir(void *arg)
{
	const struct alice_start *a = arg;
	int chan[2] = { a->to[0], a->from[1] };

	close(a->to[1]);
	close(a->from[0]);
	if (chdir(a->dir))
		return 119;
	return a->child(chan);
}

/*
 * Start @child as alice in @dir, talking over two pipes: it reads one
 * byte per command from p[0] and writes its results to p[1]. On return
 * to[1] sends commands and from[0] reads results; the caller closes both
 * and reaps the returned pid.
 */
static pid_t start_alice(const char *dir, int (*child)(void *),
			 int to[2], int from[2])
{
	struct alice_start a = { dir, child, to, from };
	pid_t pid;

	if (pipe(to) || pipe(from))
		die("pipe");
	pid = fork_as(&alice, -1, alice_in_dir, &a);
	close(to[0]);
	close(from[1]);
	return pid;
}

/* ---- trust that changes under a process ---- */

/* ./hello by its path (*dfd < 0), or execveat(*dfd, "hello"). */
static int flip_exec(void *arg)
{
	const int dfd = *(const int *)arg;
	char *argv[] = { "./hello", NULL };

	if (dfd < 0)
		execve("./hello", argv, empty_env);
	else
		syscall(SYS_execveat, dfd, "hello", argv, empty_env, 0);
	fail_errno(errno);
}

/*
 * alice sits in a directory (cwd and an open fd) while root chmods and
 * chowns it. Every exec after a change must see the new state: nothing
 * about trust may be cached in the process, the file or the directory.
 */
static int flip_child(void *arg)
{
	int *p = arg;	/* p[0]: commands in, p[1]: results out */
	int dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char cmd;

	if (dfd < 0)
		return 120;
	while (read(p[0], &cmd, 1) == 1) {
		struct outcome o[2];

		for (int k = 0; k < 2; k++) {
			int by = k ? dfd : -1;

			o[k] = run_as(NULL, flip_exec, &by);
		}
		if (write(p[1], o, sizeof(o)) != sizeof(o))
			return 122;
	}
	return 0;
}

static void flips(void)
{
	static const struct {
		const char *what;
		mode_t mode;
		bool to_alice;
		bool deny;
	} states[] = {
		{ "root-owned 0755 (trusted)", 0755, false, false },
		{ "chmod 0777 while inside", 0777, false, true },
		{ "chmod back to 0755", 0755, false, false },
		{ "chmod 0775 (group-writable)", 0775, false, true },
		{ "chmod back to 0755 again", 0755, false, false },
		{ "chown to alice while inside", 0755, true, true },
		{ "chown back to root", 0755, false, false },
	};
	const char *dir = BASE "/flip";
	char hello[PATH_MAX + 8];
	uint32_t trusted[] = { bob.uid };
	int cmd[2], res[2];
	pid_t pid;

	helper_path("hello", hello, sizeof(hello));
	make_dir(dir, 0755, 0, 0);
	copy_file(hello, BASE "/flip/hello", 0755, 0, 0);
	policy_must_set(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, trusted, 1, NULL, 0);
	pid = start_alice(dir, flip_child, cmd, res);
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		struct outcome o[2];
		char why[160];

		if (chown(dir, states[i].to_alice ? alice.uid : 0,
			  states[i].to_alice ? alice.gid : 0) ||
		    chmod(dir, states[i].mode))
			die("chown/chmod %s", dir);
		if (write(cmd[1], "x", 1) != 1 || read(res[0], o, sizeof(o)) != sizeof(o))
			die("talking to the child in %s", dir);
		for (int k = 0; k < 2; k++) {
			bool ok = states[i].deny ? o[k].err == EACCES
						 : !o[k].err && o[k].status == 42;

			snprintf(why, sizeof(why), "got %s", outcome_str(o[k]));
			check(ok, why, "dir changed under a process: %s: %s %s",
			      states[i].what, k ? "execveat(dirfd)" : "exec ./hello",
			      states[i].deny ? "denied" : "allowed");
		}
	}
	close(cmd[1]);
	wait_status(pid);
	close(res[0]);
}

/*
 * alice keeps one process, and so one credential, while root swaps the
 * policy under it. TPE keeps its verdict on a credential for as long as
 * the policy it was made under is live: each check below, the first after
 * a swap included, must follow the policy now live.
 */
static int cred_flip_child(void *arg)
{
	int *p = arg;	/* p[0]: commands in, p[1]: results out */
	char cmd;

	while (read(p[0], &cmd, 1) == 1) {
		int fd = open(BASE "/credflip/hello", O_RDONLY | O_CLOEXEC);
		int err[3] = { 0, 0, 0 };
		void *m;

		if (fd < 0)
			return 120;
		for (int k = 0; k < 2; k++) {
			m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
			if (m == MAP_FAILED)
				err[k] = errno;
			else
				munmap(m, 4096);
		}
		m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			return 121;
		if (mprotect(m, 4096, PROT_READ | PROT_EXEC))
			err[2] = errno;
		munmap(m, 4096);
		close(fd);
		if (write(p[1], err, sizeof(err)) != sizeof(err))
			return 122;
	}
	return 0;
}

static void cred_flips(void)
{
	static const char *const op[3] = {
		"first mmap", "second mmap", "mprotect"
	};
	const uint32_t a[] = { alice.uid }, b[] = { bob.uid }, ag[] = { alice.gid };
	const struct {
		const char *what;
		struct policy p;
		bool deny;
	} states[] = {
		{ "bob listed", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 1, 0, b, NULL }, true },
		{ "alice listed", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 1, 0, a, NULL }, false },
		{ "bob listed again", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 1, 0, b, NULL }, true },
		{ "alice's group listed", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 0, 1, NULL, ag }, false },
		{ "INVERT, alice listed", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_INVERT, 1, 0, a, NULL }, true },
		{ "INVERT, bob listed", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_INVERT, 1, 0, b, NULL }, false },
		{ "INVERT, alice listed again", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_INVERT, 1, 0, a, NULL }, true },
		{ "the same policy written twice", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_INVERT, 1, 0, a, NULL }, true },
		{ "alice listed at the end", { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, 1, 0, a, NULL }, false },
	};
	char hello[PATH_MAX + 8];
	int cmd[2], res[2];
	pid_t pid;

	helper_path("hello", hello, sizeof(hello));
	make_dir(BASE "/credflip", 0755, alice.uid, alice.gid);
	copy_file(hello, BASE "/credflip/hello", 0755, alice.uid, alice.gid);
	pid = start_alice(BASE "/credflip", cred_flip_child, cmd, res);
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		int err[3];

		if (policy_set(&states[i].p))
			die("policy for %s", states[i].what);
		if (write(cmd[1], "x", 1) != 1 || read(res[0], err, sizeof(err)) != sizeof(err))
			die("talking to alice's process");
		for (int k = 0; k < 3; k++) {
			char why[64];

			snprintf(why, sizeof(why), "errno %d", err[k]);
			check(states[i].deny ? err[k] == EACCES : !err[k], why,
			      "trust changed under a process: %s: %s %s",
			      states[i].what, op[k],
			      states[i].deny ? "denied" : "allowed");
		}
	}
	close(cmd[1]);
	wait_status(pid);
	close(res[0]);
}

/* ---- user namespaces ---- */

/*
 * alice becomes root of her own user namespace, mounts a tmpfs there and
 * runs a binary from a directory that root of that namespace owns. That
 * root is alice to the rest of the system: the directory is not trusted.
 */
struct userns_arg {
	const char *what;	/* "exec", "exec-trusted" */
};

static int do_userns(void *arg)
{
	struct userns_arg *a = arg;
	const char *mnt = BASE "/userns-mnt";
	char *argv[] = { "hello", NULL };
	int err = enter_userns();

	if (err) {
		fprintf(stderr, "user namespace: %s\n", strerror(err));
		return 110;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 111;
	if (mount("userns-tmpfs", mnt, "tmpfs", 0, "mode=0755"))
		return 112;
	if (mkdir(BASE "/userns-mnt/bin", 0755))
		return 113;
	copy_file(T "/hello", BASE "/userns-mnt/bin/hello", 0755, 0, 0);
	if (!strcmp(a->what, "exec-trusted"))
		execve(T "/hello", argv, empty_env);
	else
		execve(BASE "/userns-mnt/bin/hello", argv, empty_env);
	fail_errno(errno);
}

static int do_userns_root_copy(void *arg)
{
	/* a file at the top of the tmpfs: its parent is the mount's root */
	struct userns_arg *a = arg;
	char *argv[] = { "hello", NULL };
	int err = enter_userns();

	(void)a;
	if (err)
		return 110;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 111;
	if (mount("userns-tmpfs", BASE "/userns-mnt", "tmpfs", 0, "mode=0755"))
		return 112;
	copy_file(T "/hello", BASE "/userns-mnt/hello", 0755, 0, 0);
	execve(BASE "/userns-mnt/hello", argv, empty_env);
	fail_errno(errno);
}

static void userns(void)
{
	uint32_t trusted[] = { bob.uid };
	struct userns_arg a = { "exec" };
	struct outcome o;
	char why[160];

	make_dir(BASE "/userns-mnt", 0755, 0, 0);
	policy_must_set(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP, trusted, 1, NULL, 0);

	o = run_as(&alice, do_userns, &a);
	snprintf(why, sizeof(why), "got %s%s", outcome_str(o),
		 o.status >= 110 && o.status <= 113 ? " (user namespace or tmpfs mount failed)" : "");
	check(o.err == EACCES, why,
	      "user namespace root: dir owned by userns root on its own tmpfs is not trusted: denied");
	o = run_as(&alice, do_userns_root_copy, &a);
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(o.err == EACCES, why,
	      "user namespace root: file at the root of its own tmpfs mount is not trusted: denied");
	a.what = "exec-trusted";
	o = run_as(&alice, do_userns, &a);
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 42, why,
	      "user namespace root: a trusted binary still runs inside the namespace: allowed");
}

/* ---- writing the policy ---- */

/*
 * tpe/policy is 0644 root: anyone may read it (the lists are no secret),
 * anyone else is refused at open() for writing by the file's mode
 * (EACCES). Who gets hold of an fd that root opened is refused at write()
 * by the capability check of the writer (EPERM).
 */
struct write_arg {
	int fd;			/* an fd root opened, or -1: open it here */
	bool userns;		/* first become root of a new user namespace */
	const void *blob;
	size_t len;
};

static int do_policy_write(void *arg)
{
	struct write_arg *a = arg;
	ssize_t n;

	if (a->userns && enter_userns())
		return 110;
	if (a->fd < 0) {
		int err = policy_write_raw(a->blob, a->len);

		if (err)
			fail_errno(err);
		return 42;
	}
	n = write(a->fd, a->blob, a->len);
	if (n < 0)
		fail_errno(errno);
	return 42;
}

static bool policy_is(const void *blob, size_t len)
{
	static unsigned char buf[1 << 16];
	ssize_t n = policy_read(buf, sizeof(buf));

	return n == (ssize_t)len && !memcmp(buf, blob, len);
}

/* A reader: 42 if it reads exactly the blob in @arg, 43 if other bytes. */
static int do_policy_read(void *arg)
{
	struct write_arg *a = arg;
	static unsigned char buf[1 << 16];
	ssize_t n = policy_read(buf, sizeof(buf));

	if (n < 0)
		fail_errno(-n);
	return n == (ssize_t)a->len && !memcmp(buf, a->blob, a->len) ? 42 : 43;
}

static void reader_reads(const void *blob, size_t len)
{
	struct write_arg r = { -1, false, blob, len };
	struct outcome o = run_as(&alice, do_policy_read, &r);

	check(!o.err && o.status == 42, outcome_str(o),
	      "readers: a non-root user reads the live policy, byte-identical");
}

static void writers(void)
{
	uint32_t trusted[] = { bob.uid }, other[] = { alice.uid, bob.uid };
	struct policy live = { TPE_POLICY_ENFORCE, 1, 0, trusted, NULL };
	struct policy attempt = { 0, 2, 0, other, NULL };
	size_t live_len, len;
	unsigned char *live_blob = policy_blob(&live, &live_len);
	unsigned char *blob = policy_blob(&attempt, &len);
	static const struct {
		const char *who;
		bool userns, inherit;
		int err;
	} cases[] = {
		{ "non-root user opening tpe/policy", false, false, EACCES },
		{ "non-root user writing through an fd root opened", false, true, EPERM },
		{ "user-namespace root opening tpe/policy", true, false, EACCES },
		{ "user-namespace root writing through an fd root opened", true, true, EPERM },
	};

	if (policy_write_raw(live_blob, live_len))
		die("writing policy");
	check(policy_is(live_blob, live_len), "read back differs",
	      "writers: root write, then read back is byte-identical");
	reader_reads(live_blob, live_len);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct write_arg a = { -1, cases[i].userns, blob, len };
		struct outcome o;
		char why[160];

		if (cases[i].inherit) {
			a.fd = open(POLICY_PATH, O_WRONLY);	/* inherited by the child */
			if (a.fd < 0)
				die("open %s", POLICY_PATH);
		}
		o = run_as(&alice, do_policy_write, &a);
		if (a.fd >= 0)
			close(a.fd);
		snprintf(why, sizeof(why), "got %s%s", outcome_str(o),
			 o.status == 110 ? " (no user namespace)" : "");
		check(o.err == cases[i].err, why, "writers: %s: %s", cases[i].who,
		      errno_name(cases[i].err));
		check(policy_is(live_blob, live_len), "the live policy changed",
		      "writers: %s: policy unchanged", cases[i].who);
	}
	free(live_blob);
	free(blob);
}

/* ---- LOCK: its own run, last, since only a reboot undoes it ---- */

static int pwrite_raw(const void *buf, size_t len, off_t off)
{
	int fd = open(POLICY_PATH, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (pwrite(fd, buf, len, off) < 0)
		err = errno;
	close(fd);
	return err;
}

static void lock_checks(void)
{
	static const struct step locked_untrusted = {
		"direct execve of a binary in an untrusted dir", do_exec,
		U "/hello", BY_EXEC, 42, 0
	};
	static const struct step locked_trusted = {
		"direct execve of a binary in a trusted dir", do_exec,
		T "/hello", NEVER, 42, 0
	};
	uint32_t trusted[] = { bob.uid }, other[] = { alice.uid, bob.uid };
	struct policy locked = { TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | TPE_POLICY_LOCK,
				 1, 0, trusted, NULL };
	struct policy open_p = { TPE_POLICY_ENFORCE, 2, 0, other, NULL };
	struct policy perm = { 0, 0, 0, NULL, NULL };
	size_t llen, olen, plen;
	unsigned char *lblob = policy_blob(&locked, &llen);
	unsigned char *oblob = policy_blob(&open_p, &olen);
	unsigned char *pblob = policy_blob(&perm, &plen);
	unsigned char bad[64], huge[24];
	struct tpe_policy_hdr *h;
	int err;

	err = policy_write_raw(lblob, llen);
	check(!err, errno_name(err), "lock: root writes a policy with LOCK");
	check(policy_is(lblob, llen), "read back differs", "lock: read back is the locked policy");

	memcpy(bad, oblob, olen);
	bad[0] ^= 1;	/* bad magic */
	memcpy(huge, pblob, sizeof(huge));
	h = (struct tpe_policy_hdr *)huge;
	h->nr_uids = 0xffffffffu;	/* E2BIG before LOCK */

	struct {
		const char *what;
		const void *buf;
		size_t len;
		off_t off;
	} tries[] = {
		{ "the same locked policy again", lblob, llen, 0 },
		{ "a valid policy without LOCK", oblob, olen, 0 },
		{ "a permissive empty policy", pblob, plen, 0 },
		{ "a blob with a bad magic", bad, olen, 0 },
		{ "a header claiming 2^32-1 uids", huge, sizeof(huge), 0 },
		{ "a 10-byte write", oblob, 10, 0 },
		{ "an empty write", oblob, 0, 0 },
		{ "a valid policy written at offset 24", oblob, olen, 24 },
	};
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char why[64];

		err = pwrite_raw(tries[i].buf, tries[i].len, tries[i].off);
		snprintf(why, sizeof(why), "got %s", errno_name(err));
		check(err == EPERM, why, "lock: root writes %s: EPERM", tries[i].what);
		check(policy_is(lblob, llen), "the live policy changed",
		      "lock: policy unchanged after %s", tries[i].what);
	}

	/* The locked policy is still the one enforced. */
	try("locked", &alice, &locked_untrusted, true);
	try("locked", &alice, &locked_trusted, false);
	try("locked", &bob, &locked_untrusted, false);
	free(lblob);
	free(oblob);
	free(pblob);
}

/* ---- the set-up of the directories ---- */

static void setup(void)
{
	char hello[PATH_MAX + 8], pre[PATH_MAX + 24];

	helper_path("hello", hello, sizeof(hello));
	helper_path("libpreload.so", pre, sizeof(pre));

	fresh_tmpfs(BASE, "tpe-hardening");

	make_dir(T, 0755, 0, 0);
	make_dir(U, 0755, alice.uid, alice.gid);
	copy_file(hello, T "/hello", 0755, 0, 0);
	copy_file(pre, T "/libpreload.so", 0755, 0, 0);
	copy_file(hello, U "/hello", 0755, alice.uid, alice.gid);
	copy_file(pre, U "/libpreload.so", 0755, alice.uid, alice.gid);
	write_file(U "/script", "#!/bin/sh\nexit 42\n", 0755, alice.uid, alice.gid);
	write_file(U "/script.py", "import sys\nsys.exit(42)\n", 0755, alice.uid, alice.gid);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "bypass";
	users_init();
	setup();
	if (argc > 1 && !strcmp(argv[1], "--lock")) {
		lock_checks();
	} else {
		matrix();
		flips();
		cred_flips();
		userns();
		writers();
	}
	note("%d passed, %d failed", nr_ok, nr_fail);
	return nr_fail ? 1 : 0;
}
