/* Writing diagnostics for people and tools: text (grouped, with notes and
 * chains), TSV (fixed columns, one header line) and quickfix lines for
 * vim -q and Emacs compilation-mode. JSON and SARIF are in core/sarif.h. */
#ifndef KLANG_CORE_DIAGOUT_H
#define KLANG_CORE_DIAGOUT_H

#include <stdio.h>

#include "core/diag.h"
#include "core/diagdiff.h"

/* What the rows are: one parse, GCC against Clang, or against a baseline.
 * It decides the `side` column: the compiler, clang-only/gcc-only/both, or
 * new/fixed/outstanding. */
enum diag_view { DIAG_VIEW_PARSE, DIAG_VIEW_COMPILERS, DIAG_VIEW_BASELINE };

const char *diag_row_side(const struct diag *d, enum diag_view v);

/* file:line:col as compilers print it; an unknown line or column (0) is left
 * out (kernel-doc and the linker give no column), no file is "<build>". */
void diag_loc_text(struct strbuf *sb, const struct diag_loc *l);

#define DIAG_TSV_HEADER "side\tfile\tline\tcolumn\tfamily\tflag\tgroup\toccurrences\tmessage\n"
void diag_write_tsv(FILE *f, struct diag *const *rows, size_t n, enum diag_view v);
void diag_write_quickfix(FILE *f, struct diag *const *rows, size_t n, enum diag_view v);
/* sum may be NULL (a parse); it gives the totals line of a diff. */
void diag_write_text(FILE *f, struct diag *const *rows, size_t n, enum diag_view v,
		     const struct diag_diff *sum);

#endif
