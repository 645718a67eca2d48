/* Clang versions: parse what `clang --version` prints in every vendor's
 * format (LLVM, Debian, Ubuntu, Android, ChromeOS, Fedora, Apple, ...), parse
 * versions users write (`5`, `5.0`, `14.0.6`), compare them, and find every
 * clang on PATH. */
#ifndef KLANG_CORE_CLANGVER_H
#define KLANG_CORE_CLANGVER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct clang_version {
	int major, minor, patch; /* parts not given are 0 */
	int nparts;		 /* how many parts were written: 1..3 */
	char suffix[32];	 /* what followed the numbers: "-1ubuntu1", "git", "" */
	char vendor[32];	 /* "Debian", "Ubuntu", "Android", "Chromium OS", "Apple", "" */
	char detail[96]; /* vendor build: "4691093 based on r316199", "clang-1500.1.0.2.5" */
	bool apple;	 /* Apple's own numbering: NOT an LLVM version */
};

/* The largest number a part of a version may be (LLVM is at 20). */
#define CLANGVER_PART_MAX 999

/* A version as a user writes it: "5", "5.0" or "14.0.6", decimal digits,
 * each part 0..CLANGVER_PART_MAX (blanks around it are ignored). -1 for
 * anything else: "14abc", "1e3", "0x10", "14.0.6.1", "v14", "-1". */
int clangver_parse(const char *s, struct clang_version *v);
/* A version in a commit's trailer, written by anyone: as clangver_parse,
 * but a packaging suffix ("15.0.7-1ubuntu1", "17.0.6+rc1", "16~git") and a
 * comment after a blank ("15 (see D12345)") are allowed; "14abc", "1e3",
 * "14.0.6.1" are still not versions. 0 or -1. */
int clangver_parse_trailer(const char *s, struct clang_version *v);
/* Read the version from `clang --version` output (any vendor). -1 with a
 * message quoting the first line when no Clang version is in it. */
int clangver_from_output(const char *text, struct clang_version *v, struct kerr *e);
/* Order two versions; parts not written count as 0 (5 == 5.0.0 < 5.0.1). */
int clangver_cmp(const struct clang_version *a, const struct clang_version *b);
/* "14.0.6" (always three parts) into buf. */
const char *clangver_str(const struct clang_version *v, char *buf, size_t len);
/* As written: "5", "5.0", "14.0.6". */
const char *clangver_str_short(const struct clang_version *v, char *buf, size_t len);

/* The compiler klang uses by default: `cc` if given, else $CC, else "clang".
 * $CC may carry a wrapper or flags ("ccache clang"): its words are kept. */
const char *clangver_default_cc(const char *cc);
/* How long `CC --version` may take, in seconds. */
#define CLANGVER_TIMEOUT 10

/* Run WORDS with "--version" appended, stdout and stderr together into
 * *out; given up after CLANGVER_TIMEOUT seconds or 64 KiB (its process
 * group killed), an error naming a compiler not found or not executable. */
int run_version(char **words, size_t nwords, char **out, struct kerr *e);
/* Run `CC --version` (CC split into words, found on PATH) and parse it; a
 * compiler that hangs is given up after CLANGVER_TIMEOUT seconds. */
int clangver_detect(const char *cc, struct clang_version *v, struct kerr *e);

/* One clang found on PATH. */
struct clang_found {
	char *name; /* "clang", "clang-14" */
	char *path; /* first match on PATH */
	struct clang_version v;
	char *error; /* why it could not be read; v is then unset */
};
/* Every `clang` and `clang-N` on $PATH (the first of each name, as the shell
 * would run it), sorted by version, newest first. Caller frees with
 * clangver_found_free(). */
struct clang_found *clangver_find_all(size_t *n);
void clangver_found_free(struct clang_found *f, size_t n);

#endif
