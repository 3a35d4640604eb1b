/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: the policy, its validation and lookups, and the
 * live policy the hooks read (policy.c).
 */
#ifndef _SECURITY_TPE_POLICY_H
#define _SECURITY_TPE_POLICY_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
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

#endif /* _SECURITY_TPE_POLICY_H */
