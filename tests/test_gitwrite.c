/* Tests for core/gitwrite: commits, merges and tags written with libgit2. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "tests/helpers.h"

int mbedtls_x509_crt_parse_file(void *chain, const char *path);

/* klang answers libgit2's reading of the CA certificates only while
 * libgit2 starts (core/gitwrite.c); afterwards the call reaches mbedTLS,
 * which fails on a file that does not exist. */
static void test_certificates_after_start(void)
{
	long chain[512] = {0};
	gw_libinit();
	CU_ASSERT_NOT_EQUAL(mbedtls_x509_crt_parse_file(chain, "/nonexistent/ca.crt"), 0);
	git_repository *r;
	struct kerr e;
	char *dir = test_tmpdir();
	CU_ASSERT_EQUAL(gw_init(dir, &r, &e), 0); /* and libgit2 works */
	git_repository_free(r);
	test_rmdir(dir);
	free(dir);
}

static void test_commit_chain(void)
{
	char *dir = test_tmpdir();
	git_repository *r;
	struct kerr e;
	char base[41], a[41], side[41], m[41];
	CU_ASSERT_EQUAL_FATAL(gw_init(dir, &r, &e), 0);
	struct gw_file f1[] = {{"README", "hello\n", 0}, {"src/a.c", "int a;\n", 0}};
	struct gw_commit c = {
	    .ref = "refs/heads/main", .files = f1, .nfiles = 2, .message = "base\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c, base, &e), 0);
	CU_ASSERT_EQUAL(gw_tag(r, "v1.0", "main", &e), 0);
	struct gw_file f2[] = {{"src/a.c", "int a = 1;\n", 0}, {"README", NULL, 0}};
	struct gw_commit c2 = {
	    .ref = "refs/heads/main", .files = f2, .nfiles = 2, .message = "HACK: change a\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c2, a, &e), 0);
	struct gw_file f3[] = {{"src/b.c", "int b;\n", 0}};
	struct gw_commit c3 = {.ref = "refs/heads/side",
			       .parent = base,
			       .files = f3,
			       .nfiles = 1,
			       .message = "side\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c3, side, &e), 0);
	struct gw_commit c4 = {.ref = "refs/heads/main",
			       .second_parent = "side",
			       .files = f3,
			       .nfiles = 1,
			       .message = "Merge side\n"};
	CU_ASSERT_EQUAL_FATAL(gw_commit(r, &c4, m, &e), 0);

	git_object *obj;
	CU_ASSERT_EQUAL_FATAL(git_revparse_single(&obj, r, "main"), 0);
	git_commit *head = (git_commit *)obj;
	CU_ASSERT_EQUAL(git_commit_parentcount(head), 2);
	char id[41];
	git_oid_tostr(id, sizeof(id), git_commit_parent_id(head, 0));
	CU_ASSERT_STRING_EQUAL(id, a);
	git_tree *tree;
	git_commit_tree(&tree, head);
	CU_ASSERT_PTR_NULL(git_tree_entry_byname(tree, "README"));
	git_tree_entry *ent;
	CU_ASSERT_EQUAL(git_tree_entry_bypath(&ent, tree, "src/b.c"), 0);
	git_tree_entry_free(ent);
	git_tree_free(tree);
	git_object_free(obj);
	CU_ASSERT_EQUAL(gw_tag(r, "v2", "nonexistent", &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "nonexistent"));
	git_repository_free(r);
	test_rmdir(dir);
	free(dir);
}

void suite_gitwrite(void)
{
	CU_pSuite s = CU_add_suite("gitwrite", NULL, NULL);
	CU_add_test(s, "commit chain, merge, tag", test_commit_chain);
	CU_add_test(s, "CA certificates skipped only as libgit2 starts",
		    test_certificates_after_start);
}
