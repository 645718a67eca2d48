/* A repository for the series tests: base v1.0 and a stack of HACK,
 * OBSOLETE and other patches whose keep/drop for clang 5.0 and 14.0.6 is
 * known, plus a patchset file with rules for some of them. */
#ifndef KLANG_TESTS_SERIES_REPO_H
#define KLANG_TESTS_SERIES_REPO_H

#include <stdbool.h>
#include <stddef.h>

#define SERIES_REPO_PATCHES 10

struct series_repo {
	char *dir;	/* temporary directory holding both */
	char *repo;	/* DIR/repo: work tree checked out at main */
	char *patchset; /* DIR/ps/stack.yaml, repo given relative to it */
	char base[41];
	char ids[SERIES_REPO_PATCHES][41];
};

/* The expected decision per patch: "keep" or "drop". */
extern const char *const series_repo_expect_14[SERIES_REPO_PATCHES];
extern const char *const series_repo_expect_5[SERIES_REPO_PATCHES];

int series_repo_make(struct series_repo *r);
void series_repo_free(struct series_repo *r);
/* Run `klang series ARGS`: its exit status, stdout and stderr (caller frees). */
int series_klang(const char *args, char **out, char **err);
/* strstr that takes NULL. */
bool str_has(const char *s, const char *needle);
/* The contents of file `path` on a revision, or NULL. Caller frees. */
char *series_repo_cat(const char *repo, const char *rev, const char *path);

#endif
