/* Commits read through objread.h and parsed in place: what a walk of the
 * stack needs (tree, parents, author, committer time, encoding, message)
 * at a third of the cost of git_commit_lookup. A commit in a form this does
 * not read (a malformed signature, no blank line before the message, an
 * object it cannot find) is left to libgit2 by the caller, so nothing
 * reads differently. */
#ifndef KLANG_CORE_RAWCOMMIT_H
#define KLANG_CORE_RAWCOMMIT_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct objread;

#define RAWCOMMIT_INLINE_PARENTS 2

/* The strings point into the object (not NUL-terminated, except message),
 * which stays pinned until rawcommit_release(). */
struct rawcommit {
	git_oid id, tree;
	git_oid *parents; /* parents_inline, or allocated for more than 2 */
	size_t nparents;
	git_oid parents_inline[RAWCOMMIT_INLINE_PARENTS];
	const char *name, *email; /* the author, trimmed as libgit2 does */
	size_t name_len, email_len;
	int64_t author_time;
	int author_offset;    /* minutes */
	int64_t commit_time;  /* the committer's */
	const char *encoding; /* NULL when there is no encoding header */
	size_t encoding_len;
	const char *message; /* leading newlines skipped, NUL-terminated */
	const char *data;    /* the object, pinned in the reader */
};

/* 0, or -1 when the commit is not found or not in the plain form read here
 * (the caller asks libgit2, which reads it or says what is wrong). */
int rawcommit_read(struct objread *o, const git_oid *id, struct rawcommit *c);
/* Parse an object's bytes (NUL-terminated at len); 0 or -1 as above. */
int rawcommit_parse(struct rawcommit *c, const char *data, size_t len);
void rawcommit_release(struct objread *o, struct rawcommit *c);

#endif
