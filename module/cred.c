// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: who is trusted.
 *
 * A credential is judged by its effective UID, effective GID and
 * supplementary groups as the initial user namespace sees them. In any
 * other user namespace its IDs are ones that the namespace's creator
 * chose: a subordinate UID range to setresuid() into, groups to drop with
 * setgroups(). So there it is also judged by the identity it came from in
 * the initial namespace, and is trusted only if both are: a user namespace
 * can neither shed a listing (INVERT) nor gain one.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "tpe.h"

/* Are these IDs on the policy's lists? */
static bool tpe_ids_listed(const struct tpe_policy *p, kuid_t euid,
			   kgid_t egid, const struct group_info *groups)
{
	int i;

	if (tpe_policy_has_uid(p, from_kuid(&init_user_ns, euid)))
		return true;
	if (!p->nr_gids)
		return false;
	if (tpe_policy_has_gid(p, from_kgid(&init_user_ns, egid)))
		return true;
	for (i = 0; i < groups->ngroups; i++)
		if (tpe_policy_has_gid(p, from_kgid(&init_user_ns,
						    groups->gid[i])))
			return true;
	return false;
}

/* The lists name the trusted users, or with INVERT the untrusted. */
static bool tpe_ids_trusted(const struct tpe_policy *p, kuid_t euid,
			    kgid_t egid, const struct group_info *groups)
{
	bool listed = tpe_ids_listed(p, euid, egid, groups);

	return p->flags & TPE_POLICY_INVERT ? !listed : listed;
}

/*
 * tpe_cred_trusted - is @cred a trusted user under @p?
 * @p: the policy, under rcu_read_lock()
 * @cred: the credential to judge
 *
 * Global root is handled by the caller.
 */
bool tpe_cred_trusted(const struct tpe_policy *p, const struct cred *cred)
{
	const struct tpe_cred *tc = tpe_cred(cred);

	if (!tpe_ids_trusted(p, cred->euid, cred->egid, cred->group_info))
		return false;
	/* Root's containers are judged by their own IDs: root is trusted. */
	if (cred->user_ns == &init_user_ns || !tc->origin_groups ||
	    uid_eq(tc->origin_euid, GLOBAL_ROOT_UID))
		return true;
	return tpe_ids_trusted(p, tc->origin_euid, tc->origin_egid,
			       tc->origin_groups);
}

/*
 * Every credential but init_cred is prepared from another one: this is the
 * one place where a credential leaves the initial user namespace (unshare,
 * clone and setns all prepare the new credential from the caller's), so
 * remembering the last initial-namespace identity here covers every way in.
 */
static int tpe_cred_prepare(struct cred *new, const struct cred *old,
			    gfp_t gfp)
{
	const struct tpe_cred *from = tpe_cred(old);
	struct tpe_cred *to = tpe_cred(new);

	if (old->user_ns == &init_user_ns) {
		to->origin_euid = old->euid;
		to->origin_egid = old->egid;
		to->origin_groups = get_group_info(old->group_info);
	} else {
		*to = *from;
		if (to->origin_groups)
			get_group_info(to->origin_groups);
	}
	return 0;
}

static void tpe_cred_transfer(struct cred *new, const struct cred *old)
{
	tpe_cred_prepare(new, old, GFP_KERNEL);
}

static void tpe_cred_free(struct cred *cred)
{
	struct tpe_cred *tc = tpe_cred(cred);

	if (tc->origin_groups)
		put_group_info(tc->origin_groups);
}

static struct security_hook_list tpe_cred_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, tpe_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, tpe_cred_transfer),
	LSM_HOOK_INIT(cred_free, tpe_cred_free),
};

void __init tpe_add_cred_hooks(const struct lsm_id *lsmid)
{
	security_add_hooks(tpe_cred_hooks, ARRAY_SIZE(tpe_cred_hooks), lsmid);
}
