/* SPDX-License-Identifier: GPL-2.0 */
/* Files and the kernel's securityfs files; errors are errno values. */
#ifndef TPE_IO_H
#define TPE_IO_H

#include <string.h>

#include "libtpe.h"

/* file.c: plain files */
int write_once(const char *path, int oflags, const void *buf, size_t len);
int read_fd(int fd, uint8_t **buf, size_t *len);
int read_all(const char *path, uint8_t **buf, size_t *len);

/* securityfs.c: the kernel's files; read_live() is 0 or an errno, with err */
const char *securityfs_policy(void);
const char *securityfs_stats(void);
int read_live(struct tpe_policy *p, uint8_t **blobp, size_t *lenp,
	      char err[ERRLEN]);
const char *errno_words(int err);
const char *securityfs_root(void);
enum tpe_presence { TPE_ACTIVE, TPE_INACTIVE, TPE_UNKNOWN };
enum tpe_presence tpe_presence(int *why);
void tpe_absent_words(enum tpe_presence pr, int why, char err[ERRLEN]);
void write_refusal(int err, char out[ERRLEN]);

/*
 * --status: what securityfs says and whether the config builds the live
 * policy (tpe-load/status.c gathers it, json.c writes it as JSON)
 */
struct stat_counter {
	char name[64];
	unsigned long long value;
};

struct tpe_status {
	const char *mode;		/* enforcing, permissive, off */
	int have_policy;
	struct tpe_policy live;
	struct stat_counter *counters;
	size_t ncounters;
	const char *config;
	const char *sync;		/* "in sync", "stale", "invalid" */
	char config_err[ERRLEN];
	char **files;			/* the config's files, as read */
	size_t nfiles;
};

/* The config as messages name it: standard input is "<stdin>". */
static inline const char *status_config_name(const struct tpe_status *s)
{
	return strcmp(s->config, "-") ? s->config : "<stdin>";
}

#endif
