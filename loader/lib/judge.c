// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's decision, worked out again in user space from facts that
 * facts.c gathered: --explain says it in words (lib/explain.c),
 * tpe-suggest asks it whether trusting a user would help. Nothing here
 * touches the file system: the unit tests hand in made-up facts.
 *
 * Split as the module is, with its order of checks and their names:
 * judge_identity() is module/cred.c's tpe_ids_trusted() (is this identity
 * trusted), judge_path() is module/fs.c's tpe_file_untrusted() (is this
 * file in a trusted path), explain_judge() ties them as tpe_check() in
 * module/lsm.c does. The checks and their names are the kernel's own
 * table, enum tpe_check and TPE_CHECK_NAMES in <linux/tpe.h>.
 * judge_path() gives every check but TPE_CHECK_FILE_OPEN_WRITE: who has a
 * file open for writing (or mapped shared and writable) is not visible
 * from user space.
 */
#define _DEFAULT_SOURCE
#include <string.h>

#include <linux/tpe.h>

#include "judge.h"

/* check=NAME as the kernel logs it: the table of <linux/tpe.h>. */
const char *const tpe_check_names[__TPE_CHECK_MAX] = TPE_CHECK_NAMES;

enum tpe_check tpe_check_by_name(const char *name)
{
	enum tpe_check c;

	for (c = TPE_CHECK_NONE; c < __TPE_CHECK_MAX; c++)
		if (!strcmp(name, tpe_check_names[c]))
			return c;
	return __TPE_CHECK_MAX;
}

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
enum tpe_check judge_path(const struct tpe_facts *f, uint32_t flags,
			  uint32_t owner)
{
	if (f->no_parent)
		return TPE_CHECK_NO_PARENT;
	if (f->untrusted_fs)
		return TPE_CHECK_UNTRUSTED_FS;
	if (!owned(&f->dir, owner))
		return TPE_CHECK_DIR_OWNER;
	if (f->dir.mode & MODE_WRITABLE)
		return TPE_CHECK_DIR_WRITABLE;
	if ((f->file.mode & S_IFMT) == S_IFBLK)
		return TPE_CHECK_BLOCK_DEVICE;
	if ((f->file.mode & S_IFMT) != S_IFREG)
		return TPE_CHECK_NONE;
	if (f->file.mode & MODE_WRITABLE)
		return TPE_CHECK_FILE_WRITABLE;
	if ((flags & TPE_POLICY_CHECK_FILE) && !owned(&f->file, owner))
		return TPE_CHECK_FILE_OWNER;
	return TPE_CHECK_NONE;
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
	return v->check != TPE_CHECK_NONE || v->interp_check != TPE_CHECK_NONE;
}

/* "allowed", "denied", or "would deny": the verdict on the exec. */
const char *explain_headline(const struct tpe_verdict *v)
{
	if (!explain_refused(v))
		return "allowed";
	return v->enforce ? "denied" : "would deny";
}
