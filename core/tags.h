/* Subject tags of kernel patch stacks: UPSTREAM:, BACKPORT:, FROMLIST: ...
 * Declared once as an X-macro list (name, short badge) and expanded into the
 * enum, the name table and the TUI's per-tag colours and keys. */
#ifndef KLANG_CORE_TAGS_H
#define KLANG_CORE_TAGS_H

#include <stdbool.h>
#include <stddef.h>

#define TAG_LIST(X)                                                                                \
	X(UPSTREAM, "UPSTREAM")                                                                    \
	X(BACKPORT, "BACKPORT")                                                                    \
	X(FROMGIT, "FROMGIT")                                                                      \
	X(FROMLIST, "FROMLIST")                                                                    \
	X(HACK, "HACK")                                                                            \
	X(CUSTOM, "CUSTOM")                                                                        \
	X(OBSOLETE, "OBSOLETE")                                                                    \
	X(CHROMIUM, "CHROMIUM")                                                                    \
	X(ANDROID, "ANDROID")

/* clang-format off */ /* (it misreads an X-macro list in an enum) */
enum tag {
#define TAG_ENUM(id, name) TAG_##id,
	TAG_LIST(TAG_ENUM)
#undef TAG_ENUM
	TAG_COUNT
};
/* clang-format on */

#define TAG_BIT(t) (1u << (t))
#define TAG_MAX_PER_SUBJECT 8

extern const char *const tag_names[TAG_COUNT];

/* Look up a tag by name (case-sensitive, as written in subjects); -1 if none. */
int tag_from_name(const char *name);
/* The same, ignoring case (for command-line filters such as --tag hack). */
int tag_from_name_icase(const char *name);

/* The result of reading the tags at the start of a subject. */
struct subject_tags {
	unsigned char tags[TAG_MAX_PER_SUBJECT]; /* known tags, in order */
	size_t ntags;
	size_t extra[TAG_MAX_PER_SUBJECT]; /* indexes into the extra names */
	size_t nextra;
	/* All tags in subject order: >= 0 is an enum tag, < 0 is extra name -n-1. */
	short seq[TAG_MAX_PER_SUBJECT];
	size_t nseq;
	const char *title; /* points into the subject, past the tags */
	bool revert;	   /* Revert "..." (tags inside the quotes are not read) */
};

/* Read the leading tags of `subject`. Known tags plus `extra` (a patchset's own
 * words) count; `DO-NOT-UPSTREAM:` is not UPSTREAM; an uppercase subsystem
 * after a tag (`ANDROID: ARM:`) is not a tag; `[PATCH v3 07/12]` prefixes are
 * skipped. */
void subject_parse_tags(const char *subject, const char *const *extra, size_t nextra,
			struct subject_tags *out);

#endif
