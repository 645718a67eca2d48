/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_CPUFEATURE_H
#define _ASM_X86_CPUFEATURE_H

#include <linux/types.h>

#define NCAPINTS		4
#define X86_FEATURE_FPU		(0 * 32 + 0)
#define X86_FEATURE_TSC		(0 * 32 + 4)
#define X86_FEATURE_PAE		(0 * 32 + 6)
#define X86_FEATURE_APIC	(0 * 32 + 9)
#define X86_FEATURE_XMM2	(0 * 32 + 26)
#define X86_FEATURE_HYPERVISOR	(1 * 32 + 31)

struct cpuinfo_x86 {
	u8			x86;		/* CPU family */
	u8			x86_vendor;
	u8			x86_model;
	u8			x86_stepping;
	u32			x86_capability[NCAPINTS];
	char			x86_model_id[64];
};

extern struct cpuinfo_x86 boot_cpu_data;

void get_cpu_cap(struct cpuinfo_x86 *c);
void apply_forced_caps(u32 caps[NCAPINTS]);
bool boot_cpu_has(unsigned int bit);
void identify_boot_cpu(void);

#endif
