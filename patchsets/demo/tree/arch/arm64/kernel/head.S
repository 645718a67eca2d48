/* SPDX-License-Identifier: GPL-2.0 */
/* The first instructions: set up a stack and call start_kernel(). */
	.section .head.text, "ax"
	.globl primary_entry
primary_entry:
	adrp	x0, init_stack_end
	add	x0, x0, :lo12:init_stack_end
	mov	sp, x0
	bl	start_kernel
1:	wfi
	b	1b

	.section .bss
	.balign 16
init_stack:
	.skip	16384
init_stack_end:

	.section .note.GNU-stack, "", %progbits
