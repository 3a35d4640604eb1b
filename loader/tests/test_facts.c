// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of facts.c: what /proc/self/mountinfo says of a file's mount.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include <linux/tpe.h>

#include "judge.h"
#include "unit.h"

static void test_mountinfo(void **state)
{
	static const char mi[] =
		"22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"40 22 0:40 / /mnt/f rw,nosuid - fuse.sshfs host: "
		"rw,user_id=1001,group_id=1001\n"
		"41 22 0:41 / /mnt/r rw - fuse.sshfs host: rw,user_id=0\n"
		"42 22 254:0 /srv /mnt/i rw,idmapped - ext4 /dev/vda rw\n";
	struct tpe_facts f;
	char why[200];
	FILE *in;
	int id;

	(void)state;
	for (id = 22; id <= 43; id++) {
		in = fmemopen((void *)mi, sizeof(mi) - 1, "r");
		f = (struct tpe_facts){ 0 };
		assert_int_equal(mountinfo_judge(in, id, &f, why, sizeof(why)),
				 id == 22 || (id >= 40 && id <= 42) ? 0 : -1);
		fclose(in);
		assert_int_equal(f.untrusted_fs != NULL, id == 40);
		assert_int_equal(f.idmapped, id == 42);
	}
	in = fmemopen((void *)mi, sizeof(mi) - 1, "r");
	mountinfo_judge(in, 40, &f, why, sizeof(why));
	fclose(in);
	assert_string_equal(f.untrusted_fs,
			    "fuse.sshfs mounted for user_id=1001 (fusermount3)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo),
	};

	return cmocka_run_group_tests_name("facts", tests, NULL, NULL);
}
