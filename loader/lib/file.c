// SPDX-License-Identifier: GPL-2.0
/* Plain files: the one write() that hands over a policy, reading to the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "io.h"

/* One open, one write() of the whole buffer; returns 0 or an errno. */
int write_once(const char *path, int oflags, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | oflags, 0644);
	ssize_t n;
	int err;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	err = n < 0 ? errno : (size_t)n != len ? EIO : 0;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/*
 * Reads fd to its end into a malloc()ed buffer with a NUL after the last
 * byte (not counted in *len); returns 0 or an errno.
 */
int read_fd(int fd, uint8_t **buf, size_t *len)
{
	size_t cap = 4096;
	uint8_t *b = NULL, *more;
	ssize_t n;
	int err = 0;

	for (*len = 0;; *len += n) {
		if (!b || *len + 1 >= cap) {
			more = realloc(b, b ? cap *= 2 : cap);
			if (!more) {
				err = ENOMEM;
				break;
			}
			b = more;
		}
		n = read(fd, b + *len, cap - 1 - *len);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			err = n ? errno : 0;
			break;
		}
	}
	if (err) {
		free(b);
		return err;
	}
	b[*len] = 0;
	*buf = b;
	return 0;
}

/* Reads the whole file into a malloc()ed buffer; returns 0 or an errno. */
int read_all(const char *path, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errno;
	err = read_fd(fd, buf, len);
	close(fd);
	return err;
}
