/* The patch-stack model: base..head walked first-parent with libgit2, oldest
 * first, each commit with its tags, trailers and diff statistics. */
#ifndef KLANG_CORE_STACK_H
#define KLANG_CORE_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/tags.h"
#include "core/util.h"

struct git_repository;

struct trailer {
	char *key;   /* "Signed-off-by", "Change-Id", "Clang-Fixed", "(cherry picked from commit" ... */
	char *value;
};

struct patch {
	size_t index;          /* 1-based position in the stack, oldest first */
	char id[41];           /* full commit id (hex) */
	char *subject;         /* the full subject line as committed */
	char *title;           /* subject without its leading tags */
	unsigned tags;         /* bit set of enum tag (TAG_BIT(t)) */
	unsigned char tag_order[TAG_MAX_PER_SUBJECT]; /* tags in subject order */
	size_t ntags;
	char **extra_tags;     /* tags declared by a patchset, in order (not in enum tag) */
	size_t nextra_tags;
	bool revert;           /* Revert "..." */
	bool merge;            /* the commit has more than one parent */
	char *author;          /* name */
	char *author_email;
	int64_t time;          /* author time, seconds since the epoch */
	int tz_offset;         /* minutes */
	char *body;            /* message after the subject line, trailing newline trimmed */
	struct trailer *trailers;
	size_t ntrailers;
	/* Diff statistics against the first parent; filled lazily when
	 * stats_loaded is false (stack_load_stats). */
	bool stats_loaded;
	size_t files, insertions, deletions;
	/* Patches read from files (mbox, quilt) rather than commits: the diff
	 * text as found, and the source file; NULL for commits. */
	char *diff;
	char *source;
};

struct stack {
	struct git_repository *repo; /* NULL for a stack read from mbox/quilt files */
	char *repo_path;       /* work dir (or git dir for a bare repo) */
	char *base_ref, *head_ref; /* as given, or resolved defaults */
	char base_id[41], head_id[41];
	struct patch *patches;
	size_t npatches, cap;
	const char *const *extra_tag_names; /* from a patchset; may be NULL */
	size_t nextra_tag_names;
};

struct stack_opts {
	const char *repo;      /* path; NULL = current directory (discovered upward) */
	const char *base;      /* NULL = nearest v* tag reachable from head */
	const char *head;      /* NULL = HEAD */
	const char *const *extra_tags; /* extra tag words a patchset declares */
	size_t nextra_tags;
	bool stats;            /* compute files/insertions/deletions while loading */
};

/* Open the repository and walk the range. -1 with a message on bad input:
 * "not a git repository: /x", "base 'v4.9' not found in /x", "base 'a' is not
 * an ancestor of head 'b'". An empty range is not an error (npatches = 0). */
int stack_open(struct stack *st, const struct stack_opts *o, struct kerr *e);
/* Compute the diff statistics of one patch (no-op if loaded). */
int stack_load_stats(struct stack *st, struct patch *p, struct kerr *e);
/* The value of the first trailer named `key` (case-insensitive), or NULL. */
const char *patch_trailer(const struct patch *p, const char *key);
/* Unified diff of the patch against its first parent, git format, with file
 * headers; caller frees. */
char *stack_patch_diff(struct stack *st, const struct patch *p, struct kerr *e);
void stack_free(struct stack *st);

/* Parse a commit message into subject/body/trailers (used for mbox too). */
void patch_parse_message(struct patch *p, const char *message,
			 const char *const *extra_tags, size_t nextra_tags);
void patch_free(struct patch *p);

#endif
