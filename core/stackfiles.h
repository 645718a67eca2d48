/* Opening a patch stack that is not a branch: an mbox or a quilt series. With
 * a base revision each patch is applied in memory (libgit2, no work tree, no
 * index, no ref) into a commit of its own, so diffs come from real commits
 * and the result can be built; without one, messages and diffs come from the
 * files and the stack has no repository. */
#ifndef KLANG_CORE_STACKFILES_H
#define KLANG_CORE_STACKFILES_H

#include "core/mbox.h"
#include "core/stack.h"
#include "core/util.h"

enum stack_files_kind { STACK_FILES_MBOX, STACK_FILES_QUILT };

/* Fill `st` (need not be initialised) from the files at `path` (an mbox or
 * patch file, or a quilt directory or series file).
 *
 * With `base`: `repo` (NULL = the repository containing the current
 * directory) is opened, st->repo is set, each patch becomes a commit on top of
 * the previous one (author as in the patch, committer the same, so the ids
 * are the same every time), p->id is that commit and p->diff is NULL;
 * st->base_id/head_id are the base and the last commit. Hunks go where their
 * headers say, else where they have moved to (offsets, as git apply and
 * quilt allow; no fuzz). A patch that does not apply is moved to the
 * malformed list with the reason ("a.c: hunk 2 (line 40) matches nowhere")
 * and the next one is applied on the last good commit.
 * st->head_ref names the stack: the mbox's file name without extension, or
 * the quilt series' directory ("mainline" for patches/mainline/series).
 * Without `base`: st->repo is NULL, p->diff holds the diff (git's form), p->id
 * is the commit of a format-patch "From <sha>" line or else the patch's
 * stable git patch-id.
 *
 * `report` receives what is not a patch: malformed entries, AOSP annotation
 * markers, an mbox cover letter (its patches array stays empty). When report
 * is NULL, any malformed entry fails the call with its "file:line: reason".
 * `report` need not be initialised either (it is emptied first, so it can
 * always be freed with patch_files_free()).
 * -1 with a message when nothing can be read or the base is not found. */
int stack_open_files(struct stack *st, const char *path, enum stack_files_kind kind,
		     const char *base, const char *repo, struct patch_files *report,
		     struct kerr *e);
/* The same with a patchset's extra tag words, read from the subjects as a
 * branch's are (st->extra_tag_names borrows `extra_tags`: keep it alive). */
int stack_open_files_tags(struct stack *st, const char *path, enum stack_files_kind kind,
			  const char *base, const char *repo, const char *const *extra_tags,
			  size_t nextra_tags, struct patch_files *report, struct kerr *e);

#endif
