// SPDX-License-Identifier: GPL-2.0
/*
 * holes: the trust holes, one numbered case each. Every input to a verdict
 * that a user could choose (an owner, a mount, an identity, a mapping, a
 * log line) is tried as alice (untrusted) and checked denied, next to the
 * controls that must keep working. Run as root in the test guest; it
 * rewrites tpe/policy.
 *
 *   1 idmapped mounts        5 shared anonymous memory and the memory table
 *   2 user-mounted file systems (FUSE via fusermount3, setuid mounters)
 *   3 user namespaces (INVERT, subordinate IDs, setns, dropped groups)
 *   4 set-user-ID exec       6 forged log lines      7 a full audit backlog
 *   8 the boot policy and world-writable files
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define BASE "/run/tpe-holes"
#define T BASE "/trusted"	/* root 0755 */
#define U BASE "/untrusted"	/* alice 0755 */
#define EVIL_GID 1600		/* a supplementary group alice has in case 3 */

static char hello[PATH_MAX + 8];
static const uint32_t E = TPE_POLICY_ENFORCE, M = TPE_POLICY_MMAP;

/* "NAME: denied (EACCES)" / "allowed (exit 42)" for an outcome. */
static void expect(struct outcome o, bool deny, const char *fmt, const char *name)
{
	bool ok = deny ? o.err == EACCES : !o.err && o.status == 42;
	char why[96];

	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(ok, why, fmt, name, deny ? "denied" : "allowed");
}

static void exec_as(const char *name, const struct user *u, const char *path, bool deny)
{
	expect(run_as(u, do_exec, (void *)path), deny, "%s: %s", name);
}

/* ---- 1: idmapped mounts ---- */

/*
 * A user namespace with these maps, held by a child that waits on a pipe,
 * as an fd: what mount_setattr(MOUNT_ATTR_IDMAP) takes.
 */
static int userns_fd(const char *map)
{
	char path[64];
	int go[2], ready[2], fd;
	pid_t pid;
	char c;

	if (pipe(go) || pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(go[1]);
		if (unshare(CLONE_NEWUSER))
			_exit(1);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		die("userns child");
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	if (write_text(path, map))
		die("write %s", path);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	if (write_text(path, map))
		die("write %s", path);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s", path);
	close(go[1]);
	waitpid(pid, NULL, 0);
	close(go[0]);
	close(ready[0]);
	close(ready[1]);
	return fd;
}

static void idmapped_mount(const char *src, const char *dst, const char *map)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	int fd = open_tree(AT_FDCWD, src, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (fd < 0)
		die("open_tree %s", src);
	attr.userns_fd = userns_fd(map);
	if (mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)))
		die("mount_setattr(MOUNT_ATTR_IDMAP) on %s", src);
	make_dir(dst, 0755, 0, 0);
	if (move_mount(fd, "", AT_FDCWD, dst, MOVE_MOUNT_F_EMPTY_PATH))
		die("move_mount to %s", dst);
	close(attr.userns_fd);
	close(fd);
}

/* alice writes her own copy of hello into a directory. */
static int do_alice_copy(void *dst)
{
	copy_file(hello, dst, 0755, getuid(), getgid());
	return 0;
}

static void hole_idmapped(void)
{
	uint32_t trusted[] = { bob.uid };
	char map[64];
	struct stat st;
	struct outcome o;

	make_dir(BASE "/idm-src", 0755, 0, 0);
	make_dir(BASE "/idm-alice-src", 0755, alice.uid, alice.gid);
	copy_file(hello, BASE "/idm-alice-src/hello", 0755, alice.uid, alice.gid);

	/* Root's 0755 directory, and root itself, are alice through the mount. */
	snprintf(map, sizeof(map), "0 %u 1", alice.uid);
	idmapped_mount(BASE "/idm-src", BASE "/idm", map);
	policy_must_set(E | M, trusted, 1, NULL, 0);
	o = run_as(&alice, do_alice_copy, BASE "/idm/evil");
	check(!o.status && !stat(BASE "/idm-src/evil", &st) && st.st_uid == 0,
	      "alice could not write, or the file is not stored as root's",
	      "hole 1: idmapped 0->alice: alice writes a file stored with raw uid 0");
	exec_as("hole 1: idmapped 0->alice: alice's exec through the mount", &alice,
		BASE "/idm/evil", true);
	policy_must_set(E | M | TPE_POLICY_CHECK_FILE, trusted, 1, NULL, 0);
	exec_as("hole 1: idmapped 0->alice, CHECK_FILE: alice's exec through the mount",
		&alice, BASE "/idm/evil", true);
	exec_as("hole 1: idmapped 0->alice: bob (trusted) runs it", &bob, BASE "/idm/evil", false);

	/* A mapping may take trust away, never grant it: alice's dir as root's. */
	snprintf(map, sizeof(map), "%u 0 1", alice.uid);
	idmapped_mount(BASE "/idm-alice-src", BASE "/idm-alice", map);
	check(!stat(BASE "/idm-alice", &st) && st.st_uid == 0, "the mount does not show root",
	      "hole 1: idmapped alice->0: alice's directory shows as root's");
	policy_must_set(E | M, trusted, 1, NULL, 0);
	exec_as("hole 1: idmapped alice->0: alice's exec of her file shown as root's", &alice,
		BASE "/idm-alice/hello", true);

	/* Control: a mapping that keeps root keeps root's trust. */
	snprintf(map, sizeof(map), "0 0 1");
	copy_file(hello, BASE "/idm-src/hello", 0755, 0, 0);
	idmapped_mount(BASE "/idm-src", BASE "/idm-keep", map);
	exec_as("hole 1: idmapped 0->0: alice runs root's file (control)", &alice,
		BASE "/idm-keep/hello", false);
}

/* ---- 2: file systems whose owners a user controls ---- */

static char fuse_root[PATH_MAX + 16];

/* Start fuse-root as the caller, wait for its file, run it, unmount. */
static int do_fuse(void *mnt)
{
	char path[PATH_MAX + 8], *argv[] = { path, NULL };
	struct stat st, want;
	pid_t daemon, pid;
	int st_exit, i, ep[2], err = 0;

	if (stat(hello, &want))
		return 120;
	daemon = fork();
	if (daemon == 0) {
		execl(fuse_root, fuse_root, hello, (char *)mnt,
		      getuid() ? NULL : "allow_other", (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/hello", (char *)mnt);
	for (i = 0; i < 100; i++) {
		if (!stat(path, &st) && st.st_size == want.st_size)
			break;
		usleep(100000);
	}
	if (i == 100)
		return 121;
	if (getuid() == 0) {
		/* root mounted it for everyone: alice tries, from here */
		struct outcome o = run_as(&alice, do_exec, path);

		err = o.err;
		if (!err && o.status != 42)
			err = -o.status;
	} else {
		if (pipe2(ep, O_CLOEXEC))
			return 122;
		pid = fork();
		if (pid == 0) {
			execve(path, argv, empty_env);
			err = errno;
			if (write(ep[1], &err, sizeof(err)) < 0)
				_exit(124);
			_exit(126);
		}
		close(ep[1]);
		if (read(ep[0], &err, sizeof(err)) != sizeof(err))
			err = 0;
		waitpid(pid, &st_exit, 0);
		if (!err && (!WIFEXITED(st_exit) || WEXITSTATUS(st_exit) != 42))
			err = -1;
	}
	kill(daemon, SIGTERM);
	waitpid(daemon, NULL, 0);
	if (err > 0)
		fail_errno(err);
	return err ? 123 : 42;
}

/* What a setuid-root mount helper does: real UID alice, effective root. */
static int do_suid_mount(void *dir)
{
	if (setresuid(alice.uid, 0, 0))
		return 120;
	if (mount("suid-tmpfs", dir, "tmpfs", 0, "mode=0755"))
		return 121;
	return 0;
}

static void hole_untrusted_fs(void)
{
	uint32_t trusted[] = { bob.uid };
	struct outcome o;
	char why[96];

	helper_path("fuse-root", fuse_root, sizeof(fuse_root));
	policy_must_set(E | M, trusted, 1, NULL, 0);

	make_dir(BASE "/fuse-alice", 0755, alice.uid, alice.gid);
	o = run_as(&alice, do_fuse, BASE "/fuse-alice");
	snprintf(why, sizeof(why), "got %s%s", outcome_str(o),
		 o.status == 121 ? " (the FUSE mount never showed its file)" : "");
	check(o.err == EACCES, why,
	      "hole 2: FUSE mounted by alice through fusermount3, claiming root 0755: alice's exec denied");

	make_dir(BASE "/fuse-root", 0755, 0, 0);
	o = run_as(NULL, do_fuse, BASE "/fuse-root");
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 42, why,
	      "hole 2: FUSE mounted by root (allow_other): alice's exec allowed (control)");

	make_dir(BASE "/suid-mnt", 0755, 0, 0);
	o = run_as(NULL, do_suid_mount, BASE "/suid-mnt");
	if (o.status)
		die("tmpfs mount with real uid alice: status %d", o.status);
	copy_file(hello, BASE "/suid-mnt/hello", 0755, 0, 0);
	exec_as("hole 2: tmpfs mounted with real uid alice, effective root (setuid mounter): alice's exec",
		&alice, BASE "/suid-mnt/hello", true);
	exec_as("hole 2: the same mount: bob (trusted) runs it", &bob, BASE "/suid-mnt/hello", false);
	umount2(BASE "/suid-mnt", MNT_DETACH);
}

/* ---- 3: user namespaces ---- */

/*
 * The child, as u (with extra groups), unshares a user namespace; root
 * writes its maps as newuidmap/newgidmap would from /etc/subuid; the child
 * then switches to namespace IDs 1:1 (global 100000 unless map says else),
 * optionally drops its supplementary groups, and runs path.
 */
struct ns_case {
	const struct user *u;
	const char *map;	/* uid_map and gid_map, "%u" = u's own ID */
	bool with_evil_group;	/* alice also in EVIL_GID */
	bool drop_groups;	/* setgroups(0) inside */
	bool via_setns;		/* a second process joins the namespace */
	const char *path;
	bool stay_ns_root;	/* become namespace root, not namespace ID 1 */
};

static int ns_child_run(const struct ns_case *c)
{
	char *argv[] = { (char *)c->path, NULL };
	id_t id = c->stay_ns_root ? 0 : 1;

	if (c->drop_groups && setgroups(0, NULL))
		return 112;
	if (setresgid(id, id, id) || setresuid(id, id, id))
		return 113;
	execve(c->path, argv, empty_env);
	fail_errno(errno);
}

static void ns_become(const struct ns_case *c)
{
	gid_t groups[] = { c->u->gid, EVIL_GID };

	if (setgroups(c->with_evil_group ? 2 : 1, groups) ||
	    setresgid(c->u->gid, c->u->gid, c->u->gid) ||
	    setresuid(c->u->uid, c->u->uid, c->u->uid) ||
	    prctl(PR_SET_DUMPABLE, 1))
		_exit(110);
}

static int do_ns_case(void *arg)
{
	const struct ns_case *c = arg;
	int go[2], ready[2], nsfd;
	char path[64], map[128], ch;
	pid_t holder;

	if (pipe(go) || pipe(ready))
		return 100;
	holder = fork();
	if (holder == 0) {
		close(go[1]);
		ns_become(c);
		if (unshare(CLONE_NEWUSER))
			_exit(111);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &ch, 1) != 1)
			_exit(111);
		if (c->via_setns)	/* keep the namespace alive for the joiner */
			_exit(read(go[0], &ch, 1) < 0);
		_exit(ns_child_run(c));
	}
	if (read(ready[0], &ch, 1) != 1)
		return 101;
	snprintf(map, sizeof(map), c->map, c->u->uid);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", holder);
	if (write_text(path, map))
		return 102;
	snprintf(path, sizeof(path), "/proc/%d/setgroups", holder);
	if (write_text(path, "allow"))
		return 102;
	snprintf(map, sizeof(map), c->map, c->u->gid);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", holder);
	if (write_text(path, map))
		return 102;
	if (write(go[1], "g", 1) != 1)
		return 103;
	if (c->via_setns) {
		pid_t joiner;
		int st;

		snprintf(path, sizeof(path), "/proc/%d/ns/user", holder);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0)
			return 104;
		joiner = fork();
		if (joiner == 0) {
			ns_become(c);
			if (setns(nsfd, CLONE_NEWUSER))
				_exit(114);
			_exit(ns_child_run(c));
		}
		waitpid(joiner, &st, 0);
		close(go[1]);
		waitpid(holder, NULL, 0);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	close(go[1]);
	for (;;) {
		int st;

		if (waitpid(holder, &st, 0) == holder)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
}

/*
 * run_as's errno pipe is the grandchild's too (inherited, close-on-exec):
 * a failed execve there reports EACCES straight to the test.
 */
static void ns_try(const char *name, const struct ns_case *c, bool deny)
{
	struct outcome o = run_as(NULL, do_ns_case, (void *)c);
	char why[128];
	bool ok = deny ? o.err == EACCES : !o.err && o.status == 42;

	snprintf(why, sizeof(why), "got %s%s", outcome_str(o),
		 o.status >= 100 && o.status < 120 ? " (namespace set-up failed)" : "");
	check(ok, why, "%s: %s", name, deny ? "denied" : "allowed");
}

static void hole_userns(void)
{
	const char *subids = "0 %u 1\n1 100000 65536";
	uint32_t alice_uid[] = { alice.uid }, evil_gid[] = { EVIL_GID };
	uint32_t bob_uid[] = { bob.uid };
	char overlap[64];
	struct ns_case c = { &alice, subids, false, false, false, U "/hello", false };

	/* INVERT, alice listed: a subordinate UID is still alice. */
	policy_must_set(E | M | TPE_POLICY_INVERT, alice_uid, 1, NULL, 0);
	ns_try("hole 3: INVERT, alice listed: in her userns as subordinate uid 100000, alice's exec",
	       &c, true);
	c.via_setns = true;
	ns_try("hole 3: INVERT, alice listed: joins her userns with setns, uid 100000, exec", &c, true);
	c.via_setns = false;
	c.u = &bob;
	ns_try("hole 3: INVERT, alice listed: unlisted bob as subordinate uid 100000 (control)",
	       &c, false);

	/* INVERT, alice listed through a supplementary group she drops. */
	policy_must_set(E | M | TPE_POLICY_INVERT, NULL, 0, evil_gid, 1);
	c.u = &alice;
	c.with_evil_group = true;
	c.drop_groups = true;
	ns_try("hole 3: INVERT, alice's supplementary group listed: setgroups(0) in her userns, exec",
	       &c, true);
	c.u = &bob;
	c.with_evil_group = false;
	ns_try("hole 3: INVERT, group listed: bob (not in it) drops groups in his userns (control)",
	       &c, false);

	/* Trusted lists: a subordinate range that names a trusted UID grants nothing. */
	snprintf(overlap, sizeof(overlap), "0 %%u 1\n1 %u 1", bob.uid);
	policy_must_set(E | M, bob_uid, 1, NULL, 0);
	c = (struct ns_case){ &alice, overlap, false, false, false, U "/hello", false };
	ns_try("hole 3: alice's userns maps bob's uid (admin error): alice as bob, exec", &c, true);
}

/*
 * A container root made: root unshares, then maps namespace root to
 * 100000 (as podman or systemd-nspawn -U do). Judged by its own IDs.
 */
static int do_root_container(void *path)
{
	static const struct user root = { "root", 0, 0, 0, { 0 } };
	struct ns_case c = { .u = &root, .map = "0 100000 1", .path = path,
			     .stay_ns_root = true };

	return do_ns_case(&c);
}

/* bob, trusted, in his own namespace as himself keeps running things. */
static int do_bob_userns_self(void *path)
{
	if (enter_userns())
		return 110;
	return do_exec(path);
}

static void hole_userns_controls(void)
{
	uint32_t bob_uid[] = { bob.uid };

	uint32_t container_uid[] = { 100000 };

	policy_must_set(E | M, bob_uid, 1, NULL, 0);
	expect(run_as(&bob, do_bob_userns_self, U "/hello"), false, "%s: %s",
	       "hole 3: trusted bob as root of his own userns (unshare -r) runs alice's file");
	expect(run_as(NULL, do_root_container, U "/hello"), true, "%s: %s",
	       "hole 3: root's container, uid 100000 not listed: exec of alice's file");
	policy_must_set(E | M, container_uid, 1, NULL, 0);
	expect(run_as(NULL, do_root_container, U "/hello"), false, "%s: %s",
	       "hole 3: root's container, uid 100000 listed: exec of alice's file");
}

/* ---- 4: set-user-ID exec ---- */

static void hole_setuid(void)
{
	uint32_t trusted[] = { bob.uid };
	char line[PATH_MAX];

	make_dir(BASE "/alice-home", 0755, alice.uid, alice.gid);
	copy_file(hello, BASE "/alice-home/suid-alice", 04755, alice.uid, alice.gid);
	copy_file(hello, T "/suid-root", 04755, 0, 0);

	policy_must_set(E | M, trusted, 1, NULL, 0);
	log_quiet();
	exec_as("hole 4: MMAP: trusted bob runs a setuid-alice program in alice's dir: EACCES, not a signal",
		&bob, BASE "/alice-home/suid-alice", true);
	/* Judged for alice, the new euid: her directory fails dir-owner. */
	snprintf(line, sizeof(line), "tpe: denied exec uid=%u euid=%u pid=",
		 bob.uid, alice.uid);
	check(klog_line(line, " check=dir-owner dev=", " path=" BASE "/alice-home/suid-alice",
			NULL, 0),
	      "no kernel log line 'tpe: denied exec uid=bob euid=alice pid=... check=dir-owner "
	      "dev=... path=" BASE "/alice-home/suid-alice'",
	      "hole 4: the denial names alice's euid");
	policy_must_set(E, trusted, 1, NULL, 0);
	exec_as("hole 4: no MMAP: trusted bob runs a setuid-alice program in alice's dir",
		&bob, BASE "/alice-home/suid-alice", true);
	policy_must_set(E | M, trusted, 1, NULL, 0);
	exec_as("hole 4: alice runs a setuid-root program in a trusted dir (control)", &alice,
		T "/suid-root", false);
	exec_as("hole 4: alice runs her own setuid-alice program (her dir)", &alice,
		BASE "/alice-home/suid-alice", true);
}

/* ---- 5: memory ---- */

enum mem { ANON_PRIVATE, ANON_SHARED, DEV_ZERO_SHARED, DEV_ZERO_RWX_SHARED,
	   DEV_ZERO_RWX_PRIVATE, MEMFD, MEMFD_MPROTECT,
	   SYSV_SHM_EXEC, SYSV_MPROTECT, POSIX_SHM };

static int map_exec_then(void *p)
{
	if (p == MAP_FAILED)
		return 121;
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		fail_errno(errno);
	return 42;
}

static int do_mem(void *arg)
{
	enum mem kind = (enum mem)(long)arg;
	int fd, id;
	void *p;

	switch (kind) {
	case ANON_PRIVATE:
		return map_exec_then(mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	case ANON_SHARED:
		return map_exec_then(mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0));
	case DEV_ZERO_SHARED:
		fd = open("/dev/zero", O_RDWR);
		if (fd < 0)
			return 120;
		return map_exec_then(mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					  MAP_SHARED, fd, 0));
	case DEV_ZERO_RWX_SHARED:
	case DEV_ZERO_RWX_PRIVATE:
		fd = open("/dev/zero", O_RDWR);
		if (fd < 0)
			return 120;
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 kind == DEV_ZERO_RWX_SHARED ? MAP_SHARED : MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			fail_errno(errno);
		return 42;
	case MEMFD:
	case MEMFD_MPROTECT:
		fd = memfd_create("tpe-holes", 0);
		if (fd < 0 || ftruncate(fd, 4096))
			return 120;
		if (kind == MEMFD_MPROTECT)
			return map_exec_then(mmap(NULL, 4096, PROT_READ | PROT_WRITE,
						  MAP_SHARED, fd, 0));
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			fail_errno(errno);
		return 42;
	case SYSV_SHM_EXEC:
	case SYSV_MPROTECT:
		/* 0700: SHM_EXEC needs the segment's own execute permission */
		id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0700);
		if (id < 0)
			return 120;
		p = shmat(id, NULL, kind == SYSV_SHM_EXEC ? SHM_EXEC : 0);
		shmctl(id, IPC_RMID, NULL);
		if (kind == SYSV_MPROTECT)
			return map_exec_then(p);
		if (p == (void *)-1)
			fail_errno(errno);
		return 42;
	case POSIX_SHM:
		fd = shm_open("/tpe-holes", O_RDWR | O_CREAT | O_EXCL, 0700);
		if (fd < 0 || ftruncate(fd, 4096))
			return 120;
		shm_unlink("/tpe-holes");
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			fail_errno(errno);
		return 42;
	}
	return 119;
}

static void hole_memory(void)
{
	static const struct {
		const char *what;
		enum mem kind;
		bool deny;
	} rows[] = {
		{ "anonymous private RW, then mprotect PROT_EXEC", ANON_PRIVATE, false },
		{ "anonymous shared (MAP_SHARED|MAP_ANONYMOUS) RW, then mprotect PROT_EXEC", ANON_SHARED, false },
		{ "shared mapping of /dev/zero RW, then mprotect PROT_EXEC", DEV_ZERO_SHARED, false },
		{ "shared mapping of /dev/zero (a 0666 device) PROT_EXEC", DEV_ZERO_RWX_SHARED, false },
		{ "private mapping of /dev/zero PROT_EXEC", DEV_ZERO_RWX_PRIVATE, false },
		{ "memfd mmap PROT_EXEC", MEMFD, true },
		{ "memfd mmap RW, then mprotect PROT_EXEC", MEMFD_MPROTECT, true },
		{ "SysV shmat(SHM_EXEC)", SYSV_SHM_EXEC, true },
		{ "SysV shmat RW, then mprotect PROT_EXEC", SYSV_MPROTECT, true },
		{ "POSIX shm (/dev/shm) mmap PROT_EXEC", POSIX_SHM, true },
	};
	uint32_t trusted[] = { bob.uid };
	char name[160];

	policy_must_set(E | M, trusted, 1, NULL, 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		void *arg = (void *)(long)rows[i].kind;

		snprintf(name, sizeof(name), "hole 5: memory: alice: %s", rows[i].what);
		expect(run_as(&alice, do_mem, arg), rows[i].deny, "%s: %s", name);
		snprintf(name, sizeof(name), "hole 5: memory: bob (trusted): %s", rows[i].what);
		expect(run_as(&bob, do_mem, arg), false, "%s: %s", name);
	}
}

/* ---- 6: log lines a name can forge ---- */

/* A whole denial line in the kernel's format, as a name would add one. */
#define FORGED "tpe: denied exec uid=0 euid=0 pid=1 comm=x check=dir-owner path=/forged"
/* The memfd's name: a backslash, a space, a newline and the forged line. */
#define FORGED_MEMFD "x\\ y\n" FORGED
/* The comm (15 characters): a backslash, a space, a newline, a fake line. */
#define FORGED_COMM "c\\ \ntpe: forged"
/*
 * How they must read in the denial line: a backslash as \\, a space as
 * \040, a newline as \n; d_path() adds " (deleted)" to a memfd's name.
 */
#define MEMFD_ESCAPED "/memfd:x\\\\\\040y\\ntpe:\\040denied\\040exec\\040uid=0\\040euid=0" \
	"\\040pid=1\\040comm=x\\040check=dir-owner\\040path=/forged\\040(deleted)"
#define COMM_ESCAPED "c\\\\\\040\\ntpe:\\040forged"
/*
 * A path past the 256 escaped characters a log line carries, whose end
 * reads as the fixed fields of a root denial: cut, the field is named
 * path_prefix, and the fields before it stay the kernel's.
 */
#define LONG_TAIL " by uid=0 euid=0 pid=1 comm=x check=dir-owner path="
#define LOG_PATH_MAX 256

static int do_forged_memfd(void *unused)
{
	char *argv[] = { "x", NULL };
	int in = open(hello, O_RDONLY);
	int fd = memfd_create(FORGED_MEMFD, 0);
	char buf[65536];
	ssize_t n;

	(void)unused;
	if (in < 0 || fd < 0)
		return 120;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n)
			return 121;
	fexecve(fd, argv, empty_env);
	fail_errno(errno);
}

static int do_forged_comm(void *path)
{
	if (prctl(PR_SET_NAME, FORGED_COMM))
		return 120;
	return do_exec(path);
}

/* The test's model of the kernel's escaping agrees with the literals. */
static void check_escape_model(void)
{
	char esc[1024];

	check(log_escape("/memfd:" FORGED_MEMFD " (deleted)", esc, sizeof(esc)) &&
	      !strcmp(esc, MEMFD_ESCAPED), esc,
	      "hole 6: log_escape() gives the memfd name's expected form");
	check(log_escape(FORGED_COMM, esc, sizeof(esc)) && !strcmp(esc, COMM_ESCAPED), esc,
	      "hole 6: log_escape() gives the comm's expected form");
}

/*
 * The fields of a denial line after "tpe: denied exec ", in order, each
 * KEY=VALUE with no space in the value: @last names the path's field.
 */
static bool denial_fields_are(const char *line, const char *last)
{
	static const char *const keys[] = { "uid=", "euid=", "pid=", "comm=", "check=",
					     "dev=", "ino=", "dir_ino=" };
	const char *p = line + strlen("tpe: denied exec ");
	size_t i;

	if (strncmp(line, "tpe: denied exec ", strlen("tpe: denied exec ")))
		return false;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strncmp(p, keys[i], strlen(keys[i])) || !(p = strchr(p, ' ')))
			return false;
		p++;
	}
	return !strncmp(p, last, strlen(last)) && !strchr(p, ' ');
}

/* alice's program at the end of a long path; its path into @path. */
static void make_long_path(char *path, size_t cap)
{
	char *end;
	int n;

	n = snprintf(path, cap, U "/");
	memset(path + n, 'a', 200);
	path[n + 200] = '\0';
	make_dir(path, 0755, alice.uid, alice.gid);
	end = path + strlen(path);
	snprintf(end, cap - (end - path), "/" LONG_TAIL);
	make_dir(path, 0755, alice.uid, alice.gid);
	end = path + strlen(path);
	snprintf(end, cap - (end - path), "/bin");
	make_dir(path, 0755, alice.uid, alice.gid);
	end = path + strlen(path);
	snprintf(end, cap - (end - path), "/sh");
	copy_file(hello, path, 0755, alice.uid, alice.gid);
}

static void hole_long_path(void)
{
	char path[PATH_MAX], esc[PATH_MAX * 4], prefix[64], line[2048];
	const char *value;
	bool found;

	make_long_path(path, sizeof(path));
	log_escape(path, esc, sizeof(esc));
	note("hole 6: long path, %zu characters, %zu escaped", strlen(path), strlen(esc));
	check(strlen(esc) > LOG_PATH_MAX, esc,
	      "hole 6: the long path has more than %d escaped characters", LOG_PATH_MAX);
	exec_as("hole 6: path longer than 256 escaped characters ending in fake fields: alice's exec",
		&alice, path, true);

	snprintf(prefix, sizeof(prefix), "tpe: denied exec uid=%u euid=%u pid=", alice.uid,
		 alice.uid);
	found = klog_line(prefix, " path_prefix=" U "/aaaa", NULL, line, sizeof(line));
	check(found, "no kernel log line 'tpe: denied exec uid=alice euid=alice pid=... "
	      "path_prefix=" U "/aaaa...'",
	      "hole 6: long path: the denial line names it path_prefix= and uid=alice first");
	if (!found)
		return;
	note("hole 6: %s", line);
	check(strstr(line, " check=dir-owner dev=") && denial_fields_are(line, "path_prefix="), line,
	      "hole 6: long path: the line's fields are the kernel's, check=dir-owner, the path last");
	value = strstr(line, " path_prefix=") + strlen(" path_prefix=");
	check(strlen(value) <= LOG_PATH_MAX && strlen(value) < strlen(esc) &&
	      !strncmp(esc, value, strlen(value)), value,
	      "hole 6: long path: path_prefix= is the escaped path cut to at most %d characters",
	      LOG_PATH_MAX);
	check(!klog_line(NULL, LONG_TAIL, NULL, line, sizeof(line)), line,
	      "hole 6: long path: its fake fields are nowhere in the kernel log unescaped");
}

static void hole_log_forging(void)
{
	uint32_t trusted[] = { bob.uid };
	char prefix[64], line[2048];

	check_escape_model();
	policy_must_set(E | M, trusted, 1, NULL, 0);
	log_quiet();
	expect(run_as(&alice, do_forged_memfd, NULL), true, "%s: %s",
	       "hole 6: memfd named with a backslash, a space, a newline and a fake tpe line: alice's fexecve");
	expect(run_as(&alice, do_forged_comm, U "/hello"), true, "%s: %s",
	       "hole 6: comm set to a backslash, a space, a newline and a fake tpe line: alice's exec");
	check(!klog_line(FORGED, NULL, NULL, line, sizeof(line)), line,
	      "hole 6: no kernel log line is the forged one (memfd name)");
	check(!klog_line("tpe: forged", NULL, NULL, line, sizeof(line)), line,
	      "hole 6: no kernel log line is the forged one (comm)");
	snprintf(prefix, sizeof(prefix), "tpe: denied exec uid=%u euid=%u pid=", alice.uid,
		 alice.uid);
	check(klog_line(prefix, " check=no-parent dev=", " path=" MEMFD_ESCAPED, NULL, 0),
	      "no line 'tpe: denied exec uid=alice euid=alice pid=... check=no-parent dev=... path="
	      MEMFD_ESCAPED "'",
	      "hole 6: the memfd's name ends the denial line, escaped (\\\\ \\040 \\n)");
	check(klog_line(prefix, " comm=" COMM_ESCAPED " check=dir-owner dev=", " path=" U "/hello",
			NULL, 0),
	      "no line 'tpe: denied exec uid=alice euid=alice pid=... comm=" COMM_ESCAPED
	      " check=dir-owner dev=... path=" U "/hello'",
	      "hole 6: the comm is in the denial line, escaped (\\\\ \\040 \\n)");
	hole_long_path();
}

/* ---- 7: a full audit backlog does not stall the mmap path ---- */

#define FLOOD 10000

static int do_mprotect_flood(void *path)
{
	int fd = open(path, O_RDONLY), denied = 0;
	void *p;

	if (fd < 0)
		return 120;
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 121;
	for (int i = 0; i < FLOOD; i++)
		if (mprotect(p, 4096, PROT_READ | PROT_EXEC) && errno == EACCES)
			denied++;
	return denied == FLOOD ? 42 : 122;
}

static void hole_audit_backlog(void)
{
	uint32_t trusted[] = { bob.uid };
	struct timespec t0, t1;
	struct outcome o;
	double secs;
	char why[128];

	/* Before the backlog is tiny: a policy write is audited too. */
	policy_must_set(E | M, trusted, 1, NULL, 0);
	/* auditd first: stopping it against a one-record backlog takes minutes */
	if (system("systemctl stop auditd.service && ! systemctl -q is-active auditd.service && "
		   "auditctl -b 1 -r 0 >/dev/null"))
		die("could not shrink the audit backlog and stop auditd");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	o = run_as(&alice, do_mprotect_flood, U "/hello");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	snprintf(why, sizeof(why), "got %s after %.1f s", outcome_str(o), secs);
	check(o.status == 42 && secs < 120, why,
	      "hole 7: audit backlog 1, auditd stopped: %d denied mprotects as alice finish within 120 s",
	      FLOOD);
	note("hole 7: %d denied mprotects in %.1f s", FLOOD, secs);
	if (system("auditctl -b 8192 >/dev/null && systemctl start auditd.service"))
		die("could not restore auditd and the audit backlog");
}

/* ---- 8: the boot policy's and the file's defaults ---- */

static void hole_defaults(void)
{
	uint32_t trusted[] = { bob.uid };

	copy_file(hello, T "/world-writable", 0777, 0, 0);
	copy_file(hello, T "/group-writable", 0775, 0, 0);
	policy_must_set(E | M, trusted, 1, NULL, 0);
	exec_as("hole 8: without CHECK_FILE: alice runs a world-writable root file in a trusted dir",
		&alice, T "/world-writable", true);
	exec_as("hole 8: without CHECK_FILE: alice runs a group-writable root file in a trusted dir",
		&alice, T "/group-writable", true);
	exec_as("hole 8: bob (trusted) runs the world-writable file", &bob, T "/world-writable", false);
}

static void setup(void)
{
	umount2(BASE "/idm", MNT_DETACH);
	umount2(BASE "/idm-alice", MNT_DETACH);
	umount2(BASE "/idm-keep", MNT_DETACH);
	fresh_tmpfs(BASE, "tpe-holes");
	make_dir(T, 0755, 0, 0);
	make_dir(U, 0755, alice.uid, alice.gid);
	copy_file(hello, T "/hello", 0755, 0, 0);
	copy_file(hello, U "/hello", 0755, alice.uid, alice.gid);
}

int main(int argc, char **argv)
{

	(void)argc;
	(void)argv;
	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "holes";
	helper_path("hello", hello, sizeof(hello));
	users_init();
	setup();
	hole_idmapped();
	hole_untrusted_fs();
	hole_userns();
	hole_userns_controls();
	hole_setuid();
	hole_memory();
	hole_log_forging();
	hole_defaults();
	hole_audit_backlog();
	note("%d passed, %d failed", nr_ok, nr_fail);
	return nr_fail ? 1 : 0;
}
