/* Tests for the triage store (core/triage.c): statuses per fingerprint in
 * .klang/triage.yaml, kept sorted and readable, written atomically. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/triage.h"
#include "core/util.h"
#include "tests/diagtest.h"
#include "tests/helpers.h"

static void test_roundtrip(void)
{
	char *dir = test_tmpdir();
	char *path = triage_path(dir);
	struct kerr e;
	char *log = dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log");
	struct diag_set *s = dt_parse_file(log, DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct diag *xdr = dt_find(s, "include/linux/sunrpc/xdr.h", 752, NULL);
	struct diag *trace = dt_find(s, "arch/x86/kernel/cpu/cacheinfo.c", 730, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(xdr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);

	struct triage *t = triage_new();
	CU_ASSERT_EQUAL(triage_load(t, path, &e), 0); /* no file yet: empty */
	triage_set(t, diag_fp(xdr), TRIAGE_FALSE_POSITIVE,
		   "SIZE_MAX / 4 on 64-bit: \"always\" false", xdr);
	triage_set(t, diag_fp(trace), TRIAGE_CONFIRMED, NULL, trace);
	triage_set(t, 0x1234, TRIAGE_NEW, NULL, NULL); /* back at new, no note: not written */
	triage_set(t, 0x5678, TRIAGE_NEW, "a note", NULL);
	triage_set(t, 0x5678, TRIAGE_NEW, "", NULL); /* an empty note removes it: gone too */
	CU_ASSERT_EQUAL(triage_save(t, path, &e), 0);
	triage_free(t);

	/* readable, sorted by file, no temporary left behind */
	char *text = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *a = strstr(text, "file: \"arch/x86/kernel/cpu/cacheinfo.c\"");
	char *b = strstr(text, "file: \"include/linux/sunrpc/xdr.h\"");
	CU_ASSERT_TRUE(a && b && a < b);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "status: false-positive"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "note: \"SIZE_MAX / 4 on 64-bit: \\\"always\\\" false\""));
	CU_ASSERT_PTR_NULL(strstr(text, "0000000000001234"));
	CU_ASSERT_PTR_NULL(strstr(text, "0000000000005678"));
	CU_ASSERT_PTR_NULL(strstr(text, "note: \"\""));
	free(text);
	char *kdir = xasprintf("%s/.klang", dir);
	DIR *dh = opendir(kdir);
	int files = 0;
	for (struct dirent *de; dh && (de = readdir(dh));)
		files += de->d_name[0] != '.' && !str_endswith(de->d_name, ".lock");
	if (dh)
		closedir(dh);
	CU_ASSERT_EQUAL(files, 1);
	free(kdir);

	/* loaded back and applied to a fresh parse: the same fingerprints */
	t = triage_new();
	CU_ASSERT_EQUAL(triage_load(t, path, &e), 0);
	CU_ASSERT_EQUAL(triage_count(t), 2);
	struct diag_set *s2 = dt_parse_file(log, DIAG_CC_UNKNOWN);
	triage_apply(t, s2);
	struct diag *d = dt_find(s2, "include/linux/sunrpc/xdr.h", 752, NULL);
	CU_ASSERT_EQUAL(d->status, TRIAGE_FALSE_POSITIVE);
	CU_ASSERT_STRING_EQUAL(d->triage_note, "SIZE_MAX / 4 on 64-bit: \"always\" false");
	CU_ASSERT_TRUE(triage_settled(d->status));
	d = dt_find(s2, "arch/x86/kernel/cpu/cacheinfo.c", 730, NULL);
	CU_ASSERT_EQUAL(d->status, TRIAGE_CONFIRMED);
	CU_ASSERT_FALSE(triage_settled(d->status));
	CU_ASSERT_EQUAL(dt_find(s2, "kernel/fork.c", 1276, NULL)->status, TRIAGE_NEW);
	/* an empty note removes the stored one; a status without a note keeps it */
	triage_set(t, diag_fp(xdr), TRIAGE_FALSE_POSITIVE, "", NULL);
	triage_set(t, diag_fp(trace), TRIAGE_WONTFIX, "kept", NULL);
	CU_ASSERT_EQUAL(triage_save(t, path, &e), 0);
	triage_free(t);
	t = triage_new();
	triage_set(t, diag_fp(trace), TRIAGE_FIXED, NULL, NULL);
	CU_ASSERT_EQUAL(triage_save(t, path, &e), 0);
	text = read_file(path, NULL, &e);
	CU_ASSERT_PTR_NULL(strstr(text ? text : "", "SIZE_MAX"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text ? text : "", "status: fixed\n  file: \"arch/x86"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text ? text : "", "note: \"kept\""));
	free(text);
	triage_free(t);
	diag_set_free(s2);
	diag_set_free(s);
	free(log);
	free(path);
	test_rmdir(dir);
	free(dir);
}

static void test_bad_store(void)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/triage.yaml", dir);
	struct kerr e;
	const char *bad = "- fingerprint: 00000000000000aa\n  status: maybe\n";
	CU_ASSERT_EQUAL(write_file_atomic(path, bad, strlen(bad), &e), 0);
	struct triage *t = triage_new();
	/* a corrupt store is reported, moved aside, and the store is empty */
	CU_ASSERT_EQUAL(triage_load(t, path, &e), 1);
	char *want = xasprintf("%s:2:11: status must be one of", path);
	CU_ASSERT_TRUE(str_startswith(e.msg, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "; moved aside to "));
	CU_ASSERT_EQUAL(triage_count(t), 0);
	free(want);
	const char *badfp = "- fingerprint: xyz\n  status: new\n";
	CU_ASSERT_EQUAL(write_file_atomic(path, badfp, strlen(badfp), &e), 0);
	CU_ASSERT_EQUAL(triage_load(t, path, &e), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is not 16 hex digits"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ".corrupt.2"));
	/* exactly 16 hex digits: strtoull would take "123", " 0x12" and "-1" */
	static const char *const notfp[] = {"123",
					    "0x23456789abcdef0",
					    " 123456789abcdef0",
					    "-123456789abcdef",
					    "123456789abcdef01",
					    ""};
	uint64_t fp = 0;
	for (size_t i = 0; i < ARRAY_SIZE(notfp); i++)
		CU_ASSERT_EQUAL(triage_fp_parse(notfp[i], &fp), -1);
	CU_ASSERT_EQUAL(triage_fp_parse("B1154b534a090ac0", &fp), 0);
	CU_ASSERT_EQUAL(fp, 0xb1154b534a090ac0ull);
	CU_ASSERT_EQUAL(triage_status_parse("wontfix"), TRIAGE_WONTFIX);
	CU_ASSERT_EQUAL(triage_status_parse("later"), -1);
	CU_ASSERT_STRING_EQUAL(triage_status_name(TRIAGE_FALSE_POSITIVE), "false-positive");
	triage_free(t);
	free(path);
	test_rmdir(dir);
	free(dir);
}

/* One warning twice on a line (Clang's -Wenum-conversion on both arms of a
 * ?:) and again on another line that reads alike: three places, three
 * fingerprints, the first keeping the one it had; the same place from
 * another unit shares its place's. A status set on one place is on it
 * alone. */
static void test_places_apart(void)
{
#define W(line, col)                                                                               \
	"drivers/net/dummy.c:" #line ":" #col                                                      \
	": warning: implicit conversion from enumeration type 'enum dummy_carrier' to "            \
	"different enumeration type 'enum netdev_state' [-Wenum-conversion]\n"                     \
	"        dev->state = on ? DUMMY_CARRIER_ON : DUMMY_CARRIER_OFF;\n"                        \
	"                   ~      ^~~~~~~~~~~~~~~~\n"
	const char *log = "  CC      drivers/net/dummy.o\n" W(22, 39) W(22, 20)
	    W(40, 20) "  CC      drivers/net/other.o\n" W(22, 20);
#undef W
	struct diag_set *s = dt_parse_text(log, DIAG_CC_CLANG);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(diag_set_size(s), 3);
	struct diag *a = NULL, *b = NULL, *c = NULL;
	for (size_t i = 0; i < diag_set_size(s); i++) {
		struct diag *d = diag_set_get(s, i);
		*(d->loc.line == 40 ? &c : d->loc.col == 20 ? &a : &b) = d;
	}
	CU_ASSERT_FATAL(a && b && c);
	uint64_t place = diag_fingerprint(a);
	CU_ASSERT_EQUAL(diag_fingerprint(b), place); /* alike, place by place */
	diag_set_fingerprints(s);
	CU_ASSERT_EQUAL(diag_fp(a), place); /* line 22 column 20: first, kept */
	CU_ASSERT_NOT_EQUAL(diag_fp(b), place);
	CU_ASSERT_NOT_EQUAL(diag_fp(c), place);
	CU_ASSERT_NOT_EQUAL(diag_fp(b), diag_fp(c));
	CU_ASSERT_EQUAL(a->occurrences, 2);

	struct triage *t = triage_new();
	triage_set(t, diag_fp(b), TRIAGE_CONFIRMED, NULL, b);
	struct diag_set *again = dt_parse_text(log, DIAG_CC_CLANG);
	triage_apply(t, again);
	unsigned confirmed = 0;
	for (size_t i = 0; i < diag_set_size(again); i++)
		if (diag_set_get(again, i)->status == TRIAGE_CONFIRMED) {
			confirmed++;
			CU_ASSERT_EQUAL(diag_set_get(again, i)->loc.col, 39);
		}
	CU_ASSERT_EQUAL(confirmed, 1);
	triage_free(t);
	diag_set_free(again);
	diag_set_free(s);
}

void suite_triage(void)
{
	CU_pSuite s = CU_add_suite("triage", NULL, NULL);
	CU_add_test(s, "save, load, apply", test_roundtrip);
	CU_add_test(s, "bad store", test_bad_store);
	CU_add_test(s, "places with one fingerprint told apart", test_places_apart);
}
