/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: types shared by the hooks, the policy and the
 * securityfs files.
 */
#ifndef _SECURITY_TPE_H
#define _SECURITY_TPE_H

#include <linux/atomic.h>
#include <linux/blk_types.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/tpe.h>

/*
 * A policy is the blob exactly as user space wrote it (so reading it back is
 * byte-exact by construction) plus, once validated, native copies of the
 * header fields and pointers to the two little-endian ID arrays inside it.
 */
struct tpe_policy {
	struct rcu_head rcu;
	refcount_t usage;	/* live (until a grace period after), readers of tpe/policy */
	u64 generation;		/* never the same for two live policies, never 0 */
	u32 flags;
	u32 nr_uids;
	u32 nr_gids;
	const __le32 *uids;	/* nr_uids, strictly ascending */
	const __le32 *gids;	/* nr_gids, strictly ascending */
	size_t len;
	const void *blob;	/* header, uids, gids: len bytes */
	u8 data[] __aligned(8);	/* the blob, unless this is the boot policy */
};

/* The live policy: hooks read it under rcu_read_lock(). */
extern struct tpe_policy __rcu *tpe_policy;
/* Held by writers of the live policy. */
extern struct mutex tpe_policy_mutex;

void tpe_policy_boot(u32 flags);
struct tpe_policy *tpe_policy_alloc(size_t len);
void tpe_policy_free(struct tpe_policy *p);
struct tpe_policy *tpe_policy_get_live(void);
void tpe_policy_put(struct tpe_policy *p);
int tpe_policy_check_hdr(const struct tpe_policy_hdr *hdr, size_t len);
int tpe_policy_parse(struct tpe_policy *p, const void *blob, size_t len);
bool tpe_policy_has_uid(const struct tpe_policy *p, u32 uid);
bool tpe_policy_has_gid(const struct tpe_policy *p, u32 gid);
int tpe_policy_replace(struct tpe_policy *p);

extern struct lsm_blob_sizes tpe_blob_sizes;

/*
 * What TPE keeps with a credential: the identity it was prepared from while
 * that one was in the initial user namespace. In a user namespace a task may
 * map, switch to or drop IDs its creator chose (setresuid to a subordinate
 * UID, setgroups), so its trust is judged by this identity too.
 *
 * And the last verdict on it: a live policy's generation shifted left by
 * one, ORed with 1 if the credential was trusted under that policy; 0 when
 * it was never judged.
 */
struct tpe_cred {
	kuid_t origin_euid;
	kgid_t origin_egid;
	struct group_info *origin_groups;	/* NULL only for init_cred */
	atomic64_t verdict;
};

static inline struct tpe_cred *tpe_cred(const struct cred *cred)
{
	return cred->security + tpe_blob_sizes.lbs_cred;
}

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

/* The checks of a trusted path, in the order fs.c makes them. */
enum tpe_check {
	TPE_CHECK_NONE,		/* in a trusted path */
	TPE_CHECK_NO_PARENT,
	TPE_CHECK_UNTRUSTED_FS,
	TPE_CHECK_DIR_OWNER,
	TPE_CHECK_DIR_WRITABLE,
	TPE_CHECK_FILE_WRITABLE,
	TPE_CHECK_FILE_OWNER,
	TPE_CHECK_FILE_OPEN_WRITE,
	__TPE_CHECK_MAX
};

/* The names the log and the audit record give them (check=NAME). */
extern const char *const tpe_check_names[__TPE_CHECK_MAX];

bool tpe_cred_trusted(const struct tpe_policy *p, const struct cred *cred);
enum tpe_check tpe_file_untrusted(const struct file *file, u32 flags,
				  kuid_t owner);
enum tpe_check tpe_file_written(const struct file *file);
void __init tpe_add_cred_hooks(const struct lsm_id *lsmid);
void __init tpe_add_fs_hooks(const struct lsm_id *lsmid);

/* What the hooks were asked to allow. */
enum tpe_op {
	TPE_OP_EXEC,
	TPE_OP_MMAP,
	TPE_OP_MPROTECT,
};

struct tpe_stats {
	atomic64_t exec_denials;
	atomic64_t mmap_denials;	/* mmap and mprotect */
	atomic64_t would_deny;		/* permissive mode */
	atomic64_t policy_loads;
	atomic64_t policy_rejects;
};

extern struct tpe_stats tpe_stats;
extern bool tpe_enabled;

void tpe_report_denial(const struct cred *cred, const struct file *file,
		       enum tpe_op op, enum tpe_check check, bool enforce);
void tpe_audit_policy_write(const struct tpe_policy_hdr *hdr, size_t len,
			    int err);

#endif /* _SECURITY_TPE_H */
