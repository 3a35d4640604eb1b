// SPDX-License-Identifier: GPL-2.0
/*
 * chosen: what a user still chooses, one numbered case each.
 * Every case is a fact an untrusted user could choose that TPE trusted
 * before: the owner of a file, write access kept across a chmod, a disk
 * mounted for her, the words of a log line, the file behind a binfmt_misc
 * `C` entry, the layer an overlayfs file comes from. Each is tried as
 * alice (untrusted) and checked denied, next to the controls that must keep
 * working. Run as root in the test guest; it rewrites tpe/policy.
 *
 *   1 file owner (CHECK_FILE by default)   4 the log names dev:ino
 *   2 a writer kept across a fix           5 binfmt_misc C entries
 *   3 disks mounted for a user (loop, nosuid, new mount API, bubblewrap,
 *     udisks2 with a loop device and with a second disk, /dev/vdb), and
 *     only by operations that happened (refused and racing loop binds,
 *     moves and failed mounts); a block device mapped by ld.so
 *   6 overlayfs: root's keeps trust, one file has one verdict
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/loop.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define BASE "/run/tpe-chosen"	/* a tmpfs root mounts: suid allowed */
#define T BASE "/trusted"	/* root 0755 */
#define U BASE "/alice"		/* alice 0755 */
#define V BASE "/vendor"	/* root 0755: /opt/vendor/lib of case 2 */
/* Overlay layers need a disk file system (xattrs): the image's own ext4. */
#define DISK "/var/lib/tpe-chosen"
#define STICK "/dev/vdb"	/* tests/image/run-suite's second disk */
#define MAGIC "TPECHOSEN1"	/* case 5's binfmt_misc magic */
#define BINFMT "/proc/sys/fs/binfmt_misc"

static char hello[PATH_MAX + 8];
static const uint32_t E = TPE_POLICY_ENFORCE, M = TPE_POLICY_MMAP,
	CF = TPE_POLICY_CHECK_FILE, S = TPE_POLICY_STRICT;
/* Another untrusted user; no account needed for an exec. */
static struct user carol = { "carol", 1999, 1999, 0, { 0 } };
static char *const cmd_env[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C", NULL };

/* "NAME: denied (EACCES)" / "allowed (exit 42)" for an outcome. */
static void expect(struct outcome o, bool deny, const char *name)
{
	bool ok = deny ? o.err == EACCES : !o.err && o.status == 42;
	char why[96];

	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(ok, why, "%s: %s", name, deny ? "denied" : "allowed");
}

static void exec_as(const char *name, const struct user *u, const char *path, bool deny)
{
	expect(run_as(u, do_exec, (void *)path), deny, name);
}

/* ---- mappings ---- */

enum how { MAP_X, MAP_R_MPROTECT };

/* Map fd PROT_EXEC, or PROT_READ then mprotect PROT_EXEC; 0 or an errno. */
static int map_try_fd(int fd, enum how how)
{
	void *p = mmap(NULL, 4096, how == MAP_X ? PROT_READ | PROT_EXEC : PROT_READ,
		       MAP_PRIVATE, fd, 0);
	int err = 0;

	if (p == MAP_FAILED)
		return errno;
	if (how == MAP_R_MPROTECT && mprotect(p, 4096, PROT_READ | PROT_EXEC))
		err = errno;
	munmap(p, 4096);
	return err;
}

static int map_try(const char *path, enum how how)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return errno == EACCES ? EPERM : errno;	/* not TPE's EACCES */
	err = map_try_fd(fd, how);
	close(fd);
	return err;
}

struct map_arg {
	const char *path;
	enum how how;
};

static int do_map(void *arg)
{
	const struct map_arg *m = arg;
	int err = map_try(m->path, m->how);

	if (err)
		fail_errno(err);
	return 42;
}

static void map_as(const char *name, const struct user *u, const char *path, enum how how,
		   bool deny)
{
	struct map_arg m = { path, how };

	expect(run_as(u, do_map, &m), deny, name);
}

/* ---- the kernel log ---- */

/* The last kernel log line holding all of a, b and c (c may be NULL); malloc'd. */
static char *log_find(const char *a, const char *b, const char *c)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *line, *save, *found = NULL;

	if (len <= 0)
		return NULL;
	buf = calloc(1, len + 1);
	if (!buf || klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len) < 0)
		die("klogctl");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, a) && strstr(line, b) && (!c || strstr(line, c)))
			found = line;
	found = found ? strdup(found) : NULL;
	free(buf);
	return found;
}

/* " dev=MAJ:MIN ino=N " of a path, as the log prints it (fields, spaced). */
static void dev_ino(const char *path, char *out, size_t n)
{
	struct stat st;

	if (stat(path, &st))
		die("stat %s", path);
	snprintf(out, n, " dev=%u:%u ino=%lu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
}

/* A denial of path's file by uid for check is in the log with its dev:ino. */
static void log_check(const char *name, const char *op, uid_t uid, const char *check_name,
		      const char *path)
{
	char head[96], chk[64], id[96], *line;

	snprintf(head, sizeof(head), "tpe: denied %s uid=%u ", op, uid);
	snprintf(chk, sizeof(chk), " check=%s ", check_name);
	dev_ino(path, id, sizeof(id));
	line = log_find(head, chk, id);
	/* the fields without the spaces that delimit them in the search */
	check(line, "no such line in the kernel log", "%s: the log says '%.*s ... %.*s%.*s ...'",
	      name, (int)strlen(head) - 1, head, (int)strlen(chk) - 2, chk + 1,
	      (int)strlen(id) - 1, id);
	if (line)
		note("%s", line);
	free(line);
}

/* ---- running commands ---- */

/* In the child: argv with cmd_env, from /. */
static int exec_from_root(void *arg)
{
	char *const *argv = arg;

	if (chdir("/"))
		return 127;
	execve(argv[0], argv, cmd_env);
	return 127;
}

/* Run argv as u (NULL: root) with stdout+stderr in out; its exit status. */
static int run_capture(const struct user *u, char *const argv[], char *out, size_t n)
{
	size_t got = 0;
	ssize_t r;
	pid_t pid;
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		die("pipe");
	pid = fork_as(u, p[1], exec_from_root, (void *)argv);
	close(p[1]);
	while (got + 1 < n && (r = read(p[0], out + got, n - 1 - got)) > 0)
		got += r;
	out[got] = 0;
	close(p[0]);
	return wait_status(pid);
}

/* The same, with the output kept as log lines. */
static int run_cmd(const struct user *u, char *const argv[])
{
	char out[4096];
	int rc = run_capture(u, argv, out, sizeof(out));

	for (char *save, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		note("  %s: %s", argv[0], l);
	return rc;
}

static int sh(const char *cmd)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };

	return run_cmd(NULL, argv);
}

/* ---- 1: the file's owner ---- */

/*
 * The default an administrator gets: tpe-load's policy from a config that
 * does not name check_file. Loads it; false if it could not be built.
 */
static bool load_default_policy(uint32_t *flags)
{
	unsigned char blob[4096];
	struct tpe_policy_hdr h;
	ssize_t n;
	int fd;

	write_file(BASE "/default.conf", "enforce = true;\nmmap = true;\n", 0644, 0, 0);
	if (sh("tpe-load --config " BASE "/default.conf --output " BASE "/default.policy"))
		return false;
	fd = open(BASE "/default.policy", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, blob, sizeof(blob));
	close(fd);
	if (n < (ssize_t)sizeof(h))
		return false;
	memcpy(&h, blob, sizeof(h));
	*flags = le32toh(h.flags);
	errno = policy_write_raw(blob, n);
	if (errno)
		die("loading tpe-load's default policy");
	return true;
}

static void chosen_file_owner(void)
{
	uint32_t trusted[] = { bob.uid }, flags = 0;

	copy_file(hello, T "/alice-owned", 0755, alice.uid, alice.gid);
	make_dir(BASE "/bob", 0755, bob.uid, bob.gid);
	copy_file(hello, BASE "/bob/hello", 0755, bob.uid, bob.gid);

	/* What tpe-load makes of a config silent on check_file. */
	if (!load_default_policy(&flags)) {
		check(false, "tpe-load --output failed", "chosen 1: tpe-load builds a default policy");
	} else {
		check(flags & CF, "no CHECK_FILE",
		      "chosen 1: tpe-load, no check_file key: the policy has CHECK_FILE (flags %#x)",
		      flags);
		exec_as("chosen 1: tpe-load's default policy: alice runs her own file in a root 0755 dir",
			&alice, T "/alice-owned", true);
	}

	/* The shipped policy: ENFORCE|MMAP|CHECK_FILE, nobody trusted. */
	policy_must_set(E | M | CF, NULL, 0, NULL, 0);
	log_quiet();
	exec_as("chosen 1: shipped policy: alice runs her own file in a root 0755 dir", &alice,
		T "/alice-owned", true);
	log_check("chosen 1: file owner", "exec", alice.uid, "file-owner", T "/alice-owned");
	exec_as("chosen 1: shipped policy: carol (untrusted) runs alice's file in a root 0755 dir",
		&carol, T "/alice-owned", true);
	map_as("chosen 1: shipped policy: alice mmaps her file PROT_EXEC", &alice,
	       T "/alice-owned", MAP_X, true);
	exec_as("chosen 1: shipped policy: alice runs a root file in the same dir (control)",
		&alice, T "/hello", false);
	exec_as("chosen 1: shipped policy: carol runs a root file in the same dir (control)",
		&carol, T "/hello", false);

	/* STRICT: a trusted user's own file in his own dir, as today. */
	policy_must_set(E | M | CF | S, trusted, 1, NULL, 0);
	exec_as("chosen 1: STRICT, bob trusted: bob runs his own file in his own 0755 dir (control)",
		&bob, BASE "/bob/hello", false);
	exec_as("chosen 1: STRICT, bob trusted: bob runs alice's file in a root 0755 dir", &bob,
		T "/alice-owned", true);

	/* CHECK_FILE off is the administrator's choice: then the owner is not asked. */
	policy_must_set(E | M, NULL, 0, NULL, 0);
	exec_as("chosen 1: CHECK_FILE off: alice runs her own file in a root 0755 dir", &alice,
		T "/alice-owned", false);
}

/* ---- 2: write access kept across a chmod ---- */

enum wkind { W_FD, W_NEWFD, W_SHARED, W_MPROTECT };

struct writer {
	enum wkind kind;
	int ready_w, go_r;	/* alice -> root: opened; root -> alice: chmodded */
};

static int verdict_code(int err)
{
	return !err ? 0 : err == EACCES ? 1 : 2;
}

/*
 * As alice: open the 0666 plugin for writing (and, for W_SHARED, map it
 * shared and writable, then close it), let root chmod it 0644, write
 * through what she kept, map it executable; then let go of the writer and
 * map it again. Returns 10 * first + second (0 allowed, 1 EACCES, 2 other).
 */
static int do_writer(void *arg)
{
	const struct writer *w = arg;
	const char *path = V "/plugin";
	enum how how = w->kind == W_MPROTECT ? MAP_R_MPROTECT : MAP_X;
	unsigned char code[64];
	char *shared = NULL;
	struct stat st;
	int fd, e1, e2;
	char c;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || pread(fd, code, sizeof(code), 0) != sizeof(code))
		return 110;
	if (w->kind == W_SHARED) {
		shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (shared == MAP_FAILED)
			return 111;
		close(fd);
		fd = -1;
	}
	if (write(w->ready_w, "r", 1) != 1 || read(w->go_r, &c, 1) != 1)
		return 112;
	if (stat(path, &st) || (st.st_mode & 07777) != 0644)
		return 113;	/* root's fix did not happen */
	/* Her code, written after the fix through what she kept. */
	if (shared)
		memcpy(shared, code, sizeof(code));
	else if (pwrite(fd, code, sizeof(code), 0) != sizeof(code))
		return 114;
	e1 = w->kind == W_FD ? map_try_fd(fd, how) : map_try(path, how);
	if (fd >= 0)
		close(fd);
	if (shared)
		munmap(shared, 4096);
	e2 = map_try(path, how);
	return 10 * verdict_code(e1) + verdict_code(e2);
}

static int writer_case(enum wkind kind)
{
	struct writer w = { .kind = kind };
	int ready[2], go[2], st;
	struct outcome o;
	pid_t helper;
	char c;

	copy_file(hello, V "/plugin", 0666, 0, 0);	/* a new inode each time */
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		die("pipe");
	fflush(stdout);
	helper = fork();
	if (helper < 0)
		die("fork");
	if (helper == 0) {	/* root's fix, once alice holds her writer */
		close(ready[1]);
		if (read(ready[0], &c, 1) != 1)
			_exit(1);
		if (chmod(V "/plugin", 0644))
			_exit(2);
		_exit(write(go[1], "g", 1) == 1 ? 0 : 3);
	}
	w.ready_w = ready[1];
	w.go_r = go[0];
	o = run_as(&alice, do_writer, &w);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	waitpid(helper, &st, 0);
	return o.err ? -o.err : o.status;
}

static void writer_check(enum wkind kind, const char *what, const char *map_what)
{
	int r = writer_case(kind);
	char why[96];

	snprintf(why, sizeof(why), "alice's child returned %d (10 * first + second; "
		 "0 allowed, 1 EACCES, 2 other; >= 110: set-up)", r);
	check(r / 10 == 1 && r < 100, why,
	      "chosen 2: %s kept across chmod 0666 -> 0644: alice writes, then %s: denied",
	      what, map_what);
	check(r % 10 == 0 && r < 100, why,
	      "chosen 2: %s let go: alice's %s of the fixed file: allowed (control)",
	      what, map_what);
}

static void chosen_writer(void)
{
	uint32_t trusted[] = { bob.uid };
	int fd;

	make_dir(V, 0755, 0, 0);
	policy_must_set(E | M | CF, trusted, 1, NULL, 0);
	log_quiet();
	writer_check(W_FD, "her O_RDWR fd", "mmap PROT_EXEC of that fd");
	log_check("chosen 2: writer kept", "mmap", alice.uid, "file-open-write", V "/plugin");
	writer_check(W_NEWFD, "her O_RDWR fd", "mmap PROT_EXEC of a new read-only fd");
	writer_check(W_SHARED, "her MAP_SHARED PROT_WRITE mapping (fd closed)",
		     "mmap PROT_EXEC of a new fd");
	writer_check(W_MPROTECT, "her O_RDWR fd", "mmap PROT_READ, then mprotect PROT_EXEC");

	/* Anyone's writer counts; a trusted user is not asked. */
	copy_file(hello, V "/plugin", 0644, 0, 0);
	fd = open(V "/plugin", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("open %s for writing", V "/plugin");
	map_as("chosen 2: root holds a writer: alice's mmap PROT_EXEC", &alice, V "/plugin",
	       MAP_X, true);
	map_as("chosen 2: root holds a writer: bob (trusted) mmaps PROT_EXEC (control)", &bob,
	       V "/plugin", MAP_X, false);
	map_as("chosen 2: root holds a writer: bob (trusted) mprotects PROT_EXEC (control)", &bob,
	       V "/plugin", MAP_R_MPROTECT, false);
	close(fd);
	map_as("chosen 2: no writer: alice's mmap PROT_EXEC (control)", &alice, V "/plugin",
	       MAP_X, false);
}

/* ---- 3: disks mounted for a user ---- */

#define IMG_ROOT T "/root.img"	/* root 0644 in a root 0755 dir: trusted */

/* An ext4 image whose files are root's, as anyone can make one. */
static void make_image(void)
{
	char cmd[512];

	make_dir(BASE "/img-src", 0755, 0, 0);
	copy_file(hello, BASE "/img-src/hello", 0755, 0, 0);
	snprintf(cmd, sizeof(cmd),
		 "mkfs.ext4 -q -F -d %s -E root_owner=0:0 -L tpe-chosen %s 8M && chmod 0644 %s",
		 BASE "/img-src", IMG_ROOT, IMG_ROOT);
	if (sh(cmd))
		die("mkfs.ext4 -d of %s", IMG_ROOT);
}

/*
 * Bind a free loop device to img, autoclear (it goes away with its last
 * mount); dev gets its name. Returns the open loop device: close it after
 * mounting.
 */
static int loop_attach(const char *img, char *dev, size_t n)
{
	struct loop_config cfg = { .info.lo_flags = LO_FLAGS_AUTOCLEAR };
	int ctl, nr, lfd = -1, bfd, i;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		die("open /dev/loop-control");
	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (nr < 0)
		die("LOOP_CTL_GET_FREE");
	close(ctl);
	snprintf(dev, n, "/dev/loop%d", nr);
	/*
	 * Read-only: without CONFIG_BLK_DEV_WRITE_MOUNTED (the test kernels)
	 * a block device open for writing cannot be mounted (EBUSY). The loop
	 * device is then read-only, and so are its mounts.
	 */
	for (i = 0; i < 50 && lfd < 0; i++) {
		lfd = open(dev, O_RDONLY | O_CLOEXEC);
		if (lfd < 0)
			usleep(100000);
	}
	bfd = open(img, O_RDWR | O_CLOEXEC);
	if (lfd < 0 || bfd < 0)
		die("open %s or %s", dev, img);
	cfg.fd = bfd;
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg))
		die("LOOP_CONFIGURE %s on %s", img, dev);
	close(bfd);
	return lfd;
}

static void mount_loop(const char *img, const char *dir, unsigned long flags)
{
	char dev[64];
	int lfd = loop_attach(img, dev, sizeof(dev));

	make_dir(dir, 0755, 0, 0);
	if (mount(dev, dir, "ext4", flags | MS_RDONLY, NULL))
		die("mount %s (%s) on %s", dev, img, dir);
	close(lfd);
}

/*
 * How an fsmount() mount is attached: move_mount(2), or mount(2) MS_MOVE;
 * or as libmount 2.39 and later do, fsmount() with no attributes, then
 * mount_setattr(attrs) of the detached mount, then move_mount(2).
 */
enum attach { BY_MOVE_MOUNT, BY_MS_MOVE, AS_LIBMOUNT };

/* The new mount API: fsopen, fsconfig, fsmount(attrs), then the attach. */
static void fsmount_loop(const char *img, const char *dir, unsigned int attrs,
			 enum attach how)
{
	char dev[64], fdpath[64];
	int lfd = loop_attach(img, dev, sizeof(dev)), fs, mnt, err;

	make_dir(dir, 0755, 0, 0);
	fs = fsopen("ext4", FSOPEN_CLOEXEC);
	if (fs < 0 || fsconfig(fs, FSCONFIG_SET_STRING, "source", dev, 0) ||
	    fsconfig(fs, FSCONFIG_SET_FLAG, "ro", NULL, 0) ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		die("fsopen/fsconfig ext4 on %s", dev);
	mnt = fsmount(fs, FSMOUNT_CLOEXEC,
		      (how == AS_LIBMOUNT ? 0 : attrs) | MOUNT_ATTR_RDONLY);
	if (mnt < 0)
		die("fsmount %s", dev);
	if (how == AS_LIBMOUNT) {
		struct mount_attr set = { .attr_set = attrs };

		if (mount_setattr(mnt, "", AT_EMPTY_PATH, &set, sizeof(set)))
			die("mount_setattr of the detached mount of %s", dev);
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", mnt);
	err = how != BY_MS_MOVE ?
		move_mount(mnt, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH) :
		mount(fdpath, dir, NULL, MS_MOVE, NULL);
	if (err)
		die("%s %s on %s", how != BY_MS_MOVE ? "move_mount" : "mount MS_MOVE",
		    dev, dir);
	close(mnt);
	close(fs);
	close(lfd);
}

/* Each mount its own image and loop device: a super block is made once. */
static void image_copy(const char *dst, uid_t uid, gid_t gid)
{
	copy_file(IMG_ROOT, dst, 0644, uid, gid);
}

static int do_cmd(void *argv)
{
	char *const *a = argv;

	execve(a[0], a, cmd_env);
	fail_errno(errno);
}

static void bwrap_check(const char *name, char *const argv[])
{
	struct outcome o = run_as(&alice, do_cmd, (void *)argv);
	char why[96];

	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 0, why, "%s: exits 0", name);
}

static void chosen_mounts_root(void)
{
	static char *const bwrap_usr[] = {
		"/usr/bin/bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib64", "/lib64",
		"--symlink", "usr/lib", "/lib", "--symlink", "usr/bin", "/bin", "--proc", "/proc",
		"--dev", "/dev", "/usr/bin/true", NULL
	};
	static char *const bwrap_root[] = { "/usr/bin/bwrap", "--bind", "/", "/", "/usr/bin/true", NULL };

	policy_must_set(E | M | CF, NULL, 0, NULL, 0);

	/* (a) root's image, root mounts it nosuid: mounted for a user. */
	image_copy(T "/a.img", 0, 0);
	mount_loop(T "/a.img", BASE "/mnt-a", MS_NOSUID);
	log_quiet();
	exec_as("chosen 3a: root-owned image on a loop device mounted nosuid: alice's exec", &alice,
		BASE "/mnt-a/hello", true);
	log_check("chosen 3a: mounted nosuid", "exec", alice.uid, "untrusted-fs",
		  BASE "/mnt-a/hello");
	map_as("chosen 3a: the same mount: alice's mmap PROT_EXEC", &alice, BASE "/mnt-a/hello",
	       MAP_X, true);

	/* (b) no nosuid, but the loop device's backing file is alice's. */
	make_dir(U "/imgs", 0755, alice.uid, alice.gid);
	image_copy(U "/imgs/b.img", alice.uid, alice.gid);
	mount_loop(U "/imgs/b.img", BASE "/mnt-b", 0);
	exec_as("chosen 3b: root mounts (no nosuid) a loop device backed by alice's image: alice's exec",
		&alice, BASE "/mnt-b/hello", true);

	/* (c) root's own image file, mounted by root without nosuid. */
	image_copy(T "/c.img", 0, 0);
	mount_loop(T "/c.img", BASE "/mnt-c", 0);
	exec_as("chosen 3c: root's image in a root 0755 dir, loop-mounted without nosuid (control)",
		&alice, BASE "/mnt-c/hello", false);

	/* (d) the new mount API: fsmount(MOUNT_ATTR_NOSUID), then move_mount(). */
	image_copy(T "/d1.img", 0, 0);
	fsmount_loop(T "/d1.img", BASE "/mnt-d1", MOUNT_ATTR_NOSUID, BY_MOVE_MOUNT);
	exec_as("chosen 3d: fsopen/fsconfig/fsmount(MOUNT_ATTR_NOSUID)/move_mount of root's image: alice's exec",
		&alice, BASE "/mnt-d1/hello", true);
	image_copy(T "/d2.img", 0, 0);
	fsmount_loop(T "/d2.img", BASE "/mnt-d2", 0, BY_MOVE_MOUNT);
	exec_as("chosen 3d: fsmount without MOUNT_ATTR_NOSUID of root's image (control)", &alice,
		BASE "/mnt-d2/hello", false);

	/* (e) bubblewrap's nosuid binds make no super block. */
	bwrap_check("chosen 3e: alice: bwrap --ro-bind /usr /usr ... --proc /proc --dev /dev /usr/bin/true",
		    bwrap_usr);
	bwrap_check("chosen 3e: alice: bwrap --bind / / /usr/bin/true", bwrap_root);

	for (const char *const *d = (const char *const[]){ BASE "/mnt-a", BASE "/mnt-b",
			BASE "/mnt-c", BASE "/mnt-d1", BASE "/mnt-d2", NULL }; *d; d++)
		if (umount2(*d, 0))
			note("umount %s: %s", *d, strerror(errno));
}

/* ---- 3g-3i: a loop device's verdict comes from the binds that happened ---- */

/* A root-owned file in a trusted path, of another size than the images. */
#define TRUSTED_FILE "/usr/bin/true"

/* ioctl(fd, req, arg): 0 or its errno. */
static int loop_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

static void mount_dev(const char *dev, const char *dir)
{
	make_dir(dir, 0755, 0, 0);
	if (mount(dev, dir, "ext4", MS_RDONLY, NULL))
		die("mount %s on %s", dev, dir);
}

/* (g) binds the driver refuses, with a trusted file, change nothing. */
static void chosen_loop_refused(void)
{
	char dev[64];
	int lfd, fd, err;

	image_copy(U "/imgs/g.img", alice.uid, alice.gid);
	lfd = loop_attach(U "/imgs/g.img", dev, sizeof(dev));
	mount_dev(dev, BASE "/mnt-g");
	exec_as("chosen 3g: root mounts (no nosuid) a loop device bound to alice's image: alice's exec",
		&alice, BASE "/mnt-g/hello", true);
	fd = open(TRUSTED_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s", TRUSTED_FILE);
	err = loop_ioctl(lfd, LOOP_SET_FD, fd);
	check(err == EBUSY, errno_name(err),
	      "chosen 3g: LOOP_SET_FD of " TRUSTED_FILE " on that device: EBUSY");
	exec_as("chosen 3g: after the refused LOOP_SET_FD: alice's exec", &alice,
		BASE "/mnt-g/hello", true);
	err = loop_ioctl(lfd, LOOP_CHANGE_FD, fd);
	check(err == EINVAL, errno_name(err),
	      "chosen 3g: LOOP_CHANGE_FD to " TRUSTED_FILE " (another size): EINVAL");
	exec_as("chosen 3g: after the refused LOOP_CHANGE_FD: alice's exec", &alice,
		BASE "/mnt-g/hello", true);
	close(fd);
	close(lfd);
	if (umount2(BASE "/mnt-g", 0))
		note("umount %s: %s", BASE "/mnt-g", strerror(errno));
}

/* LOOP_CHANGE_FD of the loop device lfd to the file at path; 0 or an errno. */
static int loop_change(int lfd, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		die("open %s", path);
	err = loop_ioctl(lfd, LOOP_CHANGE_FD, fd);
	close(fd);
	return err;
}

/* (h) while bound, a device's verdict only goes down; an unbind resets it. */
static void chosen_loop_change(void)
{
	char dev[64];
	int lfd, err;

	image_copy(T "/h.img", 0, 0);
	image_copy(U "/imgs/h.img", alice.uid, alice.gid);
	lfd = loop_attach(T "/h.img", dev, sizeof(dev));
	err = loop_change(lfd, U "/imgs/h.img");
	check(!err, errno_name(err),
	      "chosen 3h: LOOP_CHANGE_FD from root's image to alice's copy of it: done");
	err = loop_change(lfd, T "/h.img");
	check(!err, errno_name(err), "chosen 3h: LOOP_CHANGE_FD back to root's image: done");
	mount_dev(dev, BASE "/mnt-h");
	exec_as("chosen 3h: root mounts (no nosuid) that device, which presented alice's image since it was bound: alice's exec",
		&alice, BASE "/mnt-h/hello", true);
	close(lfd);
	if (umount2(BASE "/mnt-h", 0))
		die("umount %s", BASE "/mnt-h");
	/* Unbound with its last close (autoclear): a new bind starts afresh. */
	mount_loop(T "/h.img", BASE "/mnt-h", 0);
	exec_as("chosen 3h: root's image bound anew and mounted without nosuid (control)", &alice,
		BASE "/mnt-h/hello", false);
	if (umount2(BASE "/mnt-h", 0))
		note("umount %s: %s", BASE "/mnt-h", strerror(errno));
}

struct bind_race {
	const char *dev, *img;
	int go;		/* read end: one byte starts the bind */
};

/* As root: LOOP_CONFIGURE img on dev once told to; 0, 1 for EBUSY, 2 else. */
static int do_bind_race(void *arg)
{
	const struct bind_race *b = arg;
	struct loop_config cfg = { .info.lo_flags = LO_FLAGS_AUTOCLEAR };
	int lfd = open(b->dev, O_RDONLY | O_CLOEXEC);
	int img = open(b->img, O_RDWR | O_CLOEXEC);
	char c;

	if (lfd < 0 || img < 0 || read(b->go, &c, 1) != 1)
		return 3;
	cfg.fd = img;
	if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
		return 0;
	return errno == EBUSY ? 1 : 2;
}

/* The inode of the file the loop device lfd is bound to, or 0. */
static unsigned long loop_backing_ino(int lfd)
{
	struct loop_info64 info;

	return ioctl(lfd, LOOP_GET_STATUS64, &info) ? 0 : (unsigned long)info.lo_inode;
}

/*
 * (i) Two binds of one free device race, as udisksd's worker threads can
 * run two loop-setup requests: one wins, the other gets EBUSY, and alice's
 * exec from root's mount of the device follows the file that was bound.
 */
static void chosen_loop_race(void)
{
	const char *imgs[2] = { U "/imgs/race.img", T "/race.img" };
	int rounds = 8, one_won = 0, followed = 0, won[2] = { 0, 0 };
	struct stat hers;

	image_copy(imgs[0], alice.uid, alice.gid);
	image_copy(imgs[1], 0, 0);
	if (stat(imgs[0], &hers))
		die("stat %s", imgs[0]);
	for (int r = 0; r < rounds; r++) {
		char dev[64];
		int ctl, nr, hold, go[2], st[2], winner;
		struct bind_race b[2];
		pid_t pid[2];
		unsigned long ino;
		struct outcome o;

		ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
		nr = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0)
			die("LOOP_CTL_GET_FREE");
		close(ctl);
		snprintf(dev, sizeof(dev), "/dev/loop%d", nr);
		/* Held open so that the device outlives the children (autoclear). */
		hold = -1;
		for (int i = 0; i < 50 && hold < 0; i++) {
			hold = open(dev, O_RDONLY | O_CLOEXEC);
			if (hold < 0)
				usleep(100000);
		}
		if (hold < 0 || pipe2(go, O_CLOEXEC))
			die("open %s", dev);
		for (int i = 0; i < 2; i++) {
			b[i] = (struct bind_race){ dev, imgs[i], go[0] };
			pid[i] = fork_as(NULL, -1, do_bind_race, &b[i]);
		}
		if (write(go[1], "gg", 2) != 2)
			die("write");
		for (int i = 0; i < 2; i++)
			st[i] = wait_status(pid[i]);
		close(go[0]);
		close(go[1]);
		ino = loop_backing_ino(hold);
		winner = ino == (unsigned long)hers.st_ino ? 0 : 1;
		note("round %d: %s: alice's bind %d, root's %d (0 bound, 1 EBUSY), bound: %s", r,
		     dev, st[0], st[1], imgs[winner]);
		if (((st[0] == 0 && st[1] == 1) || (st[0] == 1 && st[1] == 0)) && ino &&
		    st[winner] == 0)
			one_won++;
		won[winner]++;
		mount_dev(dev, BASE "/mnt-race");
		o = run_as(&alice, do_exec, BASE "/mnt-race/hello");
		if (winner == 0 ? o.err == EACCES : !o.err && o.status == 42)
			followed++;
		else
			note("round %d: alice's exec: %s", r, outcome_str(o));
		if (umount2(BASE "/mnt-race", 0))
			die("umount %s", BASE "/mnt-race");
		close(hold);
	}
	note("alice's image was bound in %d rounds, root's in %d", won[0], won[1]);
	check(one_won == rounds, "see the rounds above",
	      "chosen 3i: two LOOP_CONFIGUREs race for one device: one is bound, the other EBUSY (%d of %d rounds)",
	      one_won, rounds);
	check(followed == rounds, "see the rounds above",
	      "chosen 3i: alice's exec from root's mount of it follows the file bound: denied for hers, allowed for root's (%d of %d rounds)",
	      followed, rounds);
}

/* ---- 3j-3l: a disk's first mount, made by a call that succeeded ---- */

/* In her user+mount namespace: moves of a nosuid bind of root's volume. */
static int do_user_moves(void *unused)
{
	struct mount_attr nosuid = { .attr_set = MOUNT_ATTR_NOSUID };

	(void)unused;
	if (enter_userns())
		return 110;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 111;
	if (mount(BASE "/mnt-j2", U "/k-bind", NULL, MS_BIND, NULL))
		return 112;
	if (mount_setattr(AT_FDCWD, U "/k-bind", 0, &nosuid, sizeof(nosuid)))
		return 113;
	/* Not the root of a mount: refused after the security hook. */
	if (!move_mount(AT_FDCWD, U "/k-bind/lost+found", AT_FDCWD, U "/k-moved", 0) ||
	    errno != EINVAL)
		return 114;
	if (move_mount(AT_FDCWD, U "/k-bind", AT_FDCWD, U "/k-moved", 0))
		return 115;
	return 0;
}

static void chosen_first_mount(void)
{
	struct outcome o;
	char why[96];
	int err;

	/* (j) fsmount() attached by mount(2) MS_MOVE from /proc/self/fd/N. */
	image_copy(T "/j1.img", 0, 0);
	fsmount_loop(T "/j1.img", BASE "/mnt-j1", MOUNT_ATTR_NOSUID, BY_MS_MOVE);
	exec_as("chosen 3j: fsmount(MOUNT_ATTR_NOSUID) of root's image, attached by mount(2) MS_MOVE from /proc/self/fd/N: alice's exec",
		&alice, BASE "/mnt-j1/hello", true);
	image_copy(T "/j2.img", 0, 0);
	fsmount_loop(T "/j2.img", BASE "/mnt-j2", 0, BY_MS_MOVE);
	exec_as("chosen 3j: the same without MOUNT_ATTR_NOSUID (control)", &alice,
		BASE "/mnt-j2/hello", false);

	/* (k) her moves in her own namespace are hers alone. */
	make_dir(U "/k-bind", 0755, alice.uid, alice.gid);
	make_dir(U "/k-moved", 0755, alice.uid, alice.gid);
	o = run_as(&alice, do_user_moves, NULL);
	snprintf(why, sizeof(why), "got %s (110-115: the step that failed)", outcome_str(o));
	check(!o.err && o.status == 0, why,
	      "chosen 3k: alice, in her user+mount namespace, moves a nosuid bind of her copy of root's volume (and a move of a subdirectory fails, EINVAL)");
	exec_as("chosen 3k: afterwards, root's volume in the initial namespace: alice's exec (as before)",
		&alice, BASE "/mnt-j2/hello", false);

	/* (l) a mount(2) that fails leaves nothing for the task's next mount. */
	make_dir(BASE "/mnt-l1", 0755, 0, 0);
	err = mount("/dev/tpe-no-such-disk", BASE "/mnt-l1", "ext4", MS_RDONLY, NULL) ? errno : 0;
	check(err == ENOENT, errno_name(err), "chosen 3l: mount(2) of a missing disk: ENOENT");
	image_copy(T "/l1.img", 0, 0);
	fsmount_loop(T "/l1.img", BASE "/mnt-l1", MOUNT_ATTR_NOSUID, BY_MOVE_MOUNT);
	exec_as("chosen 3l: then, in the same task, fsmount(MOUNT_ATTR_NOSUID) of root's image: alice's exec",
		&alice, BASE "/mnt-l1/hello", true);
	make_dir(BASE "/mnt-l2", 0755, 0, 0);
	err = mount("/dev/tpe-no-such-disk", BASE "/mnt-l2", "ext4", MS_RDONLY | MS_NOSUID, NULL) ?
		errno : 0;
	check(err == ENOENT, errno_name(err), "chosen 3l: mount(2) MS_NOSUID of a missing disk: ENOENT");
	image_copy(T "/l2.img", 0, 0);
	fsmount_loop(T "/l2.img", BASE "/mnt-l2", 0, BY_MOVE_MOUNT);
	exec_as("chosen 3l: then, in the same task, fsmount() without nosuid of root's image (control)",
		&alice, BASE "/mnt-l2/hello", false);

	/*
	 * (o) libmount 2.39 and later: fsmount() with no attributes, then
	 * mount_setattr(MOUNT_ATTR_NOSUID), then move_mount(): the flags the
	 * mount is attached with decide, not those fsmount() gave it.
	 */
	image_copy(T "/o1.img", 0, 0);
	fsmount_loop(T "/o1.img", BASE "/mnt-o1", MOUNT_ATTR_NOSUID, AS_LIBMOUNT);
	exec_as("chosen 3o: fsmount() with no attributes, mount_setattr(MOUNT_ATTR_NOSUID), move_mount() (libmount 2.39): alice's exec",
		&alice, BASE "/mnt-o1/hello", true);
	image_copy(T "/o2.img", 0, 0);
	fsmount_loop(T "/o2.img", BASE "/mnt-o2", MOUNT_ATTR_NODEV, AS_LIBMOUNT);
	exec_as("chosen 3o: the same with mount_setattr(MOUNT_ATTR_NODEV) only (control)",
		&alice, BASE "/mnt-o2/hello", false);

	for (const char *const *d = (const char *const[]){ BASE "/mnt-j1", BASE "/mnt-j2",
			BASE "/mnt-l1", BASE "/mnt-l2", BASE "/mnt-o1", BASE "/mnt-o2",
			NULL }; *d; d++)
		if (umount2(*d, 0))
			note("umount %s: %s", *d, strerror(errno));
}

/* ---- 3n: a disk with no block device of its own ---- */

/*
 * erofs mounted from an image file, with no loop device: its super block
 * has no s_bdev, as btrfs's never has. Its owners are still what was
 * written into the image, so nosuid on its first mount still means "for a
 * user". The image is on the root file system: erofs reads a file only
 * through a page cache with read_folio, which tmpfs has not.
 */
#define ERO_IMG "/var/lib/tpe-chosen-n.erofs"	/* root 0644, root 0755 dir */

static void chosen_no_bdev(void)
{
	static const char *const dirs[] = { BASE "/mnt-n1", BASE "/mnt-n2" };
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "mkfs.erofs --all-root %s %s >/dev/null && chmod 0644 %s",
		 ERO_IMG, BASE "/img-src", ERO_IMG);
	if (sh(cmd))
		die("mkfs.erofs of %s", BASE "/img-src");
	for (int i = 0; i < 2; i++) {
		make_dir(dirs[i], 0755, 0, 0);
		if (mount(ERO_IMG, dirs[i], "erofs", MS_RDONLY | (i ? 0 : MS_NOSUID), NULL))
			die("mount -t erofs %s on %s", ERO_IMG, dirs[i]);
	}
	exec_as("chosen 3n: erofs from root's image file, no loop device, first mounted nosuid: alice's exec",
		&alice, BASE "/mnt-n1/hello", true);
	log_check("chosen 3n: erofs with no block device", "exec", alice.uid, "untrusted-fs",
		  BASE "/mnt-n1/hello");
	exec_as("chosen 3n: the same image, first mounted by root without nosuid (control)",
		&alice, BASE "/mnt-n2/hello", false);
	for (int i = 0; i < 2; i++)
		if (umount2(dirs[i], 0))
			note("umount %s: %s", dirs[i], strerror(errno));
	unlink(ERO_IMG);
}

/* ---- 3f: udisks2 ---- */

/* alice runs udisksctl ARGS...; its output in out; its exit status. */
static int udisksctl(char *out, size_t n, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { "/usr/bin/udisksctl", (char *)a1, "--no-user-interaction", (char *)a2,
			 (char *)a3, NULL };
	int rc = run_capture(&alice, argv, out, n);

	note("  alice: udisksctl %s %s %s: exit %d: %s", a1, a2, a3, rc, out);
	return rc;
}

/* "... at /media/alice/LABEL" (perhaps with a final '.'): the mount point. */
static bool mount_point(const char *out, char *dir, size_t n)
{
	const char *p = strstr(out, " at /");
	size_t len;

	if (!p)
		return false;
	p += 4;
	len = strcspn(p, "\r\n");
	while (len && (p[len - 1] == '.' || p[len - 1] == ' '))
		len--;
	if (len + 1 > n)
		return false;
	memcpy(dir, p, len);
	dir[len] = 0;
	return true;
}

/* alice mounts dev through udisks2 and runs hello from it. */
static void udisks_mount_run(const char *name, const char *dev)
{
	char out[2048], dir[PATH_MAX], path[PATH_MAX + 8];
	int rc = 1;

	for (int i = 0; i < 10 && rc; i++) {	/* udev may not have probed it yet */
		if (i)
			sleep(2);
		sh("udevadm settle -t 20");
		rc = udisksctl(out, sizeof(out), "mount", "-b", dev);
	}
	if (rc || !mount_point(out, dir, sizeof(dir))) {
		check(false, out, "%s: udisksctl mount -b %s as alice (exit %d)", name, dev, rc);
		return;
	}
	snprintf(path, sizeof(path), "%s/hello", dir);
	exec_as(name, &alice, path, true);
	udisksctl(out, sizeof(out), "unmount", "-b", dev);
}

static void chosen_udisks(void)
{
	char out[2048], dev[64], *p;
	int rc;

	policy_must_set(E | M | CF, NULL, 0, NULL, 0);
	if (sh("systemctl start udisks2.service && systemctl is-active udisks2.service")) {
		check(false, "udisks2.service did not start", "chosen 3f: udisks2");
		return;
	}
	/* alice's own image, made as she could make it, set up by udisksd. */
	image_copy(U "/imgs/udisks.img", alice.uid, alice.gid);
	rc = udisksctl(out, sizeof(out), "loop-setup", "-f", U "/imgs/udisks.img");
	p = strstr(out, "/dev/loop");
	if (rc || !p || sscanf(p, "%63[/a-z0-9]", dev) != 1) {
		check(false, out, "chosen 3f: udisksctl loop-setup -f IMG as alice (exit %d)", rc);
	} else {
		udisks_mount_run("chosen 3f: udisks2: alice's image, loop-setup and mount by udisksctl: alice's exec",
				 dev);
		udisksctl(out, sizeof(out), "loop-delete", "-b", dev);
	}

	/* A stick she brings: the second QEMU disk, root-owned files on it. */
	if (access(STICK, F_OK)) {
		check(false, "no " STICK " (tests/image/run-suite adds the stick disk for the hardening suites)",
		      "chosen 3f: the stick disk");
		return;
	}
	make_dir(BASE "/mnt-stick", 0755, 0, 0);
	if (mount(STICK, BASE "/mnt-stick", "ext4", 0, NULL))
		die("mount %s", STICK);
	exec_as("chosen 3f: root mounts the stick " STICK " without nosuid (control)", &alice,
		BASE "/mnt-stick/hello", false);
	if (umount2(BASE "/mnt-stick", 0))
		die("umount %s", BASE "/mnt-stick");
	udisks_mount_run("chosen 3f: udisks2: alice mounts the stick " STICK " with udisksctl: alice's exec",
			 STICK);
}

/* ---- 3m: a block device mapped by ld.so ---- */

static int do_ldso(void *path)
{
	char *argv[] = { "/lib64/ld-linux-x86-64.so.2", path, NULL };

	execve(argv[0], argv, empty_env);
	fail_errno(errno);
}

/* u, also in group disk (the stick's node is root:disk 0660). */
static struct user in_group_disk(const struct user *u)
{
	struct group *g = getgrnam("disk");
	struct user d = *u;

	if (!g)
		die("no group disk");
	d.ngroups = 1;
	d.groups[0] = g->gr_gid;
	return d;
}

/*
 * Her program, written raw on her stick (the stick's file system is gone:
 * the disk is opened snapshot=on), run with ld.so from the device node.
 */
static void chosen_block_device(void)
{
	uint32_t trusted[] = { bob.uid };
	struct user alice_disk = in_group_disk(&alice), bob_disk = in_group_disk(&bob);
	int in = open(hello, O_RDONLY | O_CLOEXEC), out = open(STICK, O_WRONLY | O_CLOEXEC);
	struct outcome o;
	char why[96];
	struct stat st;

	if (in < 0 || out < 0 || fstat(in, &st))
		die("open %s or %s", hello, STICK);
	for (off_t off = 0; off < st.st_size;)
		if (sendfile(out, in, &off, st.st_size - off) <= 0)
			die("write %s to %s", hello, STICK);
	if (fsync(out))
		die("fsync %s", STICK);
	close(in);
	close(out);

	policy_must_set(E | M | CF, trusted, 1, NULL, 0);
	log_quiet();
	o = run_as(&alice_disk, do_ldso, STICK);
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 127, why,
	      "chosen 3m: alice (group disk): ld.so " STICK ", her program on the disk: refused (ld.so exits 127)");
	log_check("chosen 3m: a block device", "mmap", alice.uid, "block-device", STICK);
	o = run_as(&bob_disk, do_ldso, STICK);
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 42, why,
	      "chosen 3m: bob (trusted, group disk): ld.so " STICK ": runs (control)");
	o = run_as(NULL, do_ldso, STICK);
	snprintf(why, sizeof(why), "got %s", outcome_str(o));
	check(!o.err && o.status == 42, why, "chosen 3m: root: ld.so " STICK ": runs (control)");
}

/* ---- 4: the log names the file, not the path ---- */

/* In her own user+mount namespace, her program on /dev/zero's path. */
static int do_zero_imposter(void *unused)
{
	(void)unused;
	if (enter_userns())
		return 110;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 111;
	if (mount(U "/imposter", "/dev/zero", NULL, MS_BIND, NULL))
		return 112;
	return do_exec("/dev/zero");
}

static void chosen_log_identity(void)
{
	char hers[96], zero[96], dir[96], head[64], *line;
	struct stat st;
	struct outcome o;

	copy_file(hello, U "/imposter", 0755, alice.uid, alice.gid);
	policy_must_set(E | M | CF, NULL, 0, NULL, 0);
	dev_ino(U "/imposter", hers, sizeof(hers));
	dev_ino("/dev/zero", zero, sizeof(zero));
	if (stat(U, &st))
		die("stat %s", U);
	snprintf(dir, sizeof(dir), " dir_ino=%lu ", (unsigned long)st.st_ino);
	log_quiet();
	o = run_as(&alice, do_zero_imposter, NULL);
	expect(o, true, "chosen 4: alice's program bind-mounted on /dev/zero in her own namespaces: exec");
	snprintf(head, sizeof(head), "tpe: denied exec uid=%u ", alice.uid);
	line = log_find(head, " path=/dev/zero", NULL);
	check(line, "no denial with path=/dev/zero in the kernel log",
	      "chosen 4: the denial's line says path=/dev/zero");
	if (!line)
		return;
	note("%s (hers:%s; /dev/zero's:%s)", line, hers, zero);
	check(strstr(line, hers), line, "chosen 4: the line names her file:%.*s", (int)strlen(hers) - 1,
	      hers);
	check(strstr(line, dir), line, "chosen 4: the line names her directory:%.*s",
	      (int)strlen(dir) - 1, dir);
	check(!strstr(line, zero), line, "chosen 4: the line does not name /dev/zero's inode:%.*s",
	      (int)strlen(zero) - 1, zero);
	free(line);
}

/* ---- 5: binfmt_misc C ---- */

static void chosen_binfmt(void)
{
	uint32_t trusted[] = { bob.uid };
	char entry[PATH_MAX + 64];

	if (access(BINFMT "/register", F_OK) &&
	    mount("binfmt_misc", BINFMT, "binfmt_misc", 0, NULL))
		die("mount binfmt_misc on %s", BINFMT);
	write_text(BINFMT "/tpe-chosen", "-1");	/* a leftover of an earlier run */
	/* OC: open the binary, credentials (set-user-ID) from the binary itself. */
	snprintf(entry, sizeof(entry), ":tpe-chosen:M::%s::%s:OC", MAGIC, hello);
	if (write_text(BINFMT "/register", entry))
		die("register %s", entry);
	write_file(U "/foreign-suid", MAGIC "\n", 04755, alice.uid, alice.gid);
	write_file(T "/foreign-suid-root", MAGIC "\n", 04755, 0, 0);
	write_file(T "/foreign-suid-alice", MAGIC "\n", 04755, alice.uid, alice.gid);
	write_file(T "/foreign", MAGIC "\n", 0755, 0, 0);

	policy_must_set(E | M | CF, trusted, 1, NULL, 0);
	exec_as("chosen 5: binfmt_misc entry works: alice runs a root file with its magic (control)",
		&alice, T "/foreign", false);
	log_quiet();
	exec_as("chosen 5: OC entry: trusted bob runs alice's set-user-ID file in her dir", &bob,
		U "/foreign-suid", true);
	log_check("chosen 5: the set-user-ID file is judged for alice", "exec", bob.uid,
		  "dir-owner", U "/foreign-suid");
	exec_as("chosen 5: OC entry: trusted bob runs a set-user-ID root file in a root dir (control)",
		&bob, T "/foreign-suid-root", false);
	policy_must_set(E | M, trusted, 1, NULL, 0);
	exec_as("chosen 5: OC entry, no CHECK_FILE: trusted bob runs alice's set-user-ID file in her dir",
		&bob, U "/foreign-suid", true);
	exec_as("chosen 5: OC entry, no CHECK_FILE: bob runs a set-user-ID alice file in a root dir (control)",
		&bob, T "/foreign-suid-alice", false);
	if (write_text(BINFMT "/tpe-chosen", "-1"))
		note("could not remove the binfmt_misc entry");
}

/* ---- 6: overlayfs ---- */

/* alice, root of her own namespaces, mounts an overlay of two lower dirs. */
static int do_user_overlay(void *unused)
{
	(void)unused;
	if (enter_userns())
		return 110;
	if (mount("overlay", U "/ovl", "overlay", 0,
		  "lowerdir=" DISK "/lower:" DISK "/lower2"))
		return 111;
	return do_exec(U "/ovl/hello");
}

static void chosen_overlay(void)
{
	uint32_t trusted[] = { bob.uid };
	const char *mixed = DISK "/merged/mixed/hello";
	struct stat st;
	struct outcome o;
	char why[96];

	umount2(DISK "/merged", MNT_DETACH);
	if (sh("rm -rf " DISK))
		die("rm -rf %s", DISK);
	make_dir(DISK, 0755, 0, 0);
	make_dir(DISK "/lower", 0755, 0, 0);
	make_dir(DISK "/lower2", 0755, 0, 0);
	make_dir(DISK "/lower/mixed", 0755, 0, 0);
	make_dir(DISK "/upper", 0755, 0, 0);
	make_dir(DISK "/upper/mixed", 0755, alice.uid, alice.gid);	/* alice's, above root's */
	make_dir(DISK "/work", 0755, 0, 0);
	make_dir(DISK "/merged", 0755, 0, 0);
	copy_file(hello, DISK "/lower/hello", 0755, 0, 0);
	copy_file(hello, DISK "/lower/mixed/hello", 0755, 0, 0);
	if (mount("overlay", DISK "/merged", "overlay", 0,
		  "lowerdir=" DISK "/lower,upperdir=" DISK "/upper,workdir=" DISK "/work"))
		die("mount overlay on %s", DISK "/merged");
	copy_file(hello, DISK "/merged/up-hello", 0755, 0, 0);	/* root's, in the upper layer */
	if (stat(DISK "/merged/mixed", &st) || st.st_uid != alice.uid)
		die("%s is not alice's (the upper dir's owner)", DISK "/merged/mixed");

	policy_must_set(E | M | CF, trusted, 1, NULL, 0);
	exec_as("chosen 6: root's overlay: alice runs a lower-layer root file (control)", &alice,
		DISK "/merged/hello", false);
	map_as("chosen 6: root's overlay: alice mmaps a lower file PROT_EXEC", &alice,
	       DISK "/merged/hello", MAP_X, false);
	map_as("chosen 6: root's overlay: alice mmaps a lower file PROT_READ, then mprotect PROT_EXEC",
	       &alice, DISK "/merged/hello", MAP_R_MPROTECT, false);
	exec_as("chosen 6: root's overlay: alice runs an upper-layer root file (control)", &alice,
		DISK "/merged/up-hello", false);
	map_as("chosen 6: root's overlay: alice mmaps an upper file PROT_READ, then mprotect PROT_EXEC",
	       &alice, DISK "/merged/up-hello", MAP_R_MPROTECT, false);

	/* One file, one verdict: a root file below, alice's dir above it. */
	exec_as("chosen 6: overlay file in alice's (upper) dir over root's: alice's exec", &alice,
		mixed, true);
	map_as("chosen 6: the same file: alice's mmap PROT_EXEC", &alice, mixed, MAP_X, true);
	map_as("chosen 6: the same file: alice's mmap PROT_READ, then mprotect PROT_EXEC", &alice,
	       mixed, MAP_R_MPROTECT, true);
	map_as("chosen 6: the same file: bob (trusted) mprotects PROT_EXEC (control)", &bob, mixed,
	       MAP_R_MPROTECT, false);

	/* alice's own overlay in her user namespace. */
	copy_file(hello, DISK "/lower2/hello", 0755, 0, 0);
	make_dir(U "/ovl", 0755, alice.uid, alice.gid);
	o = run_as(&alice, do_user_overlay, NULL);
	snprintf(why, sizeof(why), "got %s%s", outcome_str(o),
		 o.status >= 110 && o.status < 120 ? " (namespace or mount set-up failed)" : "");
	check(o.err == EACCES, why,
	      "chosen 6: an overlay alice mounts in her user namespace: her exec denied");
	if (umount2(DISK "/merged", 0))
		note("umount %s: %s", DISK "/merged", strerror(errno));
}

/*
 * Each case in a child of its own: a set-up that dies (no loop device, no
 * binfmt_misc) ends its case with a "not ok - chosen: setup:" line, not the
 * cases after it. True if the case had no failure.
 */
static bool run_case(const char *name, void (*fn)(void))
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fn();
		note("%s: %d passed, %d failed", name, nr_ok, nr_fail);
		exit(nr_fail ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	if (WIFSIGNALED(st))
		check(false, strsignal(WTERMSIG(st)), "%s: ran to its end", name);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/*
 * Case 3: root's mounts, loop binds and first mounts, then udisks2's
 * (make_image first: all use it), then the stick as a raw block device.
 */
static void chosen_mounts(void)
{
	make_image();
	chosen_mounts_root();
	chosen_loop_refused();
	chosen_loop_change();
	chosen_loop_race();
	chosen_first_mount();
	chosen_no_bdev();
	chosen_udisks();
	chosen_block_device();
}

static void setup(void)
{
	fresh_tmpfs(BASE, "tpe-chosen");
	make_dir(T, 0755, 0, 0);
	make_dir(U, 0755, alice.uid, alice.gid);
	copy_file(hello, T "/hello", 0755, 0, 0);
}

int main(int argc, char **argv)
{
	int failed = 0;

	(void)argc;
	(void)argv;
	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "chosen";
	helper_path("hello", hello, sizeof(hello));
	users_init();
	setup();
	failed += !run_case("case 1", chosen_file_owner);
	failed += !run_case("case 2", chosen_writer);
	failed += !run_case("case 4", chosen_log_identity);
	failed += !run_case("case 5", chosen_binfmt);
	failed += !run_case("case 6", chosen_overlay);
	failed += !run_case("case 3", chosen_mounts);
	note("%d of 6 cases failed", failed);
	return failed ? 1 : 0;
}
