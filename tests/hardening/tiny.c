// SPDX-License-Identifier: GPL-2.0
/*
 * The cheapest program exec can load: static, no libc, one syscall. The
 * exec stress test runs it hundreds of thousands of times under TCG.
 */
void _start(void)
{
	__asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "memory");
	__builtin_unreachable();
}
