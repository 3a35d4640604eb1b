// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-test: the fast tier's checks of the TPE LSM, run as root (PID 1's
 * child) in a busybox initramfs. Each check prints `ok - NAME` or
 * `not ok - NAME: REASON` on stdout, which /init sends to ttyS1.
 *
 *   tpe-test setup       make the users' directories and files
 *   tpe-test main        the boot policy first, then the policy file, the
 *                        kernel log and audit records, the counters
 *   tpe-test lock        LOCK, which lasts until reboot: run it last
 *   tpe-test permissive  for a boot with tpe.enforce=0
 *
 * Which verdict a policy gives which caller for which file (the kernel
 * rule's matrix) is tests/selftests/tpe, run between main and lock; the
 * execs here are those whose log lines or counters are checked, and
 * those of the boot policy and LOCK.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/tpe.h>

#include "policy.h"
#include "results.h"
#include "run-as.h"

#define POLICY POLICY_PATH
#define STATS "/sys/kernel/security/tpe/stats"
#define HELLO "/bin/hello"

/*
 * A child reports an errno with fail_errno() (tests/lib/run-as.h), exits
 * 0 when what it tried worked, and CHILD_BROKEN when it could not try.
 */
#define CHILD_BROKEN 99

static const struct user root = { "root", 0, 0, 0, { 0 } };
static const struct user untrusted = { "untrusted", 1000, 1000, 0, { 0 } };
static const struct user trusted = { "trusted", 2000, 2000, 0, { 0 } };

/*
 * One check, as tests/lib/results.c writes it: "ok - SECTION: NAME" or
 * "not ok - SECTION: NAME: REASON", SECTION (its prog_name) the option or
 * area being checked.
 */
static void report(bool ok, const char *name, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	check(ok, reason, "%s", name);
}

/* tests/lib's names, and -1: a child that could not try. */
static const char *errname(int err)
{
	return err == -1 ? "child failed" : errno_name(err);
}

/* ---- policy blobs ---- */

struct blob {
	size_t len;
	unsigned char *data;
};

/* tests/lib's encoder: one in tests/, so a change of the ABI is one edit. */
static struct blob make_blob(uint32_t flags, const uint32_t *uids, uint32_t nu,
			     const uint32_t *gids, uint32_t ng)
{
	const struct policy p = { flags, nu, ng, uids, gids };
	struct blob b;

	b.data = policy_blob(&p, &b.len);
	return b;
}

static struct tpe_policy_hdr *blob_hdr(struct blob *b)
{
	return (struct tpe_policy_hdr *)b->data;
}

static __le32 *blob_ids(struct blob *b)
{
	return (__le32 *)(blob_hdr(b) + 1);
}

/* Write in one write() (or pwrite() at @off); 0 or errno. */
static int write_policy_at(const void *data, size_t len, off_t off)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(POLICY, O_WRONLY);
	if (fd < 0)
		return errno;
	n = off ? pwrite(fd, data, len, off) : write(fd, data, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1;
	close(fd);
	return err;
}

static int write_policy(const struct blob *b)
{
	return write_policy_at(b->data, b->len, 0);
}

/* Read the whole live policy in @chunk-byte reads. */
static struct blob read_policy_chunked(size_t chunk)
{
	struct blob b = { 0, NULL };
	size_t cap = 0;
	ssize_t n;
	int fd;

	fd = open(POLICY, O_RDONLY);
	if (fd < 0)
		return b;
	for (;;) {
		if (b.len + chunk > cap) {
			cap = (b.len + chunk) * 2;
			b.data = realloc(b.data, cap);
			if (!b.data) {
				perror("realloc");
				exit(1);
			}
		}
		n = read(fd, b.data + b.len, chunk);
		if (n <= 0)
			break;
		b.len += n;
	}
	close(fd);
	if (n < 0) {
		free(b.data);
		b.data = NULL;
		b.len = 0;
	}
	return b;
}

static struct blob read_policy(void)
{
	return read_policy_chunked(65536);
}

static bool blob_eq(const struct blob *a, const struct blob *b)
{
	return a->data && b->data && a->len == b->len &&
	       !memcmp(a->data, b->data, a->len);
}

/* Make @flags/uids/gids live; a failure here is reported as its own check. */
static bool set_policy(const char *why, uint32_t flags, const uint32_t *uids,
		       uint32_t nu, const uint32_t *gids, uint32_t ng)
{
	struct blob b = make_blob(flags, uids, nu, gids, ng);
	char name[128];
	int err;

	err = write_policy(&b);
	free(b.data);
	if (err) {
		snprintf(name, sizeof(name), "load policy for %s", why);
		report(false, name, "write: %s", errname(err));
	}
	return !err;
}

/* ---- stats and kernel log ---- */

static long long stat_value(const char *name)
{
	char line[128], key[64];
	long long v, found = -1;
	FILE *f;

	f = fopen(STATS, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &v) == 2 && !strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * Does a kernel log line start with @prefix (after its "<N>[ time] "), have
 * @middle after that, and end with @suffix? NULL matches anything. Lines
 * come from printk as they are.
 */
static bool line_matches(const char *line, const char *prefix,
			 const char *middle, const char *suffix)
{
	size_t np = prefix ? strlen(prefix) : 0, ns = suffix ? strlen(suffix) : 0;
	const char *m;
	size_t len;

	if (*line == '<' && strchr(line, '>'))
		line = strchr(line, '>') + 1;
	if (*line == '[' && strchr(line, ']'))
		line = strchr(line, ']') + 1;
	while (*line == ' ')
		line++;
	len = strlen(line);
	if (strncmp(line, prefix ? prefix : "", np) || len < np + ns ||
	    strcmp(line + len - ns, suffix ? suffix : ""))
		return false;
	if (!middle)
		return true;
	m = strstr(line + np, middle);
	return m && m + strlen(middle) <= line + len - ns;
}

/*
 * A kernel log line matches (line_matches). Audit records reach the log
 * late: read it again for up to two seconds.
 */
static bool dmesg_line(const char *prefix, const char *middle,
		       const char *suffix)
{
	int size, n, tries;
	char *buf, *line, *save;
	bool found = false;

	size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	if (size <= 0)
		return false;
	buf = malloc(size + 1);
	if (!buf)
		return false;
	for (tries = 0; tries < 20 && !found; tries++) {
		if (tries)
			usleep(100000);
		n = klogctl(3, buf, size);	/* SYSLOG_ACTION_READ_ALL */
		if (n < 0)
			break;
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line && !found;
		     line = strtok_r(NULL, "\n", &save))
			found = line_matches(line, prefix, middle, suffix);
	}
	free(buf);
	return found;
}

/* Is @needle in a line of the kernel log? */
static bool dmesg_has(const char *needle)
{
	return dmesg_line(NULL, needle, NULL);
}

/*
 * The identity the log line and the audit record give a file:
 * "dev=MAJ:MIN ino=N dir_ino=M" from stat() of it and of its directory.
 */
static bool file_identity(const char *path, const char *dir, char *buf,
			  size_t cap)
{
	struct stat st, dst;

	if (stat(path, &st) || stat(dir, &dst))
		return false;
	snprintf(buf, cap, "dev=%u:%u ino=%lu dir_ino=%lu", major(st.st_dev),
		 minor(st.st_dev), (unsigned long)st.st_ino,
		 (unsigned long)dst.st_ino);
	return true;
}

/* ---- running things as a user ---- */

/*
 * Run @fn in a child as @u (tests/lib's run_as()): 0 when it worked (an
 * exec'd hello exits 0), the errno it reported, or -1 for anything else.
 */
static int child_as(const struct user *u, int (*fn)(void *), void *arg)
{
	struct outcome o = run_as(u, fn, arg);

	return o.err ? o.err : o.status == 0 ? 0 : -1;
}

static int do_exec(void *arg)
{
	const char *path = arg;

	execl(path, path, (char *)NULL);
	fail_errno(errno);
}

static int exec_as(const struct user *u, const char *path)
{
	return child_as(u, do_exec, (void *)path);
}

static void expect_exec(const struct user *u, const char *path, int want)
{
	char name[160];
	int got;

	got = exec_as(u, path);
	snprintf(name, sizeof(name), "exec %s as %s: %s", path, u->name,
		 errname(want));
	report(got == want, name, "got %s", errname(got));
}

/* mmap (and then mprotect) one page of a file with PROT_EXEC. */
static int do_mmap_exec(void *arg)
{
	void *p;
	int fd;

	fd = open(arg, O_RDONLY);
	if (fd < 0)
		return CHILD_BROKEN;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		fail_errno(errno);
	return 0;
}

static int do_mprotect_exec(void *arg)
{
	void *p;
	int fd;

	fd = open(arg, O_RDONLY);
	if (fd < 0)
		return CHILD_BROKEN;
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return CHILD_BROKEN;
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		fail_errno(errno);
	return 0;
}

static void expect_map(const struct user *u, const char *how,
		       int (*fn)(void *), const char *path, int want)
{
	char name[160];
	int got;

	got = child_as(u, fn, (void *)path);
	snprintf(name, sizeof(name), "%s PROT_EXEC %s as %s: %s", how, path,
		 u->name, errname(want));
	report(got == want, name, "got %s", errname(got));
}

/* Copy a file, as the caller, and give it @mode. */
static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out;
	ssize_t n;

	in = open(from, O_RDONLY);
	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (out < 0) {
		close(in);
		return errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	close(in);
	close(out);
	return n < 0 ? EIO : chmod(to, mode) ? errno : 0;
}

/*
 * In a new user namespace the caller is root, and a directory it makes
 * looks root-owned; seen from the initial namespace it is neither.
 */
static int do_exec_userns(void *arg)
{
	const char *dir = "/scratch/nsdir", *file = "/scratch/nsdir/hello";
	char map[64];
	struct stat st = { 0 };
	int fd, len;

	(void)arg;
	/* setuid() made us non-dumpable, which makes /proc/self root's. */
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	len = snprintf(map, sizeof(map), "0 %u 1\n", untrusted.uid);
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0 || write(fd, map, len) != len)
		return CHILD_BROKEN;
	close(fd);
	if (geteuid() != 0)
		return CHILD_BROKEN;
	if (mkdir(dir, 0755) || copy_file(HELLO, file, 0755))
		return CHILD_BROKEN;
	if (stat(dir, &st) || st.st_uid != 0)
		return CHILD_BROKEN;
	execl(file, file, (char *)NULL);
	fail_errno(errno);
}

/* ---- capabilities ---- */

static int drop_cap_mac_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	int i = CAP_TO_INDEX(CAP_MAC_ADMIN);

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[i].effective &= ~CAP_TO_MASK(CAP_MAC_ADMIN);
	d[i].permitted &= ~CAP_TO_MASK(CAP_MAC_ADMIN);
	return syscall(SYS_capset, &h, d);
}

/* Root without CAP_MAC_ADMIN, dropped before open or after it. */
static int write_nocap(const struct blob *b, bool after_open)
{
	ssize_t n;
	int fd;

	if (!after_open && drop_cap_mac_admin())
		return CHILD_BROKEN;
	fd = open(POLICY, O_WRONLY);
	if (fd < 0)
		return CHILD_BROKEN;
	if (after_open && drop_cap_mac_admin())
		return CHILD_BROKEN;
	n = write(fd, b->data, b->len);
	if (n < 0)
		fail_errno(errno);
	return n == (ssize_t)b->len ? 0 : CHILD_BROKEN;
}

static int do_write_nocap_open(void *arg)
{
	return write_nocap(arg, false);
}

static int do_write_nocap_write(void *arg)
{
	return write_nocap(arg, true);
}

static int do_open_policy(void *arg)
{
	int fd;

	(void)arg;
	fd = open(POLICY, O_WRONLY);
	if (fd < 0)
		fail_errno(errno);
	return 0;
}

/* ---- the checks ---- */

static void check_boot_policy(uint32_t want_flags)
{
	struct blob want = make_blob(want_flags, NULL, 0, NULL, 0);
	struct blob got = read_policy();

	prog_name = "boot policy";
	report(blob_eq(&got, &want), "reads back as a valid blob",
	       "read %zu bytes, flags 0x%x", got.len,
	       got.len >= 8 ? le32toh(blob_hdr(&got)->flags) : 0);
	free(want.data);
	free(got.data);
}

/*
 * The boot policy, before anything is written: only root is trusted, and
 * CHECK_FILE (CONFIG_SECURITY_TPE_CHECK_FILE=y) refuses a user's own file
 * even in a root 0755 dir; the same file is allowed with CHECK_FILE off
 * (the selftest row enforce_untrusted_file_owner_exec_ALLOWED).
 */
static void check_boot_verdicts(void)
{
	prog_name = "boot policy";
	expect_exec(&untrusted, "/trusted/owned-by-user", EACCES);
	report(dmesg_line("tpe: denied exec uid=1000 euid=1000 pid=",
			  " check=file-owner dev=",
			  " path=/trusted/owned-by-user"),
	       "CHECK_FILE: the kernel log says check=file-owner",
	       "no 'tpe: denied exec uid=1000 euid=1000 pid=... check=file-owner dev=... path=/trusted/owned-by-user'");
	expect_exec(&trusted, "/trusted/owned-by-user", EACCES);
	expect_exec(&untrusted, "/trusted/hello", 0);
	expect_exec(&root, "/trusted/owned-by-user", 0);
}

/* A non-root user reads the live policy: the bytes root reads. */
static int do_read_policy(void *arg)
{
	struct blob got = read_policy();

	if (!blob_eq(&got, arg))
		fail_errno(got.data ? EINVAL : EACCES);
	return 0;
}

/* The mode of @path, or -1 (stat first: report's arguments have no order). */
static int file_mode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

static void check_modes(void)
{
	struct blob live = read_policy();
	int mode, err;

	prog_name = "files";
	/* World-readable: the lists are no secret; --status works for anyone. */
	mode = file_mode(POLICY);
	report(mode == 0644, "tpe/policy mode 0644", "mode %o", mode);
	mode = file_mode(STATS);
	report(mode == 0444, "tpe/stats mode 0444", "mode %o", mode);
	report(child_as(&untrusted, do_open_policy, NULL) == EACCES,
	       "tpe/policy: a non-root user cannot open it for writing",
	       "opened");
	err = child_as(&untrusted, do_read_policy, &live);
	report(live.data && err == 0,
	       "tpe/policy: a non-root user reads the live policy", "got %s",
	       errname(err));
	free(live.data);
}

static const uint32_t trusted_uids[] = { 2000 };
static const uint32_t trusted_gids[] = { 500, 501 };

static void check_four_cases(void)
{
	char id[96], want[160];
	long long before;

	prog_name = "four cases";
	if (!set_policy("four cases", TPE_POLICY_ENFORCE, trusted_uids, 1,
			trusted_gids, 2))
		return;
	before = stat_value("exec_denials");
	expect_exec(&untrusted, "/untrusted/hello", EACCES);
	report(stat_value("exec_denials") == before + 1,
	       "stats: exec_denials counts a denial", "%lld -> %lld", before,
	       stat_value("exec_denials"));
	report(dmesg_line("tpe: denied exec uid=1000 euid=1000 pid=",
			  " check=dir-owner dev=", " path=/untrusted/hello"),
	       "kernel log names the denied exec",
	       "no 'tpe: denied exec uid=1000 euid=1000 pid=... check=dir-owner dev=... path=/untrusted/hello'");
	report(dmesg_line(NULL,
			  "lsm=tpe op=exec enforcing=1 check=dir-owner subj_euid=1000 ",
			  " path=\"/untrusted/hello\" tclass=file res=0"),
	       "audit record of the denied exec",
	       "no 'lsm=tpe op=exec enforcing=1 check=dir-owner subj_euid=1000 ... path=\"/untrusted/hello\" tclass=file res=0' record in the log");
	if (file_identity("/untrusted/hello", "/untrusted", id, sizeof(id))) {
		snprintf(want, sizeof(want),
			 " check=dir-owner %s path=/untrusted/hello", id);
		report(dmesg_line("tpe: denied exec uid=1000 euid=1000 pid=",
				  " comm=", want),
		       "kernel log: dev= ino= dir_ino= are stat()'s", "no line ending '%s'", want);
		snprintf(want, sizeof(want), " subj_euid=1000 %s ", id);
		report(dmesg_has(want), "audit record: dev= ino= dir_ino= are stat()'s",
		       "no record with '%s'", want);
	} else {
		report(false, "stat /untrusted/hello", "%s", strerror(errno));
	}
}

static void check_permissive(void)
{
	long long before, denials;

	prog_name = "permissive";
	if (!set_policy("permissive", 0, trusted_uids, 1, trusted_gids, 2))
		return;
	before = stat_value("would_deny");
	denials = stat_value("exec_denials");
	expect_exec(&untrusted, "/untrusted/hello", 0);
	report(stat_value("would_deny") == before + 1 &&
	       stat_value("exec_denials") == denials,
	       "stats: would_deny counts a permissive exec",
	       "would_deny %lld -> %lld", before, stat_value("would_deny"));
	report(dmesg_line("tpe: would deny exec uid=1000 euid=1000 pid=",
			  " check=dir-owner dev=", " path=/untrusted/hello"),
	       "kernel log names the would-deny exec",
	       "no 'tpe: would deny exec uid=1000 euid=1000 pid=... check=dir-owner dev=... path=/untrusted/hello'");
}

static void check_untrusted_dirs(void)
{
	int err;

	prog_name = "untrusted paths";
	if (!set_policy("untrusted dirs", TPE_POLICY_ENFORCE, trusted_uids, 1,
			trusted_gids, 2))
		return;
	err = child_as(&untrusted, do_exec_userns, NULL);
	report(err == EACCES,
	       "exec from a userns-root-owned dir as userns root: EACCES",
	       "got %s", errname(err));
}

static void check_mmap(void)
{
	long long before;

	prog_name = "MMAP";
	if (!set_policy("MMAP", TPE_POLICY_ENFORCE | TPE_POLICY_MMAP,
			trusted_uids, 1, trusted_gids, 2))
		return;
	before = stat_value("mmap_denials");
	expect_map(&untrusted, "mmap", do_mmap_exec, "/untrusted/hello",
		   EACCES);
	expect_map(&untrusted, "mprotect", do_mprotect_exec, "/untrusted/hello",
		   EACCES);
	report(stat_value("mmap_denials") == before + 2,
	       "stats: mmap_denials counts mmap and mprotect",
	       "%lld -> %lld", before, stat_value("mmap_denials"));
	expect_map(&untrusted, "mmap", do_mmap_exec, "/trusted/disk", EACCES);
	report(dmesg_line("tpe: denied mmap uid=1000 euid=1000 pid=",
			  " check=block-device dev=", " path=/trusted/disk"),
	       "a block device: the kernel log says check=block-device",
	       "no 'tpe: denied mmap uid=1000 euid=1000 pid=... check=block-device dev=... path=/trusted/disk'");
}

static void check_round_trip(void)
{
	static const uint32_t uids[] = { 0, 2000, 5000, 70000, 4294967294u };
	static const uint32_t gids[] = { 500, 501, 4000000000u };
	static const size_t chunks[] = { 1, 3, 7, 24, 4096 };
	struct blob b = make_blob(TPE_POLICY_ENFORCE | TPE_POLICY_CHECK_FILE,
				  uids, 5, gids, 3);
	struct blob got;
	unsigned char buf[128];
	char name[96];
	size_t i;
	ssize_t n;
	int fd, err;

	prog_name = "round trip";
	err = write_policy(&b);
	report(!err, "write", "%s", errname(err));
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		got = read_policy_chunked(chunks[i]);
		snprintf(name, sizeof(name),
			 "read back byte-exact in %zu-byte reads",
			 chunks[i]);
		report(blob_eq(&got, &b), name, "read %zu bytes, want %zu",
		       got.len, b.len);
		free(got.data);
	}

	fd = open(POLICY, O_RDONLY);
	n = pread(fd, buf, 10, 5);
	report(n == 10 && !memcmp(buf, b.data + 5, 10),
	       "pread at offset 5", "got %zd bytes", n);
	n = pread(fd, buf, sizeof(buf), b.len - 3);
	report(n == 3 && !memcmp(buf, b.data + b.len - 3, 3),
	       "short read at the end", "got %zd bytes", n);
	n = pread(fd, buf, sizeof(buf), b.len);
	report(n == 0, "read at the end is 0", "got %zd", n);
	n = pread(fd, buf, sizeof(buf), b.len + 100);
	report(n == 0, "read past the end is 0", "got %zd", n);
	close(fd);
	free(b.data);
}

/* A rejected write returns @want, and the live policy does not change. */
static void expect_reject(const char *what, const void *data, size_t len,
			  off_t off, int want)
{
	long long rejects = stat_value("policy_rejects");
	long long loads = stat_value("policy_loads");
	struct blob before = read_policy(), after;
	char name[128];
	int err;

	err = write_policy_at(data, len, off);
	after = read_policy();
	snprintf(name, sizeof(name), "reject %s: %s, policy unchanged", what,
		 errname(want));
	report(err == want && blob_eq(&before, &after) &&
	       stat_value("policy_rejects") == rejects + 1 &&
	       stat_value("policy_loads") == loads,
	       name, "got %s, policy %s, policy_rejects %lld -> %lld",
	       errname(err), blob_eq(&before, &after) ? "same" : "CHANGED",
	       rejects, stat_value("policy_rejects"));
	free(before.data);
	free(after.data);
}

static void check_errors(void)
{
	static const uint32_t uids[] = { 10, 20, 30 };
	static const uint32_t gids[] = { 40, 50 };
	struct blob b = make_blob(TPE_POLICY_ENFORCE, uids, 3, gids, 2);
	struct blob big, live, back;
	long long loads;
	int err;

	prog_name = "policy writes";
	if (!set_policy("errors", TPE_POLICY_ENFORCE, trusted_uids, 1,
			trusted_gids, 2))
		return;

/* Set one header field to a bad value, expect EINVAL, put it back. */
#define MUTATE(field, bad, what) do {					\
		struct tpe_policy_hdr saved = *blob_hdr(&b);		\
		blob_hdr(&b)->field = (bad);				\
		expect_reject(what, b.data, b.len, 0, EINVAL);		\
		*blob_hdr(&b) = saved;					\
	} while (0)

	MUTATE(magic, htole32(TPE_POLICY_MAGIC ^ 1), "bad magic");
	MUTATE(version, htole16(2), "bad version");
	MUTATE(version, htole16(0), "version 0");
	MUTATE(hdr_len, htole16(28), "hdr_len 28");
	MUTATE(hdr_len, htole16(20), "hdr_len 20");
	MUTATE(flags, htole32(TPE_POLICY_ENFORCE | (1u << 6)), "unknown flag");
	MUTATE(flags, htole32(1u << 31), "unknown flag 31");
	MUTATE(reserved, htole32(1), "non-zero reserved");
	MUTATE(nr_uids, htole32(4), "nr_uids past the end");
	MUTATE(nr_gids, htole32(1), "nr_gids short of the end");

	expect_reject("length short by 4", b.data, b.len - 4, 0, EINVAL);
	expect_reject("length short by 1", b.data, b.len - 1, 0, EINVAL);
	expect_reject("length shorter than a header", b.data, 10, 0, EINVAL);

	blob_ids(&b)[1] = htole32(5);		/* uids 10, 5, 30 */
	expect_reject("unsorted uids", b.data, b.len, 0, EINVAL);
	blob_ids(&b)[1] = htole32(10);		/* uids 10, 10, 30 */
	expect_reject("duplicate uids", b.data, b.len, 0, EINVAL);
	blob_ids(&b)[1] = htole32(20);
	blob_ids(&b)[4] = htole32(40);		/* gids 40, 40 */
	expect_reject("duplicate gids", b.data, b.len, 0, EINVAL);
	blob_ids(&b)[4] = htole32(30);		/* gids 40, 30 */
	expect_reject("unsorted gids", b.data, b.len, 0, EINVAL);
	blob_ids(&b)[4] = htole32(50);

	expect_reject("non-zero offset", b.data, b.len, 1, EINVAL);
	expect_reject("offset 24", b.data, b.len, 24, EINVAL);

	/* Over the limit: E2BIG, whether or not the length matches. */
	big = make_blob(0, NULL, 0, NULL, 0);
	blob_hdr(&big)->nr_uids = htole32(TPE_POLICY_MAX_ENTRIES / 2 + 1);
	blob_hdr(&big)->nr_gids = htole32(TPE_POLICY_MAX_ENTRIES / 2);
	expect_reject("over the entry limit, header only", big.data, big.len,
		      0, E2BIG);
	free(big.data);
	big = make_blob(0, NULL, 0, NULL, 0);
	big.len += 4 * ((size_t)TPE_POLICY_MAX_ENTRIES + 1);
	big.data = realloc(big.data, big.len);
	if (!big.data)
		exit(1);
	memset(big.data + sizeof(struct tpe_policy_hdr), 0,
	       big.len - sizeof(struct tpe_policy_hdr));
	blob_hdr(&big)->nr_uids = htole32(TPE_POLICY_MAX_ENTRIES + 1);
	expect_reject("over the entry limit, full length", big.data, big.len,
		      0, E2BIG);
	free(big.data);

	/* Privilege: root without CAP_MAC_ADMIN, dropped before or after open. */
	loads = stat_value("policy_loads");
	live = read_policy();
	err = child_as(&root, do_write_nocap_open, &b);
	report(err == EPERM, "reject a write without CAP_MAC_ADMIN: EPERM",
	       "got %s", errname(err));
	err = child_as(&root, do_write_nocap_write, &b);
	report(err == EPERM,
	       "reject a write by a writer that dropped CAP_MAC_ADMIN: EPERM",
	       "got %s", errname(err));
	back = read_policy();
	report(stat_value("policy_loads") == loads && blob_eq(&live, &back),
	       "without CAP_MAC_ADMIN: policy unchanged",
	       "policy_loads %lld -> %lld, policy %s", loads,
	       stat_value("policy_loads"),
	       blob_eq(&live, &back) ? "same" : "CHANGED");
	free(live.data);
	free(back.data);

	/* The limit itself is accepted (then put back). */
	big = make_blob(0, NULL, 0, NULL, 0);
	big.len += 4 * (size_t)TPE_POLICY_MAX_ENTRIES;
	big.data = realloc(big.data, big.len);
	if (!big.data)
		exit(1);
	blob_hdr(&big)->nr_uids = htole32(TPE_POLICY_MAX_ENTRIES);
	for (uint32_t i = 0; i < TPE_POLICY_MAX_ENTRIES; i++)
		blob_ids(&big)[i] = htole32(i + 100000);
	err = write_policy(&big);
	report(!err, "accept a policy of exactly the entry limit", "got %s",
	       errname(err));
	if (!err) {
		back = read_policy();
		report(blob_eq(&back, &big),
		       "read back a policy of the entry limit", "read %zu bytes",
		       back.len);
		free(back.data);
	}
	free(big.data);
	report(stat_value("policy_loads") > loads,
	       "stats: policy_loads counts loads", "policy_loads %lld -> %lld",
	       loads, stat_value("policy_loads"));
	free(b.data);
}

/* LOCK lasts until reboot: this runs last. */
static void check_lock(void)
{
	struct blob live, after, b;
	int err;

	prog_name = "LOCK";
	if (!set_policy("LOCK", TPE_POLICY_ENFORCE | TPE_POLICY_LOCK,
			trusted_uids, 1, trusted_gids, 2))
		return;
	live = read_policy();
	b = make_blob(0, NULL, 0, NULL, 0);
	expect_reject("any write once LOCK is live", b.data, b.len, 0, EPERM);
	expect_reject("a malformed write once LOCK is live", b.data, b.len - 4,
		      0, EPERM);
	expect_reject("a write at an offset once LOCK is live", b.data, b.len,
		      4, EPERM);
	free(b.data);
	b = make_blob(TPE_POLICY_ENFORCE | TPE_POLICY_LOCK, trusted_uids, 1,
		      trusted_gids, 2);
	err = write_policy(&b);
	after = read_policy();
	report(err == EPERM && blob_eq(&live, &after),
	       "reject the same locked policy again: EPERM", "got %s",
	       errname(err));
	free(b.data);
	free(live.data);
	free(after.data);
	expect_exec(&untrusted, "/untrusted/hello", EACCES);
	expect_exec(&trusted, "/untrusted/hello", 0);
}

/* ---- setup ---- */

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "tpe-test setup: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

static void make_dir(const char *dir, uid_t uid, mode_t mode)
{
	if (mkdir(dir, mode) && errno != EEXIST)
		must(errno, dir);
	must(chown(dir, uid, uid) ? errno : 0, dir);
	must(chmod(dir, mode) ? errno : 0, dir);
}

static void make_file(const char *path, uid_t uid, mode_t mode)
{
	must(copy_file(HELLO, path, mode), path);
	must(chown(path, uid, uid) ? errno : 0, path);
	must(chmod(path, mode) ? errno : 0, path);
}

static void setup(void)
{
	struct stat st;

	umask(0);
	make_dir("/trusted", 0, 0755);
	make_file("/trusted/hello", 0, 0755);
	make_file("/trusted/owned-by-user", untrusted.uid, 0755);
	make_dir("/untrusted", untrusted.uid, 0755);
	make_file("/untrusted/hello", untrusted.uid, 0755);
	make_dir("/scratch", 0, 01777);
	/* A disk's node, root's in a trusted directory: /dev/loop0's. */
	must(stat("/dev/loop0", &st) ? errno : 0, "/dev/loop0");
	must(mknod("/trusted/disk", S_IFBLK | 0644, st.st_rdev) ? errno : 0,
	     "/trusted/disk");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";

	setvbuf(stdout, NULL, _IOLBF, 0);
	prog_name = "setup";
	if (!strcmp(mode, "setup")) {
		setup();
		return 0;
	}
	if (!strcmp(mode, "lock")) {
		check_lock();
		return nr_fail != 0;
	}
	if (!strcmp(mode, "permissive")) {
		check_boot_policy(TPE_POLICY_MMAP | TPE_POLICY_CHECK_FILE);
		prog_name = "tpe.enforce=0";
		expect_exec(&untrusted, "/untrusted/hello", 0);
		expect_exec(&untrusted, "/trusted/owned-by-user", 0);
		report(dmesg_line("tpe: would deny exec uid=1000 euid=1000 pid=",
				  " check=file-owner dev=",
				  " path=/trusted/owned-by-user"),
		       "CHECK_FILE: a user's own file in a trusted dir would be denied",
		       "no 'tpe: would deny exec uid=1000 euid=1000 pid=... check=file-owner dev=... path=/trusted/owned-by-user'");
		report(stat_value("would_deny") >= 1 &&
		       stat_value("exec_denials") == 0,
		       "boot policy only logs",
		       "would_deny %lld exec_denials %lld",
		       stat_value("would_deny"), stat_value("exec_denials"));
		return nr_fail != 0;
	}

	/*
	 * CONFIG_SECURITY_TPE_ENFORCE=y, CONFIG_SECURITY_TPE_MMAP=y and
	 * CONFIG_SECURITY_TPE_CHECK_FILE=y
	 */
	check_boot_policy(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP |
			  TPE_POLICY_CHECK_FILE);
	check_boot_verdicts();
	check_modes();
	check_four_cases();
	check_permissive();
	check_untrusted_dirs();
	check_mmap();
	check_round_trip();
	check_errors();
	return nr_fail != 0;
}
