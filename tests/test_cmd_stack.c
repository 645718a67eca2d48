/* Tests for `klang stack`, run as a program: its TSV must be the rows that
 * `git log --reverse --first-parent --numstat` implies (worked out by
 * tests/stack-expect.awk from git's own output), and text, json, --tag and
 * errors behave as DESIGN.md says. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/util.h"
#include "tests/helpers.h"
#include "tests/stackrepo.h"

static struct stackrepo repo;
static bool built;

static int setup(void)
{
	built = stackrepo_build(&repo) == 0;
	return 0;
}

static int teardown(void)
{
	stackrepo_free(&repo);
	return 0;
}

/* Run `klang stack --repo DIR ARGS`; returns the status. */
static int klang_stack(const char *dir, const char *args, char **out, char **err)
{
	char *cmd = xasprintf("'%s' stack --repo '%s' %s", test_klang_bin(), dir, args);
	int rc = test_run(cmd, out, err);
	free(cmd);
	return rc;
}

static void same_as_git(const char *dir, const char *args, const char *range, size_t rows)
{
	char *out, *want = stackrepo_expected_tsv(dir, range);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_EQUAL(klang_stack(dir, args, &out, NULL), 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	if (strcmp(out, want))
		fprintf(stderr, "\n--- klang\n%s--- git\n%s", out, want);
	size_t lines = 0;
	for (const char *s = out; (s = strchr(s, '\n')); s++)
		lines++;
	CU_ASSERT_EQUAL(lines, rows + 1);
	free(out);
	free(want);
}

static void test_tsv_traps(void)
{
	CU_ASSERT_FATAL(built);
	same_as_git(repo.dir, "--format tsv", "v4.9..HEAD", SR_COUNT);
	/* base merged as a second parent: the general walk */
	same_as_git(repo.dir, "--base side --head main --format tsv", "side..main", SR_COUNT);
	same_as_git(repo.dir, "--base main --format tsv", "main..HEAD", 0);
}

static void test_tsv_rows(void)
{
	char *out;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(klang_stack(repo.dir, "--format tsv", &out, NULL), 0);
	char *row = xasprintf("\n4\t%s\tANDROID\tARM: enable the thing\tklang\t1\t2\t0\n",
			      repo.ids[SR_ANDROID_ARM]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, row));
	free(row);
	row = xasprintf("\n2\t%s\tBACKPORT,FROMLIST\tpwm: Add support for different PWM output "
			"types\tklang\t1\t12\t0\n",
			repo.ids[SR_BACKPORT_FROMLIST]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, row));
	free(row);
	row = xasprintf("\n11\t%s\tCUSTOM\ta tab in the subject\tklang\t1\t1\t0\n",
			repo.ids[SR_TAB_SUBJECT]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, row));
	free(row);
	row = xasprintf("\t-\tRevert \"BACKPORT: FROMLIST: pwm: Add support for different PWM "
			"output types\"\tklang\t1\t0\t12\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(out, row));
	free(row);
	CU_ASSERT_TRUE(str_startswith(
	    out, "index\tcommit\ttags\tsubject\tauthor\tfiles\tinsertions\tdeletions\n"));
	free(out);
}

static void test_tsv_generated(void)
{
	char *dir = stackrepo_generate(2000, 100);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	same_as_git(dir, "--head master --format tsv", "v1.0..master", 2000);
	test_rmdir(dir);
	free(dir);
}

static void test_json(void)
{
	char *out;
	json_error_t je;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(klang_stack(repo.dir, "--format json", &out, NULL), 0);
	json_t *a = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(json_array_size(a), SR_COUNT);
	json_t *p = json_array_get(a, SR_UTF8_AUTHOR);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "commit")),
			       repo.ids[SR_UTF8_AUTHOR]);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "author")),
			       "Jos\xc3\xa9 M\xc3\xbcller");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "date")),
			       "2023-11-14T22:13:20+00:00");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(p, "tags"), 0)),
			       "HACK");
	json_t *tr = json_object_get(p, "trailers");
	CU_ASSERT_EQUAL(json_array_size(tr), 3);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tr, 1), "key")),
			       "Clang-Fixed");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tr, 1), "value")),
			       "15");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "deletions")), 3);
	CU_ASSERT_TRUE(json_is_true(json_object_get(json_array_get(a, SR_MERGE), "merge")));
	CU_ASSERT_TRUE(json_is_true(json_object_get(json_array_get(a, SR_REVERT), "revert")));
	CU_ASSERT_TRUE(json_is_false(json_object_get(json_array_get(a, SR_REVERT), "merge")));
	p = json_array_get(a, SR_TAB_SUBJECT);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "title")),
			       "a\ttab in the subject");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_array_get(a, SR_UNTAGGED), "tags")),
			0);
	json_decref(a);
	free(out);
}

/* Latin-1 bytes with no encoding header: the JSON stays valid UTF-8. */
static void test_json_bad_utf8(void)
{
	char *dir = test_tmpdir(), *out;
	struct git_repository *r;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	struct gw_commit c = {.ref = "refs/heads/main", .message = "v1\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1", "main", &e), 0);
	struct gw_commit c2 = {
	    .ref = "refs/heads/main", .message = "HACK: caf\xe9\n", .author = "Jos\xe9"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c2, NULL, &e), 0);
	git_repository_free(r);
	CU_ASSERT_EQUAL(klang_stack(dir, "--head main --format json", &out, NULL), 0);
	json_error_t je;
	json_t *a = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	json_t *p = json_array_get(a, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "author")), "Jos\xef\xbf\xbd");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "title")), "caf\xef\xbf\xbd");
	json_decref(a);
	free(out);
	/* TSV passes the bytes through, as git log does */
	CU_ASSERT_EQUAL(klang_stack(dir, "--head main --format tsv", &out, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\tHACK\tcaf\xe9\tJos\xe9\t0\t0\t0\n"));
	free(out);
	test_rmdir(dir);
	free(dir);
}

static void test_text(void)
{
	char *out;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(klang_stack(repo.dir, "", &out, NULL), 0);
	/* index, 12-digit id, tags padded to the widest ("BACKPORT,FROMLIST"), title */
	char *line = xasprintf("\n 4 %.12s ANDROID           ARM: enable the thing\n",
			       repo.ids[SR_ANDROID_ARM]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	free(line);
	line = xasprintf("\n 8 %.12s -                 Merge branch 'side' (merge)\n",
			 repo.ids[SR_MERGE]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	free(line);
	free(out);
}

static void test_tag_filter(void)
{
	char *out, *err;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--tag hack --format tsv", &out, NULL), 0);
	char *want = xasprintf(
	    "index\tcommit\ttags\tsubject\tauthor\tfiles\tinsertions\tdeletions\n"
	    "9\t%s\tHACK\tclang: work around a miscompile\tJos\xc3\xa9 M\xc3\xbcller\t1\t1\t3\n",
	    repo.ids[SR_UTF8_AUTHOR]);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(want);
	free(out);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--tag BACKPORT,FROMLIST --format tsv", &out, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n2\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n5\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n17\t"));
	CU_ASSERT_PTR_NULL(strstr(out, "\n1\t"));
	free(out);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--tag none --format tsv", &out, NULL), 0);
	size_t rows = 0;
	for (const char *s = out; (s = strstr(s, "\t-\t")); s++)
		rows++;
	CU_ASSERT_EQUAL(rows,
			6); /* do-not-upstream, revert, untagged, merge, lowercase, no space */
	free(out);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--tag HACK,bogus", &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown tag 'bogus'"));
	free(out);
	free(err);
}

static void test_errors_and_help(void)
{
	char *out, *err;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--base v4.7", &out, &err), 2);
	char *want = xasprintf("klang: base 'v4.7' not found in %s\n", repo.dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(want), free(out), free(err);
	CU_ASSERT_EQUAL(klang_stack("/nonexistent/repo", "", &out, &err), 2);
	CU_ASSERT_STRING_EQUAL(err, "klang: not a git repository: /nonexistent/repo\n");
	free(out), free(err);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--format xml", &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown format 'xml'"));
	free(out), free(err);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "extra", &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unexpected argument 'extra'"));
	free(out), free(err);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--bogus", &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--bogus"));
	free(out), free(err);
	CU_ASSERT_EQUAL(klang_stack(repo.dir, "--help", &out, &err), 0);
	CU_ASSERT_TRUE(str_startswith(out, "usage: klang stack"));
	CU_ASSERT_STRING_EQUAL(err, "");
	free(out), free(err);
}

/* Every subcommand but diag says a bad option the same way, in one line and
 * nothing else (no usage dump, no getopt message of its own). */
static void test_option_messages(void)
{
	static const struct {
		const char *args, *msg;
	} cases[] = {
	    {"stack --repo", "stack: --repo needs a value (see klang stack --help)"},
	    {"stack --bogus", "stack: unknown option '--bogus' (see klang stack --help)"},
	    {"series --clang", "series: --clang needs a value (see klang series --help)"},
	    {"series -x", "series: unknown option '-x' (see klang series --help)"},
	    {"series --cc ''", "series: --cc needs a value (see klang series --help)"},
	    {"build --jobs", "build: --jobs needs a value (see klang build --help)"},
	    {"build --bogus", "build: unknown option '--bogus' (see klang build --help)"},
	    {"clang-version --cc",
	     "clang-version: --cc needs a value (see klang clang-version --help)"},
	    {"clang-version --cc ''",
	     "clang-version: --cc needs a value (see klang clang-version --help)"},
	    {"clang-version --bogus",
	     "clang-version: unknown option '--bogus' (see klang clang-version --help)"},
	    {"demo --play", "demo: --play needs a value (see klang demo --help)"},
	    {"demo --bogus", "demo: unknown option '--bogus' (see klang demo --help)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *cmd = xasprintf("'%s' %s", test_klang_bin(), cases[i].args);
		char *want = xasprintf("klang: %s\n", cases[i].msg), *out, *err;
		CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
		CU_ASSERT_STRING_EQUAL(err, want);
		CU_ASSERT_STRING_EQUAL(out, "");
		free(cmd), free(want), free(out), free(err);
	}
}

/* A stack read from files: a real ClangBuiltLinux mbox and a quilt series
 * with a missing and a reversed patch (listed, exit 1). */
static void test_files(void)
{
	char *mbox = xasprintf("%s/tests/fixtures/patches/cbl-ci2__mainline.mbox", test_src_dir());
	char *quilt = xasprintf("%s/tests/fixtures/patches/quilt", test_src_dir());
	char *cmd = xasprintf("'%s' stack --mbox '%s' --format tsv", test_klang_bin(), mbox);
	char *out = NULL, *err = NULL;
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(out, "\tHACK\tblock: Disable BLK_DEV_NBD with clang <= 13\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\tFROMGIT\tIB/qib: Fix clang confusion"));
	free(cmd);
	free(out);
	free(err);
	cmd = xasprintf("'%s' stack --quilt '%s' --format tsv", test_klang_bin(), quilt);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(out, "\tBACKPORT,FROMLIST\tpwm: Add support for different PWM output types\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "series:11: no-such.patch"));
	free(cmd);
	free(out);
	free(err);
	/* the mbox on stdin: the same rows */
	char *file_rows = NULL, *stdin_rows = NULL;
	cmd = xasprintf("'%s' stack --mbox '%s' --format tsv", test_klang_bin(), mbox);
	CU_ASSERT_EQUAL(test_run(cmd, &file_rows, NULL), 0);
	free(cmd);
	cmd = xasprintf("'%s' stack --mbox - --format tsv < '%s'", test_klang_bin(), mbox);
	CU_ASSERT_EQUAL(test_run(cmd, &stdin_rows, NULL), 0);
	CU_ASSERT_STRING_EQUAL(stdin_rows ? stdin_rows : "", file_rows ? file_rows : "-");
	free(cmd);
	free(file_rows);
	free(stdin_rows);
	cmd = xasprintf("'%s' stack --mbox - < /dev/null", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 1);
	CU_ASSERT_STRING_EQUAL(
	    err ? err : "", "klang: <stdin>: empty file: no patch in it (before the first patch)\n"
			    "klang: stack: no patches in stdin\n");
	free(cmd);
	free(out);
	free(err);
	/* one source at a time; the workbench cannot take its patches on stdin */
	static const char *const refused[][2] = {
	    {"stack --mbox a --quilt b",
	     "klang: stack: one --mbox FILE or --quilt DIR, not two sources\n"},
	    {"--quilt b --mbox a", "klang: one --mbox FILE or --quilt DIR, not two sources\n"},
	    {"--mbox -", "klang: --mbox -: the workbench reads its keys from the terminal; save "
			 "the patches to a file (or list them with klang stack --mbox -)\n"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		cmd = xasprintf("'%s' %s", test_klang_bin(), refused[i][0]);
		CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
		CU_ASSERT_STRING_EQUAL(err ? err : "", refused[i][1]);
		free(cmd);
		free(out);
		free(err);
	}
	free(mbox);
	free(quilt);
}

void suite_cmd_stack(void)
{
	CU_pSuite s = CU_add_suite("cmd_stack", setup, teardown);
	CU_add_test(s, "tsv is what git log implies (traps)", test_tsv_traps);
	CU_add_test(s, "tsv rows", test_tsv_rows);
	CU_add_test(s, "tsv is what git log implies (2,000 patches)", test_tsv_generated);
	CU_add_test(s, "json", test_json);
	CU_add_test(s, "json from bad UTF-8", test_json_bad_utf8);
	CU_add_test(s, "text", test_text);
	CU_add_test(s, "--tag", test_tag_filter);
	CU_add_test(s, "errors and --help", test_errors_and_help);
	CU_add_test(s, "option messages of every command", test_option_messages);
	CU_add_test(s, "--mbox and --quilt", test_files);
}
