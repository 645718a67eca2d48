/* Helpers for the diagnostics test suites: fixture paths, parsing a log or
 * a string into a set, finding a diagnostic by place. */
#ifndef KLANG_TESTS_DIAGTEST_H
#define KLANG_TESTS_DIAGTEST_H

#include "core/diag.h"

/* A shared fixture (../shared/fixtures/REL, also found from a git worktree)
 * or one of ours (tests/fixtures/diag/NAME). Caller frees. */
char *dt_shared(const char *rel);
char *dt_ours(const char *name);
/* Parse a file / a string into a new set (cc may be DIAG_CC_UNKNOWN). */
struct diag_set *dt_parse_file(const char *path, enum diag_cc cc);
struct diag_set *dt_parse_text(const char *text, enum diag_cc cc);
/* The first diagnostic at file:line (loc) whose flag or message contains `what` (may be NULL). */
struct diag *dt_find(const struct diag_set *s, const char *file, unsigned line, const char *what);
size_t dt_count(const struct diag_set *s, const char *file, unsigned line);
/* Lines of a file that contain `needle`. */
unsigned long dt_grep_count(const char *path, const char *needle);

#endif
