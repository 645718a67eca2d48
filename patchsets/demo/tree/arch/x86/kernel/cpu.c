// SPDX-License-Identifier: GPL-2.0
/* x86 CPU feature bits: what CPUID said, minus what the command line cleared. */
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/cpufeature.h>

struct cpuinfo_x86 boot_cpu_data;
static u32 cpu_caps_cleared[NCAPINTS];
static u32 cpu_caps_set[NCAPINTS];

static inline void native_cpuid(u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	asm volatile("cpuid"
		     : "=a" (*eax), "=b" (*ebx), "=c" (*ecx), "=d" (*edx)
		     : "0" (*eax), "2" (*ecx)
		     : "memory");
}

void get_cpu_cap(struct cpuinfo_x86 *c)
{
	u32 eax = 1, ebx, ecx = 0, edx;

	native_cpuid(&eax, &ebx, &ecx, &edx);
	c->x86 = (eax >> 8) & 0xf;
	c->x86_model = (eax >> 4) & 0xf;
	c->x86_stepping = eax & 0xf;
	c->x86_capability[0] = edx;
	c->x86_capability[1] = ecx;
}

void apply_forced_caps(u32 *caps)
{
	unsigned int i;

	for (i = 0; i < NCAPINTS; i++) {
		caps[i] &= ~cpu_caps_cleared[i];
		caps[i] |= cpu_caps_set[i];
	}
}

bool boot_cpu_has(unsigned int bit)
{
	return boot_cpu_data.x86_capability[bit / 32] & (1u << (bit % 32));
}

void identify_boot_cpu(void)
{
	get_cpu_cap(&boot_cpu_data);
	apply_forced_caps(boot_cpu_data.x86_capability);
	if (!boot_cpu_has(X86_FEATURE_FPU))
		panic("x86: no FPU");
	strscpy(boot_cpu_data.x86_model_id, "Demo CPU", sizeof(boot_cpu_data.x86_model_id));
}
