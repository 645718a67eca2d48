/* Shared test helpers: temporary directories, running the klang binary. */
#ifndef KLANG_TESTS_HELPERS_H
#define KLANG_TESTS_HELPERS_H

#include <stdbool.h>

/* A fresh directory under $TMPDIR; caller frees (and test_rmdir()s it). */
char *test_tmpdir(void);
void test_rmdir(const char *dir);
/* The klang binary under test ($KLANG_BIN, set by make check). */
const char *test_klang_bin(void);
/* The source tree ($KLANG_SRC) and the shared fixtures (../shared/fixtures). */
const char *test_src_dir(void);
char *test_fixture(const char *rel); /* caller frees */
/* Run a shell command line; capture stdout (and stderr if err != NULL).
 * Returns the exit status (or -1). Caller frees *out / *err. */
int test_run(const char *cmdline, char **out, char **err);

#endif
