// SPDX-License-Identifier: GPL-2.0
/* The policy blob: encode, write, read back; its flags by name (see policy.h). */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flags.h"
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

int policy_write_fd(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		return errno;
	/* a short write is never what the ABI promises */
	return (size_t)n == len ? 0 : EIO;
}

int policy_write_raw(const void *buf, size_t len)
{
	int fd = open(POLICY_PATH, O_WRONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errno;
	err = policy_write_fd(fd, buf, len);
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

ssize_t policy_read_fd(int fd, void *buf, size_t cap)
{
	size_t got = 0;

	for (;;) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += n;
		if (got == cap) {
			/* Longer than the caller's buffer: report it as such. */
			char c;

			if (read(fd, &c, 1) > 0)
				return -EFBIG;
			break;
		}
	}
	return got;
}

ssize_t policy_read(void *buf, size_t cap)
{
	int fd = open(POLICY_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = policy_read_fd(fd, buf, cap);
	close(fd);
	return n;
}

const char *policy_parse_flags(const char *list, uint32_t *flags)
{
	uint32_t f = 0;

	for (const char *s = list; *s; s += *s == ',') {
		size_t len = strcspn(s, ","), i;

		if (!len)
			continue;
		for (i = 0; i < nflag_keys; i++)
			if (strlen(flag_keys[i].key) == len &&
			    !strncmp(s, flag_keys[i].key, len))
				break;
		if (i == nflag_keys)
			return s;
		f |= flag_keys[i].flag;
		s += len;
	}
	*flags = f;
	return NULL;
}
