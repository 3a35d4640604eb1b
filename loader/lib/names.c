// SPDX-License-Identifier: GPL-2.0
/*
 * The user and group databases, read once. Asking NSS once per ID costs a
 * walk of /etc/passwd (and a systemd-userdb round trip) each time: --dump
 * of 100,000 users took 18 s and 3.1 million openat() calls. Instead
 * getpwent()/getgrent() fill a table on first use, sorted by name and by
 * ID, and each lookup is a binary search. Among entries with the same name
 * or ID the first one read wins, as it does for getpwnam() and getpwuid().
 *
 * A directory that does not enumerate (LDAP or SSSD without enumerate) is
 * not in the table: a name it alone knows falls back to getpwnam() (names
 * in a config are few, and an unknown one is an error anyway); an ID it
 * alone knows is printed by --dump as a number, which loads back the same.
 */
#define _DEFAULT_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

int names_add(struct names *t, const char *name, uint32_t id)
{
	struct name_entry *more;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;

		more = realloc(t->by_name, cap * sizeof(*more));
		if (!more)
			return -1;
		t->by_name = more;
		t->cap = cap;
	}
	t->by_name[t->n].name = strdup(name);
	if (!t->by_name[t->n].name)
		return -1;
	t->by_name[t->n].id = id;
	t->by_name[t->n].order = t->n;
	t->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct name_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int by_id(const void *a, const void *b)
{
	const struct name_entry *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->order > y->order) - (x->order < y->order);
}

int names_sort(struct names *t)
{
	t->by_id = malloc((t->n ? t->n : 1) * sizeof(*t->by_id));
	if (!t->by_id)
		return -1;
	if (t->n) {
		memcpy(t->by_id, t->by_name, t->n * sizeof(*t->by_id));
		qsort(t->by_name, t->n, sizeof(*t->by_name), by_name);
		qsort(t->by_id, t->n, sizeof(*t->by_id), by_id);
	}
	return 0;
}

/* The first entry with the name; -1 if there is none. */
int names_id(const struct names *t, const char *name, uint32_t *id)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->n || strcmp(t->by_name[lo].name, name))
		return -1;
	*id = t->by_name[lo].id;
	return 0;
}

/* The first entry with the ID; NULL if there is none. */
const char *names_name(const struct names *t, uint32_t id)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->by_id[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->by_id[lo].id == id ? t->by_id[lo].name : NULL;
}

void names_free(struct names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->by_name[i].name);
	free(t->by_name);
	free(t->by_id);
	*t = (struct names){ 0 };
}

/* ---- the system's databases, through NSS ---- */

static struct names users, groups;
static int users_read, groups_read;

/* Out of memory while reading leaves a partial table: lookups fall back. */
static const struct names *user_table(void)
{
	struct passwd *pw;

	if (!users_read) {
		users_read = 1;
		setpwent();
		while ((pw = getpwent()))
			if (names_add(&users, pw->pw_name, pw->pw_uid))
				break;
		endpwent();
		if (names_sort(&users))
			names_free(&users);
	}
	return &users;
}

static const struct names *group_table(void)
{
	struct group *gr;

	if (!groups_read) {
		groups_read = 1;
		setgrent();
		while ((gr = getgrent()))
			if (names_add(&groups, gr->gr_name, gr->gr_gid))
				break;
		endgrent();
		if (names_sort(&groups))
			names_free(&groups);
	}
	return &groups;
}

static int nss_user_id(const char *name, uint32_t *id)
{
	struct passwd *pw;

	if (!names_id(user_table(), name, id))
		return 0;
	pw = getpwnam(name);	/* a directory that does not enumerate */
	if (!pw)
		return -1;
	*id = pw->pw_uid;
	return 0;
}

static const char *nss_user_name(uint32_t id)
{
	return names_name(user_table(), id);
}

static int nss_group_id(const char *name, uint32_t *id)
{
	struct group *gr;

	if (!names_id(group_table(), name, id))
		return 0;
	gr = getgrnam(name);
	if (!gr)
		return -1;
	*id = gr->gr_gid;
	return 0;
}

static const char *nss_group_name(uint32_t id)
{
	return names_name(group_table(), id);
}

const struct tpe_resolver tpe_nss = {
	.users = { nss_user_id, nss_user_name },
	.groups = { nss_group_id, nss_group_name },
};
