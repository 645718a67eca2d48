/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROC_FS_H
#define _LINUX_PROC_FS_H

#include <linux/fs.h>

struct proc_dir_entry {
	const char		*name;
	umode_t			mode;
	const struct file_operations *proc_fops;
	struct proc_dir_entry	*parent;
};

struct proc_dir_entry *proc_create(const char *name, umode_t mode,
				   struct proc_dir_entry *parent,
				   const struct file_operations *fops);
void proc_root_init(void);

#endif
