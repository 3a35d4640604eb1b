// SPDX-License-Identifier: GPL-2.0
/*
 * policy-set: write one policy blob to tpe/policy, for the suites' set-up.
 * Deliberately not tpe-load: the hardening suites test the kernel's ABI,
 * byte for byte, without the loader in between.
 *
 *   policy-set [-f FLAG,...] [-u UID]... [-g GID]...
 *
 * FLAG: tpe.conf's keys (loader/lib/flags.c): enforce check_file strict
 * mmap invert lock. IDs must be given in ascending order (the ABI's rule;
 * the kernel says EINVAL otherwise).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	uint32_t uids[64], gids[64];
	struct policy p = { 0, 0, 0, uids, gids };
	int opt, err;

	while ((opt = getopt(argc, argv, "f:u:g:")) != -1) {
		if (opt == 'f') {
			const char *bad = policy_parse_flags(optarg, &p.flags);

			if (bad) {
				fprintf(stderr, "policy-set: unknown flag \"%.*s\"\n",
					(int)strcspn(bad, ","), bad);
				return 2;
			}
		} else if (opt == 'u' && p.nr_uids < 64) {
			uids[p.nr_uids++] = strtoul(optarg, NULL, 0);
		} else if (opt == 'g' && p.nr_gids < 64) {
			gids[p.nr_gids++] = strtoul(optarg, NULL, 0);
		} else {
			fprintf(stderr, "usage: policy-set [-f FLAG,...] [-u UID]... [-g GID]...\n");
			return 2;
		}
	}
	err = policy_set(&p);
	if (err) {
		fprintf(stderr, "policy-set: %s: %s\n", POLICY_PATH, strerror(err));
		return 1;
	}
	return 0;
}
