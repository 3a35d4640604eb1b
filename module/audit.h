/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: what a denial and a policy write leave behind
 * (audit.c): a count in tpe/stats, a kernel log line, an audit record.
 */
#ifndef _SECURITY_TPE_AUDIT_H
#define _SECURITY_TPE_AUDIT_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/types.h>
#include <uapi/linux/tpe.h>

#include "fs.h"

/* What the hooks were asked to allow. */
enum tpe_op {
	TPE_OP_EXEC,
	TPE_OP_MMAP,
	TPE_OP_MPROTECT,
};

/* What tpe/stats shows (securityfs.c). */
struct tpe_stats {
	atomic64_t exec_denials;
	atomic64_t mmap_denials;	/* mmap and mprotect */
	atomic64_t would_deny;		/* permissive mode */
	atomic64_t policy_loads;
	atomic64_t policy_rejects;
};

extern struct tpe_stats tpe_stats;

void tpe_report_denial(const struct cred *cred, const struct file *file,
		       enum tpe_op op, enum tpe_check check, bool enforce);
void tpe_audit_policy_write(const struct tpe_policy_hdr *hdr, size_t len,
			    int err);

#endif /* _SECURITY_TPE_AUDIT_H */
