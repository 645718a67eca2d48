/* Writing git history with libgit2, without a work tree or the git command:
 * used by the demo workspace and by tests that build repositories. */
#ifndef KLANG_CORE_GITWRITE_H
#define KLANG_CORE_GITWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

struct git_repository;

/* One file change: content NULL deletes the path. */
struct gw_file {
	const char *path;
	const char *content;
	size_t len; /* 0 = strlen(content) */
};

struct gw_commit {
	const char *ref;	   /* "refs/heads/x"; parent is its current target (if any) */
	const char *parent;	   /* explicit first parent (rev), overrides ref's target */
	const char *second_parent; /* makes a merge commit */
	const struct gw_file *files;
	size_t nfiles;
	const char *message;
	const char *author, *email; /* default "klang", "klang@example.org" */
	int64_t time;		    /* 0 = 1700000000 */
	int tz;			    /* minutes */
	int keep_tree;		    /* start from an empty tree when 0 and no parent */
};

/* Open or create (non-bare, with work dir `path`) a repository. */
int gw_init(const char *path, struct git_repository **out, struct kerr *e);
/* Create a commit and move `ref` to it; writes the id (hex) to out_id. The
 * tree is the parent's tree with `files` applied. The index and work tree
 * are not touched. */
int gw_commit(struct git_repository *r, const struct gw_commit *c, char out_id[41], struct kerr *e);
/* A lightweight tag (refs/tags/name) on a revision. */
int gw_tag(struct git_repository *r, const char *name, const char *rev, struct kerr *e);
/* Point HEAD at a branch (symbolic ref), and check it out into the work tree. */
int gw_checkout(struct git_repository *r, const char *branch, struct kerr *e);
/* The libgit2 error as text. */
const char *gw_strerror(void);
/* Call once before libgit2 is used (idempotent). */
void gw_libinit(void);

#endif
