// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: the hooks and the LSM's registration.
 *
 * An untrusted user may only execute (and, with TPE_POLICY_MMAP, map
 * executable) files whose parent directory is owned by global root and
 * writable by neither group nor other.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/lsm_hooks.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/mount.h>
#include <linux/uidgid.h>
#include <uapi/linux/lsm.h>

#include "tpe.h"

/* The group and other write bits: either makes a directory or file unsafe. */
#define TPE_MODE_WRITABLE	0022

static bool tpe_enforce = IS_ENABLED(CONFIG_SECURITY_TPE_ENFORCE);
module_param_named(enforce, tpe_enforce, bool, 0);
MODULE_PARM_DESC(enforce, "Boot policy denies (1) or only logs (0)");

bool tpe_enabled __ro_after_init;
struct tpe_stats tpe_stats;

/* Is the subject on the policy's lists, by euid, egid or a supplementary group? */
static bool tpe_subject_listed(const struct tpe_policy *p,
			       const struct cred *cred)
{
	const struct group_info *groups = cred->group_info;
	int i;

	if (tpe_policy_has_uid(p, from_kuid(&init_user_ns, cred->euid)))
		return true;
	if (!p->nr_gids)
		return false;
	if (tpe_policy_has_gid(p, from_kgid(&init_user_ns, cred->egid)))
		return true;
	for (i = 0; i < groups->ngroups; i++)
		if (tpe_policy_has_gid(p, from_kgid(&init_user_ns,
						    groups->gid[i])))
			return true;
	return false;
}

/* Which check @inode fails as a trusted directory or file, or NULL. */
static const char *tpe_inode_untrusted(const struct inode *inode, kuid_t owner,
				       const char *not_owned,
				       const char *writable)
{
	if (!uid_eq(inode->i_uid, GLOBAL_ROOT_UID) &&
	    !uid_eq(inode->i_uid, owner))
		return not_owned;
	if (inode->i_mode & TPE_MODE_WRITABLE)
		return writable;
	return NULL;
}

/*
 * tpe_file_untrusted - name the check that @file fails, or NULL
 * @file: the file to execute or map
 * @flags: the live policy's flags
 * @owner: besides global root, who may own the directory (and file)
 *
 * A file with no real parent directory (memfd, anonymous inodes, files on
 * kernel-internal mounts) is never in a trusted path.
 */
static const char *tpe_file_untrusted(const struct file *file, u32 flags,
				      kuid_t owner)
{
	struct dentry *dentry = file->f_path.dentry;
	struct dentry *parent;
	const char *check;

	if (IS_ROOT(dentry) || (file->f_path.mnt->mnt_flags & MNT_INTERNAL) ||
	    (dentry->d_sb->s_flags & SB_NOUSER))
		return "no-parent";

	parent = dget_parent(dentry);
	check = tpe_inode_untrusted(d_inode(parent), owner, "dir-owner",
				    "dir-writable");
	dput(parent);
	if (check || !(flags & TPE_POLICY_CHECK_FILE))
		return check;
	return tpe_inode_untrusted(file_inode(file), owner, "file-owner",
				   "file-writable");
}

static int tpe_check(struct file *file, enum tpe_op op)
{
	const struct cred *cred = current_cred();
	const struct tpe_policy *p;
	const char *check;
	bool listed, trusted;
	u32 flags;

	/* Global root is always trusted and never checked. */
	if (uid_eq(cred->euid, GLOBAL_ROOT_UID))
		return 0;

	rcu_read_lock();
	p = rcu_dereference(tpe_policy);
	flags = p->flags;
	if (op != TPE_OP_EXEC && !(flags & TPE_POLICY_MMAP)) {
		rcu_read_unlock();
		return 0;
	}
	listed = tpe_subject_listed(p, cred);
	rcu_read_unlock();

	/* The lists name the trusted users, or with INVERT the untrusted. */
	trusted = flags & TPE_POLICY_INVERT ? !listed : listed;

	if (trusted && !(flags & TPE_POLICY_STRICT))
		return 0;
	check = tpe_file_untrusted(file, flags,
				   trusted ? cred->euid : GLOBAL_ROOT_UID);
	if (!check)
		return 0;

	tpe_report_denial(file, op, check, flags & TPE_POLICY_ENFORCE);
	return flags & TPE_POLICY_ENFORCE ? -EACCES : 0;
}

/*
 * Runs for the file named in execve() and again for a script's interpreter:
 * a script in an untrusted directory is denied itself.
 */
static int tpe_bprm_check_security(struct linux_binprm *bprm)
{
	return tpe_check(bprm->file, TPE_OP_EXEC);
}

static int tpe_mmap_file(struct file *file, unsigned long reqprot,
			 unsigned long prot, unsigned long flags)
{
	if (!file || !(prot & PROT_EXEC))
		return 0;
	return tpe_check(file, TPE_OP_MMAP);
}

static int tpe_file_mprotect(struct vm_area_struct *vma, unsigned long reqprot,
			     unsigned long prot)
{
	if (!vma->vm_file || !(prot & PROT_EXEC))
		return 0;
	return tpe_check(vma->vm_file, TPE_OP_MPROTECT);
}

static const struct lsm_id tpe_lsmid = {
	.name = "tpe",
	.id = LSM_ID_TPE,
};

static struct security_hook_list tpe_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_check_security, tpe_bprm_check_security),
	LSM_HOOK_INIT(mmap_file, tpe_mmap_file),
	LSM_HOOK_INIT(file_mprotect, tpe_file_mprotect),
};

static int __init tpe_init(void)
{
	tpe_policy_boot(tpe_enforce);
	security_add_hooks(tpe_hooks, ARRAY_SIZE(tpe_hooks), &tpe_lsmid);
	tpe_enabled = true;
	pr_info("initialized, boot policy %s\n",
		tpe_enforce ? "enforcing" : "permissive");
	return 0;
}

DEFINE_LSM(tpe) = {
	.name = "tpe",
	.init = tpe_init,
};
