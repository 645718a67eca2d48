/* Clang-aware series: for one Clang version, decide keep or drop for every
 * patch of a stack, with its reason. Precedence: manual override > patchset
 * rule > commit trailer (Clang-Fixed:, Clang-Min:) > tag default (OBSOLETE
 * dropped from its fixed version on, HACK kept unless bounded). Manual
 * overrides live in REPO/.klang/overrides.yaml, keyed by commit id and
 * Change-Id so they survive rebases.
 *
 * The TUI's calls: series_open() once, series_decide() whenever the Clang
 * version changes, series_toggle()/series_override() on a key press (saved
 * at once), series_count_tags() for the per-tag summary, then apply_series()
 * (core/apply.h) or export_series() (core/export.h). */
#ifndef KLANG_CORE_SERIES_H
#define KLANG_CORE_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/clangver.h"
#include "core/patchset.h"
#include "core/stack.h"
#include "core/util.h"

#define SERIES_SOURCE_LIST(X)                                                                      \
	X(OVERRIDE, "override")                                                                    \
	X(RULE, "rule")                                                                            \
	X(TRAILER, "trailer")                                                                      \
	X(TAG, "tag")

enum series_source {
#define SERIES_SOURCE_ENUM(id, name) SRC_##id,
	SERIES_SOURCE_LIST(SERIES_SOURCE_ENUM)
#undef SERIES_SOURCE_ENUM
};
extern const char *const series_source_names[];

/* A manual override as stored: keep, drop, or "fixed in V" (until_clang). */
enum override_kind { OV_NONE, OV_KEEP, OV_DROP, OV_UNTIL };

struct override {
	char *commit;	 /* full id when set */
	char *change_id; /* Change-Id trailer, NULL if the patch has none */
	char *subject;	 /* informational */
	enum override_kind kind;
	struct clang_version until;
};

/* A version the commit message mentions ("fixed in LLVM 5", "clang >= 6.0",
 * "clang-14"): offered for an OBSOLETE patch whose fixed version is unknown. */
struct version_hint {
	char version[16]; /* "5", "6.0", "14" */
	char *text;	  /* the words it came from */
};

struct series_item {
	struct patch *patch; /* borrowed from the stack */
	bool keep;
	enum series_source source;
	char *reason;		   /* one line: why keep/drop */
	bool auto_keep;		   /* the decision without the manual override */
	const struct override *ov; /* the manual override, NULL if none */
	bool version_unknown;	   /* OBSOLETE with no fixed version known */
	struct version_hint *hints;
	size_t nhints;
	char *warning;	  /* e.g. dropped but a kept patch needs it; NULL if none */
	size_t needed_by; /* index (1-based) of that kept patch, 0 if none */
};

struct series {
	struct stack *st;	   /* borrowed */
	const struct patchset *ps; /* borrowed, may be NULL */
	struct clang_version clang;
	bool decided;
	struct series_item *items; /* one per patch, same order */
	size_t nitems;
	size_t kept, dropped;
	struct override *ovs; /* the override store */
	size_t novs;
	char *ov_path; /* REPO/.klang/overrides.yaml; NULL = not persisted */
	void *hunks;   /* per-patch changed lines, loaded on demand */
};

/* Prepare a series over a loaded stack and load its overrides. -1 with a
 * message when the overrides file cannot be read; 1 when it was corrupt and
 * moved aside (e says "FILE:LINE:COL: ...; moved aside to FILE.corrupt"). */
int series_open(struct series *s, struct stack *st, const struct patchset *ps, struct kerr *e);
/* Decide every patch for `clang` (again, after a change of version or of an
 * override), then look for dropped patches that kept patches need. */
void series_decide(struct series *s, const struct clang_version *clang);
/* Set (OV_KEEP, OV_DROP, OV_UNTIL with `until`) or clear (OV_NONE) the manual
 * override of item i (0-based), merge it into the store as another klang may
 * have left it (locked, atomic), decide again. Returns as series_open(). */
int series_override(struct series *s, size_t i, enum override_kind kind,
		    const struct clang_version *until, struct kerr *e);
/* Flip item i's decision by hand; flipping back to the automatic decision
 * clears the override instead. Saved at once. */
int series_toggle(struct series *s, size_t i, struct kerr *e);
/* Find an item by 1-based index, commit id prefix (>= 4 hex) or Change-Id;
 * -1 if none or ambiguous. */
long series_find(const struct series *s, const char *ref);

/* Kept/dropped counts per tag (a patch counts under each of its tags). */
struct series_count {
	size_t kept, dropped;
};
struct series_counts {
	struct series_count tag[TAG_COUNT];
	struct series_count untagged, total;
	struct series_count *extra; /* per patchset tag (st->extra_tag_names) */
	size_t nextra;
};
void series_count_tags(const struct series *s, struct series_counts *c);
void series_counts_free(struct series_counts *c);

/* Does patch i (0-based) change `path`? (Loads its diff once.) */
bool series_touches(struct series *s, size_t i, const char *path);

void series_free(struct series *s);

/* Internal to core/series*.c: version hints in a message, the overrides
 * store, and the dependency check. */
void series_find_hints(const char *text, struct version_hint **out, size_t *n);
int overrides_load(struct series *s, struct kerr *e);
int overrides_set(struct series *s, const struct patch *p, enum override_kind kind,
		  const struct clang_version *until, struct kerr *e);
const struct override *overrides_lookup(const struct series *s, const struct patch *p);
void series_check_needs(struct series *s);
void series_hunks_free(struct series *s);

#endif
