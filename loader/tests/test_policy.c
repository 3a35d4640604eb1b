// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of policy.c: the policy blob of <linux/tpe.h>, by hand-computed
 * vectors, its limits and every malformed blob; --dump's round trip through
 * conf.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "unit.h"

static void test_fold(void **state)
{
	uint32_t a[] = { 5, 1, 4294967294U, 5, 0, 1, 1, 7 };
	uint32_t one[] = { 9 };

	(void)state;
	assert_int_equal(ids_fold(a, 8), 5);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[2], 5);
	assert_int_equal(a[3], 7);
	assert_int_equal(a[4], 4294967294U);
	assert_int_equal(ids_fold(NULL, 0), 0);
	assert_int_equal(ids_fold(one, 1), 1);
}

static void assert_encodes(const struct tpe_policy *p, const uint8_t *want,
			   size_t want_len)
{
	uint8_t *blob;
	size_t len;

	assert_int_equal(policy_encode(p, &blob, &len, err), 0);
	assert_int_equal(len, want_len);
	assert_memory_equal(blob, want, want_len);
	free(blob);
}

/* Vectors computed by hand from <linux/tpe.h>: little-endian throughout. */
static void test_blob_vectors(void **state)
{
	static const uint8_t empty[] = {
		0x54, 0x50, 0x45, 0x31,	/* magic "TPE1" */
		0x01, 0x00,		/* version 1 */
		0x18, 0x00,		/* hdr_len 24 */
		0x0b, 0x00, 0x00, 0x00,	/* flags ENFORCE | CHECK_FILE | MMAP */
		0x00, 0x00, 0x00, 0x00,	/* nr_uids */
		0x00, 0x00, 0x00, 0x00,	/* nr_gids */
		0x00, 0x00, 0x00, 0x00,	/* reserved */
	};
	static const uint8_t full[] = {
		0x54, 0x50, 0x45, 0x31, 0x01, 0x00, 0x18, 0x00,
		0x3f, 0x00, 0x00, 0x00,	/* all six flags */
		0x03, 0x00, 0x00, 0x00,	/* 3 uids */
		0x02, 0x00, 0x00, 0x00,	/* 2 gids */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,	/* uid 0 */
		0xea, 0x03, 0x00, 0x00,	/* uid 1002 */
		0xfe, 0xff, 0xff, 0xff,	/* uid 4294967294 */
		0x0a, 0x00, 0x00, 0x00,	/* gid 10 */
		0x04, 0x03, 0x02, 0x01,	/* gid 0x01020304 */
	};
	struct tpe_policy p;

	(void)state;
	load_ok("", &p);
	assert_encodes(&p, empty, sizeof(empty));
	policy_free(&p);

	/* unsorted, with a duplicate and a name: same blob as hand-sorted */
	load_ok("enforce=true; check_file=true; strict=true; mmap=true;\n"
		"invert=true; lock=true;\n"
		"trusted_users = ( 4294967294L, \"bob\", 0, 1002 );\n"
		"trusted_groups = ( 16909060, \"wheel\" );\n", &p);
	assert_encodes(&p, full, sizeof(full));
	policy_free(&p);
}

static struct tpe_policy many(size_t users, size_t groups)
{
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE };

	p.users.id = malloc((users + 1) * sizeof(uint32_t));
	p.groups.id = malloc((groups + 1) * sizeof(uint32_t));
	for (p.users.n = 0; p.users.n < users; p.users.n++)
		p.users.id[p.users.n] = p.users.n * 3;
	for (p.groups.n = 0; p.groups.n < groups; p.groups.n++)
		p.groups.id[p.groups.n] = p.groups.n + 7;
	return p;
}

static void assert_round_trip(const struct tpe_policy *p)
{
	struct tpe_policy back;
	uint8_t *blob;
	size_t len;

	assert_int_equal(policy_encode(p, &blob, &len, err), 0);
	assert_int_equal(len, sizeof(struct tpe_policy_hdr) +
			 4 * (p->users.n + p->groups.n));
	assert_int_equal(policy_decode(blob, len, &back, err), 0);
	free(blob);
	assert_int_equal(back.flags, p->flags);
	assert_int_equal(back.users.n, p->users.n);
	assert_int_equal(back.groups.n, p->groups.n);
	assert_memory_equal(back.users.id, p->users.id,
			    p->users.n * sizeof(uint32_t));
	assert_memory_equal(back.groups.id, p->groups.id,
			    p->groups.n * sizeof(uint32_t));
	policy_free(&back);
}

static void test_limits(void **state)
{
	struct tpe_policy p;
	uint8_t *blob;
	size_t len;

	(void)state;
	p = many(0, 0);
	assert_round_trip(&p);
	policy_free(&p);

	p = many(TPE_POLICY_MAX_ENTRIES - 1000, 1000);	/* exactly the limit */
	assert_round_trip(&p);
	policy_free(&p);

	p = many(TPE_POLICY_MAX_ENTRIES - 1000, 1001);	/* limit + 1 */
	assert_int_equal(policy_encode(&p, &blob, &len, err), -1);
	assert_string_equal(err, "too many entries: 1048577 users and groups, "
			    "the kernel takes at most 1048576");
	policy_free(&p);
}

static void test_decode_rejects(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_MMAP,
				.users = { (uint32_t[]){ 1, 2 }, 2 },
				.groups = { (uint32_t[]){ 3 }, 1 } };
	static const struct {
		size_t at;	/* byte to change */
		uint8_t to;
		const char *why;
	} bad[] = {
		{ 0, 'X', "policy header is not a version 1 tpe policy" },
		{ 4, 2, "policy header is not a version 1 tpe policy" },
		{ 6, 20, "policy header is not a version 1 tpe policy" },
		{ 8, 0x40, "policy header is not a version 1 tpe policy" },
		{ 20, 1, "policy header is not a version 1 tpe policy" },
		{ 12, 3, "policy is 36 bytes, its header says 3 users and "
			 "1 groups" },
		{ 15, 0x80, "policy is 36 bytes, its header says 2147483650 "
			    "users and 1 groups" },
		{ 24, 2, "policy ID lists are not strictly ascending" },
		{ 28, 0, "policy ID lists are not strictly ascending" },
	};
	struct tpe_policy back;
	uint8_t *blob;
	size_t len;

	(void)state;
	assert_round_trip(&p);
	assert_int_equal(policy_encode(&p, &blob, &len, err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t was = blob[bad[i].at];

		blob[bad[i].at] = bad[i].to;
		assert_int_equal(policy_decode(blob, len, &back, err), -1);
		assert_string_equal(err, bad[i].why);
		assert_null(back.users.id);
		blob[bad[i].at] = was;
	}
	assert_int_equal(policy_decode(blob, len - 1, &back, err), -1);
	assert_int_equal(policy_decode(blob, 23, &back, err), -1);
	assert_string_equal(err, "policy is 23 bytes, shorter than its header");
	free(blob);
}

/* --dump: conf_write(decode(blob)) loads back to the identical blob. */
static void test_dump_round_trip(void **state)
{
	struct tpe_policy p, again;
	uint8_t *b1, *b2;
	size_t l1, l2;
	char *text;
	size_t tlen;
	FILE *f;

	(void)state;
	load_ok("enforce = false; strict = true; lock = true;\n"
		"trusted_users = ( \"bob\", 1500, 77, 2147483647, 2147483648L,"
		" \"big\", 4294967294L, 0 );\n"
		"trusted_groups = ( \"tpe-trusted\", 0, 99 );\n", &p);
	assert_int_equal(policy_encode(&p, &b1, &l1, err), 0);
	policy_free(&p);
	assert_int_equal(policy_decode(b1, l1, &p, err), 0);

	f = open_memstream(&text, &tlen);
	conf_write(f, &p, &fake_db);
	fclose(f);
	/* names where the database knows them and they read back; "odd\"name"
	 * (1500) is not written as a name */
	assert_non_null(strstr(text, "\"bob\""));
	assert_non_null(strstr(text, "\"big\""));
	assert_non_null(strstr(text, "\"tpe-trusted\""));
	assert_non_null(strstr(text, "1500"));
	assert_non_null(strstr(text, "2147483648L"));
	assert_non_null(strstr(text, "4294967294L"));
	assert_non_null(strstr(text, "enforce        = false;"));

	load_ok(text, &again);
	assert_int_equal(policy_encode(&again, &b2, &l2, err), 0);
	assert_int_equal(l1, l2);
	assert_memory_equal(b1, b2, l1);
	free(text);
	free(b1);
	free(b2);
	policy_free(&p);
	policy_free(&again);

	/* empty lists round-trip too */
	p = (struct tpe_policy){ 0 };
	f = open_memstream(&text, &tlen);
	conf_write(f, &p, &fake_db);
	fclose(f);
	load_ok(text, &again);
	assert_int_equal(again.flags, 0);
	assert_int_equal(again.users.n + again.groups.n, 0);
	free(text);
	policy_free(&again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_blob_vectors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_dump_round_trip),
	};

	return cmocka_run_group_tests_name("policy", tests, setup_conf,
					   fixture_dir_remove);
}
