/* SPDX-License-Identifier: GPL-2.0 */
/* The x86_64 vmlinux layout: text at the kernel's usual virtual address. */
#include <asm/page.h>

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(startup_64)

SECTIONS
{
	. = __START_KERNEL_map + 0x1000000;
	_text = .;
	.text : {
		*(.head.text)
		*(.text .text.*)
	}
	_etext = .;
	. = ALIGN(PAGE_SIZE);
	.rodata : { *(.rodata .rodata.*) }
	. = ALIGN(PAGE_SIZE);
	.data : { *(.data .data.*) }
	.init.data : {
		__initcall_start = .;
		KEEP(*(.initcall6.init))
		__initcall_end = .;
		*(.init.data .init.text)
	}
	.bss : {
		__bss_start = .;
		*(.bss .bss.*) *(COMMON)
		__bss_stop = .;
	}
	_end = .;
	/DISCARD/ : { *(.note.*) *(.comment) *(.eh_frame) }
}
