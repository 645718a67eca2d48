/* The warnings view, end to end: the real binary run headless
 * (KLANG_SCRIPT) on the real tinyconfig logs of arm64 and x86_64 placed as
 * builds under <repo>/.klang/out/, in a repository made with libgit2 whose
 * stack changes the lines the warnings point at. Also the two core helpers
 * it stands on: choosing the newest finished logs, and blame in base..head. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <utime.h>

#include "core/blame.h"
#include "core/buildlogs.h"
#include "core/gitwrite.h"
#include "tests/diagtest.h"
#include "tests/helpers.h"

static char *top, *repo;
static char ids[3][41];

/* A file of n numbered comment lines, line `at` replaced by text. */
static char *numbered(const char *name, int n, int at, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 1; i <= n; i++)
		if (i == at)
			sb_addf(&sb, "%s\n", text);
		else
			sb_addf(&sb, "/* %s line %d */\n", name, i);
	return sb_detach(&sb);
}

/* v1.0 has cacheinfo.c (740 lines) and xdr.h (760); the stack: 1 changes
 * xdr.h:10, 2 cacheinfo.c:730 (where the clang-only warning is), 3
 * cacheinfo.c:5. */
static int make_repo(void)
{
	git_repository *r;
	struct kerr e;
	char id[41];
	if (gw_init(repo, &r, &e))
		return -1;
	char *ci = numbered("cacheinfo", 740, 0, NULL), *xdr = numbered("xdr", 760, 0, NULL);
	struct gw_file base[] = {
	    {"arch/x86/kernel/cpu/cacheinfo.c", ci, 0},
	    {"include/linux/sunrpc/xdr.h", xdr, 0},
	};
	struct gw_commit c = {.ref = "refs/heads/main",
			      .files = base,
			      .nfiles = 2,
			      .message = "Linux 6.1\n",
			      .time = 1600000000};
	int rc = gw_commit(r, &c, id, &e) || gw_tag(r, "v1.0", "main", &e);
	char *p1 = numbered("xdr", 760, 10, "/* tidied */");
	char *p2 = numbered("cacheinfo", 740, 730, "\tunsigned int i, level = 0;");
	char *p3 = numbered("cacheinfo", 740, 5, "/* a later edit */");
	/* the third keeps line 730 of the second */
	char *nl = p3;
	for (int i = 1; i < 730; i++)
		nl = strchr(nl, '\n') + 1;
	char *rest = strchr(nl, '\n');
	char *p3b = xasprintf("%.*s\tunsigned int i, level = 0;%s", (int)(nl - p3), p3, rest);
	struct gw_file f[] = {
	    {"include/linux/sunrpc/xdr.h", p1, 0},
	    {"arch/x86/kernel/cpu/cacheinfo.c", p2, 0},
	    {"arch/x86/kernel/cpu/cacheinfo.c", p3b, 0},
	};
	const char *msg[] = {"FROMLIST: sunrpc: tidy a comment\n",
			     "UPSTREAM: x86/cacheinfo: count the levels\n",
			     "HACK: x86/cacheinfo: a later edit\n"};
	for (int i = 0; i < 3 && !rc; i++) {
		struct gw_commit pc = {.ref = "refs/heads/main",
				       .files = &f[i],
				       .nfiles = 1,
				       .message = msg[i],
				       .time = 1600000000 + 86400 * (i + 1)};
		rc = gw_commit(r, &pc, ids[i], &e);
	}
	rc = rc || gw_checkout(r, "main", &e);
	git_repository_free(r);
	free(ci);
	free(xdr);
	free(p1);
	free(p2);
	free(p3);
	free(p3b);
	return rc ? -1 : 0;
}

/* <repo>/.klang/out/<name>/build.log from a fixture, and a summary.json
 * written after it when the build finished. */
static int put_build(const char *name, const char *fixture, bool finished, time_t mtime)
{
	struct kerr e;
	char *dir = xasprintf("%s/.klang/out/%s", repo, name);
	char *log = xasprintf("%s/build.log", dir), *sum = xasprintf("%s/summary.json", dir);
	size_t len = 0;
	char *text = read_file(fixture, &len, &e);
	int rc = !text || mkdir_p(dir, &e) || write_file_atomic(log, text, len, &e);
	struct utimbuf t = {mtime, mtime}, later = {mtime + 1, mtime + 1};
	rc = rc || utime(log, &t);
	if (finished)
		rc = rc || write_file_atomic(sum, "{}\n", 3, &e) || utime(sum, &later);
	free(text);
	free(dir);
	free(log);
	free(sum);
	return rc ? -1 : 0;
}

static char *arm_gcc, *arm_clang, *x86_gcc, *x86_clang;

static int setup(void)
{
	gw_libinit();
	top = test_tmpdir();
	repo = xasprintf("%s/linux", top);
	arm_gcc = dt_ours("tinyconfig-W1-gcc-arm64.log");
	arm_clang = dt_ours("tinyconfig-W1-clang-arm64.log");
	x86_gcc = dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log");
	x86_clang = dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log");
	if (make_repo())
		return -1;
	/* a stale finished GCC 12 build, and a Clang 15 build still running:
	 * neither is the one to show */
	return put_build("arm64-gcc", arm_gcc, true, 1700000000) ||
	       put_build("arm64-llvm", arm_clang, true, 1700000100) ||
	       put_build("arm64-gcc-12", x86_gcc, true, 1600000000) ||
	       put_build("x86_64-gcc", x86_gcc, true, 1700000000) ||
	       put_build("x86_64-llvm", x86_clang, true, 1700000000) ||
	       put_build("x86_64-llvm-15", arm_clang, false, time(NULL)) ||
	       put_build("riscv-gcc", x86_gcc, true, 1700000000);
}

static int teardown(void)
{
	test_rmdir(top);
	free(top);
	free(repo);
	free(arm_gcc);
	free(arm_clang);
	free(x86_gcc);
	free(x86_clang);
	return 0;
}

static void test_buildlogs(void)
{
	struct buildlog_pair *p;
	size_t n = buildlogs_find(repo, &p);
	CU_ASSERT_EQUAL_FATAL(n, 2); /* riscv has no Clang build */
	CU_ASSERT_STRING_EQUAL(p[0].arch, "arm64");
	CU_ASSERT_PTR_NOT_NULL(strstr(p[0].gcc, "/.klang/out/arm64-gcc/build.log"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p[0].clang, "/.klang/out/arm64-llvm/build.log"));
	CU_ASSERT_STRING_EQUAL(p[1].arch, "x86_64");
	CU_ASSERT_PTR_NOT_NULL(strstr(p[1].clang, "/.klang/out/x86_64-llvm/build.log"));
	char *sig = buildlogs_signature(p, n);
	CU_ASSERT_PTR_NOT_NULL(strstr(sig, "arm64 "));
	free(sig);
	buildlogs_free(p, n);
	/* an empty repository has none */
	n = buildlogs_find(top, &p);
	CU_ASSERT_EQUAL(n, 0);
	buildlogs_free(p, n);
}

static void test_blame(void)
{
	git_repository *r;
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&r, repo), 0);
	git_object *base, *head;
	CU_ASSERT_EQUAL_FATAL(git_revparse_single(&base, r, "v1.0"), 0);
	CU_ASSERT_EQUAL_FATAL(git_revparse_single(&head, r, "main"), 0);
	char b[41], h[41], id[41];
	git_oid_tostr(b, sizeof(b), git_object_id(base));
	git_oid_tostr(h, sizeof(h), git_object_id(head));
	struct kerr e;
	const char *ci = "arch/x86/kernel/cpu/cacheinfo.c";
	CU_ASSERT_EQUAL(blame_line(r, ci, 730, b, h, id, &e), 0);
	CU_ASSERT_STRING_EQUAL(id, ids[1]);
	CU_ASSERT_EQUAL(blame_line(r, ci, 5, b, h, id, &e), 0);
	CU_ASSERT_STRING_EQUAL(id, ids[2]);
	CU_ASSERT_EQUAL(blame_line(r, "include/linux/sunrpc/xdr.h", 10, b, h, id, &e), 0);
	CU_ASSERT_STRING_EQUAL(id, ids[0]);
	CU_ASSERT_EQUAL(blame_line(r, "include/linux/sunrpc/xdr.h", 752, b, h, id, &e), 1);
	CU_ASSERT_EQUAL(blame_line(r, ci, 741, b, h, id, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "has 740 lines"));
	CU_ASSERT_EQUAL(blame_line(r, "no/such.c", 1, b, h, id, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no/such.c"));
	git_object_free(base);
	git_object_free(head);
	git_repository_free(r);
}

/* Run klang on the repository with a script; the saved screens are read
 * back into screens[] in the order of `names`. */
static int run_script(const char *outdir, const char *script, const char *env)
{
	struct kerr e;
	char *path = xasprintf("%s/script", outdir);
	CU_ASSERT_EQUAL(write_file_atomic(path, script, strlen(script), &e), 0);
	char *cmd = xasprintf("cd '%s' && env -u NO_COLOR -u LC_ALL -u LINES -u COLUMNS "
			      "-u KLANG_DATADIR TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
			      "TZ=UTC HOME='%s' KLANG_SCRIPT='%s' COLUMNS=140 LINES=40 %s '%s' "
			      "--repo '%s' --base v1.0",
			      outdir, outdir, path, env ? env : "", test_klang_bin(), repo);
	int rc = test_run(cmd, NULL, NULL);
	free(cmd);
	free(path);
	return rc;
}

static char *screen(const char *outdir, const char *name)
{
	struct kerr e;
	char *path = xasprintf("%s/%s", outdir, name);
	char *t = read_file(path, NULL, &e);
	free(path);
	return t ? t : xstrdup("");
}

static bool has(const char *text, const char *needle)
{
	if (strstr(text, needle))
		return true;
	fprintf(stderr, "\nmissing '%s' in:\n%s\n", needle, text);
	return false;
}

/* Lines of a screen that start with `prefix`. */
static int count_rows(const char *text, const char *prefix)
{
	int n = 0;
	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += !strncmp(l, prefix, strlen(prefix));
	return n;
}

/* Fold and unfold, the side, arch and text filters change what is shown. */
static void test_tree_and_filters(void)
{
	char *out = test_tmpdir();
	CU_ASSERT_EQUAL(
	    run_script(out,
		       "4\n:save-display t1\n<Space>\n:save-display t2\n"
		       "+\n:save-display t3\n-\n:save-display t4\n+a\n:save-display t5\n"
		       "a\n:save-display t6\na\\cacheinfo<Enter>\n:save-display t7\n"
		       "\\<Enter>s\n:save-display t8\n",
		       NULL),
	    0);
	char *t[8];
	for (int i = 0; i < 8; i++) {
		char name[8];
		snprintf(name, sizeof(name), "t%d", i + 1);
		t[i] = screen(out, name);
	}
	/* clang-only by default: one row over both arches, one x86_64 only */
	CU_ASSERT(has(t[0], "[warnings] clang-only: 3 clang-only, 11 gcc-only, 912 both; arch all, "
			    "status any; 2 shown"));
	CU_ASSERT(has(t[0], "- tautological-compare (1)  4 occurrences"));
	CU_ASSERT(
	    has(t[0],
		"  +   4 new            arm64,x86_64  clang-only "
		"include/linux/sunrpc/xdr.h:752:10 -Wtautological-constant-out-of-range-compare"));
	CU_ASSERT(has(t[0], "  +   1 new            x86_64        clang-only "
			    "arch/x86/kernel/cpu/cacheinfo.c:730:15 -Wunused-but-set-variable"));
	/* Space folds the group under the cursor */
	CU_ASSERT(has(t[1], "+ tautological-compare (1)"));
	CU_ASSERT_PTR_NULL(strstr(t[1], "xdr.h:752"));
	CU_ASSERT(has(t[1], "cacheinfo.c:730:15"));
	/* + unfolds everything: each arch and translation unit */
	CU_ASSERT(has(t[2], "        arm64    init/do_mounts.c  2 times, clang"));
	CU_ASSERT(has(t[2], "        x86_64   arch/x86/kernel/cpu/cacheinfo.c  1 time, clang"));
	CU_ASSERT_EQUAL(count_rows(t[2], "        arm64 "), 2);
	CU_ASSERT_EQUAL(count_rows(t[2], "        x86_64 "), 3);
	/* - folds every group */
	CU_ASSERT_EQUAL(count_rows(t[3], "+ "), 2);
	CU_ASSERT_EQUAL(count_rows(t[3], "  "), 0);
	/* a: arm64 only, then x86_64 only */
	CU_ASSERT(has(t[4], "arch arm64, status any; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(t[4], "cacheinfo"));
	CU_ASSERT_EQUAL(count_rows(t[4], "        x86_64 "), 0);
	CU_ASSERT(has(t[4], "- tautological-compare (1)  2 occurrences"));
	CU_ASSERT(has(t[5], "arch x86_64, status any; 2 shown"));
	/* \ filters on text, back to all arches */
	CU_ASSERT(has(t[6], "arch all, status any, text \"cacheinfo\"; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(t[6], "xdr.h"));
	/* an empty text clears it; s goes on to gcc-only */
	CU_ASSERT(has(t[7], "[warnings] gcc-only: 3 clang-only, 11 gcc-only, 912 both; arch all, "
			    "status any; 6 shown"));
	CU_ASSERT(has(t[7], "kernel/exit.c:1930:13 -Wmissing-prototypes"));
	for (int i = 0; i < 8; i++)
		free(t[i]);
	test_rmdir(out);
	free(out);
}

/* Triage keys write .klang/triage.yaml; the next start reads it back. */
static void test_triage_keys(void)
{
	char *out = test_tmpdir();
	char *path = xasprintf("%s/.klang/triage.yaml", repo);
	remove(path);
	CU_ASSERT_EQUAL(run_script(out,
				   "4jc\nm\nreal overflow<Enter>\n:save-display k1\njW\n"
				   ":save-display k2\n",
				   NULL),
			0);
	char *k1 = screen(out, "k1"), *k2 = screen(out, "k2");
	struct kerr e;
	char *yaml = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
	CU_ASSERT(
	    has(k1, "  +   4 confirmed      arm64,x86_64  clang-only include/linux/sunrpc/xdr.h"));
	CU_ASSERT(has(k1, "note set on 1 diagnostic"));
	/* W on a group row marks all of its diagnostics */
	CU_ASSERT(has(
	    k2, "  +   1 wontfix        x86_64        clang-only arch/x86/kernel/cpu/cacheinfo.c"));
	CU_ASSERT(has(k2, "1 diagnostic marked wontfix"));
	CU_ASSERT(has(yaml, "  status: confirmed\n  file: \"include/linux/sunrpc/xdr.h\""));
	CU_ASSERT(has(yaml, "  note: \"real overflow\""));
	CU_ASSERT(has(yaml, "  status: wontfix\n  file: \"arch/x86/kernel/cpu/cacheinfo.c\""));
	/* a new start shows the stored statuses; S filters on them */
	CU_ASSERT_EQUAL(run_script(out,
				   "4\n:save-display r1\nS\n:save-display r2\nSSS\n"
				   ":save-display r3\n",
				   NULL),
			0);
	char *r1 = screen(out, "r1"), *r2 = screen(out, "r2"), *r3 = screen(out, "r3");
	CU_ASSERT(
	    has(r1, "  +   4 confirmed      arm64,x86_64  clang-only include/linux/sunrpc/xdr.h"));
	CU_ASSERT(has(r1, "  +   1 wontfix        x86_64        clang-only arch/x86"));
	CU_ASSERT(has(r2, "status open; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(r2, "cacheinfo"));
	CU_ASSERT(has(r3, "status wontfix; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(r3, "xdr.h"));
	/* u puts it back to new: the entry leaves the file */
	CU_ASSERT_EQUAL(run_script(out, "4jjju\n:save-display u1\n", NULL), 0);
	char *u1 = screen(out, "u1");
	CU_ASSERT(has(u1, "  +   1 new            x86_64        clang-only arch/x86"));
	free(yaml);
	yaml = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NULL(strstr(yaml ? yaml : "", "wontfix\n"));
	CU_ASSERT(has(yaml ? yaml : "", "real overflow"));
	remove(path);
	free(yaml);
	free(k1);
	free(k2);
	free(r1);
	free(r2);
	free(r3);
	free(u1);
	free(path);
	test_rmdir(out);
	free(out);
}

/* From a group to a warning, its source line, $EDITOR and back, and B to the
 * patch that last changed the line. */
static void test_source_edit_blame(void)
{
	char *out = test_tmpdir();
	char *ed = xasprintf("%s/ed.sh", out), *edout = xasprintf("%s/ed.out", out);
	char *edtext = xasprintf("#!/bin/sh\necho \"$@\" > '%s'\n", edout);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(ed, edtext, strlen(edtext), &e), 0);
	chmod(ed, 0755);
	char *env = xasprintf("EDITOR='%s'", ed);
	CU_ASSERT_EQUAL(run_script(out,
				   "4jjj<Enter>\n:save-display s1\ne\n:save-display s2\n"
				   "B\n:save-display s3\n4<Tab>kkB\n:save-display s4\n",
				   env),
			0);
	char *s1 = screen(out, "s1"), *s2 = screen(out, "s2"), *s3 = screen(out, "s3");
	char *s4 = screen(out, "s4"), *eo = screen(out, "ed.out");
	CU_ASSERT(
	    has(s1, "arch/x86/kernel/cpu/cacheinfo.c:730:15: variable 'trace' set but not used"));
	CU_ASSERT(has(s1, ">   730          unsigned int i, level = 0;"));
	/* column 15 after a tab: under the i */
	CU_ASSERT(has(s1, "\n                              ^\n"));
	CU_ASSERT(has(s1, "    729  /* cacheinfo line 729 */"));
	CU_ASSERT(has(eo, "+730 "));
	CU_ASSERT(has(eo, "/linux/arch/x86/kernel/cpu/cacheinfo.c"));
	CU_ASSERT(has(s2, "[source]")); /* back from the editor */
	CU_ASSERT(has(s3, "[stack] v1.0..HEAD  patch 2 of 3"));
	CU_ASSERT(has(s3, "last changed by patch 2"));
	CU_ASSERT(has(s4, "include/linux/sunrpc/xdr.h:752: not touched by the stack"));
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	free(eo);
	free(env);
	free(edtext);
	free(ed);
	free(edout);
	test_rmdir(out);
	free(out);
}

/* The notes and include chain are entries: Enter shows that place, Enter
 * on the first line goes back. */
static void test_source_entries(void)
{
	char *out = test_tmpdir();
	CU_ASSERT_EQUAL(run_script(out,
				   "4j<Enter>\n:save-display e1\nG<Enter>\n:save-display e2\n"
				   "g<Enter>\n:save-display e3\n",
				   NULL),
			0);
	char *e1 = screen(out, "e1"), *e2 = screen(out, "e2"), *e3 = screen(out, "e3");
	CU_ASSERT(has(e1, ">   752  /* xdr line 752 */\n                  ^\n"));
	CU_ASSERT(has(e1, "included from include/linux/sunrpc/sched.h:19\n"));
	CU_ASSERT(has(e1, "included from init/do_mounts.c:22\n"));
	CU_ASSERT(has(e1, "[source] include/linux/sunrpc/xdr.h:752"));
	CU_ASSERT(has(e2, "showing init/do_mounts.c:22 (Enter on the first line goes back)"));
	CU_ASSERT(has(e2, "/linux/init/do_mounts.c: not in the work tree)"));
	CU_ASSERT(has(e3, ">   752  /* xdr line 752 */"));
	free(e1);
	free(e2);
	free(e3);
	test_rmdir(out);
	free(out);
}

/* A build that finishes while the view is open (here: written by the
 * "editor") is picked up by the timer; R reads the logs again. */
static void test_reload(void)
{
	char *out = test_tmpdir();
	char *dir = xasprintf("%s/.klang/out/arm64-llvm-16", repo);
	char *ed = xasprintf("%s/ed.sh", out);
	char *edtext = xasprintf("#!/bin/sh\nmkdir -p '%s' && cp '%s' '%s/build.log' && "
				 "echo '{}' > '%s/summary.json'\n",
				 dir, x86_clang, dir, dir);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(ed, edtext, strlen(edtext), &e), 0);
	chmod(ed, 0755);
	char *env = xasprintf("EDITOR='%s'", ed);
	CU_ASSERT_EQUAL(run_script(out,
				   "4\n:save-display l1\nje\n:wait 2600\n:save-display l2\n"
				   "R\n:save-display l3\n",
				   env),
			0);
	char *l1 = screen(out, "l1"), *l2 = screen(out, "l2"), *l3 = screen(out, "l3");
	CU_ASSERT(has(l1, "3 clang-only, 11 gcc-only, 912 both"));
	/* the x86 Clang log now stands for arm64 too: other counts */
	CU_ASSERT(has(l2, "new build logs: warnings reloaded"));
	CU_ASSERT_PTR_NULL(strstr(l2, "3 clang-only, 11 gcc-only, 912 both"));
	CU_ASSERT(has(l3, "[warnings] clang-only"));
	test_rmdir(dir);
	free(l1);
	free(l2);
	free(l3);
	free(env);
	free(edtext);
	free(ed);
	free(dir);
	test_rmdir(out);
	free(out);
}

void suite_warnview(void)
{
	CU_pSuite s = CU_add_suite("warnview", setup, teardown);
	CU_add_test(s, "newest finished logs per arch", test_buildlogs);
	CU_add_test(s, "blame within base..head", test_blame);
	CU_add_test(s, "tree folds, side/arch/text filters", test_tree_and_filters);
	CU_add_test(s, "triage keys write and reload the store", test_triage_keys);
	CU_add_test(s, "source pane, $EDITOR, B to the patch", test_source_edit_blame);
	CU_add_test(s, "source pane entries", test_source_entries);
	CU_add_test(s, "a finished build reloads the view", test_reload);
}
