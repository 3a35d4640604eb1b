// SPDX-License-Identifier: GPL-2.0
/* The policy blob: encode, write, read back (see policy.h). */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"

unsigned char *policy_blob(const struct policy *p, size_t *len)
{
	struct tpe_policy_hdr h = {
		.magic = htole32(TPE_POLICY_MAGIC),
		.version = htole16(TPE_POLICY_VERSION),
		.hdr_len = htole16(sizeof(h)),
		.flags = htole32(p->flags),
		.nr_uids = htole32(p->nr_uids),
		.nr_gids = htole32(p->nr_gids),
	};
	size_t n = sizeof(h) + 4 * ((size_t)p->nr_uids + p->nr_gids);
	unsigned char *b = malloc(n), *q;

	/* A test that cannot build its blob tests nothing: stop here. */
	if (!b) {
		fprintf(stderr, "policy_blob: no memory for %zu bytes\n", n);
		exit(1);
	}
	memcpy(b, &h, sizeof(h));
	q = b + sizeof(h);
	/* memcpy, not a cast: the lists need no alignment in the buffer. */
	for (uint32_t i = 0; i < p->nr_uids; i++, q += 4) {
		uint32_t v = htole32(p->uids[i]);

		memcpy(q, &v, 4);
	}
	for (uint32_t i = 0; i < p->nr_gids; i++, q += 4) {
		uint32_t v = htole32(p->gids[i]);

		memcpy(q, &v, 4);
	}
	*len = n;
	return b;
}

int policy_write_raw(const void *buf, size_t len)
{
	int fd = open(POLICY_PATH, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;	/* a short write is never what the ABI promises */
	close(fd);
	return err;
}

int policy_set(const struct policy *p)
{
	size_t len;
	unsigned char *b = policy_blob(p, &len);
	int err = policy_write_raw(b, len);

	free(b);
	return err;
}

ssize_t policy_read(void *buf, size_t cap)
{
	int fd = open(POLICY_PATH, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0) {
			int err = errno;

			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		got += n;
		if (got == cap) {
			/* Longer than the caller's buffer: report it as such. */
			char c;

			if (read(fd, &c, 1) > 0) {
				close(fd);
				return -EFBIG;
			}
			break;
		}
	}
	close(fd);
	return got;
}
