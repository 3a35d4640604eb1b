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

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/rcupdate.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "cred.h"
#include "lsm.h"
#include "policy.h"

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

/* Judge @cred from scratch: a lookup in each list the policy has. */
static bool tpe_cred_judge(const struct tpe_policy *p, const struct cred *cred)
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
 * The verdict kept with a credential (struct tpe_cred): @p's generation,
 * shifted left by one, ORed with 1 if @trusted. Never 0, which stands for
 * no verdict: no policy has generation 0.
 */
static u64 tpe_verdict(const struct tpe_policy *p, bool trusted)
{
	return p->generation << 1 | trusted;
}

/**
 * tpe_cred_trusted() - is @cred a trusted user under @p?
 * @p: the policy, under rcu_read_lock()
 * @cred: the credential to judge
 *
 * Global root is handled by the caller.
 *
 * A credential in use never changes, and neither does a policy, so the
 * verdict on the pair is worked out once and kept with the credential,
 * tagged with the policy's generation: later checks cost the same whatever
 * the size of the lists. A verdict is only taken for the policy whose
 * generation it carries, and no two policies share one, so a racing reader
 * can at worst store the verdict for an older policy over a newer one's,
 * and the next check works it out again: a wasted lookup, never a wrong
 * verdict. A credential not yet in use (bprm->cred of a set-user-ID exec)
 * may still change, so it is judged and nothing is kept.
 *
 * Return: true if @cred is trusted under @p.
 */
bool tpe_cred_trusted(const struct tpe_policy *p, const struct cred *cred)
{
	struct tpe_cred *tc = tpe_cred(cred);
	u64 verdict;
	bool trusted;

	if (cred != current_cred())
		return tpe_cred_judge(p, cred);
	verdict = atomic64_read(&tc->verdict);
	if (verdict == tpe_verdict(p, true))
		return true;
	if (verdict == tpe_verdict(p, false))
		return false;
	trusted = tpe_cred_judge(p, cred);
	atomic64_set(&tc->verdict, tpe_verdict(p, trusted));
	return trusted;
}

/**
 * tpe_cred_user() - the user whom @cred's denials are charged to
 * @cred: the credential judged
 *
 * Its real UID in the initial user namespace: who runs the task, which a
 * set-user-ID program does not change. A credential in another user
 * namespace has whatever IDs its namespace's creator mapped (every
 * subordinate UID of a range), so it is charged to the real UID it had
 * when it left the initial namespace; root's containers, judged by their
 * own IDs (tpe_cred_judge()), are charged by them too.
 *
 * Return: a UID valid in the initial user namespace.
 */
kuid_t tpe_cred_user(const struct cred *cred)
{
	const struct tpe_cred *tc = tpe_cred(cred);

	if (cred->user_ns == &init_user_ns ||
	    uid_eq(tc->origin_euid, GLOBAL_ROOT_UID))
		return cred->uid;
	return tc->origin_uid;
}

/* Does tpe_cred_judge() read the same of @a and @b, whatever the policy? */
static bool tpe_cred_same_identity(const struct cred *a, const struct cred *b)
{
	const struct tpe_cred *ta = tpe_cred(a), *tb = tpe_cred(b);
	bool a_init = a->user_ns == &init_user_ns;
	bool b_init = b->user_ns == &init_user_ns;

	/* Both hold their group_info: equal pointers, equal groups. */
	if (!uid_eq(a->euid, b->euid) || !gid_eq(a->egid, b->egid) ||
	    a->group_info != b->group_info || a_init != b_init)
		return false;
	return a_init ||
	       (uid_eq(ta->origin_euid, tb->origin_euid) &&
		gid_eq(ta->origin_egid, tb->origin_egid) &&
		ta->origin_groups == tb->origin_groups);
}

/*
 * Give @new, final but not yet in use, the verdict on current_cred() under
 * the live policy if the two are the same identity. Fork and exec each make
 * a credential; without this each would be judged again, and an exec with
 * MMAP would look its IDs up twice. The verdict stored is for the policy it
 * was worked out under (tpe_verdict()).
 */
static void tpe_cred_inherit(const struct cred *new)
{
	const struct cred *old = current_cred();
	const struct tpe_policy *p;
	bool trusted;

	if (new == old || uid_eq(old->euid, GLOBAL_ROOT_UID) ||
	    !tpe_cred_same_identity(new, old))
		return;
	rcu_read_lock();
	p = rcu_dereference(tpe_policy);
	trusted = tpe_cred_trusted(p, old);
	atomic64_set(&tpe_cred(new)->verdict, tpe_verdict(p, trusted));
	rcu_read_unlock();
}

/* A child's credential is final once copy_creds() is done. */
static int hook_task_alloc(struct task_struct *task, unsigned long clone_flags)
{
	rcu_read_lock();
	tpe_cred_inherit(__task_cred(task));
	rcu_read_unlock();
	return 0;
}

/* The new program's credential is final here, just before it is in use. */
static void hook_bprm_committing_creds(const struct linux_binprm *bprm)
{
	tpe_cred_inherit(bprm->cred);
}

/*
 * Every credential but init_cred is prepared from another one: this is the
 * one place where a credential leaves the initial user namespace (unshare,
 * clone and setns all prepare the new credential from the caller's), so
 * remembering the last initial-namespace identity here covers every way in.
 * The old verdict is not carried over: the new credential's IDs are the
 * caller's to change until it is in use (fork and exec carry it over once
 * they are final, tpe_cred_inherit()).
 */
static int hook_cred_prepare(struct cred *new, const struct cred *old,
			     gfp_t gfp)
{
	const struct tpe_cred *from = tpe_cred(old);
	struct tpe_cred *to = tpe_cred(new);

	if (old->user_ns == &init_user_ns) {
		to->origin_uid = old->uid;
		to->origin_euid = old->euid;
		to->origin_egid = old->egid;
		to->origin_groups = get_group_info(old->group_info);
	} else {
		to->origin_uid = from->origin_uid;
		to->origin_euid = from->origin_euid;
		to->origin_egid = from->origin_egid;
		to->origin_groups = from->origin_groups;
		if (to->origin_groups)
			get_group_info(to->origin_groups);
	}
	atomic64_set(&to->verdict, 0);
	return 0;
}

static void hook_cred_transfer(struct cred *new, const struct cred *old)
{
	hook_cred_prepare(new, old, GFP_KERNEL);
}

static void hook_cred_free(struct cred *cred)
{
	struct tpe_cred *tc = tpe_cred(cred);

	if (tc->origin_groups)
		put_group_info(tc->origin_groups);
}

static struct security_hook_list tpe_cred_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, hook_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, hook_cred_transfer),
	LSM_HOOK_INIT(cred_free, hook_cred_free),
	LSM_HOOK_INIT(task_alloc, hook_task_alloc),
	LSM_HOOK_INIT(bprm_committing_creds, hook_bprm_committing_creds),
};

void __init tpe_add_cred_hooks(const struct lsm_id *lsmid)
{
	security_add_hooks(tpe_cred_hooks, ARRAY_SIZE(tpe_cred_hooks), lsmid);
}

#ifdef CONFIG_SECURITY_TPE_KUNIT_TEST

#include <kunit/test.h>

static const __le32 tpe_test_uids[] = { cpu_to_le32(1000) };

/* Two policies that differ in what they say of UID 1000. */
static const struct tpe_policy tpe_test_listed = {
	.generation = 100, .nr_uids = 1, .uids = tpe_test_uids,
};

static const struct tpe_policy tpe_test_unlisted = {
	.generation = 101,
};

/* A credential of UID 1000, made current (committed) when @commit. */
static struct cred *tpe_test_cred(struct kunit *test, bool commit)
{
	struct cred *cred;

	/* Booted with lsm= leaving tpe out, credentials have no tpe blob. */
	if (!tpe_enabled)
		kunit_skip(test, "tpe is not an active LSM");
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->euid = KUIDT_INIT(1000);
	if (!commit)
		return cred;
	/* Each test runs in a kthread of its own: nothing else uses it. */
	KUNIT_ASSERT_EQ(test, 0, commit_creds(cred));
	return cred;
}

static u64 tpe_test_verdict(const struct cred *cred)
{
	return atomic64_read(&tpe_cred(cred)->verdict);
}

static void test_tpe_cred_verdict_follows_policy(struct kunit *test)
{
	const struct cred *cred = tpe_test_cred(test, true);

	KUNIT_EXPECT_TRUE(test, tpe_cred_trusted(&tpe_test_listed, cred));
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(cred), 100ULL << 1 | 1);
	KUNIT_EXPECT_FALSE(test, tpe_cred_trusted(&tpe_test_unlisted, cred));
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(cred), 101ULL << 1);
	KUNIT_EXPECT_TRUE(test, tpe_cred_trusted(&tpe_test_listed, cred));
}

/* Same generation, other lists: only the kept verdict can answer "yes". */
static void test_tpe_cred_verdict_is_kept(struct kunit *test)
{
	struct tpe_policy same_generation = tpe_test_unlisted;
	const struct cred *cred = tpe_test_cred(test, true);

	KUNIT_EXPECT_FALSE(test, tpe_cred_trusted(&tpe_test_unlisted, cred));
	same_generation.nr_uids = 1;
	same_generation.uids = tpe_test_uids;
	KUNIT_EXPECT_FALSE(test, tpe_cred_trusted(&same_generation, cred));
}

/* A reader that lost a race stored an older policy's verdict. */
static void test_tpe_cred_stale_verdict(struct kunit *test)
{
	const struct cred *cred = tpe_test_cred(test, true);

	atomic64_set(&tpe_cred(cred)->verdict, 100ULL << 1 | 1);
	KUNIT_EXPECT_FALSE(test, tpe_cred_trusted(&tpe_test_unlisted, cred));
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(cred), 101ULL << 1);
}

static void test_tpe_cred_not_in_use(struct kunit *test)
{
	struct cred *cred = tpe_test_cred(test, false);

	KUNIT_EXPECT_TRUE(test, tpe_cred_trusted(&tpe_test_listed, cred));
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(cred), 0);
	abort_creds(cred);
}

static void test_tpe_cred_prepare_forgets(struct kunit *test)
{
	const struct cred *cred = tpe_test_cred(test, true);
	struct cred *next;

	KUNIT_EXPECT_TRUE(test, tpe_cred_trusted(&tpe_test_listed, cred));
	next = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, next);
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(next), 0);
	abort_creds(next);
}

/* What tpe_cred_inherit() must store: the verdict on @cred, live policy. */
static u64 tpe_test_live_verdict(const struct cred *cred)
{
	const struct tpe_policy *p;
	u64 verdict;

	rcu_read_lock();
	p = rcu_dereference(tpe_policy);
	verdict = tpe_verdict(p, tpe_cred_trusted(p, cred));
	rcu_read_unlock();
	return verdict;
}

static void test_tpe_cred_inherit_same(struct kunit *test)
{
	const struct cred *cred = tpe_test_cred(test, true);
	struct cred *next = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, next);
	tpe_cred_inherit(next);
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(next),
			tpe_test_live_verdict(cred));
	abort_creds(next);
}

static void test_tpe_cred_inherit_other(struct kunit *test)
{
	struct group_info *groups;
	struct cred *next;

	tpe_test_cred(test, true);
	next = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, next);
	next->euid = KUIDT_INIT(1001);
	tpe_cred_inherit(next);
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(next), 0);
	abort_creds(next);

	next = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, next);
	groups = groups_alloc(1);
	KUNIT_ASSERT_NOT_NULL(test, groups);
	groups->gid[0] = KGIDT_INIT(1000);
	set_groups(next, groups);
	put_group_info(groups);
	tpe_cred_inherit(next);
	KUNIT_EXPECT_EQ(test, tpe_test_verdict(next), 0);
	abort_creds(next);
}

/* Charged to the real UID, which a set-user-ID program does not change. */
static void test_tpe_cred_user(struct kunit *test)
{
	struct cred *cred = tpe_test_cred(test, false);

	cred->uid = KUIDT_INIT(1001);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, tpe_cred_user(cred)),
			1001U);
	abort_creds(cred);
}

/*
 * In a user namespace, to the real UID it came from; in root's, to its own.
 * tpe_cred_user() only tells init_user_ns from any other: a namespace that
 * is never used stands for one (the credential is not in use).
 */
static void test_tpe_cred_user_in_userns(struct kunit *test)
{
	static struct user_namespace other_ns;
	struct cred *cred = tpe_test_cred(test, false);
	struct tpe_cred *tc = tpe_cred(cred);

	cred->user_ns = &other_ns;
	cred->uid = KUIDT_INIT(100001);
	tc->origin_uid = KUIDT_INIT(1001);
	tc->origin_euid = KUIDT_INIT(1001);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, tpe_cred_user(cred)),
			1001U);
	tc->origin_euid = GLOBAL_ROOT_UID;
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, tpe_cred_user(cred)),
			100001U);
	cred->user_ns = &init_user_ns;
	abort_creds(cred);
}

static struct kunit_case tpe_cred_test_cases[] = {
	KUNIT_CASE(test_tpe_cred_verdict_follows_policy),
	KUNIT_CASE(test_tpe_cred_verdict_is_kept),
	KUNIT_CASE(test_tpe_cred_stale_verdict),
	KUNIT_CASE(test_tpe_cred_not_in_use),
	KUNIT_CASE(test_tpe_cred_prepare_forgets),
	KUNIT_CASE(test_tpe_cred_inherit_same),
	KUNIT_CASE(test_tpe_cred_inherit_other),
	KUNIT_CASE(test_tpe_cred_user),
	KUNIT_CASE(test_tpe_cred_user_in_userns),
	{}
};

static struct kunit_suite tpe_cred_test_suite = {
	.name = "tpe_cred",
	.test_cases = tpe_cred_test_cases,
};

kunit_test_suite(tpe_cred_test_suite);

#endif /* CONFIG_SECURITY_TPE_KUNIT_TEST */
