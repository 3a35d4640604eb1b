// SPDX-License-Identifier: GPL-2.0
/*
 * The program the matrix runs: static, no libc, exits 42 so that a row
 * can tell "it ran" from any other way an exec can end.
 */
void _start(void)
{
	__asm__ volatile("mov $60, %%eax\n\tmov $42, %%edi\n\tsyscall" ::: "memory");
	__builtin_unreachable();
}
