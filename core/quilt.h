/* quilt series: a `series` file (one patch a line, "# comments", blank lines,
 * "-pN" options) naming patch files next to it, as ClangBuiltLinux's CI
 * (patches/<tree>/series) and AOSP's common-patches keep their stacks. Each
 * patch file is read with the mbox reader (mail, DEP-3 or bare diff). */
#ifndef KLANG_CORE_QUILT_H
#define KLANG_CORE_QUILT_H

#include <stddef.h>

#include "core/mbox.h"
#include "core/util.h"

struct quilt_entry {
	char *name;  /* as written in the series file */
	int strip;   /* -pN, 1 when not given */
	size_t line; /* in the series file */
	char *error; /* why the line cannot be used ("unknown option '-x'"), or NULL */
};

/* The series file for `path`: path itself when it is a file, else
 * path/series, else path/patches/series (quilt's own layout). NULL with a
 * message when there is none. Caller frees. */
char *quilt_find_series(const char *path, struct kerr *e);
/* Parse series text: one entry per patch line, in order; a line that cannot
 * be used (an unknown option, -R) has its error set. */
void quilt_parse_series(const char *text, struct quilt_entry **entries, size_t *n);
void quilt_entries_free(struct quilt_entry *v, size_t n);
/* Read the whole series: -1 only when no series file can be read. A patch
 * file that is missing or malformed is listed in pf->malformed. */
int quilt_read(struct patch_files *pf, const char *path, const struct patch_read_opts *o,
	       struct kerr *e);

#endif
