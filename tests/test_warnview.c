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
#include <unistd.h>

#include "core/blame.h"
#include "core/buildlogs.h"
#include "core/gitwrite.h"
#include "core/links.h"
#include "core/osc52.h"
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
	/* builds with --out elsewhere are found by their records: riscv's
	 * Clang log; not a log still being written after its record (an old
	 * record, a new run), a record of no log, a broken record */
	struct kerr e;
	char *recs = xasprintf("%s/.klang/builds", repo);
	char *rv = xasprintf("%s/elsewhere/riscv-llvm/build.log", top);
	char *xl = xasprintf("%s/elsewhere/x86_64-llvm/build.log", top);
	const char *rec = "{\"name\": \"%s\", \"arch\": \"%s\", \"toolchain\": \"%s\", "
			  "\"status\": \"%s\", \"objects\": %d, \"log\": \"%s\"%s}\n";
	char *af = xasprintf("%s/elsewhere/arm64-llvm-failed/build.log", top);
	char *ac = xasprintf("%s/elsewhere/arm64-llvm-cancelled/build.log", top);
	char *rd = xasprintf("%s/elsewhere/riscv-llvm-defconfig/build.log", top);
	char *ra = xasprintf("%s/elsewhere/riscv-llvm-again/build.log", top);
	char *ra_dir = xasprintf(", \"out_dir\": \"%s/elsewhere/riscv-llvm-again\"", top);
	struct {
		const char *file, *arch, *tc, *log, *status, *extra;
		int objects;
		time_t log_mtime, rec_mtime;
	} recdata[] = {
	    {"riscv-llvm-tinyconfig.json", "riscv", "llvm", rv, "ok", "", 9, 1700000200,
	     1700000300},
	    {"x86_64-llvm-tinyconfig.json", "x86_64", "llvm", xl, "ok", "", 9, time(NULL),
	     1700000300},
	    {"arm64-clang-tinyconfig.json", "arm64", "clang", "/nonexistent/build.log", "ok", "", 9,
	     0, 0},
	    /* newer, but failed before compiling anything: nothing to compare */
	    {"arm64-llvm-nosuch.json", "arm64", "llvm", af, "failed", "", 0, 1700000500,
	     1700000600},
	    /* newer, but of a config GCC did not build: like is compared with like */
	    {"riscv-llvm-defconfig.json", "riscv", "llvm", rd, "ok", ", \"config\": \"defconfig\"",
	     9, 1700000400, 1700000500},
	    /* newer, but its log is of a later run, cancelled before it compiled
	     * anything: the summary.json beside it says so */
	    {"riscv-llvm-again.json", "riscv", "llvm", ra, "ok", ra_dir, 9, 1700000900, 1700000800},
	    /* the newest of all, but cancelled halfway: half a log is not compared */
	    {"arm64-llvm-cancelled.json", "arm64", "llvm", ac, "cancelled", "", 5, time(NULL) + 100,
	     time(NULL) + 200},
	};
	size_t loglen;
	char *logtext = read_file(x86_clang, &loglen, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(logtext);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(recs, &e), 0);
	for (size_t i = 0; i < sizeof(recdata) / sizeof(*recdata); i++) {
		char *dir = xstrdup(recdata[i].log),
		     *path = xasprintf("%s/%s", recs, recdata[i].file);
		*strrchr(dir, '/') = '\0';
		char *text = xasprintf(rec, recdata[i].file, recdata[i].arch, recdata[i].tc,
				       recdata[i].status, recdata[i].objects, recdata[i].log,
				       recdata[i].extra);
		struct utimbuf tl = {recdata[i].log_mtime, recdata[i].log_mtime};
		struct utimbuf tr = {recdata[i].rec_mtime, recdata[i].rec_mtime};
		if (recdata[i].log_mtime)
			CU_ASSERT_FATAL(!mkdir_p(dir, &e) &&
					!write_file_atomic(recdata[i].log, logtext, loglen, &e) &&
					!utime(recdata[i].log, &tl));
		CU_ASSERT_FATAL(!write_file_atomic(path, text, strlen(text), &e) &&
				(!recdata[i].rec_mtime || !utime(path, &tr)));
		free(text);
		free(path);
		free(dir);
	}
	char *broken = xasprintf("%s/broken.json", recs);
	CU_ASSERT_EQUAL(write_file_atomic(broken, "{\"arch\": ", 9, &e), 0);
	char *ras = xasprintf("%s/elsewhere/riscv-llvm-again/summary.json", top);
	const char *cancelled = "{\"name\": \"riscv-llvm-again.json\", \"status\": \"cancelled\", "
				"\"objects\": 0}\n";
	struct utimbuf ts = {1700000900, 1700000900};
	CU_ASSERT_FATAL(!write_file_atomic(ras, cancelled, strlen(cancelled), &e) &&
			!utime(ras, &ts));
	n = buildlogs_find(repo, &p);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(p[1].arch, "riscv");
	CU_ASSERT_STRING_EQUAL(p[1].clang, rv);
	CU_ASSERT_PTR_NOT_NULL(strstr(p[1].gcc, "/.klang/out/riscv-gcc/build.log"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p[2].clang, "/.klang/out/x86_64-llvm/build.log"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p[0].clang, "/.klang/out/arm64-llvm/build.log"));
	CU_ASSERT_FALSE(p[1].uptodate);
	buildlogs_free(p, n);
	/* the same riscv build, had it compiled nothing: still compared, but
	 * said to be up to date (its log has no warnings) */
	char *rv_rec = xasprintf("%s/riscv-llvm-tinyconfig.json", recs),
	     *rv_text =
		 xasprintf(rec, "riscv-llvm-tinyconfig.json", "riscv", "llvm", "ok", 0, rv, "");
	struct utimbuf rv_t = {1700000300, 1700000300};
	CU_ASSERT(!write_file_atomic(rv_rec, rv_text, strlen(rv_text), &e) &&
		  !utime(rv_rec, &rv_t));
	n = buildlogs_find(repo, &p);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(p[1].clang, rv);
	CU_ASSERT_TRUE(p[1].uptodate);
	CU_ASSERT_FALSE(p[2].uptodate);
	buildlogs_free(p, n);
	/* unless the log of the build before it was kept: then the two say it all */
	char *kept_dir = xasprintf("%.*s/earlier", (int)(strrchr(rv, '/') - rv), rv),
	     *kept = xasprintf("%s/1.log", kept_dir);
	CU_ASSERT_FATAL(!mkdir_p(kept_dir, &e) && !write_file_atomic(kept, "", 0, &e));
	n = buildlogs_find(repo, &p);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_FALSE(p[1].uptodate);
	buildlogs_free(p, n);
	free(kept_dir);
	free(kept);
	free(rv_rec);
	free(rv_text);
	test_rmdir(recs);
	free(broken);
	free(af);
	free(ac);
	free(rd);
	free(ra);
	free(ra_dir);
	free(ras);
	free(logtext);
	free(recs);
	free(rv);
	free(xl);
	/* an empty repository has none */
	n = buildlogs_find(top, &p);
	CU_ASSERT_EQUAL(n, 0);
	buildlogs_free(p, n);
	/* a log given by hand: its arch when it lies in a build directory */
	const char *logs[][2] = {
	    {"/o/arm64-gcc/build.log", "arm64"}, {"o/x86_64-llvm-16/build.log", "x86_64"},
	    {"riscv-clang/x.log", "riscv"},	 {"/logs/gcc-arm64.log", NULL},
	    {"/o/arm64-icc/build.log", NULL},	 {"build.log", NULL}};
	for (size_t i = 0; i < sizeof(logs) / sizeof(*logs); i++) {
		char *a = buildlogs_arch_of(logs[i][0]);
		CU_ASSERT_TRUE(logs[i][1] ? a && !strcmp(a, logs[i][1]) : !a);
		free(a);
	}
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

/* A headless run: its :save-display files are named 1, 2, ... and read
 * back into s[1], s[2], ... ("" when not saved). */
#define MAX_SCREENS 12
struct run {
	char *out;
	char *s[MAX_SCREENS + 1];
	char *env; /* EDITOR=... from editor() */
};

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->out = test_tmpdir();
}

/* $EDITOR: a shell script of `body` ("$@" are its arguments). */
static void editor(struct run *r, const char *body)
{
	struct kerr e;
	char *ed = xasprintf("%s/ed.sh", r->out), *text = xasprintf("#!/bin/sh\n%s\n", body);
	CU_ASSERT_EQUAL(write_file_atomic(ed, text, strlen(text), &e), 0);
	CU_ASSERT_EQUAL(chmod(ed, 0755), 0);
	free(r->env);
	r->env = xasprintf("EDITOR='%s'", ed);
	free(text);
	free(ed);
}

static char *out_file(const struct run *r, const char *name)
{
	struct kerr e;
	char *path = xasprintf("%s/%s", r->out, name);
	char *t = read_file(path, NULL, &e);
	free(path);
	return t ? t : xstrdup("");
}

static void run_script(struct run *r, const char *script)
{
	struct kerr e;
	char *path = xasprintf("%s/script", r->out);
	CU_ASSERT_EQUAL(write_file_atomic(path, script, strlen(script), &e), 0);
	char *cmd =
	    xasprintf("cd '%s' && env -u NO_COLOR -u LC_ALL -u LINES -u COLUMNS "
		      "-u KLANG_DATADIR -u VISUAL TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
		      "TZ=UTC HOME='%s' KLANG_SCRIPT='%s' COLUMNS=140 LINES=40 %s '%s' "
		      "--repo '%s' --base v1.0 > stdout",
		      r->out, r->out, path, r->env ? r->env : "", test_klang_bin(), repo);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	for (int i = 1; i <= MAX_SCREENS; i++) {
		char name[4];
		snprintf(name, sizeof(name), "%d", i);
		free(r->s[i]);
		r->s[i] = out_file(r, name);
		char *saved = xasprintf("%s/%s", r->out, name);
		remove(saved);
		free(saved);
	}
	free(cmd);
	free(path);
}

static void run_free(struct run *r)
{
	for (int i = 0; i <= MAX_SCREENS; i++)
		free(r->s[i]);
	free(r->env);
	test_rmdir(r->out);
	free(r->out);
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
	struct run r;
	run_init(&r);
	run_script(&r,
		   "4\n:save-display 1\n<Space>\n:save-display 2\n+\n:save-display 3\n"
		   "-\n:save-display 4\n+a\n:save-display 5\na\n:save-display 6\n"
		   "a\\cacheinfo<Enter>\n:save-display 7\n\\<Enter>s\n:save-display 8\n"
		   "ss\n:save-display 9\nsG\n:save-display 10\n\\zzz<Enter>\n:save-display 11\n");
	char **t = r.s;
	/* clang-only by default: one row over both arches, one x86_64 only; the
	 * title counts places as the rows show them (arches merged) */
	CU_ASSERT(has(t[1], "[warnings] clang-only: 2 clang-only, 6 gcc-only, 779 both; arch all "
			    "(arm64, x86_64 built), status any; 2 shown"));
	CU_ASSERT(has(t[1], "- tautological-compare (1)  4 occurrences"));
	CU_ASSERT(has(t[1], "  +   4 new arm64,x86_64  include/linux/sunrpc/xdr.h:752:10 "
			    "-Wtautological-constant-out-of-range-compare  result of comparison"));
	CU_ASSERT(has(t[1], "  +   1 new x86_64        "
			    "arch/x86/kernel/cpu/cacheinfo.c:730:15 -Wunused-but-set-variable"));
	/* Space folds the group under the cursor */
	CU_ASSERT(has(t[2], "+ tautological-compare (1)"));
	CU_ASSERT_PTR_NULL(strstr(t[2], "xdr.h:752"));
	CU_ASSERT(has(t[2], "cacheinfo.c:730:15"));
	/* + unfolds everything: each arch and translation unit */
	CU_ASSERT(has(t[3], "        arm64    init/do_mounts.c  2 times, clang"));
	CU_ASSERT(has(t[3], "        x86_64   arch/x86/kernel/cpu/cacheinfo.c  1 time, clang"));
	CU_ASSERT_EQUAL(count_rows(t[3], "        arm64 "), 2);
	CU_ASSERT_EQUAL(count_rows(t[3], "        x86_64 "), 3);
	/* - folds every group */
	CU_ASSERT_EQUAL(count_rows(t[4], "+ "), 2);
	CU_ASSERT_EQUAL(count_rows(t[4], "  "), 0);
	/* a: arm64 only, then x86_64 only */
	CU_ASSERT(has(t[5], "arch arm64, status any; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(t[5], "cacheinfo"));
	CU_ASSERT_EQUAL(count_rows(t[5], "        x86_64 "), 0);
	CU_ASSERT(has(t[5], "- tautological-compare (1)  2 occurrences"));
	/* the arch column as wide as the arches shown */
	CU_ASSERT(has(t[5], "  -   2 new arm64  include/linux/sunrpc/xdr.h:752:10 "));
	CU_ASSERT(has(t[6], "arch x86_64, status any; 2 shown"));
	/* \ filters on text, back to all arches */
	CU_ASSERT(
	    has(t[7], "arch all (arm64, x86_64 built), status any, text \"cacheinfo\"; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(t[7], "xdr.h"));
	/* an empty text clears it; s goes on to gcc-only */
	CU_ASSERT(has(t[8], "[warnings] gcc-only: 2 clang-only, 6 gcc-only, 779 both; arch all "
			    "(arm64, x86_64 built), status any; 6 shown"));
	CU_ASSERT(has(t[8], "kernel/exit.c:1930:13  no previous prototype for"));
	/* all sides: each row says which */
	CU_ASSERT(has(t[9], "[warnings] all: 2 clang-only, 6 gcc-only, 779 both;"));
	CU_ASSERT(has(t[9], "  -   1 new arm64         both       "
			    "include/uapi/asm-generic/unistd.h:48:1 -Winitializer-overrides  "));
	/* on a diagnostic the status bar starts with its whole message */
	CU_ASSERT(has(t[10], "\nvariable 'trace' set but not used  [new]  ClangBuiltLinux issues: "
			     "https://github.com/ClangBuiltLinux/linux/issues?q="));
	/* filters that hide everything say how to undo them */
	CU_ASSERT(has(t[11], "; 0 shown"));
	CU_ASSERT(has(t[11],
		      "The filters hide every place: s (side), a (arch), S (status), \\ then "
		      "Enter (text) show more\n"));
	run_free(&r);
}

/* The text of the row the cursor is on: screen `i` of the run and the
 * attributes saved with it as "<i>.attrs". */
static char *cursor_row(const struct run *r, int i)
{
	char name[16];
	snprintf(name, sizeof(name), "%d.attrs", i);
	char *attrs = out_file(r, name);
	const char *c = strstr(attrs, ": cursor@");
	int row = -1;
	while (c && c > attrs && c[-1] != '\n')
		c--;
	if (c)
		row = atoi(c);
	const char *l = r->s[i];
	for (int n = 0; l && n < row; n++)
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
	free(attrs);
	return row < 0 || !l ? xstrdup("(no cursor)") : xstrndup(l, strcspn(l, "\n"));
}

/* A filter key keeps the cursor on its diagnostic (the same item found in
 * the new tree) or else on its group. */
static void test_cursor_kept(void)
{
	struct run r;
	run_init(&r);
	run_script(&r, "4ss\n:type jjjjjjjjjjjj\n:save-display 1\n:save-attrs 1.attrs\n"
		       "s\n:save-display 2\n:save-attrs 2.attrs\n"
		       "/kernel/sched/rt.c<Enter>\n:save-display 3\n:save-attrs 3.attrs\n"
		       "s\n:save-display 4\n:save-attrs 4.attrs\n");
	char *rows[5];
	for (int i = 1; i <= 4; i++)
		rows[i] = cursor_row(&r, i);
	/* both, then all sides: the same diagnostic */
	CU_ASSERT(has(r.s[1], "[warnings] both:"));
	CU_ASSERT(
	    has(rows[1], "  +   1 new arm64         include/uapi/asm-generic/unistd.h:60:1 "));
	CU_ASSERT(has(r.s[2], "[warnings] all:"));
	CU_ASSERT(has(rows[2], "  +   1 new arm64         both       "
			       "include/uapi/asm-generic/unistd.h:60:1 "));
	/* a GCC-only one, then clang-only: not there, its group is */
	CU_ASSERT(has(rows[3], "gcc-only   kernel/sched/rt.c:9:18 -Wunused-const-variable="));
	CU_ASSERT(has(r.s[4], "[warnings] clang-only:"));
	CU_ASSERT(has(rows[4], "- unused (1)  1 occurrence"));
	for (int i = 1; i <= 4; i++)
		free(rows[i]);
	run_free(&r);
}

/* Triage keys write .klang/triage.yaml; the next start reads it back. */
static void test_triage_keys(void)
{
	struct run r;
	run_init(&r);
	char *path = xasprintf("%s/.klang/triage.yaml", repo);
	remove(path);
	run_script(&r, "4jc\nm\nreal overflow<Enter>\n:save-display 1\njW\n:save-display 2\n");
	struct kerr e;
	char *yaml = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
	CU_ASSERT(has(r.s[1], "  +   4 confirmed arm64,x86_64  include/linux/sunrpc/xdr.h"));
	CU_ASSERT(has(r.s[1], "note set on 1 diagnostic"));
	/* W on a group row marks all of its diagnostics */
	CU_ASSERT(has(r.s[2], "  +   1 wontfix   x86_64        arch/x86/kernel/cpu/cacheinfo.c"));
	CU_ASSERT(has(r.s[2], "1 diagnostic marked wontfix"));
	CU_ASSERT(has(yaml, "  status: confirmed\n  file: \"include/linux/sunrpc/xdr.h\""));
	CU_ASSERT(has(yaml, "  note: \"real overflow\""));
	CU_ASSERT(has(yaml, "  status: wontfix\n  file: \"arch/x86/kernel/cpu/cacheinfo.c\""));
	free(yaml);
	/* a new start shows the stored statuses; S filters on them */
	run_script(&r, "4\n:save-display 1\nS\n:save-display 2\nSSS\n:save-display 3\n");
	CU_ASSERT(has(r.s[1], "  +   4 confirmed arm64,x86_64  include/linux/sunrpc/xdr.h"));
	CU_ASSERT(has(r.s[1], "  +   1 wontfix   x86_64        arch/x86"));
	CU_ASSERT(has(r.s[2], "status open; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(r.s[2], "cacheinfo"));
	CU_ASSERT(has(r.s[3], "status wontfix; 1 shown"));
	CU_ASSERT_PTR_NULL(strstr(r.s[3], "xdr.h"));
	/* u puts it back to new: the entry leaves the file */
	run_script(&r, "4jjju\n:save-display 1\n");
	CU_ASSERT(has(r.s[1], "  +   1 new       x86_64        arch/x86"));
	yaml = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NULL(strstr(yaml ? yaml : "", "wontfix\n"));
	CU_ASSERT(has(yaml ? yaml : "", "real overflow"));
	remove(path);
	free(yaml);
	/* on a row both compilers reported, GCC's diagnostic gets the status too */
	run_script(&r, "4ssjW\n:save-display 1\n");
	CU_ASSERT(has(r.s[1], "[warnings] both:"));
	CU_ASSERT(has(r.s[1], "1 diagnostic marked wontfix"));
	yaml = read_file(path, NULL, &e);
	CU_ASSERT_EQUAL(count_rows(yaml ? yaml : "", "  status: wontfix"), 2);
	remove(path);
	free(yaml);
	free(path);
	run_free(&r);
}

/* From a group to a warning, its source line, $EDITOR and back, and B to the
 * patch that last changed the line, below the warnings. */
static void test_source_edit_blame(void)
{
	struct run r;
	run_init(&r);
	editor(&r, "echo \"$@\" > ed.out");
	run_script(&r, "4jjj<Enter>\n:save-display 1\ne\n:save-display 2\nB\n:save-display "
		       "3\n:save-attrs 3.attrs\n"
		       "q\n:save-display 5\nkkB\n:save-display 4\n");
	char *eo = out_file(&r, "ed.out");
	CU_ASSERT(has(r.s[1],
		      "arch/x86/kernel/cpu/cacheinfo.c:730:15: variable 'trace' set but not used"));
	CU_ASSERT(has(r.s[1], ">   730          unsigned int i, level = 0;"));
	/* column 15 after a tab: under the i */
	CU_ASSERT(has(r.s[1], "\n                              ^\n"));
	CU_ASSERT(has(r.s[1], "    729  /* cacheinfo line 729 */"));
	CU_ASSERT(has(eo, "+730 "));
	CU_ASSERT(has(eo, "/linux/arch/x86/kernel/cpu/cacheinfo.c"));
	CU_ASSERT(has(r.s[2], "[source]")); /* back from the editor */
	/* below the warnings: q goes back to them (the stack has it selected) */
	CU_ASSERT(has(r.s[3], "[warnings] "));
	CU_ASSERT(has(r.s[3], "last changed by patch 2"));
	CU_ASSERT(has(r.s[5], "[warnings] "));
	CU_ASSERT_PTR_NULL(strstr(r.s[5], "[patch]"));
	/* and the patch below it, at the line, highlighted */
	CU_ASSERT(has(r.s[3], "[patch] 2/3 "));
	int row = 0;
	for (const char *l = r.s[3]; l && strncmp(l, "+       unsigned int i, level = 0;", 34);
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		row++;
	char *attrs = out_file(&r, "3.attrs"), *want = xasprintf("\n%d: cursor@0-", row);
	CU_ASSERT(has(attrs, want));
	free(want);
	free(attrs);
	CU_ASSERT(has(r.s[4], "include/linux/sunrpc/xdr.h:752: not touched by the stack"));
	free(eo);
	run_free(&r);
}

/* The notes and include chain are entries: Enter shows that place, Enter
 * on the first line goes back. */
static void test_source_entries(void)
{
	struct run r;
	run_init(&r);
	run_script(&r, "4j<Enter>\n:save-display 1\nG<Enter>\n:save-display 2\n"
		       "g<Enter>\n:save-display 3\n:resize 60x30\n:save-display 4\n");
	CU_ASSERT(has(r.s[1], ">   752  /* xdr line 752 */\n                  ^\n"));
	CU_ASSERT(has(r.s[1], "included from include/linux/sunrpc/sched.h:19\n"));
	CU_ASSERT(has(r.s[1], "included from init/do_mounts.c:22\n"));
	CU_ASSERT(has(r.s[1], "[source] include/linux/sunrpc/xdr.h:752"));
	CU_ASSERT(has(r.s[2], "showing init/do_mounts.c:22 (Enter on the first line goes back)"));
	CU_ASSERT(has(r.s[2], "/linux/init/do_mounts.c: not in the work tree)"));
	CU_ASSERT(has(r.s[3], ">   752  /* xdr line 752 */"));
	/* a narrow pane wraps the message, which the rows above cut */
	CU_ASSERT(has(r.s[4], "\ninclude/linux/sunrpc/xdr.h:752:10: result of comparison\n"));
	CU_ASSERT(has(r.s[4], "[-Wtautological-constant-out-of-range-compare]\n"));
	CU_ASSERT(has(r.s[4], ">   752  /* xdr line 752 */"));
	run_free(&r);
}

/* A build that finishes while the view is open (here: written by the
 * "editor") is picked up by the timer; R reads the logs again. */
static void test_reload(void)
{
	struct run r;
	run_init(&r);
	char *dir = xasprintf("%s/.klang/out/arm64-llvm-16", repo);
	char *body = xasprintf("mkdir -p '%s' && cp '%s' '%s/build.log' && "
			       "echo '{}' > '%s/summary.json'",
			       dir, x86_clang, dir, dir);
	editor(&r, body);
	run_script(&r, "4\n:save-display 1\nje\n:wait 2600\n:save-display 2\nR\n:save-display 3\n");
	CU_ASSERT(has(r.s[1], "2 clang-only, 6 gcc-only, 779 both"));
	/* the x86 Clang log now stands for arm64 too: other counts */
	CU_ASSERT(has(r.s[2], "new build logs: warnings reloaded"));
	CU_ASSERT_PTR_NULL(strstr(r.s[2], "2 clang-only, 6 gcc-only, 779 both"));
	CU_ASSERT(has(r.s[3], "[warnings] clang-only"));
	CU_ASSERT(has(r.s[3], "\nwarnings reloaded: 840 places (arm64, x86_64 built)\n"));
	test_rmdir(dir);
	free(body);
	free(dir);
	run_free(&r);
}

/* An arch without both builds (arm64 still building, or cancelled) is not
 * compared: the title says which arches are. */
static void test_built_arches(void)
{
	char *from = xasprintf("%s/.klang/out/arm64-llvm", repo),
	     *to = xasprintf("%s/.klang/arm64-llvm.away", repo);
	CU_ASSERT_EQUAL_FATAL(rename(from, to), 0);
	struct run r;
	run_init(&r);
	run_script(&r, "4\n:save-display 1\n");
	CU_ASSERT(has(r.s[1], "arch all (x86_64 built), status any"));
	run_free(&r);
	CU_ASSERT_EQUAL(rename(to, from), 0);
	free(from);
	free(to);
}

/* A build that compiled nothing (or a part) logs only that: the logs kept
 * before it (earlier/) give the rest, the same rows as the full log, and
 * the title counts them. */
static void test_earlier_logs(void)
{
	struct kerr e;
	struct stat st;
	char *dir = xasprintf("%s/.klang/out/x86_64-llvm", repo),
	     *kept = xasprintf("%s/earlier", dir), *log = xasprintf("%s/build.log", dir),
	     *one = xasprintf("%s/1.log", kept);
	const char *noop = "  CALL    scripts/checksyscalls.sh\n";
	CU_ASSERT_FATAL(!stat(log, &st) && !mkdir_p(kept, &e) && !rename(log, one));
	struct utimbuf t = {st.st_mtime, st.st_mtime};
	CU_ASSERT_FATAL(!write_file_atomic(log, noop, strlen(noop), &e) && !utime(log, &t));
	struct run r;
	run_init(&r);
	run_script(&r, "4\n:save-display 1\n");
	CU_ASSERT(has(r.s[1], "[warnings] clang-only: 2 clang-only, 6 gcc-only, 779 both; arch all "
			      "(arm64, x86_64 built, 1 earlier log), status any; 2 shown"));
	run_free(&r);
	CU_ASSERT(!rename(one, log) && !utime(log, &t) && !rmdir(kept));
	free(dir);
	free(kept);
	free(log);
	free(one);
}

/* y copies the warning's place, Y the ClangBuiltLinux issue search for its
 * flag, as the OSC 52 bytes the terminal receives (TMUX unset: plain). */
static void test_copy_keys(void)
{
	struct run r;
	run_init(&r);
	run_script(&r, "4j\n:save-display 1\ny\n:save-display 2\nY\n:save-display 3\n"
		       "<Enter>y\n:save-display 4\njjY\n:save-display 5\ny\n:save-display 6\n");
	const char *loc = "include/linux/sunrpc/xdr.h:752:10";
	char *url = links_cbl_issue_url("-Wtautological-constant-out-of-range-compare");
	char *seq_loc = osc52_sequence(loc, strlen(loc), OSC52_PLAIN);
	char *seq_url = osc52_sequence(url, strlen(url), OSC52_PLAIN);
	char *term = out_file(&r, "stdout");
	const char *a = strstr(term, seq_loc), *b = strstr(term, seq_url);
	CU_ASSERT_TRUE(a && b && a < b);
	CU_ASSERT(has(r.s[1], "\nresult of comparison of constant 4611686018427387903"));
	CU_ASSERT(has(r.s[2], "copied location: include/linux/sunrpc/xdr.h:752:10"));
	CU_ASSERT(has(r.s[3], "copied ClangBuiltLinux issue search: https://"));
	/* from the source pane too: the line under its cursor */
	CU_ASSERT(has(r.s[4], "copied location: include/linux/sunrpc/xdr.h:752:10"));
	CU_ASSERT(has(r.s[5], "copied ClangBuiltLinux issue search: https://"));
	CU_ASSERT(has(r.s[6], "copied location: include/linux/sunrpc/xdr.h:746\n"));
	free(term);
	free(seq_url);
	free(seq_loc);
	free(url);
	run_free(&r);
}

/* The repository's config.yaml: e runs its editor (over $EDITOR), the
 * builds view shows its matrix and config. */
static void test_config(void)
{
	struct run r;
	run_init(&r);
	editor(&r, "echo wrong > ed.out");
	struct kerr e;
	char *cfgpath = xasprintf("%s/.klang/config.yaml", repo);
	char *text = xasprintf("editor: echo configured >%s/ed.out\n"
			       "arches: [x86_64, riscv]\ntoolchains: [gcc-12]\n"
			       "config: tinyconfig\nmake: [W=1]\n",
			       r.out);
	CU_ASSERT_EQUAL_FATAL(write_file_atomic(cfgpath, text, strlen(text), &e), 0);
	/* a row shows the last build of its config before a newer other one */
	char *recs = xasprintf("%s/.klang/builds", repo);
	const char *cfgs[] = {"tinyconfig", "defconfig"};
	CU_ASSERT_EQUAL_FATAL(mkdir_p(recs, &e), 0);
	for (int i = 0; i < 2; i++) {
		char *rp = xasprintf("%s/riscv-gcc-12-%s.json", recs, cfgs[i]);
		char *rt = xasprintf("{\"name\": \"riscv-gcc-12\", \"status\": \"ok\", "
				     "\"config\": \"%s\", \"objects\": %d}\n",
				     cfgs[i], 100 + i);
		struct utimbuf t = {1700000000 + i, 1700000000 + i};
		CU_ASSERT(!write_file_atomic(rp, rt, strlen(rt), &e) && !utime(rp, &t));
		free(rt);
		free(rp);
	}
	run_script(&r, "3\n:save-display 1\n4jjj<Enter>e\n");
	remove(cfgpath);
	test_rmdir(recs);
	free(recs);
	CU_ASSERT(has(r.s[1], "riscv-gcc-12  idle (b to start)   last: ok, tinyconfig, 100 obj"));
	char *eo = out_file(&r, "ed.out");
	CU_ASSERT(has(eo, "configured +730 "));
	CU_ASSERT(str_startswith(r.s[1], "x86_64-gcc-12 idle (b to start)"));
	CU_ASSERT(has(r.s[1], "\nriscv-gcc-12  idle (b to start)"));
	CU_ASSERT_PTR_NULL(strstr(r.s[1], "arm64"));
	CU_ASSERT(has(r.s[1], " tinyconfig W=1 -> "));
	free(eo);
	free(text);
	free(cfgpath);
	run_free(&r);
}

void suite_warnview(void)
{
	CU_pSuite s = CU_add_suite("warnview", setup, teardown);
	CU_add_test(s, "newest finished logs per arch", test_buildlogs);
	CU_add_test(s, "blame within base..head", test_blame);
	CU_add_test(s, "tree folds, side/arch/text filters", test_tree_and_filters);
	CU_add_test(s, "filter keys keep the cursor on its diagnostic", test_cursor_kept);
	CU_add_test(s, "triage keys write and reload the store", test_triage_keys);
	CU_add_test(s, "source pane, $EDITOR, B to the patch", test_source_edit_blame);
	CU_add_test(s, "source pane entries", test_source_entries);
	CU_add_test(s, "a finished build reloads the view", test_reload);
	CU_add_test(s, "the title names the arches compared", test_built_arches);
	CU_add_test(s, "the logs kept before a build are read with it", test_earlier_logs);
	CU_add_test(s, "y and Y copy the place and the CBL issue search", test_copy_keys);
	CU_add_test(s, "config.yaml: the editor, the builds matrix", test_config);
}
