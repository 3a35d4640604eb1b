// SPDX-License-Identifier: GPL-2.0
/*
 * Where config text comes from: a file, checked the way sudo and doas check
 * theirs, or standard input ("-"). The checks are made with fstat() on the
 * descriptor that is then read, so what was checked is what is parsed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "io.h"

/*
 * A file (or directory) only root can change, or (for a check by someone else) one only
 * that caller can change: a file another user can rewrite must never
 * decide who is trusted.
 */
static int safe(const char *path, const struct stat *st, uid_t caller,
		FILE *warn, char *err)
{
	if (st->st_uid != 0 && st->st_uid != caller) {
		snprintf(err, ERRLEN, "%s: owned by uid %u, not root: "
			 "refusing it (chown root %s)", path,
			 (unsigned)st->st_uid, path);
		return -1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, ERRLEN, "%s: writable by group or others (mode "
			 "%04o): refusing it (chmod go-w %s)", path,
			 (unsigned)(st->st_mode & 07777), path);
		return -1;
	}
	if (st->st_uid != 0 && warn)
		fprintf(warn, "%s: note: owned by uid %u, not root: loaded by "
			"root, tpe-load would refuse it\n", path,
			(unsigned)st->st_uid);
	return 0;
}

int source_read(const char *path, uid_t caller, FILE *warn, char **text,
		char err[ERRLEN])
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC |
					  O_NOCTTY) : STDIN_FILENO;
	struct stat st;
	uint8_t *buf;
	size_t len;
	int e;

	*err = 0;
	if (fd < 0) {
		snprintf(err, ERRLEN, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fd != STDIN_FILENO && (fstat(fd, &st) ||
				   safe(path, &st, caller, warn, err))) {
		if (!*err)
			snprintf(err, ERRLEN, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	e = read_fd(fd, &buf, &len);
	if (fd != STDIN_FILENO)
		close(fd);
	if (e) {
		snprintf(err, ERRLEN, "%s: %s", strcmp(path, "-") ? path :
			 "<stdin>", strerror(e));
		return -1;
	}
	if (memchr(buf, 0, len)) {
		snprintf(err, ERRLEN, "%s: holds a NUL byte: not a text file",
			 path);
		free(buf);
		return -1;
	}
	*text = (char *)buf;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A drop-in: NAME.conf, not hidden. */
static int is_dropin(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && !strcmp(name + len - 5, ".conf");
}

/*
 * The *.conf files of directory dir, in lexical (strcmp) order, as
 * malloc()ed paths. A missing directory has none; one that others can
 * change is refused, since removing or renaming a drop-in changes the
 * policy as surely as writing one.
 */
int source_dir(const char *dir, uid_t caller, FILE *warn, char ***paths,
	       size_t *n, char err[ERRLEN])
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	struct stat st;
	char **more;
	DIR *dh;

	*err = 0;
	*paths = NULL;
	*n = 0;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) || safe(dir, &st, caller, warn, err) ||
	    !(dh = fdopendir(fd))) {
		if (!*err)
			snprintf(err, ERRLEN, "%s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((errno = 0, d = readdir(dh))) {
		if (!is_dropin(d->d_name))
			continue;
		more = realloc(*paths, (*n + 1) * sizeof(*more));
		if (!more || asprintf(&more[*n], "%s/%s", dir, d->d_name) < 0) {
			*paths = more ? more : *paths;
			errno = ENOMEM;
			break;
		}
		*paths = more;
		++*n;
	}
	if (errno) {
		snprintf(err, ERRLEN, "%s: %s", dir, strerror(errno));
		closedir(dh);
		source_dir_free(*paths, *n);
		*paths = NULL;
		*n = 0;
		return -1;
	}
	closedir(dh);
	if (*n)
		qsort(*paths, *n, sizeof(**paths), by_name);
	return 0;
}

void source_dir_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}
