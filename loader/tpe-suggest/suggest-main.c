// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-suggest: read TPE's denial records (a permissive roll-out's "would
 * deny" lines, or real denials) and propose the users to trust, the
 * directories to fix and the programs to copy that would have allowed
 * them. It changes nothing, unless asked to --apply: then it takes the
 * actions itself, on descriptors whose dev:ino it checked (object.c), so
 * that no text a user chose ever reaches a shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suggest.h"

enum { OK, BAD_INPUT, USAGE };
enum what { REPORT, DROPIN_ONLY, APPLY };

static void usage(FILE *f)
{
	fprintf(f, "usage: tpe-suggest [-c FILE] [--drop-in | --apply [--copy [--copy-dir DIR]]] [LOG|-]\n");
}

static void help(void)
{
	usage(stdout);
	fputs("Read TPE's denial records (audit.log, ausearch --raw, journalctl -k,\n"
	      "journalctl -o json, dmesg) from LOG or standard input and propose what\n"
	      "to fix and whom to trust. It changes nothing unless asked to --apply.\n"
	      "\n"
	      "  -c, --config FILE  the configuration in force (default " TPE_CONF_PATH ")\n"
	      "      --drop-in      print only the drop-in that trusts the proposed users\n"
	      "      --apply        fix the proposed directories (root), each only where\n"
	      "                     its dev:ino still match the log\n"
	      "      --copy         with --apply: also make root-owned copies of programs\n"
	      "      --copy-dir DIR where --copy puts them (default /opt/tpe-suggest)\n"
	      "  -h, --help         this help\n"
	      "  -V, --version      the version\n"
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

/* Lines named one by one on stderr; the rest are only counted. */
#define SKIP_LINES	10

/*
 * Every denial in the log. A TPE record that cannot be read, or must not
 * be trusted (a cut path, the old forgeable format, ausearch -i text), is
 * skipped and counted, never used: one bad line does not void a log.
 * Only an I/O error or no memory is fatal.
 */
static int read_log(FILE *in, const char *name, struct suggest *s)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int bad = 0;

	while (getline(&line, &cap, in) >= 0) {
		struct record r;
		const char *why;
		int rc = record_parse(line, &r, &why);

		lineno++;
		if (rc < 0) {
			if (suggest_skipped(s) < SKIP_LINES)
				fprintf(stderr, "%s:%zu: skipped TPE record: %s\n",
					name, lineno, why);
			suggest_skip(s, why);
		} else if (rc > 0 && suggest_add(s, &r)) {
			fprintf(stderr, "%s:%zu: out of memory\n", name, lineno);
			bad = 1;
			break;
		}
	}
	if (ferror(in)) {
		fprintf(stderr, "%s: %s\n", name, strerror(errno));
		bad = 1;
	}
	if (suggest_skipped(s)) {
		fprintf(stderr, "%s: ", name);
		suggest_skip_report(stderr, s, "");
	}
	free(line);
	return bad;
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

static int apply(struct suggest *s, const struct tpe_policy *p,
		 unsigned what)
{
	size_t failed;

	if (geteuid()) {
		fprintf(stderr, "tpe-suggest: --apply: must be run as root\n");
		return BAD_INPUT;
	}
	printf("tpe-suggest will take these actions, each only where the object's dev:ino still match the log:\n");
	if (!suggest_actions(stdout, s, p, &this_machine, what)) {
		printf("  (none)\n");
		return OK;
	}
	printf("\nTaking them:\n");
	fflush(stdout);
	failed = suggest_apply(stdout, s, p, &this_machine, 0, what);
	if (failed)
		fprintf(stderr, "tpe-suggest: %zu action%s not taken (see above)\n",
			failed, failed == 1 ? "" : "s");
	return failed ? BAD_INPUT : OK;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "drop-in", no_argument, NULL, 'd' },
		{ "apply", no_argument, NULL, 'a' },
		{ "copy", no_argument, NULL, 'k' },
		{ "copy-dir", required_argument, NULL, 'C' },
		{ "commands", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = TPE_CONF_PATH, *log = "-", *copy_dir = NULL;
	struct conf_opts co = { .r = &tpe_nss, .warn = NULL,
				.caller = geteuid() };
	struct tpe_policy p = { 0 };
	enum what what = REPORT;
	struct suggest *s;
	char err[ERRLEN], *dropin = NULL;
	FILE *in = stdin;
	bool copy = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "c:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'd':
			if (what == APPLY)
				return usage_error("--drop-in and --apply exclude each other");
			what = DROPIN_ONLY;
			break;
		case 'a':
			if (what == DROPIN_ONLY)
				return usage_error("--drop-in and --apply exclude each other");
			what = APPLY;
			break;
		case 'k':
			copy = true;
			break;
		case 'C':
			copy_dir = optarg;
			break;
		case 'x':
			fprintf(stderr, "tpe-suggest: --commands is gone: its script acted on paths a user chose; use --apply, which checks each object's dev:ino before acting\n");
			return USAGE;
		case 'h':
			help();
			return OK;
		case 'V':
			puts("tpe-suggest " VERSION);
			return OK;
		default:
			usage(stderr);
			return USAGE;
		}
	}
	if (argc - optind > 1)
		return usage_error("one LOG at most");
	if ((copy_dir || copy) && what != APPLY)
		return usage_error("--copy and --copy-dir go with --apply");
	if (copy_dir && object_path_ok(copy_dir))
		return usage_error("--copy-dir: an absolute path without ., .. or //");
	if (optind < argc)
		log = argv[optind];
	/* Who is trusted now, so that the proposal adds only what is new. */
	if (conf_load(config, &co, &p, err) < 0) {
		fprintf(stderr, "tpe-suggest: %s\n", err);
		if (access(config, F_OK))
			fprintf(stderr, "tpe-suggest: %s is the configuration in force; name another with -c FILE\n",
				config);
		return BAD_INPUT;
	}
	if (strcmp(log, "-") && !(in = fopen(log, "r"))) {
		fprintf(stderr, "tpe-suggest: %s: %s\n", log, strerror(errno));
		policy_free(&p);
		return BAD_INPUT;
	}
	s = suggest_new();
	dropin = strcmp(config, "-") ? dropin_path(config) : NULL;
	rc = !s || (dropin && keep_dropin(s, dropin, &co)) ||
	     read_log(in, strcmp(log, "-") ? log : "stdin", s) ?
	     BAD_INPUT : OK;
	if (in != stdin)
		fclose(in);
	if (rc == OK && copy_dir)
		suggest_copy_dir(s, copy_dir);
	if (rc == OK && !suggest_records(s)) {
		fprintf(stderr, "tpe-suggest: no TPE records found in %s%s\n",
			strcmp(log, "-") ? log : "standard input",
			suggest_skipped(s) ? " (only unreadable ones, skipped)" : "");
		rc = BAD_INPUT;
	} else if (rc == OK && what == DROPIN_ONLY) {
		suggest_dropin(stdout, s, &p, &this_machine);
	} else if (rc == OK && what == APPLY) {
		rc = apply(s, &p, ACT_FIX | (copy ? ACT_COPY : 0));
	} else if (rc == OK) {
		suggest_report(stdout, s, &p, &this_machine);
	}
	suggest_free(s);
	free(dropin);
	policy_free(&p);
	if (fflush(stdout)) {
		perror("tpe-suggest: stdout");
		rc = BAD_INPUT;
	}
	return rc;
}
