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
#include <sys/stat.h>
#include <sys/types.h>

#include "conf.h"
#include "judge.h"

#define REC_PATH_MAX	4096

/* One denial (or would-be denial) as TPE logged it. */
struct record {
	char op[16];		/* exec, mmap, mprotect */
	enum tpe_check check;	/* the check it failed */
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
extern const char REC_NOT_KERNEL[];	/* journal: not _TRANSPORT=kernel */

/*
 * object.c: a record's object, found again by dev:ino (never by following
 * a path), and what is known about its place.
 */
enum obj_state {
	OBJ_OK,		/* the directory and the file are the ones logged */
	OBJ_MISSING,	/* not found on this machine */
	OBJ_CHANGED,	/* moved, replaced, a symlink now: never acted on */
	OBJ_REFUSED,	/* a path with ".", ".." or "//", not a regular file */
};

#define RISKY_MAX	4

struct object {
	enum obj_state state;
	const char *why;	/* for a state other than OBJ_OK */
	uint32_t dir_uid, dir_mode, file_uid, file_mode;
	char home_of[64];	/* a user's home or in one: whose */
	const char *never;	/* under /dev, /proc, /sys or /run: which */
	/* Regular files in the directory a user owns or group/others can
	 * write: what a chown or chmod of it would make trusted. */
	size_t nrisky;
	char risky[RISKY_MAX][256];
};

int object_path_ok(const char *path);
int object_probe(const struct record *r, struct object *o);
void object_place(int dirfd, const char *dir, struct object *o);
int object_open_dir(const char *dir, uint32_t major_, uint32_t minor_,
		    uint64_t ino, struct stat *st, const char **why);
int object_open_file(int dirfd, const char *base, int flags, uint32_t major_,
		     uint32_t minor_, uint64_t ino, struct stat *st,
		     const char **why);
/* 0 done, 1 nothing to do (already so), -1 refused or failed (*why). */
int object_fix_dir(const char *dir, uint32_t major_, uint32_t minor_,
		   uint64_t dir_ino, const char **why);
int object_copy(const struct record *r, const char *copy_dir,
		const char *sub, const char *name, uid_t owner,
		const char **why);

/* The machine: the objects and the user database; tests pass their own. */
struct world {
	int (*probe)(const struct record *r, struct object *o);
	const char *(*user_name)(uint32_t uid);
	/* who->groups is malloc()ed (or NULL); the caller frees it */
	int (*identity)(uint32_t uid, struct tpe_identity *who);
};

extern const struct world this_machine;

/* Print S with no raw control byte: C0, DEL and C1 (0x80-0x9f) as \xHH,
 * a backslash as \\. */
void suggest_escape(FILE *f, const char *s);

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
/* The users the drop-in DROPIN trusts now: kept in the new one. */
int suggest_keep(struct suggest *s, const struct tpe_ids *users,
		 const char *dropin);
/* Where --apply puts copies (default DEFAULT_COPY_DIR). */
#define DEFAULT_COPY_DIR	"/opt/tpe-suggest"
void suggest_copy_dir(struct suggest *s, const char *dir);

/* The whole report: recommendations, alternatives, drop-in, actions. */
void suggest_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w);
/* Only the drop-in file; returns the number of users in it. */
size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w);
/*
 * The actions: ACT_FIX, the directories' chmod go-w; ACT_COPY, the copies
 * (only on request: a copy takes a program's bytes as they are when it is
 * made, and their owner may change them after the report was read).
 */
#define ACT_FIX		1u
#define ACT_COPY	2u
/* Only the actions WHAT, as --apply would take them; returns how many. */
size_t suggest_actions(FILE *f, struct suggest *s,
		       const struct tpe_policy *p, const struct world *w,
		       unsigned what);
/*
 * Take the actions WHAT: each one after checking its objects' dev:ino
 * again, on the descriptors checked. OWNER owns the copies (0). Returns
 * the number that failed or were refused.
 */
size_t suggest_apply(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w, uid_t owner, unsigned what);
void suggest_free(struct suggest *s);

#endif
