// SPDX-License-Identifier: GPL-2.0
/* The fair class: weights from nice levels, and CFS bandwidth control. */
#include <linux/sched.h>

#define NICE_0_LOAD	1024

static const int sched_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	 9548,  7620,  6100,  4904,  3906,
	 3121,  2501,  1991,  1586,  1277,
	 1024,   820,   655,   526,   423,
	  335,   272,   215,   172,   137,
	  110,    87,    70,    56,    45,
	   36,    29,    23,    18,    15,
};

struct cfs_bandwidth {
	u64			quota;
	u64			period;
	int			nr_periods;
	int			nr_throttled;
};

static struct cfs_bandwidth root_cfs_b;

void init_cfs_bandwidth(struct cfs_bandwidth *cfs_b)
{
	cfs_b->quota = ~0ULL;
	cfs_b->period = 100000000ULL;
	cfs_b->nr_periods = 0;
	cfs_b->nr_throttled = 0;
}

unsigned long task_weight(const struct task_struct *p)
{
	int idx = p->static_prio - 100;

	if (idx < 0 || idx >= (int)ARRAY_SIZE(sched_prio_to_weight))
		return NICE_0_LOAD;
	return sched_prio_to_weight[idx];
}

/* How many tasks on a list are runnable? */
unsigned int nr_runnable(struct list_head *tasks)
{
	struct task_struct *p;
	unsigned long load = 0;
	unsigned int nr = 0;

	list_for_each_entry(p, tasks, tasks) {
		if (!task_on_runqueue(p))
			continue;
		load += task_weight(p);
		nr++;
	}
	return nr;
}

void sched_fair_init(void)
{
	init_cfs_bandwidth(&root_cfs_b);
}
