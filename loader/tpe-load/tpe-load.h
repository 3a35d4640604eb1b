/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpe-load: what only it does, on top of libtpe.
 *
 *   main.c     the command line; --explain is lib/explain.c's
 *   status.c   --status: the mode, the counters, is the config in sync
 */
#ifndef TPE_LOAD_H
#define TPE_LOAD_H

#include "io.h"

/* status.c */
int status_parse_stats(const char *text, struct tpe_status *s);
int status_gather(const char *config, struct tpe_status *s, char err[ERRLEN],
		  int *errnum);
void status_free(struct tpe_status *s);
void status_write(FILE *f, const struct tpe_status *s);

#endif
