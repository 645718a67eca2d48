/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ASM_CPUFEATURE_H
#define __ASM_CPUFEATURE_H

#include <linux/types.h>

#define ARM64_HAS_LSE_ATOMICS	0
#define ARM64_HAS_PAN		1
#define ARM64_HAS_SVE		2
#define ARM64_NCAPS		3

#define ID_AA64PFR0_EL1_EL0_SHIFT	0
#define ID_AA64PFR0_EL1_ELx_64BIT_ONLY	0x1
#define ID_AA64PFR0_EL1_ELx_32BIT_64BIT	0x2

static inline u64 read_sanitised_ftr_reg(void)
{
	u64 val;

	asm volatile("mrs %0, id_aa64pfr0_el1" : "=r" (val));
	return val;
}

bool cpus_have_cap(unsigned int num);
void setup_cpu_features(void);

#endif
