/* Tests for core/rawcommit: every commit of real repositories (a fast-import
 * pack, the same repacked with id deltas, the trap repository loose and
 * gc'ed) parses in place to what libgit2 reads, and commits in unusual
 * forms are either read the same or left to libgit2. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/objread.h"
#include "core/rawcommit.h"
#include "core/stack.h"
#include "core/util.h"
#include "tests/helpers.h"
#include "tests/stackrepo.h"

static bool slice_is(const char *s, size_t len, const char *want)
{
	return strlen(want) == len && !memcmp(s, want, len);
}

/* rawcommit's reading of c against libgit2's; true when all agree. */
static bool same_as_libgit2(const struct rawcommit *c, git_commit *g)
{
	const git_signature *a = git_commit_author(g);
	const char *enc = git_commit_message_encoding(g);
	bool same =
	    git_oid_equal(&c->tree, git_commit_tree_id(g)) &&
	    c->nparents == git_commit_parentcount(g) && slice_is(c->name, c->name_len, a->name) &&
	    slice_is(c->email, c->email_len, a->email) && c->author_time == a->when.time &&
	    c->author_offset == a->when.offset && c->commit_time == git_commit_time(g) &&
	    !strcmp(c->message, git_commit_message(g)) &&
	    (enc ? c->encoding && slice_is(c->encoding, c->encoding_len, enc) : !c->encoding);
	for (size_t i = 0; same && i < c->nparents; i++)
		same = git_oid_equal(&c->parents[i], git_commit_parent_id(g, (unsigned)i));
	return same;
}

struct check {
	git_repository *r;
	struct objread *o;
	size_t commits, bad;
};

static int check_one(const git_oid *id, void *payload)
{
	struct check *k = payload;
	git_commit *g;
	struct rawcommit c;
	if (git_commit_lookup(&g, k->r, id) < 0)
		return 0; /* not a commit */
	k->commits++;
	if (rawcommit_read(k->o, id, &c) < 0 || !git_oid_equal(&c.id, id) ||
	    !same_as_libgit2(&c, g))
		k->bad++;
	rawcommit_release(k->o, &c);
	git_commit_free(g);
	return 0;
}

static void check_repo(const char *dir, size_t min_commits)
{
	struct check k = {0};
	git_odb *odb;
	gw_libinit();
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&k.r, dir), 0);
	CU_ASSERT_EQUAL_FATAL(git_repository_odb(&odb, k.r), 0);
	k.o = objread_new(k.r);
	CU_ASSERT_EQUAL(git_odb_foreach(odb, check_one, &k), 0);
	CU_ASSERT(k.commits >= min_commits);
	CU_ASSERT_EQUAL(k.bad, 0);
	objread_free(k.o);
	git_odb_free(odb);
	git_repository_free(k.r);
}

static void test_repos(void)
{
	char *dir = stackrepo_generate(600, 60);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	check_repo(dir, 600);
	char *cmd = xasprintf("git -C '%s' -c repack.useDeltaBaseOffset=false repack -adfq "
			      "--window=50",
			      dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	check_repo(dir, 600);
	test_rmdir(dir);
	free(dir);

	struct stackrepo sr;
	CU_ASSERT_EQUAL_FATAL(stackrepo_build(&sr), 0);
	check_repo(sr.dir, SR_COUNT); /* loose: the bytes come from libgit2 */
	cmd = xasprintf("git -C '%s' gc -q", sr.dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	check_repo(sr.dir, SR_COUNT);
	stackrepo_free(&sr);
}

#define TREE "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
#define P1 "parent 1111111111111111111111111111111111111111\n"
#define P2 "parent 2222222222222222222222222222222222222222\n"
#define P3 "parent 3333333333333333333333333333333333333333\n"
#define AUTHOR "author A U Thor <a@example.org> 1600000000 +0100\n"
#define COMMITTER "committer C O Mitter <c@example.org> 1600000100 -0230\n"

static const struct {
	const char *text;
	bool read_here; /* false: left to libgit2 */
} forms[] = {
    {TREE P1 AUTHOR COMMITTER "\nsubject\n\nbody\n", true},
    {TREE AUTHOR COMMITTER "\nroot commit\n", true},
    {TREE P1 P2 P3 AUTHOR COMMITTER "\noctopus\n", true},
    {TREE P1 AUTHOR COMMITTER "encoding ISO-8859-1\n\nLatin-1\n", true},
    {TREE P1 AUTHOR COMMITTER "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n"
			      " -----END PGP SIGNATURE-----\n\nsigned\n",
     true},
    {TREE P1 AUTHOR "author Second <s@example.org> 1 +0000\n" COMMITTER "\nextra author\n", true},
    {TREE P1 "author   Spaced \t Name  <  sp@example.org > 5 -0000\n" COMMITTER "\nx\n", true},
    {TREE P1 "author Odd <x> <y@example.org> 7 +0000\n" COMMITTER "\ntwo <\n", false},
    {TREE P1 "author Far <f@example.org> 9 +1500\n" COMMITTER "\nzone out of range\n", true},
    {TREE P1 AUTHOR COMMITTER "\n\n\nleading blank lines\n", true},
    {TREE P1 AUTHOR COMMITTER "\n", true},
    {TREE P1 "author No Time <n@example.org>\n" COMMITTER "\nno time\n", false},
    {TREE P1 "author No Zone <n@example.org> 12\n" COMMITTER "\nno zone\n", false},
    {TREE P1 "author Bad Zone <n@example.org> 12 0100\n" COMMITTER "\nzone\n", false},
    {TREE P1 AUTHOR COMMITTER "no blank line\n", false},
    {TREE P1 AUTHOR COMMITTER, false},
    {TREE "parent 123\n" AUTHOR COMMITTER "\nshort parent\n", false},
    {TREE P1 "committer only <c@example.org> 1 +0000\n\nno author\n", false},
    {"tree xyz\n" P1 AUTHOR COMMITTER "\nbad tree\n", false},
    {TREE "parent 1111111111111111111111111111111111111ABC\n" AUTHOR COMMITTER "\nupper\n", false},
};

/* Commits written as raw objects: each either read as libgit2 reads it,
 * or left to libgit2 (which reads it or refuses it); never read otherwise. */
static void test_forms(void)
{
	char *dir = test_tmpdir();
	git_repository *r;
	git_odb *odb;
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	CU_ASSERT_EQUAL_FATAL(git_repository_odb(&odb, r), 0);
	struct objread *o = objread_new(r);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		git_oid id;
		git_commit *g = NULL;
		struct rawcommit c;
		const char *text = forms[i].text;
		CU_ASSERT_EQUAL_FATAL(
		    git_odb_write(&id, odb, text, strlen(text), GIT_OBJECT_COMMIT), 0);
		int rc = rawcommit_read(o, &id, &c);
		if (rc != (forms[i].read_here ? 0 : -1))
			CU_FAIL(text);
		if (rc == 0) {
			CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&g, r, &id), 0);
			if (!same_as_libgit2(&c, g))
				CU_FAIL(text);
			git_commit_free(g);
			rawcommit_release(o, &c);
		}
	}
	/* a blob is not a commit */
	git_oid blob;
	struct rawcommit c;
	CU_ASSERT_EQUAL(git_odb_write(&blob, odb, TREE, strlen(TREE), GIT_OBJECT_BLOB), 0);
	CU_ASSERT_EQUAL(rawcommit_read(o, &blob, &c), -1);
	/* a NUL inside: libgit2 cuts strings there; left to it */
	static const char nul[] = TREE P1 AUTHOR COMMITTER "\nbefore\0after\n";
	CU_ASSERT_EQUAL(rawcommit_parse(&c, nul, sizeof(nul) - 1), -1);
	objread_free(o);
	git_odb_free(odb);
	git_repository_free(r);
	test_rmdir(dir);
	free(dir);
}

/* The values themselves, not only agreement with libgit2. */
static void test_values(void)
{
	static const char text[] =
	    TREE P1 P2 P3 "author  José Müller  <jm@example.org> "
			  "1600000000 -0130\n" COMMITTER "encoding UTF-8\n\n\nHACK: subject\n";
	struct rawcommit c;
	CU_ASSERT_EQUAL_FATAL(rawcommit_parse(&c, text, sizeof(text) - 1), 0);
	CU_ASSERT_EQUAL(c.nparents, 3);
	char hex[41];
	git_oid_tostr(hex, sizeof(hex), &c.parents[2]);
	CU_ASSERT_STRING_EQUAL(hex, "3333333333333333333333333333333333333333");
	CU_ASSERT(slice_is(c.name, c.name_len, "José Müller"));
	CU_ASSERT(slice_is(c.email, c.email_len, "jm@example.org"));
	CU_ASSERT_EQUAL(c.author_time, 1600000000);
	CU_ASSERT_EQUAL(c.author_offset, -90);
	CU_ASSERT_EQUAL(c.commit_time, 1600000100);
	CU_ASSERT(slice_is(c.encoding, c.encoding_len, "UTF-8"));
	CU_ASSERT_STRING_EQUAL(c.message, "HACK: subject\n");
	rawcommit_release(NULL, &c);
}

/* A stack walk over commits read both ways: the one left to libgit2 (an
 * author line without a time) comes out as libgit2 reads it. */
static void test_walk_mixed(void)
{
	char *dir = test_tmpdir();
	git_repository *r;
	git_odb *odb;
	git_oid tree, ids[3];
	struct kerr e;
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	CU_ASSERT_EQUAL_FATAL(git_repository_odb(&odb, r), 0);
	CU_ASSERT_EQUAL_FATAL(git_odb_write(&tree, odb, "", 0, GIT_OBJECT_TREE), 0);
	const char *authors[3] = {AUTHOR, "author No Time <n@example.org>\n", AUTHOR};
	for (int i = 0; i < 3; i++) {
		char hex[41];
		git_oid_tostr(hex, sizeof(hex), i ? &ids[i - 1] : &tree);
		char *text = i ? xasprintf(TREE "parent %s\n%s" COMMITTER "\nFROMLIST: patch %d\n",
					   hex, authors[i], i)
			       : xstrdup(TREE AUTHOR COMMITTER "\nbase\n");
		CU_ASSERT_EQUAL_FATAL(
		    git_odb_write(&ids[i], odb, text, strlen(text), GIT_OBJECT_COMMIT), 0);
		free(text);
	}
	git_reference *ref;
	CU_ASSERT_EQUAL_FATAL(git_reference_create(&ref, r, "refs/tags/v1", &ids[0], 1, NULL), 0);
	git_reference_free(ref);
	CU_ASSERT_EQUAL_FATAL(git_reference_create(&ref, r, "refs/heads/top", &ids[2], 1, NULL), 0);
	git_reference_free(ref);
	git_odb_free(odb);
	git_repository_free(r);

	struct stack st;
	struct stack_opts o = {.repo = dir, .base = "v1", .head = "top"};
	CU_ASSERT_EQUAL_FATAL(stack_open(&st, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(st.npatches, 2);
	CU_ASSERT_STRING_EQUAL(st.patches[0].author, "No Time");
	CU_ASSERT_EQUAL(st.patches[0].time, 0);
	CU_ASSERT_STRING_EQUAL(st.patches[0].title, "patch 1");
	CU_ASSERT(st.patches[0].tags & TAG_BIT(TAG_FROMLIST));
	CU_ASSERT_STRING_EQUAL(st.patches[1].author, "A U Thor");
	CU_ASSERT_EQUAL(st.patches[1].time, 1600000000);
	CU_ASSERT_EQUAL(st.patches[1].tz_offset, 60);
	CU_ASSERT(st.patches[1].trees_known);
	stack_free(&st);
	test_rmdir(dir);
	free(dir);
}

void suite_rawcommit(void)
{
	CU_pSuite s = CU_add_suite("rawcommit", NULL, NULL);
	CU_add_test(s, "every commit of real repositories", test_repos);
	CU_add_test(s, "unusual forms", test_forms);
	CU_add_test(s, "values", test_values);
	CU_add_test(s, "a walk over both kinds", test_walk_mixed);
}
