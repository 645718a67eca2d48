/* Tests for core/clangver: vendor --version formats, partial versions and
 * their order, detection with the real clang-14 and with fake compilers on a
 * temporary PATH, and `klang clang-version`. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clangver.h"
#include "tests/helpers.h"

static void check_output(const char *text, const char *ver, const char *vendor, const char *detail,
			 bool apple)
{
	struct clang_version v;
	struct kerr e;
	char b[32];
	CU_ASSERT_EQUAL_FATAL(clangver_from_output(text, &v, &e), 0);
	CU_ASSERT_STRING_EQUAL(clangver_str(&v, b, sizeof(b)), ver);
	CU_ASSERT_STRING_EQUAL(v.vendor, vendor);
	if (detail)
		CU_ASSERT_STRING_EQUAL(v.detail, detail);
	CU_ASSERT_EQUAL(v.apple, apple);
}

static void test_vendor_formats(void)
{
	check_output("Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"
		     "Thread model: posix\nInstalledDir: /usr/bin\n",
		     "14.0.6", "Debian", "", false);
	check_output("clang version 19.1.7 (https://github.com/llvm/llvm-project "
		     "cd708029e0b2869e80abe31ddb175f7c35361f90)\n",
		     "19.1.7", "", NULL, false);
	check_output("Ubuntu clang version 14.0.0-1ubuntu1\n", "14.0.0", "Ubuntu", "", false);
	check_output("clang version 5.0.0-3~16.04.1 (tags/RELEASE_500/final)\n", "5.0.0", "",
		     "tags/RELEASE_500/final", false);
	check_output("Android (4691093 based on r316199) clang version 6.0.2 "
		     "(https://android.googlesource.com/toolchain/clang "
		     "183abd29fc496f55536e7d904e0abae47888fc7f)\n",
		     "6.0.2", "Android", "4691093 based on r316199", false);
	check_output(
	    "Chromium OS 17.0_pre496208_p20230501-r1 clang version 17.0.0 "
	    "(/var/tmp/portage/sys-devel/llvm-17.0_pre496208_p20230501-r1/work/"
	    "llvm-17.0_pre496208_p20230501/clang 98f5a340975bc00197c57e39eb4ca26e2da0e8a2)\n",
	    "17.0.0", "Chromium OS", "17.0_pre496208_p20230501-r1", false);
	check_output(
	    "Apple clang version 15.0.0 (clang-1500.1.0.2.5)\nTarget: arm64-apple-darwin23\n",
	    "15.0.0", "Apple", "clang-1500.1.0.2.5", true);
	check_output("Apple LLVM version 10.0.0 (clang-1000.11.45.5)\n", "10.0.0", "Apple",
		     "clang-1000.11.45.5", true);
	check_output("clang version 18.1.8 (Fedora 18.1.8-1.fc40)\n", "18.1.8", "Fedora",
		     "18.1.8-1.fc40", false);
	check_output("Homebrew clang version 17.0.6\n", "17.0.6", "Homebrew", "", false);
	check_output("clang version 19.0.0git (https://github.com/llvm/llvm-project.git abc)\n",
		     "19.0.0", "", NULL, false);

	struct clang_version v;
	struct kerr e;
	CU_ASSERT_EQUAL(clangver_from_output("Ubuntu clang version 14.0.0-1ubuntu1\n", &v, &e), 0);
	CU_ASSERT_STRING_EQUAL(v.suffix, "-1ubuntu1");
	CU_ASSERT_EQUAL(clangver_from_output("gcc (Debian 12.2.0-14) 12.2.0\n", &v, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "gcc (Debian 12.2.0-14) 12.2.0"));
	CU_ASSERT_EQUAL(clangver_from_output("", &v, &e), -1);
	CU_ASSERT_EQUAL(clangver_from_output("clang version \n", &v, &e), -1);
}

static void test_parse_compare(void)
{
	struct clang_version a, b;
	char s[32];
	CU_ASSERT_EQUAL(clangver_parse("5", &a), 0);
	CU_ASSERT_EQUAL(a.nparts, 1);
	CU_ASSERT_STRING_EQUAL(clangver_str_short(&a, s, sizeof(s)), "5");
	CU_ASSERT_STRING_EQUAL(clangver_str(&a, s, sizeof(s)), "5.0.0");
	CU_ASSERT_EQUAL(clangver_parse("5.0", &b), 0);
	CU_ASSERT_EQUAL(clangver_cmp(&a, &b), 0);
	CU_ASSERT_EQUAL(clangver_parse("14.0.6", &b), 0);
	CU_ASSERT(clangver_cmp(&a, &b) < 0);
	CU_ASSERT(clangver_cmp(&b, &a) > 0);
	CU_ASSERT_EQUAL(clangver_parse("5.0.1", &b), 0);
	CU_ASSERT(clangver_cmp(&a, &b) < 0);
	CU_ASSERT_EQUAL(clangver_parse("14", &a), 0);
	CU_ASSERT_EQUAL(clangver_parse("14.0.6", &b), 0);
	CU_ASSERT(clangver_cmp(&a, &b) < 0); /* 14 means 14.0.0 */
	CU_ASSERT_EQUAL(clangver_parse(" 6.0 ", &a), 0);
	CU_ASSERT_EQUAL(a.major * 10 + a.minor, 60);
	CU_ASSERT_EQUAL(clangver_parse("999.999.999", &a), 0);
	CU_ASSERT_EQUAL(a.patch, 999);
	CU_ASSERT_EQUAL(clangver_parse(NULL, &a), -1);
	/* strict: digits and dots only, nothing read loosely or clamped */
	static const char *const bad[] = {"",
					  "soon",
					  "5 and 6",
					  "-1",
					  "14abc",
					  "1e3",
					  "0x10",
					  "14.0.6.1",
					  "14.",
					  ".14",
					  "14..0",
					  "1000",
					  "14.1000",
					  "99999999999999999999",
					  "clang-14",
					  "v14",
					  "14.0.0-1ubuntu1"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (clangver_parse(bad[i], &a) != -1)
			fprintf(stderr, "\n  '%s' parsed as a version", bad[i]);
		CU_ASSERT_EQUAL(clangver_parse(bad[i], &a), -1);
	}
	/* a trailer, written by anyone: packaging suffixes and comments pass,
	 * what is not a version still does not */
	static const struct {
		const char *text;
		int major, minor, patch;
	} trailers[] = {{"15.0.7-1ubuntu1", 15, 0, 7},
			{"17.0.6+rc1", 17, 0, 6},
			{"16~git", 16, 0, 0},
			{" 15 (see D12345)", 15, 0, 0},
			{"14", 14, 0, 0}};
	for (size_t i = 0; i < ARRAY_SIZE(trailers); i++) {
		CU_ASSERT_EQUAL(clangver_parse_trailer(trailers[i].text, &a), 0);
		CU_ASSERT(a.major == trailers[i].major && a.minor == trailers[i].minor &&
			  a.patch == trailers[i].patch && !a.suffix[0]);
	}
	static const char *const not_trailers[] = {"14abc", "1e3",  "0x10", "14.0.6.1",
						   "v14",   "soon", "",	    "1000"};
	for (size_t i = 0; i < ARRAY_SIZE(not_trailers); i++)
		CU_ASSERT_EQUAL(clangver_parse_trailer(not_trailers[i], &a), -1);
}

static void test_detect_real_clang14(void)
{
	struct clang_version v;
	struct kerr e;
	char b[32];
	if (access("/usr/bin/clang-14", X_OK) != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(clangver_detect("/usr/bin/clang-14", &v, &e), 0);
	CU_ASSERT_STRING_EQUAL(clangver_str(&v, b, sizeof(b)), "14.0.6");
	CU_ASSERT_STRING_EQUAL(v.vendor, "Debian");
	CU_ASSERT_EQUAL(clangver_detect("/nonexistent/clang", &v, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/clang"));
	CU_ASSERT_EQUAL(clangver_detect("/bin/true", &v, &e), -1); /* says nothing */
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "not clang"));
}

/* A fake compiler: a script printing `text` for --version. */
static void write_script(const char *dir, const char *name, const char *body)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *script = xasprintf("#!/bin/sh\n%s\n", body);
	struct kerr e;
	CU_ASSERT_EQUAL(write_file_atomic(path, script, strlen(script), &e), 0);
	chmod(path, 0755);
	free(script);
	free(path);
}

static void fake_cc(const char *dir, const char *name, const char *text)
{
	char *body = xasprintf("echo '%s'", text); /* a builtin: PATH is ours */
	write_script(dir, name, body);
	free(body);
}

/* A compiler that hangs, streams or leaves a process holding its output is
 * given up (CLANGVER_TIMEOUT), not waited for; a file that cannot run is said
 * to be not executable. */
static void test_stuck_compilers(void)
{
	char *dir = test_tmpdir();
	write_script(dir, "bg", "echo 'clang version 15.0.0'\nsleep 100 &");
	write_script(dir, "hang", "echo 'clang version 15.0.0'\nexec sleep 100");
	write_script(dir, "yes", "exec yes");
	write_script(dir, "plain", "");
	char *plain = xasprintf("%s/plain", dir);
	chmod(plain, 0644);
	static const struct {
		const char *name, *msg;
		int most; /* seconds */
	} cases[] = {
	    {"bg", NULL, 5},
	    {"hang", "hang --version did not finish in 10 s", CLANGVER_TIMEOUT + 5},
	    {"yes", "yes --version printed more than 64 KiB", 5},
	    {"plain", "plain: not executable", 5},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *cc = xasprintf("%s/%s", dir, cases[i].name);
		struct clang_version v;
		struct kerr e = {""};
		time_t t0 = time(NULL);
		int rc = clangver_detect(cc, &v, &e);
		CU_ASSERT(time(NULL) - t0 <= cases[i].most);
		CU_ASSERT_EQUAL(rc, cases[i].msg ? -1 : 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cases[i].msg ? cases[i].msg : ""));
		CU_ASSERT_EQUAL(v.major, cases[i].msg ? 0 : 15);
		free(cc);
	}
	free(plain);
	test_rmdir(dir);
	free(dir);
}

static void test_fake_compilers_on_path(void)
{
	char *dir = test_tmpdir(), *dir2 = xasprintf("%s/later", dir);
	struct kerr e;
	mkdir_p(dir2, &e);
	fake_cc(dir, "clang", "Apple clang version 15.0.0 (clang-1500.1.0.2.5)");
	fake_cc(dir, "clang-6",
		"Android (4691093 based on r316199) clang version 6.0.2 "
		"(https://android.googlesource.com/toolchain/clang 183abd29)");
	fake_cc(dir, "clang-17", "Chromium OS 17.0_pre496208_p20230501-r1 clang version 17.0.0");
	fake_cc(dir, "clang-format", "clang-format version 14.0.6");
	fake_cc(dir2, "clang-6", "clang version 6.0.0 (shadowed)");
	fake_cc(dir2, "clang-5.0", "clang version 5.0.0-3~16.04.1 (tags/RELEASE_500/final)");

	char *old = xstrdup(getenv("PATH"));
	char *path = xasprintf("%s:%s", dir, dir2);
	setenv("PATH", path, 1);
	size_t n;
	struct clang_found *f = clangver_find_all(&n);
	setenv("PATH", old, 1);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	/* newest first; clang-format is not a compiler; the shadowed clang-6 is not listed */
	CU_ASSERT_STRING_EQUAL(f[0].name, "clang-17");
	CU_ASSERT_STRING_EQUAL(f[0].v.vendor, "Chromium OS");
	CU_ASSERT_STRING_EQUAL(f[1].name, "clang"); /* Apple 15.0.0 */
	CU_ASSERT(f[1].v.apple);
	CU_ASSERT_STRING_EQUAL(f[2].name, "clang-6");
	CU_ASSERT_STRING_EQUAL(f[2].v.vendor, "Android");
	CU_ASSERT_PTR_NOT_NULL(strstr(f[2].path, dir));
	CU_ASSERT_PTR_NULL(strstr(f[2].path, "later"));
	CU_ASSERT_STRING_EQUAL(f[3].name, "clang-5.0");
	clangver_found_free(f, n);

	/* The CLI: $CC honoured, --cc wins, Apple is said to be Apple's. */
	char *out, *err;
	/* every form fails (1) when its output is lost */
	static const char *const forms[] = {"", "--format json", "--all", "--all --format json"};
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		char *cmd = xasprintf("PATH='%s:%s' CC=clang-6 '%s' clang-version %s > /dev/full",
				      path, old, test_klang_bin(), forms[i]);
		CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 1);
		CU_ASSERT_STRING_EQUAL(err, "klang: clang-version: cannot write the output\n");
		free(err), free(cmd);
	}
	char *cmd =
	    xasprintf("PATH='%s:%s' CC=clang-6 '%s' clang-version", path, old, test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, "6.0.2\n");
	free(out), free(err), free(cmd);
	cmd = xasprintf("PATH='%s:%s' CC=clang-6 '%s' clang-version --cc clang-17", path, old,
			test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, "17.0.0\n");
	free(out), free(err), free(cmd);
	cmd = xasprintf("PATH='%s:%s' CC= '%s' clang-version", path, old, test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_STRING_EQUAL(out, "Apple 15.0.0\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not LLVM's"));
	free(out), free(err), free(cmd);
	cmd = xasprintf("PATH='%s:%s' '%s' clang-version --all", path, old, test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "clang-17   17.0.0   Chromium OS"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "clang-5.0  5.0.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Apple numbering"));
	free(out), free(err), free(cmd);
	cmd = xasprintf("'%s' clang-version --cc gcc", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "gcc is not clang"));
	free(out), free(err), free(cmd);
	cmd = xasprintf("'%s' clang-version --bogus", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	free(out), free(err), free(cmd);
	cmd = xasprintf("'%s' clang-version --help", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: klang clang-version"));
	free(out), free(err), free(cmd);

	/* every vendor format through the CLI, as --cc PATH */
	static const struct {
		const char *text, *want;
	} vendors[] = {
	    {"Debian clang version 14.0.6", "14.0.6\n"},
	    {"clang version 19.1.7 (https://github.com/llvm/llvm-project cd708029e0b2)",
	     "19.1.7\n"},
	    {"Ubuntu clang version 14.0.0-1ubuntu1", "14.0.0\n"},
	    {"clang version 5.0.0-3~16.04.1 (tags/RELEASE_500/final)", "5.0.0\n"},
	    {"Android (4691093 based on r316199) clang version 6.0.2 "
	     "(https://android.googlesource.com/toolchain/clang 183abd29)",
	     "6.0.2\n"},
	    {"Chromium OS 17.0_pre496208_p20230501-r1 clang version 17.0.0", "17.0.0\n"},
	    {"Apple clang version 15.0.0 (clang-1500.1.0.2.5)", "Apple 15.0.0\n"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(vendors); i++) {
		char *name = xasprintf("cc%zu", i);
		fake_cc(dir2, name, vendors[i].text);
		cmd = xasprintf("'%s' clang-version --cc '%s/%s'", test_klang_bin(), dir2, name);
		CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
		CU_ASSERT_STRING_EQUAL(out, vendors[i].want);
		free(out), free(err), free(cmd), free(name);
	}

	free(path);
	free(old);
	free(dir2);
	test_rmdir(dir);
	free(dir);
}

void suite_clangver(void)
{
	CU_pSuite s = CU_add_suite("clangver", NULL, NULL);
	CU_add_test(s, "vendor --version formats", test_vendor_formats);
	CU_add_test(s, "partial versions and their order", test_parse_compare);
	CU_add_test(s, "detect the real clang-14", test_detect_real_clang14);
	CU_add_test(s, "fake compilers on PATH, klang clang-version", test_fake_compilers_on_path);
	CU_add_test(s, "compilers that hang, stream or cannot run", test_stuck_compilers);
}
