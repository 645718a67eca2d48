// SPDX-License-Identifier: GPL-2.0
/* x86_64 early setup: the command line and the boot CPU. */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

static char command_line[256];

void __init setup_arch(char **cmdline_p)
{
	identify_boot_cpu();
	strscpy(command_line, "console=ttyS0 root=/dev/vda", sizeof(command_line));
	*cmdline_p = command_line;
	pr_info("x86/cpu: family %d model %d\n", boot_cpu_data.x86, boot_cpu_data.x86_model);
}

void arch_cpu_idle(void)
{
	native_halt();
}
