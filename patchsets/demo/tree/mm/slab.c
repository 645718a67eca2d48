// SPDX-License-Identifier: GPL-2.0
/* kmalloc(): size classes carved out of pages, with a free list per class. */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#define KMALLOC_MIN_SIZE	16
#define KMALLOC_SHIFT_HIGH	12

struct kmem_cache {
	const char		*name;
	unsigned int		size;
	void			*freelist;
	unsigned long		nr_allocs;
};

static struct kmem_cache kmalloc_caches[KMALLOC_SHIFT_HIGH + 1];
static char slab_arena[1 << 20] __aligned(PAGE_SIZE);
static unsigned long arena_used;

static unsigned int kmalloc_index(size_t size)
{
	unsigned int i = 4;

	while ((1UL << i) < size)
		i++;
	return i;
}

void *kmalloc(size_t size, gfp_t flags)
{
	struct kmem_cache *s;
	unsigned int idx;
	void *obj;

	if (size > (1UL << KMALLOC_SHIFT_HIGH))
		return NULL;
	idx = kmalloc_index(size < KMALLOC_MIN_SIZE ? KMALLOC_MIN_SIZE : size);
	s = &kmalloc_caches[idx];
	s->size = 1U << idx;
	if (s->freelist) {
		obj = s->freelist;
		s->freelist = *(void **)obj;
	} else {
		if (arena_used + s->size > sizeof(slab_arena))
			return NULL;
		obj = slab_arena + arena_used;
		arena_used += s->size;
	}
	s->nr_allocs++;
	if (flags & __GFP_ZERO)
		memset(obj, 0, s->size);
	return obj;
}

void kfree(const void *objp)
{
	/* The demo allocator never gives memory back. */
	(void)objp;
}
