// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of json.c: strings as RFC 8259 asks, and the policy as --dump
 * --json writes it.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <linux/tpe.h>

#include "json.h"
#include "unit.h"

static char *json_of(const char *s)
{
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	json_string(f, s);
	fclose(f);
	return out;
}

static void test_json_string(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "\"\"" },
		{ "plain", "\"plain\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\n\t\r\b\f", "\"\\n\\t\\u000d\\u0008\\u000c\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "/", "\"/\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		/* not UTF-8: stray, overlong, surrogate, cut short */
		{ "\xff", "\"\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "x\xe2\x82", "\"x\\ufffd\\ufffd\"" },
	};
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = json_of(cases[i].in);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void test_json_policy(void **state)
{
	struct tpe_policy p = { .flags = TPE_POLICY_ENFORCE | TPE_POLICY_MMAP,
				.users = { (uint32_t[]){ 1002, 1500, 7 }, 3 },
				.groups = { (uint32_t[]){ 2000 }, 1 } };
	char *s;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	(void)state;
	json_policy(f, "/x\"y", &p, &fake_db);
	fclose(f);
	assert_string_equal(s,
		"{\"source\": \"/x\\\"y\", \"flags\": {\"enforce\": true, "
		"\"check_file\": false, \"strict\": false, \"mmap\": true, "
		"\"invert\": false, \"lock\": false}, \"trusted_users\": "
		"[{\"id\": 1002, \"name\": \"bob\"}, {\"id\": 1500, \"name\": "
		"\"odd\\\"name\"}, {\"id\": 7}], \"trusted_groups\": "
		"[{\"id\": 2000, \"name\": \"tpe-trusted\"}]}\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_json_policy),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
