// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: the policy blob, its validation and lookups, and
 * the one place where the live policy is replaced.
 */

#include <linux/bsearch.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "policy.h"

/* The boot policy: root only, no lists; tpe_policy_boot() sets its flags. */
static struct tpe_policy_hdr tpe_boot_hdr = {
	.magic = cpu_to_le32(TPE_POLICY_MAGIC),
	.version = cpu_to_le16(TPE_POLICY_VERSION),
	.hdr_len = cpu_to_le16(sizeof(struct tpe_policy_hdr)),
};

static struct tpe_policy tpe_boot_policy = {
	.usage = REFCOUNT_INIT(1),
	.generation = 1,
	.len = sizeof(tpe_boot_hdr),
	.blob = &tpe_boot_hdr,
};

struct tpe_policy __rcu *tpe_policy = RCU_INITIALIZER(&tpe_boot_policy);
/* Serializes writers of tpe_policy. */
DEFINE_MUTEX(tpe_policy_mutex);
/* The live policy's generation; written under tpe_policy_mutex. */
static u64 tpe_generation = 1;

/* Called once from the LSM's init, before any hook or file can run. */
void tpe_policy_boot(u32 flags)
{
	tpe_boot_hdr.flags = cpu_to_le32(flags);
	tpe_boot_policy.flags = flags;
}

/* A new, not yet valid policy with room for a blob of @len bytes. */
struct tpe_policy *tpe_policy_alloc(size_t len)
{
	struct tpe_policy *p;

	p = kvzalloc(struct_size(p, data, len), GFP_KERNEL);
	if (!p)
		return NULL;
	refcount_set(&p->usage, 1);
	p->len = len;
	p->blob = p->data;
	return p;
}

void tpe_policy_free(struct tpe_policy *p)
{
	kvfree(p);
}

/**
 * tpe_policy_get_live() - a reference to the live policy
 *
 * For readers that may sleep, such as a read of tpe/policy that faults on
 * a buffer backed by FUSE: they hold the policy, never the writers' mutex.
 *
 * Return: the live policy; drop it with tpe_policy_put().
 */
struct tpe_policy *tpe_policy_get_live(void)
{
	struct tpe_policy *p;

	/*
	 * The live reference is dropped a grace period after a replacement
	 * (tpe_policy_replace()), so it is still held here.
	 */
	rcu_read_lock();
	p = rcu_dereference(tpe_policy);
	refcount_inc(&p->usage);
	rcu_read_unlock();
	return p;
}

/**
 * tpe_policy_put() - drop a reference to a policy
 * @p: a policy from tpe_policy_get_live(), or one no longer live
 *
 * The static boot policy is never freed.
 */
void tpe_policy_put(struct tpe_policy *p)
{
	if (refcount_dec_and_test(&p->usage) && p != &tpe_boot_policy)
		tpe_policy_free(p);
}

static void tpe_policy_put_rcu(struct rcu_head *head)
{
	tpe_policy_put(container_of(head, struct tpe_policy, rcu));
}

/**
 * tpe_policy_check_hdr() - validate a header against the blob length
 * @hdr: the header, always sizeof(*hdr) readable bytes
 * @len: length of the whole blob, which may be shorter than a header
 *
 * Return: 0, -E2BIG for more entries than the limit, else -EINVAL.
 */
int tpe_policy_check_hdr(const struct tpe_policy_hdr *hdr, size_t len)
{
	u64 entries;

	if (len < sizeof(*hdr))
		return -EINVAL;
	if (le32_to_cpu(hdr->magic) != TPE_POLICY_MAGIC ||
	    le16_to_cpu(hdr->version) != TPE_POLICY_VERSION ||
	    le16_to_cpu(hdr->hdr_len) != sizeof(*hdr) ||
	    le32_to_cpu(hdr->flags) & ~TPE_POLICY_ALL_FLAGS ||
	    hdr->reserved)
		return -EINVAL;
	entries = (u64)le32_to_cpu(hdr->nr_uids) + le32_to_cpu(hdr->nr_gids);
	if (entries > TPE_POLICY_MAX_ENTRIES)
		return -E2BIG;
	if (len != sizeof(*hdr) + entries * sizeof(__le32))
		return -EINVAL;
	return 0;
}

static bool tpe_ids_ascending(const __le32 *ids, u32 n)
{
	u32 i;

	for (i = 1; i < n; i++)
		if (le32_to_cpu(ids[i - 1]) >= le32_to_cpu(ids[i]))
			return false;
	return true;
}

/**
 * tpe_policy_parse() - validate a whole blob and fill @p from it
 * @p: the policy to fill; its blob is not changed
 * @blob: header and both arrays, @len bytes, 4-byte aligned
 * @len: length of @blob
 *
 * Return: 0, or the error of tpe_policy_check_hdr(), or -EINVAL for IDs
 * that are not strictly ascending.
 */
int tpe_policy_parse(struct tpe_policy *p, const void *blob, size_t len)
{
	const struct tpe_policy_hdr *hdr = blob;
	const __le32 *uids, *gids;
	u32 nr_uids, nr_gids;
	int err;

	err = tpe_policy_check_hdr(hdr, len);
	if (err)
		return err;
	nr_uids = le32_to_cpu(hdr->nr_uids);
	nr_gids = le32_to_cpu(hdr->nr_gids);
	uids = (const __le32 *)(hdr + 1);
	gids = uids + nr_uids;
	if (!tpe_ids_ascending(uids, nr_uids) ||
	    !tpe_ids_ascending(gids, nr_gids))
		return -EINVAL;

	p->flags = le32_to_cpu(hdr->flags);
	p->nr_uids = nr_uids;
	p->nr_gids = nr_gids;
	p->uids = uids;
	p->gids = gids;
	return 0;
}

static int tpe_id_cmp(const void *key, const void *elt)
{
	u32 a = *(const u32 *)key;
	u32 b = le32_to_cpu(*(const __le32 *)elt);

	return a < b ? -1 : a > b;
}

static bool tpe_ids_have(const __le32 *ids, u32 n, u32 id)
{
	return n && bsearch(&id, ids, n, sizeof(*ids), tpe_id_cmp);
}

bool tpe_policy_has_uid(const struct tpe_policy *p, u32 uid)
{
	return tpe_ids_have(p->uids, p->nr_uids, uid);
}

bool tpe_policy_has_gid(const struct tpe_policy *p, u32 gid)
{
	return tpe_ids_have(p->gids, p->nr_gids, gid);
}

/**
 * tpe_policy_replace() - make a validated policy live
 * @p: the new policy, owned by the caller until this returns 0
 *
 * The caller holds tpe_policy_mutex. The old policy loses its live
 * reference after a grace period, and is freed with the last one, unless
 * it is the static boot policy. @p gets a generation no
 * policy had before, so no verdict cached on a credential (cred.c) is
 * taken for one under @p.
 *
 * Return: 0, or -EPERM if the live policy is locked.
 */
int tpe_policy_replace(struct tpe_policy *p)
{
	struct tpe_policy *old;

	old = rcu_dereference_protected(tpe_policy,
					lockdep_is_held(&tpe_policy_mutex));
	if (old->flags & TPE_POLICY_LOCK)
		return -EPERM;
	p->generation = ++tpe_generation;
	old = rcu_replace_pointer(tpe_policy, p,
				  lockdep_is_held(&tpe_policy_mutex));
	call_rcu(&old->rcu, tpe_policy_put_rcu);
	return 0;
}

#ifdef CONFIG_SECURITY_TPE_KUNIT_TEST

#include <kunit/test.h>

KUNIT_DEFINE_ACTION_WRAPPER(tpe_test_kvfree, kvfree, const void *);

/* A blob with @nr_uids and @nr_gids IDs; uids[] and gids[] may be NULL. */
static struct tpe_policy_hdr *
tpe_test_blob(struct kunit *test, u32 flags, const u32 *uids, u32 nr_uids,
	      const u32 *gids, u32 nr_gids, size_t *len)
{
	struct tpe_policy_hdr *hdr;
	__le32 *ids;
	u32 i;

	*len = sizeof(*hdr) + ((size_t)nr_uids + nr_gids) * sizeof(__le32);
	hdr = kvzalloc(*len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hdr);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, tpe_test_kvfree, hdr));
	hdr->magic = cpu_to_le32(TPE_POLICY_MAGIC);
	hdr->version = cpu_to_le16(TPE_POLICY_VERSION);
	hdr->hdr_len = cpu_to_le16(sizeof(*hdr));
	hdr->flags = cpu_to_le32(flags);
	hdr->nr_uids = cpu_to_le32(nr_uids);
	hdr->nr_gids = cpu_to_le32(nr_gids);
	ids = (__le32 *)(hdr + 1);
	for (i = 0; i < nr_uids; i++)
		ids[i] = cpu_to_le32(uids ? uids[i] : i);
	for (i = 0; i < nr_gids; i++)
		ids[nr_uids + i] = cpu_to_le32(gids ? gids[i] : i);
	return hdr;
}

static int tpe_test_parse(struct tpe_policy_hdr *hdr, size_t len)
{
	struct tpe_policy p = {};

	return tpe_policy_parse(&p, hdr, len);
}

static void test_tpe_policy_parse_empty(struct kunit *test)
{
	struct tpe_policy p = {};
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, TPE_POLICY_ALL_FLAGS, NULL, 0, NULL, 0, &len);
	KUNIT_EXPECT_EQ(test, len, sizeof(*hdr));
	KUNIT_EXPECT_EQ(test, 0, tpe_policy_parse(&p, hdr, len));
	KUNIT_EXPECT_EQ(test, p.flags, TPE_POLICY_ALL_FLAGS);
	KUNIT_EXPECT_EQ(test, p.nr_uids, 0);
	KUNIT_EXPECT_EQ(test, p.nr_gids, 0);
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, 0));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 0));
}

static void test_tpe_policy_parse_one(struct kunit *test)
{
	static const u32 id = 1000;
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, &id, 1, NULL, 0, &len);
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len));
	hdr = tpe_test_blob(test, 0, NULL, 0, &id, 1, &len);
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len));
}

static void test_tpe_policy_parse_limit(struct kunit *test)
{
	const u32 half = TPE_POLICY_MAX_ENTRIES / 2;
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, NULL, half, NULL, half, &len);
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len));
	hdr = tpe_test_blob(test, 0, NULL, TPE_POLICY_MAX_ENTRIES, NULL, 0,
			    &len);
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len));
}

static void test_tpe_policy_parse_over_limit(struct kunit *test)
{
	const u32 half = TPE_POLICY_MAX_ENTRIES / 2;
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, NULL, half + 1, NULL, half, &len);
	KUNIT_EXPECT_EQ(test, -E2BIG, tpe_test_parse(hdr, len));
	/* The sum must not wrap: U32_MAX + 2 is not 1. */
	hdr = tpe_test_blob(test, 0, NULL, 0, NULL, 1, &len);
	hdr->nr_uids = cpu_to_le32(U32_MAX);
	hdr->nr_gids = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, -E2BIG, tpe_test_parse(hdr, len));
}

/* The fields of a header that a value alone can make invalid. */
enum tpe_test_hdr_field {
	TPE_TEST_HDR_MAGIC,
	TPE_TEST_HDR_VERSION,
	TPE_TEST_HDR_LEN,
	TPE_TEST_HDR_FLAGS,
	TPE_TEST_HDR_RESERVED,
};

static const char *const tpe_test_hdr_field_names[] = {
	[TPE_TEST_HDR_MAGIC] = "magic",
	[TPE_TEST_HDR_VERSION] = "version",
	[TPE_TEST_HDR_LEN] = "hdr_len",
	[TPE_TEST_HDR_FLAGS] = "flags",
	[TPE_TEST_HDR_RESERVED] = "reserved",
};

/* One field of a valid header set to a value that makes it invalid. */
static const struct tpe_test_bad_hdr {
	enum tpe_test_hdr_field field;
	u32 value;
} tpe_test_bad_hdrs[] = {
	{ TPE_TEST_HDR_MAGIC, TPE_POLICY_MAGIC + 1 },
	{ TPE_TEST_HDR_VERSION, TPE_POLICY_VERSION + 1 },
	{ TPE_TEST_HDR_VERSION, 0 },
	{ TPE_TEST_HDR_LEN, sizeof(struct tpe_policy_hdr) + 4 },
	{ TPE_TEST_HDR_LEN, sizeof(struct tpe_policy_hdr) - 4 },
	{ TPE_TEST_HDR_FLAGS, TPE_POLICY_LOCK << 1 },
	{ TPE_TEST_HDR_FLAGS, BIT(31) | TPE_POLICY_ENFORCE },
	{ TPE_TEST_HDR_RESERVED, 1 },
};

/* The case's name says what it wrote: "header magic=0x31455055". */
static void tpe_test_bad_hdr_desc(const struct tpe_test_bad_hdr *bad,
				  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "header %s=%#x",
		 tpe_test_hdr_field_names[bad->field], bad->value);
}

KUNIT_ARRAY_PARAM(tpe_test_bad_hdr, tpe_test_bad_hdrs, tpe_test_bad_hdr_desc);

static void tpe_test_hdr_set(struct tpe_policy_hdr *hdr,
			     enum tpe_test_hdr_field field, u32 value)
{
	switch (field) {
	case TPE_TEST_HDR_MAGIC:
		hdr->magic = cpu_to_le32(value);
		break;
	case TPE_TEST_HDR_VERSION:
		hdr->version = cpu_to_le16(value);
		break;
	case TPE_TEST_HDR_LEN:
		hdr->hdr_len = cpu_to_le16(value);
		break;
	case TPE_TEST_HDR_FLAGS:
		hdr->flags = cpu_to_le32(value);
		break;
	case TPE_TEST_HDR_RESERVED:
		hdr->reserved = cpu_to_le32(value);
		break;
	}
}

static void test_tpe_policy_parse_bad_header(struct kunit *test)
{
	const struct tpe_test_bad_hdr *bad = test->param_value;
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, NULL, 1, NULL, 1, &len);
	KUNIT_ASSERT_EQ(test, 0, tpe_test_parse(hdr, len));
	tpe_test_hdr_set(hdr, bad->field, bad->value);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
}

static void test_tpe_policy_parse_bad_length(struct kunit *test)
{
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, NULL, 2, NULL, 1, &len);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len - 4));
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len - 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, sizeof(*hdr)));
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, sizeof(*hdr) - 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, 0));
	hdr->nr_gids = cpu_to_le32(0);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len - 4));
}

static void test_tpe_policy_parse_unsorted(struct kunit *test)
{
	static const u32 unsorted[] = { 1, 3, 2 };
	static const u32 dup[] = { 1, 2, 2 };
	static const u32 sorted[] = { 1, 2, 3 };
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, unsorted, 3, sorted, 3, &len);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
	hdr = tpe_test_blob(test, 0, sorted, 3, unsorted, 3, &len);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
	hdr = tpe_test_blob(test, 0, dup, 3, sorted, 3, &len);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
	hdr = tpe_test_blob(test, 0, sorted, 3, dup, 3, &len);
	KUNIT_EXPECT_EQ(test, -EINVAL, tpe_test_parse(hdr, len));
	/* Each list is sorted on its own: uids may overlap gids. */
	hdr = tpe_test_blob(test, 0, sorted, 3, sorted, 3, &len);
	KUNIT_EXPECT_EQ(test, 0, tpe_test_parse(hdr, len));
}

static void test_tpe_policy_has_uid(struct kunit *test)
{
	static const u32 uids[] = { 0, 5, 10, 20, U32_MAX };
	static const u32 gids[] = { 7 };
	struct tpe_policy p = {};
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, uids, ARRAY_SIZE(uids), gids, 1, &len);
	KUNIT_ASSERT_EQ(test, 0, tpe_policy_parse(&p, hdr, len));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_uid(&p, 0));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_uid(&p, 10));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_uid(&p, U32_MAX));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, 1));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, 19));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, 21));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, U32_MAX - 1));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_uid(&p, 7));
}

static void test_tpe_policy_has_gid(struct kunit *test)
{
	static const u32 uids[] = { 7 };
	static const u32 gids[] = { 100, 200, 300 };
	struct tpe_policy p = {};
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, uids, 1, gids, ARRAY_SIZE(gids), &len);
	KUNIT_ASSERT_EQ(test, 0, tpe_policy_parse(&p, hdr, len));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_gid(&p, 100));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_gid(&p, 200));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_gid(&p, 300));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 0));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 99));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 150));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 301));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 7));
}

static void test_tpe_policy_has_uid_limit(struct kunit *test)
{
	struct tpe_policy p = {};
	struct tpe_policy_hdr *hdr;
	size_t len;

	hdr = tpe_test_blob(test, 0, NULL, TPE_POLICY_MAX_ENTRIES, NULL, 0,
			    &len);
	KUNIT_ASSERT_EQ(test, 0, tpe_policy_parse(&p, hdr, len));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_uid(&p, 0));
	KUNIT_EXPECT_TRUE(test, tpe_policy_has_uid(&p, 4242));
	KUNIT_EXPECT_TRUE(test,
			  tpe_policy_has_uid(&p, TPE_POLICY_MAX_ENTRIES - 1));
	KUNIT_EXPECT_FALSE(test,
			   tpe_policy_has_uid(&p, TPE_POLICY_MAX_ENTRIES));
	KUNIT_EXPECT_FALSE(test, tpe_policy_has_gid(&p, 0));
}

static struct kunit_case tpe_policy_test_cases[] = {
	KUNIT_CASE(test_tpe_policy_parse_empty),
	KUNIT_CASE(test_tpe_policy_parse_one),
	KUNIT_CASE(test_tpe_policy_parse_limit),
	KUNIT_CASE(test_tpe_policy_parse_over_limit),
	KUNIT_CASE_PARAM(test_tpe_policy_parse_bad_header,
			 tpe_test_bad_hdr_gen_params),
	KUNIT_CASE(test_tpe_policy_parse_bad_length),
	KUNIT_CASE(test_tpe_policy_parse_unsorted),
	KUNIT_CASE(test_tpe_policy_has_uid),
	KUNIT_CASE(test_tpe_policy_has_gid),
	KUNIT_CASE(test_tpe_policy_has_uid_limit),
	{}
};

static struct kunit_suite tpe_policy_test_suite = {
	.name = "tpe_policy",
	.test_cases = tpe_policy_test_cases,
};

kunit_test_suite(tpe_policy_test_suite);

#endif /* CONFIG_SECURITY_TPE_KUNIT_TEST */
