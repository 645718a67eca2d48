/* Test repositories for the patch-stack suites: one written with libgit2
 * holding every trap of real stacks, and big ones made by git fast-import. */
#ifndef KLANG_TESTS_STACKREPO_H
#define KLANG_TESTS_STACKREPO_H

#include <stddef.h>

/* The patches of the trap repository, oldest first (v4.9..main). */
enum {
	SR_UPSTREAM,	      /* UPSTREAM: usb: ...          trailers, cherry-picked */
	SR_BACKPORT_FROMLIST, /* BACKPORT: FROMLIST: pwm:  adds a file */
	SR_DO_NOT_UPSTREAM,   /* DO-NOT-UPSTREAM: ...         untagged */
	SR_ANDROID_ARM,	      /* ANDROID: ARM: ...            one tag */
	SR_FROMLIST_USB,      /* FROMLIST: USB: ...           one tag */
	SR_REVERT,	      /* Revert "BACKPORT: FROMLIST: ..." deletes the file */
	SR_UNTAGGED,
	SR_MERGE,	     /* Merge branch 'side' (first parent: SR_UNTAGGED) */
	SR_UTF8_AUTHOR,	     /* HACK: ... by José Müller, Clang-Fixed: 15 */
	SR_LONG_SUBJECT,     /* CHROMIUM: + 300 characters */
	SR_TAB_SUBJECT,	     /* CUSTOM: a\ttab */
	SR_BINARY,	     /* OBSOLETE: a binary file */
	SR_RENAME,	     /* FROMGIT: a rename */
	SR_LOWERCASE,	     /* Upstream: ... untagged */
	SR_NO_SPACE,	     /* HACK:x untagged */
	SR_TWO_LINE_SUBJECT, /* UPSTREAM: first\nsecond (one subject) */
	SR_EMPTY,	     /* BACKPORT: no change at all */
	SR_COUNT
};

struct stackrepo {
	char *dir;
	char ids[SR_COUNT][41];
	char base[41], side[41];
};

/* Build it in a fresh temporary directory: v4.8 < v4.9 (base) < the patches
 * on main (checked out), a tag "android-4.9" (not v*) near the top, branch
 * "side" (off v4.9, merged by SR_MERGE) and branch "other" (off v4.8, not
 * merged). 0 on success. */
int stackrepo_build(struct stackrepo *r);
void stackrepo_free(struct stackrepo *r);

/* A fast-import stack of n patches (bench/stack-gen.awk) in a fresh
 * directory, base v1.0, head master; NULL on failure. Caller frees. */
char *stackrepo_generate(size_t n, size_t files);

/* `klang stack --format tsv` as git sees it: git log --reverse
 * --first-parent --numstat piped through tests/stack-expect.awk. */
char *stackrepo_expected_tsv(const char *dir, const char *range);

#endif
