// SPDX-License-Identifier: GPL-2.0
/* arm64 early setup: the command line and the boot CPU's features. */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

static char command_line[256];

void __init setup_arch(char **cmdline_p)
{
	setup_cpu_features();
	strscpy(command_line, "console=ttyAMA0 root=/dev/vda", sizeof(command_line));
	*cmdline_p = command_line;
	pr_info("arm64: LSE atomics %s\n",
		cpus_have_cap(ARM64_HAS_LSE_ATOMICS) ? "enabled" : "disabled");
}

void arch_cpu_idle(void)
{
	cpu_do_idle();
}
