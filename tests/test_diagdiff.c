/* Tests for GCC-against-Clang matching and baseline comparison
 * (core/diagdiff.c) on the real Linux 6.1 logs, checked against an
 * independent reference computed here from the raw log lines. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/strmap.h"
#include "core/util.h"
#include "tests/diagtest.h"
#include "tests/helpers.h"

/* ---- the reference: the matching rule, written as plainly as possible ---- */

struct ref {
	char file[512];
	unsigned line;
	char family[128];
	bool open; /* still reading the warning's own macro notes */
	bool have;
};

static const char *ref_family(const char *flag, char *buf, size_t n)
{
	static const char *const pairs[][2] = {
	    {"-Winitializer-overrides", "-Woverride-init"},
	    {"-Wsometimes-uninitialized", "-Wmaybe-uninitialized"},
	};
	snprintf(buf, n, "%s", flag);
	size_t l = strlen(buf);
	if (l && buf[l - 1] == '=')
		buf[l - 1] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		if (!strcmp(buf, pairs[i][0]))
			snprintf(buf, n, "%s", pairs[i][1]);
	return buf;
}

static void ref_flush(struct ref *r, struct strmap *keys)
{
	if (!r->have)
		return;
	char key[800];
	snprintf(key, sizeof(key), "%s:%u:%s", r->file, r->line, r->family);
	strmap_put(keys, key, (void *)1);
	r->have = false;
}

/* "path:line[:col]: kind: message [flag]" -> parts; the path made relative by
 * cutting everything up to "linux-6.1/" or "linux-source-6.1/". */
static bool ref_line(char *s, char **file, unsigned *line, bool *col, char **kind, char **msg)
{
	char *k = strstr(s, ": warning: ");
	if (!k)
		k = strstr(s, ": error: ");
	if (!k)
		k = strstr(s, ": note: ");
	if (!k)
		return false;
	*k = '\0';
	*kind = k + 2;
	char *colon = strchr(*kind, ':');
	*colon = '\0';
	*msg = colon + 2;
	/* file:line or file:line:col */
	char *c1 = strchr(s, ':');
	if (!c1)
		return false;
	*c1 = '\0';
	char *c2 = strchr(c1 + 1, ':');
	*col = c2 != NULL;
	*line = (unsigned)atoi(c1 + 1);
	if (!*line)
		return false;
	char *cut = strstr(s, "linux-6.1/");
	char *cut2 = strstr(s, "linux-source-6.1/");
	*file = cut ? cut + 10 : cut2 ? cut2 + 17 : s;
	return true;
}

static void ref_keys(const char *path, struct strmap *keys)
{
	struct kerr e;
	size_t len;
	char *text = read_file(path, &len, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	struct ref r = {0};
	for (char *s = text; *s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		char *file, *kind, *msg;
		unsigned line;
		bool col;
		if (ref_line(s, &file, &line, &col, &kind, &msg)) {
			if (strcmp(kind, "note")) {
				ref_flush(&r, keys);
				char flag[128] = "";
				char *br = strrchr(msg, '[');
				if (br && br[1] == '-' && br[2] == 'W') {
					snprintf(flag, sizeof(flag), "%s", br + 1);
					flag[strcspn(flag, "]")] = '\0';
					if (!strncmp(flag, "-Werror,", 8))
						memmove(flag, flag + 8, strlen(flag + 8) + 1);
				} else if (!col) {
					strcpy(flag, "kernel-doc");
				}
				snprintf(r.file, sizeof(r.file), "%s", file);
				r.line = line;
				ref_family(flag, r.family, sizeof(r.family));
				r.have = r.open = true;
			} else if (r.have && r.open) {
				/* gcc: the last "in expansion of macro" is the use */
				if (!strncmp(msg, "in expansion of macro", 21)) {
					snprintf(r.file, sizeof(r.file), "%s", file);
					r.line = line;
				} else if (strncmp(msg, "in definition of macro", 22) &&
					   strncmp(msg, "expanded from", 13)) {
					r.open = false;
				}
			}
		}
		s = nl ? nl + 1 : s + strlen(s);
	}
	ref_flush(&r, keys);
	free(text);
}

/* keys of `a` that are not in `b` */
static void minus(const struct strmap *a, const struct strmap *b, struct strmap *out)
{
	size_t i = 0;
	const char *k;
	while (strmap_next(a, &i, &k, NULL))
		if (!strmap_get(b, k))
			strmap_put(out, k, (void *)1);
}

static bool same_keys(const struct strmap *a, const struct strmap *b, const char *what)
{
	bool ok = a->n == b->n;
	size_t i = 0;
	const char *k;
	while (strmap_next(a, &i, &k, NULL))
		if (!strmap_get(b, k)) {
			fprintf(stderr, "%s: only klang has %s\n", what, k);
			ok = false;
		}
	i = 0;
	while (strmap_next(b, &i, &k, NULL))
		if (!strmap_get(a, k)) {
			fprintf(stderr, "%s: only the reference has %s\n", what, k);
			ok = false;
		}
	return ok;
}

/* klang's rows of one side as reference keys */
static void side_keys(const struct diag_diff *dd, enum diag_side side, struct strmap *out)
{
	for (size_t i = 0; i < dd->n; i++) {
		const struct diag *d = dd->rows[i];
		if (d->side != side)
			continue;
		char key[800];
		snprintf(key, sizeof(key), "%s:%u:%s", d->loc.file, d->loc.line, d->family);
		strmap_put(out, key, (void *)1);
	}
}

static struct diag_families *families(void)
{
	struct kerr e;
	struct diag_families *f = diag_families_default("/nonexistent", NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	return f;
}

/* A GCC log and a Clang log diffed, checked against the reference, with
 * the expected row counts. */
struct pair {
	char *g, *c;
	struct diag_set *gs, *cs;
	struct diag_diff dd;
};

static void pair_open(struct pair *pr, char *gcc, char *clang, unsigned long clang_only,
		      unsigned long gcc_only, unsigned long both)
{
	pr->g = gcc;
	pr->c = clang;
	pr->gs = dt_parse_file(gcc, DIAG_CC_GCC);
	pr->cs = dt_parse_file(clang, DIAG_CC_CLANG);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr->gs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr->cs);
	struct diag_families *f = families();
	diag_diff_compilers(pr->gs, pr->cs, f, true, &pr->dd);
	diag_families_free(f);
	CU_ASSERT_EQUAL(pr->dd.clang_only, clang_only);
	CU_ASSERT_EQUAL(pr->dd.gcc_only, gcc_only);
	CU_ASSERT_EQUAL(pr->dd.both, both);
	struct diag_diff *dd = &pr->dd;
	struct strmap g = STRMAP_INIT, c = STRMAP_INIT, ref_c = STRMAP_INIT, ref_g = STRMAP_INIT;
	ref_keys(gcc, &g);
	ref_keys(clang, &c);
	minus(&c, &g, &ref_c);
	minus(&g, &c, &ref_g);
	struct strmap got_c = STRMAP_INIT, got_g = STRMAP_INIT;
	side_keys(dd, DIAG_SIDE_CLANG_ONLY, &got_c);
	side_keys(dd, DIAG_SIDE_GCC_ONLY, &got_g);
	CU_ASSERT_TRUE(same_keys(&got_c, &ref_c, "clang-only"));
	CU_ASSERT_TRUE(same_keys(&got_g, &ref_g, "gcc-only"));
	strmap_free(&g);
	strmap_free(&c);
	strmap_free(&ref_c);
	strmap_free(&ref_g);
	strmap_free(&got_c);
	strmap_free(&got_g);
}

static void pair_close(struct pair *pr)
{
	diag_diff_free(&pr->dd);
	diag_set_free(pr->gs);
	diag_set_free(pr->cs);
	free(pr->g);
	free(pr->c);
}

static const struct diag *row(const struct diag_diff *dd, const char *file, unsigned line,
			      const char *flag)
{
	for (size_t i = 0; i < dd->n; i++)
		if (!strcmp(dd->rows[i]->loc.file, file) && dd->rows[i]->loc.line == line &&
		    (!flag || !strcmp(dd->rows[i]->flag, flag)))
			return dd->rows[i];
	return NULL;
}

static void test_x86_reference(void)
{
	struct pair pr;
	pair_open(&pr, dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log"),
		  dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log"), 2, 5, 186);
	struct diag_diff dd = pr.dd;
	/* by hand: clang also warns about 'trace' (gcc does not), and the xdr.h compare */
	const struct diag *d = row(&dd, "arch/x86/kernel/cpu/cacheinfo.c", 730, NULL);
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_CLANG_ONLY && strstr(d->message, "'trace'"));
	d = row(&dd, "include/linux/sunrpc/xdr.h", 752, NULL);
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_CLANG_ONLY);
	/* gcc's -Wunused-const-variable= on rt.c is gcc-only, in the plain family */
	d = row(&dd, "kernel/sched/rt.c", 9, NULL);
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_GCC_ONLY &&
		       !strcmp(d->family, "-Wunused-const-variable"));
	/* hrtimer.c:124: clang column 21, gcc column 35, other flag names: one defect */
	d = row(&dd, "kernel/time/hrtimer.c", 124, "-Winitializer-overrides");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->side, DIAG_SIDE_BOTH);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->peer);
	CU_ASSERT_STRING_EQUAL(d->peer->flag, "-Woverride-init");
	CU_ASSERT_EQUAL(d->peer->loc.col, 35);
	pair_close(&pr);
}

/* An arch and a pair of logs the matching rule was not written against:
 * riscv tinyconfig W=1, gcc 12 (riscv64-linux-gnu) and clang 14 (LLVM=1). */
static void test_riscv_reference(void)
{
	struct pair pr;
	pair_open(&pr, dt_ours("tinyconfig-W1-gcc-riscv.log"),
		  dt_ours("tinyconfig-W1-clang-riscv.log"), 1, 6, 146);
	/* by hand: clang has no -Wmissing-prototypes for the builtin abort() */
	const struct diag *d = row(&pr.dd, "kernel/exit.c", 1930, NULL);
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_GCC_ONLY);
	pair_close(&pr);
}

static void test_arm64_reference(void)
{
	struct pair pr;
	pair_open(&pr, dt_ours("tinyconfig-W1-gcc-arm64.log"),
		  dt_ours("tinyconfig-W1-clang-arm64.log"), 1, 6, 726);
	struct diag_diff dd = pr.dd;
	struct diag_set *gs = pr.gs, *cs = pr.cs;
	/* by hand: the first syscall-table entry. clang: unistd.h:34 through
	 * __SC_COMP; gcc: sys.c:56:40 in __SYSCALL, expanded at unistd.h:34 */
	const struct diag *d = row(&dd, "include/uapi/asm-generic/unistd.h", 34, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->side, DIAG_SIDE_BOTH);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Winitializer-overrides");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->peer);
	CU_ASSERT_STRING_EQUAL(d->peer->spell.file, "arch/arm64/kernel/sys.c");
	CU_ASSERT_EQUAL(d->peer->spell.line, 56);
	/* COND_SYSCALL(io_setup): gcc in syscall_wrapper.h:76, clang at the use */
	d = row(&dd, "kernel/sys_ni.c", 39, "-Wmissing-prototypes");
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_BOTH && d->peer &&
		       !strcmp(d->peer->spell.file, "arch/arm64/include/asm/syscall_wrapper.h"));
	/* gcc's candidate-for-format-attribute warnings have no clang twin */
	d = row(&dd, "drivers/clk/clkdev.c", 173, NULL);
	CU_ASSERT_TRUE(d && d->side == DIAG_SIDE_GCC_ONLY);
	/* matching on the reported line would call hundreds of them clang-only */
	struct strmap spelled = STRMAP_INIT;
	for (size_t i = 0; i < diag_set_size(gs); i++) {
		const struct diag *x = diag_set_get(gs, i);
		char key[600];
		snprintf(key, sizeof(key), "%s:%u:%s", x->spell.file, x->spell.line, x->family);
		strmap_put(&spelled, key, (void *)1);
	}
	size_t naive = 0;
	for (size_t i = 0; i < diag_set_size(cs); i++) {
		const struct diag *x = diag_set_get(cs, i);
		char key[600];
		snprintf(key, sizeof(key), "%s:%u:%s", x->spell.file, x->spell.line, x->family);
		naive += !strmap_get(&spelled, key);
	}
	CU_ASSERT_TRUE(naive > 300);
	strmap_free(&spelled);
	/* rows in file, line, column order whichever side they come from (each
	 * side interns its own copy of a file's name: kernel/panic.c:673 from
	 * gcc once came after 718 from both) */
	size_t unordered = 0;
	for (size_t i = 1; i < dd.n; i++) {
		const struct diag *a = dd.rows[i - 1], *b = dd.rows[i];
		int c = strcmp(a->loc.file, b->loc.file);
		unordered +=
		    c > 0 || (!c && (a->loc.line > b->loc.line ||
				     (a->loc.line == b->loc.line && a->loc.col > b->loc.col)));
	}
	CU_ASSERT_EQUAL(unordered, 0);
	pair_close(&pr);
}

static void test_families_file(void)
{
	char *dir = test_tmpdir();
	char *good = xasprintf("%s/fam.yaml", dir), *bad = xasprintf("%s/bad.yaml", dir);
	struct kerr e;
	const char *gtext = "- [-Wfoo, -Wbar=]\n- [-Wmissing-prototypes, -Wmissing-declarations]\n";
	const char *btext = "- [-Wfoo]\n- -Wbar\n";
	CU_ASSERT_EQUAL(write_file_atomic(good, gtext, strlen(gtext), &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(bad, btext, strlen(btext), &e), 0);
	struct diag_families *f = diag_families_default("/nonexistent", good, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	struct strbuf t = STRBUF_INIT;
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wbar", &t), "-Wfoo");
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wbar=", &t), "-Wfoo");
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wmissing-declarations", &t),
			       "-Wmissing-prototypes");
	/* the shipped table still applies */
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Winitializer-overrides", &t), "-Woverride-init");
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wsometimes-uninitialized", &t),
			       "-Wmaybe-uninitialized");
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wunused-const-variable=", &t),
			       "-Wunused-const-variable");
	CU_ASSERT_STRING_EQUAL(diag_family(f, "-Wunknown-thing", &t), "-Wunknown-thing");
	diag_families_free(f);
	CU_ASSERT_PTR_NULL(diag_families_default("/nonexistent", bad, &e));
	char *want = xasprintf("%s:2:3: expected a list of flags", bad);
	CU_ASSERT_TRUE(str_startswith(e.msg, want));
	free(want);
	sb_free(&t);
	free(good);
	free(bad);
	test_rmdir(dir);
	free(dir);
}

/* Write a copy of a log, line by line through `edit` (which may drop a line). */
static void rewrite(const char *from, const char *to, const char *append,
		    bool (*edit)(const char *line, struct strbuf *out))
{
	struct kerr e;
	char *text = read_file(from, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	struct strbuf out = STRBUF_INIT;
	for (char *s = text; *s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		if (edit(s, &out))
			sb_addc(&out, '\n');
		s = nl ? nl + 1 : s + strlen(s);
	}
	sb_adds(&out, append);
	CU_ASSERT_EQUAL(write_file_atomic(to, out.buf, out.len, &e), 0);
	sb_free(&out);
	free(text);
}

/* fork.c moved 5 lines down; exit.c's warning fixed; hrtimer.c:125's line
 * edited and moved to 130. */
static bool edit_build(const char *line, struct strbuf *out)
{
	const char *fork = strstr(line, "kernel/fork.c:");
	const char *hr = strstr(line, "kernel/time/hrtimer.c:125:35:");
	if (strstr(line, "kernel/exit.c:1930:13: warning"))
		return false;
	if (fork) {
		unsigned n = (unsigned)atoi(fork + 14);
		const char *rest = strchr(fork + 14, ':');
		sb_add(out, line, (size_t)(fork + 14 - line));
		sb_addf(out, "%u%s", n + 5, rest);
	} else if (hr) {
		sb_add(out, line, (size_t)(hr - line));
		sb_addf(out, "kernel/time/hrtimer.c:130:35:%s", hr + 29);
	} else if (strstr(line, "  125 |         [CLOCK_MONOTONIC]")) {
		sb_adds(out, "  130 |         [CLOCK_MONOTONIC]       = HRTIMER_BASE_MONOTONIC, /* "
			     "edited */");
	} else {
		sb_adds(out, line);
	}
	return true;
}

static void test_baseline(void)
{
	char *old = dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log");
	char *dir = test_tmpdir();
	char *cur = xasprintf("%s/new.log", dir);
	rewrite(old, cur,
		"/home/kdev/linux-6.1/kernel/brand_new.c:7:5: warning: no previous prototype for "
		"\xe2\x80\x98new_fn\xe2\x80\x99 [-Wmissing-prototypes]\n",
		edit_build);
	struct diag_set *a = dt_parse_file(old, DIAG_CC_GCC), *b = dt_parse_file(cur, DIAG_CC_GCC);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	struct diag_diff dd;
	diag_diff_baseline(a, b, true, &dd);
	CU_ASSERT_EQUAL(dd.added, 1);
	CU_ASSERT_EQUAL(dd.fixed, 1);
	CU_ASSERT_EQUAL(dd.outstanding, diag_set_size(a) - 1);
	const struct diag *d = row(&dd, "kernel/brand_new.c", 7, NULL);
	CU_ASSERT_TRUE(d && d->base == DIAG_BASE_NEW);
	d = row(&dd, "kernel/exit.c", 1930, NULL);
	CU_ASSERT_TRUE(d && d->base == DIAG_BASE_FIXED);
	/* moved: same fingerprint */
	d = row(&dd, "kernel/fork.c", 1281, NULL);
	CU_ASSERT_TRUE(d && d->base == DIAG_BASE_OUTSTANDING && d->peer &&
		       d->peer->loc.line == 1276 && diag_fp(d) == diag_fp(d->peer));
	/* edited and moved: a new fingerprint, found by the nearest line */
	d = row(&dd, "kernel/time/hrtimer.c", 130, "-Woverride-init");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->base, DIAG_BASE_OUTSTANDING);
	CU_ASSERT_TRUE(d->peer && d->peer->loc.line == 125 && diag_fp(d) != diag_fp(d->peer));
	diag_diff_free(&dd);
	diag_set_free(a);
	diag_set_free(b);
	test_rmdir(dir);
	free(dir);
	free(cur);
	free(old);
}

void suite_diagdiff(void)
{
	CU_pSuite s = CU_add_suite("diagdiff", NULL, NULL);
	CU_add_test(s, "x86 gcc/clang against the reference", test_x86_reference);
	CU_add_test(s, "arm64 gcc/clang against the reference", test_arm64_reference);
	CU_add_test(s, "riscv gcc/clang (an unseen arch) against the reference",
		    test_riscv_reference);
	CU_add_test(s, "families file", test_families_file);
	CU_add_test(s, "baseline: new, fixed, outstanding", test_baseline);
}
