// SPDX-License-Identifier: GPL-2.0
/*
 * tpe-load: read /etc/tpe.conf, build the binary policy and hand it to the
 * kernel's Trusted Path Execution LSM in one write(). See tpe-load(8).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "explain.h"
#include "io.h"
#include "json.h"
#include "tpe-load.h"


/*
 * Exit codes that read right where systemd names them by the LSB table
 * (systemctl status: "status=5/NOTINSTALLED"): 1 FAILURE, 2
 * INVALIDARGUMENT, 4 NOPERMISSION, 5 NOTINSTALLED. 3 (NOTIMPLEMENTED) is
 * not used.
 */
enum exit_status {
	OK = 0,
	FAILURE = 1,		/* invalid config, the kernel rejected it, I/O */
	USAGE = 2,
	NO_PERMISSION = 4,	/* EPERM, EACCES: locked, not root, no cap */
	NOT_INSTALLED = 5,	/* tpe is not active, or cannot be seen */
};
enum action { LOAD, CHECK, OUTPUT, DUMP, EXPLAIN, STATUS };

enum long_only { OPT_EXPLAIN = 256, OPT_STATUS, OPT_OPTIONAL };

struct opts {
	enum action action;
	const char *config;	/* -c, or else the default */
	const char *output;
	int verbosity;		/* -1 quiet, 0 normal, 1 verbose */
	int numeric;		/* --dump: IDs as numbers, no names */
	int optional;		/* a kernel without tpe is not an error */
	/*
	 * The options tpe-explain takes: -c as given (else NULL), --json
	 * (also --dump's and --status's), --explain's --user, --group and
	 * files
	 */
	struct explain_opts ex;
};

static const char synopsis[] =
	"usage: tpe-load [-q | -v] [-c file | -c -] [-n | -o file] "
	"[--optional]\n"
	"       tpe-load [-q | -v] -d [-N] [--json]\n"
	"       tpe-load --status [-c file] [--json]\n"
	"       tpe-load --explain [-c file] [--user user] [--group group]... "
	"[--json] path...\n";

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
	      "  --json             with -d, --status or --explain: JSON\n"
	      "  --explain PATH...  would the user be allowed to execute PATH,"
	      " and why\n"
	      "  --user USER        with --explain: whom for (default: you); a "
	      "UID without\n"
	      "                     a passwd entry is judged with no primary "
	      "group\n"
	      "  --group GROUP      with --explain: a supplementary group "
	      "(repeat; default:\n"
	      "                     USER's groups in the group database)\n"
	      "  --optional         load: on a kernel without tpe, say so and "
	      "exit 0\n"
	      "  -q, --quiet        no notes or summaries, only errors\n"
	      "  -v, --verbose      also name every file read\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      the version\n"
	      "Exit: 0 ok, 1 invalid config, kernel refused or I/O error, 2 "
	      "usage,\n"
	      "4 no permission (locked policy, not root), 5 tpe not active in "
	      "this kernel;\n"
	      "--status: 0 in sync, 1 stale or invalid config, 4 policy not "
	      "readable, 5 off;\n"
	      "--explain: 0 allowed, 1 denied (or would be), 2 usage or "
	      "error.\n"
	      "TPE_SECURITYFS=DIR uses DIR/policy instead of "
	      TPE_SECURITYFS_DIR "/policy.\n", f);
}

/* A usage error: what was wrong, then the synopsis. */
#define bad_usage(...)	usage_fail("tpe-load", synopsis, __VA_ARGS__)

static const char *const action_opt[] = {
	[CHECK] = "--check", [OUTPUT] = "--output", [DUMP] = "--dump",
	[EXPLAIN] = "--explain", [STATUS] = "--status",
};

/* Are x and y the actions a and b, in either order? (-d -n: -N meant) */
static int is_pair(enum action x, enum action y, enum action a,
		   enum action b)
{
	return (x == a && y == b) || (x == b && y == a);
}

static int set_action(struct opts *o, enum action a)
{
	if (o->action == a)
		return bad_usage("%s given twice", action_opt[a]);
	if (o->action != LOAD)
		return bad_usage("%s and %s are two actions: give one%s",
				 action_opt[o->action], action_opt[a],
				 is_pair(o->action, a, DUMP, CHECK) ?
				 " (numbers only in a dump: -N)" : "");
	o->action = a;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		EXPLAIN_LONGOPTS,
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
		{ "optional",	no_argument,		NULL, OPT_OPTIONAL },
		{ NULL, 0, NULL, 0 }
	};
	const char *why;
	int ch, taken;

	*o = (struct opts){ .action = LOAD };
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:no:dNqvhV", longopts,
				 NULL)) != -1) {
		taken = explain_option(&o->ex, ch, optarg, &why);
		if (taken < 0)
			return bad_usage("%s", why);
		if (taken)
			continue;
		switch (ch) {
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
		case OPT_OPTIONAL:
			o->optional = 1;
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
		default:
			return usage_fail_getopt("tpe-load", synopsis, ch,
						 optopt, argv[optind - 1]);
		}
	}
	if (o->action == EXPLAIN) {
		if (optind == argc)
			return bad_usage("--explain needs a path");
		o->ex.paths = argv + optind;
		o->ex.npaths = (size_t)(argc - optind);
	} else if (optind < argc) {
		return bad_usage("unexpected argument \"%s\": the config is "
				 "given with -c", argv[optind]);
	}
	if ((o->ex.user || o->ex.ngroups) && o->action != EXPLAIN)
		return bad_usage("--user and --group go only with --explain");
	if (o->ex.json && o->action != DUMP && o->action != STATUS &&
	    o->action != EXPLAIN)
		return bad_usage("--json goes only with --dump, --status or "
				 "--explain");
	if (o->optional && o->action != LOAD)
		return bad_usage("--optional goes only with a load");
	if (o->action == DUMP && o->ex.config)
		return bad_usage("--dump reads the kernel's live policy: "
				 "--config does not go with it");
	if (o->numeric && o->action != DUMP)
		return bad_usage("--numeric goes only with --dump");
	o->config = o->ex.config ? o->ex.config : TPE_CONF_PATH;
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
		return FAILURE;
	}
	if (policy_encode(p, blob, len, err)) {
		fprintf(stderr, "%s: %s\n", o->config, err);
		policy_free(p);
		return FAILURE;
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

/* The exit status for an errno of read_live(). */
static int live_unreadable(int e)
{
	return e == ENOENT ? NOT_INSTALLED :
	       e == EACCES || e == EPERM ? NO_PERMISSION : FAILURE;
}

static int dump(const struct opts *o)
{
	const char *path = securityfs_policy();
	struct tpe_policy p;
	char err[ERRLEN];
	int e = read_live(&p, NULL, NULL, err);

	if (e) {
		fprintf(stderr, "tpe-load: %s\n", err);
		return live_unreadable(e);
	}
	if (o->ex.json) {
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
		return FAILURE;
	}
	return OK;
}

static int status(const struct opts *o)
{
	struct tpe_status s;
	char err[ERRLEN];
	int e, failed = status_gather(o->config, &s, err, &e), rc = OK;

	/* TPE off is a status too; a policy that cannot be read is not. */
	if (!failed || !strcmp(s.mode, "off"))
		(o->ex.json ? json_status : status_write)(stdout, &s);
	if (failed) {
		fprintf(stderr, "tpe-load: %s\n", err);
		rc = e == ENOENT && !s.have_policy ? NOT_INSTALLED :
		     e == EACCES || e == EPERM ? NO_PERMISSION : FAILURE;
	} else if (strcmp(s.sync, "in sync")) {
		rc = FAILURE;
	}
	status_free(&s);
	if (fflush(stdout)) {
		perror("stdout");
		rc = FAILURE;
	}
	return rc;
}

/* --explain, as tpe-explain does it (lib/explain.c). */
static int explain_action(struct opts *o)
{
	o->ex.prog = "tpe-load";
	o->ex.again = "tpe-explain";
	o->ex.quiet = o->verbosity < 0;
	return explain(&o->ex);
}

/* A failed write to the kernel: in words, with the exit code for it. */
static int refused_load(const struct opts *o, const char *to, int e)
{
	char why[ERRLEN];

	if (o->action == OUTPUT) {
		fprintf(stderr, "%s: %s\n", to, strerror(e));
		return FAILURE;
	}
	write_refusal(e, why);
	if (e == ENOENT && tpe_presence(&(int){ 0 }) != TPE_ACTIVE) {
		if (o->optional) {
			if (o->verbosity >= 0)
				fprintf(stderr, "tpe-load: %s; --optional: "
					"nothing loaded\n", why);
			return OK;
		}
		fprintf(stderr, "tpe-load: %s\n", why);
		return NOT_INSTALLED;
	}
	fprintf(stderr, "%s: %s\n", to, why);
	return e == EPERM || e == EACCES ? NO_PERMISSION :
	       e == ENOENT ? NOT_INSTALLED : FAILURE;
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
		rc = explain_action(&o);
		free(o.ex.groups);
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
			rc = refused_load(&o, to, e);
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
		rc = FAILURE;
	}
	return rc;
}
