// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: what is a trusted path.
 *
 * A file is in a trusted path when its parent directory is owned by global
 * root (or, for a trusted user under STRICT, by that user) and writable by
 * neither group nor other, and the file itself is not a block device and,
 * if a regular file, is writable by neither and, with CHECK_FILE, owned
 * like its directory. Owners are facts only where no unprivileged user
 * could choose them:
 *
 * - on a super block that a task with all-root UIDs made in the initial
 *   user namespace; a FUSE daemon behind setuid fusermount3, or a file
 *   system mounted inside a user namespace, reports whatever owners its
 *   user likes;
 * - not on a disk that root mounted for a user: a block device whose first
 *   mount was nosuid (udisks2, pmount) or made by a caller whose UIDs were
 *   not all root, or a loop device that has been bound, since it was last
 *   unbound, to a file that was not a root-owned file in a trusted path;
 * - as both the file system and the mount see them: an idmapped mount may
 *   take trust away, never grant it.
 *
 * Every fact is taken from an operation that happened: a super block's
 * first mount once the call that made it cannot fail (sb_mounted), a loop
 * device's backing file once the loop driver cannot refuse it
 * (bdev_set_backing_file). No hook here runs before the operation it
 * records, so a refused or failed call changes no verdict.
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
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <uapi/linux/tpe.h>

#include "fs.h"

/* The group and other write bits: either makes a directory or file unsafe. */
#define TPE_MODE_WRITABLE	0022

const char *const tpe_check_names[__TPE_CHECK_MAX] = TPE_CHECK_NAMES;

/*
 * A mounter is a user unless all its UIDs are root: fusermount3 and
 * mount(8) with the "user" option are setuid root, so their real UID
 * still names the user.
 */
static bool tpe_mounter_untrusted(const struct cred *cred)
{
	return !uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
	       !uid_eq(cred->euid, GLOBAL_ROOT_UID);
}

/* The mounting task is current. */
static int hook_sb_alloc_security(struct super_block *sb)
{
	tpe_sb(sb)->untrusted_mounter = tpe_mounter_untrusted(current_cred());
	return 0;
}

/*
 * The first mount of a super block attached to a tree decides whether root
 * mounted it for a user: a new mount by mount(2), or a detached one (from
 * fsmount()) attached by move_mount() or mount(2) MS_MOVE, with the flags
 * mount_setattr() gave it before (libmount 2.39 and later mount that way:
 * fsmount() with no attributes, then MOUNT_ATTR_NOSUID, then the attach).
 * Later mounts of it (binds, which may add nosuid, or a second mount(2) of
 * the same disk) change nothing. Only a call that succeeded comes here.
 */
static void hook_sb_mounted(const struct vfsmount *mnt)
{
	unsigned long first = BIT(TPE_SB_MOUNTED);

	if ((mnt->mnt_flags & MNT_NOSUID) ||
	    tpe_mounter_untrusted(current_cred()))
		first |= BIT(TPE_SB_FOR_USER);
	cmpxchg(&tpe_sb(mnt->mnt_sb)->first_mount, 0, first);
}

static bool tpe_sb_untrusted(const struct super_block *sb)
{
	return sb->s_user_ns != &init_user_ns || tpe_sb(sb)->untrusted_mounter;
}

/*
 * Seen through @mnt, is its super block mounted for a user? Decided by the
 * first mount once there was one; until then (a super block the kernel
 * mounted for itself) by @mnt, the mount the file is reached through.
 */
static bool tpe_first_mount_for_user(unsigned long first_mount,
				     const struct vfsmount *mnt)
{
	if (first_mount & BIT(TPE_SB_MOUNTED))
		return first_mount & BIT(TPE_SB_FOR_USER);
	return READ_ONCE(mnt->mnt_flags) & MNT_NOSUID;
}

/*
 * Root mounted this disk for a user: its owners are whatever the user
 * wrote on it (mkfs.ext4 -E root_owner=0:0 needs no privilege). A disk is
 * a file system read from a device, whether or not its super block holds
 * one: btrfs and a file-backed erofs have no s_bdev. tmpfs, which root
 * mounts nosuid for everyone (/run, /dev/shm), holds only what was
 * written through it. A bind mount makes no super block, so bubblewrap's
 * nosuid binds of /usr keep the meaning of /usr's owners.
 */
static bool tpe_sb_mounted_for_user(const struct vfsmount *mnt)
{
	const struct super_block *sb = mnt->mnt_sb;

	if (!sb->s_bdev && !(sb->s_type->fs_flags & FS_REQUIRES_DEV))
		return false;
	if (tpe_first_mount_for_user(READ_ONCE(tpe_sb(sb)->first_mount), mnt))
		return true;
	/* A partition of a loop device is in its whole device's image. */
	return sb->s_bdev && sb->s_bdev->bd_disk->major == LOOP_MAJOR &&
	       READ_ONCE(tpe_bdev(bdev_whole(sb->s_bdev))->backing) !=
	       TPE_BACKING_TRUSTED;
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
	 * (device-DAX persistent memory) is root's alone unless an
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
 * What a loop device presents is what its backing file holds: a root-owned
 * file in a trusted path keeps the meaning of the owners on the disk it
 * holds, anything else (a user's image, passed to udisksd by descriptor; a
 * block device, whose own contents are no fact) does not. While the device
 * stays bound the verdict only goes down: after LOOP_CHANGE_FD a file
 * system mounted from the old file that has no shutdown operation keeps
 * serving what it cached from it (an inode in use keeps its pages).
 */
static enum tpe_backing tpe_backing_bound(enum tpe_backing now, bool trusted)
{
	return trusted && now != TPE_BACKING_UNTRUSTED ? TPE_BACKING_TRUSTED :
							 TPE_BACKING_UNTRUSTED;
}

/*
 * The loop driver calls this only for a bind that happens, and with its own
 * locks held, so that calls for one device never race.
 */
static void hook_bdev_set_backing_file(struct block_device *bdev,
				       const struct file *file)
{
	struct tpe_bdev *tb = tpe_bdev(bdev);
	enum tpe_backing backing = TPE_BACKING_NONE;
	bool trusted;

	if (file) {
		trusted = !tpe_file_untrusted(file, TPE_POLICY_CHECK_FILE,
					      GLOBAL_ROOT_UID);
		backing = tpe_backing_bound(tb->backing, trusted);
	}
	WRITE_ONCE(tb->backing, backing);
}

static struct security_hook_list tpe_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_alloc_security, hook_sb_alloc_security),
	LSM_HOOK_INIT(sb_mounted, hook_sb_mounted),
	LSM_HOOK_INIT(bdev_set_backing_file, hook_bdev_set_backing_file),
};

void __init tpe_add_fs_hooks(const struct lsm_id *lsmid)
{
	security_add_hooks(tpe_fs_hooks, ARRAY_SIZE(tpe_fs_hooks), lsmid);
}

#ifdef CONFIG_SECURITY_TPE_KUNIT_TEST

#include <kunit/test.h>

static void test_tpe_backing_bound(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tpe_backing_bound(TPE_BACKING_NONE, true),
			TPE_BACKING_TRUSTED);
	KUNIT_EXPECT_EQ(test, tpe_backing_bound(TPE_BACKING_NONE, false),
			TPE_BACKING_UNTRUSTED);
	KUNIT_EXPECT_EQ(test, tpe_backing_bound(TPE_BACKING_TRUSTED, true),
			TPE_BACKING_TRUSTED);
	KUNIT_EXPECT_EQ(test, tpe_backing_bound(TPE_BACKING_TRUSTED, false),
			TPE_BACKING_UNTRUSTED);
	/* A bound device does not get trust back from a LOOP_CHANGE_FD. */
	KUNIT_EXPECT_EQ(test, tpe_backing_bound(TPE_BACKING_UNTRUSTED, true),
			TPE_BACKING_UNTRUSTED);
}

static void test_tpe_first_mount_for_user(struct kunit *test)
{
	const unsigned long mounted = BIT(TPE_SB_MOUNTED);
	const unsigned long for_user = mounted | BIT(TPE_SB_FOR_USER);
	const struct vfsmount suid = { .mnt_flags = 0 };
	const struct vfsmount nosuid = { .mnt_flags = MNT_NOSUID };

	/* Not attached by mount(2) or an attach yet: the mount reached through. */
	KUNIT_EXPECT_FALSE(test, tpe_first_mount_for_user(0, &suid));
	KUNIT_EXPECT_TRUE(test, tpe_first_mount_for_user(0, &nosuid));
	/* Root's own disk through a nosuid bind (bubblewrap's /usr). */
	KUNIT_EXPECT_FALSE(test, tpe_first_mount_for_user(mounted, &nosuid));
	KUNIT_EXPECT_FALSE(test, tpe_first_mount_for_user(mounted, &suid));
	/* A user's disk through a bind root made without nosuid. */
	KUNIT_EXPECT_TRUE(test, tpe_first_mount_for_user(for_user, &suid));
	KUNIT_EXPECT_TRUE(test, tpe_first_mount_for_user(for_user, &nosuid));
}

/* A super block with a zeroed tpe blob, as the LSM framework makes one. */
static struct super_block *tpe_test_sb(struct kunit *test)
{
	struct super_block *sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sb);
	sb->s_security = kunit_kzalloc(test, tpe_blob_sizes.lbs_superblock +
				       sizeof(struct tpe_superblock),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sb->s_security);
	return sb;
}

/* The first mount decides, whatever the mounts made of it later. */
static void test_hook_sb_mounted_first_wins(struct kunit *test)
{
	const unsigned long mounted = BIT(TPE_SB_MOUNTED);
	const unsigned long for_user = mounted | BIT(TPE_SB_FOR_USER);
	struct super_block *hers = tpe_test_sb(test), *his = tpe_test_sb(test);
	const struct vfsmount her_nosuid = {
		.mnt_sb = hers, .mnt_flags = MNT_NOSUID,
	};
	const struct vfsmount her_bind = { .mnt_sb = hers };
	const struct vfsmount his_suid = { .mnt_sb = his };
	const struct vfsmount his_bind = {
		.mnt_sb = his, .mnt_flags = MNT_NOSUID,
	};

	/* udisks2's nosuid mount, then a bind root makes without nosuid. */
	hook_sb_mounted(&her_nosuid);
	KUNIT_EXPECT_EQ(test, tpe_sb(hers)->first_mount, for_user);
	hook_sb_mounted(&her_bind);
	KUNIT_EXPECT_EQ(test, tpe_sb(hers)->first_mount, for_user);

	/* Root's own mount, then a nosuid bind of it (bubblewrap's). */
	hook_sb_mounted(&his_suid);
	KUNIT_EXPECT_EQ(test, tpe_sb(his)->first_mount, mounted);
	hook_sb_mounted(&his_bind);
	KUNIT_EXPECT_EQ(test, tpe_sb(his)->first_mount, mounted);
}

/* A first mount made by a user (a setuid mount(8)) is made for her. */
static void test_hook_sb_mounted_by_user(struct kunit *test)
{
	struct super_block *sb = tpe_test_sb(test);
	const struct vfsmount mnt = { .mnt_sb = sb };
	const struct cred *old;
	struct cred *cred;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->uid = KUIDT_INIT(1000);
	old = override_creds(cred);
	hook_sb_mounted(&mnt);
	revert_creds(old);
	put_cred(cred);
	KUNIT_EXPECT_EQ(test, tpe_sb(sb)->first_mount,
			BIT(TPE_SB_MOUNTED) | BIT(TPE_SB_FOR_USER));
}

/*
 * A disk's super block with no block device (btrfs, a file-backed erofs)
 * is judged as a disk; a nosuid tmpfs (/run) is not one.
 */
static void test_tpe_sb_mounted_for_user_no_bdev(struct kunit *test)
{
	static struct file_system_type disk = {
		.name = "tpe_test_disk", .fs_flags = FS_REQUIRES_DEV,
	};
	static struct file_system_type memory = { .name = "tpe_test_memory" };
	struct super_block *stick = tpe_test_sb(test), *run = tpe_test_sb(test);
	const struct vfsmount stick_nosuid = {
		.mnt_sb = stick, .mnt_flags = MNT_NOSUID,
	};
	const struct vfsmount run_nosuid = {
		.mnt_sb = run, .mnt_flags = MNT_NOSUID,
	};

	stick->s_type = &disk;
	run->s_type = &memory;
	KUNIT_EXPECT_TRUE(test, tpe_sb_mounted_for_user(&stick_nosuid));
	hook_sb_mounted(&stick_nosuid);
	KUNIT_EXPECT_TRUE(test, tpe_sb_mounted_for_user(&stick_nosuid));
	KUNIT_EXPECT_FALSE(test, tpe_sb_mounted_for_user(&run_nosuid));
	hook_sb_mounted(&run_nosuid);
	KUNIT_EXPECT_FALSE(test, tpe_sb_mounted_for_user(&run_nosuid));
}

static struct kunit_case tpe_fs_test_cases[] = {
	KUNIT_CASE(test_tpe_backing_bound),
	KUNIT_CASE(test_tpe_first_mount_for_user),
	KUNIT_CASE(test_hook_sb_mounted_first_wins),
	KUNIT_CASE(test_hook_sb_mounted_by_user),
	KUNIT_CASE(test_tpe_sb_mounted_for_user_no_bdev),
	{}
};

static struct kunit_suite tpe_fs_test_suite = {
	.name = "tpe_fs",
	.test_cases = tpe_fs_test_cases,
};

kunit_test_suite(tpe_fs_test_suite);

#endif /* CONFIG_SECURITY_TPE_KUNIT_TEST */
