/* Tests for doc/: the man page renders without warnings and documents every
 * command, its key table is regenerated from an action list, and the bash
 * completion offers commands, options, arches, themes and refs. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "tests/helpers.h"

static void test_man_renders(void)
{
	char *out, *err;
	char *cmd = xasprintf("cd '%s' && LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING= "
			      "man --warnings -l ./doc/klang.1 | col -b",
			      test_src_dir());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	const char *want[] = {"klang stack [--repo DIR]",
			      "klang series",
			      "klang clang-version",
			      "klang build",
			      "klang diag parse",
			      "klang diag diff",
			      "klang demo",
			      "--mbox FILE",
			      "--quilt DIR",
			      "--dump-config",
			      "EXIT STATUS",
			      "CONFIGURATION",
			      "Everywhere",
			      "move-down",
			      "From git@z",
			      "$XDG_CONFIG_HOME/klang/config.yaml"};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		CU_ASSERT_PTR_NOT_NULL(strstr(out, want[i]));
		if (!strstr(out, want[i]))
			fprintf(stderr, "man page lacks '%s'\n", want[i]);
	}
	free(out);
	free(err);
	free(cmd);
}

static void test_key_table_regenerated(void)
{
	char *dir = test_tmpdir(), *out, *err;
	char *cmd = xasprintf(
	    "cp '%s/doc/klang.1' '%s/k.1' && printf 'Everywhere\\tq <C-c>\\tquit\\tLeave "
	    "now\\nPatch view\\ty\\tcopy-id\\tCopy the patch id\\n' | '%s/doc/keys2man.sh' - "
	    "'%s/k.1' && sed -n '/KEYS-BEGIN/,/KEYS-END/p' '%s/k.1'",
	    test_src_dir(), dir, test_src_dir(), dir, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ".SS Everywhere\n.TP\n.B \"q  <C\\-c>\"\nLeave now\n"
					   ".RI [ quit ]\n.SS Patch view\n.TP\n.B \"y\"\n"
					   "Copy the patch id\n.RI [ copy\\-id ]\n.\\\" KEYS-END"));
	CU_ASSERT_PTR_NULL(strstr(out, "move-down")); /* the old table is gone */
	free(out);
	free(err);
	free(cmd);
	cmd = xasprintf("printf 'one field\\n' | '%s/doc/keys2man.sh' - '%s/k.1'", test_src_dir(),
			dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected 4 tab-separated fields"));
	free(out);
	free(err);
	free(cmd);
	test_rmdir(dir);
	free(dir);
}

/* The man page's KEYS section is what `make man-keys` makes of the action
 * list today: a new action or default key without it fails here. */
static void test_key_table_current(void)
{
	char *dir = test_tmpdir(), *out, *err;
	char *cmd = xasprintf(
	    "cp '%s/doc/klang.1' '%s/k.1' && '%s' --dump-keys | "
	    "'%s/doc/keys2man.sh' - '%s/k.1' && diff -u '%s/doc/klang.1' '%s/k.1'",
	    test_src_dir(), dir, test_klang_bin(), test_src_dir(), dir, test_src_dir(), dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	if (*out)
		fprintf(stderr,
			"doc/klang.1's KEYS differ from klang --dump-keys (run make "
			"man-keys):\n%s",
			out);
	free(out);
	free(err);
	free(cmd);
	/* one line per action, four fields, in the help view's order */
	cmd = xasprintf("'%s' --dump-keys", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_TRUE(str_startswith(out, "Everywhere\tq c(clang) t(tags)\tquit\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nStack view\t<Space>\tseries-toggle\t"));
	free(out);
	free(err);
	free(cmd);
	test_rmdir(dir);
	free(dir);
}

/* What the completion offers for a command line (the word under the cursor
 * is the last one; a trailing space starts an empty word). */
static char *complete(const char *env, const char *line)
{
	char *out;
	char *cmd = xasprintf(
	    "%s bash -c 'source \"%s/doc/klang.bash\"; read -ra COMP_WORDS <<< \"$1\"; "
	    "[[ $1 == *\" \" ]] && COMP_WORDS+=(\"\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); "
	    "_klang; echo \"${COMPREPLY[*]}\"' _ '%s'",
	    env, test_src_dir(), line);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	free(cmd);
	return out;
}

static char *run_ok(const char *cmd)
{
	char *out;
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	return out;
}

static void expect(const char *env, const char *line, const char *want)
{
	char *got = complete(env, line);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "completion of '%s': '%s', want '%s'\n", line, got, want);
	free(got);
}

static void test_bash_completion(void)
{
	expect("", "klang ", "stack series clang-version build diag demo help\n");
	expect("", "klang s", "stack series\n");
	expect("", "klang build --arch arm64,x86_", "arm64,x86_64\n");
	expect("", "klang series --as ", "mbox quilt\n");
	expect("", "klang diag ", "parse diff --help\n");
	expect("", "klang diag diff --format s", "sarif\n");
	expect("", "klang build --wrapper ", "ccache distcc icecc none\n");
	expect("", "klang stack --tag BACKPORT,FROM", "BACKPORT,FROMGIT BACKPORT,FROMLIST\n");
	expect("", "klang --repo stack s", "stack series\n"); /* a value is not the command */
	expect("", "klang --dump", "--dump-config --dump-keys\n");

	/* options as the binary's --help lists them */
	char *line = xasprintf("%s stack --", test_klang_bin());
	char *got = complete("", line);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "--mbox"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "--tag"));
	CU_ASSERT_PTR_NULL(strstr(got, "--numstat")); /* named in the help's prose only */
	free(got);
	free(line);

	/* theme names from the data directory, refs from the repository */
	char *dir = test_tmpdir();
	struct kerr e;
	char *themes = xasprintf("%s/themes", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir_p(themes, &e), 0);
	const char *names[] = {"default", "mono", "projector"};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s.yaml", themes, names[i]);
		CU_ASSERT_EQUAL(write_file_atomic(p, "name: x\n", 8, &e), 0);
		free(p);
	}
	char *env = xasprintf("KLANG_DATADIR='%s'", dir);
	expect(env, "klang --theme ", "default mono projector\n");
	expect(env, "klang --theme p", "projector\n");
	git_repository *r;
	char *repo = xasprintf("%s/repo", dir);
	CU_ASSERT_EQUAL_FATAL(gw_init(repo, &r, &e), 0);
	struct gw_file f[] = {{"a", "a\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/android-mainline", .files = f, .nfiles = 1, .message = "x\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v6.1", "android-mainline", &e), 0);
	git_repository_free(r);
	line = xasprintf("klang stack --repo %s --base ", repo);
	expect("", line, "HEAD android-mainline v6.1\n");
	free(line);
	line = xasprintf("klang series --repo %s --head an", repo);
	expect("", line, "android-mainline\n");
	free(line);
	free(repo);
	free(env);
	/* toolchains: the generic ones and the versioned compilers on PATH */
	char *bin = xasprintf("%s/bin", dir);
	CU_ASSERT_EQUAL(mkdir_p(bin, &e), 0);
	char *mk = xasprintf("cd '%s' && touch clang-17 gcc-12 && chmod +x clang-17 gcc-12", bin);
	free(run_ok(mk));
	env = xasprintf("PATH='%s':\"$PATH\"", bin);
	char *got2 = complete(env, "klang build --toolchain ");
	CU_ASSERT_TRUE(str_startswith(got2, "llvm clang gcc "));
	CU_ASSERT_PTR_NOT_NULL(strstr(got2, " llvm-17 clang-17 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(got2, " gcc-12"));
	free(got2);
	free(env);
	free(mk);
	free(bin);
	free(themes);
	test_rmdir(dir);
	free(dir);
}

void suite_doc(void)
{
	CU_pSuite s = CU_add_suite("doc", NULL, NULL);
	CU_add_test(s, "man ./doc/klang.1 renders every command", test_man_renders);
	CU_add_test(s, "key table regenerated from an action list", test_key_table_regenerated);
	CU_add_test(s, "the man page's key table is klang --dump-keys", test_key_table_current);
	CU_add_test(s, "bash completion", test_bash_completion);
}
