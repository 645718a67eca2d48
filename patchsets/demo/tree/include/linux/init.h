/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include <linux/compiler.h>

#define __init		__section(".init.text") __cold
#define __initdata	__section(".init.data")

typedef int (*initcall_t)(void);

/* device_initcall(fn): run fn() from do_initcalls() at boot. */
#define device_initcall(fn) \
	static initcall_t __initcall_##fn __used __section(".initcall6.init") = fn
#define module_init(fn)		device_initcall(fn)
#define late_initcall(fn)	device_initcall(fn)

void do_initcalls(void);

#endif
