// SPDX-License-Identifier: GPL-2.0
/*
 * Denials -> what a person may decide. Every record's object is first
 * found again by dev:ino (object.c); one that moved or changed since it
 * was logged is reported, never acted on. Then each user's denials in one
 * directory are sorted:
 *
 *   OWN       a user's own programs: in a home, in a sticky directory like
 *             /tmp, in a directory a user owns, her own file in a
 *             directory everyone may write, memory with no file, a file
 *             system a user mounted. TPE exists to stop exactly these:
 *             they stay denied.
 *   TOOLING   a Python virtual environment or a pip --user package in a
 *             home: installed system-wide, or a trusted group of
 *             developers that the administrator creates.
 *   WORKLOAD  a service account's programs in its own state directory,
 *             or a program in a root-owned directory that a group or
 *             everyone may write: the narrowest fix is a chmod of the
 *             directory that keeps the path (only where it holds nothing
 *             but root's files no one else may write), else a root-owned
 *             copy in a new directory whose new path the report names.
 *
 * Trusting a user is never proposed as a fix: it is one explicit act of a
 * person (--trust=USER), and the drop-in lists each user that trust would
 * allow as a comment with the reasons. Who is trusted, now and if listed,
 * is explain_judge()'s answer, the one --explain gives: one judge.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/tpe.h>

#include "denials.h"

struct suggest *suggest_new(void)
{
	struct suggest *s = calloc(1, sizeof(struct suggest));

	if (s) {
		s->dropin = "/etc/tpe.conf.d/50-suggest.conf";
		s->copy_dir = DEFAULT_COPY_DIR;
		s->source = "the log";
	}
	return s;
}

void suggest_copy_dir(struct suggest *s, const char *dir)
{
	s->copy_dir = dir;
}

void suggest_source(struct suggest *s, const char *what)
{
	s->source = what;
}

bool suggest_in(const uint32_t *id, size_t n, uint32_t uid)
{
	for (size_t k = 0; k < n; k++)
		if (id[k] == uid)
			return true;
	return false;
}

int suggest_keep(struct suggest *s, const struct tpe_ids *users,
		 const char *dropin)
{
	free(s->kept);
	s->nkept = 0;
	s->kept = calloc(users->n ? users->n : 1, sizeof(*s->kept));
	if (!s->kept)
		return -1;
	if (users->n)
		memcpy(s->kept, users->id, users->n * sizeof(*s->kept));
	s->nkept = users->n;
	s->dropin = dropin;
	return 0;
}

/* A summary names no object: it only counts, for the report. */
static void add_unaudited(struct suggest *s, const struct record *r)
{
	size_t i;

	for (i = 0; i < s->nunaudited; i++)
		if (s->unaudited[i].uid == r->uid)
			break;
	if (i == UNAUDITED_USERS) {
		s->unaudited_others += r->denials;
		return;
	}
	if (i == s->nunaudited) {
		s->unaudited[i].uid = r->uid;
		s->nunaudited++;
	}
	s->unaudited[i].n += r->denials;
}

int suggest_add(struct suggest *s, const struct record *r)
{
	struct event *e;
	char *slash;

	if (!strcmp(r->op, "suppressed")) {
		add_unaudited(s, r);
		return 0;
	}

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		e = realloc(s->ev, cap * sizeof(*e));
		if (!e)
			return -1;
		s->ev = e;
		s->cap = cap;
	}
	e = &s->ev[s->n];
	memset(e, 0, sizeof(*e));
	e->r = *r;
	e->ops = !strcmp(r->op, "exec") ? OP_EXEC :
		 !strcmp(r->op, "mmap") ? OP_MMAP : OP_MPROTECT;
	e->dir = strdup(r->path);
	if (!e->dir)
		return -1;
	slash = strrchr(e->dir, '/');
	if (slash)
		slash[slash == e->dir] = '\0';	/* "/x" -> "/" */
	s->n++;
	s->ready = false;
	return 0;
}

size_t suggest_records(const struct suggest *s)
{
	return s->ready ? s->distinct : s->n;
}

void suggest_skip(struct suggest *s, const char *why)
{
	size_t i;

	s->skipped++;
	if (!why)
		why = "unreadable";
	for (i = 0; i < SKIP_REASONS && s->skip[i].why; i++)
		if (!strcmp(s->skip[i].why, why))
			break;
	if (i == SKIP_REASONS)
		i--, why = "other reasons";	/* the last slot takes the rest */
	s->skip[i].why = why;
	s->skip[i].n++;
}

size_t suggest_skipped(const struct suggest *s)
{
	return s->skipped;
}

/* ---- grouping ---- */

static int by_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);

	if (c)
		return c;
	if (x->r.euid != y->r.euid)
		return x->r.euid < y->r.euid ? -1 : 1;
	if ((c = strcmp(x->r.path, y->r.path)))
		return c;
	if (x->r.ino != y->r.ino)
		return x->r.ino < y->r.ino ? -1 : 1;
	return (x->r.pid > y->r.pid) - (x->r.pid < y->r.pid);
}

/* One program run: exec and its mmap, or one event read from two logs. */
static bool same_event(const struct event *x, const struct event *y)
{
	return x->r.euid == y->r.euid && x->r.pid == y->r.pid &&
	       x->r.ino == y->r.ino && !strcmp(x->r.path, y->r.path);
}

static void add_word(char *list, size_t size, const char *word)
{
	size_t len = strlen(list), n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p++)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	if (len + n + 3 < size)
		snprintf(list + len, size - len, "%s%s", len ? ", " : "", word);
}

const char *suggest_ops(unsigned ops)
{
	static const char *const words[8] = {
		"", "exec", "mmap", "exec, mmap", "mprotect", "exec, mprotect",
		"mmap, mprotect", "exec, mmap, mprotect",
	};

	return words[ops & 7];
}

static bool has_check(const struct suggest *s, const struct dgroup *g,
		      enum tpe_check check)
{
	for (size_t i = g->first; i < g->end; i++)
		if (s->ev[i].r.check == check)
			return true;
	return false;
}

const struct account *suggest_account(const struct suggest *s, uint32_t uid)
{
	for (size_t i = 0; i < s->nacct; i++)
		if (s->acct[i].uid == uid)
			return &s->acct[i];
	return NULL;
}

/* UID's account, looked up once: room for every euid and file owner. */
static const struct account *account(struct suggest *s, const struct world *w,
				     uint32_t uid)
{
	const struct account *a = suggest_account(s, uid);

	if (a || s->nacct == 2 * s->n + 1)
		return a;
	w->account(uid, &s->acct[s->nacct]);
	s->acct[s->nacct].uid = uid;
	return &s->acct[s->nacct++];
}

/* The kernel's facts for explain_judge(), from the object found again. */
static void judge_facts(const struct dgroup *g, const struct event *e,
			bool untrusted_fs, struct tpe_facts *f)
{
	*f = (struct tpe_facts){ .path = e->r.path, .resolved = e->r.path,
				 .dir_path = g->dir };
	if (e->r.check == TPE_CHECK_NO_PARENT) {
		f->no_parent = 1;
		return;
	}
	f->file = (struct tpe_node){ e->o.file_uid, e->o.file_mode };
	f->dir = (struct tpe_node){ e->o.dir_uid, e->o.dir_mode };
	if (untrusted_fs)
		f->untrusted_fs = "a file system a user mounted";
}

/*
 * Is the user trusted for these programs by the current policy, and would
 * listing the user in trusted_users allow them? explain_judge() answers
 * both, for every verified event of the group.
 */
static void judge_trust(struct suggest *s, struct dgroup *g,
			const struct tpe_policy *p, const struct world *w)
{
	struct tpe_identity who = { 0 };
	struct tpe_policy more = *p;
	uint32_t *ids = calloc(p->users.n + 1, sizeof(*ids));
	bool ufs = has_check(s, g, TPE_CHECK_UNTRUSTED_FS);
	bool trusted = true, can = true;
	size_t judged = 0;

	g->can_trust = false;
	if (!ids || w->identity(g->euid, &who)) {
		free(ids);
		return;
	}
	if (p->users.n)
		memcpy(ids, p->users.id, p->users.n * sizeof(*ids));
	ids[p->users.n] = g->euid;
	more.users = (struct tpe_ids){ ids, ids_fold(ids, p->users.n + 1) };
	for (size_t i = g->first; i < g->end; i++) {
		const struct event *e = &s->ev[i];
		struct tpe_facts f;
		struct tpe_verdict now, listed;

		if (e->o.state != OBJ_OK && e->r.check != TPE_CHECK_NO_PARENT)
			continue;
		judge_facts(g, e, ufs, &f);
		explain_judge(p, &who, &f, &now);
		explain_judge(&more, &who, &f, &listed);
		trusted &= now.trusted && !now.check;
		can &= listed.trusted && !listed.check;
		judged++;
	}
	if (judged && trusted)
		g->kind = K_TRUSTED;
	else
		g->can_trust = judged && can;
	free(ids);
	free((void *)who.groups);
}

/* A venv, or pip --user's ~/.local: developer tooling, by the path. */
static bool tooling(const struct dgroup *g)
{
	return g->o->venv || strstr(g->dir, "/site-packages") ||
	       strstr(g->dir, "/dist-packages") ||
	       strstr(g->dir, "/.local/bin") || strstr(g->dir, "/.local/lib/");
}

/* Whether a person (not root, not a service account) owns a file of G's. */
static bool persons_file(struct suggest *s, const struct dgroup *g,
			 const struct world *w)
{
	for (size_t i = g->first; i < g->end; i++) {
		const struct object *o = &s->ev[i].o;
		const struct account *a;

		if (o->state != OBJ_OK || !o->file_uid)
			continue;
		a = account(s, w, o->file_uid);
		if (!a || !a->service)
			return true;
	}
	return false;
}

/* A file a user owns or group/others may write: never trusted in place. */
static bool bad_file(const struct suggest *s, const struct dgroup *g)
{
	for (size_t i = g->first; i < g->end; i++) {
		const struct object *o = &s->ev[i].o;

		if (o->state == OBJ_OK &&
		    (o->file_uid || (o->file_mode & MODE_WRITABLE)))
			return true;
	}
	return false;
}

static void because(struct dgroup *g, const char *fmt, const char *arg)
{
	snprintf(g->why, sizeof(g->why), fmt, arg ? arg : "");
}

/* Sort one group, whose user the config in force does not trust. */
static void classify(struct suggest *s, struct dgroup *g,
		     const struct world *w)
{
	const struct object *o = g->o;
	const struct account *a = account(s, w, g->euid);
	bool service = a && a->service;

	g->kind = K_OWN;
	g->fix = FIX_NONE;
	if (has_check(s, g, TPE_CHECK_NO_PARENT)) {
		because(g, "memory with no file (memfd, shared memory)", NULL);
		return;
	}
	if (!o) {
		g->kind = K_UNVERIFIED;
		return;
	}
	if (o->never) {
		because(g, "under %s, which tpe-suggest never changes nor copies from",
			o->never);
	} else if (has_check(s, g, TPE_CHECK_UNTRUSTED_FS)) {
		because(g, "on a file system a user mounted", NULL);
	} else if (o->home_of[0] && service && a->known &&
		   !strcmp(o->home_of, a->name)) {
		because(g, "in the state directory (home) of service account %s",
			a->name);
		g->kind = K_WORKLOAD;
		g->fix = FIX_COPY;
	} else if (o->home_of[0] && tooling(g)) {
		because(g, o->venv ? "a Python virtual environment in %s's home" :
			"a pip --user package in %s's home", o->home_of);
		g->kind = K_TOOLING;
	} else if (o->home_of[0]) {
		because(g, "in %s's home", o->home_of);
	} else if (o->dir_mode & S_ISVTX) {
		because(g, "a sticky directory anyone may write, like /tmp", NULL);
	} else if (o->dir_uid && service && o->dir_uid == g->euid) {
		because(g, "a directory service account %s owns", a->name);
		g->kind = K_WORKLOAD;
		g->fix = FIX_COPY;
	} else if (o->dir_uid) {
		const char *owner = w->user_name(o->dir_uid);

		snprintf(g->why, sizeof(g->why), "a directory %s%s owns (uid %u)",
			 owner ? "" : "a user", owner ? owner : "", o->dir_uid);
	} else if ((o->dir_mode & S_IWOTH) && persons_file(s, g, w)) {
		because(g, "a person's file in a directory everyone may write", NULL);
	} else if (o->dir_mode & MODE_WRITABLE) {
		g->kind = K_WORKLOAD;
		if (!o->nrisky && !bad_file(s, g)) {
			because(g, o->dir_mode & S_IWOTH ?
				"a root directory every user may write" :
				"a root directory its group may write", NULL);
			g->fix = FIX_DIR;
			g->people_lose = (o->dir_mode & S_IWOTH) ||
					 w->people_in(o->dir_gid);
		} else {
			because(g, "a root directory others may write, with files in it a user owns or others may write (a chmod would make them trusted)",
				NULL);
			g->fix = FIX_COPY;
		}
	} else if (bad_file(s, g)) {
		because(g, "a file a user owns or others may write, in a root directory: never fixed in place",
			NULL);
		g->kind = K_WORKLOAD;
		g->fix = FIX_COPY;
	} else {
		because(g, "a trusted path now", NULL);
		g->kind = K_DONE;
	}
}

static void free_groups(struct suggest *s)
{
	free(s->g);
	s->g = NULL;
	s->ng = 0;
	free(s->acct);
	s->acct = NULL;
	s->nacct = 0;
}

void suggest_dedupe(struct suggest *s)
{
	size_t i, j;

	if (s->n)
		qsort(s->ev, s->n, sizeof(*s->ev), by_event);
	for (i = j = 0; i < s->n; i++) {
		if (j && same_event(&s->ev[j - 1], &s->ev[i])) {
			s->ev[j - 1].ops |= s->ev[i].ops;
			s->ev[j - 1].r.enforced |= s->ev[i].r.enforced;
			free(s->ev[i].dir);
			continue;
		}
		s->ev[j++] = s->ev[i];
	}
	s->n = s->distinct = j;
}

int suggest_prepare(struct suggest *s, const struct tpe_policy *p,
		    const struct world *w)
{
	size_t i, j, k;

	free_groups(s);
	s->g = calloc(s->n ? s->n : 1, sizeof(*s->g));
	if (!s->g)
		return -1;
	suggest_dedupe(s);
	s->acct = calloc(2 * s->n + 1, sizeof(*s->acct));
	if (!s->acct)
		return -1;
	for (i = 0; i < s->n; i++)
		w->probe(&s->ev[i].r, &s->ev[i].o);
	for (i = 0; i < s->n; i = j) {
		struct dgroup *g = &s->g[s->ng++];
		unsigned ops = 0;
		size_t ex = 0;

		g->dir = s->ev[i].dir;
		g->euid = s->ev[i].r.euid;
		g->first = i;
		for (j = i; j < s->n && !strcmp(s->ev[j].dir, g->dir) &&
			    s->ev[j].r.euid == g->euid; j++) {
			const struct event *e = &s->ev[j];

			g->n++;
			g->enforced += e->r.enforced;
			add_word(g->checks, sizeof(g->checks),
				 tpe_check_names[e->r.check]);
			ops |= e->ops;
			if (e->o.state != OBJ_OK)
				continue;
			g->verified++;
			if (!g->o)
				g->o = &e->o;
			for (k = 0; k < ex && strcmp(g->example[k], e->r.path); k++)
				;
			if (k == ex && ex < EXAMPLES)
				g->example[ex++] = e->r.path;
		}
		g->end = j;
		snprintf(g->ops, sizeof(g->ops), "%s", suggest_ops(ops));
		classify(s, g, w);
		judge_trust(s, g, p, w);
		if (g->kind == K_TRUSTED)
			g->fix = g->fix == FIX_DIR ? FIX_DIR : FIX_NONE;
	}
	s->ready = true;
	return 0;
}

int suggest_trust(struct suggest *s, const struct tpe_policy *p,
		  const struct world *w, uint32_t uid)
{
	uint32_t *more;
	bool any = false;

	if (!s->ready && suggest_prepare(s, p, w))
		return -1;
	for (size_t i = 0; i < s->ng; i++)
		any |= s->g[i].euid == uid && s->g[i].can_trust;
	if (!any)
		return -1;
	if (suggest_in(s->chosen, s->nchosen, uid))
		return 0;
	more = realloc(s->chosen, (s->nchosen + 1) * sizeof(*more));
	if (!more)
		return -1;
	s->chosen = more;
	s->chosen[s->nchosen++] = uid;
	return 0;
}

bool suggest_first_fix(const struct suggest *s, size_t gi)
{
	for (size_t i = 0; i < gi; i++)
		if (s->g[i].fix == FIX_DIR && !strcmp(s->g[i].dir, s->g[gi].dir))
			return false;
	return true;
}

bool suggest_first_of_inode(const struct suggest *s, const struct dgroup *g,
			    size_t ei)
{
	for (size_t k = g->first; k < ei; k++)
		if (s->ev[k].o.state == OBJ_OK && s->ev[k].r.ino == s->ev[ei].r.ino)
			return false;
	return true;
}

const struct event *suggest_verified(const struct suggest *s,
				     const struct dgroup *g)
{
	for (size_t k = g->first; k < g->end; k++)
		if (s->ev[k].o.state == OBJ_OK)
			return &s->ev[k];
	return NULL;
}

/* ---- copies ---- */

/* A file name from bytes a user chose: [A-Za-z0-9._+-], no leading dot. */
static void safe_name(char *out, size_t size, const char *in)
{
	size_t o = 0;

	for (; *in && o + 1 < size; in++)
		out[o++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
				  "OPQRSTUVWXYZ0123456789._+-", *in) ? *in : '_';
	out[o] = '\0';
	if (!o)
		snprintf(out, size, "_");
	else if (out[0] == '.')
		out[0] = '_';
}

/* The copy's name: the program's, made safe; its inode if taken. */
static void copy_name(char *out, size_t size, const struct suggest *s,
		      size_t gi, size_t ei)
{
	const struct event *e = &s->ev[ei];

	safe_name(out, size, strrchr(e->r.path, '/') + 1);
	for (size_t i = 0; i <= gi; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->fix != FIX_COPY || g->euid != s->g[gi].euid)
			continue;
		for (size_t k = g->first; k < g->end && &s->ev[k] != e; k++) {
			char other[256];

			if (s->ev[k].o.state != OBJ_OK)
				continue;
			safe_name(other, sizeof(other),
				  strrchr(s->ev[k].r.path, '/') + 1);
			if (!strcmp(other, out) && s->ev[k].r.ino != e->r.ino) {
				size_t len = strlen(out);

				snprintf(out + len, size - len, "-%llu",
					 (unsigned long long)e->r.ino);
				return;
			}
		}
	}
}

/*
 * Who may read the copy: no one its source did not let. Root owns it; its
 * group and other bits are the source's, less write and set-ID; its
 * owner, who loses the owner's bits, reads it through the group: the
 * source's, if the owner is in it with those bits, else the owner's own
 * group if no one else is in it and the source gave its group nothing.
 */
void suggest_copy_plan(const struct suggest *s, const struct world *w,
		       size_t gi, size_t ei, struct copy_plan *c)
{
	const struct event *e = &s->ev[ei];
	const struct account *a = suggest_account(s, s->g[gi].euid);
	uint32_t mode = e->o.file_mode, u = mode >> 6 & 5, g = mode >> 3 & 5,
		 o = mode & 5, owner = e->o.file_uid;
	int64_t own;

	memset(c, 0, sizeof(*c));
	safe_name(c->sub, sizeof(c->sub), a && a->known ? a->name : "");
	if (!a || !a->known)
		snprintf(c->sub, sizeof(c->sub), "uid-%u", s->g[gi].euid);
	copy_name(c->name, sizeof(c->name), s, gi, ei);
	c->gid = e->o.file_gid;
	if (e->o.file_size > COPY_MAX) {
		c->why = "larger than 64 MiB, the most tpe-suggest copies: install it by hand";
		return;
	}
	if (!owner || (o & u) == u ||
	    ((g & u) == u && w->in_group(owner, e->o.file_gid))) {
		c->mode = 0500 | g << 3 | o;
	} else if (!g && (own = w->own_group(owner)) >= 0) {
		c->gid = (uint32_t)own;
		c->mode = 0500 | u << 3 | o;
	} else {
		c->why = "its owner reads it through the owner's bits alone, and no group is hers alone that its readers share: copy it by hand";
		return;
	}
}

void suggest_free(struct suggest *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->ev[i].dir);
	free(s->ev);
	free(s->kept);
	free(s->chosen);
	free_groups(s);
	free(s);
}

/* ---- the machine as it is ---- */

static const char *machine_user(uint32_t uid)
{
	static char name[64];
	struct passwd *pw = getpwuid(uid);

	if (!pw || strlen(pw->pw_name) >= sizeof(name))
		return NULL;
	strcpy(name, pw->pw_name);
	return name;
}

/* --explain's identity of a user (facts.c); an unknown uid has no groups. */
static int machine_identity(uint32_t uid, struct tpe_identity *who)
{
	char num[16], err[ERRLEN];

	snprintf(num, sizeof(num), "%u", uid);
	if (!facts_identity(num, NULL, 0, who, err))
		return 0;
	*who = (struct tpe_identity){ .euid = uid, .egid = (uint32_t)-1 };
	return 0;
}

const struct world this_machine = {
	.probe = object_probe,
	.user_name = machine_user,
	.identity = machine_identity,
	.account = account_of,
	.group = account_group,
	.own_group = account_own_group,
	.in_group = account_in_group,
	.people_in = account_people_in,
};
