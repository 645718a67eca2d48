// SPDX-License-Identifier: GPL-2.0
/* Inodes: allocation, naming and the superblock's list. */
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>

static LIST_HEAD(inode_list);
static unsigned long last_ino;

struct inode *new_inode(const char *name, umode_t mode)
{
	struct inode *inode = kzalloc(sizeof(*inode), GFP_KERNEL);

	if (!inode)
		return NULL;
	inode->i_ino = ++last_ino;
	inode->i_mode = mode;
	inode->i_nlink = 1;
	strscpy(inode->i_name, name, sizeof(inode->i_name));
	list_add(&inode->i_sb_list, &inode_list);
	return inode;
}

void iput(struct inode *inode)
{
	if (!inode)
		return;
	if (--inode->i_nlink == 0) {
		list_del(&inode->i_sb_list);
		kfree(inode);
		pr_info("VFS: evicted inode %lu\n", inode->i_ino);
	}
}

struct inode *find_inode(const char *name)
{
	struct inode *inode;

	list_for_each_entry(inode, &inode_list, i_sb_list)
		if (inode->i_name && !strcmp(inode->i_name, name))
			return inode;
	return NULL;
}

void inode_init(void)
{
	new_inode("/", S_IFDIR | 0755);
	new_inode("dev", S_IFDIR | 0755);
	new_inode("proc", S_IFDIR | 0555);
}
