// SPDX-License-Identifier: GPL-2.0
/* Small helpers around kmalloc(): string copies and mm_struct lifetimes. */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len;
	char *buf;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	buf = kmalloc(len, gfp);
	if (buf)
		memcpy(buf, s, len);
	return buf;
}

/* Replace *old by a copy of s; on failure keep the old string. */
int kstrdup_replace(char **old, const char *s, gfp_t gfp)
{
	char *copy = kstrdup(s, gfp);

	if (!copy) {
		pr_warn("kstrdup_replace: keeping '%s'\n", *old);
		return -1;
	}
	kfree(*old);
	*old = copy;
	return 0;
}

struct mm_struct *mm_alloc(void)
{
	return kzalloc(sizeof(struct mm_struct), GFP_KERNEL);
}

void mmput(struct mm_struct *mm)
{
	kfree(mm);
}
