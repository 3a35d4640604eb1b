// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-load: read /etc/tpe.conf, build the binary policy and hand it to the
 * kernel's Trusted Path Execution LSM in one write(). See tpe-load(8).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"

#define VERSION "1.0"

enum exit_status { OK, BAD_CONFIG, USAGE, KERNEL_OR_IO };
enum action { LOAD, CHECK, OUTPUT, DUMP };

struct opts {
	enum action action;
	const char *config, *output;
	int verbosity;		/* -1 quiet, 0 normal, 1 verbose */
	int numeric;		/* --dump: IDs as numbers, no names */
};

static const char synopsis[] =
	"usage: tpe-load [-q | -v] [-c file | -c -] [-n | -o file]\n"
	"       tpe-load [-q | -v] -d [-N]\n";

static void usage(FILE *f)
{
	fputs(synopsis, f);
	fputs("  -c, --config FILE  read FILE (- for standard input) instead "
	      "of " TPE_CONF_PATH "\n"
	      "  -n, --check        validate the config only\n"
	      "  -o, --output FILE  write the policy to FILE, not the kernel\n"
	      "  -d, --dump         print the kernel's live policy as a config\n"
	      "  -N, --numeric      with -d: IDs as numbers, no names\n"
	      "  -q, --quiet        no notes or summaries, only errors\n"
	      "  -v, --verbose      also name every file read\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      the version\n"
	      "Exit: 0 ok, 1 invalid config, 2 usage, 3 kernel refused or "
	      "I/O error.\n"
	      "TPE_SECURITYFS=DIR uses DIR/policy instead of "
	      TPE_SECURITYFS_DIR "/policy.\n", f);
}

/* A usage error: what was wrong, then the synopsis. */
static int __attribute__((format(printf, 1, 2))) bad_usage(const char *fmt,
							    ...)
{
	va_list ap;

	fputs("tpe-load: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(synopsis, stderr);
	return -1;
}

static const char *const action_opt[] = {
	[CHECK] = "--check", [OUTPUT] = "--output", [DUMP] = "--dump",
};

static int set_action(struct opts *o, enum action a)
{
	if (o->action == a)
		return bad_usage("%s given twice", action_opt[a]);
	if (o->action != LOAD)
		return bad_usage("%s and %s are two actions: give one%s",
				 action_opt[o->action], action_opt[a],
				 o->action + a == DUMP + CHECK ?
				 " (numbers only in a dump: -N)" : "");
	o->action = a;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "config",	required_argument,	NULL, 'c' },
		{ "check",	no_argument,		NULL, 'n' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "dump",	no_argument,		NULL, 'd' },
		{ "numeric",	no_argument,		NULL, 'N' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	*o = (struct opts){ .action = LOAD };
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:no:dNqvhV", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'c':
			if (o->config)
				return bad_usage("--config given twice");
			o->config = optarg;
			break;
		case 'n':
			if (set_action(o, CHECK))
				return -1;
			break;
		case 'o':
			if (set_action(o, OUTPUT))
				return -1;
			o->output = optarg;
			break;
		case 'd':
			if (set_action(o, DUMP))
				return -1;
			break;
		case 'N':
			o->numeric = 1;
			break;
		case 'q':
		case 'v':
			if (o->verbosity && o->verbosity != (ch == 'q' ? -1 : 1))
				return bad_usage("--quiet and --verbose "
						 "contradict each other");
			o->verbosity = ch == 'q' ? -1 : 1;
			break;
		case 'h':
			usage(stdout);
			exit(OK);
		case 'V':
			puts("tpe-load " VERSION);
			exit(OK);
		case ':':
			return bad_usage("%s needs an argument",
					 argv[optind - 1]);
		default:
			if (optopt)
				return bad_usage("unknown option -%c", optopt);
			return bad_usage("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument \"%s\": the config is "
				 "given with -c", argv[optind]);
	if (o->action == DUMP && o->config)
		return bad_usage("--dump reads the kernel's live policy: "
				 "--config does not go with it");
	if (o->numeric && o->action != DUMP)
		return bad_usage("--numeric goes only with --dump");
	if (!o->config)
		o->config = TPE_CONF_PATH;
	return 0;
}

/* Parse, resolve and encode the config; nothing else happens if this fails. */
static int build(const struct opts *o, struct tpe_policy *p, uint8_t **blob,
		 size_t *len, int *files)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid(),
				.warn = o->verbosity < 0 ? NULL : stderr,
				.trace = o->verbosity > 0 ? stdout : NULL };
	char err[ERRLEN];

	*files = conf_load(o->config, &co, p, err);
	if (*files < 0) {
		fprintf(stderr, "%s\n", err);
		return BAD_CONFIG;
	}
	if (policy_encode(p, blob, len, err)) {
		fprintf(stderr, "%s: %s\n", o->config, err);
		policy_free(p);
		return BAD_CONFIG;
	}
	return OK;
}

/* The one line that says what was done: "/etc/tpe.conf: loaded: ...". */
static void summary(const struct opts *o, const char *done,
		    const struct tpe_policy *p, int files)
{
	if (o->verbosity < 0)
		return;
	printf("%s: %s: ", strcmp(o->config, "-") ? o->config : "<stdin>",
	       done);
	conf_summary(stdout, p);
	if (files > 1)
		printf(" (%d files)", files);
	putchar('\n');
}

static int no_id(const char *name, uint32_t *id)
{
	(void)name;
	(void)id;
	return -1;
}

static const char *no_name(uint32_t id)
{
	(void)id;
	return NULL;
}

/* --numeric: every ID as a number; NSS is never asked. */
static const struct tpe_resolver numbers_only = {
	.users = { no_id, no_name },
	.groups = { no_id, no_name },
};

static int dump(const struct opts *o)
{
	const char *path = securityfs_policy();
	struct tpe_policy p;
	char err[ERRLEN];
	uint8_t *blob;
	size_t len;
	int e = read_all(path, &blob, &len);

	if (e) {
		fprintf(stderr, "%s: %s\n", path, errno_words(e));
		return KERNEL_OR_IO;
	}
	e = policy_decode(blob, len, &p, err);
	free(blob);
	if (e) {
		fprintf(stderr, "%s: %s\n", path, err);
		return KERNEL_OR_IO;
	}
	printf("# Trusted Path Execution policy read back from %s\n", path);
	conf_write(stdout, &p, o->numeric ? &numbers_only : &tpe_nss);
	policy_free(&p);
	if (fflush(stdout)) {
		perror("stdout");
		return KERNEL_OR_IO;
	}
	return OK;
}

int main(int argc, char **argv)
{
	struct tpe_policy p;
	struct opts o;
	uint8_t *blob;
	size_t len;
	int rc, e, files;
	char done[4200];

	if (parse_args(argc, argv, &o))
		return USAGE;
	if (o.action == DUMP)
		return dump(&o);
	rc = build(&o, &p, &blob, &len, &files);
	if (rc)
		return rc;

	if (o.action == CHECK) {
		summary(&o, "ok", &p, files);
	} else {
		const char *to = o.action == OUTPUT ? o.output :
			securityfs_policy();

		e = write_once(to, o.action == OUTPUT ? O_CREAT : 0, blob, len);
		if (e) {
			fprintf(stderr, "%s: %s\n", to, o.action == OUTPUT ?
				strerror(e) : errno_words(e));
			rc = KERNEL_OR_IO;
		} else {
			snprintf(done, sizeof(done), o.action == OUTPUT ?
				 "written to %s" : "loaded", to);
			summary(&o, done, &p, files);
		}
	}
	free(blob);
	policy_free(&p);
	if (!rc && fflush(stdout)) {
		perror("stdout");
		rc = KERNEL_OR_IO;
	}
	return rc;
}
