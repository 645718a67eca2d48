/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/types.h>

#define GFP_KERNEL	0x0cc0u
#define GFP_ATOMIC	0x0820u
#define __GFP_ZERO	0x0100u

void kfree(const void *objp);
#ifdef __clang__
void *kmalloc(size_t size, gfp_t flags) __attribute__((__malloc__));
#else
/* GCC knows kfree() releases what kmalloc() returned. */
void *kmalloc(size_t size, gfp_t flags) __attribute__((__malloc__, __malloc__(kfree, 1)));
#endif
char *kstrdup(const char *s, gfp_t gfp);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, flags);
}

#endif
