/* Fuzz target: the streaming build-log parser (GCC and Clang text, -j
 * interleaving, notes, macro and include chains, kernel-doc, objtool, ld,
 * make) and every writer of what it found (text, TSV, quickfix, JSON,
 * SARIF). The first byte says where to cut the log in two slices.
 * Checks: slices give the same diagnostics as one read, and a brief parse
 * (TSV, quickfix) the same rows, occurrences and fingerprints; every diagnostic
 * has a file and valid UTF-8 text, at least one occurrence, its
 * fingerprint; the set is sorted. */
#include "fuzz/fuzz.h"

#include "core/diag.h"
#include "core/diagdiff.h"
#include "core/diagout.h"
#include "core/sarif.h"

static struct diag_set *diag_parse_slices(const char *log, size_t size, size_t cut,
					  struct diag_counts *c, bool brief)
{
	struct diag_parser_opts o = {.log_name = "fuzz.log", .brief = brief};
	struct diag_set *s = diag_set_new();
	struct diag_parser *p = diag_parser_new(&o);
	diag_parser_feed(p, log, cut);
	diag_parser_feed(p, log + cut, size - cut);
	diag_parser_counts(p, c);
	diag_parser_finish(p, s);
	diag_set_sort(s);
	return s;
}

static void diag_check(const struct diag *d, size_t i)
{
	FUZZ_CHECK(d->index == i);
	FUZZ_CHECK(d->loc.file && d->spell.file && d->flag && d->message && d->arch);
	FUZZ_CHECK(fuzz_utf8_valid(d->message) && fuzz_utf8_valid(d->loc.file));
	FUZZ_CHECK(d->occurrences >= 1);
	FUZZ_CHECK(diag_fp(d) == diag_fingerprint(d) && diag_fp(d) == diag_fp(d));
	FUZZ_CHECK(d->nmacros <= d->nnotes);
	for (size_t n = 0; n < d->nnotes; n++)
		FUZZ_CHECK(d->notes[n].msg && d->notes[n].loc.file &&
			   fuzz_utf8_valid(d->notes[n].msg));
	for (size_t n = 0; n < d->ntus; n++)
		FUZZ_CHECK(d->tus[n] != NULL);
}

FUZZ_TARGET(diag)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!size)
		return 0;
	size_t cut = (size_t)data[0] * (size - 1) / 255;
	const char *log = (const char *)data + 1;
	size--;
	struct diag_counts one, two, three;
	struct diag_set *whole = diag_parse_slices(log, size, size, &one, false);
	struct diag_set *s = diag_parse_slices(log, size, cut, &two, false);
	struct diag_set *brief = diag_parse_slices(log, size, cut, &three, true);
	FUZZ_CHECK(diag_set_size(s) == diag_set_size(whole));
	FUZZ_CHECK(diag_set_size(brief) == diag_set_size(whole));
	FUZZ_CHECK(one.lines == two.lines && one.warnings == two.warnings &&
		   one.errors == two.errors);
	FUZZ_CHECK(one.lines == three.lines && one.warnings == three.warnings);
	size_t n = diag_set_size(s);
	struct diag **rows = xcalloc(n + 1, sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		rows[i] = diag_set_get(s, i);
		diag_check(rows[i], i);
		FUZZ_CHECK(diag_cmp(rows[i], diag_set_get(whole, i)) == 0);
		const struct diag *b = diag_set_get(brief, i);
		FUZZ_CHECK(diag_cmp(rows[i], b) == 0 && b->occurrences == rows[i]->occurrences &&
			   diag_fp(b) == diag_fp(rows[i]) && !b->nnotes && !b->ntus &&
			   !b->nincludes);
		if (i)
			FUZZ_CHECK(diag_cmp(rows[i - 1], rows[i]) <= 0);
	}
	struct diag_totals t;
	diag_set_totals(s, &t);
	FUZZ_CHECK(t.distinct_warnings + t.distinct_errors == n);
	diag_write_text(null, rows, n, DIAG_VIEW_PARSE, NULL);
	diag_write_tsv(null, rows, n, DIAG_VIEW_PARSE);
	diag_write_quickfix(null, rows, n, DIAG_VIEW_PARSE);
	FUZZ_CHECK(diag_write_json(null, rows, n, DIAG_VIEW_PARSE, NULL) == 0);
	FUZZ_CHECK(diag_write_sarif(null, rows, n, DIAG_VIEW_PARSE) == 0);
	/* the log against itself: everything is on both sides, or outstanding */
	struct diag_diff dd;
	diag_diff_baseline(whole, s, true, &dd);
	FUZZ_CHECK(dd.added == 0 && dd.fixed == 0);
	diag_diff_free(&dd);
	free(rows);
	diag_set_free(s);
	diag_set_free(whole);
	diag_set_free(brief);
	return 0;
}
