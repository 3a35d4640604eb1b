/* SPDX-License-Identifier: GPL-2.0 */
/* json.c: every JSON object the programs write; the flag names once. */
#ifndef TPE_JSON_H
#define TPE_JSON_H

#include "explain.h"
#include "io.h"

void json_string(FILE *f, const char *s);
void json_flags(FILE *f, uint32_t flags);
void json_policy(FILE *f, const char *source, const struct tpe_policy *p,
		 const struct tpe_resolver *r);
void json_status(FILE *f, const struct tpe_status *s);
void json_explain(FILE *out, const char *from, const struct tpe_policy *p,
		  const struct tpe_identity *who, const struct explain_chain *c,
		  size_t n, const struct tpe_resolver *r);

#endif
