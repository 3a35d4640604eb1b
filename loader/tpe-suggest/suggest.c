// SPDX-License-Identifier: GPL-2.0
/*
 * Denials -> what to change. A denial goes away if its user is trusted, if
 * its directory becomes a trusted path, or if the program is copied to
 * one. Every record's object is first found again by dev:ino (object.c);
 * one that moved or changed since it was logged is reported, never acted
 * on. Then, per user and directory, the narrowest safe change:
 *
 *   FIX    chmod go-w of a root-owned, non-sticky directory that holds
 *          only root's files that no one else can write: trusts no one,
 *          closes the hole for every user, hands no one's bytes over.
 *   COPY   where the directory or file is a user's (or holds a user's
 *          files), a chown or chmod would make her bytes trusted, and a
 *          file fixed in place keeps its writers: root-owned copies (new
 *          inodes) of the programs the log shows, in a new root-owned
 *          directory; the files a chown would have trusted are listed.
 *   TRUST  in a home, a sticky directory, memory with no directory, or a
 *          file system a user mounted: nothing there may be changed, so
 *          the user is proposed for trust (or the program should move).
 *
 * Who is trusted, now and if listed, is explain_judge()'s answer, the
 * one --explain gives (INVERT, STRICT, groups): one judge.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/tpe.h>

#include "suggest.h"

#define EXAMPLES 3

struct event {
	struct record r;
	char *dir;
	struct object o;
};

enum verdict { FIX, COPY, TRUST, NONE, DONE, UNVERIFIED };

/* The denials of one user in one directory. */
struct dgroup {
	const char *dir;
	uint32_t euid;
	size_t first, end;		/* its events */
	size_t n, enforced, verified;
	const char *example[EXAMPLES];
	char checks[96];
	const struct object *o;		/* a verified event's, or NULL */
	const char *why;		/* why not FIX */
	bool can_trust, trusted_already, can_copy;
	enum verdict v;
};

#define SKIP_REASONS	16

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
	uint32_t *kept;			/* users the old drop-in trusts */
	size_t nkept;
	const char *dropin, *copy_dir;
};

struct suggest *suggest_new(void)
{
	struct suggest *s = calloc(1, sizeof(struct suggest));

	if (s) {
		s->dropin = "/etc/tpe.conf.d/50-suggest.conf";
		s->copy_dir = DEFAULT_COPY_DIR;
	}
	return s;
}

void suggest_copy_dir(struct suggest *s, const char *dir)
{
	s->copy_dir = dir;
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
	s->ready = false;
	return 0;
}

int suggest_add(struct suggest *s, const struct record *r)
{
	struct event *e;
	char *slash;

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

/* ---- printing: no raw control byte ever reaches a terminal ---- */

void suggest_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && *p < 0xa0))
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

static void user(FILE *f, const struct world *w, uint32_t uid)
{
	const char *name = w->user_name(uid);

	if (name) {
		suggest_escape(f, name);
		fprintf(f, " (uid %u)", uid);
	} else {
		fprintf(f, "uid %u", uid);
	}
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

static void add_check(struct dgroup *g, enum tpe_check c)
{
	const char *check = tpe_check_names[c];
	size_t len = strlen(g->checks);

	if (strstr(g->checks, check))
		return;
	if (len + strlen(check) + 3 < sizeof(g->checks))
		snprintf(g->checks + len, sizeof(g->checks) - len, "%s%s",
			 len ? ", " : "", check);
}

static bool has_check(const struct suggest *s, const struct dgroup *g,
		      enum tpe_check check)
{
	for (size_t i = g->first; i < g->end; i++)
		if (s->ev[i].r.check == check)
			return true;
	return false;
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
	size_t judged = 0;

	g->trusted_already = g->can_trust = false;
	if (!ids || w->identity(g->euid, &who)) {
		free(ids);
		return;
	}
	if (p->users.n)
		memcpy(ids, p->users.id, p->users.n * sizeof(*ids));
	ids[p->users.n] = g->euid;
	more.users = (struct tpe_ids){ ids, ids_fold(ids, p->users.n + 1) };
	g->trusted_already = g->can_trust = true;
	for (size_t i = g->first; i < g->end; i++) {
		const struct event *e = &s->ev[i];
		struct tpe_facts f;
		struct tpe_verdict now, listed;

		if (e->o.state != OBJ_OK && e->r.check != TPE_CHECK_NO_PARENT)
			continue;
		judge_facts(g, e, ufs, &f);
		explain_judge(p, &who, &f, &now);
		explain_judge(&more, &who, &f, &listed);
		g->trusted_already &= now.trusted && !now.check;
		g->can_trust &= listed.trusted && !listed.check;
		judged++;
	}
	if (!judged)
		g->trusted_already = g->can_trust = false;
	if (g->trusted_already)
		g->can_trust = false;
	free(ids);
	free((void *)who.groups);
}

/* Where nothing may be changed: trust the user, else copy, else nothing. */
static enum verdict not_here(const struct dgroup *g)
{
	return g->trusted_already ? NONE : g->can_trust ? TRUST :
	       g->can_copy ? COPY : NONE;
}

/*
 * The recommendation for one group of verified events. A directory fix
 * is made whoever is trusted: it closes the hole for every user. The
 * rest is for users the current config does not trust already.
 */
static void judge(struct suggest *s, struct dgroup *g)
{
	const struct object *o = g->o;
	bool file_bad = false;

	if (has_check(s, g, TPE_CHECK_NO_PARENT)) {
		g->why = "memory with no directory (memfd, shared memory): nothing to fix or copy";
		g->v = g->can_trust && !g->trusted_already ? TRUST : NONE;
		return;
	}
	if (!o) {
		g->v = UNVERIFIED;
		return;
	}
	for (size_t i = g->first; i < g->end; i++) {
		const struct object *e = &s->ev[i].o;

		if (e->state == OBJ_OK &&
		    (e->file_uid || (e->file_mode & MODE_WRITABLE)))
			file_bad = true;
	}
	g->can_copy = !o->never;
	if (o->never) {
		g->why = "under /dev, /proc, /sys or /run, which tpe-suggest never changes nor copies from";
		g->can_copy = false;
	} else if (has_check(s, g, TPE_CHECK_UNTRUSTED_FS)) {
		g->why = "on a file system a user mounted: no owner or mode there can be trusted";
	} else if (o->home_of[0]) {
		g->why = "in a user's home directory, which tpe-suggest never changes";
	} else if (o->dir_mode & S_ISVTX) {
		g->why = "a sticky directory like /tmp: everyone's scratch space, which tpe-suggest never changes";
	} else if (o->dir_uid) {
		g->why = "the directory is a user's: a chown would make her files trusted";
		g->v = g->trusted_already ? NONE : COPY;
		return;
	} else if (o->nrisky || file_bad) {
		g->why = "it holds files a user owns or others can write: a chmod would make them trusted, and a file fixed in place keeps its writers";
		g->v = g->trusted_already ? NONE : COPY;
		return;
	} else {
		g->v = o->dir_mode & MODE_WRITABLE ? FIX : DONE;
		return;
	}
	g->v = not_here(g);
}

static void free_groups(struct suggest *s)
{
	free(s->g);
	s->g = NULL;
	s->ng = 0;
}

static int prepare(struct suggest *s, const struct tpe_policy *p,
		   const struct world *w)
{
	size_t i, j, k;

	free_groups(s);
	s->g = calloc(s->n ? s->n : 1, sizeof(*s->g));
	if (!s->g)
		return -1;
	if (s->n)
		qsort(s->ev, s->n, sizeof(*s->ev), by_event);
	for (i = j = 0; i < s->n; i++) {
		if (j && same_event(&s->ev[j - 1], &s->ev[i])) {
			free(s->ev[i].dir);
			continue;
		}
		s->ev[j++] = s->ev[i];
	}
	s->n = s->distinct = j;
	for (i = 0; i < s->n; i++)
		w->probe(&s->ev[i].r, &s->ev[i].o);
	for (i = 0; i < s->n; i = j) {
		struct dgroup *g = &s->g[s->ng++];
		size_t ex = 0;

		g->dir = s->ev[i].dir;
		g->euid = s->ev[i].r.euid;
		g->first = i;
		for (j = i; j < s->n && !strcmp(s->ev[j].dir, g->dir) &&
			    s->ev[j].r.euid == g->euid; j++) {
			const struct event *e = &s->ev[j];

			g->n++;
			g->enforced += e->r.enforced;
			add_check(g, e->r.check);
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
		judge_trust(s, g, p, w);
		judge(s, g);
	}
	s->ready = true;
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

void suggest_skip_report(FILE *f, const struct suggest *s,
			 const char *indent)
{
	if (!s->skipped)
		return;
	fprintf(f, "%s%zu unreadable TPE record%s skipped (not used for any proposal):\n",
		indent, s->skipped, s->skipped == 1 ? "" : "s");
	for (size_t i = 0; i < SKIP_REASONS && s->skip[i].why; i++)
		fprintf(f, "%s  %zu: %s\n", indent, s->skip[i].n,
			s->skip[i].why);
}

static void examples(FILE *f, const struct dgroup *g)
{
	if (!g->example[0])
		return;
	fprintf(f, "      e.g.");
	for (size_t k = 0; k < EXAMPLES && g->example[k]; k++) {
		fprintf(f, "%s ", k ? "," : "");
		suggest_escape(f, g->example[k]);
	}
	fprintf(f, "\n");
}

/* ---- the drop-in ---- */

static bool in_list(const uint32_t *id, size_t n, uint32_t uid)
{
	for (size_t k = 0; k < n; k++)
		if (id[k] == uid)
			return true;
	return false;
}

/* Users to trust: those kept from the old drop-in, then the new ones. */
static size_t trust_list(const struct suggest *s, uint32_t *uid)
{
	size_t n = 0;

	for (size_t k = 0; k < s->nkept; k++)
		if (!in_list(uid, n, s->kept[k]))
			uid[n++] = s->kept[k];
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v == TRUST && !in_list(uid, n, g->euid))
			uid[n++] = g->euid;
	}
	return n;
}

/* A name goes in quoted only if plain (conf.c's write_id()). */
static bool plain_name(const char *name)
{
	return name && *name &&
	       !name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-$@")];
}

/* Why the drop-in trusts UID: its groups' directories and programs. */
static void trust_reason(FILE *f, const struct suggest *s, uint32_t uid)
{
	bool any = false;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->euid != uid || (g->v != TRUST && !g->trusted_already))
			continue;
		fprintf(f, "%s%zu in ", any ? "; " : "", g->n);
		suggest_escape(f, g->dir);
		for (size_t k = 0; k < EXAMPLES && g->example[k]; k++) {
			fputs(k ? ", " : ": ", f);
			suggest_escape(f, strrchr(g->example[k], '/') + 1);
		}
		any = true;
	}
	if (in_list(s->kept, s->nkept, uid))
		fprintf(f, "%skept from the drop-in as it was", any ? "; " : "");
}

size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w)
{
	uint32_t *uid;
	size_t n;

	if (!s->ready && prepare(s, p, w))
		return 0;
	uid = calloc(s->ng + s->nkept + 1, sizeof(*uid));
	if (!uid)
		return 0;
	n = trust_list(s, uid);
	fprintf(f, "# ");
	suggest_escape(f, s->dropin);
	fprintf(f, ": written by tpe-suggest from %zu denials.\n", s->distinct);
	fprintf(f, "# Users it trusted before are kept; each line says why.\n");
	if (!n)
		fprintf(f, "# Nobody needs to be trusted.\n");
	for (size_t k = 0; k < n; k++) {
		const char *name = w->user_name(uid[k]);

		fprintf(f, "%s", k ? "" : "trusted_users = (\n");
		if (plain_name(name))
			fprintf(f, "\t\"%s\"", name);
		else
			fprintf(f, "\t%u", uid[k]);
		fprintf(f, "%s\t# ", k + 1 < n ? "," : "");
		trust_reason(f, s, uid[k]);
		fputc('\n', f);
	}
	if (n)
		fprintf(f, ");\n");
	free(uid);
	return n;
}

/* ---- actions ---- */

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

static void copy_sub(char *out, size_t size, const struct world *w,
		     uint32_t uid)
{
	const char *name = w->user_name(uid);

	if (plain_name(name) && name[0] != '.')
		safe_name(out, size, name);
	else
		snprintf(out, size, "uid-%u", uid);
}

/* The copy's name: the program's, made safe; its inode if taken. */
static void copy_name(char *out, size_t size, const struct suggest *s,
		      size_t gi, size_t ei)
{
	const struct event *e = &s->ev[ei];

	safe_name(out, size, strrchr(e->r.path, '/') + 1);
	for (size_t i = 0; i <= gi; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v != COPY || g->euid != s->g[gi].euid)
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

/* Whether event EI is the first of its group with its inode. */
static bool first_of_inode(const struct suggest *s, const struct dgroup *g,
			   size_t ei)
{
	for (size_t k = g->first; k < ei; k++)
		if (s->ev[k].o.state == OBJ_OK && s->ev[k].r.ino == s->ev[ei].r.ino)
			return false;
	return true;
}

/* Whether group GI is the first FIX group of its directory. */
static bool first_fix(const struct suggest *s, size_t gi)
{
	for (size_t i = 0; i < gi; i++)
		if (s->g[i].v == FIX && !strcmp(s->g[i].dir, s->g[gi].dir))
			return false;
	return true;
}

static void say_fix(FILE *f, const char *indent, const struct dgroup *g,
		    const struct event *e)
{
	fprintf(f, "%schmod go-w ", indent);
	suggest_escape(f, g->dir);
	fprintf(f, "  (directory dev %u:%u ino %llu)\n", e->r.dev_major,
		e->r.dev_minor, (unsigned long long)e->r.dir_ino);
}

static void say_copy(FILE *f, const char *indent, const struct suggest *s,
		     const struct world *w, size_t gi, size_t ei)
{
	const struct event *e = &s->ev[ei];
	char sub[128], name[320];

	copy_sub(sub, sizeof(sub), w, s->g[gi].euid);
	copy_name(name, sizeof(name), s, gi, ei);
	fprintf(f, "%sinstall -o root -g root -m 0755 ", indent);
	suggest_escape(f, e->r.path);
	fputc(' ', f);
	suggest_escape(f, s->copy_dir);
	fprintf(f, "/%s/%s  (file dev %u:%u ino %llu)\n", sub, name,
		e->r.dev_major, e->r.dev_minor, (unsigned long long)e->r.ino);
}

/* The first verified event of a group. */
static const struct event *verified(const struct suggest *s,
				    const struct dgroup *g)
{
	for (size_t k = g->first; k < g->end; k++)
		if (s->ev[k].o.state == OBJ_OK)
			return &s->ev[k];
	return NULL;
}

size_t suggest_actions(FILE *f, struct suggest *s,
		       const struct tpe_policy *p, const struct world *w,
		       unsigned what)
{
	size_t n = 0;

	if (!s->ready && prepare(s, p, w))
		return 0;
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v == FIX && first_fix(s, i) && (what & ACT_FIX)) {
			say_fix(f, "  ", g, verified(s, g));
			n++;
		} else if (g->v == COPY && (what & ACT_COPY)) {
			for (size_t k = g->first; k < g->end; k++)
				if (s->ev[k].o.state == OBJ_OK &&
				    first_of_inode(s, g, k)) {
					say_copy(f, "  ", s, w, i, k);
					n++;
				}
		}
	}
	return n;
}

size_t suggest_apply(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w, uid_t owner, unsigned what)
{
	size_t failed = 0;

	if (!s->ready && prepare(s, p, w))
		return 1;
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];
		const char *why = NULL;
		int rc;

		if (g->v == FIX && first_fix(s, i) && (what & ACT_FIX)) {
			const struct event *e = verified(s, g);

			say_fix(f, "", g, e);
			rc = object_fix_dir(g->dir, e->r.dev_major,
					    e->r.dev_minor, e->r.dir_ino, &why);
			fprintf(f, "  %s%s\n", rc ? "" : "done",
				rc ? why : "");
			failed += rc < 0;
			continue;
		}
		if (g->v != COPY || !(what & ACT_COPY))
			continue;
		for (size_t k = g->first; k < g->end; k++) {
			char sub[128], name[320];

			if (s->ev[k].o.state != OBJ_OK ||
			    !first_of_inode(s, g, k))
				continue;
			say_copy(f, "", s, w, i, k);
			copy_sub(sub, sizeof(sub), w, g->euid);
			copy_name(name, sizeof(name), s, i, k);
			rc = object_copy(&s->ev[k].r, s->copy_dir, sub, name,
					 owner, &why);
			fprintf(f, "  %s%s\n", rc ? "" : "done",
				rc ? why : "");
			failed += rc < 0;
		}
	}
	return failed;
}

/* ---- the report ---- */

static size_t count(const struct suggest *s, enum verdict v)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++)
		n += s->g[i].v == v && (v != FIX || first_fix(s, i));
	return n;
}

static void report_fix(FILE *f, const struct suggest *s,
		       const struct world *w)
{
	size_t n = count(s, FIX);

	fprintf(f, "\nFix %zu director%s (recommended: trusts no one, closes the hole for every user):\n",
		n, n == 1 ? "y" : "ies");
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];
		size_t total = 0, users = 0;

		if (g->v != FIX || !first_fix(s, i))
			continue;
		for (size_t k = i; k < s->ng; k++)
			if (s->g[k].v == FIX && !strcmp(s->g[k].dir, g->dir))
				total += s->g[k].n, users++;
		fputs("  ", f);
		suggest_escape(f, g->dir);
		fprintf(f, ": removes %zu denial%s of %zu user%s (%s)\n",
			total, total == 1 ? "" : "s", users,
			users == 1 ? "" : "s", g->checks);
		say_fix(f, "      ", g, verified(s, g));
		for (size_t k = i; k < s->ng; k++) {
			const struct dgroup *o = &s->g[k];

			if (o->v != FIX || strcmp(o->dir, g->dir))
				continue;
			fprintf(f, "    %zu by ", o->n);
			user(f, w, o->euid);
			fprintf(f, "%s\n", o->can_trust ?
				", or trust this user instead" : "");
			examples(f, o);
		}
	}
}

static void report_copy(FILE *f, const struct suggest *s,
			const struct world *w)
{
	size_t n = count(s, COPY);

	fprintf(f, "\nCopy the programs of %zu group%s into ", n,
		n == 1 ? "" : "s");
	suggest_escape(f, s->copy_dir);
	fprintf(f, " (recommended: new root-owned files in a new root-owned directory; trusts no one):\n");
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v != COPY)
			continue;
		fprintf(f, "  %zu by ", g->n);
		user(f, w, g->euid);
		fputs(" in ", f);
		suggest_escape(f, g->dir);
		fprintf(f, " (%s): not changed in place: %s\n", g->checks,
			g->why ? g->why : "");
		if (g->o->nrisky) {
			fputs("      would become trusted by a chown or chmod:",
			      f);
			for (size_t k = 0; k < g->o->nrisky && k < RISKY_MAX;
			     k++) {
				fputs(k ? ", " : " ", f);
				suggest_escape(f, g->o->risky[k]);
			}
			if (g->o->nrisky > RISKY_MAX)
				fprintf(f, " and %zu more",
					g->o->nrisky - RISKY_MAX);
			fputc('\n', f);
		}
		for (size_t k = g->first; k < g->end; k++)
			if (s->ev[k].o.state == OBJ_OK &&
			    first_of_inode(s, g, k))
				say_copy(f, "      ", s, w, i, k);
		if (g->can_trust)
			fputs("      or trust this user instead\n", f);
	}
}

static void report_trust(FILE *f, const struct suggest *s,
			 const struct world *w)
{
	uint32_t *uid = calloc(s->ng + s->nkept + 1, sizeof(*uid));
	size_t n = 0;

	for (size_t i = 0; uid && i < s->ng; i++)
		if (s->g[i].v == TRUST && !in_list(uid, n, s->g[i].euid))
			uid[n++] = s->g[i].euid;
	fprintf(f, "\nTrust %zu user%s (recommended where nothing may be changed):\n",
		n, n == 1 ? "" : "s");
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "  ");
		user(f, w, uid[k]);
		fputs(":\n", f);
		for (size_t i = 0; i < s->ng; i++) {
			const struct dgroup *g = &s->g[i];

			if (g->euid != uid[k] || g->v != TRUST)
				continue;
			fprintf(f, "    %zu in ", g->n);
			suggest_escape(f, g->dir);
			fprintf(f, " (%s): %s\n", g->checks, g->why);
			if (g->o && g->o->home_of[0]) {
				fputs("      (home of ", f);
				suggest_escape(f, g->o->home_of);
				fputs("; or move the programs to a trusted path such as /usr/local/bin)\n", f);
			} else {
				fputs("      (or move the programs to a trusted path such as /usr/local/bin)\n", f);
			}
			examples(f, g);
		}
	}
	free(uid);
}

static const char *state_words(enum obj_state st)
{
	return st == OBJ_MISSING ? "not found on this machine (run tpe-suggest where the log was written)" :
	       "refused";
}

static void report_rest(FILE *f, const struct suggest *s,
			const struct world *w)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v == NONE || g->v == DONE) {
			n++;
			fprintf(f, "  %zu by ", g->n);
			user(f, w, g->euid);
			fputs(" in ", f);
			suggest_escape(f, g->dir);
			fprintf(f, " (%s): %s\n", g->checks,
				g->v == DONE ? "a trusted path now: nothing to do" :
				g->trusted_already ? "the user is trusted by the current config already (the log is older than it)" :
				g->why);
			examples(f, g);
		}
		if (has_check(s, g, TPE_CHECK_NO_PARENT))
			continue;
		for (size_t k = g->first; k < g->end; k++) {
			const struct event *e = &s->ev[k];

			if (e->o.state == OBJ_OK)
				continue;
			n++;
			fputs("  ", f);
			suggest_escape(f, e->r.path);
			fprintf(f, " (dev %u:%u ino %llu, by ", e->r.dev_major,
				e->r.dev_minor, (unsigned long long)e->r.ino);
			user(f, w, e->r.euid);
			fprintf(f, ", %s): ", tpe_check_names[e->r.check]);
			if (e->o.state == OBJ_CHANGED)
				suggest_escape(f, e->o.why);
			else
				fprintf(f, "%s: %s", state_words(e->o.state),
					e->o.why ? e->o.why : "");
			fputc('\n', f);
		}
	}
	if (!n)
		fprintf(f, "  (none)\n");
}

void suggest_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w)
{
	size_t enforced = 0;

	if (!s->ready && prepare(s, p, w)) {
		fprintf(f, "tpe-suggest: out of memory\n");
		return;
	}
	for (size_t i = 0; i < s->ng; i++)
		enforced += s->g[i].enforced;
	fprintf(f, "%zu denials (%zu denied, %zu would deny) in %zu groups of user and directory.\n",
		s->distinct, enforced, s->distinct - enforced, s->ng);
	suggest_skip_report(f, s, "");
	if (p->flags & TPE_POLICY_INVERT)
		fprintf(f, "invert is on: the lists name untrusted users, so tpe-suggest proposes no one.\n");
	if (p->flags & TPE_POLICY_STRICT)
		fprintf(f, "strict is on: trusting a user removes only denials in safe directories the user owns.\n");
	report_fix(f, s, w);
	report_copy(f, s, w);
	report_trust(f, s, w);
	fprintf(f, "\nNot acted on:\n");
	report_rest(f, s, w);
	fprintf(f, "\nDrop-in (tpe-suggest --drop-in LOG > ");
	suggest_escape(f, s->dropin);
	fprintf(f, "):\n\n");
	suggest_dropin(f, s, p, w);
	fprintf(f, "\nActions (tpe-suggest --apply LOG takes them, each only where dev:ino still match):\n\n");
	if (!suggest_actions(f, s, p, w, ACT_FIX))
		fprintf(f, "  (none)\n");
	fprintf(f, "\nCopies (tpe-suggest --apply --copy LOG also makes them; read the programs first:\nthe copy takes a program's bytes as they are when copied, and its owner can change them until then):\n\n");
	if (!suggest_actions(f, s, p, w, ACT_COPY))
		fprintf(f, "  (none)\n");
}

void suggest_free(struct suggest *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->ev[i].dir);
	free(s->ev);
	free(s->kept);
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
};
