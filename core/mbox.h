/* Patch series that are files, not branches: an mbox (git format-patch, b4 am,
 * a mail client's folder, mboxrd's ">From " quoting), a single patch file
 * with mail or DEP-3 headers, or a bare diff. Each message becomes a `struct
 * patch` (author, date, subject without "[PATCH v3 07/12]", tags, body,
 * trailers, diff in git's form and its statistics); what cannot be read is
 * listed with the reason, never dropped. */
#ifndef KLANG_CORE_MBOX_H
#define KLANG_CORE_MBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/stack.h"
#include "core/util.h"

/* A patch that could not be read, and why. */
struct malformed {
	char *source;	 /* the file */
	size_t line;	 /* 1-based line in it, 0 if not known */
	char *reason;	 /* "no diff", "line 40: hunk at line 31 cut short: ..." */
	size_t position; /* good patches before it (it belongs before patches[position]) */
};

/* An AOSP section marker ("_____ANNOTATION: pending upstream_____"): a pseudo
 * patch that only touches the file ANNOTATIONS; a heading, not a change. */
struct annotation {
	char *text;	 /* "pending upstream" */
	size_t position; /* it heads patches[position] onwards */
};

struct patch_files {
	struct patch *patches; /* in series order; index is 1-based */
	size_t npatches, cap;
	struct malformed *malformed;
	size_t nmalformed, malformed_cap;
	struct annotation *annotations;
	size_t nannotations, annotations_cap;
	struct patch *cover; /* the [PATCH 0/N] cover letter of an mbox, or NULL */
};

struct patch_read_opts {
	bool strip_given;	       /* else -p1 (git's a/ and b/) */
	int strip;		       /* -pN */
	const char *const *extra_tags; /* a patchset's own tag words */
	size_t nextra_tags;
};

/* Read every patch of an mbox or patch file. -1 only when the file cannot be
 * read; malformed messages go to pf->malformed. Messages numbered [PATCH n/m]
 * are put in n order when they are a complete series (as b4 does). */
int mbox_read(struct patch_files *pf, const char *path, const struct patch_read_opts *o,
	      struct kerr *e);
/* The same on text already in memory (len bytes); `source` names it. */
void mbox_parse(struct patch_files *pf, const char *text, size_t len, const char *source,
		const struct patch_read_opts *o);
/* A patch as a git format-patch mail ("From <id> Mon Sep 17 00:00:00 2001",
 * From:, Date:, "Subject: [PATCH n/total] ...", body, "---", diff,
 * signature), appended to out; mbox_read reads it back to the same patch.
 * Non-ASCII names and subjects are RFC 2047 encoded, body lines starting
 * with "From " are quoted (mboxrd). `diff` is the patch's diff text (p->diff
 * when it has one). For exporting stacks read without a base. */
void mbox_format_patch(const struct patch *p, const char *diff, size_t n, size_t total,
		       struct strbuf *out);
/* Record a malformed entry at the current position. */
void patch_files_malformed(struct patch_files *pf, const char *source, size_t line, const char *fmt,
			   ...) __attribute__((format(printf, 4, 5)));
/* "file:line: reason" of the first malformed entry (for one-line errors);
 * caller frees; NULL if there is none. */
char *patch_files_first_error(const struct patch_files *pf);
/* A file's name without its directory and .patch/.diff/.mbox/.eml: what a
 * bare diff is called, and a stack read from a file. Caller frees. */
char *mbox_file_title(const char *path);
/* One line per malformed entry, "klang: FILE:LINE: reason (after patch N)",
 * for a command's standard error. */
void patch_files_print_malformed(const struct patch_files *pf, FILE *f);
void patch_files_free(struct patch_files *pf);

#endif
