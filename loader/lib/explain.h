/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why is a program allowed or refused: the policy it is judged by, who
 * asks, each path as exec meets it (a script and its interpreters), the
 * judge's verdicts (judge.h), said in words (explain.c) or in JSON
 * (json.c): the one action of `tpe-load --explain` and tpe-explain.
 */
#ifndef TPE_EXPLAIN_H
#define TPE_EXPLAIN_H

#include "judge.h"

/* a file and 4 interpreters: BINPRM_MAX_RECURSION */
#define EXPLAIN_CHAIN_MAX	5

/* One path: the file, and for a script each interpreter exec runs. */
struct explain_chain {
	struct explain_step {
		struct tpe_facts f;
		struct tpe_verdict v;
		char *interp;	/* its #! interpreter, or NULL */
	} step[EXPLAIN_CHAIN_MAX];
	size_t n;
};

struct explain_opts {
	const char *prog;	/* the program, first word of its messages */
	const char *again;	/* the command to run instead, for hints */
	const char *config;	/* judge by it (- stdin), or NULL: the live one */
	int quiet;		/* the config's warnings unsaid */
	const char *user;	/* whom for (name or UID), or NULL: the caller */
	char **groups;		/* their supplementary groups, or none: NSS's */
	size_t ngroups;
	char **paths;
	size_t npaths;
	int json;
};

/*
 * The options tpe-explain takes that tpe-load shares, for getopt_long():
 * -c (in the short options, "c:"), --json, --user and --group. Both
 * programs' parsers hand each option to explain_option() first.
 */
enum explain_opt { EXPLAIN_OPT_JSON = 0x200, EXPLAIN_OPT_USER,
		   EXPLAIN_OPT_GROUP };
#define EXPLAIN_LONGOPTS \
	{ "config", required_argument, NULL, 'c' }, \
	{ "json", no_argument, NULL, EXPLAIN_OPT_JSON }, \
	{ "user", required_argument, NULL, EXPLAIN_OPT_USER }, \
	{ "group", required_argument, NULL, EXPLAIN_OPT_GROUP }

/* explain()'s return, which both programs exit with */
enum explain_status { EXPLAIN_ALLOWED, EXPLAIN_REFUSED, EXPLAIN_ERROR };

/* explain.c */
/*
 * Takes getopt_long()'s ch and arg when they are one of EXPLAIN_LONGOPTS:
 * 1 taken, 0 not one of them, -1 with *why the usage error.
 */
int explain_option(struct explain_opts *o, int ch, char *arg,
		   const char **why);
int explain(const struct explain_opts *o);
void explain_write(FILE *out, const struct tpe_policy *p,
		   const struct tpe_identity *who, const struct tpe_facts *f,
		   const struct tpe_verdict *v, const struct tpe_resolver *r);

#endif
