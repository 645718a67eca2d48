/* Tests for the workbench's links and clipboard (tui/links.c), headless: a
 * patch's Link:/Closes: trailers shown in the patch view and the stack's
 * status bar, y and Y copying the patch id and each link through OSC 52 (the
 * escape sequences read from the terminal side), a key rebound in the
 * repository's .klang/config.yaml, and the stack from an mbox. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/osc52.h"
#include "tests/helpers.h"
#include "tests/localfix.h"

static const char *const link1 = "https://lore.kernel.org/r/20230314-clang-wa-v3-7@kernel.org";
static const char *const link2 = "https://github.com/ClangBuiltLinux/linux/issues/1438";

/* DIR/repo: v1, then a patch with two links and one with none. */
static void make_repo(const char *dir, char id[41])
{
	struct kerr e;
	git_repository *r;
	char *repo = xasprintf("%s/repo", dir);
	CU_ASSERT_EQUAL_FATAL(gw_init(repo, &r, &e), 0);
	struct gw_file f0[] = {{"a.c", "int a;\n", 0}}, f1[] = {{"a.c", "int a, b;\n", 0}},
		       f2[] = {{"b.c", "int b;\n", 0}};
	char *msg = xasprintf("HACK: block: Disable BLK_DEV_NBD with clang <= 13\n\nWhy.\n\n"
			      "Link: %s\nCloses: %s\nSigned-off-by: A <a@example.org>\n",
			      link1, link2);
	struct gw_commit c0 = {.ref = "refs/heads/main",
			       .files = f0,
			       .nfiles = 1,
			       .message = "base\n"},
			 c1 = {.ref = "refs/heads/main", .files = f1, .nfiles = 1, .message = msg},
			 c2 = {.ref = "refs/heads/main",
			       .files = f2,
			       .nfiles = 1,
			       .message = "FROMLIST: b: add b\n",
			       .time = 1700000100};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c0, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1", "main", &e), 0);
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c1, id, &e), 0);
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c2, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_checkout(r, "main", &e), 0);
	git_repository_free(r);
	free(msg);
	free(repo);
}

/* Run the workbench headless on `args` with `script`; its standard output
 * (the terminal side: the OSC 52 sequences) is returned. */
static char *run_script(const char *dir, const char *args, const char *script)
{
	struct kerr e;
	char *path = xasprintf("%s/keys.script", dir);
	CU_ASSERT_EQUAL(write_file_atomic(path, script, strlen(script), &e), 0);
	char *cmd = xasprintf("cd '%s' && env -u TMUX -u STY -u NO_COLOR LINES=30 COLUMNS=160 "
			      "TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME='%s' "
			      "XDG_CONFIG_HOME='%s' KLANG_SCRIPT='%s' '%s' %s",
			      dir, dir, dir, path, test_klang_bin(), args);
	char *out, *err;
	int rc = test_run(cmd, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "%s: %s", cmd, err);
	free(err);
	free(cmd);
	free(path);
	return out;
}

static char *screen(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = read_file(path, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL(text);
	free(path);
	return text ? text : xstrdup("");
}

static void expect_in(const char *text, const char *want)
{
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	if (!strstr(text, want))
		fprintf(stderr, "'%s' not in:\n%s\n", want, text);
}

/* The bytes a terminal gets for copying `text` (outside tmux and screen). */
static char *osc52_of(const char *text)
{
	return osc52_sequence(text, strlen(text), OSC52_PLAIN);
}

static void test_links_and_copy(void)
{
	char *dir = test_tmpdir();
	char id[41];
	make_repo(dir, id);
	char *out = run_script(dir, "--repo repo --base v1",
			       "# the patch with links, its status, then y, Y, Y, Y\n"
			       ":save-display s1\n"
			       "2\n"
			       ":save-display s2\n"
			       "y\n:save-display s3\n"
			       "Y\n:save-display s4\n"
			       "Y\nY\n:save-display s5\n"
			       "J\nY\n:save-display s6\n"
			       "q\n");
	char *s1 = screen(dir, "s1"), *s2 = screen(dir, "s2"), *s3 = screen(dir, "s3"),
	     *s4 = screen(dir, "s4"), *s5 = screen(dir, "s5"), *s6 = screen(dir, "s6");
	/* the stack's status bar names the selected patch's first link */
	char *st = xasprintf("Link: %s +1", link1);
	expect_in(s1, st);
	/* the patch view lists every link under the header */
	char *l1 = xasprintf("\nLink:   %s\n", link1), *l2 = xasprintf("\nCloses: %s\n", link2);
	expect_in(s2, l1);
	expect_in(s2, l2);
	char *c1 = xasprintf("copied patch id: %s", id);
	expect_in(s3, c1);
	char *c2 = xasprintf("copied Link 1/2: %s", link1), *c3 = xasprintf("copied Link 1/2");
	expect_in(s4, c2);
	/* Y again: the next link, then the first again */
	expect_in(s5, c3);
	expect_in(s6, "patch 2 has no Link:, Closes: or BugLink: trailer");
	/* what the terminal received, in order: id, link 1, link 2, link 1 */
	char *seq[] = {osc52_of(id), osc52_of(link1), osc52_of(link2), osc52_of(link1)};
	const char *at = out;
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
		const char *f = strstr(at, seq[i]);
		CU_ASSERT_PTR_NOT_NULL(f);
		at = f ? f + strlen(seq[i]) : at;
		free(seq[i]);
	}
	CU_ASSERT_PTR_NULL(strstr(at, "\033]52;"));
	free(c1);
	free(c2);
	free(c3);
	free(l1);
	free(l2);
	free(st);
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	free(s5);
	free(s6);
	free(out);
	test_rmdir(dir);
	free(dir);
}

/* copy rebound in the repository's .klang/config.yaml: the new key copies,
 * the default one still does too (defaults stay bound). */
static void test_config_keys(void)
{
	char *dir = test_tmpdir();
	char id[41];
	struct kerr e;
	make_repo(dir, id);
	char *cfgdir = xasprintf("%s/repo/.klang", dir), *cfg = xasprintf("%s/config.yaml", cfgdir);
	const char *text = "bindings:\n  copy: [<C-y>, x]\n  copy-link: <F5>\n";
	CU_ASSERT_EQUAL(mkdir_p(cfgdir, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(cfg, text, strlen(text), &e), 0);
	char *out = run_script(dir, "--repo repo --base v1",
			       "x\n:save-display s1\n<F5>\n:save-display s2\nq\n");
	char *s1 = screen(dir, "s1"), *s2 = screen(dir, "s2");
	char *c1 = xasprintf("copied patch id: %s", id),
	     *c2 = xasprintf("copied Link 1/2: %s", link1);
	expect_in(s1, c1);
	expect_in(s2, c2);
	char *seq = osc52_of(id);
	expect_in(out, seq);
	free(seq);
	free(c1);
	free(c2);
	free(s1);
	free(s2);
	free(out);
	free(cfg);
	free(cfgdir);
	test_rmdir(dir);
	free(dir);
}

/* The same in a real terminal: tmux, keys sent as a user types them, the
 * copy going through tmux's buffer (tmux load-buffer -w). */
static void test_tmux(void)
{
	char *out, *err;
	if (test_run("command -v tmux", &out, &err) != 0) {
		free(out);
		free(err);
		return; /* no tmux: nothing to drive */
	}
	free(out);
	free(err);
	char *dir = test_tmpdir();
	char id[41];
	struct kerr e;
	make_repo(dir, id);
	char *cfg = xasprintf("%s/repo/.klang/config.yaml", dir),
	     *cfgdir = xasprintf("%s/repo/.klang", dir);
	const char *text = "bindings:\n  next-patch: <C-n>\n  copy: <C-y>\n  quit: x\n";
	CU_ASSERT_EQUAL(mkdir_p(cfgdir, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(cfg, text, strlen(text), &e), 0);
	/* a server of its own (-S socket in dir); wait for text, never a fixed sleep */
	char *cmd = xasprintf(
	    "cd '%s' && t() { tmux -S '%s/tmux.sock' \"$@\"; } && "
	    "w() { for i in $(seq 100); do t capture-pane -p -t k | grep -qF -- \"$1\" && return; "
	    "sleep 0.05; done; echo \"timeout: $1\"; t capture-pane -p -t k; return 1; } && "
	    "t -f /dev/null new -d -s k -x 160 -y 45 \"env -u TMUX_PANE XDG_CONFIG_HOME='%s' "
	    "HOME='%s' TERM=screen-256color '%s' --repo repo --base v1; echo EXIT=\\$?; sleep 9\" "
	    "&& "
	    "w '[stack] v1..HEAD' && t send-keys -t k 2 && w '[patch] 1/2' && "
	    "t send-keys -t k C-n && w '[patch] 2/2' && t send-keys -t k K C-y && "
	    "w 'copied patch id: %s' && t show-buffer && echo && t send-keys -t k x x && "
	    "w EXIT=0; rc=$?; t kill-server; exit $rc",
	    dir, dir, dir, dir, test_klang_bin(), id);
	int rc = test_run(cmd, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_TRUE(str_startswith(out, id)); /* the copy, from tmux's buffer */
	if (rc)
		fprintf(stderr, "%s\n%s%s", cmd, out, err);
	free(out);
	free(err);
	free(cmd);
	free(cfg);
	free(cfgdir);
	test_rmdir(dir);
	free(dir);
}

/* The workbench on a patch-file fixture: `keys` save screens s1 and s2,
 * which must hold each text of `want` (0 for s1, 1 for s2). */
struct want {
	int screen;
	const char *text;
};

static void on_fixture(const char *opt, const char *rel, const char *keys, const struct want *want,
		       size_t n)
{
	char *dir = test_tmpdir(), *path = test_local_fixture(rel);
	char *args = xasprintf("%s '%s'", opt, path);
	char *out = run_script(dir, args, keys);
	char *s[] = {screen(dir, "s1"), screen(dir, "s2")};
	for (size_t i = 0; i < n; i++)
		expect_in(s[want[i].screen], want[i].text);
	free(s[0]);
	free(s[1]);
	free(out);
	free(args);
	free(path);
	test_rmdir(dir);
	free(dir);
}

/* A real mbox (format-patch and MAILER-DAEMON separators): tags and the
 * Link: trailer of the CBL HACK patch. */
static void test_mbox_workbench(void)
{
	static const struct want want[] = {
	    {0, "[stack] cbl-ci2__mainline (patch files)  patch 3 of 4"},
	    {0, "1 keep    FROMGIT   4d2cb0a5ecda IB/qib: Fix clang confusion"},
	    {0, "Link: https://github.com/ClangBuiltLinux/linux/issues/1438"},
	    {1, "\nLink:   https://github.com/ClangBuiltLinux/linux/issues/1438\n"},
	    {1, "+       depends on !CC_IS_CLANG || CLANG_VERSION >= 140000"},
	};
	on_fixture("--mbox", "patches/cbl-ci2__mainline.mbox",
		   "jj\n:save-display s1\n2\n:save-display s2\nq\n", want, ARRAY_SIZE(want));
}

/* A quilt series with a missing and a reversed patch: the status bar says
 * so once the screen is up (the list went to stderr before). */
static void test_quilt_workbench(void)
{
	static const struct want want[] = {
	    {0, "[stack] quilt (patch files)  patch 1 of 5"},
	    {0, "\n2 patches not read: "},
	    {0, "quilt/series:11: no-such.patch: No such file or directory ..."},
	    {0, "3 keep    BACKPORT   FROMLIST  b081e2a9516b pwm: Add support for"},
	    {1, "Tags:    BACKPORT   FROMLIST\n"},
	    {1, "\nLink:   https://lore.kernel.org/lkml/1568415464-20267-1-git-send-email-"
		"gurus@codeaurora.org/\n"},
	};
	on_fixture("--quilt", "patches/quilt", ":save-display s1\njj2\n:save-display s2\nq\n", want,
		   ARRAY_SIZE(want));
}

void suite_habits(void)
{
	CU_pSuite s = CU_add_suite("habits", NULL, NULL);
	CU_add_test(s, "links shown, y and Y copy through OSC 52", test_links_and_copy);
	CU_add_test(s, "copy keys rebound in .klang/config.yaml", test_config_keys);
	CU_add_test(s, "keys from .klang/config.yaml and copy, in tmux", test_tmux);
	CU_add_test(s, "the workbench on a real mbox", test_mbox_workbench);
	CU_add_test(s, "the workbench on a quilt series, malformed named", test_quilt_workbench);
}
