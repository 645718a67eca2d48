/* Flag families and the two comparisons of warning triage: GCC against
 * Clang (per arch, on the outermost macro-expansion site and the flag
 * family) and a build against an earlier build (new, fixed, outstanding,
 * on the fingerprint, then the nearest line). */
#ifndef KLANG_CORE_DIAGDIFF_H
#define KLANG_CORE_DIAGDIFF_H

#include <stdbool.h>

#include "core/diag.h"

/* ---- flag families ---- */
struct diag_families;
struct diag_families *diag_families_new(void);
void diag_families_free(struct diag_families *f);
/* Add the families of a YAML file: a list of flag lists, the first flag of
 * each names the family. A flag already known moves to the new family. */
int diag_families_load(struct diag_families *f, const char *path, struct kerr *e);
/* The shipped rules/families.yaml, then <repo>/.klang/families.yaml if it
 * exists, then `extra` (a --families FILE) if not NULL. */
struct diag_families *diag_families_default(const char *repo, const char *extra, struct kerr *e);
/* The family of a flag: a table entry, else the flag without gcc's
 * trailing '=' (-Wunused-const-variable= is -Wunused-const-variable). */
const char *diag_family(const struct diag_families *f, const char *flag, struct strbuf *tmp);
void diag_families_apply(const struct diag_families *f, struct diag_set *s);

/* ---- comparisons ---- */
struct diag_diff {
	struct diag **rows; /* what to show, by file and line */
	size_t n;
	unsigned long clang_only, gcc_only, both; /* rows per side */
	unsigned long added, fixed, outstanding;  /* rows per baseline state */
};
void diag_diff_free(struct diag_diff *d);

/* GCC against Clang. Every diagnostic gets a side; a GCC one that Clang
 * also reports is folded into the Clang row (peer). The rows are the Clang
 * diagnostics and the GCC-only ones; make's "*** Error" lines are left out.
 * ignore_arch pairs the compilers whatever arch each log was detected as
 * (one log per compiler). Families are applied to both sets. */
void diag_diff_compilers(struct diag_set *gcc, struct diag_set *clang,
			 const struct diag_families *f, bool ignore_arch, struct diag_diff *out);
/* A build against an earlier one of the same arch and toolchain: the rows
 * are the current diagnostics (new or outstanding) and the fixed ones. */
void diag_diff_baseline(struct diag_set *old, struct diag_set *cur, bool ignore_arch,
			struct diag_diff *out);

#endif
