// SPDX-License-Identifier: GPL-2.0
/*
 * Denials -> what to change. A denial goes away if its user is trusted, or
 * if the directory (or file) it names becomes a trusted path. tpe-suggest
 * recommends the narrower change: fixing a directory trusts no one and
 * closes the hole for every user, so it is preferred wherever it is safe.
 * It is not safe in a user's home (root would take it from them) or in a
 * sticky world-writable directory like /tmp (everyone's scratch space);
 * there the program should move, or its user be trusted. Memory with no
 * directory (memfd, shared memory) and user-mounted file systems have no
 * directory to fix at all.
 */
#define _DEFAULT_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/tpe.h>

#include "suggest.h"

#define EXAMPLES 3
#define DROPIN "/etc/tpe.conf.d/50-suggest.conf"

struct event {
	struct record r;
	char *dir;
};

enum verdict { FIX, TRUST, MOVE };

/* The denials of one user in one directory. */
struct dgroup {
	const char *dir;
	uint32_t euid;
	size_t n, enforced;
	const char *example[EXAMPLES];
	char checks[96];
	char *fix[4];			/* commands, if fixable */
	size_t nfix;
	const char *blocked;	/* why no directory change, or NULL */
	char home_of[64];
	bool can_trust, trusted_already;
	enum verdict v;
};

/* Reasons a record was skipped, each counted. */
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
};

struct suggest *suggest_new(void)
{
	return calloc(1, sizeof(struct suggest));
}

/*
 * One denial is one program in one process: exec and the kernel's mmap of
 * the same file that follows it are one, and so is the same event read
 * from the kernel log and the audit log.
 */
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
	return (x->r.pid > y->r.pid) - (x->r.pid < y->r.pid);
}

static bool same_event(const struct event *x, const struct event *y)
{
	return x->r.euid == y->r.euid && x->r.pid == y->r.pid &&
	       !strcmp(x->r.path, y->r.path);
}

static void add_check(struct dgroup *g, const char *check)
{
	size_t len = strlen(g->checks);

	if (strstr(g->checks, check))
		return;
	if (len + strlen(check) + 3 < sizeof(g->checks))
		snprintf(g->checks + len, sizeof(g->checks) - len, "%s%s",
			 len ? ", " : "", check);
}

/* PATH as one shell word: as it is if plain, else in single quotes. */
static void shell_word(char *out, size_t size, const char *path)
{
	size_t o = 0;

	if (strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789/._+-,:@%") == strlen(path)) {
		snprintf(out, size, "%s", path);
		return;
	}
	out[o++] = '\'';
	for (; *path && o + 6 < size; path++) {
		if (*path == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = *path;
		}
	}
	out[o++] = '\'';
	out[o] = '\0';
}

static void keep_fix(struct dgroup *g, const char *fix)
{
	for (size_t i = 0; i < g->nfix; i++)
		if (!strcmp(g->fix[i], fix))
			return;
	if (g->nfix < sizeof(g->fix) / sizeof(g->fix[0]) &&
	    (g->fix[g->nfix] = strdup(fix)))
		g->nfix++;
}

static void add_fix(struct dgroup *g, const char *cmd, const char *path)
{
	static char word[4 * REC_PATH_MAX + 3], fix[sizeof(word) + 32];

	shell_word(word, sizeof(word), path);
	snprintf(fix, sizeof(fix), "%s %s", cmd, word);
	keep_fix(g, fix);
}

/*
 * A file is fixed by a new inode, never by chmod or chown in place: a
 * process that opened it for writing before keeps writing it after. A
 * root-owned copy under a new name in the same directory, renamed over it.
 */
static void add_file_fix(struct dgroup *g, const char *path)
{
	static char tmp[REC_PATH_MAX + 16], f[4 * REC_PATH_MAX + 3],
		    t[4 * sizeof(tmp) + 3], fix[2 * sizeof(f) + 2 * sizeof(t) + 64];
	const char *base = strrchr(path, '/');

	if (!base || strlen(path) + 16 > sizeof(tmp))
		return;
	snprintf(tmp, sizeof(tmp), "%.*s.%s.tpe-new", (int)(base + 1 - path),
		 path, base + 1);
	shell_word(f, sizeof(f), path);
	shell_word(t, sizeof(t), tmp);
	snprintf(fix, sizeof(fix),
		 "install -o root -g root -m 0755 %s %s && mv -f %s %s", f, t,
		 t, f);
	keep_fix(g, fix);
}

/* What it would take to make the group's files a trusted path. */
static void judge_fix(struct dgroup *g, const struct event *e, size_t n,
		      const struct tpe_policy *p, const struct world *w)
{
	struct facts d = { 0 }, f;

	w->facts(g->dir, &d);
	if (!d.found) {
		g->blocked = "not found on this machine: run tpe-suggest where the log was written";
		return;
	}
	if (d.home_of[0]) {
		snprintf(g->home_of, sizeof(g->home_of), "%s", d.home_of);
		g->blocked = "in a user's home directory, which tpe-suggest never chowns or chmods";
		return;
	}
	if ((d.mode & S_ISVTX) && (d.mode & S_IWOTH)) {
		g->blocked = "sticky and world-writable like /tmp: everyone's scratch space, which tpe-suggest never chmods";
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *c = e[i].r.check;

		if (!strcmp(c, "no-parent")) {
			g->blocked = "memory with no directory (memfd, shared memory): no path to fix";
			return;
		}
		if (!strcmp(c, "untrusted-fs")) {
			g->blocked = "on a file system a user mounted: no owner or mode there can be trusted";
			return;
		}
	}
	if (d.uid != 0)
		add_fix(g, "chown root:root", g->dir);
	if (d.mode & (S_IWGRP | S_IWOTH))
		add_fix(g, "chmod go-w", g->dir);
	for (size_t i = 0; i < n; i++) {
		const char *c = e[i].r.check, *path = e[i].r.path;
		bool ff = !w->facts(path, &f) && f.found;

		if ((ff ? (f.mode & (S_IWGRP | S_IWOTH)) != 0 :
			  !strcmp(c, "file-writable")) ||
		    ((p->flags & TPE_POLICY_CHECK_FILE) &&
		     (ff ? f.uid != 0 : !strcmp(c, "file-owner"))))
			add_file_fix(g, path);
	}
}

static bool trusted_now(const struct tpe_policy *p, uint32_t uid,
			const struct world *w)
{
	if (ids_has(&p->users, uid))
		return true;
	for (size_t i = 0; i < p->groups.n; i++)
		if (w->in_group(uid, p->groups.id[i]))
			return true;
	return false;
}

/* Would trusting the user remove these denials? (STRICT: own safe dirs.) */
static bool judge_trust(const struct dgroup *g, const struct tpe_policy *p,
			const struct world *w)
{
	struct facts d = { 0 };

	if (p->flags & TPE_POLICY_INVERT)
		return false;
	if (!(p->flags & TPE_POLICY_STRICT))
		return true;
	return !strcmp(g->checks, "dir-owner") && !w->facts(g->dir, &d) &&
	       d.found && d.uid == g->euid && !(d.mode & (S_IWGRP | S_IWOTH));
}

static void free_groups(struct suggest *s)
{
	for (size_t i = 0; s->g && i < s->ng; i++)
		for (size_t k = 0; k < s->g[i].nfix; k++)
			free(s->g[i].fix[k]);
	free(s->g);
	s->g = NULL;
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
	s->ng = 0;
	for (i = 0; i < s->n; i = j) {
		struct dgroup *g = &s->g[s->ng++];
		size_t ex = 0;

		g->dir = s->ev[i].dir;
		g->euid = s->ev[i].r.euid;
		for (j = i; j < s->n && !strcmp(s->ev[j].dir, g->dir) &&
			    s->ev[j].r.euid == g->euid; j++) {
			const char *path = s->ev[j].r.path;

			g->n++;
			g->enforced += s->ev[j].r.enforced;
			add_check(g, s->ev[j].r.check);
			for (k = 0; k < ex && strcmp(g->example[k], path); k++)
				;
			if (k == ex && ex < EXAMPLES)
				g->example[ex++] = path;
		}
		judge_fix(g, &s->ev[i], j - i, p, w);
		g->trusted_already = trusted_now(p, g->euid, w);
		g->can_trust = judge_trust(g, p, w);
		g->v = !g->blocked ? FIX : g->can_trust ? TRUST : MOVE;
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

static void user(FILE *f, const struct world *w, uint32_t uid)
{
	const char *name = w->user_name(uid);

	if (name)
		fprintf(f, "%s (uid %u)", name, uid);
	else
		fprintf(f, "uid %u", uid);
}

static void examples(FILE *f, const struct dgroup *g)
{
	fprintf(f, "      e.g.");
	for (size_t k = 0; k < EXAMPLES && g->example[k]; k++)
		fprintf(f, "%s %s", k ? "," : "", g->example[k]);
	fprintf(f, "\n");
}

static size_t trust_list(const struct suggest *s, uint32_t *uid)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];
		size_t k;

		if (g->v != TRUST || g->trusted_already)
			continue;
		for (k = 0; k < n && uid[k] != g->euid; k++)
			;
		if (k == n)
			uid[n++] = g->euid;
	}
	return n;
}

static bool quotable(const char *name)
{
	return name && !strpbrk(name, "\"\\") && *name;
}

size_t suggest_dropin(FILE *f, struct suggest *s, const struct tpe_policy *p,
		      const struct world *w)
{
	uint32_t *uid;
	size_t n;

	if (!s->ready && prepare(s, p, w))
		return 0;
	uid = calloc(s->ng ? s->ng : 1, sizeof(*uid));
	if (!uid)
		return 0;
	n = trust_list(s, uid);
	fprintf(f, "# %s: written by tpe-suggest from %zu denials.\n",
		DROPIN, s->distinct);
	if (!n)
		fprintf(f, "# Nobody needs to be trusted.\n");
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "%s", k ? ", " : "trusted_users = ( ");
		if (quotable(w->user_name(uid[k])))
			fprintf(f, "\"%s\"", w->user_name(uid[k]));
		else
			fprintf(f, "%u", uid[k]);
	}
	if (n)
		fprintf(f, " );\n");
	free(uid);
	return n;
}

/* The commands of groups [i, j) (one directory), each once. */
static size_t dir_commands(FILE *f, const char *indent,
			   const struct suggest *s, size_t i, size_t j)
{
	size_t n = 0;

	for (size_t k = i; k < j; k++)
		for (size_t c = 0; c < s->g[k].nfix; c++) {
			bool seen = false;

			for (size_t m = i; m <= k; m++)
				for (size_t q = 0; q < (m < k ? s->g[m].nfix : c); q++)
					seen |= !strcmp(s->g[m].fix[q],
							s->g[k].fix[c]);
			if (!seen) {
				fprintf(f, "%s%s\n", indent, s->g[k].fix[c]);
				n++;
			}
		}
	return n;
}

/* Groups [i, *j) share a directory. */
static size_t same_dir(const struct suggest *s, size_t i)
{
	size_t j = i;

	while (j < s->ng && !strcmp(s->g[j].dir, s->g[i].dir))
		j++;
	return j;
}

size_t suggest_commands(FILE *f, struct suggest *s,
			const struct tpe_policy *p, const struct world *w)
{
	size_t n = 0;

	if (!s->ready && prepare(s, p, w))
		return 0;
	/* A directory's groups are all FIX or none: the fix is the dir's. */
	for (size_t i = 0, j; i < s->ng; i = j) {
		j = same_dir(s, i);
		if (s->g[i].v == FIX)
			n += dir_commands(f, "", s, i, j);
	}
	return n;
}

static void report_trust(FILE *f, const struct suggest *s,
			 const struct world *w)
{
	uint32_t *uid = calloc(s->ng ? s->ng : 1, sizeof(*uid));
	size_t n = uid ? trust_list(s, uid) : 0;

	fprintf(f, "\nTrust %zu user%s (recommended where no directory change is safe):\n",
		n, n == 1 ? "" : "s");
	for (size_t k = 0; k < n; k++) {
		size_t total = 0, also = 0;

		for (size_t i = 0; i < s->ng; i++)
			if (s->g[i].euid == uid[k] && s->g[i].can_trust)
				*(s->g[i].v == TRUST ? &total : &also) += s->g[i].n;
		fprintf(f, "  ");
		user(f, w, uid[k]);
		fprintf(f, ": removes %zu denial%s\n", total + also,
			total + also == 1 ? "" : "s");
		for (size_t i = 0; i < s->ng; i++) {
			const struct dgroup *g = &s->g[i];

			if (g->euid != uid[k] || !g->can_trust)
				continue;
			fprintf(f, "    %zu in %s (%s): %s\n", g->n, g->dir,
				g->checks,
				g->v == TRUST ? g->blocked :
				"also removed by the directory fix above, which is recommended");
			if (g->v == TRUST && g->home_of[0])
				fprintf(f, "      (home of %s; or move the programs to a trusted path such as /usr/local/bin)\n",
					g->home_of);
			else if (g->v == TRUST)
				fprintf(f, "      (or move the programs to a trusted path such as /usr/local/bin)\n");
			examples(f, g);
		}
	}
	free(uid);
}

static void report_fix(FILE *f, const struct suggest *s,
		       const struct world *w)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++)
		n += s->g[i].v == FIX && (!i || s->g[i - 1].v != FIX ||
					 strcmp(s->g[i - 1].dir, s->g[i].dir));
	fprintf(f, "\nFix %zu director%s (recommended: trusts no one, closes the hole for every user):\n",
		n, n == 1 ? "y" : "ies");
	for (size_t i = 0, j; i < s->ng; i = j) {
		size_t total = 0, users = 0;

		j = same_dir(s, i);
		if (s->g[i].v != FIX)
			continue;
		for (size_t k = i; k < j; k++)
			total += s->g[k].n, users++;
		fprintf(f, "  %s: removes %zu denial%s of %zu user%s (%s)\n",
			s->g[i].dir, total, total == 1 ? "" : "s", users,
			users == 1 ? "" : "s", s->g[i].checks);
		if (!dir_commands(f, "      ", s, i, j))
			fprintf(f, "      (nothing to do: a trusted path here now)\n");
		for (size_t k = i; k < j; k++) {
			fprintf(f, "    %zu by ", s->g[k].n);
			user(f, w, s->g[k].euid);
			fprintf(f, "%s\n", s->g[k].can_trust ?
				", or trust this user instead" : "");
			examples(f, &s->g[k]);
		}
	}
}

static void report_rest(FILE *f, const struct suggest *s,
			const struct world *w)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ng; i++) {
		const struct dgroup *g = &s->g[i];

		if (g->v == FIX || (g->v == TRUST && !g->trusted_already))
			continue;
		n++;
		fprintf(f, "  %zu by ", g->n);
		user(f, w, g->euid);
		fprintf(f, " in %s (%s): %s\n", g->dir, g->checks,
			g->trusted_already ?
			"the user is trusted by the current config already (the log is older than it)" :
			g->blocked);
		if (!g->trusted_already)
			fprintf(f, "      move the programs to a trusted path such as /usr/local/bin\n");
		examples(f, g);
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
	report_trust(f, s, w);
	fprintf(f, "\nNot removed by any proposal here:\n");
	report_rest(f, s, w);
	fprintf(f, "\nDrop-in (tpe-suggest --drop-in FILE > %s):\n\n", DROPIN);
	suggest_dropin(f, s, p, w);
	fprintf(f, "\nCommands (tpe-suggest --commands FILE):\n\n");
	if (!suggest_commands(f, s, p, w))
		fprintf(f, "# none\n");
}

void suggest_free(struct suggest *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->ev[i].dir);
	free(s->ev);
	free_groups(s);
	free(s);
}

/* The machine as it is. */
static int machine_facts(const char *path, struct facts *f)
{
	struct stat st, hs;
	struct passwd *pw;
	size_t len;

	memset(f, 0, sizeof(*f));
	if (stat(path, &st))
		return 0;
	f->found = true;
	f->uid = st.st_uid;
	f->mode = st.st_mode;
	if (!S_ISDIR(st.st_mode))
		return 0;
	/* A home is a passwd directory its user owns: not /usr/sbin of daemon. */
	setpwent();
	while ((pw = getpwent())) {
		len = strlen(pw->pw_dir);
		if (!pw->pw_uid || len < 2 || strncmp(path, pw->pw_dir, len) ||
		    (path[len] && path[len] != '/') || stat(pw->pw_dir, &hs) ||
		    hs.st_uid != pw->pw_uid)
			continue;
		snprintf(f->home_of, sizeof(f->home_of), "%s", pw->pw_name);
		break;
	}
	endpwent();
	return 0;
}

static const char *machine_user(uint32_t uid)
{
	static char name[64];
	struct passwd *pw = getpwuid(uid);

	if (!pw || strlen(pw->pw_name) >= sizeof(name))
		return NULL;
	strcpy(name, pw->pw_name);
	return name;
}

static bool machine_in_group(uint32_t uid, uint32_t gid)
{
	struct passwd *pw = getpwuid(uid);
	gid_t groups[256];
	int n = 256;

	if (!pw)
		return false;
	if (pw->pw_gid == gid)
		return true;
	if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0)
		return false;
	for (int i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

const struct world this_machine = {
	.facts = machine_facts,
	.user_name = machine_user,
	.in_group = machine_in_group,
};
