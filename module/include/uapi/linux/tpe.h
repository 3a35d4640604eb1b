/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Trusted Path Execution: the policy blob written to securityfs tpe/policy.
 *
 * One header, shared by the kernel and by tpe-load. All fields are
 * little-endian. The blob is the header followed by nr_uids __le32 UIDs and
 * then nr_gids __le32 GIDs, each array strictly ascending. Its total length
 * is exactly hdr_len + 4 * (nr_uids + nr_gids).
 */
#ifndef _UAPI_LINUX_TPE_H
#define _UAPI_LINUX_TPE_H

#include <linux/types.h>

#define TPE_POLICY_MAGIC	0x31455054	/* "TPE1" read as __le32 */
#define TPE_POLICY_VERSION	1

/* Untrusted exec is denied; when clear, it is logged and allowed. */
#define TPE_POLICY_ENFORCE	(1U << 0)
/* The file itself must also be root-owned and not group/other-writable. */
#define TPE_POLICY_CHECK_FILE	(1U << 1)
/* Trusted users other than root are checked too (own safe dirs allowed). */
#define TPE_POLICY_STRICT	(1U << 2)
/* Also check mmap and mprotect of a file with PROT_EXEC. */
#define TPE_POLICY_MMAP		(1U << 3)
/* The lists name the untrusted users and groups instead. */
#define TPE_POLICY_INVERT	(1U << 4)
/* Once live, every later write fails with -EPERM until reboot. */
#define TPE_POLICY_LOCK		(1U << 5)

#define TPE_POLICY_ALL_FLAGS	(TPE_POLICY_ENFORCE | TPE_POLICY_CHECK_FILE | \
				 TPE_POLICY_STRICT | TPE_POLICY_MMAP | \
				 TPE_POLICY_INVERT | TPE_POLICY_LOCK)

/* Limit on nr_uids + nr_gids. */
#define TPE_POLICY_MAX_ENTRIES	(1U << 20)

/*
 * The checks of a trusted path, in the order the kernel makes them. A file
 * in a trusted path fails none (TPE_CHECK_NONE).
 */
enum tpe_check {
	TPE_CHECK_NONE,
	TPE_CHECK_NO_PARENT,
	TPE_CHECK_UNTRUSTED_FS,
	TPE_CHECK_DIR_OWNER,
	TPE_CHECK_DIR_WRITABLE,
	TPE_CHECK_BLOCK_DEVICE,
	TPE_CHECK_FILE_WRITABLE,
	TPE_CHECK_FILE_OWNER,
	TPE_CHECK_FILE_OPEN_WRITE,
	__TPE_CHECK_MAX
};

/*
 * The name of each check, as a denial's kernel log line and audit record
 * give it (check=NAME; "none" is never logged), for an array of
 * __TPE_CHECK_MAX strings. The names are the ABI; the numbers are for the
 * programs built with this header, and never leave them.
 */
#define TPE_CHECK_NAMES {					\
	[TPE_CHECK_NONE] = "none",				\
	[TPE_CHECK_NO_PARENT] = "no-parent",			\
	[TPE_CHECK_UNTRUSTED_FS] = "untrusted-fs",		\
	[TPE_CHECK_DIR_OWNER] = "dir-owner",			\
	[TPE_CHECK_DIR_WRITABLE] = "dir-writable",		\
	[TPE_CHECK_BLOCK_DEVICE] = "block-device",		\
	[TPE_CHECK_FILE_WRITABLE] = "file-writable",		\
	[TPE_CHECK_FILE_OWNER] = "file-owner",			\
	[TPE_CHECK_FILE_OPEN_WRITE] = "file-open-write",	\
}

struct tpe_policy_hdr {
	__le32 magic;
	__le16 version;
	__le16 hdr_len;		/* sizeof(struct tpe_policy_hdr) */
	__le32 flags;		/* TPE_POLICY_* */
	__le32 nr_uids;
	__le32 nr_gids;
	__le32 reserved;	/* must be 0 */
};

#endif /* _UAPI_LINUX_TPE_H */
