// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of status.c: the counters read, and --status in text and JSON.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <linux/tpe.h>

#include "json.h"
#include "tpe-load.h"
#include "unit.h"

static void test_status(void **state)
{
	char *files[] = { "/etc/tpe.conf", "/etc/tpe.conf.d/50-x.conf" };
	struct tpe_status s = { .mode = "enforcing", .have_policy = 1,
				.config = "/etc/tpe.conf", .sync = "stale",
				.files = files, .nfiles = 2,
				.live = { .flags = TPE_POLICY_ENFORCE |
					  TPE_POLICY_MMAP,
					  .groups = { (uint32_t[]){ 5 }, 1 } } };
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	assert_int_equal(status_parse_stats("exec_denials 3\nmmap_denials 0\n"
					    "would_deny 18446744073709551615\n",
					    &s), 0);
	assert_int_equal(s.ncounters, 3);
	assert_int_equal(s.counters[2].value, 18446744073709551615ULL);
	f = open_memstream(&out, &len);
	status_write(f, &s);
	fclose(f);
	assert_string_equal(out, "mode: enforcing\nflags: enforce mmap\n"
			    "trusted_users: 0\ntrusted_groups: 1\n"
			    "exec_denials: 3\nmmap_denials: 0\n"
			    "would_deny: 18446744073709551615\n"
			    "config: stale: the config and its drop-ins build "
			    "another policy than the live one (read: "
			    "/etc/tpe.conf, /etc/tpe.conf.d/50-x.conf)\n");
	free(out);
	f = open_memstream(&out, &len);
	json_status(f, &s);
	fclose(f);
	assert_string_equal(out, "{\"mode\": \"enforcing\", \"flags\": "
			    "{\"enforce\": true, \"check_file\": false, "
			    "\"strict\": false, \"mmap\": true, \"invert\": "
			    "false, \"lock\": false}, \"trusted_users\": 0, "
			    "\"trusted_groups\": 1, \"stats\": "
			    "{\"exec_denials\": 3, \"mmap_denials\": 0, "
			    "\"would_deny\": 18446744073709551615}, "
			    "\"config\": {\"path\": \"/etc/tpe.conf\", "
			    "\"state\": \"stale\", \"files\": "
			    "[\"/etc/tpe.conf\", \"/etc/tpe.conf.d/50-x.conf\"]}}\n");
	free(out);
	free(s.counters);
	s = (struct tpe_status){ 0 };
	assert_int_equal(status_parse_stats("exec_denials x\n", &s), -1);
	free(s.counters);
	s = (struct tpe_status){ 0 };
	assert_int_equal(status_parse_stats("a 1 2\n", &s), -1);
	free(s.counters);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status),
	};

	return cmocka_run_group_tests_name("status", tests, NULL, NULL);
}
