/* A YAML document as a small tree (scalars, sequences, mappings) with the
 * line and column of every node, so callers can report "file:line:col: ..."
 * for what they find wrong. Built on core/yamldoc. */
#ifndef KLANG_CORE_YDOC_H
#define KLANG_CORE_YDOC_H

#include <stddef.h>

#include "core/util.h"

enum ynode_type { Y_SCALAR, Y_SEQ, Y_MAP };

struct ynode {
	enum ynode_type type;
	char *str;	      /* Y_SCALAR */
	unsigned line, col;   /* 1-based */
	struct ynode **items; /* Y_SEQ: elements; Y_MAP: key, value, key, value ... */
	size_t n;
};

/* Load a file; NULL with "path:line:col: what" on a syntax error. An empty
 * document gives an empty sequence. */
struct ynode *ydoc_load(const char *path, struct kerr *e);
void ydoc_free(struct ynode *n);
/* Load a file that is a list and call `each` on every element, stopping at
 * the first error; "path:line:col: expected a list of WHAT" if it is not a list. */
int ydoc_each(const char *path, const char *what,
	      int (*each)(void *ctx, const char *path, const struct ynode *item, struct kerr *e),
	      void *ctx, struct kerr *e);
/* Value of `key` in a mapping, or NULL. */
const struct ynode *ydoc_get(const struct ynode *map, const char *key);
const char *ydoc_type_name(enum ynode_type t);

#endif
