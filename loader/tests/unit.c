// SPDX-License-Identifier: GPL-2.0
/* The fake database and the config helpers of unit.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "unit.h"

struct entry {
	const char *name;
	uint32_t id;
};

static const struct entry fake_users[] = {
	{ "root", 0 }, { "bob", 1002 }, { "alice", 1001 },
	{ "big", 4000000000U }, { "odd\"name", 1500 },
	{ NULL, 0 }
};
static const struct entry fake_groups[] = {
	{ "root", 0 }, { "wheel", 10 }, { "tpe-trusted", 2000 },
	{ NULL, 0 }
};

static int lookup_name(const struct entry *t, const char *name, uint32_t *id)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*id = t->id;
			return 0;
		}
	return -1;
}

static const char *lookup_id(const struct entry *t, uint32_t id)
{
	for (; t->name; t++)
		if (t->id == id)
			return t->name;
	return NULL;
}

static int user_id(const char *n, uint32_t *id)
{
	return lookup_name(fake_users, n, id);
}

static const char *user_name(uint32_t id)
{
	return lookup_id(fake_users, id);
}

static int group_id(const char *n, uint32_t *id)
{
	return lookup_name(fake_groups, n, id);
}

static const char *group_name(uint32_t id)
{
	return lookup_id(fake_groups, id);
}

const struct tpe_resolver fake_db = {
	.users = { user_id, user_name },
	.groups = { group_id, group_name },
};

char conf_path[1100];
char err[ERRLEN];

int setup_conf(void **state)
{
	if (fixture_dir_make(state))
		return -1;
	fixture_path(conf_path, sizeof(conf_path), "tpe.conf");
	return 0;
}

int load_path(const char *path, struct tpe_policy *p, char **warnings)
{
	size_t wlen;
	FILE *w = open_memstream(warnings, &wlen);
	struct conf_opts o = { .r = &fake_db, .warn = w, .caller = geteuid() };
	int rc;

	err[0] = 0;
	rc = conf_load(path, &o, p, err);
	fclose(w);
	return rc < 0 ? -1 : 0;
}

int load(const char *text, struct tpe_policy *p, char **warnings)
{
	fixture_write(conf_path, text);
	return load_path(conf_path, p, warnings);
}

void load_ok(const char *text, struct tpe_policy *p)
{
	char *w;

	if (load(text, p, &w))
		fail_msg("unexpected error: %s", err);
	free(w);
}

void assert_ids(const struct tpe_ids *ids, size_t n, ...)
{
	va_list ap;

	assert_int_equal(ids->n, n);
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids->id[i], va_arg(ap, uint32_t));
	va_end(ap);
}
