/* Which patch of a stack last touched a source line: libgit2 blame of one
 * file limited to base..head, for the warnings view's jump to the patch. */
#ifndef KLANG_CORE_BLAME_H
#define KLANG_CORE_BLAME_H

#include "core/util.h"

struct git_repository;

/* Blame line `line` (1-based) of `path` (relative to the work tree) at
 * head_id, not looking past base_id. Returns 0 with the commit in out_id,
 * 1 when the line comes from base or earlier (the stack did not touch it),
 * -1 with a message ("lib/x.c: not in head abc1234", "lib/x.c has 12
 * lines, not 40"). */
int blame_line(struct git_repository *repo, const char *path, unsigned line, const char *base_id,
	       const char *head_id, char out_id[41], struct kerr *e);

#endif
