/* Fuzz target: structured diagnostics input, SARIF 2.1.0 (clang, gcc) and
 * GCC's JSON, as `klang diag parse file.sarif` reads it; then klang's own
 * JSON and SARIF written from what was read. Checks: a refused document
 * says why and where; what is read has a file and valid UTF-8 text. */
#include "fuzz/fuzz.h"

#include "core/diag.h"
#include "core/sarif.h"

FUZZ_TARGET(sarif)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	struct diag_parser_opts o = {.log_name = "fuzz.sarif"};
	struct diag_set *s = diag_set_new();
	struct diag_parser *p = diag_parser_new(&o);
	struct kerr e;
	int rc = diag_read_json(p, (const char *)data, size, "fuzz.sarif", &e);
	if (rc < 0)
		FUZZ_CHECK(str_startswith(e.msg, "fuzz.sarif"));
	diag_parser_finish(p, rc < 0 ? NULL : s);
	diag_set_sort(s);
	size_t n = diag_set_size(s);
	struct diag **rows = xcalloc(n + 1, sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		rows[i] = diag_set_get(s, i);
		FUZZ_CHECK(rows[i]->loc.file && rows[i]->message && rows[i]->flag);
		FUZZ_CHECK(fuzz_utf8_valid(rows[i]->message) && fuzz_utf8_valid(rows[i]->loc.file));
	}
	FUZZ_CHECK(diag_write_json(null, rows, n, DIAG_VIEW_PARSE, NULL) == 0);
	FUZZ_CHECK(diag_write_sarif(null, rows, n, DIAG_VIEW_PARSE) == 0);
	free(rows);
	diag_set_free(s);
	return 0;
}
