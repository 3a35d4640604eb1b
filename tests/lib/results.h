/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Result lines, as tests/README.md's contract has them: one per check on
 * stdout, "ok - PROG: NAME" or "not ok - PROG: NAME: REASON". Anything
 * else is log and starts with "# ".
 */
#ifndef TPE_TESTS_LIB_RESULTS_H
#define TPE_TESTS_LIB_RESULTS_H

#include <stdbool.h>

extern const char *prog_name;	/* prefix of every check name */
extern int nr_ok, nr_fail;

/* One result line: "ok - PROG: NAME" or "not ok - PROG: NAME: REASON". */
__attribute__((format(printf, 3, 4)))
void check(bool ok, const char *reason, const char *fmt, ...);
/* A log line, "# PROG: TEXT". */
__attribute__((format(printf, 1, 2)))
void note(const char *fmt, ...);
/* "not ok - PROG: setup: TEXT (errno NAME)" and exit 1: a test that
 * cannot set itself up has failed. */
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);
/* "EACCES", "EPERM", ...; "errno N" for the others. */
const char *errno_name(int err);

#endif
