/* Tests for core/build and klang build: real builds of a small Kbuild-like
 * tree with gcc and clang for arm64 and x86_64, the jobserver bound counted
 * through a compiler wrapper, failures and usage errors, all through the CLI.
 * The process side (cancel, SIGINT, records, wrappers) is in test_buildrun.c. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buildlogs.h"
#include "core/util.h"
#include "tests/buildtest.h"
#include "tests/helpers.h"
#include "tests/kbuild_tree.h"

static json_t *summary_build(json_t *sum, const char *name)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(sum, "builds"), i, b)
	{
		const char *n = json_string_value(json_object_get(b, "name"));
		if (n && !strcmp(n, name))
			return b;
	}
	return NULL;
}

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* The demo tree (patchsets/demo/tree): Kbuild-like, recursive makes. */
static char *demo_tree(void)
{
	return xasprintf("%s/patchsets/demo/tree", test_src_dir());
}

/* Four real builds of the demo tree, the cross product, on one jobserver. */
static void test_cross_product(void)
{
	char *dir = test_tmpdir(), *tree = demo_tree(), *out, *err;
	char *cmd = xasprintf("%s build --repo %s --arch arm64,x86_64 --toolchain gcc,llvm "
			      "--config defconfig --jobs 2 --out %s/out --records %s/rec",
			      test_klang_bin(), tree, dir, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "klang: 4 builds on 2 jobs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "arm64-llvm: ok (exit 0), "));
	char *sp = xasprintf("%s/out/summary.json", dir);
	json_t *sum = json_load_file(sp, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "jobs")), 2);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(sum, "builds")), 4);
	static const struct {
		const char *name, *version, *var;
		int machine;
	} want[] = {
	    {"arm64-gcc", "aarch64-linux-gnu-gcc", "CROSS_COMPILE=aarch64-linux-gnu-", 183},
	    {"arm64-llvm", "clang version", "LLVM=1", 183},
	    {"x86_64-gcc", "gcc", "ARCH=x86_64", 62},
	    {"x86_64-llvm", "clang version", "LLVM=1", 62},
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		json_t *b = summary_build(sum, want[i].name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_STRING_EQUAL(jstr(b, "status"), "ok");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "exit_code")), 0);
		CU_ASSERT_TRUE(json_integer_value(json_object_get(b, "objects")) > 20);
		CU_ASSERT_TRUE(json_integer_value(json_object_get(b, "warnings")) > 5);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "errors")), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(jstr(b, "compiler_version"), want[i].version));
		CU_ASSERT_PTR_NOT_NULL(strstr(jstr(b, "command"), want[i].var));
		CU_ASSERT_PTR_NOT_NULL(strstr(jstr(b, "command"), " defconfig && "));
		CU_ASSERT_TRUE(json_real_value(json_object_get(b, "seconds")) > 0);
		/* the per-build summary and the untouched log */
		char *per = xasprintf("%s/out/%s/summary.json", dir, want[i].name);
		CU_ASSERT_TRUE(file_exists(per));
		free(per);
		char *log = read_file(jstr(b, "log"), NULL, &(struct kerr){0});
		CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "\n  CC      kernel/fork.o\n"));
		CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "\n  LD      vmlinux\n"));
		CU_ASSERT_PTR_NULL(log ? strstr(log, "jobserver unavailable") : NULL);
		free(log);
		/* a real object file for the right machine */
		char *vmlinux = xasprintf("%s/out/%s/vmlinux", dir, want[i].name);
		CU_ASSERT_EQUAL(buildtest_elf_machine(vmlinux), want[i].machine);
		free(vmlinux);
	}
	/* the repeat command line really repeats the build */
	json_t *b = summary_build(sum, "arm64-llvm");
	char *again =
	    xasprintf("rm -rf %s/out/arm64-llvm && (%s) >/dev/null 2>&1", dir, jstr(b, "command"));
	CU_ASSERT_EQUAL(system(again), 0);
	char *vm = xasprintf("%s/out/arm64-llvm/vmlinux", dir);
	CU_ASSERT_EQUAL(buildtest_elf_machine(vm), 183);
	char *state = xasprintf("%s/.klang", tree);
	CU_ASSERT_FALSE(file_exists(state)); /* the tree is never written to */
	free(state);
	char *rec = xasprintf("%s/rec/arm64-gcc-defconfig.json", dir);
	CU_ASSERT_TRUE(file_exists(rec));
	free(rec);
	json_decref(sum);
	free(vm);
	free(again);
	free(sp);
	free(out);
	free(err);
	free(cmd);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

/* The bound: a wrapper counts compilers running at once (under flock), in
 * the demo tree's recursive makes. */
static int bound_run(const char *arches, int jobs)
{
	char *dir = test_tmpdir(), *tree = demo_tree();
	char *cc = buildtest_counting_cc(dir, 0.1);
	char *cmd = xasprintf("%s build --repo %s --arch %s --toolchain %s --config defconfig "
			      "--jobs %d --out %s/out --records %s/rec",
			      test_klang_bin(), tree, arches, cc, jobs, dir, dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	int max = buildtest_max_concurrency(dir);
	free(cmd);
	free(cc);
	free(tree);
	test_rmdir(dir);
	free(dir);
	return max;
}

static void test_jobserver_bound(void)
{
	int max = bound_run("x86_64,arm64", 2);
	CU_ASSERT_TRUE(max <= 2);		    /* two builds on 2 slots */
	CU_ASSERT_TRUE(max > 1);		    /* and they did run in parallel */
	CU_ASSERT_EQUAL(bound_run("x86_64", 3), 3); /* one build uses every slot */
}

static void test_failure_and_warnings(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir), *out;
	char *cmd = xasprintf("%s build --repo %s --arch x86_64 --toolchain gcc,clang "
			      "--config tinyconfig --fragment CONFIG_WARN=y --jobs 2 --out %s/w",
			      test_klang_bin(), tree, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-gcc: ok (exit 0), 4 objects, 1 warning"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-clang: ok (exit 0), 4 objects, 1 warning"));
	free(out);
	free(cmd);
	/* one build breaks, the other goes on; exit 1; the tail of the log is shown */
	char *frag = xasprintf("%s/broken.config", dir);
	CU_ASSERT_EQUAL(write_file_atomic(frag, "CONFIG_BROKEN=y\n", 16, &(struct kerr){0}), 0);
	cmd = xasprintf("%s build --repo %s --arch x86_64 --toolchain gcc,llvm "
			"--config tinyconfig --fragment %s --jobs 2 --out %s/f -- V=1",
			test_klang_bin(), tree, frag, dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-gcc: failed (exit 2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-llvm: failed (exit 2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "    | "));
	char *sp = xasprintf("%s/f/summary.json", dir);
	json_t *sum = json_load_file(sp, 0, NULL);
	json_t *b = summary_build(sum, "x86_64-gcc");
	CU_ASSERT_STRING_EQUAL(jstr(b, "status"), "failed");
	CU_ASSERT_TRUE(json_integer_value(json_object_get(b, "errors")) >= 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(jstr(b, "command"), "fragment.config >> "));
	CU_ASSERT_PTR_NOT_NULL(strstr(jstr(b, "command"), " V=1"));
	json_decref(sum);
	free(sp);
	free(out);
	free(cmd);
	free(frag);
	/* no --arch, --toolchain or --config: the tree's config.yaml has them */
	char *cfg = xasprintf("%s/.klang/config.yaml", tree),
	     *cfgdir = xasprintf("%s/.klang", tree);
	const char *yaml = "arches: [x86_64]\ntoolchains: [gcc, llvm]\nconfig: tinyconfig\n";
	CU_ASSERT_FATAL(!mkdir_p(cfgdir, &(struct kerr){0}) &&
			!write_file_atomic(cfg, yaml, strlen(yaml), &(struct kerr){0}));
	/* nor --out: the tree's .klang/out, as the builds view has it, kept out of git */
	cmd = xasprintf("%s build --repo %s --fragment CONFIG_WARN=y --jobs 2", test_klang_bin(),
			tree);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "klang: 2 builds on 2 jobs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-gcc: ok (exit 0), 4 objects, 1 warning"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x86_64-llvm: ok (exit 0), 4 objects, 1 warning"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/.klang/out/x86_64-llvm/build.log"));
	/* klang diag diff with no logs compares these builds, as the warnings
	 * view does: the same rows as with the logs named */
	char *diff = xasprintf("%s diag diff --repo %s --format tsv", test_klang_bin(), tree),
	     *named = xasprintf("%s diag diff --gcc %s/.klang/out/x86_64-gcc/build.log --clang "
				"%s/.klang/out/x86_64-llvm/build.log --format tsv",
				test_klang_bin(), tree, tree);
	char *rows = NULL, *said = NULL, *rows_named = NULL;
	CU_ASSERT_EQUAL(test_run(diff, &rows, &said), 0);
	CU_ASSERT_EQUAL(test_run(named, &rows_named, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rows ? rows : "", "\nboth\t"));
	CU_ASSERT_STRING_EQUAL(rows ? rows : "", rows_named ? rows_named : "-");
	CU_ASSERT_PTR_NOT_NULL(strstr(said ? said : "", "klang: diag: x86_64: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(said ? said : "", "/x86_64-gcc/build.log against "));
	/* built again with nothing changed: nothing compiled, and the
	 * warnings are still those of the tree (the log before was kept);
	 * from a subdirectory (it has a Makefile too), the tree is built */
	char *again = NULL, *rows_again = NULL,
	     *sub = xasprintf("%s build --repo %s/kernel --fragment CONFIG_WARN=y --jobs 2",
			      test_klang_bin(), tree),
	     *subdiff = xasprintf("%s diag diff --repo %s/mm --format tsv", test_klang_bin(), tree),
	     *subout = xasprintf("%s/kernel/.klang", tree);
	CU_ASSERT_EQUAL(test_run(sub, &again, NULL), 0);
	CU_ASSERT_FALSE(file_exists(subout));
	CU_ASSERT_PTR_NOT_NULL(strstr(again ? again : "", "x86_64-gcc: ok (exit 0), 0 objects"));
	CU_ASSERT_PTR_NOT_NULL(strstr(again ? again : "",
				      "up to date, nothing compiled: the tree's warnings are in "
				      "the 1 log kept in "));
	char *said_again = NULL;
	CU_ASSERT_EQUAL(test_run(subdiff, &rows_again, &said_again), 0);
	free(subout);
	free(subdiff);
	free(sub);
	CU_ASSERT_STRING_EQUAL(rows_again ? rows_again : "", rows_named ? rows_named : "-");
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(said_again ? said_again : "", "/build.log, with the 2 logs kept before them\n"));
	free(said_again);
	free(again);
	free(rows_again);
	free(rows);
	free(rows_named);
	free(said);
	free(diff);
	free(named);
	char *ign = xasprintf("%s/.klang/.gitignore", tree);
	char *ignored = read_file(ign, NULL, &(struct kerr){0});
	CU_ASSERT_PTR_NOT_NULL(ignored && strstr(ignored, "/out/"));
	free(ignored);
	free(ign);
	free(out);
	/* a bad arch there is named as config.yaml's (its toolchains are fine) */
	const char *bad = "arches: [sparc99]\ntoolchains: [gcc]\n";
	CU_ASSERT_FATAL(!write_file_atomic(cfg, bad, strlen(bad), &(struct kerr){0}));
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &out), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "no arch/sparc99") &&
			       strstr(out, " (arches: of config.yaml)\n"));
	free(out);
	unlink(cfg);
	/* without it, the default toolchains are no config.yaml's */
	free(cmd);
	cmd = xasprintf("%s build --repo %s --arch sparc99", test_klang_bin(), tree);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &out), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "no arch/sparc99") && !strstr(out, "config.yaml"));
	free(out);
	free(cmd);
	free(cfg);
	free(cfgdir);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

static void test_usage_errors(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir);
	static const struct {
		const char *args, *msg;
	} cases[] = {
	    {"--arch arm64 --toolchain icc", "unknown toolchain 'icc'"},
	    {"--arch arm64 --toolchain gcc --jobs 0", "--jobs '0'"},
	    {"--arch arm64 --toolchain gcc --config nosuch",
	     "build: config 'nosuch': no such file"},
	    {"--arch arm64 --toolchain gcc --wrapper sccache", "build: wrapper 'sccache'"},
	    {"--arch arm64 --toolchain gcc -- notavar", "'notavar': not a make variable"},
	    {"--arch 'arm/64' --toolchain gcc", "'arm/64': not an ARCH name"},
	    {"--arch sparc99 --toolchain gcc", "no arch/sparc99 in /"},
	    {"--arch sparc99 --toolchain gcc", "(there: arm64 x86)"},
	    {"--arch arm64,arm64 --toolchain gcc", "arm64-gcc given twice"},
	    {"--arch arm64 --toolchain gcc --fragment /no/such.config", "/no/such.config"},
	    {"--arch arm64 --toolchain gcc --bogus", "unknown option '--bogus'"},
	    {"--arch '' --toolchain gcc", "--arch '': an empty name in the list"},
	    {"--arch arm64,,x86_64 --toolchain gcc", "--arch 'arm64,,x86_64': an empty name"},
	    {"--arch arm64 --toolchain ''", "--toolchain '': an empty name in the list"},
	    {"--arch arm64 --toolchain llvm,", "--toolchain 'llvm,': an empty name"},
	    {"--arch arm64 --toolchain gcc -- O=/tmp/x", "klang sets O itself (use --out)"},
	    {"--arch arm64 --toolchain gcc -- ARCH=x86_64", "klang sets ARCH itself (use --arch)"},
	    {"--arch arm64 --toolchain gcc -- LLVM=1", "klang sets LLVM itself (use --toolchain"},
	    {"--arch arm64 --toolchain gcc --config /nonexistent/.config",
	     "build: config /nonexistent/.config: No such file or directory"},
	    {"--arch arm64 --toolchain gcc --config /etc", "build: config /etc: a directory"},
	    {"--arch arm64 --toolchain gcc --out /etc/passwd",
	     "--out /etc/passwd: not a directory"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *cmd = xasprintf("%s build --repo %s --out %s/o %s", test_klang_bin(), tree,
				      dir, cases[i].args);
		char *err;
		CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
		if (!strstr(err, cases[i].msg))
			fprintf(stderr, "\n%s: %s", cases[i].args, err);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].msg));
		char *o = xasprintf("%s/o", dir); /* nothing written */
		CU_ASSERT_FALSE(file_exists(o));
		free(o);
		free(err);
		free(cmd);
	}
	char *cmd = xasprintf("%s build --repo %s/nowhere --arch x86 --toolchain gcc",
			      test_klang_bin(), dir),
	     *out;
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 2);
	free(cmd);
	cmd = xasprintf("%s build --help", test_klang_bin());
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: klang build"));
	free(out);
	free(cmd);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

/* The tree's .klang/config.yaml gives --config, --jobs and --wrapper when
 * they are not on the command line; the options win; a bad value is named. */
static void test_config_defaults(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir);
	char *klangdir = xasprintf("%s/.klang", tree), *cfg = xasprintf("%s/config.yaml", klangdir);
	struct kerr e;
	const char *yaml = "config: tinyconfig\njobs: 1\nwrapper: none\nmake: [W=1]\n";
	CU_ASSERT_FATAL(!mkdir_p(klangdir, &e) && !write_file_atomic(cfg, yaml, strlen(yaml), &e));
	const char *extra[] = {"", "--jobs 2 --config defconfig -- W=2"};
	const char *want_jobs[] = {"1 build on 1 job", "1 build on 2 jobs"};
	const char *want_cmd[] = {" W=1 tinyconfig && ", " W=1 W=2 defconfig && "};
	for (int i = 0; i < 2; i++) {
		char *cmd =
		    xasprintf("env HOME=%s XDG_CONFIG_HOME=%s/xdg %s build --repo %s --arch "
			      "x86_64 --toolchain gcc --out %s/o%d %s",
			      dir, dir, test_klang_bin(), tree, dir, i, extra[i]);
		char *out = NULL;
		CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out ? out : "", want_jobs[i]));
		char *sp = xasprintf("%s/o%d/summary.json", dir, i);
		json_t *sum = json_load_file(sp, 0, NULL);
		json_t *b = summary_build(sum, "x86_64-gcc");
		CU_ASSERT_PTR_NOT_NULL(strstr(b ? jstr(b, "command") : "", want_cmd[i]));
		json_decref(sum);
		free(sp);
		free(out);
		free(cmd);
	}
	yaml = "jobs: many\n";
	CU_ASSERT_EQUAL(write_file_atomic(cfg, yaml, strlen(yaml), &e), 0);
	char *cmd = xasprintf("env HOME=%s %s build --repo %s --arch x86_64 --toolchain gcc "
			      "--out %s/o9",
			      dir, test_klang_bin(), tree, dir);
	char *err = NULL;
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err ? err : "", "/.klang/config.yaml:1:"));
	free(err);
	free(cmd);
	free(cfg);
	free(klangdir);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

/* A build whose report cannot be written (stdout a full disk) fails (1),
 * though the build itself and its summary are fine. */
static void test_output_lost(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir), *err = NULL;
	char *cmd = xasprintf("%s build --repo %s --arch x86_64 --toolchain gcc --config "
			      "tinyconfig --jobs 1 --out %s/o > /dev/full",
			      test_klang_bin(), tree, dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, &err), 1);
	CU_ASSERT_STRING_EQUAL(err, "klang: build: cannot write the output\n");
	char *sp = xasprintf("%s/o/summary.json", dir);
	json_t *sum = json_load_file(sp, 0, NULL);
	json_t *b = summary_build(sum, "x86_64-gcc");
	CU_ASSERT_STRING_EQUAL(b ? jstr(b, "status") : "", "ok");
	json_decref(sum);
	free(sp);
	free(err);
	free(cmd);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

/* A tree that cannot be written (a distribution's source under /usr/src):
 * its builds and their records go to the cache, named after the tree, and
 * the warnings view finds them there. Root writes anywhere, so as root the
 * build runs as nobody. */
static void test_unwritable_tree(void)
{
	char *dir = test_tmpdir(), *tree = kbuild_tree_create(dir), *out = NULL, *err = NULL;
	char *cache = xasprintf("%s/cache", dir), *state = xasprintf("%s/.klang", tree);
	bool root = geteuid() == 0;
	char *git = xasprintf("git init -q '%s'", tree);
	CU_ASSERT_EQUAL_FATAL(test_run(git, NULL, NULL), 0);
	free(git);
	CU_ASSERT_FATAL(!mkdir_p(cache, &(struct kerr){0}) && !chmod(dir, 0755) &&
			!chmod(cache, 0777) && (root || !chmod(tree, 0555)));
	char *cmd =
	    xasprintf("XDG_CACHE_HOME=%s %s%s build --repo %s --arch x86_64 --toolchain "
		      "gcc,llvm --config tinyconfig --fragment CONFIG_WARN=y --jobs 2",
		      cache, root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "",
		      test_klang_bin(), tree);
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 0);
	char *home = xasprintf("%s/klang/trees/linux-", cache);
	char *said = xasprintf("klang: build: %s: Permission denied: building in %s", tree, home);
	CU_ASSERT_PTR_NOT_NULL(strstr(err ? err : "", said));
	CU_ASSERT_PTR_NOT_NULL(strstr(out ? out : "", "x86_64-llvm: ok (exit 0), 4 objects"));
	CU_ASSERT_FALSE(file_exists(state));
	setenv("XDG_CACHE_HOME", cache, 1);
	struct buildlog_pair *p;
	size_t n = buildlogs_find(tree, &p);
	unsetenv("XDG_CACHE_HOME");
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(p[0].arch, "x86_64");
	CU_ASSERT_PTR_NOT_NULL(strstr(p[0].gcc, home));
	CU_ASSERT_PTR_NOT_NULL(strstr(p[0].clang, "/out/x86_64-llvm/build.log"));
	buildlogs_free(p, n);
	/* and a triage status is kept there too, read back by the next run */
	const char *as = root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
	char *json = NULL, *fp = NULL, *list = NULL;
	char *diff = xasprintf("XDG_CACHE_HOME=%s %s%s diag diff --repo %s --format json", cache,
			       as, test_klang_bin(), tree);
	CU_ASSERT_EQUAL(test_run(diff, &json, NULL), 0);
	const char *at = json ? strstr(json, "\"fingerprint\": \"") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	fp = xstrndup(at + 16, 16);
	char *set = xasprintf("XDG_CACHE_HOME=%s %s%s diag triage --repo %s %s confirmed", cache,
			      as, test_klang_bin(), tree, fp);
	CU_ASSERT_EQUAL(test_run(set, NULL, NULL), 0);
	char *get = xasprintf("XDG_CACHE_HOME=%s %s%s diag triage --repo %s --list", cache, as,
			      test_klang_bin(), tree);
	CU_ASSERT_EQUAL(test_run(get, &list, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(list ? list : "", fp));
	CU_ASSERT_PTR_NOT_NULL(strstr(list ? list : "", "confirmed"));
	CU_ASSERT_FALSE(file_exists(state));
	free(list);
	free(get);
	free(set);
	free(fp);
	free(json);
	free(diff);
	CU_ASSERT_EQUAL(chmod(tree, 0755), 0);
	free(said);
	free(home);
	free(cmd);
	free(out);
	free(err);
	free(state);
	free(cache);
	free(tree);
	test_rmdir(dir);
	free(dir);
}

void suite_build(void)
{
	CU_pSuite s = CU_add_suite("build", NULL, NULL);
	CU_add_test(s, "arm64,x86_64 x gcc,llvm for real", test_cross_product);
	CU_add_test(s, "jobserver bound, counted by a compiler wrapper", test_jobserver_bound);
	CU_add_test(s, "warnings, failures, fragments", test_failure_and_warnings);
	CU_add_test(s, "usage errors", test_usage_errors);
	CU_add_test(s, "a report that cannot be written", test_output_lost);
	CU_add_test(s, "config.yaml: config, jobs, wrapper", test_config_defaults);
	CU_add_test(s, "a tree that cannot be written builds in the cache", test_unwritable_tree);
}
