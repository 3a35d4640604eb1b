// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what is a trusted path.
 *
 * A file is in a trusted path when its parent directory is owned by global
 * root (or, for a trusted user under STRICT, by that user) and writable by
 * neither group nor other, and the file itself is not a block device and,
 * if a regular file, is writable by neither and, with CHECK_FILE, owned
 * like its directory.
 * Owners are facts only where no unprivileged user could choose them:
 *
 * - on a super block that a task with all-root UIDs made in the initial
 *   user namespace; a FUSE daemon behind setuid fusermount3, or a file
 *   system mounted inside a user namespace, reports whatever owners its
 *   user likes;
 * - not on a disk that root mounted for a user: a block device first
 *   mounted nosuid (udisks2, pmount), or a loop device bound to a file
 *   that is not itself a root-owned file in a trusted path;
 * - as both the file system and the mount see them: an idmapped mount may
 *   take trust away, never grant it.
 *
 * A file is judged by the path its user opened: an overlayfs file mapped
 * by mprotect() is the backing file of the layer below, but is judged as
 * the overlay file that mmap() was given, so that it has one verdict.
 */

#include <linux/blkdev.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/major.h>
#include <linux/mnt_idmapping.h>
#include <linux/mount.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <uapi/linux/loop.h>
#include <uapi/linux/mount.h>
#include <uapi/linux/tpe.h>

#include "fs.h"

/* The group and other write bits: either makes a directory or file unsafe. */
#define TPE_MODE_WRITABLE	0022

const char *const tpe_check_names[__TPE_CHECK_MAX] = TPE_CHECK_NAMES;

/*
 * mount(2) names nosuid before the super block exists, and the new mount
 * API only at fsmount(); keep what mount(2) asked for until the super
 * block it makes is allocated, in the same call.
 */
static int tpe_sb_mount(const char *dev_name, const struct path *path,
			const char *type, unsigned long flags, void *data)
{
	const unsigned long not_new = MS_REMOUNT | MS_BIND | MS_MOVE |
		MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE;
	enum tpe_mount_request req = TPE_MOUNT_NONE;

	if (!(flags & not_new))
		req = flags & MS_NOSUID ? TPE_MOUNT_NOSUID : TPE_MOUNT_SUID;
	tpe_task(current)->mount = req;
	return 0;
}

/*
 * The mounting task is current: fusermount3 and mount(8) with the "user"
 * option are setuid root, so their real UID still names the user. A super
 * block made by mount(2) takes the nosuid it was asked with; one made by
 * fsconfig() waits for its first attach (tpe_move_mount()).
 */
static int tpe_sb_alloc_security(struct super_block *sb)
{
	const struct cred *cred = current_cred();
	struct tpe_superblock *tsb = tpe_sb(sb);
	struct tpe_task *tt = tpe_task(current);

	tsb->untrusted_mounter = !uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
				 !uid_eq(cred->euid, GLOBAL_ROOT_UID);
	if (tt->mount == TPE_MOUNT_NOSUID)
		__set_bit(TPE_SB_NOSUID, &tsb->first_mount);
	else if (tt->mount == TPE_MOUNT_NONE)
		__set_bit(TPE_SB_UNATTACHED, &tsb->first_mount);
	tt->mount = TPE_MOUNT_NONE;
	return 0;
}

/* The first attach of a super block fsconfig() made fixes its nosuid. */
static int tpe_move_mount(const struct path *from_path,
			  const struct path *to_path)
{
	struct tpe_superblock *tsb = tpe_sb(from_path->mnt->mnt_sb);

	if (test_and_clear_bit(TPE_SB_UNATTACHED, &tsb->first_mount) &&
	    (from_path->mnt->mnt_flags & MNT_NOSUID))
		set_bit(TPE_SB_NOSUID, &tsb->first_mount);
	return 0;
}

static bool tpe_sb_untrusted(const struct super_block *sb)
{
	return sb->s_user_ns != &init_user_ns || tpe_sb(sb)->untrusted_mounter;
}

/*
 * Root mounted this disk for a user: its owners are whatever the user
 * wrote on it (mkfs.ext4 -E root_owner=0:0 needs no privilege). A bind
 * mount makes no super block, so bubblewrap's nosuid binds of /usr keep
 * the meaning of /usr's owners.
 */
static bool tpe_sb_mounted_for_user(const struct vfsmount *mnt)
{
	const struct super_block *sb = mnt->mnt_sb;
	unsigned long first_mount = READ_ONCE(tpe_sb(sb)->first_mount);

	if (!sb->s_bdev)
		return false;
	if (first_mount & BIT(TPE_SB_NOSUID))
		return true;
	if ((first_mount & BIT(TPE_SB_UNATTACHED)) &&
	    (READ_ONCE(mnt->mnt_flags) & MNT_NOSUID))
		return true;
	/* A partition of a loop device is in its whole device's image. */
	return sb->s_bdev->bd_disk->major == LOOP_MAJOR &&
	       !READ_ONCE(tpe_bdev(bdev_whole(sb->s_bdev))->trusted_backing);
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

static enum tpe_check tpe_dir_check(struct mnt_idmap *idmap,
				    const struct inode *dir, kuid_t owner)
{
	if (!tpe_owned(idmap, dir, owner))
		return TPE_CHECK_DIR_OWNER;
	if (dir->i_mode & TPE_MODE_WRITABLE)
		return TPE_CHECK_DIR_WRITABLE;
	return TPE_CHECK_NONE;
}

/*
 * The directory @dentry is in, judged the way d_parent_ino() reads its
 * inode number: under RCU, retried under d_lock if a rename moved @dentry
 * meanwhile. Every mmap of an untrusted caller comes here; dget_parent()
 * and dput() cost it more than the checks themselves.
 */
static enum tpe_check tpe_dir_untrusted(struct mnt_idmap *idmap,
					struct dentry *dentry, kuid_t owner)
{
	const struct inode *dir;
	enum tpe_check check;
	unsigned int seq;

	scoped_guard(rcu) {
		seq = raw_seqcount_begin(&dentry->d_seq);
		dir = d_inode_rcu(READ_ONCE(dentry->d_parent));
		if (likely(dir)) {
			check = tpe_dir_check(idmap, dir, owner);
			if (!read_seqcount_retry(&dentry->d_seq, seq))
				return check;
		}
	}

	spin_lock(&dentry->d_lock);
	check = tpe_dir_check(idmap, d_inode(dentry->d_parent), owner);
	spin_unlock(&dentry->d_lock);
	return check;
}

/**
 * tpe_file_untrusted() - the check that a file fails
 * @file: the file to execute or map
 * @flags: the live policy's flags
 * @owner: besides global root, who may own the directory (and file)
 *
 * A file with no real parent directory (memfd, anonymous inodes, files on
 * kernel-internal mounts) is never in a trusted path.
 *
 * Return: %TPE_CHECK_NONE if @file is in a trusted path, else the first
 * check it fails.
 */
enum tpe_check tpe_file_untrusted(const struct file *file, u32 flags,
				  kuid_t owner)
{
	const struct path *path = file_user_path(file);
	struct mnt_idmap *idmap = mnt_idmap(path->mnt);
	struct dentry *dentry = path->dentry;
	const struct inode *inode = d_inode(dentry);
	enum tpe_check check;

	if (IS_ROOT(dentry) || (path->mnt->mnt_flags & MNT_INTERNAL) ||
	    (dentry->d_sb->s_flags & SB_NOUSER))
		return TPE_CHECK_NO_PARENT;
	if (tpe_sb_untrusted(dentry->d_sb) || tpe_sb_mounted_for_user(path->mnt))
		return TPE_CHECK_UNTRUSTED_FS;

	check = tpe_dir_untrusted(idmap, dentry, owner);
	if (check)
		return check;

	/*
	 * A block device holds what was written to its disk, and who wrote
	 * that is no fact the node's owner or mode can tell: a disc a user
	 * burned (group cdrom, logind's ACL for the seat's user), a loop
	 * device on her own file, any disk of group disk.
	 */
	if (S_ISBLK(inode->i_mode))
		return TPE_CHECK_BLOCK_DEVICE;
	/*
	 * Whoever may rewrite a file chooses what it runs, whatever its
	 * directory. A character device, a FIFO or a socket has no contents
	 * someone stored: a private mapping of /dev/zero is anonymous memory
	 * and a shared one kernel-internal shmem, and device memory that a
	 * user may write (a framebuffer, DRM buffers) holds what a process
	 * put there while it runs, like the anonymous memory a JIT writes,
	 * which TPE allows too. Storage behind a character device
	 * (device-DAX persistent memory) is root's alone (0600) unless an
	 * administrator hands it out.
	 */
	if (!S_ISREG(inode->i_mode))
		return TPE_CHECK_NONE;
	if (inode->i_mode & TPE_MODE_WRITABLE)
		return TPE_CHECK_FILE_WRITABLE;
	if ((flags & TPE_POLICY_CHECK_FILE) && !tpe_owned(idmap, inode, owner))
		return TPE_CHECK_FILE_OWNER;
	return TPE_CHECK_NONE;
}

/**
 * tpe_file_written() - can someone write to a file being mapped?
 * @file: a file to be mapped executable
 *
 * A mode check tells who may open a file for writing from now on; whoever
 * opened it before a chmod go-w, or mapped it shared and writable, writes
 * to it still. exec refuses such a file itself (ETXTBSY), mmap does not.
 * For an overlayfs file both the overlay inode and the inode holding its
 * data are looked at: a writer holds the one it opened, and a shared
 * writable mapping holds only the one below.
 *
 * Return: %TPE_CHECK_FILE_OPEN_WRITE if @file is a regular file open for
 * writing or mapped shared and writable, else %TPE_CHECK_NONE.
 */
enum tpe_check tpe_file_written(const struct file *file)
{
	const struct dentry *dentry = file_user_path(file)->dentry;
	const struct inode *inode = d_inode(dentry);
	const struct inode *real = d_real_inode(dentry);

	if (!S_ISREG(inode->i_mode))
		return TPE_CHECK_NONE;
	if (inode_is_open_for_write(inode) ||
	    (real != inode && inode_is_open_for_write(real)) ||
	    mapping_writably_mapped(real->i_mapping))
		return TPE_CHECK_FILE_OPEN_WRITE;
	return TPE_CHECK_NONE;
}

/*
 * Binding a loop device judges the file it is bound to: a root-owned file
 * in a trusted path keeps the meaning of the owners on the disk it holds,
 * anything else (a user's image, passed to udisksd by descriptor) does not.
 * Only root binds loop devices (the device node's mode); a racing thread of
 * that caller could bind another descriptor than the one judged here, which
 * is root's own choice.
 */
static int tpe_file_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct loop_config __user *config = (void __user *)arg;
	struct block_device *bdev;
	struct file *backing;
	unsigned int fd;

	if (!S_ISBLK(file_inode(file)->i_mode))
		return 0;
	bdev = file_bdev(file);
	if (bdev->bd_disk->major != LOOP_MAJOR)
		return 0;
	switch (cmd) {
	case LOOP_SET_FD:
	case LOOP_CHANGE_FD:
		fd = arg;
		break;
	case LOOP_CONFIGURE:
		if (get_user(fd, &config->fd))
			return -EFAULT;
		break;
	default:
		return 0;
	}

	backing = fget(fd);
	if (!backing)
		return -EBADF;
	/* The loop driver binds the whole device, whichever node is used. */
	WRITE_ONCE(tpe_bdev(bdev_whole(bdev))->trusted_backing,
		   tpe_file_untrusted(backing, TPE_POLICY_CHECK_FILE,
				      GLOBAL_ROOT_UID) == TPE_CHECK_NONE);
	fput(backing);
	return 0;
}

static struct security_hook_list tpe_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_mount, tpe_sb_mount),
	LSM_HOOK_INIT(sb_alloc_security, tpe_sb_alloc_security),
	LSM_HOOK_INIT(move_mount, tpe_move_mount),
	LSM_HOOK_INIT(file_ioctl, tpe_file_ioctl),
	LSM_HOOK_INIT(file_ioctl_compat, tpe_file_ioctl),
};

void __init tpe_add_fs_hooks(const struct lsm_id *lsmid)
{
	security_add_hooks(tpe_fs_hooks, ARRAY_SIZE(tpe_fs_hooks), lsmid);
}
