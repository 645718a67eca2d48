/* SPDX-License-Identifier: GPL-2.0 */
/* The first instructions: set up a stack and call start_kernel(). */
	.section .head.text, "ax"
	.globl startup_64
startup_64:
	leaq	init_stack_end(%rip), %rsp
	call	start_kernel
1:	hlt
	jmp	1b

	.section .bss
	.balign 16
init_stack:
	.skip	16384
init_stack_end:

	.section .note.GNU-stack, "", %progbits
