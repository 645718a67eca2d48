/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

#include <linux/list.h>
#include <linux/types.h>

struct page {
	unsigned long		flags;
	struct list_head	lru;
	int			_refcount;
	unsigned int		order;
};

/* Counters are 8-byte aligned so they can be updated atomically. */
struct mm_counter {
	long count;
} __aligned(8);

/* Per-mm statistics, packed to keep mm_struct small. */
struct mm_rss_stat {
	u8			type;
	struct mm_counter	count;
} __packed;

struct mm_struct {
	unsigned long		start_code, end_code;
	unsigned long		start_brk, brk;
	unsigned long		total_vm;
	int			map_count;
	struct mm_rss_stat	rss_stat;
};

#endif
