/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <linux/kernel.h>
#include <linux/list.h>

#define S_IFMT		00170000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)

#define NAME_MAX	255
#define PATH_MAX	4096

struct file;
struct inode;

struct file_operations {
	loff_t (*llseek)(struct file *, loff_t, int);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	ssize_t (*write)(struct file *, const char *, size_t, loff_t *);
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
};

struct inode {
	umode_t			i_mode;
	unsigned long		i_ino;
	loff_t			i_size;
	unsigned int		i_nlink;
	char			i_name[32];
	struct list_head	i_sb_list;
	const struct file_operations *i_fop;
};

struct file {
	struct inode		*f_inode;
	loff_t			f_pos;
	unsigned int		f_flags;
	const struct file_operations *f_op;
	void			*private_data;
};

/* Is this inode a directory? */
static int inode_is_dir(const struct inode *inode)
{
	return S_ISDIR(inode->i_mode);
}

struct inode *new_inode(const char *name, umode_t mode);
void iput(struct inode *inode);
struct inode *lookup_path(const char *path);
ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos);
ssize_t vfs_write(struct file *file, const char *buf, size_t count, loff_t *pos);
loff_t noop_llseek(struct file *file, loff_t offset, int whence);
loff_t default_llseek(struct file *file, loff_t offset, int whence);
void inode_init(void);
int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops);

#endif
