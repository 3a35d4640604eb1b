// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-explain: would this user be allowed to run PATH, and why? The same
 * action as `tpe-load --explain` (lib/explain.c), in /usr/bin, for any
 * user to ask about themselves. See tpe-explain(1).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>

#include "explain.h"
#include "libtpe.h"

static const char synopsis[] =
	"usage: tpe-explain [-q] [-c file] [--user user] [--group group]... "
	"[--json] path...\n";

static void usage(FILE *f)
{
	fputs(synopsis, f);
	fputs("Would the user be allowed to execute each PATH (and map it "
	      "executable),\nand why: under the live policy, or the one FILE "
	      "builds.\n"
	      "  -c, --config FILE  judge by FILE (- for standard input) and "
	      "its drop-ins\n"
	      "  --user USER        whom for (default: you); a UID without a "
	      "passwd entry\n"
	      "                     is judged with no primary group\n"
	      "  --group GROUP      a supplementary group (repeat; default: "
	      "USER's groups)\n"
	      "  --json             one JSON object\n"
	      "  -q, --quiet        no warnings about the config\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      the version\n"
	      "Exit: 0 every PATH allowed, 1 one is refused (denied, or would "
	      "be), 2 usage\nor error. See tpe-explain(1) and tpe-load(8).\n",
	      f);
}

#define bad_usage(...)	usage_fail("tpe-explain", synopsis, __VA_ARGS__)

static int parse_args(int argc, char **argv, struct explain_opts *o)
{
	static const struct option longopts[] = {
		EXPLAIN_LONGOPTS,
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *why;
	int ch, taken;

	*o = (struct explain_opts){ .prog = "tpe-explain",
				    .again = "tpe-explain" };
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:qhV", longopts, NULL)) != -1) {
		taken = explain_option(o, ch, optarg, &why);
		if (taken < 0)
			return bad_usage("%s", why);
		if (taken)
			continue;
		switch (ch) {
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXPLAIN_ALLOWED);
		case 'V':
			puts("tpe-explain " VERSION);
			exit(EXPLAIN_ALLOWED);
		default:
			return usage_fail_getopt("tpe-explain", synopsis, ch,
						 optopt, argv[optind - 1]);
		}
	}
	if (optind == argc)
		return bad_usage("which program? give a path");
	o->paths = argv + optind;
	o->npaths = (size_t)(argc - optind);
	return 0;
}

int main(int argc, char **argv)
{
	struct explain_opts o;
	int rc;

	if (parse_args(argc, argv, &o)) {
		free(o.groups);
		return EXPLAIN_ERROR;
	}
	rc = explain(&o);
	free(o.groups);
	return rc;
}
