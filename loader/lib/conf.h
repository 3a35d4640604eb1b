/* SPDX-License-Identifier: GPL-2.0 */
/* Reading tpe.conf and its drop-ins into a struct tpe_policy. */
#ifndef TPE_CONF_H
#define TPE_CONF_H

#include "libtpe.h"

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

#endif
