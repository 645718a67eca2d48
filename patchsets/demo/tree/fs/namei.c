// SPDX-License-Identifier: GPL-2.0
/* Path lookup: walk a path one component at a time. */
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/string.h>

struct inode *find_inode(const char *name);

struct nameidata {
	const char		*path;
	const char		*last;
	unsigned int		depth;
	struct inode		*inode;
};

static int walk_component(struct nameidata *nd, const char *name, size_t len)
{
	char component[NAME_MAX + 1];

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(component, name, len);
	component[len] = '\0';
	nd->inode = find_inode(component);
	if (!nd->inode)
		return -ENOENT;
	nd->depth++;
	return 0;
}

struct inode *lookup_path(const char *path)
{
	struct nameidata nd = { .path = path };
	const char *p = path;

	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		int err;

		if (len) {
			err = walk_component(&nd, p, len);
			if (err)
				return ERR_PTR(err);
		}
		p += len + (slash != NULL);
	}
	return nd.inode;
}
