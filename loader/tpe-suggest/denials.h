/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What suggest.c makes of the denials and report.c prints: the denials of
 * one user in one directory are a group, and each group is sorted into
 * what TPE exists to stop, developer tooling, or a workload with the
 * narrowest fix.
 */
#ifndef TPE_SUGGEST_DENIALS_H
#define TPE_SUGGEST_DENIALS_H

#include "suggest.h"

#define EXAMPLES	3

struct event {
	struct record r;
	char *dir;
	unsigned ops;		/* OP_* of this run: exec and its mmap are one */
	struct object o;
};

#define OP_EXEC		1u
#define OP_MMAP		2u
#define OP_MPROTECT	4u
/* "exec, mmap" for OP_EXEC | OP_MMAP */
const char *suggest_ops(unsigned ops);

enum kind {
	K_OWN,		/* a user's own program: what TPE exists to stop */
	K_TOOLING,	/* a venv or pip --user package in a home */
	K_WORKLOAD,	/* a service's or a team's program */
	K_TRUSTED,	/* the user is trusted by the config in force */
	K_DONE,		/* a trusted path now */
	K_UNVERIFIED,	/* no object found again: not acted on */
};

enum fix { FIX_NONE, FIX_DIR, FIX_COPY };

struct dgroup {
	const char *dir;
	uint32_t euid;
	size_t first, end;		/* its events */
	size_t n, enforced, verified;
	const char *example[EXAMPLES];
	char checks[96], ops[32];
	const struct object *o;		/* a verified event's, or NULL */
	char why[160];			/* the place, in words */
	enum kind kind;
	enum fix fix;
	bool can_trust;			/* listing the user would allow them */
	bool people_lose;		/* FIX_DIR takes a person's write access */
};

#define SKIP_REASONS	16
/* Users whose left-out denials are counted apart; the rest are summed. */
#define UNAUDITED_USERS	8

struct suggest {
	struct event *ev;
	size_t n, cap, distinct;
	struct dgroup *g;
	size_t ng;
	bool ready;
	struct {
		const char *why;
		size_t n;
	} skip[SKIP_REASONS];
	size_t skipped;
	struct {
		uint32_t uid;
		uint64_t n;
	} unaudited[UNAUDITED_USERS];	/* op=suppressed, by user */
	size_t nunaudited;
	uint64_t unaudited_others;	/* users past UNAUDITED_USERS */
	uint32_t *kept;			/* users the old drop-in trusts */
	size_t nkept;
	uint32_t *chosen;		/* users named by --trust */
	size_t nchosen;
	struct account *acct;		/* of each user with a group */
	size_t nacct;
	const char *dropin, *copy_dir, *source;
};

/* Sort the events and count each program run once. */
void suggest_dedupe(struct suggest *s);
int suggest_prepare(struct suggest *s, const struct tpe_policy *p,
		    const struct world *w);
const struct account *suggest_account(const struct suggest *s, uint32_t uid);
bool suggest_in(const uint32_t *id, size_t n, uint32_t uid);
/* The first group of G's directory with a fix of the directory. */
bool suggest_first_fix(const struct suggest *s, size_t gi);
/* Whether event EI is the first of its group with its inode. */
bool suggest_first_of_inode(const struct suggest *s, const struct dgroup *g,
			    size_t ei);
/* The copy of event EI of group GI: where, its group and mode, or why not. */
void suggest_copy_plan(const struct suggest *s, const struct world *w,
		       size_t gi, size_t ei, struct copy_plan *c);
const struct event *suggest_verified(const struct suggest *s,
				     const struct dgroup *g);

#endif
