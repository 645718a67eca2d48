/* Diagnostics model and streaming build-log parser.
 *
 * A diagnostic is one warning or error at one source location, reported by
 * one compiler for one arch; the translation units that reported it are its
 * occurrences. The parser reads a log in any slices (partial lines are fine),
 * keeps memory proportional to distinct diagnostics, and on finish normalises
 * paths (source root, O= dir) and merges what it found into a diag_set. */
#ifndef KLANG_CORE_DIAG_H
#define KLANG_CORE_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

enum diag_kind { DIAG_WARNING, DIAG_ERROR };
enum diag_cc { DIAG_CC_UNKNOWN, DIAG_CC_GCC, DIAG_CC_CLANG };
/* Cross-compiler side, set by diag_diff_compilers(). */
enum diag_side { DIAG_SIDE_NONE, DIAG_SIDE_CLANG_ONLY, DIAG_SIDE_GCC_ONLY, DIAG_SIDE_BOTH };
/* Against a baseline build, set by diag_diff_baseline(). */
enum diag_base { DIAG_BASE_NONE, DIAG_BASE_NEW, DIAG_BASE_FIXED, DIAG_BASE_OUTSTANDING };

enum diag_note_kind {
	DIAG_NOTE_PLAIN,
	DIAG_NOTE_IN_EXPANSION,	 /* gcc: in expansion of macro 'X' (points at the use) */
	DIAG_NOTE_IN_DEFINITION, /* gcc: in definition of macro 'X' */
	DIAG_NOTE_EXPANDED_FROM, /* clang: expanded from macro 'X' (points into the body) */
	DIAG_NOTE_EXPANDED_HERE, /* clang: expanded from here (<scratch space>) */
	DIAG_NOTE_REFERENCE,	 /* ld.lld: >>> referenced by ... */
};

struct diag_loc {
	const char *file;   /* relative to the source tree once normalised; "" if none */
	unsigned line, col; /* 0 when unknown */
};

struct diag_note {
	enum diag_note_kind kind;
	struct diag_loc loc;
	const char *msg;
	const char *macro;  /* macro name for the macro kinds, else NULL */
	const char *source; /* source line the compiler echoed, or NULL */
};

/* Fields are ordered by size: a big parse keeps one per distinct
 * diagnostic (a quarter of a million), so padding costs megabytes. */
struct diag {
	const char *arch;	   /* "" when unknown */
	const char *log;	   /* first log it was read from */
	struct diag_loc loc;	   /* where to look: the outermost macro expansion site */
	struct diag_loc spell;	   /* where the compiler pointed (== loc without macros) */
	const char *flag;	   /* "-Wfoo", or kernel-doc, objtool, modpost, ld, as, make; "" */
	const char *message;	   /* ASCII quotes, valid UTF-8 */
	const char *function;	   /* gcc's "In function 'f'" context, or NULL */
	const char *source;	   /* echoed source line at loc (trimmed), or NULL */
	const char *fixit;	   /* fix-it text the compiler suggested, or NULL */
	struct diag_note *notes;   /* in log order */
	struct diag_loc *includes; /* include chain, translation unit first */
	const char **tus;	   /* distinct translation units that reported it */
	uint32_t nnotes;
	uint32_t nmacros; /* notes[0..nmacros) are this diagnostic's macro chain */
	uint32_t nincludes;
	uint32_t ntus;
	unsigned occurrences; /* times it was reported */
	enum diag_kind kind;
	enum diag_cc cc;
	bool werror; /* reported as an error by -Werror */
	/* diag_fp(): the fingerprint, worked out the first time it is asked
	 * for (a parse for TSV or text without a triage store never does) */
	bool fp_known;
	uint64_t fp_cache;

	/* Filled in by later stages. */
	const char *family;   /* flag family (diag_families_apply) */
	struct diag *peer;    /* the other compiler's match */
	const char *group;    /* group rule name, or the family */
	const char *subgroup; /* from named captures, or NULL */
	const char *triage_note;
	enum diag_side side;
	enum diag_base base;
	int status;	/* enum triage_status, 0 = new */
	uint32_t index; /* position in its set */
};

/* ---- diag_set: distinct diagnostics, deduplicated (core/diagset.c) ---- */

struct diag_set;
struct diag_set *diag_set_new(void);
void diag_set_free(struct diag_set *s);
size_t diag_set_size(const struct diag_set *s);
struct diag *diag_set_get(const struct diag_set *s, size_t i);
/* Add a diagnostic (its strings are copied) or merge it into the equal one
 * (same compiler, arch, location, spelling, flag and message): occurrences
 * add up, translation units are joined. Returns the stored diagnostic. */
struct diag *diag_set_add(struct diag_set *s, const struct diag *d);
/* The parts of diag_set_add, for callers whose names are already interned
 * in the set (diag_set_intern): find (key: files, flag, arch; sets *hash),
 * bump an existing diagnostic (occurrences, units), or insert a new one
 * (also log, function, family, group, subgroup, note files and macros,
 * include files and units interned; texts are copied). */
struct diag *diag_set_find(struct diag_set *s, const struct diag *key, uint64_t *hash);
/* The same for a caller that has the hashes already: the message's
 * length and diag_hash(message, msg_len, 0), and diag_key_hash(). */
struct diag *diag_set_find_hashed(struct diag_set *s, const struct diag *key, size_t msg_len,
				  uint64_t msg_hash, uint64_t hash);
/* The hash diag_set_find works out for a key whose message hashes to
 * msg_hash (diag_hash(message, its length, 0)), and a hint to fetch its
 * slot from memory before it is looked up. */
uint64_t diag_key_hash(const struct diag *key, uint64_t msg_hash);
void diag_set_prefetch(const struct diag_set *s, uint64_t hash);
void diag_set_bump(struct diag_set *s, struct diag *d, enum diag_kind kind, unsigned occurrences,
		   const char *const *tus, size_t ntus);
struct diag *diag_set_insert(struct diag_set *s, const struct diag *d, uint64_t hash);
/* Set the compiler and arch of every diagnostic (a parser knows them last). */
void diag_set_relabel(struct diag_set *s, enum diag_cc cc, const char *arch);
/* Move everything of `from` into `into` (taken whole when `into` is empty). */
void diag_set_merge(struct diag_set *into, struct diag_set *from);
/* Sort by file, line, column, flag; reassigns index. */
void diag_set_sort(struct diag_set *s);
/* The same order for any list of diagnostics (NULL files not allowed). */
void diag_sort(struct diag **rows, size_t n);
/* out[i]: the place of strs[i] among the distinct strings, in strcmp order
 * (NULL as ""), for sorts that would miss the cache comparing strings.
 * Meant for interned strings: a repeat costs a pointer lookup. */
void diag_rank_strings(const char *const *strs, size_t n, uint32_t *out);
int diag_cmp(const struct diag *a, const struct diag *b);
/* Strings that live as long as the set. */
const char *diag_set_intern(struct diag_set *s, const char *str, size_t len);
char *diag_set_strndup(struct diag_set *s, const char *str, size_t len);
/* Totals over the set: reported warnings/errors (occurrences) and distinct ones. */
struct diag_totals {
	unsigned long warnings, errors, distinct_warnings, distinct_errors;
};
void diag_set_totals(const struct diag_set *s, struct diag_totals *t);

/* A fast 64-bit hash of bytes. */
uint64_t diag_hash(const void *p, size_t n, uint64_t seed);
/* Message with numbers masked: a digit run that does not continue an
 * identifier becomes '#' (l2_id stays, [12] and 1040 become [#] and #). */
void diag_mask_numbers(const char *msg, struct strbuf *out);
/* Triage identity that survives unrelated edits: file, flag, message with
 * numbers masked, and the text of the echoed source line(s). */
uint64_t diag_fingerprint(const struct diag *d);
/* The fingerprints of a set's diagnostics, each place told apart: places
 * whose diag_fingerprint() is the same (one warning twice on a line,
 * or on two lines that read alike) get it mixed with their rank by line and
 * column, the first keeping it as it is (so a triage made before still
 * holds). Copies at one place (another arch, another number in the message)
 * share it. Run before diag_fp() is asked of a set's diagnostics; again
 * after more were added. */
void diag_set_fingerprints(struct diag_set *s);
/* The fingerprint of a stored diagnostic, kept once worked out (its
 * location, flag, message and source do not change once stored); without
 * diag_set_fingerprints(), the place's alone. Not for two threads on one
 * diagnostic. */
uint64_t diag_fp(const struct diag *d);

const char *diag_kind_name(enum diag_kind k);
const char *diag_cc_name(enum diag_cc c);
const char *diag_side_name(enum diag_side s);
const char *diag_base_name(enum diag_base b);

/* ---- the streaming parser (core/diag.c) ---- */

struct diag_parser_opts {
	enum diag_cc cc;       /* DIAG_CC_UNKNOWN: detect from the log */
	const char *arch;      /* NULL: detect from arch/<name>/ paths */
	const char *src_root;  /* NULL: detect from absolute paths */
	const char *build_dir; /* NULL: from make's "Entering directory" */
	const char *log_name;  /* recorded in each diagnostic */
	/* Keep only what a row shows (place, flag, message, source line for
	 * the fingerprint, occurrences): no notes, include chain, units,
	 * function or fix-it. The place still comes from the macro notes. */
	bool brief;
	/* Called for each reported warning or error once its notes are read
	 * (raw paths, strings valid during the call only). */
	void (*on_diag)(const struct diag *d, void *ctx);
	void *ctx;
};

struct diag_counts {
	unsigned long lines, warnings, errors; /* reported, "N warnings generated." never counts */
};

struct diag_parser;
struct diag_parser *diag_parser_new(const struct diag_parser_opts *opts);
/* Feed any slice of the log; partial lines are kept until their end arrives. */
void diag_parser_feed(struct diag_parser *p, const char *buf, size_t len);
void diag_parser_counts(const struct diag_parser *p, struct diag_counts *c);
/* End of log: flush, normalise paths, merge into `into` (may be NULL to
 * discard), and free the parser. Returns the detected compiler. */
enum diag_cc diag_parser_finish(struct diag_parser *p, struct diag_set *into);

/* Add a diagnostic read from structured input (GCC JSON, SARIF) as if it
 * had been parsed from the log: its paths are normalised on finish. */
void diag_parser_add(struct diag_parser *p, const struct diag *d);
/* Evidence of the compiler, from structured input that names it. */
void diag_parser_vote(struct diag_parser *p, enum diag_cc cc);

/* Parse a whole file (a log, GCC JSON lines or SARIF) into `into`.
 * "-" is stdin. Returns 0, or -1 with a message. */
int diag_parse_file(struct diag_set *into, const char *path, const struct diag_parser_opts *opts,
		    struct kerr *e);

/* Path normalisation, exposed for tests and for the TUI's live view:
 * strip `root` and `build` prefixes, "./", leading "../", and fold "a/../". */
char *diag_normalize_path(const char *path, const char *root, const char *build);

#endif
