/* Reading git objects for the statistics of a stack: straight from the pack
 * files, with a delta base cache like git's, and through libgit2 for
 * anything else (loose objects, alternates, unusual packs). */
#ifndef KLANG_CORE_OBJREAD_H
#define KLANG_CORE_OBJREAD_H

#include <git2.h>
#include <stddef.h>

/* libgit2 resolves a deltified object from the bottom of its delta chain
 * every time (it keeps only that bottom base), so reading the 50 versions
 * of a file or a tree that git fast-import chains together costs 1 + 2 + ...
 * + 50 inflates; git keeps every base it meets, and so does this reader. */
struct objread;
struct objread *objread_new(git_repository *r);
void objread_free(struct objread *o);

/* An object's type and bytes (NUL-terminated, len without the NUL). The
 * buffer stays valid until objread_release() or the next read that evicts
 * it: each read pins its result; release what you read. 0 or -1. */
int objread_read(struct objread *o, const git_oid *id, git_object_t *type, const char **data,
		 size_t *len);
void objread_release(struct objread *o, const char *data);
/* The same for an object read once (the commits of a walk): one stored
 * whole is not kept in the cache (its memory goes back at the release). */
int objread_read_once(struct objread *o, const git_oid *id, git_object_t *type, const char **data,
		      size_t *len);
/* The cache's budget in bytes (default 96 MiB, git's delta base cache). */
void objread_limit(struct objread *o, size_t bytes);
/* The bytes of the objects its cache holds. */
size_t objread_cached(const struct objread *o);
/* How many pack files it reads itself. */
size_t objread_packs(const struct objread *o);

#endif
