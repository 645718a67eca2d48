/* Tests for core/series: keep/drop for clang 14.0.6 and 5.0 on a real
 * repository (tag defaults, trailers, patchset rules, precedence), version
 * hints, manual overrides kept in .klang/overrides.yaml, the "a kept patch
 * needs this dropped one" warning, per-tag counts, and `klang series`. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/gitwrite.h"
#include "core/series.h"
#include "tests/helpers.h"
#include "tests/series_repo.h"

struct fixture {
	struct series_repo r;
	struct patchset ps;
	struct stack st;
	struct series s;
};

static int open_fixture(struct fixture *f, bool with_patchset)
{
	struct kerr e;
	memset(f, 0, sizeof(*f));
	if (series_repo_make(&f->r) < 0)
		return -1;
	struct stack_opts o = {.repo = f->r.repo, .base = "v1.0", .head = "main"};
	if (with_patchset) {
		if (patchset_load(&f->ps, f->r.patchset, &e) < 0)
			return -1;
		o.repo = f->ps.repo;
	}
	if (stack_open(&f->st, &o, &e) < 0)
		return -1;
	return series_open(&f->s, &f->st, with_patchset ? &f->ps : NULL, &e);
}

static void close_fixture(struct fixture *f)
{
	series_free(&f->s);
	stack_free(&f->st);
	patchset_free(&f->ps);
	series_repo_free(&f->r);
}

static void decide(struct series *s, const char *version)
{
	struct clang_version v;
	CU_ASSERT_EQUAL_FATAL(clangver_parse(version, &v), 0);
	series_decide(s, &v);
}

static const char *dec(const struct series *s, size_t i)
{
	return s->items[i].keep ? "keep" : "drop";
}

static void test_decisions(void)
{
	struct fixture f;
	CU_ASSERT_EQUAL_FATAL(open_fixture(&f, true), 0);
	CU_ASSERT_EQUAL_FATAL(f.s.nitems, SERIES_REPO_PATCHES);
	struct series *s = &f.s;

	decide(s, "14.0.6");
	for (size_t i = 0; i < SERIES_REPO_PATCHES; i++)
		CU_ASSERT_STRING_EQUAL(dec(s, i), series_repo_expect_14[i]);
	CU_ASSERT_EQUAL(s->kept, 6);
	CU_ASSERT_EQUAL(s->items[0].source, SRC_TAG);
	CU_ASSERT(
	    str_has(s->items[0].reason, "tag default: UPSTREAM, not a Clang workaround: kept"));
	CU_ASSERT_EQUAL(s->items[1].source, SRC_TRAILER);
	CU_ASSERT(str_has(s->items[1].reason, "Clang-Fixed: 9: not needed with clang 14.0.6"));
	CU_ASSERT(str_has(s->items[2].reason, "Clang-Fixed: 6"));
	/* OBSOLETE without a version: kept, flagged, with the message's versions */
	CU_ASSERT(s->items[3].version_unknown);
	CU_ASSERT(str_has(s->items[3].reason, "version unknown"));
	CU_ASSERT_EQUAL_FATAL(s->items[3].nhints, 3);
	CU_ASSERT_STRING_EQUAL(s->items[3].hints[0].version, "5");
	CU_ASSERT_STRING_EQUAL(s->items[3].hints[0].text, "fixed in LLVM 5");
	CU_ASSERT_STRING_EQUAL(s->items[3].hints[1].version, "6.0");
	CU_ASSERT_STRING_EQUAL(s->items[3].hints[2].version, "14");
	CU_ASSERT(s->items[4].version_unknown);
	CU_ASSERT_EQUAL(s->items[4].nhints, 0);
	CU_ASSERT(str_has(s->items[5].reason, "Clang-Min: 10"));
	CU_ASSERT_EQUAL(s->items[6].source, SRC_RULE);
	CU_ASSERT(str_has(s->items[6].reason, "rule stack.yaml:6: until_clang 13: not needed with "
					      "clang 14.0.6 (fixed by LLVM 13)"));
	CU_ASSERT(str_has(s->items[7].reason, "HACK with no Clang bound"));
	CU_ASSERT_EQUAL(s->items[8].source, SRC_RULE);
	CU_ASSERT(str_has(s->items[8].reason, "drop"));
	CU_ASSERT_EQUAL(s->items[9].source, SRC_RULE); /* beats its Clang-Fixed: 4 */
	for (size_t i = 0; i < s->nitems; i++)
		CU_ASSERT_PTR_NULL(s->items[i].warning); /* every patch has its own file */

	struct series_counts c;
	series_count_tags(s, &c);
	CU_ASSERT_EQUAL(c.tag[TAG_HACK].kept, 2);
	CU_ASSERT_EQUAL(c.tag[TAG_HACK].dropped, 2);
	CU_ASSERT_EQUAL(c.tag[TAG_OBSOLETE].kept, 3);
	CU_ASSERT_EQUAL(c.tag[TAG_OBSOLETE].dropped, 1);
	CU_ASSERT_EQUAL(c.tag[TAG_FROMLIST].dropped, 1);
	CU_ASSERT_EQUAL(c.total.kept, 6);
	CU_ASSERT_EQUAL(c.total.dropped, 4);
	series_counts_free(&c);

	char *name = apply_branch_name(s);
	CU_ASSERT_STRING_EQUAL(name, "klang/test-stack/clang-14.0.6"); /* the patchset's name */
	free(name);

	decide(s, "5.0");
	for (size_t i = 0; i < SERIES_REPO_PATCHES; i++)
		CU_ASSERT_STRING_EQUAL(dec(s, i), series_repo_expect_5[i]);
	CU_ASSERT(str_has(s->items[1].reason, "Clang-Fixed: 9: still needed with clang 5.0"));
	CU_ASSERT(str_has(s->items[5].reason, "Clang-Min: 10: clang 5.0 is older"));
	close_fixture(&f);
}

static void test_without_patchset(void)
{
	struct fixture f;
	CU_ASSERT_EQUAL_FATAL(open_fixture(&f, false), 0);
	decide(&f.s, "14.0.6");
	CU_ASSERT_STRING_EQUAL(dec(&f.s, 6), "keep"); /* no rule: a plain HACK */
	CU_ASSERT_STRING_EQUAL(dec(&f.s, 8), "keep");
	CU_ASSERT_STRING_EQUAL(dec(&f.s, 9), "drop"); /* its trailer now decides */
	CU_ASSERT_EQUAL(f.s.items[9].source, SRC_TRAILER);
	decide(&f.s, "4");
	CU_ASSERT_STRING_EQUAL(dec(&f.s, 9), "drop"); /* fixed in 4: not needed with 4 */
	decide(&f.s, "3.9");
	CU_ASSERT_STRING_EQUAL(dec(&f.s, 9), "keep");
	char *name = apply_branch_name(&f.s); /* no patchset: the head branch's name */
	CU_ASSERT_STRING_EQUAL(name, "klang/main/clang-3.9");
	free(name);
	char *head = f.s.st->head_ref; /* on a branch klang made: its name again, not nested */
	f.s.st->head_ref = "refs/heads/klang/main/clang-14";
	name = apply_branch_name(&f.s);
	CU_ASSERT_STRING_EQUAL(name, "klang/main/clang-3.9");
	free(name);
	f.s.st->head_ref = "refs/heads/klang/x";
	name = apply_branch_name(&f.s);
	CU_ASSERT_STRING_EQUAL(name, "klang/klang-x/clang-3.9");
	free(name);
	f.s.st->head_ref = head;
	close_fixture(&f);
}

static void test_hints(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"This is fixed in LLVM 5.", "5"},
	    {"builds with clang >= 6.0 only", "6.0"},
	    {"HACK: ARM: Don't enable X with clang-14", "14"},
	    {"Clang version 5.0.1 fixed it", "5.0.1"},
	    {"the bug was resolved in 7.0 (r330000)", "7.0"},
	    {"Disable BLK_DEV_NBD with clang <= 13", "13"},
	    {"depends on CLANG_VERSION < 140000", ""},
	    {"make LLVM=1 CC=clang", ""},
	    {"run clang-format on it", ""},
	    {"the issue is fixed in upstream clang", ""},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct version_hint *h;
		size_t n;
		series_find_hints(cases[i].text, &h, &n);
		CU_ASSERT_EQUAL(n, *cases[i].want ? 1 : 0);
		if (n && *cases[i].want)
			CU_ASSERT_STRING_EQUAL(h[0].version, cases[i].want);
		for (size_t k = 0; k < n; k++)
			free(h[k].text);
		free(h);
	}
}

static void test_overrides(void)
{
	struct fixture f;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(open_fixture(&f, true), 0);
	struct series *s = &f.s;
	decide(s, "14.0.6");
	char *path = xasprintf("%s/.klang/overrides.yaml", f.r.repo);

	/* Toggle a kept patch: dropped by hand, saved, the automatic decision known. */
	CU_ASSERT_EQUAL(series_toggle(s, 0, &e), 0);
	CU_ASSERT_STRING_EQUAL(dec(s, 0), "drop");
	CU_ASSERT_EQUAL(s->items[0].source, SRC_OVERRIDE);
	CU_ASSERT(s->items[0].auto_keep);
	CU_ASSERT_EQUAL(s->kept, 5);
	char *text = read_file(path, NULL, &e);
	CU_ASSERT(str_has(text, f.r.ids[0]));
	CU_ASSERT(str_has(text, "decision: drop"));
	free(text);
	/* Override a trailer-dropped patch back to keep, and a "fixed in 5". */
	CU_ASSERT_EQUAL(series_override(s, 1, OV_KEEP, NULL, &e), 0);
	struct clang_version five;
	clangver_parse("5", &five);
	CU_ASSERT_EQUAL(series_override(s, 4, OV_UNTIL, &five, &e), 0);
	CU_ASSERT_STRING_EQUAL(dec(s, 4), "drop");
	CU_ASSERT(str_has(s->items[4].reason,
			  "manual override: fixed in 5: not needed with clang 14.0.6"));

	/* A fresh series reads them back. */
	struct series s2;
	CU_ASSERT_EQUAL_FATAL(series_open(&s2, &f.st, &f.ps, &e), 0);
	decide(&s2, "14.0.6");
	CU_ASSERT_STRING_EQUAL(dec(&s2, 0), "drop");
	CU_ASSERT_STRING_EQUAL(dec(&s2, 1), "keep");
	CU_ASSERT_STRING_EQUAL(dec(&s2, 4), "drop");
	decide(&s2, "4.0");
	CU_ASSERT_STRING_EQUAL(dec(&s2, 4), "keep");
	/* Toggling back to the automatic decision clears the override. */
	decide(&s2, "14.0.6");
	CU_ASSERT_EQUAL(series_toggle(&s2, 0, &e), 0);
	CU_ASSERT_EQUAL(s2.items[0].source, SRC_TAG);
	CU_ASSERT_EQUAL(series_override(&s2, 1, OV_NONE, NULL, &e), 0);
	CU_ASSERT_EQUAL(series_override(&s2, 4, OV_NONE, NULL, &e), 0);
	text = read_file(path, NULL, &e);
	CU_ASSERT(!str_has(text, "commit:"));
	free(text);
	series_free(&s2);

	/* Keyed by Change-Id: an entry whose commit id is gone (rebased) still applies. */
	const char *rebased = "overrides:\n"
			      "  - commit: 0123456789012345678901234567890123456789\n"
			      "    change_id: I0000000000000000000000000000000000000004\n"
			      "    decision: drop\n";
	CU_ASSERT_EQUAL(write_file_atomic(path, rebased, strlen(rebased), &e), 0);
	CU_ASSERT_EQUAL_FATAL(series_open(&s2, &f.st, &f.ps, &e), 0);
	decide(&s2, "14.0.6");
	CU_ASSERT_STRING_EQUAL(dec(&s2, 3), "drop");
	CU_ASSERT_EQUAL(s2.items[3].source, SRC_OVERRIDE);
	CU_ASSERT_EQUAL(series_find(&s2, "I0000000000000000000000000000000000000004"), 3);
	CU_ASSERT_EQUAL(series_find(&s2, f.r.ids[5]), 5);
	CU_ASSERT_EQUAL(series_find(&s2, "2"), 1);
	CU_ASSERT_EQUAL(series_find(&s2, "99"), -1);
	series_free(&s2);

	/* A broken store is reported with its place and moved aside. */
	CU_ASSERT_EQUAL(write_file_atomic(path, "overrides:\n  - decision: maybe\n", 31, &e), 0);
	CU_ASSERT_EQUAL_FATAL(series_open(&s2, &f.st, &f.ps, &e), 1);
	CU_ASSERT(
	    str_has(e.msg, "overrides.yaml:2:15: decision must be keep or drop; moved aside"));
	CU_ASSERT_EQUAL(s2.novs, 0);
	CU_ASSERT(!file_exists(path));
	series_free(&s2);
	free(path);
	close_fixture(&f);
}

/* D (dropped) writes line 4 of a.c; K (kept) changes it again: warn on D.
 * M inserts three lines at the top between D2 and K2: the lines D2 wrote
 * move, and K2 changes them at their new place. */
static void test_needed_by_kept_patch(void)
{
	char *dir = test_tmpdir();
	git_repository *g;
	struct kerr e;
	char id[41];
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &g, &e), 0);
	struct gw_file b[] = {{"a.c", "1\n2\n3\n4\n5\n6\n7\n8\n", 0},
			      {"b.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = b, .nfiles = 2, .message = "base\n"};
	gw_commit(g, &c, id, &e);
	gw_tag(g, "v1.0", "main", &e);
	static const struct {
		const char *msg, *path, *content;
	} p[] = {
	    {"HACK: far away\n\nClang-Fixed: 9\n", "far.c", "x\n"},
	    {"HACK: line four\n\nClang-Fixed: 9\n", "a.c", "1\n2\n3\nfour\n5\n6\n7\n8\n"},
	    {"UPSTREAM: builds on line four\n", "a.c", "1\n2\n3\nFOUR\n5\n6\n7\n8\n"},
	    {"HACK: b line two\n\nClang-Fixed: 9\n", "b.c", "1\ntwo\n3\n4\n5\n6\n7\n8\n9\n10\n"},
	    {"UPSTREAM: insert at the top\n", "b.c", "a\nb\nc\n1\ntwo\n3\n4\n5\n6\n7\n8\n9\n10\n"},
	    {"UPSTREAM: change what was line 9\n", "b.c",
	     "a\nb\nc\n1\ntwo\n3\n4\n5\n6\n7\n8\nnine\n10\n"},
	    {"UPSTREAM: change what was line 2\n", "b.c",
	     "a\nb\nc\n1\nTWO\n3\n4\n5\n6\n7\n8\nnine\n10\n"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		struct gw_file f[] = {{p[i].path, p[i].content, 0}};
		struct gw_commit pc = {
		    .ref = "refs/heads/main", .files = f, .nfiles = 1, .message = p[i].msg};
		CU_ASSERT_EQUAL(gw_commit(g, &pc, id, &e), 0);
	}
	git_repository_free(g);
	struct stack st;
	struct series s;
	struct stack_opts o = {.repo = dir, .base = "v1.0", .head = "main"};
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(series_open(&s, &st, NULL, &e), 0);
	decide(&s, "14");
	CU_ASSERT_PTR_NULL(s.items[0].warning);
	CU_ASSERT_EQUAL(s.items[1].needed_by, 3);
	CU_ASSERT(str_has(s.items[1].warning, "kept patch 3 (UPSTREAM: builds on line four)"));
	CU_ASSERT(str_has(s.items[1].warning, "a.c near line 4"));
	/* line 2 of b.c, moved to line 5 by patch 5, is changed by patch 7 (not 6) */
	CU_ASSERT_EQUAL(s.items[3].needed_by, 7);
	CU_ASSERT(str_has(s.items[3].warning, "b.c near line 2"));
	CU_ASSERT(series_touches(&s, 3, "b.c"));
	CU_ASSERT(!series_touches(&s, 3, "a.c"));
	decide(&s, "8"); /* everything kept: nothing to warn about */
	for (size_t i = 0; i < s.nitems; i++)
		CU_ASSERT_PTR_NULL(s.items[i].warning);
	series_free(&s);
	stack_free(&st);
	test_rmdir(dir);
	free(dir);
}

static void test_bad_trailer(void)
{
	char *dir = test_tmpdir();
	git_repository *g;
	struct kerr e;
	char id[41];
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &g, &e), 0);
	struct gw_file f[] = {{"a.c", "a\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = f, .nfiles = 1, .message = "base\n"};
	gw_commit(g, &c, id, &e);
	gw_tag(g, "v1.0", "main", &e);
	struct gw_file f2[] = {{"a.c", "b\n", 0}};
	struct gw_commit p = {.ref = "refs/heads/main",
			      .files = f2,
			      .nfiles = 1,
			      .message = "HACK: x\n\nClang-Fixed: soon\nclang-min: 6\n"};
	gw_commit(g, &p, id, &e);
	git_repository_free(g);
	struct stack st;
	struct series s;
	struct stack_opts o = {.repo = dir, .base = "v1.0", .head = "main"};
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(series_open(&s, &st, NULL, &e), 0);
	decide(&s, "5.0.2");
	CU_ASSERT_STRING_EQUAL(dec(&s, 0), "drop"); /* the trailer key is case-insensitive */
	CU_ASSERT(str_has(s.items[0].reason, "Clang-Min: 6: clang 5.0.2 is older"));
	CU_ASSERT(
	    str_has(s.items[0].warning, "trailer 'Clang-Fixed: soon' is not a Clang version"));
	series_free(&s);
	stack_free(&st);
	test_rmdir(dir);
	free(dir);
}

static void test_cli_formats(void)
{
	struct series_repo r;
	CU_ASSERT_EQUAL_FATAL(series_repo_make(&r), 0);
	int rc;
	char *err, *args = xasprintf("--patchset '%s' --clang 14.0.6 --format tsv", r.patchset);
	char *out;
	rc = series_klang(args, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	CU_ASSERT(str_startswith(out, "index\tcommit\ttags\tdecision\treason\tsubject\n"));
	char *rows = strchr(out, '\n') + 1;
	for (size_t i = 0; i < SERIES_REPO_PATCHES; i++) {
		char *row = strsep(&rows, "\n"), *f[6];
		CU_ASSERT_FATAL(row != NULL);
		for (int k = 0; k < 6; k++)
			f[k] = strsep(&row, "\t");
		CU_ASSERT_FATAL(f[5] != NULL && row == NULL);
		CU_ASSERT_EQUAL(strtoul(f[0], NULL, 10), i + 1);
		CU_ASSERT_STRING_EQUAL(f[1], r.ids[i]);
		CU_ASSERT_STRING_EQUAL(f[3], series_repo_expect_14[i]);
		CU_ASSERT(*f[4]); /* a reason */
		if (i == 1) {
			CU_ASSERT_STRING_EQUAL(f[2], "HACK");
			CU_ASSERT_STRING_EQUAL(f[5], "arm64: work around a clang bug");
		}
	}
	CU_ASSERT_STRING_EQUAL(rows, "");
	free(out), free(err), free(args);

	args = xasprintf("--patchset '%s' --clang 5.0 --format json", r.patchset);
	rc = series_klang(args, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	json_error_t je;
	json_t *j = json_loads(out, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "clang")), "5.0.0");
	json_t *ps = json_object_get(j, "patches");
	CU_ASSERT_EQUAL(json_array_size(ps), SERIES_REPO_PATCHES);
	for (size_t i = 0; i < json_array_size(ps); i++)
		CU_ASSERT_STRING_EQUAL(
		    json_string_value(json_object_get(json_array_get(ps, i), "decision")),
		    series_repo_expect_5[i]);
	json_t *p4 = json_array_get(ps, 3);
	CU_ASSERT(json_is_true(json_object_get(p4, "version_unknown")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(p4, "suggestions")), 3);
	json_t *hack = json_object_get(json_object_get(j, "tags"), "HACK");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(hack, "kept")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(hack, "dropped")), 1);
	json_decref(j);
	free(out), free(err), free(args);

	/* text, and a manual override from the command line, by Change-Id */
	args = xasprintf(
	    "--patchset '%s' --clang 14 --override I0000000000000000000000000000000000000004=drop",
	    r.patchset);
	rc = series_klang(args, &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(str_has(out, "clang 14.0.0 (--clang); v1.0..main in "));
	CU_ASSERT(str_has(out, "manual override: drop (automatic: keep)"));
	CU_ASSERT(str_has(out, "suggestions: 5 (\"fixed in LLVM 5\")")); /* shown all the same */
	CU_ASSERT(str_has(out, "by tag: UPSTREAM 1 kept, 0 dropped"));
	free(out), free(err), free(args);

	/* bad input: exit 2 with a message naming what */
	static const struct {
		const char *args, *msg;
	} bad[] = {
	    {"--clang soon", "--clang 'soon' is not a version"},
	    {"--clang 14abc", "--clang '14abc' is not a version"},
	    {"--clang 14.0.6.1", "--clang '14.0.6.1' is not a version"},
	    {"--clang 99999999999999999999", "is not a version"},
	    {"--clang 14 --override 1=until:15xyz", "'until:15xyz' is not keep, drop"},
	    {"--clang 14 --base nope", "base 'nope' not found"},
	    {"--clang 14 --export /tmp/x", "--export DIR and --as"},
	    {"--clang 14 --export /tmp/x --as tar", "--as must be mbox or quilt"},
	    {"--clang 14 --override 99=keep", "no single patch '99'"},
	    {"--clang 14 --override 1=maybe", "'maybe' is not keep, drop"},
	    {"--clang 14 --format xml", "unknown format 'xml'"},
	    {"--clang 14 --force", "--force only goes with --apply"},
	    {"--cc /nonexistent/clang", "/nonexistent/clang"},
	    {"--patchset /nonexistent.yaml --clang 14", "patchset '/nonexistent.yaml' not found"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		args = xasprintf("--repo '%s' %s", r.repo, bad[i].args);
		rc = series_klang(args, &out, &err);
		CU_ASSERT_EQUAL(rc, 2);
		if (!str_has(err, bad[i].msg))
			fprintf(stderr, "\n%s: got '%s'\n", bad[i].args, err);
		CU_ASSERT(str_has(err, bad[i].msg));
		free(out), free(err), free(args);
	}
	rc = series_klang("--help", &out, &err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(str_has(out, "usage: klang series"));
	free(out), free(err);

	/* a rule's why: with an escape sequence and a newline reaches the
	 * terminal as one plain line, as a subject does */
	struct kerr e;
	char *yaml = read_file(r.patchset, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
	struct strbuf sb = STRBUF_INIT;
	const char *why = strstr(yaml, "why: fixed by LLVM 13\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	sb_add(&sb, yaml, (size_t)(why - yaml));
	sb_adds(&sb, "why: \"fixed\\e[2J by\\nLLVM 13\"\n");
	sb_adds(&sb, why + strlen("why: fixed by LLVM 13\n"));
	CU_ASSERT_EQUAL(write_file_atomic(r.patchset, sb.buf, sb.len, &e), 0);
	args = xasprintf("--patchset '%s' --clang 14", r.patchset);
	CU_ASSERT_EQUAL(series_klang(args, &out, &err), 0);
	CU_ASSERT(str_has(out, "(fixed [2J by LLVM 13)\n"));
	CU_ASSERT_PTR_NULL(strchr(out, '\033'));
	free(out), free(err), free(args), free(yaml);
	sb_free(&sb);
	series_repo_free(&r);
}

void suite_series(void)
{
	CU_pSuite s = CU_add_suite("series", NULL, NULL);
	CU_add_test(s, "keep/drop for clang 14.0.6 and 5.0", test_decisions);
	CU_add_test(s, "trailers decide without a patchset", test_without_patchset);
	CU_add_test(s, "version hints in messages", test_hints);
	CU_add_test(s, "manual overrides, saved and keyed by Change-Id", test_overrides);
	CU_add_test(s, "a dropped patch a kept patch needs is flagged", test_needed_by_kept_patch);
	CU_add_test(s, "a trailer that is not a version is reported", test_bad_trailer);
	CU_add_test(s, "klang series: tsv, json, text, bad input", test_cli_formats);
}
