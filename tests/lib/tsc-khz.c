// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: the host's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW.
 *
 * Under TCG without -icount the guest's RDTSC reads the host's TSC, so this
 * is the guest's TSC rate too; boot-qemu gives it to the guest's kernel as
 * tsc_early_khz=, which then never calibrates the TSC against the PIT (that
 * calibration fails at random when TCG runs late, and the guest falls back
 * to keeping time by jiffies).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/*
 * One TSC reading and the clock's time of it: of many readings, the one
 * between the two closest clock readings, so that being preempted in
 * between does not count.
 */
static void sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t narrowest = UINT64_MAX;

	for (int i = 0; i < 1000; i++) {
		uint64_t before = now_ns();
		uint64_t t = __rdtsc();
		uint64_t after = now_ns();

		if (after - before < narrowest) {
			narrowest = after - before;
			*tsc = t;
			*ns = before + (after - before) / 2;
		}
	}
}

int main(void)
{
	const struct timespec interval = { .tv_nsec = 200 * 1000 * 1000 };
	uint64_t tsc0, ns0, tsc1, ns1;

	sample(&tsc0, &ns0);
	nanosleep(&interval, NULL);
	sample(&tsc1, &ns1);
	if (tsc1 <= tsc0 || ns1 <= ns0) {
		fprintf(stderr, "tsc-khz: the TSC or the clock did not advance\n");
		return 1;
	}
	/* cycles per millisecond; 200 ms of a 10 GHz TSC times 10^6 fits */
	printf("%llu\n", (unsigned long long)((tsc1 - tsc0) * 1000000 / (ns1 - ns0)));
	return 0;
}
