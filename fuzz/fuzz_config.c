/* Fuzz target: the configuration file (config.yaml: theme, editor, jobs,
 * arches, toolchains, wrapper, key bindings), as users write it by hand.
 * Checks: errors name the file and a line; what klang dumps (klang
 * --dump-config) reads back to the same configuration. */
#include "fuzz/fuzz.h"

#include "core/config.h"

FUZZ_TARGET(config)
{
	struct config c = {0}, d = {0};
	struct kerr e;
	config_defaults(&c);
	if (config_load_text(&c, (const char *)data, size, "config.yaml", NULL, &e) < 0) {
		FUZZ_CHECK(str_startswith(e.msg, "config.yaml"));
		config_free(&c);
		return 0;
	}
	char *dump = config_dump(&c);
	config_defaults(&d);
	FUZZ_CHECK(config_load_text(&d, dump, strlen(dump), "config.yaml", NULL, &e) == 0);
	char *again = config_dump(&d);
	FUZZ_CHECK(!strcmp(dump, again));
	free(again);
	free(dump);
	config_free(&d);
	config_free(&c);
	return 0;
}
