/* Tests for core/tags and the message parser of core/patch: subject tags
 * with the traps of real stacks, subjects, bodies and trailers. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "core/stack.h"
#include "core/tags.h"
#include "tests/helpers.h"

/* The tags of a subject as "A,B" (extras by name) and its title. */
static char *tags_of(const char *subject, const char *const *extra, size_t nextra,
		     const char **title, bool *revert)
{
	struct subject_tags st;
	struct strbuf sb = STRBUF_INIT;
	subject_parse_tags(subject, extra, nextra, &st);
	for (size_t i = 0; i < st.nseq; i++) {
		if (i)
			sb_addc(&sb, ',');
		sb_adds(&sb, st.seq[i] >= 0 ? tag_names[st.seq[i]] : extra[-st.seq[i] - 1]);
	}
	if (title)
		*title = st.title;
	if (revert)
		*revert = st.revert;
	return sb_detach(&sb);
}

static void check(const char *subject, const char *want_tags, const char *want_title)
{
	const char *title;
	char *tags = tags_of(subject, NULL, 0, &title, NULL);
	CU_ASSERT_STRING_EQUAL(tags, want_tags);
	CU_ASSERT_STRING_EQUAL(title, want_title);
	if (strcmp(tags, want_tags) || strcmp(title, want_title))
		fprintf(stderr, "\n  '%s': tags '%s' title '%s'\n", subject, tags, title);
	free(tags);
}

static void test_names(void)
{
	CU_ASSERT_EQUAL(TAG_COUNT, 9);
	CU_ASSERT_STRING_EQUAL(tag_names[TAG_UPSTREAM], "UPSTREAM");
	CU_ASSERT_STRING_EQUAL(tag_names[TAG_ANDROID], "ANDROID");
	CU_ASSERT_EQUAL(tag_from_name("FROMLIST"), TAG_FROMLIST);
	CU_ASSERT_EQUAL(tag_from_name("fromlist"), -1);
	CU_ASSERT_EQUAL(tag_from_name_icase("fromlist"), TAG_FROMLIST);
	CU_ASSERT_EQUAL(tag_from_name("ARM"), -1);
}

static void test_known_and_combined(void)
{
	check("UPSTREAM: usb: fix", "UPSTREAM", "usb: fix");
	check("BACKPORT: FROMLIST: pwm: Add support", "BACKPORT,FROMLIST", "pwm: Add support");
	check("HACK: ARM: Don't enable X", "HACK", "ARM: Don't enable X");
	check("FROMGIT: IB/qib: Fix clang confusion", "FROMGIT", "IB/qib: Fix clang confusion");
	check("OBSOLETE:   extra  blanks", "OBSOLETE", "extra  blanks");
	check("CHROMIUM: CUSTOM: two", "CHROMIUM,CUSTOM", "two");
	check("HACK:", "HACK", "");
	check("plain subject", "", "plain subject");
	check("", "", "");
}

static void test_traps(void)
{
	check("DO-NOT-UPSTREAM: debug", "", "DO-NOT-UPSTREAM: debug");
	check("ANDROID: ARM: enable", "ANDROID", "ARM: enable");
	check("FROMLIST: USB: gadget: fix", "FROMLIST", "USB: gadget: fix");
	check("NOUPSTREAM: x", "", "NOUPSTREAM: x");
	check("UPSTREAMING: x", "", "UPSTREAMING: x");
	check("Upstream: lower case", "", "Upstream: lower case");
	check("HACK:no space", "", "HACK:no space");
	check("ARM: HACK: subsystem first", "", "ARM: HACK: subsystem first");
	check("[sh4] Fix uImage build", "", "[sh4] Fix uImage build");
	/* repeated tags are read as written */
	check("UPSTREAM: UPSTREAM: twice", "UPSTREAM,UPSTREAM", "twice");
}

static void test_revert(void)
{
	const char *title;
	bool revert;
	char *tags = tags_of("Revert \"BACKPORT: FROMLIST: pwm: x\"", NULL, 0, &title, &revert);
	CU_ASSERT_STRING_EQUAL(tags, "");
	CU_ASSERT_TRUE(revert);
	CU_ASSERT_STRING_EQUAL(title, "Revert \"BACKPORT: FROMLIST: pwm: x\"");
	free(tags);
	tags = tags_of("UPSTREAM: Revert \"mm: y\"", NULL, 0, &title, &revert);
	CU_ASSERT_STRING_EQUAL(tags, "UPSTREAM");
	CU_ASSERT_TRUE(revert);
	CU_ASSERT_STRING_EQUAL(title, "Revert \"mm: y\"");
	free(tags);
	tags = tags_of("Reverts are not \"Revert\"", NULL, 0, &title, &revert);
	CU_ASSERT_FALSE(revert);
	free(tags);
}

static void test_mail_prefixes(void)
{
	check("[PATCH] HACK: ARM: Don't enable", "HACK", "ARM: Don't enable");
	check("[PATCH 2/3] FROMLIST: ARM: select X", "FROMLIST", "ARM: select X");
	check("[RFC PATCH v2 3/7] BACKPORT: FROMGIT: a", "BACKPORT,FROMGIT", "a");
	check("[PATCH v3] [RFC] UPSTREAM: b", "UPSTREAM", "b");
	/* no tag after the prefix: the subject is kept whole */
	check("[PATCH] nbd: use shifts", "", "[PATCH] nbd: use shifts");
	const char *title;
	bool revert;
	char *tags = tags_of("[PATCH] Revert \"HACK: z\"", NULL, 0, &title, &revert);
	CU_ASSERT_TRUE(revert);
	CU_ASSERT_STRING_EQUAL(tags, "");
	free(tags);
}

static void test_extra_tags(void)
{
	const char *extra[] = {"NOUPSTREAM", "CLANG-HACK"};
	const char *title;
	char *tags = tags_of("NOUPSTREAM: HACK: CLANG-HACK: ARM: x", extra, 2, &title, NULL);
	CU_ASSERT_STRING_EQUAL(tags, "NOUPSTREAM,HACK,CLANG-HACK");
	CU_ASSERT_STRING_EQUAL(title, "ARM: x");
	free(tags);
	tags = tags_of("DO-NOT-NOUPSTREAM: y", extra, 2, &title, NULL);
	CU_ASSERT_STRING_EQUAL(tags, "");
	free(tags);
}

static void test_many_tags(void)
{
	/* more tags than a patch holds: the rest stay in the title */
	const char *s = "HACK: HACK: HACK: HACK: HACK: HACK: HACK: HACK: HACK: HACK: t";
	const char *title;
	char *tags = tags_of(s, NULL, 0, &title, NULL);
	CU_ASSERT_EQUAL(strlen(tags), TAG_MAX_PER_SUBJECT * 5 - 1);
	CU_ASSERT_STRING_EQUAL(title, "HACK: HACK: t");
	free(tags);
}

static void test_message(void)
{
	struct patch p = {0};
	const char *extra[] = {"NOUPSTREAM"};
	patch_parse_message(&p,
			    "\n\nNOUPSTREAM: BACKPORT: FROMLIST: pwm: Add\n"
			    "  output types   \n\n\n"
			    "Some hardware inverts.\n"
			    "(cherry picked from commit 0123abcd)\n\n"
			    "[Lee: Backported, minor conflicts]\n"
			    "Bug: 123456\n"
			    "Link: https://lore.kernel.org/r/1\n"
			    "Change-Id: Iabc\n"
			    "Signed-off-by: Lee <lee@example.org>\n"
			    "Clang-Fixed: 15\n"
			    "Long-Trailer: first part\n"
			    " second part\n\n\n",
			    extra, 1);
	CU_ASSERT_STRING_EQUAL(p.subject,
			       "NOUPSTREAM: BACKPORT: FROMLIST: pwm: Add   output types");
	CU_ASSERT_STRING_EQUAL(p.title, "pwm: Add   output types");
	CU_ASSERT_EQUAL(p.ntags, 2);
	CU_ASSERT_EQUAL(p.tags, TAG_BIT(TAG_BACKPORT) | TAG_BIT(TAG_FROMLIST));
	CU_ASSERT_EQUAL(p.tag_order[0], TAG_BACKPORT);
	CU_ASSERT_EQUAL(p.nextra_tags, 1);
	CU_ASSERT_STRING_EQUAL(p.extra_tags[0], "NOUPSTREAM");
	char *joined = patch_tags_join(&p, ",");
	CU_ASSERT_STRING_EQUAL(joined, "NOUPSTREAM,BACKPORT,FROMLIST");
	free(joined);
	CU_ASSERT_TRUE(str_startswith(p.body, "Some hardware inverts.\n"));
	CU_ASSERT_TRUE(str_endswith(p.body, " second part"));
	CU_ASSERT_EQUAL(p.ntrailers, 7);
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "(cherry picked from commit"), "0123abcd");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "bug"), "123456");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "Link"), "https://lore.kernel.org/r/1");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "Change-Id"), "Iabc");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "Clang-Fixed"), "15");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p, "Long-Trailer"), "first part  second part");
	CU_ASSERT_PTR_NULL(patch_trailer(&p, "Lee"));
	CU_ASSERT_PTR_NULL(patch_trailer(&p, "Clang-Min"));
	CU_ASSERT_STRING_EQUAL(p.trailers[0].key, "(cherry picked from commit");
	patch_free(&p);
}

static void test_message_not_trailers(void)
{
	struct patch p = {0};
	/* a last paragraph of prose with one "Note:" line is not a trailer block */
	patch_parse_message(&p,
			    "UPSTREAM: x\n\nBody.\n\nThis is prose that explains things\n"
			    "over several lines of text, and then\nNote: it ends\n",
			    NULL, 0);
	CU_ASSERT_EQUAL(p.ntrailers, 0);
	patch_free(&p);
	/* the subject alone is never a trailer */
	patch_parse_message(&p, "Signed-off-by: nobody\n", NULL, 0);
	CU_ASSERT_EQUAL(p.ntrailers, 0);
	CU_ASSERT_STRING_EQUAL(p.body, "");
	CU_ASSERT_EQUAL(p.ntags, 0);
	patch_free(&p);
	/* a URL alone is not a trailer named https */
	patch_parse_message(&p, "x\n\nhttps://example.org/bug/1\n", NULL, 0);
	CU_ASSERT_EQUAL(p.ntrailers, 0);
	patch_free(&p);
	/* trailers with a minority of other lines and a Signed-off-by */
	patch_parse_message(&p,
			    "x\n\nBody\n\n[note one]\n[note two]\n[note three]\nBug: 1\n"
			    "Signed-off-by: a <a@b>\n",
			    NULL, 0);
	CU_ASSERT_EQUAL(p.ntrailers, 2);
	patch_free(&p);
	patch_parse_message(&p, NULL, NULL, 0);
	CU_ASSERT_STRING_EQUAL(p.subject, "");
	CU_ASSERT_STRING_EQUAL(p.title, "");
	patch_free(&p);
}

void suite_tags(void)
{
	CU_pSuite s = CU_add_suite("tags", NULL, NULL);
	CU_add_test(s, "tag names", test_names);
	CU_add_test(s, "known and combined tags", test_known_and_combined);
	CU_add_test(s, "traps of real stacks", test_traps);
	CU_add_test(s, "reverts", test_revert);
	CU_add_test(s, "[PATCH] prefixes", test_mail_prefixes);
	CU_add_test(s, "patchset extra tags", test_extra_tags);
	CU_add_test(s, "more tags than fit", test_many_tags);
	CU_add_test(s, "message: subject, body, trailers", test_message);
	CU_add_test(s, "message: what is not a trailer", test_message_not_trailers);
}
