// SPDX-License-Identifier: GPL-2.0
/* Busy-wait delays on the time stamp counter. */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <asm/processor.h>

static u64 rdtsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
	return ((u64)hi << 32) | lo;
}

static unsigned long tsc_khz = 2000000;

void udelay(unsigned long usecs)
{
	u64 start = rdtsc();
	u64 cycles = (u64)usecs * tsc_khz / 1000;

	while (rdtsc() - start < cycles)
		cpu_relax();
}
