// SPDX-License-Identifier: GPL-2.0
/* The flag keys of tpe.conf (see flags.h). */
#include <linux/tpe.h>

#include "flags.h"

const struct flag_key flag_keys[] = {
	{ "enforce",	TPE_POLICY_ENFORCE },
	{ "check_file",	TPE_POLICY_CHECK_FILE },
	{ "strict",	TPE_POLICY_STRICT },
	{ "mmap",	TPE_POLICY_MMAP },
	{ "invert",	TPE_POLICY_INVERT },
	{ "lock",	TPE_POLICY_LOCK },
};

_Static_assert(sizeof(flag_keys) / sizeof(flag_keys[0]) == NFLAG_KEYS,
	       "NFLAG_KEYS is the number of flag_keys");

const size_t nflag_keys = NFLAG_KEYS;
