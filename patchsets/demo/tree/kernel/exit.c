// SPDX-License-Identifier: GPL-2.0
/* do_exit(): release what a task holds and never come back. */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

static void exit_mm(struct task_struct *tsk)
{
	struct mm_struct *mm = tsk->mm;

	if (!mm)
		return;
	tsk->mm = NULL;
	mmput(mm);
}

static void exit_notify(struct task_struct *tsk)
{
	struct task_struct *child;

	list_for_each_entry(child, &tsk->children, sibling)
		child->parent = &init_task;
	WRITE_ONCE(tsk->__state, TASK_DEAD);
}

void do_exit(long code)
{
	struct task_struct *tsk = current;

	if (unlikely(tsk->flags & PF_EXITING))
		pr_alert("Fixing recursive fault but reboot is needed!\n");
	tsk->flags |= PF_EXITING;
	tsk->exit_code = code;
	exit_mm(tsk);
	exit_notify(tsk);
	for (;;)
		schedule();
}
