// SPDX-License-Identifier: GPL-2.0
/* The program the tests execute from trusted and untrusted places. */
int main(void)
{
	return 0;
}
