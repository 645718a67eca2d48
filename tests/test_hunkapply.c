/* Tests for core/hunkapply through stack_open_files: a diff of real commits
 * applied on a base where its hunks have moved (lines added above and
 * between them), a file without a final newline, a rename, a deletion, and
 * a hunk that matches nowhere. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objread.h"
#include "core/commitdiff.h"
#include "core/gitwrite.h"
#include "core/stackfiles.h"
#include "tests/helpers.h"

static char *numbered(int from, int to, const char *extra_after, int after)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = from; i <= to; i++) {
		sb_addf(&sb, "line %d\n", i);
		if (i == after)
			sb_adds(&sb, extra_after);
	}
	return sb_detach(&sb);
}

static char *blob_at(git_repository *r, const char *commit, const char *path)
{
	git_object *o;
	char *spec = xasprintf("%s:%s", commit, path);
	int rc = git_revparse_single(&o, r, spec);
	free(spec);
	if (rc < 0)
		return NULL;
	git_blob *b = (git_blob *)o;
	char *s = xstrndup(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_object_free(o);
	return s;
}

static void test_moved_hunks(void)
{
	char *dir = test_tmpdir();
	git_repository *r;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);

	/* the patch: two hunks in a.c, a change at the end of a file with no
	 * final newline, a rename with a change, a deletion */
	char *a = numbered(1, 60, "", 0);
	char *a2 = numbered(1, 60, "", 0);
	char *p;
	p = strstr(a2, "line 10\n");
	memcpy(p, "LINE 10\n", 8);
	p = strstr(a2, "line 50\n");
	memcpy(p, "LINE 50\n", 8);
	struct gw_file base[] = {
	    {"a.c", a, 0},
	    {"noeol.txt", "one\ntwo\nthree", 0},
	    {"old.h", "#define A 1\n#define B 2\n#define C 3\n#define D 4\n", 0},
	    {"gone.c", "int gone;\n", 0}};
	struct gw_commit c0 = {
	    .ref = "refs/heads/orig", .files = base, .nfiles = 4, .message = "base\n"};
	char orig[41], patched[41], moved[41];
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c0, orig, &e), 0);
	struct gw_file change[] = {
	    {"a.c", a2, 0},
	    {"noeol.txt", "one\ntwo\nTHREE", 0},
	    {"old.h", NULL, 0},
	    {"new.h", "#define A 1\n#define B 2\n#define C 3\n#define D 5\n", 0},
	    {"gone.c", NULL, 0}};
	struct gw_commit c1 = {.ref = "refs/heads/orig",
			       .files = change,
			       .nfiles = 5,
			       .message = "HACK: change things\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c1, patched, &e), 0);
	git_oid oid;
	git_commit *pc;
	git_oid_fromstr(&oid, patched);
	CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&pc, r, &oid), 0);
	struct objread *rd = objread_new(r);
	char *diff = commitdiff_text(r, rd, pc, RENAMES_ON, &e);
	objread_free(rd);
	git_commit_free(pc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(diff);
	CU_ASSERT_PTR_NOT_NULL(strstr(diff, "rename from old.h"));

	/* the base it goes on: 7 lines above the first hunk, 3 between */
	char *moved_a = numbered(1, 60, "extra x\nextra y\nextra z\n", 30);
	char *top = xasprintf("top 1\ntop 2\ntop 3\ntop 4\ntop 5\ntop 6\ntop 7\n%s", moved_a);
	struct gw_file mv[] = {{"a.c", top, 0}, {"noeol.txt", "zero\none\ntwo\nthree", 0}};
	struct gw_commit c2 = {.ref = "refs/heads/moved",
			       .parent = orig,
			       .files = mv,
			       .nfiles = 2,
			       .message = "move\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c2, moved, &e), 0);

	char *q = xasprintf("%s/.git/q", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(q, &e), 0);
	char *file = xasprintf("%s/one.patch", q), *series = xasprintf("%s/series", q);
	char *mail = xasprintf("Subject: [PATCH] HACK: change things\n\n---\n%s", diff);
	CU_ASSERT_EQUAL(write_file_atomic(file, mail, strlen(mail), &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(series, "one.patch\n", 10, &e), 0);

	struct stack st;
	struct patch_files rep;
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, q, STACK_FILES_QUILT, moved, dir, &rep, &e), 0);
	CU_ASSERT_EQUAL(rep.nmalformed, 0);
	if (rep.nmalformed)
		fprintf(stderr, "%s\n", rep.malformed[0].reason);
	CU_ASSERT_EQUAL_FATAL(st.npatches, 1);
	char *got = blob_at(r, st.patches[0].id, "a.c");
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "top 7\nline 1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "line 9\nLINE 10\nline 11\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "line 49\nLINE 50\nline 51\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "line 30\nextra x\n"));
	CU_ASSERT_EQUAL(strlen(got), strlen(top));
	free(got);
	got = blob_at(r, st.patches[0].id, "noeol.txt");
	CU_ASSERT_STRING_EQUAL(got, "zero\none\ntwo\nTHREE");
	free(got);
	got = blob_at(r, st.patches[0].id, "new.h");
	CU_ASSERT_STRING_EQUAL(got, "#define A 1\n#define B 2\n#define C 3\n#define D 5\n");
	free(got);
	CU_ASSERT_PTR_NULL(blob_at(r, st.patches[0].id, "old.h"));
	CU_ASSERT_PTR_NULL(blob_at(r, st.patches[0].id, "gone.c"));
	stack_free(&st);
	patch_files_free(&rep);

	/* a hunk whose lines are nowhere */
	struct gw_file other[] = {{"a.c", "nothing like it\n", 0}};
	struct gw_commit c3 = {.ref = "refs/heads/other",
			       .parent = orig,
			       .files = other,
			       .nfiles = 1,
			       .message = "other\n"};
	char otherid[41];
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c3, otherid, &e), 0);
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, q, STACK_FILES_QUILT, otherid, dir, &rep, &e),
			      0);
	CU_ASSERT_EQUAL(st.npatches, 0);
	CU_ASSERT_EQUAL_FATAL(rep.nmalformed, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(rep.malformed[0].reason,
				      "does not apply: a.c: hunk 1 (line 7) matches nowhere"));
	stack_free(&st);
	patch_files_free(&rep);

	free(mail);
	free(file);
	free(series);
	free(q);
	free(top);
	free(moved_a);
	free(diff);
	free(a);
	free(a2);
	git_repository_free(r);
	test_rmdir(dir);
	free(dir);
}

void suite_hunkapply(void)
{
	CU_pSuite s = CU_add_suite("hunkapply", NULL, NULL);
	CU_add_test(s, "hunks that moved, no final newline, rename, deletion", test_moved_hunks);
}
