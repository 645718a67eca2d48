/* Exporting a decided series as numbered patch files in git format-patch
 * form (author, date, full message, diffstat, diff): `git am DIR/0*.patch`
 * applies them on the base; with a quilt `series` file, `quilt push -a`
 * does too. The patches are the kept ones as they apply on base + the kept
 * patches before them (cherry-picked in memory, never written to the repo);
 * for a stack read from mbox/quilt files without a base, the kept patches as
 * read (mbox_format_patch). */
#ifndef KLANG_CORE_EXPORT_H
#define KLANG_CORE_EXPORT_H

#include <stddef.h>

#include "core/apply.h"
#include "core/series.h"
#include "core/util.h"

enum export_format { EXPORT_MBOX, EXPORT_QUILT };

/* Parse "mbox" or "quilt"; -1 otherwise. */
int export_format_parse(const char *s);

/* Write the files into `dir` (created if missing). Never overwrites: when a
 * file it would write exists, nothing is written and -1 says which. 1 on a
 * conflict (res says where), 0 on success with the paths in *files. */
int export_series(struct series *s, const char *dir, enum export_format fmt,
		  struct apply_result *res, char ***files, size_t *nfiles, struct kerr *e);
/* "0001-HACK-arm64-fix-the-build.patch": git format-patch's naming. Caller frees. */
char *export_file_name(size_t n, const char *subject);

#endif
