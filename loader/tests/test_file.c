// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of file.c: the one write() that hands over a policy, and reading
 * to the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "fixture.h"
#include "io.h"
#include "unit.h"

static void test_write_read(void **state)
{
	static const char big[] = "0123456789abcdef";
	char path[1200];
	uint8_t *buf;
	size_t len;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/policy", fixture_dir);
	unlink(path);
	/* securityfs is never created, only opened */
	assert_int_equal(write_once(path, 0, big, 16), ENOENT);
	assert_int_equal(read_all(path, &buf, &len), ENOENT);
	assert_int_equal(write_once(path, O_CREAT, big, 16), 0);
	/* a shorter write replaces, not overlays */
	assert_int_equal(write_once(path, 0, big, 3), 0);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(buf, "012", 3);
	free(buf);

	/* a file larger than read_all's first buffer */
	fd = open(path, O_WRONLY | O_TRUNC);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(write(fd, big, 16), 16);
	close(fd);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 16000);
	assert_memory_equal(buf + 15984, big, 16);
	free(buf);

	fd = open(path, O_WRONLY | O_TRUNC);
	close(fd);
	assert_int_equal(read_all(path, &buf, &len), 0);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read),
	};

	return cmocka_run_group_tests_name("file", tests, setup_conf,
					   fixture_dir_remove);
}
