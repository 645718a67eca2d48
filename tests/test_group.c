/* Tests for PCRE2 group rules (core/group.c): the shipped rules on the real
 * arm64 logs, named captures as subgroups, first match wins, and errors
 * that name the file, line and column. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/diagout.h"
#include "core/group.h"
#include "core/util.h"
#include "tests/diagtest.h"
#include "tests/helpers.h"

static struct group_rules *rules_from(const char *dir, const char *text, struct kerr *e)
{
	char *path = xasprintf("%s/rules.yaml", dir);
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), e), 0);
	struct group_rules *r = group_rules_new();
	if (group_rules_load(r, path, e)) {
		group_rules_free(r);
		r = NULL;
	}
	free(path);
	return r;
}

static void test_shipped_rules(void)
{
	struct kerr e;
	struct group_rules *r = group_rules_default("/nonexistent", NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(group_rules_count(r) >= 10);
	char *path = dt_ours("tinyconfig-W1-clang-arm64.log");
	struct diag_set *s = dt_parse_file(path, DIAG_CC_UNKNOWN);
	struct diag_families *f = diag_families_default("/nonexistent", NULL, &e);
	diag_families_apply(f, s);
	group_apply(r, s);
	struct diag *d = dt_find(s, "include/uapi/asm-generic/unistd.h", 34, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "syscall-table") && !d->subgroup);
	d = dt_find(s, "kernel/sys_ni.c", 39, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "syscall-prototypes"));
	d = dt_find(s, "arch/arm64/kernel/sys.c", 41, NULL); /* __arm64_sys_ni_syscall */
	CU_ASSERT_TRUE(d && !strcmp(d->group, "syscall-prototypes"));
	d = dt_find(s, "arch/arm64/kernel/irq.c", 122, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "missing-prototypes") &&
		       !strcmp(d->subgroup, "arch/arm64"));
	d = dt_find(s, "kernel/fork.c", 1276, "'mm'");
	CU_ASSERT_TRUE(d && !strcmp(d->group, "kernel-doc-parameters") &&
		       !strcmp(d->subgroup, "set_mm_exe_file"));
	d = dt_find(s, "include/linux/sunrpc/xdr.h", 752, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "tautological-compare"));
	/* a view's groups: biggest first, subgroups counted */
	struct diag **rows = xmalloc(diag_set_size(s) * sizeof(*rows));
	for (size_t i = 0; i < diag_set_size(s); i++)
		rows[i] = diag_set_get(s, i);
	size_t ng;
	struct diag_group *g = group_collect(rows, diag_set_size(s), &ng);
	CU_ASSERT_TRUE(ng >= 4);
	CU_ASSERT_STRING_EQUAL(g[0].name, "syscall-table");
	for (size_t k = 1; k < ng; k++)
		CU_ASSERT_TRUE(g[k - 1].n >= g[k].n);
	size_t total = 0;
	for (size_t k = 0; k < ng; k++) {
		total += g[k].n;
		if (!strcmp(g[k].name, "missing-prototypes"))
			CU_ASSERT_TRUE(g[k].nsub >= 3);
	}
	CU_ASSERT_EQUAL(total, diag_set_size(s));
	group_collect_free(g, ng);
	free(rows);
	diag_families_free(f);
	diag_set_free(s);
	group_rules_free(r);
	free(path);
}

static void test_captures_and_order(void)
{
	char *dir = test_tmpdir();
	struct kerr e;
	struct group_rules *r =
	    rules_from(dir,
		       "- name: first\n"
		       "  message: 'frame size \\((?<size>\\d+)\\).*in (?<fn>\\w+)'\n"
		       "- name: never\n"
		       "  flag: '^-Wframe'\n"
		       "- name: by-file\n"
		       "  file: '^(?<top>[^/]+)/'\n",
		       &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	struct diag_set *s = dt_parse_text(
	    "/s/kernel/a.c:1:1: warning: frame size (2048) is big in foo [-Wframe-larger-than]\n"
	    "/s/mm/b.c:2:1: warning: other [-Wother]\n"
	    "/s/mm/c.c:3:1: warning: frame is big [-Wframe-larger-than]\n",
	    DIAG_CC_CLANG);
	group_apply(r, s);
	struct diag *d = dt_find(s, "kernel/a.c", 1, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "first") && !strcmp(d->subgroup, "2048/foo"));
	d = dt_find(s, "mm/b.c", 2, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "by-file") && !strcmp(d->subgroup, "mm"));
	d = dt_find(s, "mm/c.c", 3, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->group, "never"));
	struct strbuf b = STRBUF_INIT;
	CU_ASSERT_STRING_EQUAL(group_label(dt_find(s, "kernel/a.c", 1, NULL), &b),
			       "first:2048/foo");
	sb_free(&b);
	diag_set_free(s);
	group_rules_free(r);
	/* nothing matches: the flag family */
	r = rules_from(dir, "- name: x\n  flag: nomatch\n", &e);
	s = dt_parse_text("/s/kernel/a.c:1:1: warning: w [-Wunused-const-variable=]\n",
			  DIAG_CC_GCC);
	struct diag_families *f = diag_families_new();
	diag_families_apply(f, s);
	group_apply(r, s);
	CU_ASSERT_STRING_EQUAL(diag_set_get(s, 0)->group, "-Wunused-const-variable");
	diag_families_free(f);
	diag_set_free(s);
	group_rules_free(r);
	test_rmdir(dir);
	free(dir);
}

/* The groups of file's diagnostics at lines 1, 2, ... */
static void expect_groups(const struct diag_set *s, const char *file, const char *const *want,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct diag *d = dt_find(s, file, (unsigned)i + 1, NULL);
		CU_ASSERT_TRUE(d && !strcmp(d->group, want[i]));
	}
}

/* Rules are skipped by their flag patterns, a bit per rule: the 70th of 70
 * rules still matches, a flag pattern matches the family as well as the
 * flag, and a rule with no flag pattern is tried for every flag. */
static void test_many_rules(void)
{
	char *dir = test_tmpdir();
	struct kerr e;
	struct strbuf t = STRBUF_INIT;
	for (int k = 0; k < 69; k++)
		sb_addf(&t, "- name: r%d\n  flag: '^-Wnever%d$'\n", k, k);
	sb_adds(&t, "- name: last\n  flag: '^-Wlast$'\n");
	struct group_rules *r = rules_from(dir, t.buf, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(group_rules_count(r), 70);
	struct diag_set *s = dt_parse_text("/s/kernel/a.c:1:1: warning: w [-Wlast]\n"
					   "/s/kernel/a.c:2:1: warning: w [-Wnever68]\n"
					   "/s/kernel/a.c:3:1: warning: w [-Wother]\n"
					   "/s/kernel/a.c:4:1: warning: w [-Wlast]\n",
					   DIAG_CC_CLANG);
	group_apply(r, s);
	const char *const want[] = {"last", "r68", "-Wother", "last"};
	expect_groups(s, "kernel/a.c", want, ARRAY_SIZE(want));
	diag_set_free(s);
	group_rules_free(r);
	r = rules_from(dir,
		       "- name: fam\n  flag: '^-Wmaybe-uninitialized$'\n"
		       "- name: any\n  message: 'big'\n",
		       &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	s = dt_parse_text("/s/mm/b.c:1:1: warning: v may be unset [-Wsometimes-uninitialized]\n"
			  "/s/mm/b.c:2:1: warning: big [-Wa]\n"
			  "/s/mm/b.c:3:1: warning: big [-Wb]\n"
			  "/s/mm/b.c:4:1: warning: small [-Wa]\n",
			  DIAG_CC_CLANG);
	struct diag_families *f = diag_families_default("/nonexistent", NULL, &e);
	diag_families_apply(f, s);
	group_apply(r, s);
	const char *const want2[] = {"fam", "any", "any", "-Wa"};
	expect_groups(s, "mm/b.c", want2, ARRAY_SIZE(want2));
	diag_families_free(f);
	diag_set_free(s);
	group_rules_free(r);
	sb_free(&t);
	test_rmdir(dir);
	free(dir);
}

static void test_rule_errors(void)
{
	char *dir = test_tmpdir();
	struct kerr e;
	char *want;
	/* the pattern's own place: line 7, column 12 (its opening quote) */
	CU_ASSERT_PTR_NULL(rules_from(dir,
				      "# rules\n"
				      "- name: ok\n"
				      "  flag: '^-W'\n"
				      "\n"
				      "- name: broken\n"
				      "  flag: x\n"
				      "  message: '(ab'\n",
				      &e));
	want = xasprintf(
	    "%s/rules.yaml:7:12: pattern error at offset 3: missing closing parenthesis", dir);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	free(want);
	CU_ASSERT_PTR_NULL(rules_from(dir, "- name: a\n  flags: x\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "rules.yaml:2:3: unknown key 'flags'"));
	CU_ASSERT_PTR_NULL(rules_from(dir, "- flag: x\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "rules.yaml:1:3: rule needs a 'name'"));
	CU_ASSERT_PTR_NULL(rules_from(dir, "- name: a\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "needs 'flag', 'message' or 'file'"));
	CU_ASSERT_PTR_NULL(rules_from(dir, "- name: [a\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "rules.yaml:"));
	CU_ASSERT_PTR_NULL(rules_from(dir, "name: a\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected a list of rules"));
	/* a name is printed on one line: no tab, line break or escape sequence */
	CU_ASSERT_PTR_NULL(rules_from(dir, "- flag: x\n  name: \"a\\tb\\nc\"\n", &e));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e.msg, "rules.yaml:2:9: a rule name may not hold control characters (0x09)"));
	CU_ASSERT_PTR_NULL(rules_from(dir, "- flag: x\n  name: \"\\e[31mred\"\n", &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "control characters (0x1b)"));
	test_rmdir(dir);
	free(dir);
}

/* Text and TSV keep a group name on its line whatever it holds (a rule
 * made in code, a capture): control bytes are written as spaces. */
static void test_output_one_line(void)
{
	struct diag_set *s = dt_parse_text("/s/kernel/a.c:1:1: warning: w [-Wx]\n", DIAG_CC_GCC);
	struct diag *d = diag_set_get(s, 0);
	d->group = "a\tb\nc\r\x1b[31m";
	d->subgroup = "s\nt";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	diag_write_tsv(f, &d, 1, DIAG_VIEW_PARSE);
	diag_write_text(f, &d, 1, DIAG_VIEW_PARSE, NULL);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\t-Wx\ta b c  [31m:s t\t1\tw\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n== a b c  [31m: 1 diagnostic\n-- s t\n"));
	CU_ASSERT_PTR_NULL(strchr(buf, '\x1b'));
	CU_ASSERT_PTR_NULL(strchr(buf, '\r'));
	free(buf);
	diag_set_free(s);
}

void suite_group(void)
{
	CU_pSuite s = CU_add_suite("group", NULL, NULL);
	CU_add_test(s, "shipped rules on arm64", test_shipped_rules);
	CU_add_test(s, "captures and first match", test_captures_and_order);
	CU_add_test(s, "rule errors", test_rule_errors);
	CU_add_test(s, "group names on one line", test_output_one_line);
	CU_add_test(s, "70 rules, families, rules without a flag", test_many_rules);
}
