/* Tests for core/quilt and core/stackfiles: the series file, a real-patch
 * quilt fixture, and series made from real commits of a repository built
 * with libgit2, applied back in memory on their base. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objread.h"
#include "core/commitdiff.h"
#include "core/gitwrite.h"
#include "core/quilt.h"
#include "core/stackfiles.h"
#include "tests/helpers.h"
#include "tests/localfix.h"

static void test_series_file(void)
{
	struct quilt_entry *v;
	size_t n;
	quilt_parse_series("# comment\n\n  a.patch\nb.patch -p0\t# why\nc.patch -p 2\n"
			   "d.patch -pab\ne.patch -R\nf.patch --fuzz=3\r\n#g.patch\nh#x.patch\n",
			   &v, &n);
	CU_ASSERT_EQUAL_FATAL(n, 7);
	CU_ASSERT_STRING_EQUAL(v[0].name, "a.patch");
	CU_ASSERT_EQUAL(v[0].strip, 1);
	CU_ASSERT_EQUAL(v[0].line, 3);
	CU_ASSERT_PTR_NULL(v[0].error);
	CU_ASSERT_EQUAL(v[1].strip, 0);
	CU_ASSERT_EQUAL(v[2].strip, 2);
	CU_ASSERT_EQUAL(v[3].strip, 1);
	CU_ASSERT_EQUAL(v[4].line, 7);
	CU_ASSERT_STRING_EQUAL(v[4].error, "reverse patches (-R) are not supported '-R'");
	CU_ASSERT_EQUAL(v[5].line, 8);
	CU_ASSERT_STRING_EQUAL(v[5].error, "unknown option '--fuzz=3'");
	CU_ASSERT_STRING_EQUAL(v[6].name, "h#x.patch"); /* '#' inside a name is not a comment */
	quilt_entries_free(v, n);
}

static void test_fixture_series(void)
{
	char *dir = test_local_fixture("patches/quilt");
	struct patch_files pf = {0};
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(quilt_read(&pf, dir, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 5);
	struct patch *p = pf.patches;
	CU_ASSERT_STRING_EQUAL(
	    p[0].title, "ARM: Don't enable CONFIG_CURRENT_POINTER_IN_TPIDRURO with clang-14");
	CU_ASSERT_STRING_EQUAL(p[1].subject, "[sh4] Fix uImage build");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p[1], "Forwarded"), "not-needed");
	CU_ASSERT_EQUAL(p[2].ntags, 2);
	CU_ASSERT_EQUAL(p[2].files, 3);
	/* -p0 with a quilt header of free text */
	CU_ASSERT_STRING_EQUAL(p[3].subject, "scripts: tools-support-relr.sh: quote $CC");
	CU_ASSERT_PTR_NOT_NULL(strstr(p[3].diff, "diff --git a/scripts/tools-support-relr.sh "
						 "b/scripts/tools-support-relr.sh\n"));
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p[3], "Signed-off-by"),
			       "Nathan Chancellor <nathan@kernel.org>");
	/* a bare diff, Index: lines, a new file given by its epoch timestamp */
	CU_ASSERT_STRING_EQUAL(p[4].subject, "bare");
	CU_ASSERT_EQUAL(p[4].files, 2);
	CU_ASSERT_EQUAL(p[4].insertions, 3);
	CU_ASSERT_EQUAL(p[4].deletions, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p[4].diff, "new file mode 100644\n--- /dev/null\n"
						 "+++ b/scripts/clang-tools/run.sh\n"));
	for (size_t i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(p[i].index, i + 1);
	CU_ASSERT_EQUAL_FATAL(pf.nannotations, 1);
	CU_ASSERT_STRING_EQUAL(pf.annotations[0].text, "pending upstream");
	CU_ASSERT_EQUAL(pf.annotations[0].position, 2);
	CU_ASSERT_EQUAL_FATAL(pf.nmalformed, 2);
	CU_ASSERT_TRUE(str_endswith(pf.malformed[0].source, "quilt/series"));
	CU_ASSERT_EQUAL(pf.malformed[0].line, 11);
	CU_ASSERT_PTR_NOT_NULL(strstr(pf.malformed[0].reason, "no-such.patch: No such file"));
	CU_ASSERT_EQUAL(pf.malformed[0].position, 5);
	CU_ASSERT_EQUAL(pf.malformed[1].line, 12);
	patch_files_free(&pf);

	CU_ASSERT_EQUAL(quilt_read(&pf, "/nonexistent/quilt", NULL, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/quilt"));
	patch_files_free(&pf);
	free(dir);
}

/* ---- a repository, a series made from its commits, applied back ---- */

#define NCOMMITS 3

struct fixture_repo {
	char *dir;
	git_repository *r;
	char ids[NCOMMITS][41];
};

static const char *const messages[NCOMMITS] = {
    "FROMLIST: kbuild: Disable -Wformat-overflow for clang\n\n"
    "Clang 16 warns about every snprintf() into a small buffer.\n\n"
    "Link: https://github.com/ClangBuiltLinux/linux/issues/1712\n"
    "Signed-off-by: Nathan Chancellor <nathan@kernel.org>\n",
    "HACK: arm64: move foo into its own file\n\nClang-Fixed: 17\n",
    "UPSTREAM: rename the README\n",
};

static void make_repo(struct fixture_repo *fr)
{
	struct kerr e;
	fr->dir = test_tmpdir();
	CU_ASSERT_EQUAL_FATAL(gw_init(fr->dir, &fr->r, &e), 0);
	static const char extrawarn[] =
	    "KBUILD_CFLAGS += -Wall\nKBUILD_CFLAGS += -Wno-pointer-sign\n"
	    "ifdef CONFIG_CC_IS_CLANG\nKBUILD_CFLAGS += -Wno-gnu\nendif\n";
	static const char readme[] = "Linux kernel\n============\n\nThere are several guides for "
				     "kernel developers and users.\nThese guides can be rendered "
				     "in a number of formats.\n";
	struct gw_file base[] = {
	    {"scripts/Makefile.extrawarn", extrawarn, 0},
	    {"README", readme, 0},
	    {"arch/arm64/Kconfig", "config ARM64\n\tdef_bool y\n\tselect FOO\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/master", .files = base, .nfiles = 3, .message = "base\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(fr->r, &c, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(gw_tag(fr->r, "v1", "master", &e), 0);

	struct gw_file f0[] = {{"scripts/Makefile.extrawarn",
				"KBUILD_CFLAGS += -Wall\nKBUILD_CFLAGS += -Wno-pointer-sign\n"
				"ifdef CONFIG_CC_IS_CLANG\nKBUILD_CFLAGS += -Wno-gnu\n"
				"KBUILD_CFLAGS += -Wno-format-overflow\nendif\n",
				0}};
	struct gw_file f1[] = {{"arch/arm64/foo.c", "int foo;\n", 0},
			       {"arch/arm64/Kconfig", "config ARM64\n\tdef_bool y\n", 0}};
	struct gw_file f2[] = {{"README", NULL, 0}, {"README.rst", readme, 0}};
	const struct gw_file *files[NCOMMITS] = {f0, f1, f2};
	size_t nfiles[NCOMMITS] = {1, 2, 2};
	for (int i = 0; i < NCOMMITS; i++) {
		struct gw_commit ci = {.ref = "refs/heads/work",
				       .parent = i ? fr->ids[i - 1] : "v1",
				       .files = files[i],
				       .nfiles = nfiles[i],
				       .message = messages[i],
				       .author =
					   i == 1 ? "Uwe Kleine-K\xc3\xb6nig" : "Nathan Chancellor",
				       .email = "dev@kernel.org",
				       .time = 1678817011 + i,
				       .tz = -420};
		CU_ASSERT_EQUAL_FATAL(gw_commit(fr->r, &ci, fr->ids[i], &e), 0);
	}
}

static char *commit_diff(git_repository *r, const char *id)
{
	git_oid oid;
	git_commit *c;
	struct kerr e;
	git_oid_fromstr(&oid, id);
	CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&c, r, &oid), 0);
	struct objread *rd = objread_new(r);
	char *diff = commitdiff_text(r, rd, c, RENAMES_ON, &e);
	objread_free(rd);
	git_commit_free(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(diff);
	return diff;
}

/* A format-patch style mail for commit i. */
static char *mail_for(struct fixture_repo *fr, int i)
{
	char *diff = commit_diff(fr->r, fr->ids[i]);
	const char *msg = messages[i], *nl = strchr(msg, '\n');
	char *s = xasprintf(
	    "From %s Mon Sep 17 00:00:00 2001\nFrom: %s <dev@kernel.org>\n"
	    "Date: Tue, 14 Mar 2023 11:03:%02d -0700\nSubject: [PATCH %d/%d] %.*s\n\n"
	    "%s---\n%s-- \n2.40.0\n\n",
	    fr->ids[i], i == 1 ? "=?UTF-8?q?Uwe=20Kleine-K=C3=B6nig?=" : "Nathan Chancellor",
	    31 + i, i + 1, NCOMMITS, (int)(nl - msg), msg, nl[1] ? nl + 2 : "", diff);
	free(diff);
	return s;
}

static void write(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(p, text, strlen(text), &e), 0);
	free(p);
}

static void assert_same_tree(git_repository *r, const char *a, const char *b)
{
	git_oid oa, ob;
	git_commit *ca, *cb;
	git_oid_fromstr(&oa, a);
	git_oid_fromstr(&ob, b);
	CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&ca, r, &oa), 0);
	CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&cb, r, &ob), 0);
	CU_ASSERT_TRUE(git_oid_equal(git_commit_tree_id(ca), git_commit_tree_id(cb)));
	git_commit_free(ca);
	git_commit_free(cb);
}

static size_t count_refs(git_repository *r)
{
	git_strarray refs;
	git_reference_list(&refs, r);
	size_t n = refs.count;
	git_strarray_dispose(&refs);
	return n;
}

static void test_apply_quilt_on_base(void)
{
	struct fixture_repo fr;
	struct kerr e;
	make_repo(&fr);
	char *q = xasprintf("%s/.git/quilt", fr.dir);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(q, &e), 0);
	struct strbuf series = STRBUF_INIT;
	sb_adds(&series, "# made from refs/heads/work\n\n");
	for (int i = 0; i < NCOMMITS; i++) {
		char *name = xasprintf("%04d.patch", i + 1), *m = mail_for(&fr, i);
		write(q, name, m);
		sb_addf(&series, "%s%s\n", name, i == 0 ? " -p1" : "");
		free(name);
		free(m);
	}
	/* a patch that does not apply, then one that does on what came before */
	write(q, "stale.patch",
	      "Subject: [PATCH] HACK: stale\n\n---\n--- a/README.rst\n+++ b/README.rst\n"
	      "@@ -1,2 +1,2 @@\n-Linux kernel, old\n+Linux\n ============\n");
	write(q, "after.patch",
	      "Subject: [PATCH] CUSTOM: after\n\n---\n--- a/README.rst\n+++ b/README.rst\n"
	      "@@ -1,2 +1,2 @@\n-Linux kernel\n+Linux\n ============\n");
	sb_adds(&series, "stale.patch\nafter.patch\n");
	write(q, "series", sb_str(&series));
	sb_free(&series);

	size_t refs = count_refs(fr.r);
	struct stack st = {0};
	struct patch_files report = {0};
	CU_ASSERT_EQUAL_FATAL(
	    stack_open_files(&st, q, STACK_FILES_QUILT, "v1", fr.dir, &report, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(st.repo);
	CU_ASSERT_EQUAL_FATAL(st.npatches, NCOMMITS + 1);
	/* same tree, message, author and dates: the very same commits */
	for (int i = 0; i < NCOMMITS; i++) {
		CU_ASSERT_STRING_EQUAL(st.patches[i].id, fr.ids[i]);
		assert_same_tree(fr.r, st.patches[i].id, fr.ids[i]);
		CU_ASSERT_PTR_NULL(st.patches[i].diff);
		CU_ASSERT_EQUAL(st.patches[i].index, (size_t)i + 1);
	}
	CU_ASSERT_STRING_EQUAL(st.patches[1].author, "Uwe Kleine-K\xc3\xb6nig");
	CU_ASSERT_STRING_EQUAL(st.patches[2].title, "rename the README");
	CU_ASSERT_STRING_EQUAL(st.patches[3].title, "after");
	CU_ASSERT_STRING_EQUAL(st.head_id, st.patches[3].id);
	CU_ASSERT_STRING_EQUAL(st.head_ref, "quilt"); /* the series' directory */
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v1");
	CU_ASSERT_EQUAL_FATAL(report.nmalformed, 1);
	CU_ASSERT_EQUAL(report.malformed[0].position, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.malformed[0].reason, "'HACK: stale' does not apply"));
	/* diffs come from the commits now */
	char *d = stack_patch_diff(&st, &st.patches[2], &e);
	CU_ASSERT_PTR_NOT_NULL(d && strstr(d, "rename from README\nrename to README.rst\n"));
	free(d);
	/* nothing of the user's moved */
	CU_ASSERT_EQUAL(count_refs(fr.r), refs);
	patch_files_free(&report);
	stack_free(&st);

	/* the same commits from an mbox */
	struct strbuf mbox = STRBUF_INIT;
	for (int i = NCOMMITS - 1; i >= 0; i--) { /* out of order: [PATCH n/m] sorts them */
		char *m = mail_for(&fr, i);
		sb_adds(&mbox, m);
		free(m);
	}
	write(q, "series.mbox", sb_str(&mbox));
	sb_free(&mbox);
	char *mb = xasprintf("%s/series.mbox", q);
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, mb, STACK_FILES_MBOX, "v1", fr.dir, NULL, &e),
			      0);
	CU_ASSERT_EQUAL_FATAL(st.npatches, NCOMMITS);
	for (int i = 0; i < NCOMMITS; i++)
		CU_ASSERT_STRING_EQUAL(st.patches[i].id, fr.ids[i]);
	CU_ASSERT_STRING_EQUAL(st.head_ref, "series");
	stack_free(&st);

	/* without a base: no repository, the diffs as read */
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, mb, STACK_FILES_MBOX, NULL, NULL, NULL, &e), 0);
	CU_ASSERT_PTR_NULL(st.repo);
	CU_ASSERT_EQUAL_FATAL(st.npatches, NCOMMITS);
	CU_ASSERT_STRING_EQUAL(st.patches[0].id, fr.ids[0]); /* the "From <sha>" line */
	d = stack_patch_diff(&st, &st.patches[0], &e);
	CU_ASSERT_PTR_NOT_NULL(d && strstr(d, "+KBUILD_CFLAGS += -Wno-format-overflow\n"));
	free(d);
	stack_free(&st);

	/* malformed entries fail the call when nobody takes the report */
	CU_ASSERT_EQUAL(stack_open_files(&st, q, STACK_FILES_QUILT, "v1", fr.dir, NULL, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "stale.patch: 'HACK: stale' does not apply"));
	CU_ASSERT_EQUAL(stack_open_files(&st, q, STACK_FILES_QUILT, "v9", fr.dir, NULL, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "base 'v9' not found in"));
	CU_ASSERT_EQUAL(stack_open_files(&st, q, STACK_FILES_QUILT, "v1", "/nonexistent", NULL, &e),
			-1);
	CU_ASSERT_STRING_EQUAL(e.msg, "not a git repository: /nonexistent");

	free(mb);
	free(q);
	git_repository_free(fr.r);
	test_rmdir(fr.dir);
	free(fr.dir);
}

/* quilt -p0: the same diffs without a/ and b/ */
static void test_apply_p0(void)
{
	struct fixture_repo fr;
	struct kerr e;
	make_repo(&fr);
	char *q = xasprintf("%s/.git/p0", fr.dir);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(q, &e), 0);
	char *diff = commit_diff(fr.r, fr.ids[0]);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "Refresh with -p0.\n\n");
	for (char *l = strtok(diff, "\n"); l; l = strtok(NULL, "\n")) {
		if (str_startswith(l, "--- a/") || str_startswith(l, "+++ b/"))
			sb_addf(&sb, "%.4s%s\n", l, l + 6);
		else if (!str_startswith(l, "diff --git") && !str_startswith(l, "index "))
			sb_addf(&sb, "%s\n", l);
	}
	write(q, "one.patch", sb_str(&sb));
	write(q, "series", "one.patch -p0\n");
	struct stack st = {0};
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, q, STACK_FILES_QUILT, "v1", fr.dir, NULL, &e),
			      0);
	CU_ASSERT_EQUAL_FATAL(st.npatches, 1);
	assert_same_tree(fr.r, st.patches[0].id, fr.ids[0]);
	CU_ASSERT_STRING_EQUAL(st.patches[0].subject, "Refresh with -p0.");
	CU_ASSERT_STRING_EQUAL(st.head_ref, "p0");
	stack_free(&st);

	/* quilt's own layout, DIR/patches/series, is named after DIR */
	char *lx = xasprintf("%s/.git/linux-6.1/patches", fr.dir),
	     *top = xasprintf("%s/.git/linux-6.1", fr.dir);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(lx, &e), 0);
	write(lx, "one.patch", sb_str(&sb));
	write(lx, "series", "one.patch -p0\n");
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, top, STACK_FILES_QUILT, NULL, NULL, NULL, &e),
			      0);
	CU_ASSERT_STRING_EQUAL(st.head_ref, "linux-6.1");
	stack_free(&st);
	char *sf = xasprintf("%s/series", lx);
	CU_ASSERT_EQUAL_FATAL(stack_open_files(&st, sf, STACK_FILES_QUILT, NULL, NULL, NULL, &e),
			      0);
	CU_ASSERT_STRING_EQUAL(st.head_ref, "linux-6.1");
	CU_ASSERT_EQUAL(st.npatches, 1);
	stack_free(&st);
	free(sf);
	free(lx);
	free(top);
	sb_free(&sb);
	free(diff);
	free(q);
	git_repository_free(fr.r);
	test_rmdir(fr.dir);
	free(fr.dir);
}

void suite_quilt(void)
{
	CU_pSuite s = CU_add_suite("quilt", NULL, NULL);
	CU_add_test(s, "series file: comments, blanks, -p options", test_series_file);
	CU_add_test(s, "real patches as a quilt series", test_fixture_series);
	CU_add_test(s, "series of real commits applied on their base", test_apply_quilt_on_base);
	CU_add_test(s, "a -p0 series applied", test_apply_p0);
}
