// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what a denial and a policy write leave behind,
 * in the kernel log and in the audit trail, and the counts tpe/stats shows.
 *
 * Denials use AUDIT_AVC and policy writes AUDIT_MAC_POLICY_LOAD, both with
 * "lsm=tpe", so `ausearch -m AVC,MAC_POLICY_LOAD` finds them.
 *
 * Each channel records at most so many denials of one user in an interval,
 * so that one user's stream of denials neither crowds the others' lines out
 * of the log nor fills audit's backlog, which drops records (the hooks
 * never wait for it). tpe/stats counts every denial; each channel sums up,
 * per user, the denials it left out.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/audit.h>
#include <linux/bits.h>
#include <linux/cred.h>
#include <linux/kdev_t.h>
#include <linux/limits.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

#include "audit.h"
#include "cred.h"
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
 * Denials of one user that each channel records in an interval. The kernel
 * log is a small ring shared by the whole kernel and read by people: it
 * takes printk's own default. Audit is what administrators and
 * tpe-suggest(8) count, with a queue and storage of its own: it takes ten
 * times as many, enough for a program's start-up burst of refused
 * libraries, while every slot flooding at once stays under the 8192
 * records of a usual backlog (65 * 100 per interval).
 */
#define TPE_LIMIT_INTERVAL	DEFAULT_RATELIMIT_INTERVAL
#define TPE_LOG_BURST		DEFAULT_RATELIMIT_BURST
#define TPE_AUDIT_BURST		(10 * DEFAULT_RATELIMIT_BURST)
/* Users limited apart at a time; while all are busy, others share one. */
#define TPE_LIMIT_USERS		64

/*
 * One user's limits. With RATELIMIT_MSG_ON_RELEASE ___ratelimit() never
 * resets .missed: it counts the denials a channel left out since its last
 * summary, and the summary resets it.
 */
struct tpe_limit {
	kuid_t user;
	struct ratelimit_state log;	/* .interval 0: never started */
	struct ratelimit_state audit;
};

/*
 * All zeroes is an empty table. A slot goes to another user once its
 * interval is over and it has nothing left to report; while none is free,
 * the other users' denials share @others, reported as UID 4294967295.
 * A user cannot take more than one slot: she is charged by her real UID
 * (tpe_cred_user()), which neither a user namespace nor a set-user-ID
 * program lets her choose.
 */
struct tpe_limits {
	spinlock_t lock;	/* guards the slots */
	struct tpe_limit users[TPE_LIMIT_USERS];
	struct tpe_limit others;
};

/* What tpe_limit_charge() decided for one denial. */
#define TPE_RECORD_LOG		BIT(0)
#define TPE_RECORD_AUDIT	BIT(1)
/* The user's first denial left out since her last summary. */
#define TPE_SUMMARY_DUE		BIT(2)

/* What each channel left out of one user's denials, for the summary. */
struct tpe_unrecorded {
	kuid_t user;
	unsigned int log;
	unsigned int audit;
};

static void tpe_limit_start(struct tpe_limit *l, kuid_t user)
{
	l->user = user;
	ratelimit_state_init(&l->log, TPE_LIMIT_INTERVAL, TPE_LOG_BURST);
	ratelimit_set_flags(&l->log, RATELIMIT_MSG_ON_RELEASE);
	ratelimit_state_init(&l->audit, TPE_LIMIT_INTERVAL, TPE_AUDIT_BURST);
	ratelimit_set_flags(&l->audit, RATELIMIT_MSG_ON_RELEASE);
}

static bool tpe_limit_pending(const struct tpe_limit *l)
{
	return l->log.missed || l->audit.missed;
}

/* Both channels' intervals start with the slot's first charge. */
static bool tpe_limit_free(const struct tpe_limit *l)
{
	return !l->log.interval ||
	       (!tpe_limit_pending(l) &&
		time_is_before_jiffies(l->log.begin + l->log.interval) &&
		time_is_before_jiffies(l->audit.begin + l->audit.interval));
}

/* @user's limits: her slot, a free one started for her, or @others. */
static struct tpe_limit *tpe_limit_find(struct tpe_limits *t, kuid_t user)
{
	struct tpe_limit *spare = NULL;
	int i;

	lockdep_assert_held(&t->lock);
	for (i = 0; i < TPE_LIMIT_USERS; i++) {
		struct tpe_limit *l = &t->users[i];

		if (l->log.interval && uid_eq(l->user, user))
			return l;
		if (!spare && tpe_limit_free(l))
			spare = l;
	}
	if (spare) {
		tpe_limit_start(spare, user);
		return spare;
	}
	if (!t->others.log.interval)
		tpe_limit_start(&t->others, INVALID_UID);
	return &t->others;
}

/*
 * Charge one denial to @user.
 *
 * Return: TPE_RECORD_LOG and TPE_RECORD_AUDIT for the channels that record
 * it (the others count it), and TPE_SUMMARY_DUE if it is the first that
 * either left out since her last summary.
 */
static unsigned int tpe_limit_charge(struct tpe_limits *t, kuid_t user)
{
	struct tpe_limit *l;
	unsigned int ret = 0;
	bool pending;

	spin_lock(&t->lock);
	l = tpe_limit_find(t, user);
	pending = tpe_limit_pending(l);
	/* Never contended: t->lock guards every use of l->log and l->audit. */
	if (__ratelimit(&l->log))
		ret |= TPE_RECORD_LOG;
	if (__ratelimit(&l->audit))
		ret |= TPE_RECORD_AUDIT;
	if (!pending && tpe_limit_pending(l))
		ret |= TPE_SUMMARY_DUE;
	spin_unlock(&t->lock);
	return ret;
}

static void tpe_limit_take(struct tpe_limit *l, struct tpe_unrecorded *out,
			   int *n)
{
	if (!tpe_limit_pending(l))
		return;
	out[*n].user = l->user;
	out[*n].log = l->log.missed;
	out[*n].audit = l->audit.missed;
	(*n)++;
	l->log.missed = 0;
	l->audit.missed = 0;
}

/*
 * Move each limit's counts of denials left out into @out, which has room
 * for TPE_LIMIT_USERS + 1, and reset them.
 *
 * Return: how many entries of @out were filled.
 */
static int tpe_limits_take(struct tpe_limits *t, struct tpe_unrecorded *out)
{
	int i, n = 0;

	spin_lock(&t->lock);
	for (i = 0; i < TPE_LIMIT_USERS; i++)
		tpe_limit_take(&t->users[i], out, &n);
	tpe_limit_take(&t->others, out, &n);
	spin_unlock(&t->lock);
	return n;
}

static struct tpe_limits tpe_limits = {
	.lock = __SPIN_LOCK_UNLOCKED(tpe_limits.lock),
};

/*
 * The summary of what each channel left out, per user since her last
 * summary, in that channel: in a worker, so that the record may wait for
 * room in audit's backlog, as a denial's may not.
 */
static void tpe_report_unrecorded(struct work_struct *work)
{
	struct tpe_unrecorded taken[TPE_LIMIT_USERS + 1];
	struct audit_buffer *ab;
	int i, n;

	n = tpe_limits_take(&tpe_limits, taken);
	for (i = 0; i < n; i++) {
		uid_t uid = from_kuid(&init_user_ns, taken[i].user);

		if (taken[i].log)
			pr_notice("suppressed uid=%u denials=%u\n", uid,
				  taken[i].log);
		if (!taken[i].audit)
			continue;
		ab = audit_log_start(NULL, GFP_KERNEL, AUDIT_AVC);
		if (!ab)
			continue;
		audit_log_format(ab,
				 "lsm=tpe op=suppressed tclass=file uid=%u denials=%u",
				 uid, taken[i].audit);
		audit_log_end(ab);
	}
}

static DECLARE_DELAYED_WORK(tpe_unrecorded_work, tpe_report_unrecorded);

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
	char comm[TASK_COMM_LEN], comm_esc[TASK_COMM_LEN * 4];
	const char *path = "?";
	const char *field = "path";
	char *buf;

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
 * would deny); it neither sleeps nor allocates before it knows that the
 * denial is to be recorded.
 */
void tpe_report_denial(const struct cred *cred, const struct file *file,
		       enum tpe_op op, enum tpe_check check, bool enforce)
{
	struct tpe_object obj;
	unsigned int record;

	if (!enforce)
		atomic64_inc(&tpe_stats.would_deny);
	else if (op == TPE_OP_EXEC)
		atomic64_inc(&tpe_stats.exec_denials);
	else
		atomic64_inc(&tpe_stats.mmap_denials);

	record = tpe_limit_charge(&tpe_limits, tpe_cred_user(cred));
	if (record & TPE_SUMMARY_DUE)
		queue_delayed_work(system_long_wq, &tpe_unrecorded_work,
				   TPE_LIMIT_INTERVAL);
	if (!(record & (TPE_RECORD_LOG | TPE_RECORD_AUDIT)))
		return;
	tpe_object(&obj, file);
	if (record & TPE_RECORD_LOG)
		tpe_log_denial(cred, &obj, op, check, enforce);
	if (record & TPE_RECORD_AUDIT)
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

/* An empty table of limits of the test's own, not the live one. */
static struct tpe_limits *tpe_test_limits(struct kunit *test)
{
	struct tpe_limits *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	spin_lock_init(&t->lock);
	return t;
}

/* What @n denials of UID @uid gave: how many each channel recorded. */
struct tpe_test_recorded {
	int log, audit, due;
};

static struct tpe_test_recorded tpe_test_charge(struct tpe_limits *t,
						uid_t uid, int n)
{
	struct tpe_test_recorded r = {};

	while (n--) {
		unsigned int got = tpe_limit_charge(t, KUIDT_INIT(uid));

		r.log += !!(got & TPE_RECORD_LOG);
		r.audit += !!(got & TPE_RECORD_AUDIT);
		r.due += !!(got & TPE_SUMMARY_DUE);
	}
	return r;
}

/* As if @l's interval had begun one interval and a jiffy ago. */
static void tpe_test_age(struct tpe_limit *l)
{
	l->log.begin = jiffies - l->log.interval - 1;
	l->audit.begin = jiffies - l->audit.interval - 1;
}

/* Each channel its burst; one summary due, at the first left out. */
static void test_tpe_limit_charge(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_test_recorded r;
	int i;

	for (i = 0; i < TPE_LOG_BURST; i++)
		KUNIT_EXPECT_EQ(test, tpe_limit_charge(t, KUIDT_INIT(1000)),
				TPE_RECORD_LOG | TPE_RECORD_AUDIT);
	KUNIT_EXPECT_EQ(test, tpe_limit_charge(t, KUIDT_INIT(1000)),
			TPE_RECORD_AUDIT | TPE_SUMMARY_DUE);
	r = tpe_test_charge(t, 1000, TPE_AUDIT_BURST);
	KUNIT_EXPECT_EQ(test, r.log, 0);
	KUNIT_EXPECT_EQ(test, r.audit, TPE_AUDIT_BURST - TPE_LOG_BURST - 1);
	KUNIT_EXPECT_EQ(test, r.due, 0);
}

/* One user's flood leaves every other user her whole bursts. */
static void test_tpe_limit_charge_per_user(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_test_recorded r;

	r = tpe_test_charge(t, 1000, 10000);
	KUNIT_EXPECT_EQ(test, r.log, TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, r.audit, TPE_AUDIT_BURST);
	r = tpe_test_charge(t, 1001, TPE_AUDIT_BURST + 5);
	KUNIT_EXPECT_EQ(test, r.log, TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, r.audit, TPE_AUDIT_BURST);
	r = tpe_test_charge(t, 0, 1);
	KUNIT_EXPECT_EQ(test, r.log, 1);
	KUNIT_EXPECT_EQ(test, r.audit, 1);
}

/* A new interval records again; what was left out is still counted. */
static void test_tpe_limit_charge_next_interval(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_unrecorded out[TPE_LIMIT_USERS + 1];
	struct tpe_test_recorded r;

	tpe_test_charge(t, 1000, TPE_AUDIT_BURST + 2);
	tpe_test_age(&t->users[0]);
	r = tpe_test_charge(t, 1000, TPE_AUDIT_BURST + 1);
	KUNIT_EXPECT_EQ(test, r.log, TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, r.audit, TPE_AUDIT_BURST);
	KUNIT_EXPECT_EQ(test, r.due, 0);
	KUNIT_ASSERT_EQ(test, tpe_limits_take(t, out), 1);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, out[0].user), 1000U);
	KUNIT_EXPECT_EQ(test, out[0].log, 2U * TPE_AUDIT_BURST + 3 - 2 * TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, out[0].audit, 3U);
}

static void test_tpe_limits_take(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_unrecorded out[TPE_LIMIT_USERS + 1];

	tpe_test_charge(t, 1000, TPE_AUDIT_BURST + 5);
	tpe_test_charge(t, 1001, TPE_LOG_BURST);
	tpe_test_charge(t, 1002, TPE_LOG_BURST + 2);
	KUNIT_ASSERT_EQ(test, tpe_limits_take(t, out), 2);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, out[0].user), 1000U);
	KUNIT_EXPECT_EQ(test, out[0].log, TPE_AUDIT_BURST + 5U - TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, out[0].audit, 5U);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, out[1].user), 1002U);
	KUNIT_EXPECT_EQ(test, out[1].log, 2U);
	KUNIT_EXPECT_EQ(test, out[1].audit, 0U);
	KUNIT_EXPECT_EQ(test, tpe_limits_take(t, out), 0);
	/* Taken, not forgiven: the interval still limits, a summary is due. */
	KUNIT_EXPECT_EQ(test, tpe_limit_charge(t, KUIDT_INIT(1000)),
			TPE_SUMMARY_DUE);
}

/* A slot is another user's only once its own has nothing left to say. */
static void test_tpe_limit_slot_reuse(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_unrecorded out[TPE_LIMIT_USERS + 1];

	tpe_test_charge(t, 1000, TPE_LOG_BURST + 1);
	tpe_test_age(&t->users[0]);
	tpe_test_charge(t, 1001, 1);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, t->users[0].user), 1000U);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, t->users[1].user), 1001U);
	tpe_limits_take(t, out);
	tpe_test_charge(t, 1002, 1);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, t->users[0].user), 1002U);
}

/* With every slot busy, the other users share one limit, and its count. */
static void test_tpe_limit_table_full(struct kunit *test)
{
	struct tpe_limits *t = tpe_test_limits(test);
	struct tpe_unrecorded out[TPE_LIMIT_USERS + 1];
	struct tpe_test_recorded r;
	int i;

	for (i = 0; i < TPE_LIMIT_USERS; i++)
		tpe_test_charge(t, 1000 + i, TPE_LOG_BURST + 1);
	r = tpe_test_charge(t, 5000, TPE_LOG_BURST);
	KUNIT_EXPECT_EQ(test, r.log, TPE_LOG_BURST);
	r = tpe_test_charge(t, 5001, 4);
	KUNIT_EXPECT_EQ(test, r.log, 0);
	KUNIT_EXPECT_EQ(test, r.audit, 4);
	KUNIT_ASSERT_EQ(test, tpe_limits_take(t, out), TPE_LIMIT_USERS + 1);
	KUNIT_EXPECT_TRUE(test, uid_eq(out[TPE_LIMIT_USERS].user, INVALID_UID));
	KUNIT_EXPECT_EQ(test, out[TPE_LIMIT_USERS].log, 4U);
	/* Nothing left to report and the interval over: 5001 gets a slot. */
	tpe_test_age(&t->users[7]);
	r = tpe_test_charge(t, 5001, 1);
	KUNIT_EXPECT_EQ(test, r.log, 1);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, t->users[7].user), 5001U);
}

static struct kunit_case tpe_audit_test_cases[] = {
	KUNIT_CASE(test_tpe_escape),
	KUNIT_CASE(test_tpe_escape_cuts_whole_escapes),
	KUNIT_CASE(test_tpe_limit_charge),
	KUNIT_CASE(test_tpe_limit_charge_per_user),
	KUNIT_CASE(test_tpe_limit_charge_next_interval),
	KUNIT_CASE(test_tpe_limits_take),
	KUNIT_CASE(test_tpe_limit_slot_reuse),
	KUNIT_CASE(test_tpe_limit_table_full),
	{}
};

static struct kunit_suite tpe_audit_test_suite = {
	.name = "tpe_audit",
	.test_cases = tpe_audit_test_cases,
};

kunit_test_suite(tpe_audit_test_suite);

#endif /* CONFIG_SECURITY_TPE_KUNIT_TEST */
