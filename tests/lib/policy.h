/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy blob of include/uapi/linux/tpe.h, built and written the one
 * way the C test programs share: the ABI has one encoder in tests/.
 */
#ifndef TPE_TESTS_LIB_POLICY_H
#define TPE_TESTS_LIB_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/tpe.h>

#define POLICY_PATH "/sys/kernel/security/tpe/policy"

/* A policy: flags and the two lists (ascending), as the user wrote it. */
struct policy {
	uint32_t flags;
	uint32_t nr_uids, nr_gids;
	const uint32_t *uids, *gids;
};

/* Encode into a fresh malloc'd blob; *len gets its size. Out of memory,
 * the program exits 1: a test that cannot build its blob tests nothing. */
unsigned char *policy_blob(const struct policy *p, size_t *len);
/* One write() of @len bytes to tpe/policy; 0 or an errno (EIO: short). */
int policy_write_raw(const void *buf, size_t len);
/* Encode and write; 0 or an errno. */
int policy_set(const struct policy *p);
/* Read the live policy into buf (cap bytes); its length, or -errno
 * (-EFBIG: longer than cap). */
ssize_t policy_read(void *buf, size_t cap);
/* The same two on a file the caller opened (tpe-bench: another path, and
 * a clock around the write() alone). */
int policy_write_fd(int fd, const void *buf, size_t len);
ssize_t policy_read_fd(int fd, void *buf, size_t cap);

/*
 * A comma list of tpe.conf's flag keys (loader/lib/flags.c, the one table)
 * into *flags; empty items are skipped. NULL, or where the first unknown
 * key starts in @list: it runs to the next ',' (print "%.*s" with
 * (int)strcspn(bad, ",")).
 */
const char *policy_parse_flags(const char *list, uint32_t *flags);

#endif
