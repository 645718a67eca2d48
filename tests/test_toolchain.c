/* Tests for core/toolchain: the make variables of llvm, clang, gcc and
 * compiler paths, native and cross, with wrappers and the user's overrides. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/build.h"
#include "core/clangver.h"
#include "core/toolchain.h"
#include "core/util.h"
#include "tests/helpers.h"

static char *vars(const struct toolchain *tc)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < tc->nvars; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", tc->vars[i]);
	return sb_detach(&sb);
}

/* Resolve and return "compiler|vars", or "error: ..." */
static char *resolve(const char *name, const char *arch, const char *wrapper, const char **mv,
		     size_t nmv)
{
	struct toolchain tc;
	struct kerr e;
	if (toolchain_resolve(&tc, name, arch, "/nonexistent", wrapper, mv, nmv, &e) < 0)
		return xasprintf("error: %s", e.msg);
	char *v = vars(&tc);
	char *r = xasprintf("%s|%s|%s", tc.label, tc.compiler, v);
	free(v);
	toolchain_free(&tc);
	return r;
}

#define CHECK(got, want)                                                                           \
	do {                                                                                       \
		char *g_ = (got);                                                                  \
		CU_ASSERT_STRING_EQUAL(g_, want);                                                  \
		free(g_);                                                                          \
	} while (0)

static bool have(const char *prog)
{
	char *p = path_search(prog);
	free(p);
	return p != NULL;
}

static void test_native_and_cross(void)
{
	CU_ASSERT_STRING_EQUAL(toolchain_host_arch(), "x86_64"); /* where the suite runs */
	CU_ASSERT_TRUE(toolchain_arch_is_native("x86_64"));
	CU_ASSERT_TRUE(toolchain_arch_is_native("x86"));
	CU_ASSERT_FALSE(toolchain_arch_is_native("arm64"));
	CU_ASSERT_TRUE_FATAL(have("clang") && have("aarch64-linux-gnu-gcc"));

	CHECK(resolve("llvm", "arm64", NULL, NULL, 0), "llvm|clang|LLVM=1");
	CHECK(resolve("llvm", "x86_64", NULL, NULL, 0), "llvm|clang|LLVM=1");
	CHECK(resolve("clang", "arm64", NULL, NULL, 0),
	      "clang|clang|CROSS_COMPILE=aarch64-linux-gnu- CC=clang");
	CHECK(resolve("clang", "x86_64", NULL, NULL, 0), "clang|clang|CC=clang");
	CHECK(resolve("gcc", "arm64", NULL, NULL, 0),
	      "gcc|aarch64-linux-gnu-gcc|CROSS_COMPILE=aarch64-linux-gnu-");
	CHECK(resolve("gcc", "x86_64", NULL, NULL, 0), "gcc|gcc|");
	CHECK(resolve("gcc-12", "arm64", NULL, NULL, 0),
	      "gcc-12|aarch64-linux-gnu-gcc-12|CROSS_COMPILE=aarch64-linux-gnu- "
	      "CC=aarch64-linux-gnu-gcc-12");
	CHECK(resolve("/usr/bin/clang", "arm64", NULL, NULL, 0),
	      "clang|/usr/bin/clang|CROSS_COMPILE=aarch64-linux-gnu- CC=/usr/bin/clang");
}

static void test_wrappers_and_overrides(void)
{
	/* the wrapper goes in front of CC only; HOSTCC is left alone */
	CHECK(resolve("llvm", "arm64", "ccache", NULL, 0), "llvm|clang|LLVM=1 CC=ccache clang");
	CHECK(resolve("gcc", "arm64", "distcc", NULL, 0),
	      "gcc|aarch64-linux-gnu-gcc|CROSS_COMPILE=aarch64-linux-gnu- "
	      "CC=distcc aarch64-linux-gnu-gcc");
	CHECK(resolve("clang", "x86_64", "icecc", NULL, 0), "clang|clang|CC=icecc clang");
	/* LLVM_IAS=0 uses GNU as: the target's binutils come in */
	const char *ias[] = {"LLVM_IAS=0"};
	CHECK(resolve("llvm", "arm64", NULL, ias, 1),
	      "llvm|clang|LLVM=1 CROSS_COMPILE=aarch64-linux-gnu-");
	/* the user's CROSS_COMPILE and CC win and are not generated twice */
	const char *cc[] = {"CROSS_COMPILE=aarch64-linux-gnu-", "CC=my-gcc"};
	CHECK(resolve("gcc", "arm64", NULL, cc, 1), "gcc|aarch64-linux-gnu-gcc|");
	CHECK(resolve("clang", "arm64", NULL, cc, 2), "clang|clang|");
}

static void test_errors(void)
{
	CHECK(resolve("icc", "x86_64", NULL, NULL, 0),
	      "error: unknown toolchain 'icc' (llvm, llvm-N, clang, clang-N, gcc, gcc-N, or a "
	      "compiler path)");
	CHECK(resolve("llvm-99", "arm64", NULL, NULL, 0),
	      "error: llvm-99: clang-99 not found on PATH");
	CHECK(resolve("/nonexistent/cc", "arm64", NULL, NULL, 0),
	      "error: /nonexistent/cc: not an executable compiler");
	char *r = resolve("gcc", "alpha", NULL, NULL, 0);
	if (!have("alpha-linux-gnu-gcc"))
		CU_ASSERT_STRING_EQUAL(r, "error: alpha: no cross gcc on PATH (tried "
					  "alpha-linux-gnu-gcc); pass -- CROSS_COMPILE=PREFIX");
	free(r);
	CHECK(resolve("gcc", "nosucharch", NULL, NULL, 0),
	      "error: nosucharch: no known cross triple; pass -- CROSS_COMPILE=PREFIX");
}

/* LLVM=-N where the tree knows it, the tools by name where it does not. */
static void test_llvm_version(void)
{
	char *dir = test_tmpdir(), *mk = xasprintf("%s/Makefile", dir);
	char *bin = xasprintf("%s/bin", dir), *clang = xasprintf("%s/clang-77", bin);
	struct kerr e;
	CU_ASSERT_EQUAL(mkdir_p(bin, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(clang, "#!/bin/sh\n", 10, &e), 0);
	char *cmd = xasprintf("chmod +x %s", clang);
	CU_ASSERT_EQUAL(system(cmd), 0);
	char *old = xstrdup(getenv("PATH"));
	char *path = xasprintf("%s:%s", bin, old);
	setenv("PATH", path, 1);

	struct toolchain tc;
	CU_ASSERT_EQUAL(write_file_atomic(mk, "LLVM_SUFFIX := $(LLVM)\n", 23, &e), 0);
	CU_ASSERT_EQUAL_FATAL(toolchain_resolve(&tc, "llvm-77", "arm64", dir, NULL, NULL, 0, &e),
			      0);
	char *v = vars(&tc);
	CU_ASSERT_STRING_EQUAL(v, "LLVM=-77");
	CU_ASSERT_STRING_EQUAL(tc.compiler, "clang-77");
	free(v);
	toolchain_free(&tc);
	CU_ASSERT_EQUAL(write_file_atomic(mk, "CC = clang\n", 11, &e), 0);
	CU_ASSERT_EQUAL_FATAL(toolchain_resolve(&tc, "llvm-77", "arm64", dir, NULL, NULL, 0, &e),
			      0);
	v = vars(&tc);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "LLVM=1 CC=clang-77 LD=ld.lld-77 AR=llvm-ar-77"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "HOSTCC=clang-77"));
	free(v);
	toolchain_free(&tc);

	setenv("PATH", old, 1);
	free(old);
	free(path);
	free(cmd);
	free(clang);
	free(bin);
	free(mk);
	test_rmdir(dir);
	free(dir);
}

/* The version line recorded per build: the first line, also from a tool
 * that leaves a process holding its output; a tool that never answers is
 * given up after CLANGVER_TIMEOUT seconds. */
static void test_version_line(void)
{
	char *dir = test_tmpdir();
	char *tool = xasprintf("%s/cc-bg", dir);
	char *body = xasprintf("printf '#!/bin/sh\\necho \"cc-bg 1.2.3\"\\necho second\\n"
			       "sleep 30 &\\n' > '%s' && chmod +x '%s'",
			       tool, tool);
	CU_ASSERT_EQUAL_FATAL(test_run(body, NULL, NULL), 0);
	double t0 = build_now();
	char *line = tool_version_line(tool);
	CU_ASSERT_STRING_EQUAL(line ? line : "", "cc-bg 1.2.3");
	CU_ASSERT(build_now() - t0 < 5);
	free(line);
	/* one that never answers is given up (it hung klang build for good) */
	char *hang =
	    xasprintf("printf '#!/bin/sh\nexec sleep 60\n' > '%s' && chmod +x '%s'", tool, tool);
	CU_ASSERT_EQUAL_FATAL(test_run(hang, NULL, NULL), 0);
	t0 = build_now();
	CU_ASSERT_PTR_NULL(tool_version_line(tool));
	CU_ASSERT(build_now() - t0 < CLANGVER_TIMEOUT + 5);
	free(hang);
	char *missing = xasprintf("%s/nope", dir);
	CU_ASSERT_PTR_NULL(tool_version_line(missing));
	free(missing);
	free(body);
	free(tool);
	test_rmdir(dir);
	free(dir);
}

void suite_toolchain(void)
{
	CU_pSuite s = CU_add_suite("toolchain", NULL, NULL);
	CU_add_test(s, "native and cross", test_native_and_cross);
	CU_add_test(s, "wrappers and user overrides", test_wrappers_and_overrides);
	CU_add_test(s, "errors name what is wrong", test_errors);
	CU_add_test(s, "versioned LLVM", test_llvm_version);
	CU_add_test(s, "--version line of a tool that leaves a process behind", test_version_line);
}
