/* Applying a text diff to a tree when its hunks have moved: each hunk is
 * looked for at its line, then ever further above and below, as git apply
 * and patch(1) do ("Hunk #1 succeeded at 17 (offset 14 lines)"). libgit2's
 * git_apply_to_tree only applies hunks where their header says; stack_open
 * files falls back to this when it fails. No fuzz: every context line must
 * match. */
#ifndef KLANG_CORE_HUNKAPPLY_H
#define KLANG_CORE_HUNKAPPLY_H

#include "core/util.h"

struct git_repository;
struct git_tree;
struct git_diff;
struct git_oid;

/* Write the tree `tree` + `diff` and its id to *out. Binary diffs are not
 * handled (-1). -1 with "FILE: hunk N (line L) not found" when a hunk
 * matches nowhere. */
int hunkapply_tree(struct git_repository *r, struct git_tree *tree, struct git_diff *diff,
		   struct git_oid *out, struct kerr *e);

#endif
