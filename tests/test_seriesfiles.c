/* Tests for `klang series --mbox/--quilt` and its --export round trip with
 * the real tools: real public patch stacks (tests/fixtures/patches) are
 * exported, applied with `git am` and `quilt push -a` on a base made from
 * the patches' own preimages, and read back by klang to the same stack. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/mbox.h"
#include "core/quilt.h"
#include "core/stackfiles.h"
#include "tests/helpers.h"
#include "tests/localfix.h"

struct preimage {
	char *path;
	char **lines; /* 1-based line i at lines[i - 1]; NULL = filler */
	size_t n;
};

static struct preimage *preimage_of(struct preimage **v, size_t *nv, const char *path)
{
	for (size_t i = 0; i < *nv; i++)
		if (!strcmp((*v)[i].path, path))
			return &(*v)[i];
	*v = xrealloc(*v, (*nv + 1) * sizeof(**v));
	(*v)[*nv] = (struct preimage){xstrdup(path), NULL, 0};
	return &(*v)[(*nv)++];
}

/* The lines each hunk of a git-form diff expects (context and '-' lines) at
 * the line numbers its header gives: the files the patch applies to. */
static void add_preimages(struct preimage **v, size_t *nv, const char *diff)
{
	struct preimage *f = NULL;
	size_t at = 0, left = 0;
	for (const char *l = diff; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		unsigned long start, count = 1;
		if (!strncmp(l, "--- a/", 6)) {
			char *path = xstrndup(l + 6, len - 6);
			f = preimage_of(v, nv, path);
			free(path);
		} else if (!strncmp(l, "--- /dev/null", 13)) {
			f = NULL;
		} else if (f && sscanf(l, "@@ -%lu,%lu", &start, &count) >= 1) {
			at = start;
			left = count;
		} else if (f && left && (*l == ' ' || *l == '-')) {
			if (at > f->n) {
				f->lines = xrealloc(f->lines, at * sizeof(char *));
				memset(f->lines + f->n, 0, (at - f->n) * sizeof(char *));
				f->n = at;
			}
			free(f->lines[at - 1]);
			f->lines[at - 1] = xstrndup(l + 1, len - 1);
			at++;
			left--;
		}
		l += len + (nl != NULL);
	}
}

/* DIR/repo: one commit with every file the patches of `path` expect,
 * tagged v1, checked out. */
static void make_base(const char *dir, const char *path, enum stack_files_kind kind)
{
	struct patch_files pf = {0};
	struct kerr e;
	int rc = kind == STACK_FILES_QUILT ? quilt_read(&pf, path, NULL, &e)
					   : mbox_read(&pf, path, NULL, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct preimage *v = NULL;
	size_t nv = 0;
	for (size_t i = 0; i < pf.npatches; i++)
		add_preimages(&v, &nv, pf.patches[i].diff);
	struct gw_file *files = xcalloc(nv + 2, sizeof(*files));
	char **texts = xcalloc(nv + 1, sizeof(char *));
	for (size_t i = 0; i < nv; i++) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t k = 0; k < v[i].n; k++)
			if (v[i].lines[k])
				sb_addf(&sb, "%s\n", v[i].lines[k]);
			else
				sb_addf(&sb, "/* line %zu */\n", k + 1);
		texts[i] = sb_detach(&sb);
		files[i] = (struct gw_file){v[i].path, texts[i], 0};
	}
	files[nv] = (struct gw_file){"README", "base\n", 0};
	git_repository *r;
	char *repo = xasprintf("%s/repo", dir);
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = files, .nfiles = nv + 1, .message = "base\n"};
	CU_ASSERT_EQUAL_FATAL(gw_init(repo, &r, &e), 0);
	CU_ASSERT_EQUAL(gw_commit(r, &c, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1", "main", &e), 0);
	CU_ASSERT_EQUAL(gw_checkout(r, "main", &e), 0);
	git_repository_free(r);
	for (size_t i = 0; i < nv; i++) {
		for (size_t k = 0; k < v[i].n; k++)
			free(v[i].lines[k]);
		free(v[i].lines);
		free(v[i].path);
		free(texts[i]);
	}
	free(v);
	free(texts);
	free(files);
	free(repo);
	patch_files_free(&pf);
}

static char *run(const char *cmd, int want)
{
	char *out, *err;
	int rc = test_run(cmd, &out, &err);
	CU_ASSERT_EQUAL(rc, want);
	if (rc != want)
		fprintf(stderr, "%s: exit %d\n%s%s", cmd, rc, out, err);
	free(err);
	return out;
}

/* A patch file with no author (a bare diff) is exported, and applied with
 * --base, as git needs one: "unknown". */
static char *author_unknown(const char *tsv)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *l = tsv; *l;) {
		const char *nl = strchrnul(l, '\n'), *t = l;
		for (int f = 0; f < 4 && t && t < nl; f++)
			t = strchr(t, '\t') ? strchr(t, '\t') + 1 : NULL;
		size_t len = (size_t)(nl - l) + (*nl == '\n');
		if (t && t < nl && *t == '\t') { /* field 5, the author, is empty */
			sb_add(&sb, l, (size_t)(t - l));
			sb_adds(&sb, "unknown");
			sb_add(&sb, t, len - (size_t)(t - l));
		} else {
			sb_add(&sb, l, len);
		}
		l += len;
	}
	return sb_detach(&sb);
}

static void check_stack(const char *opt, const char *path, const char *want)
{
	char *cmd =
	    xasprintf("'%s' stack %s '%s' --format tsv 2>/dev/null", test_klang_bin(), opt, path);
	char *out = run(cmd, 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	if (strcmp(out, want))
		fprintf(stderr, "read back from %s:\n%s\nwant:\n%s", path, out, want);
	free(out);
	free(cmd);
}

/* Export the stack at `path` as mbox and as quilt, without and with a base;
 * apply each with git am and quilt push; read each back. */
static void round_trip(const char *rel, enum stack_files_kind kind, int want_rc, size_t npatches)
{
	const char *opt = kind == STACK_FILES_MBOX ? "--mbox" : "--quilt";
	char *dir = test_tmpdir(), *path = test_local_fixture(rel);
	const char *bin = test_klang_bin();
	make_base(dir, path, kind);
	char *cmd = xasprintf("'%s' stack %s '%s' --format tsv 2>/dev/null", bin, opt, path);
	char *orig = run(cmd, want_rc);
	free(cmd);
	/* the applied stack's last commit: the tree every tool must reach */
	cmd = xasprintf("'%s' stack %s '%s' --base v1 --repo '%s/repo' --format tsv 2>/dev/null "
			"| tail -1 | cut -f2",
			bin, opt, path, dir);
	char *head = run(cmd, 0);
	CU_ASSERT_EQUAL(strlen(head), 41);
	head[40] = '\0';
	free(cmd);

	const char *bases[] = {"", "--base v1"};
	for (size_t b = 0; b < 2; b++) {
		cmd = xasprintf("cd '%s' && '%s' series %s '%s' %s --repo repo --clang 14 "
				"--export m%zu --as mbox >/dev/null; '%s' series %s '%s' %s "
				"--repo repo --clang 14 --export q%zu --as quilt >/dev/null",
				dir, bin, opt, path, bases[b], b, bin, opt, path, bases[b], b);
		free(run(cmd, want_rc));
		free(cmd);
		/* git am on a clone of the base, then quilt push -a on another */
		cmd = xasprintf(
		    "cd '%s' && rm -rf am qp && git clone -q repo am && git clone -q repo qp && "
		    "cd am && git -c user.name=t -c user.email=t@example.org am -q "
		    "--keep-non-patch ../m%zu/*.patch && git diff --quiet %s HEAD && "
		    "git log --format=%%s v1..HEAD | wc -l && cd ../qp && "
		    "QUILT_PATCHES='%s/q%zu' quilt push -a -q >/dev/null && rm -rf .pc && "
		    "git add -A && git fetch -q ../repo %s && git diff --cached --quiet %s && "
		    "echo same",
		    dir, b, head, dir, b, head, head);
		char *out = run(cmd, 0);
		char *counted = xasprintf("%zu\nsame\n", npatches);
		CU_ASSERT_STRING_EQUAL(out, counted);
		free(counted);
		free(out);
		free(cmd);
		/* klang reads both exports back to the same stack */
		if (b == 0) {
			char *m = xasprintf("%s/m0", dir), *q = xasprintf("%s/q0", dir);
			cmd = xasprintf("cat '%s'/0*.patch > '%s/all.mbox'", m, dir);
			free(run(cmd, 0));
			free(cmd);
			char *all = xasprintf("%s/all.mbox", dir);
			char *want = author_unknown(orig);
			check_stack("--mbox", all, want);
			check_stack("--quilt", q, want);
			free(want);
			free(all);
			free(m);
			free(q);
		}
	}
	free(head);
	free(orig);
	free(path);
	test_rmdir(dir);
	free(dir);
}

static void test_quilt_round_trip(void)
{
	/* the fixture lists a missing and a reversed patch: exit 1, both named */
	round_trip("patches/quilt", STACK_FILES_QUILT, 1, 5);
}

static void test_mbox_round_trip(void)
{
	/* format-patch and MAILER-DAEMON separators in one file */
	round_trip("patches/cbl-ci2__mainline.mbox", STACK_FILES_MBOX, 0, 4);
}

/* klang series ARGS on the quilt fixture: exit status and what stdout and
 * stderr must hold. */
static void series_on_fixture(const char *args, int want, const char *in_out, const char *in_err)
{
	char *path = test_local_fixture("patches/quilt");
	char *cmd =
	    xasprintf("'%s' series --quilt '%s' --clang 14 %s", test_klang_bin(), path, args);
	char *out, *err;
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), want);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, in_out));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, in_err));
	free(out);
	free(err);
	free(cmd);
	free(path);
}

static void test_series_files_cli(void)
{
	series_on_fixture("--format tsv", 1, "\tHACK\tkeep\t",
			  "series:11: no-such.patch: No such file");
	series_on_fixture("--format tsv", 1, "\tBACKPORT,FROMLIST\tkeep\t",
			  "series:12: reversed.patch: reverse patches");
	series_on_fixture("", 1, "quilt (patch files, no base): 5 patches, 5 kept", "");
	series_on_fixture("--head x", 2, "", "--head does not go with --mbox or --quilt");
}

/* A patchset's own tag words are read from patch files as from a branch. */
static void test_patchset_tags(void)
{
	char *dir = test_tmpdir();
	struct kerr e;
	char *mbox = xasprintf("%s/x.mbox", dir), *ps = xasprintf("%s/ps.yaml", dir);
	const char *mail = "From: A U Thor <a@example.org>\n"
			   "Subject: [PATCH] NOUPSTREAM: HACK: arm64: x\n\nWhy.\n---\n"
			   "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a\n+b\n";
	CU_ASSERT_EQUAL(write_file_atomic(mbox, mail, strlen(mail), &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(ps, "name: t\ntags: [NOUPSTREAM]\nrules: []\n", 37, &e),
			0);
	const char *with[] = {"", "--patchset ps.yaml"};
	const char *want[] = {"\t-\tkeep\t", "\tNOUPSTREAM,HACK\tkeep\t"};
	const char *title[] = {"NOUPSTREAM: HACK: arm64: x\n", "arm64: x\n"};
	for (int i = 0; i < 2; i++) {
		char *cmd = xasprintf("cd '%s' && '%s' series %s --mbox x.mbox --clang 14 --format "
				      "tsv",
				      dir, test_klang_bin(), with[i]);
		char *out = run(cmd, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, want[i]));
		CU_ASSERT_TRUE(str_endswith(out, title[i]));
		free(out);
		free(cmd);
	}
	free(mbox);
	free(ps);
	test_rmdir(dir);
	free(dir);
}

void suite_seriesfiles(void)
{
	CU_pSuite s = CU_add_suite("seriesfiles", NULL, NULL);
	CU_add_test(s, "klang series --quilt: decisions, malformed listed", test_series_files_cli);
	CU_add_test(s, "patchset tags on a stack from files", test_patchset_tags);
	CU_add_test(s, "quilt stack: export, git am, quilt push, read back", test_quilt_round_trip);
	CU_add_test(s, "mbox stack: export, git am, quilt push, read back", test_mbox_round_trip);
}
