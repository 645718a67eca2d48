// SPDX-License-Identifier: GPL-2.0
/* arm64 CPU features from the ID registers. */
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <asm/cpufeature.h>

static DECLARE_BITMAP(cpu_hwcaps, ARM64_NCAPS);

bool cpus_have_cap(unsigned int num)
{
	if (num >= ARM64_NCAPS)
		return false;
	return bitmap_test(cpu_hwcaps, num);
}

static bool system_supports_32bit_el0(u64 pfr0)
{
	u64 el0 = (pfr0 >> ID_AA64PFR0_EL1_EL0_SHIFT) & 0xf;

	if ((el0 == ID_AA64PFR0_EL1_ELx_64BIT_ONLY))
		return false;
	return el0 == ID_AA64PFR0_EL1_ELx_32BIT_64BIT;
}

void setup_cpu_features(void)
{
	u64 pfr0 = read_sanitised_ftr_reg();

	bitmap_zero(cpu_hwcaps, ARM64_NCAPS);
	if (IS_ENABLED(CONFIG_ARM64_LSE_ATOMICS))
		bitmap_set(cpu_hwcaps, ARM64_HAS_LSE_ATOMICS, 1);
	if (IS_ENABLED(CONFIG_ARM64_PAN))
		bitmap_set(cpu_hwcaps, ARM64_HAS_PAN, 1);
	pr_info("CPU features: 32-bit EL0 %s\n",
		system_supports_32bit_el0(pfr0) ? "supported" : "not supported");
}
