/* Fuzz target: Clang versions as users write them (clangver_parse) and as
 * every vendor's `clang --version` prints them (clangver_from_output).
 * Checks: what klang prints parses back to the same version; comparison is
 * an order (reflexive, antisymmetric). */
#include "fuzz/fuzz.h"

#include "core/clangver.h"

static void clangver_round_trip(const struct clang_version *v)
{
	char full[64], shrt[64];
	struct clang_version back;
	clangver_str(v, full, sizeof(full));
	clangver_str_short(v, shrt, sizeof(shrt));
	FUZZ_CHECK(clangver_cmp(v, v) == 0);
	FUZZ_CHECK(clangver_parse(shrt, &back) == 0);
	FUZZ_CHECK(clangver_cmp(v, &back) == 0 && back.nparts == v->nparts);
	FUZZ_CHECK(clangver_parse(full, &back) == 0 && clangver_cmp(v, &back) == 0);
	FUZZ_CHECK(memchr(v->suffix, 0, sizeof(v->suffix)) &&
		   memchr(v->vendor, 0, sizeof(v->vendor)) &&
		   memchr(v->detail, 0, sizeof(v->detail)));
}

FUZZ_TARGET(clangver)
{
	char *s = fuzz_str(data, size);
	struct clang_version a, b;
	struct kerr e;
	bool have_a = clangver_parse(s, &a) == 0;
	if (have_a) {
		FUZZ_CHECK(a.nparts >= 1 && a.nparts <= 3);
		clangver_round_trip(&a);
	}
	if (clangver_from_output(s, &b, &e) == 0) {
		clangver_round_trip(&b);
		if (have_a) {
			int ab = clangver_cmp(&a, &b), ba = clangver_cmp(&b, &a);
			FUZZ_CHECK((ab > 0) == (ba < 0) && (ab == 0) == (ba == 0));
		}
	} else {
		FUZZ_CHECK(e.msg[0] && memchr(e.msg, 0, sizeof(e.msg)));
	}
	free(s);
	return 0;
}
