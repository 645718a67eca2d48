// SPDX-License-Identifier: GPL-2.0
/* panic(): print the reason and stop. */
#include <linux/kernel.h>

static char panic_buf[1024];
int panic_timeout;

void panic(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(panic_buf, sizeof(panic_buf), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", panic_buf);
	for (;;)
		barrier();
}
