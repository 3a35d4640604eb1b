// SPDX-License-Identifier: GPL-2.0
/* The program the bypass tests try to run: exit 42 says it ran. */
#include <stdlib.h>

int main(void)
{
	return 42;
}
