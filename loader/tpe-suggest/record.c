// SPDX-License-Identifier: GPL-2.0
/*
 * One line of a log -> one TPE denial. Two forms (module/audit.c), each
 * read field by field in its fixed order; anything else is refused:
 *
 *   kernel log (dmesg, journalctl -k, /var/log/kern.log):
 *     tpe: would deny exec uid=U euid=E pid=P comm=C check=K dev=MA:MI
 *          ino=I dir_ino=D path=PATH
 *   audit (audit.log, ausearch -m AVC --raw, the kernel log without auditd):
 *     type=AVC msg=audit(S.MS:N): lsm=tpe op=exec action=permissive
 *     check=K tclass=file subj_euid=E dev=MA:MI ino=I dir_ino=D
 *     ppid=.. pid=P auid=.. uid=U .. comm=C exe=X ... path=PATH res=1
 *
 * The kernel log escapes comm and path as %*pE does, plus a backslash as
 * \\ and a space as \040: no value has a space, so a name can forge no
 * field; dmesg and journald may show bytes as \xHH too. The path comes
 * last; when TPE had to cut it, the field is path_prefix= and the record
 * is refused: a cut path names some other file. Audit quotes a value, or
 * hex-encodes it when it has a space, a quote or a byte outside
 * 0x21..0x7e; no value has a space there either.
 *
 * journalctl -o json is read too: an entry counts only when its
 * _TRANSPORT is "kernel" (anything else was written by a program).
 *
 * Refused, and counted by the caller: the old kernel log form ("denied
 * exec of PATH by uid=..."), where a path could carry its own
 * " by uid=0 ..."; and ausearch -i text, where names are decoded, spaces
 * and all, and IDs are turned into names a user may have chosen.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

const char REC_CUT[] = "path cut by the kernel (path_prefix=)";
const char REC_OLD_FORMAT[] =
	"old kernel log format (\"OP of PATH by uid=\"): a path in it can forge the uid";
const char REC_INTERPRETED[] =
	"ausearch -i text: names and IDs interpreted; use ausearch --raw or audit.log";
const char REC_NOT_KERNEL[] =
	"journal entry not of the kernel's transport: a program wrote it";

static const char *const ops[] = { "exec", "mmap", "mprotect" };

static bool known_op(const char *op)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

/* A check= the kernel logs: one it fails, never "none". */
static bool check_of(const char *name, enum tpe_check *check)
{
	*check = tpe_check_by_name(name);
	return *check != TPE_CHECK_NONE && *check != __TPE_CHECK_MAX;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool octal(char c)
{
	return c >= '0' && c <= '7';
}

/*
 * The kernel log's escaping back to bytes: \\, \n \r \t \v \f \a \e,
 * \ooo, and dmesg's or journald's \xHH. Any other backslash, a raw
 * control byte, or a NUL is not something the kernel writes: -1.
 */
static int unescape_log(const char *s, char *out, size_t size)
{
	static const char from[] = "nrtvfae", to[] = "\n\r\t\v\f\a\033";
	size_t o = 0;

	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e;

		if (c == '\\') {
			char n = s[i + 1];

			if (n == '\\') {
				i++;
			} else if (n && (e = strchr(from, n))) {
				c = (unsigned char)to[e - from];
				i++;
			} else if (n >= '0' && n <= '3' && octal(s[i + 2]) &&
				   octal(s[i + 3])) {
				c = (unsigned char)((n - '0') << 6 |
						    (s[i + 2] - '0') << 3 |
						    (s[i + 3] - '0'));
				i += 3;
			} else if (n == 'x' && hexval(s[i + 2]) >= 0 &&
				   hexval(s[i + 3]) >= 0) {
				c = (unsigned char)(hexval(s[i + 2]) << 4 |
						    hexval(s[i + 3]));
				i += 3;
			} else {
				return -1;
			}
		} else if (c < 0x21 || c == 0x7f) {
			return -1;
		}
		if (!c || o + 1 >= size)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

/* An audit untrusted string: "quoted" (0x21..0x7e, no quote) or HEX. */
static int audit_string(const char *v, char *out, size_t size)
{
	size_t n = strlen(v), i;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		if (n - 2 >= size)
			return -1;
		for (i = 1; i < n - 1; i++)
			if (v[i] < 0x21 || v[i] > 0x7e || v[i] == '"')
				return -1;
		memcpy(out, v + 1, n - 2);
		out[n - 2] = '\0';
		return 0;
	}
	if (!n || n % 2 || n / 2 >= size)
		return -1;
	for (i = 0; i < n; i += 2) {
		int hi = hexval(v[i]), lo = hexval(v[i + 1]);

		/* audit writes upper case; a NUL is in no name */
		if (hi < 0 || lo < 0 || islower((unsigned char)v[i]) ||
		    islower((unsigned char)v[i + 1]) || !(hi | lo))
			return -1;
		out[i / 2] = (char)(hi << 4 | lo);
	}
	out[n / 2] = '\0';
	return 0;
}

/* Decimal digits only, no sign, no leading space, at most MAX. */
static int number(const char *s, unsigned long long max,
		  unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno || *v > max ? -1 : 0;
}

static int u64_of(const char *s, uint64_t *v)
{
	unsigned long long n;

	if (number(s, UINT64_MAX, &n))
		return -1;
	*v = n;
	return 0;
}

static int u32_of(const char *s, uint32_t *v)
{
	unsigned long long n;

	if (number(s, UINT32_MAX, &n))
		return -1;
	*v = (uint32_t)n;
	return 0;
}

static int dev_of(const char *s, struct record *r)
{
	char major[16];
	const char *colon = strchr(s, ':');

	if (!colon || (size_t)(colon - s) >= sizeof(major))
		return -1;
	memcpy(major, s, colon - s);
	major[colon - s] = '\0';
	return u32_of(major, &r->dev_major) || u32_of(colon + 1, &r->dev_minor);
}

/* Split a copy of a record at single spaces; -1 on an empty field. */
#define MAX_FIELDS	64
static int split(char *rec, char **f, size_t *n)
{
	*n = 0;
	for (char *p = rec; ; p++) {
		char *sp = strchr(p, ' ');

		if (*n == MAX_FIELDS || sp == p || !*p)
			return -1;
		f[(*n)++] = p;
		if (!sp)
			return 0;
		*sp = '\0';
		p = sp;
	}
}

/* Field F is KEY=VALUE: the value, else NULL. */
static const char *value(const char *f, const char *key)
{
	size_t k = strlen(key);

	return !strncmp(f, key, k) && f[k] == '=' ? f + k + 1 : NULL;
}

/*
 * "[would ]deny|denied OP uid= euid= pid= comm= check= dev= ino= dir_ino=
 * path=", after "tpe: ".
 */
static int parse_kernel_log(const char *line, struct record *r,
			    const char **why)
{
	static const char *const keys[] = {
		"uid", "euid", "pid", "comm", "check", "dev", "ino", "dir_ino",
	};
	char rec[2 * REC_PATH_MAX], *f[MAX_FIELDS];
	const char *v[sizeof(keys) / sizeof(keys[0])];
	unsigned long long n;
	size_t len = strcspn(line, "\r\n"), nf, i = 0, k;

	if (len >= sizeof(rec)) {
		*why = "record too long";
		return -1;
	}
	memcpy(rec, line, len);
	rec[len] = '\0';
	if (split(rec, f, &nf)) {
		*why = "not single-space separated fields";
		return -1;
	}
	r->enforced = !strcmp(f[0], "denied");
	i = r->enforced ? 1 : 2;	/* "denied", or "would" "deny" */
	if (nf < i + 1 || strlen(f[i]) >= sizeof(r->op) ||
	    !known_op(strcpy(r->op, f[i]))) {
		*why = "no exec|mmap|mprotect after the verdict";
		return -1;
	}
	if (++i < nf && !strcmp(f[i], "of")) {
		*why = REC_OLD_FORMAT;
		return -1;
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++, i++)
		if (i >= nf || !(v[k] = value(f[i], keys[k]))) {
			*why = "fields not in the kernel's order";
			return -1;
		}
	if (i + 1 == nf && value(f[i], "path_prefix")) {
		*why = REC_CUT;
		return -1;
	}
	if (i + 1 != nf || !value(f[i], "path")) {
		*why = "no path= as the last field";
		return -1;
	}
	if (u32_of(v[0], &r->uid) || u32_of(v[1], &r->euid) ||
	    number(v[2], INT_MAX, &n) || !n) {
		*why = "uid, euid or pid not a number";
		return -1;
	}
	r->pid = (int)n;
	if (unescape_log(v[3], r->comm, sizeof(r->comm))) {
		*why = "comm= not escaped as the kernel does";
		return -1;
	}
	if (!check_of(v[4], &r->check)) {
		*why = "unknown check=";
		return -1;
	}
	if (dev_of(v[5], r) || u64_of(v[6], &r->ino) ||
	    u64_of(v[7], &r->dir_ino)) {
		*why = "dev=, ino= or dir_ino= not a number";
		return -1;
	}
	if (unescape_log(value(f[i], "path"), r->path, sizeof(r->path)) ||
	    r->path[0] != '/') {
		*why = "path= not an absolute path escaped as the kernel does";
		return -1;
	}
	return 1;
}

/* audit_log_task_info()'s fields, in its order, after dir_ino=. */
static const char *const task_keys[] = {
	"ppid", "pid", "auid", "uid", "gid", "euid", "suid", "fsuid", "egid",
	"sgid", "fsgid", "tty", "ses", "comm", "exe",
};
#define NTASK	(sizeof(task_keys) / sizeof(task_keys[0]))

/* The fields of one AVC record after "audit(S.MS:N): ", in order. */
static int parse_audit(char *rec, struct record *r, const char **why)
{
	static const char *const head[] = {
		"lsm", "op", "action", "check", "tclass", "subj_euid", "dev",
		"ino", "dir_ino",
	};
	const char *h[sizeof(head) / sizeof(head[0])], *t[NTASK], *res;
	char *f[MAX_FIELDS];
	unsigned long long n;
	size_t nf, i, k;

	if (split(rec, f, &nf) || nf < 2 + sizeof(head) / sizeof(head[0]) + NTASK) {
		*why = "not single-space separated fields, or too few";
		return -1;
	}
	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		if (!(h[i] = value(f[i], head[i]))) {
			*why = "fields not in the audit record's order (lsm op action check tclass subj_euid dev ino dir_ino)";
			return -1;
		}
	for (k = 0; k < NTASK; k++, i++)
		if (!(t[k] = value(f[i], task_keys[k]))) {
			*why = "no task fields (ppid= ... exe=) after dir_ino=";
			return -1;
		}
	/* Then whatever the LSMs add (subj=), path=, and res= last. */
	res = value(f[nf - 1], "res");
	if (!res || (strcmp(res, "0") && strcmp(res, "1")) ||
	    !value(f[nf - 2], "path")) {
		*why = "not path= then res=0|1 at the end";
		return -1;
	}
	if (strlen(h[1]) >= sizeof(r->op) || !known_op(strcpy(r->op, h[1])) ||
	    !check_of(h[3], &r->check) || strcmp(h[4], "file")) {
		*why = "unknown op=, check= or tclass=";
		return -1;
	}
	r->enforced = !strcmp(res, "0");
	if (strcmp(h[2], r->enforced ? "denied" : "permissive")) {
		*why = "action= does not match res=";
		return -1;
	}
	if (u32_of(h[5], &r->euid) || dev_of(h[6], r) ||
	    u64_of(h[7], &r->ino) || u64_of(h[8], &r->dir_ino)) {
		*why = "subj_euid=, dev=, ino= or dir_ino= not a number";
		return -1;
	}
	if (number(t[1], INT_MAX, &n) || !n || u32_of(t[3], &r->uid)) {
		*why = "pid= or uid= not a number";
		return -1;
	}
	r->pid = (int)n;
	if (audit_string(t[13], r->comm, sizeof(r->comm))) {
		*why = "comm= neither quoted nor hex";
		return -1;
	}
	if (audit_string(value(f[nf - 2], "path"), r->path, sizeof(r->path)) ||
	    r->path[0] != '/') {
		*why = "path= not an absolute path, quoted or hex";
		return -1;
	}
	return 1;
}

/* "audit(SECONDS.MILLIS:SERIAL): " as the kernel writes it, or NULL. */
static const char *raw_stamp(const char *p)
{
	size_t d;

	if (strncmp(p, "audit(", 6))
		return NULL;
	p += 6;
	if (!(d = strspn(p, "0123456789")) || p[d] != '.')
		return NULL;
	p += d + 1;
	if (!(d = strspn(p, "0123456789")) || p[d] != ':')
		return NULL;
	p += d + 1;
	if (!(d = strspn(p, "0123456789")) || strncmp(p + d, "): ", 3))
		return NULL;
	return p + d + 3;
}

static int audit_record(const char *line, const char *lsm, struct record *r,
			const char **why)
{
	char rec[2 * REC_PATH_MAX + 1024];
	const char *stamp = NULL, *body;
	size_t n;

	/* A policy load (MAC_POLICY_LOAD) is no denial, in any form. */
	if (!strncmp(lsm, "lsm=tpe op=policy_write ", 24))
		return 0;
	for (const char *p = line; (p = strstr(p, "audit(")) && p < lsm; p++)
		stamp = p;
	if (!stamp) {
		*why = "lsm=tpe without an audit(...) header";
		return -1;
	}
	body = raw_stamp(stamp);
	if (!body) {
		/* ausearch -i: "audit(12/05/26 11:54:54.715:35) : " */
		*why = REC_INTERPRETED;
		return -1;
	}
	if (body != lsm) {
		*why = "lsm=tpe is not the record's first field";
		return -1;
	}
	/* auditd's enriched format adds names after a 0x1d. */
	n = strcspn(body, "\x1d\r\n");
	if (n >= sizeof(rec)) {
		*why = "record too long";
		return -1;
	}
	memcpy(rec, body, n);
	rec[n] = '\0';
	return parse_audit(rec, r, why);
}

/*
 * Where "tpe: " may start a kernel message: the line's start, after
 * dmesg's "[   1.234] ", syslog's or journalctl's "kernel: ", or
 * /dev/kmsg's "5,123,456,-;". Elsewhere it is some other program's text.
 */
static bool message_start(const char *line, const char *p)
{
	size_t off = p - line;

	return !off || (off >= 2 && !strncmp(p - 2, "] ", 2)) ||
	       (off >= 8 && !strncmp(p - 8, "kernel: ", 8)) || p[-1] == ';';
}

/* ---- journalctl -o json: one object per line ---- */

static const char *jws(const char *p)
{
	return p + strspn(p, " \t\r\n");
}

/* Append the UTF-8 of code point C; -1 if it does not fit. */
static int utf8(unsigned c, char *out, size_t size, size_t *o)
{
	char b[4];
	size_t n;

	if (c < 0x80)
		b[0] = (char)c, n = 1;
	else if (c < 0x800)
		b[0] = (char)(0xc0 | c >> 6), b[1] = (char)(0x80 | (c & 0x3f)), n = 2;
	else
		b[0] = (char)(0xe0 | c >> 12), b[1] = (char)(0x80 | ((c >> 6) & 0x3f)),
		b[2] = (char)(0x80 | (c & 0x3f)), n = 3;
	if (*o + n >= size)
		return -1;
	memcpy(out + *o, b, n);
	*o += n;
	return 0;
}

/* A JSON string at P into OUT (NULL: skip it); the text after it, or NULL. */
static const char *jstring(const char *p, char *out, size_t size)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	size_t o = 0;

	if (*p++ != '"')
		return NULL;
	for (; *p && *p != '"'; p++) {
		unsigned c = (unsigned char)*p;
		const char *e;

		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				c = 0;
				for (int k = 1; k <= 4; k++) {
					if (hexval(p[k]) < 0)
						return NULL;
					c = c << 4 | (unsigned)hexval(p[k]);
				}
				p += 4;
				if (!c)
					return NULL;
				if (out && utf8(c, out, size, &o))
					return NULL;
				continue;
			}
			if (!*p || !(e = strchr(from, *p)))
				return NULL;
			c = (unsigned char)to[e - from];
		}
		if (out) {
			if (o + 1 >= size)
				return NULL;
			out[o++] = (char)c;
		}
	}
	if (*p != '"')
		return NULL;
	if (out)
		out[o] = '\0';
	return p + 1;
}

/* journald gives a value that is not UTF-8 as an array of its bytes. */
static const char *jbytes(const char *p, char *out, size_t size)
{
	size_t o = 0;

	for (p = jws(p + 1); *p != ']'; ) {
		char *end;
		unsigned long b = strtoul(p, &end, 10);

		if (end == p || b == 0 || b > 255 || (out && o + 1 >= size))
			return NULL;
		if (out)
			out[o++] = (char)b;
		p = jws(end);
		if (*p == ',')
			p = jws(p + 1);
		else if (*p != ']')
			return NULL;
	}
	if (out)
		out[o] = '\0';
	return p + 1;
}

/* One value: a string, an array of bytes or strings, a number, null. */
static const char *jvalue(const char *p, char *out, size_t size)
{
	if (*p == '"')
		return jstring(p, out, size);
	if (*p == '[' && isdigit((unsigned char)*jws(p + 1)))
		return jbytes(p, out, size);
	if (*p == '[') {	/* a field given more than once: skipped whole */
		if (out)
			return NULL;
		for (p = jws(p + 1); *p != ']'; ) {
			if (!(p = jstring(p, NULL, 0)))
				return NULL;
			p = jws(p);
			if (*p == ',')
				p = jws(p + 1);
			else if (*p != ']')
				return NULL;
		}
		return p + 1;
	}
	if (!strncmp(p, "null", 4))
		return out ? NULL : p + 4;
	if (isdigit((unsigned char)*p) || *p == '-')
		return out ? NULL : p + strspn(p, "-0123456789.eE+");
	return NULL;
}

/*
 * A journal entry: its MESSAGE is a record only if _TRANSPORT is
 * "kernel"; any program can log "kernel: tpe: denied ..." through syslog
 * or the journal's own socket, and then it is not the kernel's.
 */
static int journal_json(const char *line, struct record *r, const char **why)
{
	static char msg[2 * REC_PATH_MAX], transport[32];
	const char *p = jws(line + 1);
	bool have_msg = false, have_transport = false;

	while (*p == '"') {
		char key[64];

		if (!(p = jstring(p, key, sizeof(key))) || *(p = jws(p)) != ':')
			goto bad;
		p = jws(p + 1);
		if (!strcmp(key, "MESSAGE")) {
			p = have_msg ? NULL : jvalue(p, msg, sizeof(msg));
			have_msg = true;
		} else if (!strcmp(key, "_TRANSPORT")) {
			p = have_transport ? NULL :
			    jvalue(p, transport, sizeof(transport));
			have_transport = true;
		} else {
			p = jvalue(p, NULL, 0);
		}
		if (!p)
			goto bad;
		p = jws(p);
		if (*p == ',')
			p = jws(p + 1);
	}
	if (*p != '}' || !have_msg)
		goto bad;
	if (!strstr(msg, "tpe: ") && !strstr(msg, "lsm=tpe "))
		return 0;
	if (!have_transport || strcmp(transport, "kernel")) {
		*why = REC_NOT_KERNEL;
		return -1;
	}
	if (strchr(msg, '\n')) {
		*why = "journal MESSAGE of more than one line";
		return -1;
	}
	return record_parse(msg, r, why);
bad:
	if (!strstr(line, "tpe"))
		return 0;
	*why = "journal JSON that cannot be read";
	return -1;
}

int record_parse(const char *line, struct record *r, const char **why)
{
	const char *p, *lsm;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	if (*line == '{')
		return journal_json(line, r, why);
	if ((p = strstr(line, "tpe: would deny ")) ||
	    (p = strstr(line, "tpe: denied "))) {
		if (!message_start(line, p)) {
			*why = "\"tpe: \" not at the start of a kernel message";
			return -1;
		}
		return parse_kernel_log(p + 5, r, why);
	}
	for (lsm = line; (lsm = strstr(lsm, "lsm=tpe ")); lsm++)
		if (lsm == line || lsm[-1] == ' ')
			return audit_record(line, lsm, r, why);
	return 0;
}
