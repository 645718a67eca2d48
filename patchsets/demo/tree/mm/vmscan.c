// SPDX-License-Identifier: GPL-2.0
/* Page reclaim: scan the inactive list and free what is not referenced. */
#include <linux/kernel.h>
#include <linux/mm.h>

#define PG_referenced	2
#define PG_dirty	4
#define PG_writeback	15

struct scan_control {
	unsigned long		nr_to_reclaim;
	unsigned long		nr_scanned;
	unsigned long		nr_reclaimed;
	unsigned int		may_writepage:1;
	unsigned int		may_unmap:1;
};

static LIST_HEAD(inactive_list);

static bool page_is_reclaimable(const struct page *page, const struct scan_control *sc)
{
	if (page->flags & BIT(PG_writeback))
		return false;
	if ((page->flags & BIT(PG_dirty)) && !sc->may_writepage)
		return false;
	return !(page->flags & BIT(PG_referenced));
}

unsigned long shrink_node(int nid, unsigned long nr_to_scan)
{
	struct scan_control sc = {
		.nr_to_reclaim	= nr_to_scan,
		.may_writepage	= 1,
		.may_unmap	= 1,
	};
	struct page *page;

	list_for_each_entry(page, &inactive_list, lru) {
		if (sc.nr_scanned++ >= nr_to_scan)
			break;
		if (page_is_reclaimable(page, &sc)) {
			__free_pages(page, 0);
			sc.nr_reclaimed++;
		}
	}
	pr_debug("node %d: scanned %lu reclaimed %lu\n", nid, sc.nr_scanned, sc.nr_reclaimed);
	return sc.nr_reclaimed;
}
