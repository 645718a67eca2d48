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
	char *
	    key; /* "Signed-off-by", "Change-Id", "Clang-Fixed", "(cherry picked from commit" ... */
	char *value;
};

struct patch {
	size_t index;  /* 1-based position in the stack, oldest first */
	char id[41];   /* full commit id (hex) */
	char *subject; /* the full subject line as committed */
	char *title;   /* subject without its leading tags */
	unsigned tags; /* bit set of enum tag (TAG_BIT(t)) */
	unsigned char tag_order[TAG_MAX_PER_SUBJECT]; /* tags in subject order */
	size_t ntags;
	char **extra_tags; /* tags declared by a patchset, in order (not in enum tag) */
	size_t nextra_tags;
	/* Every tag in subject order: >= 0 an enum tag, < 0 extra_tags[-n-1]. */
	short tag_seq[TAG_MAX_PER_SUBJECT];
	size_t ntag_seq;
	bool revert;  /* Revert "..." */
	bool merge;   /* the commit has more than one parent */
	char *author; /* name */
	char *author_email;
	int64_t time;  /* author time, seconds since the epoch */
	int tz_offset; /* minutes */
	char *body;    /* message after the subject line, trailing newline trimmed */
	struct trailer *trailers;
	size_t ntrailers;
	/* Diff statistics against the first parent; filled lazily when
	 * stats_loaded is false (stack_load_stats). */
	bool stats_loaded;
	size_t files, insertions, deletions;
	/* Raw ids of the commit's tree and its first parent's tree, kept by
	 * stack_open so that statistics need no second read of the commits. */
	bool trees_known, root;
	unsigned char tree_oid[20], parent_tree_oid[20];
	/* Patches read from files (mbox, quilt) rather than commits: the diff
	 * text as found, and the source file; NULL for commits. */
	char *diff;
	char *source;
};

struct stack {
	struct git_repository *repo; /* NULL for a stack read from mbox/quilt files */
	char *repo_path;	     /* work dir (or git dir for a bare repo) */
	char *base_ref, *head_ref;   /* as given, or resolved defaults */
	char base_id[41], head_id[41];
	struct patch *patches;
	size_t npatches, cap;
	const char *const *extra_tag_names; /* from a patchset; may be NULL */
	size_t nextra_tag_names;
	int renames;		/* enum rename_mode (commitdiff.h), from diff.renames */
	struct objread *reader; /* objects for statistics and diffs (objread.h) */
};

struct stack_opts {
	const char *repo;	       /* path; NULL = current directory (discovered upward) */
	const char *base;	       /* NULL = nearest v* tag reachable from head */
	const char *head;	       /* NULL = HEAD */
	const char *const *extra_tags; /* extra tag words a patchset declares */
	size_t nextra_tags;
	bool stats; /* compute files/insertions/deletions while loading */
};

/* Open the repository and walk the range. -1 with a message on bad input:
 * "not a git repository: /x", "base 'v4.9' not found in /x", "head 'x' not
 * found in /x", "base 'a' is not an ancestor of head 'b'", "no v* tag
 * reachable from HEAD in /x; give --base". An empty range is not an error
 * (npatches = 0). Reading 10,000 commits takes about 0.1 s; statistics are
 * left for later unless o->stats. Sets process-wide libgit2 options: no hash
 * check of every object read (git does none either) and blobs and big trees
 * kept in the object cache. */
int stack_open(struct stack *st, const struct stack_opts *o, struct kerr *e);
/* Compute the diff statistics of one patch (no-op if loaded), as `git log
 * --numstat` counts them (renames as diff.renames says, binary files with no
 * lines); tens of microseconds a patch, for the TUI to fill visible rows. */
int stack_load_stats(struct stack *st, struct patch *p, struct kerr *e);
/* Compute them for every patch not loaded yet; for a big stack, on one
 * worker process per CPU (forked: call it from a single-threaded process;
 * the workers never touch the terminal and leave with _exit). */
int stack_load_all_stats(struct stack *st, struct kerr *e);
/* The patch with this full or abbreviated (>= 4 hex digits) commit id. */
struct patch *stack_find(struct stack *st, const char *id);
/* The value of the first trailer named `key` (case-insensitive), or NULL. */
const char *patch_trailer(const struct patch *p, const char *key);
/* Unified diff of the patch against its first parent, git format, with file
 * headers; caller frees. */
char *stack_patch_diff(struct stack *st, const struct patch *p, struct kerr *e);
/* The object reader of a stack read from a repository (made on first use). */
struct objread *stack_reader(struct stack *st);
void stack_free(struct stack *st);

/* Parse a commit message into subject/body/trailers (used for mbox too). */
void patch_parse_message(struct patch *p, const char *message, const char *const *extra_tags,
			 size_t nextra_tags);
void patch_free(struct patch *p);
/* The tags in subject order joined by `sep` ("BACKPORT,FROMLIST"); "" if
 * none. Caller frees. */
char *patch_tags_join(const struct patch *p, const char *sep);

#endif
