/* Tests for the fast paths of the diagnostics modules: fingerprints (kept in
 * triage stores, so they must never change) against their values as first
 * defined, lex_text's word-at-a-time scan against its byte rules, the
 * order of group_collect against a stable sort on the strings, and JSON
 * and SARIF written a diagnostic at a time against jansson's dump of the
 * whole document. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/sarif.h"
#include "core/diaglex.h"
#include "core/diagout.h"
#include "core/group.h"
#include "core/util.h"
#include "tests/diagtest.h"

static unsigned long long seed = 42;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(seed >> 33) % n;
}

/* Text with numbers, hex, words with digits, blank runs and tabs, of any
 * length up to max: chunk boundaries fall everywhere. */
static char *random_text(size_t max)
{
	static const char *const parts[] = {"0x1f",  " ",   "  ",   "\t", "a1",	 "12",
					    "3.5",   "foo", "_9",   "x",  "'f'", "\t ",
					    "bar_2", "7",   "dead", "ff", ".",	 "-W1"};
	struct strbuf sb = STRBUF_INIT;
	size_t len = rnd((unsigned)max + 1);
	while (sb.len < len)
		sb_adds(&sb, parts[rnd(ARRAY_SIZE(parts))]);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* Fingerprints of texts with numbers, hex, blank runs and tabs, short and
 * long (chunk boundaries fall everywhere), against the values they have
 * had since they were defined: triage stores keep them. */
static void test_fingerprint_unchanged(void)
{
	uint64_t digest = 0;
	seed = 42;
	for (int i = 0; i < 3000; i++) {
		char *msg = random_text(i < 1500 ? 80 : 1400),
		     *src = random_text(i < 1500 ? 60 : 2100);
		struct diag d = {0};
		d.loc = (struct diag_loc){"drivers/a.c", 12, 3};
		d.spell = i % 3 ? d.loc : (struct diag_loc){"include/b.h", 7, 1};
		d.flag = i % 5 ? "-Wunused" : NULL;
		d.message = msg;
		d.source = i % 7 ? src : NULL;
		digest = digest * 0x100000001b3ull ^ diag_fingerprint(&d);
		free(msg);
		free(src);
	}
	/* the fingerprints of all 3,000, as first defined (byte at a time through
	 * 256- and 512-byte chunks): any change to them shows here */
	CU_ASSERT_EQUAL(digest, 0x4623d253e7f50d03ull);
}

/* lex_text keeps printable ASCII, turns controls into blanks (tabs stay),
 * gcc's quotes into ASCII ones and invalid UTF-8 into U+FFFD. */
static void test_lex_text_words(void)
{
	struct strbuf out = STRBUF_INIT;
	lex_text("", 0, &out); /* nothing, into a new buffer: still a string */
	CU_ASSERT_PTR_NOT_NULL_FATAL(out.buf);
	CU_ASSERT_STRING_EQUAL(out.buf, "");
	const char in[] = "abcdefgh12345678\x01zyxwvuts\tq\xe2\x80\x98name\xe2\x80\x99 \xff"
			  "0123456789abcdef\x7f";
	lex_text(in, sizeof(in) - 1, &out);
	CU_ASSERT_STRING_EQUAL(out.buf, "abcdefgh12345678 zyxwvuts\tq'name' \xef\xbf\xbd"
					"0123456789abcdef\x7f");
	for (size_t cut = 0; cut < sizeof(in) - 1; cut++) { /* every length: the tail loop */
		sb_reset(&out);
		lex_text(in, cut, &out);
		CU_ASSERT_EQUAL(out.buf[out.len], '\0');
		CU_ASSERT_TRUE(out.len <= 3 * cut);
	}
	sb_free(&out);
}

static int cmp_strings(const void *pa, const void *pb)
{
	const struct diag *a = *(struct diag *const *)pa, *b = *(struct diag *const *)pb;
	int c = strcmp(a->subgroup ? a->subgroup : "", b->subgroup ? b->subgroup : "");
	if (!c)
		c = strcmp(a->loc.file, b->loc.file);
	if (!c)
		c = a->loc.line < b->loc.line ? -1 : a->loc.line > b->loc.line;
	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

/* Equal strings at different addresses, NULL and "" subgroups, ties. */
static void test_group_order(void)
{
	enum { N = 2000 };
	static const char *const files[] = {"b.c", "a.c", "a/b.c", "a.h", "c.c"};
	static const char *const subs[] = {NULL, "", "mm", "arch/x86", "fs"};
	struct diag *d = xcalloc(N, sizeof(*d));
	struct diag **v = xmalloc(N * sizeof(*v)), **want = xmalloc(N * sizeof(*want));
	char **own = xmalloc(N * sizeof(*own));
	for (size_t i = 0; i < N; i++) {
		own[i] = xstrdup(files[rnd(ARRAY_SIZE(files))]); /* a copy: not interned */
		d[i].loc.file = rnd(2) ? own[i] : files[rnd(ARRAY_SIZE(files))];
		d[i].loc.line = rnd(4);
		d[i].subgroup = subs[rnd(ARRAY_SIZE(subs))];
		d[i].group = rnd(3) ? "one" : "two";
		d[i].index = i;
		v[i] = &d[i];
	}
	size_t ng;
	struct diag_group *g = group_collect(v, N, &ng);
	CU_ASSERT_EQUAL_FATAL(ng, 2);
	for (size_t k = 0; k < ng; k++) {
		size_t n = 0;
		for (size_t i = 0; i < N; i++)
			if (!strcmp(d[i].group, g[k].name))
				want[n++] = &d[i];
		qsort(want, n, sizeof(*want), cmp_strings);
		CU_ASSERT_EQUAL_FATAL(g[k].n, n);
		CU_ASSERT_EQUAL(memcmp(g[k].diags, want, n * sizeof(*want)), 0);
	}
	group_collect_free(g, ng);
	for (size_t i = 0; i < N; i++)
		free(own[i]);
	free(own);
	free(want);
	free(v);
	free(d);
}

/* What a writer wrote, read back and dumped whole by jansson (with the
 * writers' flags): the same text, byte for byte. */
static void same_as_whole_dump(struct diag *const *rows, size_t n, enum diag_view v,
			       const struct diag_diff *sum, bool sarif)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(
	    sarif ? diag_write_sarif(f, rows, n, v) : diag_write_json(f, rows, n, v, sum), 0);
	fclose(f);
	json_error_t err;
	json_t *doc = json_loads(buf, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	char *whole = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	size_t wl = strlen(whole);
	CU_ASSERT_EQUAL(len, wl + 1);
	CU_ASSERT(len == wl + 1 && !memcmp(buf, whole, wl) && buf[wl] == '\n');
	free(whole);
	json_decref(doc);
	free(buf);
}

static void test_streamed_json(void)
{
	char *gp = dt_ours("tinyconfig-W1-gcc-arm64.log"),
	     *cp = dt_ours("tinyconfig-W1-clang-arm64.log");
	struct diag_set *g = dt_parse_file(gp, DIAG_CC_GCC), *c = dt_parse_file(cp, DIAG_CC_CLANG);
	CU_ASSERT_FATAL(g && c && diag_set_size(g) > 500);
	diag_set_sort(g);
	size_t n = diag_set_size(g);
	struct diag **rows = xmalloc((n + 1) * sizeof(*rows));
	for (size_t i = 0; i < n; i++)
		rows[i] = diag_set_get(g, i);
	for (int sarif = 0; sarif < 2; sarif++) {
		same_as_whole_dump(rows, n, DIAG_VIEW_PARSE, NULL, sarif);
		same_as_whole_dump(rows, 1, DIAG_VIEW_PARSE, NULL, sarif);
		same_as_whole_dump(rows, 0, DIAG_VIEW_PARSE, NULL, sarif); /* [] */
	}
	struct diag_diff dd;
	diag_diff_compilers(g, c, NULL, true, &dd);
	CU_ASSERT(dd.both > 0 && dd.clang_only > 0);
	same_as_whole_dump(dd.rows, dd.n, DIAG_VIEW_COMPILERS, &dd, false);
	same_as_whole_dump(dd.rows, dd.n, DIAG_VIEW_COMPILERS, &dd, true);
	diag_diff_free(&dd);
	free(rows);
	diag_set_free(g);
	diag_set_free(c);
	free(gp);
	free(cp);
}

void suite_diagperf(void)
{
	CU_pSuite s = CU_add_suite("diagperf", NULL, NULL);
	CU_add_test(s, "fingerprints as first defined", test_fingerprint_unchanged);
	CU_add_test(s, "lex_text word scan", test_lex_text_words);
	CU_add_test(s, "group order: ranked keys = sorted strings", test_group_order);
	CU_add_test(s, "JSON, SARIF a diagnostic at a time = the whole dump", test_streamed_json);
}
