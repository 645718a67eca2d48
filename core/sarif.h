/* JSON in and out: read GCC's -fdiagnostics-format=json and SARIF 2.1.0
 * (from clang or gcc) into the parser; write klang's JSON and SARIF 2.1.0
 * (for code-scanning tools) from a list of diagnostics. Uses jansson. */
#ifndef KLANG_CORE_SARIF_H
#define KLANG_CORE_SARIF_H

#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/diagout.h"

/* One line of GCC JSON ("[{"kind": ...}]") met in a log. */
void diag_gcc_json_line(struct diag_parser *p, const char *s, size_t n);
/* A whole JSON document: SARIF 2.1.0, or GCC JSON arrays one after another.
 * `name` is for messages. Returns 0, or -1 with "name:LINE:COL: what" (or
 * "name: runs[0].results[3] is not an object") in e. */
int diag_read_json(struct diag_parser *p, const char *text, size_t len, const char *name,
		   struct kerr *e);

/* klang's JSON: {"summary": {...}, "diagnostics": [...]}. The summary of a
 * GCC-against-Clang diff is {clang_only, gcc_only, both}; of a baseline
 * diff {new, fixed, outstanding}; of a parse {warnings, errors, distinct}.
 * Each diagnostic carries its notes, macro chain, include chain and units. */
int diag_write_json(FILE *f, struct diag *const *rows, size_t n, enum diag_view v,
		    const struct diag_diff *sum);
/* SARIF 2.1.0: one run, rules by flag, results with partialFingerprints. */
int diag_write_sarif(FILE *f, struct diag *const *rows, size_t n, enum diag_view v);

#endif
