/* Unified diffs as found in patch files: git's (diff --git, extended headers,
 * binary patches) and plain `diff -u` / quilt ones (--- +++ only, timestamps,
 * any -pN), read file by file with every hunk checked against its line
 * counts, and written back in git's form so libgit2 can parse and apply them. */
#ifndef KLANG_CORE_DIFFTEXT_H
#define KLANG_CORE_DIFFTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct difftext_file {
	char *old_path, *new_path; /* prefix stripped; NULL for /dev/null */
	bool binary;
	size_t insertions, deletions;
};

struct difftext {
	char *git; /* the whole diff in git's form (diff --git, a/ b/ prefixes) */
	struct difftext_file *files;
	size_t nfiles, cap;
	size_t insertions, deletions;
	size_t error_line; /* after a failure: the line the reason is about */
};

/* Does `line` (with `next`, the line after it, or NULL) start a file's diff:
 * "diff --git ", or "--- X" directly followed by "+++ Y"? Lines end at '\n'. */
bool difftext_file_start(const char *line, const char *next);

/* Read the diff in text[0..len), whose first line is line `first_line` of its
 * file. `strip` leading path components are removed (quilt's -pN; git's a/
 * and b/ are 1). Lines that start no file after the last hunk (a mail
 * signature, base-commit:) are skipped. -1 with the reason (and d->error_line)
 * when a hunk is cut short or a path cannot be stripped; a text with no file diff at all
 * gives nfiles == 0 and no error. */
int difftext_parse(struct difftext *d, const char *text, size_t len, size_t first_line, int strip,
		   struct kerr *e);
void difftext_free(struct difftext *d);

#endif
