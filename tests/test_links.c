/* Tests for core/links and core/osc52: tracker URLs, a patch's links, and
 * clipboard sequences as terminals, tmux and screen take them. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/links.h"
#include "core/mbox.h"
#include "core/osc52.h"
#include "tests/helpers.h"
#include "tests/localfix.h"

static void test_issue_urls(void)
{
	const char *cases[][2] = {
	    {"-Wframe-larger-than", CBL_ISSUES "?q=label%3A%22-Wframe-larger-than%22"},
	    {"[-Wsometimes-uninitialized]",
	     CBL_ISSUES "?q=label%3A%22-Wsometimes-uninitialized%22"},
	    {"-Werror=unused-but-set-variable",
	     CBL_ISSUES "?q=label%3A%22-Wunused-but-set-variable%22"},
	    {"-Wno-format", CBL_ISSUES "?q=label%3A%22-Wformat%22"},
	    {"Wimplicit-fallthrough", CBL_ISSUES "?q=label%3A%22-Wimplicit-fallthrough%22"},
	    {"objtool", CBL_ISSUES "?q=%22objtool%22"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *url = links_cbl_issue_url(cases[i][0]);
		CU_ASSERT_STRING_EQUAL(url, cases[i][1]);
		free(url);
	}
	char *enc = url_encode("a b/c=d\xc3\xa9~");
	CU_ASSERT_STRING_EQUAL(enc, "a%20b%2Fc%3Dd%C3%A9~");
	free(enc);
}

static void test_patch_links(void)
{
	struct patch_files pf = {0};
	struct kerr e;
	char *path = test_local_fixture("patches/cbl-ci2__mainline.mbox");
	CU_ASSERT_EQUAL_FATAL(mbox_read(&pf, path, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 4);
	struct patch_link *l;
	size_t n = links_patch(&pf.patches[3], &l);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(l[0].key, "Link");
	CU_ASSERT_STRING_EQUAL(l[0].url, "https://github.com/ClangBuiltLinux/linux/issues/1438");
	CU_ASSERT_STRING_EQUAL(
	    l[2].url, "https://lore.kernel.org/stable/"
		      "CAHk-=whiQBofgis_rkniz8GBP9wZtSZdcDEffgSLO62BUGV3gg@mail.gmail.com/");
	free(l);
	patch_files_free(&pf);
	free(path);

	/* a URL in the body is not a Link: trailer */
	path = test_local_fixture(
	    "patches/"
	    "cbl-ci2__android-mainline__0001-HACK-ARM-CURRENT_POINTER_IN_TPIDRURO-clang-14.patch");
	CU_ASSERT_EQUAL_FATAL(mbox_read(&pf, path, NULL, &e), 0);
	CU_ASSERT_EQUAL(links_patch(&pf.patches[0], &l), 0);
	free(l);
	patch_files_free(&pf);
	free(path);
}

static void test_osc52_sequences(void)
{
	const char *vec[][2] = {{"", ""},
				{"f", "Zg=="},
				{"fo", "Zm8="},
				{"foo", "Zm9v"},
				{"foob", "Zm9vYg=="},
				{"fooba", "Zm9vYmE="},
				{"foobar", "Zm9vYmFy"}};
	for (size_t i = 0; i < ARRAY_SIZE(vec); i++) {
		char *b = base64_encode(vec[i][0], strlen(vec[i][0]));
		CU_ASSERT_STRING_EQUAL(b, vec[i][1]);
		free(b);
	}
	char *s = osc52_sequence("4d2cb0a5", 8, OSC52_PLAIN);
	CU_ASSERT_STRING_EQUAL(s, "\033]52;c;NGQyY2IwYTU=\a");
	free(s);
	s = osc52_sequence("4d2cb0a5", 8, OSC52_TMUX);
	CU_ASSERT_STRING_EQUAL(s, "\033Ptmux;\033\033]52;c;NGQyY2IwYTU=\a\033\\");
	free(s);
	char big[200];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s = osc52_sequence(big, strlen(big), OSC52_SCREEN);
	CU_ASSERT_TRUE(str_startswith(s, "\033P\033]52;c;eHh4"));
	CU_ASSERT_TRUE(str_endswith(s, "\a\033\\"));
	/* every chunk short enough for screen */
	for (const char *p = s; (p = strstr(p, "\033P")); p += 2)
		CU_ASSERT_TRUE(strstr(p, "\033\\") - p <= 2 + 76);
	free(s);
}

static char *read_back(int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	return xstrndup(buf, n > 0 ? (size_t)n : 0);
}

static void test_osc52_copy(void)
{
	char *old_tmux = getenv("TMUX") ? xstrdup(getenv("TMUX")) : NULL;
	char *old_path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char *old_term = getenv("TERM") ? xstrdup(getenv("TERM")) : NULL;
	struct kerr e;
	int fds[2];
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);

	unsetenv("TMUX");
	unsetenv("STY");
	setenv("TERM", "xterm-256color", 1);
	CU_ASSERT_EQUAL(osc52_copy(fds[1], "arch/arm/Kconfig:1167", &e), 0);
	char *got = read_back(fds[0]);
	CU_ASSERT_STRING_EQUAL(got, "\033]52;c;YXJjaC9hcm0vS2NvbmZpZzoxMTY3\a");
	free(got);

	/* in tmux: `tmux load-buffer -w -` gets the text (a stand-in tmux here) */
	char *dir = test_tmpdir();
	char *script = xasprintf("%s/tmux", dir), *log = xasprintf("%s/log", dir);
	char *body = xasprintf("#!/bin/sh\necho \"$@\" > '%s'\ncat >> '%s'\n", log, log);
	CU_ASSERT_EQUAL_FATAL(write_file_atomic(script, body, strlen(body), &e), 0);
	chmod(script, 0755);
	char *path = xasprintf("%s:%s", dir, old_path);
	setenv("PATH", path, 1);
	setenv("TMUX", "/tmp/tmux-0/default,1,0", 1);
	CU_ASSERT_EQUAL(osc52_copy(fds[1], "https://lore.kernel.org/r/x", &e), 0);
	char *text = read_file(log, NULL, &e);
	CU_ASSERT_STRING_EQUAL(text, "load-buffer -w -\nhttps://lore.kernel.org/r/x");
	free(text);

	/* a tmux that refuses: both escape forms go to the terminal */
	body = (free(body), xstrdup("#!/bin/sh\nexit 1\n"));
	CU_ASSERT_EQUAL_FATAL(write_file_atomic(script, body, strlen(body), &e), 0);
	chmod(script, 0755);
	CU_ASSERT_EQUAL(osc52_copy(fds[1], "id", &e), 0);
	got = read_back(fds[0]);
	CU_ASSERT_STRING_EQUAL(got, "\033]52;c;aWQ=\a\033Ptmux;\033\033]52;c;aWQ=\a\033\\");
	free(got);

	char *huge = xmalloc(OSC52_MAX + 2);
	memset(huge, 'a', OSC52_MAX + 1);
	huge[OSC52_MAX + 1] = '\0';
	CU_ASSERT_EQUAL(osc52_copy(fds[1], huge, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "too much"));
	free(huge);

	setenv("PATH", old_path, 1);
	if (old_term)
		setenv("TERM", old_term, 1);
	else
		unsetenv("TERM");
	free(old_term);
	if (old_tmux)
		setenv("TMUX", old_tmux, 1);
	else
		unsetenv("TMUX");
	close(fds[0]);
	close(fds[1]);
	test_rmdir(dir);
	free(dir);
	free(script);
	free(log);
	free(body);
	free(path);
	free(old_path);
	free(old_tmux);
}

void suite_links(void)
{
	CU_pSuite s = CU_add_suite("links", NULL, NULL);
	CU_add_test(s, "ClangBuiltLinux issue search per flag", test_issue_urls);
	CU_add_test(s, "Link: trailers of real patches", test_patch_links);
	CU_add_test(s, "OSC 52: base64, tmux and screen forms", test_osc52_sequences);
	CU_add_test(s, "OSC 52 copy: terminal, tmux load-buffer, fallback", test_osc52_copy);
}
