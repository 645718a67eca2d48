// SPDX-License-Identifier: GPL-2.0
/* copy_process(): a new task as a copy of its parent. */
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#define CLONE_VM	0x00000100
#define CLONE_THREAD	0x00010000

static pid_t last_pid;
static int nr_threads;
static int max_threads = 512;

static struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	memcpy(mm, oldmm, sizeof(*mm));
	mm->map_count = 0;
	return mm;
}

struct task_struct *copy_process(struct task_struct *parent, unsigned long clone_flags)
{
	struct task_struct *p;

	if (nr_threads >= max_threads)
		return ERR_PTR(-EAGAIN);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->prio = parent->prio;
	p->static_prio = parent->static_prio;
	p->parent = parent;
	p->pid = ++last_pid;
	INIT_LIST_HEAD(&p->children);
	if (clone_flags & CLONE_VM) {
		p->mm = parent->mm;
	} else if (parent->mm) {
		p->mm = dup_mm(parent->mm);
		if (!p->mm) {
			kfree(p);
			return ERR_PTR(-ENOMEM);
		}
	}
	list_add_tail(&p->sibling, &parent->children);
	nr_threads++;
	return p;
}
