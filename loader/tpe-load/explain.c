// SPDX-License-Identifier: GPL-2.0
/* --explain: the judge's verdict (lib/judge.c) and its reasons, in words. */
#define _DEFAULT_SOURCE
#include <string.h>

#include <linux/tpe.h>

#include "tpe-load.h"

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
		fprintf(out, "%s is on a file system a user mounted: %s",
			f->resolved, f->untrusted_fs);
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
