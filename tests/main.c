/* CUnit runner: one suite per tests/test_NAME.c, registered by suite_NAME().
 * Arguments name suites to run (default: all). */
#include <CUnit/Basic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SUITE(name) void suite_##name(void);
#include "suites.inc"
#undef SUITE

int main(int argc, char **argv)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
#define SUITE(name)                                                                                \
	do {                                                                                       \
		bool want = argc < 2;                                                              \
		for (int i = 1; i < argc; i++)                                                     \
			want |= !strcmp(argv[i], #name);                                           \
		if (want)                                                                          \
			suite_##name();                                                            \
	} while (0);
#include "suites.inc"
#undef SUITE
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	unsigned fails = CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	printf("\n%u passed, %u failed\n", run - fails, fails);
	return failed ? 1 : 0;
}
