// SPDX-License-Identifier: GPL-2.0
/*
 * Where TPE's records come from: only channels the kernel alone writes.
 *
 *   the journal   systemd-journald listens on the kernel's audit multicast
 *                 socket (systemd-journald-audit.socket) and stores each
 *                 record with _TRANSPORT=audit and _AUDIT_TYPE= from the
 *                 netlink header, after checking that the kernel sent it;
 *                 fields starting with "_" are journald's own, never a
 *                 client's. A stock Debian 12 has it without auditd.
 *   audit.log     what auditd wrote (also `ausearch --raw` of it): one
 *                 record per line, a newline in a record made a space.
 *
 * Each record goes through record_line(), one parser. An input that has
 * a line that is no audit record is refused whole, saying what it looks
 * like (kernel-log text, journal JSON, ausearch -i): read it again from
 * one of the channels above.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include "suggest.h"

/* Records named one by one on stderr; the rest are only counted. */
#define SKIP_LINES	10

static void skip(struct suggest *s, const char *name, size_t at,
		 const char *what, const char *why)
{
	if (suggest_skipped(s) < SKIP_LINES)
		fprintf(stderr, "%s:%zu: skipped TPE %s: %s\n", name, at, what,
			why);
	suggest_skip(s, why);
}

static const char HOW[] =
	"read TPE's audit records instead: tpe-suggest with no LOG reads the journal's (journald takes them from the kernel's audit socket), or name auditd's /var/log/audit/audit.log";

int input_text(FILE *in, const char *name, struct suggest *s)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int bad = 0;

	while (getline(&line, &cap, in) >= 0) {
		struct record r;
		const char *why;
		int rc = record_line(line, &r, &why);

		lineno++;
		if (rc == REC_REFUSED) {
			fprintf(stderr, "tpe-suggest: %s:%zu: %s\n", name, lineno,
				why);
			if (why != REC_INTERPRETED && why != REC_AUSEARCH)
				fprintf(stderr, "tpe-suggest: %s\n", HOW);
			bad = 1;
			break;
		}
		if (rc < 0) {
			skip(s, name, lineno, "record", why);
		} else if (rc > 0 && suggest_add(s, &r)) {
			fprintf(stderr, "tpe-suggest: %s:%zu: out of memory\n",
				name, lineno);
			bad = 1;
			break;
		}
	}
	if (!bad && ferror(in)) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", name, strerror(errno));
		bad = 1;
	}
	free(line);
	return bad;
}

/* FIELD=VALUE of the current entry, VALUE NUL-ended into OUT. */
static int journal_field(sd_journal *j, const char *field, char *out,
			 size_t size)
{
	const void *d;
	size_t len, k = strlen(field);

	if (sd_journal_get_data(j, field, &d, &len) < 0 || len <= k ||
	    len - k - 1 >= size)
		return -1;
	memcpy(out, (const char *)d + k + 1, len - k - 1);
	out[len - k - 1] = '\0';
	return 0;
}

/*
 * The entry as auditd would have written it: "type=AVC msg=audit(S.MS:ID):
 * " and the record, which journald keeps after "AVC " in MESSAGE. Control
 * bytes are in no record of TPE's: such an entry is skipped.
 */
static int journal_line(sd_journal *j, char **line, const char **why)
{
	char transport[16], type[16], id[24], stamp[24];
	const void *d;
	size_t len, n;
	uint64_t usec;
	const char *msg;

	*line = NULL;
	if (journal_field(j, "_TRANSPORT", transport, sizeof(transport)) ||
	    strcmp(transport, "audit") ||
	    journal_field(j, "_AUDIT_TYPE", type, sizeof(type)) ||
	    strcmp(type, "1400"))
		return 0;
	if (sd_journal_get_data(j, "MESSAGE", &d, &len) < 0 || len < 8)
		return 0;
	msg = (const char *)d + 8;
	len -= 8;
	if (len < 4 || strncmp(msg, "AVC ", 4))
		return 0;
	msg += 4;
	len -= 4;
	if (len < 8 || strncmp(msg, "lsm=tpe ", 8))
		return 0;
	for (n = 0; n < len; n++)
		if ((unsigned char)msg[n] < 0x20 || msg[n] == 0x7f) {
			*why = "journal MESSAGE with a control byte";
			return -1;
		}
	if (journal_field(j, "_AUDIT_ID", id, sizeof(id)) ||
	    id[strspn(id, "0123456789")] || !id[0] ||
	    journal_field(j, "_SOURCE_REALTIME_TIMESTAMP", stamp,
			  sizeof(stamp)) ||
	    stamp[strspn(stamp, "0123456789")] || !stamp[0]) {
		*why = "journal entry without _AUDIT_ID or its time";
		return -1;
	}
	usec = strtoull(stamp, NULL, 10);
	if (asprintf(line, "type=AVC msg=audit(%" PRIu64 ".%03" PRIu64 ":%s): %.*s\n",
		     usec / 1000000, usec / 1000 % 1000, id, (int)len,
		     msg) < 0) {
		*line = NULL;
		*why = "out of memory";
		return -1;
	}
	return 1;
}

int input_journal(sd_journal *j, const char *name, struct suggest *s)
{
	size_t n = 0;
	int rc;

	/* No entry is cut: a record is at most a few pages. */
	sd_journal_set_data_threshold(j, 0);
	if ((rc = sd_journal_add_match(j, "_TRANSPORT=audit", 0)) < 0 ||
	    (rc = sd_journal_add_match(j, "_AUDIT_TYPE=1400", 0)) < 0) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", name, strerror(-rc));
		return 1;
	}
	SD_JOURNAL_FOREACH(j) {
		struct record r;
		const char *why = NULL;
		char *line;

		n++;
		rc = journal_line(j, &line, &why);
		if (rc > 0) {
			rc = record_line(line, &r, &why);
			free(line);
		}
		if (rc < 0) {
			skip(s, name, n, "journal entry", why);
		} else if (rc > 0 && suggest_add(s, &r)) {
			fprintf(stderr, "tpe-suggest: %s: out of memory\n", name);
			return 1;
		}
	}
	return 0;
}

/*
 * Whom an input may belong to: root, or the caller. Standard input may
 * also be a pipe or a terminal, which the caller made (ausearch --raw |);
 * a named FIFO is whoever made it's.
 */
static int owned_ok(int fd, const char *name, uid_t caller)
{
	struct stat st;

	if (fstat(fd, &st)) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", name, strerror(errno));
		return -1;
	}
	if (caller == (uid_t)-1 ||
	    (fd == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))))
		return 0;
	if ((st.st_uid && st.st_uid != caller) || (st.st_mode & 022)) {
		fprintf(stderr, "tpe-suggest: %s: owned by uid %u, mode %04o: a file that %s may write is no record of the kernel's; refusing it\n",
			name, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
			st.st_mode & 022 ? "others" : "a user");
		return -1;
	}
	return 0;
}

static int read_journal_fd(int fd, bool dir, const char *name,
			   struct suggest *s)
{
	sd_journal *j = NULL;
	int rc = dir ? sd_journal_open_directory_fd(&j, fd, 0) :
		       sd_journal_open_files_fd(&j, &fd, 1, 0);

	if (rc < 0) {
		fprintf(stderr, "tpe-suggest: %s: not a journal: %s\n", name,
			strerror(-rc));
		return 1;
	}
	rc = input_journal(j, name, s);
	sd_journal_close(j);
	return rc;
}

int input_read(const char *log, uid_t caller, struct suggest *s)
{
	static const char magic[8] = "LPKSHHRH";	/* a journal file */
	char head[8];
	struct stat st;
	FILE *in;
	int fd, rc;

	if (!log) {
		sd_journal *j;

		rc = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY |
				     SD_JOURNAL_SYSTEM);
		if (rc < 0) {
			fprintf(stderr, "tpe-suggest: the journal: %s\n",
				strerror(-rc));
			return 1;
		}
		suggest_source(s, "the journal's audit records");
		if (!sd_journal_has_runtime_files(j) &&
		    !sd_journal_has_persistent_files(j))
			fprintf(stderr, "tpe-suggest: no system journal file could be read here (run as root, or in group systemd-journal or adm)\n");
		rc = input_journal(j, "journal", s);
		sd_journal_close(j);
		return rc;
	}
	if (!strcmp(log, "-")) {
		if (owned_ok(0, "standard input", caller))
			return 1;
		suggest_source(s, "standard input");
		return input_text(stdin, "stdin", s);
	}
	/* not blocked by a FIFO before it is checked */
	fd = open(log, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", log, strerror(errno));
		return 1;
	}
	if (owned_ok(fd, log, caller) || fstat(fd, &st) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		close(fd);
		return 1;
	}
	suggest_source(s, log);
	if (S_ISDIR(st.st_mode) ||
	    (pread(fd, head, sizeof(head), 0) == sizeof(head) &&
	     !memcmp(head, magic, sizeof(magic)))) {
		rc = read_journal_fd(fd, S_ISDIR(st.st_mode), log, s);
		close(fd);
		return rc;
	}
	in = fdopen(fd, "r");
	if (!in) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", log, strerror(errno));
		close(fd);
		return 1;
	}
	rc = input_text(in, log, s);
	fclose(in);
	return rc;
}
