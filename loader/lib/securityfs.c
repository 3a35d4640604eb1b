// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's files under securityfs: where they are, reading the live
 * policy, is tpe active, and what the kernel's refusals mean.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "io.h"

/* $TPE_SECURITYFS/NAME, or the real one; the tests point it elsewhere. */
static const char *securityfs_file(char *path, size_t len, const char *name)
{
	const char *dir = getenv("TPE_SECURITYFS");

	snprintf(path, len, "%s/%s", dir && *dir ? dir : TPE_SECURITYFS_DIR,
		 name);
	return path;
}

const char *securityfs_policy(void)
{
	static char path[4096];

	return securityfs_file(path, sizeof(path), "policy");
}

const char *securityfs_stats(void)
{
	static char path[4096];

	return securityfs_file(path, sizeof(path), "stats");
}

/*
 * The kernel's live policy, decoded, and its blob if blobp is not NULL:
 * the one place it is read. Returns 0, or an errno with err saying why in
 * words: ENOENT when tpe is not active or cannot be seen (what
 * tpe_absent_words() says), EACCES when only root may read it, EBADMSG
 * when the kernel's blob does not decode.
 */
int read_live(struct tpe_policy *p, uint8_t **blobp, size_t *lenp,
	      char err[ERRLEN])
{
	const char *path = securityfs_policy();
	enum tpe_presence pr;
	char why[ERRLEN];
	uint8_t *blob;
	size_t len;
	int e = read_all(path, &blob, &len), absent;

	if (e == ENOENT && (pr = tpe_presence(&absent)) != TPE_ACTIVE) {
		tpe_absent_words(pr, absent, err);
		return e;
	}
	if (e == EACCES) {
		snprintf(err, ERRLEN, "%.300s: EACCES: only root may read the "
			 "live policy on this kernel (mode 0600)", path);
		return e;
	}
	if (e) {
		snprintf(err, ERRLEN, "%.300s: %s", path, errno_words(e));
		return e;
	}
	if (policy_decode(blob, len, p, why)) {
		/* Decode errors are one short line; the cut keeps gcc sure. */
		snprintf(err, ERRLEN, "%.200s: %.300s", path, why);
		free(blob);
		return EBADMSG;
	}
	if (blobp) {
		*blobp = blob;
		*lenp = len;
	} else {
		free(blob);
	}
	return 0;
}

/* What the kernel's refusal means for someone loading a policy. */
const char *errno_words(int err)
{
	switch (err) {
	case EPERM:
		return "EPERM: policy is locked or you lack CAP_MAC_ADMIN";
	case EACCES:
		return "EACCES: permission denied (are you root?)";
	case EINVAL:
		return "EINVAL: kernel rejected the policy as malformed";
	case E2BIG:
		return "E2BIG: too many entries";
	case ENOENT:
		return "ENOENT: securityfs tpe not present - is the kernel "
		       "built with TPE and securityfs mounted?";
	default:
		return strerror(err);
	}
}

/*
 * Where securityfs is mounted: the directory that holds tpe/ and lsm
 * ($TPE_SECURITYFS's parent for tests). A static buffer.
 */
const char *securityfs_root(void)
{
	static char root[4096];
	const char *dir = getenv("TPE_SECURITYFS");
	char *slash;

	snprintf(root, sizeof(root), "%s", dir && *dir ? dir :
		 TPE_SECURITYFS_DIR);
	while ((slash = strrchr(root, '/')) && slash > root && !slash[1])
		*slash = 0;	/* "dir/" is "dir" */
	slash = strrchr(root, '/');
	if (slash == root)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		snprintf(root, sizeof(root), ".");
	return root;
}

/*
 * A file of the running kernel's, or with TPE_SECURITYFS set (tests) its
 * stand-in next to the fake securityfs: malloc()ed, or NULL.
 */
static char *kernel_file(const char *real, const char *fake)
{
	char *path;

	if (getenv("TPE_SECURITYFS") && *getenv("TPE_SECURITYFS"))
		real = NULL;
	if (asprintf(&path, "%s%s%s", real ? real : securityfs_root(),
		     real ? "" : "/", real ? "" : fake) < 0)
		return NULL;
	return path;
}

/* The kernel's list of active LSMs, next to the tpe directory. */
static char *kernel_lsm_path(void)
{
	char *path;

	if (asprintf(&path, "%s/lsm", securityfs_root()) < 0)
		return NULL;
	return path;
}

/*
 * Is tpe among the active LSMs? Only securityfs's lsm file can say; when
 * it cannot be read, nobody can tell from user space (TPE_UNKNOWN, with
 * *why the errno).
 */
enum tpe_presence tpe_presence(int *why)
{
	char *path = kernel_lsm_path(), *tok, *save;
	enum tpe_presence on = TPE_INACTIVE;
	uint8_t *list = NULL;
	size_t len;
	int e = path ? read_all(path, &list, &len) : ENOMEM;

	*why = e;
	if (e)
		on = TPE_UNKNOWN;
	else
		for (tok = strtok_r((char *)list, ",\n", &save); tok &&
		     on != TPE_ACTIVE; tok = strtok_r(NULL, ",\n", &save))
			if (!strcmp(tok, "tpe"))
				on = TPE_ACTIVE;
	free(list);
	free(path);
	return on;
}

/* Is name an element of the comma-separated list? */
static int listed_in(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (; list; list = strchr(list, ',') ? strchr(list, ',') + 1 : NULL)
		if (!strncmp(list, name, n) && (!list[n] || list[n] == ','))
			return 1;
	return 0;
}

/* The last lsm= of the kernel's command line (the kernel's rule). */
static char *cmdline_lsm(void)
{
	char *path = kernel_file("/proc/cmdline", "cmdline"), *lsm = NULL;
	char *tok, *save;
	uint8_t *line = NULL;
	size_t len;

	if (path && !read_all(path, &line, &len))
		for (tok = strtok_r((char *)line, " \t\n", &save); tok &&
		     strcmp(tok, "--"); tok = strtok_r(NULL, " \t\n", &save))
			if (!strncmp(tok, "lsm=", 4)) {
				free(lsm);
				lsm = strdup(tok + 4);
			}
	free(line);
	free(path);
	return lsm;
}

/*
 * The kernel's build config (/boot/config-RELEASE, which Debian's kernel
 * packages install): is tpe built in (CONFIG_SECURITY_TPE=y), and is it
 * in CONFIG_LSM, the order used without lsm=? Each 1, 0, or -1 when the
 * config cannot be read; *lsm the CONFIG_LSM value, malloc()ed.
 */
static void config_tpe(const char *release, int *built, int *in_lsm,
		       char **lsm)
{
	char *real, *path, *line, *save, *end;
	uint8_t *text = NULL;
	size_t len;

	*built = *in_lsm = -1;
	*lsm = NULL;
	if (asprintf(&real, "/boot/config-%s", release) < 0)
		return;
	path = kernel_file(real, "config");
	free(real);
	if (!path || read_all(path, &text, &len)) {
		free(path);
		return;
	}
	*built = *in_lsm = 0;
	for (line = strtok_r((char *)text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "CONFIG_SECURITY_TPE=y"))
			*built = 1;
		if (!strncmp(line, "CONFIG_LSM=\"", 12) &&
		    (end = strchr(line + 12, '"'))) {
			*end = 0;
			free(*lsm);
			*lsm = strdup(line + 12);
			*in_lsm = listed_in(line + 12, "tpe");
		}
	}
	free(text);
	free(path);
}

#define GRUB_HOW	"(GRUB_CMDLINE_LINUX in /etc/default/grub, then " \
			"update-grub) and reboot"

/*
 * Why tpe is not among the active LSMs: a kernel built without it, or a
 * command line (lsm=) or CONFIG_LSM that leaves it out, as far as the
 * command line and the kernel's config say; the remedy for each.
 */
static void inactive_words(char err[ERRLEN])
{
	char *arg = cmdline_lsm(), *config_lsm;
	int built, in_lsm, left_out = arg && !listed_in(arg, "tpe");
	struct utsname u;
	const char *r = uname(&u) ? "unknown" : u.release;

	config_tpe(r, &built, &in_lsm, &config_lsm);
	if (built == 1 && left_out)
		snprintf(err, ERRLEN, "tpe is built into this kernel (uname "
			 "-r %.100s) but the command line's lsm=%.150s leaves "
			 "it out: add tpe to lsm= " GRUB_HOW, r, arg);
	else if (built == 1 && !arg && !in_lsm)
		snprintf(err, ERRLEN, "tpe is built into this kernel (uname "
			 "-r %.100s) but its CONFIG_LSM leaves it out: add "
			 "lsm=%.150s,tpe to the command line " GRUB_HOW, r,
			 config_lsm ? config_lsm : "");
	else if (built == 0)
		snprintf(err, ERRLEN, "tpe is not built into this kernel "
			 "(uname -r %.100s: CONFIG_SECURITY_TPE is not set in "
			 "its config): boot a kernel with "
			 "CONFIG_SECURITY_TPE=y, e.g. linux-image-*-tpe", r);
	else if (left_out)
		snprintf(err, ERRLEN, "tpe is not active in this kernel "
			 "(uname -r %.100s): the command line's lsm=%.150s "
			 "leaves it out; if the kernel has tpe "
			 "(CONFIG_SECURITY_TPE=y, as linux-image-*-tpe), add "
			 "tpe to lsm= " GRUB_HOW ", else boot one that has",
			 r, arg);
	else
		snprintf(err, ERRLEN, "tpe is not active in this kernel "
			 "(uname -r %.200s): boot a kernel with "
			 "CONFIG_SECURITY_TPE=y and tpe in lsm=, e.g. "
			 "linux-image-*-tpe", r);
	free(arg);
	free(config_lsm);
}

/*
 * Why the kernel cannot be asked, when tpe_presence() is not TPE_ACTIVE:
 * what was seen, and for a kernel without tpe active what to change.
 */
void tpe_absent_words(enum tpe_presence pr, int why, char err[ERRLEN])
{
	if (pr == TPE_UNKNOWN && why == ENOENT)
		snprintf(err, ERRLEN, "securityfs is not mounted at %.300s: "
			 "cannot tell whether tpe is active",
			 securityfs_root());
	else if (pr == TPE_UNKNOWN)
		snprintf(err, ERRLEN, "%.300s/lsm: %s: cannot tell whether "
			 "tpe is active", securityfs_root(), strerror(why));
	else
		inactive_words(err);
}

/*
 * Why the kernel refused a policy write (err from write_once()), in the
 * words of its causes. EPERM means a locked policy or a caller without
 * CAP_MAC_ADMIN: the live flags, which anyone may read, tell which.
 */
void write_refusal(int err, char out[ERRLEN])
{
	struct tpe_policy live;
	enum tpe_presence pr;
	char why[ERRLEN];
	int e;

	switch (err) {
	case EPERM:
		if (read_live(&live, NULL, NULL, why)) {
			snprintf(out, ERRLEN, "%s", errno_words(err));
			return;
		}
		snprintf(out, ERRLEN, "%s", live.flags & TPE_POLICY_LOCK ?
			 "EPERM: the live policy is locked (lock = true; "
			 "reboot to change it)" :
			 "EPERM: you lack CAP_MAC_ADMIN (the live policy is "
			 "not locked)");
		policy_free(&live);
		return;
	case EACCES:
		snprintf(out, ERRLEN, "EACCES: only root may write the policy");
		return;
	case ENOENT:
		pr = tpe_presence(&e);
		if (pr != TPE_ACTIVE) {
			tpe_absent_words(pr, e, out);
			return;
		}
		break;
	}
	snprintf(out, ERRLEN, "%s", errno_words(err));
}
