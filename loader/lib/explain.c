// SPDX-License-Identifier: GPL-2.0
/*
 * --explain: the kernel's decision, worked out again in user space from
 * facts that facts.c gathered, and said in words. Nothing here touches the
 * file system: the unit tests hand in made-up facts.
 *
 * The order of the checks and their names mirror the module exactly:
 * tpe_check() in module/lsm.c, tpe_cred_judge() in module/cred.c and
 * tpe_file_untrusted() in module/fs.c. `make check` (test-checks.sh)
 * asserts that explain_checks[] is module/fs.c's tpe_check_names[].
 */
#define _DEFAULT_SOURCE
#include <string.h>

#include <linux/tpe.h>

#include "loader.h"

/* The group and other write bits (TPE_MODE_WRITABLE in module/fs.c). */
#define MODE_WRITABLE	0022

/*
 * Every name the kernel logs (tpe_check_names[] in module/fs.c, without
 * "none"), in its order. file_untrusted() below returns all of them but
 * file-open-write: who has a file open for writing (or mapped shared and
 * writable) is not visible from user space, so --explain never names it;
 * it is listed so that every check= of a log is a known name.
 * test-checks.sh asserts both.
 */
const char *const explain_checks[] = {
	"no-parent", "untrusted-fs", "dir-owner", "dir-writable",
	"file-writable", "file-owner", "file-open-write", NULL
};

/* tpe_ids_listed(): the first list entry that names who, in its order. */
static void listed(const struct tpe_policy *p, const struct tpe_identity *who,
		   struct tpe_verdict *v)
{
	size_t i;

	v->listed = LISTED_NONE;
	if (ids_has(&p->users, who->euid)) {
		v->listed = LISTED_EUID;
		v->listed_id = who->euid;
		return;
	}
	if (!p->groups.n)
		return;
	if (!who->no_egid && ids_has(&p->groups, who->egid)) {
		v->listed = LISTED_EGID;
		v->listed_id = who->egid;
		return;
	}
	for (i = 0; i < who->ngroups; i++)
		if (ids_has(&p->groups, who->groups[i])) {
			v->listed = LISTED_GROUP;
			v->listed_id = who->groups[i];
			return;
		}
}

static int owned(const struct tpe_node *n, uint32_t owner)
{
	return n->uid == 0 || n->uid == owner;
}

/* tpe_file_untrusted(): the check this file fails, or NULL. */
static const char *file_untrusted(const struct tpe_facts *f, uint32_t flags,
				  uint32_t owner)
{
	if (f->no_parent)
		return "no-parent";
	if (f->untrusted_fs)
		return "untrusted-fs";
	if (!owned(&f->dir, owner))
		return "dir-owner";
	if (f->dir.mode & MODE_WRITABLE)
		return "dir-writable";
	if ((f->file.mode & S_IFMT) != S_IFREG)
		return NULL;
	if (f->file.mode & MODE_WRITABLE)
		return "file-writable";
	if ((flags & TPE_POLICY_CHECK_FILE) && !owned(&f->file, owner))
		return "file-owner";
	return NULL;
}

void explain_judge(const struct tpe_policy *p, const struct tpe_identity *who,
		   const struct tpe_facts *f, struct tpe_verdict *v)
{
	*v = (struct tpe_verdict){ .enforce = !!(p->flags & TPE_POLICY_ENFORCE),
				   .mmap = !!(p->flags & TPE_POLICY_MMAP) };
	if (who->euid == 0) {
		v->root = v->trusted = 1;
		return;
	}
	listed(p, who, v);
	v->trusted = (v->listed != LISTED_NONE) ^
		     !!(p->flags & TPE_POLICY_INVERT);
	if (v->trusted && !(p->flags & TPE_POLICY_STRICT))
		return;
	v->checked = 1;
	v->owner = v->trusted ? who->euid : 0;
	v->check = file_untrusted(f, p->flags, v->owner);
}

/* ---- in words ---- */

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

	fprintf(out, "  check=%s: ", v->check);
	if (!strcmp(v->check, "no-parent"))
		fputs("the file has no parent directory", out);
	else if (!strcmp(v->check, "untrusted-fs"))
		fprintf(out, "%s is on a file system a user mounted: %s",
			f->resolved, f->untrusted_fs);
	else if (!strcmp(v->check, "dir-owner"))
		fprintf(out, "%s is owned by uid %u, not by %s", f->dir_path,
			f->dir.uid, who);
	else if (!strcmp(v->check, "dir-writable"))
		fprintf(out, "%s is writable by %s (mode %04o)", f->dir_path,
			writers(f->dir.mode),
			f->dir.mode & 07777);
	else if (!strcmp(v->check, "file-writable"))
		fprintf(out, "%s is writable by %s (mode %04o)", f->resolved,
			writers(f->file.mode),
			f->file.mode & 07777);
	else
		fprintf(out, "CHECK_FILE: %s is owned by uid %u, not by %s",
			f->resolved, f->file.uid, who);
	fputc('\n', out);
}

/* The verdict word for an exec or a mapping that the rule refuses. */
static const char *refused(const struct tpe_verdict *v)
{
	return v->enforce ? "denied" : "would deny (permissive: logged, "
	       "allowed)";
}

/* Refused: the file itself, or (a script) the interpreter exec runs. */
int explain_refused(const struct tpe_verdict *v)
{
	return v->check != NULL || v->interp_check != NULL;
}

/* "allowed", "denied", or "would deny": the verdict on the exec. */
const char *explain_headline(const struct tpe_verdict *v)
{
	if (!explain_refused(v))
		return "allowed";
	return v->enforce ? "denied" : "would deny";
}

void explain_write(FILE *out, const struct tpe_policy *p,
		   const struct tpe_identity *who, const struct tpe_facts *f,
		   const struct tpe_verdict *v, const struct tpe_resolver *r)
{
	fprintf(out, "%s: %s", f->path,
		explain_refused(v) ? refused(v) : "allowed");
	if (v->check)
		fprintf(out, " check=%s", v->check);
	else if (v->interp_check)
		fprintf(out, " (its interpreter %s) check=%s", v->interp,
			v->interp_check);
	fputc('\n', out);
	if (strcmp(f->path, f->resolved))
		fprintf(out, "  resolved: %s\n", f->resolved);
	say_who(out, p, who, v, r);
	fprintf(out, "  file: %s: ", f->resolved);
	say_mode(out, &f->file);
	fprintf(out, "\n  directory: %s: ", f->dir_path);
	say_mode(out, &f->dir);
	fputc('\n', out);
	if (f->untrusted_fs)
		fprintf(out, "  file system: untrusted: %s\n", f->untrusted_fs);
	if (f->idmapped)
		fputs("  mount: idmapped: owners above are as the mount shows "
		      "them; the kernel also needs the file system's own "
		      "owner to be root, which user space cannot see\n", out);
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

/* ---- as JSON ---- */

static void json_node(FILE *out, const char *key, const char *path,
		      const struct tpe_node *n)
{
	fprintf(out, ", \"%s\": {\"path\": ", key);
	json_string(out, path);
	fprintf(out, ", \"uid\": %u, \"mode\": \"%04o\"}", n->uid,
		n->mode & 07777);
}

static void json_id(FILE *out, const char *key, const struct tpe_db *db,
		    uint32_t id)
{
	const char *name = db->id_to_name(id);

	fprintf(out, "\"%s\": %u", key, id);
	if (name) {
		fprintf(out, ", \"%s_name\": ", key);
		json_string(out, name);
	}
}

static const char *const listed_kind[] = {
	[LISTED_NONE] = "none", [LISTED_EUID] = "euid",
	[LISTED_EGID] = "egid", [LISTED_GROUP] = "group",
};

/*
 * One path's verdict as a JSON object, left open (no closing brace) for
 * the caller to add to: the fields of the text, by name. "verdict" is "allowed", "denied" or "would deny"; "check"
 * is null when the file itself passes.
 */
void explain_json(FILE *out, const struct tpe_policy *p,
		  const struct tpe_identity *who, const struct tpe_facts *f,
		  const struct tpe_verdict *v, const struct tpe_resolver *r)
{
	size_t i;

	fputs("{\"path\": ", out);
	json_string(out, f->path);
	fputs(", \"resolved\": ", out);
	json_string(out, f->resolved);
	fputs(", \"verdict\": ", out);
	json_string(out, explain_headline(v));
	fputs(", \"check\": ", out);
	if (v->check)
		json_string(out, v->check);
	else
		fputs("null", out);
	fputs(", \"user\": {", out);
	json_id(out, "uid", &r->users, who->euid);
	fputs(", ", out);
	if (who->no_egid)
		fputs("\"gid\": null", out);
	else
		json_id(out, "gid", &r->groups, who->egid);
	fputs(", \"groups\": [", out);
	for (i = 0; i < who->ngroups; i++)
		fprintf(out, "%s%u", i ? ", " : "", who->groups[i]);
	fprintf(out, "]}, \"root\": %s, \"trusted\": %s, \"listed\": ",
		v->root ? "true" : "false", v->trusted ? "true" : "false");
	json_string(out, listed_kind[v->listed]);
	if (v->listed != LISTED_NONE)
		fprintf(out, ", \"listed_id\": %u", v->listed_id);
	if (v->listed_at) {
		fputs(", \"listed_at\": ", out);
		json_string(out, v->listed_at);
	}
	fprintf(out, ", \"invert\": %s, \"strict\": %s, \"checked\": %s",
		p->flags & TPE_POLICY_INVERT ? "true" : "false",
		p->flags & TPE_POLICY_STRICT ? "true" : "false",
		v->checked ? "true" : "false");
	json_node(out, "file", f->resolved, &f->file);
	json_node(out, "directory", f->dir_path, &f->dir);
	if (f->untrusted_fs) {
		fputs(", \"untrusted_fs\": ", out);
		json_string(out, f->untrusted_fs);
	}
	fputs(", \"exec\": ", out);
	json_string(out, explain_headline(v));
	fputs(", \"mmap\": ", out);
	json_string(out, !v->mmap ? "not checked" : !v->check ? "allowed" :
		     v->enforce ? "denied" : "would deny");
	if (v->interp_check) {
		fputs(", \"refused_interpreter\": ", out);
		json_string(out, v->interp);
	}
}
