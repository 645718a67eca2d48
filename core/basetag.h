/* Finding a stack's default base, the nearest v* tag reachable from head
 * (`git describe --tags --match 'v*' --abbrev=0`), without walking the whole
 * history when the stack's own walk already shows the answer. */
#ifndef KLANG_CORE_BASETAG_H
#define KLANG_CORE_BASETAG_H

#include <stdbool.h>
#include <stddef.h>

struct git_repository;
struct git_commit;
struct git_oid;

/* The tags matching refs/tags/<pattern>, by the commit each names. */
struct tagset;
struct tagset *tagset_load(struct git_repository *r, const char *pattern);
void tagset_free(struct tagset *ts);
/* The name of a tag naming `commit` (and how many do), or NULL. */
const char *tagset_name(const struct tagset *ts, const struct git_oid *commit, size_t *count);
/* No commit reachable from `tips` but not from `below` is named by a tag of
 * ts (false also when the walk fails). */
bool tagset_none_above(struct git_repository *r, const struct tagset *ts,
		       const struct git_oid *tips, size_t ntips, const struct git_oid *below);

/* libgit2's describe: the nearest tag matching `pattern` reachable from
 * head, by name; NULL if there is none. Caller frees. */
char *describe_tag(struct git_commit *head, const char *pattern);

#endif
