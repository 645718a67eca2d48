// SPDX-License-Identifier: GPL-2.0
/* start_kernel(): bring the subsystems up in order, then run the initcalls. */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>

extern const char linux_banner[];
extern initcall_t __initcall_start[], __initcall_end[];
void setup_arch(char **cmdline_p);
void arch_cpu_idle(void);

static char *saved_command_line;
static int initcall_debug;

void __init __weak arch_post_init(void) { }

void __init do_initcalls(void)
{
	initcall_t *fn;

	for (fn = __initcall_start; fn < __initcall_end; fn++) {
		int ret = (*fn)();

		if (ret && initcall_debug)
			pr_warn("initcall %p returned %d\n", *fn, ret);
	}
}

void __init start_kernel(void)
{
	pr_notice("%s", linux_banner);
	setup_arch(&saved_command_line);
	pr_notice("Kernel command line: %s\n", saved_command_line);
	mem_init();
	sched_init();
	inode_init();
	do_initcalls();
	arch_post_init();
	for (;;)
		arch_cpu_idle();
}
