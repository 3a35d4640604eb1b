// SPDX-License-Identifier: GPL-2.0
/*
 * --explain's facts, gathered the way exec meets them: who is asking (the
 * caller, or a user from NSS), the file with its symlinks resolved, the
 * parent directory of the resolved file, and its file system as the mount
 * table and sysfs show it (mount.c). What user space cannot see is said,
 * not guessed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge.h"

#define NGROUPS_CAP	65536

static int number(const char *s, uint32_t *id)
{
	char *end;
	unsigned long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > TPE_ID_MAX)
		return -1;
	*id = (uint32_t)v;
	return 0;
}

static int group_id(const char *name, uint32_t *id)
{
	struct group *g;

	if (!number(name, id))
		return 0;
	g = getgrnam(name);
	if (!g)
		return -1;
	*id = g->gr_gid;
	return 0;
}

/*
 * USER (a name or a UID) with the primary group of its passwd entry, and
 * the supplementary groups given or else those NSS lists; NULL: the caller.
 */
int facts_identity(const char *user, char **groups, size_t ngroups,
		   struct tpe_identity *who, char err[ERRLEN])
{
	uint32_t *ids = calloc(NGROUPS_CAP, sizeof(*ids));
	struct passwd *pw;
	uint32_t uid;
	int n = NGROUPS_CAP;
	size_t i;

	if (!ids) {
		snprintf(err, ERRLEN, "out of memory");
		return -1;
	}
	*who = (struct tpe_identity){ .groups = ids };
	if (!user) {
		who->euid = geteuid();
		who->egid = getegid();
		n = getgroups(NGROUPS_CAP, (gid_t *)ids);
		if (n < 0) {
			snprintf(err, ERRLEN, "getgroups: %s", strerror(errno));
			goto fail;
		}
	} else {
		int numeric = !number(user, &uid);

		pw = numeric ? getpwuid(uid) : getpwnam(user);
		if (!pw && !numeric) {
			snprintf(err, ERRLEN, "unknown user \"%s\" (its primary "
				 "group comes from its passwd entry; a UID is "
				 "judged without one)", user);
			goto fail;
		}
		if (!pw) {
			/*
			 * A UID from an audit line whose user is gone or
			 * lives in a directory this machine does not ask:
			 * judged as the number, with no primary group and
			 * only the groups --group gives.
			 */
			who->euid = uid;
			who->no_egid = 1;
			n = 0;
		} else {
			who->euid = pw->pw_uid;
			who->egid = pw->pw_gid;
		}
		if (pw && !ngroups && getgrouplist(pw->pw_name, pw->pw_gid,
						   (gid_t *)ids, &n) < 0) {
			snprintf(err, ERRLEN, "%s: more than %d groups",
				 user, NGROUPS_CAP);
			goto fail;
		}
	}
	if (ngroups > NGROUPS_CAP) {
		snprintf(err, ERRLEN, "more than %d groups", NGROUPS_CAP);
		goto fail;
	}
	if (ngroups) {
		for (i = 0; i < ngroups; i++)
			if (group_id(groups[i], &ids[i])) {
				snprintf(err, ERRLEN, "unknown group \"%s\"",
					 groups[i]);
				goto fail;
			}
		n = (int)ngroups;
	}
	who->ngroups = (size_t)n;
	return 0;
fail:
	free(ids);
	who->groups = NULL;
	return -1;
}

static char *parent_of(const char *resolved)
{
	char *dir = strdup(resolved), *slash;

	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	return dir;
}

static int node(const char *path, struct tpe_node *n, char err[ERRLEN])
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, ERRLEN, "%s: %s", path, strerror(errno));
		return -1;
	}
	n->uid = st.st_uid;
	n->mode = st.st_mode;
	return 0;
}

/* A script's interpreter as binfmt_script reads it, or NULL. */
static char *interpreter(const char *path)
{
	char buf[256], *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[n] = 0;
	p = buf + 2 + strspn(buf + 2, " \t");
	end = p + strcspn(p, " \t\n");
	*end = 0;
	return *p ? strdup(p) : NULL;
}

/*
 * The facts of path as exec resolves it, its file system's from r;
 * depth: how many loop devices deep (mount.c). *interp: a script's #!
 * interpreter (malloc()ed), which exec checks too, or NULL.
 */
int facts_gather_in(const char *path, const struct fs_roots *r, int depth,
		    struct tpe_facts *f, char **interp, char err[ERRLEN])
{
	struct statx stx;
	char *resolved = realpath(path, NULL);

	*f = (struct tpe_facts){ .path = path };
	*interp = NULL;
	if (!resolved) {
		snprintf(err, ERRLEN, "%s: %s", path, strerror(errno));
		return -1;
	}
	f->resolved = resolved;
	f->dir_path = parent_of(resolved);
	if (!f->dir_path) {
		snprintf(err, ERRLEN, "out of memory");
		goto fail;
	}
	if (node(resolved, &f->file, err) || node(f->dir_path, &f->dir, err))
		goto fail;
	if (S_ISDIR(f->file.mode)) {
		snprintf(err, ERRLEN, "%s: is a directory", path);
		goto fail;
	}
	f->no_parent = !strcmp(resolved, "/");
	if (statx(AT_FDCWD, resolved, 0, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID))
		mount_judge(r, (int)stx.stx_mnt_id, depth, f);
	*interp = interpreter(resolved);
	return 0;
fail:
	facts_free(f);
	return -1;
}

int facts_gather(const char *path, struct tpe_facts *f, char **interp,
		 char err[ERRLEN])
{
	return facts_gather_in(path, &fs_roots_system, 0, f, interp, err);
}

void facts_free(struct tpe_facts *f)
{
	free((char *)f->resolved);
	free((char *)f->dir_path);
	free((char *)f->untrusted_fs);
	free((char *)f->mount);
	f->resolved = f->dir_path = f->untrusted_fs = f->mount = NULL;
}
