// SPDX-License-Identifier: GPL-2.0
/*
 * --status: what is live. The mode (off when the kernel did not start tpe,
 * see /sys/kernel/security/lsm), the live policy's flags and list sizes,
 * the counters of tpe/stats as the kernel names them, and whether the
 * config builds the very policy that is live, byte for byte.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tpe.h>

#include "loader.h"

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

void status_write(FILE *f, const struct tpe_status *s)
{
	size_t i;

	fprintf(f, "mode: %s\n", s->mode);
	if (!s->have_policy)
		return;
	fputs("flags: ", f);
	flags_words(f, s->live.flags);
	fprintf(f, "\ntrusted users: %zu\ntrusted groups: %zu\n",
		s->live.users.n, s->live.groups.n);
	for (i = 0; i < s->ncounters; i++)
		fprintf(f, "%s: %llu\n", s->counters[i].name,
			s->counters[i].value);
	if (!strcmp(s->sync, "in sync"))
		fprintf(f, "config: in sync with %s\n", s->config);
	else if (!strcmp(s->sync, "stale"))
		fprintf(f, "config: stale: %s changed since the last load\n",
			s->config);
	else
		fprintf(f, "config: invalid: %s\n", s->config_err);
}

void status_json(FILE *f, const struct tpe_status *s)
{
	size_t i;

	fputs("{\"mode\": ", f);
	json_string(f, s->mode);
	if (!s->have_policy) {
		fputs("}\n", f);
		return;
	}
	fputs(", \"flags\": {", f);
	for (i = 0; i < nflag_keys; i++)
		fprintf(f, "%s\"%s\": %s", i ? ", " : "", flag_keys[i].key,
			s->live.flags & flag_keys[i].flag ? "true" : "false");
	fprintf(f, "}, \"trusted_users\": %zu, \"trusted_groups\": %zu, "
		"\"stats\": {", s->live.users.n, s->live.groups.n);
	for (i = 0; i < s->ncounters; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, s->counters[i].name);
		fprintf(f, ": %llu", s->counters[i].value);
	}
	fputs("}, \"config\": {\"path\": ", f);
	json_string(f, s->config);
	fputs(", \"state\": ", f);
	json_string(f, s->sync);
	if (s->config_err[0]) {
		fputs(", \"error\": ", f);
		json_string(f, s->config_err);
	}
	fputs("}}\n", f);
}

static int tpe_is_active(void)
{
	char *path = kernel_lsm_path(), *tok, *save;
	uint8_t *list = NULL;
	size_t len;
	int on = 0;

	if (path && !read_all(path, &list, &len))
		for (tok = strtok_r((char *)list, ",\n", &save); tok && !on;
		     tok = strtok_r(NULL, ",\n", &save))
			on = !strcmp(tok, "tpe");
	free(list);
	free(path);
	return on;
}

/* Does the config build the live blob? Sets sync and config_err. */
static void compare_config(struct tpe_status *s, const uint8_t *live,
			   size_t live_len)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid() };
	struct tpe_policy p;
	uint8_t *blob;
	size_t len;

	s->sync = "invalid";
	if (conf_load(s->config, &co, &p, s->config_err) < 0)
		return;
	if (policy_encode(&p, &blob, &len, s->config_err) == 0) {
		s->sync = len == live_len && !memcmp(blob, live, len) ?
			  "in sync" : "stale";
		free(blob);
	}
	policy_free(&p);
}

/*
 * Fills s; returns 0, or -1 with err set when the live policy or the
 * counters cannot be read (s->mode says "off" when tpe is not running).
 */
int status_gather(const char *config, struct tpe_status *s, char err[ERRLEN])
{
	const char *path = securityfs_stats();
	uint8_t *blob, *stats;
	size_t len, slen;
	int e;

	*s = (struct tpe_status){ .config = config, .mode = "off" };
	if (!tpe_is_active()) {
		snprintf(err, ERRLEN, "tpe is not an active LSM (not in "
			 "securityfs lsm)");
		return -1;
	}
	if (read_policy(securityfs_policy(), &s->live, &blob, &len,
			err))
		return -1;
	s->have_policy = 1;
	s->mode = s->live.flags & TPE_POLICY_ENFORCE ? "enforcing" :
		  "permissive";
	compare_config(s, blob, len);
	free(blob);
	e = read_all(path, &stats, &slen);
	if (e || status_parse_stats((char *)stats, s)) {
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
}
