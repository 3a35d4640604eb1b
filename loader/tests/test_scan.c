// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scan.c: no literal is read as anything but what was written.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "unit.h"

static void test_no_wrapping(void **state)
{
	static const struct {
		const char *text, *want;	/* want: after "path:" */
	} refused[] = {
		{ "trusted_users = [ 4294968296 ];\n",
		  "1: 4294968296 does not fit in 32 bits and libconfig would "
		  "read it as 1000: write a 64-bit integer with an L suffix" },
		{ "trusted_users = [ 4294967296 ];\n",
		  "1: 4294967296 does not fit in 32 bits and libconfig would "
		  "read it as 0: write a 64-bit integer with an L suffix" },
		{ "# 4294968296\n\ntrusted_groups = (\n 1,\n 0x1000003E8 );\n",
		  "5: 0x1000003E8 does not fit in 32 bits and libconfig would "
		  "read it as 1000: write a 64-bit integer with an L suffix" },
		{ "trusted_users = ( -3000000000 );\n",
		  "1: -3000000000 does not fit in 32 bits and libconfig would "
		  "read it as 1294967296: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 2147483648 ];\n",
		  "1: 2147483648 does not fit in 32 bits and libconfig would "
		  "read it as -2147483648: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 0x80000000 ];\n",
		  "1: 0x80000000 does not fit in 32 bits and libconfig would "
		  "read it as -2147483648: write a 64-bit integer with an L "
		  "suffix" },
		{ "trusted_users = [ 000000000000000000004294968296 ];\n",
		  "1: 000000000000000000004294968296 does not fit in 32 bits "
		  "and libconfig would read it as 1000: write a 64-bit integer "
		  "with an L suffix" },
		/* anywhere, not only in a list */
		{ "enforce = 99999999999999999999;\n",
		  "1: 99999999999999999999 does not fit in 32 bits and "
		  "libconfig would read it as -1: write a 64-bit integer with "
		  "an L suffix" },
		/* what is not a plain integer is libconfig's to judge */
		{ "trusted_users = ( 99999999999e3 );\n",
		  "1: trusted_users: expected a user name or number" },
		{ "trusted_users = [ -2147483648 ];\n",
		  "1: user ID -2147483648 out of range 0..4294967294" },
	};
	struct tpe_policy p;
	char want[ERRLEN + 1200], *w;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(want, sizeof(want), "%s:%s", conf_path,
			 refused[i].want);
		assert_int_equal(load(refused[i].text, &p, &w), -1);
		assert_string_equal(err, want);
		free(w);
	}
	/* the largest plain literals, L literals, numbers in strings and
	 * comments, names with digits: read as written */
	load_ok("trusted_users = ( 2147483647, 0x7fffffff, 4294967294L,\n"
		" 0xFFFFFFFEL, 3000000000LL ); # 4294968296\n"
		"/* 4294968296\n 0x1000003E8 */ trusted_groups = ( 0x7FFFFFFF,"
		" -0, \"tpe-trusted\" ); // 2147483648\n", &p);
	assert_ids(&p.users, 3, 2147483647U, 3000000000U, 4294967294U);
	assert_ids(&p.groups, 3, 0, 2000, 2147483647U);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_wrapping),
	};

	return cmocka_run_group_tests_name("scan", tests, setup_conf,
					   fixture_dir_remove);
}
