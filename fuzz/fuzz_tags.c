/* Fuzz target: the subject-tag parser. Input: an optional first line of
 * comma-separated extra tag words (a patchset's `tags:`), then a subject.
 * Checks: the title is the tail of the subject, tag counts and sequence
 * agree, every index is in range. */
#include "fuzz/fuzz.h"

#include "core/tags.h"

FUZZ_TARGET(tags)
{
	char *s = fuzz_str(data, size);
	char *extra[4];
	size_t nextra = 0;
	char *subject = s, *nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		subject = nl + 1;
		for (char *w = strtok(s, ","); w && nextra < ARRAY_SIZE(extra);
		     w = strtok(NULL, ","))
			extra[nextra++] = w;
	}
	struct subject_tags t;
	subject_parse_tags(subject, (const char *const *)extra, nextra, &t);
	size_t len = strlen(subject);
	FUZZ_CHECK(t.title >= subject && t.title <= subject + len);
	FUZZ_CHECK(t.ntags <= TAG_MAX_PER_SUBJECT && t.nextra <= TAG_MAX_PER_SUBJECT);
	FUZZ_CHECK(t.nseq == t.ntags + t.nextra);
	for (size_t i = 0; i < t.ntags; i++)
		FUZZ_CHECK(t.tags[i] < TAG_COUNT);
	for (size_t i = 0; i < t.nextra; i++)
		FUZZ_CHECK(t.extra[i] < nextra);
	size_t known = 0, other = 0;
	for (size_t i = 0; i < t.nseq; i++) {
		if (t.seq[i] >= 0) {
			FUZZ_CHECK(t.seq[i] < TAG_COUNT && t.seq[i] == t.tags[known]);
			known++;
		} else {
			FUZZ_CHECK((size_t)(-t.seq[i] - 1) < nextra);
			other++;
		}
	}
	FUZZ_CHECK(known == t.ntags && other == t.nextra);
	/* the names of the tags found are in the subject, before the title */
	for (size_t i = 0; i < t.ntags; i++) {
		const char *at = strstr(subject, tag_names[t.tags[i]]);
		FUZZ_CHECK(at && at < t.title);
	}
	free(s);
	return 0;
}
