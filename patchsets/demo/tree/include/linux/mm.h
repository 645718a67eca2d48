/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/mm_types.h>
#include <asm/page.h>

#define MAX_ORDER	11

struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
unsigned long nr_free_pages(void);
void mem_init(void);
unsigned long shrink_node(int nid, unsigned long nr_to_scan);
struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);

#endif
