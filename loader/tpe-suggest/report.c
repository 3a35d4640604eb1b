// SPDX-License-Identifier: GPL-2.0
/*
 * What tpe-suggest prints, and the actions a person asks for: the report
 * (what TPE exists to stop, workloads with their fixes, tooling, trust),
 * the drop-in (nobody new trusted unless named), the read-only summary of
 * a log from elsewhere, and --apply. Every name and path is escaped: no
 * byte of a log reaches the terminal raw.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <linux/tpe.h>

#include "denials.h"

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

static void unaudited_report(FILE *f, const struct suggest *s,
			     const char *indent)
{
	if (!s->nunaudited)
		return;
	fprintf(f, "%sDenials the kernel left out of audit (its limit per user), named by no record, so in no proposal:\n",
		indent);
	for (size_t i = 0; i < s->nunaudited; i++)
		fprintf(f, "%s  uid %u: %llu\n", indent, s->unaudited[i].uid,
			(unsigned long long)s->unaudited[i].n);
	if (s->unaudited_others)
		fprintf(f, "%s  other users: %llu\n", indent,
			(unsigned long long)s->unaudited_others);
}

void suggest_skip_report(FILE *f, const struct suggest *s,
			 const char *indent)
{
	unaudited_report(f, s, indent);
	if (!s->skipped)
		return;
	fprintf(f, "%s%zu unreadable TPE record%s skipped (not used for any proposal):\n",
		indent, s->skipped, s->skipped == 1 ? "" : "s");
	for (size_t i = 0; i < SKIP_REASONS && s->skip[i].why; i++)
		fprintf(f, "%s  %zu: %s\n", indent, s->skip[i].n,
			s->skip[i].why);
}

static void examples(FILE *f, const char *indent, const struct dgroup *g)
{
	if (!g->example[0])
		return;
	fprintf(f, "%se.g.", indent);
	for (size_t k = 0; k < EXAMPLES && g->example[k]; k++) {
		fprintf(f, "%s ", k ? "," : "");
		suggest_escape(f, g->example[k]);
	}
	fprintf(f, "\n");
}

static void group_line(FILE *f, const struct dgroup *g)
{
	fprintf(f, "    %zu in ", g->n);
	suggest_escape(f, g->dir);
	fprintf(f, " (%s; %s): ", g->ops, g->checks);
	suggest_escape(f, g->why);
	fputc('\n', f);
	examples(f, "      ", g);
}

/* ---- fixes and copies ---- */

static const char *chmod_of(uint32_t mode)
{
	return (mode & 022) == 022 ? "go-w" : mode & 020 ? "g-w" : "o-w";
}

/* Who loses write access when the directory's write bits go. */
static void losers(FILE *f, const struct world *w, const struct object *o)
{
	char grp[320];

	if (o->dir_mode & 020) {
		w->group(o->dir_gid, grp, sizeof(grp));
		fputs("group ", f);
		suggest_escape(f, grp);
	}
	if ((o->dir_mode & 022) == 022)
		fputs(" and ", f);
	if (o->dir_mode & 002)
		fputs("every other user", f);
	fputs((o->dir_mode & 022) == 022 ? " lose write access" :
	      " loses write access", f);
}

static void say_fix(FILE *f, const char *indent, const struct suggest *s,
		    const struct world *w, const struct dgroup *g)
{
	const struct event *e = suggest_verified(s, g);

	fprintf(f, "%schmod %s ", indent, chmod_of(g->o->dir_mode));
	suggest_escape(f, g->dir);
	fprintf(f, "  (directory dev %u:%u ino %llu): ", e->r.dev_major,
		e->r.dev_minor, (unsigned long long)e->r.dir_ino);
	losers(f, w, g->o);
	fputc('\n', f);
}

/* The group's name alone, from "NAME (members: ...)". */
static void group_name(const struct world *w, uint32_t gid, char *out,
		       size_t size)
{
	char *paren;

	w->group(gid, out, size);
	paren = strstr(out, " (");
	if (paren)
		*paren = '\0';
}

static void say_copy(FILE *f, const char *indent, const struct suggest *s,
		     const struct world *w, size_t gi, size_t ei)
{
	const struct event *e = &s->ev[ei];
	const struct account *a = suggest_account(s, s->g[gi].euid);
	struct copy_plan c;
	char grp[128];

	suggest_copy_plan(s, w, gi, ei, &c);
	fputs(indent, f);
	suggest_escape(f, e->r.path);
	if (c.why) {
		fputs(": no copy: ", f);
		suggest_escape(f, c.why);
		fputc('\n', f);
		return;
	}
	group_name(w, c.gid, grp, sizeof(grp));
	fputs(" -> ", f);
	suggest_escape(f, s->copy_dir);
	fprintf(f, "/%s/%s  (root:", c.sub, c.name);
	suggest_escape(f, grp);
	fprintf(f, " %04o, from file dev %u:%u ino %llu)\n", c.mode,
		e->r.dev_major, e->r.dev_minor, (unsigned long long)e->r.ino);
	fprintf(f, "%*s  then run ", (int)strlen(indent), "");
	suggest_escape(f, s->copy_dir);
	fprintf(f, "/%s/%s instead", c.sub, c.name);
	if (a && a->unit[0]) {
		fputs(": change ExecStart= in ", f);
		suggest_escape(f, a->unit);
	}
	fputc('\n', f);
}

static bool selected(const char *const *only, const char *name)
{
	if (!only)
		return true;
	for (; *only; only++)
		if (!strcmp(*only, name))
			return true;
	return false;
}

/* A fix of the kind, or by name; one that takes people's write access
 * only by name. */
static bool fix_wanted(const struct suggest *s, size_t gi,
		       const struct act_select *sel)
{
	const struct dgroup *g = &s->g[gi];

	return g->fix == FIX_DIR && suggest_first_fix(s, gi) &&
	       (sel->what & ACT_FIX) &&
	       (sel->fix_only ? selected(sel->fix_only, g->dir) :
				!g->people_lose);
}

static bool copy_wanted(const struct suggest *s, size_t gi, size_t ei,
			const struct act_select *sel)
{
	return s->g[gi].fix == FIX_COPY && (sel->what & ACT_COPY) &&
	       s->ev[ei].o.state == OBJ_OK &&
	       suggest_first_of_inode(s, &s->g[gi], ei) &&
	       selected(sel->copy_only, s->ev[ei].r.path);
}

size_t suggest_actions(FILE *f, struct suggest *s,
		       const struct tpe_policy *p, const struct world *w,
		       const struct act_select *sel)
{
	size_t n = 0;

	if (!s->ready && suggest_prepare(s, p, w))
		return 0;
	for (size_t i = 0; i < s->ng; i++) {
		if (fix_wanted(s, i, sel)) {
			say_fix(f, "  ", s, w, &s->g[i]);
			n++;
		}
		for (size_t k = s->g[i].first; k < s->g[i].end; k++)
			if (copy_wanted(s, i, k, sel)) {
				say_copy(f, "  ", s, w, i, k);
				n++;
			}
	}
	return n;
}

const char *suggest_unknown(struct suggest *s, const struct tpe_policy *p,
			    const struct world *w,
			    const struct act_select *sel)
{
	const struct act_select all = { ACT_COPY, NULL, NULL };

	if (!s->ready && suggest_prepare(s, p, w))
		return "";
	for (const char *const *x = sel->fix_only; x && *x; x++) {
		bool found = false;

		/* a directory fixed already is known: nothing left to do */
		for (size_t i = 0; i < s->ng && !found; i++)
			found = (s->g[i].fix == FIX_DIR || s->g[i].kind == K_DONE) &&
				!strcmp(s->g[i].dir, *x);
		if (!found)
			return *x;
	}
	for (const char *const *x = sel->copy_only; x && *x; x++) {
		bool found = false;

		for (size_t i = 0; i < s->ng && !found; i++)
			for (size_t k = s->g[i].first; k < s->g[i].end; k++)
				found |= copy_wanted(s, i, k, &all) &&
					 !strcmp(s->ev[k].r.path, *x);
		if (!found)
			return *x;
	}
	return NULL;
}

size_t suggest_apply(FILE *f, struct suggest *s, const struct tpe_policy *p,
		     const struct world *w, uid_t owner,
		     const struct act_select *sel)
{
	size_t failed = 0;

	if (!s->ready && suggest_prepare(s, p, w))
		return 1;
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];
		const char *why = NULL;
		int rc;

		if (fix_wanted(s, i, sel)) {
			const struct event *e = suggest_verified(s, g);

			say_fix(f, "", s, w, g);
			rc = object_fix_dir(g->dir, e->r.dev_major,
					    e->r.dev_minor, e->r.dir_ino, &why);
			fprintf(f, "  %s%s\n", rc ? "" : "done",
				rc ? why : "");
			failed += rc < 0;
		}
		for (size_t k = g->first; k < g->end; k++) {
			struct copy_plan c;

			if (!copy_wanted(s, i, k, sel))
				continue;
			say_copy(f, "", s, w, i, k);
			suggest_copy_plan(s, w, i, k, &c);
			rc = object_copy(&s->ev[k].r, s->copy_dir, &c, owner,
					 &why);
			fprintf(f, "  %s%s\n", rc ? "" : "done",
				rc ? why : "");
			failed += rc < 0;
		}
	}
	return failed;
}

/* ---- the drop-in ---- */

/* Whether listing UID would allow some denial of the log. */
static bool proposable(const struct suggest *s, uint32_t uid)
{
	for (size_t i = 0; i < s->ng; i++)
		if (s->g[i].euid == uid && s->g[i].can_trust)
			return true;
	return false;
}

/* A name goes in quoted only if plain (conf.c's write_id()). */
static bool plain_name(const char *name)
{
	return name && *name &&
	       !name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-$@")];
}

/* What trusting UID would allow, and what else it means. */
static void trust_reason(FILE *f, const struct suggest *s, uint32_t uid)
{
	const struct account *a = suggest_account(s, uid);
	bool any = false, own = false;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->euid != uid || (!g->can_trust && g->kind != K_TRUSTED))
			continue;
		fprintf(f, "%s%zu in ", any ? "; " : "", g->n);
		suggest_escape(f, g->dir);
		for (size_t k = 0; k < EXAMPLES && g->example[k]; k++) {
			fputs(k ? ", " : ": ", f);
			suggest_escape(f, strrchr(g->example[k], '/') + 1);
		}
		own |= g->kind == K_OWN || g->kind == K_TOOLING;
		any = true;
	}
	if (suggest_in(s->kept, s->nkept, uid))
		fprintf(f, "%skept from the drop-in as it was", any ? "; " : "");
	else if (suggest_in(s->chosen, s->nchosen, uid))
		fprintf(f, "%strusted by --trust", any ? "; " : "");
	else if (a && a->service)
		fprintf(f, " (a service account: it would run any file it can write, an uploaded one too)");
	else if (own)
		fprintf(f, " (the user's own programs: what TPE exists to stop)");
}

static void dropin_user(FILE *f, const struct suggest *s,
			const struct world *w, uint32_t uid, const char *pre,
			const char *comma)
{
	const char *name = w->user_name(uid);

	fputs(pre, f);
	if (plain_name(name))
		fprintf(f, "\t\"%s\"%s", name, comma);
	else
		fprintf(f, "\t%u%s", uid, comma);
	fputs("\t# ", f);
	trust_reason(f, s, uid);
	fputc('\n', f);
}

size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w)
{
	uint32_t *uid, *later;
	size_t n = 0, m = 0;

	if (!s->ready && suggest_prepare(s, p, w))
		return 0;
	uid = calloc(s->ng + s->nkept + s->nchosen + 1, sizeof(*uid));
	later = calloc(s->ng + 1, sizeof(*later));
	if (!uid || !later) {
		free(uid);
		free(later);
		return 0;
	}
	for (size_t k = 0; k < s->nkept; k++)
		if (!suggest_in(uid, n, s->kept[k]))
			uid[n++] = s->kept[k];
	for (size_t k = 0; k < s->nchosen; k++)
		if (!suggest_in(uid, n, s->chosen[k]))
			uid[n++] = s->chosen[k];
	for (size_t i = 0; i < s->ng; i++)
		if (proposable(s, s->g[i].euid) &&
		    !suggest_in(uid, n, s->g[i].euid) &&
		    !suggest_in(later, m, s->g[i].euid))
			later[m++] = s->g[i].euid;
	fprintf(f, "# ");
	suggest_escape(f, s->dropin);
	fprintf(f, ": written by tpe-suggest from %zu denials.\n", s->distinct);
	fprintf(f, "# It trusts no one new by itself: a trusted user runs any program, her own\n"
		   "# ones too. Users it trusted before are kept; tpe-suggest --drop-in\n"
		   "# --trust=USER adds one a person decided on. Each line says why.\n");
	if (!n)
		fprintf(f, "# Nobody is trusted by this drop-in.\n");
	for (size_t k = 0; k < n; k++)
		dropin_user(f, s, w, uid[k], k ? "" : "trusted_users = (\n",
			    k + 1 < n ? "," : "");
	if (n)
		fprintf(f, ");\n");
	if (m)
		fprintf(f, "# Proposed, not trusted:\n");
	for (size_t k = 0; k < m; k++)
		dropin_user(f, s, w, later[k], "#", "");
	free(uid);
	free(later);
	return n;
}

/* ---- the report ---- */

static size_t people_fixes(FILE *f, const struct suggest *s,
			   const struct world *w)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++)
		if (s->g[i].fix == FIX_DIR && s->g[i].people_lose &&
		    suggest_first_fix(s, i)) {
			say_fix(f, "  ", s, w, &s->g[i]);
			n++;
		}
	return n;
}

static void section(FILE *f, const struct suggest *s, const struct world *w,
		    enum kind kind, const char *title, const char *after)
{
	bool any = false;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];
		const struct account *a;
		bool first = true;

		if (g->kind != kind)
			continue;
		for (size_t k = 0; k < i && first; k++)
			first = s->g[k].kind != kind || s->g[k].euid != g->euid;
		if (!first)
			continue;
		if (!any)
			fprintf(f, "\n%s:\n", title);
		any = true;
		fputs("  ", f);
		user(f, w, g->euid);
		a = suggest_account(s, g->euid);
		if (a && a->service) {
			fputs(", a service account (", f);
			suggest_escape(f, a->why);
			fputc(')', f);
		}
		fputs(":\n", f);
		for (size_t k = i; k < s->ng; k++) {
			const struct dgroup *o = &s->g[k];

			if (o->kind != kind || o->euid != g->euid)
				continue;
			group_line(f, o);
			if (o->fix == FIX_DIR) {
				fputs("      fix, keeping the path: ", f);
				say_fix(f, "", s, w, o);
				fputs(o->people_lose ?
				      "      take it by name: tpe-suggest --apply --fix=" :
				      "      tpe-suggest --apply --fix takes it; by name: --fix=", f);
				suggest_escape(f, o->dir);
				fputc('\n', f);
			}
			for (size_t e = o->first; o->fix == FIX_COPY && e < o->end; e++)
				if (s->ev[e].o.state == OBJ_OK &&
				    suggest_first_of_inode(s, o, e))
					say_copy(f, "      copy: ", s, w, k, e);
		}
	}
	if (any && after)
		fprintf(f, "  %s\n", after);
}

static void report_trust(FILE *f, const struct suggest *s,
			 const struct world *w)
{
	uint32_t *uid = calloc(s->ng + 1, sizeof(*uid));
	size_t n = 0;

	for (size_t i = 0; uid && i < s->ng; i++)
		if (s->g[i].can_trust && !suggest_in(uid, n, s->g[i].euid))
			uid[n++] = s->g[i].euid;
	fprintf(f, "\nTrust: no one is trusted unless a person decides (tpe-suggest --drop-in --trust=USER):\n");
	for (size_t k = 0; k < n; k++) {
		size_t d = 0;

		for (size_t i = 0; i < s->ng; i++)
			d += s->g[i].euid == uid[k] && s->g[i].can_trust ?
			     s->g[i].n : 0;
		fputs("  ", f);
		user(f, w, uid[k]);
		fprintf(f, ": would allow %zu denial%s; ", d, d == 1 ? "" : "s");
		trust_reason(f, s, uid[k]);
		fputc('\n', f);
	}
	if (!n)
		fprintf(f, "  (no one whose trust would allow a denial)\n");
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

	fprintf(f, "\nNot acted on:\n");
	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->kind == K_DONE || g->kind == K_TRUSTED) {
			n++;
			fprintf(f, "  %zu by ", g->n);
			user(f, w, g->euid);
			fputs(" in ", f);
			suggest_escape(f, g->dir);
			fprintf(f, " (%s): %s\n", g->checks,
				g->kind == K_DONE ? "a trusted path now: nothing to do" :
				"the user is trusted by the config in force (the log is older than it)");
		}
		if (g->o && g->o->never)
			continue;
		for (size_t k = g->first; k < g->end; k++) {
			const struct event *e = &s->ev[k];

			if (e->o.state == OBJ_OK ||
			    e->r.check == TPE_CHECK_NO_PARENT)
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

static size_t users_of(const struct suggest *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++) {
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = s->g[k].euid == s->g[i].euid;
		n += !seen;
	}
	return n;
}

void suggest_report(FILE *f, struct suggest *s, const struct tpe_policy *p,
		    const struct world *w)
{
	const struct act_select fixes = { ACT_FIX, NULL, NULL },
				copies = { ACT_COPY, NULL, NULL };
	size_t enforced = 0;

	if (!s->ready && suggest_prepare(s, p, w)) {
		fprintf(f, "tpe-suggest: out of memory\n");
		return;
	}
	for (size_t i = 0; i < s->ng; i++)
		enforced += s->g[i].enforced;
	fprintf(f, "%zu denials (%zu denied, %zu would deny) of %zu user%s in %zu places, from ",
		s->distinct, enforced, s->distinct - enforced, users_of(s),
		users_of(s) == 1 ? "" : "s", s->ng);
	suggest_escape(f, s->source);
	fputs(".\n", f);
	suggest_skip_report(f, s, "");
	if (p->flags & TPE_POLICY_INVERT)
		fprintf(f, "invert is on: the lists name untrusted users; trusting one means leaving it out.\n");
	if (p->flags & TPE_POLICY_STRICT)
		fprintf(f, "strict is on: trusting a user removes only denials in safe directories the user owns.\n");
	section(f, s, w, K_OWN,
		"What TPE exists to stop: users' own programs (they stay denied)",
		"Nothing to do. A tool people need belongs in a system-wide install (root, /usr/local/bin).");
	section(f, s, w, K_WORKLOAD, "Workloads, each with its narrowest fix",
		NULL);
	section(f, s, w, K_TOOLING,
		"Developer tooling: a venv, pip --user (they stay denied)",
		"Install them system-wide (the Debian package, or pip as root into /usr/local), or create a group\n"
		"  for developers, list it in trusted_groups and add them: its members then run any program they write.");
	fprintf(f, "\nDirectory fixes that take write access from no person (tpe-suggest --apply --fix\ntakes them, --fix=DIR one):\n");
	if (!suggest_actions(f, s, p, w, &fixes))
		fprintf(f, "  (none)\n");
	fprintf(f, "\nDirectory fixes that take write access from people (only by name: tpe-suggest\n--apply --fix=DIR):\n");
	if (!people_fixes(f, s, w))
		fprintf(f, "  (none)\n");
	fprintf(f, "\nCopies (tpe-suggest --apply --copy makes them all, --copy=PROGRAM one; read each\n"
		   "program first: it is copied as it is then, at most %llu MiB):\n",
		COPY_MAX >> 20);
	if (!suggest_actions(f, s, p, w, &copies))
		fprintf(f, "  (none)\n");
	report_trust(f, s, w);
	report_rest(f, s, w);
}

/* ---- a log from elsewhere: read only ---- */

static int by_user_dir(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->r.euid != y->r.euid)
		return x->r.euid < y->r.euid ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static void when(FILE *f, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (gmtime_r(&tt, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm))
		fprintf(f, "%s UTC", buf);
	else
		fprintf(f, "%llu", (unsigned long long)t);
}

void suggest_summary(FILE *f, struct suggest *s)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t enforced = 0;

	suggest_dedupe(s);
	for (size_t i = 0; i < s->n; i++) {
		enforced += s->ev[i].r.enforced;
		first = s->ev[i].r.time < first ? s->ev[i].r.time : first;
		last = s->ev[i].r.time > last ? s->ev[i].r.time : last;
	}
	if (s->n)
		qsort(s->ev, s->n, sizeof(*s->ev), by_user_dir);
	fprintf(f, "%zu records (%zu denied, %zu would deny) in ", s->n,
		enforced, s->n - enforced);
	suggest_escape(f, s->source);
	if (s->n) {
		fputs(", from ", f);
		when(f, first);
		fputs(" to ", f);
		when(f, last);
	}
	fputs(":\n", f);
	suggest_skip_report(f, s, "");
	for (size_t i = 0, j; i < s->n; i = j) {
		size_t u = 0;

		for (j = i; j < s->n && s->ev[j].r.euid == s->ev[i].r.euid; j++)
			u++;
		fprintf(f, "  uid %u: %zu\n", s->ev[i].r.euid, u);
		for (size_t k = i, l; k < j; k = l) {
			char checks[96] = "";
			unsigned ops = 0;
			size_t d = 0;

			for (l = k; l < j && !strcmp(s->ev[l].dir, s->ev[k].dir); l++) {
				const char *c = tpe_check_names[s->ev[l].r.check];

				ops |= s->ev[l].ops;
				if (!strstr(checks, c) &&
				    strlen(checks) + strlen(c) + 3 < sizeof(checks))
					snprintf(checks + strlen(checks),
						 sizeof(checks) - strlen(checks),
						 "%s%s", *checks ? ", " : "", c);
				d++;
			}
			fprintf(f, "    %zu in ", d);
			suggest_escape(f, s->ev[k].dir);
			fprintf(f, " (%s; %s), e.g. ", suggest_ops(ops), checks);
			suggest_escape(f, s->ev[k].r.path);
			fputc('\n', f);
		}
	}
}
