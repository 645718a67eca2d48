// SPDX-License-Identifier: GPL-2.0
/* The buddy allocator: free lists of 2^order pages. */
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>

#define NR_PAGES	4096

struct free_area {
	struct list_head	free_list;
	unsigned long		nr_free;
};

static struct page mem_map[NR_PAGES];
static struct free_area free_area[MAX_ORDER];
static unsigned long totalram_pages;

static void add_to_free_list(struct page *page, unsigned int order)
{
	list_add(&page->lru, &free_area[order].free_list);
	free_area[order].nr_free++;
	page->order = order;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	unsigned int o;

	for (o = order; o < MAX_ORDER; o++) {
		struct page *page;

		if (list_empty(&free_area[o].free_list))
			continue;
		page = list_first_entry(&free_area[o].free_list, struct page, lru);
		list_del(&page->lru);
		free_area[o].nr_free--;
		while (o > order) {
			o--;
			add_to_free_list(page + (1UL << o), o);
		}
		page->_refcount = 1;
		page->order = order;
		return page;
	}
	return NULL;
}

void __free_pages(struct page *page, unsigned int order)
{
	if (--page->_refcount == 0)
		add_to_free_list(page, order);
}

unsigned long nr_free_pages(void)
{
	unsigned long sum = 0;
	unsigned int o;

	for (o = 0; o < MAX_ORDER; o++)
		sum += free_area[o].nr_free << o;
	return sum;
}

/* Print the free lists, one line per order, as "Node 0 DMA32: ..." */
void show_free_areas(void)
{
	char buf[MAX_ORDER][256];
	unsigned int o;

	for (o = 0; o < MAX_ORDER; o++)
		snprintf(buf[o], sizeof(buf[o]), "%lu*%lukB ",
			 free_area[o].nr_free, (PAGE_SIZE >> 10) << o);
	for (o = 0; o < MAX_ORDER; o++)
		pr_info("Node 0 DMA32: %s\n", buf[o]);
}

void mem_init(void)
{
	unsigned int o;
	unsigned long pfn;

	for (o = 0; o < MAX_ORDER; o++)
		INIT_LIST_HEAD(&free_area[o].free_list);
	for (pfn = 0; pfn < NR_PAGES; pfn += 1UL << (MAX_ORDER - 1))
		add_to_free_list(&mem_map[pfn], MAX_ORDER - 1);
	totalram_pages = NR_PAGES;
	pr_info("Memory: %luK available\n", nr_free_pages() * (PAGE_SIZE >> 10));
	show_free_areas();
}
