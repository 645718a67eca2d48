/* SPDX-License-Identifier: GPL-2.0 */
/* The arm64 vmlinux layout: text at the start of the kernel image area. */
#include <asm/page.h>

OUTPUT_ARCH(aarch64)
ENTRY(primary_entry)

SECTIONS
{
	. = KIMAGE_VADDR;
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
