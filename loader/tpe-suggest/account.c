// SPDX-License-Identifier: GPL-2.0
/*
 * Who an account is, told by facts no user chooses: a service account has
 * a UID in the system range of /etc/login.defs, or a shell that
 * /etc/shells does not list (nologin, false: chsh lets a user pick only a
 * listed one), or is the User= of a systemd unit in a directory only root
 * writes. Everyone else is a person. And who may write through a group:
 * its members by /etc/group and by primary group.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suggest.h"

/* KEY's number in /etc/login.defs, or DEF. */
static long login_defs(const char *key, long def)
{
	FILE *f = fopen("/etc/login.defs", "re");
	char line[256], k[64];
	long v, found = def;

	if (!f)
		return def;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %63s %ld", k, &v) == 2 && !strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

static bool login_shell(const char *shell)
{
	const char *s;
	bool listed = false;

	if (!shell || !*shell)
		return true;	/* login(1) runs /bin/sh */
	setusershell();
	while (!listed && (s = getusershell()))
		listed = !strcmp(s, shell);
	endusershell();
	return listed;
}

/* "User=NAME" or "User=UID" in a unit file only root may write. */
static bool unit_user(int dirfd, const char *file, const char *name,
		      uint32_t uid)
{
	char line[512], want[80];
	struct stat st;
	FILE *f;
	bool found = false;
	int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid ||
	    (st.st_mode & 022) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return false;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = line + strspn(line, " \t");

		if (strncmp(v, "User", 4))
			continue;
		v += 4 + strspn(v + 4, " \t");
		if (*v++ != '=')
			continue;
		v += strspn(v, " \t");
		v[strcspn(v, " \t\r\n")] = '\0';
		snprintf(want, sizeof(want), "%u", uid);
		found = !strcmp(v, name) || !strcmp(v, want);
	}
	fclose(f);
	return found;
}

static void find_unit(const char *name, uint32_t uid, char *unit,
		      size_t size)
{
	static const char *const dirs[] = {
		"/etc/systemd/system", "/run/systemd/system",
		"/usr/lib/systemd/system", "/lib/systemd/system",
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !*unit; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while (!*unit && (e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 8 && !strcmp(e->d_name + n - 8, ".service") &&
			    e->d_name[0] != '.' &&
			    unit_user(dirfd(d), e->d_name, name, uid))
				snprintf(unit, size, "%s", e->d_name);
		}
		closedir(d);
	}
}

void account_of(uint32_t uid, struct account *a)
{
	struct passwd *pw = getpwuid(uid);
	long lo, hi;
	size_t n = 0;

	memset(a, 0, sizeof(*a));
	a->uid = uid;
	if (!pw) {
		snprintf(a->name, sizeof(a->name), "%u", uid);
		return;
	}
	a->known = true;
	a->gid = pw->pw_gid;
	snprintf(a->name, sizeof(a->name), "%s", pw->pw_name);
	lo = login_defs("SYS_UID_MIN", 100);
	hi = login_defs("SYS_UID_MAX", login_defs("UID_MIN", 1000) - 1);
	if (uid && (long)uid >= lo && (long)uid <= hi)
		n += snprintf(a->why + n, sizeof(a->why) - n,
			      "UID in the system range %ld-%ld (login.defs)",
			      lo, hi);
	if (n < sizeof(a->why) && !login_shell(pw->pw_shell))
		n += snprintf(a->why + n, sizeof(a->why) - n,
			      "%sshell %s, not in /etc/shells", n ? "; " : "",
			      pw->pw_shell);
	find_unit(pw->pw_name, uid, a->unit, sizeof(a->unit));
	if (n < sizeof(a->why) && *a->unit)
		n += snprintf(a->why + n, sizeof(a->why) - n, "%sUser= of %s",
			      n ? "; " : "", a->unit);
	a->service = n > 0;
}

/* Members: the group's list, and every user whose primary group it is. */
static size_t members(uint32_t gid, uint32_t *uid, size_t max, char *out,
		      size_t size)
{
	struct group *gr = getgrgid(gid);
	struct passwd *pw;
	size_t n = 0, o = 0;

	if (out && size)
		out[0] = '\0';
	setpwent();
	while ((pw = getpwent())) {
		bool in = pw->pw_gid == gid;

		for (char **m = gr ? gr->gr_mem : NULL; !in && m && *m; m++)
			in = !strcmp(*m, pw->pw_name);
		if (!in)
			continue;
		if (n < max)
			uid[n] = pw->pw_uid;
		n++;
		if (out && o < size)
			o += snprintf(out + o, size - o, "%s%s", o ? ", " : "",
				      pw->pw_name);
	}
	endpwent();
	return n;
}

void account_group(uint32_t gid, char *out, size_t size)
{
	struct group *gr = getgrgid(gid);
	char name[64], list[256];
	uint32_t none[1];

	snprintf(name, sizeof(name), "%s", gr ? gr->gr_name : "");
	if (!*name)
		snprintf(name, sizeof(name), "%u", gid);
	if (members(gid, none, 0, list, sizeof(list)))
		snprintf(out, size, "%s (members: %s)", name, list);
	else
		snprintf(out, size, "%s (no members)", name);
}

int64_t account_own_group(uint32_t uid)
{
	struct passwd *pw = getpwuid(uid);
	uint32_t m[2];

	if (!pw || members(pw->pw_gid, m, 2, NULL, 0) != 1 || m[0] != uid)
		return -1;
	return pw->pw_gid;
}

bool account_in_group(uint32_t uid, uint32_t gid)
{
	uint32_t m[256];
	size_t n = members(gid, m, 256, NULL, 0);

	for (size_t i = 0; i < n && i < 256; i++)
		if (m[i] == uid)
			return true;
	return false;
}

bool account_people_in(uint32_t gid)
{
	uint32_t m[256];
	size_t n = members(gid, m, 256, NULL, 0);

	for (size_t i = 0; i < n && i < 256; i++) {
		struct account a;

		if (!m[i])
			continue;
		account_of(m[i], &a);
		if (!a.service)
			return true;
	}
	return n > 256;
}
