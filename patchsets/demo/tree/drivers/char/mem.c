// SPDX-License-Identifier: GPL-2.0
/* /dev/null and /dev/zero. */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/string.h>

#define MEM_MAJOR 1

static ssize_t read_null(struct file *file, char *buf, size_t count, loff_t *ppos)
{
	return 0;
}

static ssize_t write_null(struct file *file, const char *buf, size_t count, loff_t *ppos)
{
	return count;
}

static ssize_t read_zero(struct file *file, char *buf, size_t count, loff_t *ppos)
{
	memset(buf, 0, count);
	*ppos += count;
	return count;
}

static loff_t null_lseek(struct file *file, loff_t offset, int orig)
{
	return file->f_pos = 0;
}

static const struct file_operations null_fops = {
	.llseek		= noop_llseek,
	.read		= read_null,
	.write		= write_null,
	.llseek		= null_lseek,
};

static const struct file_operations zero_fops = {
	.llseek		= noop_llseek,
	.read		= read_zero,
	.write		= write_null,
};

static int __init chr_dev_init(void)
{
	int err = register_chrdev(MEM_MAJOR, "null", &null_fops);

	if (err)
		return err;
	return register_chrdev(MEM_MAJOR, "zero", &zero_fops);
}
device_initcall(chr_dev_init);

int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops)
{
	return fops && name ? 0 : -22;
}
