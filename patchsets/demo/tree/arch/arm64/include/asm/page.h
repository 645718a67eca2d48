/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ASM_PAGE_H
#define __ASM_PAGE_H

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1 << PAGE_SHIFT)
#define KIMAGE_VADDR		0xffff800008000000

#endif
