/* A commit's changes against its first parent (the empty tree for a root
 * commit), as `git log --first-parent --numstat` and `git show` see them. */
#ifndef KLANG_CORE_COMMITDIFF_H
#define KLANG_CORE_COMMITDIFF_H

#include <git2/diff.h>
#include <stddef.h>

#include "core/util.h"

struct git_repository;
struct git_commit;
struct git_oid;
struct objread;

struct diffstat {
	size_t files, insertions, deletions;
};

/* How renames are detected: git's diff.renames (unset = on since git 2.9). */
enum rename_mode { RENAMES_OFF, RENAMES_ON, RENAMES_COPIES };
enum rename_mode commitdiff_rename_mode(struct git_repository *r);

/* Objects are read through `o` (objread.h), one per process.
 * Files changed, lines inserted and deleted, counted as --numstat does: a
 * binary file (a NUL in its first 8000 bytes) is a file with no lines, a
 * rename is one file, a mode change is a file with no lines. Identical
 * subtrees are skipped, so the cost follows the size of the change, not of
 * the tree. */
int commitdiff_stat(struct git_repository *r, struct objread *o, struct git_commit *c,
		    enum rename_mode rn, struct diffstat *out, struct kerr *e);
/* The same from the two trees' ids (old NULL: the empty tree). */
int commitdiff_stat_trees(struct git_repository *r, struct objread *o,
			  const struct git_oid *old_tree, const struct git_oid *new_tree,
			  enum rename_mode rn, struct diffstat *out, struct kerr *e);

/* The unified diff in git's format (diff --git, index, ---/+++, hunks);
 * caller frees. */
char *commitdiff_text(struct git_repository *r, struct objread *o, struct git_commit *c,
		      enum rename_mode rn, struct kerr *e);

/* libgit2's diff of a commit against its first parent with options `opts`
 * (NULL: the defaults), limited to the changed paths: a diff of two whole
 * trees walks every entry (12 ms a commit in a kernel tree). *out is the
 * caller's to free (git_diff_free). */
int commitdiff_diff(struct git_repository *r, struct objread *o, struct git_commit *c,
		    enum rename_mode rn, const git_diff_options *opts, git_diff **out);

/* Count a unified diff's files and lines from its text (mbox/quilt patches). */
void diffstat_from_text(const char *diff, struct diffstat *out);

#endif
