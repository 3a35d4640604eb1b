// SPDX-License-Identifier: GPL-2.0
/*
 * TPE: the kernel rule, one row per verdict.
 *
 * Each row names a policy (flags and lists), a caller, a kind of path and
 * an operation (execve, mmap PROT_EXEC, mprotect PROT_EXEC, or another way
 * in: execveat on an fd, fexecve of a memfd copy, an unlinked copy run
 * through /proc/self/fd; shared mappings, anonymous memory a JIT writes),
 * and the verdict: ALLOWED or the errno. The setup of every row mounts a fresh
 * tmpfs on /tmp in a mount namespace of its own, lays out the directories
 * below, and writes the row's policy; the test runs the operation as the
 * caller with tests/lib's run_as() (fork, become, errno pipe).
 *
 *   /tmp                      root 0755 (the mount)
 *   /tmp/trusted/             root 0755
 *       hello, script         root 0755
 *       user-interp           root 0755, #!/tmp/untrusted/hello
 *       link-to-user          -> /tmp/untrusted/hello
 *       owned-by-user         untrusted's, 0755 (CHECK_FILE: file-owner)
 *       group-writable        root 0775 (file-writable)
 *       world-writable        root 0777 (file-writable)
 *   /tmp/untrusted/           untrusted's 0755: hello, script (hers)
 *       link-to-trusted       -> /tmp/trusted/hello
 *       hardlink-of-trusted   /tmp/trusted/hello, linked here
 *       bind-of-trusted/      /tmp/trusted bind-mounted here
 *   /tmp/bind-of-user/        root 0755, /tmp/untrusted bind-mounted on it
 *   /tmp/worldw/ /tmp/sticky/ /tmp/groupw/   root 0777, 01777, 0775: hello
 *   /tmp/own/ own-groupw/ own-worldw/        trusted's 0755, 0775, 0777: hello
 *   /tmp/trusted/disk         root 0644, block device: a loop device bound
 *                             to /tmp/untrusted/disk.img, untrusted's copy
 *                             of hello (only the rows that map it)
 *   /dev/zero                 the system's
 *
 * Run as root (PID 1's child in the fast tier's initramfs); it rewrites
 * tpe/policy and leaves the last row's policy live. `hello` is exit42,
 * built beside this program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "policy.h"
#include "run-as.h"

/* The verdict of a row that the kernel lets through. */
#define ALLOWED 0
/* What hello and the scripts exit with when they ran, and the mappings. */
#define RAN_STATUS 42
/* The child could not try: its file did not open or map at all. */
#define CHILD_BROKEN 120
/* Neither allowed nor an errno: what a row never expects. */
#define OTHER_OUTCOME (-1)

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U	/* linux/memfd.h, 6.3; older libc headers lack it */
#endif

#define E TPE_POLICY_ENFORCE
#define M TPE_POLICY_MMAP
#define C TPE_POLICY_CHECK_FILE
#define S TPE_POLICY_STRICT
#define I TPE_POLICY_INVERT

/* ---- callers: euid, egid and supplementary groups ---- */

enum caller_id {
	CALLER_root,
	CALLER_untrusted,	/* 1000: in no list */
	CALLER_trusted,		/* 2000: in the uid list */
	CALLER_grouped,		/* 3000: trusted by supplementary group 500 */
	CALLER_egid,		/* 3001: trusted by its egid 501 */
	CALLER_other,		/* 4000: a second untrusted user */
	CALLER_inverted,	/* 4001: listed under INVERT by group 600 */
};

static const struct user callers[] = {
	[CALLER_root] = { "root", 0, 0, 0, { 0 } },
	[CALLER_untrusted] = { "untrusted", 1000, 1000, 0, { 0 } },
	[CALLER_trusted] = { "trusted", 2000, 2000, 0, { 0 } },
	[CALLER_grouped] = { "grouped", 3000, 3000, 1, { 500 } },
	[CALLER_egid] = { "egid", 3001, 501, 0, { 0 } },
	[CALLER_other] = { "other", 4000, 4000, 0, { 0 } },
	[CALLER_inverted] = { "inverted", 4001, 4001, 1, { 600 } },
};

/* ---- policies: flags and the two lists ---- */

enum policy_id {
	POLICY_enforce_mmap,
	POLICY_enforce,
	POLICY_permissive_mmap,	/* MMAP without ENFORCE: only logs */
	POLICY_permissive,	/* no flags at all */
	POLICY_check_file,
	POLICY_check_file_mmap,
	POLICY_strict,
	POLICY_strict_mmap,
	POLICY_invert,		/* untrusted by uid, inverted by group 600 */
	POLICY_invert_mmap,
	POLICY_invert_gid,	/* untrusted's primary group listed */
	POLICY_groups_only,	/* trusted's primary group, no uids */
	POLICY_empty_lists,	/* nobody but root is trusted */
};

static const uint32_t trusted_uids[] = { 2000 };
static const uint32_t trusted_gids[] = { 500, 501 };
static const uint32_t invert_uids[] = { 1000 };
static const uint32_t invert_gids[] = { 600 };
static const uint32_t untrusted_gid[] = { 1000 };
static const uint32_t trusted_gid[] = { 2000 };

#define TRUSTED_LISTS 1, 2, trusted_uids, trusted_gids

static const struct policy policies[] = {
	[POLICY_enforce_mmap] = { E | M, TRUSTED_LISTS },
	[POLICY_enforce] = { E, TRUSTED_LISTS },
	[POLICY_permissive_mmap] = { M, TRUSTED_LISTS },
	[POLICY_permissive] = { 0, TRUSTED_LISTS },
	[POLICY_check_file] = { E | C, TRUSTED_LISTS },
	[POLICY_check_file_mmap] = { E | C | M, TRUSTED_LISTS },
	[POLICY_strict] = { E | S, TRUSTED_LISTS },
	[POLICY_strict_mmap] = { E | S | M, TRUSTED_LISTS },
	[POLICY_invert] = { E | I, 1, 1, invert_uids, invert_gids },
	[POLICY_invert_mmap] = { E | I | M, 1, 1, invert_uids, invert_gids },
	[POLICY_invert_gid] = { E | I, 0, 1, NULL, untrusted_gid },
	[POLICY_groups_only] = { E, 0, 1, NULL, trusted_gid },
	[POLICY_empty_lists] = { E, 0, 0, NULL, NULL },
};

/* ---- paths: where the file is and whose ---- */

enum path_id {
	PATH_trusted_dir,	/* root 0755 file in a root 0755 dir */
	PATH_trusted_script,	/* #!/bin/sh script there */
	PATH_user_dir,		/* untrusted's file in her 0755 dir */
	PATH_user_script,
	PATH_worldw_dir,	/* root dirs others may write */
	PATH_sticky_dir,
	PATH_groupw_dir,
	PATH_file_owner,	/* untrusted's file in a root 0755 dir */
	PATH_file_groupw,	/* root files in it others may write */
	PATH_file_worldw,
	PATH_own_dir,		/* trusted's file in his own dirs */
	PATH_own_groupw_dir,
	PATH_own_worldw_dir,
	/* ways to name a file that are not its plain path */
	PATH_user_interp,	/* trusted script, untrusted #! interpreter */
	PATH_link_to_user,	/* symlink in a trusted dir, to hers */
	PATH_link_to_trusted,	/* symlink in her dir, to a trusted file */
	PATH_hardlink_of_trusted, /* a trusted file linked into her dir */
	PATH_bind_of_user,	/* her dir bind-mounted on a root 0755 dir */
	PATH_bind_of_trusted,	/* a trusted dir bind-mounted in hers */
	/* what is not a regular file */
	PATH_block_device,	/* a loop device on her file, in a trusted dir */
	PATH_dev_zero,		/* a character device: memory */
	PATH_anonymous,		/* no file: anonymous memory */
};

static const char *const paths[] = {
	[PATH_trusted_dir] = "/tmp/trusted/hello",
	[PATH_trusted_script] = "/tmp/trusted/script",
	[PATH_user_dir] = "/tmp/untrusted/hello",
	[PATH_user_script] = "/tmp/untrusted/script",
	[PATH_worldw_dir] = "/tmp/worldw/hello",
	[PATH_sticky_dir] = "/tmp/sticky/hello",
	[PATH_groupw_dir] = "/tmp/groupw/hello",
	[PATH_file_owner] = "/tmp/trusted/owned-by-user",
	[PATH_file_groupw] = "/tmp/trusted/group-writable",
	[PATH_file_worldw] = "/tmp/trusted/world-writable",
	[PATH_own_dir] = "/tmp/own/hello",
	[PATH_own_groupw_dir] = "/tmp/own-groupw/hello",
	[PATH_own_worldw_dir] = "/tmp/own-worldw/hello",
	[PATH_user_interp] = "/tmp/trusted/user-interp",
	[PATH_link_to_user] = "/tmp/trusted/link-to-user",
	[PATH_link_to_trusted] = "/tmp/untrusted/link-to-trusted",
	[PATH_hardlink_of_trusted] = "/tmp/untrusted/hardlink-of-trusted",
	[PATH_bind_of_user] = "/tmp/bind-of-user/hello",
	[PATH_bind_of_trusted] = "/tmp/untrusted/bind-of-trusted/hello",
	[PATH_block_device] = "/tmp/trusted/disk",
	[PATH_dev_zero] = "/dev/zero",
	[PATH_anonymous] = "(anonymous memory)",
};

/* The file the loop device of PATH_block_device presents. */
#define DISK_IMAGE "/tmp/untrusted/disk.img"

/*
 * execve of the path; mmap or mprotect to PROT_EXEC of the file, private
 * or shared; execveat (AT_EMPTY_PATH) of an fd opened O_RDONLY or O_PATH;
 * fexecve of a memfd copy; a copy the caller makes in /tmp/worldw, opens,
 * unlinks and runs through /proc/self/fd; code written into anonymous
 * memory, made executable and called, as a JIT does.
 */
enum op_id {
	OP_exec, OP_mmap, OP_mprotect, OP_mmap_shared, OP_mprotect_shared,
	OP_execveat, OP_execveat_opath, OP_memfd, OP_procfd, OP_jit,
};

/* ---- the layout ---- */

static char hello_src[PATH_MAX];	/* exit42, beside this program */

static int make_dir(const char *path, mode_t mode, uid_t owner)
{
	if (mkdir(path, 0700) || chown(path, owner, owner) ||
	    chmod(path, mode))
		return errno;
	return 0;
}

/* Copy the file at src to out; 0 or an errno. */
static int copy_to(int out, const char *src)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (in < 0)
		return errno;
	while (!err && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			err = EIO;
	close(in);
	return err;
}

static int make_file(const char *path, const char *text, mode_t mode,
		     uid_t owner)
{
	int out, err = 0;

	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0)
		return errno;
	if (text) {
		if (write(out, text, strlen(text)) != (ssize_t)strlen(text))
			err = EIO;
	} else {
		err = copy_to(out, hello_src);
	}
	if (!err && (fchown(out, owner, owner) || fchmod(out, mode)))
		err = errno;
	close(out);
	return err;
}

#define SCRIPT "#!/bin/sh\nexit 42\n"

static int make_layout(void)
{
	const uid_t user = callers[CALLER_untrusted].uid;
	const uid_t trusted = callers[CALLER_trusted].uid;
	int err = 0;

	/* A mount of our own: every row starts from the same files. */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tpe-selftest", "/tmp", "tmpfs", 0, "mode=0755"))
		return errno;
	err = err ?: make_dir("/tmp/trusted", 0755, 0);
	err = err ?: make_file(paths[PATH_trusted_dir], NULL, 0755, 0);
	err = err ?: make_file(paths[PATH_trusted_script], SCRIPT, 0755, 0);
	err = err ?: make_file(paths[PATH_file_owner], NULL, 0755, user);
	err = err ?: make_file(paths[PATH_file_groupw], NULL, 0775, 0);
	err = err ?: make_file(paths[PATH_file_worldw], NULL, 0777, 0);
	err = err ?: make_dir("/tmp/untrusted", 0755, user);
	err = err ?: make_file(paths[PATH_user_dir], NULL, 0755, user);
	err = err ?: make_file(paths[PATH_user_script], SCRIPT, 0755, user);
	err = err ?: make_dir("/tmp/worldw", 0777, 0);
	err = err ?: make_file(paths[PATH_worldw_dir], NULL, 0755, 0);
	err = err ?: make_dir("/tmp/sticky", 01777, 0);
	err = err ?: make_file(paths[PATH_sticky_dir], NULL, 0755, 0);
	err = err ?: make_dir("/tmp/groupw", 0775, 0);
	err = err ?: make_file(paths[PATH_groupw_dir], NULL, 0755, 0);
	err = err ?: make_dir("/tmp/own", 0755, trusted);
	err = err ?: make_file(paths[PATH_own_dir], NULL, 0755, trusted);
	err = err ?: make_dir("/tmp/own-groupw", 0775, trusted);
	err = err ?: make_file(paths[PATH_own_groupw_dir], NULL, 0755, trusted);
	err = err ?: make_dir("/tmp/own-worldw", 0777, trusted);
	err = err ?: make_file(paths[PATH_own_worldw_dir], NULL, 0755, trusted);
	err = err ?: make_file(paths[PATH_user_interp],
			       "#!/tmp/untrusted/hello\n", 0755, 0);
	if (!err &&
	    (symlink(paths[PATH_user_dir], paths[PATH_link_to_user]) ||
	     symlink(paths[PATH_trusted_dir], paths[PATH_link_to_trusted]) ||
	     link(paths[PATH_trusted_dir], paths[PATH_hardlink_of_trusted])))
		err = errno;
	/* Not MS_REC: neither bind carries the other with it. */
	err = err ?: make_dir("/tmp/untrusted/bind-of-trusted", 0755, 0);
	if (!err && mount("/tmp/trusted", "/tmp/untrusted/bind-of-trusted",
			  NULL, MS_BIND, NULL))
		err = errno;
	err = err ?: make_dir("/tmp/bind-of-user", 0755, 0);
	if (!err && mount("/tmp/untrusted", "/tmp/bind-of-user", NULL, MS_BIND,
			  NULL))
		err = errno;
	return err;
}

/*
 * PATH_block_device: a loop device bound to a copy of hello that the
 * untrusted user owns (her bytes on a disk), its node root's 0644 in the
 * trusted directory. The device clears itself (LO_FLAGS_AUTOCLEAR) when
 * *loop, kept open by the row, is closed with it. 0, an errno, or -1 when
 * the kernel has no loop devices.
 */
static int make_block_device(int *loop)
{
	const uid_t user = callers[CALLER_untrusted].uid;
	struct loop_config config = {
		.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_READ_ONLY,
	};
	char dev[32];
	struct stat st;
	int ctl, n, image, err;

	err = make_file(DISK_IMAGE, NULL, 0644, user);
	if (err)
		return err;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return errno == ENOENT ? -1 : errno;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	err = n < 0 ? errno : 0;
	close(ctl);
	if (err)
		return err;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	*loop = open(dev, O_RDONLY | O_CLOEXEC);
	image = open(DISK_IMAGE, O_RDONLY | O_CLOEXEC);
	config.fd = image;
	if (*loop < 0 || image < 0 ||
	    ioctl(*loop, LOOP_CONFIGURE, &config) || fstat(*loop, &st) ||
	    mknod(paths[PATH_block_device], S_IFBLK | 0644, st.st_rdev))
		err = errno;
	if (image >= 0)
		close(image);
	return err;
}

/* ---- trying an operation as a caller ---- */

struct attempt {
	enum op_id op;
	const char *path;
};

/*
 * A copy of src that the caller makes in the world-writable /tmp/worldw,
 * opens, unlinks, and runs by its /proc/self/fd name: the file has no
 * name left, its directory is still where it was made.
 */
static int try_unlinked(const char *src)
{
	char copy[64], fdpath[64];
	char *const argv[] = { fdpath, NULL }, *const envp[] = { NULL };
	int out, fd;

	snprintf(copy, sizeof(copy), "/tmp/worldw/unlinked.%d", getpid());
	out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0 || copy_to(out, src) || close(out))
		return CHILD_BROKEN;
	fd = open(copy, O_RDONLY);
	if (fd < 0 || unlink(copy))
		return CHILD_BROKEN;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	execve(fdpath, argv, envp);
	fail_errno(errno);
}

/*
 * What a JIT does: write code into anonymous memory, make it executable,
 * run it. The code is x86-64 "mov $42, %eax; ret".
 */
static int try_jit(void)
{
	static const unsigned char code[] = { 0xb8, 42, 0, 0, 0, 0xc3 };
	int (*fn)(void);
	void *p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return CHILD_BROKEN;
	memcpy(p, code, sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		fail_errno(errno);
	fn = (int (*)(void))p;
	return fn();
}

/*
 * In a child that run_as() made the caller: an exec that fails, and a
 * mapping the kernel refuses, report their errno through run_as()'s pipe;
 * what works exits RAN_STATUS (the exec'd program does it itself).
 */
static int try_op(void *arg)
{
	const struct attempt *a = arg;
	char *const argv[] = { (char *)a->path, NULL }, *const envp[] = { NULL };
	bool shared = a->op == OP_mmap_shared || a->op == OP_mprotect_shared;
	int map = shared ? MAP_SHARED : MAP_PRIVATE;
	void *p;
	int fd;

	switch (a->op) {
	case OP_exec:
		execve(a->path, argv, envp);
		fail_errno(errno);
	case OP_execveat:
	case OP_execveat_opath:
		fd = open(a->path, (a->op == OP_execveat ? O_RDONLY : O_PATH));
		if (fd < 0)
			return CHILD_BROKEN;
		syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		fail_errno(errno);
	case OP_memfd:
		fd = memfd_create("tpe-selftest", MFD_EXEC);
		if (fd < 0 || copy_to(fd, a->path))
			return CHILD_BROKEN;
		fexecve(fd, argv, envp);
		fail_errno(errno);
	case OP_procfd:
		return try_unlinked(a->path);
	case OP_jit:
		return try_jit();
	case OP_mmap:
	case OP_mprotect:
	case OP_mmap_shared:
	case OP_mprotect_shared:
		break;
	}
	fd = open(a->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CHILD_BROKEN;
	if (a->op == OP_mmap || a->op == OP_mmap_shared) {
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, map, fd, 0);
		if (p == MAP_FAILED)
			fail_errno(errno);
		return RAN_STATUS;
	}
	/* Mapping without PROT_EXEC is never TPE's business. */
	p = mmap(NULL, 4096, PROT_READ, map, fd, 0);
	if (p == MAP_FAILED)
		return CHILD_BROKEN;
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		fail_errno(errno);
	return RAN_STATUS;
}

/* ---- whether the rows can run here ---- */

#define LSM_LIST "/sys/kernel/security/lsm"

/*
 * Why tpe's rule cannot be tried here, into @why; false when it can: tpe
 * is in the list of active LSMs and its policy file is there.
 */
static bool tpe_inactive(char *why, size_t cap)
{
	char list[512], *lsm, *save;
	ssize_t n = -1;
	int fd = open(LSM_LIST, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, list, sizeof(list) - 1);
		close(fd);
	}
	if (n < 0) {
		snprintf(why, cap, "cannot read %s: %s (securityfs not mounted?)",
			 LSM_LIST, strerror(errno));
		return true;
	}
	list[n] = '\0';
	list[strcspn(list, "\n")] = '\0';
	snprintf(why, cap, "tpe is not an active LSM (%s: %s)", LSM_LIST, list);
	for (lsm = strtok_r(list, ",", &save); lsm;
	     lsm = strtok_r(NULL, ",", &save))
		if (!strcmp(lsm, "tpe"))
			break;
	if (!lsm)
		return true;
	if (access(POLICY_PATH, F_OK)) {
		snprintf(why, cap, "tpe is active but %s is missing: %s",
			 POLICY_PATH, strerror(errno));
		return true;
	}
	return false;
}

/* ---- the matrix ---- */

FIXTURE(tpe) {
	int loop;	/* PATH_block_device's loop device, or -1 */
};

FIXTURE_VARIANT(tpe)
{
	const enum policy_id policy;
	const enum caller_id caller;
	const enum path_id path;
	const enum op_id op;
	const int expected;	/* ALLOWED or the errno */
};

FIXTURE_SETUP(tpe)
{
	char why[1024];
	int err;

	/* Each row writes tpe/policy, mounts, and becomes another user. */
	if (geteuid())
		SKIP(return, "not root (euid %u): the rows need root", geteuid());
	if (tpe_inactive(why, sizeof(why)))
		SKIP(return, "%s", why);
	err = make_layout();
	ASSERT_EQ(0, err) {
		TH_LOG("laying out /tmp: %s", strerror(err));
	}
	self->loop = -1;
	if (variant->path == PATH_block_device) {
		err = make_block_device(&self->loop);
		if (err == -1)
			SKIP(return, "no loop devices (CONFIG_BLK_DEV_LOOP)");
		ASSERT_EQ(0, err) {
			TH_LOG("binding a loop device: %s", strerror(err));
		}
	}
	err = policy_set(&policies[variant->policy]);
	ASSERT_EQ(0, err) {
		TH_LOG("writing the policy: %s", strerror(err));
	}
}

FIXTURE_TEARDOWN(tpe)
{
	/*
	 * The mount namespace, and the tmpfs with it, go with the child; the
	 * loop device clears itself once its last descriptor is closed.
	 */
	if (self->loop >= 0)
		close(self->loop);
}

TEST_F(tpe, verdict)
{
	struct attempt a = { variant->op, paths[variant->path] };
	const struct user *caller = &callers[variant->caller];
	struct outcome o = run_as(caller, try_op, &a);
	int got = o.err ?: (o.status == RAN_STATUS ? ALLOWED : OTHER_OUTCOME);

	EXPECT_EQ(variant->expected, got) {
		TH_LOG("%s as %s: %s", a.path, caller->name, outcome_str(o));
	}
}

/*
 * One row: ROW(policy, caller, path, op, verdict) is the variant
 * policy_caller_path_op_verdict, e.g. enforce_untrusted_user_dir_exec_EACCES.
 */
#define ROW(policy_, caller_, path_, op_, want_)			\
	FIXTURE_VARIANT_ADD(tpe,					\
		policy_##_##caller_##_##path_##_##op_##_##want_) {	\
		.policy = POLICY_##policy_,				\
		.caller = CALLER_##caller_,				\
		.path = PATH_##path_,					\
		.op = OP_##op_,						\
		.expected = want_,					\
	}

/* clang-format off */

/*
 * The four flag sets: a way in is denied to an untrusted caller when the
 * flag that covers it is on (ENFORCE for exec, ENFORCE and MMAP for a
 * mapping), never to a trusted one, never from a trusted directory.
 */
ROW(enforce_mmap, untrusted, user_dir, exec, EACCES);
ROW(enforce_mmap, untrusted, user_script, exec, EACCES);
ROW(enforce_mmap, untrusted, sticky_dir, exec, EACCES);
ROW(enforce_mmap, untrusted, groupw_dir, exec, EACCES);
ROW(enforce_mmap, untrusted, user_dir, mmap, EACCES);
ROW(enforce_mmap, untrusted, user_dir, mprotect, EACCES);
ROW(enforce_mmap, untrusted, trusted_dir, exec, ALLOWED);
ROW(enforce_mmap, untrusted, trusted_script, exec, ALLOWED);
ROW(enforce_mmap, untrusted, trusted_dir, mmap, ALLOWED);
ROW(enforce_mmap, untrusted, trusted_dir, mprotect, ALLOWED);
ROW(enforce_mmap, trusted, user_dir, exec, ALLOWED);
ROW(enforce_mmap, trusted, user_script, exec, ALLOWED);
ROW(enforce_mmap, trusted, sticky_dir, exec, ALLOWED);
ROW(enforce_mmap, trusted, groupw_dir, exec, ALLOWED);
ROW(enforce_mmap, trusted, user_dir, mmap, ALLOWED);
ROW(enforce_mmap, trusted, user_dir, mprotect, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, exec, ALLOWED);
ROW(enforce_mmap, trusted, trusted_script, exec, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, mmap, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, mprotect, ALLOWED);

ROW(enforce, untrusted, user_dir, exec, EACCES);
ROW(enforce, untrusted, user_script, exec, EACCES);
ROW(enforce, untrusted, sticky_dir, exec, EACCES);
ROW(enforce, untrusted, groupw_dir, exec, EACCES);
ROW(enforce, untrusted, user_dir, mmap, ALLOWED);
ROW(enforce, untrusted, user_dir, mprotect, ALLOWED);
ROW(enforce, untrusted, trusted_dir, exec, ALLOWED);
ROW(enforce, untrusted, trusted_script, exec, ALLOWED);
ROW(enforce, untrusted, trusted_dir, mmap, ALLOWED);
ROW(enforce, untrusted, trusted_dir, mprotect, ALLOWED);
ROW(enforce, trusted, user_dir, exec, ALLOWED);
ROW(enforce, trusted, user_script, exec, ALLOWED);
ROW(enforce, trusted, sticky_dir, exec, ALLOWED);
ROW(enforce, trusted, groupw_dir, exec, ALLOWED);
ROW(enforce, trusted, user_dir, mmap, ALLOWED);
ROW(enforce, trusted, user_dir, mprotect, ALLOWED);
ROW(enforce, trusted, trusted_dir, exec, ALLOWED);
ROW(enforce, trusted, trusted_script, exec, ALLOWED);
ROW(enforce, trusted, trusted_dir, mmap, ALLOWED);
ROW(enforce, trusted, trusted_dir, mprotect, ALLOWED);

ROW(permissive_mmap, untrusted, user_dir, exec, ALLOWED);
ROW(permissive_mmap, untrusted, user_script, exec, ALLOWED);
ROW(permissive_mmap, untrusted, sticky_dir, exec, ALLOWED);
ROW(permissive_mmap, untrusted, groupw_dir, exec, ALLOWED);
ROW(permissive_mmap, untrusted, user_dir, mmap, ALLOWED);
ROW(permissive_mmap, untrusted, user_dir, mprotect, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, exec, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_script, exec, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, mmap, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, mprotect, ALLOWED);
ROW(permissive_mmap, trusted, user_dir, exec, ALLOWED);
ROW(permissive_mmap, trusted, user_script, exec, ALLOWED);
ROW(permissive_mmap, trusted, sticky_dir, exec, ALLOWED);
ROW(permissive_mmap, trusted, groupw_dir, exec, ALLOWED);
ROW(permissive_mmap, trusted, user_dir, mmap, ALLOWED);
ROW(permissive_mmap, trusted, user_dir, mprotect, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, exec, ALLOWED);
ROW(permissive_mmap, trusted, trusted_script, exec, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, mmap, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, mprotect, ALLOWED);

ROW(permissive, untrusted, user_dir, exec, ALLOWED);
ROW(permissive, untrusted, user_script, exec, ALLOWED);
ROW(permissive, untrusted, sticky_dir, exec, ALLOWED);
ROW(permissive, untrusted, groupw_dir, exec, ALLOWED);
ROW(permissive, untrusted, user_dir, mmap, ALLOWED);
ROW(permissive, untrusted, user_dir, mprotect, ALLOWED);
ROW(permissive, untrusted, trusted_dir, exec, ALLOWED);
ROW(permissive, untrusted, trusted_script, exec, ALLOWED);
ROW(permissive, untrusted, trusted_dir, mmap, ALLOWED);
ROW(permissive, untrusted, trusted_dir, mprotect, ALLOWED);
ROW(permissive, trusted, user_dir, exec, ALLOWED);
ROW(permissive, trusted, user_script, exec, ALLOWED);
ROW(permissive, trusted, sticky_dir, exec, ALLOWED);
ROW(permissive, trusted, groupw_dir, exec, ALLOWED);
ROW(permissive, trusted, user_dir, mmap, ALLOWED);
ROW(permissive, trusted, user_dir, mprotect, ALLOWED);
ROW(permissive, trusted, trusted_dir, exec, ALLOWED);
ROW(permissive, trusted, trusted_script, exec, ALLOWED);
ROW(permissive, trusted, trusted_dir, mmap, ALLOWED);
ROW(permissive, trusted, trusted_dir, mprotect, ALLOWED);

/* Who is trusted: root always, a listed uid, a listed group or egid. */
ROW(enforce, root, user_dir, exec, ALLOWED);
ROW(enforce, grouped, user_dir, exec, ALLOWED);
ROW(enforce, egid, user_dir, exec, ALLOWED);
ROW(enforce, other, user_dir, exec, EACCES);
ROW(enforce_mmap, root, user_dir, exec, ALLOWED);
ROW(enforce_mmap, root, user_dir, mmap, ALLOWED);
ROW(enforce_mmap, root, user_dir, mprotect, ALLOWED);
ROW(enforce_mmap, grouped, user_dir, mmap, ALLOWED);
ROW(enforce_mmap, egid, user_dir, mprotect, ALLOWED);
ROW(enforce_mmap, other, user_dir, mmap, EACCES);
ROW(groups_only, trusted, user_dir, exec, ALLOWED);
ROW(groups_only, untrusted, user_dir, exec, EACCES);
ROW(groups_only, grouped, user_dir, exec, EACCES);
ROW(empty_lists, trusted, user_dir, exec, EACCES);
ROW(empty_lists, trusted, trusted_dir, exec, ALLOWED);
ROW(empty_lists, untrusted, user_dir, exec, EACCES);
ROW(empty_lists, root, user_dir, exec, ALLOWED);

/* Directories others may write: never trusted, for exec and mappings. */
ROW(enforce, untrusted, worldw_dir, exec, EACCES);
ROW(enforce_mmap, untrusted, worldw_dir, exec, EACCES);
ROW(enforce_mmap, untrusted, worldw_dir, mmap, EACCES);
ROW(enforce_mmap, untrusted, sticky_dir, mmap, EACCES);
ROW(enforce_mmap, untrusted, groupw_dir, mmap, EACCES);
ROW(enforce_mmap, untrusted, groupw_dir, mprotect, EACCES);
ROW(enforce_mmap, trusted, sticky_dir, mmap, ALLOWED);

/*
 * A file in a trusted dir: one others may write is never trusted
 * (file-writable); one its user owns only under CHECK_FILE (file-owner).
 */
ROW(enforce, untrusted, file_owner, exec, ALLOWED);
ROW(enforce, untrusted, file_groupw, exec, EACCES);
ROW(enforce, untrusted, file_worldw, exec, EACCES);
ROW(enforce, trusted, file_groupw, exec, ALLOWED);
ROW(enforce, trusted, file_worldw, exec, ALLOWED);
ROW(enforce_mmap, untrusted, file_groupw, mmap, EACCES);
ROW(enforce_mmap, untrusted, file_worldw, mprotect, EACCES);
ROW(enforce_mmap, untrusted, file_owner, mmap, ALLOWED);
ROW(enforce_mmap, trusted, file_groupw, mmap, ALLOWED);
ROW(check_file, untrusted, file_owner, exec, EACCES);
ROW(check_file, untrusted, file_groupw, exec, EACCES);
ROW(check_file, untrusted, file_worldw, exec, EACCES);
ROW(check_file, untrusted, trusted_dir, exec, ALLOWED);
ROW(check_file, untrusted, user_dir, exec, EACCES);
ROW(check_file, trusted, file_owner, exec, ALLOWED);
ROW(check_file, root, file_owner, exec, ALLOWED);
ROW(check_file, other, file_owner, exec, EACCES);
ROW(check_file_mmap, untrusted, file_owner, mmap, EACCES);
ROW(check_file_mmap, untrusted, file_owner, mprotect, EACCES);
ROW(check_file_mmap, untrusted, trusted_dir, mmap, ALLOWED);
ROW(check_file_mmap, trusted, file_owner, mmap, ALLOWED);

/* STRICT: a trusted user other than root runs only from safe dirs of root
 * or his own. */
ROW(enforce, trusted, own_worldw_dir, exec, ALLOWED);
ROW(strict, trusted, user_dir, exec, EACCES);
ROW(strict, trusted, sticky_dir, exec, EACCES);
ROW(strict, trusted, own_dir, exec, ALLOWED);
ROW(strict, trusted, own_groupw_dir, exec, EACCES);
ROW(strict, trusted, own_worldw_dir, exec, EACCES);
ROW(strict, trusted, trusted_dir, exec, ALLOWED);
ROW(strict, grouped, user_dir, exec, EACCES);
ROW(strict, root, user_dir, exec, ALLOWED);
ROW(strict, untrusted, user_dir, exec, EACCES);
ROW(strict, untrusted, own_dir, exec, EACCES);
ROW(strict, untrusted, trusted_dir, exec, ALLOWED);
ROW(strict_mmap, trusted, user_dir, mmap, EACCES);
ROW(strict_mmap, trusted, user_dir, mprotect, EACCES);
ROW(strict_mmap, trusted, own_dir, mmap, ALLOWED);

/* INVERT: the lists name the untrusted, by uid or by any group. */
ROW(invert, untrusted, user_dir, exec, EACCES);
ROW(invert, inverted, user_dir, exec, EACCES);
ROW(invert, other, user_dir, exec, ALLOWED);
ROW(invert, trusted, user_dir, exec, ALLOWED);
ROW(invert, root, user_dir, exec, ALLOWED);
ROW(invert, untrusted, trusted_dir, exec, ALLOWED);
ROW(invert_mmap, untrusted, user_dir, mmap, EACCES);
ROW(invert_mmap, inverted, user_dir, mprotect, EACCES);
ROW(invert_mmap, other, user_dir, mmap, ALLOWED);
ROW(invert_gid, untrusted, user_dir, exec, EACCES);
ROW(invert_gid, trusted, user_dir, exec, ALLOWED);
ROW(invert_gid, untrusted, trusted_dir, exec, ALLOWED);
ROW(invert_gid, other, user_dir, exec, ALLOWED);

/*
 * Other ways in (all covered by ENFORCE: each is an exec): the verdict
 * follows the file that runs and the directory it was reached through,
 * whatever names it. A memfd or an unlinked file in a writable directory
 * is never in a trusted path. The same ways in to a trusted file, and
 * every way in for a trusted caller, are allowed.
 */
ROW(enforce_mmap, untrusted, user_interp, exec, EACCES);
ROW(enforce_mmap, untrusted, user_dir, execveat, EACCES);
ROW(enforce_mmap, untrusted, user_dir, execveat_opath, EACCES);
ROW(enforce_mmap, untrusted, trusted_dir, memfd, EACCES);
ROW(enforce_mmap, untrusted, trusted_dir, procfd, EACCES);
ROW(enforce_mmap, untrusted, link_to_user, exec, EACCES);
ROW(enforce_mmap, untrusted, hardlink_of_trusted, exec, EACCES);
ROW(enforce_mmap, untrusted, bind_of_user, exec, EACCES);
ROW(enforce_mmap, untrusted, trusted_dir, execveat, ALLOWED);
ROW(enforce_mmap, untrusted, trusted_dir, execveat_opath, ALLOWED);
ROW(enforce_mmap, untrusted, link_to_trusted, exec, ALLOWED);
ROW(enforce_mmap, untrusted, bind_of_trusted, exec, ALLOWED);
ROW(enforce_mmap, trusted, user_interp, exec, ALLOWED);
ROW(enforce_mmap, trusted, user_dir, execveat, ALLOWED);
ROW(enforce_mmap, trusted, user_dir, execveat_opath, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, memfd, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, procfd, ALLOWED);
ROW(enforce_mmap, trusted, link_to_user, exec, ALLOWED);
ROW(enforce_mmap, trusted, hardlink_of_trusted, exec, ALLOWED);
ROW(enforce_mmap, trusted, bind_of_user, exec, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, execveat, ALLOWED);
ROW(enforce_mmap, trusted, trusted_dir, execveat_opath, ALLOWED);
ROW(enforce_mmap, trusted, link_to_trusted, exec, ALLOWED);
ROW(enforce_mmap, trusted, bind_of_trusted, exec, ALLOWED);

ROW(enforce, untrusted, user_interp, exec, EACCES);
ROW(enforce, untrusted, user_dir, execveat, EACCES);
ROW(enforce, untrusted, user_dir, execveat_opath, EACCES);
ROW(enforce, untrusted, trusted_dir, memfd, EACCES);
ROW(enforce, untrusted, trusted_dir, procfd, EACCES);
ROW(enforce, untrusted, link_to_user, exec, EACCES);
ROW(enforce, untrusted, hardlink_of_trusted, exec, EACCES);
ROW(enforce, untrusted, bind_of_user, exec, EACCES);
ROW(enforce, untrusted, trusted_dir, execveat, ALLOWED);
ROW(enforce, untrusted, trusted_dir, execveat_opath, ALLOWED);
ROW(enforce, untrusted, link_to_trusted, exec, ALLOWED);
ROW(enforce, untrusted, bind_of_trusted, exec, ALLOWED);
ROW(enforce, trusted, user_interp, exec, ALLOWED);
ROW(enforce, trusted, user_dir, execveat, ALLOWED);
ROW(enforce, trusted, user_dir, execveat_opath, ALLOWED);
ROW(enforce, trusted, trusted_dir, memfd, ALLOWED);
ROW(enforce, trusted, trusted_dir, procfd, ALLOWED);
ROW(enforce, trusted, link_to_user, exec, ALLOWED);
ROW(enforce, trusted, hardlink_of_trusted, exec, ALLOWED);
ROW(enforce, trusted, bind_of_user, exec, ALLOWED);
ROW(enforce, trusted, trusted_dir, execveat, ALLOWED);
ROW(enforce, trusted, trusted_dir, execveat_opath, ALLOWED);
ROW(enforce, trusted, link_to_trusted, exec, ALLOWED);
ROW(enforce, trusted, bind_of_trusted, exec, ALLOWED);

ROW(permissive_mmap, untrusted, user_interp, exec, ALLOWED);
ROW(permissive_mmap, untrusted, user_dir, execveat, ALLOWED);
ROW(permissive_mmap, untrusted, user_dir, execveat_opath, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, memfd, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, procfd, ALLOWED);
ROW(permissive_mmap, untrusted, link_to_user, exec, ALLOWED);
ROW(permissive_mmap, untrusted, hardlink_of_trusted, exec, ALLOWED);
ROW(permissive_mmap, untrusted, bind_of_user, exec, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, execveat, ALLOWED);
ROW(permissive_mmap, untrusted, trusted_dir, execveat_opath, ALLOWED);
ROW(permissive_mmap, untrusted, link_to_trusted, exec, ALLOWED);
ROW(permissive_mmap, untrusted, bind_of_trusted, exec, ALLOWED);
ROW(permissive_mmap, trusted, user_interp, exec, ALLOWED);
ROW(permissive_mmap, trusted, user_dir, execveat, ALLOWED);
ROW(permissive_mmap, trusted, user_dir, execveat_opath, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, memfd, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, procfd, ALLOWED);
ROW(permissive_mmap, trusted, link_to_user, exec, ALLOWED);
ROW(permissive_mmap, trusted, hardlink_of_trusted, exec, ALLOWED);
ROW(permissive_mmap, trusted, bind_of_user, exec, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, execveat, ALLOWED);
ROW(permissive_mmap, trusted, trusted_dir, execveat_opath, ALLOWED);
ROW(permissive_mmap, trusted, link_to_trusted, exec, ALLOWED);
ROW(permissive_mmap, trusted, bind_of_trusted, exec, ALLOWED);

ROW(permissive, untrusted, user_interp, exec, ALLOWED);
ROW(permissive, untrusted, user_dir, execveat, ALLOWED);
ROW(permissive, untrusted, user_dir, execveat_opath, ALLOWED);
ROW(permissive, untrusted, trusted_dir, memfd, ALLOWED);
ROW(permissive, untrusted, trusted_dir, procfd, ALLOWED);
ROW(permissive, untrusted, link_to_user, exec, ALLOWED);
ROW(permissive, untrusted, hardlink_of_trusted, exec, ALLOWED);
ROW(permissive, untrusted, bind_of_user, exec, ALLOWED);
ROW(permissive, untrusted, trusted_dir, execveat, ALLOWED);
ROW(permissive, untrusted, trusted_dir, execveat_opath, ALLOWED);
ROW(permissive, untrusted, link_to_trusted, exec, ALLOWED);
ROW(permissive, untrusted, bind_of_trusted, exec, ALLOWED);
ROW(permissive, trusted, user_interp, exec, ALLOWED);
ROW(permissive, trusted, user_dir, execveat, ALLOWED);
ROW(permissive, trusted, user_dir, execveat_opath, ALLOWED);
ROW(permissive, trusted, trusted_dir, memfd, ALLOWED);
ROW(permissive, trusted, trusted_dir, procfd, ALLOWED);
ROW(permissive, trusted, link_to_user, exec, ALLOWED);
ROW(permissive, trusted, hardlink_of_trusted, exec, ALLOWED);
ROW(permissive, trusted, bind_of_user, exec, ALLOWED);
ROW(permissive, trusted, trusted_dir, execveat, ALLOWED);
ROW(permissive, trusted, trusted_dir, execveat_opath, ALLOWED);
ROW(permissive, trusted, link_to_trusted, exec, ALLOWED);
ROW(permissive, trusted, bind_of_trusted, exec, ALLOWED);

/*
 * What is not a regular file. A block device holds what was written to
 * its disk (here a loop device on her file): refused to an untrusted
 * caller however it is mapped, its node root's in a trusted directory.
 * A character device (/dev/zero) and anonymous memory a JIT writes are
 * memory: allowed. execve() of a device is refused by exec itself.
 */
ROW(enforce_mmap, untrusted, block_device, mmap, EACCES);
ROW(enforce_mmap, untrusted, block_device, mprotect, EACCES);
ROW(enforce_mmap, untrusted, block_device, mmap_shared, EACCES);
ROW(enforce_mmap, untrusted, block_device, mprotect_shared, EACCES);
ROW(enforce_mmap, other, block_device, mmap, EACCES);
ROW(strict_mmap, trusted, block_device, mmap, EACCES);
ROW(enforce_mmap, root, block_device, mmap, ALLOWED);
ROW(enforce_mmap, root, block_device, mprotect, ALLOWED);
ROW(enforce_mmap, trusted, block_device, mmap, ALLOWED);
ROW(enforce_mmap, trusted, block_device, mprotect_shared, ALLOWED);
ROW(enforce, untrusted, block_device, mmap, ALLOWED);
ROW(permissive_mmap, untrusted, block_device, mmap, ALLOWED);
ROW(enforce_mmap, untrusted, dev_zero, mmap, ALLOWED);
ROW(enforce_mmap, untrusted, dev_zero, mprotect, ALLOWED);
ROW(enforce_mmap, untrusted, dev_zero, mmap_shared, ALLOWED);
ROW(enforce_mmap, untrusted, dev_zero, mprotect_shared, ALLOWED);
ROW(strict_mmap, trusted, dev_zero, mmap_shared, ALLOWED);
ROW(enforce_mmap, untrusted, anonymous, jit, ALLOWED);
ROW(strict_mmap, trusted, anonymous, jit, ALLOWED);
/* clang-format on */

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0) {
		perror("readlink /proc/self/exe");
		return KSFT_FAIL;
	}
	self[n] = '\0';
	snprintf(hello_src, sizeof(hello_src), "%s/exit42", dirname(self));
	return test_harness_run(argc, argv);
}
