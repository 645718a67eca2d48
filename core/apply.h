/* Applying a decided series: base + kept patches, cherry-picked in memory
 * with libgit2 (no HEAD, index or work tree involved), into a new branch that
 * klang names and marks as its own in the branch's reflog. */
#ifndef KLANG_CORE_APPLY_H
#define KLANG_CORE_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/series.h"
#include "core/util.h"

struct git_repository;

/* Every reflog entry klang writes starts with this. */
#define APPLY_REFLOG_PREFIX "klang series --apply"

struct apply_result {
	size_t applied; /* kept patches picked */
	size_t *empty;	/* 1-based indexes of kept patches that changed nothing: skipped */
	size_t nempty;
	char tip[41];	/* the last commit built (base when nothing was picked) */
	char **commits; /* the commits built, one per applied patch, in order */
	size_t failed;	/* 1-based index of the patch that conflicted, 0 if none */
	char **files;	/* its conflicting paths */
	size_t nfiles;
	size_t *dropped; /* dropped patches (1-based) that touched those paths */
	size_t ndropped;
};

/* Cherry-pick base + kept patches in `repo` (the series' own repository, or
 * a second handle on it whose writes go to memory). 0 when every kept patch
 * applied, 1 on a conflict (res says where), -1 on an error. */
int apply_build(struct series *s, struct git_repository *repo, struct apply_result *res,
		struct kerr *e);
/* May klang create refs/heads/BRANCH? Not for a name git refuses, "HEAD",
 * "-x" or "refs/...". */
bool apply_branch_name_valid(const char *branch);
/* Build and create refs/heads/BRANCH at the result. Refuses (-1) when BRANCH
 * exists, unless `force` and klang created it and it is not checked out.
 * Nothing is written to the repository on a conflict (1). */
int apply_series(struct series *s, const char *branch, bool force, struct apply_result *res,
		 struct kerr *e);
/* One line per conflict fact: "patch 4 (HACK: x) does not apply: conflict in
 * a.c" and "dropped patch 2 (OBSOLETE: y) touched a.c". */
void apply_describe_conflict(const struct series *s, const struct apply_result *res,
			     struct strbuf *out);
void apply_result_free(struct apply_result *res);
/* A name to offer for the new branch: "klang/<patchset>/clang-<version>",
 * e.g. "klang/v4.9/clang-14.0.6" (without a patchset, the head branch's
 * name, the checked-out branch for HEAD, or "stack" when detached). Caller
 * frees. */
char *apply_branch_name(const struct series *s);

/* A second handle on the series' repository whose object writes stay in
 * memory (libgit2 mempack). */
int apply_open_scratch(struct series *s, struct git_repository **out, struct kerr *e);

#endif
