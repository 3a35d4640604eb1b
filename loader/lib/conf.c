// SPDX-License-Identifier: GPL-2.0
/*
 * tpe.conf (libconfig syntax) <-> struct tpe_policy. A config, the files it
 * @includes and its drop-ins are parsed file by file (scan.c first) into one
 * tagged list per kind, then merged: lists add up, the last flag set wins,
 * and each repeated ID gets one note where it stands.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tpe.h>

#include "conf.h"

/*
 * The kernel's boot policy (CONFIG_SECURITY_TPE_ENFORCE, _MMAP and
 * _CHECK_FILE): a key left out means what the kernel does before any load.
 * CHECK_FILE is on because a file its user owns in a root directory is a
 * program that user can rewrite and every untrusted user then runs.
 */
#define DEFAULT_FLAGS	(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP | \
			 TPE_POLICY_CHECK_FILE)

/* Index 0 is the user list, 1 the group list. */
static const struct {
	const char *key, *what;
} list_keys[] = {
	{ "trusted_users",	"user" },
	{ "trusted_groups",	"group" },
};

static struct tpe_ids *ids_of(struct tpe_policy *p, int which)
{
	return which ? &p->groups : &p->users;
}

static const struct tpe_db *db_of(const struct tpe_resolver *r, int which)
{
	return which ? &r->groups : &r->users;
}

#define NKEYS	(NFLAG_KEYS + 2)
#define MAX_DEPTH	10	/* @include nesting, as libconfig's own */

/* One ID as written: where it stands, and in which order it came. */
struct tagged {
	uint32_t id, file, line, seq;
};

struct idlist {
	struct tagged *v;
	size_t n, cap;
};

/* Everything read so far, over every file; and the file being read. */
struct ctx {
	const struct conf_opts *o;
	char *err;
	uint32_t flags;
	struct idlist lists[2];
	uint32_t seq;
	char **files;		/* every file read, in order */
	size_t nfiles;
	const char *file;	/* the one being parsed */
	uint32_t file_ix;
	unsigned *seen;		/* line of each key in this file, 0 if not */
};

static int __attribute__((format(printf, 3, 4)))
fail(const struct ctx *c, const config_setting_t *s, const char *fmt, ...)
{
	int n = snprintf(c->err, ERRLEN, "%s:%u: ", c->file,
			 config_setting_source_line(s));
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err + n, ERRLEN - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A key may stand once in a file; across files the last one wins. */
static int once(const struct ctx *c, const config_setting_t *s, size_t key)
{
	if (c->seen[key])
		return fail(c, s, "%s given twice in this file (first on "
			    "line %u)", config_setting_name(s), c->seen[key]);
	c->seen[key] = config_setting_source_line(s);
	return 0;
}

static int parse_flag(struct ctx *c, const config_setting_t *s,
		      uint32_t flag)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return fail(c, s, "%s must be true or false",
			    config_setting_name(s));
	if (config_setting_get_bool(s))
		c->flags |= flag;
	else
		c->flags &= ~flag;
	return 0;
}

static int parse_id(const struct ctx *c, const config_setting_t *e,
		    int which, uint32_t *id)
{
	const char *what = list_keys[which].what;
	long long v;

	switch (config_setting_type(e)) {
	case CONFIG_TYPE_STRING:
		if (db_of(c->o->r, which)->name_to_id(
			    config_setting_get_string(e), id))
			return fail(c, e, "unknown %s \"%s\"", what,
				    config_setting_get_string(e));
		return 0;
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		/* scan.c refused every literal libconfig would have wrapped */
		v = config_setting_get_int64(e);
		break;
	default:
		return fail(c, e, "%s: expected a %s name or number",
			    list_keys[which].key, what);
	}
	if (v < 0 || v > TPE_ID_MAX)
		return fail(c, e, "%s ID %lld out of range 0..%u", what, v,
			    TPE_ID_MAX);
	*id = v;
	return 0;
}

static int parse_list(struct ctx *c, const config_setting_t *s, int which)
{
	struct idlist *l = &c->lists[which];
	int i, n = config_setting_length(s);

	if (!config_setting_is_array(s) && !config_setting_is_list(s))
		return fail(c, s, "%s must be a list of %s names and numbers",
			    list_keys[which].key, list_keys[which].what);
	if (l->n + n > l->cap) {
		size_t cap = l->n + n + l->cap;
		struct tagged *more = realloc(l->v, cap * sizeof(*more));

		if (!more)
			return fail(c, s, "out of memory");
		l->v = more;
		l->cap = cap;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		struct tagged *t = &l->v[l->n];

		if (parse_id(c, e, which, &t->id))
			return -1;
		t->file = c->file_ix;
		t->line = config_setting_source_line(e);
		t->seq = c->seq++;
		l->n++;
	}
	return 0;
}

static int parse_setting(struct ctx *c, const config_setting_t *s)
{
	const char *key = config_setting_name(s);
	size_t i, nflags = nflag_keys;

	for (i = 0; i < nflags; i++)
		if (!strcmp(key, flag_keys[i].key))
			return once(c, s, i) ? -1 :
			       parse_flag(c, s, flag_keys[i].flag);
	for (i = 0; i < sizeof(list_keys) / sizeof(list_keys[0]); i++)
		if (!strcmp(key, list_keys[i].key))
			return once(c, s, nflags + i) ? -1 :
			       parse_list(c, s, i);
	return fail(c, s, "unknown key \"%s\"", key);
}

/* The setting name that starts line n of text (1-based), or "". */
static void key_on_line(const char *text, int n, char *key, size_t len)
{
	size_t k;

	for (; n > 1 && text; n--) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	*key = 0;
	if (!text)
		return;
	text += strspn(text, " \t");
	k = strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_-*");
	if (k && k < len)
		snprintf(key, len, "%.*s", (int)k, text);
}

/* The first line before line `before` that sets key, or 0. */
static int first_line_of(const char *text, const char *key, int before)
{
	char k[128];

	for (int n = 1; n < before; n++) {
		key_on_line(text, n, k, sizeof(k));
		if (!strcmp(k, key))
			return n;
	}
	return 0;
}

/*
 * libconfig's own error, with the likely cause: its words name no key and
 * no rule, and tpe.conf's readers are not all libconfig's.
 */
static void syntax_error(const config_t *cfg, const char *path,
			 const char *text, char *err)
{
	const char *what = config_error_text(cfg);
	int line = config_error_line(cfg), first;
	char key[128], hint[300] = "";

	if (strstr(what, "mismatched element type")) {
		snprintf(hint, sizeof(hint), " (an array in [ ] holds one "
			 "type: use a list in ( ) to mix names, numbers and "
			 "L numbers)");
	} else if (strstr(what, "duplicate setting")) {
		key_on_line(text, line, key, sizeof(key));
		first = *key ? first_line_of(text, key, line) : 0;
		if (first)
			snprintf(hint, sizeof(hint), ": %s given twice in this "
				 "file (first on line %d)", key, first);
		else if (*key)
			snprintf(hint, sizeof(hint), ": %s given twice in this "
				 "file", key);
	} else if (strstr(what, "syntax error")) {
		snprintf(hint, sizeof(hint), " (names are quoted, "
			 "\"alice\"; each setting ends in \";\"; no \",\" "
			 "after a list's last element)");
	}
	snprintf(err, ERRLEN, "%s:%d: %s%s", path, line, what, hint);
}

/* Parses lines from..to-1 of text: the part between two @include lines. */
static int parse_part(struct ctx *c, const char *text, unsigned from,
		      unsigned to)
{
	char *part = NULL;
	config_setting_t *root;
	config_t cfg;
	int i, rc = 0;

	if (from > 1 || to != UINT_MAX) {
		unsigned line = 1;

		/* the other lines blank, so libconfig counts lines as we do */
		part = strdup(text);
		if (!part) {
			snprintf(c->err, ERRLEN, "%s: out of memory", c->file);
			return -1;
		}
		for (char *at = part; *at; at++)
			if (*at == '\n')
				line++;
			else if (line < from || line >= to)
				*at = ' ';
	}
	config_init(&cfg);
	if (!config_read_string(&cfg, part ? part : text)) {
		syntax_error(&cfg, c->file, part ? part : text, c->err);
		rc = -1;
	}
	root = config_root_setting(&cfg);
	for (i = 0; !rc && i < config_setting_length(root); i++)
		rc = parse_setting(c, config_setting_get_elem(root, i));
	config_destroy(&cfg);
	free(part);
	return rc;
}

/* An @include names a file relative to the including one. */
static char *resolve(const char *including, const char *path)
{
	const char *slash = strrchr(including, '/');
	char *out;

	if (*path == '/' || !slash || !strcmp(including, "-"))
		return strdup(path);
	if (asprintf(&out, "%.*s/%s", (int)(slash - including), including,
		     path) < 0)
		return NULL;
	return out;
}

static int load_file(struct ctx *c, const char *path, int depth);

static int include(struct ctx *c, const struct scan_include *inc, int depth)
{
	const char *by = c->file;
	uint32_t by_ix = c->file_ix;
	unsigned *by_seen = c->seen;
	char *path = resolve(by, inc->path);
	int rc;

	if (!path) {
		snprintf(c->err, ERRLEN, "%s:%u: out of memory", by, inc->line);
		return -1;
	}
	if (depth >= MAX_DEPTH) {
		snprintf(c->err, ERRLEN, "%s:%u: @include \"%s\": nested more "
			 "than %d deep", by, inc->line, inc->path, MAX_DEPTH);
		free(path);
		return -1;
	}
	rc = load_file(c, path, depth + 1);
	if (rc == -2) {	/* could not read it: say who wanted it */
		char inner[ERRLEN];

		memcpy(inner, c->err, ERRLEN);
		snprintf(c->err, ERRLEN, "%s:%u: @include: %.*s", by,
			 inc->line, ERRLEN - 64, inner);
	}
	free(path);
	c->file = by;
	c->file_ix = by_ix;
	c->seen = by_seen;
	return rc ? -1 : 0;
}

/* Returns 0, -1 on an error in the file, -2 if it cannot be read. */
static int load_file(struct ctx *c, const char *path, int depth)
{
	unsigned seen[NKEYS] = { 0 }, from = 1;
	char **more, *text;
	struct scan sc;
	int rc = 0;

	if (source_read(path, c->o->caller, c->o->warn, &text, c->err))
		return -2;
	more = realloc(c->files, (c->nfiles + 1) * sizeof(*more));
	if (!more || !(more[c->nfiles] = strdup(strcmp(path, "-") ? path :
						    "<stdin>"))) {
		c->files = more ? more : c->files;
		free(text);
		snprintf(c->err, ERRLEN, "%s: out of memory", path);
		return -1;
	}
	c->files = more;
	if (c->o->trace)
		fprintf(c->o->trace, "%s: read\n", more[c->nfiles]);
	c->file_ix = c->nfiles++;
	c->file = c->files[c->file_ix];
	c->seen = seen;
	if (scan_text(text, c->file, &sc, c->err)) {
		free(text);
		return -1;
	}
	for (size_t i = 0; !rc && i <= sc.n; i++) {
		unsigned to = i < sc.n ? sc.inc[i].line : UINT_MAX;

		rc = parse_part(c, text, from, to);
		if (!rc && i < sc.n)
			rc = include(c, &sc.inc[i], depth);
		from = to + 1;
	}
	scan_free(&sc);
	free(text);
	return rc;
}

static int by_id_then_seq(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A note to print: at one ID's place, about the ID's first place. */
struct note {
	const struct tagged *at, *first;
	size_t times;
	int which;
};

static int by_seq(const void *a, const void *b)
{
	const struct note *x = a, *y = b;

	return (x->at->seq > y->at->seq) - (x->at->seq < y->at->seq);
}

static void print_note(const struct ctx *c, const struct note *n)
{
	FILE *w = c->o->warn;

	fprintf(w, "%s:%u: note: ", c->files[n->at->file], n->at->line);
	if (n->which == 0 && n->at->id == 0) {
		fputs("root is always trusted, listing it changes nothing\n", w);
		return;
	}
	fprintf(w, "%s %u listed again ", list_keys[n->which].what,
		n->at->id);
	if (n->first->file == n->at->file)
		fprintf(w, "(first on line %u)", n->first->line);
	else
		fprintf(w, "(first at %s:%u)", c->files[n->first->file],
			n->first->line);
	if (n->times > 2)
		fprintf(w, ", %zu times in all", n->times);
	fputc('\n', w);
}

/*
 * Sorts and folds each list into p, and prints one note per ID listed more
 * than once (at its second place) and one for root, in the order they
 * stand in the files.
 */
static int fold(struct ctx *c, struct tpe_policy *p)
{
	struct note *notes;
	size_t nn = 0;

	notes = malloc((c->lists[0].n + c->lists[1].n + 1) * sizeof(*notes));
	if (!notes) {
		snprintf(c->err, ERRLEN, "out of memory");
		return -1;
	}
	for (int which = 0; which < 2; which++) {
		struct idlist *l = &c->lists[which];
		struct tpe_ids *ids = ids_of(p, which);
		size_t i, j;

		ids->id = malloc((l->n ? l->n : 1) * sizeof(*ids->id));
		if (!ids->id) {
			free(notes);
			snprintf(c->err, ERRLEN, "out of memory");
			return -1;
		}
		if (l->n)
			qsort(l->v, l->n, sizeof(*l->v), by_id_then_seq);
		for (i = 0; i < l->n; i = j) {
			for (j = i + 1; j < l->n && l->v[j].id == l->v[i].id;)
				j++;
			ids->id[ids->n++] = l->v[i].id;
			if (c->o->listed)	/* where --explain says it is */
				c->o->listed(c->o->listed_arg, which,
					     l->v[i].id,
					     c->files[l->v[i].file],
					     l->v[i].line);
			if (which == 0 && l->v[i].id == 0)
				notes[nn++] = (struct note){ &l->v[i],
							     &l->v[i], j - i,
							     which };
			else if (j - i > 1)
				notes[nn++] = (struct note){ &l->v[i + 1],
							     &l->v[i], j - i,
							     which };
		}
	}
	if (c->o->warn) {
		qsort(notes, nn, sizeof(*notes), by_seq);
		for (size_t i = 0; i < nn; i++)
			print_note(c, &notes[i]);
	}
	free(notes);
	return 0;
}

/* PATH.d/ *.conf after PATH, in lexical order; none for standard input. */
static int load_dropins(struct ctx *c, const char *path)
{
	char *dir, **paths;
	size_t n;
	int rc = 0;

	if (!strcmp(path, "-"))
		return 0;
	if (asprintf(&dir, "%s.d", path) < 0) {
		snprintf(c->err, ERRLEN, "out of memory");
		return -1;
	}
	if (source_dir(dir, c->o->caller, c->o->warn, &paths, &n, c->err))
		rc = -1;
	for (size_t i = 0; !rc && i < n; i++)
		rc = load_file(c, paths[i], 0) ? -1 : 0;
	source_dir_free(paths, n);
	free(dir);
	return rc;
}

/*
 * Parse and resolve the config, every file it includes and its drop-ins;
 * on error p is empty and err says why. Returns the number of files read,
 * or -1.
 */
int conf_load(const char *path, const struct conf_opts *o,
	      struct tpe_policy *p, char err[ERRLEN])
{
	struct ctx c = { .o = o, .err = err, .flags = DEFAULT_FLAGS };
	int rc;

	*p = (struct tpe_policy){ 0 };
	rc = load_file(&c, path, 0) || load_dropins(&c, path) ? -1 :
	     fold(&c, p);
	p->flags = c.flags;
	free(c.lists[0].v);
	free(c.lists[1].v);
	for (size_t i = 0; i < c.nfiles; i++)
		free(c.files[i]);
	free(c.files);
	if (rc) {
		policy_free(p);
		return -1;
	}
	return (int)c.nfiles;
}

/* A name goes out only if it reads back as itself: plain and resolvable. */
static void write_id(FILE *f, const struct tpe_db *db, uint32_t id)
{
	const char *name = db->id_to_name(id);
	uint32_t back;

	if (name && *name && !name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
					  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-$@")] &&
	    !db->name_to_id(name, &back) && back == id)
		fprintf(f, "\"%s\"", name);
	else
		fprintf(f, id > INT32_MAX ? "%uL" : "%u", id);
}

/* Print p as a tpe.conf that loads back to the same policy. */
void conf_write(FILE *f, const struct tpe_policy *p,
		const struct tpe_resolver *r)
{
	size_t i;
	int which;

	for (i = 0; i < nflag_keys; i++)
		fprintf(f, "%-14s = %s;\n", flag_keys[i].key,
			p->flags & flag_keys[i].flag ? "true" : "false");
	for (which = 0; which < 2; which++) {
		const struct tpe_ids *ids = which ? &p->groups : &p->users;

		fprintf(f, "%-14s = (", list_keys[which].key);
		for (i = 0; i < ids->n; i++) {
			fputs(i ? ",\n\t" : "\n\t", f);
			write_id(f, db_of(r, which), ids->id[i]);
		}
		fputs(ids->n ? "\n);\n" : " );\n", f);
	}
}

/* "enforce mmap, 2 users, 1 group", no newline */
void conf_summary(FILE *f, const struct tpe_policy *p)
{
	size_t i;

	fputs(p->flags & TPE_POLICY_ENFORCE ? "enforce" : "permissive", f);
	for (i = 0; i < nflag_keys; i++)
		if (flag_keys[i].flag != TPE_POLICY_ENFORCE &&
		    (p->flags & flag_keys[i].flag))
			fprintf(f, " %s", flag_keys[i].key);
	fprintf(f, ", %zu user%s, %zu group%s", p->users.n,
		p->users.n == 1 ? "" : "s", p->groups.n,
		p->groups.n == 1 ? "" : "s");
}
