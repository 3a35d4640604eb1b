// SPDX-License-Identifier: GPL-2.0
/*
 * One line of a log -> one TPE denial. Two forms (module/audit.c):
 *
 *   kernel log (dmesg, journalctl -k, /var/log/kern.log):
 *     tpe: would deny exec of PATH by uid=U euid=E pid=P comm=COMM: check=C
 *   audit (audit.log, ausearch -m AVC, raw or -i):
 *     type=AVC msg=audit(...): lsm=tpe op=exec action=permissive check=C
 *     path="PATH" tclass=file subj_euid=E ... pid=P ... comm="COMM" ...
 *
 * The kernel log escapes PATH and COMM with %*pE: printable bytes as they
 * are (a backslash too), others as \n, \t, ... or \NNN; dmesg and the
 * journal add \xHH. Audit quotes a value, or hex-encodes it when it has a
 * space, a quote or a byte outside 0x21..0x7e; ausearch -i prints it
 * decoded (spaces as they are, control bytes as \ooo) and turns
 * action= into words, so the verdict is read from res= instead. Only the audit form is unambiguous: a file really named "a\nb"
 * reads back from the kernel log as a newline.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

static const char *const ops[] = { "exec", "mmap", "mprotect" };

static bool known_op(const char *op)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static bool word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && s[i] != '-')
			return false;
	return true;
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

/* %*pE (and the \xHH of dmesg and journald) back to bytes. */
static int unescape(const char *s, size_t n, char *out, size_t size)
{
	static const char from[] = "nrtvfae", to[] = "\n\r\t\v\f\a\033";
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		const char *e;

		if (c == '\\' && i + 3 < n && s[i + 1] == 'x' &&
		    hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
			c = (char)(hexval(s[i + 2]) << 4 | hexval(s[i + 3]));
			i += 3;
		} else if (c == '\\' && i + 3 < n &&
			   s[i + 1] >= '0' && s[i + 1] <= '3' &&
			   s[i + 2] >= '0' && s[i + 2] <= '7' &&
			   s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') << 6 |
				   (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
			i += 3;
		} else if (c == '\\' && i + 1 < n && s[i + 1] &&
			   (e = strchr(from, s[i + 1]))) {
			c = to[e - from];
			i++;
		}
		if (o + 1 >= size)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

static int parse_kernel_log(const char *p, bool enforced, struct record *r,
			    const char **why)
{
	const char *of = strstr(p, " of "), *chk, *by;
	size_t end = strlen(p);

	r->enforced = enforced;
	while (end && (p[end - 1] == '\n' || p[end - 1] == '\r'))
		end--;
	if (!of || (size_t)(of - p) >= sizeof(r->op)) {
		*why = "no \"OP of PATH\"";
		return -1;
	}
	memcpy(r->op, p, of - p);
	r->op[of - p] = '\0';
	if (!known_op(r->op)) {
		*why = "unknown operation";
		return -1;
	}
	/* The line ends in ": check=WORD"; the last one is the real one. */
	for (chk = NULL, by = of; (by = strstr(by, ": check=")); by++)
		chk = by;
	if (!chk || !word(chk + 8, p + end - chk - 8) ||
	    (size_t)(p + end - chk - 8) >= sizeof(r->check)) {
		*why = "no \": check=WORD\" at the end";
		return -1;
	}
	memcpy(r->check, chk + 8, p + end - chk - 8);
	r->check[p + end - chk - 8] = '\0';
	/*
	 * PATH may contain " by uid=" too: take the rightmost one whose tail
	 * reads as numbers and a command name.
	 */
	for (by = chk; by > of + 3; by--) {
		unsigned uid, euid;
		int pid, n = -1;

		if (strncmp(by, " by uid=", 8))
			continue;
		if (sscanf(by, " by uid=%u euid=%u pid=%d comm=%n", &uid,
			   &euid, &pid, &n) != 3 || n < 0 || by + n > chk)
			continue;
		r->euid = euid;
		r->pid = pid;
		if (unescape(by + n, chk - by - n, r->comm, sizeof(r->comm)) ||
		    unescape(of + 4, by - of - 4, r->path, sizeof(r->path))) {
			*why = "path or command too long";
			return -1;
		}
		return 1;
	}
	*why = "no \"by uid=U euid=E pid=P comm=COMM\"";
	return -1;
}

/*
 * The value of KEY in an audit record, decoded: "quoted" as it is, hex
 * (an unquoted even run of 0-9A-F, for path and comm) as bytes, else up to
 * the next space.
 */
static int audit_value(const char *rec, const char *key, char *out,
		       size_t size)
{
	/* Only the strings a user chose are ever hex. */
	bool may_be_hex = !strcmp(key, "path") || !strcmp(key, "comm");
	size_t klen = strlen(key);

	for (const char *p = rec; (p = strstr(p, key)); p += klen) {
		const char *v = p + klen, *e;
		size_t n, i;

		if ((p != rec && p[-1] != ' ') || *v != '=')
			continue;
		v++;
		if (*v == '"') {
			e = strchr(++v, '"');
			if (!e)
				return -1;
			n = e - v;
			if (n >= size)
				return -1;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		n = strcspn(v, " ");
		for (i = 0; i < n && isxdigit((unsigned char)v[i]) &&
			    !islower((unsigned char)v[i]); i++)
			;
		if (may_be_hex && i == n && n % 2 == 0 && n) {
			if (n / 2 >= size)
				return -1;
			for (i = 0; i < n; i += 2)
				out[i / 2] = (char)(hexval(v[i]) << 4 |
						    hexval(v[i + 1]));
			out[n / 2] = '\0';
			return 0;
		}
		/* ausearch -i: decoded, spaces and all, \ooo for the rest. */
		if (may_be_hex && (e = strstr(v, !strcmp(key, "path") ?
					      " tclass=" : " exe=")))
			n = e - v;
		return unescape(v, n, out, size);
	}
	return -1;
}

static int parse_audit(const char *rec, struct record *r, const char **why)
{
	char num[32], *end;
	unsigned long v;

	if (audit_value(rec, "op", r->op, sizeof(r->op)) || !known_op(r->op)) {
		*why = "no op=exec|mmap|mprotect";
		return -1;
	}
	/* res=0 denied, 1 allowed (permissive); ausearch -i: no, yes. */
	if (audit_value(rec, "res", num, sizeof(num)) ||
	    (strcmp(num, "0") && strcmp(num, "1") && strcmp(num, "no") &&
	     strcmp(num, "yes"))) {
		*why = "no res=0|1";
		return -1;
	}
	r->enforced = !strcmp(num, "0") || !strcmp(num, "no");
	if (audit_value(rec, "check", r->check, sizeof(r->check)) ||
	    !word(r->check, strlen(r->check))) {
		*why = "no check=";
		return -1;
	}
	if (audit_value(rec, "path", r->path, sizeof(r->path)) ||
	    r->path[0] != '/') {
		*why = "no path=";
		return -1;
	}
	if (audit_value(rec, "subj_euid", num, sizeof(num)) ||
	    (v = strtoul(num, &end, 10), *end || end == num) ||
	    v > TPE_ID_MAX) {
		*why = "no numeric subj_euid=";
		return -1;
	}
	r->euid = (uint32_t)v;
	if (audit_value(rec, "pid", num, sizeof(num)) ||
	    (v = strtoul(num, &end, 10), *end || end == num)) {
		*why = "no pid=";
		return -1;
	}
	r->pid = (int)v;
	if (audit_value(rec, "comm", r->comm, sizeof(r->comm)))
		strcpy(r->comm, "?");
	return 1;
}

int record_parse(const char *line, struct record *r, const char **why)
{
	char rec[2 * REC_PATH_MAX + 1024];
	const char *p;
	size_t n;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	if ((p = strstr(line, "tpe: would deny ")))
		return parse_kernel_log(p + 16, false, r, why);
	if ((p = strstr(line, "tpe: denied ")))
		return parse_kernel_log(p + 12, true, r, why);
	p = strstr(line, " lsm=tpe ");
	if (!p || strstr(p, " op=policy_write "))
		return 0;
	/* auditd's enriched format adds names after a 0x1d. */
	n = strcspn(p, "\x1d\r\n");
	if (n >= sizeof(rec)) {
		*why = "record too long";
		return -1;
	}
	memcpy(rec, p + 1, n - 1);
	rec[n - 1] = '\0';
	return parse_audit(rec, r, why);
}
