// SPDX-License-Identifier: GPL-2.0
/*
 * One audit record -> one TPE denial. tpe-suggest takes records only from
 * channels that only the kernel writes: the audit records auditd wrote to
 * its log (audit.log, `ausearch --raw`), and those journald received on
 * the kernel's audit socket (input.c). Both carry the record's text as
 * the kernel wrote it, one record to a line:
 *
 *   type=AVC msg=audit(S.MS:N): lsm=tpe op=exec enforcing=0
 *     check=K subj_euid=E dev=MA:MI ino=I dir_ino=D ppid=.. pid=P
 *     auid=.. uid=U .. comm=C exe=X .. path=PATH tclass=file res=1
 *
 * libauparse splits it into fields; no field order is pinned, but each
 * field is the kernel's: a number is digits, comm= and path= are quoted
 * (0x21..0x7e, no quote) or upper-case hex, and a field given twice is
 * refused. The kernel sums up the denials of a user it left out of audit
 * as "lsm=tpe op=suppressed tclass=file uid=U denials=N": a count, with
 * no object. Only type AVC records whose first field is lsm=tpe are TPE's:
 * a USER_* record carries text a privileged program chose, and no
 * program can send an AVC record.
 *
 * Kernel-log text is no such channel: overlayfs prints a mount option a
 * user chose, newlines and carriage returns included, and exec prints a
 * program's name, so any user can make dmesg, `journalctl -k`, kern.log
 * or a console show a line that reads like TPE's. A line of an input that
 * is not an audit record makes record_line() say what it looks like, and
 * the whole input is refused (input.c).
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <linux/audit.h>
#include <stdlib.h>
#include <string.h>

#include <auparse.h>

#include "suggest.h"

const char REC_INTERPRETED[] =
	"ausearch -i text: names and IDs interpreted; use ausearch --raw or audit.log";

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
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * An audit untrusted string as the kernel writes it: "quoted" (0x21..0x7e,
 * no quote) or upper-case HEX with no NUL byte. Only the form is checked:
 * auparse decodes it.
 */
static bool audit_string(const char *v)
{
	size_t n = strlen(v), i;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		for (i = 1; i < n - 1; i++)
			if (v[i] < 0x21 || v[i] > 0x7e || v[i] == '"')
				return false;
		return true;
	}
	if (!n || n % 2)
		return false;
	for (i = 0; i < n; i += 2)
		if (hexval(v[i]) < 0 || hexval(v[i + 1]) < 0 ||
		    !(hexval(v[i]) | hexval(v[i + 1])))
			return false;
	return true;
}

/* Decimal digits only, no sign, at most MAX. */
static int number(const char *s, unsigned long long max,
		  unsigned long long *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
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

/* The fields a denial is read from. */
enum field { F_LSM, F_OP, F_ENFORCING, F_CHECK, F_SUBJ_EUID, F_DEV, F_INO,
	     F_DIR_INO, F_PID, F_UID, F_COMM, F_PATH, F_TCLASS, F_RES,
	     F_DENIALS, NF };
static const char *const field_names[NF] = {
	"lsm", "op", "enforcing", "check", "subj_euid", "dev", "ino",
	"dir_ino", "pid", "uid", "comm", "path", "tclass", "res", "denials",
};

/* Each field's raw value; -1 if one is given twice. */
static int fields_of(auparse_state_t *au, const char *v[NF],
		     const char **first)
{
	memset(v, 0, NF * sizeof(*v));
	*first = NULL;
	if (auparse_first_field(au) <= 0)
		return 0;
	do {
		const char *name = auparse_get_field_name(au);

		/* auditd's node= and type= come before the record's own */
		if (!name || !strcmp(name, "node") || !strcmp(name, "type"))
			continue;
		if (!*first)
			*first = name;
		for (int k = 0; k < NF; k++) {
			if (strcmp(name, field_names[k]))
				continue;
			if (v[k])
				return -1;
			v[k] = auparse_get_field_str(au);
		}
	} while (auparse_next_field(au) > 0);
	return 0;
}

/* The kernel's count of one user's denials it did not audit. */
static int summary_of(const char *v[NF], struct record *r, const char **why)
{
	for (int k = 0; k < NF; k++) {
		bool wanted = k == F_LSM || k == F_OP || k == F_TCLASS ||
			      k == F_UID || k == F_DENIALS;

		if (!v[k] != !wanted) {
			*why = "op=suppressed with other fields than the kernel's (lsm op tclass uid denials)";
			return -1;
		}
	}
	if (strcmp(v[F_TCLASS], "file") || u32_of(v[F_UID], &r->uid) ||
	    u32_of(v[F_DENIALS], &r->denials) || !r->denials) {
		*why = "op=suppressed: tclass= not file, or uid= or denials= not a number";
		return -1;
	}
	strcpy(r->op, "suppressed");
	return 1;
}

/* Field K decoded by auparse into OUT; -1 if it does not fit. */
static int decoded(auparse_state_t *au, enum field k, char *out, size_t size)
{
	const char *s;

	if (auparse_first_field(au) <= 0 ||
	    !auparse_find_field(au, field_names[k]))
		return -1;
	s = auparse_interpret_field(au);
	if (!s || strlen(s) >= size)
		return -1;
	strcpy(out, s);
	return 0;
}

int record_from_audit(auparse_state_t *au, struct record *r,
		      const char **why)
{
	const char *v[NF], *first;
	unsigned long long n;
	uint32_t enforcing;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	if (auparse_get_type(au) != AUDIT_AVC)
		return 0;
	if (fields_of(au, v, &first)) {
		if (v[F_LSM] && !strcmp(v[F_LSM], "tpe")) {
			*why = "a field given twice";
			return -1;
		}
		return 0;
	}
	/* AppArmor and SELinux write AVC records too. */
	if (!first || strcmp(first, "lsm") || strcmp(v[F_LSM], "tpe"))
		return 0;
	if (v[F_OP] && !strcmp(v[F_OP], "suppressed"))
		return summary_of(v, r, why);
	for (int k = 0; k < F_DENIALS; k++)
		if (!v[k]) {
			*why = "a field missing (not the kernel's record: lsm op enforcing check subj_euid dev ino dir_ino pid uid comm path tclass res)";
			return -1;
		}
	if (strlen(v[F_OP]) >= sizeof(r->op) || !known_op(v[F_OP]) ||
	    !check_of(v[F_CHECK], &r->check) || strcmp(v[F_TCLASS], "file") ||
	    v[F_DENIALS]) {
		*why = "unknown op=, check= or tclass=, or denials= in a denial";
		return -1;
	}
	strcpy(r->op, v[F_OP]);
	if (u32_of(v[F_ENFORCING], &enforcing) || enforcing > 1 ||
	    strcmp(v[F_RES], enforcing ? "0" : "1")) {
		*why = "enforcing= and res= do not agree (1 and 0, or 0 and 1)";
		return -1;
	}
	r->enforced = enforcing;
	if (u32_of(v[F_SUBJ_EUID], &r->euid) || dev_of(v[F_DEV], r) ||
	    u64_of(v[F_INO], &r->ino) || u64_of(v[F_DIR_INO], &r->dir_ino) ||
	    u32_of(v[F_UID], &r->uid) || number(v[F_PID], INT_MAX, &n) || !n) {
		*why = "subj_euid=, dev=, ino=, dir_ino=, pid= or uid= not a number";
		return -1;
	}
	r->pid = (int)n;
	if (!audit_string(v[F_COMM]) ||
	    decoded(au, F_COMM, r->comm, sizeof(r->comm))) {
		*why = "comm= neither quoted nor hex as the kernel writes it";
		return -1;
	}
	if (!audit_string(v[F_PATH]) ||
	    decoded(au, F_PATH, r->path, sizeof(r->path)) ||
	    r->path[0] != '/') {
		*why = "path= not an absolute path, quoted or hex as the kernel writes it";
		return -1;
	}
	r->time = (uint64_t)auparse_get_time(au);
	r->serial = auparse_get_serial(au);
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

/* What a line that is no audit record looks like, for the refusal. */
static const char *not_audit(const char *line)
{
	const char *p = line + strspn(line, " \t");

	if (*p == '{')
		return REC_JSON;
	if (!strncmp(p, "----", 4) || !strncmp(p, "time->", 6))
		return REC_AUSEARCH;
	if (*p == '[' || strstr(line, "kernel: ") || strstr(line, "tpe: ") ||
	    strstr(line, "audit: type="))
		return REC_KERNEL_LOG;
	return REC_NOT_AUDIT;
}

const char REC_KERNEL_LOG[] =
	"kernel-log text (dmesg, journalctl -k, kern.log, a console capture) is refused: any user can make the kernel print a line that reads like TPE's (overlayfs prints her mount options, newlines and all; exec prints a program's name)";
const char REC_JSON[] =
	"journalctl JSON is refused: it is journal text, and its kernel-transport lines are kernel-log text any user can make look like TPE's";
const char REC_AUSEARCH[] =
	"ausearch output without --raw is refused: use ausearch --raw";
const char REC_NOT_AUDIT[] = "not an audit record";

int record_line(const char *line, struct record *r, const char **why)
{
	const char *p = line, *type, *body;
	auparse_state_t *au;
	char *buf;
	size_t len;
	int rc;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	len = strcspn(line, "\n");
	if (!len || line[strspn(line, " \t\r\n")] == '\0')
		return 0;
	/* auditd's node= name first, when it is set to add one */
	if (!strncmp(p, "node=", 5)) {
		p += 5 + strcspn(p + 5, " \n");
		if (*p++ != ' ') {
			*why = not_audit(line);
			return REC_REFUSED;
		}
	}
	if (strncmp(p, "type=", 5)) {
		*why = not_audit(line);
		return REC_REFUSED;
	}
	type = p + 5;
	p = type + strcspn(type, " \n");
	if (strncmp(p, " msg=", 5)) {
		*why = REC_NOT_AUDIT;
		return REC_REFUSED;
	}
	body = raw_stamp(p + 5);
	if (!body) {
		*why = strncmp(p + 5, "audit(", 6) ? REC_NOT_AUDIT :
		       REC_INTERPRETED;
		return REC_REFUSED;
	}
	/* auparse for the AVC records that may be TPE's; others are not */
	if (p - type != 3 || strncmp(type, "AVC", 3) ||
	    strncmp(body, "lsm=tpe ", 8))
		return 0;
	buf = malloc(len + 2);
	if (!buf) {
		*why = "out of memory";
		return -1;
	}
	memcpy(buf, line, len);
	memcpy(buf + len, "\n", 2);
	au = auparse_init(AUSOURCE_BUFFER, buf);
	if (!au) {
		free(buf);
		*why = "libauparse cannot start";
		return -1;
	}
	auparse_set_escape_mode(au, AUPARSE_ESC_RAW);
	rc = auparse_next_event(au) > 0 ? record_from_audit(au, r, why) : -1;
	if (rc < 0 && !*why)
		*why = "libauparse cannot read it";
	auparse_destroy(au);
	free(buf);
	return rc;
}
