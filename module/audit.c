// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what a denial and a policy write leave behind,
 * in the kernel log and in the audit trail, and the counts tpe/stats shows.
 *
 * Denials use AUDIT_AVC and policy writes AUDIT_MAC_POLICY_LOAD, both with
 * "lsm=tpe", so `ausearch -m AVC,MAC_POLICY_LOAD` finds them.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/kdev_t.h>
#include <linux/limits.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include "audit.h"
#include "fs.h"

struct tpe_stats tpe_stats;

static const char *const tpe_op_names[] = {
	[TPE_OP_EXEC] = "exec",
	[TPE_OP_MMAP] = "mmap",
	[TPE_OP_MPROTECT] = "mprotect",
};

/* Longest path, escaped, that a kernel log line carries. */
#define TPE_LOG_PATH_MAX	256

/*
 * Escape @src as the kernel does with %*pE, and also a backslash and a
 * space: a name can then neither forge a line nor a field, and names that
 * differ print differently. Whole escapes only: a name longer than @size
 * is cut before the escape that does not fit.
 *
 * Return: true if all of @src fitted.
 */
static bool tpe_escape(char *dst, size_t size, const char *src)
{
	size_t used = 0;

	for (; *src; src++) {
		char one[4];
		int n = string_escape_mem(src, 1, one, sizeof(one),
					  ESCAPE_ANY_NP | ESCAPE_APPEND, " \\");

		if (used + n >= size) {
			dst[used] = '\0';
			return false;
		}
		memcpy(dst + used, one, n);
		used += n;
	}
	dst[used] = '\0';
	return true;
}

/* The file as its user named it, and the inode and its directory's. */
struct tpe_object {
	const struct path *path;
	dev_t dev;
	unsigned long ino;
	unsigned long dir_ino;
};

static void tpe_object(struct tpe_object *obj, const struct file *file)
{
	struct dentry *parent;

	obj->path = file_user_path(file);
	obj->dev = obj->path->dentry->d_sb->s_dev;
	obj->ino = d_inode(obj->path->dentry)->i_ino;
	parent = dget_parent(obj->path->dentry);
	obj->dir_ino = d_inode(parent)->i_ino;
	dput(parent);
}

/*
 * The fixed fields come first and the path, the one field a user chooses
 * at length, last: printk cuts a record at about 1,000 characters, and
 * then the cut falls in the path, which TPE bounds itself and marks by
 * naming the field path_prefix. dev and ino are the object's identity
 * (what stat() gives as st_dev and st_ino): a path is the one the task
 * sees, in its own mount namespace. The hooks may hold mmap_lock: nothing
 * here may sleep, so a denial that finds no memory or a full audit backlog
 * is counted and not recorded.
 */
static void tpe_log_denial(const struct cred *cred,
			   const struct tpe_object *obj, enum tpe_op op,
			   enum tpe_check check, bool enforce)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	char comm[TASK_COMM_LEN], comm_esc[TASK_COMM_LEN * 4];
	const char *path = "?";
	const char *field = "path";
	char *buf;

	if (!__ratelimit(&rs))
		return;

	buf = kmalloc(PATH_MAX + TPE_LOG_PATH_MAX, GFP_NOWAIT | __GFP_NOWARN);
	if (buf) {
		path = d_path(obj->path, buf, PATH_MAX);
		if (IS_ERR(path)) {
			path = "?";
		} else if (!tpe_escape(buf + PATH_MAX, TPE_LOG_PATH_MAX, path)) {
			field = "path_prefix";
			path = buf + PATH_MAX;
		} else {
			path = buf + PATH_MAX;
		}
	}
	get_task_comm(comm, current);
	tpe_escape(comm_esc, sizeof(comm_esc), comm);
	pr_notice("%s %s uid=%u euid=%u pid=%d comm=%s check=%s dev=%u:%u ino=%lu dir_ino=%lu %s=%s\n",
		  enforce ? "denied" : "would deny", tpe_op_names[op],
		  from_kuid(&init_user_ns, cred->uid),
		  from_kuid(&init_user_ns, cred->euid),
		  task_pid_nr(current), comm_esc, tpe_check_names[check],
		  MAJOR(obj->dev), MINOR(obj->dev), obj->ino, obj->dir_ino,
		  field, path);
	kfree(buf);
}

static void tpe_audit_denial(const struct cred *cred,
			     const struct tpe_object *obj, enum tpe_op op,
			     enum tpe_check check, bool enforce)
{
	struct audit_buffer *ab;

	/*
	 * A record of its own, not one of the syscall's: that would add a
	 * SYSCALL record at syscall exit, allocated to wait up to
	 * audit_backlog_wait_time on a full backlog, which any untrusted
	 * user could then cause thousands of times a second. This record
	 * names the task itself (audit_log_task_info()).
	 */
	ab = audit_log_start(NULL, GFP_ATOMIC | __GFP_NOWARN, AUDIT_AVC);
	if (!ab)
		return;
	/*
	 * Names auparse reads right: enforcing= as IPE writes it (action= is
	 * netfilter's to auparse), res= for allowed or not.
	 */
	audit_log_format(ab, "lsm=tpe op=%s enforcing=%d check=%s",
			 tpe_op_names[op], enforce, tpe_check_names[check]);
	/* Whom the program was judged for: a set-user-ID program's new owner. */
	audit_log_format(ab, " subj_euid=%u dev=%u:%u ino=%lu dir_ino=%lu",
			 from_kuid(&init_user_ns, cred->euid),
			 MAJOR(obj->dev), MINOR(obj->dev), obj->ino,
			 obj->dir_ino);
	audit_log_task_info(ab);
	/* Quoted or hex: a path cannot forge a field. */
	audit_log_d_path(ab, " path=", obj->path);
	/*
	 * ausearch and aureport drop an AVC record without an object class
	 * as malformed, and aureport looks for it after comm=.
	 */
	audit_log_format(ab, " tclass=file res=%d", !enforce);
	audit_log_end(ab);
}

/**
 * tpe_report_denial() - count, log and audit one denial
 * @cred: whom the file was judged for
 * @file: the file that was to be executed or mapped
 * @op: what was asked
 * @check: the check that failed
 * @enforce: denied; else only logged (permissive)
 *
 * Called from the hooks outside rcu_read_lock(), only when they deny (or
 * would deny); it does not sleep.
 */
void tpe_report_denial(const struct cred *cred, const struct file *file,
		       enum tpe_op op, enum tpe_check check, bool enforce)
{
	struct tpe_object obj;

	if (!enforce)
		atomic64_inc(&tpe_stats.would_deny);
	else if (op == TPE_OP_EXEC)
		atomic64_inc(&tpe_stats.exec_denials);
	else
		atomic64_inc(&tpe_stats.mmap_denials);

	tpe_object(&obj, file);
	tpe_log_denial(cred, &obj, op, check, enforce);
	tpe_audit_denial(cred, &obj, op, check, enforce);
}

/**
 * tpe_audit_policy_write() - audit one write to tpe/policy
 * @hdr: the header as written, or zeroes if it could not be read
 * @len: length of the write
 * @err: 0 if the policy is now live, else the error returned
 */
void tpe_audit_policy_write(const struct tpe_policy_hdr *hdr, size_t len,
			    int err)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_POLICY_LOAD);
	if (!ab)
		return;
	audit_log_format(ab,
			 "lsm=tpe op=policy_write len=%zu nr_uids=%u nr_gids=%u flags=0x%x",
			 len, le32_to_cpu(hdr->nr_uids),
			 le32_to_cpu(hdr->nr_gids), le32_to_cpu(hdr->flags));
	audit_log_task_info(ab);
	audit_log_format(ab, " errno=%d res=%d", err, !err);
	audit_log_end(ab);
}

#ifdef CONFIG_SECURITY_TPE_KUNIT_TEST

#include <kunit/test.h>

static const struct {
	const char *name, *in, *out;
} tpe_escape_cases[] = {
	{ "plain", "/usr/bin/id", "/usr/bin/id" },
	{ "space", "/tmp/a b", "/tmp/a\\040b" },
	{ "backslash", "/tmp/..\\x2ftmp", "/tmp/..\\\\x2ftmp" },
	{ "newline", "a\nb", "a\\nb" },
	{ "escape", "\033[2J", "\\e[2J" },
	{ "control", "\001", "\\001" },
	{ "field", "x check=none", "x\\040check=none" },
};

static void test_tpe_escape(struct kunit *test)
{
	char buf[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(tpe_escape_cases); i++) {
		KUNIT_EXPECT_TRUE_MSG(test, tpe_escape(buf, sizeof(buf),
						       tpe_escape_cases[i].in),
				      "%s", tpe_escape_cases[i].name);
		KUNIT_EXPECT_STREQ_MSG(test, buf, tpe_escape_cases[i].out,
				       "%s", tpe_escape_cases[i].name);
	}
}

/* A name is cut before the escape that does not fit, never inside it. */
static void test_tpe_escape_cuts_whole_escapes(struct kunit *test)
{
	char buf[6];

	KUNIT_EXPECT_TRUE(test, tpe_escape(buf, sizeof(buf), "abcde"));
	KUNIT_EXPECT_STREQ(test, buf, "abcde");
	KUNIT_EXPECT_FALSE(test, tpe_escape(buf, sizeof(buf), "abcdef"));
	KUNIT_EXPECT_STREQ(test, buf, "abcde");
	KUNIT_EXPECT_FALSE(test, tpe_escape(buf, sizeof(buf), "abcd\\"));
	KUNIT_EXPECT_STREQ(test, buf, "abcd");
	KUNIT_EXPECT_FALSE(test, tpe_escape(buf, sizeof(buf), "ab c"));
	KUNIT_EXPECT_STREQ(test, buf, "ab");
}

static struct kunit_case tpe_audit_test_cases[] = {
	KUNIT_CASE(test_tpe_escape),
	KUNIT_CASE(test_tpe_escape_cuts_whole_escapes),
	{}
};

static struct kunit_suite tpe_audit_test_suite = {
	.name = "tpe_audit",
	.test_cases = tpe_audit_test_cases,
};

kunit_test_suite(tpe_audit_test_suite);

#endif /* CONFIG_SECURITY_TPE_KUNIT_TEST */
