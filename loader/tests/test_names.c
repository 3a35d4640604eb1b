// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of names.c: the user or group database read once, looked up both
 * ways.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include <linux/tpe.h>

#include "unit.h"

static void test_names(void **state)
{
	struct names t = { 0 };
	char name[32];
	uint32_t id;

	(void)state;
	assert_int_equal(names_sort(&t), 0);	/* empty: every lookup misses */
	assert_int_equal(names_id(&t, "root", &id), -1);
	assert_null(names_name(&t, 0));
	names_free(&t);

	/* as getpwnam()/getpwuid() would: the first entry read wins */
	assert_int_equal(names_add(&t, "bob", 1002), 0);
	assert_int_equal(names_add(&t, "root", 0), 0);
	assert_int_equal(names_add(&t, "toor", 0), 0);
	assert_int_equal(names_add(&t, "bob", 7), 0);
	assert_int_equal(names_add(&t, "alice", 1001), 0);
	for (int i = 0; i < 5000; i++) {	/* past the first allocation */
		snprintf(name, sizeof(name), "u%d", i);
		assert_int_equal(names_add(&t, name, 100000 + i), 0);
	}
	assert_int_equal(names_sort(&t), 0);
	assert_int_equal(names_id(&t, "bob", &id), 0);
	assert_int_equal(id, 1002);
	assert_int_equal(names_id(&t, "toor", &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(names_id(&t, "alice", &id), 0);
	assert_int_equal(id, 1001);
	assert_int_equal(names_id(&t, "u4999", &id), 0);
	assert_int_equal(id, 104999);
	assert_int_equal(names_id(&t, "u5000", &id), -1);
	assert_int_equal(names_id(&t, "", &id), -1);
	assert_int_equal(names_id(&t, "zzz", &id), -1);
	assert_string_equal(names_name(&t, 0), "root");
	assert_string_equal(names_name(&t, 7), "bob");
	assert_string_equal(names_name(&t, 1002), "bob");
	assert_string_equal(names_name(&t, 100000), "u0");
	assert_string_equal(names_name(&t, 104999), "u4999");
	assert_null(names_name(&t, 1));
	assert_null(names_name(&t, 4294967294U));
	names_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
