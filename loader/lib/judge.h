/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-space judge: the kernel's decision worked out again from facts
 * gathered once (facts.c, mount.c). One function answers "is this identity
 * trusted" (judge_identity(), module/cred.c), one "is this file in a
 * trusted path" (judge_path(), module/fs.c); explain_judge() ties them as
 * module/lsm.c does, into the verdict --explain and tpe-suggest read.
 */
#ifndef TPE_JUDGE_H
#define TPE_JUDGE_H

#include <linux/tpe.h>

#include "libtpe.h"

/* The group and other write bits (TPE_MODE_WRITABLE in module/fs.c). */
#define MODE_WRITABLE	0022

/* who asks, and what stat() and the mount table say */
struct tpe_identity {
	uint32_t euid, egid;
	const uint32_t *groups;		/* supplementary */
	size_t ngroups;
	int no_egid;			/* a UID without a passwd entry */
};

struct tpe_node {
	uint32_t uid, mode;		/* st_uid, st_mode */
};

struct tpe_facts {
	const char *path, *resolved;	/* as given; symlinks resolved */
	const char *dir_path;		/* the resolved file's parent */
	struct tpe_node file, dir;
	int no_parent;
	const char *untrusted_fs;	/* why a user mounted it, or NULL */
	const char *mount;		/* its file system, in words, or NULL */
	unsigned int unseen;		/* enum tpe_unseen: what was not seen */
	int idmapped;
};

/*
 * The kernel's facts of a file system that user space cannot see, and
 * that could make the kernel refuse a file as untrusted-fs where the
 * judge here does not, or the other way round (mount.c).
 */
enum tpe_unseen {
	UNSEEN_MOUNTER = 1 << 0,	/* who made the super block */
	UNSEEN_FIRST_MOUNT = 1 << 1,	/* a disk's first mount's nosuid */
	UNSEEN_LOOP_FILE = 1 << 2,	/* which file a loop device holds */
	UNSEEN_LOOP_BIND = 1 << 3,	/* that file when it was bound */
};

/* Each of them: its JSON name and its words; ends with a zero bit. */
extern const struct unseen_fact {
	unsigned int bit;
	const char *name, *words;
} tpe_unseen[];

/* Where the system's files are; the unit tests point them at fixtures. */
struct fs_roots {
	const char *mountinfo, *sys, *dev;
	const char *filesystems;	/* /proc/filesystems */
};

extern const struct fs_roots fs_roots_system;

enum listed_by { LISTED_NONE, LISTED_EUID, LISTED_EGID, LISTED_GROUP };

struct tpe_verdict {
	int root, trusted, enforce, mmap;
	enum listed_by listed;
	uint32_t listed_id;
	int checked;			/* the path was judged */
	uint32_t owner;			/* besides root, who may own it */
	enum tpe_check check;		/* TPE_CHECK_NONE: allowed */
	const char *listed_at;		/* "FILE:LINE" of the list entry */
	/* a script: its interpreter (the first one) that is refused */
	const char *interp;
	enum tpe_check interp_check;
};

/* judge.c */
/* check=NAME of each check, as the kernel logs it */
extern const char *const tpe_check_names[__TPE_CHECK_MAX];
/* The check a name stands for; __TPE_CHECK_MAX for none of them. */
enum tpe_check tpe_check_by_name(const char *name);
/*
 * Is who trusted under p's lists (INVERT read)? Root is the caller's, as
 * in the kernel. *by and *id: the first list entry naming who, or
 * LISTED_NONE and 0.
 */
int judge_identity(const struct tpe_policy *p, const struct tpe_identity *who,
		   enum listed_by *by, uint32_t *id);
/*
 * The check that refuses the file f describes, or TPE_CHECK_NONE if it is
 * in a trusted path; owner: besides root, who may own its directory (and
 * with CHECK_FILE in flags the file).
 */
enum tpe_check judge_path(const struct tpe_facts *f, uint32_t flags,
			  uint32_t owner);
/* Both, for one caller and one file, as tpe_check() in module/lsm.c. */
void explain_judge(const struct tpe_policy *p, const struct tpe_identity *who,
		   const struct tpe_facts *f, struct tpe_verdict *v);
int explain_refused(const struct tpe_verdict *v);
const char *explain_headline(const struct tpe_verdict *v);

/*
 * facts.c; facts_free() frees what facts_gather() filled in (the strings
 * of a struct tpe_facts made by hand are not its to free)
 */
int facts_identity(const char *user, char **groups, size_t ngroups,
		   struct tpe_identity *who, char err[ERRLEN]);
int facts_gather(const char *path, struct tpe_facts *f, char **interp,
		 char err[ERRLEN]);
int facts_gather_in(const char *path, const struct fs_roots *r, int depth,
		    struct tpe_facts *f, char **interp, char err[ERRLEN]);
void facts_free(struct tpe_facts *f);

/* mount.c */
int mount_judge(const struct fs_roots *r, int mnt_id, int depth,
		struct tpe_facts *f);

#endif
