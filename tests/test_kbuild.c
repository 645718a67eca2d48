/* Tests for core/kbuild: quiet lines, progress and the stand-in counter, on
 * hand-made lines and on real Linux 6.1 build logs. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/kbuild.h"
#include "core/util.h"
#include "tests/helpers.h"

static bool parse(const char *s, struct kbuild_line *kl)
{
	return kbuild_parse_line(s, strlen(s), kl);
}

static void test_quiet_lines(void)
{
	struct kbuild_line kl;
	CU_ASSERT_TRUE(parse("  CC      kernel/fork.o", &kl));
	CU_ASSERT_STRING_EQUAL(kl.tag, "CC");
	CU_ASSERT_FALSE(kl.module);
	CU_ASSERT_TRUE(kl.object);
	CU_ASSERT_EQUAL(kl.target_len, strlen("kernel/fork.o"));
	CU_ASSERT_EQUAL(strncmp(kl.target, "kernel/fork.o", kl.target_len), 0);
	CU_ASSERT_TRUE(parse("  CC [M]  drivers/net/dummy.o", &kl));
	CU_ASSERT_TRUE(kl.module && kl.object);
	CU_ASSERT_EQUAL(strncmp(kl.target, "drivers/net/dummy.o", kl.target_len), 0);
	CU_ASSERT_TRUE(parse("  AS      arch/x86/entry/entry_64.o", &kl) && kl.object);
	CU_ASSERT_TRUE(parse("  LD [M]  fs/ext4/ext4.ko", &kl) && kl.module && !kl.object);
	CU_ASSERT_TRUE(parse("  HOSTCC  scripts/basic/fixdep", &kl) && !kl.object);
	CU_ASSERT_TRUE(parse("  SORTTAB vmlinux", &kl));
	CU_ASSERT_STRING_EQUAL(kl.tag, "SORTTAB");
	CU_ASSERT_TRUE(parse("  AR      lib/built-in.a\r", &kl));
	CU_ASSERT_EQUAL(kl.target_len, strlen("lib/built-in.a"));
	/* not quiet lines */
	CU_ASSERT_FALSE(parse("  733 |         int x;", &kl));
	CU_ASSERT_FALSE(parse("make[1]: Entering directory '/tmp/o'", &kl));
	CU_ASSERT_FALSE(parse("  Kernel: arch/x86/boot/bzImage is ready  (#1)", &kl));
	CU_ASSERT_FALSE(parse("   CC      three/spaces.o", &kl));
	CU_ASSERT_FALSE(parse("  CC", &kl));
	CU_ASSERT_FALSE(parse("  CC      ", &kl));
	CU_ASSERT_FALSE(parse("kernel/fork.c:12:3: warning: unused variable 'x'", &kl));
	CU_ASSERT_FALSE(parse("  AVERYLONGTAGNAMEXX foo", &kl));
}

static void test_progress(void)
{
	struct kbuild_progress p;
	memset(&p, 0, sizeof(p));
	CU_ASSERT_EQUAL(kbuild_progress_fraction(&p), -1); /* indeterminate */
	CU_ASSERT_EQUAL(kbuild_eta(&p, 10), -1);
	p.expected = 100;
	for (int i = 0; i < 50; i++)
		kbuild_progress_line(&p, "  CC      a.o", 13);
	kbuild_progress_line(&p, "  LD      vmlinux", 17);
	CU_ASSERT_EQUAL(p.objects, 50);
	CU_ASSERT_EQUAL(p.steps, 51);
	CU_ASSERT_STRING_EQUAL(p.last, "LD vmlinux");
	CU_ASSERT_DOUBLE_EQUAL(kbuild_progress_fraction(&p), 0.5, 1e-9);
	CU_ASSERT_EQUAL(kbuild_eta(&p, 20), 20); /* 50 objects in 20 s, 50 left */
	p.objects = 100; /* all of them: never 100% before the end (linking) */
	CU_ASSERT_DOUBLE_EQUAL(kbuild_progress_fraction(&p), 0.99, 1e-9);
	CU_ASSERT_EQUAL(kbuild_eta(&p, 20), 0);
	CU_ASSERT_TRUE(kbuild_total_known(&p));
	/* more than last time (the build before was an incremental one): the
	 * total was wrong, the progress is not known */
	p.objects = 200;
	CU_ASSERT_FALSE(kbuild_total_known(&p));
	CU_ASSERT_EQUAL(kbuild_progress_fraction(&p), -1);
	CU_ASSERT_EQUAL(kbuild_eta(&p, 20), -1);
	kbuild_progress_line(&p, "  CC [M]  drivers/x.o", 21);
	CU_ASSERT_STRING_EQUAL(p.last, "CC [M] drivers/x.o");
	/* two jobs wrote into one line: the object still counts */
	const char *mixed = "In file included from   CC      kernel/exit.o";
	kbuild_progress_line(&p, mixed, strlen(mixed));
	CU_ASSERT_EQUAL(p.objects, 202);
	CU_ASSERT_STRING_EQUAL(p.last, "CC kernel/exit.o");
	const char *text = "int x = 1;  /* CC is a name */";
	kbuild_progress_line(&p, text, strlen(text));
	CU_ASSERT_EQUAL(p.objects, 202);
}

/* Count lines of a real log the dumb way, to check the parser against. */
static void count_log(const char *text, unsigned long *objects, unsigned long *warnings)
{
	*objects = *warnings = 0;
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		if (!strncmp(l, "  CC      ", 10) || !strncmp(l, "  AS      ", 10) ||
		    !strncmp(l, "  CC [M]  ", 10) || !strncmp(l, "  AS [M]  ", 10))
			(*objects)++;
		char *line = xstrndup(l, n);
		if (strstr(line, ": warning:"))
			(*warnings)++;
		free(line);
		l += n + (l[n] == '\n');
	}
}

/* The shared fixtures, next to the main tree or next to the worktrees. */
static char *fixture(const char *rel)
{
	char *p = test_fixture(rel);
	if (!file_exists(p)) {
		free(p);
		p = xasprintf("%s/../../shared/fixtures/%s", test_src_dir(), rel);
	}
	return p;
}

static void test_real_logs(void)
{
	static const char *const logs[] = {"linux-6.1/tinyconfig-W1-gcc-x86.log",
					   "linux-6.1/tinyconfig-W1-clang-x86.log"};
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		char *path = fixture(logs[i]);
		struct kerr e;
		size_t len;
		char *text = read_file(path, &len, &e);
		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		unsigned long want_obj, want_warn, warnings = 0, errors = 0;
		count_log(text, &want_obj, &want_warn);
		struct kbuild_progress p;
		memset(&p, 0, sizeof(p));
		void *st = kbuild_simple_counter.open("x86_64", "gcc");
		for (const char *l = text; *l;) {
			size_t n = strcspn(l, "\n");
			kbuild_progress_line(&p, l, n);
			kbuild_simple_counter.line(st, l, n, &warnings, &errors);
			l += n + (l[n] == '\n');
		}
		kbuild_simple_counter.close(st);
		CU_ASSERT_TRUE(want_obj > 400); /* a real tinyconfig build */
		CU_ASSERT_EQUAL(p.objects, want_obj);
		CU_ASSERT_EQUAL(warnings, want_warn);
		CU_ASSERT_TRUE(want_warn > 0);
		CU_ASSERT_EQUAL(errors, 0);
		free(text);
		free(path);
	}
}

static void test_counter(void)
{
	unsigned long w = 0, e = 0;
	static const char *const lines[] = {
	    "kernel/fork.c:1:2: warning: unused variable 'x' [-Wunused-variable]",
	    "kernel/fork.c:3:4: error: expected ';' after return statement",
	    "init/main.c:5:10: fatal error: 'foo.h' file not found",
	    "ld.lld: error: undefined symbol: foo",
	    "WARNING: modpost: vmlinux.o: section mismatch in reference",
	    "kernel/fork.c:1:2: note: declared here",
	    "make[2]: *** [scripts/Makefile.build:250: kernel/fork.o] Error 1",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		kbuild_simple_counter.line(NULL, lines[i], strlen(lines[i]), &w, &e);
	CU_ASSERT_EQUAL(w, 2);
	CU_ASSERT_EQUAL(e, 3);
}

static void test_config_line(void)
{
	static const char config[] = "#\n# Automatically generated file; DO NOT EDIT.\n#\n"
				     "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n"
				     "CONFIG_UNWINDER_ORC=y\n"
				     "# CONFIG_UNWINDER_GUESS is not set\n"
				     "CONFIG_SLOB=y\n";
	static const struct {
		const char *msg;
		unsigned line;
	} cases[] = {
	    {"override: UNWINDER_GUESS changes choice state", 6},
	    {"unmet direct dependencies detected for SLOB", 7},
	    {"symbol value 'x' invalid for CONFIG_UNWINDER_ORC", 5},
	    {"override: FOO and then SLOB", 7},		     /* the first the config has */
	    {"override: reassigning to symbol UNWINDER", 0}, /* not a prefix */
	    {"CC_VERSION changed", 0},
	    {"xSLOB is lower case before", 0},
	    {"no symbol here", 0},
	    {"", 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CU_ASSERT_EQUAL(kbuild_config_line(config, cases[i].msg), cases[i].line);
	CU_ASSERT_EQUAL(kbuild_config_line("CONFIG_SLOB=y", "SLOB"), 1); /* no newline */
}

void suite_kbuild(void)
{
	CU_pSuite s = CU_add_suite("kbuild", NULL, NULL);
	CU_add_test(s, "quiet lines", test_quiet_lines);
	CU_add_test(s, "progress and ETA", test_progress);
	CU_add_test(s, "real Linux 6.1 logs", test_real_logs);
	CU_add_test(s, "warning and error counter", test_counter);
	CU_add_test(s, "the .config line of a Kconfig message", test_config_line);
}
