// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-suggest: read TPE's denial records (a permissive roll-out's "would
 * deny" lines, or real denials) and propose the users to trust and the
 * directories to fix that would have allowed them. It changes nothing.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suggest.h"

enum { OK, BAD_INPUT, USAGE };
enum what { REPORT, DROPIN_ONLY, COMMANDS_ONLY };

static void usage(FILE *f)
{
	fprintf(f, "usage: tpe-suggest [-c FILE] [--drop-in | --commands] [LOG|-]\n");
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "drop-in", no_argument, NULL, 'd' },
		{ "commands", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = TPE_CONF_PATH, *log = "-";
	struct conf_opts co = { .r = &tpe_nss, .warn = NULL,
				.caller = geteuid() };
	struct tpe_policy p = { 0 };
	enum what what = REPORT;
	struct suggest *s;
	char err[ERRLEN];
	FILE *in = stdin;
	int c, rc;

	while ((c = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'd':
			what = DROPIN_ONLY;
			break;
		case 'x':
			what = COMMANDS_ONLY;
			break;
		case 'h':
			usage(stdout);
			return OK;
		default:
			usage(stderr);
			return USAGE;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return USAGE;
	}
	if (optind < argc)
		log = argv[optind];
	/* Who is trusted now, so that the proposal adds only what is new. */
	if (conf_load(config, &co, &p, err) < 0) {
		fprintf(stderr, "%s\n", err);
		return BAD_INPUT;
	}
	if (strcmp(log, "-") && !(in = fopen(log, "r"))) {
		fprintf(stderr, "%s: %s\n", log, strerror(errno));
		policy_free(&p);
		return BAD_INPUT;
	}
	s = suggest_new();
	rc = !s || read_log(in, strcmp(log, "-") ? log : "stdin", s) ?
	     BAD_INPUT : OK;
	if (in != stdin)
		fclose(in);
	if (rc == OK && what == DROPIN_ONLY)
		suggest_dropin(stdout, s, &p, &this_machine);
	else if (rc == OK && what == COMMANDS_ONLY)
		suggest_commands(stdout, s, &p, &this_machine);
	else if (rc == OK)
		suggest_report(stdout, s, &p, &this_machine);
	suggest_free(s);
	policy_free(&p);
	if (rc == OK && fflush(stdout)) {
		perror("stdout");
		rc = BAD_INPUT;
	}
	return rc;
}
