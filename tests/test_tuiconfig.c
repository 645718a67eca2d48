/* klang --dump-config: the user's config.yaml merged over the defaults, with
 * action names checked against the workbench's action table. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tests/helpers.h"

static char *run_dump(const char *dir, const char *yaml, int *rc, char **err)
{
	struct kerr e;
	char *kdir = xasprintf("%s/klang", dir), *path = xasprintf("%s/config.yaml", kdir);
	mkdir_p(kdir, &e);
	write_file_atomic(path, yaml, strlen(yaml), &e);
	char *cmd = xasprintf("cd '%s' && XDG_CONFIG_HOME='%s' '%s' --dump-config", dir, dir,
			      test_klang_bin());
	char *out = NULL;
	*rc = test_run(cmd, &out, err);
	free(cmd);
	free(path);
	free(kdir);
	return out;
}

static void test_dump_config(void)
{
	char *dir = test_tmpdir(), *err = NULL;
	int rc;
	char *out =
	    run_dump(dir, "theme: projector\njobs: 7\nbindings:\n  quit-all: x\n", &rc, &err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "theme: projector"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "jobs: 7"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "quit-all"));
	free(out);
	free(err);
	out = run_dump(dir, "bindings:\n  qiut: x\n", &rc, &err);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "config.yaml:2:3: unknown action 'qiut'"));
	free(out);
	free(err);
	test_rmdir(dir);
	free(dir);
}

/* --dump-config with --repo, in either order, reads that tree's config;
 * anything else after it is refused, and a full disk is an error. */
static void test_dump_config_repo(void)
{
	char *dir = test_tmpdir(), *out = NULL, *err = NULL;
	char *setup = xasprintf("mkdir -p '%1$s/t/.klang' && git init -q '%1$s/t' && "
				"echo 'jobs: 3' > '%1$s/t/.klang/config.yaml'",
				dir);
	CU_ASSERT_EQUAL_FATAL(test_run(setup, NULL, NULL), 0);
	static const struct {
		const char *args;
		int rc;
		const char *said;
	} cases[] = {
	    {"--dump-config --repo t", 0, ""},
	    {"--repo t --dump-config", 0, ""},
	    {"--dump-config --repo t --theme x", 2,
	     "klang: --dump-config: unexpected '--theme' (--repo DIR is the one option it "
	     "takes)\n"},
	    {"--dump-config --repo nope", 2, "klang: --repo nope: No such file or directory\n"},
	    {"--dump-config --repo t > /dev/full", 1,
	     "klang: --dump-config: cannot write the output\n"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *cmd = xasprintf("cd '%1$s' && XDG_CONFIG_HOME='%1$s' '%2$s' %3$s", dir,
				      test_klang_bin(), cases[i].args);
		CU_ASSERT_EQUAL(test_run(cmd, &out, &err), cases[i].rc);
		CU_ASSERT_STRING_EQUAL(err ? err : "-", cases[i].said);
		if (!cases[i].rc)
			CU_ASSERT_PTR_NOT_NULL(strstr(out ? out : "", "jobs: 3\n"));
		free(cmd);
		free(out);
		free(err);
	}
	free(setup);
	test_rmdir(dir);
	free(dir);
}

void suite_tuiconfig(void)
{
	CU_pSuite s = CU_add_suite("tuiconfig", NULL, NULL);
	CU_add_test(s, "--dump-config and a wrong action name", test_dump_config);
	CU_add_test(s, "--dump-config --repo, either order; bad options", test_dump_config_repo);
}
