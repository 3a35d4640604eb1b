// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-suggest: read TPE's audit records (a permissive roll-out's "would
 * deny" records, or real denials) from channels only the kernel writes,
 * sort them into what TPE exists to stop and what looks like a workload,
 * and propose the narrowest fix for each. It changes nothing and trusts
 * nobody by itself: a person names each act (--apply --fix, --apply
 * --copy, --drop-in --trust=USER), and --apply takes it on descriptors
 * whose dev:ino it checked (object.c), so no text a user chose ever
 * reaches a shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suggest.h"

enum { OK, BAD_INPUT, USAGE };
enum what { REPORT, DROPIN_ONLY, APPLY, SUMMARY };

static void usage(FILE *f)
{
	fprintf(f, "usage: tpe-suggest [-c FILE] [--summary | --drop-in [--trust=USER]... |\n"
		   "                   --apply [--fix[=DIR]]... [--copy[=PROGRAM]]... [--copy-dir DIR]]\n"
		   "                   [LOG...]\n");
}

static void help(void)
{
	usage(stdout);
	fputs("Read TPE's audit records, by default from this machine's journal (journald\n"
	      "takes them from the kernel's audit socket), or from each LOG: auditd's\n"
	      "audit.log or `ausearch --raw` output (- for standard input), a journal\n"
	      "file or directory. Kernel-log text (dmesg, journalctl -k) is refused: any\n"
	      "user can make the kernel print a line that reads like TPE's.\n"
	      "It sorts the denials into what TPE exists to stop and what looks like a\n"
	      "workload, with the narrowest fix for each, and changes nothing unless asked.\n"
	      "\n"
	      "  -c, --config FILE   the configuration in force (default " TPE_CONF_PATH ")\n"
	      "      --summary       a read-only summary (the default where there is no\n"
	      "                      " TPE_CONF_PATH ": a log from another machine)\n"
	      "      --drop-in       print only the drop-in: it trusts nobody new...\n"
	      "      --trust=USER    ...but USER, whom trusting would allow (repeatable)\n"
	      "      --apply         take the actions named by --fix and --copy (root)\n"
	      "      --fix[=DIR]     the directory fixes (chmod g-w/o-w), or DIR's only\n"
	      "      --copy[=PROGRAM] the root-owned copies, or PROGRAM's only\n"
	      "      --copy-dir DIR  where copies go (default " DEFAULT_COPY_DIR ")\n"
	      "  -h, --help          this help\n"
	      "  -V, --version       the version\n"
	      "\n"
	      "Exit status: 0 done, 1 bad input or an action not taken, 2 usage.\n"
	      "See tpe-suggest(8).\n", stdout);
}

/* A usage error names its reason, then the usage line. */
static int usage_error(const char *why)
{
	fprintf(stderr, "tpe-suggest: %s\n", why);
	usage(stderr);
	return USAGE;
}

/* The drop-in tpe-suggest writes: CONFIG.d/50-suggest.conf. */
static char *dropin_path(const char *config)
{
	char *path;

	return asprintf(&path, "%s.d/50-suggest.conf", config) < 0 ? NULL : path;
}

/*
 * The users the drop-in trusts now, kept in the next one: with its first
 * drop-in in place, the same log must not flip anyone's trust.
 */
static int keep_dropin(struct suggest *s, const char *path,
		       const struct conf_opts *co)
{
	struct tpe_policy d = { 0 };
	char err[ERRLEN];
	int rc;

	if (access(path, F_OK))
		return errno == ENOENT ? suggest_keep(s, &d.users, path) : -1;
	if (conf_load(path, co, &d, err) < 0) {
		fprintf(stderr, "tpe-suggest: %s\n", err);
		return -1;
	}
	rc = suggest_keep(s, &d.users, path);
	policy_free(&d);
	return rc;
}

/* A NULL-ended list that grows by one. */
static int push(const char ***list, size_t *n, const char *item)
{
	const char **more = realloc(*list, (*n + 2) * sizeof(*more));

	if (!more)
		return -1;
	more[(*n)++] = item;
	more[*n] = NULL;
	*list = more;
	return 0;
}

static int uid_of(const char *name, uint32_t *uid)
{
	struct passwd *pw = getpwnam(name);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(name, &end, 10);
	if (!*name || *end || errno || v > TPE_ID_MAX)
		return -1;
	*uid = (uint32_t)v;
	return 0;
}

static int apply(struct suggest *s, const struct tpe_policy *p,
		 const struct act_select *sel)
{
	const char *unknown;
	size_t failed;

	if (geteuid()) {
		fprintf(stderr, "tpe-suggest: --apply: must be run as root\n");
		return BAD_INPUT;
	}
	unknown = suggest_unknown(s, p, &this_machine, sel);
	if (unknown) {
		fprintf(stderr, "tpe-suggest: ");
		suggest_escape(stderr, unknown);
		fprintf(stderr, ": no such action in the report (--fix=DIR names a directory fix, --copy=PROGRAM a program to copy)\n");
		return BAD_INPUT;
	}
	printf("tpe-suggest will take these actions, each only where the object's dev:ino still match the log:\n");
	if (!suggest_actions(stdout, s, p, &this_machine, sel)) {
		printf("  (none)\n");
		return OK;
	}
	printf("\nTaking them:\n");
	fflush(stdout);
	failed = suggest_apply(stdout, s, p, &this_machine, 0, sel);
	if (failed)
		fprintf(stderr, "tpe-suggest: %zu action%s not taken (see above)\n",
			failed, failed == 1 ? "" : "s");
	return failed ? BAD_INPUT : OK;
}

struct opts {
	const char *config, *copy_dir;
	bool config_given;
	enum what what;
	struct act_select sel;
	const char **fix, **copy, **trust;
	size_t nfix, ncopy, ntrust;
};

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "drop-in", no_argument, NULL, 'd' },
		{ "summary", no_argument, NULL, 's' },
		{ "trust", required_argument, NULL, 't' },
		{ "apply", no_argument, NULL, 'a' },
		{ "fix", optional_argument, NULL, 'f' },
		{ "copy", optional_argument, NULL, 'k' },
		{ "copy-dir", required_argument, NULL, 'C' },
		{ "commands", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "c:hV", longopts, NULL)) != -1) {
		enum what want = REPORT;

		switch (c) {
		case 'c':
			o->config = optarg;
			o->config_given = true;
			break;
		case 'd':
		case 's':
		case 'a':
			want = c == 'd' ? DROPIN_ONLY : c == 's' ? SUMMARY : APPLY;
			if (o->what != REPORT && o->what != want)
				return usage_error("--summary, --drop-in and --apply exclude each other");
			o->what = want;
			break;
		case 't':
			if (push(&o->trust, &o->ntrust, optarg))
				return BAD_INPUT;
			break;
		case 'f':
			o->sel.what |= ACT_FIX;
			if (optarg && (object_path_ok(optarg) ||
				       push(&o->fix, &o->nfix, optarg)))
				return usage_error("--fix=DIR: an absolute path without ., .. or //");
			break;
		case 'k':
			o->sel.what |= ACT_COPY;
			if (optarg && (object_path_ok(optarg) ||
				       push(&o->copy, &o->ncopy, optarg)))
				return usage_error("--copy=PROGRAM: an absolute path without ., .. or //");
			break;
		case 'C':
			o->copy_dir = optarg;
			break;
		case 'x':
			fprintf(stderr, "tpe-suggest: --commands is gone: its script acted on paths a user chose; use --apply, which checks each object's dev:ino before acting\n");
			return USAGE;
		case 'h':
			help();
			exit(OK);
		case 'V':
			puts("tpe-suggest " VERSION);
			exit(OK);
		default:
			usage(stderr);
			return USAGE;
		}
	}
	o->sel.fix_only = o->fix;
	o->sel.copy_only = o->copy;
	if (o->ntrust && o->what != DROPIN_ONLY)
		return usage_error("--trust goes with --drop-in");
	if ((o->sel.what || o->copy_dir) && o->what != APPLY)
		return usage_error("--fix, --copy and --copy-dir go with --apply");
	if (o->what == APPLY && !o->sel.what)
		return usage_error("--apply takes what is named: --fix[=DIR], --copy[=PROGRAM]");
	if (o->copy_dir && object_path_ok(o->copy_dir))
		return usage_error("--copy-dir: an absolute path without ., .. or //");
	return OK;
}

/* Every LOG, or the journal; 0, or BAD_INPUT. */
static int read_all(char **logs, int n, uid_t caller, struct suggest *s)
{
	if (!n)
		return input_read(NULL, caller, s) ? BAD_INPUT : OK;
	for (int i = 0; i < n; i++)
		if (input_read(logs[i], caller, s))
			return BAD_INPUT;
	if (n > 1)
		suggest_source(s, "the logs named");
	return OK;
}

/* No configuration: a log from elsewhere, read only. */
static int summary(char **logs, int n, struct suggest *s, const char *why)
{
	int rc = read_all(logs, n, (uid_t)-1, s);

	if (rc)
		return rc;
	if (why)
		printf("tpe-suggest: %s: a read-only summary; nothing can be verified or applied here.\n",
		       why);
	suggest_summary(stdout, s);
	return OK;
}

static int run(struct opts *o, char **logs, int n, struct suggest *s)
{
	struct conf_opts co = { .r = &tpe_nss, .warn = NULL,
				.caller = geteuid() };
	struct tpe_policy p = { 0 };
	char err[ERRLEN], *dropin = NULL, why[ERRLEN + 64];
	int rc;

	if (o->what == SUMMARY)
		return summary(logs, n, s, NULL);
	if (!o->config_given && access(o->config, F_OK) && errno == ENOENT) {
		if (o->what != REPORT) {
			fprintf(stderr, "tpe-suggest: no %s here: nothing can be verified or applied on this machine\n",
				o->config);
			return BAD_INPUT;
		}
		snprintf(why, sizeof(why), "no %s on this machine", o->config);
		return summary(logs, n, s, why);
	}
	/* Who is trusted now, so that the proposal adds only what is new. */
	if (conf_load(o->config, &co, &p, err) < 0) {
		fprintf(stderr, "tpe-suggest: %s\n", err);
		if (access(o->config, F_OK))
			fprintf(stderr, "tpe-suggest: %s is the configuration in force; name another with -c FILE\n",
				o->config);
		return BAD_INPUT;
	}
	dropin = strcmp(o->config, "-") ? dropin_path(o->config) : NULL;
	rc = (dropin && keep_dropin(s, dropin, &co)) ||
	     read_all(logs, n, co.caller, s) ? BAD_INPUT : OK;
	if (rc == OK && o->copy_dir)
		suggest_copy_dir(s, o->copy_dir);
	if (rc == OK && !suggest_records(s)) {
		fprintf(stderr, "tpe-suggest: no TPE records found%s\n",
			suggest_skipped(s) ? " (only unreadable ones, skipped)" : "");
		rc = BAD_INPUT;
	}
	for (size_t i = 0; rc == OK && i < o->ntrust; i++) {
		uint32_t uid;

		if (uid_of(o->trust[i], &uid) ||
		    suggest_trust(s, &p, &this_machine, uid)) {
			fprintf(stderr, "tpe-suggest: --trust=");
			suggest_escape(stderr, o->trust[i]);
			fprintf(stderr, ": no denial in the log that trusting this user would allow\n");
			rc = BAD_INPUT;
		}
	}
	if (rc == OK && o->what == DROPIN_ONLY)
		suggest_dropin(stdout, s, &p, &this_machine);
	else if (rc == OK && o->what == APPLY)
		rc = apply(s, &p, &o->sel);
	else if (rc == OK)
		suggest_report(stdout, s, &p, &this_machine);
	free(dropin);
	policy_free(&p);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { .config = TPE_CONF_PATH };
	struct suggest *s;
	int rc = parse(argc, argv, &o);

	if (rc == OK) {
		s = suggest_new();
		rc = s ? run(&o, argv + optind, argc - optind, s) : BAD_INPUT;
		suggest_free(s);
	}
	free(o.fix);
	free(o.copy);
	free(o.trust);
	if (fflush(stdout)) {
		perror("tpe-suggest: stdout");
		rc = BAD_INPUT;
	}
	return rc;
}
