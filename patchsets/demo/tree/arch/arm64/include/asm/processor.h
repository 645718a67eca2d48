/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ASM_PROCESSOR_H
#define __ASM_PROCESSOR_H

/* YIELD: tell the CPU we are spinning. */
static __always_inline void cpu_relax(void)
{
	asm volatile("yield" ::: "memory");
}

static inline void cpu_do_idle(void)
{
	asm volatile("dsb sy; wfi" ::: "memory");
}

#endif
