// SPDX-License-Identifier: GPL-2.0
/* read(2) and write(2) through the file operations, and llseek helpers. */
#define pr_fmt(fmt) "vfs: " fmt

#include <linux/errno.h>
#include <linux/fs.h>

#define MAX_RW_COUNT (INT_MAX & ~(PAGE_CACHE_SIZE - 1))
#define PAGE_CACHE_SIZE 4096
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

static int rw_verify_area(struct file *file, const loff_t *ppos, size_t count)
{
	if (*ppos < 0)
		return -EINVAL;
	if (count > MAX_RW_COUNT) {
		pr_warn("%s: count %d too large\n", file->f_inode->i_name, count);
		return -EINVAL;
	}
	return 0;
}

ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	int ret = rw_verify_area(file, pos, count);

	if (ret)
		return ret;
	if (!file->f_op || !file->f_op->read)
		return -EINVAL;
	return file->f_op->read(file, buf, count, pos);
}

ssize_t vfs_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int ret = rw_verify_area(file, pos, count);

	if (ret)
		return ret;
	if (!file->f_op || !file->f_op->write)
		return -EINVAL;
	return file->f_op->write(file, buf, count, pos);
}

loff_t noop_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos;
}

loff_t default_llseek(struct file *file, loff_t offset, int whence)
{
	switch (whence) {
	case SEEK_END:
		offset += file->f_inode->i_size;
		break;
	case SEEK_CUR:
		offset += file->f_pos;
		break;
	case SEEK_SET:
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	file->f_pos = offset;
	return offset;
}
