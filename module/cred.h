/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: who is trusted (cred.c), and what TPE keeps with
 * a credential to answer it.
 */
#ifndef _SECURITY_TPE_CRED_H
#define _SECURITY_TPE_CRED_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/uidgid.h>

#include "lsm.h"
#include "policy.h"

/*
 * What TPE keeps with a credential: the identity it was prepared from while
 * that one was in the initial user namespace. In a user namespace a task may
 * map, switch to or drop IDs its creator chose (setresuid to a subordinate
 * UID, setgroups), so its trust is judged by this identity too, and its
 * denials are charged to the real UID it came with (tpe_cred_user()).
 *
 * And the last verdict on it, which names the policy it was worked out
 * under (tpe_verdict() in cred.c); 0 when it was never judged.
 */
struct tpe_cred {
	kuid_t origin_uid;
	kuid_t origin_euid;
	kgid_t origin_egid;
	struct group_info *origin_groups;	/* NULL only for init_cred */
	atomic64_t verdict;
};

static inline struct tpe_cred *tpe_cred(const struct cred *cred)
{
	return cred->security + tpe_blob_sizes.lbs_cred;
}

bool tpe_cred_trusted(const struct tpe_policy *p, const struct cred *cred);
kuid_t tpe_cred_user(const struct cred *cred);
void __init tpe_add_cred_hooks(const struct lsm_id *lsmid);

#endif /* _SECURITY_TPE_CRED_H */
