// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what is a trusted path.
 *
 * A file is in a trusted path when its parent directory is owned by global
 * root (or, for a trusted user under STRICT, by that user) and writable by
 * neither group nor other, and the file itself (if a regular file) is
 * writable by neither.
 * Owners are facts only where no unprivileged user could choose them:
 *
 * - on a super block that a task with all-root UIDs made in the initial
 *   user namespace; a FUSE daemon behind setuid fusermount3, or a file
 *   system mounted inside a user namespace, reports whatever owners its
 *   user likes;
 * - as both the file system and the mount see them: an idmapped mount may
 *   take trust away, never grant it.
 */

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/mnt_idmapping.h>
#include <linux/mount.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "tpe.h"

/* The group and other write bits: either makes a directory or file unsafe. */
#define TPE_MODE_WRITABLE	0022

/*
 * The mounting task is current: fusermount3 and mount(8) with the "user"
 * option are setuid root, so their real UID still names the user.
 */
static int tpe_sb_alloc_security(struct super_block *sb)
{
	const struct cred *cred = current_cred();

	tpe_sb(sb)->untrusted_mounter = !uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
					!uid_eq(cred->euid, GLOBAL_ROOT_UID);
	return 0;
}

static bool tpe_sb_untrusted(const struct super_block *sb)
{
	return sb->s_user_ns != &init_user_ns || tpe_sb(sb)->untrusted_mounter;
}

/* Is @inode owned by @owner, for its file system and through @idmap? */
static bool tpe_owned_by(struct mnt_idmap *idmap, const struct inode *inode,
			 kuid_t owner)
{
	return uid_eq(inode->i_uid, owner) &&
	       vfsuid_eq_kuid(i_uid_into_vfsuid(idmap, inode), owner);
}

static bool tpe_owned(struct mnt_idmap *idmap, const struct inode *inode,
		      kuid_t owner)
{
	return tpe_owned_by(idmap, inode, GLOBAL_ROOT_UID) ||
	       tpe_owned_by(idmap, inode, owner);
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
const char *tpe_file_untrusted(const struct file *file, u32 flags,
			       kuid_t owner)
{
	struct mnt_idmap *idmap = file_mnt_idmap(file);
	struct dentry *dentry = file->f_path.dentry;
	const struct inode *inode = file_inode(file);
	const struct inode *dir;
	struct dentry *parent;
	const char *check = NULL;

	if (IS_ROOT(dentry) || (file->f_path.mnt->mnt_flags & MNT_INTERNAL) ||
	    (dentry->d_sb->s_flags & SB_NOUSER))
		return "no-parent";
	if (tpe_sb_untrusted(dentry->d_sb))
		return "untrusted-fs";

	parent = dget_parent(dentry);
	dir = d_inode(parent);
	if (!tpe_owned(idmap, dir, owner))
		check = "dir-owner";
	else if (dir->i_mode & TPE_MODE_WRITABLE)
		check = "dir-writable";
	dput(parent);
	if (check)
		return check;

	/*
	 * Whoever may rewrite a file chooses what it runs, whatever its
	 * directory. Only regular files have contents someone wrote: a
	 * device such as /dev/zero (0666) maps memory.
	 */
	if (!S_ISREG(inode->i_mode))
		return NULL;
	if (inode->i_mode & TPE_MODE_WRITABLE)
		return "file-writable";
	if ((flags & TPE_POLICY_CHECK_FILE) && !tpe_owned(idmap, inode, owner))
		return "file-owner";
	return NULL;
}

static struct security_hook_list tpe_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_alloc_security, tpe_sb_alloc_security),
};

void __init tpe_add_fs_hooks(const struct lsm_id *lsmid)
{
	security_add_hooks(tpe_fs_hooks, ARRAY_SIZE(tpe_fs_hooks), lsmid);
}
