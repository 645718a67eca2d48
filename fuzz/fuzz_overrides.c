/* Fuzz target: the manual overrides store (.klang/overrides.yaml) through
 * the real state path: load (a corrupt file is moved aside), decide, set an
 * override (re-read, merge, atomic write under the lock), load again.
 * Checks: a moved-aside file keeps the input byte for byte; whatever klang
 * writes, it reads back without complaint, with the new override in it. */
#include "fuzz/fuzz.h"

#include "core/series.h"
#include "core/stack.h"

FUZZ_TARGET(overrides)
{
	static const char *const messages[] = {
	    "HACK: arm64: work around clang\n\nChange-Id: "
	    "I1111111111111111111111111111111111111111\n",
	    "OBSOLETE: x86: fixed in LLVM 6\n\nClang-Fixed: 6\n",
	};
	const char *dir;
	char *path = fuzz_state_file("overrides.yaml", data, size, &dir);
	struct kerr e;
	struct patch patches[ARRAY_SIZE(messages)];
	struct stack st = {
	    .repo_path = (char *)dir, .patches = patches, .npatches = ARRAY_SIZE(messages)};
	for (size_t i = 0; i < ARRAY_SIZE(messages); i++) {
		memset(&patches[i], 0, sizeof(patches[i]));
		patches[i].index = i + 1;
		snprintf(patches[i].id, sizeof(patches[i].id), "%040zx", i + 0xabc);
		patch_parse_message(&patches[i], messages[i], NULL, 0);
	}
	struct series s;
	struct clang_version v;
	clangver_parse("14.0.6", &v);
	int rc = series_open(&s, &st, NULL, &e);
	if (rc == 1) { /* moved aside: the input is kept as it was */
		char *corrupt = xasprintf("%s.corrupt", path);
		size_t len;
		char *kept = read_file(corrupt, &len, &e);
		FUZZ_CHECK(kept && len == size && !memcmp(kept, data, size));
		FUZZ_CHECK(strstr(e.msg, "moved aside to") != NULL);
		free(kept);
		free(corrupt);
	}
	if (rc >= 0) {
		series_decide(&s, &v);
		FUZZ_CHECK(series_override(&s, 1, OV_DROP, NULL, &e) == 0);
		FUZZ_CHECK(series_override(&s, 0, OV_KEEP, NULL, &e) == 0);
		series_free(&s);
		/* what klang wrote reads back cleanly, with its overrides */
		FUZZ_CHECK(series_open(&s, &st, NULL, &e) == 0);
		if (s.ov_path) {
			series_decide(&s, &v);
			FUZZ_CHECK(s.items[1].ov && !s.items[1].keep);
			FUZZ_CHECK(s.items[0].ov && s.items[0].keep);
			series_free(&s);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(messages); i++)
		patch_free(&patches[i]);
	free(path);
	return 0;
}
