/* Builds the series tests' repository with libgit2 (core/gitwrite). */
#include "tests/series_repo.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "tests/helpers.h"

/* Every patch changes its own file pN.c, so any subset applies cleanly. */
static const char *const messages[SERIES_REPO_PATCHES] = {
    "UPSTREAM: kbuild: add a helper\n",
    "HACK: arm64: work around a clang bug\n\nClang-Fixed: 9\n",
    "OBSOLETE: x86: avoid a clang 4 crash\n\nSigned-off-by: A <a@example.org>\n"
    "Clang-Fixed: 6\n",
    "OBSOLETE: crypto: hints in the message\n\nThe issue was fixed in LLVM 5, and clang >= 6.0"
    " builds it fine; clang-14 too.\n\nChange-Id: I0000000000000000000000000000000000000004\n",
    "OBSOLETE: no version anywhere\n\nThe issue is fixed in upstream clang.\n",
    "HACK: mm: needs a new clang\n\nClang-Min: 10\n",
    "HACK: lib: ruled by the patchset\n",
    "HACK: fs: plain hack\n",
    "FROMLIST: net: dropped by Change-Id\n\nChange-Id: I0000000000000000000000000000000000000009\n",
    "OBSOLETE: sound: the rule beats the trailer\n\nClang-Fixed: 4\n",
};

const char *const series_repo_expect_14[SERIES_REPO_PATCHES] = {
    "keep", "drop", "drop", "keep", "keep", "keep", "drop", "keep", "drop", "keep",
};
const char *const series_repo_expect_5[SERIES_REPO_PATCHES] = {
    "keep", "keep", "keep", "keep", "keep", "drop", "keep", "keep", "drop", "keep",
};

int series_repo_make(struct series_repo *r)
{
	git_repository *g;
	struct kerr e;
	memset(r, 0, sizeof(*r));
	r->dir = test_tmpdir();
	r->repo = xasprintf("%s/repo", r->dir);
	if (gw_init(r->repo, &g, &e) < 0)
		return -1;
	struct gw_file base[] = {{"README", "base\n", 0}, {"a.c", "1\n2\n3\n4\n5\n6\n7\n8\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = base, .nfiles = 2, .message = "base\n"};
	int rc = gw_commit(g, &c, r->base, &e);
	if (rc == 0)
		rc = gw_tag(g, "v1.0", "main", &e);
	for (size_t i = 0; i < SERIES_REPO_PATCHES && rc == 0; i++) {
		char *path = xasprintf("p%zu.c", i + 1);
		char *content = xasprintf("int p%zu;\n", i + 1);
		struct gw_file f[] = {{path, content, 0}};
		struct gw_commit pc = {.ref = "refs/heads/main",
				       .files = f,
				       .nfiles = 1,
				       .message = messages[i],
				       .author = "Pat Author",
				       .email = "pat@example.org",
				       .time = 1500000000 + (int64_t)i * 3600,
				       .tz = 120};
		rc = gw_commit(g, &pc, r->ids[i], &e);
		free(path);
		free(content);
	}
	if (rc == 0)
		rc = gw_checkout(g, "main", &e);
	git_repository_free(g);
	if (rc < 0)
		return -1;
	char *psdir = xasprintf("%s/ps", r->dir);
	r->patchset = xasprintf("%s/stack.yaml", psdir);
	mkdir_p(psdir, &e);
	char *yaml = xasprintf("name: test-stack\n"
			       "repo: ../repo\n"
			       "base: v1.0\n"
			       "head: main\n"
			       "rules:\n"
			       "  - subject: '^HACK: lib:'\n"
			       "    until_clang: 13\n"
			       "    why: fixed by LLVM 13\n"
			       "  - change_id: I0000000000000000000000000000000000000009\n"
			       "    drop: true\n"
			       "  - commit: %.10s\n"
			       "    keep: true\n",
			       r->ids[9]);
	rc = write_file_atomic(r->patchset, yaml, strlen(yaml), &e);
	free(yaml);
	free(psdir);
	return rc;
}

void series_repo_free(struct series_repo *r)
{
	test_rmdir(r->dir);
	free(r->dir);
	free(r->repo);
	free(r->patchset);
}

char *series_repo_cat(const char *repo, const char *rev, const char *path)
{
	char *cmd = xasprintf("git -C '%s' show '%s:%s'", repo, rev, path);
	char *out = NULL;
	int rc = test_run(cmd, &out, NULL);
	free(cmd);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

int series_klang(const char *args, char **out, char **err)
{
	char *cmd = xasprintf("'%s' series %s", test_klang_bin(), args);
	int rc = test_run(cmd, out, err);
	free(cmd);
	return rc;
}

bool str_has(const char *s, const char *needle)
{
	return s && strstr(s, needle);
}
