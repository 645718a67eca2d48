/* End-to-end tests of `klang diag` (cli/cmd_diag.c): formats, exit
 * statuses, the CI gates, triage from the command line, and JSON/SARIF
 * read back as input. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tests/diagtest.h"
#include "tests/helpers.h"

static char *gcc_x86, *clang_x86;

static int setup(void)
{
	gcc_x86 = dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log");
	clang_x86 = dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log");
	return 0;
}

static int teardown(void)
{
	free(gcc_x86);
	free(clang_x86);
	return 0;
}

static int run(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char **out, char **err, const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	sb_addf(&cmd, "%s diag ", test_klang_bin());
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&cmd, fmt, ap);
	va_end(ap);
	int rc = test_run(cmd.buf, out, err);
	sb_free(&cmd);
	return rc;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_usage(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(run(&out, &err, "--help"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: klang diag parse"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "diff --help"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--fail-on"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "parse"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs at least one LOG"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "parse /nonexistent/build.log"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/build.log"));
	CU_ASSERT_EQUAL(count_lines(err), 1);
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format yaml", gcc_x86), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'yaml'"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "diff --gcc '%s'", gcc_x86), 2);
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "frobnicate"), 2);
	CU_ASSERT_STRING_EQUAL(err, "klang: diag: unknown subcommand 'frobnicate' (see klang diag "
				    "--help)\n");
	free(out), free(err);
	/* --repo must be there (nothing is made of a typo); reading takes any directory */
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --repo /nonexistent/repo", gcc_x86), 2);
	CU_ASSERT_STRING_EQUAL(
	    err, "klang: diag: --repo /nonexistent/repo: No such file or directory\n");
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "triage --list --repo /nonexistent/repo"), 2);
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "triage --repo '%s' 0123456789abcdef new", gcc_x86), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ": Not a directory"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --repo / --format tsv", gcc_x86), 0);
	free(out), free(err);
	/* an empty value is no value; stdin is read once */
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --fail-on ''", gcc_x86), 2);
	CU_ASSERT_STRING_EQUAL(err,
			       "klang: diag: --fail-on needs a value (see klang diag --help)\n");
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --arch=", gcc_x86), 2);
	CU_ASSERT_STRING_EQUAL(err, "klang: diag: --arch needs a value (see klang diag --help)\n");
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "diff --gcc - --clang - < '%s'", gcc_x86), 2);
	CU_ASSERT_STRING_EQUAL(err, "klang: diag: - is given twice: stdin can be read once (see "
				    "klang diag --help)\n");
	free(out), free(err);
	/* after --, a log may start with '-' */
	char *dir = test_tmpdir();
	char *cmd = xasprintf("cd '%s' && cp '%s' ./-w.log && %s diag parse --format tsv -- -w.log",
			      dir, gcc_x86, test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_EQUAL(count_lines(out), 192);
	free(out), free(err), free(cmd);
	test_rmdir(dir);
	free(dir);
	/* "klang: CMD: ..." as every other command says it */
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format", gcc_x86), 2);
	CU_ASSERT_STRING_EQUAL(err,
			       "klang: diag: --format needs a value (see klang diag --help)\n");
	free(out), free(err);
}

static void test_parse_formats(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", clang_x86), 0);
	CU_ASSERT_TRUE(str_startswith(
	    out, "side\tfile\tline\tcolumn\tfamily\tflag\tgroup\toccurrences\tmessage\n"));
	/* nine columns on every line; the xdr.h header warning once, twice reported */
	size_t rows = 0;
	for (char *l = out; *l;) {
		char *nl = strchr(l, '\n');
		size_t tabs = 0;
		for (char *c = l; c < nl; c++)
			tabs += *c == '\t';
		CU_ASSERT_EQUAL(tabs, 8);
		rows++;
		l = nl + 1;
	}
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(out, "clang\tinclude/linux/sunrpc/"
			"xdr.h\t752\t10\t-Wtautological-constant-out-of-range-compare\t-"
			"Wtautological-constant-out-of-range-compare\ttautological-compare\t2\t"));
	free(out), free(err);

	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format json", clang_x86), 0);
	json_error_t je;
	json_t *j = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *sum = json_object_get(j, "summary");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "warnings")),
			(json_int_t)dt_grep_count(clang_x86, ": warning:"));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "diagnostics")), rows - 1);
	json_decref(j);
	free(out), free(err);

	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format quickfix", gcc_x86), 0);
	for (char *l = out; *l;) {
		char *nl = strchr(l, '\n');
		*nl = '\0';
		char *c = strchr(l, ':');
		CU_ASSERT_TRUE(c && c[1] >= '1' && c[1] <= '9');
		CU_ASSERT_TRUE(strstr(l, ": warning: ") || strstr(l, ": error: "));
		l = nl + 1;
	}
	free(out), free(err);

	/* stdin, text */
	CU_ASSERT_EQUAL(run(&out, &err, "parse - < '%s'", gcc_x86), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "== missing-prototypes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "kernel/sched/rt.c:9:18: warning: 'max_rt_runtime' "
					   "defined but not used [-Wunused-const-variable=]"));
	free(out), free(err);
}

static void test_diff_formats(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(
	    run(&out, &err, "diff --gcc '%s' --clang '%s' --format json", gcc_x86, clang_x86), 0);
	json_error_t je;
	json_t *j = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *sum = json_object_get(j, "summary");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "clang_only")), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "gcc_only")), 5);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "both")), 186);
	/* a both row carries Clang's flag and the GCC peer */
	json_t *d;
	size_t i;
	bool seen = false;
	json_array_foreach(json_object_get(j, "diagnostics"), i, d)
	{
		if (strcmp(json_string_value(json_object_get(d, "file")),
			   "kernel/time/hrtimer.c") ||
		    json_integer_value(json_object_get(d, "line")) != 124)
			continue;
		seen = true;
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "side")), "both");
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "flag")),
				       "-Winitializer-overrides");
		CU_ASSERT_STRING_EQUAL(
		    json_string_value(json_object_get(json_object_get(d, "peer"), "flag")),
		    "-Woverride-init");
		CU_ASSERT_EQUAL(json_array_size(json_object_get(d, "notes")), 1);
	}
	CU_ASSERT_TRUE(seen);
	json_decref(j);
	free(out), free(err);

	CU_ASSERT_EQUAL(
	    run(&out, &err, "diff --gcc '%s' --clang '%s' --format sarif", gcc_x86, clang_x86), 0);
	j = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "version")), "2.1.0");
	json_t *res = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "results");
	CU_ASSERT_EQUAL(json_array_size(res), 193);
	json_array_foreach(res, i, d)
	{
		CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(d, "ruleId")));
		CU_ASSERT_PTR_NOT_NULL(
		    json_object_get(json_object_get(d, "partialFingerprints"), "klang/v1"));
	}
	json_decref(j);
	free(out), free(err);

	/* the gate, then triage settles it (statuses are kept in a repository) */
	char *dir = test_tmpdir();
	char *init = xasprintf("git init -q '%s'", dir);
	CU_ASSERT_EQUAL(test_run(init, NULL, NULL), 0);
	free(init);
	CU_ASSERT_EQUAL(
	    run(&out, &err,
		"diff --repo '%s' --gcc '%s' --clang '%s' --format tsv --fail-on clang-only", dir,
		gcc_x86, clang_x86),
	    1);
	CU_ASSERT_EQUAL(count_lines(out), 194);
	free(out), free(err);
	CU_ASSERT_EQUAL(
	    run(&out, &err, "diff --gcc '%s' --clang '%s' --format json", gcc_x86, clang_x86), 0);
	j = json_loads(out, 0, &je);
	free(out), free(err);
	json_array_foreach(json_object_get(j, "diagnostics"), i, d)
	{
		if (strcmp(json_string_value(json_object_get(d, "side")), "clang-only"))
			continue;
		CU_ASSERT_EQUAL(
		    run(&out, &err, "triage --repo '%s' --note 'not a bug' %s wontfix --from '%s'",
			dir, json_string_value(json_object_get(d, "fingerprint")), clang_x86),
		    0);
		free(out), free(err);
	}
	json_decref(j);
	CU_ASSERT_EQUAL(run(&out, &err,
			    "diff --repo '%s' --gcc '%s' --clang '%s' --fail-on clang-only", dir,
			    gcc_x86, clang_x86),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "wontfix"));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "triage --repo '%s' --list", dir), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "file: \"include/linux/sunrpc/xdr.h\""));
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err, "triage --repo '%s' 0123456789abcdef maybe", dir), 2);
	free(out), free(err);
	CU_ASSERT_EQUAL(run(&out, &err,
			    "diff --repo '%s' --gcc '%s' --clang '%s' --fail-on gcc-only", dir,
			    gcc_x86, clang_x86),
			1);
	free(out), free(err);
	test_rmdir(dir);
	free(dir);
}

static void test_baseline_gate(void)
{
	char *out, *err;
	CU_ASSERT_EQUAL(run(&out, &err, "diff --old '%s' --new '%s' --fail-on new --format tsv",
			    gcc_x86, gcc_x86),
			0);
	CU_ASSERT_PTR_NULL(strstr(out, "\nnew\t"));
	free(out), free(err);
	char *dir = test_tmpdir();
	char *cmd =
	    xasprintf("cat '%s' > '%s/new.log' && echo '/home/kdev/linux-6.1/kernel/x.c:1:2: "
		      "warning: fresh [-Wfresh]' >> '%s/new.log'",
		      gcc_x86, dir, dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	CU_ASSERT_EQUAL(run(&out, &err,
			    "diff --old '%s' --new '%s/new.log' --fail-on new --format tsv",
			    gcc_x86, dir),
			1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nnew\tkernel/x.c\t1\t2\t-Wfresh\t"));
	free(out), free(err);
	CU_ASSERT_EQUAL(
	    run(&out, &err, "diff --old '%s' --new '%s' --fail-on clang-only", gcc_x86, gcc_x86),
	    2);
	free(out), free(err);
	test_rmdir(dir);
	free(dir);
}

static void test_json_inputs(void)
{
	char *dir = test_tmpdir();
	char *out, *err, *want;
	/* our SARIF read back gives the same rows */
	CU_ASSERT_EQUAL(run(&want, &err, "parse '%s' --format tsv", clang_x86), 0);
	free(err);
	char *cmd = xasprintf("%s diag parse '%s' --format sarif > '%s/x.sarif'", test_klang_bin(),
			      clang_x86, dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	CU_ASSERT_EQUAL(
	    run(&out, &err, "parse '%s/x.sarif' --compiler clang --arch x86 --format tsv", dir), 0);
	/* occurrences are not in SARIF: compare file, line, flag and message */
	size_t same = 0, rows = 0;
	for (char *l = want; *l;) {
		char *nl = strchr(l, '\n');
		*nl = '\0';
		char *tab = strchr(l, '\t');
		char *f[9];
		int k = 0;
		for (char *p = tab + 1; k < 8 && p; k++) {
			f[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		char *probe = xasprintf("%s\t%s\t%s\t", f[0], f[1], f[2]);
		same += strstr(out, probe) != NULL && strstr(out, f[7]) != NULL;
		free(probe);
		rows++;
		l = nl + 1;
	}
	CU_ASSERT_EQUAL(same, rows);
	CU_ASSERT_TRUE(rows > 150);
	free(want), free(out), free(err);

	/* GCC's -fdiagnostics-format=json, with a macro note */
	const char *gj =
	    "[{\"kind\": \"warning\", \"message\": \"initialized field overwritten\", \"option\": "
	    "\"-Woverride-init\","
	    " \"locations\": [{\"caret\": {\"file\": \"/src/linux/arch/arm64/kernel/sys.c\", "
	    "\"line\": 56, \"column\": 40}}],"
	    " \"children\": [{\"kind\": \"note\", \"message\": \"in expansion of macro "
	    "'__SYSCALL'\","
	    " \"locations\": [{\"caret\": {\"file\": "
	    "\"/src/linux/include/uapi/asm-generic/unistd.h\", \"line\": 36, \"column\": 1}}]}]},"
	    " {\"kind\": \"error\", \"message\": \"oops\", \"option\": \"-Werror=unused-variable\","
	    " \"locations\": [{\"caret\": {\"file\": \"/src/linux/kernel/a.c\", \"line\": 3, "
	    "\"column\": 5}}]}]\n";
	char *gpath = xasprintf("%s/gcc.json", dir);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(gpath, gj, strlen(gj), &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", gpath), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(out, "gcc\tinclude/uapi/asm-generic/unistd.h\t36\t1\t-Woverride-init\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "gcc\tkernel/a.c\t3\t5\t-Wunused-variable\t"));
	free(out), free(err);
	/* a log line that is GCC JSON */
	char *lpath = xasprintf("%s/mixed.log", dir);
	char *mixed = xasprintf("  CC      kernel/a.o\n%s  CC      kernel/b.o\n", gj);
	CU_ASSERT_EQUAL(write_file_atomic(lpath, mixed, strlen(mixed), &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", lpath), 0);
	CU_ASSERT_EQUAL(count_lines(out), 3);
	free(out), free(err);
	/* one array per compile, "[]" where it printed nothing; one cut short is an error
	 * at its place (it gave no rows and exit 0) */
	char *arrays = xasprintf("[]\n%s[]\n", gj);
	CU_ASSERT_EQUAL(write_file_atomic(gpath, arrays, strlen(arrays), &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", gpath), 0);
	CU_ASSERT_EQUAL(count_lines(out), 3);
	free(out), free(err), free(arrays);
	arrays = xasprintf("[]\n%.*s", (int)strlen(gj) - 2, gj); /* without "]\n" */
	CU_ASSERT_EQUAL(write_file_atomic(gpath, arrays, strlen(arrays), &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", gpath), 2);
	char *want_err =
	    xasprintf("klang: %s:2:%zu: ']' expected near end of file\n", gpath, strlen(gj) - 2);
	CU_ASSERT_STRING_EQUAL(err, want_err);
	CU_ASSERT_STRING_EQUAL(out, "");
	free(out), free(err), free(arrays), free(want_err);
	/* a SARIF result that is not an object is named (it made a row of nothing) */
	const char *nulls = "{\"runs\": [{\"results\": [null, 5, \"x\"]}]}\n";
	CU_ASSERT_EQUAL(write_file_atomic(gpath, nulls, strlen(nulls), &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --format tsv", gpath), 2);
	want_err = xasprintf("klang: %s: runs[0].results[0] is not an object\n", gpath);
	CU_ASSERT_STRING_EQUAL(err, want_err);
	free(out), free(err), free(want_err);
	/* broken JSON names the file and the place */
	CU_ASSERT_EQUAL(write_file_atomic(gpath, "{\"runs\": [", 10, &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s'", gpath), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "gcc.json:1:"));
	free(out), free(err);
	/* a broken rules file, through the command line */
	char *rpath = xasprintf("%s/r.yaml", dir);
	CU_ASSERT_EQUAL(write_file_atomic(rpath, "- name: x\n  message: '(('\n", 26, &e), 0);
	CU_ASSERT_EQUAL(run(&out, &err, "parse '%s' --rules '%s'", gcc_x86, rpath), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "r.yaml:2:12: pattern error at offset 2"));
	free(out), free(err);
	free(rpath);
	free(mixed);
	free(lpath);
	free(gpath);
	test_rmdir(dir);
	free(dir);
}

void suite_diagcli(void)
{
	CU_pSuite s = CU_add_suite("diagcli", setup, teardown);
	CU_add_test(s, "usage and bad input", test_usage);
	CU_add_test(s, "parse: tsv, json, quickfix, text", test_parse_formats);
	CU_add_test(s, "diff: json, sarif, gates, triage", test_diff_formats);
	CU_add_test(s, "baseline gate", test_baseline_gate);
	CU_add_test(s, "JSON and SARIF inputs", test_json_inputs);
}
