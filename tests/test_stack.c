/* Tests for core/stack: the walk, the fields of every patch, statistics
 * (lazy and all at once), diffs and errors, on repositories written with
 * libgit2 and with git fast-import. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/stack.h"
#include "tests/helpers.h"
#include "tests/stackrepo.h"

static struct stackrepo repo;
static bool built;

static int setup(void)
{
	built = stackrepo_build(&repo) == 0;
	return 0;
}

static int teardown(void)
{
	stackrepo_free(&repo);
	return 0;
}

static int open_stack(struct stack *st, const char *base, const char *head, bool stats,
		      struct kerr *e)
{
	struct stack_opts o = {.repo = repo.dir, .base = base, .head = head, .stats = stats};
	return stack_open(st, &o, e);
}

struct want {
	const char *tags, *title;
	size_t files, ins, del;
};

static const struct want wants[SR_COUNT] = {
    [SR_UPSTREAM] = {"UPSTREAM", "usb: core: fix a leak in hub probe", 1, 1, 1},
    [SR_BACKPORT_FROMLIST] = {"BACKPORT,FROMLIST",
			      "pwm: Add support for different PWM output types", 1, 12, 0},
    [SR_DO_NOT_UPSTREAM] = {"", "DO-NOT-UPSTREAM: debug: add a knob", 1, 2, 0},
    [SR_ANDROID_ARM] = {"ANDROID", "ARM: enable the thing", 1, 2, 0},
    [SR_FROMLIST_USB] = {"FROMLIST", "USB: gadget: fix two lines", 1, 3, 3},
    [SR_REVERT] = {"",
		   "Revert \"BACKPORT: FROMLIST: pwm: Add support for different PWM output types\"",
		   1, 0, 12},
    [SR_UNTAGGED] = {"", "kbuild: add a Makefile", 1, 2, 0},
    [SR_MERGE] = {"", "Merge branch 'side'", 2, 1, 1},
    [SR_UTF8_AUTHOR] = {"HACK", "clang: work around a miscompile", 1, 1, 3},
    [SR_LONG_SUBJECT] = {"CHROMIUM", NULL, 1, 30, 0},
    [SR_TAB_SUBJECT] = {"CUSTOM", "a\ttab in the subject", 1, 1, 0},
    [SR_BINARY] = {"OBSOLETE", "add a firmware blob", 1, 0, 0},
    [SR_RENAME] = {"FROMGIT", "docs: rename long.txt", 1, 0, 0},
    [SR_LOWERCASE] = {"", "Upstream: lower case is not a tag", 1, 1, 0},
    [SR_NO_SPACE] = {"", "HACK:no space is not a tag", 1, 0, 2},
    [SR_TWO_LINE_SUBJECT] = {"UPSTREAM", "a subject on two lines", 1, 3, 3},
    [SR_EMPTY] = {"BACKPORT", "change nothing", 0, 0, 0},
};

static void test_patches(void)
{
	struct stack st;
	struct kerr e;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, NULL, NULL, false, &e), 0);
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v4.9"); /* nearest v* tag, not android-4.9 */
	CU_ASSERT_STRING_EQUAL(st.head_ref, "HEAD");
	CU_ASSERT_STRING_EQUAL(st.base_id, repo.base);
	CU_ASSERT_STRING_EQUAL(st.head_id, repo.ids[SR_COUNT - 1]);
	CU_ASSERT_EQUAL_FATAL(st.npatches, SR_COUNT);
	for (size_t i = 0; i < SR_COUNT; i++) {
		struct patch *p = &st.patches[i];
		char *tags = patch_tags_join(p, ",");
		CU_ASSERT_EQUAL(p->index, i + 1);
		CU_ASSERT_STRING_EQUAL(p->id, repo.ids[i]);
		CU_ASSERT_STRING_EQUAL(tags, wants[i].tags);
		if (wants[i].title)
			CU_ASSERT_STRING_EQUAL(p->title, wants[i].title);
		CU_ASSERT_FALSE(p->stats_loaded);
		CU_ASSERT_EQUAL(stack_load_stats(&st, p, &e), 0);
		CU_ASSERT_TRUE(p->stats_loaded);
		CU_ASSERT_EQUAL(p->files, wants[i].files);
		CU_ASSERT_EQUAL(p->insertions, wants[i].ins);
		CU_ASSERT_EQUAL(p->deletions, wants[i].del);
		CU_ASSERT_EQUAL(p->merge, i == SR_MERGE);
		CU_ASSERT_EQUAL(p->revert, i == SR_REVERT);
		if (p->files != wants[i].files || p->insertions != wants[i].ins ||
		    p->deletions != wants[i].del)
			fprintf(stderr, "\n  patch %zu: %zu files +%zu -%zu\n", i + 1, p->files,
				p->insertions, p->deletions);
		free(tags);
	}
	struct patch *p = &st.patches[SR_UTF8_AUTHOR];
	CU_ASSERT_STRING_EQUAL(p->author, "Jos\xc3\xa9 M\xc3\xbcller");
	CU_ASSERT_STRING_EQUAL(p->author_email, "jm@example.org");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Clang-Fixed"), "15");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "(cherry picked from commit"),
			       "abcdef0123456789abcdef0123456789abcdef01");
	CU_ASSERT_EQUAL(p->time, 1700000000);
	p = &st.patches[SR_UPSTREAM];
	CU_ASSERT_STRING_EQUAL(p->author, "klang");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Change-Id"),
			       "I0123456789abcdef0123456789abcdef01234567");
	CU_ASSERT_STRING_EQUAL(
	    p->body, "The hub probe leaked its buffer on the error path.\n\n"
		     "Change-Id: I0123456789abcdef0123456789abcdef01234567\n"
		     "Signed-off-by: Greg <greg@example.org>\n"
		     "(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
		     "Signed-off-by: Android Dev <dev@android.example>");
	CU_ASSERT_EQUAL(p->ntrailers, 4);
	p = &st.patches[SR_BACKPORT_FROMLIST];
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Bug"), "123456");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Link"),
			       "https://lore.kernel.org/patchwork/patch/1234/");
	p = &st.patches[SR_LONG_SUBJECT];
	CU_ASSERT_EQUAL(strlen(p->subject), 300);
	CU_ASSERT_EQUAL(strlen(p->title), 300 - strlen("CHROMIUM: "));
	CU_ASSERT_STRING_EQUAL(st.patches[SR_TWO_LINE_SUBJECT].body, "Body.");
	CU_ASSERT_PTR_EQUAL(stack_find(&st, repo.ids[SR_RENAME]), &st.patches[SR_RENAME]);
	char abbrev[8];
	snprintf(abbrev, sizeof(abbrev), "%.7s", repo.ids[SR_MERGE]);
	CU_ASSERT_PTR_EQUAL(stack_find(&st, abbrev), &st.patches[SR_MERGE]);
	CU_ASSERT_PTR_NULL(stack_find(&st, "abc"));
	CU_ASSERT_PTR_NULL(stack_find(&st, repo.base));
	stack_free(&st);
}

static void test_all_stats_and_extra_tags(void)
{
	struct stack st;
	struct kerr e;
	const char *extra[] = {"DO-NOT-UPSTREAM"};
	struct stack_opts o = {.repo = repo.dir,
			       .base = "v4.9",
			       .head = "main",
			       .extra_tags = extra,
			       .nextra_tags = 1,
			       .stats = true};
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(st.npatches, SR_COUNT);
	for (size_t i = 0; i < SR_COUNT; i++) {
		CU_ASSERT_TRUE(st.patches[i].stats_loaded);
		CU_ASSERT_EQUAL(st.patches[i].insertions, wants[i].ins);
	}
	struct patch *p = &st.patches[SR_DO_NOT_UPSTREAM];
	CU_ASSERT_EQUAL(p->nextra_tags, 1);
	CU_ASSERT_EQUAL(p->ntags, 0);
	CU_ASSERT_STRING_EQUAL(p->title, "debug: add a knob");
	stack_free(&st);
}

static void test_ranges(void)
{
	struct stack st;
	struct kerr e;
	CU_ASSERT_FATAL(built);
	/* base merged as a second parent: not on head's first-parent line */
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, "side", "main", false, &e), 0);
	CU_ASSERT_EQUAL(st.npatches, SR_COUNT);
	stack_free(&st);
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, repo.ids[SR_MERGE], NULL, false, &e), 0);
	CU_ASSERT_EQUAL(st.npatches, SR_COUNT - SR_MERGE - 1);
	CU_ASSERT_STRING_EQUAL(st.patches[0].id, repo.ids[SR_MERGE + 1]);
	stack_free(&st);
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, "main", "main", false, &e), 0);
	CU_ASSERT_EQUAL(st.npatches, 0);
	stack_free(&st);
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, "v4.8", "v4.9", false, &e), 0);
	CU_ASSERT_EQUAL(st.npatches, 1);
	CU_ASSERT_STRING_EQUAL(st.patches[0].subject, "Linux 4.9");
	stack_free(&st);
	/* the nearest v* tag below a head */
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, NULL, "other", false, &e), 0);
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v4.8");
	CU_ASSERT_EQUAL(st.npatches, 1);
	stack_free(&st);
}

static void check_error(const char *base, const char *head, const char *want)
{
	struct stack st;
	struct kerr e = {""};
	char *msg = xasprintf(want, repo.dir);
	CU_ASSERT_EQUAL(open_stack(&st, base, head, false, &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, msg);
	CU_ASSERT_PTR_NULL(st.repo);
	CU_ASSERT_EQUAL(st.npatches, 0);
	free(msg);
}

static void test_errors(void)
{
	CU_ASSERT_FATAL(built);
	check_error("v4.7", NULL, "base 'v4.7' not found in %s");
	check_error(NULL, "nope", "head 'nope' not found in %s");
	check_error("other", "main", "base 'other' is not an ancestor of head 'main'");
	check_error("v4.9", "v4.8", "base 'v4.9' is not an ancestor of head 'v4.8'");
	check_error("HEAD^{tree}", NULL, "base 'HEAD^{tree}' not found in %s");

	struct stack st;
	struct kerr e;
	char *dir = test_tmpdir();
	struct stack_opts o = {.repo = dir};
	CU_ASSERT_EQUAL(stack_open(&st, &o, &e), -1);
	char *want = xasprintf("not a git repository: %s", dir);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	free(want);
	/* a repository with no v* tag */
	struct git_repository *r;
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	struct gw_commit c = {.ref = "refs/heads/main", .message = "only\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "release-1", "main", &e), 0);
	CU_ASSERT_EQUAL(gw_checkout(r, "main", &e), 0);
	git_repository_free(r);
	CU_ASSERT_EQUAL(stack_open(&st, &o, &e), -1);
	want = xasprintf("no v* tag reachable from HEAD in %s; give --base", dir);
	CU_ASSERT_STRING_EQUAL(e.msg, want);
	free(want);
	test_rmdir(dir);
	free(dir);
}

static void test_diff_text(void)
{
	struct stack st;
	struct kerr e;
	CU_ASSERT_FATAL(built);
	CU_ASSERT_EQUAL_FATAL(open_stack(&st, NULL, NULL, false, &e), 0);
	char *d = stack_patch_diff(&st, &st.patches[SR_UPSTREAM], &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_TRUE(
	    str_startswith(d, "diff --git a/drivers/usb/core.c b/drivers/usb/core.c\nindex "));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(d, "\n--- a/drivers/usb/core.c\n+++ b/drivers/usb/core.c\n@@ -2,7 +2,7 @@"));
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "\n-usb core line 5\n+usb core line 5 fixed\n"));
	free(d);
	d = stack_patch_diff(&st, &st.patches[SR_RENAME], &e);
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "rename from docs/long.txt\nrename to docs/longer.txt"));
	free(d);
	d = stack_patch_diff(&st, &st.patches[SR_BINARY], &e);
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "Binary files /dev/null and b/firmware/blob.bin differ"));
	free(d);
	d = stack_patch_diff(&st, &st.patches[SR_EMPTY], &e);
	CU_ASSERT_STRING_EQUAL(d, "");
	free(d);
	d = stack_patch_diff(&st, &st.patches[SR_MERGE], &e);
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "+++ b/side.c"));
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "+++ b/README"));
	free(d);
	/* a patch read from a file keeps its own diff and counts it */
	struct patch *p = &st.patches[SR_UNTAGGED];
	p->diff = xstrdup(
	    "--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n a\n--- b\n-c\n+d\n\\ No newline at end of file\n");
	p->stats_loaded = false;
	CU_ASSERT_EQUAL(stack_load_stats(&st, p, &e), 0);
	CU_ASSERT_EQUAL(p->files, 1);
	CU_ASSERT_EQUAL(p->insertions, 1);
	CU_ASSERT_EQUAL(p->deletions, 2);
	d = stack_patch_diff(&st, p, &e);
	CU_ASSERT_STRING_EQUAL(d, p->diff);
	free(d);
	stack_free(&st);
}

/* A fast-import stack: packed objects, deltas, 4 merges, renames. */
static void test_big_stack(void)
{
	char *dir = stackrepo_generate(2000, 100);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	struct stack st;
	struct kerr e;
	struct stack_opts o = {.repo = dir, .head = "master"};
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v1.0");
	CU_ASSERT_EQUAL_FATAL(st.npatches, 2000);
	CU_ASSERT_STRING_EQUAL(st.patches[0].title, "subsys: change number 1 of the stack");
	CU_ASSERT_STRING_EQUAL(st.patches[1999].title, "Merge branch 'side' (2000)");
	size_t merges = 0;
	for (size_t i = 0; i < st.npatches; i++)
		merges += st.patches[i].merge;
	CU_ASSERT_EQUAL(merges, 4);
	/* one patch's statistics alone, then all of them (worker processes) */
	struct patch *p = &st.patches[1000];
	CU_ASSERT_EQUAL(stack_load_stats(&st, p, &e), 0);
	size_t ins = p->insertions;
	CU_ASSERT_FALSE(st.patches[999].stats_loaded);
	CU_ASSERT_EQUAL(stack_load_all_stats(&st, &e), 0);
	CU_ASSERT_EQUAL(p->insertions, ins);
	size_t files = 0;
	for (size_t i = 0; i < st.npatches; i++) {
		CU_ASSERT_TRUE(st.patches[i].stats_loaded);
		files += st.patches[i].files;
	}
	/* a file per patch, + 200 new files, 2 binaries, 2 renames, 4 side files */
	CU_ASSERT_EQUAL(files, 2000 + 200 + 2 + 2 + 4);
	stack_free(&st);
	test_rmdir(dir);
	free(dir);
}

static void add(struct git_repository *r, const char *ref, const char *second, const char *msg,
		const char *tag)
{
	struct kerr e;
	struct gw_file f = {msg, msg, 0}; /* a file named after the message */
	struct gw_commit c = {
	    .ref = ref, .second_parent = second, .files = &f, .nfiles = 1, .message = msg};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, NULL, &e), 0);
	if (tag)
		CU_ASSERT_EQUAL(gw_tag(r, tag, ref, &e), 0);
}

/* The default base is what git describe --tags --match 'v*' --abbrev=0 says,
 * also when a merged branch brings a nearer tag than the first-parent line. */
static void test_default_base(void)
{
	char *dir = test_tmpdir(), *out;
	struct git_repository *r;
	struct kerr e;
	struct stack st;
	struct stack_opts o = {.repo = dir, .head = "main"};
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	add(r, "refs/heads/main", NULL, "c0", "v1.0");
	add(r, "refs/heads/main", NULL, "c1", NULL);
	add(r, "refs/heads/main", NULL, "c2", "v1.1");
	CU_ASSERT_EQUAL(gw_tag(r, "w9", "main", &e), 0);
	add(r, "refs/heads/main", NULL, "HACK: c3", "not-v");
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v1.1");
	CU_ASSERT_EQUAL(st.npatches, 1);
	stack_free(&st);
	/* a stable branch tagged v1.1.1 merged into the stack: nearer than v1.1 */
	CU_ASSERT_EQUAL_FATAL(gw_tag(r, "stable-base", "main~1", &e), 0);
	struct gw_file f = {"s1", "s1", 0};
	struct gw_commit s1 = {.ref = "refs/heads/stable",
			       .parent = "stable-base",
			       .files = &f,
			       .nfiles = 1,
			       .message = "s1\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &s1, NULL, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1.1.1", "stable", &e), 0);
	add(r, "refs/heads/main", "stable", "Merge stable", NULL);
	add(r, "refs/heads/main", NULL, "UPSTREAM: c4", NULL);
	git_repository_free(r);
	char *cmd = xasprintf("git -C '%s' describe --tags --match 'v*' --abbrev=0 main", dir);
	CU_ASSERT_EQUAL(test_run(cmd, &out, NULL), 0);
	CU_ASSERT_STRING_EQUAL(out, "v1.1.1\n");
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_STRING_EQUAL(st.base_ref, "v1.1.1");
	CU_ASSERT_EQUAL_FATAL(st.npatches, 3);
	CU_ASSERT_STRING_EQUAL(st.patches[0].subject, "HACK: c3");
	CU_ASSERT_TRUE(st.patches[1].merge);
	stack_free(&st);
	char *want = stackrepo_expected_tsv(dir, "v1.1.1..main");
	CU_ASSERT_PTR_NOT_NULL(strstr(want, "\tHACK\tc3\t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(want, "\tUPSTREAM\tc4\t"));
	free(want);
	free(out);
	free(cmd);
	test_rmdir(dir);
	free(dir);
}

/* An old commit in Latin-1 with an encoding header reads as UTF-8, as git
 * log shows it. */
static void test_encoding(void)
{
	char *dir = test_tmpdir();
	git_repository *r;
	struct kerr e;
	char base[41];
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	struct gw_commit c = {.ref = "refs/heads/main", .message = "base\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, base, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1", "main", &e), 0);
	git_signature *sig;
	git_commit *parent;
	git_tree *tree;
	git_oid id, pid;
	git_oid_fromstr(&pid, base);
	CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&parent, r, &pid), 0);
	CU_ASSERT_EQUAL_FATAL(git_commit_tree(&tree, parent), 0);
	CU_ASSERT_EQUAL_FATAL(git_signature_new(&sig, "Jos\xe9", "j@x", 1700000000, 60), 0);
	CU_ASSERT_EQUAL_FATAL(git_commit_create(&id, r, "refs/heads/main", sig, sig, "ISO-8859-1",
						"HACK: caf\xe9\n\nSigned-off-by: Jos\xe9 <j@x>\n",
						tree, 1, (const git_commit **)&parent),
			      0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_commit_free(parent);
	git_repository_free(r);

	struct stack st;
	struct stack_opts o = {.repo = dir, .head = "main"};
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(st.npatches, 1);
	CU_ASSERT_STRING_EQUAL(st.patches[0].author, "Jos\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(st.patches[0].title, "caf\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&st.patches[0], "Signed-off-by"), "Jos\xc3\xa9 <j@x>");
	CU_ASSERT_EQUAL(st.patches[0].tz_offset, 60);
	stack_free(&st);
	char *want = stackrepo_expected_tsv(dir, "v1..main");
	CU_ASSERT_PTR_NOT_NULL(strstr(want, "\tHACK\tcaf\xc3\xa9\tJos\xc3\xa9\t0\t0\t0\n"));
	free(want);
	test_rmdir(dir);
	free(dir);
}

void suite_stack(void)
{
	CU_pSuite s = CU_add_suite("stack", setup, teardown);
	CU_add_test(s, "every patch of a stack with traps", test_patches);
	CU_add_test(s, "all statistics, extra tags", test_all_stats_and_extra_tags);
	CU_add_test(s, "ranges and default base", test_ranges);
	CU_add_test(s, "errors name the ref and the repository", test_errors);
	CU_add_test(s, "diff text", test_diff_text);
	CU_add_test(s, "2,000 patches from fast-import", test_big_stack);
	CU_add_test(s, "Latin-1 commits", test_encoding);
	CU_add_test(s, "default base with a merged tag", test_default_base);
}
