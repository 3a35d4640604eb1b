/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtpe: what tpe-load and tpe-suggest share (loader/lib). This header
 * holds the constants and the policy; the others, one per concern:
 *
 *   libtpe.h   the policy (policy.c: struct tpe_policy <-> the binary blob
 *              of <linux/tpe.h>), the ID lists, the user/group seam
 *   conf.h     reading tpe.conf: conf.c (libconfig <-> struct tpe_policy),
 *              source.c (only what root alone can change), scan.c (what
 *              libconfig 1.5 reads wrongly), names.c (NSS, read once)
 *   io.h       file.c (plain files: one write(), reading to the end) and
 *              securityfs.c (the kernel's files, is tpe active, errno in
 *              words)
 *   judge.h    the user-space judge: facts.c gathers who asks and what
 *              stat() says, mount.c what the mount table and sysfs say of
 *              the file system (and what they cannot); judge.c decides as
 *              the kernel does. --explain and tpe-suggest ask it the same
 *              questions.
 *   explain.h  explain.c: --explain, the judge's verdicts on the paths
 *              asked about, in words (and through json.c in JSON)
 *   json.h     json.c: all JSON the programs write
 *   libtpe.h   also usage.c: usage errors, said alike by every program
 *   flags.h    flags.c: the flag keys of tpe.conf, by name; also the test
 *              programs' (tests/lib/policy.c), so it depends on nothing
 *
 * Errors, one convention per layer:
 *   - file and securityfs I/O (io.h) returns 0 or a positive errno: the
 *     caller picks its exit status by it and says it with errno_words();
 *   - everything else that can fail here returns 0 (or a count) and -1 on
 *     failure, with err[ERRLEN] set to one line that names the file (and
 *     line) and the reason: "/etc/tpe.conf:7: unknown user \"bbo\"";
 *   - the programs (tpe-load/, tpe-suggest/) print that line after their
 *     name and exit with a status that says which kind of failure it was.
 */
#ifndef TPE_LIBTPE_H
#define TPE_LIBTPE_H

/* The version of tpe-load and tpe-suggest (debian/changelog says the same). */
#define VERSION "1.1"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "flags.h"	/* the flag keys of tpe.conf */

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

/*
 * usage.c: "PROG: what was wrong", then the synopsis, on standard error;
 * both return -1. usage_fail_getopt() says getopt_long()'s ':' (a missing
 * argument) or '?' (an unknown option: optopt, or the word arg).
 */
int usage_fail(const char *prog, const char *synopsis, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int usage_fail_getopt(const char *prog, const char *synopsis, int ch,
		      int opt, const char *arg);

/* policy.c */
size_t ids_fold(uint32_t *id, size_t n);
int ids_has(const struct tpe_ids *ids, uint32_t id);
int policy_encode(const struct tpe_policy *p, uint8_t **blob, size_t *len,
		  char err[ERRLEN]);
int policy_decode(const uint8_t *blob, size_t len, struct tpe_policy *p,
		  char err[ERRLEN]);
void policy_free(struct tpe_policy *p);

#endif
