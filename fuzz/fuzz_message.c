/* Fuzz target: commit messages as they come from any repository or mbox:
 * subject, tags, trailers (Change-Id, Clang-Fixed, cherry-pick lines) and
 * the Clang versions a message mentions (version hints). */
#include "fuzz/fuzz.h"

#include "core/series.h"
#include "core/stack.h"

FUZZ_TARGET(message)
{
	static const char *const extra[] = {"FOO", "DO-NOT-MERGE"};
	char *s = fuzz_str(data, size);
	struct patch p;
	memset(&p, 0, sizeof(p));
	patch_parse_message(&p, s, extra, ARRAY_SIZE(extra));
	FUZZ_CHECK(p.subject && p.title);
	FUZZ_CHECK(p.ntags <= TAG_MAX_PER_SUBJECT && p.ntag_seq <= TAG_MAX_PER_SUBJECT);
	for (size_t i = 0; i < p.ntrailers; i++) {
		FUZZ_CHECK(p.trailers[i].key && p.trailers[i].value);
		FUZZ_CHECK(patch_trailer(&p, p.trailers[i].key) != NULL);
	}
	char *joined = patch_tags_join(&p, ",");
	FUZZ_CHECK(joined != NULL);
	free(joined);
	struct version_hint *hints = NULL;
	size_t nhints = 0;
	series_find_hints(s, &hints, &nhints);
	for (size_t i = 0; i < nhints; i++) {
		struct clang_version v;
		FUZZ_CHECK(hints[i].text && clangver_parse(hints[i].version, &v) == 0);
		free(hints[i].text);
	}
	free(hints);
	patch_free(&p);
	free(s);
	return 0;
}
