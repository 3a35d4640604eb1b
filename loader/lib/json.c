// SPDX-License-Identifier: GPL-2.0
/*
 * --json: just enough JSON to write, by hand. Strings are escaped as RFC
 * 8259 says (quote, backslash, and every control character); bytes that
 * are not UTF-8 cannot be in a JSON string at all, so each becomes U+FFFD
 * and the output is always valid.
 */
#include <string.h>

#include <linux/tpe.h>

#include "json.h"

/* The length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

void json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	putc('"', f);
	while (*s) {
		n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	putc('"', f);
}

static void json_ids(FILE *f, const struct tpe_ids *ids,
		     const struct tpe_db *db)
{
	const char *name;
	size_t i;

	putc('[', f);
	for (i = 0; i < ids->n; i++) {
		fprintf(f, "%s{\"id\": %u", i ? ", " : "", ids->id[i]);
		name = db->id_to_name(ids->id[i]);
		if (name) {
			fputs(", \"name\": ", f);
			json_string(f, name);
		}
		putc('}', f);
	}
	putc(']', f);
}

/* Every flag by its tpe.conf key: {"enforce": true, ...}. */
void json_flags(FILE *f, uint32_t flags)
{
	size_t i;

	putc('{', f);
	for (i = 0; i < nflag_keys; i++)
		fprintf(f, "%s\"%s\": %s", i ? ", " : "", flag_keys[i].key,
			flags & flag_keys[i].flag ? "true" : "false");
	putc('}', f);
}

/* The policy: its source, every flag by its tpe.conf key, both lists. */
void json_policy(FILE *f, const char *source, const struct tpe_policy *p,
		 const struct tpe_resolver *r)
{
	fputs("{\"source\": ", f);
	json_string(f, source);
	fputs(", \"flags\": ", f);
	json_flags(f, p->flags);
	fputs(", \"trusted_users\": ", f);
	json_ids(f, &p->users, &r->users);
	fputs(", \"trusted_groups\": ", f);
	json_ids(f, &p->groups, &r->groups);
	fputs("}\n", f);
}

/* --status: the fields of its text, by the same names. */
void json_status(FILE *f, const struct tpe_status *s)
{
	size_t i;

	fputs("{\"mode\": ", f);
	json_string(f, s->mode);
	if (!s->have_policy) {
		fputs("}\n", f);
		return;
	}
	fputs(", \"flags\": ", f);
	json_flags(f, s->live.flags);
	fprintf(f, ", \"trusted_users\": %zu, \"trusted_groups\": %zu, "
		"\"stats\": {", s->live.users.n, s->live.groups.n);
	for (i = 0; i < s->ncounters; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, s->counters[i].name);
		fprintf(f, ": %llu", s->counters[i].value);
	}
	fputs("}, \"config\": {\"path\": ", f);
	json_string(f, status_config_name(s));
	fputs(", \"state\": ", f);
	json_string(f, s->sync);
	if (s->config_err[0]) {
		fputs(", \"error\": ", f);
		json_string(f, s->config_err);
	}
	if (s->nfiles) {
		fputs(", \"files\": [", f);
		for (i = 0; i < s->nfiles; i++) {
			fputs(i ? ", " : "", f);
			json_string(f, s->files[i]);
		}
		fputc(']', f);
	}
	fputs("}}\n", f);
}

static void json_node(FILE *out, const char *key, const char *path,
		      const struct tpe_node *n)
{
	fprintf(out, ", \"%s\": {\"path\": ", key);
	json_string(out, path);
	fprintf(out, ", \"uid\": %u, \"mode\": \"%04o\"}", n->uid,
		n->mode & 07777);
}

static void json_id(FILE *out, const char *key, const struct tpe_db *db,
		    uint32_t id)
{
	const char *name = db->id_to_name(id);

	fprintf(out, "\"%s\": %u", key, id);
	if (name) {
		fprintf(out, ", \"%s_name\": ", key);
		json_string(out, name);
	}
}

static const char *const listed_kind[] = {
	[LISTED_NONE] = "none", [LISTED_EUID] = "euid",
	[LISTED_EGID] = "egid", [LISTED_GROUP] = "group",
};

/*
 * One file's verdict as a JSON object, left open (no closing brace) for
 * the caller to add to: the fields of the text, by name. "verdict" is
 * "allowed", "denied" or "would deny"; "check" is the check that refuses
 * the exec, the file's own or (a script) its refused interpreter's, as the
 * text's first line gives it, and null when the exec is allowed.
 */
static void json_verdict(FILE *out, const struct tpe_policy *p,
		  const struct tpe_identity *who, const struct tpe_facts *f,
		  const struct tpe_verdict *v, const struct tpe_resolver *r)
{
	const struct unseen_fact *u;
	int first = 1;
	size_t i;

	fputs("{\"path\": ", out);
	json_string(out, f->path);
	fputs(", \"resolved\": ", out);
	json_string(out, f->resolved);
	fputs(", \"verdict\": ", out);
	json_string(out, explain_headline(v));
	fputs(", \"check\": ", out);
	if (explain_refused(v))
		json_string(out, tpe_check_names[v->check ? v->check :
						 v->interp_check]);
	else
		fputs("null", out);
	fputs(", \"user\": {", out);
	json_id(out, "uid", &r->users, who->euid);
	fputs(", ", out);
	if (who->no_egid)
		fputs("\"gid\": null", out);
	else
		json_id(out, "gid", &r->groups, who->egid);
	fputs(", \"groups\": [", out);
	for (i = 0; i < who->ngroups; i++)
		fprintf(out, "%s%u", i ? ", " : "", who->groups[i]);
	fprintf(out, "]}, \"root\": %s, \"trusted\": %s, \"listed\": ",
		v->root ? "true" : "false", v->trusted ? "true" : "false");
	json_string(out, listed_kind[v->listed]);
	if (v->listed != LISTED_NONE)
		fprintf(out, ", \"listed_id\": %u", v->listed_id);
	if (v->listed_at) {
		fputs(", \"listed_at\": ", out);
		json_string(out, v->listed_at);
	}
	fprintf(out, ", \"invert\": %s, \"strict\": %s, \"checked\": %s",
		p->flags & TPE_POLICY_INVERT ? "true" : "false",
		p->flags & TPE_POLICY_STRICT ? "true" : "false",
		v->checked ? "true" : "false");
	json_node(out, "file", f->resolved, &f->file);
	json_node(out, "directory", f->dir_path, &f->dir);
	if (f->mount) {
		fputs(", \"file_system\": ", out);
		json_string(out, f->mount);
	}
	if (f->untrusted_fs) {
		fputs(", \"untrusted_fs\": ", out);
		json_string(out, f->untrusted_fs);
	}
	fputs(", \"unseen\": [", out);
	for (u = tpe_unseen; u->bit; u++)
		if (f->unseen & u->bit) {
			fputs(first ? "" : ", ", out);
			json_string(out, u->name);
			first = 0;
		}
	fputc(']', out);
	fputs(", \"exec\": ", out);
	json_string(out, explain_headline(v));
	fputs(", \"mmap\": ", out);
	json_string(out, !v->mmap ? "not checked" : !v->check ? "allowed" :
		     v->enforce ? "denied" : "would deny");
	if (v->interp_check) {
		fputs(", \"refused_interpreter\": ", out);
		json_string(out, v->interp);
	}
}

/*
 * --explain: the policy judged by, and per path its file's verdict with
 * "interpreters", the same objects for the interpreters of a script.
 */
void json_explain(FILE *out, const char *from, const struct tpe_policy *p,
		  const struct tpe_identity *who, const struct explain_chain *c,
		  size_t n, const struct tpe_resolver *r)
{
	size_t i, j, k = 0;

	fputs("{\"policy\": ", out);
	json_string(out, from);
	fputs(", \"paths\": [", out);
	for (i = 0; i < n; i++) {
		if (!c[i].n)
			continue;
		fputs(k++ ? ", " : "", out);
		json_verdict(out, p, who, &c[i].step[0].f, &c[i].step[0].v, r);
		fputs(", \"interpreters\": [", out);
		for (j = 1; j < c[i].n; j++) {
			fputs(j > 1 ? ", " : "", out);
			json_verdict(out, p, who, &c[i].step[j].f,
				     &c[i].step[j].v, r);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}
