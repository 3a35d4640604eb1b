// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's decision, worked out again in user space from facts that
 * facts.c gathered: --explain says it in words (tpe-load/explain.c),
 * tpe-suggest asks it whether trusting a user would help. Nothing here
 * touches the file system: the unit tests hand in made-up facts.
 *
 * Split as the module is, with its order of checks and their names:
 * judge_identity() is module/cred.c's tpe_ids_trusted() (is this identity
 * trusted), judge_path() is module/fs.c's tpe_file_untrusted() (is this
 * file in a trusted path), explain_judge() ties them as tpe_check() in
 * module/lsm.c does. `make check` (test-checks.sh) asserts that
 * explain_checks[] is module/fs.c's tpe_check_names[].
 */
#define _DEFAULT_SOURCE
#include <string.h>

#include <linux/tpe.h>

#include "judge.h"

/*
 * Every name the kernel logs (tpe_check_names[] in module/fs.c, without
 * "none"), in its order. judge_path() below returns all of them but
 * file-open-write: who has a file open for writing (or mapped shared and
 * writable) is not visible from user space, so --explain never names it;
 * it is listed so that every check= of a log is a known name.
 * test-checks.sh asserts both.
 */
const char *const explain_checks[] = {
	"no-parent", "untrusted-fs", "dir-owner", "dir-writable",
	"file-writable", "file-owner", "file-open-write", NULL
};

/*
 * tpe_ids_listed() in module/cred.c: the first list entry that names who,
 * in its order (euid, then with a group list the egid, then the groups).
 */
static enum listed_by listed(const struct tpe_policy *p,
			     const struct tpe_identity *who, uint32_t *id)
{
	size_t i;

	*id = 0;
	if (ids_has(&p->users, who->euid)) {
		*id = who->euid;
		return LISTED_EUID;
	}
	if (!p->groups.n)
		return LISTED_NONE;
	if (!who->no_egid && ids_has(&p->groups, who->egid)) {
		*id = who->egid;
		return LISTED_EGID;
	}
	for (i = 0; i < who->ngroups; i++)
		if (ids_has(&p->groups, who->groups[i])) {
			*id = who->groups[i];
			return LISTED_GROUP;
		}
	return LISTED_NONE;
}

/* tpe_ids_trusted() in module/cred.c: the lists, or with INVERT not. */
int judge_identity(const struct tpe_policy *p, const struct tpe_identity *who,
		   enum listed_by *by, uint32_t *id)
{
	*by = listed(p, who, id);
	return (*by != LISTED_NONE) ^ !!(p->flags & TPE_POLICY_INVERT);
}

static int owned(const struct tpe_node *n, uint32_t owner)
{
	return n->uid == 0 || n->uid == owner;
}

/* tpe_file_untrusted() in module/fs.c, in its order. */
const char *judge_path(const struct tpe_facts *f, uint32_t flags,
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

/*
 * tpe_check() in module/lsm.c: root is trusted and never checked; a
 * trusted user is checked only under STRICT, and may then own the path.
 */
void explain_judge(const struct tpe_policy *p, const struct tpe_identity *who,
		   const struct tpe_facts *f, struct tpe_verdict *v)
{
	*v = (struct tpe_verdict){ .enforce = !!(p->flags & TPE_POLICY_ENFORCE),
				   .mmap = !!(p->flags & TPE_POLICY_MMAP) };
	if (who->euid == 0) {
		v->root = v->trusted = 1;
		return;
	}
	v->trusted = judge_identity(p, who, &v->listed, &v->listed_id);
	if (v->trusted && !(p->flags & TPE_POLICY_STRICT))
		return;
	v->checked = 1;
	v->owner = v->trusted ? who->euid : 0;
	v->check = judge_path(f, p->flags, v->owner);
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
