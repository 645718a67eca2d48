/* The paths that differ between two git trees, found the way git's own tree
 * diff finds them: identical subtrees (same id) are skipped unread, and the
 * raw tree objects are walked in place, with no parsing into entries. */
#ifndef KLANG_CORE_TREEDIFF_H
#define KLANG_CORE_TREEDIFF_H

#include <git2.h>
#include <stddef.h>

struct change {
	char *path;
	git_oid old_id, new_id;
	unsigned old_mode, new_mode; /* 0 = absent: added / deleted */
};

struct changes {
	struct change *v;
	size_t n, cap;
	size_t added, deleted;
};

/* The changed files (blobs, symlinks, submodules) from tree `old` to tree
 * `new`, in git's path order; either id may be NULL (the empty tree). */
struct objread;
int tree_changes(struct objread *o, const git_oid *old, const git_oid *new, struct changes *out);
void changes_free(struct changes *ch);

#endif
