// SPDX-License-Identifier: GPL-2.0
/* /proc: a flat table of entries with their file operations. */
#include <linux/errno.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>

#define PROC_MAX_ENTRIES 32

static struct proc_dir_entry proc_root = { .name = "/proc", .mode = S_IFDIR | 0555 };
static struct proc_dir_entry *proc_entries[PROC_MAX_ENTRIES];
static unsigned int nr_proc_entries;

struct proc_dir_entry *proc_create(const char *name, umode_t mode,
				   struct proc_dir_entry *parent,
				   const struct file_operations *fops)
{
	struct proc_dir_entry *ent;

	if (nr_proc_entries >= PROC_MAX_ENTRIES)
		return NULL;
	ent = kzalloc(sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return NULL;
	ent->name = name;
	ent->mode = mode ? mode : S_IFREG | 0444;
	ent->parent = parent ? parent : &proc_root;
	ent->proc_fops = fops;
	proc_entries[nr_proc_entries++] = ent;
	return ent;
}

void proc_root_init(void)
{
	proc_create("meminfo", 0, NULL, NULL);
	proc_create("version", 0, NULL, NULL);
}
