/* From the paths a log prints to paths in the source tree: source-root and
 * arch detection, and one path at a time. Used by the parser
 * (core/diagemit.c). */
#ifndef KLANG_CORE_DIAGNORM_H
#define KLANG_CORE_DIAGNORM_H

#include "core/diag.h"

/* The prefix most absolute paths of a set share before a kernel top-level
 * directory (arch/, include/, kernel/, ...), paths under the build dirs left
 * out; on a tie the longer. NULL if no path is absolute. Caller frees. */
char *diagnorm_root(const struct diag_set *raw, const char *const *builds, size_t nb);
/* The <name> most arch/<name>/ paths of a set name, or NULL. Caller frees. */
char *diagnorm_arch(const struct diag_set *s);
/* One path, normalised and interned in `into`. */
const char *diagnorm_path(struct diag_set *into, const char *raw, const char *root,
			  const char *const *builds, size_t nb);

#endif
