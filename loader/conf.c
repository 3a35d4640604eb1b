// SPDX-License-Identifier: GPL-2.0
/* tpe.conf (libconfig syntax) <-> struct tpe_policy. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <grp.h>
#include <libconfig.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tpe.h>

#include "loader.h"

static const struct {
	const char *key;
	uint32_t flag;
} flag_keys[] = {
	{ "enforce",	TPE_POLICY_ENFORCE },
	{ "check_file",	TPE_POLICY_CHECK_FILE },
	{ "strict",	TPE_POLICY_STRICT },
	{ "mmap",	TPE_POLICY_MMAP },
	{ "invert",	TPE_POLICY_INVERT },
	{ "lock",	TPE_POLICY_LOCK },
};

#define DEFAULT_FLAGS	(TPE_POLICY_ENFORCE | TPE_POLICY_MMAP)

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

struct ctx {
	const char *path;
	const struct tpe_resolver *r;
	FILE *warn;
	char *err;
};

static const char *where(const struct ctx *c, const config_setting_t *s)
{
	const char *file = config_setting_source_file(s);

	return file ? file : c->path;
}

static int fail(const struct ctx *c, const config_setting_t *s,
		const char *fmt, ...)
{
	int n = snprintf(c->err, ERRLEN, "%s:%u: ", where(c, s),
			 config_setting_source_line(s));
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err + n, ERRLEN - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void warn(const struct ctx *c, const config_setting_t *s,
		 const char *fmt, ...)
{
	va_list ap;

	if (!c->warn)
		return;
	fprintf(c->warn, "%s:%u: ", where(c, s), config_setting_source_line(s));
	va_start(ap, fmt);
	vfprintf(c->warn, fmt, ap);
	va_end(ap);
	fputc('\n', c->warn);
}

static int parse_flag(const struct ctx *c, const config_setting_t *s,
		      uint32_t flag, struct tpe_policy *p)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return fail(c, s, "%s must be true or false",
			    config_setting_name(s));
	if (config_setting_get_bool(s))
		p->flags |= flag;
	else
		p->flags &= ~flag;
	return 0;
}

static int parse_id(const struct ctx *c, const config_setting_t *e,
		    int which, uint32_t *id)
{
	const char *what = list_keys[which].what;
	long long v;

	switch (config_setting_type(e)) {
	case CONFIG_TYPE_STRING:
		if (db_of(c->r, which)->name_to_id(config_setting_get_string(e),
						   id))
			return fail(c, e, "unknown %s \"%s\"", what,
				    config_setting_get_string(e));
		v = *id;
		break;
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		v = config_setting_get_int64(e);
		break;
	default:
		return fail(c, e, "%s: expected a %s name or number",
			    list_keys[which].key, what);
	}
	if (v < 0 || v > TPE_ID_MAX)
		return fail(c, e, "%s ID %lld out of range 0..%u%s", what, v,
			    TPE_ID_MAX,
			    config_setting_type(e) == CONFIG_TYPE_INT ?
			    " (write IDs above 2147483647 with an L suffix)" :
			    "");
	*id = v;
	if (which == 0 && v == 0)
		warn(c, e, "note: root is always trusted, listing it "
		     "changes nothing");
	return 0;
}

static int parse_list(const struct ctx *c, const config_setting_t *s,
		      int which, struct tpe_policy *p)
{
	struct tpe_ids *ids = ids_of(p, which);
	int i, n = config_setting_length(s);

	if (!config_setting_is_array(s) && !config_setting_is_list(s))
		return fail(c, s, "%s must be a list of %s names and numbers",
			    list_keys[which].key, list_keys[which].what);
	free(ids->id);	/* libconfig refuses a key given twice; be sure */
	ids->id = malloc((n ? n : 1) * sizeof(*ids->id));
	ids->n = 0;
	if (!ids->id)
		return fail(c, s, "out of memory");
	for (i = 0; i < n; i++, ids->n++)
		if (parse_id(c, config_setting_get_elem(s, i), which,
			     &ids->id[ids->n]))
			return -1;
	ids->n = ids_fold(ids->id, ids->n);
	if (ids->n < (size_t)n)
		warn(c, s, "warning: %s: %zu duplicate%s folded",
		     list_keys[which].key, n - ids->n,
		     n - ids->n == 1 ? "" : "s");
	return 0;
}

static int parse_setting(const struct ctx *c, const config_setting_t *s,
			 struct tpe_policy *p)
{
	const char *key = config_setting_name(s);
	size_t i;

	for (i = 0; i < sizeof(flag_keys) / sizeof(flag_keys[0]); i++)
		if (!strcmp(key, flag_keys[i].key))
			return parse_flag(c, s, flag_keys[i].flag, p);
	for (i = 0; i < sizeof(list_keys) / sizeof(list_keys[0]); i++)
		if (!strcmp(key, list_keys[i].key))
			return parse_list(c, s, i, p);
	return fail(c, s, "unknown key \"%s\"", key);
}

static void syntax_error(const config_t *cfg, const char *path, char *err)
{
	const char *file = config_error_file(cfg);
	const char *text = config_error_text(cfg);

	snprintf(err, ERRLEN, "%s:%d: %s%s", file ? file : path,
		 config_error_line(cfg), text,
		 strstr(text, "mismatched element type") ?
		 " (an array in [ ] holds one type: use a list in ( ) to mix"
		 " names, numbers and L numbers)" :
		 "");
}

/* Parse and resolve the whole file; on error p is empty and err says why. */
int conf_load(const char *path, const struct tpe_resolver *r,
	      struct tpe_policy *p, FILE *warn, char err[ERRLEN])
{
	struct ctx c = { .path = path, .r = r, .warn = warn, .err = err };
	config_setting_t *root;
	config_t cfg;
	int i, rc = 0;

	*p = (struct tpe_policy){ .flags = DEFAULT_FLAGS };
	config_init(&cfg);
	errno = 0;
	if (!config_read_file(&cfg, path)) {
		if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
			snprintf(err, ERRLEN, "%s: %s", path,
				 errno ? strerror(errno) : "cannot read");
		else
			syntax_error(&cfg, path, err);
		rc = -1;
	}
	root = config_root_setting(&cfg);
	for (i = 0; !rc && i < config_setting_length(root); i++)
		rc = parse_setting(&c, config_setting_get_elem(root, i), p);
	config_destroy(&cfg);
	if (rc)
		policy_free(p);
	return rc;
}

static int nss_user_id(const char *name, uint32_t *id)
{
	struct passwd *pw = getpwnam(name);

	if (!pw)
		return -1;
	*id = pw->pw_uid;
	return 0;
}

static const char *nss_user_name(uint32_t id)
{
	struct passwd *pw = getpwuid(id);

	return pw ? pw->pw_name : NULL;
}

static int nss_group_id(const char *name, uint32_t *id)
{
	struct group *gr = getgrnam(name);

	if (!gr)
		return -1;
	*id = gr->gr_gid;
	return 0;
}

static const char *nss_group_name(uint32_t id)
{
	struct group *gr = getgrgid(id);

	return gr ? gr->gr_name : NULL;
}

const struct tpe_resolver tpe_nss = {
	.users = { nss_user_id, nss_user_name },
	.groups = { nss_group_id, nss_group_name },
};

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

	for (i = 0; i < sizeof(flag_keys) / sizeof(flag_keys[0]); i++)
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

/* "enforce mmap, 2 users, 1 group" */
void conf_summary(FILE *f, const struct tpe_policy *p)
{
	size_t i;

	fputs(p->flags & TPE_POLICY_ENFORCE ? "enforce" : "permissive", f);
	for (i = 0; i < sizeof(flag_keys) / sizeof(flag_keys[0]); i++)
		if (flag_keys[i].flag != TPE_POLICY_ENFORCE &&
		    (p->flags & flag_keys[i].flag))
			fprintf(f, " %s", flag_keys[i].key);
	fprintf(f, ", %zu user%s, %zu group%s\n", p->users.n,
		p->users.n == 1 ? "" : "s", p->groups.n,
		p->groups.n == 1 ? "" : "s");
}
