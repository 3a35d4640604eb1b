/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trusted Path Execution: what the LSM's registration (lsm.c) sets up for
 * the other files: the sizes of its blobs and whether it is active.
 */
#ifndef _SECURITY_TPE_LSM_H
#define _SECURITY_TPE_LSM_H

#include <linux/lsm_hooks.h>
#include <linux/types.h>

/* Where TPE's part of each blob starts, once the LSM framework set it. */
extern struct lsm_blob_sizes tpe_blob_sizes;
/* TPE is an active LSM: its init ran, so the blobs have its part. */
extern bool tpe_enabled;

#endif /* _SECURITY_TPE_LSM_H */
