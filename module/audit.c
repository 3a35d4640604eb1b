// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what a denial and a policy write leave behind,
 * in the kernel log and in the audit trail.
 *
 * Denials use AUDIT_AVC and policy writes AUDIT_MAC_POLICY_LOAD, both with
 * "lsm=tpe", so `ausearch -m AVC,MAC_POLICY_LOAD` finds them.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/limits.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tpe.h"

static const char *const tpe_op_names[] = {
	[TPE_OP_EXEC] = "exec",
	[TPE_OP_MMAP] = "mmap",
	[TPE_OP_MPROTECT] = "mprotect",
};

/*
 * File names and the command name are the user's to choose: print them
 * escaped (%*pE), so that a name with a newline in it cannot forge a line.
 * The hooks may hold mmap_lock: nothing here may sleep, so a denial that
 * finds no memory or a full audit backlog is counted and not recorded.
 */
static void tpe_log_denial(const struct cred *cred, struct file *file,
			   enum tpe_op op, const char *check, bool enforce)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	const char *path = "?";
	char comm[TASK_COMM_LEN];
	char *buf;

	if (!__ratelimit(&rs))
		return;

	buf = kmalloc(PATH_MAX, GFP_NOWAIT | __GFP_NOWARN);
	if (buf) {
		path = d_path(&file->f_path, buf, PATH_MAX);
		if (IS_ERR(path))
			path = "?";
	}
	get_task_comm(comm, current);
	pr_notice("%s %s of %*pE by uid=%u euid=%u pid=%d comm=%*pE: check=%s\n",
		  enforce ? "denied" : "would deny", tpe_op_names[op],
		  (int)strlen(path), path,
		  from_kuid(&init_user_ns, cred->uid),
		  from_kuid(&init_user_ns, cred->euid),
		  task_pid_nr(current), (int)strlen(comm), comm, check);
	kfree(buf);
}

static void tpe_audit_denial(const struct cred *cred, struct file *file,
			     enum tpe_op op, const char *check, bool enforce)
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
	audit_log_format(ab, "lsm=tpe op=%s action=%s check=%s",
			 tpe_op_names[op], enforce ? "denied" : "permissive",
			 check);
	audit_log_d_path(ab, " path=", &file->f_path);
	/* ausearch drops an AVC record without an object class as malformed. */
	audit_log_format(ab, " tclass=file");
	/* Whom the program was judged for: a set-user-ID program's new owner. */
	audit_log_format(ab, " subj_euid=%u",
			 from_kuid(&init_user_ns, cred->euid));
	audit_log_task_info(ab);
	audit_log_format(ab, " res=%d", !enforce);
	audit_log_end(ab);
}

/*
 * tpe_report_denial - count, log and audit one denial
 * @cred: whom the file was judged for
 * @file: the file that was to be executed or mapped
 * @op: what was asked
 * @check: the check that failed, e.g. "dir-owner"
 * @enforce: denied; else only logged (permissive)
 *
 * Called from the hooks outside rcu_read_lock(), only when they deny (or
 * would deny); it does not sleep.
 */
void tpe_report_denial(const struct cred *cred, struct file *file,
		       enum tpe_op op, const char *check, bool enforce)
{
	if (!enforce)
		atomic64_inc(&tpe_stats.would_deny);
	else if (op == TPE_OP_EXEC)
		atomic64_inc(&tpe_stats.exec_denials);
	else
		atomic64_inc(&tpe_stats.mmap_denials);

	tpe_log_denial(cred, file, op, check, enforce);
	tpe_audit_denial(cred, file, op, check, enforce);
}

/*
 * tpe_audit_policy_write - audit one write to tpe/policy
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
