// SPDX-License-Identifier: GPL-2.0
/*
 * Trusted Path Execution: the hooks and the LSM's registration.
 *
 * An untrusted user may only execute (and, with TPE_POLICY_MMAP, map
 * executable) files in a trusted path (fs.c); who is trusted is cred.c's.
 */

#define pr_fmt(fmt) "tpe: " fmt

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/uidgid.h>
#include <uapi/linux/lsm.h>

#include "audit.h"
#include "cred.h"
#include "fs.h"
#include "lsm.h"
#include "policy.h"

static bool tpe_enforce = IS_ENABLED(CONFIG_SECURITY_TPE_ENFORCE);
module_param_named(enforce, tpe_enforce, bool, 0);
MODULE_PARM_DESC(enforce, "Boot policy denies (1) or only logs (0)");

bool tpe_enabled __ro_after_init;

struct lsm_blob_sizes tpe_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct tpe_cred),
	.lbs_superblock = sizeof(struct tpe_superblock),
	.lbs_bdev = sizeof(struct tpe_bdev),
};

/* May @cred execute or map @file for @op under the live policy? */
static int tpe_check(const struct cred *cred, const struct file *file,
		     enum tpe_op op)
{
	const struct tpe_policy *p;
	enum tpe_check check;
	bool trusted;
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
	trusted = tpe_cred_trusted(p, cred);
	rcu_read_unlock();

	if (trusted && !(flags & TPE_POLICY_STRICT))
		return 0;
	check = tpe_file_untrusted(file, flags,
				   trusted ? cred->euid : GLOBAL_ROOT_UID);
	/* exec itself refuses a file open for writing (ETXTBSY). */
	if (!check && op != TPE_OP_EXEC)
		check = tpe_file_written(file);
	if (!check)
		return 0;

	tpe_report_denial(cred, file, op, check, flags & TPE_POLICY_ENFORCE);
	return flags & TPE_POLICY_ENFORCE ? -EACCES : 0;
}

/*
 * Runs for the file named in execve() and again for a script's interpreter:
 * a script in an untrusted directory is denied itself.
 */
static int hook_bprm_check_security(struct linux_binprm *bprm)
{
	return tpe_check(current_cred(), bprm->file, TPE_OP_EXEC);
}

/*
 * A set-user-ID or set-group-ID program runs as someone else than its
 * caller. Judge the program for them too, here, where their credentials
 * are final and a denial still fails execve() with EACCES: after the point
 * of no return the kernel's own mapping of the program would be refused
 * (MMAP) and the new program killed instead.
 *
 * @file is the file the new credentials were taken from: bprm->file for
 * an ELF, but for a binfmt_misc entry with the C flag the program itself
 * (bprm->executable) while bprm->file is its interpreter. The owner who
 * runs is the owner of @file, so @file is what is judged for them.
 */
static int hook_bprm_creds_from_file(struct linux_binprm *bprm,
				     const struct file *file)
{
	const struct cred *old = current_cred(), *new = bprm->cred;

	if (uid_eq(new->euid, old->euid) && gid_eq(new->egid, old->egid))
		return 0;
	return tpe_check(new, file, TPE_OP_EXEC);
}

static int hook_mmap_file(struct file *file, unsigned long reqprot,
			  unsigned long prot, unsigned long flags)
{
	if (!file || !(prot & PROT_EXEC))
		return 0;
	return tpe_check(current_cred(), file, TPE_OP_MMAP);
}

/*
 * Shared anonymous memory (MAP_SHARED|MAP_ANONYMOUS, or a shared mapping
 * of /dev/zero) is backed by a kernel-internal shmem file that no user can
 * name: it is memory, like private anonymous memory. Both halves of the
 * test matter: a memfd (or any unlinked tmpfs file) gets the anonymous
 * shmem vm_ops too but has a name, and a System V segment's inode is
 * IS_PRIVATE() too but others can attach it.
 */
static bool tpe_vma_is_anon_memory(struct vm_area_struct *vma)
{
	return vma_is_anon_shmem(vma) && IS_PRIVATE(file_inode(vma->vm_file));
}

static int hook_file_mprotect(struct vm_area_struct *vma,
			      unsigned long reqprot, unsigned long prot)
{
	if (!vma->vm_file || !(prot & PROT_EXEC) ||
	    tpe_vma_is_anon_memory(vma))
		return 0;
	return tpe_check(current_cred(), vma->vm_file, TPE_OP_MPROTECT);
}

static const struct lsm_id tpe_lsmid = {
	.name = "tpe",
	.id = LSM_ID_TPE,
};

static struct security_hook_list tpe_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_check_security, hook_bprm_check_security),
	LSM_HOOK_INIT(bprm_creds_from_file, hook_bprm_creds_from_file),
	LSM_HOOK_INIT(mmap_file, hook_mmap_file),
	LSM_HOOK_INIT(file_mprotect, hook_file_mprotect),
};

static int __init tpe_init(void)
{
	u32 flags = 0;

	if (tpe_enforce)
		flags |= TPE_POLICY_ENFORCE;
	if (IS_ENABLED(CONFIG_SECURITY_TPE_MMAP))
		flags |= TPE_POLICY_MMAP;
	if (IS_ENABLED(CONFIG_SECURITY_TPE_CHECK_FILE))
		flags |= TPE_POLICY_CHECK_FILE;
	tpe_policy_boot(flags);
	security_add_hooks(tpe_hooks, ARRAY_SIZE(tpe_hooks), &tpe_lsmid);
	tpe_add_cred_hooks(&tpe_lsmid);
	tpe_add_fs_hooks(&tpe_lsmid);
	tpe_enabled = true;
	pr_info("initialized, boot policy %s%s%s\n",
		tpe_enforce ? "enforcing" : "permissive",
		flags & TPE_POLICY_MMAP ? " mmap" : "",
		flags & TPE_POLICY_CHECK_FILE ? " check_file" : "");
	return 0;
}

DEFINE_LSM(tpe) = {
	.name = "tpe",
	.init = tpe_init,
	.blobs = &tpe_blob_sizes,
};
