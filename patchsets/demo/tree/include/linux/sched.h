/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/kernel.h>
#include <linux/list.h>

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_WAKING		0x0200
#define TASK_DEAD		0x0080

#define PF_EXITING		0x00000004
#define PF_KTHREAD		0x00200000

#define TASK_COMM_LEN		16
#define MAX_PRIO		140
#define DEFAULT_PRIO		120

struct mm_struct;

struct task_struct {
	unsigned int		__state;
	unsigned int		flags;
	int			prio;
	int			static_prio;
	pid_t			pid;
	int			exit_code;
	unsigned long		nvcsw, nivcsw;
	struct mm_struct	*mm;
	struct task_struct	*parent;
	struct list_head	children;
	struct list_head	sibling;
	struct list_head	tasks;
	char			comm[TASK_COMM_LEN];
};

extern struct task_struct init_task;
extern struct task_struct *current_task;
#define current current_task

static inline bool task_is_running(const struct task_struct *p)
{
	return READ_ONCE(p->__state) == TASK_RUNNING;
}

static inline bool task_is_waking(const struct task_struct *p)
{
	return READ_ONCE(p->__state) & TASK_WAKING;
}

/* Runnable for the scheduler: running, or being woken up right now. */
static inline bool task_on_runqueue(const struct task_struct *p)
{
	return task_is_running(p) | task_is_waking(p);
}

struct task_struct *copy_process(struct task_struct *parent, unsigned long clone_flags);
void do_exit(long code) __noreturn;
void sched_init(void);
void schedule(void);
int wake_up_process(struct task_struct *p);
int sched_setprio(struct task_struct *p, int prio);
void sched_fair_init(void);

#endif
