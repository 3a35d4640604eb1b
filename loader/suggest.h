/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpe-suggest: from TPE's denial records to the smallest policy and
 * directory changes that would have allowed them.
 *
 *   record.c        one log line -> one denial (kernel log or audit record)
 *   suggest.c       denials -> what to trust, what to fix, and why
 *   suggest-main.c  the command line
 */
#ifndef TPE_SUGGEST_H
#define TPE_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "loader.h"

#define REC_PATH_MAX	4096

/* One denial (or would-be denial) as TPE logged it. */
struct record {
	char op[16];		/* exec, mmap, mprotect */
	char check[24];		/* dir-owner, dir-writable, ... */
	bool enforced;		/* denied; else "would deny" (permissive) */
	uint32_t uid;		/* the task's real uid */
	uint32_t euid;		/* whom the file was judged for */
	int pid;
	/* The object: st_dev as major:minor, st_ino, its directory's st_ino. */
	uint32_t dev_major, dev_minor;
	uint64_t ino, dir_ino;
	char comm[64];
	char path[REC_PATH_MAX];	/* decoded */
};

/*
 * record_parse - read one line of a log
 * Returns 1 and fills *r for a TPE denial record; 0 for a line that is not
 * one (logs are mixed); -1 with *why set for a line that looks like a TPE
 * denial record but cannot be read, or must not be trusted: it is to be
 * skipped and counted (suggest_skip()), never used. *why is one of the
 * REC_ reasons below or another static string.
 */
int record_parse(const char *line, struct record *r, const char **why);

extern const char REC_CUT[];		/* path_prefix=: the path was cut */
extern const char REC_OLD_FORMAT[];	/* "OP of PATH by uid=": forgeable */
extern const char REC_INTERPRETED[];	/* ausearch -i text */

/* What tpe-suggest knows about a directory or file on this machine. */
struct facts {
	bool found;
	uid_t uid;
	mode_t mode;
	char home_of[64];	/* in this user's home directory, or "" */
};

/* The machine: stat() and the user database; tests pass their own. */
struct world {
	int (*facts)(const char *path, struct facts *f);
	const char *(*user_name)(uint32_t uid);
	bool (*in_group)(uint32_t uid, uint32_t gid);
};

extern const struct world this_machine;

struct suggest;		/* denials, grouped and counted */

struct suggest *suggest_new(void);
/* 0, or -1 if out of memory. A record seen before (same pid, op, path,
 * user: the same event from another log) is counted once. */
int suggest_add(struct suggest *s, const struct record *r);
size_t suggest_records(const struct suggest *s);	/* distinct */
/* Count a record that was skipped, by its reason (record_parse()'s why). */
void suggest_skip(struct suggest *s, const char *why);
size_t suggest_skipped(const struct suggest *s);
/* "N unreadable TPE records skipped: ..." with each reason; nothing if 0. */
void suggest_skip_report(FILE *f, const struct suggest *s,
			 const char *indent);

/* The whole report: recommendations, alternatives, drop-in, commands. */
void suggest_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w);
/* Only the drop-in file; returns the number of users in it. */
size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w);
/* Only the recommended commands, as a shell script. */
size_t suggest_commands(FILE *f, struct suggest *s,
			const struct tpe_policy *p, const struct world *w);
void suggest_free(struct suggest *s);

#endif
