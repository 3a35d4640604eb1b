/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpe-suggest: from TPE's audit records to the narrowest changes that a
 * person decides on.
 *
 *   record.c        one audit record -> one denial
 *   input.c         the channels only the kernel writes: journal, audit.log
 *   object.c        a record's object found again by dev:ino; fix and copy
 *   account.c       who an account is (service or person), group members
 *   suggest.c       denials -> what TPE exists to stop, workloads, fixes
 *   report.c        the report, the drop-in, the summary, the actions
 *   suggest-main.c  the command line
 */
#ifndef TPE_SUGGEST_H
#define TPE_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <auparse.h>

#include "conf.h"
#include "judge.h"

#define REC_PATH_MAX	4096

/*
 * One denial (or would-be denial) as TPE's audit record gives it, or, with
 * op "suppressed", the kernel's count of one user's denials it left out of
 * audit (its limit per user): only uid and denials are set.
 */
struct record {
	char op[16];		/* exec, mmap, mprotect, suppressed */
	enum tpe_check check;	/* the check it failed */
	bool enforced;		/* denied; else "would deny" (permissive) */
	uint32_t uid;		/* the task's real uid */
	uint32_t euid;		/* whom the file was judged for */
	int pid;
	/* The object: st_dev as major:minor, st_ino, its directory's st_ino. */
	uint32_t dev_major, dev_minor;
	uint64_t ino, dir_ino;
	uint64_t time;		/* seconds since the epoch */
	uint64_t serial;	/* the audit event's serial number */
	char comm[64];
	char path[REC_PATH_MAX];	/* decoded */
	uint32_t denials;	/* op "suppressed": how many */
};

/*
 * record_from_audit - the denial in the AVC record auparse is at
 * record_line - the denial in one line of an audit log
 * Return 1 and fill *r for TPE's record; 0 for any other record (logs are
 * mixed); -1 with *why set for a record that reads like TPE's but is not
 * the kernel's form: it is skipped and counted (suggest_skip()), never
 * used. record_line() returns REC_REFUSED with *why for a line that is no
 * audit record at all (kernel-log text, JSON, ausearch -i): an input with
 * one is refused whole.
 */
#define REC_REFUSED	(-2)
int record_from_audit(auparse_state_t *au, struct record *r,
		      const char **why);
int record_line(const char *line, struct record *r, const char **why);

extern const char REC_INTERPRETED[];	/* ausearch -i text */
extern const char REC_KERNEL_LOG[];	/* dmesg, journalctl -k, kern.log */
extern const char REC_JSON[];		/* journalctl -o json */
extern const char REC_AUSEARCH[];	/* ausearch without --raw */
extern const char REC_NOT_AUDIT[];

struct suggest;		/* denials, grouped and counted */

/*
 * input.c: read every denial of LOG into S: NULL for this machine's
 * journal (the audit records journald took from the kernel), else a file:
 * an audit log (auditd's audit.log, `ausearch --raw`; "-" for standard
 * input), or a journal file or directory. With CALLER set (not
 * (uid_t)-1), a file must be owned by root or CALLER and writable by no
 * one else: what anyone could write is no record. 0, or 1 with the
 * reason on standard error.
 */
int input_read(const char *log, uid_t caller, struct suggest *s);
/* The journal already opened (tests open a file made from a fixture). */
struct sd_journal;
int input_journal(struct sd_journal *j, const char *name, struct suggest *s);
int input_text(FILE *in, const char *name, struct suggest *s);

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
	uint32_t dir_uid, dir_gid, dir_mode;
	uint32_t file_uid, file_gid, file_mode;
	uint64_t file_size;
	char home_of[64];	/* a user's home or in one: whose */
	const char *never;	/* under /dev, /proc, /sys or /run: which */
	bool venv;		/* in a Python virtual environment */
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

/* The largest program a copy is made of. */
#define COPY_MAX	(64ull << 20)

/* A copy: where, and who may read it (no one its source did not let). */
struct copy_plan {
	char sub[128], name[320];	/* COPY_DIR/SUB/NAME */
	uint32_t gid;			/* the copy's group; root owns it */
	uint32_t mode;			/* 0500 | group's r-x | other's r-x */
	const char *why;		/* no copy: why */
};
int object_copy(const struct record *r, const char *copy_dir,
		const struct copy_plan *c, uid_t owner, const char **why);

/*
 * account.c: who an account is, from facts no user chooses: the system
 * UID range of /etc/login.defs, a shell that is no login shell, the User=
 * of a systemd unit, a group and its members.
 */
struct account {
	uint32_t uid;
	bool known;		/* a passwd entry */
	bool service;		/* a service account, not a person */
	uint32_t gid;		/* primary group */
	char name[64];
	char why[192];		/* what makes it a service account */
	char unit[128];		/* a unit that runs as it, or "" */
};

/* The machine: the objects and the user database; tests pass their own. */
struct world {
	int (*probe)(const struct record *r, struct object *o);
	const char *(*user_name)(uint32_t uid);
	/* who->groups is malloc()ed (or NULL); the caller frees it */
	int (*identity)(uint32_t uid, struct tpe_identity *who);
	void (*account)(uint32_t uid, struct account *a);
	/* "NAME (members: A, B)" of a group, into OUT */
	void (*group)(uint32_t gid, char *out, size_t size);
	/* the gid of the group whose one member is UID, or -1 */
	int64_t (*own_group)(uint32_t uid);
	/* whether UID is a member of GID (primary or supplementary) */
	bool (*in_group)(uint32_t uid, uint32_t gid);
	/* whether a person (not root, not a service account) is in GID */
	bool (*people_in)(uint32_t gid);
};

extern const struct world this_machine;

void account_of(uint32_t uid, struct account *a);
void account_group(uint32_t gid, char *out, size_t size);
int64_t account_own_group(uint32_t uid);
bool account_in_group(uint32_t uid, uint32_t gid);
bool account_people_in(uint32_t gid);

/* Print S with no raw control byte: C0, DEL and C1 (0x80-0x9f) as \xHH,
 * a backslash as \\. */
void suggest_escape(FILE *f, const char *s);

struct suggest *suggest_new(void);
/* 0, or -1 if out of memory. A record seen before (same pid, op, path,
 * user: the same event from another log) is counted once. */
int suggest_add(struct suggest *s, const struct record *r);
size_t suggest_records(const struct suggest *s);	/* distinct */
/* Count a record that was skipped, by its reason (record_line()'s why). */
void suggest_skip(struct suggest *s, const char *why);
size_t suggest_skipped(const struct suggest *s);
/* "N unreadable TPE records skipped: ..." with each reason; nothing if 0. */
void suggest_skip_report(FILE *f, const struct suggest *s,
			 const char *indent);
/* Where the records came from, for the report's first line. */
void suggest_source(struct suggest *s, const char *what);
/* The users the drop-in DROPIN trusts now: kept in the new one. */
int suggest_keep(struct suggest *s, const struct tpe_ids *users,
		 const char *dropin);
/* A user a person decided to trust (--trust): 0, or -1 if the log has no
 * denial of UID that trusting would allow. */
int suggest_trust(struct suggest *s, const struct tpe_policy *p,
		  const struct world *w, uint32_t uid);
/* Where --copy puts copies (default DEFAULT_COPY_DIR). */
#define DEFAULT_COPY_DIR	"/opt/tpe-suggest"
void suggest_copy_dir(struct suggest *s, const char *dir);

/* The whole report: what TPE stops, workloads and their fixes, trust. */
void suggest_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w);
/* Read-only: who was refused where, how often, which check. */
void suggest_summary(FILE *f, struct suggest *s);
/* Only the drop-in file; returns the number of users it trusts. */
size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w);
/*
 * The actions: ACT_FIX, directories' chmod g-w/o-w; ACT_COPY, root-owned
 * copies of programs. Each is taken only when asked for: its kind (WHAT),
 * or its object by name (ONLY: the directory of a fix, the program of a
 * copy, as the report prints them; NULL for all of the kind). A fix that
 * takes write access from people is taken only by name.
 */
#define ACT_FIX		1u
#define ACT_COPY	2u
struct act_select {
	unsigned what;
	const char *const *fix_only, *const *copy_only;	/* NULL-ended */
};
/* The actions SEL names, as --apply would take them; returns how many. */
size_t suggest_actions(FILE *f, struct suggest *s,
		       const struct tpe_policy *p, const struct world *w,
		       const struct act_select *sel);
/* A name in SEL that names no action of the report: it, or NULL. */
const char *suggest_unknown(struct suggest *s, const struct tpe_policy *p,
			    const struct world *w,
			    const struct act_select *sel);
/*
 * Take the actions SEL names: each one after checking its objects'
 * dev:ino again, on the descriptors checked. OWNER owns the copies (0).
 * Returns the number that failed or were refused.
 */
size_t suggest_apply(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w, uid_t owner,
		     const struct act_select *sel);
void suggest_free(struct suggest *s);

#endif
