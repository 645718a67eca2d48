/* Printing a decided series for `klang series`: aligned text for people,
 * TSV (index, commit, tags, decision, reason, subject) and JSON for scripts. */
#ifndef KLANG_CLI_SERIES_PRINT_H
#define KLANG_CLI_SERIES_PRINT_H

#include <stdio.h>

#include "core/series.h"

enum series_format { SERIES_TEXT, SERIES_TSV, SERIES_JSON };

int series_format_parse(const char *s, enum series_format *out);
/* `from` says where the Clang version came from ("--clang", "clang-14"). */
void series_print(FILE *f, const struct series *s, enum series_format fmt, const char *from);
/* "klang: warning: patch 3 (...): ..." for every item with a warning. */
void series_print_warnings(FILE *f, const struct series *s);

#endif
