/* Tests for core/patchset: loading (repo relative to the file, ~ expanded,
 * extra tags, fetch), errors with file:line:column, rule matching, and the
 * shipped LTS patchsets. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/patchset.h"
#include "tests/helpers.h"

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	struct kerr e;
	char *path = xasprintf("%s/%s", dir, name);
	CU_ASSERT_EQUAL(write_file_atomic(path, text, strlen(text), &e), 0);
	return path;
}

static void test_load(void)
{
	char *dir = test_tmpdir();
	char *path = write_tmp(dir, "v4.9.yaml",
			       "# a comment\n"
			       "name: llvm-4.9\n"
			       "description: test\n"
			       "repo: ../linux\n"
			       "base: v4.9\n"
			       "head: llvm_v4.9\n"
			       "tags: [KLANG, WIP]\n"
			       "fetch:\n"
			       "  url: https://example.org/kernel\n"
			       "  ref: refs/heads/x\n"
			       "rules:\n"
			       "  - subject: '^OBSOLETE: '\n"
			       "    until_clang: 5\n"
			       "  - commit: DEADBEEF\n"
			       "    since_clang: 6.0\n"
			       "    until_clang: 14.0.6\n"
			       "  - change_id: I123\n"
			       "    keep: yes\n"
			       "    why: needed on arm64\n"
			       "  - subject: '^net: '\n"
			       "    action: drop\n");
	struct patchset ps;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(patchset_load(&ps, path, &e), 0);
	CU_ASSERT_STRING_EQUAL(ps.name, "llvm-4.9");
	char *repo = xasprintf("%s/../linux", dir);
	CU_ASSERT_STRING_EQUAL(ps.repo, repo);
	free(repo);
	CU_ASSERT_STRING_EQUAL(ps.base, "v4.9");
	CU_ASSERT_STRING_EQUAL(ps.head, "llvm_v4.9");
	CU_ASSERT_EQUAL_FATAL(ps.ntags, 2);
	CU_ASSERT_STRING_EQUAL(ps.tags[1], "WIP");
	CU_ASSERT_STRING_EQUAL(ps.fetch_ref, "refs/heads/x");
	CU_ASSERT_EQUAL_FATAL(ps.nrules, 4);
	CU_ASSERT_EQUAL(ps.rules[3].fixed, RULE_DROP);
	CU_ASSERT_EQUAL(ps.rules[0].line, 12);
	CU_ASSERT_EQUAL(ps.rules[0].col, 5);
	CU_ASSERT_EQUAL(ps.rules[2].fixed, RULE_KEEP);
	struct strbuf sb = STRBUF_INIT;
	ps_rule_describe(&ps.rules[1], &sb);
	CU_ASSERT_STRING_EQUAL(sb_str(&sb), "since_clang 6.0, until_clang 14.0.6");
	sb_free(&sb);

	/* matching: subject regex, commit prefix (any case), Change-Id, bounds */
	struct trailer tr = {"Change-Id", "I123"};
	struct patch p = {.subject = "OBSOLETE: x86: foo"};
	strcpy(p.id, "deadbeef00000000000000000000000000000000");
	CU_ASSERT_PTR_EQUAL(patchset_match(&ps, &p), &ps.rules[0]);
	p.subject = "HACK: x86: foo";
	CU_ASSERT_PTR_EQUAL(patchset_match(&ps, &p), &ps.rules[1]);
	strcpy(p.id, "0eadbeef00000000000000000000000000000000");
	CU_ASSERT_PTR_NULL(patchset_match(&ps, &p));
	p.trailers = &tr;
	p.ntrailers = 1;
	CU_ASSERT_PTR_EQUAL(patchset_match(&ps, &p), &ps.rules[2]);
	p.ntrailers = 0;
	p.subject = "FROMLIST: net: x";
	p.title = "net: x"; /* an anchored pattern matches the title too */
	CU_ASSERT_PTR_EQUAL(patchset_match(&ps, &p), &ps.rules[3]);
	struct clang_version v;
	clangver_parse("5.9", &v);
	CU_ASSERT(!ps_rule_keeps(&ps.rules[1], &v));
	clangver_parse("6", &v);
	CU_ASSERT(ps_rule_keeps(&ps.rules[1], &v));
	clangver_parse("14.0.6", &v);
	CU_ASSERT(!ps_rule_keeps(&ps.rules[1], &v));
	CU_ASSERT(!ps_rule_keeps(&ps.rules[0], &v));
	clangver_parse("4.0.1", &v);
	CU_ASSERT(ps_rule_keeps(&ps.rules[0], &v));
	patchset_free(&ps);
	free(path);

	/* ~ is $HOME; the name defaults to the file name */
	path = write_tmp(dir, "mine.yaml", "repo: ~/src/linux\n");
	char *old = xstrdup(getenv("HOME"));
	setenv("HOME", "/home/someone", 1);
	CU_ASSERT_EQUAL_FATAL(patchset_load(&ps, path, &e), 0);
	setenv("HOME", old, 1);
	CU_ASSERT_STRING_EQUAL(ps.repo, "/home/someone/src/linux");
	CU_ASSERT_STRING_EQUAL(ps.name, "mine");
	CU_ASSERT_PTR_NULL(ps.base);
	patchset_free(&ps);
	free(old);
	free(path);
	test_rmdir(dir);
	free(dir);
}

static void test_errors(void)
{
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
	    {"rules:\n  - until_clang: 5\n", "bad.yaml:2:5: rule needs 'subject' or 'commit'"},
	    {"rules:\n  - subject: x\n", "bad.yaml:2:5: rule needs 'until_clang', 'since_clang'"},
	    {"rules:\n  - subject: '('\n    keep: true\n",
	     "bad.yaml:2:5: subject '(': missing closing parenthesis"},
	    {"rules:\n  - subject: x\n    until_clang: soon\n",
	     "bad.yaml:3:18: 'until_clang' must be a Clang version"},
	    {"rules:\n  - subject: x\n    until_clang: 11abc\n",
	     "bad.yaml:3:18: 'until_clang' must be a Clang version"},
	    {"rules:\n  - subject: x\n    until_clamg: 5\n",
	     "bad.yaml:3:5: unknown rule key 'until_clamg'"},
	    {"rules:\n  - subject: x\n    keep: true\n    drop: true\n",
	     "rule says both 'keep' and 'drop'"},
	    {"rules:\n  - subject: x\n    keep: true\n    until_clang: 5\n",
	     "rule says 'keep' and a Clang bound"},
	    {"rules:\n  - subject: x\n    keep: perhaps\n",
	     "bad.yaml:3:11: 'keep' must be true or false"},
	    {"rules:\n  - commit: xyz1\n    keep: true\n", "commit 'xyz1' is not a commit id"},
	    {"rules:\n  - subject: x\n    since_clang: 9\n    until_clang: 6\n",
	     "since_clang must be below until_clang"},
	    {"rules: 5\n", "bad.yaml:1:8: 'rules' must be a list"},
	    {"rules:\n  - 5\n", "bad.yaml:2:5: a rule must be a mapping"},
	    {"bogus: 1\n", "bad.yaml:1:1: unknown key 'bogus'"},
	    {"rules:\n  - subject: x\n    action: maybe\n",
	     "bad.yaml:3:13: 'action' must be keep or drop"},
	    {"tags: ['FOO:']\n", "bad.yaml:1:8: a tag is one word without ':'"},
	    {"tags: FOO\n", "'tags' must be a list"},
	    {"- a\n- b\n", "bad.yaml:1:1: a patchset must be a mapping"},
	    {"name: [1, 2]\n", "bad.yaml:1:7: 'name' must be a string"},
	    {"rules: [\n  - a\n", "bad.yaml:2:3: did not find expected node content"},
	    {"", "bad.yaml:1:1: empty patchset"},
	    {"fetch: {url: x, branch: y}\n", "unknown fetch key 'branch'"},
	};
	char *dir = test_tmpdir();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *path = write_tmp(dir, "bad.yaml", cases[i].yaml);
		struct patchset ps;
		struct kerr e = {""};
		CU_ASSERT_EQUAL(patchset_load(&ps, path, &e), -1);
		if (!strstr(e.msg, cases[i].msg))
			fprintf(stderr, "\ncase %zu: got '%s'\n", i, e.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cases[i].msg));
		free(path);
	}
	struct patchset ps;
	struct kerr e;
	CU_ASSERT_EQUAL(patchset_load(&ps, "/nonexistent/x.yaml", &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/x.yaml"));
	test_rmdir(dir);
	free(dir);
}

static void test_shipped_lts(void)
{
	static const struct {
		const char *name, *base, *head, *ref;
	} lts[] = {
	    {"v4.4", "v4.4", "llvm_v4.4", "refs/sandbox/mka/llvm/v4.4"},
	    {"v4.9", "v4.9", "llvm_v4.9", "refs/sandbox/mka/llvm/v4.9"},
	    {"v4.9_ext", "v4.9", "llvm_v4.9_ext", "refs/sandbox/mka/llvm/v4.9_ext"},
	    {"v4.13", "v4.13-rc6", "llvm_v4.13", "refs/sandbox/mka/llvm/v4.13"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(lts); i++) {
		char *path = xasprintf("%s/patchsets/%s.yaml", test_src_dir(), lts[i].name);
		struct patchset ps;
		struct kerr e;
		CU_ASSERT_EQUAL_FATAL(patchset_load(&ps, path, &e), 0);
		CU_ASSERT_STRING_EQUAL(ps.name, lts[i].name);
		CU_ASSERT_STRING_EQUAL(ps.base, lts[i].base);
		CU_ASSERT_STRING_EQUAL(ps.head, lts[i].head);
		CU_ASSERT_STRING_EQUAL(ps.fetch_ref, lts[i].ref);
		CU_ASSERT_STRING_EQUAL(
		    ps.fetch_url,
		    "https://chromium.googlesource.com/chromiumos/third_party/kernel");
		CU_ASSERT_PTR_NULL(ps.repo); /* the user's own tree */
		patchset_free(&ps);
		free(path);
	}
	/* A tree without the branch: the message says how to fetch it. */
	char *dir = test_tmpdir();
	char *cmd = xasprintf("cd '%s' && git init -q && git -c user.name=a -c user.email=b "
			      "commit -q --allow-empty -m base && git tag v4.9 && "
			      "'%s' series --patchset '%s/patchsets/v4.9.yaml' --clang 14",
			      dir, test_klang_bin(), test_src_dir());
	char *out, *err;
	CU_ASSERT_EQUAL(test_run(cmd, &out, &err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "head 'llvm_v4.9' not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err,
				      "git fetch https://chromium.googlesource.com/chromiumos/"
				      "third_party/kernel refs/sandbox/mka/llvm/v4.9:llvm_v4.9"));
	free(out), free(err), free(cmd);
	test_rmdir(dir);
	free(dir);
}

void suite_patchset(void)
{
	CU_pSuite s = CU_add_suite("patchset", NULL, NULL);
	CU_add_test(s, "load, resolve and match", test_load);
	CU_add_test(s, "errors name file:line:column", test_errors);
	CU_add_test(s, "the shipped LTS patchsets", test_shipped_lts);
}
