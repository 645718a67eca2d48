/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PROCESSOR_H
#define _ASM_X86_PROCESSOR_H

/* PAUSE: tell the CPU we are spinning. */
static __always_inline void cpu_relax(void)
{
	asm volatile("rep; nop" ::: "memory");
}

static inline void native_halt(void)
{
	asm volatile("hlt" ::: "memory");
}

#endif
