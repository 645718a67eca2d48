/* Tests for core/util: string buffers, atomic writes, file reads. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/strmap.h"
#include "core/util.h"
#include "core/yamldoc.h"
#include "tests/helpers.h"

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "abc");
	sb_addf(&sb, "-%d-", 42);
	sb_addc(&sb, 'x');
	CU_ASSERT_STRING_EQUAL(sb_str(&sb), "abc-42-x");
	CU_ASSERT_EQUAL(sb.len, 8);
	char *s = sb_detach(&sb);
	CU_ASSERT_STRING_EQUAL(s, "abc-42-x");
	CU_ASSERT_PTR_NULL(sb.buf);
	free(s);
}

static void test_atomic_write(void)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/sub/dir/f.txt", dir);
	char *sub = xasprintf("%s/sub/dir", dir);
	struct kerr e;
	CU_ASSERT_EQUAL(mkdir_p(sub, &e), 0);
	CU_ASSERT_EQUAL(write_file_atomic(path, "hello\n", 6, &e), 0);
	size_t len;
	char *got = read_file(path, &len, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(len, 6);
	CU_ASSERT_STRING_EQUAL(got, "hello\n");
	free(got);
	/* a directory is refused by name */
	CU_ASSERT_PTR_NULL(read_file(sub, &len, &e));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is a directory"));
	/* writing where the directory does not exist fails with the path */
	char *bad = xasprintf("%s/missing/f", dir);
	CU_ASSERT_EQUAL(write_file_atomic(bad, "x", 1, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "missing"));
	free(bad);
	free(path);
	free(sub);
	test_rmdir(dir);
	free(dir);
}

static void test_trim_flatten(void)
{
	char buf[] = "  a\tb\nc  ";
	char *t = str_trim(buf);
	CU_ASSERT_STRING_EQUAL(t, "a\tb\nc");
	str_flatten(t);
	CU_ASSERT_STRING_EQUAL(t, "a b c");
	CU_ASSERT_TRUE(str_startswith("HACK: x", "HACK:"));
	CU_ASSERT_TRUE(str_endswith("x.yaml", ".yaml"));
	CU_ASSERT_FALSE(str_endswith("a", ".yaml"));
}

/* Pages of a region that are mapped now (mincore), of those it spans. */
static size_t resident_pages(const void *p, size_t n, size_t *total)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	*total = (e - a) / page;
	unsigned char *v = xmalloc(*total + 1);
	size_t in = 0;
	if (!mincore((void *)a, e - a, v))
		for (size_t i = 0; i < *total; i++)
			in += v[i] & 1;
	free(v);
	return in;
}

/* A big buffer is mapped whole before it is written (no fault a page),
 * zeroed for xcalloc_big; an untouched mapping of the same size is not
 * (a plain calloc may reuse pages earlier tests touched). */
static void test_alloc_big(void)
{
	size_t n = (3u << 20) + 5, total;
	char *plain = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CU_ASSERT_FATAL(plain != MAP_FAILED);
	bool populates = true;
#ifdef MADV_POPULATE_WRITE
	populates = !madvise(NULL, 0, MADV_POPULATE_WRITE); /* kernel 5.14 on */
#endif
	char *z = xcalloc_big(n), *m = xmalloc_big(n);
	if (populates) {
		CU_ASSERT_EQUAL(resident_pages(z, n, &total), total);
		CU_ASSERT_EQUAL(resident_pages(m, n, &total), total);
		CU_ASSERT_EQUAL(resident_pages(plain, n, &total), 0);
	}
	size_t nonzero = 0;
	for (size_t i = 0; i < n; i++)
		nonzero += z[i] != 0;
	CU_ASSERT_EQUAL(nonzero, 0);
	memset(m, 'x', n);
	CU_ASSERT_EQUAL(m[n - 1], 'x');
	munmap(plain, n);
	free(z);
	free(m);
}

/* Pointer keys: equal texts at two addresses are two keys; a map grows
 * past many rehashes and keeps every value. */
static void test_ptrmap(void)
{
	struct ptrmap m = {0};
	CU_ASSERT_PTR_NULL(ptrmap_get(&m, "x"));
	enum { N = 5000 };
	char *keys = xmalloc(N);
	bool added;
	for (size_t i = 0; i < N; i++) {
		*ptrmap_add(&m, keys + i, &added) = i * 3;
		CU_ASSERT_TRUE(added);
	}
	*ptrmap_add(&m, keys + 7, &added) += 1;
	CU_ASSERT_FALSE(added);
	CU_ASSERT_EQUAL(m.n, N);
	size_t wrong = 0;
	for (size_t i = 0; i < N; i++) {
		const uint64_t *v = ptrmap_get(&m, keys + i);
		wrong += !v || *v != i * 3 + (i == 7);
	}
	CU_ASSERT_EQUAL(wrong, 0);
	char a[] = "same", b[] = "same";
	ptrmap_add(&m, a, &added);
	ptrmap_add(&m, b, &added);
	CU_ASSERT_TRUE(added);
	CU_ASSERT_PTR_NULL(ptrmap_get(&m, keys + N));
	ptrmap_free(&m);
	CU_ASSERT_PTR_NULL(ptrmap_get(&m, a));
	free(keys);
}

/* What yamldoc_add_quoted writes, libyaml reads back: control characters,
 * C1 (a fuzzer's "\x86" in a subject made klang write a file it could not
 * read), breaks other than \n, quotes, backslashes; Latin-1 as its code
 * points. */
static void test_yaml_quoted(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"plain: text, 'quotes' \"double\" \\back\\slash", NULL},
	    {"c0 \x01\x1f tab\t nl\n cr\r del\x7f", NULL},
	    {"c1 \xc2\x80 \xc2\x86 nel \xc2\x85 \xc2\x9f nbsp \xc2\xa0", NULL},
	    {"ls \xe2\x80\xa8 ps \xe2\x80\xa9 bom \xef\xbb\xbf nonchar \xef\xbf\xbe\xef\xbf\xbf",
	     NULL},
	    {"utf-8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", NULL},
	    {"latin-1 \xe9t\xe9 \xff", "latin-1 \xc3\xa9t\xc3\xa9 \xc3\xbf"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, "k: ");
		yamldoc_add_quoted(&sb, cases[i].in);
		sb_addc(&sb, '\n');
		yaml_document_t doc;
		struct kerr e;
		int rc = yamldoc_load_text(&doc, sb.buf, sb.len, "test", &e);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc == 0) {
			yaml_node_t *root = yaml_document_get_root_node(&doc);
			const char *v = root && root->type == YAML_MAPPING_NODE
					    ? yamldoc_scalar(yaml_document_get_node(
						  &doc, root->data.mapping.pairs.start->value))
					    : NULL;
			const char *want = cases[i].out ? cases[i].out : cases[i].in;
			CU_ASSERT(v && !strcmp(v, want));
			if (!v || strcmp(v, want))
				fprintf(stderr, "\ncase %zu: wrote %s\n", i, sb.buf);
			yaml_document_delete(&doc);
		} else {
			fprintf(stderr, "\ncase %zu: %s\n", i, e.msg);
		}
		sb_free(&sb);
	}
}

/* A key given twice in any mapping, at any depth, is an error at the second
 * (a config's jobs, a rule's name); the same key in two mappings is not. */
static void test_yaml_duplicate_key(void)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
	    {"jobs: 4\njobs: 8\n", "t:2:1: duplicate key 'jobs'"},
	    {"- name: a\n  flag: x\n  name: b\n", "t:3:3: duplicate key 'name'"},
	    {"a: {x: 1, y: 2, x: 3}\n", "t:1:17: duplicate key 'x'"},
	    {"- name: a\n- name: b\n", NULL},
	    {"a: {x: 1}\nb: {x: 1}\n", NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		yaml_document_t doc;
		struct kerr e;
		int rc = yamldoc_load_text(&doc, cases[i].text, strlen(cases[i].text), "t", &e);
		if (cases[i].err) {
			CU_ASSERT_EQUAL(rc, -1);
			CU_ASSERT_STRING_EQUAL(rc ? e.msg : "", cases[i].err);
		} else {
			CU_ASSERT_EQUAL(rc, 0);
			if (rc == 0)
				yaml_document_delete(&doc);
		}
	}
}

void suite_util(void)
{
	CU_pSuite s = CU_add_suite("util", NULL, NULL);
	CU_add_test(s, "strbuf", test_strbuf);
	CU_add_test(s, "atomic write", test_atomic_write);
	CU_add_test(s, "trim and flatten", test_trim_flatten);
	CU_add_test(s, "pointer-keyed map", test_ptrmap);
	CU_add_test(s, "big buffers mapped at once", test_alloc_big);
	CU_add_test(s, "YAML quoted strings read back", test_yaml_quoted);
	CU_add_test(s, "YAML duplicate keys", test_yaml_duplicate_key);
}
