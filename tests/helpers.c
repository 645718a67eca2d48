/* Shared test helpers (not a suite: no suite_ function). */
#include "tests/helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

char *test_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/klang-test-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		exit(2);
	}
	return tmpl;
}

void test_rmdir(const char *dir)
{
	if (!dir || strncmp(dir, "/", 1) || strstr(dir, "klang-test-") == NULL)
		return;
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
}

const char *test_klang_bin(void)
{
	const char *b = getenv("KLANG_BIN");
	return b && *b ? b : "./klang";
}

const char *test_src_dir(void)
{
	const char *s = getenv("KLANG_SRC");
	return s && *s ? s : ".";
}

char *test_fixture(const char *rel)
{
	return xasprintf("%s/../shared/fixtures/%s", test_src_dir(), rel);
}

static char *slurp(const char *path)
{
	struct kerr e;
	char *s = read_file(path, NULL, &e);
	return s ? s : xstrdup("");
}

int test_run(const char *cmdline, char **out, char **err)
{
	char *dir = test_tmpdir();
	char *o = xasprintf("%s/out", dir), *ef = xasprintf("%s/err", dir);
	char *cmd = xasprintf("(%s) >'%s' 2>'%s' </dev/null", cmdline, o, ef);
	int st = system(cmd);
	int rc = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (out)
		*out = slurp(o);
	if (err)
		*err = slurp(ef);
	free(cmd);
	free(o);
	free(ef);
	test_rmdir(dir);
	free(dir);
	return rc;
}
