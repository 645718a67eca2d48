/* Tests for core/apply and core/export through `klang series`: the new
 * branch is base + the kept patches (compared tree entry by tree entry),
 * HEAD, index, work tree and other branches stay as they were, existing
 * branches and files are refused, a conflict names both patches, and the
 * exported series applies with `git am` and with `quilt push -a`. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gitwrite.h"
#include "core/util.h"
#include "tests/helpers.h"
#include "tests/series_repo.h"

/* Run a shell command; its stdout (caller frees) and exit status. */
static char *sh(int *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *sh(int *rc, const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&cmd, fmt, ap);
	va_end(ap);
	char *out, *err;
	int r = test_run(sb_str(&cmd), &out, &err);
	if (rc)
		*rc = r;
	else if (r != 0)
		fprintf(stderr, "\n'%s' failed (%d): %s\n", sb_str(&cmd), r, err);
	free(err);
	sb_free(&cmd);
	return out;
}

/* Everything the user could see change: HEAD, refs, index, work tree. */
static char *snapshot(const char *repo)
{
	struct stat st;
	char *index = xasprintf("%s/.git/index", repo);
	stat(index, &st);
	char *state =
	    sh(NULL,
	       "cd '%s' && export GIT_OPTIONAL_LOCKS=0 && git symbolic-ref HEAD && git rev-parse "
	       "HEAD && "
	       "git for-each-ref --format='%%(refname) %%(objectname)' && "
	       "git status --porcelain --untracked-files=all --ignored && "
	       "find . -path ./.git -prune -o -type f -printf '%%p %%s %%T@\\n' | sort && "
	       "sha1sum .git/index",
	       repo);
	char *s = xasprintf("%s\nindex %ld.%09ld %lld %lu\n", state, (long)st.st_mtim.tv_sec,
			    st.st_mtim.tv_nsec, (long long)st.st_size, (unsigned long)st.st_ino);
	free(state);
	free(index);
	return s;
}

/* ls-tree of base plus, for each kept patch, its file as the patch wrote it. */
static char *expected_tree(const struct series_repo *r, const char *const *expect)
{
	struct strbuf cmd = STRBUF_INIT;
	sb_addf(&cmd, "cd '%s' && { git ls-tree -r v1.0", r->repo);
	for (size_t i = 0; i < SERIES_REPO_PATCHES; i++)
		if (!strcmp(expect[i], "keep"))
			sb_addf(&cmd, "; git ls-tree %s p%zu.c", r->ids[i], i + 1);
	sb_adds(&cmd, "; } | sort -k4");
	char *out = sh(NULL, "%s", sb_str(&cmd));
	sb_free(&cmd);
	return out;
}

/* Objects in packs (a copy in two packs counts twice), distinct objects. */
static void object_counts(const char *repo, long *in_pack, long *distinct)
{
	char *o = sh(NULL,
		     "cd '%s' && git count-objects -v | sed -n 's/^in-pack: //p' && "
		     "git cat-file --batch-all-objects --batch-check | wc -l",
		     repo);
	CU_ASSERT_EQUAL(sscanf(o, "%ld %ld", in_pack, distinct), 2);
	free(o);
}

static void test_apply_branch(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	char *before = snapshot(r.repo), *out, *err, *args;
	long packed0 = 0, objects0 = 0, packed1 = 0, objects1 = 0;
	object_counts(r.repo, &packed0, &objects0);

	args = xasprintf("--patchset '%s' --clang 14.0.6 --format tsv --apply k14", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	CU_ASSERT(str_has(err, "created branch k14"));
	free(out), free(err), free(args);
	/* the pack holds the new commits and trees, not a copy of the base */
	object_counts(r.repo, &packed1, &objects1);
	CU_ASSERT(objects1 > objects0);
	CU_ASSERT_EQUAL(packed1 - packed0, objects1 - objects0);
	int rc;
	free(sh(&rc, "git -C '%s' fsck --no-dangling --strict 2>&1", r.repo));
	CU_ASSERT_EQUAL(rc, 0);

	char *after = snapshot(r.repo);
	char *tip = sh(NULL, "git -C '%s' rev-parse k14", r.repo);
	/* identical but for the new branch line */
	char *line = xasprintf("refs/heads/k14 %s", tip);
	CU_ASSERT(str_has(after, line));
	char *pos = strstr(after, line);
	if (pos) {
		memmove(pos, pos + strlen(line), strlen(pos + strlen(line)) + 1);
		CU_ASSERT_STRING_EQUAL(after, before);
	}
	free(line), free(tip), free(after);

	/* the tree: base + kept patches, entry by entry; the commits keep author and message */
	char *got = sh(NULL, "git -C '%s' ls-tree -r k14 | sort -k4", r.repo);
	char *exp = expected_tree(&r, series_repo_expect_14);
	CU_ASSERT_STRING_EQUAL(got, exp);
	free(got), free(exp);
	got =
	    sh(NULL, "git -C '%s' log --reverse --format='%%an <%%ae> %%at %%s' v1.0..k14", r.repo);
	CU_ASSERT_STRING_EQUAL(
	    got, "Pat Author <pat@example.org> 1500000000 UPSTREAM: kbuild: add a helper\n"
		 "Pat Author <pat@example.org> 1500010800 OBSOLETE: crypto: hints in the message\n"
		 "Pat Author <pat@example.org> 1500014400 OBSOLETE: no version anywhere\n"
		 "Pat Author <pat@example.org> 1500018000 HACK: mm: needs a new clang\n"
		 "Pat Author <pat@example.org> 1500025200 HACK: fs: plain hack\n"
		 "Pat Author <pat@example.org> 1500032400 OBSOLETE: sound: the rule beats the "
		 "trailer\n");
	free(got);
	got = sh(NULL, "git -C '%s' log -1 --format=%%B k14~4", r.repo);
	CU_ASSERT(str_has(got, "The issue was fixed in LLVM 5"));
	CU_ASSERT(str_has(got, "Change-Id: I0000000000000000000000000000000000000004"));
	free(got);
	got = sh(NULL, "git -C '%s' reflog show --format=%%gs k14", r.repo);
	CU_ASSERT(str_has(got, "klang series --apply: v1.0 + 6 of 10 patches for clang 14.0.6"));
	free(got);

	/* refusals: an existing branch; --force on a branch klang did not create */
	args = xasprintf("--patchset '%s' --clang 5 --apply k14", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(err, "branch 'k14' exists; klang will not overwrite it"));
	free(out), free(err), free(args);
	args = xasprintf("--patchset '%s' --clang 5 --apply main --force", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(err, "klang did not create it"));
	free(out), free(err), free(args);
	/* names git takes but that are no branch of their own: refused before any
	 * output, nothing created */
	static const char *const bad_names[] = {"bad..name", "HEAD", "refs/heads/zz", "-x"};
	for (size_t i = 0; i < ARRAY_SIZE(bad_names); i++) {
		args =
		    xasprintf("--patchset '%s' --clang 5 --apply '%s'", r.patchset, bad_names[i]);
		CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
		char *msg =
		    xasprintf("klang: series: '%s' is not a valid branch name\n", bad_names[i]);
		CU_ASSERT_STRING_EQUAL(err, msg);
		CU_ASSERT_STRING_EQUAL(out, "");
		free(out), free(err), free(args), free(msg);
	}
	got = sh(NULL,
		 "git -C '%s' for-each-ref --format='%%(refname)' refs/heads/HEAD "
		 "refs/heads/refs refs/heads/-x",
		 r.repo);
	CU_ASSERT_STRING_EQUAL(got, "");
	free(got);

	/* --force replaces klang's own branch, with the clang 5.0 series */
	args = xasprintf("--patchset '%s' --clang 5 --apply k14 --force", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	free(out), free(err), free(args);
	got = sh(NULL, "git -C '%s' ls-tree -r k14 | sort -k4", r.repo);
	exp = expected_tree(&r, series_repo_expect_5);
	CU_ASSERT_STRING_EQUAL(got, exp);
	free(got), free(exp);

	/* ... but not once the user moved it, nor while it is checked out */
	free(sh(NULL, "git -C '%s' branch -f k14 main", r.repo));
	args = xasprintf("--patchset '%s' --clang 5 --apply k14 --force", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(err, "moved since"));
	free(out), free(err), free(args);
	args = xasprintf("--patchset '%s' --clang 5 --apply k5", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	free(out), free(err);
	free(sh(NULL, "git -C '%s' checkout -q k5", r.repo));
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	free(out), free(err), free(args);
	args = xasprintf("--patchset '%s' --clang 5 --apply k5 --force", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(err, "branch 'k5' is checked out"));
	free(out), free(err), free(args);
	free(before);
	series_repo_free(&r);
}

static void test_conflict(void)
{
	char *dir = test_tmpdir();
	git_repository *g;
	struct kerr e;
	char id[41];
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &g, &e), 0);
	struct gw_file b[] = {{"a.c", "1\n2\n3\n4\n5\n6\n7\n8\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = b, .nfiles = 1, .message = "base\n"};
	gw_commit(g, &c, id, &e);
	gw_tag(g, "v1.0", "main", &e);
	struct gw_file f1[] = {{"a.c", "1\n2\n3\nfour\n5\n6\n7\n8\n", 0}};
	struct gw_file f2[] = {{"a.c", "1\n2\n3\nFOUR\n5\n6\n7\n8\n", 0}};
	struct gw_file f3[] = {{"b.c", "b\n", 0}};
	struct gw_commit p1 = {.ref = "refs/heads/main",
			       .files = f1,
			       .nfiles = 1,
			       .message = "HACK: x86: write line four\n\nClang-Fixed: 9\n"};
	struct gw_commit p2 = {
	    .ref = "refs/heads/main", .files = f3, .nfiles = 1, .message = "UPSTREAM: unrelated\n"};
	struct gw_commit p3 = {.ref = "refs/heads/main",
			       .files = f2,
			       .nfiles = 1,
			       .message = "FROMLIST: build on line four\n"};
	CU_ASSERT_EQUAL(gw_commit(g, &p1, id, &e), 0);
	CU_ASSERT_EQUAL(gw_commit(g, &p2, id, &e), 0);
	CU_ASSERT_EQUAL(gw_commit(g, &p3, id, &e), 0);
	git_repository_free(g);

	char *objects = sh(NULL, "git -C '%s' count-objects -v", dir);
	char *out, *err;
	char *args = xasprintf(
	    "--repo '%s' --base v1.0 --head main --clang 14.0.6 --apply x --format tsv", dir);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 1);
	CU_ASSERT(str_has(err, "patch 3 (FROMLIST: build on line four) does not apply"));
	CU_ASSERT(str_has(err, "conflict in a.c"));
	CU_ASSERT(
	    str_has(err, "dropped patch 1 (HACK: x86: write line four) touched the same lines"));
	/* warned beforehand, too */
	CU_ASSERT(str_has(err, "warning: patch 1 (HACK: x86: write line four): kept patch 3"));
	free(out), free(err);
	int rc;
	free(sh(&rc, "git -C '%s' rev-parse --verify -q refs/heads/x", dir));
	CU_ASSERT_NOT_EQUAL(rc, 0); /* no branch */
	char *objects2 = sh(NULL, "git -C '%s' count-objects -v", dir);
	CU_ASSERT_STRING_EQUAL(objects, objects2); /* nothing written */
	free(objects), free(objects2);

	/* export stops the same way, and writes nothing */
	char *edir = xasprintf("%s/export", dir);
	free(args);
	args =
	    xasprintf("--repo '%s' --base v1.0 --head main --clang 14.0.6 --export '%s' --as mbox",
		      dir, edir);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 1);
	CU_ASSERT(str_has(err, "nothing exported"));
	CU_ASSERT(!file_exists(edir));
	free(out), free(err), free(args);
	/* with clang 8 the HACK is kept: no conflict */
	args = xasprintf("--repo '%s' --base v1.0 --head main --clang 8 --apply x", dir);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	free(out), free(err), free(args);
	free(edir);
	test_rmdir(dir);
	free(dir);
}

static void test_export(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	char *out, *err, *args;
	char *mbox = xasprintf("%s/mbox", r.dir), *quilt = xasprintf("%s/quilt", r.dir);
	char *before = snapshot(r.repo);

	args = xasprintf("--patchset '%s' --clang 14.0.6 --apply k14 --export '%s' --as mbox",
			 r.patchset, mbox);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	CU_ASSERT(str_has(err, "wrote 6 files"));
	free(out), free(err), free(args);
	args =
	    xasprintf("--patchset '%s' --clang 14.0.6 --export '%s' --as quilt", r.patchset, quilt);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	free(out), free(err), free(args);

	char *names = sh(NULL, "cd '%s' && ls", mbox);
	CU_ASSERT_STRING_EQUAL(names, "0001-UPSTREAM-kbuild-add-a-helper.patch\n"
				      "0002-OBSOLETE-crypto-hints-in-the-message.patch\n"
				      "0003-OBSOLETE-no-version-anywhere.patch\n"
				      "0004-HACK-mm-needs-a-new-clang.patch\n"
				      "0005-HACK-fs-plain-hack.patch\n"
				      "0006-OBSOLETE-sound-the-rule-beats-the-trailer.patch\n");
	char *series = xasprintf("%s/series", quilt);
	char *text = read_file(series, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(text, names);
	free(text), free(series), free(names);
	char *p = xasprintf("%s/0002-OBSOLETE-crypto-hints-in-the-message.patch", mbox);
	text = read_file(p, NULL, NULL);
	CU_ASSERT(str_has(text, "From: Pat Author <pat@example.org>\n"));
	CU_ASSERT(str_has(text, "Date: Fri, 14 Jul 2017 07:40:00 +0200\n"));
	CU_ASSERT(str_has(text, "Subject: [PATCH 2/6] OBSOLETE: crypto: hints in the message\n"));
	CU_ASSERT(str_has(
	    text,
	    "\nThe issue was fixed in LLVM 5, and clang >= 6.0 builds it fine; clang-14 too.\n"
	    "\nChange-Id: I0000000000000000000000000000000000000004\n---\n"
	    " p4.c | 1 +\n 1 file changed, 1 insertion(+)\n"));
	CU_ASSERT(str_has(text, "diff --git a/p4.c b/p4.c\n"));
	CU_ASSERT(str_endswith(text, "\n-- \nklang " KLANG_VERSION "\n\n"));
	free(text), free(p);

	/* git am on a checkout of base gives the tree of the applied branch */
	int rc;
	char *am = sh(&rc,
		      "cd '%s' && git clone -q repo am && cd am && git checkout -q -b t v1.0 && "
		      "git -c user.name=t -c user.email=t@t am -q '%s'/0*.patch && "
		      "git rev-parse HEAD^{tree} && git -C ../repo rev-parse k14^{tree} && "
		      "git log --format='%%an %%at' -1",
		      r.dir, mbox);
	CU_ASSERT_EQUAL(rc, 0);
	char *nl = strchr(am, '\n');
	CU_ASSERT_FATAL(nl != NULL);
	CU_ASSERT_EQUAL(strncmp(am, nl + 1, 41), 0);
	CU_ASSERT(str_has(am, "Pat Author 1500032400"));
	free(am);

	/* quilt push -a on an unpacked base gives the same files */
	char *q = sh(&rc,
		     "cd '%s' && mkdir qbase want && git -C repo archive v1.0 | tar -x -C qbase && "
		     "git -C repo archive k14 | tar -x -C want && cd qbase && "
		     "QUILT_PATCHES='%s' quilt --quiltrc=- push -a -q >/dev/null && "
		     "diff -r --exclude=.pc . ../want && echo same",
		     r.dir, quilt);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(q, "same\n");
	free(q);

	/* never overwrite: a second export into the same place is refused whole */
	char *mtime = sh(NULL, "stat -c %%Y.%%s '%s'/*", mbox);
	args =
	    xasprintf("--patchset '%s' --clang 14.0.6 --export '%s' --as mbox", r.patchset, mbox);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(
	    err, "0001-UPSTREAM-kbuild-add-a-helper.patch exists; klang will not overwrite it"));
	free(out), free(err), free(args);
	char *mtime2 = sh(NULL, "stat -c %%Y.%%s '%s'/*", mbox);
	CU_ASSERT_STRING_EQUAL(mtime, mtime2);
	free(mtime), free(mtime2);
	char *qs = xasprintf("%s/series", quilt);
	args = xasprintf("--patchset '%s' --clang 5 --export '%s' --as quilt", r.patchset, quilt);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 2);
	CU_ASSERT(str_has(err, "exists; klang will not overwrite it"));
	free(out), free(err), free(args), free(qs);

	/* exporting wrote nothing into the repository either */
	char *after = snapshot(r.repo);
	char *line = strstr(after, "refs/heads/k14 ");
	CU_ASSERT_FATAL(line != NULL);
	char *eol = strchr(line, '\n');
	memmove(line, eol + 1, strlen(eol + 1) + 1);
	CU_ASSERT_STRING_EQUAL(after, before);
	free(after), free(before);
	free(mbox), free(quilt);
	series_repo_free(&r);
}

/* Every kind of change, kept patches after a dropped one (so each pick is
 * checked against its files' state, taken as it is or merged): the commits
 * have the trees `git cherry-pick` gives. */
static void test_pick_like_git(void)
{
	char *dir = test_tmpdir();
	int rc;
	free(sh(
	    &rc,
	    "cd '%s' && git init -q && git checkout -q -b main && mkdir a b lone && "
	    "seq 1 20 >a/x.c && echo y >a/y.c && echo z >b/z.c && echo 1 >lone/only.c && "
	    "echo run >run.sh && ln -s a/x.c link && git add -A && "
	    "c() { git -c user.name=P -c user.email=p@e commit -q \"$@\"; } && "
	    "c -m base && git tag v1.0 && "
	    "echo kept-before >>b/z.c && c -am 'UPSTREAM: before the dropped one' && "
	    "sed -i 1s/1/one/ a/x.c && c -am 'HACK: dropped' -m 'Clang-Fixed: 9' && "
	    "echo y2 >>a/y.c && mkdir -p new/dir && echo n >new/dir/n.c && git add -A && "
	    "c -m 'UPSTREAM: modify, add in a new directory' && "
	    "git rm -q lone/only.c && c -m 'UPSTREAM: delete the last file of a directory' && "
	    "chmod +x run.sh && c -am 'UPSTREAM: mode' && "
	    "ln -sf b/z.c link && ln -s run.sh link2 && git add -A && c -m 'UPSTREAM: symlinks' && "
	    "mkdir c && git mv b/z.c c/z.c && c -m 'UPSTREAM: rename' && "
	    "sed -i 15s/15/fifteen/ a/x.c && c -am 'FROMLIST: same file as the dropped one' && "
	    "git rm -q a/y.c && mkdir a/y.c && echo in >a/y.c/inner && git add -A && "
	    "c -m 'UPSTREAM: a file becomes a directory' && "
	    "git checkout -q -b ref v1.0 && "
	    "for p in $(git rev-list --reverse v1.0..main); do "
	    "git log -1 --format=%%s $p | grep -q HACK || "
	    "git -c user.name=P -c user.email=p@e cherry-pick $p >/dev/null || exit 1; done && "
	    "git checkout -q main",
	    dir));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	char *out, *err;
	char *args = xasprintf("--repo '%s' --base v1.0 --head main --clang 14.0.6 --apply k", dir);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	CU_ASSERT(str_has(err, "base v1.0 + 8 patches"));
	free(out), free(err), free(args);
	char *got = sh(NULL, "git -C '%s' log --format='%%T %%s' v1.0..k", dir);
	char *want = sh(NULL, "git -C '%s' log --format='%%T %%s' v1.0..ref", dir);
	CU_ASSERT_STRING_EQUAL(got, want);
	CU_ASSERT(str_has(got, "a file becomes a directory"));
	free(got), free(want);
	free(sh(&rc, "git -C '%s' fsck --no-dangling --strict 2>&1", dir));
	CU_ASSERT_EQUAL(rc, 0);
	free(dir);
}

void suite_apply(void)
{
	CU_pSuite s = CU_add_suite("apply", NULL, NULL);
	CU_add_test(s, "--apply: base + kept patches, nothing else touched", test_apply_branch);
	CU_add_test(s, "a conflict names both patches and writes nothing", test_conflict);
	CU_add_test(s, "the picks give git cherry-pick's trees", test_pick_like_git);
	CU_add_test(s, "--export: git am and quilt push -a apply it", test_export);
}
