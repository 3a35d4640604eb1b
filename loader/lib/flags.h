/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy flags by their tpe.conf names, in the order tpe.conf and every
 * report write them. No dependency beyond <linux/tpe.h>: the test programs
 * (tests/lib/policy.c) parse their flag lists with this same table.
 */
#ifndef TPE_FLAGS_H
#define TPE_FLAGS_H

#include <stddef.h>
#include <stdint.h>

struct flag_key {
	const char *key;
	uint32_t flag;
};

/* A constant, for arrays with one slot per key (conf.c's seen[]). */
#define NFLAG_KEYS 6

extern const struct flag_key flag_keys[NFLAG_KEYS];
extern const size_t nflag_keys;	/* NFLAG_KEYS */

#endif
