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

void suite_tuiconfig(void)
{
	CU_pSuite s = CU_add_suite("tuiconfig", NULL, NULL);
	CU_add_test(s, "--dump-config and a wrong action name", test_dump_config);
}
