/* Fuzz target: the triage store (.klang/triage.yaml) through the real state
 * path: load (a corrupt file is moved aside), set a status, save (re-read,
 * merge, atomic write under the lock), load again. Checks: a moved-aside
 * file keeps the input byte for byte; what klang writes, it reads back
 * without complaint, with the status it set. */
#include "fuzz/fuzz.h"

#include "core/triage.h"

FUZZ_TARGET(triage)
{
	char *path = fuzz_state_file("triage.yaml", data, size, NULL);
	char *corrupt = xasprintf("%s.corrupt", path);
	struct kerr e;
	struct triage *t = triage_new();
	int rc = triage_load(t, path, &e);
	if (rc == 1) {
		size_t len;
		char *kept = read_file(corrupt, &len, &e);
		FUZZ_CHECK(kept && len == size && !memcmp(kept, data, size));
		free(kept);
	}
	if (rc >= 0) {
		triage_set(t, 0xfeedfacecafebeefULL, TRIAGE_WONTFIX, "fuzz \"note\"\n\t\x01", NULL);
		FUZZ_CHECK(triage_save(t, path, &e) == 0);
		struct triage *back = triage_new();
		FUZZ_CHECK(triage_load(back, path, &e) == 0);
		const struct triage_entry *en = triage_get(back, 0xfeedfacecafebeefULL);
		FUZZ_CHECK(en && en->status == TRIAGE_WONTFIX && en->note &&
			   !strcmp(en->note, "fuzz \"note\"\n\t\x01"));
		FUZZ_CHECK(triage_count(back) == triage_count(t));
		triage_free(back);
	}
	triage_free(t);
	free(corrupt);
	free(path);
	return 0;
}
