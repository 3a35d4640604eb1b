// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-load: read /etc/tpe.conf, build the binary policy and hand it to the
 * kernel's Trusted Path Execution LSM in one write(). See tpe-load(8).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
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
};

static void usage(FILE *f)
{
	fputs("usage: tpe-load [-q | -v] [-c file] [-n | -o file]\n"
	      "       tpe-load [-q | -v] -d\n"
	      "  -c, --config FILE  read FILE instead of " TPE_CONF_PATH "\n"
	      "  -n, --check        validate the config only\n"
	      "  -o, --output FILE  write the policy to FILE, not the kernel\n"
	      "  -d, --dump         print the kernel's live policy as a config\n"
	      "  -q, --quiet        no warnings or summaries, only errors\n"
	      "  -v, --verbose      say what was done\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      the version\n"
	      "Exit: 0 ok, 1 invalid config, 2 usage, 3 kernel refused or "
	      "I/O error.\n"
	      "TPE_SECURITYFS=DIR uses DIR/policy instead of "
	      TPE_SECURITYFS_DIR "/policy.\n", f);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "config",	required_argument,	NULL, 'c' },
		{ "check",	no_argument,		NULL, 'n' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "dump",	no_argument,		NULL, 'd' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, actions = 0;

	*o = (struct opts){ .action = LOAD };
	while ((ch = getopt_long(argc, argv, "c:no:dqvhV", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->config = optarg;
			break;
		case 'n':
			o->action = CHECK;
			actions++;
			break;
		case 'o':
			o->action = OUTPUT;
			o->output = optarg;
			actions++;
			break;
		case 'd':
			o->action = DUMP;
			actions++;
			break;
		case 'q':
			o->verbosity = -1;
			break;
		case 'v':
			o->verbosity = 1;
			break;
		case 'h':
			usage(stdout);
			exit(OK);
		case 'V':
			puts("tpe-load " VERSION);
			exit(OK);
		default:
			return -1;
		}
	}
	if (optind < argc || actions > 1 || (o->action == DUMP && o->config))
		return -1;
	if (!o->config)
		o->config = TPE_CONF_PATH;
	return 0;
}

/* Parse, resolve and encode the config; nothing else happens if this fails. */
static int build(const struct opts *o, struct tpe_policy *p, uint8_t **blob,
		 size_t *len)
{
	char err[ERRLEN];

	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid(),
				.warn = o->verbosity < 0 ? NULL : stderr };

	if (conf_load(o->config, &co, p, err) < 0) {
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

static void summary(const char *what, const struct tpe_policy *p)
{
	printf("%s: ok: ", what);
	conf_summary(stdout, p);
}

static int dump(void)
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
	conf_write(stdout, &p, &tpe_nss);
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
	int rc, e;

	if (parse_args(argc, argv, &o)) {
		usage(stderr);
		return USAGE;
	}
	if (o.action == DUMP)
		return dump();
	rc = build(&o, &p, &blob, &len);
	if (rc)
		return rc;

	if (o.action == CHECK) {
		if (o.verbosity >= 0)
			summary(o.config, &p);
	} else {
		const char *to = o.action == OUTPUT ? o.output :
			securityfs_policy();

		e = write_once(to, o.action == OUTPUT ? O_CREAT : 0, blob, len);
		if (e) {
			fprintf(stderr, "%s: %s\n", to, o.action == OUTPUT ?
				strerror(e) : errno_words(e));
			rc = KERNEL_OR_IO;
		} else if (o.verbosity > 0) {
			summary(to, &p);
		}
	}
	free(blob);
	policy_free(&p);
	return rc;
}
