/* Tests for core/config: the user's and the repository's files merged over
 * the defaults, errors with their place, and --dump-config reading back. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/gitwrite.h"
#include "tests/helpers.h"

static void put(const char *dir, const char *rel, const char *text)
{
	struct kerr e;
	char *path = xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	CU_ASSERT_EQUAL_FATAL(mkdir_p(path, &e), 0);
	*slash = '/';
	CU_ASSERT_EQUAL_FATAL(write_file_atomic(path, text, strlen(text), &e), 0);
	free(path);
}

/* Point XDG_CONFIG_HOME at `home`; returns the old value for xdg_restore. */
static char *xdg_set(const char *home)
{
	char *old = getenv("XDG_CONFIG_HOME") ? xstrdup(getenv("XDG_CONFIG_HOME")) : NULL;
	setenv("XDG_CONFIG_HOME", home, 1);
	return old;
}

static void xdg_restore(char *old)
{
	if (old)
		setenv("XDG_CONFIG_HOME", old, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(old);
}

static bool known_action(const char *name)
{
	return !strcmp(name, "quit") || !strcmp(name, "stack-next") || !strcmp(name, "copy-id");
}

static bool known_key(const char *name)
{
	return strlen(name) == 1 || name[0] == '<' || !strncmp(name, "C-", 2);
}

static const char *scope_of(const char *action)
{
	return str_startswith(action, "stack-") ? "stack" : NULL;
}

static const struct config_checks checks = {known_action, known_key};

static void test_merge_user_and_repo(void)
{
	char *home = test_tmpdir(), *repo = test_tmpdir();
	char *old = xdg_set(home);
	struct kerr e;
	git_repository *r;
	CU_ASSERT_EQUAL_FATAL(gw_init(repo, &r, &e), 0);
	git_repository_free(r);
	put(home, "klang/config.yaml",
	    "# mine\ntheme: projector\neditor: nvim\njobs: 12\narches: [arm64, riscv]\n"
	    "toolchains: llvm, gcc\nwrapper: ccache\nbindings:\n  quit: Q\n"
	    "  stack-next: [j, <Down>]\n");
	put(repo, ".klang/config.yaml",
	    "theme: mono\nconfig: allmodconfig\nbindings:\n  quit: [q, C-c]\n"
	    "make: [W=1, KCFLAGS=-O2 -g]\n");

	struct config c = {0};
	config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(config_load(&c, repo, &checks, &e), 0);
	CU_ASSERT_STRING_EQUAL(c.theme, "mono"); /* the repository wins */
	CU_ASSERT_STRING_EQUAL(c.editor, "nvim");
	CU_ASSERT_EQUAL(c.jobs, 12);
	CU_ASSERT_EQUAL_FATAL(c.narches, 2);
	CU_ASSERT_STRING_EQUAL(c.arches[1], "riscv");
	CU_ASSERT_EQUAL_FATAL(c.ntoolchains, 2);
	CU_ASSERT_STRING_EQUAL(c.toolchains[0], "llvm");
	CU_ASSERT_STRING_EQUAL(c.config_target, "allmodconfig");
	CU_ASSERT_STRING_EQUAL(c.wrapper, "ccache");
	CU_ASSERT_EQUAL_FATAL(c.nmakevars, 2);
	CU_ASSERT_STRING_EQUAL(c.makevars[1], "KCFLAGS=-O2 -g"); /* kept whole */
	CU_ASSERT_EQUAL(c.nfiles, 2);
	const struct config_binding *b = config_binding(&c, "quit");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(b->nkeys, 2);
	CU_ASSERT_STRING_EQUAL(b->keys[1], "C-c");
	CU_ASSERT_TRUE(str_endswith(b->origin, ".klang/config.yaml:4:3"));
	b = config_binding(&c, "stack-next");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->keys[1], "<Down>");
	CU_ASSERT_PTR_NULL(config_binding(&c, "copy-id"));
	char *kf = config_keyfile(&c, scope_of);
	CU_ASSERT_STRING_EQUAL(kf, "bind generic q quit\nbind generic C-c quit\n"
				   "bind stack j stack-next\nbind stack <Down> stack-next\n");
	free(kf);

	/* --dump-config reads back to the same settings */
	char *dump = config_dump(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "theme: mono\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "arches: [arm64, riscv]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "  quit: [q, C-c]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "make: [W=1, KCFLAGS=-O2 -g]\n"));
	struct config back = {0};
	CU_ASSERT_EQUAL(config_load_text(&back, dump, strlen(dump), "dump", &checks, &e), 0);
	char *dump2 = config_dump(&back);
	CU_ASSERT_STRING_EQUAL(strstr(dump2, "theme:"), strstr(dump, "theme:"));
	free(dump2);
	free(dump);
	config_free(&back);
	config_free(&c);

	xdg_restore(old);
	test_rmdir(home);
	test_rmdir(repo);
	free(home);
	free(repo);
}

/* The repository's file is found from any directory below its top, in a
 * work tree whose .git is a directory or a file (git worktree), and not
 * from a directory outside any repository. */
static void test_found_from_below(void)
{
	char *home = test_tmpdir(), *top = test_tmpdir();
	char *old = xdg_set(home);
	put(top, "main/.git/HEAD", "ref: refs/heads/main\n");
	put(top, "main/.klang/config.yaml", "theme: mono\n");
	put(top, "main/drivers/gpu/x.c", "");
	put(top, "wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
	put(top, "wt/.klang/config.yaml", "theme: projector\n");
	put(top, "wt/kernel/y.c", "");
	put(top, "plain/z.c", "");
	const char *where[][2] = {{"main/drivers/gpu", "mono"},
				  {"main", "mono"},
				  {"wt/kernel", "projector"},
				  {"plain", NULL}};
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		char *dir = xasprintf("%s/%s", top, where[i][0]);
		struct config c = {0};
		struct kerr e;
		config_defaults(&c);
		CU_ASSERT_EQUAL(config_load(&c, dir, &checks, &e), 0);
		if (where[i][1]) {
			CU_ASSERT_STRING_EQUAL(c.theme ? c.theme : "(none)", where[i][1]);
		} else {
			CU_ASSERT_PTR_NULL(c.theme);
		}
		config_free(&c);
		free(dir);
	}
	xdg_restore(old);
	test_rmdir(home);
	test_rmdir(top);
	free(home);
	free(top);
}

static void expect_error(const char *text, const char *want)
{
	struct config c = {0};
	struct kerr e;
	config_defaults(&c);
	CU_ASSERT_EQUAL(config_load_text(&c, text, strlen(text), "cfg.yaml", &checks, &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	/* nothing of a broken file is kept */
	CU_ASSERT_PTR_NULL(c.theme);
	CU_ASSERT_EQUAL(c.nbindings, 0);
	config_free(&c);
}

static void test_errors(void)
{
	expect_error("theme: x\n\ncolour: red\n", "cfg.yaml:3:1: unknown key 'colour'");
	expect_error("jobs: many\n", "cfg.yaml:1:7: 'jobs' takes a number from 1 to 4096");
	expect_error("wrapper: sccache2\n",
		     "cfg.yaml:1:10: wrapper 'sccache2': use ccache, distcc, icecc or none");
	expect_error("arches: {a: b}\n", "cfg.yaml:1:9: 'arches' takes a list of arch names");
	expect_error("toolchains: []\n",
		     "cfg.yaml:1:13: 'toolchains' takes at least one toolchain name");
	expect_error("arches: [arm64, 'x 86']\n", "cfg.yaml:1:9: unknown arch 'x 86' in 'arches'");
	expect_error(
	    "theme: [a\n",
	    "cfg.yaml:2:1: did not find expected ',' or ']' while parsing a flow sequence");
	expect_error("bindings:\n  qiut: q\n", "cfg.yaml:2:3: unknown action 'qiut'");
	/* make: [] clears the list of a file read before */
	struct config c = {0};
	struct kerr e;
	config_defaults(&c);
	const char *a = "make: [W=1]\n", *b = "make: []\n";
	CU_ASSERT_EQUAL(config_load_text(&c, a, strlen(a), "user", &checks, &e), 0);
	CU_ASSERT_EQUAL(c.nmakevars, 1);
	CU_ASSERT_EQUAL(config_load_text(&c, b, strlen(b), "repo", &checks, &e), 0);
	CU_ASSERT_EQUAL(c.nmakevars, 0);
	config_free(&c);
	expect_error("make: [W=1, -j8]\n", "cfg.yaml:1:7: 'make': '-j8' is not NAME=VALUE");
	expect_error("make: {W: 1}\n", "cfg.yaml:1:7: 'make' takes a list of NAME=VALUE");
	expect_error("bindings:\n  quit: [q, Hyper-x]\n",
		     "cfg.yaml:2:9: 'quit': unknown key 'Hyper-x'");
	expect_error("- a\n- b\n", "cfg.yaml:1:1: expected settings (key: value)");
	expect_error("theme: x\nbindings: q\n",
		     "cfg.yaml:2:11: 'bindings' takes a mapping of action: key");
}

static void test_quoting_and_unbinding(void)
{
	struct config c = {0};
	struct kerr e;
	const char *text = "# only comments here\n";
	CU_ASSERT_EQUAL(config_load_text(&c, text, strlen(text), "empty.yaml", NULL, &e), 0);
	CU_ASSERT_EQUAL(config_load_file(&c, "/nonexistent/config.yaml", NULL, &e), 0);
	text = "bindings:\n  quit: none\n  stack-next: ['#', ':', '''', 'C-]', '-', 'yes']\n"
	       "editor: 'emacs -nw'\n";
	CU_ASSERT_EQUAL_FATAL(config_load_text(&c, text, strlen(text), "q.yaml", NULL, &e), 0);
	CU_ASSERT_EQUAL(config_binding(&c, "quit")->nkeys, 0);
	char *dump = config_dump(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "  quit: []\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "  stack-next: ['#', ':', '''', 'C-]', '-', 'yes']\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "editor: emacs -nw\n"));
	struct config back = {0};
	CU_ASSERT_EQUAL(config_load_text(&back, dump, strlen(dump), "dump", NULL, &e), 0);
	const struct config_binding *b = config_binding(&back, "stack-next");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(b->nkeys, 6);
	CU_ASSERT_STRING_EQUAL(b->keys[2], "'");
	CU_ASSERT_STRING_EQUAL(b->keys[3], "C-]");
	CU_ASSERT_STRING_EQUAL(b->keys[5], "yes");
	free(dump);
	config_free(&back);
	config_free(&c);

	setenv("XDG_CONFIG_HOME", "relative/dir", 1); /* ignored, as the spec says */
	char *p = config_user_path();
	CU_ASSERT_TRUE(str_endswith(p, "/.config/klang/config.yaml"));
	free(p);
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	p = config_user_path();
	CU_ASSERT_STRING_EQUAL(p, "/x/cfg/klang/config.yaml");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
}

void suite_config(void)
{
	CU_pSuite s = CU_add_suite("config", NULL, NULL);
	CU_add_test(s, "user file, repository file, dump reads back", test_merge_user_and_repo);
	CU_add_test(s, "the repository's file found from below its top", test_found_from_below);
	CU_add_test(s, "errors name file:line:col and keep nothing", test_errors);
	CU_add_test(s, "quoting, unbinding, missing and empty files", test_quoting_and_unbinding);
}
