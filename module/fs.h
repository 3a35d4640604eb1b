/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: what is a trusted path (fs.c), the checks that
 * decide it, and what TPE keeps with a super block, a block device and a
 * task to judge owners.
 */
#ifndef _SECURITY_TPE_FS_H
#define _SECURITY_TPE_FS_H

#include <linux/blk_types.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/linux/tpe.h>

#include "lsm.h"

/*
 * What TPE knows of a super block from when it was made and first mounted
 * (fs.c): facts a later bind mount, which may set nosuid, cannot change.
 */
struct tpe_superblock {
	bool untrusted_mounter;	/* mounted by a task whose UIDs were not all root */
	unsigned long first_mount;	/* TPE_SB_* bits */
};

/* Made by fsconfig(FSCONFIG_CMD_CREATE): nosuid is known at first attach. */
#define TPE_SB_UNATTACHED	0
/* First mounted nosuid: mounted for someone (udisks2, pmount). */
#define TPE_SB_NOSUID		1

static inline struct tpe_superblock *tpe_sb(const struct super_block *sb)
{
	return sb->s_security + tpe_blob_sizes.lbs_superblock;
}

/*
 * What TPE knows of a block device: for a loop device, whether the file
 * it was last bound to was judged a trusted one (a root-owned file in a
 * trusted path) when it was bound.
 */
struct tpe_bdev {
	bool trusted_backing;
};

static inline struct tpe_bdev *tpe_bdev(const struct block_device *bdev)
{
	return bdev->bd_security + tpe_blob_sizes.lbs_bdev;
}

/* How the task's last mount(2) asked for a new mount, till a super block is made. */
enum tpe_mount_request {
	TPE_MOUNT_NONE,		/* not a new mount, or already taken */
	TPE_MOUNT_SUID,
	TPE_MOUNT_NOSUID,
};

struct tpe_task {
	enum tpe_mount_request mount;
};

static inline struct tpe_task *tpe_task(const struct task_struct *task)
{
	return task->security + tpe_blob_sizes.lbs_task;
}

/* check=NAME for each enum tpe_check (uapi/linux/tpe.h), in the log and audit. */
extern const char *const tpe_check_names[__TPE_CHECK_MAX];

enum tpe_check tpe_file_untrusted(const struct file *file, u32 flags,
				  kuid_t owner);
enum tpe_check tpe_file_written(const struct file *file);
void __init tpe_add_fs_hooks(const struct lsm_id *lsmid);

#endif /* _SECURITY_TPE_FS_H */
