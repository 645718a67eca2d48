/* The bad-input table (doc/bad-inputs.md), one test per row: each runs the
 * real klang binary on one bad input and asserts its exact message on
 * stderr and its exit status, plus what must hold afterwards (nothing
 * overwritten, nothing left behind). A last test checks that every row is
 * in the document exactly as tested, and no other, so the two cannot drift. */
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gitwrite.h"
#include "core/util.h"
#include "tests/badinput.h"
#include "tests/helpers.h"

/* Every row runs in one directory T holding: r/ (a repository: v1.0, then
 * main = HACK + UPSTREAM with a 20 KB file; branches side (off v1.0) and
 * exists), big/ (a 1 MB subject, invalid UTF-8), and what a row's setup
 * makes. "/path/to" in a message stands for T. */
static char *T;

static const char *const big_file_line = "static const char filler[] = \"0123456789abcdef\";\n";

static int make_repos(void)
{
	git_repository *g = NULL;
	struct kerr e;
	char id[41];
	char *r = xasprintf("%s/r", T), *big = xasprintf("%s/big", T);
	struct strbuf filler = STRBUF_INIT;
	while (filler.len < 20000)
		sb_adds(&filler, big_file_line);
	struct gw_file base[] = {{"a.c", "int a;\n", 0}};
	struct gw_file hack[] = {{"arm64.c", "int arm64;\n", 0}};
	struct gw_file up[] = {{"x86.c", filler.buf, 0}};
	struct gw_file side[] = {{"side.c", "int side;\n", 0}};
	struct gw_commit c[] = {
	    {.ref = "refs/heads/main", .files = base, .nfiles = 1, .message = "base\n"},
	    {.ref = "refs/heads/main",
	     .files = hack,
	     .nfiles = 1,
	     .message = "HACK: arm64: work around clang\n\n"
			"Change-Id: I0000000000000000000000000000000000000001\n"},
	    {.ref = "refs/heads/main",
	     .files = up,
	     .nfiles = 1,
	     .message = "UPSTREAM: x86: a big file\n"},
	};
	int rc = gw_init(r, &g, &e);
	for (size_t i = 0; i < ARRAY_SIZE(c) && rc == 0; i++) {
		rc = gw_commit(g, &c[i], id, &e);
		if (rc == 0 && i == 0)
			rc = gw_tag(g, "v1.0", "main", &e);
	}
	struct gw_commit sc = {.ref = "refs/heads/side",
			       .parent = "v1.0",
			       .files = side,
			       .nfiles = 1,
			       .message = "side\n"};
	struct gw_commit ec = {.ref = "refs/heads/exists",
			       .parent = "v1.0",
			       .files = side,
			       .nfiles = 1,
			       .message = "exists\n"};
	if (rc == 0)
		rc = gw_commit(g, &sc, id, &e);
	if (rc == 0)
		rc = gw_commit(g, &ec, id, &e);
	if (rc == 0)
		rc = gw_checkout(g, "main", &e);
	git_repository_free(g);
	g = NULL;

	/* big: a 1 MB subject and a message that is not UTF-8 */
	struct strbuf subject = STRBUF_INIT;
	sb_adds(&subject, "HACK: ");
	while (subject.len < (1 << 20))
		sb_adds(&subject, "x");
	sb_adds(&subject, "\n");
	struct gw_commit bc[] = {
	    {.ref = "refs/heads/main", .files = base, .nfiles = 1, .message = "base\n"},
	    {.ref = "refs/heads/main", .files = hack, .nfiles = 1, .message = subject.buf},
	    {.ref = "refs/heads/main",
	     .files = side,
	     .nfiles = 1,
	     .message = "UPSTREAM: caf\xe9 \xff\xfe not UTF-8\n"},
	    {.ref = "refs/heads/main",
	     .files = up,
	     .nfiles = 1,
	     .message = "UPSTREAM: \x1b[31mred\x1b[0m and \x1b]0;title\x07 in a subject\n"},
	};
	if (rc == 0)
		rc = gw_init(big, &g, &e);
	for (size_t i = 0; i < ARRAY_SIZE(bc) && rc == 0; i++) {
		rc = gw_commit(g, &bc[i], id, &e);
		if (rc == 0 && i == 0)
			rc = gw_tag(g, "v1.0", "main", &e);
	}
	if (rc == 0)
		rc = gw_checkout(g, "main", &e);
	git_repository_free(g);
	if (rc < 0)
		fprintf(stderr, "bad-input repositories: %s\n", e.msg);
	sb_free(&subject);
	sb_free(&filler);
	free(r);
	free(big);
	return rc;
}

static int suite_init(void)
{
	T = test_tmpdir();
	return make_repos() < 0 ? -1 : 0;
}

static int suite_cleanup(void)
{
	test_rmdir(T);
	free(T);
	return 0;
}

/* Replace every `from` in s by `to`. Caller frees. */
static char *replace_all(const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(from);
	for (const char *p; n && (p = strstr(s, from)); s = p + n) {
		sb_add(&sb, s, (size_t)(p - s));
		sb_adds(&sb, to);
	}
	sb_adds(&sb, s);
	return sb_detach(&sb);
}

/* The command with each word "klang" (not ".klang/") run as the binary
 * under test. Caller frees. */
static char *with_binary(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = s; *p; p++) {
		if (str_startswith(p, "klang ") && (p == s || strchr(" (&;|", p[-1]))) {
			sb_addf(&sb, "'%s'", test_klang_bin());
			p += 4; /* the space is copied next */
		} else {
			sb_addc(&sb, *p);
		}
	}
	return sb_detach(&sb);
}

/* An exact match where "<id>" in the pattern stands for 7 to 40 hex digits. */
static bool matches(const char *pat, const char *s)
{
	while (*pat) {
		if (str_startswith(pat, "<id>")) {
			size_t n = 0;
			while (isxdigit((unsigned char)s[n]) && n < 40)
				n++;
			if (n < 7)
				return false;
			pat += 4;
			s += n;
		} else if (*pat++ != *s++) {
			return false;
		}
	}
	return *s == '\0';
}

/* The row a test runs: CUnit's current test is named after it. */
static const struct badinput_row *current_row(void)
{
	const char *name = CU_get_current_test()->pName;
	for (size_t i = 0; i < badinput_nrows; i++)
		if (!strcmp(badinput_rows[i].what, name))
			return &badinput_rows[i];
	return NULL;
}

/* The wrapper a row asks for, or NULL when this machine cannot provide it
 * (then the row is skipped with a note). */
static char *wrapped(const struct badinput_row *r, const char *cmd)
{
	if (r->needs == NEEDS_NOTHING)
		return xstrdup(cmd);
	if (r->needs == NEEDS_NO_DAC) {
		/* root reads a mode-000 file unless it drops these capabilities */
		if (geteuid() != 0)
			return xstrdup(cmd);
		if (system("setpriv --bounding-set=-dac_override true >/dev/null 2>&1") != 0)
			return NULL;
		char *q = replace_all(cmd, "'", "'\\''");
		char *w = xasprintf("setpriv --bounding-set=-dac_override,-dac_read_search "
				    "sh -c '%s'",
				    q);
		free(q);
		return w;
	}
	/* NEEDS_TMPFS: a 12 KB tmpfs on T/full, in a mount namespace of its own */
	const char *unshare = geteuid() == 0 ? "unshare -m" : "unshare -rm";
	char *probe = xasprintf("%s sh -c 'mount -t tmpfs -o size=12k klang-full %s/full' "
				">/dev/null 2>&1",
				unshare, T);
	int ok = system(probe) == 0;
	free(probe);
	if (!ok)
		return NULL;
	char *q = replace_all(cmd, "'", "'\\''");
	char *w =
	    xasprintf("%s sh -c 'mount -t tmpfs -o size=12k klang-full full && %s'", unshare, q);
	free(q);
	return w;
}

static void test_row(void)
{
	const struct badinput_row *r = current_row();
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	char *setup_cmd = with_binary(r->setup ? r->setup : "true");
	char *setup = xasprintf("cd '%s' && %s", T, setup_cmd);
	free(setup_cmd);
	CU_ASSERT_EQUAL_FATAL(test_run(setup, NULL, NULL), 0);
	char *cmd = with_binary(r->cmd);
	char *w = wrapped(r, cmd);
	if (!w) {
		fprintf(stderr, "\n  skipped (this machine cannot make %s) ",
			r->needs == NEEDS_TMPFS ? "a tmpfs" : "an unreadable file");
	} else {
		char *line = xasprintf("cd '%s' && { %s\n}", T, w), *out, *err;
		int rc = test_run(line, &out, &err);
		char *got = replace_all(err, T, "/path/to");
		char *want = r->msg[0] ? xasprintf("%s\n", r->msg) : xstrdup("");
		if (rc != r->exit || !matches(want, got))
			fprintf(stderr, "\n  %s\n  exit %d (want %d)\n  got:  %s  want: %s", r->cmd,
				rc, r->exit, got, want);
		CU_ASSERT_EQUAL(rc, r->exit);
		CU_ASSERT(matches(want, got));
		if (r->check) {
			char *check = xasprintf("cd '%s' && %s", T, r->check);
			char *cout, *cerr;
			int crc = test_run(check, &cout, &cerr);
			if (crc != 0)
				fprintf(stderr, "\n  after '%s': check '%s' failed: %s%s", r->cmd,
					r->check, cout, cerr);
			CU_ASSERT_EQUAL(crc, 0);
			free(cout);
			free(cerr);
			free(check);
		}
		free(want);
		free(got);
		free(out);
		free(err);
		free(line);
	}
	free(w);
	free(cmd);
	free(setup);
}

/* Markdown cells escape '|' and show line breaks as <br>. */
static char *cell(const char *s)
{
	char *bars = replace_all(s, "|", "\\|");
	char *c = replace_all(bars, "\n", "<br>");
	free(bars);
	return c;
}

static void test_doc_matches(void)
{
	char *path = xasprintf("%s/doc/bad-inputs.md", test_src_dir());
	struct kerr e;
	char *doc = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	for (size_t i = 0; i < badinput_nrows; i++) {
		const struct badinput_row *r = &badinput_rows[i];
		char *c = cell(r->cmd), *m = cell(r->msg);
		char *line = r->msg[0]
				 ? xasprintf("| %s | `%s` | %d | `%s` |", r->what, c, r->exit, m)
				 : xasprintf("| %s | `%s` | %d | (none) |", r->what, c, r->exit);
		if (!strstr(doc, line))
			fprintf(stderr, "\n  doc/bad-inputs.md lacks the row:\n  %s", line);
		CU_ASSERT_PTR_NOT_NULL(strstr(doc, line));
		free(line);
		free(c);
		free(m);
	}
	/* and no row there that is not tested */
	size_t rows = 0;
	for (const char *l = doc; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		rows += !strncmp(l, "| ", 2) && strncmp(l, "| Bad input |", 13);
	if (rows != badinput_nrows)
		fprintf(stderr, "\n  doc/bad-inputs.md has %zu rows, tests/badinput.c %zu", rows,
			badinput_nrows);
	CU_ASSERT_EQUAL(rows, badinput_nrows);
	free(doc);
	free(path);
}

void suite_badinput(void)
{
	CU_pSuite s = CU_add_suite("badinput", suite_init, suite_cleanup);
	for (size_t i = 0; i < badinput_nrows; i++)
		CU_add_test(s, badinput_rows[i].what, test_row);
	CU_add_test(s, "doc/bad-inputs.md holds every row as tested", test_doc_matches);
}
