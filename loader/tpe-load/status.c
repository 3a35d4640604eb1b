// SPDX-License-Identifier: GPL-2.0
/*
 * --status: what is live. The mode (off when the kernel did not start tpe,
 * see /sys/kernel/security/lsm), the live policy's flags and list sizes,
 * the counters of tpe/stats as the kernel names them, and whether the
 * config builds the very policy that is live, byte for byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "conf.h"
#include "tpe-load.h"

/* "name value" lines, in the kernel's order; 0 or -1 on a bad line. */
int status_parse_stats(const char *text, struct tpe_status *s)
{
	struct stat_counter c, *more;
	int used;

	while (*text) {
		if (sscanf(text, "%63s %llu%n", c.name, &c.value, &used) != 2)
			return -1;
		text += used;
		if (*text != '\n' && *text)
			return -1;
		text += !!*text;
		more = realloc(s->counters, (s->ncounters + 1) * sizeof(c));
		if (!more)
			return -1;
		s->counters = more;
		s->counters[s->ncounters++] = c;
	}
	return 0;
}

static void flags_words(FILE *f, uint32_t flags)
{
	size_t i;
	int any = 0;

	for (i = 0; i < nflag_keys; i++)
		if (flags & flag_keys[i].flag) {
			fprintf(f, "%s%s", any ? " " : "", flag_keys[i].key);
			any = 1;
		}
	if (!any)
		fputs("(none)", f);
}

/* The files the config was read from, ", "-separated. */
static void files_words(FILE *f, const struct tpe_status *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		fprintf(f, "%s%s", i ? ", " : "", s->files[i]);
}

/*
 * One "key: value" line each. Keys are written as the kernel names its
 * counters and --json names everything: lower case, words joined by "_".
 */
void status_write(FILE *f, const struct tpe_status *s)
{
	size_t i;

	fprintf(f, "mode: %s\n", s->mode);
	if (!s->have_policy)
		return;
	fputs("flags: ", f);
	flags_words(f, s->live.flags);
	fprintf(f, "\ntrusted_users: %zu\ntrusted_groups: %zu\n",
		s->live.users.n, s->live.groups.n);
	for (i = 0; i < s->ncounters; i++)
		fprintf(f, "%s: %llu\n", s->counters[i].name,
			s->counters[i].value);
	if (!strcmp(s->sync, "in sync")) {
		fprintf(f, "config: in sync with %s\n", status_config_name(s));
	} else if (!strcmp(s->sync, "stale")) {
		fputs("config: stale: the config and its drop-ins build "
		      "another policy than the live one (read: ", f);
		files_words(f, s);
		fputs(")\n", f);
	} else {
		fprintf(f, "config: invalid: %s\n", s->config_err);
	}
}

/* conf_load()'s trace, "FILE: read" lines, into s->files. */
static void keep_files(struct tpe_status *s, char *trace)
{
	char *line, *save, **more;
	size_t len;

	for (line = strtok_r(trace, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		len = strlen(line);
		if (len < 6 || strcmp(line + len - 6, ": read"))
			continue;
		more = realloc(s->files, (s->nfiles + 1) * sizeof(*more));
		if (!more)
			return;
		s->files = more;
		s->files[s->nfiles] = strndup(line, len - 6);
		if (s->files[s->nfiles])
			s->nfiles++;
	}
}

/* Does the config build the live blob? Sets sync, config_err, files. */
static void compare_config(struct tpe_status *s, const uint8_t *live,
			   size_t live_len)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid() };
	struct tpe_policy p;
	uint8_t *blob;
	char *trace = NULL;
	size_t len, tlen;
	int files;

	s->sync = "invalid";
	co.trace = open_memstream(&trace, &tlen);
	files = conf_load(s->config, &co, &p, s->config_err);
	if (co.trace) {
		fclose(co.trace);
		keep_files(s, trace);
		free(trace);
	}
	if (files < 0)
		return;
	if (policy_encode(&p, &blob, &len, s->config_err) == 0) {
		s->sync = len == live_len && !memcmp(blob, live, len) ?
			  "in sync" : "stale";
		free(blob);
	}
	policy_free(&p);
}

/*
 * Fills s; returns 0, or -1 with err set when tpe is not active (s->mode
 * "off"), cannot be seen (securityfs not mounted: "unknown"), or the live
 * policy or the counters cannot be read. *errnum: the errno behind it, or
 * 0 (ENOENT: tpe absent or unknown).
 */
int status_gather(const char *config, struct tpe_status *s, char err[ERRLEN],
		  int *errnum)
{
	const char *path = securityfs_stats();
	enum tpe_presence pr;
	uint8_t *blob, *stats;
	size_t len, slen;
	int e;

	*s = (struct tpe_status){ .config = config, .mode = "off" };
	*errnum = 0;
	pr = tpe_presence(&e);
	if (pr != TPE_ACTIVE) {
		tpe_absent_words(pr, e, err);
		if (pr == TPE_UNKNOWN)
			s->mode = "unknown";
		*errnum = ENOENT;
		return -1;
	}
	s->mode = "unknown";
	*errnum = read_live(&s->live, &blob, &len, err);
	if (*errnum == EACCES)
		snprintf(err + strlen(err), ERRLEN - strlen(err), "; judge by "
			 "the config instead: tpe-explain -c "
			 TPE_CONF_PATH " PATH");
	if (*errnum)
		return -1;
	s->have_policy = 1;
	s->mode = s->live.flags & TPE_POLICY_ENFORCE ? "enforcing" :
		  "permissive";
	compare_config(s, blob, len);
	free(blob);
	e = read_all(path, &stats, &slen);
	if (e || status_parse_stats((char *)stats, s)) {
		*errnum = e;
		snprintf(err, ERRLEN, "%s: %s", path,
			 e ? errno_words(e) : "unreadable counters");
		if (!e)
			free(stats);
		return -1;
	}
	free(stats);
	return 0;
}

void status_free(struct tpe_status *s)
{
	policy_free(&s->live);
	free(s->counters);
	s->counters = NULL;
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	s->files = NULL;
	s->nfiles = 0;
}
