// SPDX-License-Identifier: GPL-2.0
/*
 * A lexical pass over a tpe.conf before libconfig sees it, for the two
 * things libconfig 1.5 gets wrong for us:
 *
 *  - It reads a plain integer literal (no L suffix) with atoi() or
 *    strtoul(), so 4294968296 silently becomes 1000 and 0x80000000 becomes
 *    -2147483648. The pass refuses any plain literal that does not fit in a
 *    32-bit int, naming the literal exactly as written. After libconfig it
 *    is too late: the value is already wrapped, and a wrapped value can be
 *    a valid ID.
 *  - It resolves @include against the current directory and opens the file
 *    itself, unchecked. The pass blanks each @include line (keeping the line
 *    count, so libconfig's line numbers stay true) and hands the path to
 *    conf.c, which reads it like any other config file.
 *
 * The pass knows only what it must to stay in step with libconfig's
 * scanner: comments (#, //, / * * /), strings, setting names, numbers,
 * brackets.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

struct lexer {
	char *at;
	const char *file;
	unsigned line;
	int depth, bol;		/* bracket depth; only blanks so far on line */
	struct scan *out;
	char *err;
};

static int __attribute__((format(printf, 3, 4)))
lex_fail(const struct lexer *l, unsigned line, const char *fmt, ...)
{
	int n = snprintf(l->err, ERRLEN, "%s:%u: ", l->file, line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err + n, ERRLEN - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '*';
}

static void skip_to_eol(struct lexer *l)
{
	while (*l->at && *l->at != '\n')
		l->at++;
}

static void skip_block_comment(struct lexer *l)
{
	for (l->at += 2; *l->at && !(l->at[0] == '*' && l->at[1] == '/');
	     l->at++)
		if (*l->at == '\n')
			l->line++;
	if (*l->at)
		l->at += 2;
}

/*
 * Skips a "string" at l->at. With buf, also unescapes it there (at most
 * len bytes with the NUL); returns -1 if it does not fit or is unterminated.
 */
static int string(struct lexer *l, char *buf, size_t len)
{
	size_t n = 0;
	char c;

	for (l->at++; *l->at && *l->at != '"'; l->at++) {
		c = *l->at;
		if (c == '\n')
			l->line++;
		if (c == '\\' && l->at[1]) {
			c = *++l->at;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ?
			    '\r' : c == 'f' ? '\f' : c;
		}
		if (buf && n + 1 < len)
			buf[n++] = c;
		else if (buf)
			return -1;
	}
	if (!*l->at)
		return -1;
	l->at++;
	if (buf)
		buf[n] = 0;
	return 0;
}

/*
 * A plain integer literal that libconfig would wrap: decimal outside
 * -2147483648..2147483647, or hex above 0x7fffffff. Anything else (an L
 * suffix, a float) is not ours to judge.
 */
static int wraps(const char *tok, size_t len)
{
	int neg = *tok == '-';
	unsigned long long v = 0, limit = neg ? 2147483648ULL : 2147483647ULL;
	size_t i = neg || *tok == '+', start;
	int hex = len > i + 2 && tok[i] == '0' && (tok[i + 1] | 0x20) == 'x';

	if (hex)
		i += 2;
	for (start = i; i < len; i++)
		if (!(hex ? isxdigit((unsigned char)tok[i]) :
		      isdigit((unsigned char)tok[i])))
			return 0;
	for (i = start; i < len && v <= limit; i++)
		v = v * (hex ? 16 : 10) + (isdigit((unsigned char)tok[i]) ?
			tok[i] - '0' : (tok[i] | 0x20) - 'a' + 10);
	return v > limit;
}

/* A number token: [+-] then digits, letters and dots, an exponent's sign. */
static int number(struct lexer *l)
{
	const char *start = l->at, *digits;
	char tok[48], as_read[16];
	size_t len;

	if (*l->at == '-' || *l->at == '+')
		l->at++;
	digits = l->at;
	for (;;) {
		while (isalnum((unsigned char)*l->at) || *l->at == '.')
			l->at++;
		if ((l->at[-1] | 0x20) != 'e' || (*l->at != '-' &&
						   *l->at != '+') ||
		    (digits[0] == '0' && (digits[1] | 0x20) == 'x'))
			break;
		l->at++;
	}
	len = l->at - start;
	if (!wraps(start, len))
		return 0;
	snprintf(tok, sizeof(tok), "%.*s%s", (int)(len < 40 ? len : 40),
		 start, len < 40 ? "" : "...");
	/* what libconfig 1.5's scanner makes of it: atoi() or strtoul() */
	snprintf(as_read, sizeof(as_read), "%d", strpbrk(tok, "xX") ?
		 (int)strtoul(tok, NULL, 16) : (int)strtol(tok, NULL, 10));
	return lex_fail(l, l->line, "%s does not fit in 32 bits and libconfig "
			"would read it as %s: write a 64-bit integer with an L "
			"suffix", tok, as_read);
}

/*
 * At '@' first on a line. If it is libconfig's "@include "path"", records
 * the path, blanks the line and returns 1; returns 0 if it is not (then
 * libconfig will call it a syntax error), -1 on an error.
 */
static int include(struct lexer *l, char *line_start)
{
	const char *p = l->at + 8;
	unsigned line = l->line;
	struct scan_include *more;
	char path[4096];

	if (strncmp(l->at, "@include", 8) || (*p != ' ' && *p != '\t'))
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return 0;
	l->at = (char *)p;
	if (l->depth)
		return lex_fail(l, line, "@include inside a list or group: "
				"it must stand at the top level");
	if (string(l, path, sizeof(path)) || l->line != line)
		return lex_fail(l, line, "@include: the file name must end "
				"on its line and be shorter than %zu bytes",
				sizeof(path));
	while (*l->at == ' ' || *l->at == '\t' || *l->at == '\r')
		l->at++;
	if (*l->at == '#' || (l->at[0] == '/' && l->at[1] == '/'))
		skip_to_eol(l);
	if (*l->at && *l->at != '\n')
		return lex_fail(l, line, "@include \"%s\": nothing else may "
				"stand on its line", path);
	more = realloc(l->out->inc, (l->out->n + 1) * sizeof(*more));
	if (!more || !(more[l->out->n].path = strdup(path))) {
		l->out->inc = more ? more : l->out->inc;
		return lex_fail(l, line, "out of memory");
	}
	l->out->inc = more;
	more[l->out->n++].line = line;
	memset(line_start, ' ', l->at - line_start);
	return 1;
}

int scan_text(char *text, const char *file, struct scan *out,
	      char err[ERRLEN])
{
	struct lexer l = { .at = text, .file = file, .line = 1,
			   .bol = 1, .out = out, .err = err };
	char *line_start = text;

	*out = (struct scan){ 0 };
	while (*l.at) {
		char c = *l.at;

		if (c == '\n') {
			l.line++;
			l.bol = 1;
			line_start = ++l.at;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			l.at++;
			continue;
		}
		if (c == '@' && l.bol) {
			int rc = include(&l, line_start);

			if (rc < 0)
				goto fail;
			if (!rc)
				l.at++;
		} else if (c == '#' || (c == '/' && l.at[1] == '/')) {
			skip_to_eol(&l);
		} else if (c == '/' && l.at[1] == '*') {
			skip_block_comment(&l);
		} else if (c == '"') {
			string(&l, NULL, 0);
		} else if (isdigit((unsigned char)c) ||
			   ((c == '-' || c == '+') &&
			    isdigit((unsigned char)l.at[1]))) {
			if (number(&l))
				goto fail;
		} else if (isalpha((unsigned char)c) || c == '*') {
			while (is_name_char((unsigned char)*l.at))
				l.at++;
		} else {
			if (c == '(' || c == '[' || c == '{')
				l.depth++;
			else if ((c == ')' || c == ']' || c == '}') && l.depth)
				l.depth--;
			l.at++;
		}
		l.bol = 0;
	}
	return 0;
fail:
	scan_free(out);
	return -1;
}

void scan_free(struct scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->inc[i].path);
	free(s->inc);
	*s = (struct scan){ 0 };
}
