/* Fuzz target: patchset files (patchsets/NAME.yaml): the YAML loader with
 * its semantic checks and PCRE2 subject patterns, then every rule matched
 * against a few real subjects and Change-Ids and judged for a few Clangs.
 * Checks: a failed load says FILE:LINE:COL; a loaded rule has a place. */
#include "fuzz/fuzz.h"

#include "core/patchset.h"

FUZZ_TARGET(patchset)
{
	static const char *const messages[] = {
	    ("HACK: arm64: disable the LSE atomics for clang\n\nClang-Fixed: 5\n"
	     "Change-Id: I0123456789abcdef0123456789abcdef01234567\n"),
	    "BACKPORT: FROMLIST: pwm: Add support for different PWM output types\n",
	    "Revert \"ANDROID: ARM: fix it\"\n",
	    "",
	};
	static const char *const versions[] = {"4.0", "5", "14.0.6", "99.9.9"};
	const char *path = fuzz_file(data, size);
	struct patchset ps;
	struct kerr e;
	if (patchset_load(&ps, path, &e) < 0) {
		FUZZ_CHECK(str_startswith(e.msg, path));
		return 0;
	}
	FUZZ_CHECK(ps.name != NULL);
	for (size_t i = 0; i < ps.nrules; i++)
		FUZZ_CHECK(ps.rules[i].line >= 1 && ps.rules[i].col >= 1);
	for (size_t m = 0; m < ARRAY_SIZE(messages); m++) {
		struct patch p;
		memset(&p, 0, sizeof(p));
		snprintf(p.id, sizeof(p.id), "%s", "0123456789abcdef0123456789abcdef01234567");
		patch_parse_message(&p, messages[m], (const char *const *)ps.tags, ps.ntags);
		const struct ps_rule *r = patchset_match(&ps, &p);
		for (size_t v = 0; r && v < ARRAY_SIZE(versions); v++) {
			struct clang_version cv;
			clangver_parse(versions[v], &cv);
			ps_rule_keeps(r, &cv);
			struct strbuf sb = STRBUF_INIT;
			ps_rule_describe(r, &sb);
			sb_free(&sb);
		}
		patch_free(&p);
	}
	patchset_free(&ps);
	return 0;
}
