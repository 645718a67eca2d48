// SPDX-License-Identifier: GPL-2.0
/* The core scheduler: a run queue of tasks and their priorities. */
#include <linux/errno.h>
#include <linux/sched.h>

struct rq {
	struct list_head	tasks;
	unsigned int		nr_running;
	unsigned long		nr_switches;
	struct task_struct	*curr;
};

static struct rq runqueue;
struct task_struct init_task = {
	.__state	= TASK_RUNNING,
	.flags		= PF_KTHREAD,
	.prio		= DEFAULT_PRIO,
	.static_prio	= DEFAULT_PRIO,
	.comm		= "swapper",
};
struct task_struct *current_task = &init_task;

void sched_init(void)
{
	INIT_LIST_HEAD(&runqueue.tasks);
	INIT_LIST_HEAD(&init_task.children);
	runqueue.curr = &init_task;
	sched_fair_init();
}

int wake_up_process(struct task_struct *p)
{
	if (task_on_runqueue(p))
		return 0;
	WRITE_ONCE(p->__state, TASK_WAKING);
	list_add_tail(&p->tasks, &runqueue.tasks);
	runqueue.nr_running++;
	return 1;
}

/* Nice values map to priorities 100..139; real-time ones are below 100. */
int sched_setprio(struct task_struct *p, int prio)
{
	int ret;

	if (prio < 0 || prio >= MAX_PRIO)
		ret = -EINVAL;
	else if (p->flags & PF_EXITING)
		ret = -ESRCH;
	else if (prio < 100 && !(p->flags & PF_KTHREAD))
		goto out;
	else
		ret = 0;
	p->prio = prio;
out:
	return ret;
}

void schedule(void)
{
	struct task_struct *prev = runqueue.curr, *next;

	if (list_empty(&runqueue.tasks))
		return;
	next = list_first_entry(&runqueue.tasks, struct task_struct, tasks);
	list_del(&next->tasks);
	if (task_is_running(prev))
		list_add_tail(&prev->tasks, &runqueue.tasks);
	WRITE_ONCE(next->__state, TASK_RUNNING);
	runqueue.curr = next;
	current_task = next;
	runqueue.nr_switches++;
}
