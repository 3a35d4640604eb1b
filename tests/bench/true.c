// SPDX-License-Identifier: GPL-2.0
/*
 * The exec target: the smallest static program that runs and exits 0.
 * No libc, so an exec measures the kernel (fork, execve, the LSM hooks,
 * exit), not the C library's start-up.
 */
void _start(void);

void _start(void)
{
	__asm__ volatile("mov $60, %%eax\n\t"	/* SYS_exit */
			 "xor %%edi, %%edi\n\t"
			 "syscall"
			 ::: "rax", "rdi", "rcx", "r11", "memory");
	__builtin_unreachable();
}
