/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: what is a trusted path (fs.c), the checks that
 * decide it, and what TPE keeps with a super block and a block device to
 * judge owners.
 */
#ifndef _SECURITY_TPE_FS_H
#define _SECURITY_TPE_FS_H

#include <linux/blk_types.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/linux/tpe.h>

#include "lsm.h"

/*
 * What TPE knows of a super block from when it was made and first mounted
 * (fs.c): facts a later bind mount, which may set nosuid, cannot change.
 */
struct tpe_superblock {
	bool untrusted_mounter;	/* made by a task whose UIDs were not all root */
	unsigned long first_mount;	/* TPE_SB_* bits, set once */
};

/* A mount of it was attached to a tree: the bit below is decided. */
#define TPE_SB_MOUNTED		0
/* That first mount was nosuid, or made by a user: mounted for someone. */
#define TPE_SB_FOR_USER		1

static inline struct tpe_superblock *tpe_sb(const struct super_block *sb)
{
	return sb->s_security + tpe_blob_sizes.lbs_superblock;
}

/* What a loop device presents, judged by the files it was bound to. */
enum tpe_backing {
	TPE_BACKING_NONE,	/* never bound, or unbound since */
	TPE_BACKING_TRUSTED,	/* only root-owned files in a trusted path */
	TPE_BACKING_UNTRUSTED,	/* some other file since it was bound */
};

/* What TPE knows of a block device. */
struct tpe_bdev {
	enum tpe_backing backing;
};

static inline struct tpe_bdev *tpe_bdev(const struct block_device *bdev)
{
	return bdev->bd_security + tpe_blob_sizes.lbs_bdev;
}

/* check=NAME for each enum tpe_check (uapi/linux/tpe.h), in the log and audit. */
extern const char *const tpe_check_names[__TPE_CHECK_MAX];

enum tpe_check tpe_file_untrusted(const struct file *file, u32 flags,
				  kuid_t owner);
enum tpe_check tpe_file_written(const struct file *file);
void __init tpe_add_fs_hooks(const struct lsm_id *lsmid);

#endif /* _SECURITY_TPE_FS_H */
