// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: securityfs tpe/policy and tpe/stats.
 *
 * A write is staged: check the caller, copy the blob into a new policy,
 * validate all of it, then swap it in under tpe_policy_mutex. Nothing
 * touches the live policy before the swap, so each error path only frees
 * the new one.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/uaccess.h>

#include "audit.h"
#include "lsm.h"
#include "policy.h"

/* Both whoever opened the file and whoever writes need CAP_MAC_ADMIN. */
static bool tpe_may_write(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_MAC_ADMIN) &&
	       capable(CAP_MAC_ADMIN);
}

/*
 * Once a LOCK policy is live every write fails the same way, whatever it
 * holds. tpe_policy_replace() checks again under the mutex, for a LOCK
 * policy that a concurrent writer makes live after this check.
 */
static bool tpe_policy_locked(void)
{
	bool locked;

	rcu_read_lock();
	locked = rcu_dereference(tpe_policy)->flags & TPE_POLICY_LOCK;
	rcu_read_unlock();
	return locked;
}

/* Copy in and validate; on success *pp is a new, valid policy. */
static int tpe_policy_copy(const char __user *buf, size_t len,
			   struct tpe_policy_hdr *hdr, struct tpe_policy **pp)
{
	struct tpe_policy *p;
	int err;

	if (len < sizeof(*hdr))
		return -EINVAL;
	if (copy_from_user(hdr, buf, sizeof(*hdr)))
		return -EFAULT;
	/* Refuse a bad header before allocating what it claims to need. */
	err = tpe_policy_check_hdr(hdr, len);
	if (err)
		return err;

	p = tpe_policy_alloc(len);
	if (!p)
		return -ENOMEM;
	if (copy_from_user(p->data, buf, len)) {
		tpe_policy_free(p);
		return -EFAULT;
	}
	/* Validate the copy itself: user space may have changed the header. */
	memcpy(hdr, p->data, sizeof(*hdr));
	err = tpe_policy_parse(p, p->data, len);
	if (err) {
		tpe_policy_free(p);
		return err;
	}
	*pp = p;
	return 0;
}

static ssize_t tpe_policy_write(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	struct tpe_policy_hdr hdr = {};
	struct tpe_policy *p = NULL;
	int err;

	if (!tpe_may_write(file) || tpe_policy_locked())
		err = -EPERM;
	else if (*ppos)
		err = -EINVAL;
	else
		err = tpe_policy_copy(buf, len, &hdr, &p);

	if (!err) {
		mutex_lock(&tpe_policy_mutex);
		err = tpe_policy_replace(p);
		mutex_unlock(&tpe_policy_mutex);
		if (err)
			tpe_policy_free(p);
	}

	tpe_audit_policy_write(&hdr, len, err);
	if (err) {
		atomic64_inc(&tpe_stats.policy_rejects);
		return err;
	}
	atomic64_inc(&tpe_stats.policy_loads);
	*ppos += len;
	return len;
}

/*
 * Anyone may read the live policy: the lists are no secret (tpe.conf is
 * world-readable), and `tpe-load --status` and `--explain` work for any
 * user. A reader holds the policy live at open(), so all its reads see one
 * blob, and it never holds the writers' mutex while it copies to user
 * memory, which may fault for as long as its owner likes.
 */
static int tpe_policy_open(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		file->private_data = tpe_policy_get_live();
	return 0;
}

static int tpe_policy_release(struct inode *inode, struct file *file)
{
	if (file->private_data)
		tpe_policy_put(file->private_data);
	return 0;
}

static ssize_t tpe_policy_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	const struct tpe_policy *p = file->private_data;

	return simple_read_from_buffer(buf, len, ppos, p->blob, p->len);
}

static const struct file_operations tpe_policy_fops = {
	.open = tpe_policy_open,
	.release = tpe_policy_release,
	.read = tpe_policy_read,
	.write = tpe_policy_write,
	.llseek = generic_file_llseek,
};

static ssize_t tpe_stats_read(struct file *file, char __user *buf,
			      size_t len, loff_t *ppos)
{
	char text[256];
	int n;

	n = scnprintf(text, sizeof(text),
		      "exec_denials %lld\n"
		      "mmap_denials %lld\n"
		      "would_deny %lld\n"
		      "policy_loads %lld\n"
		      "policy_rejects %lld\n",
		      atomic64_read(&tpe_stats.exec_denials),
		      atomic64_read(&tpe_stats.mmap_denials),
		      atomic64_read(&tpe_stats.would_deny),
		      atomic64_read(&tpe_stats.policy_loads),
		      atomic64_read(&tpe_stats.policy_rejects));
	return simple_read_from_buffer(buf, len, ppos, text, n);
}

static const struct file_operations tpe_stats_fops = {
	.read = tpe_stats_read,
	.llseek = generic_file_llseek,
};

static int __init tpe_init_securityfs(void)
{
	struct dentry *dir, *file;

	if (!tpe_enabled)
		return 0;

	dir = securityfs_create_dir("tpe", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	file = securityfs_create_file("policy", 0644, dir, NULL,
				      &tpe_policy_fops);
	if (IS_ERR(file))
		goto err;
	file = securityfs_create_file("stats", 0444, dir, NULL,
				      &tpe_stats_fops);
	if (IS_ERR(file))
		goto err;
	return 0;

err:
	securityfs_recursive_remove(dir);
	return PTR_ERR(file);
}
fs_initcall(tpe_init_securityfs);
