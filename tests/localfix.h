/* Fixtures kept in this tree (tests/fixtures/...), for suites that must run
 * from any worktree. */
#ifndef KLANG_TESTS_LOCALFIX_H
#define KLANG_TESTS_LOCALFIX_H

/* $KLANG_SRC/tests/fixtures/<rel>; caller frees. */
char *test_local_fixture(const char *rel);

#endif
