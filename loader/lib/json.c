// SPDX-License-Identifier: GPL-2.0
/*
 * --json: just enough JSON to write, by hand. Strings are escaped as RFC
 * 8259 says (quote, backslash, and every control character); bytes that
 * are not UTF-8 cannot be in a JSON string at all, so each becomes U+FFFD
 * and the output is always valid.
 */
#include <string.h>

#include <linux/tpe.h>

#include "loader.h"

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

/* The policy: its source, every flag by its tpe.conf key, both lists. */
void json_policy(FILE *f, const char *source, const struct tpe_policy *p,
		 const struct tpe_resolver *r)
{
	size_t i;

	fputs("{\"source\": ", f);
	json_string(f, source);
	fputs(", \"flags\": {", f);
	for (i = 0; i < nflag_keys; i++)
		fprintf(f, "%s\"%s\": %s", i ? ", " : "", flag_keys[i].key,
			p->flags & flag_keys[i].flag ? "true" : "false");
	fputs("}, \"trusted_users\": ", f);
	json_ids(f, &p->users, &r->users);
	fputs(", \"trusted_groups\": ", f);
	json_ids(f, &p->groups, &r->groups);
	fputs("}\n", f);
}
