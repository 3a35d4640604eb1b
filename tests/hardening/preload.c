// SPDX-License-Identifier: GPL-2.0
/* An LD_PRELOAD library: if ld.so maps it, its constructor exits 43. */
#include <unistd.h>

__attribute__((constructor)) static void preloaded(void)
{
	_exit(43);
}
