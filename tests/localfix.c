/* Paths of the fixtures kept under tests/fixtures (not a suite). */
#include "tests/localfix.h"

#include "core/util.h"
#include "tests/helpers.h"

char *test_local_fixture(const char *rel)
{
	return xasprintf("%s/tests/fixtures/%s", test_src_dir(), rel);
}
