/* Tests for the demo workspace (core/demo.c, klang demo): the repository it
 * writes, running it again, and real builds of the demo tree with GCC and
 * Clang for x86_64 and arm64, checking the warnings each compiler gives. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/demo.h"
#include "core/gitwrite.h"
#include "tests/helpers.h"

static char *demo_src(void)
{
	return xasprintf("%s/patchsets/demo", test_src_dir());
}

/* A fresh workspace in a new temporary directory; caller frees both. */
static char *make_workspace(char **tmp, struct demo_info *info)
{
	struct kerr e;
	char *src = demo_src();
	*tmp = test_tmpdir();
	char *dir = xasprintf("%s/demo", *tmp);
	int rc = demo_prepare(dir, src, info, &e);
	if (rc < 0)
		fprintf(stderr, "demo_prepare: %s\n", e.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	free(src);
	return dir;
}

static char *rev_id(git_repository *r, const char *rev)
{
	git_object *o;
	if (git_revparse_single(&o, r, rev) < 0)
		return NULL;
	char id[41];
	git_oid_tostr(id, sizeof(id), git_object_id(o));
	git_object_free(o);
	return xstrdup(id);
}

static size_t status_count(git_repository *r)
{
	git_status_options so = GIT_STATUS_OPTIONS_INIT;
	git_status_list *sl;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
	if (git_status_list_new(&sl, r, &so) < 0)
		return (size_t)-1;
	size_t n = git_status_list_entrycount(sl);
	git_status_list_free(sl);
	return n;
}

static void test_parse_date(void)
{
	int64_t t;
	int tz;
	CU_ASSERT_EQUAL(demo_parse_date("Wed, 9 Nov 2022 16:40:31 +0000", &t, &tz), 0);
	CU_ASSERT_EQUAL(t, 1668012031);
	CU_ASSERT_EQUAL(tz, 0);
	CU_ASSERT_EQUAL(demo_parse_date("Mon, 21 Nov 2022 18:05:44 +0530", &t, &tz), 0);
	CU_ASSERT_EQUAL(t, 1669034144);
	CU_ASSERT_EQUAL(tz, 330);
	CU_ASSERT_EQUAL(demo_parse_date("2 Oct 2022 14:09:07 -0700", &t, &tz), 0);
	CU_ASSERT_EQUAL(tz, -420);
	CU_ASSERT_EQUAL(demo_parse_date("Wed, 9 Nov 2022", &t, &tz), -1);
	CU_ASSERT_EQUAL(demo_parse_date("Wed, 9 Foo 2022 16:40:31 +0000", &t, &tz), -1);
	CU_ASSERT_EQUAL(demo_parse_date("", &t, &tz), -1);
}

static void test_patch_parse(void)
{
	struct kerr e;
	struct demo_patch p;
	const char *text =
	    "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	    "From: Benedikt Okafor <bokafor@example.com>\n"
	    "Date: Wed, 9 Nov 2022 16:40:31 +0000\n"
	    "Subject: OBSOLETE: kbuild: only pass -fno-delete-null-pointer-checks if\n"
	    " supported\n"
	    "\n"
	    "Body line.\n"
	    "\n"
	    "Clang-Fixed: 7\n"
	    "---\n"
	    " Makefile | 2 +-\n"
	    "\n"
	    "diff --git a/Makefile b/Makefile\n"
	    "--- a/Makefile\n+++ b/Makefile\n@@ -1 +1 @@\n-a\n+b\n";
	CU_ASSERT_EQUAL_FATAL(demo_patch_parse(text, "x.patch", &p, &e), 0);
	CU_ASSERT_STRING_EQUAL(p.author, "Benedikt Okafor");
	CU_ASSERT_STRING_EQUAL(p.email, "bokafor@example.com");
	CU_ASSERT_EQUAL(p.time, 1668012031);
	CU_ASSERT_STRING_EQUAL(p.message,
			       "OBSOLETE: kbuild: only pass -fno-delete-null-pointer-checks "
			       "if supported\n\nBody line.\n\nClang-Fixed: 7\n");
	CU_ASSERT(str_startswith(p.diff, "diff --git a/Makefile"));
	demo_patch_free(&p);

	CU_ASSERT_EQUAL(demo_patch_parse("hello\n", "a.patch", &p, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "a.patch:1"));
	CU_ASSERT_EQUAL(
	    demo_patch_parse("From x\nFrom: A <a@b>\nDate: nope\n\nx\n", "b.patch", &p, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "b.patch:3: bad Date"));
	CU_ASSERT_EQUAL(demo_patch_parse("From x\nFrom: A <a@b>\nDate: Wed, 9 Nov 2022 16:40:31 "
					 "+0000\nSubject: s\n\nno diff\n",
					 "c.patch", &p, &e),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "c.patch: no '---' line"));
	CU_ASSERT_EQUAL(demo_patch_parse("From x\nSubject: s\n", "d.patch", &p, &e), -1);
}

static void test_default_dir(void)
{
	char *old_xdg = getenv("XDG_CACHE_HOME") ? xstrdup(getenv("XDG_CACHE_HOME")) : NULL;
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	char *d = demo_default_dir();
	CU_ASSERT_STRING_EQUAL(d, "/x/cache/klang/demo");
	free(d);
	setenv("XDG_CACHE_HOME", "relative", 1); /* the spec says: ignore it */
	d = demo_default_dir();
	CU_ASSERT_PTR_NOT_NULL(d);
	CU_ASSERT_PTR_NOT_NULL(d ? strstr(d, "/.cache/klang/demo") : NULL);
	free(d);
	if (old_xdg)
		setenv("XDG_CACHE_HOME", old_xdg, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(old_xdg);
}

/* The subject's tags as written ("BACKPORT: FROMLIST: "), "" if none. */
static size_t tag_prefix(const char *s)
{
	static const char *const tags[] = {
	    "UPSTREAM: ", "BACKPORT: ", "FROMGIT: ",  "FROMLIST: ", "HACK: ",
	    "CUSTOM: ",	  "OBSOLETE: ", "CHROMIUM: ", "ANDROID: "};
	size_t len = 0;
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
			if (str_startswith(s + len, tags[i])) {
				len += strlen(tags[i]);
				more = true;
			}
	}
	return len;
}

static void test_create(void)
{
	struct demo_info info;
	char *tmp, *dir = make_workspace(&tmp, &info);
	CU_ASSERT_EQUAL(info.state, DEMO_CREATED);
	CU_ASSERT_EQUAL(info.npatches, 23);
	CU_ASSERT_PTR_NULL(info.notes);
	CU_ASSERT(str_endswith(info.patchset, "/patchsets/demo.yaml"));
	CU_ASSERT(file_exists(info.patchset));

	git_repository *r;
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&r, dir), 0);
	git_reference *head;
	CU_ASSERT_EQUAL_FATAL(git_reference_lookup(&head, r, "HEAD"), 0);
	CU_ASSERT_STRING_EQUAL(git_reference_symbolic_target(head), "refs/heads/" DEMO_BRANCH);
	git_reference_free(head);
	char *base = rev_id(r, DEMO_BASE_TAG), *old = rev_id(r, DEMO_OLD_TAG);
	char *tip = rev_id(r, DEMO_BRANCH), *master = rev_id(r, "master");
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	CU_ASSERT_PTR_NOT_NULL_FATAL(old);
	CU_ASSERT_STRING_EQUAL(tip, info.head);
	CU_ASSERT_STRING_EQUAL(master, base);
	CU_ASSERT_EQUAL(status_count(r), 0); /* the work tree is the branch */

	/* The stack: first-parent walk from the branch to the base tag. */
	git_revwalk *w;
	git_oid oid;
	git_revwalk_new(&w, r);
	git_revwalk_push_ref(w, "refs/heads/" DEMO_BRANCH);
	git_revwalk_hide_ref(w, "refs/tags/" DEMO_BASE_TAG);
	size_t n = 0, untagged = 0, combined = 0, bounded = 0;
	unsigned seen = 0;
	static const char *const words[] = {"UPSTREAM", "BACKPORT", "FROMGIT",	"FROMLIST", "HACK",
					    "CUSTOM",	"OBSOLETE", "CHROMIUM", "ANDROID"};
	char *yaml = read_file(info.patchset, NULL, &(struct kerr){0});
	CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
	while (git_revwalk_next(&oid, w) == 0) {
		git_commit *c;
		git_commit_lookup(&c, r, &oid);
		const char *subj = git_commit_summary(c), *msg = git_commit_message(c);
		size_t tl = tag_prefix(subj);
		char id[41];
		git_oid_tostr(id, sizeof(id), &oid);
		n++;
		untagged += tl == 0;
		combined += str_startswith(subj, "BACKPORT: FROMLIST: ");
		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			if (strstr(subj, words[i]) && strstr(subj, words[i]) < subj + tl)
				seen |= 1u << i;
		if (str_startswith(subj, "HACK: ") || str_startswith(subj, "OBSOLETE: ")) {
			/* A trailer, or a rule of demo.yaml by commit, Change-Id or subject. */
			const char *cid = strstr(msg, "\nChange-Id: ");
			char cidv[42] = "";
			if (cid)
				sscanf(cid + 12, "%41s", cidv);
			char *by_commit = xasprintf("commit: %.12s", id);
			bool ruled =
			    strstr(yaml, by_commit) || (*cidv && strstr(yaml, cidv)) ||
			    (strstr(yaml, "subject: '^HACK: kbuild: disable -Wenum-enum") &&
			     str_startswith(subj, "HACK: kbuild: disable -Wenum-enum"));
			bounded +=
			    ruled || strstr(msg, "\nClang-Fixed: ") || strstr(msg, "\nClang-Min: ");
			free(by_commit);
		}
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, "\nSigned-off-by: "));
		CU_ASSERT_EQUAL(git_commit_parentcount(c), 1);
		git_commit_free(c);
	}
	git_revwalk_free(w);
	CU_ASSERT_EQUAL(n, 23);
	CU_ASSERT_EQUAL(seen, (1u << ARRAY_SIZE(words)) - 1); /* every tag at least once */
	CU_ASSERT_EQUAL(combined, 1);
	CU_ASSERT_EQUAL(untagged, 1);
	/* Seven of the eight HACK/OBSOLETE patches are bounded; one OBSOLETE is
	 * left for the "version unknown, the message suggests 10" case. */
	CU_ASSERT_EQUAL(bounded, 7);

	/* Same ids everywhere: a second workspace has the same head. */
	struct demo_info info2;
	char *tmp2, *dir2 = make_workspace(&tmp2, &info2);
	CU_ASSERT_STRING_EQUAL(info2.head, info.head);
	demo_info_free(&info2);
	test_rmdir(tmp2);
	free(tmp2);
	free(dir2);

	free(yaml);
	free(base);
	free(old);
	free(tip);
	free(master);
	git_repository_free(r);
	demo_info_free(&info);
	test_rmdir(tmp);
	free(tmp);
	free(dir);
}

static int sh(const char *fmt, const char *dir)
{
	char *cmd = xasprintf(fmt, dir);
	int rc = test_run(cmd, NULL, NULL);
	free(cmd);
	return rc;
}

static void test_rerun(void)
{
	struct demo_info info;
	struct kerr e;
	char *src = demo_src();
	char *tmp, *dir = make_workspace(&tmp, &info);
	demo_info_free(&info);

	CU_ASSERT_EQUAL_FATAL(demo_prepare(dir, src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_REUSED);
	CU_ASSERT_PTR_NULL(info.notes);
	demo_info_free(&info);

	/* An in-tree build and klang's state are not changes. */
	CU_ASSERT_EQUAL(
	    sh("mkdir -p '%s/.klang' && touch '%1$s/.klang/x' '%1$s/kernel/fork.o'", dir), 0);
	CU_ASSERT_EQUAL_FATAL(demo_prepare(dir, src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_REUSED);
	CU_ASSERT_PTR_NULL(info.notes);
	demo_info_free(&info);

	/* Edited and deleted files are kept and listed. */
	CU_ASSERT_EQUAL(sh("echo '/* mine */' >> '%s/kernel/fork.c' && rm '%1$s/lib/crc32.c'", dir),
			0);
	CU_ASSERT_EQUAL_FATAL(demo_prepare(dir, src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_REUSED);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info.notes);
	CU_ASSERT_PTR_NOT_NULL(strstr(info.notes, "modified  kernel/fork.c"));
	CU_ASSERT_PTR_NOT_NULL(strstr(info.notes, "deleted   lib/crc32.c"));
	demo_info_free(&info);
	CU_ASSERT_EQUAL(sh("grep -q mine '%s/kernel/fork.c' && test ! -e '%1$s/lib/crc32.c'", dir),
			0);

	/* A commit of the user's on the branch is kept too. */
	CU_ASSERT_EQUAL(sh("cd '%s' && git -c user.name=u -c user.email=u@x commit -qam mine", dir),
			0);
	CU_ASSERT_EQUAL_FATAL(demo_prepare(dir, src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_KEPT);
	CU_ASSERT_PTR_NOT_NULL(info.notes ? strstr(info.notes, "commits that are not the demo's")
					  : NULL);
	demo_info_free(&info);
	CU_ASSERT_EQUAL(sh("cd '%s' && git log -1 --format=%%s | grep -qx mine", dir), 0);

	/* Not a workspace: refused, nothing written. */
	CU_ASSERT_EQUAL(sh("mkdir -p '%s/../other' && echo hi > '%1$s/../other/notes.txt'", dir),
			0);
	char *other = xasprintf("%s/other", tmp);
	CU_ASSERT_EQUAL(demo_prepare(other, src, &info, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is not a klang demo workspace"));
	CU_ASSERT_EQUAL(sh("test ! -e '%s/.git'", other), 0);
	CU_ASSERT_EQUAL(sh("cd '%s' && git init -q", other), 0);
	CU_ASSERT_EQUAL(demo_prepare(other, src, &info, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no tag v6.1-demo"));
	free(other);

	test_rmdir(tmp);
	free(tmp);
	free(dir);
	free(src);
}

/* A demo source an older klang might have shipped, made from this one by
 * the shell command HOW ('%1$s' this source, '%2$s' the older one), and a
 * workspace made from it. */
struct older {
	char *src, *tmp, *old_src, *dir;
	size_t npatches;
};

static void older_make(struct older *o, const char *how)
{
	struct demo_info info;
	struct kerr e;
	o->src = demo_src();
	o->tmp = test_tmpdir();
	o->old_src = xasprintf("%s/src/demo", o->tmp);
	o->dir = xasprintf("%s/ws", o->tmp);
	char *cmd = xasprintf(how, o->src, o->old_src);
	CU_ASSERT_EQUAL_FATAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	CU_ASSERT_EQUAL_FATAL(demo_prepare(o->dir, o->old_src, &info, &e), 0);
	o->npatches = info.npatches;
	demo_info_free(&info);
}

static void older_free(struct older *o)
{
	test_rmdir(o->tmp);
	free(o->tmp);
	free(o->dir);
	free(o->old_src);
	free(o->src);
}

/* A workspace made by an older klang (one patch fewer) is brought up to
 * date when nobody changed it. */
static void test_refresh(void)
{
	struct kerr e;
	struct demo_info info;
	struct older o;
	older_make(&o, "mkdir -p '%2$s/stack' && ln -s '%1$s/tree' '%2$s/tree' && "
		       "cp '%1$s/../demo.yaml' '%2$s/..' && "
		       "ls '%1$s'/stack/*.patch | head -n -1 | xargs -I{} ln -s {} '%2$s/stack/'");
	CU_ASSERT_EQUAL(o.npatches, 22);
	CU_ASSERT_EQUAL(sh("! grep -q LINUX_COMPILER '%s/init/version.c'", o.dir), 0);

	CU_ASSERT_EQUAL_FATAL(demo_prepare(o.dir, o.src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_REFRESHED);
	CU_ASSERT_EQUAL(info.npatches, 23);
	CU_ASSERT_EQUAL(sh("grep -q LINUX_COMPILER '%s/init/version.c'", o.dir), 0);
	git_repository *r;
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&r, o.dir), 0);
	char *tip = rev_id(r, DEMO_BRANCH);
	CU_ASSERT_STRING_EQUAL(tip, info.head);
	CU_ASSERT_EQUAL(status_count(r), 0);
	free(tip);
	git_repository_free(r);
	demo_info_free(&info);
	older_free(&o);
}

/* A workspace an older klang made on another base, with the user's changes:
 * the branch is kept, and so are the tags it was made on, so that the stack
 * still opens (moving the tags alone left a base that is not under it). */
static void test_kept_on_old_base(void)
{
	struct kerr e;
	struct demo_info info;
	struct older o;
	older_make(&o, "mkdir -p '%2$s' && cp -r '%1$s/tree' '%1$s/stack' '%2$s' && "
		       "cp '%1$s/../demo.yaml' '%2$s/..' && echo old > '%2$s/tree/OLD'");
	CU_ASSERT_EQUAL(sh("echo '/* mine */' >> '%s/kernel/fork.c'", o.dir), 0);

	CU_ASSERT_EQUAL_FATAL(demo_prepare(o.dir, o.src, &info, &e), 0);
	CU_ASSERT_EQUAL(info.state, DEMO_KEPT);
	CU_ASSERT_PTR_NOT_NULL(info.notes ? strstr(info.notes, "modified  kernel/fork.c") : NULL);
	CU_ASSERT_PTR_NULL(info.notes ? strstr(info.notes, "not an ancestor") : NULL);
	demo_info_free(&info);
	CU_ASSERT_EQUAL(sh("cd '%s' && test -e OLD && git merge-base --is-ancestor v6.1-demo "
			   "llvm_v6.1-demo && git merge-base --is-ancestor v6.0-demo v6.1-demo",
			   o.dir),
			0);
	char *stack =
	    xasprintf("%s stack --repo %s --format tsv >/dev/null", test_klang_bin(), o.dir);
	CU_ASSERT_EQUAL(test_run(stack, NULL, NULL), 0);
	free(stack);

	/* Tags another klang moved off the kept branch: said, with the way out. */
	CU_ASSERT_EQUAL(sh("cd '%s' && git tag -f v6.1-demo \"$(git -c user.name=u -c "
			   "user.email=u@x commit-tree -m x HEAD^{tree})\" >/dev/null",
			   o.dir),
			0);
	CU_ASSERT_EQUAL_FATAL(demo_prepare(o.dir, o.src, &info, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(info.notes ? strstr(info.notes, "tag v6.1-demo is not an ancestor")
					  : NULL);
	demo_info_free(&info);
	older_free(&o);
}

/* The CLI: --no-tui prints the path and nothing else on stdout. */
static void test_cli(void)
{
	char *tmp = test_tmpdir(), *out, *err;
	char *cmd = xasprintf("'%s' demo '%s/ws' --no-tui", test_klang_bin(), tmp);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	char *want = xasprintf("%s/ws\n", tmp);
	CU_ASSERT_STRING_EQUAL(out, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "created"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "reusing"));
	free(out);
	free(err);
	free(cmd);
	free(want);
	/* the path is its product: not written, exit 1 */
	cmd = xasprintf("'%s' demo '%s/ws' --no-tui > /dev/full", test_klang_bin(), tmp);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\nklang: demo: cannot write the output\n"));
	free(err);
	free(cmd);

	cmd = xasprintf("'%s' demo --help", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT(str_startswith(out, "usage: klang demo"));
	free(out);
	free(cmd);
	cmd = xasprintf("'%s' demo a b --no-tui", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "one DIR at most"));
	free(err);
	free(cmd);
	cmd = xasprintf("'%s' demo '%s' --no-tui", test_klang_bin(), test_src_dir());
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a klang demo workspace"));
	free(err);
	free(cmd);
	test_rmdir(tmp);
	free(tmp);
}

/* Build the workspace's head for both arches with both compilers, at once. */
static char *build_log(const char *logs, const char *name)
{
	char *path = xasprintf("%s/%s.log", logs, name);
	char *s = read_file(path, NULL, &(struct kerr){0});
	free(path);
	return s ? s : xstrdup("");
}

#define HAS(log, s) CU_ASSERT_PTR_NOT_NULL(strstr(log, s))
#define HASNT(log, s) CU_ASSERT_PTR_NULL(strstr(log, s))

static void test_build(void)
{
	struct demo_info info;
	char *tmp, *dir = make_workspace(&tmp, &info);
	/* name, ARCH, toolchain: each configured and built in its own O= directory;
	 * the x86 ones then rebuild a few files with W=1 (Kbuild's single targets). */
	static const char *const builds[][3] = {
	    {"x86-gcc", "x86_64", ""},
	    {"x86-clang", "x86_64", "LLVM=1"},
	    {"arm64-gcc", "arm64", ""},
	    {"arm64-clang", "arm64", "LLVM=1"},
	};
	struct strbuf sb = STRBUF_INIT;
	/* Not the make running the tests: its flags and jobserver are not ours. */
	sb_adds(&sb, "unset MAKEFLAGS MFLAGS MAKELEVEL; export LANG=C LC_CTYPE=C LC_MESSAGES=C; ");
	for (size_t i = 0; i < ARRAY_SIZE(builds); i++) {
		const char *name = builds[i][0];
		char *mk = xasprintf("make -C '%s' O='%s/out/%s' ARCH=%s %s", dir, tmp, name,
				     builds[i][1], builds[i][2]);
		/* -Oline as klang build: two compilers at once could cut a line in two */
		sb_addf(&sb, "(%s -s defconfig >/dev/null && %s -j2 -Oline > '%s/%s.log' 2>&1", mk,
			mk, tmp, name);
		if (str_startswith(name, "x86"))
			sb_addf(&sb,
				" && %s W=1 drivers/net/dummy.o drivers/char/mem.o fs/read_write.o "
				"mm/util.o > '%s/%s-w1.log' 2>&1",
				mk, tmp, name);
		sb_adds(&sb, ") & ");
		free(mk);
	}
	sb_adds(&sb, "wait");
	CU_ASSERT_EQUAL(test_run(sb_str(&sb), NULL, NULL), 0);
	sb_free(&sb);
	for (size_t i = 0; i < ARRAY_SIZE(builds); i++) {
		char *v = xasprintf("%s/out/%s/vmlinux", tmp, builds[i][0]);
		CU_ASSERT(file_exists(v));
		free(v);
	}
	char *xg = build_log(tmp, "x86-gcc"), *xc = build_log(tmp, "x86-clang");
	char *ag = build_log(tmp, "arm64-gcc"), *ac = build_log(tmp, "arm64-clang");
	char *xg1 = build_log(tmp, "x86-gcc-w1"), *xc1 = build_log(tmp, "x86-clang-w1");

	/* Kbuild's quiet lines, and the sub-make entering the output directory. */
	HAS(xg, "\n  CC      kernel/fork.o\n");
	HAS(xc, "\n  CC      kernel/sched/core.o\n");
	HAS(ag, "\n  AR      kernel/built-in.a\n");
	HAS(ac, "\n  LD      vmlinux\n");
	HAS(ac, "\n  AS      arch/arm64/kernel/head.o\n");
	HAS(xg, "make[1]: Entering directory '");

	/* Clang only: GCC has -Wmaybe-uninitialized off below W=2. */
	HAS(xc, "mm/vmscan.c:56:11: warning: variable 'level' is used uninitialized whenever 'if' "
		"condition is false [-Wsometimes-uninitialized]");
	HASNT(xg, "vmscan.c:56");
	HAS(xc, "drivers/net/dummy.c:22:39: warning: implicit conversion from enumeration type "
		"'enum dummy_carrier' to different enumeration type 'enum netdev_state' "
		"[-Wenum-conversion]");
	HASNT(xg, "[-Wenum-conversion]");
	HAS(xg1,
	    "drivers/net/dummy.c:22:20: warning: implicit conversion from 'enum dummy_carrier' "
	    "to 'enum netdev_state' [-Wenum-conversion]");
	HAS(ac, "[-Wparentheses-equality]"); /* and only on arm64 */
	HASNT(xc, "[-Wparentheses-equality]");
	HASNT(ag, "[-Wparentheses-equality]");
	/* ... and a header many files include, with W=1 only. */
	HAS(xc1, "include/linux/kernel.h:37:10: warning: result of comparison of constant "
		 "2305843009213693951 with expression of type 'u32' (aka 'unsigned int') is always "
		 "false [-Wtautological-constant-out-of-range-compare]");
	HASNT(xc, "[-Wtautological-constant-out-of-range-compare]");
	HASNT(xg1, "[-Wtautological");

	/* GCC only. */
	HAS(xg, "include/linux/printk.h:29:33: warning: pointer 'de' used after 'kfree' "
		"[-Wuse-after-free]");
	HAS(ag, "[-Wuse-after-free]");
	HASNT(xc, "kfree");
	HAS(xg, "arch/x86/kernel/cpu.c:31:29: warning: argument 1 of type 'u32 *' {aka 'unsigned "
		"int *'} declared as a pointer [-Warray-parameter=]");
	HASNT(ag, "[-Warray-parameter=]");
	HAS(xg1, "[-Wpacked-not-aligned]");
	HASNT(xc1, "packed-not-aligned]");

	/* Both, through a macro: GCC reports the macro in the header, Clang the use. */
	HAS(xg, "include/linux/bits.h:8:36: warning: left shift count >= width of type "
		"[-Wshift-count-overflow]");
	HAS(xg, "kernel/fork.c:59:21: note: in expansion of macro 'PF_VENDOR_HOOKED'");
	HAS(xc,
	    "kernel/fork.c:59:14: warning: shift count >= width of type [-Wshift-count-overflow]");
	HAS(xc, "include/linux/bits.h:8:22: note: expanded from macro 'BIT'");
	/* The same format bug: GCC at the KERN_ prefix in printk.h, Clang (W=1)
	 * at the argument. */
	HAS(xg, "include/linux/printk.h:8:25: warning: format '%d' expects argument of type 'int', "
		"but argument 3 has type 'size_t'");
	HAS(xc1, "fs/read_write.c:19:62: warning: format specifies type 'int' but the argument has "
		 "type 'size_t' (aka 'unsigned long') [-Wformat]");
	HASNT(xc, "[-Wformat]");
	/* Both, in a header included by many files. */
	HAS(xg, "include/linux/fs.h:47:12: warning: 'inode_is_dir' defined but not used "
		"[-Wunused-function]");
	HAS(xc, "include/linux/fs.h:47:12: warning: unused function 'inode_is_dir' "
		"[-Wunused-function]");
	HAS(xg1,
	    "drivers/char/mem.c:35:27: warning: initialized field overwritten [-Woverride-init]");
	HAS(xc1, "drivers/char/mem.c:35:13: warning: initializer overrides prior initialization of "
		 "this subobject [-Winitializer-overrides]");

	free(xg);
	free(xc);
	free(ag);
	free(ac);
	free(xg1);
	free(xc1);
	demo_info_free(&info);
	test_rmdir(tmp);
	free(tmp);
	free(dir);
}

void suite_demo(void)
{
	gw_libinit();
	CU_pSuite s = CU_add_suite("demo", NULL, NULL);
	CU_add_test(s, "RFC 2822 dates", test_parse_date);
	CU_add_test(s, "format-patch files", test_patch_parse);
	CU_add_test(s, "default directory", test_default_dir);
	CU_add_test(s, "create: tags, branch, every tag, bounded HACK/OBSOLETE", test_create);
	CU_add_test(s, "re-run keeps the user's changes", test_rerun);
	CU_add_test(s, "refresh from an older stack", test_refresh);
	CU_add_test(s, "kept on an older base: tags stay under the branch", test_kept_on_old_base);
	CU_add_test(s, "klang demo --no-tui", test_cli);
	CU_add_test(s, "real builds: gcc/clang x x86_64/arm64, warnings", test_build);
}
