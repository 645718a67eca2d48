/* Screen tests of the workbench, run as tig runs its own: the real binary
 * with KLANG_SCRIPT (keys and :save-display commands from
 * tests/screen/NAME.script), curses drawing to /dev/null at 80x24, a pinned
 * environment, on repositories made here with libgit2. Every saved screen
 * is compared with tests/screen/<file>; KLANG_UPDATE_SCREENS=1 rewrites
 * them instead. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/demo.h"
#include "core/gitwrite.h"
#include "tests/helpers.h"
#include "tests/diagtest.h"
#include "tests/series_repo.h"

static char *repo_dir, *empty_dir, *work_dir, *patchset_arg;

static int make_repo(const char *dir)
{
	git_repository *r;
	struct kerr e;
	char id[41];
	if (gw_init(dir, &r, &e))
		return -1;
	struct gw_file base[] = {
	    {"Makefile", "CC ?= gcc\nall:\n\t$(CC) -o demo main.c\n", 0},
	    {"main.c", "#include <stdio.h>\n\nint main(void)\n{\n\treturn 0;\n}\n", 0},
	    {"arch/arm64/Kconfig", "config ARM64\n\tdef_bool y\n", 0},
	};
	struct gw_commit c = {.ref = "refs/heads/main",
			      .files = base,
			      .nfiles = 3,
			      .message = "Initial import\n",
			      .time = 1600000000};
	if (gw_commit(r, &c, id, &e) || gw_tag(r, "v1.0", "main", &e))
		return -1;
	static const struct {
		const char *path, *content, *message, *author;
	} patches[] = {
	    {"Makefile", "CC ?= clang\nall:\n\t$(CC) -o demo main.c\n",
	     "UPSTREAM: kbuild: build with clang by default\n\nClang is the compiler we test.\n\n"
	     "Signed-off-by: Nick Desaulniers <nick@example.org>\n",
	     "Nick Desaulniers"},
	    {"main.c", "#include <stdio.h>\n\nint main(void)\n{\n\tputs(\"hi\");\n\treturn 0;\n}\n",
	     "BACKPORT: FROMLIST: main: say hello\n\nA greeting for the logs.\n\n"
	     "Change-Id: I0123456789abcdef\nSigned-off-by: Jürgen Müller <jm@example.org>\n",
	     "Jürgen Müller"},
	    {"arch/arm64/Kconfig", "config ARM64\n\tdef_bool y\n\tselect HAVE_CLANG\n",
	     "HACK: arm64: pretend clang is always there\n\nClang-Fixed: 15\n", "山田太郎"},
	    {"lib/string.c", "int strlen_safe(const char *s)\n{\n\treturn s ? 1 : 0;\n}\n",
	     "FROMGIT: lib: add strlen_safe\n", "Nathan Chancellor"},
	    {"main.c", "#include <stdio.h>\n\nint main(void)\n{\n\treturn 0;\n}\n",
	     "ANDROID: main: drop the greeting again\n", "Android Dev"},
	    {"README", "Demo tree.\n", "Add a README\n", "Nick Desaulniers"},
	    {"lib/string.c", NULL, "OBSOLETE: lib: remove strlen_safe\n", "Nathan Chancellor"},
	    {"Makefile", "CC ?= clang\nCFLAGS += -Wall\nall:\n\t$(CC) $(CFLAGS) -o demo main.c\n",
	     "HACK: Makefile: warn about everything\n", "Kees Cook"},
	    {"Documentation/clang.rst", "Build with LLVM=1.\n",
	     "WIP: docs: notes on building with clang\n", "Nick Desaulniers"},
	};
	for (size_t i = 0; i < sizeof(patches) / sizeof(patches[0]); i++) {
		struct gw_file f = {patches[i].path, patches[i].content, 0};
		struct gw_commit pc = {.ref = "refs/heads/main",
				       .files = &f,
				       .nfiles = 1,
				       .message = patches[i].message,
				       .author = patches[i].author,
				       .email = "dev@example.org",
				       .time = 1600000000 + 86400 * (int64_t)(i + 1),
				       .tz = 120};
		if (gw_commit(r, &pc, id, &e))
			return -1;
	}
	int rc = gw_checkout(r, "main", &e);
	git_repository_free(r);
	return rc;
}

static int make_empty(const char *dir)
{
	git_repository *r;
	struct kerr e;
	char id[41];
	if (gw_init(dir, &r, &e))
		return -1;
	struct gw_file f = {"README", "empty\n", 0};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = &f, .nfiles = 1, .message = "Only a base\n"};
	int rc =
	    gw_commit(r, &c, id, &e) || gw_tag(r, "v2.0", "main", &e) || gw_checkout(r, "main", &e);
	git_repository_free(r);
	return rc ? -1 : 0;
}

static int make_fake_clangs(const char *dir);

static int setup(void)
{
	gw_libinit();
	char *top = test_tmpdir();
	repo_dir = xasprintf("%s/linux", top);
	empty_dir = xasprintf("%s/empty", top);
	work_dir = top;
	/* a patchset naming the repository and an extra tag, WIP */
	char *ps = xasprintf("%s/wip.yaml", top);
	char *text =
	    xasprintf("name: wip\nrepo: %s\nbase: v1.0\nhead: main\ntags: [WIP]\n", repo_dir);
	struct kerr e;
	int rc = write_file_atomic(ps, text, strlen(text), &e);
	patchset_arg = xasprintf("--patchset '%s'", ps);
	free(text);
	free(ps);
	return rc || make_repo(repo_dir) || make_empty(empty_dir) || make_fake_clangs(top);
}

static int teardown(void)
{
	test_rmdir(work_dir);
	free(work_dir);
	free(repo_dir);
	free(empty_dir);
	free(patchset_arg);
	return 0;
}

/* Run klang headless with a pinned environment; returns its exit status.
 * A fake clang 14.0.6 comes first on PATH so that the series column reads
 * the same on every machine. */
static int run_klang(const char *script, const char *repo, const char *args, const char *env,
		     const char *outdir, char **err)
{
	char *repo_arg = repo ? xasprintf("--repo '%s'", repo) : xstrdup("");
	char *cmd = xasprintf("cd '%s' && env -u NO_COLOR -u LC_ALL -u LINES -u COLUMNS "
			      "-u KLANG_DATADIR TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
			      "TZ=UTC HOME='%s' KLANG_SCRIPT='%s' CC=clang PATH='%s/bin':\"$PATH\" "
			      "%s '%s' %s %s",
			      outdir, outdir, script, work_dir, env ? env : "", test_klang_bin(),
			      repo_arg, args ? args : "");
	free(repo_arg);
	int rc = test_run(cmd, NULL, err);
	free(cmd);
	return rc;
}

static char *read_or_empty(const char *path)
{
	struct kerr e;
	return read_file(path, NULL, &e);
}

/* Compare (or rewrite) every file the script saved. */
static void check_outputs(const char *name, const char *outdir)
{
	bool update = getenv("KLANG_UPDATE_SCREENS") && *getenv("KLANG_UPDATE_SCREENS");
	DIR *d = opendir(outdir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	int seen = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, name, strlen(name)))
			continue;
		char *got_path = xasprintf("%s/%s", outdir, de->d_name);
		char *want_path = xasprintf("%s/tests/screen/%s", test_src_dir(), de->d_name);
		char *got = read_or_empty(got_path);
		CU_ASSERT_PTR_NOT_NULL(got);
		if (update && got) {
			struct kerr e;
			CU_ASSERT_EQUAL(write_file_atomic(want_path, got, strlen(got), &e), 0);
		} else if (got) {
			char *want = read_or_empty(want_path);
			if (!want || strcmp(want, got)) {
				char *cmd = xasprintf("diff -u '%s' '%s' >&2", want_path, got_path);
				fprintf(stderr, "\nscreen %s differs:\n", de->d_name);
				if (system(cmd) < 0)
					fprintf(stderr, "cannot run diff\n");
				free(cmd);
			}
			CU_ASSERT_PTR_NOT_NULL(want);
			CU_ASSERT(want && !strcmp(want, got));
			free(want);
		}
		free(got);
		free(got_path);
		free(want_path);
		seen++;
	}
	closedir(d);
	CU_ASSERT(seen > 0);
}

/* A key file in the pinned HOME (~/.config/klang/keys). */
static void write_keys(const char *home, const char *keys)
{
	struct kerr e;
	char *dir = xasprintf("%s/.config/klang", home), *path = xasprintf("%s/keys", dir);
	CU_ASSERT_EQUAL(mkdir_p(dir, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(path, keys, strlen(keys), &e), 0);
	free(path);
	free(dir);
}

static void run_case_keys(const char *name, const char *repo, const char *args, const char *env,
			  const char *keys)
{
	char *outdir = test_tmpdir();
	if (keys)
		write_keys(outdir, keys);
	char *script = xasprintf("%s/tests/screen/%s.script", test_src_dir(), name);
	char *err = NULL;
	int rc = run_klang(script, repo, args, env, outdir, &err);
	if (rc != 0)
		fprintf(stderr, "\n%s: exit %d: %s\n", name, rc, err);
	CU_ASSERT_EQUAL(rc, 0);
	check_outputs(name, outdir);
	free(err);
	free(script);
	test_rmdir(outdir);
	free(outdir);
}

static void run_case(const char *name, const char *repo, const char *args, const char *env)
{
	run_case_keys(name, repo, args, env, NULL);
}

/* Keys rebound in ~/.config/klang/keys; a bad key file is refused. */
static void test_user_keys(void)
{
	run_case_keys("keys", repo_dir, NULL, NULL,
		      "# mine\nbind stack x filter-HACK\nbind generic <C-n> move-down\n");
	char *dir = test_tmpdir(), *err = NULL;
	write_keys(dir, "bind stack x filter-NOPE\n");
	CU_ASSERT_EQUAL(run_klang("/dev/null", repo_dir, NULL, NULL, dir, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/.config/klang/keys:1: unknown action 'filter-NOPE'"));
	free(err);
	test_rmdir(dir);
	free(dir);
}

static void test_stack_view(void)
{
	run_case("stack", repo_dir, NULL, NULL);
}

static void test_filter(void)
{
	run_case("filter", repo_dir, NULL, NULL);
}

static void test_patch_view(void)
{
	run_case("patch", repo_dir, NULL, NULL);
}

static void test_pane_keys(void)
{
	run_case("pane-keys", repo_dir, NULL, NULL);
}

static void test_search(void)
{
	run_case("search", repo_dir, NULL, NULL);
}

static void test_help(void)
{
	run_case("help", repo_dir, NULL, NULL);
}

static void test_esc(void)
{
	run_case("esc", repo_dir, NULL, NULL);
}

static void test_resize_mouse(void)
{
	run_case("resize", repo_dir, NULL, NULL);
}

static void test_colors(void)
{
	run_case("colors", repo_dir, NULL, NULL);
	run_case("mono", repo_dir, NULL, "NO_COLOR=1");
	run_case("projector", repo_dir, "--theme projector", NULL);
}

/* A patchset: its repository and range, its extra tag as a badge and a filter. */
static void test_patchset(void)
{
	run_case("patchset", NULL, patchset_arg, NULL);
}

static void test_empty(void)
{
	run_case("empty", empty_dir, NULL, NULL);
}

/* A script written into dir; caller frees the path. */
static char *write_script(const char *dir, const char *text)
{
	char *path = xasprintf("%s/script", dir);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	return path;
}

/* q leaves at once: nothing after it runs. */
static void test_quit(void)
{
	char *outdir = test_tmpdir();
	char *script = write_script(outdir, "<Enter>q\nq\n:save-display after-quit\n");
	CU_ASSERT_EQUAL(run_klang(script, repo_dir, NULL, NULL, outdir, NULL), 0);
	char *after = xasprintf("%s/after-quit", outdir);
	CU_ASSERT_FALSE(file_exists(after));
	free(after);
	free(script);
	test_rmdir(outdir);
	free(outdir);
}

/* SIGTERM ends a run by the signal (exit hooks run, terminal restored). */
static void test_sigterm(void)
{
	char *outdir = test_tmpdir();
	char *script = write_script(outdir, ":wait 20000\n:save-display late\n");
	char *cmd = xasprintf("env KLANG_SCRIPT='%s' '%s' --repo '%s' & p=$!; sleep 0.3; "
			      "kill -TERM $p; wait $p",
			      script, test_klang_bin(), repo_dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 128 + 15);
	char *late = xasprintf("%s/late", outdir);
	CU_ASSERT_FALSE(file_exists(late));
	free(late);
	free(cmd);
	free(script);
	test_rmdir(outdir);
	free(outdir);
}

/* Bad input: a broken theme, a missing base, a bad script line. */
static void test_errors(void)
{
	char *err = NULL, *out = NULL;
	char *cmd = xasprintf("'%s' --repo '%s' --theme nosuchtheme", test_klang_bin(), repo_dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown theme 'nosuchtheme'"));
	free(cmd);
	free(err);
	free(out);
	cmd = xasprintf("'%s' --repo '%s' --base nosuchbase", test_klang_bin(), repo_dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nosuchbase"));
	free(cmd);
	free(err);
	free(out);
	/* no terminal and no script: a message, not a crash */
	cmd = xasprintf("'%s' --repo '%s'", test_klang_bin(), repo_dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs a terminal"));
	free(cmd);
	free(err);
	free(out);
	char *dir = test_tmpdir(), *script = xasprintf("%s/bad", dir);
	struct kerr e;
	/* a broken theme file given by path */
	char *theme = xasprintf("%s/x.yaml", dir);
	CU_ASSERT_EQUAL(write_file_atomic(theme, "elements:\n  cursor: {}\n  foo: {}\n", 32, &e),
			0);
	cmd = xasprintf("cd '%s' && '%s' --repo '%s' --theme x.yaml", dir, test_klang_bin(),
			repo_dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:3:3: unknown element 'foo'"));
	free(cmd);
	free(err);
	free(out);
	free(theme);
	CU_ASSERT_EQUAL(write_file_atomic(script, "j\n:frobnicate\n", 14, &e), 0);
	CU_ASSERT_EQUAL(run_klang(script, repo_dir, NULL, NULL, dir, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad:2: unknown command ':frobnicate'"));
	free(err);
	free(script);
	test_rmdir(dir);
	free(dir);
}

/* Fake clangs printing what real ones print: `clang` and `clang-14` (Debian
 * 14.0.6), `clang-9`, `clang-19` (Ubuntu), in DIR/bin. */
static int make_fake_clangs(const char *dir)
{
	static const struct {
		const char *name, *out;
	} fakes[] = {
	    {"clang", "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"},
	    {"clang-14", "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"},
	    {"clang-9", "clang version 9.0.1 \nTarget: x86_64-pc-linux-gnu\n"},
	    {"clang-19", "Ubuntu clang version 19.1.1 (1ubuntu1)\nTarget: x86_64-pc-linux-gnu\n"},
	};
	struct kerr e;
	char *bin = xasprintf("%s/bin", dir);
	int rc = mkdir_p(bin, &e);
	for (size_t i = 0; i < ARRAY_SIZE(fakes) && rc == 0; i++) {
		char *path = xasprintf("%s/%s", bin, fakes[i].name);
		char *text = xasprintf("#!/bin/sh\nprintf '%s'\n", fakes[i].out);
		rc = write_file_atomic(path, text, strlen(text), &e) || chmod(path, 0755);
		free(text);
		free(path);
	}
	free(bin);
	return rc ? -1 : 0;
}

/* The environment of the series tests: only the fake clangs on PATH, and
 * HOME where they are (the picker shows them as ~/bin/...). */
static char *series_env(const char *extra)
{
	return xasprintf("HOME='%s' PATH='%s/bin' %s", work_dir, work_dir, extra ? extra : "");
}

static char *git_out(const char *repo, const char *args)
{
	char *cmd = xasprintf("git -C '%s' %s", repo, args), *out = NULL;
	if (test_run(cmd, &out, NULL) != 0) {
		free(out);
		out = NULL;
	}
	free(cmd);
	return out;
}

static size_t count_files(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name), sl = strlen(suffix);
		n += l > sl && !strcmp(de->d_name + l - sl, suffix);
	}
	if (d)
		closedir(d);
	return n;
}

/* Keep/drop for the detected clang, a manual override, the Clang picker
 * (try 5, type 9), clearing the override, "fixed in", then apply and
 * export: the new branch holds the kept patches and HEAD stays where it
 * was. */
static void test_series_view(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	char *args = xasprintf("--patchset '%s'", r.patchset), *env = series_env(NULL);
	/* projector: the badges of dropped patches are not dimmed */
	char *projector = xasprintf("%s --theme projector", args);
	run_case("series-projector", NULL, projector, env);
	free(projector);
	char *head_before = git_out(r.repo, "rev-parse HEAD");
	run_case("series-view", NULL, args, env);
	char *head = git_out(r.repo, "symbolic-ref HEAD"),
	     *head_after = git_out(r.repo, "rev-parse HEAD");
	CU_ASSERT_STRING_EQUAL(head ? head : "", "refs/heads/main\n");
	CU_ASSERT(head_before && head_after && !strcmp(head_before, head_after));
	char *status = git_out(r.repo, "status --porcelain");
	CU_ASSERT_STRING_EQUAL(status ? status : "", "?? .klang/\n");
	/* clang 9, patch 4 fixed in 5: patches 1, 5, 7, 8, 10 kept, and 2 by
	 * hand when A, asked, replaced the branch */
	const char *branch = "klang/test-stack/clang-9";
	for (int i = 1; i <= SERIES_REPO_PATCHES; i++) {
		char *path = xasprintf("p%d.c", i), *got = series_repo_cat(r.repo, branch, path);
		bool kept = i == 1 || i == 2 || i == 5 || i == 7 || i == 8 || i == 10;
		CU_ASSERT_EQUAL(got != NULL, kept);
		free(got);
		free(path);
	}
	char *dir = xasprintf("%s/.klang/export/test-stack-clang-9-mbox", r.repo);
	CU_ASSERT_EQUAL(count_files(dir, ".patch"), 6);
	/* patch 2's override (u cleared it, Space made it again) and patch 4's
	 * "fixed in 5" are stored */
	char *ov = xasprintf("%s/.klang/overrides.yaml", r.repo);
	struct kerr e;
	char *text = read_file(ov, NULL, &e);
	CU_ASSERT(text && strstr(text, r.ids[1]) && strstr(text, r.ids[3]));
	free(text);
	free(ov);
	free(dir);
	free(status);
	free(head);
	free(head_after);
	free(head_before);
	free(env);
	free(args);
	series_repo_free(&r);
}

/* An override set with Space is in .klang/overrides.yaml and still there
 * when klang starts again. */
static void test_series_restart(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	char *args = xasprintf("--patchset '%s'", r.patchset), *env = series_env(NULL);
	run_case("series-override", NULL, args, env);
	char *ov = xasprintf("%s/.klang/overrides.yaml", r.repo);
	struct kerr e;
	char *text = read_file(ov, NULL, &e);
	CU_ASSERT(text && strstr(text, r.ids[1]) && strstr(text, "decision: keep"));
	run_case("series-restart", NULL, args, env);
	free(text);
	free(ov);
	free(env);
	free(args);
	series_repo_free(&r);
}

/* No clang found: the column says so, Space refuses, a typed version
 * decides. */
static void test_series_no_clang(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	char *args = xasprintf("--patchset '%s'", r.patchset);
	char *env = series_env("CC=klang-no-such-clang");
	run_case("series-noclang", NULL, args, env);
	free(env);
	free(args);
	series_repo_free(&r);
}

/* A broken overrides file: klang still opens, names the file, line and
 * column, and moves the file aside as overrides.yaml.corrupt. */
static void test_series_broken_store(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	struct kerr e;
	char *dir = xasprintf("%s/.klang", r.repo), *ov = xasprintf("%s/overrides.yaml", dir);
	const char *broken = "overrides:\n  - commit: [\n";
	CU_ASSERT_EQUAL(mkdir_p(dir, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(ov, broken, strlen(broken), &e), 0);
	char *outdir = test_tmpdir();
	char *script = write_script(outdir, ":resize 250x24\n:save-display after\n");
	char *args = xasprintf("--patchset '%s'", r.patchset), *env = series_env(NULL);
	CU_ASSERT_EQUAL(run_klang(script, NULL, args, env, outdir, NULL), 0);
	char *after = xasprintf("%s/after", outdir);
	char *moved = xasprintf("%s.corrupt", ov);
	char *screen = read_file(after, NULL, &e), *text = read_file(moved, NULL, &e);
	if (screen && !strstr(screen, "overrides.yaml:3:1"))
		fprintf(stderr, "%s\n", screen);
	CU_ASSERT(screen && strstr(screen, "overrides.yaml:3:1"));
	/* the broken file is moved aside, never lost (reliability issue) */
	CU_ASSERT_STRING_EQUAL(text ? text : "", broken);
	free(moved);
	free(text);
	free(screen);
	free(after);
	free(env);
	free(args);
	free(script);
	test_rmdir(outdir);
	free(outdir);
	free(ov);
	free(dir);
	series_repo_free(&r);
}

/* A stack read from a real ClangBuiltLinux mbox opens in the workbench, and
 * the patch view shows its message. */
static void test_mbox_stack(void)
{
	char *outdir = test_tmpdir();
	char *script =
	    write_script(outdir, ":resize 120x30\n<Down><Down><Enter>\n:save-display after\n");
	char *mbox = xasprintf("%s/tests/fixtures/patches/cbl-ci2__mainline.mbox", test_src_dir());
	char *args = xasprintf("--mbox '%s'", mbox);
	CU_ASSERT_EQUAL(run_klang(script, NULL, args, NULL, outdir, NULL), 0);
	char *after = xasprintf("%s/after", outdir);
	struct kerr e;
	char *screen = read_file(after, NULL, &e);
	CU_ASSERT(screen && strstr(screen, "4 patches"));
	CU_ASSERT(screen && strstr(screen, "block: Disable BLK_DEV_NBD with clang <= 13"));
	CU_ASSERT(screen && strstr(screen, "Author: Nathan Chancellor"));
	free(screen);
	free(after);
	free(args);
	free(mbox);
	free(script);
	test_rmdir(outdir);
	free(outdir);
}

/* The warnings view on the real x86 tinyconfig logs: the clang-only rows by
 * group, Enter opens the source pane, s shows the gcc-only ones. Keys typed
 * ahead, before the view has been drawn once, act on the loaded view. */
static void test_warnings_view(void)
{
	char *outdir = test_tmpdir();
	char *gcc = dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log");
	char *clang = dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log");
	char *args = xasprintf("--gcc-log '%s' --clang-log '%s'", gcc, clang);
	char *script = write_script(outdir, "4\n:save-display w1\nj\n<Enter>\n"
					    ":save-display w2\ns\n:save-display w3\n");
	CU_ASSERT_EQUAL(run_klang(script, repo_dir, args, NULL, outdir, NULL), 0);
	const char *names[] = {"w1", "w2", "w3"};
	char *screen[3];
	for (int i = 0; i < 3; i++) {
		char *path = xasprintf("%s/%s", outdir, names[i]);
		screen[i] = read_or_empty(path);
		free(path);
	}
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(screen[0], "[warnings] clang-only: 2 clang-only, 5 gcc-only"));
	CU_ASSERT_PTR_NOT_NULL(strstr(screen[0], "unused (1)"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(screen[0],
		   "  +   1 new arch/x86/kernel/cpu/cacheinfo.c:730:15 -Wunused-but-set-variable"));
	CU_ASSERT_PTR_NOT_NULL(strstr(screen[1], "[source]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(screen[1], "include/linux/sunrpc/xdr.h:752:10: result of"));
	/* the source pane's status bar is the warnings view's: the diagnostic */
	CU_ASSERT_PTR_NOT_NULL(strstr(screen[1], "\nresult of comparison of constant "));
	CU_ASSERT_PTR_NOT_NULL(strstr(screen[2], "[warnings] gcc-only:"));
	CU_ASSERT_PTR_NULL(strstr(screen[2], "cacheinfo.c:730:15"));
	for (int i = 0; i < 3; i++)
		free(screen[i]);
	free(script);
	script = write_script(outdir, ":type 4sss/kernel/exit.c<Enter>\n:save-display w4\n");
	CU_ASSERT_EQUAL(run_klang(script, repo_dir, args, NULL, outdir, NULL), 0);
	char *path = xasprintf("%s/w4", outdir);
	char *ahead = read_or_empty(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(ahead, "[warnings] all: 2 clang-only, 5 gcc-only"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ahead, "/kernel/exit.c: match 1 of 1, line "));
	CU_ASSERT_PTR_NULL(strstr(ahead, "no match"));
	if (!strstr(ahead, "/kernel/exit.c: match 1 of 1, line "))
		fprintf(stderr, "typed ahead:\n%s\n", ahead);
	free(ahead);
	free(path);
	free(script);
	free(args);
	free(gcc);
	free(clang);
	test_rmdir(outdir);
	free(outdir);
}

/* Enter on a Kconfig warning shows the line of the build's .config (beside
 * the log) that sets the symbol it names, not the line of a config Kconfig
 * was merging then. */
static void test_kconfig_source(void)
{
	char *outdir = test_tmpdir(), *logs = test_tmpdir();
	char *gcc = xasprintf("%s/gcc.log", logs), *clang = xasprintf("%s/clang.log", logs),
	     *config = xasprintf("%s/.config", logs);
	const char *gtext = "  CC      kernel/fork.o\n",
		   *ctext = ".config:1309:warning: override: UNWINDER_GUESS changes choice state\n",
		   *ctext2 = "#\n# x86 Debugging\n#\n# CONFIG_UNWINDER_ORC is not set\n"
			     "CONFIG_UNWINDER_GUESS=y\n# end of x86 Debugging\n";
	struct kerr e;
	CU_ASSERT_FATAL(!write_file_atomic(gcc, gtext, strlen(gtext), &e) &&
			!write_file_atomic(clang, ctext, strlen(ctext), &e) &&
			!write_file_atomic(config, ctext2, strlen(ctext2), &e));
	char *args = xasprintf("--gcc-log '%s' --clang-log '%s'", gcc, clang);
	char *script = write_script(outdir, "4\nj\n<Enter>\n:save-display k1\n"), *err = NULL;
	int rc = run_klang(script, repo_dir, args, NULL, outdir, &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\nkconfig source: exit %d: %s\n", rc, err);
	free(err);
	char *path = xasprintf("%s/k1", outdir), *screen = read_or_empty(path);
	char *want = xasprintf("showing %s:5, where the build's .config sets it", config);
	CU_ASSERT_PTR_NOT_NULL(screen && strstr(screen, want));
	CU_ASSERT_PTR_NOT_NULL(screen && strstr(screen, ">     5  CONFIG_UNWINDER_GUESS=y"));
	free(want); /* the pane's title names it too (e, B and y act on it) */
	want = xasprintf("[source] %s:5 ", config);
	CU_ASSERT_PTR_NOT_NULL(screen && strstr(screen, want));
	if (!screen || !strstr(screen, want))
		fprintf(stderr, "kconfig source:\n%s\n", screen ? screen : "(none)");
	free(want);
	free(screen);
	free(path);
	free(script);
	free(args);
	free(config);
	free(clang);
	free(gcc);
	test_rmdir(logs);
	free(logs);
	test_rmdir(outdir);
	free(outdir);
}

/* The builds view on the demo workspace: b builds the arm64/x86_64 x llvm/gcc
 * matrix for real, the rows go from building to ok, the log tail shows. */
static void test_builds_view(void)
{
	char *outdir = test_tmpdir();
	char *dir = xasprintf("%s/demo", outdir);
	char *src = xasprintf("%s/patchsets/demo", test_src_dir());
	struct demo_info info;
	struct kerr e;
	int rc = demo_prepare(dir, src, &info, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "3\n:save-display idle\nb\n:wait 300\n:save-display started\n");
	for (int i = 0; i < 20; i++)
		sb_addf(&sb, ":wait 2000\n:save-display s%02d\n", i);
	sb_adds(&sb, ":resize 120x30\n:save-display wide\n<Enter>\n:save-display enter\n");
	char *script = write_script(outdir, sb.buf);
	char *cmd = xasprintf("cd '%s' && env TERM=xterm-256color LANG=C.UTF-8 HOME='%s' "
			      "KLANG_SCRIPT='%s' '%s' --repo '%s'",
			      outdir, outdir, script, test_klang_bin(), dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	const char *rows[] = {"arm64-llvm", "arm64-gcc", "x86_64-llvm", "x86_64-gcc"};
	char *idle = xasprintf("%s/idle", outdir), *started = xasprintf("%s/started", outdir);
	char *last = xasprintf("%s/s19", outdir);
	char *t_idle = read_or_empty(idle), *t_started = read_or_empty(started);
	char *t_last = read_or_empty(last);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t_idle);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t_started);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t_last);
	CU_ASSERT_PTR_NOT_NULL(strstr(t_idle, "arm64-llvm    idle (b to start)"));
	CU_ASSERT_PTR_NULL(strstr(t_started, "idle (b to start)"));
	for (size_t i = 0; i < 4; i++) {
		char *want = xasprintf("%-14sok ", rows[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(t_last, want));
		if (!strstr(t_last, want))
			fprintf(stderr, "builds view, last screen:\n%s\n", t_last);
		free(want);
	}
	/* 80 columns: a percentage; 120: the bar */
	CU_ASSERT_PTR_NOT_NULL(strstr(t_last, "ok           100%        28 obj "));
	char *wide = xasprintf("%s/wide", outdir), *t_wide = read_or_empty(wide);
	CU_ASSERT_PTR_NOT_NULL(strstr(t_wide, "ok          [####################]        28 obj "));
	free(t_wide);
	free(wide);
	/* a finished build has no eta */
	CU_ASSERT_PTR_NULL(strstr(t_last, " eta "));
	/* Enter: the warnings of the selected build's arch */
	char *enter = xasprintf("%s/enter", outdir), *t_enter = read_or_empty(enter);
	CU_ASSERT_PTR_NOT_NULL(strstr(t_enter, "[warnings] clang-only: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_enter, "; arch arm64, "));
	free(t_enter);
	free(enter);
	/* the status bar says they are done ("builds: 4 started" is gone) */
	CU_ASSERT_PTR_NOT_NULL(strstr(t_last, "builds: 4 done: 4 ok\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_last, "-- log of arm64-llvm --"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_last, "LD      vmlinux"));
	/* the next session shows what those builds left: outcome and log */
	free(script);
	sb_reset(&sb);
	sb_adds(&sb, "3\nj\n:save-display again\nr\n:wait 300\n:save-display one\n");
	for (int i = 0; i < 10; i++)
		sb_addf(&sb, ":wait 1000\n:save-display o%02d\n", i);
	script = write_script(outdir, sb.buf);
	char *touch = xasprintf("touch '%s/kernel/fork.c'", dir);
	CU_ASSERT_EQUAL(test_run(touch, NULL, NULL), 0);
	free(touch);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	char *again = xasprintf("%s/again", outdir), *t_again = read_or_empty(again);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(t_again, "arm64-llvm    idle (b to start)   last: ok, defconfig, "));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(t_again, "x86_64-gcc    idle (b to start)   last: ok, defconfig, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_again, "-- last log of arm64-gcc: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_again, "LD      vmlinux"));
	if (!strstr(t_again, "-- last log of arm64-gcc: "))
		fprintf(stderr, "builds view, next session:\n%s\n", t_again);
	/* r starts the selected build alone */
	char *one = xasprintf("%s/one", outdir), *t_one = read_or_empty(one);
	CU_ASSERT_PTR_NOT_NULL(strstr(t_one, "builds: starting arm64-gcc"));
	CU_ASSERT_PTR_NULL(strstr(t_one, "arm64-gcc     idle"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_one, "arm64-llvm    idle (b to start)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t_one, "x86_64-gcc    idle (b to start)"));
	/* rerun after one source changed, its total known from the first
	 * run: Kbuild compiles the one again; finished, the count it reached */
	bool done = false;
	for (int i = 0; i < 10 && !done; i++) {
		char *o = xasprintf("%s/o%02d", outdir, i), *t_o = read_or_empty(o);
		if (t_o && strstr(t_o, "arm64-gcc     ok ")) {
			done = true;
			CU_ASSERT_PTR_NOT_NULL(strstr(t_o, "         1 obj "));
			/* its row counts that object's warnings; the status bar says
			 * where the rest are */
			CU_ASSERT_PTR_NOT_NULL(strstr(
			    t_o, "builds: 1 done: 1 ok; 1 incremental: press 4 for the warnings"));
			CU_ASSERT_PTR_NULL(strstr(t_o, "/28 obj"));
		}
		free(t_o);
		free(o);
	}
	CU_ASSERT_TRUE(done);
	/* Q with builds running asks first; n stays, y cancels them and quits
	 * (every object includes kconfig.h: they are all compiled again) */
	free(script);
	touch = xasprintf("touch '%s/include/linux/kconfig.h'", dir);
	CU_ASSERT_EQUAL(test_run(touch, NULL, NULL), 0);
	free(touch);
	script = write_script(outdir, "3\nb\n:wait 300\nQ\n:save-display ask\nn\n"
				      ":save-display stay\nQ\ny\n:save-display after\n");
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	char *ask = xasprintf("%s/ask", outdir), *t_ask = read_or_empty(ask);
	char *stay = xasprintf("%s/stay", outdir), *t_stay = read_or_empty(stay);
	char *after = xasprintf("%s/after", outdir);
	CU_ASSERT(t_ask && strstr(t_ask, "\n4 builds running: cancel them and quit? y/N"));
	CU_ASSERT(t_stay && strstr(t_stay, "[builds]") && !strstr(t_stay, "y/N"));
	CU_ASSERT_FALSE(file_exists(after));
	free(t_ask);
	free(t_stay);
	free(ask);
	free(stay);
	free(after);
	free(t_one);
	free(one);
	free(t_again);
	free(again);
	free(t_idle);
	free(t_started);
	free(t_last);
	free(idle);
	free(started);
	free(last);
	free(cmd);
	free(script);
	sb_free(&sb);
	demo_info_free(&info);
	free(src);
	free(dir);
	test_rmdir(outdir);
	free(outdir);
}

void suite_screen(void)
{
	CU_pSuite s = CU_add_suite("screen", setup, teardown);
	CU_add_test(s, "stack view: counts, badges, UTF-8 authors", test_stack_view);
	CU_add_test(s, "tag filters: keys and picker", test_filter);
	CU_add_test(s, "patch view: split, J/K, scrolling", test_patch_view);
	CU_add_test(s, "search with n/N", test_search);
	CU_add_test(s, "the patch pane takes the stack's keys", test_pane_keys);
	CU_add_test(s, "help from the action table", test_help);
	CU_add_test(s, "Esc closes help, pickers and panes", test_esc);
	CU_add_test(s, "resize and mouse", test_resize_mouse);
	CU_add_test(s, "themes: colours, NO_COLOR, projector", test_colors);
	CU_add_test(s, "patchset with an extra tag", test_patchset);
	CU_add_test(s, "empty stack", test_empty);
	CU_add_test(s, "user key file", test_user_keys);
	CU_add_test(s, "q quits", test_quit);
	CU_add_test(s, "SIGTERM", test_sigterm);
	CU_add_test(s, "bad input", test_errors);
	CU_add_test(s, "series: keep/drop, override, Clang picker, apply, export",
		    test_series_view);
	CU_add_test(s, "series: an override survives a restart", test_series_restart);
	CU_add_test(s, "series: no clang until one is picked", test_series_no_clang);
	CU_add_test(s, "series: a broken overrides file", test_series_broken_store);
	CU_add_test(s, "a stack from an mbox", test_mbox_stack);
	CU_add_test(s, "warnings view on the x86 tinyconfig logs", test_warnings_view);
	CU_add_test(s, "a Kconfig warning shows the build's .config", test_kconfig_source);
	CU_add_test(s, "builds view: b builds the matrix, rows reach ok", test_builds_view);
}
