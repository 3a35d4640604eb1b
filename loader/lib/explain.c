// SPDX-License-Identifier: GPL-2.0
/*
 * Why is a program allowed or refused? The action of tpe-explain and
 * `tpe-load --explain`, in the order doas's main() would take it: who
 * asks, the policy to judge by (a config, or the live one with the places
 * of its entries when the config on disk builds it), then each path as
 * exec meets it, a script's interpreters included, and last the verdicts,
 * in words (below) or JSON (json.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "conf.h"
#include "explain.h"
#include "io.h"
#include "json.h"

/* Where the config lists the IDs that --explain may name. */
struct origins {
	const struct tpe_identity *who;
	struct origin {
		int which;
		uint32_t id;
		char *at;	/* "FILE:LINE" */
	} *v;
	size_t n;
};

static int concerns(const struct tpe_identity *who, int which, uint32_t id)
{
	size_t i;

	if (!which)
		return id == who->euid;
	if (!who->no_egid && id == who->egid)
		return 1;
	for (i = 0; i < who->ngroups; i++)
		if (id == who->groups[i])
			return 1;
	return 0;
}

/* conf_opts.listed: keeps the places of the asking user's IDs. */
static void remember(void *arg, int which, uint32_t id, const char *file,
		     unsigned line)
{
	struct origins *o = arg;
	struct origin *more;
	char *at;

	if (!concerns(o->who, which, id) ||
	    asprintf(&at, "%s:%u", file, line) < 0)
		return;
	more = realloc(o->v, (o->n + 1) * sizeof(*more));
	if (!more) {
		free(at);
		return;
	}
	o->v = more;
	o->v[o->n++] = (struct origin){ which, id, at };
}

static const char *origin_of(const struct origins *o,
			     const struct tpe_verdict *v)
{
	int which = v->listed != LISTED_EUID;
	size_t i;

	if (v->listed == LISTED_NONE)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (o->v[i].which == which && o->v[i].id == v->listed_id)
			return o->v[i].at;
	return NULL;
}

static void origins_free(struct origins *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].at);
	free(o->v);
}

/*
 * The places of a live policy's entries, from the config on disk: only if
 * that config builds the live policy, byte for byte; else none, and the
 * listing is the live policy's alone.
 */
static void live_origins(struct origins *org, const uint8_t *live,
			 size_t live_len)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid(),
				.listed = remember, .listed_arg = org };
	struct tpe_policy p;
	uint8_t *blob;
	size_t len;
	char err[ERRLEN];
	int same = 0;

	if (conf_load(TPE_CONF_PATH, &co, &p, err) < 0)
		return;
	if (!policy_encode(&p, &blob, &len, err)) {
		same = len == live_len && !memcmp(blob, live, len);
		free(blob);
	}
	policy_free(&p);
	if (!same) {
		origins_free(org);
		org->v = NULL;
		org->n = 0;
	}
}

/*
 * The policy to judge by: the config given, or the live one; and where the
 * config lists the asking user's IDs. Returns 0, or -1 when said why.
 */
static int explain_policy(const struct explain_opts *o, struct tpe_policy *p,
			  const char **from, struct origins *org)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid(),
				.warn = o->quiet ? NULL : stderr,
				.listed = remember, .listed_arg = org };
	char err[ERRLEN];
	uint8_t *blob;
	size_t len;

	if (o->config) {
		*from = strcmp(o->config, "-") ? o->config : "<stdin>";
		if (conf_load(o->config, &co, p, err) >= 0)
			return 0;
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	*from = securityfs_policy();
	if (read_live(p, &blob, &len, err)) {
		fprintf(stderr, "%s: %s; to judge by the config instead: %s "
			"-c " TPE_CONF_PATH " PATH\n", o->prog, err, o->again);
		return -1;
	}
	live_origins(org, blob, len);
	free(blob);
	return 0;
}

/*
 * path, and for a script its interpreter, as binfmt_script asks the
 * kernel again (at most 4 deep, BINPRM_MAX_RECURSION). Each step is
 * refused if a later one is: exec fails when the kernel refuses the
 * interpreter it runs. Returns 0, or -1 when said why (c holds the steps
 * judged before).
 */
static int explain_chain(const struct explain_opts *o,
			 const struct tpe_policy *p,
			 const struct tpe_identity *who,
			 const struct origins *org, const char *path,
			 struct explain_chain *c)
{
	struct explain_step *st = c->step;
	char err[ERRLEN];
	size_t i, j;
	int rc = 0;

	for (c->n = 0; path && c->n < EXPLAIN_CHAIN_MAX; c->n++) {
		if (facts_gather(path, &st[c->n].f, &st[c->n].interp, err)) {
			fprintf(stderr, "%s: %s\n", o->prog, err);
			rc = -1;
			break;
		}
		explain_judge(p, who, &st[c->n].f, &st[c->n].v);
		st[c->n].v.listed_at = origin_of(org, &st[c->n].v);
		path = st[c->n].interp;
	}
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n && !st[i].v.check; j++)
			if (st[j].v.check) {
				st[i].v.interp = st[j].f.path;
				st[i].v.interp_check = st[j].v.check;
				break;
			}
	return rc;
}

static void chain_free(struct explain_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		facts_free(&c->step[i].f);
		free(c->step[i].interp);
	}
}

static void explain_text(const char *from, const struct tpe_policy *p,
			 const struct tpe_identity *who,
			 const struct explain_chain *c, size_t n)
{
	size_t i, j;

	printf("policy: %s: ", from);
	conf_summary(stdout, p);
	putchar('\n');
	for (i = 0; i < n; i++)
		for (j = 0; j < c[i].n; j++) {
			if (j)
				puts("interpreter of the script above:");
			explain_write(stdout, p, who, &c[i].step[j].f,
				      &c[i].step[j].v, &tpe_nss);
		}
}

int explain_option(struct explain_opts *o, int ch, char *arg,
		   const char **why)
{
	char **more;

	switch (ch) {
	case 'c':
		*why = "--config given twice";
		if (o->config)
			return -1;
		o->config = arg;
		return 1;
	case EXPLAIN_OPT_JSON:
		o->json = 1;
		return 1;
	case EXPLAIN_OPT_USER:
		*why = "--user given twice";
		if (o->user)
			return -1;
		o->user = arg;
		return 1;
	case EXPLAIN_OPT_GROUP:
		*why = "out of memory";
		more = realloc(o->groups, (o->ngroups + 1) * sizeof(*more));
		if (!more)
			return -1;
		o->groups = more;
		o->groups[o->ngroups++] = arg;
		return 1;
	}
	return 0;
}

int explain(const struct explain_opts *o)
{
	struct tpe_identity who;
	struct origins org = { .who = &who };
	struct explain_chain *c;
	struct tpe_policy p;
	const char *from;
	char err[ERRLEN];
	size_t i;
	int rc = EXPLAIN_ALLOWED;

	/* who first: the config's places are kept for their IDs only */
	if (facts_identity(o->user, o->groups, o->ngroups, &who, err)) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return EXPLAIN_ERROR;
	}
	c = calloc(o->npaths, sizeof(*c));
	if (!c || explain_policy(o, &p, &from, &org)) {
		if (!c)
			fprintf(stderr, "%s: out of memory\n", o->prog);
		free(c);
		free((uint32_t *)who.groups);
		origins_free(&org);
		return EXPLAIN_ERROR;
	}
	for (i = 0; i < o->npaths; i++) {
		if (explain_chain(o, &p, &who, &org, o->paths[i], &c[i]))
			rc = EXPLAIN_ERROR;
		else if (rc == EXPLAIN_ALLOWED &&
			 explain_refused(&c[i].step[0].v))
			rc = EXPLAIN_REFUSED;
	}
	if (o->json)
		json_explain(stdout, from, &p, &who, c, o->npaths, &tpe_nss);
	else
		explain_text(from, &p, &who, c, o->npaths);
	for (i = 0; i < o->npaths; i++)
		chain_free(&c[i]);
	free(c);
	free((uint32_t *)who.groups);
	origins_free(&org);
	policy_free(&p);
	if (fflush(stdout)) {
		perror("stdout");
		rc = EXPLAIN_ERROR;
	}
	return rc;
}

/* ---- the verdict in words ---- */

static void say_id(FILE *out, const struct tpe_db *db, const char *what,
		   uint32_t id)
{
	const char *name = db ? db->id_to_name(id) : NULL;

	if (name)
		fprintf(out, "%s %u (%s)", what, id, name);
	else
		fprintf(out, "%s %u", what, id);
}

static void say_mode(FILE *out, const struct tpe_node *n)
{
	fprintf(out, "owner uid %u, mode %04o", n->uid, n->mode & 07777);
}

static void say_who(FILE *out, const struct tpe_policy *p,
		    const struct tpe_identity *who, const struct tpe_verdict *v,
		    const struct tpe_resolver *r)
{
	int invert = !!(p->flags & TPE_POLICY_INVERT);
	size_t i;

	fputs("  user: ", out);
	say_id(out, &r->users, "uid", who->euid);
	fputs(", ", out);
	if (who->no_egid)
		fputs("gid none (no passwd entry: no primary group)", out);
	else
		say_id(out, &r->groups, "gid", who->egid);
	fputs(", groups", out);
	for (i = 0; i < who->ngroups; i++)
		fprintf(out, "%s%u", i ? "," : " ", who->groups[i]);
	if (!who->ngroups)
		fputs(" none", out);
	fputs("\n  trust: ", out);
	if (v->root) {
		fputs("trusted: uid 0 is root, always trusted and never "
		      "checked\n", out);
		return;
	}
	fputs(v->trusted ? "trusted: " : "untrusted: ", out);
	switch (v->listed) {
	case LISTED_EUID:
		say_id(out, &r->users, "euid", v->listed_id);
		fputs(" is in trusted_users", out);
		break;
	case LISTED_EGID:
		say_id(out, &r->groups, "egid", v->listed_id);
		fputs(" is in trusted_groups", out);
		break;
	case LISTED_GROUP:
		say_id(out, &r->groups, "supplementary group", v->listed_id);
		fputs(" is in trusted_groups", out);
		break;
	case LISTED_NONE:
		fputs("neither the euid, the egid nor a supplementary group "
		      "is in trusted_users or trusted_groups", out);
		break;
	}
	if (invert)
		fputs(v->listed ? ", which INVERT makes the untrusted lists" :
		      ", and INVERT trusts everyone not listed", out);
	if (v->trusted)
		fputs(p->flags & TPE_POLICY_STRICT ?
		      "; STRICT checks trusted users too" :
		      "; trusted users are not checked", out);
	fputc('\n', out);
	if (v->listed != LISTED_NONE && v->listed_at)
		fprintf(out, "  listed: %s in %s\n", v->listed_at,
			v->listed == LISTED_EUID ? "trusted_users" :
			"trusted_groups");
}

static const char *writers(uint32_t mode)
{
	return (mode & 0022) == 0022 ? "group and others" :
	       mode & 0020 ? "its group" : "others";
}

static void say_check(FILE *out, const struct tpe_facts *f,
		      const struct tpe_verdict *v)
{
	const char *who = v->owner ? "root or the user" : "root";

	fprintf(out, "  check=%s: ", tpe_check_names[v->check]);
	switch (v->check) {
	case TPE_CHECK_NO_PARENT:
		fputs("the file has no parent directory", out);
		break;
	case TPE_CHECK_UNTRUSTED_FS:
		fprintf(out, "%s is on a file system mounted by or for a "
			"user: %s", f->resolved, f->untrusted_fs);
		break;
	case TPE_CHECK_DIR_OWNER:
		fprintf(out, "%s is owned by uid %u, not by %s", f->dir_path,
			f->dir.uid, who);
		break;
	case TPE_CHECK_DIR_WRITABLE:
		fprintf(out, "%s is writable by %s (mode %04o)", f->dir_path,
			writers(f->dir.mode), f->dir.mode & 07777);
		break;
	case TPE_CHECK_BLOCK_DEVICE:
		fprintf(out, "%s is a block device: it holds what was written "
			"to its disk, which a user may have chosen", f->resolved);
		break;
	case TPE_CHECK_FILE_WRITABLE:
		fprintf(out, "%s is writable by %s (mode %04o)", f->resolved,
			writers(f->file.mode), f->file.mode & 07777);
		break;
	case TPE_CHECK_FILE_OWNER:
		fprintf(out, "CHECK_FILE: %s is owned by uid %u, not by %s",
			f->resolved, f->file.uid, who);
		break;
	default:
		/* judge_path() gives no other check */
		fputs("refused", out);
		break;
	}
	fputc('\n', out);
}

/* The verdict word for an exec or a mapping that the rule refuses. */
static const char *refused(const struct tpe_verdict *v)
{
	return v->enforce ? "denied" : "would deny (permissive: logged, "
	       "allowed)";
}

void explain_write(FILE *out, const struct tpe_policy *p,
		   const struct tpe_identity *who, const struct tpe_facts *f,
		   const struct tpe_verdict *v, const struct tpe_resolver *r)
{
	const struct unseen_fact *u;

	fprintf(out, "%s: %s", f->path,
		explain_refused(v) ? refused(v) : "allowed");
	if (v->check)
		fprintf(out, " check=%s", tpe_check_names[v->check]);
	else if (v->interp_check)
		fprintf(out, " (its interpreter %s) check=%s", v->interp,
			tpe_check_names[v->interp_check]);
	fputc('\n', out);
	if (strcmp(f->path, f->resolved))
		fprintf(out, "  resolved: %s\n", f->resolved);
	say_who(out, p, who, v, r);
	fprintf(out, "  file: %s: ", f->resolved);
	say_mode(out, &f->file);
	fprintf(out, "\n  directory: %s: ", f->dir_path);
	say_mode(out, &f->dir);
	fputc('\n', out);
	if (f->mount)
		fprintf(out, "  file system: %s\n", f->mount);
	if (f->untrusted_fs)
		fprintf(out, "  file system: untrusted: %s\n", f->untrusted_fs);
	if (f->idmapped)
		fputs("  mount: idmapped: owners above are as the mount shows "
		      "them; the kernel also needs the file system's own "
		      "owner to be root, which user space cannot see\n", out);
	for (u = tpe_unseen; v->checked && u->bit; u++)
		if (f->unseen & u->bit)
			fprintf(out, "  not seen: %s\n", u->words);
	if (!v->checked)
		fputs("  path: not checked\n", out);
	else if (v->check)
		say_check(out, f, v);
	else
		fprintf(out, "  path: trusted: the directory is owned by %s "
			"and writable by neither group nor others%s\n",
			v->owner ? "root or the user" : "root",
			p->flags & TPE_POLICY_CHECK_FILE ?
			", and so is the file (CHECK_FILE)" : "");
	if (!v->check && v->interp_check)
		fprintf(out, "  exec: %s: the interpreter %s is refused "
			"(below)\n", refused(v), v->interp);
	else
		fprintf(out, "  exec: %s\n", v->check ? refused(v) : "allowed");
	if (v->mmap)
		fprintf(out, "  mmap PROT_EXEC: %s\n",
			v->check ? refused(v) : "allowed");
	else
		fputs("  mmap PROT_EXEC: allowed (MMAP is off: not checked)\n",
		      out);
	if ((f->file.mode & S_IFMT) == S_IFREG && !(f->file.mode & 0111))
		fputs("  note: no execute bit: execve() fails with EACCES "
		      "before TPE is asked\n", out);
}
