/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpe-load: the types its parts share.
 *
 *   conf.c    tpe.conf (libconfig) <-> struct tpe_policy, names via a resolver
 *   source.c  reading a config file or drop-in directory: only what root
 *             alone can change
 *   scan.c    what libconfig 1.5 reads wrongly: wrapping integers, @include
 *   names.c   the user and group databases, read once (tpe_nss)
 *   policy.c  struct tpe_policy <-> the binary blob of <linux/tpe.h>
 *   kernel.c  files: one write() of a blob, reading one back, errno in words
 *   explain.c --explain's verdict from facts, as the kernel decides it
 *   facts.c   the facts: who is asking, the file, its directory and mount
 *   json.c    --json: a minimal JSON writer, the policy as JSON
 *   status.c  --status: the mode, the counters, is the config in sync
 *   main.c    the command line
 */
#ifndef TPE_LOADER_H
#define TPE_LOADER_H

/* The version of tpe-load and tpe-suggest (debian/changelog says the same). */
#define VERSION "1.1"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#define TPE_CONF_PATH		"/etc/tpe.conf"	/* and /etc/tpe.conf.d/ *.conf */
#define TPE_SECURITYFS_DIR	"/sys/kernel/security/tpe"
#define TPE_ID_MAX		4294967294U	/* (uid_t)-1 is not an ID */
#define ERRLEN			512

struct tpe_ids {
	uint32_t *id;
	size_t n;
};

/* The policy as the administrator means it; the blob is its encoding. */
struct tpe_policy {
	uint32_t flags;			/* TPE_POLICY_* */
	struct tpe_ids users, groups;
};

/*
 * The seam between the config and the system's user database. tpe_nss
 * reads NSS once (names.c); the unit tests pass a fake table instead.
 * name_to_id returns 0 and sets *id, or -1 if the name is unknown;
 * id_to_name returns NULL if the ID has no name.
 */
struct tpe_db {
	int (*name_to_id)(const char *name, uint32_t *id);
	const char *(*id_to_name)(uint32_t id);
};

struct tpe_resolver {
	struct tpe_db users, groups;
};

extern const struct tpe_resolver tpe_nss;

/* names.c: one database, sorted by name and by ID */
struct names {
	struct name_entry {
		char *name;
		uint32_t id;
		size_t order;	/* as read: the first one wins */
	} *by_name, *by_id;	/* by_id shares by_name's strings */
	size_t n, cap;
};

int names_add(struct names *t, const char *name, uint32_t id);
int names_sort(struct names *t);
int names_id(const struct names *t, const char *name, uint32_t *id);
const char *names_name(const struct names *t, uint32_t id);
void names_free(struct names *t);

/* How to read a config. */
struct conf_opts {
	const struct tpe_resolver *r;
	FILE *warn;		/* notes and warnings, or NULL */
	FILE *trace;		/* "FILE: read" for each file, or NULL */
	uid_t caller;		/* besides root, who may own a config file */
	/*
	 * If set: called once per listed ID with where it is listed first
	 * (which: 0 trusted_users, 1 trusted_groups), so that --explain can
	 * name the file and line that made a user trusted.
	 */
	void (*listed)(void *arg, int which, uint32_t id, const char *file,
		       unsigned line);
	void *listed_arg;
};

/* conf.c */
int conf_load(const char *path, const struct conf_opts *o,
	      struct tpe_policy *p, char err[ERRLEN]);
void conf_write(FILE *f, const struct tpe_policy *p,
		const struct tpe_resolver *r);
void conf_summary(FILE *f, const struct tpe_policy *p);

/* policy.c */
size_t ids_fold(uint32_t *id, size_t n);
int ids_has(const struct tpe_ids *ids, uint32_t id);
int policy_encode(const struct tpe_policy *p, uint8_t **blob, size_t *len,
		  char err[ERRLEN]);
int policy_decode(const uint8_t *blob, size_t len, struct tpe_policy *p,
		  char err[ERRLEN]);
void policy_free(struct tpe_policy *p);

/* source.c */
int source_read(const char *path, uid_t caller, FILE *warn, char **text,
		char err[ERRLEN]);
int source_dir(const char *dir, uid_t caller, FILE *warn, char ***paths,
	       size_t *n, char err[ERRLEN]);
void source_dir_free(char **paths, size_t n);

/* scan.c: each @include line, blanked in the text */
struct scan {
	struct scan_include {
		unsigned line;
		char *path;
	} *inc;
	size_t n;
};

int scan_text(char *text, const char *file, struct scan *out,
	      char err[ERRLEN]);
void scan_free(struct scan *s);

/* kernel.c */
const char *securityfs_policy(void);
const char *securityfs_stats(void);
int write_once(const char *path, int oflags, const void *buf, size_t len);
int read_fd(int fd, uint8_t **buf, size_t *len);
int read_all(const char *path, uint8_t **buf, size_t *len);
int read_policy(const char *path, struct tpe_policy *p, uint8_t **blobp,
		size_t *lenp, char err[ERRLEN]);
const char *errno_words(int err);
const char *securityfs_root(void);
char *kernel_lsm_path(void);
enum tpe_presence { TPE_ACTIVE, TPE_INACTIVE, TPE_UNKNOWN };
enum tpe_presence tpe_presence(int *why);
void tpe_absent_words(enum tpe_presence pr, int why, char err[ERRLEN]);
void write_refusal(int err, char out[ERRLEN]);

/* conf.c: the flag keys of tpe.conf, in the order they are written */
struct flag_key {
	const char *key;
	uint32_t flag;
};
extern const struct flag_key flag_keys[];
extern const size_t nflag_keys;

/* explain.c: who asks, and what stat() and the mount table say */
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
	int idmapped;
};

enum listed_by { LISTED_NONE, LISTED_EUID, LISTED_EGID, LISTED_GROUP };

struct tpe_verdict {
	int root, trusted, enforce, mmap;
	enum listed_by listed;
	uint32_t listed_id;
	int checked;			/* the path was judged */
	uint32_t owner;			/* besides root, who may own it */
	const char *check;		/* the kernel's check= name, or NULL */
	const char *listed_at;		/* "FILE:LINE" of the list entry */
	/* a script: its interpreter (the first one) that is refused */
	const char *interp, *interp_check;
};

extern const char *const explain_checks[];
void explain_judge(const struct tpe_policy *p, const struct tpe_identity *who,
		   const struct tpe_facts *f, struct tpe_verdict *v);
int explain_refused(const struct tpe_verdict *v);
const char *explain_headline(const struct tpe_verdict *v);
void explain_json(FILE *out, const struct tpe_policy *p,
		  const struct tpe_identity *who, const struct tpe_facts *f,
		  const struct tpe_verdict *v, const struct tpe_resolver *r);
void explain_write(FILE *out, const struct tpe_policy *p,
		   const struct tpe_identity *who, const struct tpe_facts *f,
		   const struct tpe_verdict *v, const struct tpe_resolver *r);

/* facts.c */
int facts_identity(const char *user, char **groups, size_t ngroups,
		   struct tpe_identity *who, char err[ERRLEN]);
int facts_gather(const char *path, struct tpe_facts *f, char **interp,
		 char err[ERRLEN]);
void facts_free(struct tpe_facts *f);
int mountinfo_judge(FILE *mountinfo, int mnt_id, struct tpe_facts *f,
		    char *why, size_t whylen);

/* json.c */
void json_string(FILE *f, const char *s);
void json_policy(FILE *f, const char *source, const struct tpe_policy *p,
		 const struct tpe_resolver *r);

/* status.c */
struct stat_counter {
	char name[64];
	unsigned long long value;
};

struct tpe_status {
	const char *mode;		/* enforcing, permissive, off */
	int have_policy;
	struct tpe_policy live;
	struct stat_counter *counters;
	size_t ncounters;
	const char *config;
	const char *sync;		/* "in sync", "stale", "invalid" */
	char config_err[ERRLEN];
	char **files;			/* the config's files, as read */
	size_t nfiles;
};

int status_parse_stats(const char *text, struct tpe_status *s);
int status_gather(const char *config, struct tpe_status *s, char err[ERRLEN],
		  int *errnum);
void status_free(struct tpe_status *s);
void status_write(FILE *f, const struct tpe_status *s);
void status_json(FILE *f, const struct tpe_status *s);

#endif
