/* Tests for core/objread: every object of real repositories (fast-import
 * packs with offset deltas, packs with id deltas, repacked packs, loose
 * objects) reads the same as through libgit2, with a cache big or tiny. */
#include <CUnit/CUnit.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/objread.h"
#include "core/util.h"
#include "tests/helpers.h"
#include "tests/stackrepo.h"

struct check {
	git_odb *odb;
	struct objread *o;
	size_t objects, bad;
	const char *held; /* one object kept pinned across reads */
};

static int check_one(const git_oid *id, void *payload)
{
	struct check *c = payload;
	git_odb_object *want;
	git_object_t type;
	const char *data;
	size_t len;
	c->objects++;
	if (git_odb_read(&want, c->odb, id) < 0 || objread_read(c->o, id, &type, &data, &len) < 0) {
		c->bad++;
		return 0;
	}
	if (type != git_odb_object_type(want) || len != git_odb_object_size(want) ||
	    memcmp(data, git_odb_object_data(want), len) || data[len] != '\0')
		c->bad++;
	git_odb_object_free(want);
	if (!c->held && type == GIT_OBJECT_TREE)
		c->held = data; /* must survive every eviction that follows */
	else
		objread_release(c->o, data);
	return 0;
}

static void check_repo(const char *dir, size_t limit, size_t want_packs)
{
	git_repository *r;
	struct check c = {0};
	gw_libinit();
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&r, dir), 0);
	CU_ASSERT_EQUAL_FATAL(git_repository_odb(&c.odb, r), 0);
	c.o = objread_new(r);
	CU_ASSERT_EQUAL(objread_packs(c.o), want_packs);
	if (limit)
		objread_limit(c.o, limit);
	/* twice: the second pass reads from the cache (or after evictions) */
	for (int pass = 0; pass < 2; pass++)
		CU_ASSERT_EQUAL(git_odb_foreach(c.odb, check_one, &c), 0);
	CU_ASSERT(c.objects > 100);
	CU_ASSERT_EQUAL(c.bad, 0);
	/* the pinned tree is still whole */
	CU_ASSERT_PTR_NOT_NULL(c.held);
	objread_release(c.o, c.held);
	objread_free(c.o);
	git_odb_free(c.odb);
	git_repository_free(r);
}

static void test_packs(void)
{
	char *dir = stackrepo_generate(600, 60);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	check_repo(dir, 0, 1);	  /* fast-import: deep offset-delta chains */
	check_repo(dir, 4096, 1); /* evicting all the time */
	char *cmd = xasprintf("git -C '%s' -c repack.useDeltaBaseOffset=false repack -adfq", dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	check_repo(dir, 0, 1); /* id deltas, newest objects whole */
	check_repo(dir, 1, 1);
	test_rmdir(dir);
	free(dir);
}

static void test_loose(void)
{
	struct stackrepo sr;
	CU_ASSERT_EQUAL_FATAL(stackrepo_build(&sr), 0);
	check_repo(sr.dir, 0, 0); /* no pack: everything through libgit2 */
	char *cmd = xasprintf("git -C '%s' gc -q", sr.dir);
	CU_ASSERT_EQUAL(test_run(cmd, NULL, NULL), 0);
	free(cmd);
	check_repo(sr.dir, 0, 1);
	stackrepo_free(&sr);
}

struct once {
	git_repository *r;
	git_odb *odb;
	struct objread *o;
	size_t commits, bad;
};

static int once_one(const git_oid *id, void *payload)
{
	struct once *k = payload;
	git_odb_object *want;
	git_object_t type;
	const char *data;
	size_t len;
	if (git_odb_read(&want, k->odb, id) < 0)
		return -1;
	if (git_odb_object_type(want) == GIT_OBJECT_COMMIT) {
		k->commits++;
		if (objread_read_once(k->o, id, &type, &data, &len) < 0 ||
		    type != GIT_OBJECT_COMMIT || len != git_odb_object_size(want) ||
		    memcmp(data, git_odb_object_data(want), len) || data[len] != '\0')
			k->bad++;
		else
			objread_release(k->o, data);
	}
	git_odb_object_free(want);
	return 0;
}

/* The commits of a walk are read once: the same bytes, and (stored whole,
 * as fast-import stores them) nothing kept in the cache; read the usual
 * way, they are kept. */
static void test_once(void)
{
	char *dir = stackrepo_generate(300, 30);
	struct once k = {0};
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	gw_libinit();
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&k.r, dir), 0);
	CU_ASSERT_EQUAL_FATAL(git_repository_odb(&k.odb, k.r), 0);
	k.o = objread_new(k.r);
	CU_ASSERT_EQUAL(git_odb_foreach(k.odb, once_one, &k), 0);
	CU_ASSERT(k.commits >= 300);
	CU_ASSERT_EQUAL(k.bad, 0);
	CU_ASSERT_EQUAL(objread_cached(k.o), 0);
	git_object *head;
	git_object_t type;
	const char *data;
	size_t len;
	CU_ASSERT_EQUAL_FATAL(git_revparse_single(&head, k.r, "master"), 0);
	CU_ASSERT_EQUAL(objread_read(k.o, git_object_id(head), &type, &data, &len), 0);
	CU_ASSERT_EQUAL(objread_cached(k.o), len);
	objread_release(k.o, data);
	git_object_free(head);
	objread_free(k.o);
	git_odb_free(k.odb);
	git_repository_free(k.r);
	test_rmdir(dir);
	free(dir);
}

void suite_objread(void)
{
	CU_pSuite s = CU_add_suite("objread", NULL, NULL);
	CU_add_test(s, "packed objects", test_packs);
	CU_add_test(s, "loose and gc'ed", test_loose);
	CU_add_test(s, "commits read once", test_once);
}
