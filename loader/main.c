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
enum action { LOAD, CHECK, OUTPUT, DUMP, EXPLAIN, STATUS };
/* --explain: 0 allowed, 1 refused (denied, or would be), 2 usage or error */
enum explain_status { ALLOWED, REFUSED, EXPLAIN_ERROR };

enum long_only { OPT_EXPLAIN = 256, OPT_STATUS, OPT_JSON, OPT_USER, OPT_GROUP };

struct opts {
	enum action action;
	const char *config, *output;
	int verbosity;		/* -1 quiet, 0 normal, 1 verbose */
	int numeric;		/* --dump: IDs as numbers, no names */
	int config_given;
	int json;		/* --dump, --status: JSON */
	const char *user;	/* --explain: whom for, or NULL: the caller */
	char **groups;		/* --explain: their supplementary groups */
	size_t ngroups;
	char **paths;		/* --explain: the files */
	size_t npaths;
};

static const char synopsis[] =
	"usage: tpe-load [-q | -v] [-c file | -c -] [-n | -o file]\n"
	"       tpe-load [-q | -v] -d [-N] [--json]\n"
	"       tpe-load --status [-c file] [--json]\n"
	"       tpe-load --explain [-c file] [--user user] [--group group]... "
	"path...\n";

static void usage(FILE *f)
{
	fputs(synopsis, f);
	fputs("  -c, --config FILE  read FILE (- for standard input) instead "
	      "of " TPE_CONF_PATH "\n"
	      "  -n, --check        validate the config only\n"
	      "  -o, --output FILE  write the policy to FILE, not the kernel\n"
	      "  -d, --dump         print the kernel's live policy as a config\n"
	      "  -N, --numeric      with -d: IDs as numbers, no names\n"
	      "  --status           the mode, flags, list sizes, counters, and "
	      "whether\n"
	      "                     the config builds the live policy\n"
	      "  --json             with -d or --status: JSON\n"
	      "  --explain PATH...  would the user be allowed to execute PATH,"
	      " and why\n"
	      "  --user USER        with --explain: whom for (default: you)\n"
	      "  --group GROUP      with --explain: a supplementary group "
	      "(repeat; default:\n"
	      "                     USER's groups in the group database)\n"
	      "  -q, --quiet        no notes or summaries, only errors\n"
	      "  -v, --verbose      also name every file read\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      the version\n"
	      "Exit: 0 ok, 1 invalid config, 2 usage, 3 kernel refused or "
	      "I/O error;\n"
	      "--status: 0 in sync, 1 stale or invalid config, 3 tpe off or "
	      "unreadable;\n"
	      "--explain: 0 allowed, 1 denied (or would be), 2 usage or "
	      "error.\n"
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
	[EXPLAIN] = "--explain", [STATUS] = "--status",
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

static int add_group(struct opts *o, char *name)
{
	char **more = realloc(o->groups, (o->ngroups + 1) * sizeof(*more));

	if (!more)
		return -1;
	o->groups = more;
	o->groups[o->ngroups++] = name;
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
		{ "explain",	no_argument,		NULL, OPT_EXPLAIN },
		{ "status",	no_argument,		NULL, OPT_STATUS },
		{ "json",	no_argument,		NULL, OPT_JSON },
		{ "user",	required_argument,	NULL, OPT_USER },
		{ "group",	required_argument,	NULL, OPT_GROUP },
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
		case OPT_EXPLAIN:
		case OPT_STATUS:
			if (set_action(o, ch == OPT_EXPLAIN ? EXPLAIN : STATUS))
				return -1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_USER:
			if (o->user)
				return bad_usage("--user given twice");
			o->user = optarg;
			break;
		case OPT_GROUP:
			if (add_group(o, optarg))
				return bad_usage("out of memory");
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
	if (o->action == EXPLAIN) {
		if (optind == argc)
			return bad_usage("--explain needs a path");
		o->paths = argv + optind;
		o->npaths = (size_t)(argc - optind);
	} else if (optind < argc) {
		return bad_usage("unexpected argument \"%s\": the config is "
				 "given with -c", argv[optind]);
	}
	if ((o->user || o->ngroups) && o->action != EXPLAIN)
		return bad_usage("--user and --group go only with --explain");
	if (o->json && o->action != DUMP && o->action != STATUS)
		return bad_usage("--json goes only with --dump or --status");
	o->config_given = o->config != NULL;
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

	if (read_policy(path, &p, NULL, NULL, err)) {
		fprintf(stderr, "%s\n", err);
		return KERNEL_OR_IO;
	}
	if (o->json) {
		json_policy(stdout, path, &p,
			    o->numeric ? &numbers_only : &tpe_nss);
	} else {
		printf("# Trusted Path Execution policy read back from %s\n",
		       path);
		conf_write(stdout, &p, o->numeric ? &numbers_only : &tpe_nss);
	}
	policy_free(&p);
	if (fflush(stdout)) {
		perror("stdout");
		return KERNEL_OR_IO;
	}
	return OK;
}

static int status(const struct opts *o)
{
	struct tpe_status s;
	char err[ERRLEN];
	int failed = status_gather(o->config, &s, err), rc = OK;

	/* TPE off is a status too; a policy that cannot be read is not. */
	if (!failed || (!s.have_policy && !strcmp(s.mode, "off")))
		(o->json ? status_json : status_write)(stdout, &s);
	if (failed) {
		fprintf(stderr, "tpe-load: %s\n", err);
		rc = KERNEL_OR_IO;
	} else if (strcmp(s.sync, "in sync")) {
		rc = BAD_CONFIG;
	}
	status_free(&s);
	if (fflush(stdout)) {
		perror("stdout");
		rc = KERNEL_OR_IO;
	}
	return rc;
}

/* The policy --explain judges by: the config given with -c, or the live. */
static int explain_policy(const struct opts *o, struct tpe_policy *p,
			  const char **from)
{
	struct conf_opts co = { .r = &tpe_nss, .caller = geteuid(),
				.warn = o->verbosity < 0 ? NULL : stderr };
	char err[ERRLEN];
	int e;

	if (o->config_given) {
		*from = o->config;
		e = conf_load(o->config, &co, p, err) < 0;
	} else {
		*from = securityfs_policy();
		e = read_policy(*from, p, NULL, NULL, err);
	}
	if (e)
		fprintf(stderr, "%s\n", err);
	return e ? -1 : 0;
}

/*
 * One file, and for a script its interpreter, as binfmt_script asks the
 * kernel again (at most 4 deep, BINPRM_MAX_RECURSION).
 */
static int explain_one(const struct tpe_policy *p,
		       const struct tpe_identity *who, const char *path)
{
	struct tpe_facts f;
	struct tpe_verdict v;
	char err[ERRLEN], *interp, *next = NULL;
	int depth, rc = ALLOWED;

	for (depth = 0; path && depth <= 4; depth++) {
		if (facts_gather(path, &f, &interp, err)) {
			fprintf(stderr, "tpe-load: %s\n", err);
			rc = EXPLAIN_ERROR;
			break;
		}
		if (depth)
			printf("interpreter of the script above:\n");
		explain_judge(p, who, &f, &v);
		explain_write(stdout, p, who, &f, &v, &tpe_nss);
		if (explain_refused(&v))
			rc = REFUSED;
		facts_free(&f);
		free(next);
		path = next = interp;
	}
	free(next);
	return rc;
}

static int explain(const struct opts *o)
{
	struct tpe_identity who;
	struct tpe_policy p;
	const char *from;
	char err[ERRLEN];
	size_t i;
	int rc = ALLOWED, r;

	if (explain_policy(o, &p, &from))
		return EXPLAIN_ERROR;
	if (facts_identity(o->user, o->groups, o->ngroups, &who, err)) {
		fprintf(stderr, "tpe-load: %s\n", err);
		policy_free(&p);
		return EXPLAIN_ERROR;
	}
	printf("policy: %s: ", from);
	conf_summary(stdout, &p);
	putchar('\n');
	for (i = 0; i < o->npaths; i++) {
		r = explain_one(&p, &who, o->paths[i]);
		if (r > rc)
			rc = r;
	}
	free((uint32_t *)who.groups);
	policy_free(&p);
	if (fflush(stdout)) {
		perror("stdout");
		rc = EXPLAIN_ERROR;
	}
	return rc;
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
	if (o.action == STATUS)
		return status(&o);
	if (o.action == EXPLAIN) {
		rc = explain(&o);
		free(o.groups);
		return rc;
	}
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
